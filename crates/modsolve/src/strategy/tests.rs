//! Unit tests of the strategies: the octopus under its staged rule, sweep, greedy and chase,
//! replays and the deadline.

use super::*;
use crate::algebra::arith::{mul_mod, sub_mod};
use crate::parse_puzzle;
use num_traits::Zero;
use std::collections::HashSet;

const OCTOPUS: &str = "Puzzle(graph: Path(4), modulus: [7, 8, 7, 6], press: (self: 2, neighbors: 1), \
                       start: [2, 4, 5, 3], target: All(0))";
const OCTOPUS_GAME: &str = "Puzzle(graph: Path(4), modulus: [7, 8, 7, 6], \
                            phases: [(self: 1, neighbors: 1), (self: 1, neighbors: 0)], \
                            start: [2, 4, 5, 3], target: All(0))";

fn load(ron: &str) -> Puzzle {
    parse_puzzle(ron).unwrap_or_else(|e| panic!("{ron}: {e:?}"))
}

/// `presses` matches the sequence and replaying it gives the same verdict, the win (if any)
/// on the last press.
fn assert_consistent(puzzle: &Puzzle, outcome: &StrategyOutcome) {
    assert_eq!(outcome.presses, outcome.sequence.len() as u64, "{outcome:?}");
    let replayed = replay(puzzle, &outcome.sequence);
    if outcome.solves {
        assert_eq!(replayed, Some(outcome.sequence.len()), "{outcome:?}");
    } else {
        assert_eq!(replayed, None, "{outcome:?}");
    }
}

/// The octopus, tentacle by tentacle. Plain rule: tentacle 1 twice (2 → 4 → 6: one more
/// would pass 7), tentacle 2 once (4 + 2 → 6 + 2 = 8 = full, tentacle 1 → 7 = full; one more
/// would pass both), tentacle 3 never (5 + 1 → 6: one short, a press adds 2), then the last tentacle needs d ≡ 1 (mod 7) and 3 + 2d ≡ 0 (mod 6), i.e.
/// 2d ≡ 3 (mod 6): impossible, and the state repeats after lcm(7, 3) = 21 presses.
#[test]
fn sweep_fails_on_the_plain_octopus() {
    let octopus = load(OCTOPUS);
    let outcome = sweep(&octopus);
    assert!(!outcome.solves, "{outcome:?}");
    let mut expected = vec![0, 0, 1];
    expected.extend([3; 21]);
    assert_eq!(outcome.sequence, expected);
    assert_eq!(outcome.presses, 24);
    assert_consistent(&octopus, &outcome);
    // The state the seed reasons from after the first three tentacles.
    let mut state = octopus.start.to_vec();
    for &j in &expected[..3] {
        assert!(!press(&octopus, &mut state, j));
    }
    assert_eq!(state, [0, 0, 6, 3]);
    // The puzzle itself is solvable (the seed's x = [9, 8, 3, 9]): the strategy is at fault.
    let x: Vec<BigUint> = [9u32, 8, 3, 9].iter().map(|&v| BigUint::from(v)).collect();
    assert!(octopus.solves(&x));
}

/// Under the game's rule the same decisions lead to the last tentacle, which now needs
/// 6 + d ≡ 0 (mod 7) and 3 + 2d − 1 ≡ 0 (mod 6) (the last press stops after its first
/// phase): d = 8, as the seed finds.
#[test]
fn sweep_wins_on_the_game_octopus() {
    let octopus = load(OCTOPUS_GAME);
    let outcome = sweep(&octopus);
    assert!(outcome.solves, "{outcome:?}");
    let mut expected = vec![0, 0, 1];
    expected.extend([3; 8]);
    assert_eq!(outcome.sequence, expected);
    assert_eq!(outcome.presses, 2 + 1 + 8);
    assert_consistent(&octopus, &outcome);
    // The last press is cut: after 7 full presses and one phase the board is full.
    let mut state = octopus.start.to_vec();
    for &j in &expected[..10] {
        assert!(!press(&octopus, &mut state, j));
    }
    assert_eq!(state, [0, 0, 6, 5]);
    assert!(press(&octopus, &mut state, 3));
    assert_eq!(state, [0, 0, 0, 0]);
    // The file's own phases give the same rule and the same play.
    let game = load(OCTOPUS_GAME);
    assert_eq!(sweep(&game), outcome);
}

/// Lights Out with a start made by pressing `presses` (cells of rows 1.. only) from all on.
fn lights_out(rows: usize, cols: usize, presses: &[usize]) -> Puzzle {
    let blank = load(&format!("Puzzle(graph: Grid(rows: {rows}, cols: {cols}), modulus: 2, target: All(1))"));
    let mut x = vec![BigUint::zero(); rows * cols];
    for &j in presses {
        x[j] = BigUint::from(1u32);
    }
    let start = blank.apply(&blank.target.to_vec(), &x);
    let start: Vec<String> = start.iter().map(u64::to_string).collect();
    load(&format!(
        "Puzzle(graph: Grid(rows: {rows}, cols: {cols}), modulus: 2, start: [{}], target: All(1))",
        start.join(", ")
    ))
}

#[test]
fn chase_solves_starts_that_need_no_first_row_presses() {
    let mut rng = Rng(7);
    for (rows, cols) in [(3, 3), (5, 5)] {
        for _ in 0..20 {
            let presses: Vec<usize> = (cols..rows * cols).filter(|_| rng.below(2) == 1).collect();
            let puzzle = lights_out(rows, cols, &presses);
            let outcome = chase(&puzzle).expect("a grid");
            assert!(outcome.solves, "{rows}x{cols} {presses:?}: {outcome:?}");
            assert_consistent(&puzzle, &outcome);
            // Chasing finds exactly the presses that made the start (mod 2, in some order).
            let mut found = outcome.sequence.clone();
            found.sort_unstable();
            assert_eq!(found, presses);
        }
    }
    // The 3×3 example with presses in the middle row only: "+" shapes.
    let plus = lights_out(3, 3, &[4]);
    assert_eq!(chase(&plus).unwrap().sequence, [4]);
}

#[test]
fn chase_fails_when_the_first_row_needs_presses() {
    let puzzle = load("Puzzle(graph: Grid(rows: 5, cols: 5), modulus: 2, start: All(0), target: All(1))");
    let outcome = chase(&puzzle).unwrap();
    assert!(!outcome.solves, "{outcome:?}");
    assert_consistent(&puzzle, &outcome);
    // A press in the first row alone also defeats it.
    let top = lights_out(5, 5, &[2]);
    assert!(!chase(&top).unwrap().solves);
    // Not a grid, or buttons that are not cells: no chasing.
    assert!(chase(&load(OCTOPUS)).is_none());
    let levers = "Puzzle(graph: Grid(rows: 1, cols: 2), modulus: 3, buttons: [[(0, 1)], [(1, 1)]])";
    assert!(chase(&load(levers)).is_none());
}

#[test]
fn greedy_takes_the_obvious_presses() {
    // Each cell needs one press of its own button.
    let puzzle = load("Puzzle(graph: Cells(2), modulus: 3, buttons: [[(0, 1)], [(1, 1)]], start: [2, 2])");
    let outcome = greedy(&puzzle, 10);
    assert_eq!(
        outcome,
        StrategyOutcome {
            strategy: Strategy::Greedy,
            solves: true,
            presses: 2,
            sequence: vec![0, 1],
            finished: true
        }
    );
    // With a cap of 1 it stops short.
    let capped = greedy(&puzzle, 1);
    assert_eq!((capped.solves, capped.presses, capped.sequence), (false, 1, vec![0]));
    // Myopia: cell 1 needs two presses, and the first does not bring it to its target.
    let far = load("Puzzle(graph: Cells(2), modulus: 3, buttons: [[(0, 1)], [(1, 1)]], start: [2, 1])");
    let outcome = greedy(&far, 10);
    assert_eq!((outcome.solves, outcome.sequence), (false, vec![0]));
    // Lights Out 1×3 all off → all on: pressing the middle wins at once.
    let row = load("Puzzle(graph: Grid(rows: 1, cols: 3), modulus: 2, target: All(1))");
    assert_eq!(greedy(&row, 10).sequence, [1]);
    // Nothing helps: one press of the only button moves the only cell away.
    let stuck = load("Puzzle(graph: Cells(1), modulus: 3, buttons: [[(0, 1)]], start: [2], target: [1])");
    let outcome = greedy(&stuck, 10);
    assert!(!outcome.solves);
    assert_eq!(outcome.presses, 0);
}

#[test]
fn a_solved_start_takes_no_presses() {
    let puzzle = load("Puzzle(graph: Grid(rows: 2, cols: 2), modulus: 3)");
    for outcome in all(&puzzle) {
        assert!(outcome.solves && outcome.presses == 0, "{outcome:?}");
    }
}

/// Huge moduli: runs of presses are computed in closed form, never one by one.
#[test]
fn big_moduli_finish() {
    let puzzle = load("Puzzle(graph: Path(2), modulus: 1000000007, start: [5, 0], target: All(0))");
    let outcome = sweep(&puzzle);
    // Button 0 until cell 0 is full (1000000002 presses), then button 1 a whole period.
    assert!(!outcome.solves);
    assert_eq!(outcome.presses, 1_000_000_002 + 1_000_000_007);
    assert_eq!(outcome.sequence.len(), SEQUENCE_CAP);
    let solvable = load("Puzzle(graph: Path(2), modulus: 1000000007, start: [3, 1], target: All(0))");
    let outcome = sweep(&solvable);
    // Button 0: 1000000004 presses make cell 0 full and cell 1 = 1000000005; button 1 then
    // needs y ≡ 0 (cell 0) and y ≡ 2 (cell 1): never. The strategy fails though a plan exists.
    assert!(!outcome.solves);
    let grid = load("Puzzle(graph: Grid(rows: 2, cols: 2), modulus: 4294967311, start: [7, 0, 0, 0])");
    let outcome = chase(&grid).unwrap();
    assert_eq!(outcome.presses, 4294967311 - 7);
}

// ---- cross-checks against press-by-press reference strategies on random puzzles ----

struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

fn random_puzzle(rng: &mut Rng) -> Puzzle {
    let n = 1 + rng.below(5) as usize;
    let moduli: Vec<u64> = (0..n).map(|_| 2 + rng.below(8)).collect();
    let list = |values: Vec<u64>| values.iter().map(u64::to_string).collect::<Vec<_>>().join(", ");
    let start = list(moduli.iter().map(|&m| rng.below(m)).collect());
    let target = list(moduli.iter().map(|&m| rng.below(m)).collect());
    let graph = match rng.below(4) {
        0 => format!("Path({n})"),
        1 if n >= 3 => format!("Cycle({n})"),
        2 => {
            let buttons: Vec<String> = (0..1 + rng.below(5))
                .map(|_| {
                    let effect: Vec<String> = (0..1 + rng.below(3))
                        .map(|_| format!("({}, {})", rng.below(n as u64), 1 + rng.below(6)))
                        .collect();
                    format!("[{}]", effect.join(", "))
                })
                .collect();
            format!("Cells({n}), buttons: [{}]", buttons.join(", "))
        }
        _ => {
            let rows = 1 + rng.below(3) as usize;
            let cols = 1 + rng.below(3) as usize;
            let moduli: Vec<u64> = (0..rows * cols).map(|_| 2 + rng.below(5)).collect();
            let start = list(moduli.iter().map(|&m| rng.below(m)).collect());
            let target = list(moduli.iter().map(|&m| rng.below(m)).collect());
            let wrap = if rng.below(4) == 0 { ", wrap: true" } else { "" };
            let king = if rng.below(4) == 0 { ", neighborhood: King" } else { "" };
            return load(&format!(
                "Puzzle(graph: Grid(rows: {rows}, cols: {cols}{wrap}{king}), modulus: [{}], \
                 press: (self: {}, neighbors: {}), start: [{start}], target: [{target}])",
                list(moduli),
                1 + rng.below(3),
                rng.below(3)
            ));
        }
    };
    let press = if graph.contains("buttons") {
        String::new()
    } else {
        format!(", press: (self: {}, neighbors: {})", 1 + rng.below(3), rng.below(3))
    };
    load(&format!(
        "Puzzle(graph: {graph}, modulus: [{}]{press}, start: [{start}], target: [{target}])",
        list(moduli)
    ))
}

/// The puzzle, or (two times in three) the same cells, moduli and states with random staged
/// presses: graph phases for graph puzzles (the buttons stay the cells), explicit phases
/// otherwise (the buttons become the phases summed).
fn random_staged(rng: &mut Rng, puzzle: &Puzzle) -> Puzzle {
    if rng.below(3) == 0 {
        return puzzle.clone();
    }
    let n = puzzle.cell_count() as u64;
    let phases = match puzzle.buttons() {
        crate::model::Buttons::Graph { .. } => crate::model::Phases::Graph(
            (0..1 + rng.below(3)).map(|_| (rng.below(9) as i64, rng.below(9) as i64)).collect(),
        ),
        crate::model::Buttons::Explicit(_) => crate::model::Phases::Explicit(
            (0..puzzle.button_count())
                .map(|_| {
                    (0..1 + rng.below(3))
                        .map(|_| {
                            (0..rng.below(3)).map(|_| (rng.below(n) as usize, rng.below(9) as i64)).collect()
                        })
                        .collect()
                })
                .collect(),
        ),
    };
    Puzzle::builder(puzzle.topology().clone())
        .moduli(puzzle.moduli().clone())
        .start(puzzle.start().clone())
        .target(puzzle.target().clone())
        .phases(phases)
        .build()
        .expect("random phases on a valid puzzle")
}

/// A full press as the reference sees it: the phases summed, cell by cell.
fn reference_full(puzzle: &Puzzle, j: usize) -> Vec<(usize, u64)> {
    full_press(puzzle, &phases_of(puzzle, j))
}

/// Sweep played one press at a time, with the repeat check on whole states.
fn reference_sweep(puzzle: &Puzzle) -> (bool, Vec<usize>) {
    let mut state = puzzle.start.to_vec();
    let mut sequence = Vec::new();
    if state == puzzle.target {
        return (true, sequence);
    }
    let n = puzzle.button_count();
    let distance = |state: &[u64], c: usize| sub_mod(puzzle.target[c], state[c], puzzle.moduli[c]);
    let mut previous: Option<usize> = None;
    for j in 0..n {
        let full = reference_full(puzzle, j);
        if j + 1 == n {
            let mut seen = HashSet::new();
            while seen.insert(state.clone()) {
                sequence.push(j);
                if press(puzzle, &mut state, j) {
                    return (true, sequence);
                }
            }
            return (false, sequence);
        }
        let own = own_cell(puzzle, &full, j);
        loop {
            let own_passes = own.is_none_or(|c| {
                let a = amount_on(&full, c);
                a == 0 || a > distance(&state, c)
            });
            let previous_passes = previous.is_some_and(|c| {
                let b = amount_on(&full, c);
                b > 0 && b > distance(&state, c)
            });
            if own_passes || previous_passes {
                break;
            }
            sequence.push(j);
            if press(puzzle, &mut state, j) {
                return (true, sequence);
            }
        }
        previous = own;
    }
    (state == puzzle.target, sequence)
}

fn reference_greedy(puzzle: &Puzzle, cap: u64) -> (bool, Vec<usize>) {
    let mut state = puzzle.start.to_vec();
    let mut sequence = Vec::new();
    let at = |s: &[u64]| s.iter().zip(&puzzle.target).filter(|(a, b)| a == b).count();
    while state != puzzle.target && (sequence.len() as u64) < cap {
        let mut best: Option<(usize, usize, Vec<u64>, bool)> = None;
        for j in 0..puzzle.button_count() {
            let mut next = state.clone();
            let won = press(puzzle, &mut next, j);
            let score = if won { usize::MAX } else { at(&next) };
            if best.as_ref().is_none_or(|(s, ..)| score > *s) {
                best = Some((score, j, next, won));
            }
        }
        match best {
            Some((score, j, next, won)) if score > at(&state) => {
                sequence.push(j);
                state = next;
                if won {
                    return (true, sequence);
                }
            }
            _ => break,
        }
    }
    (state == puzzle.target, sequence)
}

fn reference_chase(puzzle: &Puzzle) -> Option<(bool, Vec<usize>)> {
    let (rows, cols) = puzzle.topology.grid_shape()?;
    if !puzzle.buttons_are_cells() {
        return None;
    }
    let mut state = puzzle.start.to_vec();
    let mut sequence = Vec::new();
    if state == puzzle.target {
        return Some((true, sequence));
    }
    for cell in 0..(rows - 1) * cols {
        let below = cell + cols;
        if state[cell] == puzzle.target[cell] {
            continue;
        }
        // The player reasons with full presses: the fewest `t` whose full presses bring the
        // cell to its target, if any; then those presses are played (the game may win
        // part-way through one).
        let m = puzzle.moduli[cell];
        let b = reference_full(puzzle, below).iter().find(|&&(i, _)| i == cell).map_or(0, |&(_, a)| a);
        let Some(t) = (1..=m).find(|&t| (state[cell] + t * b) % m == puzzle.target[cell]) else {
            continue;
        };
        for k in 1..=t {
            sequence.push(below);
            if press(puzzle, &mut state, below) {
                return Some((true, sequence));
            }
            debug_assert!(k < t || state[cell] == puzzle.target[cell]);
        }
    }
    Some((state == puzzle.target, sequence))
}

#[test]
fn strategies_agree_with_press_by_press_play() {
    let mut rng = Rng(2024);
    let mut wins = [0usize; 3];
    for round in 0..3000 {
        let puzzle = random_puzzle(&mut rng);
        let puzzle = random_staged(&mut rng, &puzzle);
        let context = format!("round {round}: {puzzle:?}");
        let outcomes = all(&puzzle);
        for outcome in &outcomes {
            assert_consistent(&puzzle, outcome);
        }
        let sweep = &outcomes[0];
        assert_eq!((sweep.solves, sweep.sequence.clone()), reference_sweep(&puzzle), "{context}");
        let cap = 4 * puzzle.button_count() as u64 + 16;
        let greedy = &outcomes[1];
        assert_eq!((greedy.solves, greedy.sequence.clone()), reference_greedy(&puzzle, cap), "{context}");
        let chase = outcomes.get(2).map(|o| (o.solves, o.sequence.clone()));
        assert_eq!(chase, reference_chase(&puzzle), "{context}");
        for (k, o) in outcomes.iter().enumerate() {
            wins[k] += o.solves as usize;
        }
    }
    // The random puzzles exercise both verdicts of every strategy.
    assert!(wins.iter().all(|&w| w > 30), "{wins:?}");
}

#[test]
fn closed_form_runs_match_press_by_press_runs() {
    let mut rng = Rng(99);
    let mut wins = 0;
    for round in 0..3000 {
        let puzzle = random_puzzle(&mut rng);
        let puzzle = random_staged(&mut rng, &puzzle);
        let mut state: Vec<u64> = puzzle.moduli.iter().map(|&m| rng.below(m)).collect();
        // Often one press or so away from the target, so that runs do win.
        if rng.below(2) == 0 {
            state = puzzle.target.to_vec();
            let j = rng.below(puzzle.button_count() as u64) as usize;
            for &(i, a) in &reference_full(&puzzle, j) {
                let m = puzzle.moduli[i];
                state[i] = sub_mod(state[i], mul_mod(a, rng.below(m), m), m);
            }
        }
        let j = rng.below(puzzle.button_count() as u64) as usize;
        let times = rng.below(300);
        let phases = phases_of(&puzzle, j);
        let (mut looped, mut closed) = (state.clone(), state.clone());
        let a = Board::new(&puzzle, &mut looped).press_times_looped(&phases, times);
        let b = Board::new(&puzzle, &mut closed).press_times_closed(&phases, times);
        assert_eq!(a, b, "round {round}");
        assert_eq!(looped, closed, "round {round}");
        wins += a.1 as usize;
    }
    assert!(wins > 100, "{wins}");
}

/// A random mixed-moduli board of up to 12×12 cells: a grid (plain, King, torus, negative
/// weights) or explicit buttons of up to six entries over its cells.
fn random_board(rng: &mut Rng) -> Puzzle {
    let (rows, cols) = (2 + rng.below(11) as usize, 2 + rng.below(11) as usize);
    let moduli: Vec<u64> = (0..rows * cols).map(|_| 2 + rng.below(11)).collect();
    let values =
        |rng: &mut Rng| -> Vec<String> { moduli.iter().map(|&m| rng.below(m).to_string()).collect() };
    let (start, target) = (values(rng), values(rng));
    let graph = if rng.below(4) == 0 {
        let n = (rows * cols) as u64;
        let buttons: Vec<String> = (0..1 + rng.below(2 * n))
            .map(|_| {
                let effect: Vec<String> = (0..1 + rng.below(6))
                    .map(|_| format!("({}, {})", rng.below(n), rng.below(13) as i64 - 6))
                    .collect();
                format!("[{}]", effect.join(", "))
            })
            .collect();
        format!("Cells({}), buttons: [{}]", rows * cols, buttons.join(", "))
    } else {
        let wrap = if rng.below(3) == 0 { ", wrap: true" } else { "" };
        let king = if rng.below(3) == 0 { ", neighborhood: King" } else { "" };
        format!(
            "Grid(rows: {rows}, cols: {cols}{wrap}{king}), press: (self: {}, neighbors: {})",
            1 + rng.below(3),
            rng.below(5) as i64 - 2
        )
    };
    let moduli: Vec<String> = moduli.iter().map(u64::to_string).collect();
    load(&format!(
        "Puzzle(graph: {graph}, modulus: [{}], start: [{}], target: [{}])",
        moduli.join(", "),
        start.join(", "),
        target.join(", ")
    ))
}

/// Greedy play that scores again only the buttons a press touched makes the same presses as
/// looking at every button every time (the reference plays each look on a copy of the board).
#[test]
fn greedy_scored_again_agrees_with_looking_at_every_button() {
    let mut rng = Rng(77);
    let mut long_games = 0;
    for round in 0..120 {
        let puzzle = random_board(&mut rng);
        let cap = 4 * puzzle.button_count() as u64 + 16;
        let greedy = super::greedy(&puzzle, cap);
        assert_consistent(&puzzle, &greedy);
        let context = format!("round {round}: {puzzle:?}");
        assert_eq!((greedy.solves, greedy.sequence.clone()), reference_greedy(&puzzle, cap), "{context}");
        long_games += usize::from(greedy.presses >= 15);
    }
    assert!(long_games >= 10, "{long_games}");
}

/// A limit on looks stops greedy play unfinished, its presses so far the start of the whole
/// game's; fewer looks than buttons stop it before its first press.
#[test]
fn greedy_stops_at_its_looks() {
    let mut rng = Rng(78);
    let (puzzle, whole) = std::iter::repeat_with(|| random_board(&mut rng))
        .map(|p| {
            let g = super::greedy(&p, 1000);
            (p, g)
        })
        .find(|(_, g)| g.presses >= 15)
        .expect("a long game");
    let n = puzzle.button_count() as u64;
    let none = super::greedy_until(&puzzle, 1000, PlayLimit { deadline: None, looks: Some(n - 1) });
    assert_eq!((none.finished, none.presses), (false, 0));
    let some = super::greedy_until(&puzzle, 1000, PlayLimit { deadline: None, looks: Some(n + 40) });
    assert!(!some.finished && some.presses >= 1 && some.presses < whole.presses, "{some:?} {whole:?}");
    assert_eq!(some.sequence[..], whole.sequence[..some.sequence.len()]);
}
