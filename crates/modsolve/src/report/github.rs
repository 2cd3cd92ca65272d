//! `check --format github`: findings as GitHub Actions workflow commands
//! (`::error file=levels/a.ron,line=7,col=5,title=unsolvable::…`), so that a level repository's
//! CI marks the line of the field a finding is about.
//!
//! A finding names no place in the file, so each code points at the field it is about
//! ([`fields_of`]): `unsolvable` at `start`, `intended-fails` at `intended`,
//! `untouched-cell` at `graph`, …; the first of those fields the file writes gives the line, else line 1.

use std::fmt::Write as _;

use crate::check::{CheckReport, FindingCode, Severity};
use crate::error::Position;

/// How GitHub shows an annotation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// Marks the check red.
    Error,
    /// Shown, but the check stays green.
    Warning,
    /// Shown as information.
    Notice,
}

impl Level {
    fn command(self) -> &'static str {
        match self {
            Level::Error => "error",
            Level::Warning => "warning",
            Level::Notice => "notice",
        }
    }
}

/// One workflow command line: `::error file=F,line=L,col=C,title=T::message` (line and column
/// when known), with GitHub's escapes (`%`, CR and LF everywhere; `:` and `,` in properties).
pub fn annotation(level: Level, file: &str, at: Option<Position>, title: &str, message: &str) -> String {
    let mut properties = format!("file={}", escape_property(file));
    if let Some(at) = at {
        let _ = write!(properties, ",line={},col={}", at.line, at.column);
    }
    let _ = write!(properties, ",title={}", escape_property(title));
    format!("::{} {properties}::{}\n", level.command(), escape_data(message))
}

/// The fields of a puzzle file a finding of this code is about, most specific first.
pub fn fields_of(code: FindingCode) -> &'static [&'static str] {
    match code {
        FindingCode::Unsolvable
        | FindingCode::AlreadySolved
        | FindingCode::NoSimpleStrategy
        | FindingCode::ParNotProven => &["start", "target"],
        FindingCode::IdleButton | FindingCode::DuplicateButtons => {
            &["buttons", "button_phases", "press", "graph"]
        }
        FindingCode::UntouchedCell => &["buttons", "button_phases", "graph"],
        FindingCode::IntendedFails | FindingCode::IntendedNotFewest => &["intended"],
    }
}

/// Every finding of one file's check as an annotation at the line of its field. Warnings are
/// errors when warnings are denied, as they fail the check then; notes are notices.
pub fn check_annotations(file: &str, source: &str, report: &CheckReport, deny_warnings: bool) -> String {
    let mut out = String::new();
    for finding in &report.findings {
        let level = match finding.severity {
            Severity::Error => Level::Error,
            Severity::Warning if deny_warnings => Level::Error,
            Severity::Warning => Level::Warning,
            Severity::Note => Level::Notice,
        };
        let at = fields_of(finding.code)
            .iter()
            .find_map(|field| crate::format::locate(source, field))
            .unwrap_or(Position { line: 1, column: 1 });
        out.push_str(&annotation(level, file, Some(at), finding.code.as_str(), &finding.message));
    }
    out
}

fn escape_data(text: &str) -> String {
    text.replace('%', "%25").replace('\r', "%0D").replace('\n', "%0A")
}

fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn annotations_escape_what_github_reads_as_syntax() {
        let line = annotation(
            Level::Error,
            "levels/a,b:c.ron",
            Some(Position { line: 7, column: 5 }),
            "unsolvable",
            "100% wrong\nsecond line",
        );
        assert_eq!(
            line,
            "::error file=levels/a%2Cb%3Ac.ron,line=7,col=5,title=unsolvable::100%25 wrong%0Asecond line\n"
        );
        let line = annotation(Level::Warning, "x.ron", None, "io", "gone");
        assert_eq!(line, "::warning file=x.ron,title=io::gone\n");
    }
}
