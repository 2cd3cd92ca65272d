//! [`PuzzleBuilder`]: the one way to make a [`Puzzle`], in code or from a file. `build` checks
//! every invariant of the model (see the module doc of [`crate::model`]) and names the field a
//! file would have for what is wrong, so `format` reports the builder's errors with a position.

use super::{MAX_CELLS, MAX_EDGES_CELLS};
use crate::error::InputError;

use super::{Buttons, CellValues, Phases, Positions, Puzzle, Topology};

/// A puzzle under construction: the topology first, then any of the fields a puzzle file has.
/// Left out: one modulus of 2 for every cell, graph presses adding 1 to the cell and 1 to each
/// neighbour, start and target all 0.
///
/// ```
/// use modsolve::model::{Neighborhood, Puzzle, Topology};
///
/// let lights_out = Puzzle::builder(Topology::Grid { rows: 5, cols: 5, wrap: false, neighborhood: Neighborhood::Cross })
///     .name("Lights Out")
///     .modulus(2)
///     .target(vec![1; 25])
///     .build()
///     .unwrap();
/// assert_eq!(lights_out.cell_count(), 25);
/// assert_eq!(lights_out.button_count(), 25);
///
/// // What is wrong is named as a puzzle file would name it.
/// let error = Puzzle::builder(Topology::Path(3)).moduli(vec![7, 1, 7]).build().unwrap_err();
/// assert_eq!(error.to_string(), "`modulus[1]`: is 1; a cell must count modulo at least 2");
/// ```
#[derive(Clone, Debug)]
pub struct PuzzleBuilder {
    name: Option<String>,
    topology: Topology,
    moduli: Option<CellValues>,
    press: Option<(i64, i64)>,
    buttons: Option<Vec<Vec<(usize, i64)>>>,
    phases: Option<Phases>,
    start: Option<CellValues>,
    target: Option<CellValues>,
    labels: Option<Vec<String>>,
    button_labels: Option<Vec<String>>,
    hide_par: bool,
    button_at: Option<Vec<usize>>,
    layout: Option<Vec<[f64; 2]>>,
    max_presses: Option<Vec<u64>>,
    intended: Option<Vec<u64>>,
}

impl Puzzle {
    /// A builder for a puzzle on these cells.
    pub fn builder(topology: Topology) -> PuzzleBuilder {
        PuzzleBuilder {
            name: None,
            topology,
            moduli: None,
            press: None,
            buttons: None,
            phases: None,
            start: None,
            target: None,
            labels: None,
            button_labels: None,
            hide_par: false,
            button_at: None,
            layout: None,
            max_presses: None,
            intended: None,
        }
    }

    /// The same puzzle with another target, validated.
    pub fn with_target(&self, target: impl Into<CellValues>) -> Result<Puzzle, InputError> {
        let target = target.into();
        check_state("target", &target, &self.moduli)?;
        Ok(Puzzle { target, ..self.clone() })
    }

    /// The same puzzle from another start, validated.
    pub fn with_start(&self, start: impl Into<CellValues>) -> Result<Puzzle, InputError> {
        let start = start.into();
        check_state("start", &start, &self.moduli)?;
        Ok(Puzzle { start, ..self.clone() })
    }
}

impl PuzzleBuilder {
    /// The puzzle's name.
    pub fn name(mut self, name: impl Into<String>) -> Self {
        self.name = Some(name.into());
        self
    }

    /// One modulus for every cell.
    pub fn modulus(mut self, modulus: u64) -> Self {
        self.moduli = Some(CellValues::same(modulus, self.topology.cell_count()));
        self
    }

    /// One modulus per cell.
    pub fn moduli(mut self, moduli: impl Into<CellValues>) -> Self {
        self.moduli = Some(moduli.into());
        self
    }

    /// Graph presses: a press adds `self_weight` to its cell and `neighbor_weight` to each
    /// neighbour (the default is 1 and 1).
    pub fn press(mut self, self_weight: i64, neighbor_weight: i64) -> Self {
        self.press = Some((self_weight, neighbor_weight));
        self
    }

    /// Explicit buttons, each a list of `(cell, amount)`.
    pub fn buttons(mut self, buttons: Vec<Vec<(usize, i64)>>) -> Self {
        self.buttons = Some(buttons);
        self
    }

    /// Staged presses: the game checks for a win after each phase of a press.
    pub fn phases(mut self, phases: Phases) -> Self {
        self.phases = Some(phases);
        self
    }

    /// The start state, one value per cell (all 0 when left out).
    pub fn start(mut self, start: impl Into<CellValues>) -> Self {
        self.start = Some(start.into());
        self
    }

    /// The target state, one value per cell (all 0 when left out).
    pub fn target(mut self, target: impl Into<CellValues>) -> Self {
        self.target = Some(target.into());
        self
    }

    /// Names for the cells: one per cell, all different (graph puzzles' buttons take their
    /// cell's name unless [`button_labels`](Self::button_labels) are given).
    pub fn labels(mut self, labels: Vec<String>) -> Self {
        self.labels = Some(labels);
        self
    }

    /// Names for the buttons: one per button, all different.
    pub fn button_labels(mut self, labels: Vec<String>) -> Self {
        self.button_labels = Some(labels);
        self
    }

    /// The cell each explicit button is drawn on and pressed at (`button_at:`), one per
    /// button, all different.
    pub fn button_at(mut self, cells: Vec<usize>) -> Self {
        self.button_at = Some(cells);
        self
    }

    /// Whether players see the par only once the level is won (a surprise); by default they
    /// see it from the start.
    pub fn hide_par(mut self, hide: bool) -> Self {
        self.hide_par = hide;
        self
    }

    /// Where each cell is drawn: its centre `[x, y]` in cell widths.
    pub fn layout(mut self, positions: Vec<[f64; 2]>) -> Self {
        self.layout = Some(positions);
        self
    }

    /// The most times each button may be pressed.
    pub fn max_presses(mut self, limits: Vec<u64>) -> Self {
        self.max_presses = Some(limits);
        self
    }

    /// The designer's intended plan, one press count per button.
    pub fn intended(mut self, presses: Vec<u64>) -> Self {
        self.intended = Some(presses);
        self
    }

    /// The puzzle, when every field is valid; otherwise the first field that is not, named as a
    /// puzzle file names it.
    pub fn build(self) -> Result<Puzzle, InputError> {
        let topology = self.topology;
        check_topology(&topology)?;
        let cells = topology.cell_count();
        let moduli = self.moduli.unwrap_or_else(|| CellValues::same(2, cells));
        check_moduli(&moduli, cells)?;
        let phases = self.phases;
        let buttons = buttons_of(self.buttons, &phases, self.press)?;
        check_buttons(&phases, &buttons, &moduli, cells)?;
        let start = self.start.unwrap_or_else(|| CellValues::same(0, cells));
        check_state("start", &start, &moduli)?;
        let target = self.target.unwrap_or_else(|| CellValues::same(0, cells));
        check_state("target", &target, &moduli)?;
        let button_count = match &buttons {
            Buttons::Graph { .. } => cells,
            Buttons::Explicit(list) => list.len(),
        };
        check_press_lists(&self.max_presses, &self.intended, button_count, phases.is_some())?;
        if let Some(labels) = &self.labels {
            check_labels("labels", labels, cells, "cell")?;
        }
        if let Some(labels) = &self.button_labels {
            check_labels("button_labels", labels, button_count, "button")?;
        }
        if let Some(at) = &self.button_at {
            check_button_at(at, matches!(buttons, Buttons::Explicit(_)), button_count, cells)?;
        }
        let layout = self.layout.map(|points| check_layout(points, cells)).transpose()?;
        Ok(Puzzle {
            name: self.name,
            topology,
            moduli,
            buttons,
            start,
            target,
            max_presses: self.max_presses,
            intended: self.intended,
            phases,
            labels: self.labels,
            button_labels: self.button_labels,
            hide_par: self.hide_par,
            button_at: self.button_at,
            layout,
        })
    }
}

/// The buttons: explicit ones as given (or summed from their phases), else the graph's presses,
/// whose weights the phases add up to (and `press` must agree with).
fn buttons_of(
    buttons: Option<Vec<Vec<(usize, i64)>>>,
    phases: &Option<Phases>,
    press: Option<(i64, i64)>,
) -> Result<Buttons, InputError> {
    Ok(match (buttons, phases) {
        (Some(_), Some(Phases::Graph(_))) => {
            return Err(InputError::invalid(
                "phases",
                "is for graph presses; with explicit buttons write `button_phases`",
            ));
        }
        (None, Some(Phases::Explicit(list))) => {
            Buttons::Explicit(list.iter().map(|p| p.iter().flatten().copied().collect()).collect())
        }
        (Some(list), _) => Buttons::Explicit(list),
        (None, Some(Phases::Graph(list))) => {
            if list.is_empty() {
                return Err(InputError::invalid("phases", "needs at least one phase"));
            }
            // Summed in 128 bits: there are far fewer than 2^64 phases, so this is exact.
            let sum: (i128, i128) =
                list.iter().fold((0, 0), |(a, b), p| (a + i128::from(p.0), b + i128::from(p.1)));
            if let Some(press) = press
                && (i128::from(press.0), i128::from(press.1)) != sum
            {
                return Err(InputError::invalid(
                    "press",
                    format!(
                        "is (self: {}, neighbors: {}) but the phases add up to (self: {}, neighbors: {}); \
                         leave `press` out or make them agree",
                        press.0, press.1, sum.0, sum.1
                    ),
                ));
            }
            Buttons::Graph { self_weight: sum.0, neighbor_weight: sum.1 }
        }
        (None, None) => {
            let (s, n) = press.unwrap_or((1, 1));
            Buttons::Graph { self_weight: s.into(), neighbor_weight: n.into() }
        }
    })
}

/// Explicit buttons and their phases name existing cells, no button has no phase, and the
/// phases of each button add up to its effect.
fn check_buttons(
    phases: &Option<Phases>,
    buttons: &Buttons,
    moduli: &CellValues,
    cells: usize,
) -> Result<(), InputError> {
    if let Some(Phases::Explicit(list)) = &phases {
        for (j, button) in list.iter().enumerate() {
            if button.is_empty() {
                return Err(InputError::invalid(format!("button_phases[{j}]"), "needs at least one phase"));
            }
        }
        check_cells("button_phases", list.iter().map(|b| b.iter().flatten()), cells)?;
    }
    if let Buttons::Explicit(list) = buttons {
        check_cells("buttons", list.iter().map(|b| b.iter()), cells)?;
    }
    if let Some(Phases::Explicit(list)) = &phases {
        let Buttons::Explicit(buttons) = buttons else {
            unreachable!("explicit phases make explicit buttons")
        };
        if list.len() != buttons.len() {
            return Err(InputError::invalid(
                "button_phases",
                format!("has {} buttons but `buttons` has {}", list.len(), buttons.len()),
            ));
        }
        for (j, (phases, button)) in list.iter().zip(buttons).enumerate() {
            let sum: Vec<(usize, i64)> = phases.iter().flatten().copied().collect();
            if !same_effect(&sum, button, moduli) {
                return Err(InputError::invalid(
                    format!("button_phases[{j}]"),
                    format!(
                        "adds up to a different effect than buttons[{j}]; leave `buttons` out or make them agree"
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// `max_presses` and `intended` have one number per button, and `max_presses` is not combined
/// with staged presses.
fn check_press_lists(
    max_presses: &Option<Vec<u64>>,
    intended: &Option<Vec<u64>>,
    button_count: usize,
    staged: bool,
) -> Result<(), InputError> {
    if let Some(limits) = max_presses {
        if limits.len() != button_count {
            return Err(InputError::invalid(
                "max_presses",
                format!("has {} but the puzzle has {button_count} buttons", plural(limits.len(), "limit")),
            ));
        }
        if staged {
            return Err(InputError::invalid(
                "max_presses",
                "cannot be combined with staged presses (phases) yet",
            ));
        }
    }
    if let Some(intended) = intended
        && intended.len() != button_count
    {
        return Err(InputError::invalid(
            "intended",
            format!(
                "has {} but the puzzle has {button_count} buttons",
                plural(intended.len(), "press count")
            ),
        ));
    }
    Ok(())
}

/// At least one cell, at most [`MAX_CELLS`]; an `Edges` graph's lists name existing cells other
/// than their own, sorted, each edge in both lists.
fn check_topology(topology: &Topology) -> Result<(), InputError> {
    let cells = match topology {
        Topology::Grid { rows, cols, .. } => {
            if *rows == 0 || *cols == 0 {
                return Err(InputError::invalid("graph", "is 0; a puzzle needs at least one cell"));
            }
            rows.checked_mul(*cols).unwrap_or(usize::MAX)
        }
        other => other.cell_count(),
    };
    if cells == 0 {
        return Err(InputError::invalid("graph", "is 0; a puzzle needs at least one cell"));
    }
    if cells > MAX_CELLS {
        return Err(InputError::invalid(
            "graph",
            format!("{cells} cells is more than the {MAX_CELLS} modsolve handles"),
        ));
    }
    if let Topology::Edges { adjacency } = topology {
        if cells > MAX_EDGES_CELLS {
            return Err(InputError::invalid(
                "graph.cells",
                format!("{cells} cells is more than the {MAX_EDGES_CELLS} an Edges graph may have"),
            ));
        }
        for (a, list) in adjacency.iter().enumerate() {
            for (k, &b) in list.iter().enumerate() {
                let bad = if b >= cells {
                    Some(format!("cell {a} lists cell {b}, but cells are numbered 0 to {}", cells - 1))
                } else if b == a {
                    Some(format!("cell {a} lists itself"))
                } else if k > 0 && list[k - 1] >= b {
                    Some(format!("the neighbours of cell {a} are not sorted and distinct"))
                } else if adjacency[b].binary_search(&a).is_err() {
                    Some(format!("cell {a} lists cell {b}, but cell {b} does not list cell {a}"))
                } else {
                    None
                };
                if let Some(problem) = bad {
                    return Err(InputError::invalid("graph.edges", problem));
                }
            }
        }
    }
    Ok(())
}

/// One modulus per cell, each at least 2.
pub(crate) fn check_moduli(moduli: &CellValues, cells: usize) -> Result<(), InputError> {
    if moduli.len() != cells {
        return Err(InputError::invalid(
            "modulus",
            format!(
                "has {} but the graph has {cells} cells (give one number for all cells, or one per cell)",
                plural(moduli.len(), "value")
            ),
        ));
    }
    let too_small = |m: u64| format!("is {m}; a cell must count modulo at least 2");
    match moduli.uniform() {
        Some(m) if m < 2 => Err(InputError::invalid("modulus", too_small(m))),
        Some(_) => Ok(()),
        None => match moduli.iter().enumerate().find(|&(_, &m)| m < 2) {
            Some((i, &m)) => Err(InputError::invalid(format!("modulus[{i}]"), too_small(m))),
            None => Ok(()),
        },
    }
}

/// Every `(cell, amount)` of every button names an existing cell.
fn check_cells<'a>(
    field: &str,
    buttons: impl Iterator<Item = impl Iterator<Item = &'a (usize, i64)>>,
    cells: usize,
) -> Result<(), InputError> {
    for (j, button) in buttons.enumerate() {
        for &(cell, _) in button {
            if cell >= cells {
                return Err(InputError::invalid(
                    format!("{field}[{j}]"),
                    format!("names cell {cell}, but cells are numbered 0 to {}", cells - 1),
                ));
            }
        }
    }
    Ok(())
}

/// A state: one value per cell, each below its cell's modulus.
fn check_state(field: &str, state: &CellValues, moduli: &CellValues) -> Result<(), InputError> {
    let cells = moduli.len();
    if state.len() != cells {
        return Err(InputError::invalid(
            field,
            format!("has {} but the puzzle has {cells} cells", plural(state.len(), "value")),
        ));
    }
    let bad = match (state.uniform(), moduli.uniform()) {
        (Some(v), Some(m)) => (v >= m).then_some((0, v, m)),
        (_, uniform) => state
            .iter()
            .enumerate()
            .map(|(i, &v)| (i, v, uniform.unwrap_or_else(|| moduli[i])))
            .find(|&(_, v, m)| v >= m),
    };
    match bad {
        Some((i, v, m)) => Err(InputError::invalid(
            format!("{field}[{i}]"),
            format!("value {v} of cell {i} is not below its modulus {m}"),
        )),
        None => Ok(()),
    }
}

/// Names: one per cell (or button: `noun`), no two the same, so that every name in the output
/// and every name a player types means one thing.
fn check_labels(field: &str, labels: &[String], count: usize, noun: &str) -> Result<(), InputError> {
    if labels.len() != count {
        return Err(InputError::invalid(
            field,
            format!(
                "has {} but the puzzle has {} (give one per {noun})",
                plural(labels.len(), "name"),
                plural(count, noun)
            ),
        ));
    }
    let mut seen = std::collections::HashMap::with_capacity(labels.len());
    for (k, label) in labels.iter().enumerate() {
        if let Some(first) = seen.insert(label.as_str(), k) {
            return Err(InputError::invalid(
                format!("{field}[{k}]"),
                format!(
                    "{} is already the name of {noun} {first}; each {noun} needs a name of its own",
                    crate::error::shorten(&format!("{label:?}"))
                ),
            ));
        }
    }
    Ok(())
}

/// `button_at:` one cell per explicit button, each a cell of the puzzle, no cell twice (a
/// click on a cell must mean one button).
fn check_button_at(at: &[usize], explicit: bool, buttons: usize, cells: usize) -> Result<(), InputError> {
    if !explicit {
        return Err(InputError::invalid(
            "button_at",
            "is for explicit buttons; a graph puzzle's buttons are its cells",
        ));
    }
    if at.len() != buttons {
        return Err(InputError::invalid(
            "button_at",
            format!(
                "has {} but the puzzle has {} (give one per button)",
                plural(at.len(), "cell"),
                plural(buttons, "button")
            ),
        ));
    }
    let mut seen = std::collections::HashMap::with_capacity(at.len());
    for (j, &cell) in at.iter().enumerate() {
        if cell >= cells {
            return Err(InputError::invalid(
                format!("button_at[{j}]"),
                format!("cell {cell} is not a cell of the puzzle ({})", plural(cells, "cell")),
            ));
        }
        if let Some(first) = seen.insert(cell, j) {
            return Err(InputError::invalid(
                format!("button_at[{j}]"),
                format!("cell {cell} already holds button {first}; each button needs a cell of its own"),
            ));
        }
    }
    Ok(())
}

/// Drawing positions: one per cell, every coordinate finite and within [`Positions::LIMIT`].
pub(crate) fn check_layout(points: Vec<[f64; 2]>, cells: usize) -> Result<Positions, InputError> {
    if points.len() != cells {
        return Err(InputError::invalid(
            "layout",
            format!(
                "has {} but the graph has {cells} cells (give one per cell)",
                plural(points.len(), "position")
            ),
        ));
    }
    if let Some(k) =
        points.iter().position(|p| p.iter().any(|v| !v.is_finite() || v.abs() > Positions::LIMIT))
    {
        return Err(InputError::invalid(
            format!("layout[{k}]"),
            format!(
                "is ({}, {}); each coordinate must be a finite number within ±{}",
                points[k][0],
                points[k][1],
                Positions::LIMIT
            ),
        ));
    }
    // -0.0 is 0: equal pictures compare equal.
    Ok(Positions(points.into_iter().map(|[x, y]| [x + 0.0, y + 0.0]).collect()))
}

/// `1 value`, `3 values`.
pub(crate) fn plural(n: usize, noun: &str) -> String {
    if n == 1 { format!("1 {noun}") } else { format!("{n} {noun}s") }
}

/// Whether two lists of `(cell, amount)` add the same amounts to every cell.
fn same_effect(a: &[(usize, i64)], b: &[(usize, i64)], moduli: &CellValues) -> bool {
    use crate::algebra::arith::{add_mod, reduce_signed};
    let total = |list: &[(usize, i64)]| {
        let mut out = std::collections::BTreeMap::new();
        for &(cell, amount) in list {
            let m = moduli[cell];
            let v = out.entry(cell).or_insert(0u64);
            *v = add_mod(*v, reduce_signed(amount, m), m);
        }
        out.retain(|_, v| *v != 0);
        out
    };
    total(a) == total(b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Neighborhood;

    fn grid(rows: usize, cols: usize) -> Topology {
        Topology::Grid { rows, cols, wrap: false, neighborhood: Neighborhood::Cross }
    }

    /// Each invalid field is refused and named as a puzzle file names it.
    #[test]
    fn invalid_fields_are_named() {
        let cases: Vec<(PuzzleBuilder, &str)> = vec![
            (Puzzle::builder(Topology::Path(0)), "graph"),
            (Puzzle::builder(grid(0, 3)), "graph"),
            (Puzzle::builder(Topology::Path(3)).modulus(1), "modulus"),
            (Puzzle::builder(Topology::Path(3)).moduli(vec![2, 2]), "modulus"),
            (Puzzle::builder(Topology::Path(3)).moduli(vec![2, 0, 2]), "modulus[1]"),
            (Puzzle::builder(Topology::Path(3)).start(vec![0, 2, 0]), "start[1]"),
            (Puzzle::builder(Topology::Path(3)).target(vec![0, 1]), "target"),
            (Puzzle::builder(Topology::Path(3)).target(CellValues::same(2, 3)), "target[0]"),
            (Puzzle::builder(Topology::Cells(2)).buttons(vec![vec![(0, 1)], vec![(2, 1)]]), "buttons[1]"),
            (Puzzle::builder(Topology::Path(3)).max_presses(vec![1, 1]), "max_presses"),
            (Puzzle::builder(Topology::Path(3)).intended(vec![1]), "intended"),
            (Puzzle::builder(Topology::Path(3)).phases(Phases::Graph(vec![])), "phases"),
            (Puzzle::builder(Topology::Path(3)).phases(Phases::Graph(vec![(1, 1)])).press(2, 1), "press"),
            (
                Puzzle::builder(Topology::Path(3))
                    .phases(Phases::Graph(vec![(1, 1)]))
                    .max_presses(vec![1; 3]),
                "max_presses",
            ),
            (Puzzle::builder(Topology::Cells(2)).phases(Phases::Explicit(vec![vec![]])), "button_phases[0]"),
            (
                Puzzle::builder(Topology::Cells(2))
                    .buttons(vec![vec![(0, 1)]])
                    .phases(Phases::Explicit(vec![vec![vec![(1, 1)]]])),
                "button_phases[0]",
            ),
            (Puzzle::builder(Topology::Path(3)).labels(vec!["a".into(), "b".into()]), "labels"),
            (
                Puzzle::builder(Topology::Path(3)).labels(vec!["a".into(), "b".into(), "a".into()]),
                "labels[2]",
            ),
            (Puzzle::builder(Topology::Path(2)).button_labels(vec!["x".into()]), "button_labels"),
            (
                Puzzle::builder(Topology::Cells(1))
                    .buttons(vec![vec![(0, 1)], vec![(0, 2)]])
                    .button_labels(vec!["x".into(), "x".into()]),
                "button_labels[1]",
            ),
            (Puzzle::builder(Topology::Edges { adjacency: vec![vec![1], vec![]] }), "graph.edges"),
            (Puzzle::builder(Topology::Edges { adjacency: vec![vec![0]] }), "graph.edges"),
            (Puzzle::builder(Topology::Edges { adjacency: vec![vec![5]] }), "graph.edges"),
        ];
        for (builder, field) in cases {
            let what = format!("{builder:?}");
            let error = builder.build().expect_err(&what);
            assert_eq!(error.field(), Some(field), "{what}: {error}");
        }
    }

    /// What the builder makes is what the same puzzle file reads as.
    #[test]
    fn the_builder_and_the_file_agree() {
        let built = Puzzle::builder(Topology::Path(4))
            .name("Octopus")
            .moduli(vec![7, 8, 7, 6])
            .press(2, 1)
            .start(vec![2, 4, 5, 3])
            .labels(vec!["a".into(), "b".into(), "c".into(), "d".into()])
            .build()
            .unwrap();
        let read = crate::parse_puzzle(
            "Puzzle(name: \"Octopus\", graph: Path(4), modulus: [7, 8, 7, 6], press: (self: 2, neighbors: 1), \
             start: [2, 4, 5, 3], labels: [\"a\", \"b\", \"c\", \"d\"])",
        )
        .unwrap();
        assert_eq!(built, read);
        assert_eq!(built.with_start(vec![0, 0, 0, 7]).unwrap_err().field(), Some("start[3]"));
        assert_eq!(built.with_start(vec![0, 0, 0, 5]).unwrap().start.to_vec(), vec![0, 0, 0, 5]);
        let lights = Puzzle::builder(grid(5, 5)).target(CellValues::same(1, 25)).build().unwrap();
        assert_eq!(lights.button_count(), 25);
        assert_eq!(lights.buttons, Buttons::Graph { self_weight: 1, neighbor_weight: 1 });
    }
}
