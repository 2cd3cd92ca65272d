//! Sparse elimination for puzzles whose buttons are their cells (grids, tori, King boards,
//! paths, cycles, any graph), with any per-cell moduli: the general path's mathematics
//! (`super::modular`: split by prime, eliminate over each `Z/p^E`, project to periods, combine
//! by CRT) on sparse rows, in a nested-dissection order of the graph.
//!
//! Defining identity: the same as the general path. For each prime `p` (largest exponent `E`),
//! cell `i` with `e_i = v_p(m_i) > 0` gives the row `p^(E-e_i)·(a_i·x) ≡ p^(E-e_i)·d_i`; only
//! the buttons with `l_j = v_p(L_j) > 0` are columns (the others have no nonzero entry at this
//! prime). Columns are numbered in the nested-dissection order of the puzzle's graph
//! ([`crate::algebra::ordering`]) and eliminated into a Howell form
//! ([`crate::algebra::sparse`]); the count at `p` is `p^(Σ v_k + E·(n_p − r) − Σ_j (E − l_j))`.
//! Counts, the plan and the quiet basis equal the dense path's (tests compare them; the dense
//! path leaves a large basis unreduced, so there the two bases span the same set); the basis
//! is left out when it would pass [`super::BASIS_ENTRY_LIMIT`] entries or its work limit.
//!
//! Cost: the fill-in of the order. On a `k × k` grid the separators have at most `k` cells,
//! so memory is `O(k² log k)` entries and time about `O(k³)` per prime, where dense elimination
//! needs `k⁴` entries and `k⁶` time.
//!
//! Fast path: a prime where most rows keep a unit (a board mostly mod 4 or mod 6 with a few
//! other cells) is first chased ([`super::prime_chase`]), and only its residual system is
//! eliminated; behind the same per-prime interface (`Solved`), tested against the Howell path
//! and dense elimination.

use num_bigint::BigUint;
use num_traits::{One, Zero};
use rayon::prelude::*;

use super::modular::{PrimeSplit, lift_basis, period_basis_of};
use super::prime_chase::{self, Chased};
use super::{Answer, Method, difference};
use crate::algebra::crt;
use crate::algebra::ordering::{Graph, nested_dissection};
use crate::algebra::sparse::{NotDivisible, SparseEchelon, SparseRow, SparseSystem};
use crate::error::InternalError;
use crate::model::{Buttons, Puzzle};

/// Whether the sparse path applies: one button per cell (graph buttons), and cell numbers that
/// fit the sparse rows' 32-bit columns.
pub(crate) fn applies(puzzle: &Puzzle) -> bool {
    matches!(puzzle.buttons(), Buttons::Graph { .. }) && puzzle.cell_count() < u32::MAX as usize
}

/// Work allowed for the quiet basis: generators × (fill + columns) for back substitution, and
/// generators² × columns for the second elimination, each at most this.
const BASIS_WORK_LIMIT: u128 = 1 << 31;

/// The puzzle's graph (cells joined when one's button changes the other), for the ordering.
fn graph(puzzle: &Puzzle) -> Graph {
    let n = puzzle.cell_count();
    let mut g = Graph { offsets: Vec::with_capacity(n + 1), adjacency: Vec::new() };
    g.offsets.push(0);
    for cell in 0..n {
        puzzle.topology().for_each_neighbor(cell, |other| g.adjacency.push(other as u32));
        g.offsets.push(g.adjacency.len());
    }
    g
}

/// The press matrix by cell: `(button, amount)` for every button that changes the cell.
struct Rows {
    starts: Vec<usize>,
    entries: Vec<(u32, u64)>,
}

fn rows(puzzle: &Puzzle) -> Rows {
    let n = puzzle.cell_count();
    let mut counts = vec![0usize; n + 1];
    for j in 0..puzzle.button_count() {
        puzzle.for_each_effect(j, |i, _| counts[i + 1] += 1);
    }
    for i in 0..n {
        counts[i + 1] += counts[i];
    }
    let mut fill = counts.clone();
    let mut entries = vec![(0u32, 0u64); counts[n]];
    for j in 0..puzzle.button_count() {
        puzzle.for_each_effect(j, |i, a| {
            entries[fill[i]] = (j as u32, a);
            fill[i] += 1;
        });
    }
    Rows { starts: counts, entries }
}

/// Whether a prime's rows are first chased ([`super::prime_chase`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Chase {
    /// When the prime has at least [`CHASE_FROM_COLUMNS`] unknowns, at most one seed in
    /// [`CHASE_SEED_SHARE`], and chasing costs at most [`CHASE_WORK_FACTOR`] times
    /// `columns^1.5` multiply-adds (the scale of nested dissection's fill).
    Auto,
    /// At every prime (tests).
    #[cfg_attr(not(test), allow(dead_code))]
    Always,
    /// Never: Howell elimination of every prime (tests).
    #[cfg_attr(not(test), allow(dead_code))]
    Never,
}

/// A prime's rows are chased from this many unknowns on ...
const CHASE_FROM_COLUMNS: usize = 400;
/// ... when at most one unknown in this many is a seed.
const CHASE_SEED_SHARE: usize = 8;
/// Measured on grids with moduli mostly 4 or 6 and 2 % of cells 2..=12: chasing costs about
/// 1.5 ns a multiply-add in 64-bit lanes (about 0.9 ns in the 32-bit lanes small moduli take),
/// Howell elimination about 150 ns per `columns^1.5`, so they break even between 100 and 166;
/// at 300² chasing (about 2·10^9 multiply-adds with the residual) took 1.3–2 s in 64-bit lanes
/// where elimination takes 4.5–9 s, at 1000² (over 10^11) 184 s where elimination takes 104 s.
const CHASE_WORK_FACTOR: f64 = 128.0;

/// One prime's system, eliminated (Howell form) or chased.
enum Solved {
    Howell(SparseEchelon),
    Chased(Box<Chased>),
}

impl Solved {
    fn solution_count_exponent(&self) -> u64 {
        match self {
            Solved::Howell(e) => e.solution_count_exponent(),
            Solved::Chased(c) => c.solution_count_exponent(),
        }
    }

    fn particular(&self) -> Result<Option<Vec<u64>>, NotDivisible> {
        match self {
            Solved::Howell(e) => e.particular(),
            Solved::Chased(c) => Ok(c.particular()),
        }
    }

    fn kernel_generator_count(&self) -> usize {
        match self {
            Solved::Howell(e) => e.kernel_generator_count(),
            Solved::Chased(c) => c.kernel_generator_count(),
        }
    }

    fn kernel_generators(&self) -> Result<Vec<(Vec<u64>, u32)>, NotDivisible> {
        match self {
            Solved::Howell(e) => e.kernel_generators(),
            Solved::Chased(c) => Ok(c.kernel_generators()),
        }
    }

    /// Multiply-adds to turn one kernel seed into a vector over the columns.
    fn substitution_work(&self, columns: usize) -> u128 {
        match self {
            Solved::Howell(e) => e.entries() as u128 + columns as u128,
            Solved::Chased(c) => c.entries() as u128 + c.seeds() as u128 * c.residual_rank() as u128,
        }
    }
}

/// Solves by sparse elimination; the plan is not yet verified (`super::solve_with` does it).
pub(crate) fn solve(puzzle: &Puzzle, basis: bool) -> Result<Answer, InternalError> {
    solve_chasing(puzzle, Chase::Auto, basis)
}

/// [`solve`], chasing the primes' rows as `chase` says; the quiet-pattern basis is left out
/// (empty) unless `basis`.
pub(crate) fn solve_chasing(puzzle: &Puzzle, chase: Chase, basis: bool) -> Result<Answer, InternalError> {
    solve_primes(puzzle, chase, basis, puzzle.button_count() >= PRIMES_IN_PARALLEL_FROM)
}

/// [`solve_chasing`], with two primes' systems eliminated at once when `side_by_side`.
fn solve_primes(
    puzzle: &Puzzle,
    chase: Chase,
    basis: bool,
    side_by_side: bool,
) -> Result<Answer, InternalError> {
    let n = puzzle.button_count();
    let order = nested_dissection(&graph(puzzle));
    let mut position = vec![0u32; n];
    for (k, &v) in order.iter().enumerate() {
        position[v as usize] = k as u32;
    }
    let by_cell = rows(puzzle);
    let split = PrimeSplit::new(puzzle.moduli());
    let system = System { by_cell: &by_cell, split: &split, d: difference(puzzle), order: &order, position };
    let primes: Vec<(u64, u32)> = split.primes.iter().map(|(&p, &e)| (p, e)).collect();
    let solve_prime = |&(p, e_max): &(u64, u32)| system.solve_prime(p, e_max, chase, basis);
    // Each prime's system is its own: on large boards two are eliminated at once (both held
    // in memory), the largest first (by rows) so that the last to finish is a small one, and
    // the answer is put together in the primes' order.
    let solved: Vec<Result<PrimeSolved, InternalError>> = if primes.len() > 1 && side_by_side {
        let rows = split.cells_by_prime();
        let mut largest_first: Vec<usize> = (0..primes.len()).collect();
        largest_first.sort_by_key(|&k| std::cmp::Reverse(rows[k]));
        let next = std::sync::atomic::AtomicUsize::new(0);
        let stop = crate::bounded::Stop::here();
        let workers = rayon::current_num_threads().clamp(1, primes.len());
        let mut done: Vec<(usize, Result<PrimeSolved, InternalError>)> = (0..workers)
            .into_par_iter()
            .flat_map_iter(|_| {
                let mut mine = Vec::new();
                stop.carry(|| {
                    while let Some(&k) =
                        largest_first.get(next.fetch_add(1, std::sync::atomic::Ordering::Relaxed))
                    {
                        mine.push((k, solve_prime(&primes[k])));
                    }
                });
                mine
            })
            .collect();
        done.sort_by_key(|&(k, _)| k);
        done.into_iter().map(|(_, solved)| solved).collect()
    } else {
        primes.iter().map(solve_prime).collect()
    };
    drop(system);

    let solved: Vec<PrimeSolved> = solved.into_iter().collect::<Result<_, _>>()?;
    let kernel_factors: Vec<(u64, u64)> = solved
        .iter()
        .zip(&primes)
        .filter(|(solved, _)| solved.exponent > 0)
        .map(|(solved, &(p, _))| (p, solved.exponent))
        .collect();
    // The kernel's size (products of numbers of millions of digits on the largest boards) on
    // one core, the buttons' periods, plan and quiet basis on the other.
    let (kernel_size, rest) =
        rayon::join(|| kernel_size(&kernel_factors), || gather(solved, &primes, n, basis));
    let Gathered { periods, presses, quiet_basis, seeds } = rest?;
    let count = if presses.is_some() { kernel_size.clone() } else { BigUint::zero() };
    Ok(Answer {
        periods,
        presses,
        count,
        kernel_size,
        quiet_basis,
        method: Method::Sparse,
        seeds,
        chased: false,
        kernel_factors: Some(kernel_factors),
    })
}

/// What the primes' answers give by button: periods, the plan, the quiet basis.
struct Gathered {
    periods: Vec<BigUint>,
    presses: Option<Vec<BigUint>>,
    quiet_basis: Vec<super::Generator>,
    seeds: Option<usize>,
}

/// Each prime's `(x_j mod p^l, p^l)` for every button `j` with `l > 0`, combined by button into
/// its period and its presses (Chinese remaindering), and the primes' kernel generators lifted
/// into the quiet basis while it stays within its limits.
fn gather(
    solved: Vec<PrimeSolved>,
    primes: &[(u64, u32)],
    n: usize,
    basis: bool,
) -> Result<Gathered, InternalError> {
    let fail = |what: &str| InternalError::VerificationFailed(format!("sparse elimination: {what}"));
    let mut solvable = true;
    // In prime order, with the button of each: gathered by button at the end (a million
    // buttons' lists would be a million small vectors).
    let mut parts: Vec<(u64, u64)> = Vec::new();
    let mut part_button: Vec<u32> = Vec::new();
    let mut prime_generators: Vec<(u64, Vec<u64>, u32)> = Vec::new();
    let mut basis_wanted = basis;
    let mut basis_entries = 0u128;
    let mut seeds: Option<usize> = None;
    for (solved, &(p, e_max)) in solved.into_iter().zip(primes) {
        if let Some(s) = solved.seeds {
            *seeds.get_or_insert(0) += s;
        }
        solvable &= solved.particular.is_some();
        for (k, (&j, &l)) in solved.button_of_column.iter().zip(&solved.column_exponents).enumerate() {
            let pl = p.pow(l);
            parts.push((solved.particular.as_ref().map_or(0, |x| x[k] % pl), pl));
            part_button.push(j as u32);
        }
        // The quiet basis, while it stays within its limits (all primes' generators together).
        basis_entries += solved.generators * n as u128;
        basis_wanted &= basis_entries <= super::BASIS_ENTRY_LIMIT && solved.work <= BASIS_WORK_LIMIT;
        match (basis_wanted, solved.kernel) {
            (true, Some(kernel)) => {
                for (residues, order) in period_basis_of(p, e_max, &kernel, &solved.column_exponents) {
                    let mut full = vec![0u64; n];
                    for (&j, &r) in solved.button_of_column.iter().zip(&residues) {
                        full[j] = r;
                    }
                    prime_generators.push((p, full, order));
                }
            }
            (true, None) => return Err(fail("the kernel")),
            (false, _) => prime_generators.clear(),
        }
    }
    let (starts, parts) = by_button(n, &part_button, parts);
    drop(part_button);
    let button_parts = |j: usize| &parts[starts[j]..starts[j + 1]];
    let periods: Vec<BigUint> = (0..n).map(|j| period(button_parts(j))).collect();
    let presses = solvable.then(|| (0..n).map(|j| crt::combine(button_parts(j))).collect::<Vec<_>>());
    let quiet_basis = if basis_wanted {
        let period_parts: Vec<Vec<u64>> =
            (0..n).map(|j| button_parts(j).iter().map(|&(_, q)| q).collect()).collect();
        lift_basis(prime_generators, &period_parts)
    } else {
        Vec::new()
    };
    Ok(Gathered { periods, presses, quiet_basis, seeds })
}

/// `Π p^e` over the kernel's factors: the powers of odd primes worked out and multiplied on
/// all threads (a 2000×2000 mixed grid's are numbers of 3 to 5 million bits each), the power
/// of 2 a shift.
fn kernel_size(factors: &[(u64, u64)]) -> BigUint {
    let twos = factors.iter().filter(|&&(p, _)| p == 2).map(|&(_, e)| e).sum::<u64>();
    let odd = factors
        .par_iter()
        .filter(|&&(p, _)| p != 2)
        .map(|&(p, e)| num_traits::Pow::pow(BigUint::from(p), e))
        .reduce(BigUint::one, |a, b| a * b);
    odd << twos
}

/// Boards of at least this many buttons eliminate two primes at once.
const PRIMES_IN_PARALLEL_FROM: usize = 1 << 14;

/// What the primes' systems share: the press matrix by cell, the moduli's primes, the
/// difference to make, and the order of the columns (and each button's place in it).
struct System<'a> {
    by_cell: &'a Rows,
    split: &'a PrimeSplit,
    d: Vec<u64>,
    order: &'a [u32],
    position: Vec<u32>,
}

/// One prime's share of the answer.
struct PrimeSolved {
    /// `log_p` of the prime's share of the quiet patterns and one.
    exponent: u64,
    /// Each column's button, and its period's exponent of `p`.
    button_of_column: Vec<usize>,
    column_exponents: Vec<u32>,
    /// A plan modulo the columns' `p^l`, when there is one.
    particular: Option<Vec<u64>>,
    /// The chase's symbolic seeds, when the prime's rows were chased.
    seeds: Option<usize>,
    /// The kernel's generators, and the work to lift them into the quiet basis.
    generators: u128,
    work: u128,
    /// The generators over the columns (`(residues, log_p of the order)`), when a basis is
    /// wanted and this prime's own share stays within the basis limits.
    kernel: Option<Vec<(Vec<u64>, u32)>>,
}

impl System<'_> {
    /// The rows at `p` (exponent `e_max`), eliminated or chased, and what the answer needs of them.
    fn solve_prime(
        &self,
        p: u64,
        e_max: u32,
        chase: Chase,
        basis: bool,
    ) -> Result<PrimeSolved, InternalError> {
        let fail = |what: &str| InternalError::VerificationFailed(format!("sparse elimination: {what}"));
        let n = self.position.len();
        let q = p.pow(e_max);
        // Period exponents and the rows, columns still as order positions.
        let mut period_exponents = vec![0u32; n];
        let mut system_rows: Vec<SparseRow> = Vec::new();
        let mut entries: Vec<(u32, u64)> = Vec::new();
        for (i, &di) in self.d.iter().enumerate() {
            let e = self.split.exponent(i, p);
            if e == 0 {
                continue;
            }
            let (pe, scale) = (p.pow(e), p.pow(e_max - e));
            entries.clear();
            for &(j, a) in &self.by_cell.entries[self.by_cell.starts[i]..self.by_cell.starts[i + 1]] {
                let local = a % pe;
                if local != 0 {
                    let v = crate::algebra::arith::valuation(local, p);
                    let l = &mut period_exponents[j as usize];
                    *l = (*l).max(e - v);
                    entries.push((self.position[j as usize], local * scale));
                }
            }
            system_rows.push(merged_row(&mut entries, (di % pe) * scale, q));
        }
        let button_of_column = number_columns(self.order, &period_exponents, &mut system_rows);
        let columns = button_of_column.len();
        let column_exponents: Vec<u32> = button_of_column.iter().map(|&j| period_exponents[j]).collect();
        drop(period_exponents);
        let mut seeds = None;
        let echelon = eliminate_prime(p, e_max, system_rows, &column_exponents, chase, &mut seeds)?;
        let projected: u64 = column_exponents.iter().map(|&l| (e_max - l) as u64).sum();
        let exponent = echelon
            .solution_count_exponent()
            .checked_sub(projected)
            .ok_or_else(|| fail("a negative count"))?;
        let particular = echelon.particular().map_err(|_| fail("back substitution"))?;
        let generators = echelon.kernel_generator_count() as u128;
        let work =
            generators * echelon.substitution_work(columns) + generators * generators * columns as u128;
        let kernel =
            if basis && generators * n as u128 <= super::BASIS_ENTRY_LIMIT && work <= BASIS_WORK_LIMIT {
                Some(echelon.kernel_generators().map_err(|_| fail("the kernel"))?)
            } else {
                None
            };
        Ok(PrimeSolved {
            exponent,
            button_of_column,
            column_exponents,
            particular,
            seeds,
            generators,
            work,
            kernel,
        })
    }
}

/// `parts` (each tagged with its button in `buttons`) gathered by button, keeping their order:
/// each button's start in the returned list, and the list.
fn by_button(n: usize, buttons: &[u32], parts: Vec<(u64, u64)>) -> (Vec<usize>, Vec<(u64, u64)>) {
    let mut starts = vec![0usize; n + 1];
    for &j in buttons {
        starts[j as usize + 1] += 1;
    }
    for j in 0..n {
        starts[j + 1] += starts[j];
    }
    let mut next = starts.clone();
    let mut gathered = vec![(0u64, 1u64); parts.len()];
    for (&j, part) in buttons.iter().zip(parts) {
        gathered[next[j as usize]] = part;
        next[j as usize] += 1;
    }
    (starts, gathered)
}

/// A button's period: the product of its prime powers, in machine words while it fits.
fn period(parts: &[(u64, u64)]) -> BigUint {
    match parts.iter().try_fold(1u64, |m, &(_, q)| m.checked_mul(q)) {
        Some(m) => BigUint::from(m),
        None => parts.iter().map(|&(_, q)| BigUint::from(q)).product(),
    }
}

/// The row of one cell from its `(column, amount)` entries (amounts reduced mod `q`, columns
/// possibly repeated; a scratch list, left merged): sorted by column, repeated columns added
/// mod `q`, zero entries dropped.
fn merged_row(entries: &mut Vec<(u32, u64)>, rhs: u64, q: u64) -> SparseRow {
    entries.sort_unstable_by_key(|&(c, _)| c);
    // Merged in place: `kept` entries so far, the last of them still open to additions.
    let mut kept = 0;
    for k in 0..entries.len() {
        let (c, a) = entries[k];
        if kept > 0 && entries[kept - 1].0 == c {
            entries[kept - 1].1 = crate::algebra::arith::add_mod(entries[kept - 1].1, a, q);
        } else {
            if kept > 0 && entries[kept - 1].1 == 0 {
                kept -= 1;
            }
            entries[kept] = (c, a);
            kept += 1;
        }
    }
    if kept > 0 && entries[kept - 1].1 == 0 {
        kept -= 1;
    }
    entries.truncate(kept);
    SparseRow {
        cols: entries.iter().map(|&(c, _)| c).collect(),
        vals: entries.iter().map(|&(_, a)| a).collect(),
        rhs,
    }
}

/// Columns: the buttons with `l_j > 0` (`period_exponents`), numbered compactly in `order`.
/// Renumbers the columns of `rows` (order positions until then) and returns each column's
/// button.
fn number_columns(order: &[u32], period_exponents: &[u32], rows: &mut [SparseRow]) -> Vec<usize> {
    let mut column_of_position = vec![u32::MAX; order.len()];
    let mut button_of_column: Vec<usize> = Vec::new();
    for (k, &j) in order.iter().enumerate() {
        if period_exponents[j as usize] > 0 {
            column_of_position[k] = button_of_column.len() as u32;
            button_of_column.push(j as usize);
        }
    }
    for row in rows {
        for c in &mut row.cols {
            *c = column_of_position[*c as usize];
        }
    }
    button_of_column
}

/// The system at prime `p` (exponent `e_max`, `rows` over columns of exponents
/// `column_exponents`), chased when `chase` says so and the chase succeeds (its seeds added to
/// `seeds`), else eliminated into a Howell form.
fn eliminate_prime(
    p: u64,
    e_max: u32,
    rows: Vec<SparseRow>,
    column_exponents: &[u32],
    chase: Chase,
    seeds: &mut Option<usize>,
) -> Result<Solved, InternalError> {
    let columns = column_exponents.len();
    let limits = match chase {
        Chase::Never => None,
        Chase::Always => Some((columns, u128::MAX)),
        Chase::Auto => (columns >= CHASE_FROM_COLUMNS).then_some((
            columns / CHASE_SEED_SHARE,
            (CHASE_WORK_FACTOR * (columns as f64).powf(1.5)) as u128,
        )),
    };
    let chased =
        limits.and_then(|(seeds, work)| prime_chase::chase(p, e_max, &rows, column_exponents, seeds, work));
    Ok(match chased {
        Some(chased) => {
            *seeds.get_or_insert(0) += chased.seeds();
            Solved::Chased(Box::new(chased))
        }
        None => {
            let system = SparseSystem { p, e: e_max, cols: columns, rows };
            Solved::Howell(system.eliminate().map_err(|_| {
                InternalError::VerificationFailed("sparse elimination: a malformed row".to_string())
            })?)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Neighborhood, Topology};
    use num_integer::Integer;
    use num_traits::One;
    use rand::{RngExt, SeedableRng, rngs::StdRng};

    /// Per-cell moduli where some prime keeps most rows' units (mostly one modulus with a few
    /// others; squarefree moduli sharing their primes), and where none does (random 2..=64, large
    /// prime powers): forms in 32-bit lanes, 64-bit lanes reduced lazily, and (past 2^32) every
    /// term.
    fn moduli(rng: &mut StdRng, cells: usize) -> Vec<u64> {
        let base = [4u64, 6, 8, 9, 12, 25][rng.random_range(0..6)];
        match rng.random_range(0..5) {
            0 => (0..cells)
                .map(|_| if rng.random_bool(0.05) { rng.random_range(2..=12) } else { base })
                .collect(),
            1 => (0..cells).map(|_| [6u64, 30, 10, 15][rng.random_range(0..4)]).collect(),
            2 => (0..cells)
                .map(|_| {
                    if rng.random_bool(0.1) {
                        [4_294_967_291, 65_537 * 65_537][rng.random_range(0..2)]
                    } else {
                        7
                    }
                })
                .collect(),
            3 => (0..cells).map(|_| if rng.random_bool(0.1) { 1 << 40 } else { 1 << 20 }).collect(),
            _ => (0..cells).map(|_| rng.random_range(2..=64)).collect(),
        }
    }

    fn topology(rng: &mut StdRng, round: usize) -> Topology {
        let (rows, cols) = (rng.random_range(2..=24usize), rng.random_range(2..=24usize));
        match round % 4 {
            0 => Topology::Grid { rows, cols, wrap: false, neighborhood: Neighborhood::Cross },
            1 => Topology::Grid { rows, cols, wrap: true, neighborhood: Neighborhood::Cross },
            2 => Topology::Grid { rows, cols, wrap: rng.random_bool(0.5), neighborhood: Neighborhood::King },
            _ => {
                let cells = rng.random_range(10..400);
                let adjacency = super::super::propagation::random_adjacency(rng, cells);
                Topology::Edges { adjacency }
            }
        }
    }

    /// Per-prime chasing (forced at every prime) against Howell elimination and dense
    /// elimination on random puzzles with mixed moduli: periods, counts and kernel sizes equal;
    /// plans simulate; every quiet generator is quiet with its stated additive order, and the
    /// orders multiply to the kernel size, as do the kernel's factors. Two primes at once
    /// answer as one after the other.
    #[test]
    fn chasing_each_prime_agrees_with_elimination() {
        let mut rng = StdRng::seed_from_u64(3);
        let (mut solvable, mut chased_seeds) = (0, 0);
        for round in 0..160 {
            let topology = topology(&mut rng, round);
            let cells = topology.cell_count();
            let moduli = moduli(&mut rng, cells);
            let weight =
                |rng: &mut StdRng| if rng.random_bool(0.1) { 0 } else { rng.random_range(-6..=6i64) };
            let (own, neighbor) = (weight(&mut rng), if rng.random_bool(0.7) { 1 } else { weight(&mut rng) });
            let start: Vec<u64> = moduli.iter().map(|&m| rng.random_range(0..m)).collect();
            let puzzle = Puzzle::builder(topology)
                .moduli(moduli.clone())
                .press(own, neighbor)
                .start(start.clone())
                .build()
                .expect("valid");
            let target: Vec<u64> = if rng.random_bool(0.6) {
                let plan: Vec<BigUint> =
                    puzzle.periods().iter().map(|l| rng.random_range(0..1u64 << 62) % l).collect();
                puzzle.apply(&start, &plan)
            } else {
                moduli.iter().map(|&m| rng.random_range(0..m)).collect()
            };
            let puzzle = puzzle.with_target(target).expect("reduced");
            let what = format!("round {round}: {cells} cells, weights {own}/{neighbor}");
            let chased = solve_chasing(&puzzle, Chase::Always, true).expect("chased");
            let howell = solve_chasing(&puzzle, Chase::Never, true).expect("eliminated");
            // Two primes at once give the same answer as one after the other.
            for chase in [Chase::Always, Chase::Never] {
                let sides =
                    [false, true].map(|side| solve_primes(&puzzle, chase, true, side).expect("solved"));
                assert_eq!(sides[0], sides[1], "{what}: {chase:?} side by side");
            }
            let dense = super::super::modular::solve(&puzzle);
            // The kernel's factors, for the report's powers, multiply to its size.
            for answer in [&chased, &howell, &dense] {
                let factors = answer.kernel_factors.as_ref().expect("sparse elimination gives them");
                let product: BigUint = factors.iter().map(|&(p, e)| BigUint::from(p).pow(e as u32)).product();
                assert_eq!(product, answer.kernel_size, "{what}: kernel factors");
            }
            assert!(howell.seeds.is_none(), "{what}");
            chased_seeds += chased.seeds.expect("every prime chased");
            for other in [&howell, &dense] {
                assert_eq!(chased.periods, other.periods, "{what}");
                assert_eq!(chased.kernel_size, other.kernel_size, "{what}");
                assert_eq!(chased.count, other.count, "{what}");
            }
            if let Some(x) = &chased.presses {
                solvable += 1;
                assert!(x.iter().zip(&chased.periods).all(|(v, l)| v < l), "{what}: not reduced");
                assert!(puzzle.solves(x), "{what}: the plan");
            }
            let zero = vec![0u64; cells];
            for g in &chased.quiet_basis {
                assert_eq!(puzzle.apply(&zero, &g.presses), zero, "{what}: a generator is not quiet");
                let order = g
                    .presses
                    .iter()
                    .zip(&chased.periods)
                    .fold(BigUint::one(), |acc, (v, l)| acc.lcm(&(l / v.gcd(l))));
                assert_eq!(order, g.order, "{what}: a generator's order");
            }
            let product: BigUint = chased.quiet_basis.iter().map(|g| &g.order).product();
            assert_eq!(product, chased.kernel_size, "{what}: basis orders");
        }
        assert!(solvable > 80, "only {solvable} solvable");
        assert!(chased_seeds > 1000, "only {chased_seeds} seeds in all");
    }

    /// On a 60 × 60 grid mostly mod 4 (a cell in 50 mod 3 or 12), the automatic choice chases
    /// the prime 2 (about one seed a column) and eliminates the prime 3: the answer equals
    /// Howell elimination's.
    #[test]
    fn mostly_uniform_grids_chase_their_main_prime() {
        let mut rng = StdRng::seed_from_u64(60);
        let topology = Topology::Grid { rows: 60, cols: 60, wrap: false, neighborhood: Neighborhood::Cross };
        let moduli: Vec<u64> = (0..3600)
            .map(|_| if rng.random_bool(0.02) { [3, 12][rng.random_range(0..2)] } else { 4 })
            .collect();
        let start: Vec<u64> = moduli.iter().map(|&m| rng.random_range(0..m)).collect();
        let puzzle =
            Puzzle::builder(topology).moduli(moduli).press(2, 1).start(start).build().expect("valid");
        let auto = solve_chasing(&puzzle, Chase::Auto, true).expect("solved");
        let howell = solve_chasing(&puzzle, Chase::Never, true).expect("solved");
        let seeds = auto.seeds.expect("the prime 2 chased");
        assert!((60..=120).contains(&seeds), "{seeds} seeds");
        assert_eq!(auto.kernel_size, howell.kernel_size);
        assert_eq!(auto.count, howell.count);
        if let Some(x) = &auto.presses {
            assert!(puzzle.solves(x));
        }
    }
}
