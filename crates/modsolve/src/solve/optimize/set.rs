//! The solution set in 64-bit words and what is asked of it ([`Set`]), read by every stage of
//! [`super::explore`]; each stage is a method of it in its own file. Here: building it, what the
//! stages ask of it, and the stage for sets too large to search (the particular plan stands).

use num_bigint::BigUint;
use num_traits::ToPrimitive;

use super::{Exploration, NotSearched, Problem, Proof, plan, within_limits};
use crate::solve::Answer;
use crate::solve::search::{Budget, Objective};

/// The solution set in 64-bit words and what is asked of it: what every stage of [`super::explore`]
/// reads.
pub(super) struct Set<'a> {
    pub(super) answer: &'a Answer,
    /// The algebra's particular plan.
    pub(super) x0: Vec<u64>,
    pub(super) periods: Vec<u64>,
    /// The quiet basis with each generator's order (empty when no stage walks it).
    pub(super) generators: Vec<(Vec<u64>, u64)>,
    /// The press limits, when some limit binds.
    pub(super) limits: Option<&'a [u64]>,
    pub(super) objective: Objective,
    pub(super) budget: Budget,
    pub(super) started: std::time::Instant,
    pub(super) symmetries: &'a [Vec<usize>],
}

impl<'a> Set<'a> {
    pub(super) fn new(
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

    pub(super) fn problem<'b>(&'b self, x0: &'b [u64]) -> Problem<'b> {
        Problem {
            x0,
            generators: &self.generators,
            periods: &self.periods,
            limits: self.limits,
            objective: self.objective,
        }
    }

    /// Whether the whole set is within the node budget (the enumeration may walk it).
    pub(super) fn within_nodes(&self) -> bool {
        self.answer.kernel_size <= BigUint::from(self.budget.nodes)
    }

    /// Whether the buttons have different periods.
    pub(super) fn mixed(&self) -> bool {
        self.periods.iter().any(|&p| p != self.periods[0])
    }

    /// The plans within the limits, when some binds; otherwise all of them.
    pub(super) fn count(&self) -> Option<BigUint> {
        if self.limits.is_none() { Some(self.answer.count.clone()) } else { None }
    }

    /// On huge puzzles the search's set-up alone would not pay: the particular plan stands
    /// (when it is within the limits), unproven.
    pub(super) fn too_many_buttons(&self) -> Exploration {
        let not_searched = Proof::NotSearched(NotSearched::TooManyButtons);
        Exploration {
            best: within_limits(&self.x0, self.limits).then(|| plan(&self.x0, self.objective, not_searched)),
            count_within_limits: self.count(),
            nodes: 0,
            lower_bound: None,
            relaxed: false,
        }
    }
}
