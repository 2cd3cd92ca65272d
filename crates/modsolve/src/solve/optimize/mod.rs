//! Best plans over the solution set the algebra found: `x0 + Σ t_g·g (mod L)`, one particular
//! plan plus the quiet patterns.
//!
//! Mod 2 sets of up to 2^62 plans go to [`super::minweight`] (a Gray-code walk with a
//! Walsh–Hadamard bound, on every core), press limits of 0 becoming linear constraints. Other
//! sets within the budget are enumerated whole in mixed radix, which proves the best plan and
//! gives the exact number of plans within press limits; from 2^16 plans on, the set is cut by
//! the multiples of its last generators into pieces enumerated on every core, and the pieces'
//! results are taken in order, so the plan chosen is the one a single enumeration chooses.
//! Sets of at least 2^16 plans of one period with few generators for their buttons (`k² <= 4n`:
//! a board of one modulus, whose quiet patterns are fixed by one row) go instead to
//! [`basis_walk`], a
//! depth-first walk over the quiet basis bounded at every level, from a descent's local optimum
//! (unless limits bind on a set the enumeration can count). Otherwise a descent and an iterated
//! local search find a good plan, a beam search ([`super::beam`], a tenth of the budget) a
//! better one on most large sets, then branch and bound runs in the search solver
//! ([`super::search`]) with the lookahead of [`super::bound::lookahead`] (its shares chosen
//! along the beam's plan): a search down from that plan, then one raising a proven floor from
//! [`super::bound`], each split over both cores; the answer is proven only if one of them
//! finishes, and the floor reached is the plan's lower bound. A board whose quiet basis was
//! left out (too many quiet patterns to keep) cannot be walked, but the beam needs no basis: it
//! gets the whole budget there, from the algebra's plan.

pub(crate) mod basis_walk;

use num_bigint::BigUint;
use num_traits::{ToPrimitive, Zero};
use rayon::prelude::*;

use super::Answer;
use super::beam;
use super::bound::{self, Bound};
use super::minweight::{self, Coset, pack};
use super::search::{
    Budget, Goal, Lookahead, Meter, Objective, Score, SearchOutcome, SearchProblem, search_ahead,
};
use crate::algebra::arith::{add_mod, mul_mod};

/// Branch and bound is not tried on puzzles with more buttons than this.
pub const SEARCH_BUTTON_LIMIT: usize = 20_000;

/// Whether a plan is proven best for its objective, and if not, why not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proof {
    /// No plan of the solution set scores better.
    Proven,
    /// The budget ran out before the search could rule out a better plan.
    BudgetRanOut,
    /// The solution set was not searched, for this reason.
    NotSearched(NotSearched),
}

/// Why a solution set was not searched for a better plan.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NotSearched {
    /// More buttons than the search takes on ([`SEARCH_BUTTON_LIMIT`]).
    TooManyButtons,
    /// Press counts or periods do not fit in 64 bits.
    BeyondWords,
    /// Staged presses: a cut press is scored on the full plan, the set is searched on full
    /// presses, so only the fewest presses in all are proven.
    StagedObjective,
    /// The quiet-pattern basis was left out (huge boards), so the set cannot be walked.
    NoBasis,
    /// A big board solved by light chasing in compact form: the quiet patterns are counted,
    /// not searched.
    BigBoard,
}

impl Proof {
    /// Whether the plan is proven best.
    pub fn is_proven(self) -> bool {
        self == Proof::Proven
    }

    /// A stable name for JSON: `proven`, `budget-ran-out`, `too-many-buttons`, `beyond-64-bits`,
    /// `staged-objective`, `no-basis`, `big-board`.
    pub fn code(self) -> &'static str {
        match self {
            Proof::Proven => "proven",
            Proof::BudgetRanOut => "budget-ran-out",
            Proof::NotSearched(NotSearched::TooManyButtons) => "too-many-buttons",
            Proof::NotSearched(NotSearched::BeyondWords) => "beyond-64-bits",
            Proof::NotSearched(NotSearched::StagedObjective) => "staged-objective",
            Proof::NotSearched(NotSearched::NoBasis) => "no-basis",
            Proof::NotSearched(NotSearched::BigBoard) => "big-board",
        }
    }

    /// For people: `proven`, or `not proven: ` and the reason.
    pub fn describe(self) -> String {
        let why = match self {
            Proof::Proven => return "proven".into(),
            Proof::BudgetRanOut => "the budget ran out".to_string(),
            Proof::NotSearched(NotSearched::TooManyButtons) => {
                format!("puzzles of more than {SEARCH_BUTTON_LIMIT} buttons are not searched")
            }
            Proof::NotSearched(NotSearched::BeyondWords) => {
                "press counts beyond 64 bits are not searched".into()
            }
            Proof::NotSearched(NotSearched::StagedObjective) => {
                "with staged presses only the fewest presses in all are proven".into()
            }
            Proof::NotSearched(NotSearched::NoBasis) => {
                "the quiet patterns of this board are too many to search".into()
            }
            Proof::NotSearched(NotSearched::BigBoard) => {
                "big boards are solved by light chasing without searching the quiet patterns".into()
            }
        };
        format!("not proven: {why}")
    }
}

/// A chosen plan and whether it is proven best.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// Presses started per button (a cut press counts).
    pub presses: Vec<BigUint>,
    /// What the plan minimises.
    pub objective: Objective,
    /// Whether it is proven best, and if not, why not.
    pub proof: Proof,
    /// Staged presses: the last press of `button` stopped after `phases` phases (the puzzle was
    /// solved), `None` when every press ran in full.
    pub partial: Option<Partial>,
    /// A proven lower bound on the objective's first measure over every plan (presses in all,
    /// the largest press count, or the buttons pressed): the plan's own when it is proven best,
    /// `None` when no bound was computed.
    pub lower_bound: Option<BigUint>,
}

/// A press cut short because the puzzle was solved part-way through it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Partial {
    /// The button whose last press stopped early.
    pub button: usize,
    /// The phases of that press that ran.
    pub phases: usize,
}

impl Plan {
    /// The total number of presses.
    pub fn total(&self) -> BigUint {
        self.presses.iter().sum()
    }

    /// Whether the plan is proven best.
    pub fn is_proven(&self) -> bool {
        self.proof.is_proven()
    }

    /// The plan's first measure for its objective: presses in all, the largest press count, or
    /// the buttons pressed.
    pub fn measure(&self) -> BigUint {
        match self.objective {
            Objective::Total => self.total(),
            Objective::Max => self.presses.iter().max().cloned().unwrap_or_default(),
            Objective::Buttons => BigUint::from(self.presses.iter().filter(|x| !x.is_zero()).count()),
        }
    }
}

/// The outcome of exploring the solution set for one objective.
#[derive(Clone, Debug)]
pub(crate) struct Exploration {
    /// The best plan within the limits found, if any.
    pub best: Option<Plan>,
    /// The number of plans within the limits, when it was counted (`None` when not).
    pub count_within_limits: Option<BigUint>,
    /// Plans enumerated or search nodes visited.
    pub nodes: u64,
    /// A proven lower bound on the objective's first measure, when one was found.
    pub lower_bound: Option<u128>,
}

/// A solution set `x0 + Σ t_i·g_i (mod periods)` and what is asked of it.
#[derive(Clone, Copy)]
pub(crate) struct Problem<'a> {
    pub x0: &'a [u64],
    /// Each generator and its order.
    pub generators: &'a [(Vec<u64>, u64)],
    pub periods: &'a [u64],
    pub limits: Option<&'a [u64]>,
    pub objective: Objective,
}

/// `x_j <= limit_j` for every button, or no limits.
fn within_limits(x: &[u64], limits: Option<&[u64]>) -> bool {
    limits.is_none_or(|l| x.iter().zip(l).all(|(a, b)| a <= b))
}

/// Explores the solution set of a solvable `answer` for `objective`, respecting press limits.
/// `symmetries` are permutations of the buttons that may map the set onto itself (each is
/// checked before it is used; the mod-2 walk skips the images of what it has walked).
/// Returns `Err` with the reason when the set cannot be walked (press counts beyond 64 bits, or
/// no basis); the algebra's plan then stands alone.
///
/// The stages, each given what is left of the budget: the mod-2 minimum-weight walk; the
/// enumeration of small sets; on sets too large to search, the particular plan; a local descent
/// from it; then either the bounded walk over the quiet basis or branch and bound.
pub(crate) fn explore(
    answer: &Answer,
    search_problem: impl FnOnce(&[u64]) -> SearchProblem,
    limits: Option<&[u64]>,
    objective: Objective,
    budget: Budget,
    symmetries: &[Vec<usize>],
) -> Result<Exploration, NotSearched> {
    let set = match Set::new(answer, limits, objective, budget, symmetries) {
        Err(NotSearched::NoBasis) => {
            return beam_without_basis(answer, search_problem, limits, objective, budget);
        }
        set => set?,
    };
    if let Some(found) = set.binary_walk() {
        return Ok(found);
    }
    let walk = set.prepare_walk();
    if walk.is_none()
        && let Some(found) = set.enumeration()
    {
        return Ok(found);
    }
    if set.periods.len() > SEARCH_BUTTON_LIMIT {
        return Ok(set.too_many_buttons());
    }
    let mut meter = Meter::new(budget.since(set.started));
    let x0 = set.descend(&mut meter, walk.is_some());
    let start = within_limits(&x0, set.limits).then(|| objective.score(&x0));
    if let Some(walk) = &walk
        && !meter.exhausted
    {
        return Ok(set.walk(walk, &x0, start, &meter));
    }
    Ok(set.branch_and_bound(search_problem, &x0, start, &meter))
}

/// A board whose quiet basis was left out (too many quiet patterns to keep): the beam search
/// over the buttons themselves ([`beam`]), which needs no basis, with the whole budget, from the
/// algebra's plan as the incumbent. The plan it finds is not proven (`no-basis`); without one
/// (or past [`SEARCH_BUTTON_LIMIT`] buttons) the algebra's plan stands, as before.
fn beam_without_basis(
    answer: &Answer,
    search_problem: impl FnOnce(&[u64]) -> SearchProblem,
    limits: Option<&[u64]>,
    objective: Objective,
    budget: Budget,
) -> Result<Exploration, NotSearched> {
    let no_basis = NotSearched::NoBasis;
    let words = |list: &[BigUint]| list.iter().map(|x| x.to_u64()).collect::<Option<Vec<u64>>>();
    let x0 = words(answer.presses.as_deref().ok_or(no_basis)?).ok_or(no_basis)?;
    let periods = words(&answer.periods).ok_or(no_basis)?;
    if budget.nodes == 0 || periods.len() > SEARCH_BUTTON_LIMIT {
        return Err(no_basis);
    }
    let highest: Vec<u64> = match limits {
        Some(l) => periods.iter().zip(l).map(|(&p, &k)| (p - 1).min(k)).collect(),
        None => periods.iter().map(|&p| p - 1).collect(),
    };
    let start = within_limits(&x0, limits).then(|| objective.score(&x0));
    let beamed = beam::beam(&search_problem(&highest), objective, budget, start);
    let best = beamed.plan.ok_or(no_basis)?;
    Ok(Exploration {
        best: Some(plan(&best, objective, Proof::NotSearched(no_basis))),
        count_within_limits: None,
        nodes: beamed.nodes,
        lower_bound: None,
    })
}

/// The solution set in 64-bit words and what is asked of it: what every stage of [`explore`]
/// reads.
struct Set<'a> {
    answer: &'a Answer,
    /// The algebra's particular plan.
    x0: Vec<u64>,
    periods: Vec<u64>,
    /// The quiet basis with each generator's order (empty when no stage walks it).
    generators: Vec<(Vec<u64>, u64)>,
    /// The press limits, when some limit binds.
    limits: Option<&'a [u64]>,
    objective: Objective,
    budget: Budget,
    started: std::time::Instant,
    symmetries: &'a [Vec<usize>],
}

impl<'a> Set<'a> {
    fn new(
        answer: &'a Answer,
        limits: Option<&'a [u64]>,
        objective: Objective,
        budget: Budget,
        symmetries: &'a [Vec<usize>],
    ) -> Result<Set<'a>, NotSearched> {
        let started = std::time::Instant::now();
        let words = |list: &[BigUint]| list.iter().map(|x| x.to_u64()).collect::<Option<Vec<u64>>>();
        let beyond = NotSearched::BeyondWords;
        let x0 = words(answer.presses.as_deref().ok_or(beyond)?).ok_or(beyond)?;
        let periods = words(&answer.periods).ok_or(beyond)?;
        let binary = periods.iter().all(|&l| l <= 2);
        let limits_bind =
            limits.is_some_and(|l| l.iter().zip(&periods).any(|(&k, &p)| k < p.saturating_sub(1)));
        let limits = if limits_bind { limits } else { None };
        // The mod-2 walk and the enumeration walk the basis; with no nodes nothing else does
        // (the particular plan stands, and an analysis with no nodes leaves the basis out).
        let needs_basis = binary || budget.nodes > 0;
        // A basis left out (huge boards) cannot be walked.
        if needs_basis && !answer.has_full_basis() {
            return Err(NotSearched::NoBasis);
        }
        let generators: Vec<(Vec<u64>, u64)> = if needs_basis {
            answer
                .quiet_basis
                .iter()
                .map(|g| Some((words(&g.presses)?, g.order.to_u64()?)))
                .collect::<Option<_>>()
                .ok_or(beyond)?
        } else {
            Vec::new()
        };
        Ok(Set { answer, x0, periods, generators, limits, objective, budget, started, symmetries })
    }

    fn problem<'b>(&'b self, x0: &'b [u64]) -> Problem<'b> {
        Problem {
            x0,
            generators: &self.generators,
            periods: &self.periods,
            limits: self.limits,
            objective: self.objective,
        }
    }

    /// Whether the whole set is within the node budget (the enumeration may walk it).
    fn within_nodes(&self) -> bool {
        self.answer.kernel_size <= BigUint::from(self.budget.nodes)
    }

    /// Whether the buttons have different periods.
    fn mixed(&self) -> bool {
        self.periods.iter().any(|&p| p != self.periods[0])
    }

    /// The plans within the limits, when some binds; otherwise all of them.
    fn count(&self) -> Option<BigUint> {
        if self.limits.is_none() { Some(self.answer.count.clone()) } else { None }
    }

    /// Mod 2: the minimum-weight walk, exact up to 2^62 plans (press limits of 0 are linear
    /// constraints; any other limit does not bind).
    fn binary_walk(&self) -> Option<Exploration> {
        if !self.periods.iter().all(|&l| l <= 2) {
            return None;
        }
        explore_binary(
            self.answer,
            &self.x0,
            &self.generators,
            self.limits,
            self.objective,
            self.budget,
            self.symmetries,
        )
    }

    /// The bounded walk over the quiet basis, prepared when it goes first: on sets of few
    /// generators for their buttons (a board of one modulus has at most one a row or column),
    /// where its bound prunes. It does not count the plans within limits, which the enumeration
    /// does; sets of mixed periods go to the search instead, which the modular bounds guide.
    fn prepare_walk(&self) -> Option<basis_walk::Prepared<'_>> {
        let eligible = self.budget.nodes > 0
            && !self.mixed()
            && self.answer.kernel_size >= BigUint::from(PARALLEL_PLANS)
            && (self.generators.len() as u64).pow(2) <= 4 * self.periods.len() as u64
            && (self.limits.is_none() || !self.within_nodes());
        // The plan to walk from comes later (the descent's).
        eligible.then(|| basis_walk::prepare(self.problem(&[]), self.symmetries)).flatten()
    }

    /// Every plan of a set within the node budget, on every core: the best, proven, and the
    /// count within the limits.
    fn enumeration(&self) -> Option<Exploration> {
        if !self.within_nodes() {
            return None;
        }
        let ((best, count), nodes) =
            enumerate_on_every_core(self.problem(&self.x0), self.budget.since(self.started))?;
        Some(Exploration {
            best: best.map(|x| plan(&x, self.objective, Proof::Proven)),
            count_within_limits: Some(if self.limits.is_some() {
                BigUint::from(count)
            } else {
                self.answer.count.clone()
            }),
            nodes,
            lower_bound: None,
        })
    }

    /// On huge puzzles the search's set-up alone would not pay: the particular plan stands
    /// (when it is within the limits), unproven.
    fn too_many_buttons(&self) -> Exploration {
        let not_searched = Proof::NotSearched(NotSearched::TooManyButtons);
        Exploration {
            best: within_limits(&self.x0, self.limits).then(|| plan(&self.x0, self.objective, not_searched)),
            count_within_limits: self.count(),
            nodes: 0,
            lower_bound: None,
        }
    }

    /// A local optimum over the quiet basis from the particular plan (when it is within the
    /// limits): a good plan at once, and a tighter bound for the search. Then, unless the walk
    /// follows (it finds better plans sooner), a share of the budget for an iterated local
    /// search: depth-first search proves small cases from any start, but on large sets it
    /// rarely improves a plan at all. On small sets of mixed periods branch and bound with its
    /// modular bounds does, and the local search gets a smaller share.
    fn descend(&self, meter: &mut Meter, walk_follows: bool) -> Vec<u64> {
        let budget = self.budget;
        if budget.nodes == 0 || !within_limits(&self.x0, self.limits) {
            return self.x0.clone();
        }
        let moves = Moves::new(&self.generators, &self.periods, self.limits, self.objective);
        let x = moves.descend(&self.x0, meter);
        if meter.exhausted || walk_follows {
            return x;
        }
        let divisor = if self.mixed() && self.periods.len() <= SMALL_MIXED {
            SMALL_MIXED_SHARE
        } else {
            LOCAL_SEARCH_SHARE
        };
        let left = budget.nodes - meter.nodes.min(budget.nodes);
        let share = Budget {
            nodes: (budget.nodes / divisor).min(left),
            time: budget.time.map(|t| t / divisor as u32),
        };
        let mut local = Meter::new(share.since(self.started));
        let x = moves.iterated_descent(x, &mut local);
        // The tick that found the share spent is not a node.
        meter.nodes += local.nodes.min(share.nodes);
        x
    }

    /// The bounded walk from `x0` with the rest of the budget.
    fn walk(
        &self,
        walk: &basis_walk::Prepared<'_>,
        x0: &[u64],
        start: Option<Score>,
        meter: &Meter,
    ) -> Exploration {
        let budget = walk_budget(self.budget, meter.nodes, BASIS_WALK_NODES).since(self.started);
        let walked = walk.run(x0, start, budget);
        let best = walked.best.or_else(|| start.map(|_| x0.to_vec()));
        let proof = if walked.complete { Proof::Proven } else { Proof::BudgetRanOut };
        Exploration {
            best: best.map(|x| plan(&x, self.objective, proof)),
            count_within_limits: self.count(),
            nodes: (meter.nodes + walked.nodes).min(self.budget.nodes),
            lower_bound: None,
        }
    }

    /// Branch and bound from `x0` with the rest of the budget, when any is left; otherwise the
    /// plan found stands, "the budget ran out".
    fn branch_and_bound(
        &self,
        search_problem: impl FnOnce(&[u64]) -> SearchProblem,
        x0: &[u64],
        start: Option<Score>,
        meter: &Meter,
    ) -> Exploration {
        let (budget, objective) = (self.budget, self.objective);
        let (outcome, floor) = if budget.nodes == 0 || meter.exhausted {
            (SearchOutcome::default(), None)
        } else {
            let highest: Vec<u64> = match self.limits {
                Some(l) => self.periods.iter().zip(l).map(|(&p, &k)| (p - 1).min(k)).collect(),
                None => self.periods.iter().map(|&p| p - 1).collect(),
            };
            let problem = search_problem(&highest);
            // The beam's share first, then branch and bound from its plan with what is left.
            let left = budget.nodes - meter.nodes.min(budget.nodes);
            let share = Budget {
                nodes: if budget.is_default() { beam_nodes(&problem).min(left) } else { left / BEAM_SHARE },
                time: budget.since(self.started).time.map(|t| t / BEAM_SHARE as u32),
            };
            let beamed = beam::beam(&problem, objective, share, start);
            let (start, x0) = match &beamed.plan {
                Some(x) => (Some(objective.score(x)), x.clone()),
                None => (start, x0.to_vec()),
            };
            let left = Budget { nodes: left - beamed.nodes.min(left), ..budget.since(self.started) };
            let guide = beamed.plan.as_deref().or(Some(x0.as_slice()));
            let (mut outcome, floor) = branch_and_bound(&problem, objective, left, start, guide);
            if outcome.plan.is_none() && beamed.plan.is_some() {
                outcome.plan = Some(x0);
            }
            outcome.nodes += beamed.nodes;
            (outcome, Some(floor))
        };
        let best = outcome.plan.or_else(|| start.map(|_| x0.to_vec()));
        let proof = if outcome.complete { Proof::Proven } else { Proof::BudgetRanOut };
        Exploration {
            best: best.map(|x| plan(&x, objective, proof)),
            count_within_limits: self.count(),
            // The local search's multiples and kicks, then the search's nodes (the tick that
            // finds a budget spent is not one).
            nodes: (meter.nodes + outcome.nodes).min(budget.nodes),
            lower_bound: floor,
        }
    }
}

/// Branch and bound on both cores: first a search down from the incumbent `start` with an
/// eighth of the nodes (it ends as soon as it meets the modular bound of
/// [`bound::lower_bound`]), then [`deepen`], which raises that bound, with the rest; each search
/// is [`search_split`] in two halves. Every half counts its own nodes on one thread, so a node
/// budget gives the same answer however the threads run. Returns the outcome (its plan only
/// when better than `start`) and the floor proven: the best score's first measure when the
/// outcome is complete.
fn branch_and_bound(
    problem: &SearchProblem,
    objective: Objective,
    budget: Budget,
    start: Option<Score>,
    guide: Option<&[u64]>,
) -> (SearchOutcome, u128) {
    let started = std::time::Instant::now();
    let floor = match bound::lower_bound(problem, objective) {
        Bound::AtLeast(b) => b,
        // The relaxation has no plan at all: the searches find none either.
        Bound::NoPlan => 0,
    };
    let ahead = bound::lookahead(problem, objective, guide);
    let ahead = ahead.as_ref();
    let share = Budget { nodes: budget.nodes / DOWN_SHARE, time: budget.time.map(|t| t / DOWN_SHARE as u32) };
    let mut down = search_split(problem, objective, share, start, (floor, 0), ahead);
    let best = down.plan.as_ref().map(|x| objective.score(x)).or(start);
    if down.complete {
        return (down, best.map_or(floor, |s| s.0));
    }
    let left = Budget { nodes: budget.nodes - down.nodes.min(budget.nodes), ..budget.since(started) };
    let (mut up, raised) = deepen(problem, objective, left, best, floor, ahead);
    up.nodes += down.nodes;
    if up.plan.is_none() {
        up.plan = down.plan.take();
    }
    let best = up.plan.as_ref().map(|x| objective.score(x)).or(start);
    let floor = match best {
        Some(score) if up.complete => score.0,
        _ => raised,
    };
    (up, floor)
}

/// The search down's share of the branch and bound's nodes (and time): one in this many.
const DOWN_SHARE: u64 = 8;

/// Branch and bound on both cores: the first button's values are dealt alternately to two
/// searches, each with half the nodes and its own incumbent (from `initial`), so each counts
/// its own nodes and the outcome does not depend on how the threads run. It is complete when
/// both are, or when either meets `floor`; the better plan is taken (the first half's on a tie).
fn search_split(
    problem: &SearchProblem,
    objective: Objective,
    budget: Budget,
    initial: Option<Score>,
    floor: Score,
    ahead: Option<&Lookahead>,
) -> SearchOutcome {
    let half = Budget { nodes: budget.nodes / 2, ..budget };
    let stop = crate::bounded::Stop::here();
    let part = |k: u64| {
        stop.carry(|| {
            search_ahead(problem, Goal::Best(objective), half, initial, Some(floor), ahead, Some((k, 2)))
        })
    };
    let (a, b) = rayon::join(|| part(0), || part(1));
    let met = |o: &SearchOutcome| o.plan.is_some() && o.score.is_some_and(|s| s <= floor);
    let complete = (a.complete && b.complete) || met(&a) || met(&b);
    let nodes = a.nodes + b.nodes;
    let mut outcome = match (&a.plan, &b.plan) {
        (None, Some(_)) => b,
        (Some(_), Some(_)) if b.score < a.score => b,
        _ => a,
    };
    outcome.complete = complete;
    outcome.nodes = nodes;
    outcome
}

/// Branch and bound that raises its own floor: from the bound `floor`, search for a plan whose
/// first measure is below `floor + δ` (δ = 1, 2, then sized by the nodes the last two searches
/// took); a search that finishes with none proves `floor + δ`, and the next looks higher, until a plan is found (the search that found it
/// finishes as branch and bound: its plan is best, since every smaller first measure was ruled
/// out) or the incumbent `start` is reached (then a last search from it). Each search is depth
/// first with the lookahead bound of [`super::search`]. Returns the outcome (its plan only when
/// better than `start`) and the floor proven.
fn deepen(
    problem: &SearchProblem,
    objective: Objective,
    budget: Budget,
    start: Option<Score>,
    mut floor: u128,
    ahead: Option<&Lookahead>,
) -> (SearchOutcome, u128) {
    let started = std::time::Instant::now();
    // The largest first measure any plan can have: past it, one search without a cap decides.
    let most = match objective {
        Objective::Total => problem.highest.iter().map(|&h| h as u128).sum(),
        Objective::Max => problem.highest.iter().copied().max().unwrap_or(0) as u128,
        Objective::Buttons => problem.highest.len() as u128,
    };
    let cap = start.map_or(most, |s| s.0);
    let (mut nodes, mut step) = (0u64, 1u128);
    // The cap of the last search that proved its floor, and its nodes.
    let mut last_cost: Option<(u128, u64)> = None;
    loop {
        let left = Budget { nodes: budget.nodes - nodes.min(budget.nodes), ..budget.since(started) };
        let last = floor.saturating_add(step) > cap;
        let initial = if last { start } else { Some((floor + step, 0)) };
        let mut outcome = search_split(problem, objective, left, initial, (floor, 0), ahead);
        let spent = outcome.nodes;
        nodes += outcome.nodes;
        outcome.nodes = nodes;
        if last || !outcome.complete || outcome.plan.is_some() {
            if !last && outcome.plan.is_none() {
                outcome.score = None;
            }
            return (outcome, floor);
        }
        floor += step;
        // The next step from what the searches cost: a search's nodes grow about exponentially
        // with its cap, and one cut by the budget proves nothing. With two costs known, the
        // step is the one whose cost, extrapolated on their line (log nodes against cap), is
        // half of what is left; before, it doubles.
        let left = budget.nodes.saturating_sub(nodes);
        step = match last_cost {
            Some((cap, cost)) if spent > cost && cost > 0 => {
                let slope = ((spent as f64).ln() - (cost as f64).ln()) / (floor - cap) as f64;
                let reach = ((left as f64 / 2.0).ln() - (spent as f64).ln()) / slope;
                if reach.is_finite() && reach >= 1.0 { (reach as u128).min(step * 4) } else { 1 }
            }
            _ => step * 2,
        };
        last_cost = Some((floor, spent.max(1)));
    }
}

/// A walk whose nodes are costlier than single plans: the default budget gives it `default`
/// nodes, its own share of about the same time as the default's nodes of branch and bound (the
/// default's count, made for single nodes, would stop it at an arbitrary point). A node count
/// or a time a caller chose stays; `spent` nodes are taken off a node count.
fn walk_budget(budget: Budget, spent: u64, default: u64) -> Budget {
    if budget.is_default() {
        Budget::of_nodes(default)
    } else {
        Budget { nodes: budget.nodes - spent.min(budget.nodes), ..budget }
    }
}

/// The default budget's nodes for the beam search ([`beam`]) before branch and bound: a tenth
/// of it (the beam's widest pass on an 8×8 mixed grid takes most of them), or half on sparse
/// sets of [`WIDE_BEAM`] buttons, where branch and bound after it improved no plan on the mixed
/// grids (10×10 to 30×30) and the beam's wider passes do.
const BEAM_NODES: u64 = crate::solve::search::DEFAULT_NODES / BEAM_SHARE;
const WIDE_BEAM_NODES: u64 = crate::solve::search::DEFAULT_NODES / 2;

/// The buttons of sets whose beam gets [`WIDE_BEAM_NODES`], when their buttons change at most
/// [`WIDE_BEAM_EFFECTS`] cells on average: from 10×10 on (smaller sets' bounds need branch and bound's
/// nodes) and up to 1000 (past it, a 40×40 torus's wide passes take twice the time a node
/// counts).
const WIDE_BEAM: std::ops::RangeInclusive<usize> = 100..=1000;
const WIDE_BEAM_EFFECTS: usize = 8;

/// The default budget's nodes for the beam on `problem`.
fn beam_nodes(problem: &SearchProblem) -> u64 {
    let n = problem.effects.len();
    let entries: usize = problem.effects.iter().map(Vec::len).sum();
    let wide = WIDE_BEAM.contains(&n) && entries <= WIDE_BEAM_EFFECTS * n;
    if wide { WIDE_BEAM_NODES } else { BEAM_NODES }
}

/// Any other budget gives the beam search this fraction of what is left (nodes and time).
const BEAM_SHARE: u64 = 10;

/// Sets of mixed periods of at most this many buttons give the iterated local search only
/// `1 / SMALL_MIXED_SHARE` of the budget: branch and bound finds better plans there.
const SMALL_MIXED: usize = 100;
const SMALL_MIXED_SHARE: u64 = 16;

/// The default budget's nodes for the bounded walk over the quiet basis: about 10 s on the
/// machine the default was measured on (6.5 million nodes in 10 s of 41×41 mod 3 on 2 cores).
const BASIS_WALK_NODES: u64 = 6_000_000;

/// The default budget's nodes (blocks of plans) for the mod-2 minimum-weight walk: about 7 s on
/// that machine (278 million blocks in 10 s of 65×65 Lights Out on 2 cores).
const MIN_WEIGHT_NODES: u64 = crate::solve::search::DEFAULT_NODES;

/// The iterated local search gets this fraction of the budget (time and nodes) before branch
/// and bound.
const LOCAL_SEARCH_SHARE: u64 = 4;

/// Kicks in a row that find nothing better end [`iterated_descent`] early (the rest of its
/// share goes to branch and bound).
const STALE: usize = 2000;

/// A multiple of a quiet generator tried by the descent counts one node per this many entries
/// of the generator's support (at least one).
const SUPPORT_PER_NODE: u64 = 16;

/// Quiet generators changed at random in each kick of [`iterated_descent`].
const KICK: usize = 3;

/// Multiples of a generator tried on each side (`1..=SIDE` and `order - SIDE..order`) when its
/// order is larger than `2 · SIDE`; all of them otherwise.
const SIDE: u64 = 128;

/// The moves of the local search: adding multiples of one quiet generator to a plan, within
/// the press limits, judged by one objective.
struct Moves<'a> {
    generators: &'a [(Vec<u64>, u64)],
    /// Each generator's nonzero entries, built once.
    supports: Vec<Vec<(usize, u64)>>,
    periods: &'a [u64],
    limits: Option<&'a [u64]>,
    objective: Objective,
}

impl<'a> Moves<'a> {
    fn new(
        generators: &'a [(Vec<u64>, u64)],
        periods: &'a [u64],
        limits: Option<&'a [u64]>,
        objective: Objective,
    ) -> Self {
        Moves { generators, supports: supports(generators), periods, limits, objective }
    }

    #[allow(clippy::type_complexity)]
    fn parts(
        &self,
    ) -> (&'a [(Vec<u64>, u64)], &[Vec<(usize, u64)>], &'a [u64], Option<&'a [u64]>, Objective) {
        (self.generators, &self.supports, self.periods, self.limits, self.objective)
    }

    /// Iterated local search from `x` (a local optimum within the limits): kick the best plan known
    /// by adding random multiples of [`KICK`] random generators, [`descend`] from there, and keep
    /// the result when it is better, until the meter runs out (one node a kick, and a multiple
    /// tried) or [`STALE`] kicks in a row find nothing better. The kicks are drawn from a fixed seed, so a node budget gives the same plan on every
    /// run. Every plan it keeps solves the puzzle and keeps the limits; it proves nothing.
    fn iterated_descent(&self, x: Vec<u64>, meter: &mut Meter) -> Vec<u64> {
        let (generators, supports, periods, limits, objective) = self.parts();
        use rand::{RngExt, SeedableRng, rngs::StdRng};
        let mut rng = StdRng::seed_from_u64(0x6d6f_6473_6f6c_7665);
        let mut best_score = objective.score(&x);
        let mut best = x;
        if generators.is_empty() {
            return best;
        }
        let mut stale = 0;
        while stale < STALE && meter.tick() {
            stale += 1;
            let mut y = best.clone();
            for _ in 0..KICK {
                let k = rng.random_range(0..generators.len());
                let t = rng.random_range(1..generators[k].1.max(2));
                for &(j, v) in &supports[k] {
                    y[j] = add_mod(y[j], mul_mod(v, t % periods[j], periods[j]), periods[j]);
                }
            }
            if !within_limits(&y, limits) {
                continue;
            }
            let z = self.descend(&y, meter);
            let score = objective.score(&z);
            if score < best_score {
                (best, best_score, stale) = (z, score, 0);
            }
        }
        best
    }

    /// A local optimum from `x0` (within the limits): passes over the quiet basis, each adding to
    /// the plan the multiple of one generator that most improves the objective while keeping the
    /// press limits, until a pass improves nothing or the meter runs out (one node a multiple
    /// tried). Every plan it passes through solves the puzzle, as `x0` does; it proves nothing.
    fn descend(&self, x0: &[u64], meter: &mut Meter) -> Vec<u64> {
        let (generators, supports, periods, limits, objective) = self.parts();
        let mut x = x0.to_vec();
        let mut total: u128 = x.iter().map(|&v| v as u128).sum();
        let mut pressed = x.iter().filter(|&&v| v != 0).count() as u128;
        let mut score = objective.score(&x);
        // The support's entries of `x + t·g` for the multiple `t` being tried.
        let mut moved: Vec<u64> = Vec::new();
        loop {
            let mut improved = false;
            for (support, &(_, order)) in supports.iter().zip(generators) {
                // A multiple tried updates the generator's support: one node per
                // `SUPPORT_PER_NODE` entries (the quiet patterns of a dense system are long).
                let cost = (support.len() as u64).div_ceil(SUPPORT_PER_NODE).max(1);
                let ranges = if order <= 2 * SIDE {
                    [(1, order), (order, order)]
                } else {
                    [(1, SIDE + 1), (order - SIDE, order)]
                };
                let mut best: Option<(Score, u64)> = None;
                for (from, to) in ranges {
                    if from >= to {
                        continue;
                    }
                    moved.clear();
                    moved.extend(support.iter().map(|&(j, v)| {
                        let step = mul_mod(v, from % periods[j], periods[j]);
                        add_mod(x[j], step, periods[j])
                    }));
                    for t in from..to {
                        if !meter.tick_by(cost) {
                            return x;
                        }
                        meter.touch(support.len());
                        if t > from {
                            for (m, &(j, v)) in moved.iter_mut().zip(support) {
                                *m = add_mod(*m, v, periods[j]);
                            }
                        }
                        let mut within = true;
                        let (mut new_total, mut new_pressed) = (total, pressed);
                        for (&m, &(j, _)) in moved.iter().zip(support) {
                            within &= limits.is_none_or(|l| m <= l[j]);
                            new_total = new_total + m as u128 - x[j] as u128;
                            new_pressed = new_pressed + u128::from(m != 0) - u128::from(x[j] != 0);
                        }
                        if !within {
                            continue;
                        }
                        let candidate = match objective {
                            Objective::Total => (new_total, 0),
                            Objective::Buttons => (new_pressed, new_total),
                            Objective::Max => {
                                let mut y = x.clone();
                                for (&m, &(j, _)) in moved.iter().zip(support) {
                                    y[j] = m;
                                }
                                objective.score(&y)
                            }
                        };
                        if candidate < best.map_or(score, |(b, _)| b) {
                            best = Some((candidate, t));
                        }
                    }
                }
                if let Some((better, t)) = best {
                    for &(j, v) in support {
                        let new = add_mod(x[j], mul_mod(v, t % periods[j], periods[j]), periods[j]);
                        total = total + new as u128 - x[j] as u128;
                        pressed = pressed + u128::from(new != 0) - u128::from(x[j] != 0);
                        x[j] = new;
                    }
                    score = better;
                    improved = true;
                }
            }
            if !improved {
                return x;
            }
        }
    }
}

/// Each generator's nonzero entries, `(button, value)`: a step along it costs its support.
fn supports(generators: &[(Vec<u64>, u64)]) -> Vec<Vec<(usize, u64)>> {
    generators
        .iter()
        .map(|(g, _)| g.iter().enumerate().filter(|&(_, &v)| v != 0).map(|(j, &v)| (j, v)).collect())
        .collect()
}

fn plan(x: &[u64], objective: Objective, proof: Proof) -> Plan {
    Plan {
        presses: x.iter().map(|&v| BigUint::from(v)).collect(),
        objective,
        proof,
        partial: None,
        lower_bound: None,
    }
}

/// Every plan of the set in mixed-radix order; returns the best within the limits and how many
/// are within them.
fn enumerate(set: Problem, meter: &mut Meter) -> (Option<Vec<u64>>, u64) {
    let Problem { x0, generators, periods, limits, objective } = set;
    let sparse = supports(generators);
    let mut x = x0.to_vec();
    let mut digits = vec![0u64; generators.len()];
    let mut best: Option<(Score, Vec<u64>)> = None;
    let mut count = 0u64;
    // Kept as the plan changes, so a step costs the generator's support, not the buttons:
    // the total, the buttons pressed, and the buttons over their limit.
    let over = |j: usize, v: u64| limits.is_some_and(|l| v > l[j]);
    let mut total: u128 = x.iter().map(|&v| v as u128).sum();
    let mut pressed = x.iter().filter(|&&v| v != 0).count() as u128;
    let mut violations = (0..x.len()).filter(|&j| over(j, x[j])).count();
    loop {
        if !meter.tick() {
            return (None, 0);
        }
        if violations == 0 {
            count += 1;
            let score = match objective {
                Objective::Total => (total, 0),
                Objective::Buttons => (pressed, total),
                Objective::Max => objective.score(&x),
            };
            if best.as_ref().is_none_or(|(b, _)| score < *b) {
                best = Some((score, x.clone()));
            }
        }
        // Next: add generator k, carrying past digits that wrap (order·g ≡ 0).
        let mut k = 0;
        loop {
            if k == generators.len() {
                return (best.map(|(_, x)| x), count);
            }
            meter.touch(sparse[k].len());
            for &(j, v) in &sparse[k] {
                // x[j] + v mod L_j, both below L_j < 2^64.
                let (old, period) = (x[j], periods[j]);
                let (sum, wrapped) = old.overflowing_add(v);
                let new = if wrapped || sum >= period { sum.wrapping_sub(period) } else { sum };
                x[j] = new;
                total = total - old as u128 + new as u128;
                pressed = pressed + u128::from(new != 0) - u128::from(old != 0);
                violations = violations + usize::from(over(j, new)) - usize::from(over(j, old));
            }
            digits[k] += 1;
            if digits[k] < generators[k].1 {
                break;
            }
            digits[k] = 0;
            k += 1;
        }
    }
}

/// What [`enumerate`] finds: the best plan within the limits, if any, and how many plans are
/// within them.
type Enumerated = (Option<Vec<u64>>, u64);

/// Sets of at least this many plans are enumerated on every core.
const PARALLEL_PLANS: u64 = 1 << 16;

/// [`enumerate`] with the set cut into pieces by the multiples of its last generators (at least
/// 8 pieces a core), the pieces enumerated on every core and their results taken in order: the
/// same plan (the first best in mixed-radix order), count and nodes as one enumeration. `None`
/// when the budget ran out.
fn enumerate_on_every_core(set: Problem, budget: Budget) -> Option<(Enumerated, u64)> {
    let Problem { x0, generators, periods, objective, .. } = set;
    let threads = rayon::current_num_threads() as u64;
    let plans = generators.iter().try_fold(1u64, |n, &(_, order)| n.checked_mul(order));
    if threads == 1 || plans.is_none_or(|n| n < PARALLEL_PLANS) {
        let mut meter = Meter::new(budget);
        let found = enumerate(set, &mut meter);
        return (!meter.exhausted).then_some((found, meter.nodes));
    }
    // The last generators (the slowest digits), whose multiples make the pieces.
    let (mut split, mut pieces) = (generators.len(), 1u64);
    while split > 0 && pieces < 8 * threads {
        split -= 1;
        pieces *= generators[split].1;
    }
    let (inner, outer) = generators.split_at(split);
    let started = std::time::Instant::now();
    let stop = crate::bounded::Stop::here();
    let results: Vec<Option<(Enumerated, u64)>> = (0..pieces)
        .into_par_iter()
        .map(|piece| {
            stop.carry(|| {
                // The piece's first plan: the digits of `piece`, first generator fastest.
                let mut x = x0.to_vec();
                let mut rest = piece;
                for (g, order) in outer {
                    let t = rest % order;
                    rest /= order;
                    for ((x, &v), &period) in x.iter_mut().zip(g).zip(periods) {
                        *x = add_mod(*x, mul_mod(v, t, period), period);
                    }
                }
                let mut meter = Meter::new(budget.since(started));
                let found = enumerate(Problem { x0: &x, generators: inner, ..set }, &mut meter);
                (!meter.exhausted).then_some((found, meter.nodes))
            })
        })
        .collect();
    let (mut best, mut count, mut nodes): (Option<(Score, Vec<u64>)>, u64, u64) = (None, 0, 0);
    for result in results {
        let ((found, within), visited) = result?;
        count += within;
        nodes += visited;
        if let Some(x) = found {
            let score = objective.score(&x);
            if best.as_ref().is_none_or(|(b, _)| score < *b) {
                best = Some((score, x));
            }
        }
    }
    Some(((best.map(|(_, x)| x), count), nodes))
}

/// What the walk of one part of the proof found (see [`explore_part`]).
#[derive(Clone, Debug)]
pub(crate) struct PartFound {
    /// The best plan within the limits found: the part's, or the starting plan (of the whole
    /// set) when nothing in the part is better; `None` when no plan within the limits is known.
    pub best: Option<Vec<u64>>,
    /// Where the part's walk found `best` (its multiple of each of the walk's generators);
    /// `None` when `best` is the starting plan.
    pub at: Option<Vec<u64>>,
    /// Whether the part was walked to its end: no plan of it is better than `best`.
    pub complete: bool,
    /// Blocks of plans (mod 2) or walk nodes (otherwise) visited.
    pub nodes: u64,
}

/// Why a set is not walked in parts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Unwalkable {
    /// Press counts beyond 64 bits, or no basis.
    NotSearched(NotSearched),
    /// A mod-2 set of more than 2^70 plans ([`minweight::MAX_PART_DIMENSION`]).
    TooLarge,
    /// Not mod 2, and the bounded walk over the quiet basis does not take the set (periods over
    /// 1024, or tables too large).
    NoWalk,
}

/// What every part of a set that is not mod 2 shares, computed once: the walk's shape (its
/// generators and their order), the buttons' periods, the plan the walk goes from (the
/// greedy descent's from the algebra's plan, with no budget: the same for every part) and
/// that plan again when it keeps the press limits (the starting plan every part reports when
/// nothing in it is better).
#[derive(Clone, Debug)]
pub(crate) struct BasisParts {
    pub shape: basis_walk::Shape,
    pub periods: Vec<u64>,
    pub base: Vec<u64>,
    pub start: Option<Vec<u64>>,
}

/// The shared start of the parts of a set that is not mod 2 (see [`BasisParts`]); refuses a
/// set the bounded walk does not take.
pub(crate) fn basis_parts(
    answer: &Answer,
    limits: Option<&[u64]>,
    objective: Objective,
    symmetries: &[Vec<usize>],
) -> Result<BasisParts, Unwalkable> {
    let budget = Budget { nodes: u64::MAX, time: None };
    let set = Set::new(answer, limits, objective, budget, symmetries).map_err(Unwalkable::NotSearched)?;
    let walk = basis_walk::prepare(set.problem(&[]), symmetries).ok_or(Unwalkable::NoWalk)?;
    let mut meter = Meter::new(budget);
    let base = set.descend(&mut meter, true);
    let start = within_limits(&base, set.limits).then(|| base.clone());
    Ok(BasisParts { shape: walk.shape(), periods: set.periods.clone(), base, start })
}

/// The bounded walk over the quiet basis over `part` of its units only, from the parts'
/// shared plan (`parts`, of [`basis_parts`] for the same set), within `budget`. The parts of
/// one set (same answer, limits, objective and symmetries) are disjoint and cover the set;
/// the best of all parts' plans is the set's best once every part is complete.
pub(crate) fn explore_part(
    answer: &Answer,
    limits: Option<&[u64]>,
    objective: Objective,
    budget: Budget,
    symmetries: &[Vec<usize>],
    part: minweight::Part,
    parts: &BasisParts,
) -> Result<PartFound, Unwalkable> {
    let set = Set::new(answer, limits, objective, budget, symmetries).map_err(Unwalkable::NotSearched)?;
    let walk = basis_walk::prepare(set.problem(&[]), symmetries).ok_or(Unwalkable::NoWalk)?;
    let start = parts.start.as_ref().map(|x| objective.score(x));
    let walked = walk.run_part(&parts.base, start, budget.since(set.started), part);
    let (best, at) = match walked.best {
        Some(x) => (Some(x), walked.digits),
        None => (parts.start.clone(), None),
    };
    Ok(PartFound { best, at, complete: walked.complete, nodes: walked.nodes })
}

/// The mod-2 set of [`explore_part`] as a coset (press limits of 0 as constraints), for a walk
/// prepared once and run over many parts (`minweight::Prepared`): `Ok(None)` when the set is
/// not mod 2 (its parts go through [`explore_part`]), `Ok(Some(None))` when no plan keeps the
/// limits.
pub(crate) fn binary_part_coset(
    answer: &Answer,
    limits: Option<&[u64]>,
    objective: Objective,
    symmetries: &[Vec<usize>],
) -> Result<Option<Option<Coset>>, Unwalkable> {
    let budget = Budget { nodes: u64::MAX, time: None };
    let set = Set::new(answer, limits, objective, budget, symmetries).map_err(Unwalkable::NotSearched)?;
    if !set.periods.iter().all(|&l| l <= 2) {
        return Ok(None);
    }
    let coset = binary_coset(&set.x0, &set.generators, set.limits);
    if coset.as_ref().is_some_and(|c| c.dimension() > minweight::MAX_PART_DIMENSION) {
        return Err(Unwalkable::TooLarge);
    }
    Ok(Some(coset))
}

/// Every plan `part` of the set's walk answers for (see [`explore_part`]), with no bound and no
/// symmetry skipping (mod 2: within the limits of 0; otherwise every plan of the set); `None`
/// when the part holds more than `most` plans.
pub(crate) fn part_plans(
    answer: &Answer,
    limits: Option<&[u64]>,
    objective: Objective,
    symmetries: &[Vec<usize>],
    part: minweight::Part,
    most: u64,
) -> Result<Option<Vec<Vec<u64>>>, Unwalkable> {
    let budget = Budget { nodes: u64::MAX, time: None };
    let set = Set::new(answer, limits, objective, budget, symmetries).map_err(Unwalkable::NotSearched)?;
    if set.periods.iter().all(|&l| l <= 2) {
        let Some(coset) = binary_coset(&set.x0, &set.generators, set.limits) else {
            return Ok(Some(Vec::new()));
        };
        if coset.dimension() > minweight::MAX_PART_DIMENSION {
            return Err(Unwalkable::TooLarge);
        }
        let n = set.x0.len();
        let unpack = |v: Vec<u64>| (0..n).map(|j| u64::from(minweight::bit(&v, j))).collect();
        return Ok(minweight::part_plans(&coset, symmetries, part, most)
            .map(|plans| plans.into_iter().map(unpack).collect()));
    }
    let walk = basis_walk::prepare(set.problem(&[]), symmetries).ok_or(Unwalkable::NoWalk)?;
    Ok(walk.part_plans(&set.x0, part, most))
}

/// The mod-2 set as a coset of GF(2)^n with an independent basis, press limits of 0 as linear
/// constraints; `None` when no plan keeps them.
fn binary_coset(x0: &[u64], generators: &[(Vec<u64>, u64)], limits: Option<&[u64]>) -> Option<Coset> {
    let n = x0.len();
    let coset = Coset {
        bits: n,
        x0: pack(x0.iter().map(|&v| v & 1 == 1)),
        basis: generators.iter().map(|(g, _)| pack(g.iter().map(|&v| v & 1 == 1))).collect(),
    }
    .independent();
    let zeros: Vec<usize> = limits.map_or_else(Vec::new, |l| (0..n).filter(|&j| l[j] == 0).collect());
    coset.restricted(&zeros)
}

/// The mod-2 set through [`minweight`]: every objective's best plan is a least-weight one
/// (presses are 0 or 1, so the largest press is 1 unless the zero plan solves, and the buttons
/// pressed are the presses). `None` when the set is too large to walk (more than 2^62 plans).
fn explore_binary(
    answer: &Answer,
    x0: &[u64],
    generators: &[(Vec<u64>, u64)],
    limits: Option<&[u64]>,
    objective: Objective,
    budget: Budget,
    symmetries: &[Vec<usize>],
) -> Option<Exploration> {
    let n = x0.len();
    let Some(coset) = binary_coset(x0, generators, limits) else {
        return Some(Exploration {
            best: None,
            count_within_limits: Some(BigUint::ZERO),
            nodes: 0,
            lower_bound: None,
        });
    };
    if coset.dimension() > minweight::MAX_DIMENSION {
        return None;
    }
    // A node is a block of plans here.
    let found = minweight::min_weight(&coset, symmetries, walk_budget(budget, 0, MIN_WEIGHT_NODES));
    let presses: Vec<u64> = (0..n).map(|j| u64::from(minweight::bit(&found.best, j))).collect();
    let proof = if found.complete { Proof::Proven } else { Proof::BudgetRanOut };
    let count = if limits.is_some() { BigUint::from(1u8) << coset.dimension() } else { answer.count.clone() };
    Some(Exploration {
        best: Some(plan(&presses, objective, proof)),
        count_within_limits: Some(count),
        nodes: found.nodes,
        lower_bound: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Puzzle, Topology};
    use rand::{RngExt, SeedableRng, rngs::StdRng};

    fn add_multiple(x: &[u64], g: &[u64], t: u64, periods: &[u64]) -> Vec<u64> {
        x.iter().zip(g).zip(periods).map(|((&a, &v), &l)| add_mod(a, mul_mod(v, t % l, l), l)).collect()
    }

    /// A random set `x0 + Σ t·g` of 2^16 to 2^20 plans (generators need not come from a
    /// puzzle: the walks only visit `x0 + Σ t·g`), over `choices` of periods; returns the
    /// periods, `x0`, the generators and the number of plans.
    #[allow(clippy::type_complexity)]
    fn random_set(
        rng: &mut StdRng,
        buttons: usize,
        choices: &[u64],
    ) -> (Vec<u64>, Vec<u64>, Vec<(Vec<u64>, u64)>, u64) {
        let periods: Vec<u64> = (0..buttons).map(|_| choices[rng.random_range(0..choices.len())]).collect();
        let x0: Vec<u64> = periods.iter().map(|&p| rng.random_range(0..p)).collect();
        let mut generators: Vec<(Vec<u64>, u64)> = Vec::new();
        let mut plans = 1u64;
        while plans < 1 << 16 {
            let g: Vec<u64> = periods.iter().map(|&p| rng.random_range(0..p)).collect();
            let order = (1..=12u64).find(|&t| g.iter().zip(&periods).all(|(&v, &p)| t * v % p == 0)).unwrap();
            if order > 1 && plans * order <= 1 << 20 {
                plans *= order;
                generators.push((g, order));
            }
        }
        (periods, x0, generators, plans)
    }

    /// A hash of a plan, for sets of every plan of a set.
    fn fingerprint(x: &[u64]) -> u64 {
        use std::hash::{BuildHasher, BuildHasherDefault, DefaultHasher};
        BuildHasherDefault::<DefaultHasher>::default().hash_one(x)
    }

    /// The bounded walk of `problem` on one thread, checked: it finishes with the `expected`
    /// score, its plan is within the limits and among the set's plans (`set`, by
    /// [`fingerprint`]), and four threads find the same plan.
    fn checked_walk(
        problem: Problem,
        incumbent: Option<Score>,
        symmetries: &[Vec<usize>],
        expected: Option<Score>,
        set: &std::collections::HashSet<u64>,
        what: &str,
    ) -> basis_walk::Walked {
        let unbounded = Budget { nodes: u64::MAX, time: None };
        let on = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            pool.install(|| basis_walk::walk(problem, incumbent, unbounded, symmetries)).expect("eligible")
        };
        let walked = on(1);
        assert!(walked.complete, "{what}");
        assert_eq!(walked.best.as_ref().map(|x| problem.objective.score(x)), expected, "{what}");
        if let Some(x) = &walked.best {
            assert!(within_limits(x, problem.limits), "{what}");
            assert!(set.contains(&fingerprint(x)), "{what}: not in the set");
        }
        assert_eq!(on(4).best, walked.best, "{what}");
        walked
    }

    /// Calls `visit` with every plan of the set, in mixed-radix order over the generators.
    fn every_plan(
        x0: &[u64],
        generators: &[(Vec<u64>, u64)],
        periods: &[u64],
        mut visit: impl FnMut(&[u64]),
    ) {
        let mut digits = vec![0u64; generators.len()];
        let mut x = x0.to_vec();
        'plans: loop {
            visit(&x);
            for (k, (g, order)) in generators.iter().enumerate() {
                x = add_multiple(&x, g, 1, periods);
                digits[k] += 1;
                if digits[k] < *order {
                    continue 'plans;
                }
                digits[k] = 0;
            }
            break;
        }
    }

    /// Random sets of 2^16 to 2^20 plans over mixed periods: the enumeration on every core
    /// gives the same plan, count within the limits and nodes as one enumeration, for every
    /// objective, with and without limits; with no time left both give up.
    #[test]
    fn enumeration_on_every_core_equals_one_enumeration() {
        let mut rng = StdRng::seed_from_u64(31);
        for round in 0..12 {
            let buttons = rng.random_range(3..9) + if round % 3 == 0 { 12 } else { 0 };
            // Every third round mod 2 alone, where many plans tie for best: the first of them
            // in mixed-radix order must be the one chosen.
            let choices: &[u64] = if round % 3 == 0 { &[2] } else { &[2, 3, 4, 6, 12] };
            let (periods, x0, generators, plans) = random_set(&mut rng, buttons, choices);
            let limits: Option<Vec<u64>> =
                (round % 2 == 1).then(|| periods.iter().map(|&p| rng.random_range(0..p)).collect());
            let set = |limits, objective| Problem {
                x0: &x0,
                generators: &generators,
                periods: &periods,
                limits,
                objective,
            };
            let unbounded = Budget { nodes: u64::MAX, time: None };
            for objective in [Objective::Total, Objective::Max, Objective::Buttons] {
                let mut meter = Meter::new(unbounded);
                let one = enumerate(set(limits.as_deref(), objective), &mut meter);
                let every = enumerate_on_every_core(set(limits.as_deref(), objective), unbounded);
                assert_eq!(every, Some((one, meter.nodes)), "round {round}, {objective:?}");
                assert_eq!(meter.nodes, plans, "round {round}");
            }
            let spent = Budget { nodes: u64::MAX, time: Some(std::time::Duration::ZERO) };
            assert_eq!(enumerate_on_every_core(set(None, Objective::Total), spent), None);
        }
    }

    /// On random mixed puzzles, for every objective with and without press limits: the descent
    /// ends on a plan that solves the puzzle, keeps the limits, scores no worse than the start,
    /// and no multiple of any one generator improves it; the iterated search from it does no
    /// worse, and gives the same plan for the same node budget.
    #[test]
    fn descent_ends_on_a_local_optimum_no_worse_than_the_start() {
        let mut rng = StdRng::seed_from_u64(17);
        let (mut improved, mut kicked_better) = (0, 0);
        for round in 0..300 {
            let cells = rng.random_range(2..7);
            let moduli: Vec<u64> = (0..cells).map(|_| rng.random_range(2..=12)).collect();
            let buttons: Vec<Vec<(usize, i64)>> = (0..rng.random_range(2..9))
                .map(|_| {
                    let mut button = Vec::new();
                    for i in 0..cells {
                        if rng.random_bool(0.5) {
                            button.push((i, rng.random_range(1..12)));
                        }
                    }
                    button
                })
                .collect();
            let start: Vec<u64> = moduli.iter().map(|&m| rng.random_range(0..m)).collect();
            let puzzle = Puzzle::builder(Topology::Cells(cells))
                .moduli(moduli)
                .buttons(buttons)
                .start(start)
                .build()
                .expect("valid");
            let answer = crate::solve::solve(&puzzle).expect("solved");
            let Some(presses) = &answer.presses else { continue };
            let x0: Vec<u64> = presses.iter().map(|v| v.to_u64().expect("small")).collect();
            let periods: Vec<u64> = answer.periods.iter().map(|v| v.to_u64().expect("small")).collect();
            let generators: Vec<(Vec<u64>, u64)> = answer
                .quiet_basis
                .iter()
                .map(|g| {
                    (
                        g.presses.iter().map(|v| v.to_u64().expect("small")).collect(),
                        g.order.to_u64().expect("small"),
                    )
                })
                .collect();
            let limits: Option<Vec<u64>> =
                rng.random_bool(0.3).then(|| x0.iter().map(|&v| v + rng.random_range(0..3)).collect());
            for objective in [Objective::Total, Objective::Max, Objective::Buttons] {
                let mut meter = Meter::new(Budget { nodes: u64::MAX, time: None });
                let moves = Moves::new(&generators, &periods, limits.as_deref(), objective);
                let x = moves.descend(&x0, &mut meter);
                // The iterated search from there: no worse, solving, within the limits, and the
                // same plan for the same node budget.
                let kicked: Vec<Vec<u64>> = (0..2)
                    .map(|_| {
                        let mut meter = Meter::new(Budget { nodes: 20_000, time: None });
                        moves.iterated_descent(x.clone(), &mut meter)
                    })
                    .collect();
                assert_eq!(kicked[0], kicked[1], "round {round}");
                let as_big: Vec<BigUint> = kicked[0].iter().map(|&v| BigUint::from(v)).collect();
                assert!(
                    puzzle.solves(&as_big) && within_limits(&kicked[0], limits.as_deref()),
                    "round {round}"
                );
                assert!(objective.score(&kicked[0]) <= objective.score(&x), "round {round}");
                kicked_better += usize::from(objective.score(&kicked[0]) < objective.score(&x));
                let as_big: Vec<BigUint> = x.iter().map(|&v| BigUint::from(v)).collect();
                assert!(puzzle.solves(&as_big), "round {round}");
                assert!(within_limits(&x, limits.as_deref()), "round {round}");
                let score = objective.score(&x);
                assert!(score <= objective.score(&x0), "round {round}");
                improved += usize::from(score < objective.score(&x0));
                for (g, order) in &generators {
                    for t in 1..*order {
                        let y = add_multiple(&x, g, t, &periods);
                        if within_limits(&y, limits.as_deref()) {
                            assert!(
                                objective.score(&y) >= score,
                                "round {round}: {objective:?} improves by {t} × {g:?}"
                            );
                        }
                    }
                }
            }
        }
        assert!(improved > 100, "the descent improved only {improved} plans");
        assert!(kicked_better > 10, "the iterated search improved only {kicked_better} local optima");
    }

    /// The bounded walk over the quiet basis against the enumeration, on random sets of 2^16 to
    /// 2^20 plans: mod 2, mod 3, 5 and 7, and mixed periods, every objective, with and without
    /// press limits, from no incumbent and from the best score itself. The walk finishes, its
    /// plan belongs to the set, keeps the limits and scores what the enumeration's best scores;
    /// it is the same plan on one thread and on four; with no time left it does not finish.
    #[test]
    fn basis_walk_equals_enumeration() {
        let mut rng = StdRng::seed_from_u64(47);
        let (mut limited, mut infeasible) = (0, 0);
        for round in 0..40 {
            let choices: &[u64] = match round % 5 {
                0 => &[2],
                1 => &[3],
                2 => &[5],
                3 => &[7],
                _ => &[2, 3, 4, 6, 12],
            };
            let buttons = rng.random_range(4..40);
            let (periods, x0, generators, plans) = random_set(&mut rng, buttons, choices);
            // Limits that bind (some at 0), every other round.
            let limits: Option<Vec<u64>> = (round % 2 == 1).then(|| {
                periods.iter().map(|&p| rng.random_range(0..p).max(rng.random_range(0..p))).collect()
            });
            // Every plan of the set, as a hash of its presses.
            let mut set = std::collections::HashSet::new();
            every_plan(&x0, &generators, &periods, |x| {
                set.insert(fingerprint(x));
            });
            let problem = |limits, objective| Problem {
                x0: &x0,
                generators: &generators,
                periods: &periods,
                limits,
                objective,
            };
            let unbounded = Budget { nodes: u64::MAX, time: None };
            for objective in [Objective::Total, Objective::Max, Objective::Buttons] {
                let mut meter = Meter::new(unbounded);
                let (best, _) = enumerate(problem(limits.as_deref(), objective), &mut meter);
                let expected = best.map(|x| objective.score(&x));
                limited += usize::from(limits.is_some());
                infeasible += usize::from(expected.is_none());
                for incumbent in [None, expected] {
                    let what =
                        format!("round {round}, {plans} plans, {objective:?}, incumbent {incumbent:?}");
                    checked_walk(
                        problem(limits.as_deref(), objective),
                        incumbent,
                        &[],
                        expected,
                        &set,
                        &what,
                    );
                }
            }
            let spent = Budget { nodes: u64::MAX, time: Some(std::time::Duration::ZERO) };
            let cut = basis_walk::walk(problem(None, Objective::Total), None, spent, &[]).unwrap();
            assert!(!cut.complete, "round {round}");
        }
        assert!(
            limited > 0 && infeasible > 0 && infeasible < 60,
            "{limited} limited, {infeasible} infeasible"
        );
    }

    /// Sets that a square's symmetries map onto themselves (spans of random vectors' orbits
    /// through a symmetric plan), mod 2, 3, 5 and 7, of up to 2^20 plans: the walk that skips
    /// the cosets a symmetry maps to smaller ones equals the enumeration for every objective,
    /// with symmetric limits, with limits or a plan that break the symmetry (the symmetries are
    /// then not used) and with a permutation among them that is no symmetry; its plan is in the
    /// set and the same on 1 and 4 threads.
    #[test]
    fn basis_walk_with_symmetries_equals_enumeration() {
        let mut rng = StdRng::seed_from_u64(59);
        let (mut split, mut skipping, mut partly) = (0, 0, 0);
        for round in 0..32 {
            let p = [3u64, 5, 7, 2][round % 4];
            let side = rng.random_range(3..=5usize);
            let n = side * side;
            // The identity, the two mirrors, the half turn, the two diagonals and the quarter
            // turns, in that order.
            let square = format!("Puzzle(graph: Grid(rows: {side}, cols: {side}), modulus: 2)");
            let symmetries = crate::model::symmetries(&crate::parse_puzzle(&square).unwrap());
            assert_eq!(symmetries.len(), 8);
            let most = (20.0 / (p as f64).log2()).floor() as usize;
            // The span of orbits, each kept when it fits, its independent vectors the generators.
            let mut rows: Vec<(usize, Vec<u64>)> = Vec::new();
            let mut generators: Vec<(Vec<u64>, u64)> = Vec::new();
            for _ in 0..12 {
                // A random vector, or its sum over a subgroup (a reflection, the rotations, all
                // eight): orbits of 8, 4, 2 or 1 dimensions.
                let u: Vec<u64> =
                    (0..n).map(|_| if rng.random_bool(0.5) { rng.random_range(0..p) } else { 0 }).collect();
                let subgroup: &[usize] =
                    [&[0][..], &[0, 1], &[0, 3, 6, 7], &[0, 1, 2, 3, 4, 5, 6, 7]][rng.random_range(0..4)];
                let mut v = vec![0u64; n];
                for &s in subgroup {
                    for (j, &to) in symmetries[s].iter().enumerate() {
                        v[to] = (v[to] + u[j]) % p;
                    }
                }
                let (mut trial_rows, mut trial) = (rows.clone(), generators.clone());
                for perm in &symmetries {
                    let mut image = vec![0u64; n];
                    for (j, &to) in perm.iter().enumerate() {
                        image[to] = v[j];
                    }
                    let mut r = image.clone();
                    for (pivot, row) in &trial_rows {
                        let f = r[*pivot];
                        for (a, &b) in r.iter_mut().zip(row) {
                            *a = (*a + (p - f) * b) % p;
                        }
                    }
                    if let Some(pivot) = r.iter().position(|&x| x != 0) {
                        let inv = crate::algebra::arith::inv_mod(r[pivot], p).unwrap();
                        r.iter_mut().for_each(|x| *x = *x * inv % p);
                        trial_rows.push((pivot, r));
                        trial.push((image, p));
                    }
                }
                if trial.len() <= most {
                    (rows, generators) = (trial_rows, trial);
                }
            }
            let plans = p.pow(generators.len() as u32);
            // A plan constant on the orbits of cells (a symmetric one), plus a combination of the
            // generators; every fourth round a random one.
            let orbit = |j: usize| symmetries.iter().map(|perm| perm[j]).min().unwrap();
            let values: Vec<u64> = (0..n).map(|_| rng.random_range(0..p)).collect();
            let symmetric_start = round % 8 != 3;
            let mut x0: Vec<u64> =
                (0..n).map(|j| if symmetric_start { values[orbit(j)] } else { values[j] }).collect();
            for (g, _) in &generators {
                x0 = add_multiple(&x0, g, rng.random_range(0..p), &vec![p; n]);
            }
            let periods = vec![p; n];
            // Limits: none, symmetric ones, ones that keep only one reflection (the others are
            // dropped), or ones that break every symmetry.
            let caps: Vec<u64> = (0..n).map(|_| rng.random_range(p / 2..p)).collect();
            let limits: Option<Vec<u64>> = match round % 4 {
                0 => None,
                1 => Some((0..n).map(|j| caps[orbit(j)]).collect()),
                2 => Some((0..n).map(|j| caps[j.min(symmetries[1][j])]).collect()),
                _ => Some(caps),
            };
            // A permutation that is no symmetry among the candidates.
            let mut candidates = symmetries.clone();
            let mut swap: Vec<usize> = (0..n).collect();
            swap.swap(0, n - 1);
            swap.swap(1, n / 2);
            candidates.push(swap);
            let mut set = std::collections::HashSet::new();
            every_plan(&x0, &generators, &periods, |x| {
                set.insert(fingerprint(x));
            });
            let problem = |objective| Problem {
                x0: &x0,
                generators: &generators,
                periods: &periods,
                limits: limits.as_deref(),
                objective,
            };
            if basis_walk::prepare(problem(Objective::Total), &candidates).is_some_and(|w| w.symmetric()) {
                split += 1;
            }
            let unbounded = Budget { nodes: u64::MAX, time: None };
            for objective in [Objective::Total, Objective::Max, Objective::Buttons] {
                let mut meter = Meter::new(unbounded);
                let (best, _) = enumerate(problem(objective), &mut meter);
                let expected = best.map(|x| objective.score(&x));
                let what = format!("round {round}, {side}×{side} mod {p}, {plans} plans, {objective:?}");
                let walked = checked_walk(problem(objective), None, &candidates, expected, &set, &what);
                if walked.skipped > 0 {
                    skipping += 1;
                    partly += usize::from(round % 4 == 2);
                }
            }
        }
        // Most rounds keep their symmetries (not those of a random start or broken limits) and
        // skip cosets, some with one reflection alone.
        assert!(split >= 12, "{split} of 32 rounds split");
        assert!(
            skipping >= 24 && partly >= 3,
            "{skipping} walks skipped cosets, {partly} with one reflection"
        );
    }
}
