//! Benchmark: proven fewest presses of Lights Out boards (all off → all on).
//!
//! `cargo run --release --example bench_fewest -- [LARGEST] [BUDGET_SECONDS] [SMALLEST]` prints,
//! for every n×n board with n = SMALLEST..=LARGEST (default 1..=54), the dimension of its quiet patterns, the fewest
//! presses, whether that is proven and the time of the whole analysis; then every m×n board with
//! m, n <= 30, n×n boards mod 3 (press adds 1 to the cell and its neighbours, all 0 → all 1) and
//! the octopus. The budget (default 600 s) bounds each board.
//!
//! `cargo run --release --example bench_fewest -- modp LARGEST BUDGET_SECONDS` prints instead,
//! for p = 3, 5, 7 and n = 1..=LARGEST, the n×n boards mod p (all 0 → all 1) whose quiet space
//! has at least p^6 plans: its dimension, the fewest presses, whether proven, and the time.

use std::time::{Duration, Instant};

use modsolve::analysis::{Options, analysis_of};
use modsolve::parse_puzzle;
use modsolve::solve::Budget;

fn main() {
    let mut args = std::env::args().skip(1).peekable();
    if args.peek().map(String::as_str) == Some("modp") {
        let largest: usize = args.nth(1).map_or(80, |a| a.parse().expect("LARGEST is a number"));
        let budget: u64 = args.next().map_or(60, |a| a.parse().expect("BUDGET_SECONDS is a number"));
        return mod_p(largest, budget);
    }
    let largest: usize = args.next().map_or(54, |a| a.parse().expect("LARGEST is a number"));
    let budget: u64 = args.next().map_or(600, |a| a.parse().expect("BUDGET_SECONDS is a number"));
    let smallest: usize = args.next().map_or(1, |a| a.parse().expect("SMALLEST is a number"));
    let options = Options::default().budget(Budget::of_time(Duration::from_secs(budget)));
    let solve = |source: &str| {
        let started = Instant::now();
        let puzzle = parse_puzzle(source).expect("valid");
        let analysis = analysis_of(&puzzle, &options).expect("verified");
        let seconds = started.elapsed().as_secs_f64();
        let quiet = analysis.quiet_patterns.expect("counted") + 1u32;
        let (fewest, proven) = analysis.fewest.map_or((None, true), |p| (Some(p.total()), p.is_proven()));
        (fewest, proven, quiet, seconds)
    };

    println!("n×n Lights Out, all off → all on");
    println!("{:>3} {:>9} {:>8} {:>7} {:>10}", "n", "quiet dim", "fewest", "proven", "seconds");
    for n in smallest..=largest {
        let (fewest, proven, quiet, seconds) =
            solve(&format!("Puzzle(graph: Grid(rows: {n}, cols: {n}), modulus: 2, target: All(1))"));
        let dimension = exponent(quiet, 2);
        let fewest = fewest.map_or("none".to_string(), |f| f.to_string());
        println!("{n:>3} {dimension:>9} {fewest:>8} {proven:>7} {seconds:>10.3}");
    }

    let mut slowest = (0.0f64, 0, 0, 0);
    let (mut total, mut unproven) = (0.0, 0);
    for m in 1..=30 {
        for n in 1..=30 {
            let (_, proven, quiet, seconds) =
                solve(&format!("Puzzle(graph: Grid(rows: {m}, cols: {n}), modulus: 2, target: All(1))"));
            unproven += usize::from(!proven);
            total += seconds;
            if seconds > slowest.0 {
                slowest = (seconds, m, n, exponent(quiet, 2));
            }
        }
    }
    println!(
        "900 boards m×n up to 30×30: {total:.3} s in all, slowest {}×{} (quiet dim {}) in {:.4} s, {unproven} not proven",
        slowest.1, slowest.2, slowest.3, slowest.0
    );

    println!("n×n mod 3, all 0 → all 1 (quiet space 3^dim)");
    for n in 1..=24 {
        let (fewest, proven, quiet, seconds) =
            solve(&format!("Puzzle(graph: Grid(rows: {n}, cols: {n}), modulus: 3, target: All(1))"));
        let d = exponent(quiet, 3);
        if d > 0 {
            let fewest = fewest.map_or("none".to_string(), |f| f.to_string());
            println!("{n:>3} mod 3: quiet dim {d:>2}, fewest {fewest:>5}, proven {proven}, {seconds:.3} s");
        }
    }

    let source = std::fs::read_to_string("puzzles/octopus.ron").expect("run from the repository root");
    let runs = 100;
    let started = Instant::now();
    for _ in 0..runs {
        let puzzle = parse_puzzle(&source).expect("valid");
        analysis_of(&puzzle, &options).expect("verified");
    }
    println!(
        "octopus: {:.3} ms per solve (fewest proven)",
        started.elapsed().as_secs_f64() * 1000.0 / runs as f64
    );
}

/// The n×n boards mod 3, 5 and 7 with quiet spaces of at least p^6 plans.
fn mod_p(largest: usize, budget: u64) {
    let options = Options::default().budget(Budget::of_time(Duration::from_secs(budget)));
    println!("n×n mod p, all 0 → all 1, budget {budget} s");
    println!("{:>2} {:>3} {:>9} {:>7} {:>7} {:>9}", "p", "n", "quiet dim", "fewest", "proven", "seconds");
    for p in [3u32, 5, 7] {
        for n in 1..=largest {
            let source = format!("Puzzle(graph: Grid(rows: {n}, cols: {n}), modulus: {p}, target: All(1))");
            let puzzle = parse_puzzle(&source).expect("valid");
            // The count alone first (no search), to skip the small quiet spaces.
            let count_only = Options::default().budget(Budget::of_nodes(0));
            let quiet =
                analysis_of(&puzzle, &count_only).expect("verified").quiet_patterns.expect("counted") + 1u32;
            let dimension = exponent(quiet, p);
            if dimension < 6 {
                continue;
            }
            let started = Instant::now();
            let analysis = analysis_of(&puzzle, &options).expect("verified");
            let seconds = started.elapsed().as_secs_f64();
            let (fewest, proven) = analysis
                .fewest
                .map_or(("none".to_string(), true), |f| (f.total().to_string(), f.is_proven()));
            println!("{p:>2} {n:>3} {dimension:>9} {fewest:>7} {proven:>7} {seconds:>9.3}");
        }
    }
}

/// `e` with `base^e = value` (the quiet space's dimension).
fn exponent(mut value: num_bigint::BigUint, base: u32) -> u32 {
    let mut e = 0;
    while value > 1u32.into() {
        value /= base;
        e += 1;
    }
    e
}
