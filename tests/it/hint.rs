//! Hints and ordered play (`modsolve::hint`, `modsolve hint`).
//!
//! - following hints one at a time from random starts reaches the target in exactly the par,
//!   and the par equals a brute-force minimum over every press vector (mod 2 and mod 3 grids,
//!   mixed moduli, staged presses);
//! - a hint after presses already made is the hint of the puzzle whose start is the board they
//!   reach;
//! - the listed steps, played in order, give the listed boards, end at the target, number the
//!   par, and put a press cut short by the win last;
//! - the command line's exit codes (0, 1 unsolvable from the board, 2 bad `--pressed`, 3
//!   undecided), its JSON against `schema/hint.schema.json`, and a snapshot of
//!   `modsolve hint puzzles/octopus.ron --steps`.

use modsolve::hint::{HintOptions, Outcome, hint};
use modsolve::model::{Neighborhood, Phases, Puzzle, Topology};
use modsolve::solve::Budget;
use modsolve::{Options, parse_puzzle};
use num_bigint::BigUint;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use serde_json::Value;

use crate::staged::{brute_force, small_staged};
use crate::util::{Scratch, Shape, modsolve, random_puzzle, shipped, shipped_files};

/// Node budgets only, so that every run does the same work.
fn options(steps: bool) -> HintOptions {
    let analysis = Options::default().budget(Budget::of_nodes(20_000_000));
    HintOptions::default().analysis(analysis).steps(steps)
}

/// One press under the puzzle's rule, phase by phase, stopping at a win (the test's own
/// simulation); `Some(k)` when the board reached the target after phase `k`.
fn press(puzzle: &Puzzle, state: &mut [u64], j: usize) -> Option<usize> {
    for k in 0..puzzle.phase_count(j) {
        for (i, a) in puzzle.phase_effects(j, k) {
            let m = puzzle.moduli()[i];
            state[i] = ((state[i] as u128 + a as u128) % m as u128) as u64;
        }
        if state == puzzle.target().to_vec().as_slice() {
            return Some(k + 1);
        }
    }
    None
}

/// The board after `pressed` from the start.
fn replay(puzzle: &Puzzle, pressed: &[usize]) -> Vec<u64> {
    let mut state = puzzle.start().to_vec();
    for &j in pressed {
        press(puzzle, &mut state, j);
    }
    state
}

/// The number of press vectors the brute force visits.
fn plans(puzzle: &Puzzle) -> u64 {
    puzzle.periods().iter().map(|l| u64::try_from(l).unwrap()).fold(1u64, |a, l| a.saturating_mul(l))
}

/// A start that some plan of full presses solves: the target with a random plan undone.
fn solvable_start(rng: &mut StdRng, puzzle: &Puzzle) -> Puzzle {
    let periods = puzzle.periods();
    let undo: Vec<BigUint> = periods
        .iter()
        .map(|l| {
            let l = u64::try_from(l).unwrap();
            BigUint::from((l - rng.random_range(0..l)) % l)
        })
        .collect();
    puzzle.with_start(puzzle.apply(&puzzle.target().to_vec(), &undo)).unwrap()
}

/// Random puzzles of every kind the hints must handle, small enough for brute force; about
/// half with a start made solvable.
fn random_puzzles(seed: u64, count: usize) -> Vec<(&'static str, Puzzle)> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let kind = ["mod 2 grid", "mod 3 grid", "mixed moduli", "staged", "staged grid"][out.len() % 5];
        let puzzle = match kind {
            "mod 2 grid" | "mod 3 grid" | "staged grid" => {
                let (modulus, most) = if kind == "mod 2 grid" { (2, 4) } else { (3, 3) };
                let (rows, cols) = (rng.random_range(1..=most), rng.random_range(2..=most));
                let neighborhood =
                    if rng.random_bool(0.3) { Neighborhood::King } else { Neighborhood::Cross };
                let grid = Topology::Grid { rows, cols, wrap: rng.random_bool(0.2), neighborhood };
                let values = |rng: &mut StdRng| {
                    (0..rows * cols).map(|_| rng.random_range(0..modulus)).collect::<Vec<u64>>()
                };
                let mut builder =
                    Puzzle::builder(grid).modulus(modulus).start(values(&mut rng)).target(values(&mut rng));
                if kind == "staged grid" {
                    builder = builder.phases(Phases::Graph(vec![(1, 1), (1, 0)]));
                }
                builder.build().unwrap()
            }
            "mixed moduli" => random_puzzle(&mut rng, &Shape { moduli: 2..=7, ..Shape::default() }),
            _ => random_puzzle(&mut rng, &small_staged()),
        };
        if plans(&puzzle) > 70_000 {
            continue;
        }
        let puzzle = if rng.random_bool(0.5) { solvable_start(&mut rng, &puzzle) } else { puzzle };
        out.push((kind, puzzle));
    }
    out
}

#[test]
fn following_hints_reaches_the_target_in_exactly_par_presses() {
    let (mut followed, mut unsolvable, mut staged_cuts) = (0, 0, 0);
    for (kind, puzzle) in random_puzzles(16, 250) {
        let (_, fewest) = brute_force(&puzzle);
        let first = hint(&puzzle, &[], &options(false)).unwrap();
        let Some(par) = fewest else {
            assert_eq!(first.outcome, Outcome::Unsolvable, "{kind}: {puzzle:?}");
            unsolvable += 1;
            continue;
        };
        assert_eq!(first.par(), Some(BigUint::from(par)), "{kind}: {puzzle:?}");
        // Press the hinted button, ask again, until solved: one press fewer each time.
        let mut pressed = Vec::new();
        loop {
            let now = hint(&puzzle, &pressed, &options(false)).unwrap();
            assert_eq!(now.state, replay(&puzzle, &pressed), "{kind}: {puzzle:?}");
            let left = par - pressed.len() as u64;
            assert_eq!(now.par(), Some(BigUint::from(left)), "{kind} after {pressed:?}: {puzzle:?}");
            match now.outcome {
                Outcome::Solved => break,
                Outcome::Next { press: next, proven, .. } => {
                    assert!(proven, "{kind}: {puzzle:?}");
                    assert_eq!(next.name, puzzle.button_name(next.button));
                    // A press cut short by the win is only ever the last one.
                    assert_eq!(next.phases.is_some(), left == 1 && next.phases.is_some());
                    staged_cuts += usize::from(next.phases.is_some());
                    pressed.push(next.button);
                }
                other => panic!("{kind} after {pressed:?}: {other:?}: {puzzle:?}"),
            }
        }
        assert_eq!(pressed.len() as u64, par, "{kind}: {puzzle:?}");
        assert_eq!(replay(&puzzle, &pressed), puzzle.target().to_vec());
        followed += 1;
    }
    assert!(followed >= 150 && unsolvable >= 10 && staged_cuts >= 5, "{followed} {unsolvable} {staged_cuts}");
}

#[test]
fn a_hint_after_presses_is_the_hint_from_the_board_they_reach() {
    let mut rng = StdRng::seed_from_u64(7);
    let mut compared = 0;
    for (kind, puzzle) in random_puzzles(17, 150) {
        let pressed: Vec<usize> =
            (0..rng.random_range(0..=6)).map(|_| rng.random_range(0..puzzle.button_count())).collect();
        let after = hint(&puzzle, &pressed, &options(true)).unwrap();
        let board = replay(&puzzle, &pressed);
        assert_eq!(after.state, board, "{kind}: {puzzle:?}");
        assert_eq!(after.pressed, pressed);
        let from_there = hint(&puzzle.with_start(board).unwrap(), &[], &options(true)).unwrap();
        assert_eq!(after.outcome, from_there.outcome, "{kind} after {pressed:?}: {puzzle:?}");
        assert_eq!(after.steps, from_there.steps, "{kind} after {pressed:?}: {puzzle:?}");
        compared += 1;
    }
    assert_eq!(compared, 150);
}

/// Checks a hint's steps against the test's own play from the hint's board; the number of
/// steps, and whether the last was cut short.
fn check_steps(puzzle: &Puzzle, hint: &modsolve::hint::Hint) -> (usize, bool) {
    let steps = hint.steps.as_ref().expect("steps listed");
    let mut state = hint.state.clone();
    for (n, step) in steps.iter().enumerate() {
        let won = press(puzzle, &mut state, step.press.button);
        assert_eq!(state, step.state, "step {} of {steps:?}", n + 1);
        let last = n + 1 == steps.len();
        assert_eq!(won.is_some(), last, "the target is reached at the last step only: {steps:?}");
        let cut = won.filter(|&k| k < puzzle.phase_count(step.press.button));
        assert_eq!(step.press.phases, cut, "step {}", n + 1);
    }
    assert_eq!(hint.par(), Some(BigUint::from(steps.len())));
    if let Some(first) = steps.first() {
        assert_eq!(Some(&first.press), hint.next());
        assert_eq!(state, puzzle.target().to_vec());
    }
    (steps.len(), steps.last().is_some_and(|s| s.press.phases.is_some()))
}

#[test]
fn steps_play_to_their_boards_and_end_at_the_target() {
    let mut cut_last = 0;
    for (kind, puzzle) in random_puzzles(18, 150) {
        let listed = hint(&puzzle, &[], &options(true)).unwrap();
        if listed.outcome == Outcome::Unsolvable {
            assert_eq!(listed.steps, None);
            continue;
        }
        let (count, cut) = check_steps(&puzzle, &listed);
        assert_eq!(Some(count as u64), brute_force(&puzzle).1, "{kind}: {puzzle:?}");
        cut_last += usize::from(cut);
    }
    assert!(cut_last >= 5, "{cut_last}");
    // The shipped puzzles, and the game-rule octopus: 10 full presses, then tentacle 1 stopped
    // after its first phase.
    for path in shipped_files() {
        let puzzle = parse_puzzle(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let listed = hint(&puzzle, &[], &options(true)).unwrap();
        if listed.outcome != Outcome::Unsolvable {
            check_steps(&puzzle, &listed);
        }
    }
    let game = shipped("octopus-game.ron");
    let listed = hint(&game, &[], &options(true)).unwrap();
    let steps = listed.steps.as_ref().unwrap();
    assert_eq!(steps.len(), 11);
    assert_eq!((steps[10].press.button, steps[10].press.phases), (0, Some(1)));
    assert!(steps[..10].iter().all(|s| s.press.phases.is_none()));
}

/// Runs the binary from the repository root; the exit code, stdout and stderr.
fn run(args: &[&str]) -> (i32, String, String) {
    let output = modsolve().current_dir(env!("CARGO_MANIFEST_DIR")).args(args).output().expect("runs");
    let text = |b: &[u8]| String::from_utf8(b.to_vec()).expect("UTF-8");
    (output.status.code().expect("exited"), text(&output.stdout), text(&output.stderr))
}

fn validator(name: &str) -> jsonschema::Validator {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("schema/{name}.schema.json"));
    jsonschema::validator_for(&serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap())
        .unwrap()
}

fn valid(validator: &jsonschema::Validator, stdout: &str) -> Value {
    let document: Value = serde_json::from_str(stdout).unwrap_or_else(|e| panic!("{e}: {stdout}"));
    let errors: Vec<String> =
        validator.iter_errors(&document).map(|e| format!("{e} at {}", e.instance_path())).collect();
    assert!(errors.is_empty(), "{}\n{document:#}", errors.join("\n"));
    assert_eq!(document["version"], 1);
    document
}

#[test]
fn exit_codes_and_json() {
    let (hints, errors) = (validator("hint"), validator("error"));
    let scratch = Scratch::new();
    // A press limit of 0 everywhere: the plans within the limits (no press at all) are walked
    // whole whatever the budget, so even with none the hint says there is no plan (exit 1).
    let limited = scratch.file(
        "limited.ron",
        "Puzzle(graph: Cells(1), modulus: 3, buttons: [[(0, 1)], [(0, 1)]], start: [1], max_presses: All(0))",
    );
    let limited = limited.to_str().unwrap();
    // Limits that leave 2^40 press vectors, too many to walk: with no search budget the hint is
    // undecided (exit 3).
    let wide = scratch.file(
        "wide.ron",
        &format!(
            "Puzzle(graph: Cells(1), modulus: 3, buttons: [{}], start: [1], max_presses: All(1))",
            vec!["[(0, 1)]"; 40].join(", ")
        ),
    );
    let wide = wide.to_str().unwrap();
    let cases: &[(&[&str], i32)] = &[
        (&["hint", "puzzles/octopus.ron"], 0),
        (&["hint", "puzzles/octopus.ron", "--steps"], 0),
        (&["hint", "puzzles/octopus.ron", "--pressed", "3,1,1", "--steps"], 0),
        (&["hint", "puzzles/octopus.ron", "--pressed", "tentacle 2, Tentacle 4"], 0),
        (&["hint", "puzzles/octopus-game.ron", "--steps"], 0),
        (&["hint", "puzzles/lightsout-3x3.ron", "--pressed", "0,2,4,6,8", "--steps"], 0),
        (&["hint", "puzzles/lightsout-5x5.ron", "--steps"], 0),
        (&["hint", "puzzles/lightsout-4x4-unsolvable.ron"], 1),
        (&["hint", "puzzles/lightsout-4x4-unsolvable.ron", "--steps"], 1),
        // One more press of the lit corner lights its neighbours: still no plan.
        (&["hint", "puzzles/lightsout-4x4-unsolvable.ron", "--pressed", "0"], 1),
        (&["hint", limited, "--budget", "0"], 1),
        (&["hint", limited], 1),
        (&["hint", wide, "--budget", "0"], 3),
        (&["hint", wide], 0),
    ];
    for &(args, code) in cases {
        let (got, stdout, stderr) = run(args);
        assert_eq!(got, code, "{args:?}: {stdout}{stderr}");
        let mut json = args.to_vec();
        json.push("--json");
        let (got, stdout, _) = run(&json);
        assert_eq!(got, code, "{json:?}");
        let document = valid(&hints, &stdout);
        let expected = match code {
            0 => Value::Bool(true),
            1 => Value::Bool(false),
            _ => Value::Null,
        };
        assert_eq!(document["solvable"], expected, "{json:?}");
    }
    let bad: &[(&[&str], &str)] = &[
        (&["--pressed", "4"], "`4` is not a button: the puzzle has 4 buttons, 0 to 3"),
        (&["--pressed", "1,x"], "`x` is not a button: give a button number (0 to 3) or a label (tentacle 1"),
        (&["--pressed", "1,,2"], "press 2 is empty"),
        (&["--pressed", "-1"], "`-1` is not a button"),
        (&["--pressed", "99999999999999999999999"], "is not a button"),
    ];
    for &(flags, message) in bad {
        let mut args = vec!["hint", "puzzles/octopus.ron"];
        args.extend(flags);
        let (code, stdout, stderr) = run(&args);
        assert_eq!((code, stdout.as_str()), (2, ""), "{args:?}");
        assert!(stderr.starts_with("error: --pressed: ") && stderr.contains(message), "{args:?}: {stderr}");
        args.push("--json");
        let (code, stdout, _) = run(&args);
        assert_eq!(code, 2);
        assert_eq!(valid(&errors, &stdout)["error"]["kind"], "usage");
    }
    // Unlabelled explicit buttons take numbers only; a press beyond a limit is refused too.
    let (code, _, stderr) = run(&["hint", "puzzles/merlin.ron", "--pressed", "nine"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("`nine` is not a button number: the puzzle has 9 buttons, 0 to 8"), "{stderr}");
    // `--state` takes the board (cell values), `--pressed` the presses: the board the presses
    // reach gives the same hint. (`--state` was once `--pressed` by another name.)
    let (code, stdout, _) = run(&["hint", "puzzles/octopus.ron", "--pressed", "3,1,1", "--steps", "--json"]);
    assert_eq!(code, 0);
    let by_presses: Value = serde_json::from_str(&stdout).unwrap();
    let board: Vec<String> =
        by_presses["state"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap().to_string()).collect();
    assert_ne!(board.join(","), "3,1,1");
    let (code, stdout, _) =
        run(&["hint", "puzzles/octopus.ron", "--state", &board.join(","), "--steps", "--json"]);
    assert_eq!(code, 0);
    let by_state: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(by_state["state"], by_presses["state"]);
    for key in ["next", "par", "steps"] {
        assert_eq!(by_state[key], by_presses[key], "{key}");
    }
    let (code, _, stderr) = run(&["hint", "puzzles/octopus.ron", "--state", "3,1,1"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("--state: has 3 values but the puzzle has 4 cells"), "{stderr}");
    let (code, _, stderr) = run(&["hint", "puzzles/octopus.ron", "--state", "2,4,5,6"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("--state: value 6 of cell 3 is not below its modulus 6"), "{stderr}");
    let (code, _, stderr) = run(&["hint", limited, "--pressed", "1"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("--pressed: `pressed[0]`: button 1 may be pressed at most 0 times"), "{stderr}");
}

/// Named buttons (`button_labels`) are what the plan, the hint and its steps print, and what
/// `--pressed` takes; the number still works.
#[test]
fn named_buttons_name_the_presses() {
    let (code, stdout, _) = run(&["examples/levers.ron"]);
    assert_eq!(code, 0);
    assert!(stdout.contains("\n    press red lever ×1, blue lever ×2\n"), "{stdout}");
    let (code, stdout, _) = run(&["hint", "examples/levers.ron", "--pressed", "Red Lever", "--steps"]);
    assert_eq!(code, 0);
    assert!(stdout.contains("After 1 press (red lever):\n"), "{stdout}");
    assert!(stdout.contains("\nNext: press blue lever.\n"), "{stdout}");
    assert!(stdout.contains("\n2. press blue lever → [1, 2, 2]  (the target)"), "{stdout}");
    let (code, by_number, _) = run(&["hint", "examples/levers.ron", "--pressed", "0", "--steps"]);
    assert_eq!((code, by_number), (0, stdout));
    let (code, _, stderr) = run(&["hint", "examples/levers.ron", "--pressed", "green lever"]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains(
            "`green lever` is not a button: give a button number (0 to 1) or a label (red lever, blue lever)"
        ),
        "{stderr}"
    );
}

/// The JSON document is the library's hint: the next press, the par and the steps.
#[test]
fn the_json_is_the_library_hint() {
    let (code, stdout, _) = run(&["hint", "puzzles/octopus-game.ron", "--pressed", "0", "--steps", "--json"]);
    assert_eq!(code, 0);
    let document: Value = serde_json::from_str(&stdout).unwrap();
    let puzzle = shipped("octopus-game.ron");
    let library = hint(&puzzle, &[0], &HintOptions::default().steps(true)).unwrap();
    assert_eq!(document, serde_json::to_value(modsolve::report::HintReport::new(&puzzle, &library)).unwrap());
    assert_eq!(document["next"]["button"].as_u64(), library.next().map(|p| p.button as u64));
    assert_eq!(document["steps"].as_array().unwrap().len() as u64, document["par"].as_u64().unwrap());
}

#[test]
fn snapshot_of_the_octopus_steps() {
    let (code, stdout, stderr) = run(&["hint", "puzzles/octopus.ron", "--steps"]);
    assert_eq!(code, 0);
    insta::assert_snapshot!("hint-octopus-steps", format!("{stdout}--- stderr\n{stderr}"));
}

/// Hints on board shapes (hex, a masked grid, knight's moves, the cube): following them reaches
/// the target in exactly the brute-force par, and the text draws the board as a picture.
#[test]
fn hints_on_board_shapes_follow_the_par_and_draw_the_board() {
    let boards = [
        (
            "hex",
            "Puzzle(graph: Hex(rows: 3, cols: 4), modulus: 2, target: All(1))",
            "    [.] .  .  .\n      .  .  .  .\n     .",
        ),
        (
            "plus mod 3",
            "Puzzle(graph: Grid(rows: 5, cols: 5, mask: [\"..#..\", \".###.\", \"#####\", \".###.\", \"..#..\"]), modulus: 3, target: All(1))",
            "          [.]\n        .  .  .\n     .  .  .  .  .\n        .  .  .\n           .\n",
        ),
        (
            "knight",
            "Puzzle(graph: Grid(rows: 3, cols: 4, neighborhood: Knight), modulus: 2, start: All(1))",
            "     #  #  #  #\n    [#] #  #  #\n",
        ),
        (
            "cube",
            "Puzzle(graph: Cube(2), modulus: 2, start: All(1))",
            "\n     #  #  #  #  #  #  #  #\n     #  #  #  #  #  #  #  #\n           #  #\n",
        ),
    ];
    for (kind, text, drawn) in boards {
        let puzzle = parse_puzzle(text).unwrap();
        let (_, fewest) = brute_force(&puzzle);
        let par = fewest.unwrap_or_else(|| panic!("{kind}: the test's boards are solvable"));
        let mut pressed = Vec::new();
        loop {
            let now = hint(&puzzle, &pressed, &options(false)).unwrap();
            assert_eq!(
                now.par(),
                Some(BigUint::from(par - pressed.len() as u64)),
                "{kind} after {pressed:?}"
            );
            match now.outcome {
                Outcome::Solved => break,
                Outcome::Next { press, .. } => pressed.push(press.button),
                other => panic!("{kind}: {other:?}"),
            }
        }
        assert_eq!(replay(&puzzle, &pressed), puzzle.target().to_vec(), "{kind}");
        let first = hint(&puzzle, &[], &options(false)).unwrap();
        let shown = modsolve::report::hint_text(
            &puzzle,
            &first,
            &modsolve::report::Knobs::new("--budget", "--timeout", "--picture", "--json"),
        );
        assert!(shown.contains(drawn) && shown.contains("marked [ ] above"), "{kind}:\n{shown}");
        assert!(!shown.contains("[0, "), "{kind} drawn as a list:\n{shown}");
    }
}
