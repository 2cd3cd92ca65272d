//! Requests within the server's means: a deadline for each request that counts from its
//! arrival (the wait for a job slot included), a bound on the requests waiting, and one memory
//! budget shared by all running jobs.
//!
//! - A request that finds every job slot taken and [`super::Config::max_queue`] requests
//!   already waiting is answered 503 at once, with `Retry-After`.
//! - A waiting request whose deadline passes before a slot frees is answered 503 then.
//! - A job's work gets what is left of the deadline as its time ([`Job::remaining`]), so the
//!   whole request ends within the deadline's bound.
//! - A job reserves its estimated peak memory ([`Job::reserve`]) from the shared
//!   [`super::Config::max_memory`] before it allocates: over the whole budget it is refused
//!   with 413 (it could never run), over what the running jobs leave with 503 and
//!   `Retry-After`. The reservation is given back when the job ends.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::http::StatusCode;

use super::{ApiError, Shared};
use crate::kind::Kind;

/// The seconds a refused request is told to wait before it tries again.
const RETRY_AFTER_SECONDS: u64 = 1;

/// The admission state every handler shares.
pub(crate) struct Admission {
    /// Job slots: at most [`super::Config::jobs`] run at once.
    jobs: tokio::sync::Semaphore,
    /// Requests waiting for a slot now.
    waiting: AtomicUsize,
    /// Bytes reserved by running jobs.
    reserved: Mutex<u64>,
}

impl Admission {
    pub(crate) fn new(jobs: usize) -> Self {
        Admission {
            jobs: tokio::sync::Semaphore::new(jobs.max(1)),
            waiting: AtomicUsize::new(0),
            reserved: Mutex::new(0),
        }
    }
}

/// 503 with `Retry-After`: the server cannot take the request now.
fn busy(message: impl Into<String>) -> ApiError {
    ApiError::new(StatusCode::SERVICE_UNAVAILABLE, Kind::Busy, message).retry_after(RETRY_AFTER_SECONDS)
}

/// One admitted request's job: the server's shared state, its deadline and its memory
/// reservations.
pub(crate) struct Job {
    pub(crate) shared: Arc<Shared>,
    deadline: Instant,
    reservations: Vec<Reservation>,
}

impl Job {
    /// What is left of the request's deadline.
    pub(crate) fn remaining(&self) -> Duration {
        self.deadline.saturating_duration_since(Instant::now())
    }

    /// Reserves `estimate` bytes of the shared memory budget for the rest of the job.
    pub(crate) fn reserve(&mut self, estimate: modsolve::memory::Estimate) -> Result<(), ApiError> {
        let limit = self.shared.memory_limit();
        modsolve::memory::within(estimate.clone(), Some(limit))
            .map_err(|e| ApiError::from(modsolve::Error::from(e)))?;
        let mut reserved = self.shared.admission.reserved.lock().unwrap_or_else(|e| e.into_inner());
        if *reserved + estimate.bytes > limit {
            return Err(busy(format!(
                "the server's memory budget ({}) is taken by running requests: this one needs about {} for {}",
                modsolve::memory::show(limit),
                modsolve::memory::show(estimate.bytes),
                estimate.largest
            )));
        }
        *reserved += estimate.bytes;
        drop(reserved);
        self.reservations.push(Reservation { shared: Arc::clone(&self.shared), bytes: estimate.bytes });
        Ok(())
    }
}

/// Bytes of the shared budget, given back when dropped.
struct Reservation {
    shared: Arc<Shared>,
    bytes: u64,
}

impl Drop for Reservation {
    fn drop(&mut self) {
        let mut reserved = self.shared.admission.reserved.lock().unwrap_or_else(|e| e.into_inner());
        *reserved = reserved.saturating_sub(self.bytes);
    }
}

/// Counts a waiting request until dropped.
struct Waiting<'a>(&'a AtomicUsize);

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Admission {
    /// Why a request cannot even wait now: every slot taken and the queue full.
    fn full(&self, config: &super::Config) -> Option<ApiError> {
        let waiting = self.waiting.load(Ordering::SeqCst);
        (self.jobs.available_permits() == 0 && waiting >= config.max_queue).then(|| {
            busy(format!(
                "the server is busy: {} requests are running and {waiting} waiting, the most it queues",
                config.jobs
            ))
        })
    }
}

/// The middleware that refuses a request the queue cannot take before its body is read, so a
/// burst of big bodies costs neither their reading nor their memory.
pub(crate) async fn gate(
    axum::extract::State(shared): axum::extract::State<Arc<Shared>>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    use axum::response::IntoResponse;
    match shared.admission.full(&shared.config) {
        Some(refusal) if request.uri().path().starts_with("/api/") => {
            crate::serve::guard::unread(refusal.into_response())
        }
        _ => next.run(request).await,
    }
}

/// Runs `work` on tokio's blocking threads once a job slot is free, within the request's
/// deadline (counted from `arrived`); a panic in it is a 500, never a crash.
pub(crate) async fn run<T: Send + 'static>(
    shared: &Arc<Shared>,
    arrived: Instant,
    work: impl FnOnce(Job) -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    let admission = &shared.admission;
    let deadline = arrived + shared.config.timeout;
    let permit = match admission.jobs.try_acquire() {
        Ok(permit) => permit,
        Err(_) => {
            if let Some(refusal) = admission.full(&shared.config) {
                return Err(refusal);
            }
            admission.waiting.fetch_add(1, Ordering::SeqCst);
            let _waiting = Waiting(&admission.waiting);
            match tokio::time::timeout_at(deadline.into(), admission.jobs.acquire()).await {
                Ok(Ok(permit)) => permit,
                Ok(Err(_)) => return Err(ApiError::internal("the server is stopping")),
                Err(_) => {
                    return Err(busy(format!(
                        "the server is busy: no job slot came free within the request's {} timeout",
                        humanize(shared.config.timeout)
                    )));
                }
            }
        }
    };
    let job = Job { shared: Arc::clone(shared), deadline, reservations: Vec::new() };
    let answer = tokio::task::spawn_blocking(move || work(job))
        .await
        .map_err(|e| ApiError::internal(format!("the work stopped: {e}")))?;
    drop(permit);
    answer
}

/// A duration for messages: `5s`, `250ms`.
pub(crate) fn humanize(time: Duration) -> String {
    if time.subsec_millis() == 0 { format!("{}s", time.as_secs()) } else { format!("{}ms", time.as_millis()) }
}
