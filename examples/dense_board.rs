//! An n×n Lights Out board (all off → all on) solved as one dense GF(2) system of n² unknowns,
//! as a library like M4RI would: `cargo run --release --example dense_board -- 100`. Prints the
//! count, the presses of the verified plan and the time; compare the whole process side by side
//! with `benches/reference/m4ri_board.c`. (modsolve itself solves such boards by light chasing,
//! thousands of times faster; this measures the dense kernel on a structured system.)

use std::time::Instant;

use modsolve::parse_puzzle;
use modsolve::solve::{Method, solve_with};

fn main() {
    let n: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(100);
    let source = format!("Puzzle(graph: Grid(rows: {n}, cols: {n}), modulus: 2, target: All(1))");
    let puzzle = parse_puzzle(&source).expect("a valid board");
    let t = Instant::now();
    let answer = solve_with(&puzzle, Method::Gf2).expect("verified by simulation");
    let seconds = t.elapsed().as_secs_f64();
    let presses: u64 = answer.presses.iter().flatten().map(|x| u64::try_from(x).unwrap_or(u64::MAX)).sum();
    println!(
        "{n}x{n} ({} unknowns) as one dense GF(2) system: {:?}, {} plans, a plan of {presses} presses, {seconds:.3} s",
        n * n,
        answer.method,
        answer.count
    );
}
