//! Reading puzzle sources with bounds: `-` is standard input, a named pipe with a writer is read
//! and one without a writer is refused after a short wait (it never blocks a `check` batch),
//! `/dev/zero` and oversized files are refused at `--max-input` without being read whole, and
//! directories and invalid UTF-8 get a message that says what and where. Exit code 2 each time.

use std::io::Write;
use std::path::Path;
use std::time::Duration;

use assert_cmd::Command;

use crate::util::{Scratch, shipped_path};

/// The binary, killed after 30 s: a source that blocks must fail the test, not hang it.
fn modsolve() -> Command {
    let mut command = Command::cargo_bin("modsolve").unwrap();
    command.timeout(Duration::from_secs(30));
    command
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[cfg(unix)]
fn mkfifo(path: &Path) {
    rustix::fs::mkfifoat(rustix::fs::CWD, path, rustix::fs::Mode::from_raw_mode(0o600)).unwrap();
}

/// A thread that opens the pipe for writing (waiting for its reader) and writes `bytes`;
/// a reader that stops early makes the write fail, which is fine.
#[cfg(unix)]
fn writer(path: &Path, bytes: Vec<u8>) -> std::thread::JoinHandle<()> {
    let path = path.to_path_buf();
    std::thread::spawn(move || {
        if let Ok(mut pipe) = std::fs::OpenOptions::new().write(true).open(&path) {
            let _ = pipe.write_all(&bytes);
        }
    })
}

/// A thread that opens the pipe for writing (waiting for its reader) and writes `bytes` 64 KiB
/// at a time until the reader stops taking them: how many it got through.
#[cfg(unix)]
fn counting_writer(path: &Path, bytes: usize) -> std::thread::JoinHandle<usize> {
    let path = path.to_path_buf();
    std::thread::spawn(move || {
        let Ok(mut pipe) = std::fs::OpenOptions::new().write(true).open(&path) else { return 0 };
        let chunk = vec![b' '; 64 << 10];
        let mut written = 0;
        while written < bytes {
            match pipe.write(&chunk[..chunk.len().min(bytes - written)]) {
                Ok(n) if n > 0 => written += n,
                _ => break,
            }
        }
        written
    })
}

/// `modsolve -` solves standard input like the file; `check -` names it `<stdin>`; two `-` in
/// one batch are a usage error.
#[test]
fn dash_reads_standard_input() {
    let octopus = shipped_path("octopus.ron");
    let source = std::fs::read(&octopus).unwrap();
    let from_file = modsolve().arg(&octopus).output().unwrap();
    let from_stdin = modsolve().arg("-").write_stdin(source.clone()).output().unwrap();
    assert_eq!(from_stdin.status.code(), Some(0), "{}", text(&from_stdin.stderr));
    assert!(text(&from_stdin.stdout).contains("Solutions: 2352 plans"), "{}", text(&from_stdin.stdout));
    assert_eq!(text(&from_stdin.stdout), text(&from_file.stdout));

    let checked = modsolve()
        .args(["check", "-"])
        .arg(shipped_path("lightsout-3x3.ron"))
        .write_stdin(source.clone())
        .output()
        .unwrap();
    assert_eq!(checked.status.code(), Some(0), "{}", text(&checked.stdout));
    let report = text(&checked.stdout);
    assert!(report.starts_with("PASS <stdin> — Octopus: 4 cells"), "{report}");
    assert!(report.contains("checked 2 files: 2 passed, 0 failed, 0 unreadable"), "{report}");

    let twice = modsolve().args(["check", "-", "-"]).write_stdin(source).output().unwrap();
    assert_eq!(twice.status.code(), Some(2));
    assert!(twice.stdout.is_empty());
    assert_eq!(
        text(&twice.stderr),
        "error: `-` (standard input) is given more than once; it can be read only once\n"
    );
}

/// A named pipe with a writer is read to its end (the writer may come before or after the
/// reader), and a writer that sends more than `--max-input` is cut off and refused.
#[cfg(unix)]
#[test]
fn a_named_pipe_with_a_writer_is_read() {
    let dir_scratch = Scratch::new();
    let dir = dir_scratch.path().to_path_buf();
    let pipe = dir.join("puzzle.pipe");
    mkfifo(&pipe);
    let source = std::fs::read(shipped_path("octopus.ron")).unwrap();
    let feeding = writer(&pipe, source.clone());
    let output = modsolve().arg("--json").arg(&pipe).output().unwrap();
    feeding.join().unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(json["count"], "2352");

    // The reader first, the writer a moment later.
    let late = {
        let pipe = pipe.clone();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(300));
            writer(&pipe, source).join().unwrap();
        })
    };
    let output = modsolve().arg("--json").arg(&pipe).output().unwrap();
    late.join().unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));

    // 4 MiB of spaces with a 1 MiB limit: refused without reading it all. The bytes counted
    // through the pipe, not the clock: the limit and a byte, what the pipe holds (at most
    // 1 MiB) and the chunk in flight.
    let flood = counting_writer(&pipe, 4 << 20);
    let output = modsolve().args(["--max-input", "1MiB"]).arg(&pipe).output().unwrap();
    let written = flood.join().unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        text(&output.stderr),
        format!("error: {} is larger than the 1 MiB limit; raise --max-input\n", pipe.display())
    );
    assert!(written > 1 << 20 && written <= (2 << 20) + (128 << 10), "{written} bytes taken");
    std::fs::remove_dir_all(&dir).ok();
}

/// In a `check` batch a pipe nobody writes to, a directory and a file that is not UTF-8 are
/// each reported as unreadable, and the good files are still checked: the batch ends at the
/// end of the pipe's wait (which its message states) instead of blocking (the command's
/// 30 s hang guard would end it).
#[cfg(unix)]
#[test]
fn bad_sources_do_not_block_or_sink_a_batch() {
    let dir_scratch = Scratch::new();
    let dir = dir_scratch.path().to_path_buf();
    let pipe = dir.join("nobody.pipe");
    mkfifo(&pipe);
    let folder = dir.join("folder.ron");
    std::fs::create_dir(&folder).unwrap();
    let latin1 = dir.join("latin1.ron");
    std::fs::write(&latin1, b"// Caf\xe9\nPuzzle(graph: Path(3), modulus: 2)").unwrap();
    let (octopus, three) = (shipped_path("octopus.ron"), shipped_path("lightsout-3x3.ron"));
    let output = modsolve().arg("check").args([&octopus, &pipe, &folder, &latin1, &three]).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    let report = text(&output.stdout);
    assert!(report.contains(&format!("PASS {} — Octopus", octopus.display())), "{report}");
    assert!(report.contains(&format!("PASS {} — Lights Out 3x3", three.display())), "{report}");
    for line in [
        format!(
            "error: {} is a named pipe and nothing was written to it within 2 s (start its writer first)",
            pipe.display()
        ),
        format!("error: {} is a directory, not a puzzle file", folder.display()),
        format!(
            "error: {} is not valid UTF-8: byte 6 (line 1) is not part of a UTF-8 character",
            latin1.display()
        ),
    ] {
        assert!(report.lines().any(|l| l == line), "{line}\nin\n{report}");
    }
    // Their no-simple-strategy findings are notes, not warnings.
    assert!(report.ends_with("checked 5 files: 2 passed, 0 failed, 3 unreadable; 0 warnings\n"), "{report}");

    // The JSON names each unreadable file with its error.
    let output = modsolve().args(["check", "--json"]).args([&pipe, &folder]).output().unwrap();
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(json["files"][1]["file"], folder.display().to_string());
    assert_eq!(json["files"][1]["kind"], "io");
    assert_eq!(json["files"][1]["error"], format!("{} is a directory, not a puzzle file", folder.display()));
    std::fs::remove_dir_all(&dir).ok();
}

/// `/dev/zero` is refused as soon as it passes `--max-input`, by every command that reads a
/// puzzle, and the message names the limit. (It never ends: only the limit stops its reading,
/// so the answer at all is the stopping point, within the command's 30 s hang guard.)
#[test]
fn dev_zero_is_refused_at_the_limit() {
    let zero = Path::new("/dev/zero");
    if !zero.exists() {
        return;
    }
    let dir_scratch = Scratch::new();
    let dir = dir_scratch.path().to_path_buf();
    for command in [&["solve"][..], &["check"], &["check", "--par-histogram"], &["generate", "--out"]] {
        let mut args: Vec<&std::ffi::OsStr> = command.iter().map(|a| a.as_ref()).collect();
        if command[0] == "generate" {
            args.push(dir.as_os_str());
        }
        let output = modsolve().args(args).args(["--max-input", "1MiB", "/dev/zero"]).output().unwrap();
        assert_eq!(output.status.code(), Some(2), "{command:?}");
        let message = "error: /dev/zero is larger than the 1 MiB limit; raise --max-input";
        let shown = if command == ["check"] { text(&output.stdout) } else { text(&output.stderr) };
        assert!(shown.lines().any(|l| l == message), "{command:?}: {shown}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// A file over the default 1 GiB limit is refused from its size, before any of it is read (this
/// one is sparse: 1 GiB and one byte of nothing). The binary runs with 768 MiB of address space:
/// reading the file would need more, and abort (shown with a limit raised past the file).
#[test]
fn oversized_files_are_refused_by_default_before_reading() {
    let dir_scratch = Scratch::new();
    let dir = dir_scratch.path().to_path_buf();
    let big = dir.join("big.ron");
    std::fs::File::create(&big).unwrap().set_len((1 << 30) + 1).unwrap();
    let binary = assert_cmd::cargo::cargo_bin("modsolve");
    let in_768_mib = |args: &[&str]| {
        let script = "ulimit -v 786432 && exec \"$0\" \"$@\"";
        let mut command = Command::new("sh");
        command.args(["-c", script]).arg(&binary).args(args).arg(&big).timeout(Duration::from_secs(30));
        command.output().unwrap()
    };
    let output = in_768_mib(&[]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        text(&output.stderr),
        format!("error: {} is larger than the 1 GiB limit; raise --max-input\n", big.display())
    );
    let read = in_768_mib(&["--max-input", "2GiB"]);
    assert!(text(&read.stderr).contains("memory allocation"), "{}", text(&read.stderr));
    // A limit is exact: 37 bytes pass at 37 and are refused at 36.
    std::fs::write(&big, "Puzzle(graph: Path(3), modulus: 2)   ").unwrap();
    let output = modsolve().args(["--max-input", "37"]).arg(&big).output().unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let output = modsolve().args(["--max-input", "36"]).arg(&big).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("larger than the 36-byte limit"), "{}", text(&output.stderr));
    std::fs::remove_dir_all(&dir).ok();
}

/// A missing file says why; a bad `--max-input` is a usage error that says how to write one.
#[test]
fn missing_files_and_bad_sizes() {
    let output = modsolve().arg("/no/such/puzzle.ron").output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        text(&output.stderr),
        "error: cannot open /no/such/puzzle.ron: No such file or directory (os error 2)\n"
    );
    let output = modsolve().args(["--max-input", "lots", "x.ron"]).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("`lots` is not a size"), "{}", text(&output.stderr));
}
