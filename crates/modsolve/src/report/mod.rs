//! Reports for people and tools: the one report of a solve ([`SolveReport`], serialised as the
//! JSON document), its text with pictures of grid plans, the `check` report, and input errors
//! with their source line and a caret.
//!
//! Nothing here solves or validates; it only formats what the analysis returned.

pub mod batch;
pub mod check;
#[doc(hidden)]
pub mod github;
mod hint;
#[doc(hidden)]
pub mod layout;
pub mod svg;

#[doc(inline)]
pub use crate::analysis::report::{
    Elimination, ListingReport, Numbers, PlanReport, SCHEMA_VERSION, SolveReport, write_json,
};
pub use hint::{HintReport, PressEntry, StepEntry, hint_text};

use std::fmt::Write as _;

use num_bigint::BigUint;
use num_traits::{One, ToPrimitive, Zero};
use serde_json::Value;

use crate::analysis::{Cut, Engine};
use crate::error::InputError;
use crate::model::{CellValues, Puzzle};
use crate::solve::search::Objective;

/// A big integer that serialises as a JSON number when it fits in 64 bits, else as a decimal
/// string (as [`json_integer`] writes it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Integer(pub BigUint);

impl serde::Serialize for Integer {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.0.to_u64() {
            Some(v) => serializer.serialize_u64(v),
            None => serializer.collect_str(&self.0),
        }
    }
}

/// A big integer as a JSON number when it fits in 64 bits, else as a decimal string.
#[doc(hidden)]
pub fn json_integer(x: &BigUint) -> Value {
    match x.to_u64() {
        Some(v) => Value::from(v),
        None => Value::from(x.to_string()),
    }
}

/// A character for a press count in a picture: `.` for 0, `#` for 1 when every count is 0 or 1,
/// digits, then letters up to 35 (the picture then ends with a line saying what they stand
/// for). `None` when some count is too large for one character.
fn picture_chars(presses: &[BigUint]) -> Option<Vec<char>> {
    let binary = presses.iter().all(|x| x <= &BigUint::from(1u32));
    presses
        .iter()
        .map(|x| {
            let v = x.to_u32().filter(|&v| v < 36)?;
            Some(match v {
                0 => '.',
                1 if binary => '#',
                _ => char::from_digit(v, 36).expect("below 36"),
            })
        })
        .collect()
}

/// The plan as a picture (puzzles drawn as pictures whose buttons are on their cells: grids, hex
/// boards with odd rows shifted half a cell, the cube's net, Merlin's nine squares; holes are
/// blank) or a list of the buttons pressed.
///
/// ```
/// let lights_out = modsolve::parse_puzzle("Puzzle(graph: Grid(rows: 3, cols: 3), modulus: 2, target: All(1))")?;
/// let presses = modsolve::solve(&lights_out)?.presses.expect("solvable");
/// assert_eq!(modsolve::report::plan_text(&lights_out, &presses), "    # . #\n    . # .\n    # . #\n");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn plan_text(puzzle: &Puzzle, presses: &[BigUint]) -> String {
    let mut out = String::new();
    let topology = &puzzle.topology;
    // The presses of the button on each cell, when every cell has exactly one.
    let on_cells: Option<Vec<BigUint>> = puzzle
        .cell_buttons()
        .filter(|_| presses.len() == puzzle.button_count())
        .and_then(|cells| cells.into_iter().map(|j| j.map(|j| presses[j].clone())).collect());
    if let (Some((rows, cols)), Some(presses)) = (topology.picture_size(), on_cells) {
        let presses = presses.as_slice();
        let chars = picture_chars(presses);
        let width = match &chars {
            Some(_) => 1,
            None => presses.iter().map(|x| x.to_string().len()).max().unwrap_or(1),
        };
        let shift = " ".repeat(width.div_ceil(2));
        let mut line = String::new();
        for r in 0..rows {
            line.clear();
            for c in 0..cols {
                if c > 0 {
                    line.push(' ');
                }
                match (topology.cell_at(r, c), &chars) {
                    (None, _) => line.extend(std::iter::repeat_n(' ', width)),
                    (Some(i), Some(chars)) => line.push(chars[i]),
                    (Some(i), None) => {
                        let _ = write!(line, "{:>width$}", presses[i]);
                    }
                }
            }
            let indent = if topology.is_hex() && r % 2 == 1 { shift.as_str() } else { "" };
            let _ = writeln!(out, "    {indent}{}", line.trim_end());
        }
        // Letters stand for counts past 9: say so, with the largest drawn.
        if let Some(top) = chars.iter().flatten().filter(|c| c.is_ascii_lowercase()).max() {
            let count = top.to_digit(36).expect("a letter of base 36");
            let _ = match *top {
                'a' => writeln!(out, "    (a = 10 presses)"),
                'b' => writeln!(out, "    (a = 10, b = 11 presses)"),
                top => writeln!(out, "    (letters are presses past 9: a = 10, b = 11, …, {top} = {count})"),
            };
        }
        return out;
    }
    let pressed: Vec<String> = presses
        .iter()
        .enumerate()
        .filter(|(_, x)| !x.is_zero())
        .map(|(j, x)| format!("{} ×{x}", puzzle.button_name(j)))
        .collect();
    if pressed.is_empty() {
        out.push_str("    (no presses: the start is already the target)\n");
    } else {
        let _ = writeln!(out, "    press {}", pressed.join(", "));
    }
    out
}

/// `Name: 25 cells (mod 2), 25 buttons`, the first line of every report.
#[doc(hidden)]
pub fn heading(puzzle: &Puzzle) -> String {
    format!(
        "{}: {} cells ({}), {} buttons",
        puzzle.name.as_deref().unwrap_or("Puzzle"),
        puzzle.cell_count(),
        describe_moduli(&puzzle.moduli),
        puzzle.button_count()
    )
}

pub(crate) fn describe_moduli(moduli: &CellValues) -> String {
    // `uniform` answers at once for one modulus for every cell (a board of 2^28 cells takes
    // 0.3 s to scan), which the output of a timeout must not wait for.
    if let Some(m) = moduli.uniform() {
        format!("mod {m}")
    } else if moduli.is_empty() {
        "no cells".into()
    } else if moduli.len() <= 12 {
        let list: Vec<String> = moduli.iter().map(u64::to_string).collect();
        format!("moduli {}", list.join(", "))
    } else {
        "mixed moduli".into()
    }
}

fn plan_heading(plan: &PlanReport) -> String {
    let total = plan.total();
    let proof = match &plan.lower_bound {
        Some(bound) if !plan.proof.is_proven() => format!("{}; at least {bound}", plan.proof.describe()),
        _ => plan.proof.describe(),
    };
    match plan.objective {
        Objective::Total => format!("Fewest presses: {total} ({proof})"),
        Objective::Max => {
            format!("Smallest largest press count: {} ({proof}), {total} presses", plan.presses.max())
        }
        Objective::Buttons => {
            format!("Fewest buttons: {} ({proof}), {total} presses", plan.presses.nonzero())
        }
    }
}

/// Where a count of plans on mixed moduli comes from, to follow the count: ` (6^18: the plan
/// above, alone or plus one of the quiet patterns)`. Every plan is `plan` plus a plan that
/// changes nothing, so the count is the quiet patterns and one; it is written as powers when its
/// prime factors are small (primes of one exponent multiplied together: 2^18 · 3^18 is 6^18).
/// `factors` are the count's `(prime, exponent)` pairs when the algebra gave them; without them
/// a count of at most [`FACTORED_BITS`] bits is factored here, and a larger one is not written
/// as powers. `None` for one modulus (the quiet patterns' line says it) or a count that is not
/// so made.
pub(crate) fn count_origin(
    puzzle: &Puzzle,
    count: &BigUint,
    factors: Option<&[(u64, u64)]>,
    quiet: &BigUint,
    plan: &str,
) -> Option<String> {
    if puzzle.moduli().uniform().is_some() || count <= &BigUint::from(1u32) || *count != quiet + 1u32 {
        return None;
    }
    let how = format!("{plan}, alone or plus one of the quiet patterns");
    let factors = match factors {
        Some(factors) => Some(factors.to_vec()),
        None if count.bits() <= FACTORED_BITS => small_factors(count),
        None => None,
    };
    Some(match factors.and_then(|f| powers(&f)) {
        Some(powers) => format!(" ({powers}: {how})"),
        None => format!(" ({how})"),
    })
}

/// Counts of at most this many bits are factored by trial division when the algebra did not
/// give their factors: a 100×100 grid's count (about 53,000 bits) in milliseconds. The work
/// grows with the square of the size: a 1000×1000 grid's (5.4 million bits) would take minutes.
pub(crate) const FACTORED_BITS: u64 = 1 << 17;

/// `n` as `(prime, exponent)` pairs, by prime, when every prime factor is below 10,000.
fn small_factors(n: &BigUint) -> Option<Vec<(u64, u64)>> {
    let mut rest = n.clone();
    let mut factors = Vec::new();
    // The primes below 10,000 (a sieve), each tried by its remainder in machine words; one that
    // divides is divided out by its largest power below 2^32 first (a count of 2^12426 · 3^8104
    // takes a few hundred divisions, not twenty thousand).
    let rem =
        |n: &BigUint, q: u64| n.iter_u32_digits().rev().fold(0u64, |r, d| ((r << 32) | u64::from(d)) % q);
    let mut composite = vec![false; 10_000];
    for p in 2u64..10_000 {
        if composite[p as usize] {
            continue;
        }
        (p as usize * p as usize..10_000).step_by(p as usize).for_each(|k| composite[k] = true);
        if rest.is_one() {
            break;
        }
        let mut e = 0u64;
        if rem(&rest, p) == 0 {
            let (mut power, mut k) = (p, 1u64);
            while power * p < 1 << 32 {
                power *= p;
                k += 1;
            }
            for (q, k) in [(power, k), (p, 1)] {
                while rem(&rest, q) == 0 {
                    rest /= q;
                    e += k;
                }
            }
        }
        if e > 0 {
            factors.push((p, e));
        }
    }
    rest.is_one().then_some(factors)
}

/// `(prime, exponent)` pairs written as powers, those of one exponent multiplied together, by
/// base (`6^18`, `2^4 · 3 · 7^2`), when the powers say more than the number itself (some
/// exponent above 1).
fn powers(factors: &[(u64, u64)]) -> Option<String> {
    let mut by_exponent: std::collections::BTreeMap<u64, BigUint> = std::collections::BTreeMap::new();
    for &(p, e) in factors.iter().filter(|&&(_, e)| e > 0) {
        *by_exponent.entry(e).or_insert_with(BigUint::one) *= p;
    }
    if by_exponent.keys().all(|&e| e == 1) {
        return None;
    }
    let mut powers: Vec<(&BigUint, u64)> = by_exponent.iter().map(|(e, base)| (base, *e)).collect();
    powers.sort();
    let parts: Vec<String> = powers
        .iter()
        .map(|(base, e)| if *e == 1 { base.to_string() } else { format!("{base}^{e}") })
        .collect();
    Some(parts.join(" · "))
}

/// Numbers of more digits than this are written rounded in the text, `~4.38 × 10^16056` (a
/// 100×100 grid's count has 16,057 digits); the JSON document keeps them whole.
pub(crate) const NUMBER_DIGITS: usize = 40;

/// `n` for people: whole up to [`NUMBER_DIGITS`] digits, else rounded to three figures.
pub(crate) fn number_text(n: &BigUint) -> String {
    // Past a few hundred digits the decimal conversion is the costly part (a 1000×1000 grid's
    // count has 1.6 million digits: seconds), and the first four digits come from the top bits.
    let (lead, exponent) = match leading_digits(n) {
        Some(leading) => leading,
        None => {
            let digits = n.to_string();
            if digits.len() <= NUMBER_DIGITS {
                return digits;
            }
            (digits[..4].parse().unwrap_or(0), digits.len() as u64 - 1)
        }
    };
    // The first four digits rounded to three; 9995… rounds up to the next power of ten.
    let (mut three, mut exponent) = ((lead + 5) / 10, exponent);
    if three == 1000 {
        (three, exponent) = (100, exponent + 1);
    }
    format!("~{}.{:02} × 10^{exponent}", three / 100, three % 100)
}

/// `log10(2)` in 128-bit fixed point: `floor(log10(2) · 2^128)`.
const LOG10_2_FIXED: u128 = 0x4d104d427de7fbcc47c4acd605be48bc;

/// The first four digits of `n` and the power of ten of its first digit, from its top 64 bits
/// and logarithms, for numbers past 1,000 bits; `None` for smaller numbers and when the
/// logarithm falls within `10^-9` of a digit's change (then only the whole decimal is sure).
fn leading_digits(n: &BigUint) -> Option<(u32, u64)> {
    let bits = n.bits();
    if bits <= 1000 {
        return None;
    }
    let shift = bits - 64;
    let top = (n >> shift).to_u64()?;
    // shift · log10(2) = whole + fraction, exactly to 2^-64 (a 192-bit product).
    let (low, high) =
        (u128::from(shift) * (LOG10_2_FIXED as u64 as u128), u128::from(shift) * (LOG10_2_FIXED >> 64));
    let upper = high + (low >> 64);
    let (whole, fraction) = ((upper >> 64) as u64, (upper as u64) as f64 / 2f64.powi(64));
    // log10(n) = whole + fraction + log10(top), within about 10^-14.
    let rest = fraction + (top as f64).log10();
    let (more, f) = (rest.floor(), rest - rest.floor());
    let scaled = 10f64.powf(f) * 1000.0;
    let near = |x: f64| (x - x.round()).abs() < 1e-9 * x.max(1.0);
    if near(scaled) || near(f) {
        return None;
    }
    Some((scaled.floor() as u32, whole + more as u64))
}

/// Boards larger than this get a picture of the plan only when asked for.
pub const PICTURE_CELL_LIMIT: usize = 4096;

/// How a front-end names what its user can turn, for the advice the texts give: the command
/// line's flags (`--budget`), a form's fields, or plain words ([`Knobs::PLAIN`]). The library
/// names no front-end's knobs itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Knobs {
    /// The best-effort work allowed (the command line's `--budget`).
    pub budget: &'static str,
    /// The bound on the whole computation (`--timeout`).
    pub timeout: &'static str,
    /// Drawing a big board's plan (`--picture`).
    pub picture: &'static str,
    /// The machine-readable document (`--json`).
    pub json: &'static str,
}

impl Knobs {
    /// Plain words: "the budget", "the timeout", "a picture", "the JSON document".
    pub const PLAIN: Knobs = Knobs::new("the budget", "the timeout", "a picture", "the JSON document");

    /// Knobs named `budget`, `timeout`, `picture` and `json`.
    pub const fn new(
        budget: &'static str,
        timeout: &'static str,
        picture: &'static str,
        json: &'static str,
    ) -> Knobs {
        Knobs { budget, timeout, picture, json }
    }
}

impl Default for Knobs {
    fn default() -> Self {
        Knobs::PLAIN
    }
}

/// The text report of one solve; `picture` forces the plan's picture on huge boards.
///
/// ```
/// use modsolve::report::{Knobs, solve_text, write_json};
///
/// let octopus = modsolve::parse_puzzle(
///     "Puzzle(graph: Path(4), modulus: [7, 8, 7, 6], press: (self: 2, neighbors: 1), start: [2, 4, 5, 3])",
/// )?;
/// let report = modsolve::analyse(&octopus, &modsolve::Options::default())?;
/// let text = solve_text(&octopus, &report, false, &Knobs::default());
/// assert!(text.contains("Fewest presses: 18 (proven)"), "{text}");
///
/// // The same report as the JSON document.
/// let mut json = Vec::new();
/// write_json(&report, &mut json)?;
/// let document: serde_json::Value = serde_json::from_slice(&json)?;
/// assert_eq!(document["total_presses"], 18);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn solve_text(puzzle: &Puzzle, report: &SolveReport, picture: bool, knobs: &Knobs) -> String {
    let mut out = heading(puzzle);
    out.push('\n');
    let within = if report.limited { " within the press limits" } else { "" };
    if let Some(why) = &report.undecided {
        let (timeout, budget) = (knobs.timeout, knobs.budget);
        let _ = writeln!(out, "\nUndecided: {why}; a larger {timeout} or {budget} may decide it.");
        return out;
    }
    match report.shown() {
        Some(plan) => {
            let _ = writeln!(out, "\nSolvable. {}; verified by simulating it:", plan_heading(plan));
            if picture || puzzle.cell_count() <= PICTURE_CELL_LIMIT {
                out.push_str(&plan_text(puzzle, &plan.presses.to_big()));
            } else {
                let _ = writeln!(
                    out,
                    "    ({} buttons: the plan is shown with {}, or listed with {})",
                    puzzle.button_count(),
                    knobs.picture,
                    knobs.json
                );
            }
            if let Some(p) = plan.partial {
                let _ = writeln!(
                    out,
                    "    the last press of {} stops after phase {} of {}: the puzzle is solved",
                    puzzle.button_name(p.button),
                    p.phases,
                    puzzle.phase_count(p.button)
                );
            }
            if let (Some(fewest), Some(_)) = (&report.fewest, &report.optimal) {
                let _ = writeln!(out, "{}", plan_heading(fewest));
            }
        }
        None if report.solvable == Some(false) => {
            let _ = writeln!(
                out,
                "\nNot solvable{within}: no combination of presses turns the start into the target."
            );
        }
        None => {
            let _ = writeln!(
                out,
                "\nUndecided: the budget ran out before the search found a plan or showed that there is none."
            );
        }
    }
    let count = report.count.clone().unwrap_or_default();
    let plans = if count.is_one() { "plan" } else { "plans" };
    let origin = match &report.quiet_patterns {
        Some(quiet) if report.count_exact && !report.limited && report.shown().is_some() => {
            count_origin(puzzle, &count, report.kernel_factors.as_deref(), quiet, "the plan above")
        }
        _ => None,
    };
    let shown = number_text(&count);
    let _ = match (report.count_exact, count.is_zero()) {
        (true, _) => writeln!(out, "\nSolutions{within}: {shown} {plans}{}", origin.unwrap_or_default()),
        (false, true) => writeln!(out, "\nSolutions{within}: unknown (the budget ran out before the count)"),
        (false, false) => writeln!(
            out,
            "\nSolutions{within}: at least {shown} {plans} (the budget ran out before the count finished)"
        ),
    };
    let quiet = report.quiet_patterns.as_ref().map(number_text);
    if let Some(quiet) = &quiet {
        let _ = writeln!(out, "Quiet patterns: {quiet} (nonzero plans that change nothing)");
    }
    if [Some(&shown), quiet.as_ref()].into_iter().flatten().any(|text| text.starts_with('~')) {
        let _ = writeln!(
            out,
            "(numbers past {NUMBER_DIGITS} digits are rounded here; {} has them whole)",
            knobs.json
        );
    }
    if let (Engine::Search, Some(nodes)) = (report.engine, report.search_nodes) {
        let _ = writeln!(out, "Search nodes visited: {nodes}");
    }
    if let Some(listing) = &report.listing {
        let _ = match listing.cut {
            None if listing.plans.is_empty() => writeln!(out, "\nNo plan{within} to list."),
            None => writeln!(out, "\nAll {} {plans}{within}:", listing.plans.len()),
            Some(_) => writeln!(out, "\nThe first {} {plans}{within}:", listing.plans.len()),
        };
        for x in &listing.plans {
            let list: Vec<String> = x.iter().map(BigUint::to_string).collect();
            let _ = writeln!(out, "    [{}]", list.join(", "));
        }
        let _ = match (listing.cut, &listing.more) {
            (None, _) => Ok(()),
            (Some(Cut::Limit), Some(more)) => {
                writeln!(out, "    … and {more} more (raise the limit to list more)")
            }
            (Some(Cut::Limit), None) => writeln!(out, "    … and more (raise the limit to list more)"),
            (Some(Cut::BudgetRanOut), _) => {
                writeln!(out, "    … the budget ran out before the rest were listed")
            }
        };
    }
    out
}

/// The JSON error document of the command line's `--json` and of the playground's server:
/// `{"version", "error": {"kind", "message", "file", "line", "column"}}` (`schema/error.schema.json`).
#[doc(hidden)]
pub fn error_json(
    kind: &str,
    message: &str,
    file: Option<&str>,
    position: Option<crate::error::Position>,
) -> Value {
    serde_json::json!({
        "version": SCHEMA_VERSION,
        "error": {
            "kind": kind,
            "message": message,
            "file": file,
            "line": position.map(|p| p.line),
            "column": position.map(|p| p.column),
        }
    })
}

/// The most characters of a source line an error shows; longer lines are cut around the caret.
#[doc(hidden)]
pub const ERROR_LINE_WINDOW: usize = 100;

/// An input error as the user sees it: the message, `--> file:line:col`, the line and a caret.
/// A line longer than [`ERROR_LINE_WINDOW`] characters is cut to that many around the caret,
/// with `…` where it was cut (a one-line file of millions of numbers is not echoed whole).
#[doc(hidden)]
pub fn render_input_error(error: &InputError, file: &str, source: &str) -> String {
    let mut out = format!("error: {error}\n");
    match error.position {
        Some(pos) => {
            let _ = writeln!(out, " --> {file}:{}:{}", pos.line, pos.column);
            if let Some(text) = source.lines().nth(pos.line.saturating_sub(1)) {
                let number = pos.line.to_string();
                let pad = " ".repeat(number.len());
                let (shown, caret) = line_window(text, pos.column.saturating_sub(1), ERROR_LINE_WINDOW);
                // Tabs stay tabs under the line so the caret lines up however they are shown.
                let caret_pad: String =
                    shown.chars().take(caret).map(|c| if c == '\t' { '\t' } else { ' ' }).collect();
                let _ = writeln!(out, "{pad} |\n{number} | {shown}\n{pad} | {caret_pad}^");
            }
        }
        None => {
            let _ = writeln!(out, " --> {file}");
        }
    }
    out
}

/// At most `width` characters of `line` around character `at` (`…` marking a cut, counted in
/// the width), and the caret's character index in what is shown. Half the width goes before
/// the caret, unless the line ends sooner after it.
fn line_window(line: &str, at: usize, width: usize) -> (String, usize) {
    // Only the characters near the caret are collected: the line may be hundreds of megabytes.
    let split = line.char_indices().nth(at).map_or(line.len(), |(b, _)| b);
    let mut before: Vec<char> = line[..split].chars().rev().take(width + 1).collect();
    before.reverse();
    let after: Vec<char> = line[split..].chars().take(width + 1).collect();
    if before.len() + after.len() <= width {
        return (line.to_string(), before.len());
    }
    let right = after.len().min(width - before.len().min(width / 2));
    let left = before.len().min(width - right);
    let (cut_left, cut_right) = (left < before.len(), right < after.len());
    // Each `…` takes the place of one character.
    let left = left - usize::from(cut_left);
    let right = right - usize::from(cut_right && right > 1);
    let mut shown: String = if cut_left { "…".into() } else { String::new() };
    shown.extend(&before[before.len() - left..]);
    shown.extend(&after[..right]);
    if cut_right {
        shown.push('…');
    }
    (shown, left + usize::from(cut_left))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A picture with counts past 9 ends with a line saying what its letters stand for, up to
    /// the largest drawn; one without letters has no such line.
    #[test]
    fn picture_letters_are_explained() {
        let puzzle =
            crate::parse_puzzle("Puzzle(graph: Grid(rows: 1, cols: 4), modulus: 36)").expect("a puzzle");
        let picture = |counts: [u32; 4]| plan_text(&puzzle, &counts.map(BigUint::from));
        assert_eq!(picture([0, 3, 9, 2]), "    . 3 9 2\n");
        assert_eq!(picture([0, 1, 1, 0]), "    . # # .\n");
        assert_eq!(picture([10, 1, 0, 2]), "    a 1 . 2\n    (a = 10 presses)\n");
        assert_eq!(picture([10, 11, 0, 2]), "    a b . 2\n    (a = 10, b = 11 presses)\n");
        assert_eq!(
            picture([10, 14, 35, 2]),
            "    a e z 2\n    (letters are presses past 9: a = 10, b = 11, …, z = 35)\n"
        );
        assert_eq!(picture([36, 14, 0, 2]), "    36 14  0  2\n");
    }

    /// A count's powers come from the algebra's factors when it gives them; without them a
    /// count of at most [`FACTORED_BITS`] bits is factored here, and a larger one (minutes of
    /// trial division: a 1000×1000 grid's) is written without powers.
    #[test]
    fn large_counts_take_their_powers_from_the_algebra() {
        let puzzle =
            crate::parse_puzzle("Puzzle(graph: Grid(rows: 1, cols: 2), modulus: [2, 3])").expect("a puzzle");
        let origin = |count: &BigUint, factors: Option<&[(u64, u64)]>| {
            count_origin(&puzzle, count, factors, &(count - 1u32), "the plan above")
        };
        let how = "the plan above, alone or plus one of the quiet patterns";
        let huge = BigUint::from(2u32).pow(200_000) * BigUint::from(3u32).pow(5);
        assert!(huge.bits() > FACTORED_BITS);
        assert_eq!(origin(&huge, Some(&[(2, 200_000), (3, 5)])), Some(format!(" (2^200000 · 3^5: {how})")));
        assert_eq!(origin(&huge, None), Some(format!(" ({how})")));
        let small = BigUint::from(6u32).pow(18);
        assert_eq!(origin(&small, None), Some(format!(" (6^18: {how})")));
        assert_eq!(origin(&small, Some(&[(2, 18), (3, 18)])), Some(format!(" (6^18: {how})")));
        // One modulus: the quiet patterns' line says it.
        let uniform =
            crate::parse_puzzle("Puzzle(graph: Grid(rows: 1, cols: 2), modulus: 6)").expect("a puzzle");
        assert_eq!(count_origin(&uniform, &small, None, &(&small - 1u32), "the plan above"), None);
    }

    /// Numbers up to 40 digits are written whole, longer ones rounded to three figures with
    /// their power of ten (rounding up past 9.99 to the next power).
    #[test]
    fn long_numbers_are_rounded() {
        let big = |text: &str| text.parse::<BigUint>().expect("a number");
        assert_eq!(number_text(&big("12345")), "12345");
        let forty = "9".repeat(40);
        assert_eq!(number_text(&big(&forty)), forty);
        assert_eq!(number_text(&big(&format!("4379{}", "1".repeat(37)))), "~4.38 × 10^40");
        assert_eq!(number_text(&big(&format!("4374{}", "9".repeat(37)))), "~4.37 × 10^40");
        assert_eq!(number_text(&big(&format!("9996{}", "0".repeat(50)))), "~1.00 × 10^54");
        let board = BigUint::from(2u32).pow(12426) * BigUint::from(3u32).pow(8104);
        assert_eq!(number_text(&board), "~1.55 × 10^7607");
    }

    /// The rounded form from the top bits and logarithms agrees with the whole decimal's on
    /// numbers of 1,000 to 60,000 bits: products of powers (the counts), powers of ten and
    /// their neighbours (where a digit changes: the whole decimal decides), numbers that round
    /// up to the next power (9995…), and pseudo-random ones.
    #[test]
    fn leading_digits_agree_with_the_decimal() {
        let from_decimal = |n: &BigUint| {
            let digits = n.to_string();
            let (lead, exponent) = (digits[..4].parse::<u32>().expect("digits"), digits.len() as u64 - 1);
            (lead, exponent)
        };
        let mut numbers: Vec<BigUint> = Vec::new();
        for k in [302u32, 303, 1000, 4567, 18_000] {
            let ten = BigUint::from(10u32).pow(k);
            numbers.extend([&ten - 1u32, ten.clone(), &ten + 1u32, &ten * 9995u32 - 1u32, &ten * 9995u32]);
            numbers.extend([&ten * 1234u32 + 5u32, &ten * 9999u32 + &ten - 1u32]);
        }
        for (a, b, c) in [(1245u32, 819u32, 451u32), (12426, 8104, 4540), (60_000, 0, 0), (0, 37_000, 2)] {
            numbers
                .push(BigUint::from(2u32).pow(a) * BigUint::from(3u32).pow(b) * BigUint::from(5u32).pow(c));
        }
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        for words in [40usize, 300, 900, 2000] {
            let digits: Vec<u32> = (0..words)
                .map(|_| {
                    state =
                        state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
                    (state >> 32) as u32
                })
                .collect();
            numbers.push(BigUint::new(digits));
        }
        // Every number is written as from its whole decimal; the products and the random
        // ones (the last eight) without it.
        let rounded = |n: &BigUint| {
            let (lead, exponent) = from_decimal(n);
            let (three, exponent) = match (lead + 5) / 10 {
                1000 => (100, exponent + 1),
                three => (three, exponent),
            };
            format!("~{}.{:02} × 10^{exponent}", three / 100, three % 100)
        };
        for (k, n) in numbers.iter().enumerate() {
            assert_eq!(number_text(n), rounded(n), "{} bits", n.bits());
            match leading_digits(n) {
                Some(leading) => assert_eq!(leading, from_decimal(n), "{} bits", n.bits()),
                None => assert!(k < numbers.len() - 8, "{} bits: not decided", n.bits()),
            }
        }
        assert_eq!(leading_digits(&(BigUint::from(10u32).pow(5000) * 4379u32 + 7u32)), None);
        assert_eq!(leading_digits(&(BigUint::from(10u32).pow(5000) * 43_791u32)), Some((4379, 5004)));
    }

    /// A count as powers of its prime factors: by exponent and base, including the counts of
    /// large boards (2^12426 · 3^8104 · …, a 100×100 mixed grid's, worked out in well under a
    /// second), a prime's power past 2^32 and the largest prime tried; nothing when a factor
    /// is 10,000 or more or every exponent is 1.
    #[test]
    fn counts_as_powers() {
        let of = |factors: &[(u32, u32)]| {
            factors.iter().map(|&(p, e)| BigUint::from(p).pow(e)).product::<BigUint>()
        };
        let power = |factors: &[(u32, u32)]| small_factors(&of(factors)).and_then(|f| powers(&f));
        assert_eq!(power(&[(2, 4), (3, 1), (7, 2)]).as_deref(), Some("2^4 · 3 · 7^2"));
        assert_eq!(power(&[(2, 18), (3, 18)]).as_deref(), Some("6^18"));
        let board = [(2, 12426), (3, 8104), (5, 4540), (7, 2730), (11, 2851)];
        assert_eq!(power(&board).as_deref(), Some("2^12426 · 3^8104 · 5^4540 · 7^2730 · 11^2851"));
        assert_eq!(power(&[(9973, 3), (3, 5)]).as_deref(), Some("3^5 · 9973^3"));
        assert_eq!(power(&[(2, 40), (65537, 1)]), None);
        assert_eq!(power(&[(2, 5), (10007, 2)]), None);
        assert_eq!(power(&[(2, 1), (3, 1), (5, 1)]), None);
    }
}
