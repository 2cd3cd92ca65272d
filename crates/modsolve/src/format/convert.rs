//! From the file as written to a [`Puzzle`]: the shapes are read once the graph is known and
//! the values handed to the builder, which checks every invariant of the model.

use crate::error::InputError;
use crate::model::builder::plural;
use crate::model::{Board, CellValues, Neighborhood, Phases, Press, Puzzle, Stencil, Topology};

use super::*;

impl PuzzleFile<'_> {
    /// Validates the file and builds the puzzle; `file` is the text the file was read from
    /// (its fields of several shapes are read now, and their errors placed in it).
    pub(crate) fn into_puzzle(self, file: &Cut<'_>, mut lists: FastLists) -> Result<Puzzle, InputError> {
        let topology = self.graph.into_topology()?;
        let cells = topology.cell_count();
        // The shapes (one number or a list, pictures) are read here, or taken from the lists the
        // fast reader read; what the values must be is the builder's to check.
        let mut shape = |key: &str, field: RawField<'_>, kind: ShapeKind, keep: usize| match lists.take(key) {
            Some(mut values) => {
                let len = values.len();
                values.truncate(keep);
                Ok(Shape::List { values, len })
            }
            None => read_shape(file, key, field, kind, keep),
        };
        let moduli = match shape("modulus", self.modulus, ShapeKind::Modulus, cells)? {
            Shape::One(m) => CellValues::same(m, cells),
            Shape::List { values, len } => {
                if len != cells {
                    return Err(InputError::invalid(
                        "modulus",
                        format!(
                            "has {} but the graph has {cells} cells (give one number for all cells, or one per cell)",
                            plural(len, "value")
                        ),
                    ));
                }
                CellValues::from(values)
            }
            // Only numbers and lists are read for a modulus.
            Shape::All(_) | Shape::Rows(_) => unreachable_shape("modulus")?,
        };
        crate::model::check_moduli(&moduli, cells)?;
        let phases = match (self.phases, self.button_phases) {
            (Some(_), Some(_)) => {
                return Err(InputError::invalid("phases", "give `phases` or `button_phases`, not both"));
            }
            (Some(list), None) => {
                Some(Phases::Graph(list.iter().map(|p| (p.self_weight, p.neighbors)).collect()))
            }
            (None, Some(list)) => Some(Phases::Explicit(list)),
            (None, None) => None,
        };
        let button_count = match (&self.buttons, &phases) {
            (Some(list), _) => list.len(),
            (None, Some(Phases::Explicit(list))) => list.len(),
            (None, _) => cells,
        };
        let mut read_state = |key: &str, field: Option<RawField<'_>>| {
            field.map(|f| shape(key, f, ShapeKind::State, cells)).transpose()
        };
        // Each state checked right after it is read: a bad `start` is reported before `target`
        // is read.
        let start = resolve_state("start", read_state("start", self.start)?, &topology, &moduli)?;
        let target = resolve_state("target", read_state("target", self.target)?, &topology, &moduli)?;
        let limits =
            self.max_presses.map(|f| shape("max_presses", f, ShapeKind::Limits, button_count)).transpose()?;
        let max_presses = match limits {
            None => None,
            Some(Shape::All(k)) => Some(vec![k; button_count]),
            Some(Shape::List { values, .. }) => Some(values),
            Some(Shape::One(_) | Shape::Rows(_)) => unreachable_shape("max_presses")?,
        };
        let mut builder = Puzzle::builder(topology).moduli(moduli).start(start).target(target);
        if let Some(name) = self.name {
            builder = builder.name(name);
        }
        if let Some(press) = self.press {
            builder = builder.press(press.self_weight, press.neighbors);
        }
        if let Some(buttons) = self.buttons {
            builder = builder.buttons(buttons);
        }
        if let Some(phases) = phases {
            builder = builder.phases(phases);
        }
        if let Some(labels) = self.labels {
            builder = builder.labels(labels);
        }
        if let Some(labels) = self.button_labels {
            builder = builder.button_labels(labels);
        }
        if let Some(layout) = self.layout {
            builder = builder.layout(layout.into_iter().map(|(x, y)| [x, y]).collect());
        }
        if let Some(at) = self.button_at {
            builder = builder.button_at(at);
        }
        if let Some(hide) = self.hide_par {
            builder = builder.hide_par(hide);
        }
        if let Some(limits) = max_presses {
            builder = builder.max_presses(limits);
        }
        if let Some(intended) = self.intended {
            builder = builder.intended(intended);
        }
        builder.build()
    }
}

/// A count of cells (`field` says where): at least 1, at most [`MAX_CELLS`].
fn need_cells(field: &str, n: usize) -> Result<(), InputError> {
    if n == 0 {
        Err(InputError::invalid(field, "is 0; a puzzle needs at least one cell"))
    } else if n > MAX_CELLS {
        Err(InputError::invalid(field, format!("{n} cells is more than the {MAX_CELLS} modsolve handles")))
    } else {
        Ok(())
    }
}

/// A picture's size (`rows × cols`, each at least 1, at most [`MAX_CELLS`] cells in all) and
/// its mask, if any: what `Grid` and `Hex` share.
fn read_picture_size(
    rows: usize,
    cols: usize,
    mask: Option<Vec<String>>,
) -> Result<Option<Vec<bool>>, InputError> {
    need_cells("graph.rows", rows)?;
    need_cells("graph.cols", cols)?;
    if rows.checked_mul(cols).is_none_or(|n| n > MAX_CELLS) {
        return Err(InputError::invalid(
            "graph",
            format!("{rows}×{cols} is more than the {MAX_CELLS} cells modsolve handles"),
        ));
    }
    mask.map(|m| read_mask(&m, rows, cols)).transpose()
}

impl GraphSpec {
    fn into_topology(self) -> Result<Topology, InputError> {
        Ok(match self {
            GraphSpec::Path(n) => {
                need_cells("graph", n)?;
                Topology::Path(n)
            }
            GraphSpec::Cycle(n) => {
                need_cells("graph", n)?;
                Topology::Cycle(n)
            }
            GraphSpec::Cells(n) => {
                need_cells("graph", n)?;
                Topology::Cells(n)
            }
            GraphSpec::Grid { rows, cols, wrap, neighborhood, mask } => {
                let mask = read_picture_size(rows, cols, mask)?;
                let press = match neighborhood {
                    NeighborhoodSpec::Cross if mask.is_none() => {
                        return Ok(Topology::Grid { rows, cols, wrap, neighborhood: Neighborhood::Cross });
                    }
                    NeighborhoodSpec::King if mask.is_none() => {
                        return Ok(Topology::Grid { rows, cols, wrap, neighborhood: Neighborhood::King });
                    }
                    NeighborhoodSpec::Knight if mask.is_none() => {
                        return Ok(Topology::Grid { rows, cols, wrap, neighborhood: Neighborhood::Knight });
                    }
                    NeighborhoodSpec::Cross => Press::Same(Stencil::of(Neighborhood::Cross)),
                    NeighborhoodSpec::King => Press::Same(Stencil::of(Neighborhood::King)),
                    NeighborhoodSpec::Knight => Press::Same(Stencil::of(Neighborhood::Knight)),
                    NeighborhoodSpec::Stencil(picture) => {
                        Press::Same(read_stencil("graph.neighborhood", &picture)?)
                    }
                    NeighborhoodSpec::Classes { corner, edge, center } => Press::Classes {
                        corner: corner.into_stencil("graph.neighborhood.corner")?,
                        edge: edge.into_stencil("graph.neighborhood.edge")?,
                        center: center.into_stencil("graph.neighborhood.center")?,
                    },
                };
                Topology::Board(Board::grid(rows, cols, wrap, press, mask)?)
            }
            GraphSpec::Hex { rows, cols, mask } => {
                let mask = read_picture_size(rows, cols, mask)?;
                Topology::Board(Board::hex(rows, cols, mask)?)
            }
            GraphSpec::Cube(n) => Topology::Board(Board::cube(n)?),
            GraphSpec::Edges { cells, edges } => {
                need_cells("graph.cells", cells)?;
                // A neighbour list per cell costs 24 bytes before any edge: cap it where general
                // propagation, the only solver for graphs this large, stops.
                if cells > MAX_EDGES_CELLS {
                    return Err(InputError::invalid(
                        "graph.cells",
                        format!("{cells} cells is more than the {MAX_EDGES_CELLS} an Edges graph may have"),
                    ));
                }
                let mut adjacency = vec![Vec::new(); cells];
                for (k, &(a, b)) in edges.iter().enumerate() {
                    let field = format!("graph.edges[{k}]");
                    for c in [a, b] {
                        if c >= cells {
                            return Err(InputError::invalid(
                                field,
                                format!(
                                    "({a}, {b}) names cell {c}, but cells are numbered 0 to {}",
                                    cells - 1
                                ),
                            ));
                        }
                    }
                    if a == b {
                        return Err(InputError::invalid(field, format!("({a}, {b}) joins a cell to itself")));
                    }
                    if adjacency[a].contains(&b) {
                        return Err(InputError::invalid(field, format!("({a}, {b}) is listed twice")));
                    }
                    adjacency[a].push(b);
                    adjacency[b].push(a);
                }
                for list in &mut adjacency {
                    list.sort_unstable();
                }
                Topology::Edges { adjacency }
            }
        })
    }
}

impl ClassSpec {
    fn into_stencil(self, field: &str) -> Result<Stencil, InputError> {
        Ok(match self {
            ClassSpec::Cross => Stencil::of(Neighborhood::Cross),
            ClassSpec::King => Stencil::of(Neighborhood::King),
            ClassSpec::Knight => Stencil::of(Neighborhood::Knight),
            ClassSpec::Stencil(picture) => read_stencil(field, &picture)?,
        })
    }
}

/// A stencil picture: `#` a cell the press changes by the neighbour weight, `.` one it does
/// not change, exactly one `x` (the pressed cell, changed by the self weight) or `o` (the
/// pressed cell, left unchanged); spaces are ignored; rows of equal width.
pub(crate) fn read_stencil(field: &str, picture: &[String]) -> Result<Stencil, InputError> {
    let side = crate::model::board::MAX_STENCIL_SIDE;
    if picture.is_empty() {
        return Err(InputError::invalid(
            field,
            "a stencil needs at least one row, with the pressed cell `x`",
        ));
    }
    if picture.len() > side {
        return Err(InputError::invalid(
            field,
            format!("the stencil has {} rows; at most {side} are allowed", picture.len()),
        ));
    }
    let mut marked: Vec<(i32, i32)> = Vec::new();
    let mut pressed: Option<(i32, i32, bool)> = None;
    let mut width0 = None;
    for (r, row) in picture.iter().enumerate() {
        let mut width = 0usize;
        for (k, ch) in row.chars().enumerate().filter(|(_, ch)| !ch.is_whitespace()) {
            let at = || format!("{field}[{r}][{k}]");
            let place = (r as i32, width as i32);
            match ch {
                '#' => marked.push(place),
                '.' => {}
                'x' | 'o' => {
                    if pressed.is_some() {
                        return Err(InputError::invalid(
                            at(),
                            format!("a second pressed cell '{ch}'; a stencil has exactly one `x` or `o`"),
                        ));
                    }
                    pressed = Some((place.0, place.1, ch == 'x'));
                }
                _ => {
                    return Err(InputError::invalid(
                        at(),
                        format!(
                            "'{ch}' is not a stencil character (use # for a cell the press changes, . for one it \
                             does not, x for the pressed cell, o for the pressed cell when the press leaves it unchanged)"
                        ),
                    ));
                }
            }
            width += 1;
            if width > side {
                return Err(InputError::invalid(
                    format!("{field}[{r}]"),
                    format!("row {r} of the stencil is more than {side} cells wide"),
                ));
            }
        }
        match width0 {
            None => width0 = Some(width),
            Some(w) if w != width => {
                return Err(InputError::invalid(
                    format!("{field}[{r}]"),
                    format!("row {r} of the stencil is {width} cells wide but row 0 is {w}"),
                ));
            }
            Some(_) => {}
        }
    }
    let Some((pr, pc, changes_itself)) = pressed else {
        return Err(InputError::invalid(
            field,
            "the stencil has no pressed cell: mark it with `x` (or `o` when the press leaves it unchanged)",
        ));
    };
    Ok(Stencil::new(marked.into_iter().map(|(r, c)| (r - pr, c - pc)), changes_itself))
}

/// A mask picture: `#` a cell, `.` a hole, spaces ignored; `rows` rows of `cols` places.
pub(crate) fn read_mask(picture: &[String], rows: usize, cols: usize) -> Result<Vec<bool>, InputError> {
    if picture.len() != rows {
        return Err(InputError::invalid(
            "graph.mask",
            format!("the mask has {} but the board has {rows}", plural(picture.len(), "row")),
        ));
    }
    let mut out = Vec::with_capacity(rows * cols);
    for (r, row) in picture.iter().enumerate() {
        let before = out.len();
        for (k, ch) in row.chars().enumerate().filter(|(_, ch)| !ch.is_whitespace()) {
            let present = match ch {
                '#' => true,
                '.' => false,
                _ => {
                    return Err(InputError::invalid(
                        format!("graph.mask[{r}][{k}]"),
                        format!("'{ch}' is not a mask character (use # for a cell, . for a hole)"),
                    ));
                }
            };
            if out.len() - before == cols {
                break;
            }
            out.push(present);
        }
        let width = row.chars().filter(|ch| !ch.is_whitespace()).count();
        if width != cols {
            return Err(InputError::invalid(
                format!("graph.mask[{r}]"),
                format!("row {r} of the mask is {width} places wide but the board has {cols} columns"),
            ));
        }
    }
    if !out.contains(&true) {
        return Err(InputError::invalid("graph.mask", "has no cells (#); a puzzle needs at least one"));
    }
    Ok(out)
}

/// The value a picture character stands for: `.` 0, `#` 1, digits, then letters from 10.
pub(super) fn picture_value(c: char) -> Option<u8> {
    match c {
        '.' => Some(0),
        '#' => Some(1),
        _ => c.to_digit(36).map(|d| d as u8),
    }
}

/// A shape a field cannot have: [`read_shape`] refuses it, so this is never reached.
pub(super) fn unreachable_shape<T>(field: &str) -> Result<T, InputError> {
    Err(InputError::invalid(field, "has a shape this field does not take"))
}

pub(super) fn resolve_state(
    field: &str,
    spec: Option<Shape>,
    topology: &Topology,
    moduli: &CellValues,
) -> Result<CellValues, InputError> {
    let cells = moduli.len();
    let uniform = moduli.uniform();
    let too_large = |v: u64| match uniform {
        Some(m) => (v >= m).then_some((0, m)),
        None => moduli.iter().enumerate().find(|&(_, &m)| v >= m).map(|(i, &m)| (i, m)),
    };
    let values = match spec {
        // Every modulus is at least 2, so 0 always fits.
        None => return Ok(CellValues::same(0, cells)),
        Some(Shape::All(v)) => {
            if let Some((i, m)) = too_large(v) {
                return Err(InputError::invalid(
                    field,
                    format!("All({v}) is too large for cell {i}, which counts modulo {m}"),
                ));
            }
            return Ok(CellValues::same(v, cells));
        }
        Some(Shape::List { values, len }) => {
            if len != cells {
                return Err(InputError::invalid(
                    field,
                    format!("has {} but the puzzle has {cells} cells", plural(len, "value")),
                ));
            }
            CellValues::from(values)
        }
        Some(Shape::Rows(rows)) => return picture_state(field, &rows, topology, moduli),
        Some(Shape::One(_)) => return unreachable_shape(field),
    };
    for (i, &v) in values.iter().enumerate() {
        let m = uniform.unwrap_or_else(|| moduli[i]);
        if v >= m {
            return Err(InputError::invalid(
                format!("{field}[{i}]"),
                format!("value {v} of cell {i} is not below its modulus {m}"),
            ));
        }
    }
    Ok(values)
}

/// A state drawn as a picture, `Rows([...])`: one character a place of the board's picture
/// (`-` a hole); errors name the character's place in its row's string, `start[r][k]`.
fn picture_state(
    field: &str,
    rows: &[String],
    topology: &Topology,
    moduli: &CellValues,
) -> Result<CellValues, InputError> {
    let cells = moduli.len();
    let uniform = moduli.uniform();
    let Some((grid_rows, grid_cols)) = topology.picture_size() else {
        return Err(InputError::invalid(
            field,
            "Rows([...]) pictures are only for puzzles drawn as pictures (Grid, Hex, Cube)",
        ));
    };
    let noun = if topology.grid_shape().is_some() { "grid" } else { "board" };
    if rows.len() != grid_rows {
        return Err(InputError::invalid(
            field,
            format!("the picture has {} but the {noun} has {grid_rows}", plural(rows.len(), "row")),
        ));
    }
    // Picture values are below 36: one byte per cell. Errors about a character name
    // its place in its row's string: `start[r][k]`. Holes are `-`.
    let mut values: Vec<u8> = vec![0; cells];
    for (r, row) in rows.iter().enumerate() {
        let mut c = 0usize;
        for (k, ch) in row.chars().enumerate().filter(|(_, ch)| !ch.is_whitespace()) {
            let at = || format!("{field}[{r}][{k}]");
            // A row too wide is reported below, before any place past the picture is read.
            if c >= grid_cols {
                c += 1;
                continue;
            }
            let cell = topology.cell_at(r, c);
            c += 1;
            if ch == '-' {
                if cell.is_some() {
                    return Err(InputError::invalid(
                        at(),
                        format!("'-' marks a hole, but the board has a cell at row {r}, column {}", c - 1),
                    ));
                }
                continue;
            }
            let Some(v) = picture_value(ch) else {
                return Err(InputError::invalid(
                    at(),
                    format!(
                        "'{ch}' is not a cell value (use . or 0, # or 1, digits, then a-z for 10-35{})",
                        if noun == "board" { "; - for a hole" } else { "" }
                    ),
                ));
            };
            let Some(i) = cell else {
                return Err(InputError::invalid(
                    at(),
                    format!("'{ch}' is at a hole of the board (row {r}, column {}); write - there", c - 1),
                ));
            };
            let m = uniform.unwrap_or_else(|| moduli[i]);
            if u64::from(v) >= m {
                return Err(InputError::invalid(
                    at(),
                    format!("value {v} of cell {i} is not below its modulus {m}"),
                ));
            }
            values[i] = v;
        }
        if c != grid_cols {
            return Err(InputError::invalid(
                format!("{field}[{r}]"),
                format!("row {r} of the picture is {c} cells wide but the {noun} has {grid_cols} columns"),
            ));
        }
    }
    Ok(CellValues::from_bytes(values))
}
