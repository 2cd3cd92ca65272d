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

use std::time::Instant;

use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::{ToPrimitive, Zero};

use crate::algebra::arith::{add_mod, mul_mod, sub_mod};

use crate::model::Puzzle;

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

/// A button's phases, each a list of `(cell, amount)`.
type PhaseList = Vec<Vec<(usize, u64)>>;

/// The phases of button `j` under the puzzle's own rule (one phase, the whole press, when it has
/// no staged presses), amounts reduced: read from the model, never re-modelled. A big board's
/// phases are read one button at a time, never all at once.
fn phases_of(puzzle: &Puzzle, j: usize) -> PhaseList {
    (0..puzzle.phase_count(j)).map(|k| puzzle.phase_effects(j, k)).collect()
}

/// A full press: every phase summed, `(cell, amount)` sorted by cell, one entry for every cell
/// some phase names (the amount may be 0).
fn full_press(puzzle: &Puzzle, phases: &[Vec<(usize, u64)>]) -> Vec<(usize, u64)> {
    let mut all: Vec<(usize, u64)> = phases.iter().flatten().copied().collect();
    all.sort_unstable_by_key(|&(i, _)| i);
    let mut merged: Vec<(usize, u64)> = Vec::with_capacity(all.len());
    for (i, a) in all {
        match merged.last_mut() {
            Some((c, total)) if *c == i => *total = add_mod(*total, a, puzzle.moduli[i]),
            _ => merged.push((i, a)),
        }
    }
    merged
}

/// What a full press adds to `cell` (0 when it does not touch it).
fn amount_on(full: &[(usize, u64)], cell: usize) -> u64 {
    full.binary_search_by_key(&cell, |&(i, _)| i).map_or(0, |k| full[k].1)
}

/// The state during a strategy, with the number of cells off their target kept up to date.
struct Board<'p, 's> {
    puzzle: &'p Puzzle,
    state: &'s mut [u64],
    wrong: usize,
}

/// Runs of at most this many presses are played press by press; longer runs in closed form.
const LOOP_LIMIT: u64 = 64;

impl<'p, 's> Board<'p, 's> {
    fn new(puzzle: &'p Puzzle, state: &'s mut [u64]) -> Self {
        let wrong = state.iter().zip(&puzzle.target).filter(|(s, t)| s != t).count();
        Board { puzzle, state, wrong }
    }

    fn won(&self) -> bool {
        self.wrong == 0
    }

    /// `(target − value) mod m`: how far a cell still has to go.
    fn distance(&self, cell: usize) -> u64 {
        sub_mod(self.puzzle.target[cell], self.state[cell], self.puzzle.moduli[cell])
    }

    fn add(&mut self, cell: usize, amount: u64) {
        let (t, m) = (self.puzzle.target[cell], self.puzzle.moduli[cell]);
        let before = self.state[cell] == t;
        self.state[cell] = add_mod(self.state[cell], amount, m);
        let after = self.state[cell] == t;
        match (before, after) {
            (true, false) => self.wrong += 1,
            (false, true) => self.wrong -= 1,
            _ => {}
        }
    }

    /// One press with these phases: each phase is added, then the game checks for a win and
    /// stops the press when won. Returns whether the puzzle is won.
    fn press(&mut self, phases: &[Vec<(usize, u64)>]) -> bool {
        for phase in phases {
            for &(i, a) in phase {
                self.add(i, a);
            }
            if self.won() {
                return true;
            }
        }
        false
    }

    /// What [`Board::press`] would give, `(won, cells off target)`, leaving the board unchanged.
    fn preview(&mut self, phases: &[Vec<(usize, u64)>]) -> (bool, usize) {
        let saved: Vec<(usize, u64)> = phases.iter().flatten().map(|&(i, _)| (i, self.state[i])).collect();
        let wrong = self.wrong;
        let won = self.press(phases);
        let after = self.wrong;
        for &(i, v) in saved.iter().rev() {
            self.state[i] = v;
        }
        self.wrong = wrong;
        (won, after)
    }

    /// Presses button `j` up to `times` times, stopping at a win; returns `(presses made, won)`.
    /// The same as calling [`Board::press`] in a loop; long runs are computed in closed form.
    fn press_times(&mut self, j: usize, times: u64) -> (u64, bool) {
        let phases = phases_of(self.puzzle, j);
        if times <= LOOP_LIMIT {
            self.press_times_looped(&phases, times)
        } else {
            self.press_times_closed(&phases, times)
        }
    }

    fn press_times_looped(&mut self, phases: &[Vec<(usize, u64)>], times: u64) -> (u64, bool) {
        for made in 1..=times {
            if self.press(phases) {
                return (made, true);
            }
        }
        (times, false)
    }

    fn press_times_closed(&mut self, phases: &[Vec<(usize, u64)>], times: u64) -> (u64, bool) {
        let full = full_press(self.puzzle, phases);
        let add_full = |board: &mut Self, y: u64| {
            for &(i, a) in &full {
                let m = board.puzzle.moduli[i];
                board.add(i, mul_mod(a, y % m, m));
            }
        };
        match self.first_win(phases, &full, times) {
            Some((y, k)) => {
                add_full(self, y);
                for phase in &phases[..k] {
                    for &(i, a) in phase {
                        self.add(i, a);
                    }
                }
                debug_assert!(self.won(), "the closed form found a win");
                (y + 1, true)
            }
            None => {
                add_full(self, times);
                (times, false)
            }
        }
    }

    /// The earliest win when pressing again and again with these phases: `(y, k)` = after `y`
    /// full presses, in the next press after its first `k` phases; only when `y < limit`.
    fn first_win(
        &self,
        phases: &[Vec<(usize, u64)>],
        full: &[(usize, u64)],
        limit: u64,
    ) -> Option<(u64, usize)> {
        let puzzle = self.puzzle;
        // Cells off target that the button never touches stay off.
        let wrong_inside = full.iter().filter(|&&(i, _)| self.state[i] != puzzle.target[i]).count();
        if self.wrong > wrong_inside {
            return None;
        }
        let mut partial = vec![0u64; full.len()];
        let mut best: Option<(u64, usize)> = None;
        for (k, phase) in phases.iter().enumerate() {
            for &(i, a) in phase {
                let at = full
                    .binary_search_by_key(&i, |&(c, _)| c)
                    .expect("every phase cell is in the full press");
                partial[at] = add_mod(partial[at], a, puzzle.moduli[i]);
            }
            // y·full_i ≡ target_i − state_i − partial_i (mod m_i) for every touched cell.
            let mut solution = Some((BigUint::zero(), BigUint::from(1u32)));
            for (&(i, a), &p) in full.iter().zip(&partial) {
                let m = puzzle.moduli[i];
                let c = sub_mod(self.distance(i), p, m);
                solution = solution.and_then(|(r, n)| {
                    crate::algebra::crt::solve_linear(a, c, m)
                        .and_then(|(r2, n2)| crate::algebra::crt::merge(&r, &n, r2, n2))
                });
                if solution.is_none() {
                    break;
                }
            }
            if let Some(y) = solution.and_then(|(r, _)| r.to_u64())
                && y < limit
                && best.is_none_or(|(b, _)| y < b)
            {
                best = Some((y, k + 1));
            }
        }
        best
    }
}

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
/// at most this many buttons looked at (each press looks at every button). A count of looks is
/// the same on every machine; a deadline is not.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PlayLimit {
    /// Stop at this moment.
    pub deadline: Option<Instant>,
    /// Stop before looking at more buttons than this, in all.
    pub looks: Option<u64>,
}

fn greedy_until(puzzle: &Puzzle, cap: u64, limit: PlayLimit) -> StrategyOutcome {
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
        let mut best: Option<(usize, usize, PhaseList)> = None;
        for j in 0..puzzle.button_count() {
            let phases = phases_of(puzzle, j);
            let (won, wrong) = board.preview(&phases);
            let score = if won { usize::MAX } else { cells - wrong };
            if best.as_ref().is_none_or(|(s, ..)| score > *s) {
                best = Some((score, j, phases));
            }
        }
        match best {
            Some((score, j, phases)) if score > now => {
                let won = board.press(&phases);
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

/// [`all`], with greedy play stopped at `limit` (it looks at every button for each press,
/// which on a board of a million cells is a million looks a press); a stopped strategy is
/// `finished: false`.
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
mod tests {
    use super::*;
    use crate::parse_puzzle;
    use std::collections::HashSet;

    const OCTOPUS: &str = "Puzzle(graph: Path(4), modulus: [7, 8, 7, 6], press: (self: 2, neighbors: 1), \
                           start: [2, 4, 5, 3], target: All(0))";
    const OCTOPUS_GAME: &str = "Puzzle(graph: Path(4), modulus: [7, 8, 7, 6], \
                                phases: [(self: 1, neighbors: 1), (self: 1, neighbors: 0)], \
                                start: [2, 4, 5, 3], target: All(0))";

    fn load(ron: &str) -> Puzzle {
        parse_puzzle(ron).unwrap_or_else(|e| panic!("{ron}: {e:?}"))
    }

    /// `presses` matches the sequence and replaying it gives the same verdict, the win (if any)
    /// on the last press.
    fn assert_consistent(puzzle: &Puzzle, outcome: &StrategyOutcome) {
        assert_eq!(outcome.presses, outcome.sequence.len() as u64, "{outcome:?}");
        let replayed = replay(puzzle, &outcome.sequence);
        if outcome.solves {
            assert_eq!(replayed, Some(outcome.sequence.len()), "{outcome:?}");
        } else {
            assert_eq!(replayed, None, "{outcome:?}");
        }
    }

    /// The octopus, tentacle by tentacle. Plain rule: tentacle 1 twice (2 → 4 → 6: one more
    /// would pass 7), tentacle 2 once (4 + 2 → 6 + 2 = 8 = full, tentacle 1 → 7 = full; one more
    /// would pass both), tentacle 3 never (5 + 1 → 6: one short, a press adds 2), then the last tentacle needs d ≡ 1 (mod 7) and 3 + 2d ≡ 0 (mod 6), i.e.
    /// 2d ≡ 3 (mod 6): impossible, and the state repeats after lcm(7, 3) = 21 presses.
    #[test]
    fn sweep_fails_on_the_plain_octopus() {
        let octopus = load(OCTOPUS);
        let outcome = sweep(&octopus);
        assert!(!outcome.solves, "{outcome:?}");
        let mut expected = vec![0, 0, 1];
        expected.extend([3; 21]);
        assert_eq!(outcome.sequence, expected);
        assert_eq!(outcome.presses, 24);
        assert_consistent(&octopus, &outcome);
        // The state the seed reasons from after the first three tentacles.
        let mut state = octopus.start.to_vec();
        for &j in &expected[..3] {
            assert!(!press(&octopus, &mut state, j));
        }
        assert_eq!(state, [0, 0, 6, 3]);
        // The puzzle itself is solvable (the seed's x = [9, 8, 3, 9]): the strategy is at fault.
        let x: Vec<BigUint> = [9u32, 8, 3, 9].iter().map(|&v| BigUint::from(v)).collect();
        assert!(octopus.solves(&x));
    }

    /// Under the game's rule the same decisions lead to the last tentacle, which now needs
    /// 6 + d ≡ 0 (mod 7) and 3 + 2d − 1 ≡ 0 (mod 6) (the last press stops after its first
    /// phase): d = 8, as the seed finds.
    #[test]
    fn sweep_wins_on_the_game_octopus() {
        let octopus = load(OCTOPUS_GAME);
        let outcome = sweep(&octopus);
        assert!(outcome.solves, "{outcome:?}");
        let mut expected = vec![0, 0, 1];
        expected.extend([3; 8]);
        assert_eq!(outcome.sequence, expected);
        assert_eq!(outcome.presses, 2 + 1 + 8);
        assert_consistent(&octopus, &outcome);
        // The last press is cut: after 7 full presses and one phase the board is full.
        let mut state = octopus.start.to_vec();
        for &j in &expected[..10] {
            assert!(!press(&octopus, &mut state, j));
        }
        assert_eq!(state, [0, 0, 6, 5]);
        assert!(press(&octopus, &mut state, 3));
        assert_eq!(state, [0, 0, 0, 0]);
        // The file's own phases give the same rule and the same play.
        let game = load(OCTOPUS_GAME);
        assert_eq!(sweep(&game), outcome);
    }

    /// Lights Out with a start made by pressing `presses` (cells of rows 1.. only) from all on.
    fn lights_out(rows: usize, cols: usize, presses: &[usize]) -> Puzzle {
        let blank =
            load(&format!("Puzzle(graph: Grid(rows: {rows}, cols: {cols}), modulus: 2, target: All(1))"));
        let mut x = vec![BigUint::zero(); rows * cols];
        for &j in presses {
            x[j] = BigUint::from(1u32);
        }
        let start = blank.apply(&blank.target.to_vec(), &x);
        let start: Vec<String> = start.iter().map(u64::to_string).collect();
        load(&format!(
            "Puzzle(graph: Grid(rows: {rows}, cols: {cols}), modulus: 2, start: [{}], target: All(1))",
            start.join(", ")
        ))
    }

    #[test]
    fn chase_solves_starts_that_need_no_first_row_presses() {
        let mut rng = Rng(7);
        for (rows, cols) in [(3, 3), (5, 5)] {
            for _ in 0..20 {
                let presses: Vec<usize> = (cols..rows * cols).filter(|_| rng.below(2) == 1).collect();
                let puzzle = lights_out(rows, cols, &presses);
                let outcome = chase(&puzzle).expect("a grid");
                assert!(outcome.solves, "{rows}x{cols} {presses:?}: {outcome:?}");
                assert_consistent(&puzzle, &outcome);
                // Chasing finds exactly the presses that made the start (mod 2, in some order).
                let mut found = outcome.sequence.clone();
                found.sort_unstable();
                assert_eq!(found, presses);
            }
        }
        // The 3×3 example with presses in the middle row only: "+" shapes.
        let plus = lights_out(3, 3, &[4]);
        assert_eq!(chase(&plus).unwrap().sequence, [4]);
    }

    #[test]
    fn chase_fails_when_the_first_row_needs_presses() {
        let puzzle = load("Puzzle(graph: Grid(rows: 5, cols: 5), modulus: 2, start: All(0), target: All(1))");
        let outcome = chase(&puzzle).unwrap();
        assert!(!outcome.solves, "{outcome:?}");
        assert_consistent(&puzzle, &outcome);
        // A press in the first row alone also defeats it.
        let top = lights_out(5, 5, &[2]);
        assert!(!chase(&top).unwrap().solves);
        // Not a grid, or buttons that are not cells: no chasing.
        assert!(chase(&load(OCTOPUS)).is_none());
        let levers = "Puzzle(graph: Grid(rows: 1, cols: 2), modulus: 3, buttons: [[(0, 1)], [(1, 1)]])";
        assert!(chase(&load(levers)).is_none());
    }

    #[test]
    fn greedy_takes_the_obvious_presses() {
        // Each cell needs one press of its own button.
        let puzzle =
            load("Puzzle(graph: Cells(2), modulus: 3, buttons: [[(0, 1)], [(1, 1)]], start: [2, 2])");
        let outcome = greedy(&puzzle, 10);
        assert_eq!(
            outcome,
            StrategyOutcome {
                strategy: Strategy::Greedy,
                solves: true,
                presses: 2,
                sequence: vec![0, 1],
                finished: true
            }
        );
        // With a cap of 1 it stops short.
        let capped = greedy(&puzzle, 1);
        assert_eq!((capped.solves, capped.presses, capped.sequence), (false, 1, vec![0]));
        // Myopia: cell 1 needs two presses, and the first does not bring it to its target.
        let far = load("Puzzle(graph: Cells(2), modulus: 3, buttons: [[(0, 1)], [(1, 1)]], start: [2, 1])");
        let outcome = greedy(&far, 10);
        assert_eq!((outcome.solves, outcome.sequence), (false, vec![0]));
        // Lights Out 1×3 all off → all on: pressing the middle wins at once.
        let row = load("Puzzle(graph: Grid(rows: 1, cols: 3), modulus: 2, target: All(1))");
        assert_eq!(greedy(&row, 10).sequence, [1]);
        // Nothing helps: one press of the only button moves the only cell away.
        let stuck = load("Puzzle(graph: Cells(1), modulus: 3, buttons: [[(0, 1)]], start: [2], target: [1])");
        let outcome = greedy(&stuck, 10);
        assert!(!outcome.solves);
        assert_eq!(outcome.presses, 0);
    }

    #[test]
    fn a_solved_start_takes_no_presses() {
        let puzzle = load("Puzzle(graph: Grid(rows: 2, cols: 2), modulus: 3)");
        for outcome in all(&puzzle) {
            assert!(outcome.solves && outcome.presses == 0, "{outcome:?}");
        }
    }

    /// Huge moduli: runs of presses are computed in closed form, never one by one.
    #[test]
    fn big_moduli_finish() {
        let puzzle = load("Puzzle(graph: Path(2), modulus: 1000000007, start: [5, 0], target: All(0))");
        let outcome = sweep(&puzzle);
        // Button 0 until cell 0 is full (1000000002 presses), then button 1 a whole period.
        assert!(!outcome.solves);
        assert_eq!(outcome.presses, 1_000_000_002 + 1_000_000_007);
        assert_eq!(outcome.sequence.len(), SEQUENCE_CAP);
        let solvable = load("Puzzle(graph: Path(2), modulus: 1000000007, start: [3, 1], target: All(0))");
        let outcome = sweep(&solvable);
        // Button 0: 1000000004 presses make cell 0 full and cell 1 = 1000000005; button 1 then
        // needs y ≡ 0 (cell 0) and y ≡ 2 (cell 1): never. The strategy fails though a plan exists.
        assert!(!outcome.solves);
        let grid = load("Puzzle(graph: Grid(rows: 2, cols: 2), modulus: 4294967311, start: [7, 0, 0, 0])");
        let outcome = chase(&grid).unwrap();
        assert_eq!(outcome.presses, 4294967311 - 7);
    }

    // ---- cross-checks against press-by-press reference strategies on random puzzles ----

    struct Rng(u64);

    impl Rng {
        fn below(&mut self, n: u64) -> u64 {
            self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (self.0 >> 33) % n
        }
    }

    fn random_puzzle(rng: &mut Rng) -> Puzzle {
        let n = 1 + rng.below(5) as usize;
        let moduli: Vec<u64> = (0..n).map(|_| 2 + rng.below(8)).collect();
        let list = |values: Vec<u64>| values.iter().map(u64::to_string).collect::<Vec<_>>().join(", ");
        let start = list(moduli.iter().map(|&m| rng.below(m)).collect());
        let target = list(moduli.iter().map(|&m| rng.below(m)).collect());
        let graph = match rng.below(4) {
            0 => format!("Path({n})"),
            1 if n >= 3 => format!("Cycle({n})"),
            2 => {
                let buttons: Vec<String> = (0..1 + rng.below(5))
                    .map(|_| {
                        let effect: Vec<String> = (0..1 + rng.below(3))
                            .map(|_| format!("({}, {})", rng.below(n as u64), 1 + rng.below(6)))
                            .collect();
                        format!("[{}]", effect.join(", "))
                    })
                    .collect();
                format!("Cells({n}), buttons: [{}]", buttons.join(", "))
            }
            _ => {
                let rows = 1 + rng.below(3) as usize;
                let cols = 1 + rng.below(3) as usize;
                let moduli: Vec<u64> = (0..rows * cols).map(|_| 2 + rng.below(5)).collect();
                let start = list(moduli.iter().map(|&m| rng.below(m)).collect());
                let target = list(moduli.iter().map(|&m| rng.below(m)).collect());
                let wrap = if rng.below(4) == 0 { ", wrap: true" } else { "" };
                let king = if rng.below(4) == 0 { ", neighborhood: King" } else { "" };
                return load(&format!(
                    "Puzzle(graph: Grid(rows: {rows}, cols: {cols}{wrap}{king}), modulus: [{}], \
                     press: (self: {}, neighbors: {}), start: [{start}], target: [{target}])",
                    list(moduli),
                    1 + rng.below(3),
                    rng.below(3)
                ));
            }
        };
        let press = if graph.contains("buttons") {
            String::new()
        } else {
            format!(", press: (self: {}, neighbors: {})", 1 + rng.below(3), rng.below(3))
        };
        load(&format!(
            "Puzzle(graph: {graph}, modulus: [{}]{press}, start: [{start}], target: [{target}])",
            list(moduli)
        ))
    }

    /// The puzzle, or (two times in three) the same cells, moduli and states with random staged
    /// presses: graph phases for graph puzzles (the buttons stay the cells), explicit phases
    /// otherwise (the buttons become the phases summed).
    fn random_staged(rng: &mut Rng, puzzle: &Puzzle) -> Puzzle {
        if rng.below(3) == 0 {
            return puzzle.clone();
        }
        let n = puzzle.cell_count() as u64;
        let phases = match puzzle.buttons() {
            crate::model::Buttons::Graph { .. } => crate::model::Phases::Graph(
                (0..1 + rng.below(3)).map(|_| (rng.below(9) as i64, rng.below(9) as i64)).collect(),
            ),
            crate::model::Buttons::Explicit(_) => crate::model::Phases::Explicit(
                (0..puzzle.button_count())
                    .map(|_| {
                        (0..1 + rng.below(3))
                            .map(|_| {
                                (0..rng.below(3))
                                    .map(|_| (rng.below(n) as usize, rng.below(9) as i64))
                                    .collect()
                            })
                            .collect()
                    })
                    .collect(),
            ),
        };
        Puzzle::builder(puzzle.topology().clone())
            .moduli(puzzle.moduli().clone())
            .start(puzzle.start().clone())
            .target(puzzle.target().clone())
            .phases(phases)
            .build()
            .expect("random phases on a valid puzzle")
    }

    /// A full press as the reference sees it: the phases summed, cell by cell.
    fn reference_full(puzzle: &Puzzle, j: usize) -> Vec<(usize, u64)> {
        full_press(puzzle, &phases_of(puzzle, j))
    }

    /// Sweep played one press at a time, with the repeat check on whole states.
    fn reference_sweep(puzzle: &Puzzle) -> (bool, Vec<usize>) {
        let mut state = puzzle.start.to_vec();
        let mut sequence = Vec::new();
        if state == puzzle.target {
            return (true, sequence);
        }
        let n = puzzle.button_count();
        let distance = |state: &[u64], c: usize| sub_mod(puzzle.target[c], state[c], puzzle.moduli[c]);
        let mut previous: Option<usize> = None;
        for j in 0..n {
            let full = reference_full(puzzle, j);
            if j + 1 == n {
                let mut seen = HashSet::new();
                while seen.insert(state.clone()) {
                    sequence.push(j);
                    if press(puzzle, &mut state, j) {
                        return (true, sequence);
                    }
                }
                return (false, sequence);
            }
            let own = own_cell(puzzle, &full, j);
            loop {
                let own_passes = own.is_none_or(|c| {
                    let a = amount_on(&full, c);
                    a == 0 || a > distance(&state, c)
                });
                let previous_passes = previous.is_some_and(|c| {
                    let b = amount_on(&full, c);
                    b > 0 && b > distance(&state, c)
                });
                if own_passes || previous_passes {
                    break;
                }
                sequence.push(j);
                if press(puzzle, &mut state, j) {
                    return (true, sequence);
                }
            }
            previous = own;
        }
        (state == puzzle.target, sequence)
    }

    fn reference_greedy(puzzle: &Puzzle, cap: u64) -> (bool, Vec<usize>) {
        let mut state = puzzle.start.to_vec();
        let mut sequence = Vec::new();
        let at = |s: &[u64]| s.iter().zip(&puzzle.target).filter(|(a, b)| a == b).count();
        while state != puzzle.target && (sequence.len() as u64) < cap {
            let mut best: Option<(usize, usize, Vec<u64>, bool)> = None;
            for j in 0..puzzle.button_count() {
                let mut next = state.clone();
                let won = press(puzzle, &mut next, j);
                let score = if won { usize::MAX } else { at(&next) };
                if best.as_ref().is_none_or(|(s, ..)| score > *s) {
                    best = Some((score, j, next, won));
                }
            }
            match best {
                Some((score, j, next, won)) if score > at(&state) => {
                    sequence.push(j);
                    state = next;
                    if won {
                        return (true, sequence);
                    }
                }
                _ => break,
            }
        }
        (state == puzzle.target, sequence)
    }

    fn reference_chase(puzzle: &Puzzle) -> Option<(bool, Vec<usize>)> {
        let (rows, cols) = puzzle.topology.grid_shape()?;
        if !puzzle.buttons_are_cells() {
            return None;
        }
        let mut state = puzzle.start.to_vec();
        let mut sequence = Vec::new();
        if state == puzzle.target {
            return Some((true, sequence));
        }
        for cell in 0..(rows - 1) * cols {
            let below = cell + cols;
            if state[cell] == puzzle.target[cell] {
                continue;
            }
            // The player reasons with full presses: the fewest `t` whose full presses bring the
            // cell to its target, if any; then those presses are played (the game may win
            // part-way through one).
            let m = puzzle.moduli[cell];
            let b = reference_full(puzzle, below).iter().find(|&&(i, _)| i == cell).map_or(0, |&(_, a)| a);
            let Some(t) = (1..=m).find(|&t| (state[cell] + t * b) % m == puzzle.target[cell]) else {
                continue;
            };
            for k in 1..=t {
                sequence.push(below);
                if press(puzzle, &mut state, below) {
                    return Some((true, sequence));
                }
                debug_assert!(k < t || state[cell] == puzzle.target[cell]);
            }
        }
        Some((state == puzzle.target, sequence))
    }

    #[test]
    fn strategies_agree_with_press_by_press_play() {
        let mut rng = Rng(2024);
        let mut wins = [0usize; 3];
        for round in 0..3000 {
            let puzzle = random_puzzle(&mut rng);
            let puzzle = random_staged(&mut rng, &puzzle);
            let context = format!("round {round}: {puzzle:?}");
            let outcomes = all(&puzzle);
            for outcome in &outcomes {
                assert_consistent(&puzzle, outcome);
            }
            let sweep = &outcomes[0];
            assert_eq!((sweep.solves, sweep.sequence.clone()), reference_sweep(&puzzle), "{context}");
            let cap = 4 * puzzle.button_count() as u64 + 16;
            let greedy = &outcomes[1];
            assert_eq!((greedy.solves, greedy.sequence.clone()), reference_greedy(&puzzle, cap), "{context}");
            let chase = outcomes.get(2).map(|o| (o.solves, o.sequence.clone()));
            assert_eq!(chase, reference_chase(&puzzle), "{context}");
            for (k, o) in outcomes.iter().enumerate() {
                wins[k] += o.solves as usize;
            }
        }
        // The random puzzles exercise both verdicts of every strategy.
        assert!(wins.iter().all(|&w| w > 30), "{wins:?}");
    }

    #[test]
    fn closed_form_runs_match_press_by_press_runs() {
        let mut rng = Rng(99);
        let mut wins = 0;
        for round in 0..3000 {
            let puzzle = random_puzzle(&mut rng);
            let puzzle = random_staged(&mut rng, &puzzle);
            let mut state: Vec<u64> = puzzle.moduli.iter().map(|&m| rng.below(m)).collect();
            // Often one press or so away from the target, so that runs do win.
            if rng.below(2) == 0 {
                state = puzzle.target.to_vec();
                let j = rng.below(puzzle.button_count() as u64) as usize;
                for &(i, a) in &reference_full(&puzzle, j) {
                    let m = puzzle.moduli[i];
                    state[i] = sub_mod(state[i], mul_mod(a, rng.below(m), m), m);
                }
            }
            let j = rng.below(puzzle.button_count() as u64) as usize;
            let times = rng.below(300);
            let phases = phases_of(&puzzle, j);
            let (mut looped, mut closed) = (state.clone(), state.clone());
            let a = Board::new(&puzzle, &mut looped).press_times_looped(&phases, times);
            let b = Board::new(&puzzle, &mut closed).press_times_closed(&phases, times);
            assert_eq!(a, b, "round {round}");
            assert_eq!(looped, closed, "round {round}");
            wins += a.1 as usize;
        }
        assert!(wins > 100, "{wins}");
    }
}
