//! `modsolve generate TEMPLATE --out DIR`: levels made by [`modsolve::generate::generate`],
//! each written to its file and its line printed as soon as it is accepted.
//!
//! With `--json` the printed document is the library's [`modsolve::request::GenerateReport`]
//! (`{"version", "levels": [...], "found", "tried"}`), streamed: each level's object
//! ([`LevelReport`], its `file` the path written) is printed when its file is written. The
//! request is the library's ([`GenerateRequest`], checked by [`prepare_generation`]); only the
//! wording of refusals (with the flags) and the writing are this side's.

use std::io::Write;
use std::path::{Path, PathBuf};

use modsolve::generate::{Batch, Infeasible, Level, Spec, generate};
use modsolve::report::SCHEMA_VERSION;
use modsolve::report::batch::level_text;
use modsolve::request::{
    GenerateRequest, LevelReport, Refusal, StrategyChoice, level_name, level_source, prepare_generation,
};

use super::args::GenerateArgs;
use super::output::{Body, Failure, Kind, Output};

/// A batch of levels, as the command line asks for it.
#[derive(Clone)]
pub(crate) struct Request {
    template: PathBuf,
    max_input: u64,
    max_memory: Option<u64>,
    spec_count: usize,
    seed: u64,
    out: PathBuf,
    unique: bool,
    par: Option<(u64, u64)>,
    strategy: Option<String>,
    attempts: Option<usize>,
    scramble: Option<u64>,
    deny_warnings: bool,
    pub(crate) json: bool,
    force: bool,
    timeout: Option<std::time::Duration>,
}

impl From<GenerateArgs> for Request {
    fn from(args: GenerateArgs) -> Self {
        Request {
            template: args.template,
            max_input: args.limits.max_input,
            max_memory: args.limits.max_memory,
            spec_count: args.count,
            seed: args.seed,
            out: args.out,
            unique: args.unique,
            par: args.par,
            strategy: args.strategy,
            attempts: args.attempts,
            scramble: args.scramble,
            deny_warnings: args.deny_warnings,
            json: args.json,
            force: args.force,
            timeout: args.timeout,
        }
    }
}

fn usage(message: String) -> Failure {
    Failure::plain(Kind::Usage, message, false)
}

/// Makes the levels; exit 0 when all were found, 1 when the spec was too rare, 3 when the
/// timeout came first (the whole run is on its clock: reading the template, the checks of the
/// spec, the search and the writing).
pub(crate) fn run(request: &Request) -> Result<Output, Failure> {
    use std::sync::{Arc, Mutex};
    let json = request.json;
    let lines = Arc::new(Mutex::new(LevelLines { json, written: 0, closed: false, stopped: false }));
    if request.timeout.is_none() {
        return run_inner(request, &lines).map_err(|f| f.in_json(json));
    }
    let (owned, shared) = (request.clone(), Arc::clone(&lines));
    match modsolve::bounded::within_timeout(request.timeout, move || run_inner(&owned, &shared)) {
        Ok(result) => result.map_err(|f| f.in_json(json)),
        Err(e) => {
            // The run is abandoned: it writes and prints nothing more, and the JSON document
            // printed so far ends with the error.
            let mut lines = lines.lock().unwrap_or_else(|e| e.into_inner());
            lines.stopped = true;
            let failure = Failure::from(e);
            if json && lines.written > 0 && !lines.closed {
                let end = lines.finish(Some(("error", failure.to_json()["error"].to_string())));
                lines.closed = true;
                let _ = std::io::stdout().lock().write_all(end.as_bytes());
                return Err(failure.settled());
            }
            lines.closed = true;
            Err(failure.in_json(json))
        }
    }
}

/// The run on the calling thread: the template read, the spec checked, the levels made and
/// written, and the summary.
fn run_inner(request: &Request, lines: &std::sync::Mutex<LevelLines>) -> Result<Output, Failure> {
    let template = super::load(&request.template, request.max_input)?.puzzle;
    let (asked, spec) = prepared(request, &template)?;
    if !request.force {
        existing_levels(&request.out, asked.count)?;
    }
    std::fs::create_dir_all(&request.out)
        .map_err(|e| usage(format!("error: cannot create {}: {e}\n", request.out.display())))?;
    let bar = progress_bar(asked.count as u64, "levels");
    // Each level is written, then its line printed, as soon as it is accepted.
    let lock = || lines.lock().unwrap_or_else(|e| e.into_inner());
    let batch = generate(
        &template,
        &spec,
        &|run| {
            if let Some(bar) = &bar {
                bar.set_position(run.found as u64);
                let pars =
                    run.pars.map_or(String::new(), |(low, high)| format!(", proven pars {low}..{high}"));
                bar.set_message(format!("{} candidates{pars}", run.tried));
            }
        },
        |level| write_level(request, &asked, &mut lock(), bar.as_ref(), &level),
    );
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    summary(request, &lock(), batch)
}

/// The library's request from the command line's, checked against the template: the spec to
/// generate, or the refusal worded with the flags.
fn prepared(request: &Request, template: &modsolve::Puzzle) -> Result<(GenerateRequest, Spec), Failure> {
    let strategy = match request.strategy.as_deref() {
        None => StrategyChoice::default(),
        Some(name) => name.parse().map_err(|e| usage(format!("error: --strategy {e}\n")))?,
    };
    let asked = GenerateRequest {
        template: request.template.display().to_string(),
        count: request.spec_count,
        seed: request.seed,
        unique: request.unique,
        par: request.par,
        strategy,
        attempts: request.attempts,
        scramble: request.scramble,
        deny_warnings: request.deny_warnings,
        max_memory: request.max_memory,
    };
    let spec = prepare_generation(template, &asked, rayon::current_num_threads()).map_err(|e| match e {
        Refusal::OverMemory(e) => Failure::plain(Kind::Memory, super::memory_failure(e), false),
        Refusal::Infeasible(reason) => usage(format!("error: {}\n", infeasible(&reason))),
        Refusal::Internal(e) => Failure::from(e),
    })?;
    Ok((asked, spec))
}

/// Writes an accepted level to its file, then prints its line (text or JSON); refused once the
/// run was abandoned.
fn write_level(
    request: &Request,
    asked: &GenerateRequest,
    lines: &mut LevelLines,
    bar: Option<&indicatif::ProgressBar>,
    level: &Level,
) -> Result<(), Failure> {
    if lines.stopped {
        return Err(Failure::from(modsolve::Error::TimedOut));
    }
    let number = lines.written + 1;
    let path = request.out.join(level_name(number));
    let body = level_source(number, asked, level);
    modsolve::generate::write_atomically(&path, body.as_bytes(), request.force).map_err(|e| {
        let hint = if e.kind() == std::io::ErrorKind::AlreadyExists { "; --force overwrites it" } else { "" };
        Failure::plain(Kind::Io, format!("error: cannot write {}: {e}{hint}\n", path.display()), false)
    })?;
    let file = path.display().to_string();
    let line = if request.json {
        serde_json::to_string(&LevelReport::new(file, level, None)).map_err(|e| {
            Failure::plain(Kind::Internal, format!("error: cannot write a level as JSON: {e}\n"), false)
        })?
    } else {
        level_text(&file, level)
    };
    let mut print = || lines.print(&line);
    match bar {
        Some(bar) => bar.suspend(print),
        None => print(),
    }
}

/// The end of the run: the document closed (with the error when the batch failed), the
/// shortfall or the count made, and the exit code.
fn summary(request: &Request, lines: &LevelLines, batch: Result<Batch, Failure>) -> Result<Output, Failure> {
    let batch = match batch {
        Ok(batch) => batch,
        Err(failure) => {
            // The levels printed so far stay a complete JSON document (each of their files is
            // complete too), which ends with the error.
            if request.json && !lines.closed {
                let end = lines.finish(Some(("error", failure.to_json()["error"].to_string())));
                let _ = std::io::stdout().lock().write_all(end.as_bytes());
                return Err(failure.settled());
            }
            return Err(failure);
        }
    };
    let (found, count) = (batch.found, request.spec_count);
    let mut text = lines.finish(Some(("found", format!("{found}, \"tried\": {}", batch.tried))));
    if !request.json {
        if found < count {
            text.push_str(&modsolve::request::shortfall(&batch, count, request.par, request.scramble, flag));
            text.push('\n');
        } else {
            let noun = if found == 1 { "level" } else { "levels" };
            text.push_str(&format!("made {found} {noun} from {} candidates\n", batch.tried));
        }
    }
    Ok(Output { body: Body::Text(text), code: if found < count { 1 } else { 0 } })
}

/// A request field as the command line names it: `--attempts`.
fn flag(field: &'static str) -> String {
    format!("--{field}")
}

/// Why the spec cannot be met: the library's reason, then the flags that set it.
fn infeasible(reason: &Infeasible) -> String {
    let flags: Vec<String> = reason.fields().iter().map(|&field| flag(field)).collect();
    if flags.is_empty() { reason.to_string() } else { format!("{reason} (set by {})", flags.join(" and ")) }
}

/// Refuses, before anything is generated, a run that would overwrite level files in `out`.
fn existing_levels(out: &Path, count: usize) -> Result<(), Failure> {
    let entries = match std::fs::read_dir(out) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(usage(format!("error: cannot read {}: {e}\n", out.display()))),
    };
    let mut taken: Vec<usize> = entries
        .filter_map(|entry| {
            let name = entry.ok()?.file_name();
            let name = name.to_str()?;
            let number: usize = name.strip_prefix("level-")?.strip_suffix(".ron")?.parse().ok()?;
            ((1..=count).contains(&number) && level_name(number) == name).then_some(number)
        })
        .collect();
    taken.sort_unstable();
    let Some(&first) = taken.first() else { return Ok(()) };
    let more = match taken.len() - 1 {
        0 => String::new(),
        1 => " (and 1 more level file this run would write)".into(),
        n => format!(" (and {n} more level files this run would write)"),
    };
    Err(usage(format!(
        "error: {} already exists{more}; nothing was generated. --force overwrites existing level files\n",
        out.join(level_name(first)).display()
    )))
}

/// The lines `generate` prints, one per level as it is written: text, or the elements of the
/// JSON document's `levels`. A closed pipe stops the printing, not the writing of levels; any
/// other error on standard output stops the run.
struct LevelLines {
    json: bool,
    written: usize,
    closed: bool,
    /// The timeout came: the run stops at its next level.
    stopped: bool,
}

impl LevelLines {
    fn print(&mut self, line: &str) -> Result<(), Failure> {
        self.written += 1;
        if self.closed {
            return Ok(());
        }
        let line = match (self.json, self.written) {
            (false, _) => line.to_string(),
            (true, 1) => format!("{{\"version\": {SCHEMA_VERSION}, \"levels\": [\n  {line}"),
            (true, _) => format!(",\n  {line}"),
        };
        let mut stdout = std::io::stdout().lock();
        match stdout.write_all(line.as_bytes()).and_then(|_| stdout.flush()) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {
                self.closed = true;
                Ok(())
            }
            Err(e) => Err(Failure::plain(Kind::Io, format!("error: cannot write the output: {e}\n"), false)),
        }
    }

    /// What is left to print after the last level: the end of the JSON document, with a last
    /// field (`"found": …, "tried": …`, or `"error": …`).
    fn finish(&self, last: Option<(&str, String)>) -> String {
        if !self.json {
            return String::new();
        }
        let open = if self.written == 0 {
            format!("{{\"version\": {SCHEMA_VERSION}, \"levels\": []")
        } else {
            "\n]".to_string()
        };
        match last {
            Some((key, value)) => format!("{open}, \"{key}\": {value}}}\n"),
            None => format!("{open}}}\n"),
        }
    }
}

fn progress_bar(total: u64, what: &str) -> Option<indicatif::ProgressBar> {
    use std::io::IsTerminal;
    std::io::stderr().is_terminal().then(|| {
        let bar = indicatif::ProgressBar::new(total);
        bar.set_message("0 candidates");
        let style = indicatif::ProgressStyle::with_template(&format!(
            "{{wide_bar}} {{pos}}/{{len}} {what} ({{msg}})"
        ));
        if let Ok(style) = style {
            bar.set_style(style);
        }
        bar
    })
}
