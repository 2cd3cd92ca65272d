//! The fuzz inputs and the checks run on them, shared by the `fuzz` tests and the
//! `fuzz_cli` example (which includes this file by path).
//!
//! - [`puzzle_text`]: random small *valid* puzzles as RON text (every graph form, explicit
//!   buttons, staged phases, press limits, intended plans, labels, small and huge moduli, weights
//!   up to the `i64` extremes, states as lists, `All` and pictures).
//! - [`library_run`]: one puzzle through every library path the binary uses (analysis with
//!   every engine, objective and `list_all`, `check`, the player strategies, the par histogram,
//!   writing it back as RON), each call under `catch_unwind`, each returned plan simulated.
//! - [`command_line`]: random argument vectors from the real subcommands and flags, good and bad
//!   values, unknown flags and missing values; [`cli_run`] runs one as a process with a
//!   wall-clock limit and judges how it ended.

use std::collections::BTreeMap;
use std::io::Read;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Mutex, Once};
use std::time::{Duration, Instant};

use modsolve::analysis::{Analysis, Engine, Options, analysis_of};
use modsolve::model::Puzzle;
use modsolve::solve::{Budget, Objective};
use modsolve::strategy::replay;
use modsolve::{InternalError, parse_puzzle};
use num_bigint::BigUint;
use num_traits::{ToPrimitive, Zero};
use proptest::prelude::*;
use proptest::sample::select;

// ---------------------------------------------------------------------------------------------
// Puzzles

/// The huge moduli mixed in: the largest prime below 2^64, 2^63, 2^64 − 1, a prime just above
/// 2^32, and 2^32.
pub const HUGE_MODULI: [u64; 5] = [18_446_744_073_709_551_557, 1 << 63, u64::MAX, 4_294_967_311, 1 << 32];

/// The most cells a generated puzzle has (a 3 × 3 grid).
const MOST_CELLS: usize = 9;

/// Names and labels: plain, empty, and characters that need escaping in RON.
const NAMES: [&str; 8] =
    ["a", "tentacle 1", "", "say \"hi\"", "back\\slash", "ünïcödé 🐙", "tab\there", "two\nlines"];

#[derive(Clone, Debug)]
pub enum Graph {
    Path(usize),
    Cycle(usize),
    Cells(usize),
    Grid {
        rows: usize,
        cols: usize,
        wrap: bool,
        king: bool,
    },
    /// Raw pairs: self-loops, missing cells and duplicates are dropped when written.
    Edges {
        cells: usize,
        edges: Vec<(usize, usize)>,
    },
}

impl Graph {
    fn cells(&self) -> usize {
        match *self {
            Graph::Path(n) | Graph::Cycle(n) | Graph::Cells(n) => n,
            Graph::Grid { rows, cols, .. } => rows * cols,
            Graph::Edges { cells, .. } => cells,
        }
    }
}

/// What a press does. Cell numbers are raw: they are taken modulo the cell count when written.
#[derive(Clone, Debug)]
pub enum Press {
    Default,
    Weights(i64, i64),
    Buttons(Vec<Vec<(usize, i64)>>),
    /// Graph phases; `true` also writes `press` as their sum (when it fits in 64 bits).
    Phases(Vec<(i64, i64)>, bool),
    /// Explicit phases; `true` also writes `buttons` as their sum.
    ButtonPhases(Vec<Vec<Vec<(usize, i64)>>>, bool),
}

/// A state; raw values are reduced below each cell's modulus when written.
#[derive(Clone, Debug)]
pub enum State {
    Missing,
    List(Vec<u64>),
    All(u64),
    /// A picture for grids (a list for other graphs).
    Rows(Vec<u64>),
}

#[derive(Clone, Debug)]
pub enum Limits {
    All(u64),
    List(Vec<u64>),
}

/// A random valid puzzle before it is written as text.
#[derive(Clone, Debug)]
pub struct PuzzleSpec {
    pub name: Option<String>,
    pub graph: Graph,
    /// One modulus for all (a single entry) or one per cell.
    pub moduli: Vec<u64>,
    pub press: Press,
    pub start: State,
    pub target: State,
    /// Dropped when the puzzle has phases (the format does not combine them yet).
    pub max_presses: Option<Limits>,
    pub intended: Option<Vec<u64>>,
    /// The labels (all different, as the format requires: a name and the cell's number).
    pub labels: Option<Vec<String>>,
}

fn modulus() -> BoxedStrategy<u64> {
    prop_oneof![12 => 2u64..12, 1 => select(HUGE_MODULI.to_vec())].boxed()
}

fn weight() -> BoxedStrategy<i64> {
    prop_oneof![
        10 => -15i64..=15,
        1 => select(vec![i64::MIN, i64::MAX, i64::MIN + 1, i64::MAX - 1, 1 << 62, -(1 << 62)]),
    ]
    .boxed()
}

/// Raw values for states, limits and intended plans: mostly small, sometimes any 64-bit number.
fn raw_value() -> BoxedStrategy<u64> {
    prop_oneof![8 => 0u64..12, 1 => select(vec![u64::MAX, 1 << 63, 1 << 32]), 1 => any::<u64>()].boxed()
}

fn raw_values() -> BoxedStrategy<Vec<u64>> {
    proptest::collection::vec(raw_value(), MOST_CELLS).boxed()
}

fn graph() -> BoxedStrategy<Graph> {
    prop_oneof![
        (1usize..=6).prop_map(Graph::Path),
        (1usize..=6).prop_map(Graph::Cycle),
        (1usize..=6).prop_map(Graph::Cells),
        (1usize..=3, 1usize..=3, any::<bool>(), any::<bool>())
            .prop_map(|(rows, cols, wrap, king)| Graph::Grid { rows, cols, wrap, king }),
        (1usize..=6, proptest::collection::vec((0usize..6, 0usize..6), 0..8))
            .prop_map(|(cells, edges)| Graph::Edges { cells, edges }),
    ]
    .boxed()
}

fn pairs() -> BoxedStrategy<Vec<(usize, i64)>> {
    proptest::collection::vec((0usize..MOST_CELLS, weight()), 0..=3).boxed()
}

fn press() -> BoxedStrategy<Press> {
    prop_oneof![
        2 => Just(Press::Default),
        4 => (weight(), weight()).prop_map(|(s, n)| Press::Weights(s, n)),
        3 => proptest::collection::vec(pairs(), 1..=5).prop_map(Press::Buttons),
        2 => (proptest::collection::vec((weight(), weight()), 1..=3), any::<bool>())
            .prop_map(|(list, write)| Press::Phases(list, write)),
        2 => (proptest::collection::vec(proptest::collection::vec(pairs(), 1..=3), 1..=4), any::<bool>())
            .prop_map(|(list, write)| Press::ButtonPhases(list, write)),
    ]
    .boxed()
}

fn state() -> BoxedStrategy<State> {
    prop_oneof![
        1 => Just(State::Missing),
        4 => raw_values().prop_map(State::List),
        2 => raw_value().prop_map(State::All),
        2 => raw_values().prop_map(State::Rows),
    ]
    .boxed()
}

fn limits() -> BoxedStrategy<Option<Limits>> {
    prop_oneof![
        3 => Just(None),
        1 => raw_value().prop_map(|k| Some(Limits::All(k % 4))),
        1 => raw_values().prop_map(|list| Some(Limits::List(list.iter().map(|k| k % 5).collect()))),
        1 => raw_values().prop_map(|list| Some(Limits::List(list))),
    ]
    .boxed()
}

/// A random small valid puzzle.
pub fn puzzle_spec() -> BoxedStrategy<PuzzleSpec> {
    let name = proptest::option::of(select(NAMES.to_vec()).prop_map(String::from));
    let moduli =
        prop_oneof![modulus().prop_map(|m| vec![m]), proptest::collection::vec(modulus(), MOST_CELLS),];
    let labels = proptest::option::of(
        proptest::collection::vec(select(NAMES.to_vec()), MOST_CELLS)
            .prop_map(|names| names.iter().enumerate().map(|(i, name)| format!("{name}{i}")).collect()),
    );
    (name, graph(), moduli, press(), (state(), state()), limits(), proptest::option::of(raw_values()), labels)
        .prop_map(|(name, graph, moduli, press, (start, target), max_presses, intended, labels)| PuzzleSpec {
            name,
            graph,
            moduli,
            press,
            start,
            target,
            max_presses,
            intended,
            labels,
        })
        .boxed()
}

/// [`puzzle_spec`] written as RON text.
pub fn puzzle_text() -> BoxedStrategy<String> {
    puzzle_spec().prop_map(|spec| spec.to_ron()).boxed()
}

/// A RON string literal.
fn quoted(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn list<T: std::fmt::Display>(values: impl IntoIterator<Item = T>) -> String {
    let items: Vec<String> = values.into_iter().map(|v| v.to_string()).collect();
    format!("[{}]", items.join(", "))
}

fn pairs_text(pairs: &[(usize, i64)], cells: usize) -> String {
    list(pairs.iter().map(|&(c, a)| format!("({}, {a})", c % cells)))
}

impl PuzzleSpec {
    /// The modulus of cell `i`.
    fn modulus(&self, i: usize) -> u64 {
        self.moduli[i % self.moduli.len()]
    }

    fn button_count(&self) -> usize {
        match &self.press {
            Press::Buttons(list) => list.len(),
            Press::ButtonPhases(list, _) => list.len(),
            _ => self.graph.cells(),
        }
    }

    fn has_phases(&self) -> bool {
        matches!(self.press, Press::Phases(..) | Press::ButtonPhases(..))
    }

    fn state_text(&self, state: &State) -> Option<String> {
        let n = self.graph.cells();
        let smallest = (0..n).map(|i| self.modulus(i)).min().expect("at least one cell");
        Some(match (state, &self.graph) {
            (State::Missing, _) => return None,
            (State::All(v), _) => format!("All({})", v % smallest),
            (State::Rows(raw), &Graph::Grid { cols, .. }) => {
                let values: Vec<u64> = (0..n).map(|i| raw[i] % self.modulus(i).min(36)).collect();
                let rows: Vec<String> = values
                    .chunks(cols)
                    .map(|row| {
                        let text: String = row
                            .iter()
                            .map(|&v| match v {
                                0 => '.',
                                1 => '#',
                                v => char::from_digit(v as u32, 36).expect("below 36"),
                            })
                            .collect();
                        quoted(&text)
                    })
                    .collect();
                format!("Rows([{}])", rows.join(", "))
            }
            (State::List(raw) | State::Rows(raw), _) => list((0..n).map(|i| raw[i] % self.modulus(i))),
        })
    }

    /// The puzzle file.
    pub fn to_ron(&self) -> String {
        let n = self.graph.cells();
        let mut out = String::from("Puzzle(\n");
        let mut field = |key: &str, value: String| out.push_str(&format!("    {key}: {value},\n"));
        if let Some(name) = &self.name {
            field("name", quoted(name));
        }
        let graph = match &self.graph {
            Graph::Path(n) => format!("Path({n})"),
            Graph::Cycle(n) => format!("Cycle({n})"),
            Graph::Cells(n) => format!("Cells({n})"),
            Graph::Grid { rows, cols, wrap, king } => format!(
                "Grid(rows: {rows}, cols: {cols}{}{})",
                if *wrap { ", wrap: true" } else { "" },
                if *king { ", neighborhood: King" } else { "" }
            ),
            Graph::Edges { cells, edges } => {
                let mut kept: Vec<(usize, usize)> = Vec::new();
                for &(a, b) in edges {
                    let new = !kept.iter().any(|&(x, y)| (x, y) == (a, b) || (x, y) == (b, a));
                    if a < *cells && b < *cells && a != b && new {
                        kept.push((a, b));
                    }
                }
                format!(
                    "Edges(cells: {cells}, edges: {})",
                    list(kept.iter().map(|(a, b)| format!("({a}, {b})")))
                )
            }
        };
        field("graph", graph);
        field(
            "modulus",
            match self.moduli.len() {
                1 => self.moduli[0].to_string(),
                _ => list((0..n).map(|i| self.modulus(i))),
            },
        );
        match &self.press {
            Press::Default => {}
            Press::Weights(s, w) => field("press", format!("(self: {s}, neighbors: {w})")),
            Press::Buttons(buttons) => {
                field("buttons", list(buttons.iter().map(|b| pairs_text(b, n))));
            }
            Press::Phases(phases, write_press) => {
                field("phases", list(phases.iter().map(|(s, w)| format!("(self: {s}, neighbors: {w})"))));
                let sum = |f: fn(&(i64, i64)) -> i64| {
                    i64::try_from(phases.iter().map(|p| i128::from(f(p))).sum::<i128>()).ok()
                };
                if *write_press && let (Some(s), Some(w)) = (sum(|p| p.0), sum(|p| p.1)) {
                    field("press", format!("(self: {s}, neighbors: {w})"));
                }
            }
            Press::ButtonPhases(buttons, write_buttons) => {
                field(
                    "button_phases",
                    list(buttons.iter().map(|phases| list(phases.iter().map(|p| pairs_text(p, n))))),
                );
                if *write_buttons {
                    let sums = buttons.iter().map(|phases| {
                        let flat: Vec<(usize, i64)> = phases.iter().flatten().copied().collect();
                        pairs_text(&flat, n)
                    });
                    field("buttons", list(sums));
                }
            }
        }
        if let Some(start) = self.state_text(&self.start) {
            field("start", start);
        }
        if let Some(target) = self.state_text(&self.target) {
            field("target", target);
        }
        let buttons = self.button_count();
        match &self.max_presses {
            Some(_) if self.has_phases() => {}
            None => {}
            Some(Limits::All(k)) => field("max_presses", format!("All({k})")),
            Some(Limits::List(raw)) => field("max_presses", list(raw.iter().cycle().take(buttons))),
        }
        if let Some(raw) = &self.intended {
            field("intended", list(raw.iter().cycle().take(buttons)));
        }
        if let Some(labels) = &self.labels {
            field("labels", list(labels[..n].iter().map(|l| quoted(l))));
        }
        out.push_str(")\n");
        out
    }
}

// ---------------------------------------------------------------------------------------------
// Library runs

/// The budget of every library call: small, and in nodes so that runs are reproducible.
pub const BUDGET: Budget = Budget::of_nodes(20_000);

/// A library call that takes longer than this is reported as a hang.
pub const SLOW: Duration = Duration::from_secs(10);

/// What one puzzle's library run found.
#[derive(Clone, Debug, Default)]
pub struct LibraryTally {
    pub calls: usize,
    pub solvable: bool,
    /// Calls refused as unsupported (the search solver on staged presses or huge periods).
    pub unsupported: usize,
    /// Calls that met a known fault, tolerated when `known_failures` is false.
    pub known: usize,
}

static LAST_PANIC: Mutex<Option<String>> = Mutex::new(None);

/// Records where each panic happened (the message and the file:line), then lets the previous
/// hook print it as usual.
pub fn record_panics() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let message = info
                .payload()
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| info.payload().downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "(no message)".into());
            let place =
                info.location().map_or("?".into(), |l| format!("{}:{}:{}", l.file(), l.line(), l.column()));
            *LAST_PANIC.lock().unwrap_or_else(|e| e.into_inner()) = Some(format!("{message} at {place}"));
            previous(info);
        }));
    });
}

/// Runs `f` under `catch_unwind` and a clock: a panic or a call slower than [`SLOW`] becomes a
/// message naming the call.
fn guarded<T>(what: &str, f: impl FnOnce() -> T) -> Result<T, String> {
    let started = Instant::now();
    let result = catch_unwind(AssertUnwindSafe(f)).map_err(|_| {
        let place = LAST_PANIC.lock().unwrap_or_else(|e| e.into_inner()).take();
        format!("{what} panicked: {}", place.unwrap_or_else(|| "(hook not installed)".into()))
    })?;
    let elapsed = started.elapsed();
    if elapsed > SLOW {
        return Err(format!("{what} took {elapsed:?} (more than {SLOW:?})"));
    }
    Ok(result)
}

fn u64s(presses: &[BigUint]) -> Option<Vec<u64>> {
    presses.iter().map(|x| x.to_u64()).collect()
}

fn within_limits(puzzle: &Puzzle, presses: &[BigUint]) -> bool {
    puzzle
        .max_presses()
        .as_ref()
        .is_none_or(|limits| presses.iter().zip(limits.iter()).all(|(x, &k)| *x <= BigUint::from(k)))
}

/// Every plan an analysis returns reaches the target (phase by phase when staged) within the
/// press limits; a count that is exact agrees with whether a plan was found.
///
/// With `known_failures` false, a press-limited analysis may have an exact count of plans within
/// the limits with no plan found: a known fault when the budget runs out (see the fuzz module's
/// doc), not reported.
fn judge_analysis(
    puzzle: &Puzzle,
    analysis: &Analysis,
    what: &str,
    known_failures: bool,
) -> Result<(), String> {
    for plan in analysis.fewest.iter().chain(&analysis.optimal) {
        let reaches = match puzzle.phases() {
            Some(_) => puzzle.plays_to_target(&plan.presses, plan.partial.map(|p| (p.button, p.phases))),
            None => puzzle.solves(&plan.presses) && plan.partial.is_none(),
        };
        if !reaches || !within_limits(puzzle, &plan.presses) {
            return Err(format!(
                "{what}: the plan {:?} does not reach the target within the limits",
                plan.presses
            ));
        }
    }
    for plan in analysis.listing.iter().flat_map(|l| &l.plans) {
        if !puzzle.solves(plan) || !within_limits(puzzle, plan) {
            return Err(format!(
                "{what}: the listed plan {plan:?} does not reach the target within the limits"
            ));
        }
    }
    let known = !known_failures && analysis.limited && analysis.fewest.is_none();
    if analysis.count.exact && analysis.count.value.is_zero() != analysis.fewest.is_none() && !known {
        return Err(format!(
            "{what}: exact count {} but the fewest plan is {:?}",
            analysis.count.value, analysis.fewest
        ));
    }
    if analysis.optimal.is_some() && analysis.fewest.is_none() {
        return Err(format!("{what}: an optimal plan but no fewest plan"));
    }
    Ok(())
}

/// The score of a proven plan for its objective, when its press counts fit in 64 bits.
fn proven_score(analysis: &Analysis, objective: Objective) -> Option<(u128, u128)> {
    let plan =
        if objective == Objective::Total { analysis.fewest.as_ref() } else { analysis.optimal.as_ref() }?;
    plan.is_proven().then(|| u64s(&plan.presses).map(|x| objective.score(&x))).flatten()
}

/// One puzzle through every library path the binary takes. `Err` says which call failed and
/// how; the caller adds the input text.
pub fn library_run(source: &str, seed: u64, known_failures: bool) -> Result<LibraryTally, String> {
    record_panics();
    let mut tally = LibraryTally::default();
    let puzzle = guarded("parse_puzzle", || parse_puzzle(source))?
        .map_err(|e| format!("a valid puzzle was rejected: {e}"))?;

    // Writing it back gives the same puzzle.
    let written = guarded("format::to_ron", || modsolve::format::to_ron(&puzzle, "round trip\nsecond line"))?;
    match guarded("parse_puzzle of to_ron", || parse_puzzle(&written))? {
        Ok(again) if again == puzzle => {}
        Ok(again) => {
            return Err(format!("to_ron round trip changed the puzzle:\n{written}\n{again:?}\n{puzzle:?}"));
        }
        Err(e) => return Err(format!("to_ron wrote a file that does not parse ({e}):\n{written}")),
    }

    // Press limits with a period past 64 bits: the algebra's plan is returned unlimited and
    // fails verification (a known fault, see the fuzz module's doc).
    let limits_past_64_bits =
        puzzle.max_presses().is_some() && puzzle.periods().iter().any(|l| l.to_u64().is_none());

    // Every engine, objective and list_all; results by (engine, objective).
    let mut proven: BTreeMap<(u8, u8), (u128, u128)> = BTreeMap::new();
    let mut counts: BTreeMap<u8, BigUint> = BTreeMap::new();
    for (e, engine) in [Engine::Auto, Engine::Algebra, Engine::Search].into_iter().enumerate() {
        for (o, objective) in [Objective::Total, Objective::Max, Objective::Buttons].into_iter().enumerate() {
            for list_all in [false, true] {
                let options = Options::default()
                    .engine(engine)
                    .objective(objective)
                    .budget(BUDGET)
                    .list_all(list_all)
                    .list_limit(1000);
                let what = format!("analysis_of({engine:?}, {objective:?}, list_all: {list_all})");
                tally.calls += 1;
                match guarded(&what, || analysis_of(&puzzle, &options))? {
                    Ok(analysis) => {
                        judge_analysis(&puzzle, &analysis, &what, known_failures)?;
                        tally.solvable |= analysis.is_solvable();
                        if let Some(score) = proven_score(&analysis, objective) {
                            proven.insert((e as u8, o as u8), score);
                        }
                        if analysis.count.exact {
                            counts.insert(e as u8, analysis.count.value.clone());
                        }
                    }
                    // The search does not play staged presses; nothing lists their plans yet.
                    Err(InternalError::Unsupported(_))
                        if engine == Engine::Search || (list_all && puzzle.phases().is_some()) =>
                    {
                        tally.unsupported += 1
                    }
                    Err(_) if !known_failures && limits_past_64_bits => tally.known += 1,
                    Err(error) => return Err(format!("{what} failed: {error}")),
                }
            }
        }
    }
    // Engines that prove an answer agree on it.
    for o in 0..3u8 {
        let scores: Vec<_> = (0..3u8).filter_map(|e| proven.get(&(e, o))).collect();
        if scores.windows(2).any(|w| w[0] != w[1]) {
            return Err(format!("engines prove different best scores for objective {o}: {proven:?}"));
        }
    }
    if counts.values().collect::<Vec<_>>().windows(2).any(|w| w[0] != w[1]) {
        return Err(format!("engines give different exact counts: {counts:?}"));
    }

    // The designer's check: its plan, and every single-cell macro adds 1 to its cell alone.
    tally.calls += 1;
    match guarded("check::check", || modsolve::check::check(&puzzle, BUDGET))? {
        Ok(report) => {
            judge_analysis(&puzzle, &report.analysis, "check::check", known_failures)?;
            let zero = vec![0u64; puzzle.cell_count()];
            for (i, plan) in report.macros.iter().flatten().enumerate() {
                let Some(plan) = plan else { continue };
                let mut unit = zero.clone();
                unit[i] = 1;
                if puzzle.apply(&zero, plan) != unit {
                    return Err(format!(
                        "check::check: the macro for cell {i}, {plan:?}, is not +1 on it alone"
                    ));
                }
            }
        }
        Err(_) if !known_failures && limits_past_64_bits => tally.known += 1,
        Err(error) => return Err(format!("check::check failed: {error}")),
    }

    // The player strategies: a win replays to a win, a loss never wins.
    tally.calls += 1;
    let outcomes = guarded("strategy::all", || modsolve::strategy::all(&puzzle))?;
    for outcome in &outcomes {
        if outcome.sequence.len() as u64 != outcome.presses {
            continue;
        }
        let replayed = guarded("strategy::replay", || replay(&puzzle, &outcome.sequence))?;
        let expected = outcome.solves.then_some(outcome.sequence.len());
        if replayed != expected {
            return Err(format!(
                "strategy {} says solves: {} in {} presses, but replaying gives {replayed:?}",
                outcome.strategy, outcome.solves, outcome.presses
            ));
        }
    }

    // A few samples of the par histogram.
    tally.calls += 1;
    match guarded("generate::par_histogram", || {
        modsolve::generate::par_histogram(
            &puzzle,
            3,
            seed,
            BUDGET.nodes,
            modsolve::generate::SamplesEnd::Never,
        )
    })? {
        Ok(histogram) => {
            let sampled: usize = histogram.pars.values().sum::<usize>() + histogram.unproven;
            if sampled != 3 || histogram.taken != 3 {
                return Err(format!("par_histogram of 3 samples accounts for {sampled}"));
            }
        }
        Err(InternalError::Unsupported(_)) => tally.unsupported += 1,
        Err(error) => return Err(format!("generate::par_histogram failed: {error}")),
    }

    // The par distribution: exact on small puzzles (its total is the algebra's count of
    // solvable starts), a few samples beyond.
    tally.calls += 1;
    let options = modsolve::difficulty::DistributionOptions::default()
        .exact_limit(1 << 12)
        .samples(3)
        .seed(seed)
        .nodes_per_sample(BUDGET.nodes)
        .work(None)
        .deadline(Some(std::time::Instant::now() + std::time::Duration::from_secs(2)))
        .timeout(None)
        .max_memory(Some(64 << 20))
        .confidence(0.95);
    match guarded("difficulty::par_distribution", || {
        modsolve::difficulty::par_distribution(&puzzle, &options)
    })? {
        Ok(distribution) => {
            if let modsolve::difficulty::DistributionKind::Exact(exact) = &distribution.kind
                && num_bigint::BigUint::from(exact.counted() + exact.unreached) != distribution.solvable
            {
                return Err(format!(
                    "par_distribution counts {} starts of {}",
                    exact.counted() + exact.unreached,
                    distribution.solvable
                ));
            }
        }
        Err(modsolve::Error::Internal(InternalError::Unsupported(_))) => tally.unsupported += 1,
        Err(error) => return Err(format!("difficulty::par_distribution failed: {error}")),
    }
    Ok(tally)
}

// ---------------------------------------------------------------------------------------------
// Command lines

/// Files the command lines name: the shipped puzzles and a few made for the run, good and bad.
pub struct Files {
    pub dir: PathBuf,
    pub good: Vec<String>,
    pub bad: Vec<String>,
}

impl Files {
    /// Writes the extra files into a fresh directory `dir`: a puzzle with huge moduli, a staged
    /// one with labels, a syntax error, an invalid value, an empty file, bytes that are not
    /// UTF-8; a directory and a missing file are named too.
    pub fn new(dir: PathBuf) -> Files {
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles");
        let mut puzzles: Vec<String> = std::fs::read_dir(&shipped)
            .unwrap_or_else(|e| panic!("{}: {e}", shipped.display()))
            .map(|entry| entry.expect("directory entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == "ron"))
            .map(|p| p.display().to_string())
            .collect();
        puzzles.sort();
        let mut good = puzzles;
        let mut bad = Vec::new();
        let extra: [(&str, &[u8]); 6] = [
            (
                "huge.ron",
                b"Puzzle(graph: Path(3), modulus: [18446744073709551557, 9223372036854775808, 6], \
                  press: (self: -9223372036854775808, neighbors: 9223372036854775807), start: [1, 2, 3])",
            ),
            (
                "staged.ron",
                b"Puzzle(name: \"staged\", graph: Cells(2), modulus: [5, 7], \
                  button_phases: [[[(0, 1)], [(1, 2)]], [[(1, 1), (0, 4)]]], start: [1, 3], labels: [\"x\", \"y\"])",
            ),
            ("syntax.ron", b"Puzzle(graph: Path(3), modulus: 2,"),
            ("invalid.ron", b"Puzzle(graph: Path(3), modulus: 2, start: [0, 5, 0])"),
            ("empty.ron", b""),
            ("binary.ron", b"\xff\xfe\x00Puzzle(\x80"),
        ];
        for (name, bytes) in extra {
            let path = dir.join(name);
            std::fs::write(&path, bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let list =
                if parse_puzzle(&String::from_utf8_lossy(bytes)).is_ok() { &mut good } else { &mut bad };
            list.push(path.display().to_string());
        }
        let subdir = dir.join("a-directory.ron");
        std::fs::create_dir_all(&subdir).expect("a directory");
        bad.push(subdir.display().to_string());
        bad.push(dir.join("missing.ron").display().to_string());
        Files { dir, good, bad }
    }
}

/// A command line before the files are filled in: arguments, with `{good:k}` and `{bad:k}` for
/// a puzzle file (chosen by index `k`) and `{out}` for a fresh output directory.
pub type Args = Vec<String>;

/// Values: `good` most of the time, sometimes `bad`.
fn value(good: &[&'static str], bad: &[&'static str]) -> BoxedStrategy<&'static str> {
    prop_oneof![9 => select(good.to_vec()), 1 => select(bad.to_vec())].boxed()
}

/// An optional flag with its value.
fn flag(name: &'static str, good: &[&'static str], bad: &[&'static str]) -> BoxedStrategy<Vec<String>> {
    prop_oneof![
        1 => Just(Vec::new()),
        1 => value(good, bad).prop_map(move |v| vec![name.to_string(), v.to_string()]),
    ]
    .boxed()
}

fn switch(name: &'static str) -> BoxedStrategy<Vec<String>> {
    prop_oneof![2 => Just(Vec::new()), 1 => Just(vec![name.to_string()])].boxed()
}

/// Numbers that do not fit: `usize`/`u64` max, past 64 bits, negative, not a number.
const BAD_NUMBERS: [&str; 6] = ["18446744073709551616", "99999999999999999999", "-1", "abc", "", "1.5"];

/// Budgets: times and node counts that keep a run short, then values that are refused.
const GOOD_BUDGETS: [&str; 7] = ["200ms", "20000", "0", "0ms", "1s", "1000", "100ms"];
const BAD_BUDGETS: [&str; 7] = ["abc", "", "5x", "-1", "99999999999999999999", "1.5s", "ms"];

/// Arguments accepted where the brief of a run is "no panic": the values found to panic or
/// hang are left out unless `known_failures` (see the fuzz module's doc).
pub fn command_line(known_failures: bool) -> BoxedStrategy<Args> {
    let file = || {
        prop_oneof![
            6 => (0usize..100).prop_map(|k| format!("{{good:{k}}}")),
            1 => (0usize..100).prop_map(|k| format!("{{bad:{k}}}")),
        ]
    };
    let mut bad_budgets = BAD_BUDGETS.to_vec();
    let mut bad_samples = BAD_NUMBERS.to_vec();
    if known_failures {
        bad_budgets.extend(["18446744073709551615m", "307445734561825861m"]);
        bad_samples.push("18446744073709551615");
    }
    let budget = flag("--budget", &GOOD_BUDGETS, &bad_budgets);
    let solve = (
        prop_oneof![Just(None), Just(Some("solve"))],
        file(),
        switch("--json"),
        flag("--method", &["auto", "algebra", "search"], &["bogus", ""]),
        flag("--minimize", &["total", "max", "buttons"], &["fewest", ""]),
        budget.clone(),
        switch("--all"),
        switch("--picture"),
        prop_oneof![Just(vec![]), Just(vec!["-v".to_string()]), Just(vec!["--verbose".to_string()])],
    )
        .prop_map(|(command, file, json, method, minimize, budget, all, picture, verbose)| {
            let mut args: Args = command.map(String::from).into_iter().collect();
            args.push(file);
            for part in [json, method, minimize, budget, all, picture, verbose] {
                args.extend(part);
            }
            args
        });
    let check = (
        proptest::collection::vec(file(), 0..=3),
        switch("--json"),
        flag("--deny", &["warnings"], &["errors", ""]),
        budget,
        prop_oneof![4 => Just(0u8), 2 => Just(1u8), 2 => Just(2u8)],
        flag("--samples", &["0", "1", "3", "10"], &bad_samples),
        flag("--seed", &["0", "1", "7", "18446744073709551615"], &BAD_NUMBERS),
        flag("--exact-limit", &["0", "1", "100", "18446744073709551615"], &BAD_NUMBERS),
        flag("--confidence", &["0.5", "0.95", "0.999"], &["0", "1", "1.5", "-0.1", "nan", ""]),
    )
        .prop_map(|(files, json, deny, budget, mode, samples, seed, exact_limit, confidence)| {
            let mut args = vec!["check".to_string()];
            let (histogram, distribution) = (mode == 1, mode == 2);
            if distribution {
                args.push("--par-distribution".into());
                if samples.is_empty() {
                    args.extend(["--samples".to_string(), "5".to_string()]);
                }
                for part in [exact_limit, confidence] {
                    args.extend(part);
                }
            }
            if histogram {
                args.push("--par-histogram".into());
                // 1000 samples by default: fine, but slow for a fuzz run.
                if samples.is_empty() {
                    args.extend(["--samples".to_string(), "5".to_string()]);
                }
            }
            args.extend(files);
            for part in [json, deny, budget, samples, seed] {
                args.extend(part);
            }
            args
        });
    let generate = (
        file(),
        prop_oneof![6 => Just(vec!["--out".to_string(), "{out}".to_string()]), 1 => Just(vec![]),
            1 => Just(vec!["--out".to_string(), "{good:0}".to_string()])],
        flag("--count", &["0", "1", "3"], &["18446744073709551615", "-1", "abc", ""]),
        flag("--seed", &["0", "1", "18446744073709551615"], &BAD_NUMBERS),
        switch("--unique"),
        flag(
            "--par",
            &["8..12", "0..3", "5", "1..=4", "0..0"],
            &["5..1", "abc", "..", "18446744073709551615..18446744073709551615", "99999999999999999999..1"],
        ),
        flag("--strategy", &["sweep", "greedy", "chase", "none"], &["bogus", ""]),
        flag("--attempts", &["0", "1", "50", "500"], &BAD_NUMBERS),
        switch("--json"),
        flag("--scramble", &["0", "1", "5", "40", "18446744073709551615"], &BAD_NUMBERS),
        switch("--deny-warnings"),
    )
        .prop_map(
            move |(file, out, count, seed, unique, par, strategy, attempts, json, scramble, deny)| {
                let mut args = vec!["generate".to_string(), file];
                // A huge count with the default attempts (2000 per level) runs without end on a small
                // template: a known hang, bounded here unless asked for.
                let huge = count.get(1).is_some_and(|c| c == "18446744073709551615");
                let attempts = if huge && !known_failures && attempts.is_empty() {
                    vec!["--attempts".to_string(), "100".to_string()]
                } else {
                    attempts
                };
                for part in [out, count, seed, unique, par, strategy, attempts, json, scramble, deny] {
                    args.extend(part);
                }
                args
            },
        );
    let hint = (
        file(),
        flag(
            "--pressed",
            &["0", "1,2", "0,0,0", "", "3, 1", "tentacle 1"],
            &["99999999999999999999", "-1", "x", "1,,2", ",", "4294967296"],
        ),
        switch("--steps"),
        switch("--json"),
        flag("--budget", &GOOD_BUDGETS, &BAD_BUDGETS),
    )
        .prop_map(|(file, pressed, steps, json, budget)| {
            let mut args = vec!["hint".to_string(), file];
            for part in [pressed, steps, json, budget] {
                args.extend(part);
            }
            args
        });
    let sizes = ["0", "1", "2", "5", "30", "1000"];
    let too_big = ["18446744073709551615", "4294967296", "1000001", "99999999999999999999", "-1", "x"];
    let new = (
        value(&["grid", "path", "cycle", "edges", "cells"], &["torus", ""]),
        flag("--rows", &sizes, &too_big),
        flag("--cols", &sizes, &too_big),
        flag("--cells", &sizes, &too_big),
        flag(
            "--modulus",
            &["2", "3", "7", "36", "37", "18446744073709551615"],
            &["0", "1", "99999999999999999999", "-2"],
        ),
    )
        .prop_map(|(form, rows, cols, cells, modulus)| {
            let mut args = vec!["new".to_string(), form.to_string()];
            for part in [rows, cols, cells, modulus] {
                args.extend(part);
            }
            args
        });
    let command = prop_oneof![4 => solve, 3 => check, 2 => generate, 2 => hint, 2 => new];
    // Sometimes: an unknown flag, a flag whose value is missing, an extra word, or help.
    let junk = prop_oneof![
        40 => Just(None),
        1 => Just(Some("--frobnicate")),
        1 => Just(Some("--budget")),
        1 => Just(Some("--seed")),
        1 => Just(Some("extra-word")),
        1 => Just(Some("-x")),
        1 => Just(Some("--help")),
        1 => Just(Some("--version")),
    ];
    (command, junk)
        .prop_map(|(mut args, junk)| {
            args.extend(junk.map(String::from));
            args
        })
        .boxed()
}

/// How a process ended.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Ending {
    Code(i32),
    Signal(i32),
    TimedOut,
}

/// One command line's run.
#[derive(Debug)]
pub struct CliRun {
    /// The arguments as run (files filled in).
    pub args: Vec<String>,
    pub ending: Ending,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    /// Whether the process panicked (`panicked` on stderr).
    pub panicked: bool,
}

/// Fills `{file:k}` and `{out}` in, runs the binary with a wall-clock limit (killed past it).
/// `{out}` becomes a directory under `files.dir` that does not exist yet.
pub fn cli_run(binary: &Path, files: &Files, args: &Args, run: usize, limit: Duration) -> CliRun {
    let out = files.dir.join(format!("out-{run}"));
    let args: Vec<String> = args
        .iter()
        .map(|a| {
            if a == "{out}" {
                out.display().to_string()
            } else if let Some(k) = a.strip_prefix("{good:").and_then(|k| k.strip_suffix('}')) {
                files.good[k.parse::<usize>().expect("an index") % files.good.len()].clone()
            } else if let Some(k) = a.strip_prefix("{bad:").and_then(|k| k.strip_suffix('}')) {
                files.bad[k.parse::<usize>().expect("an index") % files.bad.len()].clone()
            } else {
                a.clone()
            }
        })
        .collect();
    let mut child = Command::new(binary)
        .args(&args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{}: {e}", binary.display()));
    // Read both pipes while waiting, so that a large output cannot stall the child.
    let reader = |pipe: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut buffer = Vec::new();
            if let Some(mut pipe) = pipe {
                let _ = pipe.read_to_end(&mut buffer);
            }
            buffer
        })
    };
    let stdout = reader(child.stdout.take().map(|p| Box::new(p) as Box<dyn Read + Send>));
    let stderr = reader(child.stderr.take().map(|p| Box::new(p) as Box<dyn Read + Send>));
    let started = Instant::now();
    let ending = loop {
        match child.try_wait().expect("the child can be waited for") {
            Some(status) => {
                use std::os::unix::process::ExitStatusExt;
                break match (status.code(), status.signal()) {
                    (Some(code), _) => Ending::Code(code),
                    (None, Some(signal)) => Ending::Signal(signal),
                    (None, None) => Ending::Signal(0),
                };
            }
            None if started.elapsed() > limit => {
                let _ = child.kill();
                let _ = child.wait();
                break Ending::TimedOut;
            }
            None => std::thread::sleep(Duration::from_millis(2)),
        }
    };
    let stdout = stdout.join().expect("stdout reader");
    let stderr = stderr.join().expect("stderr reader");
    let _ = std::fs::remove_dir_all(&out);
    let panicked = String::from_utf8_lossy(&stderr).contains("panicked");
    CliRun { args, ending, stdout, stderr, panicked }
}

/// The documented exit codes: 0 solved or passed, 1 no solution or a failed check, 2 bad input
/// or usage, 3 undecided (the budget ran out before solvability was decided).
pub const DOCUMENTED: [i32; 4] = [0, 1, 2, 3];

impl CliRun {
    /// What is wrong with this run, if anything: a panic, a signal, a hang, an undocumented code,
    /// a failure with nothing on stderr, bad input with something on stdout (with `--json`,
    /// anything but a JSON error document), JSON that does not parse (whatever the code), a `new` file that does not parse.
    pub fn problem(&self) -> Option<String> {
        let stdout = String::from_utf8_lossy(&self.stdout);
        let stderr = String::from_utf8_lossy(&self.stderr);
        let code = match self.ending {
            Ending::Code(code) => code,
            ref other => return Some(format!("ended by {other:?}")),
        };
        if self.panicked {
            return Some(format!(
                "panicked (exit {code}): {}",
                stderr.lines().take(3).collect::<Vec<_>>().join(" | ")
            ));
        }
        if !DOCUMENTED.contains(&code) {
            return Some(format!("undocumented exit code {code}"));
        }
        let has = |flag: &str| self.args.iter().any(|a| a == flag);
        let command = self.args.first().map(String::as_str);
        // `check` reports each unreadable file in its report, on stdout, and goes on (exit 2).
        let per_file_report = command == Some("check")
            && !has("--par-histogram")
            && !has("--par-distribution")
            && stdout.contains("error");
        let help = has("--help") || has("--version");
        let json = has("--json") && !help;
        // Bad input says why on stderr; with `--json`, stdout holds the JSON error document.
        let json_error =
            || serde_json::from_str::<serde_json::Value>(&stdout).is_ok_and(|v| v.get("error").is_some());
        if code == 2
            && !per_file_report
            && (stderr.trim().is_empty() || if has("--json") { !json_error() } else { !stdout.is_empty() })
        {
            return Some(format!("exit 2 with stdout {:?} and stderr {:?}", clip(&stdout), clip(&stderr)));
        }
        if code != 0 && stdout.trim().is_empty() && stderr.trim().is_empty() {
            return Some(format!("exit {code} with nothing said"));
        }
        if json
            && !stdout.is_empty()
            && let Err(e) = serde_json::from_str::<serde_json::Value>(&stdout)
        {
            return Some(format!("--json printed something that is not JSON ({e}): {}", clip(&stdout)));
        }
        if code == 0
            && command == Some("new")
            && !help
            && let Err(e) = parse_puzzle(&stdout)
        {
            return Some(format!("`new` wrote a file that does not parse: {e}"));
        }
        None
    }
}

fn clip(text: &str) -> String {
    text.chars().take(200).collect()
}
