//! The library's modules form layers: no import cycle among its top-level modules, nor among
//! the solvers in `solve/`. Read from the source (outside comments and test modules), so a new
//! `use` that closes a cycle fails here with the cycle and the files that make it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`.
fn sources(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(sources(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files.sort();
    files
}

/// The code of a file without its line comments and its test module.
fn code(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    let text = text.split("#[cfg(test)]\nmod tests").next().unwrap();
    text.lines().filter(|line| !line.trim_start().starts_with("//")).collect::<Vec<_>>().join("\n")
}

/// The names that follow `prefix` in `code`: `crate::solve::x` and `crate::{solve::x, model}`
/// with the prefix `crate::` give `solve` and `model`.
fn named_after(code: &str, prefix: &str) -> BTreeSet<String> {
    let word = |s: &str| s.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect::<String>();
    let mut names = BTreeSet::new();
    for (at, _) in code.match_indices(prefix) {
        let rest = &code[at + prefix.len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let group = &group[..group.find("};").unwrap_or(group.len())];
            // Top-level items of the group: those at brace depth 0.
            let mut depth = 0;
            let mut start = 0;
            for (i, c) in group.char_indices().chain([(group.len(), ',')]) {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        names.insert(word(group[start..i].trim()));
                        start = i + 1;
                    }
                    _ => {}
                }
            }
        } else {
            names.insert(word(rest));
        }
    }
    names
}

/// The module graph of the directory `dir`: each module (a file or a folder of it) to the
/// sibling modules its code names through one of `prefixes`, with the files that name them.
fn graph(dir: &Path, prefixes: &[&str]) -> BTreeMap<String, BTreeMap<String, BTreeSet<String>>> {
    let module = |path: &Path| -> String {
        let relative = path.strip_prefix(dir).unwrap();
        let first = relative.components().next().unwrap().as_os_str().to_string_lossy().into_owned();
        first.trim_end_matches(".rs").to_string()
    };
    let modules: BTreeSet<String> = sources(dir).iter().map(|p| module(p)).collect();
    let mut edges: BTreeMap<String, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
    for path in sources(dir) {
        let from = module(&path);
        if from == "lib" || from == "mod" {
            continue;
        }
        let code = code(&path);
        for prefix in prefixes {
            for to in named_after(&code, prefix) {
                if to != from && modules.contains(&to) && to != "mod" {
                    let file = path.strip_prefix(dir).unwrap().display().to_string();
                    edges.entry(from.clone()).or_default().entry(to).or_default().insert(file);
                }
            }
        }
    }
    edges
}

/// A cycle of the graph, if there is one, as the modules along it.
fn cycle(edges: &BTreeMap<String, BTreeMap<String, BTreeSet<String>>>) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        edges: &BTreeMap<String, BTreeMap<String, BTreeSet<String>>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|n| n == node) {
            let mut cycle = path[at..].to_vec();
            cycle.push(node.to_string());
            return Some(cycle);
        }
        if done.contains(node) {
            return None;
        }
        path.push(node.to_string());
        for next in edges.get(node).into_iter().flat_map(|e| e.keys()) {
            if let Some(cycle) = visit(next, edges, path, done) {
                return Some(cycle);
            }
        }
        path.pop();
        done.insert(node.to_string());
        None
    }
    let mut done = BTreeSet::new();
    edges.keys().find_map(|start| visit(start, edges, &mut Vec::new(), &mut done))
}

fn assert_acyclic(dir: &Path, prefixes: &[&str]) {
    let edges = graph(dir, prefixes);
    assert!(edges.len() > 3, "the graph of {} was read: {edges:?}", dir.display());
    if let Some(cycle) = cycle(&edges) {
        let steps: Vec<String> = cycle
            .windows(2)
            .map(|pair| format!("  {} -> {} (in {:?})", pair[0], pair[1], edges[&pair[0]][&pair[1]]))
            .collect();
        panic!("an import cycle in {}:\n{}", dir.display(), steps.join("\n"));
    }
}

#[test]
fn the_top_level_modules_have_no_import_cycle() {
    assert_acyclic(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"), &["crate::"]);
}

#[test]
fn the_solvers_have_no_import_cycle() {
    assert_acyclic(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src/solve"), &["crate::solve::", "super::"]);
}

/// The reader of the test itself: it finds an edge written either way and a cycle.
#[test]
fn the_reader_finds_edges_and_cycles() {
    let names = named_after(
        "use crate::{model::Puzzle, solve::{a, b}, error};\nlet x = crate::memory::show(1);",
        "crate::",
    );
    assert_eq!(names.into_iter().collect::<Vec<_>>(), ["error", "memory", "model", "solve"]);
    let mut edges: BTreeMap<String, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
    edges.entry("a".into()).or_default().insert("b".into(), BTreeSet::new());
    assert_eq!(cycle(&edges), None);
    edges.entry("b".into()).or_default().insert("a".into(), BTreeSet::new());
    assert_eq!(cycle(&edges), Some(vec!["a".to_string(), "b".to_string(), "a".to_string()]));
}

/// The library names no front-end's knobs: no string in its code (outside comments and tests)
/// holds a command-line flag such as `--budget`. The front-ends add their own advice
/// (`report::Knobs`).
#[test]
fn no_library_string_names_a_command_line_flag() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut found = Vec::new();
    for path in sources(&root) {
        if path.file_name().is_some_and(|n| n == "tests.rs") {
            continue;
        }
        for (i, line) in code(&path).lines().enumerate() {
            // The odd pieces between quotes are the string literals (good enough for this code,
            // which escapes no quote inside a flag).
            let flagged = line.split('"').skip(1).step_by(2).any(|literal| {
                literal
                    .match_indices("--")
                    .any(|(at, _)| literal[at + 2..].chars().next().is_some_and(|c| c.is_ascii_lowercase()))
            });
            if flagged {
                found.push(format!("{}:{}: {}", path.display(), i + 1, line.trim()));
            }
        }
    }
    assert!(found.is_empty(), "library strings that name a flag:\n{}", found.join("\n"));
}
