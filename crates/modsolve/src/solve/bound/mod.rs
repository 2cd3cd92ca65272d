//! Proven lower bounds on the best score of a puzzle's plans, for every objective.
//!
//! A plan is `0 <= x_j <= hi_j` with `Σ_j a_ij·x_j ≡ d_i (mod m_i)` for every cell. Three
//! relaxations, each a valid bound on its own:
//!
//! - *Groups* (one cell, or two cells that share a button): the least cost of the group's
//!   buttons alone meeting the group's congruences, by dynamic programming over the group's
//!   residues (the modular reasoning a linear relaxation does not see). Cost is `Σ x_j` for
//!   `total`, `Σ [x_j > 0]` for `buttons`, and `max x_j` for `max`, whose bound is the largest
//!   group's. A group that cannot be met at all proves there is no plan.
//! - *Packing*: groups whose buttons are disjoint add up (`total`, `buttons`).
//! - *Linear programme*: minimise `Σ w_j` over `0 <= w_j <= U_j` subject to every group's cut
//!   `Σ_{j∈B(G)} w_j >= c_G` and, for `total`, every cell's rows `Σ_j (c·a_ij mod m_i)·x_j >=
//!   c·d_i mod m_i` (the left side is a non-negative number congruent to the right), with the
//!   pairs' cuts of [`cuts`] on boards of up to a thousand cells. It is solved by the
//!   interior-point method of [`ipm`] (`clarabel`; the simplex of `microlp` when that fails, on
//!   puzzles of up to [`LP_BUTTONS`] buttons); the bound is then recomputed exactly, in
//!   integers, from the dual solution rounded down to multiples of 2^-20 (any `y >= 0` gives the
//!   valid bound `e·y − Σ_j U_j·max(0, (Cᵀy)_j − 1)`), so floating point can weaken it but never
//!   make it wrong.
//! - *Lagrangian* ([`lagrange`]), for `total` past [`LP_BUTTONS`] buttons (beside the programme
//!   up to [`IPM_BUTTONS`]; the larger is the bound): every button's press
//!   is shared among overlapping groups of cells (single cells on large boards), each group's
//!   least shared cost by dynamic programming, the shares raised by subgradient steps and every
//!   bound evaluated in integers; then, on boards with [`lines`] (a grid's rows and columns),
//!   the same over the lines, their shares started from the groups'. Its work grows linearly
//!   with the board.
//!
//! All work is bounded by fixed counts (no clock), so the same puzzle gets the same bound on
//! every machine.

use num_integer::Integer;

use super::search::{
    GROUP_CELLS, Lookahead, Objective, SHARE_UNIT, SearchProblem, SharedGroup, button_order,
};
use crate::algebra::arith::{mul_mod, sub_mod};

/// Dynamic-programming steps spent on groups of two cells at most (single cells always run).
const PAIR_WORK: u64 = 60_000_000;
/// Group states (the product of the group's moduli) at most.
const GROUP_STATES: u64 = 4096;
/// The linear programme is the bound on puzzles of at most this many buttons (with the simplex
/// as a fallback: it grows faster than the search's budget allows past about a thousand
/// buttons, a 40×40 torus mod 6, 1600 buttons, taking 18 s).
const LP_BUTTONS: usize = 1000;
/// Past [`LP_BUTTONS`], the programme (the cells' rows and the groups' cuts, by the
/// interior-point method alone) is still worked out up to this many buttons, beside the
/// Lagrangian bound (a 100×100 grid's 48,163 cell rows alone in 2.0 s; on a 140×140 mixed grid,
/// 19,600 buttons, the default run takes 6.8 s instead of 6.5 s, 9.3 s instead of 7.1 s with the
/// other core busy, and 320 MB instead of 150 MB, for a bound of 18,456 presses instead of the
/// Lagrangian's 17,358; AMD EPYC).
const IPM_BUTTONS: usize = 20_000;
/// Within [`LP_BUTTONS`], the Lagrangian over lines runs beside the programme from this many
/// buttons: mixed grids of self weight 2, 20×20 325 → 334 and 329 → 343, 30×30 703 → 731 and
/// 717 → 753 (AMD EPYC, 400 rounds: about 2 s more on the bound's core, which still ends before
/// the window search's); below, the programme's pairs' cuts and branch and bound's floor see
/// more (14×14: 184 → 185 for 2 s more, 10×10 nothing).
const LINES_FROM: usize = 400;
/// All mod 2, at most this many buttons: there the programme is degenerate and slow (1521
/// buttons of 39×39 Lights Out took 15 s, against 0.5 s for 900 buttons of mixed moduli), and
/// the mod-2 walk has bounds of its own.
const LP_BUTTONS_MOD_2: usize = 400;
/// The programme has at most this many rows ...
const LP_ROWS: usize = 200_000;
/// ... and at most this many nonzero entries in its rows (a 140×140 mixed grid's fit), or
/// [`DENSE_ENTRIES`] when its rows average more than [`DENSE_ROW`] entries: dense rows fill the
/// interior-point method's factorisation in (dense 300 took 2.1 s against 0.07 s under a budget
/// of 1000 nodes, for a bound of 3 presses against 2).
const LP_ENTRIES: usize = 1_000_000;
/// The simplex (the fallback when the interior-point method fails) takes programmes of at most
/// this many rows and entries: the limits the programme had before it grew for the
/// interior-point method alone.
const SIMPLEX_ROWS: usize = 120_000;
const SIMPLEX_ENTRIES: usize = 600_000;
const DENSE_ENTRIES: usize = 300_000;
const DENSE_ROW: usize = 32;
/// Cell rows per cell: the multiples `c = 1..=ROW_MULTIPLES` (and `m − 1`).
const ROW_MULTIPLES: u64 = 12;
/// The dual is rounded down to multiples of `1 / DENOMINATOR`.
const DENOMINATOR: i128 = 1 << 20;
/// The shared lookahead is built for puzzles of at most this many buttons, with a linear
/// programme at every depth up to [`SHARED_PROGRAMMES`] of them (every `n / SHARED_PROGRAMMES`-th
/// depth beyond, the depths between reusing the last one's shares), and at most this many
/// table entries.
const SHARED_BUTTONS: usize = 200;
/// ... and whose buttons change at most this many cells on average.
const SHARED_EFFECTS: usize = 32;
const SHARED_PROGRAMMES: usize = 100;
const SHARED_ENTRIES: usize = 1 << 22;

/// What the relaxations prove about the best plan.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    /// No plan meets the congruences within the press limits.
    NoPlan,
    /// Every plan's primary score (total presses, largest press, or buttons pressed) is at
    /// least this.
    AtLeast(u128),
}

/// A group's buttons and its least cost.
#[derive(Clone)]
struct Cut {
    buttons: Vec<usize>,
    cost: u128,
}

/// Each cell's own cut for `objective` (`None`: a cell no plan meets), worked out once for
/// [`quick_bound`] and [`lower_bound_with`] (3.6 s on a 1000×1000 grid), with each cell's
/// buttons and weights, summed per button and reduced.
pub(crate) struct Singles {
    objective: Objective,
    by_cell: Vec<Vec<(usize, u64)>>,
    cuts: Option<Vec<Cut>>,
}

/// The single cells' cuts of `problem` for `objective`.
pub(crate) fn singles(problem: &SearchProblem, objective: Objective) -> Singles {
    let by_cell = reduced_by_cell(problem);
    let cuts = single_cuts(problem, &by_cell, objective);
    Singles { objective, by_cell, cuts }
}

/// The lower bound on the primary score of `objective` over the plans of `problem` (its
/// `highest` are the largest values allowed per button). Cheap for small puzzles; the work is
/// capped by fixed counts on large ones.
pub(crate) fn lower_bound(problem: &SearchProblem, objective: Objective) -> Bound {
    lower_bound_with(problem, &singles(problem, objective))
}

/// [`lower_bound`] from the single cells' cuts already worked out (for `singles.objective`).
pub(crate) fn lower_bound_with(problem: &SearchProblem, singles: &Singles) -> Bound {
    let objective = singles.objective;
    let cells = problem.moduli.len();
    let n = problem.effects.len();
    let by_cell = &singles.by_cell;
    let Some(single) = &singles.cuts else { return Bound::NoPlan };
    // The single cells' cuts, and the pairs' after them (copied only when there are pairs: a
    // 1000×1000 grid's million cuts are not).
    let mut cuts = std::borrow::Cow::Borrowed(single.as_slice());
    // Pairs of cells sharing a button, those sharing most first, within a fixed amount of work.
    let mut pairs: Vec<(usize, usize, usize)> = Vec::new();
    if cells <= 20_000 {
        let mut cells_of: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (i, list) in by_cell.iter().enumerate() {
            for &(j, _) in list {
                cells_of[j].push(i);
            }
        }
        let mut shared = std::collections::BTreeMap::<(usize, usize), usize>::new();
        for list in &cells_of {
            if list.len() > 64 {
                continue;
            }
            for (k, &a) in list.iter().enumerate() {
                for &b in &list[k + 1..] {
                    *shared.entry((a.min(b), a.max(b))).or_default() += 1;
                }
            }
        }
        pairs = shared.into_iter().map(|((a, b), s)| (a, b, s)).collect();
        pairs.sort_by_key(|&(a, b, s)| (std::cmp::Reverse(s), a, b));
    }
    let mut work = PAIR_WORK;
    for &(a, b, _) in &pairs {
        crate::bounded::checkpoint();
        if work == 0 {
            break;
        }
        match group_cost(problem, by_cell, &[a, b], objective, &mut work) {
            None => {}
            Some(None) => return Bound::NoPlan,
            Some(Some(0)) => {}
            Some(Some(c)) => {
                let mut buttons: Vec<usize> = by_cell[a].iter().chain(&by_cell[b]).map(|&(j, _)| j).collect();
                buttons.sort_unstable();
                buttons.dedup();
                cuts.to_mut().push(Cut { buttons, cost: c });
            }
        }
    }
    let largest = cuts.iter().map(|c| c.cost).max().unwrap_or(0);
    if objective == Objective::Max {
        return Bound::AtLeast(largest);
    }
    let mut best = largest.max(packing(&cuts, n));
    let lp_buttons = if problem.moduli.iter().all(|&m| m == 2) { LP_BUTTONS_MOD_2 } else { LP_BUTTONS };
    // The programme, where it is solved; the Lagrangian bound past its size, or where it was not
    // (too costly to factorise).
    let tried =
        n <= lp_buttons || n <= IPM_BUTTONS && objective == Objective::Total && lp_buttons == LP_BUTTONS;
    let solved = if tried { linear_bound(problem, by_cell, &cuts, objective) } else { Ok(None) };
    if let Ok(Some(lp)) = solved {
        best = best.max(lp);
    }
    // Within the programme's size, from [`LINES_FROM`] buttons, the Lagrangian too where the
    // board has lines: they see every pair of neighbours along a row or a column exactly.
    let lines = || (LINES_FROM..=lp_buttons).contains(&n) && !lines::find_lines(problem, by_cell).is_empty();
    if objective == Objective::Total
        && lp_buttons == LP_BUTTONS
        && (n > lp_buttons || solved.is_err() || lines())
    {
        // Past the programme's size (not all mod 2: the mod-2 walk has bounds of its own), the
        // Lagrangian bound of single cells (or larger groups),
        // whose work grows only linearly with the puzzle.
        match lagrange::lagrangian_bound(problem, by_cell) {
            Some(lagrange::Lagrange::NoPlan) => return Bound::NoPlan,
            Some(lagrange::Lagrange::AtLeast(b)) => best = best.max(b),
            None => {}
        }
    }
    Bound::AtLeast(best)
}

/// Each cell's buttons with their weights, summed per button, reduced, zeros left out.
fn reduced_by_cell(problem: &SearchProblem) -> Vec<Vec<(usize, u64)>> {
    let mut by_cell = problem.buttons_by_cell();
    for list in &mut by_cell {
        list.retain(|&(_, a)| a != 0);
    }
    by_cell
}

/// Each cell's own cut (the least cost of its buttons meeting it alone); `None` when a cell
/// cannot be met at all (no plan).
fn single_cuts(
    problem: &SearchProblem,
    by_cell: &[Vec<(usize, u64)>],
    objective: Objective,
) -> Option<Vec<Cut>> {
    let mut cuts: Vec<Cut> = Vec::new();
    for i in 0..problem.moduli.len() {
        crate::bounded::checkpoint();
        let mut unlimited = u64::MAX;
        let Some(cost) = group_cost(problem, by_cell, &[i], objective, &mut unlimited) else {
            continue;
        };
        match cost {
            None => return None,
            Some(0) => {}
            Some(c) => cuts.push(Cut { buttons: by_cell[i].iter().map(|&(j, _)| j).collect(), cost: c }),
        }
    }
    Some(cuts)
}

/// The bound of single cells alone, for `total` and `buttons`: the cells whose buttons are
/// disjoint, taken greedily (by cost, and in cell order) add up. Linear in the puzzle, so a
/// plan already at it needs no search (a 200×200 King board mod 3 to all ones: the algebra's
/// plan of 4489 presses meets it).
/// The cuts are those of [`singles`].
pub(crate) fn quick_bound(problem: &SearchProblem, singles: &Singles) -> Bound {
    let objective = singles.objective;
    let Some(cuts) = &singles.cuts else { return Bound::NoPlan };
    let n = problem.effects.len();
    let largest = cuts.iter().map(|c| c.cost).max().unwrap_or(0);
    if objective == Objective::Max {
        return Bound::AtLeast(largest);
    }
    let mut used = vec![false; n];
    let mut in_order = 0u128;
    for cut in cuts {
        if cut.buttons.iter().all(|&j| !used[j]) {
            cut.buttons.iter().for_each(|&j| used[j] = true);
            in_order += cut.cost;
        }
    }
    Bound::AtLeast(largest.max(packing(cuts, n)).max(in_order))
}

/// The bound of one pass over the cells, for puzzles of any size (no search problem is built):
/// cells not at their target whose buttons are pairwise disjoint, taken greedily in cell order,
/// each need presses of their own. A cell's own cost is the fewest presses of its buttons that
/// add what it lacks, ignoring every other cell (worked out for moduli up to 64, else 1).
/// `max`: 1 when any cell is not at its target. Buttons of limit 0 take no part. Staged presses
/// (a cut press is not a full one) have no bound here.
pub(crate) fn counting_bound(puzzle: &crate::model::Puzzle, objective: Objective) -> Option<u128> {
    if puzzle.phases.is_some() {
        return None;
    }
    let cells = puzzle.cell_count();
    let n = puzzle.button_count();
    let usable = |j: usize| puzzle.max_presses.as_ref().is_none_or(|l| l[j] > 0);
    let lacks = |i: usize| {
        let m = puzzle.moduli.get(i);
        sub_mod(puzzle.target.get(i) % m, puzzle.start.get(i) % m, m)
    };
    if !(0..cells).any(|i| lacks(i) != 0) {
        return Some(0);
    }
    if objective == Objective::Max {
        return Some(1);
    }
    // Each cell's buttons and amounts, in compressed rows (u32 where they fit), read from the
    // model in place (no list a button: a board of millions of buttons).
    let mut degree = vec![0u32; cells + 1];
    for j in (0..n).filter(|&j| usable(j)) {
        puzzle.for_each_effect(j, |i, _| degree[i + 1] += 1);
    }
    for i in 0..cells {
        degree[i + 1] += degree[i];
    }
    let mut fill = degree.clone();
    let mut entries = vec![(0u32, 0u64); degree[cells] as usize];
    for j in (0..n).filter(|&j| usable(j)) {
        puzzle.for_each_effect(j, |i, a| {
            entries[fill[i] as usize] = (j as u32, a);
            fill[i] += 1;
        });
    }
    drop(fill);
    let mut used = vec![false; n];
    // Fewest summands reaching each residue, by `[m, amounts...]`.
    let mut costs = std::collections::HashMap::<Vec<u64>, Vec<u32>>::new();
    let (mut row, mut key) = (Vec::new(), Vec::new());
    let mut sum = 0u128;
    for i in 0..cells {
        if i % 65_536 == 0 {
            crate::bounded::checkpoint();
        }
        let r = lacks(i);
        if r == 0 {
            continue;
        }
        let m = puzzle.moduli.get(i);
        // Merged effects: a cell a button lists twice (or reaches twice on a small torus) takes
        // the sum, once (a button's entries are next to each other: rows fill button by button).
        row.clear();
        for &(j, a) in &entries[degree[i] as usize..degree[i + 1] as usize] {
            match row.last_mut() {
                Some((last, total)) if *last == j => *total = crate::algebra::arith::add_mod(*total, a, m),
                _ => row.push((j, a)),
            }
        }
        row.retain(|&(_, a)| a != 0);
        if row.iter().any(|&(j, _)| used[j as usize]) {
            continue;
        }
        row.iter().for_each(|&(j, _)| used[j as usize] = true);
        let cost = if objective == Objective::Total && m <= 64 {
            key.clear();
            key.push(m);
            key.extend(row.iter().map(|&(_, a)| a));
            key[1..].sort_unstable();
            key.dedup();
            if !costs.contains_key(key.as_slice()) {
                // Breadth first from 0.
                let (size, amounts) = (m as usize, &key[1..]);
                let mut d = vec![u32::MAX; size];
                d[0] = 0;
                let mut queue = std::collections::VecDeque::from([0usize]);
                while let Some(v) = queue.pop_front() {
                    for &a in amounts {
                        let w = (v + a as usize) % size;
                        if d[w] == u32::MAX {
                            d[w] = d[v] + 1;
                            queue.push_back(w);
                        }
                    }
                }
                costs.insert(key.clone(), d);
            }
            match costs[key.as_slice()][r as usize] {
                // No press of its buttons gives it what it lacks: no bound is claimed here
                // (the algebra decides solvability).
                u32::MAX => 1,
                d => u128::from(d),
            }
        } else {
            1
        };
        sum += cost;
    }
    Some(sum)
}

/// Cuts with pairwise disjoint buttons, greedily from the costliest: their costs add up.
fn packing(cuts: &[Cut], buttons: usize) -> u128 {
    let mut order: Vec<usize> = (0..cuts.len()).collect();
    order.sort_by_key(|&k| (std::cmp::Reverse(cuts[k].cost), cuts[k].buttons.len(), k));
    let mut used = vec![false; buttons];
    let mut sum = 0u128;
    for k in order {
        if cuts[k].buttons.iter().all(|&j| !used[j]) {
            cuts[k].buttons.iter().for_each(|&j| used[j] = true);
            sum += cuts[k].cost;
        }
    }
    sum
}

/// The least cost of `group`'s buttons meeting its cells' congruences, ignoring every other
/// cell: `Some(None)` when they cannot, `None` when the group is too large to compute (more
/// than [`GROUP_STATES`] states or `work` steps left).
fn group_cost(
    problem: &SearchProblem,
    by_cell: &[Vec<(usize, u64)>],
    group: &[usize],
    objective: Objective,
    work: &mut u64,
) -> Option<Option<u128>> {
    let moduli: Vec<u64> = group.iter().map(|&i| problem.moduli[i]).collect();
    let states = moduli.iter().try_fold(1u64, |s, &m| s.checked_mul(m).filter(|&s| s <= GROUP_STATES))?;
    let states = states as usize;
    let mut buttons: Vec<usize> = group.iter().flat_map(|&i| by_cell[i].iter().map(|&(j, _)| j)).collect();
    buttons.sort_unstable();
    buttons.dedup();
    // Each button's weights on the group's cells and its period there.
    let weight = |j: usize, k: usize| by_cell[group[k]].iter().find(|&&(b, _)| b == j).map_or(0, |&(_, a)| a);
    // A state is the residues in mixed radix, first cell fastest.
    let encode =
        |r: &[u64]| r.iter().zip(&moduli).rev().fold(0usize, |s, (&v, &m)| s * m as usize + v as usize);
    let target = encode(&group.iter().map(|&i| problem.rhs[i] % problem.moduli[i]).collect::<Vec<_>>());
    let mut steps_needed = 0u64;
    let mut plans: Vec<(Vec<usize>, u64)> = Vec::new();
    for &j in &buttons {
        let w: Vec<u64> = (0..group.len()).map(|k| weight(j, k)).collect();
        let period = w.iter().zip(&moduli).fold(1u64, |l, (&a, &m)| l.lcm(&(m / a.gcd(&m))));
        let top = problem.highest[j].min(period - 1);
        // The state after one more press, from each state.
        let shift: Vec<usize> = (0..states)
            .map(|s| {
                let (mut rest, mut t, mut radix) = (s, 0usize, 1usize);
                for (&a, &m) in w.iter().zip(&moduli) {
                    let v = rest as u64 % m;
                    rest /= m as usize;
                    t += ((v as u128 + a as u128) % m as u128) as usize * radix;
                    radix *= m as usize;
                }
                t
            })
            .collect();
        steps_needed = steps_needed.saturating_add((states as u64).saturating_mul(top.saturating_add(1)));
        plans.push((shift, top));
    }
    if steps_needed > *work {
        return None;
    }
    *work -= steps_needed;
    const NONE: u128 = u128::MAX;
    let mut cost = vec![NONE; states];
    cost[0] = 0;
    for (shift, top) in &plans {
        let mut next = vec![NONE; states];
        for (s, &here) in cost.iter().enumerate() {
            if here == NONE {
                continue;
            }
            let mut t = s;
            for x in 0..=*top {
                let c = match objective {
                    Objective::Total => here + x as u128,
                    Objective::Buttons => here + u128::from(x > 0),
                    Objective::Max => here.max(x as u128),
                };
                if c < next[t] {
                    next[t] = c;
                }
                t = shift[t];
            }
        }
        cost = next;
    }
    Some((cost[target] != NONE).then_some(cost[target]))
}

/// Whether a programme of these rows is past `most_rows` or `most_entries` (or
/// [`DENSE_ENTRIES`] with dense rows).
fn too_large(rows: &[Row], most_rows: usize, most_entries: usize) -> bool {
    let entries = rows.iter().map(|(coeffs, _)| coeffs.len()).sum::<usize>();
    rows.len() > most_rows
        || entries > most_entries
        || (entries > DENSE_ENTRIES && entries > DENSE_ROW * rows.len())
}

/// The programme was not solved: its factorisations would cost more than
/// [`ipm::FACTOR_WORK`].
struct TooCostly;

/// The linear programme's bound, recomputed exactly from its dual; `None` when it was not
/// solved (too large, numbers too large, or the solver failed), [`TooCostly`] when its
/// factorisations would cost too much.
fn linear_bound(
    problem: &SearchProblem,
    by_cell: &[Vec<(usize, u64)>],
    cuts: &[Cut],
    objective: Objective,
) -> Result<Option<u128>, TooCostly> {
    let n = problem.effects.len();
    // Rows `Σ coeff·w >= rhs`, every number small enough for exact i128 sums below.
    let mut rows: Vec<Row> = Vec::new();
    for cut in cuts {
        let Ok(cost) = u64::try_from(cut.cost) else { return Ok(None) };
        rows.push((cut.buttons.iter().map(|&j| (j, 1)).collect(), cost));
    }
    let upper: Vec<u64> = match objective {
        Objective::Total => problem.highest.clone(),
        _ => vec![1; n],
    };
    if objective == Objective::Total {
        for (i, list) in by_cell.iter().enumerate() {
            let m = problem.moduli[i];
            let d = problem.rhs[i] % m;
            if list.is_empty() || m > 1 << 20 {
                continue;
            }
            let multiples = (1..=ROW_MULTIPLES.min(m - 1)).chain((m - 1 > ROW_MULTIPLES).then_some(m - 1));
            for c in multiples {
                let rhs = c * d % m;
                if rhs == 0 {
                    continue;
                }
                let coeffs: Vec<(usize, u64)> =
                    list.iter().map(|&(j, a)| (j, c * a % m)).filter(|&(_, a)| a != 0).collect();
                rows.push((coeffs, rhs));
            }
        }
    }
    if rows.is_empty() || too_large(&rows, LP_ROWS, LP_ENTRIES) || upper.iter().any(|&u| u > 1 << 32) {
        return Ok(None);
    }
    // A programme whose factorisations would cost too much (rows joining buttons far apart) is
    // not solved; the separation's rounds share what the programme's work allows.
    let work = match ipm::factor_work(&rows, n) {
        Some(w) if w <= ipm::FACTOR_WORK => w,
        Some(_) => return Err(TooCostly),
        None => return Ok(None),
    };
    if objective == Objective::Total && problem.moduli.len() <= cuts::CELLS {
        let rounds = (ipm::PROGRAMME_WORK / work.max(1)).saturating_sub(1);
        rows = cuts::with_pair_cuts(problem, by_cell, rows, &upper, rounds);
    }
    let solved = match ipm::solve(&rows, &upper) {
        Some((_, y)) => y,
        None if n <= LP_BUTTONS && !too_large(&rows, SIMPLEX_ROWS, SIMPLEX_ENTRIES) => {
            let Some(y) = solve_dual(&rows, &upper) else { return Ok(None) };
            y
        }
        None => return Ok(None),
    };
    Ok(exact_bound(&rows, &upper, &solved))
}

/// The bound that dual values `y` (one per row, any non-negative numbers) prove for the
/// programme of `rows` over `0 <= w <= upper`, worked out exactly in integers after rounding
/// `y` down to multiples of `1 / DENOMINATOR`: `Σ rhs·y − Σ_j upper_j·max(0, (Cᵀy)_j − 1)`,
/// rounded up. `None` when a sum would overflow.
fn exact_bound(rows: &[Row], upper: &[u64], y: &[f64]) -> Option<u128> {
    let p: Vec<i128> = y
        .iter()
        .map(|&v| if v.is_finite() && v > 0.0 { (v * DENOMINATOR as f64) as i128 } else { 0 })
        .collect();
    let mut value: i128 = 0;
    let mut load = vec![0i128; upper.len()];
    for ((coeffs, rhs), &pr) in rows.iter().zip(&p) {
        if pr == 0 {
            continue;
        }
        value = value.checked_add((*rhs as i128).checked_mul(pr)?)?;
        for &(j, a) in coeffs {
            load[j] = load[j].checked_add((a as i128).checked_mul(pr)?)?;
        }
    }
    for (j, &l) in load.iter().enumerate() {
        if l > DENOMINATOR {
            value = value.checked_sub((upper[j] as i128).checked_mul(l - DENOMINATOR)?)?;
        }
    }
    Some(if value > 0 { ((value + DENOMINATOR - 1) / DENOMINATOR) as u128 } else { 0 })
}

/// A row `Σ coeff·w >= rhs` of a linear programme: `(button, coeff)` entries and `rhs`.
type Row = (Vec<(usize, u64)>, u64);

/// The dual of `minimise Σ w_j` over `0 <= w_j <= upper_j` with rows `Σ coeff·w >= rhs`:
/// `maximise Σ rhs·y − Σ upper_j·z_j` with `Σ_r coeff_rj·y_r − z_j <= 1` and `y, z >= 0`, solved
/// by `microlp`; its `y`, one per row, or `None` when it was not solved.
fn solve_dual(rows: &[Row], upper: &[u64]) -> Option<Vec<f64>> {
    use microlp::{ComparisonOp, OptimizationDirection, Problem};
    std::panic::catch_unwind(|| {
        let mut lp = Problem::new(OptimizationDirection::Maximize);
        let y: Vec<_> = rows.iter().map(|(_, rhs)| lp.add_var(*rhs as f64, (0.0, f64::INFINITY))).collect();
        let mut columns: Vec<Vec<(microlp::Variable, f64)>> = vec![Vec::new(); upper.len()];
        for ((coeffs, _), &var) in rows.iter().zip(&y) {
            for &(j, a) in coeffs {
                columns[j].push((var, a as f64));
            }
        }
        for (j, mut column) in columns.into_iter().enumerate() {
            if column.is_empty() {
                continue;
            }
            let z = lp.add_var(-(upper[j] as f64), (0.0, f64::INFINITY));
            column.push((z, -1.0));
            lp.add_constraint(column.as_slice(), ComparisonOp::Le, 1.0);
        }
        let solution = lp.solve().ok()?.into_solution().ok()?;
        Some(y.iter().map(|&v| solution.var_value(v)).collect::<Vec<f64>>())
    })
    .ok()?
}

/// Each cell's share of its buttons' cost, from the linear programme of the cell rows alone over
/// the buttons `open` with demands `rhs`: `shares[i][k]`, in units of `1 / SHARE_UNIT`, for the
/// `k`-th button of `by_cell[i]`, with every button's shares summing to at most one unit's worth
/// (`SHARE_UNIT`). Then for any plan of the open buttons, `Σ_j x_j >= Σ_i T_i / SHARE_UNIT`,
/// where `T_i` is the least of `Σ_k shares[i][k]·x_k` over the presses meeting cell `i` alone:
/// the Lagrangian bound that the search's lookahead sums over its groups of open cells. `None`
/// when the programme is too large or was not solved.
fn cell_shares(
    problem: &SearchProblem,
    by_cell: &[Vec<(usize, u64)>],
    open: &[bool],
    rhs: &[u64],
) -> Option<Vec<Vec<u64>>> {
    let n = problem.effects.len();
    // Rows `Σ coeff·w >= rhs` per cell and multiple, and each row's cell.
    let (mut rows, mut row_cells): (Vec<Row>, Vec<usize>) = (Vec::new(), Vec::new());
    for (i, list) in by_cell.iter().enumerate() {
        let m = problem.moduli[i];
        let d = rhs[i] % m;
        if d == 0 || m > 1 << 20 || !list.iter().any(|&(j, a)| a != 0 && open[j]) {
            continue;
        }
        let multiples = (1..=ROW_MULTIPLES.min(m - 1)).chain((m - 1 > ROW_MULTIPLES).then_some(m - 1));
        for c in multiples {
            let e = c * d % m;
            if e == 0 {
                continue;
            }
            let coeffs: Vec<(usize, u64)> = list
                .iter()
                .filter(|&&(j, _)| open[j])
                .map(|&(j, a)| (j, c * a % m))
                .filter(|&(_, a)| a != 0)
                .collect();
            // A row the open buttons cannot meet even at their highest has no dual optimum; the
            // lookahead's tables see that the cell cannot be met.
            let most: u128 = coeffs.iter().map(|&(j, a)| a as u128 * problem.highest[j] as u128).sum();
            if most >= e as u128 {
                rows.push((coeffs, e));
                row_cells.push(i);
            }
        }
    }
    if rows.is_empty() {
        return Some(by_cell.iter().map(|list| vec![0; list.len()]).collect());
    }
    if too_large(&rows, SIMPLEX_ROWS, SIMPLEX_ENTRIES) || problem.highest.iter().any(|&u| u > 1 << 32) {
        return None;
    }
    let solved = solve_dual(&rows, &problem.highest)?;
    // Each cell's load on each button, then every button's loads scaled to sum to at most 1.
    let mut share: Vec<Vec<f64>> = by_cell.iter().map(|list| vec![0.0; list.len()]).collect();
    let mut load = vec![0.0f64; n];
    for (((coeffs, _), &i), &v) in rows.iter().zip(&row_cells).zip(&solved) {
        if !(v.is_finite() && v > 0.0) {
            continue;
        }
        for &(j, a) in coeffs {
            let k = by_cell[i].iter().position(|&(b, _)| b == j)?;
            share[i][k] += v * a as f64;
            load[j] += v * a as f64;
        }
    }
    Some(
        share
            .iter()
            .zip(by_cell)
            .map(|(s, list)| {
                s.iter()
                    .zip(list)
                    .map(|(&v, &(j, _))| {
                        let v = if load[j] > 1.0 { v / load[j] } else { v };
                        // Rounded down, and a little more, so that the sum stays within a unit.
                        ((v * SHARE_UNIT as f64) as u64).saturating_sub(1).min(SHARE_UNIT)
                    })
                    .collect()
            })
            .collect(),
    )
}

/// The search's lookahead for `objective` in the order of [`button_order`], with, for `total`, a
/// shared bound: at each depth the open buttons' costs are shared among their open cells by the
/// linear programme of [`cell_shares`]; the open cells are put in disjoint groups of up to three
/// that share buttons, and each group gets a table (by its cells' residuals) of the least shared
/// cost its open buttons need to meet its cells alone. The tables' sum bounds the presses still
/// to come: a button's press counts in every group it touches, for its shares there, which sum to
/// at most one press; cells whose buttons overlap count, where the disjoint cells of
/// [`Lookahead::new`] do not.
/// `guide`, a good plan, chooses the shares: each depth's programme has the demands left after
/// the guide's presses so far (without one, the puzzle's own demands).
pub(crate) fn lookahead(
    problem: &SearchProblem,
    objective: Objective,
    guide: Option<&[u64]>,
) -> Option<Lookahead> {
    let order = button_order(problem).0;
    let plain = Lookahead::new(problem, &order, objective)?;
    if objective != Objective::Total {
        return Some(plain);
    }
    Some(match shared_bound(problem, &order, guide) {
        Some((at, tables)) => plain.with_shared(at, tables),
        None => plain,
    })
}

/// The shared bound's groups per depth, and their tables.
type SharedParts = (Vec<Vec<SharedGroup>>, Vec<Vec<u64>>);

/// The shared bound's groups and tables per depth; `None` when the puzzle is too large or no
/// programme was solved. Groups of up to three cells come first, then pairs, then single cells
/// if the tables would be too many.
fn shared_bound(problem: &SearchProblem, order: &[usize], guide: Option<&[u64]>) -> Option<SharedParts> {
    let n = order.len();
    if n > SHARED_BUTTONS || problem.moduli.iter().any(|&m| m > 4096) {
        return None;
    }
    // Dense systems (every button on most cells): each cell's group shares every open button,
    // so the bound stays near the disjoint one, while its programmes take most of the budget's
    // time (56 s of 100 programmes on 200 dense buttons).
    let entries: usize = problem.effects.iter().map(Vec::len).sum();
    if entries > SHARED_EFFECTS * n {
        return None;
    }
    let mut by_cell = problem.buttons_by_cell();
    for list in &mut by_cell {
        list.retain(|&(_, a)| a != 0);
    }
    // The shares of every depth first: they do not depend on the groups.
    let every = n.div_ceil(SHARED_PROGRAMMES).max(1);
    let mut open = vec![true; n];
    let mut rhs = problem.rhs.clone();
    let mut shares: Vec<Vec<Vec<u64>>> = Vec::with_capacity(n + 1);
    for d in 0..=n {
        crate::bounded::checkpoint();
        // A programme not solved keeps the last shares: they hold for fewer buttons too.
        let solved = if d % every == 0 { cell_shares(problem, &by_cell, &open, &rhs) } else { None };
        match solved {
            Some(s) => shares.push(s),
            None => shares.push(shares.last()?.clone()),
        }
        // Every button's shares must sum to at most a unit, or the bound would not hold.
        let mut load = vec![0u64; n];
        for (list, s) in by_cell.iter().zip(&shares[d]) {
            for (&(j, _), &v) in list.iter().zip(s) {
                load[j] += v;
            }
        }
        if load.iter().any(|&l| l > SHARE_UNIT) {
            return None;
        }
        if let Some(&j) = order.get(d) {
            open[j] = false;
            if let Some(x) = guide {
                for &(i, a) in &problem.effects[j] {
                    let m = problem.moduli[i];
                    rhs[i] = sub_mod(rhs[i] % m, mul_mod(a % m, x[j] % m, m), m);
                }
            }
        }
    }
    [GROUP_STATES_LARGE, GROUP_STATES_PAIR, 1]
        .into_iter()
        .find_map(|states| shared_tables(problem, order, &by_cell, &shares, states))
}

/// Groups of the shared bound may have up to this many residual states (three cells of moduli
/// up to 12), then this many (two), before single cells.
const GROUP_STATES_LARGE: u64 = 1728;
const GROUP_STATES_PAIR: u64 = 144;

/// The shared bound's tables with groups of at most `group_states` states; `None` past
/// [`SHARED_ENTRIES`] entries.
fn shared_tables(
    problem: &SearchProblem,
    order: &[usize],
    by_cell: &[Vec<(usize, u64)>],
    shares: &[Vec<Vec<u64>>],
    group_states: u64,
) -> Option<SharedParts> {
    let (n, cells) = (order.len(), problem.moduli.len());
    let mut open = vec![true; n];
    let (mut at, mut tables) = (Vec::with_capacity(n + 1), Vec::new());
    let mut entries = 0usize;
    for (d, shares) in shares.iter().enumerate() {
        crate::bounded::checkpoint();
        let is_open: Vec<bool> = by_cell.iter().map(|list| list.iter().any(|&(j, _)| open[j])).collect();
        let mut grouped = vec![false; cells];
        let mut groups = Vec::new();
        for i in 0..cells {
            if !is_open[i] || grouped[i] {
                continue;
            }
            grouped[i] = true;
            let mut group = vec![i];
            let mut states = problem.moduli[i];
            // Join the open cell that shares the most open buttons with the group, while the
            // residual states stay within the limit.
            while group.len() < GROUP_CELLS {
                let mut shared = std::collections::BTreeMap::<usize, usize>::new();
                for &c in &group {
                    for &(j, _) in by_cell[c].iter().filter(|&&(j, _)| open[j]) {
                        for &(k, _) in &problem.effects[j] {
                            if is_open[k] && !grouped[k] && states * problem.moduli[k] <= group_states {
                                *shared.entry(k).or_default() += 1;
                            }
                        }
                    }
                }
                let Some((k, _)) = shared.into_iter().max_by_key(|&(k, c)| (c, std::cmp::Reverse(k))) else {
                    break;
                };
                grouped[k] = true;
                states *= problem.moduli[k];
                group.push(k);
            }
            let Some(table) = group_table(problem, by_cell, shares, &open, &group) else {
                continue;
            };
            entries += table.len();
            if entries > SHARED_ENTRIES {
                return None;
            }
            let mut g = SharedGroup { cells: [0; GROUP_CELLS], radix: [0; GROUP_CELLS], len: 0, table: 0 };
            let mut radix = 1u64;
            for (k, &c) in group.iter().enumerate() {
                g.cells[k] = c as u32;
                g.radix[k] = radix as u32;
                radix *= problem.moduli[c];
            }
            g.len = group.len() as u8;
            g.table = tables.len() as u32;
            tables.push(table);
            groups.push(g);
        }
        at.push(groups);
        if let Some(&j) = order.get(d) {
            open[j] = false;
        }
    }
    Some((at, tables))
}

/// The least shared cost of `group`'s open buttons leaving each residual vector of its cells
/// (first cell fastest), `u64::MAX` for none; `None` when the table says nothing (every entry 0).
fn group_table(
    problem: &SearchProblem,
    by_cell: &[Vec<(usize, u64)>],
    shares: &[Vec<u64>],
    open: &[bool],
    group: &[usize],
) -> Option<Vec<u64>> {
    let moduli: Vec<u64> = group.iter().map(|&c| problem.moduli[c]).collect();
    let states = moduli.iter().product::<u64>() as usize;
    let mut buttons: Vec<usize> =
        group.iter().flat_map(|&c| by_cell[c].iter().map(|&(j, _)| j)).filter(|&j| open[j]).collect();
    buttons.sort_unstable();
    buttons.dedup();
    let mut table = vec![u64::MAX; states];
    table[0] = 0;
    for &j in &buttons {
        // The button's weights on the group's cells, its shared cost and its period there.
        let (mut w, mut cost, mut period) = (Vec::with_capacity(group.len()), 0u64, 1u64);
        for (&c, &m) in group.iter().zip(&moduli) {
            match by_cell[c].iter().position(|&(b, _)| b == j) {
                Some(k) => {
                    let a = by_cell[c][k].1;
                    w.push(a);
                    cost += shares[c][k];
                    period = period.lcm(&(m / a.gcd(&m)));
                }
                None => w.push(0),
            }
        }
        let top = problem.highest[j].min(period - 1);
        let shift: Vec<usize> = (0..states)
            .map(|s| {
                let (mut rest, mut t, mut radix) = (s as u64, 0u64, 1u64);
                for (&m, &a) in moduli.iter().zip(&w) {
                    t += (rest % m + a) % m * radix;
                    rest /= m;
                    radix *= m;
                }
                t as usize
            })
            .collect();
        if top + 1 == period {
            // Every press count up to the period: along each cycle of the shift (all of length
            // `period`), two rounds of relaxation give the least cost of every count.
            let mut seen = vec![false; states];
            let mut cycle = Vec::with_capacity(period as usize);
            for s0 in 0..states {
                if seen[s0] {
                    continue;
                }
                cycle.clear();
                let mut s = s0;
                loop {
                    seen[s] = true;
                    cycle.push(s);
                    s = shift[s];
                    if s == s0 {
                        break;
                    }
                }
                let p = cycle.len();
                for k in 0..2 * p {
                    let (a, b) = (cycle[k % p], cycle[(k + 1) % p]);
                    if table[a] != u64::MAX && table[a] + cost < table[b] {
                        table[b] = table[a] + cost;
                    }
                }
            }
        } else {
            let mut next = table.clone();
            for (s, &here) in table.iter().enumerate() {
                if here == u64::MAX {
                    continue;
                }
                let mut t = s;
                for x in 1..=top {
                    t = shift[t];
                    next[t] = next[t].min(here + x * cost);
                }
            }
            table = next;
        }
    }
    table.iter().any(|&c| c != 0).then_some(table)
}

mod cuts;
mod ipm;
mod lagrange;
mod lines;
#[cfg(test)]
mod tests;
