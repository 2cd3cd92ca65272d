//! A puzzle's dict form (the file's structure in JSON terms, as Python's dicts give it) written
//! as RON text, to be read by [`super::parse_puzzle`] like any file: the Python package's
//! `solve({...})` and friends use it, so the library is the one writer of puzzle text.
//!
//! The dict form is the file's structure: fields are keys (a null field is left out), an enum
//! variant is a one-key object whose key starts with a capital (`{"Grid": {"rows": 5, "cols":
//! 5}}`, `{"Path": 4}`, `{"All": 1}`; `{"King": null}` for a variant with no value), lists are
//! lists, and the tuples of `edges`, `buttons` and `button_phases` are lists too.
//! `neighborhood` takes a name: `"King"`.

use serde_json::Value;

/// A dict puzzle written as RON: the text, and the top-level field on each line after the
/// first (`fields[i]` is on line `i + 2`).
pub struct Written {
    /// The RON text.
    pub text: String,
    /// The top-level field on each line after the first.
    pub fields: Vec<String>,
}

/// Writes the dict form of a puzzle (as JSON) as RON text. The dict form is the file's
/// structure: fields are keys (a None field is left out), an enum variant is a one-key dict
/// whose key starts with a capital (`{"Grid": {"rows": 5, "cols": 5}}`, `{"Path": 4}`,
/// `{"All": 1}`; `{"King": None}` for a variant with no value), lists are lists, and the tuples
/// of `edges`, `buttons` and `button_phases` are lists too. `neighborhood` takes a name:
/// `"King"`. An error is a message and the top-level field at fault.
pub fn dict_to_ron(value: &Value) -> Result<Written, (String, String)> {
    let Value::Object(map) = value else {
        return Err(("a puzzle dict must be a dict of fields".into(), String::new()));
    };
    let mut text = String::from("Puzzle(\n");
    let mut fields = Vec::new();
    for (key, value) in map {
        if value.is_null() {
            continue;
        }
        let mut line = String::new();
        field(&mut line, key, value).map_err(|message| (message, key.clone()))?;
        text.push_str("    ");
        text.push_str(&line);
        text.push_str(",\n");
        fields.push(key.clone());
    }
    text.push_str(")\n");
    Ok(Written { text, fields })
}

/// `key: value`, the value written with what the field expects (tuples, a name).
fn field(out: &mut String, key: &str, value: &Value) -> Result<(), String> {
    if !is_identifier(key) {
        return Err(format!("{key:?} is not a field name"));
    }
    out.push_str(key);
    out.push_str(": ");
    match (key, value) {
        ("neighborhood", Value::String(name)) if is_identifier(name) => {
            out.push_str(name);
            Ok(())
        }
        ("edges", _) => ron_value(out, value, Some(1)),
        ("buttons", _) => ron_value(out, value, Some(2)),
        ("button_phases", _) => ron_value(out, value, Some(3)),
        _ => ron_value(out, value, None),
    }
}

/// One value as RON; `tuples` is how many lists deep its elements are tuples.
fn ron_value(out: &mut String, value: &Value, tuples: Option<usize>) -> Result<(), String> {
    match value {
        Value::Null => return Err("None is allowed only as a whole field's value".into()),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => out.push_str(&n.to_string()),
        Value::String(s) => out.push_str(&format!("{s:?}")),
        Value::Array(items) => {
            let (open, close, inner) = match tuples {
                Some(0) => ('(', ')', None),
                Some(depth) => ('[', ']', Some(depth - 1)),
                None => ('[', ']', None),
            };
            out.push(open);
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                ron_value(out, item, inner)?;
            }
            out.push(close);
        }
        Value::Object(map) => {
            let variant = match map.iter().next() {
                Some((name, _)) if map.len() == 1 && name.starts_with(|c: char| c.is_ascii_uppercase()) => {
                    Some(name)
                }
                _ => None,
            };
            match variant {
                Some(name) => {
                    if !is_identifier(name) {
                        return Err(format!("{name:?} is not a name"));
                    }
                    out.push_str(name);
                    match &map[name] {
                        Value::Null => {}
                        Value::Object(fields) => struct_fields(out, fields)?,
                        inner => {
                            out.push('(');
                            ron_value(out, inner, None)?;
                            out.push(')');
                        }
                    }
                }
                None => struct_fields(out, map)?,
            }
        }
    }
    Ok(())
}

/// `(key: value, …)`, None fields left out.
fn struct_fields(out: &mut String, map: &serde_json::Map<String, Value>) -> Result<(), String> {
    out.push('(');
    let mut first = true;
    for (key, value) in map.iter().filter(|(_, v)| !v.is_null()) {
        if !first {
            out.push_str(", ");
        }
        first = false;
        field(out, key, value)?;
    }
    out.push(')');
    Ok(())
}

/// A RON identifier: a letter or `_`, then letters, digits and `_`.
fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}
