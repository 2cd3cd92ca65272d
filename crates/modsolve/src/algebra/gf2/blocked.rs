//! The blocked kernel, for matrices larger than the last-level cache: the Four Russians on
//! panels of [`PANEL_STRIPES`] stripes, each panel's row updates done in one pass over the rows,
//! a cache-sized tile of words at a time (see the parent module's documentation).
//! [`Elimination::Auto`](super::Elimination::Auto) chooses it from
//! [`BLOCKED_MIN_WORDS`](super::BLOCKED_MIN_WORDS) words of matrix with at least
//! [`BLOCKED_MIN_COLS`](super::BLOCKED_MIN_COLS) rows and eligible columns.

use super::four_russians::{echelonize_four_russians, stripe_pivots};
use super::plain::echelonize_plain;
use super::{BitMatrix, FOUR_RUSSIANS_MIN_COLS, bits, open_words, word_ranges};
use crate::bounded::checkpoint;
use rayon::prelude::*;

/// Stripes per panel in the blocked kernel: the rows below a panel are streamed once for its
/// `64 · PANEL_STRIPES` pivot columns instead of once per stripe.
pub const PANEL_STRIPES: usize = 4;
/// Words per column tile of a panel update: every group's table for one tile stays in the core's
/// own cache (at most `8 · PANEL_STRIPES · 256 · TILE_WORDS` words, 512 KiB) while the rows go
/// by.
pub(super) const TILE_WORDS: usize = 8;
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
pub(super) fn echelonize_blocked(m: &mut BitMatrix, eligible: usize) -> Vec<usize> {
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
