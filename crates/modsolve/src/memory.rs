//! Peak memory, estimated from the puzzle before the work allocates it, so that a command can
//! refuse a puzzle it could not finish (with the estimate and the limit in the message) instead
//! of being killed half-way by the operating system.
//!
//! The estimates follow the solver's dispatch ([`crate::solve::solve_with`]) and add up its
//! large allocations: the dense matrix or propagation's symbolic forms, the per-button big
//! integers of the answer (press counts and periods, kept twice), the quiet-pattern basis (at
//! most `crate::solve`'s basis limit), and for `check` the per-cell macros. They are upper
//! bounds of those, not of every byte: small puzzles estimate a few MiB. Not counted: the
//! bounded walk over the quiet basis (`crate::solve::basis_walk`), which runs after the
//! elimination's work space is freed and caps its tables at 2^22 entries a worker (at most
//! 64 MiB a worker and 64 MiB of group ids): counting that cap for every puzzle would refuse
//! small ones whose walk needs a few kilobytes.

use crate::model::{Buttons, Neighborhood, Puzzle, Topology};

/// Bytes of one big integer of the answer: the value, its heap word and allocator overhead.
const BIG: u64 = 48;

/// The most entries of a quiet-pattern basis.
const BASIS_ENTRIES: u64 = crate::solve::BASIS_ENTRY_LIMIT as u64;

/// The most residues general propagation spends on its symbolic forms.
const FORM_ENTRIES: u64 = crate::solve::propagation::FORM_ENTRY_LIMIT as u64;

/// An estimate of the peak memory of some work, and what dominates it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Estimate {
    /// The estimated peak, in bytes.
    pub bytes: u64,
    /// The largest part, for people: "dense elimination of 3000 × 3001 entries".
    pub largest: String,
}

/// Nonzero entries of the press matrix, from the shape alone (no effects are built).
fn entries(puzzle: &Puzzle) -> u64 {
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
pub fn for_solve(puzzle: &Puzzle, compact: bool) -> Estimate {
    let (cells, buttons) = (puzzle.cell_count() as u64, puzzle.button_count() as u64);
    if compact {
        return Estimate {
            bytes: compact_bytes(puzzle),
            largest: format!("light chasing in compact form on {cells} cells"),
        };
    }
    let answer = 4 * BIG * buttons;
    let basis = BASIS_ENTRIES.min(buttons.saturating_mul(buttons)) * BIG;
    let all_mod_two = puzzle.moduli.iter().all(|&m| m == 2);
    let dense_cells = cells.saturating_mul(buttons + 1);
    // Mod 2: the bit matrix, and the blocked kernel's work space: a narrow copy of a panel, the
    // rows' table entries and order (about 160 bytes a row), the panel's pivot rows (32 bytes a
    // column) and the stripe kernel's tables for them (3 MiB), and each thread's tables (4.5 MiB
    // allocated zeroed: all of it may be given memory when the allocator reuses freed memory).
    let threads = rayon::current_num_threads() as u64;
    let dense_bytes = if all_mod_two {
        dense_cells / 8 + 160 * cells + 32 * buttons + (3 << 20) + threads * (9 << 19)
    } else {
        dense_cells.saturating_mul(8)
    };
    // General propagation: effects and rows, then the forms (seeds unknown: their limit).
    let propagation = 2 * (24 * (buttons + cells) + 16 * entries(puzzle))
        + FORM_ENTRIES.min(buttons.saturating_mul(buttons)) * 8;
    let (method, bytes) = if crate::solve::light_chase::applies(puzzle) {
        ("light chasing", BIG * cells)
    } else if crate::solve::takes_sparse(puzzle) {
        // One modulus and too big for dense elimination: general propagation is tried first,
        // and sparse elimination when it needs too many seeds; the larger of the two counts.
        let sparse = sparse_bytes(puzzle);
        if puzzle.moduli.uniform().is_some() && !crate::solve::dense_fits(puzzle) && propagation > sparse {
            ("general propagation", propagation)
        } else {
            ("sparse elimination", sparse)
        }
    } else if crate::solve::dense_fits(puzzle) {
        ("dense elimination", dense_bytes)
    } else {
        ("general propagation", propagation)
    };
    let largest = if bytes >= basis {
        format!("{method} of {cells} cells × {buttons} buttons")
    } else {
        format!("the quiet-pattern basis of {buttons} buttons")
    };
    Estimate { bytes: answer + basis + bytes, largest }
}

/// Light chasing in compact form (`crate::solve::light_chase`) on a grid whose shorter side is
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

/// Sparse elimination (`crate::solve::sparse`): the press matrix by cell and the graph, the
/// order and the per-button residues (about 300 bytes a cell), and the rows of one prime with
/// their fill-in, which nested dissection keeps near `cells · log2(cells)` entries of 12 bytes
/// (twice over: the pivot rows and the rows still being eliminated). Measured peaks on grids with
/// per-cell moduli 2..=12 stay below it (300² cells: 50–67 MiB for 74 MiB estimated before the
/// chasing bound was added; 193 MiB with it).
///
/// A prime's rows may be chased instead ([`crate::solve::prime_chase`]), within a bound of its
/// own; one prime is eliminated or chased at a time, so the larger of the two counts.
fn sparse_bytes(puzzle: &Puzzle) -> u64 {
    let cells = puzzle.cell_count() as u64;
    let log = 64 - u64::from(cells.max(1).leading_zeros());
    let fill = cells.saturating_mul(24 * log);
    cells.saturating_mul(300)
        + 16 * entries(puzzle)
        + fill.max(crate::solve::prime_chase::memory_bound(cells))
}

/// The estimate for `check`: solving, the per-cell macros when they fit (a dense system of
/// cells × (buttons + cells)), and the players' boards.
pub fn for_check(puzzle: &Puzzle) -> Estimate {
    let solve = for_solve(puzzle, false);
    let (cells, buttons) = (puzzle.cell_count() as u64, puzzle.button_count() as u64);
    let macros = cells.saturating_mul(cells + buttons);
    let macro_bytes = if crate::solve::differences_fit(puzzle, puzzle.cell_count()) {
        macros * 8 + cells * cells.min(4096) * BIG
    } else {
        0
    };
    let players = 16 * cells + 8 * entries(puzzle);
    let bytes = solve.bytes + macro_bytes + players;
    let largest = if macro_bytes > solve.bytes {
        format!("a +1 macro for each of {cells} cells")
    } else {
        solve.largest
    };
    Estimate { bytes, largest }
}

/// The estimate for `generate` and the par histogram: every worker thread solves and plays one
/// candidate of the template at a time.
pub fn for_candidates(template: &Puzzle, threads: usize) -> Estimate {
    let one = for_solve(template, false);
    let players = 16 * template.cell_count() as u64 + 8 * entries(template);
    Estimate {
        bytes: (one.bytes + players).saturating_mul(threads.max(1) as u64),
        largest: format!("{} candidates at once, each {}", threads.max(1), one.largest),
    }
}

/// Bytes the exact par distribution's hash-set search takes per solvable start: the set's slot
/// and control byte with its spare capacity, and the layer lists.
const HASHED_STATE: u64 = 40;

/// The estimates of the exact par distribution's two encodings ([`crate::difficulty`]): the
/// distance array over all `states` (a byte a state, two when `wide`: a par can exceed 254), and
/// the hash set of the `solvable` states reached with the last layer's list.
pub fn for_exact_distribution(states: u64, solvable: u64, wide: bool) -> [Estimate; 2] {
    let width = if wide { 2 } else { 1 };
    [
        Estimate {
            bytes: states.saturating_mul(width),
            largest: format!("a distance array over {states} states"),
        },
        Estimate {
            bytes: solvable.saturating_mul(HASHED_STATE),
            largest: format!("a hash set of {solvable} solvable starts"),
        },
    ]
}

/// Refuses work whose estimated peak memory is above `limit` (by default [`default_limit`]),
/// before anything is allocated for it.
pub fn within(estimate: Estimate, limit: Option<u64>) -> Result<(), crate::error::OverMemory> {
    let limit = limit.unwrap_or_else(default_limit);
    if estimate.bytes <= limit { Ok(()) } else { Err(crate::error::OverMemory { estimate, limit }) }
}

/// A size for people, to three figures: `312 MiB`, `19.3 GiB`.
pub fn show(bytes: u64) -> String {
    let units = [(1u64 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")];
    match units.iter().find(|&&(unit, _)| bytes >= unit) {
        Some(&(unit, name)) => {
            let value = bytes as f64 / unit as f64;
            if value >= 100.0 { format!("{value:.0} {name}") } else { format!("{value:.1} {name}") }
        }
        None => format!("{bytes} bytes"),
    }
}

/// Half of this machine's memory (`MemTotal` in `/proc/meminfo`), or 8 GiB where that cannot
/// be read.
pub fn default_limit() -> u64 {
    let total = std::fs::read_to_string("/proc/meminfo").ok().and_then(|text| {
        let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
        let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
        Some(kib * 1024)
    });
    total.map_or(8 << 30, |bytes| bytes / 2)
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
        assert!(for_solve(&octopus, false).bytes < 1 << 20);
        assert!(for_check(&octopus).bytes < 1 << 20);
        let torus = puzzle("Puzzle(graph: Grid(rows: 10000, cols: 10000, wrap: true), modulus: 2)");
        let estimate = for_solve(&torus, false);
        assert!(estimate.bytes > 16 << 30, "{estimate:?}");
        assert!(estimate.largest.contains("sparse elimination"), "{estimate:?}");
        let grid = puzzle("Puzzle(graph: Grid(rows: 8000, cols: 8000), modulus: 2)");
        let estimate = for_solve(&grid, true).bytes;
        assert!(estimate > 8_000_000 && estimate < 64 << 20, "{estimate}");
        let huge = puzzle("Puzzle(graph: Grid(rows: 16000, cols: 16000), modulus: 2, target: All(1))");
        let estimate = for_solve(&huge, true).bytes;
        assert!(estimate > 32_000_000 && estimate < 256 << 20, "{estimate}");
        let mod_three = puzzle("Puzzle(graph: Grid(rows: 2000, cols: 2000), modulus: 3)");
        assert!(for_solve(&mod_three, true).bytes > 8 * 4_000_000);
        // Mixed moduli on a 1000 × 1000 grid: sparse elimination, well under 2 GiB.
        let moduli: Vec<String> = (0..1_000_000).map(|i| (2 + i % 11).to_string()).collect();
        let mixed =
            puzzle(&format!("Puzzle(graph: Grid(rows: 1000, cols: 1000), modulus: [{}])", moduli.join(",")));
        let estimate = for_solve(&mixed, false);
        assert!(estimate.bytes < 2 << 30 && estimate.bytes > 256 << 20, "{estimate:?}");
        let dense = puzzle("Puzzle(graph: Cells(2000), modulus: 7, buttons: [[(0, 1)], [(1, 1)]])");
        assert!(for_solve(&dense, false).largest.contains("dense elimination of 2000 cells × 2 buttons"));
        assert!(for_check(&dense).largest.contains("macro"));
    }

    #[test]
    fn sizes_for_people() {
        assert_eq!(show(312 << 20), "312 MiB");
        assert_eq!(show((193 << 30) / 10), "19.3 GiB");
        assert_eq!(show(900), "900 bytes");
    }

    #[test]
    fn the_default_limit_is_half_the_machine() {
        let limit = default_limit();
        assert!(limit >= 1 << 28, "{limit}");
    }
}
