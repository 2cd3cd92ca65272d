//! The command line as clap reads it: the subcommands, their flags and their help. This is the
//! low-level half of the binary's arguments; [`super::Mode`] turns them into library requests.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueHint};
use modsolve::solve::Budget;

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

BUDGET AND TIMEOUT:
    --budget bounds only the best-effort work: the search for a better plan than the one the
    algebra gives, check's play-throughs and samples. It never makes an exact answer (solvable,
    the count, a plan) undecided. The default is a fixed amount of work (200000000 nodes, about
    10 s here), so the result is the same on every machine; give a time (--budget 30s) or a node
    count (--budget 5000000 or 5000000nodes); a time-bounded result depends on the machine.
    A budget is the whole command's: its searches share it (with --minimize, a quarter of the
    default goes to the fewest presses and the rest to the objective asked), and the samples
    of --par-histogram and --par-distribution and the candidates of generate count against it
    in all.
    --timeout bounds the whole command, printing included (default: none): at its end the answer
    is undecided, exit 3, and the work is stopped (a long answer still being printed stops there,
    incomplete, and standard error says so).

EXIT CODES: 0 solved (or all checks passed), 1 no solution (or a failed check, or an internal
    error: a bug, said on standard error), 2 bad input, usage or over the memory limit,
    3 undecided (--timeout came before modsolve could tell whether there is a plan).";

#[derive(Parser, Debug)]
#[command(
    name = "modsolve",
    version,
    about = "Solve modular switch puzzles (Lights Out and relatives) exactly: a plan, the number of plans, quiet patterns.",
    after_help = FORMAT_HELP,
    args_conflicts_with_subcommands = true
)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Option<Command>,
    #[command(flatten)]
    pub(crate) solve: SolveArgs,
}

#[derive(Subcommand, Debug)]
pub(crate) enum Command {
    /// Solve a puzzle file (the default: `modsolve FILE` is `modsolve solve FILE`).
    Solve(SolveArgs),
    /// Check puzzle files the way a game designer needs: par, solvable starts, quiet patterns,
    /// single-cell macros, intended plan, warnings. Exit 0 all pass, 1 any fails, 2 unreadable.
    Check(CheckArgs),
    /// Hint for players: the next press of a fewest plan from the start, from a board given by
    /// its cell values (--state), or from the board after the presses already made (--pressed);
    /// --steps lists the whole plan in order with the
    /// board after each press. Exit 0 hint given (or already solved), 1 not solvable from
    /// there, 2 bad input, 3 undecided.
    Hint(HintArgs),
    /// A level (FILE) or a level pack (every .ron file of DIR, easiest first) as one
    /// self-contained HTML page that plays offline in any browser, with undo, reset, hints and
    /// the par: `modsolve export level.ron --html > level.html`. Exit 0 written, 2 a file that
    /// does not read or a level no plan solves (a pack leaves those out with a warning), 3
    /// undecided.
    Export(ExportArgs),
    /// The playground: a local web page to draw, solve, play and generate puzzles, on the level
    /// files of DIR (read and saved there only). Prints its URL on the first line.
    #[cfg(feature = "serve")]
    Serve(ServeArgs),
    /// Make levels to a spec from a template puzzle file (its start is ignored): solvable by
    /// construction, checked by the solver, no two alike up to rotation and reflection.
    Generate(GenerateArgs),
    /// Print a commented starter puzzle file: `modsolve new grid --rows 5 --cols 5 > level.ron`.
    New(NewArgs),
    /// Print a shell completion script: `modsolve completions bash > /etc/bash_completion.d/modsolve`
    /// (zsh: into a directory on $fpath as `_modsolve`; fish: ~/.config/fish/completions/modsolve.fish).
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print a manual page (roff): `modsolve man > modsolve.1; man ./modsolve.1`; `modsolve man
    /// check` is the page of `modsolve check` (modsolve-check.1).
    Man {
        /// The subcommand whose page to print (default: the page of modsolve itself).
        subcommand: Option<String>,
    },
    /// Combine the reports of `modsolve FILE --shard K/N --json` into the proven fewest plan:
    /// checks that they are parts of FILE's puzzle for one objective and one N, none twice,
    /// and simulates every plan. Exit 0 proven, 3 parts missing or unfinished (the best so far,
    /// not proven, and which parts to run), 2 foreign, overlapping or broken parts.
    Combine(CombineArgs),
}

#[derive(Args, Debug)]
pub(crate) struct CombineArgs {
    /// The puzzle file (RON) the parts were walked from.
    #[arg(value_hint = ValueHint::FilePath)]
    pub(crate) file: PathBuf,
    /// The part reports: files of one JSON document or of JSON lines each; `-` reads JSON
    /// lines from standard input.
    #[arg(required = true, value_hint = ValueHint::FilePath)]
    pub(crate) parts: Vec<PathBuf>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub(crate) json: bool,
    #[command(flatten)]
    pub(crate) limits: Limits,
    /// Walk K of the finished parts again, chosen at random, and refuse the parts (exit 2,
    /// naming the part) when one does not agree with its report. Checks the one thing no
    /// other check sees: that a finished part was walked to its end by an honest worker.
    #[arg(long, value_name = "K", default_value_t = 0)]
    pub(crate) audit: u64,
    /// The seed of the audit's choice of parts (default: a random one, printed).
    #[arg(long, requires = "audit")]
    pub(crate) seed: Option<u64>,
    /// The wall time the whole command may take, audit included, e.g. 10s; past it the answer
    /// is undecided (exit 3). Default: none.
    #[arg(long, value_parser = parse_timeout)]
    pub(crate) timeout: Option<std::time::Duration>,
}

#[derive(Args, Debug)]
pub(crate) struct CheckArgs {
    /// The puzzle files, or folders of them (each of their `.ron` files, by name), checked in
    /// parallel; `-` reads standard input (once).
    #[arg(required = true, value_hint = ValueHint::AnyPath)]
    pub(crate) files: Vec<PathBuf>,
    #[command(flatten)]
    pub(crate) limits: Limits,
    /// Print JSON: one object for one file; for several, {"version", "files", "summary"}.
    /// The same as --format json.
    #[arg(long)]
    pub(crate) json: bool,
    /// How to print the findings: text for people, json, or github (GitHub Actions annotations,
    /// `::error file=…,line=…::…`, so a level repository's CI marks the line at fault).
    #[arg(long, value_enum, conflicts_with = "json")]
    pub(crate) format: Option<CheckFormat>,
    /// `--deny warnings`: warnings fail the check too.
    #[arg(long, value_enum)]
    pub(crate) deny: Option<DenyArg>,
    /// One line a file: PASS or FAIL, the par and the findings counted (then the summary).
    #[arg(long, conflicts_with_all = ["json", "format", "verbose", "par_histogram", "par_distribution"])]
    pub(crate) brief: bool,
    /// Also print a basis of each puzzle's quiet patterns (JSON always has it).
    #[arg(long, short)]
    pub(crate) verbose: bool,
    /// Best-effort work per puzzle: the par search, macros, play-throughs and samples (a node
    /// count bounds each par search; a time, e.g. 5s, bounds them all together, with
    /// --par-histogram or --par-distribution the sampling of every file). Default: 200000000
    /// nodes, the same result on every machine. Never makes a check undecided.
    #[arg(long, value_parser = parse_budget, default_value = "default")]
    pub(crate) budget: Budget,
    /// The wall time each file's whole check may take (with --par-histogram or
    /// --par-distribution, each file's whole run), e.g. 30s; past it the file is undecided.
    /// Default: none.
    #[arg(long, value_parser = parse_timeout)]
    pub(crate) timeout: Option<std::time::Duration>,
    /// Treat each file as a template: sample random solvable starts and chart their par.
    #[arg(long)]
    pub(crate) par_histogram: bool,
    /// Treat each file as a template: the exact number of solvable starts at each par and the
    /// largest par (God's number), by breadth-first search when there are at most --exact-limit
    /// solvable starts; beyond, sampled (--samples) with a confidence interval for each share.
    #[arg(long, conflicts_with = "par_histogram")]
    pub(crate) par_distribution: bool,
    /// --par-distribution: count exactly up to this many solvable starts, sample beyond.
    #[arg(long, default_value_t = modsolve::difficulty::DEFAULT_EXACT_LIMIT, requires = "par_distribution")]
    pub(crate) exact_limit: u64,
    /// --par-distribution: the confidence of the sampled shares' intervals (Wilson), in (0, 1).
    #[arg(
        long,
        default_value_t = modsolve::difficulty::DEFAULT_CONFIDENCE,
        value_parser = parse_confidence,
        requires = "par_distribution"
    )]
    pub(crate) confidence: f64,
    /// Starts sampled by --par-histogram (at most: --budget may stop it sooner, and says so).
    #[arg(long, default_value_t = modsolve::difficulty::DEFAULT_SAMPLES)]
    pub(crate) samples: usize,
    /// Seed for --par-histogram.
    #[arg(long, default_value_t = 1)]
    pub(crate) seed: u64,
}

#[derive(Args, Debug)]
pub(crate) struct HintArgs {
    /// The puzzle file (RON); `-` reads standard input.
    #[arg(value_hint = ValueHint::FilePath)]
    pub(crate) file: PathBuf,
    #[command(flatten)]
    pub(crate) limits: Limits,
    /// The presses already made, in order, by button number from 0 or by label: `3,7,7` or
    /// `"tentacle 1,tentacle 3"`. They are replayed under the puzzle's rule before hinting.
    #[arg(long, value_name = "BUTTONS", allow_hyphen_values = true)]
    pub(crate) pressed: Option<String>,
    /// The board the player has reached, as cell values in cell order (one per cell, each
    /// below its cell's modulus): `1,0,1,…`. The hint is from that board (with --pressed, from
    /// the presses made after it).
    #[arg(long, value_name = "VALUES", allow_hyphen_values = true)]
    pub(crate) state: Option<String>,
    /// List the whole fewest plan in order, with the board after each press (for staged
    /// presses the press cut short by the win comes last).
    #[arg(long)]
    pub(crate) steps: bool,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub(crate) json: bool,
    /// Best-effort work: the search for the fewest plan (a node count, or a time like 10s).
    /// Default: 200000000 nodes. Never makes the hint undecided.
    #[arg(long, value_parser = parse_budget, default_value = "default")]
    pub(crate) budget: Budget,
    /// The wall time the whole command may take, e.g. 10s; past it the answer is undecided
    /// (exit 3). Default: none.
    #[arg(long, value_parser = parse_timeout)]
    pub(crate) timeout: Option<std::time::Duration>,
}

#[derive(Args, Debug)]
#[command(group(clap::ArgGroup::new("format").required(true).args(["html", "json"])))]
pub(crate) struct ExportArgs {
    /// The level file (RON; `-` reads standard input), or a directory: every `.ron` file in it
    /// becomes a level of one pack.
    #[arg(value_hint = ValueHint::AnyPath)]
    pub(crate) path: PathBuf,
    #[command(flatten)]
    pub(crate) limits: Limits,
    /// Write the playable page: the board, the par, a fewest plan and the quiet patterns
    /// embedded, the player inlined (no network, no server).
    #[arg(long)]
    pub(crate) html: bool,
    /// Print the embedded document as JSON instead (what the page plays).
    #[arg(long)]
    pub(crate) json: bool,
    /// Write to FILE (all or nothing, replacing it) instead of standard output.
    #[arg(long, short, value_name = "FILE", value_hint = ValueHint::FilePath)]
    pub(crate) output: Option<PathBuf>,
    /// Best-effort work: the search for the fewest plan, per level (a node count, or a time
    /// like 10s). Default: 200000000 nodes. A par it cannot prove is shown as not proven.
    #[arg(long, value_parser = parse_budget, default_value = "default")]
    pub(crate) budget: Budget,
    /// The wall time each level's analysis may take, e.g. 10s; past it the export stops
    /// (exit 3). Default: none.
    #[arg(long, value_parser = parse_timeout)]
    pub(crate) timeout: Option<std::time::Duration>,
}

#[cfg(feature = "serve")]
#[derive(Args, Debug)]
pub(crate) struct ServeArgs {
    /// The directory of level files to list, open and save into.
    #[arg(default_value = ".", value_hint = ValueHint::DirPath)]
    pub(crate) dir: PathBuf,
    /// The port to listen on; 0 picks a free one.
    #[arg(long, default_value_t = 8117)]
    pub(crate) port: u16,
    /// The address to listen on. Anything but loopback lets other machines read and write DIR.
    #[arg(long, default_value = "127.0.0.1")]
    pub(crate) host: std::net::IpAddr,
    /// The time each solve, check or hint may take (generation: four times this).
    #[arg(long, value_parser = parse_duration, default_value = "5s")]
    pub(crate) budget: std::time::Duration,
    /// Answer every request within this, its wait for a free job included (503 when no job
    /// came free in time).
    #[arg(long, value_parser = parse_duration, default_value = "10s")]
    pub(crate) timeout: std::time::Duration,
    /// How many jobs (solves, checks, hints, generations) run at once [default: two a core].
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..))]
    pub(crate) jobs: Option<u16>,
    /// How many requests may wait for a job; one more is answered 503 (with Retry-After) at once.
    #[arg(long, default_value_t = 32)]
    pub(crate) max_queue: usize,
    /// Refuse request bodies larger than this: 16MiB, 500k (decimal), or bytes.
    #[arg(long, value_name = "SIZE", value_parser = modsolve::input::parse_size, default_value = "16MiB")]
    pub(crate) max_body: u64,
    /// The memory all running jobs share (the sum of their estimated peaks stays under it):
    /// 4GiB, 500MiB, or bytes [default: a quarter of this machine's memory].
    #[arg(long, value_name = "SIZE", value_parser = modsolve::input::parse_size)]
    pub(crate) max_memory: Option<u64>,
    /// Open the API without the random token of the start-up URL. Requests must still name
    /// this server in `Host` and come from its own page (`Origin`).
    #[arg(long)]
    pub(crate) no_token: bool,
    /// Also accept requests whose `Host` is NAME (IP addresses and localhost always are), e.g.
    /// the machine's name when serving with --host 0.0.0.0. Repeat for several names.
    #[arg(long, value_name = "NAME")]
    pub(crate) allow_host: Vec<String>,
}

/// A time in humantime's forms (`5s`, `1.5s`, `250ms`).
#[cfg(feature = "serve")]
pub(crate) fn parse_duration(text: &str) -> Result<std::time::Duration, String> {
    humantime::parse_duration(text.trim())
        .map_err(|e| format!("`{text}` is not a time ({e}): give one like 5s or 250ms"))
}

#[derive(Args, Debug)]
pub(crate) struct GenerateArgs {
    /// The template puzzle file: graph, moduli, weights, target; `-` reads standard input.
    #[arg(value_hint = ValueHint::FilePath)]
    pub(crate) template: PathBuf,
    #[command(flatten)]
    pub(crate) limits: Limits,
    /// How many levels to make.
    #[arg(long, default_value_t = 10)]
    pub(crate) count: usize,
    /// The random seed: the same seed gives the same levels.
    #[arg(long, default_value_t = 1)]
    pub(crate) seed: u64,
    /// The directory to write level-0001.ron, … into (created if missing).
    #[arg(long, value_hint = ValueHint::DirPath)]
    pub(crate) out: PathBuf,
    /// Only levels with exactly one solution.
    #[arg(long)]
    pub(crate) unique: bool,
    /// Only levels whose proven par (fewest presses) is in A..B (inclusive), e.g. 8..12.
    #[arg(long, value_parser = parse_range)]
    pub(crate) par: Option<(u64, u64)>,
    /// Which simple player strategy must win (sweep, greedy, chase), or none (no strategy may).
    #[arg(long)]
    pub(crate) strategy: Option<String>,
    /// Make each start from K random presses (no press undoing another), so its par is at most K
    /// and --par works on large boards; without it a start is a uniformly random solvable one.
    #[arg(long, value_name = "K")]
    pub(crate) scramble: Option<u64>,
    /// Keep only levels that pass `modsolve check --deny warnings` (a simple strategy wins,
    /// the par is proven, …).
    #[arg(long)]
    pub(crate) deny_warnings: bool,
    /// Candidates to try before giving up (default: 2000 per level asked for, at most 10000000).
    #[arg(long)]
    pub(crate) attempts: Option<usize>,
    /// Print {"version", "levels": [{"file", "par", "count", "start", "intended"}, …], "found",
    /// "tried"} as JSON, a level a line as each is written (with --scramble, each level's
    /// "scramble" too: the presses it was made with).
    #[arg(long)]
    pub(crate) json: bool,
    /// Overwrite level files already in --out (without it, a run that would is refused).
    #[arg(long)]
    pub(crate) force: bool,
    /// The wall time the whole run may take, e.g. 30s: past it the run stops (exit 3), the
    /// levels written so far complete. Default: none (--attempts bounds the run).
    #[arg(long, value_parser = parse_timeout)]
    pub(crate) timeout: Option<std::time::Duration>,
}

/// A confidence level strictly between 0 and 1.
pub(crate) fn parse_confidence(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(c) if c > 0.0 && c < 1.0 => Ok(c),
        _ => Err(format!("`{text}` is not a confidence level: give a number between 0 and 1, e.g. 0.95")),
    }
}

/// `A..B` or `A..=B` (inclusive either way), or a single number.
pub(crate) fn parse_range(text: &str) -> Result<(u64, u64), String> {
    let bad = || format!("`{text}` is not a range: write A..B, e.g. 8..12");
    let (a, b) = match text.split_once("..") {
        Some((a, b)) => (a, b.trim_start_matches('=')),
        None => (text, text),
    };
    Ok((a.trim().parse().map_err(|_| bad())?, b.trim().parse().map_err(|_| bad())?))
}

/// `check --format`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum CheckFormat {
    Text,
    Json,
    Github,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub(crate) enum DenyArg {
    Warnings,
}

#[derive(Args, Debug)]
pub(crate) struct NewArgs {
    /// The graph form.
    #[arg(value_enum)]
    pub(crate) form: FormArg,
    /// Rows, for grid and hex.
    #[arg(long, default_value_t = 5)]
    pub(crate) rows: usize,
    /// Columns, for grid and hex.
    #[arg(long, default_value_t = 5)]
    pub(crate) cols: usize,
    /// The side of a face, for cube (6·N² cells).
    #[arg(long, value_name = "N", default_value_t = 3)]
    pub(crate) size: usize,
    /// Cells, for path, cycle, edges and cells.
    #[arg(long, default_value_t = 5)]
    pub(crate) cells: usize,
    /// What every cell counts modulo: one number, or a comma-separated list with one per cell
    /// (`--modulus 7,8,7,6`).
    #[arg(long, value_name = "M[,M...]", value_parser = parse_moduli, default_value = "2")]
    pub(crate) modulus: modsolve::scaffold::Moduli,
}

/// `--modulus`: `7` or `7,8,7,6` ([`modsolve::scaffold::Moduli`]'s reading).
fn parse_moduli(text: &str) -> Result<modsolve::scaffold::Moduli, String> {
    text.parse()
}

#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub(crate) enum FormArg {
    Grid,
    Hex,
    Cube,
    Path,
    Cycle,
    #[value(alias = "graph")]
    Edges,
    #[value(alias = "buttons")]
    Cells,
}

#[derive(Args, Debug)]
pub(crate) struct SolveArgs {
    /// The puzzle file (RON); `-` reads standard input.
    #[arg(value_hint = ValueHint::FilePath)]
    pub(crate) file: Option<PathBuf>,
    #[command(flatten)]
    pub(crate) limits: Limits,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub(crate) json: bool,
    /// Which solver answers: the algebra, the search, or auto (algebra, searching where needed).
    #[arg(long, value_enum, default_value_t = MethodArg::Auto)]
    pub(crate) method: MethodArg,
    /// What the plan shown minimises: total presses, the largest press count, or distinct buttons.
    #[arg(long, value_enum, default_value_t = ObjectiveArg::Total)]
    pub(crate) minimize: ObjectiveArg,
    /// Best-effort work: the search for a better plan, the search solver and --all's walk. A
    /// node count (5000000 or 5000000nodes) gives the same result on every machine; a time
    /// (10s, 1.5s, 250ms) bounds them together and the result depends on the machine. Default:
    /// 200000000 nodes (about 10 s here). Never makes the algebra's answer undecided.
    #[arg(long, value_parser = parse_budget, default_value = "default")]
    pub(crate) budget: Budget,
    /// The wall time the whole command may take, elimination and printing included (10s, 1.5s,
    /// 250ms); past it the answer is undecided (exit 3) and the work is stopped. Default: none.
    #[arg(long, value_parser = parse_timeout)]
    pub(crate) timeout: Option<std::time::Duration>,
    /// List the plans (within press limits): the exact count first, then up to --limit plans.
    #[arg(long)]
    pub(crate) all: bool,
    /// The most plans --all lists.
    #[arg(long, default_value_t = 1000, requires = "all")]
    pub(crate) limit: usize,
    /// Draw the plan even for boards of more than 4096 cells.
    #[arg(long)]
    pub(crate) picture: bool,
    /// Also write the board with its fewest plan as an SVG picture to this file (the
    /// playground's look).
    #[arg(long, value_name = "FILE", value_hint = ValueHint::FilePath)]
    pub(crate) svg: Option<PathBuf>,
    /// Say on stderr which method solved the puzzle, its symbolic seeds, and the time of each phase.
    #[arg(long, short)]
    pub(crate) verbose: bool,
    /// Walk only part K of N (0 <= K < N <= 2^20) of the proof of the fewest plan for
    /// --minimize, and report the best plan found in it (simulated) and whether the part was
    /// walked to its end; `modsolve combine` puts the parts together. The walk runs to the end
    /// of the part unless --budget is given (then the part may be reported unfinished) or
    /// --timeout comes first (then nothing is reported: exit 3).
    #[arg(long, value_name = "K/N")]
    pub(crate) shard: Option<modsolve::shard::PartId>,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub(crate) enum MethodArg {
    Auto,
    Algebra,
    Search,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub(crate) enum ObjectiveArg {
    Total,
    Max,
    Buttons,
}

/// `default` (a fixed node count); a number of nodes (`5000000` or `5000000nodes`); or a time
/// (`10s`, `1.5s`, `1m30s`, `250ms`, `2h`; humantime's forms), which bounds the searches with
/// no node cap.
pub(crate) fn parse_budget(text: &str) -> Result<Budget, String> {
    let text = text.trim();
    if text == "default" {
        return Ok(Budget::default());
    }
    let digits = text.strip_suffix("nodes").map_or(text, str::trim_end);
    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        let nodes = digits.parse::<u64>().map_err(|_| format!("`{text}` is too many nodes for a budget"))?;
        return Ok(Budget::of_nodes(nodes));
    }
    let time = humantime::parse_duration(text).map_err(|e| match e {
        humantime::DurationError::NumberOverflow => format!("`{text}` is too long a budget"),
        e => format!(
            "`{text}` is not a budget ({e}): give a time like 10s, 1.5s, 1m30s or 250ms, \
             or a node count like 1000000 or 1000000nodes"
        ),
    })?;
    Ok(Budget::of_time(time))
}

/// A timeout: a time in humantime's forms (`10s`, `1.5s`, `250ms`).
pub(crate) fn parse_timeout(text: &str) -> Result<std::time::Duration, String> {
    let text = text.trim();
    humantime::parse_duration(text).map_err(|e| match e {
        humantime::DurationError::NumberOverflow => format!("`{text}` is too long a timeout"),
        e => format!("`{text}` is not a timeout ({e}): give a time like 10s, 1.5s, 1m30s or 250ms"),
    })
}

/// The bounds every command that reads puzzles takes.
#[derive(Args, Debug, Clone, Copy)]
pub(crate) struct Limits {
    /// Refuse puzzle files larger than this: 1GiB, 500MiB, 100k (decimal), or bytes.
    #[arg(long, value_name = "SIZE", value_parser = modsolve::input::parse_size, default_value = "1GiB")]
    pub(crate) max_input: u64,
    /// Refuse puzzles whose estimated peak memory is above this (default: half of this
    /// machine's memory): 4GiB, 500MiB, or bytes.
    #[arg(long, value_name = "SIZE", value_parser = modsolve::input::parse_size)]
    pub(crate) max_memory: Option<u64>,
}

impl Limits {
    /// The analysis a command runs for its plans (`hint`, `export`): the default one within
    /// this budget, timeout and memory limit.
    pub(crate) fn analysis(&self, budget: Budget, timeout: Option<std::time::Duration>) -> modsolve::Options {
        modsolve::Options::default().budget(budget).timeout(timeout).max_memory(self.max_memory)
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::parse_budget;

    /// Each budget as typed, and the time (or the nodes) it means.
    #[test]
    fn budgets_in_the_usual_forms() {
        let times = [
            ("10s", 10_000),
            ("1.5s", 1_500),
            ("1m30s", 90_000),
            ("250ms", 250),
            ("2m", 120_000),
            ("1h", 3_600_000),
            (" 0.25s ", 250),
        ];
        for (text, millis) in times {
            let budget = parse_budget(text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(budget.time, Some(Duration::from_millis(millis)), "{text}");
        }
        for text in ["1000000", "1000000nodes", "1000000 nodes"] {
            let nodes = parse_budget(text).unwrap();
            assert_eq!((nodes.nodes, nodes.time), (1_000_000, None), "{text}");
        }
        assert_eq!(parse_budget("default").unwrap(), modsolve::Budget::default());
        assert_eq!(parse_budget("default").unwrap().time, None);
        assert_eq!(super::parse_timeout("1.5s").unwrap(), Duration::from_millis(1500));
        assert!(super::parse_timeout("1000").unwrap_err().contains("not a timeout"));
        for bad in ["", "ten", "1.5", "5x", "-1s", "99999999999999999999999", "nodes", "5snodes"] {
            let error = parse_budget(bad).expect_err(bad);
            assert!(error.contains("budget") || error.contains("nodes"), "{bad}: {error}");
        }
        for huge in ["18446744073709551615m", "99999999999999999999h"] {
            assert_eq!(parse_budget(huge).unwrap_err(), format!("`{huge}` is too long a budget"));
        }
    }
}
