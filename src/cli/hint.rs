//! `modsolve hint FILE [--pressed 3,7,7] [--steps]`: reads the presses already made (numbers or
//! labels), asks [`modsolve::hint::hint`], and renders the hint as text or JSON. Exit 0 a hint
//! (or already solved), 1 not solvable from there, 2 bad input or `--pressed`, 3 undecided.

use std::path::PathBuf;

use modsolve::Puzzle;
use modsolve::hint::{HintOptions, Outcome};

use super::args::HintArgs;
use super::output::{Body, Failure, Kind, Output};

/// A hint, as the command line asks for it.
pub(crate) struct Request {
    pub(crate) file: PathBuf,
    pub(crate) max_input: u64,
    pub(crate) pressed: Option<String>,
    pub(crate) state: Option<String>,
    pub(crate) options: HintOptions,
    pub(crate) json: bool,
}

impl From<HintArgs> for Request {
    fn from(args: HintArgs) -> Self {
        let analysis = args.limits.analysis(args.budget, args.timeout);
        Request {
            file: args.file,
            max_input: args.limits.max_input,
            pressed: args.pressed,
            state: args.state,
            options: HintOptions::default().analysis(analysis).steps(args.steps),
            json: args.json,
        }
    }
}

/// Reads the puzzle and the presses made, hints, renders.
pub(crate) fn run(request: &Request) -> Result<Output, Failure> {
    let json = request.json;
    // The timeout bounds the file's reading too: the hint gets what is left of it.
    let (loaded, left) =
        super::load_within(&request.file, request.max_input, request.options.analysis.timeout)
            .map_err(|f| f.in_json(json))?;
    let mut puzzle = loaded.puzzle;
    let mut options = request.options;
    options.analysis.timeout = left.map_err(|e| Failure::from(e).in_json(json))?;
    if let Some(text) = &request.state {
        let usage = |why: String| Failure::plain(Kind::Usage, format!("error: --state: {why}\n"), json);
        let values = parse_state(&puzzle, text).map_err(usage)?;
        puzzle = puzzle.with_start(values).map_err(|e| usage(e.to_string()))?;
    }
    let pressed = match &request.pressed {
        Some(text) => parse_pressed(&puzzle, text)
            .map_err(|why| Failure::plain(Kind::Usage, format!("error: --pressed: {why}\n"), json))?,
        None => Vec::new(),
    };
    let hint = modsolve::hint::hint(&puzzle, &pressed, &options).map_err(|e| match e {
        // The file is valid, so an input error is about the presses made (a press limit).
        modsolve::Error::Input(e) => Failure::plain(Kind::Usage, format!("error: --pressed: {e}\n"), json),
        e => Failure::from(e).in_json(json),
    })?;
    let code = match hint.outcome {
        Outcome::Solved | Outcome::Next { .. } => 0,
        Outcome::Unsolvable => 1,
        _ => 3,
    };
    let body = if json {
        Body::Json(
            serde_json::to_value(modsolve::report::HintReport::new(&puzzle, &hint))
                .expect("a report serialises"),
        )
    } else {
        Body::Text(modsolve::report::hint_text(&puzzle, &hint, &super::FLAGS))
    };
    Ok(Output { body, code })
}

/// `1,0,2,…`: one value per cell, in cell order, separated by commas (or spaces).
fn parse_state(puzzle: &Puzzle, text: &str) -> Result<Vec<u64>, String> {
    let cells = puzzle.cell_count();
    let items: Vec<&str> = text.split([',', ' ']).map(str::trim).filter(|s| !s.is_empty()).collect();
    if items.len() != cells {
        return Err(format!(
            "has {} values but the puzzle has {cells} cells: give one value per cell, in cell order (1,0,1,…)",
            items.len()
        ));
    }
    items
        .iter()
        .enumerate()
        .map(|(i, item)| {
            let modulus = puzzle.moduli()[i];
            match item.parse::<u64>() {
                Ok(v) if v < modulus => Ok(v),
                Ok(v) => Err(format!("value {v} of cell {i} is not below its modulus {modulus}")),
                Err(_) => Err(format!(
                    "`{item}` (cell {i}) is not a cell value: a whole number from 0 to {}",
                    modulus - 1
                )),
            }
        })
        .collect()
}

/// `3,7,7` or `tentacle 1, tentacle 3`: button numbers (from 0) or button names (labels),
/// separated by commas; empty for no presses. A number is always a button number.
fn parse_pressed(puzzle: &Puzzle, text: &str) -> Result<Vec<usize>, String> {
    let buttons = puzzle.button_count();
    if text.trim().is_empty() {
        return Ok(Vec::new());
    }
    let names: Vec<String> = (0..buttons).map(|j| puzzle.button_name(j)).collect();
    let labelled = names.iter().enumerate().any(|(j, name)| *name != j.to_string());
    let range = format!("0 to {}", buttons - 1);
    text.split(',')
        .enumerate()
        .map(|(i, item)| {
            let item = item.trim();
            if item.is_empty() {
                return Err(format!("press {} is empty (write buttons separated by commas: 3,7,7)", i + 1));
            }
            if item.bytes().all(|b| b.is_ascii_digit()) {
                return match item.parse::<usize>() {
                    Ok(j) if j < buttons => Ok(j),
                    _ => Err(format!("`{item}` is not a button: the puzzle has {buttons} buttons, {range}")),
                };
            }
            if let Some(j) = names.iter().position(|name| name == item) {
                return Ok(j);
            }
            if let Some(j) = names.iter().position(|name| name.eq_ignore_ascii_case(item)) {
                return Ok(j);
            }
            Err(if labelled {
                let shown: Vec<&str> = names.iter().take(4).map(String::as_str).collect();
                let more = if buttons > 4 { ", …" } else { "" };
                format!(
                    "`{item}` is not a button: give a button number ({range}) or a label ({}{more})",
                    shown.join(", ")
                )
            } else {
                format!("`{item}` is not a button number: the puzzle has {buttons} buttons, {range}")
            })
        })
        .collect()
}
