//! Editing a designer's puzzle text in place: set a field, replace a graph (adding nodes at the
//! end), remove a node, set the moduli, the start and target, the layout. Only the fields an edit
//! changes are rewritten ([`with_field`]), so comments, the order of the fields and every other
//! field stay as written; the per-cell lists written as lists (`modulus`, `start`, `target`,
//! `labels`, `button_labels`, `layout`, `max_presses`, `intended`) follow a change of the cells,
//! while `All(…)` and single numbers cover the new cells as written. Every result is read back,
//! so an edit gives a valid puzzle and its text, or an [`EditError`] and nothing.
//!
//! The playground's server, the page's graph editor (through it) and the Python package use
//! these; the New-puzzle text itself comes from [`crate::scaffold`].

use super::{field_text, layout_text, parse_puzzle, to_ron, with_field};
use crate::error::InputError;
use crate::model::Puzzle;

/// The most cells the graph editor works on (a graph drawn by hand is small).
pub const GRAPH_EDIT_LIMIT: usize = 4096;

/// Why an edit cannot be made.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum EditError {
    /// The text is not a struct `Puzzle(…)` whose fields can be set.
    #[error("the text is not a `Puzzle(…)` whose fields can be set")]
    NotAStruct,
    /// The text, or the edited text, does not read.
    #[error("{0}")]
    Input(InputError),
    /// A graph edit on a puzzle that is not a plain graph.
    #[error(
        "the graph editor works on graphs drawn without a picture whose buttons are the cells (Path, Cycle, Edges)"
    )]
    NotAGraph,
    /// A new graph with too few or too many cells.
    #[error("`graph.cells` must be from {least} (the cells there are) to {GRAPH_EDIT_LIMIT}")]
    Cells {
        /// The cells there are.
        least: usize,
    },
    /// A per-cell list of the wrong length.
    #[error("`{field}` has {given} values for {cells} cells")]
    Length {
        /// The field.
        field: &'static str,
        /// Its values.
        given: usize,
        /// The puzzle's cells.
        cells: usize,
    },
    /// A node to remove that is not there, or the last one.
    #[error("cannot remove node {node}: the graph has {cells} (numbered 0 to {}), and keeps at least one", cells.saturating_sub(1))]
    Node {
        /// The node asked for.
        node: usize,
        /// The cells there are.
        cells: usize,
    },
}

/// Several edits of one text, made in this order: the graph, a node removed, the moduli, the
/// start and target, the layout.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Edit {
    /// A new graph: `cells` cells (as many as there are, or more, added at the end) and edges.
    pub graph: Option<(usize, Vec<(usize, usize)>)>,
    /// A node to remove (the higher ones are renumbered down by one).
    pub remove_node: Option<usize>,
    /// New moduli, one per cell (start and target are reduced by them).
    pub moduli: Option<Vec<u64>>,
    /// A new start, one value per cell.
    pub start: Option<Vec<u64>>,
    /// A new target, one value per cell.
    pub target: Option<Vec<u64>>,
    /// A drawing centre `[x, y]` per cell (`layout:`).
    pub layout: Option<Vec<[f64; 2]>>,
}

/// `text` with the top-level field `key` set to `value` (RON text), read back.
pub fn set_field(text: &str, key: &str, value: &str) -> Result<(Puzzle, String), EditError> {
    let text = with_field(text, key, value).ok_or(EditError::NotAStruct)?;
    Ok((parse_puzzle(&text).map_err(EditError::Input)?, text))
}

/// The edits of `edit` made on `text`: the puzzle and its text (`text` itself when nothing
/// changed).
pub fn apply(text: &str, edit: &Edit) -> Result<(Puzzle, String), EditError> {
    let mut puzzle = parse_puzzle(text).map_err(EditError::Input)?;
    let mut text = text.to_string();
    if let Some((cells, edges)) = &edit.graph {
        (puzzle, text) = set_edges(&text, &puzzle, *cells, edges)?;
    }
    if let Some(node) = edit.remove_node {
        (puzzle, text) = remove_node(&text, &puzzle, node)?;
    }
    if let Some(moduli) = &edit.moduli {
        (puzzle, text) = set_moduli(&text, &puzzle, moduli)?;
    }
    if edit.start.is_some() || edit.target.is_some() {
        (puzzle, text) = set_states(&text, &puzzle, edit.start.as_deref(), edit.target.as_deref())?;
    }
    if let Some(layout) = &edit.layout {
        (puzzle, text) = set_layout(&text, &puzzle, layout)?;
    }
    Ok((puzzle, text))
}

fn graph_only(puzzle: &Puzzle) -> Result<(), EditError> {
    if puzzle.topology().picture_size().is_some() || !puzzle.buttons_are_cells() {
        return Err(EditError::NotAGraph);
    }
    Ok(())
}

fn edges_text(cells: usize, edges: &[(usize, usize)]) -> String {
    let edges: Vec<String> = edges.iter().map(|(a, b)| format!("({a}, {b})")).collect();
    format!("Edges(cells: {cells}, edges: [{}])", edges.join(", "))
}

fn list(values: impl IntoIterator<Item = String>) -> String {
    format!("[{}]", values.into_iter().collect::<Vec<_>>().join(", "))
}

fn numbers(values: &[u64]) -> String {
    list(values.iter().map(u64::to_string))
}

fn quoted(names: &[String]) -> String {
    list(names.iter().map(|name| format!("{name:?}")))
}

/// `text` with `key` set to `value` when the file writes it as a list (`[…]`).
fn set_list(text: String, key: &str, value: &str) -> Result<String, EditError> {
    if field_text(&text, key).is_some_and(|written| written.trim_start().starts_with('[')) {
        return with_field(&text, key, value).ok_or(EditError::NotAStruct);
    }
    Ok(text)
}

/// The cells' new drawing places from the old ones.
type Points<'a> = dyn Fn(&[[f64; 2]]) -> Vec<[f64; 2]> + 'a;

/// Every per-cell list of `puzzle` as `f` makes it from the puzzle's values (the cells'
/// layout as points), written where the file writes it as a list.
fn per_cell_lists(
    mut text: String,
    puzzle: &Puzzle,
    numbers_of: &dyn Fn(&str, Vec<u64>) -> Vec<u64>,
    names_of: &dyn Fn(Vec<String>) -> Vec<String>,
    points_of: &Points<'_>,
) -> Result<String, EditError> {
    let mut lists = vec![
        ("modulus", puzzle.moduli().to_vec()),
        ("start", puzzle.start().to_vec()),
        ("target", puzzle.target().to_vec()),
    ];
    if let Some(intended) = puzzle.intended() {
        lists.push(("intended", intended.to_vec()));
    }
    if let Some(limits) = puzzle.max_presses() {
        lists.push(("max_presses", limits.to_vec()));
    }
    for (key, values) in lists {
        text = set_list(text, key, &numbers(&numbers_of(key, values)))?;
    }
    for (key, labels) in [("labels", puzzle.labels()), ("button_labels", puzzle.button_labels())] {
        if let Some(labels) = labels {
            text = set_list(text, key, &quoted(&names_of(labels.to_vec())))?;
        }
    }
    if let Some(layout) = puzzle.layout() {
        text = with_field(&text, "layout", &layout_text(&points_of(layout.points())))
            .ok_or(EditError::NotAStruct)?;
    }
    Ok(text)
}

/// `text` with its graph replaced by `Edges(cells, edges)`. Cells added at the end take the
/// last cell's modulus, start and target 0, the most presses of any, a name of their number
/// (unlike every other) and a place in a row under the drawing.
pub fn set_edges(
    text: &str,
    puzzle: &Puzzle,
    cells: usize,
    edges: &[(usize, usize)],
) -> Result<(Puzzle, String), EditError> {
    graph_only(puzzle)?;
    let old = puzzle.cell_count();
    if cells < old || cells > GRAPH_EDIT_LIMIT {
        return Err(EditError::Cells { least: old });
    }
    let mut text = with_field(text, "graph", &edges_text(cells, edges)).ok_or(EditError::NotAStruct)?;
    let added = cells - old;
    if added > 0 {
        let numbers_of = |key: &str, values: Vec<u64>| {
            let fill = match key {
                "modulus" => values.last().copied().unwrap_or(2),
                "max_presses" => values.iter().copied().max().unwrap_or(0),
                _ => 0,
            };
            values.into_iter().chain(std::iter::repeat_n(fill, added)).collect()
        };
        let names_of = |mut names: Vec<String>| {
            for i in old..cells {
                let mut name = i.to_string();
                while names.contains(&name) {
                    name.push('\'');
                }
                names.push(name);
            }
            names
        };
        // The designer's drawing keeps its places; new cells go in a row under it.
        let points_of = |points: &[[f64; 2]]| {
            let left = points.iter().map(|p| p[0]).fold(f64::INFINITY, f64::min);
            let below = points.iter().map(|p| p[1]).fold(f64::NEG_INFINITY, f64::max) + 1.5;
            let added_points = (0..added).map(|k| [left + 1.5 * k as f64, below]);
            points.iter().copied().chain(added_points).collect()
        };
        text = per_cell_lists(text, puzzle, &numbers_of, &names_of, &points_of)?;
    }
    Ok((parse_puzzle(&text).map_err(EditError::Input)?, text))
}

/// `text` with node `node` removed: its edges gone, the higher nodes renumbered down by one in
/// the edges and in every per-cell list.
pub fn remove_node(text: &str, puzzle: &Puzzle, node: usize) -> Result<(Puzzle, String), EditError> {
    graph_only(puzzle)?;
    let cells = puzzle.cell_count();
    if node >= cells || cells < 2 {
        return Err(EditError::Node { node, cells });
    }
    let renumber = |i: usize| if i > node { i - 1 } else { i };
    let mut edges = Vec::new();
    for a in 0..cells {
        puzzle.topology().for_each_neighbor(a, |b| {
            if a < b && a != node && b != node {
                edges.push((renumber(a), renumber(b)));
            }
        });
    }
    let text = with_field(text, "graph", &edges_text(cells - 1, &edges)).ok_or(EditError::NotAStruct)?;
    let numbers_of = |_: &str, mut values: Vec<u64>| {
        values.remove(node);
        values
    };
    let names_of = |mut names: Vec<String>| {
        names.remove(node);
        names
    };
    let points_of = |points: &[[f64; 2]]| {
        let mut points = points.to_vec();
        points.remove(node);
        points
    };
    let text = per_cell_lists(text, puzzle, &numbers_of, &names_of, &points_of)?;
    Ok((parse_puzzle(&text).map_err(EditError::Input)?, text))
}

fn check_length(field: &'static str, values: &[u64], puzzle: &Puzzle) -> Result<(), EditError> {
    if values.len() != puzzle.cell_count() {
        return Err(EditError::Length { field, given: values.len(), cells: puzzle.cell_count() });
    }
    Ok(())
}

/// `text` with its `start` and `target` set to the puzzle's, written as the library writes
/// them (pictures on boards).
fn with_state(text: &str, puzzle: &Puzzle) -> Option<String> {
    let written = to_ron(puzzle, "");
    let text = with_field(text, "start", field_text(&written, "start")?)?;
    with_field(&text, "target", field_text(&written, "target")?)
}

/// `text` with new moduli (start and target reduced by them, 0: left as they are). When the
/// text edited in place does not read (an intended plan or a press limit the new moduli rule
/// out), the whole puzzle is written anew without those two fields.
pub fn set_moduli(text: &str, puzzle: &Puzzle, moduli: &[u64]) -> Result<(Puzzle, String), EditError> {
    check_length("moduli", moduli, puzzle)?;
    let reduce = |values: Vec<u64>| -> Vec<u64> {
        values.iter().zip(moduli).map(|(&v, &m)| if m == 0 { v } else { v % m }).collect()
    };
    let puzzle = puzzle.with_start(reduce(puzzle.start().to_vec())).map_err(EditError::Input)?;
    let puzzle = puzzle.with_target(reduce(puzzle.target().to_vec())).map_err(EditError::Input)?;
    let value = numbers(moduli);
    let in_place = with_field(text, "modulus", &value)
        .and_then(|text| with_state(&text, &puzzle))
        .and_then(|text| Some((parse_puzzle(&text).ok()?, text)));
    if let Some(done) = in_place {
        return Ok(done);
    }
    let text: String = to_ron(&puzzle, "")
        .lines()
        .filter(|line| !line.starts_with("    intended:") && !line.starts_with("    max_presses:"))
        .map(|line| {
            if line.starts_with("    modulus:") {
                format!("    modulus: {value},\n")
            } else {
                format!("{line}\n")
            }
        })
        .collect();
    Ok((parse_puzzle(&text).map_err(EditError::Input)?, text))
}

/// `text` with a new start and/or target (the whole puzzle written anew when the text edited
/// in place does not read back to the same puzzle).
pub fn set_states(
    text: &str,
    puzzle: &Puzzle,
    start: Option<&[u64]>,
    target: Option<&[u64]>,
) -> Result<(Puzzle, String), EditError> {
    let mut puzzle = puzzle.clone();
    if let Some(start) = start {
        check_length("start", start, &puzzle)?;
        puzzle = puzzle.with_start(start.to_vec()).map_err(EditError::Input)?;
    }
    if let Some(target) = target {
        check_length("target", target, &puzzle)?;
        puzzle = puzzle.with_target(target.to_vec()).map_err(EditError::Input)?;
    }
    let in_place = with_state(text, &puzzle).filter(|text| parse_puzzle(text).is_ok_and(|p| p == puzzle));
    let text = in_place.unwrap_or_else(|| to_ron(&puzzle, ""));
    Ok((puzzle, text))
}

/// `text` with `layout:` set (added when the file has none).
pub fn set_layout(text: &str, puzzle: &Puzzle, layout: &[[f64; 2]]) -> Result<(Puzzle, String), EditError> {
    let puzzle = puzzle.with_layout(Some(layout.to_vec())).map_err(EditError::Input)?;
    let in_place = with_field(text, "layout", &layout_text(layout))
        .filter(|text| parse_puzzle(text).is_ok_and(|p| p == puzzle));
    let text = in_place.unwrap_or_else(|| to_ron(&puzzle, ""));
    Ok((puzzle, text))
}
