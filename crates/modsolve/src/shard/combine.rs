//! Combining the parts' reports ([`combine`], [`combine_audited`]): every check that needs no
//! walk, report by report (of this run, its plan the run's), then the reports added up into the
//! best plan, proven or not, after walking some finished parts again ([`Audit`]).

use serde::{Deserialize, Serialize};

use super::{
    MAX_PARTS, PART_VERSION, PartId, PartReport, Prover, ShardError, VERSION, clamp, plays, puzzle_hash,
};
use crate::model::Puzzle;
use crate::solve::{Objective, Score};

/// The parts' reports combined (`modsolve combine`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Combined {
    /// The schema's version.
    pub version: u32,
    /// [`puzzle_hash`] of the puzzle.
    pub puzzle: String,
    /// The run's identity ([`Prover::run_identity`]).
    pub run: String,
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
    /// part's cutoff `below` is at least the plan's score. What that trusts: that each
    /// finished part was walked to its end by an honest worker (its report's claim, which
    /// only walking it again checks: `audited`).
    pub proven: bool,
    /// The parts not given, as inclusive ranges `[first, last]`.
    pub missing: Vec<[u64; 2]>,
    /// The parts given but not walked to their end, as inclusive ranges.
    pub unfinished: Vec<[u64; 2]>,
    /// The parts given.
    pub given: u64,
    /// The nodes of every part given, added.
    pub nodes: u64,
    /// The finished parts walked again and found to agree with their reports, in order.
    pub audited: Vec<u64>,
    /// The seed that chose them; `None` without an audit.
    pub seed: Option<u64>,
}

/// An audit: how many finished parts to walk again, chosen at random by `seed`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Audit {
    /// How many parts (all finished parts given, when fewer).
    pub parts: u64,
    /// The seed of the choice.
    pub seed: u64,
}

/// Why reports cannot be combined.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CombineError {
    /// No report was given.
    #[error("no parts were given")]
    Empty,
    /// The puzzle is not walked in parts, so no report can be one of its parts.
    #[error("no part can be of this puzzle: {0}")]
    NotWalked(ShardError),
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
    /// A report's run identity is not the run's of its puzzle, objective and `N`.
    #[error(
        "{origin}: part {part}/{parts} for {objective} carries the run identity {found}, but a run of {parts} parts of this puzzle for {objective} is {expected}: it is a part of another run (another N, objective or walk), or its report was edited; walk the part again"
    )]
    Run {
        /// Where the report came from.
        origin: String,
        /// Its part.
        part: u64,
        /// Its `N`.
        parts: u64,
        /// Its objective.
        objective: String,
        /// The identity it carries.
        found: String,
        /// The identity of the run it claims to be part of.
        expected: String,
    },
    /// A report's seal is not that of its contents.
    #[error(
        "{origin}: part {part}/{parts} does not match its seal: the report was edited or damaged after its worker wrote it; walk the part again"
    )]
    Seal {
        /// Where the report came from.
        origin: String,
        /// Its part.
        part: u64,
        /// Its `N`.
        parts: u64,
    },
    /// A report's plan, score or placement contradicts its run.
    #[error(
        "{origin}: part {part}/{parts} {message}; its worker was faulty or its report was edited: walk the part again"
    )]
    Contradiction {
        /// Where the report came from.
        origin: String,
        /// Its part.
        part: u64,
        /// Its `N`.
        parts: u64,
        /// What contradicts what.
        message: String,
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
    /// A part walked again does not agree with its report.
    #[error(
        "{origin}: part {part}/{parts} disagrees with its audit (seed {seed}): its report says it was walked to its end and its best plan scores {}, but walked again here its best plan scores {}; its worker was faulty or its report was edited: walk the part again",
        show(*claimed), show(*found)
    )]
    Audit {
        /// Where the report came from.
        origin: String,
        /// The part.
        part: u64,
        /// `N`.
        parts: u64,
        /// The score its report claims.
        claimed: Option<u64>,
        /// The score the audit found.
        found: Option<u64>,
        /// The audit's seed.
        seed: u64,
    },
    /// A bug while walking a part again.
    #[error("internal error while auditing: {0}")]
    Internal(String),
}

/// A score for messages, or that there is no plan.
fn show(score: Option<u64>) -> String {
    score.map_or("nothing (no plan)".into(), |s| s.to_string())
}

/// Combines part reports of `puzzle` (each with the name of where it came from, for messages)
/// with no audit: see [`combine_audited`]. [`super::walk_part`] has an example of both.
pub fn combine(puzzle: &Puzzle, reports: &[(String, PartReport)]) -> Result<Combined, CombineError> {
    combine_audited(puzzle, reports, None)
}

/// Combines part reports of `puzzle` (each with the name of where it came from, for messages),
/// after every check that needs no walk: the puzzle solved and its walk prepared again
/// ([`Prover`]), it refuses reports of another puzzle, of different `N` or objectives, whose
/// run identity is not the run's ([`Prover::run_identity`]: it commits to the puzzle, the
/// objective, `N`, the walk and the starting plan), parts given twice, a starting plan's score
/// not the run's, a plan missing where every part knows the starting plan, a plan that is
/// neither the starting plan nor placed by its `at` in its own part, a plan worse than the
/// starting plan, a score or total not the plan's, plans that do not solve the puzzle, and a
/// complete set of finished parts with a cutoff `below` under the best plan's score. With an
/// `audit`, that many finished parts (chosen at random by its seed) are walked again to their
/// end, and one whose best score differs from its report's is refused. The best plan, proven
/// when every part of `0..N` is given and finished (and every cutoff is at least its score),
/// else with the missing and unfinished parts.
///
/// What no check without a walk can see: a finished part whose report hides a better plan of
/// its own part (reporting the starting plan, or a worse plan of the part, or `finished`
/// where the walk was cut). Only the audit sees that, for the parts it walks.
pub fn combine_audited(
    puzzle: &Puzzle,
    reports: &[(String, PartReport)],
    audit: Option<Audit>,
) -> Result<Combined, CombineError> {
    let Some((first_source, first)) = reports.first() else { return Err(CombineError::Empty) };
    let run = Run::new(puzzle, first_source, first)?;
    let mut tally = Tally::default();
    for (index, (source, report)) in reports.iter().enumerate() {
        run.check_identity(source, report, &mut tally)?;
        run.check_plan(source, report, &mut tally)?;
        run.count(index, source, report, &mut tally)?;
    }
    run.verdict(tally, reports, audit)
}

/// Refuses a report of a version other than [`PART_VERSION`].
fn check_version(source: &str, report: &PartReport) -> Result<(), CombineError> {
    if report.version == PART_VERSION {
        return Ok(());
    }
    Err(CombineError::Invalid {
        origin: source.to_string(),
        message: format!(
            "version {} of the part report is not read (this modsolve reads version {PART_VERSION} only; walk the parts again)",
            report.version
        ),
    })
}

/// What every report is checked against: the run of the first report's puzzle, objective and
/// `N`, its walk prepared again.
struct Run<'a> {
    puzzle: &'a Puzzle,
    first_source: &'a String,
    first: &'a PartReport,
    objective: Objective,
    /// [`puzzle_hash`] of the puzzle.
    expected: String,
    /// `N`.
    n: u64,
    prover: Prover,
    /// The run's identity ([`Prover::run_identity`]).
    run: String,
    /// The starting plan every part shares, and its score.
    start: Option<Vec<u64>>,
    start_score: Option<Score>,
}

/// What the reports checked so far add up to.
#[derive(Default)]
struct Tally<'a> {
    /// Where each part came from.
    seen: std::collections::HashMap<u64, &'a str>,
    /// The best plan so far: its score, its part, its presses.
    best: Option<(Score, u64, Vec<u64>)>,
    unfinished: Vec<u64>,
    /// The indices of the finished reports.
    finished: Vec<usize>,
    nodes: u64,
    /// (below, part, where from) of the parts walked with a cutoff.
    cutoffs: Vec<(u64, u64, &'a str)>,
    /// The plans simulated already.
    simulated: std::collections::HashSet<&'a [u64]>,
}

impl<'a> Run<'a> {
    /// The first report's version, objective, puzzle and `N` checked, and the run it claims
    /// prepared again.
    fn new(
        puzzle: &'a Puzzle,
        first_source: &'a String,
        first: &'a PartReport,
    ) -> Result<Self, CombineError> {
        check_version(first_source, first)?;
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
        let expected = puzzle_hash(puzzle);
        if first.puzzle != expected {
            return Err(CombineError::Foreign {
                origin: first_source.clone(),
                found: first.puzzle.clone(),
                expected,
            });
        }
        let n = first.parts;
        if n == 0 || n > MAX_PARTS {
            return Err(CombineError::Invalid {
                origin: first_source.clone(),
                message: format!("N is {n}; it must be from 1 to {MAX_PARTS} (2^20)"),
            });
        }
        let prover = Prover::new(puzzle, objective).map_err(CombineError::NotWalked)?;
        let run = prover.run_identity(n);
        let start = prover.start().map(|x| x.to_vec());
        let start_score = start.as_ref().map(|x| objective.score(x));
        Ok(Run { puzzle, first_source, first, objective, expected, n, prover, run, start, start_score })
    }

    /// A report's contradiction of the run.
    fn contradiction(&self, source: &str, report: &PartReport, message: String) -> CombineError {
        CombineError::Contradiction { origin: source.to_string(), part: report.part, parts: self.n, message }
    }

    /// Whether `report` is of this run: its version, puzzle, `N` and objective, part, run
    /// identity, a part not given before (noted in `tally`), and its seal.
    fn check_identity(
        &self,
        source: &'a str,
        report: &PartReport,
        tally: &mut Tally<'a>,
    ) -> Result<(), CombineError> {
        let (first_source, first, n) = (self.first_source, self.first, self.n);
        check_version(source, report)?;
        if report.puzzle != self.expected {
            return Err(CombineError::Foreign {
                origin: source.to_string(),
                found: report.puzzle.clone(),
                expected: self.expected.clone(),
            });
        }
        if report.parts != n || report.objective != first.objective {
            return Err(CombineError::Mismatch {
                origin: source.to_string(),
                part: report.part,
                parts: report.parts,
                objective: report.objective.clone(),
                first: first_source.to_string(),
                first_parts: n,
                first_objective: first.objective.clone(),
            });
        }
        if report.part >= n {
            return Err(CombineError::Invalid {
                origin: source.to_string(),
                message: format!("part {}/{} is out of range (0 <= K < N <= 2^20)", report.part, n),
            });
        }
        if report.run != self.run {
            return Err(CombineError::Run {
                origin: source.to_string(),
                part: report.part,
                parts: n,
                objective: report.objective.clone(),
                found: report.run.clone(),
                expected: self.run.clone(),
            });
        }
        if let Some(earlier) = tally.seen.insert(report.part, source) {
            return Err(CombineError::Overlap {
                part: report.part,
                parts: n,
                first: earlier.to_string(),
                second: source.to_string(),
            });
        }
        if report.seal != report.expected_seal() {
            return Err(CombineError::Seal { origin: source.to_string(), part: report.part, parts: n });
        }
        Ok(())
    }

    /// Whether `report`'s plan is the run's: its starting score, the plan there when the
    /// starting plan keeps the limits, placed by its `at` in its own part (or the starting
    /// plan), solving the puzzle (simulated once a plan), its score and total, no worse than
    /// the starting plan; the best plan so far noted in `tally`.
    fn check_plan(
        &self,
        source: &str,
        report: &'a PartReport,
        tally: &mut Tally<'a>,
    ) -> Result<(), CombineError> {
        let (puzzle, objective, n) = (self.puzzle, self.objective, self.n);
        let (start, start_score) = (&self.start, self.start_score);
        let contradiction = |message: String| self.contradiction(source, report, message);
        let id = PartId { index: report.part, count: n };
        if report.start != start_score.map(|s| clamp(s.0)) {
            return Err(contradiction(format!(
                "says the starting plan every part shares scores {}, but it scores {}",
                show(report.start),
                show(start_score.map(|s| clamp(s.0)))
            )));
        }
        match (&report.presses, &report.at) {
            (None, _) => {
                if let Some(s) = start_score {
                    return Err(contradiction(format!(
                        "reports no plan, but every part starts from the run's starting plan (scoring {}) and reports it when nothing in the part is better",
                        clamp(s.0)
                    )));
                }
                if report.score.is_some() || report.total.is_some() || report.at.is_some() {
                    return Err(contradiction("reports no plan but a score, total or place for it".into()));
                }
            }
            (Some(x), None) => {
                if start.as_deref() != Some(x.as_slice()) {
                    if !plays(puzzle, x) {
                        return Err(CombineError::BadPlan { origin: source.to_string() });
                    }
                    return Err(contradiction(
                        "reports a plan that is not the run's starting plan without saying where in the part it lies (`at`)".into(),
                    ));
                }
            }
            (Some(x), Some(at)) => {
                // Simulated first: a plan that does not solve the puzzle is said to be so.
                if !tally.simulated.contains(x.as_slice()) {
                    if !plays(puzzle, x) {
                        return Err(CombineError::BadPlan { origin: source.to_string() });
                    }
                    tally.simulated.insert(x.as_slice());
                }
                if self.prover.plan_at(id, at).as_deref() != Some(x.as_slice()) {
                    return Err(contradiction(
                        "reports a plan that does not lie where it says (`at`) in its own part of the walk: a plan of another part, or not of the walk".into(),
                    ));
                }
            }
        }
        if let Some(x) = &report.presses {
            // Parts that find nothing better report the same starting plan: each plan is
            // simulated once.
            if !tally.simulated.contains(x.as_slice()) {
                if !plays(puzzle, x) {
                    return Err(CombineError::BadPlan { origin: source.to_string() });
                }
                tally.simulated.insert(x.as_slice());
            }
            let score = objective.score(x);
            if report.score != Some(clamp(score.0))
                || report.total != Some(clamp(Objective::Total.score(x).0))
            {
                return Err(contradiction(format!(
                    "says its plan scores {} with {} presses in all, but it scores {} with {}",
                    show(report.score),
                    show(report.total),
                    clamp(score.0),
                    clamp(Objective::Total.score(x).0)
                )));
            }
            if let Some(s) = start_score
                && score > s
            {
                return Err(contradiction(format!(
                    "reports a plan scoring {}, worse than the starting plan every part begins from ({}), which it would report instead",
                    clamp(score.0),
                    clamp(s.0)
                )));
            }
            if tally.best.as_ref().is_none_or(|(s, k, _)| (score, report.part) < (*s, *k)) {
                tally.best = Some((score, report.part, x.clone()));
            }
        }
        Ok(())
    }

    /// Notes in `tally` whether report `index` finished, its cutoff (refused where the walk
    /// takes none) and its nodes.
    fn count(
        &self,
        index: usize,
        source: &'a str,
        report: &PartReport,
        tally: &mut Tally<'a>,
    ) -> Result<(), CombineError> {
        if report.finished {
            tally.finished.push(index);
        } else {
            tally.unfinished.push(report.part);
        }
        if let Some(s) = report.below {
            if !self.prover.takes_cutoff() {
                return Err(self.contradiction(
                    source,
                    report,
                    format!("says it was walked below {s}, but parts of this walk take no cutoff"),
                ));
            }
            tally.cutoffs.push((s, report.part, source));
        }
        tally.nodes = tally.nodes.saturating_add(report.nodes);
        Ok(())
    }

    /// The reports added up: the missing and unfinished parts, a cutoff no plan backs refused
    /// on a complete set, the audit, and the best plan, proven or not.
    fn verdict(
        self,
        tally: Tally<'a>,
        reports: &[(String, PartReport)],
        audit: Option<Audit>,
    ) -> Result<Combined, CombineError> {
        let Tally { seen, best, mut unfinished, finished, nodes, cutoffs, .. } = tally;
        let n = self.n;
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
        let audited = match audit {
            Some(audit) => walk_again(&self.prover, reports, &finished, audit)?,
            None => Vec::new(),
        };
        Ok(Combined {
            version: VERSION,
            puzzle: self.expected,
            run: self.run,
            parts: n,
            objective: self.first.objective.clone(),
            score: best.as_ref().map(|(s, _, _)| clamp(s.0)),
            total: best.as_ref().map(|(_, _, x)| clamp(Objective::Total.score(x).0)),
            from_part: best.as_ref().map(|(_, k, _)| *k),
            presses: best.map(|(_, _, x)| x),
            proven: missing.is_empty() && unfinished.is_empty() && unbacked.is_none(),
            missing,
            unfinished,
            given: given.len() as u64,
            nodes,
            audited,
            seed: audit.map(|a| a.seed),
        })
    }
}

/// Whether a finished part's report agrees with the same part walked again to its end (with
/// the report's cutoff): the same best score. (The plan may differ on a tie; the score is what
/// the proof rests on.)
pub fn agrees(report: &PartReport, again: &PartReport) -> bool {
    again.finished && again.part == report.part && again.parts == report.parts && again.score == report.score
}

/// The audit: `audit.parts` of the finished reports (`finished`: their indices), chosen at
/// random by the seed, walked again to their end with their cutoffs; the parts walked, in
/// order, or the first whose best score differs from its report's.
fn walk_again(
    prover: &Prover,
    reports: &[(String, PartReport)],
    finished: &[usize],
    audit: Audit,
) -> Result<Vec<u64>, CombineError> {
    use rand::SeedableRng;
    use rand::seq::SliceRandom;
    let mut rng = chacha20::ChaCha8Rng::seed_from_u64(audit.seed);
    let mut chosen = finished.to_vec();
    chosen.shuffle(&mut rng);
    chosen.truncate(usize::try_from(audit.parts).unwrap_or(usize::MAX));
    chosen.sort_unstable_by_key(|&i| reports[i].1.part);
    let unbounded = super::PART_BUDGET;
    let mut walked = Vec::with_capacity(chosen.len());
    for i in chosen {
        let (source, report) = &reports[i];
        let id = PartId { index: report.part, count: report.parts };
        let again =
            prover.walk(id, unbounded, report.below).map_err(|e| CombineError::Internal(e.to_string()))?;
        if !agrees(report, &again) {
            return Err(CombineError::Audit {
                origin: source.clone(),
                part: report.part,
                parts: report.parts,
                claimed: report.score,
                found: again.score,
                seed: audit.seed,
            });
        }
        walked.push(report.part);
    }
    Ok(walked)
}

/// Consecutive runs of sorted numbers, as inclusive ranges.
pub fn ranges(sorted: &[u64]) -> Vec<[u64; 2]> {
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
    fn gaps_and_ranges() {
        assert_eq!(gaps(&[0, 1, 4, 5, 9], 12), vec![[2, 3], [6, 8], [10, 11]]);
        assert_eq!(gaps(&[], 3), vec![[0, 2]]);
        assert_eq!(gaps(&[0, 1, 2], 3), Vec::<[u64; 2]>::new());
        assert_eq!(ranges(&[1, 2, 3, 7]), vec![[1, 3], [7, 7]]);
        assert_eq!(describe_ranges(&[[1, 3], [7, 7]]), "1-3, 7");
    }
}
