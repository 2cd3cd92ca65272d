//! General propagation (light chasing beyond grids): order the equations so that each
//! introduces one new unknown with a unit weight, and make the unknowns that cannot be
//! determined that way symbolic seeds.
//!
//! Defining identity: with one modulus `m`, an equation `Σ_j a_ij·x_j ≡ d_i` whose unknowns are
//! all known but `x_k`, with `a_ik` a unit, determines `x_k = a_ik⁻¹·(d_i − Σ_{j≠k} a_ij·x_j)`.
//! Every unknown becomes an affine form in the seeds `y`; the equations used for nothing are the
//! residual system `R·y ≡ c` over `Z/m`, whose solutions are in bijection with the puzzle's
//! plans in `(Z/m)^n`. It applies when every button's period is `m` (so that bijection is also
//! one of plans in `Π Z/L_j`), and pays when the seeds are few: cost `O(n·S)` for the forms and
//! `O(R·S²)` for the residual system instead of `O(n³)`.

use std::collections::{BTreeSet, VecDeque};

use num_bigint::BigUint;
use num_traits::{One, Zero};

use super::{Answer, Generator, Method};
use crate::algebra::arith::{add_mod, inv_mod, mul_mod, sub_mod};
use crate::model::Puzzle;

/// The order found: seeds, and for each determined unknown the equation that fixes it.
#[derive(Clone, Debug)]
pub(crate) struct Order {
    /// Steps in order: `Seed(j)` or `Determine { unknown, equation }`.
    pub steps: Vec<Step>,
    /// Equations not used to determine an unknown: the residual system.
    pub residual: Vec<usize>,
    pub seeds: usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    Seed(usize),
    Determine { unknown: usize, equation: usize },
}

/// The single modulus, when every cell has the same one and every period equals it.
fn modulus(puzzle: &Puzzle, effects: &[Vec<(usize, u64)>]) -> Option<u64> {
    let m = puzzle.moduli[0];
    if m > u32::MAX as u64 || puzzle.moduli.iter().any(|&x| x != m) {
        return None;
    }
    // Period m for every button: some effect is a unit... or at least generates Z/m.
    let full = effects.iter().all(|e| {
        let g = e.iter().fold(m, |g, &(_, a)| num_integer::gcd(g, a));
        g == 1
    });
    full.then_some(m)
}

/// At most this many multiply-adds are spent on the quiet-pattern basis.
const BASIS_WORK_LIMIT: u128 = 1 << 29;

/// The forms take `unknowns × (seeds + 1)` residues: at most this many.
pub(crate) const FORM_ENTRY_LIMIT: usize = 1 << 27;

/// Orders the equations; symbolic only (no forms yet). `None` when more than `max_seeds` seeds
/// would be needed.
pub(crate) fn order(
    puzzle: &Puzzle,
    effects: &[Vec<(usize, u64)>],
    m: u64,
    max_seeds: usize,
) -> Option<Order> {
    let mut rows: Vec<Vec<(usize, u64)>> = vec![Vec::new(); puzzle.cell_count()];
    for (j, e) in effects.iter().enumerate() {
        if j % 4096 == 0 {
            crate::bounded::checkpoint();
        }
        for &(i, a) in e {
            rows[i].push((j, a));
        }
    }
    crate::bounded::checkpoint();
    let by_unknown: Vec<Vec<usize>> = effects.iter().map(|e| e.iter().map(|&(i, _)| i).collect()).collect();
    order_with(&rows, &by_unknown, |_, _, a| num_integer::gcd(a, m) == 1, max_seeds)
}

/// [`order`] for any equations: `rows[i]` lists `(unknown, weight)` of equation `i` (each
/// unknown at most once), `by_unknown[j]` the equations that hold unknown `j`, and `unit` says
/// which `(equation, unknown, weight)` may determine the unknown.
pub(crate) fn order_with(
    rows: &[Vec<(usize, u64)>],
    by_unknown: &[Vec<usize>],
    unit: impl Fn(usize, usize, u64) -> bool,
    max_seeds: usize,
) -> Option<Order> {
    let (n, cells) = (by_unknown.len(), rows.len());
    let mut open: Vec<usize> = rows.iter().map(Vec::len).collect();
    let mut known = vec![false; n];
    let mut used = vec![false; cells];
    let mut steps = Vec::with_capacity(n);
    let mut queue: VecDeque<usize> = (0..cells).filter(|&i| open[i] == 1).collect();
    // The unused equations with an open unknown, by (open unknowns, index): where seeds come
    // from when nothing can be determined.
    let mut waiting: BTreeSet<(usize, usize)> =
        (0..cells).filter(|&i| open[i] >= 1).map(|i| (open[i], i)).collect();
    let mut seeds = 0;
    let mut known_count = 0;
    let mut lowest_unknown = 0;
    let mark = |j: usize,
                known: &mut Vec<bool>,
                open: &mut Vec<usize>,
                queue: &mut VecDeque<usize>,
                waiting: &mut BTreeSet<(usize, usize)>,
                used: &[bool]| {
        known[j] = true;
        for &i in &by_unknown[j] {
            if !used[i] {
                waiting.remove(&(open[i], i));
                if open[i] > 1 {
                    waiting.insert((open[i] - 1, i));
                }
            }
            open[i] -= 1;
            if open[i] == 1 {
                queue.push_back(i);
            }
        }
    };
    let mut rounds = 0u32;
    while known_count < n {
        rounds = rounds.wrapping_add(1);
        if rounds.is_multiple_of(4096) {
            crate::bounded::checkpoint();
        }
        if let Some(i) = queue.pop_front() {
            if used[i] || open[i] != 1 {
                continue;
            }
            let Some(&(k, a)) = rows[i].iter().find(|&&(j, _)| !known[j]) else { continue };
            if !unit(i, k, a) {
                continue;
            }
            used[i] = true;
            waiting.remove(&(1, i));
            steps.push(Step::Determine { unknown: k, equation: i });
            mark(k, &mut known, &mut open, &mut queue, &mut waiting, &used);
            known_count += 1;
            continue;
        }
        // Nothing determined: seed the lowest open unknown of the most nearly closed equation.
        let pick = match waiting.first() {
            Some(&(_, i)) => {
                rows[i].iter().map(|&(j, _)| j).filter(|&j| !known[j]).min().expect("an open unknown")
            }
            None => {
                while known[lowest_unknown] {
                    lowest_unknown += 1;
                }
                lowest_unknown
            }
        };
        steps.push(Step::Seed(pick));
        seeds += 1;
        if seeds > max_seeds {
            return None;
        }
        mark(pick, &mut known, &mut open, &mut queue, &mut waiting, &used);
        known_count += 1;
    }
    let residual = (0..cells).filter(|&i| !used[i]).collect();
    Some(Order { steps, residual, seeds })
}

/// The form of seed number `index`: 1 at its own place, 0 elsewhere and in the constant.
pub(crate) fn seed_form(width: usize, index: usize) -> Vec<u64> {
    let mut f = vec![0u64; width];
    f[index] = 1;
    f
}

/// Whether [`solve`] gets past its checks made before any work: one modulus, at most 2^25
/// buttons and cells (the effect lists take about 100 bytes a button), and, unforced, at least
/// 400 unknowns. It may still decline later, when the puzzle needs too many seeds.
pub(crate) fn may_run(puzzle: &Puzzle, force: bool) -> bool {
    let n = puzzle.button_count();
    n <= 1 << 25 && puzzle.cell_count() <= 1 << 25 && puzzle.moduli.uniform().is_some() && (force || n >= 400)
}

/// Solves by general propagation; `None` when it does not apply or would not pay.
pub(crate) fn solve(puzzle: &Puzzle, force: bool) -> Option<Answer> {
    if !may_run(puzzle, force) {
        return None;
    }
    let n = puzzle.button_count();
    let effects: Vec<Vec<(usize, u64)>> = (0..n)
        .map(|j| {
            if j % 4096 == 0 {
                crate::bounded::checkpoint();
            }
            puzzle.effects(j)
        })
        .collect();
    let m = modulus(puzzle, &effects)?;
    // Unforced, it must pay: at least 400 unknowns and at most one seed in eight.
    let max_seeds =
        if force { FORM_ENTRY_LIMIT / n.max(1) } else { (n / 8).min(FORM_ENTRY_LIMIT / n.max(1)) };
    let plan = order(puzzle, &effects, m, max_seeds)?;
    let s = plan.seeds;
    // Its work: every press entry combines a form of the seeds, about 10 residues a search node.
    let entries: usize = effects.iter().map(Vec::len).sum();
    crate::bounded::work((entries as u64).saturating_mul(s as u64 + 1) / 10);
    let width = s + 1;
    let mut rows: Vec<Vec<(usize, u64)>> = vec![Vec::new(); puzzle.cell_count()];
    for (j, e) in effects.iter().enumerate() {
        for &(i, a) in e {
            rows[i].push((j, a));
        }
    }
    let d: Vec<u64> =
        (0..puzzle.cell_count()).map(|i| sub_mod(puzzle.target[i], puzzle.start[i], m)).collect();
    let forms = propagate(&plan, &rows, &d, n, m);
    let (r, matrix, rhs) = residual_system(&plan, &rows, &forms, &d, m);
    let (y, kernel, exponents) = super::modular::solve_dense(m, r, s, matrix, rhs);
    // m < 2^32, so a product of residues fits in a u64, and `chunk` of them can be summed
    // before one reduction (thousands for small moduli): no 128-bit division per term.
    let product_bound = (m - 1) * (m - 1);
    let chunk = u64::MAX.checked_div(product_bound).map_or(usize::MAX, |c| c.max(1) as usize);
    let evaluate = |y: &[u64], with_constant: bool| -> Vec<BigUint> {
        forms
            .iter()
            .enumerate()
            .map(|(j, f)| {
                if j % 256 == 0 {
                    crate::bounded::checkpoint();
                }
                let mut v = if with_constant { f[s] } else { 0 };
                for (cs, ys) in f[..s].chunks(chunk).zip(y.chunks(chunk)) {
                    let sum = cs.iter().zip(ys).fold(0u64, |acc, (&c, &yi)| acc + c * yi);
                    v = add_mod(v, sum % m, m);
                }
                BigUint::from(v)
            })
            .collect()
    };
    let kernel_size =
        exponents.iter().fold(BigUint::one(), |acc, &(p, e)| acc * num_traits::Pow::pow(BigUint::from(p), e));
    let presses = y.map(|y| evaluate(&y, true));
    let count = if presses.is_some() { kernel_size.clone() } else { BigUint::zero() };
    // Each basis plan costs unknowns × seeds multiply-adds and unknowns big integers: past the
    // limit (a 200 × 200 King board mod 3 has 400 of them) the basis is left empty, as light
    // chasing does, and the count still says how many quiet patterns there are.
    let basis_work = kernel.len() as u128 * n as u128 * width as u128;
    let quiet_basis = if basis_work <= BASIS_WORK_LIMIT {
        kernel
            .into_iter()
            .map(|(g, order)| Generator { presses: evaluate(&g, false), order: BigUint::from(order) })
            .collect()
    } else {
        Vec::new()
    };
    Some(Answer {
        periods: vec![BigUint::from(m); n],
        presses,
        count,
        kernel_size,
        quiet_basis,
        method: Method::Propagation,
        seeds: Some(s),
        chased: false,
        kernel_factors: None,
    })
}

/// Each of the `n` unknowns as a form in the seeds of `plan`, seeds in turn, each determined
/// unknown from its equation (`rows`: each cell's `(button, amount)`, right sides `d`, mod `m`).
fn propagate(plan: &Order, rows: &[Vec<(usize, u64)>], d: &[u64], n: usize, m: u64) -> Vec<Vec<u64>> {
    let s = plan.seeds;
    let width = s + 1;
    // forms[j]: coefficients of the seeds, then the constant.
    let mut forms: Vec<Vec<u64>> = vec![Vec::new(); n];
    let mut next_seed = 0;
    for (index, step) in plan.steps.iter().enumerate() {
        if index % 256 == 0 {
            crate::bounded::checkpoint();
        }
        match *step {
            Step::Seed(j) => {
                forms[j] = seed_form(width, next_seed);
                next_seed += 1;
            }
            Step::Determine { unknown, equation } => {
                let mut f = vec![0u64; width];
                f[s] = d[equation];
                let mut own = 0;
                for &(j, a) in &rows[equation] {
                    if j == unknown {
                        own = a;
                        continue;
                    }
                    for (x, &y) in f.iter_mut().zip(&forms[j]) {
                        *x = sub_mod(*x, mul_mod(a, y, m), m);
                    }
                }
                let inv = inv_mod(own, m).expect("unit by construction");
                f.iter_mut().for_each(|x| *x = mul_mod(*x, inv, m));
                forms[unknown] = f;
            }
        }
    }
    forms
}

/// The residual system of `plan` in the seeds: `Σ a_ij·form_j − d_i ≡ 0` for each residual
/// equation `i`, i.e. `lin·y ≡ d_i − constant`; as `(rows, matrix, right side)`.
fn residual_system(
    plan: &Order,
    rows: &[Vec<(usize, u64)>],
    forms: &[Vec<u64>],
    d: &[u64],
    m: u64,
) -> (usize, Vec<u64>, Vec<u64>) {
    let s = plan.seeds;
    let width = s + 1;
    let r = plan.residual.len();
    let mut matrix = vec![0u64; r * s];
    let mut rhs = vec![0u64; r];
    for (row, &i) in plan.residual.iter().enumerate() {
        if row % 256 == 0 {
            crate::bounded::checkpoint();
        }
        let mut total = vec![0u64; width];
        for &(j, a) in &rows[i] {
            for (x, &y) in total.iter_mut().zip(&forms[j]) {
                *x = add_mod(*x, mul_mod(a, y, m), m);
            }
        }
        matrix[row * s..(row + 1) * s].copy_from_slice(&total[..s]);
        rhs[row] = sub_mod(d[i], total[s], m);
    }
    (r, matrix, rhs)
}

/// A random sparse graph for tests: each cell joined to up to two random others.
#[cfg(test)]
pub(crate) fn random_adjacency(rng: &mut rand::rngs::StdRng, cells: usize) -> Vec<Vec<usize>> {
    use rand::RngExt;
    let mut adjacency = vec![Vec::new(); cells];
    for a in 0..cells {
        for _ in 0..rng.random_range(0..3) {
            let b = rng.random_range(0..cells);
            if a != b && !adjacency[a].contains(&b) {
                adjacency[a].push(b);
                adjacency[b].push(a);
            }
        }
    }
    adjacency.iter_mut().for_each(|l| l.sort_unstable());
    adjacency
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{CellValues, Topology};
    use rand::{RngExt, SeedableRng, rngs::StdRng};

    /// Random sparse graphs of 10–400 cells: general propagation (forced) equals dense
    /// elimination in count, kernel and periods, and its plans and quiet patterns simulate.
    #[test]
    fn agrees_with_dense_elimination_on_random_sparse_graphs() {
        let mut rng = StdRng::seed_from_u64(11);
        let mut applied = 0;
        for round in 0..120 {
            let cells = [10, 25, 60, 150, 400][round % 5];
            let m = [2u64, 3, 4, 5, 6, 7][rng.random_range(0..6)];
            let adjacency = random_adjacency(&mut rng, cells);
            let puzzle = Puzzle::builder(Topology::Edges { adjacency })
                .modulus(m)
                .press(rng.random_range(-3..=3), 1)
                .start((0..cells).map(|_| rng.random_range(0..m)).collect::<CellValues>())
                .build()
                .expect("valid");
            let Some(fast) = solve(&puzzle, true) else { continue };
            applied += 1;
            let dense = super::super::modular::solve(&puzzle);
            assert_eq!(fast.periods, dense.periods, "round {round}");
            assert_eq!(fast.kernel_size, dense.kernel_size, "round {round}");
            assert_eq!(fast.count, dense.count, "round {round}");
            if let Some(x) = &fast.presses {
                assert!(puzzle.solves(x), "round {round}");
            }
            let zero = vec![0u64; cells];
            let orders: BigUint = fast.quiet_basis.iter().map(|g| &g.order).product();
            assert_eq!(orders, fast.kernel_size, "round {round}");
            for g in &fast.quiet_basis {
                assert_eq!(puzzle.apply(&zero, &g.presses), zero, "round {round}");
            }
        }
        assert!(applied > 60, "general propagation applied to only {applied} graphs");
    }
}
