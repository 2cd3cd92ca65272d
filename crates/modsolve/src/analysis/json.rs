//! The solve document's two writers, over one list of its fields.
//!
//! [`SolveReport`] and [`PlanReport`] name their fields once, in order, through [`Fields`]. Two
//! writers take that list:
//!
//! - [`MapFields`], behind their `serde::Serialize` impls: the ordinary serde way, for every
//!   serializer (`serde_json::to_string`, the Python binding, the server).
//! - [`Stream`], behind [`write_json`]: the same bytes as `serde_json::to_writer`, with the
//!   lists of numbers (the plan, written twice in one document, and the periods: millions of
//!   numbers on a big board) formatted straight into a buffer instead of through a serde call
//!   per number, which took longer than the whole solve of a 1000 × 1000 Lights Out board. Every other value goes through `serde_json`.
//!
//! A test writes reports of every kind of list both ways and compares the bytes, so a field added
//! to the list reaches both writers or the test fails.

use std::io::{self, Write};

use num_bigint::BigUint;
use num_traits::ToPrimitive;
use serde::Serialize;
use serde::ser::SerializeMap;

use super::report::{Numbers, PlanReport, SolveReport};

/// The fields of a JSON object, in order: ordinary values, lists of numbers, and plans (nested
/// objects with fields of their own).
pub(crate) trait Fields {
    /// What a failed write says.
    type Error;
    /// `"key": value`, written by serde.
    fn field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result<(), Self::Error>;
    /// `"key": [numbers]`, or `null`.
    fn numbers(&mut self, key: &'static str, value: Option<&Numbers>) -> Result<(), Self::Error>;
    /// `"key": {the plan's fields}`, or `null`.
    fn plan(&mut self, key: &'static str, value: Option<&PlanReport>) -> Result<(), Self::Error>;
}

/// The fields as entries of a serde map.
pub(crate) struct MapFields<'a, M>(pub(crate) &'a mut M);

impl<M: SerializeMap> Fields for MapFields<'_, M> {
    type Error = M::Error;

    fn field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result<(), M::Error> {
        self.0.serialize_entry(key, value)
    }

    fn numbers(&mut self, key: &'static str, value: Option<&Numbers>) -> Result<(), M::Error> {
        self.0.serialize_entry(key, &value)
    }

    fn plan(&mut self, key: &'static str, value: Option<&PlanReport>) -> Result<(), M::Error> {
        self.0.serialize_entry(key, &value)
    }
}

/// Bytes gathered before they are handed to the writer.
const CHUNK: usize = 1 << 16;

/// The fields written as compact JSON into a buffer that is handed on to `out` a chunk at a
/// time.
pub(crate) struct Stream<'a, W: Write> {
    out: &'a mut W,
    buf: &'a mut Vec<u8>,
    first: bool,
}

impl<'a, W: Write> Stream<'a, W> {
    /// An object's fields, after its `{` has been written.
    fn new(out: &'a mut W, buf: &'a mut Vec<u8>) -> Self {
        Stream { out, buf, first: true }
    }

    /// `,"key":` (no comma before the first field).
    fn key(&mut self, key: &'static str) -> io::Result<()> {
        if !self.first {
            self.buf.push(b',');
        }
        self.first = false;
        serde_json::to_writer(&mut *self.buf, key)?;
        self.buf.push(b':');
        self.spill()
    }

    /// Hands the buffer on once it holds a chunk.
    fn spill(&mut self) -> io::Result<()> {
        flush_chunk(self.out, self.buf)
    }
}

impl<W: Write> Fields for Stream<'_, W> {
    type Error = io::Error;

    fn field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> io::Result<()> {
        self.key(key)?;
        serde_json::to_writer(&mut *self.buf, value)?;
        self.spill()
    }

    fn numbers(&mut self, key: &'static str, value: Option<&Numbers>) -> io::Result<()> {
        self.key(key)?;
        match value {
            None => self.buf.extend_from_slice(b"null"),
            Some(list) => write_list(list, &mut *self.out, &mut *self.buf)?,
        }
        self.spill()
    }

    fn plan(&mut self, key: &'static str, value: Option<&PlanReport>) -> io::Result<()> {
        self.key(key)?;
        match value {
            None => self.buf.extend_from_slice(b"null"),
            Some(plan) => {
                self.buf.push(b'{');
                plan.fields(&mut Stream::new(&mut *self.out, &mut *self.buf))?;
                self.buf.push(b'}');
            }
        }
        self.spill()
    }
}

/// Writes `report` as compact JSON to `out`: the bytes of `serde_json::to_writer(out, report)`,
/// written faster (the lists of numbers are formatted straight into the buffer), and streamed
/// a chunk at a time, so a plan of millions of presses is never held as one string.
pub fn write_json(report: &SolveReport, mut out: impl Write) -> io::Result<()> {
    let mut buf = Vec::with_capacity(CHUNK + 4096);
    buf.push(b'{');
    report.fields(&mut Stream::new(&mut out, &mut buf))?;
    buf.push(b'}');
    out.write_all(&buf)?;
    out.flush()
}

/// `[n0,n1,...]`, as serde writes the list ([`Numbers`]' `Serialize`): numbers up to 2^64 − 1
/// as JSON numbers, larger ones as decimal strings.
fn write_list(list: &Numbers, out: &mut impl Write, buf: &mut Vec<u8>) -> io::Result<()> {
    buf.push(b'[');
    let mut digits = itoa::Buffer::new();
    let mut number = |buf: &mut Vec<u8>, j: usize, value: u64| {
        if j > 0 {
            buf.push(b',');
        }
        buf.extend_from_slice(digits.format(value).as_bytes());
    };
    match list {
        Numbers::Big(values) => {
            for (j, value) in values.iter().enumerate() {
                match value.to_u64() {
                    Some(v) => number(buf, j, v),
                    None => big(buf, j, value),
                }
                flush_chunk(out, buf)?;
            }
        }
        Numbers::Small(values) => {
            for (j, &value) in values.iter().enumerate() {
                number(buf, j, u64::from(value));
                flush_chunk(out, buf)?;
            }
        }
        Numbers::Repeated { value, len } => {
            if *len == 0 {
                buf.push(b']');
                return Ok(());
            }
            let mut one = Vec::new();
            number(&mut one, 1, *value);
            buf.extend_from_slice(&one[1..]);
            // `,value` repeated, a few kilobytes at a time.
            let per_block = (4096 / one.len()).max(1);
            let block = one.repeat(per_block);
            let mut left = len - 1;
            while left > 0 {
                let now = left.min(per_block);
                buf.extend_from_slice(&block[..now * one.len()]);
                left -= now;
                flush_chunk(out, buf)?;
            }
        }
        Numbers::Bits { words, len } => write_bits(words, *len, out, buf)?,
    }
    buf.push(b']');
    Ok(())
}

/// A number past 2^64 − 1, as a decimal string.
fn big(buf: &mut Vec<u8>, j: usize, value: &BigUint) {
    if j > 0 {
        buf.push(b',');
    }
    buf.push(b'"');
    buf.extend_from_slice(value.to_string().as_bytes());
    buf.push(b'"');
}

/// Bits `0..len` of `words` as `0` and `1` separated by commas, eight at a time where they
/// fill a byte: `,b0,b1,...,b7` from a table of the 256 bytes.
fn write_bits(words: &[u64], len: usize, out: &mut impl Write, buf: &mut Vec<u8>) -> io::Result<()> {
    let bit = |j: usize| b'0' + (words[j / 64] >> (j % 64) & 1) as u8;
    let table = byte_table();
    let mut j = 0;
    while j < len && (j == 0 || j % 8 != 0) {
        if j > 0 {
            buf.push(b',');
        }
        buf.push(bit(j));
        j += 1;
    }
    // A word's 64 bits at a time once `j` is at a word's start, a byte's 8 until then.
    while j + 8 <= len && (j % 64 != 0 || j + 64 > len) {
        let byte = (words[j / 64] >> (j % 64)) as u8;
        buf.extend_from_slice(&table[usize::from(byte)]);
        j += 8;
    }
    let mut text = [0u8; 128];
    while j + 64 <= len {
        let word = words[j / 64];
        for (k, chunk) in text.chunks_exact_mut(16).enumerate() {
            chunk.copy_from_slice(&table[usize::from((word >> (8 * k)) as u8)]);
        }
        buf.extend_from_slice(&text);
        j += 64;
        if j % 4096 == 0 {
            flush_chunk(out, buf)?;
        }
    }
    while j + 8 <= len {
        let byte = (words[j / 64] >> (j % 64)) as u8;
        buf.extend_from_slice(&table[usize::from(byte)]);
        j += 8;
    }
    while j < len {
        buf.push(b',');
        buf.push(bit(j));
        j += 1;
    }
    Ok(())
}

/// For each byte, its bits from the lowest as `,b0,b1,...,b7`.
fn byte_table() -> &'static [[u8; 16]; 256] {
    static TABLE: std::sync::OnceLock<[[u8; 16]; 256]> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table = [[0u8; 16]; 256];
        for (byte, entry) in table.iter_mut().enumerate() {
            for i in 0..8 {
                entry[2 * i] = b',';
                entry[2 * i + 1] = b'0' + (byte >> i & 1) as u8;
            }
        }
        table
    })
}

/// Hands `buf` on to `out` once it holds a chunk.
fn flush_chunk(out: &mut impl Write, buf: &mut Vec<u8>) -> io::Result<()> {
    if buf.len() >= CHUNK {
        out.write_all(buf)?;
        buf.clear();
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each kind of list, of every length around a byte, a word and a chunk, is written as serde
    /// writes it.
    #[test]
    fn lists_are_written_as_serde_writes_them() {
        let lengths: [usize; 17] = [0, 1, 2, 7, 8, 9, 15, 16, 17, 63, 64, 65, 127, 200, 4097, 40_000, 70_001];
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for &len in &lengths {
            let words: Vec<u64> = (0..len.div_ceil(64)).map(|_| next()).collect();
            let mut bits = words.clone();
            if len % 64 != 0 {
                *bits.last_mut().expect("a word") &= (1 << (len % 64)) - 1;
            }
            let big: Vec<BigUint> = (0..len)
                .map(|j| match j % 3 {
                    0 => BigUint::from(next() % 10),
                    1 => BigUint::from(next()),
                    _ => BigUint::from(next()) << 70u32,
                })
                .collect();
            let lists = [
                Numbers::Bits { words: bits, len },
                Numbers::Small((0..len).map(|_| next() as u32).collect()),
                Numbers::Repeated { value: next() % 1000, len },
                Numbers::Repeated { value: u64::MAX, len },
                Numbers::Big(big),
            ];
            for list in &lists {
                let mut streamed = Vec::new();
                let mut buf = Vec::new();
                write_list(list, &mut streamed, &mut buf).expect("written to memory");
                streamed.extend_from_slice(&buf);
                let serde = serde_json::to_string(list).expect("serialises");
                assert_eq!(String::from_utf8(streamed).expect("UTF-8"), serde, "length {len}");
            }
        }
    }
}
