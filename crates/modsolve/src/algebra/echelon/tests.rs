//! Tests of the elimination over `Z/p^E`: every storage against a plain reference
//! elimination, and the solutions read from it against the system.

use super::*;
use rand::{RngExt, SeedableRng, rngs::StdRng};

/// The sizes where word, lane-vector and cache-line boundaries are crossed.
const EDGE_SIZES: [usize; 11] = [1, 2, 63, 64, 65, 127, 128, 129, 255, 256, 257];
/// `(p, E)`: fields, prime powers, and a prime just below 2^31.
const MODULI: [(u64, u32); 9] =
    [(2, 1), (3, 1), (2, 2), (7, 1), (2, 3), (3, 2), (5, 2), (7, 2), (2_147_483_647, 1)];
const ALL: [Accumulator; 6] = [
    Accumulator::Auto,
    Accumulator::Bits,
    Accumulator::Lazy16,
    Accumulator::Lazy32,
    Accumulator::Lazy64,
    Accumulator::Wide,
];

fn mul(a: u64, b: u64, q: u64) -> u64 {
    if q <= 1 << 32 { a * b % q } else { (a as u128 * b as u128 % q as u128) as u64 }
}

fn power(mut a: u64, mut n: u64, q: u64) -> u64 {
    let mut out = 1 % q;
    while n > 0 {
        if n & 1 == 1 {
            out = mul(out, a, q);
        }
        a = mul(a, a, q);
        n >>= 1;
    }
    out
}

/// What elimination must produce, computed the plain way: rows of `Vec<u64>`, every
/// product reduced at once, inverses by Euler's theorem.
struct Reference {
    valuations: Vec<u32>,
    unit_inverses: Vec<u64>,
    perm: Vec<usize>,
    rows: Vec<Vec<u64>>,
    rhs: Vec<Vec<u64>>,
}

fn reference(s: &PrimePowerSystem) -> Reference {
    let (p, q) = (s.p, s.modulus());
    let totient = q / p * (p - 1);
    let mut a: Vec<Vec<u64>> = s.matrix.chunks(s.cols.max(1)).take(s.rows).map(<[u64]>::to_vec).collect();
    let mut rhs = s.rhs.clone();
    let mut perm: Vec<usize> = (0..s.cols).collect();
    let (mut valuations, mut unit_inverses) = (Vec::new(), Vec::new());
    let valuation = |mut x: u64| {
        let mut v = 0;
        while x.is_multiple_of(p) {
            x /= p;
            v += 1;
        }
        v
    };
    for k in 0..s.rows.min(s.cols) {
        // The first entry of lowest valuation in column-major order.
        let mut best: Option<(u32, usize, usize)> = None;
        'search: for c in k..s.cols {
            for (r, row) in a.iter().enumerate().skip(k) {
                if row[c] != 0 && best.is_none_or(|(bv, _, _)| valuation(row[c]) < bv) {
                    best = Some((valuation(row[c]), r, c));
                    if best.is_some_and(|(v, _, _)| v == 0) {
                        break 'search;
                    }
                }
            }
        }
        let Some((v, pr, pc)) = best else { break };
        a.swap(pr, k);
        rhs.iter_mut().for_each(|b| b.swap(pr, k));
        a.iter_mut().for_each(|row| row.swap(pc, k));
        perm.swap(pc, k);
        let pv = p.pow(v);
        let unit_inverse = power(a[k][k] / pv % q, totient - 1, q);
        for r in k + 1..s.rows {
            if a[r][k] != 0 {
                let f = mul(a[r][k] / pv, unit_inverse, q);
                let (head, tail) = a.split_at_mut(r);
                for (x, &y) in tail[0][k..].iter_mut().zip(&head[k][k..]) {
                    *x = (*x + q - mul(f, y, q)) % q;
                }
                for b in &mut rhs {
                    b[r] = (b[r] + q - mul(f, b[k], q)) % q;
                }
            }
        }
        valuations.push(v);
        unit_inverses.push(unit_inverse);
    }
    let rows = a.iter().enumerate().take(valuations.len()).map(|(k, row)| row[k..].to_vec()).collect();
    Reference { valuations, unit_inverses, perm, rows, rhs }
}

/// `A·x mod q`.
fn apply(s: &PrimePowerSystem, x: &[u64]) -> Vec<u64> {
    let q = s.modulus();
    (0..s.rows)
        .map(|r| (0..s.cols).fold(0, |acc, c| (acc + mul(s.matrix[r * s.cols + c], x[c], q)) % q))
        .collect()
}

/// A random entry with a random valuation: a unit half of the time.
fn entry(rng: &mut StdRng, p: u64, e: u32) -> u64 {
    let q = p.pow(e);
    let x = rng.random_range(0..q);
    if rng.random_bool(0.5) { x } else { x * p.pow(rng.random_range(0..=e)) % q }
}

/// Test systems mod `p^E` of about `n` unknowns: mixed valuations (square and wide), low rank
/// (a product through at most 24 inner columns, tall), each with a solvable right side `A·x0`
/// and a random one.
fn systems(rng: &mut StdRng, n: usize, p: u64, e: u32) -> Vec<PrimePowerSystem> {
    let q = p.pow(e);
    let mut out = Vec::new();
    for (rows, cols, inner) in [(n, n, None), (n / 2 + 1, n, None), (n + n / 2, n, Some((n / 3 + 1).min(24)))]
    {
        let matrix: Vec<u64> = match inner {
            None => (0..rows * cols).map(|_| entry(rng, p, e)).collect(),
            Some(inner) => {
                let left: Vec<u64> = (0..rows * inner).map(|_| entry(rng, p, e)).collect();
                let right: Vec<u64> = (0..inner * cols).map(|_| entry(rng, p, e)).collect();
                (0..rows * cols)
                    .map(|i| {
                        let (r, c) = (i / cols, i % cols);
                        (0..inner)
                            .fold(0, |acc, t| (acc + mul(left[r * inner + t], right[t * cols + c], q)) % q)
                    })
                    .collect()
            }
        };
        let mut s = PrimePowerSystem { p, e, rows, cols, matrix, rhs: vec![] };
        let x0: Vec<u64> = (0..cols).map(|_| rng.random_range(0..q)).collect();
        s.rhs = vec![apply(&s, &x0), (0..rows).map(|_| rng.random_range(0..q)).collect()];
        out.push(s);
    }
    out
}

/// Every storage gives exactly the reference elimination (pivots, valuations, rows, right
/// sides), and the solutions and kernel generators satisfy the system, at the edge sizes.
#[test]
fn delayed_reduction_matches_the_reference_elimination() {
    let mut rng = StdRng::seed_from_u64(31);
    for (p, e) in MODULI {
        let q = p.pow(e);
        for n in EDGE_SIZES {
            for (case, s) in systems(&mut rng, n, p, e).into_iter().enumerate() {
                let want = reference(&s);
                for storage in ALL.into_iter().filter(|a| a.supports(q)) {
                    let what = format!("q={q} n={n} case={case} {storage:?}");
                    let got = s.clone().eliminate_with(storage);
                    assert_eq!(got.rank, want.valuations.len(), "{what}: rank");
                    assert_eq!(got.pivot_valuations, want.valuations, "{what}: valuations");
                    assert_eq!(got.perm, want.perm, "{what}: column order");
                    assert_eq!(got.pivot_unit_inverses, want.unit_inverses, "{what}: unit inverses");
                    assert_eq!(got.pivot_rows, want.rows, "{what}: pivot rows");
                    assert_eq!(got.transformed_rhs, want.rhs, "{what}: right sides");
                }
                let echelon = s.clone().eliminate();
                check_solutions(&s, &echelon, &format!("q={q} n={n} case={case}"));
                if n <= 129 {
                    assert_eq!(
                        echelon.kernel_generators(),
                        echelon.kernel_generators_one_by_one(),
                        "q={q} n={n} case={case}: batched kernel generators"
                    );
                }
            }
        }
    }
}

/// The `Echelon` contract: pivot valuations rise, every entry of a pivot row is divisible
/// by its pivot's power of p, the solvable right side has a solution that reproduces it, and
/// every kernel generator vanishes with the stated additive order.
fn check_solutions(s: &PrimePowerSystem, echelon: &Echelon, what: &str) {
    let (p, q) = (s.p, s.modulus());
    assert!(echelon.pivot_valuations.windows(2).all(|w| w[0] <= w[1]), "{what}");
    for (row, &v) in echelon.pivot_rows.iter().zip(&echelon.pivot_valuations) {
        assert!(row.iter().all(|&x| x % p.pow(v) == 0), "{what}: a pivot row is not divisible");
    }
    let x = echelon.particular(0).expect("solvable by construction");
    assert_eq!(apply(s, &x), s.rhs[0], "{what}: the particular solution");
    for which in 1..s.rhs.len() {
        if let Some(x) = echelon.particular(which) {
            assert_eq!(apply(s, &x), s.rhs[which], "{what}: right side {which}");
        }
    }
    let generators = echelon.kernel_generators();
    let sample = generators.len().saturating_sub(8);
    // The first and the last few generators (pivot-seeded and free-column ones).
    for (g, order) in
        generators.into_iter().enumerate().filter(|&(i, _)| i < 8 || i >= sample).map(|(_, g)| g)
    {
        assert!(apply(s, &g).iter().all(|&y| y == 0), "{what}: a kernel generator");
        let below = p.pow(order - 1);
        assert!(g.iter().any(|&y| mul(y, below, q) != 0), "{what}: a kernel generator's order");
    }
}

/// Lazy lanes reduce before they overflow: many pivots with entries close to `q`.
#[test]
fn delayed_reduction_survives_long_runs_of_large_entries() {
    for (p, e, storage) in
        [(7u64, 2u32, Accumulator::Lazy16), (127, 1, Accumulator::Lazy16), (65_521, 1, Accumulator::Lazy32)]
    {
        let q = p.pow(e);
        let n = 300;
        // Lower triangular ones with `q - 1` everywhere below: every update adds ~(q - 1)^2.
        let matrix = (0..n * n)
            .map(|i| {
                if i % n == i / n {
                    1
                } else if i % n < i / n {
                    q - 1
                } else {
                    0
                }
            })
            .collect();
        let s = PrimePowerSystem { p, e, rows: n, cols: n, matrix, rhs: vec![vec![1; n]] };
        let want = reference(&s);
        let got = s.clone().eliminate_with(storage);
        assert_eq!(got.pivot_rows, want.rows, "q={q}");
        assert_eq!(got.transformed_rhs, want.rhs, "q={q}");
        check_solutions(&s, &got, &format!("q={q}"));
    }
}
