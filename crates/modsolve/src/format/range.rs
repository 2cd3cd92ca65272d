//! Integers out of their field's range, named: ron says only "Integer is out of bounds" for
//! `Cube(-1)` or `max_presses: [1, -1, 2]`, and reads a number past 64 bits as a float
//! (`modulus: 18446744073709551616` was "found the floating point number
//! `18446744073709552000`"). Where ron's error falls on an integer literal that does not fit, the
//! message says which field (and which element of a list) holds it, the number as written, and
//! the range of the field.

use super::shape::ShapeKind;

/// The largest value of the unsigned fields (cell counts, sizes, moduli, values, press limits).
const UNSIGNED_MAX: u64 = u64::MAX;

/// The integer literal at `offset` in `text` (or around it: ron's errors point at the sign or
/// at the digits), with where it starts, when it is one that does not fit its field: a negative
/// number (every field is unsigned but weights) or one past 64 bits.
fn literal_at(text: &str, offset: usize) -> Option<(usize, &str)> {
    let bytes = text.as_bytes();
    let part = |b: u8| b.is_ascii_digit() || b == b'_' || b == b'-' || b == b'+';
    let mut start = offset.min(bytes.len());
    while start > 0 && part(bytes[start - 1]) {
        start -= 1;
    }
    let mut end = start;
    while end < bytes.len() && part(bytes[end]) {
        end += 1;
    }
    let literal = text.get(start..end)?;
    let digits = literal.trim_start_matches(['-', '+']).replace('_', "");
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) || literal[1..].contains(['-', '+']) {
        return None;
    }
    // A float's digits go on past the integer (`1.5`, `2e9`): not an integer literal.
    if matches!(bytes.get(end), Some(b'.' | b'e' | b'E')) {
        return None;
    }
    Some((start, literal))
}

/// Whether `literal` is too large (rather than below 0).
fn too_large(literal: &str) -> bool {
    !literal.starts_with('-')
}

/// Whether `literal` fits a field of 64 bits, signed or not.
fn fits(literal: &str, signed: bool) -> bool {
    let negative = literal.starts_with('-');
    let digits = literal.trim_start_matches(['-', '+']).replace('_', "");
    let Ok(magnitude) = digits.parse::<u128>() else { return false };
    match (signed, negative) {
        (false, true) => magnitude == 0,
        (false, false) => magnitude <= u64::MAX as u128,
        (true, true) => magnitude <= i64::MAX as u128 + 1,
        (true, false) => magnitude <= i64::MAX as u128,
    }
}

/// The byte offset in `text` of ron's position (1-based line and column, in characters).
pub(super) fn offset_of(text: &str, position: ron::error::Position) -> Option<usize> {
    let line_start = if position.line <= 1 {
        0
    } else {
        text.match_indices('\n').nth(position.line - 2).map(|(i, _)| i + 1)?
    };
    let line = &text[line_start..];
    let column = line.char_indices().nth(position.col.saturating_sub(1)).map_or(line.len(), |(i, _)| i);
    Some(line_start + column)
}

/// The message for an integer of a field of several shapes (`modulus`, `start`, `target`,
/// `max_presses`) that does not fit: `None` when ron's error at `offset` of the field's `text`
/// is about something else.
pub(super) fn shape_message(key: &str, kind: ShapeKind, text: &str, offset: usize) -> Option<String> {
    let (start, literal) = literal_at(text, offset)?;
    if fits(literal, false) {
        return None;
    }
    // The element's index, when the field is a list: commas at the list's own depth before it.
    let mut depth = 0i32;
    let mut index = 0usize;
    let mut list = false;
    for &b in &text.as_bytes()[..start] {
        match b {
            b'[' | b'(' => {
                depth += 1;
                if depth == 1 && b == b'[' {
                    list = true;
                }
            }
            b']' | b')' => depth -= 1,
            b',' if depth == 1 => index += 1,
            _ => {}
        }
    }
    let field = if list { format!("{key}[{index}]") } else { key.to_string() };
    let what = match kind {
        ShapeKind::Modulus => format!("a modulus is a whole number from 2 to {UNSIGNED_MAX}"),
        ShapeKind::State => {
            format!("a cell value is a whole number from 0 to {UNSIGNED_MAX}, below its cell's modulus")
        }
        ShapeKind::Limits => format!("a press limit is a whole number from 0 to {UNSIGNED_MAX}"),
    };
    let how = if too_large(literal) { "is too large" } else { "is out of range" };
    Some(format!("`{field}`: {} {how}: {what}", crate::error::shorten(literal)))
}

/// The message for an integer elsewhere in the file (`Cube(-1)`, `rows: -2`, a button's cell or
/// amount) that does not fit: the field is the nearest name before the number.
pub(super) fn file_message(text: &str, offset: usize) -> Option<String> {
    let (start, literal) = literal_at(text, offset)?;
    let bytes = text.as_bytes();
    let before = text[..start].trim_end();
    let opener = before.as_bytes().last().copied();
    // The nearest `name:` or `Name(` before the number.
    let mut i = before.len();
    let name = loop {
        if i == 0 {
            break None;
        }
        i -= 1;
        if matches!(bytes[i], b':' | b'(') {
            let head = text[..i].trim_end();
            let ident: String =
                head.chars().rev().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
            if !ident.is_empty() {
                break Some(ident.chars().rev().collect::<String>());
            }
        }
    }?;
    let signed_field = match name.as_str() {
        "self" | "neighbors" | "phases" => true,
        "buttons" | "button_phases" => opener != Some(b'('),
        _ => false,
    };
    if fits(literal, signed_field) {
        return None;
    }
    let signed = format!("a whole number from {} to {}", i64::MIN, i64::MAX);
    let unsigned = format!("a whole number from 0 to {UNSIGNED_MAX}");
    let what = match name.as_str() {
        "self" | "neighbors" | "phases" => format!("a press weight is {signed}"),
        "buttons" | "button_phases" if opener == Some(b'(') => format!("a cell number is {unsigned}"),
        "buttons" | "button_phases" => format!("an amount is {signed}"),
        "intended" => format!("a press count is {unsigned}"),
        "edges" => format!("a cell number is {unsigned}"),
        "Cube" => format!("the cube's size is {unsigned}"),
        "Path" | "Cycle" | "Cells" | "cells" => format!("the number of cells is {unsigned}"),
        "rows" | "cols" => format!("`{name}` is {unsigned}"),
        _ => unsigned.clone(),
    };
    let field = match name.chars().next() {
        Some(c) if c.is_ascii_uppercase() => format!("{name}({})", crate::error::shorten(literal)),
        _ => name.clone(),
    };
    let how = if too_large(literal) { "is too large" } else { "is out of range" };
    Some(format!("`{field}`: {} {how}: {what}", crate::error::shorten(literal)))
}
