//! `modsolve FILE --shard K/N` (one part of the proof of the fewest plan, through
//! [`modsolve::shard::walk_part`]) and `modsolve combine FILE PARTS...` (the parts' reports put
//! together and checked by [`modsolve::shard::combine_audited`], with `--audit K` walking K
//! finished parts again).
//!
//! A part's JSON report is one line (so that parts can be appended to one file of JSON lines);
//! combine reads files of one document or of JSON lines, and `-` for JSON lines on standard
//! input. Both run on the clock of `--timeout` (reading included), like every command. Exit
//! codes: a part 0 (also when a budget left it unfinished: the report says so), 3 when the
//! timeout came first; combine 0 proven, 3 not proven (parts missing or unfinished) or the
//! timeout came first, 2 bad, foreign, overlapping or contradicting parts, or a part that
//! disagrees with its audit.

use std::path::{Path, PathBuf};
use std::time::Duration;

use modsolve::shard::{self, Audit, Combined, PartId, PartReport};
use modsolve::solve::{Budget, Objective};

use super::args::CombineArgs;
use super::output::{Body, Failure, Kind, Output};

/// `modsolve combine`, as the command line asks for it.
#[derive(Clone)]
pub(crate) struct CombineRequest {
    pub(crate) file: PathBuf,
    pub(crate) parts: Vec<PathBuf>,
    pub(crate) json: bool,
    pub(crate) max_input: u64,
    /// `--audit K`: how many finished parts to walk again.
    pub(crate) audit: u64,
    /// `--seed`: the audit's seed (none: a random one).
    pub(crate) seed: Option<u64>,
    pub(crate) timeout: Option<Duration>,
}

impl From<CombineArgs> for CombineRequest {
    fn from(args: CombineArgs) -> Self {
        CombineRequest {
            file: args.file,
            parts: args.parts,
            json: args.json,
            max_input: args.limits.max_input,
            audit: args.audit,
            seed: args.seed,
            timeout: args.timeout,
        }
    }
}

/// Runs `work` within the timeout (none: to its end); past it, undecided (exit 3).
fn on_the_clock(
    timeout: Option<Duration>,
    json: bool,
    work: impl FnOnce() -> Result<Output, Failure> + Send + 'static,
) -> Result<Output, Failure> {
    if timeout.is_none() {
        return work().map_err(|f| f.in_json(json));
    }
    match modsolve::bounded::within_timeout(timeout, work) {
        Ok(result) => result.map_err(|f| f.in_json(json)),
        Err(e) => Err(Failure::from(e).in_json(json)),
    }
}

/// `modsolve FILE --shard K/N`: walks the part to its end (or within `--budget` when one is
/// given), within `--timeout`, and reports it.
pub(crate) fn part(path: &Path, id: PartId, request: &super::solve::Request) -> Result<Output, Failure> {
    let json = request.json;
    let budget =
        if request.options.budget.is_default() { shard::PART_BUDGET } else { request.options.budget };
    let (path, max_input, objective) = (path.to_path_buf(), request.max_input, request.options.objective);
    on_the_clock(request.options.timeout, json, move || walk(&path, max_input, id, objective, budget, json))
}

fn walk(
    path: &Path,
    max_input: u64,
    id: PartId,
    objective: Objective,
    budget: Budget,
    json: bool,
) -> Result<Output, Failure> {
    let puzzle = super::load(path, max_input)?.puzzle;
    let report = shard::walk_part(&puzzle, objective, id, budget).map_err(|e| {
        let kind = match e {
            shard::ShardError::NoSolution | shard::ShardError::NotWalked(_) => Kind::Unsupported,
            _ => Kind::Internal,
        };
        Failure::plain(kind, format!("error: {e}\n"), json)
    })?;
    let body = if json {
        let mut line = serde_json::to_string(&report).map_err(|e| {
            Failure::plain(Kind::Internal, format!("error: cannot write the report: {e}\n"), json)
        })?;
        line.push('\n');
        Body::Text(line)
    } else {
        Body::Text(part_text(&puzzle, &report))
    };
    Ok(Output { body, code: 0 })
}

fn part_text(puzzle: &modsolve::Puzzle, report: &PartReport) -> String {
    let state = match (report.finished, report.below) {
        (true, None) => "walked to its end".to_string(),
        (true, Some(s)) => format!("walked to its end for plans below {s}"),
        (false, _) => "NOT walked to its end (the budget ran out)".to_string(),
    };
    let best = match (&report.presses, report.score) {
        (Some(x), Some(score)) => {
            format!("best {} {score}: {}", measure(&report.objective), plan_text(puzzle, x))
        }
        _ => "no plan within the press limits".into(),
    };
    format!(
        "part {}/{} of {} ({}): {state}, {} nodes\n{best}\n",
        report.part, report.parts, report.puzzle, report.objective, report.nodes
    )
}

/// What the objective's score counts.
fn measure(objective: &str) -> &'static str {
    match objective {
        "max" => "largest press",
        "buttons" => "buttons pressed",
        _ => "total presses",
    }
}

/// The buttons pressed, by name, `×k` for a button pressed `k > 1` times.
fn plan_text(puzzle: &modsolve::Puzzle, presses: &[u64]) -> String {
    let pressed: Vec<String> = presses
        .iter()
        .enumerate()
        .filter(|&(_, &k)| k > 0)
        .map(|(j, &k)| {
            let name = puzzle.button_name(j);
            if k == 1 { name } else { format!("{name}×{k}") }
        })
        .collect();
    if pressed.is_empty() { "press nothing".into() } else { format!("press {}", pressed.join(", ")) }
}

/// Reads every report of the files named (`-`: standard input), each named `FILE` or `FILE
/// line L` (the line its document starts on) for messages.
fn read_reports(request: &CombineRequest) -> Result<Vec<(String, PartReport)>, Failure> {
    let json = request.json;
    let mut reports = Vec::new();
    for path in &request.parts {
        let shown = modsolve::input::source_name(path);
        let text = modsolve::input::read_source(path, request.max_input)
            .map_err(|e| Failure::plain(Kind::Io, format!("error: cannot read {shown}: {e}\n"), json))?;
        let mut stream = serde_json::Deserializer::from_str(&text).into_iter::<serde_json::Value>();
        loop {
            let start = stream.byte_offset();
            let Some(next) = stream.next() else { break };
            // The line the document starts on (after the whitespace before it).
            let skipped = text[start..].len() - text[start..].trim_start().len();
            let line = text[..start + skipped].matches('\n').count() + 1;
            let name = format!("{shown} line {line}");
            let value = next.map_err(|e| {
                Failure::plain(Kind::Input, format!("error: {shown}: not a JSON document: {e}\n"), json)
            })?;
            let report = PartReport::from_json(value).map_err(|e| {
                Failure::plain(
                    Kind::Input,
                    format!("error: {name}: not a part report of `modsolve FILE --shard K/N --json`: {e}\n"),
                    json,
                )
            })?;
            reports.push((name, report));
        }
    }
    Ok(reports)
}

/// `modsolve combine FILE PARTS...`.
pub(crate) fn combine(request: &CombineRequest) -> Result<Output, Failure> {
    let json = request.json;
    super::stdin_at_most_once(&[vec![request.file.clone()], request.parts.clone()].concat(), json)?;
    // A seed when none is given: printed, so that the same audit can be run again.
    let seed = request.seed.unwrap_or_else(|| {
        use std::hash::{BuildHasher, Hasher};
        let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
        hasher.write_u128(
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos()),
        );
        hasher.finish() % 1_000_000_000
    });
    let audit = (request.audit > 0).then_some(Audit { parts: request.audit, seed });
    let owned = request.clone();
    on_the_clock(request.timeout, json, move || combine_inner(&owned, audit))
}

fn combine_inner(request: &CombineRequest, audit: Option<Audit>) -> Result<Output, Failure> {
    let json = request.json;
    let loaded = super::load(&request.file, request.max_input)?;
    let reports = read_reports(request)?;
    let combined = shard::combine_audited(&loaded.puzzle, &reports, audit).map_err(|e| {
        let kind = match e {
            shard::CombineError::BadPlan { .. } | shard::CombineError::Audit { .. } => Kind::Input,
            shard::CombineError::NotWalked(shard::ShardError::Internal(_))
            | shard::CombineError::Internal(_) => Kind::Internal,
            _ => Kind::Usage,
        };
        Failure::plain(kind, format!("error: {e}\n"), json)
    })?;
    let code = if combined.proven { 0 } else { 3 };
    let body = if json {
        Body::Json(serde_json::to_value(&combined).map_err(|e| {
            Failure::plain(Kind::Internal, format!("error: cannot write the result: {e}\n"), json)
        })?)
    } else {
        Body::Text(combined_text(&loaded.puzzle, &combined))
    };
    Ok(Output { body, code })
}

fn combined_text(puzzle: &modsolve::Puzzle, c: &Combined) -> String {
    let mut out = String::new();
    let what = measure(&c.objective);
    match (&c.presses, c.score) {
        (Some(x), Some(score)) if c.proven => {
            out.push_str(&format!(
                "fewest {what}: {score}, proven ({} of {} parts, {} nodes)\n{}\n",
                c.given,
                c.parts,
                c.nodes,
                plan_text(puzzle, x)
            ));
        }
        (Some(x), Some(score)) => {
            out.push_str(&format!(
                "best {what} so far: {score}, not proven ({} of {} parts, {} nodes)\n{}\n",
                c.given,
                c.parts,
                c.nodes,
                plan_text(puzzle, x)
            ));
        }
        _ if c.proven => out.push_str("no plan within the press limits (proven)\n"),
        _ => out.push_str("no plan within the press limits found so far, not proven\n"),
    }
    if !c.missing.is_empty() {
        out.push_str(&format!(
            "missing parts (run them with --shard K/{}): {}\n",
            c.parts,
            shard::describe_ranges(&c.missing)
        ));
    }
    if !c.unfinished.is_empty() {
        out.push_str(&format!(
            "unfinished parts (run them again with a larger --budget): {}\n",
            shard::describe_ranges(&c.unfinished)
        ));
    }
    if c.proven {
        out.push_str(&trust_text(c));
    }
    out
}

/// What a proven answer rests on, said plainly.
fn trust_text(c: &Combined) -> String {
    let checked = "every report was checked against the puzzle and its run (plans simulated, each placed in its own part)";
    let word = "that each finished part was walked to its end by an honest worker";
    match c.seed {
        Some(seed) if !c.audited.is_empty() => format!(
            "trusted: {checked}; {word}, checked by walking {} of {} parts again (part{} {}, seed {seed}), which agreed\n",
            c.audited.len(),
            c.parts,
            if c.audited.len() == 1 { "" } else { "s" },
            shard::describe_ranges(&shard::ranges(&c.audited))
        ),
        _ => format!("trusted: {checked}; {word}, unchecked (--audit K walks K parts again)\n"),
    }
}
