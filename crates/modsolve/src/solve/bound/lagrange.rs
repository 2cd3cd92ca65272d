//! The Lagrangian bound over overlapping groups of cells, for `total`.
//!
//! Every group `G` (one cell, or two or three cells that share buttons) gets a share
//! `λ_Gj >= 0` of each of its buttons, with `Σ_G λ_Gj <= 1` for every button `j`. Then for any
//! plan `Σ_j x_j >= Σ_j Σ_G λ_Gj·x_j >= Σ_G T_G(λ)`, where `T_G(λ)` is the least of
//! `Σ_{j∈B(G)} λ_Gj·x_j` over the presses of the group's buttons alone that meet the group's
//! congruences (within the press limits), worked out exactly by dynamic programming over the
//! group's residues. Groups may share cells and buttons: each is a relaxation of its own. The
//! best such bound is the linear relaxation over the intersection of the groups' convex hulls,
//! stronger than the cell rows and group cuts of the linear programme in [`super`].
//!
//! The shares start even and climb by projected subgradient steps (Polyak's, towards a tenth
//! above the best value so far, their scale halved whenever a few rounds raise nothing): a
//! group's subgradient is its least plan `x^G`, each step goes along it deflected by half the
//! last step's direction (which damps the zigzag between rounds), and each button's shares are
//! then projected back onto `{λ >= 0, Σ_G λ_Gj <= 1}`.
//!
//! On boards with lines ([`super::lines`]: a grid's rows and columns), the ascent then runs
//! again over the lines, whose tables see every pair of neighbours along a row or a column at
//! once, its shares started from the best round's (each cell's part of a group's share split
//! among the cell's lines, so that the first round bounds at least what the single cells did).
//! The lines' steps are more patient than the groups' ([`LINE_STALL`]). Mixed 100×100 grids of
//! self weight 2: 7,349 → 7,663 and 7,356 → 7,665 presses, in about 50 rounds of 3.5 s on the
//! bound's core (AMD EPYC, beside the window search: the run's wall time unchanged); with self
//! weight 1 the lines stay under the programme's bound there, and pass it on 30×30 grids (869
//! and 900 against 864 and 892).
//!
//! A round's groups are evaluated in batches on every core when the round is large
//! ([`PARALLEL_WORK`]): the bound runs beside the window search, and once that search ends its
//! core takes batches too (a 140×140 mixed grid's run: 8.8 → 7.5 s and 9.1 → 8.2 s, AMD EPYC).
//! The sums are of integers and each group writes its own plan, so the bound is the same
//! whatever the threads do.
//!
//! Floating point only chooses the shares: every bound is evaluated with the shares rounded
//! down to integers in units of `1 / UNIT` (their sums checked in integers), so it is proven
//! whatever the rounding. The work, counted in dynamic-programming steps, is bounded by fixed
//! counts (no clock).

use num_integer::Integer;

use crate::solve::search::SearchProblem;

/// A press's cost in share units.
const UNIT: u64 = 1 << 20;
/// Dynamic-programming steps (a state's relaxation along one button) over all rounds.
const WORK: u64 = 150_000_000;
/// Rounds of subgradient steps at most, and at least this many for groups larger than one cell
/// (else single cells are used).
const ROUNDS: usize = 300;
const MIN_ROUNDS: usize = 40;
/// The step's first scale, halved after [`STALL`] rounds in a row that raise no bound. (It
/// was 2, halved after 20: a 100×100 mixed grid's single cells then climbed slowly between
/// halvings, each of which raised the bound at once, and 144 rounds ended at 6,965 presses
/// where 4 and 3 reach 7,194; 8,832 against 8,645 and 7,233 against 6,969 on two others,
/// 16,614 against 16,461 on a 140×140 grid. With [`DEFLECTION`], 8 reaches 9,061, 7,259,
/// 7,266 and 17,279 there, where 4 reaches 8,839, 7,240, 7,240 and 16,959.)
const THETA: f64 = 8.0;
const STALL: usize = 3;
/// A step's direction is the subgradient plus this much of the last step's direction (a
/// deflected subgradient): plain steps zigzag across the ridges of the bound. On mixed grids
/// at the same rounds (100×100, four seeds and rules; 140×140; 300×300): 8,832 → 9,061,
/// 8,944 → 9,234, 7,194 → 7,259, 7,233 → 7,266, 16,614 → 17,279 and 64,046 → 73,425; 0.3 did
/// worse on each, 0.7 better on two and worse on two, and four times the rounds add under 0.5 %.
const DEFLECTION: f64 = 0.5;
/// Dynamic-programming steps of the lines' rounds ([`along_lines`]) at most, and their
/// rounds at most and at least.
const LINE_WORK: u64 = 1_500_000_000;
const LINE_ROUNDS: usize = 400;
const MIN_LINE_ROUNDS: usize = 20;
/// The lines' step scale is halved after a seventh of their rounds in a row that raise no
/// bound, from 3 to 10 rounds ([`STALL`] throughout stopped them early: their first round,
/// from the groups' shares, is already high, and the stalls that follow halved the scale to
/// nothing within a few dozen rounds). Mixed grids of self weight 2 (AMD EPYC): 30×30, 200
/// rounds, 672 → 728 and 737 → 750 presses (400 rounds of 10: 731 and 753); 100×100, 53 and 54
/// rounds of 7: 7,568 → 7,663 and 7,664 → 7,665 (5: 7,595 and 7,641; 10: 7,597 and 7,649).
const LINE_STALL: std::ops::RangeInclusive<usize> = 3..=10;
const LINE_STALL_DIVISOR: usize = 7;

/// The lines' stalled rounds before a halving, for `rounds` rounds ([`LINE_STALL`]).
fn line_stall(rounds: usize) -> usize {
    (rounds / LINE_STALL_DIVISOR).clamp(*LINE_STALL.start(), *LINE_STALL.end())
}
/// A group's residue states at most.
const GROUP_STATES: u64 = 1728;
/// Cells in a group at most.
const GROUP_CELLS: usize = 3;

/// A group of cells: its moduli, its target state, and its buttons with their weights on the
/// group's cells and their highest useful press count.
struct Group {
    cells: Vec<usize>,
    moduli: Vec<u64>,
    target: usize,
    states: usize,
    buttons: Vec<usize>,
    /// Button `k`'s weight on the group's `c`-th cell at `k · cells + c`.
    weights: Vec<u64>,
    tops: Vec<u64>,
    /// The button's press counts cover its whole period in the group.
    full: Vec<bool>,
}

impl Group {
    /// The group of `cells`, `None` past [`GROUP_STATES`] states.
    fn new(problem: &SearchProblem, by_cell: &[Vec<(usize, u64)>], cells: &[usize]) -> Option<Group> {
        let moduli: Vec<u64> = cells.iter().map(|&i| problem.moduli[i]).collect();
        let states = moduli.iter().try_fold(1u64, |s, &m| s.checked_mul(m).filter(|&s| s <= GROUP_STATES))?;
        let mut buttons: Vec<usize> =
            cells.iter().flat_map(|&i| by_cell[i].iter().map(|&(j, _)| j)).collect();
        buttons.sort_unstable();
        buttons.dedup();
        let mut weights = Vec::with_capacity(buttons.len() * cells.len());
        let (mut tops, mut full) = (Vec::with_capacity(buttons.len()), Vec::with_capacity(buttons.len()));
        for &j in &buttons {
            let from = weights.len();
            weights.extend(
                cells.iter().map(|&i| by_cell[i].iter().find(|&&(b, _)| b == j).map_or(0, |&(_, a)| a)),
            );
            let period =
                weights[from..].iter().zip(&moduli).fold(1u64, |l, (&a, &m)| l.lcm(&(m / a.gcd(&m))));
            let top = problem.highest[j].min(period - 1);
            tops.push(top);
            full.push(top + 1 == period);
        }
        let mut group = Group {
            cells: cells.to_vec(),
            moduli,
            target: 0,
            states: states as usize,
            buttons,
            weights,
            tops,
            full,
        };
        let target: Vec<u64> = cells.iter().map(|&i| problem.rhs[i] % problem.moduli[i]).collect();
        group.target = group.encode(&target);
        Some(group)
    }

    /// The state of residues `r` (first cell fastest).
    fn encode(&self, r: &[u64]) -> usize {
        r.iter().zip(&self.moduli).rev().fold(0usize, |s, (&v, &m)| s * m as usize + v as usize)
    }

    /// The state after one press of the `k`-th button (`forward` false: one press undone).
    fn step(&self, s: usize, k: usize, forward: bool) -> usize {
        let (mut rest, mut t, mut radix) = (s as u64, 0u64, 1u64);
        let cells = self.moduli.len();
        for (&m, &a) in self.moduli.iter().zip(&self.weights[k * cells..(k + 1) * cells]) {
            let v = rest % m;
            let v = if forward { (v + a) % m } else { (v + m - a) % m };
            t += v * radix;
            rest /= m;
            radix *= m;
        }
        t as usize
    }

    /// Dynamic-programming steps of one evaluation.
    fn work(&self) -> u64 {
        let per: u64 = self.tops.iter().zip(&self.full).map(|(&t, &f)| if f { 3 } else { t + 2 }).sum();
        per * self.states as u64
    }

    /// The least of `Σ_k cost_k·x_k` meeting the group's target, its plan written to `x` (one
    /// count per button); `None` when no presses of the group's buttons meet it. Works in
    /// `scratch`, so that a round over a million groups allocates nothing.
    fn least(&self, cost: &[u64], scratch: &mut Scratch, x: &mut [u64]) -> Option<u64> {
        const NONE: u64 = u64::MAX;
        let states = self.states;
        let Scratch { layers, seen, cycle } = scratch;
        // layers[k·states + s]: the least cost of state `s` with the first `k` buttons.
        layers.clear();
        layers.resize((cost.len() + 1) * states, NONE);
        layers[0] = 0;
        for (k, &c) in cost.iter().enumerate() {
            let (done, rest) = layers.split_at_mut((k + 1) * states);
            let table = &done[k * states..];
            let next = &mut rest[..states];
            next.copy_from_slice(table);
            if self.full[k] {
                // Along each cycle of the press (all of the button's period), two rounds of
                // relaxation give the least cost of every count.
                seen.clear();
                seen.resize(states, false);
                for s0 in 0..states {
                    if seen[s0] {
                        continue;
                    }
                    cycle.clear();
                    let mut s = s0;
                    loop {
                        seen[s] = true;
                        cycle.push(s);
                        s = self.step(s, k, true);
                        if s == s0 {
                            break;
                        }
                    }
                    let p = cycle.len();
                    for q in 0..2 * p {
                        let (a, b) = (cycle[q % p], cycle[(q + 1) % p]);
                        if next[a] != NONE && next[a] + c < next[b] {
                            next[b] = next[a] + c;
                        }
                    }
                }
            } else {
                for (s, &here) in table.iter().enumerate() {
                    if here == NONE {
                        continue;
                    }
                    let mut t = s;
                    for x in 1..=self.tops[k] {
                        t = self.step(t, k, true);
                        next[t] = next[t].min(here + x * c);
                    }
                }
            }
        }
        let value = layers[cost.len() * states + self.target];
        if value == NONE {
            return None;
        }
        // Back from the target, the press count of each button in turn.
        let (mut s, mut v) = (self.target, value);
        for k in (0..cost.len()).rev() {
            let before = &layers[k * states..(k + 1) * states];
            let mut p = s;
            x[k] = 0;
            for count in 0..=self.tops[k] {
                if before[p] != NONE && before[p] + count * cost[k] == v {
                    x[k] = count;
                    v = before[p];
                    s = p;
                    break;
                }
                p = self.step(p, k, false);
            }
        }
        Some(value)
    }
}

/// What the Lagrangian bound proves: no plan, or every plan presses at least this many times.
pub(super) enum Lagrange {
    NoPlan,
    AtLeast(u128),
}

/// The Lagrangian bound of `problem` for `total`, its shares started even; `None` when there
/// is nothing to bound or the work would pass [`WORK`] even for single cells.
pub(super) fn lagrangian_bound(problem: &SearchProblem, by_cell: &[Vec<(usize, u64)>]) -> Option<Lagrange> {
    if problem.highest.iter().any(|&u| u > 1 << 32) {
        return None;
    }
    for size in (1..=GROUP_CELLS).rev() {
        let least = if size > 1 { MIN_ROUNDS } else { 1 };
        // The groups are given up as soon as a round of theirs passes what `least` rounds may
        // take (a 500×500 grid's triples passed it 25 times over, after 8.7 s of building).
        let Some(groups) = groups(problem, by_cell, size, WORK / least as u64) else {
            continue;
        };
        if groups.is_empty() {
            return None;
        }
        let per: u64 = groups.iter().map(Group::work).sum::<u64>().max(1);
        let rounds = (WORK / per).min(ROUNDS as u64) as usize;
        if rounds < least {
            continue;
        }
        let (found, shares) = ascend_from(problem.effects.len(), &groups, rounds, STALL, |_, _| None);
        let Lagrange::AtLeast(bound) = found else { return Some(found) };
        return Some(match along_lines(problem, by_cell, &groups, &shares) {
            Some(Lagrange::AtLeast(lines)) => Lagrange::AtLeast(bound.max(lines)),
            Some(Lagrange::NoPlan) => Lagrange::NoPlan,
            None => found,
        });
    }
    None
}

/// The Lagrangian bound over the lines of [`super::lines`], its shares started from those of
/// the smaller `groups` (each cell's part of a group's share, split among the cell's lines), for
/// as many rounds as [`LINE_WORK`] allows up to [`LINE_ROUNDS`]; `None` when the puzzle has no
/// lines or not [`MIN_LINE_ROUNDS`] rounds' worth of work.
fn along_lines(
    problem: &SearchProblem,
    by_cell: &[Vec<(usize, u64)>],
    groups: &[Group],
    shares: &Shares,
) -> Option<Lagrange> {
    let lines = super::lines::find_lines(problem, by_cell);
    if lines.is_empty() {
        return None;
    }
    let per: u64 = lines.iter().map(super::lines::Line::work).sum::<u64>().max(1);
    let rounds = (LINE_WORK / per).min(LINE_ROUNDS as u64) as usize;
    if rounds < MIN_LINE_ROUNDS {
        return None;
    }
    Some(lines_from_groups(problem, &lines, groups, shares, rounds, line_stall(rounds)))
}

/// The ascent over `lines` for `rounds` rounds, the scale halved after `stall` rounds without
/// progress, its shares started from the `groups`' `shares`.
fn lines_from_groups(
    problem: &SearchProblem,
    lines: &[super::lines::Line],
    groups: &[Group],
    shares: &Shares,
    rounds: usize,
    stall: usize,
) -> Lagrange {
    // Each cell's share of each button, from the groups, and each cell's lines.
    let mut part = std::collections::HashMap::<(usize, usize), f64>::new();
    for (group, shares) in groups.iter().zip(shares) {
        for (&j, &v) in group.buttons.iter().zip(shares) {
            for &i in &group.cells {
                *part.entry((i, j)).or_default() += v / group.cells.len() as f64;
            }
        }
    }
    let mut lines_of = vec![0usize; problem.moduli.len()];
    lines.iter().flat_map(|line| &line.cells).for_each(|&i| lines_of[i] += 1);
    let start = |g: usize, k: usize| {
        let line = &lines[g];
        let j = line.buttons[k];
        Some(line.cells.iter().filter_map(|&i| part.get(&(i, j)).map(|v| v / lines_of[i] as f64)).sum())
    };
    ascend_from(problem.effects.len(), lines, rounds, stall, start).0
}

/// The groups of up to `size` cells (at most [`GROUP_STATES`] states): each cell with each of
/// the cells sharing the most of its buttons, and with the first two of them; each cell alone
/// for `size` 1 or when it shares no button. `None` as soon as the groups' work a round
/// ([`Group::work`]) passes `limit`.
fn groups(
    problem: &SearchProblem,
    by_cell: &[Vec<(usize, u64)>],
    size: usize,
    limit: u64,
) -> Option<Vec<Group>> {
    let larger = size > 1;
    let cells = problem.moduli.len();
    let n = problem.effects.len();
    // Each button's cells, `cells_of[at[j]..at[j + 1]]` (only larger groups look for the
    // cells sharing buttons).
    let mut at = vec![0usize; if larger { n + 1 } else { 0 }];
    let mut cells_of = Vec::new();
    if larger {
        by_cell.iter().flatten().for_each(|&(j, _)| at[j + 1] += 1);
        for j in 0..n {
            at[j + 1] += at[j];
        }
        cells_of = vec![0usize; at[n]];
        let mut fill = at.clone();
        for (i, list) in by_cell.iter().enumerate() {
            for &(j, _) in list {
                cells_of[fill[j]] = i;
                fill[j] += 1;
            }
        }
    }
    let cells_of = |j: usize| &cells_of[at[j]..at[j + 1]];
    let mut seen = Keys::new();
    let mut groups: Vec<Group> = Vec::new();
    let (mut work, mut counted) = (0u64, 0);
    for i in 0..cells {
        work = work.saturating_add(groups[counted..].iter().map(Group::work).sum());
        counted = groups.len();
        if work > limit {
            return None;
        }
        if by_cell[i].is_empty() {
            continue;
        }
        let mut members = vec![i];
        if larger {
            // The other cells by the buttons they share with cell `i`, most first.
            let mut shared = std::collections::BTreeMap::<usize, usize>::new();
            for &(j, _) in &by_cell[i] {
                if cells_of(j).len() > 64 {
                    continue;
                }
                for &k in cells_of(j) {
                    if k != i {
                        *shared.entry(k).or_default() += 1;
                    }
                }
            }
            let mut order: Vec<(usize, usize)> = shared.into_iter().collect();
            order.sort_by_key(|&(k, s)| (std::cmp::Reverse(s), k));
            // Pairs with each of the cells sharing the most, then one triple of the first two.
            let most = order.first().map_or(0, |&(_, s)| s);
            let near: Vec<usize> = order.iter().filter(|&&(_, s)| s == most).map(|&(k, _)| k).collect();
            for &k in &near {
                let key = vec![i.min(k), i.max(k)];
                if !seen.contains_key(&key)
                    && let Some(g) = Group::new(problem, by_cell, &key)
                {
                    seen.insert(key, groups.len());
                    groups.push(g);
                }
            }
            if size >= 3 && near.len() >= 2 {
                let mut key = vec![i, near[0], near[1]];
                key.sort_unstable();
                if !seen.contains_key(&key)
                    && let Some(g) = Group::new(problem, by_cell, &key)
                {
                    seen.insert(key, groups.len());
                    groups.push(g);
                }
            }
            if near.is_empty() {
                members.clear();
                members.push(i);
            } else {
                continue;
            }
        }
        // A cell alone is its own key: only larger groups can meet one twice.
        if !larger {
            groups.extend(Group::new(problem, by_cell, &members));
        } else if !seen.contains_key(&members)
            && let Some(g) = Group::new(problem, by_cell, &members)
        {
            seen.insert(members, groups.len());
            groups.push(g);
        }
    }
    work = work.saturating_add(groups[counted..].iter().map(Group::work).sum());
    (work <= limit).then_some(groups)
}

/// Each group's index by its sorted cells.
type Keys = std::collections::BTreeMap<Vec<usize>, usize>;

/// The buffers of [`Group::least`], reused from group to group.
#[derive(Default)]
struct Scratch {
    layers: Vec<u64>,
    seen: Vec<bool>,
    cycle: Vec<usize>,
}

/// Projected subgradient ascent on the shares for `rounds` rounds, from even shares; the best
/// bound evaluated.
#[cfg(test)]
fn ascend<G: Relaxed>(n: usize, groups: &[G], rounds: usize) -> Lagrange {
    ascend_from(n, groups, rounds, STALL, |_, _| None).0
}

/// A group of the Lagrangian: its buttons, and the least cost of meeting its cells.
pub(super) trait Relaxed: Sync {
    type Scratch: Default + Send;
    fn buttons(&self) -> &[usize];
    /// Dynamic-programming steps of one evaluation.
    fn work(&self) -> u64;
    /// The least of `Σ_k cost_k·x_k` over the presses of the group's buttons (in the order of
    /// [`Relaxed::buttons`]) that meet its cells, its plan written to `x`; `None`: none does.
    fn least(&self, cost: &[u64], scratch: &mut Self::Scratch, x: &mut [u64]) -> Option<u64>;
}

impl Relaxed for Group {
    type Scratch = Scratch;
    fn buttons(&self) -> &[usize] {
        &self.buttons
    }
    fn work(&self) -> u64 {
        Group::work(self)
    }
    fn least(&self, cost: &[u64], scratch: &mut Scratch, x: &mut [u64]) -> Option<u64> {
        Group::least(self, cost, scratch, x)
    }
}

impl Relaxed for super::lines::Line {
    type Scratch = super::lines::LineScratch;
    fn buttons(&self) -> &[usize] {
        &self.buttons
    }
    fn work(&self) -> u64 {
        super::lines::Line::work(self)
    }
    fn least(&self, cost: &[u64], scratch: &mut Self::Scratch, x: &mut [u64]) -> Option<u64> {
        super::lines::Line::least(self, cost, scratch, x)
    }
}

/// The best bound's shares: each group's shares of its buttons, in the groups' order.
pub(super) type Shares = Vec<Vec<f64>>;

/// Projected subgradient ascent on the shares for `rounds` rounds, from the shares `start(g, k)`
/// of group `g`'s `k`-th button where it gives them (even shares where it does not, and each
/// button's shares projected first), the step's scale halved after `stall` rounds in a row that
/// raise no bound; the best bound evaluated, and the shares of its round.
/// The shares, costs and plans of all groups are kept flat: group `g`'s button `k` at
/// `at[g] + k`.
fn ascend_from<G: Relaxed>(
    n: usize,
    groups: &[G],
    rounds: usize,
    stall_limit: usize,
    start: impl Fn(usize, usize) -> Option<f64>,
) -> (Lagrange, Shares) {
    let mut at = Vec::with_capacity(groups.len() + 1);
    at.push(0usize);
    for group in groups {
        at.push(at[at.len() - 1] + group.buttons().len());
    }
    let size = at[groups.len()];
    // Each button's places (flat positions, by group), `places[places_at[j]..places_at[j + 1]]`.
    let mut places_at = vec![0usize; n + 1];
    for group in groups {
        group.buttons().iter().for_each(|&j| places_at[j + 1] += 1);
    }
    for j in 0..n {
        places_at[j + 1] += places_at[j];
    }
    let mut places = vec![0usize; size];
    let mut fill = places_at.clone();
    for (g, group) in groups.iter().enumerate() {
        for (k, &j) in group.buttons().iter().enumerate() {
            places[fill[j]] = at[g] + k;
            fill[j] += 1;
        }
    }
    let lists = || (0..n).map(|j| &places[places_at[j]..places_at[j + 1]]);
    let mut share = vec![0f64; size];
    for list in lists() {
        list.iter().for_each(|&p| share[p] = 1.0 / list.len() as f64);
    }
    let mut started = false;
    for g in 0..groups.len() {
        for (k, slot) in share[at[g]..at[g + 1]].iter_mut().enumerate() {
            if let Some(v) = start(g, k) {
                *slot = v;
                started = true;
            }
        }
    }
    let mut values = Vec::new();
    if started {
        for list in lists() {
            project(&mut share, list, &mut values);
        }
    }
    let (mut costs, mut plans) = (vec![0u64; size], vec![0u64; size]);
    let batches = batches(groups);
    let mut best_shares = share.clone();
    let mut best = 0u128;
    let mut best_value = 0f64;
    let mut direction = vec![0f64; size];
    let (mut theta, mut stall) = (THETA, 0usize);
    for round in 0..rounds {
        crate::bounded::checkpoint();
        integer_shares(&share, lists(), &mut costs);
        let Some(total) = evaluate(groups, &at, &batches, &costs, &mut plans) else {
            return (Lagrange::NoPlan, Vec::new());
        };
        let bound = total.div_ceil(u128::from(UNIT));
        let value = total as f64 / UNIT as f64;
        if bound > best {
            best = bound;
            best_shares.copy_from_slice(&share);
        }
        if value > best_value + 1e-9 {
            best_value = value;
            stall = 0;
        } else {
            stall += 1;
            if stall >= stall_limit {
                theta /= 2.0;
                stall = 0;
            }
        }
        // The last round's step would be evaluated by no round.
        if round + 1 == rounds {
            break;
        }
        for (d, &p) in direction.iter_mut().zip(&plans) {
            *d = p as f64 + DEFLECTION * *d;
        }
        let norm: f64 = direction.iter().map(|&d| d * d).sum();
        if norm == 0.0 {
            break;
        }
        let target = best_value * 1.1 + 2.0;
        let t = theta * (target - value) / norm;
        for (v, &d) in share.iter_mut().zip(&direction) {
            *v += t * d;
        }
        for list in lists() {
            project(&mut share, list, &mut values);
        }
    }
    let shares = (0..groups.len()).map(|g| best_shares[at[g]..at[g + 1]].to_vec()).collect();
    (Lagrange::AtLeast(best), shares)
}

/// Groups' work a round from which a round is shared between the cores.
const PARALLEL_WORK: u64 = 1 << 20;
/// Batches of about this much work each (a round's groups are taken in batches, so that the
/// threads' scratch spaces and the plans' slices are few).
const BATCH_WORK: u64 = 1 << 16;

/// The groups cut into consecutive batches of about [`BATCH_WORK`] a round each (one batch
/// when the whole round is under [`PARALLEL_WORK`]), as `groups[b[k]..b[k + 1]]`.
fn batches<G: Relaxed>(groups: &[G]) -> Vec<usize> {
    let total: u64 = groups.iter().map(Relaxed::work).sum();
    let mut bounds = vec![0];
    if total >= PARALLEL_WORK {
        let mut work = 0u64;
        for (g, group) in groups.iter().enumerate() {
            work += group.work();
            if work >= BATCH_WORK {
                bounds.push(g + 1);
                work = 0;
            }
        }
    }
    if bounds.last() != Some(&groups.len()) {
        bounds.push(groups.len());
    }
    bounds
}

/// One round: every group's least cost under `costs` (its plan written to `plans`, group `g`'s
/// at `at[g]..at[g + 1]`), summed; `None` when a group has no plan. The batches run on every
/// core (each with its own scratch space); the sum and the plans are the same whatever the
/// threads do.
fn evaluate<G: Relaxed>(
    groups: &[G],
    at: &[usize],
    batches: &[usize],
    costs: &[u64],
    plans: &mut [u64],
) -> Option<u128> {
    use rayon::prelude::*;
    let run = |range: std::ops::Range<usize>, plans: &mut [u64], scratch: &mut G::Scratch| {
        let offset = at[range.start];
        let mut total = 0u128;
        for g in range {
            let span = at[g]..at[g + 1];
            let mine = &mut plans[span.start - offset..span.end - offset];
            total += u128::from(groups[g].least(&costs[span], scratch, mine)?);
        }
        Some(total)
    };
    if batches.len() <= 2 {
        return run(0..groups.len(), plans, &mut G::Scratch::default());
    }
    let mut slices = Vec::with_capacity(batches.len() - 1);
    let mut rest = plans;
    for k in 0..batches.len() - 1 {
        let (mine, more) = rest.split_at_mut(at[batches[k + 1]] - at[batches[k]]);
        slices.push((batches[k]..batches[k + 1], mine));
        rest = more;
    }
    slices
        .into_par_iter()
        .map_init(G::Scratch::default, |scratch, (range, plans)| run(range, plans, scratch))
        .try_reduce(|| 0u128, |a, b| Some(a + b))
}

/// The shares in integer units, rounded down, each button's sum (over its places, `lists`) at
/// most [`UNIT`], written to `costs`.
fn integer_shares<'a>(share: &[f64], lists: impl Iterator<Item = &'a [usize]>, costs: &mut [u64]) {
    for (c, &v) in costs.iter_mut().zip(share) {
        *c = if v.is_finite() && v > 0.0 { ((v * UNIT as f64) as u64).min(UNIT) } else { 0 };
    }
    for list in lists {
        let mut sum: u64 = list.iter().map(|&p| costs[p]).sum();
        for &p in list {
            if sum <= UNIT {
                break;
            }
            let cut = costs[p].min(sum - UNIT);
            costs[p] -= cut;
            sum -= cut;
        }
    }
}

/// One button's shares (at the flat positions `list`) projected onto `{λ >= 0, Σ λ <= 1}`
/// (Euclidean); `values` is a buffer.
fn project(share: &mut [f64], list: &[usize], values: &mut Vec<f64>) {
    values.clear();
    values.extend(list.iter().map(|&p| share[p].max(0.0)));
    if values.iter().sum::<f64>() > 1.0 {
        let mut sorted = values.clone();
        sorted.sort_by(|a, b| b.total_cmp(a));
        let (mut acc, mut tau) = (0.0, 0.0);
        for (r, &v) in sorted.iter().enumerate() {
            acc += v;
            let t = (acc - 1.0) / (r + 1) as f64;
            if v - t > 0.0 {
                tau = t;
            }
        }
        values.iter_mut().for_each(|v| *v = (*v - tau).max(0.0));
    }
    for (&p, &v) in list.iter().zip(values.iter()) {
        share[p] = v;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::search::Objective;
    use crate::solve::search::testing::{OBJECTIVES, best_scores, random_effects};

    /// A round over batches on every core gives the same sum and plans as one pass in order,
    /// over a 30×30 grid's lines and its single cells, at random costs (and a batch cut
    /// after every group, and uneven batches); a large round is cut into batches.
    #[test]
    fn a_round_in_batches_is_the_round_in_order() {
        use rand::{RngExt, SeedableRng, rngs::StdRng};
        let mut rng = StdRng::seed_from_u64(45);
        let side = 30;
        let moduli: Vec<u64> = (0..side * side).map(|_| rng.random_range(2..=12)).collect();
        let effects = crate::solve::search::testing::grid_effects(side, side, false);
        let rhs: Vec<u64> = moduli.iter().map(|&m| rng.random_range(0..m)).collect();
        let highest = moduli.iter().map(|_| 1 << 20).collect();
        let problem = SearchProblem { moduli, effects, rhs, highest };
        let by_cell = super::super::reduced_by_cell(&problem);
        fn compare<G: Relaxed>(groups: &[G], rng: &mut StdRng) {
            let mut at = vec![0usize];
            groups.iter().for_each(|g| at.push(at[at.len() - 1] + g.buttons().len()));
            let size = at[groups.len()];
            let costs: Vec<u64> = (0..size).map(|_| rng.random_range(0..=UNIT)).collect();
            let mut alone = vec![0u64; size];
            let whole = evaluate(groups, &at, &[0, groups.len()], &costs, &mut alone);
            assert!(whole.is_some_and(|t| t > 0));
            let every: Vec<usize> = (0..=groups.len()).collect();
            let uneven: Vec<usize> =
                (0..=groups.len()).filter(|&g| g == groups.len() || g % 7 == 0 || g % 11 == 3).collect();
            for cuts in [every, uneven, batches(groups)] {
                let mut plans = vec![0u64; size];
                assert_eq!(evaluate(groups, &at, &cuts, &costs, &mut plans), whole);
                assert_eq!(plans, alone);
            }
        }
        let lines = super::super::lines::find_lines(&problem, &by_cell);
        assert!(batches(&lines).len() > 3, "a 30×30 grid's lines are cut into batches");
        compare(&lines, &mut rng);
        compare(&groups(&problem, &by_cell, 1, u64::MAX).expect("no limit"), &mut rng);
    }

    /// On mixed 24×24 grids of self weight 2 (moduli 2..=12, random targets), 200 rounds over
    /// the lines from the single cells' shares: the patient steps of [`LINE_STALL`] (10 rounds
    /// here) end higher than steps halved after every [`STALL`] rounds without progress, which
    /// shrink to nothing soon after the high first round, and both stay above the single cells
    /// (440 → 442 hasty, 477 patient; 400 → 440 and 445).
    #[test]
    fn patient_steps_raise_the_lines_bound() {
        use rand::{RngExt, SeedableRng, rngs::StdRng};
        let mut rng = StdRng::seed_from_u64(44);
        let side = 24;
        for _ in 0..2 {
            let moduli: Vec<u64> = (0..side * side).map(|_| rng.random_range(2..=12)).collect();
            let mut effects = crate::solve::search::testing::grid_effects(side, side, false);
            for (b, effect) in effects.iter_mut().enumerate() {
                effect.iter_mut().filter(|(i, _)| *i == b).for_each(|(_, a)| *a = 2);
            }
            let rhs: Vec<u64> = moduli.iter().map(|&m| rng.random_range(0..m)).collect();
            let highest = moduli.iter().map(|_| 1 << 20).collect();
            let problem = SearchProblem { moduli, effects, rhs, highest };
            let by_cell = super::super::reduced_by_cell(&problem);
            let n = problem.effects.len();
            let singles = groups(&problem, &by_cell, 1, u64::MAX).expect("no limit");
            let (Lagrange::AtLeast(cells), shares) = ascend_from(n, &singles, 100, STALL, |_, _| None) else {
                panic!("a mixed grid has plans");
            };
            let lines = super::super::lines::find_lines(&problem, &by_cell);
            assert_eq!(lines.len(), 2 * side);
            let bound = |stall| match lines_from_groups(&problem, &lines, &singles, &shares, 200, stall) {
                Lagrange::AtLeast(b) => b,
                Lagrange::NoPlan => panic!("a mixed grid has plans"),
            };
            let (hasty, patient) = (bound(STALL), bound(line_stall(200)));
            assert!(hasty >= cells && patient > hasty, "cells {cells}, hasty {hasty}, patient {patient}");
        }
    }

    /// The groups built within a limit on their work a round are the groups built without one
    /// when their work is within it, and none otherwise (the building stops early), on mixed
    /// grids of 3×3 to 12×12 and limits around their work.
    #[test]
    fn groups_within_a_limit_are_all_or_none() {
        use rand::{RngExt, SeedableRng, rngs::StdRng};
        let mut rng = StdRng::seed_from_u64(43);
        let mut cut = 0;
        for round in 0..60 {
            let side: usize = rng.random_range(3..=12);
            let cells = side * side;
            let moduli: Vec<u64> = (0..cells).map(|_| rng.random_range(2..=12)).collect();
            let effects: Vec<Vec<(usize, u64)>> = (0..cells)
                .map(|b| {
                    let (r, c) = (b / side, b % side);
                    let mut e = vec![(b, 1 + (round as u64 % 2))];
                    for (ok, i) in
                        [(r > 0, b.wrapping_sub(side)), (r + 1 < side, b + side), (c > 0, b.wrapping_sub(1))]
                    {
                        if ok {
                            e.push((i, 1));
                        }
                    }
                    if c + 1 < side {
                        e.push((b + 1, 1));
                    }
                    e
                })
                .collect();
            let rhs = moduli.iter().map(|&m| rng.random_range(0..m)).collect();
            let problem = SearchProblem { highest: vec![11; cells], moduli, effects, rhs };
            let mut by_cell = problem.buttons_by_cell();
            by_cell.iter_mut().for_each(|l| l.retain(|&(_, a)| a != 0));
            for size in 1..=GROUP_CELLS {
                let all = groups(&problem, &by_cell, size, u64::MAX).expect("no limit");
                let work: u64 = all.iter().map(Group::work).sum();
                for limit in [work / 2, work - 1, work, work + 1] {
                    let within = groups(&problem, &by_cell, size, limit);
                    assert_eq!(within.is_some(), work <= limit, "round {round} size {size} limit {limit}");
                    if let Some(within) = within {
                        let key = |g: &Group| (g.buttons.clone(), g.target, g.work());
                        assert!(within.iter().map(key).eq(all.iter().map(key)), "round {round} size {size}");
                    } else {
                        cut += 1;
                    }
                }
            }
        }
        assert!(cut > 300, "{cut}");
    }

    /// The bound for groups of every size, against the fewest presses by brute force, on random
    /// small systems and on small grids of mixed moduli (self weight 1 or 2, neighbours 1).
    #[test]
    fn lagrangian_bound_never_exceeds_the_fewest_presses() {
        use rand::{RngExt, SeedableRng, rngs::StdRng};
        let mut rng = StdRng::seed_from_u64(42);
        let k = OBJECTIVES.iter().position(|&o| o == Objective::Total).expect("total");
        let (mut positive, mut no_plan, mut tight, mut with_lines) = (0, 0, 0, 0);
        for round in 0..600 {
            let problem = if round % 2 == 0 {
                let cells = rng.random_range(1..6);
                let moduli: Vec<u64> = (0..cells).map(|_| rng.random_range(2..=12)).collect();
                let n = rng.random_range(1..6);
                let effects = random_effects(&mut rng, &moduli, n, 0.5);
                let highest: Vec<u64> = (0..n).map(|_| rng.random_range(0..8)).collect();
                let rhs: Vec<u64> = moduli.iter().map(|&m| rng.random_range(0..m)).collect();
                SearchProblem { moduli, effects, rhs, highest }
            } else {
                let (rows, cols) = [(2, 3), (3, 3), (2, 4), (3, 2)][rng.random_range(0..4)];
                let moduli: Vec<u64> = (0..rows * cols).map(|_| rng.random_range(2..=7)).collect();
                let own = rng.random_range(1..=2u64);
                let effects: Vec<Vec<(usize, u64)>> = (0..rows * cols)
                    .map(|j| {
                        let (r, c) = (j / cols, j % cols);
                        let mut e = vec![(j, own % moduli[j])];
                        let near = [(r.wrapping_sub(1), c), (r + 1, c), (r, c.wrapping_sub(1)), (r, c + 1)];
                        e.extend(
                            near.iter()
                                .filter(|&&(a, b)| a < rows && b < cols)
                                .map(|&(a, b)| (a * cols + b, 1)),
                        );
                        e.retain(|&(_, a)| a != 0);
                        e.sort_unstable();
                        e
                    })
                    .collect();
                let highest: Vec<u64> = effects
                    .iter()
                    .map(|e| {
                        let period =
                            e.iter().fold(1u64, |l, &(i, a)| l.lcm(&(moduli[i] / a.gcd(&moduli[i]))));
                        if rng.random_range(0..2) == 0 {
                            period - 1
                        } else {
                            rng.random_range(0..period).min(3)
                        }
                    })
                    .collect();
                if highest.iter().map(|&h| h + 1).product::<u64>() > 300_000 {
                    continue;
                }
                let rhs: Vec<u64> = moduli.iter().map(|&m| rng.random_range(0..m)).collect();
                SearchProblem { moduli, effects, rhs, highest }
            };
            let truth = best_scores(&problem)[k].map(|score| score.0);
            let mut by_cell = problem.buttons_by_cell();
            by_cell.iter_mut().for_each(|l| l.retain(|&(_, a)| a != 0));
            let mut check = |found: Lagrange, what: &str| match (found, truth) {
                (Lagrange::NoPlan, None) => no_plan += 1,
                (Lagrange::NoPlan, Some(t)) => panic!("round {round} {what}: no plan, but {t} {problem:?}"),
                (Lagrange::AtLeast(b), Some(t)) => {
                    assert!(b <= t, "round {round} {what}: bound {b} > fewest {t} {problem:?}");
                    positive += usize::from(b > 0);
                    tight += usize::from(b == t && b > 0);
                }
                (Lagrange::AtLeast(_), None) => {}
            };
            let n = problem.effects.len();
            for size in 1..=GROUP_CELLS {
                let groups = groups(&problem, &by_cell, size, u64::MAX).expect("no limit");
                if groups.is_empty() {
                    continue;
                }
                check(ascend(n, &groups, 60), "groups");
                // The lines, from even shares and from the groups' best.
                let (found, shares) = ascend_from(n, &groups, 60, STALL, |_, _| None);
                let lines = super::super::lines::find_lines(&problem, &by_cell);
                if let Lagrange::AtLeast(_) = found
                    && !lines.is_empty()
                {
                    check(ascend(n, &lines, 60), "lines");
                    check(
                        along_lines(&problem, &by_cell, &groups, &shares).expect("lines"),
                        "lines after groups",
                    );
                    with_lines += 1;
                }
            }
        }
        assert!(
            positive > 500 && no_plan > 100 && tight > 200 && with_lines > 150,
            "{positive} positive, {no_plan} no plan, {tight} tight, {with_lines} with lines"
        );
    }
}
