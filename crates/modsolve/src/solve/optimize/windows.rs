//! The window search (a large-neighbourhood search) for fewer presses: a plan is improved by
//! re-solving windows of the board exactly while the rest of the plan stays fixed.
//!
//! Defining identity: a window is a set of buttons, the ball of a [`Level`]'s buttons
//! around a centre in the button graph (two buttons are neighbours when they change a common
//! cell; breadth first, neighbours in the order of the cells' buttons), so it is a diamond on a
//! grid and a ball on any graph. Its sub-puzzle has the window's buttons and the cells they
//! change; each cell's target is what the window's presses of the current plan add to it, so a
//! plan of the sub-puzzle swapped in for the window's presses leaves every cell as the current
//! plan does (cells outside the window's reach see no change). Branch and bound
//! ([`crate::solve::search`], at most the level's nodes a window) looks for a sub-plan of
//! fewer presses than the window's; one found is swapped in. Sweeps of every centre in button
//! order run at the smallest size ([`LEVELS`]; the only one below [`LARGER_FROM`] buttons); a
//! sweep that improves nothing moves to the next size (larger windows, more nodes each), one
//! that improves something at a larger size goes back to the smallest; the search ends when a
//! sweep of the largest improves nothing or the budget is spent, so a node budget gives the
//! same plan on every run. Every plan it returns solves the puzzle when the plan it was given
//! does, and keeps the press limits (`highest`); it proves nothing.
//!
//! Before the balls, half of the budget goes to the last rows ([`LAST_ROWS`]): the last
//! buttons of the search's order (on a grid in row order its last four rows, where each button
//! closes two cells at once and the beam's plans cost most) are one window, re-solved by the
//! beam ([`beam_ordered`]) in a breadth-first order along the window ([`sweep_order`]), so
//! that only a few cells are open at once, where the beam over the whole board kept a row open.

use crate::algebra::arith::{add_mod, mul_mod};
use crate::solve::beam::beam_ordered;
use crate::solve::search::{
    Budget, GREEDY_BUTTONS, Goal, Meter, Objective, SearchProblem, button_order, frontier, search,
};

/// The windows' sizes, smallest first, each with the most nodes the branch and bound of one
/// window of that size may take: a sweep that improves nothing moves to the next size, a sweep
/// of a larger size that improves something goes back to the first (its changes open new
/// moves for the cheap windows).
pub(super) const LEVELS: [Level; 4] = [
    Level { buttons: 16, nodes: 1 << 13 },
    Level { buttons: 25, nodes: 1 << 15 },
    Level { buttons: 36, nodes: 1 << 17 },
    Level { buttons: 49, nodes: 1 << 19 },
];

/// Sets of fewer buttons than this sweep the first size only: on the mixed 10×10 grids the
/// larger sizes improved no plan and took branch and bound's nodes (its bounds fell by one);
/// from 14×14 on they improve plans (20 presses on a 20×20 grid at the default budget; on the
/// 100×100 grids, from the beam's better plans, 25,224 → 25,019 and 25,285 → 25,142 presses
/// with the nodes the smallest size's sweeps left).
pub(super) const LARGER_FROM: usize = 150;

/// One size of window.
#[derive(Clone, Copy, Debug)]
pub(super) struct Level {
    /// The buttons of a window.
    pub buttons: usize,
    /// The most nodes the branch and bound of one window may take.
    pub nodes: u64,
}

/// The rows re-solved at the end of the order ([`last_rows`]): the beam's last rows close two
/// cells a button, and its plans there cost most (on the 100×100 mixed grids the last two rows
/// took 449 and 823 presses against about 245 a row before them).
pub(super) const LAST_ROWS: usize = 4;

/// [`last_rows`] gets one node in this many of the window search's.
pub(super) const LAST_ROWS_SHARE: u64 = 2;

/// The greedy search order counts one node per this many of its steps (buttons × entries).
const ORDER_WORK_PER_NODE: u64 = 16;

/// A window's setup counts this many nodes per entry of its buttons' effects, besides the
/// lookahead's building, which the search counts: its sub-puzzle, the search's order and the
/// allocations of both. Measured on a 300×300 mixed grid (AMD EPYC), whose windows of 16
/// buttons search little: 56 µs a window for 767 nodes counted (74 ns a node, against about
/// 50 on deep searches), when the setup counted one node per 16 entries.
const SETUP_NODES_PER_ENTRY: u64 = 4;

/// What the window search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Windowed {
    /// The plan: the one given, with every improved window swapped in.
    pub plan: Vec<u64>,
    /// Nodes spent.
    pub nodes: u64,
}

/// Sweeps of windows over `problem` from the plan `x` (which solves it within `highest`), for
/// the fewest presses, within `budget`.
pub(crate) fn window_search(problem: &SearchProblem, x: &[u64], budget: Budget) -> Windowed {
    let larger = problem.effects.len() >= LARGER_FROM;
    let levels = if larger { &LEVELS[..] } else { &LEVELS[..1] };
    let started = std::time::Instant::now();
    // Half the nodes, and half the time of a time budget (the beam's passes would take it all).
    let share = LAST_ROWS_SHARE;
    let end = last_rows(
        problem,
        x,
        Budget { nodes: budget.nodes / share, time: budget.time.map(|t| t / share as u32) },
    );
    let rest = Budget { nodes: budget.nodes - end.nodes.min(budget.nodes), ..budget.since(started) };
    let mut out = sweeps(problem, &end.plan, rest, levels);
    out.nodes = (out.nodes + end.nodes).min(budget.nodes);
    out
}

/// The last rows ([`LAST_ROWS`]) re-solved: the last buttons of the search's order, as many as
/// `LAST_ROWS` times half its [`frontier`] (a grid's last rows in row order), taken as one
/// window and re-solved by the beam ([`beam_ordered`]) in a [`sweep_order`] along it, within
/// `budget`; the plan it finds is swapped in when it has fewer presses. Not tried when the
/// window would hold every button (a dense system, a small board).
fn last_rows(problem: &SearchProblem, x: &[u64], budget: Budget) -> Windowed {
    let unchanged = |nodes| Windowed { plan: x.to_vec(), nodes };
    let n = problem.effects.len();
    let entries: usize = problem.effects.iter().map(Vec::len).sum();
    let mut meter = Meter::new(budget);
    // The order's greedy choice (up to 2000 buttons) costs buttons × entries, as the beam's.
    let order_work = if n > GREEDY_BUTTONS { entries } else { n.saturating_mul(entries) };
    if !meter.tick_by((order_work as u64 / ORDER_WORK_PER_NODE).max(1)) {
        return unchanged(meter.nodes.min(budget.nodes));
    }
    let (order, _) = button_order(problem);
    let len = frontier(problem, &order).saturating_mul(LAST_ROWS) / 2;
    if len == 0 || len >= n {
        return unchanged(meter.nodes);
    }
    let window = order[n - len..].to_vec();
    let current: u128 = window.iter().map(|&j| u128::from(x[j])).sum();
    let setup: usize = window.iter().map(|&j| problem.effects[j].len()).sum();
    if current == 0 || !meter.tick_by(setup as u64 * SETUP_NODES_PER_ENTRY) {
        return unchanged(meter.nodes.min(budget.nodes));
    }
    let mut windows = Windows::new(problem);
    let sub = windows.sub_puzzle(&window, x);
    let sweep = sweep_order(&sub);
    let found = beam_ordered(&sub, Objective::Total, meter.left(), Some((current, 0)), Some(sweep));
    let nodes = (meter.nodes + found.nodes).min(budget.nodes);
    let mut plan = x.to_vec();
    match found.plan {
        Some(values) if values.iter().map(|&v| u128::from(v)).sum::<u128>() < current => {
            for (&j, v) in window.iter().zip(values) {
                plan[j] = v;
            }
            Windowed { plan, nodes }
        }
        _ => unchanged(nodes),
    }
}

/// A breadth-first order of `problem`'s buttons (neighbours: buttons sharing a cell) from a
/// button far from another (the second of two breadth-first passes), so the order sweeps a
/// long window from one end.
fn sweep_order(problem: &SearchProblem) -> Vec<usize> {
    let n = problem.effects.len();
    let by_cell = problem.buttons_by_cell();
    let bfs = |from: usize| {
        let mut seen = vec![false; n];
        let mut order = Vec::with_capacity(n);
        for root in std::iter::once(from).chain(0..n) {
            if seen[root] {
                continue;
            }
            seen[root] = true;
            order.push(root);
            let mut at = order.len() - 1;
            while at < order.len() {
                let j = order[at];
                at += 1;
                for &(i, _) in &problem.effects[j] {
                    for &(k, _) in &by_cell[i] {
                        if !seen[k] {
                            seen[k] = true;
                            order.push(k);
                        }
                    }
                }
            }
        }
        order
    };
    if n == 0 {
        return Vec::new();
    }
    let far = *bfs(0).last().unwrap_or(&0);
    bfs(far)
}

/// [`window_search`] over the sizes `levels`.
fn sweeps(problem: &SearchProblem, x: &[u64], budget: Budget, levels: &[Level]) -> Windowed {
    let n = problem.effects.len();
    let mut meter = Meter::new(budget);
    let mut plan = x.to_vec();
    let mut windows = Windows::new(problem);
    let mut level = 0;
    'sweeps: loop {
        let mut improved = false;
        for centre in 0..n {
            let window = windows.ball(centre, levels[level].buttons);
            improved |= windows.improve(&window, &mut plan, &mut meter, levels[level].nodes);
            if meter.exhausted {
                break 'sweeps;
            }
        }
        level = match (improved, level) {
            (true, _) => 0,
            (false, l) if l + 1 < levels.len() => l + 1,
            (false, _) => break,
        };
    }
    Windowed { plan, nodes: meter.nodes.min(budget.nodes) }
}

/// The fixed parts of the search and its scratch space.
struct Windows<'a> {
    problem: &'a SearchProblem,
    /// Each cell's buttons and what they add.
    by_cell: Vec<Vec<(usize, u64)>>,
    /// Per button, the window it was last put in (`usize::MAX`: none), for the balls.
    seen: Vec<usize>,
    /// Per cell, its index in the current sub-puzzle (`usize::MAX`: not in it).
    index: Vec<usize>,
    /// Balls built so far (the mark of `seen`).
    built: usize,
}

impl<'a> Windows<'a> {
    fn new(problem: &'a SearchProblem) -> Self {
        Windows {
            problem,
            by_cell: problem.buttons_by_cell(),
            seen: vec![usize::MAX; problem.effects.len()],
            index: vec![usize::MAX; problem.moduli.len()],
            built: 0,
        }
    }

    /// The ball of at most `size` buttons around `centre`, breadth first.
    fn ball(&mut self, centre: usize, size: usize) -> Vec<usize> {
        let mark = self.built;
        self.built += 1;
        let mut ball = vec![centre];
        self.seen[centre] = mark;
        let mut at = 0;
        while at < ball.len() && ball.len() < size {
            let j = ball[at];
            at += 1;
            for &(i, _) in &self.problem.effects[j] {
                for &(k, _) in &self.by_cell[i] {
                    if self.seen[k] != mark && ball.len() < size {
                        self.seen[k] = mark;
                        ball.push(k);
                    }
                }
            }
        }
        ball
    }

    /// Re-solves `window` in `plan`: swaps in a sub-plan of fewer presses when branch and
    /// bound finds one within its nodes. Whether it did.
    fn improve(&mut self, window: &[usize], plan: &mut [u64], meter: &mut Meter, nodes: u64) -> bool {
        let current: u128 = window.iter().map(|&j| u128::from(plan[j])).sum();
        let entries: usize = window.iter().map(|&j| self.problem.effects[j].len()).sum();
        if !meter.tick_by((entries as u64 * SETUP_NODES_PER_ENTRY).max(1)) || current == 0 {
            return false;
        }
        let sub = self.sub_puzzle(window, plan);
        let left = meter.left();
        let budget = Budget { nodes: left.nodes.min(nodes), ..left };
        let found = search(&sub, Goal::Best(Objective::Total), budget, Some((current, 0)));
        meter.tick_by(found.nodes.max(1));
        let Some(values) = found.plan else { return false };
        if values.iter().map(|&v| u128::from(v)).sum::<u128>() >= current {
            return false;
        }
        for (&j, v) in window.iter().zip(values) {
            plan[j] = v;
        }
        true
    }

    /// The sub-puzzle of `window`: its buttons over the cells they change (renumbered), each
    /// cell's target what the window's presses in `plan` add to it.
    fn sub_puzzle(&mut self, window: &[usize], plan: &[u64]) -> SearchProblem {
        let problem = self.problem;
        let mut cells: Vec<usize> = Vec::new();
        let mut moduli = Vec::new();
        let mut rhs: Vec<u64> = Vec::new();
        let mut effects = Vec::with_capacity(window.len());
        for &j in window {
            let mut effect = Vec::with_capacity(problem.effects[j].len());
            for &(i, a) in &problem.effects[j] {
                if self.index[i] == usize::MAX {
                    self.index[i] = cells.len();
                    cells.push(i);
                    moduli.push(problem.moduli[i]);
                    rhs.push(0);
                }
                let (k, m) = (self.index[i], problem.moduli[i]);
                rhs[k] = add_mod(rhs[k], mul_mod(a % m, plan[j] % m, m), m);
                effect.push((k, a));
            }
            effects.push(effect);
        }
        cells.iter().for_each(|&i| self.index[i] = usize::MAX);
        let highest = window.iter().map(|&j| problem.highest[j]).collect();
        SearchProblem { moduli, effects, rhs, highest }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::search::testing::{best_scores, random_effects, solves};

    /// On random systems of up to 2^16 plans, from the best plan's worst rival (a plan found by
    /// enumeration that solves the system with the most presses): the window search's plan
    /// solves the system (simulated), keeps the caps, never has more presses than the plan it
    /// was given, never fewer than the best, and is the same on a second run; windows as large
    /// as the system find the best.
    #[test]
    fn windows_improve_plans_and_never_beat_the_best() {
        use rand::{RngExt, SeedableRng, rngs::StdRng};
        let mut rng = StdRng::seed_from_u64(47);
        let (mut tried, mut improved, mut best) = (0, 0, 0);
        for round in 0..400 {
            let choices: &[u64] = [&[2, 3, 4, 6, 8, 9, 12][..], &[4, 8, 9], &[5, 7]][round % 3];
            let cells = rng.random_range(1..7);
            let moduli: Vec<u64> = (0..cells).map(|_| choices[rng.random_range(0..choices.len())]).collect();
            let n = rng.random_range(1..7);
            let effects = random_effects(&mut rng, &moduli, n, 0.6);
            let highest: Vec<u64> = (0..n).map(|_| rng.random_range(0..6)).collect();
            let rhs: Vec<u64> = moduli.iter().map(|&m| rng.random_range(0..m)).collect();
            let problem = SearchProblem { moduli, effects, rhs, highest };
            let Some(worst) = worst_plan(&problem) else { continue };
            let truth = best_scores(&problem)[0].expect("a plan").0;
            let budget = Budget::of_nodes(1_000_000);
            let out = window_search(&problem, &worst, budget);
            assert_eq!(out, window_search(&problem, &worst, budget), "round {round}");
            let what = format!("round {round} {problem:?} {worst:?} {:?}", out.plan);
            assert!(solves(&problem, &out.plan), "{what}");
            assert!(out.plan.iter().zip(&problem.highest).all(|(v, h)| v <= h), "{what}");
            let (before, after) = (total(&worst), total(&out.plan));
            assert!(after <= before && after >= truth, "{what}");
            // Windows of 16 buttons cover these systems whole: the first window finds the best
            // within its nodes.
            assert_eq!(after, truth, "{what}");
            tried += 1;
            improved += usize::from(after < before);
            best += usize::from(after == truth);
        }
        assert!(tried > 80 && improved > 60, "{improved} of {tried} improved");
        assert_eq!(best, tried);
    }

    /// A mixed grid of `rows`×`cols` (moduli 2..=`top`, self weight `own`, neighbours 1, caps
    /// `cap`) and a random plan of presses up to `cap` whose sums are its targets.
    fn grid(
        rng: &mut rand::rngs::StdRng,
        (rows, cols): (usize, usize),
        own: u64,
        cap: u64,
        top: u64,
    ) -> (SearchProblem, Vec<u64>) {
        use rand::RngExt;
        let cells = rows * cols;
        let moduli: Vec<u64> = (0..cells).map(|_| rng.random_range(2..=top)).collect();
        let effects: Vec<Vec<(usize, u64)>> = (0..cells)
            .map(|b| {
                let (r, c) = (b / cols, b % cols);
                let mut e = vec![(b, own % moduli[b])];
                [
                    (r > 0, b.wrapping_sub(cols)),
                    (r + 1 < rows, b + cols),
                    (c > 0, b.wrapping_sub(1)),
                    (c + 1 < cols, b + 1),
                ]
                .into_iter()
                .filter(|&(ok, _)| ok)
                .for_each(|(_, i)| e.push((i, 1)));
                e.retain(|&(_, a)| a != 0);
                e
            })
            .collect();
        let x: Vec<u64> = (0..cells).map(|_| rng.random_range(0..=cap)).collect();
        let mut rhs = vec![0u64; cells];
        for (j, e) in effects.iter().enumerate() {
            for &(i, a) in e {
                rhs[i] = add_mod(rhs[i], mul_mod(a, x[j] % moduli[i], moduli[i]), moduli[i]);
            }
        }
        (SearchProblem { moduli, effects, rhs, highest: vec![cap; cells] }, x)
    }

    /// On mixed grids of 12×12 (windows of a part of the board only), from a random plan:
    /// every accepted window keeps the plan a solution (simulated at the end) and the total
    /// falls.
    #[test]
    fn windows_keep_grid_plans_solving() {
        use rand::SeedableRng;
        let mut rng = rand::rngs::StdRng::seed_from_u64(48);
        for round in 0..4 {
            let (problem, x) = grid(&mut rng, (12, 12), 1 + round as u64 % 2, 40, 12);
            let out = window_search(&problem, &x, Budget::of_nodes(3_000_000));
            assert!(solves(&problem, &out.plan), "round {round}");
            assert!(total(&out.plan) < total(&x), "round {round}: {} from {}", total(&out.plan), total(&x));
            assert!(out.nodes <= 3_000_000);
        }
    }

    /// On a mixed 20×20 grid from a random plan, at 20 million nodes: the first size of
    /// window alone stops on a plan the larger sizes improve (real totals, the same on every
    /// run), and both plans solve the grid.
    #[test]
    fn larger_windows_improve_what_the_smallest_leave() {
        use rand::SeedableRng;
        let mut rng = rand::rngs::StdRng::seed_from_u64(49);
        let (problem, x) = grid(&mut rng, (20, 20), 1, 11, 12);
        let budget = Budget::of_nodes(20_000_000);
        let small = sweeps(&problem, &x, budget, &LEVELS[..1]);
        let all = sweeps(&problem, &x, budget, &LEVELS);
        assert!(solves(&problem, &small.plan) && solves(&problem, &all.plan));
        assert!(all.nodes <= 20_000_000);
        assert_eq!((total(&x), total(&small.plan), total(&all.plan)), (2185, 2126, 2019));
    }

    /// Mixed grids of 3×3 and 3×4 (moduli 2..=7, caps 1 to 3) against enumeration, from the
    /// worst plan: the windows' plan solves the grid within its caps and has the fewest
    /// presses (windows of 16 buttons cover these grids whole).
    #[test]
    fn windows_on_small_grids_agree_with_enumeration() {
        use rand::SeedableRng;
        let mut rng = rand::rngs::StdRng::seed_from_u64(50);
        for round in 0..24 {
            let (rows, cols, cap) =
                if round % 2 == 0 { (3, 3, 1 + round as u64 % 3) } else { (3, 4, 1 + round as u64 % 2) };
            let (problem, _) = grid(&mut rng, (rows, cols), 1 + round as u64 % 3, cap, 7);
            let worst = worst_plan(&problem).expect("the random plan solves it");
            let truth = best_scores(&problem)[0].expect("a plan").0;
            let out = window_search(&problem, &worst, Budget::of_nodes(1_000_000));
            assert!(solves(&problem, &out.plan), "round {round}");
            assert!(out.plan.iter().zip(&problem.highest).all(|(v, h)| v <= h), "round {round}");
            assert_eq!(total(&out.plan), truth, "round {round}");
        }
    }

    /// On mixed grids of 12×12 to 24×24 (both self weights), from the beam's plan: the last
    /// rows' plan solves the grid (simulated), keeps the caps, never has more presses, stays
    /// within its nodes and is the same on a second run; on most grids it has fewer presses
    /// (the beam's last rows are its costliest).
    #[test]
    fn last_rows_improve_the_beams_plans() {
        use rand::SeedableRng;
        let mut rng = rand::rngs::StdRng::seed_from_u64(51);
        let (mut improved, mut saved) = (0, 0);
        for round in 0..8 {
            let side = 12 + 4 * (round / 2);
            let (problem, _) = grid(&mut rng, (side, side), 1 + round as u64 % 2, 200, 12);
            let beamed =
                crate::solve::beam::beam(&problem, Objective::Total, Budget::of_nodes(4_000_000), None);
            let x = beamed.plan.expect("the beam closes a mixed grid");
            let budget = Budget::of_nodes(2_000_000);
            let out = last_rows(&problem, &x, budget);
            let what = format!("round {round}: {side}×{side}");
            assert_eq!(out, last_rows(&problem, &x, budget), "{what}");
            assert!(solves(&problem, &out.plan), "{what}");
            assert!(out.plan.iter().zip(&problem.highest).all(|(v, h)| v <= h), "{what}");
            assert!(out.nodes <= budget.nodes && out.nodes > 0, "{what}");
            assert!(total(&out.plan) <= total(&x), "{what}");
            // Only the last rows change.
            let (order, _) = button_order(&problem);
            let len = frontier(&problem, &order) * LAST_ROWS / 2;
            assert!(len < problem.effects.len(), "{what}");
            let fixed = &order[..problem.effects.len() - len];
            assert!(fixed.iter().all(|&j| out.plan[j] == x[j]), "{what}");
            improved += usize::from(total(&out.plan) < total(&x));
            saved += total(&x) - total(&out.plan);
        }
        assert!(improved >= 6, "{improved} of 8 improved, {saved} presses saved");
    }

    /// The sweep order takes every button once, and along a long band of a grid (3×40) keeps
    /// few cells open at once, where the row order keeps a whole row open.
    #[test]
    fn the_sweep_order_goes_along_a_band() {
        use rand::SeedableRng;
        let mut rng = rand::rngs::StdRng::seed_from_u64(52);
        let (problem, _) = grid(&mut rng, (3, 40), 1, 5, 12);
        let order = sweep_order(&problem);
        let mut sorted = order.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..120).collect::<Vec<_>>());
        let rows: Vec<usize> = (0..120).collect();
        assert_eq!(frontier(&problem, &rows), 80);
        assert!(frontier(&problem, &order) <= 12, "{}", frontier(&problem, &order));
        assert_eq!(
            sweep_order(&SearchProblem { moduli: vec![], effects: vec![], rhs: vec![], highest: vec![] }),
            Vec::<usize>::new()
        );
    }

    /// On mixed 7×7 grids from random plans (presses up to 30): the last rows' plan solves the
    /// grid, changes only the last band's buttons, and has no fewer presses than the band's
    /// best completion, proven by branch and bound over the band's sub-puzzle (and, where that
    /// proves an improvement exists, it finds one on most grids); a system too small for a last
    /// band (every button in it) is left as it is.
    #[test]
    fn last_rows_never_beat_the_bands_best() {
        use rand::SeedableRng;
        let mut rng = rand::rngs::StdRng::seed_from_u64(53);
        let (mut proven, mut improvable, mut improved, mut reached) = (0, 0, 0, 0);
        for round in 0..24 {
            let (problem, x) = grid(&mut rng, (7, 7), 1 + round as u64 % 2, 30, 12);
            let out = last_rows(&problem, &x, Budget::of_nodes(2_000_000));
            assert!(solves(&problem, &out.plan), "round {round}");
            let (order, _) = button_order(&problem);
            let len = frontier(&problem, &order) * LAST_ROWS / 2;
            let (fixed, band) = order.split_at(problem.effects.len() - len);
            assert!(fixed.iter().all(|&j| out.plan[j] == x[j]), "round {round}");
            let sub = Windows::new(&problem).sub_puzzle(band, &x);
            let exact = search(&sub, Goal::Best(Objective::Total), Budget::of_nodes(50_000_000), None);
            if !exact.complete {
                continue;
            }
            proven += 1;
            let best = exact.score.expect("the plan's own band is a completion").0;
            let (before, after) = (total(&x), total(&out.plan));
            let outside = before - band.iter().map(|&j| u128::from(x[j])).sum::<u128>();
            assert!(after >= outside + best && after <= before, "round {round}: {after} {outside} {best}");
            improvable += usize::from(outside + best < before);
            improved += usize::from(after < before);
            reached += usize::from(after == outside + best);
        }
        let counts = format!("{proven} proven, {improvable} improvable, {improved} improved, {reached} best");
        assert!(proven >= 10 && improvable >= 10 && improved * 4 >= improvable * 3, "{counts}");
        assert!(reached * 2 >= proven, "{counts}");
        let (problem, x) = grid(&mut rng, (2, 2), 1, 3, 7);
        assert_eq!(last_rows(&problem, &x, Budget::of_nodes(1_000_000)).plan, x);
    }

    fn total(x: &[u64]) -> u128 {
        x.iter().map(|&v| u128::from(v)).sum()
    }

    /// The plan of most presses that solves `problem` within its caps, by enumeration.
    fn worst_plan(problem: &SearchProblem) -> Option<Vec<u64>> {
        let n = problem.effects.len();
        let mut x = vec![0u64; n];
        let mut worst: Option<Vec<u64>> = None;
        loop {
            if solves(problem, &x) && worst.as_ref().is_none_or(|w| total(w) < total(&x)) {
                worst = Some(x.clone());
            }
            let mut k = 0;
            while k < n && x[k] == problem.highest[k] {
                x[k] = 0;
                k += 1;
            }
            if k == n {
                return worst;
            }
            x[k] += 1;
        }
    }
}
