//! The `modsolve` binary end to end on the shipped puzzles.
//!
//! - `modsolve FILE` and `modsolve solve FILE` print the same thing; exit 0 when solved, 1 for
//!   the one unsolvable puzzle (which says so);
//! - `--json` parses, has `solvable`, `count` (a decimal string), `presses` and `total_presses`
//!   with the right types; a shown plan re-simulates to the target (phase by phase when the
//!   last press stops part-way, `"partial"`) and `total_presses` is its sum; `fewest`, when present, is a plan too; the published counts and answers come out;
//! - the text report shows the picture of a grid plan, cell labels, and the count;
//! - `--help` documents the file format and points to README/FORMAT.md.

use std::path::{Path, PathBuf};
use std::process::Output;

use assert_cmd::Command;
use modsolve::Puzzle;
use modsolve::model::Topology;
use num_bigint::BigUint;
use serde_json::Value;

use crate::util::{shipped_files, shipped_path};

const UNSOLVABLE: &str = "lightsout-4x4-unsolvable.ron";

fn modsolve<I, S>(args: I) -> Output
where
    I: IntoIterator<Item = S>,
    S: AsRef<std::ffi::OsStr>,
{
    Command::cargo_bin("modsolve")
        .expect("the modsolve binary is built")
        .args(args)
        .output()
        .expect("modsolve runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("output is UTF-8")
}

fn puzzle_path(name: &str) -> PathBuf {
    shipped_path(name)
}

/// Every shipped puzzle file, by name, sorted.
fn shipped_names() -> Vec<String> {
    let names: Vec<String> = shipped_files()
        .iter()
        .map(|path| path.file_name().expect("a file").to_string_lossy().into_owned())
        .collect();
    for expected in ["lightsout-3x3.ron", "lightsout-5x5.ron", "octopus.ron", "sunflowers.ron", UNSOLVABLE] {
        assert!(names.iter().any(|n| n == expected), "{expected} is shipped");
    }
    names
}

fn load(name: &str) -> Puzzle {
    crate::util::shipped(name)
}

fn expected_code(name: &str) -> i32 {
    if name == UNSOLVABLE { 1 } else { 0 }
}

/// `modsolve --json FILE`, checked for exit code and an empty stderr, parsed.
fn json_of(name: &str) -> Value {
    let output = modsolve([Path::new("--json"), puzzle_path(name).as_path()]);
    assert_eq!(output.status.code(), Some(expected_code(name)), "{name}: {}", text(&output.stderr));
    assert!(output.stderr.is_empty(), "{name}: {}", text(&output.stderr));
    serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|e| panic!("{name}: not JSON ({e}):\n{}", text(&output.stdout)))
}

/// A press count: a JSON integer, or a decimal string when it is too large for one.
fn big(value: &Value, what: &str) -> BigUint {
    match value {
        Value::Number(n) => BigUint::from(n.as_u64().unwrap_or_else(|| panic!("{what}: {n} is not a count"))),
        Value::String(s) => s.parse().unwrap_or_else(|_| panic!("{what}: {s:?} is not a count")),
        other => panic!("{what}: {other} is not a count"),
    }
}

fn plan(value: &Value, what: &str) -> Vec<BigUint> {
    value
        .as_array()
        .unwrap_or_else(|| panic!("{what}: {value} is not an array"))
        .iter()
        .map(|x| big(x, what))
        .collect()
}

/// Whether `presses` takes the puzzle from its start to its target. With staged presses the
/// JSON may say the last press of a button stops part-way (`"partial": {"button", "phases"}`,
/// that press counted in `presses`); then the plan is played phase by phase.
fn reaches_target(puzzle: &Puzzle, presses: &[BigUint], partial: &Value, what: &str) -> bool {
    match partial {
        Value::Null => puzzle.solves(presses),
        cut => {
            let field = |key: &str| {
                let n = cut[key].as_u64().unwrap_or_else(|| panic!("{what}: partial.{key} in {cut}"));
                usize::try_from(n).expect("small")
            };
            presses.len() == puzzle.button_count()
                && puzzle.plays_to_target(presses, Some((field("button"), field("phases"))))
        }
    }
}

fn as_u64s(presses: &[BigUint]) -> Vec<u64> {
    presses.iter().map(|x| u64::try_from(x).expect("small")).collect()
}

/// `modsolve FILE` and `modsolve solve FILE` agree, with and without `--json`; the exit code is
/// 0, or 1 for the unsolvable puzzle, which says so.
#[test]
fn solve_subcommand_is_the_default() {
    for name in shipped_names() {
        let path = puzzle_path(&name);
        let plain = modsolve([&path]);
        let explicit = modsolve([Path::new("solve"), path.as_path()]);
        let code = expected_code(&name);
        for (how, output) in [("modsolve FILE", &plain), ("modsolve solve FILE", &explicit)] {
            assert_eq!(output.status.code(), Some(code), "{how} on {name}: {}", text(&output.stderr));
            assert!(output.stderr.is_empty(), "{how} on {name}: {}", text(&output.stderr));
            assert!(!output.stdout.is_empty(), "{how} on {name} prints a report");
        }
        assert_eq!(text(&plain.stdout), text(&explicit.stdout), "{name}");
        let says_unsolvable = text(&plain.stdout).to_lowercase().contains("not solvable");
        assert_eq!(says_unsolvable, code == 1, "{name}:\n{}", text(&plain.stdout));

        let json = modsolve([Path::new("--json"), path.as_path()]);
        let json_explicit = modsolve([Path::new("solve"), Path::new("--json"), path.as_path()]);
        assert_eq!(json.status.code(), Some(code), "{name} --json");
        assert_eq!(json_explicit.status.code(), Some(code), "solve --json {name}");
        assert_eq!(text(&json.stdout), text(&json_explicit.stdout), "{name} --json");
    }
}

/// `--json` on every shipped puzzle: the fields and their types; a shown plan simulates to the
/// target and `total_presses` is its sum; `fewest`, when given, is a plan no longer than it.
#[test]
fn json_plans_simulate_to_the_target() {
    for name in shipped_names() {
        let json = json_of(&name);
        let puzzle = load(&name);
        let solvable = json["solvable"].as_bool().unwrap_or_else(|| panic!("{name}: solvable is a bool"));
        assert_eq!(solvable, expected_code(&name) == 0, "{name}");
        let count = json["count"].as_str().unwrap_or_else(|| panic!("{name}: count is a string"));
        assert!(
            !count.is_empty() && count.bytes().all(|b| b.is_ascii_digit()),
            "{name}: count {count:?} is a decimal string"
        );
        assert_eq!(count == "0", !solvable, "{name}: count {count}");
        if !solvable {
            assert!(json["presses"].is_null(), "{name}: presses is null");
            assert!(json["total_presses"].is_null(), "{name}: total_presses is null");
            continue;
        }
        let presses = plan(&json["presses"], &name);
        assert_eq!(presses.len(), puzzle.button_count(), "{name}: one count per button");
        assert!(
            reaches_target(&puzzle, &presses, &json["partial"], &name),
            "{name}: {presses:?} does not reach the target"
        );
        let total = json["total_presses"].as_u64().unwrap_or_else(|| panic!("{name}: total_presses"));
        assert_eq!(BigUint::from(total), presses.iter().sum::<BigUint>(), "{name}: total_presses");
        match &json["fewest"] {
            Value::Null => {}
            fewest => {
                let fewest_presses = plan(&fewest["presses"], &format!("{name} fewest"));
                assert!(
                    reaches_target(&puzzle, &fewest_presses, &fewest["partial"], &name),
                    "{name}: fewest {fewest_presses:?} does not reach the target"
                );
                let fewest_total = big(&fewest["total_presses"], &format!("{name} fewest"));
                assert_eq!(fewest_total, fewest_presses.iter().sum::<BigUint>(), "{name} fewest");
                assert!(fewest_total <= BigUint::from(total), "{name}: fewest is no longer");
            }
        }
    }
}

/// Known values: the published counts and answers, the classic 3×3 plan.
#[test]
fn json_known_values() {
    let json = json_of("lightsout-5x5.ron");
    assert_eq!(json["count"], "4");

    let json = json_of("lightsout-3x3.ron");
    assert_eq!(json["count"], "1");
    assert_eq!(as_u64s(&plan(&json["presses"], "3x3")), [1, 0, 1, 0, 1, 0, 1, 0, 1]);
    assert_eq!(json["total_presses"], 5);

    let json = json_of("octopus.ron");
    assert_eq!(json["count"], "2352");

    let json = json_of("sunflowers.ron");
    assert_eq!(json["count"], "1");
    assert_eq!(as_u64s(&plan(&json["presses"], "sunflowers")), [0, 1, 0, 0, 1, 1, 0]);

    let json = json_of("paradise.ron");
    assert_eq!(json["count"], "1");
    assert_eq!(as_u64s(&plan(&json["presses"], "paradise")), [1, 1, 1, 0, 1, 0, 0, 0, 1]);

    let json = json_of(UNSOLVABLE);
    assert_eq!(json["solvable"], false);
    assert_eq!(json["count"], "0");
}

fn text_report(name: &str) -> String {
    let output = modsolve([puzzle_path(name)]);
    assert_eq!(output.status.code(), Some(expected_code(name)), "{name}");
    text(&output.stdout)
}

/// Whether `lines` appear one after another (each trimmed) in `report`.
fn has_consecutive_lines(report: &str, lines: &[String]) -> bool {
    let trimmed: Vec<&str> = report.lines().map(str::trim).collect();
    trimmed.windows(lines.len()).any(|w| w.iter().zip(lines).all(|(a, b)| *a == b))
}

/// The text report draws grid plans as pictures: the classic 3×3 answer, and for every grid
/// puzzle with one button per cell and a 0/1 plan, the picture of the JSON plan.
#[test]
fn text_shows_grid_pictures() {
    let report = text_report("lightsout-3x3.ron");
    let expected: Vec<String> = ["# . #", ". # .", "# . #"].map(String::from).to_vec();
    assert!(has_consecutive_lines(&report, &expected), "the 3×3 picture:\n{report}");

    let mut checked = 0;
    for name in shipped_names() {
        let puzzle = load(&name);
        let &Topology::Grid { rows, cols, .. } = puzzle.topology() else { continue };
        if !puzzle.buttons_are_cells() {
            continue;
        }
        let json = json_of(&name);
        if json["presses"].is_null() {
            continue;
        }
        let presses = as_u64s(&plan(&json["presses"], &name));
        if presses.iter().any(|&x| x > 1) {
            continue;
        }
        let picture: Vec<String> = (0..rows)
            .map(|r| {
                let row: Vec<&str> = presses[r * cols..(r + 1) * cols]
                    .iter()
                    .map(|&x| if x == 1 { "#" } else { "." })
                    .collect();
                row.join(" ")
            })
            .collect();
        let report = text_report(&name);
        assert!(
            has_consecutive_lines(&report, &picture),
            "{name}: picture\n{}\nin\n{report}",
            picture.join("\n")
        );
        checked += 1;
    }
    assert!(checked >= 4, "{checked} grid pictures checked");
}

/// Words of a report: runs of letters, digits and `_`.
fn words(report: &str) -> Vec<&str> {
    report.split(|c: char| !(c.is_alphanumeric() || c == '_')).filter(|w| !w.is_empty()).collect()
}

/// Labels name the pressed cells; the count of plans appears on a line about solutions.
#[test]
fn text_shows_labels_and_count() {
    let report = text_report("sunflowers.ron");
    let w = words(&report);
    for label in ["b", "e", "f"] {
        assert!(w.contains(&label), "label {label} in\n{report}");
    }

    let report = text_report("octopus.ron");
    assert!(report.contains("tentacle 3"), "labels with spaces:\n{report}");

    for name in shipped_names() {
        let count = json_of(&name)["count"].as_str().expect("a string").to_owned();
        let report = text_report(&name);
        let shown = report
            .lines()
            .filter(|l| l.to_lowercase().contains("solution"))
            .any(|l| words(l).contains(&count.as_str()));
        assert!(shown, "{name}: count {count} on a line about solutions:\n{report}");
    }
}

/// `--help` exits 0 and documents the file format, pointing to README/FORMAT.md.
#[test]
fn help_documents_the_file_format() {
    let output = modsolve(["--help"]);
    assert_eq!(output.status.code(), Some(0));
    let help = text(&output.stdout);
    for needle in ["Puzzle(", "graph", "modulus", "start", "target", "--json"] {
        assert!(help.contains(needle), "--help mentions {needle}:\n{help}");
    }
    assert!(help.contains("FORMAT.md") || help.contains("README"), "--help points to the docs:\n{help}");
}

/// `modsolve a.ron b.ron` is a usage error (exit 2) that points to `check`, not clap's remark
/// about subcommands; an unknown flag is still clap's own usage error.
#[test]
fn two_files_point_to_check() {
    let (a, b) = (puzzle_path("octopus.ron"), puzzle_path("merlin.ron"));
    let output = modsolve([a.as_os_str(), b.as_os_str()]);
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty());
    let message = text(&output.stderr);
    assert!(message.contains("one puzzle at a time") && message.contains("modsolve check"), "{message}");
    assert!(!message.contains("subcommand"), "{message}");
    let output = modsolve([a.as_os_str(), std::ffi::OsStr::new("--no-such-flag")]);
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("--no-such-flag"));
}

/// A report that cannot be written (a full disk) is an error, exit 2, not a silent success;
/// a closed pipe is not.
/// Linux always has `/dev/full` (writes fail with "no space left"); the test runs there and
/// is compiled out elsewhere, rather than passing without running.
#[cfg(target_os = "linux")]
#[test]
fn write_failures_are_reported() {
    let full = Path::new("/dev/full");
    assert!(full.exists(), "Linux has /dev/full");
    let output = std::process::Command::new(assert_cmd::cargo::cargo_bin("modsolve"))
        .arg(puzzle_path("octopus.ron"))
        .arg("--json")
        .stdout(std::fs::File::create(full).expect("/dev/full opens"))
        .output()
        .expect("modsolve runs");
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("cannot write the output"), "{}", text(&output.stderr));
}

/// `modsolve FILE --svg` draws every shipped puzzle as itself: a shape per cell with its value,
/// the lines of paths and graphs, labels, explicit buttons with the cells they change.
#[test]
fn svg_of_every_shipped_puzzle_draws_it_as_itself() {
    let out = crate::util::Scratch::new();
    let mut drawn = 0;
    for path in crate::util::shipped_files() {
        let stem = path.file_stem().unwrap().to_string_lossy().to_string();
        let file = out.path().join(format!("{stem}.svg"));
        let status =
            crate::util::modsolve().arg(&path).arg("--svg").arg(&file).output().expect("runs").status;
        assert!(matches!(status.code(), Some(0 | 1)), "{stem}: {status:?}");
        let svg = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{stem}: {e}"));
        let puzzle = crate::util::shipped(&format!("{stem}.ron"));
        let count = |needle: &str| svg.matches(needle).count();
        assert!(
            svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\"") && svg.ends_with("</svg>\n"),
            "{stem}"
        );
        // One shape and one value a cell, whatever the shape.
        let cells = count(r#"<rect class="cell""#)
            + count(r#"<circle class="cell""#)
            + count(r#"<polygon class="cell""#);
        assert_eq!(cells, puzzle.cell_count(), "{stem}");
        assert_eq!(count(r#"<text class="value""#), puzzle.cell_count(), "{stem}");
        // Opened and closed tags balance (a cheap well-formedness check).
        assert_eq!(count("<text"), count("</text>"), "{stem}");
        let (edges, labels, buttons) = (
            count(r#"<line class="edge""#),
            count(r#"<text class="label""#),
            count(r#"<rect class="button""#),
        );
        match stem.as_str() {
            "sunflowers" => {
                assert_eq!((edges, labels), (7, 7), "{stem}");
                assert_eq!(count(r#"<circle class="cell""#), 7);
                for name in ["a", "b", "c", "d", "e", "f", "g"] {
                    assert!(svg.contains(&format!(">{name}</text>")), "{stem}: label {name}");
                }
                // Not a row: the flowers' centres take at least three heights.
                let heights: std::collections::BTreeSet<&str> = svg
                    .lines()
                    .filter(|l| l.starts_with(r#"<circle class="cell""#))
                    .filter_map(|l| l.split("cy=\"").nth(1)?.split('"').next())
                    .collect();
                assert!(heights.len() >= 3, "{stem}: {heights:?}");
            }
            "octopus" | "octopus-game" => {
                assert_eq!((edges, labels), (3, 4), "{stem}");
                assert!(svg.contains(">tentacle 4</text>"), "{stem}");
            }
            "two-levers" => {
                assert_eq!((edges, buttons), (0, 2), "{stem}");
                assert!(svg.contains(">left lever</text>") && svg.contains(">→ 1 2</text>"), "{stem}");
                assert_eq!(count(r#"<line class="effect""#), 4, "{stem}");
            }
            "merlin" => {
                // Nine buttons, one on each square: no button drawn apart, no lines.
                assert_eq!((edges, buttons), (0, 0), "{stem}");
                assert_eq!(count(r#"<rect class="cell""#), 9, "{stem}");
                assert_eq!(count(r#"<line class="effect""#), 0, "{stem}");
            }
            _ => {
                assert!(puzzle.topology().picture_size().is_some(), "{stem}: a shipped puzzle not looked at");
                assert_eq!((edges, buttons), (0, 0), "{stem}");
                assert_eq!(count(r#"<rect class="cell""#), puzzle.cell_count(), "{stem}");
            }
        }
        drawn += 1;
    }
    assert_eq!(drawn, 13);
}

/// A designer's `layout:` spanning two million cell widths is drawn at most 100 cell widths
/// across (for three cells), its shape kept: the SVG was 96,000,072 pixels wide.
#[test]
fn a_far_flung_layout_is_drawn_at_a_sane_size() {
    let out = crate::util::Scratch::new();
    let puzzle = out.path().join("far.ron");
    std::fs::write(
        &puzzle,
        "Puzzle(\n    graph: Path(3),\n    modulus: 2,\n    layout: [(0, 0), (1000000, 0), (-1000000, 0)],\n)\n",
    )
    .unwrap();
    let file = out.path().join("far.svg");
    let status = crate::util::modsolve().arg(&puzzle).arg("--svg").arg(&file).output().expect("runs").status;
    assert_eq!(status.code(), Some(0));
    let svg = std::fs::read_to_string(&file).unwrap();
    // 100 cell widths of 48 pixels, a cell and the margins: 4,872 by 72.
    assert!(
        svg.starts_with(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="4872" height="72" viewBox="0 0 4872 72""#
        ),
        "{svg}"
    );
    // The middle cell is drawn midway between the other two, as written.
    assert!(svg.contains(r#"x1="2436.0" y1="36.0" x2="4836.0" y2="36.0""#), "{svg}");
}
