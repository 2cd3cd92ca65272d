//! The writer: a puzzle back as RON in the documented format (pictures for grid states), so
//! that reading the text gives the same puzzle.

use crate::model::{Buttons, Neighborhood, Phases, Puzzle, Topology};

/// Writes a puzzle back as RON in the documented format: reading the text gives the same
/// puzzle. Grid states are pictures when every value fits one character.
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
    let graph = match &puzzle.topology {
        Topology::Cells(n) => format!("Cells({n})"),
        Topology::Path(n) => format!("Path({n})"),
        Topology::Cycle(n) => format!("Cycle({n})"),
        Topology::Grid { rows, cols, wrap, neighborhood } => {
            let mut g = format!("Grid(rows: {rows}, cols: {cols}");
            if *wrap {
                g.push_str(", wrap: true");
            }
            if *neighborhood == Neighborhood::King {
                g.push_str(", neighborhood: King");
            }
            g + ")"
        }
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
    };
    let _ = writeln!(out, "    graph: {graph},");
    let m0 = puzzle.moduli[0];
    if puzzle.moduli.iter().all(|&m| m == m0) {
        let _ = writeln!(out, "    modulus: {m0},");
    } else {
        let _ = writeln!(out, "    modulus: {},", list_text(&puzzle.moduli.to_vec()));
    }
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
    let _ = writeln!(out, "    start: {},", state_text(puzzle, &puzzle.start.to_vec()));
    let _ = writeln!(out, "    target: {},", state_text(puzzle, &puzzle.target.to_vec()));
    if let Some(labels) = &puzzle.labels {
        let items: Vec<String> = labels.iter().map(|l| format!("{l:?}")).collect();
        let _ = writeln!(out, "    labels: [{}],", items.join(", "));
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

pub(super) fn list_text(values: &[u64]) -> String {
    let items: Vec<String> = values.iter().map(u64::to_string).collect();
    format!("[{}]", items.join(", "))
}

/// `All(v)`, a grid picture, or a list.
pub(super) fn state_text(puzzle: &Puzzle, state: &[u64]) -> String {
    if state.iter().all(|&v| v == state[0]) {
        return format!("All({})", state[0]);
    }
    match puzzle.topology.grid_shape() {
        Some((_, cols)) if state.iter().all(|&v| v < 36) => {
            let rows: Vec<String> = state
                .chunks(cols)
                .map(|row| {
                    let text: String = row
                        .iter()
                        .map(|&v| match v {
                            0 => '.',
                            1 => '#',
                            _ => char::from_digit(v as u32, 36).unwrap_or('?'),
                        })
                        .collect();
                    format!("        \"{text}\",")
                })
                .collect();
            format!("Rows([\n{}\n    ])", rows.join("\n"))
        }
        _ => list_text(state),
    }
}
