//! Board shapes: `Grid(…, neighborhood: Knight)`, stencils, per-class press shapes, masks,
//! `Hex(…)` and `Cube(n)`.
//!
//! The geometry is rebuilt here from its definition, without the model's code: knight's moves
//! and stencil offsets on a grid numbered row by row through its mask; hex neighbours as cube
//! coordinates at distance 1; the cube's cells as points in space (neighbours: 2 apart on one
//! face, or √2 apart across an edge), folded from the net by hand; Merlin's classes as "the 2×2
//! block at a corner", "the three cells of a side", "the plus".
//!
//! - **Brute force** on small boards: every press vector is simulated with those effects to
//!   count the plans and find the fewest presses, which `analyse` must match (count exact,
//!   fewest total proven and equal, the plan reaching the target under the test's own effects).
//! - **Large boards** (Knight 30×30, Hex 12×12, Cube(5), a masked 40×40 grid, a stencil on a
//!   masked 20×20 grid): the same puzzle written with explicit `Edges` or `buttons` gives the same
//!   effects, the same count, the same fewest total when both are proven, and each one's plan
//!   solves the other.
//! - **Merlin**: `puzzles/merlin.ron` (explicit buttons) and `puzzles/merlin-classes.ron` (per-class
//!   stencils) are the same puzzle.
//! - **Round trips**: parse → `to_ron` → parse gives the same puzzle, with states as pictures
//!   (holes `-`, hex rows shifted), and the plan pictures show holes blank.
//! - **Fast paths, symmetries, memory**: none of these boards is light-chased; every symmetry
//!   `generate` keeps maps each press onto a press; estimates count the stencil's size.
//! - **Bad input**: one row per new validation error, with its line, column and message.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use modsolve::analysis::Options;
use modsolve::report::Elimination;
use modsolve::{analyse, parse_puzzle};
use num_bigint::BigUint;
use num_traits::ToPrimitive;

use crate::util::{load, odometer, shipped};

// ---------------------------------------------------------------------------------------------
// Geometry, from the definitions.

/// Each button's changes: the cells it changes by the neighbour weight, and whether it changes
/// its own cell.
type Presses = Vec<(bool, BTreeSet<usize>)>;

/// The cells of a picture mask (`#` a cell), numbered row by row: positions and the index.
type Places = (Vec<(i64, i64)>, HashMap<(i64, i64), usize>);

fn cells_of(mask: &[String]) -> Places {
    let mut places = Vec::new();
    for (r, row) in mask.iter().enumerate() {
        for (c, ch) in row.chars().enumerate() {
            if ch == '#' {
                places.push((r as i64, c as i64));
            }
        }
    }
    let index = places.iter().enumerate().map(|(i, &p)| (p, i)).collect();
    (places, index)
}

fn full_mask(rows: usize, cols: usize) -> Vec<String> {
    vec!["#".repeat(cols); rows]
}

/// The offsets of a stencil picture from its `x` (or `o`), and whether it is `x`.
fn stencil(picture: &[&str]) -> (Vec<(i64, i64)>, bool) {
    let mut marked = Vec::new();
    let mut centre = None;
    for (r, row) in picture.iter().enumerate() {
        for (c, ch) in row.chars().enumerate() {
            match ch {
                '#' => marked.push((r as i64, c as i64)),
                'x' => centre = Some((r as i64, c as i64, true)),
                'o' => centre = Some((r as i64, c as i64, false)),
                _ => {}
            }
        }
    }
    let (cr, cc, own) = centre.expect("a test stencil has its pressed cell");
    (marked.into_iter().map(|(r, c)| (r - cr, c - cc)).collect(), own)
}

const KNIGHT: [&str; 5] = [".#.#.", "#...#", "..x..", "#...#", ".#.#."];

/// Presses of a grid (through its mask), each cell pressing `offsets(r, c)`.
fn grid_presses(
    mask: &[String],
    wrap: bool,
    offsets: impl Fn(i64, i64) -> (Vec<(i64, i64)>, bool),
) -> Presses {
    let (rows, cols) = (mask.len() as i64, mask[0].chars().count() as i64);
    let (places, index) = cells_of(mask);
    places
        .iter()
        .enumerate()
        .map(|(i, &(r, c))| {
            let (list, own) = offsets(r, c);
            let mut out = BTreeSet::new();
            for (dr, dc) in list {
                let (mut rr, mut cc) = (r + dr, c + dc);
                if wrap {
                    rr = rr.rem_euclid(rows);
                    cc = cc.rem_euclid(cols);
                }
                if let Some(&j) = index.get(&(rr, cc)) {
                    out.insert(j);
                }
            }
            out.remove(&i);
            (own, out)
        })
        .collect()
}

/// Hex presses (odd rows shifted right): neighbours are at distance 1 in cube coordinates.
fn hex_presses(mask: &[String]) -> Presses {
    let (places, _) = cells_of(mask);
    let cube = |(r, c): (i64, i64)| {
        let x = c - (r - (r & 1)) / 2;
        (x, -x - r, r)
    };
    places
        .iter()
        .map(|&a| {
            let (ax, ay, az) = cube(a);
            let near = places
                .iter()
                .enumerate()
                .filter(|&(_, &b)| {
                    let (bx, by, bz) = cube(b);
                    (ax - bx).abs() + (ay - by).abs() + (az - bz).abs() == 2
                })
                .map(|(j, _)| j)
                .collect();
            (true, near)
        })
        .collect()
}

/// The cube's cells as points (coordinates doubled, the cube `[-n, n]³`) with their face's
/// normal, numbered row by row through the net `. U . . / L F R B / . D . .`.
fn cube_points(n: usize) -> Vec<([i64; 3], usize)> {
    let m = n as i64;
    // Per net block: (face, top-left corner, right, down).
    type Frame = (usize, [i64; 3], [i64; 3], [i64; 3]);
    let faces: HashMap<(usize, usize), Frame> = [
        ((0, 1), (0, [-m, m, -m], [1, 0, 0], [0, 0, 1])),  // U
        ((1, 0), (1, [-m, m, -m], [0, 0, 1], [0, -1, 0])), // L
        ((1, 1), (2, [-m, m, m], [1, 0, 0], [0, -1, 0])),  // F
        ((1, 2), (3, [m, m, m], [0, 0, -1], [0, -1, 0])),  // R
        ((1, 3), (4, [m, m, -m], [-1, 0, 0], [0, -1, 0])), // B
        ((2, 1), (5, [-m, -m, m], [1, 0, 0], [0, 0, -1])), // D
    ]
    .into_iter()
    .collect();
    let mut out = Vec::new();
    for r in 0..3 * n {
        for c in 0..4 * n {
            if let Some(&(face, origin, right, down)) = faces.get(&(r / n, c / n)) {
                let (i, j) = ((r % n) as i64, (c % n) as i64);
                out.push((
                    std::array::from_fn(|k| origin[k] + (2 * j + 1) * right[k] + (2 * i + 1) * down[k]),
                    face,
                ));
            }
        }
    }
    out
}

fn cube_presses(n: usize) -> Presses {
    let points = cube_points(n);
    points
        .iter()
        .map(|&(a, fa)| {
            let near = points
                .iter()
                .enumerate()
                .filter(|&(_, &(b, fb))| {
                    let d: i64 = (0..3).map(|k| (a[k] - b[k]).pow(2)).sum();
                    (fa == fb && d == 4) || (fa != fb && d == 2)
                })
                .map(|(j, _)| j)
                .collect();
            (true, near)
        })
        .collect()
}

/// Merlin's rule on an `rows × cols` board: a corner changes the 2×2 block at it, an edge cell
/// its neighbours along the side, any other cell its four neighbours.
fn merlin_presses(rows: i64, cols: i64) -> Presses {
    let cell = |r: i64, c: i64| (r * cols + c) as usize;
    let mut out = Vec::new();
    for r in 0..rows {
        for c in 0..cols {
            let (border_row, border_col) = (r == 0 || r == rows - 1, c == 0 || c == cols - 1);
            let mut set = BTreeSet::new();
            if border_row && border_col {
                let (r2, c2) = (if r == 0 { 1 } else { r - 1 }, if c == 0 { 1 } else { c - 1 });
                set.extend([cell(r2, c), cell(r, c2), cell(r2, c2)]);
            } else if border_row {
                set.extend([cell(r, c - 1), cell(r, c + 1)]);
            } else if border_col {
                set.extend([cell(r - 1, c), cell(r + 1, c)]);
            } else {
                set.extend([cell(r - 1, c), cell(r + 1, c), cell(r, c - 1), cell(r, c + 1)]);
            }
            out.push((true, set));
        }
    }
    out
}

/// Reduced effects `(cell, amount)` of each button, under one modulus.
fn effects(presses: &Presses, own: i64, around: i64, m: u64) -> Vec<BTreeMap<usize, u64>> {
    let reduce = |w: i64| w.rem_euclid(m as i64) as u64;
    presses
        .iter()
        .enumerate()
        .map(|(j, (changes_itself, set))| {
            let mut e: BTreeMap<usize, u64> = set.iter().map(|&i| (i, reduce(around))).collect();
            if *changes_itself {
                e.insert(j, reduce(own));
            }
            e.retain(|_, a| *a != 0);
            e
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Brute force.

/// Every press vector in `[0, m)^n`: the number that reach the target and the fewest presses.
fn brute_force(
    effects: &[BTreeMap<usize, u64>],
    m: u64,
    start: &[u64],
    target: &[u64],
) -> (u64, Option<u64>) {
    let n = effects.len();
    let (mut count, mut fewest) = (0u64, None::<u64>);
    if m == 2 && start.len() <= 64 {
        // Gray code over bit masks.
        let bits = |v: &[u64]| v.iter().enumerate().fold(0u64, |acc, (i, &b)| acc | (b << i));
        let masks: Vec<u64> = effects.iter().map(|e| e.keys().fold(0u64, |acc, &i| acc | (1 << i))).collect();
        let goal = bits(target);
        let mut state = bits(start);
        for k in 0u64..(1 << n) {
            if k > 0 {
                let j = k.trailing_zeros() as usize;
                state ^= masks[j];
            }
            if state == goal {
                count += 1;
                let presses = u64::from((k ^ (k >> 1)).count_ones());
                fewest = Some(fewest.map_or(presses, |f| f.min(presses)));
            }
        }
        return (count, fewest);
    }
    odometer(&vec![m; n], |x| {
        let mut state = start.to_vec();
        for (j, e) in effects.iter().enumerate() {
            for (&i, &a) in e {
                state[i] = (state[i] + a * x[j]) % m;
            }
        }
        if state == target {
            count += 1;
            let presses = x.iter().sum();
            fewest = Some(fewest.map_or(presses, |f: u64| f.min(presses)));
        }
    });
    (count, fewest)
}

/// The text's puzzle against brute force with the test's own `presses`.
fn agrees_with_brute_force(text: &str, presses: &Presses) {
    let puzzle = load(text);
    let Some(m) = puzzle.moduli().uniform() else { panic!("one modulus: {text}") };
    let (own, around) = match puzzle.buttons() {
        modsolve::model::Buttons::Graph { self_weight, neighbor_weight } => {
            (*self_weight as i64, *neighbor_weight as i64)
        }
        other => panic!("graph buttons: {other:?}"),
    };
    let effects = effects(presses, own, around, m);
    assert_eq!(puzzle.cell_count(), presses.len(), "{text}");
    for (j, e) in effects.iter().enumerate() {
        let model: BTreeMap<usize, u64> = puzzle.effects(j).into_iter().collect();
        assert_eq!(&model, e, "button {j} of {text}");
    }
    let (start, target) = (puzzle.start().to_vec(), puzzle.target().to_vec());
    let (count, fewest) = brute_force(&effects, m, &start, &target);
    let report = analyse(&puzzle, &Options::default()).unwrap_or_else(|e| panic!("{text}: {e}"));
    assert_eq!(report.count, Some(BigUint::from(count)), "{text}");
    assert!(report.count_exact, "{text}");
    match (fewest, &report.fewest) {
        (None, None) => {}
        (Some(f), Some(plan)) => {
            assert!(plan.proof.is_proven(), "{text}");
            assert_eq!(plan.presses.total(), BigUint::from(f), "{text}");
            // The plan reaches the target under the test's own effects.
            let x: Vec<u64> = plan.presses.to_big().iter().map(|v| v.to_u64().expect("small")).collect();
            let mut state = start.clone();
            for (j, e) in effects.iter().enumerate() {
                for (&i, &a) in e {
                    state[i] = (state[i] + a * (x[j] % m)) % m;
                }
            }
            assert_eq!(state, target, "{text}");
        }
        (f, plan) => panic!("{text}: brute force {f:?}, analysis {plan:?}"),
    }
}

fn picture(values: &[u64], mask: &[String]) -> String {
    let mut k = 0;
    let rows: Vec<String> = mask
        .iter()
        .map(|row| {
            let text: String = row
                .chars()
                .map(|ch| {
                    if ch == '#' {
                        k += 1;
                        char::from_digit(values[k - 1] as u32, 36).expect("small")
                    } else {
                        '-'
                    }
                })
                .collect();
            format!("{text:?}")
        })
        .collect();
    format!("Rows([{}])", rows.join(", "))
}

fn quoted(rows: &[String]) -> String {
    let items: Vec<String> = rows.iter().map(|r| format!("{r:?}")).collect();
    format!("[{}]", items.join(", "))
}

/// A deterministic pseudo-random sequence for starts and masks.
fn lcg(seed: &mut u64) -> u64 {
    *seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    *seed >> 33
}

fn random_state(seed: &mut u64, cells: usize, m: u64) -> Vec<u64> {
    (0..cells).map(|_| lcg(seed) % m).collect()
}

fn list(values: &[u64]) -> String {
    format!("{values:?}")
}

// ---------------------------------------------------------------------------------------------
// Brute force on small boards.

#[test]
fn knight_grids_against_brute_force() {
    let mut seed = 1;
    for (rows, cols, wrap, m, press) in [
        (3, 3, false, 2, "(self: 1, neighbors: 1)"),
        (3, 4, false, 2, "(self: 1, neighbors: 1)"),
        (4, 4, false, 2, "(self: 1, neighbors: 1)"),
        (3, 5, true, 2, "(self: 1, neighbors: 1)"),
        (4, 4, true, 2, "(self: 0, neighbors: 1)"),
        (2, 4, false, 3, "(self: 2, neighbors: 1)"),
        (3, 3, false, 3, "(self: 1, neighbors: 2)"),
    ] {
        let start = random_state(&mut seed, rows * cols, m);
        let text = format!(
            "Puzzle(graph: Grid(rows: {rows}, cols: {cols}, wrap: {wrap}, neighborhood: Knight), modulus: {m}, \
             press: {press}, start: {})",
            list(&start)
        );
        let presses = grid_presses(&full_mask(rows, cols), wrap, |_, _| stencil(&KNIGHT));
        agrees_with_brute_force(&text, &presses);
    }
}

#[test]
fn stencils_against_brute_force() {
    let mut seed = 2;
    let stencils: [&[&str]; 5] = [
        &["#.#", ".x.", "#.#"],
        &["#.#", ".o.", "#.#"],
        &["##.", ".x."],
        &["..#..", ".....", "#.x.#", "....."],
        &["x###"],
    ];
    for s in &stencils {
        for (rows, cols, wrap, m) in [(3, 4, false, 2), (4, 4, false, 2), (3, 3, true, 2), (2, 4, false, 3)] {
            let start = random_state(&mut seed, rows * cols, m);
            let rows_text: Vec<String> = s.iter().map(|r| r.to_string()).collect();
            let text = format!(
                "Puzzle(graph: Grid(rows: {rows}, cols: {cols}, wrap: {wrap}, neighborhood: Stencil({})), \
                 modulus: {m}, press: (self: 1, neighbors: {}), start: {})",
                quoted(&rows_text),
                if m == 3 { 2 } else { 1 },
                list(&start)
            );
            let presses = grid_presses(&full_mask(rows, cols), wrap, |_, _| stencil(s));
            agrees_with_brute_force(&text, &presses);
        }
    }
}

#[test]
fn masked_grids_against_brute_force() {
    let masks: [&[&str]; 3] =
        [&["##.#", "####", "#..#", "####"], &[".#.", "###", ".#."], &["#.#.#", ".###.", "#.#.#"]];
    let mut seed = 3;
    for mask in masks {
        let mask: Vec<String> = mask.iter().map(|r| r.to_string()).collect();
        let cells = cells_of(&mask).0.len();
        for (neighborhood, shape) in [
            ("Cross", vec![".#.", "#x#", ".#."]),
            ("King", vec!["###", "#x#", "###"]),
            ("Stencil([\"#x\", \".#\"])", vec!["#x", ".#"]),
        ] {
            for m in [2, 3] {
                if m == 3 && cells > 10 {
                    continue;
                }
                let start = random_state(&mut seed, cells, m);
                let text = format!(
                    "Puzzle(graph: Grid(rows: {}, cols: {}, neighborhood: {neighborhood}, mask: {}), modulus: {m}, \
                     start: {})",
                    mask.len(),
                    mask[0].len(),
                    quoted(&mask),
                    picture(&start, &mask)
                );
                let presses = grid_presses(&mask, false, |_, _| stencil(&shape));
                agrees_with_brute_force(&text, &presses);
            }
        }
    }
}

#[test]
fn hex_boards_against_brute_force() {
    let mut seed = 4;
    for (rows, cols, mask, m) in [
        (2, 3, None, 3),
        (3, 3, None, 2),
        (3, 4, None, 2),
        (4, 4, None, 2),
        (5, 4, None, 2),
        (4, 5, Some(vec![".###.", "####.", "#####", ".####"]), 2),
    ] {
        let mask: Vec<String> = match mask {
            Some(rows) => rows.iter().map(|r| r.to_string()).collect(),
            None => full_mask(rows, cols),
        };
        let cells = cells_of(&mask).0.len();
        let start = random_state(&mut seed, cells, m);
        let text = format!(
            "Puzzle(graph: Hex(rows: {rows}, cols: {cols}, mask: {}), modulus: {m}, start: {})",
            quoted(&mask),
            picture(&start, &mask)
        );
        agrees_with_brute_force(&text, &hex_presses(&mask));
    }
}

#[test]
fn cubes_against_brute_force() {
    // The test's fold is the picture's: cells next to each other in the net are neighbours.
    for n in 1..=4 {
        let presses = cube_presses(n);
        let mut index = HashMap::new();
        let mut k = 0;
        for r in 0..3 * n {
            for c in 0..4 * n {
                if r / n == 1 || c / n == 1 {
                    index.insert((r, c), k);
                    k += 1;
                }
            }
        }
        for (&(r, c), &i) in &index {
            assert_eq!(presses[i].1.len(), 4, "Cube({n}) cell {i}");
            for (rr, cc) in [(r + 1, c), (r, c + 1)] {
                if let Some(&j) = index.get(&(rr, cc)) {
                    assert!(presses[i].1.contains(&j), "Cube({n}): {i} and {j} touch in the net");
                }
            }
        }
    }
    let mut seed = 5;
    for (n, m) in [(1, 2), (1, 3), (1, 5), (2, 2)] {
        let start = random_state(&mut seed, 6 * n * n, m);
        let text = format!("Puzzle(graph: Cube({n}), modulus: {m}, start: {})", list(&start));
        agrees_with_brute_force(&text, &cube_presses(n));
    }
    agrees_with_brute_force("Puzzle(graph: Cube(2), modulus: 2, target: All(1))", &cube_presses(2));
}

#[test]
fn merlin_classes_against_brute_force() {
    let mut seed = 6;
    let classes = "Classes(corner: Stencil([\"x#\", \"##\"]), edge: Stencil([\"#x#\"]), center: Cross)";
    for (rows, cols, m) in [(3, 3, 2), (3, 4, 2), (4, 4, 2), (3, 5, 2), (3, 3, 3)] {
        let start = random_state(&mut seed, rows * cols, m);
        let text = format!(
            "Puzzle(graph: Grid(rows: {rows}, cols: {cols}, neighborhood: {classes}), modulus: {m}, start: {})",
            list(&start)
        );
        agrees_with_brute_force(&text, &merlin_presses(rows as i64, cols as i64));
    }
    // Classes of other stencils: corners pressing a knight's moves, edges their own o-cell.
    let text = "Puzzle(graph: Grid(rows: 4, cols: 4, neighborhood: Classes(corner: Knight, edge: \
                Stencil([\"o\", \"#\"]), centre: King)), modulus: 2, target: All(1))";
    let presses = grid_presses(&full_mask(4, 4), false, |r, c| {
        let (border_row, border_col) = (r == 0 || r == 3, c == 0 || c == 3);
        if border_row && border_col {
            stencil(&KNIGHT)
        } else if border_row || border_col {
            // "#" below the top edge's `o`: towards the inside from each side.
            let inward = if r == 0 {
                (1, 0)
            } else if r == 3 {
                (-1, 0)
            } else if c == 0 {
                (0, 1)
            } else {
                (0, -1)
            };
            (vec![inward], false)
        } else {
            stencil(&["###", "#x#", "###"])
        }
    });
    agrees_with_brute_force(text, &presses);
}

// ---------------------------------------------------------------------------------------------
// Large boards against the same puzzle written with explicit edges or buttons.

fn edges_text(presses: &Presses) -> String {
    let mut edges = Vec::new();
    for (a, (_, set)) in presses.iter().enumerate() {
        for &b in set {
            assert!(presses[b].1.contains(&a), "symmetric");
            if a < b {
                edges.push(format!("({a}, {b})"));
            }
        }
    }
    format!("Edges(cells: {}, edges: [{}])", presses.len(), edges.join(", "))
}

fn buttons_text(presses: &Presses) -> String {
    let buttons: Vec<String> = presses
        .iter()
        .enumerate()
        .map(|(j, (own, set))| {
            let mut items: Vec<String> = set.iter().map(|i| format!("({i}, 1)")).collect();
            if *own {
                items.push(format!("({j}, 1)"));
            }
            format!("[{}]", items.join(", "))
        })
        .collect();
    format!("[{}]", buttons.join(", "))
}

/// Two texts of one puzzle: equal effects, equal count, equal fewest when both are proven, and
/// each plan solves the other puzzle.
fn same_puzzle(shape: &str, explicit: &str) {
    let (a, b) = (load(shape), load(explicit));
    assert_eq!(a.cell_count(), b.cell_count());
    assert_eq!(a.button_count(), b.button_count());
    for j in 0..a.button_count() {
        assert_eq!(a.effects(j), b.effects(j), "button {j}");
    }
    let options = Options::default().budget(modsolve::Budget::of_nodes(2_000_000));
    let (ra, rb) = (analyse(&a, &options).expect("solves"), analyse(&b, &options).expect("solves"));
    assert_eq!(ra.count, rb.count);
    assert!(ra.count_exact && rb.count_exact);
    assert_ne!(ra.elimination, Some(Elimination::LightChasing));
    match (&ra.fewest, &rb.fewest) {
        (None, None) => assert_eq!(ra.solvable, Some(false)),
        (Some(pa), Some(pb)) => {
            if pa.proof.is_proven() && pb.proof.is_proven() {
                assert_eq!(pa.presses.total(), pb.presses.total());
            }
            assert!(b.solves(&pa.presses.to_big()), "the shape's plan solves the explicit puzzle");
            assert!(a.solves(&pb.presses.to_big()), "the explicit plan solves the shape");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn large_boards_against_explicit_edges() {
    let mut seed = 7;
    // Knight 30×30 mod 2, from a random start; and mod 3.
    let presses = grid_presses(&full_mask(30, 30), false, |_, _| stencil(&KNIGHT));
    for m in [2, 3] {
        let start = random_state(&mut seed, 900, m);
        let tail = format!("modulus: {m}, start: {})", list(&start));
        same_puzzle(
            &format!("Puzzle(graph: Grid(rows: 30, cols: 30, neighborhood: Knight), {tail}"),
            &format!("Puzzle(graph: {}, {tail}", edges_text(&presses)),
        );
    }
    // Hex 12×12.
    let mask = full_mask(12, 12);
    let start = random_state(&mut seed, 144, 2);
    let tail = format!("modulus: 2, start: {})", list(&start));
    same_puzzle(
        &format!("Puzzle(graph: Hex(rows: 12, cols: 12), {tail}"),
        &format!("Puzzle(graph: {}, {tail}", edges_text(&hex_presses(&mask))),
    );
    // Cube(5), all lit to all off, and from a random start mod 3.
    same_puzzle(
        "Puzzle(graph: Cube(5), modulus: 2, start: All(1))",
        &format!("Puzzle(graph: {}, modulus: 2, start: All(1))", edges_text(&cube_presses(5))),
    );
    let start = random_state(&mut seed, 150, 3);
    let tail = format!("modulus: 3, press: (self: 2, neighbors: 1), start: {})", list(&start));
    same_puzzle(
        &format!("Puzzle(graph: Cube(5), {tail}"),
        &format!("Puzzle(graph: {}, {tail}", edges_text(&cube_presses(5))),
    );
    // A masked 40×40 grid (about one place in eight a hole).
    let mask: Vec<String> = (0..40)
        .map(|_| (0..40).map(|_| if lcg(&mut seed).is_multiple_of(8) { '.' } else { '#' }).collect())
        .collect();
    let cells = cells_of(&mask).0.len();
    let start = random_state(&mut seed, cells, 2);
    let tail = format!("modulus: 2, start: {})", list(&start));
    same_puzzle(
        &format!("Puzzle(graph: Grid(rows: 40, cols: 40, mask: {}), {tail}", quoted(&mask)),
        &format!(
            "Puzzle(graph: {}, {tail}",
            edges_text(&grid_presses(&mask, false, |_, _| stencil(&[".#.", "#x#", ".#."])))
        ),
    );
    // An asymmetric stencil on a masked, wrapped 20×20 grid, against explicit buttons.
    let mask: Vec<String> = mask.iter().take(20).map(|r| r[..20].to_string()).collect();
    let shape = ["#..", ".x#", "#.."];
    let presses = grid_presses(&mask, true, |_, _| stencil(&shape));
    let cells = presses.len();
    let start = random_state(&mut seed, cells, 2);
    same_puzzle(
        &format!(
            "Puzzle(graph: Grid(rows: 20, cols: 20, wrap: true, neighborhood: Stencil([\"#..\", \".x#\", \"#..\"]), \
             mask: {}), modulus: 2, start: {})",
            quoted(&mask),
            list(&start)
        ),
        &format!(
            "Puzzle(graph: Cells({cells}), modulus: 2, buttons: {}, start: {})",
            buttons_text(&presses),
            list(&start)
        ),
    );
}

#[test]
fn merlin_in_both_forms_is_one_puzzle() {
    let (explicit, classes) = (shipped("merlin.ron"), shipped("merlin-classes.ron"));
    assert_eq!(explicit.button_count(), classes.button_count());
    for j in 0..9 {
        assert_eq!(explicit.effects(j), classes.effects(j), "button {j}");
    }
    assert_eq!(explicit.start(), classes.start());
    assert_eq!(explicit.target(), classes.target());
    let (a, b) =
        (analyse(&explicit, &Options::default()).unwrap(), analyse(&classes, &Options::default()).unwrap());
    assert_eq!(a.count, b.count);
    assert_eq!(a.fewest.unwrap().presses.to_big(), b.fewest.unwrap().presses.to_big());
}

// ---------------------------------------------------------------------------------------------
// Round trips and pictures.

fn round_trip(text: &str) -> String {
    let puzzle = load(text);
    let written = modsolve::format::to_ron(&puzzle, "round trip");
    let again = parse_puzzle(&written).unwrap_or_else(|e| panic!("{e}\n{written}"));
    assert_eq!(again, puzzle, "{written}");
    written
}

#[test]
fn shapes_round_trip_through_the_file_format() {
    let texts = [
        "Puzzle(graph: Grid(rows: 4, cols: 5, neighborhood: Knight), modulus: 3, start: [0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1])",
        "Puzzle(graph: Grid(rows: 3, cols: 4, wrap: true, neighborhood: Stencil([\"#.#\", \".o.\", \"#.#\"])), modulus: 2, target: All(1))",
        "Puzzle(graph: Grid(rows: 3, cols: 3, neighborhood: Stencil([\".....\", \"..x#.\", \".....\"])), modulus: 2, start: [1, 0, 0, 0, 0, 0, 0, 0, 1])",
        "Puzzle(graph: Grid(rows: 3, cols: 3, neighborhood: Classes(corner: Stencil([\"x#\", \"##\"]), edge: Stencil([\"#x#\"]), centre: Cross)), modulus: 2)",
        "Puzzle(graph: Grid(rows: 3, cols: 3, neighborhood: King, mask: [\"##.\", \"###\", \".##\"]), modulus: 5, start: Rows([\"12-\", \"340\", \"-12\"]))",
        "Puzzle(graph: Hex(rows: 3, cols: 4), modulus: 2, start: Rows([\"# . # .\", \" . # . #\", \"# # . .\"]))",
        "Puzzle(graph: Hex(rows: 2, cols: 3, mask: [\"##.\", \"###\"]), modulus: 7, start: Rows([\"16-\", \"234\"]), labels: [\"a\", \"b\", \"c\", \"d\", \"e\"])",
        "Puzzle(graph: Cube(2), modulus: 3, start: [0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2])",
        "Puzzle(graph: Cube(1), modulus: 2, start: All(1))",
    ];
    for text in texts {
        round_trip(text);
    }
    // Masked states are pictures with holes `-`; hex rows are shifted; the cube's net has holes.
    let written = round_trip(texts[4]);
    assert!(written.contains("\"#2-\""), "{written}");
    assert!(written.contains("mask: [\n        \"##.\","), "{written}");
    let written = round_trip(texts[5]);
    assert!(written.contains("\" . # . #\""), "{written}");
    let written = round_trip(texts[7]);
    assert!(written.contains("\"--.#----\""), "{written}");
    let written = round_trip(texts[3]);
    assert!(
        written
            .contains("Classes(corner: Stencil([\"x#\", \"##\"]), edge: Stencil([\"#x#\"]), center: Cross)"),
        "{written}"
    );
    let written = round_trip(texts[2]);
    assert!(written.contains("Stencil([\"x#\"])"), "{written}");
}

#[test]
fn plan_pictures_leave_holes_blank() {
    let puzzle = load(
        "Puzzle(graph: Grid(rows: 3, cols: 3, mask: [\".#.\", \"###\", \".#.\"]), modulus: 2, \
         start: Rows([\"-#-\", \"###\", \"-#-\"]))",
    );
    let report = analyse(&puzzle, &Options::default()).unwrap();
    let text = modsolve::report::solve_text(
        &puzzle,
        &report,
        false,
        &modsolve::report::Knobs::new("--budget", "--timeout", "--picture", "--json"),
    );
    assert!(text.contains("\n      .\n    . # .\n      .\n"), "{text}");
    let hex = load("Puzzle(graph: Hex(rows: 2, cols: 2), modulus: 2, start: [1, 1, 1, 1])");
    let report = analyse(&hex, &Options::default()).unwrap();
    let text = modsolve::report::solve_text(
        &hex,
        &report,
        false,
        &modsolve::report::Knobs::new("--budget", "--timeout", "--picture", "--json"),
    );
    assert!(text.contains("\n    . #\n     . .\n"), "{text}");
    let cube = load("Puzzle(graph: Cube(1), modulus: 2, start: Rows([\"-#--\", \"....\", \"-.--\"]))");
    let report = analyse(&cube, &Options::default()).unwrap();
    let plan = modsolve::report::plan_text(&cube, &report.fewest.unwrap().presses.to_big());
    assert_eq!(plan.lines().count(), 3, "{plan}");
    assert!(plan.lines().next().unwrap().starts_with("      "), "{plan}");
}

// ---------------------------------------------------------------------------------------------
// Fast paths, symmetries, memory.

#[test]
fn symmetries_are_automorphisms() {
    let texts = [
        ("Puzzle(graph: Grid(rows: 5, cols: 5, neighborhood: Knight), modulus: 2)", 8),
        ("Puzzle(graph: Grid(rows: 4, cols: 4, neighborhood: Stencil([\"##.\", \".x.\"])), modulus: 2)", 1),
        (
            "Puzzle(graph: Grid(rows: 4, cols: 4, neighborhood: Stencil([\"#.#\", \".x.\", \"#.#\"])), modulus: 2)",
            8,
        ),
        ("Puzzle(graph: Grid(rows: 3, cols: 3, mask: [\"##.\", \"###\", \".##\"]), modulus: 2)", 4),
        ("Puzzle(graph: Grid(rows: 3, cols: 3, mask: [\"##.\", \"###\", \"###\"]), modulus: 2)", 2),
        ("Puzzle(graph: Hex(rows: 4, cols: 4), modulus: 2)", 2),
        ("Puzzle(graph: Hex(rows: 3, cols: 3), modulus: 2)", 2),
        ("Puzzle(graph: Cube(2), modulus: 2)", 0),
        (
            "Puzzle(graph: Grid(rows: 3, cols: 3, neighborhood: Classes(corner: Stencil([\"x#\", \"##\"]), edge: Stencil([\"#x#\"]), center: Cross)), modulus: 2)",
            8,
        ),
        (
            "Puzzle(graph: Grid(rows: 3, cols: 3, neighborhood: Classes(corner: Stencil([\"x#\"]), edge: Stencil([\"#x#\"]), center: Cross)), modulus: 2)",
            0,
        ),
    ];
    for (text, expected) in texts {
        let puzzle = load(text);
        let symmetries = modsolve::model::symmetries(&puzzle);
        for perm in &symmetries {
            for j in 0..puzzle.button_count() {
                let mut image: Vec<(usize, u64)> =
                    puzzle.effects(j).iter().map(|&(i, a)| (perm[i], a)).collect();
                image.sort();
                assert_eq!(image, puzzle.effects(perm[j]), "{text}: {perm:?}");
            }
        }
        if expected > 0 {
            assert_eq!(symmetries.len(), expected, "{text}");
        } else {
            assert!(!symmetries.is_empty(), "{text}");
        }
    }
}

#[test]
fn boards_are_not_light_chased_and_estimates_are_honest() {
    for text in [
        "Puzzle(graph: Grid(rows: 20, cols: 20, neighborhood: Knight), modulus: 2, target: All(1))",
        "Puzzle(graph: Grid(rows: 20, cols: 20, neighborhood: Stencil([\".#.\", \"#x#\", \".#.\"]), mask: [\"####################\", \"####################\", \"####################\", \"####################\", \"####################\", \"####################\", \"####################\", \"####################\", \"####################\", \"####################\", \"####################\", \"####################\", \"####################\", \"####################\", \"####################\", \"####################\", \"####################\", \"####################\", \"####################\", \"###################.\"]), modulus: 2, target: All(1))",
        "Puzzle(graph: Hex(rows: 20, cols: 20), modulus: 2, target: All(1))",
        "Puzzle(graph: Cube(8), modulus: 2, target: All(1))",
    ] {
        let puzzle = load(text);
        let report = analyse(&puzzle, &Options::default().compact_from(0)).unwrap();
        assert_ne!(report.elimination, Some(Elimination::LightChasing), "{text}");
        if let Some(plan) = &report.fewest {
            assert!(puzzle.solves(&plan.presses.to_big()), "{text}");
        }
    }
    // A big stencil costs what it presses: 48 neighbours a cell against the plus's 4.
    let stencil_of = |rows: &str| {
        load(&format!(
            "Puzzle(graph: Grid(rows: 3000, cols: 3000, neighborhood: Stencil({rows})), modulus: 3)"
        ))
    };
    let wide = stencil_of(
        "[\"#######\", \"#######\", \"#######\", \"###x###\", \"#######\", \"#######\", \"#######\"]",
    );
    let plus = stencil_of("[\".#.\", \"#x#\", \".#.\"]");
    let (wide, plus) =
        (modsolve::solve::memory_estimate(&wide, false), modsolve::solve::memory_estimate(&plus, false));
    assert!(wide.largest.contains("general propagation"), "{wide:?}");
    // (The plus, mod 3, now takes sparse elimination; the wide stencil's 48 entries a cell are
    // counted in full by propagation.)
    assert!(wide.bytes > plus.bytes && wide.bytes >= 2 * 16 * 48 * 9_000_000, "{wide:?} {plus:?}");
    let knight = load("Puzzle(graph: Grid(rows: 10000, cols: 10000, neighborhood: Knight), modulus: 2)");
    let estimate = modsolve::solve::memory_estimate(&knight, false);
    assert!(estimate.bytes > 16 << 30, "{estimate:?}");
}

// ---------------------------------------------------------------------------------------------
// Bad input.

#[test]
fn bad_shapes_are_refused_at_their_place() {
    let rows: &[(&str, usize, usize, &str)] = &[
        (
            "Puzzle(graph: Grid(rows: 3, cols: 3, neighborhood: Stencil([\"#.#\", \"...\", \"#.#\"])), modulus: 2)",
            1,
            38,
            "the stencil has no pressed cell",
        ),
        (
            "Puzzle(graph: Grid(rows: 3, cols: 3, neighborhood: Stencil([\"#x#\", \"..\"])), modulus: 2)",
            1,
            68,
            "`graph.neighborhood[1]`: row 1 of the stencil is 2 cells wide but row 0 is 3",
        ),
        (
            "Puzzle(graph: Grid(rows: 3, cols: 3, neighborhood: Stencil([\"#x#\", \".x.\"])), modulus: 2)",
            1,
            70,
            "a second pressed cell 'x'",
        ),
        (
            "Puzzle(graph: Grid(rows: 3, cols: 3, neighborhood: Stencil([\"#x?\"])), modulus: 2)",
            1,
            64,
            "'?' is not a stencil character",
        ),
        (
            "Puzzle(graph: Grid(rows: 3, cols: 3, neighborhood: Stencil([])), modulus: 2)",
            1,
            38,
            "at least one row",
        ),
        (
            "Puzzle(graph: Grid(rows: 3, cols: 3,\n  neighborhood: Classes(corner: Stencil([\"x#\"]), edge: Stencil([\"#\"]), center: Cross)), modulus: 2)",
            2,
            50,
            "`graph.neighborhood.edge`: the stencil has no pressed cell",
        ),
        (
            "Puzzle(graph: Grid(rows: 3, cols: 3, neighborhood: Classes(corner: King, edge: King, centre: Stencil([\"xx\"]))), modulus: 2)",
            1,
            105,
            "`graph.neighborhood.center[0][1]`: a second pressed cell",
        ),
        (
            "Puzzle(graph: Grid(rows: 3, cols: 3, wrap: true, neighborhood: Classes(corner: King, edge: King, center: King)), modulus: 2)",
            1,
            50,
            "cannot be combined with `wrap: true`",
        ),
        (
            "Puzzle(graph: Grid(rows: 3, cols: 3, neighborhood: Classes(corner: King, edge: King)), modulus: 2)",
            1,
            84,
            "missing field `center`",
        ),
        (
            "Puzzle(graph: Grid(rows: 3, cols: 3, neighborhood: Knigt), modulus: 2)",
            1,
            52,
            "did you mean `Knight`?",
        ),
        (
            "Puzzle(graph: Grid(rows: 2, cols: 3, mask: [\"###\", \"##\"]), modulus: 2)",
            1,
            52,
            "`graph.mask[1]`: row 1 of the mask is 2 places wide but the board has 3 columns",
        ),
        (
            "Puzzle(graph: Grid(rows: 2, cols: 3, mask: [\"###\"]), modulus: 2)",
            1,
            38,
            "`graph.mask`: the mask has 1 row but the board has 2",
        ),
        (
            "Puzzle(graph: Grid(rows: 2, cols: 3, mask: [\"###\", \"#x#\"]), modulus: 2)",
            1,
            54,
            "'x' is not a mask character",
        ),
        ("Puzzle(graph: Grid(rows: 1, cols: 3, mask: [\"...\"]), modulus: 2)", 1, 38, "has no cells (#)"),
        (
            "Puzzle(graph: Grid(rows: 2, cols: 2, mask: [\"#.\", \"##\"]), modulus: 2, start: [1, 0, 1, 1])",
            1,
            71,
            "`start`: has 4 values but the puzzle has 3 cells",
        ),
        (
            "Puzzle(graph: Grid(rows: 2, cols: 2, mask: [\"#.\", \"##\"]), modulus: 2, start: Rows([\"##\", \"##\"]))",
            1,
            86,
            "`start[0][1]`: '#' is at a hole of the board (row 0, column 1); write - there",
        ),
        (
            "Puzzle(graph: Grid(rows: 2, cols: 2, mask: [\"#.\", \"##\"]), modulus: 2, start: Rows([\"#-\", \"#-\"]))",
            1,
            92,
            "`start[1][1]`: '-' marks a hole, but the board has a cell at row 1, column 1",
        ),
        (
            "Puzzle(graph: Grid(rows: 2, cols: 2, mask: [\"#.\", \"##\"]), modulus: 2, labels: [\"a\"], intended: [1, 0, 0, 1])",
            1,
            86,
            "`intended`: has 4 press counts but the puzzle has 3 buttons",
        ),
        ("Puzzle(graph: Hex(rows: 0, cols: 3), modulus: 2)", 1, 19, "`graph.rows`: is 0"),
        (
            "Puzzle(graph: Hex(rows: 2, cols: 2, wrap: true), modulus: 2)",
            1,
            37,
            "unknown field `wrap` in Hex",
        ),
        (
            "Puzzle(graph: Hex(rows: 2, cols: 2), modulus: 2, start: Rows([\"##\", \"#\"]))",
            1,
            69,
            "`start[1]`: row 1 of the picture is 1 cells wide but the board has 2 columns",
        ),
        ("Puzzle(graph: Cube(0), modulus: 2)", 1, 8, "`graph`: is 0"),
        ("Puzzle(graph: Cube(7000), modulus: 2)", 1, 8, "more than the 268435456 modsolve handles"),
        (
            "Puzzle(graph: Cube(2), modulus: 2, start: [1, 0])",
            1,
            36,
            "has 2 values but the puzzle has 24 cells",
        ),
        (
            "Puzzle(graph: Cube(1), modulus: 2, start: Rows([\"-#--\", \"####\", \"#---\"]))",
            1,
            66,
            "`start[2][0]`: '#' is at a hole of the board",
        ),
        (
            "Puzzle(graph: Grid(rows: 3, cols: 3, neighborhood: Stencil([\"x#########################################################################################################\"])), modulus: 2)",
            1,
            61,
            "more than 101 cells wide",
        ),
    ];
    let mut wrong = Vec::new();
    for &(source, line, column, message) in rows {
        let error = parse_puzzle(source).expect_err(source);
        let position = error.position.map(|p| (p.line, p.column));
        if !error.to_string().contains(message) || position != Some((line, column)) {
            wrong.push(format!("{source}\n  {error} at {position:?}, expected {line}:{column} {message:?}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// No panic on any mutation of a shape file: truncations and single-character changes.
#[test]
fn mangled_shape_files_never_panic() {
    let texts = [
        std::fs::read_to_string(crate::util::shipped_path("merlin-classes.ron")).unwrap(),
        "Puzzle(graph: Grid(rows: 3, cols: 4, wrap: true, neighborhood: Stencil([\"#.#\", \".o.\"]), mask: [\"#.##\", \"####\", \"##.#\"]), modulus: 3, start: Rows([\"1-20\", \"0121\", \"21-1\"]))".to_string(),
        "Puzzle(graph: Hex(rows: 3, cols: 3, mask: [\".##\", \"###\", \"##.\"]), modulus: 2, target: Rows([\"-#.\", \"#.#\", \".#-\"]))".to_string(),
        "Puzzle(graph: Cube(2), modulus: 2, start: All(1))".to_string(),
    ];
    let replacements = ['#', '.', 'x', 'o', '-', '0', '9', '"', ']', ',', ' ', '('];
    for text in &texts {
        let chars: Vec<char> = text.chars().collect();
        for cut in 0..chars.len() {
            let _ = parse_puzzle(&chars[..cut].iter().collect::<String>());
        }
        for k in 0..chars.len() {
            for &r in &replacements {
                let mut changed = chars.clone();
                changed[k] = r;
                let changed: String = changed.into_iter().collect();
                if let Ok(puzzle) = parse_puzzle(&changed)
                    && puzzle.cell_count() <= 64
                {
                    let report = analyse(&puzzle, &Options::default()).expect("solves");
                    let _ = modsolve::report::solve_text(
                        &puzzle,
                        &report,
                        false,
                        &modsolve::report::Knobs::new("--budget", "--timeout", "--picture", "--json"),
                    );
                    let _ = modsolve::format::to_ron(&puzzle, "");
                }
            }
        }
    }
}
