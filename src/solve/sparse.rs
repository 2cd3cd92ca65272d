//! Sparse elimination for puzzles whose buttons are their cells (grids, tori, King boards,
//! paths, cycles, any graph), with any per-cell moduli: the general path's mathematics
//! (`super::modular`: split by prime, eliminate over each `Z/p^E`, project to periods, combine
//! by CRT) on sparse rows, in a nested-dissection order of the graph.
//!
//! Defining identity: the same as the general path. For each prime `p` (largest exponent `E`),
//! cell `i` with `e_i = v_p(m_i) > 0` gives the row `p^(E-e_i)·(a_i·x) ≡ p^(E-e_i)·d_i`; only
//! the buttons with `l_j = v_p(L_j) > 0` are columns (the others have no nonzero entry at this
//! prime). Columns are numbered in the nested-dissection order of the puzzle's graph
//! ([`crate::algebra::ordering`]) and eliminated into a Howell form
//! ([`crate::algebra::sparse`]); the count at `p` is `p^(Σ v_k + E·(n_p − r) − Σ_j (E − l_j))`.
//! Counts, the plan and the quiet basis equal the dense path's (tests compare them; the dense
//! path leaves a large basis unreduced, so there the two bases span the same set); the basis
//! is left out when it would pass [`super::BASIS_ENTRY_LIMIT`] entries or its work limit.
//!
//! Cost: the fill-in of the order. On a `k × k` grid the separators have at most `k` cells,
//! so memory is `O(k² log k)` entries and time about `O(k³)` per prime, where dense elimination
//! needs `k⁴` entries and `k⁶` time.

use num_bigint::BigUint;
use num_traits::{One, Zero};

use super::modular::{PrimeSplit, lift_basis, period_basis_of};
use super::{Answer, Method, difference};
use crate::algebra::crt;
use crate::algebra::ordering::{Graph, nested_dissection};
use crate::algebra::sparse::{SparseRow, SparseSystem};
use crate::error::InternalError;
use crate::model::{Buttons, Puzzle};

/// Whether the sparse path applies: one button per cell (graph buttons), and cell numbers that
/// fit the sparse rows' 32-bit columns.
pub(crate) fn applies(puzzle: &Puzzle) -> bool {
    matches!(puzzle.buttons(), Buttons::Graph { .. }) && puzzle.cell_count() < u32::MAX as usize
}

/// Work allowed for the quiet basis: generators × (fill + columns) for back substitution, and
/// generators² × columns for the second elimination, each at most this.
const BASIS_WORK_LIMIT: u128 = 1 << 31;

/// The puzzle's graph (cells joined when one's button changes the other), for the ordering.
fn graph(puzzle: &Puzzle) -> Graph {
    let n = puzzle.cell_count();
    let mut g = Graph { offsets: Vec::with_capacity(n + 1), adjacency: Vec::new() };
    g.offsets.push(0);
    for cell in 0..n {
        puzzle.topology().for_each_neighbor(cell, |other| g.adjacency.push(other as u32));
        g.offsets.push(g.adjacency.len());
    }
    g
}

/// The press matrix by cell: `(button, amount)` for every button that changes the cell.
struct Rows {
    starts: Vec<usize>,
    entries: Vec<(u32, u64)>,
}

fn rows(puzzle: &Puzzle) -> Rows {
    let n = puzzle.cell_count();
    let mut counts = vec![0usize; n + 1];
    for j in 0..puzzle.button_count() {
        puzzle.for_each_effect(j, |i, _| counts[i + 1] += 1);
    }
    for i in 0..n {
        counts[i + 1] += counts[i];
    }
    let mut fill = counts.clone();
    let mut entries = vec![(0u32, 0u64); counts[n]];
    for j in 0..puzzle.button_count() {
        puzzle.for_each_effect(j, |i, a| {
            entries[fill[i]] = (j as u32, a);
            fill[i] += 1;
        });
    }
    Rows { starts: counts, entries }
}

/// Solves by sparse elimination; the plan is not yet verified (`super::solve_with` does it).
pub(crate) fn solve(puzzle: &Puzzle) -> Result<Answer, InternalError> {
    let fail = |what: &str| InternalError::VerificationFailed(format!("sparse elimination: {what}"));
    let n = puzzle.button_count();
    let order = nested_dissection(&graph(puzzle));
    let mut position = vec![0u32; n];
    for (k, &v) in order.iter().enumerate() {
        position[v as usize] = k as u32;
    }
    let by_cell = rows(puzzle);
    let split = PrimeSplit::new(puzzle.moduli());
    let d = difference(puzzle);

    let mut solvable = true;
    let mut kernel_size = BigUint::one();
    let mut parts: Vec<Vec<(u64, u64)>> = vec![Vec::new(); n];
    let mut period_parts: Vec<Vec<u64>> = vec![Vec::new(); n];
    let mut prime_generators: Vec<(u64, Vec<u64>, u32)> = Vec::new();
    let mut basis_wanted = true;
    let mut basis_entries = 0u128;
    for (&p, &e_max) in &split.primes {
        let q = p.pow(e_max);
        // Period exponents and the rows, columns still as order positions.
        let mut period_exponents = vec![0u32; n];
        let mut system_rows: Vec<SparseRow> = Vec::new();
        for (i, &di) in d.iter().enumerate() {
            let e = split.exponent(i, p);
            if e == 0 {
                continue;
            }
            let (pe, scale) = (p.pow(e), p.pow(e_max - e));
            let mut entries: Vec<(u32, u64)> = Vec::new();
            for &(j, a) in &by_cell.entries[by_cell.starts[i]..by_cell.starts[i + 1]] {
                let local = a % pe;
                if local != 0 {
                    let v = crate::algebra::arith::valuation(local, p);
                    let l = &mut period_exponents[j as usize];
                    *l = (*l).max(e - v);
                    entries.push((position[j as usize], local * scale));
                }
            }
            entries.sort_unstable_by_key(|&(c, _)| c);
            let mut row = SparseRow { cols: Vec::new(), vals: Vec::new(), rhs: (di % pe) * scale };
            for (c, a) in entries {
                if row.cols.last() == Some(&c) {
                    let last = row.vals.len() - 1;
                    row.vals[last] = crate::algebra::arith::add_mod(row.vals[last], a, q);
                } else {
                    row.cols.push(c);
                    row.vals.push(a);
                }
            }
            let keep: Vec<usize> = (0..row.cols.len()).filter(|&k| row.vals[k] != 0).collect();
            if keep.len() < row.cols.len() {
                row.cols = keep.iter().map(|&k| row.cols[k]).collect();
                row.vals = keep.iter().map(|&k| row.vals[k]).collect();
            }
            system_rows.push(row);
        }
        // Columns: the buttons with l_j > 0, numbered compactly in order.
        let mut column_of_position = vec![u32::MAX; n];
        let mut button_of_column: Vec<usize> = Vec::new();
        for (k, &j) in order.iter().enumerate() {
            if period_exponents[j as usize] > 0 {
                column_of_position[k] = button_of_column.len() as u32;
                button_of_column.push(j as usize);
            }
        }
        for row in &mut system_rows {
            for c in &mut row.cols {
                *c = column_of_position[*c as usize];
            }
        }
        let columns = button_of_column.len();
        let column_exponents: Vec<u32> = button_of_column.iter().map(|&j| period_exponents[j]).collect();
        let system = SparseSystem { p, e: e_max, cols: columns, rows: system_rows };
        let echelon = system.eliminate().map_err(|_| fail("a malformed row"))?;
        let projected: u64 = column_exponents.iter().map(|&l| (e_max - l) as u64).sum();
        let exponent = echelon
            .solution_count_exponent()
            .checked_sub(projected)
            .ok_or_else(|| fail("a negative count"))?;
        kernel_size *= num_traits::Pow::pow(BigUint::from(p), exponent);
        for (&j, &l) in button_of_column.iter().zip(&column_exponents) {
            period_parts[j].push(p.pow(l));
        }
        match echelon.particular().map_err(|_| fail("back substitution"))? {
            Some(x) => {
                for ((&j, &l), &value) in button_of_column.iter().zip(&column_exponents).zip(&x) {
                    let pl = p.pow(l);
                    parts[j].push((value % pl, pl));
                }
            }
            None => solvable = false,
        }
        // The quiet basis, while it stays within its limits.
        let generators = echelon.kernel_generator_count() as u128;
        let work = generators * (echelon.entries() as u128 + columns as u128)
            + generators * generators * columns as u128;
        basis_entries += generators * n as u128;
        basis_wanted &= basis_entries <= super::BASIS_ENTRY_LIMIT && work <= BASIS_WORK_LIMIT;
        if basis_wanted {
            let kernel = echelon.kernel_generators().map_err(|_| fail("the kernel"))?;
            drop(echelon);
            for (residues, order) in period_basis_of(p, e_max, &kernel, &column_exponents) {
                let mut full = vec![0u64; n];
                for (&j, &r) in button_of_column.iter().zip(&residues) {
                    full[j] = r;
                }
                prime_generators.push((p, full, order));
            }
        } else {
            prime_generators.clear();
        }
    }
    let periods: Vec<BigUint> =
        period_parts.iter().map(|list| list.iter().map(|&q| BigUint::from(q)).product()).collect();
    let presses = solvable.then(|| parts.iter().map(|list| crt::combine(list)).collect::<Vec<_>>());
    let quiet_basis = if basis_wanted { lift_basis(prime_generators, &period_parts) } else { Vec::new() };
    let count = if presses.is_some() { kernel_size.clone() } else { BigUint::zero() };
    Ok(Answer { periods, presses, count, kernel_size, quiet_basis, method: Method::Sparse, seeds: None })
}
