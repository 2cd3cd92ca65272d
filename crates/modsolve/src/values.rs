//! One number per cell, stored compactly: the moduli, start and target of a [`crate::Puzzle`].
//!
//! A board of 64 million cells with `Vec<u64>` fields spends 512 MiB on each of them, although
//! almost every puzzle has one modulus for all cells and values below 256. [`CellValues`] keeps
//! one number when every cell has the same one (`All(1)`, one modulus), one byte per cell when
//! every value is below 256 (pictures, Lights Out), and a `u64` per cell otherwise. The choice is
//! made when the values are built and is invisible to readers: indexing and iteration give `u64`
//! references whatever the storage (byte values come from a static table of the 256 possible
//! values), and equality compares values, not storage.

use std::fmt;
use std::ops::Index;

/// Every byte value widened to `u64`, so indexing byte storage can return a reference.
static BYTE_VALUES: [u64; 256] = {
    let mut table = [0u64; 256];
    let mut i = 0;
    while i < 256 {
        table[i] = i as u64;
        i += 1;
    }
    table
};

/// One `u64` per cell, stored as one number, bytes or words (see the module doc).
#[derive(Clone)]
pub struct CellValues(Storage);

#[derive(Clone)]
enum Storage {
    /// Every cell holds `value`.
    Same { value: u64, len: usize },
    /// Every value is below 256.
    Bytes(Vec<u8>),
    /// Anything else.
    Words(Vec<u64>),
}

impl CellValues {
    /// `len` cells that all hold `value`.
    pub fn same(value: u64, len: usize) -> Self {
        CellValues(Storage::Same { value, len })
    }

    /// Values that are all below 256, one byte each (pictures of grid states).
    pub fn from_bytes(bytes: Vec<u8>) -> Self {
        CellValues(Storage::Bytes(bytes))
    }

    /// The number of cells.
    pub fn len(&self) -> usize {
        match &self.0 {
            Storage::Same { len, .. } => *len,
            Storage::Bytes(v) => v.len(),
            Storage::Words(v) => v.len(),
        }
    }

    /// Whether there are no cells.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The value of cell `i`. Panics when `i` is out of range, like a slice.
    #[inline]
    pub fn get(&self, i: usize) -> u64 {
        self[i]
    }

    /// `Some(v)` when there is at least one cell and every cell holds `v`.
    pub fn uniform(&self) -> Option<u64> {
        match &self.0 {
            Storage::Same { value, len } => (*len > 0).then_some(*value),
            Storage::Bytes(v) => {
                let first = *v.first()?;
                v.iter().all(|&b| b == first).then_some(first as u64)
            }
            Storage::Words(v) => {
                let first = *v.first()?;
                v.iter().all(|&w| w == first).then_some(first)
            }
        }
    }

    /// The values in cell order.
    #[doc(hidden)]
    pub fn iter(&self) -> Iter<'_> {
        Iter { values: self, front: 0, back: self.len() }
    }

    /// The values as a plain vector.
    pub fn to_vec(&self) -> Vec<u64> {
        match &self.0 {
            Storage::Same { value, len } => vec![*value; *len],
            Storage::Bytes(v) => v.iter().map(|&b| b as u64).collect(),
            Storage::Words(v) => v.clone(),
        }
    }

    /// Bytes of heap memory the storage holds (for reports on big boards).
    pub fn heap_bytes(&self) -> usize {
        match &self.0 {
            Storage::Same { .. } => 0,
            Storage::Bytes(v) => v.capacity(),
            Storage::Words(v) => v.capacity() * 8,
        }
    }
}

impl From<Vec<u64>> for CellValues {
    /// Chooses the smallest storage that holds the values exactly.
    fn from(values: Vec<u64>) -> Self {
        match values.first() {
            Some(&first) if values.iter().all(|&v| v == first) => CellValues::same(first, values.len()),
            _ if values.iter().all(|&v| v < 256) => {
                CellValues::from_bytes(values.into_iter().map(|v| v as u8).collect())
            }
            _ => CellValues(Storage::Words(values)),
        }
    }
}

impl From<&[u64]> for CellValues {
    fn from(values: &[u64]) -> Self {
        CellValues::from(values.to_vec())
    }
}

impl FromIterator<u64> for CellValues {
    fn from_iter<I: IntoIterator<Item = u64>>(iter: I) -> Self {
        CellValues::from(iter.into_iter().collect::<Vec<u64>>())
    }
}

impl Index<usize> for CellValues {
    type Output = u64;

    #[inline]
    fn index(&self, i: usize) -> &u64 {
        match &self.0 {
            Storage::Same { value, len } => {
                assert!(i < *len, "cell {i} out of range for {len} cells");
                value
            }
            Storage::Bytes(v) => &BYTE_VALUES[v[i] as usize],
            Storage::Words(v) => &v[i],
        }
    }
}

impl PartialEq for CellValues {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl Eq for CellValues {}

impl PartialEq<[u64]> for CellValues {
    fn eq(&self, other: &[u64]) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl<const N: usize> PartialEq<[u64; N]> for CellValues {
    fn eq(&self, other: &[u64; N]) -> bool {
        *self == other[..]
    }
}

impl PartialEq<Vec<u64>> for CellValues {
    fn eq(&self, other: &Vec<u64>) -> bool {
        *self == **other
    }
}

impl PartialEq<CellValues> for Vec<u64> {
    fn eq(&self, other: &CellValues) -> bool {
        *other == **self
    }
}

impl PartialEq<CellValues> for [u64] {
    fn eq(&self, other: &CellValues) -> bool {
        *other == *self
    }
}

/// Serialises as a list of numbers, whatever the storage.
impl serde::Serialize for CellValues {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

impl fmt::Debug for CellValues {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// Iterator over the values of a [`CellValues`], by reference like a slice's.
#[derive(Clone)]
pub struct Iter<'a> {
    values: &'a CellValues,
    front: usize,
    back: usize,
}

impl<'a> Iterator for Iter<'a> {
    type Item = &'a u64;

    #[inline]
    fn next(&mut self) -> Option<&'a u64> {
        (self.front < self.back).then(|| {
            self.front += 1;
            &self.values[self.front - 1]
        })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.back - self.front;
        (n, Some(n))
    }
}

impl DoubleEndedIterator for Iter<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        (self.front < self.back).then(|| {
            self.back -= 1;
            &self.values[self.back]
        })
    }
}

impl ExactSizeIterator for Iter<'_> {}

impl<'a> IntoIterator for &'a CellValues {
    type Item = &'a u64;
    type IntoIter = Iter<'a>;

    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every storage reads back the values it was built from, and equality ignores storage.
    #[test]
    fn storages_read_back_their_values() {
        let cases: Vec<Vec<u64>> = vec![
            vec![],
            vec![7],
            vec![1; 5],
            vec![0, 1, 255, 3],
            vec![0, 256, 1],
            vec![u64::MAX, 2, u64::MAX],
        ];
        for values in cases {
            let compact = CellValues::from(values.clone());
            assert_eq!(compact.len(), values.len());
            assert_eq!(compact.to_vec(), values);
            assert_eq!(compact.iter().copied().collect::<Vec<_>>(), values);
            assert_eq!(
                compact.iter().rev().copied().collect::<Vec<_>>(),
                values.iter().rev().copied().collect::<Vec<_>>()
            );
            for (i, &v) in values.iter().enumerate() {
                assert_eq!(compact[i], v);
                assert_eq!(compact.get(i), v);
            }
            assert_eq!(compact, values);
            let uniform = values.first().filter(|&&f| values.iter().all(|&v| v == f)).copied();
            assert_eq!(compact.uniform(), uniform, "{values:?}");
        }
        // Same values, different storage: equal.
        assert_eq!(CellValues::same(3, 4), CellValues::from_bytes(vec![3, 3, 3, 3]));
        assert_ne!(CellValues::same(3, 4), CellValues::same(3, 5));
        assert_eq!(CellValues::from(vec![5u64, 5, 5]).heap_bytes(), 0);
        assert_eq!(CellValues::from(vec![5u64, 6, 5]).heap_bytes(), 3);
        assert_eq!(format!("{:?}", CellValues::same(1, 3)), "[1, 1, 1]");
    }
}
