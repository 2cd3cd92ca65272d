//! The validated puzzle: cells with their moduli, buttons with their effects, start and target
//! states, and simulation.
//!
//! Invariants (established by [`PuzzleBuilder::build`], the one way to make a puzzle, which
//! [`crate::format`] uses too; relied on everywhere else): there is at least one cell; every
//! modulus is at least 2; `start` and `target` have one value per cell, each below its cell's
//! modulus; every button effect names an existing cell; neighbours are distinct cells other
//! than the cell itself; staged phases add up to the buttons.

#[doc(hidden)]
pub mod board;
pub(crate) mod builder;
mod symmetry;

use num_bigint::BigUint;
use num_traits::ToPrimitive;

pub use board::{Board, BoardKind, Press, Stencil};
pub use builder::PuzzleBuilder;
pub(crate) use builder::check_moduli;
#[doc(hidden)]
pub use symmetry::{canonical, symmetries};

use crate::algebra::arith::{add_mod, mul_mod, reduce_signed};
use crate::error::InputError;
#[doc(inline)]
pub use crate::values::CellValues;

/// The most cells a puzzle may have: 2^28, a 16,384 × 16,384 board (big Lights Out boards are
/// solved a bit per cell; the memory estimates refuse the work other puzzles of that size need).
pub const MAX_CELLS: usize = 1 << 28;

/// The most cells of an `Edges` graph (2^25): each has a neighbour list.
pub const MAX_EDGES_CELLS: usize = 1 << 25;

/// Which neighbours a grid cell has.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Deserialize, serde::Serialize)]
#[non_exhaustive]
pub enum Neighborhood {
    /// Up, down, left, right.
    #[default]
    Cross,
    /// The eight surrounding cells.
    King,
    /// The eight cells a chess knight's move away (two steps one way, one step across).
    Knight,
}

impl Neighborhood {
    /// The `(row, col)` steps to the neighbours.
    pub fn steps(self) -> &'static [(isize, isize)] {
        const CROSS: [(isize, isize); 4] = [(-1, 0), (0, -1), (0, 1), (1, 0)];
        const KING: [(isize, isize); 8] =
            [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)];
        const KNIGHT: [(isize, isize); 8] =
            [(-2, -1), (-2, 1), (-1, -2), (-1, 2), (1, -2), (1, 2), (2, -1), (2, 1)];
        match self {
            Neighborhood::Cross => &CROSS,
            Neighborhood::King => &KING,
            Neighborhood::Knight => &KNIGHT,
        }
    }
}

/// How the cells are connected; buttons of graph puzzles are the cells themselves.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Topology {
    /// `n` unconnected cells.
    Cells(usize),
    /// `n` cells in a row.
    Path(usize),
    /// `n` cells in a ring.
    Cycle(usize),
    /// A rectangle, numbered row-major; `wrap` makes it a torus.
    Grid {
        /// The number of rows.
        rows: usize,
        /// The number of columns.
        cols: usize,
        /// Whether the edges wrap around (a torus).
        wrap: bool,
        /// Which cells are neighbours.
        neighborhood: Neighborhood,
    },
    /// Any undirected graph, as sorted adjacency lists.
    Edges {
        /// The neighbours of each cell, sorted, without the cell itself.
        adjacency: Vec<Vec<usize>>,
    },
    /// A board drawn as a picture: a grid with holes or press stencils, a hex board, the cube
    /// (see [`board`]).
    Board(Board),
}

impl Topology {
    /// The number of cells.
    pub fn cell_count(&self) -> usize {
        match self {
            Topology::Cells(n) | Topology::Path(n) | Topology::Cycle(n) => *n,
            Topology::Grid { rows, cols, .. } => rows * cols,
            Topology::Edges { adjacency } => adjacency.len(),
            Topology::Board(board) => board.cell_count(),
        }
    }

    /// `(rows, cols)` when the cells form a plain grid (`Grid`: every place a cell, cell
    /// `r·cols + c` at row `r`, column `c`). Boards are drawn through [`Topology::picture_size`].
    pub fn grid_shape(&self) -> Option<(usize, usize)> {
        match self {
            Topology::Grid { rows, cols, .. } => Some((*rows, *cols)),
            _ => None,
        }
    }

    /// `(rows, cols)` of the picture, for everything drawn as one: grids and boards.
    pub fn picture_size(&self) -> Option<(usize, usize)> {
        match self {
            Topology::Grid { rows, cols, .. } => Some((*rows, *cols)),
            Topology::Board(board) => Some(board.picture_size()),
            _ => None,
        }
    }

    /// The cell at picture row `r`, column `c`: `None` for a hole, a place off the picture, or
    /// a topology without a picture.
    pub fn cell_at(&self, r: usize, c: usize) -> Option<usize> {
        match self {
            Topology::Grid { rows, cols, .. } => (r < *rows && c < *cols).then_some(r * cols + c),
            Topology::Board(board) => board.cell_at(r, c),
            _ => None,
        }
    }

    /// The picture place `(row, col)` of a cell, for topologies with a picture.
    pub fn position(&self, cell: usize) -> Option<(usize, usize)> {
        match self {
            Topology::Grid { cols, .. } => Some((cell / cols, cell % cols)),
            Topology::Board(board) => Some(board.position(cell)),
            _ => None,
        }
    }

    /// Whether the picture is of hexagonal cells (odd rows drawn half a cell to the right).
    pub fn is_hex(&self) -> bool {
        matches!(self, Topology::Board(b) if *b.kind() == BoardKind::Hex)
    }

    /// Whether a press of `cell`'s button changes the cell itself (by the self weight): always,
    /// except for stencils whose pressed cell is `o`.
    pub fn changes_itself(&self, cell: usize) -> bool {
        match self {
            Topology::Board(board) => board.changes_itself(cell),
            _ => true,
        }
    }

    /// Calls `f` once for each neighbour of `cell` (distinct cells, never `cell` itself).
    pub fn for_each_neighbor(&self, cell: usize, mut f: impl FnMut(usize)) {
        match self {
            Topology::Cells(_) => {}
            Topology::Path(n) => {
                if cell > 0 {
                    f(cell - 1);
                }
                if cell + 1 < *n {
                    f(cell + 1);
                }
            }
            Topology::Cycle(n) => {
                let n = *n;
                let (prev, next) = ((cell + n - 1) % n, (cell + 1) % n);
                if prev != cell {
                    f(prev);
                }
                if next != cell && next != prev {
                    f(next);
                }
            }
            Topology::Grid { rows, cols, wrap, neighborhood } => {
                let (rows, cols) = (*rows as isize, *cols as isize);
                let (r, c) = ((cell as isize) / cols, (cell as isize) % cols);
                let steps = neighborhood.steps();
                // On small tori two steps can reach the same cell: report it once.
                let mut seen = [usize::MAX; 8];
                let mut found = 0;
                for &(dr, dc) in steps {
                    let (mut rr, mut cc) = (r + dr, c + dc);
                    if *wrap {
                        rr = rr.rem_euclid(rows);
                        cc = cc.rem_euclid(cols);
                    } else if rr < 0 || rr >= rows || cc < 0 || cc >= cols {
                        continue;
                    }
                    let other = (rr * cols + cc) as usize;
                    if other != cell && !seen[..found].contains(&other) {
                        seen[found] = other;
                        found += 1;
                        f(other);
                    }
                }
            }
            Topology::Edges { adjacency } => adjacency[cell].iter().copied().for_each(f),
            Topology::Board(board) => board.for_each_neighbor(cell, f),
        }
    }
}

/// What pressing each button does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Buttons {
    /// One button per cell: it adds `self_weight` to its cell and `neighbor_weight` to each
    /// neighbour. The weights are 128-bit so that staged phases of 64-bit weights sum exactly.
    Graph {
        /// What a press adds to its own cell.
        self_weight: i128,
        /// What a press adds to each neighbour.
        neighbor_weight: i128,
    },
    /// Listed buttons, each a list of `(cell, amount)`; a cell listed twice gets both amounts.
    Explicit(Vec<Vec<(usize, i64)>>),
}

/// Staged presses: a press applies its phases in order and the game checks for a win after
/// each. The puzzle's [`Buttons`] are the phases summed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Phases {
    /// For graph puzzles: `(self, neighbors)` weights of each phase, the same for every button.
    Graph(Vec<(i64, i64)>),
    /// For explicit buttons: per button, per phase, `(cell, amount)` pairs.
    Explicit(Vec<Vec<Vec<(usize, i64)>>>),
}

/// A validated puzzle. See the module doc for its invariants, which [`PuzzleBuilder::build`]
/// establishes: the fields are read through accessors, so no code outside the crate can break
/// them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// The puzzle's name, if it has one.
    pub(crate) name: Option<String>,
    /// How the cells are connected.
    pub(crate) topology: Topology,
    /// What each cell counts modulo (at least 2).
    pub(crate) moduli: CellValues,
    /// What each button adds.
    pub(crate) buttons: Buttons,
    /// The state to solve, one value per cell below its modulus.
    pub(crate) start: CellValues,
    /// The state to reach.
    pub(crate) target: CellValues,
    /// The most times each button may be pressed (a one-shot switch has 1), when limited.
    pub(crate) max_presses: Option<Vec<u64>>,
    /// The designer's intended plan, one press count per button, when given.
    pub(crate) intended: Option<Vec<u64>>,
    /// Staged presses, when the game checks for a win between the phases of a press.
    pub(crate) phases: Option<Phases>,
    /// Names for the cells (and the buttons of graph puzzles), one per cell, all different.
    pub(crate) labels: Option<Vec<String>>,
    /// Names for the buttons, one per button, all different.
    pub(crate) button_labels: Option<Vec<String>>,
    /// Whether players see the par only once the level is won (`hide_par: true`).
    pub(crate) hide_par: bool,
    /// The cell each explicit button is drawn on (`button_at:`), when given.
    pub(crate) button_at: Option<Vec<usize>>,
    /// Where the designer placed each cell in the picture, when given (`layout:`).
    pub(crate) layout: Option<Positions>,
}

/// A drawing position per cell: the centre `[x, y]` of each, in cell widths (`y` down). Every
/// coordinate is finite and within [`Positions::LIMIT`] of 0 ([`PuzzleBuilder::build`] checks).
/// Only pictures use them; two puzzles are equal when their positions are bit for bit.
#[derive(Clone, Debug)]
pub struct Positions(pub(crate) Vec<[f64; 2]>);

impl Positions {
    /// The largest coordinate allowed, either sign.
    pub const LIMIT: f64 = 1e6;

    /// The centre of every cell.
    pub fn points(&self) -> &[[f64; 2]] {
        &self.0
    }
}

impl PartialEq for Positions {
    fn eq(&self, other: &Self) -> bool {
        self.0.len() == other.0.len()
            && self
                .0
                .iter()
                .zip(&other.0)
                .all(|(a, b)| a[0].to_bits() == b[0].to_bits() && a[1].to_bits() == b[1].to_bits())
    }
}

impl Eq for Positions {}

impl Puzzle {
    /// The puzzle's name, if it has one.
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// How the cells are connected.
    pub fn topology(&self) -> &Topology {
        &self.topology
    }

    /// What each cell counts modulo (at least 2).
    pub fn moduli(&self) -> &CellValues {
        &self.moduli
    }

    /// What each button adds.
    pub fn buttons(&self) -> &Buttons {
        &self.buttons
    }

    /// The state to solve, one value per cell below its modulus.
    pub fn start(&self) -> &CellValues {
        &self.start
    }

    /// The state to reach.
    pub fn target(&self) -> &CellValues {
        &self.target
    }

    /// The most times each button may be pressed (a one-shot switch has 1), when limited.
    pub fn max_presses(&self) -> Option<&[u64]> {
        self.max_presses.as_deref()
    }

    /// The designer's intended plan, one press count per button, when given.
    pub fn intended(&self) -> Option<&[u64]> {
        self.intended.as_deref()
    }

    /// Staged presses, when the game checks for a win between the phases of a press.
    pub fn phases(&self) -> Option<&Phases> {
        self.phases.as_ref()
    }

    /// Names for the cells (and the buttons of graph puzzles without `button_labels`): one per
    /// cell, all different.
    pub fn labels(&self) -> Option<&[String]> {
        self.labels.as_deref()
    }

    /// Names for the buttons (`button_labels:`): one per button, all different.
    pub fn button_labels(&self) -> Option<&[String]> {
        self.button_labels.as_deref()
    }

    /// Whether players see the par only once the level is won (`hide_par: true`).
    pub fn hide_par(&self) -> bool {
        self.hide_par
    }

    /// The cell button `j` is drawn on and belongs to, if any: a graph puzzle's buttons are its
    /// cells; explicit buttons are at the cells `button_at:` gives, else, as many as the cells,
    /// at their own (listed in cell order, as Merlin's nine squares).
    pub fn button_cell(&self, j: usize) -> Option<usize> {
        if let Some(at) = &self.button_at {
            return at.get(j).copied();
        }
        let on_cells = self.buttons_are_cells() || self.button_count() == self.cell_count();
        (on_cells && j < self.button_count()).then_some(j)
    }

    /// The button on each cell (`None` for a cell without one), when every button is on a cell.
    pub fn cell_buttons(&self) -> Option<Vec<Option<usize>>> {
        let mut out = vec![None; self.cell_count()];
        for j in 0..self.button_count() {
            *out.get_mut(self.button_cell(j)?)? = Some(j);
        }
        Some(out)
    }

    /// The designer's drawing position of every cell (`layout:`), when given.
    pub fn layout(&self) -> Option<&Positions> {
        self.layout.as_ref()
    }

    /// The same puzzle with these drawing positions (`None`: none), validated as the builder does.
    pub fn with_layout(&self, layout: Option<Vec<[f64; 2]>>) -> Result<Puzzle, InputError> {
        let layout = layout.map(|points| builder::check_layout(points, self.cell_count())).transpose()?;
        Ok(Puzzle { layout, ..self.clone() })
    }
}

impl Puzzle {
    /// The number of cells.
    pub fn cell_count(&self) -> usize {
        self.moduli.len()
    }

    /// The number of buttons.
    pub fn button_count(&self) -> usize {
        match &self.buttons {
            Buttons::Graph { .. } => self.cell_count(),
            Buttons::Explicit(list) => list.len(),
        }
    }

    /// Calls `f(cell, amount)` for each cell that button `j` changes, with the amount reduced
    /// modulo the cell's modulus and nonzero. A cell may be reported more than once for explicit
    /// buttons that list it twice; use [`Puzzle::effects`] for merged effects.
    pub fn for_each_effect(&self, j: usize, mut f: impl FnMut(usize, u64)) {
        let mut emit = |cell: usize, raw: i128| {
            let a = reduce_signed(raw, self.moduli[cell]);
            if a != 0 {
                f(cell, a);
            }
        };
        match &self.buttons {
            Buttons::Graph { self_weight, neighbor_weight } => {
                if self.topology.changes_itself(j) {
                    emit(j, *self_weight);
                }
                self.topology.for_each_neighbor(j, |i| emit(i, *neighbor_weight));
            }
            Buttons::Explicit(list) => {
                for &(cell, amount) in &list[j] {
                    emit(cell, amount.into());
                }
            }
        }
    }

    /// The effect of button `j` as `(cell, amount)` pairs, sorted by cell, merged, nonzero.
    pub fn effects(&self, j: usize) -> Vec<(usize, u64)> {
        let mut out: Vec<(usize, u64)> = Vec::with_capacity(match &self.buttons {
            Buttons::Explicit(list) => list[j].len(),
            Buttons::Graph { .. } => 9,
        });
        self.for_each_effect(j, |cell, a| out.push((cell, a)));
        if out.is_sorted_by(|a, b| a.0 < b.0) {
            // Written in order without repeats (nonzero already): nothing to merge.
            return out;
        }
        out.sort_unstable_by_key(|&(cell, _)| cell);
        let mut merged: Vec<(usize, u64)> = Vec::with_capacity(out.len());
        for (cell, a) in out {
            match merged.last_mut() {
                Some((c, total)) if *c == cell => *total = add_mod(*total, a, self.moduli[cell]),
                _ => merged.push((cell, a)),
            }
        }
        merged.retain(|&(_, a)| a != 0);
        merged
    }

    /// The state after pressing button `j` `presses[j]` times, from `state`.
    pub fn apply(&self, state: &[u64], presses: &[BigUint]) -> Vec<u64> {
        self.apply_to(state.to_vec(), presses)
    }

    /// [`Puzzle::apply`] one entry at a time in big integers: what the word-sized sums of
    /// [`Puzzle::apply_to`] are tested against.
    #[cfg(test)]
    fn apply_slowly(&self, state: &[u64], presses: &[BigUint]) -> Vec<u64> {
        let mut out: Vec<BigUint> = state.iter().map(|&v| BigUint::from(v)).collect();
        for (j, x) in presses.iter().enumerate() {
            self.for_each_effect(j, |cell, a| out[cell] = (&out[cell] + x * a) % self.moduli[cell]);
        }
        out.iter().map(|v| v.to_u64().expect("reduced")).collect()
    }

    /// [`Puzzle::apply`] on a state the caller gives up.
    fn apply_to(&self, mut out: Vec<u64>, presses: &[BigUint]) -> Vec<u64> {
        // Few cells, moduli up to 2^32 and word-sized press counts: each cell's sum of
        // `amount · presses` is kept whole in a `u128` and reduced once, instead of a division
        // per entry. Each product is below 2^96, so fewer than 2^31 of them cannot overflow.
        let entries = match &self.buttons {
            Buttons::Graph { .. } => 9 * self.cell_count(),
            Buttons::Explicit(list) => list.iter().map(Vec::len).sum(),
        };
        if out.len() <= 1 << 16
            && entries < 1 << 31
            && self.moduli.iter().all(|&m| m <= 1 << 32)
            && let Some(small) = presses.iter().map(BigUint::to_u64).collect::<Option<Vec<u64>>>()
        {
            let mut sums = vec![0u128; out.len()];
            for (j, &x) in small.iter().enumerate() {
                if x != 0 {
                    self.for_each_effect(j, |cell, a| sums[cell] += a as u128 * x as u128);
                }
            }
            for (cell, (sum, x)) in sums.into_iter().zip(out.iter_mut()).enumerate() {
                let m = self.moduli[cell];
                *x = add_mod(*x, (sum % m as u128) as u64, m);
            }
            return out;
        }
        for (j, x) in presses.iter().enumerate() {
            // A press count that fits a word is reduced by word divisions.
            let small = x.to_u64();
            if small == Some(0) {
                continue;
            }
            self.for_each_effect(j, |cell, a| {
                let m = self.moduli[cell];
                let times = match small {
                    Some(x) => x % m,
                    None => (x % m).to_u64().expect("reduced below a u64 modulus"),
                };
                out[cell] = add_mod(out[cell], mul_mod(a, times, m), m);
            });
        }
        out
    }

    /// The number of phases of button `j` (1 without staged presses).
    pub fn phase_count(&self, j: usize) -> usize {
        match &self.phases {
            None => 1,
            Some(Phases::Graph(list)) => list.len(),
            Some(Phases::Explicit(buttons)) => buttons[j].len(),
        }
    }

    /// What phase `k` of button `j` adds, `(cell, amount)` reduced, merged, nonzero. Without
    /// staged presses phase 0 is the whole press.
    pub fn phase_effects(&self, j: usize, k: usize) -> Vec<(usize, u64)> {
        let mut raw: Vec<(usize, i64)> = Vec::new();
        match &self.phases {
            None => return self.effects(j),
            Some(Phases::Graph(list)) => {
                let (own, around) = list[k];
                if self.topology.changes_itself(j) {
                    raw.push((j, own));
                }
                self.topology.for_each_neighbor(j, |i| raw.push((i, around)));
            }
            Some(Phases::Explicit(buttons)) => raw.extend_from_slice(&buttons[j][k]),
        }
        let mut out: Vec<(usize, u64)> = Vec::new();
        for (cell, amount) in raw {
            let m = self.moduli[cell];
            let a = reduce_signed(amount, m);
            match out.iter_mut().find(|(c, _)| *c == cell) {
                Some((_, total)) => *total = add_mod(*total, a, m),
                None => out.push((cell, a)),
            }
        }
        out.retain(|&(_, a)| a != 0);
        out.sort_unstable();
        out
    }

    /// Plays a plan phase by phase: every full press in button order, then, when `cut` is
    /// `(j, k)`, one more press of `j` stopped after its first `k` phases. Returns whether the
    /// state equals the target at the end.
    pub fn plays_to_target(&self, presses: &[BigUint], cut: Option<(usize, usize)>) -> bool {
        let mut state = self.start.to_vec();
        let mut add = |effects: &[(usize, u64)], times: &BigUint| {
            for &(i, a) in effects {
                let m = self.moduli[i];
                let t = (times % m).to_u64().expect("reduced below a u64 modulus");
                state[i] = add_mod(state[i], mul_mod(a, t, m), m);
            }
        };
        for (j, x) in presses.iter().enumerate() {
            let full = match cut {
                Some((c, _)) if c == j => {
                    if x == &BigUint::from(0u32) {
                        return false;
                    }
                    x - 1u32
                }
                _ => x.clone(),
            };
            add(&self.effects(j), &full);
        }
        if let Some((j, k)) = cut {
            for phase in 0..k {
                add(&self.phase_effects(j, phase), &BigUint::from(1u32));
            }
        }
        state == self.target
    }

    /// Whether pressing `presses` from the start reaches the target.
    pub fn solves(&self, presses: &[BigUint]) -> bool {
        presses.len() == self.button_count() && self.apply_to(self.start.to_vec(), presses) == self.target
    }

    /// The name of cell `i` for output: its label when the cells have labels, else its number.
    pub fn cell_name(&self, i: usize) -> String {
        match &self.labels {
            Some(labels) => labels[i].clone(),
            None => i.to_string(),
        }
    }

    /// The name of button `j` for output: its label (`button_labels`), else the cell's name for
    /// graph puzzles, else its number.
    pub fn button_name(&self, j: usize) -> String {
        match (&self.button_labels, &self.buttons) {
            (Some(labels), _) => labels[j].clone(),
            (None, Buttons::Graph { .. }) => self.cell_name(j),
            (None, Buttons::Explicit(_)) => j.to_string(),
        }
    }

    /// The period `L_j` of every button: the smallest `L > 0` with `L·a_ij ≡ 0 (mod m_i)` for all
    /// cells, i.e. the lcm of `m_i / gcd(a_ij, m_i)`. Computed directly, independent of the algebra.
    pub fn periods(&self) -> Vec<BigUint> {
        (0..self.button_count())
            .map(|j| {
                self.effects(j).iter().fold(BigUint::from(1u32), |l, &(i, a)| {
                    let m = self.moduli[i];
                    num_integer::Integer::lcm(&l, &BigUint::from(m / num_integer::gcd(a, m)))
                })
            })
            .collect()
    }

    /// Whether buttons correspond to cells one to one (so a grid picture of presses makes sense).
    pub fn buttons_are_cells(&self) -> bool {
        matches!(self.buttons, Buttons::Graph { .. })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn neighbors(t: &Topology, cell: usize) -> Vec<usize> {
        let mut v = Vec::new();
        t.for_each_neighbor(cell, |i| v.push(i));
        v.sort();
        v
    }

    #[test]
    fn grid_neighbours() {
        let cross = Topology::Grid { rows: 3, cols: 3, wrap: false, neighborhood: Neighborhood::Cross };
        assert_eq!(neighbors(&cross, 0), vec![1, 3]);
        assert_eq!(neighbors(&cross, 4), vec![1, 3, 5, 7]);
        let king = Topology::Grid { rows: 3, cols: 3, wrap: false, neighborhood: Neighborhood::King };
        assert_eq!(neighbors(&king, 0), vec![1, 3, 4]);
        assert_eq!(neighbors(&king, 4), vec![0, 1, 2, 3, 5, 6, 7, 8]);
        let torus = Topology::Grid { rows: 3, cols: 4, wrap: true, neighborhood: Neighborhood::Cross };
        assert_eq!(neighbors(&torus, 0), vec![1, 3, 4, 8]);
        // A 2-wide torus reaches the same cell left and right: once only.
        let thin = Topology::Grid { rows: 1, cols: 2, wrap: true, neighborhood: Neighborhood::Cross };
        assert_eq!(neighbors(&thin, 0), vec![1]);
        assert_eq!(neighbors(&Topology::Cycle(2), 0), vec![1]);
        assert_eq!(neighbors(&Topology::Cycle(1), 0), Vec::<usize>::new());
        assert_eq!(neighbors(&Topology::Cycle(5), 0), vec![1, 4]);
        assert_eq!(neighbors(&Topology::Path(5), 4), vec![3]);
    }

    /// The state after presses is the same computed with word-sized sums (moduli up to 2^32,
    /// press counts in a word) as entry by entry in big integers, on either side of both edges.
    #[test]
    fn presses_apply_alike_in_words_and_big_integers() {
        use rand::{RngExt, SeedableRng, rngs::StdRng};
        let mut rng = StdRng::seed_from_u64(5);
        for round in 0..200 {
            let cells = rng.random_range(1..12);
            let top = match round % 4 {
                0 => 13,
                1 => (1 << 32) + 1,
                2 => 1 << 32,
                _ => u64::MAX,
            };
            let moduli: Vec<u64> = (0..cells).map(|_| rng.random_range(2..=top)).collect();
            let buttons: Vec<Vec<(usize, i64)>> = (0..rng.random_range(1..8))
                .map(|_| {
                    (0..rng.random_range(0..20)).map(|_| (rng.random_range(0..cells), rng.random())).collect()
                })
                .collect();
            let puzzle = Puzzle::builder(Topology::Cells(cells))
                .moduli(moduli.clone())
                .buttons(buttons.clone())
                .build()
                .expect("valid");
            let presses: Vec<BigUint> = buttons
                .iter()
                .map(|_| match rng.random_range(0..4) {
                    0 => BigUint::from(0u32),
                    1 => BigUint::from(u64::MAX),
                    2 => BigUint::from(u64::MAX) + rng.random::<u64>(),
                    _ => BigUint::from(rng.random::<u64>()),
                })
                .collect();
            let state: Vec<u64> = moduli.iter().map(|&m| rng.random_range(0..m)).collect();
            assert_eq!(
                puzzle.apply(&state, &presses),
                puzzle.apply_slowly(&state, &presses),
                "round {round}"
            );
            let words: Vec<BigUint> = presses.iter().map(|x| x % (1u128 << 64)).collect();
            assert_eq!(puzzle.apply(&state, &words), puzzle.apply_slowly(&state, &words), "round {round}");
        }
    }

    #[test]
    fn effects_are_reduced_and_merged() {
        let p = Puzzle::builder(Topology::Cells(2))
            .moduli(vec![5, 3])
            .buttons(vec![vec![(0, 2), (0, 3), (1, -1)], vec![(1, 3)]])
            .build()
            .expect("valid");
        assert_eq!(p.periods(), vec![BigUint::from(3u32), BigUint::from(1u32)]);
        assert_eq!(p.effects(0), vec![(1, 2)]);
        assert_eq!(p.effects(1), vec![]);
        let after = p.apply(&[1, 1], &[BigUint::from(4u32), BigUint::from(1u32)]);
        assert_eq!(after, vec![(1 + 4 * 5) % 5, (1 + 4 * 2) % 3]);
    }
}
