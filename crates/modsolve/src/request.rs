//! The request layer every front-end shares (the `modsolve` command, the playground's server
//! and the Python package): names parsed once ([`FromStr`] for [`Objective`], [`Engine`],
//! [`StrategyRequirement`] and [`StrategyChoice`]), a generation request checked once
//! ([`prepare_generation`]: the spec, the memory check, the feasibility check), the level
//! documents and their comment made once ([`GenerateReport`], [`LevelReport`],
//! [`level_comment`]), and one file's check entry and the pass/fail tally made once
//! ([`check_entry`], [`crate::report::batch::Summary::add`]).
//!
//! Given the same request, every front-end gets the same document. What legitimately differs
//! is named where it is made: a level's `file` is where it was written (the command line's
//! `--out` path) or the name it would be written under (`level-0001.ron`), and only the
//! front-ends that write no file give the level's RON text as `source`.

use std::str::FromStr;

use serde::Serialize;

use crate::analysis::Engine;
use crate::check::CheckReport;
use crate::error::{Error, InternalError, OverMemory};
use crate::generate::{Infeasible, Level, Spec, StrategyRequirement};
use crate::model::Puzzle;
use crate::report::SCHEMA_VERSION;
use crate::report::check::{CheckEntry, CheckFile};
use crate::solve::Objective;
use crate::strategy::Strategy;

/// A name that is none of the accepted ones: `` `fast` is not a method: use auto, algebra or
/// search ``.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{name}` is not {what}: use {}", choices(.accepted))]
pub struct UnknownName {
    /// What was asked for: `a method`, `an objective`, `a strategy`.
    pub what: &'static str,
    /// The name given.
    pub name: String,
    /// The names accepted.
    pub accepted: Vec<&'static str>,
}

/// `a, b or c`.
fn choices(names: &[&str]) -> String {
    match names.split_last() {
        Some((last, [])) => (*last).to_string(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// The value of `name` among `(name, value)` pairs, or the error listing them.
fn named<T: Copy>(what: &'static str, name: &str, table: &[(&'static str, T)]) -> Result<T, UnknownName> {
    table.iter().find(|(n, _)| *n == name).map(|(_, v)| *v).ok_or_else(|| UnknownName {
        what,
        name: name.to_string(),
        accepted: table.iter().map(|(n, _)| *n).collect(),
    })
}

/// `total`, `max` or `buttons` ([`Objective::name`]).
impl FromStr for Objective {
    type Err = UnknownName;

    fn from_str(name: &str) -> Result<Self, UnknownName> {
        let table = [Objective::Total, Objective::Max, Objective::Buttons].map(|o| (o.name(), o));
        named("an objective", name, &table)
    }
}

/// `auto`, `algebra` or `search`.
impl FromStr for Engine {
    type Err = UnknownName;

    fn from_str(name: &str) -> Result<Self, UnknownName> {
        named(
            "a method",
            name,
            &[("auto", Engine::Auto), ("algebra", Engine::Algebra), ("search", Engine::Search)],
        )
    }
}

/// A strategy's name (that strategy must win) or `none` (no simple strategy may win).
impl FromStr for StrategyRequirement {
    type Err = UnknownName;

    fn from_str(name: &str) -> Result<Self, UnknownName> {
        StrategyChoice::from_str(name)?.0.ok_or_else(|| unknown_strategy(name))
    }
}

/// What a generation request asks of the player strategies: `any` (nothing: the same as
/// giving no strategy), `none` (no simple strategy may win) or a strategy's name (it must
/// win). The empty name is refused, as any other name: every front-end accepts exactly these.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StrategyChoice(pub Option<StrategyRequirement>);

impl StrategyChoice {
    /// Every name accepted, in the order errors list them.
    pub fn names() -> Vec<&'static str> {
        let mut names: Vec<&'static str> = Strategy::ALL.iter().map(|s| s.name()).collect();
        names.extend(["none", "any"]);
        names
    }
}

fn unknown_strategy(name: &str) -> UnknownName {
    UnknownName { what: "a strategy", name: name.to_string(), accepted: StrategyChoice::names() }
}

impl FromStr for StrategyChoice {
    type Err = UnknownName;

    fn from_str(name: &str) -> Result<Self, UnknownName> {
        match name {
            "any" => Ok(StrategyChoice(None)),
            "none" => Ok(StrategyChoice(Some(StrategyRequirement::None))),
            _ => match name.parse::<Strategy>() {
                Ok(strategy) => Ok(StrategyChoice(Some(StrategyRequirement::Wins(strategy)))),
                Err(_) => Err(unknown_strategy(name)),
            },
        }
    }
}

/// A batch of levels as every front-end asks for it.
#[derive(Clone, Debug)]
pub struct GenerateRequest {
    /// The template's name as the user gave it (a path, or the playground's file name): the
    /// levels' comment says where they came from.
    pub template: String,
    /// How many levels.
    pub count: usize,
    /// The random seed: the same seed gives the same levels.
    pub seed: u64,
    /// Exactly one solution.
    pub unique: bool,
    /// Proven par within this inclusive range.
    pub par: Option<(u64, u64)>,
    /// What the player strategies must do.
    pub strategy: StrategyChoice,
    /// The most candidates tried (`None`: [`Spec::default_attempts`]).
    pub attempts: Option<usize>,
    /// Make each start from this many random presses.
    pub scramble: Option<u64>,
    /// Keep only levels that pass `check` with warnings denied.
    pub deny_warnings: bool,
    /// The memory limit in bytes (`None`: half of this machine's memory).
    pub max_memory: Option<u64>,
}

/// Why a generation request is refused before any level is made.
#[derive(Debug, thiserror::Error)]
pub enum Refusal {
    /// The run would take more memory than allowed.
    #[error(transparent)]
    OverMemory(#[from] OverMemory),
    /// The spec can never be met for this template.
    #[error(transparent)]
    Infeasible(Infeasible),
    /// A bug.
    #[error(transparent)]
    Internal(#[from] InternalError),
}

/// The spec of a request, after its memory check (with `threads` generating at once) and its
/// feasibility check: the one way every front-end turns a request into a [`Spec`].
pub fn prepare_generation(
    template: &Puzzle,
    request: &GenerateRequest,
    threads: usize,
) -> Result<Spec, Refusal> {
    let estimate = crate::generate::memory_estimate(template, threads);
    crate::memory::within(estimate, request.max_memory)?;
    let spec = Spec {
        count: request.count,
        seed: request.seed,
        unique: request.unique,
        par: request.par,
        strategy: request.strategy.0.clone(),
        attempts: request.attempts.unwrap_or_else(|| Spec::default_attempts(request.count)),
        nodes_per_level: Spec::DEFAULT_NODES_PER_LEVEL,
        scramble: request.scramble,
        deny_warnings: request.deny_warnings,
        // With no number of candidates given, the run is bounded like every default run: by
        // counted work, the same on every machine.
        work: request.attempts.is_none().then_some(crate::bounded::DEFAULT_NODES),
    };
    match crate::generate::impossible(template, &spec)? {
        Some(reason) => Err(Refusal::Infeasible(reason)),
        None => Ok(spec),
    }
}

/// `level-0001.ron`, …, `level-12345.ron`: the file of level `number` (from 1).
pub fn level_name(number: usize) -> String {
    format!("level-{number:04}.ron")
}

/// The comment at the head of level `number`'s RON text, the same from every front-end.
pub fn level_comment(number: usize, request: &GenerateRequest, level: &Level) -> String {
    let scrambled = match request.scramble {
        Some(k) => format!(", scrambled by {k} presses"),
        None => String::new(),
    };
    format!(
        "Level {number} made by modsolve generate from {} (seed {}{scrambled}).\npar {} (proven fewest presses), solutions: {}; `intended` is a fewest-press plan.",
        request.template, request.seed, level.par, level.count
    )
}

/// The RON text of level `number`: the file `generate` writes.
pub fn level_source(number: usize, request: &GenerateRequest, level: &Level) -> String {
    crate::format::to_ron(&level.puzzle, &level_comment(number, request, level))
}

/// One level of the `generate --json` document (`schema/generate.schema.json`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LevelReport {
    /// Where the level was written, or the name it would be written under.
    pub file: String,
    /// The proven fewest presses.
    pub par: u64,
    /// How many plans solve the level (a decimal string).
    pub count: String,
    /// The level's start.
    pub start: Vec<u64>,
    /// A fewest-press plan.
    pub intended: Option<Vec<u64>>,
    /// With a scramble: the presses per button the start was made with.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scramble: Option<Vec<u64>>,
    /// The level's RON text, from the front-ends that write no file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
}

impl LevelReport {
    /// Level `number` written to (or to be written to) `file`; `source` its RON text, when the
    /// front-end writes no file.
    pub fn new(file: String, level: &Level, source: Option<String>) -> Self {
        LevelReport {
            file,
            par: level.par,
            count: level.count.to_string(),
            start: level.puzzle.start.to_vec(),
            intended: level.puzzle.intended.clone(),
            scramble: level.scramble.clone(),
            source,
        }
    }
}

/// The `generate --json` document of a finished run (`schema/generate.schema.json`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GenerateReport {
    /// [`SCHEMA_VERSION`].
    pub version: u32,
    /// The levels, in the order they were accepted.
    pub levels: Vec<LevelReport>,
    /// Levels accepted.
    pub found: usize,
    /// Candidates judged.
    pub tried: usize,
    /// Whether the default budget's counted work ended the run (not written in the document:
    /// the front-ends word their advice with it).
    #[serde(skip)]
    pub out_of_work: bool,
    /// The lowest and highest proven par among the candidates judged, for the advice (not
    /// written in the document).
    #[serde(skip)]
    pub pars: Option<(u64, u64)>,
}

/// Makes the levels of a prepared request without writing any file: each level is named
/// `level-0001.ron`, … and carries its RON text (the playground's and the Python package's
/// document).
pub fn generate_report(
    template: &Puzzle,
    request: &GenerateRequest,
    spec: &Spec,
) -> Result<GenerateReport, Error> {
    let mut levels = Vec::new();
    let batch = crate::generate::generate::<Error>(template, spec, &|_| {}, |level| {
        let number = levels.len() + 1;
        let source = level_source(number, request, &level);
        levels.push(LevelReport::new(level_name(number), &level, Some(source)));
        Ok(())
    })?;
    Ok(GenerateReport {
        version: SCHEMA_VERSION,
        levels,
        found: batch.found,
        tried: batch.tried,
        out_of_work: batch.out_of_work,
        pars: batch.pars,
    })
}

impl Infeasible {
    /// The request's fields that set what cannot be met (`par`, `scramble`, …), for a
    /// front-end to name as it names them (the command line's `--par`) after the reason.
    pub fn fields(&self) -> &'static [&'static str] {
        match self {
            Infeasible::Unique { .. } => &["unique"],
            Infeasible::EmptyPar { .. } | Infeasible::ZeroPar | Infeasible::ParTooHigh { .. } => &["par"],
            Infeasible::TooFewStarts { .. } => &["count"],
            Infeasible::TooFewLevels { .. } => &["count", "scramble"],
            Infeasible::ZeroScramble | Infeasible::ScrambleTooLong { .. } => &["scramble"],
            Infeasible::ParAboveScramble { .. } => &["par", "scramble"],
            Infeasible::StrategyDoesNotApply(_) => &["strategy"],
            Infeasible::BeyondWords | Infeasible::NothingChanges => &[],
        }
    }
}

/// What a run that found fewer levels than asked for says, and what to do, every front-end's
/// words: `name` writes a request field as the front-end calls it (`attempts` is the command
/// line's `--attempts`). A par range without a scramble is met by starts made from at most that
/// many presses.
pub fn shortfall(
    batch: &crate::generate::Batch,
    count: usize,
    par: Option<(u64, u64)>,
    scramble: Option<u64>,
    name: impl Fn(&'static str) -> String,
) -> String {
    let (found, tried) = (batch.found, batch.tried);
    let attempts = name("attempts");
    let more = if batch.out_of_work {
        format!("give {attempts} N to try more")
    } else {
        format!("raise {attempts}")
    };
    let advice = match (par, scramble) {
        (Some((_, high)), None) => format!(
            "{more}, or give {} {high}: a start made from {high} random presses has a par of at most {high}",
            name("scramble")
        ),
        _ => more,
    };
    let why = if batch.out_of_work {
        "the default budget's work ran out"
    } else {
        "the spec is rare for this template"
    };
    let seen = match batch.pars {
        Some((low, high)) => format!("; the candidates' proven pars were {low}..{high}"),
        None => String::new(),
    };
    format!("found {found} of {count} levels in {tried} candidates: {why}{seen} ({advice})")
}

pub use crate::report::batch::Verdict;

/// Why a check stopped before it finished: the `error` of an undecided check's object.
pub const UNDECIDED_CHECK: &str = "the timeout came before the check finished";

/// The most samples a par histogram or distribution takes without a time to end it: more are
/// refused ([`SamplingRefused::Endless`]) on every front-end. A time budget ends the samples
/// itself, so with one any number may be asked for.
pub const UNTIMED_SAMPLES: usize = 1_000_000;

/// Why a histogram or distribution request is refused before any work.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SamplingRefused {
    /// More than [`UNTIMED_SAMPLES`] samples with no time to end them.
    #[error(
        "{0} samples with a node budget have no end in sight: give at most {UNTIMED_SAMPLES}, \
         or a time budget to take as many as fit"
    )]
    Endless(usize),
    /// A confidence outside (0, 1).
    #[error("confidence {0} is not between 0 and 1")]
    Confidence(f64),
}

/// How a request's budget bounds its samples ([`crate::difficulty::distribution_bounds`]: a
/// time, or counted work in all), refused past [`UNTIMED_SAMPLES`] when nothing ends them.
fn sampling(
    budget: crate::Budget,
    samples: usize,
) -> Result<(u64, crate::difficulty::SamplingBound), SamplingRefused> {
    let (nodes_per_sample, bound) = crate::difficulty::distribution_bounds(budget);
    if bound == crate::difficulty::SamplingBound::Samples && samples > UNTIMED_SAMPLES {
        return Err(SamplingRefused::Endless(samples));
    }
    Ok((nodes_per_sample, bound))
}

/// A par-histogram request as every front-end takes it.
#[derive(Clone, Copy, Debug)]
pub struct HistogramSpec {
    /// Bounds the sampling: a time for all of it, or nodes per sample and for the samples'
    /// work in all ([`crate::difficulty::distribution_bounds`]), as a distribution's.
    pub budget: crate::Budget,
    /// The samples asked for (at most: the budget may end them sooner, and the report says so).
    pub samples: usize,
    /// The samples' seed.
    pub seed: u64,
    /// The wall time of each histogram, set-up included.
    pub timeout: Option<std::time::Duration>,
    /// The memory it may take.
    pub max_memory: Option<u64>,
}

impl HistogramSpec {
    /// What the histograms are asked for, for their reports. A node budget bounds the samples'
    /// work in all, as a time bounds their time, so any number of samples may be asked for.
    pub fn asked(&self) -> Result<crate::report::batch::HistogramAsked, SamplingRefused> {
        let (nodes_per_sample, bound) = sampling(self.budget, self.samples)?;
        Ok(crate::report::batch::HistogramAsked { samples: self.samples, nodes_per_sample, bound })
    }

    /// One template's histogram, its samples ended by `end` (one end for a run of several
    /// templates: [`crate::difficulty::SamplingBound::end`] of [`Self::asked`]'s bound).
    pub fn histogram(
        &self,
        template: &Puzzle,
        asked: &crate::report::batch::HistogramAsked,
        end: crate::generate::SamplesEnd,
    ) -> Result<crate::generate::Histogram, Error> {
        crate::generate::par_histogram_timed(
            template,
            self.samples,
            self.seed,
            asked.nodes_per_sample,
            end,
            self.max_memory,
            self.timeout,
        )
    }
}

/// A par-distribution request as every front-end takes it.
#[derive(Clone, Copy, Debug)]
pub struct DistributionSpec {
    /// Bounds the exact search and the sampling: a time for all of it, or nodes per sample and
    /// for the samples' work in all ([`crate::difficulty::distribution_bounds`]).
    pub budget: crate::Budget,
    /// Counted exactly up to this many solvable starts.
    pub exact_limit: u64,
    /// Samples beyond it (at most [`UNTIMED_SAMPLES`] when no time ends them).
    pub samples: usize,
    /// The samples' seed.
    pub seed: u64,
    /// The confidence of the sampled shares' intervals, strictly between 0 and 1.
    pub confidence: f64,
    /// The wall time of the whole distribution, set-up included.
    pub timeout: Option<std::time::Duration>,
    /// The memory it may take.
    pub max_memory: Option<u64>,
}

impl DistributionSpec {
    /// The library's options for this request, its deadline counted from now; refused for a
    /// confidence outside (0, 1) or past [`UNTIMED_SAMPLES`] samples when no time ends them.
    pub fn options(&self) -> Result<crate::difficulty::DistributionOptions, SamplingRefused> {
        if !(self.confidence > 0.0 && self.confidence < 1.0) {
            return Err(SamplingRefused::Confidence(self.confidence));
        }
        // A node budget bounds the distribution's work in all, so only an endless bound refuses.
        let (nodes_per_sample, bound) = sampling(self.budget, self.samples)?;
        Ok(crate::difficulty::DistributionOptions {
            exact_limit: self.exact_limit,
            samples: self.samples,
            seed: self.seed,
            nodes_per_sample,
            work: bound.work(),
            deadline: bound.time().map(|time| std::time::Instant::now() + time),
            timeout: self.timeout,
            max_memory: self.max_memory,
            confidence: self.confidence,
        })
    }
}

/// One file's object of the `check --json` document and its verdict, from the check's result:
/// the report's object, the undecided object `{"file", "error", "undecided": true}` when the
/// timeout came first, or `{"file", "error"}`.
pub fn check_entry(
    file: &str,
    puzzle: &Puzzle,
    result: &Result<CheckReport, Error>,
    deny_warnings: bool,
) -> (CheckFile, Verdict) {
    let stopped = |error: String, undecided| CheckFile::Stopped { file: file.to_owned(), error, undecided };
    let verdict = check_verdict(result, deny_warnings);
    let entry = match result {
        Ok(report) => CheckFile::Checked(Box::new(CheckEntry::new(file, puzzle, report, deny_warnings))),
        Err(Error::TimedOut) => stopped(UNDECIDED_CHECK.into(), Some(true)),
        Err(e) => stopped(e.to_string(), None),
    };
    (entry, verdict)
}

/// The verdict of [`check_entry`] alone, without its object (whose numbers a big board's check
/// takes a while to write in decimal).
pub fn check_verdict(result: &Result<CheckReport, Error>, deny_warnings: bool) -> Verdict {
    match result {
        Ok(report) if report.passed(deny_warnings) => Verdict::Passed(report.warning_count()),
        Ok(report) => Verdict::Failed(report.warning_count()),
        Err(Error::OverMemory(_)) => Verdict::Unreadable,
        Err(_) => Verdict::Failed(0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse_once_and_errors_list_the_choices() {
        assert_eq!("max".parse::<Objective>(), Ok(Objective::Max));
        assert_eq!("search".parse::<Engine>(), Ok(Engine::Search));
        assert_eq!("any".parse::<StrategyChoice>(), Ok(StrategyChoice(None)));
        assert_eq!("none".parse::<StrategyRequirement>(), Ok(StrategyRequirement::None));
        assert_eq!("sweep".parse::<StrategyRequirement>(), Ok(StrategyRequirement::Wins(Strategy::Sweep)));
        assert!("any".parse::<StrategyRequirement>().is_err());
        let e = "".parse::<StrategyChoice>().unwrap_err();
        assert_eq!(e.to_string(), "`` is not a strategy: use sweep, greedy, chase, none or any");
        let e = "fast".parse::<Engine>().unwrap_err();
        assert_eq!(e.to_string(), "`fast` is not a method: use auto, algebra or search");
    }

    #[test]
    fn a_distribution_request_refuses_endless_samples_and_a_bad_confidence() {
        let spec = DistributionSpec {
            budget: crate::Budget::of_nodes(1000),
            exact_limit: 10,
            samples: UNTIMED_SAMPLES,
            seed: 3,
            confidence: 0.9,
            timeout: None,
            max_memory: None,
        };
        let options = spec.options().unwrap();
        assert_eq!(
            (options.samples, options.nodes_per_sample, options.deadline),
            (UNTIMED_SAMPLES, 1000, None)
        );
        // A node budget bounds the distribution's work in all (each sample costs at least its
        // fixed 1,000), so any number of samples has an end.
        let many = DistributionSpec { samples: 5_000_000, ..spec }.options().unwrap();
        assert_eq!((many.samples, many.work), (5_000_000, Some(1000)));
        let timed = DistributionSpec {
            budget: crate::Budget::of_time(std::time::Duration::from_secs(2)),
            samples: 5_000_000,
            ..spec
        };
        let options = timed.options().unwrap();
        assert_eq!(options.samples, 5_000_000);
        assert!(options.deadline.is_some());
        let e = DistributionSpec { confidence: 1.0, ..spec }.options().unwrap_err();
        assert_eq!(e.to_string(), "confidence 1 is not between 0 and 1");
        let e = DistributionSpec { confidence: f64::NAN, ..spec }.options().unwrap_err();
        assert_eq!(e.to_string(), "confidence NaN is not between 0 and 1");
    }

    #[test]
    fn a_histogram_request_bounds_its_samples_work_as_a_distribution_does() {
        use crate::difficulty::SamplingBound;
        let spec = HistogramSpec {
            budget: crate::Budget::of_nodes(1000),
            samples: 5_000_000,
            seed: 1,
            timeout: None,
            max_memory: None,
        };
        // A node budget bounds each sample and the samples' work in all (each sample costs at
        // least its fixed 1,000), so any number of samples has an end.
        let asked = spec.asked().unwrap();
        assert_eq!(
            (asked.samples, asked.nodes_per_sample, asked.bound),
            (5_000_000, 1000, SamplingBound::Work(1000))
        );
        let timed =
            HistogramSpec { budget: crate::Budget::of_time(std::time::Duration::from_secs(1)), ..spec };
        let asked = timed.asked().unwrap();
        assert_eq!((asked.samples, asked.bound.time()), (5_000_000, Some(std::time::Duration::from_secs(1))));
        let default = HistogramSpec { budget: crate::Budget::default(), ..spec }.asked().unwrap();
        assert_eq!(default.bound, SamplingBound::Work(crate::bounded::DEFAULT_NODES));
    }
}
