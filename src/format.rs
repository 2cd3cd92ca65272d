//! The puzzle file format (RON) and its validation into a [`Puzzle`].
//!
//! Parsing is two steps: `ron` + serde read the text into [`PuzzleFile`], which mirrors the file
//! (syntax errors carry ron's line and column); [`PuzzleFile::into_puzzle`] then checks every
//! field against the others and resolves shorthand (`All(v)`, `Rows([...])`, one modulus for
//! all cells). Validation errors name the field and point at it in the source. The format is
//! documented for users in FORMAT.md.

use serde::Deserialize;

use crate::error::{InputError, InputErrorKind, Position};
use crate::model::{Buttons, CellValues, Neighborhood, Phases, Puzzle, Topology};

/// The top level of a puzzle file, as written.
#[derive(Debug, Deserialize)]
#[serde(rename = "Puzzle", deny_unknown_fields)]
pub struct PuzzleFile {
    #[serde(default)]
    pub name: Option<String>,
    pub graph: GraphSpec,
    pub modulus: ModulusSpec,
    #[serde(default)]
    pub press: Option<PressSpec>,
    #[serde(default)]
    pub buttons: Option<Vec<Vec<(usize, i64)>>>,
    #[serde(default)]
    pub start: Option<StateSpec>,
    #[serde(default)]
    pub target: Option<StateSpec>,
    #[serde(default)]
    pub labels: Option<Vec<String>>,
    #[serde(default)]
    pub max_presses: Option<LimitSpec>,
    #[serde(default)]
    pub intended: Option<Vec<u64>>,
    #[serde(default)]
    pub phases: Option<Vec<PressSpec>>,
    #[serde(default)]
    pub button_phases: Option<Vec<PhasedButton>>,
}

/// One button of `button_phases`: per phase, `(cell, amount)` pairs.
pub type PhasedButton = Vec<Vec<(usize, i64)>>;

/// `max_presses:` — a limit per button, or `All(k)`.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub enum LimitSpec {
    Shorthand(LimitShorthand),
    List(Vec<u64>),
}

#[derive(Debug, Deserialize)]
pub enum LimitShorthand {
    All(u64),
}

/// `graph:` — how the cells are connected.
#[derive(Debug, Deserialize)]
pub enum GraphSpec {
    Path(usize),
    Cycle(usize),
    Cells(usize),
    Grid {
        rows: usize,
        cols: usize,
        #[serde(default)]
        wrap: bool,
        #[serde(default)]
        neighborhood: Neighborhood,
    },
    Edges {
        cells: usize,
        edges: Vec<(usize, usize)>,
    },
}

/// `modulus:` — one number for every cell, or a list with one per cell.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub enum ModulusSpec {
    One(u64),
    PerCell(Vec<u64>),
}

/// `press:` — what a press of a graph puzzle's cell adds to itself and to each neighbour.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PressSpec {
    #[serde(rename = "self", default = "one")]
    pub self_weight: i64,
    #[serde(default = "one")]
    pub neighbors: i64,
}

fn one() -> i64 {
    1
}

/// A state: a list with one value per cell, `All(v)`, or a grid picture `Rows([...])`.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub enum StateSpec {
    Shorthand(StateShorthand),
    List(Vec<u64>),
}

#[derive(Debug, Deserialize)]
pub enum StateShorthand {
    All(u64),
    Rows(Vec<String>),
}

/// The most cells a puzzle may have (a 10,000 × 10,000 board).
pub const MAX_CELLS: usize = 100_000_000;

/// Reads and validates a puzzle from RON text.
pub fn parse_puzzle(source: &str) -> Result<Puzzle, InputError> {
    let options = ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME);
    let file: PuzzleFile = options.from_str(source).map_err(|e| syntax_error(&e))?;
    file.into_puzzle().map_err(|mut e| {
        if let InputErrorKind::Invalid { field, .. } = &e.kind {
            e.position = locate_field(source, field);
        }
        e
    })
}

fn syntax_error(e: &ron::error::SpannedError) -> InputError {
    let mut message = e.code.to_string();
    if message.contains("untagged enum StateSpec") {
        message =
            "expected a state: a list of values like [0, 1, 2], All(value) or Rows([\"#.#\", ...])".into();
    } else if message.contains("untagged enum LimitSpec") {
        message = "expected press limits: a list with one whole number per button, or All(k)".into();
    } else if message.contains("untagged enum ModulusSpec") {
        message = "expected a modulus: a whole number >= 2, or a list of them with one per cell".into();
    }
    InputError {
        position: Some(Position { line: e.span.start.line, column: e.span.start.col }),
        kind: InputErrorKind::Syntax { message },
    }
}

/// Where the key of a field path (`start[3]` → `start`, `graph.rows` → `rows`) is written,
/// skipping comments (nested block comments too), strings and raw strings as ron does.
fn locate_field(source: &str, field: &str) -> Option<Position> {
    let key = field.rsplit('.').next().unwrap_or(field).split('[').next().unwrap_or(field);
    let bytes = source.as_bytes();
    let mut i = 0usize;
    // Line starts are counted from the bytes consumed, so newlines anywhere are seen.
    let position_of = |at: usize| {
        let before = &source[..at];
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |k| k + 1);
        Position { line, column: source[line_start..at].chars().count() + 1 }
    };
    while i < bytes.len() {
        match bytes[i] {
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                let mut depth = 0usize;
                while i < bytes.len() {
                    if bytes[i] == b'/' && bytes.get(i + 1) == Some(&b'*') {
                        depth += 1;
                        i += 2;
                    } else if bytes[i] == b'*' && bytes.get(i + 1) == Some(&b'/') {
                        depth -= 1;
                        i += 2;
                        if depth == 0 {
                            break;
                        }
                    } else {
                        i += 1;
                    }
                }
            }
            b'r' if matches!(bytes.get(i + 1), Some(b'"' | b'#')) => {
                // r"…", r#"…"#, r##"…"## …
                let mut j = i + 1;
                let mut hashes = 0;
                while bytes.get(j) == Some(&b'#') {
                    hashes += 1;
                    j += 1;
                }
                if bytes.get(j) != Some(&b'"') {
                    i += 1;
                    continue;
                }
                let closing: String = std::iter::once('"').chain(std::iter::repeat_n('#', hashes)).collect();
                i = match source[j + 1..].find(&closing) {
                    Some(k) => j + 1 + k + closing.len(),
                    None => bytes.len(),
                };
            }
            b'"' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
            }
            c if c.is_ascii_alphabetic() || c == b'_' => {
                let begin = i;
                while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                    i += 1;
                }
                let rest = source[i..].trim_start_matches([' ', '\t', '\n', '\r']);
                if &source[begin..i] == key && rest.starts_with(':') {
                    return Some(position_of(begin));
                }
            }
            _ => i += 1,
        }
    }
    None
}

impl PuzzleFile {
    /// Validates the file and builds the puzzle.
    pub fn into_puzzle(self) -> Result<Puzzle, InputError> {
        let topology = self.graph.into_topology()?;
        let cells = topology.cell_count();
        let moduli = match self.modulus {
            ModulusSpec::One(m) if m < 2 => {
                return Err(InputError::invalid(
                    "modulus",
                    format!("is {m}; a cell must count modulo at least 2"),
                ));
            }
            ModulusSpec::One(m) => CellValues::same(m, cells),
            ModulusSpec::PerCell(list) => {
                if list.len() != cells {
                    return Err(InputError::invalid(
                        "modulus",
                        format!(
                            "has {} but the graph has {cells} cells (give one number for all cells, or one per cell)",
                            plural(list.len(), "value")
                        ),
                    ));
                }
                if let Some((i, &m)) = list.iter().enumerate().find(|&(_, &m)| m < 2) {
                    return Err(InputError::invalid(
                        format!("modulus[{i}]"),
                        format!("is {m}; a cell must count modulo at least 2"),
                    ));
                }
                CellValues::from(list)
            }
        };
        let phases = match (&self.phases, &self.button_phases, &self.buttons) {
            (Some(_), Some(_), _) => {
                return Err(InputError::invalid("phases", "give `phases` or `button_phases`, not both"));
            }
            (Some(list), None, None) => {
                if list.is_empty() {
                    return Err(InputError::invalid("phases", "needs at least one phase"));
                }
                let sum = list
                    .iter()
                    .fold((0i128, 0i128), |(a, b), p| (a + p.self_weight as i128, b + p.neighbors as i128));
                if let Some(press) = &self.press
                    && (press.self_weight as i128, press.neighbors as i128) != sum
                {
                    return Err(InputError::invalid(
                        "press",
                        format!(
                            "is (self: {}, neighbors: {}) but the phases add up to (self: {}, neighbors: {}); \
                             leave `press` out or make them agree",
                            press.self_weight, press.neighbors, sum.0, sum.1
                        ),
                    ));
                }
                Some(Phases::Graph(list.iter().map(|p| (p.self_weight, p.neighbors)).collect()))
            }
            (Some(_), None, Some(_)) => {
                return Err(InputError::invalid(
                    "phases",
                    "is for graph presses; with explicit buttons write `button_phases`",
                ));
            }
            (None, Some(list), _) => {
                for (j, phases) in list.iter().enumerate() {
                    if phases.is_empty() {
                        return Err(InputError::invalid(
                            format!("button_phases[{j}]"),
                            "needs at least one phase",
                        ));
                    }
                    for &(cell, _) in phases.iter().flatten() {
                        if cell >= cells {
                            return Err(InputError::invalid(
                                format!("button_phases[{j}]"),
                                format!("names cell {cell}, but cells are numbered 0 to {}", cells - 1),
                            ));
                        }
                    }
                }
                Some(Phases::Explicit(list.clone()))
            }
            (None, None, _) => None,
        };
        let buttons = match (self.buttons, &phases) {
            (None, Some(Phases::Explicit(list))) => {
                Buttons::Explicit(list.iter().map(|p| p.iter().flatten().copied().collect()).collect())
            }
            (Some(list), _) => {
                for (j, button) in list.iter().enumerate() {
                    for &(cell, _) in button {
                        if cell >= cells {
                            return Err(InputError::invalid(
                                format!("buttons[{j}]"),
                                format!("names cell {cell}, but cells are numbered 0 to {}", cells - 1),
                            ));
                        }
                    }
                }
                Buttons::Explicit(list)
            }
            (None, _) => match &phases {
                // Summed in 128 bits: a file has far fewer than 2^64 phases, so this is exact.
                Some(Phases::Graph(list)) => Buttons::Graph {
                    self_weight: list.iter().map(|p| i128::from(p.0)).sum(),
                    neighbor_weight: list.iter().map(|p| i128::from(p.1)).sum(),
                },
                _ => {
                    let press = self.press.unwrap_or(PressSpec { self_weight: 1, neighbors: 1 });
                    Buttons::Graph {
                        self_weight: press.self_weight.into(),
                        neighbor_weight: press.neighbors.into(),
                    }
                }
            },
        };
        if let (Some(Phases::Explicit(list)), Buttons::Explicit(buttons)) = (&phases, &buttons) {
            if list.len() != buttons.len() {
                return Err(InputError::invalid(
                    "button_phases",
                    format!("has {} buttons but `buttons` has {}", list.len(), buttons.len()),
                ));
            }
            for (j, (phases, button)) in list.iter().zip(buttons).enumerate() {
                let sum: Vec<(usize, i64)> = phases.iter().flatten().copied().collect();
                if !same_effect(&sum, button, &moduli) {
                    return Err(InputError::invalid(
                        format!("button_phases[{j}]"),
                        format!(
                            "adds up to a different effect than buttons[{j}]; leave `buttons` out or make them agree"
                        ),
                    ));
                }
            }
        }

        let start = resolve_state("start", self.start, &topology, &moduli)?;
        let target = resolve_state("target", self.target, &topology, &moduli)?;
        let button_count = match &buttons {
            Buttons::Graph { .. } => cells,
            Buttons::Explicit(list) => list.len(),
        };
        let max_presses = match self.max_presses {
            None => None,
            Some(LimitSpec::Shorthand(LimitShorthand::All(k))) => Some(vec![k; button_count]),
            Some(LimitSpec::List(list)) => {
                if list.len() != button_count {
                    return Err(InputError::invalid(
                        "max_presses",
                        format!(
                            "has {} but the puzzle has {button_count} buttons",
                            plural(list.len(), "limit")
                        ),
                    ));
                }
                Some(list)
            }
        };
        if max_presses.is_some() && phases.is_some() {
            return Err(InputError::invalid(
                "max_presses",
                "cannot be combined with staged presses (phases) yet",
            ));
        }
        if let Some(intended) = &self.intended
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
        Ok(Puzzle {
            name: self.name,
            topology,
            moduli,
            buttons,
            start,
            target,
            labels: self.labels,
            max_presses,
            intended: self.intended,
            phases,
        })
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

/// `1 value`, `3 values`.
fn plural(n: usize, noun: &str) -> String {
    if n == 1 { format!("1 {noun}") } else { format!("{n} {noun}s") }
}

/// Whether two lists of `(cell, amount)` add the same amounts to every cell.
fn same_effect(a: &[(usize, i64)], b: &[(usize, i64)], moduli: &CellValues) -> bool {
    let total = |list: &[(usize, i64)]| {
        let mut out = std::collections::BTreeMap::new();
        for &(cell, amount) in list {
            let m = moduli[cell];
            let v = out.entry(cell).or_insert(0u64);
            *v = crate::algebra::arith::add_mod(*v, crate::algebra::arith::reduce_signed(amount, m), m);
        }
        out.retain(|_, v| *v != 0);
        out
    };
    total(a) == total(b)
}

/// The value a picture character stands for: `.` 0, `#` 1, digits, then letters from 10.
fn picture_value(c: char) -> Option<u8> {
    match c {
        '.' => Some(0),
        '#' => Some(1),
        _ => c.to_digit(36).map(|d| d as u8),
    }
}

fn resolve_state(
    field: &str,
    spec: Option<StateSpec>,
    topology: &Topology,
    moduli: &CellValues,
) -> Result<CellValues, InputError> {
    let cells = moduli.len();
    let too_large = |v: u64| match moduli.uniform() {
        Some(m) => (v >= m).then_some((0, m)),
        None => moduli.iter().enumerate().find(|&(_, &m)| v >= m).map(|(i, &m)| (i, m)),
    };
    let values = match spec {
        // Every modulus is at least 2, so 0 always fits.
        None => return Ok(CellValues::same(0, cells)),
        Some(StateSpec::Shorthand(StateShorthand::All(v))) => {
            if let Some((i, m)) = too_large(v) {
                return Err(InputError::invalid(
                    field,
                    format!("All({v}) is too large for cell {i}, which counts modulo {m}"),
                ));
            }
            return Ok(CellValues::same(v, cells));
        }
        Some(StateSpec::List(list)) => {
            if list.len() != cells {
                return Err(InputError::invalid(
                    field,
                    format!("has {} but the puzzle has {cells} cells", plural(list.len(), "value")),
                ));
            }
            CellValues::from(list)
        }
        Some(StateSpec::Shorthand(StateShorthand::Rows(rows))) => {
            let Some((grid_rows, grid_cols)) = topology.grid_shape() else {
                return Err(InputError::invalid(field, "Rows([...]) pictures are only for Grid puzzles"));
            };
            if rows.len() != grid_rows {
                return Err(InputError::invalid(
                    field,
                    format!("the picture has {} but the grid has {grid_rows}", plural(rows.len(), "row")),
                ));
            }
            // Picture values are below 36: one byte per cell.
            let mut values: Vec<u8> = Vec::with_capacity(cells);
            for (r, row) in rows.iter().enumerate() {
                let before = values.len();
                for c in row.chars().filter(|c| !c.is_whitespace()) {
                    let Some(v) = picture_value(c) else {
                        return Err(InputError::invalid(
                            format!("{field}[{r}]"),
                            format!(
                                "'{c}' is not a cell value (use . or 0, # or 1, digits, then a-z for 10-35)"
                            ),
                        ));
                    };
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
            CellValues::from_bytes(values)
        }
    };
    let uniform = moduli.uniform();
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

/// Writes a puzzle back as RON in the documented format: reading the text gives the same
/// puzzle. Grid states are pictures when every value fits one character.
pub fn to_ron(puzzle: &Puzzle, comment: &str) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    for line in comment.lines() {
        let _ = writeln!(out, "// {line}");
    }
    out.push_str("Puzzle(\n");
    if let Some(name) = &puzzle.name {
        let _ = writeln!(out, "    name: {name:?},");
    }
    let graph = match &puzzle.topology {
        Topology::Cells(n) => format!("Cells({n})"),
        Topology::Path(n) => format!("Path({n})"),
        Topology::Cycle(n) => format!("Cycle({n})"),
        Topology::Grid { rows, cols, wrap, neighborhood } => {
            let mut g = format!("Grid(rows: {rows}, cols: {cols}");
            if *wrap {
                g.push_str(", wrap: true");
            }
            if *neighborhood == Neighborhood::King {
                g.push_str(", neighborhood: King");
            }
            g + ")"
        }
        Topology::Edges { adjacency } => {
            let edges: Vec<String> = adjacency
                .iter()
                .enumerate()
                .flat_map(|(a, list)| {
                    list.iter().filter(move |&&b| a < b).map(move |&b| format!("({a}, {b})"))
                })
                .collect();
            format!("Edges(cells: {}, edges: [{}])", adjacency.len(), edges.join(", "))
        }
    };
    let _ = writeln!(out, "    graph: {graph},");
    let m0 = puzzle.moduli[0];
    if puzzle.moduli.iter().all(|&m| m == m0) {
        let _ = writeln!(out, "    modulus: {m0},");
    } else {
        let _ = writeln!(out, "    modulus: {},", list_text(&puzzle.moduli.to_vec()));
    }
    let pairs = |list: &[(usize, i64)]| {
        let items: Vec<String> = list.iter().map(|(c, a)| format!("({c}, {a})")).collect();
        format!("[{}]", items.join(", "))
    };
    match (&puzzle.phases, &puzzle.buttons) {
        (Some(Phases::Graph(phases)), _) => {
            let items: Vec<String> =
                phases.iter().map(|(s, n)| format!("(self: {s}, neighbors: {n})")).collect();
            let _ = writeln!(out, "    phases: [{}],", items.join(", "));
        }
        (Some(Phases::Explicit(buttons)), _) => {
            out.push_str("    button_phases: [\n");
            for phases in buttons {
                let items: Vec<String> = phases.iter().map(|p| pairs(p)).collect();
                let _ = writeln!(out, "        [{}],", items.join(", "));
            }
            out.push_str("    ],\n");
        }
        (None, Buttons::Graph { self_weight, neighbor_weight }) => {
            let _ = writeln!(out, "    press: (self: {self_weight}, neighbors: {neighbor_weight}),");
        }
        (None, Buttons::Explicit(buttons)) => {
            out.push_str("    buttons: [\n");
            for b in buttons {
                let _ = writeln!(out, "        {},", pairs(b));
            }
            out.push_str("    ],\n");
        }
    }
    let _ = writeln!(out, "    start: {},", state_text(puzzle, &puzzle.start.to_vec()));
    let _ = writeln!(out, "    target: {},", state_text(puzzle, &puzzle.target.to_vec()));
    if let Some(labels) = &puzzle.labels {
        let items: Vec<String> = labels.iter().map(|l| format!("{l:?}")).collect();
        let _ = writeln!(out, "    labels: [{}],", items.join(", "));
    }
    if let Some(limits) = &puzzle.max_presses {
        let _ = writeln!(out, "    max_presses: {},", list_text(limits));
    }
    if let Some(intended) = &puzzle.intended {
        let _ = writeln!(out, "    intended: {},", list_text(intended));
    }
    out.push_str(")\n");
    out
}

fn list_text(values: &[u64]) -> String {
    let items: Vec<String> = values.iter().map(u64::to_string).collect();
    format!("[{}]", items.join(", "))
}

/// `All(v)`, a grid picture, or a list.
fn state_text(puzzle: &Puzzle, state: &[u64]) -> String {
    if state.iter().all(|&v| v == state[0]) {
        return format!("All({})", state[0]);
    }
    match puzzle.topology.grid_shape() {
        Some((_, cols)) if state.iter().all(|&v| v < 36) => {
            let rows: Vec<String> = state
                .chunks(cols)
                .map(|row| {
                    let text: String = row
                        .iter()
                        .map(|&v| match v {
                            0 => '.',
                            1 => '#',
                            _ => char::from_digit(v as u32, 36).unwrap_or('?'),
                        })
                        .collect();
                    format!("        \"{text}\",")
                })
                .collect();
            format!("Rows([\n{}\n    ])", rows.join("\n"))
        }
        _ => list_text(state),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Writing a puzzle and reading it back gives the same puzzle, for every shipped file.
    #[test]
    fn round_trip_of_shipped_puzzles() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/puzzles");
        for entry in std::fs::read_dir(dir).expect("puzzles/") {
            let path = entry.expect("entry").path();
            let puzzle = parse_puzzle(&std::fs::read_to_string(&path).expect("readable")).expect("valid");
            let text = to_ron(&puzzle, "round trip");
            let again = parse_puzzle(&text).unwrap_or_else(|e| panic!("{}: {e}\n{text}", path.display()));
            assert_eq!(again, puzzle, "{}", path.display());
        }
    }
}
