//! The endpoints. Puzzle endpoints take JSON bodies with the puzzle's RON text in `source` (and
//! an optional `file`, the name errors and reports give it).
//!
//! | endpoint | takes | answers |
//! | --- | --- | --- |
//! | `GET /` (and `/app.js`, `/board.js`, `/style.css`) | | the page |
//! | `GET /api/palette` | | the board colours ([`modsolve::report::svg::PALETTE`]) |
//! | `GET /api/files` | | the `check --json` document of every `.ron` file in the directory |
//! | `GET /api/file?path=P` | | the file's RON text |
//! | `POST /api/analyse` | `source`, optional `start`, `target`, `moduli`, `layout` (a centre `[x, y]` per cell, written back as the file's `layout:`), `graph` (`{"cells", "edges"}`: the graph editor's `Edges` graph) | `{"version", "file", "source", "board", "solve"}`: the board to draw (with `edges` for a graph without a picture) and the `--json` solve document |
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
        .route("/api/check", post(check))
        .route("/api/hint", post(hint))
        .route("/api/state", post(state))
        .route("/api/generate", post(generate))
        .route("/api/histogram", post(histogram))
        .route("/api/distribution", post(distribution))
        .route("/api/save", post(save))
        .route("/api/svg", get(svg_of_file).post(svg_of_source))
        .route("/api/export", post(export))
        .fallback(|| async { ApiError::new(StatusCode::NOT_FOUND, "not-found", "no such page or endpoint") })
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
        let kind = if status == StatusCode::PAYLOAD_TOO_LARGE { "too-large" } else { "usage" };
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
    modsolve::Options {
        budget: Budget::of_time(time(job)),
        timeout: Some(timeout(job)),
        max_memory: Some(job.shared.memory_limit()),
        ..modsolve::Options::default()
    }
}

fn check_options(job: &Job) -> CheckOptions {
    CheckOptions {
        budget: Budget::of_time(time(job)),
        timeout: Some(timeout(job)),
        max_memory: Some(job.shared.memory_limit()),
    }
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
    let unreadable = |kind: &str, message: String, position: Option<modsolve::error::Position>| {
        let object = json!({
            "kind": kind, "file": name, "line": position.map(|p| p.line),
            "column": position.map(|p| p.column), "error": message,
        });
        (CheckFile::Unreadable(object), Verdict::Unreadable)
    };
    let source = match paths::existing(&shared.dir, name).ok().and_then(|path| {
        modsolve::input::read_source(&path, shared.config.max_body as u64).map_err(|e| e.to_string()).ok()
    }) {
        Some(source) => source,
        None => return unreadable("io", format!("cannot read {name}"), None),
    };
    let puzzle = match modsolve::parse_puzzle(&source) {
        Ok(puzzle) => puzzle,
        Err(e) => return unreadable("input", e.to_string(), e.position),
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
        .map_err(|e| ApiError::new(StatusCode::BAD_REQUEST, "io", e.to_string()).with_file(&relative))?;
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
}

/// The graph editor's graph: `cells` cells (as many as the puzzle has, or more: new cells are
/// added at the end) joined by `edges`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EdgesEdit {
    cells: usize,
    edges: Vec<(usize, usize)>,
}

/// The most cells the graph editor works on (a graph drawn by hand is small).
const GRAPH_EDIT_LIMIT: usize = 4096;

/// The text with its `graph` replaced by the editor's `Edges` graph. Cells added at the end take
/// the last cell's modulus, start and target 0 (lists written as lists are lengthened; `All(…)`
/// and single numbers cover the new cells as they are).
fn with_edges(
    text: &str,
    file: &str,
    puzzle: &Puzzle,
    graph: &EdgesEdit,
) -> Result<(Puzzle, String), ApiError> {
    let old = puzzle.cell_count();
    if puzzle.topology().picture_size().is_some() || !puzzle.buttons_are_cells() {
        return Err(ApiError::bad_request(
            "the graph editor works on graphs drawn without a picture whose buttons are the cells (Path, Cycle, Edges)",
        ));
    }
    if graph.cells < old || graph.cells > GRAPH_EDIT_LIMIT {
        return Err(ApiError::bad_request(format!(
            "`graph.cells` must be from {old} (the cells there are) to {GRAPH_EDIT_LIMIT}"
        )));
    }
    let edges: Vec<String> = graph.edges.iter().map(|(a, b)| format!("({a}, {b})")).collect();
    let value = format!("Edges(cells: {}, edges: [{}])", graph.cells, edges.join(", "));
    let unreadable = || ApiError::bad_request("the text is not a `Puzzle(…)` whose graph can be replaced");
    let mut text = modsolve::format::with_field(text, "graph", &value).ok_or_else(unreadable)?;
    let added = graph.cells - old;
    if added > 0 {
        let list = |values: Vec<String>| format!("[{}]", values.join(", "));
        let numbers = |values: Vec<u64>, fill: u64| {
            list(values.into_iter().chain(std::iter::repeat_n(fill, added)).map(|v| v.to_string()).collect())
        };
        let moduli = puzzle.moduli().to_vec();
        let last = moduli.last().copied().unwrap_or(2);
        let mut lists = vec![
            ("modulus", numbers(moduli, last)),
            ("start", numbers(puzzle.start().to_vec(), 0)),
            ("target", numbers(puzzle.target().to_vec(), 0)),
        ];
        if let Some(intended) = puzzle.intended() {
            lists.push(("intended", numbers(intended.to_vec(), 0)));
        }
        if let Some(limits) = puzzle.max_presses() {
            let most = limits.iter().copied().max().unwrap_or(0);
            lists.push(("max_presses", numbers(limits.to_vec(), most)));
        }
        // New cells (and their buttons) are named by their number, made unlike every other name.
        for (key, labels) in [("labels", puzzle.labels()), ("button_labels", puzzle.button_labels())] {
            if let Some(labels) = labels {
                let mut names = labels.to_vec();
                for i in old..graph.cells {
                    let mut name = i.to_string();
                    while names.contains(&name) {
                        name.push('\'');
                    }
                    names.push(name);
                }
                lists.push((key, list(names.iter().map(|name| format!("{name:?}")).collect())));
            }
        }
        if let Some(layout) = puzzle.layout() {
            // The designer's drawing keeps its places; new cells go in a row under it.
            let points = layout.points();
            let left = points.iter().map(|p| p[0]).fold(f64::INFINITY, f64::min);
            let below = points.iter().map(|p| p[1]).fold(f64::NEG_INFINITY, f64::max) + 1.5;
            let added_points = (0..added).map(|k| [left + 1.5 * k as f64, below]);
            let all: Vec<[f64; 2]> = points.iter().copied().chain(added_points).collect();
            text = modsolve::format::with_field(&text, "layout", &modsolve::format::layout_text(&all))
                .ok_or_else(unreadable)?;
        }
        for (key, value) in lists {
            if modsolve::format::field_text(&text, key)
                .is_some_and(|written| written.trim_start().starts_with('['))
            {
                text = modsolve::format::with_field(&text, key, &value).ok_or_else(unreadable)?;
            }
        }
    }
    Ok((parse(&text, file)?, text))
}

/// The puzzle with the editor's changes: new moduli (start and target reduced by them), then a
/// new start and target. Returns the puzzle and its RON text (the request's own text when
/// nothing changed). Only the changed fields of the designer's text are rewritten, so comments,
/// the name, the intended plan and press limits stay; when that text does not read (an intended
/// plan or a press limit the new moduli rule out), the whole puzzle is written anew without
/// those two fields.
fn edited(request: &AnalyseRequest) -> Result<(Puzzle, String), ApiError> {
    let mut puzzle = parse(&request.source, &request.file)?;
    let mut source = None;
    let invalid = |e: modsolve::InputError| ApiError::from(modsolve::Error::Input(e));
    if let Some(graph) = &request.graph {
        let (again, text) = with_edges(&request.source, &request.file, &puzzle, graph)?;
        puzzle = again;
        source = Some(text);
    }
    if let Some(moduli) = &request.moduli {
        if moduli.len() != puzzle.cell_count() {
            return Err(ApiError::bad_request(format!(
                "`moduli` has {} values for {} cells",
                moduli.len(),
                puzzle.cell_count()
            )));
        }
        let reduce = |values: Vec<u64>| -> Vec<u64> {
            values.iter().zip(moduli).map(|(&v, &m)| if m == 0 { v } else { v % m }).collect()
        };
        puzzle = puzzle.with_start(reduce(puzzle.start().to_vec())).map_err(invalid)?;
        puzzle = puzzle.with_target(reduce(puzzle.target().to_vec())).map_err(invalid)?;
        let list: Vec<String> = moduli.iter().map(u64::to_string).collect();
        let list = format!("[{}]", list.join(", "));
        let text = source.as_deref().unwrap_or(&request.source);
        let in_place = modsolve::format::with_field(text, "modulus", &list)
            .and_then(|text| with_state(&text, &puzzle))
            .and_then(|text| Some((parse(&text, &request.file).ok()?, text)));
        let (again, text) = match in_place {
            Some(done) => done,
            None => {
                let text: String = modsolve::format::to_ron(&puzzle, "")
                    .lines()
                    .filter(|line| {
                        !line.starts_with("    intended:") && !line.starts_with("    max_presses:")
                    })
                    .map(|line| {
                        if line.starts_with("    modulus:") {
                            format!("    modulus: {list},\n")
                        } else {
                            format!("{line}\n")
                        }
                    })
                    .collect();
                (parse(&text, &request.file)?, text)
            }
        };
        puzzle = again;
        source = Some(text);
    }
    if let Some(start) = &request.start {
        check_length("start", start, &puzzle)?;
        puzzle = puzzle.with_start(start.clone()).map_err(invalid)?;
    }
    if let Some(target) = &request.target {
        check_length("target", target, &puzzle)?;
        puzzle = puzzle.with_target(target.clone()).map_err(invalid)?;
    }
    if request.start.is_some() || request.target.is_some() {
        let text = source.as_deref().unwrap_or(&request.source);
        let in_place =
            with_state(text, &puzzle).filter(|text| parse(text, &request.file).is_ok_and(|p| p == puzzle));
        source = Some(in_place.unwrap_or_else(|| modsolve::format::to_ron(&puzzle, "")));
    }
    if let Some(layout) = &request.layout {
        // A designer moved a cell: `layout:` set in place (added when the file has none).
        puzzle = puzzle.with_layout(Some(layout.clone())).map_err(invalid)?;
        let text = source.as_deref().unwrap_or(&request.source);
        let in_place = modsolve::format::with_field(text, "layout", &modsolve::format::layout_text(layout))
            .filter(|text| parse(text, &request.file).is_ok_and(|p| p == puzzle));
        source = Some(in_place.unwrap_or_else(|| modsolve::format::to_ron(&puzzle, "")));
    }
    Ok((puzzle, source.unwrap_or_else(|| request.source.clone())))
}

/// `text` with its `start` and `target` set to the puzzle's, written as the library writes
/// them (pictures on boards).
fn with_state(text: &str, puzzle: &Puzzle) -> Option<String> {
    let written = modsolve::format::to_ron(puzzle, "");
    let text = modsolve::format::with_field(text, "start", modsolve::format::field_text(&written, "start")?)?;
    modsolve::format::with_field(&text, "target", modsolve::format::field_text(&written, "target")?)
}

fn check_length(field: &str, values: &[u64], puzzle: &Puzzle) -> Result<(), ApiError> {
    if values.len() != puzzle.cell_count() {
        return Err(ApiError::bad_request(format!(
            "`{field}` has {} values for {} cells",
            values.len(),
            puzzle.cell_count()
        )));
    }
    Ok(())
}

/// What the page needs to draw a puzzle (the library's board document, which exports embed too).
fn board_json(puzzle: &Puzzle) -> Value {
    serde_json::to_value(modsolve::export::board(puzzle)).unwrap_or(Value::Null)
}

/// `POST /api/analyse`: the board and the solve document, written without building the plan as
/// JSON values (a big board's plan streams straight into the response).
async fn analyse(
    State(shared): Shared_,
    request: Result<Json<AnalyseRequest>, JsonRejection>,
) -> Result<Response, ApiError> {
    let request = body(request)?;
    blocking(&shared, move |mut job| {
        let (puzzle, source) = edited(&request)?;
        reserve_solve(&mut job, &puzzle)?;
        let report = modsolve::analyse(&puzzle, &options(&job))?;
        let head = json!({
            "version": SCHEMA_VERSION,
            "file": request.file,
            "source": source,
            "board": board_json(&puzzle),
        });
        let mut bytes = serde_json::to_vec(&head).map_err(|e| ApiError::internal(e.to_string()))?;
        bytes.pop(); // the closing brace
        bytes.extend_from_slice(br#","solve":"#);
        modsolve::report::write_json(&report, &mut bytes).map_err(|e| ApiError::internal(e.to_string()))?;
        bytes.push(b'}');
        Ok(json_response(StatusCode::OK, bytes))
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
        let options = HintOptions { analysis: options(&job), steps: request.steps };
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
                Refusal::Infeasible(reason) => {
                    ApiError::bad_request(crate::cli::generate::infeasible(&reason))
                }
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
            crate::cli::generate::rare(report.found, count, &batch, par, scramble)
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
    let samples = request.samples.min(100_000);
    blocking(&shared, move |mut job| {
        let template = parse(&request.source, &request.file)?;
        reserve_solve(&mut job, &template)?;
        // As the command line's `check --par-histogram` bounds it, with the server's budget.
        let (nodes, bound) = modsolve::difficulty::sampling_bounds(Budget::of_time(time(&job)));
        let histogram = modsolve::generate::par_histogram_within(
            &template,
            samples,
            request.seed,
            nodes,
            bound.end(Instant::now()),
            Some(job.shared.memory_limit()),
        )?;
        let asked = modsolve::report::batch::HistogramAsked { samples, nodes_per_sample: nodes, bound };
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
    1000
}

fn default_confidence() -> f64 {
    0.95
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
        reserve_solve(&mut job, &template)?;
        let spec = modsolve::request::DistributionSpec {
            budget: Budget::of_time(time(&job)),
            exact_limit: request.exact_limit,
            // The server's own bound, below the command line's.
            samples: request.samples.min(100_000),
            seed: request.seed,
            confidence: request.confidence,
            timeout: Some(timeout(&job)),
            max_memory: Some(job.shared.memory_limit()),
        };
        let options = spec.options().map_err(ApiError::bad_request)?;
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
                        "exists",
                        format!("`{}` exists (save with overwrite to replace it)", request.path),
                    )
                    .with_file(&request.path)
                } else if e.kind() == std::io::ErrorKind::InvalidFilename {
                    // A name the file system refuses (too long for it, say): the request's fault.
                    ApiError::bad_request(format!("cannot save as `{}`: {e}", request.path))
                } else {
                    ApiError::new(
                        StatusCode::INTERNAL_SERVER_ERROR,
                        "io",
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
        let source = modsolve::input::read_source(&path, job.shared.config.max_body as u64)
            .map_err(|e| ApiError::new(StatusCode::BAD_REQUEST, "io", e.to_string()).with_file(&relative))?;
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
        let options = ExportOptions { analysis: options(&job), mean_par: false };
        let level = modsolve::export::level(&puzzle, &request.file, &options).map_err(|e| match e {
            ExportError::Unsolvable => {
                ApiError::new(StatusCode::BAD_REQUEST, "unsolvable", e.to_string()).with_file(&request.file)
            }
            ExportError::TooLarge { .. } => {
                ApiError::new(StatusCode::BAD_REQUEST, "input", e.to_string()).with_file(&request.file)
            }
            ExportError::Undecided => ApiError::from(modsolve::Error::BudgetRanOut),
            ExportError::Analysis(e) => ApiError::from(e),
        })?;
        let page = crate::cli::export::html(&Document::single(level));
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
