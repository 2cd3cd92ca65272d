//! The library and the command line are one product.
//!
//! - `modsolve::analyse` answers exactly what `modsolve FILE --json` prints, on every shipped
//!   puzzle (under several options) and on a 1000 × 1000 board that takes the compact path;
//! - every JSON document the command line prints (solve, check, the par histogram, generate,
//!   hint, and errors) is valid against its schema in `schema/` and carries `"version": 1`;
//! - a mistyped subcommand gets clap's suggestion.

use std::path::Path;

use modsolve::solve::{Budget, Objective};
use modsolve::{Engine, Options, analyse, parse_puzzle};
use serde_json::Value;

use crate::util::{Scratch, load, modsolve, shipped_files};

/// Runs the binary; returns the exit code and standard output.
fn run(args: &[&str]) -> (i32, Vec<u8>) {
    let output = modsolve().args(args).output().expect("runs");
    (output.status.code().expect("exited"), output.stdout)
}

fn json_of(stdout: &[u8]) -> Value {
    serde_json::from_slice(stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(stdout)))
}

/// The options of each command line compared: the search budgets are node counts, so that
/// both sides do exactly the same work.
fn cases() -> Vec<(Vec<&'static str>, Options)> {
    let nodes = Budget::of_nodes(5_000_000);
    let base = Options::default().budget(nodes);
    vec![
        (vec!["--budget", "5000000"], base),
        (vec!["--budget", "5000000", "--minimize", "max"], base.objective(Objective::Max)),
        (vec!["--budget", "5000000", "--all", "--limit", "5"], base.list_all(true).list_limit(5)),
        (
            vec!["--budget", "200000", "--method", "search"],
            base.engine(Engine::Search).budget(Budget::of_nodes(200_000)),
        ),
    ]
}

#[test]
fn the_library_answers_what_the_command_line_prints() {
    let mut compared = 0;
    for path in shipped_files() {
        let puzzle = load(&std::fs::read_to_string(&path).unwrap());
        for (flags, options) in cases() {
            let mut args = vec![path.to_str().unwrap(), "--json"];
            args.extend(&flags);
            let (code, stdout) = run(&args);
            match analyse(&puzzle, &options) {
                Ok(report) => {
                    let library = serde_json::to_value(&report).unwrap();
                    assert_eq!(json_of(&stdout), library, "{args:?}");
                    let expected = match report.solvable {
                        Some(true) => 0,
                        Some(false) => 1,
                        None => 3,
                    };
                    assert_eq!(code, expected, "{args:?}");
                    compared += 1;
                }
                // The library refuses what the command line refuses (staged presses with the
                // search solver): exit 2 and a JSON error.
                Err(e) => {
                    assert_eq!(code, 2, "{args:?}: {e}");
                    assert_eq!(json_of(&stdout)["error"]["message"], e.to_string(), "{args:?}");
                }
            }
        }
    }
    assert!(compared >= 40, "{compared}");
}

/// A 1000 × 1000 board takes the compact path on both sides: the same plan, count and fields.
#[test]
fn a_million_cell_board_is_the_same_through_both() {
    let source = format!(
        "Puzzle(graph: Grid(rows: 1000, cols: 1000), modulus: 2, start: Rows([{}]))",
        (0..1000)
            .map(|r| format!(
                "\"{}\"",
                (0..1000).map(|c| if (r * 7 + c * 13) % 5 == 0 { '#' } else { '.' }).collect::<String>()
            ))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let scratch = Scratch::new();
    let file = scratch.file("million.ron", &source);
    let puzzle = parse_puzzle(&source).unwrap();
    let report = analyse(&puzzle, &Options::default().budget(Budget::of_nodes(1_000_000))).unwrap();
    assert_eq!(report.elimination, Some(modsolve::report::Elimination::LightChasing));
    let (code, stdout) = run(&[file.to_str().unwrap(), "--json", "--budget", "1000000"]);
    let printed = json_of(&stdout);
    assert_eq!(printed, serde_json::to_value(&report).unwrap());
    assert_eq!(code, if report.solvable == Some(true) { 0 } else { 1 });
    // The printed plan solves the board (the library simulated it; so does this test).
    if let Some(presses) = printed["presses"].as_array() {
        let x: Vec<num_bigint::BigUint> = presses.iter().map(|v| v.as_u64().unwrap().into()).collect();
        assert!(puzzle.solves(&x));
    }
    validate("solve", &printed);
}

/// The schemas, compiled once.
fn schema(name: &str) -> jsonschema::Validator {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("schema").join(format!("{name}.schema.json"));
    let schema: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    jsonschema::validator_for(&schema).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

pub(crate) fn validate(name: &str, document: &Value) {
    let validator = schema(name);
    let errors: Vec<String> =
        validator.iter_errors(document).map(|e| format!("{} at {}", e, e.instance_path())).collect();
    assert!(errors.is_empty(), "not a valid {name} document:\n{}\n{document:#}", errors.join("\n"));
    assert_eq!(document["version"], 1, "{document}");
}

#[test]
fn every_json_document_matches_its_schema() {
    let dir = Scratch::new();
    let write = |name: &str, text: &str| dir.file(name, text).to_str().unwrap().to_string();
    let mut files: Vec<String> = shipped_files().iter().map(|p| p.to_str().unwrap().to_string()).collect();
    let broken = write("broken.ron", "Puzzle(graph: Grid(rows: 3, cols: 3), modulus: 2, colour: 1)");
    let big = write("big.ron", "Puzzle(graph: Grid(rows: 600, cols: 500), modulus: 3, target: All(1))");
    let slow =
        write("slow.ron", "Puzzle(graph: Grid(rows: 40, cols: 40, wrap: true), modulus: 6, target: All(1))");
    let mut documents = 0;
    let mut check = |kind: &str, args: &[&str], codes: &[i32]| {
        let (code, stdout) = run(args);
        assert!(codes.contains(&code), "{args:?} exited {code}");
        validate(kind, &json_of(&stdout));
        documents += 1;
    };
    for file in &files {
        for extra in [
            &[][..],
            &["--minimize", "buttons"],
            &["--all", "--limit", "3"],
            &["--method", "search", "--budget", "100000"],
        ] {
            let mut args = vec![file.as_str(), "--json"];
            args.extend(extra);
            // Staged puzzles refuse the search solver and listing: a JSON error, exit 2.
            let staged = (extra.contains(&"search") || extra.contains(&"--all"))
                && std::fs::read_to_string(file).unwrap().contains("phases");
            check(if staged { "error" } else { "solve" }, &args, if staged { &[2] } else { &[0, 1, 3] });
        }
        check("check", &["check", file, "--json"], &[0, 1]);
        check("hint", &["hint", file, "--json"], &[0, 1]);
        check("hint", &["hint", file, "--steps", "--pressed", "0,1,1", "--json"], &[0, 1]);
    }
    check("solve", &[&big, "--json"], &[0, 1]);
    check("solve", &[&slow, "--json", "--budget", "1ms"], &[0, 1, 3]);
    check("error", &[&broken, "--json"], &[2]);
    check("error", &["no-such-file.ron", "--json"], &[2]);
    check("error", &["--json", "--budget", "soon"], &[2]);
    check("error", &[&files[0], "--json", "--max-memory", "1k"], &[2]);
    check("hint", &["hint", &big, "--steps", "--json"], &[0, 1]);
    check("hint", &["hint", &slow, "--json", "--budget", "1ms"], &[0, 1, 3]);
    check("error", &["hint", &files[0], "--pressed", "x", "--json"], &[2]);
    check("error", &["hint", &broken, "--json"], &[2]);
    files.push(broken.clone());
    let mut all: Vec<&str> = vec!["check", "--json"];
    all.extend(files.iter().map(String::as_str));
    check("check", &all, &[2]);
    check("check", &["check", &broken, "--json"], &[2]);
    check("check", &["check", &slow, "--json", "--budget", "1ms"], &[0, 1]);
    check("check", &["check", "--par-histogram", "--samples", "20", "--json", &files[0]], &[0]);
    check("check", &["check", "--par-histogram", "--samples", "20", "--json", &files[0], &files[1]], &[0]);
    check("check", &["check", "--par-distribution", "--json", &files[0]], &[0]);
    check("check", &["check", "--par-distribution", "--json", &files[0], &files[1]], &[0]);
    let sampled = ["check", "--par-distribution", "--exact-limit", "10", "--samples", "20", "--json"];
    check("check", &[&sampled[..], &[files[0].as_str()]].concat(), &[0]);
    check("check", &[&sampled[..], &[files[0].as_str(), files[1].as_str()]].concat(), &[0]);
    let out = dir.path().join("levels");
    let template = shipped_files().into_iter().find(|p| p.ends_with("lightsout-5x5.ron")).unwrap();
    let template = template.to_str().unwrap();
    let out = out.to_str().unwrap();
    check("generate", &["generate", template, "--out", out, "--count", "3", "--json"], &[0]);
    let scrambled =
        ["generate", template, "--out", out, "--count", "3", "--json", "--force", "--scramble", "5"];
    check("generate", &scrambled, &[0]);
    check("generate", &[&scrambled[..], &["--deny-warnings"]].concat(), &[0, 1]);
    check(
        "generate",
        &["generate", template, "--out", out, "--count", "9", "--json", "--force", "--attempts", "2"],
        &[1],
    );
    check("error", &["generate", template, "--out", out, "--count", "3", "--json"], &[2]);
    assert!(documents >= 70, "{documents}");
}

#[test]
fn a_mistyped_subcommand_gets_a_suggestion() {
    let output = modsolve().args(["chek", "level.ron"]).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.contains("unrecognized subcommand 'chek'"), "{stderr}");
    assert!(stderr.contains("a similar subcommand exists: 'check'"), "{stderr}");
    let output = modsolve().args(["generat"]).output().unwrap();
    assert!(String::from_utf8(output.stderr).unwrap().contains("'generate'"));
}

/// `check --json` shows each strategy's presses in order: replayed on the puzzle they reach
/// what the report says (the target exactly when the strategy solves it).
#[test]
fn strategy_sequences_replay_to_what_the_check_says() {
    let mut replayed = 0;
    for path in shipped_files() {
        let puzzle = load(&std::fs::read_to_string(&path).unwrap());
        let (_, stdout) = run(&["check", path.to_str().unwrap(), "--json"]);
        let json = json_of(&stdout);
        for strategy in json["strategies"].as_array().unwrap() {
            let sequence: Vec<usize> = strategy["sequence"]
                .as_array()
                .unwrap()
                .iter()
                .map(|j| j.as_u64().unwrap() as usize)
                .collect();
            assert_eq!(strategy["sequence_complete"], true, "{strategy}");
            assert_eq!(strategy["presses"].as_u64().unwrap() as usize, sequence.len(), "{strategy}");
            let solves = strategy["solves"].as_bool().unwrap();
            let reached = if puzzle.phases().is_some() {
                // Staged presses stop at a win part-way: the game's own replay.
                modsolve::strategy::replay(&puzzle, &sequence) == Some(sequence.len())
            } else {
                let mut counts = vec![num_bigint::BigUint::from(0u32); puzzle.button_count()];
                for &j in &sequence {
                    counts[j] += 1u32;
                }
                puzzle.solves(&counts)
            };
            assert_eq!(reached, solves, "{}: {strategy}", path.display());
            replayed += 1;
        }
    }
    assert!(replayed >= 30, "{replayed}");
}
