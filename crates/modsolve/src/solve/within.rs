//! Press limits that leave few plans: every press vector within the limits is tried, so the
//! best plan of each objective and the number of plans within the limits are exact, whatever
//! the budget. (A plan presses each button fewer times than its period: the caller gives
//! `min(limit, period − 1)` per button.)
//!
//! A puzzle whose `max_presses` bind (some button may be pressed fewer times than its period)
//! asks an integer question the algebra alone does not answer: is there a plan within the limits,
//! and which is best? When the box `0 ≤ x_j ≤ limit_j` holds at most [`BOX_LIMIT`] vectors, the
//! box is walked whole, an odometer over the buttons that changes the cells by one button's
//! effect per step (one subtraction of `limit_j` presses when a digit wraps). The work is a fixed
//! count of cell updates, independent of the budget, so a tiny press-limited puzzle answers at
//! once (a 3×5 torus with 51,712 vectors within its limits took 181 million search nodes before).

use num_bigint::BigUint;

use super::search::{Objective, Score};
use crate::algebra::arith::{add_mod, mul_mod, sub_mod};
use crate::model::Puzzle;

/// The most press vectors the box walk tries (about 0.1 s on a 2-core machine of 2026 for a
/// puzzle of a few effects per button).
pub(crate) const BOX_LIMIT: u64 = 1 << 22;

/// The most cell updates the box walk makes (vectors times the effects of a step).
const UPDATE_LIMIT: u64 = 1 << 26;

/// What the walk of the box found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Boxed {
    /// Per objective asked, the best plan within the limits (the first in the walk's order among
    /// equal scores), `None` when no plan is within them.
    pub best: Vec<Option<Vec<u64>>>,
    /// The plans within the limits.
    pub count: BigUint,
    /// The vectors tried.
    pub tried: u64,
}

/// The vectors of the box `0 ≤ x_j ≤ limits[j]`, when the walk takes it: at most [`BOX_LIMIT`]
/// vectors and [`UPDATE_LIMIT`] cell updates.
pub(crate) fn box_size(puzzle: &Puzzle, limits: &[u64]) -> Option<u64> {
    let mut size = 1u64;
    let mut updates = 0u64;
    for (j, &limit) in limits.iter().enumerate() {
        if limit == 0 {
            continue;
        }
        size = size.checked_mul(limit.checked_add(1)?).filter(|&s| s <= BOX_LIMIT)?;
        let mut effects = 0u64;
        puzzle.for_each_effect(j, |_, _| effects += 1);
        updates = updates.saturating_add(effects.max(1));
    }
    // Each vector moves one digit on average (plus the wraps, fewer): the updates of a step
    // are at most the largest button's; the sum over buttons bounds it.
    (size.saturating_mul(updates.clamp(1, 64)) <= UPDATE_LIMIT).then_some(size)
}

/// Walks the box `0 ≤ x_j ≤ limits[j]` of `puzzle` (without staged presses): the plans that
/// solve it, counted, and the best one for each of `objectives`. `None` when the box is past
/// [`box_size`]'s limits.
pub(crate) fn walk_box(puzzle: &Puzzle, limits: &[u64], objectives: &[Objective]) -> Option<Boxed> {
    box_size(puzzle, limits)?;
    let cells = puzzle.cell_count();
    let moduli: Vec<u64> = (0..cells).map(|i| puzzle.moduli.get(i)).collect();
    // What the presses must add to each cell.
    let need: Vec<u64> = (0..cells)
        .map(|i| sub_mod(puzzle.target.get(i) % moduli[i], puzzle.start.get(i) % moduli[i], moduli[i]))
        .collect();
    // The digits: buttons that may be pressed, each with its effect and the effect of undoing
    // `limit` presses (a wrap back to 0).
    struct Digit {
        button: usize,
        limit: u64,
        step: Vec<(usize, u64)>,
        wrap: Vec<(usize, u64)>,
    }
    let digits: Vec<Digit> = limits
        .iter()
        .enumerate()
        .filter(|&(_, &limit)| limit > 0)
        .map(|(j, &limit)| {
            let step = puzzle.effects(j);
            let wrap = step
                .iter()
                .map(|&(i, a)| {
                    let m = moduli[i];
                    (i, sub_mod(0, mul_mod(a, limit % m, m), m))
                })
                .collect();
            Digit { button: j, limit, step, wrap }
        })
        .collect();
    let mut have = vec![0u64; cells];
    let mut wrong = need.iter().filter(|&&v| v != 0).count();
    let mut x = vec![0u64; puzzle.button_count()];
    let mut best: Vec<Option<(Score, Vec<u64>)>> = vec![None; objectives.len()];
    let mut count = 0u64;
    let mut tried = 0u64;
    let add = |have: &mut [u64], wrong: &mut usize, effects: &[(usize, u64)]| {
        for &(i, a) in effects {
            let before = have[i] == need[i];
            have[i] = add_mod(have[i], a, moduli[i]);
            let after = have[i] == need[i];
            if before && !after {
                *wrong += 1;
            } else if after && !before {
                *wrong -= 1;
            }
        }
    };
    loop {
        tried += 1;
        if wrong == 0 {
            count += 1;
            for (k, &objective) in objectives.iter().enumerate() {
                let score = objective.score(&x);
                if best[k].as_ref().is_none_or(|(s, _)| score < *s) {
                    best[k] = Some((score, x.clone()));
                }
            }
        }
        if tried.is_multiple_of(65_536) {
            crate::bounded::checkpoint();
        }
        // The next vector: the first digit below its limit steps on, the ones before it wrap.
        let mut k = 0;
        loop {
            let Some(digit) = digits.get(k) else {
                return Some(Boxed {
                    best: best.into_iter().map(|b| b.map(|(_, x)| x)).collect(),
                    count: BigUint::from(count),
                    tried,
                });
            };
            if x[digit.button] < digit.limit {
                x[digit.button] += 1;
                add(&mut have, &mut wrong, &digit.step);
                break;
            }
            x[digit.button] = 0;
            add(&mut have, &mut wrong, &digit.wrap);
            k += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse_puzzle;

    /// Every vector of the box, simulated one by one: the oracle.
    fn brute(puzzle: &Puzzle, limits: &[u64], objective: Objective) -> (u64, Option<Score>) {
        let mut x = vec![0u64; limits.len()];
        let (mut count, mut best) = (0u64, None::<Score>);
        loop {
            let big: Vec<BigUint> = x.iter().map(|&v| BigUint::from(v)).collect();
            if puzzle.solves(&big) {
                count += 1;
                let s = objective.score(&x);
                best = Some(best.map_or(s, |b| b.min(s)));
            }
            let mut k = 0;
            loop {
                if k == x.len() {
                    return (count, best);
                }
                if x[k] < limits[k] {
                    x[k] += 1;
                    break;
                }
                x[k] = 0;
                k += 1;
            }
        }
    }

    #[test]
    fn the_box_walk_agrees_with_simulating_every_vector() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = |bound: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % bound
        };
        let mut solvable = 0;
        for _ in 0..200 {
            let (rows, cols) = (1 + next(2), 2 + next(3));
            let cells = (rows * cols) as usize;
            let moduli: Vec<u64> = (0..cells).map(|_| 2 + next(7)).collect();
            let start: Vec<u64> = moduli.iter().map(|&m| next(m)).collect();
            let target: Vec<u64> = moduli.iter().map(|&m| next(m)).collect();
            let limits: Vec<u64> = (0..cells).map(|_| next(5)).collect();
            let list = |v: &[u64]| v.iter().map(u64::to_string).collect::<Vec<_>>().join(", ");
            let text = format!(
                "Puzzle(graph: Grid(rows: {rows}, cols: {cols}), modulus: [{}], press: (self: {}, neighbors: {}), max_presses: [{}], start: [{}], target: [{}])",
                list(&moduli),
                1 + next(3),
                1 + next(3),
                list(&limits),
                list(&start),
                list(&target)
            );
            let puzzle = parse_puzzle(&text).unwrap();
            let objectives = [Objective::Total, Objective::Max, Objective::Buttons];
            let walked = walk_box(&puzzle, &limits, &objectives).unwrap();
            let size: u64 = limits.iter().map(|&l| l + 1).product();
            assert_eq!(walked.tried, size, "{text}");
            for (k, &objective) in objectives.iter().enumerate() {
                let (count, best) = brute(&puzzle, &limits, objective);
                assert_eq!(walked.count, BigUint::from(count), "{text}");
                let found = walked.best[k].as_ref().map(|x| {
                    let big: Vec<BigUint> = x.iter().map(|&v| BigUint::from(v)).collect();
                    assert!(puzzle.solves(&big), "{text}");
                    assert!(x.iter().zip(&limits).all(|(a, b)| a <= b), "{text}");
                    objective.score(x)
                });
                assert_eq!(found, best, "{text} {objective:?}");
            }
            solvable += usize::from(walked.count > BigUint::from(0u32));
        }
        // The random puzzles are not all unsolvable within their limits.
        assert!(solvable > 20, "{solvable}");
    }

    /// The counting bound of [`crate::solve::bound::counting_bound`] never passes the best plan's
    /// measure: every plan (each press below its period) of random mixed-moduli puzzles is
    /// simulated, and some bounds are positive and some meet the optimum.
    #[test]
    fn the_counting_bound_never_passes_the_best_plan() {
        use crate::solve::bound::counting_bound;
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = |bound: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % bound
        };
        let (mut positive, mut tight, mut checked) = (0, 0, 0);
        for _ in 0..300 {
            let cells = 2 + next(4) as usize;
            let moduli: Vec<u64> = (0..cells).map(|_| 2 + next(4)).collect();
            let start: Vec<u64> = moduli.iter().map(|&m| next(m)).collect();
            let list = |v: &[u64]| v.iter().map(u64::to_string).collect::<Vec<_>>().join(", ");
            // Explicit buttons, some listing a cell twice (their amounts add up).
            let buttons: Vec<String> = (0..cells)
                .map(|_| {
                    let effects: Vec<String> = (0..1 + next(3))
                        .map(|_| format!("({}, {})", next(cells as u64), 1 + next(3)))
                        .collect();
                    format!("[{}]", effects.join(", "))
                })
                .collect();
            let text = format!(
                "Puzzle(graph: Cells({cells}), modulus: [{}], buttons: [{}], start: [{}])",
                list(&moduli),
                buttons.join(", "),
                list(&start)
            );
            let puzzle = parse_puzzle(&text).unwrap();
            let highest: Vec<u64> = puzzle.periods().iter().map(|l| u64::try_from(l).unwrap() - 1).collect();
            for objective in [Objective::Total, Objective::Max, Objective::Buttons] {
                let (_, best) = brute(&puzzle, &highest, objective);
                let Some(best) = best else { continue };
                let bound = counting_bound(&puzzle, objective).unwrap();
                assert!(bound <= best.0, "{text} {objective:?}: bound {bound} above the best {best:?}");
                checked += 1;
                positive += usize::from(bound > 0);
                tight += usize::from(bound == best.0 && bound > 0);
            }
        }
        assert!(checked > 300 && positive > 100 && tight > 50, "{checked} {positive} {tight}");
    }

    #[test]
    fn a_box_past_the_limit_is_not_walked() {
        let puzzle = parse_puzzle("Puzzle(graph: Path(30), modulus: 7)").unwrap();
        assert_eq!(box_size(&puzzle, &[6; 30]), None);
        assert_eq!(box_size(&puzzle, &[0; 30]), Some(1));
        assert_eq!(
            box_size(&puzzle, &[1; 10].iter().chain(&[0; 20]).copied().collect::<Vec<_>>()),
            Some(1024)
        );
    }
}
