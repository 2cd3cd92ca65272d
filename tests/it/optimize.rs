//! Best plans and the search solver, against exhaustive enumeration: on random small puzzles
//! (with and without press limits) the search and the algebra agree on solvability and count,
//! and the fewest-press, smallest-max and fewest-buttons plans equal brute force; the octopus's
//! 5.5 million press vectors; every n×n Lights Out board up to 20×20 by light chasing; boards
//! to 30×30 (square, random starts, rectangles) against a first-row walk over the quiet
//! patterns; mod-2 puzzles with up to 2^20 plans and press limits against an enumeration of
//! their solution sets; mod p and mixed sets of up to 2^21 plans made by copying buttons; the
//! n×n fewest presses for n <= 78 against the published table (its data section and, through
//! its SHA-256, its b-file); Lights Out mod 3 and mod 7 against a first-row walk over `Z_p`.

use modsolve::analysis::{Analysis, Engine, Options, analysis_of};
use modsolve::model::Puzzle;
use modsolve::parse_puzzle;
use modsolve::solve::{Budget, Objective};
use num_bigint::BigUint;
use num_traits::ToPrimitive;
use rand::{SeedableRng, rngs::StdRng};

use crate::util::{Shape, odometer, random_puzzle};

fn options(engine: Engine, objective: Objective) -> Options {
    Options::default().engine(engine).objective(objective).budget(Budget::of_nodes(50_000_000))
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
                let analysis = analysis_of(&puzzle, &options(engine, objective)).expect("verified");
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
            let analysis = analysis_of(&puzzle, &options(engine, objective)).unwrap();
            check_against(&puzzle, &analysis, &brute, objective, "octopus");
        }
    }
    // Seed 004's criterion picks its own answer.
    let analysis = analysis_of(&puzzle, &options(Engine::Auto, Objective::Max)).unwrap();
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
        let analysis = analysis_of(&puzzle, &options(Engine::Auto, Objective::Total)).unwrap();
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
        let algebra = analysis_of(&puzzle, &options(Engine::Auto, Objective::Total)).unwrap();
        if puzzle.phases().is_some() {
            // The search solver does not play staged presses and says so.
            assert!(analysis_of(&puzzle, &options(Engine::Search, Objective::Total)).is_err());
            continue;
        }
        let search = analysis_of(&puzzle, &options(Engine::Search, Objective::Total)).unwrap();
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

/// A board's plans by light chasing, computed here: every press is an affine form in the first
/// row's presses (`(mask, constant)`, bit `c` of the mask for first-row button `c`, the mask
/// one word per 64 columns), and the last row's cells give the equations the first row must meet.
struct Chase {
    rows: usize,
    cols: usize,
    /// Per cell, row-major: the press as an affine form of the first row.
    forms: Vec<(Vec<u64>, bool)>,
    /// The last row's equations `mask · y = constant`.
    equations: Vec<(Vec<u64>, bool)>,
}

fn chase(rows: usize, cols: usize, difference: &[bool]) -> Chase {
    let words = cols.div_ceil(64);
    let mut forms = vec![(vec![0u64; words], false); rows * cols];
    for (c, form) in forms.iter_mut().enumerate().take(cols) {
        form.0[c / 64] = 1 << (c % 64);
    }
    // Cell (r, c) ends right: d + own + left + right + up + down = 0, so down is fixed.
    let around = |forms: &[(Vec<u64>, bool)], r: usize, c: usize| {
        let mut sum = (vec![0u64; words], difference[r * cols + c]);
        let mut add = |(m, k): &(Vec<u64>, bool)| {
            sum.0.iter_mut().zip(m).for_each(|(a, b)| *a ^= b);
            sum.1 ^= k;
        };
        add(&forms[r * cols + c]);
        if c > 0 {
            add(&forms[r * cols + c - 1]);
        }
        if c + 1 < cols {
            add(&forms[r * cols + c + 1]);
        }
        if r > 0 {
            add(&forms[(r - 1) * cols + c]);
        }
        sum
    };
    for r in 0..rows - 1 {
        for c in 0..cols {
            forms[(r + 1) * cols + c] = around(&forms, r, c);
        }
    }
    let equations = (0..cols).map(|c| around(&forms, rows - 1, c)).collect();
    Chase { rows, cols, forms, equations }
}

fn bit_of(mask: &[u64], c: usize) -> bool {
    mask[c / 64] >> (c % 64) & 1 == 1
}

fn xor_with(a: &mut [u64], b: &[u64]) {
    a.iter_mut().zip(b).for_each(|(x, y)| *x ^= y);
}

/// The fewest presses over every first row that meets the last row's equations: the equations
/// solved by elimination here, then each solution's board walked in Gray-code order over the
/// kernel. `None` when there is no plan.
fn fewest_by_first_rows(rows: usize, cols: usize, difference: &[bool]) -> Option<u32> {
    let chase = chase(rows, cols, difference);
    let words = cols.div_ceil(64);
    // Reduce `mask · y = constant` (equation: mask, constant) to reduced echelon form.
    let mut pivots: Vec<(usize, Vec<u64>, bool)> = Vec::new();
    for (mask, constant) in &chase.equations {
        let (mut mask, mut constant) = (mask.clone(), *constant);
        for (p, m, k) in &pivots {
            if bit_of(&mask, *p) {
                xor_with(&mut mask, m);
                constant ^= k;
            }
        }
        let Some(p) = (0..cols).find(|&c| bit_of(&mask, c)) else {
            if constant {
                return None;
            }
            continue;
        };
        for entry in &mut pivots {
            if bit_of(&entry.1, p) {
                xor_with(&mut entry.1, &mask);
                entry.2 ^= constant;
            }
        }
        pivots.push((p, mask, constant));
    }
    // Equations read `mask · y = constant`, where the forms' constants are on the mask's side:
    // the press is `mask · y + k`, the equation `mask · y + k = 0`, so y's pivot bits are `k`.
    let is_pivot = |c: usize| pivots.iter().any(|&(p, _, _)| p == c);
    let single = |c: usize| {
        let mut v = vec![0u64; words];
        v[c / 64] |= 1 << (c % 64);
        v
    };
    let mut y0 = vec![0u64; words];
    for (p, _, k) in &pivots {
        if *k {
            xor_with(&mut y0, &single(*p));
        }
    }
    let kernel: Vec<Vec<u64>> = (0..chase.cols)
        .filter(|&c| !is_pivot(c))
        .map(|f| {
            let mut v = single(f);
            for (p, m, _) in &pivots {
                if bit_of(m, f) {
                    xor_with(&mut v, &single(*p));
                }
            }
            v
        })
        .collect();
    // Each board as one bit per cell, rows packed into words.
    let board = |y: &[u64], with_constant: bool| -> Vec<u64> {
        let mut out = vec![0u64; (chase.rows * chase.cols).div_ceil(64)];
        for (i, (m, k)) in chase.forms.iter().enumerate() {
            let parity = m.iter().zip(y).map(|(a, b)| (a & b).count_ones()).sum::<u32>() & 1 == 1;
            if parity ^ (*k && with_constant) {
                out[i / 64] |= 1 << (i % 64);
            }
        }
        out
    };
    let mut x = board(&y0, true);
    let generators: Vec<Vec<u64>> = kernel.iter().map(|v| board(v, false)).collect();
    let weight = |x: &[u64]| x.iter().map(|w| w.count_ones()).sum::<u32>();
    let mut best = weight(&x);
    for step in 1u64..1 << generators.len() {
        xor_with(&mut x, &generators[step.trailing_zeros() as usize]);
        best = best.min(weight(&x));
    }
    Some(best)
}

fn grid_source(rows: usize, cols: usize, difference: &[bool]) -> String {
    let picture: Vec<String> = (0..rows)
        .map(|r| (0..cols).map(|c| if difference[r * cols + c] { '#' } else { '.' }).collect())
        .collect();
    format!("Puzzle(graph: Grid(rows: {rows}, cols: {cols}), modulus: 2, target: Rows({picture:?}))")
}

/// Square boards to 30×30 (all off to all on: symmetric under the board's rotations), random
/// starts on boards with many quiet patterns (no symmetry), and rectangles: proven fewest
/// presses equal to the first-row walk above.
#[test]
fn lights_out_fewest_presses_up_to_30x30_equal_a_first_row_walk() {
    let mut rng = StdRng::seed_from_u64(39);
    let mut boards: Vec<(usize, usize, Vec<bool>)> = (1..=30).map(|n| (n, n, vec![true; n * n])).collect();
    for (rows, cols) in
        [(19, 19), (23, 23), (29, 29), (30, 30), (24, 24), (9, 14), (14, 9), (16, 30), (30, 17)]
    {
        use rand::RngExt;
        boards.push((rows, cols, (0..rows * cols).map(|_| rng.random_bool(0.5)).collect()));
        boards.push((rows, cols, vec![true; rows * cols]));
    }
    let mut quiet_dimensions = Vec::new();
    for (rows, cols, difference) in boards {
        let width = rows.min(cols);
        let expected = fewest_by_first_rows(rows, cols, &difference);
        let puzzle = parse_puzzle(&grid_source(rows, cols, &difference)).unwrap();
        let analysis = analysis_of(&puzzle, &options(Engine::Auto, Objective::Total)).unwrap();
        let what = format!("{rows}×{cols} {}", grid_source(rows, cols, &difference));
        match expected {
            None => assert!(analysis.fewest.is_none(), "{what}"),
            Some(fewest) => {
                let plan = analysis.fewest.expect("solvable");
                assert!(plan.is_proven(), "{what}");
                assert_eq!(plan.total(), BigUint::from(fewest), "{what}");
                assert!(puzzle.solves(&plan.presses), "{what}");
            }
        }
        quiet_dimensions.push((width, analysis.quiet_patterns.unwrap().bits()));
    }
    // The walk had real work: 30×30 has 2^20 plans, 19×19 2^16.
    assert!(quiet_dimensions.contains(&(30, 20)), "{quiet_dimensions:?}");
    assert!(quiet_dimensions.contains(&(19, 16)), "{quiet_dimensions:?}");
}

/// Random mod-2 puzzles with up to 2^20 plans, with and without press limits of 0, against an
/// enumeration of the whole solution set computed here (its own elimination and Gray-code
/// walk): the count within the limits and every objective's best score.
#[test]
fn mod2_best_plans_equal_enumeration_of_large_solution_sets() {
    use rand::RngExt;
    let mut rng = StdRng::seed_from_u64(2020);
    let mut largest = 0;
    for case in 0..120 {
        let cells = rng.random_range(1..=30usize);
        let buttons = rng.random_range(1..=40usize);
        let density = [0.1, 0.3, 0.5][case % 3];
        let effects: Vec<u64> = (0..buttons)
            .map(|j| {
                (0..cells).filter(|_| rng.random_bool(density)).fold(1 << (j % cells), |a, i| a | 1 << i)
            })
            .collect();
        let difference: u64 = (0..cells).filter(|_| rng.random_bool(0.5)).fold(0, |a, i| a | 1 << i);
        let limited: Vec<bool> = (0..buttons).map(|_| case % 2 == 1 && rng.random_bool(0.2)).collect();
        // The solution set here: columns as buttons, elimination on [A | d] by cells.
        let mut rows: Vec<(u64, bool)> = (0..cells)
            .map(|i| {
                let mask = (0..buttons).filter(|&j| effects[j] >> i & 1 == 1).fold(0u64, |a, j| a | 1 << j);
                (mask, difference >> i & 1 == 1)
            })
            .collect();
        let mut pivots: Vec<(usize, u64, bool)> = Vec::new();
        let mut consistent = true;
        for (mut mask, mut constant) in rows.drain(..) {
            for &(p, m, k) in &pivots {
                if mask >> p & 1 == 1 {
                    mask ^= m;
                    constant ^= k;
                }
            }
            if mask == 0 {
                consistent &= !constant;
                continue;
            }
            let p = mask.trailing_zeros() as usize;
            for entry in &mut pivots {
                if entry.1 >> p & 1 == 1 {
                    entry.1 ^= mask;
                    entry.2 ^= constant;
                }
            }
            pivots.push((p, mask, constant));
        }
        let free: Vec<usize> = (0..buttons).filter(|&j| pivots.iter().all(|&(p, _, _)| p != j)).collect();
        if free.len() > 20 {
            continue;
        }
        largest = largest.max(free.len());
        let x0: u64 = pivots.iter().filter(|&&(_, _, k)| k).fold(0, |a, &(p, _, _)| a | 1 << p);
        let kernel: Vec<u64> = free
            .iter()
            .map(|&f| {
                pivots
                    .iter()
                    .filter(|&&(_, m, _)| m >> f & 1 == 1)
                    .fold(1u64 << f, |a, &(p, _, _)| a | 1 << p)
            })
            .collect();
        let forbidden: u64 = (0..buttons).filter(|&j| limited[j]).fold(0, |a, j| a | 1 << j);
        let (mut count, mut best) = (0u64, None::<u32>);
        if consistent {
            let mut x = x0;
            for step in 0u64..1 << kernel.len() {
                if step > 0 {
                    x ^= kernel[step.trailing_zeros() as usize];
                }
                if x & forbidden == 0 {
                    count += 1;
                    best = Some(best.map_or(x.count_ones(), |b| b.min(x.count_ones())));
                }
            }
        }
        let list = |f: &dyn Fn(usize) -> String| (0..buttons).map(f).collect::<Vec<_>>().join(", ");
        let source = format!(
            "Puzzle(graph: Cells({cells}), modulus: 2, buttons: [{}], target: [{}]{})",
            list(&|j| format!(
                "[{}]",
                (0..cells)
                    .filter(|&i| effects[j] >> i & 1 == 1)
                    .map(|i| format!("({i}, 1)"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
            (0..cells).map(|i| (difference >> i & 1).to_string()).collect::<Vec<_>>().join(", "),
            if forbidden != 0 {
                format!(", max_presses: [{}]", list(&|j| u8::from(!limited[j]).to_string()))
            } else {
                String::new()
            }
        );
        let puzzle = parse_puzzle(&source).unwrap();
        for objective in OBJECTIVES {
            let analysis = analysis_of(&puzzle, &options(Engine::Auto, objective)).unwrap();
            assert_eq!(analysis.count.value, BigUint::from(count), "{objective:?} {source}");
            assert!(analysis.count.exact, "{source}");
            let expected = best.map(|b| objective.score(&(0..b).map(|_| 1u64).collect::<Vec<_>>()));
            let plan = analysis.shown();
            assert_eq!(
                plan.map(|p| objective.score(&to_u64(&p.presses))),
                expected,
                "{objective:?} {source}"
            );
            if let Some(plan) = plan {
                assert!(plan.is_proven(), "{source}");
                assert!(puzzle.solves(&plan.presses), "{source}");
                assert!(within_limits(&plan.presses, &limited), "{source}");
            }
        }
    }
    assert!(largest >= 15, "the largest solution set had 2^{largest} plans");
}

fn within_limits(presses: &[BigUint], forbidden: &[bool]) -> bool {
    presses.iter().zip(forbidden).all(|(x, &f)| !f || *x == BigUint::ZERO)
}

/// The fewest presses that light an n×n board, n = 1..=54, as published in OEIS A075464
/// ("minimal number of nontrivial switch flippings needed to solve the all-ones lights out
/// problem on an n X n square"), in its data section.
const A075464: [u32; 54] = [
    1, 4, 5, 4, 15, 28, 33, 40, 25, 44, 55, 72, 105, 56, 117, 104, 147, 188, 141, 224, 245, 276, 231, 270,
    353, 356, 405, 416, 345, 376, 553, 428, 469, 520, 563, 600, 761, 772, 561, 696, 891, 940, 953, 772, 1069,
    1188, 971, 1096, 1165, 1220, 1317, 1256, 1487, 1400,
];

/// The fewest presses that light an n×n board for n = 55..=78, as computed by modsolve
/// (`cargo run --release --example bench_fewest -- 78 900 55`, every one proven).
const A075464_55_TO_78: [u32; 24] = [
    1697, 1616, 1709, 1852, 1485, 1832, 1629, 1742, 2061, 1838, 1867, 2244, 2015, 2448, 2233, 2484, 2311,
    2592, 2705, 2758, 2965, 2992, 3055, 2980,
];

/// The SHA-256 of OEIS A075464's b-file (`b075464.txt`, n = 1..78, by Zhao Hui Du; terms 1..60
/// by Max Alekseyev), 555 bytes, as the OEIS data repository records it (a Git LFS pointer:
/// the file itself was not at hand, its hash was).
const A075464_B_FILE_SHA256: &str = "b49cf5e1e27403c1f8035b7d43bae0c2d4d359448de94e95df58b4d691c7d0a4";

/// Every value for n = 1..=54 is proven here and equals the published data section: n = 39 has
/// 2^32 plans and n = 47 2^30.
#[test]
fn lights_out_fewest_presses_equal_oeis_a075464_up_to_54() {
    for (n, &expected) in (1..).zip(&A075464) {
        assert_eq!(proven_fewest_lighting(n), BigUint::from(expected), "{n}×{n}");
    }
}

/// The published table goes on to n = 78 in its b-file, whose hash is known: the values for
/// n = 1..=78, written as that b-file is ("n a(n)" lines, then two empty lines),
/// hash to it byte for byte, so every one of modsolve's 24 values past 54 equals the published
/// one. Each is proven here too, except n = 61 (2^40 plans, 3.7 minutes) and 65 (2^42 plans,
/// 8 minutes), which only the benchmark runs.
#[test]
fn lights_out_fewest_presses_55_to_78_hash_to_the_published_b_file() {
    use sha2::{Digest, Sha256};
    let mut b_file = String::new();
    for (n, value) in (1..).zip(A075464.iter().chain(&A075464_55_TO_78)) {
        b_file.push_str(&format!("{n} {value}\n"));
    }
    b_file.push_str("\n\n");
    assert_eq!(b_file.len(), 555);
    let digest: String = Sha256::digest(b_file.as_bytes()).iter().map(|b| format!("{b:02x}")).collect();
    assert_eq!(digest, A075464_B_FILE_SHA256);
    for (n, &expected) in (55..).zip(&A075464_55_TO_78) {
        if n != 61 && n != 65 {
            assert_eq!(proven_fewest_lighting(n), BigUint::from(expected), "{n}×{n}");
        }
    }
}

/// The proven fewest presses that light the n×n board (all off → all on), its plan verified.
fn proven_fewest_lighting(n: usize) -> BigUint {
    let source = format!("Puzzle(graph: Grid(rows: {n}, cols: {n}), modulus: 2, target: All(1))");
    let puzzle = parse_puzzle(&source).unwrap();
    let options = Options::default().budget(Budget::of_nodes(u64::MAX));
    let fewest = analysis_of(&puzzle, &options).unwrap().fewest.expect("solvable");
    assert!(fewest.is_proven(), "{n}×{n}");
    assert!(puzzle.solves(&fewest.presses), "{n}×{n}");
    fewest.total()
}

/// The first terms past OEIS A075464 (which ends at n = 78): n×n boards for n = 80..=100 whose
/// quiet patterns are at most 2^20 (n = 79 and 95 have 2^64 and 2^62 and are left out), the
/// proven fewest presses equal to the first-row walk above (an independent computation: its
/// own light chasing and elimination, then every plan of the set in Gray-code order).
#[test]
fn lights_out_fewest_presses_past_the_published_table_equal_a_first_row_walk() {
    const BEYOND: [(usize, u32); 20] = [
        (80, 3264),
        (81, 3349),
        (82, 3588),
        (83, 3363),
        (84, 3360),
        (85, 3561),
        (86, 3756),
        (87, 4037),
        (88, 3648),
        (89, 3669),
        (90, 3876),
        (91, 4433),
        (92, 4042),
        (93, 4653),
        (94, 4438),
        (96, 4784),
        (97, 4945),
        (98, 4488),
        (99, 4653),
        (100, 5320),
    ];
    for (n, recorded) in BEYOND {
        let walked = fewest_by_first_rows(n, n, &vec![true; n * n]).expect("solvable");
        assert_eq!(proven_fewest_lighting(n), BigUint::from(walked), "{n}×{n}");
        assert_eq!(walked, recorded, "{n}×{n}");
    }
}

/// Mod p and mixed moduli with solution sets up to about 2^20 plans, known by construction: a
/// small puzzle solved by brute force here, then buttons copied (a copy has the same effect, so
/// only each group's total press count matters, modulo the button's period). The count is the
/// small puzzle's times `L^copies` per button, and every objective's best follows from the small
/// puzzle's plans: a group that must add up to `z` costs `z` presses on one button, its largest
/// press is at least `ceil(z / (copies + 1))`, and it presses one button when `z != 0`.
#[test]
fn copied_buttons_give_large_mod_p_and_mixed_sets_with_known_best_plans() {
    use rand::RngExt;
    let mut rng = StdRng::seed_from_u64(1515);
    let mut largest = 0u64;
    for case in 0..60 {
        let cells = rng.random_range(1..=3usize);
        let buttons = rng.random_range(1..=3usize);
        let moduli: Vec<u64> = if case % 2 == 0 {
            vec![[3, 5, 7][case / 2 % 3]; cells]
        } else {
            (0..cells).map(|_| rng.random_range(2..=6)).collect()
        };
        let effects: Vec<Vec<(usize, u64)>> = (0..buttons)
            .map(|_| {
                (0..cells)
                    .filter_map(|i| Some((i, rng.random_range(0..moduli[i]))).filter(|&(_, a)| a != 0))
                    .collect()
            })
            .collect();
        let start: Vec<u64> = moduli.iter().map(|&m| rng.random_range(0..m)).collect();
        let periods: Vec<u64> = effects
            .iter()
            .map(|e| (1u64..).find(|&l| e.iter().all(|&(i, a)| (l * a) % moduli[i] == 0)).unwrap())
            .collect();
        // The small puzzle's plans, by brute force.
        let mut plans: Vec<Vec<u64>> = Vec::new();
        odometer(&periods, |x| {
            let mut state = start.clone();
            for (j, e) in effects.iter().enumerate() {
                for &(i, a) in e {
                    state[i] = (state[i] + a * x[j]) % moduli[i];
                }
            }
            if state.iter().all(|&v| v == 0) {
                plans.push(x.to_vec());
            }
        });
        let copies: Vec<u64> = (0..buttons).map(|_| rng.random_range(0..=3)).collect();
        let size: u64 = periods.iter().zip(&copies).map(|(&l, &d)| l.pow(d as u32)).product();
        if size > 1 << 21 {
            continue;
        }
        let count = plans.len() as u64 * size;
        largest = largest.max(count);
        let best = |objective: Objective| {
            plans
                .iter()
                .map(|z| {
                    let total: u128 = z.iter().map(|&v| v as u128).sum();
                    match objective {
                        Objective::Total => (total, 0),
                        Objective::Max => (
                            z.iter().zip(&copies).map(|(&v, &d)| v.div_ceil(d + 1)).max().unwrap_or(0)
                                as u128,
                            total,
                        ),
                        Objective::Buttons => (z.iter().filter(|&&v| v != 0).count() as u128, total),
                        _ => unreachable!("an objective this test does not know"),
                    }
                })
                .min()
        };
        // The puzzle with copies: button j, then its copies, in order.
        let mut listed = Vec::new();
        for (j, e) in effects.iter().enumerate() {
            for _ in 0..=copies[j] {
                listed.push(format!(
                    "[{}]",
                    e.iter().map(|&(i, a)| format!("({i}, {a})")).collect::<Vec<_>>().join(", ")
                ));
            }
        }
        let join = |v: &[u64]| v.iter().map(u64::to_string).collect::<Vec<_>>().join(", ");
        let source = format!(
            "Puzzle(graph: Cells({cells}), modulus: [{}], buttons: [{}], start: [{}])",
            join(&moduli),
            listed.join(", "),
            join(&start)
        );
        let puzzle = parse_puzzle(&source).unwrap();
        for objective in OBJECTIVES {
            let analysis = analysis_of(&puzzle, &options(Engine::Auto, objective)).unwrap();
            assert_eq!(analysis.count.value, BigUint::from(count), "{objective:?} {source}");
            let plan = analysis.shown();
            assert_eq!(
                plan.map(|p| objective.score(&to_u64(&p.presses))),
                best(objective),
                "{objective:?} {source}"
            );
            if let Some(plan) = plan {
                assert!(plan.is_proven(), "{objective:?} {source}");
                assert!(puzzle.solves(&plan.presses), "{source}");
            }
        }
    }
    assert!(largest >= 1 << 16, "the largest solution set had {largest} plans");
}

/// The fewest presses of n×n Lights Out mod `p` (a press adds 1 to its cell and its four
/// neighbours) from all 0 to `target`, by a first-row walk written here: a first row fixes
/// every press below it (each cell's equation fixes the press under it), the last row's
/// residual is affine in the first row, its solutions are `r0 + span(null)` over `Z_p` (found
/// here by Gauss–Jordan), and each of the `p^k` plans is built by adding the chased null
/// patterns in mixed radix and summed. `None` when no plan reaches the target.
fn fewest_mod_p_by_first_rows(n: usize, p: i64, target: &[i64]) -> Option<i64> {
    let chase = |first: &[i64], target: &[i64]| -> (Vec<i64>, Vec<i64>) {
        let mut x = vec![0i64; n * n];
        x[..n].copy_from_slice(first);
        let effect = |x: &[i64], r: usize, c: usize| {
            let mut sum = x[r * n + c];
            if c > 0 {
                sum += x[r * n + c - 1];
            }
            if c + 1 < n {
                sum += x[r * n + c + 1];
            }
            if r > 0 {
                sum += x[(r - 1) * n + c];
            }
            if r + 1 < n {
                sum += x[(r + 1) * n + c];
            }
            sum
        };
        for r in 0..n - 1 {
            for c in 0..n {
                // The press below (r, c) makes cell (r, c) reach its target.
                let rest = effect(&x, r, c) - x[(r + 1) * n + c];
                x[(r + 1) * n + c] = (target[r * n + c] - rest).rem_euclid(p);
            }
        }
        let residual =
            (0..n).map(|c| (effect(&x, n - 1, c) - target[(n - 1) * n + c]).rem_euclid(p)).collect();
        (x, residual)
    };
    let zero = vec![0i64; n * n];
    let (_, base) = chase(&vec![0; n], target);
    // Column c of the residual's linear part: the homogeneous chase of a unit first row.
    let columns: Vec<Vec<i64>> = (0..n)
        .map(|c| {
            let mut unit = vec![0i64; n];
            unit[c] = 1;
            chase(&unit, &zero).1
        })
        .collect();
    // Gauss–Jordan on [M | −base] over Z_p.
    let inverse = |a: i64| (1..p).find(|&b| a * b % p == 1).expect("p is prime");
    let mut rows: Vec<Vec<i64>> =
        (0..n).map(|i| (0..n).map(|c| columns[c][i]).chain([(-base[i]).rem_euclid(p)]).collect()).collect();
    let mut pivots = Vec::new();
    let mut rank = 0;
    for c in 0..n {
        let Some(r) = (rank..n).find(|&r| rows[r][c] != 0) else { continue };
        rows.swap(rank, r);
        let scale = inverse(rows[rank][c]);
        for v in rows[rank].iter_mut() {
            *v = *v * scale % p;
        }
        for r in 0..n {
            if r != rank && rows[r][c] != 0 {
                let factor = rows[r][c];
                let pivot = rows[rank].clone();
                for (v, q) in rows[r].iter_mut().zip(&pivot) {
                    *v = (*v - factor * q).rem_euclid(p);
                }
            }
        }
        pivots.push(c);
        rank += 1;
    }
    if rows[rank..].iter().any(|row| row[n] != 0) {
        return None;
    }
    let mut first = vec![0i64; n];
    for (r, &c) in pivots.iter().enumerate() {
        first[c] = rows[r][n];
    }
    let nulls: Vec<Vec<i64>> = (0..n)
        .filter(|c| !pivots.contains(c))
        .map(|free| {
            let mut v = vec![0i64; n];
            v[free] = 1;
            for (r, &c) in pivots.iter().enumerate() {
                v[c] = (-rows[r][free]).rem_euclid(p);
            }
            chase(&v, &zero).0
        })
        .collect();
    let (mut x, residual) = chase(&first, target);
    assert!(residual.iter().all(|&v| v == 0), "the particular first row solves");
    let mut best = x.iter().sum::<i64>();
    let mut digits = vec![0i64; nulls.len()];
    'plans: loop {
        for (k, null) in nulls.iter().enumerate() {
            for (a, b) in x.iter_mut().zip(null) {
                *a = (*a + b) % p;
            }
            digits[k] += 1;
            if digits[k] < p {
                best = best.min(x.iter().sum());
                continue 'plans;
            }
            digits[k] = 0;
        }
        return Some(best);
    }
}

/// Lights Out mod 3 and mod 7, all 0 → all 1 and to random reachable targets: sets of 3^12 and
/// 7^6 plans, which the bounded walk over the quiet basis proves, equal the first-row walk
/// written here; each plan is simulated.
#[test]
fn mod_p_lights_out_fewest_presses_equal_a_first_row_walk() {
    use rand::RngExt;
    let mut rng = StdRng::seed_from_u64(1515);
    let mut walked = Vec::new();
    for (n, p, random) in [(17, 3, false), (35, 3, false), (17, 3, true), (20, 7, true)] {
        // A random target reached by random presses, or all 1.
        let target: Vec<i64> = if random {
            let presses: Vec<i64> = (0..n * n).map(|_| rng.random_range(0..p)).collect();
            (0..n * n)
                .map(|i| {
                    let (r, c) = (i / n, i % n);
                    let mut sum = presses[i];
                    for (dr, dc) in [(0, 1), (2, 1), (1, 0), (1, 2)] {
                        let (rr, cc) = ((r + dr).wrapping_sub(1), (c + dc).wrapping_sub(1));
                        if rr < n && cc < n {
                            sum += presses[rr * n + cc];
                        }
                    }
                    sum % p
                })
                .collect()
        } else {
            vec![1; n * n]
        };
        let list = target.iter().map(i64::to_string).collect::<Vec<_>>().join(", ");
        let source = format!("Puzzle(graph: Grid(rows: {n}, cols: {n}), modulus: {p}, target: [{list}])");
        let puzzle = parse_puzzle(&source).unwrap();
        let options = Options::default().budget(Budget::of_nodes(200_000_000));
        let analysis = analysis_of(&puzzle, &options).unwrap();
        let plans = analysis.count.value.to_u64().expect("small");
        let what = format!("{n}×{n} mod {p}, {plans} plans");
        assert!(plans >= 1 << 16, "{what}: the walk takes sets of at least 2^16 plans");
        let plan = analysis.fewest.expect("solvable");
        assert!(plan.is_proven(), "{what}");
        assert!(puzzle.solves(&plan.presses), "{what}");
        let expected = fewest_mod_p_by_first_rows(n, p, &target).expect("solvable");
        assert_eq!(plan.total(), BigUint::from(expected as u64), "{what}");
        walked.push((n, p, expected));
    }
    // All 0 → all 1: the figures the previous release's enumeration of every plan proved.
    assert_eq!(walked[0].2, 207);
    assert_eq!(walked[1].2, 1074);
}

/// With no search nodes the analysis leaves the quiet basis out (it has no use there) and says
/// the same as before: the algebra's count and quiet patterns, its particular plan as the
/// fewest-press plan with "the budget ran out" (or "too many buttons"); a listing still walks
/// the basis. Dense mixed systems (the general path) and mixed grids (the sparse path).
#[test]
fn zero_nodes_need_no_quiet_basis() {
    use modsolve::analysis::Cut;
    use modsolve::solve::{NotSearched, Proof, SEARCH_BUTTON_LIMIT};
    use rand::RngExt;
    let mut rng = StdRng::seed_from_u64(40);
    for round in 0..24 {
        let source = if round % 2 == 0 {
            let n = rng.random_range(3..40usize);
            let moduli: Vec<u64> = (0..n).map(|_| rng.random_range(2..=12)).collect();
            let buttons: Vec<String> = (0..n)
                .map(|_| {
                    let pairs: Vec<String> =
                        (0..n).map(|i| format!("({i}, {})", rng.random_range(0..moduli[i]))).collect();
                    format!("[{}]", pairs.join(", "))
                })
                .collect();
            let start: Vec<u64> = moduli.iter().map(|&m| rng.random_range(0..m)).collect();
            format!(
                "Puzzle(graph: Cells({n}), modulus: {moduli:?}, buttons: [{}], start: {start:?})",
                buttons.join(", ")
            )
        } else {
            let side = rng.random_range(16..28usize);
            let moduli: Vec<u64> = (0..side * side).map(|_| rng.random_range(2..=12)).collect();
            let start: Vec<u64> = moduli.iter().map(|&m| rng.random_range(0..m)).collect();
            format!("Puzzle(graph: Grid(rows: {side}, cols: {side}), modulus: {moduli:?}, start: {start:?})")
        };
        let puzzle = parse_puzzle(&source).expect("valid");
        let answer = modsolve::solve(&puzzle).expect("solved");
        let zero = Options::default().budget(Budget::of_nodes(0));
        let analysis = analysis_of(&puzzle, &zero).expect("analysed");
        assert_eq!(analysis.count.value, answer.count, "round {round}");
        assert_eq!(analysis.quiet_patterns, Some(answer.quiet_patterns()), "round {round}");
        match (&analysis.fewest, &answer.presses) {
            (Some(plan), Some(x)) => {
                assert_eq!(&plan.presses, x, "round {round}");
                let why = if puzzle.button_count() > SEARCH_BUTTON_LIMIT {
                    Proof::NotSearched(NotSearched::TooManyButtons)
                } else {
                    Proof::BudgetRanOut
                };
                assert_eq!(plan.proof, why, "round {round}");
            }
            (None, None) => {}
            (a, b) => panic!("round {round}: {a:?} against {b:?}"),
        }
        // A listing walks the basis: the first plan, then the budget.
        let listing = zero.list_all(true).list_limit(5);
        let listed = analysis_of(&puzzle, &listing).expect("analysed").listing;
        if let Some(x) = &answer.presses {
            let listed = listed.expect("a basis to walk");
            assert_eq!(listed.plans, vec![x.clone()], "round {round}");
            assert_eq!(listed.cut, Some(Cut::BudgetRanOut), "round {round}");
        }
    }
}

/// Random puzzles whose press vectors number up to 2^20, of mixed moduli, prime powers and
/// primes, with and without press limits, every objective, against brute force at three node
/// budgets (one too small to finish, one too small to enumerate the set so that branch and
/// bound with its modular bounds runs, and a large one): every plan solves the puzzle and keeps
/// the limits; every plan called proven scores the true best; every lower bound is at most the
/// true best's first measure (the plan's own when proven); the large budget proves them all.
#[test]
fn best_plans_and_lower_bounds_against_brute_force() {
    use modsolve::model::Topology;
    use rand::RngExt;
    let kinds: [(&str, &[u64]); 3] = [
        ("mixed", &[2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]),
        ("prime powers", &[4, 8, 9, 16, 25, 27]),
        ("primes", &[2, 3, 5, 7, 11]),
    ];
    let mut rng = StdRng::seed_from_u64(35);
    let (mut tested, mut bounded, mut unproven) = (0, 0, 0);
    while tested < 150 {
        let (kind, moduli_of) = kinds[tested % 3];
        let cells = rng.random_range(2..=7);
        let one = moduli_of[rng.random_range(0..moduli_of.len())];
        let moduli: Vec<u64> = (0..cells)
            .map(|_| if kind == "mixed" { moduli_of[rng.random_range(0..moduli_of.len())] } else { one })
            .collect();
        let buttons: Vec<Vec<(usize, i64)>> = (0..rng.random_range(3..=9))
            .map(|_| {
                let mut button = Vec::new();
                for (i, &m) in moduli.iter().enumerate() {
                    if rng.random_bool(0.45) {
                        button.push((i, rng.random_range(1..m as i64)));
                    }
                }
                button
            })
            .collect();
        let start: Vec<u64> = moduli.iter().map(|&m| rng.random_range(0..m)).collect();
        let limited = tested % 2 == 1;
        let mut builder =
            Puzzle::builder(Topology::Cells(cells)).moduli(moduli).buttons(buttons.clone()).start(start);
        if limited {
            builder = builder.max_presses((0..buttons.len()).map(|_| rng.random_range(0..=6)).collect());
        }
        let Ok(puzzle) = builder.build() else { continue };
        let periods: Vec<u64> = puzzle.periods().iter().map(|l| l.to_u64().unwrap()).collect();
        let space = periods.iter().enumerate().try_fold(1u64, |n, (j, &l)| {
            let highest = puzzle.max_presses().as_ref().map_or(l - 1, |k| (l - 1).min(k[j]));
            n.checked_mul(highest + 1).filter(|&n| n <= 1 << 20)
        });
        let Some(space) = space else { continue };
        if space < 1 << 8 {
            continue;
        }
        tested += 1;
        let brute = brute_force(&puzzle);
        for (k, objective) in OBJECTIVES.into_iter().enumerate() {
            for nodes in [20, 2_000, 50_000_000] {
                let what = format!("{kind}, {space} vectors, {objective:?}, {nodes} nodes: {puzzle:?}");
                let options = Options::default().objective(objective).budget(Budget::of_nodes(nodes));
                let analysis = analysis_of(&puzzle, &options).expect("verified");
                let shown = if objective == Objective::Total { &analysis.fewest } else { &analysis.optimal };
                let Some(plan) = shown else {
                    assert!(brute.best[k].is_none() || nodes < 50_000_000, "{what}: no plan");
                    continue;
                };
                let x = to_u64(&plan.presses);
                assert!(puzzle.solves(&plan.presses), "{what}");
                if let Some(limits) = puzzle.max_presses() {
                    assert!(x.iter().zip(limits.iter()).all(|(v, l)| v <= l), "{what}");
                }
                let truth = brute.best[k].expect("a plan exists");
                let score = objective.score(&x);
                assert!(score >= truth, "{what}");
                if plan.is_proven() {
                    assert_eq!(score, truth, "{what}: proven but not best");
                    assert_eq!(plan.lower_bound, Some(BigUint::from(truth.0)), "{what}");
                } else {
                    unproven += 1;
                    assert!(nodes < 50_000_000, "{what}: not proven with a large budget");
                }
                if let Some(bound) = &plan.lower_bound {
                    assert!(*bound <= BigUint::from(truth.0), "{what}: bound {bound} above {}", truth.0);
                    bounded += usize::from(!plan.is_proven() && *bound > BigUint::from(0u8));
                }
            }
        }
    }
    assert!(
        bounded > 20 && unproven > 20,
        "{bounded} positive bounds on unproven plans, {unproven} unproven"
    );
}

/// Mixed-moduli grids of the benchmark against HiGHS and CP-SAT (`benches/reference/mixed.py
/// grid N SEED SELF`), whose fewest presses the default budget proves through the shared
/// lookahead bound (HiGHS needed about 140 s for the 6×6 grid of seed 2 on the machine of
/// BENCHMARKS.md): the plan is proven, simulated, and its total is the known optimum; a second
/// run gives the same plan and node count (each search is split over both cores, each half
/// counting its own nodes).
#[test]
fn mixed_grids_to_6x6_are_proven_at_the_default_budget() {
    let grids = [
        (
            "5x5 seed 2",
            "Puzzle(graph: Grid(rows: 5, cols: 5), modulus: [2, 3, 3, 7, 4, 12, 6, 6, 11, 5, 11, 2, 11, 12, 4, 8, \
             12, 8, 10, 7, 10, 9, 10, 6, 2], press: (self: 1, neighbors: 1), start: [0, 1, 1, 2, 3, 6, 4, 1, 8, 1, \
             3, 0, 0, 2, 2, 2, 2, 5, 8, 5, 8, 2, 7, 3, 1])",
            52u32,
        ),
        (
            "6x6 seed 2",
            "Puzzle(graph: Grid(rows: 6, cols: 6), modulus: [2, 3, 3, 7, 4, 12, 6, 6, 11, 5, 11, 2, 11, 12, 4, 8, \
             12, 8, 10, 7, 10, 9, 10, 6, 2, 2, 7, 9, 7, 8, 8, 10, 4, 10, 4, 5], press: (self: 1, neighbors: 1), \
             start: [0, 0, 0, 2, 1, 2, 4, 4, 5, 4, 10, 0, 7, 6, 2, 5, 5, 7, 2, 6, 6, 7, 8, 1, 1, 1, 3, 8, 4, 5, 7, \
             7, 2, 9, 3, 3])",
            66,
        ),
        (
            "6x6 octopus rule seed 1",
            "Puzzle(graph: Grid(rows: 6, cols: 6), modulus: [4, 11, 3, 6, 3, 9, 9, 9, 12, 8, 5, 3, 9, 2, 8, 8, 11, \
             2, 9, 6, 5, 11, 3, 7, 2, 2, 2, 12, 10, 2, 8, 12, 5, 8, 2, 10], press: (self: 2, neighbors: 1), \
             start: [1, 7, 1, 4, 0, 5, 3, 3, 7, 4, 0, 1, 8, 0, 2, 4, 1, 1, 8, 3, 4, 10, 0, 2, 1, 1, 1, 9, 0, 1, 3, \
             11, 3, 6, 0, 5])",
            66,
        ),
    ];
    for (name, source, fewest) in grids {
        let puzzle = parse_puzzle(source).unwrap();
        let analysis = analysis_of(&puzzle, &Options::default()).expect("solved");
        let plan = analysis.fewest.as_ref().expect("a plan");
        assert!(plan.is_proven(), "{name}: {:?}, bound {:?}", plan.proof, plan.lower_bound);
        assert_eq!(plan.total(), BigUint::from(fewest), "{name}");
        assert_eq!(plan.lower_bound, Some(BigUint::from(fewest)), "{name}");
        assert!(puzzle.solves(&plan.presses), "{name}");
        let again = analysis_of(&puzzle, &Options::default()).expect("solved");
        assert_eq!(again.fewest.as_ref().map(|p| &p.presses), Some(&plan.presses), "{name}");
        assert_eq!(again.search_nodes, analysis.search_nodes, "{name}");
    }
}
