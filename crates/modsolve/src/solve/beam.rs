//! Beam search for good plans: the search solver's walk ([`super::search`]) taken breadth first,
//! keeping at each depth only the `width` partial plans of least bound.
//!
//! Defining identity: a partial plan fixes the buttons of the search order up to a depth, each
//! cell's congruence checked (and its button's value forced modulo `m / gcd(a, m)`) as soon as its
//! last button is fixed, exactly as the depth-first walk does; its bound is the presses so far
//! plus the lookahead's least cost of what the open buttons must still add. Each depth keeps the
//! `width` children of least bound (ties by parent, then value, so the beam is the same on every
//! run), each parent giving at most [`CHILDREN`] of them, its smallest feasible values. A beam
//! that reaches the last depth ends on plans that solve the puzzle; the best is kept.
//!
//! On a grid in row order this is the chase with a bound per row: the first row's buttons are
//! free, each later one is fixed modulo the modulus of the cell above it, and the beam keeps the
//! partial plans whose rows so far, with the lookahead, promise least. Depth-first branch and
//! bound on large mixed grids stays in the subtree of its first choices; the beam spreads the
//! same work across the whole first rows, and its plan starts the branch and bound as a tighter
//! incumbent. Passes of widths [`FIRST_WIDTH`], four times that, and so on to [`MAX_WIDTH`] run
//! until the node budget is spent (one node per value tried); a pass cut by the budget finds no
//! plan. It proves nothing.

use num_integer::Integer;

use super::search::{
    Budget, Lookahead, Meter, Objective, Score, SearchProblem, button_order, terms_per_node,
};
use crate::algebra::arith::{add_mod, inv_mod, mul_mod, sub_mod};

/// The first pass's width.
const FIRST_WIDTH: usize = 16;

/// The widest pass.
const MAX_WIDTH: usize = 1 << 14;

/// Children kept per partial plan and depth (its smallest feasible values).
const CHILDREN: usize = 24;

/// What the beam found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Beamed {
    /// The best plan found that scores strictly below the incumbent, if any.
    pub plan: Option<Vec<u64>>,
    /// Nodes spent (values tried).
    pub nodes: u64,
}

/// Passes of growing width over `problem` for `objective` within `budget`, keeping only plans
/// strictly better than `incumbent` (a known plan's score).
pub(crate) fn beam(
    problem: &SearchProblem,
    objective: Objective,
    budget: Budget,
    incumbent: Option<Score>,
) -> Beamed {
    let (order, closing) = button_order(problem);
    let Some(ahead) = Lookahead::new(problem, &order, objective) else {
        return Beamed::default();
    };
    let mut touched = vec![false; problem.moduli.len()];
    problem.effects.iter().flatten().for_each(|&(i, _)| touched[i] = true);
    if (0..problem.moduli.len()).any(|i| !touched[i] && !problem.rhs[i].is_multiple_of(problem.moduli[i])) {
        return Beamed::default();
    }
    let walk = Beam { problem, objective, order, closing, ahead };
    let mut meter = Meter::new(budget);
    let mut best: Option<(Score, Vec<u64>)> = None;
    let mut width = FIRST_WIDTH;
    loop {
        let bar = best.as_ref().map(|(s, _)| *s).or(incumbent);
        if let Some(x) = walk.pass(width, bar, &mut meter) {
            best = Some((objective.score(&x), x));
        }
        if meter.exhausted || width >= MAX_WIDTH {
            break;
        }
        width *= 4;
    }
    Beamed { plan: best.map(|(_, x)| x), nodes: meter.nodes.min(budget.nodes) }
}

/// The fixed parts of every pass.
struct Beam<'a> {
    problem: &'a SearchProblem,
    objective: Objective,
    order: Vec<usize>,
    closing: Vec<Vec<usize>>,
    ahead: Lookahead,
}

/// One depth's partial plans: residuals (cells per plan, flat) and the score parts.
#[derive(Default)]
struct Layer {
    residual: Vec<u64>,
    sum: Vec<u128>,
    max: Vec<u64>,
    nonzero: Vec<u64>,
}

impl Beam<'_> {
    /// What button `j` adds to `cell`, reduced.
    fn amount(&self, j: usize, cell: usize) -> u64 {
        let m = self.problem.moduli[cell];
        self.problem.effects[j]
            .iter()
            .filter(|&&(i, _)| i == cell)
            .fold(0, |acc, &(_, a)| add_mod(acc, a % m, m))
    }

    /// `residual -= value · effect_j` (or `+=` to undo).
    fn press(&self, residual: &mut [u64], j: usize, value: u64, undo: bool) {
        if value == 0 {
            return;
        }
        for &(i, a) in &self.problem.effects[j] {
            let m = self.problem.moduli[i];
            let d = mul_mod(a % m, value % m, m);
            residual[i] = if undo { add_mod(residual[i], d, m) } else { sub_mod(residual[i], d, m) };
        }
    }

    /// The bound of a partial plan of parts `(sum, max, nonzero)` with `rest` still to add.
    fn key(&self, sum: u128, max: u64, nonzero: u64, rest: u64) -> Score {
        match self.objective {
            Objective::Total => (sum + rest as u128, 0),
            Objective::Max => (max.max(rest) as u128, sum),
            Objective::Buttons => ((nonzero + rest) as u128, sum),
        }
    }

    /// One pass of `width`: the best plan scoring below `bar`, `None` when none was found or
    /// the meter ran out.
    fn pass(&self, width: usize, bar: Option<Score>, meter: &mut Meter) -> Option<Vec<u64>> {
        let problem = self.problem;
        let cells = problem.moduli.len();
        let n = self.order.len();
        let mut layer = Layer {
            residual: problem.rhs.iter().zip(&problem.moduli).map(|(&r, &m)| r % m).collect(),
            sum: vec![0],
            max: vec![0],
            nonzero: vec![0],
        };
        // Per depth, each kept child's parent and value.
        let mut trail: Vec<Vec<(u32, u64)>> = Vec::with_capacity(n);
        let mut scratch = vec![0u64; cells];
        let below = |key: Score| bar.is_none_or(|b| key < b);
        // Copying a parent's residuals counts one node per `terms_per_node` cells, and a
        // child's lookahead its look-ups, as in the search.
        // Copies at the board's rate; look-ups at the small boards' rate on every board (the
        // beam's narrow passes keep their tables in cache, and a 20×20 grid's widest pass
        // fits the beam's share only so).
        let per_node = terms_per_node(0);
        let copy = (cells as u64) / terms_per_node(cells);
        let mut lookups = 0u64;
        for depth in 0..n {
            let j = self.order[depth];
            let hi = problem.highest[j];
            let cost = problem.step_nodes(j);
            let terms = self.ahead.terms(depth + 1) as u64;
            // (bound, parent, value)
            let mut children: Vec<(Score, u32, u64)> = Vec::new();
            for s in 0..layer.sum.len() {
                if copy > 0 && !meter.tick_by(copy) {
                    return None;
                }
                scratch.copy_from_slice(&layer.residual[s * cells..(s + 1) * cells]);
                let (sum, max, nonzero) = (layer.sum[s], layer.max[s], layer.nonzero[s]);
                let (first, step) = match self.closing[depth].first() {
                    Some(&i) => {
                        let m = problem.moduli[i];
                        let (a, r) = (self.amount(j, i), scratch[i]);
                        let g = a.gcd(&m);
                        if !r.is_multiple_of(g) {
                            if !meter.tick() {
                                return None;
                            }
                            continue;
                        }
                        let step = m / g;
                        (mul_mod((r / g) % step, inv_mod((a / g) % step, step).unwrap_or(0), step), step)
                    }
                    None => (0, 1),
                };
                let (mut value, mut taken) = (first, 0);
                while value <= hi && taken < CHILDREN {
                    if !meter.tick_by(cost) {
                        return None;
                    }
                    let (sum2, max2, nz2) =
                        (sum + value as u128, max.max(value), nonzero + u64::from(value != 0));
                    if !below(self.key(sum2, max2, nz2, 0)) {
                        break;
                    }
                    self.press(&mut scratch, j, value, false);
                    let closed = self.closing[depth].iter().all(|&i| scratch[i] == 0);
                    if closed {
                        lookups += terms;
                        if lookups >= per_node {
                            if !meter.tick_by(lookups / per_node) {
                                return None;
                            }
                            lookups %= per_node;
                        }
                    }
                    if closed && let Some(rest) = self.ahead.rest(depth + 1, &scratch) {
                        let key = self.key(sum2, max2, nz2, rest);
                        if below(key) {
                            children.push((key, s as u32, value));
                            taken += 1;
                        }
                    }
                    self.press(&mut scratch, j, value, true);
                    match value.checked_add(step) {
                        Some(v) => value = v,
                        None => break,
                    }
                }
            }
            if children.is_empty() {
                return None;
            }
            if children.len() > width {
                children.select_nth_unstable(width - 1);
                children.truncate(width);
            }
            children.sort_unstable();
            let mut next = Layer::default();
            next.residual.reserve(children.len() * cells);
            for &(_, s, value) in &children {
                let s = s as usize;
                let from = next.residual.len();
                next.residual.extend_from_slice(&layer.residual[s * cells..(s + 1) * cells]);
                self.press(&mut next.residual[from..], j, value, false);
                next.sum.push(layer.sum[s] + value as u128);
                next.max.push(layer.max[s].max(value));
                next.nonzero.push(layer.nonzero[s] + u64::from(value != 0));
            }
            trail.push(children.iter().map(|&(_, s, v)| (s, v)).collect());
            layer = next;
        }
        // Every partial plan at the last depth is a plan: the first (least bound, which is its
        // exact score once nothing is open) is the best.
        let mut x = vec![0u64; n];
        let mut s = 0usize;
        for depth in (0..n).rev() {
            let (parent, value) = trail[depth][s];
            x[self.order[depth]] = value;
            s = parent as usize;
        }
        below(self.objective.score(&x)).then_some(x)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::search::testing::{OBJECTIVES, best_scores, random_effects, solves};

    /// On random systems of up to 2^20 plans (mixed, prime-power and prime moduli, every
    /// objective, values capped as press limits do): every plan the beam returns solves the
    /// system, keeps the caps, scores below the incumbent it was given, never below the true
    /// best, and is the same on a second run; it often finds the best itself.
    #[test]
    fn beam_plans_solve_and_never_beat_the_best() {
        use rand::{RngExt, SeedableRng, rngs::StdRng};
        let mut rng = StdRng::seed_from_u64(29);
        let (mut found, mut optimal, mut large) = (0, 0, 0);
        for round in 0..240 {
            let choices: &[u64] = match round % 3 {
                0 => &[2, 3, 4, 6, 8, 9, 12],
                1 => &[4, 8, 9],
                _ => &[5, 7],
            };
            // Every fourth round a larger system: 8 buttons of up to 5 values each.
            let big = round % 4 == 3;
            let cells = rng.random_range(1..if big { 8 } else { 6 });
            let moduli: Vec<u64> = (0..cells).map(|_| choices[rng.random_range(0..choices.len())]).collect();
            let n = if big { 8 } else { rng.random_range(1..6) };
            let effects = random_effects(&mut rng, &moduli, n, 0.6);
            let highest: Vec<u64> =
                (0..n).map(|_| rng.random_range(if big { 2..5 } else { 0..10 })).collect();
            let rhs: Vec<u64> = moduli.iter().map(|&m| rng.random_range(0..m)).collect();
            let problem = SearchProblem { moduli, effects, rhs, highest };
            let space: u64 = problem.highest.iter().map(|&h| h + 1).product();
            assert!(space <= 1 << 20);
            large += usize::from(space >= 1 << 12);
            let truths = best_scores(&problem);
            for (objective, truth) in OBJECTIVES.into_iter().zip(truths) {
                for incumbent in [None, truth.map(|(a, b)| (a + 1, b))] {
                    let budget = Budget::of_nodes(1_000_000);
                    let beamed = beam(&problem, objective, budget, incumbent);
                    assert_eq!(beamed, beam(&problem, objective, budget, incumbent), "round {round}");
                    let Some(x) = &beamed.plan else { continue };
                    let what = format!("round {round} {objective:?} {problem:?} {x:?}");
                    assert!(solves(&problem, x), "{what}");
                    assert!(x.iter().zip(&problem.highest).all(|(v, h)| v <= h), "{what}");
                    let score = objective.score(x);
                    let truth = truth.expect("a plan exists");
                    assert!(score >= truth, "{what}");
                    assert!(incumbent.is_none_or(|b| score < b), "{what}");
                    found += 1;
                    optimal += usize::from(score == truth && incumbent.is_none());
                }
            }
        }
        assert!(large >= 40, "{large} systems of 2^12 plans or more");
        assert!(found > 300 && optimal > 200, "{found} plans found, {optimal} best");
    }
}
