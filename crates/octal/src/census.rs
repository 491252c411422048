//! The octal census: every code of a given shape, each solved (a period proven by the
//! Guy–Smith theorem) or left unsolved up to a bound with its sparse-space figures.
//!
//! Codes `w.d1…dD` with `D` digits after the point (base 8 or 16) are listed once per
//! game: a code with trailing zeros is the same game as the shorter code, so it is
//! listed by the shorter one; the code with every digit 0 has no move and is left out.
//! No other code is left out: two different codes have different moves (a heap of
//! `k + 2` beans shows whether taking `k` may split, and so on), and equal
//! nim-sequences of different codes are a theorem to prove, not a rule of the census.
//!
//! ```
//! use nimlab_octal::census::{codes, solve};
//! let all = codes(2, 8, &[0]).unwrap();
//! assert_eq!(all.len(), 63); // 0.1 … 0.77, each game once
//! assert_eq!(all[0], "0.01");
//! let kayles = solve("0.77", 8, 1 << 12).unwrap();
//! assert_eq!(kayles.period.map(|p| (p.preperiod, p.period)), Some((71, 12)));
//! ```

use crate::game::Octal;
use nimlab_engine::periodicity::Periodicity;
use nimlab_engine::{Error, Knob, NoProgress, Progress, Result};
use rayon::prelude::*;

/// Refuses a census base other than 8 (octal) and 16 (hexadecimal).
pub fn check_base(base: u32) -> Result<()> {
    if base != 8 && base != 16 {
        return Err(Error::out_of_range(
            "the census base",
            base,
            "8 or 16",
            Knob::Base,
        ));
    }
    Ok(())
}

/// The canonical codes with `digits` digits after the point and whole part in
/// `wholes` (0 or 4, or 0, 4, 8, c in base 16), in census order: by whole part, then
/// by the digit string d1…dD read as a number. Each game once.
pub fn codes(digits: usize, base: u32, wholes: &[u8]) -> Result<Vec<String>> {
    check_base(base)?;
    if !(1..=6).contains(&digits) {
        return Err(Error::out_of_range(
            "the number of code digits",
            digits,
            "between 1 and 6",
            Knob::Digits,
        ));
    }
    let count = (base as u64).pow(digits as u32);
    let mut out = Vec::new();
    for &w in wholes {
        if w & 3 != 0 || w as u32 >= base {
            return Err(Error::input(format!(
                "the whole part must be {}, got {w}",
                if base == 8 { "0 or 4" } else { "0, 4, 8 or c" }
            )));
        }
        for i in 0..count {
            let mut ds: Vec<u32> = (0..digits)
                .rev()
                .map(|j| ((i / (base as u64).pow(j as u32)) % base as u64) as u32)
                .collect();
            // Trailing zeros: the shorter code's game, listed when i is the padded form.
            while ds.last() == Some(&0) {
                ds.pop();
            }
            if ds.is_empty() && w == 0 {
                continue; // no move at all
            }
            let tail: String = ds
                .iter()
                .map(|&d| char::from_digit(d, base).expect("digit below the base"))
                .collect();
            let whole = char::from_digit(w as u32, base).expect("digit below the base");
            out.push(format!(
                "{whole}.{}",
                if tail.is_empty() { "0" } else { &tail }
            ));
        }
    }
    Ok(out)
}

/// CPU seconds per game and term asked for, calibrated on `--digits 3` to 2^16 terms
/// (511 codes, about 170 s of CPU): most games are solved early, the unsolved ones
/// run to the bound, so the cost grows with both.
const CPU_SECONDS_PER_GAME_TERM: f64 = 170.0 / (511.0 * 65536.0);

/// Estimated wall-clock seconds for a census of `games` codes to `up_to` terms each on
/// `threads` threads.
///
/// ```
/// use nimlab_octal::census::estimate_seconds;
/// let all_three_digit = estimate_seconds(511, 1 << 16, 1);
/// assert!((100.0..300.0).contains(&all_three_digit));
/// assert!(estimate_seconds(262_143, 1 << 16, 2) > 3600.0);
/// ```
pub fn estimate_seconds(games: usize, up_to: u64, threads: usize) -> f64 {
    games as f64 * up_to as f64 * CPU_SECONDS_PER_GAME_TERM / threads.max(1) as f64
}

/// As [`estimate_seconds`] for the given codes: a code whose moves may leave three heaps
/// costs O(n²) a term ([`Octal::search_seconds`]), the others the calibrated average.
///
/// ```
/// use nimlab_octal::census::estimate_codes;
/// let two: Vec<String> = vec!["0.6".into(), "0.77".into()];
/// let three: Vec<String> = vec!["0.8".into()];
/// assert!(estimate_codes(&two, 8, 1 << 16, 1).unwrap() < 1.0);
/// assert!(estimate_codes(&three, 16, 1 << 16, 1).unwrap() > 3600.0);
/// ```
pub fn estimate_codes(codes: &[String], base: u32, up_to: u64, threads: usize) -> Result<f64> {
    let mut two_heaps = 0;
    let mut seconds = 0.0;
    for c in codes {
        let game = Octal::parse(c, base)?;
        if game.rules().max_parts() > 2 {
            seconds += game.search_seconds(up_to) / threads.max(1) as f64;
        } else {
            two_heaps += 1;
        }
    }
    Ok(seconds + estimate_seconds(two_heaps, up_to, threads))
}

/// Refuses a census of `games` codes to `up_to` terms each whose estimate passes the
/// usual threshold (about ten minutes, [`nimlab_engine::table::check_seconds`]) unless
/// `force`; counts the threads the census runs on.
///
/// ```
/// use nimlab_octal::census::{check_work, codes};
/// assert!(check_work(&codes(3, 8, &[0]).unwrap(), 8, 1 << 16, false).is_ok());
/// let six = codes(6, 8, &[0]).unwrap();
/// assert!(check_work(&six, 8, 1 << 16, false).is_err());
/// assert!(check_work(&six, 8, 1 << 16, true).is_ok());
/// ```
pub fn check_work(codes: &[String], base: u32, up_to: u64, force: bool) -> Result<()> {
    let threads = rayon::current_num_threads();
    let games = codes.len();
    nimlab_engine::table::check_seconds(
        &format!(
            "a census of {games} code{} to {up_to} terms each (on {threads} thread{})",
            if games == 1 { "" } else { "s" },
            if threads == 1 { "" } else { "s" }
        ),
        estimate_codes(codes, base, up_to, threads)?,
        force,
    )
}

/// One game of the census.
#[derive(Debug, Clone)]
pub struct CensusEntry {
    /// The code, e.g. `0.376`.
    pub code: String,
    /// The canonical spec, e.g. `octal(code=0.376)`.
    pub spec: String,
    /// The period proven by the Guy–Smith theorem, if found below the bound.
    pub period: Option<Periodicity>,
    /// How many terms were computed.
    pub computed: u64,
    /// The rare/common split: mask bits cleared (the mask is every other bit) and
    /// whether the index parity joins the class; `None` for short or three-heap runs.
    pub mask: Option<(u32, bool)>,
    /// How many indices are rare under that split.
    pub rare_count: u64,
    /// The largest value computed.
    pub max_value: u32,
}

/// Solves one code: the Guy–Smith period if one is proven below `up_to` terms.
pub fn solve(code: &str, base: u32, up_to: u64) -> Result<CensusEntry> {
    solve_with(code, base, up_to, &NoProgress)
}

/// As [`solve`], reporting to `progress`.
pub fn solve_with(
    code: &str,
    base: u32,
    up_to: u64,
    progress: &dyn Progress,
) -> Result<CensusEntry> {
    let game = Octal::parse(code, base)?;
    let found = game.rules().search_period(up_to, progress);
    Ok(CensusEntry {
        code: code.to_string(),
        spec: game.spec_text().to_string(),
        computed: found.values.len() as u64,
        mask: found.split.map(|s| (s.cleared, s.domain)),
        rare_count: found.rare_count as u64,
        max_value: found.max_value,
        period: found.period,
    })
}

/// Solves `codes` in parallel (every core), calling `done` with each entry as soon as
/// it is found (in no particular order).
pub fn run(codes: &[String], base: u32, up_to: u64, done: &(dyn Fn(Result<CensusEntry>) + Sync)) {
    run_with(codes, base, up_to, &NoProgress, done)
}

/// As [`run`], each game's search reporting to `progress` with steps of 0 (so that a
/// progress that stops the computation by unwinding stops it within a game); the
/// caller counts the games.
pub fn run_with(
    codes: &[String],
    base: u32,
    up_to: u64,
    progress: &dyn Progress,
    done: &(dyn Fn(Result<CensusEntry>) + Sync),
) {
    let beat = Heartbeat(progress);
    codes
        .par_iter()
        .with_max_len(1)
        .for_each(|c| done(solve_with(c, base, up_to, &beat)));
}

/// Forwards only that work goes on (steps of 0) to the census's own progress.
struct Heartbeat<'a>(&'a dyn Progress);

impl Progress for Heartbeat<'_> {
    fn start(&self, _total: u64, _what: &str) {
        self.0.advance(0)
    }
    fn advance(&self, _delta: u64) {
        self.0.advance(0)
    }
    fn cancelled(&self) -> bool {
        self.0.cancelled()
    }
}
