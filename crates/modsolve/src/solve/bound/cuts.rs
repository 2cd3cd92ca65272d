//! Mod-`L` cuts from pairs of cells, separated at the linear programme's optimum.
//!
//! Two cells `i1`, `i2` that share buttons, of moduli `m1`, `m2` with `L = lcm(m1, m2)`: any
//! plan meets `Σ_j a_1j·x_j ≡ d_1 (mod m1)` and `Σ_j a_2j·x_j ≡ d_2 (mod m2)`, so for every
//! `c1`, `c2` the combination `Σ_j ((L/m1)·c1·a_1j + (L/m2)·c2·a_2j)·x_j ≡ (L/m1)·c1·d_1 +
//! (L/m2)·c2·d_2 (mod L)`; reduced mod `L` its left side is a non-negative number (presses are
//! non-negative) congruent to the right, hence at least the right side reduced mod `L`. These
//! rows are valid exactly like the single-cell rows, and tighter where the combination's
//! coefficients are small against its right side.
//!
//! The primal programme (`minimise Σ w_j` over the rows) is solved by the interior-point method
//! of [`super::ipm`], the combinations most violated by its optimum are added and it is solved
//! again, for a fixed number of rounds and rows. Nothing here is trusted: the rows are valid by the argument above whatever
//! the floating point did, and the bound is recomputed exactly from the dual of all the rows by
//! the caller.

use num_integer::Integer;

use super::Row;
use crate::solve::search::SearchProblem;

/// Cuts are separated on puzzles of at most this many cells: the separation solves the primal
/// programme once a round (mixed grids, AMD EPYC: 30×30 in about 0.2 s a round, for 7 to 13
/// presses more; with the simplex, 6 to 7 s).
pub(super) const CELLS: usize = 1000;

/// Separation rounds at most.
const ROUNDS: usize = 4;
/// Rows added per round at most: this many per hundred cells (and at least [`MIN_PER_ROUND`]).
const PER_HUNDRED_CELLS: usize = 25;
const MIN_PER_ROUND: usize = 8;
/// Pairs are only combined when `lcm(m1, m2)` is at most this.
const MOST_L: u64 = 1 << 12;
/// Combinations `(c1, c2)` examined per round at most (the separation's work).
const COMBINATIONS: u64 = 4_000_000;
/// A row counts as violated when the optimum misses it by more than this share of its right side.
const VIOLATION: f64 = 1e-4;

/// Rows (the caller's first) extended by separated pair cuts, in at most `rounds` rounds (and
/// [`ROUNDS`]); the given rows unchanged when the primal programme could not be solved.
pub(super) fn with_pair_cuts(
    problem: &SearchProblem,
    by_cell: &[Vec<(usize, u64)>],
    rows: Vec<Row>,
    upper: &[u64],
    rounds: usize,
) -> Vec<Row> {
    let pairs = sharing_pairs(problem, by_cell);
    if pairs.is_empty() || rounds == 0 {
        return rows;
    }
    let per_round = (problem.moduli.len() * PER_HUNDRED_CELLS / 100).max(MIN_PER_ROUND);
    let extra =
        std::panic::catch_unwind(|| separate(problem, by_cell, &rows, upper, &pairs, per_round, rounds))
            .ok()
            .flatten()
            .unwrap_or_default();
    let mut rows = rows;
    rows.extend(extra);
    rows
}

/// Pairs of cells `(i1, i2)`, `i1 < i2`, that share a button, with `lcm` at most [`MOST_L`].
fn sharing_pairs(problem: &SearchProblem, by_cell: &[Vec<(usize, u64)>]) -> Vec<(usize, usize)> {
    let mut cells_of: Vec<Vec<usize>> = vec![Vec::new(); problem.effects.len()];
    for (i, list) in by_cell.iter().enumerate() {
        for &(j, _) in list {
            cells_of[j].push(i);
        }
    }
    let mut pairs = std::collections::BTreeSet::new();
    for list in &cells_of {
        if list.len() > 64 {
            continue;
        }
        for (k, &a) in list.iter().enumerate() {
            for &b in &list[k + 1..] {
                let (a, b) = (a.min(b), a.max(b));
                if a != b && problem.moduli[a].lcm(&problem.moduli[b]) <= MOST_L {
                    pairs.insert((a, b));
                }
            }
        }
    }
    pairs.into_iter().collect()
}

/// The separated rows; `None` when the primal programme was not solved.
fn separate(
    problem: &SearchProblem,
    by_cell: &[Vec<(usize, u64)>],
    rows: &[Row],
    upper: &[u64],
    pairs: &[(usize, usize)],
    per_round: usize,
    rounds: usize,
) -> Option<Vec<Row>> {
    // The caller's rows, then the rows added, in one list: the added ones are its tail.
    let mut all = rows.to_vec();
    for _ in 0..ROUNDS.min(rounds) {
        crate::bounded::checkpoint();
        let (x, _) = super::ipm::solve(&all, upper)?;
        let found = most_violated(problem, by_cell, pairs, &x, per_round);
        if found.is_empty() {
            break;
        }
        all.extend(found);
    }
    Some(all.split_off(rows.len()))
}

/// Up to `most` pair combinations violated by `x`, the most violated (relative to the right
/// side) first, at most one per pair.
fn most_violated(
    problem: &SearchProblem,
    by_cell: &[Vec<(usize, u64)>],
    pairs: &[(usize, usize)],
    x: &[f64],
    most: usize,
) -> Vec<Row> {
    let mut work = COMBINATIONS;
    let mut found: Vec<(f64, usize, u64, u64)> = Vec::new();
    for (p, &(i1, i2)) in pairs.iter().enumerate() {
        let (m1, m2) = (problem.moduli[i1], problem.moduli[i2]);
        let l = m1.lcm(&m2);
        let combos = (m1 - 1) * (m2 - 1);
        if combos > work {
            break;
        }
        work -= combos;
        let (d1, d2) = (problem.rhs[i1] % m1, problem.rhs[i2] % m2);
        let mut best: Option<(f64, u64, u64)> = None;
        for c1 in 1..m1 {
            for c2 in 1..m2 {
                let (k1, k2) = (l / m1 * c1, l / m2 * c2);
                let rhs = (k1 * d1 + k2 * d2) % l;
                if rhs == 0 {
                    continue;
                }
                let lhs: f64 = combined(by_cell, i1, i2, k1, k2, l).map(|(j, a)| a as f64 * x[j]).sum();
                let gap = (rhs as f64 - lhs) / rhs as f64;
                if gap > VIOLATION && best.is_none_or(|(g, _, _)| gap > g) {
                    best = Some((gap, c1, c2));
                }
            }
        }
        if let Some((gap, c1, c2)) = best {
            found.push((gap, p, c1, c2));
        }
    }
    found.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    found.truncate(most);
    found
        .into_iter()
        .map(|(_, p, c1, c2)| {
            let (i1, i2) = pairs[p];
            let (m1, m2) = (problem.moduli[i1], problem.moduli[i2]);
            let l = m1.lcm(&m2);
            let (k1, k2) = (l / m1 * c1, l / m2 * c2);
            let rhs = (k1 * (problem.rhs[i1] % m1) + k2 * (problem.rhs[i2] % m2)) % l;
            (combined(by_cell, i1, i2, k1, k2, l).collect(), rhs)
        })
        .collect()
}

/// The nonzero coefficients, reduced mod `l`, of `k1·row(i1) + k2·row(i2)`, by button.
fn combined<'a>(
    by_cell: &'a [Vec<(usize, u64)>],
    i1: usize,
    i2: usize,
    k1: u64,
    k2: u64,
    l: u64,
) -> impl Iterator<Item = (usize, u64)> + 'a {
    let first = by_cell[i1].iter().map(move |&(j, a)| {
        let b = by_cell[i2].iter().find(|&&(b, _)| b == j).map_or(0, |&(_, b)| b);
        (j, (k1 * a + k2 * b) % l)
    });
    let second = by_cell[i2]
        .iter()
        .filter(move |&&(j, _)| !by_cell[i1].iter().any(|&(b, _)| b == j))
        .map(move |&(j, b)| (j, k2 * b % l));
    first.chain(second).filter(|&(_, a)| a != 0)
}
