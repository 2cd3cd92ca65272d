//! Tests of the GF(2) kernels: each against the plain one, and the solutions against the system.

use super::blocked::TILE_WORDS;
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
                assert!(same_before(&plain, &fast, r, eligible), "{how:?} {rows}×{cols}/{eligible} row {r}");
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
