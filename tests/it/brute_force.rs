//! The algebra against exhaustive enumeration: on random small puzzles (moduli 2..12, equal
//! and mixed, weights from -15 to 15 including 0, 1-6 cells and buttons, explicit and graph
//! buttons) the periods, solvability, exact count and quiet patterns equal enumeration of
//! every press vector in `Π [0, L_j)`, and every plan simulates to the target — by the forced
//! general path and by the default dispatch. The GF(2) fast path is compared with the general
//! path at word edges, and large moduli (periods beyond 64 bits) are checked by formula.

use modsolve::model::{Buttons, Puzzle, Topology};
use modsolve::solve::{Method, solve_with};
use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::{One, ToPrimitive, Zero};
use rand::{RngExt, SeedableRng, rngs::StdRng};

fn explicit(moduli: Vec<u64>, buttons: Vec<Vec<(usize, i64)>>, start: Vec<u64>, target: Vec<u64>) -> Puzzle {
    Puzzle {
        name: None,
        topology: Topology::Cells(moduli.len()),
        moduli,
        buttons: Buttons::Explicit(buttons),
        start,
        target,
        labels: None,
        max_presses: None,
        intended: None,
        phases: None,
    }
}

fn random_puzzle(rng: &mut StdRng) -> Puzzle {
    let cells = rng.random_range(1..=6usize);
    let equal = rng.random_bool(0.4);
    let m0 = rng.random_range(2..=12u64);
    let moduli: Vec<u64> = (0..cells).map(|_| if equal { m0 } else { rng.random_range(2..=12) }).collect();
    let start: Vec<u64> = moduli.iter().map(|&m| rng.random_range(0..m)).collect();
    let target: Vec<u64> = moduli.iter().map(|&m| rng.random_range(0..m)).collect();
    if rng.random_bool(0.25) {
        // A graph puzzle: buttons are the cells.
        let topology = match rng.random_range(0..4) {
            0 => Topology::Path(cells),
            1 => Topology::Cycle(cells),
            2 if cells % 2 == 0 => Topology::Grid {
                rows: 2,
                cols: cells / 2,
                wrap: rng.random_bool(0.3),
                neighborhood: modsolve::model::Neighborhood::Cross,
            },
            _ => Topology::Cells(cells),
        };
        let (s, n) = (rng.random_range(-15..=15i64), rng.random_range(-15..=15i64));
        return Puzzle {
            topology,
            buttons: Buttons::Graph { self_weight: s, neighbor_weight: n },
            ..explicit(moduli, Vec::new(), start, target)
        };
    }
    let buttons = rng.random_range(1..=6usize);
    let mut list = Vec::new();
    for _ in 0..buttons {
        let mut effect = Vec::new();
        for i in 0..cells {
            if rng.random_bool(0.5) {
                effect.push((i, rng.random_range(-15..=15i64)));
            }
        }
        list.push(effect);
    }
    explicit(moduli, list, start, target)
}

/// Periods by plain search and the whole press space enumerated: (periods, count, kernel).
fn enumerate(p: &Puzzle) -> Option<(Vec<u64>, u64, u64)> {
    let n = p.button_count();
    let effects: Vec<Vec<(usize, u64)>> = (0..n)
        .map(|j| {
            let mut amounts = vec![0u64; p.cell_count()];
            let mut push = |cell: usize, a: i64| {
                let m = p.moduli[cell] as i64;
                amounts[cell] = ((amounts[cell] as i64 + a.rem_euclid(m)) % m) as u64;
            };
            match &p.buttons {
                Buttons::Explicit(list) => list[j].iter().for_each(|&(c, a)| push(c, a)),
                Buttons::Graph { self_weight, neighbor_weight } => {
                    push(j, *self_weight);
                    p.topology.for_each_neighbor(j, |i| push(i, *neighbor_weight));
                }
            }
            amounts.iter().enumerate().filter(|(_, a)| **a != 0).map(|(i, &a)| (i, a)).collect()
        })
        .collect();
    let periods: Vec<u64> = effects
        .iter()
        .map(|e| (1u64..).find(|&l| e.iter().all(|&(i, a)| (l * a) % p.moduli[i] == 0)).unwrap())
        .collect();
    let space: u64 = periods.iter().product();
    if space > 300_000 {
        return None;
    }
    let (mut count, mut kernel) = (0u64, 0u64);
    let mut x = vec![0u64; n];
    loop {
        let mut change = vec![0u64; p.cell_count()];
        for (j, e) in effects.iter().enumerate() {
            for &(i, a) in e {
                change[i] = (change[i] + a * x[j]) % p.moduli[i];
            }
        }
        kernel += change.iter().all(|&c| c == 0) as u64;
        count += (0..p.cell_count()).all(|i| (p.start[i] + change[i]) % p.moduli[i] == p.target[i]) as u64;
        let mut j = 0;
        loop {
            if j == n {
                return Some((periods, count, kernel));
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

#[test]
fn counts_and_plans_equal_exhaustive_enumeration() {
    let mut rng = StdRng::seed_from_u64(20261123);
    let mut tested = 0;
    let mut solvable = 0;
    while tested < 1500 {
        let puzzle = random_puzzle(&mut rng);
        let Some((periods, count, kernel)) = enumerate(&puzzle) else { continue };
        tested += 1;
        solvable += (count > 0) as usize;
        for method in [Method::Auto, Method::Modular] {
            let answer = solve_with(&puzzle, method).expect("verified");
            let what = format!("{method:?} on {puzzle:?}");
            assert_eq!(
                answer.periods,
                periods.iter().map(|&l| BigUint::from(l)).collect::<Vec<_>>(),
                "{what}"
            );
            assert_eq!(answer.count, BigUint::from(count), "{what}");
            assert_eq!(answer.kernel_size, BigUint::from(kernel), "{what}");
            assert_eq!(answer.is_solvable(), count > 0, "{what}");
            if let Some(x) = &answer.presses {
                assert!(x.iter().zip(&periods).all(|(v, &l)| v < &BigUint::from(l)), "{what}");
                assert!(puzzle.solves(x), "{what}");
            }
        }
    }
    // The corpus must exercise both outcomes.
    assert!(solvable > 300 && solvable < 1400, "{solvable} solvable of 1500");
}

/// Bit-packed GF(2) against the general path at word edges, sparse and dense.
#[test]
fn gf2_fast_path_agrees_with_general_path_at_word_edges() {
    let mut rng = StdRng::seed_from_u64(64);
    for &n in &[1usize, 2, 63, 64, 65, 127, 128, 129] {
        for density in [0.03, 0.5] {
            for square in [true, false] {
                let buttons = if square { n } else { n + 3 };
                let list: Vec<Vec<(usize, i64)>> = (0..buttons)
                    .map(|_| (0..n).filter(|_| rng.random_bool(density)).map(|i| (i, 1)).collect())
                    .collect();
                let start = (0..n).map(|_| rng.random_range(0..2)).collect();
                let puzzle = explicit(vec![2; n], list, start, vec![0; n]);
                let fast = solve_with(&puzzle, Method::Gf2).unwrap();
                let general = solve_with(&puzzle, Method::Modular).unwrap();
                assert_eq!(fast.method, Method::Gf2);
                assert_eq!(fast.count, general.count, "n={n}");
                assert_eq!(fast.kernel_size, general.kernel_size, "n={n}");
                assert_eq!(fast.periods, general.periods, "n={n}");
                for x in [&fast.presses, &general.presses].into_iter().flatten() {
                    assert!(puzzle.solves(x), "n={n}");
                }
            }
        }
    }
}

/// One cell, one button: `a·x ≡ d (mod m)` has a solution iff `gcd(a, m) | d`, and then exactly
/// one in `Z/L` with `L = m / gcd(a, m)`. Moduli near 2^64, prime powers, products of large
/// primes.
#[test]
fn single_equations_with_large_moduli() {
    let moduli: [u64; 7] = [
        u64::MAX,
        18446744073709551557, // the largest 64-bit prime
        1 << 62,
        3u64.pow(39),
        4294967291 * 4294967279,
        1_000_000_007 * 998_244_353,
        (1 << 61) - 1,
    ];
    let mut rng = StdRng::seed_from_u64(3);
    for &m in &moduli {
        for _ in 0..20 {
            let a = rng.random_range(1..i64::MAX);
            let d = rng.random_range(0..m);
            let puzzle = explicit(vec![m], vec![vec![(0, a)]], vec![0], vec![d]);
            let answer = solve_with(&puzzle, Method::Auto).unwrap();
            let g = (a as u64).gcd(&m);
            assert_eq!(answer.periods, vec![BigUint::from(m / g)]);
            let expected = if d % g == 0 { 1u32 } else { 0 };
            assert_eq!(answer.count, BigUint::from(expected), "a={a} d={d} m={m}");
            if let Some(x) = &answer.presses {
                let reached = (BigUint::from(a as u64) * &x[0]) % m;
                assert_eq!(reached.to_u64(), Some(d));
            }
        }
    }
}

/// Large coprime moduli: a button's period exceeds 64 bits and the plan is a big integer.
#[test]
fn periods_beyond_64_bits() {
    let p = 18446744073709551557u64;
    let q = 18446744073709551533u64; // below the prime p, so coprime to it
    let puzzle = explicit(vec![p, q], vec![vec![(0, 1), (1, 1)]], vec![0, 0], vec![5, 7]);
    let answer = solve_with(&puzzle, Method::Auto).unwrap();
    let l = BigUint::from(p) * BigUint::from(q);
    assert_eq!(answer.periods, vec![l.clone()]);
    assert_eq!(answer.count, BigUint::one());
    let x = &answer.presses.as_ref().unwrap()[0];
    assert!(x.to_u64().is_none(), "the plan needs more than 64 bits");
    assert_eq!((x % p).to_u64(), Some(5));
    assert_eq!((x % q).to_u64(), Some(7));
    assert!(puzzle.solves(answer.presses.as_ref().unwrap()));
    // An unsolvable variant: the same button must give 5 and 7 in two cells mod p.
    let bad = explicit(vec![p, p], vec![vec![(0, 1), (1, 1)]], vec![0, 0], vec![5, 7]);
    assert!(solve_with(&bad, Method::Auto).unwrap().count.is_zero());
}
