//! modsolve: an exact engine for modular switch puzzles (Lights Out and its relatives).
//!
//! A puzzle is a set of cells, each counting modulo its own number, and buttons that add fixed
//! amounts to some cells. modsolve says whether a puzzle can be solved, gives a plan (the
//! fewest presses, proven or not), the exact number of plans and the quiet patterns, for any
//! moduli, equal or mixed; every plan it returns has been simulated on the puzzle.
//!
//! # Using the library
//!
//! Make a [`Puzzle`] from a puzzle file ([`parse_puzzle`]) or in code ([`Puzzle::builder`]),
//! then ask [`analyse`], the one entry point the `modsolve` command uses too: it chooses the
//! method, bounds time and memory, and returns the [`SolveReport`] that `modsolve --json`
//! prints.
//!
//! ```
//! use modsolve::model::{Neighborhood, Topology};
//! use modsolve::{Options, Puzzle, analyse};
//!
//! let grid = Topology::Grid { rows: 3, cols: 3, wrap: false, neighborhood: Neighborhood::Cross };
//! let puzzle = Puzzle::builder(grid).modulus(2).target(vec![1; 9]).build()?;
//! let report = analyse(&puzzle, &Options::default())?;
//! assert_eq!(report.solvable, Some(true));
//! assert_eq!(report.count, Some(1u32.into()));
//! assert_eq!(report.fewest.unwrap().total(), 5u32.into());
//! # Ok::<(), modsolve::Error>(())
//! ```
//!
//! [`check::check_within`] reports what a level designer needs (par, solvable starts, quiet
//! patterns, macros, how simple player strategies fare), [`generate::generate`] makes levels to
//! a spec, [`hint::hint`] gives a player the next press of a fewest plan (and the plan in order),
//! [`difficulty::par_distribution`] counts the solvable starts at each par (exactly, or
//! sampled past a limit), and [`report`] renders reports as text.
//!
//! # Layers
//!
//! Data flows one way: **file → model → system → solver → answer → report**.
//!
//! - [`mod@format`] reads a RON puzzle file into a [`model::Puzzle`] through its builder (the
//!   front-ends' `input` module reads the file itself, with a size limit);
//! - [`model`] holds cells, moduli, buttons, start and target, and simulates presses;
//! - the algebra is the exact arithmetic (factoring, elimination over `Z/p^E`, GF(2), CRT) and
//!   knows nothing about puzzles;
//! - [`mod@solve`] turns a puzzle into linear systems, picks the elimination, and returns an
//!   [`solve::Answer`] whose plan has been verified by simulation;
//! - [`analyse`] adds the best plans, counts within press limits and listings; [`check`],
//!   [`generate`], [`hint`], [`difficulty`], [`export`] and [`shard`] build on it;
//! - [`report`] holds the typed documents (serialised as JSON) and the text renderers.
//!
//! # Stability
//!
//! The public API is what these pages show; it is listed in `public-api.txt`, which CI
//! compares with the crate on every change. Modules and items marked `#[doc(hidden)]` are the
//! plumbing the `modsolve` command, its server and the Python package share; they are public
//! only because those are other crates, and may change in any release. Option, report, error
//! and shape types are `#[non_exhaustive]`: build options from `Default` with their setters,
//! and match enums with a catch-all arm.

#![deny(missing_docs)]
#![warn(unreachable_pub)]

#[cfg(feature = "kernels")]
#[doc(hidden)]
pub mod algebra;
#[cfg(not(feature = "kernels"))]
pub(crate) mod algebra;
pub mod check;
pub mod difficulty;
pub mod error;
pub mod export;
pub mod format;
pub mod generate;
pub mod hint;
pub mod model;
pub mod report;
mod setters;
pub mod shard;
pub mod solve;

// The front-ends' plumbing: shared by the `modsolve` command, its server and the Python package
// (other crates, so it must be `pub`), hidden from the documentation and not part of the API
// that semver covers (`crates/modsolve/public-api.txt` is). What a library user needs of these
// modules is re-exported above them: `analyse`, `Options`, `Engine`, `SolveReport`, `Budget`.
#[doc(hidden)]
pub mod analysis;
#[doc(hidden)]
pub mod bounded;
#[doc(hidden)]
pub mod input;
#[doc(hidden)]
pub mod memory;
#[doc(hidden)]
pub mod request;
#[doc(hidden)]
pub mod scaffold;
#[doc(hidden)]
pub mod strategy;
#[doc(hidden)]
pub mod values;

#[doc(inline)]
pub use analysis::{Analysis, Count, Cut, Engine, Listing, Options, analyse};
pub use error::{Error, InputError, InternalError};
pub use format::parse_puzzle;
pub use model::Puzzle;
pub use report::SolveReport;
#[doc(inline)]
pub use solve::{Answer, Budget, Method, Objective, solve, solve_with};
