//! Solving: from a [`Puzzle`] to an [`Answer`] — solvable or not, one verified plan, the exact
//! number of plans and of quiet patterns.
//!
//! Defining identity: a plan `x` (press counts, `0 <= x_j < L_j`) solves the puzzle when
//! `start + A·x ≡ target` cell by cell, `A[i][j]` being what button `j` adds to cell `i`.
//! Plans are counted in `Π_j Z/L_j`, `L_j` the period of button `j`.
//!
//! Dispatch: big grids with one modulus take light chasing, sparse one-modulus puzzles general
//! propagation when its seeds are few; when every modulus is 2 the bit-packed GF(2) path
//! (`gf2`) runs; other puzzles whose buttons are their cells take sparse elimination
//! (`sparse`) from [`SPARSE_FROM_CELLS`] cells on, or when dense elimination would not fit;
//! otherwise the general per-prime path (`modular`). Both sit behind [`solve_with`] and tests force each on
//! the same inputs. Every plan is simulated on the puzzle before it is returned.
//!
//! The path of a whole analysis is decided here too ([`path`]): huge grids that light chasing
//! solves, when only a plan and the count are asked, take light chasing in compact form
//! (`solve_compact`) instead of the route's [`Answer`] of big integers.

pub(crate) mod beam;
pub(crate) mod bound;
pub(crate) mod estimate;
pub(crate) mod gf2;
pub(crate) mod light_chase;
pub(crate) mod minweight;
pub(crate) mod modular;
pub(crate) mod optimize;
pub(crate) mod orbits;
pub(crate) mod prime_chase;
pub(crate) mod propagation;
pub(crate) mod search;
pub(crate) mod sparse;
pub(crate) mod within;

#[doc(hidden)]
pub use estimate::memory_estimate;
#[doc(hidden)]
pub use optimize::SEARCH_BUTTON_LIMIT;
pub use optimize::{NotSearched, Partial, Plan, Proof};
#[doc(inline)]
pub use search::Budget;
#[doc(hidden)]
pub use search::Score;
pub use search::{DEFAULT_NODES, Objective};

use num_bigint::BigUint;
use num_traits::One;

use crate::error::InternalError;
use crate::model::Puzzle;

/// Which elimination to use.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Method {
    /// The fastest path that applies.
    #[default]
    Auto,
    /// Bit-packed GF(2); only when every modulus is 2 (otherwise falls back to `Modular`).
    Gf2,
    /// Split by prime, eliminate over each `Z/p^E`, combine by CRT. Always applies.
    Modular,
    /// Light chasing on grids (one modulus, unit neighbour weight), else general propagation
    /// (any puzzle with one modulus); otherwise falls back to `Modular`.
    Propagation,
    /// The `Modular` method on sparse rows in a nested-dissection order, for puzzles whose
    /// buttons are their cells (any moduli); otherwise falls back to `Modular`.
    Sparse,
}

/// The exact answer for one puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Answer {
    /// `L_j` for every button: pressing it `L_j` times changes nothing.
    pub periods: Vec<BigUint>,
    /// One plan with `0 <= x_j < L_j`, verified by simulation; `None` when there is none.
    pub presses: Option<Vec<BigUint>>,
    /// The number of plans in `Π Z/L_j` that solve the puzzle (0 when unsolvable).
    pub count: BigUint,
    /// The number of plans that change nothing, the zero plan included.
    pub kernel_size: BigUint,
    /// A basis of the quiet patterns: every plan that changes nothing is `Σ t_g·g (mod L)` for
    /// exactly one choice of `0 <= t_g < order_g`, so `Π order_g = kernel_size`. Left empty
    /// by propagation on huge boards when it would not fit in memory (then the product differs).
    pub quiet_basis: Vec<Generator>,
    /// The elimination that produced the answer.
    pub method: Method,
    /// Propagation, and sparse elimination when some prime's rows were chased: how many
    /// unknowns were symbolic seeds (summed over the chased primes).
    pub seeds: Option<usize>,
    /// Whether light chasing on a grid answered (a kind of propagation: [`Method::Propagation`]).
    pub(crate) chased: bool,
    /// `kernel_size` as `(prime, exponent)` pairs, when the elimination worked it out prime by
    /// prime (sparse and dense modular elimination): the report writes a count as powers from
    /// these instead of factoring a number of millions of digits.
    pub(crate) kernel_factors: Option<Vec<(u64, u64)>>,
}

/// One quiet pattern of a basis, with its additive order in `Π Z/L_j`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Generator {
    /// Presses per button.
    pub presses: Vec<BigUint>,
    /// The pattern's additive order: adding it this many times gives zero.
    pub order: BigUint,
}

impl Answer {
    /// Whether there is a plan.
    pub fn is_solvable(&self) -> bool {
        self.presses.is_some()
    }

    /// Nonzero plans that change nothing.
    pub fn quiet_patterns(&self) -> BigUint {
        &self.kernel_size - BigUint::one()
    }

    /// Whether `quiet_basis` is whole (it is left out on huge boards): the product of the
    /// orders is the number of plans that change nothing.
    pub fn has_full_basis(&self) -> bool {
        self.quiet_basis.iter().map(|g| &g.order).product::<BigUint>() == self.kernel_size
    }
}

/// At most this many entries (quiet patterns × buttons) are spent on the quiet-pattern basis;
/// past it the basis is left empty ([`Answer::has_full_basis`] is false).
pub(crate) const BASIS_ENTRY_LIMIT: u128 = 20_000_000;

/// Dense elimination keeps `cells × buttons` entries: at most 1 GiB of them.
const DENSE_BITS_LIMIT: u128 = 1 << 33;
const DENSE_ENTRIES_LIMIT: u128 = 1 << 27;

/// Whether dense elimination may run: `cells × buttons` entries within its limit (bits when
/// every modulus is 2, words otherwise).
pub(crate) fn dense_fits(puzzle: &Puzzle) -> bool {
    let entries = puzzle.cell_count() as u128 * puzzle.button_count() as u128;
    let limit = if puzzle.moduli.iter().all(|&m| m == 2) { DENSE_BITS_LIMIT } else { DENSE_ENTRIES_LIMIT };
    entries <= limit
}

/// From this many cells on, a puzzle whose buttons are its cells and whose moduli are not all 2
/// takes sparse elimination instead of dense.
#[doc(hidden)]
pub const SPARSE_FROM_CELLS: usize = 256;

/// Whether [`solve`] takes sparse elimination for this puzzle (after light chasing and
/// propagation, when they do not apply).
pub(crate) fn takes_sparse(puzzle: &Puzzle) -> bool {
    let all_mod_two = puzzle.moduli.iter().all(|&m| m == 2);
    sparse::applies(puzzle)
        && (!dense_fits(puzzle) || (!all_mod_two && puzzle.cell_count() >= SPARSE_FROM_CELLS))
}

/// Solves with the fastest applicable method.
///
/// ```
/// use num_bigint::BigUint;
///
/// let lights_out = modsolve::parse_puzzle("Puzzle(graph: Grid(rows: 3, cols: 3), modulus: 2, target: All(1))")?;
/// let answer = modsolve::solve(&lights_out)?;
/// // 3×3 Lights Out has one plan and no quiet pattern.
/// assert_eq!((answer.count.clone(), answer.kernel_size.clone()), (BigUint::from(1u32), BigUint::from(1u32)));
/// let presses = answer.presses.expect("solvable");
/// assert!(lights_out.solves(&presses));
/// assert_eq!(presses.iter().sum::<BigUint>(), BigUint::from(5u32));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn solve(puzzle: &Puzzle) -> Result<Answer, InternalError> {
    solve_with(puzzle, Method::Auto)
}

/// Solves with a chosen method, then verifies the plan by simulation.
///
/// ```
/// use modsolve::{Method, solve, solve_with};
///
/// let octopus = modsolve::parse_puzzle(
///     "Puzzle(graph: Path(4), modulus: [7, 8, 7, 6], press: (self: 2, neighbors: 1), start: [2, 4, 5, 3])",
/// )?;
/// // Every elimination that applies gives the same periods and count.
/// let auto = solve(&octopus)?;
/// let modular = solve_with(&octopus, Method::Modular)?;
/// assert_eq!((modular.periods.clone(), modular.count.clone()), (auto.periods, auto.count));
/// assert_eq!(modular.count, 2352u32.into());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn solve_with(puzzle: &Puzzle, method: Method) -> Result<Answer, InternalError> {
    solve_inner(puzzle, method, Basis::Kept)
}

/// Whether the algebra works out the quiet-pattern basis (it can cost another elimination per
/// prime).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Basis {
    /// Left out: the answer's basis is empty.
    Left,
    /// Worked out when the puzzle is solvable (a search over its plans needs it), left out when
    /// it is not (by the dense elimination: the sparse one keeps it either way).
    IfSolvable,
    /// Worked out (within [`BASIS_ENTRY_LIMIT`]).
    Kept,
}

/// One solver of a [`route`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[doc(hidden)]
pub enum Solver {
    /// Light chasing on a grid of one modulus; declines any other puzzle at once.
    LightChase,
    /// General propagation; declines when it would need too many seeds (unforced: more than
    /// one unknown in eight, or fewer than 400 unknowns).
    Propagation {
        /// With as many seeds as its memory bound allows.
        forced: bool,
    },
    /// Sparse elimination in a nested-dissection order (buttons that are the cells).
    Sparse,
    /// Bit-packed dense elimination over GF(2).
    Gf2,
    /// Dense elimination per prime power, combined by the CRT.
    Modular,
}

/// The solvers [`solve_with`] gives this puzzle to, in order; the first that answers gives the
/// answer (only light chasing and propagation decline). The one place the route is decided:
/// [`memory_estimate`] reads it too. An error when the method cannot run on a puzzle this
/// large; a route whose every solver declines ends in the same error.
#[doc(hidden)]
pub fn route(puzzle: &Puzzle, method: Method) -> Result<Vec<Solver>, InternalError> {
    let all_mod_two = puzzle.moduli.iter().all(|&m| m == 2);
    // Grid propagation pays once the board is larger than its row squared times a little.
    let grid_pays = puzzle.cell_count() >= 400 && light_chase::applies(puzzle);
    let dense_fits = dense_fits(puzzle);
    let propagating = matches!(method, Method::Propagation | Method::Auto);
    Ok(if propagating && (method == Method::Propagation || grid_pays || !dense_fits) {
        // Grids first, then general propagation (forced when dense elimination cannot run).
        let forced = method == Method::Propagation || !dense_fits;
        let mut route = vec![Solver::LightChase, Solver::Propagation { forced }];
        if method == Method::Auto && takes_sparse(puzzle) {
            route.push(Solver::Sparse);
        } else if dense_fits {
            route.push(Solver::Modular);
        }
        route
    } else if method == Method::Sparse && sparse::applies(puzzle) {
        vec![Solver::Sparse]
    } else if !dense_fits {
        return Err(InternalError::Unsupported(format!(
            "{} cells × {} buttons is too large for dense elimination, which the {method:?} method needs",
            puzzle.cell_count(),
            puzzle.button_count()
        )));
    } else {
        match method {
            // Other sparse puzzles: general propagation when its seeds are few.
            Method::Auto if all_mod_two => vec![Solver::Propagation { forced: false }, Solver::Gf2],
            Method::Auto if takes_sparse(puzzle) => {
                vec![Solver::Propagation { forced: false }, Solver::Sparse]
            }
            Method::Auto => vec![Solver::Propagation { forced: false }, Solver::Modular],
            Method::Gf2 if all_mod_two => vec![Solver::Gf2],
            _ => vec![Solver::Modular],
        }
    })
}

/// The path of a whole analysis of one puzzle, decided here with [`route`] so that the caller
/// does not choose a solver itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[doc(hidden)]
pub enum Path {
    /// [`route`]'s solvers give an [`Answer`] (per-cell big integers), and the caller's searches
    /// follow.
    General,
    /// Light chasing in compact form (`solve_compact`): one bit or one `u32` press count per
    /// cell, no per-cell big integers and no search for a fewer-press plan.
    Compact {
        /// Why: the grid's cells, more than the caller's `compact_from` (and light chasing
        /// solves it, with no press limits or phases, and nothing but a plan and the count asked).
        cells: usize,
    },
}

impl Path {
    /// Whether this is the compact light-chasing path.
    pub fn is_compact(self) -> bool {
        matches!(self, Path::Compact { .. })
    }
}

/// The path of an analysis: [`Path::Compact`] for a grid of more than `compact_from` cells that
/// light chasing solves, with no press limits or phases, when the caller asks for nothing but a
/// plan and the count (`plain`: the algebra answers, no other objective, no listing); otherwise
/// [`Path::General`].
#[doc(hidden)]
pub fn path(puzzle: &Puzzle, plain: bool, compact_from: usize) -> Path {
    let cells = puzzle.cell_count();
    let compact = plain
        && puzzle.max_presses.is_none()
        && puzzle.phases.is_none()
        && cells > compact_from
        && light_chase::applies(puzzle);
    if compact { Path::Compact { cells } } else { Path::General }
}

/// Solves a puzzle on the [`Path::Compact`] path by light chasing in compact form; the plan is
/// verified by simulation before it is returned.
pub(crate) fn solve_compact(puzzle: &Puzzle) -> Result<light_chase::CompactAnswer, InternalError> {
    light_chase::solve_compact(puzzle)
}

/// [`solve`] for a caller that will not use the quiet-pattern basis (an analysis with no search
/// nodes and no listing): the general and sparse paths then leave it out (empty, so
/// [`Answer::has_full_basis`] is false); counts and the plan are the same.
pub(crate) fn solve_without_basis(puzzle: &Puzzle) -> Result<Answer, InternalError> {
    solve_inner(puzzle, Method::Auto, Basis::Left)
}

/// [`solve`] for a caller that uses the quiet-pattern basis only to search the plans: an
/// unsolvable puzzle's basis is then left out where that saves work (a random sparse system of
/// 3000 cells and buttons, unsolvable: 12.7 s with it).
pub(crate) fn solve_basis_if_solvable(puzzle: &Puzzle) -> Result<Answer, InternalError> {
    solve_inner(puzzle, Method::Auto, Basis::IfSolvable)
}

fn solve_inner(puzzle: &Puzzle, method: Method, basis: Basis) -> Result<Answer, InternalError> {
    let mut answer = None;
    for &solver in &route(puzzle, method)? {
        answer = match solver {
            Solver::LightChase => light_chase::solve(puzzle),
            Solver::Propagation { forced } => propagation::solve(puzzle, forced),
            Solver::Sparse => Some(sparse::solve(puzzle, basis != Basis::Left)?),
            Solver::Gf2 => Some(gf2::solve(puzzle)),
            Solver::Modular => Some(modular::solve_basis(puzzle, basis)),
        };
        if answer.is_some() {
            break;
        }
    }
    let Some(answer) = answer else {
        let all_mod_two = puzzle.moduli.iter().all(|&m| m == 2);
        let entries = puzzle.cell_count() as u128 * puzzle.button_count() as u128;
        return Err(InternalError::Unsupported(format!(
            "{} cells × {} buttons is too large for dense elimination (about {} GiB), and \
             neither propagation (it needs one modulus and unit weights, and few symbolic seeds) nor sparse \
             elimination (it needs the buttons to be the cells) applies",
            puzzle.cell_count(),
            puzzle.button_count(),
            entries * if all_mod_two { 1 } else { 64 } / 8 / (1 << 30)
        )));
    };
    if let Some(x) = &answer.presses
        && !puzzle.solves(x)
    {
        return Err(InternalError::VerificationFailed(format!(
            "{:?} elimination on {} cells",
            answer.method,
            puzzle.cell_count()
        )));
    }
    Ok(answer)
}

/// Whether [`solve_differences`] takes `count` differences of this puzzle (its dense system of
/// cells × (buttons + count) entries fits); ask before building them.
#[doc(hidden)]
pub fn differences_fit(puzzle: &Puzzle, count: usize) -> bool {
    puzzle.cell_count() as u128 * (puzzle.button_count() as u128 + count as u128) <= DENSE_ENTRIES_LIMIT
}

/// Press counts, one per button.
#[doc(hidden)]
pub type Presses = Vec<BigUint>;

/// Solves `A·x ≡ d` for several differences `d` (one reduced value per cell) with one
/// elimination per prime, verifying each plan. The answer's `presses` and `count` are unset.
#[doc(hidden)]
pub fn solve_differences(
    puzzle: &Puzzle,
    differences: &[Vec<u64>],
) -> Result<(Answer, Vec<Option<Presses>>), InternalError> {
    if !differences_fit(puzzle, differences.len()) {
        return Err(InternalError::Unsupported(format!(
            "{} cells is too large to find a plan for every cell at once (dense elimination)",
            puzzle.cell_count()
        )));
    }
    let (answer, solutions) = modular::solve_many(puzzle, differences);
    let zero = vec![0u64; puzzle.cell_count()];
    for (d, x) in differences.iter().zip(&solutions) {
        if let Some(x) = x
            && puzzle.apply(&zero, x) != *d
        {
            return Err(InternalError::VerificationFailed("a plan for a chosen difference".into()));
        }
    }
    Ok((answer, solutions))
}

/// `target - start` cell by cell.
pub(crate) fn difference(puzzle: &Puzzle) -> Vec<u64> {
    puzzle
        .target
        .iter()
        .zip(&puzzle.start)
        .zip(&puzzle.moduli)
        .map(|((&t, &s), &m)| crate::algebra::arith::sub_mod(t, s, m))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Without the basis, the general and sparse paths give the same answer but an empty basis.
    #[test]
    fn the_basis_is_left_out_on_request() {
        let dense = "Puzzle(graph: Cells(3), modulus: [6, 4, 9], buttons: [[(0, 1), (1, 2)], [(1, 1), (2, 3)], [(0, 2), (2, 1)], [(0, 3)]])";
        let moduli: Vec<u64> = (0..400).map(|i| [2, 3, 4, 6, 12][i % 5]).collect();
        let grid = format!("Puzzle(graph: Grid(rows: 20, cols: 20), modulus: {moduli:?}, start: All(1))");
        for (source, method) in [(dense.to_string(), Method::Modular), (grid, Method::Sparse)] {
            let puzzle = crate::parse_puzzle(&source).expect("valid");
            let (full, bare) =
                (solve(&puzzle).expect("solved"), solve_without_basis(&puzzle).expect("solved"));
            assert_eq!(full.method, method);
            assert!(full.quiet_basis.len() > 1 && full.has_full_basis(), "{method:?}");
            assert!(bare.quiet_basis.is_empty() && !bare.has_full_basis(), "{method:?}");
            assert_eq!(Answer { quiet_basis: Vec::new(), ..full.clone() }, bare, "{method:?}");
            // Solvable: the basis a search would need is kept.
            assert_eq!(solve_basis_if_solvable(&puzzle).expect("solved"), full, "{method:?}");
        }
    }

    /// Asked for the basis only if solvable, the dense elimination leaves it out of an unsolvable
    /// puzzle (its last cell no button reaches, whichever prime sees it first) and gives the same
    /// answer otherwise.
    #[test]
    fn an_unsolvable_puzzle_gets_no_basis_if_asked_only_for_a_solvable_one() {
        for last in [2, 3, 5, 4] {
            let source = format!(
                "Puzzle(graph: Cells(4), modulus: [6, 4, 9, {last}], buttons: [[(0, 1), (1, 2)], [(1, 1), (2, 3)], \
                 [(0, 2), (2, 1)], [(0, 3)]], start: [0, 0, 0, 1])"
            );
            let puzzle = crate::parse_puzzle(&source).expect("valid");
            let (full, bare) =
                (solve(&puzzle).expect("solved"), solve_basis_if_solvable(&puzzle).expect("solved"));
            assert_eq!((full.method, full.presses.is_none()), (Method::Modular, true), "{last}");
            assert!(full.quiet_basis.len() > 1 && full.has_full_basis(), "{last}");
            assert!(bare.quiet_basis.is_empty(), "{last}");
            assert_eq!(Answer { quiet_basis: Vec::new(), ..full }, bare, "{last}");
        }
    }
}
