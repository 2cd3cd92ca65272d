//! The search solver: depth-first over press counts `0 <= x_j <= hi_j` (`hi_j` the period minus
//! one, or a press limit), independent of the algebra.
//!
//! Defining identity: a leaf is a plan with `Σ_j a_ij·x_j ≡ target_i - start_i (mod m_i)` for
//! every cell. Buttons are ordered so that cells' congruences close early (row by row, as a solver
//! generalised: prefer the button that is the last open one of the most cells); a cell's
//! congruence is checked as soon as its last button is assigned, and that check is turned into
//! a forced value: with residual `r` and weight `a`, `a·x ≡ r (mod m)` allows only
//! `x ≡ x0 (mod m/gcd(a, m))`, so only those values are tried.
//!
//! The same walk finds a first plan, enumerates (counts) all plans, or runs branch and bound for
//! an [`Objective`], with values tried in increasing order so that partial scores are lower
//! bounds. Branch and bound adds, at each value, a bound on what the buttons still open must
//! add: for each depth, open cells whose remaining buttons are disjoint, each with a table (by
//! residual) of the least cost those buttons need to meet the cell alone; a residual that no
//! value of them meets ends the branch. A lookahead from [`super::bound::lookahead`] adds, for
//! `total`, a shared bound over groups of every open cell. A floor (a proven lower bound) ends
//! the search, complete, at the first plan that meets it. A [`Budget`] bounds the nodes and the time; an interrupted
//! walk says so.

use num_integer::Integer;

use crate::algebra::arith::{add_mod, inv_mod, mul_mod, sub_mod};

/// What "best" means for a plan.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Objective {
    /// Fewest presses in all.
    #[default]
    Total,
    /// Smallest largest press count, then fewest in all.
    Max,
    /// Fewest distinct buttons pressed, then fewest in all.
    Buttons,
}

impl Objective {
    /// A stable name: `total`, `max`, `buttons`.
    pub fn name(self) -> &'static str {
        match self {
            Objective::Total => "total",
            Objective::Max => "max",
            Objective::Buttons => "buttons",
        }
    }

    /// The score of a plan: smaller is better, compared lexicographically.
    #[doc(hidden)]
    pub fn score(self, presses: &[u64]) -> Score {
        let total: u128 = presses.iter().map(|&x| x as u128).sum();
        match self {
            Objective::Total => (total, 0),
            Objective::Max => (presses.iter().copied().max().unwrap_or(0) as u128, total),
            Objective::Buttons => (presses.iter().filter(|&&x| x != 0).count() as u128, total),
        }
    }
}

/// `(primary, tie-break)`; smaller is better.
pub type Score = (u128, u128);

pub(crate) use crate::bounded::Meter;
pub use crate::bounded::{Budget, DEFAULT_NODES};

/// What to look for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Goal {
    /// Visit every plan to count them, keeping the first `keep` of them (0 to only count).
    All { keep: usize },
    /// The best plan for an objective (branch and bound).
    Best(Objective),
}

/// A system for the search: everything in 64-bit residues.
#[derive(Clone, Debug)]
pub struct SearchProblem {
    pub moduli: Vec<u64>,
    /// `(cell, amount)` per button, amounts reduced and nonzero.
    pub effects: Vec<Vec<(usize, u64)>>,
    /// `target - start` per cell.
    pub rhs: Vec<u64>,
    /// The largest value to try per button.
    pub highest: Vec<u64>,
}

impl SearchProblem {
    /// What a step of the search on button `j` counts against a node budget: one node per
    /// [`CELLS_PER_NODE`] cells the button changes (a step updates each of them), at least one.
    pub(crate) fn step_nodes(&self, j: usize) -> u64 {
        (self.effects[j].len().div_ceil(CELLS_PER_NODE) as u64).max(1)
    }

    /// Each cell's buttons with their weights (a button's amounts on the cell summed and
    /// reduced by its modulus), in button order.
    pub(crate) fn buttons_by_cell(&self) -> Vec<Vec<(usize, u64)>> {
        let mut by_cell: Vec<Vec<(usize, u64)>> = vec![Vec::new(); self.moduli.len()];
        for (j, effect) in self.effects.iter().enumerate() {
            for &(i, a) in effect {
                let m = self.moduli[i];
                match by_cell[i].last_mut() {
                    Some((k, w)) if *k == j => *w = ((*w as u128 + a as u128) % m as u128) as u64,
                    _ => by_cell[i].push((j, a % m)),
                }
            }
        }
        by_cell
    }
}

/// A search step on a button that changes up to this many cells counts one node; the default
/// budget's nodes were calibrated on grids, whose buttons change five cells.
pub(crate) const CELLS_PER_NODE: usize = 8;

/// The lookahead's table look-ups ([`Lookahead::terms`]) count one node per this many, where
/// they are made (a value whose closing cells are met): on a 30×30 board a bound sums hundreds
/// of cells, on an 8×8 one a few dozen, and the default budget takes about as long on both.
/// Past [`CACHED_CELLS`] cells the tables and residuals no longer stay in the nearest cache and
/// a look-up costs about twice as much (measured: a 40×40 torus mod 6 took 87 ns a node at 128
/// look-ups a node, an 8×8 grid 40 ns), so it counts twice.
pub(crate) fn terms_per_node(cells: usize) -> u64 {
    if cells > CACHED_CELLS { 64 } else { 128 }
}

/// See [`terms_per_node`].
const CACHED_CELLS: usize = 256;

/// A lookahead's building ([`Lookahead::work`]) counts one node per this many steps.
pub(crate) const LOOKAHEAD_WORK_PER_NODE: u64 = 8;

/// What a search found.
#[derive(Clone, Debug, Default)]
pub(crate) struct SearchOutcome {
    /// The first plan met (for `First`), or the best (for `Best`).
    pub plan: Option<Vec<u64>>,
    pub score: Option<Score>,
    /// Plans visited (all plans, when the walk completed with `Goal::All`).
    pub count: u64,
    /// The first plans met, at most `keep` of them, with `Goal::All { keep }`.
    pub plans: Vec<Vec<u64>>,
    pub nodes: u64,
    /// Whether the walk covered everything it had to (not cut by the budget).
    pub complete: bool,
}

struct Walk<'a> {
    problem: &'a SearchProblem,
    goal: Goal,
    order: Vec<usize>,
    /// For each depth, the cells whose last open button is assigned there.
    closing: Vec<Vec<usize>>,
    residual: Vec<u64>,
    x: Vec<u64>,
    meter: Meter,
    out: SearchOutcome,
    /// Partial score components: sum, max, nonzero count.
    sum: u128,
    stop: bool,
    /// The bound on what the buttons still open must add, for branch and bound.
    ahead: Option<&'a Lookahead>,
    /// A proven lower bound on the best score: a plan that meets it ends the search, complete.
    floor: Option<Score>,
    /// A plan met the floor.
    done: bool,
    /// For each depth, the forced values' rule (from its first closing cell), if any.
    forced: Vec<Option<Forced>>,
    /// `(k, n)`: only the first button's `k`-th values modulo `n` are tried.
    part: Option<(u64, u64)>,
    /// For each depth, the nodes a value tried there counts against the budget.
    costs: Vec<u64>,
    /// For each depth, the lookahead's table look-ups at the next one.
    terms: Vec<u64>,
    /// Look-ups made and not yet counted as a node ([`terms_per_node`]).
    lookups: u64,
    /// [`terms_per_node`] of this problem.
    terms_per_node: u64,
    /// For each depth, what one step of its button's value (1, or the forced values' step)
    /// takes from each cell of its effect, in the effect's order.
    deltas: Vec<Vec<u64>>,
}

/// A button whose value a closing cell forces: with residual `r` and weight `a` on the cell,
/// `a·x ≡ r (mod m)` needs `g = gcd(a, m)` to divide `r`, and then `x ≡ (r/g)·inverse (mod
/// step)`, `step = m/g`, `inverse` the inverse of `a/g` modulo `step`.
#[derive(Clone, Copy, Debug)]
struct Forced {
    cell: usize,
    g: u64,
    step: u64,
    inverse: u64,
}

/// For each depth, open cells whose remaining buttons are disjoint, each with a table of the
/// least cost those buttons need to leave each residual (`u64::MAX`: none can); their costs add
/// up (`total`, `buttons`) or their largest bounds the largest press (`max`).
pub(crate) struct Lookahead {
    objective: Objective,
    packing: Packing,
    /// Per depth, the lowest cell the packing reads (`u32::MAX`: none).
    lowest: Vec<u32>,
    /// Its building's work: table entries relaxed, and cells weighed by the packing.
    pub(crate) work: u64,
    tables: Vec<Vec<u64>>,
    /// For `total`, the Lagrangian bound of [`bound::lookahead`]: for each depth, disjoint groups
    /// of open cells, each with a table (by residuals) of the least shared cost, in units of
    /// `1 / SHARE_UNIT`, its open buttons need to meet its cells alone; the sum over the groups
    /// bounds the presses still to come.
    pub(crate) shared: Vec<Vec<SharedGroup>>,
    shared_tables: Vec<Vec<u64>>,
}

/// The packed cells of each depth, as `(cell, table)`: what changes from one depth to the next
/// (depth 0 from nothing), and every depth's list as well while they fit. A 300×300 grid packs
/// about 300 cells at each of its 90,000 depths, 27 million entries, but changes a handful a
/// depth. Read depth after depth with a [`Packed`].
struct Packing {
    /// Entries leaving, and entries arriving (a cell whose table moves on does both), each
    /// depth's from `gone_at[d]` and `came_at[d]` to the next depth's.
    gone: Vec<Entry>,
    came: Vec<Entry>,
    gone_at: Vec<usize>,
    came_at: Vec<usize>,
    /// The list's length at each depth.
    sizes: Vec<u32>,
    /// Every depth's list, when they fit.
    lists: Option<Vec<Vec<(usize, usize)>>>,
    /// The highest cell packed, plus one.
    cells: usize,
}

/// A packed cell and its table, as [`Packing`] keeps them.
pub(crate) type Entry = (u32, u32);

/// A reader of a [`Lookahead`]'s packed cells, cheapest depth after depth (the beam's order):
/// it keeps the current depth's list and applies each depth's changes, going back to depth 0
/// only when asked for an earlier depth.
pub(crate) struct Packed<'a> {
    ahead: &'a Lookahead,
    /// Depths applied: `list` is depth `applied - 1`'s (nothing yet when 0).
    applied: usize,
    list: Vec<(usize, usize)>,
    /// Each cell's place in `list` (`u32::MAX`: not in it).
    place: Vec<u32>,
}

impl Packed<'_> {
    /// The packed `(cell, table)` of `depth` (in no particular order).
    pub(crate) fn at(&mut self, depth: usize) -> &[(usize, usize)] {
        let Packing { gone, came, gone_at, came_at, .. } = &self.ahead.packing;
        if depth + 1 >= gone_at.len() {
            return &[];
        }
        if self.applied > depth + 1 {
            for &(i, _) in &self.list {
                self.place[i] = u32::MAX;
            }
            self.list.clear();
            self.applied = 0;
        }
        while self.applied <= depth {
            let d = self.applied;
            for &(i, _) in &gone[gone_at[d]..gone_at[d + 1]] {
                let k = std::mem::replace(&mut self.place[i as usize], u32::MAX) as usize;
                self.list.swap_remove(k);
                if let Some(&(moved, _)) = self.list.get(k) {
                    self.place[moved] = k as u32;
                }
            }
            for &(i, t) in &came[came_at[d]..came_at[d + 1]] {
                self.place[i as usize] = self.list.len() as u32;
                self.list.push((i as usize, t as usize));
            }
            self.applied += 1;
        }
        &self.list
    }

    /// The list of the depth last read by [`Packed::at`].
    pub(crate) fn current(&self) -> &[(usize, usize)] {
        &self.list
    }

    /// The table of `cell` at the depth last read by [`Packed::at`], if it is packed there.
    pub(crate) fn table_of(&self, cell: usize) -> Option<usize> {
        let k = *self.place.get(cell)?;
        (k != u32::MAX).then(|| self.list[k as usize].1)
    }

    /// The entries `(cell, table)` leaving and arriving between `depth - 1` and `depth` (all of
    /// depth 0's arriving at 0).
    pub(crate) fn changes(&self, depth: usize) -> (&[Entry], &[Entry]) {
        let p = &self.ahead.packing;
        if depth + 1 >= p.gone_at.len() {
            return (&[], &[]);
        }
        (&p.gone[p.gone_at[depth]..p.gone_at[depth + 1]], &p.came[p.came_at[depth]..p.came_at[depth + 1]])
    }
}

/// The most cells in a group of the shared bound.
pub(crate) const GROUP_CELLS: usize = 3;

/// A group of open cells of the shared bound at one depth, with its table of the least shared
/// cost of its open buttons by the cells' residuals (index `Σ residual·radix`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct SharedGroup {
    pub cells: [u32; GROUP_CELLS],
    pub radix: [u32; GROUP_CELLS],
    pub len: u8,
    pub table: u32,
}

/// The shared bound counts a press's cost in units of `1 / SHARE_UNIT`.
pub(crate) const SHARE_UNIT: u64 = 1 << 16;

/// Lookahead tables pack every open cell for puzzles of at most this many buttons, only the
/// frontier's up to [`LOOKAHEAD_FRONTIER_BUTTONS`], and hold at most [`LOOKAHEAD_ENTRIES`]
/// entries in all (tables, and packed cells over the depths).
const LOOKAHEAD_BUTTONS: usize = 4000;
const LOOKAHEAD_FRONTIER_BUTTONS: usize = 1 << 20;
const LOOKAHEAD_ENTRIES: usize = 1 << 24;
/// Past this many packed entries over the depths only their changes are kept ([`Packing`]).
const LOOKAHEAD_LISTS: usize = 1 << 22;

impl Lookahead {
    /// The lookahead of disjoint cells; [`Lookahead::with_shared`] adds a shared bound.
    pub(crate) fn new(problem: &SearchProblem, order: &[usize], objective: Objective) -> Option<Lookahead> {
        Lookahead::within(problem, order, objective, u64::MAX)
    }

    /// [`Lookahead::new`], or `None` as soon as its building's [`Lookahead::work`] is known to
    /// pass `limit` (the packing's is worked out before it is done: on a 1000×1000 grid it is
    /// two billion steps, 12 s).
    pub(crate) fn within(
        problem: &SearchProblem,
        order: &[usize],
        objective: Objective,
        limit: u64,
    ) -> Option<Lookahead> {
        let n = order.len();
        if n > LOOKAHEAD_FRONTIER_BUTTONS {
            return None;
        }
        let cells = problem.moduli.len();
        let mut depth_of = vec![0usize; n];
        for (d, &j) in order.iter().enumerate() {
            depth_of[j] = d;
        }
        // Each cell's buttons (weights summed and reduced), by depth.
        let mut by_cell = problem.buttons_by_cell();
        let mut entries = 0usize;
        let mut work = 0u64;
        // tables[first[i] + k]: cell i's buttons from its k-th (by depth) on.
        let mut tables: Vec<Vec<u64>> = Vec::new();
        let mut first = vec![usize::MAX; cells];
        for (i, list) in by_cell.iter_mut().enumerate() {
            crate::bounded::checkpoint();
            list.retain(|&(_, a)| a != 0);
            list.sort_by_key(|&(j, _)| depth_of[j]);
            let m = problem.moduli[i];
            entries = entries.saturating_add((list.len() + 1).saturating_mul(m as usize));
            if m > 4096 || list.is_empty() || entries > LOOKAHEAD_ENTRIES {
                continue;
            }
            let m_us = m as usize;
            let mut suffix: Vec<Vec<u64>> = vec![Vec::new(); list.len() + 1];
            let mut table = vec![u64::MAX; m_us];
            table[0] = 0;
            suffix[list.len()] = table.clone();
            for k in (0..list.len()).rev() {
                let (j, a) = list[k];
                let period = m / a.gcd(&m);
                let top = problem.highest[j].min(period - 1);
                work += m * (top + 1);
                // `a` is reduced below `m` (by `buttons_by_cell`), so a step needs no division.
                let a = a as usize;
                let mut next = vec![u64::MAX; m_us];
                for (r, &here) in table.iter().enumerate() {
                    if here == u64::MAX {
                        continue;
                    }
                    let mut t = r;
                    for x in 0..=top {
                        let c = match objective {
                            Objective::Total => here.saturating_add(x),
                            Objective::Buttons => here + u64::from(x > 0),
                            Objective::Max => here.max(x),
                        };
                        if c < next[t] {
                            next[t] = c;
                        }
                        t += a;
                        if t >= m_us {
                            t -= m_us;
                        }
                    }
                }
                suffix[k] = next.clone();
                table = next;
            }
            first[i] = tables.len();
            tables.extend(suffix);
            if work > limit {
                return None;
            }
        }
        // The packing at each depth: open cells, fewest buttons left first, disjoint. Past
        // `LOOKAHEAD_BUTTONS` buttons only the frontier's cells (changed by a button already
        // fixed, still open) are packed: the others' residuals are the same in every partial
        // plan, so leaving them out weakens the bound by the same amount for all.
        let frontier = n > LOOKAHEAD_BUTTONS;
        let mut enters: Vec<Vec<usize>> = vec![Vec::new(); n + 1];
        for i in (0..cells).filter(|&i| first[i] != usize::MAX) {
            let at = if frontier { depth_of[by_cell[i][0].0] + 1 } else { 0 };
            enters[at.min(n)].push(i);
        }
        // The packing's work: each depth's open cells and one (below). A cell is open from the
        // depth it enters at to its last button's.
        let packing_work = (0..cells)
            .filter(|&i| first[i] != usize::MAX)
            .map(|i| {
                let at = if frontier { depth_of[by_cell[i][0].0] + 1 } else { 0 };
                let last = by_cell[i].last().map_or(0, |&(j, _)| depth_of[j]);
                (last + 1).saturating_sub(at) as u64
            })
            .sum::<u64>()
            + n as u64
            + 1;
        if work.saturating_add(packing_work) > limit {
            return None;
        }
        let tables_work = work;
        // Each button's packable cells (one per entry of the cell's list), for keeping the open
        // cells sorted from depth to depth: only the cells of the button just fixed move.
        let mut cells_at = vec![0usize; n + 1];
        for i in (0..cells).filter(|&i| first[i] != usize::MAX) {
            by_cell[i].iter().for_each(|&(j, _)| cells_at[j + 1] += 1);
        }
        for j in 0..n {
            cells_at[j + 1] += cells_at[j];
        }
        let mut cells_of = vec![0u32; cells_at[n]];
        let mut filled = cells_at.clone();
        for i in (0..cells).filter(|&i| first[i] != usize::MAX) {
            for &(j, _) in &by_cell[i] {
                cells_of[filled[j]] = i as u32;
                filled[j] += 1;
            }
        }
        // Per cell, its entries at depths before the current one; the open cells (entered, with
        // entries left) as (entries left, cell), sorted.
        let mut taken = vec![0usize; cells];
        let mut inside = vec![false; cells];
        let mut open: Vec<(usize, usize)> = Vec::new();
        let mut used = vec![usize::MAX; n];
        let mut packed = 0usize;
        let mut lowest = Vec::with_capacity(n + 1);
        // Each depth's changes from the one before (both lists sorted by cell), and the lists
        // themselves while they fit.
        let mut lists: Option<Vec<Vec<(usize, usize)>>> = Some(Vec::with_capacity(n + 1));
        let (mut gone, mut came) = (Vec::new(), Vec::new());
        let (mut gone_at, mut came_at, mut sizes) = (vec![0], vec![0], Vec::with_capacity(n + 1));
        let mut before: Vec<(usize, usize)> = Vec::new();
        for (d, entering) in enters.iter().enumerate() {
            crate::bounded::checkpoint();
            if d > 0 {
                for &i in &cells_of[cells_at[order[d - 1]]..cells_at[order[d - 1] + 1]] {
                    let i = i as usize;
                    let left = by_cell[i].len() - taken[i];
                    taken[i] += 1;
                    if !inside[i] {
                        continue;
                    }
                    if let Ok(at) = open.binary_search(&(left, i)) {
                        open.remove(at);
                    }
                    if left > 1 {
                        let at = open.binary_search(&(left - 1, i)).unwrap_or_else(|at| at);
                        open.insert(at, (left - 1, i));
                    } else {
                        inside[i] = false;
                    }
                }
            }
            for &i in entering {
                let left = by_cell[i].len() - taken[i];
                if left > 0 {
                    inside[i] = true;
                    let at = open.binary_search(&(left, i)).unwrap_or_else(|at| at);
                    open.insert(at, (left, i));
                }
            }
            work += open.len() as u64 + 1;
            let mut chosen = Vec::new();
            for &(_, i) in &open {
                let k = taken[i];
                if by_cell[i][k..].iter().all(|&(j, _)| used[j] != d) {
                    by_cell[i][k..].iter().for_each(|&(j, _)| used[j] = d);
                    chosen.push((i, first[i] + k));
                }
            }
            packed += chosen.len();
            lowest.push(chosen.iter().map(|&(i, _)| i as u32).min().unwrap_or(u32::MAX));
            chosen.sort_unstable();
            let (mut a, mut b) = (0, 0);
            while a < before.len() || b < chosen.len() {
                match (before.get(a), chosen.get(b)) {
                    (Some(&x), Some(&y)) if x == y => (a, b) = (a + 1, b + 1),
                    (Some(&(i, t)), Some(&(k, _))) if i < k => {
                        gone.push((i as u32, t as u32));
                        a += 1;
                    }
                    (Some(&(i, t)), None) => {
                        gone.push((i as u32, t as u32));
                        a += 1;
                    }
                    (Some(&(i, t0)), Some(&(k, t))) if i == k => {
                        gone.push((i as u32, t0 as u32));
                        came.push((k as u32, t as u32));
                        (a, b) = (a + 1, b + 1);
                    }
                    (_, Some(&(k, t))) => {
                        came.push((k as u32, t as u32));
                        b += 1;
                    }
                    (None, None) => break,
                }
            }
            gone_at.push(gone.len());
            came_at.push(came.len());
            sizes.push(chosen.len() as u32);
            if gone.len() + came.len() > LOOKAHEAD_ENTRIES {
                return None;
            }
            if packed > LOOKAHEAD_LISTS {
                lists = None;
            }
            // Each depth's list goes into `lists` once the next depth has been compared with it.
            let previous = std::mem::replace(&mut before, chosen);
            if d > 0
                && let Some(lists) = lists.as_mut()
            {
                lists.push(previous);
            }
        }
        if let Some(lists) = lists.as_mut() {
            lists.push(before);
        }
        debug_assert_eq!(work, tables_work + packing_work);
        let packed_cells = came.iter().map(|&(i, _)| i as usize + 1).max().unwrap_or(0);
        let packing = Packing { gone, came, gone_at, came_at, sizes, lists, cells: packed_cells };
        Some(Lookahead {
            objective,
            packing,
            lowest,
            work,
            tables,
            shared: Vec::new(),
            shared_tables: Vec::new(),
        })
    }

    /// A reader of the packed cells, depth after depth.
    pub(crate) fn packed(&self) -> Packed<'_> {
        Packed { ahead: self, applied: 0, list: Vec::new(), place: vec![u32::MAX; self.packing.cells] }
    }

    /// Whether [`Lookahead::rest`] is a plain sum of the packed cells' table entries (`total`
    /// or `buttons`, no shared bound), so that it can be kept up to date cell by cell
    /// ([`Lookahead::entry`]).
    pub(crate) fn additive(&self) -> bool {
        self.objective != Objective::Max && self.shared.is_empty()
    }

    /// Table `t`'s entry for `residual` (`u64::MAX`: its buttons cannot meet it).
    pub(crate) fn entry(&self, t: usize, residual: u64) -> u64 {
        self.tables[t][residual as usize]
    }

    /// Adds a shared bound for `total` (built by [`bound::lookahead`]): for each depth, its groups
    /// of open cells, and the groups' tables.
    pub(crate) fn with_shared(
        self,
        shared: Vec<Vec<SharedGroup>>,
        shared_tables: Vec<Vec<u64>>,
    ) -> Lookahead {
        Lookahead { shared, shared_tables, ..self }
    }

    /// The least the open buttons must add at `depth` given the residuals, `None` when they
    /// cannot meet them.
    /// The table look-ups of [`Lookahead::rest`] at `depth` (cells of the disjoint bound, and
    /// the cells of the shared bound's groups): what a value tried there costs besides its
    /// button's cells.
    pub(crate) fn terms(&self, depth: usize) -> usize {
        let packed = self.packing.sizes.get(depth).map_or(0, |&k| k as usize);
        packed + self.shared.get(depth).map_or(0, |groups| groups.iter().map(|g| g.len as usize).sum())
    }

    /// The lowest cell whose residual [`Lookahead::rest`] reads at `depth`, if any.
    pub(crate) fn lowest_cell(&self, depth: usize) -> Option<usize> {
        let single = self.lowest.get(depth).filter(|&&i| i != u32::MAX).map(|&i| i as usize);
        let grouped =
            self.shared.get(depth).into_iter().flatten().flat_map(|g| g.cells[..g.len as usize].iter());
        single.into_iter().chain(grouped.map(|&i| i as usize)).min()
    }

    pub(crate) fn rest(&self, depth: usize, residual: &[u64]) -> Option<u64> {
        match &self.packing.lists {
            Some(at) => self.rest_of(at.get(depth).map_or(&[], Vec::as_slice), depth, residual),
            // Not the way to read it (see [`Packed`]), but right.
            None => {
                let mut packed = self.packed();
                let list = packed.at(depth);
                self.rest_of(list, depth, residual)
            }
        }
    }

    /// [`Lookahead::rest`] with the packed cells of `depth` given (by a [`Packed`]).
    pub(crate) fn rest_of(&self, packed: &[(usize, usize)], depth: usize, residual: &[u64]) -> Option<u64> {
        let mut rest = 0u64;
        for &(i, t) in packed {
            let c = self.tables[t][residual[i] as usize];
            if c == u64::MAX {
                return None;
            }
            rest = match self.objective {
                Objective::Max => rest.max(c),
                _ => rest.saturating_add(c),
            };
        }
        if let Some(groups) = self.shared.get(depth) {
            let mut sum = 0u64;
            for g in groups {
                let index = (0..g.len as usize)
                    .map(|k| residual[g.cells[k] as usize] as usize * g.radix[k] as usize)
                    .sum::<usize>();
                let c = self.shared_tables[g.table as usize][index];
                if c == u64::MAX {
                    return None;
                }
                sum = sum.saturating_add(c);
            }
            rest = rest.max(sum.div_ceil(SHARE_UNIT));
        }
        Some(rest)
    }
}

/// Runs the search. `initial_best` (a known plan's score) lets branch and bound prune from the
/// start; the outcome's plan is then only set when a strictly better one is found.
pub(crate) fn search(
    problem: &SearchProblem,
    goal: Goal,
    budget: Budget,
    initial_best: Option<Score>,
) -> SearchOutcome {
    search_to(problem, goal, budget, initial_best, None)
}

/// [`search`] that also ends, complete, when it meets `floor`, a proven lower bound on the
/// best score (when `initial_best` meets it already, nothing is searched).
pub(crate) fn search_to(
    problem: &SearchProblem,
    goal: Goal,
    budget: Budget,
    initial_best: Option<Score>,
    floor: Option<Score>,
) -> SearchOutcome {
    if let (Some(best), Some(floor)) = (initial_best, floor)
        && best <= floor
    {
        return SearchOutcome { score: initial_best, complete: true, ..SearchOutcome::default() };
    }
    let ordered = button_order(problem);
    let ahead = match goal {
        Goal::Best(objective) => Lookahead::new(problem, &ordered.0, objective),
        Goal::All { .. } => None,
    };
    // Building the lookahead counts as the search's nodes: on a small search (a window of the
    // window search, 16 buttons) it is most of the work (a 100×100 grid's windows took 52 µs
    // each for 370 nodes of search).
    let setup = ahead.as_ref().map_or(0, |a| a.work / LOOKAHEAD_WORK_PER_NODE);
    if setup > 0 && setup >= budget.nodes {
        return SearchOutcome { nodes: budget.nodes, score: initial_best, ..SearchOutcome::default() };
    }
    let left = Budget { nodes: budget.nodes - setup, ..budget };
    let mut outcome = search_ordered(problem, goal, left, initial_best, floor, ahead.as_ref(), None, ordered);
    outcome.nodes += setup;
    outcome
}

/// [`search_to`] with a lookahead built by the caller (for the order of [`button_order`]), so
/// that searches of one problem share it; `part`, `(k, n)`, tries only the first button's
/// values whose place in its sequence is `k` modulo `n` (the others belong to other parts).
pub(crate) fn search_ahead(
    problem: &SearchProblem,
    goal: Goal,
    budget: Budget,
    initial_best: Option<Score>,
    floor: Option<Score>,
    ahead: Option<&Lookahead>,
    part: Option<(u64, u64)>,
) -> SearchOutcome {
    search_ordered(problem, goal, budget, initial_best, floor, ahead, part, button_order(problem))
}

/// [`search_ahead`] with the buttons' order ([`button_order`]) worked out by the caller.
#[allow(clippy::too_many_arguments)]
fn search_ordered(
    problem: &SearchProblem,
    goal: Goal,
    budget: Budget,
    initial_best: Option<Score>,
    floor: Option<Score>,
    ahead: Option<&Lookahead>,
    part: Option<(u64, u64)>,
    (order, closing): (Vec<usize>, Vec<Vec<usize>>),
) -> SearchOutcome {
    if let (Some(best), Some(floor)) = (initial_best, floor)
        && best <= floor
    {
        return SearchOutcome { score: initial_best, complete: true, ..SearchOutcome::default() };
    }
    let amount = |j: usize, cell: usize| {
        let m = problem.moduli[cell];
        problem.effects[j].iter().filter(|&&(i, _)| i == cell).fold(0, |acc, &(_, a)| add_mod(acc, a % m, m))
    };
    let forced: Vec<Option<Forced>> = order
        .iter()
        .zip(&closing)
        .map(|(&j, closed)| {
            let &cell = closed.first()?;
            let (m, a) = (problem.moduli[cell], amount(j, cell));
            let g = a.gcd(&m);
            let step = m / g;
            Some(Forced { cell, g, step, inverse: inv_mod((a / g) % step, step).unwrap_or(0) })
        })
        .collect();
    let deltas: Vec<Vec<u64>> = order
        .iter()
        .zip(&forced)
        .map(|(&j, f)| {
            let step = f.map_or(1, |f| f.step);
            problem.effects[j]
                .iter()
                .map(|&(i, a)| mul_mod(a % problem.moduli[i], step % problem.moduli[i], problem.moduli[i]))
                .collect()
        })
        .collect();
    // A value tried counts the cells its button changes; the lookahead's look-ups are counted
    // where they are made.
    let costs: Vec<u64> = order.iter().map(|&j| problem.step_nodes(j)).collect();
    let terms: Vec<u64> = (0..order.len()).map(|d| ahead.map_or(0, |a| a.terms(d + 1) as u64)).collect();
    let mut walk = Walk {
        problem,
        goal,
        order,
        closing,
        residual: problem.rhs.clone(),
        x: vec![0; problem.effects.len()],
        meter: Meter::new(budget),
        part,
        out: SearchOutcome { score: initial_best, ..SearchOutcome::default() },
        sum: 0,
        stop: false,
        ahead,
        floor,
        done: false,
        forced,
        costs,
        terms,
        lookups: 0,
        terms_per_node: terms_per_node(problem.moduli.len()),
        deltas,
    };
    // Cells no button touches must already be right.
    let mut touched = vec![false; problem.moduli.len()];
    for effect in &problem.effects {
        for &(i, _) in effect {
            touched[i] = true;
        }
    }
    let feasible = (0..problem.moduli.len()).all(|i| touched[i] || problem.rhs[i] == 0);
    if feasible {
        walk.descend(0, 0, 0);
    }
    walk.out.nodes = walk.meter.nodes;
    walk.out.complete = walk.done || !walk.meter.exhausted;
    walk.out
}

/// For each depth of `order` (every button once), the cells that close there: those whose last
/// button it is.
pub(crate) fn closing_of(problem: &SearchProblem, order: &[usize]) -> Vec<Vec<usize>> {
    let mut open = vec![0usize; problem.moduli.len()];
    problem.effects.iter().flatten().for_each(|&(i, _)| open[i] += 1);
    order
        .iter()
        .map(|&j| {
            let mut closed = Vec::new();
            for &(i, _) in &problem.effects[j] {
                open[i] -= 1;
                if open[i] == 0 {
                    closed.push(i);
                }
            }
            closed
        })
        .collect()
}

/// The most cells open at once when the buttons are taken in `order`: cells changed both by a
/// button before a depth and by one from it on.
pub(crate) fn frontier(problem: &SearchProblem, order: &[usize]) -> usize {
    let cells = problem.moduli.len();
    let (mut first, mut last) = (vec![usize::MAX; cells], vec![0usize; cells]);
    for (d, &j) in order.iter().enumerate() {
        for &(i, _) in &problem.effects[j] {
            first[i] = first[i].min(d);
            last[i] = last[i].max(d);
        }
    }
    let mut change = vec![0i64; order.len() + 1];
    for (&f, &l) in first.iter().zip(&last) {
        if f != usize::MAX && l > f {
            change[f] += 1;
            change[l] -= 1;
        }
    }
    let (mut open, mut most) = (0i64, 0i64);
    for c in change {
        open += c;
        most = most.max(open);
    }
    most as usize
}

/// Whether [`button_order`] takes the buttons as they are labelled: past
/// [`GREEDY_BUTTONS`], or on dense systems (entries above a quarter of buttons × cells).
fn ordered_as_labelled(buttons: usize, entries: usize, cells: usize) -> bool {
    buttons > GREEDY_BUTTONS || entries > buttons.saturating_mul(cells) / 4
}

/// Buttons at most for [`button_order`]'s greedy choice.
pub(crate) const GREEDY_BUTTONS: usize = 2000;

/// A problem with its buttons and cells labelled anew, so that the order of the labels, which
/// [`button_order`] takes past [`GREEDY_BUTTONS`], is narrow: a wide grid's buttons column by
/// column ([`across_order`]), its cells as the buttons first reach them. Everything the beam,
/// the window search and branch and bound do follows the labels (a layer's band of cells, the
/// windows swept); on a board of 10 rows of 1000 cells in row order they kept 1000 cells open
/// and found 33,077 presses where the same board transposed gets 20,262. Scores and bounds are
/// the same under any labelling; plans go back by [`Renumbered::to_old`].
pub(crate) struct Renumbered<'a> {
    /// The problem in the new labels (the original itself when the labels are kept).
    pub problem: std::borrow::Cow<'a, SearchProblem>,
    /// The old label of each new button; `None` when the labels are kept.
    old: Option<Vec<usize>>,
}

impl<'a> Renumbered<'a> {
    /// `problem` relabelled when a column-major order leaves fewer cells open than its own
    /// labels' order; otherwise `problem` itself.
    pub(crate) fn new(problem: &'a SearchProblem) -> Renumbered<'a> {
        let n = problem.effects.len();
        let cells = problem.moduli.len();
        let entries: usize = problem.effects.iter().map(Vec::len).sum();
        let identity: Vec<usize> = (0..n).collect();
        // Only where the labels' order is taken: past the greedy choice's buttons, and not dense.
        let across = if n > GREEDY_BUTTONS && entries <= n.saturating_mul(cells) / 4 {
            across_order(problem, frontier(problem, &identity))
        } else {
            None
        };
        let Some(order) = across else {
            return Renumbered { problem: std::borrow::Cow::Borrowed(problem), old: None };
        };
        // Cells by the first button that reaches them, the rest after.
        let mut label = vec![usize::MAX; cells];
        let mut next = 0;
        for i in order.iter().flat_map(|&j| problem.effects[j].iter().map(|&(i, _)| i)).chain(0..cells) {
            if label[i] == usize::MAX {
                label[i] = next;
                next += 1;
            }
        }
        let mut moduli = vec![0; cells];
        let mut rhs = vec![0; cells];
        for i in 0..cells {
            moduli[label[i]] = problem.moduli[i];
            if let Some(&d) = problem.rhs.get(i) {
                rhs[label[i]] = d;
            }
        }
        if problem.rhs.is_empty() {
            rhs.clear();
        }
        let effects = order
            .iter()
            .map(|&j| {
                let mut effect: Vec<(usize, u64)> =
                    problem.effects[j].iter().map(|&(i, a)| (label[i], a)).collect();
                effect.sort_unstable();
                effect
            })
            .collect();
        let highest = order.iter().map(|&j| problem.highest[j]).collect();
        let problem = SearchProblem { moduli, effects, rhs, highest };
        Renumbered { problem: std::borrow::Cow::Owned(problem), old: Some(order) }
    }

    /// A plan of the original problem in the new labels.
    pub(crate) fn to_new(&self, x: &[u64]) -> Vec<u64> {
        match &self.old {
            Some(old) => old.iter().map(|&j| x[j]).collect(),
            None => x.to_vec(),
        }
    }

    /// A plan in the new labels as a plan of the original problem.
    pub(crate) fn to_old(&self, x: Vec<u64>) -> Vec<u64> {
        match &self.old {
            Some(old) => {
                let mut back = vec![0; x.len()];
                for (&j, v) in old.iter().zip(x) {
                    back[j] = v;
                }
                back
            }
            None => x,
        }
    }
}

/// The buttons of a board laid out in rows, taken column by column instead, when that leaves
/// fewer cells open at once than `frontier_now`, the labels' own (a grid of 10 rows of 1000 buttons
/// has 1000 open in row order, about 10 by columns): `None` when no column-major order does.
/// The row length is read from the buttons' effects (the largest forward reach of most
/// buttons, or one less or more: a King grid's reaches one past the next row's cell), and every
/// candidate is judged by its [`frontier`] alone, so a board that is not a grid keeps its order.
fn across_order(problem: &SearchProblem, frontier_now: usize) -> Option<Vec<usize>> {
    let n = problem.effects.len();
    let mut reaches = std::collections::HashMap::<usize, usize>::new();
    for (j, effect) in problem.effects.iter().enumerate() {
        if let Some(reach) = effect.iter().filter_map(|&(i, _)| i.checked_sub(j)).max()
            && reach > 1
        {
            *reaches.entry(reach).or_default() += 1;
        }
    }
    let (&reach, _) = reaches.iter().max_by_key(|&(&r, &count)| (count, std::cmp::Reverse(r)))?;
    let mut best: Option<(usize, Vec<usize>)> = None;
    for cols in [reach - 1, reach, reach + 1] {
        if cols < 2 || !n.is_multiple_of(cols) || n / cols >= cols {
            continue;
        }
        let rows = n / cols;
        let order: Vec<usize> = (0..cols).flat_map(|c| (0..rows).map(move |r| r * cols + c)).collect();
        let f = frontier(problem, &order);
        if f * 4 < frontier_now * 3 && best.as_ref().is_none_or(|(b, _)| f < *b) {
            best = Some((f, order));
        }
    }
    best.map(|(_, order)| order)
}

/// Buttons in search order, and for each depth the cells that close there.
pub(crate) fn button_order(problem: &SearchProblem) -> (Vec<usize>, Vec<Vec<usize>>) {
    let n = problem.effects.len();
    let cells = problem.moduli.len();
    let mut open = vec![0usize; cells];
    let mut buttons_of = vec![Vec::new(); cells];
    for (j, effect) in problem.effects.iter().enumerate() {
        for &(i, _) in effect {
            open[i] += 1;
            buttons_of[i].push(j);
        }
    }
    let mut assigned = vec![false; n];
    let mut order = Vec::with_capacity(n);
    let mut closing = Vec::with_capacity(n);
    // The greedy choice below costs buttons × entries; past a few thousand buttons, or on
    // dense systems (entries above a quarter of buttons × cells, where cells close only near
    // the last button anyway), take them in order (row-major on grids, which closes each row as
    // the next is assigned; [`Renumbered`] labels a wide board's buttons by columns first).
    let entries: usize = problem.effects.iter().map(Vec::len).sum();
    if ordered_as_labelled(n, entries, cells) {
        let order: Vec<usize> = (0..n).collect();
        let closing = closing_of(problem, &order);
        return (order, closing);
    }
    // Candidates: buttons sharing a cell with an assigned one first (keeps the frontier narrow),
    // scored by how many cells they close, then by how constrained their cells are.
    for _ in 0..n {
        let mut best: Option<(usize, (usize, usize, bool))> = None;
        for (j, effect) in problem.effects.iter().enumerate() {
            if assigned[j] {
                continue;
            }
            let closes = effect.iter().filter(|&&(i, _)| open[i] == 1).count();
            let tightest = effect.iter().map(|&(i, _)| open[i]).min().unwrap_or(usize::MAX);
            let started = effect.iter().any(|&(i, _)| open[i] < buttons_of[i].len());
            let key = (closes, usize::MAX - tightest, started);
            if best.is_none_or(|(_, k)| key > k) {
                best = Some((j, key));
            }
        }
        let (j, _) = best.expect("an unassigned button remains");
        assigned[j] = true;
        order.push(j);
        let mut closed = Vec::new();
        for &(i, _) in &problem.effects[j] {
            open[i] -= 1;
            if open[i] == 0 {
                closed.push(i);
            }
        }
        closing.push(closed);
    }
    (order, closing)
}

impl Walk<'_> {
    /// `max` and `nonzero` are the partial score parts not kept in `self`.
    fn descend(&mut self, depth: usize, max: u64, nonzero: u64) {
        if self.stop {
            return;
        }
        if depth == self.order.len() {
            self.leaf(max, nonzero);
            return;
        }
        let j = self.order[depth];
        let hi = self.problem.highest[j];
        // Forced values from the first closing cell: x ≡ x0 (mod step).
        let (first, step) = match self.forced[depth] {
            Some(Forced { cell, g, step, inverse }) => {
                let r = self.residual[cell];
                if !r.is_multiple_of(g) {
                    self.meter.tick();
                    return;
                }
                (mul_mod((r / g) % step, inverse, step), step)
            }
            None => (0, 1),
        };
        if first > hi {
            return;
        }
        let mut value = first;
        // The residuals are kept for the value tried: pressed once, then moved by one step's
        // change per value (no division), and restored at the end.
        self.press(j, value);
        let mut place = 0u64;
        loop {
            // Values of other parts are stepped over, uncounted.
            let mine = depth != 0 || self.part.is_none_or(|(k, n)| place % n == k);
            place += 1;
            if mine && !self.try_value(depth, value, max, nonzero) || self.stop {
                break;
            }
            match value.checked_add(step) {
                Some(v) if v <= hi => {
                    for (&(i, _), &d) in self.problem.effects[j].iter().zip(&self.deltas[depth]) {
                        let (r, m) = (self.residual[i], self.problem.moduli[i]);
                        self.residual[i] = if r >= d { r - d } else { r + (m - d) };
                    }
                    self.x[j] = v;
                    self.sum += step as u128;
                    value = v;
                }
                _ => break,
            }
        }
        self.unpress(j, value);
    }

    /// Tries `value`, already pressed, for the button at `depth`: counts it, and descends unless
    /// a bound rules it out. False when larger values need not be tried (they can only score
    /// worse); `stop` is set when the budget is spent.
    fn try_value(&mut self, depth: usize, value: u64, max: u64, nonzero: u64) -> bool {
        if !self.meter.tick_by(self.costs[depth]) {
            self.stop = true;
            return false;
        }
        self.meter.touch(self.problem.effects[self.order[depth]].len() + self.closing[depth].len());
        let (max, nonzero) = (max.max(value), nonzero + u64::from(value != 0));
        if let Goal::Best(objective) = self.goal
            && let Some(best) = self.out.score
        {
            let bound = match objective {
                Objective::Total => (self.sum, 0),
                Objective::Max => (max as u128, self.sum),
                Objective::Buttons => (nonzero as u128, self.sum),
            };
            if bound >= best {
                // Larger values only raise the bound (for Buttons, every value > 0 ties).
                return false;
            }
        }
        let mut ok = self.closing[depth].iter().all(|&i| self.residual[i] == 0);
        if ok && let Some(ahead) = &self.ahead {
            self.lookups += self.terms[depth];
            self.meter.touch(self.terms[depth] as usize);
            if self.lookups >= self.terms_per_node {
                let nodes = self.lookups / self.terms_per_node;
                self.lookups %= self.terms_per_node;
                if !self.meter.tick_by(nodes) {
                    self.stop = true;
                    return false;
                }
            }
            ok = match ahead.rest(depth + 1, &self.residual) {
                None => false,
                Some(rest) => self.out.score.is_none_or(|best| {
                    let bound = match ahead.objective {
                        Objective::Total => (self.sum + rest as u128, 0),
                        Objective::Max => ((max as u128).max(rest as u128), self.sum),
                        Objective::Buttons => (nonzero as u128 + rest as u128, self.sum),
                    };
                    bound < best
                }),
            };
        }
        if ok {
            self.descend(depth + 1, max, nonzero);
        }
        true
    }

    fn press(&mut self, j: usize, value: u64) {
        self.x[j] = value;
        self.sum += value as u128;
        if value == 0 {
            return;
        }
        for &(i, a) in &self.problem.effects[j] {
            let m = self.problem.moduli[i];
            self.residual[i] = sub_mod(self.residual[i], mul_mod(a, value % m, m), m);
        }
    }

    fn unpress(&mut self, j: usize, value: u64) {
        self.x[j] = 0;
        self.sum -= value as u128;
        if value == 0 {
            return;
        }
        for &(i, a) in &self.problem.effects[j] {
            let m = self.problem.moduli[i];
            self.residual[i] = add_mod(self.residual[i], mul_mod(a, value % m, m), m);
        }
    }

    fn leaf(&mut self, max: u64, nonzero: u64) {
        self.out.count += 1;
        match self.goal {
            Goal::All { keep } => {
                if self.out.plan.is_none() {
                    self.out.plan = Some(self.x.clone());
                }
                if self.out.plans.len() < keep {
                    self.out.plans.push(self.x.clone());
                }
            }
            Goal::Best(objective) => {
                let score = match objective {
                    Objective::Total => (self.sum, 0),
                    Objective::Max => (max as u128, self.sum),
                    Objective::Buttons => (nonzero as u128, self.sum),
                };
                if self.out.score.is_none_or(|best| score < best) {
                    self.out.score = Some(score);
                    self.out.plan = Some(self.x.clone());
                    if self.floor.is_some_and(|floor| score <= floor) {
                        (self.done, self.stop) = (true, true);
                    }
                }
            }
        }
    }
}

/// Brute force and random systems for the solvers' tests.
#[cfg(test)]
pub(crate) mod testing {
    use super::{Objective, Score, SearchProblem};
    use rand::{RngExt, rngs::StdRng};

    pub(crate) const OBJECTIVES: [Objective; 3] = [Objective::Total, Objective::Max, Objective::Buttons];

    /// Whether the presses `x` meet every cell's congruence.
    pub(crate) fn solves(problem: &SearchProblem, x: &[u64]) -> bool {
        (0..problem.moduli.len()).all(|i| {
            let m = problem.moduli[i] as u128;
            let s: u128 = problem
                .effects
                .iter()
                .zip(x)
                .flat_map(|(e, &v)| {
                    e.iter().filter(move |&&(c, _)| c == i).map(move |&(_, a)| a as u128 * v as u128)
                })
                .sum();
            s % m == problem.rhs[i] as u128 % m
        })
    }

    /// Every plan of a small system (each button from 0 to its highest): the true best score
    /// for each of [`OBJECTIVES`], `None` when no plan solves it.
    pub(crate) fn best_scores(problem: &SearchProblem) -> [Option<Score>; 3] {
        let n = problem.effects.len();
        let mut x = vec![0u64; n];
        let mut best: [Option<Score>; 3] = [None; 3];
        loop {
            if solves(problem, &x) {
                for (b, objective) in best.iter_mut().zip(OBJECTIVES) {
                    let score = objective.score(&x);
                    *b = Some(b.map_or(score, |b| b.min(score)));
                }
            }
            let mut k = 0;
            loop {
                if k == n {
                    return best;
                }
                x[k] += 1;
                if x[k] <= problem.highest[k] {
                    break;
                }
                x[k] = 0;
                k += 1;
            }
        }
    }

    /// The buttons of a `rows`×`cols` grid (Cross, or King with `king`), each adding 1 to its
    /// own cell and its neighbours, every button's cells in increasing order.
    pub(crate) fn grid_effects(rows: usize, cols: usize, king: bool) -> Vec<Vec<(usize, u64)>> {
        (0..rows * cols)
            .map(|b| {
                let (r, c) = ((b / cols) as isize, (b % cols) as isize);
                let mut e = Vec::new();
                for (dr, dc) in (-1..=1).flat_map(|dr| (-1..=1).map(move |dc| (dr, dc))) {
                    let (i, j) = (r + dr, c + dc);
                    let diagonal = dr != 0 && dc != 0;
                    if (king || !diagonal)
                        && (0..rows as isize).contains(&i)
                        && (0..cols as isize).contains(&j)
                    {
                        e.push((i as usize * cols + j as usize, 1));
                    }
                }
                e
            })
            .collect()
    }

    /// `n` random buttons over cells of `moduli`: each touches a cell with probability `p`, by a
    /// random nonzero amount.
    pub(crate) fn random_effects(
        rng: &mut StdRng,
        moduli: &[u64],
        n: usize,
        p: f64,
    ) -> Vec<Vec<(usize, u64)>> {
        (0..n)
            .map(|_| {
                let mut effect = Vec::new();
                for (i, &m) in moduli.iter().enumerate() {
                    if rng.random_bool(p) {
                        effect.push((i, rng.random_range(1..m)));
                    }
                }
                effect
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::testing::{OBJECTIVES, grid_effects, random_effects};
    use super::*;
    use rand::{RngExt, rngs::StdRng};

    /// A random system of fewer than `below` cells and buttons (moduli 2..=12, caps below 12),
    /// every target 0.
    fn random_system(rng: &mut StdRng, below: usize) -> SearchProblem {
        let cells = rng.random_range(1..below);
        let moduli: Vec<u64> = (0..cells).map(|_| rng.random_range(2..=12)).collect();
        let n = rng.random_range(1..below);
        let effects = random_effects(rng, &moduli, n, 0.4);
        let highest = (0..n).map(|_| rng.random_range(0..12)).collect();
        SearchProblem { rhs: vec![0; cells], moduli, effects, highest }
    }

    /// A `side`×`side` grid of random moduli 2..=12, a press adding `own(button)` to its own
    /// cell and 1 to its neighbours, caps 11, every target 0.
    fn mixed_grid(rng: &mut StdRng, side: usize, own: impl Fn(usize) -> u64) -> SearchProblem {
        let cells = side * side;
        let moduli: Vec<u64> = (0..cells).map(|_| rng.random_range(2..=12)).collect();
        let effects = (0..cells)
            .map(|b: usize| {
                let (r, c) = (b / side, b % side);
                let mut e = vec![(b, own(b))];
                [
                    (r > 0, b.wrapping_sub(side)),
                    (r + 1 < side, b + side),
                    (c > 0, b.wrapping_sub(1)),
                    (c + 1 < side, b + 1),
                ]
                .into_iter()
                .filter(|&(ok, _)| ok)
                .for_each(|(_, i)| e.push((i, 1)));
                e
            })
            .collect();
        SearchProblem { rhs: vec![0; cells], moduli, effects, highest: vec![11; cells] }
    }

    /// A `rows`×`cols` grid (Cross, or King with `king`) of random moduli 2..=12, a press
    /// adding 1 to its own cell and its neighbours, caps 11, a random target.
    fn mixed_rect(rng: &mut StdRng, rows: usize, cols: usize, king: bool) -> SearchProblem {
        let cells = rows * cols;
        let moduli: Vec<u64> = (0..cells).map(|_| rng.random_range(2..=12)).collect();
        let effects = grid_effects(rows, cols, king);
        let rhs = moduli.iter().map(|&m| rng.random_range(0..m)).collect();
        SearchProblem { rhs, moduli, effects, highest: vec![11; cells] }
    }

    /// Each cell's sum `Σ_j a_ij·x_j mod m_i` under the presses `x`.
    fn residuals(problem: &SearchProblem, x: &[u64]) -> Vec<u64> {
        let mut r = vec![0u64; problem.moduli.len()];
        for (effect, &v) in problem.effects.iter().zip(x) {
            for &(i, a) in effect {
                r[i] = (r[i] + a * v) % problem.moduli[i];
            }
        }
        r
    }

    /// A wide board (fewer rows than columns, past [`GREEDY_BUTTONS`] buttons) is labelled
    /// column by column: the same system (every plan's residuals are the old ones under the
    /// cells' new labels, so a plan of one is a plan of the other, with the same score), the
    /// labels' own order far narrower than the rows' (about a column open instead of a row),
    /// and plans go back unchanged. Square, tall and small boards keep their labels.
    #[test]
    fn wide_boards_are_labelled_by_columns() {
        use rand::SeedableRng;
        let mut rng = StdRng::seed_from_u64(64);
        let mut relabelled = 0;
        for (rows, cols, king, expect) in [
            (10, 300, false, true),
            (7, 400, true, true),
            (3, 1000, false, true),
            (20, 120, true, true),
            (50, 50, false, false),
            (400, 6, false, false),
            (10, 150, false, false),
        ] {
            let problem = mixed_rect(&mut rng, rows, cols, king);
            let n = problem.effects.len();
            let identity: Vec<usize> = (0..n).collect();
            let before = frontier(&problem, &identity);
            let renumbered = Renumbered::new(&problem);
            let new = &renumbered.problem;
            assert_eq!(renumbered.old.is_some(), expect, "{rows}×{cols}");
            if !expect {
                assert_eq!(new.effects, problem.effects, "{rows}×{cols}");
                continue;
            }
            relabelled += 1;
            let after = frontier(new, &identity);
            assert!(after <= 2 * rows + 4 && before >= cols, "{rows}×{cols}: {before} → {after}");
            // The cells' new labels, read from a button's own cell (every button touches it).
            let mut sorted_moduli = new.moduli.clone();
            let mut old_moduli = problem.moduli.clone();
            sorted_moduli.sort_unstable();
            old_moduli.sort_unstable();
            assert_eq!(sorted_moduli, old_moduli);
            for _ in 0..20 {
                let x: Vec<u64> = (0..n).map(|_| rng.random_range(0..=11)).collect();
                let y = renumbered.to_new(&x);
                assert_eq!(renumbered.to_old(y.clone()), x);
                assert_eq!(Objective::Total.score(&x), Objective::Total.score(&y));
                let (mut old_r, mut new_r) = (residuals(&problem, &x), residuals(new, &y));
                // Each residual against its own cell's target: zero where the plan meets it.
                let misses = |r: &mut Vec<u64>, p: &SearchProblem| {
                    r.iter_mut().zip(&p.rhs).zip(&p.moduli).for_each(|((v, &d), &m)| *v = (*v + m - d) % m);
                    let mut r = r.clone();
                    r.sort_unstable();
                    r
                };
                assert_eq!(misses(&mut old_r, &problem), misses(&mut new_r, new));
                // A plan of the old system (its targets made from x) is a plan of the new one.
                let mut made = problem.clone();
                made.rhs = residuals(&problem, &x);
                let made_new = Renumbered::new(&made);
                assert_eq!(made_new.to_new(&x), y);
                assert!(super::testing::solves(&made, &x));
                assert!(super::testing::solves(&made_new.problem, &y));
            }
        }
        assert_eq!(relabelled, 4);
    }

    /// The packed cells read depth after depth, and in any order, by a [`Packed`] (from the
    /// changes between depths) are every depth's list, and [`Lookahead::rest`] is the same
    /// whether it reads the lists or replays the changes: on random systems and on mixed grids
    /// up to 12×12 (the beam and the search read the same lookahead both ways).
    #[test]
    fn packed_changes_replay_the_lists() {
        use rand::SeedableRng;
        let mut rng = StdRng::seed_from_u64(62);
        let mut compared = 0;
        for round in 0..120 {
            let problem = if round % 2 == 0 {
                random_system(&mut rng, 9)
            } else {
                let side = rng.random_range(2..=12);
                mixed_grid(&mut rng, side, |_| 1)
            };
            let objective = OBJECTIVES[round % 3];
            let order = button_order(&problem).0;
            let Some(mut ahead) = Lookahead::new(&problem, &order, objective) else { continue };
            let lists = ahead.packing.lists.clone().expect("small boards keep their lists");
            let n = order.len();
            let sorted = |list: &[(usize, usize)]| {
                let mut list = list.to_vec();
                list.sort_unstable();
                list
            };
            let mut packed = ahead.packed();
            let mut depths: Vec<usize> = (0..=n).collect();
            depths.extend((0..=n).map(|_| rng.random_range(0..=n)));
            for &d in &depths {
                assert_eq!(sorted(packed.at(d)), sorted(&lists[d]), "round {round} depth {d}");
                assert_eq!(ahead.terms(d), lists[d].len(), "round {round} depth {d}");
                let lowest = lists[d].iter().map(|&(i, _)| i).min();
                assert_eq!(ahead.lowest_cell(d), lowest, "round {round} depth {d}");
            }
            drop(packed);
            let residuals: Vec<Vec<u64>> =
                (0..8).map(|_| problem.moduli.iter().map(|&m| rng.random_range(0..m)).collect()).collect();
            let with_lists: Vec<Vec<Option<u64>>> =
                residuals.iter().map(|r| (0..=n).map(|d| ahead.rest(d, r)).collect()).collect();
            ahead.packing.lists = None;
            for (r, expected) in residuals.iter().zip(&with_lists) {
                for (d, &e) in expected.iter().enumerate() {
                    assert_eq!(ahead.rest(d, r), e, "round {round} depth {d}");
                    compared += 1;
                }
            }
        }
        assert!(compared > 10_000, "{compared}");
    }

    /// The packing kept from depth to depth (only the cells of the button just fixed move) is,
    /// at every depth, the greedy packing worked out afresh: the open cells by (buttons left,
    /// cell), each taken when its buttons left are disjoint from those taken; and the building's
    /// work, known before the packing is done, is exactly its limit: one less builds nothing.
    /// On random systems, mixed grids up to 12×12 and, packing only the frontier, 64×64.
    #[test]
    fn the_kept_packing_is_the_greedy_of_every_depth() {
        use rand::SeedableRng;
        let mut rng = StdRng::seed_from_u64(63);
        let (mut compared, mut frontiers) = (0, 0);
        for round in 0..60 {
            let problem = if round % 3 == 0 {
                random_system(&mut rng, 12)
            } else {
                let side = if round % 12 == 2 { 64 } else { rng.random_range(2..=12) };
                mixed_grid(&mut rng, side, |b| 1 + b as u64 % 2)
            };
            let objective = OBJECTIVES[round % 3];
            let order = button_order(&problem).0;
            let Some(ahead) = Lookahead::new(&problem, &order, objective) else { continue };
            assert!(Lookahead::within(&problem, &order, objective, ahead.work).is_some(), "round {round}");
            assert!(
                Lookahead::within(&problem, &order, objective, ahead.work - 1).is_none(),
                "round {round}"
            );
            let lists = ahead.packing.lists.as_ref().expect("these boards keep their lists");
            let n = order.len();
            assert_eq!(lists.len(), n + 1, "round {round}");
            let mut depth_of = vec![0; n];
            order.iter().enumerate().for_each(|(d, &j)| depth_of[j] = d);
            let mut by_cell = problem.buttons_by_cell();
            for list in &mut by_cell {
                list.retain(|&(_, a)| a != 0);
                list.sort_by_key(|&(j, _)| depth_of[j]);
            }
            let frontier = n > LOOKAHEAD_BUTTONS;
            frontiers += usize::from(frontier);
            for (d, list) in lists.iter().enumerate() {
                let mut open: Vec<(usize, usize)> = (0..problem.moduli.len())
                    .filter(|&i| !by_cell[i].is_empty())
                    .filter(|&i| !frontier || d > depth_of[by_cell[i][0].0])
                    .map(|i| (by_cell[i].iter().filter(|&&(j, _)| depth_of[j] >= d).count(), i))
                    .filter(|&(left, _)| left > 0)
                    .collect();
                open.sort_unstable();
                let mut used = vec![false; n];
                let mut chosen = Vec::new();
                for (left, i) in open {
                    let rest = &by_cell[i][by_cell[i].len() - left..];
                    if rest.iter().all(|&(j, _)| !used[j]) {
                        rest.iter().for_each(|&(j, _)| used[j] = true);
                        chosen.push(i);
                    }
                }
                chosen.sort_unstable();
                let kept: Vec<usize> = list.iter().map(|&(i, _)| i).collect();
                assert_eq!(kept, chosen, "round {round} depth {d}");
                compared += 1;
            }
        }
        assert!(compared > 20_000 && frontiers >= 4, "{compared} depths, {frontiers} frontier packings");
    }
}
