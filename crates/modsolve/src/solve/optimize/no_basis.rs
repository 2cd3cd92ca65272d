//! The stage for a board whose quiet basis was left out (too many quiet patterns to keep): the
//! beam alone, which needs no basis.

use num_bigint::BigUint;
use num_traits::ToPrimitive;

use super::branch_and_bound::windows_after_beam;
use super::budget::{after_fixed_work, beam_and_windows};
use super::{Exploration, NotSearched, Proof, plan, within_limits};
use crate::solve::Answer;
use crate::solve::beam;
use crate::solve::bound::{self, Bound};
use crate::solve::search::{Budget, Objective, Renumbered, SearchProblem};

/// A board whose quiet basis was left out (too many quiet patterns to keep): the beam search
/// over the buttons themselves ([`beam`]), which needs no basis, with the whole budget, from the
/// algebra's plan as the incumbent, on boards of any size (past 20,000 buttons too: a 300×300
/// mixed grid's plan falls from 21.5 million presses to 233,833). The plan it finds is not
/// proven (`no-basis`); without one the algebra's plan stands, as before, and an algebra's plan
/// already at the single cells' bound ([`bound::quick_bound`]) is not searched. Sets of
/// [`super::budget::WINDOW_FROM`] buttons or more give a share to the window search
/// ([`super::windows`]) after the beam, from the beam's plan or the algebra's. The
/// relaxations' lower bound is worked out on the other core meanwhile and returned with the
/// plan; when neither the beam nor the window search finds a better plan, the algebra's plan
/// (within the limits) is returned with that bound and the nodes spent. The default budget is
/// counted from the start of the answer: its [`super::budget::FIXED_NODES_PER_BUTTON`] a
/// button are taken off it first.
pub(super) fn beam_without_basis(
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
    // The default budget counts the work of the board's size done before the search.
    let budget = after_fixed_work(budget, answer.periods.len());
    if budget.nodes == 0 {
        return Err(no_basis);
    }
    let highest: Vec<u64> = match limits {
        Some(l) => periods.iter().zip(l).map(|(&p, &k)| (p - 1).min(k)).collect(),
        None => periods.iter().map(|&p| p - 1).collect(),
    };
    let start = within_limits(&x0, limits).then(|| objective.score(&x0));
    let original = search_problem(&highest);
    // A plan already at the single cells' bound needs no search (the caller proves it, with
    // the cells in the puzzle's order as here). The single cells' cuts are worked out once,
    // for this and for the relaxations' bound, both on the puzzle's own labels.
    let singles = bound::singles(&original, objective);
    if let (Some(score), Bound::AtLeast(b)) = (start, bound::quick_bound(&original, &singles))
        && score.0 <= b
    {
        return Err(no_basis);
    }
    // A wide board's labels by columns for the searches (plans go back to the puzzle's labels
    // at the end).
    let renumbered = Renumbered::new(&original);
    let problem: &SearchProblem = &renumbered.problem;
    let (beam_share, window_share) = beam_and_windows(budget.nodes, problem.effects.len());
    let x0 = renumbered.to_new(&x0);
    // The beam, then the window search from the beam's plan (or from the algebra's when the
    // beam found none) on what the beam left, on this core; the relaxations' bound
    // ([`bound::lower_bound`], seconds on a 100×100 grid) on the other meanwhile.
    let stop = crate::bounded::Stop::here();
    let search = || {
        // A time budget is shared as the nodes are: the beam its part of the time, the window
        // search what is left of it (each took the whole time: `--budget 6s` ran 12 s).
        let started = std::time::Instant::now();
        let part = beam_share as f64 / budget.nodes.max(1) as f64;
        let beam_budget = Budget { nodes: beam_share, time: budget.time.map(|t| t.mul_f64(part)) };
        let beamed = beam::beam(problem, objective, beam_budget, start);
        let found = beamed.plan.is_some();
        let from = beamed.plan.unwrap_or_else(|| x0.clone());
        let unused = if window_share > 0 { beam_share - beamed.nodes.min(beam_share) } else { 0 };
        let windows = Budget { nodes: window_share + unused, ..budget.since(started) };
        let improved = windows_after_beam(problem, objective, &from, found || start.is_some(), windows);
        let nodes = beamed.nodes + improved.as_ref().map_or(0, |w| w.nodes);
        let best = match improved {
            Some(w) if found || w.plan != from => Some(w.plan),
            _ if found => Some(from),
            _ => None,
        };
        (best, nodes)
    };
    let ((best, nodes), relaxed) =
        rayon::join(|| stop.carry(search), || stop.carry(|| bound::lower_bound_with(&original, &singles)));
    // Nothing better than the algebra's plan: it stands, with the bound worked out beside the
    // search (not worked out again by the caller) and the nodes spent (counted against what
    // follows, as when a plan is found).
    let best = match best {
        Some(x) => renumbered.to_old(x),
        None if start.is_some() => renumbered.to_old(x0),
        None => return Err(no_basis),
    };
    Ok(Exploration {
        best: Some(plan(&best, objective, Proof::NotSearched(no_basis))),
        count_within_limits: None,
        nodes,
        // No plan meets the relaxations (`NoPlan`) cannot be, with a plan in hand: no bound.
        lower_bound: match relaxed {
            Bound::AtLeast(b) => Some(b),
            Bound::NoPlan => None,
        },
        relaxed: matches!(relaxed, Bound::AtLeast(_)),
    })
}
