//! `modsolve check`: what a game designer needs to know about a level before players do.
//!
//! For one puzzle: solvable from its start, the number of plans and the par (proven fewest
//! presses); which fraction of all start states can be solved (`|image of A| / Π m_i`, the
//! image having `Π L_j / |kernel|` elements) with one concrete unsolvable start; the quiet
//! patterns and a basis of them; a single-cell macro per cell (the plan that adds 1 to that
//! cell and changes nothing else); the intended plan's verdict; and findings with stable codes.

#[doc(inline)]
pub use crate::strategy::{Strategy, StrategyOutcome};
use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::One;

use crate::analysis::{Analysis, Options, analysis_with_answer};
use crate::error::{Error, InternalError};
use crate::model::Puzzle;
use crate::solve::optimize::explore;
use crate::solve::search::{Budget, Objective};
use crate::solve::{Answer, differences_fit, solve, solve_differences};

/// How much a finding matters: errors fail the check, warnings only with `--deny warnings`,
/// notes never (they describe the puzzle, as `no-simple-strategy` does: it is what makes a
/// puzzle a puzzle).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Severity {
    /// Reported for the designer's information; never fails the check.
    Note,
    /// Reported; fails the check only when warnings are denied.
    Warning,
    /// Fails the check.
    Error,
}

impl Severity {
    /// The severity's name in reports: `note`, `warning` or `error`.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Note => "note",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

/// What a finding is about: a stable code for tools.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FindingCode {
    /// Solvable, but no simple strategy wins: players must reason or guess (warning).
    NoSimpleStrategy,
    /// No plan reaches the target (error).
    Unsolvable,
    /// A button changes nothing (warning).
    IdleButton,
    /// Two buttons do the same (warning).
    DuplicateButtons,
    /// No button changes a cell (warning).
    UntouchedCell,
    /// The start is the target (warning).
    AlreadySolved,
    /// The intended plan does not solve the puzzle (error).
    IntendedFails,
    /// The intended plan is not a fewest-press plan (warning).
    IntendedNotFewest,
    /// The par is not proven fewest within the budget (warning).
    ParNotProven,
}

impl FindingCode {
    /// Every code.
    pub const ALL: [FindingCode; 9] = [
        FindingCode::NoSimpleStrategy,
        FindingCode::Unsolvable,
        FindingCode::IdleButton,
        FindingCode::DuplicateButtons,
        FindingCode::UntouchedCell,
        FindingCode::AlreadySolved,
        FindingCode::IntendedFails,
        FindingCode::IntendedNotFewest,
        FindingCode::ParNotProven,
    ];

    /// The code's stable name: `no-simple-strategy`, `unsolvable`, …
    pub fn as_str(self) -> &'static str {
        match self {
            FindingCode::NoSimpleStrategy => "no-simple-strategy",
            FindingCode::Unsolvable => "unsolvable",
            FindingCode::IdleButton => "idle-button",
            FindingCode::DuplicateButtons => "duplicate-buttons",
            FindingCode::UntouchedCell => "untouched-cell",
            FindingCode::AlreadySolved => "already-solved",
            FindingCode::IntendedFails => "intended-fails",
            FindingCode::IntendedNotFewest => "intended-not-fewest",
            FindingCode::ParNotProven => "par-not-proven",
        }
    }

    /// How much a finding of this code matters.
    pub fn severity(self) -> Severity {
        match self {
            FindingCode::Unsolvable | FindingCode::IntendedFails => Severity::Error,
            FindingCode::NoSimpleStrategy => Severity::Note,
            _ => Severity::Warning,
        }
    }
}

/// One finding: a stable code, a severity and a message for people.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Finding {
    /// What it is about.
    pub code: FindingCode,
    /// How much it matters.
    pub severity: Severity,
    /// For people.
    pub message: String,
}

/// What `check` says of the intended plan.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IntendedVerdict {
    /// Whether the intended plan solves the puzzle.
    pub solves: bool,
    /// Whether it has as few presses as the par (`None` when the par is not known).
    pub fewest: Option<bool>,
    /// Whether it is the only plan.
    pub unique: bool,
}

/// The check of one puzzle.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct CheckReport {
    /// Solvability, count and the fewest-press plan (the par).
    pub analysis: Analysis,
    /// Whether every start of the board can be solved.
    pub all_starts_solvable: bool,
    /// Solvable starts over all starts, in lowest terms.
    pub solvable_starts: (BigUint, BigUint),
    /// A start from which the target cannot be reached, when one exists.
    pub unsolvable_start: Option<Vec<u64>>,
    /// A basis of the quiet patterns (each with its order).
    pub quiet_basis: Vec<(Vec<BigUint>, BigUint)>,
    /// For each cell, a plan adding 1 to it and nothing else (the fewest when cheap to find),
    /// unless they were left out.
    pub macros: Result<Vec<Option<Vec<BigUint>>>, MacrosLeftOut>,
    /// What is said of the puzzle's intended plan, when it has one.
    pub intended: Option<IntendedVerdict>,
    /// How simple player strategies fare from the start.
    pub strategies: Vec<crate::strategy::StrategyOutcome>,
    /// Errors, warnings and notes, each with its code.
    pub findings: Vec<Finding>,
}

impl CheckReport {
    /// Whether the puzzle passes: no error-level finding (and no warning when they are denied;
    /// notes never fail it).
    pub fn passed(&self, deny_warnings: bool) -> bool {
        self.findings.iter().all(|f| match f.severity {
            Severity::Note => true,
            Severity::Warning => !deny_warnings,
            Severity::Error => false,
        })
    }

    /// The number of findings that are warnings.
    pub fn warning_count(&self) -> usize {
        self.findings.iter().filter(|f| f.severity == Severity::Warning).count()
    }

    /// The par: the fewest presses, when there is a plan.
    pub fn par(&self) -> Option<BigUint> {
        self.analysis.fewest.as_ref().map(|p| p.total())
    }
}

/// Checks one puzzle. The budget's time bounds the par search and the macro shortening
/// together.
///
/// ```
/// let octopus = modsolve::parse_puzzle(
///     "Puzzle(graph: Path(4), modulus: [7, 8, 7, 6], press: (self: 2, neighbors: 1), start: [2, 4, 5, 3])",
/// )?;
/// let report = modsolve::check::check(&octopus, modsolve::Budget::of_nodes(1_000_000))?;
/// assert_eq!(report.par(), Some(18u32.into()));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn check(puzzle: &Puzzle, budget: Budget) -> Result<CheckReport, InternalError> {
    let started = std::time::Instant::now();
    let (analysis, analysed) = analysis_with_answer(puzzle, &Options { budget, ..Options::default() }, true)?;
    let cells = puzzle.cell_count();
    // One elimination for every "+1 on cell i" at once, when that dense system fits; past it
    // the macros are left out and the counts come from the puzzle's own elimination: the
    // analysis's when it has one with its quiet basis.
    let (answer, macros) = if let Err(why) = macros_fit(puzzle, budget.since(started).time) {
        let answer = match analysed {
            Some(answer) => answer,
            None => solve(puzzle)?,
        };
        (answer, Err(why))
    } else {
        let unit_differences: Vec<Vec<u64>> = (0..cells)
            .map(|i| {
                let mut d = vec![0u64; cells];
                d[i] = 1;
                d
            })
            .collect();
        let (answer, mut macros) = solve_differences(puzzle, &unit_differences)?;
        shorten_macros(&answer, &mut macros, puzzle, budget, started);
        (answer, Ok(macros))
    };

    let (solvable_starts, all_starts_solvable) =
        starts_by_primes(puzzle, &answer).unwrap_or_else(|| starts_by_products(puzzle, &answer));
    let unsolvable_start = macros.iter().flatten().position(Option::is_none).map(|i| {
        let mut start = puzzle.target.to_vec();
        let m = puzzle.moduli[i];
        start[i] = crate::algebra::arith::sub_mod(start[i], 1, m);
        start
    });
    let quiet_basis = answer.quiet_basis.iter().map(|g| (g.presses.clone(), g.order.clone())).collect();

    let mut report = CheckReport {
        analysis,
        all_starts_solvable,
        solvable_starts,
        unsolvable_start,
        quiet_basis,
        macros,
        intended: None,
        strategies: crate::strategy::all_within(puzzle, play_limit(puzzle, budget, started)),
        findings: Vec::new(),
    };
    report.intended = puzzle.intended.as_ref().map(|x| judge_intended(puzzle, &report, x));
    report.findings = findings(puzzle, &report, &answer.periods);
    Ok(report)
}

/// When greedy play must stop. A node budget (the default) is the same on every machine: a look
/// (a button scored, or rescored after a press changed one of its cells) counts one node and
/// one more for each cell a button changes, and greedy play gets one node in [`PLAY_SHARE`] of
/// the budget, on top of the analysis's (which keeps the whole budget, so that `check` and
/// `modsolve FILE` print the same par). The default's 25,000,000 nodes score a 1000×1000 grid's
/// million buttons and play about 127,000 presses (about 1.5 s on AMD EPYC); a 100×100 grid
/// plays its whole game. A time budget stops it at three fifths of the time, leaving the rest
/// for the findings and the report, but never less than a moment from now (a strategy that wins
/// in a few presses is always played).
fn play_limit(puzzle: &Puzzle, budget: Budget, started: std::time::Instant) -> crate::strategy::PlayLimit {
    let moment = std::time::Instant::now() + std::time::Duration::from_millis(50);
    let buttons = puzzle.button_count().max(1) as u64;
    let per_look = 1 + crate::solve::estimate::entries(puzzle).div_ceil(buttons);
    crate::strategy::PlayLimit {
        deadline: budget.time.map(|time| (started + time.mul_f64(0.6)).max(moment)),
        looks: Some(budget.nodes / PLAY_SHARE / per_look),
    }
}

/// Greedy play's share of a node budget: one node in this many (see [`play_limit`]).
const PLAY_SHARE: u64 = 8;

/// The solvable starts as a reduced fraction of all starts, and whether they are all of them:
/// the press map's image (`Π L_j / kernel`) against the starts (`Π m_i`), as products.
fn starts_by_products(puzzle: &Puzzle, answer: &Answer) -> ((BigUint, BigUint), bool) {
    let domain = product(answer.periods.iter().cloned());
    let image = &domain / &answer.kernel_size;
    let space = product(puzzle.moduli.iter().map(|&m| BigUint::from(m)));
    let g = image.gcd(&space);
    ((&image / &g, &space / &g), image == space)
}

/// [`starts_by_products`] on the exponents of primes, when the algebra gave the kernel's
/// factors and every period fits 64 bits: a million-cell board's products have millions of
/// digits (their product, quotient and greatest common divisor took seconds), its exponents
/// are a handful of numbers.
fn starts_by_primes(puzzle: &Puzzle, answer: &Answer) -> Option<((BigUint, BigUint), bool)> {
    use std::collections::{BTreeMap, HashMap};
    let kernel = answer.kernel_factors.as_ref()?;
    let mut periods: HashMap<u64, i128> = HashMap::new();
    for l in &answer.periods {
        *periods.entry(num_traits::ToPrimitive::to_u64(l)?).or_insert(0) += 1;
    }
    let mut moduli: HashMap<u64, i128> = HashMap::new();
    for &m in puzzle.moduli.iter() {
        *moduli.entry(m).or_insert(0) += 1;
    }
    // Each prime's exponent in the image ([0]) and in the starts ([1]).
    let mut exponents: BTreeMap<u64, [i128; 2]> = BTreeMap::new();
    for (side, values) in [periods, moduli].into_iter().enumerate() {
        for (v, times) in values {
            for (p, e) in crate::algebra::factor::factorize(v) {
                exponents.entry(p).or_insert([0, 0])[side] += times * i128::from(e);
            }
        }
    }
    for &(p, e) in kernel {
        exponents.entry(p).or_insert([0, 0])[0] -= i128::from(e);
    }
    let (mut image, mut space) = (BigUint::one(), BigUint::one());
    for (&p, &[i, s]) in &exponents {
        let least = i.min(s);
        if least < 0 {
            return None;
        }
        image *= num_traits::Pow::pow(BigUint::from(p), u64::try_from(i - least).ok()?);
        space *= num_traits::Pow::pow(BigUint::from(p), u64::try_from(s - least).ok()?);
    }
    Some(((image, space), exponents.values().all(|&[i, s]| i == s)))
}

/// `Π values`, as powers of the distinct values: a board of a million cells has a handful of
/// distinct moduli and periods, and multiplying a million factors one by one is quadratic.
pub(crate) fn product(values: impl Iterator<Item = BigUint>) -> BigUint {
    let mut counts: std::collections::BTreeMap<BigUint, u32> = std::collections::BTreeMap::new();
    for v in values {
        *counts.entry(v).or_insert(0) += 1;
    }
    counts.into_iter().map(|(v, k)| num_traits::Pow::pow(v, k)).product()
}

/// The elimination for one macro per cell costs about `cells² × (cells + buttons)` steps:
/// at most this many (a few seconds) before macros are left out.
const MACRO_WORK_LIMIT: u128 = 1 << 33;

/// Steps of that elimination per second on a slow machine, to judge it against the budget.
const MACRO_STEPS_PER_SECOND: f64 = 1.0e9;

/// Why the macros were not found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MacrosLeftOut {
    /// One plan per cell is a dense system too large for memory or for a few seconds.
    TooLarge,
    /// The elimination would take longer than what is left of the budget.
    OverBudget,
}

/// Whether a macro per cell can be found: its dense system fits in memory, in a few seconds,
/// and in what is left of the budget.
fn macros_fit(puzzle: &Puzzle, left: Option<std::time::Duration>) -> Result<(), MacrosLeftOut> {
    let (cells, buttons) = (puzzle.cell_count() as u128, puzzle.button_count() as u128);
    let work = cells * cells * (cells + buttons);
    if !differences_fit(puzzle, puzzle.cell_count()) || work > MACRO_WORK_LIMIT {
        return Err(MacrosLeftOut::TooLarge);
    }
    match left {
        Some(left) if work as f64 / MACRO_STEPS_PER_SECOND > left.as_secs_f64() => {
            Err(MacrosLeftOut::OverBudget)
        }
        _ => Ok(()),
    }
}

/// Replaces each macro by the one with fewest presses when the quiet patterns are few, while
/// the budget (started at `started`) lasts.
fn shorten_macros(
    answer: &Answer,
    macros: &mut [Option<Vec<BigUint>>],
    puzzle: &Puzzle,
    budget: Budget,
    started: std::time::Instant,
) {
    let small = answer.kernel_size <= BigUint::from(4096u32) && !answer.kernel_size.is_one();
    if !small {
        return;
    }
    for (cell, plan) in macros.iter_mut().enumerate() {
        let Some(plan) = plan else { continue };
        if budget.expired(started) {
            return;
        }
        let mut coset = answer.clone();
        coset.presses = Some(plan.clone());
        coset.count = coset.kernel_size.clone();
        let budget = Budget { nodes: 1 << 16, time: budget.since(started).time };
        let search = |highest: &[u64]| {
            let mut problem = crate::analysis::search_problem(puzzle, highest);
            problem.rhs = vec![0; puzzle.cell_count()];
            problem.rhs[cell] = 1;
            problem
        };
        if let Ok(found) = explore(&coset, search, None, Objective::Total, budget, &[])
            && let Some(best) = found.best
            && best.is_proven()
        {
            *plan = best.presses;
        }
    }
}

fn judge_intended(puzzle: &Puzzle, report: &CheckReport, intended: &[u64]) -> IntendedVerdict {
    let presses: Vec<BigUint> = intended.iter().map(|&x| BigUint::from(x)).collect();
    // Staged presses: the last press may stop part-way because the puzzle is solved.
    let cuts = (0..puzzle.button_count()).flat_map(|j| (1..puzzle.phase_count(j)).map(move |k| (j, k)));
    let solves = puzzle.solves(&presses)
        || (puzzle.phases.is_some()
            && cuts.into_iter().any(|cut| puzzle.plays_to_target(&presses, Some(cut))));
    let total: BigUint = presses.iter().sum();
    let fewest = match &report.analysis.fewest {
        Some(plan) if plan.is_proven() => Some(solves && total <= plan.total()),
        _ => None,
    };
    IntendedVerdict { solves, fewest, unique: solves && report.analysis.count.value.is_one() }
}

fn findings(puzzle: &Puzzle, report: &CheckReport, periods: &[BigUint]) -> Vec<Finding> {
    let mut out = Vec::new();
    let mut add =
        |code: FindingCode, message: String| out.push(Finding { code, severity: code.severity(), message });
    let analysis = &report.analysis;
    if !analysis.is_solvable() {
        let message = if analysis.count.exact {
            "no plan turns the start into the target".to_string()
        } else {
            "no plan was found within the budget".to_string()
        };
        add(FindingCode::Unsolvable, message);
    }
    let n = puzzle.button_count();
    let effects: Vec<Vec<(usize, u64)>> = (0..n).map(|j| puzzle.effects(j)).collect();
    for (j, period) in periods.iter().enumerate() {
        if period.is_one() {
            add(FindingCode::IdleButton, format!("button {} changes nothing", puzzle.button_name(j)));
        }
    }
    let mut seen: std::collections::HashMap<&[(usize, u64)], usize> = std::collections::HashMap::new();
    for (j, effect) in effects.iter().enumerate() {
        if effect.is_empty() {
            continue;
        }
        if let Some(&first) = seen.get(effect.as_slice()) {
            add(
                FindingCode::DuplicateButtons,
                format!(
                    "buttons {} and {} have the same effect",
                    puzzle.button_name(first),
                    puzzle.button_name(j)
                ),
            );
        } else {
            seen.insert(effect, j);
        }
    }
    let mut touched = vec![false; puzzle.cell_count()];
    for effect in &effects {
        for &(i, _) in effect {
            touched[i] = true;
        }
    }
    for (i, _) in touched.iter().enumerate().filter(|(_, t)| !**t) {
        add(FindingCode::UntouchedCell, format!("no button changes cell {}", puzzle.cell_name(i)));
    }
    if puzzle.start == puzzle.target {
        add(FindingCode::AlreadySolved, "the start already equals the target".into());
    }
    if let Some(verdict) = &report.intended {
        if !verdict.solves {
            add(FindingCode::IntendedFails, "the intended plan does not reach the target".into());
        } else if verdict.fewest == Some(false) {
            let total: u128 = puzzle.intended.iter().flatten().map(|&x| x as u128).sum();
            let par = report.par().unwrap_or_default();
            add(
                FindingCode::IntendedNotFewest,
                format!("the intended plan uses {total} presses but {par} are enough"),
            );
        }
    }
    if analysis.is_solvable()
        && !report.strategies.is_empty()
        && report.strategies.iter().all(|s| !s.solves && s.finished)
    {
        let names: Vec<&str> = report.strategies.iter().map(|s| s.strategy.name()).collect();
        add(
            FindingCode::NoSimpleStrategy,
            format!(
                "no simple strategy ({}) solves it: players will need to reason or guess",
                names.join(", ")
            ),
        );
    }
    if let Some(plan) = &analysis.fewest
        && !plan.is_proven()
    {
        add(
            FindingCode::ParNotProven,
            match &plan.lower_bound {
                Some(bound) => format!(
                    "the par {} is the fewest presses found, {}; every plan takes at least {bound}",
                    plan.total(),
                    plan.proof.describe()
                ),
                None => {
                    format!("the par {} is the fewest presses found, {}", plan.total(), plan.proof.describe())
                }
            },
        );
    }
    out
}

/// `a/b` as text.
#[doc(hidden)]
pub fn fraction_text((a, b): &(BigUint, BigUint)) -> String {
    format!("{a}/{b}")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The solvable starts worked out on the exponents of primes equal those worked out on the
    /// products, on random grids and explicit-button puzzles of mixed moduli (sparse and dense
    /// elimination give the kernel's factors), solvable or not, with weights that leave some
    /// starts out.
    #[test]
    fn solvable_starts_by_primes_equal_the_products() {
        use rand::{RngExt, SeedableRng, rngs::StdRng};
        let mut rng = StdRng::seed_from_u64(11);
        let mut partial = 0;
        for round in 0..300 {
            let (rows, cols) = (rng.random_range(1..=6usize), rng.random_range(1..=6usize));
            let cells = rows * cols;
            let moduli: Vec<u64> =
                (0..cells).map(|_| [2u64, 3, 4, 6, 8, 9, 12, 25, 27, 30][rng.random_range(0..10)]).collect();
            let start: Vec<u64> = moduli.iter().map(|&m| rng.random_range(0..m)).collect();
            let source = if round % 3 == 0 {
                let buttons: Vec<String> = (0..rng.random_range(1..=cells + 2))
                    .map(|_| {
                        let effects: Vec<String> = (0..rng.random_range(1..=3))
                            .map(|_| format!("({}, {})", rng.random_range(0..cells), rng.random_range(1..6)))
                            .collect();
                        format!("[{}]", effects.join(", "))
                    })
                    .collect();
                format!(
                    "Puzzle(graph: Cells({cells}), modulus: {moduli:?}, buttons: [{}], start: {start:?})",
                    buttons.join(", ")
                )
            } else {
                let (own, other) = (rng.random_range(0..6), rng.random_range(0..6));
                format!(
                    "Puzzle(graph: Grid(rows: {rows}, cols: {cols}), modulus: {moduli:?}, press: (self: {own}, neighbors: {other}), start: {start:?})"
                )
            };
            let puzzle = crate::parse_puzzle(&source).expect("valid");
            let answer = solve(&puzzle).expect("solved");
            let by_products = starts_by_products(&puzzle, &answer);
            if puzzle.moduli.uniform().is_none() {
                assert_eq!(starts_by_primes(&puzzle, &answer).as_ref(), Some(&by_products), "{source}");
            }
            partial += usize::from(!by_products.1);
        }
        assert!(partial > 30, "only {partial} puzzles leave starts out");
    }

    /// The octopus estimates little; a dense 2000-cell puzzle is dominated by its +1 macros.
    #[test]
    fn the_estimate_counts_the_macros() {
        let puzzle = |text: &str| crate::parse_puzzle(text).expect("valid");
        let octopus = puzzle("Puzzle(graph: Path(4), modulus: [7, 8, 7, 6], press: (self: 2, neighbors: 1))");
        assert!(memory_estimate(&octopus).bytes < 1 << 20);
        let dense = puzzle("Puzzle(graph: Cells(2000), modulus: 7, buttons: [[(0, 1)], [(1, 1)]])");
        let estimate = memory_estimate(&dense);
        assert!(estimate.largest.contains("a +1 macro for each of 2000 cells"), "{estimate:?}");
        assert!(estimate.bytes > crate::solve::memory_estimate(&dense, false).bytes);
    }

    #[test]
    fn finding_code_names_are_unique_and_kebab_case() {
        let mut names: Vec<&str> = FindingCode::ALL.iter().map(|c| c.as_str()).collect();
        assert!(names.iter().all(|n| n.chars().all(|c| c.is_ascii_lowercase() || c == '-')), "{names:?}");
        names.sort();
        names.dedup();
        assert_eq!(names.len(), FindingCode::ALL.len());
    }
}

/// What [`check_within`] is given.
#[derive(Clone, Copy, Debug, Default)]
#[non_exhaustive]
pub struct CheckOptions {
    /// The best-effort work allowed: the par search, the shortening of macros and the
    /// play-throughs of the player strategies. It never leaves the check undecided.
    pub budget: Budget,
    /// The wall time the whole check may take (`None`: no bound); past it the check is
    /// abandoned ([`Error::TimedOut`]).
    pub timeout: Option<std::time::Duration>,
    /// Refuse puzzles whose estimated peak memory is above this many bytes (`None`: half of
    /// this machine's memory).
    pub max_memory: Option<u64>,
}

/// The estimate for `check`: solving, the per-cell macros when they fit (a dense system of
/// cells × (buttons + cells)), and the players' boards.
#[doc(hidden)]
pub fn memory_estimate(puzzle: &Puzzle) -> crate::memory::Estimate {
    let solve = crate::solve::memory_estimate(puzzle, false);
    let (cells, buttons) = (puzzle.cell_count() as u64, puzzle.button_count() as u64);
    let macros = cells.saturating_mul(cells + buttons);
    let macro_bytes = if crate::solve::differences_fit(puzzle, puzzle.cell_count()) {
        macros * 8 + cells * cells.min(4096) * crate::solve::estimate::BIG
    } else {
        0
    };
    let players = 16 * cells + 8 * crate::solve::estimate::entries(puzzle);
    let bytes = solve.bytes + macro_bytes + players;
    let largest = if macro_bytes > solve.bytes {
        format!("a +1 macro for each of {cells} cells")
    } else {
        solve.largest
    };
    crate::memory::Estimate { bytes, largest }
}

/// Checks one puzzle within the options' memory and time: the work is refused before it starts
/// when its estimated memory is above the limit ([`Error::OverMemory`]), and abandoned when it
/// runs past the timeout's bound ([`Error::TimedOut`]; it stops at its next pivot or
/// row). With a timeout the work runs on a copy of the puzzle.
///
/// ```
/// use modsolve::check::{CheckOptions, check_within};
/// let octopus = modsolve::parse_puzzle(
///     "Puzzle(graph: Path(4), modulus: [7, 8, 7, 6], press: (self: 2, neighbors: 1), start: [2, 4, 5, 3])",
/// ).unwrap();
/// let report = check_within(&octopus, &CheckOptions::default()).unwrap();
/// assert_eq!(report.par(), Some(18u32.into()));
/// ```
pub fn check_within(puzzle: &Puzzle, options: &CheckOptions) -> Result<CheckReport, Error> {
    crate::memory::within(memory_estimate(puzzle), options.max_memory)?;
    let budget = options.budget;
    if options.timeout.is_none() {
        return Ok(check(puzzle, budget)?);
    }
    let owned = puzzle.clone();
    Ok(crate::bounded::within_timeout(options.timeout, move || check(&owned, budget))??)
}
