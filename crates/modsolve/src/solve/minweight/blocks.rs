//! The walk's generators: the basis split into *inner* generators (walked all at once by the
//! transform) and *outer* ones (one block per combination), chosen so that the symmetries map
//! the inner span onto itself ([`invariant_subspace`]), and the symmetries' actions on the
//! outer combinations ([`Action`]); with the descent's plan, which starts every walk.

use super::{
    Coset, MAX_OUTER, MAX_PART_DIMENSION, bit, descend, first_one, inner_dimension, lighten, weight, xor,
    xor_into,
};

/// The walk's generators: `inner` (whose blocks the transform walks at once) and `outer` (one
/// block per combination, `2^outer.len()` blocks), the symmetries' actions on the outer
/// combinations, and the greedy descent's plan.
pub(super) struct Blocks {
    pub(super) inner: Vec<Vec<u64>>,
    pub(super) outer: Vec<Vec<u64>>,
    pub(super) actions: Vec<Action>,
    pub(super) first: Vec<u64>,
}

impl Blocks {
    pub(super) fn new(coset: &Coset, symmetries: &[Vec<usize>]) -> Blocks {
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
    pub(super) fn walked(&self) -> bool {
        !self.inner.is_empty() || !self.outer.is_empty()
    }

    /// The walk's units: its blocks, `2^a` for `a` outer generators.
    pub(super) fn units(&self) -> u128 {
        1u128 << self.outer.len()
    }

    /// The outer bits below a chunk's (the top 8, at most, choose the chunk).
    pub(super) fn low(&self) -> usize {
        let a = self.outer.len();
        a - a.min(8)
    }

    /// The plan of outer combination `o` (bit `i` for outer generator `i`) and inner `t`.
    pub(super) fn plan(&self, x0: &[u64], o: u64, t: usize) -> Vec<u64> {
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

/// A symmetry acting on outer combinations `o` (bit `i` for outer generator `i`):
/// `o ↦ shift ^ Σ_{i ∈ o} columns[i]`, up to the inner span.
pub(super) struct Action {
    pub(super) shift: u64,
    pub(super) columns: Vec<u64>,
}

/// `v` with position `p` moved to `perm[p]`.
pub(super) fn permuted(v: &[u64], perm: &[usize]) -> Vec<u64> {
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
