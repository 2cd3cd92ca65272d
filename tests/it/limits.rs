//! Honest outcomes and bounded work: regressions for answers that misled (an undecided search
//! printed as "no solution", a bound printed where the count was exact, "the budget ran out"
//! where none did, the wrong method named by `-v`) and for commands that ran far past their
//! `--budget` or their memory.
//!
//! Each test runs the binary on a puzzle written for it. Where a budget or a limit is the
//! subject, the tests assert what it counts and where it stops (the nodes reported against a
//! node budget, the exit code and message of a timeout, a refusal before any work), which do
//! not depend on how busy the machine is. One test keeps a coarse wall-clock bound, a smoke
//! test of the command line's timeout ([`the_timeout_bounds_the_elimination`]).

use std::process::Output;
use std::time::{Duration, Instant};

use assert_cmd::Command;
use serde_json::Value;

use crate::util::{Scratch, shipped_path};

/// Runs the binary; returns its output and wall time.
fn run(args: &[&str]) -> (Output, Duration) {
    let started = Instant::now();
    let output = Command::cargo_bin("modsolve").expect("built").args(args).output().expect("runs");
    (output, started.elapsed())
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("UTF-8")
}

fn puzzle(name: &str) -> String {
    shipped_path(name).display().to_string()
}

/// The search cut short on an unsolvable puzzle has decided nothing: exit 3, `"solvable":
/// null`, no "no solution" and no "at least 0 plans". It used to say "no solution", exit 1.
#[test]
fn an_undecided_search_is_undecided() {
    let file = puzzle("lightsout-4x4-unsolvable.ron");
    let (output, _) = run(&[&file, "--method", "search", "--budget", "10"]);
    assert_eq!(output.status.code(), Some(3), "{output:?}");
    let text = stdout(&output);
    assert!(text.contains("Undecided: the budget ran out"), "{text}");
    assert!(text.contains("Solutions: unknown"), "{text}");
    assert!(!text.contains("Not solvable") && !text.contains("at least 0"), "{text}");
    let (output, _) = run(&[&file, "--method", "search", "--budget", "10", "--json"]);
    assert_eq!(output.status.code(), Some(3));
    let json: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert_eq!(json["solvable"], Value::Null);
    assert_eq!(json["count_exact"], Value::Bool(false));
    // With the budget it needs, the same search decides: no plan, exit 1.
    let (output, _) = run(&[&file, "--method", "search", "--json"]);
    assert_eq!(output.status.code(), Some(1));
    let json: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert_eq!((json["solvable"].clone(), json["count"].clone()), (Value::Bool(false), Value::from("0")));
}

/// The timeout bounds the printing too: 2000×2000 Lights Out's JSON (24 MB) read slowly (64 KiB
/// every 10 ms, about 4 s for all of it) stops at the timeout's bound, exit 3, standard error
/// says the output is incomplete, and the reader gets only part of it. It used to print on for
/// as long as the reader took.
#[test]
fn the_timeout_bounds_the_printing() {
    use std::io::Read;
    let scratch = Scratch::new();
    let file =
        scratch.file("lo2000.ron", "Puzzle(graph: Grid(rows: 2000, cols: 2000), modulus: 2, start: All(1))");
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("modsolve"))
        .args([file.to_str().unwrap(), "--json", "--timeout", "1s"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let (mut read, mut chunk) = (0usize, vec![0u8; 64 << 10]);
    loop {
        match stdout.read(&mut chunk) {
            Ok(0) | Err(_) => break,
            Ok(n) => read += n,
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(3), "{stderr}");
    assert!(stderr.contains("the timeout came while the answer was being printed"), "{stderr}");
    assert!(read < 24_000_000, "{read} bytes: the whole answer");
}

/// 40 buttons on one cell, all limited to 0 presses: the count within the limits is exactly 0,
/// known at once, so `--all` ends at once with nothing to list, one node counted of a budget of
/// five million (it walked the 2^39 plans of the set for the whole budget and said "the budget
/// ran out before the rest were listed").
#[test]
fn all_ends_at_once_when_the_count_is_zero() {
    let scratch = Scratch::new();
    let buttons = vec!["[(0, 1)]"; 40].join(", ");
    let file = scratch.file(
        "zero.ron",
        &format!(
            "Puzzle(graph: Cells(1), modulus: 2, buttons: [{buttons}], start: [1], max_presses: All(0))"
        ),
    );
    let file = file.to_str().unwrap();
    let (output, _) = run(&[file, "--all", "--budget", "5000000", "--json"]);
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    let json: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert_eq!((&json["count"], &json["count_exact"]), (&Value::from("0"), &Value::Bool(true)));
    assert_eq!((&json["all"], &json["all_cut"]), (&serde_json::json!([]), &Value::Null));
    assert_eq!(json["search_nodes"], Value::from(1), "{json}");
    let (output, _) = run(&[file, "--all"]);
    let text = stdout(&output);
    assert!(text.contains("No plan within the press limits to list."), "{text}");
    assert!(!text.contains("budget"), "{text}");
}

/// 24×24 Lights Out has 16 plans: `--all` lists all 16 under the exact count (it listed 0 of
/// them and said "at least").
#[test]
fn all_lists_every_plan_of_24x24_lights_out() {
    let scratch = Scratch::new();
    let file =
        scratch.file("lo24.ron", "Puzzle(graph: Grid(rows: 24, cols: 24), modulus: 2, target: All(1))");
    let (output, _) = run(&[file.to_str().unwrap(), "--all", "--json"]);
    assert_eq!(output.status.code(), Some(0));
    let json: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert_eq!(json["count"], Value::from("16"));
    assert_eq!(json["count_exact"], Value::Bool(true));
    let plans = json["all"].as_array().expect("a list");
    assert_eq!(plans.len(), 16);
    let distinct: std::collections::BTreeSet<String> = plans.iter().map(Value::to_string).collect();
    assert_eq!(distinct.len(), 16, "16 different plans");
    assert_eq!((json["all_cut"].clone(), json["all_more"].clone()), (Value::Null, Value::from("0")));
    let (output, _) = run(&[file.to_str().unwrap(), "--all"]);
    let text = stdout(&output);
    assert!(text.contains("Solutions: 16 plans") && text.contains("All 16 plans:"), "{text}");
}

/// Staged presses have no listing yet: `--all` says so (exit 2) instead of printing nothing.
#[test]
fn all_on_staged_presses_says_it_cannot_list() {
    let (output, _) = run(&[&puzzle("octopus-game.ron"), "--all"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty());
    assert!(String::from_utf8_lossy(&output.stderr).contains("not available for staged presses"));
}

/// 2^100 plans (101 buttons on one mod-2 cell): `--all --limit 3` prints the exact count, three
/// plans and how many more, at once and in little memory (it kept every plan and aborted): the
/// listing stops at the limit and counts no search node of its own (the nodes are those of the
/// same solve without `--all`).
#[test]
fn all_with_a_limit_streams_a_huge_solution_set() {
    let scratch = Scratch::new();
    let buttons = vec!["[(0, 1)]"; 101].join(", ");
    let file = scratch.file(
        "big.ron",
        &format!("Puzzle(graph: Cells(1), modulus: 2, buttons: [{buttons}], target: All(1))"),
    );
    let (output, _) = run(&[file.to_str().unwrap(), "--all", "--limit", "3"]);
    assert_eq!(output.status.code(), Some(0));
    let text = stdout(&output);
    let total = num_bigint::BigUint::from(1u32) << 100u32;
    assert!(text.contains(&format!("Solutions: {total} plans")), "{text}");
    assert!(text.contains("The first 3 plans:"), "{text}");
    assert!(text.contains(&format!("… and {} more", total - 3u32)), "{text}");
    assert_eq!(text.lines().filter(|l| l.starts_with("    [")).count(), 3, "{text}");
    let json = |extra: &[&str]| {
        let (output, _) = run(&[&[file.to_str().unwrap(), "--json"][..], extra].concat());
        serde_json::from_slice::<Value>(&output.stdout).expect("JSON")
    };
    let (listed, plain) = (json(&["--all", "--limit", "3"]), json(&[]));
    assert_eq!(
        (listed["all"].as_array().map(Vec::len), &listed["all_cut"]),
        (Some(3), &Value::from("limit"))
    );
    assert!(listed["search_nodes"].as_u64().is_some(), "{listed}");
    assert_eq!(listed["search_nodes"], plain["search_nodes"]);
}

/// A plan not proven for a reason other than the budget says which: 20,001 buttons on three
/// cells have 2^19998 quiet patterns, whose basis is not even built (it took 12 GB). Cell 0
/// needs an odd number of presses of the buttons that also change cell 1, cell 1 then an odd
/// number of those that also change cell 2, and cell 2 then the last button: 3 presses, while
/// the relaxations (single cells and pairs) prove 2. The search found no better plan than the
/// algebra's, so the algebra's plan stands with the relaxations' bound worked out beside the
/// search (the counting bound, 1, was printed when that bound was dropped) and the nodes the
/// search spent.
#[test]
fn not_proven_says_why() {
    let scratch = Scratch::new();
    let buttons = [vec!["[(0, 1), (1, 1)]"; 10_000], vec!["[(1, 1), (2, 1)]"; 10_000], vec!["[(2, 1)]"]]
        .concat()
        .join(", ");
    let file = scratch.file(
        "wide.ron",
        &format!("Puzzle(graph: Cells(3), modulus: 2, buttons: [{buttons}], target: [1, 0, 0])"),
    );
    let (output, _) = run(&[file.to_str().unwrap()]);
    let text = stdout(&output);
    assert!(text.contains("not proven: the quiet patterns of this board are too many to search"), "{text}");
    assert!(!text.contains("budget"), "{text}");
    let (output, _) = run(&[file.to_str().unwrap(), "--json"]);
    let json: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert_eq!(json["fewest"]["proof"], Value::from("no-basis"));
    assert_eq!(json["fewest"]["total_presses"], Value::from(3));
    assert_eq!(json["fewest"]["lower_bound"], Value::from(2));
    assert!(json["search_nodes"].as_u64().is_some_and(|n| n > 0), "{json}");
}

/// The same kind of board on two cells (cell 0 needs a press of a button that also changes cell
/// 1, which then needs a press of its own): the pair of cells proves the 2 presses of the
/// algebra's plan, which is printed proven although the set was not searched (it was printed
/// not proven, with the counting bound 1, when the search found no better plan and its bound
/// was dropped).
#[test]
fn a_plan_at_the_relaxations_bound_is_proven_without_a_basis() {
    let scratch = Scratch::new();
    let buttons = [vec!["[(0, 1), (1, 1)]"; 10_000], vec!["[(1, 1)]"; 10_001]].concat().join(", ");
    let file = scratch.file(
        "wide.ron",
        &format!("Puzzle(graph: Cells(2), modulus: 2, buttons: [{buttons}], target: [1, 0])"),
    );
    let (output, _) = run(&[file.to_str().unwrap(), "--json"]);
    let json: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert_eq!(json["fewest"]["total_presses"], Value::from(2));
    assert_eq!(json["fewest"]["proof"], Value::from("proven"));
    assert_eq!(json["fewest"]["lower_bound"], Value::from(2));
}

/// `-v` names general propagation and its real seeds on a King board (it said "light chasing"
/// with seeds recomputed from the grid shape).
#[test]
fn verbose_names_general_propagation() {
    let scratch = Scratch::new();
    let file = scratch.file(
        "king.ron",
        "Puzzle(graph: Grid(rows: 30, cols: 30, neighborhood: King), modulus: 3, target: All(1))",
    );
    let (output, _) = run(&[file.to_str().unwrap(), "-v"]);
    let err = String::from_utf8(output.stderr).expect("UTF-8");
    assert!(err.contains("general propagation, "), "{err}");
    assert!(!err.contains("light chasing") && !err.contains(", 0 symbolic seeds"), "{err}");
}

/// `--budget` bounds every search of the command: under `--method search` on 12 buttons mod 97
/// (97^9 plans) the fewest plan, a second objective, the count and `--all` share the node
/// budget and stop at it together (each used to run on past a time budget: 2.2 s and 2.4 s at
/// `--budget 1s`, and then each took the whole node budget). The
/// count is the search the budget ends: doubling the budget adds exactly its nodes to those
/// reported, and doubles the plans counted; no search counts more than the budget, and a
/// repeat stops at the same node.
#[test]
fn the_budget_bounds_every_search_of_the_command() {
    let scratch = Scratch::new();
    let file = scratch.file(
        "search97.ron",
        "Puzzle(graph: Cells(3), modulus: 97, buttons: [[(0, 42), (1, 20), (2, 51)], [(0, 84), (1, 7), (2, 10)], \
         [(0, 69), (1, 13), (2, 47)], [(0, 75), (1, 8), (2, 65)], [(0, 28), (1, 5), (2, 12)], [(0, 56), (1, 54), (2, 9)], \
         [(0, 31), (1, 12), (2, 71)], [(0, 55), (1, 8), (2, 73)], [(0, 16), (1, 29), (2, 81)], [(0, 81), (1, 75), (2, 8)], \
         [(0, 74), (1, 75), (2, 51)], [(0, 7), (1, 29), (2, 6)]], target: [1, 2, 3])",
    );
    let file = file.to_str().unwrap();
    let cases: [&[&str]; 3] = [&[], &["--minimize", "max"], &["--all", "--limit", "5"]];
    const BUDGET: u64 = 1_000_000;
    let solve = |extra: &[&str], budget: u64, json: bool| {
        let budget = budget.to_string();
        let mut args = vec![file, "--method", "search", "--budget", &budget];
        args.extend(extra);
        if json {
            args.push("--json");
        }
        let (output, _) = run(&args);
        assert_eq!(output.status.code(), Some(0), "{args:?}: {output:?}");
        stdout(&output)
    };
    for extra in cases {
        let text = solve(extra, BUDGET, false);
        assert!(text.contains("the budget ran out before the count"), "{text}");
        let reports: Vec<Value> = [BUDGET, 2 * BUDGET]
            .map(|budget| serde_json::from_str(&solve(extra, budget, true)).expect("JSON"))
            .into();
        let nodes: Vec<u64> = reports.iter().map(|r| r["search_nodes"].as_u64().expect("nodes")).collect();
        let counts: Vec<u64> =
            reports.iter().map(|r| r["count"].as_str().unwrap().parse().unwrap()).collect();
        eprintln!("{extra:?}: {nodes:?} nodes, at least {counts:?} plans");
        // The fewest plan, the objective asked for and the count share the one budget: all of
        // them together spend it (and the one tick each that finds it spent), no more. The
        // count gets what the plans left, which may be nothing.
        assert!(nodes[0] > BUDGET && nodes[0] <= BUDGET + 3, "{extra:?}: {nodes:?}");
        assert_eq!(reports[0]["count_exact"], Value::Bool(false));
        assert!(counts[1] >= counts[0], "{extra:?}: {counts:?}");
        if extra.is_empty() || extra[0] == "--all" {
            assert_eq!(nodes[1] - nodes[0], BUDGET, "{extra:?}");
        }
    }
    assert_eq!(solve(cases[1], BUDGET, true), solve(cases[1], BUDGET, true));
}

/// `check` on boards too large for a macro per cell leaves the macros out and says why, judged
/// from the board's size before any elimination; on a 200×200 board from `modsolve new` it
/// aborted at 3.5 GB.
#[test]
fn check_leaves_out_macros_it_cannot_afford() {
    let scratch = Scratch::new();
    let new = run(&["new", "grid", "--rows", "200", "--cols", "200"]).0;
    let file = scratch.file("g200.ron", &stdout(&new));
    let (output, _) = run(&["check", file.to_str().unwrap(), "--json"]);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let json: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert_eq!(json["macros"], Value::Null);
    assert_eq!(json["macros_left_out"], Value::from("too-large"));
    assert_eq!(json["all_starts_solvable"], Value::Bool(true));
    // Path(5000) fits in memory, but its 5000³ steps are past the few seconds allowed.
    let path = scratch.file("path.ron", "Puzzle(graph: Path(5000), modulus: 2, target: All(1))");
    let (output, _) = run(&["check", path.to_str().unwrap(), "--budget", "100ms", "--json"]);
    let json: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert_eq!(json["macros_left_out"], Value::from("too-large"));
    let small = scratch.file("p800.ron", "Puzzle(graph: Path(800), modulus: 3, target: All(1))");
    let (output, _) = run(&["check", small.to_str().unwrap(), "--budget", "10ms", "--json"]);
    let json: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert_eq!(json["macros_left_out"], Value::from("over-budget"));
    let (output, _) = run(&["check", small.to_str().unwrap(), "--budget", "20s", "--json"]);
    let json: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert_eq!(json["macros"].as_array().map(Vec::len), Some(800));
}

/// A 60×60 Lights Out board with a random start (seed 5): greedy play on it takes many presses
/// of 3600 button looks each.
fn random_60x60() -> modsolve::model::Puzzle {
    use rand::{RngExt, SeedableRng, rngs::StdRng};
    let mut rng = StdRng::seed_from_u64(5);
    let rows: Vec<String> = (0..60)
        .map(|_| {
            format!(
                "\"{}\"",
                (0..60).map(|_| if rng.random_bool(0.5) { '#' } else { '.' }).collect::<String>()
            )
        })
        .collect();
    let source =
        format!("Puzzle(graph: Grid(rows: 60, cols: 60), modulus: 2, start: Rows([{}]))", rows.join(", "));
    modsolve::parse_puzzle(&source).expect("valid")
}

/// Greedy play looks at every button for every press: `check` stops it at the end of the
/// budget and says so, instead of playing for hours on a big board (and no "no simple
/// strategy" warning is drawn from a game that did not finish).
#[test]
fn greedy_play_stops_at_the_deadline() {
    let puzzle = random_60x60();
    let at_once = modsolve::strategy::PlayLimit { deadline: Some(Instant::now()), looks: None };
    let stopped = modsolve::strategy::all_within(&puzzle, at_once);
    let greedy = stopped
        .iter()
        .find(|s| s.strategy == modsolve::strategy::Strategy::Greedy)
        .expect("greedy is played");
    assert!(!greedy.finished && !greedy.solves && greedy.presses <= 1, "{greedy:?}");
    assert!(
        stopped.iter().filter(|s| s.strategy != modsolve::strategy::Strategy::Greedy).all(|s| s.finished)
    );
    let played = modsolve::strategy::all(&puzzle);
    assert!(played.iter().all(|s| s.finished));
    assert!(
        played.iter().find(|s| s.strategy == modsolve::strategy::Strategy::Greedy).expect("played").presses
            > 1
    );
}

/// Under a node budget (the default kind), greedy play stops after as many looks as its limit
/// allows, on any machine, however busy: a look scores a button (each once at the start, 3600
/// on a 60×60 board) or rescores one after a press changed a cell of it (about 25 a press on
/// this Cross grid), so 10 000 looks stop it after a few hundred presses, the first presses of
/// its whole game. `check` gives it one node in 8 of its budget, a look costing one node and one
/// a cell the button changes (6 here): a budget of 480 000 nodes is those 10 000 looks, and
/// `check` reports it unfinished after the same presses.
#[test]
fn greedy_play_under_a_node_budget_stops_at_the_same_press_everywhere() {
    let puzzle = random_60x60();
    let greedy = |outcomes: Vec<modsolve::strategy::StrategyOutcome>| {
        outcomes.into_iter().find(|s| s.strategy == modsolve::strategy::Strategy::Greedy).expect("played")
    };
    let whole = greedy(modsolve::strategy::all(&puzzle));
    let limit = modsolve::strategy::PlayLimit { deadline: None, looks: Some(10_000) };
    let first = greedy(modsolve::strategy::all_within(&puzzle, limit));
    assert!(!first.finished && (100..whole.presses).contains(&first.presses), "{first:?} {whole:?}");
    assert_eq!(first.sequence[..], whole.sequence[..first.sequence.len()]);
    assert_eq!(greedy(modsolve::strategy::all_within(&puzzle, limit)).sequence, first.sequence);
    let report = modsolve::check::check(&puzzle, modsolve::Budget::of_nodes(480_000)).expect("checked");
    let checked = greedy(report.strategies);
    assert_eq!((checked.finished, checked.presses, checked.sequence), (false, first.presses, first.sequence));
}

/// A random graph of 6000 cells (degree 12) with moduli 2..12 takes far longer than 300 ms to
/// eliminate, densely or sparsely (it has no small separators):
/// `--timeout 300ms` answers "undecided" (exit 3), for `solve` and per file for `check`, whose
/// other files are still checked.
///
/// The command line's one wall-clock smoke test: the solve ends within a coarse bound, ten
/// times the timeout's bound (1.1 × 0.3 s + 0.2 s) and more, far below the minutes the whole
/// elimination takes.
#[test]
fn the_timeout_bounds_the_elimination() {
    use rand::{RngExt, SeedableRng, rngs::StdRng};
    let mut rng = StdRng::seed_from_u64(3);
    let n = 6000;
    let mut edges = std::collections::BTreeSet::new();
    while edges.len() < 6 * n {
        let (a, b) = (rng.random_range(0..n), rng.random_range(0..n));
        if a != b {
            edges.insert((a.min(b), a.max(b)));
        }
    }
    let edges: Vec<String> = edges.iter().map(|(a, b)| format!("({a}, {b})")).collect();
    let moduli: Vec<String> = (0..n).map(|_| rng.random_range(2..13u64).to_string()).collect();
    let scratch = Scratch::new();
    let file = scratch.file(
        "mixed.ron",
        &format!(
            "Puzzle(graph: Edges(cells: {n}, edges: [{}]), modulus: [{}], target: All(1))",
            edges.join(", "),
            moduli.join(", ")
        ),
    );
    let file = file.to_str().unwrap();
    let (output, took) = run(&[file, "--timeout", "300ms"]);
    assert_eq!(output.status.code(), Some(3), "{output:?}");
    let text = stdout(&output);
    assert!(
        text.contains(
            "Undecided: the timeout came before the analysis finished; a larger --timeout or --budget"
        ),
        "{text}"
    );
    assert!(took < Duration::from_secs(10), "{took:?}");
    let (output, _) = run(&[file, "--timeout", "300ms", "--json"]);
    let json: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert_eq!(json["solvable"], Value::Null);
    let octopus = puzzle("octopus.ron");
    let (output, _) = run(&["check", file, &octopus, "--timeout", "300ms"]);
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    let text = stdout(&output);
    assert!(text.contains("undecided: the timeout came before the check finished"), "{text}");
    assert!(text.contains("PASS") && text.contains("1 passed, 1 failed"), "{text}");
}

/// A time budget that ends the search says that the result depends on the machine; a node
/// budget (the default, or one given) does not need to.
#[test]
fn a_time_budget_says_the_result_depends_on_the_machine() {
    use rand::{RngExt, SeedableRng, rngs::StdRng};
    let mut rng = StdRng::seed_from_u64(3);
    let moduli: Vec<String> = (0..144).map(|_| rng.random_range(2..13u64).to_string()).collect();
    let scratch = Scratch::new();
    let file = scratch.file(
        "mixed.ron",
        &format!("Puzzle(graph: Grid(rows: 12, cols: 12), modulus: [{}], target: All(1))", moduli.join(", ")),
    );
    let file = file.to_str().unwrap();
    let note = "depends on this machine's speed";
    let (output, _) = run(&[file, "--budget", "200ms"]);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let text = stdout(&output);
    assert!(text.contains("not proven: the budget ran out") && text.contains(note), "{text}");
    let (output, _) = run(&[file, "--budget", "100000nodes"]);
    let text = stdout(&output);
    assert!(text.contains("not proven: the budget ran out") && !text.contains(note), "{text}");
    // JSON says the same as `machine_dependent`.
    let machine_dependent = |args: &[&str]| {
        let (output, _) = run(args);
        let document: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
        crate::serve::validate("solve", &document);
        (document["fewest"]["proof"].clone(), document["machine_dependent"].clone())
    };
    let cut = serde_json::json!("budget-ran-out");
    assert_eq!(machine_dependent(&[file, "--budget", "200ms", "--json"]), (cut.clone(), true.into()));
    assert_eq!(machine_dependent(&[file, "--budget", "100000nodes", "--json"]), (cut, false.into()));
}

/// The budget bounds only the best-effort search: a board whose elimination takes longer than
/// the budget (King 200×200 mod 3: about half a second) is still answered, with its exact count
/// and a verified plan, where a time budget once made it undecided. Under a time budget or a
/// node budget of 1000, the work after the elimination is the plain solve's: the same plan and
/// the same search nodes (none: its plan is proven from the algebra).
#[test]
fn the_budget_never_leaves_the_algebra_undecided() {
    let scratch = Scratch::new();
    let king = scratch.file(
        "king.ron",
        "Puzzle(graph: Grid(rows: 200, cols: 200, neighborhood: King), modulus: 3, target: All(1))",
    );
    let king = king.to_str().unwrap();
    let (plain, _) = run(&[king, "--budget", "0", "--json"]);
    assert_eq!(plain.status.code(), Some(0), "{plain:?}");
    let plain: Value = serde_json::from_slice(&plain.stdout).expect("JSON");
    for budget in ["10ms", "1000"] {
        let (output, _) = run(&[king, "--budget", budget, "--json"]);
        assert_eq!(output.status.code(), Some(0), "{output:?}");
        let json: Value = serde_json::from_slice(&output.stdout).expect("JSON");
        assert_eq!(json["solvable"], Value::Bool(true));
        assert_eq!(json["undecided"], Value::Null);
        assert_eq!((&json["count"], json["count_exact"].as_bool()), (&plain["count"], Some(true)));
        assert!(json["fewest"]["total_presses"].as_u64().is_some_and(|n| n > 0), "{}", json["fewest"]);
        assert_eq!((&json["fewest"], &json["search_nodes"]), (&plain["fewest"], &plain["search_nodes"]));
    }
}

/// Work whose estimated memory is above `--max-memory` (default: half the machine) is refused
/// before it starts, with the estimate, what dominates it and the limit: exit 2, nothing on
/// stdout; in a `check` batch the other files are still checked. (Started, the 10000×10000
/// torus would not end within the test's lifetime: the refusal is the stopping point.)
#[test]
fn memory_is_estimated_and_bounded() {
    let scratch = Scratch::new();
    let torus =
        scratch.file("torus.ron", "Puzzle(graph: Grid(rows: 10000, cols: 10000, wrap: true), modulus: 2)");
    let torus = torus.to_str().unwrap();
    let (output, _) = run(&[torus]);
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty());
    let err = String::from_utf8(output.stderr).expect("UTF-8");
    assert!(
        err.contains("needs about") && err.contains("GiB of memory (sparse elimination of 100000000 cells"),
        "{err}"
    );
    assert!(err.contains("raise --max-memory"), "{err}");
    let octopus = puzzle("octopus.ron");
    let (output, _) = run(&["check", torus, &octopus]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stdout(&output).contains("1 passed, 0 failed, 1 unreadable"));
    // generate and the par histogram judge candidates on every core at once.
    let out = scratch.path().join("levels");
    let (output, _) = run(&["generate", torus, "--out", out.to_str().unwrap(), "--count", "1"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("candidates at once"));
    assert!(!out.exists(), "nothing is written");
    let (output, _) = run(&["check", "--par-histogram", torus]);
    assert_eq!(output.status.code(), Some(2));
    let (output, _) = run(&[&octopus, "--max-memory", "1KiB"]);
    assert_eq!(output.status.code(), Some(2));
    let (output, _) = run(&[&octopus, "--max-memory", "1MiB"]);
    assert_eq!(output.status.code(), Some(0));
}

/// A path of 1.2 million cells has one modulus and unit weights: general propagation solves it
/// with one seed (it was refused: "propagation does not apply").
#[test]
fn long_paths_propagate() {
    let scratch = Scratch::new();
    let file = scratch.file("path.ron", "Puzzle(graph: Path(1200000), modulus: 2, target: All(1))");
    let (output, _) = run(&[file.to_str().unwrap(), "-v"]);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let err = String::from_utf8(output.stderr.clone()).expect("UTF-8");
    assert!(err.contains("general propagation, 1 symbolic seed;"), "{err}");
    assert!(stdout(&output).contains("Solutions: 1 plan"), "{}", stdout(&output));
}

/// A 200×200 King board mod 3 to `All(1)` has a quiet space of 3^400: its 400-plan basis cost
/// 22 s of 128-bit divisions (62 s at `--budget 1s` on a slower machine). Now the basis is
/// left out past its cost limit and the board solves in under a second: its stopping point is
/// an answer (exit 0) within a `--timeout` of 15 s, where the basis would leave it undecided
/// (exit 3), with no search node counted.
#[test]
fn a_huge_quiet_space_stays_within_the_budget() {
    let scratch = Scratch::new();
    let file = scratch.file(
        "king.ron",
        "Puzzle(graph: Grid(rows: 200, cols: 200, neighborhood: King), modulus: 3, target: All(1))",
    );
    let (output, _) = run(&[file.to_str().unwrap(), "--timeout", "15s"]);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    // The text rounds the count (about 190 digits); the JSON document has it whole.
    let text = stdout(&output);
    assert!(text.contains("\nQuiet patterns: ~"), "{text}");
    assert!(text.contains("\n(numbers past 40 digits are rounded here; --json has them whole)\n"), "{text}");
    let (output, _) = run(&[file.to_str().unwrap(), "--json"]);
    let json: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    // The quiet patterns and the zero plan form a group of order 3^k, k about 400.
    let quiet: num_bigint::BigUint =
        json["quiet_patterns"].as_str().and_then(|n| n.parse().ok()).expect("a count of quiet patterns");
    let order = quiet + 1u32;
    let k = (300..=420u32).find(|&k| num_bigint::BigUint::from(3u32).pow(k) == order);
    assert!(k.is_some(), "{text}");
    assert_eq!((&json["search_nodes"], &json["fewest"]["proof"]), (&Value::Null, &Value::from("proven")));
}

/// Press limits that bind: the count within them is exact when the press vectors within the
/// limits are few enough to walk whole (whatever the budget, and with periods past 64 bits);
/// otherwise it comes from a search, and when that is cut short the count is unknown, never the
/// algebra's count of all plans printed as exact; the plan shown respects the limits. Found by
/// fuzzing: the first said "internal error", the second "Not solvable" beside "3 plans".
#[test]
fn counts_within_press_limits_are_never_guessed() {
    let scratch = Scratch::new();
    let wide = scratch.file(
        "wide.ron",
        "Puzzle(graph: Cells(2), modulus: [2, 18446744073709551557], buttons: [[(0, 1), (1, 1)]], \
         target: [1, 1], max_presses: [0])",
    );
    let (output, _) = run(&[wide.to_str().unwrap(), "--json"]);
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    let json: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert_eq!(
        (json["solvable"].clone(), json["count"].clone(), json["count_exact"].clone()),
        (Value::Bool(false), Value::String("0".into()), Value::Bool(true))
    );
    let cut = scratch.file(
        "cut.ron",
        "Puzzle(graph: Cells(1), modulus: 3, buttons: [[(0, 1)], [(0, 1)]], start: [1], max_presses: All(0))",
    );
    // No press at all is the one vector within the limits: no plan, with or without a budget.
    for budget in [&["--budget", "0"][..], &[]] {
        let (output, _) = run(&[&[cut.to_str().unwrap()][..], budget].concat());
        assert_eq!(output.status.code(), Some(1), "{output:?}");
        assert!(stdout(&output).contains("Solutions within the press limits: 0 plans"), "{output:?}");
    }
    // 40 buttons of limit 1: 2^40 vectors, too many to walk. With no budget the count is
    // unknown; with the default the plan is proven and the count a lower bound.
    let many = scratch.file(
        "many.ron",
        &format!(
            "Puzzle(graph: Cells(1), modulus: 3, buttons: [{}], start: [1], max_presses: All(1))",
            vec!["[(0, 1)]"; 40].join(", ")
        ),
    );
    let (output, _) = run(&[many.to_str().unwrap(), "--budget", "0", "--json"]);
    assert_eq!(output.status.code(), Some(3), "{output:?}");
    let json: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert_eq!((json["solvable"].clone(), json["count_exact"].clone()), (Value::Null, Value::Bool(false)));
    let (output, _) = run(&[many.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let text = stdout(&output);
    assert!(text.contains("Fewest presses: 2 (proven)"), "{text}");
    assert!(text.contains("Solutions within the press limits: at least"), "{text}");
}

/// A scramble whose plans are few is counted: a scramble of all 25 presses of 5×5 Lights Out
/// makes one level, of 24 presses six up to rotation and reflection (of its 25 plans), so
/// asking for more says how many exist, before any candidate is judged, and writes nothing (it
/// was called "rare … raise --attempts", after every attempt); asking for that many makes them,
/// so the count is exact both ways.
#[test]
fn generate_says_how_many_distinct_levels_exist() {
    let scratch = Scratch::new();
    let lights = puzzle("lightsout-5x5.ron");
    for (presses, levels, noun) in [("25", 1, "level exists"), ("24", 6, "levels exist")] {
        let out = scratch.path().join(format!("levels-{presses}"));
        let (output, _) = run(&[
            "generate",
            &lights,
            "--scramble",
            presses,
            "--count",
            &(levels + 1).to_string(),
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_eq!(output.status.code(), Some(2), "{output:?}");
        let err = String::from_utf8_lossy(&output.stderr).into_owned();
        assert!(err.contains(&format!("only {levels} distinct {noun} for this spec")), "{err}");
        assert!(!err.contains("rare") && !out.exists(), "{err}");
        let (output, _) = run(&[
            "generate",
            &lights,
            "--scramble",
            presses,
            "--count",
            &levels.to_string(),
            "--out",
            out.to_str().unwrap(),
            "--json",
        ]);
        assert_eq!(output.status.code(), Some(0), "{output:?}");
        assert_eq!(std::fs::read_dir(&out).unwrap().count(), levels);
    }
}

/// `generate --timeout` bounds the whole run: past it the run stops (exit 3) and the JSON
/// document printed so far ends with the error; every level it lists is written, complete.
/// (Its 100,000 levels of 10,000,000 attempts would take hours: the exit code is the stopping
/// point.)
#[test]
fn generate_stops_at_its_timeout() {
    let scratch = Scratch::new();
    let template = scratch.file("grid.ron", "Puzzle(graph: Grid(rows: 12, cols: 12), modulus: 5)");
    let out = scratch.path().join("levels");
    let (output, _) = run(&[
        "generate",
        template.to_str().unwrap(),
        "--count",
        "100000",
        "--attempts",
        "10000000",
        "--out",
        out.to_str().unwrap(),
        "--json",
        "--timeout",
        "500ms",
    ]);
    assert_eq!(output.status.code(), Some(3), "{output:?}");
    let json: Value = serde_json::from_slice(&output.stdout).expect("one JSON document");
    assert_eq!(json["error"]["kind"], "budget", "{json}");
    assert!(json["error"]["message"].as_str().unwrap().contains("the timeout came"), "{json}");
    let listed = json["levels"].as_array().map_or(0, Vec::len);
    let written = std::fs::read_dir(&out).map_or(0, |d| d.count());
    assert_eq!(listed, written);
    for level in json["levels"].as_array().into_iter().flatten() {
        let text = std::fs::read_to_string(level["file"].as_str().unwrap()).unwrap();
        assert!(modsolve::parse_puzzle(&text).is_ok(), "{text}");
    }
}

/// More levels than a template has starts can never be made: refused before any candidate is
/// judged, from the count of starts (it ran without end with the default attempts), and `--budget` in minutes past 64 bits is a usage error (it
/// overflowed). Both found by fuzzing.
#[test]
fn impossible_counts_and_huge_budgets_are_refused() {
    let scratch = Scratch::new();
    let out = scratch.path().join("levels");
    let (output, _) = run(&[
        "generate",
        &puzzle("paradise.ron"),
        "--out",
        out.to_str().unwrap(),
        "--count",
        "18446744073709551615",
    ]);
    assert_eq!(output.status.code(), Some(2));
    let err = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(err.contains("levels cannot be made: this template has only 511 solvable starts"), "{err}");
    assert!(!out.exists());
    let (output, _) = run(&[&puzzle("octopus.ron"), "--budget", "18446744073709551615m"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("is too long a budget"));
}

/// A node budget gives the same report on every run, whatever else the machine does: an 8×8 grid
/// of mixed moduli (2 to 12 per cell, a fixed random start), whose fewest presses the budget
/// does not prove, solved twice for `total` and `max`, once with both cores kept busy by other
/// threads. The plan, the proof, the lower bound and the nodes are identical.
#[test]
fn a_node_budget_gives_the_same_report_on_a_busy_machine() {
    use rand::{RngExt, SeedableRng, rngs::StdRng};
    let mut rng = StdRng::seed_from_u64(6);
    let moduli: Vec<u64> = (0..64).map(|_| rng.random_range(2..=12)).collect();
    let start: Vec<u64> = moduli.iter().map(|&m| rng.random_range(0..m)).collect();
    let scratch = Scratch::new();
    let file = scratch.file(
        "mixed.ron",
        &format!("Puzzle(graph: Grid(rows: 8, cols: 8), modulus: {moduli:?}, start: {start:?})"),
    );
    let file = file.display().to_string();
    for objective in ["total", "max"] {
        let args = [&file, "--json", "--budget", "3000000", "--minimize", objective];
        let (quiet, _) = run(&args);
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let busy: Vec<_> = (0..2)
            .map(|_| {
                let stop = stop.clone();
                std::thread::spawn(move || {
                    let mut x = 0u64;
                    while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                        x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
                    }
                })
            })
            .collect();
        let (loaded, _) = run(&args);
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        busy.into_iter().for_each(|t| t.join().unwrap());
        assert_eq!(stdout(&quiet), stdout(&loaded), "{objective}");
        let report: serde_json::Value = serde_json::from_str(&stdout(&quiet)).unwrap();
        let plan = if objective == "total" { &report["fewest"] } else { &report["optimal"] };
        assert!(plan["lower_bound"].as_u64().is_some(), "{objective}: {report}");
        assert_eq!(plan["proven"], false, "{objective}: the budget must leave it unproven: {report}");
        assert!(
            plan["lower_bound"].as_u64() <= plan["total_presses"].as_u64() || objective == "max",
            "{report}"
        );
    }
}

/// The hostile puzzles of the default-budget review, written out: press limits that leave few
/// press vectors are walked whole, so the answer is exact (and the same) with no budget, a tiny
/// one and the default. They were "Undecided" at `--budget 0` and `1000nodes` (the 2×3 grid),
/// "Fewest presses: 20 (proven)" for `--minimize max` (the 3×5 torus), and 181 million nodes
/// (the 3×5 King torus, whose 1,536 vectors within its limits hold 2 plans).
#[test]
fn small_press_limits_are_walked_whole_at_any_budget() {
    let scratch = Scratch::new();
    let grid = scratch.file(
        "grid.ron",
        "Puzzle(graph: Grid(rows: 2, cols: 3, neighborhood: Cross), modulus: [8, 6, 3, 9, 11, 11], \
         press: (self: 1, neighbors: 4), max_presses: [100, 100, 3, 1, 0, 2], \
         start: [7, 5, 0, 3, 3, 7], target: [7, 3, 1, 2, 9, 6])",
    );
    let torus = scratch.file(
        "torus.ron",
        "Puzzle(graph: Grid(rows: 3, cols: 5, neighborhood: Cross, wrap: true), \
         modulus: [4, 12, 8, 6, 3, 4, 2, 2, 6, 11, 12, 3, 12, 8, 7], press: (self: 10, neighbors: -2), \
         max_presses: [3, 0, 1, 1, 0, 1, 1, 3, 0, 0, 3, 0, 2, 100, 0], \
         start: [0, 4, 2, 4, 1, 0, 0, 0, 4, 0, 4, 2, 10, 4, 4])",
    );
    let king = scratch.file(
        "king.ron",
        "Puzzle(graph: Grid(rows: 3, cols: 5, neighborhood: King, wrap: true), modulus: 6, \
         press: (self: 5, neighbors: -1), max_presses: [3, 0, 100, 0, 1, 1, 0, 1, 3, 0, 0, 0, 0, 0, 1], \
         start: [1, 5, 5, 2, 3, 4, 3, 5, 3, 2, 2, 4, 0, 4, 0], \
         target: [3, 5, 1, 4, 3, 0, 3, 1, 5, 2, 4, 4, 2, 0, 0])",
    );
    let cases = [
        (&grid, None, "total", 120, 120, "1", 114_048),
        (&torus, Some("max"), "max", 15, 20, "1", 258_048),
        (&king, None, "total", 8, 8, "2", 1_536),
    ];
    for (file, minimize, objective, measure, total, count, vectors) in cases {
        for budget in ["0", "1000nodes", "200000000"] {
            let mut args = vec![file.to_str().unwrap(), "--json", "--budget", budget];
            if let Some(m) = minimize {
                args.extend(["--minimize", m]);
            }
            let (output, _) = run(&args);
            assert_eq!(output.status.code(), Some(0), "{args:?} {output:?}");
            let json: Value = serde_json::from_slice(&output.stdout).expect("JSON");
            let plan = if minimize.is_some() { &json["optimal"] } else { &json["fewest"] };
            assert_eq!(plan["objective"], Value::from(objective), "{args:?}");
            assert_eq!(plan["proof"], Value::from("proven"), "{args:?}");
            assert_eq!(plan["lower_bound"], Value::from(measure), "{args:?}");
            assert_eq!(plan["total_presses"], Value::from(total), "{args:?}");
            assert_eq!(
                (json["count"].clone(), json["count_exact"].clone()),
                (Value::from(count), Value::Bool(true))
            );
            // The work is the box's vectors, counted: the same on every machine.
            assert_eq!(json["search_nodes"], Value::from(vectors), "{args:?}");
        }
    }
}

/// A start that already meets its target is 0 presses, proven, with no search: a 4679×41 board
/// (a published quiet-pattern case, which searched for minutes) and a 999×999 board solved in
/// compact form (which said "not proven").
#[test]
fn a_start_at_its_target_is_zero_presses_proven() {
    let scratch = Scratch::new();
    for (name, rows, cols) in [("tall.ron", 4679, 41), ("big.ron", 999, 999)] {
        let file =
            scratch.file(name, &format!("Puzzle(graph: Grid(rows: {rows}, cols: {cols}), modulus: 2)"));
        let (output, _) = run(&[file.to_str().unwrap()]);
        assert_eq!(output.status.code(), Some(0), "{output:?}");
        assert!(stdout(&output).contains("Fewest presses: 0 (proven)"), "{}", stdout(&output));
        let (output, _) = run(&[file.to_str().unwrap(), "--minimize", "max", "--json"]);
        let json: Value = serde_json::from_slice(&output.stdout).expect("JSON");
        assert_eq!(json["fewest"]["proof"], Value::from("proven"));
        assert_eq!(json["fewest"]["lower_bound"], Value::from(0));
    }
}

/// Every plan that is not proven carries a lower bound, at or below it: past 20,000 buttons (the
/// 4679×41 board with every light to turn on printed `"lower_bound": null`) and with no budget
/// on a dense mixed system, where the counting bound stands in for the relaxations.
#[test]
fn every_plan_not_proven_has_a_lower_bound() {
    let scratch = Scratch::new();
    let tall =
        scratch.file("tall.ron", "Puzzle(graph: Grid(rows: 4679, cols: 41), modulus: 2, target: All(1))");
    // A dense system of 60 buttons on 60 cells, moduli 2..=12.
    let n = 60usize;
    let moduli: Vec<u64> = (0..n).map(|i| 2 + (i as u64 * 7) % 11).collect();
    let buttons: Vec<String> = (0..n)
        .map(|j| {
            let effects: Vec<String> =
                (0..n).map(|i| format!("({i}, {})", (i * 31 + j * 17 + 5) as u64 % moduli[i])).collect();
            format!("[{}]", effects.join(", "))
        })
        .collect();
    let start: Vec<String> = (0..n).map(|i| ((i * 13 + 1) as u64 % moduli[i]).to_string()).collect();
    let list = |v: Vec<String>| v.join(", ");
    let dense = scratch.file(
        "dense.ron",
        &format!(
            "Puzzle(graph: Cells({n}), modulus: [{}], buttons: [{}], start: [{}])",
            list(moduli.iter().map(u64::to_string).collect()),
            list(buttons),
            list(start)
        ),
    );
    for (file, budget) in [(&tall, "200000000"), (&dense, "0"), (&tall, "0")] {
        let (output, _) = run(&[file.to_str().unwrap(), "--json", "--budget", budget]);
        assert_eq!(output.status.code(), Some(0), "{output:?}");
        let json: Value = serde_json::from_slice(&output.stdout).expect("JSON");
        let fewest = &json["fewest"];
        assert_eq!(fewest["proof"], Value::from("budget-ran-out"), "{budget}");
        let bound = fewest["lower_bound"].as_u64().expect("a lower bound");
        let total = fewest["total_presses"].as_u64().expect("a plan");
        assert!(0 < bound && bound <= total, "{bound} {total}");
    }
}

/// `--minimize max` under a budget too small for its own search still answers `max`: the
/// fewest-presses plan, scored for `max`, not proven, with its bound (it printed "Fewest presses:
/// … (proven)" alone).
#[test]
fn the_objective_asked_is_always_answered() {
    let scratch = Scratch::new();
    let moduli: Vec<String> = (0..64).map(|i| (2 + (i * 5) % 11).to_string()).collect();
    let start: Vec<String> = (0..64).map(|i| ((i * 3 + 1) % (2 + (i * 5) % 11)).to_string()).collect();
    let grid = scratch.file(
        "grid.ron",
        &format!(
            "Puzzle(graph: Grid(rows: 8, cols: 8), modulus: [{}], start: [{}])",
            moduli.join(", "),
            start.join(", ")
        ),
    );
    let (output, _) = run(&[grid.to_str().unwrap(), "--minimize", "max", "--budget", "1000nodes"]);
    let text = stdout(&output);
    assert_eq!(output.status.code(), Some(0), "{text}");
    assert!(text.contains("Smallest largest press count: "), "{text}");
    assert!(text.contains("(not proven: the budget ran out; at least "), "{text}");
}

/// Par samples count a fixed cost each: a 3×3 board asked for 2^64 − 1 samples under the default
/// budget stops at a fixed number (it sampled for minutes): at most one sample per 1,000 nodes
/// of the budget, and the same number on a second run.
#[test]
fn par_samples_of_a_tiny_board_end_under_the_default_budget() {
    let file = puzzle("lightsout-3x3.ron");
    let args = ["check", &file, "--par-histogram", "--samples", "18446744073709551615", "--json"];
    let taken = || {
        let (output, _) = run(&args);
        let json: Value = serde_json::from_slice(&output.stdout).expect("JSON");
        assert_eq!(json["complete"], Value::Bool(false));
        json["taken"].as_u64().expect("taken")
    };
    let first = taken();
    assert!((50_000..=200_000).contains(&first), "{first}");
    assert_eq!(taken(), first);
}

/// The searches of one command share its node budget: on an 8×8 grid of mixed moduli whose
/// fewest presses the budget does not prove, `--minimize max` (a search for the fewest presses,
/// then one for `max`) reports no more nodes than the budget, with both engines, and the nodes
/// the `max` search used are in the count (more than the fewest-presses search alone).
#[test]
fn the_searches_of_one_command_share_its_node_budget() {
    use modsolve::{Budget, Engine, Objective, Options, analyse};
    let moduli: Vec<u64> = (0..64).map(|i| 2 + (i * 5) % 11).collect();
    let start: Vec<u64> = moduli.iter().enumerate().map(|(i, &m)| (i as u64 * 3 + 1) % m).collect();
    let puzzle = modsolve::parse_puzzle(&format!(
        "Puzzle(graph: Grid(rows: 8, cols: 8), modulus: {moduli:?}, start: {start:?})"
    ))
    .unwrap();
    for (engine, nodes) in [(Engine::Algebra, 1_000_000u64), (Engine::Search, 200_000)] {
        let options = |objective| {
            Options::default().engine(engine).objective(objective).budget(Budget::of_nodes(nodes))
        };
        let max = analyse(&puzzle, &options(Objective::Max)).unwrap();
        let used = max.search_nodes.expect("searched");
        // One search step past the budget at most: the largest step counts a few hundred nodes.
        assert!(used <= nodes + 1_000, "{engine:?}: {used} nodes of {nodes}");
        let total = analyse(&puzzle, &options(Objective::Total)).unwrap();
        assert!(total.search_nodes.expect("searched") <= used, "{engine:?}");
    }
}
