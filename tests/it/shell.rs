//! The command line as a shell user meets it: completion scripts for every shell clap_complete
//! knows, manual pages, budgets in the usual duration forms, GitHub Actions annotations from
//! `check --format github` at the line of the field at fault, and standard input for every
//! command that reads a puzzle.

use std::process::Output;

use crate::util::{Scratch, modsolve, shipped_path};

fn run(args: &[&str]) -> Output {
    modsolve().args(args).output().expect("modsolve runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("output is UTF-8")
}

#[test]
fn completion_scripts_for_every_shell() {
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let output = run(&["completions", shell]);
        assert_eq!(output.status.code(), Some(0), "{shell}");
        let script = stdout(&output);
        for word in ["modsolve", "generate", "check", "--budget", "--par-histogram"] {
            assert!(script.contains(word), "{shell} completions lack {word}");
        }
    }
    let unknown = run(&["completions", "tcsh"]);
    assert_eq!(unknown.status.code(), Some(2));
}

/// bash itself loads the script, and the completion it registers offers the subcommands.
#[cfg(unix)]
#[test]
fn bash_loads_the_completions_and_completes_a_subcommand() {
    let scratch = Scratch::new();
    let script = scratch.path().join("modsolve.bash");
    std::fs::write(&script, run(&["completions", "bash"]).stdout).unwrap();
    let probe = format!(
        "source '{}' && complete -p modsolve && COMP_WORDS=(modsolve gen) COMP_CWORD=1 COMP_LINE='modsolve gen' \
         COMP_POINT=12 && _modsolve modsolve gen modsolve && printf '%s\\n' \"${{COMPREPLY[@]}}\"",
        script.display()
    );
    let output = std::process::Command::new("bash").arg("-c").arg(probe).output().unwrap();
    let printed = stdout(&output);
    assert!(output.status.success(), "{printed}{}", String::from_utf8_lossy(&output.stderr));
    assert!(printed.contains("-F _modsolve modsolve"), "{printed}");
    assert!(printed.lines().any(|line| line == "generate"), "{printed}");
}

#[test]
fn manual_pages_for_the_command_and_each_subcommand() {
    let page = stdout(&run(&["man"]));
    assert!(page.contains(".TH modsolve 1"), "{page}");
    for section in [".SH NAME", ".SH SYNOPSIS", ".SH OPTIONS", ".SH SUBCOMMANDS"] {
        assert!(page.contains(section), "modsolve.1 lacks {section}");
    }
    for sub in ["solve", "check", "generate", "new", "completions"] {
        assert!(page.contains(&format!("modsolve\\-{sub}(1)")), "modsolve.1 does not list {sub}");
        let output = run(&["man", sub]);
        assert_eq!(output.status.code(), Some(0));
        let page = stdout(&output);
        assert!(
            page.contains(&format!(".TH modsolve\\-{sub} 1"))
                || page.contains(&format!(".TH modsolve-{sub} 1")),
            "{page}"
        );
    }
    assert!(stdout(&run(&["man", "check"])).contains("\\-\\-par\\-histogram"));
    let unknown = run(&["man", "chek"]);
    assert_eq!(unknown.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("they are: solve, check"));
}

#[test]
fn budgets_as_durations() {
    let octopus = shipped_path("octopus.ron");
    let octopus = octopus.to_str().unwrap();
    for budget in ["1.5s", "1m30s", "250ms", "2s", "100000"] {
        let output = run(&[octopus, "--budget", budget, "--json"]);
        assert_eq!(output.status.code(), Some(0), "--budget {budget}");
        let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        assert_eq!(json["fewest"]["total_presses"], 18, "--budget {budget}");
    }
    let bad = run(&[octopus, "--budget", "1.5x"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("`1.5x` is not a budget"));
}

/// Each finding lands on the line of the field it is about; an unreadable file at its error's
/// line and column; warnings are errors under `--deny warnings`; the exit code is the check's.
#[test]
fn github_annotations_mark_the_line_at_fault() {
    let scratch = Scratch::new();
    let labels = scratch.path().join("untouched.ron");
    std::fs::write(
        &labels,
        "Puzzle(\n  graph: Cells(2),\n  modulus: 2,\n  buttons: [[(0, 1)]],\n  target: [1, 0],\n)\n",
    )
    .unwrap();
    let typo = scratch.path().join("typo.ron");
    std::fs::write(&typo, "Puzzle(\n  graph: Path(3),\n  modulus: 2,\n      strat: [1, 0, 0],\n)\n").unwrap();
    let (labels, typo) = (labels.to_str().unwrap(), typo.to_str().unwrap());
    let unsolvable = shipped_path("lightsout-4x4-unsolvable.ron");
    let unsolvable = unsolvable.to_str().unwrap();

    let output = run(&["check", "--format", "github", labels, unsolvable]);
    assert_eq!(output.status.code(), Some(1));
    let lines: Vec<String> = stdout(&output).lines().map(String::from).collect();
    assert_eq!(
        lines,
        [
            format!("::warning file={labels},line=4,col=3,title=untouched-cell::no button changes cell 1"),
            format!(
                "::error file={unsolvable},line=8,col=5,title=unsolvable::no plan turns the start into the target"
            ),
            "checked 2 files: 1 passed, 1 failed, 0 unreadable; 1 warning".to_string(),
        ]
    );

    let denied = run(&["check", "--format", "github", "--deny", "warnings", labels]);
    assert_eq!(denied.status.code(), Some(1));
    assert!(
        stdout(&denied).starts_with(&format!("::error file={labels},line=4,col=3,title=untouched-cell::"))
    );

    let broken = run(&["check", "--format", "github", typo]);
    assert_eq!(broken.status.code(), Some(2));
    assert!(
        stdout(&broken).starts_with(&format!(
            "::error file={typo},line=4,col=7,title=input::unknown field `strat` in Puzzle; did you mean `start`?\n"
        )),
        "{}",
        stdout(&broken)
    );

    let json = run(&["check", "--format", "json", labels]);
    let flag = run(&["check", "--json", labels]);
    assert_eq!(json.stdout, flag.stdout);
    let histogram = run(&["check", "--par-histogram", "--format", "github", labels]);
    assert_eq!(histogram.status.code(), Some(2));
}

/// `-` is standard input for solve, check and generate alike.
#[test]
fn every_command_reads_standard_input() {
    let source = std::fs::read_to_string(shipped_path("lightsout-3x3.ron")).unwrap();
    let solve = modsolve().args(["-", "--json"]).write_stdin(source.clone()).output().unwrap();
    assert_eq!(solve.status.code(), Some(0));
    let json: serde_json::Value = serde_json::from_slice(&solve.stdout).unwrap();
    assert_eq!(json["fewest"]["total_presses"], 5);
    let check = modsolve().args(["check", "-", "--json"]).write_stdin(source.clone()).output().unwrap();
    assert_eq!(check.status.code(), Some(0));
    let scratch = Scratch::new();
    let out = scratch.path().join("levels");
    let generate = modsolve()
        .args(["generate", "-", "--count", "2", "--out"])
        .arg(&out)
        .write_stdin(source)
        .output()
        .unwrap();
    assert_eq!(generate.status.code(), Some(0), "{}", String::from_utf8_lossy(&generate.stderr));
    assert_eq!(std::fs::read_dir(&out).unwrap().count(), 2);
}
