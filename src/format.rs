//! The puzzle file format (RON) and its validation into a [`Puzzle`].
//!
//! Parsing is two steps: `ron` + serde read the text into [`PuzzleFile`], which mirrors the file
//! (syntax errors carry ron's line and column); [`PuzzleFile::into_puzzle`] then checks every
//! field against the others and resolves shorthand (`All(v)`, `Rows([...])`, one modulus for
//! all cells). The format is documented for users in FORMAT.md.
//!
//! Strictness: every struct (`Puzzle`, `press`, `Grid`, `Edges`) rejects unknown fields, with a
//! suggestion when a known name is close (edit distance). The fields that take several shapes
//! (`modulus`, `start`, `target`, `max_presses`) are kept as their source text ([`RawField`])
//! and read once the graph is known, by [`read_shape`]: ron's `deserialize_any` drops a
//! variant's name (`All(3)` reaches a visitor exactly as `[3]` does) and `deserialize_enum`
//! refuses lists, so the shape is chosen from the first token, and lists are streamed, keeping
//! no more values than the puzzle has cells. Maps and other shapes are refused there.
//!
//! Validation errors name a field path (`start[3]`, `graph.edges[2]`, `start[1][4]` for the
//! fifth character of row 1 of a picture); [`locate_field`] walks the source to the element at
//! fault to give its line and column.

use std::fmt;

use serde::Deserialize;
use serde::de::{self, DeserializeSeed, EnumAccess, SeqAccess, VariantAccess, Visitor};

use crate::error::{InputError, InputErrorKind, Position};
use crate::model::builder::plural;
use crate::model::{Buttons, CellValues, Neighborhood, Phases, Puzzle, Topology};

/// The top level of a puzzle file, as written.
#[derive(Debug, Deserialize)]
#[serde(rename = "Puzzle", deny_unknown_fields)]
pub(crate) struct PuzzleFile<'a> {
    #[serde(default)]
    pub name: Option<String>,
    pub graph: GraphSpec,
    #[serde(borrow)]
    pub modulus: RawField<'a>,
    #[serde(default)]
    pub press: Option<PressSpec>,
    #[serde(default)]
    pub buttons: Option<Vec<Vec<(usize, i64)>>>,
    #[serde(default, borrow)]
    pub start: Option<RawField<'a>>,
    #[serde(default, borrow)]
    pub target: Option<RawField<'a>>,
    #[serde(default)]
    pub labels: Option<Vec<String>>,
    #[serde(default, borrow)]
    pub max_presses: Option<RawField<'a>>,
    #[serde(default)]
    pub intended: Option<Vec<u64>>,
    #[serde(default)]
    pub phases: Option<Vec<PressSpec>>,
    #[serde(default)]
    pub button_phases: Option<Vec<PhasedButton>>,
}

/// One button of `button_phases`: per phase, `(cell, amount)` pairs.
pub(crate) type PhasedButton = Vec<Vec<(usize, i64)>>;

/// The source text of a field that takes several shapes (`modulus`, `start`, `target`,
/// `max_presses`), read by [`read_shape`] once the number of cells is known. It borrows from
/// the source, so its place in the file is known too.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RawField<'a>(pub &'a str);

impl<'de: 'a, 'a> Deserialize<'de> for RawField<'a> {
    fn deserialize<D: de::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let raw = <&'a ron::value::RawValue>::deserialize(deserializer)?;
        Ok(RawField(raw.get_ron()))
    }
}

/// `graph:` — how the cells are connected.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) enum GraphSpec {
    Path(usize),
    Cycle(usize),
    Cells(usize),
    Grid {
        rows: usize,
        cols: usize,
        #[serde(default)]
        wrap: bool,
        #[serde(default)]
        neighborhood: Neighborhood,
    },
    Edges {
        cells: usize,
        edges: Vec<(usize, usize)>,
    },
}

/// `press:` (and each of `phases:`) — what a press of a graph puzzle's cell adds to itself and
/// to each neighbour.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct PressSpec {
    #[serde(rename = "self", default = "one")]
    pub self_weight: i64,
    #[serde(default = "one")]
    pub neighbors: i64,
}

fn one() -> i64 {
    1
}

/// A field of several shapes, as written: `3`, `[2, 4, 5]`, `All(v)`, `Rows([...])`.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Shape {
    /// A whole number (`modulus: 2`).
    One(u64),
    /// A list: its first values (no more than were asked for) and its length.
    List { values: Vec<u64>, len: usize },
    /// `All(v)`.
    All(u64),
    /// `Rows([...])`, a grid picture.
    Rows(Vec<String>),
}

/// The fields of several shapes, with the shapes each accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ShapeKind {
    /// `modulus`: a number or a list.
    Modulus,
    /// `start`, `target`: a list, `All(v)` or `Rows([...])`.
    State,
    /// `max_presses`: a list or `All(k)`.
    Limits,
}

impl ShapeKind {
    /// What the field must be: the message when it is something else.
    fn expected(self) -> &'static str {
        match self {
            ShapeKind::Modulus => {
                "expected a modulus: a whole number >= 2, or a list of them with one per cell"
            }
            ShapeKind::State => {
                "expected a state: a list of values like [0, 1, 2], All(value) or Rows([...])"
            }
            ShapeKind::Limits => "expected press limits: a list with one whole number per button, or All(k)",
        }
    }

    fn variants(self) -> &'static [&'static str] {
        match self {
            ShapeKind::Modulus => &[],
            ShapeKind::State => &["All", "Rows"],
            ShapeKind::Limits => &["All"],
        }
    }
}

/// Reads a field of several shapes from its text, streaming lists and keeping at most `keep`
/// values (the rest are checked to be numbers and counted). Errors are syntax errors at their
/// place in `source`, which `field` borrows from.
pub(crate) fn read_shape(
    source: &str,
    field: RawField<'_>,
    kind: ShapeKind,
    keep: usize,
) -> Result<Shape, InputError> {
    let text = field.0;
    let offset = (text.as_ptr() as usize)
        .checked_sub(source.as_ptr() as usize)
        .filter(|&o| source.is_char_boundary(o));
    let base = offset.map(|o| position_of(source, o));
    let at = |p: ron::error::Position| base.map(|b| shift(b, p));
    let first = skip_trivia(text.as_bytes(), 0);
    let seed = match text.as_bytes().get(first) {
        Some(c) if c.is_ascii_alphabetic() || *c == b'_' => ShapeSeed { kind, keep, named: true },
        Some(b'[' | b'(' | b'0'..=b'9' | b'+' | b'-' | b'.') => ShapeSeed { kind, keep, named: false },
        _ => {
            return Err(InputError {
                position: at(ron::error::Position { line: 1, col: 1 + text[..first].chars().count() }),
                kind: InputErrorKind::Syntax { message: kind.expected().into() },
            });
        }
    };
    ron_options().from_str_seed(text, seed).map_err(|e| {
        let mut error = syntax_error(&e);
        error.position = at(e.span.start);
        error
    })
}

/// `inner` (1-based, relative to a piece of text) as a position in the file, given where the
/// piece starts.
fn shift(base: Position, inner: ron::error::Position) -> Position {
    if inner.line <= 1 {
        Position { line: base.line, column: base.column + inner.col.saturating_sub(1) }
    } else {
        Position { line: base.line + inner.line - 1, column: inner.col }
    }
}

struct ShapeSeed {
    kind: ShapeKind,
    keep: usize,
    /// The text starts with a name (`All(…)`): read it as an enum, else as anything.
    named: bool,
}

impl<'de> DeserializeSeed<'de> for ShapeSeed {
    type Value = Shape;

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<Shape, D::Error> {
        let (kind, named) = (self.kind, self.named);
        let visitor = ShapeVisitor { kind: self.kind, keep: self.keep };
        if named {
            deserializer.deserialize_enum("", kind.variants(), visitor)
        } else {
            deserializer.deserialize_any(visitor)
        }
    }
}

struct ShapeVisitor {
    kind: ShapeKind,
    keep: usize,
}

impl<'de> Visitor<'de> for ShapeVisitor {
    type Value = Shape;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        // "invalid type: map, expected {this}": serde adds the prefix.
        let expected = self.kind.expected();
        f.write_str(expected.strip_prefix("expected ").unwrap_or(expected))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Shape, E> {
        match self.kind {
            ShapeKind::Modulus => Ok(Shape::One(v)),
            _ => Err(E::custom(self.kind.expected())),
        }
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Shape, E> {
        match u64::try_from(v) {
            Ok(v) => self.visit_u64(v),
            Err(_) => Err(E::custom(format!("{}; found {v}", self.kind.expected()))),
        }
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Shape, A::Error> {
        let mut values = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(self.keep).min(1 << 16));
        let mut len = 0usize;
        while let Some(v) = seq.next_element::<u64>()? {
            if len < self.keep {
                values.push(v);
            }
            len += 1;
        }
        Ok(Shape::List { values, len })
    }

    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<Shape, A::Error> {
        let (name, variant) = data.variant_seed(VariantName(self.kind))?;
        match name {
            "All" => variant.newtype_variant::<u64>().map(Shape::All),
            _ => variant.newtype_variant::<Vec<String>>().map(Shape::Rows),
        }
    }

    // Everything else (maps, strings, floats, booleans, `()`) is refused with `expecting`;
    // serde's default methods do that.
}

/// The name of `All(…)` / `Rows(…)`, refusing other names with a suggestion.
struct VariantName(ShapeKind);

impl<'de> DeserializeSeed<'de> for VariantName {
    type Value = &'static str;

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<&'static str, D::Error> {
        struct Name(ShapeKind);
        impl<'de> Visitor<'de> for Name {
            type Value = &'static str;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str(self.0.expected())
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<&'static str, E> {
                let known = self.0.variants();
                known.iter().copied().find(|&k| k == v).ok_or_else(|| {
                    let hint =
                        suggestion(v, known).map(|s| format!(", did you mean `{s}`?")).unwrap_or_default();
                    E::custom(format!("{}; found `{v}`{hint}", self.0.expected()))
                })
            }
        }
        deserializer.deserialize_identifier(Name(self.0))
    }
}

/// The known name closest to `found` by edit distance, when it is close enough to be a typo.
fn suggestion<'k>(found: &str, known: &[&'k str]) -> Option<&'k str> {
    let limit = (found.chars().count() / 3).max(1);
    known
        .iter()
        .map(|&k| (strsim::osa_distance(found, k), k))
        .filter(|&(d, _)| d <= limit)
        .min_by_key(|&(d, _)| d)
        .map(|(_, k)| k)
}

/// The most cells a puzzle may have (a 10,000 × 10,000 board).
pub const MAX_CELLS: usize = 100_000_000;

/// The most cells of an `Edges` graph (2^25): each has a neighbour list.
pub const MAX_EDGES_CELLS: usize = 1 << 25;

fn ron_options() -> ron::Options {
    ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
}

/// Reads and validates a puzzle from RON text.
pub fn parse_puzzle(source: &str) -> Result<Puzzle, InputError> {
    let file: PuzzleFile = ron_options().from_str(source).map_err(|e| syntax_error(&e))?;
    file.into_puzzle(source).map_err(|mut e| {
        if let InputErrorKind::Invalid { field, .. } = &e.kind {
            e.position = locate_field(source, field);
        }
        e
    })
}

/// What a struct or enum is called in messages: the field that holds it, or its own name.
fn user_name(outer: &Option<String>) -> &str {
    match outer.as_deref() {
        None | Some("") => "this place",
        Some("PressSpec") => "press",
        Some("GraphSpec") => "graph",
        Some("Neighborhood") => "neighborhood",
        Some(name) => name,
    }
}

/// `; did you mean `x`?`, or `; expected one of `a`, `b`` when nothing is close.
fn hint(found: &str, known: &[&str], noun: &str) -> String {
    match suggestion(found, known) {
        Some(s) => format!("; did you mean `{s}`?"),
        None if known.is_empty() => String::new(),
        None => {
            let list: Vec<String> = known.iter().map(|k| format!("`{k}`")).collect();
            format!("; the {noun} are {}", list.join(", "))
        }
    }
}

fn syntax_error(e: &ron::error::SpannedError) -> InputError {
    use ron::error::Error;
    let message = match &e.code {
        Error::NoSuchStructField { expected, found, outer } => {
            format!("unknown field `{found}` in {}{}", user_name(outer), hint(found, expected, "fields"))
        }
        Error::NoSuchEnumVariant { expected, found, outer } => {
            format!("unknown {} `{found}`{}", user_name(outer), hint(found, expected, "choices"))
        }
        Error::MissingStructField { field, outer } => {
            format!("missing field `{field}` in {}", user_name(outer))
        }
        code => code.to_string(),
    };
    InputError {
        position: Some(Position { line: e.span.start.line, column: e.span.start.col }),
        kind: InputErrorKind::Syntax { message },
    }
}

/// The 1-based line and column (in characters) of byte `at`.
fn position_of(source: &str, at: usize) -> Position {
    let before = &source[..at];
    let line = before.bytes().filter(|&b| b == b'\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |k| k + 1);
    Position { line, column: source[line_start..at].chars().count() + 1 }
}

/// Where a field path points: the key of `start`, `graph.rows` (`rows`); for `start[3]` the
/// fourth element of the list after the key; for `start[1][4]` the fifth character of the
/// string that is element 1 (a picture row). A name before a bracket (`Rows([…])`) is stepped
/// into. When the element cannot be found, the deepest place found (at least the key).
fn locate_field(source: &str, field: &str) -> Option<Position> {
    let (path, indices) = field.split_at(field.find('[').unwrap_or(field.len()));
    let key = path.rsplit('.').next().unwrap_or(path);
    let indices: Vec<usize> =
        indices.split(['[', ']']).filter(|s| !s.is_empty()).map_while(|s| s.parse().ok()).collect();
    let bytes = source.as_bytes();
    let mut at = find_key(bytes, key)?;
    let mut value = skip_trivia(bytes, at + key.len());
    value = skip_trivia(bytes, value + 1); // past `:`
    for &k in &indices {
        match element(source, value, k) {
            Some(next) => {
                at = next;
                value = next;
            }
            None => break,
        }
    }
    Some(position_of(source, at))
}

/// The byte offset of the first `key` followed by `:`, outside strings and comments.
fn find_key(bytes: &[u8], key: &str) -> Option<usize> {
    let mut i = 0usize;
    while i < bytes.len() {
        if let Some(next) = skip_ignored(bytes, i) {
            i = next;
            continue;
        }
        let c = bytes[i];
        if c.is_ascii_alphabetic() || c == b'_' {
            let begin = i;
            i = skip_ident(bytes, i);
            if &bytes[begin..i] == key.as_bytes() && bytes.get(skip_trivia(bytes, i)) == Some(&b':') {
                return Some(begin);
            }
        } else {
            i += 1;
        }
    }
    None
}

fn skip_ident(bytes: &[u8], mut i: usize) -> usize {
    while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
        i += 1;
    }
    i
}

/// Past the whitespace, comments or string that start at `i`, when any do: what a walk over
/// the text's structure steps over.
fn skip_ignored(bytes: &[u8], i: usize) -> Option<usize> {
    let next = skip_trivia(bytes, i);
    if next != i { Some(next) } else { skip_string(bytes, i) }
}

/// Past whitespace and comments (`// …`, nested `/* … */`) from `i`.
fn skip_trivia(bytes: &[u8], mut i: usize) -> usize {
    loop {
        match (bytes.get(i), bytes.get(i + 1)) {
            (Some(c), _) if c.is_ascii_whitespace() => i += 1,
            (Some(b'/'), Some(b'/')) => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            (Some(b'/'), Some(b'*')) => {
                let mut depth = 0usize;
                while i < bytes.len() {
                    if bytes[i] == b'/' && bytes.get(i + 1) == Some(&b'*') {
                        depth += 1;
                        i += 2;
                    } else if bytes[i] == b'*' && bytes.get(i + 1) == Some(&b'/') {
                        depth -= 1;
                        i += 2;
                        if depth == 0 {
                            break;
                        }
                    } else {
                        i += 1;
                    }
                }
            }
            _ => return i,
        }
    }
}

/// The end of a string (`"…"`, `r"…"`, `r#"…"#`) or character literal starting at `i`, or
/// `None` when none starts there. An unclosed one ends at the end of the text.
fn skip_string(bytes: &[u8], i: usize) -> Option<usize> {
    match bytes.get(i)? {
        b'r' if matches!(bytes.get(i + 1), Some(b'"' | b'#')) && (i == 0 || !is_ident_byte(bytes[i - 1])) => {
            let mut j = i + 1;
            let mut hashes = 0;
            while bytes.get(j) == Some(&b'#') {
                hashes += 1;
                j += 1;
            }
            if bytes.get(j) != Some(&b'"') {
                return None;
            }
            let mut k = j + 1;
            while k < bytes.len() {
                if bytes[k] == b'"'
                    && bytes[k + 1..].iter().take(hashes).filter(|&&b| b == b'#').count() == hashes
                {
                    return Some(k + 1 + hashes);
                }
                k += 1;
            }
            Some(bytes.len())
        }
        &quote @ (b'"' | b'\'') => {
            let mut k = i + 1;
            while k < bytes.len() && bytes[k] != quote {
                k += if bytes[k] == b'\\' { 2 } else { 1 };
            }
            Some((k + 1).min(bytes.len()))
        }
        _ => None,
    }
}

fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// Past one value starting at `i`: up to a `,` or a closing bracket at depth 0.
fn skip_value(bytes: &[u8], mut i: usize) -> usize {
    let mut depth = 0usize;
    while i < bytes.len() {
        if let Some(next) = skip_ignored(bytes, i) {
            i = next;
            continue;
        }
        match bytes[i] {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' if depth == 0 => return i,
            b')' | b']' | b'}' => depth -= 1,
            b',' if depth == 0 => return i,
            _ => {}
        }
        i += 1;
    }
    i
}

/// Element `k` of the value at `at`: of a list or tuple, the `k`-th item; of a string, the
/// `k`-th character; of `Name(…)`, element `k` of what the parentheses hold.
fn element(source: &str, at: usize, k: usize) -> Option<usize> {
    let bytes = source.as_bytes();
    let at = skip_trivia(bytes, at);
    match *bytes.get(at)? {
        b'"' => string_char(source, at + 1, k),
        b'r' if skip_string(bytes, at).is_some() => {
            let quote = at + 1 + bytes[at + 1..].iter().take_while(|&&b| b == b'#').count();
            let end = skip_string(bytes, at)?;
            let (offset, _) = source.get(quote + 1..end)?.char_indices().nth(k)?;
            Some(quote + 1 + offset)
        }
        c if c.is_ascii_alphabetic() || c == b'_' => {
            let open = skip_trivia(bytes, skip_ident(bytes, at));
            (bytes.get(open) == Some(&b'(')).then_some(())?;
            element(source, open + 1, k)
        }
        b'[' | b'(' => {
            let mut i = skip_trivia(bytes, at + 1);
            for _ in 0..k {
                i = skip_value(bytes, i);
                if bytes.get(i) != Some(&b',') {
                    return None;
                }
                i = skip_trivia(bytes, i + 1);
            }
            (!matches!(bytes.get(i), None | Some(b')' | b']' | b'}'))).then_some(i)
        }
        _ => None,
    }
}

/// The byte offset of character `k` of a `"…"` string whose text starts at `i` (an escape
/// counts as one character).
fn string_char(source: &str, i: usize, k: usize) -> Option<usize> {
    let mut chars = source.get(i..)?.char_indices();
    let mut n = 0;
    while let Some((offset, c)) = chars.next() {
        if c == '"' {
            return None;
        }
        if n == k {
            return Some(i + offset);
        }
        if c == '\\' && chars.next().is_some_and(|(_, e)| e == 'u') {
            // \u{…}
            for (_, c) in chars.by_ref() {
                if c == '}' {
                    break;
                }
            }
        }
        n += 1;
    }
    None
}

impl PuzzleFile<'_> {
    /// Validates the file and builds the puzzle; `source` is the text the file was read from
    /// (its fields of several shapes are read now, and their errors placed in it).
    pub(crate) fn into_puzzle(self, source: &str) -> Result<Puzzle, InputError> {
        let topology = self.graph.into_topology()?;
        let cells = topology.cell_count();
        // The shapes (one number or a list, pictures) are read here; what the values must be
        // is the builder's to check.
        let moduli = match read_shape(source, self.modulus, ShapeKind::Modulus, cells)? {
            Shape::One(m) => CellValues::same(m, cells),
            Shape::List { values, len } => {
                if len != cells {
                    return Err(InputError::invalid(
                        "modulus",
                        format!(
                            "has {} but the graph has {cells} cells (give one number for all cells, or one per cell)",
                            plural(len, "value")
                        ),
                    ));
                }
                CellValues::from(values)
            }
            // Only numbers and lists are read for a modulus.
            Shape::All(_) | Shape::Rows(_) => unreachable_shape("modulus")?,
        };
        crate::model::check_moduli(&moduli, cells)?;
        let phases = match (self.phases, self.button_phases) {
            (Some(_), Some(_)) => {
                return Err(InputError::invalid("phases", "give `phases` or `button_phases`, not both"));
            }
            (Some(list), None) => {
                Some(Phases::Graph(list.iter().map(|p| (p.self_weight, p.neighbors)).collect()))
            }
            (None, Some(list)) => Some(Phases::Explicit(list)),
            (None, None) => None,
        };
        let button_count = match (&self.buttons, &phases) {
            (Some(list), _) => list.len(),
            (None, Some(Phases::Explicit(list))) => list.len(),
            (None, _) => cells,
        };
        let read_state = |field: Option<RawField<'_>>| {
            field.map(|f| read_shape(source, f, ShapeKind::State, cells)).transpose()
        };
        let start = resolve_state("start", read_state(self.start)?, &topology, &moduli)?;
        let target = resolve_state("target", read_state(self.target)?, &topology, &moduli)?;
        let limits =
            self.max_presses.map(|f| read_shape(source, f, ShapeKind::Limits, button_count)).transpose()?;
        let max_presses = match limits {
            None => None,
            Some(Shape::All(k)) => Some(vec![k; button_count]),
            Some(Shape::List { values, .. }) => Some(values),
            Some(Shape::One(_) | Shape::Rows(_)) => unreachable_shape("max_presses")?,
        };
        let mut builder = Puzzle::builder(topology).moduli(moduli).start(start).target(target);
        if let Some(name) = self.name {
            builder = builder.name(name);
        }
        if let Some(press) = self.press {
            builder = builder.press(press.self_weight, press.neighbors);
        }
        if let Some(buttons) = self.buttons {
            builder = builder.buttons(buttons);
        }
        if let Some(phases) = phases {
            builder = builder.phases(phases);
        }
        if let Some(labels) = self.labels {
            builder = builder.labels(labels);
        }
        if let Some(limits) = max_presses {
            builder = builder.max_presses(limits);
        }
        if let Some(intended) = self.intended {
            builder = builder.intended(intended);
        }
        builder.build()
    }
}

impl GraphSpec {
    fn into_topology(self) -> Result<Topology, InputError> {
        let need_cells = |field: &str, n: usize| {
            if n == 0 {
                Err(InputError::invalid(field, "is 0; a puzzle needs at least one cell"))
            } else if n > MAX_CELLS {
                Err(InputError::invalid(
                    field,
                    format!("{n} cells is more than the {MAX_CELLS} modsolve handles"),
                ))
            } else {
                Ok(())
            }
        };
        Ok(match self {
            GraphSpec::Path(n) => {
                need_cells("graph", n)?;
                Topology::Path(n)
            }
            GraphSpec::Cycle(n) => {
                need_cells("graph", n)?;
                Topology::Cycle(n)
            }
            GraphSpec::Cells(n) => {
                need_cells("graph", n)?;
                Topology::Cells(n)
            }
            GraphSpec::Grid { rows, cols, wrap, neighborhood } => {
                need_cells("graph.rows", rows)?;
                need_cells("graph.cols", cols)?;
                if rows.checked_mul(cols).is_none_or(|n| n > MAX_CELLS) {
                    return Err(InputError::invalid(
                        "graph",
                        format!("{rows}×{cols} is more than the {MAX_CELLS} cells modsolve handles"),
                    ));
                }
                Topology::Grid { rows, cols, wrap, neighborhood }
            }
            GraphSpec::Edges { cells, edges } => {
                need_cells("graph.cells", cells)?;
                // A neighbour list per cell costs 24 bytes before any edge: cap it where general
                // propagation, the only solver for graphs this large, stops.
                if cells > MAX_EDGES_CELLS {
                    return Err(InputError::invalid(
                        "graph.cells",
                        format!("{cells} cells is more than the {MAX_EDGES_CELLS} an Edges graph may have"),
                    ));
                }
                let mut adjacency = vec![Vec::new(); cells];
                for (k, &(a, b)) in edges.iter().enumerate() {
                    let field = format!("graph.edges[{k}]");
                    for c in [a, b] {
                        if c >= cells {
                            return Err(InputError::invalid(
                                field,
                                format!(
                                    "({a}, {b}) names cell {c}, but cells are numbered 0 to {}",
                                    cells - 1
                                ),
                            ));
                        }
                    }
                    if a == b {
                        return Err(InputError::invalid(field, format!("({a}, {b}) joins a cell to itself")));
                    }
                    if adjacency[a].contains(&b) {
                        return Err(InputError::invalid(field, format!("({a}, {b}) is listed twice")));
                    }
                    adjacency[a].push(b);
                    adjacency[b].push(a);
                }
                for list in &mut adjacency {
                    list.sort_unstable();
                }
                Topology::Edges { adjacency }
            }
        })
    }
}

/// The value a picture character stands for: `.` 0, `#` 1, digits, then letters from 10.
fn picture_value(c: char) -> Option<u8> {
    match c {
        '.' => Some(0),
        '#' => Some(1),
        _ => c.to_digit(36).map(|d| d as u8),
    }
}

/// A shape a field cannot have: [`read_shape`] refuses it, so this is never reached.
fn unreachable_shape<T>(field: &str) -> Result<T, InputError> {
    Err(InputError::invalid(field, "has a shape this field does not take"))
}

fn resolve_state(
    field: &str,
    spec: Option<Shape>,
    topology: &Topology,
    moduli: &CellValues,
) -> Result<CellValues, InputError> {
    let cells = moduli.len();
    let uniform = moduli.uniform();
    let too_large = |v: u64| match uniform {
        Some(m) => (v >= m).then_some((0, m)),
        None => moduli.iter().enumerate().find(|&(_, &m)| v >= m).map(|(i, &m)| (i, m)),
    };
    let values = match spec {
        // Every modulus is at least 2, so 0 always fits.
        None => return Ok(CellValues::same(0, cells)),
        Some(Shape::All(v)) => {
            if let Some((i, m)) = too_large(v) {
                return Err(InputError::invalid(
                    field,
                    format!("All({v}) is too large for cell {i}, which counts modulo {m}"),
                ));
            }
            return Ok(CellValues::same(v, cells));
        }
        Some(Shape::List { values, len }) => {
            if len != cells {
                return Err(InputError::invalid(
                    field,
                    format!("has {} but the puzzle has {cells} cells", plural(len, "value")),
                ));
            }
            CellValues::from(values)
        }
        Some(Shape::Rows(rows)) => {
            let Some((grid_rows, grid_cols)) = topology.grid_shape() else {
                return Err(InputError::invalid(field, "Rows([...]) pictures are only for Grid puzzles"));
            };
            if rows.len() != grid_rows {
                return Err(InputError::invalid(
                    field,
                    format!("the picture has {} but the grid has {grid_rows}", plural(rows.len(), "row")),
                ));
            }
            // Picture values are below 36: one byte per cell. Errors about a character name
            // its place in its row's string: `start[r][k]`.
            let mut values: Vec<u8> = Vec::with_capacity(cells);
            for (r, row) in rows.iter().enumerate() {
                let before = values.len();
                for (k, c) in row.chars().enumerate().filter(|(_, c)| !c.is_whitespace()) {
                    let Some(v) = picture_value(c) else {
                        return Err(InputError::invalid(
                            format!("{field}[{r}][{k}]"),
                            format!(
                                "'{c}' is not a cell value (use . or 0, # or 1, digits, then a-z for 10-35)"
                            ),
                        ));
                    };
                    let i = values.len();
                    // A row too wide is reported below, before any cell past the grid is read.
                    if i - before < grid_cols {
                        let m = uniform.unwrap_or_else(|| moduli[i]);
                        if u64::from(v) >= m {
                            return Err(InputError::invalid(
                                format!("{field}[{r}][{k}]"),
                                format!("value {v} of cell {i} is not below its modulus {m}"),
                            ));
                        }
                    }
                    values.push(v);
                }
                let width = values.len() - before;
                if width != grid_cols {
                    return Err(InputError::invalid(
                        format!("{field}[{r}]"),
                        format!(
                            "row {r} of the picture is {width} cells wide but the grid has {grid_cols} columns"
                        ),
                    ));
                }
            }
            return Ok(CellValues::from_bytes(values));
        }
        Some(Shape::One(_)) => return unreachable_shape(field),
    };
    for (i, &v) in values.iter().enumerate() {
        let m = uniform.unwrap_or_else(|| moduli[i]);
        if v >= m {
            return Err(InputError::invalid(
                format!("{field}[{i}]"),
                format!("value {v} of cell {i} is not below its modulus {m}"),
            ));
        }
    }
    Ok(values)
}

/// Writes a puzzle back as RON in the documented format: reading the text gives the same
/// puzzle. Grid states are pictures when every value fits one character.
pub fn to_ron(puzzle: &Puzzle, comment: &str) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    for line in comment.lines() {
        let _ = writeln!(out, "// {line}");
    }
    out.push_str("Puzzle(\n");
    if let Some(name) = &puzzle.name {
        let _ = writeln!(out, "    name: {name:?},");
    }
    let graph = match &puzzle.topology {
        Topology::Cells(n) => format!("Cells({n})"),
        Topology::Path(n) => format!("Path({n})"),
        Topology::Cycle(n) => format!("Cycle({n})"),
        Topology::Grid { rows, cols, wrap, neighborhood } => {
            let mut g = format!("Grid(rows: {rows}, cols: {cols}");
            if *wrap {
                g.push_str(", wrap: true");
            }
            if *neighborhood == Neighborhood::King {
                g.push_str(", neighborhood: King");
            }
            g + ")"
        }
        Topology::Edges { adjacency } => {
            let edges: Vec<String> = adjacency
                .iter()
                .enumerate()
                .flat_map(|(a, list)| {
                    list.iter().filter(move |&&b| a < b).map(move |&b| format!("({a}, {b})"))
                })
                .collect();
            format!("Edges(cells: {}, edges: [{}])", adjacency.len(), edges.join(", "))
        }
    };
    let _ = writeln!(out, "    graph: {graph},");
    let m0 = puzzle.moduli[0];
    if puzzle.moduli.iter().all(|&m| m == m0) {
        let _ = writeln!(out, "    modulus: {m0},");
    } else {
        let _ = writeln!(out, "    modulus: {},", list_text(&puzzle.moduli.to_vec()));
    }
    let pairs = |list: &[(usize, i64)]| {
        let items: Vec<String> = list.iter().map(|(c, a)| format!("({c}, {a})")).collect();
        format!("[{}]", items.join(", "))
    };
    match (&puzzle.phases, &puzzle.buttons) {
        (Some(Phases::Graph(phases)), _) => {
            let items: Vec<String> =
                phases.iter().map(|(s, n)| format!("(self: {s}, neighbors: {n})")).collect();
            let _ = writeln!(out, "    phases: [{}],", items.join(", "));
        }
        (Some(Phases::Explicit(buttons)), _) => {
            out.push_str("    button_phases: [\n");
            for phases in buttons {
                let items: Vec<String> = phases.iter().map(|p| pairs(p)).collect();
                let _ = writeln!(out, "        [{}],", items.join(", "));
            }
            out.push_str("    ],\n");
        }
        (None, Buttons::Graph { self_weight, neighbor_weight }) => {
            let _ = writeln!(out, "    press: (self: {self_weight}, neighbors: {neighbor_weight}),");
        }
        (None, Buttons::Explicit(buttons)) => {
            out.push_str("    buttons: [\n");
            for b in buttons {
                let _ = writeln!(out, "        {},", pairs(b));
            }
            out.push_str("    ],\n");
        }
    }
    let _ = writeln!(out, "    start: {},", state_text(puzzle, &puzzle.start.to_vec()));
    let _ = writeln!(out, "    target: {},", state_text(puzzle, &puzzle.target.to_vec()));
    if let Some(labels) = &puzzle.labels {
        let items: Vec<String> = labels.iter().map(|l| format!("{l:?}")).collect();
        let _ = writeln!(out, "    labels: [{}],", items.join(", "));
    }
    if let Some(limits) = &puzzle.max_presses {
        let _ = writeln!(out, "    max_presses: {},", list_text(limits));
    }
    if let Some(intended) = &puzzle.intended {
        let _ = writeln!(out, "    intended: {},", list_text(intended));
    }
    out.push_str(")\n");
    out
}

fn list_text(values: &[u64]) -> String {
    let items: Vec<String> = values.iter().map(u64::to_string).collect();
    format!("[{}]", items.join(", "))
}

/// `All(v)`, a grid picture, or a list.
fn state_text(puzzle: &Puzzle, state: &[u64]) -> String {
    if state.iter().all(|&v| v == state[0]) {
        return format!("All({})", state[0]);
    }
    match puzzle.topology.grid_shape() {
        Some((_, cols)) if state.iter().all(|&v| v < 36) => {
            let rows: Vec<String> = state
                .chunks(cols)
                .map(|row| {
                    let text: String = row
                        .iter()
                        .map(|&v| match v {
                            0 => '.',
                            1 => '#',
                            _ => char::from_digit(v as u32, 36).unwrap_or('?'),
                        })
                        .collect();
                    format!("        \"{text}\",")
                })
                .collect();
            format!("Rows([\n{}\n    ])", rows.join("\n"))
        }
        _ => list_text(state),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Writing a puzzle and reading it back gives the same puzzle, for every shipped file.
    #[test]
    fn round_trip_of_shipped_puzzles() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/puzzles");
        for entry in std::fs::read_dir(dir).expect("puzzles/") {
            let path = entry.expect("entry").path();
            let puzzle = parse_puzzle(&std::fs::read_to_string(&path).expect("readable")).expect("valid");
            let text = to_ron(&puzzle, "round trip");
            let again = parse_puzzle(&text).unwrap_or_else(|e| panic!("{}: {e}\n{text}", path.display()));
            assert_eq!(again, puzzle, "{}", path.display());
        }
    }
}
