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
//! RON, [`crate::format::to_ron`], so that formatting, comments and field order do not count)
//! and its run by [`Prover::run_identity`] (SHA-256 of the puzzle's hash, the objective, `N`,
//! the walk and the starting plan), says what the starting plan scores, where in the walk its
//! own plan lies (`at`: the plan's multiple of each of the walk's generators) and ends with a
//! seal (SHA-256 of the rest: a checksum against edits and damage, not a signature).
//!
//! [`combine`] solves the puzzle and prepares the walk again ([`Prover`]), and makes every
//! check that needs no walk: every report is of that puzzle, one objective, one `N` and that
//! run, no part comes twice, each seal matches, each report's starting score is the run's, a
//! report has a plan whenever the starting plan keeps the limits (every part knows it), a plan
//! is the starting plan or recomputes from its `at` in the part's own units, no plan scores
//! worse than the starting plan, scores and totals are the plans', and every plan solves the
//! puzzle within its press limits (simulated press by press). What no such check can see is a
//! finished part that hides a better plan of its own units (the starting plan, or a worse plan
//! of the part, reported in its place; `finished` where the walk was cut): a proof trusts
//! that each finished part was walked to its end by an honest worker. [`combine_audited`]
//! checks that for some parts, walking them again ([`Audit`]: how many, chosen at random by a
//! seed).
//!
//! A worker that walks many parts of one puzzle keeps a [`Prover`] (the puzzle solved and the
//! walk prepared once) and may pass each part a cutoff `below`, the best score of the parts
//! walked before it: the part then looks only for plans scoring below it, and its report says
//! so (`below`), for a finished part proves only that none of its plans scores below
//! `min(score, below)`. The proof of the whole holds when some part's plan scores at most every
//! cutoff; [`combine`] checks that, and refuses a complete set of parts where it fails.
//!
//! Which puzzles are walked in parts: those whose fewest plan the single run proves by the
//! mod-2 walk (up to 2^70 plans in parts) or by the bounded walk over the quiet basis (every
//! button's period at most 1024, the walk's tables within their limit); not staged presses,
//! and not sets the single run proves by branch and bound (mixed moduli whose periods pass
//! 1024), which are refused as not walked in parts.

use num_bigint::BigUint;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::model::Puzzle;
use crate::solve::minweight::{self, Part};
use crate::solve::optimize::{self, Unwalkable};
use crate::solve::{Budget, Objective};
pub use combine::{Audit, CombineError, Combined, combine, combine_audited};
#[doc(hidden)]
pub use combine::{agrees, describe_ranges, ranges};

mod combine;

/// The most parts a walk is cut into.
pub const MAX_PARTS: u64 = 1 << 20;

/// The budget a part is walked within when none is given, and when an audit walks a part
/// again: no bound, so the part is walked to its end and its report covers its whole range
/// (only the timeout stops it). Every front-end takes this one value; a budget the user gives
/// (one that is not [`Budget::is_default`]) replaces it.
pub const PART_BUDGET: Budget = Budget::of_nodes(u64::MAX);

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
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct PartReport {
    /// The schema's version.
    pub version: u32,
    /// [`puzzle_hash`] of the puzzle.
    pub puzzle: String,
    /// The run's identity ([`Prover::run_identity`]): SHA-256 of the puzzle's hash, the
    /// objective, `N`, the walk (its generators in walk order and how its units are cut) and
    /// the starting plan every part shares. The same for every part of the run; [`combine`]
    /// computes it again.
    pub run: String,
    /// `N`.
    pub parts: u64,
    /// `K`.
    pub part: u64,
    /// The objective's name (`total`, `max`, `buttons`).
    pub objective: String,
    /// The score of the starting plan every part shares (the greedy descent's), which a part
    /// reports when nothing in it is better; `None` when that plan does not keep the press
    /// limits (or no plan does).
    pub start: Option<u64>,
    /// The best plan found (presses per button), simulated: it solves the puzzle within its
    /// press limits. It is the part's best, or the starting plan when nothing in the part is
    /// better; `null` only when no starting plan keeps the limits and the part holds none.
    pub presses: Option<Vec<u64>>,
    /// The plan's score under the objective (total presses, largest press, or buttons pressed).
    pub score: Option<u64>,
    /// The plan's total presses.
    pub total: Option<u64>,
    /// Where the part's walk found the plan: its multiple of each of the walk's generators
    /// (mod 2: 0 or 1 for each outer generator, then each inner one), which place it in one
    /// unit of the walk; `None` when the plan is the starting plan.
    pub at: Option<Vec<u64>>,
    /// Whether the part was walked to its end: no plan of it scores below `min(score, below)`.
    pub finished: bool,
    /// Blocks of plans (mod 2) or walk nodes visited.
    pub nodes: u64,
    /// The cutoff the part was walked with (a score some other part's plan reached): only
    /// plans scoring below it were looked for, so a finished part proves that none of its plans
    /// scores below `min(score, below)`, not below `score`. `None`: walked without one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub below: Option<u64>,
    /// SHA-256 of every other field, written last ([`PartReport::sealed`]): a checksum, not a
    /// signature. It catches a report edited or damaged after its worker wrote it (a flipped
    /// `finished`, a plan swapped, a part renumbered, a line of another run); anyone can seal
    /// a forged report again, and then only the other checks and the audit stand.
    pub seal: String,
}

/// The version of [`PartReport`] written and read (3: the run's identity, the starting plan's
/// score and where the plan lies; 2 added `below`). Earlier reports are refused: they carry
/// nothing to check a part against its run.
pub const PART_VERSION: u32 = 3;

/// The version of [`Combined`] (2: the audit).
pub const VERSION: u32 = 2;

impl PartReport {
    /// The report with its seal computed from its other fields.
    pub fn sealed(mut self) -> PartReport {
        self.seal = self.expected_seal();
        self
    }

    /// The seal of the report's other fields.
    pub fn expected_seal(&self) -> String {
        let unsealed = PartReport { seal: String::new(), ..self.clone() };
        let text = serde_json::to_string(&unsealed).unwrap_or_default();
        sha256_hex(format!("modsolve part report seal\n{text}").as_bytes())
    }

    /// Reads a report from a JSON document: a report of another version is refused by its
    /// version first (with what to do), then fields this version does not know, or misses.
    pub fn from_json(value: serde_json::Value) -> Result<PartReport, String> {
        match value.get("version").and_then(serde_json::Value::as_u64) {
            Some(v) if v == u64::from(PART_VERSION) => {}
            Some(v) if v < u64::from(PART_VERSION) => {
                return Err(format!(
                    "version {v} of the part report is from an earlier modsolve: this one reads version {PART_VERSION} only, whose parts carry their run's identity, the shared starting plan and where their plan lies; walk the parts again with this modsolve"
                ));
            }
            Some(v) => {
                return Err(format!(
                    "version {v} of the part report is newer than this modsolve reads (version {PART_VERSION})"
                ));
            }
            None => {}
        }
        serde_json::from_value(value).map_err(|e| e.to_string())
    }
}

/// Why a puzzle is not walked in parts.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
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
#[doc(hidden)]
pub fn puzzle_hash(puzzle: &Puzzle) -> String {
    let text = crate::format::to_ron(puzzle, "");
    sha256_hex(text.as_bytes())
}

fn sha256_hex(bytes: &[u8]) -> String {
    let digest: String = Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect();
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
            "the bounded walk over the quiet basis does not take it (a button's period above 1024, or tables too large)"
                .into()
        }
    })
}

/// Walks part `id` of the proof of the fewest plan for `objective` within `budget` (a budget
/// that runs out leaves the part unfinished), and reports it; its plan has been simulated.
/// (One part: [`Prover`] walks many parts of one puzzle and solves it once.)
///
/// ```
/// use modsolve::Objective;
/// use modsolve::shard::{PartId, combine, walk_part};
///
/// let octopus = modsolve::parse_puzzle(
///     "Puzzle(graph: Path(4), modulus: [7, 8, 7, 6], press: (self: 2, neighbors: 1), start: [2, 4, 5, 3])",
/// )?;
/// // Three parts, walked anywhere (here one after the other), then combined.
/// let reports = (0..3)
///     .map(|index| {
///         let part = walk_part(&octopus, Objective::Total, PartId { index, count: 3 }, modsolve::Budget::of_nodes(u64::MAX))?;
///         Ok((format!("part {index}"), part))
///     })
///     .collect::<Result<Vec<_>, modsolve::shard::ShardError>>()?;
/// let combined = combine(&octopus, &reports)?;
/// assert!(combined.proven);
/// assert_eq!(combined.score, Some(18));
///
/// // Without its last part nothing is proven.
/// let partial = combine(&octopus, &reports[..2])?;
/// assert!(!partial.proven);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn walk_part(
    puzzle: &Puzzle,
    objective: Objective,
    id: PartId,
    budget: Budget,
) -> Result<PartReport, ShardError> {
    Prover::new(puzzle, objective)?.walk(id, budget, None)
}

/// The parts' shared work done once: the puzzle solved (elimination), its hash, the walk
/// prepared (mod 2: the basis lightened, the greedy plan, the symmetries, the positions
/// grouped; otherwise the walk's generators and order and the greedy plan), and what
/// identifies a run of its parts. A worker that walks many parts of one puzzle keeps one and
/// calls [`Prover::walk`] for each; the reports are the same as [`walk_part`]'s. [`combine`]
/// makes one too, to check the reports against it.
pub struct Prover {
    puzzle: Puzzle,
    hash: String,
    objective: Objective,
    setup: Setup,
    walk: Walk,
    /// The starting plan every part shares, when it keeps the press limits.
    start: Option<Vec<u64>>,
    /// SHA-256 of what the walk is (its kind, plan, generators in walk order).
    walk_digest: Vec<u8>,
}

/// How the parts are walked.
enum Walk {
    /// The mod-2 walk, prepared.
    Binary(Box<minweight::Prepared>),
    /// No plan keeps the press limits.
    Nothing,
    /// The bounded walk over the quiet basis, its shape and shared start computed once, set up
    /// per part.
    Basis(Box<optimize::BasisParts>),
}

impl Prover {
    /// Solves `puzzle` and prepares its walk for `objective`; refuses a puzzle without a plan
    /// or whose fewest plan is not proven by a walk that can be cut into parts.
    pub fn new(puzzle: &Puzzle, objective: Objective) -> Result<Prover, ShardError> {
        let setup = setup(puzzle)?;
        let limits = puzzle.max_presses.as_deref();
        let buttons = puzzle.button_count();
        let mut described = Vec::new();
        let (walk, start) =
            match optimize::binary_part_coset(&setup.answer, limits, objective, &setup.symmetries)
                .map_err(unwalkable)?
            {
                Some(Some(coset)) => {
                    let prepared = minweight::Prepared::new(&coset, &setup.symmetries);
                    prepared.describe(&mut described);
                    let start = unpack(prepared.first(), buttons);
                    (Walk::Binary(Box::new(prepared)), Some(start))
                }
                Some(None) => {
                    described.extend(b"no plan keeps the press limits");
                    (Walk::Nothing, None)
                }
                None => {
                    let parts = optimize::basis_parts(&setup.answer, limits, objective, &setup.symmetries)
                        .map_err(unwalkable)?;
                    describe_basis(&parts, &mut described);
                    let start = parts.start.clone();
                    (Walk::Basis(Box::new(parts)), start)
                }
            };
        if let Some(x) = &start
            && !plays(puzzle, x)
        {
            return Err(ShardError::Internal("the parts' starting plan does not solve the puzzle".into()));
        }
        Ok(Prover {
            puzzle: puzzle.clone(),
            hash: puzzle_hash(puzzle),
            objective,
            setup,
            walk,
            start,
            walk_digest: Sha256::digest(&described).to_vec(),
        })
    }

    /// [`puzzle_hash`] of the puzzle.
    pub fn puzzle_hash(&self) -> &str {
        &self.hash
    }

    /// The starting plan every part shares (the greedy descent's), when it keeps the press
    /// limits.
    pub fn start(&self) -> Option<&[u64]> {
        self.start.as_deref()
    }

    /// The identity of a run of `count` parts (the `run` of their reports): SHA-256 of the
    /// puzzle's hash, the objective, `count`, the walk (its plan, its generators in walk order,
    /// how `count` parts cut its units) and the starting plan. Parts of another puzzle,
    /// objective, `N` or walk have another identity.
    pub fn run_identity(&self, count: u64) -> String {
        let mut text = Vec::new();
        text.extend(format!("modsolve proof in parts, version {PART_VERSION}\n").as_bytes());
        text.extend(
            format!("puzzle {}\nobjective {}\nparts {count}\n", self.hash, self.objective.name()).as_bytes(),
        );
        text.extend(b"walk ");
        text.extend(&self.walk_digest);
        match &self.walk {
            Walk::Binary(prepared) => text.extend(format!("\nunits {}\n", prepared.unit_count()).as_bytes()),
            Walk::Nothing => text.extend(b"\nunits 1\n"),
            Walk::Basis(parts) => {
                let (depth, pieces) = parts.shape.cut(count);
                text.extend(format!("\nunits {pieces} of depth {depth}\n").as_bytes());
            }
        }
        match &self.start {
            Some(x) => {
                text.extend(b"start");
                x.iter().for_each(|v| text.extend(format!(" {v}").as_bytes()));
            }
            None => text.extend(b"start none"),
        }
        sha256_hex(&text)
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
        let buttons = self.puzzle.button_count();
        let found = match &self.walk {
            Walk::Binary(prepared) => {
                let cutoff = below.map(|s| u32::try_from(s).unwrap_or(u32::MAX));
                let found = prepared.walk(budget, id.part(), cutoff);
                optimize::PartFound {
                    best: Some(unpack(&found.best, buttons)),
                    at: found.at,
                    complete: found.complete,
                    nodes: found.nodes,
                }
            }
            Walk::Nothing => optimize::PartFound { best: None, at: None, complete: true, nodes: 0 },
            Walk::Basis(parts) => {
                let limits = self.puzzle.max_presses.as_deref();
                let Setup { answer, symmetries } = &self.setup;
                optimize::explore_part(answer, limits, self.objective, budget, symmetries, id.part(), parts)
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
            run: self.run_identity(id.count),
            parts: id.count,
            part: id.index,
            objective: objective.name().into(),
            start: self.start.as_ref().map(|x| clamp(objective.score(x).0)),
            score: found.best.as_ref().map(|x| clamp(objective.score(x).0)),
            total: found.best.as_ref().map(|x| clamp(Objective::Total.score(x).0)),
            presses: found.best,
            at: found.at,
            finished: found.complete,
            nodes: found.nodes,
            below,
            seal: String::new(),
        }
        .sealed())
    }

    /// The plan at `at` ([`PartReport::at`]) when `at` places it in part `id` of the walk;
    /// `None` when `at` is not a place of this walk or lies in another part.
    pub fn plan_at(&self, id: PartId, at: &[u64]) -> Option<Vec<u64>> {
        match &self.walk {
            Walk::Binary(prepared) => {
                prepared.plan_at(id.part(), at).map(|x| unpack(&x, self.puzzle.button_count()))
            }
            Walk::Nothing => None,
            Walk::Basis(parts) => {
                let (piece, pieces) = parts.shape.piece(id.count, at)?;
                let (lo, hi) = id.part().range(u128::from(pieces));
                (lo..hi).contains(&u128::from(piece)).then(|| {
                    optimize::basis_walk::plan_of(&parts.base, &parts.shape.generators, &parts.periods, at)
                })
            }
        }
    }
}

/// The mod-2 walk's packed plan as presses, one per button.
fn unpack(packed: &[u64], buttons: usize) -> Vec<u64> {
    (0..buttons).map(|j| u64::from(minweight::bit(packed, j))).collect()
}

/// What the bounded walk over the quiet basis is, for the run's identity.
fn describe_basis(parts: &optimize::BasisParts, into: &mut Vec<u8>) {
    let mut words = |v: &[u64]| {
        into.extend((v.len() as u64).to_le_bytes());
        v.iter().for_each(|w| into.extend(w.to_le_bytes()));
    };
    words(&parts.periods);
    words(&parts.base);
    for (g, order) in &parts.shape.generators {
        words(g);
        words(&[*order]);
    }
    words(&parts.shape.order.iter().map(|&i| i as u64).collect::<Vec<_>>());
    into.extend(b"basis walk");
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
#[doc(hidden)]
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
