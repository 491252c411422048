//! Memory limits: big tables are estimated before they are allocated.

use crate::error::{Error, Result};

/// The most memory a computation may allocate, in bytes.
///
/// ```
/// use nimlab_engine::MemoryLimit;
/// let limit = MemoryLimit::parse("2G").unwrap();
/// assert_eq!(limit.bytes(), 2 << 30);
/// assert!(limit.check("a table", 1 << 30).is_ok());
/// assert!(limit.check("a table", 3 << 30).is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MemoryLimit(u64);

impl MemoryLimit {
    /// A limit of `bytes` bytes.
    pub fn new(bytes: u64) -> Self {
        MemoryLimit(bytes)
    }

    /// Half of physical memory (read from `/proc/meminfo`; 4 GiB if unknown), and at
    /// most three quarters of the process's address-space limit (`ulimit -v`), so that
    /// an estimate refuses what an allocation would otherwise abort on.
    pub fn half_of_physical() -> Self {
        let half = physical_memory().unwrap_or(8 << 30) / 2;
        let room = address_space_limit().map_or(u64::MAX, |b| b / 4 * 3);
        MemoryLimit(half.min(room))
    }

    /// Parses `123`, `512M`, `2G`, `1.5GiB`, `3T` (binary units).
    pub fn parse(text: &str) -> Result<Self> {
        let t = text.trim();
        let split = t
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(t.len());
        let (num, unit) = t.split_at(split);
        let value: f64 = num
            .parse()
            .map_err(|_| Error::input(format!("bad memory size '{text}' (try 512M or 4G)")))?;
        let scale: u64 = match unit.trim().to_ascii_lowercase().as_str() {
            "" | "b" => 1,
            "k" | "kb" | "kib" => 1 << 10,
            "m" | "mb" | "mib" => 1 << 20,
            "g" | "gb" | "gib" => 1 << 30,
            "t" | "tb" | "tib" => 1 << 40,
            _ => {
                return Err(Error::input(format!(
                    "bad memory unit in '{text}' (use K, M, G or T)"
                )))
            }
        };
        Ok(MemoryLimit((value * scale as f64) as u64))
    }

    /// The limit in bytes.
    pub fn bytes(self) -> u64 {
        self.0
    }

    /// `Ok` if `needed` bytes fit, else [`Error::TooLarge`] naming `what`.
    pub fn check(self, what: &str, needed: u64) -> Result<()> {
        if needed > self.0 {
            Err(Error::TooLarge {
                what: what.to_string(),
                needed,
                limit: self.0,
            })
        } else {
            Ok(())
        }
    }
}

impl Default for MemoryLimit {
    fn default() -> Self {
        MemoryLimit::half_of_physical()
    }
}

/// Total physical memory in bytes, if the platform tells.
pub fn physical_memory() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// The process's soft address-space limit in bytes (`ulimit -v`), if there is one.
///
/// ```
/// // Unlimited in most shells; when set, it is a number of bytes.
/// let limit = nimlab_engine::memory::address_space_limit();
/// assert!(limit.is_none_or(|b| b > 0));
/// ```
pub fn address_space_limit() -> Option<u64> {
    let limits = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = limits
        .lines()
        .find(|l| l.starts_with("Max address space"))?;
    line["Max address space".len()..]
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}
