//! Times the dense kernels on random matrices, for side-by-side comparison with M4RI and FLINT:
//! `cargo run --release --features kernels --example dense_compare -- gf2 8192 5` (full reduced echelon form, by the
//! kernel the solver picks; also `gf2-plain`, `gf2-stripes` and `gf2-blocked` for one kernel,
//! `gf2-solve` for `solve` on `[A | b]`, `mod 7 2000`, `mod 6 1000`). Prints one
//! line per run and the median.

use std::time::Instant;

use modsolve::algebra::echelon::PrimePowerSystem;
use modsolve::algebra::factor::factorize;
use modsolve::algebra::gf2::{BitMatrix, Elimination, echelonize, solve};
use rand::{RngExt, SeedableRng, rngs::StdRng};

/// A random `n × n` matrix, 64 bits from each random word.
fn random_bits(rng: &mut StdRng, n: usize) -> BitMatrix {
    let mut word = 0u64;
    BitMatrix::from_fn(n, n, |_, c| {
        if c % 64 == 0 {
            word = rng.random();
        }
        word >> (c % 64) & 1 == 1
    })
}

/// A random `n × n` system mod `m` split by prime (one `PrimePowerSystem` per prime power).
fn modular_systems(rng: &mut StdRng, m: u64, n: usize) -> Vec<PrimePowerSystem> {
    let matrix: Vec<u64> = (0..n * n).map(|_| rng.random_range(0..m)).collect();
    let rhs: Vec<u64> = (0..n).map(|_| rng.random_range(0..m)).collect();
    factorize(m)
        .into_iter()
        .map(|(p, e)| {
            let q = p.pow(e);
            PrimePowerSystem {
                p,
                e,
                rows: n,
                cols: n,
                matrix: matrix.iter().map(|&a| a % q).collect(),
                rhs: vec![rhs.iter().map(|&b| b % q).collect()],
            }
        })
        .collect()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let kind = args.first().map_or("gf2", String::as_str);
    let mut rng = StdRng::seed_from_u64(1);
    let mut times = Vec::new();
    let (label, runs) = match kind {
        "gf2-solve" => {
            let n: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(8192);
            let runs: usize = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(5);
            for _ in 0..runs {
                // `[A | b]` with `n` unknowns.
                let m = BitMatrix::from_fn(n, n + 1, |_, _| rng.random_bool(0.5));
                let t = Instant::now();
                let out = solve(m);
                let s = t.elapsed().as_secs_f64();
                println!("{kind} n={n} rank={} solvable={} time={s:.4}", out.rank, out.solution.is_some());
                times.push(s);
            }
            (format!("{kind} n={n}"), runs)
        }
        "gf2" | "gf2-plain" | "gf2-stripes" | "gf2-blocked" => {
            let n: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(8192);
            let runs: usize = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(5);
            let how = match kind {
                "gf2-plain" => Elimination::Plain,
                "gf2-stripes" => Elimination::FourRussians,
                "gf2-blocked" => Elimination::Blocked,
                _ => Elimination::Auto,
            };
            for _ in 0..runs {
                let mut m = random_bits(&mut rng, n);
                let t = Instant::now();
                let rank = echelonize(&mut m, n, how).len();
                let s = t.elapsed().as_secs_f64();
                println!("{kind} n={n} rank={rank} time={s:.4}");
                times.push(s);
            }
            (format!("{kind} n={n}"), runs)
        }
        "mod" => {
            let m: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(7);
            let n: usize = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(2000);
            let runs: usize = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(5);
            for _ in 0..runs {
                let systems = modular_systems(&mut rng, m, n);
                let t = Instant::now();
                let ranks: Vec<usize> = systems.into_iter().map(|s| s.eliminate().rank()).collect();
                let s = t.elapsed().as_secs_f64();
                println!("mod {m} n={n} ranks={ranks:?} time={s:.4}");
                times.push(s);
            }
            (format!("mod {m} n={n}"), runs)
        }
        other => panic!("unknown kind {other}: gf2, gf2-plain, gf2-stripes, gf2-blocked, gf2-solve or mod"),
    };
    times.sort_by(f64::total_cmp);
    println!("{label}: median of {runs} = {:.6} s", times[runs / 2]);
}
