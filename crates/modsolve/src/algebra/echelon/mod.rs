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
//!
//! Speed: the pivot choice and the row operations are fixed by the contract above, and every
//! storage of [`Accumulator`] performs exactly them, so the [`Echelon`] is the same entry for
//! entry. For `q = 2` rows are bit-packed and combined by XOR. For small `q` the entries live in
//! 16-, 32- or 64-bit lanes with *delayed reduction*: a row update adds `(q - f)·pivot row`
//! without reducing, which the compiler vectorises (8 lanes of 16 bits per SSE2 multiply), and
//! the rows are reduced only when one more update could overflow a lane. Rows below the pivot
//! are updated in parallel. Large `q` (above `2^32`) reduce every product through `u128`.

use rayon::prelude::*;

use crate::bounded::{Stop, checkpoint};

use super::arith::{add_mod, inv_mod, mul_mod, neg_mod, sub_mod, valuation};
use super::gf2::BitMatrix;

/// A dense system over `Z/p^E`, rows × cols, with any number of right-hand sides.
#[derive(Clone, Debug)]
pub struct PrimePowerSystem {
    /// The prime.
    pub p: u64,
    /// The exponent `E`: entries are reduced mod `p^E`.
    pub e: u32,
    /// The number of equations.
    pub rows: usize,
    /// The number of unknowns.
    pub cols: usize,
    /// Row-major entries, each reduced mod `p^E`.
    pub matrix: Vec<u64>,
    /// One vector of length `rows` per right-hand side, reduced mod `p^E`.
    pub rhs: Vec<Vec<u64>>,
}

/// The result of elimination: the triangular factor and the transformed right-hand sides.
#[derive(Clone, Debug)]
pub struct Echelon {
    p: u64,
    e: u32,
    /// `p^E`.
    q: u64,
    cols: usize,
    /// `r`, the number of pivots.
    rank: usize,
    /// Pivot rows, row `k` restricted to permuted columns `k..cols` (entry 0 is the pivot).
    pivot_rows: Vec<Vec<u64>>,
    /// `v_k` for each pivot.
    pivot_valuations: Vec<u32>,
    /// `u_k^(-1) mod p^E` for each pivot.
    pivot_unit_inverses: Vec<u64>,
    /// `perm[k]` = the original column at permuted position `k`.
    perm: Vec<usize>,
    /// Transformed right sides `U·b`, one per system right side.
    transformed_rhs: Vec<Vec<u64>>,
}

/// How [`PrimePowerSystem::eliminate_with`] stores the entries while it eliminates. Every choice
/// gives the same [`Echelon`], entry for entry; [`Accumulator::Auto`] picks the fastest.
///
/// The lazy choices use *delayed reduction*: a row update adds `(q - f)·pivot` to each entry
/// without reducing it, and the rows are reduced mod `q` only when one more update could
/// overflow the lane (for `q = 7` in 16-bit lanes, once every 1820 pivots). An entry is reduced
/// when it is read (pivot search, the multiplier of a row) and a pivot row when it is chosen.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Accumulator {
    /// Bits for `q = 2`, else the narrowest lazy lanes that hold a few updates, else `Wide`.
    #[default]
    Auto,
    /// Bit-packed rows combined by XOR; only for `q = 2`.
    Bits,
    /// Lazy 16-bit lanes; needs `(q - 1)^2 + q - 1 < 2^16`.
    Lazy16,
    /// Lazy 32-bit lanes; needs `(q - 1)^2 + q - 1 < 2^32`.
    Lazy32,
    /// Lazy 64-bit lanes with 32-bit products; needs `q <= 2^32`.
    Lazy64,
    /// Entries reduced after every update, products through `u128`; any `q`.
    Wide,
}

impl Accumulator {
    /// Whether this storage can eliminate mod `q`.
    pub fn supports(self, q: u64) -> bool {
        let square = |bits: u32| (q - 1).checked_mul(q - 1).is_some_and(|s| s + (q - 1) < 1u64 << bits);
        match self {
            Accumulator::Auto | Accumulator::Wide => true,
            Accumulator::Bits => q == 2,
            Accumulator::Lazy16 => square(16),
            Accumulator::Lazy32 => square(32),
            Accumulator::Lazy64 => q <= 1 << 32,
        }
    }

    /// The storage [`Accumulator::Auto`] uses for `q`: one that leaves room for at least 16
    /// updates between reductions, when there is one.
    pub fn for_modulus(q: u64) -> Accumulator {
        let room = |bits: u32| q <= 1 << 16 && (q - 1) * (q - 1) * 16 + (q - 1) < (1u64 << bits) - 1;
        if q == 2 {
            Accumulator::Bits
        } else if room(16) {
            Accumulator::Lazy16
        } else if room(32) {
            Accumulator::Lazy32
        } else if q <= 1 << 32 {
            Accumulator::Lazy64
        } else {
            Accumulator::Wide
        }
    }
}

impl PrimePowerSystem {
    /// `p^E`.
    pub fn modulus(&self) -> u64 {
        self.p.pow(self.e)
    }

    /// Eliminates and returns the echelon form. `O(r · rows · cols)`.
    pub fn eliminate(self) -> Echelon {
        self.eliminate_with(Accumulator::Auto)
    }

    /// [`eliminate`](Self::eliminate) with a chosen storage; panics if it cannot hold `p^E`
    /// (see [`Accumulator::supports`]). The result does not depend on the choice.
    pub fn eliminate_with(self, storage: Accumulator) -> Echelon {
        let q = self.modulus();
        // Its work, counted up front: a multiply-add an entry a pivot, about 50 a search node.
        let steps = self.rows.min(self.cols) as u64;
        crate::bounded::work((self.rows as u64).saturating_mul(self.cols as u64).saturating_mul(steps) / 50);
        assert!(storage.supports(q), "{storage:?} cannot eliminate mod {q}");
        let small = self.rows.saturating_mul(self.cols) < PARALLEL_MIN_ENTRIES;
        // Taken here: the pool's threads do not have this thread's flag.
        let stop = Stop::here();
        match storage {
            Accumulator::Auto => self.eliminate_with(Accumulator::for_modulus(q)),
            Accumulator::Bits => self.eliminate_bits(),
            // On a worker thread of the pool, each step's parallel row update is cheap to start;
            // a system too small for any parallel step does not start the pool.
            Accumulator::Lazy16 if small => self.eliminate_lazy::<u16>(),
            Accumulator::Lazy32 if small => self.eliminate_lazy::<u32>(),
            Accumulator::Lazy64 if small => self.eliminate_lazy::<u64>(),
            Accumulator::Lazy16 => rayon::scope(|_| stop.carry(|| self.eliminate_lazy::<u16>())),
            Accumulator::Lazy32 => rayon::scope(|_| stop.carry(|| self.eliminate_lazy::<u32>())),
            Accumulator::Lazy64 => rayon::scope(|_| stop.carry(|| self.eliminate_lazy::<u64>())),
            Accumulator::Wide => self.eliminate_wide(),
        }
    }

    /// The pivot of step `k`: the entry of lowest valuation in rows and columns `k..`, the
    /// first one in column-major order, as `(v, row, col)`; `entry(r, c)` must be reduced.
    ///
    /// `floor` is the valuation of the previous pivot. The lowest valuation of the remaining
    /// submatrix never decreases from step to step (every update adds multiples of entries of
    /// at least that valuation), so the first entry of valuation `floor` is the answer: the whole
    /// submatrix is scanned only when the valuation goes up, at most `E` times in all.
    fn find_pivot(
        &self,
        k: usize,
        floor: u32,
        entry: impl Fn(usize, usize) -> u64,
    ) -> Option<(u32, usize, usize)> {
        let p = self.p;
        let mut best: Option<(u32, usize, usize)> = None;
        for c in k..self.cols {
            for r in k..self.rows {
                let x = entry(r, c);
                if x != 0 {
                    let v = if p == 2 { x.trailing_zeros() } else { valuation(x, p) };
                    if best.is_none_or(|(bv, _, _)| v < bv) {
                        best = Some((v, r, c));
                        if v <= floor {
                            return best;
                        }
                    }
                }
            }
        }
        best
    }

    /// The reference path: every entry reduced after every update.
    fn eliminate_wide(mut self) -> Echelon {
        let q = self.modulus();
        let (rows, cols) = (self.rows, self.cols);
        let mut perm: Vec<usize> = (0..cols).collect();
        let mut pivot_valuations = Vec::new();
        let mut pivot_unit_inverses = Vec::new();
        let p = self.p;
        let mut k = 0;
        while k < rows.min(cols) {
            checkpoint();
            // Lowest valuation over the remaining submatrix; the previous pivot's ends the search.
            let a = &self.matrix;
            let floor = pivot_valuations.last().copied().unwrap_or(0);
            let Some((v, pr, pc)) = self.find_pivot(k, floor, |r, c| a[r * cols + c]) else { break };
            let a = &mut self.matrix;
            swap_rows(a, cols, pr, k);
            for b in &mut self.rhs {
                b.swap(pr, k);
            }
            swap_columns(a, cols, pc, k);
            perm.swap(pc, k);
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
                for (x, &y) in row[k..].iter_mut().zip(&pivot_row[k..]) {
                    *x = sub_mod(*x, mul_mod(f, y, q), q);
                }
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
        let pivot_rows = (0..k).map(|r| self.matrix[r * cols + r..(r + 1) * cols].to_vec()).collect();
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

    /// Delayed reduction in lanes of type `T` (see [`Accumulator`]).
    fn eliminate_lazy<T: Lane>(mut self) -> Echelon {
        let q = self.modulus();
        let (rows, cols) = (self.rows, self.cols);
        let p = self.p;
        let mut a: Vec<T> =
            std::mem::take(&mut self.matrix).into_iter().map(|x| T::from_u64(x % q)).collect();
        let mut perm: Vec<usize> = (0..cols).collect();
        let mut pivot_valuations = Vec::new();
        let mut pivot_unit_inverses = Vec::new();
        // Entries are below `q + pending·(q - 1)^2`; reduce before that could pass `T::MAX`.
        let most_pending = (T::MAX - (q - 1)) / ((q - 1) * (q - 1)).max(1);
        let mut pending = 0u64;
        let mut factors = Vec::with_capacity(rows);
        let mut pivot_tail: Vec<T::Narrow> = Vec::with_capacity(cols);
        let mut k = 0;
        while k < rows.min(cols) {
            checkpoint();
            let floor = pivot_valuations.last().copied().unwrap_or(0);
            let found = self.find_pivot(k, floor, |r, c| a[r * cols + c].to_u64() % q);
            let Some((v, pr, pc)) = found else { break };
            swap_rows(&mut a, cols, pr, k);
            for b in &mut self.rhs {
                b.swap(pr, k);
            }
            swap_columns(&mut a, cols, pc, k);
            perm.swap(pc, k);
            // The pivot row is reduced once and for all: rows above are never updated again.
            for x in &mut a[k * cols + k..(k + 1) * cols] {
                *x = T::from_u64(x.to_u64() % q);
            }
            let pv = p.pow(v);
            let unit = a[k * cols + k].to_u64() / pv;
            let unit_inv = inv_mod(unit % q, q).expect("pivot unit is invertible");
            // Row `k + 1 + i` gets `(q - f_i)·(pivot row)`; 0 means it is already clear.
            factors.clear();
            factors.extend((k + 1..rows).map(|r| {
                let x = a[r * cols + k].to_u64() % q;
                if x == 0 { 0 } else { mul_mod(x / pv, unit_inv, q) }
            }));
            pivot_tail.clear();
            pivot_tail.extend(a[k * cols + k + 1..(k + 1) * cols].iter().map(|x| T::narrow(x.to_u64())));
            let width = cols - k - 1;
            let reduce = pending == most_pending;
            pending = if reduce { 1 } else { pending + 1 };
            let tail = &mut a[(k + 1) * cols..];
            let update = |(row, &f): (&mut [T], &u64)| {
                let rest = &mut row[k + 1..];
                if reduce {
                    for x in rest.iter_mut() {
                        *x = T::from_u64(x.to_u64() % q);
                    }
                }
                if f != 0 {
                    row[k] = T::from_u64(0);
                    T::add_multiple(&mut row[k + 1..], &pivot_tail, q - f);
                }
            };
            if factors.len() * width >= PARALLEL_MIN_ENTRIES {
                tail.par_chunks_mut(cols).zip(&factors).with_min_len(ROWS_PER_TASK).for_each(update);
            } else {
                tail.chunks_mut(cols).zip(&factors).for_each(update);
            }
            for b in &mut self.rhs {
                let bk = b[k];
                for (x, &f) in b[k + 1..].iter_mut().zip(&factors) {
                    if f != 0 {
                        *x = sub_mod(*x, mul_mod(f, bk, q), q);
                    }
                }
            }
            pivot_valuations.push(v);
            pivot_unit_inverses.push(unit_inv);
            k += 1;
        }
        let pivot_rows =
            (0..k).map(|r| a[r * cols + r..(r + 1) * cols].iter().map(|x| x.to_u64()).collect()).collect();
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

    /// `q = 2`: the same steps as [`eliminate_wide`](Self::eliminate_wide) on bit-packed rows.
    /// Columns are not moved: position `c` is original column `perm[c]`. The right sides ride
    /// along as extra columns.
    fn eliminate_bits(self) -> Echelon {
        let (rows, cols) = (self.rows, self.cols);
        let mut m = BitMatrix::zeros(rows, cols + self.rhs.len());
        for r in 0..rows {
            checkpoint();
            for c in 0..cols {
                if self.matrix[r * cols + c] & 1 == 1 {
                    m.flip(r, c);
                }
            }
            for (j, b) in self.rhs.iter().enumerate() {
                if b[r] & 1 == 1 {
                    m.flip(r, cols + j);
                }
            }
        }
        let words = m.words_per_row();
        let mut perm: Vec<usize> = (0..cols).collect();
        let mut k = 0;
        while k < rows.min(cols) {
            checkpoint();
            // The first position (in the current column order) with a 1 in rows `k..`.
            let found = (k..cols).find_map(|c| (k..rows).find(|&r| m.get(r, perm[c])).map(|r| (r, c)));
            let Some((r, c)) = found else { break };
            let col = perm[c];
            m.swap_rows(r, k);
            perm.swap(c, k);
            let (head, tail) = m.split_at_row_mut(k + 1);
            let pivot_row = &head[k * words..];
            let (word, bit) = (col / 64, col % 64);
            for row in tail.chunks_exact_mut(words) {
                if row[word] >> bit & 1 == 1 {
                    for (x, y) in row.iter_mut().zip(pivot_row) {
                        *x ^= y;
                    }
                }
            }
            k += 1;
        }
        let pivot_rows = (0..k).map(|r| perm[r..].iter().map(|&c| m.get(r, c) as u64).collect()).collect();
        let transformed_rhs =
            (0..self.rhs.len()).map(|j| (0..rows).map(|r| m.get(r, cols + j) as u64).collect()).collect();
        Echelon {
            p: 2,
            e: 1,
            q: 2,
            cols,
            rank: k,
            pivot_rows,
            pivot_valuations: vec![0; k],
            pivot_unit_inverses: vec![1; k],
            perm,
            transformed_rhs,
        }
    }
}

/// Rows per parallel task in a row update.
const ROWS_PER_TASK: usize = 16;
/// Kernel generators back-substituted together (one task of [`Echelon::kernel_generators`]).
const KERNEL_BLOCK: usize = 64;

/// Below this many entries a row update runs on one thread.
const PARALLEL_MIN_ENTRIES: usize = 1 << 16;

fn swap_rows<T>(a: &mut [T], cols: usize, r: usize, s: usize) {
    if r != s {
        let (lo, hi) = (r.min(s), r.max(s));
        let (first, second) = a.split_at_mut(hi * cols);
        first[lo * cols..(lo + 1) * cols].swap_with_slice(&mut second[..cols]);
    }
}

fn swap_columns<T>(a: &mut [T], cols: usize, c: usize, d: usize) {
    if c != d {
        for row in a.chunks_exact_mut(cols) {
            row.swap(c, d);
        }
    }
}

/// A lane type for delayed reduction: entries are kept below `MAX` and reduced mod `q` rarely.
trait Lane: Copy + Send + Sync {
    /// The type of a reduced pivot entry in a row update.
    type Narrow: Copy + Send + Sync;
    const MAX: u64;
    fn from_u64(x: u64) -> Self;
    fn to_u64(self) -> u64;
    fn narrow(x: u64) -> Self::Narrow;
    fn widen(x: Self::Narrow) -> u64;
    /// `row += g·pivot` entrywise, without reduction (`g < q`, pivot entries `< q`).
    fn add_multiple(row: &mut [Self], pivot: &[Self::Narrow], g: u64);
}

macro_rules! same_width_lane {
    ($t:ty) => {
        impl Lane for $t {
            type Narrow = $t;
            const MAX: u64 = <$t>::MAX as u64;
            fn from_u64(x: u64) -> Self {
                x as $t
            }
            fn to_u64(self) -> u64 {
                self as u64
            }
            fn narrow(x: u64) -> $t {
                x as $t
            }
            fn widen(x: $t) -> u64 {
                x as u64
            }
            fn add_multiple(row: &mut [$t], pivot: &[$t], g: u64) {
                let g = g as $t;
                for (x, &y) in row.iter_mut().zip(pivot) {
                    *x = x.wrapping_add(g.wrapping_mul(y));
                }
            }
        }
    };
}
same_width_lane!(u16);
same_width_lane!(u32);

impl Lane for u64 {
    type Narrow = u32;
    const MAX: u64 = u64::MAX;
    fn from_u64(x: u64) -> Self {
        x
    }
    fn to_u64(self) -> u64 {
        self
    }
    fn narrow(x: u64) -> u32 {
        x as u32
    }
    fn widen(x: u32) -> u64 {
        x as u64
    }
    fn add_multiple(row: &mut [u64], pivot: &[u32], g: u64) {
        // Both factors below 2^32: one 32×32→64-bit multiply per lane.
        let g = g as u32 as u64;
        for (x, &y) in row.iter_mut().zip(pivot) {
            *x = x.wrapping_add(g * y as u64);
        }
    }
}

impl Echelon {
    /// The number of pivots, `r`.
    pub fn rank(&self) -> usize {
        self.rank
    }

    /// The prime and the exponent of the modulus `p^E`.
    pub fn modulus_parts(&self) -> (u64, u32) {
        (self.p, self.e)
    }

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

    /// How many generators [`Self::kernel_generators`] returns.
    pub fn kernel_generator_count(&self) -> usize {
        self.pivot_valuations.iter().take(self.rank).filter(|&&v| v > 0).count() + self.cols - self.rank
    }

    /// Generators of the solutions of `A·x ≡ 0`, each with its additive order as a power of p:
    /// every kernel element is `Σ t_g · g` for exactly one choice of `0 <= t_g < p^(order_g)`.
    ///
    /// Generators are back-substituted in blocks of `KERNEL_BLOCK`, the blocks in parallel:
    /// each unknown holds one residue per generator of the block, and a pivot row adds its
    /// multiple of those vectors in the narrowest lanes that hold a few products (as in
    /// [`Accumulator`]), reduced only before they could overflow. The result is that of
    /// `kernel_generators_one_by_one`, a test's reference (one generator at a time).
    pub fn kernel_generators(&self) -> Vec<(Vec<u64>, u32)> {
        let seeded: Vec<usize> = (0..self.rank).filter(|&k| self.pivot_valuations[k] > 0).collect();
        let count = seeded.len() + self.cols - self.rank;
        if count == 0 {
            return Vec::new();
        }
        let mut seed_of = vec![usize::MAX; self.rank];
        for (g, &k) in seeded.iter().enumerate() {
            seed_of[k] = g;
        }
        let blocks: Vec<(usize, usize)> =
            (0..count).step_by(KERNEL_BLOCK).map(|first| (first, KERNEL_BLOCK.min(count - first))).collect();
        let stop = Stop::here();
        let solve = |&(first, width): &(usize, usize)| -> Vec<u64> {
            stop.carry(|| match Accumulator::for_modulus(self.q) {
                Accumulator::Bits | Accumulator::Lazy16 => {
                    self.kernel_block::<u16>(first, width, seeded.len(), &seed_of)
                }
                Accumulator::Lazy32 => self.kernel_block::<u32>(first, width, seeded.len(), &seed_of),
                Accumulator::Lazy64 => self.kernel_block::<u64>(first, width, seeded.len(), &seed_of),
                Accumulator::Auto | Accumulator::Wide => {
                    self.kernel_block_wide(first, width, seeded.len(), &seed_of)
                }
            })
        };
        let solved: Vec<Vec<u64>> = if count * self.rank * self.cols >= PARALLEL_MIN_ENTRIES {
            blocks.par_iter().map(solve).collect()
        } else {
            blocks.iter().map(solve).collect()
        };
        let orders =
            seeded.iter().map(|&k| self.pivot_valuations[k]).chain((self.rank..self.cols).map(|_| self.e));
        orders
            .enumerate()
            .map(|(g, order)| {
                let (block, width) = (&solved[g / KERNEL_BLOCK], blocks[g / KERNEL_BLOCK].1);
                let local = g % KERNEL_BLOCK;
                let mut x = vec![0u64; self.cols];
                for (k, &col) in self.perm.iter().enumerate() {
                    x[col] = block[k * width + local];
                }
                (x, order)
            })
            .collect()
    }

    /// Generators `first..first + width` (the `seeds` seeded ones first, then one per free
    /// column) in permuted order: `y[j·width + g]` is unknown `j` of generator `first + g`.
    /// Sums are kept in lanes of `T` and reduced only before they could overflow.
    fn kernel_block<T: Lane>(&self, first: usize, width: usize, seeds: usize, seed_of: &[usize]) -> Vec<u64> {
        let (p, q) = (self.p, self.q);
        let ring = super::arith::Ring::new(q);
        let mut y: Vec<T::Narrow> = vec![T::narrow(0); self.cols * width];
        for g in first..first + width {
            if g >= seeds {
                y[(self.rank + g - seeds) * width + g - first] = T::narrow(1 % q);
            }
        }
        // Sums stay below `q + pending·(q - 1)^2`; reduce before that could pass `T::MAX`.
        let most_pending = (T::MAX - (q - 1)) / ((q - 1) * (q - 1)).max(1);
        let mut acc: Vec<T> = vec![T::from_u64(0); width];
        for k in (0..self.rank).rev() {
            if k % 64 == 0 {
                checkpoint();
            }
            acc.iter_mut().for_each(|a| *a = T::from_u64(0));
            let mut pending = 0u64;
            let (head, tail) = y.split_at_mut((k + 1) * width);
            for (offset, &a) in self.pivot_rows[k].iter().enumerate().skip(1) {
                if a == 0 {
                    continue;
                }
                if pending == most_pending {
                    acc.iter_mut().for_each(|s| *s = T::from_u64(s.to_u64() % q));
                    pending = 1;
                } else {
                    pending += 1;
                }
                T::add_multiple(&mut acc, &tail[(offset - 1) * width..offset * width], a);
            }
            let pv = p.pow(self.pivot_valuations[k]);
            let unit_inverse = self.pivot_unit_inverses[k];
            let seed = seed_of[k].checked_sub(first).filter(|&g| g < width);
            for (g, (x, s)) in head[k * width..].iter_mut().zip(&acc).enumerate() {
                let s = neg_mod(s.to_u64() % q, q);
                debug_assert_eq!(s % pv, 0, "back substitution met an unsolvable row");
                let mut value = ring.mul((s / pv) % q, unit_inverse);
                if seed == Some(g) {
                    value = (value + p.pow(self.e - self.pivot_valuations[k])) % q;
                }
                *x = T::narrow(value);
            }
        }
        y.into_iter().map(|x| T::widen(x)).collect()
    }

    /// [`Self::kernel_block`] for `q` above `2^32`: every product reduced through `u128`.
    fn kernel_block_wide(&self, first: usize, width: usize, seeds: usize, seed_of: &[usize]) -> Vec<u64> {
        let (p, q) = (self.p, self.q);
        let ring = super::arith::Ring::new(q);
        let mut y = vec![0u64; self.cols * width];
        for g in first..first + width {
            if g >= seeds {
                y[(self.rank + g - seeds) * width + g - first] = 1 % q;
            }
        }
        let mut acc = vec![0u64; width];
        for k in (0..self.rank).rev() {
            if k % 64 == 0 {
                checkpoint();
            }
            acc.iter_mut().for_each(|a| *a = 0);
            let (head, tail) = y.split_at_mut((k + 1) * width);
            for (offset, &a) in self.pivot_rows[k].iter().enumerate().skip(1) {
                if a != 0 {
                    let from = &tail[(offset - 1) * width..offset * width];
                    for (s, &v) in acc.iter_mut().zip(from) {
                        *s = add_mod(*s, ring.mul(a, v), q);
                    }
                }
            }
            let pv = p.pow(self.pivot_valuations[k]);
            let unit_inverse = self.pivot_unit_inverses[k];
            let seed = seed_of[k].checked_sub(first).filter(|&g| g < width);
            for (g, (x, &s)) in head[k * width..].iter_mut().zip(&acc).enumerate() {
                let s = neg_mod(s, q);
                debug_assert_eq!(s % pv, 0, "back substitution met an unsolvable row");
                *x = ring.mul((s / pv) % q, unit_inverse);
                if seed == Some(g) {
                    *x = ((*x as u128 + p.pow(self.e - self.pivot_valuations[k]) as u128) % q as u128) as u64;
                }
            }
        }
        y
    }

    /// [`Self::kernel_generators`] one generator at a time by [`Self::back_substitute`]: the
    /// reference the batched form is tested against.
    #[cfg(test)]
    fn kernel_generators_one_by_one(&self) -> Vec<(Vec<u64>, u32)> {
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
        let ring = super::arith::Ring::new(q);
        let mut y = vec![0u64; self.cols];
        for (j, yj) in y.iter_mut().enumerate().skip(self.rank) {
            *yj = free(j) % q;
        }
        for k in (0..self.rank).rev() {
            let row = &self.pivot_rows[k];
            let mut s = rhs(k);
            for (offset, &a) in row.iter().enumerate().skip(1) {
                if a != 0 {
                    s = sub_mod(s, ring.mul(a, y[k + offset]), q);
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

#[cfg(test)]
mod tests;
