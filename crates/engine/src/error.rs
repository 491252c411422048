//! The engine's error type. Every error is a user-facing, one-line message; how to
//! lift a limit (a flag, an argument) is for the surface to add.

use std::fmt;

/// Errors the engine reports instead of panicking.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// Malformed or out-of-range input: a position, a parameter, a size.
    Input(String),
    /// A computation would need more memory than allowed.
    TooLarge {
        /// What was to be allocated, e.g. "table 100000x100000".
        what: String,
        /// Estimated bytes needed.
        needed: u64,
        /// The limit in force.
        limit: u64,
    },
    /// A computation would take far too long (an estimate from its size).
    TooLong {
        /// What was to be computed.
        what: String,
        /// Estimated seconds.
        seconds: u64,
    },
    /// The game broke a promise of the [`crate::Game`] contract (e.g. a move that does
    /// not lower the rank, so the game might not end).
    Contract(String),
}

/// Result with the engine's [`Error`].
pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    /// Shorthand for [`Error::Input`].
    pub fn input(msg: impl Into<String>) -> Self {
        Error::Input(msg.into())
    }
}

/// Formats a byte count for people: `1.5 GiB`.
pub fn human_bytes(bytes: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} B")
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}

/// A duration for people: `3.2 hours`, `41 years`.
pub fn human_duration(seconds: f64) -> String {
    const UNITS: [(f64, &str); 5] = [
        (365.25 * 86400.0, "years"),
        (86400.0, "days"),
        (3600.0, "hours"),
        (60.0, "minutes"),
        (1.0, "seconds"),
    ];
    for (size, name) in UNITS {
        if seconds >= size {
            return format!("{:.1} {name}", seconds / size);
        }
    }
    format!("{seconds:.1} seconds")
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Input(msg) => write!(f, "{msg}"),
            Error::TooLarge {
                what,
                needed,
                limit,
            } => write!(
                f,
                "{what} needs about {} but the memory limit is {}",
                human_bytes(*needed),
                human_bytes(*limit)
            ),
            Error::TooLong { what, seconds } => write!(
                f,
                "{what} would take about {} (estimate)",
                human_duration(*seconds as f64)
            ),
            Error::Contract(msg) => write!(f, "game contract broken: {msg}"),
        }
    }
}

impl std::error::Error for Error {}
