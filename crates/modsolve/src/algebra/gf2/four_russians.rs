//! The Method of Four Russians on 64-column stripes (as in M4RI): see the parent module's
//! documentation for the method. [`Elimination::Auto`](super::Elimination::Auto) chooses it
//! from [`FOUR_RUSSIANS_MIN_COLS`](super::FOUR_RUSSIANS_MIN_COLS) eligible columns and 64 rows
//! on, up to the sizes where the blocked kernel takes over; the blocked kernel also uses its
//! pivot search ([`stripe_pivots`]) on each panel, and the whole kernel to reduce a large
//! panel's pivot rows among themselves.

use super::{BitMatrix, bits, open_words, word_ranges};
use crate::bounded::checkpoint;
use rayon::prelude::*;

/// Rows per parallel task when a stripe is cleared.
const ROWS_PER_TASK: usize = 64;
/// How many rows ahead the row updates touch rows to get their loads going.
const AHEAD: usize = 4;
/// Below this many words of row updates a stripe is cleared on one thread.
pub(super) const PARALLEL_MIN_WORDS: usize = 1 << 16;
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

/// [`echelonize`](super::echelonize) by stripes of 64 columns (see the module documentation).
pub(super) fn echelonize_four_russians(m: &mut BitMatrix, eligible: usize) -> Vec<usize> {
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
pub(super) fn stripe_pivots(
    m: &mut BitMatrix,
    ws: usize,
    allowed: u64,
    r0: usize,
    perm: &mut [usize],
) -> u64 {
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
    let (groups, offset) = stripe_groups(mask, width);
    tables.resize(offset * span, 0);
    let (top, rest) = m.data.split_at_mut(r0 * w);
    let (pivot_rows, bottom) = rest.split_at_mut(k * w);
    fill_tables(tables, &groups, pivot_rows, w, ranges, span);
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

/// The groups of `width` columns of a stripe whose pivot bits are `mask` that hold pivots, and
/// the number of table entries they need.
fn stripe_groups(mask: u64, width: usize) -> (Vec<Group>, usize) {
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
    (groups, offset)
}

/// Fills each group's table in `tables` (`span` words an entry, the group's entries from its
/// `offset` on) with the XOR combinations of its pivot rows (`pivot_rows`, `w` words each),
/// taken on the words in `ranges` packed side by side.
fn fill_tables(
    tables: &mut [u64],
    groups: &[Group],
    pivot_rows: &[u64],
    w: usize,
    ranges: &[(usize, usize)],
    span: usize,
) {
    let mut src = vec![0u64; span];
    for grp in groups {
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
