//! Positions too big for a table: big-integer coordinates and a game's exact strategy.
//!
//! Some games know their winning strategy in closed form (Wythoff via Zeckendorf codes,
//! subtraction games via their period, Fibonacci Nim via its code). They answer for any
//! position, however big, through [`crate::capability::BigPositions::analyse_big`].

use crate::error::{Error, Result};
use crate::game::Outcome;
pub use num_bigint::BigUint;

/// A position with arbitrary-size coordinates.
pub type BigPosition = Vec<BigUint>;

/// What a closed-form strategy says about a position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BigAnalysis {
    /// The position analysed.
    pub position: BigPosition,
    /// The Grundy value, when known in closed form (`None`: not known; say so).
    pub grundy: Option<BigUint>,
    /// P or N.
    pub outcome: Outcome,
    /// Winning moves (positions to move to); empty from a P-position. Need not be all of
    /// them: a strategy may give one.
    pub winning_moves: Vec<BigPosition>,
    /// Whether `winning_moves` lists every winning move.
    pub all_winning_moves: bool,
    /// How the answer was obtained, for people (e.g. "Zeckendorf strategy").
    pub method: String,
}

impl BigAnalysis {
    /// The analysis of `position` with a known Grundy value (the outcome follows).
    ///
    /// ```
    /// use nimlab_engine::big::{BigAnalysis, BigUint};
    /// let a = BigAnalysis::exact(vec![3u32.into()], 0u32.into(), vec![], "a theorem");
    /// assert_eq!(a.outcome, nimlab_engine::Outcome::P);
    /// ```
    pub fn exact(
        position: BigPosition,
        grundy: BigUint,
        winning_moves: Vec<BigPosition>,
        method: impl Into<String>,
    ) -> Self {
        BigAnalysis {
            position,
            outcome: if grundy == BigUint::default() {
                Outcome::P
            } else {
                Outcome::N
            },
            grundy: Some(grundy),
            winning_moves,
            all_winning_moves: true,
            method: method.into(),
        }
    }
}

/// Parses `3,5` with coordinates of any size.
///
/// ```
/// use nimlab_engine::big::parse_big_position;
/// let p = parse_big_position("123456789012345678901234567890,5").unwrap();
/// assert_eq!(p[1], 5u32.into());
/// assert!(parse_big_position("1,-2").is_err());
/// ```
pub fn parse_big_position(text: &str) -> Result<BigPosition> {
    let t = text.trim();
    let t = t
        .strip_prefix('(')
        .and_then(|s| s.strip_suffix(')'))
        .unwrap_or(t);
    if t.trim().is_empty() {
        return Err(Error::input("empty position (write coordinates like 3,5)"));
    }
    t.split(',')
        .enumerate()
        .map(|(i, part)| {
            let p = part.trim();
            if p.starts_with('-') {
                return Err(Error::input(format!(
                    "position coordinate {} is negative: '{}'",
                    i + 1,
                    abbreviate(p)
                )));
            }
            if p.is_empty() || !p.bytes().all(|b| b.is_ascii_digit()) {
                return Err(Error::input(format!(
                    "position coordinate {} is not a natural number: '{}'",
                    i + 1,
                    abbreviate(p)
                )));
            }
            BigUint::parse_bytes(p.as_bytes(), 10).ok_or_else(|| {
                Error::input(format!(
                    "position coordinate {} is not a natural number",
                    i + 1
                ))
            })
        })
        .collect()
}

/// The position as u64 coordinates, if every coordinate fits.
pub fn to_small(pos: &[BigUint]) -> Option<Vec<u64>> {
    pos.iter().map(|c| u64::try_from(c).ok()).collect()
}

/// Shortens long text for one-line messages: `12345…(100000 digits)`, or
/// `ab€d…(5000 characters)` for text that is not all digits. Counts and cuts whole
/// characters (never inside a UTF-8 sequence) and escapes control characters (a newline
/// becomes `\n`), so the result is always one printable line of at most about 40 + 30
/// characters.
///
/// ```
/// use nimlab_engine::big::abbreviate;
/// assert_eq!(abbreviate("12345"), "12345");
/// assert_eq!(abbreviate(&"7".repeat(100)), format!("{}…(100 digits)", "7".repeat(20)));
/// assert_eq!(abbreviate(&"€".repeat(50)), format!("{}…(50 characters)", "€".repeat(20)));
/// assert_eq!(abbreviate("a\nb"), "a\\nb");
/// ```
pub fn abbreviate(text: &str) -> String {
    const KEEP: usize = 20;
    const SHORT: usize = 40;
    let escaped = |c: char| -> String {
        if c.is_control() {
            c.escape_default().collect()
        } else {
            c.to_string()
        }
    };
    // Counting stops early: a long text is only ever read once, up to SHORT + 1 chars,
    // unless it has to be counted for the "(N characters)" suffix.
    if text.chars().nth(SHORT).is_none() {
        return text.chars().map(escaped).collect();
    }
    let head: String = text.chars().take(KEEP).map(escaped).collect();
    if text.bytes().all(|b| b.is_ascii_digit()) {
        format!("{head}…({} digits)", text.len())
    } else {
        format!("{head}…({} characters)", text.chars().count())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn abbreviate_is_char_safe_and_one_line() {
        for text in [
            "€".repeat(22),
            "é".repeat(41),
            format!("1{}", "€".repeat(40)),
            "\n".repeat(100),
            "a\u{0}b\r\n".repeat(30),
            "𝄞".repeat(21),
        ] {
            let a = abbreviate(&text);
            assert!(!a.contains(['\n', '\r', '\0']), "{a:?}");
            assert!(a.chars().count() <= 120, "{a:?}");
        }
        assert_eq!(abbreviate(&"1".repeat(40)), "1".repeat(40));
    }

    #[test]
    fn parse_errors_on_any_text_are_one_line() {
        for text in [
            "€€€€€€€€€€€€€€€€€€€€€€",
            "1,€",
            "\n\n",
            "1,\u{7f}2",
            "-€€€€€€€€€€€€€€€€€€€€€€€€",
        ] {
            let e = parse_big_position(text).unwrap_err().to_string();
            assert!(!e.contains('\n'), "{e:?}");
        }
    }
}
