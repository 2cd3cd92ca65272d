//! One puzzle, every question the `solve` command answers: is it solvable, how many plans
//! (within press limits), which plan is best for an objective, and is that proven.
//!
//! This is where the engines meet: the algebra ([`crate::solve`]) gives the solution set, the
//! optimiser ([`crate::solve::optimize`]) searches it, and the search solver
//! ([`crate::solve::search`]) answers alone with `Engine::Search` or where press limits make the
//! algebra's count not the answer. Every plan returned here has been simulated on the puzzle.

use num_bigint::BigUint;
use num_traits::{ToPrimitive, Zero};

use crate::error::InternalError;
use crate::model::Puzzle;
use crate::solve::optimize::{Plan, explore};
use crate::solve::search::{Budget, Goal, Objective, SearchProblem, search};
use crate::solve::{Answer, difference, solve};

/// Which solver answers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Engine {
    /// The algebra, with search where it is needed (press limits, optimisation).
    #[default]
    Auto,
    /// The algebra only decides solvability and counts (optimisation still searches its set).
    Algebra,
    /// The search solver alone, independent of the algebra.
    Search,
}

/// What to compute.
#[derive(Clone, Copy, Debug, Default)]
pub struct Options {
    pub engine: Engine,
    /// The objective of the plan shown; the fewest-press plan is always computed too.
    pub objective: Objective,
    pub budget: Budget,
    /// List every plan (within limits).
    pub list_all: bool,
}

/// How many plans there are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Count {
    pub value: BigUint,
    /// False when a budget cut the count short: then `value` is a lower bound.
    pub exact: bool,
}

/// Everything the `solve` command reports.
#[derive(Clone, Debug)]
pub struct Analysis {
    pub engine: Engine,
    pub periods: Vec<BigUint>,
    /// The plan with fewest presses (proven or not), `None` when there is no plan.
    pub fewest: Option<Plan>,
    /// The best plan for a non-default objective.
    pub optimal: Option<Plan>,
    /// Plans within the press limits (all plans when there are none).
    pub count: Count,
    /// Nonzero plans that change nothing (ignoring press limits), when known.
    pub quiet_patterns: Option<BigUint>,
    /// Every plan, when asked for.
    pub all_plans: Option<Vec<Vec<BigUint>>>,
    /// Search nodes visited, when the search solver ran.
    pub search_nodes: Option<u64>,
    /// Whether the press limits are stricter than the periods.
    pub limited: bool,
    /// The elimination that answered, when the algebra did.
    pub method: Option<crate::solve::Method>,
    /// Propagation's symbolic seeds, when it answered.
    pub seeds: Option<usize>,
}

impl Analysis {
    /// Solvable, as far as the analysis could tell.
    pub fn is_solvable(&self) -> bool {
        self.fewest.is_some()
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

/// Runs the analysis.
pub fn analyze(puzzle: &Puzzle, options: &Options) -> Result<Analysis, InternalError> {
    let analysis = match options.engine {
        Engine::Search => by_search(puzzle, options)?,
        Engine::Auto | Engine::Algebra if puzzle.phases.is_some() => by_stages(puzzle, options)?,
        Engine::Auto | Engine::Algebra => by_algebra(puzzle, options)?,
    };
    verify(puzzle, &analysis)?;
    Ok(analysis)
}

fn limits_bind(puzzle: &Puzzle, periods: &[BigUint]) -> bool {
    puzzle
        .max_presses
        .as_ref()
        .is_some_and(|limits| limits.iter().zip(periods).any(|(&k, l)| BigUint::from(k) + 1u32 < *l))
}

fn by_algebra(puzzle: &Puzzle, options: &Options) -> Result<Analysis, InternalError> {
    let answer: Answer = solve(puzzle)?;
    let limited = limits_bind(puzzle, &answer.periods);
    let limits = puzzle.max_presses.as_deref();
    let mut analysis = Analysis {
        engine: options.engine,
        periods: answer.periods.clone(),
        fewest: None,
        optimal: None,
        count: Count { value: answer.count.clone(), exact: true },
        quiet_patterns: Some(answer.quiet_patterns()),
        all_plans: None,
        search_nodes: None,
        limited,
        method: Some(answer.method),
        seeds: answer.seeds,
    };
    if !answer.is_solvable() {
        return Ok(analysis);
    }
    let explore_for = |objective| {
        explore(&answer, |highest| search_problem(puzzle, highest), limits, objective, options.budget)
    };
    match explore_for(Objective::Total) {
        Some(found) => {
            analysis.fewest = found.best;
            if let Some(count) = found.count_within_limits {
                analysis.count = Count { value: count, exact: true };
            }
            analysis.search_nodes = Some(found.nodes);
        }
        None => {
            // Press counts beyond 64 bits: the algebra's plan, proven fewest only if unique.
            analysis.fewest = Some(Plan {
                presses: answer.presses.clone().expect("solvable"),
                objective: Objective::Total,
                proven: answer.count == BigUint::from(1u32),
                partial: None,
            });
        }
    }
    if options.objective != Objective::Total {
        analysis.optimal = explore_for(options.objective).and_then(|found| found.best);
    }
    if limited && (analysis.count.value.is_zero() || !analysis.count.exact || options.list_all) {
        count_by_search(puzzle, options, &mut analysis);
    }
    if options.list_all && analysis.all_plans.is_none() {
        count_by_search(puzzle, options, &mut analysis);
    }
    Ok(analysis)
}

/// Counts (and lists) plans within the limits with the search solver.
fn count_by_search(puzzle: &Puzzle, options: &Options, analysis: &mut Analysis) {
    let Some(highest) = highest_values(puzzle, &analysis.periods) else { return };
    let outcome =
        search(&search_problem(puzzle, &highest), Goal::All { keep: options.list_all }, options.budget, None);
    analysis.count = Count { value: BigUint::from(outcome.count), exact: outcome.complete };
    if options.list_all {
        analysis.all_plans = Some(outcome.plans.iter().map(|x| to_big(x)).collect());
    }
    *analysis.search_nodes.get_or_insert(0) += outcome.nodes;
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

fn by_search(puzzle: &Puzzle, options: &Options) -> Result<Analysis, InternalError> {
    if puzzle.phases.is_some() {
        return Err(InternalError::Unsupported(
            "the search solver does not play staged presses; use --method algebra".into(),
        ));
    }
    let periods = puzzle.periods();
    let limited = limits_bind(puzzle, &periods);
    let mut analysis = Analysis {
        engine: Engine::Search,
        periods: periods.clone(),
        fewest: None,
        optimal: None,
        count: Count { value: BigUint::zero(), exact: false },
        quiet_patterns: None,
        all_plans: None,
        search_nodes: Some(0),
        limited,
        method: None,
        seeds: None,
    };
    let Some(highest) = highest_values(puzzle, &periods) else {
        return Err(InternalError::Unsupported(
            "the search solver needs every button's period to fit in 64 bits; use --method algebra".into(),
        ));
    };
    let problem = search_problem(puzzle, &highest);
    count_by_search(puzzle, options, &mut analysis);
    let best = |objective| {
        let outcome = search(&problem, Goal::Best(objective), options.budget, None);
        let plan = outcome.plan.map(|x| Plan {
            presses: to_big(&x),
            objective,
            proven: outcome.complete,
            partial: None,
        });
        (plan, outcome.nodes)
    };
    let (fewest, nodes) = best(Objective::Total);
    analysis.fewest = fewest;
    *analysis.search_nodes.get_or_insert(0) += nodes;
    if options.objective != Objective::Total {
        let (optimal, nodes) = best(options.objective);
        analysis.optimal = optimal;
        *analysis.search_nodes.get_or_insert(0) += nodes;
    }
    // Quiet patterns: the plans that solve "change nothing", without limits.
    let top: Option<Vec<u64>> = periods.iter().map(|l| l.to_u64().map(|v| v - 1)).collect();
    if let Some(top) = top {
        let mut quiet = search_problem(puzzle, &top);
        quiet.rhs.iter_mut().for_each(|r| *r = 0);
        let outcome = search(&quiet, Goal::All { keep: false }, options.budget, None);
        if outcome.complete {
            analysis.quiet_patterns = Some(BigUint::from(outcome.count - 1));
        }
    }
    Ok(analysis)
}

/// Staged presses (DESIGN.md §7): a plan is full presses `z` and, optionally, one more press of
/// button `j` cut after `k` phases because the puzzle was solved: `A·z ≡ d − P_k·e_j`. Every
/// case shares the matrix, so one elimination per prime answers all of them; each solvable
/// case has `kernel_size` plans. The fewest is the best over the cases (a cut press counts).
fn by_stages(puzzle: &Puzzle, options: &Options) -> Result<Analysis, InternalError> {
    use crate::algebra::arith::sub_mod;
    use crate::solve::optimize::Partial;
    let d = difference(puzzle);
    let mut cases: Vec<Option<Partial>> = vec![None];
    let mut differences = vec![d.clone()];
    for j in 0..puzzle.button_count() {
        let mut dk = d.clone();
        for k in 1..puzzle.phase_count(j) {
            for (i, a) in puzzle.phase_effects(j, k - 1) {
                dk[i] = sub_mod(dk[i], a, puzzle.moduli[i]);
            }
            cases.push(Some(Partial { button: j, phases: k }));
            differences.push(dk.clone());
        }
    }
    let (base, solutions) = crate::solve::solve_differences(puzzle, &differences)?;
    let solvable = solutions.iter().filter(|s| s.is_some()).count();
    let mut analysis = Analysis {
        engine: options.engine,
        periods: base.periods.clone(),
        fewest: None,
        optimal: None,
        count: Count { value: &base.kernel_size * BigUint::from(solvable), exact: true },
        quiet_patterns: Some(base.quiet_patterns()),
        all_plans: None,
        search_nodes: Some(0),
        limited: false,
        method: Some(base.method),
        seeds: base.seeds,
    };
    let best_for = |objective: Objective| -> Option<Plan> {
        let mut best: Option<(crate::solve::search::Score, Plan)> = None;
        let mut proven = true;
        for ((case, solution), dk) in cases.iter().zip(&solutions).zip(&differences) {
            let Some(z) = solution else { continue };
            let mut coset = base.clone();
            coset.presses = Some(z.clone());
            coset.count = coset.kernel_size.clone();
            let problem = |highest: &[u64]| {
                let mut p = search_problem(puzzle, highest);
                p.rhs = dk.clone();
                p
            };
            let found = explore(&coset, problem, None, objective, options.budget);
            let (mut presses, case_proven) = match found.and_then(|f| f.best) {
                Some(plan) => (plan.presses, plan.proven),
                None => (z.clone(), coset.kernel_size == BigUint::from(1u32)),
            };
            // Other objectives than the total are scored on the full plan but searched on z.
            proven &= case_proven && (case.is_none() || objective == Objective::Total);
            if let Some(partial) = case {
                presses[partial.button] += 1u32;
            }
            let score =
                presses.iter().map(|x| x.to_u64()).collect::<Option<Vec<u64>>>().map(|x| objective.score(&x));
            let score = score.unwrap_or((u128::MAX, u128::MAX));
            if best.as_ref().is_none_or(|(s, _)| score < *s) {
                best = Some((score, Plan { presses, objective, proven: false, partial: *case }));
            }
        }
        best.map(|(_, mut plan)| {
            plan.proven = proven;
            plan
        })
    };
    analysis.fewest = best_for(Objective::Total);
    if options.objective != Objective::Total {
        analysis.optimal = best_for(options.objective);
    }
    Ok(analysis)
}

/// Every plan the analysis returns reaches the target and respects the limits.
fn verify(puzzle: &Puzzle, analysis: &Analysis) -> Result<(), InternalError> {
    let plans = analysis.fewest.iter().chain(&analysis.optimal).map(|p| &p.presses);
    let listed = analysis.all_plans.iter().flatten();
    for x in plans.chain(listed) {
        let within = match &puzzle.max_presses {
            Some(limits) => x.iter().zip(limits).all(|(v, &k)| *v <= BigUint::from(k)),
            None => true,
        };
        if !puzzle.solves(x) || !within {
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
