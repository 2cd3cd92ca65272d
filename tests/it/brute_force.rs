//! The solver against truths computed independently, in this file, with plain arithmetic.
//!
//! Nothing here asks the crate how a puzzle behaves: the effect of every button is rebuilt from
//! the raw `Puzzle` fields (own neighbour lists for `Path`/`Cycle`/`Grid`/`Edges`, signed weights
//! reduced by hand), periods come from a plain loop (small moduli) or from their definition
//! `lcm_i m_i / gcd(a_ij, m_i)` (large moduli), and plans are re-simulated with big integers.
//! Every generator is seeded, so every run checks the same cases.
//!
//! - **Exhaustive enumeration** (1500 random puzzles plus hand-picked edge cases): moduli 2..=12,
//!   all equal (mod 2 included) or mixed per cell; 1-6 cells; 1-6 explicit buttons with weights
//!   in -15..=15 (0, negatives, a cell listed twice) or graph buttons on paths, cycles, grids
//!   (wrapped, King) and random graphs. Every press vector in `Π [0, L_j)` is simulated (at most
//!   200,000 of them) to count plans and quiet patterns. `solve`, and `solve_with` for every
//!   method (`Modular` always, `Gf2` on mod-2 puzzles, `Propagation` and `Sparse` on graph
//!   puzzles), must give
//!   the same periods, count and kernel size, a plan below its periods that reaches the target,
//!   and a quiet basis whose generators are quiet, have the stated orders and span exactly the
//!   kernel.
//! - **GF(2) fast path vs general path**: all-mod-2 puzzles with 1, 2, 63, 64, 65, 127, 128 and
//!   129 cells and buttons (every pair), sparse and dense, plus graph puzzles of those sizes;
//!   `Gf2`, `Modular`, `Auto` (and `Propagation` on graphs) agree with each other and with an
//!   independent rank computation over GF(2).
//! - **Boards of 400+ cells** (grids, paths, cycles, sparse graphs; moduli 2, 3, 5, 6, 7), where
//!   the default dispatch takes its propagation paths: `solve` and `Modular` agree with ranks over
//!   GF(q) for each prime `q` of the (squarefree) modulus.
//! - **Large moduli** (no enumeration possible): moduli near 2^64 and 2^63, products of two
//!   large primes, prime powers (2^62, 2^63, 3^39, 3^40, 5^27, 7^22, (2^32-5)^2), mixed large
//!   moduli whose buttons have periods beyond 2^64. Counts are checked against formulas derived
//!   by hand: one cell (`count = Π L_j · g / m` when `g = gcd(m, a_1..a_k)` divides `d`), one
//!   button (generalised CRT, 0 or 1 plan), and prime moduli (`Π_p p^(free columns)` by rank
//!   over GF(p)).
//! - **Property test** (400 cases): the plan, when there is one, reaches the target, and the
//!   count is zero exactly when there is no plan.

use std::collections::{BTreeSet, HashSet};

use modsolve::model::{Buttons, Neighborhood, Puzzle, Topology};
use modsolve::{Answer, Method, solve, solve_with};
use num_bigint::{BigInt, BigUint};
use num_integer::Integer;
use num_traits::{One, ToPrimitive, Zero};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};
use rand::{RngExt, SeedableRng, rngs::StdRng};

// ---------------------------------------------------------------------------------------------
// Independent model: effects, periods, simulation.
// ---------------------------------------------------------------------------------------------

fn puzzle(
    topology: Topology,
    moduli: Vec<u64>,
    buttons: Buttons,
    start: Vec<u64>,
    target: Vec<u64>,
) -> Puzzle {
    let builder = Puzzle::builder(topology).moduli(moduli).start(start).target(target);
    match buttons {
        Buttons::Graph { self_weight, neighbor_weight } => builder.press(
            i64::try_from(self_weight).expect("a test weight"),
            i64::try_from(neighbor_weight).expect("a test weight"),
        ),
        Buttons::Explicit(list) => builder.buttons(list),
    }
    .build()
    .expect("a valid test puzzle")
}

fn explicit(moduli: Vec<u64>, buttons: Vec<Vec<(usize, i64)>>, start: Vec<u64>, target: Vec<u64>) -> Puzzle {
    puzzle(Topology::Cells(moduli.len()), moduli, Buttons::Explicit(buttons), start, target)
}

/// The neighbours of a cell, computed here from the topology's definition: distinct cells other
/// than the cell itself.
fn neighbors(topology: &Topology, cell: usize) -> BTreeSet<usize> {
    let mut out = BTreeSet::new();
    match topology {
        Topology::Cells(_) => {}
        Topology::Path(n) => {
            if cell > 0 {
                out.insert(cell - 1);
            }
            if cell + 1 < *n {
                out.insert(cell + 1);
            }
        }
        Topology::Cycle(n) => {
            out.insert((cell + n - 1) % n);
            out.insert((cell + 1) % n);
        }
        Topology::Grid { rows, cols, wrap, neighborhood } => {
            let (rows, cols) = (*rows as i64, *cols as i64);
            let (r, c) = (cell as i64 / cols, cell as i64 % cols);
            for dr in -1..=1i64 {
                for dc in -1..=1i64 {
                    let diagonal = dr != 0 && dc != 0;
                    assert_ne!(*neighborhood, Neighborhood::Knight, "knights are checked in `shapes`");
                    if (dr, dc) == (0, 0) || (diagonal && *neighborhood == Neighborhood::Cross) {
                        continue;
                    }
                    let (mut rr, mut cc) = (r + dr, c + dc);
                    if *wrap {
                        rr = rr.rem_euclid(rows);
                        cc = cc.rem_euclid(cols);
                    } else if rr < 0 || rr >= rows || cc < 0 || cc >= cols {
                        continue;
                    }
                    out.insert((rr * cols + cc) as usize);
                }
            }
        }
        Topology::Edges { adjacency } => out.extend(adjacency[cell].iter().copied()),
        Topology::Board(_) => unreachable!("boards are checked in `shapes`"),
        _ => unreachable!("a topology this test does not know"),
    }
    out.remove(&cell);
    out
}

/// `columns[j][i]`: what one press of button `j` adds to cell `i`, reduced into `[0, m_i)`.
fn columns(p: &Puzzle) -> Vec<Vec<u64>> {
    let cells = p.moduli().len();
    let add = |column: &mut Vec<u64>, i: usize, w: i128| {
        let m = p.moduli()[i] as i128;
        column[i] = ((column[i] as i128 + w.rem_euclid(m)) % m) as u64;
    };
    match &p.buttons() {
        Buttons::Explicit(list) => list
            .iter()
            .map(|effect| {
                let mut column = vec![0u64; cells];
                for &(i, w) in effect {
                    add(&mut column, i, w.into());
                }
                column
            })
            .collect(),
        Buttons::Graph { self_weight, neighbor_weight } => (0..cells)
            .map(|j| {
                let mut column = vec![0u64; cells];
                add(&mut column, j, *self_weight);
                for i in neighbors(p.topology(), j) {
                    add(&mut column, i, *neighbor_weight);
                }
                column
            })
            .collect(),
    }
}

/// The period of a button by plain search: the smallest `L > 0` with `L·a_i ≡ 0 (mod m_i)`.
fn small_period(column: &[u64], moduli: &[u64]) -> u64 {
    (1u64..).find(|&l| column.iter().zip(moduli).all(|(&a, &m)| (l * a) % m == 0)).unwrap()
}

/// The period from its definition, for moduli too large to search: `lcm_i m_i / gcd(a_i, m_i)`.
fn big_period(column: &[u64], moduli: &[u64]) -> BigUint {
    column.iter().zip(moduli).fold(BigUint::one(), |l, (&a, &m)| l.lcm(&BigUint::from(m / a.gcd(&m))))
}

/// The state reached from `from` by pressing `x`, with big-integer arithmetic.
fn reach(moduli: &[u64], columns: &[Vec<u64>], from: &[u64], x: &[BigUint]) -> Vec<u64> {
    let mut totals: Vec<BigUint> = from.iter().map(|&v| BigUint::from(v)).collect();
    for (column, xj) in columns.iter().zip(x) {
        if xj.is_zero() {
            continue;
        }
        for (total, &a) in totals.iter_mut().zip(column) {
            if a != 0 {
                *total += BigUint::from(a) * xj;
            }
        }
    }
    totals.iter().zip(moduli).map(|(total, &m)| (total % m).to_u64().unwrap()).collect()
}

/// `target_i - start_i (mod m_i)`.
fn difference(p: &Puzzle, i: usize) -> u64 {
    let m = p.moduli()[i] as u128;
    ((p.target()[i] as u128 + m - p.start()[i] as u128) % m) as u64
}

/// The additive order of `g` in `Π Z/L_j`: `lcm_j L_j / gcd(g_j, L_j)`.
fn additive_order(g: &[BigUint], periods: &[BigUint]) -> BigUint {
    g.iter().zip(periods).fold(BigUint::one(), |acc, (v, l)| acc.lcm(&(l / v.gcd(l))))
}

/// Checks what every answer must satisfy whatever the puzzle: periods as expected, the plan
/// (if any) below its periods and reaching the target by our own simulation, the count zero
/// exactly when there is no plan, and the quiet basis made of quiet patterns of the stated orders
/// whose orders multiply to the kernel size. Panics with `what` on failure.
fn check_common(p: &Puzzle, columns: &[Vec<u64>], periods: &[BigUint], answer: &Answer, what: &str) {
    let n = columns.len();
    assert_eq!(&answer.periods, periods, "periods: {what}");
    assert_eq!(answer.count.is_zero(), answer.presses.is_none(), "count zero iff no plan: {what}");
    assert_eq!(answer.is_solvable(), answer.presses.is_some(), "{what}");
    if let Some(x) = &answer.presses {
        assert_eq!(x.len(), n, "plan length: {what}");
        assert!(x.iter().zip(periods).all(|(v, l)| v < l), "plan {x:?} not below periods: {what}");
        assert_eq!(
            reach(&p.moduli().to_vec(), columns, &p.start().to_vec(), x),
            *p.target(),
            "plan {x:?} misses the target: {what}"
        );
        assert_eq!(answer.count, answer.kernel_size, "solvable: count = kernel size: {what}");
    }
    let zero = vec![0u64; p.moduli().len()];
    let mut product = BigUint::one();
    for g in &answer.quiet_basis {
        assert_eq!(g.presses.len(), n, "generator length: {what}");
        assert!(g.presses.iter().zip(periods).all(|(v, l)| v < l), "generator {g:?} not reduced: {what}");
        assert_eq!(
            reach(&p.moduli().to_vec(), columns, &zero, &g.presses),
            zero,
            "generator {g:?} not quiet: {what}"
        );
        assert_eq!(g.order, additive_order(&g.presses, periods), "generator {g:?} order: {what}");
        assert!(g.order > BigUint::one(), "zero generator {g:?}: {what}");
        product *= &g.order;
    }
    assert_eq!(product, answer.kernel_size, "quiet basis orders multiply to the kernel size: {what}");
}

// ---------------------------------------------------------------------------------------------
// 1. Exhaustive enumeration on small puzzles.
// ---------------------------------------------------------------------------------------------

/// At most this many press vectors are enumerated per random puzzle.
const SPACE_LIMIT: u64 = 200_000;
/// Hand-picked edge cases may enumerate more.
const EDGE_SPACE_LIMIT: u64 = 30_000_000;

/// The truth about a small puzzle, by enumerating `Π [0, L_j)`.
struct Truth {
    columns: Vec<Vec<u64>>,
    periods: Vec<u64>,
    count: u64,
    kernel: u64,
}

fn space(periods: &[u64]) -> u64 {
    periods.iter().fold(1u64, |acc, &l| acc.saturating_mul(l))
}

/// Enumerates every press vector (odometer order). Moving one digit from `x_j` to `x_j + 1`, or
/// wrapping it from `L_j - 1` to 0, adds column `j` once (as `L_j·a_j ≡ 0`), so the change is
/// kept up to date with one column addition per digit moved.
fn enumerate(p: &Puzzle, limit: u64) -> Truth {
    let columns = columns(p);
    let periods: Vec<u64> = columns.iter().map(|c| small_period(c, &p.moduli().to_vec())).collect();
    assert!(space(&periods) <= limit, "press space too large to enumerate: {periods:?}");
    let cells = p.moduli().len();
    let wanted: Vec<u64> =
        (0..cells).map(|i| (p.target()[i] + p.moduli()[i] - p.start()[i]) % p.moduli()[i]).collect();
    let mut change = vec![0u64; cells];
    let mut x = vec![0u64; columns.len()];
    let (mut count, mut kernel) = (0u64, 0u64);
    loop {
        count += (change == wanted) as u64;
        kernel += change.iter().all(|&c| c == 0) as u64;
        let mut j = 0;
        loop {
            if j == columns.len() {
                return Truth { columns, periods, count, kernel };
            }
            for i in 0..cells {
                change[i] = (change[i] + columns[j][i]) % p.moduli()[i];
            }
            x[j] += 1;
            if x[j] < periods[j] {
                break;
            }
            x[j] = 0;
            j += 1;
        }
    }
}

/// Every quiet pattern `Σ t_g·g` (`0 <= t_g < order_g`) is distinct: with the orders multiplying
/// to the kernel size (checked by [`check_common`]) the basis spans exactly the kernel.
fn check_span(answer: &Answer, periods: &[u64], what: &str) {
    let basis: Vec<(Vec<u64>, u64)> = answer
        .quiet_basis
        .iter()
        .map(|g| (g.presses.iter().map(|v| v.to_u64().unwrap()).collect(), g.order.to_u64().unwrap()))
        .collect();
    let mut seen: HashSet<Vec<u64>> = HashSet::new();
    let mut t = vec![0u64; basis.len()];
    let mut v = vec![0u64; periods.len()];
    loop {
        assert!(seen.insert(v.clone()), "quiet basis repeats {v:?}: {what}");
        let mut k = 0;
        loop {
            if k == basis.len() {
                return;
            }
            // Adding g once more; wrapping t_k from order-1 to 0 also adds g (order·g = 0).
            for (vj, (gj, l)) in v.iter_mut().zip(basis[k].0.iter().zip(periods)) {
                *vj = (*vj + gj) % l;
            }
            t[k] += 1;
            if t[k] < basis[k].1 {
                break;
            }
            t[k] = 0;
            k += 1;
        }
    }
}

/// Checks every applicable method on one small puzzle against enumeration.
fn check_small(p: &Puzzle, limit: u64) -> Truth {
    let truth = enumerate(p, limit);
    let periods: Vec<BigUint> = truth.periods.iter().map(|&l| BigUint::from(l)).collect();
    let all_mod_two = p.moduli().iter().all(|&m| m == 2);
    let graph = matches!(p.buttons(), Buttons::Graph { .. });
    let mut runs: Vec<(&str, Answer)> = vec![
        ("solve", solve(p).unwrap_or_else(|e| panic!("solve failed ({e}) on {p:?}"))),
        ("Modular", solve_with(p, Method::Modular).unwrap_or_else(|e| panic!("Modular: {e} on {p:?}"))),
    ];
    if all_mod_two {
        let answer = solve_with(p, Method::Gf2).unwrap_or_else(|e| panic!("Gf2: {e} on {p:?}"));
        assert_eq!(answer.method, Method::Gf2, "{p:?}");
        runs.push(("Gf2", answer));
    }
    if graph {
        runs.push((
            "Propagation",
            solve_with(p, Method::Propagation).unwrap_or_else(|e| panic!("Propagation: {e} on {p:?}")),
        ));
        let answer = solve_with(p, Method::Sparse).unwrap_or_else(|e| panic!("Sparse: {e} on {p:?}"));
        assert_eq!(answer.method, Method::Sparse, "{p:?}");
        runs.push(("Sparse", answer));
    }
    for (name, answer) in &runs {
        let what = format!(
            "{name} on {p:?}\n  expected periods {:?}, count {}, kernel {}",
            truth.periods, truth.count, truth.kernel
        );
        check_common(p, &truth.columns, &periods, answer, &what);
        assert_eq!(answer.count, BigUint::from(truth.count), "count: {what}");
        assert_eq!(answer.kernel_size, BigUint::from(truth.kernel), "kernel size: {what}");
        assert_eq!(answer.is_solvable(), truth.count > 0, "solvability: {what}");
        check_span(answer, &truth.periods, &what);
    }
    truth
}

fn random_moduli(rng: &mut StdRng, cells: usize) -> Vec<u64> {
    match rng.random_range(0..10) {
        0 => vec![2; cells],
        1..=3 => vec![rng.random_range(2..=12u64); cells],
        _ => (0..cells).map(|_| rng.random_range(2..=12u64)).collect(),
    }
}

/// A random simple graph as sorted adjacency lists.
fn random_graph(rng: &mut StdRng, cells: usize, density: f64) -> Vec<Vec<usize>> {
    let mut adjacency = vec![Vec::new(); cells];
    for a in 0..cells {
        for b in a + 1..cells {
            if rng.random_bool(density) {
                adjacency[a].push(b);
                adjacency[b].push(a);
            }
        }
    }
    adjacency.iter_mut().for_each(|list| list.sort_unstable());
    adjacency
}

fn random_topology(rng: &mut StdRng, cells: usize) -> Topology {
    match rng.random_range(0..5) {
        0 => Topology::Cells(cells),
        1 => Topology::Path(cells),
        2 => Topology::Cycle(cells),
        3 => {
            let shapes: Vec<usize> = (1..=cells).filter(|&r| cells.is_multiple_of(r)).collect();
            let rows = shapes[rng.random_range(0..shapes.len())];
            let neighborhood = if rng.random_bool(0.3) { Neighborhood::King } else { Neighborhood::Cross };
            Topology::Grid { rows, cols: cells / rows, wrap: rng.random_bool(0.3), neighborhood }
        }
        _ => {
            let density = rng.random_range(0.2..0.9);
            Topology::Edges { adjacency: random_graph(rng, cells, density) }
        }
    }
}

fn random_effects(rng: &mut StdRng, cells: usize, buttons: usize) -> Vec<Vec<(usize, i64)>> {
    (0..buttons)
        .map(|_| {
            let density = rng.random_range(0.1..1.0);
            let mut effect: Vec<(usize, i64)> = Vec::new();
            for i in 0..cells {
                if rng.random_bool(density) {
                    effect.push((i, rng.random_range(-15..=15)));
                }
            }
            if rng.random_bool(0.1) {
                // A cell listed twice gets both amounts.
                effect.push((rng.random_range(0..cells), rng.random_range(-15..=15)));
            }
            if rng.random_bool(0.3) {
                effect.reverse();
            }
            effect
        })
        .collect()
}

/// A random small puzzle whose press space has at most [`SPACE_LIMIT`] vectors. Half the time
/// the target is random, half the time it is reached from the start by a random plan.
fn random_small_puzzle(rng: &mut StdRng) -> Puzzle {
    loop {
        let cells = rng.random_range(1..=6usize);
        let moduli = random_moduli(rng, cells);
        let start: Vec<u64> = moduli.iter().map(|&m| rng.random_range(0..m)).collect();
        let p = if rng.random_bool(0.3) {
            let buttons = Buttons::Graph {
                self_weight: rng.random_range(-15..=15),
                neighbor_weight: rng.random_range(-15..=15),
            };
            puzzle(random_topology(rng, cells), moduli, buttons, start.clone(), start)
        } else {
            let buttons = rng.random_range(1..=6usize);
            explicit(moduli, random_effects(rng, cells, buttons), start.clone(), start)
        };
        let columns = columns(&p);
        let periods: Vec<u64> = columns.iter().map(|c| small_period(c, &p.moduli().to_vec())).collect();
        if space(&periods) > SPACE_LIMIT {
            continue;
        }
        let target: Vec<u64> = if rng.random_bool(0.5) {
            p.moduli().iter().map(|&m| rng.random_range(0..m)).collect()
        } else {
            let x: Vec<BigUint> = periods.iter().map(|&l| BigUint::from(rng.random_range(0..l))).collect();
            reach(&p.moduli().to_vec(), &columns, &p.start().to_vec(), &x)
        };
        return p.with_target(target).expect("below the moduli");
    }
}

#[test]
fn counts_and_plans_equal_exhaustive_enumeration() {
    let mut rng = StdRng::seed_from_u64(1500);
    let cases = 1500;
    let (mut solvable, mut graph, mut mixed, mut mod_two, mut quiet, mut idle, mut enumerated) =
        (0, 0, 0, 0, 0, 0, 0u64);
    for _ in 0..cases {
        let p = random_small_puzzle(&mut rng);
        let truth = check_small(&p, SPACE_LIMIT);
        solvable += (truth.count > 0) as usize;
        graph += matches!(p.buttons(), Buttons::Graph { .. }) as usize;
        mixed += p.moduli().iter().any(|&m| m != p.moduli()[0]) as usize;
        mod_two += p.moduli().iter().all(|&m| m == 2) as usize;
        quiet += (truth.kernel > 1) as usize;
        idle += truth.periods.contains(&1) as usize;
        enumerated += space(&truth.periods);
    }
    eprintln!(
        "{cases} puzzles, {enumerated} press vectors: {solvable} solvable, {graph} graph, {mixed} mixed \
         moduli, {mod_two} mod 2, {quiet} with quiet patterns, {idle} with an idle button"
    );
    // The corpus exercises every kind of case.
    assert!(solvable > 600 && solvable < 1400, "{solvable} solvable");
    assert!(graph > 300, "{graph} graph puzzles");
    assert!(mixed > 500, "{mixed} with mixed moduli");
    assert!(mod_two > 50, "{mod_two} mod 2");
    assert!(quiet > 300, "{quiet} with quiet patterns");
    assert!(idle > 20, "{idle} with an idle button");
}

/// Hand-picked corners, each checked by enumeration like the random corpus.
#[test]
fn edge_cases_equal_exhaustive_enumeration() {
    let king = Neighborhood::King;
    let cross = Neighborhood::Cross;
    let graph = |topology: Topology, moduli: Vec<u64>, s: i64, n: i64, start: Vec<u64>, target: Vec<u64>| {
        puzzle(
            topology,
            moduli,
            Buttons::Graph { self_weight: s.into(), neighbor_weight: n.into() },
            start,
            target,
        )
    };
    let cases = vec![
        // A cell listed twice cancels out: the button is idle (period 1).
        explicit(vec![2, 2], vec![vec![(0, 1), (0, 1)], vec![(1, 1)]], vec![0, 0], vec![0, 1]),
        explicit(vec![6], vec![vec![(0, 4), (0, 2)]], vec![3], vec![3]),
        explicit(vec![6], vec![vec![(0, 4), (0, 2)]], vec![3], vec![4]),
        // Extreme weights.
        explicit(
            vec![7, 12],
            vec![vec![(0, i64::MIN), (1, i64::MAX)], vec![(1, i64::MIN)]],
            vec![1, 5],
            vec![3, 2],
        ),
        explicit(vec![2, 3], vec![vec![(0, i64::MAX)], vec![(1, i64::MIN), (0, -1)]], vec![0, 0], vec![1, 2]),
        // Buttons with no effect at all, and no buttons.
        explicit(vec![5, 5], vec![vec![], vec![(0, 5)], vec![(1, 1)]], vec![0, 0], vec![0, 3]),
        explicit(vec![5, 5], vec![vec![], vec![(0, 5)]], vec![0, 0], vec![0, 3]),
        explicit(vec![5, 5], vec![vec![], vec![(0, 5)]], vec![2, 3], vec![2, 3]),
        explicit(vec![4], vec![], vec![1], vec![1]),
        explicit(vec![4], vec![], vec![1], vec![2]),
        // Mod 2 only, every button the same.
        explicit(vec![2; 3], vec![vec![(0, 1), (2, 3)]; 4], vec![1, 0, 0], vec![0, 0, 1]),
        // The octopus.
        graph(Topology::Path(4), vec![7, 8, 7, 6], 2, 1, vec![2, 4, 5, 3], vec![0; 4]),
        // Degenerate graphs: one-cell and two-cell cycles, 1-wide and 2-wide tori, 1×1 grid.
        graph(Topology::Cycle(1), vec![3], 1, 1, vec![0], vec![2]),
        graph(Topology::Cycle(2), vec![4, 6], 1, 3, vec![0, 1], vec![3, 2]),
        graph(
            Topology::Grid { rows: 1, cols: 2, wrap: true, neighborhood: cross },
            vec![3; 2],
            1,
            1,
            vec![0; 2],
            vec![1, 2],
        ),
        graph(
            Topology::Grid { rows: 1, cols: 1, wrap: true, neighborhood: king },
            vec![5],
            2,
            1,
            vec![0],
            vec![1],
        ),
        graph(
            Topology::Grid { rows: 2, cols: 2, wrap: true, neighborhood: king },
            vec![2; 4],
            1,
            1,
            vec![0; 4],
            vec![1; 4],
        ),
        graph(
            Topology::Grid { rows: 2, cols: 3, wrap: true, neighborhood: cross },
            vec![2; 6],
            1,
            1,
            vec![0; 6],
            vec![1; 6],
        ),
        graph(
            Topology::Grid { rows: 3, cols: 1, wrap: true, neighborhood: king },
            vec![4; 3],
            1,
            -1,
            vec![1, 2, 3],
            vec![0; 3],
        ),
        graph(
            Topology::Grid { rows: 2, cols: 3, wrap: false, neighborhood: cross },
            vec![3; 6],
            1,
            1,
            vec![0; 6],
            vec![2; 6],
        ),
        // Zero weights.
        graph(Topology::Path(3), vec![4; 3], 0, 1, vec![0; 3], vec![1, 0, 1]),
        graph(Topology::Cycle(4), vec![6; 4], 3, 0, vec![0; 4], vec![3, 0, 3, 3]),
        graph(Topology::Cycle(3), vec![9, 3, 9], 0, 0, vec![1, 2, 3], vec![1, 2, 3]),
        graph(
            Topology::Edges { adjacency: vec![vec![], vec![2], vec![1]] },
            vec![2, 4, 8],
            1,
            2,
            vec![0; 3],
            vec![1, 2, 6],
        ),
        // Every cell of a mixed modulus hit by one button: period lcm = 3·4·5·7·11.
        explicit(
            vec![3, 4, 5, 7, 11],
            vec![vec![(0, 1), (1, 1), (2, 1), (3, 1), (4, 1)]],
            vec![0; 5],
            vec![1, 2, 3, 4, 5],
        ),
    ];
    for p in &cases {
        check_small(p, EDGE_SPACE_LIMIT);
    }
}

// ---------------------------------------------------------------------------------------------
// 2. GF(2) fast path against the general path.
// ---------------------------------------------------------------------------------------------

/// Rank over GF(2) by plain elimination.
fn gf2_rank(mut rows: Vec<Vec<bool>>) -> usize {
    let width = rows.first().map_or(0, Vec::len);
    let mut rank = 0;
    for col in 0..width {
        let Some(pivot) = (rank..rows.len()).find(|&r| rows[r][col]) else { continue };
        rows.swap(rank, pivot);
        let pivot_row = rows[rank].clone();
        for (r, row) in rows.iter_mut().enumerate() {
            if r != rank && row[col] {
                row.iter_mut().zip(&pivot_row).for_each(|(a, &b)| *a ^= b);
            }
        }
        rank += 1;
    }
    rank
}

/// Periods, count and kernel size of an all-mod-2 puzzle from ranks: kernel `2^(z - r)` with
/// `z` the buttons that change something and `r = rank A`; solvable iff `rank [A | d] = r`.
fn gf2_truth(p: &Puzzle, columns: &[Vec<u64>]) -> (Vec<BigUint>, BigUint, BigUint) {
    let cells = p.moduli().len();
    let rows: Vec<Vec<bool>> = (0..cells).map(|i| columns.iter().map(|c| c[i] == 1).collect()).collect();
    let augmented: Vec<Vec<bool>> = rows
        .iter()
        .enumerate()
        .map(|(i, row)| [row.clone(), vec![p.start()[i] != p.target()[i]]].concat())
        .collect();
    let rank = gf2_rank(rows);
    let periods: Vec<BigUint> =
        columns.iter().map(|c| BigUint::from(if c.contains(&1) { 2u32 } else { 1 })).collect();
    let active = columns.iter().filter(|c| c.contains(&1)).count();
    let kernel = BigUint::one() << (active - rank);
    let count = if gf2_rank(augmented) == rank { kernel.clone() } else { BigUint::zero() };
    (periods, count, kernel)
}

/// Runs the methods on an all-mod-2 puzzle and checks each against the rank truth.
fn check_mod_two(p: &Puzzle, label: &str) -> bool {
    let columns = columns(p);
    let (periods, count, kernel) = gf2_truth(p, &columns);
    let mut methods = vec![Method::Gf2, Method::Modular, Method::Auto];
    if matches!(p.buttons(), Buttons::Graph { .. }) {
        methods.push(Method::Propagation);
    }
    for method in methods {
        let answer = solve_with(p, method).unwrap_or_else(|e| panic!("{method:?} failed ({e}) on {label}"));
        if method == Method::Gf2 {
            assert_eq!(answer.method, Method::Gf2, "{label}");
        }
        let what = format!("{method:?} on {label}: expected count {count}, kernel {kernel}");
        check_common(p, &columns, &periods, &answer, &what);
        assert_eq!(answer.count, count, "count: {what}");
        assert_eq!(answer.kernel_size, kernel, "kernel size: {what}");
    }
    !count.is_zero()
}

const WORD_EDGES: [usize; 8] = [1, 2, 63, 64, 65, 127, 128, 129];

#[test]
fn gf2_fast_path_agrees_with_general_path_at_word_edges() {
    let mut rng = StdRng::seed_from_u64(2);
    let (mut cases, mut solvable) = (0, 0);
    for &cells in &WORD_EDGES {
        for &buttons in &WORD_EDGES {
            for density in [1.5 / cells as f64, 0.5, 0.97] {
                let density = density.min(1.0);
                let odd_weights = rng.random_bool(0.3);
                let list: Vec<Vec<(usize, i64)>> = (0..buttons)
                    .map(|_| {
                        let mut effect: Vec<(usize, i64)> = Vec::new();
                        for i in 0..cells {
                            if rng.random_bool(density) {
                                // Any odd weight is a 1; with `odd_weights` some cells are
                                // listed twice or with an even weight (no effect).
                                let w = if odd_weights {
                                    [1, -1, 3, -15, 2, 0][rng.random_range(0..6)]
                                } else {
                                    1
                                };
                                effect.push((i, w));
                                if odd_weights && rng.random_bool(0.1) {
                                    effect.push((i, 1));
                                }
                            }
                        }
                        effect
                    })
                    .collect();
                let start: Vec<u64> = (0..cells).map(|_| rng.random_range(0..2)).collect();
                let mut p = explicit(vec![2; cells], list, start.clone(), start);
                let target: Vec<u64> = if rng.random_bool(0.5) {
                    (0..cells).map(|_| rng.random_range(0..2)).collect()
                } else {
                    let x: Vec<BigUint> =
                        (0..buttons).map(|_| BigUint::from(rng.random_range(0..2u32))).collect();
                    reach(&p.moduli().to_vec(), &columns(&p), &p.start().to_vec(), &x)
                };
                p = p.with_target(target).expect("below the moduli");
                let label = format!("{cells} cells × {buttons} buttons, density {density:.3}");
                solvable += check_mod_two(&p, &label) as usize;
                cases += 1;
            }
        }
    }
    assert!(solvable > cases / 3 && solvable < cases, "{solvable} of {cases} solvable");
}

#[test]
fn gf2_fast_path_agrees_with_general_path_on_graphs_at_word_edges() {
    let mut rng = StdRng::seed_from_u64(22);
    let mut topologies: Vec<Topology> = Vec::new();
    for &n in &WORD_EDGES {
        topologies.push(Topology::Path(n));
        topologies.push(Topology::Cycle(n));
        topologies.push(Topology::Grid { rows: 1, cols: n, wrap: false, neighborhood: Neighborhood::Cross });
        topologies.push(Topology::Edges { adjacency: random_graph(&mut rng, n, (3.0 / n as f64).min(1.0)) });
    }
    for (rows, cols) in [(7, 9), (8, 8), (5, 13), (8, 16), (3, 43), (2, 64), (4, 16), (9, 7)] {
        for wrap in [false, true] {
            for neighborhood in [Neighborhood::Cross, Neighborhood::King] {
                topologies.push(Topology::Grid { rows, cols, wrap, neighborhood });
            }
        }
    }
    for topology in topologies {
        let cells = topology.cell_count();
        for (s, n) in [(1, 1), (0, 1), (1, 0), (3, -1)] {
            let start: Vec<u64> = (0..cells).map(|_| rng.random_range(0..2)).collect();
            let target = if rng.random_bool(0.5) { vec![1; cells] } else { vec![0; cells] };
            let buttons = Buttons::Graph { self_weight: s, neighbor_weight: n };
            let p = puzzle(topology.clone(), vec![2; cells], buttons, start, target);
            check_mod_two(&p, &format!("{topology:?} with weights ({s}, {n})"));
        }
    }
}

/// The primes of a squarefree `m`, by trial division.
fn squarefree_primes(mut m: u64) -> Vec<u64> {
    let mut primes = Vec::new();
    let mut q = 2;
    while m > 1 {
        if m.is_multiple_of(q) {
            m /= q;
            assert!(!m.is_multiple_of(q), "not squarefree");
            primes.push(q);
        }
        q += 1;
    }
    primes
}

/// Boards of 400 cells and more, where the default dispatch may take its propagation paths
/// (light chasing on grids, general propagation on sparse graphs): `solve` and `Modular` agree
/// with ranks over GF(q) for squarefree moduli (see [`squarefree_truth`]).
#[test]
fn large_sparse_boards_agree_with_ranks_over_gf_p() {
    let mut rng = StdRng::seed_from_u64(400);
    let mut topologies = vec![
        Topology::Grid { rows: 20, cols: 20, wrap: false, neighborhood: Neighborhood::Cross },
        Topology::Grid { rows: 17, cols: 24, wrap: false, neighborhood: Neighborhood::Cross },
        Topology::Grid { rows: 25, cols: 16, wrap: false, neighborhood: Neighborhood::Cross },
        Topology::Path(420),
        Topology::Cycle(401),
    ];
    for cells in [400, 450] {
        // A random tree plus a few extra edges: sparse, so few seeds.
        let mut adjacency = vec![Vec::new(); cells];
        for b in 1..cells {
            let a = rng.random_range(0..b);
            adjacency[a].push(b);
            adjacency[b].push(a);
        }
        for _ in 0..cells / 20 {
            let (a, b) = (rng.random_range(0..cells), rng.random_range(0..cells));
            if a != b && !adjacency[a].contains(&b) {
                adjacency[a].push(b);
                adjacency[b].push(a);
            }
        }
        adjacency.iter_mut().for_each(|list| list.sort_unstable());
        topologies.push(Topology::Edges { adjacency });
    }
    let mut methods_seen = BTreeSet::new();
    for topology in &topologies {
        for modulus in [2u64, 3, 5, 6, 7] {
            let cells = topology.cell_count();
            let self_weight = if rng.random_bool(0.5) { 1 } else { rng.random_range(-3..=3) };
            let neighbor_weight = if rng.random_bool(0.7) { 1 } else { rng.random_range(-3..=3) };
            let start: Vec<u64> = (0..cells).map(|_| rng.random_range(0..modulus)).collect();
            let mut p = puzzle(
                topology.clone(),
                vec![modulus; cells],
                Buttons::Graph { self_weight, neighbor_weight },
                start.clone(),
                start,
            );
            let columns = columns(&p);
            let target: Vec<u64> = if rng.random_bool(0.5) {
                vec![modulus - 1; cells]
            } else {
                let x: Vec<BigUint> =
                    (0..cells).map(|_| BigUint::from(rng.random_range(0..modulus))).collect();
                reach(&p.moduli().to_vec(), &columns, &p.start().to_vec(), &x)
            };
            p = p.with_target(target).expect("below the moduli");
            let periods: Vec<BigUint> = columns.iter().map(|c| big_period(c, &p.moduli().to_vec())).collect();
            let cell_primes = vec![squarefree_primes(modulus); cells];
            let (count, kernel, _) = squarefree_truth(&p, &columns, &cell_primes);
            for method in [Method::Auto, Method::Modular] {
                let answer = solve_with(&p, method).unwrap_or_else(|e| panic!("{method:?} failed ({e})"));
                let what = format!(
                    "{method:?} on {topology:?} mod {modulus}, weights ({self_weight}, {neighbor_weight}), \
                     start {:?}, target {:?}: expected count {count}, kernel {kernel}",
                    p.start(),
                    p.target()
                );
                check_common(&p, &columns, &periods, &answer, &what);
                assert_eq!(answer.count, count, "count: {what}");
                assert_eq!(answer.kernel_size, kernel, "kernel size: {what}");
                if method == Method::Auto {
                    methods_seen.insert(format!("{:?}", answer.method));
                }
            }
        }
    }
    eprintln!("default dispatch on large sparse boards used {methods_seen:?}");
}

// ---------------------------------------------------------------------------------------------
// 3. Large moduli, against formulas.
// ---------------------------------------------------------------------------------------------

/// 2^64 - 59, the largest prime below 2^64.
const P64: u64 = 18_446_744_073_709_551_557;
/// 2^64 - 83, the next prime below it.
const P64B: u64 = 18_446_744_073_709_551_533;
/// 2^63 - 25, the largest prime below 2^63.
const P63: u64 = 9_223_372_036_854_775_783;
/// 2^61 - 1, a Mersenne prime.
const M61: u64 = (1 << 61) - 1;
/// 2^32 - 5 and 2^32 - 17, primes.
const Q32A: u64 = 4_294_967_291;
const Q32B: u64 = 4_294_967_279;

/// Large moduli with their factorisations (used to pick weights sharing factors with them).
const LARGE: &[(u64, &[(u64, u32)])] = &[
    (u64::MAX, &[(3, 1), (5, 1), (17, 1), (257, 1), (641, 1), (65_537, 1), (6_700_417, 1)]),
    (P64, &[(P64, 1)]),
    (P64B, &[(P64B, 1)]),
    (P63, &[(P63, 1)]),
    (M61, &[(M61, 1)]),
    (1 << 63, &[(2, 63)]),
    (1 << 62, &[(2, 62)]),
    (3u64.pow(39), &[(3, 39)]),
    (3u64.pow(40), &[(3, 40)]),
    (5u64.pow(27), &[(5, 27)]),
    (7u64.pow(22), &[(7, 22)]),
    (Q32A * Q32B, &[(Q32B, 1), (Q32A, 1)]),
    (1_000_000_007 * 998_244_353, &[(998_244_353, 1), (1_000_000_007, 1)]),
    (Q32A * Q32A, &[(Q32A, 2)]),
    ((1 << 31) * Q32A, &[(2, 31), (Q32A, 1)]),
];

/// Large primes, for systems counted by rank over GF(p).
const LARGE_PRIMES: [u64; 8] = [P64, P64B, P63, M61, Q32A, Q32B, 1_000_000_007, 998_244_353];

#[test]
fn large_moduli_table_is_right() {
    for &(m, factors) in LARGE {
        let product = factors.iter().fold(BigUint::one(), |acc, &(p, e)| acc * BigUint::from(p).pow(e));
        assert_eq!(product, BigUint::from(m), "{m}");
    }
}

/// A weight for a cell of modulus `m`: zero, extreme, random over all of `i64`, small, or a
/// (signed) multiple of a power of one of `m`'s prime factors.
fn large_weight(rng: &mut StdRng, factors: &[(u64, u32)]) -> i64 {
    match rng.random_range(0..8) {
        0 => 0,
        1 => [i64::MIN, i64::MAX, -1, 1][rng.random_range(0..4)],
        2 | 3 => rng.random::<i64>(),
        4 => rng.random_range(-15..=15),
        _ => {
            let (p, e) = factors[rng.random_range(0..factors.len())];
            let mut k = rng.random_range(0..=e);
            while p.checked_pow(k).is_none_or(|b| b > i64::MAX as u64) {
                k -= 1;
            }
            let base = p.pow(k);
            let r = rng.random_range(1..=(i64::MAX as u64 / base).min(31));
            let w = (base * r) as i64;
            if rng.random_bool(0.5) { -w } else { w }
        }
    }
}

/// Runs `solve` and `Modular` on a large puzzle and checks both against the expected values.
fn check_large(p: &Puzzle, columns: &[Vec<u64>], periods: &[BigUint], count: &BigUint, kernel: &BigUint) {
    let sparse =
        matches!(p.buttons(), Buttons::Graph { .. }).then(|| ("Sparse", solve_with(p, Method::Sparse)));
    for (name, answer) in
        [("solve", solve(p)), ("Modular", solve_with(p, Method::Modular))].into_iter().chain(sparse)
    {
        let answer = answer.unwrap_or_else(|e| panic!("{name} failed ({e}) on {p:?}"));
        let what = format!("{name} on {p:?}\n  expected count {count}, kernel {kernel}, periods {periods:?}");
        check_common(p, columns, periods, &answer, &what);
        assert_eq!(&answer.count, count, "count: {what}");
        assert_eq!(&answer.kernel_size, kernel, "kernel size: {what}");
    }
}

/// `target = start + A·x` for a random `x` (solvable) half the time, else a random target.
fn large_target(rng: &mut StdRng, p: &Puzzle, columns: &[Vec<u64>]) -> Vec<u64> {
    if rng.random_bool(0.5) {
        let x: Vec<BigUint> = columns.iter().map(|_| BigUint::from(rng.random::<u128>())).collect();
        reach(&p.moduli().to_vec(), columns, &p.start().to_vec(), &x)
    } else {
        p.moduli().iter().map(|&m| rng.random_range(0..m)).collect()
    }
}

/// One cell, `k` buttons: `Σ a_j x_j ≡ d (mod m)`. The map `Π Z/L_j → Z/m` has image `gZ/m`,
/// `g = gcd(m, a_1, …, a_k)`, so there are `Π L_j · g / m` plans when `g | d` and none
/// otherwise; `L_j = m / gcd(a_j, m)`. With `k = 1` that is exactly one plan or none.
#[test]
fn one_cell_large_moduli_match_the_gcd_formula() {
    let mut rng = StdRng::seed_from_u64(31);
    let (mut solvable, mut cases) = (0, 0);
    for &(m, factors) in LARGE {
        for trial in 0..40 {
            let buttons = if trial < 20 { 1 } else { rng.random_range(2..=4) };
            let list: Vec<Vec<(usize, i64)>> =
                (0..buttons).map(|_| vec![(0, large_weight(&mut rng, factors))]).collect();
            let start = vec![rng.random_range(0..m)];
            let mut p = explicit(vec![m], list, start.clone(), start);
            let columns = columns(&p);
            p = p.with_target(large_target(&mut rng, &p, &columns)).expect("below the moduli");
            let a: Vec<u64> = columns.iter().map(|c| c[0]).collect();
            let periods: Vec<BigUint> = a.iter().map(|&aj| BigUint::from(m / aj.gcd(&m))).collect();
            let g = a.iter().fold(m, |g, &aj| g.gcd(&aj));
            let d = difference(&p, 0);
            let kernel: BigUint = periods.iter().product::<BigUint>() * g / m;
            let count = if d.is_multiple_of(g) { kernel.clone() } else { BigUint::zero() };
            if buttons == 1 {
                assert!(count <= BigUint::one());
            }
            check_large(&p, &columns, &periods, &count, &kernel);
            solvable += !count.is_zero() as usize;
            cases += 1;
        }
    }
    assert!(solvable > cases / 3 && solvable < cases, "{solvable} of {cases} solvable");
}

/// `x ≡ r (mod L)` solving `a·x ≡ d (mod m)`, `L = m / gcd(a, m)`; `None` when `gcd ∤ d`.
fn solve_congruence(a: u64, d: u64, m: u64) -> Option<(BigInt, BigInt)> {
    let g = a.gcd(&m);
    if !d.is_multiple_of(g) {
        return None;
    }
    let l = BigInt::from(m / g);
    let e = BigInt::from(a / g).extended_gcd(&l);
    // e.gcd == 1: e.x is the inverse of a/g mod L.
    let r = (BigInt::from(d / g) * e.x).mod_floor(&l);
    Some((r, l))
}

/// One button on several cells with large (coprime or not) moduli: the button's period is
/// `L = lcm_i L_i` and `x ↦ (a_i·x mod m_i)_i` is injective on `Z/L`, so there is exactly one
/// plan or none. Each cell asks `x ≡ r_i (mod L_i)`; they have a common solution iff
/// `r_i ≡ r_k (mod gcd(L_i, L_k))` for every pair (generalised CRT).
#[test]
fn one_button_on_large_mixed_moduli_matches_generalised_crt() {
    let mut rng = StdRng::seed_from_u64(32);
    let (mut solvable, mut wide_periods, mut wide_plans) = (0, 0, 0);
    let cases = 400;
    for case in 0..cases {
        let cells = rng.random_range(2..=4usize);
        let picks: Vec<usize> = if case % 4 == 0 {
            // Two large coprime primes: the period is their product, beyond 2^64.
            vec![1, 2]
        } else {
            (0..cells).map(|_| rng.random_range(0..LARGE.len())).collect()
        };
        let moduli: Vec<u64> = picks.iter().map(|&k| LARGE[k].0).collect();
        let effect: Vec<(usize, i64)> = picks
            .iter()
            .enumerate()
            .map(|(i, &k)| (i, if rng.random_bool(0.5) { 1 } else { large_weight(&mut rng, LARGE[k].1) }))
            .collect();
        let start: Vec<u64> = moduli.iter().map(|&m| rng.random_range(0..m)).collect();
        let mut p = explicit(moduli.clone(), vec![effect], start.clone(), start);
        let columns = columns(&p);
        p = p.with_target(large_target(&mut rng, &p, &columns)).expect("below the moduli");
        let period = big_period(&columns[0], &moduli);
        let congruences: Option<Vec<(BigInt, BigInt)>> = (0..moduli.len())
            .map(|i| solve_congruence(columns[0][i], difference(&p, i), moduli[i]))
            .collect();
        let compatible = congruences.as_ref().is_some_and(|list| {
            list.iter().all(|(r1, l1)| list.iter().all(|(r2, l2)| (r1 - r2).mod_floor(&l1.gcd(l2)).is_zero()))
        });
        let count = if compatible { BigUint::one() } else { BigUint::zero() };
        check_large(&p, &columns, std::slice::from_ref(&period), &count, &BigUint::one());
        let answer = solve(&p).unwrap();
        if let (Some(x), Some(list)) = (&answer.presses, &congruences) {
            let x = BigInt::from(x[0].clone());
            for (r, l) in list {
                assert_eq!(&x.mod_floor(l), r, "plan against congruence mod {l}: {p:?}");
            }
            wide_plans += (x > BigInt::from(u64::MAX)) as usize;
        }
        solvable += compatible as usize;
        wide_periods += (period > BigUint::from(u64::MAX)) as usize;
    }
    assert!(solvable > cases / 3 && solvable < cases, "{solvable} of {cases} solvable");
    assert!(wide_periods > cases / 4, "{wide_periods} periods beyond 64 bits");
    assert!(wide_plans > 20, "{wide_plans} plans beyond 64 bits");
}

/// `a^e mod p` through `u128`.
fn pow_mod(mut a: u64, mut e: u64, p: u64) -> u64 {
    let mul = |x: u64, y: u64| ((x as u128 * y as u128) % p as u128) as u64;
    let mut r = 1 % p;
    while e > 0 {
        if e & 1 == 1 {
            r = mul(r, a);
        }
        a = mul(a, a);
        e >>= 1;
    }
    r
}

/// Rank over GF(p) by plain Gauss–Jordan elimination (inverses by Fermat).
fn gfp_rank(mut rows: Vec<Vec<u64>>, p: u64) -> usize {
    let small = p <= u32::MAX as u64;
    let mul = |x: u64, y: u64| if small { x * y % p } else { ((x as u128 * y as u128) % p as u128) as u64 };
    let width = rows.first().map_or(0, Vec::len);
    let mut rank = 0;
    for col in 0..width {
        let Some(pivot) = (rank..rows.len()).find(|&r| rows[r][col] != 0) else { continue };
        rows.swap(rank, pivot);
        let inv = pow_mod(rows[rank][col], p - 2, p);
        let pivot_row: Vec<u64> = rows[rank].iter().map(|&v| mul(v, inv)).collect();
        for (r, row) in rows.iter_mut().enumerate() {
            if r != rank && row[col] != 0 {
                let f = row[col];
                for (a, &b) in row.iter_mut().zip(&pivot_row) {
                    let t = mul(f, b);
                    *a = if *a >= t { *a - t } else { p - (t - *a) };
                }
            }
        }
        rows[rank] = pivot_row;
        rank += 1;
    }
    rank
}

/// Count and kernel size for squarefree moduli (`cell_primes[i]`: the primes of `m_i`), and how
/// many prime systems are rank-deficient. By CRT `Π_j Z/L_j ≅ Π_q (Z/q)^(z_q)`, `z_q` the
/// buttons that change some cell mod `q`; the cells divisible by `q` form a system over GF(q) in
/// those residues. So the kernel has `Π_q q^(z_q - r_q)` elements (`r_q` its rank) and the count
/// is that when every prime's system is consistent, else 0.
fn squarefree_truth(p: &Puzzle, columns: &[Vec<u64>], cell_primes: &[Vec<u64>]) -> (BigUint, BigUint, usize) {
    let cells = p.moduli().len();
    let primes: BTreeSet<u64> = cell_primes.iter().flatten().copied().collect();
    let (mut kernel, mut consistent, mut deficient) = (BigUint::one(), true, 0);
    for &q in &primes {
        let cells_q: Vec<usize> = (0..cells).filter(|&i| cell_primes[i].contains(&q)).collect();
        let active: Vec<usize> = (0..columns.len())
            .filter(|&j| cells_q.iter().any(|&i| !columns[j][i].is_multiple_of(q)))
            .collect();
        let rows: Vec<Vec<u64>> =
            cells_q.iter().map(|&i| active.iter().map(|&j| columns[j][i] % q).collect()).collect();
        let augmented: Vec<Vec<u64>> = cells_q
            .iter()
            .zip(&rows)
            .map(|(&i, row)| [row.clone(), vec![difference(p, i) % q]].concat())
            .collect();
        let rank = gfp_rank(rows, q);
        consistent &= gfp_rank(augmented, q) == rank;
        kernel *= BigUint::from(q).pow((active.len() - rank) as u32);
        deficient += (rank < active.len().min(cells_q.len())) as usize;
    }
    let count = if consistent { kernel.clone() } else { BigUint::zero() };
    (count, kernel, deficient)
}

/// Every cell's modulus a large prime (equal or distinct), counted by [`squarefree_truth`].
#[test]
fn large_prime_systems_match_ranks_over_gf_p() {
    let mut rng = StdRng::seed_from_u64(33);
    let (mut solvable, mut wide, mut deficient) = (0, 0, 0);
    let cases = 400;
    for _ in 0..cases {
        let cells = rng.random_range(1..=4usize);
        let buttons = rng.random_range(1..=4usize);
        let pool = rng.random_range(1..=3usize);
        let primes: Vec<u64> =
            (0..pool).map(|_| LARGE_PRIMES[rng.random_range(0..LARGE_PRIMES.len())]).collect();
        let moduli: Vec<u64> = (0..cells).map(|_| primes[rng.random_range(0..pool)]).collect();
        let small = rng.random_bool(0.5);
        let mut list: Vec<Vec<(usize, i64)>> = (0..buttons)
            .map(|_| {
                (0..cells)
                    .filter_map(|i| {
                        if !rng.random_bool(0.7) {
                            return None;
                        }
                        let w = if small {
                            rng.random_range(-3..=3)
                        } else {
                            large_weight(&mut rng, &[(moduli[i], 1)])
                        };
                        Some((i, w))
                    })
                    .collect()
            })
            .collect();
        if buttons >= 2 && rng.random_bool(0.3) {
            // A button that is twice another: rank deficiency by construction.
            let twice: Vec<(usize, i64)> = list[0].iter().map(|&(i, w)| (i, w.wrapping_mul(2))).collect();
            if list[0].iter().all(|&(_, w)| w.checked_mul(2).is_some()) {
                list[1] = twice;
            }
        }
        let start: Vec<u64> = moduli.iter().map(|&m| rng.random_range(0..m)).collect();
        let mut p = explicit(moduli.clone(), list, start.clone(), start);
        let columns = columns(&p);
        p = p.with_target(large_target(&mut rng, &p, &columns)).expect("below the moduli");

        let periods: Vec<BigUint> = columns.iter().map(|c| big_period(c, &moduli)).collect();
        let cell_primes: Vec<Vec<u64>> = moduli.iter().map(|&q| vec![q]).collect();
        let (count, kernel, short) = squarefree_truth(&p, &columns, &cell_primes);
        deficient += short;
        check_large(&p, &columns, &periods, &count, &kernel);
        solvable += !count.is_zero() as usize;
        wide += periods.iter().any(|l| l > &BigUint::from(u64::MAX)) as usize;
    }
    assert!(solvable > cases / 3 && solvable < cases, "{solvable} of {cases} solvable");
    assert!(wide > 30, "{wide} systems with a period beyond 64 bits");
    assert!(deficient > 30, "{deficient} rank-deficient prime systems");
}

/// The worked case of a period beyond 2^64: two coprime primes near 2^64, one button on both.
#[test]
fn period_beyond_64_bits_by_crt() {
    let puzzle = explicit(vec![P64, P64B], vec![vec![(0, 1), (1, 1)]], vec![0, 0], vec![5, 7]);
    let effects = columns(&puzzle);
    let l = BigUint::from(P64) * BigUint::from(P64B);
    check_large(&puzzle, &effects, std::slice::from_ref(&l), &BigUint::one(), &BigUint::one());
    let x = solve(&puzzle).unwrap().presses.unwrap();
    assert!(x[0].to_u64().is_none(), "the plan needs more than 64 bits");
    assert_eq!((&x[0] % P64).to_u64(), Some(5));
    assert_eq!((&x[0] % P64B).to_u64(), Some(7));
    // The same button asked for 5 and 7 mod the same prime: no plan.
    let bad = explicit(vec![P64, P64], vec![vec![(0, 1), (1, 1)]], vec![0, 0], vec![5, 7]);
    let effects = columns(&bad);
    check_large(&bad, &effects, &[BigUint::from(P64)], &BigUint::zero(), &BigUint::one());
}

// ---------------------------------------------------------------------------------------------
// 4. Property test.
// ---------------------------------------------------------------------------------------------

fn arbitrary_puzzle() -> impl Strategy<Value = Puzzle> {
    (1usize..=5, 1usize..=5, any::<bool>())
        .prop_flat_map(|(cells, buttons, equal)| {
            let moduli = if equal {
                (2u64..=12).prop_map(move |m| vec![m; cells]).boxed()
            } else {
                prop::collection::vec(2u64..=12, cells).boxed()
            };
            (moduli, Just(buttons))
        })
        .prop_flat_map(|(moduli, buttons)| {
            let cells = moduli.len();
            let values: Vec<std::ops::Range<u64>> = moduli.iter().map(|&m| 0..m).collect();
            let effects =
                prop::collection::vec(prop::collection::vec((0..cells, -15i64..=15), 0..=cells + 1), buttons);
            (Just(moduli), values.clone(), values, effects, -15i64..=15, -15i64..=15, 0usize..5)
        })
        .prop_map(|(moduli, start, target, effects, s, n, kind)| {
            let cells = moduli.len();
            let topology = match kind {
                0 => Topology::Path(cells),
                1 => Topology::Cycle(cells),
                2 => Topology::Grid { rows: 1, cols: cells, wrap: true, neighborhood: Neighborhood::King },
                _ => return explicit(moduli, effects, start, target),
            };
            puzzle(
                topology,
                moduli,
                Buttons::Graph { self_weight: s.into(), neighbor_weight: n.into() },
                start,
                target,
            )
        })
}

proptest! {
    #![proptest_config(Config {
        cases: 400,
        rng_seed: RngSeed::Fixed(0x7072_6f70),
        failure_persistence: None,
        ..Config::default()
    })]

    #[test]
    fn plans_reach_the_target_and_count_is_zero_iff_unsolvable(p in arbitrary_puzzle()) {
        let columns = columns(&p);
        for method in [Method::Auto, Method::Modular, Method::Sparse] {
            let answer = solve_with(&p, method);
            prop_assert!(answer.is_ok(), "{:?}: {:?}", method, answer);
            let answer = answer.unwrap();
            prop_assert_eq!(answer.count.is_zero(), answer.presses.is_none(), "{:?}", method);
            if let Some(x) = &answer.presses {
                prop_assert_eq!(x.len(), columns.len());
                prop_assert!(x.iter().zip(&answer.periods).all(|(v, l)| v < l), "{:?}: {:?}", method, x);
                prop_assert_eq!(reach(&p.moduli().to_vec(), &columns, &p.start().to_vec(), x), p.target().clone(), "{:?}", method);
            }
        }
    }
}
