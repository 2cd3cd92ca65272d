//! Best plans and the search solver, against exhaustive enumeration: on random small puzzles
//! (with and without press limits) the search and the algebra agree on solvability and count,
//! and the fewest-press, smallest-max and fewest-buttons plans equal brute force; the octopus's
//! 5.5 million press vectors; every n×n Lights Out board up to 20×20 by light chasing.

use modsolve::analysis::{Analysis, Engine, Options, analyze};
use modsolve::model::Puzzle;
use modsolve::parse_puzzle;
use modsolve::solve::{Budget, Objective};
use num_bigint::BigUint;
use num_traits::ToPrimitive;
use rand::{SeedableRng, rngs::StdRng};

use crate::util::{Shape, odometer, random_puzzle};

fn options(engine: Engine, objective: Objective) -> Options {
    Options { engine, objective, budget: Budget { nodes: 50_000_000, time: None }, ..Options::default() }
}

fn to_u64(x: &[BigUint]) -> Vec<u64> {
    x.iter().map(|v| v.to_u64().expect("small")).collect()
}

/// Exhaustive facts about a puzzle: the count within limits and the best score per objective.
struct Brute {
    count: u64,
    best: [Option<(u128, u128)>; 3],
}

const OBJECTIVES: [Objective; 3] = [Objective::Total, Objective::Max, Objective::Buttons];

fn brute_force(puzzle: &Puzzle) -> Brute {
    let n = puzzle.button_count();
    // Periods by direct search: the smallest L with L·a ≡ 0 for every effect.
    let effects: Vec<Vec<(usize, u64)>> = (0..n).map(|j| puzzle.effects(j)).collect();
    let periods: Vec<u64> = effects
        .iter()
        .map(|e| (1u64..).find(|&l| e.iter().all(|&(i, a)| (l * a) % puzzle.moduli()[i] == 0)).unwrap())
        .collect();
    let highest: Vec<u64> = periods
        .iter()
        .enumerate()
        .map(|(j, &l)| puzzle.max_presses().as_ref().map_or(l - 1, |k| (l - 1).min(k[j])))
        .collect();
    let radices: Vec<u64> = highest.iter().map(|&h| h + 1).collect();
    let mut out = Brute { count: 0, best: [None; 3] };
    odometer(&radices, |x| {
        let mut state = puzzle.start().to_vec();
        for (j, e) in effects.iter().enumerate() {
            for &(i, a) in e {
                state[i] = (state[i] + a * x[j]) % puzzle.moduli()[i];
            }
        }
        if state == *puzzle.target() {
            out.count += 1;
            for (k, objective) in OBJECTIVES.iter().enumerate() {
                let score = objective.score(x);
                if out.best[k].is_none_or(|b| score < b) {
                    out.best[k] = Some(score);
                }
            }
        }
    });
    out
}

fn check_against(puzzle: &Puzzle, analysis: &Analysis, brute: &Brute, objective: Objective, what: &str) {
    assert_eq!(analysis.count.value, BigUint::from(brute.count), "{what}: count of {puzzle:?}");
    assert!(analysis.count.exact, "{what}");
    assert_eq!(analysis.is_solvable(), brute.count > 0, "{what}: solvable {puzzle:?}");
    let k = OBJECTIVES.iter().position(|&o| o == objective).unwrap();
    let plan = analysis.shown();
    assert_eq!(
        plan.map(|p| objective.score(&to_u64(&p.presses))),
        brute.best[k],
        "{what}: {objective:?} {puzzle:?}"
    );
    if let Some(plan) = plan {
        assert!(plan.is_proven(), "{what}");
        assert!(puzzle.solves(&plan.presses), "{what}");
    }
}

/// 1200 random puzzles × 3 objectives × (algebra, search) against brute force.
#[test]
fn search_and_algebra_agree_with_brute_force() {
    let mut rng = StdRng::seed_from_u64(2026);
    let mut tested = 0;
    while tested < 1200 {
        let puzzle = random_puzzle(
            &mut rng,
            &Shape {
                cells: 1..=5,
                buttons: 1..=5,
                moduli: 2..=12,
                amounts: -12..=12,
                equal_moduli: 0.4,
                limits: 0.3,
                ..Shape::default()
            },
        );
        let size: u64 = puzzle.periods().iter().map(|l| l.to_u64().unwrap()).product();
        if size > 100_000 {
            continue;
        }
        tested += 1;
        let brute = brute_force(&puzzle);
        for objective in OBJECTIVES {
            for engine in [Engine::Auto, Engine::Search] {
                let analysis = analyze(&puzzle, &options(engine, objective)).expect("verified");
                check_against(&puzzle, &analysis, &brute, objective, &format!("{engine:?}"));
            }
        }
    }
}

/// The octopus's 5.5 million press vectors, enumerated here: fewest presses and smallest max.
#[test]
fn octopus_best_plans_equal_exhaustive_enumeration() {
    let source =
        std::fs::read_to_string(format!("{}/puzzles/octopus.ron", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let puzzle = parse_puzzle(&source).unwrap();
    let brute = brute_force(&puzzle);
    assert_eq!(brute.count, 2352);
    for objective in [Objective::Total, Objective::Max] {
        for engine in [Engine::Auto, Engine::Search] {
            let analysis = analyze(&puzzle, &options(engine, objective)).unwrap();
            check_against(&puzzle, &analysis, &brute, objective, "octopus");
        }
    }
    // Seed 004's criterion picks its own answer.
    let analysis = analyze(&puzzle, &options(Engine::Auto, Objective::Max)).unwrap();
    assert_eq!(to_u64(&analysis.shown().unwrap().presses), vec![9, 8, 3, 9]);
}

/// The fewest presses to light an n×n board, by light chasing over every first row.
fn fewest_by_chasing(n: usize) -> u32 {
    let mut best = u32::MAX;
    for first in 0u32..(1 << n) {
        let mut press = vec![vec![false; n]; n];
        for (c, cell) in press[0].iter_mut().enumerate() {
            *cell = first >> c & 1 == 1;
        }
        let lit = |press: &Vec<Vec<bool>>, r: usize, c: usize| {
            let mut v = press[r][c];
            for (dr, dc) in [(-1i32, 0i32), (1, 0), (0, -1), (0, 1)] {
                let (rr, cc) = (r as i32 + dr, c as i32 + dc);
                if rr >= 0 && cc >= 0 && (rr as usize) < n && (cc as usize) < n {
                    v ^= press[rr as usize][cc as usize];
                }
            }
            v
        };
        for r in 1..n {
            for c in 0..n {
                // Cell (r-1, c) must end lit; only the press below can still change it.
                press[r][c] = !lit(&press, r - 1, c);
            }
        }
        if (0..n).all(|c| lit(&press, n - 1, c)) {
            best = best.min(press.iter().flatten().filter(|&&b| b).count() as u32);
        }
    }
    best
}

#[test]
fn lights_out_fewest_presses_up_to_20x20() {
    for n in 1..=20 {
        let source =
            format!("Puzzle(graph: Grid(rows: {n}, cols: {n}), modulus: 2, start: All(0), target: All(1))");
        let puzzle = parse_puzzle(&source).unwrap();
        let analysis = analyze(&puzzle, &options(Engine::Auto, Objective::Total)).unwrap();
        let fewest = analysis.fewest.expect("solvable");
        assert!(fewest.is_proven(), "{n}×{n}");
        assert_eq!(fewest.total(), BigUint::from(fewest_by_chasing(n)), "{n}×{n}");
    }
}

/// `--method search` agrees with the algebra on every shipped puzzle.
#[test]
fn search_agrees_with_algebra_on_shipped_puzzles() {
    let dir = format!("{}/puzzles", env!("CARGO_MANIFEST_DIR"));
    let mut seen = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let puzzle = parse_puzzle(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let algebra = analyze(&puzzle, &options(Engine::Auto, Objective::Total)).unwrap();
        if puzzle.phases().is_some() {
            // The search solver does not play staged presses and says so.
            assert!(analyze(&puzzle, &options(Engine::Search, Objective::Total)).is_err());
            continue;
        }
        let search = analyze(&puzzle, &options(Engine::Search, Objective::Total)).unwrap();
        let name = path.display();
        assert_eq!(algebra.count, search.count, "{name}");
        assert_eq!(algebra.quiet_patterns, search.quiet_patterns, "{name}");
        assert_eq!(
            algebra.fewest.as_ref().map(|p| p.total()),
            search.fewest.as_ref().map(|p| p.total()),
            "{name}"
        );
        seen += 1;
    }
    assert!(seen >= 10);
}
