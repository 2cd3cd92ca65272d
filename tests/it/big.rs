//! Big boards: a 300×300 board with a random start solves and verifies in the normal suite;
//! the compact path for boards of more than 250,000 cells agrees with the general one and
//! writes plans that re-simulate (all off → all on is re-simulated here, and its JSON is byte
//! for byte serde_json's); propagation (and its compact form) agrees with dense elimination on
//! every m×n board up to 30×30 for moduli 2 to 6, on tori and King grids, and at the word edges
//! of the bit-packed rows.

use assert_cmd::Command;
use modsolve::solve::{Method, solve_with};
use modsolve::{parse_puzzle, solve};
use num_bigint::BigUint;
use rand::{RngExt, SeedableRng, rngs::StdRng};
use rayon::prelude::*;

/// The compact path's answer through the library's entry point, forced on any board it applies
/// to: the plan (verified) and the number of plans that change nothing.
fn solve_compact(puzzle: &modsolve::Puzzle) -> (Option<Vec<BigUint>>, BigUint) {
    let options = modsolve::Options::default().budget(modsolve::solve::Budget::of_nodes(1)).compact_from(0);
    let report = modsolve::analyse(puzzle, &options).expect("verified");
    assert!(matches!(report.periods, modsolve::report::Numbers::Repeated { .. }), "the compact path ran");
    (report.fewest.map(|p| p.presses.to_big()), report.quiet_patterns.expect("counted") + 1u32)
}

fn random_rows(rows: usize, cols: usize, modulus: u64, seed: u64) -> String {
    let mut rng = StdRng::seed_from_u64(seed);
    let lines: Vec<String> = (0..rows)
        .map(|_| {
            let line: String = (0..cols)
                .map(|_| char::from_digit(rng.random_range(0..modulus) as u32, 36).unwrap())
                .collect();
            format!("\"{line}\"")
        })
        .collect();
    format!("Rows([{}])", lines.join(", "))
}

#[test]
fn board_300x300_with_a_random_start() {
    for modulus in [2u64, 3] {
        let source = format!(
            "Puzzle(graph: Grid(rows: 300, cols: 300), modulus: {modulus}, start: {})",
            random_rows(300, 300, modulus, modulus)
        );
        let puzzle = parse_puzzle(&source).unwrap();
        let answer = solve(&puzzle).expect("verified");
        assert_eq!(answer.method, Method::Propagation);
        if let Some(x) = &answer.presses {
            assert!(puzzle.solves(x));
        }
        // 300×300 has no quiet patterns for mod 2 or 3, so every start has exactly one plan;
        // the compact path (taken past 250,000 cells) finds the same one.
        assert_eq!(answer.count, BigUint::from(1u32), "mod {modulus}");
        let (presses, _) = solve_compact(&puzzle);
        assert_eq!(presses, answer.presses, "mod {modulus}");
    }
}

/// Every m×n board up to 30×30 (both orientations, so the symbolic row is sometimes the rows and
/// sometimes the columns), moduli 2 to 6, random start and target: light chasing, its compact
/// form and dense elimination agree on the count, and both plans simulate to the target. Starts
/// and targets are random pictures or uniform (`All`).
#[test]
fn propagation_agrees_with_dense_elimination_up_to_30x30() {
    let boards: Vec<(usize, usize, u64)> =
        (1..=30).flat_map(|r| (1..=30).flat_map(move |c| (2..=6u64).map(move |m| (r, c, m)))).collect();
    let solvable: usize = boards
        .par_iter()
        .map(|&(rows, cols, modulus)| {
            let seed = (rows * 1000 + cols * 10) as u64 + modulus;
            let what = format!("{rows}×{cols} mod {modulus}");
            // Half the boards have a random target, half All(m − 1).
            let target = if (rows + cols).is_multiple_of(2) {
                random_rows(rows, cols, modulus, seed + 7)
            } else {
                format!("All({})", modulus - 1)
            };
            // A third of the boards start from All(0): uniform states take their own fast path.
            let start =
                if (rows * cols + modulus as usize).is_multiple_of(3) { "All(0)".to_string() } else { random_rows(rows, cols, modulus, seed) };
            let source = format!(
                "Puzzle(graph: Grid(rows: {rows}, cols: {cols}), modulus: {modulus}, start: {start}, target: {target})"
            );
            let puzzle = parse_puzzle(&source).unwrap();
            let fast = solve_with(&puzzle, Method::Propagation).unwrap();
            let dense = solve_with(&puzzle, Method::Modular).unwrap();
            assert_eq!(fast.count, dense.count, "{what}");
            assert_eq!(fast.kernel_size, dense.kernel_size, "{what}");
            assert_eq!(fast.periods, dense.periods, "{what}");
            for answer in [&fast, &dense] {
                if let Some(x) = &answer.presses {
                    assert!(puzzle.solves(x), "{what}");
                }
            }
            if rows >= 2 && cols >= 2 {
                let (presses, kernel_size) = solve_compact(&puzzle);
                assert_eq!(kernel_size, dense.kernel_size, "{what}");
                assert_eq!(presses.is_some(), dense.is_solvable(), "{what}");
                if let Some(x) = presses {
                    assert!(puzzle.solves(&x), "{what}");
                }
            }
            usize::from(dense.is_solvable())
        })
        .sum();
    // Random starts are solvable on boards without quiet patterns: the test sees both kinds.
    assert!(
        solvable > boards.len() / 4 && solvable < boards.len(),
        "{solvable} of {} solvable",
        boards.len()
    );
}

/// Tori and King grids up to 30×30 (general propagation with symbolic seeds, where it applies)
/// agree with dense elimination on the count, and their plans simulate.
#[test]
fn torus_and_king_grids_agree_with_dense_elimination_up_to_30x30() {
    let boards: Vec<(usize, usize, u64, &str)> =
        [(3, 3), (4, 7), (8, 8), (13, 5), (16, 16), (21, 30), (30, 30)]
            .into_iter()
            .flat_map(|(r, c)| {
                (2..=6u64).flat_map(move |m| {
                    ["wrap: true", "neighborhood: King", "wrap: true, neighborhood: King"]
                        .map(move |g| (r, c, m, g))
                })
            })
            .collect();
    let propagated: usize = boards
        .par_iter()
        .map(|&(rows, cols, modulus, graph)| {
            let what = format!("{rows}×{cols} ({graph}) mod {modulus}");
            let source = format!(
                "Puzzle(graph: Grid(rows: {rows}, cols: {cols}, {graph}), modulus: {modulus}, start: {})",
                random_rows(rows, cols, modulus, (rows * cols) as u64 + modulus),
            );
            let puzzle = parse_puzzle(&source).unwrap();
            let fast = solve_with(&puzzle, Method::Propagation).unwrap();
            let dense = solve_with(&puzzle, Method::Modular).unwrap();
            assert_eq!(fast.count, dense.count, "{what}");
            assert_eq!(fast.kernel_size, dense.kernel_size, "{what}");
            if let Some(x) = &fast.presses {
                assert!(puzzle.solves(x), "{what}");
            }
            usize::from(fast.method == Method::Propagation)
        })
        .sum();
    assert!(propagated > boards.len() / 2, "propagation applied to only {propagated} of {}", boards.len());
}

/// Light chasing's bit-packed rows at word edges: symbolic rows (the shorter side) 2, 63, 64,
/// 65, 127, 128 and 129 wide, as rows and as columns, a few rows longer than wide so the band of
/// symbols fills the row before the end, mod 2, random start and target, against dense GF(2)
/// elimination.
#[test]
fn light_chasing_at_word_edges() {
    for width in [2usize, 63, 64, 65, 127, 128, 129] {
        for (rows, cols) in [(width, width + 3), (width + 3, width)] {
            for self_weight in [1, 0] {
                let seed = (rows * 7 + cols) as u64 + self_weight;
                let source = format!(
                    "Puzzle(graph: Grid(rows: {rows}, cols: {cols}), modulus: 2, press: (self: {self_weight}, neighbors: 1), start: {}, target: {})",
                    random_rows(rows, cols, 2, seed),
                    random_rows(rows, cols, 2, seed + 1),
                );
                let what = format!("{rows}×{cols}, self {self_weight}");
                let puzzle = parse_puzzle(&source).unwrap();
                let dense = solve_with(&puzzle, Method::Gf2).unwrap();
                let fast = solve_with(&puzzle, Method::Propagation).unwrap();
                assert_eq!(fast.count, dense.count, "{what}");
                assert_eq!(fast.kernel_size, dense.kernel_size, "{what}");
                {
                    let (presses, kernel_size) = solve_compact(&puzzle);
                    assert_eq!(kernel_size, dense.kernel_size, "{what}");
                    if let Some(x) = presses {
                        assert!(puzzle.solves(&x), "{what}");
                    }
                }
            }
        }
    }
}

/// 600×500 = 300,000 cells takes the compact path: its JSON plan re-simulates, and its count
/// equals the general path's.
#[test]
fn compact_path_for_big_boards() {
    let dir = crate::util::Scratch::new();
    let source = format!(
        "Puzzle(graph: Grid(rows: 600, cols: 500), modulus: 2, start: {})",
        random_rows(600, 500, 2, 9)
    );
    let path = dir.file("big.ron", &source);
    let out = Command::cargo_bin("modsolve").unwrap().arg(&path).arg("--json").output().unwrap();
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["method"], "algebra");
    assert_eq!(json["elimination"], "light-chasing");
    assert_eq!(json["symbolic_seeds"], 500);
    assert_eq!(json["periods"].as_array().unwrap().len(), 300_000);
    assert!(json["periods"].as_array().unwrap().iter().all(|p| p == 2));
    let puzzle = parse_puzzle(&source).unwrap();
    let general = solve(&puzzle).unwrap();
    assert_eq!(json["count"], general.count.to_string());
    assert_eq!(out.status.code(), Some(if general.is_solvable() { 0 } else { 1 }));
    if general.is_solvable() {
        let plan: Vec<BigUint> =
            json["presses"].as_array().unwrap().iter().map(|v| BigUint::from(v.as_u64().unwrap())).collect();
        assert!(puzzle.solves(&plan));
    }
}

/// All off → all on past the compact threshold (250,000 cells), the grid taller than wide and
/// wider than tall, widths that end inside a 64-bit word: the command's JSON is byte for byte
/// what `serde_json` writes for the library's report of the same puzzle, its two copies of the
/// plan agree, and the plan, re-simulated here cell by cell, lights every cell exactly once.
#[test]
fn compact_all_on_plans_resimulate_and_match_serde() {
    let dir = crate::util::Scratch::new();
    for (rows, cols) in [(613, 601), (499, 613)] {
        let source = format!("Puzzle(graph: Grid(rows: {rows}, cols: {cols}), modulus: 2, target: All(1))");
        let path = dir.file("all_on.ron", &source);
        let out = Command::cargo_bin("modsolve").unwrap().arg(&path).arg("--json").output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{rows}×{cols}");
        let puzzle = parse_puzzle(&source).unwrap();
        let report = modsolve::analyse(&puzzle, &modsolve::Options::default()).expect("verified");
        assert!(
            matches!(
                report.fewest.as_ref().map(|p| &p.presses),
                Some(modsolve::report::Numbers::Bits { .. })
            ),
            "{rows}×{cols}: the compact path keeps the plan bit-packed"
        );
        let mut serde = serde_json::to_vec(&report).unwrap();
        serde.push(b'\n');
        assert!(out.stdout == serde, "{rows}×{cols}: the JSON differs from serde_json's");
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(json["presses"], json["fewest"]["presses"]);
        let plan: Vec<u8> = json["presses"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| match v.as_u64() {
                Some(x @ (0 | 1)) => x as u8,
                other => panic!("{other:?} is not a mod 2 press"),
            })
            .collect();
        assert_eq!(plan.len(), rows * cols);
        let total: u64 = plan.iter().map(|&x| u64::from(x)).sum();
        assert_eq!(json["total_presses"], total);
        // Each press flips its cell and the cells beside it; every cell must end at 1.
        let mut lights = vec![0u8; rows * cols];
        for r in 0..rows {
            for c in 0..cols {
                if plan[r * cols + c] == 1 {
                    lights[r * cols + c] ^= 1;
                    if r > 0 {
                        lights[(r - 1) * cols + c] ^= 1;
                    }
                    if r + 1 < rows {
                        lights[(r + 1) * cols + c] ^= 1;
                    }
                    if c > 0 {
                        lights[r * cols + c - 1] ^= 1;
                    }
                    if c + 1 < cols {
                        lights[r * cols + c + 1] ^= 1;
                    }
                }
            }
        }
        assert!(lights.iter().all(|&x| x == 1), "{rows}×{cols}: the plan leaves a cell off");
    }
}
