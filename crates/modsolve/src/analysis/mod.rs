//! One puzzle, every question the `solve` command answers: is it solvable, how many plans
//! (within press limits), which plan is best for an objective, and is that proven.
//!
//! This is where the engines meet: the algebra (`crate::solve`) gives the solution set, the
//! optimiser (`crate::solve::optimize`) searches it, and the search solver
//! (`crate::solve::search`) answers alone with `Engine::Search` or where press limits make the
//! algebra's count not the answer. Every plan returned here has been simulated on the puzzle.
//! Its answer is [`SolveReport`] (in [`report`]), the typed `solve --json` document; the
//! renderers of `crate::report` only read it.

mod json;
pub mod report;
mod stages;

use num_bigint::BigUint;
use std::sync::Arc;
use std::time::Instant;

use num_traits::{One, ToPrimitive, Zero};

use crate::bounded::Abandoned;
use crate::error::{Error, InternalError};
use crate::model::Puzzle;
use crate::solve::optimize::{Exploration, Plan, Proof, explore};
use crate::solve::search::{Budget, Goal, Objective, SearchProblem, search, search_ahead};
use crate::solve::{Answer, Path, difference, solve};
pub use report::SolveReport;

/// Which solver answers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Engine {
    /// The algebra, with search where it is needed (press limits, optimisation).
    #[default]
    Auto,
    /// The algebra only decides solvability and counts (optimisation still searches its set).
    Algebra,
    /// The search solver alone, independent of the algebra.
    Search,
}

impl Engine {
    /// The JSON `method`: `search` for the search solver alone, else `algebra`.
    pub fn code(self) -> &'static str {
        match self {
            Engine::Search => "search",
            Engine::Auto | Engine::Algebra => "algebra",
        }
    }
}

/// What to compute.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct Options {
    /// Which solver answers.
    pub engine: Engine,
    /// The objective of the plan shown; the fewest-press plan is always computed too.
    pub objective: Objective,
    /// The best-effort work allowed: the searches for a better plan (and the search solver's
    /// and a listing's walks), every search in the analysis together. It never makes the
    /// algebra's answer (solvable, the count, a plan) undecided. The default is a node count,
    /// the same on every machine.
    pub budget: Budget,
    /// The wall time the whole analysis may take, elimination included (`None`, the default:
    /// no bound). Past it the report is undecided and the abandoned work stops.
    pub timeout: Option<std::time::Duration>,
    /// List plans (within limits), at most `list_limit` of them.
    pub list_all: bool,
    /// The most plans a listing holds.
    pub list_limit: usize,
    /// Refuse work whose estimated peak memory is above this many bytes (`None`: half of this
    /// machine's memory, [`crate::memory::default_limit`]).
    pub max_memory: Option<u64>,
    /// Grids of more cells than this that light chasing solves take the compact path, when
    /// nothing else is asked (default [`BIG_BOARD_CELLS`]; 0 takes it whenever it applies,
    /// which is how tests hold it to the general path).
    pub compact_from: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            engine: Engine::default(),
            objective: Objective::default(),
            budget: Budget::default(),
            timeout: None,
            list_all: false,
            list_limit: 1000,
            max_memory: None,
            compact_from: BIG_BOARD_CELLS,
        }
    }
}

/// How many plans there are.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Count {
    /// The number of plans (a lower bound when not `exact`).
    pub value: BigUint,
    /// False when a budget cut the count short: then `value` is a lower bound.
    pub exact: bool,
}

/// Plans listed: the first `list_limit` plans of the solution set (within limits).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Listing {
    /// The plans, each verified by simulation.
    pub plans: Vec<Vec<BigUint>>,
    /// Why the listing stopped before the last plan, if it did.
    pub cut: Option<Cut>,
}

/// Why a listing stopped early.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cut {
    /// `list_limit` plans were listed.
    Limit,
    /// The budget ran out.
    BudgetRanOut,
}

/// Everything the `solve` command reports.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Analysis {
    /// Which solver answered.
    pub engine: Engine,
    /// `L_j` per button: pressing button `j` `L_j` times changes nothing.
    pub periods: Vec<BigUint>,
    /// `Some(true)` solvable, `Some(false)` not, `None` undecided: the budget ran out before
    /// the search found a plan or ruled every plan out.
    pub solvable: Option<bool>,
    /// The plan with fewest presses (proven or not), `None` when there is no plan.
    pub fewest: Option<Plan>,
    /// The best plan for a non-default objective.
    pub optimal: Option<Plan>,
    /// Plans within the press limits (all plans when there are none).
    pub count: Count,
    /// Nonzero plans that change nothing (ignoring press limits), when known.
    pub quiet_patterns: Option<BigUint>,
    /// The plans listed, when asked for.
    pub listing: Option<Listing>,
    /// Search nodes visited, when the search solver ran.
    pub search_nodes: Option<u64>,
    /// Whether the press limits are stricter than the periods.
    pub limited: bool,
    /// The elimination that answered, when the algebra did.
    pub method: Option<crate::solve::Method>,
    /// Propagation's symbolic seeds, when it answered.
    pub seeds: Option<usize>,
    /// Whether light chasing on a grid answered (`method` is then propagation).
    pub(crate) chased: bool,
    /// For `fewest` and `optimal`: whether the plan's lower bound already includes the
    /// relaxations' bound (the search worked it out), so [`attach_bounds`] need not.
    pub(crate) relaxed: [bool; 2],
    /// The quiet patterns and one (the algebra's kernel) as `(prime, exponent)` pairs, when
    /// the elimination gave them.
    pub(crate) kernel_factors: Option<Vec<(u64, u64)>>,
}

impl Analysis {
    /// Solvable, as far as the analysis could tell.
    pub fn is_solvable(&self) -> bool {
        self.solvable == Some(true)
    }

    /// The plan to show: the optimal one for the chosen objective, else the fewest.
    pub fn shown(&self) -> Option<&Plan> {
        self.optimal.as_ref().or(self.fewest.as_ref())
    }
}

/// The search system of a puzzle with the given highest value per button.
pub fn search_problem(puzzle: &Puzzle, highest: &[u64]) -> SearchProblem {
    SearchProblem {
        moduli: puzzle.moduli.to_vec(),
        effects: (0..puzzle.button_count()).map(|j| puzzle.effects(j)).collect(),
        rhs: difference(puzzle),
        highest: highest.to_vec(),
    }
}

fn to_big(x: &[u64]) -> Vec<BigUint> {
    x.iter().map(|&v| BigUint::from(v)).collect()
}

/// Past this many cells a grid that light chasing solves is solved in compact form (one 32-bit
/// press count per cell, no search for a fewer-press plan), when nothing else is asked.
pub const BIG_BOARD_CELLS: usize = 250_000;

/// The path [`analyse`] takes, as the route decides it ([`crate::solve::path`]): the compact
/// light-chasing path for a grid of more than `options.compact_from` cells that light chasing
/// solves, with no press limits, phases, listing, other objective or search asked for.
fn path(puzzle: &Puzzle, options: &Options) -> Path {
    let plain =
        options.engine != Engine::Search && options.objective == Objective::Total && !options.list_all;
    crate::solve::path(puzzle, plain, options.compact_from)
}

/// Everything modsolve can say about one puzzle, within the options' budget and memory: whether
/// it is solvable, a plan (the fewest presses, proven or not, and the best for another
/// objective), how many plans there are, the quiet patterns, and listed plans when asked.
///
/// This is the one entry point the command line uses. It chooses the method (the algebra with
/// its searches, the search solver alone, or light chasing in compact form on big grids),
/// refuses work whose estimated memory is above `options.max_memory` before allocating it, and
/// keeps `options.timeout` for the whole work, elimination included: when the timeout comes
/// before the work finishes, the report is undecided (`solvable` is `None`) and the abandoned
/// work stops at its next pivot or row. With a timeout the work runs on a copy of the puzzle
/// ([`analyse_shared`] saves it). The budget bounds only the searches for a better plan.
///
/// Every plan in the report has been simulated on the puzzle.
///
/// ```
/// let puzzle = modsolve::parse_puzzle(
///     "Puzzle(graph: Grid(rows: 3, cols: 3), modulus: 2, start: All(1))",
/// ).unwrap();
/// let report = modsolve::analyse(&puzzle, &modsolve::Options::default()).unwrap();
/// assert_eq!(report.solvable, Some(true));
/// assert_eq!(report.fewest.unwrap().total(), 5u32.into());
/// ```
pub fn analyse(puzzle: &Puzzle, options: &Options) -> Result<SolveReport, Error> {
    let path = within_memory(puzzle, options)?;
    if options.timeout.is_none() {
        return Ok(solve_report(puzzle, options, path)?);
    }
    bounded_report(Arc::new(puzzle.clone()), options, path)
}

/// [`analyse`] on a puzzle the caller shares: with a time budget the worker thread holds this
/// handle instead of a copy of the puzzle (the command line, which owns the puzzle, saves a copy
/// of a board of millions of cells this way).
pub fn analyse_shared(puzzle: Arc<Puzzle>, options: &Options) -> Result<SolveReport, Error> {
    let path = within_memory(&puzzle, options)?;
    if options.timeout.is_none() {
        return Ok(solve_report(&puzzle, options, path)?);
    }
    bounded_report(puzzle, options, path)
}

/// The estimated peak memory of [`analyse`] on `puzzle` with `options`: the figure its memory
/// check compares with `options.max_memory`, for callers that share one budget among jobs.
pub fn memory_estimate(puzzle: &Puzzle, options: &Options) -> crate::memory::Estimate {
    crate::solve::memory_estimate(puzzle, path(puzzle, options).is_compact())
}

/// Refuses work over the memory limit; the path the work takes.
fn within_memory(puzzle: &Puzzle, options: &Options) -> Result<Path, Error> {
    let path = path(puzzle, options);
    crate::memory::within(crate::solve::memory_estimate(puzzle, path.is_compact()), options.max_memory)?;
    Ok(path)
}

/// The report of the work, on the calling thread.
fn solve_report(puzzle: &Puzzle, options: &Options, path: Path) -> Result<SolveReport, InternalError> {
    if path.is_compact() {
        return Ok(SolveReport::of_compact(puzzle, crate::solve::solve_compact(puzzle)?));
    }
    let mut report = SolveReport::of_analysis(puzzle, &analysis_of(puzzle, options)?);
    report.machine_dependent = options.budget.time.is_some() && report.cut_by_budget();
    Ok(report)
}

/// The report of the work on a worker thread, abandoned past the timeout's bound.
fn bounded_report(puzzle: Arc<Puzzle>, options: &Options, path: Path) -> Result<SolveReport, Error> {
    let (shared, copied) = (Arc::clone(&puzzle), *options);
    match crate::bounded::on_worker(options.timeout, move || solve_report(&shared, &copied, path)) {
        Ok(report) => Ok(report?),
        Err(Abandoned::TimeRanOut) => Ok(SolveReport::undecided(
            &puzzle,
            options.engine,
            "the timeout came before the analysis finished",
        )),
        Err(Abandoned::Stopped) => Err(InternalError::Stopped.into()),
    }
}

/// The lower-level analysis behind [`analyse`] (named `analyze` before): the [`Analysis`] with
/// its plans as numbers, not the [`SolveReport`] document. The budget bounds the searches in it,
/// not the elimination; nothing here keeps a timeout or a memory limit (see [`analyse`], the
/// entry point, which does).
pub fn analysis_of(puzzle: &Puzzle, options: &Options) -> Result<Analysis, InternalError> {
    analysis_with_answer(puzzle, options, false).map(|(analysis, _)| analysis)
}

/// [`analysis_of`], and the algebra's answer when the algebra answered with its quiet basis
/// (`None` too when the budget has no nodes, no listing is asked for and `keep_basis` is
/// false, which leave the basis out): `check` needs it, and a board of a million cells takes
/// seconds to eliminate.
pub(crate) fn analysis_with_answer(
    puzzle: &Puzzle,
    options: &Options,
    keep_basis: bool,
) -> Result<(Analysis, Option<Answer>), InternalError> {
    let started = Instant::now();
    let analysed = || match options.engine {
        Engine::Search => Ok((by_search(puzzle, options, started)?, None)),
        Engine::Auto | Engine::Algebra if puzzle.phases.is_some() => {
            Ok((stages::by_stages(puzzle, options, started)?, None))
        }
        Engine::Auto | Engine::Algebra => by_algebra(puzzle, options, started, keep_basis),
    };
    // Past the search's size the fewest presses' bound is the counting one, a pass over the
    // cells (0.8 s on a 2000×2000 board): worked out beside the algebra, on a thread of its own
    // (the algebra stays on this one: run in the thread pool, a server's analyses kept their
    // memory after they ended).
    let (analysed, counted) = if puzzle.phases.is_none()
        && puzzle.button_count() > crate::solve::SEARCH_BUTTON_LIMIT
        && options.engine != Engine::Search
    {
        let stop = crate::bounded::Stop::here();
        std::thread::scope(|scope| {
            let counting =
                scope.spawn(|| stop.carry(|| crate::solve::bound::counting_bound(puzzle, Objective::Total)));
            let analysed = analysed();
            match counting.join() {
                Ok(counted) => (analysed, counted),
                Err(unwound) => std::panic::resume_unwind(unwound),
            }
        })
    } else {
        (analysed(), None)
    };
    let (mut analysis, answer): (Analysis, Option<Answer>) = analysed?;
    attach_bounds(puzzle, &mut analysis, options.budget.is_zero(), counted);
    verify(puzzle, &analysis)?;
    Ok((analysis, answer))
}

fn limits_bind(puzzle: &Puzzle, periods: &[BigUint]) -> bool {
    puzzle
        .max_presses
        .as_ref()
        .is_some_and(|limits| limits.iter().zip(periods).any(|(&k, l)| BigUint::from(k) + 1u32 < *l))
}

fn within_limits(puzzle: &Puzzle, x: &[BigUint]) -> bool {
    match &puzzle.max_presses {
        Some(limits) => x.iter().zip(limits).all(|(v, &k)| *v <= BigUint::from(k)),
        None => true,
    }
}

/// The algebra's analysis: its answer (solvable, the count, a plan), then the best plans
/// (walked whole, the algebra's own, or searched), the count within the limits and a listing.
fn by_algebra(
    puzzle: &Puzzle,
    options: &Options,
    started: Instant,
    keep_basis: bool,
) -> Result<(Analysis, Option<Answer>), InternalError> {
    // With no search nodes, no listing and no caller that keeps it, the quiet basis has no use:
    // leave it out (and the answer is not handed on: it is not the whole answer). A search or a
    // listing uses it only when the puzzle is solvable.
    let basis = keep_basis || options.budget.nodes > 0 || options.list_all;
    let answer: Answer = if keep_basis {
        solve(puzzle)?
    } else if basis {
        crate::solve::solve_basis_if_solvable(puzzle)?
    } else {
        crate::solve::solve_without_basis(puzzle)?
    };
    let limited = limits_bind(puzzle, &answer.periods);
    let mut analysis = of_answer(&answer, options.engine, limited);
    let Some(x0) = &answer.presses else { return Ok((analysis, keep_basis.then_some(answer))) };
    // Answers that need no search: the start already meets the target (no presses, proven for
    // every objective), or press limits that leave a box small enough to walk whole.
    let objectives: Vec<Objective> = std::iter::once(Objective::Total)
        .chain((options.objective != Objective::Total).then_some(options.objective))
        .collect();
    let exact = walked_whole(puzzle, &answer, limited, &objectives);
    let searches = Searches::new(puzzle, options, started, &answer, x0);
    let mut counted = !limited;
    if let Some((best, walked)) = exact {
        let mut plans =
            best.into_iter().zip(&objectives).map(|(x, &objective)| x.map(|x| proven(&x, objective)));
        analysis.fewest = plans.next().flatten();
        analysis.optimal = plans.next().flatten();
        if let Some((count, tried)) = walked {
            analysis.count = Count { value: count, exact: true };
            analysis.search_nodes = Some(tried);
            counted = true;
        }
    } else if options.budget.is_zero() {
        // No search at all: the algebra's plan.
        analysis.fewest = searches.standing(Objective::Total, Proof::BudgetRanOut);
        if options.objective != Objective::Total {
            analysis.optimal = searches.standing(options.objective, Proof::BudgetRanOut);
        }
    } else {
        counted |= searches.best_plans(&mut analysis);
    }
    // A plan for the objective asked, always: when its own search found none in the budget,
    // the fewest-presses plan is one (within the limits), not proven best for it.
    if options.objective != Objective::Total
        && analysis.optimal.is_none()
        && let Some(fewest) = &analysis.fewest
    {
        analysis.optimal = Some(Plan {
            presses: fewest.presses.clone(),
            objective: options.objective,
            proof: Proof::BudgetRanOut,
            partial: None,
            lower_bound: None,
        });
    }
    // The count within binding limits comes from a search; without one (periods past 64 bits)
    // it is unknown, never the algebra's count of all plans.
    if !counted && count_by_search(puzzle, searches.budget(), 0, &mut analysis).is_none() {
        analysis.count = Count { value: BigUint::zero(), exact: false };
    }
    if options.list_all {
        list_plans(puzzle, options, &answer, started, &mut analysis);
    }
    analysis.solvable = if analysis.fewest.is_some() || !analysis.count.value.is_zero() {
        Some(true)
    } else if analysis.count.exact {
        Some(false)
    } else {
        None
    };
    Ok((analysis, basis.then_some(answer)))
}

/// The analysis the algebra's answer gives before any search: not solvable until a plan is
/// found, the algebra's count (exact) and quiet patterns.
fn of_answer(answer: &Answer, engine: Engine, limited: bool) -> Analysis {
    Analysis {
        engine,
        periods: answer.periods.clone(),
        solvable: Some(false),
        fewest: None,
        optimal: None,
        count: Count { value: answer.count.clone(), exact: true },
        quiet_patterns: Some(answer.quiet_patterns()),
        listing: None,
        search_nodes: None,
        limited,
        method: Some(answer.method),
        seeds: answer.seeds,
        chased: answer.chased,
        relaxed: [false; 2],
        kernel_factors: answer.kernel_factors.clone(),
    }
}

/// The best plan per objective (`None` where none is within the limits) and, when a box was
/// walked, the plans counted in it and the press vectors tried.
type Walked = (Vec<Option<Vec<u64>>>, Option<(BigUint, u64)>);

/// The best plans without search, when there is such an answer: the start already meets the
/// target (no presses), or binding press limits leave a box small enough to walk whole.
fn walked_whole(puzzle: &Puzzle, answer: &Answer, limited: bool, objectives: &[Objective]) -> Option<Walked> {
    let zero = vec![BigUint::zero(); puzzle.button_count()];
    if puzzle.solves(&zero) {
        return Some((vec![Some(vec![0u64; zero.len()]); objectives.len()], None));
    }
    if !limited {
        return None;
    }
    // A plan presses each button fewer times than its period: the box is
    // `0 ≤ x_j ≤ min(limit_j, period_j − 1)`.
    puzzle
        .max_presses
        .as_deref()
        .map(|limits| {
            limits
                .iter()
                .zip(&answer.periods)
                .map(|(&k, l)| l.to_u64().map_or(k, |l| k.min(l.saturating_sub(1))))
                .collect::<Vec<u64>>()
        })
        .and_then(|highest| crate::solve::within::walk_box(puzzle, &highest, objectives))
        .map(|walked| (walked.best, Some((walked.count, walked.tried))))
}

/// A plan proven best for `objective` (a whole walk found it), with its measure as its bound.
fn proven(x: &[u64], objective: Objective) -> Plan {
    let mut plan =
        Plan { presses: to_big(x), objective, proof: Proof::Proven, partial: None, lower_bound: None };
    plan.lower_bound = Some(plan.measure());
    plan
}

/// The searches of one algebra analysis for better plans than the algebra's: they share the
/// command's budget, each getting what the ones before it left.
struct Searches<'a> {
    puzzle: &'a Puzzle,
    options: &'a Options,
    started: Instant,
    answer: &'a Answer,
    /// The algebra's plan.
    x0: &'a [BigUint],
    /// Search nodes the searches so far spent.
    spent: std::cell::Cell<u64>,
    symmetries: Vec<Vec<usize>>,
}

impl<'a> Searches<'a> {
    fn new(
        puzzle: &'a Puzzle,
        options: &'a Options,
        started: Instant,
        answer: &'a Answer,
        x0: &'a [BigUint],
    ) -> Self {
        let symmetries = crate::model::symmetries(puzzle);
        Searches { puzzle, options, started, answer, x0, spent: std::cell::Cell::new(0), symmetries }
    }

    /// What is left of the budget.
    fn budget(&self) -> Budget {
        self.options.budget.after(self.started, self.spent.get())
    }

    /// The search of the algebra's solution set for the best plan for `objective`.
    fn explore_for(&self, objective: Objective) -> Result<Exploration, crate::solve::NotSearched> {
        let found = explore(
            self.answer,
            |highest| search_problem(self.puzzle, highest),
            self.puzzle.max_presses.as_deref(),
            objective,
            search_budget(self.options, objective, self.started, self.spent.get()),
            &self.symmetries,
        );
        if let Ok(found) = &found {
            self.spent.set(self.spent.get().saturating_add(found.nodes));
        }
        found
    }

    /// When the set cannot be walked (or no search is allowed), the algebra's plan stands: best
    /// only if it is the only one, else not proven for the reason `otherwise`.
    fn standing(&self, objective: Objective, otherwise: Proof) -> Option<Plan> {
        let proof = if self.answer.count.is_one() { Proof::Proven } else { otherwise };
        within_limits(self.puzzle, self.x0).then(|| Plan {
            presses: self.x0.to_vec(),
            objective,
            proof,
            partial: None,
            lower_bound: None,
        })
    }

    /// Searches for the fewest-presses plan, then for the objective's; whether the first
    /// search counted the plans within the limits.
    fn best_plans(&self, analysis: &mut Analysis) -> bool {
        let objective = self.options.objective;
        let mut counted = false;
        // With a second objective to come, the first search keeps only its share of the default.
        match self.explore_for(Objective::Total) {
            Ok(found) => {
                analysis.fewest = with_bound(found.best, found.lower_bound);
                analysis.relaxed[0] = found.relaxed;
                if let Some(count) = found.count_within_limits {
                    analysis.count = Count { value: count, exact: true };
                    counted = true;
                }
                analysis.search_nodes = Some(found.nodes);
            }
            Err(why) => analysis.fewest = self.standing(Objective::Total, Proof::NotSearched(why)),
        }
        if objective != Objective::Total {
            analysis.optimal = match self.budget().is_zero() {
                // The search for the fewest presses spent the budget.
                true => self.standing(objective, Proof::BudgetRanOut),
                false => match self.explore_for(objective) {
                    Ok(found) => {
                        analysis.search_nodes = Some(self.spent.get());
                        analysis.relaxed[1] = found.relaxed;
                        with_bound(found.best, found.lower_bound)
                    }
                    Err(why) => self.standing(objective, Proof::NotSearched(why)),
                },
            };
        }
        counted
    }
}

/// The listing asked for: from the quiet basis when there is one, else by the search solver.
fn list_plans(
    puzzle: &Puzzle,
    options: &Options,
    answer: &Answer,
    started: Instant,
    analysis: &mut Analysis,
) {
    // An exact count bounds the listing: once that many plans are listed (none, when it is
    // 0), the rest of the set has no plan to find.
    let count = analysis.count.exact.then(|| analysis.count.value.to_u64()).flatten();
    analysis.listing = list_from_basis(puzzle, answer, options.list_limit, count, options.budget, started);
    if analysis.listing.is_none() && count == Some(0) {
        analysis.listing = Some(Listing { plans: Vec::new(), cut: None });
    }
    if analysis.listing.is_none() {
        let count = analysis.count.clone();
        let listing = count_by_search(puzzle, options.budget.since(started), options.list_limit, analysis);
        // The search only lists: the count stays the algebra's (exact) one when it had it.
        if count.exact {
            analysis.count = count;
        }
        analysis.listing = listing;
    }
}

/// Lists the first `keep` plans of the algebra's solution set `x0 + Σ t_g·g (mod L)`, in
/// mixed-radix order over the basis, skipping plans beyond the press limits; `None` when the
/// basis was left out. Memory holds only the plans kept; the budget (nodes and time) bounds
/// the walk, and an exact `count` of the plans within the limits ends it once they are all
/// listed (at once when it is 0).
fn list_from_basis(
    puzzle: &Puzzle,
    answer: &Answer,
    keep: usize,
    count: Option<u64>,
    budget: Budget,
    started: Instant,
) -> Option<Listing> {
    let x0 = answer.presses.as_ref()?;
    if !answer.has_full_basis() {
        return None;
    }
    let mut x = x0.clone();
    let mut digits = vec![BigUint::zero(); answer.quiet_basis.len()];
    let mut plans = Vec::new();
    let mut steps = 0u64;
    loop {
        if count.is_some_and(|count| plans.len() as u64 == count) {
            return Some(Listing { plans, cut: None });
        }
        if within_limits(puzzle, &x) {
            if plans.len() == keep {
                return Some(Listing { plans, cut: Some(Cut::Limit) });
            }
            plans.push(x.clone());
        }
        steps += 1;
        if steps > budget.nodes || (steps.is_multiple_of(1024) && budget.expired(started)) {
            return Some(Listing { plans, cut: Some(Cut::BudgetRanOut) });
        }
        // Next: add generator k, carrying past digits that wrap (order·g ≡ 0).
        let mut k = 0;
        loop {
            let Some(g) = answer.quiet_basis.get(k) else { return Some(Listing { plans, cut: None }) };
            for ((v, add), period) in x.iter_mut().zip(&g.presses).zip(&answer.periods) {
                if !add.is_zero() {
                    *v = (&*v + add) % period;
                }
            }
            digits[k] += 1u32;
            if digits[k] < g.order {
                break;
            }
            digits[k] = BigUint::zero();
            k += 1;
        }
    }
}

/// Counts plans within the limits with the search solver, keeping the first `keep` of them;
/// returns them as a listing.
fn count_by_search(puzzle: &Puzzle, budget: Budget, keep: usize, analysis: &mut Analysis) -> Option<Listing> {
    let highest = highest_values(puzzle, &analysis.periods)?;
    let outcome = search(&search_problem(puzzle, &highest), Goal::All { keep }, budget, None);
    analysis.count = Count { value: BigUint::from(outcome.count), exact: outcome.complete };
    *analysis.search_nodes.get_or_insert(0) += outcome.nodes;
    // A plan the count met is a plan, when the search for the best found none in time.
    if analysis.fewest.is_none()
        && let Some(x) = &outcome.plan
    {
        analysis.fewest = Some(Plan {
            presses: to_big(x),
            objective: Objective::Total,
            proof: Proof::BudgetRanOut,
            partial: None,
            lower_bound: None,
        });
    }
    let cut = if !outcome.complete {
        Some(Cut::BudgetRanOut)
    } else if (outcome.plans.len() as u64) < outcome.count {
        Some(Cut::Limit)
    } else {
        None
    };
    Some(Listing { plans: outcome.plans.iter().map(|x| to_big(x)).collect(), cut })
}

/// `min(L_j - 1, limit_j)` per button, when every period fits in 64 bits.
fn highest_values(puzzle: &Puzzle, periods: &[BigUint]) -> Option<Vec<u64>> {
    periods
        .iter()
        .enumerate()
        .map(|(j, l)| {
            let top = l.to_u64()?.checked_sub(1)?;
            Some(match &puzzle.max_presses {
                Some(limits) => top.min(limits[j]),
                None => top,
            })
        })
        .collect()
}

fn by_search(puzzle: &Puzzle, options: &Options, started: Instant) -> Result<Analysis, InternalError> {
    if puzzle.phases.is_some() {
        return Err(InternalError::Unsupported(
            "the search solver does not play staged presses; the algebra does".into(),
        ));
    }
    let periods = puzzle.periods();
    let limited = limits_bind(puzzle, &periods);
    let mut analysis = Analysis {
        engine: Engine::Search,
        periods: periods.clone(),
        solvable: None,
        fewest: None,
        optimal: None,
        count: Count { value: BigUint::zero(), exact: false },
        quiet_patterns: None,
        listing: None,
        search_nodes: Some(0),
        limited,
        method: None,
        seeds: None,
        chased: false,
        relaxed: [false; 2],
        kernel_factors: None,
    };
    let Some(highest) = highest_values(puzzle, &periods) else {
        return Err(InternalError::Unsupported(
            "the search solver needs every button's period to fit in 64 bits; the algebra has no such limit"
                .into(),
        ));
    };
    let problem = search_problem(puzzle, &highest);
    let best = |objective, analysis: &mut Analysis| {
        let ahead = crate::solve::bound::lookahead(&problem, objective, None);
        let budget = search_budget(options, objective, started, analysis.search_nodes.unwrap_or(0));
        let outcome = search_ahead(&problem, Goal::Best(objective), budget, None, None, ahead.as_ref(), None);
        *analysis.search_nodes.get_or_insert(0) += outcome.nodes;
        let proof = if outcome.complete { Proof::Proven } else { Proof::BudgetRanOut };
        let plan = outcome.plan.map(|x| Plan {
            presses: to_big(&x),
            objective,
            proof,
            partial: None,
            lower_bound: None,
        });
        (plan, outcome.complete)
    };
    // The fewest plan first: it also decides solvability.
    let (fewest, complete) = best(Objective::Total, &mut analysis);
    analysis.solvable = match (&fewest, complete) {
        (Some(_), _) => Some(true),
        (None, true) => Some(false),
        (None, false) => None,
    };
    analysis.fewest = fewest;
    if options.objective != Objective::Total {
        analysis.optimal = best(options.objective, &mut analysis).0;
    }
    let keep = if options.list_all { options.list_limit } else { 0 };
    let left = options.budget.after(started, analysis.search_nodes.unwrap_or(0));
    let listing = count_by_search(puzzle, left, keep, &mut analysis);
    if options.list_all {
        analysis.listing = listing;
    }
    if analysis.count.exact || analysis.fewest.is_some() {
        analysis.solvable = Some(analysis.fewest.is_some() || !analysis.count.value.is_zero());
    }
    // Quiet patterns: the plans that solve "change nothing", without limits.
    let top: Option<Vec<u64>> = periods.iter().map(|l| l.to_u64().map(|v| v - 1)).collect();
    if let Some(top) = top {
        let mut quiet = search_problem(puzzle, &top);
        quiet.rhs.iter_mut().for_each(|r| *r = 0);
        let outcome = search(&quiet, Goal::All { keep: 0 }, options.budget.since(started), None);
        if outcome.complete {
            analysis.quiet_patterns = Some(BigUint::from(outcome.count - 1));
        }
    }
    Ok(analysis)
}

/// The budget of a command's search for `objective`, after searches that counted `spent` nodes:
/// the fewest presses searched before a second objective keeps only its share of the default
/// ([`Budget::before_second`]); every other search gets what is left ([`Budget::after`]).
fn search_budget(options: &Options, objective: Objective, started: Instant, spent: u64) -> Budget {
    if objective == Objective::Total && options.objective != Objective::Total {
        options.budget.before_second(started)
    } else {
        options.budget.after(started, spent)
    }
}

/// The plan with the lower bound its search proved.
fn with_bound(plan: Option<Plan>, bound: Option<u128>) -> Option<Plan> {
    plan.map(|plan| Plan { lower_bound: bound.map(BigUint::from), ..plan })
}

/// Gives every plan its lower bound ([`crate::solve::bound`]): a proven plan's own measure,
/// otherwise the relaxations' bound, which proves a fewest-presses plan that meets it. Staged
/// presses (a cut press is not a full one) get a bound only when proven.
///
/// Past the search's size (or with no budget for search: `cheap`) the bound is the counting
/// one, a pass over the cells, so that every plan still has one (`counted`: the fewest
/// presses' counting bound, when already worked out).
fn attach_bounds(puzzle: &Puzzle, analysis: &mut Analysis, cheap: bool, counted: Option<u128>) {
    use crate::solve::bound::{Bound, counting_bound, lower_bound};
    let highest =
        if !cheap && puzzle.phases.is_none() && puzzle.button_count() <= crate::solve::SEARCH_BUTTON_LIMIT {
            highest_values(puzzle, &analysis.periods)
        } else {
            None
        };
    let [fewest, optimal] = analysis.relaxed;
    let plans = [(analysis.fewest.as_mut(), fewest), (analysis.optimal.as_mut(), optimal)];
    for (plan, relaxed) in plans.into_iter().filter_map(|(plan, relaxed)| Some((plan?, relaxed))) {
        if plan.is_proven() {
            plan.lower_bound = Some(plan.measure());
            continue;
        }
        let Some(highest) = &highest else {
            let b = match (plan.objective, counted) {
                (Objective::Total, Some(b)) => Some(b),
                (objective, _) => counting_bound(puzzle, objective),
            };
            if let Some(b) = b {
                let b = BigUint::from(b).max(plan.lower_bound.take().unwrap_or_default());
                if plan.objective == Objective::Total && b == plan.measure() {
                    plan.proof = Proof::Proven;
                }
                plan.lower_bound = (b <= plan.measure()).then_some(b);
            }
            continue;
        };
        // The search's bound when it includes the relaxations', else the larger of the two.
        let bound = match (plan.lower_bound.take(), relaxed) {
            (Some(found), true) => Some(found),
            (found, _) => match lower_bound(&search_problem(puzzle, highest), plan.objective) {
                Bound::AtLeast(b) => Some(BigUint::from(b).max(found.unwrap_or_default())),
                Bound::NoPlan => None,
            },
        };
        if let Some(b) = bound {
            if plan.objective == Objective::Total && b == plan.measure() {
                plan.proof = Proof::Proven;
            }
            // A bound above a verified plan would be a bug in the bound: none is shown then.
            plan.lower_bound = (b <= plan.measure()).then_some(b);
        }
    }
}

/// Every plan the analysis returns reaches the target and respects the limits.
fn verify(puzzle: &Puzzle, analysis: &Analysis) -> Result<(), InternalError> {
    let plans = analysis.fewest.iter().chain(&analysis.optimal).map(|p| &p.presses);
    let listed = analysis.listing.iter().flat_map(|l| &l.plans);
    for x in plans.chain(listed) {
        if !puzzle.solves(x) || !within_limits(puzzle, x) {
            // Staged plans are checked phase by phase below.
            if puzzle.phases.is_some() {
                continue;
            }
            return Err(InternalError::VerificationFailed(format!("{:?} analysis", analysis.engine)));
        }
    }
    for plan in analysis.fewest.iter().chain(&analysis.optimal) {
        if puzzle.phases.is_some()
            && !puzzle.plays_to_target(&plan.presses, plan.partial.map(|p| (p.button, p.phases)))
        {
            return Err(InternalError::VerificationFailed("staged plan".into()));
        }
    }
    Ok(())
}
