//! `modsolve FILE` (`modsolve solve FILE`): one puzzle through [`modsolve::analyse`], its report
//! as text or JSON, and `--verbose` timings on standard error.

use std::path::PathBuf;
use std::time::Instant;

use modsolve::Options;
use modsolve::analysis::analyse_shared;
use modsolve::report::{Numbers, SolveReport};

use super::output::{Body, Failure, Kind, Output};

/// A solve, as the command line asks for it.
pub(crate) struct Request {
    pub(crate) file: Option<PathBuf>,
    pub(crate) max_input: u64,
    pub(crate) options: Options,
    pub(crate) json: bool,
    pub(crate) picture: bool,
    /// `--svg FILE`: the board with its fewest plan, written atomically.
    pub(crate) svg: Option<PathBuf>,
    pub(crate) verbose: bool,
    /// `--shard K/N`: one part of the proof of the fewest plan (see [`super::shard`]).
    pub(crate) shard: Option<modsolve::shard::PartId>,
}

/// `--verbose`: one line on stderr per step, with its time.
struct Timer {
    enabled: bool,
    since: Instant,
}

impl Timer {
    fn done(&mut self, what: &str) {
        if self.enabled {
            eprintln!("{:>9.3} s  {what}", self.since.elapsed().as_secs_f64());
        }
        self.since = Instant::now();
    }
}

/// Reads, solves and renders one puzzle; the exit code is 0 solved, 1 no solution, 3 undecided.
pub(crate) fn run(request: &Request) -> Result<Output, Failure> {
    let json = request.json;
    let Some(path) = &request.file else {
        return Err(Failure::plain(
            Kind::Usage,
            "error: no puzzle file given\n\nUsage: modsolve FILE [--json]   (modsolve --help for more)\n",
            json,
        ));
    };
    if let Some(part) = request.shard {
        return super::shard::part(path, part, request);
    }
    let mut timer = Timer { enabled: request.verbose, since: Instant::now() };
    let (loaded, left) =
        super::load_within(path, request.max_input, request.options.timeout).map_err(|f| f.in_json(json))?;
    let puzzle = std::sync::Arc::new(loaded.puzzle);
    timer.done(&format!(
        "read and checked the file: {} cells, {} buttons",
        puzzle.cell_count(),
        puzzle.button_count()
    ));
    // Past a million cells the work takes seconds: a spinner on a terminal says so.
    let spinner = (puzzle.cell_count() > 1_000_000).then(|| spinner(puzzle.cell_count())).flatten();
    let mut options = request.options;
    options.timeout = left.map_err(|e| Failure::from(e).in_json(json))?;
    let report = analyse_shared(std::sync::Arc::clone(&puzzle), &options);
    if let Some(bar) = &spinner {
        bar.finish_and_clear();
    }
    let report = report.map_err(|e| Failure::from(e).in_json(json))?;
    timer.done(&method_line(&report));
    if let Some(svg) = &request.svg {
        write_svg(svg, &puzzle, &report).map_err(|f| f.in_json(json))?;
        timer.done(&format!("wrote {}", svg.display()));
    }
    let code = match report.solvable {
        Some(true) => 0,
        Some(false) => 1,
        None => 3,
    };
    let body = if json {
        Body::Solve(Box::new(report))
    } else {
        let mut text = modsolve::report::solve_text(&puzzle, &report, request.picture, &super::FLAGS);
        // A time cut the search short: another machine may find another plan.
        if let Some(time) = request.options.budget.time
            && report.machine_dependent
            && report.undecided.is_none()
        {
            text.push_str(&format!(
                "Note: the {} time budget ended the search, so this result depends on this machine's speed; a node budget (--budget 5000000nodes) gives the same result on every machine.\n",
                humantime::format_duration(time)
            ));
        }
        Body::Text(text)
    };
    timer.done(if json { "report ready (JSON is written as it is printed)" } else { "wrote the report" });
    Ok(Output { body, code })
}

/// `--svg FILE`: the board at its start with the fewest plan (when there is one), written all or
/// nothing; a failure exits 2.
fn write_svg(path: &std::path::Path, puzzle: &modsolve::Puzzle, report: &SolveReport) -> Result<(), Failure> {
    let plan = report.fewest.as_ref().map(|p| p.presses.to_big());
    let text = modsolve::report::svg::board_svg(puzzle, &puzzle.start().to_vec(), plan.as_deref());
    modsolve::generate::write_atomically(path, text.as_bytes(), true).map_err(|e| {
        Failure::plain(Kind::Io, format!("error: cannot write {}: {e}\n", path.display()), false)
    })
}

/// The method line of `--verbose`.
fn method_line(report: &SolveReport) -> String {
    use modsolve::report::Elimination;
    if report.undecided.is_some() {
        return "abandoned: the timeout came before the analysis finished".into();
    }
    let seeds = report.seeds.unwrap_or(0);
    let compact = matches!(report.periods, Numbers::Repeated { .. });
    let method = match report.elimination {
        Some(Elimination::LightChasing) if compact => format!(
            "solved by propagation (light chasing) in compact form: {seeds} symbolic seeds (the shorter side), plan verified"
        ),
        Some(Elimination::LightChasing) => {
            format!(
                "solved and optimised: propagation (light chasing), {seeds} symbolic seeds (the shorter side)"
            )
        }
        Some(Elimination::GeneralPropagation) => format!(
            "solved and optimised: general propagation, {seeds} symbolic seed{}",
            if seeds == 1 { "" } else { "s" }
        ),
        Some(Elimination::Sparse) if report.seeds.is_some() => format!(
            "solved and optimised: {}, the primes whose rows keep their units chased first ({seeds} symbolic seeds)",
            Elimination::Sparse.describe()
        ),
        Some(other) => format!("solved and optimised: {}", other.describe()),
        None => "solved and optimised: the search solver".into(),
    };
    match report.search_nodes {
        Some(nodes) if !compact => format!("{method}; {nodes} search or enumeration nodes"),
        _ => method,
    }
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
