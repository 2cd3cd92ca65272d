//! Bit-packed linear algebra over GF(2): 64 unknowns per word, rows combined by XOR.
//!
//! Defining identity: Gauss–Jordan elimination of the augmented matrix `[A | b]` gives
//! `U·[A | b]·P = [[I, F, c], [0, 0, d]]` (up to the order of the pivot columns); the system is
//! solvable iff `d = 0`, a solution sets each pivot unknown to its `c` bit and every free unknown
//! to 0, and the kernel has the basis `e_f + Σ F[k][f]·e_(pivot k)`, one vector per free column.

/// A dense 0/1 matrix stored row by row, `words` 64-bit words per row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BitMatrix {
    pub rows: usize,
    pub cols: usize,
    words: usize,
    data: Vec<u64>,
}

impl BitMatrix {
    pub fn zeros(rows: usize, cols: usize) -> Self {
        let words = cols.div_ceil(64);
        BitMatrix { rows, cols, words, data: vec![0; rows * words] }
    }

    pub fn get(&self, r: usize, c: usize) -> bool {
        self.data[r * self.words + c / 64] >> (c % 64) & 1 == 1
    }

    pub fn flip(&mut self, r: usize, c: usize) {
        self.data[r * self.words + c / 64] ^= 1 << (c % 64);
    }

    pub fn set(&mut self, r: usize, c: usize, value: bool) {
        if self.get(r, c) != value {
            self.flip(r, c);
        }
    }

    fn swap_rows(&mut self, a: usize, b: usize) {
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

/// The outcome of [`solve`].
#[derive(Clone, Debug)]
pub struct Gf2Solution {
    pub rank: usize,
    /// One solution (free unknowns 0), or `None` when the system is inconsistent.
    pub solution: Option<Vec<bool>>,
    /// A basis of the kernel, one vector per free column.
    pub kernel_basis: Vec<Vec<bool>>,
}

/// Solves `A·x = b` over GF(2). `augmented` is `[A | b]`: `cols - 1` unknowns and the right side
/// in the last column.
pub fn solve(mut m: BitMatrix) -> Gf2Solution {
    let unknowns = m.cols - 1;
    let mut pivot_cols = Vec::new();
    let mut k = 0;
    for c in 0..unknowns {
        if k == m.rows {
            break;
        }
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
    let rank = k;
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

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng, rngs::StdRng};

    fn multiply(a: &BitMatrix, x: &[bool]) -> Vec<bool> {
        (0..a.rows).map(|r| (0..x.len()).filter(|&c| a.get(r, c) && x[c]).count() % 2 == 1).collect()
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
