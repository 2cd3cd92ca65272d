//! The serde mirror of a puzzle file: [`PuzzleFile`] and its parts, as written (unknown fields
//! refused). Fields of several shapes stay source text ([`RawField`]) until the graph is known.

use serde::Deserialize;
use serde::de;

/// The top level of a puzzle file, as written.
#[derive(Debug, Deserialize)]
#[serde(rename = "Puzzle", deny_unknown_fields)]
pub(crate) struct PuzzleFile<'a> {
    #[serde(default)]
    pub name: Option<String>,
    pub graph: GraphSpec,
    #[serde(borrow)]
    pub modulus: RawField<'a>,
    #[serde(default)]
    pub press: Option<PressSpec>,
    #[serde(default)]
    pub buttons: Option<Vec<Vec<(usize, i64)>>>,
    #[serde(default, borrow)]
    pub start: Option<RawField<'a>>,
    #[serde(default, borrow)]
    pub target: Option<RawField<'a>>,
    #[serde(default)]
    pub labels: Option<Vec<String>>,
    #[serde(default)]
    pub button_labels: Option<Vec<String>>,
    #[serde(default)]
    pub button_at: Option<Vec<usize>>,
    #[serde(default)]
    pub layout: Option<Vec<(f64, f64)>>,
    #[serde(default)]
    pub hide_par: Option<bool>,
    #[serde(default, borrow)]
    pub max_presses: Option<RawField<'a>>,
    #[serde(default)]
    pub intended: Option<Vec<u64>>,
    #[serde(default)]
    pub phases: Option<Vec<PressSpec>>,
    #[serde(default)]
    pub button_phases: Option<Vec<PhasedButton>>,
}

/// One button of `button_phases`: per phase, `(cell, amount)` pairs.
pub(crate) type PhasedButton = Vec<Vec<(usize, i64)>>;

/// The source text of a field that takes several shapes (`modulus`, `start`, `target`,
/// `max_presses`), read by [`read_shape`] once the number of cells is known. It borrows from
/// the source, so its place in the file is known too.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RawField<'a>(pub &'a str);

impl<'de: 'a, 'a> Deserialize<'de> for RawField<'a> {
    fn deserialize<D: de::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let raw = <&'a ron::value::RawValue>::deserialize(deserializer)?;
        Ok(RawField(raw.get_ron()))
    }
}

/// The per-cell (or per-button) lists the fast reader read, by field, in place of their text.
#[derive(Debug, Default)]
pub(crate) struct FastLists(pub Vec<(&'static str, Vec<u64>)>);

impl FastLists {
    /// The fields of several shapes a plain list may be read fast for.
    pub(crate) const KEYS: [&'static str; 4] = ["modulus", "start", "target", "max_presses"];

    /// The list read for `key`, taken out.
    pub(crate) fn take(&mut self, key: &str) -> Option<Vec<u64>> {
        let k = self.0.iter().position(|(name, _)| *name == key)?;
        Some(self.0.swap_remove(k).1)
    }
}

/// `graph:` — how the cells are connected.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) enum GraphSpec {
    Path(usize),
    Cycle(usize),
    Cells(usize),
    Grid {
        rows: usize,
        cols: usize,
        #[serde(default)]
        wrap: bool,
        #[serde(default)]
        neighborhood: NeighborhoodSpec,
        #[serde(default)]
        mask: Option<Vec<String>>,
    },
    Hex {
        rows: usize,
        cols: usize,
        #[serde(default)]
        mask: Option<Vec<String>>,
    },
    Cube(usize),
    Edges {
        cells: usize,
        edges: Vec<(usize, usize)>,
    },
}

/// `neighborhood:` of a grid — a named shape, a stencil picture, or one of those per cell class.
#[derive(Debug, Default, Deserialize)]
#[serde(rename = "Neighborhood", deny_unknown_fields)]
pub(crate) enum NeighborhoodSpec {
    #[default]
    Cross,
    King,
    Knight,
    Stencil(Vec<String>),
    Classes {
        corner: ClassSpec,
        edge: ClassSpec,
        #[serde(alias = "centre")]
        center: ClassSpec,
    },
}

/// The press shape of one cell class in `Classes(…)`.
#[derive(Debug, Deserialize)]
#[serde(rename = "Neighborhood", deny_unknown_fields)]
pub(crate) enum ClassSpec {
    Cross,
    King,
    Knight,
    Stencil(Vec<String>),
}

/// `press:` (and each of `phases:`) — what a press of a graph puzzle's cell adds to itself and
/// to each neighbour.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct PressSpec {
    #[serde(rename = "self", default = "one")]
    pub self_weight: i64,
    #[serde(default = "one")]
    pub neighbors: i64,
}

pub(super) fn one() -> i64 {
    1
}
