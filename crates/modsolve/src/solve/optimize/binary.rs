//! Mod-2 sets through [`crate::solve::minweight`]: the set as a coset of GF(2)^n, press limits of
//! 0 as linear constraints, and its least-weight plan.

use num_bigint::BigUint;

use super::budget::{MIN_WEIGHT_NODES, walk_budget};
use super::set::Set;
use super::{Exploration, Proof, plan};
use crate::solve::Answer;
use crate::solve::minweight::{self, Coset, pack};
use crate::solve::search::{Budget, Objective};

/// The mod-2 set as a coset of GF(2)^n with an independent basis, press limits of 0 as linear
/// constraints; `None` when no plan keeps them.
pub(super) fn binary_coset(
    x0: &[u64],
    generators: &[(Vec<u64>, u64)],
    limits: Option<&[u64]>,
) -> Option<Coset> {
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
pub(super) fn explore_binary(
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
            relaxed: false,
        });
    };
    if coset.dimension() > minweight::MAX_DIMENSION {
        return None;
    }
    // A node is a block of plans here, and one more per 128 cells its bound and transform touch.
    let found = minweight::min_weight(&coset, symmetries, walk_budget(budget, 0, MIN_WEIGHT_NODES));
    let presses: Vec<u64> = (0..n).map(|j| u64::from(minweight::bit(&found.best, j))).collect();
    let proof = if found.complete { Proof::Proven } else { Proof::BudgetRanOut };
    let count = if limits.is_some() { BigUint::from(1u8) << coset.dimension() } else { answer.count.clone() };
    Some(Exploration {
        best: Some(plan(&presses, objective, proof)),
        count_within_limits: Some(count),
        nodes: found.nodes,
        lower_bound: None,
        relaxed: false,
    })
}

impl Set<'_> {
    /// Mod 2: the minimum-weight walk, exact up to 2^62 plans (press limits of 0 are linear
    /// constraints; any other limit does not bind).
    pub(super) fn binary_walk(&self) -> Option<Exploration> {
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
}
