//! The fewest presses of a tail by dynamic programming over its open cells.
//!
//! The tail's buttons are taken in their order; the state is the residues of the *open* cells
//! only (changed by a button already taken, not yet by all of theirs). A cell opens at its first
//! button at minus its target, and closes after its last, keeping only the states where it is 0.
//! A grid's last row, taken left to right, keeps three or four cells open at a time, so the
//! least presses that meet every cell of the tail are found exactly in a few table passes per
//! button, where a depth-first search could wander among the values of the first buttons before
//! it finds that the last cell cannot be met.
//!
//! The tables depend on the order and the moduli only; the targets (each partial plan's
//! residuals) are given to [`Frontier::fewest`].

use num_integer::Integer;

use crate::solve::search::SearchProblem;

/// One button: the open cells at its press (the new ones, opened just before it, as the most
/// significant digits), the state after one press and one press before, and the closing.
struct Step {
    states: usize,
    /// States before this button's cells were opened.
    before: usize,
    /// The cells opened here, with the place value of their digit.
    opened: Vec<(usize, usize)>,
    next: Vec<u32>,
    prev: Vec<u32>,
    top: u64,
    full: bool,
    /// For every state after the closing of this button's cells, the state at its press with
    /// the closed cells at 0 (empty: nothing closes).
    reopened: Vec<u32>,
}

/// The dynamic programme of a problem's buttons in order.
pub(super) struct Frontier {
    steps: Vec<Step>,
    /// Table entries relaxed by one [`Frontier::fewest`].
    pub(super) work: u64,
}

impl Frontier {
    /// The programme of `problem`'s buttons in index order, `None` when the open cells' states
    /// pass `most` at some button, or a cell is changed by no button.
    pub(super) fn new(problem: &SearchProblem, most: usize) -> Option<Frontier> {
        let cells = problem.moduli.len();
        let mut first = vec![usize::MAX; cells];
        let mut last = vec![usize::MAX; cells];
        for (k, effect) in problem.effects.iter().enumerate() {
            for &(i, a) in effect {
                if a % problem.moduli[i] != 0 {
                    first[i] = first[i].min(k);
                    last[i] = k;
                }
            }
        }
        if first.contains(&usize::MAX) {
            return None;
        }
        let mut open: Vec<usize> = Vec::new();
        let mut steps = Vec::with_capacity(problem.effects.len());
        let mut states = 1usize;
        for (k, effect) in problem.effects.iter().enumerate() {
            let before = states;
            let mut opened = Vec::new();
            for i in (0..cells).filter(|&i| first[i] == k) {
                opened.push((i, states));
                open.push(i);
                states = states.checked_mul(problem.moduli[i] as usize).filter(|&s| s <= most)?;
            }
            let moduli: Vec<u64> = open.iter().map(|&i| problem.moduli[i]).collect();
            let w: Vec<u64> = open
                .iter()
                .map(|&i| {
                    let m = problem.moduli[i];
                    effect.iter().filter(|&&(c, _)| c == i).fold(0, |s, &(_, a)| (s + a % m) % m)
                })
                .collect();
            let period = w
                .iter()
                .zip(&moduli)
                .fold(1u64, |l, (&a, &m)| if a == 0 { l } else { l.lcm(&(m / a.gcd(&m))) });
            let top = problem.highest[k].min(period - 1);
            let next: Vec<u32> = (0..states).map(|s| add(s, &moduli, &w) as u32).collect();
            let mut prev = vec![0u32; states];
            for (s, &t) in next.iter().enumerate() {
                prev[t as usize] = s as u32;
            }
            let closing: Vec<bool> = open.iter().map(|&i| last[i] == k).collect();
            let mut reopened = Vec::new();
            if closing.contains(&true) {
                let kept: Vec<u64> =
                    moduli.iter().zip(&closing).filter(|&(_, &c)| !c).map(|(&m, _)| m).collect();
                let after = kept.iter().product::<u64>() as usize;
                reopened = (0..after)
                    .map(|s| {
                        let mut rest = decode(s, &kept).into_iter();
                        let digits: Vec<u64> =
                            closing.iter().map(|&c| if c { 0 } else { rest.next().unwrap_or(0) }).collect();
                        encode(&digits, &moduli) as u32
                    })
                    .collect();
                open = open.iter().zip(&closing).filter(|&(_, &c)| !c).map(|(&i, _)| i).collect();
                states = after;
            }
            let pressed_states = moduli.iter().product::<u64>() as usize;
            steps.push(Step {
                states: pressed_states,
                before,
                opened,
                next,
                prev,
                top,
                full: top + 1 == period,
                reopened,
            });
        }
        let work = steps.iter().map(|s| s.states as u64 * if s.full { 3 } else { s.top + 2 }).sum();
        Some(Frontier { steps, work })
    }

    /// The fewest presses (each button within its `top`) that bring every cell from `target`
    /// (its residual) to 0, fewer than `below` when given, with the presses; `None` when no
    /// such presses exist.
    pub(super) fn fewest(&self, target: &[u64], moduli: &[u64], below: Option<u128>) -> Option<Vec<u64>> {
        const NONE: u64 = u64::MAX;
        let mut layers: Vec<Vec<u64>> = Vec::with_capacity(self.steps.len());
        let mut offsets = Vec::with_capacity(self.steps.len());
        let mut table = vec![0u64];
        for step in &self.steps {
            // Open the new cells at their targets: the old states moved up by the new digits.
            let offset: usize = step
                .opened
                .iter()
                .map(|&(i, radix)| ((moduli[i] - target[i] % moduli[i]) % moduli[i]) as usize * radix)
                .sum();
            let mut opened = vec![NONE; step.states];
            opened[offset..offset + step.before].copy_from_slice(&table[..step.before]);
            let mut pressed = opened.clone();
            if step.full {
                let mut seen = vec![false; step.states];
                for s0 in 0..step.states {
                    if seen[s0] {
                        continue;
                    }
                    let mut s = s0;
                    let mut length = 0usize;
                    loop {
                        seen[s] = true;
                        length += 1;
                        s = step.next[s] as usize;
                        if s == s0 {
                            break;
                        }
                    }
                    // Two rounds along the press's cycle through `s0` relax every count.
                    let mut a = s0;
                    for _ in 0..2 * length {
                        let b = step.next[a] as usize;
                        if pressed[a] != NONE && pressed[a] + 1 < pressed[b] {
                            pressed[b] = pressed[a] + 1;
                        }
                        a = b;
                    }
                }
            } else {
                for (s, &here) in opened.iter().enumerate() {
                    if here == NONE {
                        continue;
                    }
                    let mut t = s;
                    for x in 1..=step.top {
                        t = step.next[t] as usize;
                        pressed[t] = pressed[t].min(here + x);
                    }
                }
            }
            table = if step.reopened.is_empty() {
                pressed
            } else {
                step.reopened.iter().map(|&s| pressed[s as usize]).collect()
            };
            layers.push(opened);
            offsets.push(offset);
        }
        let value = *table.first()?;
        if value == NONE || below.is_some_and(|b| u128::from(value) >= b) {
            return None;
        }
        // Back from the end, the press count of each button in turn.
        let mut x = vec![0u64; self.steps.len()];
        let (mut s, mut v) = (0usize, value);
        for (k, step) in self.steps.iter().enumerate().rev() {
            if !step.reopened.is_empty() {
                s = step.reopened[s] as usize;
            }
            let before = &layers[k];
            let mut p = s;
            let mut found = false;
            for count in 0..=step.top {
                if before[p] != NONE && before[p] + count == v {
                    x[k] = count;
                    v = before[p];
                    s = p;
                    found = true;
                    break;
                }
                p = step.prev[p] as usize;
            }
            // The state before the opening: the new digits were the targets.
            if !found || s < offsets[k] || s - offsets[k] >= step.before {
                return None;
            }
            s -= offsets[k];
        }
        (v == 0).then_some(x)
    }
}

/// The state `s` after one press of weights `w`.
fn add(s: usize, moduli: &[u64], w: &[u64]) -> usize {
    let mut digits = decode(s, moduli);
    for ((d, &m), &a) in digits.iter_mut().zip(moduli).zip(w) {
        *d = (*d + a) % m;
    }
    encode(&digits, moduli)
}

fn decode(mut s: usize, moduli: &[u64]) -> Vec<u64> {
    moduli
        .iter()
        .map(|&m| {
            let d = s as u64 % m;
            s /= m as usize;
            d
        })
        .collect()
}

fn encode(digits: &[u64], moduli: &[u64]) -> usize {
    digits.iter().zip(moduli).rev().fold(0usize, |s, (&d, &m)| s * m as usize + d as usize)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::search::testing::{best_scores, random_effects, solves};

    /// On random systems of up to 2^16 plans (mixed, prime-power and prime moduli, values
    /// capped as press limits do) and on random last rows of mixed grids: the programme's
    /// fewest presses are the true fewest (by brute force), its presses solve the system within
    /// the caps, it answers `None` exactly when no plan exists or none is below the bar given,
    /// and the same tables serve every target.
    #[test]
    fn the_frontier_finds_the_fewest_presses() {
        use rand::{RngExt, SeedableRng, rngs::StdRng};
        let mut rng = StdRng::seed_from_u64(61);
        let (mut solved, mut none, mut built) = (0, 0, 0);
        for round in 0..600 {
            let choices: &[u64] = [&[2, 3, 4, 6, 8, 9, 12][..], &[4, 8, 9], &[5, 7]][round % 3];
            let mut problem = if round % 2 == 0 {
                let cells = rng.random_range(1..6);
                let moduli: Vec<u64> =
                    (0..cells).map(|_| choices[rng.random_range(0..choices.len())]).collect();
                let n = rng.random_range(1..6);
                let effects = random_effects(&mut rng, &moduli, n, 0.5);
                let highest: Vec<u64> = (0..n).map(|_| rng.random_range(0..8)).collect();
                SearchProblem { moduli, effects, rhs: Vec::new(), highest }
            } else {
                // A grid's last row, as the beam's tail sees it: button `c` changes the cell
                // above it, its own cell and its neighbours in the row.
                let width = rng.random_range(2..6);
                let moduli: Vec<u64> =
                    (0..2 * width).map(|_| choices[rng.random_range(0..choices.len())]).collect();
                let effects: Vec<Vec<(usize, u64)>> = (0..width)
                    .map(|c| {
                        let mut e = vec![(c, 1), (width + c, rng.random_range(1..3))];
                        if c > 0 {
                            e.push((width + c - 1, 1));
                        }
                        if c + 1 < width {
                            e.push((width + c + 1, 1));
                        }
                        e.iter().map(|&(i, a)| (i, a % moduli[i])).filter(|&(_, a)| a != 0).collect()
                    })
                    .collect();
                let highest: Vec<u64> = (0..width).map(|_| rng.random_range(1..12)).collect();
                SearchProblem { moduli, effects, rhs: Vec::new(), highest }
            };
            let Some(frontier) = Frontier::new(&problem, 1 << 16) else { continue };
            built += 1;
            for k in 0..3 {
                // Two targets some plan within the caps meets, and a random one.
                problem.rhs = problem.moduli.iter().map(|&m| rng.random_range(0..m)).collect();
                if k < 2 {
                    problem.rhs.iter_mut().for_each(|r| *r = 0);
                    for (j, effect) in problem.effects.iter().enumerate() {
                        let v = rng.random_range(0..=problem.highest[j]);
                        for &(i, a) in effect {
                            problem.rhs[i] = (problem.rhs[i] + a * v) % problem.moduli[i];
                        }
                    }
                }
                let truth = best_scores(&problem)[0].map(|s| s.0);
                let what = format!("round {round} {problem:?}");
                match (frontier.fewest(&problem.rhs, &problem.moduli, None), truth) {
                    (Some(x), Some(t)) => {
                        assert!(solves(&problem, &x), "{what}: {x:?}");
                        assert!(x.iter().zip(&problem.highest).all(|(v, h)| v <= h), "{what}: {x:?}");
                        assert_eq!(x.iter().map(|&v| u128::from(v)).sum::<u128>(), t, "{what}: {x:?}");
                        assert_eq!(frontier.fewest(&problem.rhs, &problem.moduli, Some(t)), None, "{what}");
                        if t > 0 {
                            assert!(frontier.fewest(&problem.rhs, &problem.moduli, Some(t + 1)).is_some());
                        }
                        solved += 1;
                    }
                    (None, None) => none += 1,
                    (found, truth) => panic!("{what}: {found:?} against {truth:?}"),
                }
            }
        }
        assert!(built > 400 && solved > 900 && none > 100, "{built} built, {solved} solved, {none} none");
    }

    /// A problem whose open cells' states pass the limit, or with a cell no button changes,
    /// gets no programme (the tail then searches depth first).
    #[test]
    fn the_frontier_refuses_what_it_cannot_hold() {
        let wide = SearchProblem {
            moduli: vec![12, 12, 12],
            effects: vec![vec![(0, 1), (1, 1), (2, 1)], vec![(0, 1)]],
            rhs: vec![0; 3],
            highest: vec![11, 11],
        };
        assert!(Frontier::new(&wide, 1728).is_some());
        assert!(Frontier::new(&wide, 1727).is_none());
        let untouched = SearchProblem {
            moduli: vec![5, 5],
            effects: vec![vec![(0, 1)]],
            rhs: vec![0; 2],
            highest: vec![4],
        };
        assert!(Frontier::new(&untouched, 1 << 16).is_none());
    }
}
