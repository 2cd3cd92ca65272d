//! Light chasing: grids of any size solved in `O(rows·cols²)`.
//!
//! Defining identity: on a `Cross` grid with one modulus `m` whose neighbour weight `w` is a
//! unit, the equation of cell `(r, c)` is the only one that involves the press below it, so
//! `x[r+1][c] = w⁻¹·(d[r][c] − s·x[r][c]) − x[r][c−1] − x[r][c+1] − x[r−1][c]`. With the first
//! row's presses as symbols `y`, every press is an affine form in `y`; the last row's equations
//! are a `W × W` system `M·y ≡ c`, whose solutions are in bijection with the board's plans
//! (replay `y` row by row). Counts are exact: the board's plan count is that system's count in
//! `(Z/m)^W`, and every button's period is `m`.
//!
//! The shorter side is the row (`W = min(rows, cols)`), so memory is `O(W²)` for the symbolic
//! rows. Mod 2 forms are bit-packed (`W + 1` bits: the symbols and the constant) and a row step
//! is three XORs of packed words per cell; other moduli keep `W + 1` residues per cell.

use num_bigint::BigUint;
use num_traits::{One, Zero};

use super::{Answer, Generator, Method};
use crate::algebra::arith::inv_mod;
use crate::algebra::gf2::{BitMatrix, Elimination, echelonize, solve as solve_bits};
use crate::bounded::{Stop, checkpoint};
use crate::error::InternalError;
use crate::model::{Buttons, Neighborhood, Puzzle, Topology};

use super::BASIS_ENTRY_LIMIT;

/// The grid in the frame where rows are the longer side.
#[derive(Clone, Copy, Debug)]
struct Frame {
    /// Rows in the frame (the longer side) and the row width (the shorter side).
    height: usize,
    width: usize,
    cols: usize,
    transposed: bool,
    modulus: u64,
    self_weight: u64,
    neighbor_inverse: u64,
    neighbor_weight: u64,
}

impl Frame {
    /// The original cell number of frame position `(r, c)`.
    #[inline]
    fn cell(&self, r: usize, c: usize) -> usize {
        if self.transposed { c * self.cols + r } else { r * self.cols + c }
    }
}

/// The work of chasing the lights down a frame ([`crate::bounded::work`]): every cell's form in
/// the seeds (the row width), packed 64 to a word mod 2, about 10 residues or 50 words a
/// search node. The last row's elimination counts its own.
fn chase_work(f: &Frame) -> u64 {
    let entries = (f.height as u64).saturating_mul(f.width as u64).saturating_mul(f.width as u64);
    if f.modulus == 2 { entries / 64 / 50 } else { entries / 10 }
}

/// The frame when propagation applies: a non-wrapping `Cross` grid, at least 2×2, with
/// graph buttons, one modulus below 2^32, and a neighbour weight that is a unit.
fn frame(puzzle: &Puzzle) -> Option<Frame> {
    let Topology::Grid { rows, cols, wrap: false, neighborhood: Neighborhood::Cross } = puzzle.topology
    else {
        return None;
    };
    let Buttons::Graph { self_weight, neighbor_weight } = puzzle.buttons else { return None };
    // One modulus (`uniform` reads one number when the model stores one).
    let m = puzzle.moduli.uniform()?;
    if rows < 2 || cols < 2 || m > u32::MAX as u64 {
        return None;
    }
    let reduce = |w: i128| crate::algebra::arith::reduce_signed(w, m);
    let neighbor_inverse = inv_mod(reduce(neighbor_weight), m)?;
    Some(Frame {
        height: rows.max(cols),
        width: rows.min(cols),
        cols,
        transposed: cols > rows,
        modulus: m,
        self_weight: reduce(self_weight),
        neighbor_inverse,
        neighbor_weight: reduce(neighbor_weight),
    })
}

/// Whether [`solve`] applies to this puzzle.
pub(crate) fn applies(puzzle: &Puzzle) -> bool {
    frame(puzzle).is_some()
}

/// Solves by propagation; `None` when it does not apply.
pub(crate) fn solve(puzzle: &Puzzle) -> Option<Answer> {
    let f = frame(puzzle)?;
    crate::bounded::work(chase_work(&f));
    let d = Difference::of(puzzle);
    let (first_row, kernel, count_exponent) = last_row(&f, d, true);
    let cells = puzzle.cell_count();
    let kernel_size = kernel_size(f.modulus, &count_exponent);
    let presses = first_row.map(|y| replay(&f, d, &y).into_iter().map(BigUint::from).collect::<Vec<_>>());
    let count = if presses.is_some() { kernel_size.clone() } else { BigUint::zero() };
    let basis_entries = kernel.len() as u128 * cells as u128;
    let quiet_basis = if basis_entries <= BASIS_ENTRY_LIMIT {
        kernel
            .into_iter()
            .map(|(y, order)| Generator {
                presses: replay(&f, Difference::Uniform(0), &y).into_iter().map(BigUint::from).collect(),
                order: BigUint::from(order),
            })
            .collect()
    } else {
        Vec::new()
    };
    Some(Answer {
        periods: vec![BigUint::from(f.modulus); cells],
        presses,
        count,
        kernel_size,
        quiet_basis,
        method: Method::Propagation,
        seeds: Some(f.width),
        chased: true,
        kernel_factors: None,
    })
}

/// `target − start` cell by cell, computed when asked (no per-cell vector on huge boards). The
/// puzzle has one modulus (see [`frame`]); when start and target are uniform (`All(v)`) the
/// difference is one number and no cell is read.
#[derive(Clone, Copy)]
enum Difference<'p> {
    /// Every cell has the same difference (uniform start and target, or a quiet pattern's 0).
    Uniform(u64),
    /// Read from the puzzle's start and target, modulo its one modulus.
    PerCell { puzzle: &'p Puzzle, modulus: u64 },
}

impl<'p> Difference<'p> {
    fn of(puzzle: &'p Puzzle) -> Self {
        let modulus = puzzle.moduli[0];
        match (puzzle.start.uniform(), puzzle.target.uniform()) {
            (Some(s), Some(t)) => Difference::Uniform(crate::algebra::arith::sub_mod(t, s, modulus)),
            _ => Difference::PerCell { puzzle, modulus },
        }
    }

    #[inline]
    fn at(&self, cell: usize) -> u64 {
        match *self {
            Difference::Uniform(d) => d,
            Difference::PerCell { puzzle, modulus } => {
                crate::algebra::arith::sub_mod(puzzle.target[cell], puzzle.start[cell], modulus)
            }
        }
    }

    /// The differences of frame row `r`, one bit per position (mod 2 only).
    fn row_bits(&self, f: &Frame, r: usize, out: &mut [u64]) {
        if let Difference::Uniform(d) = *self {
            let fill = if d & 1 == 1 { u64::MAX } else { 0 };
            out.fill(fill);
            if !f.width.is_multiple_of(64)
                && let Some(last) = out.last_mut()
            {
                *last &= (1u64 << (f.width % 64)) - 1;
            }
            return;
        }
        out.fill(0);
        for c in 0..f.width {
            // Mod 2 the difference is the XOR of the two bits, without a division.
            let bit = match *self {
                Difference::PerCell { puzzle, .. } => {
                    let cell = f.cell(r, c);
                    (puzzle.target[cell] ^ puzzle.start[cell]) & 1
                }
                Difference::Uniform(d) => d & 1,
            };
            out[c / 64] |= bit << (c % 64);
        }
    }
}

/// Propagates to the last row and solves its system, bit-packed for mod 2. Mod 2 gives the
/// kernel basis only when `kernel` asks for it (the compact path counts the plans without it).
fn last_row(f: &Frame, d: Difference, kernel: bool) -> LastRow {
    if f.modulus == 2 { last_row_gf2(f, d, kernel) } else { last_row_general(f, d) }
}

/// `Π p^e` over the prime powers of the last-row system's count.
fn kernel_size(_m: u64, exponents: &[(u64, u64)]) -> BigUint {
    exponents.iter().fold(BigUint::one(), |acc, &(p, e)| acc * num_traits::Pow::pow(BigUint::from(p), e))
}

/// The presses of every cell (original numbering) from the first row's values `y`.
fn replay(f: &Frame, d: Difference, y: &[u64]) -> Vec<u32> {
    if f.modulus == 2 {
        return replay_gf2(f, d, y);
    }
    let (w, m) = (f.width, f.modulus);
    let mut out = vec![0u32; f.height * w];
    // Three rows in the frame: above, this one, below.
    let (mut up, mut row, mut below) = (vec![0u64; w], y.to_vec(), vec![0u64; w]);
    for r in 0..f.height {
        checkpoint();
        for (c, &v) in row.iter().enumerate() {
            out[f.cell(r, c)] = v as u32;
        }
        if r + 1 == f.height {
            break;
        }
        for c in 0..w {
            // Values are below m < 2^32, so sums of four and products of two fit in u64.
            let mut around = up[c];
            if c > 0 {
                around += row[c - 1];
            }
            if c + 1 < w {
                around += row[c + 1];
            }
            // x below = w⁻¹·(d − s·x) − (left + right + up)
            let own = crate::algebra::arith::sub_mod(d.at(f.cell(r, c)), f.self_weight * row[c] % m, m);
            below[c] = (own * f.neighbor_inverse % m + 3 * m - around) % m;
        }
        std::mem::swap(&mut up, &mut row);
        std::mem::swap(&mut row, &mut below);
    }
    out
}

/// [`replay`] for mod 2: one count per cell.
fn replay_gf2(f: &Frame, d: Difference, y: &[u64]) -> Vec<u32> {
    let mut out = vec![0u32; f.height * f.width];
    replay_gf2_rows(f, d, y, |r, row| {
        for c in 0..f.width {
            out[f.cell(r, c)] = (row[c / 64] >> (c % 64) & 1) as u32;
        }
    });
    out
}

/// [`replay`] for mod 2, bit-packed end to end: bit `i % 64` of word `i / 64` is the press of
/// cell `i` (original numbering), 64 cells a word, rows not aligned to words.
fn replay_gf2_packed(f: &Frame, d: Difference, y: &[u64]) -> Vec<u64> {
    let cells = f.height * f.width;
    let mut out = vec![0u64; cells.div_ceil(64)];
    replay_gf2_rows(f, d, y, |r, row| {
        if f.transposed {
            // Frame row r is column r of the grid: one bit per cell.
            for c in 0..f.width {
                let bit = row[c / 64] >> (c % 64) & 1;
                let cell = f.cell(r, c);
                out[cell / 64] |= bit << (cell % 64);
            }
        } else {
            put_bits(&mut out, r * f.width, row);
        }
    });
    out
}

/// ORs the words `src` (bits past the row's width are 0) into `out` from bit `at` on.
fn put_bits(out: &mut [u64], at: usize, src: &[u64]) {
    let shift = at % 64;
    for (k, &v) in src.iter().enumerate() {
        let word = at / 64 + k;
        if let Some(w) = out.get_mut(word) {
            *w |= v << shift;
        }
        if shift != 0
            && let Some(w) = out.get_mut(word + 1)
        {
            *w |= v >> (64 - shift);
        }
    }
}

/// Bits `at..at + len` of `src` into `out` (`len.div_ceil(64)` words, bits past `len` cleared).
fn get_bits(src: &[u64], at: usize, len: usize, out: &mut [u64]) {
    let shift = at % 64;
    for (k, o) in out.iter_mut().enumerate().take(len.div_ceil(64)) {
        let word = at / 64 + k;
        let lo = src.get(word).map_or(0, |&v| v >> shift);
        let hi = if shift == 0 { 0 } else { src.get(word + 1).map_or(0, |&v| v << (64 - shift)) };
        *o = lo | hi;
    }
    if !len.is_multiple_of(64)
        && let Some(last) = out.get_mut(len / 64)
    {
        *last &= (1u64 << (len % 64)) - 1;
    }
}

/// The replay of mod 2 on bit-packed rows, row by row of the frame: the row below is
/// `d + s·x + (x << 1) + (x >> 1) + above`, a few word operations per 64 cells. `visit` gets
/// each row's number and its words (bits past the width are 0).
fn replay_gf2_rows(f: &Frame, d: Difference, y: &[u64], mut visit: impl FnMut(usize, &[u64])) {
    let w = f.width;
    let words = w.div_ceil(64);
    let last_mask = if w.is_multiple_of(64) { u64::MAX } else { (1u64 << (w % 64)) - 1 };
    let self_bit = f.self_weight & 1 == 1;
    let (mut up, mut row, mut below) = (vec![0u64; words], vec![0u64; words], vec![0u64; words]);
    let mut d_row = vec![0u64; words];
    for (c, &v) in y.iter().enumerate().take(w) {
        row[c / 64] |= (v & 1) << (c % 64);
    }
    for r in 0..f.height {
        checkpoint();
        visit(r, &row);
        if r + 1 == f.height {
            break;
        }
        d.row_bits(f, r, &mut d_row);
        for k in 0..words {
            // Bit c of `left` is x[c − 1], of `right` x[c + 1] (bits past the width are 0).
            let left = row[k] << 1 | if k > 0 { row[k - 1] >> 63 } else { 0 };
            let right = row[k] >> 1 | if k + 1 < words { row[k + 1] << 63 } else { 0 };
            let own = if self_bit { row[k] } else { 0 };
            below[k] = d_row[k] ^ own ^ left ^ right ^ up[k];
        }
        below[words - 1] &= last_mask;
        std::mem::swap(&mut up, &mut row);
        std::mem::swap(&mut row, &mut below);
    }
}

/// Mod 2: the first row of one plan, the kernel basis of the last-row system (each of order 2),
/// and `[(2, nullity)]`.
type LastRow = (Option<Vec<u64>>, Vec<(Vec<u64>, u64)>, Vec<(u64, u64)>);

fn last_row_gf2(f: &Frame, d: Difference, kernel: bool) -> LastRow {
    use rayon::prelude::*;
    let w = f.width;
    let words = (w + 1).div_ceil(64);
    // Word k of every form (symbols 64k..64k + 63, and the constant at bit W) evolves on its
    // own: one word per cell of a row, a stencil over contiguous memory that stays in cache,
    // the words shared among the cores.
    let stop = Stop::here();
    let columns: Vec<Vec<u64>> =
        (0..words).into_par_iter().map(|k| stop.carry(|| chase_word(f, d, k))).collect();
    let mut system = BitMatrix::zeros(w, w + 1);
    for c in 0..w {
        for (dst, column) in system.row_mut(c).iter_mut().zip(&columns) {
            *dst = column[c];
        }
    }
    drop(columns);
    if !kernel {
        // The solution and the rank only: no kernel vectors (up to W of W entries each).
        let pivots = echelonize(&mut system, w, Elimination::Auto);
        let rank = pivots.len();
        let consistent = (rank..w).all(|r| !system.get(r, w));
        let y = consistent.then(|| {
            let mut y = vec![0u64; w];
            for (row, &c) in pivots.iter().enumerate() {
                y[c] = u64::from(system.get(row, w));
            }
            y
        });
        return (y, Vec::new(), vec![(2, (w - rank) as u64)]);
    }
    let out = solve_bits(system);
    let nullity = (w - out.rank) as u64;
    let y = out.solution.map(|bits| bits.into_iter().map(u64::from).collect());
    let kernel = out.kernel_basis.into_iter().map(|v| (v.into_iter().map(u64::from).collect(), 2)).collect();
    (y, kernel, vec![(2, nullity)])
}

/// Word `k` of the last row's equations, one word per cell of the row: the chase of the
/// symbols `64k..64k + 63` (and, in the constant's word, of the constant) down the frame.
///
/// Press `(r + 1, c)` is `s·x[r][c] + x[r][c − 1] + x[r][c + 1] + x[r − 1][c] + d[r][c]` (mod 2
/// every weight is 1 or 0). It involves only the symbols within distance `r + 1` of `c`, so only
/// that band of cells is touched in the first rows; the constant's word is the whole row.
fn chase_word(f: &Frame, d: Difference, k: usize) -> Vec<u64> {
    let w = f.width;
    let constant = w;
    let is_constant = k == constant / 64;
    let constant_bit = 1u64 << (constant % 64);
    let self_bit = f.self_weight & 1 == 1;
    let (mut prev, mut cur) = (vec![0u64; w], vec![0u64; w]);
    let first = 64 * k;
    let last = (first + 63).min(w.saturating_sub(1));
    for (c, x) in cur.iter_mut().enumerate().take(last + 1).skip(first) {
        *x = 1 << (c % 64);
    }
    let mut d_row = vec![0u64; if is_constant { w.div_ceil(64) } else { 0 }];
    for r in 0..f.height - 1 {
        if r % 64 == 0 {
            checkpoint();
        }
        let (a, b) = if is_constant || first >= w {
            (0, w)
        } else {
            (first.saturating_sub(r + 1), (last + r + 1).min(w - 1) + 1)
        };
        step(&mut prev, &cur, a, b, self_bit);
        if is_constant {
            d.row_bits(f, r, &mut d_row);
            for (c, x) in prev.iter_mut().enumerate() {
                if d_row[c / 64] >> (c % 64) & 1 == 1 {
                    *x ^= constant_bit;
                }
            }
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    // The last row's equations: s·cur[c] + cur[c−1] + cur[c+1] + prev[c] + d = 0.
    step(&mut prev, &cur, 0, w, self_bit);
    if is_constant {
        let r = f.height - 1;
        for (c, x) in prev.iter_mut().enumerate() {
            if d.at(f.cell(r, c)) & 1 == 1 {
                *x ^= constant_bit;
            }
        }
    }
    prev
}

/// `next[c] = prev[c] + s·cur[c] + cur[c − 1] + cur[c + 1]` for `c` in `a..b`, in place of
/// `prev` (`cur` has at least 2 cells).
fn step(prev: &mut [u64], cur: &[u64], a: usize, b: usize, self_bit: bool) {
    let w = cur.len();
    let own = |c: usize| if self_bit { cur[c] } else { 0 };
    if a == 0 {
        prev[0] ^= own(0) ^ cur[1];
    }
    if b == w {
        prev[w - 1] ^= own(w - 1) ^ cur[w - 2];
    }
    let (lo, hi) = (a.max(1), b.min(w - 1));
    if lo >= hi {
        return;
    }
    let dst = &mut prev[lo..hi];
    let n = dst.len();
    let (left, mid, right) = (&cur[lo - 1..lo - 1 + n], &cur[lo..lo + n], &cur[lo + 1..lo + 1 + n]);
    if self_bit {
        xor3_into(dst, left, mid, right);
    } else {
        for i in 0..n {
            dst[i] ^= left[i] ^ right[i];
        }
    }
}

/// `dst ^= a ^ b ^ c`, word by word in one pass (the loop vectorises).
#[inline]
fn xor3_into(dst: &mut [u64], a: &[u64], b: &[u64], c: &[u64]) {
    let n = dst.len();
    let (a, b, c) = (&a[..n], &b[..n], &c[..n]);
    for k in 0..n {
        dst[k] ^= a[k] ^ b[k] ^ c[k];
    }
}

/// Any modulus below 2^32: affine forms with `W + 1` residues per cell.
fn last_row_general(f: &Frame, d: Difference) -> LastRow {
    let (w, m) = (f.width, f.modulus);
    let len = w + 1;
    let mut prev = vec![0u64; w * len];
    let mut cur = vec![0u64; w * len];
    for c in 0..w {
        cur[c * len + c] = 1;
    }
    // next = w⁻¹·d·e_const − w⁻¹·s·cur[c] − cur[c−1] − cur[c+1] − prev[c]
    let own = (f.neighbor_inverse * f.self_weight) % m;
    for r in 0..f.height - 1 {
        checkpoint();
        for c in 0..w {
            let dst = c * len;
            for k in 0..len {
                let mut around = prev[dst + k] + own * cur[c * len + k] % m;
                if c > 0 {
                    around += cur[(c - 1) * len + k];
                }
                if c + 1 < w {
                    around += cur[(c + 1) * len + k];
                }
                prev[dst + k] = (m * 4 - around % m) % m;
            }
            let shift = (d.at(f.cell(r, c)) * f.neighbor_inverse) % m;
            prev[dst + w] = (prev[dst + w] + shift) % m;
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    // Last row: s·cur[c] + w·(cur[c−1] + cur[c+1] + prev[c]) − d = 0, i.e. lin·y ≡ d − constant.
    let r = f.height - 1;
    let mut matrix = vec![0u64; w * w];
    let mut rhs = vec![0u64; w];
    for c in 0..w {
        let mut form = vec![0u64; len];
        for (k, v) in form.iter_mut().enumerate() {
            let mut around = prev[c * len + k];
            if c > 0 {
                around += cur[(c - 1) * len + k];
            }
            if c + 1 < w {
                around += cur[(c + 1) * len + k];
            }
            *v = (f.self_weight * cur[c * len + k] % m + f.neighbor_weight * (around % m) % m) % m;
        }
        matrix[c * w..(c + 1) * w].copy_from_slice(&form[..w]);
        rhs[c] = (d.at(f.cell(r, c)) + m - form[w]) % m;
    }
    super::modular::solve_dense(m, w, w, matrix, rhs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse_puzzle;

    /// Propagation equals dense elimination on small boards of several moduli and shapes.
    #[test]
    fn agrees_with_dense_elimination() {
        for (rows, cols) in [(2, 2), (2, 5), (5, 2), (3, 7), (6, 4), (5, 5), (9, 9)] {
            for (m, s, w) in
                [(2, 1, 1), (2, 0, 1), (3, 1, 1), (4, 1, 1), (4, 2, 3), (5, 2, 1), (6, 1, 1), (6, 3, 5)]
            {
                let source = format!(
                    "Puzzle(graph: Grid(rows: {rows}, cols: {cols}), modulus: {m}, press: (self: {s}, neighbors: {w}), target: All({}))",
                    m - 1
                );
                let puzzle = parse_puzzle(&source).unwrap();
                let fast = solve(&puzzle).expect("applies");
                let dense = super::super::modular::solve(&puzzle);
                assert_eq!(fast.count, dense.count, "{source}");
                assert_eq!(fast.kernel_size, dense.kernel_size, "{source}");
                assert_eq!(fast.periods, dense.periods, "{source}");
                if let Some(x) = &fast.presses {
                    assert!(puzzle.solves(x), "{source}");
                }
                let compact = solve_compact(&puzzle).expect("verified");
                assert_eq!(compact.kernel_size, fast.kernel_size, "{source}");
                let widened =
                    compact.presses.map(|x| x.counts().into_iter().map(BigUint::from).collect::<Vec<_>>());
                assert_eq!(widened, fast.presses, "{source}");
                let zero = vec![0u64; puzzle.cell_count()];
                let orders: BigUint = fast.quiet_basis.iter().map(|g| &g.order).product();
                assert_eq!(orders, fast.kernel_size, "{source}");
                for g in &fast.quiet_basis {
                    assert_eq!(puzzle.apply(&zero, &g.presses), zero, "{source}");
                }
            }
        }
    }

    /// Bit-packed mod 2 plans with per-cell starts, in both frames (rows longer or shorter than
    /// columns, widths across word boundaries): the same plan as the general path, verified on
    /// packed words, and one flipped press fails the packed verification.
    #[test]
    fn packed_plans_match_and_verify() {
        for (rows, cols) in [(7, 12), (12, 7), (3, 130), (130, 3), (65, 66)] {
            let start: Vec<String> =
                (0..rows * cols).map(|i| ((i * 7 + i / 3) % 5 % 2).to_string()).collect();
            for self_weight in [0, 1] {
                let source = format!(
                    "Puzzle(graph: Grid(rows: {rows}, cols: {cols}), modulus: 2, press: (self: {self_weight}, neighbors: 1), start: [{}])",
                    start.join(",")
                );
                let puzzle = parse_puzzle(&source).unwrap();
                let f = frame(&puzzle).unwrap();
                let fast = solve(&puzzle).expect("applies");
                let compact = solve_compact(&puzzle).expect("verified");
                let Some(CompactPlan::Bits { mut words, len }) = compact.presses.clone() else {
                    assert!(fast.presses.is_none(), "{source}");
                    continue;
                };
                assert_eq!(len, rows * cols);
                let widened =
                    compact.presses.map(|x| x.counts().into_iter().map(BigUint::from).collect::<Vec<_>>());
                assert_eq!(widened, fast.presses, "{source}");
                assert!(verify_bits(&puzzle, &f, &words), "{source}");
                words[(len - 1) / 64] ^= 1 << ((len - 1) % 64);
                assert!(!verify_bits(&puzzle, &f, &words), "{source}");
            }
        }
    }
}

/// A big grid's plan in compact form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum CompactPlan {
    /// Mod 2: bit `i % 64` of word `i / 64` is the press of cell `i` (`len` cells).
    Bits { words: Vec<u64>, len: usize },
    /// Other moduli: one press count per cell (the modulus is below 2^32).
    Counts(Vec<u32>),
}

impl CompactPlan {
    /// The press count of every cell.
    #[cfg(test)]
    pub(crate) fn counts(&self) -> Vec<u32> {
        match self {
            CompactPlan::Bits { words, len } => {
                (0..*len).map(|i| (words[i / 64] >> (i % 64) & 1) as u32).collect()
            }
            CompactPlan::Counts(v) => v.clone(),
        }
    }
}

/// A big grid's answer in compact form: the plan bit-packed (mod 2) or as one `u32` per cell,
/// without the per-cell big integers of [`Answer`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct CompactAnswer {
    pub modulus: u64,
    /// One plan, verified by simulation, or `None` when there is none.
    pub presses: Option<CompactPlan>,
    /// Plans that change nothing, the zero plan included (= the number of plans when solvable).
    pub kernel_size: BigUint,
}

/// Solves a grid by propagation without building per-cell big integers, on the path
/// [`super::path`] chose for it (an error when propagation does not apply, which that path
/// rules out). The plan is verified before it is returned.
pub(crate) fn solve_compact(puzzle: &Puzzle) -> Result<CompactAnswer, InternalError> {
    let Some(f) = frame(puzzle) else {
        return Err(InternalError::Unsupported(
            "light chasing in compact form needs a grid that light chasing solves".into(),
        ));
    };
    crate::bounded::work(chase_work(&f));
    let d = Difference::of(puzzle);
    let (first_row, _, count_exponent) = last_row(&f, d, false);
    let presses = first_row.map(|y| {
        if f.modulus == 2 {
            CompactPlan::Bits { words: replay_gf2_packed(&f, d, &y), len: f.height * f.width }
        } else {
            CompactPlan::Counts(replay(&f, d, &y))
        }
    });
    let verified = match &presses {
        None => true,
        Some(CompactPlan::Bits { words, .. }) => verify_bits(puzzle, &f, words),
        Some(CompactPlan::Counts(x)) => verify(puzzle, &f, x),
    };
    if !verified {
        return Err(InternalError::VerificationFailed("propagation on a big grid".into()));
    }
    Ok(CompactAnswer { modulus: f.modulus, presses, kernel_size: kernel_size(f.modulus, &count_exponent) })
}

/// Simulates a bit-packed mod 2 plan (see [`verify`]) on packed words, a grid row at a time in
/// the original numbering: what the presses add to a row is `s·x + x[c − 1] + x[c + 1] + the
/// rows above and below`, 64 cells an operation, and it must equal `target − start`.
fn verify_bits(puzzle: &Puzzle, f: &Frame, x: &[u64]) -> bool {
    let Topology::Grid { rows, cols, .. } = puzzle.topology else { return false };
    if f.modulus != 2 || x.len() != (rows * cols).div_ceil(64) || f.neighbor_weight & 1 != 1 {
        return false;
    }
    let words = cols.div_ceil(64);
    let last_mask = if cols.is_multiple_of(64) { u64::MAX } else { (1u64 << (cols % 64)) - 1 };
    let self_bit = f.self_weight & 1 == 1;
    let uniform = match (puzzle.start.uniform(), puzzle.target.uniform()) {
        (Some(s), Some(t)) => Some(if (t ^ s) & 1 == 1 { u64::MAX } else { 0 }),
        _ => None,
    };
    let (mut up, mut row, mut down) = (vec![0u64; words], vec![0u64; words], vec![0u64; words]);
    let mut wanted = vec![0u64; words];
    get_bits(x, 0, cols, &mut row);
    for r in 0..rows {
        if r + 1 < rows {
            get_bits(x, (r + 1) * cols, cols, &mut down);
        } else {
            down.fill(0);
        }
        match uniform {
            Some(fill) => wanted.fill(fill),
            None => {
                wanted.fill(0);
                for c in 0..cols {
                    let cell = r * cols + c;
                    let bit = (puzzle.target[cell] ^ puzzle.start[cell]) & 1;
                    wanted[c / 64] |= bit << (c % 64);
                }
            }
        }
        for k in 0..words {
            let left = row[k] << 1 | if k > 0 { row[k - 1] >> 63 } else { 0 };
            let right = row[k] >> 1 | if k + 1 < words { row[k + 1] << 63 } else { 0 };
            let own = if self_bit { row[k] } else { 0 };
            let mask = if k + 1 == words { last_mask } else { u64::MAX };
            if (own ^ left ^ right ^ up[k] ^ down[k] ^ wanted[k]) & mask != 0 {
                return false;
            }
        }
        std::mem::swap(&mut up, &mut row);
        std::mem::swap(&mut row, &mut down);
    }
    true
}

/// Simulates a compact plan: every cell ends on its target (a direct grid sweep in the original
/// numbering, independent of the frame; the model's general simulation is tested against it in
/// `agrees_with_dense_elimination`).
fn verify(puzzle: &Puzzle, f: &Frame, x: &[u32]) -> bool {
    let m = f.modulus;
    let Topology::Grid { rows, cols, .. } = puzzle.topology else { return false };
    if x.len() != rows * cols {
        return false;
    }
    let (s, n) = (f.self_weight, f.neighbor_weight);
    // What the presses add to each cell: s·x + n·(sum of the neighbours' presses), reduced.
    let added = |cell: usize, r: usize, c: usize| -> u64 {
        let mut around = 0u64;
        if c > 0 {
            around += x[cell - 1] as u64;
        }
        if c + 1 < cols {
            around += x[cell + 1] as u64;
        }
        if r > 0 {
            around += x[cell - cols] as u64;
        }
        if r + 1 < rows {
            around += x[cell + cols] as u64;
        }
        if m == 2 {
            (s * x[cell] as u64 + n * around) & 1
        } else {
            (s * x[cell] as u64 % m + n * (around % m) % m) % m
        }
    };
    let uniform = (puzzle.start.uniform(), puzzle.target.uniform());
    (0..rows).all(|r| {
        (0..cols).all(|c| {
            let cell = r * cols + c;
            let (start, target) = match uniform {
                (Some(s), Some(t)) => (s, t),
                _ => (puzzle.start[cell], puzzle.target[cell]),
            };
            let total = start + added(cell, r, c);
            (if total >= m { total - m } else { total }) == target
        })
    })
}
