//! The stage for a board whose quiet basis was left out (too many quiet patterns to keep): the
//! beam alone, which needs no basis.

use num_bigint::BigUint;
use num_traits::ToPrimitive;

use super::{Exploration, NotSearched, Proof, SEARCH_BUTTON_LIMIT, plan, within_limits};
use crate::solve::Answer;
use crate::solve::beam;
use crate::solve::search::{Budget, Objective, SearchProblem};

/// A board whose quiet basis was left out (too many quiet patterns to keep): the beam search
/// over the buttons themselves ([`beam`]), which needs no basis, with the whole budget, from the
/// algebra's plan as the incumbent. The plan it finds is not proven (`no-basis`); without one
/// (or past [`SEARCH_BUTTON_LIMIT`] buttons) the algebra's plan stands, as before.
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
