//! Bit-packed linear algebra over GF(2): 64 unknowns per word, rows combined by XOR.
//!
//! Defining identity: Gauss–Jordan elimination of the augmented matrix `[A | b]` gives
//! `U·[A | b]·P = [[I, F, c], [0, 0, d]]` (up to the order of the pivot columns); the system is
//! solvable iff `d = 0`, a solution sets each pivot unknown to its `c` bit and every free unknown
//! to 0, and the kernel has the basis `e_f + Σ F[k][f]·e_(pivot k)`, one vector per free column.
//!
//! Three kernels compute the same reduced row echelon form (it is unique on the eligible
//! columns, so they agree bit for bit there):
//!
//! - [`Elimination::Plain`]: column by column, one row XOR per nonzero entry of the pivot column;
//! - [`Elimination::FourRussians`]: the Method of Four Russians (as in M4RI). Columns are taken
//!   64 at a time (one word, a *stripe*). The stripe's pivots are found by scanning rows and
//!   reducing only the one word of each candidate; the pivot rows are then reduced against each
//!   other, so that on the stripe's pivot columns they form an identity. Every row below is then
//!   cleared on the stripe at once: the stripe is cut into groups of `k <= 8` columns, and each
//!   group's bits index a table of all `2^j` XOR combinations of the pivot rows whose pivot
//!   column lies in the group, so a row costs `ceil(64 / k)` table look-ups and XORs per word
//!   instead of up to 64 row XORs. `k` shrinks as rows grow longer so that the tables stay in
//!   the caches near the core. Once every stripe is done, a backward pass (last stripe first)
//!   clears each stripe in the rows above it, the same way but only on the words that still
//!   hold a non-pivot column (for a square system of full rank, just the right side): this
//!   costs far less than clearing above and below in the forward pass. Rows are updated in
//!   parallel (rayon), and the XOR loops run over `u64` slices of equal length, which the
//!   compiler vectorises.
//! - [`Elimination::Blocked`], for matrices larger than the last-level cache: the stripe kernel
//!   passes over the whole matrix once per stripe, so there it waits on memory. This one takes
//!   the columns a *panel* of [`PANEL_STRIPES`] stripes at a time. The panel's pivot rows are
//!   found by the stripe method on a narrow copy of the panel's words (which records the rows
//!   it swaps), brought up, and reduced among themselves to an identity on the panel's pivot
//!   columns (`R`). Every row below then gets `Σ x_j·R_j` over the panel's pivots `j`, `x_j`
//!   its own bit there: a product with `R`, done one tile of 8 words at a time
//!   with the tables of every 8-column group of the panel for that tile (512 KiB, in the
//!   core's second-level cache), each row's tile kept in registers while all its entries are
//!   added. The backward pass (last panel first) does the same for the rows above, on the
//!   words holding a non-pivot column only: a row's words in a panel do not change after the
//!   forward pass, and a word of pivot columns alone ends as the identity's, which is written
//!   directly at the end. On one core this is 0.8–0.9 of M4RI's time at 16384 × 16384 and
//!   32768 × 32768, where M4RI uses its asymptotically faster PLE decomposition.
//!
//! The kernels live one a file: `plain.rs`, `four_russians.rs` (the stripe kernel) and
//! `blocked.rs` (the panel kernel); this file holds the matrix, the choice among them
//! ([`echelonize`]) and the solution read from the reduced form ([`solve_with`]).

mod blocked;
mod four_russians;
mod plain;
#[cfg(test)]
mod tests;

// Public with the `kernels` feature; otherwise only the documentation and the tests name it.
#[cfg_attr(not(feature = "kernels"), allow(unused_imports))]
pub use blocked::PANEL_STRIPES;
use blocked::echelonize_blocked;
use four_russians::{PARALLEL_MIN_WORDS, echelonize_four_russians};
use plain::echelonize_plain;

use crate::bounded::Stop;

/// A dense 0/1 matrix stored row by row, `words` 64-bit words per row.
///
/// Column `c` of row `r` is bit `c % 64` of word `c / 64` of the row; bits past the last column
/// are kept 0.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BitMatrix {
    /// The number of rows.
    pub rows: usize,
    /// The number of columns.
    pub cols: usize,
    words: usize,
    data: Vec<u64>,
}

impl BitMatrix {
    /// A `rows × cols` matrix of zeros.
    pub fn zeros(rows: usize, cols: usize) -> Self {
        let words = cols.div_ceil(64);
        BitMatrix { rows, cols, words, data: vec![0; rows * words] }
    }

    /// The matrix with entry `(r, c)` equal to `f(r, c)`.
    pub fn from_fn(rows: usize, cols: usize, mut f: impl FnMut(usize, usize) -> bool) -> Self {
        let mut m = BitMatrix::zeros(rows, cols);
        for r in 0..rows {
            for c in 0..cols {
                if f(r, c) {
                    m.flip(r, c);
                }
            }
        }
        m
    }

    /// The entry at row `r`, column `c`.
    pub fn get(&self, r: usize, c: usize) -> bool {
        self.data[r * self.words + c / 64] >> (c % 64) & 1 == 1
    }

    /// Flips the entry at row `r`, column `c`.
    pub fn flip(&mut self, r: usize, c: usize) {
        self.data[r * self.words + c / 64] ^= 1 << (c % 64);
    }

    /// Sets the entry at row `r`, column `c`.
    pub fn set(&mut self, r: usize, c: usize, value: bool) {
        if self.get(r, c) != value {
            self.flip(r, c);
        }
    }

    /// The number of 64-bit words in a row, `ceil(cols / 64)`.
    pub(crate) fn words_per_row(&self) -> usize {
        self.words
    }

    #[cfg(test)]
    /// Row `r` as words (column `c` is bit `c % 64` of word `c / 64`).
    pub(crate) fn row(&self, r: usize) -> &[u64] {
        &self.data[r * self.words..(r + 1) * self.words]
    }

    /// Row `r` as mutable words. Bits past the last column must be left 0 (the solvers clear
    /// them before they start).
    pub(crate) fn row_mut(&mut self, r: usize) -> &mut [u64] {
        &mut self.data[r * self.words..(r + 1) * self.words]
    }

    #[cfg(test)]
    /// All rows back to back, [`words_per_row`](Self::words_per_row) words each.
    pub(crate) fn as_words(&self) -> &[u64] {
        &self.data
    }

    #[cfg(test)]
    /// Whether row `r` is 0 in columns `0..end`.
    pub(crate) fn row_is_zero_before(&self, r: usize, end: usize) -> bool {
        let row = self.row(r);
        let full = end / 64;
        row[..full].iter().all(|&w| w == 0)
            && (end.is_multiple_of(64) || row[full] & ((1u64 << (end % 64)) - 1) == 0)
    }

    /// Sets the unused bits of every row's last word to 0.
    fn clear_padding(&mut self) {
        let used = self.cols % 64;
        if used != 0 {
            let mask = (1u64 << used) - 1;
            for r in 0..self.rows {
                self.data[(r + 1) * self.words - 1] &= mask;
            }
        }
    }

    /// The rows before row `r` and the rows from `r` on, as mutable words.
    pub(crate) fn split_at_row_mut(&mut self, r: usize) -> (&mut [u64], &mut [u64]) {
        self.data.split_at_mut(r * self.words)
    }

    /// Exchanges rows `a` and `b`.
    pub(crate) fn swap_rows(&mut self, a: usize, b: usize) {
        if a != b {
            let w = self.words;
            let (lo, hi) = (a.min(b), a.max(b));
            let (first, second) = self.data.split_at_mut(hi * w);
            first[lo * w..(lo + 1) * w].swap_with_slice(&mut second[..w]);
        }
    }

    /// `row[dst] ^= row[src]`, words from `from_word` on.
    fn xor_row_into(&mut self, src: usize, dst: usize, from_word: usize) {
        let w = self.words;
        let (s, d) = if src < dst {
            let (a, b) = self.data.split_at_mut(dst * w);
            (&a[src * w..(src + 1) * w], &mut b[..w])
        } else {
            let (a, b) = self.data.split_at_mut(src * w);
            (&b[..w] as &[u64], &mut a[dst * w..(dst + 1) * w])
        };
        for (x, y) in d[from_word..].iter_mut().zip(&s[from_word..]) {
            *x ^= *y;
        }
    }
}

/// Which elimination kernel [`solve_with`] and [`echelonize`] run. All give the same result.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Elimination {
    /// Blocked from [`BLOCKED_MIN_WORDS`] words of matrix and [`BLOCKED_MIN_COLS`] rows and
    /// eligible columns on, else Four Russians from [`FOUR_RUSSIANS_MIN_COLS`] eligible columns and 64
    /// rows on, plain below.
    #[default]
    Auto,
    /// Column by column, one row XOR per nonzero entry of the pivot column.
    Plain,
    /// The Method of Four Russians on 64-column stripes (see the module documentation).
    FourRussians,
    /// The Four Russians on panels of [`PANEL_STRIPES`] stripes, each panel's row updates done
    /// in one pass over the rows, a cache-sized tile of words at a time (see the module
    /// documentation).
    Blocked,
}

/// [`Elimination::Auto`] uses the Four Russians from this many eligible columns on.
pub const FOUR_RUSSIANS_MIN_COLS: usize = 128;

/// [`Elimination::Auto`] uses the blocked kernel when the matrix has at least this many rows and
/// eligible columns, and [`BLOCKED_MIN_WORDS`] words.
pub const BLOCKED_MIN_COLS: usize = 8192;

/// [`Elimination::Auto`] uses the blocked kernel from this many 64-bit words of matrix on
/// (16 MiB: from about 11,600 × 11,600 on). On the machine the kernels were tuned on (a 32 MiB
/// last-level cache) the blocked kernel was faster from there on for square matrices (176 ms
/// against 202 ms at 11,600²; 0.72 s against 0.97–1.26 s at 16384² on one core), and slower
/// for tall or wide ones of the same size (64,000 × 2100: 90 ms against 52 ms; 2100 × 64,000:
/// 106 ms against 96 ms), where its pivot search on each panel's narrow copy, on one thread,
/// weighs more: hence [`BLOCKED_MIN_COLS`] on both sides.
pub const BLOCKED_MIN_WORDS: usize = 1 << 21;

/// The outcome of [`solve`].
#[derive(Clone, Debug)]
pub struct Gf2Solution {
    /// The number of pivots.
    pub rank: usize,
    /// One solution (free unknowns 0), or `None` when the system is inconsistent.
    pub solution: Option<Vec<bool>>,
    /// A basis of the kernel, one vector per free column.
    pub kernel_basis: Vec<Vec<bool>>,
}

/// Solves `A·x = b` over GF(2). `augmented` is `[A | b]`: `cols - 1` unknowns and the right side
/// in the last column.
pub fn solve(m: BitMatrix) -> Gf2Solution {
    solve_with(m, Elimination::Auto)
}

/// [`solve`] with a chosen elimination kernel.
pub fn solve_with(mut m: BitMatrix, how: Elimination) -> Gf2Solution {
    m.clear_padding();
    let unknowns = m.cols - 1;
    let pivot_cols = echelonize(&mut m, unknowns, how);
    let rank = pivot_cols.len();
    let consistent = (rank..m.rows).all(|r| !m.get(r, unknowns));
    let solution = consistent.then(|| {
        let mut x = vec![false; unknowns];
        for (row, &c) in pivot_cols.iter().enumerate() {
            x[c] = m.get(row, unknowns);
        }
        x
    });
    let mut is_pivot = vec![false; unknowns];
    for &c in &pivot_cols {
        is_pivot[c] = true;
    }
    let kernel_basis = (0..unknowns)
        .filter(|&f| !is_pivot[f])
        .map(|f| {
            let mut v = vec![false; unknowns];
            v[f] = true;
            for (row, &c) in pivot_cols.iter().enumerate() {
                v[c] = m.get(row, f);
            }
            v
        })
        .collect();
    Gf2Solution { rank, solution, kernel_basis }
}

/// Brings the first `eligible` columns of `m` to reduced row echelon form by row operations on
/// whole rows (columns from `eligible` on, such as right-hand sides, are carried along).
///
/// Returns the pivot columns in increasing order. Afterwards row `k` is the pivot row of
/// `pivots[k]` (1 there), every other row is 0 in every pivot column, and rows `rank..` are 0
/// in all of the first `eligible` columns. The result does not depend on `how`.
pub fn echelonize(m: &mut BitMatrix, eligible: usize, how: Elimination) -> Vec<usize> {
    assert!(eligible <= m.cols, "{eligible} eligible columns of {}", m.cols);
    m.clear_padding();
    // Its work, counted up front: a word an entry a pivot, about 10,000 words a search node.
    let steps = m.rows.min(eligible) as u64;
    crate::bounded::work((m.rows as u64).saturating_mul(m.words as u64).saturating_mul(steps) / 10_000);
    let how = match how {
        Elimination::Auto
            if eligible >= BLOCKED_MIN_COLS
                && m.rows >= BLOCKED_MIN_COLS
                && m.rows * m.words >= BLOCKED_MIN_WORDS =>
        {
            Elimination::Blocked
        }
        Elimination::Auto if eligible >= FOUR_RUSSIANS_MIN_COLS && m.rows >= 64 => Elimination::FourRussians,
        Elimination::Auto => Elimination::Plain,
        how => how,
    };
    let stop = Stop::here();
    match how {
        Elimination::Blocked => rayon::scope(|_| stop.carry(|| echelonize_blocked(m, eligible))),
        Elimination::FourRussians if m.rows * m.words < PARALLEL_MIN_WORDS => {
            echelonize_four_russians(m, eligible)
        }
        // On a worker thread of the pool, each stripe's parallel row update is cheap to start.
        Elimination::FourRussians => rayon::scope(|_| stop.carry(|| echelonize_four_russians(m, eligible))),
        _ => echelonize_plain(m, eligible),
    }
}
/// The set bits of `x`, lowest first.
#[inline]
fn bits(mut x: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (x != 0).then(|| {
            let b = x.trailing_zeros() as usize;
            x &= x - 1;
            b
        })
    })
}
/// Which words of `m`'s rows hold a column that is not one of `pivots` (carried columns
/// included); the padding past the last column does not count.
fn open_words(m: &BitMatrix, pivots: &[usize]) -> Vec<bool> {
    let w = m.words;
    let mut pivot_bits = vec![0u64; w];
    for &c in pivots {
        pivot_bits[c / 64] |= 1 << (c % 64);
    }
    let used = |j: usize| {
        if j + 1 == w && !m.cols.is_multiple_of(64) { (1u64 << (m.cols % 64)) - 1 } else { u64::MAX }
    };
    (0..w).map(|j| pivot_bits[j] != used(j)).collect()
}

/// Increasing word numbers merged into ranges `(first, end)` of consecutive words.
fn word_ranges(words: impl IntoIterator<Item = usize>) -> Vec<(usize, usize)> {
    let mut ranges: Vec<(usize, usize)> = Vec::new();
    for j in words {
        match ranges.last_mut() {
            Some(last) if last.1 == j => last.1 = j + 1,
            _ => ranges.push((j, j + 1)),
        }
    }
    ranges
}
