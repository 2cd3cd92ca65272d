//! The `check` report: one block of text per puzzle file, or one JSON object per file, and the
//! summary line.

use std::fmt::Write as _;

use num_bigint::BigUint;
use serde_json::{Value, json};

use super::{heading, json_integer, plan_text};
use crate::check::{CheckReport, MacrosLeftOut, fraction_text};
use crate::model::Puzzle;

fn list(x: &[BigUint]) -> String {
    let items: Vec<String> = x.iter().map(BigUint::to_string).collect();
    format!("[{}]", items.join(", "))
}

fn plan_json(x: &[BigUint]) -> Value {
    Value::from(x.iter().map(json_integer).collect::<Vec<_>>())
}

/// One puzzle's block for people.
pub fn check_text(file: &str, puzzle: &Puzzle, report: &CheckReport, deny_warnings: bool) -> String {
    let mut out = String::new();
    let verdict = if report.passed(deny_warnings) { "PASS" } else { "FAIL" };
    let _ = writeln!(out, "{verdict} {file} — {}", heading(puzzle));
    let analysis = &report.analysis;
    match &analysis.fewest {
        Some(plan) => {
            let proof = match &plan.lower_bound {
                Some(bound) if !plan.is_proven() => format!("{}; at least {bound}", plan.proof.describe()),
                _ => plan.proof.describe(),
            };
            let _ = writeln!(
                out,
                "  solvable: yes, {} {}; par {} ({proof})",
                analysis.count.value,
                if analysis.count.value == BigUint::from(1u32) { "plan" } else { "plans" },
                plan.total()
            );
        }
        None => {
            let _ = writeln!(out, "  solvable: no");
        }
    }
    if report.all_starts_solvable {
        let _ = writeln!(out, "  starts: every start state can be solved");
    } else {
        let (a, b) = &report.solvable_starts;
        let _ = write!(out, "  starts: {a} in {b} start states can be solved");
        if let Some(start) = &report.unsolvable_start {
            let values: Vec<String> = start.iter().map(u64::to_string).collect();
            let _ = write!(out, "; for example not [{}]", values.join(", "));
        }
        out.push('\n');
    }
    let quiet = analysis.quiet_patterns.clone().unwrap_or_default();
    let _ = writeln!(out, "  quiet patterns: {quiet} (nonzero plans that change nothing)");
    for (g, order) in report.quiet_basis.iter().take(8) {
        let _ = writeln!(out, "    basis plan of order {order}:");
        out.push_str(&indent(&plan_text(puzzle, g)));
    }
    if report.quiet_basis.len() > 8 {
        let _ = writeln!(out, "    … {} more basis plans (see --json)", report.quiet_basis.len() - 8);
    }
    match &report.macros {
        Err(why) => {
            let reason = match why {
                MacrosLeftOut::TooLarge => {
                    format!("{} cells is too many to find a +1 plan for each", puzzle.cell_count())
                }
                MacrosLeftOut::OverBudget => {
                    "finding a +1 plan for each cell would take longer than the budget".into()
                }
            };
            let exist = if report.all_starts_solvable {
                "every cell has one, since every start can be solved"
            } else {
                "some cells have none"
            };
            let _ = writeln!(out, "  macros: not listed: {reason} ({exist})");
        }
        Ok(macros) => {
            let missing: Vec<String> = macros
                .iter()
                .enumerate()
                .filter(|(_, m)| m.is_none())
                .map(|(i, _)| puzzle.cell_name(i))
                .collect();
            if missing.is_empty() {
                let _ = writeln!(out, "  macros: every cell has a +1 macro");
            } else {
                let _ = writeln!(out, "  macros: no +1 macro for cell {}", missing.join(", "));
            }
            if puzzle.cell_count() <= 12 {
                for (i, m) in macros.iter().enumerate() {
                    if let Some(m) = m {
                        let _ = writeln!(out, "    +1 on {}: {}", puzzle.cell_name(i), list(m));
                    }
                }
            }
        }
    }
    if let Some(v) = &report.intended {
        let fewest = match v.fewest {
            Some(true) => "is the fewest",
            Some(false) => "is not the fewest",
            None => "fewest unknown",
        };
        let solves = if v.solves { "solves the puzzle" } else { "does NOT solve the puzzle" };
        let unique = if v.unique { ", the only plan" } else { "" };
        let _ = writeln!(out, "  intended plan: {solves}, {fewest}{unique}");
    }
    if !report.strategies.is_empty() {
        let parts: Vec<String> = report
            .strategies
            .iter()
            .map(|s| {
                let presses =
                    if s.presses == 1 { "1 press".to_string() } else { format!("{} presses", s.presses) };
                if s.solves {
                    format!("{} wins in {presses}", s.strategy)
                } else if !s.finished {
                    format!("{} stopped by the budget (after {presses})", s.strategy)
                } else {
                    format!("{} fails (after {presses})", s.strategy)
                }
            })
            .collect();
        let _ = writeln!(out, "  players: {}", parts.join("; "));
    }
    for f in &report.findings {
        let _ = writeln!(out, "  {}[{}]: {}", f.severity.as_str(), f.code.as_str(), f.message);
    }
    out
}

fn indent(text: &str) -> String {
    text.lines().map(|l| format!("    {l}\n")).collect()
}

/// One puzzle's JSON object for tools.
pub fn check_json(file: &str, puzzle: &Puzzle, report: &CheckReport, deny_warnings: bool) -> Value {
    let analysis = &report.analysis;
    json!({
        "file": file,
        "name": puzzle.name,
        "passed": report.passed(deny_warnings),
        "solvable": analysis.is_solvable(),
        "count": analysis.count.value.to_string(),
        "par": report.par().map(|p| json_integer(&p)),
        "par_proven": analysis.fewest.as_ref().is_some_and(|p| p.is_proven()),
        "par_lower_bound": analysis.fewest.as_ref().and_then(|p| p.lower_bound.as_ref()).map(json_integer),
        "fewest": analysis.fewest.as_ref().map(|p| plan_json(&p.presses)),
        "all_starts_solvable": report.all_starts_solvable,
        "solvable_starts": fraction_text(&report.solvable_starts),
        "unsolvable_start": report.unsolvable_start,
        "quiet_patterns": analysis.quiet_patterns.as_ref().map(|q| q.to_string()),
        "quiet_basis": report.quiet_basis.iter().map(|(g, order)| json!({
            "presses": plan_json(g),
            "order": json_integer(order),
        })).collect::<Vec<_>>(),
        "macros": report.macros.as_ref().ok().map(|macros| {
            macros.iter().map(|m| m.as_ref().map(|x| plan_json(x))).collect::<Vec<_>>()
        }),
        "macros_left_out": match report.macros {
            Ok(_) => None,
            Err(MacrosLeftOut::TooLarge) => Some("too-large"),
            Err(MacrosLeftOut::OverBudget) => Some("over-budget"),
        },
        "intended": report.intended.as_ref().map(|v| json!({
            "solves": v.solves,
            "fewest": v.fewest,
            "unique": v.unique,
        })),
        "strategies": report.strategies.iter().map(|s| json!({
            "name": s.strategy.name(),
            "solves": s.solves,
            "presses": s.presses,
            "finished": s.finished,
            "sequence": s.sequence,
            "sequence_complete": s.sequence.len() as u64 == s.presses,
        })).collect::<Vec<_>>(),
        "warnings": report.findings.iter().map(|f| json!({
            "code": f.code.as_str(),
            "severity": f.severity.as_str(),
            "message": f.message,
        })).collect::<Vec<_>>(),
    })
}
