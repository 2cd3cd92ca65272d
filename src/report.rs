//! Rendering for people and tools: the text report with pictures of grid plans, the JSON
//! object of DESIGN.md §5, and input errors with their source line and a caret.
//!
//! Nothing here solves or validates; it only formats what [`crate::solve`] returned.

use std::fmt::Write as _;

use num_bigint::BigUint;
use num_traits::{ToPrimitive, Zero};
use serde_json::{Value, json};

use crate::error::InputError;
use crate::model::Puzzle;
use crate::solve::Answer;

/// A big integer as a JSON number when it fits in 64 bits, else as a decimal string.
pub fn json_integer(x: &BigUint) -> Value {
    match x.to_u64() {
        Some(v) => Value::from(v),
        None => Value::from(x.to_string()),
    }
}

/// The sum of a plan's press counts.
pub fn total_presses(presses: &[BigUint]) -> BigUint {
    presses.iter().sum()
}

/// The JSON object for one solved puzzle.
pub fn answer_json(puzzle: &Puzzle, answer: &Answer) -> Value {
    let presses = answer.presses.as_ref();
    json!({
        "name": puzzle.name,
        "cells": puzzle.cell_count(),
        "buttons": puzzle.button_count(),
        "solvable": answer.is_solvable(),
        "count": answer.count.to_string(),
        "quiet_patterns": answer.quiet_patterns().to_string(),
        "periods": answer.periods.iter().map(json_integer).collect::<Vec<_>>(),
        "presses": presses.map(|x| x.iter().map(json_integer).collect::<Vec<_>>()),
        "total_presses": presses.map(|x| json_integer(&total_presses(x))),
        "verified": presses.is_some(),
        "method": format!("{:?}", answer.method).to_lowercase(),
    })
}

/// A character for a press count in a picture: `.` for 0, `#` for 1 when every count is 0 or 1,
/// digits, then letters up to 35. `None` when some count is too large for one character.
fn picture_chars(presses: &[BigUint]) -> Option<Vec<char>> {
    let binary = presses.iter().all(|x| x <= &BigUint::from(1u32));
    presses
        .iter()
        .map(|x| {
            let v = x.to_u32().filter(|&v| v < 36)?;
            Some(match v {
                0 => '.',
                1 if binary => '#',
                _ => char::from_digit(v, 36).expect("below 36"),
            })
        })
        .collect()
}

/// The plan as a grid picture (graph puzzles on grids) or a list of the buttons pressed.
pub fn plan_text(puzzle: &Puzzle, presses: &[BigUint]) -> String {
    let mut out = String::new();
    if let (Some((rows, cols)), true) = (puzzle.topology.grid_shape(), puzzle.buttons_are_cells()) {
        if let Some(chars) = picture_chars(presses) {
            for r in 0..rows {
                let line: Vec<String> = chars[r * cols..(r + 1) * cols]
                    .iter()
                    .map(char::to_string)
                    .collect();
                let _ = writeln!(out, "    {}", line.join(" "));
            }
        } else {
            let width = presses
                .iter()
                .map(|x| x.to_string().len())
                .max()
                .unwrap_or(1);
            for r in 0..rows {
                let line: Vec<String> = presses[r * cols..(r + 1) * cols]
                    .iter()
                    .map(|x| format!("{x:>width$}"))
                    .collect();
                let _ = writeln!(out, "    {}", line.join(" "));
            }
        }
        return out;
    }
    let pressed: Vec<String> = presses
        .iter()
        .enumerate()
        .filter(|(_, x)| !x.is_zero())
        .map(|(j, x)| format!("{} ×{x}", puzzle.button_name(j)))
        .collect();
    if pressed.is_empty() {
        out.push_str("    (no presses: the start is already the target)\n");
    } else {
        let _ = writeln!(out, "    press {}", pressed.join(", "));
    }
    out
}

fn describe_moduli(moduli: &[u64]) -> String {
    if moduli.iter().all(|&m| m == moduli[0]) {
        format!("mod {}", moduli[0])
    } else if moduli.len() <= 12 {
        let list: Vec<String> = moduli.iter().map(u64::to_string).collect();
        format!("moduli {}", list.join(", "))
    } else {
        "mixed moduli".into()
    }
}

/// The text report for one solved puzzle.
pub fn answer_text(puzzle: &Puzzle, answer: &Answer) -> String {
    let mut out = String::new();
    let name = puzzle.name.as_deref().unwrap_or("Puzzle");
    let _ = writeln!(
        out,
        "{name}: {} cells ({}), {} buttons",
        puzzle.cell_count(),
        describe_moduli(&puzzle.moduli),
        puzzle.button_count()
    );
    match &answer.presses {
        Some(x) => {
            let _ = writeln!(out, "\nSolvable. A plan, verified by simulating it:");
            out.push_str(&plan_text(puzzle, x));
            let _ = writeln!(out, "    {} presses in all", total_presses(x));
            let plans = if answer.count == BigUint::from(1u32) {
                "plan"
            } else {
                "plans"
            };
            let _ = writeln!(out, "\nSolutions: {} {plans}", answer.count);
        }
        None => {
            let _ = writeln!(
                out,
                "\nNot solvable: no combination of presses turns the start into the target."
            );
        }
    }
    let _ = writeln!(
        out,
        "Quiet patterns: {} (nonzero plans that change nothing)",
        answer.quiet_patterns()
    );
    out
}

/// An input error as the user sees it: the message, `--> file:line:col`, the line and a caret.
pub fn render_input_error(error: &InputError, file: &str, source: &str) -> String {
    let mut out = format!("error: {error}\n");
    match error.position {
        Some(pos) => {
            let _ = writeln!(out, " --> {file}:{}:{}", pos.line, pos.column);
            if let Some(text) = source.lines().nth(pos.line.saturating_sub(1)) {
                let number = pos.line.to_string();
                let pad = " ".repeat(number.len());
                let caret_pad: String = text
                    .chars()
                    .take(pos.column.saturating_sub(1))
                    .map(|c| if c == '\t' { '\t' } else { ' ' })
                    .collect();
                let _ = writeln!(out, "{pad} |\n{number} | {text}\n{pad} | {caret_pad}^");
            }
        }
        None => {
            let _ = writeln!(out, " --> {file}");
        }
    }
    out
}
