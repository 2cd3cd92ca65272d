//! Benchmark of the phases on an n×n Lights Out board (all off → all on):
//! `cargo run --release --example bench_grid -- 1000`.

use std::time::Instant;

use modsolve::Options;
use modsolve::parse_puzzle;

fn main() {
    let n: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(1000);
    let source = format!("Puzzle(graph: Grid(rows: {n}, cols: {n}), modulus: 2, target: All(1))");
    let t = Instant::now();
    let puzzle = parse_puzzle(&source).expect("valid");
    println!("parse     {:>8.3} s", t.elapsed().as_secs_f64());
    let t = Instant::now();
    let answer =
        modsolve::solve::solve_with(&puzzle, modsolve::solve::Method::Propagation).expect("verified");
    println!("propagate {:>8.3} s", t.elapsed().as_secs_f64());
    let t = Instant::now();
    assert!(puzzle.solves(answer.presses.as_ref().expect("solvable")));
    println!("simulate  {:>8.3} s", t.elapsed().as_secs_f64());
    let t = Instant::now();
    let report = modsolve::analyse(&puzzle, &Options::default()).expect("verified");
    println!("analyse   {:>8.3} s (solve, optimise, verify)", t.elapsed().as_secs_f64());
    let t = Instant::now();
    let text = serde_json::to_string(&report).expect("serialises");
    println!("json      {:>8.3} s ({} bytes)", t.elapsed().as_secs_f64(), text.len());
}
