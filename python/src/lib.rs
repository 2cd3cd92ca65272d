//! The `modsolve` Python module: the library's entry points for Python, built with pyo3 and
//! maturin (`pip install .` at the repository's root).
//!
//! - `solve(puzzle, ...)` is [`modsolve::analyse`]; it returns the document `modsolve FILE
//!   --json` prints, key for key.
//! - `check(puzzle, ...)` is [`modsolve::check::check_within`]; it returns the document
//!   `modsolve check FILE --json` prints for one file.
//! - `generate(template, ...)` is [`modsolve::request::generate_report`]; it returns the
//!   document `modsolve generate --json` prints, each level with the name it would be written
//!   under as `file` and its RON text as `source` (as the playground's server gives them).
//! - `hint(puzzle, ...)` is [`modsolve::hint::hint`]; it returns the document `modsolve hint FILE
//!   --json` prints.
//! - `par_distribution(puzzle, ...)` is [`modsolve::difficulty::par_distribution`]; it returns
//!   the document `modsolve check --par-distribution FILE --json` prints for one file.
//! - `to_ron(puzzle)` is [`modsolve::format::to_ron`]: the puzzle written back in the format.
//! - `new(form, ...)` is [`modsolve::scaffold::new_puzzle`]: a new puzzle's text, as `modsolve
//!   new` writes it.
//! - `shard(puzzle, part, parts, ...)` is [`modsolve::shard::walk_part`]: the report `modsolve
//!   FILE --shard K/N --json` prints; `Prover(puzzle)` is [`modsolve::shard::Prover`], whose
//!   `walk(part, parts, below=...)` walks many parts of one puzzle solved once and
//!   `audit(report)` walks a reported part again; `combine(puzzle, reports, audit=K)` is
//!   [`modsolve::shard::combine_audited`],
//!   the document of `modsolve combine FILE PARTS --json` (refusals are `ValueError`).
//! - `modsolve.distributed` (python/distributed.py, compiled in) runs the parts as Ray tasks.
//!
//! A puzzle is RON text (a puzzle file's contents) or a dict, the same structure in Python
//! terms; a dict is written as RON text by the library ([`modsolve::format::dict::dict_to_ron`]) and read by the same
//! [`modsolve::parse_puzzle`], so both are validated alike. Input errors are
//! `modsolve.PuzzleError` (a `ValueError`) with `kind`, `message`, `line`, `column` and `field`;
//! bad options are `ValueError`. The work runs with the GIL released, and a panic in it becomes
//! a `RuntimeError`: nothing unwinds into Python.
//!
//! Documents are built by the library's own serialisers (serde_json) and read by Python's
//! `json.loads`, so they are exactly the command line's: big integers stay decimal strings.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::Duration;

use modsolve::check::{CheckOptions, check_within};
use modsolve::error::{InputError, InputErrorKind};
use modsolve::report::SCHEMA_VERSION;
use modsolve::report::batch::batch_json;
use modsolve::request::{GenerateRequest, Refusal, StrategyChoice, check_entry, prepare_generation};
use modsolve::solve::{Budget, Objective};
use modsolve::{Engine, Error, InternalError, Options, Puzzle};
use pyo3::exceptions::{PyMemoryError, PyRuntimeError, PyTimeoutError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};
use serde_json::Value;

pyo3::create_exception!(
    modsolve,
    PuzzleError,
    PyValueError,
    "A puzzle that is not valid: `kind` ('syntax' or 'invalid'), `message`, `line` and `column` \
     (1-based; None when unknown, and always None for a dict), `field` (the field at fault, when \
     known) and, for text, `rendered` (the message with the line and a caret, as the command \
     line prints it)."
);

/// The Python module `modsolve`.
#[pymodule(name = "modsolve")]
fn init(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(check, m)?)?;
    m.add_function(wrap_pyfunction!(generate, m)?)?;
    m.add_function(wrap_pyfunction!(hint, m)?)?;
    m.add_function(wrap_pyfunction!(par_distribution, m)?)?;
    m.add_function(wrap_pyfunction!(to_ron, m)?)?;
    m.add_function(wrap_pyfunction!(new, m)?)?;
    m.add_function(wrap_pyfunction!(shard, m)?)?;
    m.add_function(wrap_pyfunction!(combine, m)?)?;
    m.add_class::<Prover>()?;
    // `modsolve.distributed`, the Ray driver: pure Python, compiled in, registered as a
    // submodule (`import modsolve.distributed`; Ray itself is imported only when it runs).
    let py = m.py();
    let code = std::ffi::CString::new(include_str!("../distributed.py"))
        .map_err(|e| PyRuntimeError::new_err(format!("modsolve.distributed: {e}")))?;
    let distributed = PyModule::from_code(py, &code, c"modsolve/distributed.py", c"modsolve.distributed")?;
    m.add_submodule(&distributed)?;
    py.import("sys")?.getattr("modules")?.set_item("modsolve.distributed", &distributed)?;
    let error = m.py().get_type::<PuzzleError>();
    // Class-level defaults, so that a PuzzleError raised by Python code has the attributes too.
    for name in ["kind", "message", "line", "column", "field", "rendered"] {
        error.setattr(name, m.py().None())?;
    }
    m.add("PuzzleError", error)?;
    m.add("SCHEMA_VERSION", SCHEMA_VERSION)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}

/// Solves a puzzle: the document `modsolve FILE --json` prints, as a dict.
///
/// `puzzle` is RON text or a dict. `minimize` is 'total', 'max' or 'buttons'; `method` is
/// 'auto', 'algebra' or 'search'. `budget` (seconds) and `nodes` bound only the best-effort
/// search for a better plan (None for both: the default fixed amount of work, 200000000 nodes,
/// the same result on every machine; a time makes it depend on the machine); they never make
/// the answer undecided. `timeout` (seconds; None: no bound) bounds the whole call: past it the
/// document is undecided. `all` lists the plans (at most `limit`). `max_memory` (bytes, or a
/// size such as '4GiB'; None: half of this machine's memory) refuses bigger work with a
/// MemoryError.
#[pyfunction]
#[pyo3(signature = (puzzle, *, minimize = "total", method = "auto", budget = None, nodes = None, timeout = None, all = false, limit = 1000, max_memory = None))]
#[allow(clippy::too_many_arguments)]
fn solve(
    py: Python<'_>,
    puzzle: &Bound<'_, PyAny>,
    minimize: &str,
    method: &str,
    budget: Option<f64>,
    nodes: Option<u64>,
    timeout: Option<f64>,
    all: bool,
    limit: usize,
    max_memory: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let options = Options::default()
        .engine(engine(method)?)
        .objective(objective(minimize)?)
        .budget(budget_of(budget, nodes)?)
        .timeout(timeout_of(timeout)?)
        .list_all(all)
        .list_limit(limit)
        .max_memory(memory_limit(max_memory)?);
    let puzzle = read(py, puzzle)?;
    let text = work(py, || {
        let report = modsolve::analyse(&puzzle, &options)?;
        serde_json::to_string(&report).map_err(|e| InternalError::Unsupported(e.to_string()).into())
    })?;
    loads(py, &text)
}

/// Checks a puzzle as a level designer needs: the document `modsolve check FILE --json` prints
/// for one file, as a dict (`file` is the name it shows; default '<string>' or '<dict>').
///
/// `budget` (seconds) and `nodes` bound the best-effort parts (the par search, macros, the
/// players' play-throughs) as in `solve`. A check that `timeout` (seconds) stops gives the
/// command line's undecided document (`error`, `undecided`).
#[pyfunction]
#[pyo3(signature = (puzzle, *, budget = None, nodes = None, timeout = None, deny_warnings = false, max_memory = None, file = None))]
#[allow(clippy::too_many_arguments)]
fn check(
    py: Python<'_>,
    puzzle: &Bound<'_, PyAny>,
    budget: Option<f64>,
    nodes: Option<u64>,
    timeout: Option<f64>,
    deny_warnings: bool,
    max_memory: Option<&Bound<'_, PyAny>>,
    file: Option<String>,
) -> PyResult<Py<PyAny>> {
    let options = CheckOptions::default()
        .budget(budget_of(budget, nodes)?)
        .timeout(timeout_of(timeout)?)
        .max_memory(memory_limit(max_memory)?);
    let shown = file.unwrap_or_else(|| default_name(puzzle).into());
    let puzzle = read(py, puzzle)?;
    let object = work(py, || match check_within(&puzzle, &options) {
        result @ (Ok(_) | Err(Error::TimedOut)) => Ok(check_entry(&shown, &puzzle, &result, deny_warnings).0),
        Err(e) => Err(e),
    })?;
    let document = batch_json(vec![object], None);
    loads(py, &document.to_string())
}

/// Makes levels from a template: the document `modsolve generate --json` prints, as a dict
/// (`schema/generate.schema.json`): each level's `file` is the name `generate` would write it
/// under (`level-0001.ron`, …) and its `source` the RON text it would write, whose comment
/// names the template as `file` (default '<string>' or '<dict>').
///
/// `count` levels from `seed` (the same seed gives the same levels); `unique`: one solution
/// only; `par`: a (low, high) range of the proven fewest presses; `strategy`: 'sweep',
/// 'greedy', 'chase' (that player strategy must win) or 'none' (no simple strategy may win);
/// `attempts`: the most candidates tried (default 2000 a level, from 1000 to 10,000,000).
/// `scramble`: make each start from that many random presses (its par is at most that);
/// `deny_warnings`: keep only levels that pass `check` with warnings denied.
/// A spec that can never be met is a ValueError; found < count when it was too rare.
#[pyfunction]
#[pyo3(signature = (template, *, count = 10, seed = 1, unique = false, par = None, strategy = None, attempts = None, max_memory = None, scramble = None, deny_warnings = false, file = None))]
#[allow(clippy::too_many_arguments)]
fn generate(
    py: Python<'_>,
    template: &Bound<'_, PyAny>,
    count: usize,
    seed: u64,
    unique: bool,
    par: Option<(u64, u64)>,
    strategy: Option<&str>,
    attempts: Option<usize>,
    max_memory: Option<&Bound<'_, PyAny>>,
    scramble: Option<u64>,
    deny_warnings: bool,
    file: Option<String>,
) -> PyResult<Py<PyAny>> {
    let strategy = match strategy {
        None => StrategyChoice::default(),
        Some(name) => name.parse().map_err(|e| PyValueError::new_err(format!("strategy: {e}")))?,
    };
    let max_memory = memory_limit(max_memory)?;
    let template_name = file.unwrap_or_else(|| default_name(template).into());
    let template = read(py, template)?;
    let request = GenerateRequest {
        template: template_name,
        count,
        seed,
        unique,
        par,
        strategy,
        attempts,
        scramble,
        deny_warnings,
        max_memory,
    };
    let threads = rayon::current_num_threads();
    let spec = work(py, || Ok(prepare_generation(&template, &request, threads)))?.map_err(|e| match e {
        Refusal::OverMemory(e) => to_py(e.into()),
        Refusal::Infeasible(reason) => PyValueError::new_err(reason.to_string()),
        Refusal::Internal(e) => to_py(e.into()),
    })?;
    let text = work(py, || {
        let report = modsolve::request::generate_report(&template, &request, &spec)?;
        serde_json::to_string(&report).map_err(|e| InternalError::Unsupported(e.to_string()).into())
    })?;
    loads(py, &text)
}

/// The puzzle written back as RON text in the documented format (a dict's text form), after a
/// `// ` comment of each line of `comment`.
/// A press already made, as `hint` takes it: a button number (from 0) or a button's label.
#[derive(FromPyObject)]
enum Pressed {
    Number(usize),
    Label(String),
}

/// A hint for a player: the document `modsolve hint FILE --json` prints, as a dict.
///
/// `pressed` lists the presses made so far from the start, each a button number (from 0) or a
/// label; `steps` lists the whole ordered plan with the board after each press. `budget`,
/// `nodes`, `timeout` and `max_memory` as in `solve`. A press that names no button is a
/// ValueError.
#[pyfunction]
#[pyo3(signature = (puzzle, *, pressed = None, steps = false, budget = None, nodes = None, timeout = None, max_memory = None))]
#[allow(clippy::too_many_arguments)]
fn hint(
    py: Python<'_>,
    puzzle: &Bound<'_, PyAny>,
    pressed: Option<Vec<Pressed>>,
    steps: bool,
    budget: Option<f64>,
    nodes: Option<u64>,
    timeout: Option<f64>,
    max_memory: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let analysis = Options::default()
        .budget(budget_of(budget, nodes)?)
        .timeout(timeout_of(timeout)?)
        .max_memory(memory_limit(max_memory)?);
    let options = modsolve::hint::HintOptions::default().analysis(analysis).steps(steps);
    let puzzle = read(py, puzzle)?;
    let buttons = puzzle.button_count();
    let pressed = pressed
        .unwrap_or_default()
        .into_iter()
        .enumerate()
        .map(|(k, press)| match press {
            Pressed::Number(j) if j < buttons => Ok(j),
            Pressed::Number(j) => Err(PyValueError::new_err(format!(
                "pressed[{k}] is button {j}, but the puzzle's buttons are 0 to {}",
                buttons.saturating_sub(1)
            ))),
            Pressed::Label(name) => (0..buttons).find(|&j| puzzle.button_name(j) == name).ok_or_else(|| {
                PyValueError::new_err(format!("pressed[{k}] is {name:?}, which names no button"))
            }),
        })
        .collect::<PyResult<Vec<usize>>>()?;
    let document = work(py, || {
        modsolve::hint::hint(&puzzle, &pressed, &options)
            .map(|hint| modsolve::report::HintReport::new(&puzzle, &hint))
    })
    .map_err(|e| match e.is_instance_of::<PuzzleError>(py) {
        // The puzzle was read already: an input error is about the presses made (a press limit).
        true => PyValueError::new_err(format!("pressed: {}", e.value(py))),
        false => e,
    })?;
    let text = serde_json::to_string(&document)
        .map_err(|e| to_py(InternalError::Unsupported(e.to_string()).into()))?;
    loads(py, &text)
}

/// How hard a puzzle's starts are: the document `modsolve check --par-distribution FILE --json`
/// prints for one file, as a dict (`file` is the name it shows).
///
/// Exact (every solvable start counted by its par) when the puzzle has at most `exact_limit`
/// solvable starts, else estimated from `samples` random starts (from `seed`) with intervals of
/// the given `confidence`. `budget` (seconds) bounds the exact search and the sampling (None:
/// 200000000 nodes of work in all, each sample's elimination and search counted, with 2000000
/// nodes each: the same samples on every machine; `nodes` instead: each sample's nodes, no time);
/// `timeout` (seconds) bounds the whole call, set-up included (a TimeoutError past it), and
/// `max_memory` the memory as in `solve`.
#[pyfunction]
#[pyo3(signature = (puzzle, *, budget = None, nodes = None, timeout = None, exact_limit = modsolve::difficulty::DEFAULT_EXACT_LIMIT, samples = modsolve::difficulty::DEFAULT_SAMPLES, seed = 1, confidence = modsolve::difficulty::DEFAULT_CONFIDENCE, max_memory = None, file = None))]
#[allow(clippy::too_many_arguments)]
fn par_distribution(
    py: Python<'_>,
    puzzle: &Bound<'_, PyAny>,
    budget: Option<f64>,
    nodes: Option<u64>,
    timeout: Option<f64>,
    exact_limit: u64,
    samples: usize,
    seed: u64,
    confidence: f64,
    max_memory: Option<&Bound<'_, PyAny>>,
    file: Option<String>,
) -> PyResult<Py<PyAny>> {
    let spec = modsolve::request::DistributionSpec {
        budget: budget_of(budget, nodes)?,
        exact_limit,
        samples,
        seed,
        confidence,
        timeout: timeout_of(timeout)?,
        max_memory: memory_limit(max_memory)?,
    };
    let options = spec.options().map_err(|e| PyValueError::new_err(e.to_string()))?;
    let shown = file.unwrap_or_else(|| default_name(puzzle).into());
    let puzzle = read(py, puzzle)?;
    let object = work(py, || {
        modsolve::difficulty::par_distribution(&puzzle, &options)
            .map(|d| modsolve::report::batch::DistributionEntry::new(&shown, &d))
    })?;
    let document = batch_json(vec![object], None);
    loads(py, &document.to_string())
}

#[pyfunction]
#[pyo3(signature = (puzzle, *, comment = ""))]
fn to_ron(py: Python<'_>, puzzle: &Bound<'_, PyAny>, comment: &str) -> PyResult<String> {
    let puzzle = read(py, puzzle)?;
    Ok(modsolve::format::to_ron(&puzzle, comment))
}

/// The text of a new puzzle, as `modsolve new` writes it: `form` is 'grid', 'hex' (`rows`,
/// `cols`), 'cube' (`size`, the side of a face), 'path', 'cycle', 'edges' or 'cells'
/// (`cells`). `modulus` is one int for every cell, a list with one per cell, or text such as
/// '7,8,7,6'. `press` is `(self, neighbors)`; `start` every cell's value (None: one press of
/// button 0 from solved). Raises ValueError for what cannot be made.
#[pyfunction]
#[pyo3(signature = (form, *, rows = 5, cols = 5, size = 3, cells = 5, modulus = None, press = None, start = None))]
#[allow(clippy::too_many_arguments)]
fn new(
    form: &str,
    rows: usize,
    cols: usize,
    size: usize,
    cells: usize,
    modulus: Option<&Bound<'_, PyAny>>,
    press: Option<(i64, i64)>,
    start: Option<u64>,
) -> PyResult<String> {
    use modsolve::scaffold::{Form, Moduli, Spec, Start};
    let form = match form {
        "grid" => Form::grid(rows, cols),
        "hex" => Form::Hex { rows, cols, mask: None },
        "cube" => Form::Cube(size),
        "path" => Form::Path(cells),
        "cycle" => Form::Cycle(cells),
        "edges" | "graph" => Form::Edges(cells),
        "cells" | "buttons" => Form::Cells(cells, None),
        other => {
            return Err(PyValueError::new_err(format!(
                "form is {other:?}: one of grid, hex, cube, path, cycle, edges, cells"
            )));
        }
    };
    let moduli = match modulus {
        None => Moduli::One(2),
        Some(m) if m.is_instance_of::<PyString>() => m
            .extract::<String>()?
            .parse()
            .map_err(|e: String| PyValueError::new_err(format!("modulus: {e}")))?,
        Some(m) => match m.extract::<u64>() {
            Ok(one) => Moduli::One(one),
            Err(_) => Moduli::PerCell(m.extract::<Vec<u64>>().map_err(|_| {
                PyValueError::new_err("modulus is an int, a list of ints, or text such as '7,8,7,6'")
            })?),
        },
    };
    let spec = Spec {
        form,
        moduli,
        press: press.unwrap_or((1, 1)),
        start: start.map_or(Start::OnePress, Start::All),
    };
    modsolve::scaffold::new_puzzle(&spec)
        .map(|(_, text)| text)
        .map_err(|e| PyValueError::new_err(e.to_string()))
}

/// Walks part `part` of `parts` of the proof of the fewest plan: the report `modsolve FILE
/// --shard K/N --json` prints, as a dict. The part is walked to its end unless `budget`
/// (seconds) or `nodes` bound it (then `finished` may be false). `threads` (None: every core)
/// runs the walk on a pool of that many threads, for a task scheduler that gives it that many
/// cores. `below`: a cutoff (see `Prover.walk`). Raises ValueError for a puzzle that is not
/// walked in parts. (Many parts of one puzzle: `Prover`, which solves it once.)
#[pyfunction]
#[pyo3(signature = (puzzle, part, parts, *, minimize = "total", budget = None, nodes = None, threads = None, below = None))]
#[allow(clippy::too_many_arguments)]
fn shard(
    py: Python<'_>,
    puzzle: &Bound<'_, PyAny>,
    part: u64,
    parts: u64,
    minimize: &str,
    budget: Option<f64>,
    nodes: Option<u64>,
    threads: Option<usize>,
    below: Option<u64>,
) -> PyResult<Py<PyAny>> {
    let id = part_id(part, parts)?;
    let prover = Prover::new(py, puzzle, minimize, threads)?;
    prover.walk_id(py, id, budget, nodes, below)
}

fn part_id(part: u64, parts: u64) -> PyResult<modsolve::shard::PartId> {
    format!("{part}/{parts}").parse().map_err(PyValueError::new_err)
}

/// A puzzle solved once and its walk prepared, to walk many of its parts (`walk`): what a
/// worker that runs parts one after another keeps (`modsolve.distributed` keeps one per worker
/// process). `threads` (None: every core) walks each part on a pool of that many threads.
/// Raises ValueError for a puzzle that is not walked in parts.
#[pyclass(frozen, module = "modsolve")]
struct Prover {
    prover: modsolve::shard::Prover,
    pool: Option<rayon::ThreadPool>,
}

#[pymethods]
impl Prover {
    #[new]
    #[pyo3(signature = (puzzle, *, minimize = "total", threads = None))]
    fn new(
        py: Python<'_>,
        puzzle: &Bound<'_, PyAny>,
        minimize: &str,
        threads: Option<usize>,
    ) -> PyResult<Self> {
        let objective = objective(minimize)?;
        let pool = match threads {
            None => None,
            Some(0) => return Err(PyValueError::new_err("threads must be at least 1 (None: every core)")),
            Some(t) => Some(
                rayon::ThreadPoolBuilder::new()
                    .num_threads(t)
                    .build()
                    .map_err(|e| PyRuntimeError::new_err(format!("cannot start {t} threads: {e}")))?,
            ),
        };
        let puzzle = read(py, puzzle)?;
        let made = py.detach(|| {
            catch_unwind(AssertUnwindSafe(|| {
                let job = || modsolve::shard::Prover::new(&puzzle, objective);
                match &pool {
                    Some(pool) => pool.install(job),
                    None => job(),
                }
            }))
        });
        let prover = shard_result(made)?;
        Ok(Prover { prover, pool })
    }

    /// The puzzle's hash (the `puzzle` of its part reports).
    #[getter]
    fn puzzle_hash(&self) -> String {
        self.prover.puzzle_hash().to_string()
    }

    /// Whether `walk` uses a cutoff `below` (mod-2 walks for total and buttons).
    #[getter]
    fn takes_cutoff(&self) -> bool {
        self.prover.takes_cutoff()
    }

    /// Walks part `part` of `parts`: the report `modsolve FILE --shard K/N --json` prints, as
    /// a dict, the GIL released. `budget` (seconds) or `nodes` bound it (None: to its end).
    /// `below`: a cutoff, a score that some part's reported plan reaches (or one more, to keep
    /// ties: the plan combined is then the same as without cutoffs); only plans scoring below
    /// it are looked for, which prunes more, and the report's `below` says so (`combine`
    /// accounts for it). Ignored, and left out of the report, where `takes_cutoff` is false.
    #[pyo3(signature = (part, parts, *, below = None, budget = None, nodes = None))]
    fn walk(
        &self,
        py: Python<'_>,
        part: u64,
        parts: u64,
        below: Option<u64>,
        budget: Option<f64>,
        nodes: Option<u64>,
    ) -> PyResult<Py<PyAny>> {
        self.walk_id(py, part_id(part, parts)?, budget, nodes, below)
    }

    /// Audits a finished part's report (a dict or its JSON text): walks the part again to its
    /// end, with the report's cutoff, the GIL released. Returns a dict: `agrees` (the best
    /// score walked again is the report's) and `report`, the report walked again (what the
    /// part's report should have been, to use in its place when it disagrees).
    fn audit(&self, py: Python<'_>, report: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let report = part_report(py, report, "the report")?;
        let id = part_id(report.part, report.parts)?;
        let unbounded = modsolve::shard::PART_BUDGET;
        let walked = py.detach(|| {
            catch_unwind(AssertUnwindSafe(|| {
                let job = || self.prover.walk(id, unbounded, report.below);
                match &self.pool {
                    Some(pool) => pool.install(job),
                    None => job(),
                }
            }))
        });
        let again = shard_result(walked)?;
        let agrees = modsolve::shard::agrees(&report, &again);
        let text = serde_json::to_string(&again).map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
        let dict = pyo3::types::PyDict::new(py);
        dict.set_item("agrees", agrees)?;
        dict.set_item("report", loads(py, &text)?)?;
        Ok(dict.into_any().unbind())
    }
}

/// A part report from a dict or its JSON text (`what` names it in the error).
fn part_report(py: Python<'_>, item: &Bound<'_, PyAny>, what: &str) -> PyResult<modsolve::shard::PartReport> {
    let text: String = match item.cast::<PyString>() {
        Ok(text) => text.to_cow()?.into_owned(),
        Err(_) => py.import("json")?.call_method1("dumps", (item,))?.extract()?,
    };
    let value: serde_json::Value = serde_json::from_str(&text)
        .map_err(|e| PyValueError::new_err(format!("{what} is not a part report: {e}")))?;
    modsolve::shard::PartReport::from_json(value)
        .map_err(|e| PyValueError::new_err(format!("{what} is not a part report: {e}")))
}

impl Prover {
    fn walk_id(
        &self,
        py: Python<'_>,
        id: modsolve::shard::PartId,
        budget: Option<f64>,
        nodes: Option<u64>,
        below: Option<u64>,
    ) -> PyResult<Py<PyAny>> {
        let budget = match budget_of(budget, nodes)? {
            b if b.is_default() => modsolve::shard::PART_BUDGET,
            b => b,
        };
        let walked = py.detach(|| {
            catch_unwind(AssertUnwindSafe(|| {
                let job = || self.prover.walk(id, budget, below);
                match &self.pool {
                    Some(pool) => pool.install(job),
                    None => job(),
                }
            }))
        });
        let report = shard_result(walked)?;
        let text = serde_json::to_string(&report).map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
        loads(py, &text)
    }
}

/// A shard's result as Python sees it: a bug or a panic is a `RuntimeError`, a puzzle not
/// walked in parts a `ValueError`.
fn shard_result<T>(result: std::thread::Result<Result<T, modsolve::shard::ShardError>>) -> PyResult<T> {
    match result {
        Ok(Ok(value)) => Ok(value),
        Ok(Err(e @ modsolve::shard::ShardError::Internal(_))) => {
            Err(PyRuntimeError::new_err(format!("{e}; this is a bug in modsolve, please report it")))
        }
        Ok(Err(e)) => Err(PyValueError::new_err(e.to_string())),
        Err(_) => Err(PyRuntimeError::new_err("internal error: modsolve panicked walking the part")),
    }
}

/// Combines part reports (dicts from `shard`, or their JSON text) of one puzzle: the document
/// `modsolve combine FILE PARTS --json` prints, as a dict (`proven` true when every part of
/// 0..N was given and finished; else `missing` and `unfinished` say which to run). Parts of
/// another puzzle, run, N or objective, parts given twice, reports that contradict their run and
/// plans that do not solve the puzzle raise ValueError. `audit`: walk that many finished parts
/// again, chosen at random by `seed` (None: a random seed; the document's `seed` says which),
/// and raise ValueError naming a part that disagrees with its report.
#[pyfunction]
#[pyo3(signature = (puzzle, reports, *, audit = 0, seed = None))]
fn combine(
    py: Python<'_>,
    puzzle: &Bound<'_, PyAny>,
    reports: &Bound<'_, PyAny>,
    audit: u64,
    seed: Option<u64>,
) -> PyResult<Py<PyAny>> {
    let puzzle = read(py, puzzle)?;
    let mut parsed = Vec::new();
    for (i, item) in reports.try_iter()?.enumerate() {
        parsed.push((format!("report {i}"), part_report(py, &item?, &format!("report {i}"))?));
    }
    let seed = match seed {
        Some(seed) => seed,
        None => py.import("random")?.call_method1("randrange", (1_000_000_000u64,))?.extract()?,
    };
    let audit = (audit > 0).then_some(modsolve::shard::Audit { parts: audit, seed });
    let combined = py
        .detach(|| {
            catch_unwind(AssertUnwindSafe(|| modsolve::shard::combine_audited(&puzzle, &parsed, audit)))
        })
        .map_err(|_| PyRuntimeError::new_err("internal error: modsolve panicked combining the parts"))?
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    let text = serde_json::to_string(&combined).map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
    loads(py, &text)
}

/// Runs library work with the GIL released; a library error becomes its Python exception and a
/// panic a `RuntimeError`.
fn work<T: Send>(py: Python<'_>, job: impl FnOnce() -> Result<T, Error> + Send) -> PyResult<T> {
    match py.detach(|| catch_unwind(AssertUnwindSafe(job))) {
        Ok(Ok(value)) => Ok(value),
        Ok(Err(e)) => Err(to_py(e)),
        Err(_) => Err(PyRuntimeError::new_err(
            "internal error: modsolve stopped without an answer (it panicked); please report it with the puzzle",
        )),
    }
}

/// The Python exception of a library error.
fn to_py(e: Error) -> PyErr {
    match e {
        Error::Input(e) => puzzle_error(&e, None, None),
        Error::OverMemory(e) => PyMemoryError::new_err(format!("{e}; raise max_memory")),
        Error::TimedOut => PyTimeoutError::new_err(format!("{e}; a larger timeout may finish it")),
        Error::Internal(e @ InternalError::Unsupported(_)) => PyValueError::new_err(e.to_string()),
        e => PyRuntimeError::new_err(format!(
            "{e}; this is a bug in modsolve, please report it with the puzzle"
        )),
    }
}

/// Parses `puzzle` (RON text or a dict) with the GIL released.
fn read(py: Python<'_>, puzzle: &Bound<'_, PyAny>) -> PyResult<Puzzle> {
    if let Ok(text) = puzzle.cast::<PyString>() {
        let source = text.to_cow()?.into_owned();
        return py
            .detach(|| catch_unwind(|| modsolve::parse_puzzle(&source)))
            .map_err(|_| PyRuntimeError::new_err("internal error: the puzzle reader panicked"))?
            .map_err(|e| puzzle_error(&e, Some(&source), None));
    }
    if puzzle.cast::<PyDict>().is_ok() {
        let json: String = py.import("json")?.call_method1("dumps", (puzzle,))?.extract()?;
        let value: Value = serde_json::from_str(&json).map_err(|e| PyValueError::new_err(e.to_string()))?;
        let written = modsolve::format::dict::dict_to_ron(&value).map_err(|(message, field)| {
            let e = InputError { position: None, kind: InputErrorKind::Syntax { message } };
            puzzle_error(&e, None, Some(field))
        })?;
        return py
            .detach(|| catch_unwind(|| modsolve::parse_puzzle(&written.text)))
            .map_err(|_| PyRuntimeError::new_err("internal error: the puzzle reader panicked"))?
            .map_err(|e| {
                // Positions in the written text mean nothing to the caller: name the field.
                let line_field = e.position.and_then(|p| written.fields.get(p.line.wrapping_sub(2)));
                let field = e.field().map(str::to_string).or_else(|| line_field.cloned());
                puzzle_error(&InputError { position: None, ..e }, None, field)
            });
    }
    Err(PyTypeError::new_err(format!(
        "a puzzle is RON text (str) or a dict, not {}",
        puzzle.get_type().name()?
    )))
}

/// `'<string>'` or `'<dict>'`: the name a check shows for a puzzle given without one.
fn default_name(puzzle: &Bound<'_, PyAny>) -> &'static str {
    if puzzle.cast::<PyDict>().is_ok() { "<dict>" } else { "<string>" }
}

/// A `PuzzleError` with its attributes; `source` is the text it was read from, if any.
fn puzzle_error(e: &InputError, source: Option<&str>, field: Option<String>) -> PyErr {
    let (kind, message) = match &e.kind {
        InputErrorKind::Syntax { message } => ("syntax", message.clone()),
        _ => ("invalid", e.kind.to_string()),
    };
    let text = match e.position {
        Some(p) => format!("{message} (line {}, column {})", p.line, p.column),
        None => message.clone(),
    };
    let err = PuzzleError::new_err(text);
    Python::attach(|py| {
        let value = err.value(py);
        let field = field.or_else(|| e.field().map(str::to_string));
        let rendered = source.map(|s| modsolve::report::render_input_error(e, "<string>", s));
        let set = || -> PyResult<()> {
            value.setattr("kind", kind)?;
            value.setattr("message", &message)?;
            value.setattr("line", e.position.map(|p| p.line))?;
            value.setattr("column", e.position.map(|p| p.column))?;
            value.setattr("field", field)?;
            value.setattr("rendered", rendered)?;
            Ok(())
        };
        match set() {
            Ok(()) => err.clone_ref(py),
            Err(failed) => failed,
        }
    })
}

/// Reads a budget: `seconds` of time and `nodes`; neither is the default (a fixed node count),
/// a time alone has no node cap, nodes alone no time.
fn budget_of(seconds: Option<f64>, nodes: Option<u64>) -> PyResult<Budget> {
    let time = match seconds {
        None => None,
        Some(s) => Some(Duration::try_from_secs_f64(s).map_err(|_| {
            PyValueError::new_err(format!("budget {s} is not a time: give seconds (>= 0) or None"))
        })?),
    };
    Ok(match (time, nodes) {
        (None, None) => Budget::default(),
        (Some(time), None) => Budget::of_time(time),
        (None, Some(nodes)) => Budget::of_nodes(nodes),
        (time, Some(nodes)) => Budget::of_nodes(nodes).time(time),
    })
}

/// Reads a timeout in seconds (None: no bound).
fn timeout_of(seconds: Option<f64>) -> PyResult<Option<Duration>> {
    seconds
        .map(|s| {
            Duration::try_from_secs_f64(s).map_err(|_| {
                PyValueError::new_err(format!("timeout {s} is not a time: give seconds (>= 0) or None"))
            })
        })
        .transpose()
}

fn engine(method: &str) -> PyResult<Engine> {
    method.parse().map_err(|e| PyValueError::new_err(format!("method: {e}")))
}

fn objective(minimize: &str) -> PyResult<Objective> {
    minimize.parse().map_err(|e| PyValueError::new_err(format!("minimize: {e}")))
}

/// A memory limit: None, a byte count, or a size such as '4GiB'.
fn memory_limit(limit: Option<&Bound<'_, PyAny>>) -> PyResult<Option<u64>> {
    let Some(limit) = limit else { return Ok(None) };
    if limit.is_none() {
        return Ok(None);
    }
    if let Ok(text) = limit.cast::<PyString>() {
        return modsolve::input::parse_size(&text.to_cow()?)
            .map(Some)
            .map_err(|e| PyValueError::new_err(format!("max_memory: {e}")));
    }
    limit.extract::<u64>().map(Some).map_err(|_| {
        PyValueError::new_err("max_memory is a byte count (int), a size such as '4GiB', or None")
    })
}

/// A JSON text as Python objects (`json.loads`).
fn loads(py: Python<'_>, text: &str) -> PyResult<Py<PyAny>> {
    Ok(py.import("json")?.call_method1("loads", (text,))?.unbind())
}
