//! Positions too big for a table: big-integer coordinates and a game's exact strategy.
//!
//! Some games know their winning strategy in closed form (Wythoff via Zeckendorf codes,
//! subtraction games via their period, Fibonacci Nim via its code). They answer for any
//! position, however big, through [`crate::Game::analyse_big`].

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

/// Shortens long numbers for messages: `12345…(100000 digits)`.
pub fn abbreviate(text: &str) -> String {
    if text.len() <= 40 {
        text.to_string()
    } else {
        format!("{}…({} digits)", &text[..20], text.len())
    }
}
