//! Proofs in parts (`modsolve FILE --shard K/N`, `modsolve combine`): the parts of one N cover
//! every plan of the solution set exactly once (against an enumeration of the set from the
//! algebra's particular plan and quiet basis), combining every part gives the proven fewest
//! plan of the single run, and combine refuses foreign, overlapping and mismatched parts,
//! and says which parts are missing.

use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};

use modsolve::model::{Neighborhood, Puzzle, Topology};
use modsolve::shard::{self, PartId};
use modsolve::solve::{Budget, Objective};
use num_traits::ToPrimitive;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use serde_json::Value;

use crate::serve::validate;
use crate::util::{Scratch, modsolve};

fn fingerprint(x: &[u64]) -> u64 {
    let mut h = DefaultHasher::new();
    x.hash(&mut h);
    h.finish()
}

/// Every plan of the solution set, from the algebra's particular plan and quiet basis (each
/// simulated), with the mod-2 press limits of 0 applied as the walk applies them: as a map from
/// fingerprint to plan.
fn every_plan(puzzle: &Puzzle) -> HashMap<u64, Vec<u64>> {
    let answer = modsolve::solve(puzzle).unwrap();
    let x0: Vec<u64> = answer.presses.as_ref().unwrap().iter().map(|v| v.to_u64().unwrap()).collect();
    let periods: Vec<u64> = answer.periods.iter().map(|v| v.to_u64().unwrap()).collect();
    let basis: Vec<(Vec<u64>, u64)> = answer
        .quiet_basis
        .iter()
        .map(|g| (g.presses.iter().map(|v| v.to_u64().unwrap()).collect(), g.order.to_u64().unwrap()))
        .collect();
    let binary = periods.iter().all(|&p| p <= 2);
    let mut out = HashMap::new();
    let radices: Vec<u64> = basis.iter().map(|(_, o)| *o).collect();
    crate::util::odometer(&radices, |t| {
        let mut x = x0.clone();
        for ((g, _), &ti) in basis.iter().zip(t) {
            for ((x, &v), &p) in x.iter_mut().zip(g).zip(&periods) {
                *x = (*x + v * ti) % p;
            }
        }
        if binary
            && let Some(limits) = puzzle.max_presses()
            && x.iter().zip(limits).any(|(a, b)| a > b)
        {
            return;
        }
        assert!(out.insert(fingerprint(&x), x).is_none(), "the quiet basis gives a plan twice");
    });
    out
}

/// Square and oblong Lights Out grids, mod 2, 3 and 5, with and without symmetric starts (a
/// symmetric start lets the walks skip images) and press limits, and sets of explicit buttons:
/// each with between 2^4 and 2^20 plans.
fn puzzles() -> Vec<(String, Puzzle)> {
    let mut rng = StdRng::seed_from_u64(34);
    let mut out = Vec::new();
    let grid = |rows, cols, neighborhood| Topology::Grid { rows, cols, wrap: false, neighborhood };
    // (side, modulus, neighborhood): boards of 2^4 to 2^16 plans mod 2, 3^3 to 3^9 mod 3, 25
    // and 49 plans mod 5 and 7.
    let boards = [
        (4, 2, Neighborhood::Cross),
        (9, 2, Neighborhood::Cross),
        (11, 2, Neighborhood::Cross),
        (16, 2, Neighborhood::Cross),
        (19, 2, Neighborhood::Cross),
        (5, 2, Neighborhood::King),
        (8, 2, Neighborhood::King),
        (5, 3, Neighborhood::Cross),
        (12, 3, Neighborhood::Cross),
        (5, 3, Neighborhood::King),
        (4, 5, Neighborhood::Cross),
        (9, 5, Neighborhood::Cross),
        (4, 7, Neighborhood::Cross),
    ];
    for (side, modulus, neighborhood) in boards {
        for variant in 0..3 {
            let cells = side * side;
            let topology = grid(side, side, neighborhood);
            // Symmetric: every cell at 1 (solvable on these boards); otherwise the board after
            // random presses, which is solvable.
            let start: Vec<u64> = if variant == 0 {
                vec![1; cells]
            } else {
                let blank = Puzzle::builder(topology.clone()).modulus(modulus).build().unwrap();
                let presses: Vec<num_bigint::BigUint> =
                    (0..cells).map(|_| rng.random_range(0..modulus).into()).collect();
                blank.apply(&vec![0; cells], &presses)
            };
            let mut builder = Puzzle::builder(topology).modulus(modulus).start(start);
            if variant == 2 {
                // Limits: mod 2 a few buttons never pressed; mod p a few at most once.
                let limits = (0..cells)
                    .map(|_| if rng.random_bool(0.1) { u64::from(modulus > 2) } else { modulus })
                    .collect();
                builder = builder.max_presses(limits);
            }
            let puzzle = builder.build().unwrap();
            let answer = modsolve::solve(&puzzle).unwrap();
            assert!(answer.presses.is_some(), "{side}×{side} mod {modulus} variant {variant}");
            let count = answer.count.to_u64().unwrap();
            assert!((16..=1 << 16).contains(&count), "{side}×{side} mod {modulus}: {count} plans");
            out.push((format!("{side}×{side} mod {modulus} {neighborhood:?} variant {variant}"), puzzle));
        }
    }
    // Explicit buttons on free cells: 2^20 plans mod 2, 3^9 mod 3, 5^5 mod 5.
    for (modulus, cells, buttons) in [(2u64, 10usize, 30usize), (3, 6, 15), (5, 4, 9)] {
        let mut effects: Vec<Vec<(usize, i64)>> = Vec::new();
        for _ in 0..buttons {
            let mut effect = Vec::new();
            for i in 0..cells {
                if rng.random_bool(0.5) {
                    effect.push((i, rng.random_range(1..modulus as i64)));
                }
            }
            effects.push(effect);
        }
        let puzzle = Puzzle::builder(Topology::Cells(cells))
            .modulus(modulus)
            .buttons(effects)
            .start((0..cells).map(|_| rng.random_range(0..modulus)).collect::<Vec<u64>>())
            .build()
            .unwrap();
        out.push((format!("{buttons} buttons on {cells} cells mod {modulus}"), puzzle));
    }
    out
}

/// The parts of N = 1, 3, 64 and 1000 (more parts than units on small sets: most are empty)
/// hold every plan of the set exactly once.
#[test]
fn parts_cover_every_plan_exactly_once() {
    let cases = puzzles();
    assert!(cases.len() >= 20, "only {} puzzles", cases.len());
    let mut walked = 0;
    for (name, puzzle) in &cases {
        let expected = every_plan(puzzle);
        for n in [1u64, 3, 64, 1000] {
            // N = 1000 on the small sets only: each part solves the puzzle again.
            if n == 1000 && expected.len() > 1 << 12 {
                continue;
            }
            let mut seen: HashMap<u64, u64> = HashMap::new();
            for k in 0..n {
                let id = PartId { index: k, count: n };
                let plans = shard::part_plans(puzzle, Objective::Total, id, 1 << 22).unwrap().unwrap();
                for x in plans {
                    let f = fingerprint(&x);
                    assert!(expected.get(&f) == Some(&x), "{name}, part {id}: a plan not in the set: {x:?}");
                    if let Some(earlier) = seen.insert(f, k) {
                        panic!("{name}: parts {earlier} and {k} of {n} both hold {x:?}");
                    }
                }
            }
            assert_eq!(seen.len(), expected.len(), "{name}, N = {n}: the parts miss plans");
            walked += 1;
        }
    }
    assert!(walked >= 60, "{walked} coverings checked");
}

/// The best score within the press limits of the enumerated set.
fn best_score(puzzle: &Puzzle, objective: Objective) -> Option<u128> {
    every_plan(puzzle)
        .values()
        .filter(|x| puzzle.max_presses().is_none_or(|l| x.iter().zip(l).all(|(a, b)| a <= b)))
        .map(|x| objective.score(x).0)
        .min()
}

/// Every part walked (N = 1, 5 and 16) and combined gives the proven best of the enumeration,
/// and the fewest presses of the single run (`analyse`), every objective on some puzzles; each
/// part's report is valid against its schema.
#[test]
fn combined_parts_give_the_single_run_answer() {
    let unbounded = Budget::of_nodes(u64::MAX);
    let mut checked = 0;
    for (i, (name, puzzle)) in puzzles().iter().enumerate() {
        let objectives: &[Objective] = if i % 4 == 0 {
            &[Objective::Total, Objective::Max, Objective::Buttons]
        } else {
            &[Objective::Total]
        };
        for &objective in objectives {
            let expected = best_score(puzzle, objective);
            for n in [1u64, 5, 16] {
                let reports: Vec<(String, shard::PartReport)> = (0..n)
                    .map(|k| {
                        let report =
                            shard::walk_part(puzzle, objective, PartId { index: k, count: n }, unbounded)
                                .unwrap_or_else(|e| panic!("{name}: {e}"));
                        assert!(report.finished, "{name}: part {k}/{n}");
                        validate("part", &serde_json::to_value(&report).unwrap());
                        (format!("part {k}"), report)
                    })
                    .collect();
                let combined = shard::combine(puzzle, &reports).unwrap();
                validate("combine", &serde_json::to_value(&combined).unwrap());
                assert!(combined.proven, "{name}");
                assert_eq!(combined.score.map(u128::from), expected, "{name}, {objective:?}, N = {n}");
                checked += 1;
            }
            if objective == Objective::Total {
                let single = modsolve::analyse(puzzle, &modsolve::Options::default()).unwrap();
                let fewest = single.fewest.as_ref().map(|p| p.total().to_u64().unwrap());
                assert_eq!(fewest.map(u128::from), expected, "{name}: the single run");
            }
        }
    }
    assert!(checked >= 60, "{checked}");
}

const SIXTEEN: &str = "Puzzle(name: \"16×16\", graph: Grid(rows: 16, cols: 16), modulus: 2, start: All(1))";

/// The part reports of `modsolve FILE --shard K/N --json`, one line each.
fn parts(file: &std::path::Path, n: u64, which: impl Iterator<Item = u64>) -> Vec<String> {
    which
        .map(|k| {
            let out = modsolve().arg(file).args(["--shard", &format!("{k}/{n}"), "--json"]).output().unwrap();
            assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
            let line = String::from_utf8(out.stdout).unwrap();
            assert_eq!(line.matches('\n').count(), 1, "one line: {line}");
            line
        })
        .collect()
}

/// The command end to end on 16×16 Lights Out (2^8 plans, proven 18 presses... as the single
/// run says): all parts through standard input as JSON lines give the single run's fewest,
/// proven, exit 0; parts missing give the best so far, "not proven", the missing parts and exit
/// 3; a part given twice, a part of another puzzle, a part of another N, a tampered plan are
/// refused with exit 2 and a message that names the file and line.
#[test]
fn combine_on_the_command_line() {
    let dir = Scratch::new();
    let file = dir.file("sixteen.ron", SIXTEEN);
    let single = modsolve().arg(&file).arg("--json").output().unwrap();
    let single: Value = serde_json::from_slice(&single.stdout).unwrap();
    let fewest = single["fewest"]["total_presses"].as_u64();
    assert!(fewest.is_some(), "{single}");
    let all = parts(&file, 8, 0..8);
    let combined = modsolve()
        .args(["combine"])
        .arg(&file)
        .args(["-", "--json"])
        .write_stdin(all.concat())
        .output()
        .unwrap();
    assert_eq!(combined.status.code(), Some(0), "{}", String::from_utf8_lossy(&combined.stderr));
    let doc: Value = serde_json::from_slice(&combined.stdout).unwrap();
    validate("combine", &doc);
    assert_eq!(doc["proven"], true);
    assert_eq!(doc["given"], 8);
    assert_eq!(doc["score"].as_u64(), fewest, "{doc}");

    // Parts 2 and 5 missing: the best so far, not proven, exit 3.
    let some = dir.file("some.jsonl", &[&all[..2], &all[3..5], &all[6..]].concat().concat());
    let out = modsolve().arg("combine").arg(&file).arg(&some).output().unwrap();
    assert_eq!(out.status.code(), Some(3));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("not proven (6 of 8 parts"), "{text}");
    assert!(text.contains("missing parts (run them with --shard K/8): 2, 5\n"), "{text}");
    let out = modsolve().arg("combine").arg(&file).arg(&some).arg("--json").output().unwrap();
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    validate("combine", &doc);
    assert_eq!(doc["missing"], serde_json::json!([[2, 2], [5, 5]]));
    assert_eq!(doc["proven"], false);

    // The resumed run: the missing parts in a file of their own.
    let rest = dir.file("rest.jsonl", &parts(&file, 8, [2, 5].into_iter()).concat());
    let out = modsolve().arg("combine").arg(&file).arg(&some).arg(&rest).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stdout));

    let refused = |args: &[&std::path::Path], needle: &str| {
        let out = modsolve().arg("combine").arg(&file).args(args).output().unwrap();
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains(needle), "{needle:?} not in {stderr}");
    };
    // Overlap: part 3 twice.
    let again = dir.file("again.jsonl", &all[3]);
    refused(&[&some, &again], "part 3/8 is given twice");
    // Foreign: a part of another puzzle (another start).
    let other = dir.file("other.ron", &SIXTEEN.replace("All(1)", "All(0)"));
    let foreign = dir.file("foreign.jsonl", &parts(&other, 8, 0..1).concat());
    refused(&[&some, &foreign], "foreign.jsonl line 1 is a part of another puzzle");
    // Another N.
    let four = dir.file("four.jsonl", &parts(&file, 4, 0..1).concat());
    refused(&[&some, &four], "parts of one run share N and the objective");
    // A tampered plan (one press more): simulated and refused.
    let mut doc: Value = serde_json::from_str(&all[0]).unwrap();
    let first = doc["presses"][0].as_u64().unwrap();
    doc["presses"][0] = Value::from(1 - first);
    let bad = dir.file("bad.json", &serde_json::to_string_pretty(&doc).unwrap());
    refused(&[&bad], "bad.json line 1: part 0/8 does not match its seal");
    let bad = dir.file("bad.json", &serde_json::to_string_pretty(&resealed(&doc)).unwrap());
    refused(&[&bad], "bad.json line 1: its plan does not solve this puzzle");
    // Not a report at all.
    let junk = dir.file("junk.json", "{\"version\": 1}\n");
    refused(&[&junk], "not a part report");
    // Bad K/N.
    let out = modsolve().arg(&file).args(["--shard", "8/8"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("parts are numbered 0 to 7"));
}

/// A part cut by a node budget says so, and combining it is not a proof.
#[test]
fn a_budget_leaves_a_part_unfinished() {
    let dir = Scratch::new();
    let file = dir.file("nineteen.ron", "Puzzle(graph: Grid(rows: 19, cols: 19), modulus: 2, start: All(1))");
    let out =
        modsolve().arg(&file).args(["--shard", "0/1", "--json", "--budget", "1nodes"]).output().unwrap();
    assert!(out.status.success());
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    validate("part", &report);
    assert_eq!(report["finished"], false, "{report}");
    let out = modsolve().arg("combine").arg(&file).arg("-").write_stdin(out.stdout).output().unwrap();
    assert_eq!(out.status.code(), Some(3));
    assert!(
        String::from_utf8_lossy(&out.stdout)
            .contains("unfinished parts (run them again with a larger --budget): 0")
    );
}

/// One `Prover` per puzzle walks its parts one after another, each with the best score of the
/// parts before it as its cutoff (what the Ray driver does): the reports say which cutoff they
/// were walked with, combining them gives the proven best of the enumeration, and the same
/// parts walked without cutoffs give the same best. A part walked below every plan's score
/// (a cutoff that no part backs) is refused once every part is there, and leaves the answer
/// "not proven" while parts are missing.
#[test]
fn parts_walked_with_the_best_so_far_as_cutoff_combine_exactly() {
    let unbounded = Budget::of_nodes(u64::MAX);
    let mut with_cutoff = 0;
    for (name, puzzle) in puzzles() {
        for objective in [Objective::Total, Objective::Buttons, Objective::Max] {
            let expected = best_score(&puzzle, objective);
            let Ok(prover) = shard::Prover::new(&puzzle, objective) else { continue };
            assert_eq!(prover.puzzle_hash(), shard::puzzle_hash(&puzzle));
            let n = 16u64;
            let mut best: Option<u64> = None;
            let mut reports = Vec::new();
            for k in 0..n {
                let report = prover.walk(PartId { index: k, count: n }, unbounded, best).unwrap();
                validate("part", &serde_json::to_value(&report).unwrap());
                assert!(report.finished, "{name}: part {k}");
                assert_eq!(report.below, best.filter(|_| prover.takes_cutoff()), "{name}: part {k}");
                if let Some(s) = report.score {
                    best = Some(best.map_or(s, |b| b.min(s)));
                }
                reports.push((format!("part {k}"), report));
            }
            with_cutoff += usize::from(prover.takes_cutoff());
            let combined = shard::combine(&puzzle, &reports).unwrap();
            assert!(combined.proven, "{name}, {objective:?}");
            assert_eq!(combined.score.map(u128::from), expected, "{name}, {objective:?}");
            let plain: Vec<(String, shard::PartReport)> = (0..n)
                .map(|k| {
                    (format!("{k}"), prover.walk(PartId { index: k, count: n }, unbounded, None).unwrap())
                })
                .collect();
            assert_eq!(shard::combine(&puzzle, &plain).unwrap().score, combined.score, "{name}");
            // A cutoff below the best: refused when complete, "not proven" while parts miss.
            if let (true, Some(b)) = (prover.takes_cutoff(), combined.score)
                && b > 0
            {
                let mut forged = plain.clone();
                forged[3].1 = prover.walk(PartId { index: 3, count: n }, unbounded, Some(b - 1)).unwrap();
                assert_eq!(forged[3].1.below, Some(b - 1));
                let e = shard::combine(&puzzle, &forged).unwrap_err().to_string();
                assert!(
                    e.contains("part 3/16 was walked for plans below") && e.contains("walk the part again"),
                    "{e}"
                );
                let partial = shard::combine(&puzzle, &forged[..10]).unwrap();
                assert!(!partial.proven && partial.missing == vec![[10, 15]], "{name}");
                // An old report (version 1) with a cutoff is not read.
                forged[3].1.version = 1;
                let e = shard::combine(&puzzle, &forged).unwrap_err().to_string();
                assert!(e.contains("version 1 of the part report"), "{e}");
            }
        }
    }
    assert!(with_cutoff >= 10, "{with_cutoff}");
}

/// 79×79 Lights Out (2^64 plans, more than the whole walk's 2^62) is walked in parts: part 5 of
/// 2^20 within a budget of 20000 blocks is reported unfinished, with a plan (simulated) of the
/// greedy start's score or better, and 95×95 (2^62) likewise.
#[test]
fn lights_out_79_is_walked_in_parts() {
    let dir = Scratch::new();
    for (n, greedy) in [(79, 2865u64), (95, 4247)] {
        let file = dir.file(
            &format!("lo{n}.ron"),
            &format!("Puzzle(graph: Grid(rows: {n}, cols: {n}), modulus: 2, start: All(1))"),
        );
        let out = modsolve()
            .arg(&file)
            .args(["--shard", "5/1048576", "--budget", "20000", "--json"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{n}: {}", String::from_utf8_lossy(&out.stderr));
        let report: Value = serde_json::from_slice(&out.stdout).unwrap();
        validate("part", &report);
        assert_eq!(report["finished"], false, "{n}");
        assert_eq!(report["parts"], 1 << 20);
        let nodes = report["nodes"].as_u64().unwrap();
        assert!((20000..=20000 + 8 * 4096).contains(&nodes), "{n}: {nodes} blocks");
        let score = report["score"].as_u64().unwrap();
        assert!(score <= greedy && score > 0, "{n}: {score}");
        assert_eq!(report["presses"].as_array().unwrap().len(), n * n);
    }
}

/// The 3×3 mixed grid of the hostile review (proven 15 presses by the single run).
const MIX3: &str = "Puzzle(graph: Grid(rows: 3, cols: 3), modulus: [2, 3, 4, 5, 6, 7, 8, 9, 12], press: (self: 2, neighbors: 3), start: [1, 2, 0, 4, 0, 6, 0, 8, 9])";

/// The 8×8 King grid of moduli 2..12, 4, 6, 8, 9, 12 four times over, whose parts walk for
/// 20 s and more without a budget.
fn mix8() -> String {
    let row = "2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 4, 6, 8, 9, 12";
    let moduli = [row; 4].join(", ");
    format!(
        "Puzzle(graph: Grid(rows: 8, cols: 8, neighborhood: King), modulus: [{moduli}], press: (self: 1, neighbors: 2), start: All(1))"
    )
}

/// Every part of `n` walked by the binary (`extra` arguments after `--json`), as documents.
fn walk_all(file: &std::path::Path, n: u64, extra: &[&str]) -> Vec<Value> {
    (0..n)
        .map(|k| {
            let out = modsolve()
                .arg(file)
                .args(["--shard", &format!("{k}/{n}"), "--json"])
                .args(extra)
                .output()
                .unwrap();
            assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
            let report: Value = serde_json::from_slice(&out.stdout).unwrap();
            validate("part", &report);
            report
        })
        .collect()
}

/// `modsolve combine FILE -` with the reports as JSON lines on standard input and `extra`
/// arguments: the exit code, standard output and standard error.
fn combine_lines(file: &std::path::Path, reports: &[Value], extra: &[&str]) -> (Option<i32>, String, String) {
    let lines: String = reports.iter().map(|r| format!("{r}\n")).collect();
    let out = modsolve().arg("combine").arg(file).arg("-").args(extra).write_stdin(lines).output().unwrap();
    let text = |b: Vec<u8>| String::from_utf8(b).unwrap();
    (out.status.code(), text(out.stdout), text(out.stderr))
}

/// The report sealed again after an edit, as a forger who knows the seal's recipe would.
fn resealed(report: &Value) -> Value {
    let parsed = shard::PartReport::from_json(report.clone()).unwrap();
    serde_json::to_value(parsed.sealed()).unwrap()
}

/// Asserts that combining `reports` is refused (exit 2) with `needle` in the message, and
/// never "proven".
fn refused_with(file: &std::path::Path, reports: &[Value], extra: &[&str], needle: &str, what: &str) {
    let (code, stdout, stderr) = combine_lines(file, reports, extra);
    assert_eq!(code, Some(2), "{what}: {stdout}{stderr}");
    assert!(stderr.contains(needle), "{what}: {needle:?} not in {stderr}");
    assert!(!stdout.contains("proven"), "{what}: {stdout}");
}

/// The tamperings of the hostile review, on the 3×3 mixed grid (`total`, 15) and the octopus
/// (`--minimize max`, 9): the best part's plan swapped for another part's worse plan, for the
/// starting plan, or set to null; the best part dropped and the rest renumbered as parts of
/// N − 1; another part's report copied in under the best part's number; `max` edited to
/// `total` on every line. Each is refused (exit 2): by the seal when the report is edited and
/// left as it is, and when it is sealed again by the checks of the run (its identity, the
/// starting plan, where the plan lies), or, for a claim that only a walk can check (a part
/// that hides its better plan behind the starting plan), by `--audit N`. Honest parts combine
/// to the truth, audited or not.
#[test]
fn tampered_parts_are_refused() {
    let dir = Scratch::new();
    let octopus = crate::util::shipped_path("octopus.ron");
    let mix3 = dir.file("mix3.ron", MIX3);
    let mut checked = 0;
    let cases = [
        (&mix3, crate::util::load(MIX3), Objective::Total, "total", 15u64, 8u64),
        (&octopus, crate::util::shipped("octopus.ron"), Objective::Max, "max", 9, 8),
    ];
    for (file, puzzle, objective, minimize, truth, n) in cases {
        let what = |case: &str| format!("{} --minimize {minimize}: {case}", file.display());
        let honest = walk_all(file, n, &["--minimize", minimize]);
        let (code, stdout, stderr) = combine_lines(file, &honest, &["--json"]);
        assert_eq!(code, Some(0), "{stderr}");
        let doc: Value = serde_json::from_str(&stdout).unwrap();
        validate("combine", &doc);
        assert_eq!(doc["score"].as_u64(), Some(truth), "{doc}");
        let all = n.to_string();
        let (code, stdout, _) = combine_lines(file, &honest, &["--audit", &all, "--seed", "1"]);
        assert_eq!(code, Some(0), "{stdout}");
        assert!(stdout.contains("trusted: every report was checked"), "{stdout}");
        assert!(stdout.contains(&format!("checked by walking {n} of {n} parts again")), "{stdout}");
        let b = doc["from_part"].as_u64().unwrap() as usize;
        let start = honest[b]["start"].as_u64().unwrap();
        assert!(start > truth, "{}: the starting plan is already the best", what("start"));

        // The best part's plan swapped for another part's worse plan (score and total to match).
        let other = (0..n as usize)
            .find(|&k| !honest[k]["at"].is_null() && honest[k]["score"].as_u64() > Some(truth))
            .expect("a part with a worse plan of its own");
        let mut swapped = honest.clone();
        for field in ["presses", "score", "total", "at"] {
            swapped[b][field] = honest[other][field].clone();
        }
        refused_with(file, &swapped, &[], "does not match its seal", &what("swapped"));
        swapped[b] = resealed(&swapped[b]);
        refused_with(file, &swapped, &[], "does not lie where it says", &what("swapped, sealed"));

        // Swapped for the starting plan, as a part that found nothing would report it: only a
        // walk sees that, and the audit that walks the part refuses it.
        let prover = shard::Prover::new(&puzzle, objective).unwrap();
        let plan = prover.start().unwrap().to_vec();
        let starting = serde_json::json!({
            "presses": plan,
            "score": objective.score(&plan).0 as u64,
            "total": plan.iter().sum::<u64>(),
            "at": null,
        });
        {
            let mut hidden = honest.clone();
            for field in ["presses", "score", "total", "at"] {
                hidden[b][field] = starting[field].clone();
            }
            refused_with(file, &hidden, &[], "does not match its seal", &what("hidden"));
            hidden[b] = resealed(&hidden[b]);
            refused_with(
                file,
                &hidden,
                &["--audit", &all],
                "disagrees with its audit",
                &what("hidden, audited"),
            );
        }

        // The best part's plan set to null.
        let mut nulled = honest.clone();
        for field in ["presses", "score", "total", "at"] {
            nulled[b][field] = Value::Null;
        }
        refused_with(file, &nulled, &[], "does not match its seal", &what("null"));
        nulled[b] = resealed(&nulled[b]);
        refused_with(
            file,
            &nulled,
            &[],
            "reports no plan, but every part starts from",
            &what("null, sealed"),
        );

        // The best part dropped, the others renumbered as the parts of N − 1.
        let mut renumbered: Vec<Value> =
            honest.iter().enumerate().filter(|&(k, _)| k != b).map(|(_, r)| r.clone()).collect();
        for (k, r) in renumbered.iter_mut().enumerate() {
            r["part"] = Value::from(k as u64);
            r["parts"] = Value::from(n - 1);
        }
        let sealed: Vec<Value> = renumbered.iter().map(resealed).collect();
        refused_with(file, &renumbered, &[], "carries the run identity", &what("renumbered"));
        refused_with(file, &sealed, &[], "carries the run identity", &what("renumbered, sealed"));

        // Another part's report copied in under the best part's number.
        let mut copied = honest.clone();
        copied[b] = honest[other].clone();
        copied[b]["part"] = Value::from(b as u64);
        refused_with(file, &copied, &[], "does not match its seal", &what("copied"));
        copied[b] = resealed(&copied[b]);
        refused_with(file, &copied, &[], "does not lie where it says", &what("copied, sealed"));
        {
            // A part whose plan is the starting plan, copied in as the best part.
            let mut copied = honest.clone();
            copied[b] = honest[other].clone();
            for field in ["presses", "score", "total", "at"] {
                copied[b][field] = starting[field].clone();
            }
            copied[b]["part"] = Value::from(b as u64);
            copied[b] = resealed(&copied[b]);
            refused_with(
                file,
                &copied,
                &["--audit", &all],
                "disagrees with its audit",
                &what("copied start, audited"),
            );
        }
        checked += 1;
    }
    assert_eq!(checked, 2);

    // The octopus's `max` parts relabelled `total` on every line (combine computes the scores
    // from the plans): another run's identity, and, sealed again, another starting plan.
    let honest = walk_all(&octopus, 4, &["--minimize", "max"]);
    let relabelled: Vec<Value> = honest
        .iter()
        .map(|r| {
            let mut r = r.clone();
            r["objective"] = Value::from("total");
            let plan: Vec<u64> = serde_json::from_value(r["presses"].clone()).unwrap();
            r["score"] = Value::from(plan.iter().sum::<u64>());
            r
        })
        .collect();
    refused_with(&octopus, &relabelled, &[], "carries the run identity", "octopus max as total");
    let sealed: Vec<Value> = relabelled.iter().map(resealed).collect();
    refused_with(&octopus, &sealed, &[], "carries the run identity", "octopus max as total, sealed");
    // A forger who computes the `total` run's identity too: the parts' starting plan is not
    // that run's.
    let total = shard::Prover::new(&crate::util::shipped("octopus.ron"), Objective::Total).unwrap();
    let forged: Vec<Value> = relabelled
        .iter()
        .map(|r| {
            let mut r = r.clone();
            r["run"] = Value::from(total.run_identity(4));
            resealed(&r)
        })
        .collect();
    refused_with(
        &octopus,
        &forged,
        &[],
        "part 0/4 says the starting plan every part shares scores",
        "octopus, forged run",
    );

    // The 3×3 grid renumbered as 7 parts with the identity of a run of 7 computed too: the
    // parts' plans are not where a run of 7 has them, or the audit finds the plans hidden.
    let mix3 = dir.file("mix3.ron", MIX3);
    let honest = walk_all(&mix3, 8, &[]);
    let prover = shard::Prover::new(&crate::util::load(MIX3), Objective::Total).unwrap();
    let b = (0..8).min_by_key(|&k| (honest[k]["score"].as_u64(), k)).unwrap();
    let forged: Vec<Value> = honest
        .iter()
        .enumerate()
        .filter(|&(k, _)| k != b)
        .enumerate()
        .map(|(k, (_, r))| {
            let mut r = r.clone();
            r["part"] = Value::from(k as u64);
            r["parts"] = Value::from(7);
            r["run"] = Value::from(prover.run_identity(7));
            resealed(&r)
        })
        .collect();
    let (code, stdout, stderr) = combine_lines(&mix3, &forged, &["--audit", "7"]);
    assert_eq!(code, Some(2), "{stdout}{stderr}");
    eprintln!("renumbered with the identity of 7 parts: {stderr}");
}

/// Parts of the 4×4 mixed grid walked with `--budget 2000nodes` are unfinished (combine: not
/// proven, exit 3); `finished` flipped to true is refused by the seal, and, sealed again, by
/// the audit. Unknown fields and earlier versions are refused with what to do.
#[test]
fn a_flipped_finished_flag_is_refused() {
    let dir = Scratch::new();
    let file = dir.file("mix4.ron", MIX4);
    let n = 4;
    let cut = walk_all(&file, n, &["--budget", "2000nodes"]);
    assert!(cut.iter().any(|r| r["finished"] == false), "a part left unfinished");
    let (code, stdout, _) = combine_lines(&file, &cut, &[]);
    assert_eq!(code, Some(3), "{stdout}");
    assert!(stdout.contains("not proven"), "{stdout}");
    let flipped: Vec<Value> = cut
        .iter()
        .map(|r| {
            let mut r = r.clone();
            r["finished"] = Value::from(true);
            r
        })
        .collect();
    refused_with(&file, &flipped, &[], "does not match its seal", "flipped");
    let sealed: Vec<Value> = flipped.iter().map(resealed).collect();
    refused_with(
        &file,
        &sealed,
        &["--audit", "4", "--seed", "3"],
        "disagrees with its audit (seed 3)",
        "flipped, sealed",
    );

    // Unknown fields, as the schema says (additionalProperties: false).
    let mut extra = cut[0].clone();
    extra["extra"] = Value::from(1);
    refused_with(&file, &[extra], &[], "unknown field `extra`", "an unknown field");
    // An earlier version.
    let mut old = cut[0].clone();
    old["version"] = Value::from(2);
    refused_with(&file, &[old], &[], "version 2 of the part report is from an earlier modsolve", "version 2");
}

/// A 4×4 grid of mixed moduli, walked in parts (its periods are at most 1024): 26 presses at
/// fewest; its parts cut at 2000 nodes report 38 at best.
const MIX4: &str = "Puzzle(graph: Grid(rows: 4, cols: 4), modulus: [3, 4, 5, 6, 4, 5, 6, 3, 5, 6, 3, 4, 6, 3, 4, 5], press: (self: 1, neighbors: 2), start: All(1))";

/// `--timeout` bounds a part and combine like every other command: past it the answer is
/// undecided (exit 3) and nothing is printed on standard output. A part of the 8×8 mixed King
/// grid walks for 20 s and more without it (so the exit code is the stopping point); the audit
/// in combine walks such a part again.
#[test]
fn the_timeout_bounds_parts_and_combine() {
    let dir = Scratch::new();
    let file = dir.file("mix8.ron", &mix8());
    let out = modsolve().arg(&file).args(["--shard", "0/2", "--json", "--timeout", "1s"]).output().unwrap();
    assert_eq!(out.status.code(), Some(3), "{}", String::from_utf8_lossy(&out.stderr));
    let error: Value = serde_json::from_slice(&out.stdout).unwrap();
    validate("error", &error);
    assert_eq!(error["error"]["kind"], "budget", "{error}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("a larger --timeout may finish it"));

    // Combine with an audit of a part that claims its walk finished: the audit walks it again.
    let puzzle = crate::util::load(&mix8());
    let prover = shard::Prover::new(&puzzle, Objective::Total).unwrap();
    let mut claim = prover.walk(PartId { index: 0, count: 2 }, Budget::of_nodes(1), None).unwrap();
    claim.finished = true;
    let claim = serde_json::to_value(claim.sealed()).unwrap();
    let (code, stdout, stderr) = combine_lines(&file, &[claim], &["--audit", "1", "--timeout", "1s"]);
    assert_eq!(code, Some(3), "{stdout}{stderr}");
    assert!(stderr.contains("the timeout came before the work finished"), "{stderr}");
    assert!(stdout.is_empty(), "{stdout}");
}
