//! From the file as written to a [`Puzzle`]: the shapes are read once the graph is known and
//! the values handed to the builder, which checks every invariant of the model.

use crate::error::InputError;
use crate::model::builder::plural;
use crate::model::{CellValues, Phases, Puzzle, Topology};

use super::*;

impl PuzzleFile<'_> {
    /// Validates the file and builds the puzzle; `source` is the text the file was read from
    /// (its fields of several shapes are read now, and their errors placed in it).
    pub(crate) fn into_puzzle(self, source: &str) -> Result<Puzzle, InputError> {
        let topology = self.graph.into_topology()?;
        let cells = topology.cell_count();
        // The shapes (one number or a list, pictures) are read here; what the values must be
        // is the builder's to check.
        let moduli = match read_shape(source, self.modulus, ShapeKind::Modulus, cells)? {
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
        let read_state = |field: Option<RawField<'_>>| {
            field.map(|f| read_shape(source, f, ShapeKind::State, cells)).transpose()
        };
        let start = resolve_state("start", read_state(self.start)?, &topology, &moduli)?;
        let target = resolve_state("target", read_state(self.target)?, &topology, &moduli)?;
        let limits =
            self.max_presses.map(|f| read_shape(source, f, ShapeKind::Limits, button_count)).transpose()?;
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
        if let Some(limits) = max_presses {
            builder = builder.max_presses(limits);
        }
        if let Some(intended) = self.intended {
            builder = builder.intended(intended);
        }
        builder.build()
    }
}

impl GraphSpec {
    fn into_topology(self) -> Result<Topology, InputError> {
        let need_cells = |field: &str, n: usize| {
            if n == 0 {
                Err(InputError::invalid(field, "is 0; a puzzle needs at least one cell"))
            } else if n > MAX_CELLS {
                Err(InputError::invalid(
                    field,
                    format!("{n} cells is more than the {MAX_CELLS} modsolve handles"),
                ))
            } else {
                Ok(())
            }
        };
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
            GraphSpec::Grid { rows, cols, wrap, neighborhood } => {
                need_cells("graph.rows", rows)?;
                need_cells("graph.cols", cols)?;
                if rows.checked_mul(cols).is_none_or(|n| n > MAX_CELLS) {
                    return Err(InputError::invalid(
                        "graph",
                        format!("{rows}×{cols} is more than the {MAX_CELLS} cells modsolve handles"),
                    ));
                }
                Topology::Grid { rows, cols, wrap, neighborhood }
            }
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
        Some(Shape::Rows(rows)) => {
            let Some((grid_rows, grid_cols)) = topology.grid_shape() else {
                return Err(InputError::invalid(field, "Rows([...]) pictures are only for Grid puzzles"));
            };
            if rows.len() != grid_rows {
                return Err(InputError::invalid(
                    field,
                    format!("the picture has {} but the grid has {grid_rows}", plural(rows.len(), "row")),
                ));
            }
            // Picture values are below 36: one byte per cell. Errors about a character name
            // its place in its row's string: `start[r][k]`.
            let mut values: Vec<u8> = Vec::with_capacity(cells);
            for (r, row) in rows.iter().enumerate() {
                let before = values.len();
                for (k, c) in row.chars().enumerate().filter(|(_, c)| !c.is_whitespace()) {
                    let Some(v) = picture_value(c) else {
                        return Err(InputError::invalid(
                            format!("{field}[{r}][{k}]"),
                            format!(
                                "'{c}' is not a cell value (use . or 0, # or 1, digits, then a-z for 10-35)"
                            ),
                        ));
                    };
                    let i = values.len();
                    // A row too wide is reported below, before any cell past the grid is read.
                    if i - before < grid_cols {
                        let m = uniform.unwrap_or_else(|| moduli[i]);
                        if u64::from(v) >= m {
                            return Err(InputError::invalid(
                                format!("{field}[{r}][{k}]"),
                                format!("value {v} of cell {i} is not below its modulus {m}"),
                            ));
                        }
                    }
                    values.push(v);
                }
                let width = values.len() - before;
                if width != grid_cols {
                    return Err(InputError::invalid(
                        format!("{field}[{r}]"),
                        format!(
                            "row {r} of the picture is {width} cells wide but the grid has {grid_cols} columns"
                        ),
                    ));
                }
            }
            return Ok(CellValues::from_bytes(values));
        }
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
