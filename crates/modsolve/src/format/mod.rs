//! The puzzle file format (RON) and its validation into a [`Puzzle`].
//!
//! Parsing is two steps: `ron` + serde read the text into `PuzzleFile`, which mirrors the file
//! (syntax errors carry ron's line and column); `PuzzleFile::into_puzzle` then checks every
//! field against the others and resolves shorthand (`All(v)`, `Rows([...])`, one modulus for
//! all cells). The format is documented for users in FORMAT.md.
//!
//! Strictness: every struct (`Puzzle`, `press`, `Grid`, `Edges`) rejects unknown fields, with a
//! suggestion when a known name is close (edit distance). The fields that take several shapes
//! (`modulus`, `start`, `target`, `max_presses`) are kept as their source text (`RawField`)
//! and read once the graph is known, by `read_shape`: ron's `deserialize_any` drops a
//! variant's name (`All(3)` reaches a visitor exactly as `[3]` does) and `deserialize_enum`
//! refuses lists, so the shape is chosen from the first token, and lists are streamed, keeping
//! no more values than the puzzle has cells. Maps and other shapes are refused there.
//!
//! Validation errors name a field path (`start[3]`, `graph.edges[2]`, `start[1][4]` for the
//! fifth character of row 1 of a picture); `locate_field` walks the source to the element at
//! fault to give its line and column.

mod convert;
#[doc(hidden)]
pub mod dict;
#[doc(hidden)]
pub mod edit;
mod fast;
mod file;
mod locate;
mod range;
mod shape;
mod syntax;
mod write;

use crate::error::{InputError, InputErrorKind, Position, shorten};
use crate::model::Puzzle;

pub(crate) use convert::{read_mask, read_stencil};
use fast::Cut;
use file::*;
use locate::*;
use shape::*;
pub use write::to_ron;
#[doc(hidden)]
pub use write::{layout_text, to_ron_noted};

/// The model's limits, which the reader checks as it reads.
pub use crate::model::{MAX_CELLS, MAX_EDGES_CELLS};

fn ron_options() -> ron::Options {
    ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
}

/// Reads and validates a puzzle from RON text.
///
/// ```
/// let octopus = modsolve::parse_puzzle(
///     "Puzzle(graph: Path(4), modulus: [7, 8, 7, 6], press: (self: 2, neighbors: 1), start: [2, 4, 5, 3])",
/// )?;
/// assert_eq!((octopus.cell_count(), octopus.button_count()), (4, 4));
///
/// // What is wrong is named as the file names it.
/// let error = modsolve::parse_puzzle("Puzzle(graph: Path(3),\n  modulus: [7, 1, 7])").unwrap_err();
/// assert_eq!(error.to_string(), "`modulus[1]`: is 1; a cell must count modulo at least 2");
/// # Ok::<(), modsolve::InputError>(())
/// ```
pub fn parse_puzzle(source: &str) -> Result<Puzzle, InputError> {
    parse_with(source, true)
}

/// [`parse_puzzle`], with or without the fast reader for long plain lists (tests compare them).
fn parse_with(source: &str, fast_lists: bool) -> Result<Puzzle, InputError> {
    // Long plain lists are read by the fast reader, the rest of the file by ron.
    let mut cut = if fast_lists { Cut::lists(source) } else { Cut::none(source) };
    let (buttons, lists) = (cut.buttons.take(), std::mem::take(&mut cut.lists));
    let mut file: PuzzleFile = ron_options().from_str(&cut.text).map_err(|e| {
        let mut error = syntax_error(&e, &cut.text, &|at| cut.position(at), None);
        if let Some(message) =
            range::offset_of(&cut.text, e.span.start).and_then(|at| range::file_message(&cut.text, at))
        {
            error.kind = InputErrorKind::Syntax { message };
        }
        error.position = Some(cut.ron_position(e.span.start));
        error
    })?;
    if buttons.is_some() {
        file.buttons = buttons;
    }
    file.into_puzzle(&cut, lists).map_err(|mut e| {
        if let InputErrorKind::Invalid { field, .. } = &e.kind {
            // `center` may be written `centre`.
            e.position = locate_field(source, field)
                .or_else(|| locate_field(source, &field.replace(".center", ".centre")));
        }
        e
    })
}

/// The line and column of a field in a puzzle file's source: `start`, `graph.rows`, `start[3]`
/// (the fourth element), `start[1][4]` (the fifth character of picture row 1); `None` when the
/// file does not write that field. Tools that point at a field (annotations in CI) use it.
#[doc(hidden)]
pub fn locate(source: &str, field: &str) -> Option<Position> {
    locate_field(source, field)
}

/// The text of a top-level field's value as written (`start`, `modulus`, …); `None` when the
/// file does not write that field.
#[doc(hidden)]
pub fn field_text<'a>(source: &'a str, key: &str) -> Option<&'a str> {
    let bytes = source.as_bytes();
    let start = find_top_level_value(bytes, key.as_bytes())?;
    Some(&source[start..value_end(bytes, start)])
}

/// `source` with the top-level field `key` set to `value` (RON text): the value replaced where
/// it is written, or the field added after the last one. Comments, the order of the fields and
/// every other field stay as written. `None` when the text is not a struct `Name(…)` or `(…)`.
/// Editors use it to change one field of a designer's file; the result still needs reading.
#[doc(hidden)]
pub fn with_field(source: &str, key: &str, value: &str) -> Option<String> {
    let bytes = source.as_bytes();
    if let Some(start) = find_top_level_value(bytes, key.as_bytes()) {
        let end = value_end(bytes, start);
        return Some(format!("{}{value}{}", &source[..start], &source[end..]));
    }
    let (last, _) = outer_close(bytes)?;
    let before = &source[..last];
    let comma = if before.ends_with([',', '(']) { "" } else { "," };
    Some(format!("{before}{comma}\n    {key}: {value},{}", &source[last..]))
}

/// The fields of `Puzzle(…)`.
const PUZZLE_FIELDS: [&str; 16] = [
    "name",
    "graph",
    "modulus",
    "press",
    "buttons",
    "start",
    "target",
    "labels",
    "button_labels",
    "button_at",
    "layout",
    "hide_par",
    "max_presses",
    "intended",
    "phases",
    "button_phases",
];

/// What a struct or enum is called in messages: the field that holds it, or its own name.
fn user_name(outer: &Option<String>) -> &str {
    match outer.as_deref() {
        None | Some("") => "this place",
        Some("PressSpec") => "press",
        Some("GraphSpec") => "graph",
        Some("Neighborhood" | "NeighborhoodSpec" | "ClassSpec") => "neighborhood",
        Some(name) => name,
    }
}

/// `; did you mean `x`?`, or `; expected one of `a`, `b`` when nothing is close.
fn hint(found: &str, known: &[&str], noun: &str) -> String {
    match suggestion(found, known) {
        Some(s) => format!("; did you mean `{s}`?"),
        None if known.is_empty() => String::new(),
        None => {
            let list: Vec<String> = known.iter().map(|k| format!("`{k}`")).collect();
            format!("; the {noun} are {}", list.join(", "))
        }
    }
}

/// ron's error as ours: unknown and missing names with suggestions, the rest in a designer's
/// words ([`syntax::describe`]). `text` is what ron read, `position` turns its offsets into
/// places in the file, `key` is the field `text` is the value of (`None`: the whole file).
fn syntax_error(
    e: &ron::error::SpannedError,
    text: &str,
    position: &dyn Fn(usize) -> Position,
    key: Option<&str>,
) -> InputError {
    use ron::error::Error;
    let message = match &e.code {
        Error::NoSuchStructField { expected, found, outer } => {
            let mut message = format!(
                "unknown field `{}` in {}{}",
                shorten(found),
                user_name(outer),
                hint(found, expected, "fields")
            );
            // A field of the puzzle inside another struct: most likely a bracket left open.
            if outer.as_deref() != Some("Puzzle")
                && PUZZLE_FIELDS.contains(&found.as_str())
                && let Some(open) =
                    range::offset_of(text, e.span.start).and_then(|at| syntax::left_open(text, at, position))
            {
                message.push_str(&open);
            }
            message
        }
        Error::NoSuchEnumVariant { expected, found, outer } => {
            format!("unknown {} `{}`{}", user_name(outer), shorten(found), hint(found, expected, "choices"))
        }
        Error::MissingStructField { field, outer } => {
            format!("missing field `{field}` in {}", user_name(outer))
        }
        code => range::offset_of(text, e.span.start)
            .and_then(|at| syntax::describe(code, text, at, position, key))
            .unwrap_or_else(|| code.to_string()),
    };
    InputError {
        position: Some(Position { line: e.span.start.line, column: e.span.start.col }),
        kind: InputErrorKind::Syntax { message },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Writing a puzzle and reading it back gives the same puzzle, for every shipped file.
    /// One field set in place: replaced where written (comments and the other fields kept,
    /// values of every shape), or added when absent; the result reads as the puzzle expected.
    #[test]
    fn a_field_is_set_in_place() {
        let source = "// A level.\nPuzzle(\n    name: \"a, b (c)\", // the name\n    graph: Path(3),\n    modulus: 3,\n    start: Rows([\"1.2\"]) /* kept */ ,\n    intended: [1, 0, 2],\n)\n";
        assert_eq!(field_text(source, "start"), Some("Rows([\"1.2\"])"));
        assert_eq!(field_text(source, "target"), None);
        let edited = with_field(source, "start", "[2, 2, 2]").expect("a struct");
        assert!(
            edited.contains("start: [2, 2, 2] /* kept */ ,") && edited.contains("// the name"),
            "{edited}"
        );
        let edited = with_field(&edited, "target", "All(1)").expect("a struct");
        assert!(edited.ends_with("intended: [1, 0, 2],\n    target: All(1),\n)\n"), "{edited}");
        let puzzle = parse_puzzle(&edited).expect("valid");
        assert_eq!((puzzle.start().to_vec(), puzzle.target().to_vec()), (vec![2, 2, 2], vec![1, 1, 1]));
        assert_eq!(puzzle.name(), Some("a, b (c)"));
        // Without a trailing comma, and in an unnamed struct.
        let bare = with_field("(graph: Path(2), modulus: 2)", "start", "[1, 0]").expect("a struct");
        assert_eq!(bare, "(graph: Path(2), modulus: 2,\n    start: [1, 0],)");
        assert_eq!(parse_puzzle(&bare).expect("valid").start().to_vec(), vec![1, 0]);
        assert_eq!(with_field("[1, 2]", "start", "[0]"), None);
    }

    /// Long per-cell lists read the same through the fast reader as through ron: the puzzle,
    /// and every error with its place (a bad value deep in a list, a wrong length, spellings the
    /// fast reader leaves to ron), for grids of 40 × 40 with random spacing and comments.
    #[test]
    fn long_lists_read_alike_either_way() {
        use rand::{RngExt, SeedableRng, rngs::StdRng};
        let mut rng = StdRng::seed_from_u64(5);
        let cells = 1600;
        let gaps = ["", " ", "\n  ", "/* c */", "// x\n"];
        let list = |values: &[String], rng: &mut StdRng| {
            let body: Vec<String> =
                values.iter().map(|v| format!("{v}{}", gaps[rng.random_range(0..gaps.len())])).collect();
            format!("[{}]", body.join(","))
        };
        let (mut fast_read, mut errors) = (0, 0);
        for round in 0..40 {
            let moduli: Vec<u64> = (0..cells).map(|_| rng.random_range(2..=12)).collect();
            let mut modulus: Vec<String> = moduli.iter().map(u64::to_string).collect();
            let mut start: Vec<String> = moduli.iter().map(|&m| rng.random_range(0..m).to_string()).collect();
            let target: Vec<String> = moduli.iter().map(|&m| rng.random_range(0..m).to_string()).collect();
            let mut limits: Vec<String> = (0..cells).map(|_| rng.random_range(0..5u32).to_string()).collect();
            let k = rng.random_range(0..cells);
            match round % 8 {
                1 => modulus[k] = "1".into(),
                2 => start[k] = "99".into(),
                3 => start[k] = "-1".into(),
                4 => limits[k] = "0x3".into(),
                5 => {
                    start.pop();
                }
                6 => modulus[k] = "18446744073709551616".into(),
                _ => {}
            }
            let source = format!(
                "// level {round}\nPuzzle(\n  graph: Grid(rows: 40, cols: 40),\n  modulus: {},\n  start: {}, target: {},\n  max_presses: {},\n)\n",
                list(&modulus, &mut rng),
                list(&start, &mut rng),
                list(&target, &mut rng),
                list(&limits, &mut rng)
            );
            fast_read += usize::from(Cut::lists(&source).lists.0.iter().any(|(k, _)| *k == "modulus"));
            match (parse_with(&source, true), parse_with(&source, false)) {
                (Ok(a), Ok(b)) => assert_eq!(a, b, "round {round}"),
                (Err(a), Err(b)) => {
                    errors += 1;
                    assert_eq!((a.to_string(), a.position), (b.to_string(), b.position), "round {round}");
                }
                (a, b) => panic!("round {round}: {a:?} but {b:?}"),
            }
        }
        assert!(fast_read >= 30 && errors >= 20, "{fast_read} read fast, {errors} errors");
        // A list inside a (byte) string is not the field; ron reports the string, either way.
        let long = "2, ".repeat(2000);
        for string in ["br#\"x\"", "b\"x", "r#\"x"] {
            let source = format!(
                "Puzzle(graph: Grid(rows: 2, cols: 2), max_presses: {string}, modulus: [{long}], y: \"#, modulus: 2)"
            );
            let (a, b) = (parse_with(&source, true), parse_with(&source, false));
            let (a, b) = (a.expect_err("a string"), b.expect_err("a string"));
            assert_eq!((a.to_string(), a.position), (b.to_string(), b.position), "{string}");
        }
    }

    /// `start` is checked before `target` is read: its error comes first.
    #[test]
    fn start_is_checked_before_target_is_read() {
        let error =
            parse_puzzle("Puzzle(graph: Grid(rows: 2, cols: 2), modulus: 2, start: [0], target: Foo(1))")
                .expect_err("two errors");
        assert!(error.to_string().contains("start") && error.to_string().contains("1 value"), "{error}");
    }

    /// `button_at:` is read, written back, and checked: one cell per explicit button, each a
    /// cell, none twice, and only for explicit buttons; each error at its place.
    #[test]
    fn button_at_is_read_checked_and_written() {
        let base = "Puzzle(graph: Grid(rows: 2, cols: 2), modulus: 2, buttons: [[(0, 1), (1, 1)], [(2, 1)]]";
        let puzzle = parse_puzzle(&format!("{base}, button_at: [3, 0])")).unwrap();
        assert_eq!((puzzle.button_cell(0), puzzle.button_cell(1)), (Some(3), Some(0)));
        assert_eq!(puzzle.cell_buttons(), Some(vec![Some(1), None, None, Some(0)]));
        let text = to_ron(&puzzle, "");
        assert!(text.contains("    button_at: [3, 0],\n"), "{text}");
        assert_eq!(parse_puzzle(&text).unwrap().button_cell(0), Some(3));
        for (field, message) in [
            ("button_at: [3]", "`button_at`: has 1 cell but the puzzle has 2 buttons"),
            ("button_at: [3, 3]", "`button_at[1]`: cell 3 already holds button 0"),
            ("button_at: [3, 4]", "`button_at[1]`: cell 4 is not a cell of the puzzle (4 cells)"),
        ] {
            let error = parse_puzzle(&format!("{base}, {field})")).expect_err(field);
            assert!(error.to_string().starts_with(message), "{field}: {error}");
        }
        let graph = parse_puzzle("Puzzle(graph: Path(2), modulus: 2, button_at: [0, 1])").expect_err("graph");
        assert!(graph.to_string().contains("is for explicit buttons"), "{graph}");
    }

    /// `hide_par:` is read (false when left out), written back only when true, and a value that
    /// is not a boolean is refused at its place.
    #[test]
    fn hide_par_is_read_and_written_when_true() {
        let hidden = parse_puzzle("Puzzle(graph: Path(3), modulus: 2, hide_par: true)").unwrap();
        assert!(hidden.hide_par());
        let text = to_ron(&hidden, "");
        assert!(text.contains("    hide_par: true,\n"), "{text}");
        assert!(parse_puzzle(&text).unwrap().hide_par());
        let shown = parse_puzzle("Puzzle(graph: Path(3), modulus: 2)").unwrap();
        assert!(!shown.hide_par() && !to_ron(&shown, "").contains("hide_par"));
        let error = parse_puzzle("Puzzle(graph: Path(3), modulus: 2, hide_par: 1)").expect_err("not a bool");
        assert!(error.to_string().contains("hide_par") || error.to_string().contains("bool"), "{error}");
    }

    /// `layout:` is read, checked (one position per cell, finite numbers, each error placed),
    /// written back, and set in place; files without it are written without it.
    #[test]
    fn layout_is_read_checked_and_written() {
        let source =
            "Puzzle(\n    graph: Path(3),\n    modulus: 2,\n    layout: [(0, 0), (1.5, -2.25), (3, 0)],\n)\n";
        let puzzle = parse_puzzle(source).expect("valid");
        let points = puzzle.layout().expect("a layout").points().to_vec();
        assert_eq!(points, vec![[0.0, 0.0], [1.5, -2.25], [3.0, 0.0]]);
        let text = to_ron(&puzzle, "");
        assert!(text.contains("    layout: [(0.0, 0.0), (1.5, -2.25), (3.0, 0.0)],\n"), "{text}");
        assert_eq!(parse_puzzle(&text).expect("valid"), puzzle);
        // Wrong length, with the place of the field.
        let short = "Puzzle(\n    graph: Path(3),\n    modulus: 2,\n    layout: [(0, 0), (1, 0)],\n)\n";
        let error = parse_puzzle(short).expect_err("two positions");
        assert!(error.to_string().contains("`layout`: has 2 positions but the graph has 3 cells"), "{error}");
        assert_eq!(error.position, Some(Position { line: 4, column: 5 }));
        // Numbers that are not finite (or too far out), at the element at fault.
        for (bad, shown) in [("inf", "inf"), ("NaN", "NaN"), ("1e400", "inf"), ("-2e6", "-2000000")] {
            let source = format!(
                "Puzzle(\n    graph: Path(3),\n    modulus: 2,\n    layout: [(0, 0),\n        (1, {bad}), (2, 0)],\n)\n"
            );
            let error = parse_puzzle(&source).expect_err(bad);
            let text = error.to_string();
            assert!(
                text.contains("layout[1]") && text.contains(shown) && text.contains("finite"),
                "{bad}: {text}"
            );
            assert_eq!(error.position, Some(Position { line: 5, column: 9 }), "{bad}");
        }
        // A shape that is not a list of pairs: ron's error, with its place.
        let error = parse_puzzle("Puzzle(graph: Path(1), modulus: 2, layout: [1])").expect_err("not pairs");
        assert!(error.position.is_some(), "{error}");
        // Set in place by an editor, and read back.
        let moved = with_field(source, "layout", &layout_text(&[[0.0, 0.0], [1.0, 1.0], [2.5, 0.0]]))
            .expect("a struct");
        assert!(moved.contains("layout: [(0.0, 0.0), (1.0, 1.0), (2.5, 0.0)],"), "{moved}");
        assert_eq!(parse_puzzle(&moved).expect("valid").layout().expect("given").points()[2], [2.5, 0.0]);
        // -0 and 0 are the same place.
        let zero = parse_puzzle("Puzzle(graph: Path(1), modulus: 2, layout: [(-0.0, 0)])").expect("valid");
        assert_eq!(
            zero,
            parse_puzzle("Puzzle(graph: Path(1), modulus: 2, layout: [(0, 0)])").expect("valid")
        );
    }

    #[test]
    fn round_trip_of_shipped_puzzles() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../puzzles");
        for entry in std::fs::read_dir(dir).expect("puzzles/") {
            let path = entry.expect("entry").path();
            let puzzle = parse_puzzle(&std::fs::read_to_string(&path).expect("readable")).expect("valid");
            let text = to_ron(&puzzle, "round trip");
            let again = parse_puzzle(&text).unwrap_or_else(|e| panic!("{}: {e}\n{text}", path.display()));
            assert_eq!(again, puzzle, "{}", path.display());
            // No file ships a layout: none is written.
            assert!(puzzle.layout().is_none() && !text.contains("layout"), "{}", path.display());
        }
    }
}
