//! Peak memory, estimated from the puzzle before the work allocates it, so that a command can
//! refuse a puzzle it could not finish (with the estimate and the limit in the message) instead
//! of being killed half-way by the operating system.
//!
//! This module is a leaf: an [`Estimate`], the limit it is held to ([`within`], refusing with
//! [`OverMemory`]) and sizes for people. Each piece of work estimates itself where it is
//! written: `solve::memory_estimate`, `check::memory_estimate`, `generate::memory_estimate`
//! and the par distribution's encodings in `difficulty`.

use thiserror::Error;

/// An estimate of the peak memory of some work, and what dominates it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Estimate {
    /// The estimated peak, in bytes.
    pub bytes: u64,
    /// The largest part, for people: "dense elimination of 3000 × 3001 entries".
    pub largest: String,
}

/// A puzzle whose work would need more memory than allowed.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error(
    "this puzzle needs about {} of memory ({}), more than the {} limit",
    show(self.estimate.bytes),
    self.estimate.largest,
    show(self.limit)
)]
pub struct OverMemory {
    /// What the work was estimated to need.
    pub estimate: Estimate,
    /// The limit it exceeds, in bytes.
    pub limit: u64,
}

/// Refuses work whose estimated peak memory is above `limit` (by default [`default_limit`]),
/// before anything is allocated for it.
pub fn within(estimate: Estimate, limit: Option<u64>) -> Result<(), OverMemory> {
    let limit = limit.unwrap_or_else(default_limit);
    if estimate.bytes <= limit { Ok(()) } else { Err(OverMemory { estimate, limit }) }
}

/// A size for people, to three figures: `312 MiB`, `19.3 GiB`.
pub fn show(bytes: u64) -> String {
    let units = [(1u64 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")];
    match units.iter().find(|&&(unit, _)| bytes >= unit) {
        Some(&(unit, name)) => {
            let value = bytes as f64 / unit as f64;
            if value >= 100.0 { format!("{value:.0} {name}") } else { format!("{value:.1} {name}") }
        }
        None => format!("{bytes} bytes"),
    }
}

/// Half of this machine's memory (`MemTotal` in `/proc/meminfo`), or 8 GiB where that cannot
/// be read.
pub fn default_limit() -> u64 {
    let total = std::fs::read_to_string("/proc/meminfo").ok().and_then(|text| {
        let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
        let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
        Some(kib * 1024)
    });
    total.map_or(8 << 30, |bytes| bytes / 2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_for_people() {
        assert_eq!(show(312 << 20), "312 MiB");
        assert_eq!(show((193 << 30) / 10), "19.3 GiB");
        assert_eq!(show(900), "900 bytes");
    }

    #[test]
    fn the_default_limit_is_half_the_machine() {
        let limit = default_limit();
        assert!(limit >= 1 << 28, "{limit}");
    }
}
