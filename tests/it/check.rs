//! `modsolve check` against independent computation: solvable start fractions by enumerating
//! every reachable difference, macros and quiet patterns by simulation, every finding code
//! triggered and not triggered, the classic Lights Out facts, and batch exit codes.

use std::collections::HashSet;

use assert_cmd::Command;
use modsolve::check::{FindingCode, Severity, check};
use modsolve::model::Puzzle;
use modsolve::solve::Budget;
use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::ToPrimitive;
use rand::{SeedableRng, rngs::StdRng};

use crate::util::{Scratch, Shape, load, odometer, random_puzzle};

fn budget() -> Budget {
    Budget::of_nodes(10_000_000)
}

/// Every difference `A·x` reachable by some press vector, by enumeration.
fn reachable(puzzle: &Puzzle) -> HashSet<Vec<u64>> {
    let n = puzzle.button_count();
    let effects: Vec<_> = (0..n).map(|j| puzzle.effects(j)).collect();
    let bound: Vec<u64> = effects
        .iter()
        .map(|e| e.iter().map(|&(i, _)| puzzle.moduli()[i]).fold(1u64, |l, m| l.lcm(&m)))
        .collect();
    let mut out = HashSet::new();
    odometer(&bound, |x| {
        let mut d = vec![0u64; puzzle.cell_count()];
        for (j, e) in effects.iter().enumerate() {
            for &(i, a) in e {
                d[i] = (d[i] + a * x[j]) % puzzle.moduli()[i];
            }
        }
        out.insert(d);
    });
    out
}

#[test]
fn solvable_starts_macros_and_quiet_patterns_against_enumeration() {
    let mut rng = StdRng::seed_from_u64(44);
    for _ in 0..400 {
        let puzzle = random_puzzle(&mut rng, &Shape::default());
        let report = check(&puzzle, budget()).expect("verified");
        let image = reachable(&puzzle);
        let space: u64 = puzzle.moduli().iter().product();
        let (a, b) = &report.solvable_starts;
        let g = (image.len() as u64).gcd(&space);
        assert_eq!(
            (a.to_u64().unwrap(), b.to_u64().unwrap()),
            (image.len() as u64 / g, space / g),
            "{puzzle:?}"
        );
        assert_eq!(report.all_starts_solvable, image.len() as u64 == space, "{puzzle:?}");
        // The unsolvable start really is: its difference is not reachable.
        if let Some(start) = &report.unsolvable_start {
            let d: Vec<u64> = (0..puzzle.cell_count())
                .map(|i| (puzzle.target()[i] + puzzle.moduli()[i] - start[i]) % puzzle.moduli()[i])
                .collect();
            assert!(!image.contains(&d), "{puzzle:?}");
        }
        assert_eq!(report.unsolvable_start.is_none(), report.all_starts_solvable);
        let zero = vec![0u64; puzzle.cell_count()];
        for (i, plan) in report.macros.as_ref().expect("small boards list their macros").iter().enumerate() {
            let mut unit = zero.clone();
            unit[i] = 1;
            assert_eq!(plan.is_some(), image.contains(&unit), "macro {i} of {puzzle:?}");
            if let Some(plan) = plan {
                assert_eq!(puzzle.apply(&zero, plan), unit, "macro {i} of {puzzle:?}");
            }
        }
        let mut group = BigUint::from(1u32);
        for (g, order) in &report.quiet_basis {
            assert_eq!(puzzle.apply(&zero, g), zero, "quiet basis of {puzzle:?}");
            group *= order;
        }
        assert_eq!(Some(group - 1u32), report.analysis.quiet_patterns, "{puzzle:?}");
    }
}

fn codes(source: &str) -> Vec<FindingCode> {
    check(&load(source), budget()).unwrap().findings.iter().map(|f| f.code).collect()
}

/// The codes and severities `modsolve check --json` prints for a puzzle, with a node budget.
fn emitted(source: &str, nodes: u64) -> Vec<(String, String)> {
    let dir = Scratch::new();
    let path = dir.file("case.ron", source);
    let out = Command::cargo_bin("modsolve")
        .unwrap()
        .args(["check", "--json", "--budget", &nodes.to_string()])
        .arg(&path)
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let warnings = json["warnings"].as_array().unwrap_or_else(|| panic!("{json}"));
    warnings
        .iter()
        .map(|w| (w["code"].as_str().unwrap().to_string(), w["severity"].as_str().unwrap().to_string()))
        .collect()
}

/// Each finding code: a puzzle that triggers it, in the library and in what the binary prints
/// (with its severity), and a clean puzzle that triggers none.
#[test]
fn every_finding_code_is_triggered_and_not() {
    // Solvable by light chasing, the intended plan is the fewest: nothing to say.
    let clean = "Puzzle(graph: Grid(rows: 3, cols: 3), modulus: 2, start: Rows([\".#.\", \"###\", \".#.\"]), intended: [0,0,0,0,1,0,0,0,0])";
    let cases: &[(&str, &str)] = &[
        (
            "unsolvable",
            "Puzzle(graph: Grid(rows: 4, cols: 4), modulus: 2, start: [1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0])",
        ),
        (
            "idle-button",
            "Puzzle(graph: Cells(2), modulus: 2, buttons: [[(0, 1)], [(1, 2)], [(1, 1)]], target: [1, 1])",
        ),
        (
            "duplicate-buttons",
            "Puzzle(graph: Cells(2), modulus: 3, buttons: [[(0, 1)], [(0, 4)], [(1, 1)]], target: [1, 1])",
        ),
        ("untouched-cell", "Puzzle(graph: Cells(2), modulus: 2, buttons: [[(0, 1)]], target: [1, 0])"),
        ("already-solved", "Puzzle(graph: Path(3), modulus: 2)"),
        ("intended-fails", "Puzzle(graph: Path(2), modulus: 2, target: [1, 0], intended: [1, 0])"),
        ("intended-not-fewest", "Puzzle(graph: Path(2), modulus: 3, target: [1, 1], intended: [2, 2])"),
        ("no-simple-strategy", "Puzzle(graph: Grid(rows: 5, cols: 5), modulus: 2, target: All(1))"),
        ("par-not-proven", "Puzzle(graph: Grid(rows: 19, cols: 19), modulus: 2, target: All(1))"),
    ];
    assert_eq!(codes(clean), Vec::<FindingCode>::new(), "the clean puzzle has no findings");
    assert_eq!(emitted(clean, 10_000_000), Vec::<(String, String)>::new());
    let mut covered = Vec::new();
    for &(name, source) in cases {
        // par-not-proven needs a budget too small to walk 19×19's 65,536 plans.
        let nodes = if name == "par-not-proven" { 100 } else { 10_000_000 };
        let found: Vec<FindingCode> =
            check(&load(source), Budget::of_nodes(nodes)).unwrap().findings.iter().map(|f| f.code).collect();
        let code = *found
            .iter()
            .find(|c| c.as_str() == name)
            .unwrap_or_else(|| panic!("{name} not triggered by {source}: {found:?}"));
        let printed = emitted(source, nodes);
        let severity = code.severity().as_str();
        assert!(printed.contains(&(name.to_string(), severity.to_string())), "{name}: {printed:?}");
        // Only no-simple-strategy is a note: it describes the puzzle and never fails it.
        assert_eq!(code.severity() == Severity::Note, name == "no-simple-strategy", "{name}");
        // Every code printed is one the library emitted, under its own name.
        let names: Vec<&str> = found.iter().map(|c| c.as_str()).collect();
        assert!(printed.iter().all(|(n, _)| names.contains(&n.as_str())), "{printed:?} vs {names:?}");
        covered.push(code);
    }
    covered.sort();
    assert_eq!(covered, FindingCode::ALL.to_vec(), "every code has a case that triggers it");
}

/// Classic facts: 5×5 has 3 quiet patterns and 1 in 4 starts solvable; 4×4 has 15.
#[test]
fn classic_lights_out_facts() {
    let five =
        check(&load("Puzzle(graph: Grid(rows: 5, cols: 5), modulus: 2, target: All(1))"), budget()).unwrap();
    assert_eq!(five.analysis.quiet_patterns, Some(BigUint::from(3u32)));
    assert_eq!(five.solvable_starts, (BigUint::from(1u32), BigUint::from(4u32)));
    assert!(!five.all_starts_solvable);
    let four =
        check(&load("Puzzle(graph: Grid(rows: 4, cols: 4), modulus: 2, target: All(1))"), budget()).unwrap();
    assert_eq!(four.analysis.quiet_patterns, Some(BigUint::from(15u32)));
    assert_eq!(four.solvable_starts, (BigUint::from(1u32), BigUint::from(16u32)));
}

/// Seed 004's single-node formulas for the sunflowers (1-based nodes).
#[test]
fn seed004_sunflower_macros() {
    let source =
        std::fs::read_to_string(format!("{}/puzzles/sunflowers.ron", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let report = check(&load(&source), budget()).unwrap();
    let expected: [&[usize]; 7] =
        [&[3, 5, 6, 7], &[2, 3, 5], &[1, 2, 6, 7], &[6, 7], &[1, 2, 5], &[1, 3, 4, 6, 7], &[1, 3, 4, 6]];
    for (cell, nodes) in expected.iter().enumerate() {
        let mut plan = vec![BigUint::from(0u32); 7];
        for &node in *nodes {
            plan[node - 1] = BigUint::from(1u32);
        }
        assert_eq!(report.macros.as_ref().expect("listed")[cell].as_ref(), Some(&plan), "node {}", cell + 1);
    }
}

fn write(dir: &Scratch, name: &str, text: &str) -> String {
    dir.file(name, text).display().to_string()
}

/// Batch exit codes: 0 all pass, 1 any unsolvable, 2 any unreadable; JSON has one object per
/// file and a broken file does not stop the others.
#[test]
fn batch_exit_codes() {
    let dir = Scratch::new();
    let good = write(&dir, "good.ron", "Puzzle(graph: Grid(rows: 3, cols: 3), modulus: 2, target: All(1))");
    let bad = write(
        &dir,
        "bad.ron",
        "Puzzle(graph: Grid(rows: 4, cols: 4), modulus: 2, start: Rows([\"#...\", \"....\", \"....\", \"....\"]))",
    );
    let broken = write(&dir, "broken.ron", "Puzzle(graph: Grid(rows: 3, cols: 3), modulus: 2");
    let run = |files: &[&str]| {
        let out =
            Command::cargo_bin("modsolve").unwrap().arg("check").args(files).arg("--json").output().unwrap();
        (out.status.code(), serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap())
    };
    let (code, json) = run(&[&good]);
    assert_eq!(code, Some(0));
    assert_eq!(json["solvable"], true);
    assert_eq!(json["par"], 5);
    assert_eq!(json["solvable_starts"], "1/1");
    assert_eq!(json["quiet_patterns"], "0");
    let (code, json) = run(&[&good, &bad]);
    assert_eq!(code, Some(1));
    assert_eq!(json["version"], 1);
    assert_eq!(
        json["summary"],
        // 3×3's no-simple-strategy is a note, not a warning.
        serde_json::json!({"passed": 1, "failed": 1, "unreadable": 0, "warnings": 0})
    );
    let warnings: usize = (json["files"].as_array().unwrap().iter())
        .map(|f| f["warnings"].as_array().unwrap().iter().filter(|w| w["severity"] == "warning").count())
        .sum();
    assert_eq!(warnings, 0, "the summary counts the files' warnings");
    let notes: usize = (json["files"].as_array().unwrap().iter())
        .map(|f| f["warnings"].as_array().unwrap().iter().filter(|w| w["severity"] == "note").count())
        .sum();
    assert_eq!(notes, 1, "3×3's no-simple-strategy is listed, as a note");
    let files = &json["files"];
    assert_eq!(files.as_array().unwrap().len(), 2);
    assert_eq!(files[1]["solvable"], false);
    assert_eq!(files[1]["par"], serde_json::Value::Null);
    assert_eq!(files[1]["solvable_starts"], "1/16");
    let (code, json) = run(&[&good, &bad, &broken]);
    assert_eq!(code, Some(2));
    assert_eq!(json["files"].as_array().unwrap().len(), 3);
    assert_eq!(json["summary"]["unreadable"], 1);
    let broken_json = &json["files"][2];
    assert!(broken_json["file"].as_str().unwrap().ends_with("broken.ron"), "{broken_json}");
    assert_eq!(broken_json["kind"], "input");
    assert!(broken_json["line"].is_u64() && broken_json["column"].is_u64(), "{broken_json}");
    assert!(!broken_json["error"].as_str().unwrap().is_empty());
    // --deny warnings: an already-solved level then fails.
    let solved = write(&dir, "solved.ron", "Puzzle(graph: Path(3), modulus: 2)");
    let status = |deny: bool| {
        let mut cmd = Command::cargo_bin("modsolve").unwrap();
        cmd.arg("check").arg(&solved);
        if deny {
            cmd.args(["--deny", "warnings"]);
        }
        cmd.output().unwrap().status.code()
    };
    assert_eq!(status(false), Some(0));
    assert_eq!(status(true), Some(1));
}

/// Every starter that `modsolve new` writes parses and checks clean.
#[test]
fn starters_check_clean() {
    use modsolve::scaffold::{Form, starter};
    for modulus in [2, 3, 6] {
        for form in [
            Form::grid(4, 5),
            Form::Hex { rows: 3, cols: 4, mask: None },
            Form::Cube(2),
            Form::Path(5),
            Form::Cycle(6),
            Form::Edges(4),
            Form::Cells(3, None),
        ] {
            let text = starter(form.clone(), modulus).unwrap();
            let report = check(&load(&text), budget()).unwrap();
            assert!(report.findings.is_empty(), "{form:?} mod {modulus}: {:?}", report.findings);
            assert!(report.analysis.is_solvable());
        }
    }
    assert!(starter(Form::Path(0), 2).is_err());
    assert!(starter(Form::Path(3), 1).is_err());
}

/// A folder stands for its `.ron` files (by name, hidden files left out): `check puzzles/` checks
/// the 13 shipped puzzles, the one unsolvable among them failing; a folder without one is an
/// unreadable entry of the batch (exit 2) that names it.
#[test]
fn a_folder_is_checked_file_by_file() {
    let shipped = crate::util::shipped_files();
    let folder = shipped[0].parent().expect("puzzles/").to_path_buf();
    let output = crate::util::modsolve().args(["check", "--json"]).arg(&folder).output().expect("runs");
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    let document: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    let files: Vec<&str> =
        document["files"].as_array().unwrap().iter().map(|f| f["file"].as_str().unwrap()).collect();
    assert_eq!(files.len(), shipped.len());
    let mut names: Vec<String> =
        shipped.iter().map(|p| p.file_name().unwrap().to_str().unwrap().to_string()).collect();
    names.sort();
    let listed: Vec<&str> = files.iter().map(|f| f.rsplit('/').next().unwrap()).collect();
    assert_eq!(listed, names);
    assert_eq!(
        document["summary"],
        serde_json::json!({"passed": 12, "failed": 1, "unreadable": 0, "warnings": 0})
    );

    let scratch = Scratch::new();
    scratch.file(".hidden.ron", "not a puzzle");
    scratch.file("notes.txt", "not a puzzle either");
    let output = crate::util::modsolve().arg("check").arg(scratch.path()).output().expect("runs");
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("is a directory, not a puzzle file"), "{stderr}");
    assert!(stderr.contains(scratch.path().to_str().unwrap()), "{stderr}");
}

/// `check --brief`: one line a file (verdict, par, findings by severity) and the summary, an
/// unreadable file one line too; the default text leaves the quiet basis to `-v`, and JSON keeps
/// it either way.
#[test]
fn brief_and_verbose_checks() {
    let run = |args: &[&str]| {
        let out = Command::cargo_bin("modsolve")
            .unwrap()
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .args(args)
            .output()
            .unwrap();
        (out.status.code(), String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
    };
    let (code, stdout, _) = run(&["check", "--brief", "puzzles/"]);
    assert_eq!(code, Some(1));
    let lines: Vec<&str> = stdout.lines().collect();
    let files = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/puzzles")).unwrap().count();
    assert_eq!(lines.len(), files + 1, "{stdout}");
    assert!(lines.contains(&"PASS puzzles/octopus.ron: par 18, 1 finding (1 note)"), "{stdout}");
    assert!(lines.contains(&"PASS puzzles/two-levers.ron: par 3, no findings"), "{stdout}");
    assert!(
        lines.contains(&"FAIL puzzles/lightsout-4x4-unsolvable.ron: not solvable, 1 finding (1 error)"),
        "{stdout}"
    );
    assert_eq!(
        lines[files],
        format!("checked {files} files: {} passed, 1 failed, 0 unreadable; 0 warnings", files - 1)
    );

    let dir = Scratch::new();
    let broken = write(&dir, "broken.ron", "Puzzle(\n    graph: Path(3)\n    modulus: 2,\n)\n");
    let (code, stdout, stderr) = run(&["check", "--brief", &broken]);
    assert_eq!(code, Some(2));
    let line = format!(
        "FAIL {broken}:3:5: unreadable: a `,` is missing before `modulus`: fields are separated by commas\n"
    );
    assert_eq!(stdout, format!("{line}checked 1 file: 0 passed, 0 failed, 1 unreadable; 0 warnings\n"));
    assert!(stderr.contains(&line), "{stderr}");

    let (_, plain, _) = run(&["check", "puzzles/lightsout-4x4-unsolvable.ron"]);
    assert!(plain.contains("  quiet patterns: 15 (nonzero plans that change nothing)\n  macros:"), "{plain}");
    assert!(!plain.contains("basis plan"), "{plain}");
    let (_, verbose, _) = run(&["check", "-v", "puzzles/lightsout-4x4-unsolvable.ron"]);
    assert_eq!(verbose.matches("    basis plan of order 2:\n").count(), 4, "{verbose}");
    let (_, json, _) = run(&["check", "--json", "puzzles/lightsout-4x4-unsolvable.ron"]);
    let json: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(json["quiet_basis"].as_array().map(Vec::len), Some(4), "{json}");
    // --brief is text: not with JSON or -v.
    assert_eq!(run(&["check", "--brief", "--json", "puzzles/octopus.ron"]).0, Some(2));
}

/// On mixed moduli the count of plans says where it comes from; on one modulus the quiet
/// patterns' line does.
#[test]
fn a_count_on_mixed_moduli_says_where_it_comes_from() {
    let text = |source: &str| {
        let puzzle = load(source);
        let report = modsolve::analyse(&puzzle, &modsolve::Options::default()).unwrap();
        modsolve::report::solve_text(
            &puzzle,
            &report,
            false,
            &modsolve::report::Knobs::new("--budget", "--timeout", "--picture", "--json"),
        )
    };
    // Two cells mod 6, each moved by two buttons alike, and one mod 2: 36 plans, 2^2 · 3^2.
    let mixed = text(
        "Puzzle(graph: Cells(3), modulus: [6, 6, 2], buttons: [[(0, 1)], [(0, 1)], [(1, 1)], [(1, 1)], [(2, 1)]], \
         target: [1, 1, 1])",
    );
    assert!(
        mixed.contains(
            "\nSolutions: 36 plans (6^2: the plan above, alone or plus one of the quiet patterns)\n"
        ),
        "{mixed}"
    );
    let octopus = text(&std::fs::read_to_string(crate::util::shipped_path("octopus.ron")).unwrap());
    assert!(
        octopus.contains("\nSolutions: 2352 plans (2^4 · 3 · 7^2: the plan above, alone or plus one of the quiet patterns)\n"),
        "{octopus}"
    );
    let uniform = text("Puzzle(graph: Grid(rows: 5, cols: 5), modulus: 2, target: All(1))");
    assert!(uniform.contains("\nSolutions: 4 plans\nQuiet patterns: 3"), "{uniform}");
}
