//! `modsolve export PATH --html [-o FILE]`: one level, or every level of a directory as a pack,
//! as one self-contained HTML page. The library builds what the page embeds
//! ([`modsolve::export::Document`]); [`crate::page::html`] renders it (the page template, the
//! document as JSON and the player with the playground's board drawing bundled in, all
//! inline), shared with the playground's `POST /api/export`.
//!
//! A pack refuses a file that does not read (exit 2, with its line and column) and leaves out,
//! with a warning on standard error, a level no plan solves (nothing to play).

use std::path::{Path, PathBuf};

use modsolve::Puzzle;
use modsolve::export::{Document, ExportError, ExportOptions};

use super::args::ExportArgs;
use super::output::{Body, Failure, Kind, Output};

/// An export, as the command line asks for it.
pub(crate) struct Request {
    pub(crate) path: PathBuf,
    pub(crate) max_input: u64,
    pub(crate) json: bool,
    pub(crate) output: Option<PathBuf>,
    pub(crate) options: ExportOptions,
}

impl From<ExportArgs> for Request {
    fn from(args: ExportArgs) -> Self {
        let analysis = args.limits.analysis(args.budget, args.timeout);
        Request {
            path: args.path,
            max_input: args.limits.max_input,
            json: args.json,
            output: args.output,
            options: ExportOptions::default().analysis(analysis).mean_par(false),
        }
    }
}

/// Reads the level or the pack, builds its document and writes the page (or the JSON).
pub(crate) fn run(request: &Request) -> Result<Output, Failure> {
    let json = request.json;
    let document = if request.path.is_dir() { pack(request)? } else { single(request)? };
    let text = if json {
        let mut text = serde_json::to_string_pretty(&document)
            .map_err(|e| Failure::plain(Kind::Internal, format!("error: {e}\n"), json))?;
        text.push('\n');
        text
    } else {
        crate::page::html(&document)
    };
    match &request.output {
        None => Ok(Output { body: Body::Text(text), code: 0 }),
        Some(path) => {
            modsolve::generate::write_atomically(path, text.as_bytes(), true).map_err(|e| {
                Failure::plain(Kind::Io, format!("error: cannot write {}: {e}\n", path.display()), json)
            })?;
            let levels = document.levels.len();
            eprintln!(
                "wrote {}: {levels} level{}, {} KB",
                path.display(),
                if levels == 1 { "" } else { "s" },
                text.len().div_ceil(1000)
            );
            Ok(Output { body: Body::Text(String::new()), code: 0 })
        }
    }
}

fn single(request: &Request) -> Result<Document, Failure> {
    // The timeout bounds the file's reading too: the level's analysis gets what is left of it.
    let (loaded, left) =
        super::load_within(&request.path, request.max_input, request.options.analysis.timeout)?;
    let mut options = request.options;
    // With no time left the level is still refused at once when it is too large to export (a
    // definite answer); otherwise its analysis stops at the least bound.
    options.analysis.timeout = left.unwrap_or(Some(std::time::Duration::ZERO));
    let file = file_name(&request.path, &loaded.shown);
    let level =
        modsolve::export::level(&loaded.puzzle, &file, &options).map_err(|e| failure(&loaded.shown, e))?;
    Ok(Document::single(level))
}

/// Every `.ron` file of the directory, in name order, as one pack ordered by difficulty.
fn pack(request: &Request) -> Result<Document, Failure> {
    let dir = &request.path;
    let files = super::puzzle_files(std::slice::from_ref(dir), request.json)?;
    // Every file is read first: one that does not read stops the export before any analysis.
    // Each level's timeout bounds its file's reading too: its analysis gets what is left (as
    // a single level's, no time left still refuses a level too large to export).
    let mut loaded: Vec<(String, String, Puzzle, Option<std::time::Duration>)> = Vec::new();
    for path in &files {
        let (level, left) = super::load_within(path, request.max_input, request.options.analysis.timeout)?;
        let left = left.unwrap_or(Some(std::time::Duration::ZERO));
        loaded.push((file_name(path, &level.shown), level.shown, level.puzzle, left));
    }
    let results = modsolve::bounded::in_parallel(&loaded, |(file, _, puzzle, left)| {
        let mut options = request.options.mean_par(true);
        options.analysis.timeout = *left;
        modsolve::export::level(puzzle, file, &options)
    });
    let mut levels = Vec::new();
    for ((_, shown, _, _), result) in loaded.iter().zip(results) {
        match result {
            Ok(level) => levels.push(level),
            Err(ExportError::Unsolvable) => {
                eprintln!("warning: {shown}: {}; left out of the pack", ExportError::Unsolvable)
            }
            Err(e) => return Err(failure(shown, e)),
        }
    }
    if levels.is_empty() {
        return Err(Failure::plain(
            Kind::Input,
            format!(
                "error: {} has no playable level (no .ron file that reads and can be solved)\n",
                dir.display()
            ),
            request.json,
        ));
    }
    Ok(Document::pack(pack_name(dir), levels))
}

/// The name a level goes by in the page: its file's name (`-`: standard input's name).
fn file_name(path: &Path, shown: &str) -> String {
    path.file_name().map_or_else(|| shown.to_string(), |name| name.to_string_lossy().into_owned())
}

/// The directory's own name (`.` is the current directory's).
fn pack_name(dir: &Path) -> String {
    let named = dir.canonicalize().ok().and_then(|d| d.file_name().map(|n| n.to_string_lossy().into_owned()));
    named.unwrap_or_else(|| dir.display().to_string())
}

fn failure(shown: &str, e: ExportError) -> Failure {
    match e {
        ExportError::Unsolvable | ExportError::TooLarge { .. } => {
            Failure::plain(Kind::Input, format!("error: {shown}: {e}\n"), false)
        }
        ExportError::Undecided => Failure::plain(
            Kind::Budget,
            format!("error: {shown}: {e}; a larger --timeout may finish it\n"),
            false,
        ),
        ExportError::Analysis(e) => {
            let failure = Failure::from(e);
            let message = failure.message().replacen("error: ", &format!("error: {shown}: "), 1);
            Failure::plain(failure.kind(), message, false)
        }
        e => Failure::plain(Kind::Internal, format!("error: {shown}: {e}\n"), false),
    }
}
