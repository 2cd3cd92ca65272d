//! The local search over the quiet basis: a descent to a local optimum ([`Moves::descend`]) and
//! an iterated local search of random kicks from it ([`Moves::iterated_descent`]).

use super::budget::{LOCAL_SEARCH_SHARE, SMALL_MIXED, SMALL_MIXED_SHARE};
use super::set::Set;
use super::within_limits;
use crate::algebra::arith::{add_mod, mul_mod};
use crate::solve::search::{Budget, Meter, Objective, Score};

/// Kicks in a row that find nothing better end [`Moves::iterated_descent`] early (the rest of its
/// share goes to branch and bound).
const STALE: usize = 2000;

/// A multiple of a quiet generator tried by the descent counts one node per this many entries
/// of the generator's support (at least one).
const SUPPORT_PER_NODE: u64 = 16;

/// Quiet generators changed at random in each kick of [`Moves::iterated_descent`].
const KICK: usize = 3;

/// Multiples of a generator tried on each side (`1..=SIDE` and `order - SIDE..order`) when its
/// order is larger than `2 · SIDE`; all of them otherwise.
const SIDE: u64 = 128;

/// The moves of the local search: adding multiples of one quiet generator to a plan, within
/// the press limits, judged by one objective.
pub(super) struct Moves<'a> {
    generators: &'a [(Vec<u64>, u64)],
    /// Each generator's nonzero entries, built once.
    supports: Vec<Vec<(usize, u64)>>,
    periods: &'a [u64],
    limits: Option<&'a [u64]>,
    objective: Objective,
}

impl<'a> Moves<'a> {
    pub(super) fn new(
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
    /// by adding random multiples of [`KICK`] random generators, [`Moves::descend`] from there, and keep
    /// the result when it is better, until the meter runs out (one node a kick, and a multiple
    /// tried) or [`STALE`] kicks in a row find nothing better. The kicks are drawn from a fixed seed, so a node budget gives the same plan on every
    /// run. Every plan it keeps solves the puzzle and keeps the limits; it proves nothing.
    pub(super) fn iterated_descent(&self, x: Vec<u64>, meter: &mut Meter) -> Vec<u64> {
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
    pub(super) fn descend(&self, x0: &[u64], meter: &mut Meter) -> Vec<u64> {
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
pub(super) fn supports(generators: &[(Vec<u64>, u64)]) -> Vec<Vec<(usize, u64)>> {
    generators
        .iter()
        .map(|(g, _)| g.iter().enumerate().filter(|&(_, &v)| v != 0).map(|(j, &v)| (j, v)).collect())
        .collect()
}

impl Set<'_> {
    /// A local optimum over the quiet basis from the particular plan (when it is within the
    /// limits): a good plan at once, and a tighter bound for the search. Then, unless the walk
    /// follows (it finds better plans sooner), a share of the budget for an iterated local
    /// search: depth-first search proves small cases from any start, but on large sets it
    /// rarely improves a plan at all. On small sets of mixed periods branch and bound with its
    /// modular bounds does, and the local search gets a smaller share.
    pub(super) fn descend(&self, meter: &mut Meter, walk_follows: bool) -> Vec<u64> {
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
}
