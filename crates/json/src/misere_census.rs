//! The misère census (`nimlab census misere`): the misère quotient of every octal code
//! of a shape, one JSON line per game ([`MisereCensusLine`]), resumable from earlier
//! lines, estimated by a pilot before a long run; the games are solved by
//! [`nimlab_octal::misere_census`].

use nimlab_engine::table::check_seconds;
use nimlab_engine::{Error, Result};
use nimlab_octal::census as octal_census;
use nimlab_octal::misere_census::{self, MisereCensusEntry};
use serde::Serialize;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Mutex;
use std::time::Duration;

/// A misère census: every code `w.d1…dD` (`digits` digits in `base`, whole parts
/// `wholes`) whose census index is ≡ `shard.0` (mod `shard.1`), each game's quotient
/// to heap `max_heap` within `seconds`.
///
/// ```
/// use nimlab_json::misere_census::MisereCensus;
/// let census = MisereCensus::new(1, 8, &["0".into()], (0, 1), 10, 10).unwrap();
/// let todo = census.todo(&[], "-").unwrap();
/// assert_eq!(todo.len(), 7); // 0.1 … 0.7
/// assert!(MisereCensus::new(1, 8, &["0".into()], (0, 1), 0, 10).is_err());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MisereCensus {
    /// 8 (octal) or 16 (hexadecimal).
    pub base: u32,
    /// Largest heap of each game's quotient.
    pub max_heap: u64,
    /// Seconds per game before it is reported unsettled.
    pub seconds: u64,
    /// This shard's codes with their census indices.
    codes: Vec<(usize, String)>,
}

/// One line of the misère census (fields in the order the line writes them).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MisereCensusLine {
    /// 8 or 16.
    pub base: u32,
    /// The heaps where the presentation changed.
    pub changes: Vec<u64>,
    /// The code, e.g. `0.77`.
    pub code: String,
    /// Why the quotient did not settle, if it did not.
    pub error: Option<String>,
    /// The canonical spec.
    pub game: String,
    /// The code's census index.
    pub index: usize,
    /// The last change (`0`: never).
    pub last_change: Option<u64>,
    /// The heap bound of the census.
    pub max_heap: u64,
    /// |P| when settled.
    pub p_size: Option<usize>,
    /// |Q| when settled.
    pub size: Option<usize>,
    /// `settled` or `unsettled`.
    pub status: &'static str,
    /// Whether the quotient is tame, when settled.
    pub tame: Option<bool>,
}

/// Games in the pilot of a census whose worst case is over the time limit.
const PILOT_GAMES: usize = 32;

/// Seconds each pilot game gets (less when the census gives less).
const PILOT_SECONDS: u64 = 1;

impl MisereCensus {
    /// Checks the settings (the heap bound, the time per game, the shape) and lists
    /// the shard's codes; `wholes` are written in `base` (`"0"`, `"4"`).
    pub fn new(
        digits: usize,
        base: u32,
        wholes: &[String],
        shard: (u64, u64),
        max_heap: u64,
        seconds: u64,
    ) -> Result<Self> {
        if max_heap == 0 || max_heap > 1000 {
            return Err(Error::input(format!(
                "--max-heap must be between 1 and 1000, got {max_heap}"
            )));
        }
        if seconds == 0 || seconds > 86_400 {
            return Err(Error::input("--seconds must be between 1 and 86400"));
        }
        let wholes = wholes
            .iter()
            .map(|w| {
                u8::from_str_radix(w.trim(), base)
                    .map_err(|_| Error::input(format!("--whole: '{w}' is not a digit")))
            })
            .collect::<Result<Vec<u8>>>()?;
        let (i, k) = shard;
        let codes = octal_census::codes(digits, base, &wholes)?
            .into_iter()
            .enumerate()
            .filter(|(n, _)| *n as u64 % k == i)
            .collect();
        Ok(MisereCensus {
            base,
            max_heap,
            seconds,
            codes,
        })
    }

    /// The shard's codes not yet in `lines` (a census file being resumed, named `file`
    /// in errors), after checking that the lines were written with these settings.
    pub fn todo(&self, lines: &[Value], file: &str) -> Result<Vec<(usize, String)>> {
        let mut finished = BTreeSet::new();
        for line in lines {
            if line.get("max_heap").and_then(Value::as_u64) != Some(self.max_heap)
                || line.get("base").and_then(Value::as_u64) != Some(self.base as u64)
            {
                return Err(Error::input(format!(
                    "{file} holds a census with other settings (max_heap {}, base {}): write to another file",
                    line.get("max_heap").unwrap_or(&Value::Null),
                    line.get("base").unwrap_or(&Value::Null)
                )));
            }
            if let Some(code) = line.get("code").and_then(Value::as_str) {
                finished.insert(code.to_string());
            }
        }
        Ok(self
            .codes
            .iter()
            .filter(|(_, c)| !finished.contains(c))
            .cloned()
            .collect())
    }

    /// What a census of `games` codes is, for estimates and refusals.
    pub fn what(&self, games: usize) -> String {
        format!("a misère census of {games} codes to heap {}", self.max_heap)
    }

    /// The time each game gets.
    pub fn time(&self) -> Duration {
        Duration::from_secs(self.seconds)
    }

    /// When the worst case (every game runs out its time on `threads` threads) is over
    /// the usual limit and not `force`d: runs a pilot ([`MisereCensus::pilot`]) and
    /// returns its estimate and its final answers; else `None` (no pilot needed).
    pub fn estimate(
        &self,
        codes: &[String],
        threads: usize,
        force: bool,
    ) -> Result<Option<(f64, Vec<MisereCensusEntry>)>> {
        // Worst case: every game runs out its time. Most games settle or reach the size
        // limit far sooner, so when the worst case is over the limit a pilot (a spread
        // sample, a short time each) measures the typical game; its answers are kept.
        let worst = (codes.len() as u64 * self.seconds) as f64 / threads as f64;
        if force || check_seconds(&self.what(codes.len()), worst, false).is_ok() {
            return Ok(None);
        }
        self.pilot(codes, threads).map(Some)
    }

    /// Runs a spread sample of `codes` (a short time each), estimates the whole census
    /// from it, and refuses (one error with the estimate) when that is over the limit —
    /// as soon as the games charged so far already put it over. Returns the estimate in
    /// seconds and the sample's answers that are final (those not cut short).
    pub fn pilot(&self, codes: &[String], threads: usize) -> Result<(f64, Vec<MisereCensusEntry>)> {
        let what = self.what(codes.len());
        let cap = self.seconds.min(PILOT_SECONDS);
        let step = codes.len().div_ceil(PILOT_GAMES).max(1);
        let sample: Vec<String> = codes.iter().step_by(step).cloned().collect();
        // A game the pilot cut short is charged the mean of a time spread evenly on a log
        // scale between the pilot's cap and the census's limit: game times spread over
        // orders of magnitude, and charging every cut game the whole limit overestimates
        // a typical census several times.
        let cut = |e: &MisereCensusEntry| e.timed_out && cap < self.seconds;
        let (lo, hi) = (cap as f64, self.seconds as f64);
        let charge = if hi > lo {
            (hi - lo) / (hi / lo).ln()
        } else {
            hi
        };
        let cost = |e: &MisereCensusEntry| if cut(e) { charge } else { e.seconds };
        let scale = codes.len() as f64 / sample.len().max(1) as f64 / threads as f64;
        let found = Mutex::new((Vec::new(), 0.0f64));
        misere_census::run_while(
            &sample,
            self.base,
            self.max_heap,
            Duration::from_secs(cap),
            &|e| {
                let mut g = found.lock().expect("no panic while holding the lock");
                g.1 += cost(&e);
                g.0.push(e);
                check_seconds(&what, g.1 * scale, false).is_ok()
            },
        );
        let (found, charged) = found.into_inner().expect("no panic while holding the lock");
        // When the pilot stopped early, the games charged so far are already over the limit.
        let estimate = charged * scale;
        check_seconds(&what, estimate, false)?;
        Ok((estimate, found.into_iter().filter(|e| !cut(e)).collect()))
    }

    /// Solves `codes` in parallel, calling `done` with each entry as soon as it is found.
    pub fn run(&self, codes: &[String], done: &(dyn Fn(MisereCensusEntry) + Sync)) {
        misere_census::run(codes, self.base, self.max_heap, self.time(), done);
    }

    /// The line of the entry `e` of the code at census index `index`.
    pub fn line(&self, e: &MisereCensusEntry, index: usize) -> MisereCensusLine {
        MisereCensusLine {
            base: self.base,
            changes: e.changes.clone(),
            code: e.code.clone(),
            error: e.error.clone(),
            game: e.spec.clone(),
            index,
            last_change: e.last_change,
            max_heap: self.max_heap,
            p_size: e.p_size,
            size: e.size,
            status: if e.size.is_some() {
                "settled"
            } else {
                "unsettled"
            },
            tame: e.tame,
        }
    }
}

/// How many games of a census settled, and how many of those had no change in the
/// upper half of the heaps: the summary a census ends with.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MisereTally {
    /// Games whose quotient settled.
    pub settled: usize,
    /// Settled games whose last change is at most half the heap bound.
    pub stable: usize,
}

impl MisereTally {
    /// Counts the entry `e` of a census to heap `max_heap`.
    pub fn add(&mut self, e: &MisereCensusEntry, max_heap: u64) {
        if e.size.is_some() {
            self.settled += 1;
            if e.last_change.is_some_and(|c| c <= max_heap / 2) {
                self.stable += 1;
            }
        }
    }

    /// The summary of a census of `games` codes to heap `max_heap`, with the pilot's
    /// `estimate` in seconds when there was one.
    ///
    /// ```
    /// use nimlab_json::misere_census::MisereTally;
    /// let t = MisereTally { settled: 3, stable: 2 };
    /// assert_eq!(
    ///     t.summary(4, 30, None),
    ///     "3 of 4 codes settled to heap 30; 2 of them with no change after heap 15"
    /// );
    /// ```
    pub fn summary(&self, games: usize, max_heap: u64, estimate: Option<f64>) -> String {
        let estimated = estimate.map_or(String::new(), |s| {
            format!(" (estimated beforehand from a pilot: {s:.0} s)")
        });
        format!(
            "{} of {games} codes settled to heap {max_heap}; {} of them with no change after heap {}{estimated}",
            self.settled,
            self.stable,
            max_heap / 2
        )
    }
}

/// The census indices of `todo`'s codes, by code.
pub fn indices(todo: &[(usize, String)]) -> BTreeMap<String, usize> {
    todo.iter().map(|(i, c)| (c.clone(), *i)).collect()
}
