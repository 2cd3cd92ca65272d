//! n×n Lights Out boards, all off → all on, solved by propagation (light chasing) in compact
//! form through `modsolve::analyse`, the path the binary takes past 250,000 cells: `cargo bench --bench boards`. Sizes 100
//! to 2000 by default; add `-- boards/4000` or `-- boards/8000` for the large ones (seconds each).

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use modsolve::parse_puzzle;
use modsolve::solve::Budget;
use modsolve::{Options, analyse};

fn boards(c: &mut Criterion) {
    let mut group = c.benchmark_group("boards");
    group.sample_size(10);
    let args: Vec<String> = std::env::args().collect();
    let mut sizes = vec![100usize, 300, 1000, 2000];
    for large in [4000usize, 8000] {
        if args.iter().any(|a| a.contains(&large.to_string())) {
            sizes.push(large);
        }
    }
    // The compact path, without a time bound (no worker thread, no copy of the puzzle).
    let options = Options::default().budget(Budget::default());
    for n in sizes {
        let source = format!("Puzzle(graph: Grid(rows: {n}, cols: {n}), modulus: 2, target: All(1))");
        let puzzle = parse_puzzle(&source).expect("valid");
        group.bench_with_input(BenchmarkId::from_parameter(n), &puzzle, |b, p| {
            b.iter(|| analyse(p, &options).expect("verified"))
        });
    }
    group.finish();
}

criterion_group!(benches, boards);
criterion_main!(benches);
