//! Published facts reproduced by the solver: the table of solution counts for every m×n Lights
//! Out board up to 20×20 (`tests/data/seed003_counts.txt`), and the answers of the octopus,
//! sunflower and 3×3 puzzles the product grew from.

use modsolve::{Method, parse_puzzle, solve, solve_with};
use num_bigint::BigUint;

use crate::util::shipped;

fn presses(values: &[u32]) -> Vec<BigUint> {
    values.iter().map(|&v| BigUint::from(v)).collect()
}

/// `(m, n, count)` for 1 <= n <= m <= 20, from tests/data/seed003_counts.txt.
fn seed003_table() -> Vec<(usize, usize, u64)> {
    let text = include_str!("../data/seed003_counts.txt");
    let mut out = Vec::new();
    for line in text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let (m, counts) = line.split_once(':').expect("row number");
        let m: usize = m.trim().parse().expect("row number");
        let counts: Vec<u64> = counts.split_whitespace().map(|c| c.parse().expect("count")).collect();
        assert_eq!(counts.len(), m, "row {m} has one count per column up to m");
        out.extend(counts.into_iter().enumerate().map(|(n, c)| (m, n + 1, c)));
    }
    assert_eq!(out.len(), 210);
    out
}

/// Every m×n board, both orientations, all off to all on: the count equals the published table and
/// the plan simulates to all on.
#[test]
fn seed003_counts_for_every_board_up_to_20x20() {
    for (m, n, expected) in seed003_table() {
        for (rows, cols) in [(m, n), (n, m)] {
            let source = format!(
                "Puzzle(graph: Grid(rows: {rows}, cols: {cols}), modulus: 2, start: All(0), target: All(1))"
            );
            let puzzle = parse_puzzle(&source).expect("valid board");
            for method in [Method::Gf2, Method::Modular] {
                let answer = solve_with(&puzzle, method).expect("verified");
                assert_eq!(answer.count, BigUint::from(expected), "{rows}×{cols} by {method:?}");
                assert_eq!(answer.kernel_size, BigUint::from(expected), "{rows}×{cols}");
                let plan = answer.presses.expect("every board up to 20×20 is solvable");
                assert!(puzzle.solves(&plan), "{rows}×{cols}");
            }
        }
    }
}

/// Seed 004's octopus: the seed's brute-force answer is a solution, and so is the solver's.
#[test]
fn seed004_octopus() {
    let puzzle = shipped("octopus.ron");
    assert!(puzzle.solves(&presses(&[9, 8, 3, 9])), "the seed's answer solves it");
    let answer = solve(&puzzle).expect("verified");
    assert!(puzzle.solves(answer.presses.as_ref().expect("solvable")));
    // Periods: button j's smallest L with L·a_ij ≡ 0 for all its cells.
    assert_eq!(answer.periods, presses(&[56, 28, 168, 21]));
}

/// Seed 004's sunflowers and paradise puzzles have unique solutions: the seed's answers
/// (1-based nodes 2, 5, 6 and 1, 2, 3, 5, 9).
#[test]
fn seed004_unique_answers() {
    for (file, pressed) in [("sunflowers.ron", vec![2, 5, 6]), ("paradise.ron", vec![1, 2, 3, 5, 9])] {
        let puzzle = shipped(file);
        let answer = solve(&puzzle).expect("verified");
        assert_eq!(answer.count, BigUint::from(1u32), "{file}");
        let mut expected = vec![0u32; puzzle.button_count()];
        for node in pressed {
            expected[node - 1] = 1;
        }
        assert_eq!(answer.presses, Some(presses(&expected)), "{file}");
    }
}

/// Seed 003's 3×3 example: the unique way to light a 3×3 board presses corners and centre.
#[test]
fn seed003_three_by_three() {
    let puzzle = shipped("lightsout-3x3.ron");
    let answer = solve(&puzzle).expect("verified");
    assert_eq!(answer.presses, Some(presses(&[1, 0, 1, 0, 1, 0, 1, 0, 1])));
}
