//! Errors as a position plus a kind. Rendering (the file name, the source line, a caret) is the
//! binary's job: see [`crate::report::render_input_error`]. No message here names a
//! command-line flag: the library is used without one.

use thiserror::Error;

/// A 1-based line and column in a puzzle file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    /// The line, from 1.
    pub line: usize,
    /// The column (in characters), from 1.
    pub column: usize,
}

/// What is wrong with a puzzle file.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum InputErrorKind {
    /// The text is not a well-formed puzzle file (RON syntax, a missing or unknown field, a value
    /// of the wrong type).
    #[error("{message}")]
    Syntax {
        /// What is wrong, for people.
        message: String,
    },
    /// The file is well formed but a field's value is not allowed.
    #[error("`{field}`: {problem}")]
    Invalid {
        /// The field's path: `start[3]`, `graph.edges[2]`.
        field: String,
        /// What is wrong with its value.
        problem: String,
    },
}

/// An error in a puzzle file, with the place it was found when known.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{kind}")]
pub struct InputError {
    /// Where the error is, when known.
    pub position: Option<Position>,
    /// What is wrong.
    pub kind: InputErrorKind,
}

impl InputError {
    /// A field whose value is not allowed (no position yet).
    pub fn invalid(field: impl Into<String>, problem: impl Into<String>) -> Self {
        InputError {
            position: None,
            kind: InputErrorKind::Invalid { field: field.into(), problem: problem.into() },
        }
    }

    /// The field an `Invalid` error names.
    pub fn field(&self) -> Option<&str> {
        match &self.kind {
            InputErrorKind::Invalid { field, .. } => Some(field),
            InputErrorKind::Syntax { .. } => None,
        }
    }
}

/// A failure of the solver itself: never the user's fault, always a bug to report.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum InternalError {
    #[error("internal error: the computed plan does not reach the target when simulated ({0})")]
    /// A plan failed its simulation: a bug.
    VerificationFailed(String),
    /// The request cannot be answered by the chosen method.
    #[error("{0}")]
    Unsupported(String),
    /// The work stopped without an answer (it panicked).
    #[error("internal error: the solver stopped without an answer")]
    Stopped,
}

#[doc(inline)]
pub use crate::memory::{Estimate, OverMemory};

/// Why the library could not answer: the one error type of its entry points.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum Error {
    /// The puzzle file is not a valid puzzle.
    #[error(transparent)]
    Input(#[from] InputError),
    /// The work would need more memory than allowed; nothing was allocated for it.
    #[error(transparent)]
    OverMemory(#[from] OverMemory),
    /// The timeout came before the work finished (when the work has no undecided answer to
    /// give, as a check does). The budget never ends work this way.
    #[error("the timeout came before the work finished")]
    TimedOut,
    /// A request the chosen method cannot answer, or a bug (a plan failed its simulation).
    #[error(transparent)]
    Internal(#[from] InternalError),
}

/// A value from the file as a message shows it: whole when short, else its first and last
/// characters and its length (`1234567890…7890 (100000 digits)`), so that a message never
/// echoes a huge value back.
pub(crate) fn shorten(text: &str) -> String {
    const KEEP: usize = 16;
    let count = text.chars().count();
    if count <= 3 * KEEP {
        return text.to_string();
    }
    let head: String = text.chars().take(KEEP).collect();
    let tail: String = text.chars().skip(count - KEEP).collect();
    let unit = if text.bytes().all(|b| b.is_ascii_digit()) { "digits" } else { "characters" };
    format!("{head}…{tail} ({count} {unit})")
}
