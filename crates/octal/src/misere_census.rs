//! The misère census: the misère quotient of every octal code of a shape, to a heap
//! bound (see [`nimlab_engine::misere_quotient`]).
//!
//! ```
//! use nimlab_octal::misere_census::solve;
//! let e = solve("0.75", 8, 20, std::time::Duration::from_secs(60));
//! assert_eq!((e.size, e.p_size), (Some(8), Some(2)));
//! assert_eq!(e.last_change, Some(5));
//! ```

use crate::game::Octal;
use nimlab_engine::misere_quotient::{MisereQuotient, QuotientOptions};
use nimlab_engine::Game;
use rayon::prelude::*;
use std::time::Duration;

/// Most elements of a census game's candidate quotients.
pub const CENSUS_MAX_ELEMENTS: usize = 4096;

/// One game of the misère census.
#[derive(Debug, Clone)]
pub struct MisereCensusEntry {
    /// The code, e.g. `0.77`.
    pub code: String,
    /// The canonical spec.
    pub spec: String,
    /// |Q| and |P| when the quotient settled to the bound.
    pub size: Option<usize>,
    /// |P|.
    pub p_size: Option<usize>,
    /// Whether the quotient is tame.
    pub tame: Option<bool>,
    /// The heaps where the presentation changed.
    pub changes: Vec<u64>,
    /// The last of them (`Some(0)`: never, every heap is dead).
    pub last_change: Option<u64>,
    /// Why the quotient did not settle, if it did not.
    pub error: Option<String>,
    /// Whether it stopped at the time limit (rather than settling or reaching a size
    /// limit).
    pub timed_out: bool,
    /// Wall-clock seconds the game took.
    pub seconds: f64,
}

/// The quotient of one code's heaps `0..=max_heap`, within `time` (a game that takes
/// longer is reported unsettled).
pub fn solve(code: &str, base: u32, max_heap: u64, time: Duration) -> MisereCensusEntry {
    let started = std::time::Instant::now();
    let mut e = solve_untimed(code, base, max_heap, time);
    e.seconds = started.elapsed().as_secs_f64();
    // A refusal for another reason (no repair found) is an answer, not a time-out.
    e.timed_out &= e.seconds >= time.as_secs_f64();
    e
}

fn solve_untimed(code: &str, base: u32, max_heap: u64, time: Duration) -> MisereCensusEntry {
    let game = match Octal::parse(code, base) {
        Ok(g) => g,
        Err(e) => {
            return MisereCensusEntry {
                code: code.into(),
                spec: code.into(),
                size: None,
                p_size: None,
                tame: None,
                changes: Vec::new(),
                last_change: None,
                error: Some(e.to_string()),
                timed_out: false,
                seconds: 0.0,
            }
        }
    };
    let limits = QuotientOptions {
        max_elements: CENSUS_MAX_ELEMENTS,
        time_limit: Some(time),
        ..QuotientOptions::default()
    };
    let spec = game.spec();
    match MisereQuotient::of_game(&game, max_heap, &limits) {
        Ok(q) => MisereCensusEntry {
            code: code.into(),
            spec,
            size: Some(q.size()),
            p_size: Some(q.p_size()),
            tame: Some(q.is_tame()),
            last_change: Some(q.changes.last().copied().unwrap_or(0)),
            changes: q.changes,
            error: None,
            timed_out: false,
            seconds: 0.0,
        },
        Err(e) => MisereCensusEntry {
            code: code.into(),
            spec,
            size: None,
            p_size: None,
            tame: None,
            changes: Vec::new(),
            last_change: None,
            timed_out: matches!(e, nimlab_engine::Error::TooLong { .. }),
            error: Some(e.to_string()),
            seconds: 0.0,
        },
    }
}

/// Solves `codes` in parallel, calling `done` with each entry as soon as it is found.
pub fn run(
    codes: &[String],
    base: u32,
    max_heap: u64,
    time: Duration,
    done: &(dyn Fn(MisereCensusEntry) + Sync),
) {
    run_while(codes, base, max_heap, time, &|e| {
        done(e);
        true
    });
}

/// As [`run`], but no further game is started once `done` returns `false` (the games
/// already started finish and are passed to `done`).
pub fn run_while(
    codes: &[String],
    base: u32,
    max_heap: u64,
    time: Duration,
    done: &(dyn Fn(MisereCensusEntry) -> bool + Sync),
) {
    let go = std::sync::atomic::AtomicBool::new(true);
    codes.par_iter().with_max_len(1).for_each(|c| {
        if go.load(std::sync::atomic::Ordering::Relaxed) && !done(solve(c, base, max_heap, time)) {
            go.store(false, std::sync::atomic::Ordering::Relaxed);
        }
    });
}
