//! Sparse elimination over the ring `Z/p^E`, column by column in a given order, into a Howell
//! form: what dense elimination ([`super::echelon`]) answers, on matrices with a few nonzero
//! entries per row, in the time and memory of the fill-in instead of `rows × cols`.
//!
//! Defining identity: columns are processed in order `0..cols` (the caller numbers them in a
//! fill-reducing order, see [`super::ordering`]). At column `c` the rows whose first nonzero
//! entry is in column `c` are the candidates; the one of lowest valuation `p^v·u` is the pivot
//! (ties: the shorter row, then the older one), and every other candidate's entry in column `c`
//! is a multiple of `p^v`, so subtracting a multiple of the pivot row clears it. When `v > 0`
//! the pivot row times `p^(E-v)` has a zero in column `c`; it joins the rows as a new one (its
//! *annihilator row*). With these rows added the pivot rows form a Howell basis of the row
//! module, which gives, with `r` pivots and `n` columns:
//!
//! - `A·x ≡ b` is solvable iff no row ends with all coefficients zero and a nonzero right side
//!   (the annihilator rows carry their right side `p^(E-v)·b_pivot`, so back substitution never
//!   meets a right side that the pivot's power of `p` does not divide);
//! - the number of solutions in `(Z/p^E)^n` is `p^(Σ v_k + E·(n - r))`, as for dense
//!   elimination: the pivot unknown of row `k` is fixed up to `p^(E - v_k)·s`, `s < p^(v_k)`,
//!   and every non-pivot column is free;
//! - back substitution from the last pivot gives one solution, and with one parameter set to
//!   its generator (`p^(E - v_k)` or 1) and the right side zero, generators of the kernel.
//!
//! Entries live in sorted sparse rows (`u32` column, `u64` value); a row update is a merge of
//! two sorted rows. Products are reduced through `u64` for `p^E <= 2^32`, else through `u128`.

use super::arith::{Ring, inv_mod, valuation};
use crate::bounded::checkpoint;

/// One sparse row: sorted distinct columns with nonzero values mod `p^E`, and a right side.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SparseRow {
    /// Columns, strictly increasing.
    pub cols: Vec<u32>,
    /// The entry of each column, nonzero and reduced mod `p^E`.
    pub vals: Vec<u64>,
    /// The right side, reduced mod `p^E`.
    pub rhs: u64,
}

/// A sparse system over `Z/p^E`.
#[derive(Clone, Debug)]
pub struct SparseSystem {
    /// The prime.
    pub p: u64,
    /// The exponent `E`.
    pub e: u32,
    /// The number of columns (unknowns); every row's columns are below it.
    pub cols: usize,
    /// The equations.
    pub rows: Vec<SparseRow>,
}

/// One pivot of the Howell form: row `k` with its leading column taken apart.
#[derive(Clone, Debug)]
struct Pivot {
    col: u32,
    valuation: u32,
    unit_inverse: u64,
    /// The rest of the row (columns after `col`).
    cols: Vec<u32>,
    vals: Vec<u64>,
    rhs: u64,
}

/// The result of sparse elimination.
#[derive(Clone, Debug)]
pub struct SparseEchelon {
    p: u64,
    e: u32,
    q: u64,
    cols: usize,
    /// Pivots in column order.
    pivots: Vec<Pivot>,
    /// Whether no row was left with zero coefficients and a nonzero right side.
    consistent: bool,
    /// Whether column `c` holds a pivot.
    is_pivot: Vec<bool>,
}

/// A malformed system: a column out of range, columns not increasing, or an entry not reduced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MalformedRow(pub usize);

#[inline]
fn mul(a: u64, b: u64, q: u64) -> u64 {
    if q <= 1 << 32 { a * b % q } else { ((a as u128 * b as u128) % q as u128) as u64 }
}

#[inline]
fn sub(a: u64, b: u64, q: u64) -> u64 {
    if a >= b { a - b } else { q - (b - a) }
}

impl SparseSystem {
    /// `p^E`.
    pub fn modulus(&self) -> u64 {
        self.p.pow(self.e)
    }

    /// Eliminates (see the module documentation). Cost: the merges of the fill-in.
    pub fn eliminate(self) -> Result<SparseEchelon, MalformedRow> {
        let (p, e, cols) = (self.p, self.e, self.cols);
        let q = self.modulus();
        let ring = Ring::new(q);
        let mut consistent = true;
        let mut rows: Vec<SparseRow> = Vec::with_capacity(self.rows.len());
        let mut buckets: Vec<Vec<u32>> = vec![Vec::new(); cols];
        for (i, row) in self.rows.into_iter().enumerate() {
            let ordered = row.cols.windows(2).all(|w| w[0] < w[1]);
            let in_range = row.cols.last().is_none_or(|&c| (c as usize) < cols);
            let reduced = row.vals.iter().all(|&a| a != 0 && a < q) && row.rhs < q;
            if !ordered || !in_range || !reduced || row.cols.len() != row.vals.len() {
                return Err(MalformedRow(i));
            }
            route(row, &mut rows, &mut buckets, &mut consistent);
        }
        let mut pivots = Vec::new();
        let mut is_pivot = vec![false; cols];
        let mut scratch = SparseRow::default();
        for c in 0..cols {
            checkpoint();
            let candidates = std::mem::take(&mut buckets[c]);
            if candidates.is_empty() {
                continue;
            }
            let key = |&r: &u32| {
                let row = &rows[r as usize];
                (valuation(row.vals[0], p), row.cols.len(), r)
            };
            let Some(&chosen) = candidates.iter().min_by_key(|r| key(r)) else { continue };
            let pivot_row = std::mem::take(&mut rows[chosen as usize]);
            let v = valuation(pivot_row.vals[0], p);
            let pv = p.pow(v);
            let unit_inverse = inv_mod((pivot_row.vals[0] / pv) % q, q).unwrap_or(0);
            // Its work: the entries merged, about 8 a search node.
            let merged: usize =
                candidates.iter().map(|&r| rows[r as usize].cols.len() + pivot_row.cols.len()).sum();
            crate::bounded::work(merged as u64 / 8);
            for &r in candidates.iter().filter(|&&r| r != chosen) {
                let row = &mut rows[r as usize];
                // The entry is a multiple of p^v (its valuation is at least v): f·pivot = entry.
                let f = mul((row.vals[0] / pv) % q, unit_inverse, q);
                subtract_multiple(row, &pivot_row, f, ring, &mut scratch);
                std::mem::swap(row, &mut scratch);
                match row.cols.first() {
                    Some(&lead) => buckets[lead as usize].push(r),
                    None => {
                        consistent &= row.rhs == 0;
                        *row = SparseRow::default();
                    }
                }
            }
            if v > 0 {
                let scale = p.pow(e - v);
                let mut annihilator =
                    SparseRow { cols: Vec::new(), vals: Vec::new(), rhs: mul(pivot_row.rhs, scale, q) };
                for (&col, &a) in pivot_row.cols.iter().zip(&pivot_row.vals).skip(1) {
                    let x = mul(a, scale, q);
                    if x != 0 {
                        annihilator.cols.push(col);
                        annihilator.vals.push(x);
                    }
                }
                route(annihilator, &mut rows, &mut buckets, &mut consistent);
            }
            is_pivot[c] = true;
            pivots.push(Pivot {
                col: c as u32,
                valuation: v,
                unit_inverse,
                cols: pivot_row.cols[1..].to_vec(),
                vals: pivot_row.vals[1..].to_vec(),
                rhs: pivot_row.rhs,
            });
        }
        Ok(SparseEchelon { p, e, q, cols, pivots, consistent, is_pivot })
    }
}

/// Puts a row in the bucket of its first column; an all-zero row only checks its right side.
fn route(row: SparseRow, rows: &mut Vec<SparseRow>, buckets: &mut [Vec<u32>], consistent: &mut bool) {
    match row.cols.first() {
        Some(&c) => {
            buckets[c as usize].push(rows.len() as u32);
            rows.push(row);
        }
        None => *consistent &= row.rhs == 0,
    }
}

/// `out = row − f·pivot`, both starting in the same column (which cancels), zeros dropped.
fn subtract_multiple(row: &SparseRow, pivot: &SparseRow, f: u64, ring: Ring, out: &mut SparseRow) {
    let q = ring.q;
    out.cols.clear();
    out.vals.clear();
    out.rhs = sub(row.rhs, ring.mul(f, pivot.rhs), q);
    let (a_cols, a_vals) = (&row.cols[1..], &row.vals[1..]);
    let (b_cols, b_vals) = (&pivot.cols[1..], &pivot.vals[1..]);
    out.cols.reserve(a_cols.len() + b_cols.len());
    out.vals.reserve(a_cols.len() + b_cols.len());
    let (mut i, mut j) = (0, 0);
    while i < a_cols.len() && j < b_cols.len() {
        let (ca, cb) = (a_cols[i], b_cols[j]);
        if ca < cb {
            out.cols.push(ca);
            out.vals.push(a_vals[i]);
            i += 1;
        } else if cb < ca {
            let value = sub(0, ring.mul(f, b_vals[j]), q);
            if value != 0 {
                out.cols.push(cb);
                out.vals.push(value);
            }
            j += 1;
        } else {
            let value = sub(a_vals[i], ring.mul(f, b_vals[j]), q);
            if value != 0 {
                out.cols.push(ca);
                out.vals.push(value);
            }
            i += 1;
            j += 1;
        }
    }
    out.cols.extend_from_slice(&a_cols[i..]);
    out.vals.extend_from_slice(&a_vals[i..]);
    for (&c, &b) in b_cols[j..].iter().zip(&b_vals[j..]) {
        let value = sub(0, ring.mul(f, b), q);
        if value != 0 {
            out.cols.push(c);
            out.vals.push(value);
        }
    }
}

/// Back substitution met a right side its pivot's power of `p` does not divide: impossible for
/// a Howell form, so a bug.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NotDivisible;

impl SparseEchelon {
    /// The prime and the exponent of the modulus `p^E`.
    pub fn modulus_parts(&self) -> (u64, u32) {
        (self.p, self.e)
    }

    /// The number of pivots, `r`.
    pub fn rank(&self) -> usize {
        self.pivots.len()
    }

    /// Entries kept in the pivot rows (the fill-in).
    pub fn entries(&self) -> usize {
        self.pivots.iter().map(|k| k.cols.len() + 1).sum()
    }

    /// `log_p` of the number of solutions in `(Z/p^E)^cols` of a solvable system.
    pub fn solution_count_exponent(&self) -> u64 {
        self.pivots.iter().map(|k| k.valuation as u64).sum::<u64>()
            + self.e as u64 * (self.cols - self.pivots.len()) as u64
    }

    /// Whether the system is solvable.
    pub fn is_solvable(&self) -> bool {
        self.consistent
    }

    /// The solution with every parameter zero, when the system is solvable.
    pub fn particular(&self) -> Result<Option<Vec<u64>>, NotDivisible> {
        if !self.consistent {
            return Ok(None);
        }
        self.back_substitute(true, None, None).map(Some)
    }

    /// Generators of the solutions of `A·x ≡ 0`, each with its additive order as a power of
    /// `p`: one for each pivot of valuation `v > 0` (order `v`) and one for each non-pivot
    /// column (order `E`). Every kernel element is a combination of them.
    pub fn kernel_generators(&self) -> Result<Vec<(Vec<u64>, u32)>, NotDivisible> {
        let mut out = Vec::new();
        for (k, pivot) in self.pivots.iter().enumerate() {
            if pivot.valuation > 0 {
                out.push((self.back_substitute(false, Some(k), None)?, pivot.valuation));
            }
        }
        for c in (0..self.cols).filter(|&c| !self.is_pivot[c]) {
            out.push((self.back_substitute(false, None, Some(c))?, self.e));
        }
        Ok(out)
    }

    /// The number of kernel generators [`kernel_generators`](Self::kernel_generators) returns.
    pub fn kernel_generator_count(&self) -> usize {
        self.pivots.iter().filter(|k| k.valuation > 0).count() + self.cols - self.pivots.len()
    }

    /// Solves from the last pivot: with the right sides (`with_rhs`) or zero, pivot `seed`'s
    /// unknown shifted by `p^(E - v)`, non-pivot column `free` set to 1 (the others 0).
    fn back_substitute(
        &self,
        with_rhs: bool,
        seed: Option<usize>,
        free: Option<usize>,
    ) -> Result<Vec<u64>, NotDivisible> {
        let (p, q) = (self.p, self.q);
        let mut x = vec![0u64; self.cols];
        if let Some(c) = free {
            x[c] = 1 % q;
        }
        for (k, pivot) in self.pivots.iter().enumerate().rev() {
            let mut s = if with_rhs { pivot.rhs } else { 0 };
            for (&col, &a) in pivot.cols.iter().zip(&pivot.vals) {
                let y = x[col as usize];
                if y != 0 {
                    s = sub(s, mul(a, y, q), q);
                }
            }
            let pv = p.pow(pivot.valuation);
            if !s.is_multiple_of(pv) {
                return Err(NotDivisible);
            }
            let mut value = mul((s / pv) % q, pivot.unit_inverse, q);
            if seed == Some(k) {
                value = ((value as u128 + p.pow(self.e - pivot.valuation) as u128) % q as u128) as u64;
            }
            x[pivot.col as usize] = value;
        }
        Ok(x)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algebra::echelon::PrimePowerSystem;
    use rand::{RngExt, SeedableRng, rngs::StdRng};

    fn apply(s: &SparseSystem, x: &[u64]) -> Vec<u64> {
        let q = s.modulus();
        s.rows
            .iter()
            .map(|row| {
                row.cols.iter().zip(&row.vals).fold(0, |acc, (&c, &a)| (acc + mul(a, x[c as usize], q)) % q)
            })
            .collect()
    }

    /// A random sparse system mod `p^E`: rows of a few entries of random valuations, a right
    /// side that is solvable half of the time.
    fn random_system(rng: &mut StdRng, p: u64, e: u32, rows: usize, cols: usize) -> SparseSystem {
        let q = p.pow(e);
        let x0: Vec<u64> = (0..cols).map(|_| rng.random_range(0..q)).collect();
        let solvable = rng.random_bool(0.5);
        let mut out = Vec::new();
        for _ in 0..rows {
            let mut cs: Vec<u32> =
                (0..rng.random_range(0..5)).map(|_| rng.random_range(0..cols as u32)).collect();
            cs.sort_unstable();
            cs.dedup();
            let mut row = SparseRow::default();
            for c in cs {
                let a = mul(rng.random_range(1..q), p.pow(rng.random_range(0..e)), q);
                if a != 0 {
                    row.cols.push(c);
                    row.vals.push(a);
                }
            }
            row.rhs = if solvable {
                row.cols.iter().zip(&row.vals).fold(0, |acc, (&c, &a)| (acc + mul(a, x0[c as usize], q)) % q)
            } else {
                rng.random_range(0..q)
            };
            out.push(row);
        }
        SparseSystem { p, e, cols, rows: out }
    }

    /// Against dense elimination (solvability, solution count) and, on tiny systems, against
    /// enumeration of every `x`; every solution and kernel generator is checked.
    #[test]
    fn agrees_with_dense_elimination_and_enumeration() {
        let mut rng = StdRng::seed_from_u64(5);
        for round in 0..600 {
            let (p, e) = [
                (2u64, 1u32),
                (2, 3),
                (3, 2),
                (5, 1),
                (7, 2),
                (2, 6),
                (4_294_967_291, 1),
                (65_521, 2),
                (65_537, 2),
                (2, 40),
            ][round % 10];
            let q = p.pow(e);
            let tiny = round % 3 == 0 && q <= 8;
            let (rows, cols) = if tiny {
                (rng.random_range(1..5), rng.random_range(1..4))
            } else {
                (rng.random_range(1..40), rng.random_range(1..40))
            };
            let s = random_system(&mut rng, p, e, rows, cols);
            let mut matrix = vec![0u64; rows * cols];
            for (i, row) in s.rows.iter().enumerate() {
                for (&c, &a) in row.cols.iter().zip(&row.vals) {
                    matrix[i * cols + c as usize] = a;
                }
            }
            let rhs = vec![s.rows.iter().map(|r| r.rhs).collect::<Vec<_>>()];
            let dense = PrimePowerSystem { p, e, rows, cols, matrix, rhs }.eliminate();
            let sparse = s.clone().eliminate().expect("well formed");
            let what = format!("round {round}: q={q} {rows}×{cols}");
            assert_eq!(sparse.is_solvable(), dense.is_solvable(0), "{what}");
            assert_eq!(sparse.solution_count_exponent(), dense.solution_count_exponent(), "{what}");
            let want = s.rows.iter().map(|r| r.rhs).collect::<Vec<_>>();
            if let Some(x) = sparse.particular().expect("Howell form") {
                assert_eq!(apply(&s, &x), want, "{what}");
            }
            let generators = sparse.kernel_generators().expect("Howell form");
            assert_eq!(generators.len(), sparse.kernel_generator_count(), "{what}");
            for (g, order) in &generators {
                assert!(apply(&s, g).iter().all(|&y| y == 0), "{what}: generator");
                assert!(g.iter().any(|&y| mul(y, p.pow(order - 1), q) != 0), "{what}: order");
            }
            if tiny {
                // Every x in (Z/q)^cols: the count, and that the generators span the kernel.
                let total = (q as usize).pow(cols as u32);
                let mut solutions = 0u64;
                let mut kernel = std::collections::BTreeSet::new();
                for index in 0..total {
                    let x: Vec<u64> =
                        (0..cols).map(|j| (index / (q as usize).pow(j as u32)) as u64 % q).collect();
                    let y = apply(&s, &x);
                    solutions += u64::from(y == want);
                    if y.iter().all(|&v| v == 0) {
                        kernel.insert(x);
                    }
                }
                let count =
                    if sparse.is_solvable() { p.pow(sparse.solution_count_exponent() as u32) } else { 0 };
                assert_eq!(solutions, count, "{what}");
                let mut span = std::collections::BTreeSet::from([vec![0u64; cols]]);
                for (g, _) in &generators {
                    let mut grown = span.clone();
                    for base in &span {
                        let mut x = base.clone();
                        for _ in 0..q {
                            x = x.iter().zip(g).map(|(&a, &b)| (a + b) % q).collect();
                            grown.insert(x.clone());
                        }
                    }
                    span = grown;
                }
                assert_eq!(span, kernel, "{what}: the generators span the kernel");
            }
        }
    }

    #[test]
    fn malformed_rows_are_refused() {
        let row = |cols: Vec<u32>, vals: Vec<u64>| SparseRow { cols, vals, rhs: 0 };
        for (case, bad) in
            [row(vec![1, 0], vec![1, 1]), row(vec![5], vec![1]), row(vec![0], vec![9]), row(vec![0], vec![])]
                .into_iter()
                .enumerate()
        {
            let s = SparseSystem { p: 3, e: 2, cols: 3, rows: vec![row(vec![0], vec![1]), bad] };
            assert_eq!(s.eliminate().err(), Some(MalformedRow(1)), "case {case}");
        }
    }
}
