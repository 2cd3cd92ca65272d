//! Every plan of a set within the node budget, in mixed-radix order: on one thread
//! ([`enumerate`]) or cut into pieces enumerated on every core ([`enumerate_on_every_core`]),
//! with the same answer.

use num_bigint::BigUint;
use rayon::prelude::*;

use super::descent::supports;
use super::set::Set;
use super::{Exploration, Problem, Proof, plan};
use crate::algebra::arith::{add_mod, mul_mod};
use crate::solve::search::{Budget, Meter, Objective, Score};

/// Every plan of the set in mixed-radix order; returns the best within the limits and how many
/// are within them.
pub(super) fn enumerate(set: Problem, meter: &mut Meter) -> (Option<Vec<u64>>, u64) {
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
pub(super) type Enumerated = (Option<Vec<u64>>, u64);

/// Sets of at least this many plans are enumerated on every core.
pub(super) const PARALLEL_PLANS: u64 = 1 << 16;

/// [`enumerate`] with the set cut into pieces by the multiples of its last generators (at least
/// 8 pieces a core), the pieces enumerated on every core and their results taken in order: the
/// same plan (the first best in mixed-radix order), count and nodes as one enumeration. `None`
/// when the budget ran out.
pub(super) fn enumerate_on_every_core(set: Problem, budget: Budget) -> Option<(Enumerated, u64)> {
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

impl Set<'_> {
    /// Every plan of a set within the node budget, on every core: the best, proven, and the
    /// count within the limits.
    pub(super) fn enumeration(&self) -> Option<Exploration> {
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
            relaxed: false,
        })
    }
}
