//! The documentation's examples are the outputs printed: every command shown in README.md,
//! FORMAT.md and the guide (`docs/src/**/*.md`) is run and its standard output compared with
//! the lines shown under it.
//!
//! The convention (also written for readers in `docs/src/tested-examples.md`):
//!
//! - A fenced block whose info string is `console` holds commands and their output. A line
//!   `$ modsolve ARGS` is a command, run from the repository root with the binary under test;
//!   the lines after it, up to the next `$ ` line or the end of the block, are its exact
//!   standard output (trailing spaces and trailing empty lines aside).
//! - A line that is exactly `...` stands for any number of output lines (none included): for
//!   a long output shown in part, or a line that varies. Use it sparingly.
//! - `console,ignore` blocks are not run (a server, a command that writes into your folders).
//! - Arguments are split as a shell would for plain words and '…' or "…" quoting; there are no
//!   pipes or redirections. An argument with `*` is expanded against its folder, as a shell
//!   glob would be.
//! - Commands must not write into the repository: a path that starts with `/tmp/modsolve-book/`
//!   is put into a fresh scratch folder (one per block, so a later command of the block sees
//!   what an earlier one wrote), and the scratch folder's path is written back as
//!   `/tmp/modsolve-book/` in the output. `--out` and `--svg` must point there.
//! - A command that ends with ` 2>&1` shows its standard output followed by its standard error
//!   (for error messages, which go to standard error).
//! - The command may exit with any of modsolve's documented codes (0 to 3), not by a signal.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::util::{Scratch, modsolve};

/// The placeholder for a block's scratch folder.
const SCRATCH: &str = "/tmp/modsolve-book/";

/// One command of a `console` block, with the output shown for it.
#[derive(Debug)]
struct Example {
    /// Where the command is written, `FILE:LINE`.
    place: String,
    /// The 1-based line of the command in its file.
    line: usize,
    /// The words after `$ modsolve`.
    args: Vec<String>,
    /// The lines shown as its output.
    expected: Vec<String>,
    /// Which block of its file it belongs to (commands of one block share a scratch folder).
    block: usize,
    /// Whether the output shown is standard output then standard error (`2>&1` at the end).
    with_stderr: bool,
}

/// The repository's root (the folder with README.md).
fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// README.md, FORMAT.md and every Markdown file under docs/src, sorted.
fn documents() -> Vec<PathBuf> {
    fn walk(dir: &Path, into: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
            let path = entry.expect("a folder entry").path();
            if path.is_dir() {
                walk(&path, into);
            } else if path.extension().is_some_and(|e| e == "md") {
                into.push(path);
            }
        }
    }
    let root = root();
    let mut files = vec![root.join("README.md"), root.join("FORMAT.md")];
    let mut book = Vec::new();
    walk(&root.join("docs").join("src"), &mut book);
    book.sort();
    files.extend(book);
    files
}

/// Splits a command line into words: plain words, '…' and "…" (no escapes inside '…'; `\"`
/// and `\\` inside "…").
fn split_words(line: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => return Err("an unclosed '".into()),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c) => word.push(c),
                            None => return Err("a \\ at the end".into()),
                        },
                        Some(c) => word.push(c),
                        None => return Err("an unclosed \"".into()),
                    }
                }
            }
            '|' | '>' | '<' | ';' | '&' | '`' | '$' => {
                return Err(format!("`{c}`: no pipes, redirections or shell syntax in a tested command"));
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

/// The `console` examples of one Markdown text (`name` is the file's name for messages).
fn examples(name: &str, text: &str) -> Result<Vec<Example>, String> {
    let mut found = Vec::new();
    let mut fence: Option<(String, bool)> = None; // (the fence, whether the block is tested)
    let mut block = 0;
    for (index, line) in text.lines().enumerate() {
        let number = index + 1;
        let trimmed = line.trim_start();
        if let Some((ref marker, tested)) = fence {
            if trimmed.starts_with(marker.as_str()) && trimmed.trim_start_matches('`').trim().is_empty() {
                fence = None;
                continue;
            }
            if !tested {
                continue;
            }
            if let Some(command) = line.strip_prefix("$ ") {
                let command = command.trim_end();
                let (command, with_stderr) = match command.strip_suffix(" 2>&1") {
                    Some(command) => (command, true),
                    None => (command, false),
                };
                let words = split_words(command).map_err(|e| format!("{name}:{number}: {e}"))?;
                if words.first().map(String::as_str) != Some("modsolve") {
                    return Err(format!(
                        "{name}:{number}: a tested command runs `modsolve`; mark the block `console,ignore` for others"
                    ));
                }
                found.push(Example {
                    place: format!("{name}:{number}"),
                    line: number,
                    args: words[1..].to_vec(),
                    expected: Vec::new(),
                    block,
                    with_stderr,
                });
            } else {
                match found.last_mut() {
                    Some(example) if example.block == block => {
                        example.expected.push(line.trim_end().to_string())
                    }
                    _ => return Err(format!("{name}:{number}: output before any `$ modsolve` line")),
                }
            }
        } else if trimmed.starts_with("```") {
            let marker: String = trimmed.chars().take_while(|&c| c == '`').collect();
            let info = trimmed[marker.len()..].trim();
            let tags: Vec<&str> = info.split(',').map(str::trim).collect();
            let tested = tags.first() == Some(&"console") && !tags.contains(&"ignore");
            block += 1;
            fence = Some((marker, tested));
        }
    }
    if fence.is_some() {
        return Err(format!("{name}: a code block is not closed"));
    }
    for example in &mut found {
        while example.expected.last().is_some_and(String::is_empty) {
            example.expected.pop();
        }
    }
    Ok(found)
}

/// Whether `actual` matches the lines shown, where a line `...` stands for any number of lines.
fn matches(expected: &[String], actual: &[&str]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((first, rest)) if first == "..." => {
            (0..=actual.len()).any(|skip| matches(rest, &actual[skip..]))
        }
        Some((first, rest)) => {
            actual.first().is_some_and(|line| line == first) && matches(rest, &actual[1..])
        }
    }
}

/// The first line where `actual` departs from `expected` (0-based, in `expected`), for the
/// message: the line of the longest prefix matched without an elision.
fn first_difference(expected: &[String], actual: &[&str]) -> usize {
    expected.iter().zip(actual).take_while(|(e, a)| *e == "..." || e == *a).count()
}

/// `pattern` with one `*` in its last component, expanded against its folder (sorted).
fn glob(pattern: &str, cwd: &Path) -> Vec<String> {
    let (folder, file) = pattern.rsplit_once('/').unwrap_or(("", pattern));
    let (prefix, suffix) = file.split_once('*').expect("a pattern has a *");
    let dir = if folder.is_empty() { cwd.to_path_buf() } else { cwd.join(folder) };
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .map(|entries| {
            entries
                .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
                .filter(|name| {
                    name.len() >= prefix.len() + suffix.len()
                        && name.starts_with(prefix)
                        && name.ends_with(suffix)
                })
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    if names.is_empty() {
        return vec![pattern.to_string()]; // as a shell leaves an unmatched pattern
    }
    names.into_iter().map(|name| if folder.is_empty() { name } else { format!("{folder}/{name}") }).collect()
}

/// Runs one example; `Err` with the message when its output is not the one shown.
fn run(example: &Example, scratch: &Path) -> Result<(), String> {
    let scratch = format!("{}/", scratch.display());
    let mut args = Vec::new();
    for (i, arg) in example.args.iter().enumerate() {
        if matches!(arg.as_str(), "--out" | "--svg") {
            let value = example.args.get(i + 1).map(String::as_str).unwrap_or("");
            if !value.starts_with(SCRATCH) {
                return Err(format!("{}: `{arg}` writes outside {SCRATCH}", example.place));
            }
        }
        let arg = arg.replace(SCRATCH, &scratch);
        if arg.contains('*') {
            args.extend(glob(&arg, &root()));
        } else {
            args.push(arg);
        }
    }
    let output = modsolve()
        .current_dir(root())
        .args(&args)
        .env("NO_COLOR", "1")
        .env_remove("RUST_LOG")
        .timeout(Duration::from_secs(60))
        .output()
        .map_err(|e| format!("{}: could not run modsolve: {e}", example.place))?;
    let code = output.status.code();
    if !matches!(code, Some(0..=3)) {
        return Err(format!(
            "{}: `modsolve {}` ended with {:?}\nstderr:\n{}",
            example.place,
            example.args.join(" "),
            output.status,
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    let mut stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    if example.with_stderr {
        stdout.push_str(&String::from_utf8_lossy(&output.stderr));
    }
    let stdout = stdout.replace(&scratch, SCRATCH);
    let mut actual: Vec<&str> = stdout.lines().map(str::trim_end).collect();
    while actual.last().is_some_and(|line| line.is_empty()) {
        actual.pop();
    }
    if matches(&example.expected, &actual) {
        return Ok(());
    }
    let at = first_difference(&example.expected, &actual);
    let (file, _) = example.place.rsplit_once(':').expect("FILE:LINE");
    Err(format!(
        "{file}:{}: the output of `modsolve {}` (exit {:?}) is not the one shown\n  shown:   {:?}\n  printed: {:?}\n--- printed in full ---\n{}\n--- stderr ---\n{}",
        example.line + 1 + at,
        example.args.join(" "),
        code,
        example.expected.get(at).map(String::as_str).unwrap_or("(nothing)"),
        actual.get(at).copied().unwrap_or("(nothing)"),
        actual.join("\n"),
        String::from_utf8_lossy(&output.stderr)
    ))
}

/// Every `console` example of the README, FORMAT.md and the guide prints what it shows.
#[test]
fn book_examples_print_what_they_show() {
    let root = root();
    let mut failures = Vec::new();
    let mut ran = 0;
    for path in documents() {
        let name = path.strip_prefix(&root).unwrap_or(&path).display().to_string();
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
        let examples = match examples(&name, &text) {
            Ok(examples) => examples,
            Err(e) => {
                failures.push(e);
                continue;
            }
        };
        let mut scratch: Option<(usize, Scratch)> = None;
        for example in &examples {
            if scratch.as_ref().is_none_or(|(block, _)| *block != example.block) {
                scratch = Some((example.block, Scratch::new()));
            }
            let (_, dir) = scratch.as_ref().expect("a scratch folder");
            ran += 1;
            if let Err(e) = run(example, dir.path()) {
                failures.push(e);
            }
        }
    }
    assert!(failures.is_empty(), "{} of {ran} examples differ:\n\n{}", failures.len(), failures.join("\n\n"));
    assert!(ran >= 20, "only {ran} examples were found: is the `console` convention still used?");
}

/// The scanner itself: commands, their output, elisions, ignored blocks and errors.
#[test]
fn book_scanner_reads_the_convention() {
    let text = "text\n```console\n$ modsolve a.ron --pressed \"t 1,t 2\"\nline 1\n...\nlast\n\n$ modsolve b.ron 2>&1\nx\n```\n\n```console,ignore\n$ modsolve serve\n```\n";
    let found = examples("doc.md", text).expect("valid");
    assert_eq!(found.len(), 2);
    assert_eq!(found[0].args, ["a.ron", "--pressed", "t 1,t 2"]);
    assert_eq!(found[0].expected, ["line 1", "...", "last"]);
    assert_eq!(found[0].place, "doc.md:3");
    assert_eq!(found[1].expected, ["x"]);
    assert!(!found[0].with_stderr && found[1].with_stderr);
    assert!(matches(&found[0].expected, &["line 1", "a", "b", "last"]));
    assert!(matches(&found[0].expected, &["line 1", "last"]));
    assert!(!matches(&found[0].expected, &["line 1", "a", "lost"]));
    assert!(!matches(&found[1].expected, &["x", "y"]));
    assert!(examples("doc.md", "```console\n$ cat a.ron\n```\n").is_err());
    assert!(examples("doc.md", "```console\n$ modsolve a.ron > b\n```\n").is_err());
    assert!(examples("doc.md", "```console\n$ modsolve a.ron\n").is_err());
    assert_eq!(glob("puzzles/octopus*.ron", &root()), ["puzzles/octopus-game.ron", "puzzles/octopus.ron"]);
}

/// The README's table of shipped puzzles names every file in `puzzles/`, and its list of small
/// files every `.ron` file in `examples/`.
#[test]
fn book_readme_lists_every_shipped_puzzle() {
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README.md");
    for folder in ["puzzles", "examples"] {
        let mut names: Vec<String> = std::fs::read_dir(root().join(folder))
            .expect("a folder of puzzles")
            .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
            .filter(|name| name.ends_with(".ron"))
            .collect();
        names.sort();
        assert!(!names.is_empty(), "{folder}/ has puzzle files");
        for name in names {
            assert!(readme.contains(&format!("`{name}`")), "README.md does not list {folder}/{name}");
        }
    }
}
