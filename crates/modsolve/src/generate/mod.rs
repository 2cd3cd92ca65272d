//! `modsolve generate`: levels to a spec from a template, and the sampled par histogram of a
//! template.
//!
//! A level's start is made solvable by construction: a random plan `x` is applied backwards
//! from the target (`start = target − A·x`). The solver then measures it (count, proven par,
//! how players fare) and the level is kept when it meets the spec and is not the same level as
//! one kept before — the same start up to the template's symmetries (rotations and reflections
//! of a grid that leave the moduli and the target unchanged).
//!
//! The plan is uniformly random (one draw below `L_j` per button), or with [`Spec::scramble`]
//! `K` presses, each drawn among the buttons still open (pressed fewer than `L_j − 1` times),
//! so the plan has exactly `K` presses and the par is at most `K`. When the analysis cannot
//! prove the par within the node budget, branch and bound runs again with the better of its
//! plan and the scramble as the bound; a level whose par is still not proven is not kept as
//! meeting [`Spec::par`]. With [`Spec::deny_warnings`], a level must also pass
//! [`crate::check::check`] with warnings denied.
//!
//! Reproducible: candidate `i` draws from its own generator, ChaCha8 keyed by the seed on
//! stream `i` (`candidate_rng`); candidates are judged in parallel and accepted in index
//! order, and the solver's budget is counted in nodes, not time. ChaCha's output for a key and
//! a stream is fixed by the algorithm, and the draws below a bound are made here (`below`),
//! not by a distribution whose algorithm a dependency could change: a seed gives the same
//! levels from one release to the next, and a test pins the first levels of a seed.
//!
//! Streaming: each accepted level is handed to the caller at once (one round of candidates is
//! held at a time, never the batch), and [`write_atomically`] writes a level file all or
//! nothing.

use std::collections::HashSet;
use std::io::Write;
use std::path::Path;

use chacha20::ChaCha8Rng;
use num_bigint::BigUint;
use num_traits::{One, ToPrimitive};
use rand::{Rng, SeedableRng};
use rayon::prelude::*;

use crate::algebra::arith::sub_mod;
use crate::analysis::{Options, analysis_of};
use crate::bounded::{Stop, checkpoint};
use crate::error::InternalError;
use crate::model::{CellValues, Puzzle, canonical, symmetries};
use crate::solve::search::Budget;
use crate::solve::solve;
use crate::strategy::Strategy;

mod histogram;

use histogram::FIXED_WORK;
pub(crate) use histogram::sample_pars;
pub use histogram::{Histogram, SamplesEnd, par_histogram, par_histogram_within};
#[doc(hidden)]
pub use histogram::{histogram_memory_estimate, par_histogram_timed};

/// What a player strategy must do in a generated level.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StrategyRequirement {
    /// This strategy must win.
    Wins(Strategy),
    /// No simple strategy may win.
    None,
}

impl StrategyRequirement {
    /// Whether a level meets the requirement.
    pub fn met(&self, puzzle: &Puzzle) -> bool {
        match self {
            StrategyRequirement::Wins(strategy) => crate::strategy::requirement_met(puzzle, Some(*strategy)),
            StrategyRequirement::None => crate::strategy::requirement_met(puzzle, None),
        }
    }
}

/// The spec of a batch of levels.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Spec {
    /// How many levels to make.
    pub count: usize,
    /// The random seed: the same seed gives the same levels.
    pub seed: u64,
    /// Exactly one solution.
    pub unique: bool,
    /// Proven par within this inclusive range.
    pub par: Option<(u64, u64)>,
    /// What a player strategy must do, if anything.
    pub strategy: Option<StrategyRequirement>,
    /// Candidates to try at most before giving up.
    pub attempts: usize,
    /// The solver's budget per candidate (nodes only, for reproducibility).
    pub nodes_per_level: u64,
    /// Make each start from this many random presses (so its par is at most this), instead of
    /// a uniformly random solvable start.
    pub scramble: Option<u64>,
    /// Keep only levels that pass `check` with warnings denied.
    pub deny_warnings: bool,
    /// The work of all candidates together (their eliminations and search nodes, and
    /// a fixed 1,000 nodes each), when it bounds the run: no round of candidates starts once it is
    /// reached. Counted work, so a run stops at the same candidate on every machine.
    pub work: Option<u64>,
}

impl Spec {
    /// The solver's budget per candidate that the command line and the Python package use.
    pub const DEFAULT_NODES_PER_LEVEL: u64 = 2_000_000;

    /// The candidates tried for `count` levels when the caller gives no number: 2000 a level,
    /// at least 1000 and at most ten million (minutes of work).
    pub fn default_attempts(count: usize) -> usize {
        count.saturating_mul(2000).clamp(1000, 10_000_000)
    }

    /// A spec of `count` levels and nothing else asked: seed 0, any par, no strategy
    /// requirement, [`Spec::default_attempts`] candidates of [`Spec::DEFAULT_NODES_PER_LEVEL`]
    /// nodes each, uniformly random solvable starts. Set the rest with the setters
    /// (`Spec::new(5).par(Some((6, 10)))`) or the public fields.
    pub fn new(count: usize) -> Spec {
        Spec {
            count,
            seed: 0,
            unique: false,
            par: None,
            strategy: None,
            attempts: Spec::default_attempts(count),
            nodes_per_level: Spec::DEFAULT_NODES_PER_LEVEL,
            scramble: None,
            deny_warnings: false,
            work: None,
        }
    }
}

/// One generated level.
#[derive(Clone, Debug)]
pub struct Level {
    /// The template with this level's start and its fewest-press plan as `intended`.
    pub puzzle: Puzzle,
    /// The proven fewest presses.
    pub par: u64,
    /// How many plans solve the level.
    pub count: BigUint,
    /// With a scramble: the presses the start was made with (pressing them from the start
    /// reaches the target; they add up to the scramble's length).
    pub scramble: Option<Vec<u64>>,
}

/// A candidate judged: its level (when accepted), its proven par, and the work it took.
type Judgement = (Result<Option<Level>, InternalError>, Option<u64>, u64);

/// A finished run: how many levels were accepted (each handed over as it was) and how many
/// candidates were judged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Batch {
    /// Levels accepted.
    pub found: usize,
    /// Candidates judged.
    pub tried: usize,
    /// Whether the spec's work bound ([`Spec::work`]) ended the run before its attempts.
    pub out_of_work: bool,
    /// The lowest and highest proven par among the candidates judged (met or not), when any was
    /// proven: what random starts of this spec give.
    pub pars: Option<(u64, u64)>,
}

/// Why a spec can never be met for a template. The messages name the spec's fields, not
/// command-line flags.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Infeasible {
    /// A unique solution was asked for, but every solvable start has this many.
    #[error(
        "a unique solution cannot be met: every solvable start of this template has {solutions} solutions, because it has {quiet} quiet patterns"
    )]
    Unique {
        /// Solutions of every solvable start.
        solutions: BigUint,
        /// Quiet patterns of the template.
        quiet: BigUint,
    },
    /// A period does not fit in 64 bits, so starts cannot be drawn.
    #[error("press periods do not fit in 64 bits; levels cannot be drawn")]
    BeyondWords,
    /// The par range is empty.
    #[error("the par range {low}..{high} is empty")]
    EmptyPar {
        /// The lowest par asked for.
        low: u64,
        /// The highest.
        high: u64,
    },
    /// The par range allows only 0 presses.
    #[error("the par must allow at least 1 press: a level is not already solved")]
    ZeroPar,
    /// No plan needs as many presses as the lowest par asked for.
    #[error(
        "the par range {low}..{high} cannot be met: no plan of this template needs more than {most} presses"
    )]
    ParTooHigh {
        /// The lowest par asked for.
        low: u64,
        /// The highest.
        high: u64,
        /// The most presses any plan has.
        most: u128,
    },
    /// No press changes anything.
    #[error("no press changes anything: every start is the target")]
    NothingChanges,
    /// Fewer solvable starts than levels asked for.
    #[error(
        "{count} levels cannot be made: this template has only {starts} solvable starts other than the target"
    )]
    TooFewStarts {
        /// Levels asked for.
        count: usize,
        /// Solvable starts other than the target.
        starts: BigUint,
    },
    /// Fewer levels than asked for exist at all: the scramble's plans, counted one by one, make
    /// only `levels` starts other than the target that differ up to the template's symmetries.
    #[error("{count} levels cannot be made: only {levels} distinct level{s} exist{v} for this spec", s = if *levels == 1 { "" } else { "s" }, v = if *levels == 1 { "s" } else { "" })]
    TooFewLevels {
        /// Levels asked for.
        count: usize,
        /// The distinct levels there are.
        levels: usize,
    },
    /// A scramble of no presses leaves the target.
    #[error("a scramble must have at least 1 press: a level is not already solved")]
    ZeroScramble,
    /// More presses than there are without a press undoing another, or than
    /// [`SCRAMBLE_LIMIT`].
    #[error(
        "a scramble of {scramble} presses cannot be made: this template has at most {most} presses that undo none of the others (and a scramble at most 10000000)"
    )]
    ScrambleTooLong {
        /// The presses asked for.
        scramble: u64,
        /// `Σ (L_j − 1)`.
        most: u128,
    },
    /// The lowest par asked for is above the scramble, which bounds every par.
    #[error(
        "the par range {low}..{high} cannot be met with a scramble of {scramble} presses: its pars are at most {scramble}"
    )]
    ParAboveScramble {
        /// The lowest par asked for.
        low: u64,
        /// The highest.
        high: u64,
        /// The presses of the scramble.
        scramble: u64,
    },
    /// The strategy cannot be played on this template.
    #[error("the {0} strategy needs a grid whose buttons are its cells")]
    StrategyDoesNotApply(Strategy),
}

/// Why a spec can never be met, said before any search.
///
/// ```
/// use modsolve::generate::{Spec, impossible};
///
/// let template = modsolve::parse_puzzle("Puzzle(graph: Grid(rows: 3, cols: 3), modulus: 2)")?;
/// // A scramble of 5 presses makes levels of par 5 at most.
/// let spec = Spec::new(1).par(Some((6, 10))).scramble(Some(5));
/// let why = impossible(&template, &spec)?.expect("refused");
/// assert_eq!(why.to_string(), "the par range 6..10 cannot be met with a scramble of 5 presses: its pars are at most 5");
/// assert!(impossible(&template, &Spec::new(1).par(Some((3, 5))).scramble(Some(5)))?.is_none());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn impossible(template: &Puzzle, spec: &Spec) -> Result<Option<Infeasible>, InternalError> {
    let answer = solve(&with_start(template, template.target.clone()))?;
    if spec.unique && answer.kernel_size > BigUint::one() {
        return Ok(Some(Infeasible::Unique {
            solutions: answer.kernel_size.clone(),
            quiet: answer.quiet_patterns(),
        }));
    }
    let Some(periods) = answer.periods.iter().map(|l| l.to_u64()).collect::<Option<Vec<u64>>>() else {
        return Ok(Some(Infeasible::BeyondWords));
    };
    let most: u128 = periods.iter().map(|&l| (l - 1) as u128).sum();
    if let Some(scramble) = spec.scramble {
        if scramble == 0 {
            return Ok(Some(Infeasible::ZeroScramble));
        }
        if scramble as u128 > most || scramble > SCRAMBLE_LIMIT {
            return Ok(Some(Infeasible::ScrambleTooLong { scramble, most }));
        }
        if let Some((low, high)) = spec.par
            && low <= high
            && low > scramble
        {
            return Ok(Some(Infeasible::ParAboveScramble { low, high, scramble }));
        }
    }
    if let Some((low, high)) = spec.par {
        if low > high {
            return Ok(Some(Infeasible::EmptyPar { low, high }));
        }
        if high == 0 {
            return Ok(Some(Infeasible::ZeroPar));
        }
        if low as u128 > most {
            return Ok(Some(Infeasible::ParTooHigh { low, high, most }));
        }
    }
    let domain = answer.periods.iter().product::<BigUint>();
    if answer.kernel_size == domain {
        return Ok(Some(Infeasible::NothingChanges));
    }
    // Levels differ in their start, and the target itself is not a level.
    let starts = &domain / &answer.kernel_size - BigUint::one();
    if BigUint::from(spec.count) > starts {
        return Ok(Some(Infeasible::TooFewStarts { count: spec.count, starts }));
    }
    if let Some(StrategyRequirement::Wins(strategy)) = spec.strategy
        && !crate::strategy::applies(template, strategy)
    {
        return Ok(Some(Infeasible::StrategyDoesNotApply(strategy)));
    }
    if let Some(scramble) = spec.scramble
        && let Some(levels) = scrambled_levels(template, &periods, scramble)
        && levels < spec.count
    {
        return Ok(Some(Infeasible::TooFewLevels { count: spec.count, levels }));
    }
    Ok(None)
}

/// The most scramble plans [`scrambled_levels`] plays one by one.
const COUNTED_PLANS: u128 = 100_000;

/// The levels a scramble of `presses` presses can make (starts other than the target, up to the
/// template's symmetries), when its plans are few enough to play each: every plan with
/// `0 <= x_j <= L_j − 1` and `Σ x_j = presses` (the plans [`scramble`] draws from). `None` when
/// there are more than [`COUNTED_PLANS`] of them, or counting them would take long.
fn scrambled_levels(template: &Puzzle, periods: &[u64], presses: u64) -> Option<usize> {
    let n = periods.len();
    // Plans by their presses so far, saturating past the limit: n × presses steps at most.
    if (n as u128) * (presses as u128 + 1) > 50_000_000 {
        return None;
    }
    let k = presses as usize;
    let cap = COUNTED_PLANS + 1;
    let mut ways = vec![0u128; k + 1];
    ways[0] = 1;
    for &l in periods {
        let top = l.saturating_sub(1) as usize;
        let mut next = vec![0u128; k + 1];
        for (sum, &w) in ways.iter().enumerate() {
            if w == 0 {
                continue;
            }
            for x in 0..=top.min(k - sum) {
                next[sum + x] = (next[sum + x] + w).min(cap);
            }
        }
        ways = next;
        checkpoint();
    }
    let plans = ways[k];
    if plans > COUNTED_PLANS || plans.saturating_mul((n as u128).max(1)) > 100_000_000 {
        return None;
    }
    // Every plan, in order: the last open buttons take what the first ones leave.
    let symmetries = symmetries(template);
    let mut seen: HashSet<Vec<u64>> = HashSet::new();
    let mut plan = vec![0u64; n];
    // The most presses the buttons from j on can take.
    let mut room = vec![0u64; n + 1];
    for j in (0..n).rev() {
        room[j] = room[j + 1].saturating_add(periods[j].saturating_sub(1));
    }
    fn each(
        j: usize,
        left: u64,
        periods: &[u64],
        room: &[u64],
        plan: &mut Vec<u64>,
        visit: &mut dyn FnMut(&[u64]),
    ) {
        if j == periods.len() {
            if left == 0 {
                visit(plan);
            }
            return;
        }
        if room[j] < left {
            return;
        }
        let top = periods[j].saturating_sub(1).min(left);
        for x in 0..=top {
            plan[j] = x;
            each(j + 1, left - x, periods, room, plan, visit);
        }
        plan[j] = 0;
    }
    each(0, presses, periods, &room, &mut plan, &mut |x| {
        let start = undone(template, x);
        if start != template.target.to_vec() {
            seen.insert(canonical(&start, &symmetries));
        }
    });
    Some(seen.len())
}

pub(crate) fn with_start(template: &Puzzle, start: impl Into<CellValues>) -> Puzzle {
    let mut p = template.with_start(start).expect("starts are made below the moduli");
    p.intended = None;
    p.max_presses = None;
    p
}

/// The generator of candidate `index`: ChaCha8 keyed by `seed` (little-endian, in the key's
/// first 8 bytes, the rest zero) on stream `index`.
fn candidate_rng(seed: u64, index: usize) -> ChaCha8Rng {
    let mut key = [0u8; 32];
    key[..8].copy_from_slice(&seed.to_le_bytes());
    let mut rng = ChaCha8Rng::from_seed(key);
    rng.set_stream(index as u64);
    rng
}

/// A uniform draw from `0..bound` (`bound >= 1`): the next 64-bit word, rejected while it falls
/// in the last `2^64 mod bound` values, reduced modulo `bound`.
fn below(rng: &mut ChaCha8Rng, bound: u64) -> u64 {
    let rejected = (u64::MAX % bound + 1) % bound;
    loop {
        let word = rng.next_u64();
        if word <= u64::MAX - rejected {
            return word % bound;
        }
    }
}

/// The longest scramble: each press is a draw, so a scramble is bounded like any other work.
pub const SCRAMBLE_LIMIT: u64 = 10_000_000;

/// A solvable start: the target with a random plan undone (one draw below `L_j` per button, in
/// button order).
fn random_start(template: &Puzzle, periods: &[u64], rng: &mut ChaCha8Rng) -> Vec<u64> {
    let plan: Vec<u64> = periods.iter().map(|&l| below(rng, l)).collect();
    undone(template, &plan)
}

/// The target with `plan` undone: the start from which `plan` reaches the target.
fn undone(template: &Puzzle, plan: &[u64]) -> Vec<u64> {
    let plan: Vec<BigUint> = plan.iter().map(|&x| BigUint::from(x)).collect();
    let pushed = template.apply(&vec![0; template.cell_count()], &plan);
    template.target.iter().zip(&pushed).zip(&template.moduli).map(|((&t, &a), &m)| sub_mod(t, a, m)).collect()
}

/// A scramble of exactly `presses` presses: each press is one draw below the number of buttons
/// still open, a button being open while it has been pressed fewer than `L_j − 1` times (so no
/// press undoes others, and the plan has `presses` presses in all). The open buttons are kept
/// in a list in button order, and a button that closes is swapped out with the last one.
/// `None` when fewer presses are open (the spec is refused before, by [`impossible`]).
fn scramble(periods: &[u64], presses: u64, rng: &mut ChaCha8Rng) -> Option<Vec<u64>> {
    let mut plan = vec![0u64; periods.len()];
    let mut open: Vec<usize> = (0..periods.len()).filter(|&j| periods[j] >= 2).collect();
    for _ in 0..presses {
        if open.is_empty() {
            return None;
        }
        let k = below(rng, open.len() as u64) as usize;
        let j = open[k];
        plan[j] += 1;
        if plan[j] + 1 == periods[j] {
            open.swap_remove(k);
        }
    }
    Some(plan)
}

/// The work counted for each level handed to `accept`: its receiver writes it (the command
/// writes a file and syncs it to disk, about 4 ms a level at load 8 on a 2-core machine of
/// 2026). Without it a template of cheap candidates (5×5 Lights Out, `--count` in the
/// millions) wrote levels for minutes within the default budget; with it a default run ends
/// after at most 2,000 levels.
const ACCEPT_WORK: u64 = 100_000;

/// Generates levels and hands each to `accept` as soon as it is accepted, in index order, so the
/// same seed gives the same levels in the same order and no more than one round of candidates is
/// held at a time. `progress` is told the run so far after each round (levels found, candidates
/// tried, the proven pars seen). An error from `accept`
/// stops the run and is returned.
///
/// ```
/// use modsolve::InternalError;
/// use modsolve::generate::{Spec, generate};
///
/// let template = modsolve::parse_puzzle("Puzzle(graph: Grid(rows: 3, cols: 3), modulus: 2)")?;
/// let spec = Spec::new(3).seed(7).par(Some((4, 6)));
/// let mut levels = Vec::new();
/// let batch = generate::<InternalError>(&template, &spec, &|_| {}, |level| {
///     levels.push(level);
///     Ok(())
/// })?;
/// assert_eq!((batch.found, levels.len()), (3, 3));
/// for level in &levels {
///     assert!((4..=6).contains(&level.par));
///     // The par is the level's proven fewest presses.
///     let report = modsolve::analyse(&level.puzzle, &modsolve::Options::default())?;
///     assert_eq!(report.fewest.expect("solvable").total(), level.par.into());
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn generate<E: From<InternalError>>(
    template: &Puzzle,
    spec: &Spec,
    progress: &(dyn Fn(&Batch) + Sync),
    mut accept: impl FnMut(Level) -> Result<(), E>,
) -> Result<Batch, E> {
    let base = solve(&with_start(template, template.target.clone()))?;
    let periods: Vec<u64> = base.periods.iter().map(|l| l.to_u64().unwrap_or(u64::MAX)).collect();
    let symmetries = symmetries(template);
    let budget = Budget { nodes: spec.nodes_per_level, time: None };
    let mut seen: HashSet<Vec<u64>> = HashSet::new();
    let mut found = 0;
    let mut tried = 0;
    let mut work = 0u64;
    let mut pars: Option<(u64, u64)> = None;
    // Fixed rounds (not the machine's threads): the work bound stops at the same candidate on
    // every machine.
    let round = 16;
    let stop = Stop::here();
    let out_of_work = |work: u64| spec.work.is_some_and(|limit| work >= limit);
    while found < spec.count && tried < spec.attempts && !out_of_work(work) {
        checkpoint();
        let end = tried.saturating_add(round).min(spec.attempts);
        let judged: Vec<Judgement> = (tried..end)
            .into_par_iter()
            .map(|index| {
                stop.carry(|| {
                    let mut rng = candidate_rng(spec.seed, index);
                    let (start, scrambled) = match spec.scramble {
                        None => (random_start(template, &periods, &mut rng), None),
                        Some(presses) => match scramble(&periods, presses, &mut rng) {
                            Some(plan) => (undone(template, &plan), Some(plan)),
                            None => return (Ok(None), None, FIXED_WORK),
                        },
                    };
                    if start == template.target {
                        return (Ok(None), None, FIXED_WORK);
                    }
                    let tally = Stop::nested();
                    let mut nodes = 0u64;
                    let mut par = None;
                    let level = tally.carry(|| {
                        judge_candidate(template, start, scrambled, spec, budget, &mut nodes, &mut par)
                    });
                    (level, par, tally.work_done().saturating_add(nodes).saturating_add(FIXED_WORK))
                })
            })
            .collect();
        for (level, par, cost) in judged {
            work = work.saturating_add(cost);
            if let Some(p) = par {
                pars = Some(pars.map_or((p, p), |(low, high)| (low.min(p), high.max(p))));
            }
            let Some(level) = level? else { continue };
            if found == spec.count {
                break;
            }
            if seen.insert(canonical(&level.puzzle.start.to_vec(), &symmetries)) {
                found += 1;
                accept(level)?;
                work = work.saturating_add(ACCEPT_WORK);
            }
        }
        tried = end;
        progress(&Batch { found, tried, out_of_work: false, pars });
    }
    let out_of_work = found < spec.count && tried < spec.attempts && out_of_work(work);
    Ok(Batch { found, tried, out_of_work, pars })
}

/// Writes `contents` to `path` all or nothing: into a temporary file in the same directory,
/// flushed to the disk, then renamed to `path` (permissions 0o666 less the umask, as for a file
/// written in place). Unless `overwrite`, an existing `path` is left alone and the error's kind
/// is `AlreadyExists`. On any failure the temporary file is removed,
/// so `path` is either absent, as it was, or complete.
#[doc(hidden)]
pub fn write_atomically(path: &Path, contents: &[u8], overwrite: bool) -> std::io::Result<()> {
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    let mut builder = tempfile::Builder::new();
    builder.prefix(".modsolve-").suffix(".tmp");
    // Like a file written in place: 0o666 less the umask, not the temporary file's 0o600.
    #[cfg(unix)]
    builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
    let mut file = builder.tempfile_in(dir)?;
    // Through the plain file: its errors are the OS's, without the temporary file's name.
    file.as_file_mut().write_all(contents)?;
    file.as_file().sync_all()?;
    if overwrite {
        file.persist(path)?;
    } else {
        file.persist_noclobber(path)?;
    }
    Ok(())
}

fn judge_candidate(
    template: &Puzzle,
    start: Vec<u64>,
    scrambled: Option<Vec<u64>>,
    spec: &Spec,
    budget: Budget,
    nodes: &mut u64,
    proven_par: &mut Option<u64>,
) -> Result<Option<Level>, InternalError> {
    let mut puzzle = with_start(template, start);
    let analysis = analysis_of(&puzzle, &Options { budget, ..Options::default() })?;
    *nodes = nodes.saturating_add(analysis.search_nodes.unwrap_or(0));
    let Some(fewest) = analysis.fewest else { return Ok(None) };
    if spec.unique && !analysis.count.value.is_one() {
        return Ok(None);
    }
    // Staged plans count the cut press among the presses started; `intended` lists them.
    let Some(mut intended) = fewest.presses.iter().map(|x| x.to_u64()).collect::<Option<Vec<u64>>>() else {
        return Ok(None);
    };
    let mut proven = fewest.is_proven();
    if !proven && let Some(plan) = &scrambled {
        match prove_within_scramble(&puzzle, &analysis.periods, &intended, plan, budget, nodes) {
            Some(best) => (intended, proven) = (best, true),
            None => return Ok(None),
        }
    }
    let Ok(par) = u64::try_from(intended.iter().map(|&x| x as u128).sum::<u128>()) else { return Ok(None) };
    if proven {
        *proven_par = Some(par);
    }
    if let Some((low, high)) = spec.par
        && (!proven || par < low || par > high)
    {
        return Ok(None);
    }
    if let Some(requirement) = &spec.strategy
        && !requirement.met(&puzzle)
    {
        return Ok(None);
    }
    puzzle.intended = Some(intended);
    puzzle.max_presses = template.max_presses.clone();
    if spec.deny_warnings && !crate::check::check(&puzzle, budget)?.passed(true) {
        return Ok(None);
    }
    Ok(Some(Level { puzzle, par, count: analysis.count.value, scramble: scrambled }))
}

/// The fewest-press plan of a scrambled level whose par the analysis did not prove: branch and
/// bound with the better of the analysis's plan and the scramble as the bound to beat, and no
/// button tried past that many presses. `None` when the budget runs out first (or for staged
/// presses, which the search does not model): the par is then not proven.
fn prove_within_scramble(
    puzzle: &Puzzle,
    periods: &[BigUint],
    found: &[u64],
    scrambled: &[u64],
    budget: Budget,
    nodes: &mut u64,
) -> Option<Vec<u64>> {
    use crate::solve::search::{Goal, Objective, search};
    if puzzle.phases.is_some() {
        return None;
    }
    let total = |x: &[u64]| x.iter().map(|&v| v as u128).sum::<u128>();
    let best = if total(found) <= total(scrambled) { found } else { scrambled };
    let bound = u64::try_from(total(best)).ok()?;
    let highest: Vec<u64> =
        periods.iter().map(|l| l.to_u64().unwrap_or(u64::MAX).saturating_sub(1).min(bound)).collect();
    let problem = crate::analysis::search_problem(puzzle, &highest);
    let outcome = search(&problem, Goal::Best(Objective::Total), budget, Some(Objective::Total.score(best)));
    *nodes = nodes.saturating_add(outcome.nodes);
    outcome.complete.then(|| outcome.plan.unwrap_or_else(|| best.to_vec()))
}

/// The estimate for `generate` and the par histogram: every worker thread solves and plays one
/// candidate of the template at a time.
#[doc(hidden)]
pub fn memory_estimate(template: &Puzzle, threads: usize) -> crate::memory::Estimate {
    let one = crate::solve::memory_estimate(template, false);
    let players = 16 * template.cell_count() as u64 + 8 * crate::solve::estimate::entries(template);
    crate::memory::Estimate {
        bytes: (one.bytes + players).saturating_mul(threads.max(1) as u64),
        largest: format!("{} candidates at once, each {}", threads.max(1), one.largest),
    }
}
