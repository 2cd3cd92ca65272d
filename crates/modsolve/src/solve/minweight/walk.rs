//! The walk itself: a part's blocks cut into pieces that run on every core ([`Prepared::walk`]),
//! each piece walked in Gray-code order over its outer combinations ([`walk_piece`]), every
//! block bounded and, when the bound does not rule it out, all its inner combinations weighed
//! at once by a Walsh–Hadamard transform ([`walsh_hadamard`]), over positions reordered by
//! inner column ([`Layout`]).

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::time::Instant;

use rayon::prelude::*;

use super::blocks::{Action, Blocks};
use super::{Coset, MinWeight, Part, Prepared, bit, outer_combination, pack, weight, xor_into};
use crate::solve::search::Budget;

impl Prepared {
    /// Walks `part` within `budget`. With `below`, only plans lighter than `below` are looked
    /// for (the bound starts there when the descent's plan is not lighter): a plan returned
    /// heavier than `below - 1` with `complete` says that no plan of the part is lighter than
    /// `below`; a plan at most `below - 1` is the part's lightest, as without `below`.
    pub(crate) fn walk(&self, budget: Budget, part: Part, below: Option<u32>) -> MinWeight {
        let started = Instant::now();
        let first = self.blocks.first.clone();
        let first_weight = self.first_weight;
        let Some(layout) = &self.layout else {
            return MinWeight {
                best: first,
                weight: first_weight,
                complete: self.dimension == 0,
                nodes: 0,
                at: None,
            };
        };
        let bound = match below {
            None => first_weight,
            // Nothing weighs less than 0.
            Some(0) => {
                return MinWeight { best: first, weight: first_weight, complete: true, nodes: 0, at: None };
            }
            Some(s) => first_weight.min(s - 1),
        };
        let low = layout.low;
        // The part's blocks, cut into pieces that run on every core: never across a chunk (the
        // Gray code restarts there), and enough of them to keep every core busy.
        let (lo, hi) = part.range(self.blocks.units());
        let (lo, hi) = (lo as u64, hi as u64);
        let chunk = 1u64 << low;
        let piece = (hi - lo).div_ceil(PIECES).clamp(1, chunk).max(CHECK.min(chunk));
        let mut pieces: Vec<(u64, u64)> = Vec::new();
        let mut at = lo;
        while at < hi {
            let end = hi.min(at + piece).min((at / chunk + 1) * chunk);
            pieces.push((at, end));
            at = end;
        }
        let shared = Shared {
            best: AtomicU32::new(bound),
            stop: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            budget,
            started,
        };
        let n = self.bits;
        let stop = crate::bounded::Stop::here();
        let found: Vec<Option<Candidate>> = pieces
            .into_par_iter()
            .map(|(from, to)| {
                stop.carry(|| {
                    if n <= i16::MAX as usize {
                        walk_piece::<i16>(layout, &shared, from, to)
                    } else {
                        walk_piece::<i32>(layout, &shared, from, to)
                    }
                })
            })
            .collect();
        let complete = !shared.stop.load(Ordering::Relaxed);
        let nodes = shared.nodes.load(Ordering::Relaxed);
        let best = found.into_iter().flatten().min_by_key(|c| (c.weight, c.position, c.t));
        match best {
            Some(c) if c.weight <= bound => {
                let o = outer_combination(c.position, low);
                let x = self.blocks.plan(&self.x0, o, c.t);
                let at = self.coordinates(o, c.t);
                MinWeight { weight: weight(&x), best: x, complete, nodes, at: Some(at) }
            }
            _ => MinWeight { best: first, weight: first_weight, complete, nodes, at: None },
        }
    }
}

impl Layout {
    /// The walk's data for the blocks of `coset`: positions grouped by inner column (the
    /// symmetries' actions are taken from `blocks`).
    pub(super) fn new(coset: &Coset, blocks: &mut Blocks) -> Layout {
        let n = coset.bits;
        let (inner, outer) = (&blocks.inner, &blocks.outer);
        let b = inner.len();
        let column =
            |p: usize| inner.iter().enumerate().fold(0usize, |c, (i, g)| c | usize::from(bit(g, p)) << i);
        let columns: Vec<usize> = (0..n).map(column).collect();
        let mut size = vec![0u32; 1 << b];
        for &c in &columns {
            size[c] += 1;
        }
        // A group of one position adds nothing to the bound (min(A, 1 − A) = 0): those go last and
        // are read only when a block is walked.
        let single = |c: usize| c != 0 && size[c] == 1;
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by_key(|&p| (single(columns[p]), columns[p]));
        let permute = |v: &[u64]| pack(order.iter().map(|&p| bit(v, p)));
        let mut groups = Vec::new();
        let mut singles = Vec::new();
        let mut start = 0usize;
        for c in (0..1usize << b).filter(|&c| size[c] > 0 && !single(c)) {
            start += size[c] as usize;
            // The prefix popcount up to the group's end: whole words below `word`, then `mask`.
            let (word, mask) = if start.is_multiple_of(64) {
                (start / 64 - 1, u64::MAX)
            } else {
                (start / 64, (1u64 << (start % 64)) - 1)
            };
            groups.push(Group { column: c, size: size[c], word, mask });
        }
        for (position, &p) in order.iter().enumerate().skip(start) {
            singles.push((columns[p], position));
        }
        Layout {
            x0: permute(&coset.x0),
            outer: outer.iter().map(|g| permute(g)).collect(),
            groups,
            singles,
            b,
            actions: std::mem::take(&mut blocks.actions),
            low: blocks.low(),
        }
    }
}

/// A part's blocks are cut into about this many pieces (fewer when a piece would be shorter
/// than [`CHECK`] blocks), which run on every core.
const PIECES: u64 = 256;

/// Blocks a piece walks between two looks at the shared state (the stop, the budget).
const CHECK: u64 = 1 << 12;

/// A block counts one node, and one more for every this many cells its bound and transform read
/// or write: a block skipped for the symmetries costs its Gray-code step, one ruled out by its
/// bound reads the plan's words, and a block walked transforms `2^b` entries `b + 1` times,
/// thousands of times more. Which blocks are walked depends on how soon a light plan is found,
/// which depends on the order the cores take the pieces in; counted by the cells, the budget
/// stands for the same work in every order (a block apiece, the nodes of a tall board stood for
/// 37 times more cells in one order than in another). One node a block keeps the default's
/// time where most blocks are skipped (square boards, 7 of 8).
const CELLS_PER_NODE: u64 = 128;

/// Nodes of cells ([`CELLS_PER_NODE`]) a piece gathers before it counts them against the shared
/// budget, at the latest: what a budget can be overrun by, per piece running.
const CHARGE: u64 = 1 << 10;
/// The walk's data in the reordered positions.
pub(super) struct Layout {
    x0: Vec<u64>,
    outer: Vec<Vec<u64>>,
    /// The groups of two positions or more, and group 0, in position order.
    groups: Vec<Group>,
    /// `(column, position)` of the groups of one position.
    singles: Vec<(usize, usize)>,
    b: usize,
    /// The symmetries on the outer coordinates; a block is walked only when no image is smaller.
    pub(super) actions: Vec<Action>,
    /// The outer bits below a chunk's.
    low: usize,
}

/// The positions of one inner column, a contiguous run ending where `mask` ends in `word`.
#[derive(Clone, Copy)]
struct Group {
    column: usize,
    size: u32,
    word: usize,
    mask: u64,
}

struct Shared {
    best: AtomicU32,
    stop: AtomicBool,
    nodes: AtomicU64,
    budget: Budget,
    started: Instant,
}

#[derive(Clone, Copy, Debug)]
struct Candidate {
    weight: u32,
    /// The block's position in the walk.
    position: u64,
    t: usize,
}

/// Outer generators combined ahead of the walk: the Gray-code steps between two walked blocks
/// mostly change the lowest outer bits, and one table entry applies any combination of them.
const TABLE_BITS: usize = 4;

/// Walks the blocks at positions `from..to` of one chunk (the top bits of the outer
/// combination, fixed), in Gray-code order over the `low` bits below; the best block it finds
/// at or below the shared bound.
///
/// The plan `x` of a block is brought up to date only when the block is walked (most are
/// skipped for the symmetries): the steps since the last walked block are applied together,
/// their lowest [`TABLE_BITS`] bits by one entry of a table of combinations.
fn walk_piece<L: Lane>(layout: &Layout, shared: &Shared, from: u64, to: u64) -> Option<Candidate> {
    let low = layout.low;
    // The outer combination at `from`, and the plan of it.
    let mut o = outer_combination(from, low);
    let mut x = layout.x0.clone();
    for (i, g) in layout.outer.iter().enumerate() {
        if o >> i & 1 == 1 {
            xor_into(&mut x, g);
        }
    }
    let words = x.len();
    let table_bits = low.min(TABLE_BITS);
    let mut table = vec![0u64; words << table_bits];
    for combination in 1..1usize << table_bits {
        let i = combination.trailing_zeros() as usize;
        let (done, rest) = table.split_at_mut(combination * words);
        let from = &done[(combination & (combination - 1)) * words..][..words];
        for ((d, a), b) in rest[..words].iter_mut().zip(from).zip(&layout.outer[i]) {
            *d = a ^ b;
        }
    }
    let table_mask = (1u64 << table_bits) - 1;
    let mut scratch = Scratch::<L>::new(layout);
    let mut found: Option<Candidate> = None;
    // The outer combination `x` holds.
    let mut applied = o;
    // The images of the current outer combination under each symmetry.
    let mut images: Vec<u64> = layout
        .actions
        .iter()
        .map(|a| (0..a.columns.len()).filter(|&i| o >> i & 1 == 1).fold(a.shift, |acc, i| acc ^ a.columns[i]))
        .collect();
    // The cells weighed by blocks' bounds and transforms, and their nodes counted so far.
    let (mut weighed, mut charged) = (0u64, 0u64);
    for position in from..to {
        let owed = weighed / CELLS_PER_NODE - charged;
        let look = (position - from).is_multiple_of(CHECK);
        if look || owed >= CHARGE {
            crate::bounded::checkpoint();
            if shared.stop.load(Ordering::Relaxed) {
                return found;
            }
            // The blocks up to the next look are counted ahead: a piece walked to its end
            // counts each of its blocks once.
            let ahead = if look { CHECK.min(to - position) } else { 0 };
            charged += owed;
            let done = charge(shared, ahead + owed);
            if done >= shared.budget.nodes || shared.budget.expired(shared.started) {
                shared.stop.store(true, Ordering::Relaxed);
                return found;
            }
        }
        if position > from {
            // From one step of the chunk's Gray code to the next: one outer bit flips.
            let i = position.trailing_zeros() as usize;
            o ^= 1 << i;
            for (image, action) in images.iter_mut().zip(&layout.actions) {
                *image ^= action.columns[i];
            }
        }
        // The step: the combination, and each image read, updated and compared.
        scratch.touched.0 += 1 + 3 * images.len() as u64;
        // The block's orbit has the same least weight: only its smallest member is walked.
        if images.iter().any(|&image| image < o) {
            continue;
        }
        let delta = o ^ applied;
        applied = o;
        if delta & table_mask != 0 {
            xor_into(&mut x, &table[(delta & table_mask) as usize * words..][..words]);
        }
        let mut rest = delta & !table_mask;
        while rest != 0 {
            xor_into(&mut x, &layout.outer[rest.trailing_zeros() as usize]);
            rest &= rest - 1;
        }
        let best = shared.best.load(Ordering::Relaxed);
        let before = scratch.touched.0;
        let lightest = scratch.lightest(layout, &x, best);
        weighed += scratch.touched.0 - before;
        if let Some((w, t)) = lightest
            && found.is_none_or(|f| w < f.weight)
        {
            found = Some(Candidate { weight: w, position, t });
            shared.best.fetch_min(w, Ordering::Relaxed);
        }
    }
    charge(shared, weighed / CELLS_PER_NODE - charged);
    found
}

/// Counts `nodes` against the shared budget (and for [`crate::bounded::tallied`]); the nodes
/// counted before them.
fn charge(shared: &Shared, nodes: u64) -> u64 {
    crate::bounded::metered(nodes, 0);
    shared.nodes.fetch_add(nodes, Ordering::Relaxed)
}
/// A walker's working memory for one block at a time.
struct Scratch<L> {
    prefix: Vec<u32>,
    ones: Vec<u32>,
    signed: Vec<L>,
    /// The words, groups and transform entries of the blocks walked.
    touched: crate::bounded::Touched,
}

impl<L: Lane> Scratch<L> {
    fn new(layout: &Layout) -> Self {
        Scratch {
            prefix: vec![0; layout.x0.len()],
            ones: vec![0; layout.groups.len()],
            signed: vec![L::default(); 1 << layout.b],
            touched: Default::default(),
        }
    }

    /// The lightest plan `x + inner(t)` of the block of `x`, as `(weight, t)` (the least `t` of
    /// that weight), when it weighs at most `best`; `None` otherwise.
    fn lightest(&mut self, layout: &Layout, x: &[u64], best: u32) -> Option<(u32, usize)> {
        let Scratch { prefix, ones, signed, touched } = self;
        touched.0 += (x.len() + layout.groups.len()) as u64;
        // The bound: every group on its better side. Giving up part-way rarely pays (a block
        // is ruled out by its last groups), so every group is counted, without branches.
        let mut running = 0u32;
        for (p, &w) in prefix.iter_mut().zip(x) {
            *p = running;
            running += w.count_ones();
        }
        let mut bound = 0u32;
        let mut before = 0u32;
        for (g, a) in layout.groups.iter().zip(ones.iter_mut()) {
            let upto = prefix[g.word] + (x[g.word] & g.mask).count_ones();
            *a = upto - before;
            before = upto;
            bound += (*a).min(g.size - *a);
        }
        if layout.groups.first().is_some_and(|g| g.column == 0) {
            // Group 0 comes first and was counted on its better side; it never flips.
            bound += ones[0] - ones[0].min(layout.groups[0].size - ones[0]);
        }
        if bound > best {
            return None;
        }
        // Every inner combination: weight(t) = Σ A + (Σ e − H(e)(t)) / 2.
        touched.0 += (signed.len() * (layout.b + 1)) as u64;
        signed.fill(L::default());
        let mut total_ones = 0i64;
        let mut total_e = 0i64;
        for (g, &a) in layout.groups.iter().zip(ones.iter()) {
            let e = g.size as i32 - 2 * a as i32;
            signed[g.column] = L::from_i32(e);
            total_ones += i64::from(a);
            total_e += i64::from(e);
        }
        for &(c, position) in &layout.singles {
            let a = i32::from(bit(x, position));
            signed[c] = L::from_i32(1 - 2 * a);
            total_ones += i64::from(a);
            total_e += i64::from(1 - 2 * a);
        }
        walsh_hadamard(signed, layout.b);
        // The greatest transform value gives the lightest plan; its first place (the least `t`)
        // is looked for only when the plan is kept.
        let h = signed.iter().copied().max()?;
        let w = (total_ones + (total_e - h.into()) / 2) as u32;
        (w <= best)
            .then(|| (w, signed.iter().position(|&v| v == h).expect("the maximum is one of the values")))
    }
}

/// The integers the transform runs on: `i16` when the plans are at most `i16::MAX` long (every
/// transform value is a sum of `±e_c` with `Σ |e_c|` at most the length), twice as many to a
/// vector instruction as `i32`.
pub(super) trait Lane:
    Copy + Default + Ord + Into<i64> + std::ops::Add<Output = Self> + std::ops::Sub<Output = Self>
{
    /// `v`, which fits (see above).
    fn from_i32(v: i32) -> Self;
}

impl Lane for i16 {
    #[inline]
    fn from_i32(v: i32) -> Self {
        v as i16
    }
}

impl Lane for i32 {
    #[inline]
    fn from_i32(v: i32) -> Self {
        v
    }
}

/// The Walsh–Hadamard transform in place: `v[t] ← Σ_c v[c]·(−1)^⟨c, t⟩`.
pub(super) fn walsh_hadamard<L: Lane>(v: &mut [L], b: usize) {
    let mut level = 0;
    if b >= 3 {
        // The three lowest levels within each run of 8, written as whole-run shuffles (one
        // vector of 16-bit lanes) rather than pairs.
        for run in v.chunks_exact_mut(8) {
            let mut x: [L; 8] = run.try_into().expect("a run of 8");
            for half in [1, 2, 4] {
                let swapped: [L; 8] = std::array::from_fn(|i| x[i ^ half]);
                x = std::array::from_fn(
                    |i| if i & half == 0 { x[i] + swapped[i] } else { swapped[i] - x[i] },
                );
            }
            run.copy_from_slice(&x);
        }
        level = 3;
    }
    for level in level..b {
        let half = 1usize << level;
        for block in v.chunks_exact_mut(half * 2) {
            let (lo, hi) = block.split_at_mut(half);
            for (x, y) in lo.iter_mut().zip(hi.iter_mut()) {
                let (a, c) = (*x, *y);
                *x = a + c;
                *y = a - c;
            }
        }
    }
}
