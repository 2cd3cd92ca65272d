//! The walks of a set cut into parts, one part at a time (what [`crate::shard`] runs): the
//! shared start of the parts, a part walked, the mod-2 coset the parts share, and every plan of
//! a part for the audit.

use super::basis_walk;
use super::binary::binary_coset;
use super::set::Set;
use super::{NotSearched, within_limits};
use crate::solve::Answer;
use crate::solve::minweight::{self, Coset};
use crate::solve::search::{Budget, Meter, Objective};

/// What the walk of one part of the proof found (see [`explore_part`]).
#[derive(Clone, Debug)]
pub(crate) struct PartFound {
    /// The best plan within the limits found: the part's, or the starting plan (of the whole
    /// set) when nothing in the part is better; `None` when no plan within the limits is known.
    pub best: Option<Vec<u64>>,
    /// Where the part's walk found `best` (its multiple of each of the walk's generators);
    /// `None` when `best` is the starting plan.
    pub at: Option<Vec<u64>>,
    /// Whether the part was walked to its end: no plan of it is better than `best`.
    pub complete: bool,
    /// Blocks of plans (mod 2) or walk nodes (otherwise) visited.
    pub nodes: u64,
}

/// Why a set is not walked in parts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Unwalkable {
    /// Press counts beyond 64 bits, or no basis.
    NotSearched(NotSearched),
    /// A mod-2 set of more than 2^70 plans ([`minweight::MAX_PART_DIMENSION`]).
    TooLarge,
    /// Not mod 2, and the bounded walk over the quiet basis does not take the set (periods over
    /// 1024, or tables too large).
    NoWalk,
}

/// What every part of a set that is not mod 2 shares, computed once: the walk's shape (its
/// generators and their order), the buttons' periods, the plan the walk goes from (the
/// greedy descent's from the algebra's plan, with no budget: the same for every part) and
/// that plan again when it keeps the press limits (the starting plan every part reports when
/// nothing in it is better).
#[derive(Clone, Debug)]
pub(crate) struct BasisParts {
    pub shape: basis_walk::Shape,
    pub periods: Vec<u64>,
    pub base: Vec<u64>,
    pub start: Option<Vec<u64>>,
}

/// The shared start of the parts of a set that is not mod 2 (see [`BasisParts`]); refuses a
/// set the bounded walk does not take.
pub(crate) fn basis_parts(
    answer: &Answer,
    limits: Option<&[u64]>,
    objective: Objective,
    symmetries: &[Vec<usize>],
) -> Result<BasisParts, Unwalkable> {
    let budget = Budget { nodes: u64::MAX, time: None };
    let set = Set::new(answer, limits, objective, budget, symmetries).map_err(Unwalkable::NotSearched)?;
    let walk = basis_walk::prepare(set.problem(&[]), symmetries).ok_or(Unwalkable::NoWalk)?;
    let mut meter = Meter::new(budget);
    let base = set.descend(&mut meter, true);
    let start = within_limits(&base, set.limits).then(|| base.clone());
    Ok(BasisParts { shape: walk.shape(), periods: set.periods.clone(), base, start })
}

/// The bounded walk over the quiet basis over `part` of its units only, from the parts'
/// shared plan (`parts`, of [`basis_parts`] for the same set), within `budget`. The parts of
/// one set (same answer, limits, objective and symmetries) are disjoint and cover the set;
/// the best of all parts' plans is the set's best once every part is complete.
pub(crate) fn explore_part(
    answer: &Answer,
    limits: Option<&[u64]>,
    objective: Objective,
    budget: Budget,
    symmetries: &[Vec<usize>],
    part: minweight::Part,
    parts: &BasisParts,
) -> Result<PartFound, Unwalkable> {
    let set = Set::new(answer, limits, objective, budget, symmetries).map_err(Unwalkable::NotSearched)?;
    let walk = basis_walk::prepare(set.problem(&[]), symmetries).ok_or(Unwalkable::NoWalk)?;
    let start = parts.start.as_ref().map(|x| objective.score(x));
    let walked = walk.run_part(&parts.base, start, budget.since(set.started), part);
    let (best, at) = match walked.best {
        Some(x) => (Some(x), walked.digits),
        None => (parts.start.clone(), None),
    };
    Ok(PartFound { best, at, complete: walked.complete, nodes: walked.nodes })
}

/// The mod-2 set of [`explore_part`] as a coset (press limits of 0 as constraints), for a walk
/// prepared once and run over many parts (`minweight::Prepared`): `Ok(None)` when the set is
/// not mod 2 (its parts go through [`explore_part`]), `Ok(Some(None))` when no plan keeps the
/// limits.
pub(crate) fn binary_part_coset(
    answer: &Answer,
    limits: Option<&[u64]>,
    objective: Objective,
    symmetries: &[Vec<usize>],
) -> Result<Option<Option<Coset>>, Unwalkable> {
    let budget = Budget { nodes: u64::MAX, time: None };
    let set = Set::new(answer, limits, objective, budget, symmetries).map_err(Unwalkable::NotSearched)?;
    if !set.periods.iter().all(|&l| l <= 2) {
        return Ok(None);
    }
    let coset = binary_coset(&set.x0, &set.generators, set.limits);
    if coset.as_ref().is_some_and(|c| c.dimension() > minweight::MAX_PART_DIMENSION) {
        return Err(Unwalkable::TooLarge);
    }
    Ok(Some(coset))
}

/// Every plan `part` of the set's walk answers for (see [`explore_part`]), with no bound and no
/// symmetry skipping (mod 2: within the limits of 0; otherwise every plan of the set); `None`
/// when the part holds more than `most` plans.
pub(crate) fn part_plans(
    answer: &Answer,
    limits: Option<&[u64]>,
    objective: Objective,
    symmetries: &[Vec<usize>],
    part: minweight::Part,
    most: u64,
) -> Result<Option<Vec<Vec<u64>>>, Unwalkable> {
    let budget = Budget { nodes: u64::MAX, time: None };
    let set = Set::new(answer, limits, objective, budget, symmetries).map_err(Unwalkable::NotSearched)?;
    if set.periods.iter().all(|&l| l <= 2) {
        let Some(coset) = binary_coset(&set.x0, &set.generators, set.limits) else {
            return Ok(Some(Vec::new()));
        };
        if coset.dimension() > minweight::MAX_PART_DIMENSION {
            return Err(Unwalkable::TooLarge);
        }
        let n = set.x0.len();
        let unpack = |v: Vec<u64>| (0..n).map(|j| u64::from(minweight::bit(&v, j))).collect();
        return Ok(minweight::part_plans(&coset, symmetries, part, most)
            .map(|plans| plans.into_iter().map(unpack).collect()));
    }
    let walk = basis_walk::prepare(set.problem(&[]), symmetries).ok_or(Unwalkable::NoWalk)?;
    Ok(walk.part_plans(&set.x0, part, most))
}
