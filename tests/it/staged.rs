//! Staged presses against a brute-force sequential simulation: every plan of full
//! presses, optionally followed by one press cut after k phases, is played phase by phase, and
//! the count and the fewest presses are compared with the solver's.

use modsolve::analysis::{Engine, Options, analysis_of};
use modsolve::model::Puzzle;
use modsolve::parse_puzzle;
use modsolve::solve::{Budget, Objective};
use num_bigint::BigUint;
use rand::{RngExt, SeedableRng, rngs::StdRng};

use crate::util::{Shape, odometer, random_puzzle};

/// `(count, fewest presses started)` by playing every plan phase by phase.
pub(crate) fn brute_force(p: &Puzzle) -> (u64, Option<u64>) {
    let n = p.button_count();
    let period = |j: usize| {
        let e = p.effects(j);
        (1u64..).find(|&l| e.iter().all(|&(i, a)| (l * a) % p.moduli()[i] == 0)).unwrap()
    };
    let periods: Vec<u64> = (0..n).map(period).collect();
    // Phase effects, looked up once; a cut press is played phase by phase.
    let phase_effects: Vec<Vec<Vec<(usize, u64)>>> =
        (0..n).map(|j| (0..p.phase_count(j)).map(|k| p.phase_effects(j, k)).collect()).collect();
    let press = |state: &mut Vec<u64>, j: usize, phases: usize, times: u64| {
        for phase in &phase_effects[j][..phases] {
            for &(i, a) in phase {
                state[i] = (state[i] + a * times) % p.moduli()[i];
            }
        }
    };
    let (mut count, mut fewest) = (0u64, None::<u64>);
    odometer(&periods, |z| {
        let mut state = p.start().to_vec();
        // Full presses commute: `times` presses of every phase at once.
        for (j, &times) in z.iter().enumerate() {
            press(&mut state, j, p.phase_count(j), times);
        }
        let full: u64 = z.iter().sum();
        let mut note = |presses: u64| {
            count += 1;
            fewest = Some(fewest.map_or(presses, |f| f.min(presses)));
        };
        if state == *p.target() {
            note(full);
        }
        for j in 0..n {
            for k in 1..p.phase_count(j) {
                let mut s = state.clone();
                press(&mut s, j, k, 1);
                if s == *p.target() {
                    note(full + 1);
                }
            }
        }
    });
    (count, fewest)
}

/// Small random staged puzzles: up to 3 cells and 3 buttons, 2 or 3 phases a press, few
/// enough plans to enumerate.
pub(crate) fn small_staged() -> Shape {
    Shape { cells: 1..=3, buttons: 1..=3, moduli: 2..=6, amounts: -3..=3, phases: 2..=3, ..Shape::default() }
}
#[test]
fn staged_plans_equal_sequential_brute_force() {
    let mut rng = StdRng::seed_from_u64(77);
    let options = Options::default().budget(Budget::of_nodes(10_000_000));
    let mut tested = 0;
    while tested < 1000 {
        let puzzle = random_puzzle(&mut rng, &small_staged());
        let size: u64 = puzzle.periods().iter().map(|l| u64::try_from(l).unwrap()).product();
        if size > 3000 {
            continue;
        }
        tested += 1;
        let (count, fewest) = brute_force(&puzzle);
        let analysis = analysis_of(&puzzle, &options).expect("verified");
        assert_eq!(analysis.count.value, BigUint::from(count), "{puzzle:?}");
        let plan = analysis.fewest.as_ref();
        assert_eq!(plan.map(|p| p.total()), fewest.map(BigUint::from), "{puzzle:?}");
        if let Some(plan) = plan {
            assert!(plan.is_proven());
            assert!(puzzle.plays_to_target(&plan.presses, plan.partial.map(|c| (c.button, c.phases))));
        }
    }
}

/// The game-rule octopus: fewer presses than under the plain rule (18), equal to brute force.
#[test]
fn game_rule_octopus() {
    let source =
        std::fs::read_to_string(format!("{}/puzzles/octopus-game.ron", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let puzzle = parse_puzzle(&source).unwrap();
    let (count, fewest) = brute_force(&puzzle);
    let analysis =
        analysis_of(&puzzle, &Options::default().engine(Engine::Auto).objective(Objective::Total)).unwrap();
    assert_eq!(analysis.count.value, BigUint::from(count));
    assert_eq!(analysis.fewest.unwrap().total(), BigUint::from(fewest.unwrap()));
    assert!(fewest.unwrap() < 18);
}

/// `press` written beside `phases` must agree with their sum.
#[test]
fn press_must_equal_the_sum_of_phases() {
    let bad = "Puzzle(graph: Path(2), modulus: 5, press: (self: 2, neighbors: 2), phases: [(self: 1, neighbors: 1), (self: 1, neighbors: 0)])";
    let error = parse_puzzle(bad).unwrap_err();
    assert_eq!(error.field(), Some("press"));
    assert!(error.to_string().contains("(self: 2, neighbors: 1)"), "{error}");
    let good = "Puzzle(graph: Path(2), modulus: 5, press: (self: 2, neighbors: 1), phases: [(self: 1, neighbors: 1), (self: 1, neighbors: 0)])";
    assert!(parse_puzzle(good).is_ok());
}

/// The wraparound regression: two phases of `2^63 - 1` add `2^64 - 2`, which is 0 mod 7 (since
/// `2^63 ≡ 1`), so the single cell can never move from 1 to 0. Summing the weights in 64 bits
/// wrapped to -2 and answered "4 presses".
#[test]
fn graph_phase_weights_sum_without_wraparound() {
    let source = "Puzzle(graph: Path(1), modulus: 7, phases: [(self: 9223372036854775807, neighbors: 0), \
                  (self: 9223372036854775807, neighbors: 0)], start: [1])";
    let puzzle = parse_puzzle(source).unwrap();
    assert!(puzzle.effects(0).is_empty(), "the press adds 0 mod 7: {:?}", puzzle.effects(0));
    let analysis = analysis_of(&puzzle, &Options::default()).unwrap();
    assert!(!analysis.is_solvable());
    assert_eq!(analysis.count.value, BigUint::from(0u32));
}

/// `phases` (the same weights for every cell of a graph) and `button_phases` (the same presses
/// spelled out button by button) are one puzzle: with extreme weights (`i64::MIN`, `i64::MAX`, …)
/// and moduli up to `2^64 - 1`, solve (every objective), the count, `check` and the first level
/// `generate` makes agree.
#[test]
fn graph_phases_equal_button_phases_at_extremes() {
    const WEIGHTS: [i64; 9] = [i64::MIN, i64::MIN + 1, -7, -1, 0, 1, 2, i64::MAX - 1, i64::MAX];
    const MODULI: [u64; 9] = [2, 3, 6, 7, 1 << 63, (1 << 32) + 15, u64::MAX - 58, u64::MAX - 1, u64::MAX];
    let mut rng = StdRng::seed_from_u64(12);
    let budget = Budget::of_nodes(200_000);
    let mut made = 0;
    for case in 0..300 {
        let cells = rng.random_range(1..=3usize);
        let graph = match rng.random_range(0..3) {
            0 => format!("Path({cells})"),
            1 => format!("Cycle({cells})"),
            _ => format!("Cells({cells})"),
        };
        let topology =
            parse_puzzle(&format!("Puzzle(graph: {graph}, modulus: 2)")).unwrap().topology().clone();
        let moduli: Vec<u64> = (0..cells).map(|_| MODULI[rng.random_range(0..MODULI.len())]).collect();
        let weight = |rng: &mut StdRng| {
            if rng.random_bool(0.7) { WEIGHTS[rng.random_range(0..WEIGHTS.len())] } else { rng.random() }
        };
        let phases: Vec<(i64, i64)> =
            (0..rng.random_range(1..=3)).map(|_| (weight(&mut rng), weight(&mut rng))).collect();
        let start: Vec<u64> = moduli.iter().map(|&m| rng.random_range(0..m)).collect();
        let target: Vec<u64> = moduli
            .iter()
            .zip(&start)
            .map(|(&m, &s)| if rng.random_bool(0.5) { s } else { rng.random_range(0..m) })
            .collect();
        let list = |v: &[u64]| format!("{v:?}");
        let common =
            format!("modulus: {}, start: {}, target: {}", list(&moduli), list(&start), list(&target));
        let graph_form = format!(
            "Puzzle(graph: {graph}, {common}, phases: [{}])",
            phases.iter().map(|(s, n)| format!("(self: {s}, neighbors: {n})")).collect::<Vec<_>>().join(", ")
        );
        let buttons: Vec<String> = (0..cells)
            .map(|j| {
                let per_phase: Vec<String> = phases
                    .iter()
                    .map(|&(s, n)| {
                        let mut pairs = vec![format!("({j}, {s})")];
                        topology.for_each_neighbor(j, |i| pairs.push(format!("({i}, {n})")));
                        format!("[{}]", pairs.join(", "))
                    })
                    .collect();
                format!("[{}]", per_phase.join(", "))
            })
            .collect();
        let button_form =
            format!("Puzzle(graph: {graph}, {common}, button_phases: [{}])", buttons.join(", "));
        let a = parse_puzzle(&graph_form).unwrap_or_else(|e| panic!("{graph_form}: {e}"));
        let b = parse_puzzle(&button_form).unwrap_or_else(|e| panic!("{button_form}: {e}"));
        let what = format!("case {case}: {graph_form}");
        for j in 0..cells {
            assert_eq!(a.effects(j), b.effects(j), "{what}: button {j}");
        }
        for objective in [Objective::Total, Objective::Max, Objective::Buttons] {
            let options = Options::default().objective(objective).budget(budget);
            let (x, y) = (analysis_of(&a, &options).unwrap(), analysis_of(&b, &options).unwrap());
            assert_eq!(x.count, y.count, "{what}");
            assert_eq!(x.quiet_patterns, y.quiet_patterns, "{what}");
            let score = |p: Option<&modsolve::solve::Plan>| p.map(|p| (p.total(), p.proof));
            assert_eq!(score(x.fewest.as_ref()), score(y.fewest.as_ref()), "{what}");
            assert_eq!(score(x.shown()), score(y.shown()), "{what}");
            for (puzzle, plan) in [(&a, x.shown()), (&b, y.shown())] {
                if let Some(plan) = plan {
                    let cut = plan.partial.map(|c| (c.button, c.phases));
                    assert!(puzzle.plays_to_target(&plan.presses, cut), "{what}");
                }
            }
        }
        let (x, y) =
            (modsolve::check::check(&a, budget).unwrap(), modsolve::check::check(&b, budget).unwrap());
        assert_eq!(x.par(), y.par(), "{what}");
        assert_eq!(x.solvable_starts, y.solvable_starts, "{what}");
        assert_eq!(
            x.macros.iter().flatten().map(Option::is_some).collect::<Vec<_>>(),
            y.macros.iter().flatten().map(Option::is_some).collect::<Vec<_>>(),
            "{what}"
        );
        // Player strategies may differ: a graph button belongs to its cell, an explicit one does not.
        let codes = |r: &modsolve::check::CheckReport| {
            r.findings
                .iter()
                .map(|f| f.code)
                .filter(|&c| c != modsolve::check::FindingCode::NoSimpleStrategy)
                .collect::<Vec<_>>()
        };
        assert_eq!(codes(&x), codes(&y), "{what}");
        if case % 10 == 0 {
            let level = first_level(&a, case);
            made += usize::from(level.is_ok());
            assert_eq!(level, first_level(&b, case), "{what}");
        }
    }
    assert!(made >= 10, "levels were made from {made} of 30 templates");
}

/// The first level `generate` makes from a template (its start, par and count), or why none.
fn first_level(template: &Puzzle, seed: u64) -> Result<(Vec<u64>, u64, BigUint), String> {
    use modsolve::generate::{Spec, generate, impossible};
    let spec = Spec::new(1).seed(seed).attempts(50).nodes_per_level(100_000);
    if let Some(reason) = impossible(template, &spec).map_err(|e| e.to_string())? {
        return Err(reason.to_string());
    }
    let mut level = None;
    generate::<modsolve::InternalError>(template, &spec, &|_| {}, |l| {
        level = Some((l.puzzle.start().to_vec(), l.par, l.count));
        Ok(())
    })
    .map_err(|e| e.to_string())?;
    level.ok_or_else(|| "no level".into())
}
