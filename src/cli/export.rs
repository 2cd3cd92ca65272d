//! `modsolve export PATH --html [-o FILE]`: one level, or every level of a directory as a pack,
//! as one self-contained HTML page. The library builds what the page embeds
//! ([`modsolve::export::Document`]); this module renders it ([`html`]: the page template, the
//! document as JSON and the player with the playground's board drawing bundled in, all
//! inline), which the playground's `POST /api/export` shares.
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
        html(&document)
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
    let loaded = super::load(&request.path, request.max_input)?;
    let file = file_name(&request.path, &loaded.shown);
    let level = modsolve::export::level(&loaded.puzzle, &file, &request.options)
        .map_err(|e| failure(&loaded.shown, e))?;
    Ok(Document::single(level))
}

/// Every `.ron` file of the directory, in name order, as one pack ordered by difficulty.
fn pack(request: &Request) -> Result<Document, Failure> {
    let dir = &request.path;
    let files = super::puzzle_files(std::slice::from_ref(dir), request.json)?;
    // Every file is read first: one that does not read stops the export before any analysis.
    let mut loaded: Vec<(String, String, Puzzle)> = Vec::new();
    for path in &files {
        let level = super::load(path, request.max_input)?;
        loaded.push((file_name(path, &level.shown), level.shown, level.puzzle));
    }
    let options = request.options.mean_par(true);
    let results = modsolve::bounded::in_parallel(&loaded, |(file, _, puzzle)| {
        modsolve::export::level(puzzle, file, &options)
    });
    let mut levels = Vec::new();
    for ((_, shown, _), result) in loaded.iter().zip(results) {
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

/// The page template, the player and the board drawing the playground uses.
const TEMPLATE: &str = include_str!("../../web/player.html");
const PLAYER_JS: &str = include_str!("../../web/player.js");
const BOARD_JS: &str = include_str!("../../web/board.js");

/// The page of a document: one HTML file with everything inline.
pub(crate) fn html(document: &Document) -> String {
    let title = match (&document.pack, document.levels.first()) {
        (Some(pack), _) => pack.clone(),
        (None, Some(level)) => level.board.name.clone().unwrap_or_else(|| level.file.clone()),
        (None, None) => "modsolve".into(),
    };
    // `<` written as its JSON escape: the data cannot close its script element.
    let data = serde_json::to_string(document).expect("export documents serialise").replace('<', "\\u003c");
    TEMPLATE
        .replace("{{TITLE}}", &modsolve::report::svg::escape(&title))
        .replace("{{SCRIPT}}", &bundle())
        .replace("{{DATA}}", &data)
}

/// board.js and player.js as one module script: board.js inside a function (its `export`
/// keywords dropped) that returns what player.js imports from it, then player.js without its
/// import.
pub(crate) fn bundle() -> String {
    let import = PLAYER_JS.lines().find(|line| line.starts_with("import ")).unwrap_or("");
    let names =
        import.split_once('{').and_then(|(_, rest)| rest.split_once('}')).map_or("", |(names, _)| names);
    let names = names.split(',').map(str::trim).filter(|n| !n.is_empty()).collect::<Vec<_>>().join(", ");
    let mut out = String::with_capacity(BOARD_JS.len() + PLAYER_JS.len() + 256);
    out.push_str("// board.js, the playground's board drawing\nconst boardModule = (() => {\n");
    for line in BOARD_JS.lines() {
        out.push_str(line.strip_prefix("export ").unwrap_or(line));
        out.push('\n');
    }
    out.push_str(&format!("return {{ {names} }};\n}})();\nconst {{ {names} }} = boardModule;\n\n"));
    for line in PLAYER_JS.lines().filter(|line| !line.starts_with("import ")) {
        out.push_str(line);
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    /// The bundle is one script: no module syntax left, nothing that closes the element, and
    /// every name player.js imports returned from board.js.
    #[test]
    fn the_bundle_is_plain_script() {
        let script = super::bundle();
        assert!(!script.lines().any(|l| l.starts_with("import ") || l.starts_with("export ")));
        assert!(!script.to_ascii_lowercase().contains("</script"));
        assert!(
            script.contains(
                "return { draw, pressAt, cellPoint, buttonPoint, setPalette, cellArrays, legend };"
            ),
            "{}",
            &script[..200]
        );
    }

    #[test]
    fn titles_are_escaped() {
        assert_eq!(modsolve::report::svg::escape("a<b & \"c\""), "a&lt;b &amp; &quot;c&quot;");
    }
}
