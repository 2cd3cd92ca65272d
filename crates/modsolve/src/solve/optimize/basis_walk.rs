//! Best plans over any solution set `x0 + Σ t_i·g_i` (button `j` counted modulo its period
//! `L_j`, generator `i` taken `0 <= t_i < o_i` times): a depth-first walk over the quiet basis
//! that bounds every partial choice, so that sets far beyond enumeration are proven.
//!
//! Defining identity: every plan of the set is reached by exactly one choice of `t`, the walk
//! fixes `t` one generator at a time, and a subtree is left only when a lower bound on every plan
//! below it is no better than a plan already known. The plan returned is *proven* best when the
//! walk finished.
//!
//! The bound: after fixing some generators, the plan so far is `y`, and the generators still
//! free add `Σ_{i free} t_i·g_i[j]` to button `j`. Buttons with the same period and the same
//! *column* (their entries in the free generators) are shifted by the same amount `s`, whatever
//! the free `t` are; that `s` is a multiple of `d`, the gcd of the column and the period. So a
//! group's cost is one of its *table* `F(s) = Σ_{j in group} cost(y_j + s mod L)`, and
//! `Σ_groups min_{d | s} F(s)` bounds every plan below (a group of zero column has `s = 0`).
//! The groups of one level join into those of the next (one generator fewer free), and fixing
//! that generator to `τ` makes the next level's tables `F'(s) = Σ_children F(s + c·τ)`, `c` the
//! child's entry in that generator: a step costs the table entries, not the buttons. At the
//! last level the groups' columns are all zero and the bound is the plan's exact cost. Groups
//! whose columns are unit multiples `λ·c` of one column `c` (same period) shift by `λ·s` for
//! one `s`, so they are bounded together as a *class*: `min_s Σ F_λ(λ·s)`, which is tighter
//! than their separate minima (for a prime modulus every column is a unit multiple of one whose
//! first entry is 1, so classes are the points of the projective space).
//!
//! The generators are fixed in an order chosen from the bottom up so that few groups remain for
//! as many levels as possible (fewer, larger groups bound more tightly and cost less). A node's
//! children (generator orders up to [`ORDERED_CHILDREN`]) are built in one pass and visited
//! cheapest bound first, so good plans come early and prune the rest. The walk's first levels
//! (in the order of their multiples) are cut into [`PIECES`] pieces that run on every core and
//! share the best cost known; each piece keeps the first best plan of its own, and a piece is
//! cut only by a strictly better plan found elsewhere, so the plan returned (the first best in
//! walk order) does not depend on the number of threads, unless a budget cut the walk.
//!
//! Symmetries: on a prime modulus, permutations of the buttons that map the set onto itself
//! (a square board's rotations and reflections) let the walk skip whole cosets. The set is
//! [`Split`] so that its first generators label the cosets of a subspace every symmetry maps
//! onto itself (the smallest that holds the deepest generators of the plain order); once they
//! are fixed, a coset whose label some symmetry maps to a smaller one is left, its plans'
//! images costing the same in the smaller coset.
//!
//! Where it stands: on Lights Out grids mod 3, 5 and 7 the bound prunes only once three or four
//! generators remain free, so the walk costs about `p^(k−3)` nodes of a few thousand table
//! entries each, less the symmetries' share (3 to 8 times on square boards): sets of 3^18 or
//! 5^12 plans take seconds, 3^21 under a minute, 7^12 and 5^16 more than two minutes.
//!
//! Costs: `total` is the sum of presses; `buttons` is `(buttons pressed) · 2^32 + total`; `max`
//! keeps the largest press and the total apart, its bound being the largest of the groups'
//! smallest maxima with the sum of their smallest totals (a valid bound for the pair in
//! lexicographic order). A press beyond its limit costs "infeasible".

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use rayon::prelude::*;

use super::Problem;
use crate::algebra::arith::{add_mod, mul_mod};
use crate::solve::minweight::Part;
use crate::solve::orbits::{Action, Split};
use crate::solve::search::{Budget, Objective, Score};
use levels::{Levels, levels};

mod levels;

/// Periods above this are not walked (a group's table has one entry per residue).
const MAX_PERIOD: u64 = 1024;

/// The table entries of all levels together may not exceed this (16 bytes an entry at most, on
/// every worker).
const MAX_ENTRIES: usize = 1 << 22;

/// The walk is cut into at least this many pieces (or one a choice of every generator), which
/// run on every core.
const PIECES: u64 = 256;

// A piece's levels are never below a split's top generators (`p^depth` reaches `PIECES` no
// later than `p^top` reaches the cosets' count), so `Piece::visit` sees every coset's level.
const _: () = assert!(PIECES < crate::solve::orbits::MIN_COSETS);

/// Children of a node are visited cheapest bound first when the generator's order is at most
/// this (a table a child).
const ORDERED_CHILDREN: u64 = 16;

/// More generators than this are not walked (the walk recurses once a generator).
const MAX_GENERATORS: usize = 4096;

/// Nodes a piece counts before it adds them to the shared count and looks at the clock.
const CHECK_EVERY: u64 = 256;

/// Table entries a piece works through before it looks at the clock, whatever its nodes (about
/// a millisecond).
const CHECK_WORK: usize = 1 << 18;

/// What [`Prepared::run`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Walked {
    /// The best plan found that scores at most the incumbent's score, if any.
    pub best: Option<Vec<u64>>,
    /// Its multiple of each of the walk's generators ([`Prepared::shape`]).
    pub digits: Option<Vec<u64>>,
    /// Whether the walk finished: no plan scores better than `best` (or than the incumbent when
    /// `best` is `None`).
    pub complete: bool,
    /// Nodes visited (a node is one partial choice of the generators).
    pub nodes: u64,
    /// Cosets left unwalked because a symmetry maps them to a smaller one.
    pub skipped: u64,
}

/// The cost of a set of buttons under one objective, as a lower bound or exactly.
trait Cost: Copy + Send + Sync {
    const ZERO: Self;
    /// One button pressed `v` times (`within` its limit, or not).
    fn of(v: u64, within: bool, objective: Objective) -> Self;
    /// Two disjoint sets of buttons.
    fn add(self, other: Self) -> Self;
    /// A bound on either of two costs.
    fn meet(self, other: Self) -> Self;
    /// Comparable in the objective's order; `u64::MAX` is infeasible.
    fn key(self) -> u64;
}

/// `total` and `buttons`: one number, `u64::MAX` infeasible.
#[derive(Clone, Copy)]
struct Sum(u64);

impl Cost for Sum {
    const ZERO: Self = Sum(0);
    #[inline]
    fn of(v: u64, within: bool, objective: Objective) -> Self {
        match (within, objective) {
            (false, _) => Sum(u64::MAX),
            (true, Objective::Buttons) if v != 0 => Sum((1 << 32) + v),
            (true, _) => Sum(v),
        }
    }
    #[inline]
    fn add(self, other: Self) -> Self {
        Sum(self.0.saturating_add(other.0))
    }
    #[inline]
    fn meet(self, other: Self) -> Self {
        Sum(self.0.min(other.0))
    }
    #[inline]
    fn key(self) -> u64 {
        self.0
    }
}

/// `max`: the largest press and the total, kept apart.
#[derive(Clone, Copy)]
struct MaxSum {
    max: u64,
    sum: u64,
}

impl Cost for MaxSum {
    const ZERO: Self = MaxSum { max: 0, sum: 0 };
    #[inline]
    fn of(v: u64, within: bool, _: Objective) -> Self {
        MaxSum { max: v, sum: if within { v } else { u64::MAX } }
    }
    #[inline]
    fn add(self, other: Self) -> Self {
        MaxSum { max: self.max.max(other.max), sum: self.sum.saturating_add(other.sum) }
    }
    #[inline]
    fn meet(self, other: Self) -> Self {
        MaxSum { max: self.max.min(other.max), sum: self.sum.min(other.sum) }
    }
    #[inline]
    fn key(self) -> u64 {
        if self.sum == u64::MAX { u64::MAX } else { self.max << 40 | self.sum }
    }
}

/// The key of a plan's score, in the order [`Cost::key`] uses.
fn score_key(score: Score, objective: Objective) -> u64 {
    let (a, b) = (score.0.min(u64::MAX as u128) as u64, score.1.min(u64::MAX as u128) as u64);
    match objective {
        Objective::Total => a,
        Objective::Buttons => (a << 32).saturating_add(b),
        Objective::Max => (a << 40).saturating_add(b),
    }
}

/// Whether a set can be walked: periods of at most [`MAX_PERIOD`], costs within their keys' bits
/// and each button's group at every level within [`MAX_ENTRIES`] (the tables are checked as the
/// groups are built).
fn eligible(generators: &[(Vec<u64>, u64)], periods: &[u64]) -> bool {
    let n = periods.len() as u64;
    let widest = periods.iter().copied().max().unwrap_or(1);
    widest <= MAX_PERIOD
        && n.saturating_mul(widest) < 1 << 32
        && generators.len() <= MAX_GENERATORS
        && (generators.len() as u64 + 1).saturating_mul(n) <= MAX_ENTRIES as u64
}

/// A plan found: its cost's key and the multiple of each generator.
type Found = (u64, Vec<u64>);

/// The shared state of the pieces.
struct Shared {
    best: AtomicU64,
    nodes: AtomicU64,
    stop: AtomicBool,
    budget: Budget,
    started: Instant,
}

/// One piece's walk.
struct Piece<'a, C: Cost> {
    levels: &'a Levels,
    generators: &'a [(Vec<u64>, u64)],
    /// The cosets skipped for the symmetries, if any.
    orbits: Option<&'a Orbits<'a>>,
    shared: &'a Shared,
    /// Each level's tables, [`Levels::slots`] of them.
    tables: Vec<Vec<C>>,
    /// The multiple chosen of each generator (by generator).
    digits: Vec<u64>,
    /// The piece's best: its key and digits.
    best: Option<Found>,
    nodes: u64,
    unflushed: u64,
    /// Table entries worked through since the clock was last read.
    work: usize,
    /// Cosets left for the symmetries.
    skipped: u64,
}

/// `target[s] += source[(s + shift) mod L]` for every `s < L`, the length of both.
fn add_rotated<C: Cost>(target: &mut [C], source: &[C], shift: usize) {
    let (head, tail) = target.split_at_mut(target.len() - shift);
    for (t, &v) in head.iter_mut().zip(&source[shift..]) {
        *t = t.add(v);
    }
    for (t, &v) in tail.iter_mut().zip(&source[..shift]) {
        *t = t.add(v);
    }
}

impl<C: Cost> Piece<'_, C> {
    /// Counts a node at level `l`; false once the walk must stop.
    fn tick(&mut self, l: usize) -> bool {
        self.nodes += 1;
        self.unflushed += 1;
        // A node's work is about its table's entries: nodes of the first levels, with a group
        // for nearly every button, cost thousands of times more than the last levels' nodes.
        self.work += self.levels.entries[l];
        // The first node looks at the clock too.
        if self.unflushed >= CHECK_EVERY || self.work >= CHECK_WORK || self.nodes == 1 {
            crate::bounded::checkpoint();
            let nodes = self.shared.nodes.fetch_add(self.unflushed, Ordering::Relaxed) + self.unflushed;
            (self.unflushed, self.work) = (0, 0);
            if nodes > self.shared.budget.nodes || self.shared.budget.expired(self.shared.started) {
                self.shared.stop.store(true, Ordering::Relaxed);
            }
        }
        !self.shared.stop.load(Ordering::Relaxed)
    }

    /// Level `l`'s table in `slot`.
    fn table(&self, l: usize, slot: usize) -> &[C] {
        let size = self.levels.entries[l];
        &self.tables[l][slot * size..(slot + 1) * size]
    }

    /// Level `l + 1`'s table in slot `into` from level `l`'s in slot `from`, with generator
    /// `order[l]` fixed to `tau`.
    fn descend(&mut self, l: usize, from: usize, tau: u64, into: usize) {
        let (upper, lower) = self.tables.split_at_mut(l + 1);
        let (above, below) = (self.levels.entries[l], self.levels.entries[l + 1]);
        let from = &upper[l][from * above..(from + 1) * above];
        let to = &mut lower[0][into * below..(into + 1) * below];
        to.fill(C::ZERO);
        for group in &self.levels.groups[l] {
            let period = group.period as usize;
            let shift = (group.coefficient * (tau % group.period) % group.period) as usize;
            let parent = &self.levels.groups[l + 1][group.parent];
            let source = &from[group.offset..group.offset + period];
            add_rotated(&mut to[parent.offset..parent.offset + period], source, shift);
        }
    }

    /// Level `l + 1`'s tables in slots `0..order` from level `l`'s in slot `from`, with
    /// generator `order[l]` fixed to each multiple `τ < order` in turn (one pass over the
    /// groups; a group's shift grows by its entry from one multiple to the next).
    fn descend_all(&mut self, l: usize, from: usize, order: usize) {
        let (upper, lower) = self.tables.split_at_mut(l + 1);
        let (above, below) = (self.levels.entries[l], self.levels.entries[l + 1]);
        let from = &upper[l][from * above..(from + 1) * above];
        let to = &mut lower[0][..order * below];
        to.fill(C::ZERO);
        for group in &self.levels.groups[l] {
            let period = group.period as usize;
            let step = group.coefficient as usize;
            let parent = self.levels.groups[l + 1][group.parent].offset;
            let source = &from[group.offset..group.offset + period];
            let mut shift = 0usize;
            for tau in 0..order {
                let start = tau * below + parent;
                add_rotated(&mut to[start..start + period], source, shift);
                shift += step;
                if shift >= period {
                    shift -= period;
                }
            }
        }
    }

    /// The bound of level `l`'s table in `slot`: every class of groups at its best reachable
    /// shift.
    fn bound(&self, l: usize, slot: usize) -> u64 {
        let table = self.table(l, slot);
        let groups = &self.levels.groups[l];
        let members = &self.levels.members[l];
        let mut sum = C::ZERO;
        for class in &self.levels.classes[l] {
            let best = if class.len() == 1 {
                let group = &groups[members[class.start].0];
                let entries = &table[group.offset..group.offset + group.period as usize];
                let mut best = entries[0];
                for v in entries.iter().step_by(group.step.max(1) as usize).skip(1) {
                    best = best.meet(*v);
                }
                best
            } else {
                // A unit multiple λ of the class's column shifts by λ·s.
                let period = groups[members[class.start].0].period;
                let mut best: Option<C> = None;
                let period = period as usize;
                for s in 0..period {
                    let mut cost = C::ZERO;
                    for &(g, lambda) in &members[class.clone()] {
                        // λ·s mod L; λ < L and s < L, both below 2^10.
                        cost = cost.add(table[groups[g].offset + lambda as usize * s % period]);
                    }
                    best = Some(best.map_or(cost, |b| b.meet(cost)));
                }
                best.unwrap_or(C::ZERO)
            };
            sum = sum.add(best);
        }
        sum.key()
    }

    /// Whether a node whose bound is `key` may hold a plan still wanted.
    fn wanted(&self, key: u64) -> bool {
        let own = self.best.as_ref().map_or(u64::MAX, |(b, _)| *b);
        key != u64::MAX && key < own && key <= self.shared.best.load(Ordering::Relaxed)
    }

    /// The walk below a node at level `l`, its table in `slot` and its bound `key`; false when
    /// it must stop. The children are visited cheapest bound first when their orders fit the
    /// slots (ties in order of the multiple), else in order.
    fn visit(&mut self, l: usize, slot: usize, key: u64) -> bool {
        if !self.tick(l) {
            return false;
        }
        if !self.wanted(key) {
            return true;
        }
        // The top generators just fixed: a coset a symmetry maps to a smaller one is skipped.
        if let Some(orbits) = self.orbits
            && l == orbits.split.top
            && !orbits.walked(&self.digits)
        {
            self.skipped += 1;
            return true;
        }
        let k = self.levels.order.len();
        if l == k {
            self.best = Some((key, self.digits.clone()));
            self.shared.best.fetch_min(key, Ordering::Relaxed);
            return true;
        }
        let generator = self.levels.order[l];
        let order = self.generators[generator].1;
        if self.levels.slots[l + 1] as u64 == order {
            self.descend_all(l, slot, order as usize);
            let mut children = [(0u64, 0u64); ORDERED_CHILDREN as usize];
            for tau in 0..order {
                children[tau as usize] = (self.bound(l + 1, tau as usize), tau);
            }
            let children = &mut children[..order as usize];
            children.sort_unstable();
            for &(child, tau) in children.iter() {
                self.digits[generator] = tau;
                if !self.visit(l + 1, tau as usize, child) {
                    return false;
                }
            }
        } else {
            for tau in 0..order {
                self.descend(l, slot, tau, 0);
                self.digits[generator] = tau;
                let child = self.bound(l + 1, 0);
                if !self.visit(l + 1, 0, child) {
                    return false;
                }
            }
        }
        self.digits[generator] = 0;
        true
    }
}

/// The best plan of the set within its limits for its objective, better than or as good as
/// `incumbent` (the score of a plan known), or `None` when the set is not [`eligible`] or its
/// tables would be too large.
///
/// `symmetries` (permutations of the buttons, as for [`prepare`]) let the walk skip the cosets
/// of an invariant subspace that a symmetry maps to a smaller one.
#[cfg(test)]
pub(crate) fn walk(
    problem: Problem,
    incumbent: Option<Score>,
    budget: Budget,
    symmetries: &[Vec<usize>],
) -> Option<Walked> {
    Some(prepare(problem, symmetries)?.run(problem.x0, incumbent, budget))
}

/// A set's walk made ready: its levels built, its tables known to fit.
pub(crate) struct Prepared<'a> {
    problem: Problem<'a>,
    levels: Levels,
    /// The set cut for its symmetries: the walk's generators are the split's.
    split: Option<Split>,
}

/// The walk of a set, or `None` when the set is not [`eligible`] or its tables would be too
/// large (its `x0` is not read). `symmetries` are permutations of the buttons (`perm[j]` is
/// where button `j` goes) that may map the set onto itself; on a prime modulus the ones that
/// do (checked, see [`Split`]) let the walk skip all but the first coset of each orbit.
pub(crate) fn prepare<'a>(problem: Problem<'a>, symmetries: &[Vec<usize>]) -> Option<Prepared<'a>> {
    if !eligible(problem.generators, problem.periods) {
        return None;
    }
    let plain = levels(problem.generators, problem.periods, 0)?;
    let deepest: Vec<usize> = plain.order.iter().rev().copied().collect();
    let split = Split::new(problem.generators, problem.periods, problem.limits, symmetries, &deepest);
    if let Some(split) = split
        && let Some(levels) = levels(&split.generators, problem.periods, split.top)
    {
        return Some(Prepared { problem, levels, split: Some(split) });
    }
    Some(Prepared { problem, levels: plain, split: None })
}

impl Prepared<'_> {
    /// Whether the walk skips cosets for the set's symmetries.
    #[cfg(test)]
    pub(crate) fn symmetric(&self) -> bool {
        self.split.is_some()
    }

    /// The walk from the plan `x0` of the set (in place of the problem's).
    pub(crate) fn run(&self, x0: &[u64], incumbent: Option<Score>, budget: Budget) -> Walked {
        self.run_part(x0, incumbent, budget, Part::WHOLE)
    }

    /// The walk's generators (the split's, when the set is split for its symmetries).
    fn generators(&self) -> &[(Vec<u64>, u64)] {
        self.split.as_ref().map_or(self.problem.generators, |s| &s.generators[..])
    }

    /// [`Prepared::run`] over one part of the walk: the pieces of [`Part::range`] among the
    /// walk's pieces (see [`cut`]). `complete` then says that no plan of the part scores better
    /// than `best` (or the incumbent).
    pub(crate) fn run_part(
        &self,
        x0: &[u64],
        incumbent: Option<Score>,
        budget: Budget,
        part: Part,
    ) -> Walked {
        let started = Instant::now();
        let generators = self.generators();
        let problem = Problem { x0, generators, ..self.problem };
        let orbits = self.split.as_ref().map(|split| Orbits { actions: split.actions(x0), split });
        let incumbent = incumbent.map_or(u64::MAX, |s| score_key(s, problem.objective));
        let orbits = orbits.as_ref();
        let run = Run { levels: &self.levels, problem, orbits, incumbent, budget, started, part };
        match problem.objective {
            Objective::Max => run.go::<MaxSum>(),
            _ => run.go::<Sum>(),
        }
    }

    /// The walk's generators and the order it fixes them in.
    pub(crate) fn shape(&self) -> Shape {
        Shape { generators: self.generators().to_vec(), order: self.levels.order.clone() }
    }

    /// Every plan of `part` of the walk from `x0`, piece by piece (each piece's plans with the
    /// later generators in walk order, the last fastest), with no bound and no symmetry skipping:
    /// what the part's walk answers for. `None` when the part holds more than `most` plans.
    pub(crate) fn part_plans(&self, x0: &[u64], part: Part, most: u64) -> Option<Vec<Vec<u64>>> {
        let generators = self.generators();
        let periods = self.problem.periods;
        let order = &self.levels.order;
        let (depth, pieces) = cut(&self.levels, generators, part);
        let (lo, hi) = part.range(u128::from(pieces));
        let below: u128 = order[depth..].iter().map(|&i| u128::from(generators[i].1)).product();
        if (hi - lo).saturating_mul(below) > u128::from(most) {
            return None;
        }
        let mut out = Vec::new();
        for piece in lo as u64..hi as u64 {
            let mut digits = vec![0u64; generators.len()];
            for (l, tau) in piece_digits(&self.levels, generators, depth, piece).into_iter().enumerate() {
                digits[order[l]] = tau;
            }
            for mut rest in 0..below as u64 {
                for &i in order[depth..].iter().rev() {
                    (digits[i], rest) = (rest % generators[i].1, rest / generators[i].1);
                }
                out.push(plan_of(x0, generators, periods, &digits));
            }
        }
        Some(out)
    }
}

/// `x0 + Σ t_i·g_i`, button `j` modulo its period.
pub(crate) fn plan_of(
    x0: &[u64],
    generators: &[(Vec<u64>, u64)],
    periods: &[u64],
    digits: &[u64],
) -> Vec<u64> {
    let mut x: Vec<u64> = x0.iter().zip(periods).map(|(&v, &p)| v % p).collect();
    for ((g, _), &t) in generators.iter().zip(digits) {
        for ((x, &v), &p) in x.iter_mut().zip(g).zip(periods) {
            *x = add_mod(*x, mul_mod(v % p, t % p, p), p);
        }
    }
    x
}

/// What a walk is, for checking the parts' reports without walking: its generators (the
/// split's when the set is split for its symmetries) and the order it fixes them in.
#[derive(Clone, Debug)]
pub(crate) struct Shape {
    /// The generators and their orders.
    pub generators: Vec<(Vec<u64>, u64)>,
    /// `order[l]`: the generator fixed at level `l`.
    pub order: Vec<usize>,
}

impl Shape {
    /// The depth of the walk's pieces and how many there are, for `count` parts.
    pub(crate) fn cut(&self, count: u64) -> (usize, u64) {
        cut_orders(&self.order, &self.generators, count)
    }

    /// The piece of the multiples `digits` (one a generator) among the pieces of a walk cut for
    /// `count` parts, and how many pieces there are; `None` when `digits` are not multiples of
    /// the generators (one each, below its order).
    pub(crate) fn piece(&self, count: u64, digits: &[u64]) -> Option<(u64, u64)> {
        if digits.len() != self.generators.len()
            || digits.iter().zip(&self.generators).any(|(&t, (_, order))| t >= *order)
        {
            return None;
        }
        let (depth, pieces) = cut_orders(&self.order, &self.generators, count);
        let piece = self.order[..depth]
            .iter()
            .fold(0u64, |piece, &i| piece.saturating_mul(self.generators[i].1).saturating_add(digits[i]));
        Some((piece, pieces))
    }
}

/// The walk's pieces for `part`: the multiples of its first `depth` generators (in walk order),
/// at least [`PIECES`] for each part (or a choice of every generator), so that a part keeps
/// every core busy. Returns `(depth, pieces)`.
fn cut(levels: &Levels, generators: &[(Vec<u64>, u64)], part: Part) -> (usize, u64) {
    cut_orders(&levels.order, generators, part.count)
}

/// [`cut`] for a walk whose levels fix the generators in `order`, cut for `count` parts.
fn cut_orders(order: &[usize], generators: &[(Vec<u64>, u64)], count: u64) -> (usize, u64) {
    let k = generators.len();
    let wanted = PIECES.saturating_mul(count.max(1));
    let (mut depth, mut pieces) = (0usize, 1u64);
    while depth < k && pieces < wanted {
        pieces = pieces.saturating_mul(generators[order[depth]].1);
        depth += 1;
    }
    (depth, pieces)
}

/// The multiples of the first `depth` generators (in walk order) of `piece`: the last level
/// fastest, so that pieces in order are the walk's order.
fn piece_digits(levels: &Levels, generators: &[(Vec<u64>, u64)], depth: usize, piece: u64) -> Vec<u64> {
    let mut taus = vec![0u64; depth];
    let mut rest = piece;
    for l in (0..depth).rev() {
        let order = generators[levels.order[l]].1;
        (taus[l], rest) = (rest % order, rest / order);
    }
    taus
}

/// The symmetries' actions on the cosets of a split, for one walk.
struct Orbits<'a> {
    split: &'a Split,
    actions: Vec<Action>,
}

impl Orbits<'_> {
    /// Whether the coset of the top generators' multiples in `digits` is to be walked.
    fn walked(&self, digits: &[u64]) -> bool {
        self.split.least(&self.actions, &digits[..self.split.top])
    }
}

/// One run of the walk: over the pieces of `part`.
struct Run<'a> {
    levels: &'a Levels,
    problem: Problem<'a>,
    orbits: Option<&'a Orbits<'a>>,
    incumbent: u64,
    budget: Budget,
    started: Instant,
    part: Part,
}

impl Run<'_> {
    /// Walks the part's pieces on every core with costs `C`, from the root's tables.
    fn go<C: Cost>(self) -> Walked {
        let Run { levels, problem, orbits, incumbent, budget, started, part } = self;
        let generators = problem.generators;
        let k = generators.len();
        let root = root_tables::<C>(levels, problem);
        // Pieces: the multiples of the first generators in walk order (in the order of their
        // multiples, not of their bounds), as many on one thread as on many, so that the plan
        // found does not depend on the threads; the part's are a range of them.
        let (depth, pieces) = cut(levels, generators, part);
        let (lo, hi) = part.range(u128::from(pieces));
        let shared = Shared {
            best: AtomicU64::new(incumbent),
            nodes: AtomicU64::new(0),
            stop: AtomicBool::new(false),
            budget,
            started,
        };
        let stop = crate::bounded::Stop::here();
        let results: Vec<(Option<Found>, u64, u64)> = (lo as u64..hi as u64)
            .into_par_iter()
            // The tables are made once a worker, not once a piece (every table is written before
            // it is read).
            .map_init(
                || {
                    levels
                        .entries
                        .iter()
                        .zip(&levels.slots)
                        .map(|(&e, &n)| vec![C::ZERO; e * n])
                        .collect::<Vec<_>>()
                },
                |tables, piece| {
                    stop.carry(|| {
                        // Pieces that start after the walk was stopped do not set up their tables (on
                        // a big board that alone took 0.2 s past the budget).
                        if shared.stop.load(Ordering::Relaxed) {
                            return (None, 0, 0);
                        }
                        let mut walker = Piece::<C> {
                            levels,
                            generators,
                            orbits,
                            shared: &shared,
                            tables: std::mem::take(tables),
                            digits: vec![0; k],
                            best: None,
                            nodes: 0,
                            unflushed: 0,
                            work: 0,
                            skipped: 0,
                        };
                        walker.tables[0][..root.len()].copy_from_slice(&root);
                        let taus = piece_digits(levels, generators, depth, piece);
                        for (l, &tau) in taus.iter().enumerate() {
                            walker.descend(l, 0, tau, 0);
                            walker.digits[levels.order[l]] = tau;
                        }
                        // A piece below the cosets' level: its coset was fixed with its digits.
                        if let Some(orbits) = orbits
                            && orbits.split.top < depth
                            && !orbits.walked(&walker.digits)
                        {
                            *tables = std::mem::take(&mut walker.tables);
                            return (None, 0, 1);
                        }
                        let key = walker.bound(depth, 0);
                        walker.visit(depth, 0, key);
                        shared.nodes.fetch_add(walker.unflushed, Ordering::Relaxed);
                        *tables = std::mem::take(&mut walker.tables);
                        (walker.best, walker.nodes, walker.skipped)
                    })
                },
            )
            .collect();
        let complete = !shared.stop.load(Ordering::Relaxed);
        gathered(results, complete, problem)
    }
}

/// The root's tables: each group's cost at every shift of the particular plan.
fn root_tables<C: Cost>(levels: &Levels, problem: Problem) -> Vec<C> {
    let Problem { x0, periods, limits, objective, .. } = problem;
    let mut root = vec![C::ZERO; levels.entries[0]];
    for (j, &g) in levels.root.iter().enumerate() {
        let group = &levels.groups[0][g];
        let period = periods[j];
        for s in 0..period {
            let v = (x0[j] % period + s) % period;
            let within = limits.is_none_or(|l| v <= l[j]);
            let slot = &mut root[group.offset + s as usize];
            *slot = slot.add(C::of(v, within, objective));
        }
    }
    root
}

/// The walk's outcome from its pieces' (best found, nodes, cosets skipped), in piece order: the
/// first best plan, the nodes and the cosets skipped in all.
fn gathered(results: Vec<(Option<Found>, u64, u64)>, complete: bool, problem: Problem) -> Walked {
    let Problem { x0, generators, periods, .. } = problem;
    let nodes = results.iter().map(|(_, n, _)| n).sum();
    let skipped = results.iter().map(|(_, _, s)| s).sum();
    let mut best: Option<Found> = None;
    for (found, _, _) in results {
        if let Some((key, digits)) = found
            && best.as_ref().is_none_or(|(b, _)| key < *b)
        {
            best = Some((key, digits));
        }
    }
    let digits = best.map(|(_, digits)| digits);
    let best = digits.as_ref().map(|digits| plan_of(x0, generators, periods, digits));
    Walked { best, digits, complete, nodes, skipped }
}
