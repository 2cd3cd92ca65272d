//! What a playable export embeds: the board the page draws, what each press does, the par, a
//! fewest plan and the quiet-pattern basis, so that a page with no server can play a level and
//! hint from any position the player reaches. The front-ends only render it (the command line
//! and the playground's server as a self-contained HTML page).
//!
//! Why hints always work offline: the positions a player reaches before the win are the start
//! plus full presses `p` (a staged press is cut short only by the win), so the plans from there
//! are `z − p + k (mod L)` for a particular plan `z` of the start and any quiet pattern `k`.
//! [`Level::cases`] holds one `z` per way a game can end (in full presses, or with a staged
//! press cut short after `k` phases: `A·z ≡ target − start − P_k·e_j`), and
//! [`Level::quiet_basis`] the quiet patterns: every quiet pattern is `Σ t_g·g (mod L)` for
//! exactly one choice of `0 ≤ t_g < order_g`. The page walks these combinations when they are
//! few (the hint is then a press of a fewest plan) and otherwise takes the rest of a proven
//! fewest plan when the presses made are part of it, or else shortens the plans it knows (each
//! ending's, the fewest plan's rest, the last hint's) greedily with single quiet patterns: the
//! hint then leads to a solution, one press closer each time it is followed, not always by a
//! fewest plan.
//!
//! Integers that may pass 2^53 (press counts, periods, orders) are decimal strings; cell values
//! and amounts are numbers below their modulus.
//!
//! ```
//! use modsolve::export::{ExportOptions, level};
//!
//! let puzzle = modsolve::parse_puzzle(
//!     "Puzzle(graph: Path(4), modulus: [7, 8, 7, 6], press: (self: 2, neighbors: 1), start: [2, 4, 5, 3])",
//! )
//! .unwrap();
//! let level = level(&puzzle, "octopus.ron", &ExportOptions::default())?;
//! assert_eq!((level.par.as_str(), level.par_proven), ("18", true));
//! assert_eq!(level.quiet_basis.iter().map(|g| g.order.parse::<u64>().unwrap()).product::<u64>(), 2352);
//! # Ok::<(), modsolve::export::ExportError>(())
//! ```

use std::cmp::Ordering;

use num_bigint::BigUint;
use serde::Serialize;

use crate::analysis::Options;
use crate::difficulty::{DistributionKind, DistributionOptions};
use crate::model::Puzzle;
use crate::report::SCHEMA_VERSION;
use crate::report::svg::{Layout, PALETTE, Palette, TEXT_CELL_LIMIT};

/// Puzzles of more cells than this are not exported: a page plays them slowly and the file
/// would weigh megabytes.
pub const CELL_LIMIT: usize = 65_536;

/// At most this many entries (quiet patterns × buttons) of the basis are embedded; past it the
/// basis is left out ([`Level::basis_complete`] is false) and hints lead to a solution without
/// being a fewest press.
#[doc(hidden)]
pub const BASIS_ENTRY_LIMIT: usize = 1_000_000;

/// What the playground's page draws: the `board` of `POST /api/analyse`.
#[derive(Clone, Debug, Serialize)]
pub struct Board {
    /// The puzzle's name.
    pub name: Option<String>,
    /// Cells.
    pub cells: usize,
    /// Buttons.
    pub buttons: usize,
    /// Whether each button is a cell (then a click on a cell presses it).
    pub buttons_are_cells: bool,
    /// Whether presses are staged (phases).
    pub staged: bool,
    /// Where each cell is drawn.
    pub layout: Layout,
    /// What each cell counts modulo.
    pub moduli: PerCell,
    /// The start.
    pub start: PerCell,
    /// The target.
    pub target: PerCell,
    /// The cells' labels, when given.
    pub labels: Option<Vec<String>>,
    /// The buttons' names, when buttons are not cells.
    pub button_names: Option<Vec<String>>,
    /// What each button adds, `(cell, amount)` pairs, for a preview of a press; `None` on
    /// boards drawn as pixels (or with more effects than a preview is worth sending).
    pub effects: Option<Vec<Vec<(usize, u64)>>>,
    /// The edges `[a, b]` (`a < b`) of a graph drawn without a picture whose buttons are its
    /// cells (paths, cycles, `Edges`), for the playground's graph editor; `None` otherwise or
    /// past [`crate::report::svg::TEXT_CELL_LIMIT`] cells.
    pub edges: Option<Vec<[usize; 2]>>,
    /// Whether players see the par only once the level is won (`hide_par: true`; written only
    /// then).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub hide_par: bool,
}

/// One value per cell, written as one number when every cell has it: a 2000×2000 board of one
/// modulus starting at all 1 is three numbers, not three lists of four million (24 MB).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum PerCell {
    /// Every cell has this value.
    Same(u64),
    /// Each cell's value, in cell order.
    Each(Vec<u64>),
}

impl PerCell {
    /// The values of `cells`: [`PerCell::Same`] when they are all equal (and not empty).
    pub fn of(cells: &crate::values::CellValues) -> PerCell {
        match cells.uniform() {
            Some(value) => PerCell::Same(value),
            None => PerCell::Each(cells.to_vec()),
        }
    }

    /// Cell `i`'s value.
    pub fn get(&self, i: usize) -> Option<u64> {
        match self {
            PerCell::Same(v) => Some(*v),
            PerCell::Each(list) => list.get(i).copied(),
        }
    }
}

/// [`Board::edges`] of `puzzle`.
fn graph_edges(puzzle: &Puzzle) -> Option<Vec<[usize; 2]>> {
    let topology = puzzle.topology();
    let cells = puzzle.cell_count();
    if topology.picture_size().is_some()
        || !puzzle.buttons_are_cells()
        || cells > crate::report::svg::TEXT_CELL_LIMIT
    {
        return None;
    }
    let mut edges = Vec::new();
    for a in 0..cells {
        topology.for_each_neighbor(a, |b| {
            if a < b {
                edges.push([a, b]);
            }
        });
    }
    Some(edges)
}

/// The most `(cell, amount)` pairs a board document lists for previews.
const MOST_EFFECTS: usize = 100_000;

/// [`Board::effects`] of `puzzle`.
fn preview_effects(puzzle: &Puzzle) -> Option<Vec<Vec<(usize, u64)>>> {
    if puzzle.cell_count() > crate::report::svg::TEXT_CELL_LIMIT || puzzle.button_count() > MOST_EFFECTS {
        return None;
    }
    let mut total = 0;
    let mut out = Vec::with_capacity(puzzle.button_count());
    for j in 0..puzzle.button_count() {
        let effects = puzzle.effects(j);
        total += effects.len();
        if total > MOST_EFFECTS {
            return None;
        }
        out.push(effects);
    }
    Some(out)
}

/// The board document of a puzzle.
#[doc(hidden)]
pub fn board(puzzle: &Puzzle) -> Board {
    let buttons_are_cells = puzzle.buttons_are_cells();
    Board {
        name: puzzle.name().map(str::to_string),
        cells: puzzle.cell_count(),
        buttons: puzzle.button_count(),
        buttons_are_cells,
        staged: puzzle.phases().is_some(),
        layout: crate::report::svg::layout(puzzle),
        moduli: PerCell::of(puzzle.moduli()),
        start: PerCell::of(puzzle.start()),
        target: PerCell::of(puzzle.target()),
        labels: puzzle.labels().map(<[String]>::to_vec),
        button_names: (!buttons_are_cells)
            .then(|| (0..puzzle.button_count()).map(|j| puzzle.button_name(j)).collect()),
        effects: preview_effects(puzzle),
        edges: graph_edges(puzzle),
        hide_par: puzzle.hide_par(),
    }
}

/// A staged press stopped after `phases` phases because the puzzle was solved.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Cut {
    /// The button.
    pub button: usize,
    /// The phases of its last press that ran.
    pub phases: usize,
}

/// The exported level's fewest plan as its document writes it: presses per button (decimal),
/// and the press cut short by the win, if any (counted in `presses`). (The plan itself, with
/// its proof and bound, is [`crate::solve::Plan`].)
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PlanEntry {
    /// Presses started per button.
    pub presses: Vec<String>,
    /// Staged presses: the last press, cut short by the win.
    pub cut: Option<Cut>,
}

/// One way a game ends and a plan of full presses for it: `A·z ≡ target − start` (no cut), or
/// `target − start − P_k·e_j` (button `j`'s last press cut after `k` phases).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Case {
    /// The cut press after the full presses, if any.
    pub cut: Option<Cut>,
    /// Full presses per button, each below its period (decimal).
    pub presses: Vec<String>,
}

/// A quiet pattern of the basis and its additive order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Generator {
    /// Presses per button (decimal).
    pub presses: Vec<String>,
    /// Adding the pattern this many times changes nothing (decimal).
    pub order: String,
}

/// Everything a page needs to play one level offline.
#[derive(Clone, Debug, Serialize)]
pub struct Level {
    /// The file the level came from (its name for people and the key of its progress).
    pub file: String,
    /// What the page draws.
    pub board: Board,
    /// Per button, per phase (one phase without staged presses), the `(cell, amount)` pairs it
    /// adds, amounts reduced below the cell's modulus.
    pub effects: Vec<Vec<Vec<(usize, u64)>>>,
    /// The most times each button may be pressed, when limited.
    pub max_presses: Option<Vec<u64>>,
    /// Per button, the presses that change nothing (decimal).
    pub periods: Vec<String>,
    /// The fewest presses (decimal).
    pub par: String,
    /// Whether no plan has fewer presses (within the analysis's budget).
    pub par_proven: bool,
    /// A plan of `par` presses.
    pub fewest: PlanEntry,
    /// A plan of full presses for each way a game can end that has one.
    pub cases: Vec<Case>,
    /// Quiet patterns generating every plan that changes nothing (see the module doc).
    pub quiet_basis: Vec<Generator>,
    /// Whether `quiet_basis` generates every quiet pattern (false: left out as too large).
    pub basis_complete: bool,
    /// The mean par over every solvable start of the board, when counted exactly (packs order
    /// levels of equal par by it).
    pub mean_par: Option<f64>,
}

/// A page's document: one level, or a pack of levels in the order they are played.
#[derive(Clone, Debug, Serialize)]
#[non_exhaustive]
pub struct Document {
    /// The schema version of the documents (`SCHEMA_VERSION`).
    pub version: u32,
    /// The board colours.
    pub palette: Palette,
    /// Boards of more cells are drawn a pixel a cell, without numbers.
    pub text_cell_limit: usize,
    /// The pack's name (its folder) for a pack; `None` for one level.
    pub pack: Option<String>,
    /// The levels, easiest first for a pack.
    pub levels: Vec<Level>,
}

impl Document {
    /// The document of one level.
    pub fn single(level: Level) -> Document {
        Document {
            version: SCHEMA_VERSION,
            palette: PALETTE,
            text_cell_limit: TEXT_CELL_LIMIT,
            pack: None,
            levels: vec![level],
        }
    }

    /// A pack of levels, ordered by [`order`].
    pub fn pack(name: impl Into<String>, mut levels: Vec<Level>) -> Document {
        order(&mut levels);
        Document {
            version: SCHEMA_VERSION,
            palette: PALETTE,
            text_cell_limit: TEXT_CELL_LIMIT,
            pack: Some(name.into()),
            levels,
        }
    }
}

/// How a level is exported.
#[derive(Clone, Copy, Debug, Default)]
#[non_exhaustive]
pub struct ExportOptions {
    /// The analysis that finds the par (its budget, timeout and memory limit).
    pub analysis: Options,
    /// Also count the par of every solvable start exactly, when there are at most
    /// [`MEAN_PAR_STATES`] ([`Level::mean_par`]).
    pub mean_par: bool,
}

/// [`Level::mean_par`] is counted for boards of at most this many solvable starts.
pub const MEAN_PAR_STATES: u64 = 1 << 20;

/// Why a level is not exported.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ExportError {
    /// No plan reaches the target: there is nothing to play.
    #[error("no plan solves it, so there is nothing to play")]
    Unsolvable,
    /// Too many cells to play in a page.
    #[error("{cells} cells is too many to export (at most {CELL_LIMIT})")]
    TooLarge {
        /// The puzzle's cells.
        cells: usize,
    },
    /// The analysis stopped before it knew whether the level is solvable.
    #[error("the analysis stopped before it decided whether the level is solvable")]
    Undecided,
    /// An error of the analysis.
    #[error(transparent)]
    Analysis(#[from] crate::Error),
}

impl From<crate::InternalError> for ExportError {
    fn from(e: crate::InternalError) -> Self {
        ExportError::Analysis(e.into())
    }
}

fn decimal(values: &[BigUint]) -> Vec<String> {
    values.iter().map(BigUint::to_string).collect()
}

/// The export of one level: analyses it (par and fewest plan), solves every way a game can end
/// and takes the quiet basis. Refuses unsolvable and undecided levels.
pub fn level(puzzle: &Puzzle, file: &str, options: &ExportOptions) -> Result<Level, ExportError> {
    if puzzle.cell_count() > CELL_LIMIT {
        return Err(ExportError::TooLarge { cells: puzzle.cell_count() });
    }
    let analysis = Options { objective: crate::Objective::Total, list_all: false, ..options.analysis };
    let report = crate::analyse(puzzle, &analysis)?;
    match report.solvable {
        Some(true) => {}
        Some(false) => return Err(ExportError::Unsolvable),
        None => return Err(ExportError::Undecided),
    }
    let fewest = report.fewest.as_ref().ok_or(ExportError::Undecided)?;
    let (answer, cases) = cases(puzzle)?;
    let entries = answer.quiet_basis.len().saturating_mul(puzzle.button_count());
    let basis_complete = answer.has_full_basis() && entries <= BASIS_ENTRY_LIMIT;
    let quiet_basis = if basis_complete {
        answer
            .quiet_basis
            .iter()
            .map(|g| Generator { presses: decimal(&g.presses), order: g.order.to_string() })
            .collect()
    } else {
        Vec::new()
    };
    let effects = (0..puzzle.button_count())
        .map(|j| (0..puzzle.phase_count(j)).map(|k| puzzle.phase_effects(j, k)).collect())
        .collect();
    let mean_par = if options.mean_par { mean_par(puzzle, &options.analysis) } else { None };
    Ok(Level {
        file: file.to_string(),
        board: board(puzzle),
        effects,
        max_presses: puzzle.max_presses().map(<[u64]>::to_vec),
        periods: decimal(&answer.periods),
        par: fewest.total().to_string(),
        par_proven: fewest.proof.is_proven(),
        fewest: PlanEntry {
            presses: decimal(&fewest.presses.to_big()),
            cut: fewest.partial.map(|p| Cut { button: p.button, phases: p.phases }),
        },
        cases,
        quiet_basis,
        basis_complete,
        mean_par,
    })
}

/// The answer (periods and quiet basis) and a plan of full presses for every way a game can end
/// that has one: in full presses, and (staged presses) with each button's last press cut after
/// each of its phases but the last.
fn cases(puzzle: &Puzzle) -> Result<(crate::Answer, Vec<Case>), ExportError> {
    if puzzle.phases().is_none() {
        let answer = crate::solve::solve(puzzle)?;
        let presses = answer.presses.clone().ok_or(ExportError::Unsolvable)?;
        return Ok((answer, vec![Case { cut: None, presses: decimal(&presses) }]));
    }
    let d = crate::solve::difference(puzzle);
    let mut cuts = vec![None];
    let mut differences = vec![d.clone()];
    for j in 0..puzzle.button_count() {
        let mut dk = d.clone();
        for k in 1..puzzle.phase_count(j) {
            for (i, a) in puzzle.phase_effects(j, k - 1) {
                dk[i] = crate::algebra::arith::sub_mod(dk[i], a, puzzle.moduli()[i]);
            }
            cuts.push(Some(Cut { button: j, phases: k }));
            differences.push(dk.clone());
        }
    }
    let (answer, solutions) = crate::solve::solve_differences(puzzle, &differences)?;
    let cases: Vec<Case> = cuts
        .into_iter()
        .zip(solutions)
        .filter_map(|(cut, z)| Some(Case { cut, presses: decimal(&z?) }))
        .collect();
    if cases.is_empty() {
        return Err(ExportError::Unsolvable);
    }
    Ok((answer, cases))
}

/// The mean par over every solvable start, when the board has at most [`MEAN_PAR_STATES`] and
/// the count finishes (within the analysis's timeout and memory).
fn mean_par(puzzle: &Puzzle, analysis: &Options) -> Option<f64> {
    let options = DistributionOptions {
        exact_limit: MEAN_PAR_STATES,
        samples: 0,
        timeout: analysis.timeout,
        max_memory: analysis.max_memory,
        ..DistributionOptions::default()
    };
    let distribution = crate::difficulty::par_distribution(puzzle, &options).ok()?;
    let DistributionKind::Exact(counts) = distribution.kind else { return None };
    if counts.unreached != 0 {
        return None;
    }
    let starts: u64 = counts.pars.values().sum();
    let presses: f64 = counts.pars.iter().map(|(&par, &n)| par as f64 * n as f64).sum();
    (starts > 0).then(|| presses / starts as f64)
}

/// Orders levels by difficulty: par first (fewest presses), then the mean par of the board's
/// solvable starts (a board whose starts are harder on average comes later; unknown last),
/// then the file name.
#[doc(hidden)]
pub fn order(levels: &mut [Level]) {
    let par = |level: &Level| level.par.parse::<BigUint>().unwrap_or_default();
    levels.sort_by(|a, b| {
        par(a)
            .cmp(&par(b))
            .then_with(|| match (a.mean_par, b.mean_par) {
                (Some(x), Some(y)) => x.partial_cmp(&y).unwrap_or(Ordering::Equal),
                (Some(_), None) => Ordering::Less,
                (None, Some(_)) => Ordering::Greater,
                (None, None) => Ordering::Equal,
            })
            .then_with(|| a.file.cmp(&b.file))
    });
}

#[cfg(test)]
mod tests {
    use num_bigint::BigUint;

    use super::*;

    fn big(values: &[String]) -> Vec<BigUint> {
        values.iter().map(|v| v.parse().unwrap()).collect()
    }

    /// The staged octopus: every case's plan, played in full presses and then the cut press's
    /// phases, reaches the target; the fewest plan plays to the target phase by phase.
    #[test]
    fn staged_cases_reach_the_target() {
        let source = include_str!("../../../puzzles/octopus-game.ron");
        let puzzle = crate::parse_puzzle(source).unwrap();
        let level = level(&puzzle, "octopus-game.ron", &ExportOptions::default()).unwrap();
        assert!(level.cases.len() > 1, "the cut cases have plans too");
        assert_eq!(level.effects[0].len(), 2);
        for case in &level.cases {
            let mut presses = big(&case.presses);
            if let Some(cut) = case.cut {
                presses[cut.button] += 1u32;
            }
            let cut = case.cut.map(|c| (c.button, c.phases));
            assert!(puzzle.plays_to_target(&presses, cut), "{case:?}");
        }
        let fewest = big(&level.fewest.presses);
        assert!(puzzle.plays_to_target(&fewest, level.fewest.cut.map(|c| (c.button, c.phases))));
        let total: BigUint = fewest.iter().sum();
        assert_eq!(total.to_string(), level.par);
    }

    /// Unsolvable levels are refused; packs order by par, then by mean par.
    #[test]
    fn unsolvable_refused_and_packs_ordered() {
        let unsolvable =
            crate::parse_puzzle(include_str!("../../../puzzles/lightsout-4x4-unsolvable.ron")).unwrap();
        let refused = level(&unsolvable, "x.ron", &ExportOptions::default());
        assert!(matches!(refused, Err(ExportError::Unsolvable)), "{refused:?}");
        let options = ExportOptions { mean_par: true, ..ExportOptions::default() };
        let read =
            |text: &str, file: &str| level(&crate::parse_puzzle(text).unwrap(), file, &options).unwrap();
        let hard = read("Puzzle(graph: Grid(rows: 3, cols: 3), modulus: 2, target: All(1))", "a.ron");
        let easy = read("Puzzle(graph: Path(3), modulus: 2, target: [1, 1, 0])", "b.ron");
        let easy_too = read("Puzzle(graph: Path(2), modulus: 2, target: [1, 1])", "c.ron");
        assert_eq!((hard.par.as_str(), easy.par.as_str(), easy_too.par.as_str()), ("5", "1", "1"));
        let document = Document::pack("pack", vec![hard, easy, easy_too]);
        let files: Vec<&str> = document.levels.iter().map(|l| l.file.as_str()).collect();
        let means: Vec<f64> = document.levels.iter().map(|l| l.mean_par.unwrap()).collect();
        assert!(means[0] <= means[1], "{means:?}");
        assert_eq!(files[2], "a.ron");
    }
}
