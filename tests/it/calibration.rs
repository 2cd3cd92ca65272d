//! The node budget against the work it stands for: on every shape of puzzle the budget is
//! used on (mixed-moduli grids, dense mixed systems, a tall thin Lights Out board, par
//! histograms, `generate`), the cells the searches actually touch per node counted stay
//! within a fixed factor of an 8×8 mixed grid's. A shape whose nodes stood for far more work
//! than a grid's would make the default budget run far longer on it; far less, stop far
//! sooner.

use modsolve::bounded::{Tally, tallied};
use modsolve::generate::{SamplesEnd, Spec, par_histogram};
use modsolve::{Budget, Options, Puzzle, analyse, parse_puzzle};
use rand::{RngExt, SeedableRng, rngs::StdRng};

/// How far a shape's cells touched per node may be from the reference grid's, either way.
const FACTOR: f64 = 8.0;

/// The node budget of each solve: the default's shape, a hundredth of its size.
const NODES: u64 = 2_000_000;

/// An n×n grid of moduli drawn from 2..=12, a press adding `self_weight` to its own cell and 1
/// to its neighbours, and a random start.
fn mixed_grid(n: usize, seed: u64, self_weight: u64) -> Puzzle {
    let mut rng = StdRng::seed_from_u64(seed);
    let moduli: Vec<u64> = (0..n * n).map(|_| rng.random_range(2..=12)).collect();
    let start: Vec<u64> = moduli.iter().map(|&m| rng.random_range(0..m)).collect();
    parse_puzzle(&format!(
        "Puzzle(graph: Grid(rows: {n}, cols: {n}), modulus: {moduli:?}, \
         press: (self: {self_weight}, neighbors: 1), start: {start:?})"
    ))
    .expect("valid")
}

/// n cells and n buttons, every entry random below its cell's modulus (2..=12), a random start.
fn dense(n: usize, seed: u64) -> Puzzle {
    let mut rng = StdRng::seed_from_u64(seed);
    let moduli: Vec<u64> = (0..n).map(|_| rng.random_range(2..=12)).collect();
    let buttons: Vec<String> = (0..n)
        .map(|_| {
            let column: Vec<String> = moduli
                .iter()
                .enumerate()
                .map(|(i, &m)| format!("({i}, {})", rng.random_range(0..m)))
                .collect();
            format!("[{}]", column.join(", "))
        })
        .collect();
    let start: Vec<u64> = moduli.iter().map(|&m| rng.random_range(0..m)).collect();
    parse_puzzle(&format!(
        "Puzzle(graph: Cells({n}), modulus: {moduli:?}, buttons: [{}], start: {start:?})",
        buttons.join(", ")
    ))
    .expect("valid")
}

/// Solves `puzzle` under a budget of [`NODES`]: the tally and the nodes the report gives.
fn solve_tallied(puzzle: &Puzzle) -> (Tally, u64) {
    let options = Options::default().budget(Budget::of_nodes(NODES));
    let (report, tally) = tallied(|| analyse(puzzle, &options).expect("analysed"));
    let reported = report.search_nodes.unwrap_or(0);
    // The stopping point: the budget, and at most 1% more (the mod-2 walk counts its blocks
    // 4,096 at a time, ahead, on each core).
    assert!(reported <= NODES + NODES / 100, "{reported} nodes reported against a budget of {NODES}");
    (tally, reported)
}

/// Cells touched per node counted.
fn ratio(tally: &Tally) -> f64 {
    assert!(tally.nodes > 0 && tally.cells_touched > 0, "no search to calibrate: {tally:?}");
    tally.cells_touched as f64 / tally.nodes as f64
}

#[test]
fn the_node_budget_stands_for_the_same_work_on_every_shape() {
    let (reference, _) = solve_tallied(&mixed_grid(8, 1, 1));
    let reference = ratio(&reference);
    let mut shapes: Vec<(String, Tally)> = Vec::new();
    for (n, seed, self_weight) in [(8, 2, 2), (10, 3, 1), (12, 4, 3)] {
        let (tally, _) = solve_tallied(&mixed_grid(n, seed, self_weight));
        shapes.push((format!("mixed grid {n}×{n}, self {self_weight}"), tally));
    }
    for (n, seed) in [(30, 5), (60, 6)] {
        let (tally, _) = solve_tallied(&dense(n, seed));
        shapes.push((format!("dense mixed {n}"), tally));
    }
    // A quarter of the 4679×41 board, with 2^38 plans to turn every light on (narrower boards
    // of this height have a handful, and no search).
    let tall = "Puzzle(graph: Grid(rows: 1169, cols: 41), modulus: 2, target: All(1))";
    let (tally, _) = solve_tallied(&parse_puzzle(tall).expect("valid"));
    shapes.push(("tall Lights Out 1169×41, all on".into(), tally));
    // Par samples of a mixed 4×4 grid and levels generated from a mixed 5×5 one, each sample or
    // candidate with its own node budget.
    let (histogram, tally) =
        tallied(|| par_histogram(&mixed_grid(4, 7, 1), 48, 7, 20_000, SamplesEnd::Never).expect("sampled"));
    assert_eq!(histogram.taken, 48);
    shapes.push(("par histogram of a mixed 4×4 grid, 48 samples".into(), tally));
    let spec = Spec::new(4).seed(8).attempts(64).nodes_per_level(20_000);
    let template = mixed_grid(5, 9, 1);
    let (batch, tally) = tallied(|| {
        modsolve::generate::generate::<modsolve::InternalError>(&template, &spec, &|_| {}, |_| Ok(()))
            .expect("generated")
    });
    assert!(batch.tried > 0, "{batch:?}");
    shapes.push((format!("generate from a mixed 5×5 grid, {} candidates", batch.tried), tally));

    eprintln!("cells touched per node: reference (mixed grid 8×8, self 1) {reference:.2}");
    let mut outside = Vec::new();
    for (shape, tally) in &shapes {
        let r = ratio(tally);
        eprintln!(
            "  {shape}: {r:.2} ({:.2}× the reference; {} nodes, {} cells)",
            r / reference,
            tally.nodes,
            tally.cells_touched
        );
        if !(reference / FACTOR..=reference * FACTOR).contains(&r) {
            outside.push(format!("{shape}: {r:.2} against {reference:.2}"));
        }
    }
    assert!(outside.is_empty(), "outside {FACTOR}× of the reference: {outside:?}");
}

/// A tall thin board whose start is its target is answered with no search at all: no node
/// counted, no cell touched, under any budget.
#[test]
fn a_start_at_its_target_counts_and_touches_nothing() {
    let puzzle = parse_puzzle("Puzzle(graph: Grid(rows: 400, cols: 20), modulus: 2)").expect("valid");
    let (tally, reported) = solve_tallied(&puzzle);
    assert_eq!((tally.nodes, tally.cells_touched, reported), (0, 0, 0), "{tally:?}");
}
