//! Hints for players: the next press of a fewest plan from where the player stands, and that
//! plan as an ordered list of presses with the board after each.
//!
//! A player's position is the puzzle's start and the presses already made, in order
//! ([`position`]). Each press is replayed under the puzzle's own rule: with staged presses
//! ([`crate::model::Phases`]) its phases are applied in order and the press stops as soon as
//! the board equals the target, as the game does.
//!
//! [`hint`] solves the position with [`crate::analyse`] (fewest presses in all, within the
//! budget and memory of its [`Options`]) and orders the fewest plan: every full press in button
//! order, then, for staged presses, the press that is cut short by the win, last. The next
//! press is the first of that order. Following hints one at a time therefore reaches the target
//! in exactly the par when the par is proven: after a press of a fewest plan, the rest of that
//! plan is a fewest plan of the new position.
//!
//! Every ordered plan is played press by press (phase by phase for staged presses) before it
//! is returned: each step's board is the simulation's, the target is reached at the last step
//! and not before, and a mismatch is an [`InternalError`], never an answer.
//!
//! ```
//! use modsolve::hint::{HintOptions, Outcome, hint};
//!
//! let puzzle = modsolve::parse_puzzle(
//!     "Puzzle(graph: Path(4), modulus: [7, 8, 7, 6], press: (self: 2, neighbors: 1), start: [2, 4, 5, 3])",
//! )?;
//! let options = HintOptions::default().steps(true);
//! let after_one = hint(&puzzle, &[0], &options)?;
//! let Outcome::Next { press, par, proven, .. } = &after_one.outcome else { panic!("solvable") };
//! assert_eq!((par.clone(), *proven), (17u32.into(), true));
//! let steps = after_one.steps.as_ref().expect("listed");
//! assert_eq!(steps.len(), 17);
//! assert_eq!(steps[0].press, *press);
//! assert_eq!(steps.last().unwrap().state, puzzle.target().to_vec());
//! # Ok::<(), modsolve::Error>(())
//! ```

use num_bigint::BigUint;
use num_traits::{ToPrimitive, Zero};

use crate::analysis::Options;
use crate::error::{Error, InputError, InternalError};
use crate::model::Puzzle;
use crate::solve::optimize::{Partial, Proof};
use crate::solve::search::Objective;

/// Plans of more presses than this are not played press by press: the hint gives the next
/// press and the par, and the steps are left out (the analysis has simulated the plan as a
/// whole).
pub const STEP_LIMIT: u64 = 1_000_000;

/// Steps are listed when the plan's presses times the cells (the values of every board after a
/// step) are at most this many.
pub const STEP_VALUE_LIMIT: u64 = 1 << 24;

/// What a hint computes.
#[derive(Clone, Copy, Debug, Default)]
#[non_exhaustive]
pub struct HintOptions {
    /// The analysis of the position: its budget and memory limit (and engine) are used; the
    /// objective is always the fewest presses in all and nothing is listed.
    pub analysis: Options,
    /// List the whole ordered plan with the board after each press.
    pub steps: bool,
}

/// One press of a button.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Press {
    /// The button's index (0-based, in button order).
    pub button: usize,
    /// The button's name for people: its cell's label for graph puzzles with labels, else its
    /// number ([`Puzzle::button_name`]).
    pub name: String,
    /// Staged presses: the press stops after this many phases because the puzzle is solved;
    /// `None` when it runs in full.
    pub phases: Option<usize>,
}

/// A press of an ordered plan and the board after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The press.
    pub press: Press,
    /// The state of every cell after it.
    pub state: Vec<u64>,
}

/// What the player can do from the position.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Outcome {
    /// The board already equals the target: nothing to press.
    Solved,
    /// The next press of a fewest plan from the position.
    Next {
        /// The press to make now.
        press: Press,
        /// The presses the fewest plan from the position takes, this one included (a press cut
        /// short counts as one).
        par: BigUint,
        /// Whether no plan from the position takes fewer presses.
        proven: bool,
        /// Whether the par is proven, and if not, why not.
        proof: Proof,
        /// A proven lower bound on the par (the par itself when proven), when one was found.
        lower_bound: Option<BigUint>,
    },
    /// No sequence of presses turns the position into the target.
    Unsolvable,
    /// The budget ran out before the analysis could tell whether there is a plan (or found
    /// one); the reason, for people.
    Undecided(String),
}

/// A hint: where the player stands and what to press next.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Hint {
    /// The presses already made, replayed from the start (button indices, in order).
    pub pressed: Vec<usize>,
    /// The state of every cell after them.
    pub state: Vec<u64>,
    /// What to do from here.
    pub outcome: Outcome,
    /// The ordered fewest plan from the position, each press with the board after it (the last
    /// board is the target; empty when already solved), when steps were asked for and the plan
    /// is short enough to list.
    pub steps: Option<Vec<Step>>,
    /// Why the steps were asked for but not listed.
    pub steps_left_out: Option<String>,
}

impl Hint {
    /// Whether the board already equals the target.
    pub fn solved(&self) -> bool {
        self.outcome == Outcome::Solved
    }

    /// The next press, when there is one.
    pub fn next(&self) -> Option<&Press> {
        match &self.outcome {
            Outcome::Next { press, .. } => Some(press),
            _ => None,
        }
    }

    /// The presses left to the target by a fewest plan (0 when solved), when known.
    pub fn par(&self) -> Option<BigUint> {
        match &self.outcome {
            Outcome::Solved => Some(BigUint::zero()),
            Outcome::Next { par, .. } => Some(par.clone()),
            Outcome::Unsolvable | Outcome::Undecided(_) => None,
        }
    }
}

/// The board as the game keeps it: the state, and how many cells are off their target.
struct Board<'p> {
    puzzle: &'p Puzzle,
    state: Vec<u64>,
    wrong: usize,
}

impl<'p> Board<'p> {
    fn new(puzzle: &'p Puzzle, state: Vec<u64>) -> Self {
        let wrong = state.iter().zip(puzzle.target().iter()).filter(|(s, t)| s != t).count();
        Board { puzzle, state, wrong }
    }

    /// One press of button `j` under the puzzle's rule: its phases in order, stopping when the
    /// board equals the target. `Some(k)` when it stopped (won) after phase `k`.
    fn press(&mut self, j: usize) -> Option<usize> {
        let phases = self.puzzle.phase_count(j);
        for k in 0..phases {
            for (cell, amount) in self.puzzle.phase_effects(j, k) {
                let (m, t) = (self.puzzle.moduli()[cell], self.puzzle.target()[cell]);
                let before = self.state[cell] == t;
                self.state[cell] = crate::algebra::arith::add_mod(self.state[cell], amount, m);
                match (before, self.state[cell] == t) {
                    (true, false) => self.wrong += 1,
                    (false, true) => self.wrong -= 1,
                    _ => {}
                }
            }
            if self.wrong == 0 {
                return Some(k + 1);
            }
        }
        None
    }
}

/// The puzzle from the position after `pressed` (button indices, in order, each replayed under
/// the puzzle's rule): its start is the state they reach, and press limits, if any, are what is
/// left of them. Everything else is the puzzle's own.
///
/// A button that does not exist, or a press beyond a button's limit, is an
/// [`InputError`] on the field `pressed[i]`.
#[doc(hidden)]
pub fn position(puzzle: &Puzzle, pressed: &[usize]) -> Result<Puzzle, InputError> {
    let buttons = puzzle.button_count();
    let mut left = puzzle.max_presses().map(<[u64]>::to_vec);
    let mut board = Board::new(puzzle, puzzle.start().to_vec());
    for (i, &j) in pressed.iter().enumerate() {
        if j >= buttons {
            return Err(InputError::invalid(
                format!("pressed[{i}]"),
                format!("button {j} does not exist: the puzzle has {buttons} buttons, 0 to {}", buttons - 1),
            ));
        }
        if let Some(left) = &mut left {
            if left[j] == 0 {
                let limit = puzzle.max_presses().map_or(0, |l| l[j]);
                return Err(InputError::invalid(
                    format!("pressed[{i}]"),
                    format!("button {j} may be pressed at most {limit} times"),
                ));
            }
            left[j] -= 1;
        }
        board.press(j);
    }
    let mut after = puzzle.with_start(board.state)?;
    after.max_presses = left;
    // The designer's intended plan is about the start, not this position.
    after.intended = None;
    Ok(after)
}

/// The hint for a player who has made `pressed` (button indices, in order) from the puzzle's
/// start: the position, the next press of a fewest plan from it, its par, and, with
/// `options.steps`, the whole plan in order with the board after each press. See the module
/// doc for the order and the guarantees.
///
/// Errors: a bad `pressed` ([`position`]), memory over the limit, or an analysis that cannot
/// answer ([`crate::analyse`]). Unsolvable and undecided positions are outcomes, not errors.
pub fn hint(puzzle: &Puzzle, pressed: &[usize], options: &HintOptions) -> Result<Hint, Error> {
    let here = position(puzzle, pressed)?;
    let state = here.start().to_vec();
    let mut hint = Hint {
        pressed: pressed.to_vec(),
        state,
        outcome: Outcome::Solved,
        steps: None,
        steps_left_out: None,
    };
    if here.start() == here.target() {
        if options.steps {
            hint.steps = Some(Vec::new());
        }
        return Ok(hint);
    }
    let analysis = Options { objective: Objective::Total, list_all: false, ..options.analysis };
    let report = crate::analysis::analyse(&here, &analysis)?;
    let plan = match (&report.fewest, report.solvable) {
        (Some(plan), _) => plan,
        (None, Some(false)) => {
            hint.outcome = Outcome::Unsolvable;
            return Ok(hint);
        }
        (None, _) => {
            let why = report.undecided.clone().unwrap_or_else(|| {
                "the budget ran out before the search found a plan or showed that there is none".into()
            });
            hint.outcome = Outcome::Undecided(why);
            return Ok(hint);
        }
    };
    let presses = plan.presses.to_big();
    let total: BigUint = presses.iter().sum();
    let (proof, cut, lower_bound) = (plan.proof, plan.partial, plan.lower_bound.clone());
    let press =
        |button: usize, phases: Option<usize>| Press { button, name: here.button_name(button), phases };
    let Some(count) = total.to_u64().filter(|&t| t <= STEP_LIMIT) else {
        // Too long to play press by press: the first press of the order, from the plan the
        // analysis simulated as a whole.
        let full = |j: usize, x: &BigUint| {
            if cut.is_some_and(|c| c.button == j) { x > &BigUint::from(1u32) } else { !x.is_zero() }
        };
        let first = match presses.iter().enumerate().find(|&(j, x)| full(j, x)) {
            Some((j, _)) => press(j, None),
            None => cut.map(|c| press(c.button, Some(c.phases))).ok_or_else(|| {
                InternalError::VerificationFailed("hint: an empty plan for an unsolved position".into())
            })?,
        };
        hint.outcome =
            Outcome::Next { press: first, par: total, proven: proof.is_proven(), proof, lower_bound };
        if options.steps {
            hint.steps_left_out = Some(format!("the plan has more than {STEP_LIMIT} presses"));
        }
        return Ok(hint);
    };
    let keep = options.steps && count.saturating_mul(here.cell_count() as u64) <= STEP_VALUE_LIMIT;
    let steps = play(&here, &ordered(&presses, cut), proof, keep)?;
    let (first, par) = (steps.first.clone(), steps.played);
    hint.outcome = Outcome::Next {
        press: first,
        par: BigUint::from(par),
        proven: proof.is_proven(),
        proof,
        lower_bound,
    };
    if options.steps {
        if keep {
            hint.steps = Some(steps.steps);
        } else {
            hint.steps_left_out = Some(format!(
                "{par} boards of {} cells are too many to list (more than {STEP_VALUE_LIMIT} values)",
                here.cell_count()
            ));
        }
    }
    Ok(hint)
}

/// The presses of a plan in play order: button by button, each full press of it; the press cut
/// short by the win last.
fn ordered(presses: &[BigUint], cut: Option<Partial>) -> Vec<usize> {
    let mut order = Vec::new();
    for (j, x) in presses.iter().enumerate() {
        let mut times = x.to_u64().expect("the plan's total fits in 64 bits");
        if cut.is_some_and(|c| c.button == j) {
            times -= 1;
        }
        order.extend(std::iter::repeat_n(j, times as usize));
    }
    if let Some(c) = cut {
        order.push(c.button);
    }
    order
}

/// An ordered plan as played.
struct Played {
    /// The first press.
    first: Press,
    /// The presses played to the target.
    played: u64,
    /// The steps, when kept.
    steps: Vec<Step>,
}

/// Plays `order` from the position press by press and checks that the target is reached at
/// the last press (which the game stops at the win: after fewer phases than the plan says, when
/// its later phases change nothing). A win before the last press would mean a
/// plan of fewer presses: for a proven plan that is an error, otherwise the play stops there
/// (the shorter plan is the one returned). The steps are kept when `keep`.
fn play(here: &Puzzle, order: &[usize], proof: Proof, keep: bool) -> Result<Played, InternalError> {
    let failed = |why: String| InternalError::VerificationFailed(format!("hint: {why}"));
    let mut board = Board::new(here, here.start().to_vec());
    let mut steps = Vec::with_capacity(if keep { order.len() } else { 0 });
    let mut first = None;
    for (n, &j) in order.iter().enumerate() {
        let won = board.press(j);
        let last = n + 1 == order.len();
        // A press is cut short when the win comes before its last phase.
        let phases = won.filter(|&k| k < here.phase_count(j));
        let step = Press { button: j, name: here.button_name(j), phases };
        first.get_or_insert_with(|| step.clone());
        if keep {
            steps.push(Step { press: step, state: board.state.clone() });
        }
        match won {
            Some(_) if !last && proof.is_proven() => {
                return Err(failed(format!(
                    "a proven plan of {} presses wins at press {}",
                    order.len(),
                    n + 1
                )));
            }
            Some(_) => return Ok(Played { first: first.expect("set"), played: n as u64 + 1, steps }),
            None if last => return Err(failed("the plan does not reach the target".into())),
            None => {}
        }
    }
    Err(failed("an empty plan for an unsolved position".into()))
}
