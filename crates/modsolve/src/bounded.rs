//! Work within bounds: a timeout that bounds a whole computation, elimination included,
//! and independent pieces of work run side by side on plain threads.
//!
//! A timeout is kept by running the work on a thread of its own and waiting for it at most
//! `bound` of the timeout: past that the caller reports the question as undecided and the work
//! is abandoned. (The budget, [`Budget`], bounds only the best-effort searches
//! inside; it never abandons work.) Abandoned work stops soon after: the long loops (the elimination kernels' pivot
//! steps, light chasing's rows, propagation's steps, the searches' and walks' node counts, the
//! generator's rounds) call `checkpoint`, which ends
//! abandoned work by unwinding its stack, so its memory is freed and its cores are free for the
//! next request. The unwinding carries a private payload through `resume_unwind`, which prints
//! nothing (the pattern rust-analyzer uses to cancel queries).
//!
//! Where work hops to rayon's threads (`rayon::scope`, `par_iter`) the abandonment flag is
//! carried along with `Stop::carry`: a rayon job that reaches a checkpoint is wrapped in it,
//! so it sees its own work's flag and never the flag of work it was stolen alongside.

use std::cell::RefCell;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// The wall time a timeout of `time` allows the whole work: 10% and 0.09 s more (the searches
/// inside keep the budget themselves; this catches what cannot be interrupted). The caller
/// then has 80 ms to print what it has and exit within the promise, 1.1 × `time` +
/// 0.17 s in all. The command line's printing keeps the same bound.
pub fn bound(time: Duration) -> Duration {
    time.mul_f64(1.1) + Duration::from_millis(170) - EXIT_MARGIN
}

/// What `bound` leaves of the promised 1.1 × timeout + 0.17 s for the caller to report an
/// undecided answer and exit, the abandoned work's threads included (with the other core busy
/// that took up to 60 ms here, a check of a 30 × 30 grid freeing 200 MB).
const EXIT_MARGIN: Duration = Duration::from_millis(80);

/// Why bounded work gave no result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Abandoned {
    /// The time bound passed first.
    TimeRanOut,
    /// The work stopped without a result (it panicked): a bug.
    Stopped,
}

/// Runs `work` on its own thread and waits for it at most the [`bound`] of the timeout
/// (without one, until it is done). Past the bound the work is told to stop: it ends at its
/// next [`checkpoint`].
pub(crate) fn on_worker<T: Send + 'static>(
    timeout: Option<Duration>,
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, Abandoned> {
    waiting(timeout.map(bound), work)
}

/// Runs `work` on its own thread and waits for it until `deadline`, not a moment more (a
/// best-effort part that the budget's time ends: a par sample). Past it the work is told to
/// stop, as with [`on_worker`].
pub(crate) fn until<T: Send + 'static>(
    deadline: std::time::Instant,
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, Abandoned> {
    waiting(Some(deadline.saturating_duration_since(std::time::Instant::now())), work)
}

/// Runs `work` on its own thread and waits for it at most `wait` (without it, until it is done).
fn waiting<T: Send + 'static>(
    wait: Option<Duration>,
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, Abandoned> {
    let (send, receive) = channel();
    let stop = Stop::nested();
    let carried = stop.clone();
    std::thread::spawn(move || {
        let _ = send.send(carried.carry(work));
    });
    let received = match wait {
        Some(wait) => receive.recv_timeout(wait),
        None => receive.recv().map_err(|_| RecvTimeoutError::Disconnected),
    };
    received.map_err(|e| match e {
        RecvTimeoutError::Timeout => {
            stop.abandon();
            Abandoned::TimeRanOut
        }
        RecvTimeoutError::Disconnected => {
            // The work unwound: because the work around this call was abandoned, or a bug.
            checkpoint();
            Abandoned::Stopped
        }
    })
}

/// Runs `work` within a timeout (`None`: no bound), as the entry points do: on its own thread,
/// abandoned past the bound (the timeout, 10% and 0.2 s more) with
/// [`crate::Error::TimedOut`], and stopped at its next checkpoint. For callers that bound a
/// whole command, its set-up and output included (the command line's `generate --timeout`).
pub fn within_timeout<T: Send + 'static>(
    timeout: Option<Duration>,
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, crate::Error> {
    on_worker(timeout, work).map_err(|abandoned| match abandoned {
        Abandoned::TimeRanOut => crate::Error::TimedOut,
        Abandoned::Stopped => crate::error::InternalError::Stopped.into(),
    })
}

thread_local! {
    /// The flag of the bounded work this thread is running, if any.
    static CURRENT: RefCell<Stop> = const { RefCell::new(Stop(None)) };
}

/// Whether [`on_worker`] abandoned its work, and the flag of the work that called it: work inside
/// abandoned work is abandoned too.
#[derive(Debug)]
struct Flag {
    abandoned: AtomicBool,
    outer: Stop,
    /// The work done under this flag ([`work`]), the work of flags inside it included.
    work: AtomicU64,
    /// The nodes and the cells touched by the [`Meter`]s ended under this flag ([`tallied`]).
    metered: [AtomicU64; 2],
    /// Tests: the checkpoints the work under this flag reached, and how many it may pass
    /// before the flag abandons it (a stopping point counted, not timed).
    #[cfg(test)]
    checkpoints: [AtomicU64; 2],
}

/// The payload that unwinds abandoned work; nothing catches it but the end of the work's thread
/// (or rayon, which hands it on to the thread that waits for the job).
struct Abandon;

/// The abandonment flag of the work running on this thread, to carry to other threads.
#[derive(Clone, Debug, Default)]
pub(crate) struct Stop(Option<Arc<Flag>>);

impl Stop {
    /// The flag of the work on this thread (none outside [`on_worker`]: such work never stops).
    pub(crate) fn here() -> Stop {
        CURRENT.with_borrow(Clone::clone)
    }

    /// A new flag inside the work on this thread: abandoned with it, and its [`work`] counted
    /// in it too. Carried ([`Stop::carry`]) around some work, it tallies that work.
    pub(crate) fn nested() -> Stop {
        Stop(Some(Arc::new(Flag {
            abandoned: AtomicBool::new(false),
            outer: Stop::here(),
            work: AtomicU64::new(0),
            metered: [AtomicU64::new(0), AtomicU64::new(0)],
            #[cfg(test)]
            checkpoints: [AtomicU64::new(0), AtomicU64::new(u64::MAX)],
        })))
    }

    /// The work counted under this flag so far.
    pub(crate) fn work_done(&self) -> u64 {
        self.0.as_ref().map_or(0, |flag| flag.work.load(Ordering::Relaxed))
    }

    /// Runs `work` with this flag as the thread's own, and puts the thread's flag back after,
    /// also when `work` unwinds.
    pub(crate) fn carry<R>(&self, work: impl FnOnce() -> R) -> R {
        struct Restore(Stop);
        impl Drop for Restore {
            fn drop(&mut self) {
                CURRENT.set(std::mem::take(&mut self.0));
            }
        }
        let _restore = Restore(CURRENT.replace(self.clone()));
        work()
    }

    fn abandon(&self) {
        if let Some(flag) = &self.0 {
            flag.abandoned.store(true, Ordering::Relaxed);
        }
    }

    /// Tests: counts a checkpoint reached in every flag around the work, and abandons a flag
    /// whose work has passed as many as it may.
    #[cfg(test)]
    fn count_checkpoint(&self) {
        let mut at = &self.0;
        while let Some(flag) = at {
            let [reached, allowed] = &flag.checkpoints;
            if reached.fetch_add(1, Ordering::Relaxed) >= allowed.load(Ordering::Relaxed) {
                flag.abandoned.store(true, Ordering::Relaxed);
            }
            at = &flag.outer.0;
        }
    }

    fn abandoned(&self) -> bool {
        let mut at = &self.0;
        while let Some(flag) = at {
            if flag.abandoned.load(Ordering::Relaxed) {
                return true;
            }
            at = &flag.outer.0;
        }
        false
    }
}

/// Ends the work on this thread, by unwinding, when [`on_worker`] has abandoned it (or the work
/// around it); does nothing otherwise. Costs a thread-local read and an atomic load or two:
/// call it once a pivot or a row, not once an entry.
pub(crate) fn checkpoint() {
    #[cfg(test)]
    CURRENT.with_borrow(Stop::count_checkpoint);
    if CURRENT.with_borrow(Stop::abandoned) {
        std::panic::resume_unwind(Box::new(Abandon));
    }
}

/// Counts `units` of work done by the work on this thread, in every flag around it (nothing
/// outside bounded work, or not carried there). A unit is about one search node's time: the
/// eliminations count their row operations scaled to it (the searches' nodes are in their
/// reports). The count depends on the puzzle alone, never on the machine or the threads, so a
/// bound on it (the default par sampling's) gives the same result everywhere. Call it where
/// [`checkpoint`] is called, not once an entry.
pub(crate) fn work(units: u64) {
    CURRENT.with_borrow(|stop| {
        let mut at = &stop.0;
        while let Some(flag) = at {
            flag.work.fetch_add(units, Ordering::Relaxed);
            at = &flag.outer.0;
        }
    });
}

/// What the metered searches of some work counted and did ([`tallied`]): instrumentation to
/// check that a node budget bounds the work actually done, on every shape of puzzle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// The nodes counted against budgets. A search run inside another search whose nodes the
    /// outer one counts again (a beam's tail, the descent's local share) counts in both.
    pub nodes: u64,
    /// The cells the searches read or wrote: a button's cells per value tried, the closing
    /// cells checked, the lookahead's table entries, the residuals copied, a quiet pattern's
    /// support per multiple tried.
    pub cells_touched: u64,
    /// The other work counted (the eliminations' units, as `--budget` counts them).
    pub work: u64,
}

/// Runs `work` on this thread and tallies the metered searches and counted work it did, on
/// every thread it used ([`Tally`]).
pub fn tallied<R>(work: impl FnOnce() -> R) -> (R, Tally) {
    let tally = Stop::nested();
    let result = tally.carry(work);
    let flag = tally.0.as_ref().expect("a nested flag");
    let [nodes, cells_touched] = flag.metered.each_ref().map(|n| n.load(Ordering::Relaxed));
    (result, Tally { nodes, cells_touched, work: tally.work_done() })
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

/// How much best-effort work may be done: the searches for a better plan, `check`'s
/// play-throughs and the par samples. It never bounds an exact answer of the algebra (whether a
/// plan exists, how many, a plan): the timeout does that (`Options::timeout`).
///
/// The default is a fixed amount of work, [`DEFAULT_NODES`] nodes and no time, so a default run
/// gives the same result on every machine (about 10 s of search on a 2-core machine of 2026); a
/// time makes the result depend on the machine's speed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Budget {
    /// Search nodes (values tried, or plans enumerated).
    pub nodes: u64,
    /// Wall-clock time.
    pub time: Option<Duration>,
}

/// The nodes of the default budget: about 10 s of branch and bound on the machine the
/// defaults were measured on. The two walks whose nodes are costlier (the mod-2 minimum-weight
/// walk and the bounded walk over the quiet basis) take their own share of it when the budget
/// is the default ([`Budget::is_default`]).
pub const DEFAULT_NODES: u64 = 200_000_000;

/// With the default budget and a second objective, the search for the fewest presses gets this
/// fraction of [`DEFAULT_NODES`] and the objective asked for the rest.
pub(crate) const FEWEST_SHARE: u64 = 4;

impl Default for Budget {
    fn default() -> Self {
        Budget { nodes: DEFAULT_NODES, time: None }
    }
}

impl Budget {
    /// A time budget: the time bounds every search, with no node cap.
    pub const fn of_time(time: Duration) -> Budget {
        Budget { nodes: u64::MAX, time: Some(time) }
    }

    /// A node budget, the same on every machine.
    pub const fn of_nodes(nodes: u64) -> Budget {
        Budget { nodes, time: None }
    }

    /// Whether this is the default budget.
    pub fn is_default(self) -> bool {
        self == Budget::default()
    }

    /// Whether the budget allows no search at all (`--budget 0`, nodes or time): the algebra
    /// answers alone.
    pub fn is_zero(self) -> bool {
        self.nodes == 0 || self.time.is_some_and(|t| t.is_zero())
    }

    /// What is left of this budget when its time started at `started`: the same node count,
    /// and the time less what has passed. Every phase of one command takes its budget this way,
    /// so the phases together stay within the time the user gave.
    pub fn since(self, started: Instant) -> Budget {
        Budget { nodes: self.nodes, time: self.time.map(|t| t.saturating_sub(started.elapsed())) }
    }

    /// What is left of this budget for the next search of a command whose time started at
    /// `started` and whose searches so far counted `spent` nodes: the searches of one command
    /// share one budget, nodes and time. The default budget is left whole to the first search
    /// (its stages take their own shares of it, [`Budget::is_default`]); the searches after it
    /// get what it left, as a node count.
    pub fn after(self, started: Instant, spent: u64) -> Budget {
        let left = self.since(started);
        if self.is_default() && spent == 0 {
            left
        } else {
            Budget { nodes: self.nodes.saturating_sub(spent), ..left }
        }
    }

    /// The budget of the search for the fewest presses when a second objective is asked for
    /// after it: the default keeps [`DEFAULT_NODES`]` / `[`FEWEST_SHARE`] for it, so that the
    /// objective asked for gets the rest; any other budget is shared as [`Budget::after`] says.
    pub(crate) fn before_second(self, started: Instant) -> Budget {
        if self.is_default() {
            Budget::of_nodes(DEFAULT_NODES / FEWEST_SHARE)
        } else {
            self.after(started, 0)
        }
    }

    /// Whether the time of a budget started at `started` has run out.
    pub fn expired(self, started: Instant) -> bool {
        self.time.is_some_and(|t| started.elapsed() >= t)
    }
}

/// A running count against a [`Budget`].
pub(crate) struct Meter {
    budget: Budget,
    started: Instant,
    pub nodes: u64,
    pub exhausted: bool,
    /// The cells touched ([`Meter::touch`]), handed to [`tallied`] when the meter ends.
    touched: u64,
}

impl Drop for Meter {
    fn drop(&mut self) {
        metered(self.nodes.min(self.budget.nodes), self.touched);
    }
}

/// Hands `nodes` counted and `cells` touched by a search to [`tallied`], in every flag around
/// the work on this thread. A search that counts its nodes without a [`Meter`] calls it where
/// it counts them, not once a node.
pub(crate) fn metered(nodes: u64, cells: u64) {
    CURRENT.with_borrow(|stop| {
        let mut at = &stop.0;
        while let Some(flag) = at {
            for (sum, n) in flag.metered.iter().zip([nodes, cells]) {
                sum.fetch_add(n, Ordering::Relaxed);
            }
            at = &flag.outer.0;
        }
    });
}

/// Cells touched by a search that counts its nodes without a [`Meter`], handed to [`tallied`]
/// when it is dropped.
#[derive(Debug, Default)]
pub(crate) struct Touched(pub u64);

impl Drop for Touched {
    fn drop(&mut self) {
        metered(0, self.0);
    }
}

impl Meter {
    pub(crate) fn new(budget: Budget) -> Self {
        Meter { budget, started: Instant::now(), nodes: 0, exhausted: false, touched: 0 }
    }

    /// Notes `cells` cells read or written by the search this meter counts: the real work its
    /// nodes stand for ([`tallied`]).
    #[inline]
    pub(crate) fn touch(&mut self, cells: usize) {
        self.touched += cells as u64;
    }

    /// What is left of the budget: the nodes not yet counted, and the time not yet spent.
    pub(crate) fn left(&self) -> Budget {
        Budget {
            nodes: self.budget.nodes.saturating_sub(self.nodes),
            time: self.budget.time.map(|t| t.saturating_sub(self.started.elapsed())),
        }
    }

    /// Counts one node; false once the budget is spent.
    #[inline]
    pub(crate) fn tick(&mut self) -> bool {
        self.tick_by(1)
    }

    /// Counts a node worth `units` nodes (a search step that costs more than one); false once
    /// the budget is spent.
    #[inline]
    pub(crate) fn tick_by(&mut self, units: u64) -> bool {
        let before = self.nodes;
        self.nodes += units;
        if self.nodes > self.budget.nodes {
            self.exhausted = true;
        } else if before == 0 || before >> 12 != self.nodes >> 12 {
            checkpoint();
            if let Some(limit) = self.budget.time
                && self.started.elapsed() >= limit
            {
                self.exhausted = true;
            }
        }
        !self.exhausted
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `on_worker` answers at its bound, not when the work ends: work that sleeps 5 s is still
    /// running when it returns (a flag the work sets at its end, not the clock), and work that
    /// ends within the bound gives its result.
    #[test]
    fn work_past_the_bound_is_abandoned() {
        let done = Arc::new(AtomicBool::new(false));
        let finished = Arc::clone(&done);
        let result = on_worker(Some(Duration::from_millis(10)), move || {
            std::thread::sleep(Duration::from_secs(5));
            finished.store(true, Ordering::SeqCst);
        });
        assert_eq!(result, Err(Abandoned::TimeRanOut));
        assert!(!done.load(Ordering::SeqCst), "on_worker waited for the work past its bound");
        assert_eq!(on_worker(Some(Duration::from_secs(60)), || 7), Ok(7));
    }

    /// Runs `work` as bounded work that its flag abandons once it has passed `passed`
    /// checkpoints (a stopping point counted, the same on every machine and load, deep in each
    /// case's long loops), and asserts that the work ended there: its thread ended by
    /// unwinding, not by running to its end (each case runs 7 s to minutes when nothing stops
    /// it), each of its threads and of the pool's jobs it had queued at its next checkpoint:
    /// fewer checkpoints reached after the stopping point than before it.
    fn ends_soon_after_abandoned(what: &str, passed: u64, work: impl FnOnce() + Send + 'static) {
        let stop = Stop::nested();
        let flag = Arc::clone(stop.0.as_ref().expect("a flag"));
        flag.checkpoints[1].store(passed, Ordering::Relaxed);
        let worker = std::thread::spawn(move || stop.carry(work));
        let ended = worker.join();
        assert!(ended.is_err_and(|payload| payload.is::<Abandon>()), "{what}: ran to its end");
        let reached = flag.checkpoints[0].load(Ordering::Relaxed);
        assert!((passed + 1..=2 * passed).contains(&reached), "{what}: {reached} checkpoints reached");
    }

    #[test]
    fn abandoned_work_ends_at_its_next_checkpoint() {
        ends_soon_after_abandoned("a loop of checkpoints", 1000, || {
            loop {
                checkpoint();
                std::hint::spin_loop();
            }
        });
        // On rayon's threads, with the flag carried there.
        ends_soon_after_abandoned("a loop on the pool", 1000, || {
            let stop = Stop::here();
            rayon::scope(|_| {
                stop.carry(|| {
                    loop {
                        checkpoint();
                        std::hint::spin_loop();
                    }
                })
            });
        });
        // Bounded work inside bounded work: the outer flag reaches the inner work.
        ends_soon_after_abandoned("bounded work inside bounded work", 1000, || {
            let long = Some(Duration::from_secs(60));
            let _ = on_worker(long, || {
                loop {
                    checkpoint();
                    std::hint::spin_loop();
                }
            });
        });
        // Work that is not abandoned passes its checkpoints, and so does work outside `on_worker`.
        let long = Some(Duration::from_secs(60));
        assert_eq!(on_worker(long, || (0..1000u64).inspect(|_| checkpoint()).sum::<u64>()), Ok(499_500));
        checkpoint();
    }

    /// A tally sees the meters ended inside it, on its own thread and on threads the flag is
    /// carried to: the nodes each counted within its budget (the tick past it is not a node)
    /// and the cells each touched; nothing outside it.
    #[test]
    fn a_tally_counts_the_meters_inside_it() {
        let search = |budget: u64, cells: usize| {
            let mut meter = Meter::new(Budget::of_nodes(budget));
            while meter.tick() {
                meter.touch(cells);
            }
        };
        let ((), tally) = tallied(|| {
            search(10, 3);
            let stop = Stop::here();
            std::thread::scope(|scope| {
                scope.spawn(|| stop.carry(|| search(5, 2)));
            });
            let _walk = Touched(7);
            work(4);
        });
        assert_eq!(tally, Tally { nodes: 15, cells_touched: 10 * 3 + 5 * 2 + 7, work: 4 });
        search(100, 1);
        let ((), empty) = tallied(|| ());
        assert_eq!(empty, Tally::default());
    }

    #[test]
    fn a_carried_flag_is_put_back() {
        let abandoned = Stop(Some(Arc::new(Flag {
            abandoned: AtomicBool::new(true),
            outer: Stop(None),
            work: AtomicU64::new(0),
            metered: [AtomicU64::new(0), AtomicU64::new(0)],
            checkpoints: [AtomicU64::new(0), AtomicU64::new(u64::MAX)],
        })));
        let unwound = std::panic::catch_unwind(|| abandoned.carry(checkpoint));
        assert!(unwound.is_err_and(|payload| payload.is::<Abandon>()));
        // The thread's own flag (none here) is back: its checkpoints pass.
        checkpoint();
        assert!(Stop::here().0.is_none());
    }

    /// Checkpoints an elimination below passes before it is abandoned: a hundred pivots, or
    /// word stripes, of thousands.
    const PIVOTS: u64 = 100;

    /// Checkpoints an analysis with a walk passes before it is abandoned.
    const WALK: u64 = 20_000;

    /// Every long loop of the elimination kernels reaches a checkpoint: abandoned a hundred
    /// pivots in, each ends there. Each case runs 7–20 s when nothing stops it (the sparse one
    /// over a minute; release build, 2 cores). (It allowed 2 s of the clock after a 0.1 s
    /// bound, which a machine at load 7–12 overran.)
    #[test]
    fn abandoned_eliminations_stop() {
        use crate::algebra::echelon::{Accumulator, PrimePowerSystem};
        use crate::algebra::gf2::{BitMatrix, Elimination, echelonize};
        use crate::algebra::sparse::{SparseRow, SparseSystem};
        use rand::{RngExt, SeedableRng};
        let mut rng = chacha20::ChaCha8Rng::seed_from_u64(15);
        let mut bits = |n: usize| BitMatrix::from_fn(n, n, |_, _| rng.random());
        for (how, n) in
            [(Elimination::Blocked, 49152), (Elimination::FourRussians, 40960), (Elimination::Plain, 16384)]
        {
            let mut m = bits(n);
            ends_soon_after_abandoned(&format!("{how:?} GF(2), {n}²"), PIVOTS, move || {
                echelonize(&mut m, n, how);
            });
        }
        let mut dense = |p: u64, e: u32, n: usize| {
            let q = p.pow(e);
            let matrix = (0..n * n).map(|_| rng.random_range(0..q)).collect();
            PrimePowerSystem { p, e, rows: n, cols: n, matrix, rhs: vec![vec![1; n]] }
        };
        for (storage, p, e, n) in [
            (Accumulator::Lazy16, 3, 1, 7500),
            (Accumulator::Lazy32, 65_521, 1, 4000),
            (Accumulator::Lazy64, 4_294_967_291, 1, 3500),
            (Accumulator::Wide, 3, 40, 2500),
            (Accumulator::Bits, 2, 1, 16384),
        ] {
            let system = dense(p, e, n);
            ends_soon_after_abandoned(&format!("{storage:?} mod {p}^{e}, {n}²"), PIVOTS, move || {
                system.eliminate_with(storage);
            });
        }
        // Sparse rows that fill in: the elimination ends dense.
        let n = 20_000u32;
        let rows = (0..n)
            .map(|_| {
                let mut cols: Vec<u32> = (0..6).map(|_| rng.random_range(0..n)).collect();
                cols.sort_unstable();
                cols.dedup();
                let vals = cols.iter().map(|_| rng.random_range(1..3)).collect();
                SparseRow { cols, vals, rhs: 1 }
            })
            .collect();
        let system = SparseSystem { p: 3, e: 1, cols: n as usize, rows };
        ends_soon_after_abandoned("sparse mod 3, 20000 unknowns", PIVOTS, move || {
            let _ = system.eliminate();
        });
    }

    /// Whole analyses, as `analyse` runs them under a budget, but with no time in the inner
    /// budget (and no node limit), so that only abandonment stops them: light chasing, general
    /// propagation (King moves), the mod-2 minimum-weight walk and the bounded walk over the
    /// quiet basis. Each takes 7 s to minutes when nothing stops it.
    #[test]
    fn abandoned_analyses_stop() {
        let grid = |side: usize, modulus: u64, extra: &str| {
            format!(
                "Puzzle(graph: Grid(rows: {side}, cols: {side}{extra}), modulus: {modulus}, target: All(1))"
            )
        };
        // Abandoned after this many checkpoints: the walks' (one each 4,096 nodes) well past the
        // elimination before them.
        let cases = [
            ("light chasing 2000² mod 3", grid(2000, 3, ""), 1000),
            ("light chasing 16000² mod 2", grid(16000, 2, ""), 1000),
            ("propagation, King 1000² mod 3", grid(1000, 3, ", neighborhood: King"), 1000),
            ("minimum-weight walk 65² mod 2", grid(65, 2, ""), WALK),
            ("basis walk 41² mod 3", grid(41, 3, ""), WALK),
        ];
        for (what, source, passed) in cases {
            let puzzle = crate::parse_puzzle(&source).expect("a grid");
            // `analyse` works on this thread, as it does on the thread it starts under a budget.
            let options =
                crate::Options { budget: Budget { time: None, nodes: u64::MAX }, ..Default::default() };
            ends_soon_after_abandoned(what, passed, move || {
                let _ = crate::analyse(&puzzle, &options);
            });
        }
    }

    /// A search's node meter stops abandoned work (searches under `generate` have no time).
    #[test]
    fn an_abandoned_search_stops() {
        ends_soon_after_abandoned("a meter without limits", 1000, || {
            let mut meter = crate::solve::search::Meter::new(Budget { time: None, nodes: u64::MAX });
            while meter.tick() {}
        });
    }

    #[test]
    fn parallel_results_keep_the_order() {
        let items: Vec<u64> = (0..100).collect();
        assert_eq!(in_parallel(&items, |x| x * x), items.iter().map(|x| x * x).collect::<Vec<_>>());
        assert!(in_parallel(&[] as &[u64], |x| *x).is_empty());
    }
}
