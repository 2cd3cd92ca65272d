//! Benchmark: proven fewest presses for every m×n Lights Out board (all off → all on) with
//! m, n <= 20, and the octopus. Run with `cargo run --release --example bench_fewest`.

use std::time::Instant;

use modsolve::analysis::{Options, analyze};
use modsolve::parse_puzzle;

fn main() {
    let options = Options::default();
    let mut slowest = (0.0f64, 0, 0);
    let mut total = 0.0;
    let mut unproven = 0;
    for m in 1..=20 {
        for n in 1..=20 {
            let source = format!("Puzzle(graph: Grid(rows: {m}, cols: {n}), modulus: 2, target: All(1))");
            let started = Instant::now();
            let puzzle = parse_puzzle(&source).expect("valid");
            let analysis = analyze(&puzzle, &options).expect("verified");
            let seconds = started.elapsed().as_secs_f64();
            unproven += usize::from(!analysis.fewest.expect("solvable").is_proven());
            total += seconds;
            if seconds > slowest.0 {
                slowest = (seconds, m, n);
            }
        }
    }
    println!(
        "400 boards up to 20×20: {total:.3} s in all, slowest {}×{} in {:.4} s, {unproven} not proven",
        slowest.1, slowest.2, slowest.0
    );
    let source = std::fs::read_to_string("puzzles/octopus.ron").expect("run from the repository root");
    let runs = 100;
    let started = Instant::now();
    for _ in 0..runs {
        let puzzle = parse_puzzle(&source).expect("valid");
        analyze(&puzzle, &options).expect("verified");
    }
    println!(
        "octopus: {:.3} ms per solve (fewest proven)",
        started.elapsed().as_secs_f64() * 1000.0 / runs as f64
    );
}
