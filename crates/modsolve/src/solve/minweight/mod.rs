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

mod blocks;
#[cfg(test)]
mod tests;
mod walk;

use super::search::Budget;
use blocks::Blocks;
use walk::Layout;

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
