//! The binary's side of the command line: [`args`] is what clap reads; [`parse`] turns it into
//! one [`Mode`], a request in the library's own types; each mode's module runs it through the
//! library and hands back an [`Output`] or a [`Failure`], which `main` prints once.
//!
//! Policy (which method, the compact path for big boards, budgets, memory) is the library's;
//! this side reads files, words errors with the flags that fix them, and writes.

pub(crate) mod args;
pub(crate) mod check;
pub(crate) mod export;
pub(crate) mod generate;
pub(crate) mod hint;
mod output;
#[cfg(feature = "serve")]
pub(crate) mod serve;
pub(crate) mod shard;
pub(crate) mod solve;

use std::path::{Path, PathBuf};

use clap::{CommandFactory, Parser};
use modsolve::solve::Objective;
use modsolve::{Engine, Options};

pub(crate) use output::{Failure, Kind, Output};

use args::{Cli, Command, FormArg, MethodArg, ObjectiveArg};

/// The command line's names for what the texts advise turning (the library names no flag).
pub(crate) const FLAGS: modsolve::report::Knobs =
    modsolve::report::Knobs::new("--budget", "--timeout", "--picture", "--json");

/// What one run of the command does, in the library's terms.
pub(crate) enum Mode {
    Solve(solve::Request),
    Check(check::Request),
    Histogram(check::Request),
    Distribution(check::Request),
    Generate(generate::Request),
    Hint(hint::Request),
    Export(export::Request),
    #[cfg(feature = "serve")]
    Serve(serve::Request),
    New(modsolve::scaffold::Spec),
    /// A shell completion script.
    Completions(clap_complete::Shell),
    /// A manual page: the command's, or a subcommand's.
    Man(Option<String>),
    Combine(shard::CombineRequest),
}

impl Mode {
    /// Whether the output (errors included) is JSON.
    pub(crate) fn json(&self) -> bool {
        match self {
            Mode::Solve(request) => request.json,
            Mode::Check(request) | Mode::Histogram(request) | Mode::Distribution(request) => request.json,
            Mode::Generate(request) => request.json,
            Mode::Hint(request) => request.json,
            Mode::Export(request) => request.json,
            #[cfg(feature = "serve")]
            Mode::Serve(_) => false,
            Mode::New(..) | Mode::Completions(_) | Mode::Man(_) => false,
            Mode::Combine(request) => request.json,
        }
    }
}

impl Mode {
    /// The `--timeout` of the whole command, which its printing keeps too ([`Output::print`]);
    /// `generate` keeps its own, as it writes its files.
    pub(crate) fn timeout(&self) -> Option<std::time::Duration> {
        match self {
            Mode::Solve(request) => request.options.timeout,
            Mode::Check(request) | Mode::Histogram(request) | Mode::Distribution(request) => {
                request.options.timeout
            }
            Mode::Hint(request) => request.options.analysis.timeout,
            Mode::Export(request) => request.options.analysis.timeout,
            Mode::Combine(request) => request.timeout,
            _ => None,
        }
    }
}

/// Reads the command line into a [`Mode`]; a usage error is a [`Failure`] with clap's message
/// (JSON with `--json`).
pub(crate) fn parse() -> Result<Mode, Failure> {
    let json = std::env::args().any(|a| a == "--json");
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => return Err(Failure::usage(usage_error(error), json)),
    };
    if let Some(typo) = mistyped_subcommand(&cli) {
        return Err(Failure::usage(typo, json));
    }
    Ok(match cli.command {
        Some(Command::Solve(args)) => Mode::Solve(solve_request(args)),
        None => Mode::Solve(solve_request(cli.solve)),
        Some(Command::Check(args)) if args.par_distribution => Mode::Distribution(check::Request::from(args)),
        Some(Command::Check(args)) if args.par_histogram => Mode::Histogram(check::Request::from(args)),
        Some(Command::Check(args)) => Mode::Check(check::Request::from(args)),
        Some(Command::Generate(args)) => Mode::Generate(generate::Request::from(args)),
        Some(Command::Hint(args)) => Mode::Hint(hint::Request::from(args)),
        Some(Command::Export(args)) => Mode::Export(export::Request::from(args)),
        #[cfg(feature = "serve")]
        Some(Command::Serve(args)) => Mode::Serve(serve::Request::from(args)),
        Some(Command::New(args)) => {
            use modsolve::scaffold::{Form, Spec};
            let form = match args.form {
                FormArg::Grid => Form::grid(args.rows, args.cols),
                FormArg::Hex => Form::Hex { rows: args.rows, cols: args.cols, mask: None },
                FormArg::Cube => Form::Cube(args.size),
                FormArg::Path => Form::Path(args.cells),
                FormArg::Cycle => Form::Cycle(args.cells),
                FormArg::Edges => Form::Edges(args.cells),
                FormArg::Cells => Form::Cells(args.cells, None),
            };
            Mode::New(Spec { moduli: args.modulus, ..Spec::new(form, 2) })
        }
        Some(Command::Completions { shell }) => Mode::Completions(shell),
        Some(Command::Man { subcommand }) => Mode::Man(subcommand),
        Some(Command::Combine(args)) => Mode::Combine(shard::CombineRequest::from(args)),
    })
}

/// Clap's error, rendered; `modsolve a.ron b.ron` (clap reads the second file as a subcommand)
/// says what to do instead, and `modsolve chek a.ron` suggests the subcommand.
fn usage_error(error: clap::Error) -> clap::Error {
    if error.kind() == clap::error::ErrorKind::ArgumentConflict
        && let Some(file) = std::env::args().skip(1).find(|a| !a.starts_with('-'))
        && !Cli::command().get_subcommands().any(|c| c.get_name() == file)
    {
        if let Some(typo) = subcommand_typo(&file) {
            return typo;
        }
        return Cli::command().error(
            clap::error::ErrorKind::ArgumentConflict,
            format!(
                "`modsolve FILE` solves one puzzle at a time ({file} and more were given)\n\n\
                 To check several files at once: modsolve check FILE...\n\
                 To solve several: run modsolve once per file."
            ),
        );
    }
    error
}

/// `modsolve chek x.ron`: the first word is read as a puzzle file.
fn mistyped_subcommand(cli: &Cli) -> Option<clap::Error> {
    if cli.command.is_some() {
        return None;
    }
    subcommand_typo(cli.solve.file.as_ref()?.to_str()?)
}

/// When `word` names no file and is close to a subcommand's name: clap's "unrecognized
/// subcommand" error with its tip.
fn subcommand_typo(word: &str) -> Option<clap::Error> {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if word.contains(['.', '/', '\\']) || word == "-" || Path::new(word).exists() {
        return None;
    }
    let command = Cli::command();
    let suggestion = command
        .get_subcommands()
        .map(|c| c.get_name())
        .filter(|name| strsim::jaro(word, name) > 0.8 || strsim::levenshtein(word, name) <= 2)
        .max_by(|a, b| strsim::jaro(word, a).total_cmp(&strsim::jaro(word, b)))?;
    let mut error = clap::Error::new(ErrorKind::InvalidSubcommand).with_cmd(&command);
    error.insert(ContextKind::InvalidSubcommand, ContextValue::String(word.into()));
    error.insert(ContextKind::SuggestedSubcommand, ContextValue::Strings(vec![suggestion.into()]));
    error.insert(ContextKind::Usage, ContextValue::StyledStr(command.clone().render_usage()));
    Some(error)
}

fn solve_request(args: args::SolveArgs) -> solve::Request {
    let options = Options::default()
        .engine(match args.method {
            MethodArg::Auto => Engine::Auto,
            MethodArg::Algebra => Engine::Algebra,
            MethodArg::Search => Engine::Search,
        })
        .objective(match args.minimize {
            ObjectiveArg::Total => Objective::Total,
            ObjectiveArg::Max => Objective::Max,
            ObjectiveArg::Buttons => Objective::Buttons,
        })
        .budget(args.budget)
        .timeout(args.timeout)
        .list_all(args.all)
        .list_limit(args.limit)
        .max_memory(args.limits.max_memory);
    solve::Request {
        file: args.file,
        max_input: args.limits.max_input,
        options,
        json: args.json,
        picture: args.picture,
        svg: args.svg,
        verbose: args.verbose,
        shard: args.shard,
    }
}

/// A puzzle read and parsed: the name to show for its file, and the puzzle.
pub(crate) struct Loaded {
    pub(crate) shown: String,
    pub(crate) puzzle: modsolve::Puzzle,
}

/// Reads (bounded by `max_input` bytes; `-` is standard input) and parses one file.
pub(crate) fn load(path: &Path, max_input: u64) -> Result<Loaded, Failure> {
    load_with_source(path, max_input).map(|(loaded, _)| loaded)
}

/// The puzzle file read and parsed within the timeout when there is one (a large file takes a
/// while: 6 MB, a 1000×1000 grid, about 0.1 s), and the timeout left for the work on it
/// ([`left_after`]).
pub(crate) fn load_within(
    path: &Path,
    max_input: u64,
    timeout: Option<std::time::Duration>,
) -> Result<(Loaded, Left), Failure> {
    let owned = path.to_path_buf();
    read_within(timeout, move || load(&owned, max_input))
}

/// [`load_with_source`] within the timeout, as [`load_within`].
pub(crate) fn load_with_source_within(
    path: &Path,
    max_input: u64,
    timeout: Option<std::time::Duration>,
) -> Result<((Loaded, String), Left), Failure> {
    let owned = path.to_path_buf();
    read_within(timeout, move || load_with_source(&owned, max_input))
}

/// `read` run within the timeout when there is one, and the timeout left after it.
fn read_within<T: Send + 'static>(
    timeout: Option<std::time::Duration>,
    read: impl FnOnce() -> Result<T, Failure> + Send + 'static,
) -> Result<(T, Left), Failure> {
    let Some(t) = timeout else { return read().map(|read| (read, Ok(None))) };
    let started = std::time::Instant::now();
    let read = modsolve::bounded::within_timeout(Some(t), read).unwrap_or_else(|e| Err(Failure::from(e)))?;
    Ok((read, left_after(timeout, started.elapsed())))
}

/// The timeout left after reading a file: `Err` when it has come.
pub(crate) type Left = Result<Option<std::time::Duration>, modsolve::Error>;

/// The timeout left for the analysis after `spent` of it went on reading the file: the one
/// whose bound (1.1 × it + 0.09 s, [`modsolve::bounded::bound`]) ends where the whole
/// timeout's does, so that reading and analysing together keep the promise of `--timeout`.
/// When reading took so long that not even the least bound (0.09 s) is left, the timeout has
/// come (`Err`).
fn left_after(timeout: Option<std::time::Duration>, spent: std::time::Duration) -> Left {
    use modsolve::bounded::bound;
    match timeout {
        None => Ok(None),
        Some(t) if bound(t).saturating_sub(spent) < bound(std::time::Duration::ZERO) => {
            Err(modsolve::Error::TimedOut)
        }
        Some(t) => Ok(Some(t.saturating_sub(spent.div_f64(1.1)))),
    }
}

/// [`load`], keeping the source text too (to point at a field's line).
pub(crate) fn load_with_source(path: &Path, max_input: u64) -> Result<(Loaded, String), Failure> {
    let shown = modsolve::input::source_name(path);
    let source = modsolve::input::read_source(path, max_input).map_err(|e| {
        let hint = match e {
            modsolve::input::ReadError::TooLarge { .. } => "; raise --max-input",
            _ => "",
        };
        Failure::unreadable(&shown, format!("error: {e}{hint}\n"), None)
    })?;
    let puzzle = modsolve::parse_puzzle(&source).map_err(|e| {
        Failure::unreadable(&shown, modsolve::report::render_input_error(&e, &shown, &source), Some(&e))
    })?;
    Ok((Loaded { shown, puzzle }, source))
}

/// Refuses work over the memory limit, worded with the flag that raises it.
pub(crate) fn memory_failure(e: modsolve::error::OverMemory) -> String {
    format!("error: {e}; raise --max-memory (the default is half of this machine's memory)\n")
}

/// The puzzle files named on the command line, each folder replaced by the `.ron` files directly
/// inside it (sorted by name; hidden files left out). A folder without one stays as it is (the
/// batch reports it as unreadable, as it does any path that is not a puzzle file); one that
/// cannot be listed is an I/O error.
pub(crate) fn puzzle_files(paths: &[PathBuf], json: bool) -> Result<Vec<PathBuf>, Failure> {
    let mut files = Vec::new();
    for path in paths {
        if modsolve::input::is_stdin(path) || !path.is_dir() {
            files.push(path.clone());
            continue;
        }
        let shown = path.display();
        let listing = std::fs::read_dir(path).map_err(|e| {
            Failure::plain(Kind::Io, format!("error: cannot list the folder {shown}: {e}\n"), json)
        })?;
        let mut inside: Vec<PathBuf> = listing
            .filter_map(Result::ok)
            .map(|entry| entry.path())
            .filter(|file| {
                let name = file.file_name().and_then(|n| n.to_str()).unwrap_or("");
                name.ends_with(".ron") && !name.starts_with('.') && file.is_file()
            })
            .collect();
        if inside.is_empty() {
            // Reported in the batch like any other path that is not a puzzle file.
            files.push(path.clone());
            continue;
        }
        inside.sort();
        files.extend(inside);
    }
    Ok(files)
}

/// Standard input (`-`) can be read once: a second `-` is a usage error.
pub(crate) fn stdin_at_most_once(files: &[PathBuf], json: bool) -> Result<(), Failure> {
    if files.iter().filter(|path| modsolve::input::is_stdin(path)).count() > 1 {
        return Err(Failure::plain(
            Kind::Usage,
            "error: `-` (standard input) is given more than once; it can be read only once\n",
            json,
        ));
    }
    Ok(())
}

/// `modsolve completions SHELL`: the completion script clap_complete writes for the command.
pub(crate) fn completions(shell: clap_complete::Shell) -> Output {
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "modsolve", &mut script);
    Output { body: output::Body::Text(String::from_utf8_lossy(&script).into_owned()), code: 0 }
}

/// `modsolve man [SUBCOMMAND]`: the manual page of the command (modsolve.1, whose SUBCOMMANDS
/// section lists the others) or of one subcommand (modsolve-check.1, …), in roff.
pub(crate) fn man(subcommand: Option<&str>) -> Result<Output, Failure> {
    let mut command = Cli::command();
    if let Some(name) = subcommand {
        let Some(sub) = command.find_subcommand(name).cloned() else {
            let names: Vec<&str> = command.get_subcommands().map(|c| c.get_name()).collect();
            let message =
                format!("error: `{name}` is not a subcommand of modsolve (they are: {})\n", names.join(", "));
            return Err(Failure::plain(Kind::Usage, message, false));
        };
        let page_name = format!("modsolve-{name}");
        command = sub.name(page_name).bin_name(format!("modsolve {name}")).version(env!("CARGO_PKG_VERSION"));
    }
    let mut page = Vec::new();
    clap_mangen::Man::new(command).render(&mut page).map_err(|e| {
        Failure::plain(Kind::Internal, format!("error: cannot render the manual: {e}\n"), false)
    })?;
    Ok(Output { body: output::Body::Text(String::from_utf8_lossy(&page).into_owned()), code: 0 })
}

/// `modsolve new FORM`: a commented starter puzzle file.
pub(crate) fn new(spec: &modsolve::scaffold::Spec) -> Result<Output, Failure> {
    modsolve::scaffold::new_puzzle(spec)
        .map(|(_, text)| Output { body: output::Body::Text(text), code: 0 })
        .map_err(|e| {
            use modsolve::scaffold::StarterError;
            let message = match e {
                StarterError::Modulus(m) => format!("--modulus is {m}; a cell must count modulo at least 2"),
                StarterError::ModuliLength { given, cells } => format!(
                    "--modulus lists {given} moduli, but the puzzle has {cells} cells (give one number, or one per cell)"
                ),
                StarterError::NoCells => "the puzzle needs at least one cell (--rows, --cols, --size and --cells must be at least 1)".into(),
                StarterError::TooLarge(_) | StarterError::Invalid(_) => e.to_string(),
            };
            Failure::plain(Kind::Usage, format!("error: {message}\n"), false)
        })
}

#[cfg(test)]
mod load_tests {
    use super::left_after;
    use modsolve::bounded::bound;
    use std::time::Duration;

    /// What reading the file took comes off the analysis's timeout so that both together end at
    /// the whole timeout's bound; with less than the least bound left the timeout has come; no
    /// timeout stays none.
    #[test]
    fn reading_the_file_comes_off_the_timeout() {
        let ms = Duration::from_millis;
        assert_eq!(left_after(None, ms(5000)).ok(), Some(None));
        assert_eq!(left_after(Some(ms(3000)), ms(0)).ok(), Some(Some(ms(3000))));
        for (t, spent) in [(3000, 110), (300, 80), (300, 330), (1000, 999)] {
            let left = left_after(Some(ms(t)), ms(spent)).expect("time left").expect("a timeout");
            let end = ms(spent) + bound(left);
            let whole = bound(ms(t));
            assert!(
                end <= whole && whole - end < ms(1),
                "{t} ms after {spent} ms: {end:?} against {whole:?}"
            );
        }
        assert!(left_after(Some(ms(1)), ms(80)).is_err());
        assert!(left_after(Some(ms(300)), ms(420)).is_err());
    }
}
