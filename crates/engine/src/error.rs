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
    /// An input setting is out of the range the library accepts: the setting is named by
    /// its [`Knob`], which each surface words its own way (a command-line flag, a Python
    /// keyword, an API field), so that no library message names a flag.
    OutOfRange {
        /// What the setting controls, e.g. "the window of heaps".
        what: String,
        /// The value given, as text.
        value: String,
        /// The range allowed, e.g. "at most 1000000".
        limit: String,
        /// Which setting it is.
        knob: Knob,
    },
    /// Reading or writing a file, a stream or a socket failed: `what` says which
    /// (`cannot write out.json`), `source` is the operating system's error. Not a fault
    /// of the input: the web answers it 500, Python raises `OSError`.
    Io {
        /// What was being done, e.g. "cannot write out.json".
        what: String,
        /// The operating system's error, kept for [`std::error::Error::source`].
        source: IoSource,
    },
    /// The caller stopped the computation (its [`crate::Progress::cancelled`] became
    /// true): a client that went away, a time limit, Ctrl-C. Not a fault of the input.
    Cancelled,
}

/// The library's name of an input setting that a caller chooses. Surfaces word it:
/// [`Knob::UpTo`] is `--up-to` on the command line, `up_to=` in Python and the field
/// `"up_to"` of the web API.
///
/// ```
/// use nimlab_engine::{Error, Knob};
/// let e = Error::out_of_range("the window of heaps", "5", "at most 4", Knob::UpTo);
/// assert_eq!(e.to_string(), "the window of heaps is out of range: up_to 5, at most 4");
/// let cli = e.describe(&|k, v| format!("--{} {v}", k.id().replace('_', "-")));
/// assert_eq!(cli, "the window of heaps is out of range: --up-to 5, at most 4");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Knob {
    /// The end of a sequence's window: heaps n < up_to.
    UpTo,
    /// The side of a table's box, or how many rows a table has.
    Size,
    /// A row of a two-coordinate game.
    Row,
    /// The side of the larger window a guessed formula is verified on.
    VerifySize,
    /// The largest element of the sets a sweep visits.
    Max,
    /// How many elements each set of a sweep has.
    SetSize,
    /// The number base of an octal census (8 or 16).
    Base,
    /// How many code digits an octal census visits.
    Digits,
    /// The shard of a split computation (`i` of `k`).
    Shard,
    /// The memory limit of a computation.
    MaxMemory,
    /// The most elements a candidate misère quotient may have.
    MaxElements,
}

impl Knob {
    /// The setting's identifier in snake case (`up_to`, `set_size`): the Python keyword
    /// and the web API's field.
    pub fn id(self) -> &'static str {
        match self {
            Knob::UpTo => "up_to",
            Knob::Size => "size",
            Knob::Row => "row",
            Knob::VerifySize => "verify_size",
            Knob::Max => "max",
            Knob::SetSize => "set_size",
            Knob::Base => "base",
            Knob::Digits => "digits",
            Knob::Shard => "shard",
            Knob::MaxMemory => "max_memory",
            Knob::MaxElements => "max_elements",
        }
    }
}

/// The I/O error under an [`Error::Io`]: shared, so that the error stays `Clone`, and
/// compared by kind and message, so that it stays `Eq`.
#[derive(Debug, Clone)]
pub struct IoSource(std::sync::Arc<std::io::Error>);

impl IoSource {
    /// The operating system's error.
    pub fn error(&self) -> &std::io::Error {
        &self.0
    }
}

impl PartialEq for IoSource {
    fn eq(&self, other: &Self) -> bool {
        self.0.kind() == other.0.kind() && self.0.to_string() == other.0.to_string()
    }
}

impl Eq for IoSource {}

/// Result with the engine's [`Error`].
pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    /// Shorthand for [`Error::Input`].
    pub fn input(msg: impl Into<String>) -> Self {
        Error::Input(msg.into())
    }

    /// An I/O failure while doing `what` (e.g. "cannot write out.json").
    ///
    /// ```
    /// use nimlab_engine::Error;
    /// let e = Error::io("cannot write out.json", std::io::Error::from_raw_os_error(28));
    /// assert_eq!(e.to_string(), "cannot write out.json");
    /// let chain = nimlab_engine::error::chain(&e);
    /// assert!(chain.starts_with("cannot write out.json: No space left on device"), "{chain}");
    /// ```
    pub fn io(what: impl Into<String>, source: std::io::Error) -> Self {
        Error::Io {
            what: what.into(),
            source: IoSource(std::sync::Arc::new(source)),
        }
    }

    /// Shorthand for [`Error::OutOfRange`].
    pub fn out_of_range(
        what: impl Into<String>,
        value: impl ToString,
        limit: impl Into<String>,
        knob: Knob,
    ) -> Self {
        Error::OutOfRange {
            what: what.into(),
            value: value.to_string(),
            limit: limit.into(),
            knob,
        }
    }

    /// The message with each setting worded by `setting(knob, value)` (e.g.
    /// `--up-to 5` on the command line, `up_to=5` in Python); other errors with their
    /// sources ([`chain`]).
    pub fn describe(&self, setting: &dyn Fn(Knob, &str) -> String) -> String {
        match self {
            Error::OutOfRange {
                what,
                value,
                limit,
                knob,
            } => format!("{what} is out of range: {}, {limit}", setting(*knob, value)),
            other => chain(other),
        }
    }

    /// The setting an [`Error::OutOfRange`] names (the memory limit for
    /// [`Error::TooLarge`]).
    pub fn knob(&self) -> Option<Knob> {
        match self {
            Error::OutOfRange { knob, .. } => Some(*knob),
            Error::TooLarge { .. } => Some(Knob::MaxMemory),
            _ => None,
        }
    }
}

/// Input text as an error message shows it: control characters escaped, cut after 60
/// characters with the whole length said, so that a hostile spec or position stays one
/// short line.
///
/// ```
/// use nimlab_engine::error::shown;
/// assert_eq!(shown("a\nb"), "a\\nb");
/// assert_eq!(shown(&"x".repeat(61)), format!("{}…(61 characters)", "x".repeat(60)));
/// ```
pub fn shown(text: &str) -> String {
    const KEEP: usize = 60;
    let escaped = |c: char| -> String {
        if c.is_control() {
            c.escape_default().collect()
        } else {
            c.to_string()
        }
    };
    if text.chars().nth(KEEP).is_none() {
        text.chars().map(escaped).collect()
    } else {
        let head: String = text.chars().take(KEEP).map(escaped).collect();
        format!("{head}…({} characters)", text.chars().count())
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
            Error::OutOfRange { .. } => {
                f.write_str(&self.describe(&|k, v| format!("{} {v}", k.id())))
            }
            Error::Io { what, .. } => f.write_str(what),
            Error::Cancelled => f.write_str("the computation was stopped before it ended"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Io { source, .. } => Some(source.error()),
            _ => None,
        }
    }
}

/// An error and its sources on one line, each after a colon: `cannot write out.json:
/// No space left on device (os error 28)`.
///
/// ```
/// use nimlab_engine::{error::chain, Error};
/// assert_eq!(chain(&Error::input("bad heap")), "bad heap");
/// ```
pub fn chain(e: &dyn std::error::Error) -> String {
    let mut out = e.to_string();
    let mut next = e.source();
    while let Some(cause) = next {
        out.push_str(": ");
        out.push_str(&cause.to_string());
        next = cause.source();
    }
    out
}
