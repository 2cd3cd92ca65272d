//! One request layer: the same request through the command line (`--json`) and through the
//! playground's server (`modsolve serve`) gives the same document, for every shipped puzzle —
//! solve, check, hint (with the steps), generate (a fixed seed), the par distribution and the par
//! histogram of random starts — and each document is valid against its schema in `schema/`.
//!
//! The command prints JSON pretty for people and the server compactly: the command's document
//! is parsed and written compactly (keys keep their order), then compared byte for byte with
//! the server's body. What legitimately differs is handled here, visibly:
//! - a generated level's `file` is the path the command wrote (`levels/level-0001.ron`) and the
//!   name the server would write it under (`level-0001.ron`); the server's level also carries
//!   its RON text as `source`, which must be byte for byte the file the command wrote;
//! - the server's solve document is the `solve` member of `/api/analyse`'s answer.
//!
//! No document has a timing field. The par distribution is compared where it is exact: the
//! puzzles whose distribution is sampled within a time budget (`lightsout-5x5`, `octopus-game`,
//! `three-state-4x4`) give machine-dependent samples and are left out.

use std::path::Path;

use serde_json::{Value, json};

use crate::serve::{Server, validate};
use crate::util::{Scratch, modsolve, shipped_files};

/// The command's JSON output in `dir`, parsed (any exit code: a failed check is a document too).
fn cli(dir: &Path, args: &[&str]) -> Value {
    let output = modsolve().current_dir(dir).args(args).output().expect("modsolve runs");
    let text = String::from_utf8(output.stdout).expect("UTF-8");
    serde_json::from_str(&text).unwrap_or_else(|e| {
        panic!("modsolve {args:?}: not JSON ({e}): {text}\n{}", String::from_utf8_lossy(&output.stderr))
    })
}

/// The server's body for a request, as text, after asserting a 200.
fn server(server: &Server, path: &str, body: &Value) -> String {
    let (status, text) = server.post_text(path, body);
    assert_eq!(status, 200, "{path} {body}: {text}");
    text
}

/// Compares the command's document with the server's body, byte for byte once compacted.
fn same(what: &str, cli: &Value, server: &str) {
    let cli = serde_json::to_string(cli).unwrap();
    assert!(cli == server, "{what}: the command and the server differ\ncommand: {cli}\nserver:  {server}");
}

fn name_of(path: &Path) -> String {
    path.file_name().unwrap().to_str().unwrap().to_string()
}

#[test]
fn solve_check_and_hint_are_the_same_from_the_command_and_the_server() {
    let server_ = Server::start(&[]);
    let dir = Scratch::new();
    for path in shipped_files() {
        let name = name_of(&path);
        std::fs::copy(&path, dir.path().join(&name)).unwrap();
        let source = std::fs::read_to_string(&path).unwrap();

        let solved = cli(dir.path(), &[&name, "--json"]);
        validate("solve", &solved);
        let analysed: Value =
            serde_json::from_str(&server(&server_, "api/analyse", &json!({"source": source, "file": name})))
                .unwrap();
        same(&format!("solve {name}"), &solved, &serde_json::to_string(&analysed["solve"]).unwrap());

        let checked = cli(dir.path(), &["check", &name, "--json"]);
        validate("check", &checked);
        same(
            &format!("check {name}"),
            &checked,
            &server(&server_, "api/check", &json!({"source": source, "file": name})),
        );

        let hinted = cli(dir.path(), &["hint", &name, "--steps", "--json"]);
        validate("hint", &hinted);
        let body = json!({"source": source, "file": name, "pressed": [], "steps": true});
        same(&format!("hint {name}"), &hinted, &server(&server_, "api/hint", &body));
    }
}

#[test]
fn the_par_distribution_is_the_same_from_the_command_and_the_server() {
    let server_ = Server::start(&[]);
    let dir = Scratch::new();
    let sampled = ["lightsout-5x5.ron", "octopus-game.ron", "three-state-4x4.ron"];
    for path in shipped_files() {
        let name = name_of(&path);
        if sampled.contains(&name.as_str()) {
            continue;
        }
        std::fs::copy(&path, dir.path().join(&name)).unwrap();
        let source = std::fs::read_to_string(&path).unwrap();
        let counted = cli(dir.path(), &["check", "--par-distribution", &name, "--json"]);
        validate("check", &counted);
        assert_eq!(counted["method"], "exact", "{name}");
        let body = json!({"source": source, "file": name});
        same(&format!("par distribution {name}"), &counted, &server(&server_, "api/distribution", &body));
    }
}

#[test]
fn the_par_histogram_is_the_same_from_the_command_and_the_server() {
    let server_ = Server::start(&[]);
    let dir = Scratch::new();
    // Small boards, whose 40 samples finish well within either budget (a sample cut by the
    // clock would make the two differ by the machine's speed, not by their code).
    for name in ["lightsout-3x3.ron", "octopus.ron", "merlin.ron", "sunflowers.ron"] {
        let path = crate::util::shipped_path(name);
        std::fs::copy(&path, dir.path().join(name)).unwrap();
        let source = std::fs::read_to_string(&path).unwrap();
        let sampled =
            cli(dir.path(), &["check", "--par-histogram", name, "--samples", "40", "--seed", "2", "--json"]);
        validate("check", &sampled);
        assert_eq!(
            (sampled["taken"].as_u64(), sampled["complete"].as_bool()),
            (Some(40), Some(true)),
            "{name}"
        );
        let body = json!({"source": source, "file": name, "samples": 40, "seed": 2});
        same(&format!("par histogram {name}"), &sampled, &server(&server_, "api/histogram", &body));
    }
}

#[test]
fn generated_levels_are_the_same_from_the_command_and_the_server() {
    let server_ = Server::start(&[]);
    for (name, count, seed, extra) in [
        ("octopus.ron", 3, 7, None),
        ("lightsout-3x3.ron", 2, 3, Some(("strategy", "sweep"))),
        ("lightsout-5x5.ron", 2, 11, Some(("scramble", "4"))),
        ("merlin.ron", 2, 5, Some(("strategy", "any"))),
    ] {
        let dir = Scratch::new();
        let path = crate::util::shipped_path(name);
        std::fs::copy(&path, dir.path().join(name)).unwrap();
        let source = std::fs::read_to_string(&path).unwrap();
        let (count_, seed_) = (count.to_string(), seed.to_string());
        let mut args =
            vec!["generate", name, "--out", "levels", "--count", &count_, "--seed", &seed_, "--json"];
        let mut body = json!({"source": source, "file": name, "count": count, "seed": seed});
        if let Some((key, value)) = extra {
            let flag = format!("--{key}");
            args.extend([Box::leak(flag.into_boxed_str()) as &str, value]);
            body[key] = value.parse::<u64>().map(Value::from).unwrap_or_else(|_| Value::from(value));
        }
        let mut made = cli(dir.path(), &args);
        validate("generate", &made);
        let served: Value = serde_json::from_str(&server(&server_, "api/generate", &body)).unwrap();
        validate("generate", &served);
        assert_eq!(made["found"], count, "{name}: {made}");
        // What differs, by rule: the command's `file` is the path it wrote, the server's the
        // name under `--out`; the server's `source` is the file the command wrote.
        let mut served_ = served.clone();
        for (level, from_server) in
            made["levels"].as_array_mut().unwrap().iter_mut().zip(served_["levels"].as_array_mut().unwrap())
        {
            let written = level["file"].as_str().unwrap().to_string();
            assert_eq!(written, format!("levels/{}", from_server["file"].as_str().unwrap()));
            let text = std::fs::read_to_string(dir.path().join(&written)).unwrap();
            assert_eq!(from_server["source"].as_str(), Some(text.as_str()), "{name}: {written}");
            level["file"] = from_server["file"].clone();
            from_server.as_object_mut().unwrap().shift_remove("source");
        }
        same(&format!("generate {name}"), &made, &serde_json::to_string(&served_).unwrap());
    }
}
