//! The one report of a solve: [`SolveReport`], filled by every path (the algebra with its
//! searches, the search solver alone, light chasing in compact form on big boards, and a budget
//! that ran out before the elimination finished) and serialised as the `solve --json` document.
//!
//! The report names its fields once, in order (`SolveReport::fields`); serde's `Serialize` and
//! the streaming [`write_json`] both write them (see `analysis/json.rs`), so a plan of millions
//! of presses is streamed, never built as a string or a JSON value first. The document's shape
//! is pinned by `schema/solve.schema.json` and carries [`SCHEMA_VERSION`].

use num_bigint::BigUint;
use num_traits::{One, ToPrimitive, Zero};
use serde::ser::{Serialize, SerializeMap, Serializer};

pub use super::json::write_json;
use super::json::{Fields, MapFields};

use crate::analysis::{Analysis, Cut, Engine, Listing};
use crate::model::Puzzle;
use crate::solve::Method;
use crate::solve::light_chase::{CompactAnswer, CompactPlan};
use crate::solve::optimize::{Partial, Plan, Proof};
use crate::solve::search::Objective;

/// The version of every JSON document modsolve prints (its `"version"` field). It changes when
/// a field is removed or changes meaning; new fields may appear within a version.
pub const SCHEMA_VERSION: u32 = 1;

/// One number per button (press counts or periods), stored as compactly as the path that made
/// it allows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Numbers {
    /// Big integers (the general path).
    Big(Vec<BigUint>),
    /// 32-bit counts (light chasing in compact form on big boards).
    Small(Vec<u32>),
    /// `len` numbers that are 0 or 1, 64 to a word: number `j` is bit `j % 64` of word `j / 64`
    /// (mod 2 plans of big boards, bit-packed end to end).
    Bits {
        /// The bits; those past `len` are 0.
        words: Vec<u64>,
        /// How many numbers there are.
        len: usize,
    },
    /// `len` copies of one value (the periods of a big board with one modulus).
    Repeated {
        /// The value.
        value: u64,
        /// How many times it is repeated.
        len: usize,
    },
}

impl Numbers {
    /// How many numbers there are.
    pub fn len(&self) -> usize {
        match self {
            Numbers::Big(v) => v.len(),
            Numbers::Small(v) => v.len(),
            Numbers::Bits { len, .. } | Numbers::Repeated { len, .. } => *len,
        }
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Number `j` (`j < len()`).
    pub fn get(&self, j: usize) -> BigUint {
        match self {
            Numbers::Big(v) => v[j].clone(),
            Numbers::Small(v) => BigUint::from(v[j]),
            Numbers::Bits { words, .. } => BigUint::from(bit(words, j)),
            Numbers::Repeated { value, .. } => BigUint::from(*value),
        }
    }

    /// Every number as a big integer.
    pub fn to_big(&self) -> Vec<BigUint> {
        match self {
            Numbers::Big(v) => v.clone(),
            _ => (0..self.len()).map(|j| self.get(j)).collect(),
        }
    }

    /// The sum of the numbers.
    pub fn total(&self) -> BigUint {
        match self {
            Numbers::Big(v) => v.iter().sum(),
            Numbers::Small(v) => BigUint::from(v.iter().map(|&x| x as u64).sum::<u64>()),
            Numbers::Bits { words, .. } => {
                BigUint::from(words.iter().map(|w| u64::from(w.count_ones())).sum::<u64>())
            }
            Numbers::Repeated { value, len } => BigUint::from(*value) * BigUint::from(*len),
        }
    }

    /// The largest number (0 when there are none).
    pub fn max(&self) -> BigUint {
        match self {
            Numbers::Big(v) => v.iter().max().cloned().unwrap_or_default(),
            Numbers::Small(v) => BigUint::from(v.iter().copied().max().unwrap_or(0)),
            Numbers::Bits { words, .. } => BigUint::from(u32::from(words.iter().any(|&w| w != 0))),
            Numbers::Repeated { value, len } => BigUint::from(if *len > 0 { *value } else { 0 }),
        }
    }

    /// How many numbers are not zero.
    pub fn nonzero(&self) -> usize {
        match self {
            Numbers::Big(v) => v.iter().filter(|x| !x.is_zero()).count(),
            Numbers::Small(v) => v.iter().filter(|&&x| x != 0).count(),
            Numbers::Bits { words, .. } => words.iter().map(|w| w.count_ones() as usize).sum(),
            Numbers::Repeated { value, len } => {
                if *value == 0 {
                    0
                } else {
                    *len
                }
            }
        }
    }
}

/// Bit `j % 64` of word `j / 64`, as 0 or 1 (0 past the words).
#[inline]
fn bit(words: &[u64], j: usize) -> u32 {
    words.get(j / 64).map_or(0, |w| (w >> (j % 64) & 1) as u32)
}

/// A big integer as a JSON number when it fits in 64 bits, else as a decimal string.
struct Integer<'a>(&'a BigUint);

impl Serialize for Integer<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.0.to_u64() {
            Some(v) => s.serialize_u64(v),
            None => s.collect_str(self.0),
        }
    }
}

/// A big integer as a decimal string (counts, which outgrow 64 bits on ordinary boards).
struct Decimal<'a>(&'a BigUint);

impl Serialize for Decimal<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self.0)
    }
}

/// `n` in decimal. A number past a million bits is cut at half its digits, `q·10^k + r`,
/// and the two halves are written on two threads at once (a 2000×2000 board's count has 6.5
/// million digits: about 4 s on one thread).
pub(crate) fn decimal(n: &BigUint) -> String {
    decimal_split(n, 1 << 20)
}

/// [`decimal`], cutting numbers of more than `split_bits` bits.
fn decimal_split(n: &BigUint, split_bits: u64) -> String {
    let bits = n.bits();
    if bits <= split_bits.max(8) {
        return n.to_string();
    }
    // 10^k <= 2^(bits / 2) < n: the high half is at least 1 and writes no leading zero; the
    // low half is written on exactly `k` digits.
    let k = (bits as f64 * std::f64::consts::LOG10_2 / 2.0) as usize;
    let (high, low) = num_integer::Integer::div_rem(n, &num_traits::Pow::pow(BigUint::from(10u32), k));
    let (high, low) = rayon::join(|| decimal_split(&high, split_bits), || decimal_split(&low, split_bits));
    let mut out = String::with_capacity(high.len() + k);
    out.push_str(&high);
    out.extend(std::iter::repeat_n('0', k - low.len()));
    out.push_str(&low);
    out
}

/// The decimal digits of `n − 1` from those of `n >= 1`.
pub(crate) fn predecessor(n: &str) -> String {
    let mut digits = n.as_bytes().to_vec();
    for d in digits.iter_mut().rev() {
        if *d == b'0' {
            *d = b'9';
        } else {
            *d -= 1;
            break;
        }
    }
    let lead = digits.iter().take_while(|&&d| d == b'0').count().min(digits.len() - 1);
    String::from_utf8(digits[lead..].to_vec()).expect("ASCII digits")
}

/// Each list is written the ordinary serde way, one `collect_seq` over its values (no number is
/// allocated on the way: bits and repeated values are written as plain integers).
impl Serialize for Numbers {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Numbers::Big(v) => BigList(v).serialize(s),
            Numbers::Small(v) => s.collect_seq(v),
            Numbers::Bits { words, len } => s.collect_seq((0..*len).map(|j| bit(words, j))),
            Numbers::Repeated { value, len } => s.collect_seq(std::iter::repeat_n(value, *len)),
        }
    }
}

/// A plan in the report: presses per button, what it minimises, and whether that is proven.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlanReport {
    /// Presses started per button (a press cut short counts); verified by simulation.
    pub presses: Numbers,
    /// What the plan minimises.
    pub objective: Objective,
    /// Whether it is proven best for its objective, and if not, why not.
    pub proof: Proof,
    /// Staged presses: the last press cut short because the puzzle was solved.
    pub partial: Option<Partial>,
    /// A proven lower bound on the objective's first measure (presses in all, the largest press
    /// count, or the buttons pressed) over every plan; equal to the plan's when it is proven.
    pub lower_bound: Option<BigUint>,
}

impl PlanReport {
    fn of(plan: &Plan) -> Self {
        PlanReport {
            presses: Numbers::Big(plan.presses.clone()),
            objective: plan.objective,
            proof: plan.proof,
            partial: plan.partial,
            lower_bound: plan.lower_bound.clone(),
        }
    }

    /// The total number of presses.
    pub fn total(&self) -> BigUint {
        self.presses.total()
    }
}

/// `{"button": j, "phases": k}`.
struct PartialJson(Partial);

impl Serialize for PartialJson {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(2))?;
        map.serialize_entry("button", &self.0.button)?;
        map.serialize_entry("phases", &self.0.phases)?;
        map.end()
    }
}

impl PlanReport {
    /// The plan's fields in the document, in order (both writers take them from here).
    pub(crate) fn fields<F: Fields>(&self, f: &mut F) -> Result<(), F::Error> {
        f.numbers("presses", Some(&self.presses))?;
        f.field("total_presses", &Integer(&self.total()))?;
        f.field("objective", self.objective.name())?;
        f.field("proven", &self.proof.is_proven())?;
        f.field("proof", self.proof.code())?;
        f.field("lower_bound", &self.lower_bound.as_ref().map(Integer))?;
        f.field("partial", &self.partial.map(PartialJson))
    }
}

impl Serialize for PlanReport {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(7))?;
        self.fields(&mut MapFields(&mut map))?;
        map.end()
    }
}

/// Which elimination answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Elimination {
    /// Bit-packed elimination over GF(2).
    Gf2,
    /// Elimination over `Z/p^E` for each prime `p`, then CRT.
    PrimePowers,
    /// Light chasing on a grid: the first row as symbolic seeds.
    LightChasing,
    /// General propagation: symbolic seeds where a cell's last unknown is not a unit.
    GeneralPropagation,
    /// Elimination over `Z/p^E` for each prime on sparse rows in a nested-dissection order.
    Sparse,
}

impl Elimination {
    /// A stable name for JSON: `gf2`, `prime-powers`, `light-chasing`, `general-propagation`,
    /// `sparse-prime-powers`.
    pub fn code(self) -> &'static str {
        match self {
            Elimination::Gf2 => "gf2",
            Elimination::PrimePowers => "prime-powers",
            Elimination::LightChasing => "light-chasing",
            Elimination::GeneralPropagation => "general-propagation",
            Elimination::Sparse => "sparse-prime-powers",
        }
    }

    /// For people: the `--verbose` line.
    pub fn describe(self) -> &'static str {
        match self {
            Elimination::Gf2 => "bit-packed GF(2) elimination",
            Elimination::PrimePowers => "elimination over Z/p^E for each prime p, then CRT",
            Elimination::LightChasing => "propagation (light chasing)",
            Elimination::GeneralPropagation => "general propagation",
            Elimination::Sparse => {
                "sparse elimination over Z/p^E for each prime p (nested dissection), then CRT"
            }
        }
    }
}

/// Plans listed: the first plans of the solution set (within press limits).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListingReport {
    /// The plans, each verified by simulation.
    pub plans: Vec<Vec<BigUint>>,
    /// Why the listing stopped before the last plan, if it did.
    pub cut: Option<Cut>,
    /// How many plans were left out, when the count is exact.
    pub more: Option<BigUint>,
}

/// Everything a solve says about one puzzle. Every plan in it has been simulated on the
/// puzzle and reaches the target within the press limits.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct SolveReport {
    /// The puzzle's name, if it has one.
    pub name: Option<String>,
    /// The number of cells.
    pub cells: usize,
    /// The number of buttons.
    pub buttons: usize,
    /// `Some(true)` solvable, `Some(false)` not, `None` undecided (the budget ran out first).
    pub solvable: Option<bool>,
    /// Plans within the press limits (all plans when there are none); `None` when the work
    /// stopped before counting.
    pub count: Option<BigUint>,
    /// False when `count` is a lower bound (a budget cut the count short) or unknown.
    pub count_exact: bool,
    /// Whether the press limits are stricter than the periods (the count is within them).
    pub limited: bool,
    /// The plan with fewest presses in all.
    pub fewest: Option<PlanReport>,
    /// The best plan for another objective, when one was asked for.
    pub optimal: Option<PlanReport>,
    /// Nonzero plans that change nothing (ignoring press limits), when known.
    pub quiet_patterns: Option<BigUint>,
    /// `L_j` per button: pressing button `j` `L_j` times changes nothing (empty when the work
    /// stopped before the elimination finished).
    pub periods: Numbers,
    /// The puzzle's press limits, if it has any.
    pub press_limits: Option<Vec<u64>>,
    /// Which engine answered.
    pub engine: Engine,
    /// The elimination that answered, when the algebra did.
    pub elimination: Option<Elimination>,
    /// Propagation's symbolic seeds, when it answered.
    pub seeds: Option<usize>,
    /// Search or enumeration nodes visited, when a search ran.
    pub search_nodes: Option<u64>,
    /// The plans listed, when a listing was asked for.
    pub listing: Option<ListingReport>,
    /// Why the work stopped before the elimination finished, when it did.
    pub undecided: Option<String>,
    /// Whether a clock shaped this report: a time budget (`--budget 30s`) ended a search or the
    /// listing, or the timeout left it undecided. Such a report may differ on another machine;
    /// one under a node budget (the default) never does.
    pub machine_dependent: bool,
    /// The quiet patterns and one as `(prime, exponent)` pairs, when the algebra gave them (for
    /// the text's powers; not in the JSON document).
    pub(crate) kernel_factors: Option<Vec<(u64, u64)>>,
}

impl SolveReport {
    /// Whether a budget cut a search of this report short: a plan not proven for lack of budget,
    /// or a listing cut by it.
    pub fn cut_by_budget(&self) -> bool {
        self.fewest.iter().chain(&self.optimal).any(|p| p.proof.code() == "budget-ran-out")
            || self.listing.as_ref().is_some_and(|l| l.cut == Some(Cut::BudgetRanOut))
    }

    /// The plan to show: the best for the objective asked for, else the fewest presses.
    pub fn shown(&self) -> Option<&PlanReport> {
        self.optimal.as_ref().or(self.fewest.as_ref())
    }

    /// The report of an analysis of `puzzle`.
    pub(crate) fn of_analysis(puzzle: &Puzzle, analysis: &Analysis) -> Self {
        let elimination = analysis.method.map(|method| match method {
            Method::Gf2 => Elimination::Gf2,
            Method::Modular | Method::Auto => Elimination::PrimePowers,
            Method::Sparse => Elimination::Sparse,
            Method::Propagation if analysis.chased => Elimination::LightChasing,
            Method::Propagation => Elimination::GeneralPropagation,
        });
        let listing = analysis.listing.as_ref().map(|listing| ListingReport {
            plans: listing.plans.clone(),
            cut: listing.cut,
            more: unlisted(analysis, listing),
        });
        SolveReport {
            name: puzzle.name.clone(),
            cells: puzzle.cell_count(),
            buttons: puzzle.button_count(),
            solvable: analysis.solvable,
            count: Some(analysis.count.value.clone()),
            count_exact: analysis.count.exact,
            limited: analysis.limited,
            fewest: analysis.fewest.as_ref().map(PlanReport::of),
            optimal: analysis.optimal.as_ref().map(PlanReport::of),
            quiet_patterns: analysis.quiet_patterns.clone(),
            periods: Numbers::Big(analysis.periods.clone()),
            press_limits: puzzle.max_presses.clone(),
            engine: analysis.engine,
            elimination,
            seeds: analysis.seeds,
            search_nodes: analysis.search_nodes,
            listing,
            undecided: None,
            machine_dependent: false,
            kernel_factors: analysis.kernel_factors.clone(),
        }
    }

    /// The report of a big grid solved by light chasing in compact form: its plan is proven
    /// fewest only when it is the only one (the quiet patterns are not searched).
    pub(crate) fn of_compact(puzzle: &Puzzle, answer: CompactAnswer) -> Self {
        let solvable = answer.presses.is_some();
        let proof = if answer.kernel_size.is_one() {
            Proof::Proven
        } else {
            Proof::NotSearched(crate::solve::optimize::NotSearched::BigBoard)
        };
        let rows = puzzle.topology.grid_shape().map_or(0, |(r, c)| r.min(c));
        SolveReport {
            name: puzzle.name.clone(),
            cells: puzzle.cell_count(),
            buttons: puzzle.button_count(),
            solvable: Some(solvable),
            count: Some(if solvable { answer.kernel_size.clone() } else { BigUint::zero() }),
            count_exact: true,
            limited: false,
            fewest: answer.presses.map(|x| {
                let mut plan = PlanReport {
                    presses: match x {
                        CompactPlan::Bits { words, len } => Numbers::Bits { words, len },
                        CompactPlan::Counts(v) => Numbers::Small(v),
                    },
                    objective: Objective::Total,
                    proof,
                    partial: None,
                    lower_bound: None,
                };
                // No presses at all is the fewest; otherwise the counting bound, a pass over
                // the cells, is the plan's bound.
                if plan.total().is_zero() {
                    plan.proof = Proof::Proven;
                }
                plan.lower_bound = if plan.proof.is_proven() {
                    Some(plan.total())
                } else {
                    crate::solve::bound::counting_bound(puzzle, Objective::Total)
                        .map(BigUint::from)
                        .filter(|b| *b <= plan.total())
                };
                plan
            }),
            optimal: None,
            quiet_patterns: Some(&answer.kernel_size - BigUint::one()),
            periods: Numbers::Repeated { value: answer.modulus, len: puzzle.button_count() },
            press_limits: None,
            engine: Engine::Auto,
            elimination: Some(Elimination::LightChasing),
            seeds: Some(rows),
            search_nodes: None,
            listing: None,
            undecided: None,
            machine_dependent: false,
            kernel_factors: None,
        }
    }

    /// The report of work abandoned before the elimination finished.
    pub(crate) fn undecided(puzzle: &Puzzle, engine: Engine, why: &str) -> Self {
        SolveReport {
            name: puzzle.name.clone(),
            cells: puzzle.cell_count(),
            buttons: puzzle.button_count(),
            solvable: None,
            count: None,
            count_exact: false,
            limited: false,
            fewest: None,
            optimal: None,
            quiet_patterns: None,
            periods: Numbers::Big(Vec::new()),
            press_limits: puzzle.max_presses.clone(),
            engine,
            elimination: None,
            seeds: None,
            search_nodes: None,
            listing: None,
            undecided: Some(why.to_string()),
            machine_dependent: true,
            kernel_factors: None,
        }
    }
}

/// How many plans the listing left out, when the count is exact.
fn unlisted(analysis: &Analysis, listing: &Listing) -> Option<BigUint> {
    let listed = BigUint::from(listing.plans.len());
    (analysis.count.exact && analysis.count.value >= listed).then(|| &analysis.count.value - listed)
}

/// A list of plans, each a list of integers.
struct Plans<'a>(&'a [Vec<BigUint>]);

impl Serialize for Plans<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().map(|plan| BigList(plan)))
    }
}

/// Big integers, each as [`Integer`].
struct BigList<'a>(&'a [BigUint]);

impl Serialize for BigList<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().map(Integer))
    }
}

impl SolveReport {
    /// The document's fields, in order (both writers take them from here).
    pub(crate) fn fields<F: Fields>(&self, map: &mut F) -> Result<(), F::Error> {
        let shown = self.shown();
        map.field("version", &SCHEMA_VERSION)?;
        map.field("name", &self.name)?;
        map.field("solvable", &self.solvable)?;
        // The count in decimal, and the quiet patterns (one fewer, mostly) from its digits: a
        // 1000×1000 board's count has 1.6 million digits, 0.7 s to convert.
        let count = self.count.as_ref().map(decimal);
        let quiet = self.quiet_patterns.as_ref().map(|q| match (&self.count, &count) {
            (Some(c), Some(text)) if &(q + 1u32) == c => predecessor(text),
            _ => decimal(q),
        });
        map.field("count", &count)?;
        map.field("count_exact", &self.count_exact)?;
        map.field("count_within_limits", &self.limited)?;
        map.numbers("presses", shown.map(|p| &p.presses))?;
        map.field("total_presses", &shown.map(|p| p.total()).as_ref().map(Integer))?;
        map.field("partial", &shown.and_then(|p| p.partial).map(PartialJson))?;
        map.plan("fewest", self.fewest.as_ref())?;
        map.plan("optimal", self.optimal.as_ref())?;
        map.field("quiet_patterns", &quiet)?;
        map.field("cells", &self.cells)?;
        map.field("buttons", &self.buttons)?;
        map.numbers("periods", Some(&self.periods))?;
        map.field("press_limits", &self.press_limits)?;
        map.field("method", self.engine.code())?;
        map.field("elimination", &self.elimination.map(Elimination::code))?;
        map.field("symbolic_seeds", &self.seeds)?;
        map.field("search_nodes", &self.search_nodes)?;
        map.field("verified", &shown.is_some())?;
        if let Some(listing) = &self.listing {
            map.field("all", &Plans(&listing.plans))?;
            let cut = listing.cut.map(|cut| match cut {
                Cut::Limit => "limit",
                Cut::BudgetRanOut => "budget-ran-out",
            });
            map.field("all_cut", &cut)?;
            map.field("all_more", &listing.more.as_ref().map(Decimal))?;
        }
        map.field("undecided", &self.undecided)?;
        map.field("machine_dependent", &self.machine_dependent)
    }
}

impl Serialize for SolveReport {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(None)?;
        self.fields(&mut MapFields(&mut map))?;
        map.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::{Options, analyse};
    use crate::solve::Budget;

    fn report(source: &str, compact_from: usize, objective: Objective) -> SolveReport {
        let puzzle = crate::parse_puzzle(source).expect("valid");
        let budget = Budget { nodes: 10_000, time: None };
        analyse(&puzzle, &Options { budget, compact_from, objective, ..Options::default() })
            .expect("verified")
    }

    /// Big numbers written in two halves at once are written as whole: cut at every level
    /// (every 64 bits), at random sizes, at powers of ten and their neighbours (a low half of
    /// zeros, a high half of one), and past the real cut of a million bits.
    #[test]
    fn decimals_written_in_halves_are_whole() {
        use rand::{RngExt, SeedableRng, rngs::StdRng};
        let mut rng = StdRng::seed_from_u64(11);
        let mut numbers: Vec<BigUint> = Vec::new();
        for k in [20u32, 39, 40, 41, 77, 300, 1000] {
            let p = num_traits::Pow::pow(BigUint::from(10u32), k);
            numbers.extend([&p - 1u32, p.clone(), &p + 1u32, &p * 7u32]);
        }
        for bits in [65u64, 100, 500, 2000, 10_000] {
            for _ in 0..20 {
                let words: Vec<u32> = (0..bits.div_ceil(32)).map(|_| rng.random()).collect();
                numbers.push(BigUint::from_slice(&words) >> (bits.div_ceil(32) * 32 - bits));
            }
        }
        for n in &numbers {
            assert_eq!(decimal_split(n, 64), n.to_string(), "{n}");
        }
        let big = num_traits::Pow::pow(BigUint::from(3u32), 900_000u32) * 1000u32 + 1u32;
        assert!(big.bits() > 1 << 20);
        assert_eq!(decimal(&big), big.to_string());
    }

    /// The decimal digits of `n − 1` worked out from those of `n` are `n − 1`'s, across
    /// borrows and a shorter result.
    #[test]
    fn predecessor_is_one_less() {
        let mut n = BigUint::from(1u32);
        for k in 0..400u32 {
            assert_eq!(predecessor(&n.to_string()), (&n - 1u32).to_string(), "{n}");
            n = if k % 3 == 0 { BigUint::from(10u32).pow(k / 3 + 1) } else { &n * 7u32 + k };
        }
        for text in ["1", "10", "100", "1000000", "20", "101", "9"] {
            let n: BigUint = text.parse().expect("digits");
            assert_eq!(predecessor(text), (&n - 1u32).to_string());
        }
    }

    /// The document `write_json` writes is `serde_json::to_string` of the report, for lists
    /// longer than 4096 on the compact path (bits, 32-bit plans, repeated periods) and the
    /// general path (big integers, a second objective), and for short lists; and each list is
    /// written as the plain JSON list of its numbers, whatever its storage.
    #[test]
    fn write_json_is_serde_json() {
        let cases = [
            report(
                "Puzzle(graph: Grid(rows: 90, cols: 80), modulus: 2, target: All(1))",
                0,
                Objective::Total,
            ),
            // Whole words of bits.
            report(
                "Puzzle(graph: Grid(rows: 256, cols: 256), modulus: 2, target: All(1))",
                0,
                Objective::Total,
            ),
            report(
                "Puzzle(graph: Grid(rows: 70, cols: 71), modulus: 3, target: All(2))",
                0,
                Objective::Total,
            ),
            report(
                "Puzzle(graph: Grid(rows: 70, cols: 70), modulus: 5, target: All(1))",
                usize::MAX,
                Objective::Max,
            ),
            report(
                "Puzzle(graph: Path(4), modulus: [7, 8, 7, 6], press: (self: 2, neighbors: 1))",
                0,
                Objective::Total,
            ),
            report(
                "Puzzle(graph: Grid(rows: 4, cols: 4), modulus: 2, start: [1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0])",
                0,
                Objective::Total,
            ),
        ];
        assert!(matches!(cases[0].periods, Numbers::Repeated { .. }), "the compact path");
        assert!(matches!(cases[1].fewest.as_ref().map(|p| &p.presses), Some(Numbers::Bits { .. })), "bits");
        assert!(matches!(cases[2].fewest.as_ref().map(|p| &p.presses), Some(Numbers::Small(_))), "counts");
        assert!(
            matches!(cases[3].periods, Numbers::Big(_)) && cases[3].optimal.is_some(),
            "the general path"
        );
        assert!(cases[..4].iter().all(|r| r.periods.len() > 4096), "long lists");
        for report in &cases {
            let mut written = Vec::new();
            write_json(report, &mut written).expect("written to memory");
            let serde = serde_json::to_string(report).expect("serialises");
            assert_eq!(String::from_utf8(written).unwrap(), serde);
            let lists = [report.shown().map(|p| &p.presses), report.fewest.as_ref().map(|p| &p.presses)]
                .into_iter()
                .chain([report.optimal.as_ref().map(|p| &p.presses), Some(&report.periods)])
                .flatten();
            for list in lists {
                let plain = serde_json::to_string(&BigList(&list.to_big())).expect("serialises");
                assert_eq!(serde_json::to_string(list).expect("serialises"), plain);
                assert!(serde.contains(&plain), "the list is in the document");
            }
        }
    }
}
