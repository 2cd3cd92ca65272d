//! The walk's fixed structure ([`Levels`]): the order in which the generators are fixed, and at
//! every level the groups of buttons that shift together, their tables, steps and classes.

use num_integer::Integer;

use super::{MAX_ENTRIES, ORDERED_CHILDREN};
use crate::algebra::arith::inv_mod;

/// One group of a level: its table's place, its period, the step of its reachable shifts, and
/// where it goes when the level's generator is fixed.
#[derive(Clone, Copy, Debug)]
pub(super) struct Group {
    pub(super) offset: usize,
    pub(super) period: u64,
    pub(super) step: u64,
    pub(super) parent: usize,
    pub(super) coefficient: u64,
}

/// The walk's fixed structure: the order of the generators and every level's groups.
pub(super) struct Levels {
    /// `order[l]`: the generator fixed at level `l`.
    pub(super) order: Vec<usize>,
    /// `groups[l]`: the groups of level `l` (`0..=k`).
    pub(super) groups: Vec<Vec<Group>>,
    /// The table entries of each level.
    pub(super) entries: Vec<usize>,
    /// Level 0's group of each button.
    pub(super) root: Vec<usize>,
    /// `slots[l]`: level `l`'s tables, one per multiple of the generator above when the children
    /// are ordered by their bounds (orders up to [`ORDERED_CHILDREN`], entries permitting),
    /// else one.
    pub(super) slots: Vec<usize>,
    /// `classes[l]`: level `l`'s groups whose columns are unit multiples `λ·c` of one column `c`
    /// (same period), as ranges of `members[l]`, `(group, λ)`; they shift together.
    pub(super) classes: Vec<Vec<std::ops::Range<usize>>>,
    pub(super) members: Vec<Vec<(usize, u64)>>,
}

/// A stamp per residue, for splitting groups by their buttons' entries in one generator.
struct Marks<'a> {
    seen: &'a mut [u64],
    slot: &'a mut [usize],
    stamp: &'a mut u64,
}

impl Marks<'_> {
    /// The groups of the split of each group (its buttons `buttons[starts[g]..starts[g + 1]]`)
    /// by `entry`; with `ids`, each button's group after the split.
    fn split(
        &mut self,
        buttons: &[usize],
        starts: &[usize],
        entry: impl Fn(usize) -> usize,
        mut ids: Option<&mut Vec<usize>>,
    ) -> usize {
        let mut next = 0;
        for range in starts.windows(2) {
            *self.stamp += 1;
            for &j in &buttons[range[0]..range[1]] {
                let c = entry(j);
                if self.seen[c] != *self.stamp {
                    (self.seen[c], self.slot[c]) = (*self.stamp, next);
                    next += 1;
                }
                if let Some(ids) = ids.as_deref_mut() {
                    ids[j] = self.slot[c];
                }
            }
        }
        next
    }
}

/// Builds the levels, or `None` when their tables would exceed [`MAX_ENTRIES`]. The first `top`
/// generators are fixed first, in their order (the cosets of a symmetric split); the others
/// below them in the order chosen.
pub(super) fn levels(generators: &[(Vec<u64>, u64)], periods: &[u64], top: usize) -> Option<Levels> {
    let (chosen, mut level_ids) = choose_order(generators, periods, top)?;
    // Level l (0 at the top) has the ids of `level_ids[k - l]`; its generator is `chosen[k-1-l]`.
    let order: Vec<usize> = chosen.iter().rev().copied().collect();
    let (groups, entries, total) = level_groups(generators, periods, &order, &level_ids)?;
    let (classes, members) = classes(generators, periods, &order, &level_ids, &groups);
    let slots = slots(generators, &order, &entries, total);
    let root = level_ids.pop().unwrap_or_default();
    Some(Levels { order, groups, entries, root, slots, classes, members })
}

/// The order of the generators, chosen from the bottom up (the one that splits the groups
/// least fixed just above the levels built so far), and each level's group of every button
/// from the bottom (`level_ids[0]` is level `k`'s); `None` when the tables would exceed
/// [`MAX_ENTRIES`]. The first `top` generators are chosen last (they are fixed first, at the
/// top), in their order.
#[allow(clippy::type_complexity)]
fn choose_order(
    generators: &[(Vec<u64>, u64)],
    periods: &[u64],
    top: usize,
) -> Option<(Vec<usize>, Vec<Vec<usize>>)> {
    let (n, k) = (periods.len(), generators.len());
    // From the bottom: at level k every column is empty, a group per period.
    let mut distinct: Vec<u64> = periods.to_vec();
    distinct.sort_unstable();
    distinct.dedup();
    let mut ids: Vec<usize> = periods.iter().map(|p| distinct.binary_search(p).unwrap_or(0)).collect();
    let mut count = distinct.len();
    // Choose the generator fixed just above the levels built so far: the one that splits the
    // groups least. Greedy over every candidate when that is cheap, else smallest support last.
    let greedy = (k as u64).pow(2).saturating_mul(n as u64) <= 1 << 27;
    let support = |i: usize| generators[i].0.iter().filter(|&&v| v != 0).count();
    let mut by_support: Vec<usize> = (top..k).collect();
    by_support.sort_by_key(|&i| (support(i), i));
    by_support.extend((0..top).rev());
    let mut chosen: Vec<usize> = Vec::with_capacity(k); // deepest first
    let mut free: Vec<bool> = vec![true; k];
    // Per level from the bottom: each button's group id.
    let mut level_ids: Vec<Vec<usize>> = vec![ids.clone()];
    // Buttons by group (a counting sort), and a stamp per residue for counting the distinct
    // entries of one group.
    let widest = periods.iter().copied().max().unwrap_or(1) as usize;
    let narrowest = periods.iter().copied().min().unwrap_or(1) as usize;
    let mut built = count * narrowest;
    let (mut seen, mut slot, mut stamp) = (vec![0u64; widest], vec![0usize; widest], 0u64);
    let mut buttons: Vec<usize> = vec![0; n];
    let mut starts: Vec<usize> = vec![0; count + 1];
    for &fallback in &by_support {
        starts.clear();
        starts.resize(count + 1, 0);
        for &g in &ids {
            starts[g + 1] += 1;
        }
        for g in 0..count {
            starts[g + 1] += starts[g];
        }
        let mut fill = starts.clone();
        for (j, &g) in ids.iter().enumerate() {
            buttons[fill[g]] = j;
            fill[g] += 1;
        }
        let entry = |i: usize| move |j: usize| (generators[i].0[j] % periods[j]) as usize;
        let mut marks = Marks { seen: &mut seen, slot: &mut slot, stamp: &mut stamp };
        let pick = if greedy && chosen.len() < k - top {
            let mut best: Option<(usize, usize)> = None;
            for i in (top..k).filter(|&i| free[i]) {
                let size = marks.split(&buttons, &starts, entry(i), None);
                if best.is_none_or(|(b, _)| size < b) {
                    best = Some((size, i));
                }
            }
            best.map_or(0, |(_, i)| i)
        } else {
            fallback
        };
        free[pick] = false;
        chosen.push(pick);
        let next = marks.split(&buttons, &starts, entry(pick), Some(&mut ids));
        count = next;
        // Every group's table has at least `narrowest` entries: give up as soon as the levels
        // built so far cannot fit.
        built += count * narrowest;
        if built > MAX_ENTRIES {
            return None;
        }
        level_ids.push(ids.clone());
    }
    Some((chosen, level_ids))
}

/// Every level's groups (`level_ids` from the bottom, generators fixed in `order`): their
/// tables' places, periods, parents and coefficients, then their steps from the bottom up.
/// Returns the groups, each level's table entries and the entries in all, or `None` when they
/// exceed [`MAX_ENTRIES`].
#[allow(clippy::type_complexity)]
fn level_groups(
    generators: &[(Vec<u64>, u64)],
    periods: &[u64],
    order: &[usize],
    level_ids: &[Vec<usize>],
) -> Option<(Vec<Vec<Group>>, Vec<usize>, usize)> {
    let k = generators.len();
    let mut groups: Vec<Vec<Group>> = Vec::with_capacity(k + 1);
    let mut entries = Vec::with_capacity(k + 1);
    let mut total = 0usize;
    for l in 0..=k {
        let ids = &level_ids[k - l];
        let size = ids.iter().copied().max().map_or(0, |m| m + 1);
        let mut level = vec![Group { offset: 0, period: 0, step: 0, parent: 0, coefficient: 0 }; size];
        for (j, &g) in ids.iter().enumerate() {
            level[g].period = periods[j];
            if l < k {
                level[g].parent = level_ids[k - l - 1][j];
                level[g].coefficient = generators[order[l]].0[j] % periods[j];
            }
        }
        let mut offset = 0;
        for group in &mut level {
            group.offset = offset;
            offset += group.period as usize;
        }
        total += offset;
        if total > MAX_ENTRIES {
            return None;
        }
        entries.push(offset);
        groups.push(level);
    }
    // Steps from the bottom: a group with an empty column shifts by 0 (step L); above, the step
    // is the gcd of the group's entry and its parent's step.
    for group in &mut groups[k] {
        group.step = group.period;
    }
    for l in (0..k).rev() {
        let (upper, lower) = groups.split_at_mut(l + 1);
        for group in &mut upper[l] {
            group.step = group.coefficient.gcd(&lower[0][group.parent].step);
        }
    }
    Some((groups, entries, total))
}

/// Every level's classes: its groups whose columns are unit multiples of one column, as
/// ranges of its members `(group, λ)` (see [`Levels::classes`]).
#[allow(clippy::type_complexity)]
fn classes(
    generators: &[(Vec<u64>, u64)],
    periods: &[u64],
    order: &[usize],
    level_ids: &[Vec<usize>],
    groups: &[Vec<Group>],
) -> (Vec<Vec<std::ops::Range<usize>>>, Vec<Vec<(usize, u64)>>) {
    let k = generators.len();
    // Classes: each group's column (read from one of its buttons) divided by its first entry
    // when that is a unit; groups of zero column or of a first entry that is not a unit stand
    // alone with λ = 1 (a zero column's step keeps its shift at 0).
    let mut classes = Vec::with_capacity(k + 1);
    let mut members = Vec::with_capacity(k + 1);
    for l in 0..=k {
        let ids = &level_ids[k - l];
        let mut first: Vec<usize> = vec![usize::MAX; groups[l].len()];
        for (j, &g) in ids.iter().enumerate() {
            if first[g] == usize::MAX {
                first[g] = j;
            }
        }
        let mut by_column: std::collections::HashMap<(u64, Vec<u64>), usize> =
            std::collections::HashMap::new();
        let mut lists: Vec<Vec<(usize, u64)>> = Vec::new();
        for (g, &j) in first.iter().enumerate() {
            let period = periods[j];
            let column: Vec<u64> = order[l..].iter().map(|&i| generators[i].0[j] % period).collect();
            let unit = column.iter().find(|&&v| v != 0).and_then(|&v| inv_mod(v, period).map(|inv| (v, inv)));
            let (key, lambda) = match unit {
                Some((v, inv)) => ((period, column.iter().map(|&c| c * inv % period).collect()), v),
                None => ((period, column), 1),
            };
            let next = lists.len();
            let class = *by_column.entry(key).or_insert(next);
            if class == next {
                lists.push(Vec::new());
            }
            lists[class].push((g, lambda));
        }
        let mut level_members = Vec::with_capacity(groups[l].len());
        let mut ranges = Vec::with_capacity(lists.len());
        for list in lists {
            let start = level_members.len();
            level_members.extend(list);
            ranges.push(start..level_members.len());
        }
        classes.push(ranges);
        members.push(level_members);
    }
    (classes, members)
}

/// Every level's tables (see [`Levels::slots`]), given the `total` entries of one table a
/// level.
fn slots(generators: &[(Vec<u64>, u64)], order: &[usize], entries: &[usize], mut total: usize) -> Vec<usize> {
    let k = generators.len();
    // Slots: a table for each multiple of the generator above, within the entries allowed.
    let mut slots: Vec<usize> = vec![1; k + 1];
    for l in 1..=k {
        let order = generators[order[l - 1]].1;
        let more = entries[l] * (order as usize).saturating_sub(1);
        if order <= ORDERED_CHILDREN && total + more <= MAX_ENTRIES {
            slots[l] = order as usize;
            total += more;
        }
    }
    slots
}
