//! `check --par-distribution`: the exact distribution against brute force (every press vector
//! of every small puzzle), known values (3×3 and 5×5 Lights Out), the total against `check`'s
//! solvable fraction, and the sampled path's intervals against the exact shares.

use std::collections::{BTreeMap, HashMap};

use modsolve::Puzzle;
use modsolve::check::{CheckOptions, check_within};
use modsolve::difficulty::{DistributionKind, DistributionOptions, ParDistribution, par_distribution};
use num_bigint::BigUint;
use num_traits::ToPrimitive;
use rand::SeedableRng;
use rand::rngs::StdRng;

use crate::util::{Scratch, Shape, load, modsolve, odometer, random_puzzle, shipped_path};

/// Par → starts, by brute force: every press vector `x` (each `x_j` below its period) reaches
/// the state `A·x`; the par of the start `target − A·x` is the fewest presses of any `x` that
/// reaches it.
fn brute(puzzle: &Puzzle) -> BTreeMap<u64, u64> {
    let periods: Vec<u64> = puzzle.periods().iter().map(|l| l.to_u64().unwrap()).collect();
    let effects: Vec<Vec<(usize, u64)>> = (0..puzzle.button_count()).map(|j| puzzle.effects(j)).collect();
    let moduli = puzzle.moduli().to_vec();
    let mut fewest: HashMap<Vec<u64>, u64> = HashMap::new();
    odometer(&periods, |x| {
        let mut state = vec![0u64; moduli.len()];
        for (j, e) in effects.iter().enumerate() {
            for &(i, a) in e {
                state[i] = (state[i] + a * x[j]) % moduli[i];
            }
        }
        let presses: u64 = x.iter().sum();
        let entry = fewest.entry(state).or_insert(presses);
        *entry = (*entry).min(presses);
    });
    let mut counts = BTreeMap::new();
    for par in fewest.values() {
        *counts.entry(*par).or_insert(0) += 1;
    }
    counts
}

fn exact(distribution: &ParDistribution) -> &modsolve::difficulty::ExactCounts {
    match &distribution.kind {
        DistributionKind::Exact(exact) => exact,
        DistributionKind::Sampled(s) => panic!("sampled: {}", s.why),
        _ => panic!("a distribution this test does not know"),
    }
}

/// The solvable starts `check` reports, as a number: its fraction times the start states.
fn solvable_by_check(puzzle: &Puzzle) -> BigUint {
    let report = check_within(puzzle, &CheckOptions::default()).unwrap();
    let (a, b) = report.solvable_starts;
    let states: BigUint = puzzle.moduli().iter().map(|&m| BigUint::from(m)).product();
    states * a / b
}

#[test]
fn exact_counts_equal_brute_force_on_small_puzzles() {
    let mut rng = StdRng::seed_from_u64(16);
    let shapes = [
        (
            "mod 2",
            Shape { moduli: 2..=2, equal_moduli: 1.0, cells: 1..=6, buttons: 1..=6, ..Shape::default() },
        ),
        (
            "mod 3",
            Shape { moduli: 3..=3, equal_moduli: 1.0, cells: 1..=5, buttons: 1..=5, ..Shape::default() },
        ),
        ("mixed", Shape { moduli: 2..=8, cells: 1..=4, buttons: 1..=4, ..Shape::default() }),
    ];
    for (name, shape) in &shapes {
        for case in 0..60 {
            let puzzle = random_puzzle(&mut rng, shape);
            let distribution = par_distribution(&puzzle, &DistributionOptions::default()).unwrap();
            let counts = exact(&distribution);
            assert_eq!(counts.pars, brute(&puzzle), "{name} case {case}: {puzzle:?}");
            assert_eq!(counts.unreached, 0);
            let total: u64 = counts.pars.values().sum();
            assert_eq!(BigUint::from(total), distribution.solvable, "{name} case {case}");
            if case % 6 == 0 {
                assert_eq!(distribution.solvable, solvable_by_check(&puzzle), "{name} case {case}");
            }
            assert_eq!(distribution.gods_number(), counts.pars.keys().next_back().copied());
        }
    }
}

/// Many cells and few buttons: the states are too many for the byte array, so the hash set
/// holds them; the counts are the same as brute force's.
#[test]
fn the_hash_set_search_agrees_with_brute_force() {
    let mut buttons = Vec::new();
    for j in 0..6 {
        buttons.push(format!("[({}, 1), ({}, 2), ({}, 1)]", j, j + 20, (j * 7) % 40));
    }
    let text = format!("Puzzle(graph: Cells(40), modulus: 3, buttons: [{}])", buttons.join(", "));
    let puzzle = load(&text);
    let distribution = par_distribution(&puzzle, &DistributionOptions::default()).unwrap();
    let counts = exact(&distribution);
    assert_eq!(counts.encoding, modsolve::difficulty::Encoding::HashSet);
    assert_eq!(counts.pars, brute(&puzzle));
}

/// 3×3 Lights Out: every one of the 512 starts is solvable by exactly one plan, so the number of
/// starts at par k is C(9, k), and God's number is 9.
#[test]
fn lights_out_3x3_distribution() {
    let puzzle = load("Puzzle(graph: Grid(rows: 3, cols: 3), modulus: 2)");
    let distribution = par_distribution(&puzzle, &DistributionOptions::default()).unwrap();
    let binomial: BTreeMap<u64, u64> =
        [1, 9, 36, 84, 126, 126, 84, 36, 9, 1].iter().enumerate().map(|(k, &n)| (k as u64, n)).collect();
    assert_eq!(exact(&distribution).pars, binomial);
    assert_eq!(distribution.solvable, BigUint::from(512u32));
    assert_eq!(distribution.gods_number(), Some(9));
}

/// 5×5 Lights Out: 2^23 solvable starts, God's number 15 (with 7350 starts at par 15), every
/// one of them reached by the search (its speed is the benchmarks' to measure, not a clock's
/// here).
#[test]
fn lights_out_5x5_gods_number_is_15() {
    let puzzle = load("Puzzle(graph: Grid(rows: 5, cols: 5), modulus: 2)");
    let distribution = par_distribution(&puzzle, &DistributionOptions::default()).unwrap();
    let counts = exact(&distribution);
    assert_eq!(distribution.solvable, BigUint::from(1u32 << 23));
    assert_eq!(counts.pars.values().sum::<u64>(), 1 << 23);
    assert_eq!(distribution.gods_number(), Some(15));
    assert_eq!(counts.pars[&15], 7350);
    assert_eq!(counts.unreached, 0);
    // What a caller reserves for it (the server): the byte array over its 2^25 states, the
    // search's peak; past the exact limit, one candidate per worker thread for the samples.
    assert_eq!(counts.encoding, modsolve::difficulty::Encoding::Array);
    let options = DistributionOptions::default();
    assert_eq!(modsolve::difficulty::memory_estimate(&puzzle, &options).bytes, 1 << 25);
    let sampled = options.exact_limit(0);
    let threads = rayon::current_num_threads();
    assert_eq!(
        modsolve::difficulty::memory_estimate(&puzzle, &sampled).bytes,
        modsolve::generate::memory_estimate(&puzzle, threads).bytes
    );
}

/// Forced past a small exact limit, the distribution is sampled, says so, and each par's
/// interval (99.9%) contains its exact share; a par no sample had has a smaller exact share than
/// the bound given for it.
#[test]
fn sampled_intervals_contain_the_exact_shares() {
    let puzzle = load("Puzzle(graph: Path(4), modulus: [7, 8, 7, 6], press: (self: 2, neighbors: 1))");
    let exact_run = par_distribution(&puzzle, &DistributionOptions::default()).unwrap();
    let truth = exact(&exact_run).pars.clone();
    let total: u64 = truth.values().sum();
    let options = DistributionOptions::default().exact_limit(100).samples(3000).seed(5).confidence(0.999);
    let sampled = par_distribution(&puzzle, &options).unwrap();
    let DistributionKind::Sampled(shares) = &sampled.kind else { panic!("exact past the limit") };
    assert_eq!(shares.histogram.taken, 3000);
    assert_eq!(sampled.solvable, BigUint::from(total), "the total stays exact");
    assert_eq!(sampled.gods_number(), None);
    for (par, &count) in &truth {
        let share = count as f64 / total as f64;
        match shares.shares.get(par) {
            Some(s) => assert!(s.low <= share && share <= s.high, "par {par}: {share} not in {s:?}"),
            None => assert!(share <= shares.unseen_high, "par {par}: {share} unseen"),
        }
    }
    assert!(shares.shares.keys().all(|p| truth.contains_key(p)));

    // The command line says it is sampled, in text and JSON.
    let path = shipped_path("octopus.ron");
    let output = modsolve()
        .args(["check", "--par-distribution", "--exact-limit", "100", "--samples", "200", "--budget", "30s"])
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(text.contains("SAMPLED par distribution of 200 random solvable starts"), "{text}");
    assert!(text.contains("more solvable starts than the exact limit of 100"), "{text}");
    assert!(text.contains("95% interval"), "{text}");
    let output = modsolve()
        .args(["check", "--par-distribution", "--exact-limit", "100", "--samples", "200", "--json"])
        .arg(&path)
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(json["method"], "sampled");
    assert_eq!(json["gods_number"], serde_json::Value::Null);
}

/// The command line's exact chart: the counts, the total and God's number, in text and JSON.
#[test]
fn the_command_prints_the_exact_chart() {
    let scratch = Scratch::new();
    let path = scratch.file("three.ron", "Puzzle(graph: Grid(rows: 3, cols: 3), modulus: 2)");
    let output = modsolve().args(["check", "--par-distribution"]).arg(&path).output().unwrap();
    assert_eq!(output.status.code(), Some(0));
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(text.contains("exact par distribution of 512 solvable starts (of 512 start states)"), "{text}");
    assert!(text.contains("     4 | 126  24.6% "), "{text}");
    assert!(text.ends_with("  total: 512 solvable starts\n  God's number (the largest par): 9\n"), "{text}");
    let output = modsolve().args(["check", "--par-distribution", "--json"]).arg(&path).output().unwrap();
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(json["method"], "exact");
    assert_eq!(json["gods_number"], 9);
    assert_eq!(json["solvable_starts"], "512");
    assert_eq!(json["par"]["4"], 126);
}

/// Staged presses are not searched exactly (the phase rule lets a last press stop part-way):
/// the distribution is sampled and says why.
#[test]
fn staged_presses_are_sampled() {
    let puzzle = crate::util::shipped("octopus-game.ron");
    let options = DistributionOptions::default().samples(50);
    let distribution = par_distribution(&puzzle, &options).unwrap();
    let DistributionKind::Sampled(shares) = &distribution.kind else { panic!("staged presses searched") };
    assert!(shares.why.to_string().contains("staged presses"), "{}", shares.why);
}

/// Past the memory limit the exact search is not run (sampled instead, saying why); a deadline
/// stops the search after whole layers: those counts are exact, and the starts not reached are
/// counted as such, with no God's number claimed.
#[test]
fn memory_and_time_bound_the_exact_search() {
    let puzzle = load("Puzzle(graph: Grid(rows: 5, cols: 5), modulus: 2)");
    let options = DistributionOptions::default().max_memory(Some(8 << 20)).samples(20);
    let distribution = par_distribution(&puzzle, &options).unwrap();
    let DistributionKind::Sampled(sampled) = &distribution.kind else { panic!("exact in 8 MiB") };
    assert!(sampled.why.to_string().contains("more than the 8.0 MiB memory limit"), "{}", sampled.why);

    let options = DistributionOptions::default().deadline(Some(std::time::Instant::now()));
    let distribution = par_distribution(&puzzle, &options).unwrap();
    let counts = exact(&distribution);
    assert!(counts.unreached > 0);
    assert_eq!(counts.counted() + counts.unreached, 1 << 23);
    assert_eq!(distribution.gods_number(), None);
    let full = par_distribution(&puzzle, &DistributionOptions::default()).unwrap();
    for (par, n) in &counts.pars {
        assert_eq!(exact(&full).pars[par], *n, "par {par}");
    }
}

/// The par distribution keeps its clocks, told by where it stopped (the command line's clock is
/// checked coarsely once, in `limits`): on King 300×300 mod 3 (its elimination takes about
/// 1.3 s and 480 MiB) `--budget 100ms` ends the samples, sampled and incomplete, fewer taken
/// than asked for, and says so; `--timeout 200ms` answers undecided (exit 3) with the reason,
/// its set-up included.
#[test]
fn the_par_distribution_keeps_its_budget_and_its_timeout() {
    let scratch = Scratch::new();
    let king = scratch.file(
        "king.ron",
        "Puzzle(graph: Grid(rows: 300, cols: 300, neighborhood: King), modulus: 3, target: All(1))",
    );
    let run = |args: &[&str]| modsolve().args(args).arg(&king).output().expect("runs");
    let output = run(&["check", "--par-distribution", "--budget", "100ms", "--json"]);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert_eq!((&json["method"], &json["complete"]), (&"sampled".into(), &false.into()));
    let (taken, samples) = (json["taken"].as_u64().unwrap(), json["samples"].as_u64().unwrap());
    assert!(taken < samples, "{json}");
    let text = String::from_utf8_lossy(&run(&["check", "--par-distribution", "--budget", "100ms"]).stdout)
        .into_owned();
    assert!(text.contains("  stopped at the 100ms budget: "), "{text}");
    let output = run(&["check", "--par-distribution", "--timeout", "200ms"]);
    assert_eq!(output.status.code(), Some(3), "{output:?}");
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(err.contains("the timeout came before the work finished; a larger --timeout"), "{err}");
}

/// A node budget bounds the whole sampled distribution, counted in work (each sample's fixed
/// cost, elimination and search), not the clock: `--budget 1000` takes one sample of the 1000
/// asked (its fixed cost alone is the budget) and says it stopped; a larger node budget takes
/// more, but still not all, and the same samples on every run.
#[test]
fn a_node_budget_bounds_the_whole_sampled_distribution() {
    use modsolve::request::DistributionSpec;
    let template = load("Puzzle(graph: Grid(rows: 6, cols: 6), modulus: 3, target: All(1))");
    let spec = |nodes| DistributionSpec {
        budget: modsolve::Budget::of_nodes(nodes),
        exact_limit: 0,
        samples: 1000,
        seed: 5,
        confidence: 0.95,
        timeout: None,
        max_memory: None,
    };
    let histogram = |nodes| {
        let options = spec(nodes).options().unwrap();
        assert_eq!(options.work, Some(nodes));
        match par_distribution(&template, &options).unwrap().kind {
            DistributionKind::Sampled(sampled) => sampled.histogram,
            _ => panic!("the exact limit is 0"),
        }
    };
    let one = histogram(1000);
    assert_eq!(one.taken, 1, "{one:?}");
    assert!(one.work >= 1000, "{one:?}");
    let some = histogram(100_000);
    assert!(some.taken > 1 && some.taken <= 100, "{some:?}");
    assert!(some.work >= 100_000, "{some:?}");
    assert_eq!(histogram(100_000), some);
    let scratch = Scratch::new();
    let file = scratch.file("grid.ron", "Puzzle(graph: Grid(rows: 6, cols: 6), modulus: 3, target: All(1))");
    let output = modsolve()
        .args(["check", "--par-distribution", "--exact-limit", "0", "--budget", "1000", "--json"])
        .arg(&file)
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert_eq!(
        (&json["method"], &json["complete"], &json["taken"]),
        (&"sampled".into(), &false.into(), &1.into())
    );
    let output = modsolve()
        .args(["check", "--par-distribution", "--exact-limit", "0", "--budget", "1000"])
        .arg(&file)
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.contains("stopped at the budget (1000 nodes of work): 1 of 1000 samples taken"), "{text}");
}

/// A node budget bounds the whole par histogram as it bounds the distribution's samples,
/// counted in work, not the clock: `--budget 1000` takes one sample of the 1000 asked (its
/// fixed cost alone is the budget) and says where it stopped; a larger node budget takes more,
/// but not all, and its stopping point is exact: the samples taken are the first ones of the
/// seed, with the same work as when asked for alone, and no round (at most 16 samples) started
/// after their work reached the budget.
#[test]
fn a_node_budget_bounds_the_whole_par_histogram() {
    use modsolve::difficulty::SamplingBound;
    use modsolve::generate::{SamplesEnd, par_histogram};
    use modsolve::request::HistogramSpec;
    let source = "Puzzle(graph: Grid(rows: 6, cols: 6), modulus: 3, target: All(1))";
    let template = load(source);
    let histogram = |nodes| {
        let spec = HistogramSpec {
            budget: modsolve::Budget::of_nodes(nodes),
            samples: 1000,
            seed: 5,
            timeout: None,
            max_memory: None,
        };
        let asked = spec.asked().unwrap();
        assert_eq!((asked.nodes_per_sample, asked.bound), (nodes, SamplingBound::Work(nodes)));
        spec.histogram(&template, &asked, asked.bound.end(std::time::Instant::now())).unwrap()
    };
    let one = histogram(1000);
    assert_eq!(one.taken, 1, "{one:?}");
    assert!(one.work >= 1000, "{one:?}");
    const NODES: u64 = 100_000;
    let some = histogram(NODES);
    assert!(some.taken > 16 && some.taken <= 100, "{some:?}");
    assert!(some.work >= NODES, "{some:?}");
    assert_eq!(histogram(NODES), some);
    // The same first samples, asked for alone with nothing to end them: the same counts and work.
    let first = |n: usize| par_histogram(&template, n, 5, NODES, SamplesEnd::Never).unwrap();
    assert_eq!(first(some.taken), some);
    // The rounds before the last one (at most 16 samples) had not reached the budget.
    assert!(first(some.taken - 16).work < NODES, "{:?}", first(some.taken - 16));
    let scratch = Scratch::new();
    let file = scratch.file("grid.ron", source);
    let run = |extra: &[&str]| {
        modsolve()
            .args(["check", "--par-histogram", "--samples", "1000", "--seed", "5", "--budget", "1000"])
            .args(extra)
            .arg(&file)
            .output()
            .expect("runs")
    };
    let output = run(&["--json"]);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert_eq!((&json["complete"], &json["taken"]), (&false.into(), &1.into()));
    let text = String::from_utf8_lossy(&run(&[]).stdout).into_owned();
    assert!(
        text.ends_with("  stopped at the budget (1000 nodes of work): 1 of 1000 samples taken (raise --budget for more)\n"),
        "{text}"
    );
}
