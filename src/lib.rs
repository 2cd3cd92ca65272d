//! modsolve: an exact engine for modular switch puzzles (Lights Out and its relatives).
//!
//! Data flows one way: **file → model → system → solver → answer → report**.
//!
//! - [`input`] reads a puzzle source (a file, a pipe or standard input) with a size limit;
//! - [`format`] reads a RON puzzle file and validates it into a [`model::Puzzle`];
//! - [`model`] holds cells, moduli, buttons, start and target, and simulates presses;
//! - [`algebra`] is the exact arithmetic (factoring, elimination over `Z/p^E`, GF(2), CRT) and
//!   knows nothing about puzzles;
//! - [`solve`] turns a puzzle into linear systems, picks the elimination, and returns an
//!   [`solve::Answer`] whose plan has been verified by simulation;
//! - [`report`] renders answers and errors as text or JSON for the binary.

#![warn(missing_docs, unreachable_pub)]

pub mod algebra;
pub mod analysis;
pub mod bounded;
pub mod check;
pub mod error;
pub mod format;
pub mod generate;
pub mod input;
pub mod memory;
pub mod model;
pub mod report;
pub mod scaffold;
pub mod solve;
pub mod strategy;
pub mod values;

pub use analysis::{Engine, Options, analyse};
pub use error::{Error, InputError, InternalError};
pub use format::parse_puzzle;
pub use model::Puzzle;
pub use report::SolveReport;
pub use solve::{Answer, Method, solve, solve_with};
