//! `modsolve serve`: the designer's playground, a local web server (axum on tokio) with a page
//! to draw, solve and play puzzles, and a JSON API that speaks the command line's documents.
//!
//! The page (`web/`: HTML, CSS and ES modules) is embedded in the binary. Every endpoint that
//! works on a puzzle reads RON text as `modsolve FILE` does ([`modsolve::parse_puzzle`]) and
//! answers with the library's report functions, so its JSON is the `--json` document of the
//! matching command (see [`api`] for the list). Failures are the command line's JSON error
//! document ([`modsolve::report::error_json`]) with an HTTP status: 400 for a bad request or a
//! puzzle error (with its line and column), 403 for a path outside the served directory, 404,
//! 409 for a file that exists, 413 for a body or a job over the limit, 503 when the budget ran
//! out or the server is busy (with `Retry-After`).
//!
//! Safety: only the designer's own page may drive the server ([`guard`]: the `Host` must name
//! this server, a request's `Origin` must be the page's own, and the API needs the random token
//! of the start-up URL); only `.ron` files are read or written, and only inside the served
//! directory (paths are canonicalised and their prefix checked, in `paths.rs`); request bodies
//! are limited ([`Config::max_body`]). Every request is answered within [`Config::timeout`],
//! its wait for a job slot included, and its solve runs under the time budget off the async
//! threads (`spawn_blocking`), at most [`Config::jobs`] at a time; at most
//! [`Config::max_queue`] requests wait (one more is answered 503 with `Retry-After` at once),
//! and the running jobs share one memory budget ([`Config::max_memory`]), in `admission.rs`.

mod admission;
pub mod api;
pub mod guard;
mod paths;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

use modsolve::error::Position;

use crate::kind::Kind;

/// How the server runs.
#[derive(Clone, Debug)]
pub struct Config {
    /// The directory whose level files are listed, opened and written.
    pub dir: PathBuf,
    /// The time one solve, check, hint or generation may take.
    pub budget: Duration,
    /// The time within which every request is answered, its wait for a job slot included.
    pub timeout: Duration,
    /// The largest request body, in bytes.
    pub max_body: usize,
    /// The memory budget shared by all running jobs: the sum of their estimated peaks stays
    /// under it (`None`: a quarter of this machine's memory).
    pub max_memory: Option<u64>,
    /// How many jobs run at once; further requests wait their turn.
    pub jobs: usize,
    /// How many requests may wait for a job slot; one more is answered 503 at once.
    pub max_queue: usize,
    /// The token every API request must carry ([`guard`]); `None` opens the API to every
    /// request whose `Host` and `Origin` pass.
    pub token: Option<String>,
    /// Host names accepted in the `Host` header besides IP addresses and `localhost`.
    pub allowed_hosts: Vec<String>,
}

impl Config {
    /// The defaults for a directory: 5 s a solve, every request answered within 10 s, 16 MiB
    /// bodies, a quarter of the machine's memory shared by the jobs, two jobs a core at once,
    /// 32 requests waiting at most, a fresh random token ([`guard::new_token`]), no host names beyond
    /// `localhost`.
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        Config {
            dir: dir.into(),
            budget: Duration::from_secs(5),
            timeout: Duration::from_secs(10),
            max_body: 16 << 20,
            max_memory: None,
            jobs: std::thread::available_parallelism().map_or(2, |n| n.get() * 2),
            max_queue: 32,
            token: Some(guard::new_token()),
            allowed_hosts: Vec::new(),
        }
    }
}

/// What every handler shares.
pub(crate) struct Shared {
    /// The served directory, canonical.
    pub(crate) dir: PathBuf,
    pub(crate) config: Config,
    pub(crate) admission: admission::Admission,
    pub(crate) guard: guard::Guard,
}

impl Shared {
    /// The memory budget shared by the running jobs.
    pub(crate) fn memory_limit(&self) -> u64 {
        self.config.max_memory.unwrap_or_else(|| modsolve::memory::default_limit() / 2)
    }
}

/// A failed request: an HTTP status and the command line's JSON error document.
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    kind: Kind,
    message: String,
    file: Option<String>,
    position: Option<Position>,
    /// Seconds to send in `Retry-After` (with 503).
    retry_after: Option<u64>,
}

impl ApiError {
    pub(crate) fn new(status: StatusCode, kind: Kind, message: impl Into<String>) -> Self {
        ApiError { status, kind, message: message.into(), file: None, position: None, retry_after: None }
    }

    /// The same error, telling the client to try again after `seconds`.
    pub(crate) fn retry_after(mut self, seconds: u64) -> Self {
        self.retry_after = Some(seconds);
        self
    }

    /// 400: the request is not what the endpoint takes.
    pub(crate) fn bad_request(message: impl Into<String>) -> Self {
        ApiError::new(StatusCode::BAD_REQUEST, Kind::Usage, message)
    }

    /// 403: the path leaves the served directory.
    pub(crate) fn forbidden(path: &str) -> Self {
        ApiError::new(
            StatusCode::FORBIDDEN,
            Kind::Forbidden,
            format!("`{path}` is outside the served directory"),
        )
        .with_file(path)
    }

    /// 403: the path is not a level file; only `.ron` files are read or written.
    pub(crate) fn not_a_level(path: &str) -> Self {
        ApiError::new(
            StatusCode::FORBIDDEN,
            Kind::Forbidden,
            format!("`{path}` is not a level file: only .ron files are read or written"),
        )
        .with_file(path)
    }

    /// 404: no such file in the served directory.
    pub(crate) fn not_found(path: &str) -> Self {
        ApiError::new(
            StatusCode::NOT_FOUND,
            Kind::NotFound,
            format!("`{path}`: no such file in the served directory"),
        )
        .with_file(path)
    }

    /// 500: a bug.
    pub(crate) fn internal(message: impl Into<String>) -> Self {
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, Kind::Internal, message)
    }

    fn with_file(mut self, file: &str) -> Self {
        self.file = Some(file.to_string());
        self
    }
}

impl From<modsolve::Error> for ApiError {
    fn from(e: modsolve::Error) -> Self {
        use modsolve::{Error, InternalError};
        let message = e.to_string();
        match e {
            Error::Input(e) => ApiError {
                position: e.position,
                ..ApiError::new(StatusCode::BAD_REQUEST, Kind::Input, message)
            },
            Error::OverMemory(_) => ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, Kind::Memory, message),
            Error::TimedOut => ApiError::new(StatusCode::SERVICE_UNAVAILABLE, Kind::Budget, message),
            Error::Internal(InternalError::Unsupported(_)) => {
                ApiError::new(StatusCode::BAD_REQUEST, Kind::Unsupported, message)
            }
            Error::Internal(_) => ApiError::internal(message),
            _ => ApiError::internal(message),
        }
    }
}

impl From<modsolve::InternalError> for ApiError {
    fn from(e: modsolve::InternalError) -> Self {
        ApiError::from(modsolve::Error::from(e))
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let document = modsolve::report::error_json(
            self.kind.as_str(),
            &self.message,
            self.file.as_deref(),
            self.position,
        );
        let mut response = (self.status, axum::Json(document)).into_response();
        if let Some(seconds) = self.retry_after {
            response.headers_mut().insert(axum::http::header::RETRY_AFTER, seconds.into());
        }
        response
    }
}

/// The router of the page and the API over `config.dir` (which must be a directory).
pub fn router(config: Config) -> std::io::Result<axum::Router> {
    let dir = config.dir.canonicalize()?;
    if !dir.is_dir() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::NotADirectory,
            format!("{} is not a directory", dir.display()),
        ));
    }
    let admission = admission::Admission::new(config.jobs);
    let max_body = config.max_body;
    let hosts = config.allowed_hosts.iter().map(|h| h.trim_end_matches('.').to_ascii_lowercase()).collect();
    let guard = guard::Guard { hosts, token: config.token.clone() };
    let shared = Arc::new(Shared { dir, config, admission, guard });
    Ok(api::routes(Arc::clone(&shared))
        .layer(axum::extract::DefaultBodyLimit::max(max_body))
        .layer(axum::middleware::from_fn_with_state(Arc::clone(&shared), admission::gate))
        .layer(axum::middleware::from_fn_with_state(shared, guard::check)))
}

/// Serves the playground on `addr` until the process ends; `ready` is told the address bound
/// (a port of 0 picks a free one) before the first request is taken.
pub fn run(config: Config, addr: SocketAddr, ready: impl FnOnce(SocketAddr)) -> std::io::Result<()> {
    let app = router(config)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .max_blocking_threads(64)
        .enable_io()
        .enable_time()
        .build()?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(addr).await?;
        ready(listener.local_addr()?);
        axum::serve(listener, app).await
    })
}
