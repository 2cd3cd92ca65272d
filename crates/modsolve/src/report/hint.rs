//! The hint report ([`crate::hint::Hint`]) as text for players (boards drawn as pictures, the
//! cell to press marked) and as the `hint --json` document (`schema/hint.schema.json`).

use std::fmt::Write as _;

use serde::Serialize;

use super::{Integer, PICTURE_CELL_LIMIT, SCHEMA_VERSION, heading};
use crate::hint::{Hint, Outcome, Press, Step};
use crate::model::Puzzle;

/// One value of a board as text: pictures' characters (`.` 0, `#` 1 on mod 2 boards, digits,
/// then letters to 35) when every modulus allows it, else the number.
fn cell_text(puzzle: &Puzzle, value: u64) -> String {
    let moduli = puzzle.moduli();
    if moduli.iter().all(|&m| m == 2) {
        return if value == 0 { "." } else { "#" }.into();
    }
    if moduli.iter().all(|&m| m <= 36) {
        return match value {
            0 => ".".into(),
            v => char::from_digit(v as u32, 36).expect("below 36").to_string(),
        };
    }
    value.to_string()
}

/// The cell a press is drawn on: its button's cell, for graph puzzles on grids.
fn marked_cell(puzzle: &Puzzle, press: Option<&Press>) -> Option<usize> {
    press.filter(|_| puzzle.buttons_are_cells()).map(|p| p.button)
}

/// A board: a picture for puzzles drawn as one (grids; boards with holes blank and a hex
/// board's odd rows shifted half a cell; the `marked` cell in brackets), else a list of values.
fn board_text(puzzle: &Puzzle, state: &[u64], marked: Option<usize>, indent: &str) -> String {
    let mut out = String::new();
    let topology = puzzle.topology();
    match topology.picture_size() {
        Some((rows, cols)) if puzzle.cell_count() <= PICTURE_CELL_LIMIT => {
            let texts: Vec<String> = state.iter().map(|&v| cell_text(puzzle, v)).collect();
            let width = texts.iter().map(|t| t.chars().count()).max().unwrap_or(1);
            let shift = " ".repeat(width.div_ceil(2));
            for r in 0..rows {
                let line: String = (0..cols)
                    .map(|c| match topology.cell_at(r, c) {
                        Some(i) => {
                            let (open, close) = if marked == Some(i) { ('[', ']') } else { (' ', ' ') };
                            format!("{open}{:>width$}{close}", texts[i])
                        }
                        None => " ".repeat(width + 2),
                    })
                    .collect();
                let half = if topology.is_hex() && r % 2 == 1 { shift.as_str() } else { "" };
                let _ = writeln!(out, "{indent}{half}{}", line.trim_end());
            }
        }
        _ => {
            let list: Vec<String> = state.iter().map(u64::to_string).collect();
            let _ = writeln!(out, "{indent}[{}]", list.join(", "));
        }
    }
    out
}

/// `tentacle 1`, `7 (row 1, column 2)` on grids, with a cut press's phases.
fn press_text(puzzle: &Puzzle, press: &Press) -> String {
    let mut text = press.name.clone();
    if puzzle.buttons_are_cells()
        && let Some((row, column)) = puzzle.topology().position(press.button)
    {
        let _ = write!(text, " (row {row}, column {column})");
    }
    if let Some(k) = press.phases {
        let _ = write!(text, ", stopping after phase {k} of {}: solved", puzzle.phase_count(press.button));
    }
    text
}

/// Whether the board is drawn as a picture (grids and boards up to [`PICTURE_CELL_LIMIT`] cells).
fn pictured(puzzle: &Puzzle) -> bool {
    puzzle.topology().picture_size().is_some() && puzzle.cell_count() <= PICTURE_CELL_LIMIT
}

/// The hint for people: the position, the next press (marked on the board of a grid), the par,
/// and the steps when listed.
///
/// ```
/// use modsolve::hint::{HintOptions, hint};
/// use modsolve::report::{Knobs, hint_text};
///
/// let octopus = modsolve::parse_puzzle(
///     "Puzzle(graph: Path(4), modulus: [7, 8, 7, 6], press: (self: 2, neighbors: 1), start: [2, 4, 5, 3])",
/// )?;
/// let after_one = hint(&octopus, &[0], &HintOptions::default())?;
/// let text = hint_text(&octopus, &after_one, &Knobs::default());
/// assert!(text.contains("Next: press 1."), "{text}");
/// assert!(text.contains("Fewest presses to the target: 17 (proven)"), "{text}");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn hint_text(puzzle: &Puzzle, hint: &Hint, knobs: &super::Knobs) -> String {
    let mut out = heading(puzzle);
    out.push('\n');
    if !hint.pressed.is_empty() {
        let names: Vec<String> = hint.pressed.iter().map(|&j| puzzle.button_name(j)).collect();
        let presses = if names.len() == 1 { "press" } else { "presses" };
        let _ = writeln!(out, "After {} {presses} ({}):", names.len(), names.join(", "));
    } else {
        out.push_str("From the start:\n");
    }
    let draw = puzzle.cell_count() <= PICTURE_CELL_LIMIT;
    if draw {
        out.push_str(&board_text(puzzle, &hint.state, marked_cell(puzzle, hint.next()), "    "));
    }
    match &hint.outcome {
        Outcome::Solved => out.push_str("\nSolved: the board is the target; nothing to press.\n"),
        Outcome::Unsolvable => {
            out.push_str(
                "\nNot solvable from here: no sequence of presses turns this board into the target.\n",
            );
        }
        Outcome::Undecided(why) => {
            let (timeout, budget) = (knobs.timeout, knobs.budget);
            let _ = writeln!(out, "\nUndecided: {why}; a larger {timeout} or {budget} may decide it.");
        }
        Outcome::Next { press, par, proof, lower_bound, .. } => {
            let marked = if marked_cell(puzzle, Some(press)).is_some() && pictured(puzzle) {
                ", marked [ ] above"
            } else {
                ""
            };
            let _ = writeln!(out, "\nNext: press {}{marked}.", press_text(puzzle, press));
            let _ = writeln!(
                out,
                "Fewest presses to the target: {par} ({}); the plan is verified by playing it press by press.",
                match lower_bound {
                    Some(bound) if !proof.is_proven() => format!("{}; at least {bound}", proof.describe()),
                    _ => proof.describe(),
                }
            );
        }
    }
    if let Some(steps) = &hint.steps
        && !steps.is_empty()
    {
        out.push_str("\nSteps, each board after its press:\n");
        out.push_str(&steps_text(puzzle, steps));
    }
    if let Some(why) = &hint.steps_left_out {
        let _ = writeln!(out, "\nSteps not listed: {why}.");
    }
    out
}

/// The listed steps: a numbered press and its board.
fn steps_text(puzzle: &Puzzle, steps: &[Step]) -> String {
    let mut out = String::new();
    let width = steps.len().to_string().len();
    let last = steps.len();
    for (n, step) in steps.iter().enumerate() {
        let reached = if n + 1 == last { "  (the target)" } else { "" };
        if pictured(puzzle) {
            let _ = writeln!(out, "{:>width$}. press {}{reached}", n + 1, press_text(puzzle, &step.press));
            out.push_str(&board_text(puzzle, &step.state, marked_cell(puzzle, Some(&step.press)), "    "));
        } else {
            let board = board_text(puzzle, &step.state, None, "");
            let _ = writeln!(
                out,
                "{:>width$}. press {} → {}{reached}",
                n + 1,
                press_text(puzzle, &step.press),
                board.trim_end()
            );
        }
    }
    out
}

/// The `hint --json` document (`schema/hint.schema.json`), typed: the command line, the server
/// and Python serialise this one struct.
#[derive(Clone, Debug, Serialize)]
pub struct HintReport {
    /// The schema's version.
    pub version: u32,
    /// The puzzle's name, if it has one.
    pub name: Option<String>,
    /// Cells of the puzzle.
    pub cells: usize,
    /// Buttons of the puzzle.
    pub buttons: usize,
    /// The presses made so far.
    pub pressed: Vec<usize>,
    /// The board after them.
    pub state: Vec<u64>,
    /// The board to reach.
    pub target: Vec<u64>,
    /// Whether the board is at its target.
    pub solved: bool,
    /// Whether the target can still be reached (`null`: undecided).
    pub solvable: Option<bool>,
    /// The next press of a fewest plan.
    pub next: Option<PressEntry>,
    /// The fewest presses left.
    pub par: Option<Integer>,
    /// Whether that par is proven.
    pub par_proven: Option<bool>,
    /// A proven lower bound on it.
    pub par_lower_bound: Option<Integer>,
    /// How the par is known (a proof code).
    pub proof: Option<&'static str>,
    /// Whether the next press was verified by simulation.
    pub verified: bool,
    /// The whole ordered plan, when asked for.
    pub steps: Option<Vec<StepEntry>>,
    /// Why some of the plan's presses are left out of `steps`.
    pub steps_left_out: Option<String>,
    /// Why the hint is undecided, when it is.
    pub undecided: Option<String>,
}

/// A press in a hint document.
#[derive(Clone, Debug, Serialize)]
pub struct PressEntry {
    /// The button's index.
    pub button: usize,
    /// The button's name.
    pub name: String,
    /// Staged presses: the phases after which the press stops, solved.
    pub phases: Option<usize>,
}

/// A press of the ordered plan and the board after it.
#[derive(Clone, Debug, Serialize)]
pub struct StepEntry {
    /// The press.
    #[serde(flatten)]
    pub press: PressEntry,
    /// The board after it.
    pub state: Vec<u64>,
}

fn press_entry(press: &Press) -> PressEntry {
    PressEntry { button: press.button, name: press.name.clone(), phases: press.phases }
}

impl HintReport {
    /// The document of `hint` on `puzzle`.
    pub fn new(puzzle: &Puzzle, hint: &Hint) -> HintReport {
        let (solvable, par, proven, proof, undecided) = match &hint.outcome {
            Outcome::Solved => (Some(true), Some(Integer(0u32.into())), Some(true), Some("proven"), None),
            Outcome::Next { par, proven, proof, .. } => {
                (Some(true), Some(Integer(par.clone())), Some(*proven), Some(proof.code()), None)
            }
            Outcome::Unsolvable => (Some(false), None, None, None, None),
            Outcome::Undecided(why) => (None, None, None, None, Some(why.clone())),
        };
        let par_lower_bound = match &hint.outcome {
            Outcome::Solved => Some(Integer(0u32.into())),
            Outcome::Next { lower_bound, .. } => lower_bound.clone().map(Integer),
            Outcome::Unsolvable | Outcome::Undecided(_) => None,
        };
        HintReport {
            version: SCHEMA_VERSION,
            name: puzzle.name().map(str::to_owned),
            cells: puzzle.cell_count(),
            buttons: puzzle.button_count(),
            pressed: hint.pressed.clone(),
            state: hint.state.clone(),
            target: puzzle.target().to_vec(),
            solved: hint.solved(),
            solvable,
            next: hint.next().map(press_entry),
            par,
            par_proven: proven,
            par_lower_bound,
            proof,
            verified: hint.next().is_some(),
            steps: hint.steps.as_ref().map(|steps| {
                steps
                    .iter()
                    .map(|step| StepEntry { press: press_entry(&step.press), state: step.state.clone() })
                    .collect()
            }),
            steps_left_out: hint.steps_left_out.clone(),
            undecided,
        }
    }
}
