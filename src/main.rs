//! The `modsolve` command: a thin layer over the library. It parses arguments, reads the file,
//! calls the solver, prints one report and decides the exit code in one place.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use std::time::Duration;

use clap::{Args, CommandFactory, Parser, Subcommand};
use modsolve::analysis::{Engine, Options, analyze};
use modsolve::error::InternalError;
use modsolve::solve::search::{Budget, Objective};

use modsolve::report;

const FORMAT_HELP: &str = "\
PUZZLE FILES (RON):
    Puzzle(
        name: \"Octopus\",
        graph: Path(4),                  // Path(n) Cycle(n) Cells(n) Edges(cells: n, edges: [(0, 1)])
                                         // Grid(rows: r, cols: c, wrap: true, neighborhood: King)
        modulus: [7, 8, 7, 6],           // one number for all cells, or one per cell
        press: (self: 2, neighbors: 1),  // what a press adds (default 1 and 1)
        // buttons: [[(0, 1), (1, 1)]],  // or explicit buttons: (cell, amount) lists
        start: [2, 4, 5, 3],             // a list, All(v) or Rows([\"#.#\", ...]); default all 0
        target: All(0),                  // default all 0
    )
The full reference is FORMAT.md beside the README.

EXIT CODES: 0 solved, 1 no solution (or a failed check), 2 bad input or usage,
    3 undecided (the budget ran out before the search decided whether there is a plan).";

#[derive(Parser, Debug)]
#[command(
    name = "modsolve",
    version,
    about = "Solve modular switch puzzles (Lights Out and relatives) exactly: a plan, the number of plans, quiet patterns.",
    after_help = FORMAT_HELP,
    args_conflicts_with_subcommands = true
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    solve: SolveArgs,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Solve a puzzle file (the default: `modsolve FILE` is `modsolve solve FILE`).
    Solve(SolveArgs),
    /// Check puzzle files the way a game designer needs: par, solvable starts, quiet patterns,
    /// single-cell macros, intended plan, warnings. Exit 0 all pass, 1 any fails, 2 unreadable.
    Check(CheckArgs),
    /// Make levels to a spec from a template puzzle file (its start is ignored): solvable by
    /// construction, checked by the solver, no two alike up to rotation and reflection.
    Generate(GenerateArgs),
    /// Print a commented starter puzzle file: `modsolve new grid --rows 5 --cols 5 > level.ron`.
    New(NewArgs),
}

#[derive(Args, Debug)]
struct CheckArgs {
    /// The puzzle files (checked in parallel); `-` reads standard input (once).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Refuse puzzle files larger than this: 1GiB, 500MiB, 100k (decimal), or bytes.
    #[arg(long, value_name = "SIZE", value_parser = modsolve::input::parse_size, default_value = "1GiB")]
    max_input: u64,
    /// Refuse puzzles whose estimated peak memory is above this (default: half of this
    /// machine's memory): 4GiB, 500MiB, or bytes.
    #[arg(long, value_name = "SIZE", value_parser = modsolve::input::parse_size)]
    max_memory: Option<u64>,
    /// Print JSON: one object for one file, an array for several.
    #[arg(long)]
    json: bool,
    /// `--deny warnings`: warnings fail the check too.
    #[arg(long, value_enum)]
    deny: Option<DenyArg>,
    /// Work allowed per puzzle: a time (5s, 500ms) bounds each file's whole check (with
    /// --par-histogram, the whole histogram); a node count bounds the par search (each sample).
    #[arg(long, value_parser = parse_budget, default_value = "5s")]
    budget: Budget,
    /// Treat each file as a template: sample random solvable starts and chart their par.
    #[arg(long)]
    par_histogram: bool,
    /// Starts sampled by --par-histogram (at most: --budget may stop it sooner, and says so).
    #[arg(long, default_value_t = 1000)]
    samples: usize,
    /// Seed for --par-histogram.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

#[derive(Args, Debug)]
struct GenerateArgs {
    /// The template puzzle file: graph, moduli, weights, target.
    template: PathBuf,
    /// Refuse puzzle files larger than this: 1GiB, 500MiB, 100k (decimal), or bytes.
    #[arg(long, value_name = "SIZE", value_parser = modsolve::input::parse_size, default_value = "1GiB")]
    max_input: u64,
    /// Refuse puzzles whose estimated peak memory is above this (default: half of this
    /// machine's memory): 4GiB, 500MiB, or bytes.
    #[arg(long, value_name = "SIZE", value_parser = modsolve::input::parse_size)]
    max_memory: Option<u64>,
    /// How many levels to make.
    #[arg(long, default_value_t = 10)]
    count: usize,
    /// The random seed: the same seed gives the same levels.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The directory to write level-0001.ron, … into (created if missing).
    #[arg(long)]
    out: PathBuf,
    /// Only levels with exactly one solution.
    #[arg(long)]
    unique: bool,
    /// Only levels whose proven par (fewest presses) is in A..B (inclusive), e.g. 8..12.
    #[arg(long, value_parser = parse_range)]
    par: Option<(u64, u64)>,
    /// Which simple player strategy must win (sweep, greedy, chase), or none (no strategy may).
    #[arg(long)]
    strategy: Option<String>,
    /// Candidates to try before giving up (default: 2000 per level asked for, at most 10000000).
    #[arg(long)]
    attempts: Option<usize>,
    /// Print [{"file", "par", "count", "start", "intended"}] as JSON, one level a line.
    #[arg(long)]
    json: bool,
    /// Overwrite level files already in --out (without it, a run that would is refused).
    #[arg(long)]
    force: bool,
}

/// `A..B` or `A..=B` (inclusive either way), or a single number.
fn parse_range(text: &str) -> Result<(u64, u64), String> {
    let bad = || format!("`{text}` is not a range: write A..B, e.g. 8..12");
    let (a, b) = match text.split_once("..") {
        Some((a, b)) => (a, b.trim_start_matches('=')),
        None => (text, text),
    };
    Ok((a.trim().parse().map_err(|_| bad())?, b.trim().parse().map_err(|_| bad())?))
}

#[derive(clap::ValueEnum, Clone, Copy, Debug)]
enum DenyArg {
    Warnings,
}

#[derive(Args, Debug)]
struct NewArgs {
    /// The graph form.
    #[arg(value_enum)]
    form: FormArg,
    /// Grid rows.
    #[arg(long, default_value_t = 5)]
    rows: usize,
    /// Grid columns.
    #[arg(long, default_value_t = 5)]
    cols: usize,
    /// Cells, for path, cycle, edges and cells.
    #[arg(long, default_value_t = 5)]
    cells: usize,
    /// What every cell counts modulo.
    #[arg(long, default_value_t = 2)]
    modulus: u64,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug)]
enum FormArg {
    Grid,
    Path,
    Cycle,
    Edges,
    Cells,
}

#[derive(Args, Debug)]
struct SolveArgs {
    /// The puzzle file (RON); `-` reads standard input.
    file: Option<PathBuf>,
    /// Refuse puzzle files larger than this: 1GiB, 500MiB, 100k (decimal), or bytes.
    #[arg(long, value_name = "SIZE", value_parser = modsolve::input::parse_size, default_value = "1GiB")]
    max_input: u64,
    /// Refuse puzzles whose estimated peak memory is above this (default: half of this
    /// machine's memory): 4GiB, 500MiB, or bytes.
    #[arg(long, value_name = "SIZE", value_parser = modsolve::input::parse_size)]
    max_memory: Option<u64>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// Which solver answers: the algebra, the search, or auto (algebra, searching where needed).
    #[arg(long, value_enum, default_value_t = MethodArg::Auto)]
    method: MethodArg,
    /// What the plan shown minimises: total presses, the largest press count, or distinct buttons.
    #[arg(long, value_enum, default_value_t = ObjectiveArg::Total)]
    minimize: ObjectiveArg,
    /// Work allowed: a time (10s, 500ms) bounds the whole command, elimination included; a
    /// number of nodes bounds the search and optimisation.
    #[arg(long, value_parser = parse_budget, default_value = "10s")]
    budget: Budget,
    /// List the plans (within press limits): the exact count first, then up to --limit plans.
    #[arg(long)]
    all: bool,
    /// The most plans --all lists.
    #[arg(long, default_value_t = 1000, requires = "all")]
    limit: usize,
    /// Draw the plan even for boards of more than 4096 cells.
    #[arg(long)]
    picture: bool,
    /// Say on stderr which method solved the puzzle, its symbolic seeds, and the time of each phase.
    #[arg(long, short)]
    verbose: bool,
}

/// `--verbose`: one line on stderr per phase, with its time.
struct Phases {
    enabled: bool,
    since: std::time::Instant,
}

impl Phases {
    fn new(enabled: bool) -> Self {
        Phases { enabled, since: std::time::Instant::now() }
    }

    fn done(&mut self, what: &str) {
        if self.enabled {
            eprintln!("{:>9.3} s  {what}", self.since.elapsed().as_secs_f64());
        }
        self.since = std::time::Instant::now();
    }
}

#[derive(clap::ValueEnum, Clone, Copy, Debug)]
enum MethodArg {
    Auto,
    Algebra,
    Search,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug)]
enum ObjectiveArg {
    Total,
    Max,
    Buttons,
}

/// `10s`, `500ms`, `2m` as a time (with the default node cap), a plain number as nodes.
fn parse_budget(text: &str) -> Result<Budget, String> {
    let text = text.trim();
    let number = |digits: &str| {
        digits.parse::<u64>().map_err(|_| {
            format!("`{text}` is not a budget: use e.g. 10s, 500ms, 2m or a node count like 1000000")
        })
    };
    let time = if let Some(ms) = text.strip_suffix("ms") {
        Some(Duration::from_millis(number(ms)?))
    } else if let Some(s) = text.strip_suffix('s') {
        Some(Duration::from_secs(number(s)?))
    } else if let Some(m) = text.strip_suffix('m') {
        let minutes = number(m)?;
        let seconds = minutes.checked_mul(60).ok_or_else(|| format!("`{text}` is too long a budget"))?;
        Some(Duration::from_secs(seconds))
    } else {
        None
    };
    Ok(match time {
        Some(time) => Budget { time: Some(time), ..Budget::default() },
        None => Budget { nodes: number(text)?, time: None },
    })
}

/// Past this many cells a plain grid is solved in compact form (no fewest-plan search).
const BIG_BOARD_CELLS: usize = 250_000;

/// What went wrong, decided once: the message to print and the exit code.
struct Failure {
    message: String,
    code: u8,
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => {
            // `modsolve a.ron b.ron`: clap reads the second file as a subcommand. Say what to do.
            if error.kind() == clap::error::ErrorKind::ArgumentConflict
                && let Some(file) = std::env::args().skip(1).find(|a| !a.starts_with('-'))
                && !Cli::command().get_subcommands().any(|c| c.get_name() == file)
            {
                eprintln!(
                    "error: `modsolve FILE` solves one puzzle at a time ({file} and more were given)\n\n\
                     To check several files at once: modsolve check FILE...\n\
                     To solve several: run modsolve once per file."
                );
                return ExitCode::from(2);
            }
            error.exit();
        }
    };
    let text = |result: Result<(String, u8), Failure>| result.map(|(text, code)| (Output::Text(text), code));
    let result = match cli.command {
        Some(Command::Solve(args)) => run(&args),
        Some(Command::Check(args)) if args.par_histogram => text(run_histogram(&args)),
        Some(Command::Check(args)) => text(run_check(&args)),
        Some(Command::Generate(args)) => text(run_generate(&args)),
        Some(Command::New(args)) => text(run_new(&args)),
        None => run(&cli.solve),
    };
    match result {
        Ok((output, code)) => {
            let mut stdout = std::io::BufWriter::with_capacity(1 << 20, std::io::stdout().lock());
            let written = match output {
                Output::Text(text) => stdout.write_all(text.as_bytes()),
                Output::Stream(write) => write(&mut stdout),
            };
            match written.and_then(|_| stdout.flush()) {
                Ok(()) => ExitCode::from(code),
                // A closed pipe (`modsolve big.ron --json | head`) is not an error worth reporting.
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::from(code),
                // A full disk must not pass for a complete answer.
                Err(e) => {
                    eprintln!("error: cannot write the output: {e}");
                    ExitCode::from(2)
                }
            }
        }
        Err(failure) => {
            eprint!("{}", failure.message);
            ExitCode::from(failure.code)
        }
    }
}

/// What a command hands back to print: a finished text, or a big board's verified report that is
/// written straight to standard output (millions of presses are not built as a string first).
enum Output {
    Text(String),
    Stream(Writer),
}

/// Writes a report that is already complete and verified.
type Writer = Box<dyn FnOnce(&mut dyn Write) -> std::io::Result<()> + Send>;

/// Returns the whole output and the exit code, so nothing is printed half-way.
fn run(args: &SolveArgs) -> Result<(Output, u8), Failure> {
    let Some(path) = &args.file else {
        return Err(Failure {
            message:
                "error: no puzzle file given\n\nUsage: modsolve FILE [--json]   (modsolve --help for more)\n"
                    .into(),
            code: 2,
        });
    };
    let mut phases = Phases::new(args.verbose);
    let (_, puzzle) = load(path, args.max_input).map_err(|message| Failure { message, code: 2 })?;
    phases.done(&format!(
        "read and checked the file: {} cells, {} buttons",
        puzzle.cell_count(),
        puzzle.button_count()
    ));
    let options = Options {
        engine: match args.method {
            MethodArg::Auto => Engine::Auto,
            MethodArg::Algebra => Engine::Algebra,
            MethodArg::Search => Engine::Search,
        },
        objective: match args.minimize {
            ObjectiveArg::Total => Objective::Total,
            ObjectiveArg::Max => Objective::Max,
            ObjectiveArg::Buttons => Objective::Buttons,
        },
        budget: args.budget,
        list_all: args.all,
        list_limit: args.limit,
    };
    let estimate = modsolve::memory::for_solve(&puzzle, takes_compact(&puzzle, &options));
    within_memory(estimate, args.max_memory).map_err(|message| Failure { message, code: 2 })?;
    let shown = Shown { json: args.json, picture: args.picture };
    let (heading, cells, buttons) = (report::heading(&puzzle), puzzle.cell_count(), puzzle.button_count());
    let name = puzzle.name.clone();
    match within_bound(args.budget, move || solve_loaded(puzzle, options, shown, phases)) {
        Ok(result) => result,
        Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
            let why = "the budget ran out before the elimination finished";
            let output = if args.json {
                let value = serde_json::json!({
                    "name": name, "solvable": null, "count": null, "count_exact": false,
                    "presses": null, "cells": cells, "buttons": buttons, "undecided": why,
                });
                let mut s = serde_json::to_string_pretty(&value).expect("JSON values serialise");
                s.push('\n');
                s
            } else {
                format!("{heading}\n\nUndecided: {why}; a larger --budget may solve it.\n")
            };
            Ok((Output::Text(output), 3))
        }
        Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => Err(Failure {
            message: "error: the solver stopped without an answer; this is a bug in modsolve, please report it with the puzzle file\n".into(),
            code: 1,
        }),
    }
}

/// The wall time a budget of `time` allows the whole command: 10% and 0.2 s more, less a
/// moment to print.
fn bound(time: Duration) -> Duration {
    (time.mul_f64(1.1) + Duration::from_millis(200)).saturating_sub(Duration::from_millis(30))
}

/// Runs `work` on its own thread and waits for it at most the [`bound`] of the budget's time
/// (without a time, until it is done), so that the budget bounds the whole work, elimination
/// included. `Err(Timeout)`: the work was abandoned, and ends with the process;
/// `Err(Disconnected)`: it stopped without an answer.
fn within_bound<T: Send + 'static>(
    budget: Budget,
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, std::sync::mpsc::RecvTimeoutError> {
    let (send, receive) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = send.send(work());
    });
    match budget.time {
        Some(time) => receive.recv_timeout(bound(time)),
        None => receive.recv().map_err(|_| std::sync::mpsc::RecvTimeoutError::Disconnected),
    }
}

/// Boards of millions of cells: light chasing in compact form, when nothing else is asked.
fn takes_compact(puzzle: &modsolve::Puzzle, options: &Options) -> bool {
    options.engine != Engine::Search
        && options.objective == Objective::Total
        && !options.list_all
        && puzzle.max_presses.is_none()
        && puzzle.phases.is_none()
        && puzzle.cell_count() > BIG_BOARD_CELLS
        && modsolve::solve::propagate::applies(puzzle)
}

/// Refuses work whose estimated peak memory is above the limit (`--max-memory`, by default
/// half of this machine's memory), before anything is allocated for it.
fn within_memory(estimate: modsolve::memory::Estimate, limit: Option<u64>) -> Result<(), String> {
    let limit = limit.unwrap_or_else(modsolve::memory::default_limit);
    if estimate.bytes <= limit {
        return Ok(());
    }
    Err(format!(
        "error: this puzzle needs about {} of memory ({}), more than the {} limit; raise --max-memory \
         (the default is half of this machine's memory)\n",
        modsolve::memory::show(estimate.bytes),
        estimate.largest,
        modsolve::memory::show(limit)
    ))
}

/// How the solve report is shown.
#[derive(Clone, Copy)]
struct Shown {
    json: bool,
    picture: bool,
}

/// Solves a loaded puzzle and builds its report (on the worker thread).
fn solve_loaded(
    puzzle: modsolve::Puzzle,
    options: Options,
    args: Shown,
    mut phases: Phases,
) -> Result<(Output, u8), Failure> {
    // Past a million cells the work takes seconds: a spinner on a terminal says so.
    let spinner = (puzzle.cell_count() > 1_000_000).then(|| spinner(puzzle.cell_count())).flatten();
    if takes_compact(&puzzle, &options)
        && let Some(answer) = modsolve::solve::propagate::solve_compact(&puzzle)
    {
        if let Some(bar) = &spinner {
            bar.finish_and_clear();
        }
        let answer = answer.map_err(internal)?;
        let seeds = puzzle.topology.grid_shape().map_or(0, |(r, c)| r.min(c));
        phases.done(&format!(
            "solved by propagation (light chasing) in compact form: {seeds} symbolic seeds (the shorter side), plan verified"
        ));
        let code = if answer.presses.is_some() { 0 } else { 1 };
        let output = if args.json {
            // Verified and complete: only writing is left, done as it is printed.
            Output::Stream(Box::new(move |out: &mut dyn Write| {
                report::write_compact_json(out, &puzzle, &answer)
            }))
        } else {
            Output::Text(report::compact_text(&puzzle, &answer, args.picture))
        };
        phases.done(if args.json {
            "report ready (JSON is written as it is printed)"
        } else {
            "wrote the report"
        });
        return Ok((output, code));
    }
    let analysis = analyze(&puzzle, &options);
    if let Some(bar) = &spinner {
        bar.finish_and_clear();
    }
    let analysis = analysis.map_err(internal)?;
    phases.done(&format!("solved and optimised: {}", describe_method(&analysis, &puzzle)));
    let code = match analysis.solvable {
        Some(true) => 0,
        Some(false) => 1,
        None => 3,
    };
    let output = if args.json {
        let value = report::analysis_json(&puzzle, &analysis);
        // Pretty for people; one line when millions of presses would make it megabytes of spaces.
        let mut s = if puzzle.button_count() <= report::PICTURE_CELL_LIMIT {
            serde_json::to_string_pretty(&value)
        } else {
            serde_json::to_string(&value)
        }
        .expect("JSON values serialise");
        s.push('\n');
        s
    } else {
        report::analysis_text(&puzzle, &analysis, args.picture)
    };
    phases.done("wrote the report");
    Ok((Output::Text(output), code))
}

/// The method line of `--verbose`.
fn describe_method(analysis: &modsolve::analysis::Analysis, puzzle: &modsolve::Puzzle) -> String {
    use modsolve::solve::Method;
    let seeds = analysis.seeds.unwrap_or(0);
    let method = match analysis.method {
        Some(Method::Propagation) if modsolve::solve::propagate::applies(puzzle) => {
            format!("propagation (light chasing), {seeds} symbolic seeds (the shorter side)")
        }
        Some(Method::Propagation) => {
            format!("general propagation, {seeds} symbolic seed{}", if seeds == 1 { "" } else { "s" })
        }
        Some(Method::Gf2) => "bit-packed GF(2) elimination".into(),
        Some(Method::Modular) | Some(Method::Auto) => {
            "elimination over Z/p^E for each prime p, then CRT".into()
        }
        None => "the search solver".into(),
    };
    match analysis.search_nodes {
        Some(nodes) => format!("{method}; {nodes} search or enumeration nodes"),
        None => method,
    }
}

/// Reads (bounded by `max_input` bytes; `-` is standard input) and parses one file; the error is
/// rendered for people.
fn load(path: &Path, max_input: u64) -> Result<(String, modsolve::Puzzle), String> {
    let shown = modsolve::input::source_name(path);
    let source = modsolve::input::read_source(path, max_input).map_err(|e| format!("error: {e}\n"))?;
    let puzzle =
        modsolve::parse_puzzle(&source).map_err(|e| report::render_input_error(&e, &shown, &source))?;
    Ok((shown, puzzle))
}

/// One file's check, ready to print.
enum Checked {
    Done { text: String, json: serde_json::Value, passed: bool, warnings: usize },
    Unreadable { text: String, json: serde_json::Value },
    Broken { text: String, json: serde_json::Value },
}

fn run_check(args: &CheckArgs) -> Result<(String, u8), Failure> {
    stdin_at_most_once(&args.files)?;
    let deny = args.deny.is_some();
    let results = in_parallel(&args.files, |path| match load(path, args.max_input) {
        Err(message) => Checked::Unreadable {
            json: serde_json::json!({"file": path.display().to_string(), "error": message.trim_end()}),
            text: message,
        },
        Ok((shown, puzzle)) => match within_memory(modsolve::memory::for_check(&puzzle), args.max_memory) {
            Err(message) => Checked::Unreadable {
                json: serde_json::json!({"file": shown, "error": message.trim_end()}),
                text: format!("{shown}: {message}"),
            },
            Ok(()) => match check_within(puzzle, args.budget) {
                Err(why) => Checked::Broken {
                    text: format!("FAIL {shown}: undecided: {why}; a larger --budget may finish it\n"),
                    json: serde_json::json!({"file": shown, "error": why, "undecided": true}),
                },
                Ok((puzzle, Ok(report))) => Checked::Done {
                    text: report::check::check_text(&shown, &puzzle, &report, deny),
                    json: report::check::check_json(&shown, &puzzle, &report, deny),
                    passed: report.passed(deny),
                    warnings: report.warning_count(),
                },
                Ok((_, Err(e))) => Checked::Broken {
                    text: format!("FAIL {shown}: error: {e}\n"),
                    json: serde_json::json!({"file": shown, "error": e.to_string()}),
                },
            },
        },
    });
    let (mut passed, mut failed, mut unreadable, mut warnings) = (0, 0, 0, 0);
    let mut blocks = Vec::new();
    let mut objects = Vec::new();
    for result in results {
        match result {
            Checked::Done { text, json, passed: ok, warnings: w } => {
                if ok {
                    passed += 1;
                } else {
                    failed += 1;
                }
                warnings += w;
                blocks.push(text);
                objects.push(json);
            }
            Checked::Broken { text, json } => {
                failed += 1;
                blocks.push(text);
                objects.push(json);
            }
            Checked::Unreadable { text, json } => {
                unreadable += 1;
                // On stderr too: exit 2 always says why there, whatever the report holds.
                eprint!("{text}");
                blocks.push(text);
                objects.push(json);
            }
        }
    }
    let code = if unreadable > 0 {
        2
    } else if failed > 0 {
        1
    } else {
        0
    };
    let output = if args.json {
        one_or_array(objects)
    } else {
        let mut s = blocks.join("\n");
        s.push_str(&format!(
            "\nchecked {} files: {passed} passed, {failed} failed, {unreadable} unreadable; {warnings} warnings\n",
            args.files.len()
        ));
        s
    };
    Ok((output, code))
}

/// `work` on every item, one plain thread per core, results in item order. Not rayon: these
/// threads wait on bounded checks whose kernels run on rayon's pool, which must stay free.
fn in_parallel<T: Sync, R: Send>(items: &[T], work: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let slots: Vec<std::sync::Mutex<Option<R>>> = items.iter().map(|_| std::sync::Mutex::new(None)).collect();
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get()).min(items.len());
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(item) = items.get(i) else { break };
                    let result = work(item);
                    *slots[i].lock().unwrap_or_else(|e| e.into_inner()) = Some(result);
                }
            });
        }
    });
    slots
        .into_iter()
        .map(|slot| slot.into_inner().unwrap_or_else(|e| e.into_inner()).expect("every item was worked on"))
        .collect()
}

/// One file's check on its own thread, bounded like a solve: past the budget's bound the check
/// is abandoned (its thread ends with the process) and the file is undecided.
fn check_within(
    puzzle: modsolve::Puzzle,
    budget: Budget,
) -> Result<(modsolve::Puzzle, Result<modsolve::check::CheckReport, InternalError>), &'static str> {
    within_bound(budget, move || {
        let report = modsolve::check::check(&puzzle, budget);
        (puzzle, report)
    })
    .map_err(|_| "the budget ran out before the check finished")
}

/// Standard input (`-`) can be read once: a second `-` is a usage error.
fn stdin_at_most_once(files: &[PathBuf]) -> Result<(), Failure> {
    if files.iter().filter(|path| modsolve::input::is_stdin(path)).count() > 1 {
        return Err(Failure {
            message: "error: `-` (standard input) is given more than once; it can be read only once\n".into(),
            code: 2,
        });
    }
    Ok(())
}

fn internal(e: InternalError) -> Failure {
    match e {
        InternalError::Unsupported(_) => Failure { message: format!("error: {e}\n"), code: 2 },
        InternalError::VerificationFailed(_) => Failure {
            message: format!(
                "error: {e}\nThis is a bug in modsolve; please report it with the puzzle file.\n"
            ),
            code: 1,
        },
    }
}

impl From<InternalError> for Failure {
    fn from(e: InternalError) -> Self {
        internal(e)
    }
}

/// One JSON object for one file, an array for several; pretty, with a final newline.
fn one_or_array(mut objects: Vec<serde_json::Value>) -> String {
    let value =
        if objects.len() == 1 { objects.pop().expect("one") } else { serde_json::Value::from(objects) };
    let mut s = serde_json::to_string_pretty(&value).expect("JSON values serialise");
    s.push('\n');
    s
}

/// A spinner on stderr while a big puzzle is solved, when stderr is a terminal.
fn spinner(cells: usize) -> Option<indicatif::ProgressBar> {
    use std::io::IsTerminal;
    std::io::stderr().is_terminal().then(|| {
        let bar = indicatif::ProgressBar::new_spinner();
        bar.set_message(format!("solving {cells} cells"));
        bar.enable_steady_tick(std::time::Duration::from_millis(120));
        bar
    })
}

fn progress_bar(total: u64, what: &str) -> Option<indicatif::ProgressBar> {
    use std::io::IsTerminal;
    std::io::stderr().is_terminal().then(|| {
        let bar = indicatif::ProgressBar::new(total);
        bar.set_message(what.to_string());
        bar
    })
}

fn run_generate(args: &GenerateArgs) -> Result<(String, u8), Failure> {
    use modsolve::generate::{Spec, StrategyRequirement, generate, impossible};
    let (_, template) =
        load(&args.template, args.max_input).map_err(|message| Failure { message, code: 2 })?;
    let estimate = modsolve::memory::for_candidates(&template, rayon::current_num_threads());
    within_memory(estimate, args.max_memory).map_err(|message| Failure { message, code: 2 })?;
    let strategy = match args.strategy.as_deref() {
        None => None,
        Some("none") => Some(StrategyRequirement::None),
        Some(name) if modsolve::strategy_names().contains(&name) => {
            Some(StrategyRequirement::Wins(name.into()))
        }
        Some(other) => {
            return Err(Failure {
                message: format!(
                    "error: --strategy {other} is not a strategy: use one of {}, or none\n",
                    modsolve::strategy_names().join(", ")
                ),
                code: 2,
            });
        }
    };
    let spec = Spec {
        count: args.count,
        seed: args.seed,
        unique: args.unique,
        par: args.par,
        strategy,
        // 2000 candidates a level, at most ten million by default (minutes of work).
        attempts: args.attempts.unwrap_or(args.count.saturating_mul(2000).clamp(1000, 10_000_000)),
        nodes_per_level: 2_000_000,
    };
    if let Some(reason) = impossible(&template, &spec).map_err(internal)? {
        return Err(Failure { message: format!("error: {reason}\n"), code: 2 });
    }
    if let Some(reason) = modsolve::strategy_impossible(&template, spec.strategy.as_ref()) {
        return Err(Failure { message: format!("error: {reason}\n"), code: 2 });
    }
    if !args.force {
        existing_levels(&args.out, args.count)?;
    }
    std::fs::create_dir_all(&args.out).map_err(|e| Failure {
        message: format!("error: cannot create {}: {e}\n", args.out.display()),
        code: 2,
    })?;
    let bar = progress_bar(spec.count as u64, "levels");
    // Each level is written, then its line printed, as soon as it is accepted.
    let mut lines = LevelLines::new(args.json);
    let batch = generate(
        &template,
        &spec,
        &modsolve::judge_strategy,
        &|found, _| {
            if let Some(bar) = &bar {
                bar.set_position(found as u64);
            }
        },
        |level| {
            let number = lines.written + 1;
            let path = args.out.join(level_name(number));
            let comment = format!(
                "Level {number} made by `modsolve generate` from {} (seed {}).\npar {} (proven fewest presses), solutions: {}; `intended` is a fewest-press plan.",
                args.template.display(),
                args.seed,
                level.par,
                level.count
            );
            let body = modsolve::format::to_ron(&level.puzzle, &comment);
            modsolve::generate::write_atomically(&path, body.as_bytes(), args.force).map_err(|e| {
                let hint = if e.kind() == std::io::ErrorKind::AlreadyExists {
                    "; --force overwrites it"
                } else {
                    ""
                };
                Failure { message: format!("error: cannot write {}: {e}{hint}\n", path.display()), code: 2 }
            })?;
            let mut print = || lines.print(&path, &level);
            match &bar {
                Some(bar) => bar.suspend(print),
                None => print(),
            }
        },
    );
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let batch = match batch {
        Ok(batch) => batch,
        Err(failure) => {
            // The levels printed so far stay a JSON array (each of their files is complete).
            if args.json && !lines.closed {
                let _ = std::io::stdout().lock().write_all(lines.finish().as_bytes());
            }
            return Err(failure);
        }
    };
    let mut text = lines.finish();
    let found = batch.found;
    let code = if found < args.count { 1 } else { 0 };
    if !args.json {
        if found < args.count {
            text.push_str(&format!(
                "found {found} of {} levels in {} candidates: the spec is rare for this template (raise --attempts)\n",
                args.count, batch.tried
            ));
        } else {
            text.push_str(&format!("made {found} levels from {} candidates\n", batch.tried));
        }
    }
    Ok((text, code))
}

/// `level-0001.ron`, …, `level-12345.ron`: the file of level `number` (from 1).
fn level_name(number: usize) -> String {
    format!("level-{number:04}.ron")
}

/// Refuses, before anything is generated, a run that would overwrite level files in `out`.
fn existing_levels(out: &Path, count: usize) -> Result<(), Failure> {
    let entries = match std::fs::read_dir(out) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => {
            return Err(Failure { message: format!("error: cannot read {}: {e}\n", out.display()), code: 2 });
        }
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
    Err(Failure {
        message: format!(
            "error: {} already exists{more}; nothing was generated. --force overwrites existing level files\n",
            out.join(level_name(first)).display()
        ),
        code: 2,
    })
}

/// The lines `generate` prints, one per level as it is written: text, or the elements of a JSON
/// array. A closed pipe stops the printing, not the writing of levels; any other error on
/// standard output stops the run.
struct LevelLines {
    json: bool,
    written: usize,
    closed: bool,
}

impl LevelLines {
    fn new(json: bool) -> Self {
        LevelLines { json, written: 0, closed: false }
    }

    fn print(&mut self, path: &Path, level: &modsolve::generate::Level) -> Result<(), Failure> {
        self.written += 1;
        let line = if self.json {
            let entry = serde_json::json!({
                "file": path.display().to_string(),
                "par": level.par,
                "count": level.count.to_string(),
                "start": level.puzzle.start,
                "intended": level.puzzle.intended,
            });
            let open = if self.written == 1 { "[\n" } else { ",\n" };
            format!("{open}  {entry}")
        } else {
            let plans = if level.count == 1u32.into() { "solution" } else { "solutions" };
            format!("{}  par {}  {} {plans}\n", path.display(), level.par, level.count)
        };
        if self.closed {
            return Ok(());
        }
        let mut stdout = std::io::stdout().lock();
        match stdout.write_all(line.as_bytes()).and_then(|_| stdout.flush()) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {
                self.closed = true;
                Ok(())
            }
            Err(e) => Err(Failure { message: format!("error: cannot write the output: {e}\n"), code: 2 }),
        }
    }

    /// What is left to print after the last level: the end of the JSON array.
    fn finish(&self) -> String {
        match (self.json, self.written) {
            (false, _) => String::new(),
            (true, 0) => "[]\n".into(),
            (true, _) => "\n]\n".into(),
        }
    }
}

/// The most samples a histogram takes without a time budget to end it.
const UNTIMED_SAMPLES: usize = 1_000_000;

fn run_histogram(args: &CheckArgs) -> Result<(String, u8), Failure> {
    stdin_at_most_once(&args.files)?;
    if args.budget.time.is_none() && args.samples > UNTIMED_SAMPLES {
        return Err(Failure {
            message: format!(
                "error: --samples {} with a node budget has no end in sight: give at most {UNTIMED_SAMPLES}, \
                 or a time --budget (e.g. 30s) to take as many as fit\n",
                args.samples
            ),
            code: 2,
        });
    }
    // A time bounds the whole histogram (all files); a node count bounds each sample.
    let deadline = args.budget.time.map(|time| std::time::Instant::now() + time);
    let nodes_per_sample = if args.budget.time.is_some() { 2_000_000 } else { args.budget.nodes };
    let mut text = String::new();
    let mut objects = Vec::new();
    for path in &args.files {
        let (shown, template) = load(path, args.max_input).map_err(|message| Failure { message, code: 2 })?;
        let estimate = modsolve::memory::for_candidates(&template, rayon::current_num_threads());
        within_memory(estimate, args.max_memory).map_err(|message| Failure { message, code: 2 })?;
        let histogram = modsolve::generate::par_histogram(
            &template,
            args.samples,
            args.seed,
            nodes_per_sample,
            deadline,
        )?;
        let widest = histogram.pars.values().copied().max().unwrap_or(1).max(1);
        text.push_str(&format!("{shown}: par of {} random solvable starts\n", histogram.taken));
        for (par, n) in &histogram.pars {
            let bar = "█".repeat((*n as u128 * 50).div_ceil(widest as u128) as usize);
            text.push_str(&format!("  {par:>4} | {bar} {n}\n"));
        }
        if histogram.unproven > 0 {
            text.push_str(&format!(
                "  {} samples had no proven par within {nodes_per_sample} search nodes each\n",
                histogram.unproven
            ));
        }
        if histogram.taken < args.samples {
            let time = args.budget.time.unwrap_or_default();
            text.push_str(&format!(
                "  stopped at the {time:?} budget: {} of {} samples taken (raise --budget for more)\n",
                histogram.taken, args.samples
            ));
        }
        objects.push(serde_json::json!({
            "file": shown,
            "samples": args.samples,
            "taken": histogram.taken,
            "complete": histogram.taken == args.samples,
            "par": histogram.pars.iter().map(|(p, n)| (p.to_string(), serde_json::Value::from(*n))).collect::<serde_json::Map<_, _>>(),
            "unproven": histogram.unproven,
        }));
    }
    let output = if args.json { one_or_array(objects) } else { text };
    Ok((output, 0))
}

fn run_new(args: &NewArgs) -> Result<(String, u8), Failure> {
    use modsolve::scaffold::{Form, starter};
    let form = match args.form {
        FormArg::Grid => Form::Grid { rows: args.rows, cols: args.cols },
        FormArg::Path => Form::Path(args.cells),
        FormArg::Cycle => Form::Cycle(args.cells),
        FormArg::Edges => Form::Edges(args.cells),
        FormArg::Cells => Form::Cells(args.cells),
    };
    starter(form, args.modulus)
        .map(|text| (text, 0))
        .map_err(|e| Failure { message: format!("error: {e}\n"), code: 2 })
}

#[cfg(test)]
mod tests {
    #[test]
    fn clap_definition_is_consistent() {
        use clap::CommandFactory;
        super::Cli::command().debug_assert();
    }
}
