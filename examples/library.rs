//! modsolve as a library: build a puzzle in code, solve it, check it, and print the reports.
//!
//! `cargo run --example library`
//!
//! The puzzle is the octopus of "Escape the Cube: Cave": four tentacles in a row counting
//! modulo 7, 8, 7 and 6; pressing a tentacle adds 2 to it and 1 to each neighbour.

use modsolve::check::{CheckOptions, check_within};
use modsolve::model::Topology;
use modsolve::solve::{Budget, Objective};
use modsolve::{Options, Puzzle, analyse};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let octopus = Puzzle::builder(Topology::Path(4))
        .name("Octopus")
        .moduli(vec![7, 8, 7, 6])
        .press(2, 1)
        .start(vec![2, 4, 5, 3])
        .labels(["tentacle 1", "tentacle 2", "tentacle 3", "tentacle 4"].map(String::from).to_vec())
        .build()?;

    // The fewest presses (the default objective), and the plan whose largest press count is
    // smallest; a node budget makes the answer the same on every machine.
    let budget = Budget::of_nodes(10_000_000);
    let report = analyse(&octopus, &Options::default().budget(budget))?;
    print!("{}", modsolve::report::solve_text(&octopus, &report, false, &modsolve::report::Knobs::PLAIN));
    let fewest = report.fewest.as_ref().expect("the octopus is solvable");
    println!("\nfewest: {} presses, {}", fewest.total(), fewest.proof.describe());

    let balanced = analyse(&octopus, &Options::default().budget(budget).objective(Objective::Max))?;
    let plan = balanced.optimal.as_ref().expect("solvable");
    println!("smallest largest press count: {:?}", plan.presses.to_big());

    // The report is the JSON document `modsolve --json` prints.
    println!("\n{}", serde_json::to_string(&report)?);

    // What a level designer wants to know.
    let check =
        check_within(&octopus, &CheckOptions::default().budget(budget).timeout(None).max_memory(None))?;
    println!(
        "\ncheck: par {}, solvable starts {}/{}, {} quiet patterns, passed: {}",
        check.par().expect("solvable"),
        check.solvable_starts.0,
        check.solvable_starts.1,
        check.analysis.quiet_patterns.clone().unwrap_or_default(),
        check.passed(false)
    );
    Ok(())
}
