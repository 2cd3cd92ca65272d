//! Fewest presses over a mod-2 solution set: the minimum weight of an affine subspace
//! `x0 + span(g_1, …, g_k)` of GF(2)^n, exact, for `k` up to 62.
//!
//! Defining identity: the weight of `x0 + Σ t_i·g_i` is the number of its 1 bits; the answer is
//! a vector of least weight over all `2^k` choices of `t`, and it is *proven* when every choice
//! was either visited or ruled out by a lower bound.
//!
//! How: the basis is split into `b` *inner* generators and `a = k − b` *outer* ones. Positions
//! are grouped by their *inner column* `c(p) ∈ GF(2)^b` (bit `i` of `c(p)` is bit `p` of inner
//! generator `i`), and reordered so that each group is a contiguous run of bits. For a fixed
//! outer combination `y`, let `A_c` be the number of 1 bits of `y` in group `c` and `s_c` the
//! group's size. Adding the inner combination `t` flips exactly the groups with `⟨c, t⟩ = 1`, so
//!
//! `weight(y + inner(t)) = Σ_c A_c + Σ_c e_c·[⟨c, t⟩ = 1]`, with `e_c = s_c − 2·A_c`,
//!
//! which for all `2^b` values of `t` at once is `Σ A + (Σ e − H(e)(t)) / 2`, `H` the
//! Walsh–Hadamard transform (`b·2^b` additions). Before transforming, the bound
//! `A_0 + Σ_{c ≠ 0} min(A_c, s_c − A_c)` (every group on its better side; group 0 never flips)
//! rules out the whole block of `2^b` plans when it exceeds the best weight known. The outer
//! combinations are walked in Gray-code order (the plan brought up to date by XORs of packed
//! words only for the blocks walked, then one masked popcount per run of a group; the transform
//! runs on 16-bit integers when they suffice), split by their top bits into chunks that run on every
//! core (rayon) and share the best weight known through an atomic, so a good plan found by one
//! core prunes the others at once. A greedy descent over the basis gives the first bound.
//!
//! Ties are broken the same way on every run (least weight, then first block in walk order, least
//! `t`), so the plan does not depend on the number of threads, unless a budget cut the walk.

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::time::Instant;

use rayon::prelude::*;

use super::search::Budget;

/// The largest dimension walked whole: `2^62` plans.
pub(crate) const MAX_DIMENSION: usize = 62;

/// The largest dimension walked in parts: `2^70` plans (79×79 Lights Out has `2^64`). The outer
/// generators stay at most [`MAX_OUTER`] (more go inner), so block positions are 64-bit words.
pub(crate) const MAX_PART_DIMENSION: usize = 70;

/// The most outer generators: `2^62` blocks.
const MAX_OUTER: usize = 62;

/// An affine subspace of GF(2)^bits: `x0 + span(basis)`, vectors packed 64 bits per word (bit `j`
/// is bit `j % 64` of word `j / 64`; bits past `bits` are 0).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Coset {
    pub bits: usize,
    pub x0: Vec<u64>,
    pub basis: Vec<Vec<u64>>,
}

/// What [`min_weight`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct MinWeight {
    /// A vector of the set with the least weight found (packed like the coset's).
    pub best: Vec<u64>,
    pub weight: u32,
    /// Whether every vector of the set was visited or ruled out (the weight is the minimum).
    pub complete: bool,
    /// Blocks of `2^b` plans walked or ruled out.
    pub nodes: u64,
    /// Where the walk found `best` ([`Prepared::coordinates`]: each outer generator's
    /// multiple, then each inner one's); `None` when `best` is the descent's plan.
    pub at: Option<Vec<u64>>,
}

/// Packs 0/1 values into words.
pub(crate) fn pack(values: impl ExactSizeIterator<Item = bool>) -> Vec<u64> {
    let mut out = vec![0u64; values.len().div_ceil(64)];
    for (j, bit) in values.enumerate() {
        out[j / 64] |= u64::from(bit) << (j % 64);
    }
    out
}

/// Whether bit `j` of a packed vector is 1.
#[inline]
pub(crate) fn bit(v: &[u64], j: usize) -> bool {
    v[j / 64] >> (j % 64) & 1 == 1
}

#[inline]
fn weight(v: &[u64]) -> u32 {
    v.iter().map(|w| w.count_ones()).sum()
}

#[inline]
fn xor_into(dst: &mut [u64], src: &[u64]) {
    for (a, b) in dst.iter_mut().zip(src) {
        *a ^= b;
    }
}

fn xor(a: &[u64], b: &[u64]) -> Vec<u64> {
    a.iter().zip(b).map(|(x, y)| x ^ y).collect()
}

impl Coset {
    /// The number of vectors of the set is `2^dimension()` once the basis is independent (see
    /// [`Coset::independent`]).
    pub(crate) fn dimension(&self) -> usize {
        self.basis.len()
    }

    /// The same set with an independent basis (dependent vectors dropped).
    pub(crate) fn independent(mut self) -> Coset {
        let mut kept: Vec<Vec<u64>> = Vec::with_capacity(self.basis.len());
        let mut pivots: Vec<usize> = Vec::new();
        for mut v in std::mem::take(&mut self.basis) {
            for (k, &p) in kept.iter().zip(&pivots) {
                if bit(&v, p) {
                    xor_into(&mut v, k);
                }
            }
            if let Some(p) = first_one(&v) {
                // Keep the kept vectors reduced at the new pivot.
                for k in &mut kept {
                    if bit(k, p) {
                        xor_into(k, &v);
                    }
                }
                kept.push(v);
                pivots.push(p);
            }
        }
        self.basis = kept;
        self
    }

    /// The subset with bit `j` equal to 0 for every `j` in `zeros`, or `None` when it is empty.
    pub(crate) fn restricted(mut self, zeros: &[usize]) -> Option<Coset> {
        for &j in zeros {
            match self.basis.iter().position(|g| bit(g, j)) {
                Some(i) => {
                    let pivot = self.basis.swap_remove(i);
                    for g in &mut self.basis {
                        if bit(g, j) {
                            xor_into(g, &pivot);
                        }
                    }
                    if bit(&self.x0, j) {
                        xor_into(&mut self.x0, &pivot);
                    }
                }
                None if bit(&self.x0, j) => return None,
                None => {}
            }
        }
        Some(self)
    }
}

fn first_one(v: &[u64]) -> Option<usize> {
    v.iter().enumerate().find(|&(_, w)| *w != 0).map(|(k, w)| k * 64 + w.trailing_zeros() as usize)
}

/// Lowers the basis vectors' weights: a vector is replaced by its sum with another while that
/// is lighter (the span is unchanged).
fn lighten(basis: &mut [Vec<u64>]) {
    for _ in 0..8 {
        let mut changed = false;
        for i in 0..basis.len() {
            for j in 0..basis.len() {
                if i != j {
                    let sum = xor(&basis[i], &basis[j]);
                    if weight(&sum) < weight(&basis[i]) {
                        basis[i] = sum;
                        changed = true;
                    }
                }
            }
        }
        if !changed {
            break;
        }
    }
}

/// Greedy descent from `x0`: add a basis vector, or a pair, while that lowers the weight.
fn descend(x0: &[u64], basis: &[Vec<u64>]) -> Vec<u64> {
    let mut x = x0.to_vec();
    let mut w = weight(&x);
    loop {
        let mut improved = false;
        for g in basis {
            let y = xor(&x, g);
            let wy = weight(&y);
            if wy < w {
                (x, w, improved) = (y, wy, true);
            }
        }
        if !improved {
            'pairs: for i in 0..basis.len() {
                for j in i + 1..basis.len() {
                    let y: Vec<u64> =
                        x.iter().zip(&basis[i]).zip(&basis[j]).map(|((a, b), c)| a ^ b ^ c).collect();
                    let wy = weight(&y);
                    if wy < w {
                        (x, w, improved) = (y, wy, true);
                        break 'pairs;
                    }
                }
            }
        }
        if !improved {
            return x;
        }
    }
}

/// The inner dimension: groups of about 16 positions or more, so that the bound bites.
fn inner_dimension(bits: usize, k: usize) -> usize {
    let mut b = 0;
    while b < 8 && b < k && (bits >> (b + 1)) >= 12 {
        b += 1;
    }
    b
}

/// One of `count` parts of a walk (`index < count`): the parts are contiguous ranges of the
/// walk's units (see [`Part::range`]), disjoint and covering, whatever the machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Part {
    pub index: u64,
    pub count: u64,
}

impl Part {
    /// The whole walk.
    pub(crate) const WHOLE: Part = Part { index: 0, count: 1 };

    /// The units `lo..hi` of this part among `units`: `⌊units·K/N⌋..⌊units·(K+1)/N⌋`, so parts
    /// in order are consecutive ranges that cover `0..units` exactly once.
    pub(crate) fn range(self, units: u128) -> (u128, u128) {
        let (k, n) = (u128::from(self.index), u128::from(self.count.max(1)));
        // units < 2^64 and K < N <= 2^64: the products fit in 128 bits.
        (units * k / n, units * (k + 1) / n)
    }
}

/// The outer combination of the walk's `position` (its units in walk order): the top bits are
/// the chunk's, the `low` bits below in Gray-code order.
fn outer_combination(position: u64, low: usize) -> u64 {
    let step = position & ((1u64 << low) - 1);
    (position >> low << low) | (step ^ (step >> 1))
}

/// The walk's generators: `inner` (whose blocks the transform walks at once) and `outer` (one
/// block per combination, `2^outer.len()` blocks), the symmetries' actions on the outer
/// combinations, and the greedy descent's plan.
struct Blocks {
    inner: Vec<Vec<u64>>,
    outer: Vec<Vec<u64>>,
    actions: Vec<Action>,
    first: Vec<u64>,
}

impl Blocks {
    fn new(coset: &Coset, symmetries: &[Vec<usize>]) -> Blocks {
        let mut basis = coset.basis.clone();
        lighten(&mut basis);
        let first = descend(&coset.x0, &basis);
        let k = basis.len();
        if k == 0 || k > MAX_PART_DIMENSION {
            return Blocks { inner: Vec::new(), outer: Vec::new(), actions: Vec::new(), first };
        }
        let n = coset.bits;
        // At most MAX_OUTER outer generators: at most 8 inner ones more than the usual.
        let b = inner_dimension(n, k).max(k.saturating_sub(MAX_OUTER));
        // The lightest generators are inner: more positions in group 0, whose bits never flip.
        basis.sort_by_key(|g| weight(g));
        let span = Span::new(&basis);
        let group: Vec<&Vec<usize>> = symmetries
            .iter()
            .filter(|perm| {
                perm.len() == n
                    && perm.iter().all(|&q| q < n)
                    && perm.iter().enumerate().any(|(p, &q)| p != q)
            })
            .filter(|perm| {
                let moved = permuted(&coset.x0, perm);
                span.coordinates(&xor(&moved, &coset.x0)).is_some()
                    && basis.iter().all(|g| span.coordinates(&permuted(g, perm)).is_some())
            })
            .collect();
        // With symmetries the inner subspace must be mapped onto itself: spans of whole orbits.
        let invariant = if group.is_empty() { None } else { invariant_subspace(&basis, &group, b) }
            .filter(|inner| inner.len() + MAX_OUTER >= k);
        let (inner, outer): (Vec<Vec<u64>>, Vec<Vec<u64>>) = match &invariant {
            Some(inner) => {
                let mut chosen = Span::new(inner);
                let mut outer = Vec::new();
                for g in &basis {
                    if chosen.coordinates(g).is_none() {
                        chosen = Span::new(&[chosen.vectors.clone(), vec![g.clone()]].concat());
                        outer.push(g.clone());
                    }
                }
                (inner.clone(), outer)
            }
            None => (basis[..b].to_vec(), basis[b..].to_vec()),
        };
        // Each symmetry on the outer coordinates: o ↦ shift ^ Σ_{i ∈ o} columns[i] (mod the inner
        // span).
        let actions: Vec<Action> = match invariant {
            None => Vec::new(),
            Some(_) => {
                let all = Span::new(&[outer.clone(), inner.clone()].concat());
                let mask = (1u128 << outer.len()) - 1;
                let outer_part = |v: &[u64]| all.coordinates(v).map(|c| (c & mask) as u64);
                group
                    .iter()
                    .filter_map(|perm| {
                        let shift = outer_part(&xor(&permuted(&coset.x0, perm), &coset.x0))?;
                        let columns = outer
                            .iter()
                            .map(|h| outer_part(&permuted(h, perm)))
                            .collect::<Option<Vec<u64>>>()?;
                        Some(Action { shift, columns })
                    })
                    .collect()
            }
        };
        Blocks { inner, outer, actions, first }
    }

    /// Whether the set is walked (else the descent's plan is all there is to say).
    fn walked(&self) -> bool {
        !self.inner.is_empty() || !self.outer.is_empty()
    }

    /// The walk's units: its blocks, `2^a` for `a` outer generators.
    fn units(&self) -> u128 {
        1u128 << self.outer.len()
    }

    /// The outer bits below a chunk's (the top 8, at most, choose the chunk).
    fn low(&self) -> usize {
        let a = self.outer.len();
        a - a.min(8)
    }

    /// The plan of outer combination `o` (bit `i` for outer generator `i`) and inner `t`.
    fn plan(&self, x0: &[u64], o: u64, t: usize) -> Vec<u64> {
        let mut x = x0.to_vec();
        for (i, g) in self.outer.iter().enumerate() {
            if o >> i & 1 == 1 {
                xor_into(&mut x, g);
            }
        }
        for (i, g) in self.inner.iter().enumerate() {
            if t >> i & 1 == 1 {
                xor_into(&mut x, g);
            }
        }
        x
    }
}

/// Every plan of `part` of the walk of `coset`, in walk order (blocks by position, each block's
/// inner combinations in order), with no bound and no symmetry skipping: what the part's walk
/// answers for. `None` when the part holds more than `most` plans.
pub(crate) fn part_plans(
    coset: &Coset,
    symmetries: &[Vec<usize>],
    part: Part,
    most: u64,
) -> Option<Vec<Vec<u64>>> {
    let blocks = Blocks::new(coset, symmetries);
    if !blocks.walked() {
        // One plan, the whole set: the first part holds it.
        let (lo, hi) = part.range(1);
        return Some(if lo < hi { vec![coset.x0.clone()] } else { Vec::new() });
    }
    let (lo, hi) = part.range(blocks.units());
    let inner = 1u64 << blocks.inner.len();
    if (hi - lo).saturating_mul(u128::from(inner)) > u128::from(most) {
        return None;
    }
    let low = blocks.low();
    let mut out = Vec::new();
    for position in lo as u64..hi as u64 {
        let o = outer_combination(position, low);
        for t in 0..inner as usize {
            out.push(blocks.plan(&coset.x0, o, t));
        }
    }
    Some(out)
}

/// The least-weight vector of `coset` (whose basis must be independent and at most
/// [`MAX_DIMENSION`] long), within the budget: its node count bounds the outer blocks walked and
/// its time the wall clock.
///
/// `symmetries` are permutations of the positions (`perm[p]` is where position `p` goes) that
/// may map the set onto itself, such as a square board's rotations; each is checked, and the
/// ones that do let the walk skip every outer block but the first of its orbit.
pub(crate) fn min_weight(coset: &Coset, symmetries: &[Vec<usize>], budget: Budget) -> MinWeight {
    min_weight_part(coset, symmetries, budget, Part::WHOLE)
}

/// [`min_weight`] over one part of the walk: the blocks of [`Part::range`] of the walk's
/// `2^a` blocks (in walk order: chunk by chunk, each in Gray-code order). The plan returned is
/// the part's lightest when it weighs at most the descent's plan, else the descent's (a plan of
/// the set, maybe of another part); `complete` says that no plan of the part is lighter.
pub(crate) fn min_weight_part(
    coset: &Coset,
    symmetries: &[Vec<usize>],
    budget: Budget,
    part: Part,
) -> MinWeight {
    Prepared::new(coset, symmetries).walk(budget, part, None)
}

/// The walk of one set made ready once (the basis lightened, the descent's plan, the
/// symmetries' actions, the positions grouped), to walk any number of its parts: what every
/// part of one set shares, so that a worker that walks many parts pays for it once.
pub(crate) struct Prepared {
    x0: Vec<u64>,
    blocks: Blocks,
    first_weight: u32,
    /// `None` when the set is not walked (no basis, or more than [`MAX_PART_DIMENSION`]).
    layout: Option<Layout>,
    dimension: usize,
    bits: usize,
}

impl Prepared {
    /// Prepares the walk of `coset` (independent basis) under `symmetries` (see [`min_weight`]).
    pub(crate) fn new(coset: &Coset, symmetries: &[Vec<usize>]) -> Prepared {
        let mut blocks = Blocks::new(coset, symmetries);
        let first_weight = weight(&blocks.first);
        let layout = blocks.walked().then(|| Layout::new(coset, &mut blocks));
        Prepared {
            x0: coset.x0.clone(),
            blocks,
            first_weight,
            layout,
            dimension: coset.dimension(),
            bits: coset.bits,
        }
    }

    /// The walk's units (outer blocks), which parts divide; 1 when the set is not walked.
    pub(crate) fn unit_count(&self) -> u128 {
        if self.layout.is_some() { self.blocks.units() } else { 1 }
    }

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

    /// The descent's plan, which every part starts from (packed).
    pub(crate) fn first(&self) -> &[u64] {
        &self.blocks.first
    }

    /// The multiples (0 or 1) of the outer generators in `o`, then of the inner ones in `t`.
    fn coordinates(&self, o: u64, t: usize) -> Vec<u64> {
        let outer = (0..self.blocks.outer.len()).map(|i| o >> i & 1);
        outer.chain((0..self.blocks.inner.len()).map(|i| (t >> i & 1) as u64)).collect()
    }

    /// The plan at coordinates `at` (see [`MinWeight::at`]), when they are coordinates of this
    /// walk and their block is one of `part`'s: what a part's report claims, checked without
    /// walking. `None` otherwise.
    pub(crate) fn plan_at(&self, part: Part, at: &[u64]) -> Option<Vec<u64>> {
        let (a, b) = (self.blocks.outer.len(), self.blocks.inner.len());
        if self.layout.is_none() || at.len() != a + b || at.iter().any(|&v| v > 1) {
            return None;
        }
        let o = at[..a].iter().enumerate().fold(0u64, |o, (i, &v)| o | v << i);
        let t = at[a..].iter().enumerate().fold(0usize, |t, (i, &v)| t | (v as usize) << i);
        // The block's position: the chunk's bits as they are, the Gray code below undone.
        let low = self.blocks.low();
        let mut step = o & ((1u64 << low) - 1);
        let mut shift = 1;
        while shift < 64 {
            step ^= step >> shift;
            shift <<= 1;
        }
        let position = (o >> low << low) | step;
        let (lo, hi) = part.range(self.blocks.units());
        (lo..hi).contains(&u128::from(position)).then(|| self.blocks.plan(&self.x0, o, t))
    }

    /// What the walk is, for the identity of a run of parts: the set's plan, the outer and
    /// inner generators in walk order, and the chunk size, as bytes to hash.
    pub(crate) fn describe(&self, into: &mut Vec<u8>) {
        let words = |into: &mut Vec<u8>, v: &[u64]| {
            into.extend((v.len() as u64).to_le_bytes());
            v.iter().for_each(|w| into.extend(w.to_le_bytes()));
        };
        into.extend(b"mod-2 walk");
        into.extend((self.bits as u64).to_le_bytes());
        into.extend((self.layout.is_some() as u64).to_le_bytes());
        into.extend((self.blocks.low() as u64).to_le_bytes());
        words(into, &self.x0);
        words(into, &self.blocks.first);
        for g in self.blocks.outer.iter().chain(&self.blocks.inner) {
            words(into, g);
        }
        into.extend((self.blocks.outer.len() as u64).to_le_bytes());
    }
}

impl Layout {
    /// The walk's data for the blocks of `coset`: positions grouped by inner column (the
    /// symmetries' actions are taken from `blocks`).
    fn new(coset: &Coset, blocks: &mut Blocks) -> Layout {
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
/// The walk's data in the reordered positions.
struct Layout {
    x0: Vec<u64>,
    outer: Vec<Vec<u64>>,
    /// The groups of two positions or more, and group 0, in position order.
    groups: Vec<Group>,
    /// `(column, position)` of the groups of one position.
    singles: Vec<(usize, usize)>,
    b: usize,
    /// The symmetries on the outer coordinates; a block is walked only when no image is smaller.
    actions: Vec<Action>,
    /// The outer bits below a chunk's.
    low: usize,
}

/// A symmetry acting on outer combinations `o` (bit `i` for outer generator `i`):
/// `o ↦ shift ^ Σ_{i ∈ o} columns[i]`, up to the inner span.
struct Action {
    shift: u64,
    columns: Vec<u64>,
}

/// `v` with position `p` moved to `perm[p]`.
fn permuted(v: &[u64], perm: &[usize]) -> Vec<u64> {
    let mut out = vec![0u64; v.len()];
    for (p, &q) in perm.iter().enumerate() {
        if bit(v, p) {
            out[q / 64] |= 1 << (q % 64);
        }
    }
    out
}

/// Coordinates in a basis: the basis in echelon form, each row with the combination of the
/// original vectors it is (bit `i` for vector `i`).
struct Span {
    vectors: Vec<Vec<u64>>,
    rows: Vec<(usize, Vec<u64>, u128)>,
}

impl Span {
    fn new(vectors: &[Vec<u64>]) -> Span {
        // Up to 128 vectors (bit `i` of a combination for vector `i`).
        let mut rows: Vec<(usize, Vec<u64>, u128)> = Vec::new();
        for (i, v) in vectors.iter().enumerate() {
            let (mut v, mut combination) = (v.clone(), 1u128 << i);
            for (p, row, c) in &rows {
                if bit(&v, *p) {
                    xor_into(&mut v, row);
                    combination ^= c;
                }
            }
            if let Some(p) = first_one(&v) {
                for (_, row, c) in &mut rows {
                    if bit(row, p) {
                        xor_into(row, &v);
                        *c ^= combination;
                    }
                }
                rows.push((p, v, combination));
            }
        }
        Span { vectors: vectors.to_vec(), rows }
    }

    /// The combination of the vectors that gives `v`, or `None` when `v` is not in the span.
    fn coordinates(&self, v: &[u64]) -> Option<u128> {
        let mut v = v.to_vec();
        let mut combination = 0u128;
        for (p, row, c) in &self.rows {
            if bit(&v, *p) {
                xor_into(&mut v, row);
                combination ^= c;
            }
        }
        v.iter().all(|&w| w == 0).then_some(combination)
    }
}

/// A subspace of dimension close to `b` that every symmetry maps onto itself, built from the
/// spans of orbits; `None` when none of at least `b − 2` dimensions is found.
fn invariant_subspace(basis: &[Vec<u64>], group: &[&Vec<usize>], b: usize) -> Option<Vec<Vec<u64>>> {
    let mut chosen: Vec<Vec<u64>> = Vec::new();
    let orbit = |v: &Vec<u64>| -> Vec<Vec<u64>> {
        let mut out = vec![v.clone()];
        out.extend(group.iter().map(|perm| permuted(v, perm)));
        out
    };
    // Orbit sums first (fixed vectors: one dimension each), then sums with one image, then the
    // vectors themselves.
    let mut candidates: Vec<Vec<u64>> = Vec::new();
    for g in basis {
        let images = orbit(g);
        let mut sum = vec![0u64; g.len()];
        for image in &images {
            xor_into(&mut sum, image);
        }
        candidates.push(sum);
    }
    for g in basis {
        for perm in group {
            candidates.push(xor(g, &permuted(g, perm)));
        }
    }
    candidates.extend(basis.iter().cloned());
    for v in candidates {
        if chosen.len() >= b {
            break;
        }
        let mut trial = chosen.clone();
        trial.extend(orbit(&v));
        let independent = Coset { bits: 0, x0: Vec::new(), basis: trial }.independent().basis;
        if independent.len() <= b && independent.len() > chosen.len() {
            chosen = independent;
        }
    }
    (chosen.len() + 2 >= b && !chosen.is_empty()).then_some(chosen)
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
    for position in from..to {
        if (position - from).is_multiple_of(CHECK) {
            crate::bounded::checkpoint();
            if shared.stop.load(Ordering::Relaxed) {
                return found;
            }
            // The blocks up to the next look are counted ahead: a piece walked to its end
            // counts each of its blocks once.
            let done = shared.nodes.fetch_add(CHECK.min(to - position), Ordering::Relaxed);
            crate::bounded::metered(CHECK.min(to - position), 0);
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
        if let Some((w, t)) = scratch.lightest(layout, &x, best)
            && found.is_none_or(|f| w < f.weight)
        {
            found = Some(Candidate { weight: w, position, t });
            shared.best.fetch_min(w, Ordering::Relaxed);
        }
    }
    found
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
trait Lane:
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
fn walsh_hadamard<L: Lane>(v: &mut [L], b: usize) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{RngExt, SeedableRng};

    fn random_vector(rng: &mut StdRng, bits: usize, density: f64) -> Vec<u64> {
        pack((0..bits).map(|_| rng.random_bool(density)))
    }

    /// Every plan of the walk placed by its coordinates: `plan_at` gives it back in the part
    /// whose blocks hold it and in no other part (the Gray code undone), and a part's walk
    /// reports coordinates that `plan_at` places in that part.
    #[test]
    fn coordinates_place_every_plan_in_its_own_part() {
        let mut rng = StdRng::seed_from_u64(44);
        for (bits, k) in [(200usize, 12usize), (64, 14), (40, 16)] {
            let coset = Coset {
                bits,
                x0: random_vector(&mut rng, bits, 0.5),
                basis: (0..k).map(|_| random_vector(&mut rng, bits, 0.3)).collect(),
            }
            .independent();
            let prepared = Prepared::new(&coset, &[]);
            let (a, b) = (prepared.blocks.outer.len(), prepared.blocks.inner.len());
            let low = prepared.blocks.low();
            // Past 8 outer generators the positions below a chunk's are in Gray-code order.
            assert!(bits > 100 || low > 0, "{bits} bits: {a} outer generators");
            for count in [1u64, 3, 7] {
                let parts: Vec<Part> = (0..count).map(|index| Part { index, count }).collect();
                for position in 0..prepared.unit_count() as u64 {
                    let o = outer_combination(position, low);
                    let t = (position as usize * 7) % (1 << b);
                    let at = prepared.coordinates(o, t);
                    assert_eq!(at.len(), a + b);
                    let plan = prepared.blocks.plan(&prepared.x0, o, t);
                    for part in &parts {
                        let (lo, hi) = part.range(prepared.unit_count());
                        let inside = (lo..hi).contains(&u128::from(position));
                        let placed = prepared.plan_at(*part, &at);
                        assert_eq!(placed.as_ref() == Some(&plan), inside, "position {position}, {part:?}");
                        assert_eq!(placed.is_some(), inside);
                    }
                }
                for part in &parts {
                    let found = prepared.walk(Budget { nodes: u64::MAX, time: None }, *part, None);
                    if let Some(at) = &found.at {
                        assert_eq!(prepared.plan_at(*part, at), Some(found.best.clone()), "{part:?}");
                    }
                }
            }
            assert!(prepared.plan_at(Part::WHOLE, &vec![2; a + b]).is_none());
            assert!(prepared.plan_at(Part::WHOLE, &vec![0; a + b + 1]).is_none());
        }
    }

    /// Every vector of the set, by plain enumeration.
    fn brute_minimum(coset: &Coset) -> u32 {
        let k = coset.basis.len();
        (0..1u64 << k)
            .map(|t| {
                let mut x = coset.x0.clone();
                for (i, g) in coset.basis.iter().enumerate() {
                    if t >> i & 1 == 1 {
                        xor_into(&mut x, g);
                    }
                }
                weight(&x)
            })
            .min()
            .unwrap()
    }

    fn in_span(coset: &Coset, v: &[u64]) -> bool {
        let mut target = xor(v, &coset.x0);
        let reduced = coset.clone().independent();
        for g in &reduced.basis {
            let p = first_one(g).unwrap();
            if bit(&target, p) {
                xor_into(&mut target, g);
            }
        }
        target.iter().all(|&w| w == 0)
    }

    /// Random sets of dimension up to 16 and lengths from 1 to 700 bits, sparse and dense
    /// bases, with dependent vectors: the walk's minimum equals plain enumeration, and the
    /// vector it returns lies in the set.
    #[test]
    fn equals_enumeration_on_random_sets() {
        let mut rng = StdRng::seed_from_u64(15);
        for case in 0..300 {
            let bits = [1, 5, 63, 64, 65, 130, 300, 700][case % 8];
            let k = rng.random_range(0..=16usize);
            let density = [0.5, 0.1, 0.02][case % 3];
            let mut basis: Vec<Vec<u64>> = (0..k).map(|_| random_vector(&mut rng, bits, density)).collect();
            if k > 2 && case % 5 == 0 {
                basis.push(xor(&basis[0], &basis[1]));
            }
            let coset = Coset { bits, x0: random_vector(&mut rng, bits, 0.5), basis }.independent();
            let expected = brute_minimum(&coset);
            let found = min_weight(&coset, &[], Budget { nodes: u64::MAX, time: None });
            assert!(found.complete, "case {case}");
            assert_eq!(found.weight, expected, "case {case}: {bits} bits, dimension {}", coset.dimension());
            assert_eq!(weight(&found.best), expected, "case {case}");
            assert!(in_span(&coset, &found.best), "case {case}");
        }
    }

    /// Restricting to zero bits equals filtering the enumeration.
    #[test]
    fn restriction_equals_filtering() {
        let mut rng = StdRng::seed_from_u64(16);
        for case in 0..200 {
            let bits = [6, 40, 100][case % 3];
            let k = rng.random_range(0..=10usize);
            let basis = (0..k).map(|_| random_vector(&mut rng, bits, 0.3)).collect();
            let coset = Coset { bits, x0: random_vector(&mut rng, bits, 0.3), basis }.independent();
            let zeros: Vec<usize> = (0..rng.random_range(0..4)).map(|_| rng.random_range(0..bits)).collect();
            let mut expected: Option<u32> = None;
            let mut count = 0u64;
            for t in 0..1u64 << coset.dimension() {
                let mut x = coset.x0.clone();
                for (i, g) in coset.basis.iter().enumerate() {
                    if t >> i & 1 == 1 {
                        xor_into(&mut x, g);
                    }
                }
                if zeros.iter().all(|&j| !bit(&x, j)) {
                    count += 1;
                    expected = Some(expected.map_or(weight(&x), |e| e.min(weight(&x))));
                }
            }
            match coset.restricted(&zeros) {
                None => assert_eq!(count, 0, "case {case}"),
                Some(r) => {
                    assert_eq!(1u64 << r.dimension(), count, "case {case}");
                    let found = min_weight(&r, &[], Budget { nodes: u64::MAX, time: None });
                    assert_eq!(Some(found.weight), expected, "case {case}");
                    assert!(zeros.iter().all(|&j| !bit(&found.best, j)), "case {case}");
                }
            }
        }
    }

    /// Sets mapped onto themselves by reversing the positions, and by a rotation of four blocks:
    /// the walk that skips images finds the minimum of plain enumeration; a permutation that
    /// does not map the set onto itself is ignored, not trusted.
    #[test]
    fn symmetries_skip_images_without_losing_the_minimum() {
        let mut rng = StdRng::seed_from_u64(17);
        for case in 0..120 {
            let bits = [40, 64, 200, 400][case % 4];
            let reverse: Vec<usize> = (0..bits).rev().collect();
            let quarter = bits / 4;
            let rotate: Vec<usize> =
                (0..bits).map(|p| if p < 4 * quarter { (p + quarter) % (4 * quarter) } else { p }).collect();
            let rotations = [
                rotate.clone(),
                permuted_perm(&rotate, &rotate),
                permuted_perm(&rotate, &permuted_perm(&rotate, &rotate)),
            ];
            let perms: Vec<Vec<usize>> = if case % 2 == 0 { vec![reverse] } else { rotations.to_vec() };
            let mut basis = Vec::new();
            for _ in 0..rng.random_range(1..=4) {
                let v = random_vector(&mut rng, bits, 0.2);
                basis.push(v.clone());
                for perm in &perms {
                    basis.push(permuted(&v, perm));
                }
            }
            // A fixed x0 (its orbit sum) keeps the set invariant.
            let mut x0 = random_vector(&mut rng, bits, 0.3);
            let images: Vec<Vec<u64>> = perms.iter().map(|perm| permuted(&x0, perm)).collect();
            for image in &images {
                xor_into(&mut x0, image);
            }
            let coset = Coset { bits, x0, basis }.independent();
            if coset.dimension() > 16 {
                continue;
            }
            let expected = brute_minimum(&coset);
            let budget = Budget { nodes: u64::MAX, time: None };
            let with = min_weight(&coset, &perms, budget);
            assert_eq!(with.weight, expected, "case {case}");
            assert!(in_span(&coset, &with.best), "case {case}");
            // A shift by one position maps nothing here onto itself.
            let shift: Vec<usize> = (0..bits).map(|p| (p + 1) % bits).collect();
            let wrong = min_weight(&coset, &[shift], budget);
            assert_eq!(wrong.weight, expected, "case {case}");
        }
    }

    /// The least weight of the set by a Gray-code walk over every vector (one XOR a step).
    fn gray_minimum(coset: &Coset) -> u32 {
        let mut x = coset.x0.clone();
        let mut least = weight(&x);
        for step in 1..1u64 << coset.dimension() {
            xor_into(&mut x, &coset.basis[step.trailing_zeros() as usize]);
            least = least.min(weight(&x));
        }
        least
    }

    /// Sets of dimension 17 to 22, so that the walk takes many Gray-code steps within a chunk
    /// (the plan is brought up to date through the table of low combinations, and with a
    /// symmetry only between walked blocks), and sets longer than `i16::MAX` bits, whose
    /// transform runs on `i32`: the minimum equals plain enumeration.
    #[test]
    fn long_walks_and_long_plans_equal_enumeration() {
        let mut rng = StdRng::seed_from_u64(23);
        let budget = Budget { nodes: u64::MAX, time: None };
        for case in 0..30 {
            let (coset, perms) = match case % 3 {
                0 => {
                    let bits = [300, 700, 1500][case % 9 / 3];
                    let k = rng.random_range(17..=22usize);
                    let density = [0.5, 0.1, 0.03][case % 9 / 3];
                    let basis = (0..k).map(|_| random_vector(&mut rng, bits, density)).collect();
                    (Coset { bits, x0: random_vector(&mut rng, bits, 0.5), basis }, Vec::new())
                }
                1 => {
                    let bits = [200, 401][case % 2];
                    let reverse: Vec<usize> = (0..bits).rev().collect();
                    let mut basis = Vec::new();
                    for _ in 0..rng.random_range(9..=11) {
                        let v = random_vector(&mut rng, bits, 0.2);
                        basis.push(permuted(&v, &reverse));
                        basis.push(v);
                    }
                    let mut x0 = random_vector(&mut rng, bits, 0.3);
                    let image = permuted(&x0, &reverse);
                    xor_into(&mut x0, &image);
                    (Coset { bits, x0, basis }, vec![reverse])
                }
                _ => {
                    let bits = 33_000;
                    let k = rng.random_range(17..=18usize);
                    let density = [0.5, 0.01][case % 2];
                    let basis = (0..k).map(|_| random_vector(&mut rng, bits, density)).collect();
                    (Coset { bits, x0: random_vector(&mut rng, bits, 0.5), basis }, Vec::new())
                }
            };
            let coset = coset.independent();
            assert!(coset.dimension() >= 17, "case {case}: dimension {}", coset.dimension());
            let expected = gray_minimum(&coset);
            let found = min_weight(&coset, &perms, budget);
            assert!(found.complete, "case {case}");
            assert_eq!(
                found.weight,
                expected,
                "case {case}: {} bits, dimension {}",
                coset.bits,
                coset.dimension()
            );
            assert_eq!(weight(&found.best), expected, "case {case}");
            assert!(in_span(&coset, &found.best), "case {case}");
        }
    }

    /// Plans of `i16::MAX` positions, the longest on 16-bit lanes, and one more (on 32-bit
    /// lanes), in sets that hold the plan 0 far from the descent's start: the block of 0 has a
    /// transform value equal to the length itself, and the walk must find weight 0. Also sets
    /// around the plan of all ones (the value minus the length).
    #[test]
    fn the_longest_plans_on_16_bit_lanes_do_not_overflow() {
        let mut rng = StdRng::seed_from_u64(31);
        for bits in [i16::MAX as usize, i16::MAX as usize + 1] {
            for case in 0..4 {
                let basis: Vec<Vec<u64>> = (0..17).map(|_| random_vector(&mut rng, bits, 0.5)).collect();
                let mut x0 =
                    if case % 2 == 0 { vec![0u64; bits.div_ceil(64)] } else { pack((0..bits).map(|_| true)) };
                for g in basis.iter().take(5 + case) {
                    xor_into(&mut x0, g);
                }
                let coset = Coset { bits, x0, basis }.independent();
                let expected = gray_minimum(&coset);
                let found = min_weight(&coset, &[], Budget { nodes: u64::MAX, time: None });
                assert!(found.complete, "case {case}");
                assert_eq!(found.weight, expected, "case {case}, {bits} bits");
                assert_eq!(weight(&found.best), expected, "case {case}");
                assert!(in_span(&coset, &found.best), "case {case}");
            }
        }
    }

    /// Sets of 2^63 to 2^70 plans, past what the whole walk takes, are walked in parts: at most
    /// 62 outer generators (more go inner, also with a symmetry), every plan in exactly one
    /// block (`units · 2^inner = 2^k`), the parts of any N consecutive ranges from 0 to the last
    /// block, and a part walked within a budget stops unfinished with a plan of the set.
    #[test]
    fn sets_past_2_to_the_62_are_walked_in_parts() {
        let mut rng = StdRng::seed_from_u64(41);
        for (case, (k, bits)) in
            [(64usize, 6241usize), (64, 300), (63, 100), (70, 4000), (64, 4000)].into_iter().enumerate()
        {
            let (basis, perms): (Vec<Vec<u64>>, Vec<Vec<usize>>) = if case == 4 {
                // Mapped onto itself by reversing the positions: pairs of a vector and its image.
                let reverse: Vec<usize> = (0..bits).rev().collect();
                let mut basis = Vec::new();
                for _ in 0..k / 2 {
                    let v = random_vector(&mut rng, bits, 0.02);
                    basis.push(permuted(&v, &reverse));
                    basis.push(v);
                }
                (basis, vec![reverse])
            } else {
                ((0..k).map(|_| random_vector(&mut rng, bits, 0.05)).collect(), Vec::new())
            };
            let x0 = if perms.is_empty() {
                random_vector(&mut rng, bits, 0.5)
            } else {
                vec![0; bits.div_ceil(64)]
            };
            let coset = Coset { bits, x0, basis }.independent();
            assert_eq!(coset.dimension(), k, "case {case}");
            assert!(k > MAX_DIMENSION && k <= MAX_PART_DIMENSION);
            let prepared = Prepared::new(&coset, &perms);
            let (inner, outer) = (prepared.blocks.inner.len(), prepared.blocks.outer.len());
            assert!(outer <= MAX_OUTER && inner <= 8, "case {case}: {inner} inner, {outer} outer");
            assert_eq!(inner + outer, k, "case {case}");
            let units = prepared.unit_count();
            assert_eq!(units << inner, 1u128 << k, "case {case}");
            if case == 4 {
                let actions = &prepared.layout.as_ref().unwrap().actions;
                assert!(!actions.is_empty(), "case {case}: the reversal is used");
            }
            for n in [1u64, 3, 1000, 1 << 20] {
                let last = Part { index: n - 1, count: n }.range(units).1;
                assert_eq!(last, units, "case {case}, N {n}");
                let (small, large) = (units / u128::from(n), units.div_ceil(u128::from(n)));
                for index in [0, 1, n / 2, n.saturating_sub(2), n - 1].into_iter().filter(|&k| k < n) {
                    let (lo, hi) = Part { index, count: n }.range(units);
                    let next = Part { index: (index + 1).min(n - 1), count: n }.range(units).0;
                    assert!(index + 1 == n || next == hi, "case {case}: {index}/{n}");
                    assert!(hi - lo == small || hi - lo == large, "case {case}: {index}/{n}");
                }
                assert_eq!(Part { index: 0, count: n }.range(units).0, 0);
            }
            let budget = Budget { nodes: 1 << 13, time: None };
            let found = prepared.walk(budget, Part { index: 777, count: 1 << 20 }, None);
            assert!(!found.complete, "case {case}");
            assert!(found.nodes >= 1 << 13, "case {case}: {} nodes", found.nodes);
            assert!(in_span(&coset, &found.best), "case {case}");
            assert_eq!(weight(&found.best), found.weight);
        }
    }

    /// A cutoff `below`: a part whose least plan weighs less than `below` returns that plan,
    /// as without the cutoff; otherwise it finishes with no plan lighter than `below`, against
    /// the part's plans enumerated, for cutoffs under, at and over the set's minimum.
    #[test]
    fn a_cutoff_finds_the_parts_plans_below_it() {
        let mut rng = StdRng::seed_from_u64(43);
        let budget = Budget { nodes: u64::MAX, time: None };
        for case in 0..60 {
            let bits = [40, 130, 300][case % 3];
            let k = rng.random_range(1..=14usize);
            let basis = (0..k).map(|_| random_vector(&mut rng, bits, 0.2)).collect();
            let coset = Coset { bits, x0: random_vector(&mut rng, bits, 0.5), basis }.independent();
            let prepared = Prepared::new(&coset, &[]);
            let least = brute_minimum(&coset);
            for n in [1u64, 3, 8] {
                for index in 0..n {
                    let part = Part { index, count: n };
                    let plans = part_plans(&coset, &[], part, u64::MAX).unwrap();
                    let part_least = plans.iter().map(|x| weight(x)).min();
                    let whole = prepared.walk(budget, part, None);
                    for below in [0, least, least + 1, least + 3, u32::MAX] {
                        let found = prepared.walk(budget, part, Some(below));
                        assert!(found.complete, "case {case}");
                        assert!(in_span(&coset, &found.best), "case {case}");
                        match part_least {
                            Some(m) if m < below && m <= weight(&prepared.blocks.first) => {
                                assert_eq!(found.weight, m, "case {case}, part {index}/{n}, below {below}");
                                assert_eq!(found.best, whole.best, "case {case}: the same plan as without");
                            }
                            _ => assert!(
                                found.weight >= below.min(whole.weight),
                                "case {case}, part {index}/{n}, below {below}"
                            ),
                        }
                    }
                }
            }
        }
    }

    fn permuted_perm(a: &[usize], b: &[usize]) -> Vec<usize> {
        (0..a.len()).map(|p| b[a[p]]).collect()
    }

    /// The transform against its definition, on `i16` and `i32`, for every size up to 2^9 (the
    /// three lowest levels go by runs of 8 from 8 entries on).
    #[test]
    fn walsh_hadamard_matches_definition() {
        let mut rng = StdRng::seed_from_u64(29);
        for b in 0..=9 {
            let v: Vec<i32> = (0..1 << b).map(|_| rng.random_range(-50..=50)).collect();
            let mut wide = v.clone();
            walsh_hadamard(&mut wide, b);
            let mut narrow: Vec<i16> = v.iter().map(|&x| x as i16).collect();
            walsh_hadamard(&mut narrow, b);
            for (t, (&ht, &hn)) in wide.iter().zip(&narrow).enumerate() {
                let direct: i32 = v
                    .iter()
                    .enumerate()
                    .map(|(c, &x)| if (c & t).count_ones() % 2 == 0 { x } else { -x })
                    .sum();
                assert_eq!(ht, direct, "b = {b}, t = {t}");
                assert_eq!(i32::from(hn), direct, "b = {b}, t = {t}");
            }
        }
    }
}
