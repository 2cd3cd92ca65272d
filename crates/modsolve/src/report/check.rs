//! The `check` report: one block of text per puzzle file, or one JSON object per file, and the
//! summary line.

use std::fmt::Write as _;

use num_bigint::BigUint;
use serde::Serialize;

use super::{Integer, heading, plan_text};
use crate::check::{CheckReport, MacrosLeftOut, Severity, fraction_text};
use crate::model::Puzzle;

fn list(x: &[BigUint]) -> String {
    let items: Vec<String> = x.iter().map(BigUint::to_string).collect();
    format!("[{}]", items.join(", "))
}

/// One puzzle's line for people (`check --brief`): the verdict, the par and the findings
/// counted by severity.
///
/// ```
/// let octopus = modsolve::parse_puzzle(
///     "Puzzle(graph: Path(4), modulus: [7, 8, 7, 6], press: (self: 2, neighbors: 1), start: [2, 4, 5, 3])",
/// )?;
/// let report = modsolve::check::check(&octopus, modsolve::Budget::of_nodes(1_000_000))?;
/// assert_eq!(modsolve::report::check::check_line("octopus.ron", &report, false), "PASS octopus.ron: par 18, 1 finding (1 note)\n");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn check_line(file: &str, report: &CheckReport, deny_warnings: bool) -> String {
    let verdict = if report.passed(deny_warnings) { "PASS" } else { "FAIL" };
    let par = match &report.analysis.fewest {
        Some(plan) if plan.is_proven() => format!("par {}", plan.total()),
        Some(plan) => format!("par {} (not proven)", plan.total()),
        None => "not solvable".to_string(),
    };
    let findings = match report.findings.len() {
        0 => "no findings".to_string(),
        n => {
            let by = |severity: Severity| report.findings.iter().filter(|f| f.severity == severity).count();
            let parts: Vec<String> = [Severity::Error, Severity::Warning, Severity::Note]
                .into_iter()
                .filter_map(|severity| match by(severity) {
                    0 => None,
                    1 => Some(format!("1 {}", severity.as_str())),
                    k => Some(format!("{k} {}s", severity.as_str())),
                })
                .collect();
            format!("{n} finding{} ({})", if n == 1 { "" } else { "s" }, parts.join(", "))
        }
    };
    format!("{verdict} {file}: {par}, {findings}\n")
}

/// One puzzle's block for people; `verbose` adds a basis of the quiet patterns.
///
/// ```
/// use modsolve::report::{Knobs, check::check_text};
///
/// let octopus = modsolve::parse_puzzle(
///     "Puzzle(graph: Path(4), modulus: [7, 8, 7, 6], press: (self: 2, neighbors: 1), start: [2, 4, 5, 3])",
/// )?;
/// let report = modsolve::check::check(&octopus, modsolve::Budget::of_nodes(1_000_000))?;
/// let text = check_text("octopus.ron", &octopus, &report, false, false, &Knobs::default());
/// assert!(text.starts_with("PASS octopus.ron"), "{text}");
/// assert!(text.contains("par 18 (proven)"), "{text}");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn check_text(
    file: &str,
    puzzle: &Puzzle,
    report: &CheckReport,
    deny_warnings: bool,
    verbose: bool,
    knobs: &super::Knobs,
) -> String {
    let mut out = String::new();
    let verdict = if report.passed(deny_warnings) { "PASS" } else { "FAIL" };
    let _ = writeln!(out, "{verdict} {file} — {}", heading(puzzle));
    solvable_line(&mut out, puzzle, report);
    starts_line(&mut out, report);
    let quiet = report.analysis.quiet_patterns.clone().unwrap_or_default();
    let _ =
        writeln!(out, "  quiet patterns: {} (nonzero plans that change nothing)", super::number_text(&quiet));
    for (g, order) in report.quiet_basis.iter().take(if verbose { 8 } else { 0 }) {
        let _ = writeln!(out, "    basis plan of order {order}:");
        out.push_str(&indent(&plan_text(puzzle, g)));
    }
    if verbose && report.quiet_basis.len() > 8 {
        let _ = writeln!(out, "    … {} more basis plans (see {})", report.quiet_basis.len() - 8, knobs.json);
    }
    macros_lines(&mut out, puzzle, report);
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
    players_line(&mut out, report);
    for f in &report.findings {
        let _ = writeln!(out, "  {}[{}]: {}", f.severity.as_str(), f.code.as_str(), f.message);
    }
    out
}

/// `solvable:` with the count of plans and the par plan's presses and proof.
fn solvable_line(out: &mut String, puzzle: &Puzzle, report: &CheckReport) {
    let analysis = &report.analysis;
    match &analysis.fewest {
        Some(plan) => {
            let proof = match &plan.lower_bound {
                Some(bound) if !plan.is_proven() => format!("{}; at least {bound}", plan.proof.describe()),
                _ => plan.proof.describe(),
            };
            let origin = match &analysis.quiet_patterns {
                Some(quiet) if analysis.count.exact && !analysis.limited => super::count_origin(
                    puzzle,
                    &analysis.count.value,
                    analysis.kernel_factors.as_deref(),
                    quiet,
                    "the par plan",
                ),
                _ => None,
            };
            let _ = writeln!(
                out,
                "  solvable: yes, {} {}{}; par {} ({proof})",
                super::number_text(&analysis.count.value),
                if analysis.count.value == BigUint::from(1u32) { "plan" } else { "plans" },
                origin.unwrap_or_default(),
                plan.total()
            );
        }
        None => {
            let _ = writeln!(out, "  solvable: no");
        }
    }
}

/// `starts:` how many start states can be solved, with one that cannot.
fn starts_line(out: &mut String, report: &CheckReport) {
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
}

/// `macros:` the cells without a +1 macro (or why they are not listed), and the macros of
/// small puzzles.
fn macros_lines(out: &mut String, puzzle: &Puzzle, report: &CheckReport) {
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
}

/// `players:` how each strategy fared.
fn players_line(out: &mut String, report: &CheckReport) {
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
}

fn indent(text: &str) -> String {
    text.lines().map(|l| format!("    {l}\n")).collect()
}

/// One puzzle's object of the `check --json` document (`schema/check.schema.json`), typed: the
/// command line, the server and Python serialise this one struct.
#[derive(Clone, Debug, Serialize)]
pub struct CheckEntry {
    /// The file's name as the front-end shows it.
    pub file: String,
    /// The puzzle's name, if it has one.
    pub name: Option<String>,
    /// Whether the check passed (errors fail it; warnings only when denied).
    pub passed: bool,
    /// Whether some plan reaches the target.
    pub solvable: bool,
    /// How many plans reach the target, in decimal.
    pub count: String,
    /// The fewest presses, when known.
    pub par: Option<Integer>,
    /// Whether the par is proven the fewest.
    pub par_proven: bool,
    /// A proven lower bound on the par, when the par is not proven.
    pub par_lower_bound: Option<Integer>,
    /// The presses of each button in a plan of the par.
    pub fewest: Option<Vec<Integer>>,
    /// Whether every start can be solved.
    pub all_starts_solvable: bool,
    /// Solvable starts over all starts, as `a/b` in lowest terms.
    pub solvable_starts: String,
    /// A start that cannot be solved, when one exists.
    pub unsolvable_start: Option<Vec<u64>>,
    /// How many nonzero plans change nothing, in decimal.
    pub quiet_patterns: Option<String>,
    /// A basis of those plans, each with its order.
    pub quiet_basis: Vec<QuietPlan>,
    /// A +1 plan per cell (`null` for a cell that has none), unless left out.
    pub macros: Option<Vec<Option<Vec<Integer>>>>,
    /// Why the macros were left out: `too-large` or `over-budget`.
    pub macros_left_out: Option<&'static str>,
    /// How the file's intended plan fares, when it has one.
    pub intended: Option<Intended>,
    /// How each simple player strategy fares.
    pub strategies: Vec<StrategyEntry>,
    /// The findings: errors, warnings and notes.
    pub warnings: Vec<FindingEntry>,
}

/// One file's object of the `check --json` document: its check, or why there is none.
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub enum CheckFile {
    /// The file was checked.
    Checked(Box<CheckEntry>),
    /// The check did not finish: `{"file", "error"}`, with `"undecided": true` when the timeout
    /// came first.
    Stopped {
        /// The file's name.
        file: String,
        /// Why it stopped.
        error: String,
        /// `true` when the timeout came before the check finished.
        #[serde(skip_serializing_if = "Option::is_none")]
        undecided: Option<bool>,
    },
    /// The file could not be read or is not a valid puzzle: its error object.
    Unreadable(serde_json::Value),
}

/// A basis plan of the quiet patterns and its order.
#[derive(Clone, Debug, Serialize)]
pub struct QuietPlan {
    /// Presses per button.
    pub presses: Vec<Integer>,
    /// How many times it can be added before it repeats.
    pub order: Integer,
}

/// How the intended plan fares.
#[derive(Clone, Debug, Serialize)]
pub struct Intended {
    /// Whether it solves the puzzle.
    pub solves: bool,
    /// Whether it has the fewest presses (`null`: the par is not known).
    pub fewest: Option<bool>,
    /// Whether it is the only plan.
    pub unique: bool,
}

/// How one simple player strategy fares.
#[derive(Clone, Debug, Serialize)]
pub struct StrategyEntry {
    /// The strategy's name.
    pub name: &'static str,
    /// Whether it reaches the target.
    pub solves: bool,
    /// How many presses it made.
    pub presses: u64,
    /// Whether it finished (not stopped by the budget).
    pub finished: bool,
    /// The buttons it pressed, in order (cut when long).
    pub sequence: Vec<usize>,
    /// Whether `sequence` lists every press.
    pub sequence_complete: bool,
}

/// One finding of the check.
#[derive(Clone, Debug, Serialize)]
pub struct FindingEntry {
    /// Its stable code, e.g. `no-simple-strategy`.
    pub code: &'static str,
    /// `error`, `warning` or `note`.
    pub severity: &'static str,
    /// What it says.
    pub message: String,
}

impl CheckEntry {
    /// The entry of `file`'s check report.
    pub fn new(file: &str, puzzle: &Puzzle, report: &CheckReport, deny_warnings: bool) -> CheckEntry {
        let analysis = &report.analysis;
        let plan = |x: &[BigUint]| x.iter().cloned().map(Integer).collect::<Vec<_>>();
        let count = crate::analysis::report::decimal(&analysis.count.value);
        CheckEntry {
            file: file.to_owned(),
            name: puzzle.name.clone(),
            passed: report.passed(deny_warnings),
            solvable: analysis.is_solvable(),
            count: count.clone(),
            par: report.par().map(Integer),
            par_proven: analysis.fewest.as_ref().is_some_and(|p| p.is_proven()),
            par_lower_bound: analysis.fewest.as_ref().and_then(|p| p.lower_bound.clone()).map(Integer),
            fewest: analysis.fewest.as_ref().map(|p| plan(&p.presses)),
            all_starts_solvable: report.all_starts_solvable,
            solvable_starts: fraction_text(&report.solvable_starts),
            unsolvable_start: report.unsolvable_start.clone(),
            // The quiet patterns are the count less one when every plan is one plan plus a
            // quiet pattern: their digits from the count's (a big board's count has millions).
            quiet_patterns: analysis.quiet_patterns.as_ref().map(|q| {
                if analysis.count.exact
                    && !count.is_empty()
                    && count != "0"
                    && q + 1u32 == analysis.count.value
                {
                    crate::analysis::report::predecessor(&count)
                } else {
                    q.to_string()
                }
            }),
            quiet_basis: report
                .quiet_basis
                .iter()
                .map(|(g, order)| QuietPlan { presses: plan(g), order: Integer(order.clone()) })
                .collect(),
            macros: report
                .macros
                .as_ref()
                .ok()
                .map(|macros| macros.iter().map(|m| m.as_deref().map(plan)).collect()),
            macros_left_out: match report.macros {
                Ok(_) => None,
                Err(MacrosLeftOut::TooLarge) => Some("too-large"),
                Err(MacrosLeftOut::OverBudget) => Some("over-budget"),
            },
            intended: report.intended.as_ref().map(|v| Intended {
                solves: v.solves,
                fewest: v.fewest,
                unique: v.unique,
            }),
            strategies: report
                .strategies
                .iter()
                .map(|s| StrategyEntry {
                    name: s.strategy.name(),
                    solves: s.solves,
                    presses: s.presses,
                    finished: s.finished,
                    sequence: s.sequence.clone(),
                    sequence_complete: s.sequence.len() as u64 == s.presses,
                })
                .collect(),
            warnings: report
                .findings
                .iter()
                .map(|f| FindingEntry {
                    code: f.code.as_str(),
                    severity: f.severity.as_str(),
                    message: f.message.clone(),
                })
                .collect(),
        }
    }
}
