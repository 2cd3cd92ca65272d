//! How players without pen and paper fare: simulations of simple strategies (seed 004 §04).
//!
//! Every strategy presses one button at a time through [`press`], which applies the button's
//! phases in order and stops as soon as the puzzle is won (the game's rule for staged presses;
//! without phases a press is one phase), so the strategies play exactly as the game does.
//!
//! - `sweep`: seed 004's conservative strategy, generalised to any button order. Work on
//!   button 0 first; keep pressing the current button while the press neither carries its own
//!   cell past its target ("full") nor carries the previous button's cell past its target; then
//!   move on. On the last button, press until the puzzle is solved or the state repeats. A
//!   button's own cell is the cell of the same number for graph puzzles, otherwise the cell it
//!   changes most (ties: the lowest cell).
//! - `greedy`: press the button that leaves the most cells at their target (ties: the lowest
//!   button); stop when solved or when no press raises that number, or at the cap.
//! - `chase`: for grids whose buttons are their cells, light chasing from the top: for each row
//!   but the last, press the cell below each cell not at its target until it is (at most
//!   modulus − 1 times). No first-row choices: the player does not think.

use crate::model::Puzzle;

/// The outcome of one strategy from the puzzle's start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StrategyOutcome {
    pub name: &'static str,
    pub solves: bool,
    /// Presses made (started), whether or not the strategy won.
    pub presses: u64,
}

/// The strategies, by name.
pub const NAMES: [&str; 3] = ["sweep", "greedy", "chase"];

/// One press of button `j` on `state`, phase by phase; true when the puzzle is won (the press
/// stops there).
pub fn press(puzzle: &Puzzle, state: &mut [u64], j: usize) -> bool {
    for k in 0..puzzle.phase_count(j) {
        for (i, a) in puzzle.phase_effects(j, k) {
            let m = puzzle.moduli[i];
            state[i] = crate::algebra::arith::add_mod(state[i], a, m);
        }
        if state == puzzle.target.as_slice() {
            return true;
        }
    }
    false
}

/// `(target − value) mod m`: how far a cell still has to go.
fn distance(puzzle: &Puzzle, state: &[u64], cell: usize) -> u64 {
    crate::algebra::arith::sub_mod(puzzle.target[cell], state[cell], puzzle.moduli[cell])
}

/// The cell a button works on, for `sweep`.
fn own_cell(puzzle: &Puzzle, j: usize) -> Option<usize> {
    if puzzle.buttons_are_cells() {
        return Some(j);
    }
    puzzle.effects(j).into_iter().max_by_key(|&(i, a)| (a, std::cmp::Reverse(i))).map(|(i, _)| i)
}

/// What button `j` adds to `cell` in one full press.
fn amount(puzzle: &Puzzle, j: usize, cell: usize) -> u64 {
    puzzle.effects(j).into_iter().find(|&(i, _)| i == cell).map_or(0, |(_, a)| a)
}

/// Seed 004's conservative strategy, generalised.
pub fn sweep(puzzle: &Puzzle) -> StrategyOutcome {
    let mut state = puzzle.start.clone();
    let mut presses = 0u64;
    let n = puzzle.button_count();
    let outcome = |solves, presses| StrategyOutcome { name: "sweep", solves, presses };
    if state == puzzle.target {
        return outcome(true, 0);
    }
    let mut previous: Option<usize> = None;
    for j in 0..n {
        let own = own_cell(puzzle, j);
        if j + 1 == n {
            // The last button: press until solved or until the state repeats.
            let mut seen = std::collections::HashSet::new();
            while seen.insert(state.clone()) {
                presses += 1;
                if press(puzzle, &mut state, j) {
                    return outcome(true, presses);
                }
            }
            return outcome(false, presses);
        }
        loop {
            let passes_own = own.is_some_and(|c| {
                let a = amount(puzzle, j, c);
                a == 0 || a > distance(puzzle, &state, c)
            });
            let passes_previous = previous.is_some_and(|c| {
                let b = amount(puzzle, j, c);
                b > 0 && b > distance(puzzle, &state, c)
            });
            if own.is_none() || passes_own || passes_previous {
                break;
            }
            presses += 1;
            if press(puzzle, &mut state, j) {
                return outcome(true, presses);
            }
        }
        previous = own;
    }
    outcome(state == puzzle.target, presses)
}

/// Press whatever leaves the most cells at their target.
pub fn greedy(puzzle: &Puzzle, cap: u64) -> StrategyOutcome {
    let mut state = puzzle.start.clone();
    let at_target = |s: &[u64]| s.iter().zip(&puzzle.target).filter(|(a, b)| a == b).count();
    let mut presses = 0u64;
    while state != puzzle.target && presses < cap {
        let now = at_target(&state);
        let mut best: Option<(usize, usize, Vec<u64>, bool)> = None;
        for j in 0..puzzle.button_count() {
            let mut next = state.clone();
            let won = press(puzzle, &mut next, j);
            let score = if won { usize::MAX } else { at_target(&next) };
            if best.as_ref().is_none_or(|(s, ..)| score > *s) {
                best = Some((score, j, next, won));
            }
        }
        match best {
            Some((score, _, next, won)) if won || score > now => {
                presses += 1;
                state = next;
                if won {
                    return StrategyOutcome { name: "greedy", solves: true, presses };
                }
            }
            _ => break,
        }
    }
    StrategyOutcome { name: "greedy", solves: state == puzzle.target, presses }
}

/// Light chasing from the top row; `None` when the puzzle is not a grid of cell buttons.
pub fn chase(puzzle: &Puzzle) -> Option<StrategyOutcome> {
    let (rows, cols) = puzzle.topology.grid_shape()?;
    if !puzzle.buttons_are_cells() {
        return None;
    }
    let mut state = puzzle.start.clone();
    let mut presses = 0u64;
    if state == puzzle.target {
        return Some(StrategyOutcome { name: "chase", solves: true, presses });
    }
    for r in 0..rows.saturating_sub(1) {
        for c in 0..cols {
            let (cell, below) = (r * cols + c, (r + 1) * cols + c);
            let mut tries = 0;
            while state[cell] != puzzle.target[cell] && tries + 1 < puzzle.moduli[cell] {
                tries += 1;
                presses += 1;
                if press(puzzle, &mut state, below) {
                    return Some(StrategyOutcome { name: "chase", solves: true, presses });
                }
            }
        }
    }
    Some(StrategyOutcome { name: "chase", solves: state == puzzle.target, presses })
}

/// Whether a strategy requirement holds: `Some(name)` must win, `None` means none may.
pub fn requirement_met(puzzle: &Puzzle, must_win: Option<&str>) -> bool {
    let outcomes = all(puzzle);
    match must_win {
        Some(name) => outcomes.iter().any(|o| o.name == name && o.solves),
        None => outcomes.iter().all(|o| !o.solves),
    }
}

/// Every strategy that applies, in [`NAMES`] order. Greedy is capped at 4 presses per button
/// plus 16.
pub fn all(puzzle: &Puzzle) -> Vec<StrategyOutcome> {
    let cap = 4 * puzzle.button_count() as u64 + 16;
    let mut out = vec![sweep(puzzle), greedy(puzzle, cap)];
    out.extend(chase(puzzle));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse_puzzle;

    fn load(file: &str) -> Puzzle {
        let path = format!("{}/puzzles/{file}", env!("CARGO_MANIFEST_DIR"));
        parse_puzzle(&std::fs::read_to_string(path).expect("shipped")).expect("valid")
    }

    /// Seed 004: the conservative strategy fails on the octopus under the plain rule (the last
    /// equation becomes 2d ≡ 3 mod 6) and wins under the game's staged rule.
    #[test]
    fn sweep_on_the_octopus_fails_plain_and_wins_staged() {
        let plain = sweep(&load("octopus.ron"));
        assert!(!plain.solves, "{plain:?}");
        let game = sweep(&load("octopus-game.ron"));
        assert!(game.solves, "{game:?}");
        // Tentacle 1 twice, tentacle 2 once, tentacle 3 never, then the seed's d = 8.
        assert_eq!(game.presses, 2 + 1 + 8);
    }

    #[test]
    fn chase_needs_no_first_row_fix() {
        // Presses only below the top row: chasing recovers them.
        let easy = parse_puzzle(
            "Puzzle(graph: Grid(rows: 3, cols: 3), modulus: 2, start: Rows([\".#.\", \"###\", \".#.\"]))",
        )
        .unwrap();
        let outcome = chase(&easy).unwrap();
        assert!(outcome.solves, "{outcome:?}");
        // All off → all on on 5×5 needs first-row presses.
        assert!(!chase(&load("lightsout-5x5.ron")).unwrap().solves);
        assert!(chase(&load("sunflowers.ron")).is_none());
    }

    #[test]
    fn greedy_takes_the_obvious_press() {
        let puzzle =
            parse_puzzle("Puzzle(graph: Cells(2), modulus: 3, buttons: [[(0, 1)], [(1, 1)]], start: [2, 0])")
                .unwrap();
        assert_eq!(greedy(&puzzle, 10), StrategyOutcome { name: "greedy", solves: true, presses: 1 });
    }
}
