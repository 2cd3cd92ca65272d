//! Work within bounds: a time budget that bounds a whole computation, elimination included,
//! and independent pieces of work run side by side on plain threads.
//!
//! The elimination kernels cannot be interrupted, so a time budget is kept by running the work
//! on a thread of its own and waiting for it at most `bound` of the budget: past that the work
//! is abandoned (its thread runs on until it finishes or the process ends) and the caller
//! reports the question as undecided.

use std::sync::mpsc::{RecvTimeoutError, channel};
use std::time::Duration;

use crate::solve::search::Budget;

/// The wall time a budget of `time` allows the whole work: 10% and 0.2 s more (the searches
/// inside keep the budget themselves; this catches what cannot be interrupted), less a moment
/// for the caller to print.
pub(crate) fn bound(time: Duration) -> Duration {
    (time.mul_f64(1.1) + Duration::from_millis(200)).saturating_sub(Duration::from_millis(30))
}

/// Why bounded work gave no result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Abandoned {
    /// The time bound passed first.
    TimeRanOut,
    /// The work stopped without a result (it panicked): a bug.
    Stopped,
}

/// Runs `work` on its own thread and waits for it at most the [`bound`] of the budget's time
/// (without a time, until it is done).
pub(crate) fn within<T: Send + 'static>(
    budget: Budget,
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, Abandoned> {
    let (send, receive) = channel();
    std::thread::spawn(move || {
        let _ = send.send(work());
    });
    let received = match budget.time {
        Some(time) => receive.recv_timeout(bound(time)),
        None => receive.recv().map_err(|_| RecvTimeoutError::Disconnected),
    };
    received.map_err(|e| match e {
        RecvTimeoutError::Timeout => Abandoned::TimeRanOut,
        RecvTimeoutError::Disconnected => Abandoned::Stopped,
    })
}

/// `work` on every item, one plain thread per core, results in item order.
///
/// Not rayon: these threads wait on bounded work whose kernels run on rayon's pool, which must
/// stay free for them.
pub fn in_parallel<T: Sync, R: Send>(items: &[T], work: impl Fn(&T) -> R + Sync) -> Vec<R> {
    use std::sync::Mutex;
    use std::sync::atomic::{AtomicUsize, Ordering};
    let next = AtomicUsize::new(0);
    let slots: Vec<Mutex<Option<R>>> = items.iter().map(|_| Mutex::new(None)).collect();
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get()).min(items.len());
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn work_past_the_bound_is_abandoned() {
        let budget = Budget { time: Some(Duration::from_millis(10)), ..Budget::default() };
        let started = std::time::Instant::now();
        let result = within(budget, || std::thread::sleep(Duration::from_secs(5)));
        assert_eq!(result, Err(Abandoned::TimeRanOut));
        assert!(started.elapsed() < Duration::from_secs(2), "{:?}", started.elapsed());
        assert_eq!(within(budget, || 7), Ok(7));
    }

    #[test]
    fn parallel_results_keep_the_order() {
        let items: Vec<u64> = (0..100).collect();
        assert_eq!(in_parallel(&items, |x| x * x), items.iter().map(|x| x * x).collect::<Vec<_>>());
        assert!(in_parallel(&[] as &[u64], |x| *x).is_empty());
    }
}
