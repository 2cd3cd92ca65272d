//! Snapshots (insta) of what people and tools read: the text and JSON report of every shipped
//! puzzle, `modsolve check` on each, and rendered input errors with their carets. A change to
//! any of them fails here until its snapshot (`tests/it/snapshots/`) is reviewed and updated
//! (`cargo insta review`, or `INSTA_UPDATE=always cargo test snapshots`).

use crate::util::{Scratch, modsolve, shipped_files};

/// Runs the binary from the repository root (so paths in reports are relative); stdout and
/// stderr, with the exit code.
fn run(args: &[&str]) -> String {
    let output = modsolve().current_dir(env!("CARGO_MANIFEST_DIR")).args(args).output().expect("runs");
    format!(
        "exit {}\n--- stdout\n{}--- stderr\n{}",
        output.status.code().expect("exited"),
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

fn names() -> Vec<String> {
    shipped_files()
        .iter()
        .map(|path| path.file_name().expect("a name").to_string_lossy().trim_end_matches(".ron").to_string())
        .collect()
}

#[test]
fn solve_reports_of_the_shipped_puzzles() {
    for name in names() {
        let file = format!("puzzles/{name}.ron");
        insta::assert_snapshot!(format!("solve-{name}"), run(&[&file]));
        insta::assert_snapshot!(format!("solve-json-{name}"), run(&[&file, "--json"]));
    }
}

#[test]
fn check_reports_of_the_shipped_puzzles() {
    for name in names() {
        let file = format!("puzzles/{name}.ron");
        insta::assert_snapshot!(format!("check-{name}"), run(&["check", &file]));
    }
}

/// Rendered errors: the message, `--> file:line:col`, the line and the caret, for people and
/// as JSON.
#[test]
fn rendered_input_errors() {
    let cases: &[(&str, &str)] = &[
        ("unknown-field", "Puzzle(\n    graph: Path(3),\n    modulus: 2,\n    modulos: 3,\n)"),
        ("unknown-graph", "Puzzle(graph: Paht(3), modulus: 2)"),
        ("wrong-type", "Puzzle(graph: Path(3), modulus: \"two\")"),
        ("missing-graph", "Puzzle(modulus: 2)"),
        ("modulus-one", "Puzzle(graph: Path(3), modulus: 1)"),
        ("modulus-list-length", "Puzzle(graph: Path(3), modulus: [2, 3])"),
        ("value-not-below-modulus", "Puzzle(graph: Path(3), modulus: 3, start: [0, 1, 3])"),
        ("all-too-large", "Puzzle(graph: Path(3), modulus: [3, 2, 5], target: All(2))"),
        (
            "picture-character",
            "Puzzle(graph: Grid(rows: 2, cols: 3), modulus: 2, start: Rows([\"#.#\", \".?.\"]))",
        ),
        (
            "picture-width",
            "Puzzle(graph: Grid(rows: 2, cols: 3), modulus: 2, start: Rows([\"#.#\", \".#\"]))",
        ),
        ("button-cell", "Puzzle(graph: Cells(2), modulus: 2, buttons: [[(0, 1)], [(5, 1)]])"),
        ("edge-to-itself", "Puzzle(graph: Edges(cells: 3, edges: [(0, 1), (2, 2)]), modulus: 2)"),
        ("syntax-mid-line", "Puzzle(graph: Path(3), modulus: 2,, start: All(0))"),
        ("unclosed", "Puzzle(graph: Path(3), modulus: 2"),
        (
            "phases-and-press",
            "Puzzle(graph: Path(3), modulus: 5, press: (self: 2, neighbors: 1), phases: [(self: 1, neighbors: 1)])",
        ),
        (
            "long-line",
            &format!("Puzzle(graph: Path(300), modulus: 2, start: [{}, 7])", vec!["0"; 299].join(", ")),
        ),
    ];
    let scratch = Scratch::new();
    for (name, text) in cases {
        scratch.file(&format!("{name}.ron"), text);
        let file = format!("{name}.ron");
        let output = modsolve().current_dir(scratch.path()).arg(&file).output().expect("runs");
        let json =
            modsolve().current_dir(scratch.path()).args([file.as_str(), "--json"]).output().expect("runs");
        assert_eq!(output.status.code(), Some(2), "{name}");
        insta::assert_snapshot!(
            format!("error-{name}"),
            format!(
                "{}--- json\n{}",
                String::from_utf8_lossy(&output.stderr),
                String::from_utf8_lossy(&json.stdout)
            )
        );
    }
}
