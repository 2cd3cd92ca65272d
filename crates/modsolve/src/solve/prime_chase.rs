//! Propagation at one prime: the sparse path's front end for the equations that keep a unit.
//!
//! After the split by prime, the system at `p` is over `Z/p^E`, and a cell whose modulus holds a
//! lower power of `p` (or none) has a scaled row (or none), so light chasing as such no longer
//! applies. Yet where most cells keep the full power — a grid mostly mod 4 with a few cells mod
//! 3, moduli 6 and 30 — most rows still have unit weights. Here the rows are ordered as general
//! propagation orders them ([`super::propagation::order_with`]): an equation whose unknowns are
//! known but one, with a unit weight (not divisible by `p`), determines it; when none does, an
//! unknown becomes a symbolic seed. The equations used for nothing form the residual system
//! `R·y ≡ c` over the seeds, eliminated densely over `Z/p^E`.
//!
//! Defining identity: the map from seed values to full solutions is a bijection between the
//! residual's solutions and the prime's solutions in `(Z/p^E)^columns` (each determined unknown
//! is a function of the seeds, and the seeds are coordinates), so the count exponent, one
//! solution and kernel generators with their orders carry over unchanged; the sparse path then
//! projects to periods and combines the primes exactly as it does after elimination.
//!
//! Cost: each unknown's affine form in the seeds (`S + 1` residues) lives only while an
//! equation still needs it, so memory is the front of the order times `S` (two rows of a grid),
//! and time is the rows' entries times `S`; the residual is `R × S` dense. Plans and quiet
//! generators are then chased numerically, one pass over the entries each.

use super::propagation::{Order, Step, order_with};
use crate::algebra::arith::{Ring, add_mod, inv_mod, mul_mod, sub_mod, valuation};
use crate::algebra::echelon::{Accumulator, Echelon, PrimePowerSystem};
use crate::algebra::sparse::SparseRow;
use crate::bounded::checkpoint;

/// One prime's system solved by propagation: the order, and the residual system's echelon.
pub(crate) struct Chased {
    q: u64,
    rows: Vec<Vec<(usize, u64)>>,
    rhs: Vec<u64>,
    order: Order,
    /// For each step, the inverse of the determining weight (0 for a seed).
    inverses: Vec<u64>,
    columns: usize,
    /// `Σ (E − l_k)` over the determined unknowns: the digits of `x_k` above `p^(l_k)` that
    /// every equation ignores.
    lifted: u64,
    /// Whether every determining equation's right side is divisible by its scale.
    consistent: bool,
    echelon: Echelon,
}

/// Chasing one prime may hold at most this many bytes: half for the residual system (`R × S`
/// words, and the lanes its elimination copies them into), half for the live forms. The memory
/// estimate of the sparse path ([`crate::memory`]) counts [`memory_bound`].
const MEMORY_LIMIT: u64 = 160 << 20;

/// The most chasing may add to the sparse path's memory on a puzzle of `cells` cells: at most
/// one seed in eight, so `R × S` stays under `cells²/8` words.
pub(crate) fn memory_bound(cells: u64) -> u64 {
    MEMORY_LIMIT.min(cells.saturating_mul(cells).saturating_mul(4))
}

/// Orders the rows of the system at `p` (over `Z/p^E`, one unknown per entry of
/// `column_exponents`, the period exponents `l_j`) and eliminates the residual; `None` when more
/// than `max_seeds` seeds would be needed, the residual would be too large, or the forms and the
/// residual would cost more than `max_work` multiply-adds.
pub(crate) fn chase(
    p: u64,
    e: u32,
    system: &[SparseRow],
    column_exponents: &[u32],
    max_seeds: usize,
    max_work: u128,
) -> Option<Chased> {
    let q = p.pow(e);
    let columns = column_exponents.len();
    let mut rows: Vec<Vec<(usize, u64)>> = system
        .iter()
        .map(|r| r.cols.iter().map(|&c| c as usize).zip(r.vals.iter().copied()).collect())
        .collect();
    let mut rhs: Vec<u64> = system.iter().map(|r| r.rhs).collect();
    let mut by_unknown: Vec<Vec<usize>> = vec![Vec::new(); columns];
    for (i, row) in rows.iter().enumerate() {
        for &(j, _) in row {
            by_unknown[j].push(i);
        }
    }
    // An equation determines unknown k when its weight on k has the valuation w of the whole row
    // (then the row is p^w times a row with a unit on k) and w = E − l_k, the least valuation
    // any weight on k can have: the equation fixes x_k mod p^(l_k), all that matters of it.
    let row_valuation: Vec<u32> =
        rows.iter().map(|row| row.iter().map(|&(_, a)| valuation(a, p)).min().unwrap_or(e)).collect();
    let determines = |i: usize, k: usize, a: u64| {
        let w = valuation(a, p);
        w == row_valuation[i] && w == e - column_exponents[k]
    };
    let entries = rows.iter().map(Vec::len).sum::<usize>().max(1) as u128;
    let max_seeds = max_seeds.min((max_work / entries).min(usize::MAX as u128) as usize);
    let order = order_with(&rows, &by_unknown, determines, max_seeds)?;
    let (s, r) = (order.seeds, order.residual.len());
    // The residual's dense elimination runs in narrow lanes, about 16 multiply-adds at a time.
    let work = entries * s as u128 + (r * s) as u128 * r.min(s) as u128 / 16;
    // The residual's words, and the lanes its elimination copies them into.
    let per_entry = 8 + match Accumulator::for_modulus(q) {
        Accumulator::Bits => 1,
        Accumulator::Lazy16 => 2,
        Accumulator::Lazy32 => 4,
        _ => 8,
    };
    if (s as u64).saturating_mul(r as u64).saturating_mul(per_entry) > MEMORY_LIMIT / 2 || work > max_work {
        return None;
    }
    // Divide each determining equation by its p^w; a right side that p^w does not divide makes
    // the system unsolvable.
    let mut lifted = 0u64;
    let mut consistent = true;
    for step in &order.steps {
        if let Step::Determine { unknown, equation } = *step {
            let w = e - column_exponents[unknown];
            lifted += w as u64;
            if w > 0 {
                let scale = p.pow(w);
                rows[equation].iter_mut().for_each(|(_, a)| *a /= scale);
                consistent &= rhs[equation].is_multiple_of(scale);
                rhs[equation] /= scale;
            }
        }
    }
    let ring = Ring::new(q);
    let pass = Pass { ring, rows: &rows, rhs: &rhs, order: &order, by_unknown: &by_unknown, columns };
    // Narrow lanes (four products an instruction) where a u32 holds hundreds of products.
    let (matrix, residual_rhs, inverses) = if q <= 1 << 12 || (q.is_power_of_two() && q <= 1 << 32) {
        pass.run::<u32>()?
    } else {
        pass.run::<u64>()?
    };
    let echelon = PrimePowerSystem { p, e, rows: r, cols: s, matrix, rhs: vec![residual_rhs] }.eliminate();
    Some(Chased { q, rows, rhs, order, inverses, columns, lifted, consistent, echelon })
}

/// The forms pass: what it reads.
struct Pass<'a> {
    ring: Ring,
    rows: &'a [Vec<(usize, u64)>],
    rhs: &'a [u64],
    order: &'a Order,
    by_unknown: &'a [Vec<usize>],
    columns: usize,
}

/// The residual matrix (`R × S`), its right side, and each step's inverse weight.
type Residual = (Vec<u64>, Vec<u64>, Vec<u64>);

impl Pass<'_> {
    /// Walks the order, keeping each unknown's form in the seeds while an equation needs it,
    /// and writes the residual rows as their equations close. `None` when the live forms would
    /// pass half of [`MEMORY_LIMIT`], or a determining weight has no inverse (never, by the
    /// order's construction).
    fn run<T: Lane>(&self) -> Option<Residual> {
        let (ring, rows, rhs, order) = (self.ring, self.rows, self.rhs, self.order);
        let q = ring.q;
        let (s, r) = (order.seeds, order.residual.len());
        let width = s + 1;
        let mut inverses = vec![0u64; order.steps.len()];
        // Live forms (empty once no open equation needs them), and the equations still to
        // consume per unknown.
        let mut forms: Vec<Vec<T>> = vec![Vec::new(); self.columns];
        // Residues held by live forms, and the most the memory limit allows.
        let mut live = 0usize;
        let most = (MEMORY_LIMIT / 2) as usize / std::mem::size_of::<T>();
        let mut refs: Vec<usize> = self.by_unknown.iter().map(Vec::len).collect();
        let mut open: Vec<usize> = rows.iter().map(Vec::len).collect();
        let mut residual_of = vec![usize::MAX; rows.len()];
        for (k, &i) in order.residual.iter().enumerate() {
            residual_of[i] = k;
        }
        let mut matrix = vec![0u64; r * s];
        let mut residual_rhs = vec![0u64; r];
        let mut sum = Accumulate::<T>::new(ring, width);
        // Σ (factor·a_j)·form_j over the row's unknowns but `skip` into `sum`, which holds zeros
        // (a determined unknown takes the sum's values away, a residual row clears them).
        let combine = |i: usize, skip: usize, factor: u64, forms: &[Vec<T>], sum: &mut Accumulate<T>| {
            for &(j, a) in &rows[i] {
                if j != skip {
                    sum.add(ring.mul(a, factor), &forms[j]);
                }
            }
            sum.finish();
        };
        let release = |i: usize, forms: &mut Vec<Vec<T>>, refs: &mut Vec<usize>, live: &mut usize| {
            for &(j, _) in &rows[i] {
                refs[j] -= 1;
                if refs[j] == 0 {
                    *live -= forms[j].len();
                    forms[j] = Vec::new();
                }
            }
        };
        // Equations with no unknown at all are residual from the start.
        for (i, row) in rows.iter().enumerate() {
            if row.is_empty() {
                residual_rhs[residual_of[i]] = rhs[i];
            }
        }
        let mut next_seed = 0;
        for (step_index, step) in order.steps.iter().enumerate() {
            if step_index % 256 == 0 {
                checkpoint();
            }
            let unknown = match *step {
                Step::Seed(j) => {
                    let mut f = vec![T::default(); width];
                    f[next_seed] = T::from_u64(1);
                    forms[j] = f;
                    live += width;
                    next_seed += 1;
                    j
                }
                Step::Determine { unknown, equation } => {
                    // x_k = inv·rhs − Σ (inv·a_j)·x_j.
                    let own = rows[equation].iter().find(|&&(j, _)| j == unknown).map_or(0, |&(_, a)| a);
                    let inv = inv_mod(own, q)?;
                    inverses[step_index] = inv;
                    combine(equation, unknown, q - inv, &forms, &mut sum);
                    let mut f = sum.take();
                    f[s] = T::from_u64(add_mod(f[s].to_u64(), ring.mul(rhs[equation], inv), q));
                    forms[unknown] = f;
                    live += width;
                    release(equation, &mut forms, &mut refs, &mut live);
                    unknown
                }
            };
            if live > most {
                return None;
            }
            // Residual equations whose last unknown this was: their row over the seeds.
            for &i in &self.by_unknown[unknown] {
                open[i] -= 1;
                if open[i] == 0 && residual_of[i] != usize::MAX {
                    let k = residual_of[i];
                    combine(i, usize::MAX, 1, &forms, &mut sum);
                    for (m, &v) in matrix[k * s..(k + 1) * s].iter_mut().zip(&sum.values) {
                        *m = v.to_u64();
                    }
                    residual_rhs[k] = sub_mod(rhs[i], sum.values[s].to_u64(), q);
                    sum.clear();
                    release(i, &mut forms, &mut refs, &mut live);
                }
            }
        }
        Some((matrix, residual_rhs, inverses))
    }
}

/// A form's residue: `u32` for small moduli (the products vectorise four at a time), else `u64`.
trait Lane: Copy + Default + Send {
    const BITS: u32;
    fn from_u64(x: u64) -> Self;
    fn to_u64(self) -> u64;
    /// `values += a·form` entrywise, wrapping.
    fn add_multiple(values: &mut [Self], a: u64, form: &[Self]);
}

macro_rules! lane {
    ($t:ty) => {
        impl Lane for $t {
            const BITS: u32 = <$t>::BITS;
            fn from_u64(x: u64) -> Self {
                x as $t
            }
            fn to_u64(self) -> u64 {
                self as u64
            }
            fn add_multiple(values: &mut [$t], a: u64, form: &[$t]) {
                let a = a as $t;
                for (v, &f) in values.iter_mut().zip(form) {
                    *v = v.wrapping_add(a.wrapping_mul(f));
                }
            }
        }
    };
}
lane!(u32);
lane!(u64);

/// Sums of `a·form` over `Z/q` for a row: lanes without reduction while they cannot overflow.
struct Accumulate<T> {
    ring: Ring,
    values: Vec<T>,
    /// Terms a lane holds before it must be reduced (0: reduce every term).
    per_reduction: usize,
    pending: usize,
}

impl<T: Lane> Accumulate<T> {
    fn new(ring: Ring, width: usize) -> Self {
        let q = ring.q;
        let lane_max = if T::BITS == 64 { u64::MAX } else { (1u64 << T::BITS) - 1 };
        let per_reduction = if q.is_power_of_two() {
            // Wrapping is harmless: 2^BITS is a multiple of q.
            usize::MAX
        } else if q - 1 <= u32::MAX as u64 {
            // A reduced value plus that many products of two residues stays in the lane.
            ((lane_max - (q - 1)) / ((q - 1) * (q - 1)).max(1)).min(1 << 20) as usize
        } else {
            0
        };
        Accumulate { ring, values: vec![T::default(); width], per_reduction, pending: 0 }
    }

    fn clear(&mut self) {
        self.values.iter_mut().for_each(|v| *v = T::default());
        self.pending = 0;
    }

    /// The values, leaving zeros in their place.
    fn take(&mut self) -> Vec<T> {
        self.pending = 0;
        let width = self.values.len();
        std::mem::replace(&mut self.values, vec![T::default(); width])
    }

    fn add(&mut self, a: u64, form: &[T]) {
        let q = self.ring.q;
        if self.per_reduction == 0 {
            for (v, &f) in self.values.iter_mut().zip(form) {
                *v = T::from_u64(add_mod(v.to_u64(), mul_mod(a, f.to_u64(), q), q));
            }
            return;
        }
        if self.pending == self.per_reduction {
            self.finish();
        }
        T::add_multiple(&mut self.values, a, form);
        self.pending += 1;
    }

    fn finish(&mut self) {
        if self.per_reduction != 0 {
            let ring = self.ring;
            self.values.iter_mut().for_each(|v| *v = T::from_u64(ring.reduce(v.to_u64())));
            self.pending = 0;
        }
    }
}

impl Chased {
    /// `log_p` of the number of solutions in `(Z/p^E)^columns`.
    pub(crate) fn solution_count_exponent(&self) -> u64 {
        self.echelon.solution_count_exponent() + self.lifted
    }

    /// How many unknowns were seeds.
    pub(crate) fn seeds(&self) -> usize {
        self.order.seeds
    }

    /// The rows' entries: the work of one chase.
    pub(crate) fn entries(&self) -> usize {
        self.rows.iter().map(Vec::len).sum()
    }

    /// The rank of the residual system.
    pub(crate) fn residual_rank(&self) -> usize {
        self.echelon.rank()
    }

    /// One solution over the columns, when there is one.
    pub(crate) fn particular(&self) -> Option<Vec<u64>> {
        if !self.consistent {
            return None;
        }
        self.echelon.particular(0).map(|y| self.substitute(&y, true))
    }

    /// Generators of the kernel over the columns with `log_p` of their orders.
    pub(crate) fn kernel_generators(&self) -> Vec<(Vec<u64>, u32)> {
        self.echelon
            .kernel_generators()
            .into_iter()
            .map(|(y, order)| (self.substitute(&y, false), order))
            .collect()
    }

    /// How many kernel generators [`Self::kernel_generators`] returns.
    pub(crate) fn kernel_generator_count(&self) -> usize {
        self.echelon.kernel_generator_count()
    }

    /// Chases seed values `y` through the order: every unknown's value (the right sides used
    /// only when `with_rhs`, which gives kernel vectors from kernel seeds).
    fn substitute(&self, y: &[u64], with_rhs: bool) -> Vec<u64> {
        let q = self.q;
        let mut x = vec![0u64; self.columns];
        let mut next_seed = 0;
        for (step, &inv) in self.order.steps.iter().zip(&self.inverses) {
            match *step {
                Step::Seed(j) => {
                    x[j] = y[next_seed];
                    next_seed += 1;
                }
                Step::Determine { unknown, equation } => {
                    let mut v = if with_rhs { self.rhs[equation] } else { 0 };
                    for &(j, a) in &self.rows[equation] {
                        if j != unknown {
                            v = sub_mod(v, mul_mod(a, x[j], q), q);
                        }
                    }
                    x[unknown] = mul_mod(v, inv, q);
                }
            }
        }
        x
    }
}
