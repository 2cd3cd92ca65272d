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

use crate::bounded::{Stop, checkpoint};
use rayon::prelude::*;

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

fn echelonize_plain(m: &mut BitMatrix, eligible: usize) -> Vec<usize> {
    let mut pivot_cols = Vec::new();
    let mut k = 0;
    for c in 0..eligible {
        if k == m.rows {
            break;
        }
        checkpoint();
        let Some(p) = (k..m.rows).find(|&r| m.get(r, c)) else {
            continue;
        };
        m.swap_rows(p, k);
        for r in 0..m.rows {
            if r != k && m.get(r, c) {
                m.xor_row_into(k, r, c / 64);
            }
        }
        pivot_cols.push(c);
        k += 1;
    }
    pivot_cols
}

/// The set bits of `x`, lowest first.
fn bits(mut x: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (x != 0).then(|| {
            let b = x.trailing_zeros() as usize;
            x &= x - 1;
            b
        })
    })
}

/// Rows per parallel task when a stripe is cleared.
const ROWS_PER_TASK: usize = 64;
/// How many rows ahead the row updates touch rows to get their loads going.
const AHEAD: usize = 4;
/// Below this many words of row updates a stripe is cleared on one thread.
const PARALLEL_MIN_WORDS: usize = 1 << 16;
/// The most bytes of tables for one stripe. Tables are read for every row, so they should stay
/// in the caches close to the core while the rows stream by: the number of columns per table
/// shrinks as rows grow longer. 3 MiB keeps `k = 8` up to 8192 columns and `k = 7` for 16384;
/// smaller budgets (all tables in a 1 MiB L2) measured slower on the target machine.
const TABLE_BYTES: usize = 3 << 20;

/// The number of columns per table for rows of `span` words: the largest `k <= 8` whose
/// `ceil(64 / k)` tables of `2^k` entries fit in [`TABLE_BYTES`], at least 4.
fn group_width(span: usize) -> usize {
    (4..=8).rev().find(|&k| 64usize.div_ceil(k) * (1 << k) * span * 8 <= TABLE_BYTES).unwrap_or(4)
}

fn echelonize_four_russians(m: &mut BitMatrix, eligible: usize) -> Vec<usize> {
    let w = m.words;
    let mut tables = Vec::new();
    // Forward: each stripe's pivot rows clear the stripe in the rows below them.
    let mut stripes = Vec::new();
    let mut r0 = 0;
    for ws in 0..eligible.div_ceil(64) {
        if r0 == m.rows {
            break;
        }
        checkpoint();
        let width = (eligible - 64 * ws).min(64);
        let allowed = if width == 64 { u64::MAX } else { (1u64 << width) - 1 };
        let mask = stripe_pivots(m, ws, allowed, r0, &mut []);
        if mask == 0 {
            continue;
        }
        clear_stripe(m, Stripe { word: ws, first_row: r0, mask }, Rows::Below, &[(ws, w)], &mut tables);
        stripes.push(Stripe { word: ws, first_row: r0, mask });
        r0 += mask.count_ones() as usize;
    }
    // Backward, last stripe first: each stripe's pivot rows clear the stripe in the rows above
    // them. Those rows are already 0 in the pivot columns of later stripes, and so are the
    // stripe's own pivot rows, so only words holding a non-pivot column need to be combined.
    let pivots: Vec<usize> =
        stripes.iter().flat_map(|st| bits(st.mask).map(move |b| 64 * st.word + b)).collect();
    let open = open_words(m, &pivots);
    for st in stripes.iter().rev() {
        if st.first_row == 0 {
            continue;
        }
        checkpoint();
        let words = std::iter::once(st.word).chain((st.word + 1..w).filter(|&j| open[j]));
        clear_stripe(m, *st, Rows::Above, &word_ranges(words), &mut tables);
    }
    pivots
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

/// Stripes per panel in the blocked kernel: the rows below a panel are streamed once for its
/// `64 · PANEL_STRIPES` pivot columns instead of once per stripe.
pub const PANEL_STRIPES: usize = 4;
/// Words per column tile of a panel update: every group's table for one tile stays in the core's
/// own cache (at most `8 · PANEL_STRIPES · 256 · TILE_WORDS` words, 512 KiB) while the rows go
/// by.
const TILE_WORDS: usize = 8;
/// The backward pass combines words one at a time (tables of one word a entry, in the core's
/// first cache) for a panel with at most this many open words from it on, a tile at a time
/// otherwise.
const NARROW_BACKWARD_WORDS: usize = 2;
/// How many rows ahead a panel update touches a row's panel words to get its load going.
const PANEL_AHEAD: usize = 8;
/// Rows per parallel task of a panel update, at least (each task builds its own tables).
const PANEL_ROWS_PER_TASK: usize = 512;

/// The pivots of one panel (up to [`PANEL_STRIPES`] stripes from word `word`): rows
/// `first_row..first_row + pivots.len()` are the pivot rows, in increasing order of their pivot
/// column, and are an identity on the panel's pivot columns `64·word + pivots[j]`.
#[derive(Clone, Debug)]
struct Panel {
    word: usize,
    first_row: usize,
    pivots: Vec<usize>,
}

/// The blocked form of [`echelonize_four_russians`] for large matrices: columns are taken a
/// panel of [`PANEL_STRIPES`] stripes at a time. The panel's pivot rows are found on a narrow
/// copy of its words (the stripe kernel, following the rows), brought up, and reduced among
/// themselves to an identity on the panel's pivot columns; then every row below gets, in one
/// pass, the XOR of the pivot rows whose pivot column it has set (a product with the pivot
/// rows, computed by tables of 8 columns as in the stripe kernel, one column tile at a time).
/// The backward pass is the same update on the rows above each panel, last panel first, on the
/// words that still hold a non-pivot column.
fn echelonize_blocked(m: &mut BitMatrix, eligible: usize) -> Vec<usize> {
    let w = m.words;
    if eligible == 0 || m.rows == 0 {
        return Vec::new();
    }
    let stripe_count = eligible.div_ceil(64);
    let mut panels: Vec<Panel> = Vec::new();
    // Each parallel task's tables, kept from one panel to the next: tiles of TILE_WORDS words,
    // and of one word for a backward pass that has only a few words to combine.
    let mut wide: Vec<Vec<[u64; TILE_WORDS]>> = Vec::new();
    let mut narrow: Vec<Vec<[u64; 1]>> = Vec::new();
    let (mut r0, mut ws0) = (0, 0);
    while ws0 < stripe_count && r0 < m.rows {
        checkpoint();
        let words = PANEL_STRIPES.min(stripe_count - ws0);
        let cols = (eligible - 64 * ws0).min(64 * words);
        let chosen = panel_pivot_rows(m, r0, ws0, words, cols);
        if !chosen.is_empty() {
            let k = chosen.len();
            bring_up(m, r0, &chosen);
            let pivots = reduce_pivot_rows(m, r0, k, ws0, cols);
            debug_assert_eq!(pivots.len(), k, "the panel's pivot rows are independent on it");
            let panel = Panel { word: ws0, first_row: r0, pivots };
            update_rows(m, &panel, r0 + k, m.rows, &[(ws0, w)], &mut wide);
            panels.push(panel);
            r0 += k;
        }
        ws0 += words;
    }
    let pivots: Vec<usize> =
        panels.iter().flat_map(|p| p.pivots.iter().map(move |&c| 64 * p.word + c)).collect();
    // Backward, last panel first: each panel's pivot rows clear its pivot columns in the rows
    // above. A row's words in a panel never change after the forward pass (the pivot rows of
    // later panels are 0 there), so which pivot rows it takes is known from them; and a word
    // made of pivot columns only ends as the identity's, so only the words that hold a
    // non-pivot column ("open") are combined, and the others are written once at the end (the
    // tiles combined may leave any value in them before that).
    let open = open_words(m, &pivots);
    for panel in panels.iter().rev() {
        let ranges = word_ranges((panel.word..w).filter(|&j| open[j]));
        let open_count: usize = ranges.iter().map(|&(a, b)| b - a).sum();
        if panel.first_row == 0 || open_count == 0 {
            continue;
        }
        checkpoint();
        if open_count <= NARROW_BACKWARD_WORDS {
            update_rows(m, panel, 0, panel.first_row, &ranges, &mut narrow);
        } else {
            update_rows(m, panel, 0, panel.first_row, &ranges, &mut wide);
        }
    }
    let closed: Vec<usize> = (0..w).filter(|&j| !open[j]).collect();
    for (row, &c) in m.data.chunks_exact_mut(w).zip(&pivots) {
        for &j in &closed {
            row[j] = 0;
        }
        if !open[c / 64] {
            row[c / 64] = 1 << (c % 64);
        }
    }
    pivots
}

/// The rows (from `r0` on) that hold the pivots of the panel of `words` words from `ws0`, whose
/// first `cols` columns are eligible, in the order of their pivot columns: found stripe by stripe
/// on a copy of the panel's words ([`PANEL_STRIPES`] words a row, padded with 0), which follows
/// the rows as it swaps them.
fn panel_pivot_rows(m: &BitMatrix, r0: usize, ws0: usize, words: usize, cols: usize) -> Vec<usize> {
    const P: usize = PANEL_STRIPES;
    let w = m.words;
    let n = m.rows - r0;
    let mut q = BitMatrix::zeros(n, 64 * P);
    for (dst, src) in q.data.chunks_exact_mut(P).zip(m.data[r0 * w..].chunks_exact(w)) {
        dst[..words].copy_from_slice(&src[ws0..ws0 + words]);
    }
    let mut perm: Vec<usize> = (r0..m.rows).collect();
    let mut qr = 0;
    let mut table = vec![[0u64; P]; 8 * 256];
    for s in 0..words {
        if qr == n || 64 * s >= cols {
            break;
        }
        let width = (cols - 64 * s).min(64);
        let allowed = if width == 64 { u64::MAX } else { (1u64 << width) - 1 };
        let mask = stripe_pivots(&mut q, s, allowed, qr, &mut perm);
        if mask == 0 {
            continue;
        }
        // The stripe's pivot rows clear it in the rows below, by tables of 8 columns.
        let stripe = Panel { word: s, first_row: qr, pivots: bits(mask).collect() };
        let (groups, _) = panel_groups(&stripe);
        let k = stripe.pivots.len();
        let (pivot_rows, below) = q.data[qr * P..].split_at_mut(k * P);
        let (pivot_rows, _) = pivot_rows.as_chunks::<P>();
        for grp in &groups {
            fill_table(&mut table[grp.offset..], grp.count, |i| pivot_rows[grp.first + i]);
        }
        let (below, _) = below.as_chunks_mut::<P>();
        for row in below {
            let x = row[s];
            if x & mask != 0 {
                let mut acc = *row;
                for grp in &groups {
                    let entry = &table[grp.offset + grp.index[(x >> grp.shift & 0xff) as usize] as usize];
                    for (a, e) in acc.iter_mut().zip(entry) {
                        *a ^= e;
                    }
                }
                *row = acc;
            }
        }
        qr += k;
    }
    perm.truncate(qr);
    perm
}

/// Moves the rows `chosen` (distinct, from `r0` on) to `r0`, `r0 + 1`, … in that order, by
/// swaps; the rows they displace go where they were.
fn bring_up(m: &mut BitMatrix, r0: usize, chosen: &[usize]) {
    let n = m.rows - r0;
    // `at[i]`: where the row first at `r0 + i` is now; `who[j]`: which row is at `r0 + j`.
    let mut at: Vec<usize> = (0..n).collect();
    let mut who: Vec<usize> = (0..n).collect();
    for (j, &row) in chosen.iter().enumerate() {
        let i = at[row - r0];
        if i != j {
            m.swap_rows(r0 + i, r0 + j);
            let (a, b) = (who[i], who[j]);
            who.swap(i, j);
            at[a] = j;
            at[b] = i;
        }
    }
}

/// Reduces rows `r0..r0 + k` (0 before word `ws0`) among themselves to reduced echelon form on
/// the panel's first `cols` columns from word `ws0`, carrying the words after. Returns the pivot
/// columns, counted from the panel's first column.
fn reduce_pivot_rows(m: &mut BitMatrix, r0: usize, k: usize, ws0: usize, cols: usize) -> Vec<usize> {
    let w = m.words;
    let span = w - ws0;
    let mut t = BitMatrix::zeros(k, 64 * span);
    for (dst, src) in t.data.chunks_exact_mut(span).zip(m.data[r0 * w..].chunks_exact(w)) {
        dst.copy_from_slice(&src[ws0..]);
    }
    let pivots = if k >= 64 && cols >= FOUR_RUSSIANS_MIN_COLS {
        echelonize_four_russians(&mut t, cols)
    } else {
        echelonize_plain(&mut t, cols)
    };
    for (src, dst) in t.data.chunks_exact(span).zip(m.data[r0 * w..].chunks_exact_mut(w)) {
        dst[ws0..].copy_from_slice(src);
    }
    pivots
}

/// One table's worth of a panel's pivot rows: those whose pivot column lies in one group of 8
/// columns of the panel.
struct PanelGroup {
    /// The panel word of the group.
    word: usize,
    /// The group's first column within its word.
    shift: u32,
    /// Index of its first pivot row among the panel's pivot rows.
    first: usize,
    /// Number of pivot rows (pivot columns in the group).
    count: usize,
    /// The group's 8 bits → table index: its pivot bits, packed.
    index: [u8; 256],
    /// First table entry of the group.
    offset: usize,
}

/// The groups of 8 columns of `panel` that hold pivots, and the number of table entries.
fn panel_groups(panel: &Panel) -> (Vec<PanelGroup>, usize) {
    let mut groups: Vec<PanelGroup> = Vec::new();
    let mut offset = 0;
    for (j, &c) in panel.pivots.iter().enumerate() {
        let (word, shift) = (c / 64, (c % 64) as u32 & !7);
        if !matches!(groups.last(), Some(g) if g.word == word && g.shift == shift) {
            if let Some(g) = groups.last() {
                offset += 1 << g.count;
            }
            groups.push(PanelGroup { word, shift, first: j, count: 0, index: [0; 256], offset });
        }
        groups.last_mut().expect("pushed above").count += 1;
    }
    if let Some(g) = groups.last() {
        offset += 1 << g.count;
    }
    for g in &mut groups {
        let mut group_mask = 0u64;
        for &c in &panel.pivots[g.first..g.first + g.count] {
            group_mask |= 1 << (c % 64 - g.shift as usize);
        }
        // index[v] = the bits of v at the group's pivot columns, packed.
        for v in 1..256usize {
            let low = v.trailing_zeros();
            let place = if group_mask >> low & 1 == 1 {
                1 << (group_mask & ((1 << low) - 1)).count_ones()
            } else {
                0
            };
            g.index[v] = g.index[v & (v - 1)] | place;
        }
    }
    (groups, offset)
}

/// Rows `lo..hi` (outside the panel's pivot rows) get the XOR of the panel's pivot rows whose
/// pivot column they have set (read from the rows before any change), on the words in `ranges`
/// (sorted, disjoint, from the panel's first word on).
///
/// The words from the panel's first one on are cut into tiles of `T`, and every tile that meets
/// `ranges` is combined whole: words of such a tile outside `ranges` get the same XOR. The
/// forward pass gives all the words from the panel on; the backward pass gives the open words
/// only, and the other words of their tiles (this panel's or later panels' words made of pivot
/// columns alone, where the pivot rows need not be 0) get values that do not matter: it writes
/// every such word of every pivot row at the end. For each tile every group's table is built (at
/// most `8 · PANEL_STRIPES · 256` entries of a tile each, 512 KiB for tiles of 8 words, which
/// stays in the core's second-level cache), and every row gets all its entries while its tile is
/// in registers.
fn update_rows<const T: usize>(
    m: &mut BitMatrix,
    panel: &Panel,
    lo: usize,
    hi: usize,
    ranges: &[(usize, usize)],
    scratch: &mut Vec<Vec<[u64; T]>>,
) {
    if lo >= hi {
        return;
    }
    let w = m.words;
    let k = panel.pivots.len();
    let (groups, entries) = panel_groups(panel);
    // Tiles of T words from the panel's first word on, those that meet `ranges`.
    let mut tiles: Vec<(usize, usize)> = Vec::new();
    for &(a, b) in ranges {
        for j in (a..b).filter(|&j| j == a || (j - panel.word).is_multiple_of(T)) {
            let start = j - (j - panel.word) % T;
            if tiles.last().is_none_or(|&(s, _)| s != start) {
                tiles.push((start, (start + T).min(w)));
            }
        }
    }
    let (before, rest) = m.data.split_at_mut(panel.first_row * w);
    let (pivot_rows, after) = rest.split_at_mut(k * w);
    let targets: &mut [u64] = if hi <= panel.first_row {
        &mut before[lo * w..hi * w]
    } else {
        let start = lo - panel.first_row - k;
        &mut after[start * w..(hi - panel.first_row - k) * w]
    };
    let pivot_rows = &*pivot_rows;
    let (groups, tiles) = (&groups, &tiles);
    let task = |(block, table): (&mut [u64], &mut Vec<[u64; T]>)| {
        let g = groups.len();
        // Each busy row's number and its table entries, read before any of its words change; a
        // row that has none of the panel's pivot columns set is left alone.
        let mut busy = Vec::new();
        let mut index = Vec::new();
        // The row PANEL_AHEAD places on is touched first, so that its load from memory is under
        // way while this row's entries are worked out (the backward pass is bound by these).
        let rows = block.len() / w;
        for (r, row) in block.chunks_exact(w).enumerate() {
            if r + PANEL_AHEAD < rows {
                std::hint::black_box(block[(r + PANEL_AHEAD) * w + panel.word]);
            }
            let at = index.len();
            let mut any = 0;
            index.extend(groups.iter().map(|grp| {
                let bits = grp.index[(row[panel.word + grp.word] >> grp.shift & 0xff) as usize];
                any |= bits;
                (grp.offset + bits as usize) as u16
            }));
            if any == 0 {
                index.truncate(at);
            } else {
                busy.push(r);
            }
        }
        // Entries are numbered below 2^16, so a table of 2^16 entries needs no bounds checks
        // (only the entries in use are ever touched, and so given memory). It is kept from one
        // panel to the next.
        if table.is_empty() {
            *table = vec![[0u64; T]; 1 << 16];
        }
        let table: &mut [[u64; T]; 1 << 16] = (&mut table[..]).try_into().expect("2^16 entries");
        for &(a, b) in tiles {
            // A tile shorter than T (the last of a row) is padded with 0.
            let len = b - a;
            for grp in groups {
                fill_table(&mut table[grp.offset..], grp.count, |i| {
                    let row = (grp.first + i) * w;
                    let mut src = [0; T];
                    src[..len].copy_from_slice(&pivot_rows[row + a..row + b]);
                    src
                });
            }
            if len == T {
                apply_tile::<T, T>(block, w, a, &busy, &index, g, table);
            } else {
                apply_tile::<T, 0>(block, w, a..b, &busy, &index, g, table);
            }
        }
    };
    debug_assert!(entries <= 1 << 16);
    let rows = hi - lo;
    let tasks = rayon::current_num_threads().min(rows.div_ceil(PANEL_ROWS_PER_TASK)).max(1);
    let per_task = rows.div_ceil(tasks);
    if scratch.len() < tasks {
        scratch.resize_with(tasks, Vec::new);
    }
    if tasks == 1 {
        task((targets, &mut scratch[0]));
    } else {
        targets.par_chunks_mut(per_task * w).zip(scratch.par_iter_mut()).for_each(task);
    }
}

/// `t[v]` for `v < 2^count`: the XOR of `row(i)` over the bits `i` of `v` (each entry from one
/// with a bit fewer).
fn fill_table<const T: usize>(t: &mut [[u64; T]], count: usize, row: impl Fn(usize) -> [u64; T]) {
    t[0] = [0; T];
    for i in 0..count {
        let src = row(i);
        let (done, next) = t.split_at_mut(1 << i);
        for (d, e) in next[..1 << i].iter_mut().zip(done.iter()) {
            *d = std::array::from_fn(|j| e[j] ^ src[j]);
        }
    }
}

/// Words `cols` of the rows `busy` of `block` (`w` words a row) get the XOR of the table
/// entries (of `T` words) listed for them in `index` (`g` a row). `LEN` is `cols.len()` when it
/// is `T` (then the compiler knows it), or 0 for a shorter tile, padded with 0. Rows go two at a
/// time, so that the loads of one overlap the XORs of the other.
#[inline(always)]
fn apply_tile<const T: usize, const LEN: usize>(
    block: &mut [u64],
    w: usize,
    cols: impl TileCols,
    busy: &[usize],
    index: &[u16],
    g: usize,
    table: &[[u64; T]; 1 << 16],
) {
    let (a, len) = cols.start_len::<LEN>();
    let load = |block: &[u64], r: usize| -> [u64; T] {
        let mut x = [0; T];
        x[..len].copy_from_slice(&block[r * w + a..r * w + a + len]);
        x
    };
    let mut pairs = busy.chunks_exact(2);
    let mut lists = index.chunks_exact(2 * g);
    for (pair, list) in (&mut pairs).zip(&mut lists) {
        let (mut x, mut y) = (load(block, pair[0]), load(block, pair[1]));
        let (first, second) = list.split_at(g);
        for (&e, &f) in first.iter().zip(second) {
            let (s, t) = (&table[e as usize], &table[f as usize]);
            for j in 0..T {
                x[j] ^= s[j];
                y[j] ^= t[j];
            }
        }
        block[pair[0] * w + a..pair[0] * w + a + len].copy_from_slice(&x[..len]);
        block[pair[1] * w + a..pair[1] * w + a + len].copy_from_slice(&y[..len]);
    }
    if let [r] = pairs.remainder() {
        let mut x = load(block, *r);
        for &e in &index[index.len() - g..] {
            for (x, s) in x.iter_mut().zip(&table[e as usize]) {
                *x ^= s;
            }
        }
        block[r * w + a..r * w + a + len].copy_from_slice(&x[..len]);
    }
}

/// Where a tile starts and how long it is: a start alone for a whole tile, a range for a short one.
trait TileCols {
    fn start_len<const LEN: usize>(self) -> (usize, usize);
}

impl TileCols for usize {
    fn start_len<const LEN: usize>(self) -> (usize, usize) {
        (self, LEN)
    }
}

impl TileCols for std::ops::Range<usize> {
    fn start_len<const LEN: usize>(self) -> (usize, usize) {
        (self.start, self.end - self.start)
    }
}

/// The pivots of one stripe: rows `first_row..first_row + k` (`k` the number of bits of
/// `mask`) hold them in increasing column order, and are an identity on the pivot columns
/// `64·word + b` for the bits `b` of `mask`.
#[derive(Clone, Copy, Debug)]
struct Stripe {
    word: usize,
    first_row: usize,
    mask: u64,
}

/// The rows a stripe's pivots clear.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Rows {
    Above,
    Below,
}

/// Finds the pivots of stripe `ws` (columns `64·ws + b` for the bits `b` of `allowed`) among
/// rows `r0..`, which are 0 before the stripe. Afterwards rows `r0..r0 + k` are the pivot rows,
/// in increasing order of their pivot column, each 1 in its own pivot column and 0 in the
/// others. Returns the mask of pivot bits. Only pivot rows are changed. Unless `perm` is empty,
/// it follows the rows: its entries are moved as the rows are (`perm[i]` for row `i`).
fn stripe_pivots(m: &mut BitMatrix, ws: usize, allowed: u64, r0: usize, perm: &mut [usize]) -> u64 {
    let w = m.words;
    // `reduced[b]`: the stripe word of the pivot row of bit `b`, at row `row_of[b]`.
    let mut reduced = [0u64; 64];
    let mut row_of = [0usize; 64];
    let mut mask = 0u64;
    let mut k = 0;
    for i in r0..m.rows {
        if mask == allowed {
            break;
        }
        let x0 = m.data[i * w + ws];
        let x = bits(x0 & mask).fold(x0, |x, b| x ^ reduced[b]);
        let fresh = x & allowed;
        if fresh == 0 {
            continue;
        }
        let b = fresh.trailing_zeros() as usize;
        let dst = r0 + k;
        m.swap_rows(i, dst);
        if !perm.is_empty() {
            perm.swap(i, dst);
        }
        for c in bits(x0 & mask) {
            m.xor_row_into(row_of[c], dst, ws);
        }
        for c in bits(mask) {
            if reduced[c] >> b & 1 == 1 {
                m.xor_row_into(dst, row_of[c], ws);
                reduced[c] ^= x;
            }
        }
        reduced[b] = x;
        row_of[b] = dst;
        mask |= 1 << b;
        k += 1;
    }
    if k > 1 {
        // Words before the stripe are 0 in all of these rows.
        let span = w - ws;
        let mut sorted = Vec::with_capacity(k * span);
        for b in bits(mask) {
            sorted.extend_from_slice(&m.data[row_of[b] * w + ws..(row_of[b] + 1) * w]);
        }
        for (j, row) in sorted.chunks_exact(span).enumerate() {
            m.data[(r0 + j) * w + ws..(r0 + j + 1) * w].copy_from_slice(row);
        }
        if !perm.is_empty() {
            let ids: Vec<usize> = bits(mask).map(|b| perm[row_of[b]]).collect();
            perm[r0..r0 + k].copy_from_slice(&ids);
        }
    }
    mask
}

/// The pivot rows whose pivot column lies in one group of columns of a stripe, and the table
/// of their XOR combinations.
struct Group {
    /// The group's first column within the stripe.
    shift: u32,
    /// Mask of the group's columns, shifted down.
    width_mask: u64,
    /// Index of its first pivot row among the stripe's pivot rows.
    first: usize,
    /// Number of pivot rows (pivot columns in the group).
    count: usize,
    /// The group's bits → table index: its pivot bits, packed.
    index: [u8; 256],
    /// First table entry of the group.
    offset: usize,
}

/// Clears the pivot columns of the stripe `st` in the rows above or below its pivot rows by
/// table look-ups: every such row gets the XOR of the pivot rows whose pivot column it has set.
/// Only the words in `ranges` (sorted, disjoint, the first one starting at the stripe's word)
/// are combined; the pivot rows must be 0 elsewhere from the stripe on.
fn clear_stripe(m: &mut BitMatrix, st: Stripe, rows: Rows, ranges: &[(usize, usize)], tables: &mut Vec<u64>) {
    let w = m.words;
    let Stripe { word: ws, first_row: r0, mask } = st;
    let k = mask.count_ones() as usize;
    let span: usize = ranges.iter().map(|&(lo, hi)| hi - lo).sum();
    let width = group_width(span);
    let mut groups = Vec::with_capacity(16);
    let (mut first, mut offset) = (0, 0);
    for start in (0..64).step_by(width) {
        let width_mask = if start + width >= 64 { u64::MAX >> start } else { (1u64 << width) - 1 };
        let group_mask = (mask >> start) & width_mask;
        if group_mask == 0 {
            continue;
        }
        let count = group_mask.count_ones() as usize;
        // index[v] = the bits of v at the group's pivot columns, packed: from v without its
        // lowest bit, plus that bit's place among the pivot bits if it is one.
        let mut index = [0u8; 256];
        for v in 1..=width_mask as usize {
            let low = v.trailing_zeros();
            let place = if group_mask >> low & 1 == 1 {
                1 << (group_mask & ((1 << low) - 1)).count_ones()
            } else {
                0
            };
            index[v] = index[v & (v - 1)] | place;
        }
        groups.push(Group { shift: start as u32, width_mask, first, count, index, offset });
        first += count;
        offset += 1 << count;
    }
    tables.resize(offset * span, 0);
    let (top, rest) = m.data.split_at_mut(r0 * w);
    let (pivot_rows, bottom) = rest.split_at_mut(k * w);
    let mut src = vec![0u64; span];
    for grp in &groups {
        let table = &mut tables[grp.offset * span..(grp.offset + (1 << grp.count)) * span];
        table[..span].fill(0);
        for i in 0..grp.count {
            let row = &pivot_rows[(grp.first + i) * w..(grp.first + i + 1) * w];
            let mut at = 0;
            for &(lo, hi) in ranges {
                src[at..at + hi - lo].copy_from_slice(&row[lo..hi]);
                at += hi - lo;
            }
            let (done, next) = table.split_at_mut((1 << i) * span);
            for (d, s) in next[..(1 << i) * span].chunks_exact_mut(span).zip(done.chunks_exact(span)) {
                for ((d, s), p) in d.iter_mut().zip(s).zip(&src) {
                    *d = s ^ p;
                }
            }
        }
    }
    let tables = &tables[..offset * span];
    let groups = &groups;
    let update = |row: &mut [u64]| {
        let x = row[ws];
        if x & mask == 0 {
            return;
        }
        let mut entries = [0usize; 16];
        for (e, grp) in entries.iter_mut().zip(groups) {
            *e = (grp.offset + grp.index[((x >> grp.shift) & grp.width_mask) as usize] as usize) * span;
        }
        let entries = &entries[..groups.len()];
        let mut at = 0;
        for &(lo, hi) in ranges {
            let len = hi - lo;
            let dst = &mut row[lo..hi];
            for batch in entries.chunks(8) {
                let mut srcs: [&[u64]; 8] = [&[]; 8];
                for (s, &e) in srcs.iter_mut().zip(batch) {
                    *s = &tables[e + at..e + at + len];
                }
                xor_into(dst, &srcs[..batch.len()]);
            }
            at += len;
        }
    };
    let targets = match rows {
        Rows::Above => top,
        Rows::Below => bottom,
    };
    // Rows go by in blocks; the row `AHEAD` places on is touched first (one load per cache
    // line of its combined words) so that its loads are under way while this row is updated.
    let update_block = |block: &mut [u64]| {
        let n = block.len() / w;
        for i in 0..n {
            if i + AHEAD < n {
                let ahead = &block[(i + AHEAD) * w..(i + AHEAD + 1) * w];
                let touch = ranges.iter().flat_map(|&(lo, hi)| ahead[lo..hi].iter().step_by(8));
                std::hint::black_box(touch.fold(0, |a, &b| a ^ b));
            }
            update(&mut block[i * w..(i + 1) * w]);
        }
    };
    if targets.len() / w * span >= PARALLEL_MIN_WORDS {
        targets.par_chunks_mut(w * ROWS_PER_TASK).for_each(update_block);
    } else {
        targets.chunks_mut(w * ROWS_PER_TASK).for_each(update_block);
    }
}

/// `dst ^= srcs[0] ^ srcs[1] ^ …`; every source is at least as long as `dst`.
fn xor_into(dst: &mut [u64], srcs: &[&[u64]]) {
    match srcs.len() {
        1 => xor_n::<1>(dst, srcs),
        2 => xor_n::<2>(dst, srcs),
        3 => xor_n::<3>(dst, srcs),
        4 => xor_n::<4>(dst, srcs),
        5 => xor_n::<5>(dst, srcs),
        6 => xor_n::<6>(dst, srcs),
        7 => xor_n::<7>(dst, srcs),
        8 => xor_n::<8>(dst, srcs),
        _ => unreachable!("a stripe has 1 to 8 groups"),
    }
}

#[inline(always)]
fn xor_n<const N: usize>(dst: &mut [u64], srcs: &[&[u64]]) {
    let n = dst.len();
    let s: [&[u64]; N] = std::array::from_fn(|t| &srcs[t][..n]);
    for j in 0..n {
        let mut acc = dst[j];
        for src in &s {
            acc ^= src[j];
        }
        dst[j] = acc;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng, rngs::StdRng};

    /// The sizes where word boundaries and stripe boundaries are crossed.
    const EDGE_SIZES: [usize; 11] = [1, 2, 63, 64, 65, 127, 128, 129, 255, 256, 257];

    /// `A·x` for the first `x.len()` columns of `a`.
    fn multiply(a: &BitMatrix, x: &[bool]) -> Vec<bool> {
        let mut packed = vec![0u64; a.words_per_row()];
        for (c, &bit) in x.iter().enumerate() {
            if bit {
                packed[c / 64] |= 1 << (c % 64);
            }
        }
        (0..a.rows)
            .map(|r| a.row(r).iter().zip(&packed).map(|(u, v)| (u & v).count_ones()).sum::<u32>() % 2 == 1)
            .collect()
    }

    fn random_matrix(rng: &mut StdRng, rows: usize, cols: usize, density: f64) -> BitMatrix {
        BitMatrix::from_fn(rows, cols, |_, _| rng.random_bool(density))
    }

    /// A `rows × cols` matrix of rank at most `rank`: a product of random factors.
    fn low_rank_matrix(rng: &mut StdRng, rows: usize, cols: usize, rank: usize) -> BitMatrix {
        let left = random_matrix(rng, rows, rank, 0.5);
        let right = random_matrix(rng, rank, cols, 0.5);
        let mut m = BitMatrix::zeros(rows, cols);
        for r in 0..rows {
            for k in 0..rank {
                if left.get(r, k) {
                    for (d, s) in m.row_mut(r).iter_mut().zip(right.row(k)) {
                        *d ^= s;
                    }
                }
            }
        }
        m
    }

    /// Whether row `r` of `a` and `b` agree on columns `0..end`.
    fn same_before(a: &BitMatrix, b: &BitMatrix, r: usize, end: usize) -> bool {
        (0..end).all(|c| a.get(r, c) == b.get(r, c))
    }

    /// `[A | b]` from `A` and a right side.
    fn augment(a: &BitMatrix, b: &[bool]) -> BitMatrix {
        BitMatrix::from_fn(a.rows, a.cols + 1, |r, c| if c < a.cols { a.get(r, c) } else { b[r] })
    }

    /// Random test systems of about `n` unknowns: dense, sparse, low rank, tall and wide, with a
    /// consistent right side and, for the singular ones, a random (usually inconsistent) one.
    fn systems(rng: &mut StdRng, n: usize) -> Vec<(BitMatrix, Option<Vec<bool>>)> {
        let mut out = Vec::new();
        let shapes = [(n, n), (n + n / 2 + 1, n), (n / 2 + 1, n)];
        for (rows, cols) in shapes {
            for kind in 0..3 {
                let a = match kind {
                    0 => random_matrix(rng, rows, cols, 0.5),
                    1 => random_matrix(rng, rows, cols, (2.0 / cols as f64).min(0.5)),
                    _ => {
                        let rank = rng.random_range(0..=rows.min(cols) / 2);
                        low_rank_matrix(rng, rows, cols, rank)
                    }
                };
                let x0: Vec<bool> = (0..cols).map(|_| rng.random_bool(0.5)).collect();
                let b = multiply(&a, &x0);
                out.push((augment(&a, &b), Some(x0)));
                let b: Vec<bool> = (0..rows).map(|_| rng.random_bool(0.5)).collect();
                out.push((augment(&a, &b), None));
            }
        }
        out
    }

    fn check_solution(m: &BitMatrix, out: &Gf2Solution, consistent_by_construction: bool, what: &str) {
        let unknowns = m.cols - 1;
        let a = BitMatrix::from_fn(m.rows, unknowns, |r, c| m.get(r, c));
        let b: Vec<bool> = (0..m.rows).map(|r| m.get(r, unknowns)).collect();
        match &out.solution {
            Some(x) => assert_eq!(multiply(&a, x), b, "{what}: the solution does not reproduce b"),
            None => {
                assert!(!consistent_by_construction, "{what}: a consistent system was called inconsistent")
            }
        }
        assert_eq!(out.kernel_basis.len(), unknowns - out.rank, "{what}");
        for v in &out.kernel_basis {
            assert!(multiply(&a, v).iter().all(|&bit| !bit), "{what}: a kernel vector does not vanish");
        }
    }

    /// Each fast kernel and the plain one give the same reduced row echelon form on the pivot
    /// rows and the eligible columns, rank and consistency, and their solutions and kernels
    /// check out, for `systems` of about `n` unknowns.
    fn kernels_agree_with_plain(rng: &mut StdRng, n: usize, kernels: &[Elimination]) {
        for (case, (m, x0)) in systems(rng, n).into_iter().enumerate() {
            let unknowns = m.cols - 1;
            let mut plain = m.clone();
            let pivots = echelonize(&mut plain, unknowns, Elimination::Plain);
            let slow = solve_with(m.clone(), Elimination::Plain);
            for &how in kernels {
                let what = format!("{how:?} n={n} case={case} ({}×{})", m.rows, m.cols);
                let mut fast = m.clone();
                assert_eq!(echelonize(&mut fast, unknowns, how), pivots, "{what}");
                // The reduced form is unique on the eligible columns; on the right side too when
                // the system is consistent (else `(0 … 0 | 1)` may be added to any pivot row).
                let consistent = (pivots.len()..m.rows).all(|r| !plain.get(r, unknowns));
                let compared = if consistent { m.cols } else { unknowns };
                for r in 0..pivots.len() {
                    assert!(same_before(&plain, &fast, r, compared), "{what}: pivot row {r}");
                }
                for r in pivots.len()..m.rows {
                    assert!(fast.row_is_zero_before(r, unknowns), "{what}: row {r} past the rank");
                }
                let quick = solve_with(m.clone(), how);
                assert_eq!(quick.rank, slow.rank, "{what}");
                assert_eq!(quick.rank, pivots.len(), "{what}");
                assert_eq!(quick.solution, slow.solution, "{what}");
                assert_eq!(quick.kernel_basis, slow.kernel_basis, "{what}");
                check_solution(&m, &quick, x0.is_some(), &what);
            }
        }
    }

    /// At the word and stripe edges.
    #[test]
    fn fast_kernels_agree_with_plain_at_edge_sizes() {
        let mut rng = StdRng::seed_from_u64(20);
        for n in EDGE_SIZES {
            kernels_agree_with_plain(&mut rng, n, &[Elimination::FourRussians, Elimination::Blocked]);
        }
    }

    /// At the edges of the blocked kernel's panels and tiles: systems of one panel and a bit,
    /// of several panels, and with a last tile shorter than the others.
    #[test]
    fn blocked_kernel_agrees_with_plain_across_panels() {
        let mut rng = StdRng::seed_from_u64(23);
        let panel = 64 * PANEL_STRIPES;
        for n in [panel - 1, panel, panel + 1, 2 * panel + 64 * TILE_WORDS + 3, 3 * panel + 100] {
            kernels_agree_with_plain(&mut rng, n, &[Elimination::Blocked]);
        }
    }

    /// Large enough for the row updates to run in parallel, dense and of low rank.
    #[test]
    fn fast_kernels_agree_with_plain_on_large_matrices() {
        let mut rng = StdRng::seed_from_u64(22);
        let n = 2100;
        for a in [random_matrix(&mut rng, n, n, 0.5), low_rank_matrix(&mut rng, n, n, n / 3)] {
            let x0: Vec<bool> = (0..n).map(|_| rng.random_bool(0.5)).collect();
            let b = multiply(&a, &x0);
            let m = augment(&a, &b);
            let mut plain = m.clone();
            let pivots = echelonize(&mut plain, n, Elimination::Plain);
            for how in [Elimination::FourRussians, Elimination::Blocked, Elimination::Auto] {
                let mut fast = m.clone();
                assert_eq!(echelonize(&mut fast, n, how), pivots, "{how:?}");
                assert_eq!(
                    plain.as_words()[..pivots.len() * m.words_per_row()],
                    fast.as_words()[..pivots.len() * m.words_per_row()],
                    "{how:?}"
                );
                let out = solve_with(m.clone(), how);
                check_solution(&m, &out, true, &format!("large, {how:?}"));
            }
        }
    }

    /// Pivots spread over many stripes and rows that only differ past the eligible columns:
    /// columns from `eligible` on are carried, never chosen as pivots.
    #[test]
    fn carried_columns_are_never_pivots() {
        let mut rng = StdRng::seed_from_u64(21);
        for (rows, cols, eligible) in [
            (70, 200, 130),
            (300, 140, 64),
            (129, 129, 1),
            (10, 64, 0),
            (5, 0, 0),
            (0, 70, 70),
            (700, 1300, 1100),
            (1200, 700, 600),
        ] {
            let m = random_matrix(&mut rng, rows, cols, 0.5);
            let mut plain = m.clone();
            let pivots = echelonize(&mut plain, eligible, Elimination::Plain);
            assert!(pivots.iter().all(|&c| c < eligible));
            for how in [Elimination::FourRussians, Elimination::Blocked] {
                let mut fast = m.clone();
                assert_eq!(echelonize(&mut fast, eligible, how), pivots, "{how:?}");
                for r in 0..m.rows {
                    assert!(
                        same_before(&plain, &fast, r, eligible),
                        "{how:?} {rows}×{cols}/{eligible} row {r}"
                    );
                }
            }
        }
    }

    /// At the word edges: solutions reproduce the right side and kernel vectors vanish, and the
    /// rank agrees with the dimension count.
    #[test]
    fn solutions_reconstruct_the_right_side_at_word_edges() {
        let mut rng = StdRng::seed_from_u64(7);
        for &n in &[1usize, 2, 3, 63, 64, 65, 127, 128, 129] {
            for density in [0.05, 0.5] {
                let rows = n;
                let mut m = BitMatrix::zeros(rows, n + 1);
                for r in 0..rows {
                    for c in 0..n {
                        m.set(r, c, rng.random_bool(density));
                    }
                }
                // A consistent right side: A·x0 for a random x0.
                let x0: Vec<bool> = (0..n).map(|_| rng.random_bool(0.5)).collect();
                let b = multiply(&m, &x0);
                for (r, &bit) in b.iter().enumerate() {
                    m.set(r, n, bit);
                }
                let out = solve(m.clone());
                let x = out.solution.expect("consistent by construction");
                assert_eq!(multiply(&m, &x), b, "n={n}");
                assert_eq!(out.kernel_basis.len(), n - out.rank);
                for v in &out.kernel_basis {
                    assert!(multiply(&m, v).iter().all(|&bit| !bit), "n={n}");
                }
            }
        }
    }
}
