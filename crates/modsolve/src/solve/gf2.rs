//! The bit-packed path for puzzles whose every cell counts mod 2: one XOR elimination of
//! `[A | target - start]` (see [`crate::algebra::gf2`]).

use num_bigint::BigUint;
use num_traits::{One, Zero};

use super::{Answer, Generator, Method, difference};
use crate::algebra::gf2::{BitMatrix, solve as solve_bits};
use crate::model::Puzzle;

pub(crate) fn solve(puzzle: &Puzzle) -> Answer {
    let (cells, buttons) = (puzzle.cell_count(), puzzle.button_count());
    let mut m = BitMatrix::zeros(cells, buttons + 1);
    let mut periods = Vec::with_capacity(buttons);
    let mut idle_buttons = 0usize;
    for j in 0..buttons {
        let mut touches = false;
        puzzle.for_each_effect(j, |cell, _| {
            m.flip(cell, j);
            touches = true;
        });
        // A cell listed twice by one button cancels out: look at the column, not the list.
        let has_effect = touches && (0..cells).any(|i| m.get(i, j));
        if !has_effect {
            idle_buttons += 1;
        }
        periods.push(BigUint::from(if has_effect { 2u32 } else { 1 }));
    }
    for (i, d) in difference(puzzle).into_iter().enumerate() {
        m.set(i, buttons, d == 1);
    }
    let out = solve_bits(m);
    // Kernel vectors of idle buttons are zero in period space: leave them out. A basis of k
    // plans holds k × buttons big integers: past the limit it is left out.
    let kept = if out.kernel_basis.len() as u128 * buttons as u128 <= super::BASIS_ENTRY_LIMIT {
        out.kernel_basis.len()
    } else {
        0
    };
    let quiet_basis: Vec<Generator> = out
        .kernel_basis
        .iter()
        .take(kept)
        .filter(|v| v.iter().enumerate().any(|(j, &bit)| bit && periods[j] == BigUint::from(2u32)))
        .map(|v| Generator {
            presses: v.iter().map(|&bit| BigUint::from(bit as u32)).collect(),
            order: BigUint::from(2u32),
        })
        .collect();
    // Idle buttons are free columns whose only value within their period is 0.
    let kernel_size = BigUint::one() << (buttons - out.rank - idle_buttons);
    let presses = out.solution.map(|x| x.into_iter().map(|b| BigUint::from(b as u32)).collect::<Vec<_>>());
    let count = if presses.is_some() { kernel_size.clone() } else { BigUint::zero() };
    Answer {
        periods,
        presses,
        count,
        kernel_size,
        quiet_basis,
        method: Method::Gf2,
        seeds: None,
        chased: false,
        kernel_factors: None,
    }
}
