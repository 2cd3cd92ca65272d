//! A fast reader for the fields that can hold millions of numbers: the top-level
//! `buttons: [[(cell, amount), …], …]` list of explicit buttons, and the per-cell lists of
//! `modulus`, `start`, `target` and `max_presses`.
//!
//! `ron` reads such a list at a few MB/s (a per-cell field twice: once to keep its text, once to
//! read its shape), which dominates the whole run of a dense 1000 × 1000 system and a good part
//! of a million-cell board. [`Cut::lists`] walks the top-level fields once, reads the plain form
//! of each such list (decimal numbers, whitespace, comments, trailing commas) directly, and
//! hands `ron` the rest of the file with each list replaced by `[]`; a [`Cut`] maps every
//! position in that text back to the file, so `ron`'s errors and the fields' own are placed in
//! the file as written. Anything else (another spelling of a number, `Some([…])`, a syntax
//! error) makes it step aside, and `ron` reads the original text, so every error is still
//! `ron`'s, at its place. The puzzle read either way is the same; `tests` check that on random
//! files.

use std::borrow::Cow;

use super::MAX_CELLS;
use super::file::FastLists;
use super::locate::{position_of, skip_trivia, walk_top_level};
use crate::error::Position;

/// The explicit buttons as written.
pub(super) type Buttons = Vec<Vec<(usize, i64)>>;

/// Lists shorter than this are left to `ron`: reading them twice costs nothing worth saving.
const WORTH_IT: usize = 1 << 9;

/// A puzzle file with its long plain lists read and cut out: `text`, what `ron` reads, is the
/// source with each such list replaced by `[]`, and positions in it map back to the source.
pub(super) struct Cut<'a> {
    /// The file as written.
    source: &'a str,
    /// The file with the lists cut out.
    pub(super) text: Cow<'a, str>,
    /// For each list cut out, in order: the offset in `text` just past its `[]`, and the bytes
    /// taken out of the source before that offset.
    cuts: Vec<(usize, usize)>,
    /// The explicit buttons, when read here.
    pub(super) buttons: Option<Buttons>,
    /// The per-cell lists read here.
    pub(super) lists: FastLists,
}

impl<'a> Cut<'a> {
    /// The source as it is, nothing cut out (`ron` reads it all).
    pub(super) fn none(source: &'a str) -> Self {
        Cut {
            source,
            text: Cow::Borrowed(source),
            cuts: Vec::new(),
            buttons: None,
            lists: FastLists::default(),
        }
    }

    /// The source with its top-level `buttons` list and per-cell lists ([`FastLists::KEYS`]) in
    /// the plain form (decimal numbers, whitespace, comments, trailing commas) read and cut out,
    /// in one walk over the fields. A list in any other form, or shorter than [`WORTH_IT`], is
    /// left in place for `ron`.
    pub(super) fn lists(source: &'a str) -> Self {
        let bytes = source.as_bytes();
        let mut cut = Cut::none(source);
        let mut spans: Vec<(usize, usize)> = Vec::new();
        let mut tried: Vec<&[u8]> = Vec::new();
        walk_top_level(bytes, |key, at| {
            // Only a field's first appearance (ron reports a second one).
            let wanted = key == b"buttons" || FastLists::KEYS.iter().any(|name| name.as_bytes() == key);
            if !wanted || tried.contains(&key) {
                return None;
            }
            tried.push(key);
            let mut reader = Reader { bytes, at };
            if key == b"buttons" {
                let buttons = reader.buttons()?;
                if reader.at - at >= WORTH_IT {
                    cut.buttons = Some(buttons);
                    spans.push((at, reader.at));
                }
            } else {
                let values = reader.numbers()?;
                if reader.at - at >= WORTH_IT {
                    let name = FastLists::KEYS.into_iter().find(|name| name.as_bytes() == key)?;
                    cut.lists.0.push((name, values));
                    spans.push((at, reader.at));
                }
            }
            Some(reader.at)
        });
        if spans.is_empty() {
            return cut;
        }
        let taken: usize = spans.iter().map(|(a, b)| b - a - 2).sum();
        let mut text = String::with_capacity(source.len() - taken);
        let mut from = 0;
        for (a, b) in spans {
            text.push_str(&source[from..a]);
            text.push_str("[]");
            cut.cuts.push((text.len(), cut.cuts.last().map_or(0, |c| c.1) + (b - a - 2)));
            from = b;
        }
        text.push_str(&source[from..]);
        cut.text = Cow::Owned(text);
        cut
    }

    /// Where byte `at` of `text` is in the source.
    fn source_offset(&self, at: usize) -> usize {
        let before = self.cuts.partition_point(|&(end, _)| end <= at);
        // The `]` of a `[]` stands for the list's own closing bracket (where ron stops when the
        // file ends just after the list).
        if let Some(&(end, taken)) = self.cuts.get(before)
            && at + 1 == end
        {
            return at + taken;
        }
        at + before.checked_sub(1).map_or(0, |k| self.cuts[k].1)
    }

    /// The line and column in the source of byte `at` of `text`.
    pub(super) fn position(&self, at: usize) -> Position {
        position_of(self.source, self.source_offset(at))
    }

    /// A line and column `ron` gives in `text` (a column counts characters), in the source.
    pub(super) fn ron_position(&self, p: ron::error::Position) -> Position {
        if self.cuts.is_empty() {
            return Position { line: p.line, column: p.col };
        }
        let text = &*self.text;
        let line_start = match p.line {
            0 | 1 => 0,
            n => text.match_indices('\n').nth(n - 2).map_or(text.len(), |(k, _)| k + 1),
        };
        let at = text[line_start..]
            .char_indices()
            .nth(p.col.saturating_sub(1))
            .map_or(text.len(), |(k, _)| line_start + k);
        self.position(at)
    }
}

/// A cursor over the list; every method returns `None` at anything outside the plain form.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    #[inline]
    fn skip(&mut self) {
        // Most tokens follow each other directly or after one space.
        match self.bytes.get(self.at) {
            Some(b' ') if self.bytes.get(self.at + 1).is_some_and(|&c| c > b' ' && c != b'/') => self.at += 1,
            Some(&c) if c > b' ' && c != b'/' => {}
            _ => self.at = skip_trivia(self.bytes, self.at),
        }
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
    fn list<T>(&mut self, item: impl FnMut(&mut Self) -> Option<T>) -> Option<Vec<T>> {
        self.list_with(Vec::new(), item)
    }

    /// [`Reader::list`], its items pushed onto `out`.
    fn list_with<T>(
        &mut self,
        mut out: Vec<T>,
        mut item: impl FnMut(&mut Self) -> Option<T>,
    ) -> Option<Vec<T>> {
        self.expect(b'[')?;
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
        // Buttons tend to be alike in length: each list starts at the size of the one before.
        let mut size = 0;
        self.list(|r| {
            let button = r.list_with(Vec::with_capacity(size), |r| r.tight_pair().or_else(|| r.pair()))?;
            size = button.len();
            Some(button)
        })
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

    /// `(cell, amount)` written tightly (`(12,-3)`, `(12, 3)`: no other space, at most 18
    /// digits a number), the usual form, read in one go; `None`, with nothing consumed, for
    /// anything else ([`Reader::pair`] then reads it, or refuses it).
    #[inline]
    fn tight_pair(&mut self) -> Option<(usize, i64)> {
        let bytes = self.bytes;
        let mut i = self.at;
        (bytes.get(i) == Some(&b'(')).then_some(())?;
        let (cell, next) = tight_digits(bytes, i + 1)?;
        i = next;
        (bytes.get(i) == Some(&b',')).then_some(())?;
        i += 1;
        i += usize::from(bytes.get(i) == Some(&b' '));
        let negative = bytes.get(i) == Some(&b'-');
        let (magnitude, next) = tight_digits(bytes, i + usize::from(negative))?;
        i = next;
        (bytes.get(i) == Some(&b')')).then_some(())?;
        let cell = usize::try_from(cell).ok()?;
        // Below 10^18, so within `i64` either way.
        let amount = if negative { -(magnitude as i64) } else { magnitude as i64 };
        self.at = i + 1;
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

/// One to 18 decimal digits from `i` (no leading zero), and where they end; `None` for
/// anything else.
#[inline]
fn tight_digits(bytes: &[u8], start: usize) -> Option<(u64, usize)> {
    let mut i = start;
    let mut value = 0u64;
    while let Some(&c @ b'0'..=b'9') = bytes.get(i) {
        value = value * 10 + u64::from(c - b'0');
        i += 1;
        if i - start > 18 {
            return None;
        }
    }
    let plain = i > start && (bytes[start] != b'0' || i == start + 1);
    plain.then_some((value, i))
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
            let cut = Cut::lists(&text);
            match cut.buttons {
                Some(ref buttons) => {
                    read += 1;
                    assert_eq!(*buttons, expected);
                    let (a, b) =
                        (text.rfind("start").expect("start"), cut.text.rfind("start").expect("start"));
                    assert_eq!(super::super::locate::position_of(&text, a), cut.position(b));
                    // Every character after the list maps back to its own place.
                    let after = cut.text.find("[]").expect("cut") + 2;
                    for (k, _) in cut.text[after..].char_indices() {
                        let source_at = text.len() - (cut.text.len() - after - k);
                        assert_eq!(position_of(&text, source_at), cut.position(after + k));
                    }
                    assert!(cut.text.contains("buttons: [],"));
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
            assert!(Cut::lists(&fast).buttons.is_some() && Cut::lists(&slow).buttons.is_none());
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

    /// Tightly read digits agree with a plain reading: every number below 10^6
    /// and random ones up to 20 digits, followed by every kind of byte or by the end.
    #[test]
    fn tight_digits_agree_with_a_plain_reading() {
        let plain = |text: &[u8]| -> Option<(u64, usize)> {
            let len = text.iter().take_while(|c| c.is_ascii_digit()).count();
            let ok = (1..=18).contains(&len) && (text[0] != b'0' || len == 1);
            ok.then(|| (std::str::from_utf8(&text[..len]).expect("digits").parse().expect("number"), len))
        };
        let mut rng = StdRng::seed_from_u64(13);
        let mut numbers: Vec<String> = (0..1_000_000u64).map(|n| n.to_string()).collect();
        numbers.extend((0..20_000).map(|_| {
            let len = rng.random_range(1..=20);
            (0..len).map(|_| char::from(b'0' + rng.random_range(0..10u8))).collect::<String>()
        }));
        for (k, number) in numbers.iter().enumerate() {
            let after: &[u8] = match k % 7 {
                0 => b"",
                1 => b",",
                2 => b")",
                3 => b" 1234567",
                4 => b"/",
                5 => b":",
                _ => &[rng.random_range(0..=255u8), b'5'],
            };
            let text = [b"(".as_slice(), number.as_bytes(), after, b"9"].concat();
            let text = &text[..text.len() - usize::from(k % 11 == 0)];
            assert_eq!(
                tight_digits(text, 1),
                plain(&text[1..]).map(|(v, n)| (v, n + 1)),
                "{number:?} then {after:?}"
            );
        }
    }

    /// Errors after a list that was cut out, on its own line or on later lines (ron's own, and
    /// those of fields read later), are placed where the file has them.
    #[test]
    fn errors_after_a_cut_list_keep_their_place() {
        let n = 40;
        let buttons: Vec<String> = (0..n)
            .map(|j| {
                format!(
                    "[{}]",
                    (0..n).map(|i| format!("({i}, {})", (i + j) % 5)).collect::<Vec<_>>().join(", ")
                )
            })
            .collect();
        let modulus = format!("[{}]", (0..n).map(|i| (2 + i % 5).to_string()).collect::<Vec<_>>().join(", "));
        for (sep, tail) in [
            (" ", "bogus: 1)"),
            (" ", "start: Foo(1))"),
            (" ", "start: [1, 2,, 3])"),
            ("\n  ", "start: All(1), /* é */ target: [é])"),
            ("\n", "start: All(7))"),
            (" ", "start: All(1)"),
        ] {
            for buttons in [buttons.join(", "), buttons.join(",\n    ")] {
                let source = format!(
                    "Puzzle(graph: Cells({n}), modulus: {modulus}, start: All(1),{sep}buttons: [{buttons}], /* x */{sep}{tail}"
                )
                .replacen(", start: All(1),", ",", usize::from(tail.starts_with("start")));
                assert!(Cut::lists(&source).buttons.is_some(), "{tail}");
                let (a, b) =
                    (super::super::parse_with(&source, true), super::super::parse_with(&source, false));
                let (a, b) = (a.expect_err(tail), b.expect_err(tail));
                assert_eq!((a.to_string(), a.position), (b.to_string(), b.position), "{tail}");
                assert!(a.position.is_some(), "{tail}");
            }
        }
        // A file that ends just after a long list: ron stops at the list's closing bracket.
        let long_modulus =
            format!("[{}]", (0..300).map(|i| (2 + i % 5).to_string()).collect::<Vec<_>>().join(", "));
        for text in [
            format!("Puzzle(modulus: {long_modulus}"),
            format!("Puzzle(graph: Cells({n}),\n buttons: [{}]", buttons.join(", ")),
        ] {
            assert!(Cut::lists(&text).text.len() < text.len(), "cut");
            let (a, b) = (super::super::parse_with(&text, true), super::super::parse_with(&text, false));
            let (a, b) = (a.expect_err("truncated"), b.expect_err("truncated"));
            assert_eq!((a.to_string(), a.position), (b.to_string(), b.position));
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
            assert!(Cut::lists(&text).buttons.is_none(), "{odd}");
        }
        for odd in ["Some([[(0, 1)]])", "[[(0, 1)]"] {
            let text = format!("Puzzle(buttons: {odd}, x: [{long}])");
            assert!(Cut::lists(&text).buttons.is_none(), "{odd}");
        }
        // A nested `buttons` key is not the puzzle's.
        let text = format!("Puzzle(graph: Edges(buttons: [[{long}]]))");
        assert!(Cut::lists(&text).buttons.is_none());
        // The extreme amounts ron accepts are read alike.
        let text = format!("(buttons: [[{long}(1, -9223372036854775808), (2, 9223372036854775807)]])");
        assert_eq!(Cut::lists(&text).buttons, ron_buttons(&text));
        assert!(ron_buttons(&text).is_some());
    }
}
