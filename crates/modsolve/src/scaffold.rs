//! New puzzles: every form of the New-puzzle panel and of `modsolve new` (grid, hex, cube,
//! path, cycle, graph, explicit buttons; one modulus or one per cell) made from a small
//! [`Spec`]. The puzzle is built with [`Puzzle::builder`] and written by the library's one
//! writer ([`crate::format::to_ron_noted`]), with a comment above the fields a designer edits
//! first, so the text parses back to the same puzzle. By default the start is one press of
//! button 0 away from the target, so every new puzzle is solvable and not already solved.

use num_bigint::BigUint;

use crate::algebra::arith::sub_mod;
use crate::error::InputError;
use crate::format::to_ron_noted;
use crate::model::{Board, Neighborhood, Press, Puzzle, Stencil, Topology};

/// A grid's press: a named neighbourhood or a stencil picture (`x` the pressed cell, `#` a
/// changed cell, `.` one left alone, as FORMAT.md's `Stencil([…])`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GridPress {
    /// `Cross`, `King` or `Knight`.
    Named(Neighborhood),
    /// A stencil picture, one string a row.
    Stencil(Vec<String>),
}

/// The graph form of a new puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Form {
    /// A grid; with a `mask` picture (`#` a cell, `.` a hole) its size is the picture's.
    Grid {
        /// The number of rows.
        rows: usize,
        /// The number of columns.
        cols: usize,
        /// A torus.
        wrap: bool,
        /// Which cells a press changes.
        press: GridPress,
        /// Holes, as a picture (`None`: none).
        mask: Option<Vec<String>>,
    },
    /// A hexagonal board; with a `mask` picture its size is the picture's.
    Hex {
        /// The number of rows.
        rows: usize,
        /// The number of columns.
        cols: usize,
        /// Holes, as a picture (`None`: none).
        mask: Option<Vec<String>>,
    },
    /// The cube with `n × n` faces.
    Cube(usize),
    /// `n` cells in a row.
    Path(usize),
    /// `n` cells in a ring.
    Cycle(usize),
    /// `n` cells with an edge list to fill in (a chain to start from).
    Edges(usize),
    /// `n` cells with explicit buttons: the given ones (each a list of `(cell, amount)`), or
    /// when `None` button `j` adding 1 to cells `j` and `j + 1`.
    Cells(usize, Option<Vec<Vec<(usize, i64)>>>),
}

impl Form {
    /// A plain grid of `rows × cols` cells, Cross presses.
    pub fn grid(rows: usize, cols: usize) -> Form {
        Form::Grid { rows, cols, wrap: false, press: GridPress::Named(Neighborhood::Cross), mask: None }
    }

    /// The number of cells, when it fits a `usize` (masks: `None`, counted when read).
    fn cells(&self) -> Option<usize> {
        match self {
            Form::Grid { rows, cols, mask: None, .. } | Form::Hex { rows, cols, mask: None } => {
                rows.checked_mul(*cols)
            }
            Form::Grid { mask: Some(m), .. } | Form::Hex { mask: Some(m), .. } => {
                Some(m.iter().map(|row| row.chars().filter(|&c| c == '#').count()).sum())
            }
            Form::Cube(n) => n.checked_mul(*n).and_then(|s| s.checked_mul(6)),
            Form::Path(n) | Form::Cycle(n) | Form::Edges(n) | Form::Cells(n, _) => Some(*n),
        }
    }

    /// The rows and columns of a picture form (the mask's when given).
    fn picture(&self) -> Option<(usize, usize)> {
        match self {
            Form::Grid { mask: Some(m), .. } | Form::Hex { mask: Some(m), .. } => {
                Some((m.len(), m.first().map_or(0, |row| row.chars().filter(|c| !c.is_whitespace()).count())))
            }
            Form::Grid { rows, cols, .. } | Form::Hex { rows, cols, .. } => Some((*rows, *cols)),
            _ => None,
        }
    }

    /// What the puzzle is, for its name and file: `("Grid 4x5", "grid-4x5")`.
    fn title(&self) -> (String, String) {
        let (word, size) = match (self, self.picture()) {
            (Form::Grid { .. }, Some((r, c))) => ("Grid", format!("{r}x{c}")),
            (Form::Hex { .. }, Some((r, c))) => ("Hex", format!("{r}x{c}")),
            (Form::Cube(n), _) => ("Cube", n.to_string()),
            (Form::Path(n), _) => ("Path", n.to_string()),
            (Form::Cycle(n), _) => ("Cycle", n.to_string()),
            (Form::Edges(n), _) => ("Graph", n.to_string()),
            (_, _) => ("Buttons", self.cells().unwrap_or(0).to_string()),
        };
        (format!("{word} {size}"), format!("{}-{size}", word.to_lowercase()))
    }
}

/// What every cell counts modulo.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Moduli {
    /// The same for every cell.
    One(u64),
    /// One per cell, in cell order.
    PerCell(Vec<u64>),
}

impl std::str::FromStr for Moduli {
    type Err = String;

    /// `7` (one for every cell) or `7,8,7,6` (one per cell); spaces around the numbers are
    /// allowed.
    fn from_str(text: &str) -> Result<Moduli, String> {
        let values = text
            .split(',')
            .enumerate()
            .map(|(i, item)| {
                item.trim().parse::<u64>().map_err(|e| {
                    format!(
                        "value {} of the list, {:?}, is not a whole number from 0 to 2^64 - 1 ({e})",
                        i + 1,
                        item.trim()
                    )
                })
            })
            .collect::<Result<Vec<u64>, String>>()?;
        Ok(if text.contains(',') { Moduli::PerCell(values) } else { Moduli::One(values[0]) })
    }
}

/// Where a new puzzle starts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Start {
    /// One press of button 0 away from the target (solvable, not solved).
    #[default]
    OnePress,
    /// Every cell at this value.
    All(u64),
}

/// A new puzzle: its form, moduli, press weights (graph forms) and start. The target is 0.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spec {
    /// The graph form.
    pub form: Form,
    /// What the cells count modulo.
    pub moduli: Moduli,
    /// What a press adds to its cell and to each neighbour (not used by explicit buttons).
    pub press: (i64, i64),
    /// Where the puzzle starts.
    pub start: Start,
}

impl Spec {
    /// A spec of `form` with one modulus, presses adding 1, starting one press from solved.
    pub fn new(form: Form, modulus: u64) -> Spec {
        Spec { form, moduli: Moduli::One(modulus), press: (1, 1), start: Start::OnePress }
    }

    /// The file name a new puzzle of this spec is offered under: `grid-4x5.ron`.
    pub fn file_name(&self) -> String {
        format!("{}.ron", self.form.title().1)
    }
}

/// The most cells a new puzzle holds.
pub const STARTER_CELLS: usize = 1_000_000;

/// Why a new puzzle cannot be made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StarterError {
    /// A modulus is below 2.
    #[error("the modulus is {0}; a cell must count modulo at least 2")]
    Modulus(u64),
    /// A list of moduli of the wrong length.
    #[error("the list of moduli has {given} values, but the puzzle has {cells} cells")]
    ModuliLength {
        /// The values given.
        given: usize,
        /// The cells of the form.
        cells: usize,
    },
    /// A size is 0.
    #[error("the puzzle needs at least one cell")]
    NoCells,
    /// More cells than a new puzzle should hold.
    #[error("{0} is more than a starter file should hold (at most {STARTER_CELLS} cells)")]
    TooLarge(String),
    /// A field of the spec the format refuses (a stencil or mask picture, a button, a start
    /// value not below a modulus), named as a puzzle file names it.
    #[error("{0}")]
    Invalid(InputError),
}

/// The text of a starter puzzle of `form`, every cell counting modulo `modulus`.
pub fn starter(form: Form, modulus: u64) -> Result<String, StarterError> {
    new_puzzle(&Spec::new(form, modulus)).map(|(_, text)| text)
}

/// A new puzzle of `spec` and its commented text (which reads back to that puzzle).
pub fn new_puzzle(spec: &Spec) -> Result<(Puzzle, String), StarterError> {
    let form = &spec.form;
    let too_large = || match (form, form.picture()) {
        (Form::Grid { .. }, Some((rows, cols))) => format!("a {rows}×{cols} grid"),
        (_, Some((rows, cols))) => format!("a {rows}×{cols} hex board"),
        (_, None) => format!("{} cells", form.cells().map_or("so many".into(), |n| n.to_string())),
    };
    // A grid's product past `usize` is more cells than any limit: say so, not "no cells".
    match (form.picture(), form.cells()) {
        (Some((r, c)), _) if r == 0 || c == 0 => return Err(StarterError::NoCells),
        (_, Some(0)) => return Err(StarterError::NoCells),
        (_, Some(n)) if n <= STARTER_CELLS => {}
        _ => return Err(StarterError::TooLarge(too_large())),
    }
    let first = match &spec.moduli {
        Moduli::One(m) => *m,
        Moduli::PerCell(list) => list.iter().copied().min().unwrap_or(0),
    };
    if first < 2 {
        return Err(StarterError::Modulus(first));
    }
    let topology = topology(form).map_err(StarterError::Invalid)?;
    let cells = topology.cell_count();
    let moduli = match &spec.moduli {
        Moduli::One(m) => vec![*m; cells],
        Moduli::PerCell(list) if list.len() == cells => list.clone(),
        Moduli::PerCell(list) => return Err(StarterError::ModuliLength { given: list.len(), cells }),
    };
    let mut builder =
        Puzzle::builder(topology).name(form.title().0).moduli(moduli.clone()).target(vec![0; cells]);
    builder = match form {
        Form::Cells(n, buttons) => builder.buttons(buttons.clone().unwrap_or_else(|| chain(*n))),
        _ => builder.press(spec.press.0, spec.press.1),
    };
    let start = match spec.start {
        Start::All(v) => vec![v; cells],
        Start::OnePress => {
            // The target with one press of button 0 undone.
            let draft = builder.clone().start(vec![0; cells]).build().map_err(StarterError::Invalid)?;
            let mut presses = vec![BigUint::from(0u32); draft.button_count()];
            if let Some(first) = presses.first_mut() {
                *first = BigUint::from(1u32);
            }
            let after = draft.apply(&vec![0; cells], &presses);
            after.iter().zip(&moduli).map(|(&a, &m)| sub_mod(0, a, m)).collect()
        }
    };
    let puzzle = builder.start(start).build().map_err(StarterError::Invalid)?;
    let text = to_ron_noted(&puzzle, &header(form, &spec.moduli), &notes(form));
    Ok((puzzle, text))
}

/// Button `j` adds 1 to cell `j` and to the next cell: every cell touched, no duplicates.
fn chain(n: usize) -> Vec<Vec<(usize, i64)>> {
    (0..n).map(|j| if j + 1 < n { vec![(j, 1), (j + 1, 1)] } else { vec![(j, 1)] }).collect()
}

fn topology(form: &Form) -> Result<Topology, InputError> {
    let mask = |mask: &Option<Vec<String>>| -> Result<Option<(usize, usize, Vec<bool>)>, InputError> {
        let Some(picture) = mask else { return Ok(None) };
        let rows: Vec<String> =
            picture.iter().map(|r| r.chars().filter(|c| !c.is_whitespace()).collect()).collect();
        let (r, c) = (rows.len(), rows.first().map_or(0, |row| row.chars().count()));
        Ok(Some((r, c, crate::format::read_mask(&rows, r, c)?)))
    };
    Ok(match form {
        Form::Grid { rows, cols, wrap, press, mask: m } => {
            let (rows, cols, mask) = match mask(m)? {
                Some((r, c, m)) => (r, c, Some(m)),
                None => (*rows, *cols, None),
            };
            match (press, mask) {
                (GridPress::Named(n), None) => Topology::Grid { rows, cols, wrap: *wrap, neighborhood: *n },
                (press, mask) => {
                    let stencil = match press {
                        GridPress::Named(n) => Stencil::of(*n),
                        GridPress::Stencil(picture) => {
                            crate::format::read_stencil("graph.neighborhood", picture)?
                        }
                    };
                    Topology::Board(Board::grid(rows, cols, *wrap, Press::Same(stencil), mask)?)
                }
            }
        }
        Form::Hex { rows, cols, mask: m } => match mask(m)? {
            Some((r, c, m)) => Topology::Board(Board::hex(r, c, Some(m))?),
            None => Topology::Board(Board::hex(*rows, *cols, None)?),
        },
        Form::Cube(n) => Topology::Board(Board::cube(*n)?),
        Form::Path(n) => Topology::Path(*n),
        Form::Cycle(n) => Topology::Cycle(*n),
        Form::Cells(n, _) => Topology::Cells(*n),
        Form::Edges(n) => Topology::Edges { adjacency: chain_adjacency(*n) },
    })
}

/// The adjacency of a chain `0 – 1 – … – n-1`.
fn chain_adjacency(n: usize) -> Vec<Vec<usize>> {
    (0..n)
        .map(|i| [i.checked_sub(1), Some(i + 1).filter(|&j| j < n)].into_iter().flatten().collect())
        .collect()
}

/// The comment at the top of the file.
fn header(form: &Form, moduli: &Moduli) -> String {
    let what = match (form, form.picture()) {
        (Form::Grid { .. }, Some((r, c))) => format!("A {r}×{c} grid"),
        (Form::Hex { .. }, Some((r, c))) => format!("A {r}×{c} hex board"),
        (Form::Cube(n), _) => format!("The cube with {n}×{n} faces"),
        (Form::Path(n), _) => format!("{n} cells in a row"),
        (Form::Cycle(n), _) => format!("{n} cells in a ring"),
        (Form::Edges(n), _) => format!("A graph of {n} cells"),
        (_, _) => format!("{} cells with explicit buttons", form.cells().unwrap_or(0)),
    };
    let counting = match moduli {
        Moduli::One(m) => format!("every cell counting modulo {m}"),
        Moduli::PerCell(_) => "each cell counting modulo its own modulus".to_string(),
    };
    format!(
        "{what}, {counting}. Made by `modsolve new`; edit freely.\n\
         Reference: FORMAT.md. Check it with `modsolve check FILE`."
    )
}

/// The comments above the fields a designer edits first.
fn notes(form: &Form) -> Vec<(&'static str, &'static str)> {
    let mut notes = Vec::new();
    match form {
        Form::Grid { .. } => {
            notes.push(("graph", "Grid options: wrap: true (a torus), neighborhood: King (8 neighbours)."))
        }
        Form::Edges(_) => {
            notes.push(("graph", "Edges are undirected (a, b) pairs of cell numbers; add or remove freely."))
        }
        _ => {}
    }
    notes.push(("modulus", "One number for every cell, or a list with one per cell."));
    notes.push(("press", "A press adds `self` to the pressed cell and `neighbors` to each neighbour."));
    notes.push(("buttons", "Each button lists (cell, amount) pairs: what one press adds."));
    notes.push((
        "start",
        "States: a list (one value per cell), All(v), or for boards Rows([\"#.\", \".#\"]).",
    ));
    notes
}
