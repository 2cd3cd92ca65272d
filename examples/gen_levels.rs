//! Writes random small grid puzzles (up to 10×10, moduli 2–6, random starts) for benchmarking
//! `modsolve check`: `cargo run --release --example gen_levels -- DIR COUNT [SEED]`.

use rand::{RngExt, SeedableRng, rngs::StdRng};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(dir), Some(count)) = (args.get(1), args.get(2).and_then(|c| c.parse::<usize>().ok())) else {
        eprintln!("usage: gen_levels DIR COUNT [SEED]");
        std::process::exit(2);
    };
    let seed = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(1);
    let mut rng = StdRng::seed_from_u64(seed);
    std::fs::create_dir_all(dir).expect("create the directory");
    for k in 0..count {
        let (rows, cols) = (rng.random_range(2..=10usize), rng.random_range(2..=10usize));
        let modulus = rng.random_range(2..=6u64);
        let start: Vec<String> = (0..rows * cols).map(|_| rng.random_range(0..modulus).to_string()).collect();
        let text = format!(
            "// Random level {k} for benchmarks.\nPuzzle(\n    graph: Grid(rows: {rows}, cols: {cols}),\n    modulus: {modulus},\n    start: [{}],\n)\n",
            start.join(", ")
        );
        std::fs::write(format!("{dir}/level-{k:04}.ron"), text).expect("write a level");
    }
}
