//! Best plans over the solution set the algebra found: `x0 + Σ t_g·g (mod L)`, one particular
//! plan plus the quiet patterns.
//!
//! Mod 2 sets of up to 2^62 plans go to [`super::minweight`] (a Gray-code walk with a
//! Walsh–Hadamard bound, on every core), press limits of 0 becoming linear constraints. Other
//! sets within the budget are enumerated whole in mixed radix, which proves the best plan and
//! gives the exact number of plans within press limits; from 2^16 plans on, the set is cut by
//! the multiples of its last generators into pieces enumerated on every core, and the pieces'
//! results are taken in order, so the plan chosen is the one a single enumeration chooses.
//! Sets of at least 2^16 plans of one period with few generators for their buttons (`k² <= 4n`:
//! a board of one modulus, whose quiet patterns are fixed by one row) go instead to
//! [`basis_walk`], a
//! depth-first walk over the quiet basis bounded at every level, from a descent's local optimum
//! (unless limits bind on a set the enumeration can count). Otherwise a descent and an iterated
//! local search find a good plan, a beam search ([`super::beam`], a tenth of the budget) a
//! better one on most large sets, on sets of at least 100 buttons the window search
//! ([`windows`], a quarter of the beam's share) re-solves the last rows of the search's order
//! with the beam along them, then balls of buttons of the best plan so far exactly (while the relaxations' bound of [`super::bound`] is worked out on the other
//! core), then branch and bound runs in the search solver
//! ([`super::search`]) with the lookahead of [`super::bound::lookahead`] (its shares chosen
//! along the beam's plan): a search down from that plan, then one raising a proven floor from
//! [`super::bound`], each split over both cores; the answer is proven only if one of them
//! finishes, and the floor reached is the plan's lower bound. A board whose quiet basis was
//! left out (too many quiet patterns to keep) cannot be walked, but the beam needs no basis: it
//! gets the whole budget there (less the window search's quarter), from the algebra's plan,
//! and the window search starts from the algebra's plan when the beam finds none.
//!
//! The files: `set` (the set in 64-bit words, which every stage reads), one file a stage, each
//! a method of the set (`binary`, `enumeration`, `descent`, `walk`, `branch_and_bound`; and
//! `no_basis` for a board without its basis, `windows` the window search), `budget` (the stages' shares of the budget),
//! `parts` (the walks cut into parts, for [`crate::shard`]) and `basis_walk` (the bounded walk).

pub(crate) mod basis_walk;
mod binary;
mod branch_and_bound;
mod budget;
mod descent;
mod enumeration;
mod no_basis;
mod parts;
mod set;
#[cfg(test)]
mod tests;
mod walk;
mod windows;

use num_bigint::BigUint;
use num_traits::Zero;

use super::Answer;
use super::search::{Budget, Meter, Objective, SearchProblem};
use no_basis::beam_without_basis;
pub(crate) use parts::{
    BasisParts, PartFound, Unwalkable, basis_parts, binary_part_coset, explore_part, part_plans,
};
use set::Set;

/// Branch and bound is not tried on puzzles with more buttons than this.
pub const SEARCH_BUTTON_LIMIT: usize = 20_000;

/// Whether a plan is proven best for its objective, and if not, why not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Proof {
    /// No plan of the solution set scores better.
    Proven,
    /// The budget ran out before the search could rule out a better plan.
    BudgetRanOut,
    /// The solution set was not searched, for this reason.
    NotSearched(NotSearched),
}

/// Why a solution set was not searched for a better plan.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum NotSearched {
    /// More buttons than the search takes on ([`SEARCH_BUTTON_LIMIT`]).
    TooManyButtons,
    /// Press counts or periods do not fit in 64 bits.
    BeyondWords,
    /// Staged presses: a cut press is scored on the full plan, the set is searched on full
    /// presses, so only the fewest presses in all are proven.
    StagedObjective,
    /// The quiet-pattern basis was left out (huge boards), so the set cannot be walked.
    NoBasis,
    /// A big board solved by light chasing in compact form: the quiet patterns are counted,
    /// not searched.
    BigBoard,
}

impl Proof {
    /// Whether the plan is proven best.
    pub fn is_proven(self) -> bool {
        self == Proof::Proven
    }

    /// A stable name for JSON: `proven`, `budget-ran-out`, `too-many-buttons`, `beyond-64-bits`,
    /// `staged-objective`, `no-basis`, `big-board`.
    pub fn code(self) -> &'static str {
        match self {
            Proof::Proven => "proven",
            Proof::BudgetRanOut => "budget-ran-out",
            Proof::NotSearched(NotSearched::TooManyButtons) => "too-many-buttons",
            Proof::NotSearched(NotSearched::BeyondWords) => "beyond-64-bits",
            Proof::NotSearched(NotSearched::StagedObjective) => "staged-objective",
            Proof::NotSearched(NotSearched::NoBasis) => "no-basis",
            Proof::NotSearched(NotSearched::BigBoard) => "big-board",
        }
    }

    /// For people: `proven`, or `not proven: ` and the reason.
    pub fn describe(self) -> String {
        let why = match self {
            Proof::Proven => return "proven".into(),
            Proof::BudgetRanOut => "the budget ran out".to_string(),
            Proof::NotSearched(NotSearched::TooManyButtons) => {
                format!("puzzles of more than {SEARCH_BUTTON_LIMIT} buttons are not searched")
            }
            Proof::NotSearched(NotSearched::BeyondWords) => {
                "press counts beyond 64 bits are not searched".into()
            }
            Proof::NotSearched(NotSearched::StagedObjective) => {
                "with staged presses only the fewest presses in all are proven".into()
            }
            Proof::NotSearched(NotSearched::NoBasis) => {
                "the quiet patterns of this board are too many to search".into()
            }
            Proof::NotSearched(NotSearched::BigBoard) => {
                "big boards are solved by light chasing without searching the quiet patterns".into()
            }
        };
        format!("not proven: {why}")
    }
}

/// A chosen plan and whether it is proven best.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Plan {
    /// Presses started per button (a cut press counts).
    pub presses: Vec<BigUint>,
    /// What the plan minimises.
    pub objective: Objective,
    /// Whether it is proven best, and if not, why not.
    pub proof: Proof,
    /// Staged presses: the last press of `button` stopped after `phases` phases (the puzzle was
    /// solved), `None` when every press ran in full.
    pub partial: Option<Partial>,
    /// A proven lower bound on the objective's first measure over every plan (presses in all,
    /// the largest press count, or the buttons pressed): the plan's own when it is proven best,
    /// `None` when no bound was computed.
    pub lower_bound: Option<BigUint>,
}

/// A press cut short because the puzzle was solved part-way through it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Partial {
    /// The button whose last press stopped early.
    pub button: usize,
    /// The phases of that press that ran.
    pub phases: usize,
}

impl Plan {
    /// The total number of presses.
    pub fn total(&self) -> BigUint {
        self.presses.iter().sum()
    }

    /// Whether the plan is proven best.
    pub fn is_proven(&self) -> bool {
        self.proof.is_proven()
    }

    /// The plan's first measure for its objective: presses in all, the largest press count, or
    /// the buttons pressed.
    pub fn measure(&self) -> BigUint {
        match self.objective {
            Objective::Total => self.total(),
            Objective::Max => self.presses.iter().max().cloned().unwrap_or_default(),
            Objective::Buttons => BigUint::from(self.presses.iter().filter(|x| !x.is_zero()).count()),
        }
    }
}

/// The outcome of exploring the solution set for one objective.
#[derive(Clone, Debug)]
pub(crate) struct Exploration {
    /// The best plan within the limits found, if any.
    pub best: Option<Plan>,
    /// The number of plans within the limits, when it was counted (`None` when not).
    pub count_within_limits: Option<BigUint>,
    /// Plans enumerated or search nodes visited.
    pub nodes: u64,
    /// A proven lower bound on the objective's first measure, when one was found.
    pub lower_bound: Option<u128>,
    /// Whether `lower_bound` is `Some` and at least the relaxations' bound
    /// ([`super::bound::lower_bound`]) of the set's search problem, which then need not be
    /// worked out again.
    pub relaxed: bool,
}

/// A solution set `x0 + Σ t_i·g_i (mod periods)` and what is asked of it.
#[derive(Clone, Copy)]
pub(crate) struct Problem<'a> {
    pub x0: &'a [u64],
    /// Each generator and its order.
    pub generators: &'a [(Vec<u64>, u64)],
    pub periods: &'a [u64],
    pub limits: Option<&'a [u64]>,
    pub objective: Objective,
}

/// `x_j <= limit_j` for every button, or no limits.
fn within_limits(x: &[u64], limits: Option<&[u64]>) -> bool {
    limits.is_none_or(|l| x.iter().zip(l).all(|(a, b)| a <= b))
}

/// Explores the solution set of a solvable `answer` for `objective`, respecting press limits.
/// `symmetries` are permutations of the buttons that may map the set onto itself (each is
/// checked before it is used; the mod-2 walk skips the images of what it has walked).
/// Returns `Err` with the reason when the set cannot be walked (press counts beyond 64 bits, or
/// no basis); the algebra's plan then stands alone.
///
/// The stages, each given what is left of the budget: the mod-2 minimum-weight walk; the
/// enumeration of small sets; on sets too large to search, the particular plan; a local descent
/// from it; then either the bounded walk over the quiet basis or branch and bound.
pub(crate) fn explore(
    answer: &Answer,
    search_problem: impl FnOnce(&[u64]) -> SearchProblem,
    limits: Option<&[u64]>,
    objective: Objective,
    budget: Budget,
    symmetries: &[Vec<usize>],
) -> Result<Exploration, NotSearched> {
    let set = match Set::new(answer, limits, objective, budget, symmetries) {
        Err(NotSearched::NoBasis) => {
            return beam_without_basis(answer, search_problem, limits, objective, budget);
        }
        set => set?,
    };
    if let Some(found) = set.binary_walk() {
        return Ok(found);
    }
    let walk = set.prepare_walk();
    if walk.is_none()
        && let Some(found) = set.enumeration()
    {
        return Ok(found);
    }
    if set.periods.len() > SEARCH_BUTTON_LIMIT {
        return Ok(set.too_many_buttons());
    }
    let mut meter = Meter::new(budget.since(set.started));
    let x0 = set.descend(&mut meter, walk.is_some());
    let start = within_limits(&x0, set.limits).then(|| objective.score(&x0));
    if let Some(walk) = &walk
        && !meter.exhausted
    {
        return Ok(set.walk(walk, &x0, start, &meter));
    }
    Ok(set.branch_and_bound(search_problem, &x0, start, &meter))
}

/// The plan `x` as presses, for `objective`, with its proof.
fn plan(x: &[u64], objective: Objective, proof: Proof) -> Plan {
    Plan {
        presses: x.iter().map(|&v| BigUint::from(v)).collect(),
        objective,
        proof,
        partial: None,
        lower_bound: None,
    }
}
