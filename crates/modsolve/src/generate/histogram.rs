//! The sampled par histogram of a template: random solvable starts made as `generate` makes
//! its candidates (the same seeds and streams), each solved within a node budget, in rounds
//! that stop at a sample count, a time or a total of counted work.

use std::collections::BTreeMap;
use std::time::Instant;

use num_bigint::BigUint;
use num_traits::ToPrimitive;

use super::{candidate_rng, memory_estimate, random_start, with_start};
use crate::analysis::{Options, analysis_of};
use crate::bounded::{Stop, checkpoint};
use crate::error::InternalError;
use crate::model::Puzzle;
use crate::solve::search::Budget;
use crate::solve::solve;
/// The par distribution of a template's random solvable starts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Histogram {
    /// Par → how many samples had it (proven).
    pub pars: BTreeMap<u64, usize>,
    /// Samples with no proven par within their node budget.
    pub unproven: usize,
    /// Samples judged: all asked for, unless the budget ended the run first.
    pub taken: usize,
    /// The samples' work counted ([`SamplesEnd::Work`]): their eliminations and search nodes.
    pub work: u64,
}

/// What ends a run of par samples before every sample asked for is taken.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SamplesEnd {
    /// Nothing: every sample asked for is taken.
    #[default]
    Never,
    /// The budget's time: no sample starts after it, and the samples still running then are
    /// abandoned. How many are taken depends on the machine.
    At(Instant),
    /// The budget's work: each sample's elimination (counted by the eliminations themselves)
    /// and search nodes are counted, and no round of samples starts once they reach this. The
    /// rounds' sizes follow the work counted, so the samples taken are the same on every
    /// machine.
    Work(u64),
}

/// A sample's proven par (`None`: not proven within its nodes), or why it has none.
type Judged = Result<Option<u64>, InternalError>;

/// The most samples a round takes at once.
const ROUND: usize = 16;

/// The work counted for each sample or candidate before its own elimination and search:
/// drawing it, building its puzzle and analysis, and its thread (about 30 µs on a 2-core
/// machine of 2026, where the default budget's 200,000,000 nodes of work are about 10 s: 50 ns
/// a node). Without it a template whose samples need almost no elimination (a 3×3 board) was
/// sampled millions of times within the default budget, for minutes.
pub(crate) const FIXED_WORK: u64 = 1_000;

/// The distribution of the par over up to `samples` random solvable starts, each judged with
/// `nodes_per_sample` search nodes. Samples are streamed into the counts a round at a time (no
/// list of samples is ever built, so any `samples` is fine); `end` may stop them sooner, and
/// then `taken` says how many were judged. Unless `end` is a time, the result depends on the
/// seed alone.
///
/// ```
/// use modsolve::generate::{SamplesEnd, par_histogram};
///
/// let template = modsolve::parse_puzzle("Puzzle(graph: Grid(rows: 3, cols: 3), modulus: 2)")?;
/// let histogram = par_histogram(&template, 200, 1, 100_000, SamplesEnd::Never)?;
/// assert_eq!((histogram.taken, histogram.unproven), (200, 0));
/// assert_eq!(histogram.pars.values().sum::<usize>(), 200);
/// // Every start of 3×3 Lights Out is solved in at most 9 presses.
/// assert!(histogram.pars.keys().all(|&par| par <= 9));
/// // The same seed gives the same counts.
/// assert_eq!(par_histogram(&template, 200, 1, 100_000, SamplesEnd::Never)?.pars, histogram.pars);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn par_histogram(
    template: &Puzzle,
    samples: usize,
    seed: u64,
    nodes_per_sample: u64,
    end: SamplesEnd,
) -> Result<Histogram, InternalError> {
    // Only the periods are kept: the elimination's other results are freed before the samples
    // allocate theirs, so the peak is the larger of the two, not their sum.
    let periods = solve(&with_start(template, template.target.clone()))?.periods;
    sample_pars(template, &periods, samples, seed, nodes_per_sample, end)
}

/// [`par_histogram`] from the periods of the template's buttons (an elimination already done).
pub(crate) fn sample_pars(
    template: &Puzzle,
    periods: &[BigUint],
    samples: usize,
    seed: u64,
    nodes_per_sample: u64,
    end: SamplesEnd,
) -> Result<Histogram, InternalError> {
    let periods: Vec<u64> = periods.iter().map(|l| l.to_u64().unwrap_or(u64::MAX)).collect();
    let budget = Budget { nodes: nodes_per_sample, time: None };
    let deadline = match end {
        SamplesEnd::At(deadline) => Some(deadline),
        SamplesEnd::Never | SamplesEnd::Work(_) => None,
    };
    let out_of_time = || deadline.is_some_and(|deadline| Instant::now() >= deadline);
    let mut histogram = Histogram::default();
    let (mut next, mut work) = (0, 0u64);
    let stop = Stop::here();
    while next < samples && !out_of_time() {
        checkpoint();
        // Under a work bound the first round is one sample, and each later one as many as the
        // work left takes at the samples' mean so far (at most ROUND): machine-independent.
        let round = match end {
            SamplesEnd::Work(limit) if work >= limit => break,
            SamplesEnd::Work(_) if next == 0 => 1,
            SamplesEnd::Work(limit) => {
                ((limit - work) / (work / next as u64).max(1)).clamp(1, ROUND as u64) as usize
            }
            SamplesEnd::Never | SamplesEnd::At(_) => ROUND.max(rayon::current_num_threads() * 8),
        };
        let last = next.saturating_add(round).min(samples);
        let indices: Vec<usize> = (next..last).collect();
        // Plain threads, each waiting for its sample on a thread of its own until the deadline:
        // rayon's pool stays free for the samples' kernels. Each sample's work is tallied.
        let pars: Vec<Option<(Judged, u64)>> = crate::bounded::in_parallel(&indices, |&index| {
            stop.carry(|| {
                if out_of_time() {
                    return None;
                }
                let mut rng = candidate_rng(seed, index);
                let puzzle = with_start(template, random_start(template, &periods, &mut rng));
                let judge = move || {
                    let tally = Stop::nested();
                    let analysis =
                        tally.carry(|| analysis_of(&puzzle, &Options { budget, ..Options::default() }));
                    let par = analysis.map(|analysis| {
                        let nodes = analysis.search_nodes.unwrap_or(0);
                        (analysis.fewest.filter(|p| p.is_proven()).and_then(|p| p.total().to_u64()), nodes)
                    });
                    let fixed = tally.work_done().saturating_add(FIXED_WORK);
                    match par {
                        Ok((par, nodes)) => (Ok(par), fixed.saturating_add(nodes)),
                        Err(e) => (Err(e), fixed),
                    }
                };
                match deadline {
                    None => Some(judge()),
                    Some(deadline) => match crate::bounded::until(deadline, judge) {
                        Ok(judged) => Some(judged),
                        // Not taken: the budget's time ended it.
                        Err(crate::bounded::Abandoned::TimeRanOut) => None,
                        Err(crate::bounded::Abandoned::Stopped) => Some((Err(InternalError::Stopped), 0)),
                    },
                }
            })
        });
        for (par, cost) in pars.into_iter().flatten() {
            histogram.taken += 1;
            work = work.saturating_add(cost);
            match par? {
                Some(p) => *histogram.pars.entry(p).or_insert(0) += 1,
                None => histogram.unproven += 1,
            }
        }
        histogram.work = work;
        next = last;
    }
    Ok(histogram)
}

/// [`par_histogram_within`] within a timeout too (`None`: no bound): the whole histogram,
/// set-up included, is abandoned past it ([`crate::Error::TimedOut`]) and its work stops.
#[doc(hidden)]
pub fn par_histogram_timed(
    template: &Puzzle,
    samples: usize,
    seed: u64,
    nodes_per_sample: u64,
    end: SamplesEnd,
    max_memory: Option<u64>,
    timeout: Option<std::time::Duration>,
) -> Result<Histogram, crate::error::Error> {
    if timeout.is_none() {
        return par_histogram_within(template, samples, seed, nodes_per_sample, end, max_memory);
    }
    let owned = template.clone();
    let work = move || par_histogram_within(&owned, samples, seed, nodes_per_sample, end, max_memory);
    crate::bounded::within_timeout(timeout, work)?
}

/// The peak memory of [`par_histogram`], for a caller that reserves it before the work (the
/// server, whose running jobs share one budget): the larger of the set-up solve and one
/// candidate per worker thread for the samples.
#[doc(hidden)]
pub fn histogram_memory_estimate(template: &Puzzle) -> crate::memory::Estimate {
    let setup = crate::solve::memory_estimate(template, false);
    let samples = memory_estimate(template, rayon::current_num_threads());
    if samples.bytes > setup.bytes { samples } else { setup }
}

/// [`par_histogram`] within a memory limit (`None`: half of this machine's memory): refused
/// before any sample is taken when every worker thread's candidate would not fit.
///
/// ```
/// use modsolve::generate::{SamplesEnd, par_histogram, par_histogram_within};
///
/// let template = modsolve::parse_puzzle("Puzzle(graph: Grid(rows: 3, cols: 3), modulus: 2)")?;
/// let limited = par_histogram_within(&template, 50, 1, 100_000, SamplesEnd::Never, Some(1 << 30))?;
/// assert_eq!(limited.pars, par_histogram(&template, 50, 1, 100_000, SamplesEnd::Never)?.pars);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn par_histogram_within(
    template: &Puzzle,
    samples: usize,
    seed: u64,
    nodes_per_sample: u64,
    end: SamplesEnd,
    max_memory: Option<u64>,
) -> Result<Histogram, crate::error::Error> {
    let estimate = memory_estimate(template, rayon::current_num_threads());
    crate::memory::within(estimate, max_memory)?;
    Ok(par_histogram(template, samples, seed, nodes_per_sample, end)?)
}
