//! Unit tests of the optimiser: the enumeration on every core against one, the descent and the
//! iterated local search, and the bounded walk over the quiet basis (with and without
//! symmetries) against the enumeration.

use num_traits::ToPrimitive;

use super::descent::Moves;
use super::enumeration::{enumerate, enumerate_on_every_core};
use super::*;
use crate::algebra::arith::{add_mod, mul_mod};
use crate::model::{Puzzle, Topology};
use crate::solve::search::Score;
use rand::{RngExt, SeedableRng, rngs::StdRng};

fn add_multiple(x: &[u64], g: &[u64], t: u64, periods: &[u64]) -> Vec<u64> {
    x.iter().zip(g).zip(periods).map(|((&a, &v), &l)| add_mod(a, mul_mod(v, t % l, l), l)).collect()
}

/// A random set `x0 + Σ t·g` of 2^16 to 2^20 plans (generators need not come from a
/// puzzle: the walks only visit `x0 + Σ t·g`), over `choices` of periods; returns the
/// periods, `x0`, the generators and the number of plans.
#[allow(clippy::type_complexity)]
fn random_set(
    rng: &mut StdRng,
    buttons: usize,
    choices: &[u64],
) -> (Vec<u64>, Vec<u64>, Vec<(Vec<u64>, u64)>, u64) {
    let periods: Vec<u64> = (0..buttons).map(|_| choices[rng.random_range(0..choices.len())]).collect();
    let x0: Vec<u64> = periods.iter().map(|&p| rng.random_range(0..p)).collect();
    let mut generators: Vec<(Vec<u64>, u64)> = Vec::new();
    let mut plans = 1u64;
    while plans < 1 << 16 {
        let g: Vec<u64> = periods.iter().map(|&p| rng.random_range(0..p)).collect();
        let order = (1..=12u64).find(|&t| g.iter().zip(&periods).all(|(&v, &p)| t * v % p == 0)).unwrap();
        if order > 1 && plans * order <= 1 << 20 {
            plans *= order;
            generators.push((g, order));
        }
    }
    (periods, x0, generators, plans)
}

/// A hash of a plan, for sets of every plan of a set.
fn fingerprint(x: &[u64]) -> u64 {
    use std::hash::{BuildHasher, BuildHasherDefault, DefaultHasher};
    BuildHasherDefault::<DefaultHasher>::default().hash_one(x)
}

/// The bounded walk of `problem` on one thread, checked: it finishes with the `expected`
/// score, its plan is within the limits and among the set's plans (`set`, by
/// [`fingerprint`]), and four threads find the same plan.
fn checked_walk(
    problem: Problem,
    incumbent: Option<Score>,
    symmetries: &[Vec<usize>],
    expected: Option<Score>,
    set: &std::collections::HashSet<u64>,
    what: &str,
) -> basis_walk::Walked {
    let unbounded = Budget { nodes: u64::MAX, time: None };
    let on = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        pool.install(|| basis_walk::walk(problem, incumbent, unbounded, symmetries)).expect("eligible")
    };
    let walked = on(1);
    assert!(walked.complete, "{what}");
    assert_eq!(walked.best.as_ref().map(|x| problem.objective.score(x)), expected, "{what}");
    if let Some(x) = &walked.best {
        assert!(within_limits(x, problem.limits), "{what}");
        assert!(set.contains(&fingerprint(x)), "{what}: not in the set");
    }
    assert_eq!(on(4).best, walked.best, "{what}");
    walked
}

/// Calls `visit` with every plan of the set, in mixed-radix order over the generators.
fn every_plan(x0: &[u64], generators: &[(Vec<u64>, u64)], periods: &[u64], mut visit: impl FnMut(&[u64])) {
    let mut digits = vec![0u64; generators.len()];
    let mut x = x0.to_vec();
    'plans: loop {
        visit(&x);
        for (k, (g, order)) in generators.iter().enumerate() {
            x = add_multiple(&x, g, 1, periods);
            digits[k] += 1;
            if digits[k] < *order {
                continue 'plans;
            }
            digits[k] = 0;
        }
        break;
    }
}

/// Random sets of 2^16 to 2^20 plans over mixed periods: the enumeration on every core
/// gives the same plan, count within the limits and nodes as one enumeration, for every
/// objective, with and without limits; with no time left both give up.
#[test]
fn enumeration_on_every_core_equals_one_enumeration() {
    let mut rng = StdRng::seed_from_u64(31);
    for round in 0..12 {
        let buttons = rng.random_range(3..9) + if round % 3 == 0 { 12 } else { 0 };
        // Every third round mod 2 alone, where many plans tie for best: the first of them
        // in mixed-radix order must be the one chosen.
        let choices: &[u64] = if round % 3 == 0 { &[2] } else { &[2, 3, 4, 6, 12] };
        let (periods, x0, generators, plans) = random_set(&mut rng, buttons, choices);
        let limits: Option<Vec<u64>> =
            (round % 2 == 1).then(|| periods.iter().map(|&p| rng.random_range(0..p)).collect());
        let set = |limits, objective| Problem {
            x0: &x0,
            generators: &generators,
            periods: &periods,
            limits,
            objective,
        };
        let unbounded = Budget { nodes: u64::MAX, time: None };
        for objective in [Objective::Total, Objective::Max, Objective::Buttons] {
            let mut meter = Meter::new(unbounded);
            let one = enumerate(set(limits.as_deref(), objective), &mut meter);
            let every = enumerate_on_every_core(set(limits.as_deref(), objective), unbounded);
            assert_eq!(every, Some((one, meter.nodes)), "round {round}, {objective:?}");
            assert_eq!(meter.nodes, plans, "round {round}");
        }
        let spent = Budget { nodes: u64::MAX, time: Some(std::time::Duration::ZERO) };
        assert_eq!(enumerate_on_every_core(set(None, Objective::Total), spent), None);
    }
}

/// On random mixed puzzles, for every objective with and without press limits: the descent
/// ends on a plan that solves the puzzle, keeps the limits, scores no worse than the start,
/// and no multiple of any one generator improves it; the iterated search from it does no
/// worse, and gives the same plan for the same node budget.
#[test]
fn descent_ends_on_a_local_optimum_no_worse_than_the_start() {
    let mut rng = StdRng::seed_from_u64(17);
    let (mut improved, mut kicked_better) = (0, 0);
    for round in 0..300 {
        let cells = rng.random_range(2..7);
        let moduli: Vec<u64> = (0..cells).map(|_| rng.random_range(2..=12)).collect();
        let buttons: Vec<Vec<(usize, i64)>> = (0..rng.random_range(2..9))
            .map(|_| {
                let mut button = Vec::new();
                for i in 0..cells {
                    if rng.random_bool(0.5) {
                        button.push((i, rng.random_range(1..12)));
                    }
                }
                button
            })
            .collect();
        let start: Vec<u64> = moduli.iter().map(|&m| rng.random_range(0..m)).collect();
        let puzzle = Puzzle::builder(Topology::Cells(cells))
            .moduli(moduli)
            .buttons(buttons)
            .start(start)
            .build()
            .expect("valid");
        let answer = crate::solve::solve(&puzzle).expect("solved");
        let Some(presses) = &answer.presses else { continue };
        let x0: Vec<u64> = presses.iter().map(|v| v.to_u64().expect("small")).collect();
        let periods: Vec<u64> = answer.periods.iter().map(|v| v.to_u64().expect("small")).collect();
        let generators: Vec<(Vec<u64>, u64)> = answer
            .quiet_basis
            .iter()
            .map(|g| {
                (
                    g.presses.iter().map(|v| v.to_u64().expect("small")).collect(),
                    g.order.to_u64().expect("small"),
                )
            })
            .collect();
        let limits: Option<Vec<u64>> =
            rng.random_bool(0.3).then(|| x0.iter().map(|&v| v + rng.random_range(0..3)).collect());
        for objective in [Objective::Total, Objective::Max, Objective::Buttons] {
            let mut meter = Meter::new(Budget { nodes: u64::MAX, time: None });
            let moves = Moves::new(&generators, &periods, limits.as_deref(), objective);
            let x = moves.descend(&x0, &mut meter);
            // The iterated search from there: no worse, solving, within the limits, and the
            // same plan for the same node budget.
            let kicked: Vec<Vec<u64>> = (0..2)
                .map(|_| {
                    let mut meter = Meter::new(Budget { nodes: 20_000, time: None });
                    moves.iterated_descent(x.clone(), &mut meter)
                })
                .collect();
            assert_eq!(kicked[0], kicked[1], "round {round}");
            let as_big: Vec<BigUint> = kicked[0].iter().map(|&v| BigUint::from(v)).collect();
            assert!(puzzle.solves(&as_big) && within_limits(&kicked[0], limits.as_deref()), "round {round}");
            assert!(objective.score(&kicked[0]) <= objective.score(&x), "round {round}");
            kicked_better += usize::from(objective.score(&kicked[0]) < objective.score(&x));
            let as_big: Vec<BigUint> = x.iter().map(|&v| BigUint::from(v)).collect();
            assert!(puzzle.solves(&as_big), "round {round}");
            assert!(within_limits(&x, limits.as_deref()), "round {round}");
            let score = objective.score(&x);
            assert!(score <= objective.score(&x0), "round {round}");
            improved += usize::from(score < objective.score(&x0));
            for (g, order) in &generators {
                for t in 1..*order {
                    let y = add_multiple(&x, g, t, &periods);
                    if within_limits(&y, limits.as_deref()) {
                        assert!(
                            objective.score(&y) >= score,
                            "round {round}: {objective:?} improves by {t} × {g:?}"
                        );
                    }
                }
            }
        }
    }
    assert!(improved > 100, "the descent improved only {improved} plans");
    assert!(kicked_better > 10, "the iterated search improved only {kicked_better} local optima");
}

/// The bounded walk over the quiet basis against the enumeration, on random sets of 2^16 to
/// 2^20 plans: mod 2, mod 3, 5 and 7, and mixed periods, every objective, with and without
/// press limits, from no incumbent and from the best score itself. The walk finishes, its
/// plan belongs to the set, keeps the limits and scores what the enumeration's best scores;
/// it is the same plan on one thread and on four; with no time left it does not finish.
#[test]
fn basis_walk_equals_enumeration() {
    let mut rng = StdRng::seed_from_u64(47);
    let (mut limited, mut infeasible) = (0, 0);
    for round in 0..40 {
        let choices: &[u64] = match round % 5 {
            0 => &[2],
            1 => &[3],
            2 => &[5],
            3 => &[7],
            _ => &[2, 3, 4, 6, 12],
        };
        let buttons = rng.random_range(4..40);
        let (periods, x0, generators, plans) = random_set(&mut rng, buttons, choices);
        // Limits that bind (some at 0), every other round.
        let limits: Option<Vec<u64>> = (round % 2 == 1)
            .then(|| periods.iter().map(|&p| rng.random_range(0..p).max(rng.random_range(0..p))).collect());
        // Every plan of the set, as a hash of its presses.
        let mut set = std::collections::HashSet::new();
        every_plan(&x0, &generators, &periods, |x| {
            set.insert(fingerprint(x));
        });
        let problem = |limits, objective| Problem {
            x0: &x0,
            generators: &generators,
            periods: &periods,
            limits,
            objective,
        };
        let unbounded = Budget { nodes: u64::MAX, time: None };
        for objective in [Objective::Total, Objective::Max, Objective::Buttons] {
            let mut meter = Meter::new(unbounded);
            let (best, _) = enumerate(problem(limits.as_deref(), objective), &mut meter);
            let expected = best.map(|x| objective.score(&x));
            limited += usize::from(limits.is_some());
            infeasible += usize::from(expected.is_none());
            for incumbent in [None, expected] {
                let what = format!("round {round}, {plans} plans, {objective:?}, incumbent {incumbent:?}");
                checked_walk(problem(limits.as_deref(), objective), incumbent, &[], expected, &set, &what);
            }
        }
        let spent = Budget { nodes: u64::MAX, time: Some(std::time::Duration::ZERO) };
        let cut = basis_walk::walk(problem(None, Objective::Total), None, spent, &[]).unwrap();
        assert!(!cut.complete, "round {round}");
    }
    assert!(limited > 0 && infeasible > 0 && infeasible < 60, "{limited} limited, {infeasible} infeasible");
}

/// A set that a square's symmetries may map onto itself, and what is asked of it: one round of
/// [`basis_walk_with_symmetries_equals_enumeration`].
struct SymmetricCase {
    side: usize,
    p: u64,
    x0: Vec<u64>,
    generators: Vec<(Vec<u64>, u64)>,
    periods: Vec<u64>,
    limits: Option<Vec<u64>>,
    /// The square's eight symmetries and a permutation that is no symmetry.
    candidates: Vec<Vec<usize>>,
    plans: u64,
}

/// The generators of a span of random vectors' orbits under `symmetries` (of a square of `n`
/// cells), mod `p`: each orbit kept when the span stays within 2^20 plans, its independent
/// vectors the generators.
fn orbit_span(rng: &mut StdRng, symmetries: &[Vec<usize>], n: usize, p: u64) -> Vec<(Vec<u64>, u64)> {
    let most = (20.0 / (p as f64).log2()).floor() as usize;
    let mut rows: Vec<(usize, Vec<u64>)> = Vec::new();
    let mut generators: Vec<(Vec<u64>, u64)> = Vec::new();
    for _ in 0..12 {
        // A random vector, or its sum over a subgroup (a reflection, the rotations, all
        // eight): orbits of 8, 4, 2 or 1 dimensions.
        let u: Vec<u64> =
            (0..n).map(|_| if rng.random_bool(0.5) { rng.random_range(0..p) } else { 0 }).collect();
        let subgroup: &[usize] =
            [&[0][..], &[0, 1], &[0, 3, 6, 7], &[0, 1, 2, 3, 4, 5, 6, 7]][rng.random_range(0..4)];
        let mut v = vec![0u64; n];
        for &s in subgroup {
            for (j, &to) in symmetries[s].iter().enumerate() {
                v[to] = (v[to] + u[j]) % p;
            }
        }
        let (mut trial_rows, mut trial) = (rows.clone(), generators.clone());
        for perm in symmetries {
            let mut image = vec![0u64; n];
            for (j, &to) in perm.iter().enumerate() {
                image[to] = v[j];
            }
            let mut r = image.clone();
            for (pivot, row) in &trial_rows {
                let f = r[*pivot];
                for (a, &b) in r.iter_mut().zip(row) {
                    *a = (*a + (p - f) * b) % p;
                }
            }
            if let Some(pivot) = r.iter().position(|&x| x != 0) {
                let inv = crate::algebra::arith::inv_mod(r[pivot], p).unwrap();
                r.iter_mut().for_each(|x| *x = *x * inv % p);
                trial_rows.push((pivot, r));
                trial.push((image, p));
            }
        }
        if trial.len() <= most {
            (rows, generators) = (trial_rows, trial);
        }
    }
    generators
}

/// Round `round`'s case: a square of side 3 to 5 mod 3, 5, 7 or 2, the span of orbits through a
/// symmetric plan (every eighth round from the fourth, a random one), and limits by the round
/// (none, symmetric, keeping one reflection, or breaking every symmetry).
fn symmetric_case(rng: &mut StdRng, round: usize) -> SymmetricCase {
    let p = [3u64, 5, 7, 2][round % 4];
    let side = rng.random_range(3..=5usize);
    let n = side * side;
    // The identity, the two mirrors, the half turn, the two diagonals and the quarter
    // turns, in that order.
    let square = format!("Puzzle(graph: Grid(rows: {side}, cols: {side}), modulus: 2)");
    let symmetries = crate::model::symmetries(&crate::parse_puzzle(&square).unwrap());
    assert_eq!(symmetries.len(), 8);
    let generators = orbit_span(rng, &symmetries, n, p);
    let plans = p.pow(generators.len() as u32);
    // A plan constant on the orbits of cells (a symmetric one), plus a combination of the
    // generators; every fourth round a random one.
    let orbit = |j: usize| symmetries.iter().map(|perm| perm[j]).min().unwrap();
    let values: Vec<u64> = (0..n).map(|_| rng.random_range(0..p)).collect();
    let symmetric_start = round % 8 != 3;
    let mut x0: Vec<u64> =
        (0..n).map(|j| if symmetric_start { values[orbit(j)] } else { values[j] }).collect();
    for (g, _) in &generators {
        x0 = add_multiple(&x0, g, rng.random_range(0..p), &vec![p; n]);
    }
    let periods = vec![p; n];
    // Limits: none, symmetric ones, ones that keep only one reflection (the others are
    // dropped), or ones that break every symmetry.
    let caps: Vec<u64> = (0..n).map(|_| rng.random_range(p / 2..p)).collect();
    let limits: Option<Vec<u64>> = match round % 4 {
        0 => None,
        1 => Some((0..n).map(|j| caps[orbit(j)]).collect()),
        2 => Some((0..n).map(|j| caps[j.min(symmetries[1][j])]).collect()),
        _ => Some(caps),
    };
    // A permutation that is no symmetry among the candidates.
    let mut candidates = symmetries.clone();
    let mut swap: Vec<usize> = (0..n).collect();
    swap.swap(0, n - 1);
    swap.swap(1, n / 2);
    candidates.push(swap);
    SymmetricCase { side, p, x0, generators, periods, limits, candidates, plans }
}

/// Checks one case's walk against the enumeration for every objective ([`checked_walk`]);
/// returns whether the walk keeps symmetries (splits into cosets) and for how many objectives
/// it skipped cosets.
fn check_symmetric_case(case: &SymmetricCase, round: usize) -> (bool, usize) {
    let SymmetricCase { side, p, plans, .. } = *case;
    let mut set = std::collections::HashSet::new();
    every_plan(&case.x0, &case.generators, &case.periods, |x| {
        set.insert(fingerprint(x));
    });
    let problem = |objective| Problem {
        x0: &case.x0,
        generators: &case.generators,
        periods: &case.periods,
        limits: case.limits.as_deref(),
        objective,
    };
    let split =
        basis_walk::prepare(problem(Objective::Total), &case.candidates).is_some_and(|w| w.symmetric());
    let unbounded = Budget { nodes: u64::MAX, time: None };
    let mut skipping = 0;
    for objective in [Objective::Total, Objective::Max, Objective::Buttons] {
        let mut meter = Meter::new(unbounded);
        let (best, _) = enumerate(problem(objective), &mut meter);
        let expected = best.map(|x| objective.score(&x));
        let what = format!("round {round}, {side}×{side} mod {p}, {plans} plans, {objective:?}");
        let walked = checked_walk(problem(objective), None, &case.candidates, expected, &set, &what);
        skipping += usize::from(walked.skipped > 0);
    }
    (split, skipping)
}

/// Sets that a square's symmetries map onto themselves (spans of random vectors' orbits
/// through a symmetric plan), mod 2, 3, 5 and 7, of up to 2^20 plans: the walk that skips
/// the cosets a symmetry maps to smaller ones equals the enumeration for every objective,
/// with symmetric limits, with limits or a plan that break the symmetry (the symmetries are
/// then not used) and with a permutation among them that is no symmetry; its plan is in the
/// set and the same on 1 and 4 threads.
#[test]
fn basis_walk_with_symmetries_equals_enumeration() {
    let mut rng = StdRng::seed_from_u64(59);
    let (mut split, mut skipping, mut partly) = (0, 0, 0);
    for round in 0..32 {
        let case = symmetric_case(&mut rng, round);
        let (symmetric, skipped) = check_symmetric_case(&case, round);
        split += usize::from(symmetric);
        skipping += skipped;
        partly += if round % 4 == 2 { skipped } else { 0 };
    }
    // Most rounds keep their symmetries (not those of a random start or broken limits) and
    // skip cosets, some with one reflection alone.
    assert!(split >= 12, "{split} of 32 rounds split");
    assert!(skipping >= 24 && partly >= 3, "{skipping} walks skipped cosets, {partly} with one reflection");
}
