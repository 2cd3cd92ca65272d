//! What a run prints, decided before anything is printed: an [`Output`] (a text, a solve report
//! or a JSON value, and the exit code) or a [`Failure`] (a message for people, a JSON error
//! document with `--json`, and the exit code).

use std::io::Write;
use std::process::ExitCode;

use modsolve::SolveReport;
use modsolve::error::Position;
use modsolve::report::PICTURE_CELL_LIMIT;

pub(crate) use crate::kind::Kind;

/// What a run hands back to print.
pub(crate) struct Output {
    pub(crate) body: Body,
    pub(crate) code: u8,
}

/// The printed part of an [`Output`].
pub(crate) enum Body {
    Text(String),
    /// Serialised straight to standard output: millions of presses never become a string.
    Solve(Box<SolveReport>),
    Json(serde_json::Value),
}

impl Output {
    /// Writes the output and gives the exit code. A closed pipe (`modsolve big.ron --json |
    /// head`) is not an error; a full disk must not pass for a complete answer (exit 2). Past
    /// `deadline` (the timeout's bound) a long output stops where it is: exit 3, and standard
    /// error says it is incomplete (the first megabyte always goes out, so an answer of normal
    /// size, "undecided" included, is never cut).
    pub(crate) fn print(self, deadline: Option<std::time::Instant>) -> ExitCode {
        let lock = std::io::stdout().lock();
        // A big board's JSON (hundreds of megabytes on one line) goes straight to the standard
        // output's file descriptor, past the line buffering that scans every byte for newlines.
        let big = matches!(&self.body, Body::Solve(report) if report.buttons > PICTURE_CELL_LIMIT);
        let target: Box<dyn Write + '_> = match unbuffered_stdout().filter(|_| big) {
            Some(file) => Box::new(file),
            None => Box::new(lock),
        };
        let mut stdout =
            std::io::BufWriter::with_capacity(1 << 20, Until { inner: target, deadline, written: 0 });
        let written = match &self.body {
            Body::Text(text) => stdout.write_all(text.as_bytes()),
            // Pretty for people; one line when millions of presses would be megabytes of spaces.
            Body::Solve(report) if report.buttons <= PICTURE_CELL_LIMIT => {
                serde_json::to_writer_pretty(&mut stdout, report).map_err(std::io::Error::from)
            }
            Body::Solve(report) => modsolve::report::write_json(report, &mut stdout),
            Body::Json(value) => {
                serde_json::to_writer_pretty(&mut stdout, value).map_err(std::io::Error::from)
            }
        };
        let newline = |out: &mut dyn Write| match self.body {
            Body::Text(_) => Ok(()),
            _ => out.write_all(b"\n"),
        };
        match written.and_then(|_| newline(&mut stdout)).and_then(|_| stdout.flush()) {
            Ok(()) => ExitCode::from(self.code),
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::from(self.code),
            Err(e) if e.kind() == std::io::ErrorKind::TimedOut => {
                eprintln!(
                    "\nerror: the timeout came while the answer was being printed: the output is incomplete; a larger --timeout may finish it"
                );
                ExitCode::from(Kind::Budget.exit_code())
            }
            Err(e) => {
                eprintln!("error: cannot write the output: {e}");
                ExitCode::from(2)
            }
        }
    }
}

/// A writer that refuses, with `TimedOut`, every write past its deadline once its first
/// megabyte is out.
struct Until<W> {
    inner: W,
    deadline: Option<std::time::Instant>,
    written: usize,
}

impl<W: Write> Write for Until<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.written >= 1 << 20 && self.deadline.is_some_and(|d| std::time::Instant::now() >= d) {
            return Err(std::io::Error::new(std::io::ErrorKind::TimedOut, "the timeout came"));
        }
        let n = self.inner.write(buf)?;
        self.written += n;
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// A handle on the standard output's file descriptor (a duplicate), without the standard
/// library's line buffering; `None` where there is none to duplicate.
#[cfg(unix)]
fn unbuffered_stdout() -> Option<std::fs::File> {
    use std::os::fd::AsFd;
    std::io::stdout().as_fd().try_clone_to_owned().ok().map(std::fs::File::from)
}

/// Elsewhere the standard output is written through the standard library.
#[cfg(not(unix))]
fn unbuffered_stdout() -> Option<std::fs::File> {
    None
}

/// What went wrong, decided once.
pub(crate) struct Failure {
    kind: Kind,
    /// For people, complete: `error: …` and a final newline (with the source line and caret
    /// for input errors).
    message: String,
    file: Option<String>,
    position: Option<Position>,
    json: bool,
    /// Already told in a JSON document on standard output: never printed as JSON again.
    settled: bool,
}

impl Failure {
    /// A failure with no file or position.
    pub(crate) fn plain(kind: Kind, message: impl Into<String>, json: bool) -> Self {
        Failure { kind, message: message.into(), file: None, position: None, json, settled: false }
    }

    /// A usage error from clap (its help and version requests exit here, with code 0).
    pub(crate) fn usage(error: clap::Error, json: bool) -> Self {
        if !error.use_stderr() {
            error.exit();
        }
        Failure::plain(Kind::Usage, error.render().to_string(), json)
    }

    /// A file that cannot be read or is not a valid puzzle (exit 2); `input` is the parse error.
    pub(crate) fn unreadable(file: &str, message: String, input: Option<&modsolve::InputError>) -> Self {
        Failure {
            kind: if input.is_some() { Kind::Input } else { Kind::Io },
            message,
            file: Some(file.to_string()),
            position: input.and_then(|e| e.position),
            json: false,
            settled: false,
        }
    }

    /// The same failure, printed as JSON too.
    pub(crate) fn in_json(mut self, json: bool) -> Self {
        self.json = json && !self.settled;
        self
    }

    /// The same failure, already told as JSON: printed for people only.
    pub(crate) fn settled(mut self) -> Self {
        self.json = false;
        self.settled = true;
        self
    }

    /// The message for people.
    pub(crate) fn message(&self) -> &str {
        &self.message
    }

    /// The first line of the message, without its `error: `.
    pub(crate) fn headline(&self) -> &str {
        let first = self.message.lines().next().unwrap_or("");
        first.strip_prefix("error: ").unwrap_or(first)
    }

    /// What kind of failure it is.
    pub(crate) fn kind(&self) -> Kind {
        self.kind
    }

    /// The file it is about and where in it, when known.
    pub(crate) fn position(&self) -> Option<Position> {
        self.position
    }

    /// The JSON error document: `{"version", "error": {"kind", "message", "file", "line",
    /// "column"}}`; the message is the first line without its `error: `.
    pub(crate) fn to_json(&self) -> serde_json::Value {
        modsolve::report::error_json(self.kind.as_str(), self.headline(), self.file.as_deref(), self.position)
    }

    /// Prints the message on standard error (and the JSON document on standard output with
    /// `--json`) and gives the exit code.
    pub(crate) fn print(self) -> ExitCode {
        eprint!("{}", self.message);
        if self.json {
            let mut text = serde_json::to_string_pretty(&self.to_json()).expect("JSON values serialise");
            text.push('\n');
            let _ = std::io::stdout().lock().write_all(text.as_bytes());
        }
        ExitCode::from(self.kind.exit_code())
    }
}

impl From<modsolve::Error> for Failure {
    fn from(e: modsolve::Error) -> Self {
        use modsolve::{Error, InternalError};
        match e {
            Error::Input(e) => Failure::plain(Kind::Input, format!("error: {e}\n"), false),
            Error::OverMemory(e) => Failure::plain(Kind::Memory, super::memory_failure(e), false),
            Error::TimedOut => {
                Failure::plain(Kind::Budget, format!("error: {e}; a larger --timeout may finish it\n"), false)
            }
            Error::Internal(e @ InternalError::Unsupported(_)) => {
                Failure::plain(Kind::Unsupported, format!("error: {e}\n"), false)
            }
            e => Failure::plain(
                Kind::Internal,
                format!("error: {e}\nThis is a bug in modsolve; please report it with the puzzle file.\n"),
                false,
            ),
        }
    }
}

impl From<modsolve::InternalError> for Failure {
    fn from(e: modsolve::InternalError) -> Self {
        Failure::from(modsolve::Error::from(e))
    }
}
