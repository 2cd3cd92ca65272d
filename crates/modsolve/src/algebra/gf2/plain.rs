//! The plain kernel: Gauss–Jordan elimination column by column, one row XOR per nonzero entry
//! of the pivot column. [`Elimination::Auto`](super::Elimination::Auto) chooses it below
//! [`FOUR_RUSSIANS_MIN_COLS`](super::FOUR_RUSSIANS_MIN_COLS) eligible columns or 64 rows, where
//! the tables of the other kernels do not pay for themselves; the blocked kernel also uses it to
//! reduce a small panel's pivot rows among themselves.

use super::BitMatrix;
use crate::bounded::checkpoint;

/// [`echelonize`](super::echelonize) column by column (see the module documentation).
pub(super) fn echelonize_plain(m: &mut BitMatrix, eligible: usize) -> Vec<usize> {
    let mut pivot_cols = Vec::new();
    let mut k = 0;
    for c in 0..eligible {
        if k == m.rows {
            break;
        }
        checkpoint();
        let Some(p) = (k..m.rows).find(|&r| m.get(r, c)) else {
            continue;
        };
        m.swap_rows(p, k);
        for r in 0..m.rows {
            if r != k && m.get(r, c) {
                m.xor_row_into(k, r, c / 64);
            }
        }
        pivot_cols.push(c);
        k += 1;
    }
    pivot_cols
}
