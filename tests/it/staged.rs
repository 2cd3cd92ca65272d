//! Staged presses (DESIGN.md §7) against a brute-force sequential simulation: every plan of full
//! presses, optionally followed by one press cut after k phases, is played phase by phase, and
//! the count and the fewest presses are compared with the solver's.

use modsolve::analysis::{Engine, Options, analyze};
use modsolve::model::{Buttons, Phases, Puzzle, Topology};
use modsolve::parse_puzzle;
use modsolve::solve::search::{Budget, Objective};
use num_bigint::BigUint;
use rand::{RngExt, SeedableRng, rngs::StdRng};

fn random_staged(rng: &mut StdRng) -> Puzzle {
    let cells = rng.random_range(1..=3usize);
    let buttons = rng.random_range(1..=3usize);
    let moduli: Vec<u64> = (0..cells).map(|_| rng.random_range(2..=6)).collect();
    let phase_count = rng.random_range(2..=3usize);
    let mut phases: Vec<Vec<Vec<(usize, i64)>>> = Vec::new();
    for _ in 0..buttons {
        let mut button = Vec::new();
        for _ in 0..phase_count {
            let mut phase = Vec::new();
            for i in 0..cells {
                if rng.random_bool(0.6) {
                    phase.push((i, rng.random_range(-3..=3i64)));
                }
            }
            button.push(phase);
        }
        phases.push(button);
    }
    let sums = phases.iter().map(|p| p.iter().flatten().copied().collect()).collect();
    Puzzle {
        name: None,
        topology: Topology::Cells(cells),
        start: moduli.iter().map(|&m| rng.random_range(0..m)).collect(),
        target: moduli.iter().map(|&m| rng.random_range(0..m)).collect(),
        moduli: moduli.into(),
        buttons: Buttons::Explicit(sums),
        labels: None,
        max_presses: None,
        intended: None,
        phases: Some(Phases::Explicit(phases)),
    }
}

/// `(count, fewest presses started)` by playing every plan phase by phase.
fn brute_force(p: &Puzzle) -> (u64, Option<u64>) {
    let n = p.button_count();
    let period = |j: usize| {
        let e = p.effects(j);
        (1u64..).find(|&l| e.iter().all(|&(i, a)| (l * a) % p.moduli[i] == 0)).unwrap()
    };
    let periods: Vec<u64> = (0..n).map(period).collect();
    // Phase effects, looked up once; a cut press is played phase by phase.
    let phase_effects: Vec<Vec<Vec<(usize, u64)>>> =
        (0..n).map(|j| (0..p.phase_count(j)).map(|k| p.phase_effects(j, k)).collect()).collect();
    let press = |state: &mut Vec<u64>, j: usize, phases: usize, times: u64| {
        for phase in &phase_effects[j][..phases] {
            for &(i, a) in phase {
                state[i] = (state[i] + a * times) % p.moduli[i];
            }
        }
    };
    let (mut count, mut fewest) = (0u64, None::<u64>);
    let mut z = vec![0u64; n];
    loop {
        let mut state = p.start.to_vec();
        // Full presses commute: `times` presses of every phase at once.
        for (j, &times) in z.iter().enumerate() {
            press(&mut state, j, p.phase_count(j), times);
        }
        let full: u64 = z.iter().sum();
        let mut note = |presses: u64| {
            count += 1;
            fewest = Some(fewest.map_or(presses, |f| f.min(presses)));
        };
        if state == p.target {
            note(full);
        }
        for j in 0..n {
            for k in 1..p.phase_count(j) {
                let mut s = state.clone();
                press(&mut s, j, k, 1);
                if s == p.target {
                    note(full + 1);
                }
            }
        }
        let mut j = 0;
        loop {
            if j == n {
                return (count, fewest);
            }
            z[j] += 1;
            if z[j] < periods[j] {
                break;
            }
            z[j] = 0;
            j += 1;
        }
    }
}

#[test]
fn staged_plans_equal_sequential_brute_force() {
    let mut rng = StdRng::seed_from_u64(77);
    let options = Options { budget: Budget { nodes: 10_000_000, time: None }, ..Options::default() };
    let mut tested = 0;
    while tested < 1000 {
        let puzzle = random_staged(&mut rng);
        let size: u64 = puzzle.periods().iter().map(|l| u64::try_from(l).unwrap()).product();
        if size > 3000 {
            continue;
        }
        tested += 1;
        let (count, fewest) = brute_force(&puzzle);
        let analysis = analyze(&puzzle, &options).expect("verified");
        assert_eq!(analysis.count.value, BigUint::from(count), "{puzzle:?}");
        let plan = analysis.fewest.as_ref();
        assert_eq!(plan.map(|p| p.total()), fewest.map(BigUint::from), "{puzzle:?}");
        if let Some(plan) = plan {
            assert!(plan.proven);
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
    let analysis = analyze(
        &puzzle,
        &Options { engine: Engine::Auto, objective: Objective::Total, ..Options::default() },
    )
    .unwrap();
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
