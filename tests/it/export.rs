//! `modsolve export`: every shipped puzzle as one self-contained page under 200 KB, whose
//! embedded document round-trips (its plans solve the puzzle by simulation, its quiet patterns
//! change nothing and number as many as the analysis counts); bad input exits 2 with the
//! position; a pack orders its levels by par and leaves out what cannot be played; the
//! playground's `POST /api/export` gives the command's page.

use modsolve::{Options, Puzzle, analyse};
use num_bigint::BigUint;
use serde_json::{Value, json};

use crate::util::{Scratch, load, modsolve, shipped_files, shipped_path};

/// The JSON document embedded in an exported page.
fn embedded(page: &str) -> Value {
    let open = r#"<script type="application/json" id="modsolve-data">"#;
    let start = page.find(open).expect("the page embeds its document") + open.len();
    let end = start + page[start..].find("</script>").expect("the data element is closed");
    serde_json::from_str(&page[start..end]).expect("the embedded document is JSON")
}

fn numbers(value: &Value) -> Vec<BigUint> {
    value.as_array().unwrap().iter().map(|x| x.as_str().unwrap().parse().unwrap()).collect()
}

/// Checks one level of a document against its puzzle: the fewest plan and every ending's plan
/// play to the target, the quiet patterns change nothing and generate as many plans as the
/// analysis counts, the par is the plan's total and the board is the puzzle's.
fn round_trip(level: &Value, puzzle: &Puzzle) {
    let report = analyse(puzzle, &Options::default()).unwrap();
    let fewest = numbers(&level["fewest"]["presses"]);
    let cut = |value: &Value| {
        value
            .as_object()
            .map(|c| (c["button"].as_u64().unwrap() as usize, c["phases"].as_u64().unwrap() as usize))
    };
    assert!(puzzle.plays_to_target(&fewest, cut(&level["fewest"]["cut"])), "{level}");
    assert_eq!(fewest.iter().sum::<BigUint>().to_string(), level["par"].as_str().unwrap());
    assert_eq!(level["par"].as_str().unwrap(), report.fewest.as_ref().unwrap().total().to_string());
    assert_eq!(numbers(&level["periods"]), puzzle.periods());
    assert!(!level["cases"].as_array().unwrap().is_empty());
    for case in level["cases"].as_array().unwrap() {
        let mut presses = numbers(&case["presses"]);
        let cut = cut(&case["cut"]);
        if let Some((button, _)) = cut {
            presses[button] += 1u32;
        }
        assert!(puzzle.plays_to_target(&presses, cut), "{case}");
    }
    let zero = vec![0u64; puzzle.cell_count()];
    let mut combinations = BigUint::from(1u32);
    for generator in level["quiet_basis"].as_array().unwrap() {
        let presses = numbers(&generator["presses"]);
        assert_eq!(puzzle.apply(&zero, &presses), zero, "a quiet pattern changes nothing");
        assert!(presses.iter().any(|x| *x != BigUint::from(0u32)));
        combinations *= generator["order"].as_str().unwrap().parse::<BigUint>().unwrap();
    }
    assert_eq!(level["basis_complete"], json!(true));
    assert_eq!(combinations, report.quiet_patterns.unwrap() + 1u32);
    let board = &level["board"];
    // One number when every cell has it, else one per cell.
    let cells = |values: &modsolve::values::CellValues| match values.uniform() {
        Some(value) => json!(value),
        None => json!(values.to_vec()),
    };
    assert_eq!(board["moduli"], cells(puzzle.moduli()));
    assert_eq!(board["start"], cells(puzzle.start()));
    assert_eq!(board["target"], cells(puzzle.target()));
    // Each press's effects, phase by phase, add up to the puzzle's.
    for (j, phases) in level["effects"].as_array().unwrap().iter().enumerate() {
        let mut state = zero.clone();
        for phase in phases.as_array().unwrap() {
            for pair in phase.as_array().unwrap() {
                let (cell, amount) = (pair[0].as_u64().unwrap() as usize, pair[1].as_u64().unwrap());
                state[cell] = (state[cell] + amount) % puzzle.moduli()[cell];
            }
        }
        let mut one = vec![BigUint::from(0u32); puzzle.button_count()];
        one[j] = 1u32.into();
        assert_eq!(state, puzzle.apply(&zero, &one), "button {j}");
    }
}

#[test]
fn export_every_shipped_puzzle_as_a_page_under_200_kb() {
    for path in shipped_files() {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let output = modsolve().arg("export").arg(&path).arg("--html").output().unwrap();
        if name == "lightsout-4x4-unsolvable.ron" {
            assert_eq!(output.status.code(), Some(2));
            let stderr = String::from_utf8_lossy(&output.stderr);
            assert!(stderr.contains(&name) && stderr.contains("no plan solves it"), "{stderr}");
            assert!(output.stdout.is_empty());
            continue;
        }
        assert_eq!(output.status.code(), Some(0), "{name}: {}", String::from_utf8_lossy(&output.stderr));
        let page = String::from_utf8(output.stdout).unwrap();
        assert!(page.len() < 200_000, "{name}: {} bytes", page.len());
        assert!(page.starts_with("<!doctype html>"));
        // Nothing is fetched: no external script, style, font or image.
        for needle in ["src=", "href=", "@import", "url(", "http://", "https://"] {
            assert!(!page.contains(needle), "{name}: {needle}");
        }
        let document = embedded(&page);
        crate::library::validate("export", &document);
        assert_eq!(document["pack"], Value::Null);
        let level = &document["levels"][0];
        assert_eq!(level["file"], json!(name));
        round_trip(level, &load(&std::fs::read_to_string(&path).unwrap()));
        // --json prints the very document the page embeds.
        let printed = modsolve().arg("export").arg(&path).arg("--json").output().unwrap();
        assert_eq!(serde_json::from_slice::<Value>(&printed.stdout).unwrap(), document);
    }
}

#[test]
fn export_octopus_embeds_par_18_and_its_2352_plans() {
    let output = modsolve().arg("export").arg(shipped_path("octopus.ron")).arg("--json").output().unwrap();
    let document: Value = serde_json::from_slice(&output.stdout).unwrap();
    let level = &document["levels"][0];
    assert_eq!((level["par"].as_str(), level["par_proven"].as_bool()), (Some("18"), Some(true)));
    assert_eq!(level["fewest"]["presses"], json!(["1", "3", "13", "1"]));
    assert_eq!(level["periods"], json!(["56", "28", "168", "21"]));
    let orders: u64 = level["quiet_basis"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["order"].as_str().unwrap().parse::<u64>().unwrap())
        .product();
    assert_eq!(orders, 2352);
}

#[test]
fn export_bad_input_exits_2_with_the_position() {
    let dir = Scratch::new();
    let broken =
        dir.file("broken.ron", "Puzzle(\n    graph: Path(3),\n    modulus: 2,\n    start: [1, 2, 0],\n)\n");
    let output = modsolve().arg("export").arg(&broken).arg("--html").output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("broken.ron:4:16"), "{stderr}");
    assert!(output.stdout.is_empty());
    let json = modsolve().arg("export").arg(&broken).arg("--json").output().unwrap();
    let error: Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!((error["error"]["line"].as_u64(), error["error"]["column"].as_u64()), (Some(4), Some(16)));
    // A pack with a broken file is refused, naming it, and writes nothing.
    std::fs::copy(shipped_path("octopus.ron"), dir.path().join("octopus.ron")).unwrap();
    let page = dir.path().join("pack.html");
    let output =
        modsolve().arg("export").arg(dir.path()).arg("--html").arg("-o").arg(&page).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("broken.ron:4:16"));
    assert!(!page.exists());
    // A format must be chosen; a missing file is an error too.
    modsolve().arg("export").arg(shipped_path("octopus.ron")).assert().code(2);
    modsolve().arg("export").arg(dir.path().join("none.ron")).arg("--html").assert().code(2);
}

#[test]
fn export_a_pack_orders_by_par_and_leaves_out_the_unsolvable() {
    let dir = Scratch::new();
    let file = dir.path().join("pack.html");
    let output =
        modsolve().arg("export").arg(shipped_path("")).arg("--html").arg("-o").arg(&file).output().unwrap();
    assert_eq!(output.status.code(), Some(0));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("warning:")
            && stderr.contains("lightsout-4x4-unsolvable.ron")
            && stderr.contains("left out"),
        "{stderr}"
    );
    assert!(output.stdout.is_empty());
    let page = std::fs::read_to_string(&file).unwrap();
    assert!(page.len() < 200_000, "{} bytes", page.len());
    let document = embedded(&page);
    crate::library::validate("export", &document);
    assert_eq!(document["pack"], json!("puzzles"));
    let levels = document["levels"].as_array().unwrap();
    assert_eq!(levels.len(), shipped_files().len() - 1);
    let pars: Vec<u64> = levels.iter().map(|l| l["par"].as_str().unwrap().parse().unwrap()).collect();
    assert!(pars.is_sorted(), "{pars:?}");
    assert_eq!((pars[0], pars[pars.len() - 1]), (3, 18));
    // Equal pars: the board whose starts are easier on average first.
    for pair in levels.windows(2) {
        if pair[0]["par"] == pair[1]["par"]
            && let (Some(a), Some(b)) = (pair[0]["mean_par"].as_f64(), pair[1]["mean_par"].as_f64())
        {
            assert!(a <= b, "{} before {}", pair[0]["file"], pair[1]["file"]);
        }
    }
    for level in levels {
        round_trip(level, &crate::util::shipped(level["file"].as_str().unwrap()));
    }
}

#[test]
fn export_from_the_playground_is_the_commands_page() {
    let server = crate::serve::Server::start(&[]);
    let source = std::fs::read_to_string(shipped_path("sunflowers.ron")).unwrap();
    let (status, page) = server.post_text("api/export", &json!({"source": source, "file": "sunflowers.ron"}));
    assert_eq!(status, 200, "{page}");
    let command =
        modsolve().arg("export").arg(shipped_path("sunflowers.ron")).arg("--html").output().unwrap();
    assert_eq!(embedded(&page), embedded(&String::from_utf8(command.stdout).unwrap()));
    let unsolvable = std::fs::read_to_string(shipped_path("lightsout-4x4-unsolvable.ron")).unwrap();
    let (status, answer) = server.post_text("api/export", &json!({"source": unsolvable, "file": "x.ron"}));
    let answer: Value = serde_json::from_str(&answer).unwrap();
    assert_eq!((status, answer["error"]["kind"].as_str()), (400, Some("unsolvable")));
    let (status, answer) = server.post_text("api/export", &json!({"source": "Puzzle(", "file": "bad.ron"}));
    let answer: Value = serde_json::from_str(&answer).unwrap();
    assert_eq!((status, answer["error"]["kind"].as_str()), (400, Some("input")));
    assert_eq!(answer["error"]["line"], json!(1));
}
