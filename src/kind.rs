//! The kinds of failure, one list for both front-ends of the binary: the command line's
//! failures ([`crate::cli`]) and the playground server's error documents (`crate::serve`,
//! with the `serve` feature). A kind is the JSON error document's `kind`
//! (`schema/error.schema.json`, written by [`modsolve::report::error_json`]) and, on the
//! command line, the exit code, each decided here once.
//!
//! It lives in the binary, not in the library's `error.rs`: the library's errors are
//! [`modsolve::Error`] and its siblings; these kinds are how the front-ends word them (and
//! their own refusals: a command line that is wrong, a path outside the served directory, a
//! busy server), which the library never names.

/// What kind of failure it is: the JSON error's `kind` ([`Kind::as_str`]) and the exit code
/// ([`Kind::exit_code`]), decided together once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// The command line is wrong (flags, values, a file that would be overwritten), or the
    /// request is not what the endpoint takes.
    Usage,
    /// A file that is not a valid puzzle.
    Input,
    /// A file that cannot be read or written.
    Io,
    /// The work would take more memory than `--max-memory` allows.
    Memory,
    /// The timeout came before the answer (the kind keeps its name, `budget`).
    Budget,
    /// The method asked for cannot answer this puzzle.
    Unsupported,
    /// A bug in modsolve.
    Internal,
    /// Server only: a path outside the served directory, not a level file, or a request the
    /// guard refuses (403).
    #[cfg_attr(not(feature = "serve"), allow(dead_code))]
    Forbidden,
    /// Server only: no such file or endpoint (404).
    #[cfg_attr(not(feature = "serve"), allow(dead_code))]
    NotFound,
    /// Server only: a request body over the limit (413).
    #[cfg_attr(not(feature = "serve"), allow(dead_code))]
    TooLarge,
    /// Server only: a file that would be overwritten (409).
    #[cfg_attr(not(feature = "serve"), allow(dead_code))]
    Exists,
    /// Server only: no job slot, queue place or memory to take the request now (503, with
    /// `Retry-After`).
    #[cfg_attr(not(feature = "serve"), allow(dead_code))]
    Busy,
    /// Server only: a level no plan solves, refused by the export (400).
    #[cfg_attr(not(feature = "serve"), allow(dead_code))]
    Unsolvable,
}

impl Kind {
    /// The JSON error's `kind` (`schema/error.schema.json`).
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Kind::Usage => "usage",
            Kind::Input => "input",
            Kind::Io => "io",
            Kind::Memory => "memory",
            Kind::Budget => "budget",
            Kind::Unsupported => "unsupported",
            Kind::Internal => "internal",
            Kind::Forbidden => "forbidden",
            Kind::NotFound => "not-found",
            Kind::TooLarge => "too-large",
            Kind::Exists => "exists",
            Kind::Busy => "busy",
            Kind::Unsolvable => "unsolvable",
        }
    }

    /// The command line's exit code: 2 bad input, usage, a file or over the memory limit; 3
    /// undecided (the timeout came first); 1 an internal error, like a failed check (a check
    /// that meets a bug fails), never 0 and never mistaken for bad input. The server's own
    /// kinds never reach the command line; they map the same way (a refusal 2, busy 3 like the
    /// timeout, unsolvable 1 like no solution).
    pub(crate) fn exit_code(self) -> u8 {
        match self {
            Kind::Usage
            | Kind::Input
            | Kind::Io
            | Kind::Memory
            | Kind::Unsupported
            | Kind::Forbidden
            | Kind::NotFound
            | Kind::TooLarge
            | Kind::Exists => 2,
            Kind::Budget | Kind::Busy => 3,
            Kind::Internal | Kind::Unsolvable => 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Kind;

    /// Every kind the schema lists is one of these, spelled the same (the server's
    /// `unsolvable` is the one kind the schema does not list yet).
    #[test]
    fn kinds_are_the_schema_strings() {
        let schema: serde_json::Value =
            serde_json::from_str(include_str!("../schema/error.schema.json")).expect("the schema is JSON");
        let text = schema.to_string();
        let all = [
            Kind::Usage,
            Kind::Input,
            Kind::Io,
            Kind::Memory,
            Kind::Budget,
            Kind::Unsupported,
            Kind::Internal,
            Kind::Forbidden,
            Kind::NotFound,
            Kind::TooLarge,
            Kind::Exists,
            Kind::Busy,
            Kind::Unsolvable,
        ];
        for kind in all {
            assert!(text.contains(&format!("\"{}\"", kind.as_str())), "{kind:?} is not in the schema");
        }
    }
}
