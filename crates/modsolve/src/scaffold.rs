//! `modsolve new`: commented starter puzzle files, one per graph form, that parse and check
//! clean. The start is one press of button 0 away from the target, so every starter is
//! solvable and not already solved.

use num_bigint::BigUint;

use crate::algebra::arith::sub_mod;
use crate::format::parse_puzzle;

/// The graph form of a starter file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// A grid of this many rows and columns.
    Grid {
        /// The number of rows.
        rows: usize,
        /// The number of columns.
        cols: usize,
    },
    /// `n` cells in a row.
    Path(usize),
    /// `n` cells in a ring.
    Cycle(usize),
    /// `n` cells with an edge list to fill in.
    Edges(usize),
    /// `n` unconnected cells with explicit buttons.
    Cells(usize),
}

fn list(values: &[u64]) -> String {
    let items: Vec<String> = values.iter().map(u64::to_string).collect();
    format!("[{}]", items.join(", "))
}

/// The most cells a starter file holds.
pub const STARTER_CELLS: usize = 1_000_000;

/// Why a starter file cannot be written.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StarterError {
    /// The modulus is below 2.
    #[error("the modulus is {0}; a cell must count modulo at least 2")]
    Modulus(u64),
    /// A size is 0.
    #[error("the puzzle needs at least one cell")]
    NoCells,
    /// More cells than a starter file should hold.
    #[error("{0} is more than a starter file should hold (at most {STARTER_CELLS} cells)")]
    TooLarge(String),
    /// The starter text does not read back: a bug.
    #[error("internal error in the starter: {0}")]
    Internal(crate::error::InputError),
}

/// The text of a starter puzzle.
pub fn starter(form: Form, modulus: u64) -> Result<String, StarterError> {
    if modulus < 2 {
        return Err(StarterError::Modulus(modulus));
    }
    // A grid's product past `usize` is more cells than any limit: say so, not "no cells".
    let cells = match form {
        Form::Grid { rows, cols } if rows == 0 || cols == 0 => None,
        Form::Grid { rows, cols } => Some(rows.saturating_mul(cols)),
        Form::Path(n) | Form::Cycle(n) | Form::Edges(n) | Form::Cells(n) => Some(n).filter(|&n| n > 0),
    };
    let Some(cells) = cells else { return Err(StarterError::NoCells) };
    if cells > STARTER_CELLS {
        let what = match form {
            Form::Grid { rows, cols } => format!("a {rows}×{cols} grid"),
            _ => format!("{cells} cells"),
        };
        return Err(StarterError::TooLarge(what));
    }
    let (graph, extra, what) = match form {
        Form::Grid { rows, cols } => (
            format!("Grid(rows: {rows}, cols: {cols})"),
            "    // Grid options: wrap: true (a torus), neighborhood: King (8 neighbours).\n".to_string(),
            format!("A {rows}×{cols} grid"),
        ),
        Form::Path(n) => (format!("Path({n})"), String::new(), format!("{n} cells in a row")),
        Form::Cycle(n) => (format!("Cycle({n})"), String::new(), format!("{n} cells in a ring")),
        Form::Edges(n) => {
            let edges: Vec<String> = (1..n).map(|i| format!("({}, {i})", i - 1)).collect();
            (
                format!("Edges(cells: {n}, edges: [{}])", edges.join(", ")),
                "    // Edges are undirected (a, b) pairs of cell numbers; add or remove freely.\n"
                    .to_string(),
                format!("A graph of {n} cells"),
            )
        }
        Form::Cells(n) => (format!("Cells({n})"), String::new(), format!("{n} cells with explicit buttons")),
    };
    let press = match form {
        Form::Cells(n) => {
            // Button j adds 1 to cell j and to the next cell: every cell touched, no duplicates.
            let buttons: Vec<String> = (0..n)
                .map(|j| if j + 1 < n { format!("        [({j}, 1), ({}, 1)],", j + 1) } else { format!("        [({j}, 1)],") })
                .collect();
            format!(
                "    // Each button lists (cell, amount) pairs: what one press adds.\n    buttons: [\n{}\n    ],\n",
                buttons.join("\n")
            )
        }
        _ => "    // A press adds `self` to the pressed cell and `neighbors` to each neighbour.\n    press: (self: 1, neighbors: 1),\n".to_string(),
    };
    let body = |start: &str| {
        format!(
            "// {what}, every cell counting modulo {modulus}. Made by `modsolve new`; edit freely.\n\
             // Reference: FORMAT.md. Check it with `modsolve check FILE`.\n\
             Puzzle(\n    name: \"New puzzle\",\n    graph: {graph},\n{extra}    modulus: {modulus},\n{press}\
             \x20   // States: a list (one value per cell), All(v), or for grids Rows([\"#.\", \".#\"]).\n\
             \x20   start: {start},\n    target: All(0),\n)\n"
        )
    };
    // Work out the start: the target with one press of button 0 undone.
    let draft = parse_puzzle(&body("All(0)")).map_err(StarterError::Internal)?;
    let mut presses = vec![BigUint::from(0u32); draft.button_count()];
    presses[0] = BigUint::from(1u32);
    let after = draft.apply(&draft.target.to_vec(), &presses);
    let start: Vec<u64> =
        draft.target.iter().zip(&after).zip(&draft.moduli).map(|((&t, &a), &m)| sub_mod(t, a, m)).collect();
    let start_text = match form {
        Form::Grid { cols, .. } if modulus <= 36 => {
            let rows: Vec<String> = start
                .chunks(cols)
                .map(|row| {
                    let text: String = row
                        .iter()
                        .map(|&v| if v == 0 { '.' } else { char::from_digit(v as u32, 36).unwrap_or('?') })
                        .collect();
                    format!("        \"{text}\",")
                })
                .collect();
            format!("Rows([\n{}\n    ])", rows.join("\n"))
        }
        _ => list(&start),
    };
    Ok(body(&start_text))
}
