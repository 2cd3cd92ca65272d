//! The beam's tail: the last buttons of the order, each closing two cells or more, searched
//! depth first from each partial plan that reaches them ([`Tail`]), and the checks
//! ([`Check`]) the beam applies on the way so that the partial plans it keeps can still be
//! completed: found by elimination backwards over the whole order, modulo the highest power of
//! each prime among the moduli ([`order_checks`], arithmetic in a [`Ring`]), each placed at
//! the depth whose button meets it. Used by [`super::beam`] for the total presses only.

use super::frontier::Frontier;
use super::{MAX_TAIL, TAIL_CELLS_PER_BUTTON, TAIL_NODES, forced, press};
use crate::algebra::arith::{add_mod, inv_mod, mul_mod, sub_mod, valuation};
use crate::solve::search::{Budget, Goal, Lookahead, Objective, SearchProblem, button_order, search_ahead};

/// A tail is completed by [`Frontier`] when its open cells' states stay within this many.
const FRONTIER_STATES: usize = 1 << 16;

/// The frontier's table entries count one node per this many (a node of the search does about
/// as much).
const FRONTIER_WORK_PER_NODE: u64 = 4;

/// Tails of at least this many buttons are answered by the frontier alone, when it fits what is
/// left: their depth-first search sums a lookahead over thousands of cells at every node (a
/// 3×3000 mixed grid's last row: about 180 ns a counted node against 30 to 50 elsewhere, 12 of
/// its first pass's 22 million nodes, and no completion found), where the frontier is exact at
/// about 4.5 ns a table entry (that grid, default budget: 39,530 presses in 23 to 25 s became
/// 33,308 in 9 s).
const LONG_TAIL: usize = 1000;

/// The tail of the order, searched depth first from each partial plan that reaches it.
pub(super) struct Tail {
    /// The depth of the tail's first button.
    pub(super) from: usize,
    /// The tail's buttons over the cells they change (renumbered), fewest presses; `rhs` is
    /// each partial plan's.
    pub(super) problem: SearchProblem,
    /// Each tail cell's index in the whole problem.
    pub(super) cells: Vec<usize>,
    pub(super) ahead: Option<Lookahead>,
    /// The tail's fewest presses by dynamic programming over its open cells, when their states
    /// stay within [`FRONTIER_STATES`]: asked first on tails of [`LONG_TAIL`] buttons, else
    /// when the depth-first search with `ahead` is cut by its nodes after it found a plan
    /// ([`Tail::complete`]).
    frontier: Option<Frontier>,
    /// What the residuals must meet, before the tail, for the rest of the order to be solvable
    /// ([`order_checks`]), by depth.
    pub(super) checks: Vec<Check>,
    /// The checks inside the tail (over the tail's cells, by tail depth), and each tail
    /// button's closing cells (the tail's numbering): for [`Tail::descend`].
    inner: Vec<Check>,
    inner_closing: Vec<Vec<usize>>,
}

/// A combination of cells' equations modulo a prime power `p` (`q` of [`Ring`]):
/// `Σ w · residual ≡ 0 (mod p)` over `(cell, w)` holds, after the button of depth `depth` is
/// pressed, for every partial plan that the rest of the order can complete.
pub(super) struct Check {
    pub(super) p: u64,
    pub(super) weights: Vec<(usize, u64)>,
    /// The depth whose button meets it: the sum stays the same from there on.
    pub(super) depth: usize,
    /// Modulo a higher power of a prime, not the prime alone (the beam falls back to the
    /// latter where the former leave no child, as a press limit can make them).
    pub(super) strong: bool,
}

impl Tail {
    /// The tail of `order`: its last buttons that close two cells or more (at most
    /// [`MAX_TAIL`]), and the one before them. `None` when that is under two buttons, or the
    /// whole order.
    pub(super) fn new(whole: &SearchProblem, order: &[usize], closing: &[Vec<usize>]) -> Option<Tail> {
        let n = order.len();
        let mut from = n;
        while from > 0 && closing[from - 1].len() >= 2 && n - from < MAX_TAIL {
            from -= 1;
        }
        let from = from.checked_sub(1).filter(|&d| d > 0 && n - d >= 2)?;
        let mut index = vec![usize::MAX; whole.moduli.len()];
        let mut cells = Vec::new();
        let mut effects = Vec::with_capacity(n - from);
        for &j in &order[from..] {
            let effect = whole.effects[j]
                .iter()
                .map(|&(i, a)| {
                    if index[i] == usize::MAX {
                        index[i] = cells.len();
                        cells.push(i);
                    }
                    (index[i], a)
                })
                .collect();
            effects.push(effect);
        }
        // A tail that changes many more cells than it has buttons (a dense system's last
        // buttons) is no row to close: the beam takes it as it is.
        if cells.len() > TAIL_CELLS_PER_BUTTON * (n - from) + 16 {
            return None;
        }
        let moduli = cells.iter().map(|&i| whole.moduli[i]).collect();
        let highest = order[from..].iter().map(|&j| whole.highest[j]).collect();
        let problem = SearchProblem { moduli, effects, rhs: vec![0; cells.len()], highest };
        let ahead = Lookahead::new(&problem, &button_order(&problem).0, Objective::Total);
        let mut checks = order_checks(whole, order, closing);
        checks.sort_by_key(|c| c.depth);
        // The checks of the tail's depths, in the tail's numbering (their cells are the tail's:
        // each is made of the equations of cells that tail buttons close).
        let inner = checks
            .iter()
            .filter(|c| c.depth >= from)
            .filter_map(|c| {
                let weights = c.weights.iter().map(|&(i, w)| (index[i] != usize::MAX).then(|| (index[i], w)));
                let weights = weights.collect::<Option<Vec<_>>>()?;
                Some(Check { p: c.p, weights, depth: c.depth - from, strong: c.strong })
            })
            .collect();
        checks.retain(|c| c.depth < from);
        let inner_closing = closing[from..].iter().map(|cs| cs.iter().map(|&i| index[i]).collect()).collect();
        let frontier = Frontier::new(&problem, FRONTIER_STATES);
        Some(Tail { from, problem, cells, ahead, frontier, checks, inner, inner_closing })
    }

    /// Whether residuals `residual` (of the whole problem) pass every check of `depth`: all of
    /// them (`strong`), or those modulo primes alone.
    pub(super) fn feasible(&self, depth: usize, strong: bool, residual: &[u64]) -> bool {
        self.at(depth).iter().filter(|c| strong || !c.strong).all(|c| c.holds(residual))
    }

    /// Whether some check of `depth` is modulo a higher power of a prime (`strong`) or modulo
    /// a prime alone (not `strong`).
    pub(super) fn checks_at(&self, depth: usize, strong: bool) -> bool {
        self.at(depth).iter().any(|c| c.strong == strong)
    }

    /// The checks of `depth` (the checks are sorted by depth).
    fn at(&self, depth: usize) -> &[Check] {
        of_depth(&self.checks, depth)
    }

    /// The fewest presses of the tail's buttons (in the order's tail order) that meet
    /// `residual`, fewer than `below` when given: a depth-first search within `budget`, then,
    /// when the search was cut after it found a plan, the frontier's exact answer if its work
    /// fits within `spare` nodes (all that is left, `budget` included); on tails of
    /// [`LONG_TAIL`] buttons or more, the frontier's alone when it fits. With the nodes spent.
    /// `problem` is a copy of the tail's, whose right-hand side is overwritten. `descend`: a
    /// search cut with nothing found is followed by [`Tail::descend`] (whatever its plan's
    /// presses), and the frontier's answer from there. A plan returned is always below `below`.
    pub(super) fn complete(
        &self,
        problem: &mut SearchProblem,
        residual: &[u64],
        below: Option<u128>,
        budget: Budget,
        spare: u64,
        descend: bool,
    ) -> (Option<Vec<u64>>, u64) {
        for (k, &i) in self.cells.iter().enumerate() {
            problem.rhs[k] = residual[i];
        }
        // The frontier and the nodes one answer of it counts.
        let frontier = self.frontier.as_ref().map(|f| (f, f.work / FRONTIER_WORK_PER_NODE + 1));
        if problem.effects.len() >= LONG_TAIL
            && let Some((frontier, nodes)) = frontier
            && nodes <= spare
        {
            return (frontier.fewest(&problem.rhs, &problem.moduli, below), nodes);
        }
        let goal = Goal::Best(Objective::Total);
        let initial = below.map(|b| (b, 0));
        let found = search_ahead(problem, goal, budget, initial, None, self.ahead.as_ref(), None);
        // A long tail's search cut by its nodes keeps the first plan it stumbled on: a
        // 100×100 mixed grid's last row took 2,236 to 2,347 presses that way, where the
        // frontier finds 1,443 to 1,468 from the same partial plans. A search cut with nothing
        // found is followed, when `descend` (the beam asks it until its pass has a plan), by
        // one descent that meets the checks inside the tail as it goes ([`Tail::descend`];
        // where the checks leave it no dead end, its first descent ends on a plan), and the
        // frontier finds the fewest presses from its plan as from the search's. On a 100×100
        // mixed grid half the partial plans of a pass reach a plan only so, and passes of 64
        // and 1024 found none without it; asked of every partial plan, the frontier's tables
        // took a 30×30 grid's widest pass (1980 presses became 2090).
        let (plan, nodes) = match found.plan {
            Some(plan) => (Some(plan), found.nodes),
            None if found.complete || !descend => (None, found.nodes),
            // When the frontier follows, the descent is not held to `below`: its plan only
            // starts the frontier, which is. A greedy descent's plan is often above a bar the
            // fewest presses are under: on a 100×100 mixed grid, passes of 64, 1024 and 4096
            // given the last pass's plan as their bar ended with none. Where the frontier
            // cannot follow (none, or its work past `spare`), the descent is held to `below`.
            None => {
                let most = TAIL_NODES.min(budget.nodes);
                let follows = frontier.is_some_and(|(_, own)| found.nodes + most + own <= spare);
                let (plan, own) = self.descend(problem, if follows { None } else { below }, most);
                (plan, found.nodes + own)
            }
        };
        let total = |x: &[u64]| x.iter().map(|&v| u128::from(v)).sum::<u128>();
        let (plan, nodes) = match (plan, found.complete, frontier) {
            (Some(plan), false, Some((frontier, own))) if nodes + own <= spare => {
                let exact = frontier.fewest(&problem.rhs, &problem.moduli, below);
                // The frontier's is the fewest, so never above the search's or the descent's.
                debug_assert!(below.is_some() || exact.as_ref().is_some_and(|x| total(x) <= total(&plan)));
                (exact.or(Some(plan)), nodes + own)
            }
            (plan, ..) => (plan, nodes),
        };
        (plan.filter(|x| below.is_none_or(|b| total(x) < b)), nodes)
    }

    /// A plan of the tail's buttons meeting `problem.rhs` with fewer presses than `below`, by
    /// one depth-first descent in the tail's order that meets each button's closing cells and
    /// the checks of its depth as it goes, backtracking within `most` values tried; the first
    /// plan it reaches (it is no search for the fewest). With the nodes spent.
    pub(super) fn descend(
        &self,
        problem: &SearchProblem,
        below: Option<u128>,
        most: u64,
    ) -> (Option<Vec<u64>>, u64) {
        let n = problem.effects.len();
        let mut residual = problem.rhs.clone();
        let mut x = vec![0u64; n];
        // Per depth: the next value to try (none left: `None`), the step between values, and
        // the presses of the depths before.
        let mut next: Vec<Option<u64>> = vec![None; n];
        let mut step = vec![1u64; n];
        let mut sum = vec![0u128; n + 1];
        let mut nodes = 0u64;
        let values = |residual: &[u64], t: usize| forced(problem, &self.inner_closing[t], t, residual);
        let Some((first, s)) = values(&residual, 0) else { return (None, 0) };
        (next[0], step[0]) = (Some(first), s);
        let mut t = 0;
        loop {
            let mut deeper = false;
            let checks = of_depth(&self.inner, t);
            while let Some(value) = next[t].filter(|&v| v <= problem.highest[t]) {
                if nodes >= most || below.is_some_and(|b| sum[t] + u128::from(value) >= b) {
                    break;
                }
                nodes += 1;
                next[t] = value.checked_add(step[t]);
                press(problem, &mut residual, t, value, false);
                let met = self.inner_closing[t].iter().all(|&i| residual[i] == 0)
                    && checks.iter().all(|c| c.holds(&residual));
                if met {
                    x[t] = value;
                    sum[t + 1] = sum[t] + u128::from(value);
                    if t + 1 == n {
                        // Below `below`, by the test before the press.
                        return (Some(x), nodes);
                    }
                    if let Some((first, s)) = values(&residual, t + 1) {
                        t += 1;
                        (next[t], step[t]) = (Some(first), s);
                        deeper = true;
                        break;
                    }
                }
                press(problem, &mut residual, t, value, true);
            }
            if deeper {
                continue;
            }
            // Every value of this depth tried: back to the depth before, its press undone.
            if t == 0 {
                return (None, nodes);
            }
            t -= 1;
            press(problem, &mut residual, t, x[t], true);
        }
    }
}

/// The checks of `depth` in `checks` (sorted by depth).
fn of_depth(checks: &[Check], depth: usize) -> &[Check] {
    let from = checks.partition_point(|c| c.depth < depth);
    let to = checks.partition_point(|c| c.depth <= depth);
    &checks[from..to]
}

impl Check {
    /// Whether `residual` meets it.
    fn holds(&self, residual: &[u64]) -> bool {
        self.weights
            .iter()
            .fold(0, |acc, &(i, w)| add_mod(acc, mul_mod(w, residual[i] % self.p, self.p), self.p))
            == 0
    }
}

/// The most work (entries of rows written) [`order_checks`] may do: past it the checks found
/// so far are kept (each holds on its own) and the rest left out.
const CHECK_WORK: usize = 1 << 26;

/// A prime power `q = p^e` and arithmetic on the linear forms of the checks modulo it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Ring {
    p: u64,
    q: u64,
}

impl Ring {
    /// The valuation of `a` at `p` (`u32::MAX` for 0 mod q).
    fn valuation(self, a: u64) -> u32 {
        if a.is_multiple_of(self.q) { u32::MAX } else { valuation(a, self.p) }
    }

    /// `e` of `q = p^e`.
    fn exponent(self) -> u32 {
        self.q.ilog(self.p)
    }
}

/// A linear form over the residuals at some depth, modulo the ring's `q`: its weight on each
/// cell, and (what the weights make of the buttons' presses) its coefficient on the button of
/// each depth that still changes it. Both sorted, without zeros.
#[derive(Clone, Debug)]
struct Row {
    coefficients: Vec<(usize, u64)>,
    weights: Vec<(usize, u64)>,
}

impl Row {
    /// The deepest depth whose button changes the form, if any.
    fn top(&self) -> Option<usize> {
        self.coefficients.last().map(|&(d, _)| d)
    }

    fn at(&self, depth: usize) -> u64 {
        match self.coefficients.binary_search_by_key(&depth, |&(d, _)| d) {
            Ok(k) => self.coefficients[k].1,
            Err(_) => 0,
        }
    }

    /// The form times `f`.
    fn times(&self, f: u64, ring: Ring) -> Row {
        let scale = |list: &[(usize, u64)]| {
            list.iter().map(|&(k, v)| (k, mul_mod(v, f, ring.q))).filter(|&(_, v)| v != 0).collect()
        };
        Row { coefficients: scale(&self.coefficients), weights: scale(&self.weights) }
    }

    /// `self -= f · pivot`, with `f` chosen so that the coefficient at `depth` becomes 0;
    /// `pivot`'s has the least valuation of the two (so `f` exists). The entries written.
    fn eliminate(&mut self, pivot: &Row, depth: usize, ring: Ring) -> usize {
        let (t, v) = (self.at(depth), ring.valuation(pivot.at(depth)));
        if t.is_multiple_of(ring.q) {
            return 0;
        }
        let unit = pivot.at(depth) / ring.p.pow(v);
        let f = mul_mod(t / ring.p.pow(v), inv_mod(unit % ring.q, ring.q).expect("a unit"), ring.q);
        let minus = |a: &[(usize, u64)], b: &[(usize, u64)]| {
            let mut out = Vec::with_capacity(a.len() + b.len());
            let (mut i, mut k) = (0, 0);
            while i < a.len() || k < b.len() {
                let take_a = k == b.len() || (i < a.len() && a[i].0 < b[k].0);
                let take_b = i == a.len() || (k < b.len() && b[k].0 < a[i].0);
                let (key, value) = if take_a {
                    i += 1;
                    a[i - 1]
                } else if take_b {
                    k += 1;
                    (b[k - 1].0, sub_mod(0, mul_mod(f, b[k - 1].1, ring.q), ring.q))
                } else {
                    i += 1;
                    k += 1;
                    (a[i - 1].0, sub_mod(a[i - 1].1, mul_mod(f, b[k - 1].1, ring.q), ring.q))
                };
                if value != 0 {
                    out.push((key, value));
                }
            }
            out
        };
        self.coefficients = minus(&self.coefficients, &pivot.coefficients);
        self.weights = minus(&self.weights, &pivot.weights);
        debug_assert_eq!(self.at(depth), 0);
        self.coefficients.len() + self.weights.len()
    }
}

/// The checks that keep a partial plan completable by the rest of `order` (`closing[d]`: the
/// cells whose last button is that of depth `d`), for each prime `p` of the moduli modulo the
/// highest power `q` of `p` among them, where every cell's equation is scaled into
/// `Z/q` (a cell modulo `p^k`, times `q / p^k`). Elimination runs from the last depth back:
/// at each depth the rows that involve its button (the equations of the cells it closes,
/// and the checks found at the depths after it that it changes) take the one of least
/// valuation as pivot, and the others lose the button. A pivot that is a check is checked at
/// this depth, where the button's values meet it; a closing cell's equation needs no check
/// (the beam closes the cell). What the depths before must meet is then the other rows, the
/// pivot times the power of `p` that clears the button, and the closing equations reduced by
/// the pivot: the projection of the conditions on the buttons before, so that with every value
/// of each button allowed the checks are exact (a partial plan that meets them can be
/// completed), and with press limits necessary. A row no button changes is checked at depth 0
/// (it holds for every plan, or for none).
fn order_checks(whole: &SearchProblem, order: &[usize], closing: &[Vec<usize>]) -> Vec<Check> {
    let n = order.len();
    let mut depth_of = vec![usize::MAX; whole.effects.len()];
    order.iter().enumerate().for_each(|(d, &j)| depth_of[j] = d);
    let by_cell = whole.buttons_by_cell();
    // Each prime's highest exponent among the moduli (each distinct modulus factored once).
    let mut moduli = whole.moduli.clone();
    moduli.sort_unstable();
    moduli.dedup();
    let mut top: std::collections::BTreeMap<u64, u32> = std::collections::BTreeMap::new();
    for (p, e) in moduli.into_iter().flat_map(crate::algebra::factor::factorize) {
        let t = top.entry(p).or_insert(0);
        *t = (*t).max(e);
    }
    let rings: Vec<Ring> = top.iter().map(|(&p, &e)| Ring { p, q: p.pow(e) }).collect();
    // Cell `c`'s equation scaled into `ring`, over the depths whose buttons change it.
    let equation = |ring: Ring, c: usize| {
        let m = whole.moduli[c];
        let w = ring.q / ring.p.pow(valuation(m, ring.p).min(ring.exponent()));
        let mut coefficients: Vec<(usize, u64)> = by_cell[c]
            .iter()
            .filter(|&&(j, _)| depth_of[j] != usize::MAX)
            .map(|&(j, a)| (depth_of[j], mul_mod(w, a % ring.q, ring.q)))
            .collect();
        coefficients.sort_unstable();
        coefficients.dedup_by(|b, a| {
            // A button listed twice on a cell adds both amounts.
            a.0 == b.0 && {
                a.1 = add_mod(a.1, b.1, ring.q);
                true
            }
        });
        coefficients.retain(|&(_, v)| v != 0);
        Row { coefficients, weights: vec![(c, w)] }
    };
    let mut out: Vec<(Ring, Row, usize)> = Vec::new();
    let mut work = 0usize;
    for &ring in &rings {
        let e = ring.exponent();
        // The open rows, by the deepest depth that changes them (rows no depth changes are
        // checked at depth 0).
        let mut at: Vec<Vec<Row>> = vec![Vec::new(); n];
        let put = |row: Row, out: &mut Vec<(Ring, Row, usize)>, at: &mut Vec<Vec<Row>>| match row.top() {
            Some(d) => at[d].push(row),
            None if !row.weights.is_empty() => out.push((ring, row, 0)),
            None => {}
        };
        for d in (0..n).rev() {
            if work > CHECK_WORK {
                break;
            }
            let mut mine = std::mem::take(&mut at[d]);
            // The closing cells' equations (those the button changes), and the others, which
            // are conditions on the depths before.
            let mut pool = Vec::new();
            for c in closing[d].iter().copied().filter(|&c| whole.moduli[c].is_multiple_of(ring.p)) {
                let row = equation(ring, c);
                work += row.coefficients.len() + 1;
                if row.at(d) == 0 {
                    put(row, &mut out, &mut at);
                } else {
                    pool.push(row);
                }
            }
            if pool.is_empty() && mine.is_empty() {
                continue;
            }
            // The pivot: least valuation, a closing equation on ties (it needs no check).
            let least = |rows: &[Row]| {
                rows.iter()
                    .enumerate()
                    .map(|(k, r)| (ring.valuation(r.at(d)), k))
                    .min()
                    .unwrap_or((u32::MAX, 0))
            };
            let ((in_pool, k), (in_mine, m)) = (least(&pool), least(&mine));
            let (pivot, checked) =
                if in_pool <= in_mine { (pool.swap_remove(k), false) } else { (mine.swap_remove(m), true) };
            for mut row in mine.into_iter().chain(pool) {
                work += row.eliminate(&pivot, d, ring);
                put(row, &mut out, &mut at);
            }
            let v = ring.valuation(pivot.at(d));
            if v > 0 && v < e {
                let cleared = pivot.times(ring.p.pow(e - v), ring);
                debug_assert_eq!(cleared.at(d), 0);
                work += cleared.coefficients.len() + cleared.weights.len();
                put(cleared, &mut out, &mut at);
            }
            if checked {
                out.push((ring, pivot, d));
            }
        }
    }
    out.into_iter()
        .map(|(ring, row, depth)| Check { p: ring.q, weights: row.weights, depth, strong: ring.q > ring.p })
        .collect()
}
