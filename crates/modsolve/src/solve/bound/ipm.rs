//! The bound's linear programme by an interior-point method (`clarabel`).
//!
//! `minimise Σ w_j` over `0 <= w_j <= upper_j` with rows `Σ coeff·w >= rhs`, solved in its
//! primal form; the answer is the primal optimum (for separating cuts) and each row's dual
//! value. Nothing here is trusted: the caller recomputes the bound exactly from the duals, which
//! gives a valid bound for any non-negative values, so an inexact optimum can only weaken it.
//! On the sparse rows of a board it is much faster than the simplex of `microlp`: a 30×30
//! grid's 4,336 cell rows in 0.11 s (the simplex: 3.4 s for them and the groups' cuts), a
//! 100×100 grid's 48,163 in 2.0 s.

use clarabel::algebra::CscMatrix;
use clarabel::solver::{DefaultSettingsBuilder, DefaultSolver, IPSolver, NonnegativeConeT, SolverStatus};

use super::Row;

/// The most multiply-subtracts ([`factor_work`]) one factorisation may take: past it the
/// programme is not solved (the caller falls back to the other relaxations). A solve takes
/// 25 to 35 factorisations: at 95 million (a 140×140 grid) 4.4 s, at 97 million on a random
/// graph's rows 2.8 s, at 214 million 4.9 s, at 262 million 6.2 s, at 560 million 18 s (AMD
/// EPYC), beside a search of about 6 s.
pub(super) const FACTOR_WORK: usize = 300_000_000;

/// The most multiply-subtracts of factorisation the solves of one bound may take together,
/// counted as solves of [`factor_work`] each: the separation of [`super::cuts`] re-solves once
/// a round, and gets as many rounds as this allows (a 1000-cell random graph's four rounds and
/// last solve took 13 s; now one round).
pub(super) const PROGRAMME_WORK: usize = 250_000_000;

/// Iterations at most: a fixed count, so that the same programme gets the same answer on every
/// machine (about 25 are needed on the boards measured).
const ITERATIONS: u32 = 100;

/// The programme's primal optimum `w` and each row's dual value; `None` when it was not solved.
pub(super) fn solve(rows: &[Row], upper: &[u64]) -> Option<(Vec<f64>, Vec<f64>)> {
    std::panic::catch_unwind(|| solve_inner(rows, upper)).ok()?
}

fn solve_inner(rows: &[Row], upper: &[u64]) -> Option<(Vec<f64>, Vec<f64>)> {
    let (n, m) = (upper.len(), rows.len());

    // Constraints `A·w + s = b`, `s >= 0`: the rows as `−coeff·w + s = −rhs`, then `−w + s = 0`
    // and `w + s = upper`, column by column.
    let mut columns: Vec<Vec<(usize, f64)>> = vec![Vec::new(); n];
    for (r, (coeffs, _)) in rows.iter().enumerate() {
        for &(j, a) in coeffs {
            columns[j].push((r, -(a as f64)));
        }
    }
    let (mut starts, mut indices, mut values) = (Vec::with_capacity(n + 1), Vec::new(), Vec::new());
    starts.push(0);
    for (j, column) in columns.iter_mut().enumerate() {
        // Rows are added in order, so a column's entries are sorted; merge repeats.
        column.push((m + j, -1.0));
        column.push((m + n + j, 1.0));
        for &(r, v) in column.iter() {
            if indices.len() > starts[j] && indices.last() == Some(&r) {
                *values.last_mut()? += v;
            } else {
                indices.push(r);
                values.push(v);
            }
        }
        starts.push(indices.len());
    }
    let total = m + 2 * n;
    let a = CscMatrix::new(total, n, starts, indices, values);
    let p = CscMatrix::zeros((n, n));
    let q = vec![1.0; n];
    let mut b: Vec<f64> = rows.iter().map(|&(_, rhs)| -(rhs as f64)).collect();
    b.extend(std::iter::repeat_n(0.0, n));
    b.extend(upper.iter().map(|&u| u as f64));
    let cones = [NonnegativeConeT(total)];
    let settings = DefaultSettingsBuilder::default()
        .verbose(false)
        .max_iter(ITERATIONS)
        .time_limit(f64::INFINITY)
        .build()
        .ok()?;
    let mut solver = DefaultSolver::new(&p, &q, &a, &b, &cones, settings).ok()?;
    solver.solve();
    if !matches!(solver.solution.status, SolverStatus::Solved | SolverStatus::AlmostSolved) {
        return None;
    }
    let w = solver.solution.x.clone();
    let y = solver.solution.z[..m].iter().map(|&v| v.max(0.0)).collect();
    Some((w, y))
}

/// The multiply-subtracts of one factorisation of the method's linear systems (the KKT matrix
/// `[I Aᵀ; A −I]` of [`solve_inner`]'s constraints), in the approximate minimum degree order
/// (`amd`, as the factorisation orders it); `None` when the pattern could not be ordered. On a
/// board's sparse rows it grows about linearly (30×30 mixed grid 3.0 million, 100×100 44
/// million, 140×140 95 million); on rows that join buttons far apart it explodes (a random
/// graph of 1000 cells, four edges a cell, 97 million; 2000 cells, 560 million and 18 s a solve;
/// 11,000 cells, more than 200 s). Ordering costs 0.02 s on the 30×30 grid, 0.16 s on 140×140.
pub(super) fn factor_work(rows: &[Row], n: usize) -> Option<usize> {
    let m = rows.len();
    let size = n + m + 2 * n;
    // The upper triangle by columns: the buttons' diagonal, then each constraint's column of
    // its buttons and its own diagonal (the bounds' constraints hold one button each).
    let mut starts = Vec::with_capacity(size + 1);
    let mut indices = Vec::new();
    starts.push(0usize);
    for j in 0..n {
        indices.push(j);
        starts.push(indices.len());
    }
    let mut column = Vec::new();
    for (r, (coeffs, _)) in rows.iter().enumerate() {
        column.clear();
        column.extend(coeffs.iter().map(|&(j, _)| j));
        column.sort_unstable();
        column.dedup();
        indices.extend_from_slice(&column);
        indices.push(n + r);
        starts.push(indices.len());
    }
    for k in 0..2 * n {
        indices.push(k % n);
        indices.push(n + m + k);
        starts.push(indices.len());
    }
    let control = amd::Control { dense: 15.0, aggressive: true };
    let ordered = std::panic::catch_unwind(|| amd::order(size, &starts, &indices, &control).ok()).ok()??;
    Some(ordered.2.n_mult_subs_ldl)
}
