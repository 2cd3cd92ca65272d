//! Rendering for people and tools: the text report with pictures of grid plans, the JSON
//! object, and input errors with their source line and a caret.
//!
//! Nothing here solves or validates; it only formats what [`crate::solve`] returned.

pub mod check;

use std::fmt::Write as _;

use num_bigint::BigUint;
use num_traits::{One, ToPrimitive, Zero};
use serde_json::{Value, json};

use crate::analysis::{Analysis, Cut, Engine, Listing};
use crate::error::InputError;
use crate::model::{CellValues, Puzzle};
use crate::solve::optimize::Plan;
use crate::solve::propagate::CompactAnswer;
use crate::solve::search::Objective;

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

/// A plan as JSON: `{"presses", "total_presses", "proven"}`.
fn plan_json(plan: &Plan) -> Value {
    json!({
        "presses": plan.presses.iter().map(json_integer).collect::<Vec<_>>(),
        "total_presses": json_integer(&plan.total()),
        "proven": plan.is_proven(),
        "proof": plan.proof.code(),
        "partial": partial_json(plan),
    })
}

/// `{"button": j, "phases": k}` for a press cut short, else null.
fn partial_json(plan: &Plan) -> Value {
    match plan.partial {
        Some(p) => json!({"button": p.button, "phases": p.phases}),
        None => Value::Null,
    }
}

/// The JSON object for one analysed puzzle.
pub fn analysis_json(puzzle: &Puzzle, analysis: &Analysis) -> Value {
    let shown = analysis.shown();
    let mut object = json!({
        "name": puzzle.name,
        "solvable": analysis.solvable,
        "count": analysis.count.value.to_string(),
        "count_exact": analysis.count.exact,
        "presses": shown.map(|p| p.presses.iter().map(json_integer).collect::<Vec<_>>()),
        "total_presses": shown.map(|p| json_integer(&p.total())),
        "partial": shown.map(partial_json).unwrap_or(Value::Null),
        "fewest": analysis.fewest.as_ref().map(plan_json),
        "quiet_patterns": analysis.quiet_patterns.as_ref().map(|q| q.to_string()),
        "cells": puzzle.cell_count(),
        "buttons": puzzle.button_count(),
        "periods": analysis.periods.iter().map(json_integer).collect::<Vec<_>>(),
        "press_limits": puzzle.max_presses,
        "method": match analysis.engine { Engine::Search => "search", _ => "algebra" },
        "search_nodes": analysis.search_nodes,
        "verified": shown.is_some(),
    });
    if let Some(optimal) = &analysis.optimal {
        let mut value = plan_json(optimal);
        value["objective"] = Value::from(optimal.objective.name());
        object["optimal"] = value;
    }
    if let Some(listing) = &analysis.listing {
        object["all"] = Value::from(
            listing.plans.iter().map(|x| x.iter().map(json_integer).collect::<Vec<_>>()).collect::<Vec<_>>(),
        );
        object["all_cut"] = match listing.cut {
            None => Value::Null,
            Some(Cut::Limit) => Value::from("limit"),
            Some(Cut::BudgetRanOut) => Value::from("budget-ran-out"),
        };
        object["all_more"] = unlisted(analysis, listing).map_or(Value::Null, |k| Value::from(k.to_string()));
    }
    object
}

/// How many plans the listing left out, when the count is exact.
fn unlisted(analysis: &Analysis, listing: &Listing) -> Option<BigUint> {
    let listed = BigUint::from(listing.plans.len());
    (analysis.count.exact && analysis.count.value >= listed).then(|| &analysis.count.value - listed)
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
                let line: Vec<String> = chars[r * cols..(r + 1) * cols].iter().map(char::to_string).collect();
                let _ = writeln!(out, "    {}", line.join(" "));
            }
        } else {
            let width = presses.iter().map(|x| x.to_string().len()).max().unwrap_or(1);
            for r in 0..rows {
                let line: Vec<String> =
                    presses[r * cols..(r + 1) * cols].iter().map(|x| format!("{x:>width$}")).collect();
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

/// `Name: 25 cells (mod 2), 25 buttons`, the first line of every report.
pub fn heading(puzzle: &Puzzle) -> String {
    format!(
        "{}: {} cells ({}), {} buttons",
        puzzle.name.as_deref().unwrap_or("Puzzle"),
        puzzle.cell_count(),
        describe_moduli(&puzzle.moduli),
        puzzle.button_count()
    )
}

pub(crate) fn describe_moduli(moduli: &CellValues) -> String {
    if moduli.iter().all(|&m| m == moduli[0]) {
        format!("mod {}", moduli[0])
    } else if moduli.len() <= 12 {
        let list: Vec<String> = moduli.iter().map(u64::to_string).collect();
        format!("moduli {}", list.join(", "))
    } else {
        "mixed moduli".into()
    }
}

fn plan_heading(plan: &Plan) -> String {
    let total = plan.total();
    let proof = plan.proof.describe();
    match plan.objective {
        Objective::Total => format!("Fewest presses: {total} ({proof})"),
        Objective::Max => format!(
            "Smallest largest press count: {} ({proof}), {total} presses",
            plan.presses.iter().max().cloned().unwrap_or_default()
        ),
        Objective::Buttons => format!(
            "Fewest buttons: {} ({proof}), {total} presses",
            plan.presses.iter().filter(|x| !x.is_zero()).count()
        ),
    }
}

/// Boards larger than this get a picture of the plan only when asked for.
pub const PICTURE_CELL_LIMIT: usize = 4096;

/// The text report for one analysed puzzle; `picture` forces the plan's picture on huge boards.
pub fn analysis_text(puzzle: &Puzzle, analysis: &Analysis, picture: bool) -> String {
    let mut out = heading(puzzle);
    out.push('\n');
    let within = if analysis.limited { " within the press limits" } else { "" };
    match analysis.shown() {
        Some(plan) => {
            let _ = writeln!(out, "\nSolvable. {}; verified by simulating it:", plan_heading(plan));
            if picture || puzzle.cell_count() <= PICTURE_CELL_LIMIT {
                out.push_str(&plan_text(puzzle, &plan.presses));
            } else {
                let _ = writeln!(
                    out,
                    "    ({} buttons: the plan is shown with --picture, or listed with --json)",
                    puzzle.button_count()
                );
            }
            if let Some(p) = plan.partial {
                let _ = writeln!(
                    out,
                    "    the last press of {} stops after phase {} of {}: the puzzle is solved",
                    puzzle.button_name(p.button),
                    p.phases,
                    puzzle.phase_count(p.button)
                );
            }
            if let (Some(fewest), Some(_)) = (&analysis.fewest, &analysis.optimal) {
                let _ = writeln!(out, "{}", plan_heading(fewest));
            }
        }
        None if analysis.solvable == Some(false) => {
            let _ = writeln!(
                out,
                "\nNot solvable{within}: no combination of presses turns the start into the target."
            );
        }
        None => {
            let _ = writeln!(
                out,
                "\nUndecided: the budget ran out before the search found a plan or showed that there is none."
            );
        }
    }
    let plans = if analysis.count.value.is_one() { "plan" } else { "plans" };
    let count = &analysis.count.value;
    let _ = match (analysis.count.exact, count.is_zero()) {
        (true, _) => writeln!(out, "\nSolutions{within}: {count} {plans}"),
        (false, true) => writeln!(out, "\nSolutions{within}: unknown (the budget ran out before the count)"),
        (false, false) => writeln!(
            out,
            "\nSolutions{within}: at least {count} {plans} (the budget ran out before the count finished)"
        ),
    };
    if let Some(quiet) = &analysis.quiet_patterns {
        let _ = writeln!(out, "Quiet patterns: {quiet} (nonzero plans that change nothing)");
    }
    if let (Engine::Search, Some(nodes)) = (analysis.engine, analysis.search_nodes) {
        let _ = writeln!(out, "Search nodes visited: {nodes}");
    }
    if let Some(listing) = &analysis.listing {
        let _ = match listing.cut {
            None => writeln!(out, "\nAll {} {plans}{within}:", listing.plans.len()),
            Some(_) => writeln!(out, "\nThe first {} {plans}{within}:", listing.plans.len()),
        };
        for x in &listing.plans {
            let list: Vec<String> = x.iter().map(BigUint::to_string).collect();
            let _ = writeln!(out, "    [{}]", list.join(", "));
        }
        let _ = match (listing.cut, unlisted(analysis, listing)) {
            (None, _) => Ok(()),
            (Some(Cut::Limit), Some(more)) => {
                writeln!(out, "    … and {more} more (raise the limit to list more)")
            }
            (Some(Cut::Limit), None) => writeln!(out, "    … and more (raise the limit to list more)"),
            (Some(Cut::BudgetRanOut), _) => {
                writeln!(out, "    … the budget ran out before the rest were listed")
            }
        };
    }
    out
}

/// The most characters of a source line an error shows; longer lines are cut around the caret.
pub const ERROR_LINE_WINDOW: usize = 100;

/// An input error as the user sees it: the message, `--> file:line:col`, the line and a caret.
/// A line longer than [`ERROR_LINE_WINDOW`] characters is cut to that many around the caret,
/// with `…` where it was cut (a one-line file of millions of numbers is not echoed whole).
pub fn render_input_error(error: &InputError, file: &str, source: &str) -> String {
    let mut out = format!("error: {error}\n");
    match error.position {
        Some(pos) => {
            let _ = writeln!(out, " --> {file}:{}:{}", pos.line, pos.column);
            if let Some(text) = source.lines().nth(pos.line.saturating_sub(1)) {
                let number = pos.line.to_string();
                let pad = " ".repeat(number.len());
                let (shown, caret) = line_window(text, pos.column.saturating_sub(1), ERROR_LINE_WINDOW);
                // Tabs stay tabs under the line so the caret lines up however they are shown.
                let caret_pad: String =
                    shown.chars().take(caret).map(|c| if c == '\t' { '\t' } else { ' ' }).collect();
                let _ = writeln!(out, "{pad} |\n{number} | {shown}\n{pad} | {caret_pad}^");
            }
        }
        None => {
            let _ = writeln!(out, " --> {file}");
        }
    }
    out
}

/// At most `width` characters of `line` around character `at` (`…` marking a cut, counted in
/// the width), and the caret's character index in what is shown. Half the width goes before
/// the caret, unless the line ends sooner after it.
fn line_window(line: &str, at: usize, width: usize) -> (String, usize) {
    // Only the characters near the caret are collected: the line may be hundreds of megabytes.
    let split = line.char_indices().nth(at).map_or(line.len(), |(b, _)| b);
    let mut before: Vec<char> = line[..split].chars().rev().take(width + 1).collect();
    before.reverse();
    let after: Vec<char> = line[split..].chars().take(width + 1).collect();
    if before.len() + after.len() <= width {
        return (line.to_string(), before.len());
    }
    let right = after.len().min(width - before.len().min(width / 2));
    let left = before.len().min(width - right);
    let (cut_left, cut_right) = (left < before.len(), right < after.len());
    // Each `…` takes the place of one character.
    let left = left - usize::from(cut_left);
    let right = right - usize::from(cut_right && right > 1);
    let mut shown: String = if cut_left { "…".into() } else { String::new() };
    shown.extend(&before[before.len() - left..]);
    shown.extend(&after[..right]);
    if cut_right {
        shown.push('…');
    }
    (shown, left + usize::from(cut_left))
}

/// The JSON object for a big grid solved in compact form (the same fields as
/// [`analysis_json`]; a plan is proven fewest only when it is the only one), written straight
/// to `out` in one pass: millions of presses never become a string or a JSON value.
pub fn write_compact_json(
    mut out: impl std::io::Write,
    puzzle: &Puzzle,
    answer: &CompactAnswer,
) -> std::io::Result<()> {
    let count = if answer.presses.is_some() { answer.kernel_size.clone() } else { BigUint::zero() };
    let name = serde_json::to_string(&puzzle.name).expect("a string serialises");
    write!(
        out,
        "{{\"name\":{name},\"solvable\":{},\"count\":\"{count}\",\"count_exact\":true,",
        answer.presses.is_some()
    )?;
    match &answer.presses {
        Some(x) => {
            let total: u64 = x.iter().map(|&v| v as u64).sum();
            let proven = answer.kernel_size.is_one();
            out.write_all(b"\"presses\":")?;
            write_press_list(&mut out, x)?;
            write!(out, ",\"total_presses\":{total},\"partial\":null,\"fewest\":{{\"presses\":")?;
            write_press_list(&mut out, x)?;
            write!(out, ",\"total_presses\":{total},\"proven\":{proven},\"partial\":null}},")?;
        }
        None => {
            out.write_all(b"\"presses\":null,\"total_presses\":null,\"partial\":null,\"fewest\":null,")?
        }
    }
    writeln!(
        out,
        "\"quiet_patterns\":\"{}\",\"cells\":{},\"buttons\":{},\"periods\":\"all {}\",\"method\":\"propagation\",\"verified\":{}}}",
        &answer.kernel_size - BigUint::one(),
        puzzle.cell_count(),
        puzzle.button_count(),
        answer.modulus,
        answer.presses.is_some()
    )
}

/// [`write_compact_json`] into a string.
pub fn compact_json(puzzle: &Puzzle, answer: &CompactAnswer) -> String {
    let mut out = Vec::with_capacity(answer.presses.as_ref().map_or(0, |x| x.len() * 4) + 512);
    write_compact_json(&mut out, puzzle, answer).expect("writing to memory cannot fail");
    String::from_utf8(out).expect("JSON text is UTF-8")
}

/// `[x0,x1,…]`, built in 64 KiB pieces (one digit and a comma per cell for small moduli).
fn write_press_list(out: &mut impl std::io::Write, x: &[u32]) -> std::io::Result<()> {
    const PIECE: usize = 1 << 16;
    let mut buf: Vec<u8> = Vec::with_capacity(PIECE + 16);
    buf.push(b'[');
    for (k, &v) in x.iter().enumerate() {
        if k > 0 {
            buf.push(b',');
        }
        if v < 10 {
            buf.push(b'0' + v as u8);
        } else {
            let _ = std::io::Write::write_fmt(&mut buf, format_args!("{v}"));
        }
        if buf.len() >= PIECE {
            out.write_all(&buf)?;
            buf.clear();
        }
    }
    buf.push(b']');
    out.write_all(&buf)
}

/// The text report for a big grid solved in compact form.
pub fn compact_text(puzzle: &Puzzle, answer: &CompactAnswer, picture: bool) -> String {
    let mut out = heading(puzzle);
    out.push('\n');
    match &answer.presses {
        Some(x) => {
            let total: u64 = x.iter().map(|&v| v as u64).sum();
            let proof = if answer.kernel_size.is_one() {
                "proven: the only plan"
            } else {
                "not proven fewest: big boards are solved by light chasing without searching the quiet patterns"
            };
            let _ =
                writeln!(out, "\nSolvable. A plan of {total} presses ({proof}); verified by simulating it:");
            if picture {
                let big: Vec<BigUint> = x.iter().map(|&v| BigUint::from(v)).collect();
                out.push_str(&plan_text(puzzle, &big));
            } else {
                let _ = writeln!(
                    out,
                    "    ({} buttons: the plan is shown with --picture, or listed with --json)",
                    x.len()
                );
            }
            // Worded as the general report words it: "1 plan", "4 plans".
            let plans = if answer.kernel_size.is_one() { "plan" } else { "plans" };
            let _ = writeln!(out, "\nSolutions: {} {plans}", answer.kernel_size);
        }
        None => {
            let _ =
                writeln!(out, "\nNot solvable: no combination of presses turns the start into the target.");
            let _ = writeln!(out, "\nSolutions: 0 plans");
        }
    }
    let _ = writeln!(
        out,
        "Quiet patterns: {} (nonzero plans that change nothing)",
        &answer.kernel_size - BigUint::one()
    );
    out
}
