//! A fast reader for the fields that can hold millions of numbers: the top-level
//! `buttons: [[(cell, amount), …], …]` list of explicit buttons, and the per-cell lists of
//! `modulus`, `start`, `target` and `max_presses`.
//!
//! `ron` reads such a list at a few MB/s (a per-cell field twice: once to keep its text, once to
//! read its shape), which dominates the whole run of a dense 1000 × 1000 system and a good part
//! of a million-cell board. [`split_buttons`] and [`split_numbers`] read the plain form of a list
//! (decimal numbers, whitespace, comments, trailing commas) directly and hand `ron` the rest of
//! the file with the list replaced by `[]` padded so that every later line and column is
//! unchanged. Anything
//! else (another spelling of a number, `Some([…])`, a syntax error) makes it step aside, and
//! `ron` reads the original text, so every error is still `ron`'s, at its place. The puzzle read
//! either way is the same; `tests` check that on random files.

use super::MAX_CELLS;
use super::locate::{find_top_level_value, skip_trivia};

/// The explicit buttons as written.
pub(super) type Buttons = Vec<Vec<(usize, i64)>>;

/// Lists shorter than this are left to `ron`: reading them twice costs nothing worth saving.
const WORTH_IT: usize = 1 << 12;

/// The `buttons` list read, and the source with the list replaced by `[]` (positions after it
/// unchanged); `None` when the file has no top-level `buttons` list in the plain form.
pub(super) fn split_buttons(source: &str) -> Option<(Buttons, String)> {
    split(source, b"buttons", |r| r.buttons())
}

/// A top-level list of plain whole numbers (`modulus`, `start`, `target`, `max_presses` written
/// one value per cell or button) read, and the source with it replaced by `[]`, as
/// [`split_buttons`] does.
pub(super) fn split_numbers(source: &str, key: &str) -> Option<(Vec<u64>, String)> {
    split(source, key.as_bytes(), |r| r.numbers())
}

fn split<T>(
    source: &str,
    key: &[u8],
    read: impl FnOnce(&mut Reader<'_>) -> Option<T>,
) -> Option<(T, String)> {
    let bytes = source.as_bytes();
    let start = find_top_level_value(bytes, key)?;
    let mut reader = Reader { bytes, at: start };
    let value = read(&mut reader)?;
    let end = reader.at;
    if end - start < WORTH_IT {
        return None;
    }
    let list = &source[start..end];
    // `[]`, then the list's line breaks, then spaces up to the column where the list ended.
    let mut replacement = String::from("[]");
    let last_line = match list.rfind('\n') {
        Some(k) => {
            replacement.extend(std::iter::repeat_n('\n', list.bytes().filter(|&b| b == b'\n').count()));
            &list[k + 1..]
        }
        None => &list[2.min(list.len())..],
    };
    replacement.push_str(&" ".repeat(last_line.chars().count()));
    let mut rest = String::with_capacity(source.len() - list.len() + replacement.len());
    rest.push_str(&source[..start]);
    rest.push_str(&replacement);
    rest.push_str(&source[end..]);
    Some((value, rest))
}

/// A cursor over the list; every method returns `None` at anything outside the plain form.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn skip(&mut self) {
        self.at = skip_trivia(self.bytes, self.at);
    }

    fn expect(&mut self, c: u8) -> Option<()> {
        self.skip();
        (self.bytes.get(self.at) == Some(&c)).then(|| self.at += 1)
    }

    /// `c` next (then consumed), else nothing consumed.
    fn eat(&mut self, c: u8) -> bool {
        self.skip();
        let found = self.bytes.get(self.at) == Some(&c);
        self.at += usize::from(found);
        found
    }

    /// A list `[item, item, …]` with an optional trailing comma.
    fn list<T>(&mut self, mut item: impl FnMut(&mut Self) -> Option<T>) -> Option<Vec<T>> {
        self.expect(b'[')?;
        let mut out = Vec::new();
        loop {
            if self.eat(b']') {
                return Some(out);
            }
            out.push(item(self)?);
            if !self.eat(b',') {
                self.expect(b']')?;
                return Some(out);
            }
        }
    }

    fn buttons(&mut self) -> Option<Buttons> {
        self.list(|r| r.list(Self::pair))
    }

    /// At most [`MAX_CELLS`] numbers (one per cell or button): a longer list is left to ron,
    /// which keeps only as many values as it needs while it counts the rest.
    fn numbers(&mut self) -> Option<Vec<u64>> {
        let mut count = 0usize;
        self.list(|r| {
            count += 1;
            r.skip();
            if count > MAX_CELLS { None } else { r.digits() }
        })
    }

    /// `(cell, amount)` with an optional trailing comma.
    fn pair(&mut self) -> Option<(usize, i64)> {
        self.expect(b'(')?;
        self.skip();
        let cell = usize::try_from(self.digits()?).ok()?;
        self.expect(b',')?;
        self.skip();
        let negative = self.bytes.get(self.at) == Some(&b'-');
        self.at += usize::from(negative);
        let magnitude = self.digits()?;
        let amount =
            if negative { 0i64.checked_sub_unsigned(magnitude)? } else { i64::try_from(magnitude).ok()? };
        self.eat(b',');
        self.expect(b')')?;
        Some((cell, amount))
    }

    /// Plain decimal digits followed by a delimiter (not `_`, a letter or `.`).
    fn digits(&mut self) -> Option<u64> {
        let begin = self.at;
        if self.bytes.get(begin) == Some(&b'0') && self.bytes.get(begin + 1).is_some_and(u8::is_ascii_digit) {
            return None;
        }
        let mut value = 0u64;
        while let Some(&c @ b'0'..=b'9') = self.bytes.get(self.at) {
            value = value.checked_mul(10)?.checked_add(u64::from(c - b'0'))?;
            self.at += 1;
        }
        let plain = self.at > begin
            && !matches!(self.bytes.get(self.at), Some(c) if c.is_ascii_alphanumeric() || *c == b'_' || *c == b'.');
        plain.then_some(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng, rngs::StdRng};

    fn ron_buttons(text: &str) -> Option<Buttons> {
        #[derive(serde::Deserialize)]
        struct Only {
            buttons: Buttons,
        }
        super::super::ron_options().from_str::<Only>(text).ok().map(|o| o.buttons)
    }

    /// Random whitespace, comments and trailing commas between the tokens.
    fn gap(rng: &mut StdRng) -> &'static str {
        const GAPS: [&str; 8] = ["", "", "", " ", "\n  ", "/* é */", "// x\n", "\t"];
        GAPS[rng.random_range(0..GAPS.len())]
    }

    fn random_list(rng: &mut StdRng) -> String {
        let mut s = String::from("[");
        for _ in 0..rng.random_range(0..40) {
            s.push_str(gap(rng));
            s.push('[');
            for _ in 0..rng.random_range(0..200) {
                let cell: u64 = rng.random_range(0..1_000_000);
                let amount: i64 = rng.random_range(-1_000_000_000_000..1_000_000_000_000);
                let comma = if rng.random_bool(0.1) { "," } else { "" };
                s.push_str(&format!(
                    "{}({}{cell}{},{}{amount}{comma}{}),",
                    gap(rng),
                    gap(rng),
                    gap(rng),
                    gap(rng),
                    gap(rng)
                ));
            }
            if rng.random_bool(0.5) && s.ends_with(',') {
                s.pop();
            }
            s.push_str(gap(rng));
            s.push_str("],");
        }
        if rng.random_bool(0.5) && s.ends_with(',') {
            s.pop();
        }
        s.push(']');
        s
    }

    /// The fast reader agrees with `ron` on random plain lists, and the rest of the file keeps
    /// every later line and column.
    #[test]
    fn agrees_with_ron_and_keeps_positions() {
        let mut rng = StdRng::seed_from_u64(7);
        let mut read = 0;
        for _ in 0..300 {
            let list = random_list(&mut rng);
            let text = format!(
                "Puzzle(name: \"buttons: [[(1,1)]]\", // buttons: [\n buttons: {list}, start: [1,\n 2])"
            );
            let expected = ron_buttons(&format!("(buttons: {list})")).expect("valid list");
            match split_buttons(&text) {
                Some((buttons, rest)) => {
                    read += 1;
                    assert_eq!(buttons, expected);
                    let (a, b) = (text.rfind("start").expect("start"), rest.rfind("start").expect("start"));
                    assert_eq!(
                        super::super::locate::position_of(&text, a),
                        super::super::locate::position_of(&rest, b)
                    );
                    assert!(rest.contains("buttons: []"));
                }
                None => {
                    assert!(list.len() < WORTH_IT, "a plain list of {} bytes was left to ron", list.len())
                }
            }
        }
        assert!(read > 100, "only {read} lists were read by the fast path");
    }

    /// A whole puzzle reads the same through the fast reader as through ron (`Some([…])` is
    /// left to ron), and an error deep in the list is reported alike, at the same place.
    #[test]
    fn puzzles_and_errors_are_the_same_either_way() {
        let mut rng = StdRng::seed_from_u64(11);
        let n = 60;
        let moduli: Vec<u64> = (0..n).map(|_| rng.random_range(2..=12)).collect();
        let list = |bad: Option<(usize, usize)>, rng: &mut StdRng| {
            let buttons: Vec<String> = (0..n)
                .map(|j| {
                    let pairs: Vec<String> = (0..n)
                        .map(|i| {
                            let cell = if bad == Some((j, i)) { n } else { i };
                            format!("({cell}, {})", rng.random_range(-20i64..20))
                        })
                        .collect();
                    format!("[{}]", pairs.join(", "))
                })
                .collect();
            format!("[\n  {}\n]", buttons.join(",\n  "))
        };
        for bad in [None, Some((37, 12))] {
            let buttons = list(bad, &mut rng);
            let head = format!("Puzzle(graph: Cells({n}), modulus: {moduli:?},\n buttons: ");
            let fast = format!("{head}{buttons}, start: All(1))");
            let slow = format!("{head}Some({buttons}), start: All(1))");
            assert!(split_buttons(&fast).is_some() && split_buttons(&slow).is_none());
            let (a, b) = (crate::format::parse_puzzle(&fast), crate::format::parse_puzzle(&slow));
            match bad {
                None => assert_eq!(a.expect("valid"), b.expect("valid")),
                Some(_) => {
                    let (a, b) = (a.expect_err("cell out of range"), b.expect_err("cell out of range"));
                    assert_eq!(a.to_string(), b.to_string());
                    assert_eq!((a.position, a.position.map(|p| p.line)), (b.position, Some(40)), "{a}");
                }
            }
        }
    }

    /// Anything outside the plain form is left to `ron` (which then reports or reads it).
    #[test]
    fn steps_aside_for_other_spellings() {
        let long = "(0, 1), ".repeat(WORTH_IT);
        for odd in [
            "(01, 1)",
            "(0x1, 1)",
            "(1_0, 1)",
            "(1, +1)",
            "(1, 1.0)",
            "(-1, 1)",
            "(1, 99999999999999999999)",
            "(1 1)",
            "[1, 1]",
        ] {
            let text = format!("Puzzle(buttons: [[{long}{odd}]])");
            assert!(split_buttons(&text).is_none(), "{odd}");
        }
        for odd in ["Some([[(0, 1)]])", "[[(0, 1)]"] {
            let text = format!("Puzzle(buttons: {odd}, x: [{long}])");
            assert!(split_buttons(&text).is_none(), "{odd}");
        }
        // A nested `buttons` key is not the puzzle's.
        let text = format!("Puzzle(graph: Edges(buttons: [[{long}]]))");
        assert!(split_buttons(&text).is_none());
        // The extreme amounts ron accepts are read alike.
        let text = format!("(buttons: [[{long}(1, -9223372036854775808), (2, 9223372036854775807)]])");
        let (buttons, _) = split_buttons(&text).expect("plain");
        assert_eq!(Some(buttons), ron_buttons(&text));
    }
}
