//! Reports of many puzzles at once: the summary of a `check` of several files, the par
//! histogram of a template, and the line `generate` prints for each level it writes.
//!
//! Every JSON document carries [`super::SCHEMA_VERSION`]: one object as it is, several objects
//! inside `{"version", "files": [...], "summary"}`.

use std::fmt::Write as _;

use serde_json::{Value, json};

use super::SCHEMA_VERSION;
use crate::generate::{Histogram, Level};

/// How a batch of checked files fared.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Files that passed.
    pub passed: usize,
    /// Files that failed (errors, warnings under deny, or an undecided check).
    pub failed: usize,
    /// Files that could not be read or were not valid puzzles.
    pub unreadable: usize,
    /// Warnings over every file.
    pub warnings: usize,
}

impl Summary {
    /// The exit code: 2 when a file was unreadable, 1 when one failed, else 0.
    pub fn exit_code(&self) -> u8 {
        if self.unreadable > 0 {
            2
        } else if self.failed > 0 {
            1
        } else {
            0
        }
    }

    /// `checked 3 files: 2 passed, 1 failed, 0 unreadable; 4 warnings` (`1 file`, `1 warning`).
    pub fn text(&self) -> String {
        let files = self.passed + self.failed + self.unreadable;
        format!(
            "checked {files} file{}: {} passed, {} failed, {} unreadable; {} warning{}\n",
            if files == 1 { "" } else { "s" },
            self.passed,
            self.failed,
            self.unreadable,
            self.warnings,
            if self.warnings == 1 { "" } else { "s" }
        )
    }

    fn json(&self) -> Value {
        json!({
            "passed": self.passed,
            "failed": self.failed,
            "unreadable": self.unreadable,
            "warnings": self.warnings,
        })
    }
}

/// The JSON document of a batch: one object as it is (with its `version`), several inside
/// `{"version", "files": [...], "summary"}` (`summary` only when given).
pub fn batch_json(mut objects: Vec<Value>, summary: Option<&Summary>) -> Value {
    if objects.len() == 1 {
        let mut object = objects.pop().expect("one object");
        with_version(&mut object);
        return object;
    }
    let mut document = json!({"version": SCHEMA_VERSION, "files": objects});
    if let Some(summary) = summary {
        document["summary"] = summary.json();
    }
    document
}

/// Puts `"version"` first in a JSON object.
pub fn with_version(object: &mut Value) {
    if let Value::Object(map) = object {
        let rest = std::mem::take(map);
        map.insert("version".into(), Value::from(SCHEMA_VERSION));
        map.extend(rest.into_iter().filter(|(k, _)| k != "version"));
    }
}

/// What a par histogram was asked for, for its report.
#[derive(Clone, Copy, Debug)]
pub struct HistogramAsked {
    /// Samples asked for.
    pub samples: usize,
    /// Search nodes each sample had.
    pub nodes_per_sample: u64,
    /// The time budget of the whole histogram, if it had one.
    pub time: Option<std::time::Duration>,
}

/// One template's par histogram for people: a bar per par.
pub fn histogram_text(file: &str, histogram: &Histogram, asked: &HistogramAsked) -> String {
    let mut text = String::new();
    let widest = histogram.pars.values().copied().max().unwrap_or(1).max(1);
    let _ = writeln!(text, "{file}: par of {} random solvable starts", histogram.taken);
    for (par, n) in &histogram.pars {
        let bar = "█".repeat((*n as u128 * 50).div_ceil(widest as u128) as usize);
        let _ = writeln!(text, "  {par:>4} | {bar} {n}");
    }
    if histogram.unproven > 0 {
        let _ = writeln!(
            text,
            "  {} samples had no proven par within {} search nodes each",
            histogram.unproven, asked.nodes_per_sample
        );
    }
    if histogram.taken < asked.samples {
        let time = asked.time.unwrap_or_default();
        let _ = writeln!(
            text,
            "  stopped at the {time:?} budget: {} of {} samples taken (raise --budget for more)",
            histogram.taken, asked.samples
        );
    }
    text
}

/// One template's par histogram for tools.
pub fn histogram_json(file: &str, histogram: &Histogram, asked: &HistogramAsked) -> Value {
    json!({
        "file": file,
        "samples": asked.samples,
        "taken": histogram.taken,
        "complete": histogram.taken == asked.samples,
        "par": histogram.pars.iter().map(|(p, n)| (p.to_string(), Value::from(*n))).collect::<serde_json::Map<_, _>>(),
        "unproven": histogram.unproven,
    })
}

/// The line `generate` prints for a level written to `file`: text, or the JSON object.
pub fn level_text(file: &str, level: &Level) -> String {
    let plans = if level.count == 1u32.into() { "solution" } else { "solutions" };
    format!("{file}  par {}  {} {plans}\n", level.par, level.count)
}

/// The JSON object of a level written to `file`.
pub fn level_json(file: &str, level: &Level) -> Value {
    json!({
        "file": file,
        "par": level.par,
        "count": level.count.to_string(),
        "start": level.puzzle.start,
        "intended": level.puzzle.intended,
    })
}
