//! The writer: a puzzle back as RON in the documented format (pictures for grid states), so
//! that reading the text gives the same puzzle.

use crate::model::{Board, BoardKind, Buttons, Neighborhood, Phases, Press, Puzzle, Stencil, Topology};

/// Writes a puzzle back as RON in the documented format: reading the text gives the same
/// puzzle. Grid states are pictures when every value fits one character.
///
/// ```
/// use modsolve::format::{parse_puzzle, to_ron};
///
/// let puzzle = parse_puzzle("Puzzle(graph: Grid(rows: 2, cols: 3), modulus: [2, 3, 4, 5, 6, 7], start: All(1))")?;
/// let text = to_ron(&puzzle, "a small mixed grid");
/// assert!(text.starts_with("// a small mixed grid"));
/// assert_eq!(parse_puzzle(&text)?, puzzle);
/// # Ok::<(), modsolve::InputError>(())
/// ```
pub fn to_ron(puzzle: &Puzzle, comment: &str) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    for line in comment.lines() {
        let _ = writeln!(out, "// {line}");
    }
    out.push_str("Puzzle(\n");
    if let Some(name) = &puzzle.name {
        let _ = writeln!(out, "    name: {name:?},");
    }
    let graph = graph_text(&puzzle.topology);
    let _ = writeln!(out, "    graph: {graph},");
    let m0 = puzzle.moduli[0];
    if puzzle.moduli.iter().all(|&m| m == m0) {
        let _ = writeln!(out, "    modulus: {m0},");
    } else {
        let _ = writeln!(out, "    modulus: {},", list_text(&puzzle.moduli.to_vec()));
    }
    buttons_text(&mut out, puzzle);
    let _ = writeln!(out, "    start: {},", state_text(puzzle, &puzzle.start.to_vec()));
    let _ = writeln!(out, "    target: {},", state_text(puzzle, &puzzle.target.to_vec()));
    for (key, labels) in [("labels", &puzzle.labels), ("button_labels", &puzzle.button_labels)] {
        if let Some(labels) = labels {
            let items: Vec<String> = labels.iter().map(|l| format!("{l:?}")).collect();
            let _ = writeln!(out, "    {key}: [{}],", items.join(", "));
        }
    }
    if let Some(layout) = &puzzle.layout {
        let _ = writeln!(out, "    layout: {},", layout_text(layout.points()));
    }
    if let Some(at) = &puzzle.button_at {
        let items: Vec<String> = at.iter().map(usize::to_string).collect();
        let _ = writeln!(out, "    button_at: [{}],", items.join(", "));
    }
    if puzzle.hide_par {
        out.push_str("    hide_par: true,\n");
    }
    if let Some(limits) = &puzzle.max_presses {
        let _ = writeln!(out, "    max_presses: {},", list_text(limits));
    }
    if let Some(intended) = &puzzle.intended {
        let _ = writeln!(out, "    intended: {},", list_text(intended));
    }
    out.push_str(")\n");
    out
}

/// A topology's `graph:` value.
fn graph_text(topology: &Topology) -> String {
    match topology {
        Topology::Cells(n) => format!("Cells({n})"),
        Topology::Path(n) => format!("Path({n})"),
        Topology::Cycle(n) => format!("Cycle({n})"),
        Topology::Grid { rows, cols, wrap, neighborhood } => {
            let mut g = format!("Grid(rows: {rows}, cols: {cols}");
            if *wrap {
                g.push_str(", wrap: true");
            }
            match neighborhood {
                Neighborhood::Cross => {}
                Neighborhood::King => g.push_str(", neighborhood: King"),
                Neighborhood::Knight => g.push_str(", neighborhood: Knight"),
            }
            g + ")"
        }
        Topology::Board(board) => board_text(board),
        Topology::Edges { adjacency } => {
            let edges: Vec<String> = adjacency
                .iter()
                .enumerate()
                .flat_map(|(a, list)| {
                    list.iter().filter(move |&&b| a < b).map(move |&b| format!("({a}, {b})"))
                })
                .collect();
            format!("Edges(cells: {}, edges: [{}])", adjacency.len(), edges.join(", "))
        }
    }
}

/// The buttons' fields: `phases:` or `button_phases:` when they are staged, else `press:` of
/// graph presses or the explicit `buttons:`.
fn buttons_text(out: &mut String, puzzle: &Puzzle) {
    use std::fmt::Write as _;
    let pairs = |list: &[(usize, i64)]| {
        let items: Vec<String> = list.iter().map(|(c, a)| format!("({c}, {a})")).collect();
        format!("[{}]", items.join(", "))
    };
    match (&puzzle.phases, &puzzle.buttons) {
        (Some(Phases::Graph(phases)), _) => {
            let items: Vec<String> =
                phases.iter().map(|(s, n)| format!("(self: {s}, neighbors: {n})")).collect();
            let _ = writeln!(out, "    phases: [{}],", items.join(", "));
        }
        (Some(Phases::Explicit(buttons)), _) => {
            out.push_str("    button_phases: [\n");
            for phases in buttons {
                let items: Vec<String> = phases.iter().map(|p| pairs(p)).collect();
                let _ = writeln!(out, "        [{}],", items.join(", "));
            }
            out.push_str("    ],\n");
        }
        (None, Buttons::Graph { self_weight, neighbor_weight }) => {
            let _ = writeln!(out, "    press: (self: {self_weight}, neighbors: {neighbor_weight}),");
        }
        (None, Buttons::Explicit(buttons)) => {
            out.push_str("    buttons: [\n");
            for b in buttons {
                let _ = writeln!(out, "        {},", pairs(b));
            }
            out.push_str("    ],\n");
        }
    }
}

/// [`to_ron`] with a comment line above some fields: `notes` pairs a top-level field name with
/// its comment (fields the puzzle does not write are passed over). The comments are RON
/// comments, so the text reads back as [`to_ron`]'s does.
pub fn to_ron_noted(puzzle: &Puzzle, comment: &str, notes: &[(&str, &str)]) -> String {
    let text = to_ron(puzzle, comment);
    let mut out = String::with_capacity(text.len() + notes.len() * 80);
    for line in text.split_inclusive('\n') {
        let key = line
            .strip_prefix("    ")
            .filter(|rest| !rest.starts_with(' '))
            .and_then(|rest| rest.split_once(':'));
        if let Some((key, _)) = key {
            for (_, note) in notes.iter().filter(|(field, _)| *field == key) {
                for note_line in note.lines() {
                    out.push_str("    // ");
                    out.push_str(note_line);
                    out.push('\n');
                }
            }
        }
        out.push_str(line);
    }
    out
}

/// The value of a `layout:` field: `[(x, y), …]`, each number written so that it reads back
/// the same (`1.0`, `2.25`).
pub fn layout_text(points: &[[f64; 2]]) -> String {
    let items: Vec<String> = points.iter().map(|[x, y]| format!("({x:?}, {y:?})")).collect();
    format!("[{}]", items.join(", "))
}

/// A board's `graph:` value: `Grid(…)` with its stencils and mask, `Hex(…)`, `Cube(n)`.
fn board_text(board: &Board) -> String {
    let (rows, cols) = board.picture_size();
    let mask = |g: &mut String| {
        if let Some(mask) = board.mask() {
            let lines: Vec<String> = mask
                .chunks(cols)
                .map(|row| {
                    format!(
                        "        \"{}\",",
                        row.iter().map(|&p| if p { '#' } else { '.' }).collect::<String>()
                    )
                })
                .collect();
            g.push_str(&format!(", mask: [\n{}\n    ]", lines.join("\n")));
        }
    };
    match board.kind() {
        BoardKind::Grid { wrap, press } => {
            let mut g = format!("Grid(rows: {rows}, cols: {cols}");
            if *wrap {
                g.push_str(", wrap: true");
            }
            match press {
                Press::Same(s) if s.name() == Some(Neighborhood::Cross) => {}
                Press::Same(s) => g.push_str(&format!(", neighborhood: {}", stencil_text(s))),
                Press::Classes { corner, edge, center } => g.push_str(&format!(
                    ", neighborhood: Classes(corner: {}, edge: {}, center: {})",
                    stencil_text(corner),
                    stencil_text(edge),
                    stencil_text(center)
                )),
            }
            mask(&mut g);
            g + ")"
        }
        BoardKind::Hex => {
            let mut g = format!("Hex(rows: {rows}, cols: {cols}");
            mask(&mut g);
            g + ")"
        }
        BoardKind::Cube(n) => format!("Cube({n})"),
    }
}

/// A stencil as its name (`King`) or its picture (`Stencil(["#.#", ".x.", "#.#"])`).
fn stencil_text(stencil: &Stencil) -> String {
    if let Some(name) = stencil.name() {
        return format!("{name:?}");
    }
    let (mut top, mut left, mut bottom, mut right) = (0i32, 0i32, 0i32, 0i32);
    for &(r, c) in stencil.offsets() {
        (top, left, bottom, right) = (top.min(r), left.min(c), bottom.max(r), right.max(c));
    }
    let rows: Vec<String> = (top..=bottom)
        .map(|r| {
            let row: String = (left..=right)
                .map(|c| match (r, c) {
                    (0, 0) if stencil.changes_itself() => 'x',
                    (0, 0) => 'o',
                    _ if stencil.offsets().binary_search(&(r, c)).is_ok() => '#',
                    _ => '.',
                })
                .collect();
            format!("{row:?}")
        })
        .collect();
    format!("Stencil([{}])", rows.join(", "))
}

pub(super) fn list_text(values: &[u64]) -> String {
    let items: Vec<String> = values.iter().map(u64::to_string).collect();
    format!("[{}]", items.join(", "))
}

/// `All(v)`, a picture (holes `-`; hex rows with spaces between the cells, odd rows shifted),
/// or a list.
pub(super) fn state_text(puzzle: &Puzzle, state: &[u64]) -> String {
    if state.iter().all(|&v| v == state[0]) {
        return format!("All({})", state[0]);
    }
    let topology = &puzzle.topology;
    match topology.picture_size() {
        Some((rows, cols)) if state.iter().all(|&v| v < 36) => {
            let hex = topology.is_hex();
            let lines: Vec<String> = (0..rows)
                .map(|r| {
                    let mut text = String::with_capacity(cols * 2);
                    if hex && r % 2 == 1 {
                        text.push(' ');
                    }
                    for c in 0..cols {
                        if hex && c > 0 {
                            text.push(' ');
                        }
                        text.push(match topology.cell_at(r, c).map(|i| state[i]) {
                            None => '-',
                            Some(0) => '.',
                            Some(1) => '#',
                            Some(v) => char::from_digit(v as u32, 36).unwrap_or('?'),
                        });
                    }
                    format!("        \"{text}\",")
                })
                .collect();
            format!("Rows([\n{}\n    ])", lines.join("\n"))
        }
        _ => list_text(state),
    }
}
