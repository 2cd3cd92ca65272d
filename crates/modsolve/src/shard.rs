//! Proofs in parts: the fewest-presses walk cut into `N` deterministic parts that run anywhere
//! (other processes, other machines, a cluster), and the parts' reports combined into the
//! proven best plan.
//!
//! Defining identity: part `K` of `N` is the range `⌊U·K/N⌋..⌊U·(K+1)/N⌋` of the walk's `U`
//! units, in the walk's own order: for mod-2 sets the outer blocks of the minimum-weight walk
//! (chunk by chunk, Gray-code order within), otherwise the pieces of the bounded walk over the
//! quiet basis (the multiples of its first generators, at least 256 pieces a part where the set
//! has them). The units depend on the puzzle, the objective and `N` alone, never on the machine
//! or its threads, so the parts of one `N` are disjoint and cover every plan exactly once (the
//! symmetric split is kept: a unit skipped for a symmetry has an image of the same cost in a
//! unit that some part walks). Each part starts from the same plan (the greedy descent's,
//! which every part computes alike) and reports the best plan it found, or that plan when
//! nothing in the part is better, with whether it walked its part to the end. When every part
//! of `0..N` did, the best of their plans is proven best.
//!
//! A part's report names its puzzle by [`puzzle_hash`] (SHA-256 of the puzzle written back as
//! RON, [`crate::format::to_ron`], so that formatting, comments and field order do not count),
//! and [`combine`] checks that every report is of that puzzle, one objective and one `N`, that
//! no part comes twice, and that every plan reported solves the puzzle within its press limits
//! (it is simulated press by press).
//!
//! A worker that walks many parts of one puzzle keeps a [`Prover`] (the puzzle solved and the
//! walk prepared once) and may pass each part a cutoff `below`, the best score of the parts
//! walked before it: the part then looks only for plans scoring below it, and its report says
//! so (`below`), for a finished part proves only that none of its plans scores below
//! `min(score, below)`. The proof of the whole holds when some part's plan scores at most every
//! cutoff; [`combine`] checks that, and refuses a complete set of parts where it fails.

use num_bigint::BigUint;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::model::Puzzle;
use crate::solve::minweight::{self, Part};
use crate::solve::optimize::{self, Unwalkable};
use crate::solve::{Budget, Objective};

/// The most parts a walk is cut into.
pub const MAX_PARTS: u64 = 1 << 20;

/// Part `index` of `count` (`index < count <= MAX_PARTS`), written `K/N`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PartId {
    /// `K`, from 0.
    pub index: u64,
    /// `N`.
    pub count: u64,
}

impl std::str::FromStr for PartId {
    type Err = String;

    /// `K/N` with `0 <= K < N <= 2^20`.
    fn from_str(text: &str) -> Result<Self, String> {
        let (k, n) = text.split_once('/').ok_or_else(|| format!("`{text}` is not K/N (e.g. 3/64)"))?;
        let number = |s: &str, what: &str| {
            s.trim().parse::<u64>().map_err(|_| format!("`{s}` in `{text}` is not a whole number ({what})"))
        };
        let (index, count) = (number(k, "K, the part")?, number(n, "N, the parts")?);
        if count == 0 || count > MAX_PARTS {
            return Err(format!("N is {count} in `{text}`; it must be from 1 to {MAX_PARTS} (2^20)"));
        }
        if index >= count {
            return Err(format!("K is {index} in `{text}`; parts are numbered 0 to {} (N − 1)", count - 1));
        }
        Ok(PartId { index, count })
    }
}

impl std::fmt::Display for PartId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl PartId {
    fn part(self) -> Part {
        Part { index: self.index, count: self.count }
    }
}

/// The report of one part (`modsolve FILE --shard K/N --json`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PartReport {
    /// The schema's version.
    pub version: u32,
    /// [`puzzle_hash`] of the puzzle.
    pub puzzle: String,
    /// `N`.
    pub parts: u64,
    /// `K`.
    pub part: u64,
    /// The objective's name (`total`, `max`, `buttons`).
    pub objective: String,
    /// The best plan found (presses per button), simulated: it solves the puzzle within its
    /// press limits. It is the part's best, or the plan every part starts from when nothing in
    /// the part is better; `null` when no plan within the limits is known.
    pub presses: Option<Vec<u64>>,
    /// The plan's score under the objective (total presses, largest press, or buttons pressed).
    pub score: Option<u64>,
    /// The plan's total presses.
    pub total: Option<u64>,
    /// Whether the part was walked to its end: no plan of it scores below `min(score, below)`.
    pub finished: bool,
    /// Blocks of plans (mod 2) or walk nodes visited.
    pub nodes: u64,
    /// The cutoff the part was walked with (a score some other part's plan reached): only
    /// plans scoring below it were looked for, so a finished part proves that none of its plans
    /// scores below `min(score, below)`, not below `score`. `None`: walked without one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub below: Option<u64>,
}

/// The version of [`PartReport`] written (2: `below`, a cutoff that narrows what `finished`
/// proves); [`combine`] reads 1 and 2.
pub const PART_VERSION: u32 = 2;

/// The version of [`Combined`].
pub const VERSION: u32 = 1;

/// Why a puzzle is not walked in parts.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ShardError {
    /// No plan solves the puzzle.
    #[error("no plan solves this puzzle, so there is no fewest plan to prove")]
    NoSolution,
    /// The puzzle cannot be walked in parts.
    #[error("this puzzle's fewest plan is not proven by a walk that can be cut into parts: {0}")]
    NotWalked(String),
    /// A bug: a plan found does not solve the puzzle.
    #[error("internal error: {0}")]
    Internal(String),
}

/// SHA-256 of the puzzle written back as RON (hex, `sha256:` first): the same for the same
/// puzzle on every machine, whatever its file's formatting.
pub fn puzzle_hash(puzzle: &Puzzle) -> String {
    let text = crate::format::to_ron(puzzle, "");
    let digest: String = Sha256::digest(text.as_bytes()).iter().map(|b| format!("{b:02x}")).collect();
    format!("sha256:{digest}")
}

/// The solution set and what the walk needs, for a part.
struct Setup {
    answer: crate::solve::Answer,
    symmetries: Vec<Vec<usize>>,
}

fn setup(puzzle: &Puzzle) -> Result<Setup, ShardError> {
    if puzzle.phases.is_some() {
        return Err(ShardError::NotWalked("staged presses (phases) are not walked in parts".into()));
    }
    let answer = crate::solve::solve(puzzle).map_err(|e| ShardError::Internal(e.to_string()))?;
    if answer.presses.is_none() {
        return Err(ShardError::NoSolution);
    }
    Ok(Setup { answer, symmetries: crate::model::symmetries(puzzle) })
}

fn unwalkable(why: Unwalkable) -> ShardError {
    ShardError::NotWalked(match why {
        Unwalkable::NotSearched(reason) => crate::solve::Proof::NotSearched(reason).describe(),
        Unwalkable::TooLarge => "more than 2^70 plans".into(),
        Unwalkable::NoWalk => {
            "the bounded walk over the quiet basis does not take it (periods above 1024, or tables too large)"
                .into()
        }
    })
}

/// Walks part `id` of the proof of the fewest plan for `objective` within `budget` (a budget
/// that runs out leaves the part unfinished), and reports it; its plan has been simulated.
/// (One part: [`Prover`] walks many parts of one puzzle and solves it once.)
pub fn walk_part(
    puzzle: &Puzzle,
    objective: Objective,
    id: PartId,
    budget: Budget,
) -> Result<PartReport, ShardError> {
    Prover::new(puzzle, objective)?.walk(id, budget, None)
}

/// The parts' shared work done once: the puzzle solved (elimination), its hash, and for mod-2
/// sets the walk prepared (the basis lightened, the greedy plan, the symmetries, the positions
/// grouped). A worker that walks many parts of one puzzle keeps one and calls
/// [`Prover::walk`] for each; the reports are the same as [`walk_part`]'s.
pub struct Prover {
    puzzle: Puzzle,
    hash: String,
    objective: Objective,
    setup: Setup,
    walk: Walk,
}

/// How the parts are walked.
enum Walk {
    /// The mod-2 walk, prepared.
    Binary(Box<minweight::Prepared>),
    /// No plan keeps the press limits.
    Nothing,
    /// The bounded walk over the quiet basis, set up per part.
    Other,
}

impl Prover {
    /// Solves `puzzle` and prepares its walk for `objective`; refuses a puzzle without a plan
    /// or whose fewest plan is not proven by a walk that can be cut into parts.
    pub fn new(puzzle: &Puzzle, objective: Objective) -> Result<Prover, ShardError> {
        let setup = setup(puzzle)?;
        let limits = puzzle.max_presses.as_deref();
        let walk = match optimize::binary_part_coset(&setup.answer, limits, objective, &setup.symmetries)
            .map_err(unwalkable)?
        {
            Some(Some(coset)) => Walk::Binary(Box::new(minweight::Prepared::new(&coset, &setup.symmetries))),
            Some(None) => Walk::Nothing,
            None => Walk::Other,
        };
        Ok(Prover { puzzle: puzzle.clone(), hash: puzzle_hash(puzzle), objective, setup, walk })
    }

    /// [`puzzle_hash`] of the puzzle.
    pub fn puzzle_hash(&self) -> &str {
        &self.hash
    }

    /// Whether [`Prover::walk`] uses a cutoff: mod-2 sets for `total` and `buttons` (the walk's
    /// weight is the score). Other parts are walked whole and report no `below`.
    pub fn takes_cutoff(&self) -> bool {
        matches!(self.walk, Walk::Binary(_)) && self.objective != Objective::Max
    }

    /// Walks part `id` within `budget`, and reports it (its plan simulated). With `below` (a
    /// score some plan is known to reach, such as the best of parts already walked) and
    /// [`Prover::takes_cutoff`], only plans scoring below it are looked for, which prunes
    /// more; the report's `below` then says so, and a finished part proves only that none of
    /// its plans scores below `min(score, below)` ([`combine`] accounts for it).
    pub fn walk(&self, id: PartId, budget: Budget, below: Option<u64>) -> Result<PartReport, ShardError> {
        let below = below.filter(|_| self.takes_cutoff());
        let found = match &self.walk {
            Walk::Binary(prepared) => {
                let cutoff = below.map(|s| u32::try_from(s).unwrap_or(u32::MAX));
                let found = prepared.walk(budget, id.part(), cutoff);
                let buttons = self.puzzle.button_count();
                let presses = (0..buttons).map(|j| u64::from(minweight::bit(&found.best, j))).collect();
                optimize::PartFound { best: Some(presses), complete: found.complete, nodes: found.nodes }
            }
            Walk::Nothing => optimize::PartFound { best: None, complete: true, nodes: 0 },
            Walk::Other => {
                let limits = self.puzzle.max_presses.as_deref();
                let Setup { answer, symmetries } = &self.setup;
                optimize::explore_part(answer, limits, self.objective, budget, symmetries, id.part())
                    .map_err(unwalkable)?
            }
        };
        if let Some(x) = &found.best
            && !plays(&self.puzzle, x)
        {
            return Err(ShardError::Internal(format!("the plan of part {id} does not solve the puzzle")));
        }
        let objective = self.objective;
        Ok(PartReport {
            version: PART_VERSION,
            puzzle: self.hash.clone(),
            parts: id.count,
            part: id.index,
            objective: objective.name().into(),
            score: found.best.as_ref().map(|x| clamp(objective.score(x).0)),
            total: found.best.as_ref().map(|x| clamp(Objective::Total.score(x).0)),
            presses: found.best,
            finished: found.complete,
            nodes: found.nodes,
            below,
        })
    }
}

fn clamp(v: u128) -> u64 {
    v.min(u128::from(u64::MAX)) as u64
}

/// Whether `presses` solve the puzzle within its press limits, simulated.
fn plays(puzzle: &Puzzle, presses: &[u64]) -> bool {
    let big: Vec<BigUint> = presses.iter().map(|&x| BigUint::from(x)).collect();
    let within = puzzle.max_presses.as_ref().is_none_or(|l| presses.iter().zip(l).all(|(a, b)| a <= b));
    presses.len() == puzzle.button_count() && within && puzzle.solves(&big)
}

/// Every plan part `id` of the walk answers for, in the walk's order, with no bound and no
/// symmetry skipping (for tests: the parts of one `N` hold every plan exactly once; mod 2,
/// press limits of 0 keep only the plans within them). `Ok(None)` when the part holds more than
/// `most` plans.
pub fn part_plans(
    puzzle: &Puzzle,
    objective: Objective,
    id: PartId,
    most: u64,
) -> Result<Option<Vec<Vec<u64>>>, ShardError> {
    let Setup { answer, symmetries } = setup(puzzle)?;
    let limits = puzzle.max_presses.as_deref();
    optimize::part_plans(&answer, limits, objective, &symmetries, id.part(), most).map_err(unwalkable)
}

/// The parts' reports combined (`modsolve combine`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Combined {
    /// The schema's version.
    pub version: u32,
    /// [`puzzle_hash`] of the puzzle.
    pub puzzle: String,
    /// `N`.
    pub parts: u64,
    /// The objective's name.
    pub objective: String,
    /// The best plan of all parts' reports (the first part's on a tie), simulated; `null` when
    /// none has a plan.
    pub presses: Option<Vec<u64>>,
    /// Its score under the objective.
    pub score: Option<u64>,
    /// Its total presses.
    pub total: Option<u64>,
    /// The part whose report gave the plan.
    pub from_part: Option<u64>,
    /// Whether the plan is proven best: every part of `0..N` was given and finished, and every
    /// part's cutoff `below` is at least the plan's score.
    pub proven: bool,
    /// The parts not given, as inclusive ranges `[first, last]`.
    pub missing: Vec<[u64; 2]>,
    /// The parts given but not walked to their end, as inclusive ranges.
    pub unfinished: Vec<[u64; 2]>,
    /// The parts given.
    pub given: u64,
    /// The nodes of every part given, added.
    pub nodes: u64,
}

/// Why reports cannot be combined.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CombineError {
    /// No report was given.
    #[error("no parts were given")]
    Empty,
    /// A report is of another puzzle.
    #[error("{origin} is a part of another puzzle ({found}; this puzzle is {expected})")]
    Foreign {
        /// Where the report came from.
        origin: String,
        /// Its puzzle hash.
        found: String,
        /// This puzzle's hash.
        expected: String,
    },
    /// Reports disagree on `N` or the objective.
    #[error(
        "{origin} is part {part}/{parts} for {objective}, but {first} is part of {first_parts} for {first_objective}: parts of one run share N and the objective"
    )]
    Mismatch {
        /// Where the report came from.
        origin: String,
        /// Its part.
        part: u64,
        /// Its `N`.
        parts: u64,
        /// Its objective.
        objective: String,
        /// Where the first report came from.
        first: String,
        /// The first report's `N`.
        first_parts: u64,
        /// The first report's objective.
        first_objective: String,
    },
    /// A report's part is out of range or its version unknown.
    #[error("{origin}: {message}")]
    Invalid {
        /// Where the report came from.
        origin: String,
        /// What is wrong.
        message: String,
    },
    /// A part was given twice.
    #[error("part {part}/{parts} is given twice ({first} and {second}): parts must not overlap")]
    Overlap {
        /// The part.
        part: u64,
        /// `N`.
        parts: u64,
        /// Where it came first.
        first: String,
        /// Where it came again.
        second: String,
    },
    /// A part was walked below a score that no part's plan reaches, so its proof does not hold.
    #[error(
        "{origin}: part {part}/{parts} was walked for plans below {below} only, but no part's plan scores {below} or less (best: {}); a cutoff must be a score some part reached: walk the part again without it",
        best.map_or("none".to_string(), |b| b.to_string())
    )]
    Unbacked {
        /// Where the report came from.
        origin: String,
        /// The part.
        part: u64,
        /// `N`.
        parts: u64,
        /// Its cutoff.
        below: u64,
        /// The best score of all parts' plans.
        best: Option<u64>,
    },
    /// A report's plan does not solve the puzzle.
    #[error("{origin}: its plan does not solve this puzzle within its press limits (simulated)")]
    BadPlan {
        /// Where the report came from.
        origin: String,
    },
}

/// Combines part reports of `puzzle` (each with the name of where it came from, for messages):
/// refuses reports of another puzzle, of different `N` or objectives, parts given twice,
/// plans that do not solve the puzzle, and a complete set of finished parts with a cutoff
/// `below` under the best plan's score (that part's proof does not reach the best); the best
/// plan, proven when every part of `0..N` is given and finished (and every cutoff is at least
/// its score), else with the missing and unfinished parts.
pub fn combine(puzzle: &Puzzle, reports: &[(String, PartReport)]) -> Result<Combined, CombineError> {
    let Some((first_source, first)) = reports.first() else { return Err(CombineError::Empty) };
    let expected = puzzle_hash(puzzle);
    let objective = match first.objective.as_str() {
        "total" => Objective::Total,
        "max" => Objective::Max,
        "buttons" => Objective::Buttons,
        other => {
            return Err(CombineError::Invalid {
                origin: first_source.clone(),
                message: format!("unknown objective `{other}` (total, max or buttons)"),
            });
        }
    };
    let n = first.parts;
    let mut seen: std::collections::HashMap<u64, &str> = std::collections::HashMap::new();
    let mut best: Option<((u128, u128), u64, Vec<u64>)> = None;
    let mut unfinished = Vec::new();
    let mut nodes = 0u64;
    // (below, part, where from) of the parts walked with a cutoff.
    let mut cutoffs: Vec<(u64, u64, &str)> = Vec::new();
    let mut simulated: std::collections::HashSet<&[u64]> = std::collections::HashSet::new();
    for (source, report) in reports {
        if !(1..=PART_VERSION).contains(&report.version) || (report.version < 2 && report.below.is_some()) {
            return Err(CombineError::Invalid {
                origin: source.clone(),
                message: format!(
                    "version {} of the part report is not known (this reads 1 to {PART_VERSION}; `below` from 2 on)",
                    report.version
                ),
            });
        }
        if report.puzzle != expected {
            return Err(CombineError::Foreign {
                origin: source.clone(),
                found: report.puzzle.clone(),
                expected: expected.clone(),
            });
        }
        if report.parts != n || report.objective != first.objective {
            return Err(CombineError::Mismatch {
                origin: source.clone(),
                part: report.part,
                parts: report.parts,
                objective: report.objective.clone(),
                first: first_source.clone(),
                first_parts: n,
                first_objective: first.objective.clone(),
            });
        }
        if n == 0 || n > MAX_PARTS || report.part >= n {
            return Err(CombineError::Invalid {
                origin: source.clone(),
                message: format!("part {}/{} is out of range (0 <= K < N <= 2^20)", report.part, n),
            });
        }
        if let Some(earlier) = seen.insert(report.part, source) {
            return Err(CombineError::Overlap {
                part: report.part,
                parts: n,
                first: earlier.to_string(),
                second: source.clone(),
            });
        }
        if let Some(x) = &report.presses {
            // Parts that find nothing better report the same starting plan: each plan is
            // simulated once.
            if !simulated.contains(x.as_slice()) {
                if !plays(puzzle, x) {
                    return Err(CombineError::BadPlan { origin: source.clone() });
                }
                simulated.insert(x.as_slice());
            }
            let score = objective.score(x);
            if best.as_ref().is_none_or(|(s, k, _)| (score, report.part) < (*s, *k)) {
                best = Some((score, report.part, x.clone()));
            }
        }
        if !report.finished {
            unfinished.push(report.part);
        }
        if let Some(s) = report.below {
            cutoffs.push((s, report.part, source.as_str()));
        }
        nodes = nodes.saturating_add(report.nodes);
    }
    let mut given: Vec<u64> = seen.keys().copied().collect();
    given.sort_unstable();
    let missing = gaps(&given, n);
    unfinished.sort_unstable();
    let unfinished = ranges(&unfinished);
    // A part walked below S proves nothing about its plans from S up: the proof needs a plan
    // scoring S or less among the parts. Every part there and finished without one is a cutoff
    // that no plan backs (not the best of parts already walked): refused, not "not proven".
    let least = best.as_ref().map(|(s, _, _)| clamp(s.0));
    let unbacked = cutoffs.iter().filter(|(s, _, _)| least.is_none_or(|m| *s < m)).min();
    if let Some(&(below, part, origin)) = unbacked
        && missing.is_empty()
        && unfinished.is_empty()
    {
        return Err(CombineError::Unbacked {
            origin: origin.to_string(),
            part,
            parts: n,
            below,
            best: least,
        });
    }
    Ok(Combined {
        version: VERSION,
        puzzle: expected,
        parts: n,
        objective: first.objective.clone(),
        score: best.as_ref().map(|(s, _, _)| clamp(s.0)),
        total: best.as_ref().map(|(_, _, x)| clamp(Objective::Total.score(x).0)),
        from_part: best.as_ref().map(|(_, k, _)| *k),
        presses: best.map(|(_, _, x)| x),
        proven: missing.is_empty() && unfinished.is_empty() && unbacked.is_none(),
        missing,
        unfinished,
        given: given.len() as u64,
        nodes,
    })
}

/// Consecutive runs of sorted numbers, as inclusive ranges.
fn ranges(sorted: &[u64]) -> Vec<[u64; 2]> {
    let mut out: Vec<[u64; 2]> = Vec::new();
    for &k in sorted {
        match out.last_mut() {
            Some(last) if last[1] + 1 == k => last[1] = k,
            _ => out.push([k, k]),
        }
    }
    out
}

/// The numbers of `0..n` not in `sorted`, as inclusive ranges.
fn gaps(sorted: &[u64], n: u64) -> Vec<[u64; 2]> {
    let mut out = Vec::new();
    let mut next = 0u64;
    for &k in sorted {
        if k > next {
            out.push([next, k - 1]);
        }
        next = k + 1;
    }
    if next < n {
        out.push([next, n - 1]);
    }
    out
}

/// Ranges as people read them: `3, 5-9`.
pub fn describe_ranges(ranges: &[[u64; 2]]) -> String {
    ranges
        .iter()
        .map(|[a, b]| if a == b { a.to_string() } else { format!("{a}-{b}") })
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn part_ids_parse_and_refuse() {
        assert_eq!("3/64".parse::<PartId>(), Ok(PartId { index: 3, count: 64 }));
        assert_eq!("0/1048576".parse::<PartId>(), Ok(PartId { index: 0, count: 1 << 20 }));
        for bad in ["64/64", "0/0", "1", "a/4", "0/1048577", "-1/4"] {
            assert!(bad.parse::<PartId>().is_err(), "{bad}");
        }
    }

    #[test]
    fn gaps_and_ranges() {
        assert_eq!(gaps(&[0, 1, 4, 5, 9], 12), vec![[2, 3], [6, 8], [10, 11]]);
        assert_eq!(gaps(&[], 3), vec![[0, 2]]);
        assert_eq!(gaps(&[0, 1, 2], 3), Vec::<[u64; 2]>::new());
        assert_eq!(ranges(&[1, 2, 3, 7]), vec![[1, 3], [7, 7]]);
        assert_eq!(describe_ranges(&[[1, 3], [7, 7]]), "1-3, 7");
    }

    /// Parts are consecutive ranges covering the units once, for any N (more parts than
    /// units included).
    #[test]
    fn ranges_cover_once() {
        for units in [0u128, 1, 5, 256, 1 << 40] {
            for n in [1u64, 2, 3, 7, 64, 1000, 1 << 20] {
                let mut next = 0u128;
                for k in 0..n.min(3000) {
                    let (lo, hi) = Part { index: k, count: n }.range(units);
                    assert_eq!(lo, next, "units {units}, part {k}/{n}");
                    assert!(hi >= lo);
                    next = hi;
                }
                if n <= 3000 {
                    assert_eq!(next, units, "units {units}, N {n}");
                }
            }
        }
    }
}
