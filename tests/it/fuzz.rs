//! Fuzzing every path, not only parsing: no panic, no abort, no kill, no hang, and only the
//! documented exit codes (0 solved or passed, 1 no solution or a failed check, 2 bad input or
//! usage, 3 undecided).
//!
//! - Library: [`LIBRARY_CASES`] random small valid puzzles (every graph form, explicit buttons,
//!   staged phases, press limits, intended plans, labels, moduli 2..12 and huge ones, weights up
//!   to the `i64` extremes, states as lists, `All` and pictures) through `analysis_of` with every
//!   engine, objective and `list_all` (a 20,000-node budget), `check`, the player strategies,
//!   a 3-sample par histogram, the par distribution (exact, or 3 samples past 4096 solvable
//!   starts) and `to_ron` read back. Every plan is simulated (phase by phase when
//!   staged), macros add 1 to their cell alone, a strategy's win replays, engines that prove an
//!   answer agree, and the input text is shown on failure (shrunk by proptest).
//! - Command line: [`CLI_RUNS`] random argument vectors from the real subcommands and flags
//!   (`check --par-distribution`, `generate --scramble` and `--deny-warnings` among them), with
//!   good and bad values, huge numbers, unknown flags and missing values, on the shipped puzzles
//!   and a few made for the run, each a process with a wall-clock limit.
//! - Regressions for what the fuzzing found and was fixed here.
//!
//! Faults this fuzzing found, all fixed and all fuzzed here (the generators' `known_failures`
//! inputs, which `fuzz_cli --skip-known` can leave out): on the command line a `--budget` in
//! minutes past 64 bits of seconds (a panic), `check --par-histogram --samples
//! 18446744073709551615` (a panic, then no end with a node budget: now ended by the budget's
//! work in all) and `generate
//! --count 18446744073709551615` on a small template (no end: now refused, the template has
//! fewer starts); in the library the par histogram of a template with a modulus of 2^63 or more
//! (an overflow), an analysis with press limits and a button period past 64 bits (its plan
//! ignored the limits), and an exact count of plans within press limits when the budget ran out
//! before any plan was found (the count ignored the limits).
//!
//! Time (test profile, this 2-core machine, both tests side by side): about 22 s for the
//! library cases and 11 s for the command lines.

mod inputs;

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use assert_cmd::Command;
use inputs::{Ending, Files, cli_run, command_line, library_run, puzzle_text};
use modsolve::scaffold::{Form, starter};
use proptest::test_runner::{Config, RngSeed, TestCaseError, TestRunner};

/// Random puzzles through the library (each about 22 calls).
const LIBRARY_CASES: u32 = 3000;

/// Random command lines run as processes.
const CLI_RUNS: u32 = 1000;

/// A command line that runs longer than this is a hang.
const CLI_LIMIT: Duration = Duration::from_secs(30);

fn config(cases: u32, seed: u64) -> Config {
    Config { cases, rng_seed: RngSeed::Fixed(seed), failure_persistence: None, ..Config::default() }
}

#[test]
fn library_paths_never_panic_and_every_plan_reaches_the_target() {
    let started = Instant::now();
    let mut runner = TestRunner::new(config(LIBRARY_CASES, 0x6675_7a7a));
    // (puzzles, calls, solvable, unsupported, staged, limited, known faults met)
    let tally = RefCell::new([0usize; 7]);
    let result = runner.run(&puzzle_text(), |text| {
        let run =
            library_run(&text, 7, true).map_err(|e| TestCaseError::fail(format!("{e}\ninput:\n{text}")))?;
        let mut t = tally.borrow_mut();
        t[0] += 1;
        t[1] += run.calls;
        t[2] += usize::from(run.solvable);
        t[3] += run.unsupported;
        t[4] += usize::from(text.contains("phases:"));
        t[5] += usize::from(text.contains("max_presses:"));
        t[6] += run.known;
        Ok(())
    });
    if let Err(failure) = result {
        panic!("{failure}");
    }
    let [puzzles, calls, solvable, unsupported, staged, limited, known] = *tally.borrow();
    eprintln!(
        "library fuzz: {puzzles} puzzles ({calls} calls) in {:?}: {solvable} solvable, {unsupported} \
         unsupported calls, {staged} staged, {limited} with press limits, {known} calls met a known fault",
        started.elapsed()
    );
    // The generator is not vacuous: every kind of puzzle and answer comes up.
    assert!(puzzles >= LIBRARY_CASES as usize, "{puzzles}");
    // 18 analyses, check, strategies, the par distribution, and the histogram unless a modulus
    // is 2^63 or more.
    assert!(calls >= 21 * puzzles && calls <= 22 * puzzles, "{calls}");
    assert!(solvable >= puzzles / 5 && solvable <= puzzles * 9 / 10, "{solvable} of {puzzles} solvable");
    assert!(
        unsupported > 0 && staged >= puzzles / 10 && limited >= puzzles / 10,
        "{unsupported} {staged} {limited}"
    );
}

#[test]
fn command_lines_end_with_a_documented_code() {
    let started = Instant::now();
    let binary = assert_cmd::cargo::cargo_bin("modsolve");
    let files = Files::new(std::env::temp_dir().join(format!("modsolve-fuzz-cli-{}", std::process::id())));
    let mut runner = TestRunner::new(config(CLI_RUNS, 0x636c_6921));
    let codes: RefCell<BTreeMap<Ending, usize>> = RefCell::new(BTreeMap::new());
    let run_index = RefCell::new(0usize);
    let result = runner.run(&command_line(true), |args| {
        let index = {
            let mut i = run_index.borrow_mut();
            *i += 1;
            *i
        };
        let run = cli_run(&binary, &files, &args, index, CLI_LIMIT);
        *codes.borrow_mut().entry(run.ending.clone()).or_insert(0) += 1;
        match run.problem() {
            None => Ok(()),
            Some(problem) => Err(TestCaseError::fail(format!(
                "modsolve {}\n{problem}\nstderr:\n{}",
                run.args.join(" "),
                String::from_utf8_lossy(&run.stderr)
            ))),
        }
    });
    let _ = std::fs::remove_dir_all(&files.dir);
    if let Err(failure) = result {
        panic!("{failure}");
    }
    let codes = codes.into_inner();
    eprintln!("command-line fuzz: {} runs in {:?}: {codes:?}", run_index.into_inner(), started.elapsed());
    // Every documented outcome but 3 comes up, and nothing else.
    for code in [0, 1, 2] {
        assert!(codes.get(&Ending::Code(code)).is_some_and(|&n| n >= 10), "exit {code}: {codes:?}");
    }
    assert!(codes.keys().all(|e| matches!(e, Ending::Code(0..=3))), "{codes:?}");
}

// ---------------------------------------------------------------------------------------------
// Regressions

/// `new grid` with a side of 2^64 − 1: the cell count overflowed to 0 and the error said the
/// puzzle needs at least one cell.
#[test]
fn new_grid_past_usize_is_too_big_not_empty() {
    let error = starter(Form::grid(usize::MAX, usize::MAX), 2).expect_err("too big").to_string();
    assert_eq!(
        error,
        "a 18446744073709551615×18446744073709551615 grid is more than a starter file should hold \
         (at most 1000000 cells)"
    );
    let error = starter(Form::grid(1 << 32, 1 << 32), 2).expect_err("too big").to_string();
    assert!(error.starts_with("a 4294967296×4294967296 grid is more than"), "{error}");
    let error = starter(Form::grid(0, usize::MAX), 2).expect_err("empty").to_string();
    assert!(error.starts_with("the puzzle needs at least one cell"), "{error}");
    let error = starter(Form::Cells(1_000_001, None), 2).expect_err("too big").to_string();
    assert_eq!(error, "1000001 cells is more than a starter file should hold (at most 1000000 cells)");
    assert!(starter(Form::grid(1000, 1000), 2).is_ok());

    let output = Command::cargo_bin("modsolve")
        .expect("the modsolve binary is built")
        .args(["new", "grid", "--rows", "18446744073709551615", "--cols", "18446744073709551615"])
        .output()
        .expect("modsolve runs");
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty());
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        "error: a 18446744073709551615×18446744073709551615 grid is more than a starter file should \
         hold (at most 1000000 cells)\n"
    );
}
