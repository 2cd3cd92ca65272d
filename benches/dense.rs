//! Dense elimination on random matrices: GF(2) through the kernel the solver picks (full reduced
//! row echelon form), mod 7 (delayed reduction in 16-bit lanes) and mod 6 (the per-prime split:
//! bit-packed mod 2 and lazy mod 3). `cargo bench --features kernels --bench dense`; add `-- gf2/16384` for the
//! largest size, which is left out by default as it takes a while.

use criterion::{BatchSize, BenchmarkId, Criterion, criterion_group, criterion_main};
use modsolve::algebra::echelon::PrimePowerSystem;
use modsolve::algebra::factor::factorize;
use modsolve::algebra::gf2::{BitMatrix, Elimination, echelonize};
use rand::{RngExt, SeedableRng, rngs::StdRng};

fn random_bits(rng: &mut StdRng, n: usize) -> BitMatrix {
    BitMatrix::from_fn(n, n, |_, _| rng.random_bool(0.5))
}

/// A random `n × n` system mod `m` with one right side, split by prime power.
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

fn gf2(c: &mut Criterion) {
    let mut group = c.benchmark_group("gf2");
    group.sample_size(10);
    let mut rng = StdRng::seed_from_u64(1);
    let large = std::env::args().any(|a| a.contains("16384"));
    let sizes: &[usize] = if large { &[1024, 2048, 4096, 8192, 16384] } else { &[1024, 2048, 4096, 8192] };
    for &n in sizes {
        let m = random_bits(&mut rng, n);
        group.bench_with_input(BenchmarkId::from_parameter(n), &m, |b, m| {
            b.iter_batched_ref(|| m.clone(), |m| echelonize(m, n, Elimination::Auto), BatchSize::LargeInput)
        });
    }
    group.finish();
}

fn modular(c: &mut Criterion) {
    let mut rng = StdRng::seed_from_u64(2);
    for (m, sizes) in [(7u64, &[500usize, 1000, 2000][..]), (6, &[500, 1000][..])] {
        let mut group = c.benchmark_group(format!("mod{m}"));
        group.sample_size(10);
        for &n in sizes {
            let systems = modular_systems(&mut rng, m, n);
            group.bench_with_input(BenchmarkId::from_parameter(n), &systems, |b, systems| {
                b.iter_batched(
                    || systems.clone(),
                    |systems| systems.into_iter().map(|s| s.eliminate().rank()).sum::<usize>(),
                    BatchSize::LargeInput,
                )
            });
        }
        group.finish();
    }
}

criterion_group!(benches, gf2, modular);
criterion_main!(benches);
