//! The endpoints. Puzzle endpoints take JSON bodies with the puzzle's RON text in `source` (and
//! an optional `file`, the name errors and reports give it).
//!
//! | endpoint | takes | answers |
//! | --- | --- | --- |
//! | `GET /` (and `/app.js`, `/board.js`, `/style.css`) | | the page |
//! | `GET /api/palette` | | the board colours ([`modsolve::report::svg::PALETTE`]) |
//! | `GET /api/files` | | the `check --json` document of every `.ron` file in the directory |
//! | `GET /api/file?path=P` | | the file's RON text |
//! | `POST /api/analyse` | `source`, optional `start`, `target`, `moduli`, `layout` (a centre `[x, y]` per cell, written back as the file's `layout:`), `graph` (`{"cells", "edges"}`: the graph editor's `Edges` graph), `remove_node` (a node of that graph to remove, the higher ones renumbered) | `{"version", "file", "source", "board", "solve"}`: the board to draw (with `edges` for a graph without a picture) and the `--json` solve document |
//! | `POST /api/new` | `form` (`grid`, `hex`, `cube`, `path`, `cycle`, `graph`, `explicit`), optional `rows`, `cols`, `size`, `cells`, `modulus` (a number, or text: `"7"`, `"7,8,7,6"`), `self`, `neighbors`, `wrap`, `neighborhood` (`Cross`, `King`, `Knight`, `Stencil`), `stencil` and `mask` (pictures, one string a row), `buttons` (`[[cell, amount], …]` per button), `start` (every cell's value; default one press from solved) | `{"version", "source", "file"}`: the new puzzle's text ([`modsolve::scaffold::new_puzzle`]) and the file name offered |
//! | `POST /api/check` | `source` | the `check --json` document |
//! | `POST /api/hint` | `source`, `pressed` | the `hint --json` document |
//! | `POST /api/state` | `source`, `pressed` | `{"version", "pressed", "state", "solved"}`: the board after the presses |
//! | `POST /api/generate` | `source`, `count`, `seed`, `unique`, `par`, `strategy` (a name, `none` or `any`), `scramble`, `attempts` | the `generate --json` document, each level with its RON `source`, and `advice` (the command line's words) when fewer levels were found than asked for; a spec that can never be met is refused (400) with the command line's reason |
//! | `POST /api/histogram` | `source`, `samples`, `seed` | the `check --par-histogram --json` document |
//! | `POST /api/distribution` | `source`, `exact_limit`, `samples`, `seed`, `confidence` | the `check --par-distribution --json` document |
//! | `POST /api/save` | `path`, `source`, `overwrite` | `{"version", "saved"}` once the file is written |
//! | `GET /api/svg?path=P`, `POST /api/svg` | a file, or `source` and `pressed` | the board with its fewest plan as SVG |
//! | `POST /api/export` | `source`, `file` | the level as a playable HTML page (`modsolve export FILE --html`) |

use std::sync::Arc;
use std::time::Instant;

use axum::Json;
use axum::body::Body;
use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::extract::{Query, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use num_bigint::BigUint;
use serde::Deserialize;
use serde_json::{Value, json};

use super::admission::{self, Job};
use super::{ApiError, Shared, paths};
use crate::kind::Kind;
use modsolve::Puzzle;
use modsolve::check::CheckOptions;
use modsolve::hint::HintOptions;
use modsolve::report::SCHEMA_VERSION;
use modsolve::report::check::CheckFile;
use modsolve::request::{
    GenerateReport, GenerateRequest, Refusal, StrategyChoice, UnknownName, Verdict, check_entry,
    prepare_generation,
};
use modsolve::solve::Budget;

type Shared_ = State<Arc<Shared>>;

/// The routes, before the body limit is layered on.
pub(crate) fn routes(shared: Arc<Shared>) -> axum::Router {
    axum::Router::new()
        .route("/", get(|| async { page("text/html; charset=utf-8", include_str!("../../web/index.html")) }))
        .route(
            "/app.js",
            get(|| async { page("text/javascript; charset=utf-8", include_str!("../../web/app.js")) }),
        )
        .route(
            "/board.js",
            get(|| async { page("text/javascript; charset=utf-8", include_str!("../../web/board.js")) }),
        )
        .route(
            "/style.css",
            get(|| async { page("text/css; charset=utf-8", include_str!("../../web/style.css")) }),
        )
        .route("/favicon.ico", get(|| async { StatusCode::NO_CONTENT }))
        .route("/api/palette", get(palette))
        .route("/api/files", get(files))
        .route("/api/file", get(file))
        .route("/api/analyse", post(analyse))
        .route("/api/new", post(new_puzzle))
        .route("/api/check", post(check))
        .route("/api/hint", post(hint))
        .route("/api/state", post(state))
        .route("/api/generate", post(generate))
        .route("/api/histogram", post(histogram))
        .route("/api/distribution", post(distribution))
        .route("/api/save", post(save))
        .route("/api/svg", get(svg_of_file).post(svg_of_source))
        .route("/api/export", post(export))
        .fallback(|| async {
            ApiError::new(StatusCode::NOT_FOUND, Kind::NotFound, "no such page or endpoint")
        })
        .with_state(shared)
}

fn page(content_type: &'static str, text: &'static str) -> Response {
    ([(header::CONTENT_TYPE, content_type), (header::CACHE_CONTROL, "no-cache")], text).into_response()
}

fn json_response(status: StatusCode, bytes: Vec<u8>) -> Response {
    (status, [(header::CONTENT_TYPE, "application/json")], Body::from(bytes)).into_response()
}

/// A JSON body, or the error document: 413 over the body limit, 415 without a JSON content
/// type, 400 otherwise.
fn body<T>(body: Result<Json<T>, JsonRejection>) -> Result<T, ApiError> {
    body.map(|Json(t)| t).map_err(|rejection| {
        // A body that is JSON but not of the endpoint's shape is a bad request too (axum says 422).
        let status = match rejection.status() {
            StatusCode::UNPROCESSABLE_ENTITY => StatusCode::BAD_REQUEST,
            status => status,
        };
        let kind = if status == StatusCode::PAYLOAD_TOO_LARGE { Kind::TooLarge } else { Kind::Usage };
        ApiError::new(status, kind, rejection.body_text())
    })
}

fn query<T>(query: Result<Query<T>, QueryRejection>) -> Result<T, ApiError> {
    query.map(|Query(t)| t).map_err(|rejection| ApiError::bad_request(rejection.body_text()))
}

/// Runs `work` as one job of the server ([`admission::run`]): within the request's deadline,
/// once a job slot is free.
async fn blocking<T: Send + 'static>(
    shared: &Arc<Shared>,
    work: impl FnOnce(Job) -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    admission::run(shared, Instant::now(), work).await
}

/// The puzzle of a request's RON text, or the error with its line and column.
fn parse(source: &str, file: &str) -> Result<Puzzle, ApiError> {
    modsolve::parse_puzzle(source).map_err(|e| {
        let mut error = ApiError::from(modsolve::Error::Input(e));
        error.file = Some(file.to_string());
        error
    })
}

/// The timeout of a job's work: what is left of the request's deadline less the bounded
/// work's own margin (it may run 10 % and 0.2 s over its time, and the answer is still to be
/// written), so that the answer leaves before the deadline.
fn timeout(job: &Job) -> std::time::Duration {
    job.remaining().saturating_sub(std::time::Duration::from_millis(300)).div_f64(1.1)
}

/// The time a job's best-effort search may take: the server's budget, within the timeout.
fn time(job: &Job) -> std::time::Duration {
    job.shared.config.budget.min(timeout(job))
}

fn options(job: &Job) -> modsolve::Options {
    modsolve::Options::default()
        .budget(Budget::of_time(time(job)))
        .timeout(Some(timeout(job)))
        .max_memory(Some(job.shared.memory_limit()))
}

fn check_options(job: &Job) -> CheckOptions {
    CheckOptions::default()
        .budget(Budget::of_time(time(job)))
        .timeout(Some(timeout(job)))
        .max_memory(Some(job.shared.memory_limit()))
}

/// Reserves the memory a solve of `puzzle` takes ([`Job::reserve`]).
fn reserve_solve(job: &mut Job, puzzle: &Puzzle) -> Result<(), ApiError> {
    let estimate = modsolve::analysis::memory_estimate(puzzle, &options(job));
    job.reserve(estimate)
}

fn default_file() -> String {
    "playground.ron".into()
}

async fn palette() -> Json<Value> {
    Json(json!({
        "version": SCHEMA_VERSION,
        "palette": modsolve::report::svg::PALETTE,
        "text_cell_limit": modsolve::report::svg::TEXT_CELL_LIMIT,
    }))
}

/// `GET /api/files`: every `.ron` file of the directory checked, as `check --json` prints it
/// for several files.
async fn files(State(shared): Shared_) -> Result<Json<Value>, ApiError> {
    blocking(&shared, move |job| {
        let names = paths::level_files(&job.shared.dir)
            .map_err(|e| ApiError::internal(format!("cannot list the directory: {e}")))?;
        let options = check_options(&job);
        let results = modsolve::bounded::in_parallel(&names, |name| check_file(&job.shared, name, &options));
        let mut summary = modsolve::report::batch::Summary::default();
        let mut objects = Vec::new();
        for (object, verdict) in results {
            summary.add(verdict);
            objects.push(object);
        }
        Ok(Json(json!({"version": SCHEMA_VERSION, "files": objects, "summary": summary})))
    })
    .await
}

/// One file's object in the `check --json` batch, as the command line makes it.
fn check_file(shared: &Shared, name: &str, options: &CheckOptions) -> (CheckFile, Verdict) {
    let unreadable = |kind: Kind, message: String, position: Option<modsolve::error::Position>| {
        let object = json!({
            "kind": kind.as_str(), "file": name, "line": position.map(|p| p.line),
            "column": position.map(|p| p.column), "error": message,
        });
        (CheckFile::Unreadable(object), Verdict::Unreadable)
    };
    let source = match paths::existing(&shared.dir, name).ok().and_then(|path| {
        modsolve::input::read_source(&path, shared.config.max_body as u64).map_err(|e| e.to_string()).ok()
    }) {
        Some(source) => source,
        None => return unreadable(Kind::Io, format!("cannot read {name}"), None),
    };
    let puzzle = match modsolve::parse_puzzle(&source) {
        Ok(puzzle) => puzzle,
        Err(e) => return unreadable(Kind::Input, e.to_string(), e.position),
    };
    check_entry(name, &puzzle, &modsolve::check::check_within(&puzzle, options), false)
}

#[derive(Deserialize)]
struct PathQuery {
    path: String,
}

/// `GET /api/file?path=P`: the RON text of a file in the directory.
async fn file(
    State(shared): Shared_,
    q: Result<Query<PathQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let relative = query(q)?.path;
    let path = paths::existing(&shared.dir, &relative)?;
    let source = modsolve::input::read_source(&path, shared.config.max_body as u64)
        .map_err(|e| ApiError::new(StatusCode::BAD_REQUEST, Kind::Io, e.to_string()).with_file(&relative))?;
    Ok(([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], source).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AnalyseRequest {
    source: String,
    #[serde(default = "default_file")]
    file: String,
    start: Option<Vec<u64>>,
    target: Option<Vec<u64>>,
    moduli: Option<Vec<u64>>,
    layout: Option<Vec<[f64; 2]>>,
    graph: Option<EdgesEdit>,
    remove_node: Option<usize>,
}

/// The graph editor's graph: `cells` cells (as many as the puzzle has, or more: new cells are
/// added at the end) joined by `edges`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EdgesEdit {
    cells: usize,
    edges: Vec<(usize, usize)>,
}

/// The puzzle with the editor's changes, made by the library ([`modsolve::format::edit`]): the
/// graph, a node removed, new moduli (start and target reduced by them), a new start and
/// target, the layout. Returns the puzzle and its RON text (the request's own text when nothing
/// changed); only the changed fields of the designer's text are rewritten.
fn edited(request: &AnalyseRequest) -> Result<(Puzzle, String), ApiError> {
    use modsolve::format::edit::{self, EditError};
    let edit = edit::Edit {
        graph: request.graph.as_ref().map(|g| (g.cells, g.edges.clone())),
        remove_node: request.remove_node,
        moduli: request.moduli.clone(),
        start: request.start.clone(),
        target: request.target.clone(),
        layout: request.layout.clone(),
    };
    edit::apply(&request.source, &edit).map_err(|e| match e {
        EditError::Input(e) => {
            let mut error = ApiError::from(modsolve::Error::Input(e));
            error.file = Some(request.file.clone());
            error
        }
        e => ApiError::bad_request(e.to_string()),
    })
}

/// The answer of `POST /api/analyse`: the (edited) puzzle's text, its board and the library's
/// solve document, serialised once, in this order.
#[derive(serde::Serialize)]
struct Analysed<'a> {
    version: u32,
    file: &'a str,
    source: &'a str,
    /// What the page needs to draw the puzzle (the library's board document, which exports
    /// embed too).
    board: modsolve::export::Board,
    solve: &'a modsolve::SolveReport,
}

/// `POST /api/analyse`: the board and the solve document, serialised straight into the
/// response's bytes (a big board's plan is never built as JSON values).
async fn analyse(
    State(shared): Shared_,
    request: Result<Json<AnalyseRequest>, JsonRejection>,
) -> Result<Response, ApiError> {
    let request = body(request)?;
    blocking(&shared, move |mut job| {
        let (puzzle, source) = edited(&request)?;
        reserve_solve(&mut job, &puzzle)?;
        let report = modsolve::analyse(&puzzle, &options(&job))?;
        let answer = Analysed {
            version: SCHEMA_VERSION,
            file: &request.file,
            source: &source,
            board: modsolve::export::board(&puzzle),
            solve: &report,
        };
        let bytes = serde_json::to_vec(&answer).map_err(|e| ApiError::internal(e.to_string()))?;
        Ok(json_response(StatusCode::OK, bytes))
    })
    .await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewRequest {
    form: String,
    #[serde(default = "five")]
    rows: usize,
    #[serde(default = "five")]
    cols: usize,
    #[serde(default = "three")]
    size: usize,
    #[serde(default = "five")]
    cells: usize,
    #[serde(default)]
    modulus: Option<Value>,
    #[serde(default = "one_i64", rename = "self")]
    self_weight: i64,
    #[serde(default = "one_i64")]
    neighbors: i64,
    #[serde(default)]
    wrap: bool,
    neighborhood: Option<String>,
    stencil: Option<Vec<String>>,
    mask: Option<Vec<String>>,
    buttons: Option<Vec<Vec<(usize, i64)>>>,
    start: Option<u64>,
}

fn five() -> usize {
    5
}

fn three() -> usize {
    3
}

fn one_i64() -> i64 {
    1
}

impl NewRequest {
    /// The library's spec of the request, or why it is not one.
    fn spec(self) -> Result<modsolve::scaffold::Spec, String> {
        use modsolve::model::Neighborhood;
        use modsolve::scaffold::{Form, GridPress, Moduli, Spec, Start};
        let mask = self.mask.filter(|rows| !rows.is_empty());
        let form = match self.form.as_str() {
            "grid" => Form::Grid {
                rows: self.rows,
                cols: self.cols,
                wrap: self.wrap,
                press: match self.neighborhood.as_deref().unwrap_or("Cross") {
                    "Cross" => GridPress::Named(Neighborhood::Cross),
                    "King" => GridPress::Named(Neighborhood::King),
                    "Knight" => GridPress::Named(Neighborhood::Knight),
                    "Stencil" => GridPress::Stencil(self.stencil.unwrap_or_default()),
                    other => {
                        return Err(format!(
                            "`neighborhood` is {other:?}: one of Cross, King, Knight, Stencil"
                        ));
                    }
                },
                mask,
            },
            "hex" => Form::Hex { rows: self.rows, cols: self.cols, mask },
            "cube" => Form::Cube(self.size),
            "path" => Form::Path(self.cells),
            "cycle" => Form::Cycle(self.cells),
            "graph" | "edges" => Form::Edges(self.cells),
            "explicit" | "buttons" | "cells" => {
                Form::Cells(self.cells, self.buttons.filter(|b| !b.is_empty()))
            }
            other => {
                return Err(format!(
                    "`form` is {other:?}: one of grid, hex, cube, path, cycle, graph, explicit"
                ));
            }
        };
        let moduli = match self.modulus {
            None => Moduli::One(2),
            Some(Value::Number(n)) => Moduli::One(n.as_u64().ok_or("`modulus` is a whole number from 2")?),
            Some(Value::String(text)) => text.parse().map_err(|e| format!("`modulus`: {e}"))?,
            Some(_) => return Err("`modulus` is a number or text such as \"7,8,7,6\"".into()),
        };
        let start = self.start.map_or(Start::OnePress, Start::All);
        Ok(Spec { form, moduli, press: (self.self_weight, self.neighbors), start })
    }
}

/// `POST /api/new`: the text of a new puzzle, made by the library as `modsolve new` makes it.
async fn new_puzzle(
    State(shared): Shared_,
    request: Result<Json<NewRequest>, JsonRejection>,
) -> Result<Json<Value>, ApiError> {
    let spec = body(request)?.spec().map_err(ApiError::bad_request)?;
    blocking(&shared, move |_job| {
        let (_, source) = modsolve::scaffold::new_puzzle(&spec).map_err(|e| match e {
            modsolve::scaffold::StarterError::Invalid(e) => ApiError::from(modsolve::Error::Input(e)),
            e => ApiError::bad_request(e.to_string()),
        })?;
        Ok(Json(json!({"version": SCHEMA_VERSION, "source": source, "file": spec.file_name()})))
    })
    .await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SourceRequest {
    source: String,
    #[serde(default = "default_file")]
    file: String,
}

/// `POST /api/check`: the `check --json` document of one puzzle.
async fn check(
    State(shared): Shared_,
    request: Result<Json<SourceRequest>, JsonRejection>,
) -> Result<Json<Value>, ApiError> {
    let request = body(request)?;
    blocking(&shared, move |mut job| {
        let puzzle = parse(&request.source, &request.file)?;
        job.reserve(modsolve::check::memory_estimate(&puzzle))?;
        let report = modsolve::check::check_within(&puzzle, &check_options(&job))?;
        let (object, _) = check_entry(&request.file, &puzzle, &Ok(report), false);
        Ok(Json(modsolve::report::batch::batch_json(vec![object], None)))
    })
    .await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PressedRequest {
    source: String,
    #[serde(default = "default_file")]
    file: String,
    #[serde(default)]
    pressed: Vec<usize>,
    #[serde(default)]
    steps: bool,
}

/// The most presses a request may replay.
const PRESSED_LIMIT: usize = 1_000_000;

fn check_pressed(pressed: &[usize], puzzle: &Puzzle) -> Result<(), ApiError> {
    if pressed.len() > PRESSED_LIMIT {
        return Err(ApiError::bad_request(format!("more than {PRESSED_LIMIT} presses")));
    }
    if let Some(&j) = pressed.iter().find(|&&j| j >= puzzle.button_count()) {
        return Err(ApiError::bad_request(format!(
            "`pressed` names button {j}, but the puzzle has {} buttons (0 to {})",
            puzzle.button_count(),
            puzzle.button_count().saturating_sub(1)
        )));
    }
    Ok(())
}

/// `POST /api/hint`: the `hint --json` document.
async fn hint(
    State(shared): Shared_,
    request: Result<Json<PressedRequest>, JsonRejection>,
) -> Result<Json<modsolve::report::HintReport>, ApiError> {
    let request = body(request)?;
    blocking(&shared, move |mut job| {
        let puzzle = parse(&request.source, &request.file)?;
        check_pressed(&request.pressed, &puzzle)?;
        reserve_solve(&mut job, &puzzle)?;
        let options = HintOptions::default().analysis(options(&job)).steps(request.steps);
        let hint = modsolve::hint::hint(&puzzle, &request.pressed, &options)?;
        Ok(Json(modsolve::report::HintReport::new(&puzzle, &hint)))
    })
    .await
}

/// `POST /api/state`: the board after the presses, replayed under the puzzle's rule.
async fn state(
    State(shared): Shared_,
    request: Result<Json<PressedRequest>, JsonRejection>,
) -> Result<Json<Value>, ApiError> {
    let request = body(request)?;
    blocking(&shared, move |_job| {
        let puzzle = parse(&request.source, &request.file)?;
        check_pressed(&request.pressed, &puzzle)?;
        let position = modsolve::hint::position(&puzzle, &request.pressed)
            .map_err(|e| ApiError::from(modsolve::Error::Input(e)))?;
        let state = position.start().to_vec();
        let solved = state == puzzle.target().to_vec();
        Ok(Json(
            json!({"version": SCHEMA_VERSION, "pressed": request.pressed, "state": state, "solved": solved}),
        ))
    })
    .await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GenerateBody {
    source: String,
    #[serde(default = "default_file")]
    file: String,
    count: usize,
    #[serde(default = "one")]
    seed: u64,
    #[serde(default)]
    unique: bool,
    par: Option<(u64, u64)>,
    strategy: Option<String>,
    scramble: Option<u64>,
    attempts: Option<usize>,
    #[serde(default)]
    deny_warnings: bool,
}

fn one() -> u64 {
    1
}

/// The most levels one request makes, and the most candidates it tries.
const GENERATE_LIMIT: usize = 100;
const ATTEMPT_LIMIT: usize = 200_000;

/// `POST /api/generate`: the `generate --json` document, each level with its RON text (nothing
/// is written: `/api/save` keeps the chosen ones). The levels are named `level-0001.ron`, … as
/// the command line names them.
async fn generate(
    State(shared): Shared_,
    request: Result<Json<GenerateBody>, JsonRejection>,
) -> Result<Json<Value>, ApiError> {
    let request = body(request)?;
    if request.count == 0 || request.count > GENERATE_LIMIT {
        return Err(ApiError::bad_request(format!("`count` must be 1 to {GENERATE_LIMIT}")));
    }
    let strategy: StrategyChoice = match request.strategy.as_deref() {
        None => StrategyChoice::default(),
        Some(name) => name.parse().map_err(|e: UnknownName| ApiError::bad_request(e.to_string()))?,
    };
    blocking(&shared, move |mut job| {
        let template = parse(&request.source, &request.file)?;
        let asked = GenerateRequest {
            template: request.file.clone(),
            count: request.count,
            seed: request.seed,
            unique: request.unique,
            par: request.par,
            strategy,
            // No number given: the run is bounded by the default budget's counted work (and
            // the attempts by the server's limit below).
            attempts: request.attempts.map(|a| a.min(ATTEMPT_LIMIT)),
            scramble: request.scramble,
            deny_warnings: request.deny_warnings,
            max_memory: Some(job.shared.memory_limit()),
        };
        job.reserve(modsolve::generate::memory_estimate(&template, rayon::current_num_threads()))?;
        let spec =
            prepare_generation(&template, &asked, rayon::current_num_threads()).map_err(|e| match e {
                Refusal::OverMemory(e) => ApiError::from(modsolve::Error::from(e)),
                Refusal::Infeasible(reason) => ApiError::bad_request(reason.to_string()),
                Refusal::Internal(e) => ApiError::from(modsolve::Error::from(e)),
            })?;
        let mut spec = spec;
        spec.attempts = spec.attempts.min(ATTEMPT_LIMIT);
        let timeout = Some((job.shared.config.budget * 4).min(timeout(&job)));
        let (count, par, scramble) = (asked.count, asked.par, asked.scramble);
        let run = move || modsolve::request::generate_report(&template, &asked, &spec);
        let report: GenerateReport =
            modsolve::bounded::within_timeout(timeout, run).map_err(ApiError::from)??;
        let advice = (report.found < count).then(|| {
            let batch = modsolve::generate::Batch {
                found: report.found,
                tried: report.tried,
                out_of_work: report.out_of_work,
                pars: report.pars,
            };
            // The page's form names the fields as the request does.
            modsolve::request::shortfall(&batch, count, par, scramble, str::to_string)
        });
        let mut document = serde_json::to_value(&report).map_err(|e| ApiError::internal(e.to_string()))?;
        if let (Some(advice), Some(object)) = (advice, document.as_object_mut()) {
            object.insert("advice".into(), Value::String(advice));
        }
        Ok(Json(document))
    })
    .await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct HistogramRequest {
    source: String,
    #[serde(default = "default_file")]
    file: String,
    #[serde(default = "default_samples")]
    samples: usize,
    #[serde(default = "one")]
    seed: u64,
}

fn default_samples() -> usize {
    200
}

/// `POST /api/histogram`: the par of random solvable starts, as `check --par-histogram --json`.
async fn histogram(
    State(shared): Shared_,
    request: Result<Json<HistogramRequest>, JsonRejection>,
) -> Result<Json<Value>, ApiError> {
    let request = body(request)?;
    blocking(&shared, move |mut job| {
        let template = parse(&request.source, &request.file)?;
        // Its peak, the samples of every core at once included: overlapping requests share
        // the server's memory budget by what they hold, not by one solve each.
        job.reserve(modsolve::generate::histogram_memory_estimate(&template))?;
        // As the command line's `check --par-histogram` takes it, within the server's time;
        // the timeout bounds the whole of it (its set-up solve too), so the answer leaves
        // within the request's deadline however many requests share the cores.
        let spec = modsolve::request::HistogramSpec {
            budget: Budget::of_time(time(&job)),
            samples: request.samples,
            seed: request.seed,
            timeout: Some(timeout(&job)),
            max_memory: Some(job.shared.memory_limit()),
        };
        let asked = spec.asked().map_err(|e| ApiError::bad_request(e.to_string()))?;
        let histogram = spec.histogram(&template, &asked, asked.bound.end(Instant::now()))?;
        let object = modsolve::report::batch::HistogramEntry::new(&request.file, &histogram, &asked);
        Ok(Json(modsolve::report::batch::batch_json(vec![object], None)))
    })
    .await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DistributionRequest {
    source: String,
    #[serde(default = "default_file")]
    file: String,
    #[serde(default = "default_exact_limit")]
    exact_limit: u64,
    #[serde(default = "default_distribution_samples")]
    samples: usize,
    #[serde(default = "one")]
    seed: u64,
    #[serde(default = "default_confidence")]
    confidence: f64,
}

fn default_exact_limit() -> u64 {
    modsolve::difficulty::DEFAULT_EXACT_LIMIT
}

fn default_distribution_samples() -> usize {
    modsolve::difficulty::DEFAULT_SAMPLES
}

fn default_confidence() -> f64 {
    modsolve::difficulty::DEFAULT_CONFIDENCE
}

/// `POST /api/distribution`: the par distribution of a template, as `check --par-distribution
/// --json` prints it (exact up to `exact_limit` solvable starts, sampled beyond, within the
/// server's budget).
async fn distribution(
    State(shared): Shared_,
    request: Result<Json<DistributionRequest>, JsonRejection>,
) -> Result<Json<Value>, ApiError> {
    let request = body(request)?;
    blocking(&shared, move |mut job| {
        let template = parse(&request.source, &request.file)?;
        let spec = modsolve::request::DistributionSpec {
            budget: Budget::of_time(time(&job)),
            exact_limit: request.exact_limit,
            samples: request.samples,
            seed: request.seed,
            confidence: request.confidence,
            timeout: Some(timeout(&job)),
            max_memory: Some(job.shared.memory_limit()),
        };
        let options = spec.options().map_err(|e| ApiError::bad_request(e.to_string()))?;
        // Its peak: the exact search's encoding, or the samples of every core at once.
        job.reserve(modsolve::difficulty::memory_estimate(&template, &options))?;
        let distribution = modsolve::difficulty::par_distribution(&template, &options)?;
        let object = modsolve::report::batch::DistributionEntry::new(&request.file, &distribution);
        Ok(Json(modsolve::report::batch::batch_json(vec![object], None)))
    })
    .await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SaveRequest {
    path: String,
    source: String,
    #[serde(default)]
    overwrite: bool,
}

/// `POST /api/save`: a valid puzzle written (atomically) into the directory.
async fn save(
    State(shared): Shared_,
    request: Result<Json<SaveRequest>, JsonRejection>,
) -> Result<Json<Value>, ApiError> {
    let request = body(request)?;
    let target = paths::writable(&shared.dir, &request.path)?;
    blocking(&shared, move |_job| {
        parse(&request.source, &request.path)?;
        modsolve::generate::write_atomically(&target, request.source.as_bytes(), request.overwrite).map_err(
            |e| {
                if e.kind() == std::io::ErrorKind::AlreadyExists {
                    ApiError::new(
                        StatusCode::CONFLICT,
                        Kind::Exists,
                        format!("`{}` exists (save with overwrite to replace it)", request.path),
                    )
                    .with_file(&request.path)
                } else if e.kind() == std::io::ErrorKind::InvalidFilename {
                    // A name the file system refuses (too long for it, say): the request's fault.
                    ApiError::bad_request(format!("cannot save as `{}`: {e}", request.path))
                } else {
                    ApiError::new(
                        StatusCode::INTERNAL_SERVER_ERROR,
                        Kind::Io,
                        format!("cannot write `{}`: {e}", request.path),
                    )
                }
            },
        )?;
        Ok(Json(json!({"version": SCHEMA_VERSION, "saved": request.path})))
    })
    .await
}

/// The board at the position the presses reach, with the fewest plan from there.
fn svg(job: &mut Job, puzzle: &Puzzle, pressed: &[usize]) -> Result<Response, ApiError> {
    check_pressed(pressed, puzzle)?;
    let position =
        modsolve::hint::position(puzzle, pressed).map_err(|e| ApiError::from(modsolve::Error::Input(e)))?;
    reserve_solve(job, &position)?;
    let report = modsolve::analyse(&position, &options(job))?;
    let plan: Option<Vec<BigUint>> = report.fewest.as_ref().map(|p| p.presses.to_big());
    let text = modsolve::report::svg::board_svg(&position, &position.start().to_vec(), plan.as_deref());
    Ok(([(header::CONTENT_TYPE, "image/svg+xml")], text).into_response())
}

/// `GET /api/svg?path=P`: a file's board with its fewest plan.
async fn svg_of_file(
    State(shared): Shared_,
    q: Result<Query<PathQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let relative = query(q)?.path;
    let path = paths::existing(&shared.dir, &relative)?;
    blocking(&shared, move |mut job| {
        let source = modsolve::input::read_source(&path, job.shared.config.max_body as u64).map_err(|e| {
            ApiError::new(StatusCode::BAD_REQUEST, Kind::Io, e.to_string()).with_file(&relative)
        })?;
        let puzzle = parse(&source, &relative)?;
        svg(&mut job, &puzzle, &[])
    })
    .await
}

/// `POST /api/svg`: the board of a RON text after the presses, with the fewest plan from there.
async fn svg_of_source(
    State(shared): Shared_,
    request: Result<Json<PressedRequest>, JsonRejection>,
) -> Result<Response, ApiError> {
    let request = body(request)?;
    blocking(&shared, move |mut job| {
        let puzzle = parse(&request.source, &request.file)?;
        svg(&mut job, &puzzle, &request.pressed)
    })
    .await
}

/// `POST /api/export`: the level as the page `modsolve export FILE --html` writes, as a download
/// named after the file. An unsolvable level is refused (400, `unsolvable`).
async fn export(
    State(shared): Shared_,
    request: Result<Json<SourceRequest>, JsonRejection>,
) -> Result<Response, ApiError> {
    use modsolve::export::{Document, ExportError, ExportOptions};
    let request = body(request)?;
    blocking(&shared, move |mut job| {
        let puzzle = parse(&request.source, &request.file)?;
        reserve_solve(&mut job, &puzzle)?;
        let options = ExportOptions::default().analysis(options(&job)).mean_par(false);
        let level = modsolve::export::level(&puzzle, &request.file, &options).map_err(|e| match e {
            ExportError::Unsolvable => {
                ApiError::new(StatusCode::BAD_REQUEST, Kind::Unsolvable, e.to_string())
                    .with_file(&request.file)
            }
            ExportError::TooLarge { .. } => {
                ApiError::new(StatusCode::BAD_REQUEST, Kind::Input, e.to_string()).with_file(&request.file)
            }
            ExportError::Undecided => ApiError::from(modsolve::Error::TimedOut),
            ExportError::Analysis(e) => ApiError::from(e),
            _ => ApiError::internal(e.to_string()),
        })?;
        let page = crate::page::html(&Document::single(level));
        let stem = request.file.rsplit(['/', '\\']).next().unwrap_or("level");
        let stem = stem.strip_suffix(".ron").unwrap_or(stem);
        let safe: String =
            stem.chars().filter(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.')).collect();
        let name = if safe.is_empty() { "level".to_string() } else { safe };
        let disposition = format!("attachment; filename=\"{name}.html\"");
        Ok((
            [
                (header::CONTENT_TYPE, "text/html; charset=utf-8".to_string()),
                (header::CONTENT_DISPOSITION, disposition),
            ],
            page,
        )
            .into_response())
    })
    .await
}
