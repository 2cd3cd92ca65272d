//! The exact algebra: modular arithmetic, factoring, elimination over `Z/p^E`, bit-packed
//! GF(2), and the Chinese remainder theorem on big integers.
//!
//! Architecture invariant: nothing here knows about puzzles, files or output; it sees matrices
//! and moduli only.

pub mod arith;
pub mod crt;
pub mod echelon;
pub mod factor;
pub mod gf2;
