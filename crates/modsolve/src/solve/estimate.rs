//! Peak memory of a solve, estimated from the puzzle before anything is allocated
//! ([`memory_estimate`]), following the route [`super::solve_with`] takes ([`super::route`]).
//!
//! The estimate adds up the route's large allocations: the dense matrix or propagation's
//! symbolic forms, the per-button big integers of the answer (press counts and periods, kept
//! twice), and the quiet-pattern basis (at most the basis limit). It is an upper bound of those,
//! not of every byte: small puzzles estimate a few MiB. Not counted: the bounded walk over the
//! quiet basis, which runs after the elimination's work space is freed and caps its tables at
//! 2^22 entries a worker (at most 64 MiB a worker and 64 MiB of group ids): counting that cap
//! for every puzzle would refuse small ones whose walk needs a few kilobytes.

use super::Solver;
use crate::memory::Estimate;
use crate::model::{Buttons, Neighborhood, Puzzle, Topology};

/// Bytes of one big integer of the answer: the value, its heap word and allocator overhead.
pub(crate) const BIG: u64 = 48;

/// The most entries of a quiet-pattern basis.
const BASIS_ENTRIES: u64 = super::BASIS_ENTRY_LIMIT as u64;

/// The most residues general propagation spends on its symbolic forms.
const FORM_ENTRIES: u64 = super::propagation::FORM_ENTRY_LIMIT as u64;

/// Nonzero entries of the press matrix, from the shape alone (no effects are built).
pub(crate) fn entries(puzzle: &Puzzle) -> u64 {
    let cells = puzzle.cell_count() as u64;
    match &puzzle.buttons {
        Buttons::Explicit(list) => list.iter().map(|b| b.len() as u64).sum(),
        Buttons::Graph { .. } => match &puzzle.topology {
            Topology::Cells(_) => cells,
            Topology::Path(_) | Topology::Cycle(_) => 3 * cells,
            Topology::Grid { neighborhood: Neighborhood::Cross, .. } => 5 * cells,
            Topology::Grid { neighborhood: Neighborhood::King | Neighborhood::Knight, .. } => 9 * cells,
            Topology::Board(board) => cells * board.press_size() as u64,
            Topology::Edges { adjacency } => cells + adjacency.iter().map(|a| a.len() as u64).sum::<u64>(),
        },
    }
}

/// The estimate for solving: `compact` when a big grid takes light chasing in compact form (a
/// bit per cell mod 2, one 32-bit press count per cell otherwise, no big integers).
pub fn memory_estimate(puzzle: &Puzzle, compact: bool) -> Estimate {
    let (cells, buttons) = (puzzle.cell_count() as u64, puzzle.button_count() as u64);
    if compact {
        return Estimate {
            bytes: compact_bytes(puzzle),
            largest: format!("light chasing in compact form on {cells} cells"),
        };
    }
    let answer = 4 * BIG * buttons;
    let basis = BASIS_ENTRIES.min(buttons.saturating_mul(buttons)) * BIG;
    let (method, bytes) = elimination(puzzle);
    let largest = if bytes >= basis {
        format!("{method} of {cells} cells × {buttons} buttons")
    } else {
        format!("the quiet-pattern basis of {buttons} buttons")
    };
    Estimate { bytes: answer + basis + bytes, largest }
}

/// The work space of the solvers the route may run, and the largest of them by name.
fn elimination(puzzle: &Puzzle) -> (&'static str, u64) {
    let (cells, buttons) = (puzzle.cell_count() as u64, puzzle.button_count() as u64);
    let all_mod_two = puzzle.moduli.iter().all(|&m| m == 2);
    let dense_cells = cells.saturating_mul(buttons + 1);
    // Mod 2: the bit matrix, and the kernels' work space: a narrow copy of a panel, the rows'
    // table entries and order (about 160 bytes a row), the panel's pivot rows (32 bytes a
    // column), and, where the blocked kernel runs, the stripe kernel's tables (3 MiB) and each
    // thread's tables (4.5 MiB allocated zeroed: all of it may be given memory when the
    // allocator reuses freed memory).
    let threads = rayon::current_num_threads() as u64;
    let blocked_from = crate::algebra::gf2::BLOCKED_MIN_COLS as u64;
    let tables =
        if cells >= blocked_from && buttons >= blocked_from { (3 << 20) + threads * (9 << 19) } else { 0 };
    let dense_bytes = if all_mod_two {
        dense_cells / 8 + 160 * cells + 32 * buttons + tables
    } else {
        dense_cells.saturating_mul(8)
    };
    // General propagation: effects and rows, then the forms (seeds unknown: their limit).
    let propagation = 2 * (24 * (buttons + cells) + 16 * entries(puzzle))
        + FORM_ENTRIES.min(buttons.saturating_mul(buttons)) * 8;
    // The route's solvers up to the first that cannot decline; one runs at a time, so the
    // largest counts (the later one on a tie).
    let mut steps: Vec<(&'static str, u64)> = Vec::new();
    for solver in super::route(puzzle, super::Method::Auto).unwrap_or_default() {
        let (step, certain) = match solver {
            Solver::LightChase if super::light_chase::applies(puzzle) => {
                (("light chasing", BIG * cells), true)
            }
            Solver::Propagation { forced } if super::propagation::may_run(puzzle, forced) => {
                (("general propagation", propagation), false)
            }
            Solver::LightChase | Solver::Propagation { .. } => continue,
            Solver::Sparse => (("sparse elimination", sparse_bytes(puzzle)), true),
            Solver::Gf2 | Solver::Modular => (("dense elimination", dense_bytes), true),
        };
        steps.push(step);
        if certain {
            break;
        }
    }
    steps.into_iter().max_by_key(|&(_, bytes)| bytes).unwrap_or(("general propagation", propagation))
}

/// Light chasing in compact form (`super::light_chase`) on a grid whose shorter side is
/// `W`, plus 4 MiB for the output's buffers and small vectors.
///
/// Mod 2: the chased words of the forms (`W` words for each of the `⌈(W + 1) / 64⌉` words of a
/// form), the last row's `W × (W + 1)` bit matrix built from them, two rows of the chase per
/// thread and the plan at one bit per cell: about 100 MiB for 16000 × 16000. Other moduli: two
/// rows of forms of `W + 1` residues, the last row's `W × W` system and the elimination's copies
/// of it (counted as three), and one `u32` per cell.
fn compact_bytes(puzzle: &Puzzle) -> u64 {
    let cells = puzzle.cell_count() as u64;
    let w = puzzle.topology.grid_shape().map_or(cells, |(r, c)| r.min(c) as u64);
    let buffers = 4 << 20;
    if puzzle.moduli.uniform() == Some(2) {
        let words = (w + 1).div_ceil(64);
        let threads = rayon::current_num_threads() as u64;
        2 * 8 * w * words + 16 * w * threads + cells / 8 + buffers
    } else {
        16 * w * (w + 1) + 24 * w * w + 4 * cells + buffers
    }
}

/// Sparse elimination (`super::sparse`): the press matrix by cell and the graph, the
/// order and the per-button residues (about 300 bytes a cell), and the rows of one prime with
/// their fill-in, which nested dissection keeps near `cells · log2(cells)` entries of 12 bytes
/// (twice over: the pivot rows and the rows still being eliminated). Measured peaks on grids with
/// per-cell moduli 2..=12 stay below it (300² cells: 50–67 MiB for 74 MiB estimated before the
/// chasing bound was added; 193 MiB with it).
///
/// A prime's rows may be chased instead ([`super::prime_chase`]), within a bound of its
/// own, so the larger of the two counts. From 16,384 buttons two primes are eliminated at once;
/// their peaks stay within this one prime's estimate (mixed grids of moduli 2..=12: 1000×1000
/// 708 MiB against about 1.3 GiB estimated, 2000×2000 2.4 GiB against 5.0 GiB).
fn sparse_bytes(puzzle: &Puzzle) -> u64 {
    let cells = puzzle.cell_count() as u64;
    let log = 64 - u64::from(cells.max(1).leading_zeros());
    let fill = cells.saturating_mul(24 * log);
    cells.saturating_mul(300) + 16 * entries(puzzle) + fill.max(super::prime_chase::memory_bound(cells))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn puzzle(text: &str) -> Puzzle {
        crate::parse_puzzle(text).expect("valid")
    }

    /// Small puzzles estimate little; a 10,000 × 10,000 torus (no light chasing, a big integer
    /// per button) estimates gigabytes; a huge grid in compact form, a bit a cell and its last
    /// row's system mod 2 (a 16000 × 16000 board well under 1 GiB), more mod 3; a mixed
    /// 1000 × 1000 grid (sparse elimination) between 256 MiB and 2 GiB.
    #[test]
    fn estimates_grow_with_the_work() {
        let octopus = puzzle("Puzzle(graph: Path(4), modulus: [7, 8, 7, 6], press: (self: 2, neighbors: 1))");
        assert!(memory_estimate(&octopus, false).bytes < 1 << 20);
        let torus = puzzle("Puzzle(graph: Grid(rows: 10000, cols: 10000, wrap: true), modulus: 2)");
        let estimate = memory_estimate(&torus, false);
        assert!(estimate.bytes > 16 << 30, "{estimate:?}");
        assert!(estimate.largest.contains("sparse elimination"), "{estimate:?}");
        let grid = puzzle("Puzzle(graph: Grid(rows: 8000, cols: 8000), modulus: 2)");
        let estimate = memory_estimate(&grid, true).bytes;
        assert!(estimate > 8_000_000 && estimate < 64 << 20, "{estimate}");
        let huge = puzzle("Puzzle(graph: Grid(rows: 16000, cols: 16000), modulus: 2, target: All(1))");
        let estimate = memory_estimate(&huge, true).bytes;
        assert!(estimate > 32_000_000 && estimate < 256 << 20, "{estimate}");
        let mod_three = puzzle("Puzzle(graph: Grid(rows: 2000, cols: 2000), modulus: 3)");
        assert!(memory_estimate(&mod_three, true).bytes > 8 * 4_000_000);
        // Mixed moduli on a 1000 × 1000 grid: sparse elimination, well under 2 GiB.
        let moduli: Vec<String> = (0..1_000_000).map(|i| (2 + i % 11).to_string()).collect();
        let mixed =
            puzzle(&format!("Puzzle(graph: Grid(rows: 1000, cols: 1000), modulus: [{}])", moduli.join(",")));
        let estimate = memory_estimate(&mixed, false);
        assert!(estimate.bytes < 2 << 30 && estimate.bytes > 256 << 20, "{estimate:?}");
        let dense = puzzle("Puzzle(graph: Cells(2000), modulus: 7, buttons: [[(0, 1)], [(1, 1)]])");
        assert!(
            memory_estimate(&dense, false).largest.contains("dense elimination of 2000 cells × 2 buttons")
        );
    }

    /// The estimate counts the solver the route gives the puzzle to, and that solver answers:
    /// dense GF(2) elimination on a 5 × 5 board (light chasing pays only from 400 cells), light
    /// chasing on 30 × 30, sparse elimination on a 20 × 20 grid of mixed moduli.
    #[test]
    fn the_estimate_follows_the_route() {
        use super::super::{Method, Solver, route, solve};
        let mixed: Vec<String> = (0..400).map(|i| (2 + i % 5).to_string()).collect();
        let cases = [
            (
                "Puzzle(graph: Grid(rows: 5, cols: 5), modulus: 2)".to_string(),
                Solver::Gf2,
                Method::Gf2,
                "dense elimination",
            ),
            (
                "Puzzle(graph: Grid(rows: 30, cols: 30), modulus: 2)".to_string(),
                Solver::LightChase,
                Method::Propagation,
                "light chasing",
            ),
            (
                format!("Puzzle(graph: Grid(rows: 20, cols: 20), modulus: [{}])", mixed.join(",")),
                Solver::Sparse,
                Method::Sparse,
                "sparse elimination",
            ),
        ];
        for (text, solver, method, largest) in cases {
            let puzzle = puzzle(&text);
            assert!(route(&puzzle, Method::Auto).unwrap().contains(&solver), "{text}");
            assert_eq!(solve(&puzzle).unwrap().method, method, "{text}");
            assert_eq!(elimination(&puzzle).0, largest, "{text}");
        }
    }
}
