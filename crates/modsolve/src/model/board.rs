//! Boards drawn as pictures: grids with holes (a mask) or any press shape (a [`Stencil`], one
//! per cell class for games like Merlin's Magic Square), hexagonal boards, and the cube.
//!
//! A [`Board`] is laid out on a picture of `rows × cols` places. Its cells are the places that
//! exist (not holes), numbered row by row through the picture, skipping holes: on a board
//! without holes cell `r·cols + c` is at row `r`, column `c`, as on a plain grid.
//!
//! - **Grid** boards press a stencil: the offsets, relative to the pressed cell, of the cells a
//!   press changes by the neighbour weight, and whether it changes the pressed cell itself (by
//!   the self weight). An offset that leaves the board (unless the board wraps) or lands on a
//!   hole is dropped; on a small torus offsets that reach the same cell count once, and one
//!   that reaches the pressed cell itself is dropped. With per-class stencils a cell's class
//!   is its place on the rectangle: a *corner* is in the first or last row and the first or
//!   last column, an *edge* is in exactly one of those, the *centre* is every other cell. The
//!   corner stencil is written as the top-left corner sees it and the edge stencil as the top
//!   edge sees it; the other corners and edges use it turned a quarter, half or three quarters
//!   clockwise (top-right, bottom-right, bottom-left corner; right, bottom, left edge).
//! - **Hex** boards are in "odd-r" offset layout: odd rows sit half a cell to the right. The six
//!   neighbours of `(r, c)` are `(r, c ± 1)` and, in the rows above and below, `(r ± 1, c − 1)`
//!   and `(r ± 1, c)` when `r` is even, `(r ± 1, c)` and `(r ± 1, c + 1)` when `r` is odd.
//! - **Cube** `n` is the six `n × n` faces of a cube, four neighbours for every cell (across
//!   the cube's edges too), drawn as the unfolded cross: the picture is `3n × 4n`, the top face
//!   `U` above the front `F`, the row left, front, right, back (`L F R B`) in the middle, the
//!   bottom `D` below the front; the other eight `n × n` blocks are holes. Folded, the faces
//!   that touch in the picture touch on the cube, and the back's right edge meets the left's
//!   left edge.

use super::MAX_CELLS;
use crate::error::InputError;

use super::Neighborhood;

/// The most rows or columns of a stencil picture.
pub const MAX_STENCIL_SIDE: usize = 101;

/// A press shape relative to the pressed cell.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Stencil {
    /// `(row, col)` offsets of the cells the press changes by the neighbour weight, sorted,
    /// distinct, never `(0, 0)`.
    offsets: Vec<(i32, i32)>,
    /// Whether the press changes the pressed cell itself (by the self weight).
    changes_itself: bool,
}

impl Stencil {
    /// A stencil from its offsets (sorted and deduplicated here; `(0, 0)` is dropped: the
    /// pressed cell is said by `changes_itself`).
    pub fn new(offsets: impl IntoIterator<Item = (i32, i32)>, changes_itself: bool) -> Stencil {
        let mut offsets: Vec<(i32, i32)> = offsets.into_iter().filter(|&o| o != (0, 0)).collect();
        offsets.sort_unstable();
        offsets.dedup();
        Stencil { offsets, changes_itself }
    }

    /// The stencil of a named neighbourhood, changing the pressed cell too.
    pub fn of(neighborhood: Neighborhood) -> Stencil {
        Stencil::new(neighborhood.steps().iter().map(|&(r, c)| (r as i32, c as i32)), true)
    }

    /// The offsets of the cells the press changes by the neighbour weight.
    pub fn offsets(&self) -> &[(i32, i32)] {
        &self.offsets
    }

    /// Whether the press changes the pressed cell itself.
    pub fn changes_itself(&self) -> bool {
        self.changes_itself
    }

    /// The named neighbourhood this stencil is, if any.
    pub fn name(&self) -> Option<Neighborhood> {
        [Neighborhood::Cross, Neighborhood::King, Neighborhood::Knight]
            .into_iter()
            .find(|&n| Stencil::of(n) == *self)
    }

    /// The stencil turned `quarters` quarter turns clockwise.
    pub fn turned(&self, quarters: u8) -> Stencil {
        let turn = |(r, c): (i32, i32)| match quarters % 4 {
            0 => (r, c),
            1 => (c, -r),
            2 => (-r, -c),
            _ => (-c, r),
        };
        Stencil::new(self.offsets.iter().map(|&o| turn(o)), self.changes_itself)
    }

    /// The largest reach of an offset, in rows and in columns.
    fn reach(&self) -> (usize, usize) {
        self.offsets.iter().fold((0, 0), |(a, b), &(r, c)| {
            (a.max(r.unsigned_abs() as usize), b.max(c.unsigned_abs() as usize))
        })
    }
}

/// How a grid board's cells press.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Press {
    /// Every cell presses the same stencil.
    Same(Stencil),
    /// The stencil depends on the cell's class (see the module doc); each is written as the
    /// top-left corner or the top edge sees it.
    Classes {
        /// Corner cells, as the top-left corner sees it.
        corner: Stencil,
        /// Edge cells, as the top edge sees it.
        edge: Stencil,
        /// Every other cell.
        center: Stencil,
    },
}

/// What kind of board a [`Board`] is.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum BoardKind {
    /// A rectangle of square cells pressing stencils; `wrap` makes it a torus.
    Grid {
        /// Whether the edges wrap around (a torus).
        wrap: bool,
        /// What a press changes.
        press: Press,
    },
    /// Hexagonal cells in odd-r layout, six neighbours.
    Hex,
    /// The six `n × n` faces of a cube, drawn as an unfolded cross.
    Cube(usize),
}

/// A board drawn as a picture (see the module doc).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    kind: BoardKind,
    rows: usize,
    cols: usize,
    /// For boards with holes (masks): picture place → cell (`u32::MAX` for a hole), and cell →
    /// picture place.
    mask: Option<Mask>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Mask {
    index: Vec<u32>,
    places: Vec<u32>,
}

const HOLE: u32 = u32::MAX;

/// `rows × cols` picture places, each a cell or not, checked against the size limit.
fn check_size(field: &str, rows: usize, cols: usize) -> Result<(), InputError> {
    if rows == 0 || cols == 0 {
        return Err(InputError::invalid(field, "is 0; a puzzle needs at least one cell"));
    }
    if rows.checked_mul(cols).is_none_or(|n| n > MAX_CELLS) {
        return Err(InputError::invalid(
            field,
            format!("{rows}×{cols} is more than the {MAX_CELLS} cells modsolve handles"),
        ));
    }
    Ok(())
}

impl Board {
    /// A grid board: `rows × cols`, pressing `press`, with holes where `mask` is `false` (row by
    /// row, `rows · cols` entries) when given.
    pub fn grid(
        rows: usize,
        cols: usize,
        wrap: bool,
        press: Press,
        mask: Option<Vec<bool>>,
    ) -> Result<Board, InputError> {
        check_size("graph", rows, cols)?;
        if wrap && matches!(press, Press::Classes { .. }) {
            return Err(InputError::invalid(
                "graph.neighborhood",
                "Classes(…) needs a board with corners and edges; it cannot be combined with `wrap: true`",
            ));
        }
        let stencils: Vec<&Stencil> = match &press {
            Press::Same(s) => vec![s],
            Press::Classes { corner, edge, center } => vec![corner, edge, center],
        };
        for s in stencils {
            let (r, c) = s.reach();
            if r >= MAX_STENCIL_SIDE || c >= MAX_STENCIL_SIDE {
                return Err(InputError::invalid(
                    "graph.neighborhood",
                    format!(
                        "a stencil reaches more than {} cells from the pressed cell",
                        MAX_STENCIL_SIDE - 1
                    ),
                ));
            }
        }
        let mask = mask.map(|m| Mask::new(rows, cols, &m)).transpose()?;
        Ok(Board { kind: BoardKind::Grid { wrap, press }, rows, cols, mask })
    }

    /// A hexagonal board of `rows × cols` cells in odd-r layout, with holes where `mask` is
    /// `false` when given.
    pub fn hex(rows: usize, cols: usize, mask: Option<Vec<bool>>) -> Result<Board, InputError> {
        check_size("graph", rows, cols)?;
        let mask = mask.map(|m| Mask::new(rows, cols, &m)).transpose()?;
        Ok(Board { kind: BoardKind::Hex, rows, cols, mask })
    }

    /// The cube with `n × n` faces.
    pub fn cube(n: usize) -> Result<Board, InputError> {
        if n == 0 {
            return Err(InputError::invalid("graph", "is 0; a puzzle needs at least one cell"));
        }
        if n.checked_mul(n).and_then(|s| s.checked_mul(12)).is_none_or(|s| s / 2 > MAX_CELLS) {
            return Err(InputError::invalid(
                "graph",
                format!("Cube({n}) has 6·{n}² cells, more than the {MAX_CELLS} modsolve handles"),
            ));
        }
        Ok(Board { kind: BoardKind::Cube(n), rows: 3 * n, cols: 4 * n, mask: None })
    }

    /// What kind of board this is.
    pub fn kind(&self) -> &BoardKind {
        &self.kind
    }

    /// The picture's size, `(rows, cols)`.
    pub fn picture_size(&self) -> (usize, usize) {
        (self.rows, self.cols)
    }

    /// Which picture places are cells (row by row), when the board has a mask.
    pub fn mask(&self) -> Option<Vec<bool>> {
        self.mask.as_ref().map(|m| m.index.iter().map(|&i| i != HOLE).collect())
    }

    /// The number of cells.
    pub fn cell_count(&self) -> usize {
        match (&self.kind, &self.mask) {
            (_, Some(mask)) => mask.places.len(),
            (BoardKind::Cube(n), None) => 6 * n * n,
            (_, None) => self.rows * self.cols,
        }
    }

    /// The cell at picture row `r`, column `c`; `None` for a hole or a place off the picture.
    pub fn cell_at(&self, r: usize, c: usize) -> Option<usize> {
        if r >= self.rows || c >= self.cols {
            return None;
        }
        match (&self.kind, &self.mask) {
            (_, Some(mask)) => Some(mask.index[r * self.cols + c]).filter(|&i| i != HOLE).map(|i| i as usize),
            (&BoardKind::Cube(n), None) => {
                let face_row = r / n;
                if face_row == 1 {
                    Some(n * n + (r - n) * 4 * n + c)
                } else if (n..2 * n).contains(&c) {
                    let base = if face_row == 0 { 0 } else { 5 * n * n };
                    Some(base + (r % n) * n + (c - n))
                } else {
                    None
                }
            }
            (_, None) => Some(r * self.cols + c),
        }
    }

    /// The picture place `(row, col)` of a cell.
    pub fn position(&self, cell: usize) -> (usize, usize) {
        match (&self.kind, &self.mask) {
            (_, Some(mask)) => {
                let p = mask.places[cell] as usize;
                (p / self.cols, p % self.cols)
            }
            (&BoardKind::Cube(n), None) => {
                let (top, middle) = (n * n, 5 * n * n);
                if cell < top {
                    (cell / n, n + cell % n)
                } else if cell < middle {
                    let k = cell - top;
                    (n + k / (4 * n), k % (4 * n))
                } else {
                    let k = cell - middle;
                    (2 * n + k / n, n + k % n)
                }
            }
            (_, None) => (cell / self.cols, cell % self.cols),
        }
    }

    /// Whether a press of `cell` changes the cell itself.
    pub fn changes_itself(&self, cell: usize) -> bool {
        match &self.kind {
            BoardKind::Grid { press: Press::Same(s), .. } => s.changes_itself(),
            BoardKind::Grid { press: Press::Classes { .. }, .. } => self.stencil_of(cell).changes_itself(),
            BoardKind::Hex | BoardKind::Cube(_) => true,
        }
    }

    /// The stencil a grid cell presses, turned for its corner or edge.
    fn stencil_of(&self, cell: usize) -> std::borrow::Cow<'_, Stencil> {
        use std::borrow::Cow;
        let BoardKind::Grid { press, .. } = &self.kind else { unreachable!("stencils are for grid boards") };
        match press {
            Press::Same(s) => Cow::Borrowed(s),
            Press::Classes { corner, edge, center } => {
                let (r, c) = self.position(cell);
                let (top, bottom, left, right) = (r == 0, r + 1 == self.rows, c == 0, c + 1 == self.cols);
                let border_row = top || bottom;
                let border_col = left || right;
                if border_row && border_col {
                    let quarters = match (top, left) {
                        (true, true) => 0,
                        (true, false) => 1,
                        (false, false) => 2,
                        (false, true) => 3,
                    };
                    Cow::Owned(corner.turned(quarters))
                } else if border_row || border_col {
                    let quarters = if top {
                        0
                    } else if right {
                        1
                    } else if bottom {
                        2
                    } else {
                        3
                    };
                    Cow::Owned(edge.turned(quarters))
                } else {
                    Cow::Borrowed(center)
                }
            }
        }
    }

    /// Calls `f` once for each cell a press of `cell` changes by the neighbour weight
    /// (distinct cells, never `cell` itself).
    pub fn for_each_neighbor(&self, cell: usize, mut f: impl FnMut(usize)) {
        let (r, c) = self.position(cell);
        let (r, c) = (r as i64, c as i64);
        let (rows, cols) = (self.rows as i64, self.cols as i64);
        match &self.kind {
            BoardKind::Grid { wrap, .. } => {
                let stencil = self.stencil_of(cell);
                let (reach_r, reach_c) = stencil.reach();
                // Offsets reach the same cell twice only around a torus smaller than the stencil.
                let may_repeat = *wrap && (2 * reach_r >= self.rows || 2 * reach_c >= self.cols);
                let mut seen = Vec::new();
                for &(dr, dc) in stencil.offsets() {
                    let (mut rr, mut cc) = (r + i64::from(dr), c + i64::from(dc));
                    if *wrap {
                        rr = rr.rem_euclid(rows);
                        cc = cc.rem_euclid(cols);
                    } else if rr < 0 || rr >= rows || cc < 0 || cc >= cols {
                        continue;
                    }
                    let Some(other) = self.cell_at(rr as usize, cc as usize) else { continue };
                    if other == cell {
                        continue;
                    }
                    if may_repeat {
                        seen.push(other);
                    } else {
                        f(other);
                    }
                }
                if may_repeat {
                    seen.sort_unstable();
                    seen.dedup();
                    seen.into_iter().for_each(f);
                }
            }
            BoardKind::Hex => {
                let shift = r & 1;
                let steps = [(0, -1), (0, 1), (-1, shift - 1), (-1, shift), (1, shift - 1), (1, shift)];
                for (dr, dc) in steps {
                    let (rr, cc) = (r + dr, c + dc);
                    if rr < 0 || rr >= rows || cc < 0 || cc >= cols {
                        continue;
                    }
                    if let Some(other) = self.cell_at(rr as usize, cc as usize) {
                        f(other);
                    }
                }
            }
            &BoardKind::Cube(n) => {
                let p = cube_point(n, r as usize, c as usize);
                let edge = n as i64 + 1;
                let normal: [i64; 3] = std::array::from_fn(|k| {
                    if p[k] == 0 {
                        -1
                    } else if p[k] == edge {
                        1
                    } else {
                        0
                    }
                });
                for axis in 0..3 {
                    if normal[axis] != 0 {
                        continue;
                    }
                    for step in [-1, 1] {
                        let mut q = p;
                        q[axis] += step;
                        if q[axis] == 0 || q[axis] == edge {
                            // Over the cube's edge: onto the face whose normal is this step.
                            for k in 0..3 {
                                q[k] -= normal[k];
                            }
                        }
                        let (rr, cc) = cube_place(n, q);
                        f(self.cell_at(rr, cc).expect("a cube point is on the net"));
                    }
                }
            }
        }
    }

    /// The most cells one press changes (the pressed cell included), from the shape alone.
    pub fn press_size(&self) -> usize {
        match &self.kind {
            BoardKind::Grid { press: Press::Same(s), .. } => s.offsets().len() + 1,
            BoardKind::Grid { press: Press::Classes { corner, edge, center }, .. } => {
                corner.offsets().len().max(edge.offsets().len()).max(center.offsets().len()) + 1
            }
            BoardKind::Hex => 7,
            BoardKind::Cube(_) => 5,
        }
    }
}

impl Mask {
    fn new(rows: usize, cols: usize, mask: &[bool]) -> Result<Mask, InputError> {
        if mask.len() != rows * cols {
            return Err(InputError::invalid(
                "graph.mask",
                format!("has {} places but the board has {rows}×{cols}", mask.len()),
            ));
        }
        let mut index = Vec::with_capacity(mask.len());
        let mut places = Vec::new();
        for (p, &present) in mask.iter().enumerate() {
            if present {
                index.push(places.len() as u32);
                places.push(p as u32);
            } else {
                index.push(HOLE);
            }
        }
        if places.is_empty() {
            return Err(InputError::invalid("graph.mask", "has no cells (#); a puzzle needs at least one"));
        }
        Ok(Mask { index, places })
    }
}

/// The lattice point of the cube cell at net place `(r, c)`: coordinates in `0..=n+1`, exactly
/// one of them `0` or `n+1` (the face), the others in `1..=n`. `x` points right, `y` up, `z`
/// out of the front face.
fn cube_point(n: usize, r: usize, c: usize) -> [i64; 3] {
    let (face_row, face_col) = (r / n, c / n);
    let (i, j) = ((r % n) as i64, (c % n) as i64);
    let n = n as i64;
    match (face_row, face_col) {
        (0, _) => [1 + j, n + 1, 1 + i], // U
        (2, _) => [1 + j, 0, n - i],     // D
        (_, 0) => [0, n - i, 1 + j],     // L
        (_, 1) => [1 + j, n - i, n + 1], // F
        (_, 2) => [n + 1, n - i, n - j], // R
        _ => [n - j, n - i, 0],          // B
    }
}

/// The net place of a cube lattice point (the inverse of [`cube_point`]).
fn cube_place(n: usize, p: [i64; 3]) -> (usize, usize) {
    let m = n as i64;
    let [x, y, z] = p;
    let (face_row, face_col, i, j) = if y == m + 1 {
        (0, 1, z - 1, x - 1)
    } else if y == 0 {
        (2, 1, m - z, x - 1)
    } else if x == 0 {
        (1, 0, m - y, z - 1)
    } else if z == m + 1 {
        (1, 1, m - y, x - 1)
    } else if x == m + 1 {
        (1, 2, m - y, m - z)
    } else {
        (1, 3, m - y, m - x)
    };
    (face_row * n + i as usize, face_col * n + j as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn neighbors(board: &Board, cell: usize) -> Vec<usize> {
        let mut v = Vec::new();
        board.for_each_neighbor(cell, |i| v.push(i));
        v.sort();
        v
    }

    #[test]
    fn cube_cells_have_four_neighbours_each_way() {
        for n in 1..=4 {
            let cube = Board::cube(n).unwrap();
            assert_eq!(cube.cell_count(), 6 * n * n);
            for cell in 0..cube.cell_count() {
                let (r, c) = cube.position(cell);
                assert_eq!(cube.cell_at(r, c), Some(cell));
                assert_eq!(cube_place(n, cube_point(n, r, c)), (r, c));
                let around = neighbors(&cube, cell);
                assert_eq!(around.len(), 4, "n {n} cell {cell}: {around:?}");
                for other in around {
                    assert!(neighbors(&cube, other).contains(&cell), "n {n}: {cell} and {other}");
                }
            }
        }
    }

    #[test]
    fn hex_and_masked_grids() {
        let hex = Board::hex(3, 3, None).unwrap();
        assert_eq!(neighbors(&hex, 4), vec![1, 2, 3, 5, 7, 8]);
        assert_eq!(neighbors(&hex, 0), vec![1, 3]);
        let holes = Board::grid(
            2,
            3,
            false,
            Press::Same(Stencil::of(Neighborhood::Cross)),
            Some(vec![true, false, true, true, true, true]),
        )
        .unwrap();
        assert_eq!(holes.cell_count(), 5);
        assert_eq!(holes.position(1), (0, 2));
        assert_eq!(neighbors(&holes, 0), vec![2]);
        assert_eq!(neighbors(&holes, 3), vec![2, 4]);
    }

    #[test]
    fn classes_turn_for_each_corner_and_edge() {
        let merlin = Board::grid(
            3,
            3,
            false,
            Press::Classes {
                corner: Stencil::new([(0, 1), (1, 0), (1, 1)], true),
                edge: Stencil::new([(0, -1), (0, 1)], true),
                center: Stencil::of(Neighborhood::Cross),
            },
            None,
        )
        .unwrap();
        assert_eq!(neighbors(&merlin, 2), vec![1, 4, 5]);
        assert_eq!(neighbors(&merlin, 6), vec![3, 4, 7]);
        assert_eq!(neighbors(&merlin, 8), vec![4, 5, 7]);
        assert_eq!(neighbors(&merlin, 3), vec![0, 6]);
        assert_eq!(neighbors(&merlin, 5), vec![2, 8]);
        assert_eq!(neighbors(&merlin, 7), vec![6, 8]);
        assert_eq!(neighbors(&merlin, 4), vec![1, 3, 5, 7]);
    }
}
