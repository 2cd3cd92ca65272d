//! The exact algebra: modular arithmetic, factoring, elimination over `Z/p^E`, bit-packed
//! GF(2), and the Chinese remainder theorem on big integers.
//!
//! Architecture invariant: nothing here knows about puzzles, files or output; it sees matrices
//! and moduli only.
//!
//! The kernels are crate-private: a library user reaches them through `solve` and `analyse`,
//! which verify every plan. The `kernels` feature makes this module public for the dense
//! benchmark and `examples/dense_compare.rs`, which time the eliminations alone.

// Without the `kernels` feature the module is crate-private and its `pub` items reach no one
// outside the crate: that is the point, not an oversight.
#![cfg_attr(not(feature = "kernels"), allow(unreachable_pub, dead_code))]

pub mod arith;
pub mod crt;
pub mod echelon;
pub mod factor;
pub mod gf2;
pub mod ordering;
pub mod sparse;
