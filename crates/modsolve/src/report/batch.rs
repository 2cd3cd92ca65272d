//! Reports of many puzzles at once: the summary of a `check` of several files, the par
//! histogram and the par distribution of a template, and the line `generate` prints for each
//! level it writes.
//!
//! Every JSON document carries [`super::SCHEMA_VERSION`]: one object as it is, several objects
//! inside `{"version", "files": [...], "summary"}`.

use std::fmt::Write as _;

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::{Value, json};

use super::SCHEMA_VERSION;
use crate::difficulty::{DistributionKind, ParDistribution};
use crate::generate::{Histogram, Level};

/// How one file of a check fared, for the tally ([`Summary::add`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Checked and passed, with this many warnings.
    Passed(usize),
    /// Checked and failed (an error, a warning under deny, or an undecided check), with this
    /// many warnings.
    Failed(usize),
    /// Not read, not a valid puzzle, or over the memory limit.
    Unreadable,
}

/// How a batch of checked files fared.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
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

    /// Counts one file's verdict: the one pass/fail tally of every front-end.
    pub fn add(&mut self, verdict: Verdict) {
        match verdict {
            Verdict::Passed(warnings) => {
                self.passed += 1;
                self.warnings += warnings;
            }
            Verdict::Failed(warnings) => {
                self.failed += 1;
                self.warnings += warnings;
            }
            Verdict::Unreadable => self.unreadable += 1,
        }
    }
}

/// The JSON document of a batch: one object as it is (with its `version`), several inside
/// `{"version", "files": [...], "summary"}` (`summary` only when given).
#[doc(hidden)]
pub fn batch_json<T: Serialize>(objects: Vec<T>, summary: Option<&Summary>) -> Value {
    // The entries are plain data (strings, numbers, lists, maps with string or integer keys),
    // which always serialise.
    let mut objects: Vec<Value> =
        objects.iter().map(|o| serde_json::to_value(o).expect("a report entry serialises")).collect();
    if objects.len() == 1 {
        let mut object = objects.pop().expect("one object");
        with_version(&mut object);
        return object;
    }
    let mut document = json!({"version": SCHEMA_VERSION, "files": objects});
    if let Some(summary) = summary {
        document["summary"] = json!(summary);
    }
    document
}

/// Puts `"version"` first in a JSON object.
#[doc(hidden)]
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
    /// What bounded all the samples together.
    pub bound: crate::difficulty::SamplingBound,
}

/// One template's par histogram for people: a bar per par.
pub fn histogram_text(
    file: &str,
    histogram: &Histogram,
    asked: &HistogramAsked,
    knobs: &super::Knobs,
) -> String {
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
        let taken = format!("{} of {} samples taken", histogram.taken, asked.samples);
        stopped_line(&mut text, asked.bound, &taken, knobs);
    }
    text
}

/// The line that says the budget ended the work before all of it was done, and what was done:
/// `  stopped at the budget (1000 nodes of work): 1 of 1000 samples taken (raise --budget for
/// more)`.
fn stopped_line(
    text: &mut String,
    bound: crate::difficulty::SamplingBound,
    done: &str,
    knobs: &super::Knobs,
) {
    let _ = writeln!(text, "  stopped at {}: {done} (raise {} for more)", bound.describe(), knobs.budget);
}

/// One template's par histogram for tools (`histogram` of `schema/check.schema.json`).
#[derive(Clone, Debug, Serialize)]
pub struct HistogramEntry {
    /// The template's name as the front-end shows it.
    pub file: String,
    /// Samples asked for.
    pub samples: usize,
    /// Samples taken.
    pub taken: usize,
    /// Whether every sample asked for was taken.
    pub complete: bool,
    /// Par → samples with that par.
    pub par: BTreeMap<u64, usize>,
    /// Samples without a proven par.
    pub unproven: usize,
}

impl HistogramEntry {
    /// The entry of `file`'s histogram.
    pub fn new(file: &str, histogram: &Histogram, asked: &HistogramAsked) -> HistogramEntry {
        HistogramEntry {
            file: file.to_owned(),
            samples: asked.samples,
            taken: histogram.taken,
            complete: histogram.taken == asked.samples,
            par: histogram.pars.iter().map(|(&p, &n)| (p, n)).collect(),
            unproven: histogram.unproven,
        }
    }
}

/// The line `generate` prints for a level written to `file`: text, or the JSON object.
///
/// ```
/// use modsolve::generate::{Spec, generate};
///
/// let template = modsolve::parse_puzzle("Puzzle(graph: Grid(rows: 3, cols: 3), modulus: 2)")?;
/// let mut lines = Vec::new();
/// generate::<modsolve::InternalError>(&template, &Spec::new(1).seed(3), &|_| {}, |level| {
///     lines.push(modsolve::report::batch::level_text("level-1.ron", &level));
///     Ok(())
/// })?;
/// assert_eq!(lines, ["level-1.ron  par 5  1 solution\n"]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn level_text(file: &str, level: &Level) -> String {
    let plans = if level.count == 1u32.into() { "solution" } else { "solutions" };
    format!("{file}  par {}  {} {plans}\n", level.par, level.count)
}

/// What a par distribution was asked for, for its report.
#[derive(Clone, Copy, Debug)]
pub struct DistributionAsked {
    /// Search nodes each sample had (sampled path).
    pub nodes_per_sample: u64,
    /// What bounded the exact search and all the samples together.
    pub bound: crate::difficulty::SamplingBound,
}

/// One puzzle's par distribution for people: a bar per par, the total and the God's number;
/// a sampled distribution says so, with each share's interval.
pub fn distribution_text(
    file: &str,
    distribution: &ParDistribution,
    asked: &DistributionAsked,
    knobs: &super::Knobs,
) -> String {
    let mut text = String::new();
    match &distribution.kind {
        DistributionKind::Exact(exact) => exact_text(&mut text, file, distribution, exact, asked, knobs),
        DistributionKind::Sampled(sampled) => {
            sampled_text(&mut text, file, distribution, sampled, asked, knobs)
        }
    }
    text
}

/// The exact distribution's lines of [`distribution_text`].
fn exact_text(
    text: &mut String,
    file: &str,
    distribution: &ParDistribution,
    exact: &crate::difficulty::ExactCounts,
    asked: &DistributionAsked,
    knobs: &super::Knobs,
) {
    let (states, solvable) = (&distribution.states, &distribution.solvable);
    let _ = writeln!(
        text,
        "{file}: exact par distribution of {solvable} solvable starts (of {states} start states), by breadth-first search"
    );
    let widest = exact.pars.values().copied().max().unwrap_or(1).max(1);
    let digits = widest.to_string().len();
    for (par, n) in &exact.pars {
        let bar = "█".repeat((*n as u128 * 50).div_ceil(widest as u128) as usize);
        let share = *n as f64 / exact.counted().max(1) as f64 * 100.0;
        let _ = writeln!(text, "  {par:>4} | {n:>digits$} {share:>5.1}% {bar}");
    }
    let _ = writeln!(text, "  total: {} solvable starts", exact.counted() + exact.unreached);
    match distribution.gods_number() {
        Some(god) => {
            let _ = writeln!(text, "  God's number (the largest par): {god}");
        }
        None => {
            let unreached = format!(
                "{} solvable starts not reached have a par of at least {}",
                exact.unreached,
                distribution.gods_number_at_least().unwrap_or(0)
            );
            stopped_line(text, asked.bound, &unreached, knobs);
            let _ = writeln!(
                text,
                "  God's number (the largest par): at least {}",
                distribution.gods_number_at_least().unwrap_or(0)
            );
        }
    }
}

/// The sampled distribution's lines of [`distribution_text`].
fn sampled_text(
    text: &mut String,
    file: &str,
    distribution: &ParDistribution,
    sampled: &crate::difficulty::SampledShares,
    asked: &DistributionAsked,
    knobs: &super::Knobs,
) {
    let (states, solvable) = (&distribution.states, &distribution.solvable);
    let histogram = &sampled.histogram;
    let proven = histogram.taken - histogram.unproven;
    let _ = writeln!(
        text,
        "{file}: SAMPLED par distribution of {proven} random solvable starts (not exact: {})",
        sampled.why
    );
    let level = (sampled.confidence * 1e6).round() / 1e4;
    let widest = histogram.pars.values().copied().max().unwrap_or(1).max(1);
    let digits = widest.to_string().len();
    let _ = writeln!(text, "   par | {:>digits$}  share  {level}% interval", "n");
    for (par, share) in &sampled.shares {
        let bar = "█".repeat((share.samples as u128 * 50).div_ceil(widest as u128) as usize);
        let interval = format!("[{:.1}%, {:.1}%]", share.low * 100.0, share.high * 100.0);
        let _ = writeln!(
            text,
            "  {par:>4} | {:>digits$} {:>5.1}%  {interval:<16} {bar}",
            share.samples,
            share.share * 100.0,
        );
    }
    let _ = writeln!(
        text,
        "  total: {solvable} solvable starts (of {states} start states), exact; the shares are sampled"
    );
    let _ = writeln!(
        text,
        "  a par no sample had has a share below {:.2}% ({level}% confidence)",
        sampled.unseen_high * 100.0
    );
    if let Some(most) = distribution.gods_number_at_least() {
        let _ = writeln!(text, "  God's number (the largest par): at least {most} (the largest par sampled)");
    }
    if histogram.unproven > 0 {
        let _ = writeln!(
            text,
            "  {} samples had no proven par within {} search nodes each (left out of the shares)",
            histogram.unproven, asked.nodes_per_sample
        );
    }
    if !sampled.complete() {
        let taken = format!("{} of {} samples taken", histogram.taken, sampled.samples);
        stopped_line(text, asked.bound, &taken, knobs);
    }
}

/// One puzzle's par distribution for tools (`distribution` of `schema/check.schema.json`).
#[derive(Clone, Debug, Serialize)]
pub struct DistributionEntry {
    /// The puzzle's name as the front-end shows it.
    pub file: String,
    /// Every start state, in decimal.
    pub states: String,
    /// The solvable starts, in decimal.
    pub solvable_starts: String,
    /// The largest par, when every solvable start was counted.
    pub gods_number: Option<u64>,
    /// A lower bound of the largest par.
    pub gods_number_at_least: Option<u64>,
    /// Counted or sampled, with what each says.
    #[serde(flatten)]
    pub method: DistributionMethod,
}

/// How a par distribution was found, as its document says it.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "method", rename_all = "lowercase")]
pub enum DistributionMethod {
    /// Every solvable start counted by its par.
    Exact {
        /// `array` or `hash-set`.
        encoding: &'static str,
        /// Whether every solvable start was reached.
        complete: bool,
        /// Solvable starts not reached before the deadline.
        unreached: u64,
        /// Par → solvable starts with that par.
        par: BTreeMap<u64, u64>,
    },
    /// Shares of random solvable starts.
    Sampled {
        /// Why the exact count was not run.
        why_sampled: String,
        /// Whether every sample asked for was taken.
        complete: bool,
        /// Samples asked for.
        samples: usize,
        /// Samples taken.
        taken: usize,
        /// Samples without a proven par.
        unproven: usize,
        /// The confidence of the intervals.
        confidence: f64,
        /// The upper end of the interval of a par no sample had.
        unseen_high: f64,
        /// Par → its share and interval.
        par: BTreeMap<u64, ShareEntry>,
    },
}

/// One par's share of the samples and its interval.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct ShareEntry {
    /// Samples with this par.
    pub samples: usize,
    /// Their share of the samples with a proven par.
    pub share: f64,
    /// The interval's lower end.
    pub low: f64,
    /// Its upper end.
    pub high: f64,
}

impl DistributionEntry {
    /// The entry of `file`'s par distribution.
    pub fn new(file: &str, distribution: &ParDistribution) -> DistributionEntry {
        let method = match &distribution.kind {
            DistributionKind::Exact(exact) => DistributionMethod::Exact {
                encoding: exact.encoding.code(),
                complete: exact.unreached == 0,
                unreached: exact.unreached,
                par: exact.pars.clone(),
            },
            DistributionKind::Sampled(sampled) => DistributionMethod::Sampled {
                why_sampled: sampled.why.to_string(),
                complete: sampled.complete(),
                samples: sampled.samples,
                taken: sampled.histogram.taken,
                unproven: sampled.histogram.unproven,
                confidence: sampled.confidence,
                unseen_high: sampled.unseen_high,
                par: sampled
                    .shares
                    .iter()
                    .map(|(&p, s)| {
                        (p, ShareEntry { samples: s.samples, share: s.share, low: s.low, high: s.high })
                    })
                    .collect(),
            },
        };
        DistributionEntry {
            file: file.to_owned(),
            states: distribution.states.to_string(),
            solvable_starts: distribution.solvable.to_string(),
            gods_number: distribution.gods_number(),
            gods_number_at_least: distribution.gods_number_at_least(),
            method,
        }
    }
}
