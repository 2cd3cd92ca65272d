//! How players without pen and paper fare: simulations of simple strategies.
//!
//! A strategy plays the puzzle from its start one press at a time and reports whether it won,
//! how many presses it made and which buttons it pressed, in order ([`StrategyOutcome`]).
//!
//! **How a press acts** is the puzzle's own rule, read from the model: without staged presses a
//! press adds the button's whole effect at once; with them ([`crate::model::Phases`]) it applies
//! the button's phases in order and the game checks for a win after each phase, stopping the
//! press as soon as the puzzle is won (the shipped octopus of "Escape the Cube: Cave" adds 1 to
//! the tentacle and its neighbours, then, only if the puzzle is not yet solved, 1 more to the
//! tentacle). [`press`] is that one press, and every strategy plays through the same code (a
//! run of more than 64 presses of one button is computed in closed form, with exactly the same
//! result, so that 64-bit moduli do not mean 2^64 iterations).
//!
//! A button's **full press** is the sum of its phases: what one press adds when it does not win
//! half-way. The player reasons with full presses; the win check is the game's.
//!
//! - **`sweep`**: a cautious player's strategy, generalised to any button order `0..n`. Work
//!   on button `k` (`k = 0` first): press it until pressing again would carry *its cell* past full
//!   (the full press adds more than the cell still needs to reach its target) or
//!   would carry the previous button's cell past full (that cell is at, or within
//!   less than one press of, its target), then move on to button `k + 1`. On the last button,
//!   press until the puzzle is solved or the state (between presses) repeats. A
//!   button's own cell is the cell of the same number for graph puzzles, where buttons are cells;
//!   for explicit buttons it is the cell its full press changes most (largest amount as a residue
//!   `0..m`; ties: the lowest cell). "Full" is the cell's target (for the octopus, 0 = the
//!   modulus). The strategy stops as soon as the puzzle is won.
//! - **`greedy`**: repeatedly press the button after whose press the most cells are at their
//!   target (a press that wins beats every other; ties: the lowest button); stop when solved,
//!   when no press raises the number of cells at target, or after `cap` presses.
//! - **`chase`**: for grids whose buttons are their cells, light chasing from the top row, with
//!   no first-row choices (the player does not think): for each row `r` from 0 to `rows − 2`, for
//!   each column, when the cell is not at its target, press the cell below it the fewest times
//!   that bring it to its target (once for mod-2 Lights Out; `d·b⁻¹ mod m` times when the cell
//!   below adds a unit `b`). When no number of presses of the cell below can fix it, the player
//!   leaves it. The verdict is whether the whole board is then at its target.
//!
//! Presses are counted in a `u64` (saturating); the recorded sequence keeps at most
//! [`SEQUENCE_CAP`] presses, so `presses == sequence.len()` unless the cap was reached.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::time::Instant;

use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::ToPrimitive;

use crate::model::Puzzle;
use board::{Board, amount_on, full_press, phases_of};

mod board;

/// A simple player strategy (see the module doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Strategy {
    /// The cautious sweep, button by button.
    Sweep,
    /// The press that puts the most cells at their target, again and again.
    Greedy,
    /// Light chasing from the top row, without first-row choices.
    Chase,
}

impl Strategy {
    /// Every strategy, in the order they are played and reported.
    pub const ALL: [Strategy; 3] = [Strategy::Sweep, Strategy::Greedy, Strategy::Chase];

    /// The strategy's name: `sweep`, `greedy`, `chase`.
    pub fn name(self) -> &'static str {
        match self {
            Strategy::Sweep => "sweep",
            Strategy::Greedy => "greedy",
            Strategy::Chase => "chase",
        }
    }
}

impl std::fmt::Display for Strategy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not a strategy's.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0} is not a strategy: use one of sweep, greedy, chase")]
pub struct UnknownStrategy(pub String);

impl std::str::FromStr for Strategy {
    type Err = UnknownStrategy;

    fn from_str(name: &str) -> Result<Self, Self::Err> {
        Strategy::ALL.into_iter().find(|s| s.name() == name).ok_or_else(|| UnknownStrategy(name.into()))
    }
}

/// The outcome of one strategy from the puzzle's start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StrategyOutcome {
    /// The strategy played.
    pub strategy: Strategy,
    /// Whether it won.
    pub solves: bool,
    /// Presses made (started), whether or not the strategy won.
    pub presses: u64,
    /// The buttons pressed, in order; at most [`SEQUENCE_CAP`] of them.
    pub sequence: Vec<usize>,
    /// False when the time allowed ran out before the strategy won or gave up.
    pub finished: bool,
}

/// The most presses a [`StrategyOutcome::sequence`] records.
pub const SEQUENCE_CAP: usize = 1 << 20;

/// Presses and the recorded sequence.
struct Tally {
    strategy: Strategy,
    presses: u64,
    sequence: Vec<usize>,
}

impl Tally {
    fn new(strategy: Strategy) -> Self {
        Tally { strategy, presses: 0, sequence: Vec::new() }
    }

    fn record(&mut self, j: usize, times: u64) {
        self.presses = self.presses.saturating_add(times);
        let room = (SEQUENCE_CAP - self.sequence.len()) as u64;
        let kept = times.min(room) as usize;
        self.sequence.extend(std::iter::repeat_n(j, kept));
    }

    fn outcome(self, solves: bool) -> StrategyOutcome {
        StrategyOutcome {
            strategy: self.strategy,
            solves,
            presses: self.presses,
            sequence: self.sequence,
            finished: true,
        }
    }

    /// Stopped by the deadline: not won, not given up.
    fn unfinished(self) -> StrategyOutcome {
        StrategyOutcome { finished: false, ..self.outcome(false) }
    }
}

/// One press of button `j` on `state` under the puzzle's own rule, phase by phase, stopping
/// when the puzzle is won; returns whether the puzzle is won (`state == target`) after it. Every
/// strategy plays through this.
pub fn press(puzzle: &Puzzle, state: &mut [u64], j: usize) -> bool {
    let phases = phases_of(puzzle, j);
    Board::new(puzzle, state).press(&phases)
}

/// Plays `sequence` from the start, stopping at a win: `Some(presses made)` when
/// the puzzle is won (`Some(0)` when the start is the target), `None` when it never is.
pub fn replay(puzzle: &Puzzle, sequence: &[usize]) -> Option<usize> {
    let mut state = puzzle.start.to_vec();
    let mut board = Board::new(puzzle, &mut state);
    if board.won() {
        return Some(0);
    }
    sequence.iter().position(|&j| board.press(&phases_of(puzzle, j))).map(|k| k + 1)
}

/// The cell button `j` works on in `sweep` (see the module doc).
fn own_cell(puzzle: &Puzzle, full: &[(usize, u64)], j: usize) -> Option<usize> {
    if puzzle.buttons_are_cells() {
        return Some(j);
    }
    full.iter().filter(|&&(_, a)| a > 0).max_by_key(|&&(i, a)| (a, std::cmp::Reverse(i))).map(|&(i, _)| i)
}

/// The smallest `L > 0` with `L·full ≡ 0` on every cell, saturated to a `u64`.
fn period(puzzle: &Puzzle, full: &[(usize, u64)]) -> u64 {
    full.iter()
        .fold(BigUint::from(1u32), |l, &(i, a)| {
            let m = puzzle.moduli[i];
            l.lcm(&BigUint::from(m / a.gcd(&m)))
        })
        .to_u64()
        .unwrap_or(u64::MAX)
}

/// The cautious `sweep` strategy (see the module doc).
pub fn sweep(puzzle: &Puzzle) -> StrategyOutcome {
    let mut state = puzzle.start.to_vec();
    let mut board = Board::new(puzzle, &mut state);
    let mut tally = Tally::new(Strategy::Sweep);
    if board.won() {
        return tally.outcome(true);
    }
    let n = puzzle.button_count();
    let mut previous: Option<usize> = None;
    for j in 0..n {
        let full = full_press(puzzle, &phases_of(puzzle, j));
        let times = if j + 1 == n {
            // Rule 4: the last button, until solved or until the state repeats.
            period(puzzle, &full)
        } else {
            // Rule 2: stop before the own cell would pass full.
            let own = own_cell(puzzle, &full, j);
            // (A button that leaves its own cell alone is not pressed.)
            let mut times =
                own.map_or(0, |c| board.distance(c).checked_div(amount_on(&full, c)).unwrap_or(0));
            // Rule 3: stop before the previous cell would pass full.
            if let Some(limit) = previous.and_then(|c| board.distance(c).checked_div(amount_on(&full, c))) {
                times = times.min(limit);
            }
            previous = own;
            times
        };
        let (made, won) = board.press_times(j, times);
        tally.record(j, made);
        if won {
            return tally.outcome(true);
        }
    }
    let won = board.won();
    tally.outcome(won)
}

/// How long greedy play may go on, besides its press cap: until a moment on the clock, and for
/// at most this many looks (a button scored; without staged presses every button is scored
/// once and a press rescores the buttons of the cells it changed, one look a cell and button,
/// and with them each press looks at every button). A count of looks is the same on every
/// machine; a deadline is not.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PlayLimit {
    /// Stop at this moment.
    pub deadline: Option<Instant>,
    /// Stop before more looks than this, in all.
    pub looks: Option<u64>,
}

fn greedy_until(puzzle: &Puzzle, cap: u64, limit: PlayLimit) -> StrategyOutcome {
    if puzzle.phases.is_none() {
        return greedy_scored(puzzle, cap, limit);
    }
    let mut state = puzzle.start.to_vec();
    let mut board = Board::new(puzzle, &mut state);
    let mut tally = Tally::new(Strategy::Greedy);
    let cells = puzzle.cell_count();
    let buttons = puzzle.button_count() as u64;
    let mut looked = 0u64;
    while !board.won() && tally.presses < cap {
        // Each press looks at every button: on big boards the limit ends the game.
        looked = looked.saturating_add(buttons);
        if limit.deadline.is_some_and(|d| Instant::now() >= d)
            || limit.looks.is_some_and(|most| looked > most)
        {
            return tally.unfinished();
        }
        let now = cells - board.wrong;
        let mut best: Option<(usize, usize)> = None;
        for j in 0..puzzle.button_count() {
            let (won, wrong) = board.preview(&phases_of(puzzle, j));
            let score = if won { usize::MAX } else { cells - wrong };
            if best.is_none_or(|(s, _)| score > s) {
                best = Some((score, j));
            }
        }
        match best {
            Some((score, j)) if score > now => {
                let won = board.press(&phases_of(puzzle, j));
                tally.record(j, 1);
                if won {
                    return tally.outcome(true);
                }
            }
            _ => break,
        }
    }
    let won = board.won();
    tally.outcome(won)
}

/// Greedy play on a puzzle without staged presses. There a press adds the button's whole effect,
/// so it changes the score (cells put at their target less cells taken off it) only of the
/// buttons that share a cell with it. Every button is scored once; after a press only the
/// changed cells' buttons are scored again, and the best score with the lowest button is kept
/// at the top of a heap: the same presses as looking at every button every time
/// (tested against press-by-press play), at a few look-ups a press instead of a look a button.
/// The limit counts a look for each button scored at the start and for each (cell, button)
/// score changed by a press.
fn greedy_scored(puzzle: &Puzzle, cap: u64, limit: PlayLimit) -> StrategyOutcome {
    let mut state = puzzle.start.to_vec();
    let mut tally = Tally::new(Strategy::Greedy);
    let n = puzzle.button_count();
    let mut looked = n as u64;
    let over = |looked: u64| {
        limit.deadline.is_some_and(|d| Instant::now() >= d) || limit.looks.is_some_and(|most| looked > most)
    };
    if Board::new(puzzle, &mut state).won() {
        return tally.outcome(true);
    }
    if over(looked) {
        return tally.unfinished();
    }
    // Each button's effects (merged, nonzero) as one flat list, and the same turned around:
    // which buttons change each cell, and by how much.
    let cells = puzzle.cell_count();
    let (mut at, mut effects) = (Vec::with_capacity(n + 1), Vec::new());
    at.push(0);
    for j in 0..n {
        effects.extend(puzzle.effects(j));
        at.push(effects.len());
    }
    let mut from = vec![0usize; cells + 1];
    for &(i, _) in &effects {
        from[i + 1] += 1;
    }
    for i in 0..cells {
        from[i + 1] += from[i];
    }
    let mut by_cell = vec![(0usize, 0u64); effects.len()];
    let mut next = from.clone();
    for j in 0..n {
        for &(i, a) in &effects[at[j]..at[j + 1]] {
            by_cell[next[i]] = (j, a);
            next[i] += 1;
        }
    }
    drop(next);
    // What adding `a` to cell `i` at `value` does to the cells at target: +1, 0 or −1.
    let gain = |i: usize, value: u64, a: u64| -> i64 {
        let (t, m) = (puzzle.target[i], puzzle.moduli[i]);
        i64::from(crate::algebra::arith::add_mod(value, a, m) == t) - i64::from(value == t)
    };
    let mut score = vec![0i64; n];
    for i in 0..cells {
        for &(j, a) in &by_cell[from[i]..from[i + 1]] {
            score[j] += gain(i, state[i], a);
        }
    }
    // The best score first, the lowest button among equals; an entry whose score is no longer
    // its button's is stale and dropped when it comes up.
    let mut ranked: BinaryHeap<(i64, Reverse<usize>)> = (0..n).map(|j| (score[j], Reverse(j))).collect();
    let mut board = Board::new(puzzle, &mut state);
    let mut before: Vec<(usize, u64)> = Vec::new();
    while tally.presses < cap {
        let j = loop {
            match ranked.peek() {
                Some(&(s, Reverse(j))) if s != score[j] => drop(ranked.pop()),
                Some(&(s, Reverse(j))) if s > 0 => break Some(j),
                _ => break None, // no press puts more cells at their target
            }
        };
        let Some(j) = j else { break };
        before.clear();
        before.extend(effects[at[j]..at[j + 1]].iter().map(|&(i, _)| (i, board.value(i))));
        for &(i, a) in &effects[at[j]..at[j + 1]] {
            board.add(i, a);
        }
        tally.record(j, 1);
        if board.won() {
            return tally.outcome(true);
        }
        for &(i, old) in &before {
            let new = board.value(i);
            looked = looked.saturating_add((from[i + 1] - from[i]) as u64);
            for &(k, a) in &by_cell[from[i]..from[i + 1]] {
                let change = gain(i, new, a) - gain(i, old, a);
                if change != 0 {
                    score[k] += change;
                    ranked.push((score[k], Reverse(k)));
                }
            }
        }
        if ranked.len() > 4 * n + 64 {
            ranked = (0..n).map(|k| (score[k], Reverse(k))).collect();
        }
        if tally.presses < cap && over(looked) {
            return tally.unfinished();
        }
    }
    let won = board.won();
    tally.outcome(won)
}

/// Light chasing from the top row; `None` when the puzzle is not a grid whose buttons are its
/// cells (see the module doc).
pub fn chase(puzzle: &Puzzle) -> Option<StrategyOutcome> {
    let (rows, cols) = puzzle.topology.grid_shape()?;
    if !puzzle.buttons_are_cells() {
        return None;
    }
    let mut state = puzzle.start.to_vec();
    let mut board = Board::new(puzzle, &mut state);
    let mut tally = Tally::new(Strategy::Chase);
    if board.won() {
        return Some(tally.outcome(true));
    }
    for r in 0..rows.saturating_sub(1) {
        for c in 0..cols {
            let (cell, below) = (r * cols + c, (r + 1) * cols + c);
            let d = board.distance(cell);
            if d == 0 {
                continue;
            }
            let b = amount_on(&full_press(puzzle, &phases_of(puzzle, below)), cell);
            let Some((times, _)) = crate::algebra::crt::solve_linear(b, d, puzzle.moduli[cell]) else {
                continue; // no number of presses below fixes it: the player leaves it
            };
            let (made, won) = board.press_times(below, times);
            tally.record(below, made);
            if won {
                return Some(tally.outcome(true));
            }
        }
    }
    let won = board.won();
    Some(tally.outcome(won))
}

/// Every strategy that applies, in [`Strategy::ALL`] order; greedy is capped at 4 presses per
/// button plus 16 and stopped at `limit`.
fn all_of(puzzle: &Puzzle, limit: PlayLimit) -> Vec<StrategyOutcome> {
    let cap = 4 * puzzle.button_count() as u64 + 16;
    let mut out = vec![sweep(puzzle), greedy_until(puzzle, cap, limit)];
    out.extend(chase(puzzle));
    out
}

/// Greedy pressing, at most `cap` presses (see the module doc).
pub fn greedy(puzzle: &Puzzle, cap: u64) -> StrategyOutcome {
    greedy_until(puzzle, cap, PlayLimit::default())
}

/// Every strategy that applies, in [`Strategy::ALL`] order.
pub fn all(puzzle: &Puzzle) -> Vec<StrategyOutcome> {
    all_of(puzzle, PlayLimit::default())
}

/// [`all`], with greedy play stopped at `limit` (it scores every button before its first press,
/// a million looks on a board of a million cells, and with staged presses before every press);
/// a stopped strategy is `finished: false`.
pub fn all_within(puzzle: &Puzzle, limit: PlayLimit) -> Vec<StrategyOutcome> {
    all_of(puzzle, limit)
}

/// Whether a strategy requirement holds: `Some(strategy)` must win, `None` means none may.
pub fn requirement_met(puzzle: &Puzzle, must_win: Option<Strategy>) -> bool {
    let outcomes = all(puzzle);
    match must_win {
        Some(strategy) => outcomes.iter().any(|o| o.strategy == strategy && o.solves),
        None => outcomes.iter().all(|o| !o.solves),
    }
}

/// Whether `strategy` can be played on this puzzle at all (chase needs a grid whose buttons
/// are its cells).
pub fn applies(puzzle: &Puzzle, strategy: Strategy) -> bool {
    strategy != Strategy::Chase || chase(puzzle).is_some()
}

#[cfg(test)]
mod tests;
