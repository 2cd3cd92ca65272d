//! `modsolve check FILE...`: each file checked through [`modsolve::check::check_within`], in
//! parallel, one block or JSON object a file and the summary; and `--par-histogram`, the par
//! distribution of each file taken as a template.

use std::path::PathBuf;
use std::time::Instant;

use modsolve::check::{CheckOptions, check_within};
use modsolve::report::batch::{
    DistributionAsked, DistributionEntry, HistogramEntry, Summary, batch_json, distribution_text,
    histogram_text,
};
use modsolve::report::check::{CheckFile, check_line, check_text};
use modsolve::report::github::{Level, annotation, check_annotations};
use modsolve::request::{
    DistributionSpec, HistogramSpec, SamplingRefused, UNDECIDED_CHECK, UNTIMED_SAMPLES, Verdict, check_entry,
    check_verdict,
};

use super::args::{CheckArgs, CheckFormat};
use super::output::{Body, Failure, Kind, Output};

/// A check (or a par histogram) of files, as the command line asks for it.
pub(crate) struct Request {
    pub(crate) files: Vec<PathBuf>,
    pub(crate) max_input: u64,
    pub(crate) options: CheckOptions,
    pub(crate) json: bool,
    /// GitHub Actions annotations instead of text (never with `json`).
    pub(crate) github: bool,
    pub(crate) deny_warnings: bool,
    /// One line a file (`--brief`).
    pub(crate) brief: bool,
    /// The quiet patterns' basis too (`-v`).
    pub(crate) verbose: bool,
    pub(crate) samples: usize,
    pub(crate) seed: u64,
    pub(crate) exact_limit: u64,
    pub(crate) confidence: f64,
}

impl From<CheckArgs> for Request {
    fn from(args: CheckArgs) -> Self {
        Request {
            files: args.files,
            max_input: args.limits.max_input,
            options: CheckOptions::default()
                .budget(args.budget)
                .timeout(args.timeout)
                .max_memory(args.limits.max_memory),
            json: args.json || args.format == Some(CheckFormat::Json),
            github: args.format == Some(CheckFormat::Github),
            deny_warnings: args.deny.is_some(),
            brief: args.brief,
            verbose: args.verbose,
            samples: args.samples,
            seed: args.seed,
            exact_limit: args.exact_limit,
            confidence: args.confidence,
        }
    }
}

/// One file's check, ready to print: its block of text (or its annotations, with `--format
/// github`), its JSON object (with `--json` only: a big board's numbers take a while to write)
/// and its verdict ([`check_entry`]).
struct Checked {
    text: String,
    json: Option<CheckFile>,
    verdict: Verdict,
}

/// Checks every file; exit 0 all passed, 1 one failed, 2 one was unreadable.
pub(crate) fn run(request: &Request) -> Result<Output, Failure> {
    super::stdin_at_most_once(&request.files, request.json)?;
    let files = super::puzzle_files(&request.files, request.json)?;
    let deny = request.deny_warnings;
    let results = modsolve::bounded::in_parallel(&files, |path| {
        // A file's timeout bounds its reading too: its check gets what is left.
        let ((loaded, source), left) =
            match super::load_with_source_within(path, request.max_input, request.options.timeout) {
                Ok(loaded) => loaded,
                Err(failure) => return unreadable(failure, request.github, request.brief),
            };
        let (shown, puzzle) = (&loaded.shown, &loaded.puzzle);
        let result = left.and_then(|timeout| {
            let mut options = request.options;
            options.timeout = timeout;
            check_within(puzzle, &options)
        });
        let (json, verdict) = if request.json {
            let (json, verdict) = check_entry(shown, puzzle, &result, deny);
            (Some(json), verdict)
        } else {
            (None, check_verdict(&result, deny))
        };
        let text = match &result {
            Ok(report) if request.github => check_annotations(shown, &source, report, deny),
            Ok(report) if request.brief => check_line(shown, report, deny),
            Ok(report) => check_text(shown, puzzle, report, deny, request.verbose, &super::FLAGS),
            Err(modsolve::Error::TimedOut) if request.github => annotation(
                Level::Error,
                shown,
                None,
                "undecided",
                &format!("{UNDECIDED_CHECK}; a larger --timeout may finish it"),
            ),
            Err(modsolve::Error::TimedOut) => {
                format!("FAIL {shown}: undecided: {UNDECIDED_CHECK}; a larger --timeout may finish it\n")
            }
            Err(modsolve::Error::OverMemory(e)) => format!("{shown}: {}", super::memory_failure(e.clone())),
            Err(e) if request.github => annotation(Level::Error, shown, None, "error", &e.to_string()),
            Err(e) => format!("FAIL {shown}: error: {e}\n"),
        };
        Checked { text, json, verdict }
    });
    let mut summary = Summary::default();
    let (mut blocks, mut objects) = (Vec::new(), Vec::new());
    for Checked { text, json, verdict } in results {
        if verdict == Verdict::Unreadable {
            // On stderr too: exit 2 always says why there, whatever the report holds.
            eprint!("{text}");
        }
        summary.add(verdict);
        blocks.push(text);
        objects.extend(json);
    }
    let body = if request.json {
        Body::Json(batch_json(objects, Some(&summary)))
    } else if request.github || request.brief {
        // One line (or annotation) a file: no blank line between them.
        Body::Text(blocks.concat() + &summary.text())
    } else {
        let mut text = blocks.join("\n");
        text.push('\n');
        text.push_str(&summary.text());
        Body::Text(text)
    };
    Ok(Output { body, code: summary.exit_code() })
}

/// An unreadable file's block and object: its rendered error (or an annotation at its line
/// and column), and the error as JSON.
fn unreadable(failure: Failure, github: bool, brief: bool) -> Checked {
    let mut object = failure.to_json()["error"].take();
    let file = object["file"].as_str().unwrap_or("-").to_string();
    if let Some(map) = object.as_object_mut()
        && let Some(message) = map.remove("message")
    {
        map.insert("error".into(), message);
    }
    let text = if github {
        annotation(Level::Error, &file, failure.position(), failure.kind().as_str(), failure.headline())
    } else if brief {
        let at = failure.position().map(|p| format!(":{}:{}", p.line, p.column)).unwrap_or_default();
        format!("FAIL {file}{at}: unreadable: {}\n", failure.headline())
    } else {
        failure.message().to_string()
    };
    Checked { text, json: Some(CheckFile::Unreadable(object)), verdict: Verdict::Unreadable }
}

/// `--format github` prints a check's findings only: a usage error with `flag`.
fn refuse_github(request: &Request, flag: &str) -> Result<(), Failure> {
    if request.github {
        let message =
            format!("error: --format github prints a check's findings; {flag} prints text or JSON\n");
        return Err(Failure::plain(Kind::Usage, message, false));
    }
    Ok(())
}

/// The par histogram of every file taken as a template. A time budget bounds the sampling of
/// the whole run (all files); a node budget bounds each sample and each file's samples' work in
/// all, as the distribution's; the timeout bounds each file's whole histogram, its set-up
/// included.
pub(crate) fn histogram(request: &Request) -> Result<Output, Failure> {
    let json = request.json;
    super::stdin_at_most_once(&request.files, json)?;
    refuse_github(request, "--par-histogram")?;
    let spec = HistogramSpec {
        budget: request.options.budget,
        samples: request.samples,
        seed: request.seed,
        timeout: request.options.timeout,
        max_memory: request.options.max_memory,
    };
    let asked = spec.asked().map_err(|e| refused(&e, json))?;
    let end = asked.bound.end(Instant::now());
    let (mut text, mut objects) = (String::new(), Vec::new());
    for path in &super::puzzle_files(&request.files, json)? {
        // A file's timeout bounds its reading too: its histogram gets what is left.
        let (loaded, left) =
            super::load_within(path, request.max_input, spec.timeout).map_err(|f| f.in_json(json))?;
        let mut spec = spec;
        spec.timeout = left.map_err(|e| Failure::from(e).in_json(json))?;
        let histogram =
            spec.histogram(&loaded.puzzle, &asked, end).map_err(|e| Failure::from(e).in_json(json))?;
        text.push_str(&histogram_text(&loaded.shown, &histogram, &asked, &super::FLAGS));
        objects.push(HistogramEntry::new(&loaded.shown, &histogram, &asked));
    }
    let body = if json { Body::Json(batch_json(objects, None)) } else { Body::Text(text) };
    Ok(Output { body, code: 0 })
}

/// A histogram or distribution request refused before any work, in the command line's words
/// (the library's, with the flags that give what it asks for).
fn refused(e: &SamplingRefused, json: bool) -> Failure {
    let message = match e {
        SamplingRefused::Endless(samples) => format!(
            "error: --samples {samples} with a node budget has no end in sight: give at most {UNTIMED_SAMPLES}, \
             or a time --budget (e.g. 30s) to take as many as fit\n"
        ),
        // The confidence was parsed into (0, 1) already.
        SamplingRefused::Confidence(_) => format!("error: {e}\n"),
    };
    Failure::plain(Kind::Usage, message, json)
}

/// The par distribution of every file taken as a template: exact up to `--exact-limit`
/// solvable starts, sampled beyond. A time budget bounds the search and the sampling of the
/// whole run (all files); a node budget bounds each sample and the samples' work in all, and
/// sets no deadline; the timeout bounds each file's whole distribution, its set-up included.
pub(crate) fn distribution(request: &Request) -> Result<Output, Failure> {
    let json = request.json;
    super::stdin_at_most_once(&request.files, json)?;
    refuse_github(request, "--par-distribution")?;
    let spec = DistributionSpec {
        budget: request.options.budget,
        exact_limit: request.exact_limit,
        samples: request.samples,
        seed: request.seed,
        confidence: request.confidence,
        timeout: request.options.timeout,
        max_memory: request.options.max_memory,
    };
    let options = spec.options().map_err(|e| refused(&e, json))?;
    let asked = DistributionAsked {
        nodes_per_sample: options.nodes_per_sample,
        bound: modsolve::difficulty::distribution_bounds(spec.budget).1,
    };
    let (mut text, mut objects) = (String::new(), Vec::new());
    for path in &super::puzzle_files(&request.files, json)? {
        // A file's timeout bounds its reading too: its distribution gets what is left.
        let (loaded, left) =
            super::load_within(path, request.max_input, spec.timeout).map_err(|f| f.in_json(json))?;
        let mut options = options;
        options.timeout = left.map_err(|e| Failure::from(e).in_json(json))?;
        let distribution = modsolve::difficulty::par_distribution(&loaded.puzzle, &options)
            .map_err(|e| Failure::from(e).in_json(json))?;
        text.push_str(&distribution_text(&loaded.shown, &distribution, &asked, &super::FLAGS));
        objects.push(DistributionEntry::new(&loaded.shown, &distribution));
    }
    let body = if json { Body::Json(batch_json(objects, None)) } else { Body::Text(text) };
    Ok(Output { body, code: 0 })
}
