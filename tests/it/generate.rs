//! `modsolve generate`: every level meets its spec, re-checked here by brute force; no two
//! levels of a run are rotations or reflections of each other; one seed gives the same files;
//! an impossible spec is refused at once.

use std::collections::HashSet;
use std::time::Instant;

use assert_cmd::Command;
use modsolve::parse_puzzle;

use crate::util::Scratch;

/// `(count, fewest)` of a 0/1 grid puzzle mod `m` by enumerating every plan in `[0, m)^n`.
fn brute(puzzle: &modsolve::Puzzle) -> (u64, u64) {
    let n = puzzle.button_count();
    let m = puzzle.moduli()[0];
    let effects: Vec<_> = (0..n).map(|j| puzzle.effects(j)).collect();
    let (mut count, mut fewest) = (0, u64::MAX);
    for code in 0..m.pow(n as u32) {
        let x: Vec<u64> = (0..n).map(|j| code / m.pow(j as u32) % m).collect();
        let mut state = puzzle.start().to_vec();
        for (j, e) in effects.iter().enumerate() {
            for &(i, a) in e {
                state[i] = (state[i] + a * x[j]) % m;
            }
        }
        if state == *puzzle.target() {
            count += 1;
            fewest = fewest.min(x.iter().sum());
        }
    }
    (count, fewest)
}

/// The 8 images of a square grid state.
fn images(state: &[u64], n: usize) -> Vec<Vec<u64>> {
    let mut out = Vec::new();
    for t in 0..8 {
        let mut image = vec![0; state.len()];
        for r in 0..n {
            for c in 0..n {
                let (mut rr, mut cc) = if t & 4 == 0 { (r, c) } else { (c, r) };
                if t & 1 == 1 {
                    rr = n - 1 - rr;
                }
                if t & 2 == 2 {
                    cc = n - 1 - cc;
                }
                image[rr * n + cc] = state[r * n + c];
            }
        }
        out.push(image);
    }
    out
}

fn run(dir: &std::path::Path, template: &str, extra: &[&str]) -> (Option<i32>, Vec<String>) {
    let path = dir.join("template.ron");
    std::fs::write(&path, template).unwrap();
    let out_dir = dir.join("levels");
    let output = Command::cargo_bin("modsolve")
        .unwrap()
        .arg("generate")
        .arg(&path)
        .arg("--out")
        .arg(&out_dir)
        .args(extra)
        .output()
        .unwrap();
    let mut files: Vec<String> = match std::fs::read_dir(&out_dir) {
        Ok(entries) => entries.map(|e| e.unwrap().path().display().to_string()).collect(),
        Err(_) => Vec::new(),
    };
    files.sort();
    (output.status.code(), files)
}

#[test]
fn levels_meet_the_spec_by_brute_force() {
    let dir_scratch = Scratch::new();
    let dir = dir_scratch.path().to_path_buf();
    let template = "Puzzle(graph: Grid(rows: 3, cols: 3), modulus: 3, target: All(0))";
    let (code, files) = run(&dir, template, &["--count", "20", "--seed", "5", "--unique", "--par", "6..9"]);
    assert_eq!(code, Some(0));
    assert_eq!(files.len(), 20);
    let mut seen = HashSet::new();
    for file in &files {
        let puzzle = parse_puzzle(&std::fs::read_to_string(file).unwrap()).unwrap();
        let (count, fewest) = brute(&puzzle);
        assert_eq!(count, 1, "{file}");
        assert!((6..=9).contains(&fewest), "{file}: par {fewest}");
        let intended = puzzle.intended().expect("intended plan").to_vec();
        assert_eq!(intended.iter().sum::<u64>(), fewest, "{file}");
        let plan: Vec<_> = intended.iter().map(|&v| num_bigint::BigUint::from(v)).collect();
        assert!(puzzle.solves(&plan), "{file}");
        // No level is a rotation or reflection of an earlier one.
        for image in images(&puzzle.start().to_vec(), 3) {
            assert!(!seen.contains(&image), "{file} repeats a level up to symmetry");
        }
        seen.insert(puzzle.start().to_vec());
    }
    // Every level passes check.
    let status = Command::cargo_bin("modsolve").unwrap().arg("check").args(&files).output().unwrap().status;
    assert_eq!(status.code(), Some(0));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn same_seed_same_files() {
    let template = "Puzzle(graph: Grid(rows: 4, cols: 5), modulus: 2, target: All(1))";
    let read =
        |files: &[String]| files.iter().map(|f| std::fs::read_to_string(f).unwrap()).collect::<Vec<_>>();
    let a_scratch = Scratch::new();
    let a = a_scratch.path().to_path_buf();
    let b_scratch = Scratch::new();
    let b = b_scratch.path().to_path_buf();
    let (_, first) = run(&a, template, &["--count", "15", "--seed", "42"]);
    let (_, second) = run(&b, template, &["--count", "15", "--seed", "42"]);
    // The comment names the template's path, which differs; the levels must not.
    let strip = |texts: Vec<String>| {
        texts.into_iter().map(|t| t.lines().skip(1).collect::<Vec<_>>().join("\n")).collect::<Vec<_>>()
    };
    assert_eq!(first.len(), 15);
    assert_eq!(strip(read(&first)), strip(read(&second)));
    let c_scratch = Scratch::new();
    let c = c_scratch.path().to_path_buf();
    let (_, third) = run(&c, template, &["--count", "15", "--seed", "43"]);
    assert_ne!(strip(read(&first)), strip(read(&third)));
    for dir in [a, b, c] {
        std::fs::remove_dir_all(dir).ok();
    }
}

/// The generator's stream is pinned: ChaCha8 keyed by the seed, one stream per candidate, and
/// draws below a bound made by modsolve itself. These starts are the first levels of seed 2026
/// on 5×5 Lights Out; a change of generator, of the draws or of the order candidates are taken
/// in would change them, and would break every seed users have written down.
#[test]
fn seed_2026_gives_the_same_first_levels_in_every_release() {
    let scratch = Scratch::new();
    let template = std::fs::read_to_string(crate::util::shipped_path("lightsout-5x5.ron")).unwrap();
    let output = generate_in(scratch.path(), &template)
        .args(["--count", "3", "--seed", "2026", "--json"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let picture = |level: &serde_json::Value| -> Vec<String> {
        let start: Vec<u64> =
            level["start"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap()).collect();
        start.chunks(5).map(|row| row.iter().map(|&v| if v == 1 { '#' } else { '.' }).collect()).collect()
    };
    let levels = json["levels"].as_array().unwrap();
    let pictures: Vec<Vec<String>> = levels.iter().map(picture).collect();
    assert_eq!(
        pictures,
        [
            [".#..#", "#.#.#", "##.##", "....#", "#####"],
            ["..#.#", "###.#", "....#", ".##..", "#...#"],
            ["###..", "...##", "##.##", "...##", ".#.#."],
        ]
    );
    let pars: Vec<u64> = levels.iter().map(|level| level["par"].as_u64().unwrap()).collect();
    assert_eq!(pars, [11, 10, 9]);
}

#[test]
fn impossible_specs_exit_2_at_once() {
    let dir_scratch = Scratch::new();
    let dir = dir_scratch.path().to_path_buf();
    for (template, extra) in [
        // 5×5 Lights Out: every solvable start has 4 solutions (3 quiet patterns).
        ("Puzzle(graph: Grid(rows: 5, cols: 5), modulus: 2)", vec!["--unique"]),
        // No 3×3 plan needs more than 9 presses.
        ("Puzzle(graph: Grid(rows: 3, cols: 3), modulus: 2)", vec!["--par", "10..12"]),
        ("Puzzle(graph: Grid(rows: 3, cols: 3), modulus: 2)", vec!["--par", "5..2"]),
        // A scramble of no presses, of more presses than there are, or shorter than the par.
        ("Puzzle(graph: Grid(rows: 3, cols: 3), modulus: 2)", vec!["--scramble", "0"]),
        ("Puzzle(graph: Grid(rows: 3, cols: 3), modulus: 2)", vec!["--scramble", "10"]),
        ("Puzzle(graph: Grid(rows: 3, cols: 3), modulus: 2)", vec!["--scramble", "4", "--par", "5..6"]),
    ] {
        let (code, files) = run(&dir, template, &extra);
        assert_eq!(code, Some(2), "{template} {extra:?}");
        assert!(files.is_empty());
        // Refused from the spec, before any candidate is judged: a usage error, where a run
        // that tried candidates would list the levels it found and the candidates it tried.
        let output = Command::cargo_bin("modsolve")
            .unwrap()
            .args(["generate", "--json", "--out"])
            .arg(dir.join("levels"))
            .arg(dir.join("template.ron"))
            .args(&extra)
            .output()
            .unwrap();
        let json: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
        assert_eq!(json["error"]["kind"], "usage", "{template} {extra:?}: {json}");
        assert_eq!(json["tried"], serde_json::Value::Null, "{json}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// Light chasing on a mod-2 grid, written here independently: press below every lit cell, row
/// by row; true when the board ends dark.
fn chase_clears(start: &[u64], rows: usize, cols: usize) -> bool {
    let mut s = start.to_vec();
    let toggle = |s: &mut Vec<u64>, r: usize, c: usize| {
        for (dr, dc) in [(0i64, 0i64), (-1, 0), (1, 0), (0, -1), (0, 1)] {
            let (rr, cc) = (r as i64 + dr, c as i64 + dc);
            if rr >= 0 && cc >= 0 && (rr as usize) < rows && (cc as usize) < cols {
                s[rr as usize * cols + cc as usize] ^= 1;
            }
        }
    };
    for r in 0..rows - 1 {
        for c in 0..cols {
            if s[r * cols + c] == 1 {
                toggle(&mut s, r + 1, c);
            }
        }
    }
    s.iter().all(|&v| v == 0)
}

#[test]
fn strategy_specs_hold() {
    // On 4×4 every solvable start is chased clear (its quiet patterns cover every first row), so
    // `none` is asked of 5×5.
    for (spec, wins, n) in [("chase", true, 4), ("none", false, 5)] {
        let template = format!("Puzzle(graph: Grid(rows: {n}, cols: {n}), modulus: 2, target: All(0))");
        let dir_scratch = Scratch::new();
        let dir = dir_scratch.path().to_path_buf();
        let (code, files) = run(&dir, &template, &["--count", "10", "--strategy", spec, "--seed", "3"]);
        assert_eq!(code, Some(0), "--strategy {spec}");
        assert_eq!(files.len(), 10);
        for file in &files {
            let puzzle = parse_puzzle(&std::fs::read_to_string(file).unwrap()).unwrap();
            let chased = chase_clears(&puzzle.start().to_vec(), n, n);
            if wins {
                assert!(chased, "{file}: chase must win");
            } else {
                assert!(!chased, "{file}: chase must not win");
                assert!(modsolve::strategy::all(&puzzle).iter().all(|s| !s.solves), "{file}");
            }
        }
        std::fs::remove_dir_all(&dir).ok();
    }
    // chase on a graph that is not a grid can never hold.
    let dir_scratch = Scratch::new();
    let dir = dir_scratch.path().to_path_buf();
    let (code, _) = run(&dir, "Puzzle(graph: Path(5), modulus: 2)", &["--strategy", "chase"]);
    assert_eq!(code, Some(2));
    std::fs::remove_dir_all(&dir).ok();
}

/// A prime just below 2^64: `target − pushed` must not overflow on the way to its residue.
const BIG_PRIME: &str = "18446744073709551557";

/// `generate` with moduli above 2^63 and a target near the modulus: the starts are residues, the
/// levels parse, and their `intended` plan solves them.
#[test]
fn moduli_near_2_64_generate_levels() {
    let dir_scratch = Scratch::new();
    let dir = dir_scratch.path().to_path_buf();
    let m: u64 = BIG_PRIME.parse().unwrap();
    let template = format!("Puzzle(graph: Path(3), modulus: {BIG_PRIME}, target: All({}))", m - 1);
    let (code, files) = run(&dir, &template, &["--count", "2", "--seed", "7"]);
    assert_eq!(code, Some(0));
    assert_eq!(files.len(), 2);
    for file in &files {
        let puzzle = parse_puzzle(&std::fs::read_to_string(file).unwrap()).unwrap();
        assert!(puzzle.moduli().iter().all(|&v| v == m), "{file}");
        assert!(puzzle.target().iter().all(|&v| v == m - 1), "{file}");
        assert!(puzzle.start().iter().all(|&v| v < m), "{file}");
        assert_ne!(puzzle.start(), puzzle.target(), "{file}");
        let plan: Vec<_> = puzzle.intended().unwrap().iter().map(|&x| num_bigint::BigUint::from(x)).collect();
        assert!(puzzle.solves(&plan), "{file}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// `modsolve new` with a modulus above 2^63: the start is one press of button 0 undone, as
/// residues, and the file checks clean.
#[test]
fn moduli_near_2_64_make_starter_files() {
    let m: u64 = BIG_PRIME.parse().unwrap();
    let output = Command::cargo_bin("modsolve")
        .unwrap()
        .args(["new", "path", "--cells", "3", "--modulus", BIG_PRIME])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let puzzle = parse_puzzle(std::str::from_utf8(&output.stdout).unwrap()).unwrap();
    assert_eq!(puzzle.start().to_vec(), [m - 1, m - 1, 0]);
    let dir_scratch = Scratch::new();
    let dir = dir_scratch.path().to_path_buf();
    let path = dir.join("new.ron");
    std::fs::write(&path, &output.stdout).unwrap();
    let check = Command::cargo_bin("modsolve").unwrap().arg("check").arg(&path).output().unwrap();
    assert_eq!(check.status.code(), Some(0), "{}", String::from_utf8_lossy(&check.stdout));
    std::fs::remove_dir_all(&dir).ok();
}

fn generate_in(dir: &std::path::Path, template: &str) -> Command {
    let path = dir.join("template.ron");
    std::fs::write(&path, template).unwrap();
    let mut command = Command::cargo_bin("modsolve").unwrap();
    command.arg("generate").arg(&path).arg("--out").arg(dir.join("levels"));
    command
}

fn names(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// A run that would overwrite a level file is refused before anything is generated, naming the
/// file; `--force` overwrites. Files that the run would not write are left alone either way.
#[test]
fn existing_levels_are_refused_unless_forced() {
    let dir_scratch = Scratch::new();
    let dir = dir_scratch.path().to_path_buf();
    let levels = dir.join("levels");
    std::fs::create_dir_all(&levels).unwrap();
    for name in ["level-0002.ron", "level-0003.ron", "level-0004.ron", "level-2.ron"] {
        std::fs::write(levels.join(name), "keep me").unwrap();
    }
    let template = "Puzzle(graph: Grid(rows: 3, cols: 3), modulus: 3)";
    let output = generate_in(&dir, template).args(["--count", "3"]).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty());
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        format!(
            "error: {} already exists (and 1 more level file this run would write); nothing was generated. --force overwrites existing level files\n",
            levels.join("level-0002.ron").display()
        )
    );
    assert_eq!(names(&levels), ["level-0002.ron", "level-0003.ron", "level-0004.ron", "level-2.ron"]);
    assert!(names(&levels).iter().all(|n| std::fs::read_to_string(levels.join(n)).unwrap() == "keep me"));

    let output = generate_in(&dir, template).args(["--count", "3", "--force"]).output().unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    assert_eq!(
        names(&levels),
        ["level-0001.ron", "level-0002.ron", "level-0003.ron", "level-0004.ron", "level-2.ron"]
    );
    for name in ["level-0001.ron", "level-0002.ron", "level-0003.ron"] {
        let puzzle = parse_puzzle(&std::fs::read_to_string(levels.join(name)).unwrap()).unwrap();
        assert_eq!(puzzle.cell_count(), 9, "{name}");
    }
    for name in ["level-0004.ron", "level-2.ron"] {
        assert_eq!(std::fs::read_to_string(levels.join(name)).unwrap(), "keep me");
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// A level file appears complete or not at all. With files limited to 512 bytes (`ulimit -f 1`)
/// a 2.7 kB level cannot be written: when the write fails (SIGXFSZ ignored, so the OS says "File
/// too large") the run stops with exit 2 and leaves nothing, not even its temporary file; when
/// the process is killed in the middle of the write (SIGXFSZ's default), no `level-*.ron`
/// exists, half-written or otherwise.
#[cfg(unix)]
#[test]
fn a_failed_write_leaves_no_partial_level() {
    let dir_scratch = Scratch::new();
    let dir = dir_scratch.path().to_path_buf();
    let template = dir.join("template.ron");
    // A 400-cell path: a level file is about 2.7 kB.
    std::fs::write(&template, "Puzzle(graph: Path(400), modulus: 2)").unwrap();
    let levels = dir.join("levels");
    let bin = assert_cmd::cargo::cargo_bin("modsolve");
    let run = |trap: &str| {
        std::process::Command::new("sh")
            .arg("-c")
            .arg(format!("{trap} ulimit -f 1; exec \"$0\" generate \"$1\" --count 3 --out \"$2\""))
            .arg(&bin)
            .arg(&template)
            .arg(&levels)
            .output()
            .unwrap()
    };
    let output = run("trap '' XFSZ;");
    assert_eq!(output.status.code(), Some(2));
    let message = String::from_utf8_lossy(&output.stderr);
    assert_eq!(
        message,
        format!(
            "error: cannot write {}: File too large (os error 27)\n",
            levels.join("level-0001.ron").display()
        )
    );
    assert!(names(&levels).is_empty(), "{:?}", names(&levels));

    let output = run("");
    assert_eq!(output.status.code(), None, "killed by SIGXFSZ");
    assert!(!names(&levels).iter().any(|n| n.starts_with("level-")), "{:?}", names(&levels));
    // Without the limit the same run writes whole levels.
    let output =
        generate_in(&dir, "Puzzle(graph: Path(400), modulus: 2)").args(["--count", "3"]).output().unwrap();
    assert_eq!(output.status.code(), Some(0));
    for name in ["level-0001.ron", "level-0002.ron", "level-0003.ron"] {
        let text = std::fs::read_to_string(levels.join(name)).unwrap();
        assert!(text.len() > 2000, "{name}: {} bytes", text.len());
        assert_eq!(parse_puzzle(&text).unwrap().cell_count(), 400);
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// Levels are written and printed one by one as they are accepted: with ten million asked for,
/// the first lines arrive at once and name complete files (nothing waits for the whole batch,
/// nothing holds it). `--json` prints the same entries as one JSON array, one level a line.
#[test]
fn levels_stream_as_they_are_accepted() {
    use std::io::BufRead;
    let dir_scratch = Scratch::new();
    let dir = dir_scratch.path().to_path_buf();
    let template = "Puzzle(graph: Grid(rows: 4, cols: 4), modulus: 2)";
    // Ten million levels of a template with 2^26 solvable starts (a count it cannot meet is
    // refused at once).
    std::fs::write(dir.join("template.ron"), "Puzzle(graph: Grid(rows: 4, cols: 4), modulus: 4)").unwrap();
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("modsolve"))
        .arg("generate")
        .arg(dir.join("template.ron"))
        .args(["--count", "10000000", "--out"])
        .arg(dir.join("levels"))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let (send, receive) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(stdout).lines().take(3) {
            if send.send(line.unwrap()).is_err() {
                return;
            }
        }
    });
    let started = Instant::now();
    let mut lines = Vec::new();
    for _ in 0..3 {
        match receive.recv_timeout(std::time::Duration::from_secs(30)) {
            Ok(line) => lines.push(line),
            Err(e) => {
                child.kill().ok();
                panic!("no level line after {:?}: {e}", started.elapsed());
            }
        }
    }
    let still_running = child.try_wait().unwrap().is_none();
    child.kill().ok();
    child.wait().ok();
    assert!(still_running, "the run goes on while its first levels are printed");
    for (k, line) in lines.iter().enumerate() {
        let file = dir.join("levels").join(format!("level-{:04}.ron", k + 1));
        assert!(line.starts_with(&format!("{}  par ", file.display())), "{line}");
        let puzzle = parse_puzzle(&std::fs::read_to_string(&file).unwrap()).unwrap();
        let par = puzzle.intended().unwrap().iter().sum::<u64>();
        assert!(line.contains(&format!("  par {par}  64 solutions")), "{line}");
    }

    let json_dir_scratch = Scratch::new();
    let json_dir = json_dir_scratch.path().to_path_buf();
    let output =
        generate_in(&json_dir, template).args(["--count", "4", "--json", "--seed", "9"]).output().unwrap();
    assert_eq!(output.status.code(), Some(0));
    let text = String::from_utf8(output.stdout).unwrap();
    assert_eq!(text.lines().count(), 6, "the head, 4 levels, the tail:\n{text}");
    let document: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(document["version"], 1);
    assert_eq!(document["found"], 4);
    assert!(document["tried"].as_u64().unwrap() >= 4);
    let entries = document["levels"].as_array().unwrap();
    assert_eq!(entries.len(), 4);
    for (k, entry) in entries.iter().enumerate() {
        let file = json_dir.join("levels").join(format!("level-{:04}.ron", k + 1));
        assert_eq!(entry["file"], file.display().to_string());
        let puzzle = parse_puzzle(&std::fs::read_to_string(&file).unwrap()).unwrap();
        assert_eq!(entry["start"], serde_json::json!(puzzle.start().to_vec()));
        assert_eq!(entry["intended"], serde_json::json!(puzzle.intended().unwrap()));
        assert_eq!(entry["par"], puzzle.intended().unwrap().iter().sum::<u64>());
        assert_eq!(entry["count"], "16");
    }
    for d in [dir, json_dir] {
        std::fs::remove_dir_all(d).ok();
    }
}

/// `check --par-histogram` as JSON: `(samples, taken, complete, par counts, unproven)`.
fn histogram(dir: &std::path::Path, extra: &[&str]) -> (Option<i32>, serde_json::Value) {
    let template = dir.join("six.ron");
    std::fs::write(&template, "Puzzle(graph: Grid(rows: 6, cols: 6), modulus: 2)").unwrap();
    let output = Command::cargo_bin("modsolve")
        .unwrap()
        .args(["check", "--par-histogram", "--json", "--seed", "2"])
        .arg(&template)
        .args(extra)
        .timeout(std::time::Duration::from_secs(60))
        .output()
        .unwrap();
    let json = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&output.stderr)));
    (output.status.code(), json)
}

fn counted(json: &serde_json::Value) -> u64 {
    let pars: u64 = json["par"].as_object().unwrap().values().map(|n| n.as_u64().unwrap()).sum();
    pars + json["unproven"].as_u64().unwrap()
}

/// Any `--samples` is streamed into the counts, never listed: 2^62 samples (a capacity
/// overflow before) and a billion (an abort) stop at a 300 ms `--budget` and say how many were
/// taken; every sample taken is counted once. (The stopping point is the subject: a run the
/// budget did not end would not finish; a node budget refuses such counts as usage errors.)
#[test]
fn par_histogram_of_huge_samples_stops_at_the_budget() {
    let dir_scratch = Scratch::new();
    let dir = dir_scratch.path().to_path_buf();
    for samples in ["4611686018427387904", "1000000000"] {
        let (code, json) = histogram(&dir, &["--samples", samples, "--budget", "300ms"]);
        assert_eq!(code, Some(0), "{json}");
        assert_eq!(json["samples"].as_u64().unwrap().to_string(), samples);
        assert_eq!(json["complete"], false);
        let taken = json["taken"].as_u64().unwrap();
        assert!(taken >= 16, "{samples}: {taken} taken");
        assert_eq!(counted(&json), taken);
    }
    // The text says where it stopped.
    let output = Command::cargo_bin("modsolve")
        .unwrap()
        .args(["check", "--par-histogram", "--samples", "1000000000", "--budget", "300ms"])
        .arg(dir.join("six.ron"))
        .output()
        .unwrap();
    let text = String::from_utf8(output.stdout).unwrap();
    let taken: usize = text.lines().next().unwrap().split(' ').nth(3).unwrap().parse().unwrap();
    assert!(
        text.ends_with(&format!(
            "  stopped at the 300ms budget: {taken} of 1000000000 samples taken (raise --budget for more)\n"
        )),
        "{text}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// The default budget bounds par samples by their work, counted (each sample's elimination and
/// its search nodes), not by a clock: a machine with both cores busy takes the same samples as
/// an idle one. (The default was 10 s of samples, so a busy machine took fewer.)
#[test]
fn par_samples_bounded_by_work_are_the_same_on_a_busy_machine() {
    use modsolve::generate::{SamplesEnd, par_histogram};
    use std::sync::atomic::{AtomicBool, Ordering};
    let template =
        modsolve::parse_puzzle("Puzzle(graph: Grid(rows: 40, cols: 40, neighborhood: King), modulus: 3)")
            .unwrap();
    const WORK: u64 = 20_000_000;
    let run = || par_histogram(&template, 1000, 7, 2_000_000, SamplesEnd::Work(WORK)).unwrap();
    let idle = run();
    assert!(idle.taken > 1 && idle.taken < 1000, "{idle:?}");
    assert!(idle.work >= WORK, "{idle:?}");
    let busy = AtomicBool::new(true);
    let loaded = std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| {
                while busy.load(Ordering::Relaxed) {
                    std::hint::black_box((0..10_000u64).sum::<u64>());
                }
            });
        }
        let loaded = run();
        busy.store(false, Ordering::Relaxed);
        loaded
    });
    assert_eq!(idle, loaded);
    // A smaller bound takes fewer samples, a prefix of the same ones.
    let fewer = par_histogram(&template, 1000, 7, 2_000_000, SamplesEnd::Work(WORK / 4)).unwrap();
    assert!(fewer.taken < idle.taken, "{fewer:?} {idle:?}");
}

/// Within its budget a histogram takes every sample, with no "stopped" line, and one seed gives
/// the same counts (node budgets, not time, decide each sample).
#[test]
fn par_histogram_within_budget_is_complete_and_reproducible() {
    let dir_scratch = Scratch::new();
    let dir = dir_scratch.path().to_path_buf();
    let (code, first) = histogram(&dir, &["--samples", "300", "--budget", "30s"]);
    assert_eq!(code, Some(0));
    assert_eq!((first["taken"].as_u64(), first["complete"].as_bool()), (Some(300), Some(true)));
    assert_eq!(counted(&first), 300);
    // A node budget bounds each sample and sets no deadline.
    let (_, second) = histogram(&dir, &["--samples", "300", "--budget", "2000000"]);
    assert_eq!(first, second);
    std::fs::remove_dir_all(&dir).ok();
}

/// Runs `generate` on `template` with `extra` and `--json`: the exit code and each level's
/// object with its file's puzzle.
fn generated(
    dir: &std::path::Path,
    template: &str,
    extra: &[&str],
) -> (Option<i32>, Vec<(serde_json::Value, modsolve::Puzzle)>) {
    let output = generate_in(dir, template).args(extra).arg("--json").output().unwrap();
    let json: serde_json::Value = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&output.stderr)));
    let levels = json["levels"]
        .as_array()
        .unwrap()
        .iter()
        .map(|level| {
            let text = std::fs::read_to_string(level["file"].as_str().unwrap()).unwrap();
            (level.clone(), parse_puzzle(&text).unwrap())
        })
        .collect();
    (output.status.code(), levels)
}

fn numbers(value: &serde_json::Value) -> Vec<u64> {
    value.as_array().unwrap().iter().map(|v| v.as_u64().unwrap()).collect()
}

/// `--scramble K`: every level's start is K presses from the target (the scramble the JSON
/// gives has K presses and reaches the target from the level's start, and no press undoes
/// another) and its proven par is at most K.
#[test]
fn scrambled_levels_are_k_presses_from_the_target() {
    let scratch = Scratch::new();
    for (template, k) in [
        ("Puzzle(graph: Grid(rows: 5, cols: 5), modulus: 2)", 16u64),
        ("Puzzle(graph: Grid(rows: 4, cols: 4), modulus: 3, target: All(1))", 7),
        ("Puzzle(graph: Path(4), modulus: [7, 8, 7, 6], press: (self: 2, neighbors: 1))", 12),
    ] {
        let k_text = k.to_string();
        let (code, levels) =
            generated(scratch.path(), template, &["--count", "12", "--scramble", &k_text, "--force"]);
        assert_eq!(code, Some(0), "{template}");
        assert_eq!(levels.len(), 12);
        let mut below = 0;
        for (level, puzzle) in &levels {
            let scramble = numbers(&level["scramble"]);
            assert_eq!(scramble.iter().sum::<u64>(), k, "{template}: {level}");
            let periods = puzzle.periods();
            assert!(scramble.iter().zip(&periods).all(|(&x, l)| num_bigint::BigUint::from(x) < *l));
            let presses: Vec<num_bigint::BigUint> = scramble.iter().map(|&x| x.into()).collect();
            assert!(puzzle.solves(&presses), "{template}: the scramble does not reach the target");
            let par = level["par"].as_u64().unwrap();
            assert!(par <= k, "{template}: par {par} above {k}");
            assert_eq!(puzzle.intended().unwrap().iter().sum::<u64>(), par);
            below += usize::from(par < k);
        }
        if template.contains("rows: 5") {
            // God's number of 5×5 Lights Out is 15: a scramble of 16 presses always has a
            // shorter plan.
            assert_eq!(below, levels.len(), "5×5 Lights Out");
        }
    }
}

/// `--par` on large boards: uniformly random starts of 20×20 Lights Out and of 7×7 King mod 3
/// have pars near half their buttons, so a low range is never met; scrambled starts meet it,
/// each par proven.
#[test]
fn scramble_makes_low_pars_on_large_boards() {
    let scratch = Scratch::new();
    for (template, scramble, par) in [
        ("Puzzle(graph: Grid(rows: 20, cols: 20), modulus: 2)", "8", 5..=8u64),
        ("Puzzle(graph: Grid(rows: 7, cols: 7, neighborhood: King), modulus: 3)", "6", 4..=6),
    ] {
        let range = format!("{}..{}", par.start(), par.end());
        let (code, levels) = generated(
            scratch.path(),
            template,
            &["--count", "5", "--par", &range, "--attempts", "40", "--force"],
        );
        assert_eq!((code, levels.len()), (Some(1), 0), "{template}: without a scramble");
        let (code, levels) = generated(
            scratch.path(),
            template,
            &["--count", "5", "--par", &range, "--scramble", scramble, "--force"],
        );
        assert_eq!((code, levels.len()), (Some(0), 5), "{template}");
        for (level, puzzle) in &levels {
            let p = level["par"].as_u64().unwrap();
            assert!(par.contains(&p), "{template}: par {p}");
            // Proven: the solver says so of the level file.
            let report = modsolve::analyse(puzzle, &modsolve::Options::default()).unwrap();
            let fewest = report.fewest.unwrap();
            assert_eq!(fewest.total(), p.into());
            assert!(fewest.proof.is_proven());
        }
    }
}

/// `--deny-warnings`: every level passes `modsolve check --deny warnings`, with and without a
/// scramble, and the same seed gives the same levels.
#[test]
fn deny_warnings_levels_pass_the_strict_check() {
    let scratch = Scratch::new();
    let six = "Puzzle(graph: Grid(rows: 6, cols: 6), modulus: 2)";
    for extra in [&["--par", "8..12"][..], &["--scramble", "10"]] {
        let mut args = vec!["--count", "6", "--deny-warnings", "--force"];
        args.extend(extra);
        let (code, levels) = generated(scratch.path(), six, &args);
        assert_eq!((code, levels.len()), (Some(0), 6), "{extra:?}");
        let files: Vec<&str> = levels.iter().map(|(level, _)| level["file"].as_str().unwrap()).collect();
        let output = Command::cargo_bin("modsolve")
            .unwrap()
            .args(["check", "--deny", "warnings"])
            .args(&files)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&output.stdout);
        assert_eq!(output.status.code(), Some(0), "{extra:?}: {text}");
        assert!(text.ends_with("checked 6 files: 6 passed, 0 failed, 0 unreadable; 0 warnings\n"), "{text}");
        let (_, again) = generated(scratch.path(), six, &args);
        let starts = |levels: &[(serde_json::Value, modsolve::Puzzle)]| -> Vec<serde_json::Value> {
            levels.iter().map(|(level, _)| level["start"].clone()).collect()
        };
        assert_eq!(starts(&levels), starts(&again));
    }
}

/// The 20×20 torus has 2^32 plans for every solvable start (32 independent quiet patterns), too
/// many to walk within the node budget: without a scramble no par is proven, so `--par` finds
/// nothing. A scramble of 4 presses bounds the search, which proves the par; here it is checked
/// independently that no plan of 3 presses or fewer solves the level (meet in the middle: every
/// pair of presses against the single presses).
#[test]
fn the_scramble_bounds_the_proof_of_the_par() {
    let scratch = Scratch::new();
    let torus = "Puzzle(graph: Grid(rows: 20, cols: 20, wrap: true), modulus: 2)";
    let (code, levels) =
        generated(scratch.path(), torus, &["--count", "3", "--par", "4..4", "--attempts", "16"]);
    assert_eq!((code, levels.len()), (Some(1), 0), "without a scramble");
    let (code, levels) =
        generated(scratch.path(), torus, &["--count", "3", "--par", "4..4", "--scramble", "4", "--force"]);
    assert_eq!((code, levels.len()), (Some(0), 3));
    for (level, puzzle) in &levels {
        assert_eq!(level["par"], 4);
        assert_eq!(level["count"], "4294967296");
        let n = puzzle.button_count();
        let mask = |cells: &[usize]| -> Vec<u64> {
            let mut words = vec![0u64; n.div_ceil(64)];
            for &i in cells {
                words[i / 64] ^= 1 << (i % 64);
            }
            words
        };
        let xor = |a: &[u64], b: &[u64]| -> Vec<u64> { a.iter().zip(b).map(|(x, y)| x ^ y).collect() };
        let presses: Vec<Vec<u64>> =
            (0..n).map(|j| mask(&puzzle.effects(j).iter().map(|&(i, _)| i).collect::<Vec<_>>())).collect();
        let lit: Vec<usize> = (0..n).filter(|&i| puzzle.start()[i] != puzzle.target()[i]).collect();
        let difference = mask(&lit);
        // Zero presses or one.
        let mut within_one: HashSet<Vec<u64>> = presses.iter().cloned().collect();
        within_one.insert(vec![0; n.div_ceil(64)]);
        for a in 0..n {
            for b in a..n {
                let rest = xor(&xor(&difference, &presses[a]), &presses[b]);
                assert!(!within_one.contains(&rest), "a plan of at most 3 presses: {level}");
            }
            assert!(!within_one.contains(&xor(&difference, &presses[a])));
        }
    }
}

/// Each level handed over counts its receiver's writing: a template of cheap candidates asked
/// for millions of levels stops at the work bound after a bounded number of levels (at most the
/// bound over the work a level counts), the same on every run.
#[test]
fn levels_handed_over_count_as_work() {
    use modsolve::generate::{Spec, generate};
    let template = modsolve::parse_puzzle("Puzzle(graph: Grid(rows: 5, cols: 5), modulus: 2)").unwrap();
    let spec = Spec::new(1_000_000).seed(5).work(Some(10_000_000));
    let run = || {
        let mut levels = 0;
        let batch = generate::<modsolve::InternalError>(&template, &spec, &|_| {}, |_| {
            levels += 1;
            Ok(())
        })
        .unwrap();
        assert_eq!(batch.found, levels);
        batch
    };
    let batch = run();
    assert!(batch.out_of_work, "{batch:?}");
    // 100,000 of work a level: at most 100 levels and the rest of the round (16 candidates)
    // that passed the bound, and more than half of that (candidates of 5×5 Lights Out cost
    // little besides).
    assert!((50..=116).contains(&batch.found), "{batch:?}");
    let again = run();
    assert_eq!((again.found, again.tried), (batch.found, batch.tried));
}
