//! Lines of cells, the Lagrangian's largest groups: a path of cells `c_0, c_1, …` where each
//! cell's own button (button `c_t`, the puzzle's buttons being its cells) changes only
//! `c_{t−1}`, `c_t` and `c_{t+1}` of the line, and every other button changes at most one of
//! its cells (a grid's rows and columns under the Cross neighbourhood, a path). The least
//! shared cost of a line's buttons meeting all its cells is worked out exactly by dynamic
//! programming along it, whatever the line's length: the state is the residues of two cells.
//!
//! The other buttons of a cell (the neighbouring lines' own) are folded first into a table of the
//! least cost of each residue they add; then the own buttons are taken in order, each closing
//! the cell before it with that table.

use num_integer::Integer;

use crate::solve::search::SearchProblem;

/// No way to reach a state.
const NONE: u64 = u64::MAX;

/// A line's own button: its weights on the cells before it, at it and after it (reduced) and its
/// highest useful press count.
#[derive(Clone, Debug)]
struct Own {
    weights: [u64; 3],
    top: u64,
}

/// A button of another line that changes one cell of this one: its weight there and its
/// highest useful press count.
#[derive(Clone, Debug)]
struct Outside {
    weight: u64,
    top: u64,
}

/// A line of cells with its buttons: `buttons` lists the own buttons in the line's order, then
/// each cell's outside buttons cell by cell (the order of a plan's counts and of the costs).
#[derive(Clone, Debug)]
pub(super) struct Line {
    pub(super) cells: Vec<usize>,
    pub(super) buttons: Vec<usize>,
    moduli: Vec<u64>,
    target: Vec<u64>,
    own: Vec<Own>,
    outside: Vec<Vec<Outside>>,
}

/// The buffers of [`Line::least`], reused from line to line.
#[derive(Default)]
pub(super) struct LineScratch {
    /// Per cell: the least cost of each residue its outside buttons add.
    table: Vec<Vec<u64>>,
    /// Per outside button: the residue of the table before it that its best choice came from.
    pick: Vec<Vec<u8>>,
    single: Vec<u64>,
    merged: Vec<u64>,
    state: Vec<u64>,
    next: Vec<u64>,
    closed: Vec<u64>,
    /// Per step: the closed table's best residue of the cell before, by `(u, b)`.
    from: Vec<Vec<u8>>,
    /// Per step: the press count and the residue `b` each state came from.
    back: Vec<Vec<(u32, u8)>>,
}

impl Line {
    /// Dynamic-programming steps of one evaluation (a state relaxed along one press count).
    pub(super) fn work(&self) -> u64 {
        let k = self.cells.len();
        let mut work = 0u64;
        for t in 0..k {
            let m = self.moduli[t];
            for o in &self.outside[t] {
                work += m * m + o.top + 1;
            }
            let before = if t > 0 { self.moduli[t - 1] } else { 1 };
            work += before * before * m + (self.own[t].top + 1) * m;
        }
        work
    }

    /// The least of `Σ_k cost_k·x_k` (`cost` in the order of `buttons`) over the presses of the
    /// line's buttons that meet its cells, its plan written to `x`; `None` when none does.
    pub(super) fn least(&self, cost: &[u64], scratch: &mut LineScratch, x: &mut [u64]) -> Option<u64> {
        let k = self.cells.len();
        let m = &self.moduli;
        let LineScratch { table, pick, single, merged, state, next, closed, from, back } = scratch;
        // The outside buttons' tables.
        table.resize_with(k.max(table.len()), Vec::new);
        let outside_count: usize = self.outside.iter().map(Vec::len).sum();
        pick.resize_with(outside_count.max(pick.len()), Vec::new);
        let mut at = k;
        for t in 0..k {
            let mt = m[t] as usize;
            let row = &mut table[t];
            row.clear();
            row.resize(mt, NONE);
            row[0] = 0;
            for o in &self.outside[t] {
                let c = cost[at];
                single.clear();
                single.resize(mt, NONE);
                let (mut r, mut v) = (0usize, 0u64);
                for count in 0..=o.top {
                    if single[r] == NONE {
                        single[r] = v;
                    }
                    r = add_below(r, o.weight as usize, mt);
                    v = v.saturating_add(c);
                    if count + 1 >= mt as u64 {
                        break;
                    }
                }
                let choice = &mut pick[at - k];
                choice.clear();
                choice.resize(mt, 0);
                merged.clear();
                merged.resize(mt, NONE);
                for (r1, &c1) in row.iter().enumerate() {
                    if c1 == NONE {
                        continue;
                    }
                    let mut r = r1;
                    for &c2 in single.iter() {
                        if c2 != NONE && c1 + c2 < merged[r] {
                            merged[r] = c1 + c2;
                            choice[r] = r1 as u8;
                        }
                        r = add_below(r, 1, mt);
                    }
                }
                std::mem::swap(row, merged);
                at += 1;
            }
        }
        // The own buttons in order. `state[a·next + b]`: `a` the residue of cell `t` so far, `b`
        // that of cell `t + 1`.
        from.resize_with(k.max(from.len()), Vec::new);
        back.resize_with(k.max(back.len()), Vec::new);
        for t in 0..k {
            let mc = m[t] as usize;
            let mn = if t + 1 < k { m[t + 1] as usize } else { 1 };
            let own = &self.own[t];
            let [wl, wc, wr] = own.weights.map(|w| w as usize);
            let c = cost[t];
            next.clear();
            next.resize(mc * mn, NONE);
            let steps = &mut back[t];
            steps.clear();
            steps.resize(mc * mn, (0, 0));
            if t == 0 {
                let (mut v, mut w, mut value) = (0usize, 0usize, 0u64);
                for count in 0..=own.top {
                    let idx = v * mn + w;
                    if value < next[idx] {
                        next[idx] = value;
                        steps[idx] = (count as u32, 0);
                    }
                    v = add_below(v, wc, mc);
                    w = add_below(w, wr, mn);
                    value = value.saturating_add(c);
                }
            } else {
                // Close cell `t − 1`: with `u` added to it by this button, the best residue `a`
                // it had, for each `b` of cell `t`.
                let mp = m[t - 1] as usize;
                let d = self.target[t - 1] as usize;
                closed.clear();
                closed.resize(mp * mc, NONE);
                let best = &mut from[t];
                best.clear();
                best.resize(mp * mc, 0);
                let outside = &table[t - 1];
                for u in 0..mp {
                    let (row, choice) = (&mut closed[u * mc..(u + 1) * mc], &mut best[u * mc..(u + 1) * mc]);
                    for a in 0..mp {
                        let extra = outside[(d + 2 * mp - a - u) % mp];
                        if extra == NONE {
                            continue;
                        }
                        for ((slot, pick), &here) in
                            row.iter_mut().zip(choice.iter_mut()).zip(&state[a * mc..(a + 1) * mc])
                        {
                            let total = here.saturating_add(extra);
                            if total < *slot {
                                *slot = total;
                                *pick = a as u8;
                            }
                        }
                    }
                }
                let (mut u, mut v, mut w, mut value) = (0usize, 0usize, 0usize, 0u64);
                for count in 0..=own.top {
                    let row = &closed[u * mc..(u + 1) * mc];
                    // `b` lands on `b + v` (mod `mc`): the two runs apart.
                    for (b, &here) in row.iter().enumerate() {
                        let mut to = b + v;
                        if to >= mc {
                            to -= mc;
                        }
                        let idx = to * mn + w;
                        let total = here.saturating_add(value);
                        if total < next[idx] {
                            next[idx] = total;
                            steps[idx] = (count as u32, b as u8);
                        }
                    }
                    u = add_below(u, wl, mp);
                    v = add_below(v, wc, mc);
                    w = add_below(w, wr, mn);
                    value = value.saturating_add(c);
                }
            }
            std::mem::swap(state, next);
        }
        // Close the last cell.
        let ml = m[k - 1] as usize;
        let d = self.target[k - 1] as usize;
        let (mut value, mut last) = (NONE, 0usize);
        for a in 0..ml {
            let extra = table[k - 1][(d + ml - a) % ml];
            if state[a] != NONE && extra != NONE && state[a] + extra < value {
                value = state[a] + extra;
                last = a;
            }
        }
        if value == NONE {
            return None;
        }
        // Back along the line: each own button's count and each cell's residue from outside.
        let mut outside_residue = vec![0usize; k];
        outside_residue[k - 1] = (d + ml - last) % ml;
        let (mut a, mut w) = (last, 0usize);
        for t in (0..k).rev() {
            let mn = if t + 1 < k { m[t + 1] as usize } else { 1 };
            let (count, b) = back[t][a * mn + w];
            x[t] = u64::from(count);
            if t > 0 {
                let (mp, mc) = (m[t - 1] as usize, m[t] as usize);
                let u = (self.own[t].weights[0] as usize * count as usize) % mp;
                let before = from[t][u * mc + b as usize] as usize;
                outside_residue[t - 1] = (self.target[t - 1] as usize + 2 * mp - before - u) % mp;
                a = before;
                w = b as usize;
            }
        }
        let mut at = k + outside_count;
        for t in (0..k).rev() {
            let mt = m[t] as usize;
            let mut res = outside_residue[t];
            for o in self.outside[t].iter().rev() {
                at -= 1;
                let r1 = pick[at - k][res] as usize;
                let mine = (res + mt - r1) % mt;
                // The fewest presses adding `mine`.
                let (mut r, mut count) = (0usize, 0u64);
                while r != mine && count < o.top {
                    r = (r + o.weight as usize) % mt;
                    count += 1;
                }
                x[at] = count;
                res = r1;
            }
        }
        Some(value)
    }
}

/// `(a + b) mod m` for `a, b < m`.
#[inline]
fn add_below(a: usize, b: usize, m: usize) -> usize {
    let sum = a + b;
    if sum >= m { sum - m } else { sum }
}

/// The lines of `problem` (its buttons being its cells, button `j` at cell `j`): along the two
/// index steps most often between a button's cell and the other cells it changes (1 and the row
/// length on a grid), the longest runs of cells each of whose buttons changes the next and is
/// changed by it, kept when they are lines (see the module's documentation) of at least two cells.
pub(super) fn find_lines(problem: &SearchProblem, by_cell: &[Vec<(usize, u64)>]) -> Vec<Line> {
    let cells = problem.moduli.len();
    if problem.effects.len() != cells || cells < 2 {
        return Vec::new();
    }
    // Each button's cells and weights (reduced, nonzero).
    let mut touched: Vec<Vec<(usize, u64)>> = vec![Vec::new(); cells];
    for (i, list) in by_cell.iter().enumerate() {
        for &(j, a) in list {
            touched[j].push((i, a));
        }
    }
    let changes = |j: usize, i: usize| touched[j].iter().any(|&(c, _)| c == i);
    let mut steps = std::collections::BTreeMap::<usize, usize>::new();
    for (j, list) in touched.iter().enumerate() {
        for &(i, _) in list {
            if i != j {
                *steps.entry(i.abs_diff(j)).or_default() += 1;
            }
        }
    }
    let mut by_count: Vec<(usize, usize)> = steps.into_iter().collect();
    by_count.sort_by_key(|&(step, count)| (std::cmp::Reverse(count), step));
    let mut lines = Vec::new();
    let mut position = vec![usize::MAX; cells];
    for &(step, _) in by_count.iter().take(2) {
        let linked = |a: usize, b: usize| changes(a, b) && changes(b, a);
        for first in 0..cells {
            if first >= step && linked(first - step, first) {
                continue;
            }
            let mut chain = vec![first];
            let mut c = first;
            while c + step < cells && linked(c, c + step) {
                c += step;
                chain.push(c);
            }
            if chain.len() >= 2
                && let Some(line) = line_of(problem, by_cell, &touched, &chain, &mut position)
            {
                lines.push(line);
            }
        }
    }
    lines
}

/// The line of `chain` when it is one; `position` is all `usize::MAX` before and after.
fn line_of(
    problem: &SearchProblem,
    by_cell: &[Vec<(usize, u64)>],
    touched: &[Vec<(usize, u64)>],
    chain: &[usize],
    position: &mut [usize],
) -> Option<Line> {
    for (t, &c) in chain.iter().enumerate() {
        position[c] = t;
    }
    let line = build(problem, by_cell, touched, chain, position);
    for &c in chain {
        position[c] = usize::MAX;
    }
    line
}

fn build(
    problem: &SearchProblem,
    by_cell: &[Vec<(usize, u64)>],
    touched: &[Vec<(usize, u64)>],
    chain: &[usize],
    position: &[usize],
) -> Option<Line> {
    let k = chain.len();
    let moduli: Vec<u64> = chain.iter().map(|&i| problem.moduli[i]).collect();
    let target: Vec<u64> = chain.iter().map(|&i| problem.rhs[i] % problem.moduli[i]).collect();
    if moduli.iter().any(|&m| m > 256) {
        return None;
    }
    let mut own = Vec::with_capacity(k);
    for (t, &j) in chain.iter().enumerate() {
        let mut weights = [0u64; 3];
        for &(i, a) in &touched[j] {
            let p = position[i];
            if p == usize::MAX {
                continue;
            }
            if p + 1 < t || p > t + 1 {
                return None;
            }
            weights[p + 1 - t] = a;
        }
        let period = weights.iter().enumerate().fold(1u64, |l, (s, &a)| {
            let p = (t + s).wrapping_sub(1);
            if a == 0 || p >= k { l } else { l.lcm(&(moduli[p] / a.gcd(&moduli[p]))) }
        });
        own.push(Own { weights, top: problem.highest[j].min(period - 1) });
    }
    let mut buttons: Vec<usize> = chain.to_vec();
    let mut outside = Vec::with_capacity(k);
    for (t, &i) in chain.iter().enumerate() {
        let mut here = Vec::new();
        for &(j, a) in &by_cell[i] {
            if position[j] != usize::MAX {
                continue;
            }
            if touched[j].iter().filter(|&&(c, _)| position[c] != usize::MAX).count() != 1 {
                return None;
            }
            let period = moduli[t] / a.gcd(&moduli[t]);
            here.push(Outside { weight: a, top: problem.highest[j].min(period - 1) });
            buttons.push(j);
        }
        outside.push(here);
    }
    Some(Line { cells: chain.to_vec(), buttons, moduli, target, own, outside })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::search::testing::grid_effects;

    /// Every line's least cost, against all press counts of its buttons within their tops, on
    /// small mixed grids with random costs (some zero) and press limits.
    #[test]
    fn a_line_least_cost_is_the_brute_force_one() {
        use rand::{RngExt, SeedableRng, rngs::StdRng};
        let mut rng = StdRng::seed_from_u64(44);
        let (mut compared, mut unmet) = (0, 0);
        for round in 0..200 {
            let (rows, cols) = [(2, 3), (3, 2), (3, 3), (2, 4), (1, 4)][round % 5];
            let moduli: Vec<u64> = (0..rows * cols).map(|_| rng.random_range(2..=5)).collect();
            // Random nonzero weights: every neighbour stays linked.
            let mut effects = grid_effects(rows, cols, false);
            for e in &mut effects {
                e.iter_mut().for_each(|(i, a)| *a = rng.random_range(1..moduli[*i]));
            }
            let highest: Vec<u64> = (0..rows * cols).map(|_| rng.random_range(0..4)).collect();
            let rhs = moduli.iter().map(|&m| rng.random_range(0..m)).collect();
            let problem = SearchProblem { highest, moduli, effects, rhs };
            let mut by_cell = problem.buttons_by_cell();
            by_cell.iter_mut().for_each(|l| l.retain(|&(_, a)| a != 0));
            let lines = find_lines(&problem, &by_cell);
            assert_eq!(lines.len(), if rows == 1 { 1 } else { rows + cols }, "round {round}");
            for line in &lines {
                let cost: Vec<u64> = line.buttons.iter().map(|_| rng.random_range(0..5)).collect();
                let mut x = vec![0; line.buttons.len()];
                let found = line.least(&cost, &mut LineScratch::default(), &mut x);
                let truth = brute(&problem, line, &cost);
                assert_eq!(found, truth, "round {round} line {:?}", line.cells);
                if let Some(v) = found {
                    // The plan meets the line's cells at that cost.
                    assert_eq!(x.iter().zip(&cost).map(|(a, b)| a * b).sum::<u64>(), v);
                    assert!(meets(&problem, line, &x), "round {round}");
                    compared += 1;
                } else {
                    unmet += 1;
                }
            }
        }
        assert!(compared > 500 && unmet > 20, "{compared} compared, {unmet} unmet");
    }

    /// A King grid has no lines: the other rows' buttons change three cells of a row.
    #[test]
    fn a_king_grid_has_no_lines() {
        let moduli = vec![3; 16];
        let effects = grid_effects(4, 4, true);
        let problem = SearchProblem { highest: vec![2; 16], moduli, effects, rhs: vec![1; 16] };
        let by_cell = problem.buttons_by_cell();
        assert!(find_lines(&problem, &by_cell).is_empty());
        let cross = SearchProblem { effects: grid_effects(4, 4, false), ..problem };
        assert_eq!(find_lines(&cross, &cross.buttons_by_cell()).len(), 8);
    }

    fn meets(problem: &SearchProblem, line: &Line, x: &[u64]) -> bool {
        line.cells.iter().all(|&i| {
            let m = problem.moduli[i];
            let added: u64 = line
                .buttons
                .iter()
                .zip(x)
                .map(|(&j, &v)| v * problem.effects[j].iter().filter(|e| e.0 == i).map(|e| e.1).sum::<u64>())
                .sum();
            added % m == problem.rhs[i] % m
        })
    }

    fn brute(problem: &SearchProblem, line: &Line, cost: &[u64]) -> Option<u64> {
        let tops: Vec<u64> = line.buttons.iter().map(|&j| problem.highest[j]).collect();
        let mut x = vec![0u64; tops.len()];
        let mut best = None;
        loop {
            if meets(problem, line, &x) {
                let v: u64 = x.iter().zip(cost).map(|(a, b)| a * b).sum();
                best = Some(best.map_or(v, |b: u64| b.min(v)));
            }
            let mut k = 0;
            while k < x.len() && x[k] == tops[k] {
                x[k] = 0;
                k += 1;
            }
            if k == x.len() {
                return best;
            }
            x[k] += 1;
        }
    }
}
