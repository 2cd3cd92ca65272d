//! Branch and bound over the buttons on both cores, after the beam: a search down from the
//! incumbent, then one that raises a proven floor ([`deepen`]), each split in two halves
//! ([`search_split`]) that count their own nodes.

use super::budget::{BEAM_SHARE, beam_and_windows, beam_nodes};
use super::set::Set;
use super::windows::{Windowed, window_search};
use super::{Exploration, Proof, plan};
use crate::solve::beam;
use crate::solve::bound::{self, Bound};
use crate::solve::search::{
    Budget, Goal, Lookahead, Meter, Objective, Renumbered, Score, SearchOutcome, SearchProblem, search_ahead,
};

/// Branch and bound on both cores: first a search down from the incumbent `start` with an
/// eighth of the nodes (it ends as soon as it meets `relaxed`, the modular bound of
/// [`bound::lower_bound`]), then [`deepen`], which raises that bound, with the rest; each search
/// is [`search_split`] in two halves. Every half counts its own nodes on one thread, so a node
/// budget gives the same answer however the threads run. Returns the outcome (its plan only
/// when better than `start`) and the floor proven: the best score's first measure when the
/// outcome is complete.
pub(super) fn branch_and_bound(
    problem: &SearchProblem,
    objective: Objective,
    budget: Budget,
    start: Option<Score>,
    guide: Option<&[u64]>,
    relaxed: Bound,
) -> (SearchOutcome, u128) {
    let started = std::time::Instant::now();
    let floor = match relaxed {
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
/// first with the lookahead bound of [`crate::solve::search`]. Returns the outcome (its plan only when
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

impl Set<'_> {
    /// Branch and bound from `x0` with the rest of the budget, when any is left; otherwise the
    /// plan found stands, "the budget ran out".
    pub(super) fn branch_and_bound(
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
            // A wide board's labels by columns (plans go back to the puzzle's labels below).
            let original = search_problem(&highest);
            let renumbered = Renumbered::new(&original);
            let problem: &SearchProblem = &renumbered.problem;
            let x0 = renumbered.to_new(x0);
            // The beam's share first, then branch and bound from its plan with what is left.
            let left = budget.nodes - meter.nodes.min(budget.nodes);
            let share = Budget {
                nodes: if budget.is_default() { beam_nodes(problem).min(left) } else { left / BEAM_SHARE },
                time: budget.since(self.started).time.map(|t| t / BEAM_SHARE as u32),
            };
            let (beam_share, window_share) = beam_and_windows(share.nodes, problem.effects.len());
            // The beam and the window search on this core; the relaxations' bound (its linear
            // programme and cuts: seconds on a 30×30 grid) on the other meanwhile.
            let stop = crate::bounded::Stop::here();
            let ((found, x0, spent), relaxed) = rayon::join(
                || {
                    let beamed = beam::beam(problem, objective, Budget { nodes: beam_share, ..share }, start);
                    let (found, x0) = match &beamed.plan {
                        Some(x) => (true, x.clone()),
                        None => (false, x0.clone()),
                    };
                    // The window search from the best plan so far, on what the beam left of its
                    // share.
                    let unused = if window_share > 0 { beam_share - beamed.nodes.min(beam_share) } else { 0 };
                    let windows = Budget { nodes: window_share + unused, ..share };
                    let valid = start.is_some() || found;
                    let improved = windows_after_beam(problem, objective, &x0, valid, windows);
                    let spent = beamed.nodes + improved.as_ref().map_or(0, |w| w.nodes);
                    let found = found || improved.as_ref().is_some_and(|w| w.plan != x0);
                    (found, improved.map_or(x0, |w| w.plan), spent)
                },
                || stop.carry(|| bound::lower_bound(problem, objective)),
            );
            let start = if found { Some(objective.score(&x0)) } else { start };
            let left = Budget { nodes: left - spent.min(left), ..budget.since(self.started) };
            let guide = Some(x0.as_slice());
            let (mut outcome, floor) = branch_and_bound(problem, objective, left, start, guide, relaxed);
            if outcome.plan.is_none() && found {
                outcome.plan = Some(x0);
            }
            outcome.plan = outcome.plan.map(|x| renumbered.to_old(x));
            outcome.nodes += spent;
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
            // The floor starts at the relaxations' bound (and is raised from it).
            relaxed: floor.is_some(),
            lower_bound: floor,
        }
    }
}

/// The window search ([`window_search`]) from `x` with `budget`, for the fewest presses, when
/// `x` is a plan (`valid`, within the limits) and the budget has nodes; `None` otherwise.
pub(super) fn windows_after_beam(
    problem: &SearchProblem,
    objective: Objective,
    x: &[u64],
    valid: bool,
    budget: Budget,
) -> Option<Windowed> {
    (objective == Objective::Total && valid && budget.nodes > 0).then(|| window_search(problem, x, budget))
}
