//! The beam's tail: the last buttons of the order, each closing two cells or more, searched
//! depth first from each partial plan that reaches them ([`Tail`]), and the checks
//! ([`Check`]) the beam applies on the way so that the partial plans it keeps can still be
//! closed there: found by elimination modulo each prime power of the tail's moduli
//! ([`tail_checks`], arithmetic in a [`Ring`]) and moved to the depth of the last button that
//! changes them ([`stagger`]). Used by [`super::beam`] for the total presses only.

use num_integer::Integer;

use super::frontier::Frontier;
use super::{MAX_TAIL, STAGGER_WORK, TAIL_CELLS_PER_BUTTON};
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
    /// What the residuals at the tail must meet for the tail to be solvable at all
    /// ([`tail_checks`]).
    pub(super) checks: Vec<Check>,
}

/// A combination of cells' equations modulo a prime power `p` (`q` of [`Ring`]) in which the
/// tail's buttons cancel: `Σ w · residual ≡ 0 (mod p)` over `(cell, w)` holds for every partial
/// plan the tail can complete.
pub(super) struct Check {
    pub(super) p: u64,
    pub(super) weights: Vec<(usize, u64)>,
    /// The depth of the last button before the tail that changes the sum: from there on it
    /// stays, so the beam checks it there.
    pub(super) depth: usize,
    /// Modulo a higher power of a prime, not the prime alone (the beam falls back to the
    /// latter where the former leave no child).
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
        let mut checks = tail_checks(&problem, true);
        checks.extend(tail_checks(&problem, false));
        // The staggering's work: each check over the head's depths and the whole's cells.
        let work = checks.len().saturating_mul(from + whole.moduli.len());
        let checks = if work <= STAGGER_WORK {
            stagger(checks, whole, &order[..from], closing, &cells)
        } else {
            Vec::new()
        };
        let mut checks = checks;
        checks.sort_by_key(|c| c.depth);
        let frontier = Frontier::new(&problem, FRONTIER_STATES);
        Some(Tail { from, problem, cells, ahead, frontier, checks })
    }

    /// Whether residuals `residual` (of the whole problem) pass every check of `depth`: all of
    /// them (`strong`), or those modulo primes alone.
    pub(super) fn feasible(&self, depth: usize, strong: bool, residual: &[u64]) -> bool {
        self.at(depth).iter().filter(|c| strong || !c.strong).all(|c| {
            c.weights.iter().fold(0, |acc, &(i, w)| add_mod(acc, mul_mod(w, residual[i] % c.p, c.p), c.p))
                == 0
        })
    }

    /// Whether some check of `depth` is modulo a higher power of a prime (`strong`) or modulo
    /// a prime alone (not `strong`).
    pub(super) fn checks_at(&self, depth: usize, strong: bool) -> bool {
        self.checks.iter().any(|c| c.depth == depth && c.strong == strong)
    }

    /// The checks of `depth` (the checks are sorted by depth).
    fn at(&self, depth: usize) -> &[Check] {
        let from = self.checks.partition_point(|c| c.depth < depth);
        let to = self.checks.partition_point(|c| c.depth <= depth);
        &self.checks[from..to]
    }

    /// The fewest presses of the tail's buttons (in the order's tail order) that meet
    /// `residual`, fewer than `below` when given: a depth-first search within `budget`, then,
    /// when the search was cut after it found a plan, the frontier's exact answer if its work
    /// fits within `spare` nodes (all that is left, `budget` included); on tails of
    /// [`LONG_TAIL`] buttons or more, the frontier's alone when it fits. With the nodes spent.
    /// `problem` is a copy of the tail's, whose right-hand side is overwritten.
    pub(super) fn complete(
        &self,
        problem: &mut SearchProblem,
        residual: &[u64],
        below: Option<u128>,
        budget: Budget,
        spare: u64,
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
        // found is not asked again: such partial plans are mostly ones the tail cannot
        // complete at all, and the frontier's tables on every one of them took a 30×30 grid's
        // beam its widest pass (taken first, they left an 8×8 grid's beam fewer nodes than the
        // search's quick failures did: 176 presses against 142).
        if let (Some(plan), false, Some((frontier, own))) = (&found.plan, found.complete, frontier) {
            let nodes = found.nodes + own;
            if nodes <= spare {
                let exact = frontier.fewest(&problem.rhs, &problem.moduli, below);
                let total = |x: &[u64]| x.iter().map(|&v| u128::from(v)).sum::<u128>();
                // The frontier's is the fewest, so never above the search's.
                debug_assert!(exact.as_ref().is_some_and(|x| total(x) <= total(plan)));
                return (exact.or(found.plan), nodes);
            }
        }
        (found.plan, found.nodes)
    }
}

/// A prime power `q = p^e` and arithmetic on the linear forms of the tail's checks modulo it.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Ring {
    p: u64,
    q: u64,
}

impl Ring {
    /// The valuation of `a` at `p` (`u32::MAX` for 0 mod q).
    fn valuation(self, a: u64) -> u32 {
        if a.is_multiple_of(self.q) { u32::MAX } else { valuation(a, self.p) }
    }

    /// `target -= f · pivot` at every position, with `f` chosen so that position `at` of
    /// `target` becomes 0; `pivot[at]` has the least valuation of the two (so `f` exists).
    fn eliminate(self, target: &mut [u64], pivot: &[u64], at: usize) {
        let (t, v) = (target[at], self.valuation(pivot[at]));
        if t.is_multiple_of(self.q) {
            return;
        }
        let unit = pivot[at] / self.p.pow(v);
        let f = mul_mod(t / self.p.pow(v), inv_mod(unit % self.q, self.q).expect("a unit"), self.q);
        for (x, &y) in target.iter_mut().zip(pivot) {
            *x = sub_mod(*x, mul_mod(f, y, self.q), self.q);
        }
    }
}

/// The checks of a tail `problem` (over its own cells): for each prime `p` of its moduli, with
/// `q` the largest power of `p` among them, each cell's equation modulo its own power `p^e` of
/// `p`, scaled by `q / p^e` into an equation modulo `q`, and the combinations of them (by
/// elimination over the integers mod `q`, pivots of least valuation) in which every tail
/// button cancels. Each check is `(ring, weights over the tail's cells)`; the weights include the
/// scaling, so the sum is the same for any residual that is the same modulo each cell's
/// modulus. Necessary conditions, not always sufficient.
fn tail_checks(problem: &SearchProblem, powers: bool) -> Vec<(Ring, Vec<u64>)> {
    let cells = problem.moduli.len();
    let nb = problem.effects.len();
    let mut primes: Vec<u64> =
        problem.moduli.iter().flat_map(|&m| crate::algebra::factor::factorize(m)).map(|(p, _)| p).collect();
    primes.sort_unstable();
    primes.dedup();
    let by_cell = problem.buttons_by_cell();
    let mut checks = Vec::new();
    for p in primes {
        let e = if powers { problem.moduli.iter().map(|&m| valuation(m, p)).max().unwrap_or(0) } else { 1 };
        // With powers, primes of no higher power are left to the checks modulo primes.
        if powers && e < 2 {
            continue;
        }
        let ring = Ring { p, q: p.pow(e) };
        // Each row: the tail buttons' amounts, then the (scaled) weight of each cell.
        let mut rows: Vec<Vec<u64>> = (0..cells)
            .filter(|&c| problem.moduli[c].is_multiple_of(p))
            .map(|c| {
                let scale = p.pow(e - valuation(problem.moduli[c], p).min(e));
                let mut row = vec![0u64; nb + cells];
                by_cell[c]
                    .iter()
                    .for_each(|&(j, a)| row[j] = add_mod(row[j], mul_mod(a % ring.q, scale, ring.q), ring.q));
                row[nb + c] = scale % ring.q;
                row
            })
            .collect();
        let mut rank = 0;
        for col in 0..nb {
            let Some(pivot) = (rank..rows.len())
                .filter(|&r| !rows[r][col].is_multiple_of(ring.q))
                .min_by_key(|&r| ring.valuation(rows[r][col]))
            else {
                continue;
            };
            rows.swap(rank, pivot);
            let (head, rest) = rows.split_at_mut(rank + 1);
            for row in rest {
                ring.eliminate(row, &head[rank], col);
            }
            rank += 1;
        }
        for (r, row) in rows.iter().enumerate() {
            // Rows past the rank are checks; a pivot row is one once multiplied by the power of
            // p that clears its buttons.
            let clear = if r >= rank {
                1
            } else {
                let least = row[..nb].iter().map(|&a| ring.valuation(a)).min().unwrap_or(u32::MAX);
                if least == u32::MAX { 1 } else { ring.q / p.pow(least.min(e)) }
            };
            let weights: Vec<u64> = row[nb..].iter().map(|&w| mul_mod(w, clear % ring.q, ring.q)).collect();
            let cancels = row[..nb].iter().all(|&a| mul_mod(a, clear % ring.q, ring.q) == 0);
            if cancels && weights.iter().any(|&w| w != 0) {
                checks.push((ring, weights));
            }
        }
    }
    checks
}

/// The tail's checks (`(ring, weights over the tail's cells)`), recombined per prime power so
/// that each is checked where a button can still meet it. Elimination runs from the deepest
/// button before the tail (`head`, the order up to the tail) back; at each depth the checks
/// whose sum that button changes are combined (pivot of least valuation) so that one keeps it:
/// - when the button's forced values (steps of its first closing cell's `m / gcd`, see
///   [`Beam::pass`]) move its value modulo `p`, that check is checked at this depth, where the
///   beam's children of the right value meet it;
/// - otherwise, when the closing cell's own equation (scaled as in [`tail_checks`]) can stand as
///   the pivot, it is added to every check instead, so that none depends on this button (the
///   closing cell is met from this depth on, so its weight changes no sum the tail sees), and
///   the checks move to earlier buttons.
///
/// A check no button changes is checked at depth 0 (it holds for every plan, or for none).
/// `cells` maps the tail's cells to the whole problem's.
fn stagger(
    checks: Vec<(Ring, Vec<u64>)>,
    whole: &SearchProblem,
    head: &[usize],
    closing: &[Vec<usize>],
    cells: &[usize],
) -> Vec<Check> {
    let all = whole.moduli.len();
    let nd = head.len();
    let mut depth_of = vec![usize::MAX; whole.effects.len()];
    head.iter().enumerate().for_each(|(d, &j)| depth_of[j] = d);
    let by_cell = whole.buttons_by_cell();
    // A cell's equation scaled into `ring`: its dependence on each head button, then its
    // weight per cell.
    let equation = |ring: Ring, weights: &[u64]| {
        let mut row = vec![0u64; nd + all];
        for (c, &w) in weights.iter().enumerate().filter(|&(_, &w)| w != 0) {
            row[nd + c] = w;
            for &(j, a) in &by_cell[c] {
                if depth_of[j] != usize::MAX {
                    row[depth_of[j]] = add_mod(row[depth_of[j]], mul_mod(w, a % ring.q, ring.q), ring.q);
                }
            }
        }
        row
    };
    let mut rows: Vec<(Ring, Vec<u64>)> = checks
        .into_iter()
        .map(|(ring, w)| {
            let mut weights = vec![0u64; all];
            cells.iter().zip(&w).for_each(|(&i, &v)| weights[i] = v);
            (ring, equation(ring, &weights))
        })
        .collect();
    let mut out = Vec::new();
    let mut open: Vec<bool> = vec![true; rows.len()];
    let rings: std::collections::BTreeSet<Ring> = rows.iter().map(|r| r.0).collect();
    for d in (0..nd).rev() {
        // The first closing cell of depth `d`, its modulus, and what this depth's button adds
        // to it.
        let closing_cell = closing[d].first().map(|&c| {
            let a = by_cell[c].iter().find(|&&(b, _)| b == head[d]).map_or(0, |&(_, a)| a);
            (c, whole.moduli[c], a)
        });
        for &ring in &rings {
            let mine: Vec<usize> =
                (0..rows.len()).filter(|&k| open[k] && rows[k].0 == ring && rows[k].1[d] != 0).collect();
            let Some(&k) = mine.iter().min_by_key(|&&k| ring.valuation(rows[k].1[d])) else { continue };
            let least = ring.valuation(rows[k].1[d]);
            // The closing cell's equation, when the forced steps leave this value fixed mod p.
            let fixed = closing_cell.and_then(|(c, m, a)| {
                if !(m / a.gcd(&m)).is_multiple_of(ring.p) || !m.is_multiple_of(ring.p) {
                    return None;
                }
                let mut weights = vec![0u64; all];
                weights[c] = ring.q / ring.p.pow(valuation(m, ring.p).min(ring.q.ilog(ring.p)));
                let row = equation(ring, &weights);
                (ring.valuation(row[d]) <= least).then_some(row)
            });
            let pivot = fixed.clone().unwrap_or_else(|| rows[k].1.clone());
            for &r in &mine {
                if fixed.is_none() && r == k {
                    continue;
                }
                ring.eliminate(&mut rows[r].1, &pivot, d);
            }
            if fixed.is_some() {
                continue;
            }
            // A check its own button cannot always meet (a coefficient or a forced step that p
            // divides) stays whole: it was weakened to modulo p here, met by luck by one partial
            // plan in p, and on a 100×100 mixed grid every partial plan of the passes of 64
            // and 256 then reached the tail unable to complete it (their plan, 26,559 presses
            // after the windows, became 25,417 kept whole). Where it cuts every child, the beam
            // falls back to the checks modulo primes at that depth.
            open[k] = false;
            out.push((k, d));
        }
    }
    out.extend((0..rows.len()).filter(|&k| open[k]).map(|k| (k, 0)));
    out.into_iter()
        .map(|(k, depth)| {
            let (ring, row) = &rows[k];
            let weights =
                row[nd..].iter().enumerate().filter(|&(_, &v)| v != 0).map(|(c, &v)| (c, v)).collect();
            Check { p: ring.q, weights, depth, strong: ring.q > ring.p }
        })
        .filter(|c| !c.weights.is_empty())
        .collect()
}
