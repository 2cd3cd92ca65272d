//! The bounded walk over the quiet basis ([`super::basis_walk`]) as a stage of
//! [`super::explore`]: whether it goes first, and the walk from the descent's plan with the rest
//! of the budget.

use num_bigint::BigUint;

use super::basis_walk;
use super::budget::{BASIS_WALK_NODES, walk_budget};
use super::enumeration::PARALLEL_PLANS;
use super::set::Set;
use super::{Exploration, Proof, plan};
use crate::solve::search::{Meter, Score};

impl Set<'_> {
    /// The bounded walk over the quiet basis, prepared when it goes first: on sets of few
    /// generators for their buttons (a board of one modulus has at most one a row or column),
    /// where its bound prunes. It does not count the plans within limits, which the enumeration
    /// does; sets of mixed periods go to the search instead, which the modular bounds guide.
    pub(super) fn prepare_walk(&self) -> Option<basis_walk::Prepared<'_>> {
        let eligible = self.budget.nodes > 0
            && !self.mixed()
            && self.answer.kernel_size >= BigUint::from(PARALLEL_PLANS)
            && (self.generators.len() as u64).pow(2) <= 4 * self.periods.len() as u64
            && (self.limits.is_none() || !self.within_nodes());
        // The plan to walk from comes later (the descent's).
        eligible.then(|| basis_walk::prepare(self.problem(&[]), self.symmetries)).flatten()
    }

    /// The bounded walk from `x0` with the rest of the budget.
    pub(super) fn walk(
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
            relaxed: false,
        }
    }
}
