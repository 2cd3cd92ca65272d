//! Sparse elimination (`Method::Sparse`) against dense elimination (`Method::Modular`) on
//! random puzzles too big to enumerate: grids, tori and King boards, paths, cycles and random
//! sparse graphs with per-cell moduli from 2 to 64, with large primes and prime powers on both
//! sides of 2^32, and press weights that are units, zero divisors or zero. Periods, solvability,
//! counts and kernel sizes must be equal; every plan and every quiet-basis generator is
//! re-simulated here, with its stated additive order. The small cases are in `brute_force`
//! (enumeration); here are the sizes where the orders, the fill-in and the Howell rows matter,
//! the default dispatch on mixed grids, and boards of 300² cells solved with their plan
//! verified.

use modsolve::model::{Neighborhood, Puzzle, Topology};
use modsolve::{Answer, Method, solve, solve_with};
use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::{One, Zero};
use rand::{RngExt, SeedableRng, rngs::StdRng};

/// Large moduli: primes just below and above 2^32, and prime powers on both sides of it.
const LARGE: [u64; 6] =
    [4_294_967_291, 4_294_967_311, 65_521 * 65_521, 65_537 * 65_537, 2_147_483_647, 1 << 40];

fn random_graph(rng: &mut StdRng, cells: usize) -> Vec<Vec<usize>> {
    let mut adjacency = vec![Vec::new(); cells];
    for a in 0..cells {
        for _ in 0..rng.random_range(0..3) {
            let b = rng.random_range(0..cells);
            if a != b && !adjacency[a].contains(&b) {
                adjacency[a].push(b);
                adjacency[b].push(a);
            }
        }
    }
    adjacency.iter_mut().for_each(|l| l.sort_unstable());
    adjacency
}

fn random_topology(rng: &mut StdRng, round: usize) -> Topology {
    let side = |rng: &mut StdRng| rng.random_range(2..=20usize);
    match round % 6 {
        0 => Topology::Grid {
            rows: side(rng),
            cols: side(rng),
            wrap: false,
            neighborhood: Neighborhood::Cross,
        },
        1 => {
            Topology::Grid { rows: side(rng), cols: side(rng), wrap: true, neighborhood: Neighborhood::Cross }
        }
        2 => Topology::Grid {
            rows: side(rng),
            cols: side(rng),
            wrap: rng.random_bool(0.5),
            neighborhood: Neighborhood::King,
        },
        3 => Topology::Path(rng.random_range(2..300)),
        4 => Topology::Cycle(rng.random_range(3..300)),
        _ => {
            let cells = rng.random_range(10..300);
            Topology::Edges { adjacency: random_graph(rng, cells) }
        }
    }
}

/// Per-cell moduli: 2..=64, or mostly small with a few large ones, or one modulus.
fn random_moduli(rng: &mut StdRng, cells: usize) -> Vec<u64> {
    match rng.random_range(0..4) {
        0 => vec![rng.random_range(2..=64u64); cells],
        1 => (0..cells)
            .map(|_| {
                if rng.random_bool(0.1) {
                    LARGE[rng.random_range(0..LARGE.len())]
                } else {
                    rng.random_range(2..=12)
                }
            })
            .collect(),
        _ => (0..cells).map(|_| rng.random_range(2..=64)).collect(),
    }
}

fn random_puzzle(rng: &mut StdRng, round: usize) -> Puzzle {
    let topology = random_topology(rng, round);
    let cells = topology.cell_count();
    let moduli = random_moduli(rng, cells);
    let start: Vec<u64> = moduli.iter().map(|&m| rng.random_range(0..m)).collect();
    let weight = |rng: &mut StdRng| if rng.random_bool(0.1) { 0 } else { rng.random_range(-6..=6i64) };
    let (self_weight, neighbor_weight) = (weight(rng), weight(rng));
    let puzzle = Puzzle::builder(topology)
        .moduli(moduli.clone())
        .press(self_weight, neighbor_weight)
        .start(start.clone())
        .build()
        .expect("a valid random puzzle");
    // Half the time a target reached by a random plan (solvable), else a random one.
    let target: Vec<u64> = if rng.random_bool(0.5) {
        let plan: Vec<BigUint> =
            puzzle.periods().iter().map(|l| rng.random_range(0..1u64 << 62) % l).collect();
        puzzle.apply(&start, &plan)
    } else {
        moduli.iter().map(|&m| rng.random_range(0..m)).collect()
    };
    puzzle.with_target(target).expect("below the moduli")
}

/// The additive order of `g` in `Π Z/L_j`.
fn order(g: &[BigUint], periods: &[BigUint]) -> BigUint {
    g.iter().zip(periods).fold(BigUint::one(), |acc, (v, l)| acc.lcm(&(l / v.gcd(l))))
}

/// What every answer must satisfy: its plan simulates, its quiet basis is quiet with the stated
/// orders, and (when whole) the orders multiply to the kernel size.
fn check(puzzle: &Puzzle, answer: &Answer, what: &str) {
    assert_eq!(answer.count.is_zero(), answer.presses.is_none(), "{what}");
    if let Some(x) = &answer.presses {
        assert!(x.iter().zip(&answer.periods).all(|(v, l)| v < l), "{what}: plan not reduced");
        assert!(puzzle.solves(x), "{what}: plan");
    }
    let zero = vec![0u64; puzzle.cell_count()];
    for g in &answer.quiet_basis {
        assert_eq!(puzzle.apply(&zero, &g.presses), zero, "{what}: a generator is not quiet");
        assert_eq!(order(&g.presses, &answer.periods), g.order, "{what}: a generator's order");
    }
    let product: BigUint = answer.quiet_basis.iter().map(|g| &g.order).product();
    assert!(answer.quiet_basis.is_empty() || product == answer.kernel_size, "{what}: basis orders");
}

#[test]
fn sparse_elimination_agrees_with_dense_elimination() {
    let mut rng = StdRng::seed_from_u64(18);
    let (mut solvable, mut large, mut bases) = (0, 0, 0);
    for round in 0..90 {
        let puzzle = random_puzzle(&mut rng, round);
        let what = format!("round {round}: {:?}, {} cells", puzzle.topology(), puzzle.cell_count());
        let sparse = solve_with(&puzzle, Method::Sparse).unwrap_or_else(|e| panic!("{what}: {e}"));
        let dense = solve_with(&puzzle, Method::Modular).unwrap_or_else(|e| panic!("{what}: {e}"));
        assert_eq!(sparse.method, Method::Sparse, "{what}");
        assert_eq!(sparse.periods, dense.periods, "{what}: periods");
        assert_eq!(sparse.is_solvable(), dense.is_solvable(), "{what}: solvability");
        assert_eq!(sparse.count, dense.count, "{what}: count");
        assert_eq!(sparse.kernel_size, dense.kernel_size, "{what}: kernel size");
        assert_eq!(sparse.has_full_basis(), dense.has_full_basis(), "{what}: whole basis");
        check(&puzzle, &sparse, &what);
        check(&puzzle, &dense, &what);
        solvable += usize::from(sparse.is_solvable());
        large += usize::from(puzzle.moduli().iter().any(|&m| m > 1 << 32));
        bases += usize::from(sparse.has_full_basis() && sparse.kernel_size > BigUint::one());
    }
    assert!(solvable > 30 && solvable < 85, "{solvable} solvable");
    assert!(large > 5, "{large} with moduli past 2^32");
    assert!(bases > 20, "{bases} with a whole nontrivial basis");
}

/// The default dispatch takes sparse elimination on mixed grids from 256 cells on, and the
/// answer is dense elimination's.
#[test]
fn mixed_grids_take_sparse_elimination() {
    let mut rng = StdRng::seed_from_u64(7);
    for (rows, cols, self_weight) in [(16, 16, 1), (20, 25, 2), (12, 40, 1)] {
        let cells = rows * cols;
        let moduli: Vec<u64> = (0..cells).map(|_| rng.random_range(2..=12)).collect();
        let start: Vec<u64> = moduli.iter().map(|&m| rng.random_range(0..m)).collect();
        let puzzle =
            Puzzle::builder(Topology::Grid { rows, cols, wrap: false, neighborhood: Neighborhood::Cross })
                .moduli(moduli)
                .press(self_weight, 1)
                .start(start)
                .build()
                .expect("valid");
        let auto = solve(&puzzle).expect("verified");
        assert_eq!(auto.method, Method::Sparse, "{rows}×{cols}");
        let dense = solve_with(&puzzle, Method::Modular).expect("verified");
        assert_eq!((&auto.count, &auto.kernel_size), (&dense.count, &dense.kernel_size), "{rows}×{cols}");
        check(&puzzle, &auto, &format!("{rows}×{cols}"));
    }
}

/// A 300 × 300 board with per-cell moduli 2..=12 (dense elimination would need 60 GiB), under
/// the plain rule and the octopus's (self 2, neighbours 1), its target reached from the start by
/// a random plan: solved with a verified plan, and the same counts as its transposed twin.
#[test]
fn mixed_board_300x300() {
    let mut rng = StdRng::seed_from_u64(300);
    let (rows, cols) = (300, 300);
    let moduli: Vec<u64> = (0..rows * cols).map(|_| rng.random_range(2..=12)).collect();
    let transpose =
        |v: &[u64]| -> Vec<u64> { (0..rows * cols).map(|k| v[(k % rows) * cols + k / rows]).collect() };
    for self_weight in [1, 2] {
        let build = |moduli: Vec<u64>| {
            Puzzle::builder(Topology::Grid { rows, cols, wrap: false, neighborhood: Neighborhood::Cross })
                .moduli(moduli)
                .press(self_weight, 1)
                .build()
                .expect("valid")
        };
        let puzzle = build(moduli.clone());
        let plan: Vec<BigUint> =
            puzzle.periods().iter().map(|l| rng.random_range(0..1u64 << 62) % l).collect();
        let target = puzzle.apply(&vec![0; rows * cols], &plan);
        let puzzle = puzzle.with_target(target.clone()).expect("below the moduli");
        let answer = solve(&puzzle).expect("verified");
        assert_eq!(answer.method, Method::Sparse);
        let x = answer.presses.as_ref().expect("solvable by construction");
        assert!(puzzle.solves(x));
        let twin = build(transpose(&moduli)).with_target(transpose(&target)).expect("below the moduli");
        let other = solve(&twin).expect("verified");
        assert!(other.is_solvable(), "self {self_weight}");
        assert_eq!(other.count, answer.count, "self {self_weight}");
        assert_eq!(other.kernel_size, answer.kernel_size, "self {self_weight}");
        assert!(answer.kernel_size > BigUint::one(), "self {self_weight}: mixed boards have quiet patterns");
    }
}

/// Dense systems whose kernel is too large for the reducing second elimination (the echelon's
/// generators are kept as they are): every generator is quiet with its stated order, and the
/// orders multiply to the kernel size; moduli from {3, 9} and from {2, 4, 8}.
#[test]
fn large_dense_kernels_keep_their_true_orders() {
    let mut rng = StdRng::seed_from_u64(1818);
    for choices in [[3u64, 9, 9], [2, 4, 8]] {
        let (cells, buttons) = (100, 600);
        let moduli: Vec<u64> = (0..cells).map(|_| choices[rng.random_range(0..3)]).collect();
        let list: Vec<String> = (0..buttons)
            .map(|_| {
                let pairs: Vec<String> =
                    (0..cells).map(|i| format!("({i}, {})", rng.random_range(0..moduli[i]))).collect();
                format!("[{}]", pairs.join(", "))
            })
            .collect();
        let source = format!(
            "Puzzle(graph: Cells({cells}), modulus: {moduli:?}, buttons: [{}], start: All(1))",
            list.join(", ")
        );
        let puzzle = modsolve::parse_puzzle(&source).expect("valid");
        let answer = solve_with(&puzzle, Method::Modular).expect("verified");
        let what = format!("moduli {choices:?}");
        // Past the reduction's threshold: 2^14 entries at one prime.
        assert!(
            answer.quiet_basis.len() * buttons > 1 << 14,
            "{what}: {} generators",
            answer.quiet_basis.len()
        );
        check(&puzzle, &answer, &what);
    }
}
