//! Big boards: a 300×300 board with a random start solves and verifies in the normal suite;
//! the compact path for boards of more than 250,000 cells agrees with the general one and
//! writes plans that re-simulate; propagation agrees with dense elimination on every m×n
//! board up to 12×12 for moduli 2 to 6.

use assert_cmd::Command;
use modsolve::solve::{Method, solve_with};
use modsolve::{parse_puzzle, solve};
use num_bigint::BigUint;
use rand::{RngExt, SeedableRng, rngs::StdRng};

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
        // A random start is solvable exactly when it lies in the image: check the count is
        // the kernel size or zero.
        assert!(answer.count == answer.kernel_size || answer.count == BigUint::from(0u32));
    }
}

#[test]
fn propagation_agrees_with_dense_elimination_up_to_12x12() {
    for rows in 1..=12 {
        for cols in 1..=12 {
            for modulus in 2..=6u64 {
                let source = format!(
                    "Puzzle(graph: Grid(rows: {rows}, cols: {cols}), modulus: {modulus}, start: {}, target: All({}))",
                    random_rows(rows, cols, modulus, (rows * 100 + cols) as u64),
                    modulus - 1
                );
                let puzzle = parse_puzzle(&source).unwrap();
                let fast = solve_with(&puzzle, Method::Propagation).unwrap();
                let dense = solve_with(&puzzle, Method::Modular).unwrap();
                assert_eq!(fast.count, dense.count, "{rows}×{cols} mod {modulus}");
                assert_eq!(fast.kernel_size, dense.kernel_size, "{rows}×{cols} mod {modulus}");
            }
        }
    }
}

/// 600×500 = 300,000 cells takes the compact path: its JSON plan re-simulates, and its count
/// equals the general path's.
#[test]
fn compact_path_for_big_boards() {
    let dir = std::env::temp_dir().join(format!("modsolve-big-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let source = format!(
        "Puzzle(graph: Grid(rows: 600, cols: 500), modulus: 2, start: {})",
        random_rows(600, 500, 2, 9)
    );
    let path = dir.join("big.ron");
    std::fs::write(&path, &source).unwrap();
    let out = Command::cargo_bin("modsolve").unwrap().arg(&path).arg("--json").output().unwrap();
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["method"], "propagation");
    let puzzle = parse_puzzle(&source).unwrap();
    let general = solve(&puzzle).unwrap();
    assert_eq!(json["count"], general.count.to_string());
    assert_eq!(out.status.code(), Some(if general.is_solvable() { 0 } else { 1 }));
    if general.is_solvable() {
        let plan: Vec<BigUint> =
            json["presses"].as_array().unwrap().iter().map(|v| BigUint::from(v.as_u64().unwrap())).collect();
        assert!(puzzle.solves(&plan));
    }
    std::fs::remove_dir_all(&dir).ok();
}
