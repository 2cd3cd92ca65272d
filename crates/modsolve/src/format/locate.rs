//! Positions in the source: a byte offset as a line and column, and [`locate_field`], which
//! walks the text (skipping strings and comments) to the key and element a field path names.

use crate::error::Position;

/// The 1-based line and column (in characters) of byte `at`.
pub(super) fn position_of(source: &str, at: usize) -> Position {
    let before = &source[..at];
    let line = before.bytes().filter(|&b| b == b'\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |k| k + 1);
    Position { line, column: source[line_start..at].chars().count() + 1 }
}

/// Where a field path points: the key of `start`, `graph.rows` (`rows`); for `start[3]` the
/// fourth element of the list after the key; for `start[1][4]` the fifth character of the
/// string that is element 1 (a picture row). A name before a bracket (`Rows([…])`) is stepped
/// into. When the element cannot be found, the deepest place found (at least the key).
pub(super) fn locate_field(source: &str, field: &str) -> Option<Position> {
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

/// The byte offset of the value of `key` in the outermost struct (`Puzzle(… key: value …)`),
/// walking its fields (strings, comments and nested brackets skipped); `None` when the key is
/// not there or the text stops being a plain struct before it.
pub(super) fn find_top_level_value(bytes: &[u8], key: &[u8]) -> Option<usize> {
    let mut found = None;
    walk_top_level(bytes, |name, value| {
        if name == key {
            found = Some(value);
            // Stop here: an offset before the value ends the walk.
            return Some(0);
        }
        None
    });
    found
}

/// Walks the fields of the outermost struct in order, calling `visit(key, value)` with the
/// offset of each value: `visit` returns where the value ends when it read it (an offset not
/// past `value` stops the walk), or `None` to have it skipped. The walk stops at the end of the
/// struct or wherever the text stops being a plain struct.
pub(super) fn walk_top_level<'a>(bytes: &'a [u8], mut visit: impl FnMut(&'a [u8], usize) -> Option<usize>) {
    let Some(open) = outer_open(bytes) else { return };
    let mut at = open + 1;
    loop {
        let name = skip_trivia(bytes, at);
        let (mut name, mut end) = (name, skip_ident(bytes, name));
        if &bytes[name..end] == b"r" && bytes.get(end) == Some(&b'#') {
            (name, end) = (end + 1, skip_ident(bytes, end + 1));
        }
        let colon = skip_trivia(bytes, end);
        if name == end || bytes.get(colon) != Some(&b':') {
            return;
        }
        let value = skip_trivia(bytes, colon + 1);
        let delimiter = match visit(&bytes[name..end], value) {
            Some(stop) if stop <= value => return,
            Some(read) => skip_trivia(bytes, read),
            None => scan_value(bytes, value).1,
        };
        if bytes.get(delimiter) != Some(&b',') {
            return;
        }
        at = delimiter + 1;
    }
}

/// The outermost struct's opening parenthesis: the text is `Name(…)` or `(…)`.
fn outer_open(bytes: &[u8]) -> Option<usize> {
    let name = skip_trivia(bytes, 0);
    let open = skip_trivia(bytes, skip_ident(bytes, name));
    (bytes.get(open) == Some(&b'(')).then_some(open)
}

/// The end of the value that starts at `start` (exclusive, before any trailing whitespace or
/// comment).
pub(super) fn value_end(bytes: &[u8], start: usize) -> usize {
    scan_value(bytes, start).0
}

/// The outermost struct's closing parenthesis, and the end of the last token before it (a
/// field's value or its trailing comma); `None` when the text is not `Name(…)` or `(…)`.
pub(super) fn outer_close(bytes: &[u8]) -> Option<(usize, usize)> {
    let mut at = outer_open(bytes)? + 1;
    loop {
        let (last, delimiter) = scan_value(bytes, at);
        match bytes.get(delimiter)? {
            b',' => at = delimiter + 1,
            b')' => return Some((last, delimiter)),
            _ => return None,
        }
    }
}

/// The byte offset of the first `key` followed by `:`, outside strings and comments.
pub(super) fn find_key(bytes: &[u8], key: &str) -> Option<usize> {
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

pub(super) fn skip_ident(bytes: &[u8], mut i: usize) -> usize {
    while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
        i += 1;
    }
    i
}

/// Past the whitespace, comments or string that start at `i`, when any do: what a walk over
/// the text's structure steps over.
pub(super) fn skip_ignored(bytes: &[u8], i: usize) -> Option<usize> {
    let next = skip_trivia(bytes, i);
    if next != i { Some(next) } else { skip_string(bytes, i) }
}

/// Past whitespace and comments (`// …`, nested `/* … */`) from `i`.
pub(super) fn skip_trivia(bytes: &[u8], mut i: usize) -> usize {
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

/// The end of a string (`"…"`, `r"…"`, `r#"…"#`, and the byte strings `b"…"`, `br"…"`,
/// `br#"…"#`) or character literal (`'…'`, `b'…'`) starting at `i`, or `None` when none starts
/// there. An unclosed one ends at the end of the text.
pub(super) fn skip_string(bytes: &[u8], i: usize) -> Option<usize> {
    let prefix_ok = i == 0 || !is_ident_byte(bytes[i - 1]);
    match bytes.get(i)? {
        b'b' if prefix_ok => match bytes.get(i + 1) {
            Some(b'"' | b'\'') => Some(skip_quoted(bytes, i + 1)),
            Some(b'r') if matches!(bytes.get(i + 2), Some(b'"' | b'#')) => skip_raw(bytes, i + 2),
            _ => None,
        },
        b'r' if prefix_ok && matches!(bytes.get(i + 1), Some(b'"' | b'#')) => skip_raw(bytes, i + 1),
        b'"' | b'\'' => Some(skip_quoted(bytes, i)),
        _ => None,
    }
}

/// Past a raw string whose hashes or opening quote start at `j` (just after its `r`).
fn skip_raw(bytes: &[u8], mut j: usize) -> Option<usize> {
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
        if bytes[k] == b'"' && bytes[k + 1..].iter().take(hashes).filter(|&&b| b == b'#').count() == hashes {
            return Some(k + 1 + hashes);
        }
        k += 1;
    }
    Some(bytes.len())
}

/// Past a quoted string or character starting with its quote at `i` (escapes skipped).
fn skip_quoted(bytes: &[u8], i: usize) -> usize {
    let quote = bytes[i];
    let mut k = i + 1;
    while k < bytes.len() && bytes[k] != quote {
        k += if bytes[k] == b'\\' { 2 } else { 1 };
    }
    (k + 1).min(bytes.len())
}

pub(super) fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// Past one value starting at `i`: up to a `,` or a closing bracket at depth 0.
pub(super) fn skip_value(bytes: &[u8], i: usize) -> usize {
    scan_value(bytes, i).1
}

/// One value starting at `i`: the end of its last token, and the `,` or closing bracket at
/// depth 0 that ends it (or the end of the text).
fn scan_value(bytes: &[u8], mut i: usize) -> (usize, usize) {
    let (mut depth, mut last) = (0usize, i);
    while i < bytes.len() {
        let next = skip_trivia(bytes, i);
        if next != i {
            i = next;
            continue;
        }
        if let Some(next) = skip_string(bytes, i) {
            i = next;
            last = i;
            continue;
        }
        match bytes[i] {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' if depth == 0 => return (last, i),
            b')' | b']' | b'}' => depth -= 1,
            b',' if depth == 0 => return (last, i),
            _ => {}
        }
        i += 1;
        last = i;
    }
    (last, i)
}

/// Element `k` of the value at `at`: of a list or tuple, the `k`-th item; of a string, the
/// `k`-th character; of `Name(…)`, element `k` of what the parentheses hold.
pub(super) fn element(source: &str, at: usize, k: usize) -> Option<usize> {
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
pub(super) fn string_char(source: &str, i: usize, k: usize) -> Option<usize> {
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
