//! Long fuzzing runs: N random puzzles through every library path (in process) and N random
//! command lines through the binary (as processes), with the generators of the `fuzz` tests.
//!
//! ```sh
//! cargo build --release && cargo run --release --example fuzz_cli -- 10000
//! ```
//!
//! Arguments: the number of runs of each kind (default 10,000), `--seed S` (default 1), and
//! `--skip-known` to leave out the inputs already known to fail (by default they are fuzzed
//! too and counted). The binary is `target/release/modsolve` (or `$MODSOLVE_BIN`). Prints one
//! summary line per kind and, for each distinct failure, the smallest input that shows it.

#[path = "../tests/it/fuzz/inputs.rs"]
mod inputs;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use inputs::{Ending, Files, cli_run, command_line, library_run, puzzle_text};
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config, RngSeed, TestRunner};

/// A command line that runs longer than this is a hang.
const LIMIT: Duration = Duration::from_secs(10);

/// Failures by kind (the first line of the message, numbers and the call aside): how many, and the
/// smallest input.
#[derive(Default)]
struct Failures(BTreeMap<String, (usize, String, String)>);

impl Failures {
    fn add(&mut self, message: &str, input: String) {
        // The same fault with other numbers in its message (counts, thread ids) is one kind.
        let kind: String = message
            .lines()
            .next()
            .unwrap_or("")
            .split(|c: char| c.is_ascii_digit())
            .filter(|part| !part.is_empty())
            .collect::<Vec<_>>()
            .join("#")
            .split("internal error")
            .next()
            .unwrap_or("")
            .to_string();
        let entry = self.0.entry(kind).or_insert_with(|| (0, message.to_string(), input.clone()));
        entry.0 += 1;
        if input.len() < entry.2.len() {
            entry.1 = message.to_string();
            entry.2 = input;
        }
    }

    fn print(&self, what: &str) {
        for (count, message, input) in self.0.values() {
            println!("\n{what} failure ×{count}: {message}\n  input: {input}");
        }
    }
}

fn runner(seed: u64) -> TestRunner {
    TestRunner::new(Config { rng_seed: RngSeed::Fixed(seed), failure_persistence: None, ..Config::default() })
}

fn library(n: usize, seed: u64, known: bool) -> (String, Failures) {
    let mut runner = runner(seed);
    let strategy = puzzle_text();
    let mut failures = Failures::default();
    let (mut calls, mut panics, mut solvable, mut unsupported) = (0, 0, 0, 0);
    let started = Instant::now();
    for i in 0..n {
        let text = strategy.new_tree(&mut runner).expect("a puzzle").current();
        match library_run(&text, i as u64, known) {
            Ok(tally) => {
                calls += tally.calls;
                solvable += usize::from(tally.solvable);
                unsupported += tally.unsupported;
            }
            Err(message) => {
                panics += usize::from(message.contains(" panicked: "));
                failures.add(&message, text.replace('\n', " "));
            }
        }
    }
    let failed: usize = failures.0.values().map(|f| f.0).sum();
    let line = format!(
        "library: {n} puzzles ({calls}+ calls) in {:.1} s: {panics} panics, {} other failures; \
         {solvable} solvable, {unsupported} calls unsupported",
        started.elapsed().as_secs_f64(),
        failed - panics
    );
    (line, failures)
}

fn command_lines(n: usize, seed: u64, known: bool, binary: PathBuf) -> (String, Failures) {
    let mut runner = runner(seed);
    let strategy = command_line(known);
    let all: Vec<Vec<String>> =
        (0..n).map(|_| strategy.new_tree(&mut runner).expect("arguments").current()).collect();
    let files =
        Files::new(std::env::temp_dir().join(format!("modsolve-fuzz-cli-example-{}", std::process::id())));
    let next = AtomicUsize::new(0);
    let results = Mutex::new((BTreeMap::<i32, usize>::new(), [0usize; 4], Failures::default()));
    let started = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(args) = all.get(i) else { break };
                    let run = cli_run(&binary, &files, args, i, LIMIT);
                    let mut guard = results.lock().expect("not poisoned");
                    let (codes, counts, failures) = &mut *guard;
                    // panics, aborts, other signals, hangs
                    match run.ending {
                        Ending::Code(code) => *codes.entry(code).or_insert(0) += 1,
                        Ending::Signal(6) => counts[1] += 1,
                        Ending::Signal(_) => counts[2] += 1,
                        Ending::TimedOut => counts[3] += 1,
                    }
                    counts[0] += usize::from(run.panicked);
                    if let Some(problem) = run.problem() {
                        failures.add(&problem, format!("modsolve {}", run.args.join(" ")));
                    }
                }
            });
        }
    });
    let _ = std::fs::remove_dir_all(&files.dir);
    let (codes, [panics, aborts, signals, hangs], failures) = results.into_inner().expect("not poisoned");
    let codes: Vec<String> = codes.iter().map(|(c, k)| format!("{c}: {k}")).collect();
    let line = format!(
        "{n} runs in {:.1} s: {panics} panics, {aborts} aborts, {signals} signals, {hangs} hangs (over {} s), \
         exit codes {{{}}}",
        started.elapsed().as_secs_f64(),
        LIMIT.as_secs(),
        codes.join(", ")
    );
    (line, failures)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let known = !args.iter().any(|a| a == "--skip-known");
    let seed = args
        .iter()
        .position(|a| a == "--seed")
        .and_then(|i| args.get(i + 1))
        .map(|s| s.parse::<u64>().expect("--seed takes a number"))
        .unwrap_or(1);
    let n = args
        .iter()
        .enumerate()
        .find(|&(i, a)| !a.starts_with("--") && (i == 0 || args[i - 1] != "--seed"))
        .map(|(_, a)| a.parse::<usize>().expect("the number of runs"))
        .unwrap_or(10_000);
    let binary = std::env::var_os("MODSOLVE_BIN").map(PathBuf::from).unwrap_or_else(|| {
        let exe = std::env::current_exe().expect("the example's path");
        exe.parent().and_then(|examples| examples.parent()).expect("target/release").join("modsolve")
    });
    if !binary.is_file() {
        eprintln!(
            "error: {} not found: run `cargo build --release` first (or set MODSOLVE_BIN)",
            binary.display()
        );
        std::process::exit(2);
    }
    // Panics in library calls are caught and reported below, not printed as they happen.
    std::panic::set_hook(Box::new(|_| {}));
    inputs::record_panics();
    let (library_line, library_failures) = std::thread::scope(|scope| {
        let library = scope.spawn(|| library(n, seed, known));
        let (cli_line, cli_failures) = command_lines(n, seed, known, binary);
        let result = library.join().expect("the library fuzzing thread");
        println!("{cli_line}");
        cli_failures.print("command-line");
        result
    });
    println!("{library_line}");
    library_failures.print("library");
}
