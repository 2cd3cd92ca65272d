//! Syntax errors in a designer's words. `ron` reports what its parser expected in its own terms
//! ("Expected comma" where a `)` is missing, "Expected float" without the field, advice about
//! `ron::Options`); [`describe`] rewords the common cases from the text around the error: which
//! field the error is in (`layout[1]`, `graph.cols`), which bracket is still open and where it
//! was opened, and what kind of value was expected ("a whole number", "a list `[…]`").

use crate::error::{Position, shorten};

/// A bracket still open at the error: the byte it opened with, where (its name's start for a
/// named one), its name when it is a
/// named struct or variant (`Grid(`), the field being written inside it, and how many commas
/// came before the error at its own depth (the index of a list's element).
struct Open {
    bracket: u8,
    at: usize,
    name: Option<String>,
    key: Option<String>,
    commas: usize,
}

/// The brackets open at byte `end` of `text`, outermost first; strings, characters and comments
/// are skipped.
fn open_brackets(text: &str, end: usize) -> Vec<Open> {
    let bytes = &text.as_bytes()[..end.min(text.len())];
    let mut stack: Vec<Open> = Vec::new();
    // A name just read (`Grid` before `(`), with where it starts.
    let mut name: Option<(String, usize)> = None;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        match b {
            // Comments (`// …`, nested `/* … */`), skipped as the field locator skips them.
            b'/' if matches!(bytes.get(i + 1), Some(b'/' | b'*')) => {
                i = super::locate::skip_trivia(bytes, i);
                continue;
            }
            b'"' | b'\'' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
                name = None;
                continue;
            }
            b'(' | b'[' | b'{' => {
                let (name, at) = match name.take() {
                    Some((name, at)) => (Some(name), at),
                    None => (None, i),
                };
                stack.push(Open { bracket: b, at, name, key: None, commas: 0 });
            }
            b')' | b']' | b'}' => {
                stack.pop();
                name = None;
            }
            b',' => {
                if let Some(top) = stack.last_mut() {
                    top.commas += 1;
                }
                name = None;
            }
            b if b.is_ascii_alphabetic() || b == b'_' => {
                let start = i;
                // A raw string (`r"…"`, `r#"…"#`, `br"…"`) is skipped whole.
                let prefix = if bytes[i..].starts_with(b"br") { 2 } else { usize::from(b == b'r') };
                if prefix > 0 && matches!(bytes.get(i + prefix), Some(b'"' | b'#')) {
                    let hashes = bytes[i + prefix..].iter().take_while(|&&c| c == b'#').count();
                    if bytes.get(i + prefix + hashes) == Some(&b'"') {
                        let mut close = vec![b'"'];
                        close.extend(std::iter::repeat_n(b'#', hashes));
                        i += prefix + hashes + 1;
                        while i < bytes.len() && !bytes[i..].starts_with(&close) {
                            i += 1;
                        }
                        i += close.len();
                        continue;
                    }
                }
                while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                    i += 1;
                }
                let word = &text[start..i];
                let mut next = i;
                while next < bytes.len() && bytes[next].is_ascii_whitespace() {
                    next += 1;
                }
                match bytes.get(next) {
                    Some(b':') => {
                        if let Some(top) = stack.last_mut() {
                            top.key = Some(word.to_string());
                        }
                        name = None;
                    }
                    _ => name = Some((word.to_string(), start)),
                }
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    stack
}

/// The field path of the place the brackets lead to, as validation errors name fields:
/// `graph.cols`, `layout[1]`, `start[2]` (tuples and variants add nothing).
fn path(stack: &[Open]) -> String {
    let mut out = String::new();
    for open in stack {
        match (open.bracket, &open.key) {
            (b'(', Some(key)) => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(key);
            }
            (b'[', _) => out.push_str(&format!("[{}]", open.commas)),
            _ => {}
        }
    }
    out
}

/// `the `Grid(` at line 2, column 16`: where a bracket was opened.
fn opened(open: &Open, position: &dyn Fn(usize) -> Position) -> String {
    let Position { line, column } = position(open.at);
    let what = match &open.name {
        Some(name) => format!("`{name}{}`", char::from(open.bracket)),
        None => format!("`{}`", char::from(open.bracket)),
    };
    format!("the {what} at line {line}, column {column}")
}

/// For a field of the puzzle found inside another struct (`modulus` inside `Grid(`): the
/// bracket left open before it, as a question to add to the message.
pub(super) fn left_open(text: &str, at: usize, position: &dyn Fn(usize) -> Position) -> Option<String> {
    let stack = open_brackets(text, at);
    let open = stack.last().filter(|_| stack.len() > 1)?;
    Some(format!(
        "; is a `{}` missing before it? {} is still open",
        closer(open.bracket),
        opened(open, position)
    ))
}

/// The bracket that closes `open`.
fn closer(open: u8) -> char {
    match open {
        b'(' => ')',
        b'[' => ']',
        _ => '}',
    }
}

/// What a type is called for people, from serde's and ron's names.
fn words(expected: &str) -> String {
    let plain = expected.trim_start_matches("a ").trim_start_matches("an ");
    match plain {
        "u8" | "u16" | "u32" | "u64" | "u128" | "usize" | "i8" | "i16" | "i32" | "i64" | "i128" | "isize"
        | "integer" => "a whole number".into(),
        "f32" | "f64" | "float" => "a number".into(),
        "sequence" => "a list `[…]`".into(),
        "string" | "borrowed string" => "text in double quotes (\"…\")".into(),
        "boolean" | "bool" => "`true` or `false`".into(),
        _ => expected.to_string(),
    }
}

/// The message for ron's error `code` at byte `at` of `text`. `position` turns an offset of
/// `text` into a place in the file; `key` is the field `text` is the value of, when it is one
/// field's text (`None`: the whole file, whose outermost bracket is the puzzle's).
pub(super) fn describe(
    code: &ron::error::Error,
    text: &str,
    at: usize,
    position: &dyn Fn(usize) -> Position,
    key: Option<&str>,
) -> Option<String> {
    use ron::error::Error;
    let at = at.min(text.len());
    let stack = open_brackets(text, at);
    let here = text[at..].chars().next();
    let opened = |open: &Open| opened(open, position);
    let field = format!("{}{}", key.unwrap_or(""), path(&stack));
    let named = |message: String| {
        if field.is_empty() { message } else { format!("`{field}`: {message}") }
    };
    // A closing bracket that closes nothing open, or the wrong bracket: say which is open.
    if let Some(c @ (')' | ']' | '}')) = here {
        let expected = stack.last().map(|open| closer(open.bracket));
        if expected != Some(c) {
            return Some(match stack.last() {
                Some(open) if stack.len() > usize::from(key.is_none()) => format!(
                    "a `{}` is missing before this `{c}`: {} is still open",
                    closer(open.bracket),
                    opened(open)
                ),
                _ => format!("this `{c}` closes no bracket"),
            });
        }
    }
    // The next field's name where a `,` or `)` was expected: a bracket left open before it.
    let next_field = text[at..]
        .split_once(':')
        .map(|(word, _)| word.trim())
        .filter(|w| !w.is_empty() && w.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_'));
    let unclosed = |what: &str| match stack.last() {
        Some(open) if stack.len() > usize::from(key.is_none()) => Some(format!(
            "a `{}` is missing before {what}: {} is still open",
            closer(open.bracket),
            opened(open)
        )),
        _ => None,
    };
    // The text ends where more was expected: say which bracket is never closed.
    // (ron may point at the last character rather than past it.)
    let rest = here.map_or("", |c| &text[at + c.len_utf8()..]);
    let ends = text[at..].trim().is_empty() || rest.trim().is_empty();
    Some(match code {
        Error::Eof | Error::ExpectedComma | Error::ExpectedArrayEnd | Error::ExpectedStructLikeEnd
            if ends =>
        {
            match open_brackets(text, text.len()).last() {
                Some(open) => format!(
                    "the file ends early: {} is never closed with `{}`",
                    opened(open),
                    closer(open.bracket)
                ),
                None => "the file ends early: a puzzle is `Puzzle( … )`".into(),
            }
        }
        Error::ExpectedComma => match next_field {
            Some(name) => unclosed(&format!("`{name}`")).unwrap_or_else(|| {
                format!("a `,` is missing before `{name}`: fields are separated by commas")
            }),
            None => "a `,` is missing before this: list items and fields are separated by commas".into(),
        },
        Error::ExpectedArrayEnd
        | Error::ExpectedStructLikeEnd
        | Error::ExpectedOptionEnd
        | Error::ExpectedMapEnd
        | Error::ExpectedAttributeEnd => match (next_field, stack.last()) {
            (Some(name), _) => unclosed(&format!("`{name}`"))?,
            (None, Some(open)) => named(format!(
                "expected `{}` here, to close {} (is there a value too many?)",
                closer(open.bracket),
                opened(open)
            )),
            (None, None) => return None,
        },
        _ => return plain(code, &field),
    })
}

/// The message for an error `code` that needs no look at the brackets around it, naming the
/// `field` it is in (empty: none); `None` for the codes it does not know.
fn plain(code: &ron::error::Error, field: &str) -> Option<String> {
    use ron::error::Error;
    let named = |message: String| {
        if field.is_empty() { message } else { format!("`{field}`: {message}") }
    };
    Some(match code {
        Error::ExceededRecursionLimit => {
            let top = field.split(['[', '.']).next().unwrap_or_default();
            let message =
                "brackets are nested too deeply here; no field of a puzzle needs more than a few levels";
            if top.is_empty() { message.into() } else { format!("`{top}`: {message}") }
        }
        Error::ExpectedInteger => named("expected a whole number".into()),
        Error::ExpectedFloat => named("expected a number".into()),
        Error::ExpectedString => named("expected text in double quotes (\"…\")".into()),
        Error::ExpectedBoolean => named("expected `true` or `false`".into()),
        Error::ExpectedArray => named("expected a list `[…]`".into()),
        Error::ExpectedStructLike => named("expected `(`".into()),
        Error::ExpectedNamedStructLike(name) => named(format!("expected `{name}(…)`")),
        Error::ExpectedStringEnd => "this text has no closing `\"`".into(),
        Error::UnclosedBlockComment => "a `/*` comment is never closed with `*/`".into(),
        Error::ExpectedMapColon => "expected `:` after the field's name".into(),
        Error::ExpectedIdentifier => "expected a field's name here (is there a `,` too many?)".into(),
        Error::InvalidValueForType { expected, found } => {
            named(format!("expected {}, found {}", words(expected), shorten(found)))
        }
        Error::ExpectedDifferentLength { expected, found } => {
            named(format!("expected {}, found {found} values", words(expected)))
        }
        Error::UnexpectedChar(c) => named(format!("unexpected `{c}` here")),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The field path and the open brackets at a place.
    #[test]
    fn the_place_of_an_error_is_named() {
        let text = "Puzzle(graph: Grid(rows: 3, cols: \"x\"), layout: [(0, 0), (1, /* ( */ \"[\"";
        let at = text.find("\"x\"").unwrap();
        assert_eq!(path(&open_brackets(text, at)), "graph.cols");
        let stack = open_brackets(text, text.len());
        assert_eq!(path(&stack), "layout[1]");
        assert_eq!(stack.iter().map(|o| o.bracket).collect::<Vec<_>>(), b"([(");
        assert_eq!(stack[0].name.as_deref(), Some("Puzzle"));
    }
}
