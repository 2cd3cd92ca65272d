//! Reading a puzzle source with bounds: a file, a named pipe or `-` (standard input), at most
//! a given number of bytes, as UTF-8 text.
//!
//! Nothing larger than the limit is ever buffered: the source is read through
//! `Read::take(limit + 1)`, and a regular file whose size is already over the limit is refused
//! before it is read. A named pipe (FIFO) is opened without waiting for a writer; when no writer
//! has written anything within [`FIFO_WAIT`] it is refused, so a batch of files never hangs on
//! one pipe. Once a writer is there the pipe is read to its end like any file, bounded by size.
//! A directory is refused by name. Every error says which source and what went wrong.

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;
use std::time::Duration;

/// The default `--max-input`: 1 GiB.
pub const DEFAULT_MAX_INPUT: u64 = 1 << 30;

/// How long a named pipe may go without a writer before it is refused.
pub const FIFO_WAIT: Duration = Duration::from_secs(2);

/// How standard input is named in messages.
pub const STDIN_NAME: &str = "<stdin>";

/// Why a source could not be read. `name` is the path as given, or `<stdin>`.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The source cannot be opened.
    #[error("cannot open {name}: {reason}")]
    Open {
        /// The source's name.
        name: String,
        /// What the operating system said.
        reason: io::Error,
    },
    /// Reading failed part-way.
    #[error("cannot read {name}: {reason}")]
    Read {
        /// The source's name.
        name: String,
        /// What the operating system said.
        reason: io::Error,
    },
    /// The path is a directory.
    #[error("{name} is a directory, not a puzzle file")]
    Directory {
        /// The source's name.
        name: String,
    },
    /// A named pipe that no writer opened in time.
    #[error(
        "{name} is a named pipe and nothing was written to it within {} s (start its writer first)",
        wait.as_secs()
    )]
    NoWriter {
        /// The source's name.
        name: String,
        /// How long the reader waited.
        wait: Duration,
    },
    /// The text is not UTF-8.
    #[error("{name} is not valid UTF-8: byte {offset} (line {line}) is not part of a UTF-8 character")]
    NotUtf8 {
        /// The source's name.
        name: String,
        /// The byte offset of the first invalid byte.
        offset: usize,
        /// Its line, from 1.
        line: usize,
    },
    /// The source is larger than the limit.
    #[error("{name} is larger than the {} limit", show_size(*limit))]
    TooLarge {
        /// The source's name.
        name: String,
        /// The limit, in bytes.
        limit: u64,
    },
}

/// The name of `path` in messages: `<stdin>` for `-`, the path otherwise.
pub fn source_name(path: &Path) -> String {
    if is_stdin(path) { STDIN_NAME.to_string() } else { path.display().to_string() }
}

/// Whether `path` means standard input (`-`).
pub fn is_stdin(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// Reads the puzzle source at `path` (`-` for standard input) as UTF-8 text of at most
/// `max_bytes` bytes.
pub fn read_source(path: &Path, max_bytes: u64) -> Result<String, ReadError> {
    let name = source_name(path);
    let bytes = if is_stdin(path) {
        read_bounded(io::stdin().lock(), Vec::new(), &name, max_bytes)?
    } else {
        read_path(path, &name, max_bytes)?
    };
    into_text(bytes, &name)
}

/// Reads `reader` to its end after `already` (bytes read before), refusing more than `max_bytes`
/// in all without buffering more than one byte past the limit.
pub fn read_bounded(
    reader: impl Read,
    mut already: Vec<u8>,
    name: &str,
    max_bytes: u64,
) -> Result<Vec<u8>, ReadError> {
    let too_large = || ReadError::TooLarge { name: name.to_string(), limit: max_bytes };
    let room = max_bytes.checked_sub(already.len() as u64).ok_or_else(too_large)?;
    reader
        .take(room.saturating_add(1))
        .read_to_end(&mut already)
        .map_err(|reason| ReadError::Read { name: name.to_string(), reason })?;
    if already.len() as u64 > max_bytes {
        return Err(too_large());
    }
    Ok(already)
}

/// UTF-8 text, or where it stops being UTF-8.
fn into_text(bytes: Vec<u8>, name: &str) -> Result<String, ReadError> {
    String::from_utf8(bytes).map_err(|e| {
        let offset = e.utf8_error().valid_up_to();
        let line = 1 + e.as_bytes()[..offset].iter().filter(|&&b| b == b'\n').count();
        ReadError::NotUtf8 { name: name.to_string(), offset, line }
    })
}

fn read_path(path: &Path, name: &str, max_bytes: u64) -> Result<Vec<u8>, ReadError> {
    let file = open(path).map_err(|reason| ReadError::Open { name: name.to_string(), reason })?;
    let read_error = |reason| ReadError::Read { name: name.to_string(), reason };
    let metadata = file.metadata().map_err(read_error)?;
    if metadata.is_dir() {
        return Err(ReadError::Directory { name: name.to_string() });
    }
    let mut already = Vec::new();
    if metadata.is_file() {
        // Its size is known: refuse at once what is over the limit, and read the rest in one go.
        if metadata.len() > max_bytes {
            return Err(ReadError::TooLarge { name: name.to_string(), limit: max_bytes });
        }
        already.reserve_exact(usize::try_from(metadata.len()).unwrap_or(0).saturating_add(1));
    } else if is_fifo(&metadata) {
        already = wait_for_writer(&file, name)?;
    }
    blocking(&file).map_err(read_error)?;
    read_bounded(&file, already, name, max_bytes)
}

/// Opens for reading without waiting for a named pipe's writer (`O_NONBLOCK`).
#[cfg(unix)]
fn open(path: &Path) -> io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    let nonblocking = rustix::fs::OFlags::NONBLOCK.bits() as i32;
    std::fs::OpenOptions::new().read(true).custom_flags(nonblocking).open(path)
}

#[cfg(not(unix))]
fn open(path: &Path) -> io::Result<File> {
    File::open(path)
}

/// Clears `O_NONBLOCK` again: from here on reads wait for data as usual.
#[cfg(unix)]
fn blocking(file: &File) -> io::Result<()> {
    use rustix::fs::{OFlags, fcntl_getfl, fcntl_setfl};
    let flags = fcntl_getfl(file)?;
    if flags.contains(OFlags::NONBLOCK) {
        fcntl_setfl(file, flags - OFlags::NONBLOCK)?;
    }
    Ok(())
}

#[cfg(not(unix))]
fn blocking(_: &File) -> io::Result<()> {
    Ok(())
}

#[cfg(unix)]
fn is_fifo(metadata: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::FileTypeExt;
    metadata.file_type().is_fifo()
}

#[cfg(not(unix))]
fn is_fifo(_: &std::fs::Metadata) -> bool {
    false
}

/// A pipe opened without blocking reads end-of-file while it has no writer, and "would block"
/// while a writer has not written yet. Waits up to [`FIFO_WAIT`] for a writer; returns what it
/// has already written.
fn wait_for_writer(mut file: &File, name: &str) -> Result<Vec<u8>, ReadError> {
    let started = std::time::Instant::now();
    let mut first = [0u8; 8192];
    loop {
        match file.read(&mut first) {
            Ok(0) if started.elapsed() < FIFO_WAIT => std::thread::sleep(Duration::from_millis(10)),
            Ok(0) => return Err(ReadError::NoWriter { name: name.to_string(), wait: FIFO_WAIT }),
            Ok(n) => return Ok(first[..n].to_vec()),
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => return Ok(Vec::new()),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(reason) => return Err(ReadError::Read { name: name.to_string(), reason }),
        }
    }
}

/// A size for people: `1 GiB`, `500 MiB`, `100 kB`, or bytes when no unit divides it.
pub fn show_size(bytes: u64) -> String {
    const UNITS: [(u64, &str); 6] = [
        (1 << 30, "GiB"),
        (1_000_000_000, "GB"),
        (1 << 20, "MiB"),
        (1_000_000, "MB"),
        (1 << 10, "KiB"),
        (1_000, "kB"),
    ];
    UNITS
        .iter()
        .find(|&&(unit, _)| bytes >= unit && bytes.is_multiple_of(unit))
        .map_or_else(|| format!("{bytes}-byte"), |&(unit, name)| format!("{} {name}", bytes / unit))
}

/// `1GiB`, `500MiB`, `100k` (decimal: 100,000), `4096`: a byte count for `--max-input`.
pub fn parse_size(text: &str) -> Result<u64, String> {
    parse_size::parse_size(text)
        .map_err(|e| format!("`{text}` is not a size ({e}): write e.g. 1GiB, 500MiB, 100k or 4096"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_and_show() {
        assert_eq!(parse_size("1GiB"), Ok(1 << 30));
        assert_eq!(parse_size("500MiB"), Ok(500 << 20));
        assert_eq!(parse_size("100k"), Ok(100_000));
        assert_eq!(parse_size("4096"), Ok(4096));
        assert!(parse_size("lots").unwrap_err().contains("`lots` is not a size"));
        assert_eq!(show_size(1 << 30), "1 GiB");
        assert_eq!(show_size(3 << 20), "3 MiB");
        assert_eq!(show_size(100_000), "100 kB");
        assert_eq!(show_size(1000), "1 kB");
        assert_eq!(show_size(1023), "1023-byte");
    }

    #[test]
    fn the_limit_is_exact() {
        let read = |n: usize, limit: u64| read_bounded(&vec![b'x'; n][..], Vec::new(), "t", limit);
        assert_eq!(read(10, 10).unwrap().len(), 10);
        let error = read(11, 10).unwrap_err().to_string();
        assert_eq!(error, "t is larger than the 10-byte limit");
        assert_eq!(read_bounded(&b"yz"[..], b"wx".to_vec(), "t", 4).unwrap(), b"wxyz");
        assert!(read_bounded(&b"yz"[..], b"wxy".to_vec(), "t", 4).is_err());
        assert!(read_bounded(&b""[..], b"wxyzw".to_vec(), "t", 4).is_err());
    }

    #[test]
    fn invalid_utf8_says_where() {
        let error = into_text(b"ab\ncd\xffe".to_vec(), "t").unwrap_err().to_string();
        assert_eq!(error, "t is not valid UTF-8: byte 5 (line 2) is not part of a UTF-8 character");
    }
}
