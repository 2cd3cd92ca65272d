//! Elimination over the ring `Z/p^E` with lowest-valuation pivots.
//!
//! Defining identity: for the system `A·x ≡ B (mod p^E)` (one or more right-hand sides),
//! elimination finds an invertible row transform `U` and a column permutation `P` with
//! `U·A·P = T`, where `T` is upper triangular on its first `r` rows, row `k` has the pivot
//! `T[k][k] = p^(v_k)·u_k` (`u_k` a unit) and every other entry of row `k` is divisible by
//! `p^(v_k)`, and rows `r..` are zero. Pivots are chosen over the whole remaining submatrix by
//! lowest valuation, so `v_0 <= v_1 <= …`. Column operations would turn `T` into the Smith form
//! `diag(p^v_k)` without changing any `v_k`; back substitution does the same job without storing
//! the column transform, so memory stays `rows × cols`.
//!
//! Consequences used by the solver: `A·x ≡ b` is solvable iff every transformed right side
//! `c = U·b` has `v_p(c_k) >= v_k` for `k < r` and `c_k = 0` for `k >= r`; the number of
//! solutions in `(Z/p^E)^n` is `p^(Σ v_k + E·(n - r))`; solutions are parametrised uniquely by
//! `s_k ∈ Z/p^(v_k)` for each pivot and a free value in `Z/p^E` for each non-pivot column.

use super::arith::{inv_mod, mul_mod, sub_mod, valuation};

/// A dense system over `Z/p^E`, rows × cols, with any number of right-hand sides.
#[derive(Clone, Debug)]
pub struct PrimePowerSystem {
    pub p: u64,
    pub e: u32,
    pub rows: usize,
    pub cols: usize,
    /// Row-major entries, each reduced mod `p^E`.
    pub matrix: Vec<u64>,
    /// One vector of length `rows` per right-hand side, reduced mod `p^E`.
    pub rhs: Vec<Vec<u64>>,
}

/// The result of elimination: the triangular factor and the transformed right-hand sides.
#[derive(Clone, Debug)]
pub struct Echelon {
    pub p: u64,
    pub e: u32,
    /// `p^E`.
    pub q: u64,
    pub cols: usize,
    /// `r`, the number of pivots.
    pub rank: usize,
    /// Pivot rows, row `k` restricted to permuted columns `k..cols` (entry 0 is the pivot).
    pivot_rows: Vec<Vec<u64>>,
    /// `v_k` for each pivot.
    pub pivot_valuations: Vec<u32>,
    /// `u_k^(-1) mod p^E` for each pivot.
    pivot_unit_inverses: Vec<u64>,
    /// `perm[k]` = the original column at permuted position `k`.
    perm: Vec<usize>,
    /// Transformed right sides `U·b`, one per system right side.
    transformed_rhs: Vec<Vec<u64>>,
}

impl PrimePowerSystem {
    /// `p^E`.
    pub fn modulus(&self) -> u64 {
        self.p.pow(self.e)
    }

    /// Eliminates and returns the echelon form. `O(r · rows · cols)`.
    pub fn eliminate(mut self) -> Echelon {
        let q = self.modulus();
        let (rows, cols) = (self.rows, self.cols);
        let mut perm: Vec<usize> = (0..cols).collect();
        let mut pivot_valuations = Vec::new();
        let mut pivot_unit_inverses = Vec::new();
        let a = &mut self.matrix;
        let p = self.p;
        let v_of = |x: u64| {
            if p == 2 { x.trailing_zeros() } else { valuation(x, p) }
        };
        let mut k = 0;
        while k < rows.min(cols) {
            // Lowest valuation over the remaining submatrix; a unit ends the search.
            let mut best: Option<(u32, usize, usize)> = None;
            'search: for c in k..cols {
                for r in k..rows {
                    let x = a[r * cols + c];
                    if x != 0 {
                        let v = v_of(x);
                        if best.is_none_or(|(bv, _, _)| v < bv) {
                            best = Some((v, r, c));
                            if v == 0 {
                                break 'search;
                            }
                        }
                    }
                }
            }
            let Some((v, pr, pc)) = best else { break };
            if pr != k {
                for c in 0..cols {
                    a.swap(pr * cols + c, k * cols + c);
                }
                for b in &mut self.rhs {
                    b.swap(pr, k);
                }
            }
            if pc != k {
                for r in 0..rows {
                    a.swap(r * cols + pc, r * cols + k);
                }
                perm.swap(pc, k);
            }
            let pv = p.pow(v);
            let pivot = a[k * cols + k];
            let unit = pivot / pv;
            let unit_inv = inv_mod(unit % q, q).expect("pivot unit is invertible");
            let (head, tail) = a.split_at_mut((k + 1) * cols);
            let pivot_row = &head[k * cols..];
            for r in 0..rows - k - 1 {
                let row = &mut tail[r * cols..(r + 1) * cols];
                let x = row[k];
                if x == 0 {
                    continue;
                }
                let f = mul_mod(x / pv, unit_inv, q);
                subtract_multiple(&mut row[k..], &pivot_row[k..], f, q);
                for b in &mut self.rhs {
                    let t = mul_mod(f, b[k], q);
                    b[k + 1 + r] = sub_mod(b[k + 1 + r], t, q);
                }
            }
            pivot_valuations.push(v);
            pivot_unit_inverses.push(unit_inv);
            k += 1;
        }
        // Later column swaps also permute earlier pivot rows: copy them out only now.
        let pivot_rows = (0..k).map(|r| a[r * cols + r..(r + 1) * cols].to_vec()).collect();
        Echelon {
            p,
            e: self.e,
            q,
            cols,
            rank: k,
            pivot_rows,
            pivot_valuations,
            pivot_unit_inverses,
            perm,
            transformed_rhs: self.rhs,
        }
    }
}

/// `row -= f · pivot (mod q)`, elementwise.
fn subtract_multiple(row: &mut [u64], pivot: &[u64], f: u64, q: u64) {
    if q <= u32::MAX as u64 {
        for (x, &y) in row.iter_mut().zip(pivot) {
            let t = (f * y) % q;
            *x = if *x >= t { *x - t } else { *x + q - t };
        }
    } else {
        for (x, &y) in row.iter_mut().zip(pivot) {
            *x = sub_mod(*x, mul_mod(f, y, q), q);
        }
    }
}

impl Echelon {
    /// `log_p` of the number of solutions in `(Z/p^E)^cols` of a solvable right side.
    pub fn solution_count_exponent(&self) -> u64 {
        self.pivot_valuations.iter().map(|&v| v as u64).sum::<u64>()
            + self.e as u64 * (self.cols - self.rank) as u64
    }

    /// Whether right side number `which` is solvable.
    pub fn is_solvable(&self, which: usize) -> bool {
        let c = &self.transformed_rhs[which];
        let pivots_ok = (0..self.rank).all(|k| {
            let v = self.pivot_valuations[k];
            c[k].is_multiple_of(self.p.pow(v))
        });
        pivots_ok && c[self.rank..].iter().all(|&x| x == 0)
    }

    /// The solution of right side `which` with every free parameter zero, if it is solvable.
    pub fn particular(&self, which: usize) -> Option<Vec<u64>> {
        if !self.is_solvable(which) {
            return None;
        }
        let c = &self.transformed_rhs[which];
        Some(self.back_substitute(|k| c[k], |_| 0, |_| 0))
    }

    /// Generators of the solutions of `A·x ≡ 0`, each with its additive order as a power of p:
    /// every kernel element is `Σ t_g · g` for exactly one choice of `0 <= t_g < p^(order_g)`.
    pub fn kernel_generators(&self) -> Vec<(Vec<u64>, u32)> {
        let mut out = Vec::new();
        for k in 0..self.rank {
            let v = self.pivot_valuations[k];
            if v > 0 {
                let seed = self.p.pow(self.e - v);
                out.push((self.back_substitute(|_| 0, |i| if i == k { seed } else { 0 }, |_| 0), v));
            }
        }
        for f in self.rank..self.cols {
            out.push((self.back_substitute(|_| 0, |_| 0, |j| if j == f { 1 } else { 0 }), self.e));
        }
        out
    }

    /// The nonzero rows of `T·P^(-1)` (the eliminated rows in the original column order) with
    /// their pivot valuations. They generate the same module as the rows of `A`, and every
    /// element of it is `Σ t_k·row_k` for exactly one choice of `0 <= t_k < p^(E - v_k)`.
    pub fn row_basis(&self) -> Vec<(Vec<u64>, u32)> {
        (0..self.rank)
            .map(|k| {
                let mut row = vec![0u64; self.cols];
                for (offset, &a) in self.pivot_rows[k].iter().enumerate() {
                    row[self.perm[k + offset]] = a;
                }
                (row, self.pivot_valuations[k])
            })
            .collect()
    }

    /// Solves the triangular system from the bottom: `rhs(k)` is the transformed right side of
    /// pivot `k`, `pivot_seed(k)` is added to pivot unknown `k` (a multiple of `p^(E - v_k)`),
    /// `free(j)` is the value of permuted non-pivot column `j`. Returns `x` in original order.
    fn back_substitute(
        &self,
        rhs: impl Fn(usize) -> u64,
        pivot_seed: impl Fn(usize) -> u64,
        free: impl Fn(usize) -> u64,
    ) -> Vec<u64> {
        let q = self.q;
        let mut y = vec![0u64; self.cols];
        for (j, yj) in y.iter_mut().enumerate().skip(self.rank) {
            *yj = free(j) % q;
        }
        for k in (0..self.rank).rev() {
            let row = &self.pivot_rows[k];
            let mut s = rhs(k);
            for (offset, &a) in row.iter().enumerate().skip(1) {
                if a != 0 {
                    s = sub_mod(s, mul_mod(a, y[k + offset], q), q);
                }
            }
            let pv = self.p.pow(self.pivot_valuations[k]);
            debug_assert_eq!(s % pv, 0, "back substitution met an unsolvable row");
            let base = mul_mod((s / pv) % q, self.pivot_unit_inverses[k], q);
            y[k] = (base as u128 + pivot_seed(k) as u128).rem_euclid(q as u128) as u64;
        }
        let mut x = vec![0u64; self.cols];
        for (k, &col) in self.perm.iter().enumerate() {
            x[col] = y[k];
        }
        x
    }
}
