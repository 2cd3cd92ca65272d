//! The integration tests, one binary: each module is one concern.
//!
//! - `seeds`: published facts (the m×n Lights Out count table, the octopus, sunflower and 3×3
//!   puzzles);
//! - `brute_force`: the algebra against exhaustive enumeration on random small puzzles;
//! - `bad_input`: every validation error, malformed files, and input that must never panic;
//! - `cli`: the binary end to end, text and JSON, on the shipped puzzles;
//! - `fuzz`: random valid puzzles through every library path and random command lines through
//!   the binary: no panic, no hang, only documented exit codes, every plan simulated;
//! - `snapshots`: insta snapshots of the text and JSON reports of every shipped puzzle, of
//!   `check` on each, and of rendered input errors (in `tests/it/snapshots/`);
//! - `util`: the helpers every module shares (puzzles from text and from `puzzles/`, the
//!   binary, scratch directories, random puzzles, the odometer over press vectors);
//! - `input`: reading puzzle sources with bounds (standard input, pipes, size limits);
//! - `library`: the library's entry point against the command line, and every JSON document
//!   against its schema in `schema/`;
//! - `hint`: hints and ordered play: following hints reaches the target in exactly the par
//!   (against brute force), replayed presses, the listed steps, the command's exit codes and JSON;
//! - `shell`: completions, manual pages, duration budgets, GitHub annotations, standard input;
//! - `shapes`: board shapes (Knight, stencils, per-class presses, masks, Hex, Cube) against
//!   brute force and against the same puzzles written with explicit edges or buttons, their
//!   round trips through the file format, and their bad input;
//! - `difficulty`: the exact par distribution against brute force and known values, and the
//!   sampled one against the exact shares;
//! - `sparse`: sparse elimination against dense elimination on random mixed puzzles of up to
//!   a few hundred cells, and mixed 300 × 300 boards;
//! - `serve`: `modsolve serve` over HTTP: every endpoint against the library, path traversal,
//!   oversize bodies, budgets, SVG like `--svg`, and a load test (500 requests, 50 clients);
//! - `front_ends`: the same request through the command line (`--json`) and the server gives
//!   the same document, byte for byte once the command's pretty printing is compacted, valid
//!   against its schema, for every shipped puzzle;
//! - `book`: every `console` example of README.md, FORMAT.md and the guide prints what it shows,
//!   and the README lists every shipped puzzle file;
//! - `export`: `modsolve export` pages under 200 KB for every shipped puzzle, their embedded
//!   document against simulation, bad input, packs ordered by par, and `POST /api/export`;
//! - `shard`: proofs in parts (`--shard K/N`, `combine`): the parts cover every plan once,
//!   combined they give the single run's answer, and combine refuses what does not fit;
//! - `calibration`: the node budget's counted work against the cells its searches touch, on
//!   every shape of puzzle the budget is used on;
//! - `limits`: honest outcomes (undecided, exact counts, why a plan is not proven) and budgets
//!   and memory that bound the command;
//! - `writer`: the one writer of puzzle text: every New-puzzle form round trips, edits keep a
//!   file's comments, removing a node renumbers every per-cell list, `modsolve new`'s forms.

mod bad_input;
mod big;
mod book;
mod brute_force;
mod calibration;
mod check;
mod cli;
mod difficulty;
mod export;
mod front_ends;
mod fuzz;
mod generate;
mod hint;
mod input;
mod library;
mod limits;
mod optimize;
mod seeds;
mod serve;
mod shapes;
mod shard;
mod shell;
mod snapshots;
mod sparse;
mod staged;
mod util;
mod writer;
