//! Fields of several shapes (`3`, `[2, 4, 5]`, `All(v)`, `Rows([...])`): [`read_shape`] picks
//! the shape from the first token and streams lists, keeping at most one value per cell.

use std::fmt;

use serde::de::{self, DeserializeSeed, EnumAccess, SeqAccess, VariantAccess, Visitor};

use crate::error::{InputError, InputErrorKind, Position};

use super::*;

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
    file: &Cut<'_>,
    key: &str,
    field: RawField<'_>,
    kind: ShapeKind,
    keep: usize,
) -> Result<Shape, InputError> {
    let text = field.0;
    let source = &*file.text;
    let offset = (text.as_ptr() as usize)
        .checked_sub(source.as_ptr() as usize)
        .filter(|&o| source.is_char_boundary(o));
    // Where the field starts, found only for an error (it may be deep in a long file).
    let at = |p: ron::error::Position| offset.map(|o| shift(file.position(o), p));
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
        let place = |o: usize| match offset {
            Some(base) => file.position(base + o),
            None => Position { line: 1, column: 1 },
        };
        let mut error = syntax_error(&e, text, &place, Some(key));
        if let Some(message) = super::range::offset_of(text, e.span.start)
            .and_then(|at| super::range::shape_message(key, kind, text, at))
        {
            error.kind = InputErrorKind::Syntax { message };
        }
        error.position = at(e.span.start);
        error
    })
}

/// `inner` (1-based, relative to a piece of text) as a position in the file, given where the
/// piece starts.
pub(super) fn shift(base: Position, inner: ron::error::Position) -> Position {
    if inner.line <= 1 {
        Position { line: base.line, column: base.column + inner.col.saturating_sub(1) }
    } else {
        Position { line: base.line + inner.line - 1, column: inner.col }
    }
}

pub(super) struct ShapeSeed {
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

pub(super) struct ShapeVisitor {
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
pub(super) struct VariantName(ShapeKind);

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
                    E::custom(format!("{}; found `{}`{hint}", self.0.expected(), crate::error::shorten(v)))
                })
            }
        }
        deserializer.deserialize_identifier(Name(self.0))
    }
}

/// The known name closest to `found` by edit distance, when it is close enough to be a typo.
pub(super) fn suggestion<'k>(found: &str, known: &[&'k str]) -> Option<&'k str> {
    let limit = (found.chars().count() / 3).max(1);
    known
        .iter()
        .map(|&k| (strsim::osa_distance(found, k), k))
        .filter(|&(d, _)| d <= limit)
        .min_by_key(|&(d, _)| d)
        .map(|(_, k)| k)
}
