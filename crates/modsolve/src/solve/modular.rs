//! The general path, exact for every modulus, equal or mixed (split by prime, eliminate over
//! each `Z/p^E`, combine by CRT: the README's *How it works*).
//!
//! 1. Split by prime: for each prime `p` of some modulus, with `E` its largest exponent, cell `i`
//!    (exponent `e_i > 0`) gives the row `p^(E-e_i)·(a_i·x) ≡ p^(E-e_i)·d_i (mod p^E)`.
//! 2. Eliminate over `Z/p^E` ([`crate::algebra::echelon`]): solvable iff every prime is, and the
//!    number of solutions mod `p^E` is `p^(Σ v_k + E·(n-r))`.
//! 3. Project to periods: `x_j` only matters mod `p^(l_j)`, `l_j = v_p(L_j)`, so divide the count
//!    by `p^(Σ_j (E - l_j))`.
//! 4. Combine the primes per button by CRT into `x_j mod L_j`; counts multiply.

use std::collections::{BTreeMap, HashMap};

use num_bigint::BigUint;
use num_traits::{One, Zero};
use rayon::prelude::*;

use super::{Answer, Basis, Generator, Method, difference};
use crate::algebra::arith::{add_mod, inv_mod, mul_mod, valuation};
use crate::algebra::crt;
use crate::algebra::echelon::{Echelon, PrimePowerSystem};
use crate::algebra::factor::factorize;
use crate::model::{Buttons, CellValues, Puzzle};

/// The exponent of every prime in every cell's modulus.
pub(crate) struct PrimeSplit {
    /// Each prime with its largest exponent `E` over the cells.
    pub(crate) primes: BTreeMap<u64, u32>,
    /// The factorisations of the distinct moduli, and each cell's (an index into them: a
    /// board of millions of cells has a handful of moduli).
    factorisations: Vec<Vec<(u64, u32)>>,
    cell_factors: Vec<u32>,
}

impl PrimeSplit {
    pub(crate) fn new(moduli: &CellValues) -> Self {
        let mut seen: HashMap<u64, u32> = HashMap::new();
        let mut factorisations: Vec<Vec<(u64, u32)>> = Vec::new();
        let cell_factors: Vec<u32> = moduli
            .iter()
            .map(|&m| {
                *seen.entry(m).or_insert_with(|| {
                    factorisations.push(factorize(m));
                    (factorisations.len() - 1) as u32
                })
            })
            .collect();
        let mut primes = BTreeMap::new();
        for &(p, e) in factorisations.iter().flatten() {
            let entry = primes.entry(p).or_insert(0);
            *entry = (*entry).max(e);
        }
        PrimeSplit { primes, factorisations, cell_factors }
    }

    pub(crate) fn exponent(&self, cell: usize, p: u64) -> u32 {
        let factors = &self.factorisations[self.cell_factors[cell] as usize];
        factors.iter().find(|&&(q, _)| q == p).map_or(0, |&(_, e)| e)
    }

    /// The number of cells whose modulus `p` divides, for each prime in order.
    pub(crate) fn cells_by_prime(&self) -> Vec<usize> {
        let mut of_kind = vec![0usize; self.factorisations.len()];
        for &k in &self.cell_factors {
            of_kind[k as usize] += 1;
        }
        self.primes
            .keys()
            .map(|&p| {
                let has = |f: &Vec<(u64, u32)>| f.iter().any(|&(q, _)| q == p);
                self.factorisations.iter().zip(&of_kind).filter(|(f, _)| has(f)).map(|(_, &c)| c).sum()
            })
            .collect()
    }
}

#[cfg(test)]
pub(crate) fn solve(puzzle: &Puzzle) -> Answer {
    solve_basis(puzzle, Basis::Kept)
}

/// [`solve`], with the quiet-pattern basis worked out as `basis` says.
pub(crate) fn solve_basis(puzzle: &Puzzle, basis: Basis) -> Answer {
    let (mut answer, mut solutions) = solve_many_basis(puzzle, &[difference(puzzle)], basis);
    answer.presses = solutions.pop().expect("one right side");
    answer.count = if answer.presses.is_some() { answer.kernel_size.clone() } else { BigUint::zero() };
    answer
}

/// Solves `A·x ≡ d` for several right sides `d` (one value per cell, reduced) with one
/// elimination per prime. The returned answer's `presses` and `count` are unset (`None`, 0).
pub(crate) fn solve_many(puzzle: &Puzzle, differences: &[Vec<u64>]) -> (Answer, Vec<Option<Vec<BigUint>>>) {
    solve_many_basis(puzzle, differences, Basis::Kept)
}

/// [`solve_many`], with the quiet-pattern basis worked out as `basis` says ([`Basis::IfSolvable`]:
/// unless no right side is solvable).
fn solve_many_basis(
    puzzle: &Puzzle,
    differences: &[Vec<u64>],
    basis: Basis,
) -> (Answer, Vec<Option<Vec<BigUint>>>) {
    let buttons = puzzle.button_count();
    let by_cell = ByCell::new(puzzle);
    let split = PrimeSplit::new(&puzzle.moduli);

    let mut solvable = vec![true; differences.len()];
    let mut kernel_size = BigUint::one();
    let mut kernel_factors: Vec<(u64, u64)> = Vec::new();
    // For each right side and button, `(x_j mod p^l, p^l)` for every prime with `l > 0`.
    let mut parts: Vec<Vec<Vec<(u64, u64)>>> = vec![vec![Vec::new(); buttons]; differences.len()];
    // `p^l` for every button and every prime with `l > 0`.
    let mut period_parts: Vec<Vec<u64>> = vec![Vec::new(); buttons];
    // Quiet-pattern generators per prime: `(p, x_j mod p^(l_j) for each j, log_p of the order)`.
    let mut prime_generators: Vec<(u64, Vec<u64>, u32)> = Vec::new();
    let primes: Vec<(u64, u32)> = split.primes.iter().map(|(&p, &e)| (p, e)).collect();
    // A basis that [`lift_basis`] would surely drop (too many entries) is not worked out: its
    // generators cost another elimination per prime (a random sparse system of 5000 cells and
    // buttons: 100 s with them, 9 s without).
    let wanted = basis != Basis::Left && !basis_surely_dropped(puzzle, &by_cell, &split, &primes);
    // Set when a prime proves that no right side is solvable: the primes after it then leave
    // their generators out (when the basis is wanted only if solvable).
    let unsolvable = std::sync::atomic::AtomicBool::new(false);
    let basis_at = |particulars: &[Option<Vec<u64>>]| {
        if !wanted {
            return false;
        }
        if basis == Basis::IfSolvable && particulars.iter().all(Option::is_none) {
            unsolvable.store(true, std::sync::atomic::Ordering::Relaxed);
        }
        basis == Basis::Kept || !unsolvable.load(std::sync::atomic::Ordering::Relaxed)
    };
    let solve_prime =
        |&(p, e_max): &(u64, u32)| solve_at_prime(puzzle, &by_cell, &split, differences, basis_at, p, e_max);
    // Primes are solved side by side when their systems together are worth a thread and
    // small enough that holding several at once stays within the memory estimate (one
    // matrix of every cell's row) or a few megabytes.
    let entries: usize = primes
        .iter()
        .map(|&(p, _)| (0..puzzle.cell_count()).filter(|&i| split.exponent(i, p) > 0).count())
        .sum::<usize>()
        .saturating_mul(buttons + 1);
    let side_by_side = primes.len() > 1
        && entries >= PRIMES_IN_PARALLEL_FROM
        && (entries <= puzzle.cell_count().saturating_mul(buttons + 1) || entries <= 1 << 22);
    let solved: Vec<PrimeSolution> = if side_by_side {
        let stop = crate::bounded::Stop::here();
        primes.par_iter().with_max_len(1).map(|prime| stop.carry(|| solve_prime(prime))).collect()
    } else {
        primes.iter().map(solve_prime).collect()
    };
    for PrimeSolution { p, exponent, generators, period_exponents, particulars } in solved {
        kernel_size *= num_traits::Pow::pow(BigUint::from(p), exponent);
        if exponent > 0 {
            kernel_factors.push((p, exponent));
        }
        prime_generators.extend(generators.into_iter().map(|(v, order)| (p, v, order)));
        for (j, &l) in period_exponents.iter().enumerate() {
            if l > 0 {
                period_parts[j].push(p.pow(l));
            }
        }
        for ((parts, solvable), particular) in parts.iter_mut().zip(&mut solvable).zip(particulars) {
            match particular {
                Some(x) => {
                    for (j, &l) in period_exponents.iter().enumerate() {
                        if l > 0 {
                            let pl = p.pow(l);
                            parts[j].push((x[j] % pl, pl));
                        }
                    }
                }
                None => *solvable = false,
            }
        }
    }
    let periods: Vec<BigUint> =
        period_parts.iter().map(|list| list.iter().map(|&q| BigUint::from(q)).product()).collect();
    let solutions = parts
        .iter()
        .zip(&solvable)
        .map(|(parts, &ok)| ok.then(|| parts.iter().map(|list| crt::combine(list)).collect::<Vec<_>>()))
        .collect();
    let basis = wanted && (basis == Basis::Kept || solvable.iter().any(|&ok| ok));
    let quiet_basis = if basis { lift_basis(prime_generators, &period_parts) } else { Vec::new() };
    let answer = Answer {
        periods,
        presses: None,
        count: BigUint::zero(),
        kernel_size,
        quiet_basis,
        method: Method::Modular,
        seeds: None,
        chased: false,
        kernel_factors: Some(kernel_factors),
    };
    (answer, solutions)
}

/// Whether the quiet basis is sure to pass [`super::BASIS_ENTRY_LIMIT`] entries (generators ×
/// buttons), so that [`lift_basis`] would leave it out ([`least_generators`] times the
/// buttons is past it). Not counted where no basis could pass.
fn basis_surely_dropped(
    puzzle: &Puzzle,
    by_cell: &ByCell,
    split: &PrimeSplit,
    primes: &[(u64, u32)],
) -> bool {
    let buttons = puzzle.button_count() as u128;
    buttons * buttons * primes.len() as u128 > super::BASIS_ENTRY_LIMIT
        && least_generators(puzzle, by_cell, split, primes) * buttons > super::BASIS_ENTRY_LIMIT
}

/// A lower bound on the quiet basis's generators: at each prime `p` the quiet patterns (a
/// subgroup of the buttons' periods) need at least as many generators as the buttons that
/// change some cell modulo its power of `p` (the rank of the group of their residues), less
/// the cells that `p` divides (the most the rank of the image can be). One pass over each
/// prime's rows.
fn least_generators(puzzle: &Puzzle, by_cell: &ByCell, split: &PrimeSplit, primes: &[(u64, u32)]) -> u128 {
    let mut generators = 0u128;
    let mut active = vec![false; puzzle.button_count()];
    for &(p, _) in primes {
        active.fill(false);
        let mut rows = 0usize;
        for i in 0..puzzle.cell_count() {
            let e = split.exponent(i, p);
            if e == 0 {
                continue;
            }
            rows += 1;
            let pe = p.pow(e);
            by_cell.for_each_in_row(i, |j, a| {
                if a % pe != 0 {
                    active[j] = true;
                }
            });
        }
        let changed = active.iter().filter(|&&a| a).count();
        generators += changed.saturating_sub(rows) as u128;
    }
    generators
}

/// The system at prime `p` (largest exponent `e_max`) for every right side in `differences`:
/// its count exponent, its quiet generators when `basis` says so of the particular solutions,
/// the buttons' period exponents and a particular solution per right side, for
/// [`solve_many_basis`] to combine.
fn solve_at_prime(
    puzzle: &Puzzle,
    by_cell: &ByCell,
    split: &PrimeSplit,
    differences: &[Vec<u64>],
    basis: impl Fn(&[Option<Vec<u64>>]) -> bool,
    p: u64,
    e_max: u32,
) -> PrimeSolution {
    let buttons = puzzle.button_count();
    let exponents: Vec<u32> = (0..puzzle.cell_count()).map(|i| split.exponent(i, p)).collect();
    let rows: Vec<usize> = (0..puzzle.cell_count()).filter(|&i| exponents[i] > 0).collect();
    let mut matrix = vec![0u64; rows.len() * buttons];
    let mut period_exponents = vec![0u32; buttons];
    // `p^e` and `p^(E - e)` for each exponent `e <= E` a cell may have.
    let powers: Vec<u64> = (0..=e_max).map(|e| p.pow(e)).collect();
    // Row by row, so that only the cells this prime divides are visited.
    for (r, &i) in rows.iter().enumerate() {
        let e = exponents[i];
        let (pe, scale) = (powers[e as usize], powers[(e_max - e) as usize]);
        let row = &mut matrix[r * buttons..(r + 1) * buttons];
        by_cell.for_each_in_row(i, |j, a| {
            // Without a branch on zero (a dense row passes every entry): a zero leaves
            // the row and the period as they are.
            let local = if a < pe { a } else { a % pe };
            // Below `p`, a residue is zero or a unit.
            let v = if local < p { 0 } else { valuation(local, p) };
            let period = if local == 0 { 0 } else { e - v };
            period_exponents[j] = period_exponents[j].max(period);
            row[j] = local * scale;
        });
    }
    let rhs: Vec<Vec<u64>> = differences
        .iter()
        .map(|d| {
            rows.iter()
                .map(|&i| {
                    let e = exponents[i];
                    (d[i] % powers[e as usize]) * powers[(e_max - e) as usize]
                })
                .collect()
        })
        .collect();
    let system = PrimePowerSystem { p, e: e_max, rows: rows.len(), cols: buttons, matrix, rhs };
    let echelon = system.eliminate();
    let projected: u64 = period_exponents.iter().map(|&l| (e_max - l) as u64).sum();
    let exponent = echelon.solution_count_exponent() - projected;
    let particulars: Vec<_> = (0..differences.len()).map(|which| echelon.particular(which)).collect();
    let generators = if basis(&particulars) { period_basis(&echelon, &period_exponents) } else { Vec::new() };
    PrimeSolution { p, exponent, generators, period_exponents, particulars }
}

/// Below this many matrix entries in all, the primes are solved one after another (starting
/// threads would cost more than it saves).
const PRIMES_IN_PARALLEL_FROM: usize = 1 << 14;

/// What one prime contributes: `log_p` of its share of the kernel, its quiet-pattern
/// generators (residues and `log_p` of the order), the exponent of `p` in each button's
/// period, and a solution mod `p^E` for each right side (`None`: none exists).
struct PrimeSolution {
    p: u64,
    exponent: u64,
    generators: Vec<(Vec<u64>, u32)>,
    period_exponents: Vec<u32>,
    particulars: Vec<Option<Vec<u64>>>,
}

/// The buttons' effects arranged by cell, as the rows of the system are built from them: in a
/// cells × buttons table of bytes when every modulus is at most 256 and the table is no
/// larger than the list of entries (dense systems), else as lists.
enum ByCell {
    /// Amount of button `j` on cell `i` at `i · buttons + j`, reduced, repeats merged.
    Table {
        buttons: usize,
        amounts: Vec<u8>,
    },
    Lists(EffectsByCell),
}

impl ByCell {
    fn new(puzzle: &Puzzle) -> Self {
        let (cells, buttons) = (puzzle.cell_count(), puzzle.button_count());
        let entries: usize = match &puzzle.buttons {
            Buttons::Explicit(list) => list.iter().map(Vec::len).sum(),
            Buttons::Graph { .. } => 0,
        };
        let table = cells.checked_mul(buttons).filter(|&size| size <= entries.saturating_mul(16));
        match table {
            Some(size) if puzzle.moduli.iter().all(|&m| m <= 256) => {
                let mut amounts = vec![0u8; size];
                for j in 0..buttons {
                    puzzle.for_each_effect(j, |i, a| {
                        let slot = &mut amounts[i * buttons + j];
                        *slot = add_mod(u64::from(*slot), a, puzzle.moduli[i]) as u8;
                    });
                }
                ByCell::Table { buttons, amounts }
            }
            _ => ByCell::Lists(EffectsByCell::new(puzzle)),
        }
    }

    /// Calls `f(j, a)` for the buttons `j` that change cell `i`, in order, with their amounts
    /// (a table passes every button, zeros too).
    #[inline]
    fn for_each_in_row(&self, i: usize, mut f: impl FnMut(usize, u64)) {
        match self {
            ByCell::Table { buttons, amounts } => {
                for (j, &a) in amounts[i * buttons..(i + 1) * buttons].iter().enumerate() {
                    f(j, u64::from(a));
                }
            }
            ByCell::Lists(lists) => {
                for &(j, a) in lists.row(i) {
                    f(j, a);
                }
            }
        }
    }
}

/// The buttons' effects arranged by cell: for each cell, `(button, amount)` for every button
/// that changes it, in button order, amounts reduced and merged (what the rows of the system
/// are built from).
struct EffectsByCell {
    /// Where each cell's entries start in `entries` (room for the unmerged count).
    starts: Vec<usize>,
    /// How many entries each cell has.
    lens: Vec<usize>,
    entries: Vec<(usize, u64)>,
}

impl EffectsByCell {
    fn new(puzzle: &Puzzle) -> Self {
        let cells = puzzle.cell_count();
        let mut starts = vec![0usize; cells + 1];
        match &puzzle.buttons {
            // Room for every pair as written (some may reduce to zero or merge).
            Buttons::Explicit(list) => list.iter().flatten().for_each(|&(i, _)| starts[i + 1] += 1),
            Buttons::Graph { .. } => {
                (0..puzzle.button_count()).for_each(|j| puzzle.for_each_effect(j, |i, _| starts[i + 1] += 1))
            }
        }
        for i in 0..cells {
            starts[i + 1] += starts[i];
        }
        let mut lens = vec![0usize; cells];
        let mut entries = vec![(0usize, 0u64); starts[cells]];
        for j in 0..puzzle.button_count() {
            // A cell a button names twice is merged into its last entry, which is this
            // button's if any (a merged zero is taken out).
            puzzle.for_each_effect(j, |i, a| {
                let row = starts[i]..starts[i] + lens[i];
                match entries[row].last_mut() {
                    Some((button, total)) if *button == j => {
                        *total = add_mod(*total, a, puzzle.moduli[i]);
                        if *total == 0 {
                            lens[i] -= 1;
                        }
                    }
                    _ => {
                        entries[starts[i] + lens[i]] = (j, a);
                        lens[i] += 1;
                    }
                }
            });
        }
        EffectsByCell { starts, lens, entries }
    }

    /// Cell `i`'s entries.
    fn row(&self, i: usize) -> &[(usize, u64)] {
        &self.entries[self.starts[i]..self.starts[i] + self.lens[i]]
    }
}

/// A button's period `M` (below 2^64) and, for each of its prime powers `q`, the residue that is
/// 1 modulo `q` and 0 modulo the others: `(M, [(q, e_q)])`.
type Idempotents = (u64, Vec<(u64, u64)>);

/// The quiet-pattern basis from the generators of every prime (`(p, x_j mod p^(l_j) for each
/// j, log_p of the order)`), each combined by CRT into `Π Z/L_j` (`period_parts[j]` lists the
/// prime powers of `L_j`). A basis of k plans holds k × buttons big integers: past
/// [`super::BASIS_ENTRY_LIMIT`] it is left out (empty).
pub(crate) fn lift_basis(
    mut prime_generators: Vec<(u64, Vec<u64>, u32)>,
    period_parts: &[Vec<u64>],
) -> Vec<Generator> {
    let basis_entries = prime_generators.len() as u128 * period_parts.len() as u128;
    let kept = if basis_entries <= super::BASIS_ENTRY_LIMIT { prime_generators.len() } else { 0 };
    // Per button, when its period fits a u64: the period and each prime power's idempotent
    // (1 modulo it, 0 modulo the others), so that a residue lifts by one product.
    let idempotents: Vec<Option<Idempotents>> = if kept == 0 {
        Vec::new()
    } else {
        period_parts
            .iter()
            .map(|list| {
                let m = list.iter().try_fold(1u64, |a, &q| a.checked_mul(q))?;
                let parts = list
                    .iter()
                    .map(|&q| Some((q, mul_mod(m / q, inv_mod((m / q) % q, q)?, m))))
                    .collect::<Option<Vec<_>>>()?;
                Some((m, parts))
            })
            .collect()
    };
    let lift = |(p, residues, order): (u64, Vec<u64>, u32)| -> Generator {
        let presses = period_parts
            .iter()
            .zip(&residues)
            .zip(&idempotents)
            .map(|((list, &r), words)| match words {
                Some((m, parts)) => {
                    let lifted =
                        parts.iter().find(|&&(q, _)| q % p == 0).map_or(0, |&(q, e)| mul_mod(r % q, e, *m));
                    BigUint::from(lifted)
                }
                None => {
                    let lifted: Vec<(u64, u64)> =
                        list.iter().map(|&q| (if q % p == 0 { r } else { 0 }, q)).collect();
                    crt::combine(&lifted)
                }
            })
            .collect();
        Generator { presses, order: BigUint::from(p).pow(order) }
    };
    prime_generators.truncate(kept);
    if basis_entries >= 1 << 14 {
        prime_generators.into_par_iter().map(lift).collect()
    } else {
        prime_generators.into_iter().map(lift).collect()
    }
}

/// A basis of the quiet patterns at one prime, in period space: each generator as residues
/// `x_j mod p^(l_j)` with `log_p` of its order.
///
/// The kernel mod `p^E` is generated by the echelon's kernel generators; reducing them to
/// periods loses uniqueness, so the reduced vectors are embedded back into `Z/p^E` (coordinate
/// `j` scaled by `p^(E - l_j)`) and eliminated once more, which gives a basis with unique
/// coefficients (see [`crate::algebra::echelon::Echelon::row_basis`]).
///
/// When every button's period holds all of `p^E` nothing is lost: the echelon's generators
/// already have unique coefficients and their true orders (lowest-valuation pivots come in
/// increasing valuation), and the second elimination only reduces them (sparser plans, easier to
/// read in a report). Past [`REDUCED_BASIS_ENTRIES`] that reduction, which would cost about as
/// much as the first elimination, is skipped. (Not so for other generators, such as the sparse
/// path's Howell form, whose pivots are not in that order.)
fn period_basis(echelon: &Echelon, period_exponents: &[u32]) -> Vec<(Vec<u64>, u32)> {
    let (p, e_max) = echelon.modulus_parts();
    let generators = echelon.kernel_generators();
    if generators.len() * period_exponents.len() > REDUCED_BASIS_ENTRIES
        && period_exponents.iter().all(|&l| l == e_max)
    {
        return generators;
    }
    period_basis_of(p, e_max, &generators, period_exponents)
}

/// Past this many entries (generators × buttons) a dense quiet basis at one prime is not reduced.
const REDUCED_BASIS_ENTRIES: usize = 1 << 14;

/// [`period_basis`] from any generators of the kernel mod `p^E` (vectors over the columns
/// whose period exponents are given).
pub(crate) fn period_basis_of(
    p: u64,
    e_max: u32,
    generators: &[(Vec<u64>, u32)],
    period_exponents: &[u32],
) -> Vec<(Vec<u64>, u32)> {
    let cols = period_exponents.len();
    let mut matrix = vec![0u64; generators.len() * cols];
    for (r, (v, _)) in generators.iter().enumerate() {
        for (j, &l) in period_exponents.iter().enumerate() {
            if l > 0 {
                matrix[r * cols + j] = (v[j] % p.pow(l)) * p.pow(e_max - l);
            }
        }
    }
    let system = PrimePowerSystem { p, e: e_max, rows: generators.len(), cols, matrix, rhs: vec![] };
    system
        .eliminate()
        .row_basis()
        .into_iter()
        .map(|(row, w)| {
            let residues = row
                .iter()
                .zip(period_exponents)
                .map(|(&a, &l)| if l > 0 { a / p.pow(e_max - l) } else { 0 })
                .collect();
            (residues, e_max - w)
        })
        .collect()
}

/// Solves a dense system `A·y ≡ b` over `Z/m` (`rows × cols`, entries reduced): one solution,
/// the kernel as generators of `(Z/m)^cols` with their orders (unique coefficients), and the
/// solution count as `[(p, exponent)]` (`Π p^exponent` solutions when solvable).
#[allow(clippy::type_complexity)]
pub(crate) fn solve_dense(
    m: u64,
    rows: usize,
    cols: usize,
    matrix: Vec<u64>,
    rhs: Vec<u64>,
) -> (Option<Vec<u64>>, Vec<(Vec<u64>, u64)>, Vec<(u64, u64)>) {
    let mut parts: Vec<Vec<(u64, u64)>> = vec![Vec::new(); cols];
    let mut solvable = true;
    let mut exponents = Vec::new();
    let mut prime_kernels: Vec<(u64, Vec<u64>, u64)> = Vec::new();
    for (p, e) in factorize(m) {
        let q = p.pow(e);
        let system = PrimePowerSystem {
            p,
            e,
            rows,
            cols,
            matrix: matrix.iter().map(|&a| a % q).collect(),
            rhs: vec![rhs.iter().map(|&b| b % q).collect()],
        };
        let echelon = system.eliminate();
        exponents.push((p, echelon.solution_count_exponent()));
        match echelon.particular(0) {
            Some(y) => y.iter().enumerate().for_each(|(j, &v)| parts[j].push((v, q))),
            None => solvable = false,
        }
        for (g, order) in echelon.kernel_generators() {
            prime_kernels.push((q, g, p.pow(order)));
        }
    }
    let moduli: Vec<u64> = factorize(m).into_iter().map(|(p, e)| p.pow(e)).collect();
    let lift = |q: u64, v: &[u64]| -> Vec<u64> {
        v.iter()
            .map(|&r| {
                let list: Vec<(u64, u64)> = moduli.iter().map(|&t| (if t == q { r } else { 0 }, t)).collect();
                num_traits::ToPrimitive::to_u64(&crt::combine(&list)).expect("below m")
            })
            .collect()
    };
    let solution = solvable.then(|| {
        parts
            .iter()
            .map(|list| num_traits::ToPrimitive::to_u64(&crt::combine(list)).expect("below m"))
            .collect()
    });
    let kernel = prime_kernels.iter().map(|(q, g, order)| (lift(*q, g), *order)).collect();
    (solution, kernel, exponents)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Topology;
    use num_traits::ToPrimitive;
    use rand::{RngExt, SeedableRng, rngs::StdRng};

    /// [`least_generators`] never exceeds the quiet basis's true size: on random explicit
    /// puzzles of moduli 2..=36 (prime powers and mixed primes), wide and tall, every basis
    /// worked out whole has at least that many generators; and the bound is reached or nearly
    /// so on wide systems (more buttons than cells).
    #[test]
    fn least_generators_never_exceed_the_basis() {
        let mut rng = StdRng::seed_from_u64(4);
        let (mut compared, mut tight) = (0, 0);
        for round in 0..400 {
            let cells = rng.random_range(1..12);
            let n = rng.random_range(1..16);
            let moduli: Vec<u64> = (0..cells).map(|_| rng.random_range(2..=36)).collect();
            let buttons: Vec<Vec<(usize, i64)>> = (0..n)
                .map(|_| {
                    (0..rng.random_range(0..4))
                        .map(|_| (rng.random_range(0..cells), rng.random_range(1..=36)))
                        .collect()
                })
                .collect();
            let puzzle = Puzzle::builder(Topology::Cells(cells))
                .moduli(moduli)
                .buttons(buttons)
                .build()
                .expect("valid");
            let split = PrimeSplit::new(&puzzle.moduli);
            let primes: Vec<(u64, u32)> = split.primes.iter().map(|(&p, &e)| (p, e)).collect();
            let least = least_generators(&puzzle, &ByCell::new(&puzzle), &split, &primes);
            let answer = solve_basis(&puzzle, Basis::Kept);
            assert!(answer.has_full_basis(), "round {round}");
            let size = answer.quiet_basis.len() as u128;
            assert!(least <= size, "round {round}: at least {least}, basis {size}");
            compared += 1;
            tight += usize::from(least > 0 && least == size);
        }
        assert!(compared == 400 && tight > 20, "{tight} tight");
    }

    /// Random explicit puzzles that name cells several times in one button, with amounts that
    /// often cancel: the rows by cell hold exactly the merged effects, and the solver's plan
    /// and count agree with every press vector tried.
    #[test]
    fn repeated_cells_merge_into_the_rows() {
        let mut rng = StdRng::seed_from_u64(3);
        for round in 0..300 {
            let cells = rng.random_range(1..5);
            let moduli: Vec<u64> = (0..cells).map(|_| rng.random_range(2..=6)).collect();
            let buttons: Vec<Vec<(usize, i64)>> = (0..rng.random_range(1..4))
                .map(|_| {
                    (0..rng.random_range(0..6))
                        .map(|_| (rng.random_range(0..cells), rng.random_range(-6..=6)))
                        .collect()
                })
                .collect();
            let start: Vec<u64> = moduli.iter().map(|&m| rng.random_range(0..m)).collect();
            let puzzle = Puzzle::builder(Topology::Cells(cells))
                .moduli(moduli.clone())
                .buttons(buttons.clone())
                .start(start)
                .build()
                .expect("valid");
            let (lists, table) = (EffectsByCell::new(&puzzle), ByCell::new(&puzzle));
            if buttons.iter().any(|b| !b.is_empty()) {
                assert!(matches!(table, ByCell::Table { .. }), "a small dense system is held in a table");
            }
            for i in 0..cells {
                let expected: Vec<(usize, u64)> = (0..buttons.len())
                    .filter_map(|j| puzzle.effects(j).into_iter().find(|&(c, _)| c == i).map(|(_, a)| (j, a)))
                    .collect();
                assert_eq!(lists.row(i), expected, "round {round}, cell {i}");
                let mut from_table = Vec::new();
                table.for_each_in_row(i, |j, a| from_table.push((j, a)));
                from_table.retain(|&(_, a)| a != 0);
                assert_eq!(from_table, expected, "round {round}, cell {i}");
            }
            // Every press vector below the periods: the count of those that solve it.
            let periods: Vec<u64> = puzzle.periods().iter().map(|l| l.to_u64().expect("small")).collect();
            let mut solving = 0u64;
            let mut x = vec![0u64; periods.len()];
            loop {
                let presses: Vec<BigUint> = x.iter().map(|&v| BigUint::from(v)).collect();
                solving += u64::from(puzzle.solves(&presses));
                let Some(j) = (0..x.len()).find(|&j| x[j] + 1 < periods[j]) else { break };
                x[j] += 1;
                x[..j].fill(0);
            }
            let answer = solve(&puzzle);
            assert_eq!(answer.count, BigUint::from(solving), "round {round}");
            if let Some(plan) = &answer.presses {
                assert!(puzzle.solves(plan), "round {round}");
            }
        }
    }
}
