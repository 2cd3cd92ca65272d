//! Bad input, through the library and through the binary ("bad input never
//! panics").
//!
//! - A table with one row per validation error: the error names the field (`field()`), points at
//!   the line and column of that field's key, or of the element at fault (`start[3]`, the
//!   character of a picture row), and the binary exits 2 with nothing on stdout and
//!   `file:line:col` plus the field name on stderr.
//! - Malformed RON (syntax, unknown or missing fields, wrong types): a line and column, exit 2.
//! - Strictness: unknown fields in every struct (with a suggestion when a known name is close),
//!   maps and other shapes where a list, a number or `All(v)` is meant: exact message and place.
//! - Long lines: an error shows at most 100 characters of its line, cut around the caret.
//! - Never panics: arbitrary strings, RON-shaped random puzzles, every truncation of every
//!   shipped puzzle and random byte-level mutations of them go through `parse_puzzle` and, when
//!   they parse (and have at most 400 cells), `solve` and the analysis and JSON report the
//!   binary runs (with a small search budget).
//! - Usage errors: no file, a missing file, an unreadable file, an unknown flag: exit 2.
//! - Regressions for crashes and mispositioned errors found while writing these tests.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::process::Output;
use std::sync::OnceLock;

use assert_cmd::Command;
use modsolve::analysis::Options;
use modsolve::solve::Budget;
use modsolve::{parse_puzzle, report, solve};
use num_bigint::BigUint;
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, FileFailurePersistence, TestRunner};

// ---------------------------------------------------------------------------------------------
// Helpers

/// A puzzle file in a scratch directory of its own, removed when dropped.
struct TempPuzzle {
    path: PathBuf,
    _dir: crate::util::Scratch,
}

impl TempPuzzle {
    fn new(contents: &[u8]) -> Self {
        let dir = crate::util::Scratch::new();
        let path = dir.path().join("puzzle.ron");
        std::fs::write(&path, contents).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        TempPuzzle { path, _dir: dir }
    }

    fn shown(&self) -> String {
        self.path.display().to_string()
    }
}

fn modsolve() -> Command {
    Command::cargo_bin("modsolve").expect("the modsolve binary is built")
}

/// Runs `modsolve FILE` on `source` written to a temp file; returns the path as shown and the
/// output.
fn run_on(source: &str) -> (String, Output) {
    let file = TempPuzzle::new(source.as_bytes());
    let output = modsolve().arg(&file.path).output().expect("modsolve runs");
    (file.shown(), output)
}

/// Bad input through the binary: exit 2, nothing half-written on stdout, an error on stderr
/// that contains each of `must_contain` (`{file}` stands for the file's path). Returns stderr.
fn assert_rejected(source: &str, must_contain: &[&str]) -> String {
    let (shown, output) = run_on(source);
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(
        output.status.code(),
        Some(2),
        "exit code for\n{source}\nstdout:\n{stdout}\nstderr:\n{stderr}"
    );
    assert!(stdout.is_empty(), "stdout must be empty on bad input, got:\n{stdout}\nfor\n{source}");
    for needle in must_contain {
        let needle = needle.replace("{file}", &shown);
        assert!(stderr.contains(&needle), "stderr should contain {needle:?}:\n{stderr}\nfor\n{source}");
    }
    assert!(!stderr.contains("panicked"), "a panic:\n{stderr}");
    stderr
}

fn source_of(lines: &[&str]) -> String {
    let mut s = lines.join("\n");
    s.push('\n');
    s
}

/// Parses, and solves when the puzzle is small; any panic escapes to the caller.
fn parse_and_maybe_solve(source: &str) {
    if let Ok(puzzle) = parse_puzzle(source)
        && puzzle.cell_count() <= 400
        && puzzle.button_count() <= 400
    {
        // An internal error is a bug too, but this check is about panics; the solver's own
        // verification is tested elsewhere.
        let _ = solve(&puzzle);
        // What the binary does after parsing: analyse (with a small search budget) and report.
        let options = Options::default().budget(Budget::of_nodes(20_000));
        if let Ok(report) = modsolve::analyse(&puzzle, &options) {
            let _ = report::solve_text(
                &puzzle,
                &report,
                true,
                &modsolve::report::Knobs::new("--budget", "--timeout", "--picture", "--json"),
            );
            let _ = serde_json::to_string(&report);
        }
    }
}

/// Like [`parse_and_maybe_solve`], but turns a panic into a message naming the input.
fn no_panic(what: &str, source: &str) -> Result<(), String> {
    catch_unwind(AssertUnwindSafe(|| parse_and_maybe_solve(source)))
        .map_err(|_| format!("panicked on {what}:\n{source:?}"))
}

/// `(file name, text)` of every shipped puzzle, read once.
fn shipped_puzzles() -> &'static [(String, String)] {
    static PUZZLES: OnceLock<Vec<(String, String)>> = OnceLock::new();
    PUZZLES.get_or_init(|| {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles");
        let mut out: Vec<(String, String)> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|entry| entry.expect("directory entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == "ron"))
            .map(|p| {
                let text = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
                (p.file_name().unwrap().to_string_lossy().into_owned(), text)
            })
            .collect();
        out.sort();
        assert!(out.len() >= 10, "the shipped puzzles are in {}", dir.display());
        out
    })
}

// ---------------------------------------------------------------------------------------------
// Validation errors: one row per error

/// One validation error: the file (one string per line), a substring of the field it must name,
/// and the 1-based line and column of that field's key, or of the element the path ends in.
struct Case {
    lines: &'static [&'static str],
    field: &'static str,
    line: usize,
    column: Option<usize>,
}

const CASES: &[Case] = &[
    // an Edges graph past 2^25 cells is refused before its neighbour lists are allocated (it
    // took 2.3 GB to find out)
    Case {
        lines: &["Puzzle(", "    graph: Edges(cells: 100000000, edges: []),", "    modulus: 2,", ")"],
        field: "graph.cells",
        line: 2,
        column: Some(18),
    },
    // modulus < 2, one for all cells
    Case {
        lines: &["Puzzle(", "    graph: Path(3),", "    modulus: 1,", ")"],
        field: "modulus",
        line: 3,
        column: Some(5),
    },
    Case {
        lines: &["Puzzle(", "    graph: Path(3),", "    modulus: 0,", ")"],
        field: "modulus",
        line: 3,
        column: Some(5),
    },
    // modulus < 2 in a per-cell list
    Case {
        lines: &["Puzzle(", "    graph: Path(3),", "    modulus: [2, 1, 3],", ")"],
        field: "modulus[1]",
        line: 3,
        column: Some(18),
    },
    // a per-cell list of the wrong length (too short, too long)
    Case {
        lines: &["Puzzle(", "    graph: Path(3),", "    modulus: [2, 3],", ")"],
        field: "modulus",
        line: 3,
        column: Some(5),
    },
    Case {
        lines: &["Puzzle(", "    graph: Cycle(3),", "    modulus: [2, 3, 5, 7],", ")"],
        field: "modulus",
        line: 3,
        column: Some(5),
    },
    // an edge naming a missing cell
    Case {
        lines: &[
            "Puzzle(",
            "    graph: Edges(",
            "        cells: 3,",
            "        edges: [(0, 1), (1, 3)],",
            "    ),",
            "    modulus: 2,",
            ")",
        ],
        field: "edges[1]",
        line: 4,
        column: Some(25),
    },
    // an edge joining a cell to itself
    Case {
        lines: &[
            "Puzzle(",
            "    graph: Edges(",
            "        cells: 3,",
            "        edges: [(0, 1), (2, 2)],",
            "    ),",
            "    modulus: 2,",
            ")",
        ],
        field: "edges[1]",
        line: 4,
        column: Some(25),
    },
    // a duplicate edge, the same way round and reversed
    Case {
        lines: &[
            "Puzzle(",
            "    graph: Edges(",
            "        cells: 3,",
            "        edges: [(0, 1), (1, 2), (0, 1)],",
            "    ),",
            "    modulus: 2,",
            ")",
        ],
        field: "edges[2]",
        line: 4,
        column: Some(33),
    },
    Case {
        lines: &[
            "Puzzle(",
            "    graph: Edges(cells: 3, edges: [(0, 1), (1, 2), (2, 1)]),",
            "    modulus: 2,",
            ")",
        ],
        field: "edges[2]",
        line: 2,
        column: Some(52),
    },
    // Edges with no cells
    Case {
        lines: &["Puzzle(", "    graph: Edges(cells: 0, edges: []),", "    modulus: 2,", ")"],
        field: "cells",
        line: 2,
        column: Some(18),
    },
    // an explicit button naming a missing cell
    Case {
        lines: &[
            "Puzzle(",
            "    graph: Cells(3),",
            "    modulus: 3,",
            "    buttons: [",
            "        [(0, 1), (1, 1)],",
            "        [(1, 2), (3, 1)],",
            "    ],",
            ")",
        ],
        field: "buttons[1]",
        line: 6,
        column: Some(9),
    },
    // a button phase naming a missing cell: the button's list of phases
    Case {
        lines: &[
            "Puzzle(",
            "    graph: Cells(2),",
            "    modulus: 2,",
            "    button_phases: /* two buttons */ [",
            "        [[(0, 1)], [(2, 1)]],",
            "        [[(1, 1)]],",
            "    ],",
            ")",
        ],
        field: "button_phases[0]",
        line: 5,
        column: Some(9),
    },
    // an element past nested brackets, strings and comments
    Case {
        lines: &[
            "Puzzle(",
            "    graph: Cells(3),",
            "    modulus: 3,",
            "    labels: [\"a\", \"b\", \"c\"],",
            "    buttons: [[(0, 1), /* ], [ */ (1, 1)], [(1, 2)], // ], [",
            "        [(2, 1)], [(7, 1)]],",
            ")",
        ],
        field: "buttons[3]",
        line: 6,
        column: Some(19),
    },
    // start / target lists of the wrong length
    Case {
        lines: &["Puzzle(", "    graph: Path(3),", "    modulus: 2,", "    start: [0, 1],", ")"],
        field: "start",
        line: 4,
        column: Some(5),
    },
    Case {
        lines: &[
            "Puzzle(",
            "    graph: Path(3),",
            "    modulus: 2,",
            "    start: [0, 1, 0],",
            "    target: [1, 1, 1, 1],",
            ")",
        ],
        field: "target",
        line: 5,
        column: Some(5),
    },
    // a state value >= its cell's modulus, in a list
    Case {
        lines: &["Puzzle(", "    graph: Path(3),", "    modulus: 2,", "    start: [0, 2, 1],", ")"],
        field: "start[1]",
        line: 4,
        column: Some(16),
    },
    Case {
        lines: &["Puzzle(", "    graph: Path(3),", "    modulus: [2, 3, 4],", "    target: [1, 2, 4],", ")"],
        field: "target[2]",
        line: 4,
        column: Some(20),
    },
    // ... and as All(v), one modulus for all or per cell
    Case {
        lines: &["Puzzle(", "    graph: Path(3),", "    modulus: 2,", "    start: All(2),", ")"],
        field: "start",
        line: 4,
        column: Some(5),
    },
    Case {
        lines: &["Puzzle(", "    graph: Path(3),", "    modulus: [3, 2, 3],", "    target: All(2),", ")"],
        field: "target",
        line: 4,
        column: Some(5),
    },
    // a grid with 0 rows or 0 columns
    Case {
        lines: &["Puzzle(", "    graph: Grid(rows: 0, cols: 3),", "    modulus: 2,", ")"],
        field: "rows",
        line: 2,
        column: Some(17),
    },
    Case {
        lines: &["Puzzle(", "    graph: Grid(rows: 3, cols: 0),", "    modulus: 2,", ")"],
        field: "cols",
        line: 2,
        column: Some(26),
    },
    // Path(0), Cycle(0), Cells(0)
    Case {
        lines: &["Puzzle(", "    graph: Path(0),", "    modulus: 2,", ")"],
        field: "graph",
        line: 2,
        column: Some(5),
    },
    Case {
        lines: &["Puzzle(", "    graph: Cycle(0),", "    modulus: 2,", ")"],
        field: "graph",
        line: 2,
        column: Some(5),
    },
    Case {
        lines: &["Puzzle(", "    graph: Cells(0),", "    modulus: 2,", "    buttons: [],", ")"],
        field: "graph",
        line: 2,
        column: Some(5),
    },
    // a grid too large to hold
    Case {
        lines: &["Puzzle(", "    graph: Grid(rows: 100000, cols: 100000),", "    modulus: 2,", ")"],
        field: "graph",
        line: 2,
        column: Some(5),
    },
    // a picture row of the wrong width (too narrow, too wide)
    Case {
        lines: &[
            "Puzzle(",
            "    graph: Grid(rows: 2, cols: 3),",
            "    modulus: 2,",
            "    start: Rows([",
            "        \"#.#\",",
            "        \"##\",",
            "    ]),",
            ")",
        ],
        field: "start[1]",
        line: 6,
        column: Some(9),
    },
    Case {
        lines: &[
            "Puzzle(",
            "    graph: Grid(rows: 2, cols: 3),",
            "    modulus: 2,",
            "    target: Rows([\"#.##\", \"...\"]),",
            ")",
        ],
        field: "target[0]",
        line: 4,
        column: Some(19),
    },
    // a picture with the wrong number of rows
    Case {
        lines: &[
            "Puzzle(",
            "    graph: Grid(rows: 2, cols: 3),",
            "    modulus: 2,",
            "    start: Rows([\"#.#\"]),",
            ")",
        ],
        field: "start",
        line: 4,
        column: Some(5),
    },
    Case {
        lines: &[
            "Puzzle(",
            "    graph: Grid(rows: 2, cols: 3),",
            "    modulus: 2,",
            "    target: Rows([\"#.#\", \"...\", \"###\"]),",
            ")",
        ],
        field: "target",
        line: 4,
        column: Some(5),
    },
    // a picture character that is not a value
    Case {
        lines: &[
            "Puzzle(",
            "    graph: Grid(rows: 2, cols: 3),",
            "    modulus: 2,",
            "    start: Rows([\"#.#\", \"#?#\"]),",
            ")",
        ],
        field: "start[1][1]",
        line: 4,
        column: Some(27),
    },
    // ... on another line, after a space (spaces in a row count for the place, not the width)
    Case {
        lines: &[
            "Puzzle(",
            "    graph: Grid(rows: 2, cols: 3),",
            "    modulus: 2,",
            "    start: Rows([",
            "        \"#.#\", // row 0",
            "        \"# ?.\",",
            "    ]),",
            ")",
        ],
        field: "start[1][2]",
        line: 6,
        column: Some(12),
    },
    // a picture value >= the modulus
    Case {
        lines: &[
            "Puzzle(",
            "    graph: Grid(rows: 2, cols: 3),",
            "    modulus: 3,",
            "    start: Rows([\"#.#\", \"#3#\"]),",
            ")",
        ],
        field: "start[1][1]",
        line: 4,
        column: Some(27),
    },
    // Rows(...) on a graph that is not a grid
    Case {
        lines: &["Puzzle(", "    graph: Path(3),", "    modulus: 2,", "    target: Rows([\"#.#\"]),", ")"],
        field: "target",
        line: 4,
        column: Some(5),
    },
    Case {
        lines: &[
            "Puzzle(",
            "    graph: Edges(cells: 2, edges: [(0, 1)]),",
            "    modulus: 2,",
            "    start: Rows([\"#\", \".\"]),",
            ")",
        ],
        field: "start",
        line: 4,
        column: Some(5),
    },
    // press limits and the intended plan with the wrong number of buttons
    Case {
        lines: &["Puzzle(", "    graph: Path(3),", "    modulus: 2,", "    max_presses: [1, 1],", ")"],
        field: "max_presses",
        line: 4,
        column: Some(5),
    },
    Case {
        lines: &[
            "Puzzle(",
            "    graph: Cells(2),",
            "    modulus: 2,",
            "    buttons: [[(0, 1)], [(1, 1)]],",
            "    intended: [1, 0, 1],",
            ")",
        ],
        field: "intended",
        line: 5,
        column: Some(5),
    },
    // the key is found past comments and strings that mention it, and with tabs and non-ASCII
    // text before it on its line
    Case {
        lines: &[
            "// modulus: the number every cell counts modulo",
            "Puzzle(",
            "    name: \"modulus: 1\", /* modulus: */",
            "    graph: Path(3),",
            "    labels: [\"start:\", \"b\", \"c\"],",
            "    modulus: 1,",
            ")",
        ],
        field: "modulus",
        line: 6,
        column: Some(5),
    },
    Case {
        lines: &["Puzzle(", "\tgraph: Path(3),", "\tmodulus: 2, start: [0, 3, 1],", ")"],
        field: "start[1]",
        line: 3,
        column: Some(25),
    },
    Case {
        lines: &["Puzzle(", "    name: \"Ünïcödé\", graph: Path(0),", "    modulus: 2,", ")"],
        field: "graph",
        line: 2,
        column: Some(22),
    },
    // a name given twice (once `hint --pressed a` quietly took cell 0), a list of names of the
    // wrong length (once the names were dropped from the output), for cells and for buttons
    Case {
        lines: &[
            "Puzzle(",
            "    graph: Path(3),",
            "    modulus: 2,",
            "    labels: [\"a\", \"b\", \"a\"],",
            ")",
        ],
        field: "labels[2]",
        line: 4,
        column: Some(24),
    },
    Case {
        lines: &["Puzzle(", "    graph: Path(3),", "    modulus: 2,", "    labels: [\"a\", \"b\"],", ")"],
        field: "labels",
        line: 4,
        column: Some(5),
    },
    Case {
        lines: &[
            "Puzzle(",
            "    graph: Cells(2),",
            "    modulus: 2,",
            "    buttons: [[(0, 1)], [(1, 1)]],",
            "    button_labels: [\"up\", \"down\", \"left\"],",
            ")",
        ],
        field: "button_labels",
        line: 5,
        column: Some(5),
    },
    Case {
        lines: &[
            "Puzzle(",
            "    graph: Cells(2),",
            "    modulus: 2,",
            "    labels: [\"up\", \"down\"],",
            "    buttons: [[(0, 1)], [(1, 1)]],",
            "    button_labels: [\"up\", \"up\"],",
            ")",
        ],
        field: "button_labels[1]",
        line: 6,
        column: Some(27),
    },
    // everything on one line
    Case {
        lines: &["Puzzle(graph: Path(3), modulus: 2, target: [0, 1])"],
        field: "target",
        line: 1,
        column: Some(36),
    },
    Case {
        lines: &["Puzzle(graph: Path(3), modulus: [5, 5, 5], start: All(7))"],
        field: "start",
        line: 1,
        column: None,
    },
];

/// Through the library: the error is a validation error naming the field, at its key or element.
#[test]
fn validation_errors_name_the_field_at_its_key() {
    for case in CASES {
        let source = source_of(case.lines);
        let error = match parse_puzzle(&source) {
            Ok(_) => panic!("accepted:\n{source}"),
            Err(e) => e,
        };
        let field = error.field().unwrap_or_else(|| panic!("not a validation error: {error}\n{source}"));
        assert!(field.contains(case.field), "field {field:?} should name {:?} for\n{source}", case.field);
        assert!(
            error.to_string().contains(case.field),
            "message {:?} should name {:?}",
            error.to_string(),
            case.field
        );
        let position = error.position.unwrap_or_else(|| panic!("no position for {error}\n{source}"));
        assert_eq!(position.line, case.line, "line of {error} in\n{source}");
        if let Some(column) = case.column {
            assert_eq!(position.column, column, "column of {error} in\n{source}");
        }
    }
}

/// Through the binary: exit 2, empty stdout, the field name and `file:line:col` on stderr.
#[test]
fn validation_errors_through_the_binary() {
    for case in CASES {
        let source = source_of(case.lines);
        let position = parse_puzzle(&source).err().and_then(|e| e.position).expect("checked above");
        let at = format!("{{file}}:{}:{}", case.line, case.column.unwrap_or(position.column));
        let stderr = assert_rejected(&source, &[case.field, &at]);
        assert!(stderr.starts_with("error"), "stderr starts with the error:\n{stderr}");
    }
}

/// Validation errors come before the solver runs and do not depend on field order.
#[test]
fn validation_does_not_depend_on_field_order() {
    let source = "Puzzle(\n    target: [0, 1],\n    modulus: 2,\n    graph: Path(3),\n)\n";
    let error = parse_puzzle(source).expect_err("wrong length");
    assert_eq!(error.field(), Some("target"));
    assert_eq!(error.position.map(|p| (p.line, p.column)), Some((2, 5)));
}

// ---------------------------------------------------------------------------------------------
// Malformed files

/// A malformed file: the expected line, the expected column (exact, or a range where the
/// column points into the offending value) and a word the message must contain.
struct Malformed {
    lines: &'static [&'static str],
    line: usize,
    columns: std::ops::RangeInclusive<usize>,
    says: &'static str,
}

const MALFORMED: &[Malformed] = &[
    // a missing closing paren, inside and at the end
    Malformed {
        lines: &["Puzzle(", "    graph: Path(3,", "    modulus: 2,", ")"],
        line: 2,
        columns: 19..=19,
        says: ")",
    },
    Malformed {
        lines: &["Puzzle(", "    graph: Path(3),", "    modulus: 2,"],
        line: 3,
        columns: 16..=16,
        says: "end",
    },
    // an unknown field
    Malformed {
        lines: &["Puzzle(", "    graph: Path(3),", "    modulus: 2,", "    colour: 3,", ")"],
        line: 4,
        columns: 5..=5,
        says: "colour",
    },
    // wrong types
    Malformed {
        lines: &["Puzzle(", "    graph: Path(3),", "    modulus: \"x\",", ")"],
        line: 3,
        columns: 14..=16,
        says: "modulus",
    },
    Malformed {
        lines: &["Puzzle(", "    graph: Path(\"x\"),", "    modulus: 2,", ")"],
        line: 2,
        columns: 17..=17,
        says: "`graph`: expected a whole number",
    },
    Malformed {
        lines: &["Puzzle(", "    graph: Path(3),", "    modulus: 2,", "    start: \"abc\",", ")"],
        line: 4,
        columns: 12..=16,
        says: "state",
    },
    // a negative modulus, a negative size
    Malformed {
        lines: &["Puzzle(", "    graph: Path(3),", "    modulus: -2,", ")"],
        line: 3,
        columns: 14..=15,
        says: "modulus",
    },
    Malformed {
        lines: &["Puzzle(", "    graph: Path(-1),", "    modulus: 2,", ")"],
        line: 2,
        columns: 17..=18,
        says: "",
    },
    // a missing required field
    Malformed { lines: &["Puzzle(", "    modulus: 2,", ")"], line: 3, columns: 1..=1, says: "graph" },
    Malformed {
        lines: &["Puzzle(", "    graph: Grid(rows: 3),", "    modulus: 2,", ")"],
        line: 2,
        columns: 24..=24,
        says: "cols",
    },
    // a missing comma, the wrong struct, not RON at all, nothing at all, trailing text
    Malformed {
        lines: &["Puzzle(", "    graph: Path(3)", "    modulus: 2,", ")"],
        line: 3,
        columns: 5..=5,
        says: "comma",
    },
    Malformed { lines: &["Puzle(graph: Path(3), modulus: 2)"], line: 1, columns: 1..=1, says: "Puzzle" },
    Malformed { lines: &["hello"], line: 1, columns: 1..=1, says: "" },
    Malformed { lines: &[""], line: 1, columns: 1..=2, says: "" },
    Malformed {
        lines: &["Puzzle(graph: Path(3), modulus: 2) trailing"],
        line: 1,
        columns: 35..=36,
        says: "trailing",
    },
];

/// Malformed files get a syntax error with a line and column, in the library and the binary.
#[test]
fn malformed_files_report_line_and_column() {
    for case in MALFORMED {
        let source = source_of(case.lines);
        let error = parse_puzzle(&source).expect_err("malformed");
        assert_eq!(error.field(), None, "a syntax error, not a validation error: {error}");
        let position = error.position.unwrap_or_else(|| panic!("no position for {error}\n{source}"));
        assert_eq!(position.line, case.line, "line of {error:?} in\n{source}");
        assert!(
            case.columns.contains(&position.column),
            "column {} of {error:?} should be in {:?} in\n{source}",
            position.column,
            case.columns
        );
        let message = error.to_string();
        assert!(
            message.to_lowercase().contains(&case.says.to_lowercase()),
            "{message:?} should say {:?}",
            case.says
        );
        let at = format!("{{file}}:{}:{}", position.line, position.column);
        let stderr = assert_rejected(&source, &[&at]);
        assert!(stderr.contains(&message), "stderr carries the message:\n{stderr}");
    }
}

// ---------------------------------------------------------------------------------------------
// Strictness: unknown fields, maps and other shapes

/// A file the reader refuses: the exact message and its 1-based line and column.
struct Refused {
    lines: &'static [&'static str],
    message: &'static str,
    line: usize,
    column: usize,
}

const PUZZLE_FIELDS: &str = "`name`, `graph`, `modulus`, `press`, `buttons`, `start`, `target`, `labels`, \
                             `button_labels`, `button_at`, `layout`, `hide_par`, `max_presses`, `intended`, `phases`, `button_phases`";

const REFUSED: &[Refused] = &[
    // unknown fields in Grid and Edges (once silently ignored: this solved a Cross grid)
    Refused {
        lines: &[
            "Puzzle(",
            "    graph: Grid(rows: 3, cols: 3, neighbourhood: King),",
            "    modulus: 2,",
            ")",
        ],
        message: "unknown field `neighbourhood` in Grid; did you mean `neighborhood`?",
        line: 2,
        column: 35,
    },
    Refused {
        lines: &["Puzzle(graph: Grid(rows: 3, cols: 3, warp: true), modulus: 2)"],
        message: "unknown field `warp` in Grid; did you mean `wrap`?",
        line: 1,
        column: 38,
    },
    Refused {
        lines: &["Puzzle(graph: Grid(rows: 3, cols: 3, shape: Hex), modulus: 2)"],
        message: "unknown field `shape` in Grid; the fields are `rows`, `cols`, `wrap`, `neighborhood`, `mask`",
        line: 1,
        column: 38,
    },
    Refused {
        lines: &["Puzzle(", "    graph: Edges(cells: 3, egdes: [(0, 1)]),", "    modulus: 2,", ")"],
        message: "unknown field `egdes` in Edges; did you mean `edges`?",
        line: 2,
        column: 28,
    },
    // ... in the top level and in `press` / `phases`, with the key's place
    Refused {
        lines: &["Puzzle(", "    graph: Path(3),", "    modulus: 2,", "    strat: [1, 0, 1],", ")"],
        message: "unknown field `strat` in Puzzle; did you mean `start`?",
        line: 4,
        column: 5,
    },
    Refused {
        lines: &["Puzzle(graph: Path(3), modulus: 2, max_press: All(1))"],
        message: "unknown field `max_press` in Puzzle; did you mean `max_presses`?",
        line: 1,
        column: 36,
    },
    Refused {
        lines: &["Puzzle(graph: Path(3), modulus: 2, colour: 3)"],
        message: concat!(
            "unknown field `colour` in Puzzle; the fields are `name`, `graph`, `modulus`, `press`, ",
            "`buttons`, `start`, `target`, `labels`, `button_labels`, `button_at`, `layout`, `hide_par`, `max_presses`, `intended`, ",
            "`phases`, `button_phases`"
        ),
        line: 1,
        column: 36,
    },
    Refused {
        lines: &[
            "Puzzle(",
            "    graph: Path(3),",
            "    modulus: 2,",
            "    press: (self: 1, neighbours: 2),",
            ")",
        ],
        message: "unknown field `neighbours` in press; did you mean `neighbors`?",
        line: 4,
        column: 22,
    },
    Refused {
        lines: &["Puzzle(graph: Path(3), modulus: 2, phases: [(self: 1), (slef: 1)])"],
        message: "unknown field `slef` in press; did you mean `self`?",
        line: 1,
        column: 57,
    },
    // unknown names of a graph, a neighbourhood, a state form
    Refused {
        lines: &["Puzzle(graph: Grd(rows: 2, cols: 2), modulus: 2)"],
        message: "unknown graph `Grd`; did you mean `Grid`?",
        line: 1,
        column: 15,
    },
    Refused {
        lines: &["Puzzle(graph: Grid(rows: 2, cols: 2, neighborhood: Kings), modulus: 2)"],
        message: "unknown neighborhood `Kings`; did you mean `King`?",
        line: 1,
        column: 52,
    },
    Refused {
        lines: &["Puzzle(", "    graph: Path(3),", "    modulus: 2,", "    start: Al(1),", ")"],
        message: "expected a state: a list of values like [0, 1, 2], All(value) or Rows([...]); found `Al`, did you mean `All`?",
        line: 4,
        column: 12,
    },
    // a map is not a state (once `{0: 3}` was read as All(3)), a modulus or press limits
    Refused {
        lines: &["Puzzle(", "    graph: Path(3),", "    modulus: 4,", "    start: {0: 3},", ")"],
        message: "expected a state: a list of values like [0, 1, 2], All(value) or Rows([...])",
        line: 4,
        column: 12,
    },
    Refused {
        lines: &["Puzzle(graph: Path(3), modulus: 2, target: /* map */ {\"All\": 1})"],
        message: "expected a state: a list of values like [0, 1, 2], All(value) or Rows([...])",
        line: 1,
        column: 54,
    },
    Refused {
        lines: &["Puzzle(", "    graph: Path(3),", "    modulus: {0: 2},", ")"],
        message: "expected a modulus: a whole number >= 2, or a list of them with one per cell",
        line: 3,
        column: 14,
    },
    Refused {
        lines: &["Puzzle(graph: Path(3), modulus: 2, max_presses: {0: 1})"],
        message: "expected press limits: a list with one whole number per button, or All(k)",
        line: 1,
        column: 49,
    },
    // other shapes that are not a state, a modulus or press limits
    Refused {
        lines: &["Puzzle(graph: Path(3), modulus: 2, start: 1)"],
        message: "expected a state: a list of values like [0, 1, 2], All(value) or Rows([...])",
        line: 1,
        column: 43,
    },
    Refused {
        lines: &["Puzzle(graph: Path(3), modulus: All(2))"],
        message: "expected a modulus: a whole number >= 2, or a list of them with one per cell; found `All`",
        line: 1,
        column: 33,
    },
    Refused {
        lines: &["Puzzle(graph: Path(3), modulus: 2, max_presses: Rows([\"#\"]))"],
        message: "expected press limits: a list with one whole number per button, or All(k); found `Rows`",
        line: 1,
        column: 49,
    },
    // a value of the wrong type inside a list: at the value
    Refused {
        lines: &[
            "Puzzle(",
            "    graph: Path(3),",
            "    modulus: 2,",
            "    target: [0,",
            "        \"x\", 1],",
            ")",
        ],
        message: "`target[1]`: expected a whole number",
        line: 5,
        column: 9,
    },
];

/// Unknown fields and wrong shapes are refused with the exact message at the exact place, in
/// the library and through the binary.
#[test]
fn unknown_fields_and_wrong_shapes_are_refused() {
    assert!(PUZZLE_FIELDS.contains("`button_phases`"));
    for case in REFUSED {
        let source = source_of(case.lines);
        let error = parse_puzzle(&source).expect_err("refused");
        assert_eq!(error.field(), None, "a syntax error: {error}\n{source}");
        assert_eq!(error.to_string(), case.message, "{source}");
        let position = error.position.map(|p| (p.line, p.column));
        assert_eq!(position, Some((case.line, case.column)), "{error}\n{source}");
        let at = format!("{{file}}:{}:{}", case.line, case.column);
        assert_rejected(&source, &[case.message, &at]);
    }
}

/// The documented shapes still read as before: lists (and tuples), `All(v)`, `Rows([...])`,
/// explicit `Some(…)`, comments before a value.
#[test]
fn every_shape_of_the_format_still_reads() {
    let read = |fields: &str| {
        let source = format!("Puzzle(graph: Grid(rows: 2, cols: 2), {fields})");
        parse_puzzle(&source).unwrap_or_else(|e| panic!("{e}\n{source}"))
    };
    let p = read("modulus: 3, start: [0, 1, 2, 0], target: All(2), max_presses: All(4)");
    assert_eq!((p.start().to_vec(), p.target().to_vec()), (vec![0, 1, 2, 0], vec![2; 4]));
    assert_eq!(p.max_presses(), Some(&[4; 4][..]));
    let p = read("modulus: [2, 3, 4, 5], start: Rows([\"#.\", \"3 4\"]), max_presses: [1, 2, 3, 4]");
    assert_eq!(p.moduli().to_vec(), vec![2, 3, 4, 5]);
    assert_eq!(p.start().to_vec(), vec![1, 0, 3, 4]);
    assert_eq!(p.max_presses(), Some(&[1, 2, 3, 4][..]));
    let p = read("modulus: /* all */ 2, start: Some([1, 1, 0, 0]), target: (0, 1, 1, 0), max_presses: None");
    assert_eq!((p.start().to_vec(), p.target().to_vec()), (vec![1, 1, 0, 0], vec![0, 1, 1, 0]));
    assert_eq!(p.max_presses(), None);
}

/// A line longer than 100 characters is cut to 100 around the caret, `…` marking each cut, the
/// caret under the same character (tabs kept as tabs, multi-byte characters counted once).
#[test]
fn long_error_lines_are_cut_around_the_caret() {
    use modsolve::error::{InputError, InputErrorKind, Position};
    let digits: String = (0..300).map(|i| char::from(b'0' + (i % 10) as u8)).collect();
    // (line, caret column, the line as shown, the caret line as shown)
    let rows: Vec<(String, usize, String, String)> = vec![
        // short lines are shown whole
        ("abc\tdef".into(), 6, "abc\tdef".into(), "   \t ^".into()),
        // exactly 100 characters: whole
        (digits[..100].into(), 100, digits[..100].into(), format!("{}^", " ".repeat(99))),
        // caret near the start: cut at the end only
        (digits.clone(), 3, format!("{}…", &digits[..99]), "  ^".into()),
        // caret in the middle: 50 characters before it (one of them the `…`), 49 after and `…`
        (digits.clone(), 151, format!("…{}…", &digits[101..199]), format!("{}^", " ".repeat(50))),
        // caret near the end: cut at the start only, 100 characters in all
        (digits.clone(), 300, format!("…{}", &digits[201..]), format!("{}^", " ".repeat(99))),
        // multi-byte characters and a tab before the caret
        (
            format!("{}\t{}x", "é".repeat(150), "ü".repeat(10)),
            162,
            format!("…{}\t{}x", "é".repeat(87), "ü".repeat(10)),
            format!("{}\t{}^", " ".repeat(88), " ".repeat(10)),
        ),
    ];
    for (line, column, shown, caret) in rows {
        let error = InputError {
            position: Some(Position { line: 2, column }),
            kind: InputErrorKind::Syntax { message: "bad".into() },
        };
        let source = format!("first\n{line}\nlast\n");
        let text = report::render_input_error(&error, "f.ron", &source);
        assert_eq!(text, format!("error: bad\n --> f.ron:2:{column}\n  |\n2 | {shown}\n  | {caret}\n"));
        assert!(shown.chars().count() <= 100, "{shown}");
    }
}

/// A one-line file of a million numbers: the error shows the end of the line, not all of it.
#[test]
fn a_huge_one_line_file_is_not_echoed() {
    let list = vec!["1"; 1_000_000].join(", ");
    let source = format!("Puzzle(graph: Path(1000000), modulus: 2, start: [{list}], target: All(2))\n");
    let column = source.find("target").expect("a target") + 1;
    let stderr = assert_rejected(
        &source,
        &["`target`: All(2) is too large for cell 0, which counts modulo 2", &format!("{{file}}:1:{column}")],
    );
    assert!(stderr.len() < 600, "{} bytes:\n{stderr}", stderr.len());
    let shown = format!("1 | …{}], target: All(2))\n", ", 1".repeat(27));
    assert!(stderr.contains(&shown), "{stderr}");
}

// ---------------------------------------------------------------------------------------------
// Never panics

/// Cases for the generators that mostly reach validation and the solver.
const CASES_NEAR_VALID: u32 = 20_000;

fn no_persistence(cases: u32) -> Config {
    Config { cases, failure_persistence: Some(Box::new(FileFailurePersistence::Off)), ..Config::default() }
}

/// A value that is mostly small and sometimes extreme.
fn number(small: std::ops::Range<u64>) -> impl Strategy<Value = u64> + Clone {
    prop_oneof![
        12 => small,
        1 => Just(0u64),
        1 => Just(1u64),
        1 => Just(u64::MAX),
        1 => Just(1u64 << 32),
        1 => Just(4_294_967_311u64),
        1 => Just(1_000_000_007u64),
        1 => Just(18_446_744_073_709_551_557u64), // the largest prime below 2^64
    ]
}

/// A list of `n` values from `value`, sometimes one too short or too long.
fn list_of(n: usize, value: impl Strategy<Value = u64> + Clone) -> impl Strategy<Value = String> {
    prop_oneof![
        8 => prop::collection::vec(value.clone(), n),
        1 => prop::collection::vec(value, n.saturating_sub(1)..=n + 1),
    ]
    .prop_map(|v| format!("{v:?}"))
}

/// A RON-shaped puzzle from random pieces that mostly fit together: many parse, many fail one
/// validation, some solve.
fn ron_puzzle() -> impl Strategy<Value = String> {
    let size = prop_oneof![10 => 1usize..6, 1 => Just(0usize)];
    (0u8..5, size.clone(), size)
        .prop_flat_map(|(kind, rows, cols)| {
            let cells = if kind == 3 { rows * cols } else { rows };
            let graph = match kind {
                0 => Just(format!("Path({rows})")).boxed(),
                1 => Just(format!("Cycle({rows})")).boxed(),
                2 => Just(format!("Cells({rows})")).boxed(),
                3 => (any::<bool>(), any::<bool>())
                    .prop_map(move |(w, k)| {
                        let king = if k { ", neighborhood: King" } else { "" };
                        format!("Grid(rows: {rows}, cols: {cols}, wrap: {w}{king})")
                    })
                    .boxed(),
                _ => prop::collection::vec((0..rows + 1, 0..rows + 1), 0..8)
                    .prop_map(move |e| format!("Edges(cells: {rows}, edges: {e:?})"))
                    .boxed(),
            };
            let modulus = prop_oneof![
                3 => number(2..6).prop_map(|m| m.to_string()),
                1 => list_of(cells, number(2..9)),
            ];
            let picture = prop::collection::vec(
                prop::collection::vec(
                    prop::sample::select(vec!['.', '#', '0', '1', '2', '9', 'z', '?']),
                    cols,
                ),
                rows,
            )
            .prop_map(|rows| {
                let rows: Vec<String> = rows.into_iter().map(|r| r.into_iter().collect()).collect();
                format!("Rows({rows:?})")
            });
            let state = prop_oneof![
                2 => number(0..2).prop_map(|v| format!("All({v})")),
                3 => list_of(cells, number(0..3)),
                1 => picture,
            ];
            let press = (-3i64..4, -3i64..4).prop_map(|(s, n)| format!("(self: {s}, neighbors: {n})"));
            let button = prop::collection::vec((0..cells + 1, -3i64..9), 0..4);
            let buttons = prop::collection::vec(button, 0..6).prop_map(|b| format!("{b:?}"));
            let limits =
                prop_oneof![number(0..3).prop_map(|k| format!("All({k})")), list_of(cells, number(0..3)),];
            (
                graph,
                modulus,
                prop::option::weighted(0.3, press),
                prop::option::weighted(0.2, buttons),
                prop::option::of(state.clone()),
                prop::option::of(state),
                prop::option::weighted(0.1, limits),
                prop::option::weighted(0.1, list_of(cells, number(0..3))),
            )
        })
        .prop_map(|(graph, modulus, press, buttons, start, target, max_presses, intended)| {
            let mut s = format!("Puzzle(\n    graph: {graph},\n    modulus: {modulus},\n");
            for (key, value) in [
                ("press", press),
                ("buttons", buttons),
                ("start", start),
                ("target", target),
                ("max_presses", max_presses),
                ("intended", intended),
            ] {
                if let Some(value) = value {
                    s.push_str(&format!("    {key}: {value},\n"));
                }
            }
            s.push_str(")\n");
            s
        })
}

/// A mutation of a shipped puzzle: `(position, kind, byte)`, applied in order.
fn mutations() -> impl Strategy<Value = Vec<(usize, u8, u8)>> {
    let byte = prop_oneof![
        3 => prop::sample::select(b"0123456789()[],:#.\"'/*-_ \nAaRrxe".to_vec()),
        1 => any::<u8>(),
    ];
    prop::collection::vec((any::<usize>(), 0u8..4, byte), 1..6)
}

fn mutate(original: &str, edits: &[(usize, u8, u8)]) -> Vec<u8> {
    let mut bytes = original.as_bytes().to_vec();
    for &(at, kind, b) in edits {
        if bytes.is_empty() {
            bytes.push(b);
            continue;
        }
        let i = at % bytes.len();
        match kind {
            0 => bytes[i] = b,
            1 => bytes.insert(i, b),
            2 => {
                bytes.remove(i);
            }
            _ => {
                // duplicate a short span (repeats digits, brackets, whole entries)
                let end = (i + 1 + at % 12).min(bytes.len());
                let span = bytes[i..end].to_vec();
                bytes.splice(i..i, span);
            }
        }
    }
    bytes
}

proptest! {
    #![proptest_config(no_persistence(5000))]

    #[test]
    fn arbitrary_strings_never_panic(source in any::<String>()) {
        parse_and_maybe_solve(&source);
    }
}

proptest! {
    #![proptest_config(no_persistence(CASES_NEAR_VALID))]

    #[test]
    fn ron_shaped_puzzles_never_panic(source in ron_puzzle()) {
        parse_and_maybe_solve(&source);
    }

    #[test]
    fn mutated_shipped_puzzles_never_panic(file in any::<prop::sample::Index>(), edits in mutations()) {
        let puzzles = shipped_puzzles();
        let (_, original) = &puzzles[file.index(puzzles.len())];
        let mutated = mutate(original, &edits);
        parse_and_maybe_solve(&String::from_utf8_lossy(&mutated));
        if let Ok(text) = std::str::from_utf8(&mutated) {
            parse_and_maybe_solve(text);
        }
    }
}

/// The generators are not vacuous: a fair share of RON-shaped puzzles and of mutated shipped
/// puzzles parse, and some reach the solver and are solvable.
#[test]
fn random_inputs_reach_the_validator_and_the_solver() {
    let mut runner = TestRunner::deterministic();
    let (mut parsed, mut invalid, mut solvable) = (0, 0, 0);
    let strategy = ron_puzzle();
    for _ in 0..1000 {
        let source = strategy.new_tree(&mut runner).expect("a value").current();
        match parse_puzzle(&source) {
            Ok(puzzle) => {
                parsed += 1;
                if solve(&puzzle).expect("verified").is_solvable() {
                    solvable += 1;
                }
            }
            Err(e) if e.field().is_some() => invalid += 1,
            Err(_) => {}
        }
    }
    eprintln!("ron-shaped: {parsed} {invalid} {solvable}");
    assert!(parsed >= 100 && invalid >= 100 && solvable >= 50, "{parsed} {invalid} {solvable}");
    let (mut parsed, mut invalid) = (0, 0);
    let puzzles = shipped_puzzles();
    let edits = mutations();
    for k in 0..1000 {
        let mutated =
            mutate(&puzzles[k % puzzles.len()].1, &edits.new_tree(&mut runner).expect("edits").current());
        match parse_puzzle(&String::from_utf8_lossy(&mutated)) {
            Ok(_) => parsed += 1,
            Err(e) if e.field().is_some() => invalid += 1,
            Err(_) => {}
        }
    }
    eprintln!("mutated: {parsed} {invalid}");
    assert!(parsed >= 50 && invalid >= 10, "{parsed} {invalid}");
}

/// Every prefix of every shipped puzzle (cut at each char boundary), exhaustively.
#[test]
fn every_truncation_of_every_shipped_puzzle_is_handled() {
    let mut failures = Vec::new();
    for (name, text) in shipped_puzzles() {
        let close = text.rfind(')').expect("a puzzle ends with `)`");
        for (cut, _) in text.char_indices() {
            let prefix = &text[..cut];
            match catch_unwind(AssertUnwindSafe(|| parse_puzzle(prefix))) {
                Err(_) => failures.push(format!("{name} cut at byte {cut}: parse_puzzle panicked")),
                Ok(Ok(puzzle)) => {
                    assert!(cut > close, "{name} cut at byte {cut} parses");
                    if let Err(message) = no_panic(&format!("{name} cut at byte {cut}"), prefix) {
                        failures.push(message);
                    }
                    assert!(puzzle.cell_count() > 0);
                }
                // A truncated file is bad input with a place to look at.
                Ok(Err(e)) => assert!(e.position.is_some(), "{name} cut at byte {cut}: {e} has no position"),
            }
        }
    }
    assert!(failures.is_empty(), "{} panics, first: {}", failures.len(), failures[0]);
}

/// Truncated shipped puzzles through the binary: exit 2 and nothing on stdout. (A sample of
/// cuts per file, to keep it fast.)
#[test]
fn truncated_puzzles_through_the_binary() {
    for (name, text) in shipped_puzzles() {
        let close = text.rfind(')').expect("a puzzle ends with `)`");
        let cuts: Vec<usize> = text.char_indices().map(|(i, _)| i).filter(|&i| i <= close).collect();
        for &cut in cuts.iter().step_by(cuts.len() / 6 + 1).chain(cuts.last()) {
            let (shown, output) = run_on(&text[..cut]);
            let stderr = String::from_utf8_lossy(&output.stderr);
            assert_eq!(output.status.code(), Some(2), "{name} cut at byte {cut}: {stderr}");
            assert!(output.stdout.is_empty(), "{name} cut at byte {cut}");
            assert!(stderr.contains(&format!("{shown}:")), "{name} cut at byte {cut}: a position\n{stderr}");
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Usage errors

#[test]
fn no_file_argument_is_a_usage_error() {
    for args in [&[][..], &["solve"][..], &["--json"][..], &["solve", "--json"][..]] {
        let output = modsolve().args(args).output().expect("modsolve runs");
        assert_eq!(output.status.code(), Some(2), "modsolve {args:?}");
        if args.contains(&"--json") {
            let json: serde_json::Value = serde_json::from_slice(&output.stdout).expect("a JSON error");
            assert_eq!(json["error"]["kind"], "usage", "modsolve {args:?}");
            assert_eq!(json["error"]["message"], "no puzzle file given", "modsolve {args:?}");
        } else {
            assert!(output.stdout.is_empty(), "modsolve {args:?}");
        }
        assert!(!output.stderr.is_empty(), "modsolve {args:?} explains itself");
    }
}

#[test]
fn a_missing_file_is_named() {
    let path = std::env::temp_dir().join(format!("modsolve-no-such-file-{}.ron", std::process::id()));
    let output = modsolve().arg(&path).output().expect("modsolve runs");
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains(&path.display().to_string()), "the path is named:\n{stderr}");
}

#[test]
fn an_unreadable_file_is_bad_input() {
    // not UTF-8
    let file = TempPuzzle::new(b"Puzzle(graph: Path(3), \xff\xfe modulus: 2)\n");
    let output = modsolve().arg(&file.path).output().expect("modsolve runs");
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty());
    assert!(String::from_utf8_lossy(&output.stderr).contains(&file.shown()));
    // a directory
    let dir = std::env::temp_dir();
    let output = modsolve().arg(&dir).output().expect("modsolve runs");
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty());
}

#[test]
fn unknown_flags_and_bad_option_values_are_usage_errors() {
    let puzzle = Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/lightsout-3x3.ron");
    for args in [
        &["--frobnicate"][..],
        &["--frobnicate", "P"][..],
        &["P", "--frobnicate"][..],
        &["solve", "P", "--frobnicate"][..],
        &["P", "--method", "magic"][..],
        &["P", "--budget", "soon"][..],
        &["P", "--minimize", "everything"][..],
        &["-z", "P"][..],
    ] {
        let args: Vec<&std::ffi::OsStr> =
            args.iter().map(|a| if *a == "P" { puzzle.as_os_str() } else { a.as_ref() }).collect();
        let output = modsolve().args(&args).output().expect("modsolve runs");
        assert_eq!(output.status.code(), Some(2), "modsolve {args:?}");
        if args.iter().any(|a| *a == "--json") {
            let json: serde_json::Value = serde_json::from_slice(&output.stdout).expect("a JSON error");
            assert_eq!(json["error"]["kind"], "usage", "modsolve {args:?}");
            assert_eq!(json["error"]["message"], "no puzzle file given", "modsolve {args:?}");
        } else {
            assert!(output.stdout.is_empty(), "modsolve {args:?}");
        }
        assert!(!output.stderr.is_empty(), "modsolve {args:?} explains itself");
    }
}

// ---------------------------------------------------------------------------------------------
// Regressions: crashes and mispositioned errors found while writing these tests

/// A cell count too large to allocate is a validation error of `graph`. (Once `Path`, `Cycle`,
/// `Cells` and `Edges` had no upper limit and `vec![m; cells]` panicked with "capacity
/// overflow", exit 101, or aborted on a failed allocation, exit 134.)
#[test]
fn huge_cell_counts_are_rejected_not_crashes() {
    for graph in [
        "Path(18446744073709551615)",
        "Cycle(4611686018427387904)",
        "Cells(18446744073709551615)",
        "Edges(cells: 18446744073709551615, edges: [])",
        "Grid(rows: 4294967296, cols: 4294967296)",
        "Grid(rows: 1000000, cols: 1000000)",
    ] {
        let source = format!("Puzzle(\n    graph: {graph},\n    modulus: 2,\n)\n");
        assert_rejected(&source, &["graph", "{file}:2:"]);
    }
}

/// A modulus with a prime factor >= 2^63 is solved exactly. (Once `r % q + q` overflowed in
/// `algebra::crt::combine`: "attempt to add with overflow".)
#[test]
fn a_modulus_near_2_pow_64_does_not_overflow() {
    for modulus in ["18446744073709551557", "9223372036854775837"] {
        let source = format!("Puzzle(graph: Cells(1), modulus: {modulus}, start: [5])");
        let puzzle = parse_puzzle(&source).expect("valid");
        let answer = catch_unwind(|| solve(&puzzle))
            .unwrap_or_else(|_| panic!("solve panicked on {source}"))
            .expect("verified");
        let presses = answer.presses.expect("one press per step: solvable");
        assert!(puzzle.solves(&presses));
        let m: BigUint = modulus.parse().unwrap();
        assert_eq!(presses, vec![m - 5u32]);
    }
}

/// Newlines inside string literals count. (Once the field locator skipped strings without
/// counting their newlines, and every later field was reported one line too early.)
#[test]
fn field_position_counts_newlines_inside_strings() {
    let source = "Puzzle(\n    name: \"two\nlines\",\n    graph: Path(3),\n    modulus: 1,\n)\n";
    let error = parse_puzzle(source).expect_err("modulus 1");
    assert_eq!(error.field(), Some("modulus"));
    assert_eq!(error.position.map(|p| (p.line, p.column)), Some((5, 5)), "{source}");
}

/// Raw strings containing `"` and nested block comments (both accepted by ron) are skipped.
/// (Once the field locator found the key inside them.)
#[test]
fn field_position_skips_raw_strings_and_nested_comments() {
    for source in [
        "Puzzle(\n    name: r#\"a\" target: \"#,\n    graph: Path(3),\n    modulus: 2,\n    target: [0, 1],\n)\n",
        "Puzzle(\n    /* outer /* inner */ target: [0] */\n    graph: Path(3),\n    modulus: 2,\n    target: [0, 1],\n)\n",
    ] {
        let error = parse_puzzle(source).expect_err("target too short");
        assert_eq!(error.field(), Some("target"));
        assert_eq!(error.position.map(|p| (p.line, p.column)), Some((5, 5)), "{source}");
    }
}

/// An integer that does not fit its field names the field (and the element of a list), the
/// number as written and the field's range, at the number's line and column. ron said only
/// "Integer is out of bounds", and called a number past 64 bits a floating point number.
#[test]
fn integers_out_of_range_name_their_field() {
    let max = u64::MAX.to_string();
    let big = (u64::MAX as u128 + 1).to_string();
    let cases: Vec<(String, Vec<String>)> = vec![
        (
            "Puzzle(graph: Cube(-1), modulus: 2)".into(),
            vec![format!(
                "`Cube(-1)`: -1 is out of range: the cube's size is a whole number from 0 to {max}"
            )],
        ),
        (
            "Puzzle(graph: Path(3), modulus: 2, max_presses: [1, -1, 2])".into(),
            vec![
                format!(
                    "`max_presses[1]`: -1 is out of range: a press limit is a whole number from 0 to {max}"
                ),
                "{file}:1:54".into(),
            ],
        ),
        (
            format!("Puzzle(graph: Path(3), modulus: {big})"),
            vec![format!("`modulus`: {big} is too large: a modulus is a whole number from 2 to {max}")],
        ),
        (
            format!("Puzzle(graph: Path(3), modulus: 2,\n    start: [0, 1, {big}])"),
            vec![
                format!("`start[2]`: {big} is too large: a cell value is a whole number from 0 to {max}"),
                "{file}:2:19".into(),
            ],
        ),
        (
            "Puzzle(graph: Grid(rows: -2, cols: 3), modulus: 2)".into(),
            vec![format!("`rows`: -2 is out of range: `rows` is a whole number from 0 to {max}")],
        ),
        (
            format!("Puzzle(graph: Path(2), modulus: 2, buttons: [[(0, {big})]])"),
            vec![format!(
                "`buttons`: {big} is too large: an amount is a whole number from {} to {}",
                i64::MIN,
                i64::MAX
            )],
        ),
        (
            "Puzzle(graph: Path(2), modulus: 2, target: All(-1))".into(),
            vec!["`target`: -1 is out of range: a cell value".into()],
        ),
    ];
    for (source, needles) in &cases {
        let needles: Vec<&str> = needles.iter().map(String::as_str).collect();
        let stderr = assert_rejected(source, &needles);
        assert!(!stderr.contains("out of bounds") && !stderr.contains("floating point"), "{stderr}");
    }
    // A long list goes through the fast reader; the message is the same.
    let mut values = vec!["1".to_string(); 5000];
    values[4000] = "-1".into();
    let source = format!("Puzzle(graph: Path(5000), modulus: 2, start: [{}])", values.join(", "));
    assert_rejected(&source, &["`start[4000]`: -1 is out of range"]);
}

// ---------------------------------------------------------------------------------------------
// Messages a designer can act on

/// Syntax errors in a designer's words: the field at fault, the bracket left open and where it
/// was opened, the kind of value expected. Once: "Expected float" (no field), "Expected comma"
/// for a missing `)` or `]`, "Expected opening `[`", "Expected string", ron's own advice about
/// `ron::Options::recursion_limit` for deep nesting.
const WORDED: &[Refused] = &[
    Refused {
        lines: &[
            "Puzzle(",
            "    graph: Path(3),",
            "    modulus: 2,",
            "    layout: [(0, 0), (1, \"x\"), (2, 0)],",
            ")",
        ],
        message: "`layout[1]`: expected a number",
        line: 4,
        column: 26,
    },
    Refused {
        lines: &["Puzzle(", "    graph: Grid(rows: 3, cols: \"x\"),", "    modulus: 2,", ")"],
        message: "`graph.cols`: expected a whole number",
        line: 2,
        column: 31,
    },
    Refused {
        lines: &["Puzzle(", "    graph: Path(3),", "    modulus: 2,", "    name: 5,", ")"],
        message: "`name`: expected text in double quotes (\"…\")",
        line: 4,
        column: 10,
    },
    Refused {
        lines: &["Puzzle(", "    graph: Grid(rows: 3, cols: 3", "    modulus: 2,", ")"],
        message: "a `)` is missing before `modulus`: the `Grid(` at line 2, column 12 is still open",
        line: 3,
        column: 5,
    },
    Refused {
        lines: &["Puzzle(", "    graph: Grid(rows: 3, cols: 3,", "    modulus: 2,", ")"],
        message: "unknown field `modulus` in Grid; the fields are `rows`, `cols`, `wrap`, `neighborhood`, \
                  `mask`; is a `)` missing before it? the `Grid(` at line 2, column 12 is still open",
        line: 3,
        column: 5,
    },
    Refused {
        lines: &[
            "Puzzle(",
            "    graph: Path(3),",
            "    modulus: 2,",
            "    start: [1, 0, 0",
            "    target: All(1),",
            ")",
        ],
        message: "a `]` is missing before `target`: the `[` at line 4, column 12 is still open",
        line: 5,
        column: 5,
    },
    Refused {
        lines: &[
            "Puzzle(",
            "    graph: Path(3),",
            "    modulus: 2,",
            "    buttons: [[(0, 1), (1, 1)], [(1, 1)],",
            ")",
        ],
        message: "a `]` is missing before this `)`: the `[` at line 4, column 14 is still open",
        line: 5,
        column: 1,
    },
    Refused {
        lines: &["Puzzle(", "    graph: Path(3)", "    modulus: 2,", ")"],
        message: "a `,` is missing before `modulus`: fields are separated by commas",
        line: 3,
        column: 5,
    },
    Refused {
        lines: &["Puzzle(graph: Path(3), modulus: [2 3 4])"],
        message: "a `,` is missing before this: list items and fields are separated by commas",
        line: 1,
        column: 36,
    },
    Refused {
        lines: &["Puzzle(graph: Path(3), modulus: 2, start: Rows([\"#.#\"]), target: [0, 1, 1]"],
        message: "the file ends early: the `Puzzle(` at line 1, column 1 is never closed with `)`",
        line: 1,
        column: 75,
    },
];

#[test]
fn syntax_errors_say_what_to_fix() {
    for case in WORDED {
        let source = source_of(case.lines);
        let error = parse_puzzle(&source).expect_err("refused");
        assert_eq!(error.to_string(), case.message, "{source}");
        let position = error.position.map(|p| (p.line, p.column));
        assert_eq!(position, Some((case.line, case.column)), "{error}\n{source}");
        let at = format!("{{file}}:{}:{}", case.line, case.column);
        assert_rejected(&source, &[case.message, &at]);
    }
    // Nesting past ron's limit: our words, not ron's advice about its options.
    let deep = format!("Puzzle(graph: Path(1), modulus: 2, start: {}0{})", "[".repeat(200), "]".repeat(200));
    let stderr = assert_rejected(
        &deep,
        &[
            "error: `start`: brackets are nested too deeply here; no field of a puzzle needs more than a few levels",
        ],
    );
    assert!(!stderr.contains("ron::") && !stderr.contains("serde_stacker"), "{stderr}");
}

/// A huge value is not echoed whole: its first and last digits and its length (a
/// 100,000-digit modulus once made a 100 KB message); a huge unknown name likewise.
#[test]
fn huge_values_are_cut_in_messages() {
    let digits = "9".repeat(100_000);
    let stderr = assert_rejected(
        &format!("Puzzle(graph: Path(1), modulus: {digits})"),
        &[
            "error: `modulus`: 9999999999999999…9999999999999999 (100000 digits) is too large: a modulus is a \
             whole number from 2 to 18446744073709551615",
            "{file}:1:33",
        ],
    );
    assert!(stderr.len() < 600, "{} bytes:\n{stderr}", stderr.len());
    let stderr = assert_rejected(
        &format!("Puzzle(graph: Path(1), modulus: 2, {}: 1)", "x".repeat(100_000)),
        &["error: unknown field `xxxxxxxxxxxxxxxx…xxxxxxxxxxxxxxxx (100000 characters)` in Puzzle"],
    );
    assert!(stderr.len() < 800, "{} bytes:\n{stderr}", stderr.len());
    let label = "y".repeat(5000);
    let stderr = assert_rejected(
        &format!("Puzzle(graph: Path(2), modulus: 2, labels: [\"{label}\", \"{label}\"])"),
        &["`labels[1]`: \"yyyyyyyyyyyyyyy…yyyyyyyyyyyyyyy\" (5002 characters) is already the name of cell 0"],
    );
    assert!(stderr.len() < 800, "{} bytes:\n{stderr}", stderr.len());
}
