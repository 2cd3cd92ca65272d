//! A board's symmetries on a solution set over a prime field, made usable by a walk: the set
//! `x0 + span(g_i)` (every button counted mod `p`, every generator of order `p`) is cut into
//! the cosets of a subspace `W` that every symmetry maps onto itself, and each symmetry
//! permutes those cosets by an affine map of their labels, so a walk needs only the cosets
//! whose label is least in its orbit.
//!
//! Defining identity: a symmetry is a permutation `σ` of the buttons (button `j` goes to
//! `σ(j)`) that keeps every press limit and maps `x0` and every generator into the set; it then
//! maps the set onto itself and keeps every plan's cost (costs depend on press counts and
//! limits alone). With `A_σ` its matrix on the generators' coordinates, `W` is the smallest
//! subspace that holds the walk's deepest generators (each in turn that leaves enough cosets) and that
//! every `A_σ` maps into itself, and `Φ` the functionals that label its cosets (one for each
//! coordinate outside `W`'s pivots: the identity there, zero on `W`). The coset of label `u`
//! goes to the coset of label `Φ·b_σ + M_σ·u`, where `b_σ` are the coordinates of `σ(x0) − x0`
//! and `Φ·A_σ = M_σ·Φ`.
//!
//! The generators handed to the walk are the `top` original ones outside `W`'s pivots (whose
//! multiples are exactly the label) followed by a basis of `W`, so fixing the first `top`
//! generators fixes the coset. Any set of symmetries is sound, a group or not: a skipped coset
//! has an image with a smaller label, so a chain of images ends at a walked coset, which holds
//! a plan of the same cost.

use crate::algebra::arith::{add_mod, inv_mod, mul_mod, sub_mod};

/// The cosets of W are at least this many, so that most orbits are whole (64 and 512 were
/// measured: 512 took 41×41 mod 3 from 57 s to 37 s, and was within noise elsewhere).
pub(crate) const MIN_COSETS: u64 = 512;

/// Sets of more generators than this are not split: at `p^48` plans and more no walk finishes,
/// symmetries or not.
const MAX_GENERATORS: usize = 48;

/// The set-up's work, `k² · n` products for each candidate symmetry, may not exceed this
/// (53×53 mod 3, 39 generators and 8 candidates, needs about 2^25 and took 19 ms).
const MAX_WORK: usize = 1 << 26;

/// The coordinates of vectors mod `p` in an independent set of generators: each generator
/// `g_i` followed by the unit vector `e_i`, in reduced echelon form, so that reducing `(v, 0)`
/// leaves `(0, −t)` exactly when `v = Σ t_i·g_i`.
struct Coordinates {
    p: u64,
    n: usize,
    echelon: Echelon,
}

impl Coordinates {
    /// `None` when the generators are not independent mod `p`.
    fn new(generators: &[(Vec<u64>, u64)], p: u64) -> Option<Coordinates> {
        let (n, k) = (generators.first().map_or(0, |(g, _)| g.len()), generators.len());
        let mut echelon = Echelon::default();
        for (i, (g, _)) in generators.iter().enumerate() {
            let mut v: Vec<u64> = g.iter().map(|&x| x % p).collect();
            v.resize(n + k, 0);
            v[n + i] = 1;
            echelon.insert(v, p);
            // A pivot among the units: g_i is a combination of the generators before it.
            if echelon.rows.last().is_none_or(|(pivot, _)| *pivot >= n) {
                return None;
            }
        }
        Some(Coordinates { p, n, echelon })
    }

    /// `t` with `v = Σ t_i·g_i (mod p)`, or `None` when `v` is not in the span.
    fn of(&self, v: &[u64]) -> Option<Vec<u64>> {
        let p = self.p;
        let mut w: Vec<u64> = v.iter().map(|&x| x % p).collect();
        w.resize(self.n + self.echelon.rows.len(), 0);
        self.echelon.reduce(&mut w, p);
        w[..self.n].iter().all(|&x| x == 0).then(|| w[self.n..].iter().map(|&x| sub_mod(0, x, p)).collect())
    }
}

/// The symmetries among `candidates` that act on the set spanned by `generators` (permutations
/// of its `n` buttons, not the identity, keeping `limits`, mapping every generator into the
/// span), and each one's matrix on the generators: column `i` holds the coordinates of `σ(g_i)`.
fn symmetries(
    generators: &[(Vec<u64>, u64)],
    limits: Option<&[u64]>,
    candidates: &[Vec<usize>],
    coordinates: &Coordinates,
) -> (Vec<Vec<usize>>, Vec<Vec<Vec<u64>>>) {
    let (n, k) = (coordinates.n, generators.len());
    let mut perms = Vec::new();
    let mut on_basis: Vec<Vec<Vec<u64>>> = Vec::new();
    for perm in candidates {
        let is_permutation = perm.len() == n && {
            let mut seen = vec![false; n];
            perm.iter().all(|&q| q < n && !std::mem::replace(&mut seen[q], true))
        };
        if !is_permutation
            || perm.iter().enumerate().all(|(j, &q)| j == q)
            || limits.is_some_and(|l| perm.iter().enumerate().any(|(j, &q)| l[j] != l[q]))
        {
            continue;
        }
        let columns: Option<Vec<Vec<u64>>> =
            generators.iter().map(|(g, _)| coordinates.of(&permuted(g, perm))).collect();
        let Some(columns) = columns else { continue };
        let a: Vec<Vec<u64>> = (0..k).map(|r| columns.iter().map(|c| c[r]).collect()).collect();
        perms.push(perm.clone());
        on_basis.push(a);
    }
    (perms, on_basis)
}

/// W: the smallest subspace invariant under the matrices `on_basis` (of the `k` generators'
/// coordinates, mod `p`) holding the generators `deepest`, each in turn that leaves at least
/// `labels` generators outside it; with the vectors that made it, in the order they came.
fn invariant_span(
    deepest: &[usize],
    on_basis: &[Vec<Vec<u64>>],
    k: usize,
    labels: usize,
    p: u64,
) -> (Echelon, Vec<Vec<u64>>) {
    let mut w = Echelon::default();
    // The vectors that made W, in coordinates, in the order they came.
    let mut made: Vec<Vec<u64>> = Vec::new();
    for &i in deepest {
        let (mut trial, mut trial_made) = (Echelon { rows: w.rows.clone() }, made.clone());
        let mut unit = vec![0u64; k];
        unit[i] = 1;
        let mut queue = vec![unit];
        while let Some(t) = queue.pop() {
            if trial.insert(t.clone(), p) {
                for a in on_basis {
                    queue.push(apply(a, &t, p));
                }
                trial_made.push(t);
            }
        }
        if trial.rows.len() + labels > k {
            continue;
        }
        (w, made) = (trial, trial_made);
    }
    (w, made)
}

/// `v -= f·w (mod p)`.
fn subtract(v: &mut [u64], w: &[u64], f: u64, p: u64) {
    for (a, &b) in v.iter_mut().zip(w) {
        if b != 0 {
            *a = sub_mod(*a, mul_mod(f, b, p), p);
        }
    }
}

/// `v *= f (mod p)`.
fn scale(v: &mut [u64], f: u64, p: u64) {
    for a in v.iter_mut() {
        *a = mul_mod(*a, f, p);
    }
}

/// `v` with button `j` moved to `perm[j]`.
fn permuted(v: &[u64], perm: &[usize]) -> Vec<u64> {
    let mut out = vec![0u64; v.len()];
    for (j, &to) in perm.iter().enumerate() {
        out[to] = v[j];
    }
    out
}

/// Row vectors in reduced echelon form (for spans of coordinate vectors).
#[derive(Default)]
struct Echelon {
    rows: Vec<(usize, Vec<u64>)>,
}

impl Echelon {
    /// `v` less the multiples of the rows that clear its entries at their pivots.
    fn reduce(&self, v: &mut [u64], p: u64) {
        for (pivot, row) in &self.rows {
            let f = v[*pivot];
            if f != 0 {
                subtract(v, row, f, p);
            }
        }
    }

    /// Adds `v` to the span; false when it was already in it.
    fn insert(&mut self, mut v: Vec<u64>, p: u64) -> bool {
        self.reduce(&mut v, p);
        let Some(pivot) = v.iter().position(|&x| x != 0) else { return false };
        let Some(inv) = inv_mod(v[pivot], p) else { return false };
        scale(&mut v, inv, p);
        for (_, row) in &mut self.rows {
            let f = row[pivot];
            if f != 0 {
                subtract(row, &v, f, p);
            }
        }
        self.rows.push((pivot, v));
        true
    }
}

/// `Σ a_i·b_i (mod p)`.
fn dot(a: &[u64], b: &[u64], p: u64) -> u64 {
    a.iter().zip(b).fold(0, |s, (&x, &y)| add_mod(s, mul_mod(x, y, p), p))
}

/// `A·t`.
fn apply(a: &[Vec<u64>], t: &[u64], p: u64) -> Vec<u64> {
    a.iter().map(|row| dot(row, t, p)).collect()
}

/// `φ·A`: the functional `t ↦ φ(A·t)`.
fn compose(phi: &[u64], a: &[Vec<u64>], p: u64) -> Vec<u64> {
    let k = phi.len();
    let mut out = vec![0u64; k];
    for (r, &f) in phi.iter().enumerate() {
        if f != 0 {
            for (o, &x) in out.iter_mut().zip(&a[r]) {
                *o = add_mod(*o, mul_mod(f, x, p), p);
            }
        }
    }
    out
}

/// A solution set split for its symmetries.
pub(crate) struct Split {
    /// The generators for the walk: the `top` that label the cosets, then a basis of `W`.
    pub generators: Vec<(Vec<u64>, u64)>,
    /// How many of `generators` label the cosets.
    pub top: usize,
    p: u64,
    /// The symmetries kept, and each one's `M_σ` (`top × top`).
    perms: Vec<Vec<usize>>,
    matrices: Vec<Vec<Vec<u64>>>,
    /// `Φ`, `top` functionals on the original coordinates, the identity at the label's columns.
    phi: Vec<Vec<u64>>,
    coordinates: Coordinates,
}

/// An affine map of coset labels: `u ↦ shift + matrix·u (mod p)`.
pub(crate) struct Action {
    shift: Vec<u64>,
    matrix: Vec<Vec<u64>>,
}

impl Split {
    /// The split of the set spanned by `generators` (each of order `p`, every period `p`, `p`
    /// prime) for the `candidates` that keep the `limits` and map every generator into the span,
    /// with `W` the smallest invariant subspace that holds the `deepest` generators (the walk's
    /// last, where its bound prunes), each in turn whose images still leave [`MIN_COSETS`]
    /// cosets; `None` when no candidate is a symmetry or no generator fits.
    pub(crate) fn new(
        generators: &[(Vec<u64>, u64)],
        periods: &[u64],
        limits: Option<&[u64]>,
        candidates: &[Vec<usize>],
        deepest: &[usize],
    ) -> Option<Split> {
        let (n, k) = (periods.len(), generators.len());
        let p = *periods.first()?;
        let prime = p >= 2 && (2..p).take_while(|d| d * d <= p).all(|d| p % d != 0);
        if !prime
            || !(3..=MAX_GENERATORS).contains(&k)
            || (k * k * n).saturating_mul(candidates.len()) > MAX_WORK
            || periods.iter().any(|&l| l != p)
            || generators.iter().any(|(g, order)| *order != p || g.len() != n)
        {
            return None;
        }
        let coordinates = Coordinates::new(generators, p)?;
        let (perms, on_basis) = symmetries(generators, limits, candidates, &coordinates);
        if perms.is_empty() {
            return None;
        }
        // W: the smallest invariant subspace holding the walk's deepest generators, each in turn
        // that leaves at least `labels` generators to label its cosets (one that does not is
        // passed over: a later one may fit).
        let labels = (1..).find(|&a| p.saturating_pow(a as u32) >= MIN_COSETS).unwrap_or(1);
        if k < labels + 2 {
            return None;
        }
        let (w, made) = invariant_span(deepest, &on_basis, k, labels, p);
        if w.rows.is_empty() {
            return None;
        }
        let inside: Vec<usize> = w.rows.iter().map(|(pivot, _)| *pivot).collect();
        let pivots: Vec<usize> = (0..k).filter(|c| !inside.contains(c)).collect();
        let top = pivots.len();
        // Φ: for each column c outside W's pivots, t ↦ t_c − Σ_r t_{pivot r}·R_r[c]; it is the
        // identity at those columns and vanishes on W.
        let phi: Vec<Vec<u64>> = pivots
            .iter()
            .map(|&c| {
                let mut f = vec![0u64; k];
                f[c] = 1;
                for (pivot, row) in &w.rows {
                    f[*pivot] = sub_mod(0, row[c], p);
                }
                f
            })
            .collect();
        // M_σ: Φ·A_σ = M_σ·Φ (W is invariant), read at the pivot columns, where Φ is the
        // identity.
        let matrices: Vec<Vec<Vec<u64>>> = on_basis
            .iter()
            .map(|a| {
                let composed: Vec<Vec<u64>> = phi.iter().map(|f| compose(f, a, p)).collect();
                let m: Vec<Vec<u64>> =
                    composed.iter().map(|row| pivots.iter().map(|&c| row[c]).collect()).collect();
                debug_assert!(composed.iter().zip(&m).all(|(row, mrow)| {
                    (0..k).all(|c| dot(mrow, &phi.iter().map(|f| f[c]).collect::<Vec<_>>(), p) == row[c])
                }));
                m
            })
            .collect();
        // The generators: those at the pivots (their multiples are the label), then W's, the
        // deepest last.
        let mut out: Vec<(Vec<u64>, u64)> = pivots.iter().map(|&c| generators[c].clone()).collect();
        for t in made.iter().rev() {
            let mut v = vec![0u64; n];
            for (&f, (g, _)) in t.iter().zip(generators) {
                if f != 0 {
                    for (x, &y) in v.iter_mut().zip(g) {
                        *x = add_mod(*x, mul_mod(f, y % p, p), p);
                    }
                }
            }
            out.push((v, p));
        }
        Some(Split { generators: out, top, p, perms, matrices, phi, coordinates })
    }

    /// The symmetries' actions on the coset labels of the set through `x0` (a plan of it); a
    /// symmetry that does not map `x0` into the set is left out.
    pub(crate) fn actions(&self, x0: &[u64]) -> Vec<Action> {
        let p = self.p;
        self.perms
            .iter()
            .zip(&self.matrices)
            .filter_map(|(perm, m)| {
                let moved = permuted(x0, perm);
                let difference: Vec<u64> =
                    moved.iter().zip(x0).map(|(&a, &b)| sub_mod(a % p, b % p, p)).collect();
                let b = self.coordinates.of(&difference)?;
                let shift = self.phi.iter().map(|f| dot(f, &b, p)).collect();
                Some(Action { shift, matrix: m.clone() })
            })
            .collect()
    }

    /// Whether no action maps the label `u` (the multiples of the first [`Split::top`]
    /// generators) to a smaller one (in the order of the digits, the first most significant).
    pub(crate) fn least(&self, actions: &[Action], u: &[u64]) -> bool {
        let p = self.p;
        actions.iter().all(|action| {
            // The image digit by digit, compared as it is made: the first that differs decides.
            for ((row, &s), &digit) in action.matrix.iter().zip(&action.shift).zip(u) {
                let image = add_mod(s, dot(row, u, p), p);
                if image != digit {
                    return image > digit;
                }
            }
            true
        })
    }
}
