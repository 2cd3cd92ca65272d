//! Exact difficulty: how many solvable start states there are at each par (the fewest presses
//! from the start to the target), and the largest par, the puzzle's *God's number*.
//!
//! Presses commute and pressing button `j` `L_j` times (its period) changes nothing, so the par
//! of a start `s` is the fewest presses of any plan `x` with `A·x = target − s`: the solvable
//! starts are `target − image(A)`, and the par of `target − v` is the distance of `v` from `0`
//! in the graph whose vertices are the image of `A` and whose edges are single presses. The
//! distribution does not depend on the target.
//!
//! **Exact, by breadth-first search** over the image from `0`, one press at a time, when the
//! image has at most [`DistributionOptions::exact_limit`] elements (`Π L_j / |quiet space|`,
//! 2^32 by default) and the states fit in 64 bits. A state is its cells' values in mixed radix
//! (cell 0 the lowest digit; for mod 2 everywhere, one bit a cell, and a press is one XOR).
//! Two encodings of the distances, chosen from the memory they take:
//!
//! - a **byte array** over every state (`Π m_i` bytes, two when a par could exceed 254): each
//!   layer is found by scanning the array for the previous layer's value, so no frontier list
//!   is kept; used when the array fits the memory limit and is at most 64 times the image;
//! - a **hash set** of the states reached and the last layer as a list (about 40 bytes an image
//!   element), when the array would be too large (many cells, few buttons).
//!
//! Both count every state exactly once, at its first (smallest) layer, so the counts are exact.
//! The time budget is checked every 65,536 states expanded (and 2^24 scanned): a search it stops gives the exact counts of
//! the layers it finished and the number of solvable starts not reached (their par is larger).
//!
//! **Sampled beyond the limit** (or when the search would not fit in memory, or for staged
//! presses, whose phase rule the search does not model): the par histogram of random solvable
//! starts ([`crate::generate::par_histogram`]) with a Wilson score interval for each par's share
//! at the confidence asked for; the total of solvable starts stays exact (from the algebra).

use std::collections::{BTreeMap, HashSet};
use std::time::Instant;

use num_bigint::BigUint;
use num_traits::ToPrimitive;

use crate::error::Error;
use crate::generate::{Histogram, sample_pars};
use crate::memory::show;
use crate::model::Puzzle;

/// What the distribution is computed with.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct DistributionOptions {
    /// The exact search runs when the puzzle has at most this many solvable starts.
    pub exact_limit: u64,
    /// Samples for the sampled distribution (at most: the deadline may stop it sooner).
    pub samples: usize,
    /// The seed of the samples.
    pub seed: u64,
    /// Search nodes per sample.
    pub nodes_per_sample: u64,
    /// The samples' work in all ([`crate::generate::SamplesEnd::Work`]; the default budget).
    pub work: Option<u64>,
    /// The budget's time: no layer (exact) or sample starts after this, and the samples still
    /// running are abandoned at it.
    pub deadline: Option<Instant>,
    /// The wall time the whole distribution may take, set-up included (`None`: no bound); past
    /// it the result is [`Error::TimedOut`] and the work stops.
    pub timeout: Option<std::time::Duration>,
    /// The memory limit in bytes (`None`: half of this machine's memory).
    pub max_memory: Option<u64>,
    /// The confidence of the sampled intervals, in `(0, 1)`.
    pub confidence: f64,
}

impl Default for DistributionOptions {
    fn default() -> Self {
        DistributionOptions {
            exact_limit: DEFAULT_EXACT_LIMIT,
            samples: DEFAULT_SAMPLES,
            seed: 1,
            nodes_per_sample: 2_000_000,
            work: None,
            deadline: None,
            timeout: None,
            max_memory: None,
            confidence: DEFAULT_CONFIDENCE,
        }
    }
}

/// Search nodes a sample gets when the budget bounds all the samples together (a time, or the
/// default's work).
#[doc(hidden)]
pub const NODES_PER_TIMED_SAMPLE: u64 = 2_000_000;

/// What bounds all the samples of a par histogram or distribution together.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SamplingBound {
    /// Nothing but the samples asked for, each within its nodes (a node budget given).
    Samples,
    /// A time for all of them (and for the exact search): depends on the machine.
    Time(std::time::Duration),
    /// Work for all of them, counted ([`crate::generate::SamplesEnd::Work`]): the default
    /// budget, the same on every machine.
    Work(u64),
}

impl SamplingBound {
    /// Its time, if it is one.
    pub fn time(self) -> Option<std::time::Duration> {
        match self {
            SamplingBound::Time(time) => Some(time),
            SamplingBound::Samples | SamplingBound::Work(_) => None,
        }
    }

    /// Its work, if it is that.
    pub fn work(self) -> Option<u64> {
        match self {
            SamplingBound::Work(work) => Some(work),
            SamplingBound::Samples | SamplingBound::Time(_) => None,
        }
    }

    /// What ends the samples, a time counted from `now`.
    pub fn end(self, now: Instant) -> crate::generate::SamplesEnd {
        use crate::generate::SamplesEnd;
        match self {
            SamplingBound::Samples => SamplesEnd::Never,
            SamplingBound::Time(time) => SamplesEnd::At(now + time),
            SamplingBound::Work(work) => SamplesEnd::Work(work),
        }
    }

    /// The budget as a report names it where it stopped the samples: "the 1s budget".
    pub fn describe(self) -> String {
        match self {
            SamplingBound::Time(time) => format!("the {time:?} budget"),
            SamplingBound::Work(work) => format!("the budget ({work} nodes of work)"),
            SamplingBound::Samples => "the budget".into(),
        }
    }
}

/// How a budget bounds a par histogram or distribution: each sample's search nodes, and what
/// bounds all samples together. A node count given bounds each sample and nothing else; a time
/// bounds them all, with [`NODES_PER_TIMED_SAMPLE`] nodes each (or fewer, when given); the
/// default budget is [`crate::bounded::DEFAULT_NODES`] of work in all (each sample's
/// elimination and search counted), with [`NODES_PER_TIMED_SAMPLE`] nodes each: about 10 s
/// here, and the same samples on every machine.
#[doc(hidden)]
pub fn sampling_bounds(budget: crate::Budget) -> (u64, SamplingBound) {
    if budget.is_default() {
        (NODES_PER_TIMED_SAMPLE, SamplingBound::Work(crate::bounded::DEFAULT_NODES))
    } else if let Some(time) = budget.time {
        (budget.nodes.min(NODES_PER_TIMED_SAMPLE), SamplingBound::Time(time))
    } else {
        (budget.nodes, SamplingBound::Samples)
    }
}

/// How a budget bounds a par distribution or histogram: as [`sampling_bounds`], except that a
/// node count given also bounds the samples' work in all ([`SamplingBound::Work`]: each
/// sample's fixed cost, elimination and search counted), so a node budget ends the samples as
/// a time does, with the samples taken so far, the same on every machine.
#[doc(hidden)]
pub fn distribution_bounds(budget: crate::Budget) -> (u64, SamplingBound) {
    match sampling_bounds(budget) {
        (nodes, SamplingBound::Samples) => (nodes, SamplingBound::Work(budget.nodes)),
        bounds => bounds,
    }
}

/// The default largest number of solvable starts that is counted exactly: 2^32.
pub const DEFAULT_EXACT_LIMIT: u64 = 1 << 32;

/// The default number of samples of a par distribution (and of the command line's histogram).
pub const DEFAULT_SAMPLES: usize = 1000;

/// The default confidence of a sampled distribution's intervals.
pub const DEFAULT_CONFIDENCE: f64 = 0.95;

/// The par distribution of a puzzle's solvable starts.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct ParDistribution {
    /// Every start state: `Π m_i`.
    pub states: BigUint,
    /// The solvable starts: `|image of A|` (exact, from the algebra).
    pub solvable: BigUint,
    /// Exactly counted, or sampled.
    pub kind: DistributionKind,
}

/// How the distribution was found.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum DistributionKind {
    /// By breadth-first search over every solvable start.
    Exact(ExactCounts),
    /// From random solvable starts.
    Sampled(SampledShares),
}

/// The exact counts of a breadth-first search.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ExactCounts {
    /// Par → the number of solvable starts with that par.
    pub pars: BTreeMap<u64, u64>,
    /// Solvable starts the search did not reach before the deadline (0 when it finished):
    /// their par is above the largest listed.
    pub unreached: u64,
    /// How the distances were held.
    pub encoding: Encoding,
}

/// How the exact search held the distances.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    /// A byte (or two) for every state of the board.
    Array,
    /// A hash set of the states reached.
    HashSet,
}

impl Encoding {
    /// `array` or `hash-set`.
    pub fn code(self) -> &'static str {
        match self {
            Encoding::Array => "array",
            Encoding::HashSet => "hash-set",
        }
    }
}

/// Why the exact search was not run.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum NotExact {
    /// More solvable starts than the limit.
    TooMany {
        /// The limit.
        limit: u64,
    },
    /// A state does not fit in 64 bits (`Π m_i > 2^64`).
    BeyondWords,
    /// The search would need more memory than the limit.
    Memory {
        /// Bytes the search would need.
        needs: u64,
        /// The limit.
        limit: u64,
    },
    /// Staged presses: the game's phase rule lets a last press stop part-way, which the
    /// search over full presses does not model.
    Staged,
}

impl std::fmt::Display for NotExact {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NotExact::TooMany { limit } => write!(f, "more solvable starts than the exact limit of {limit}"),
            NotExact::BeyondWords => write!(f, "a state of this board does not fit in 64 bits"),
            NotExact::Memory { needs, limit } => write!(
                f,
                "the exact search needs about {}, more than the {} memory limit",
                show(*needs),
                show(*limit)
            ),
            NotExact::Staged => write!(f, "staged presses (a last press may stop part-way) are only sampled"),
        }
    }
}

/// The sampled shares.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct SampledShares {
    /// Why the exact search was not run.
    pub why: NotExact,
    /// The samples' pars.
    pub histogram: Histogram,
    /// Samples asked for.
    pub samples: usize,
    /// The confidence of the intervals.
    pub confidence: f64,
    /// Par → its share of the samples with a proven par, with its interval.
    pub shares: BTreeMap<u64, Share>,
    /// The upper end of the interval of a par no sample had.
    pub unseen_high: f64,
}

/// One par's share of the samples and its Wilson score interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Share {
    /// Samples with this par.
    pub samples: usize,
    /// Their share of the samples with a proven par.
    pub share: f64,
    /// The interval's lower end.
    pub low: f64,
    /// Its upper end.
    pub high: f64,
}

impl ParDistribution {
    /// The largest par, when every solvable start was counted.
    pub fn gods_number(&self) -> Option<u64> {
        match &self.kind {
            DistributionKind::Exact(exact) if exact.unreached == 0 => exact.pars.keys().next_back().copied(),
            _ => None,
        }
    }

    /// A lower bound of the largest par: the largest seen (plus one when starts were not
    /// reached).
    pub fn gods_number_at_least(&self) -> Option<u64> {
        match &self.kind {
            DistributionKind::Exact(exact) => {
                let largest = exact.pars.keys().next_back().copied().unwrap_or(0);
                Some(if exact.unreached > 0 { largest + 1 } else { largest })
            }
            DistributionKind::Sampled(sampled) => sampled.histogram.pars.keys().next_back().copied(),
        }
    }
}

/// The par distribution of `template`'s solvable starts (its own start is ignored, as are its
/// press limits and intended plan): exact when it has at most `options.exact_limit` solvable
/// starts and the search fits in memory, sampled otherwise. Only the sampled path can be
/// refused for memory ([`Error::OverMemory`]).
///
/// ```
/// use modsolve::difficulty::{DistributionKind, DistributionOptions, par_distribution};
///
/// let template = modsolve::parse_puzzle("Puzzle(graph: Grid(rows: 3, cols: 3), modulus: 2)")?;
/// let distribution = par_distribution(&template, &DistributionOptions::default())?;
/// // 3×3 Lights Out: each of the 512 starts has one plan, so C(9, k) starts have par k.
/// let DistributionKind::Exact(counts) = &distribution.kind else { panic!("small enough to count") };
/// let binomial = [1, 9, 36, 84, 126, 126, 84, 36, 9, 1];
/// assert!(counts.pars.iter().all(|(&par, &starts)| starts == binomial[par as usize]));
/// assert_eq!(distribution.gods_number(), Some(9));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn par_distribution(template: &Puzzle, options: &DistributionOptions) -> Result<ParDistribution, Error> {
    if options.timeout.is_none() {
        return distribution(template, options);
    }
    let (owned, copied) = (template.clone(), *options);
    crate::bounded::within_timeout(options.timeout, move || distribution(&owned, &copied))?
}

/// The peak memory of [`par_distribution`] with `options`, for a caller that reserves it
/// before the work (the server, whose running jobs share one budget): the set-up solve, then
/// the exact search's encoding when it would run, else one candidate per worker thread for the
/// samples. A template whose states fit in 64 bits (the exact search needs that) is eliminated
/// here to find which runs, which is cheap at that size; a larger one can only be sampled.
#[doc(hidden)]
pub fn memory_estimate(template: &Puzzle, options: &DistributionOptions) -> crate::memory::Estimate {
    let setup = crate::solve::memory_estimate(template, false);
    let states = crate::check::product(template.moduli.iter().map(|&m| BigUint::from(m)));
    let exact = match (states.to_u64(), &template.phases) {
        (Some(_), None) => setup_counts(template)
            .ok()
            .and_then(|(solvable, _)| exact_plan(template, &solvable, &states, options).ok())
            .map(|plan| plan.estimate()),
        _ => None,
    };
    let work =
        exact.unwrap_or_else(|| crate::generate::memory_estimate(template, rayon::current_num_threads()));
    if work.bytes > setup.bytes { work } else { setup }
}

/// The template's solvable starts and its buttons' periods, from one elimination (its other
/// results are freed before the distribution's search or samples allocate theirs).
fn setup_counts(template: &Puzzle) -> Result<(BigUint, Vec<BigUint>), crate::error::InternalError> {
    let base = crate::generate::with_start(template, template.target.clone());
    let answer = crate::solve::solve(&base)?;
    // As powers of the distinct values: multiplying 90,000 factors one by one is quadratic.
    let domain = crate::check::product(answer.periods.iter().cloned());
    Ok((&domain / &answer.kernel_size, answer.periods))
}

/// [`par_distribution`] on this thread, with no timeout of its own.
fn distribution(template: &Puzzle, options: &DistributionOptions) -> Result<ParDistribution, Error> {
    let (solvable, periods) = setup_counts(template)?;
    let states = crate::check::product(template.moduli.iter().map(|&m| BigUint::from(m)));
    let why = match exact_plan(template, &solvable, &states, options) {
        Ok(plan) => {
            let exact = breadth_first(template, &plan, options.deadline);
            return Ok(ParDistribution { states, solvable, kind: DistributionKind::Exact(exact) });
        }
        Err(why) => why,
    };
    let estimate = crate::generate::memory_estimate(template, rayon::current_num_threads());
    crate::memory::within(estimate, options.max_memory)?;
    let histogram = sample_pars(
        template,
        &periods,
        options.samples,
        options.seed,
        options.nodes_per_sample,
        match (options.deadline, options.work) {
            (Some(deadline), _) => crate::generate::SamplesEnd::At(deadline),
            (None, Some(work)) => crate::generate::SamplesEnd::Work(work),
            (None, None) => crate::generate::SamplesEnd::Never,
        },
    )?;
    let z = normal_quantile(0.5 + options.confidence / 2.0);
    let proven = histogram.taken - histogram.unproven;
    let shares = histogram
        .pars
        .iter()
        .map(|(&par, &samples)| {
            let (low, high) = wilson(samples, proven, z);
            (par, Share { samples, share: samples as f64 / proven as f64, low, high })
        })
        .collect();
    let unseen_high = wilson(0, proven, z).1;
    let sampled = SampledShares {
        why,
        histogram,
        samples: options.samples,
        confidence: options.confidence,
        shares,
        unseen_high,
    };
    Ok(ParDistribution { states, solvable, kind: DistributionKind::Sampled(sampled) })
}

/// How the exact search will run.
struct Plan {
    /// The solvable starts.
    image: u64,
    /// `Π m_i`.
    states: u64,
    /// The largest par there can be: `Σ (L_j − 1)`, capped.
    most: u64,
    encoding: Encoding,
}

/// How the exact search would run, or why it cannot.
fn exact_plan(
    template: &Puzzle,
    solvable: &BigUint,
    states: &BigUint,
    options: &DistributionOptions,
) -> Result<Plan, NotExact> {
    if template.phases.is_some() {
        return Err(NotExact::Staged);
    }
    let image = match solvable.to_u64() {
        Some(image) if image <= options.exact_limit => image,
        _ => return Err(NotExact::TooMany { limit: options.exact_limit }),
    };
    // Each state is a u64, and `Π m_i − 1` is the largest.
    let states = states.to_u64().ok_or(NotExact::BeyondWords)?;
    let most = template
        .periods()
        .iter()
        .map(|l| l.to_u64().unwrap_or(u64::MAX).saturating_sub(1))
        .fold(0u64, u64::saturating_add);
    let limit = options.max_memory.unwrap_or_else(crate::memory::default_limit);
    let [array, hashed] = exact_estimates(states, image, most >= u8::MAX as u64);
    // The layer scan reads the whole array once per par: worth it while the array is not much
    // larger than the image.
    if crate::memory::within(array.clone(), Some(limit)).is_ok() && states / 64 <= image {
        return Ok(Plan { image, states, most, encoding: Encoding::Array });
    }
    if crate::memory::within(hashed.clone(), Some(limit)).is_ok() {
        return Ok(Plan { image, states, most, encoding: Encoding::HashSet });
    }
    Err(NotExact::Memory { needs: array.bytes.min(hashed.bytes), limit })
}

impl Plan {
    /// The memory the search takes with this plan's encoding.
    fn estimate(&self) -> crate::memory::Estimate {
        let [array, hashed] = exact_estimates(self.states, self.image, self.most >= u8::MAX as u64);
        match self.encoding {
            Encoding::Array => array,
            Encoding::HashSet => hashed,
        }
    }
}

/// A press on a state in mixed radix.
enum Press {
    /// Mod 2 everywhere: XOR with this mask.
    Xor(u64),
    /// `(cell, place value, modulus, amount)` of each cell it changes (each cell once).
    Digits(Vec<(usize, u64, u64, u64)>),
}

/// The presses of a puzzle, as edges between states.
struct Moves {
    presses: Vec<Press>,
    /// The moduli, to read a state's digits once for all its presses.
    moduli: Vec<u64>,
    digits: Vec<u64>,
}

impl Moves {
    fn new(template: &Puzzle) -> Moves {
        let cells = template.cell_count();
        let mut places = Vec::with_capacity(cells);
        let mut place = 1u64;
        for i in 0..cells {
            places.push(place);
            place = place.wrapping_mul(template.moduli[i]);
        }
        let binary = cells <= 64 && template.moduli.iter().all(|&m| m == 2);
        let presses = (0..template.button_count())
            .map(|j| {
                let effects = template.effects(j);
                if binary {
                    Press::Xor(effects.iter().fold(0u64, |mask, &(i, _)| mask | 1 << i))
                } else {
                    Press::Digits(
                        effects.iter().map(|&(i, a)| (i, places[i], template.moduli[i], a)).collect(),
                    )
                }
            })
            // A press that changes nothing adds no edge.
            .filter(|p| !matches!(p, Press::Xor(0)) && !matches!(p, Press::Digits(d) if d.is_empty()))
            .collect();
        let moduli = if binary { Vec::new() } else { template.moduli.to_vec() };
        Moves { presses, digits: vec![0; moduli.len()], moduli }
    }

    /// Calls `f` with the state one press of each button leads to from `state`.
    #[inline]
    fn from(&mut self, state: u64, mut f: impl FnMut(u64)) {
        if !self.moduli.is_empty() {
            let mut rest = state;
            for (digit, &m) in self.digits.iter_mut().zip(&self.moduli) {
                *digit = rest % m;
                rest /= m;
            }
        }
        for press in &self.presses {
            match press {
                Press::Xor(mask) => f(state ^ mask),
                Press::Digits(cells) => {
                    let mut t = state;
                    for &(i, place, m, a) in cells {
                        let d = self.digits[i];
                        let e = if d >= m - a { d - (m - a) } else { d + a };
                        // Wrapping: the true result is a state, below 2^64.
                        t = t.wrapping_sub(d.wrapping_mul(place)).wrapping_add(e.wrapping_mul(place));
                    }
                    f(t)
                }
            }
        }
    }
}

/// How often the deadline is looked at: every this many states expanded.
const DEADLINE_EVERY: u64 = 1 << 16;

/// And every this many states scanned.
const SCAN_EVERY: u64 = 1 << 24;

fn breadth_first(template: &Puzzle, plan: &Plan, deadline: Option<Instant>) -> ExactCounts {
    let mut moves = Moves::new(template);
    // Where the deadline is looked at, abandoned work (a timeout) stops too.
    let late = || {
        crate::bounded::checkpoint();
        deadline.is_some_and(|d| Instant::now() >= d)
    };
    let mut pars = BTreeMap::new();
    let mut reached = 0u64;
    match plan.encoding {
        Encoding::Array if plan.most < u8::MAX as u64 => {
            by_array::<u8>(plan.states, &mut moves, &mut pars, &mut reached, &late)
        }
        Encoding::Array => by_array::<u16>(plan.states, &mut moves, &mut pars, &mut reached, &late),
        Encoding::HashSet => by_hash(&mut moves, &mut pars, &mut reached, &late),
    }
    ExactCounts { pars, unreached: plan.image - reached, encoding: plan.encoding }
}

/// Distances stored as `par + 1` (0: not reached yet).
trait Cell: Copy + Eq + Send + Sync {
    const ZERO: Self;
    fn of(par: u64) -> Self;
}

impl Cell for u8 {
    const ZERO: Self = 0;
    fn of(par: u64) -> Self {
        (par + 1) as u8
    }
}

impl Cell for u16 {
    const ZERO: Self = 0;
    fn of(par: u64) -> Self {
        (par + 1).min(u16::MAX as u64) as u16
    }
}

fn by_array<T: Cell>(
    states: u64,
    moves: &mut Moves,
    pars: &mut BTreeMap<u64, u64>,
    reached: &mut u64,
    late: &dyn Fn() -> bool,
) {
    let mut dist = vec![T::ZERO; states as usize];
    dist[0] = T::of(0);
    pars.insert(0, 1);
    *reached = 1;
    let mut expanded = 0u64;
    for par in 0u64.. {
        let (here, next) = (T::of(par), T::of(par + 1));
        let mut found = 0u64;
        for s in 0..states {
            // The scan itself is bounded too: a large array with a thin layer.
            if s % SCAN_EVERY == SCAN_EVERY - 1 && late() {
                return;
            }
            if dist[s as usize] != here {
                continue;
            }
            expanded += 1;
            if expanded.is_multiple_of(DEADLINE_EVERY) && late() {
                // This layer is unfinished: it is not counted.
                return;
            }
            moves.from(s, |t| {
                let t = t as usize;
                if dist[t] == T::ZERO {
                    dist[t] = next;
                    found += 1;
                }
            });
        }
        if found == 0 {
            return;
        }
        pars.insert(par + 1, found);
        *reached += found;
        if late() {
            return;
        }
    }
}

fn by_hash(moves: &mut Moves, pars: &mut BTreeMap<u64, u64>, reached: &mut u64, late: &dyn Fn() -> bool) {
    let mut seen: HashSet<u64> = HashSet::from([0]);
    let mut layer = vec![0u64];
    pars.insert(0, 1);
    *reached = 1;
    let mut expanded = 0u64;
    for par in 1u64.. {
        let mut next = Vec::new();
        for &s in &layer {
            expanded += 1;
            if expanded.is_multiple_of(DEADLINE_EVERY) && late() {
                return;
            }
            moves.from(s, |t| {
                if seen.insert(t) {
                    next.push(t);
                }
            });
        }
        if next.is_empty() {
            return;
        }
        pars.insert(par, next.len() as u64);
        *reached += next.len() as u64;
        layer = next;
        if late() {
            return;
        }
    }
}

/// The Wilson score interval of `k` successes in `n` trials at the normal quantile `z`.
#[doc(hidden)]
pub fn wilson(k: usize, n: usize, z: f64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let (k, n) = (k as f64, n as f64);
    let p = k / n;
    let z2 = z * z;
    let denominator = 1.0 + z2 / n;
    let center = (p + z2 / (2.0 * n)) / denominator;
    let half = z / denominator * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    ((center - half).max(0.0), (center + half).min(1.0))
}

/// The standard normal quantile of `p` in `(0, 1)` (Acklam's rational approximation, relative
/// error below 1.2e-9).
#[doc(hidden)]
pub fn normal_quantile(p: f64) -> f64 {
    const A: [f64; 6] = [
        -3.969683028665376e1,
        2.209460984245205e2,
        -2.759285104469687e2,
        1.38357751867269e2,
        -3.066479806614716e1,
        2.506628277459239,
    ];
    const B: [f64; 5] = [
        -5.447609879822406e1,
        1.615858368580409e2,
        -1.556989798598866e2,
        6.680131188771972e1,
        -1.328068155288572e1,
    ];
    const C: [f64; 6] = [
        -7.784894002430293e-3,
        -3.223964580411365e-1,
        -2.400758277161838,
        -2.549732539343734,
        4.374664141464968,
        2.938163982698783,
    ];
    const D: [f64; 4] = [7.784695709041462e-3, 3.224671290700398e-1, 2.445134137142996, 3.754408661907416];
    let tail = |q: f64| {
        (((((C[0] * q + C[1]) * q + C[2]) * q + C[3]) * q + C[4]) * q + C[5])
            / ((((D[0] * q + D[1]) * q + D[2]) * q + D[3]) * q + 1.0)
    };
    if p < 0.02425 {
        tail((-2.0 * p.ln()).sqrt())
    } else if p > 1.0 - 0.02425 {
        -tail((-2.0 * (1.0 - p).ln()).sqrt())
    } else {
        let q = p - 0.5;
        let r = q * q;
        (((((A[0] * r + A[1]) * r + A[2]) * r + A[3]) * r + A[4]) * r + A[5]) * q
            / (((((B[0] * r + B[1]) * r + B[2]) * r + B[3]) * r + B[4]) * r + 1.0)
    }
}

impl ExactCounts {
    /// The solvable starts counted.
    pub fn counted(&self) -> u64 {
        self.pars.values().sum()
    }
}

impl SampledShares {
    /// Whether every sample asked for was taken.
    pub fn complete(&self) -> bool {
        self.histogram.taken == self.samples
    }
}

/// Bytes the exact par distribution's hash-set search takes per solvable start: the set's slot
/// and control byte with its spare capacity, and the layer lists.
const HASHED_STATE: u64 = 40;

/// The estimates of the exact par distribution's two encodings: the
/// distance array over all `states` (a byte a state, two when `wide`: a par can exceed 254), and
/// the hash set of the `solvable` states reached with the last layer's list.
fn exact_estimates(states: u64, solvable: u64, wide: bool) -> [crate::memory::Estimate; 2] {
    let width = if wide { 2 } else { 1 };
    [
        crate::memory::Estimate {
            bytes: states.saturating_mul(width),
            largest: format!("a distance array over {states} states"),
        },
        crate::memory::Estimate {
            bytes: solvable.saturating_mul(HASHED_STATE),
            largest: format!("a hash set of {solvable} solvable starts"),
        },
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normal_quantiles() {
        assert!((normal_quantile(0.975) - 1.959964).abs() < 1e-5);
        assert!((normal_quantile(0.5)).abs() < 1e-9);
        assert!((normal_quantile(0.0005) + 3.290527).abs() < 1e-5);
    }

    #[test]
    fn wilson_intervals() {
        let (low, high) = wilson(50, 100, 1.959964);
        assert!((low - 0.4038).abs() < 1e-3 && (high - 0.5962).abs() < 1e-3, "{low} {high}");
        let (low, high) = wilson(0, 100, 1.959964);
        assert!(low == 0.0 && (high - 0.0370).abs() < 1e-3, "{high}");
    }
}
