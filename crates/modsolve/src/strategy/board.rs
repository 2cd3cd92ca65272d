//! How a press acts, read from the model: a button's phases and full press, and the board a
//! strategy plays on ([`Board`]), which applies a press phase by phase and stops at a win, with
//! long runs of one button in closed form.

use num_bigint::BigUint;
use num_traits::{ToPrimitive, Zero};

use crate::algebra::arith::{add_mod, mul_mod, sub_mod};
use crate::model::Puzzle;

/// A button's phases, each a list of `(cell, amount)`.
pub(super) type PhaseList = Vec<Vec<(usize, u64)>>;

/// The phases of button `j` under the puzzle's own rule (one phase, the whole press, when it has
/// no staged presses), amounts reduced: read from the model, never re-modelled. A big board's
/// phases are read one button at a time, never all at once.
pub(super) fn phases_of(puzzle: &Puzzle, j: usize) -> PhaseList {
    (0..puzzle.phase_count(j)).map(|k| puzzle.phase_effects(j, k)).collect()
}

/// A full press: every phase summed, `(cell, amount)` sorted by cell, one entry for every cell
/// some phase names (the amount may be 0).
pub(super) fn full_press(puzzle: &Puzzle, phases: &[Vec<(usize, u64)>]) -> Vec<(usize, u64)> {
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
pub(super) fn amount_on(full: &[(usize, u64)], cell: usize) -> u64 {
    full.binary_search_by_key(&cell, |&(i, _)| i).map_or(0, |k| full[k].1)
}

/// The state during a strategy, with the number of cells off their target kept up to date.
pub(super) struct Board<'p, 's> {
    puzzle: &'p Puzzle,
    state: &'s mut [u64],
    pub(super) wrong: usize,
}

/// Runs of at most this many presses are played press by press; longer runs in closed form.
const LOOP_LIMIT: u64 = 64;

impl<'p, 's> Board<'p, 's> {
    pub(super) fn new(puzzle: &'p Puzzle, state: &'s mut [u64]) -> Self {
        let wrong = state.iter().zip(&puzzle.target).filter(|(s, t)| s != t).count();
        Board { puzzle, state, wrong }
    }

    pub(super) fn won(&self) -> bool {
        self.wrong == 0
    }

    /// `(target − value) mod m`: how far a cell still has to go.
    pub(super) fn distance(&self, cell: usize) -> u64 {
        sub_mod(self.puzzle.target[cell], self.state[cell], self.puzzle.moduli[cell])
    }

    /// Adds `amount` to `cell`, keeping the count of cells off target.
    pub(super) fn add(&mut self, cell: usize, amount: u64) {
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
    pub(super) fn press(&mut self, phases: &[Vec<(usize, u64)>]) -> bool {
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

    /// The value of `cell` now.
    pub(super) fn value(&self, cell: usize) -> u64 {
        self.state[cell]
    }

    /// What [`Board::press`] would give, `(won, cells off target)`, leaving the board unchanged.
    pub(super) fn preview(&mut self, phases: &[Vec<(usize, u64)>]) -> (bool, usize) {
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
    pub(super) fn press_times(&mut self, j: usize, times: u64) -> (u64, bool) {
        let phases = phases_of(self.puzzle, j);
        if times <= LOOP_LIMIT {
            self.press_times_looped(&phases, times)
        } else {
            self.press_times_closed(&phases, times)
        }
    }

    pub(super) fn press_times_looped(&mut self, phases: &[Vec<(usize, u64)>], times: u64) -> (u64, bool) {
        for made in 1..=times {
            if self.press(phases) {
                return (made, true);
            }
        }
        (times, false)
    }

    pub(super) fn press_times_closed(&mut self, phases: &[Vec<(usize, u64)>], times: u64) -> (u64, bool) {
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
