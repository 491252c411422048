//! Octal (take-and-break) games in Guy–Conway notation, and hexadecimal ones.
//!
//! The code `d0.d1d2d3…` says for each `k` what a move taking `k` beans from one heap
//! may leave: digit `d_k` is a sum of 1 (may take the whole heap, leaving nothing),
//! 2 (may leave one non-empty heap) and 4 (may leave two non-empty heaps). `0.137` is
//! Dawson's Chess, `0.07` Dawson's Kayles, `0.77` Kayles. The whole part `d0` is 0 or 4 (4: a heap may be split
//! in two without taking a bean, as in `4.07`). With `base=16` digits go up to `f`, the
//! bit 8 allowing three heaps (hexadecimal games).
//!
//! Positions are heaps: `n` is one heap, `n1,n2,…` is the sum of several heaps (its
//! value is the nim-sum of theirs). A move from one heap replaces it by the parts left.
//! Values come from the nim-sequence, computed by the rare/common method
//! ([`crate::takebreak`]); periods are certified by the Guy–Smith theorem.

use crate::takebreak::TakeBreak;
use nimlab_engine::big::{BigAnalysis, BigPosition, BigUint};
use nimlab_engine::capability::{BigPositions, Capabilities, Decomposition, SequenceKernel};
use nimlab_engine::periodicity::Periodicity;
use nimlab_engine::MemoryLimit;
use nimlab_engine::{Coord, Error, Game, Outcome, Progress, Result, TableOptions};
use num_traits::ToPrimitive;
use std::sync::{Arc, Mutex};

/// Heaps up to this size are left to the engine's brute force (which sums heaps).
const BRUTE_FORCE_HEAPS: u64 = 1000;
/// Largest heap whose value is computed term by term when no period is certified.
pub const SEQUENCE_LIMIT: u64 = 1 << 24;
/// How far certification searches when moves may leave three heaps (hexadecimal
/// digits ≥ 8), where each term costs O(n²).
pub const THREE_HEAP_CERTIFY_LIMIT: u64 = 1 << 11;
/// Largest heap computed term by term when moves may leave three heaps.
pub const THREE_HEAP_SEQUENCE_LIMIT: u64 = 1 << 12;
/// How far certification searches before giving up.
pub const CERTIFY_LIMIT: u64 = 1 << 20;
/// How far the period search goes for a heap beyond the computed sequence, when the
/// first search ([`CERTIFY_LIMIT`] terms) proved nothing: far enough for `.376`
/// (4.5·10^6 terms) and `.354` (2.0·10^7 terms); an unsolved code costs about two
/// minutes to reach it.
pub const ESCALATED_CERTIFY_LIMIT: u64 = 1 << 25;
/// Bytes a period search holds per term: the values, the slack of the growing vector,
/// the narrow copy the tiled kernel scans (3 bytes, where scans run long) and the
/// certificate's copy of the preperiod and block (measured: about 4 bytes a term
/// resident for an unsolved code with short scans, 6 for `.354`).
const SEARCH_BYTES_PER_TERM: u64 = 11;
/// Winning moves listed at most by the closed-form path.
const MAX_WINNING_MOVES: usize = 20;

/// A take-and-break game on heaps, with its canonical spec.
///
/// ```
/// use nimlab_engine::Solver;
/// use nimlab_octal::Octal;
/// let kayles = Octal::parse("0.77", 8).unwrap();
/// assert_eq!(kayles.spec_text(), "octal(code=0.77)");
/// assert_eq!(Solver::new(&kayles).grundy(&[11]).unwrap(), 6);
/// assert_eq!(Solver::new(&kayles).grundy(&[3, 5]).unwrap(), 3 ^ 4);
/// ```
#[derive(Debug, Clone)]
pub struct Octal {
    spec: String,
    rules: TakeBreak,
    /// The period searches done for big heaps, shared by clones: a query values a heap
    /// and then lists its winning moves, and a long search must run once.
    periods: Arc<Mutex<PeriodCache>>,
}

/// What the period searches of one game have found so far.
#[derive(Debug, Default)]
struct PeriodCache {
    /// The certified period, once proven.
    found: Option<Arc<Periodicity>>,
    /// The longest search that proved nothing (terms).
    searched: u64,
}

/// Split digits from which a code's search is estimated at its worst case (see
/// [`Octal::search_seconds`]): no census code has that many.
pub const MANY_SPLIT_DIGITS: usize = 8;
/// Split pairs (x, m − x) looked at a second when every heap looks at all its splits:
/// measured 4.6–7.3 · 10^8 on 0.77…7 (500 digits) to 4000–8000 terms.
pub const SPLIT_PAIRS_PER_SECOND: f64 = 5e8;
/// Terms within which a code with many split digits has its period looked for before
/// it is estimated at its worst case.
pub const PILOT_TERMS: u64 = 2048;

impl Octal {
    /// Parses an octal (`base` 8) or hexadecimal (`base` 16) code such as `0.137`,
    /// `.137` or `4.07`.
    pub fn parse(code: &str, base: u32) -> Result<Self> {
        let bad = |why: String| Error::input(format!("octal(code={}): {why}", shown(code)));
        if base != 8 && base != 16 {
            return Err(bad(format!("base must be 8 or 16, got {base}")));
        }
        let c = code.trim().to_ascii_lowercase();
        let (whole, frac) = match c.split_once('.') {
            Some((w, f)) => (w, f),
            None => (c.as_str(), ""),
        };
        let whole = if whole.is_empty() { "0" } else { whole };
        if whole.len() != 1 {
            return Err(bad(format!(
                "the whole part must be one digit (0 or 4), got '{whole}'"
            )));
        }
        let digit = |ch: char| -> Result<u8> {
            match ch.to_digit(base) {
                Some(d) => Ok(d as u8),
                None if base == 8 && ch.is_ascii_hexdigit() => Err(bad(format!(
                    "'{ch}' is not an octal digit (0–7); for hexadecimal games add base=16"
                ))),
                None => Err(bad(format!(
                    "'{ch}' is not {} digit",
                    if base == 8 {
                        "an octal"
                    } else {
                        "a hexadecimal"
                    }
                ))),
            }
        };
        let mut digits = vec![digit(whole.chars().next().expect("one char"))?];
        if digits[0] & 0b11 != 0 {
            return Err(bad(format!(
                "the whole part d0 = {} would allow taking no bean without splitting; \
                 it may only be {}",
                digits[0],
                if base == 8 { "0 or 4" } else { "0, 4, 8 or c" }
            )));
        }
        for ch in frac.chars() {
            digits.push(digit(ch)?);
        }
        let rules = TakeBreak::new(digits, false);
        if rules.digits().is_empty() {
            return Err(bad("the code allows no move (every digit is 0)".into()));
        }
        // Every digit, the whole part included, is printed as one digit of the base
        // (`c.1`, not `12.1`), so that the spec parses back to the same game.
        let text: String = rules
            .digits()
            .iter()
            .map(|&x| char::from_digit(x as u32, base).expect("digit below the base"))
            .collect();
        let (d0, rest) = text.split_at(1);
        let canonical = format!("{d0}.{}", if rest.is_empty() { "0" } else { rest });
        let spec = if base == 16 {
            format!("octal(code={canonical},base=16)")
        } else {
            format!("octal(code={canonical})")
        };
        Ok(Octal::from_rules(spec, rules))
    }

    /// A game from its rules and spec text (used by `grundy-game`).
    pub fn from_rules(spec: String, rules: TakeBreak) -> Self {
        Octal {
            spec,
            rules,
            periods: Arc::default(),
        }
    }

    /// The canonical spec, e.g. `octal(code=0.137)`.
    pub fn spec_text(&self) -> &str {
        &self.spec
    }

    /// The rules.
    pub fn rules(&self) -> &TakeBreak {
        &self.rules
    }

    /// G(0), …, G(len − 1): rare/common method, the certified period once proven.
    pub fn nim_sequence(&self, len: usize) -> Vec<u32> {
        self.rules.sequence(len)
    }

    /// Estimated CPU seconds to compute (or search for a period over) the first `terms`
    /// values — an upper bound: a search stops at its certificate. Splits into three
    /// heaps cost O(n²) a term (measured: 8.f to 4096 terms, 14 s); others at most
    /// about 4.3 µs a term (an unsolved code such as 0.6: 2^25 terms in 142 s).
    ///
    /// ```
    /// use nimlab_octal::Octal;
    /// let kayles = Octal::parse("0.77", 8).unwrap();
    /// assert!(kayles.search_seconds(1 << 20) < 10.0);
    /// let three_heaps = Octal::parse("8.f", 16).unwrap();
    /// assert!(three_heaps.search_seconds(1 << 16) > 3600.0);
    /// ```
    ///
    /// The 4.3 µs are measured on codes of a few digits, where the rare/common method
    /// keeps most heaps cheap. A code with [`MANY_SPLIT_DIGITS`] or more digits that
    /// split a heap is estimated at its worst case instead (every heap looks at every
    /// split of each sum: d·n²/4 pairs, [`SPLIT_PAIRS_PER_SECOND`]; a 500-digit code
    /// 0.77…7 takes 11 s to 8000 terms), unless its period is proven within
    /// [`PILOT_TERMS`] terms (looked for here, once, and remembered).
    ///
    /// ```
    /// use nimlab_octal::Octal;
    /// let long = Octal::parse(&format!("0.{}", "7".repeat(500)), 8).unwrap();
    /// assert!(long.search_seconds(100_000) > 600.0);
    /// assert!(long.search_seconds(10_000) < 600.0);
    /// let periodic = Octal::parse("0.77777777", 8).unwrap(); // Kayles-like: settles soon
    /// assert!(periodic.search_seconds(1 << 19) < 10.0);
    /// ```
    pub fn search_seconds(&self, terms: u64) -> f64 {
        let n = terms as f64;
        if self.rules.max_parts() > 2 {
            return 2.2e-10 * n * n * n;
        }
        let sparse = 4.3e-6 * n;
        let splits = self.rules.digits().iter().filter(|&&d| d & 4 != 0).count();
        if splits < MANY_SPLIT_DIGITS {
            return sparse;
        }
        if terms > PILOT_TERMS
            && !self.rules.distinct_parts()
            && self
                .certified_within(PILOT_TERMS, &nimlab_engine::NoProgress)
                .is_some()
        {
            // Proven early: the rest is copied from the period.
            return sparse;
        }
        sparse.max(splits as f64 * n * n / 4.0 / SPLIT_PAIRS_PER_SECOND)
    }

    /// The first `len` terms' answer from one period search to `len` terms: the period
    /// if it proves one (remembered, as [`Octal::certified_within`] does), else the
    /// terms; `None` if the search stopped short of `len` terms.
    fn sequence_or_period(&self, len: u64, progress: &dyn Progress) -> Option<(Values, String)> {
        if let Some(p) = self.certified_within(0, progress) {
            return Some(from_period(p));
        }
        let found = self.rules.search_period(len, progress);
        let mut cache = self.periods.lock().unwrap_or_else(|e| e.into_inner());
        match found.period {
            Some(p) => {
                let p = Arc::new(p);
                cache.found = Some(p.clone());
                Some(from_period(p))
            }
            None => {
                cache.searched = cache.searched.max(len);
                let mut values = found.values;
                (values.len() as u64 >= len).then(|| {
                    values.truncate(len as usize);
                    (Values::Sequence(values), SEQUENCE_METHOD.to_string())
                })
            }
        }
    }

    /// The period proven by the Guy–Smith theorem within `max_n` terms, remembered
    /// across calls (a longer search proves at least what a shorter one does).
    fn certified_within(&self, max_n: u64, progress: &dyn Progress) -> Option<Arc<Periodicity>> {
        {
            let cache = self.periods.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(p) = &cache.found {
                return Some(p.clone());
            }
            if cache.searched >= max_n {
                return None;
            }
        }
        let found = self
            .rules
            .certified_periodicity_with(max_n, progress)
            .map(Arc::new);
        let mut cache = self.periods.lock().unwrap_or_else(|e| e.into_inner());
        match &found {
            Some(p) => cache.found = Some(p.clone()),
            None => cache.searched = cache.searched.max(max_n),
        }
        found
    }
}

/// The digits of `game`'s take-and-break code (`digits[k]`: bit 1 may take `k` leaving
/// no heap, 2 one heap, 4 two, 8 three) when `game` is exactly that code's game — an
/// [`Octal`] offered as its sequence kernel, without Grundy's "unequal parts" rule:
/// periodicity certificates are written and re-checked from them. `None` for any other
/// game (a transform that drops the kernel, another family).
///
/// ```
/// use nimlab_octal::game::{code_digits, grundy_game, Octal};
/// assert_eq!(code_digits(&Octal::parse("0.77", 8).unwrap()), Some(vec![0, 7, 7]));
/// assert_eq!(code_digits(&grundy_game()), None);
/// ```
pub fn code_digits(game: &dyn Game) -> Option<Vec<u8>> {
    let octal = game
        .capabilities()
        .sequence?
        .as_any()?
        .downcast_ref::<Octal>()?;
    let rules = octal.rules();
    (!rules.distinct_parts()).then(|| rules.digits().to_vec())
}

impl Game for Octal {
    fn spec(&self) -> String {
        self.spec.clone()
    }
    fn dimension(&self) -> usize {
        1
    }
    fn form(&self) -> nimlab_engine::position::PositionForm {
        // Heaps split and vanish.
        nimlab_engine::position::PositionForm::heaps(false)
    }
    fn canonical(&self, pos: &[Coord]) -> Option<Vec<Coord>> {
        nimlab_engine::capability::canonical_heaps_of(pos)
    }
    fn simplified(&self, pos: &[Coord]) -> Option<Vec<Coord>> {
        // A heap without a move is the empty game: leave it out of memo keys.
        if pos.iter().all(|&h| self.rules.has_move(h)) {
            return self.canonical(pos);
        }
        let mut v: Vec<Coord> = pos
            .iter()
            .copied()
            .filter(|&h| self.rules.has_move(h))
            .collect();
        nimlab_engine::capability::canonical_heaps(&mut v);
        (v != pos).then_some(v)
    }
    fn capabilities(&self) -> Capabilities<'_> {
        Capabilities {
            big: Some(self),
            sequence: Some(self),
            decomposition: Some(Decomposition::Heaps),
            heap_multiset: true,
            ..Capabilities::none()
        }
    }
    fn rank(&self, pos: &[Coord]) -> u128 {
        TakeBreak::rank(pos)
    }
    fn coordinate_names(&self) -> Vec<String> {
        vec!["n".into()]
    }
    fn for_each_option(&self, pos: &[Coord], visit: &mut dyn FnMut(&[Coord])) {
        let mut next: Vec<Coord> = Vec::with_capacity(pos.len() + 2);
        for (j, &h) in pos.iter().enumerate() {
            if j > 0 && pos[j - 1] == h {
                continue; // the same moves as from the equal heap before it
            }
            self.rules.for_each_split(h, &mut |parts| {
                next.clear();
                next.extend_from_slice(&pos[..j]);
                next.extend_from_slice(parts);
                next.extend_from_slice(&pos[j + 1..]);
                if next.is_empty() {
                    next.push(0); // nothing left: the empty heap
                }
                visit(&next);
            });
        }
    }
}

impl SequenceKernel for Octal {
    fn sequence(&self, len: usize, limit: MemoryLimit) -> Result<Vec<u32>> {
        self.sequence_within(
            len,
            &TableOptions {
                memory_limit: limit,
                ..TableOptions::default()
            },
        )
    }
    fn sequence_within(&self, len: usize, opts: &TableOptions) -> Result<Vec<u32>> {
        // The values plus the rare/common bookkeeping: a few words a heap.
        opts.memory_limit.check(
            &format!("the first {len} values of {}", self.spec),
            (len as u64).saturating_mul(16),
        )?;
        Ok(self.rules.sequence_with(len, opts.progress))
    }
    fn as_any(&self) -> Option<&dyn std::any::Any> {
        Some(self)
    }
    fn work_seconds(&self, terms: u64) -> Option<f64> {
        Some(self.search_seconds(terms))
    }
    fn sequence_method(&self) -> String {
        "rare/common nim-sequence, copied from the Guy–Smith certified period once proven".into()
    }
    fn certified_periodicity(
        &self,
        max_n: u64,
        progress: &dyn nimlab_engine::Progress,
    ) -> Option<Result<Option<Periodicity>>> {
        if self.rules.distinct_parts() {
            return None;
        }
        Some(Ok(self.rules.certified_periodicity_with(max_n, progress)))
    }
}

impl BigPositions for Octal {
    fn analyse_big(&self, pos: &[BigUint]) -> Option<Result<BigAnalysis>> {
        self.analyse_big_within(pos, &TableOptions::default())
    }
    fn analyse_big_within(
        &self,
        pos: &[BigUint],
        opts: &TableOptions,
    ) -> Option<Result<BigAnalysis>> {
        let small = pos
            .iter()
            .all(|h| h.to_u64().is_some_and(|h| h <= BRUTE_FORCE_HEAPS));
        if small {
            return None;
        }
        Some(analyse_heaps(self, pos, opts, Reach::of(self)))
    }
    fn moves_to_value(&self, pos: &[BigUint], target: &BigUint) -> Option<Vec<BigPosition>> {
        let [h] = pos else { return None };
        let target = target.to_u32()?;
        // The period search behind the heap's value was remembered: no second search.
        let (values, _) = heap_values(self, h, &TableOptions::default(), Reach::of(self)).ok()?;
        let mut out = Vec::new();
        let all = winning_splits(self, &values, h, target, &mut |parts| {
            let mut next = parts;
            next.sort();
            if next.is_empty() {
                next.push(BigUint::default());
            }
            out.push(next);
            out.len() < MAX_WINNING_MOVES
        });
        all.then_some(out)
    }
}

/// G of any heap: from a certified period, or from the computed sequence.
enum Values {
    Periodic(Arc<Periodicity>),
    Sequence(Vec<u32>),
}

impl Values {
    fn of(&self, h: &BigUint) -> u32 {
        match self {
            Values::Sequence(g) => g[h.to_usize().expect("heap within the sequence")],
            Values::Periodic(p) => {
                let a = BigUint::from(p.preperiod);
                let i = if *h < a {
                    h.to_usize().expect("below the preperiod")
                } else {
                    let r = (h - &a) % BigUint::from(p.period);
                    (p.preperiod + r.to_u64().expect("remainder < period")) as usize
                };
                p.values[i]
            }
        }
    }
}

/// How far [`heap_values`] computes: the first period search, the heaps computed term
/// by term when it proves nothing, and the longer search for heaps beyond those.
#[derive(Debug, Clone, Copy)]
struct Reach {
    certify: u64,
    sequence: u64,
    escalated: u64,
}

impl Reach {
    fn of(game: &Octal) -> Self {
        if game.rules.max_parts() > 2 {
            // Moves that leave three heaps make each term cost O(n²): search less far,
            // compute term by term only up to a size that takes seconds, and never
            // escalate (2^12 more terms would take hours).
            Reach {
                certify: THREE_HEAP_CERTIFY_LIMIT,
                sequence: THREE_HEAP_SEQUENCE_LIMIT,
                escalated: THREE_HEAP_CERTIFY_LIMIT,
            }
        } else {
            Reach {
                certify: CERTIFY_LIMIT.min(SEQUENCE_LIMIT),
                sequence: SEQUENCE_LIMIT,
                escalated: ESCALATED_CERTIFY_LIMIT,
            }
        }
    }
}

/// A [`Progress`] that names the work its own way.
struct Labelled<'a> {
    inner: &'a dyn Progress,
    what: String,
}

impl Progress for Labelled<'_> {
    fn start(&self, total: u64, _what: &str) {
        self.inner.start(total, &self.what);
    }
    fn advance(&self, delta: u64) {
        self.inner.advance(delta);
    }
    fn finish(&self) {
        self.inner.finish();
    }
    fn cancelled(&self) -> bool {
        self.inner.cancelled()
    }
}

/// How a heap's value is found from the terms of the nim-sequence.
const SEQUENCE_METHOD: &str = "nim-sum of heap values from the rare/common nim-sequence";

fn from_sequence(game: &Octal, largest: u64, limit: MemoryLimit) -> Result<(Values, String)> {
    let values = SequenceKernel::sequence(game, largest as usize + 1, limit)?;
    Ok((Values::Sequence(values), SEQUENCE_METHOD.to_string()))
}

fn from_period(p: Arc<Periodicity>) -> (Values, String) {
    let m = format!(
        "nim-sum of heap values from the certified period {} (preperiod {})",
        p.period, p.preperiod
    );
    (Values::Periodic(p), m)
}

/// The values of heaps up to `largest`: the certified period, else the sequence. A
/// heap beyond the sequence escalates the period search (to `reach.escalated` terms,
/// as far as the memory limit allows), reporting the terms to `opts.progress`.
fn heap_values(
    game: &Octal,
    largest: &BigUint,
    opts: &TableOptions,
    reach: Reach,
) -> Result<(Values, String)> {
    let small = largest.to_u64();
    if let Some(h) = small.filter(|&h| h <= BRUTE_FORCE_HEAPS) {
        // Small heaps: the sequence up to the largest one, never a long search for a
        // certificate (three-heap splits make that search slow).
        return from_sequence(game, h, opts.memory_limit);
    }
    let heap = || nimlab_engine::big::abbreviate(&largest.to_str_radix(10));
    let within_sequence = small.filter(|&h| h < reach.sequence);
    if game.rules.distinct_parts() {
        // No certificate exists for unequal-parts rules (Grundy's game): don't search.
        return match within_sequence {
            Some(h) => from_sequence(game, h, opts.memory_limit),
            None => Err(Error::input(format!(
                "{}: heap {} is beyond the computed nim-sequence (< {}), and no period can \
                 be proven for this game (the Guy–Smith theorem needs parts that may be equal)",
                game.spec,
                heap(),
                reach.sequence
            ))),
        };
    }
    // As many terms as the memory limit holds; for a heap within the sequence, no more
    // terms than the heap needs: past them a game with no period (`.007`, `.6`) would
    // cost many times the answer (`.007`'s heap 2^18 − 1: 87 CPU s searching 2^20
    // terms, against 14 s for its 2^18 terms).
    let affordable = opts.memory_limit.bytes() / SEARCH_BYTES_PER_TERM;
    let first = reach.certify.min(affordable);
    if let Some(h) = within_sequence.filter(|&h| h < first) {
        // One search, to the heap: a period if it proves one there, else its terms.
        let progress = Labelled {
            inner: opts.progress,
            what: format!("terms of {}'s nim-sequence", game.spec),
        };
        if let Some(answer) = game.sequence_or_period(h + 1, &progress) {
            return Ok(answer);
        }
        return from_sequence(game, h, opts.memory_limit);
    }
    if let Some(p) = game.certified_within(first, &nimlab_engine::NoProgress) {
        return Ok(from_period(p));
    }
    if let Some(h) = within_sequence {
        return from_sequence(game, h, opts.memory_limit);
    }
    // Beyond the sequence only a period answers: search further.
    let far = reach.escalated.min(affordable);
    if far > first {
        let progress = Labelled {
            inner: opts.progress,
            what: format!(
                "terms of {}'s nim-sequence searched for a period (heap {})",
                game.spec,
                heap()
            ),
        };
        if let Some(p) = game.certified_within(far, &progress) {
            return Ok(from_period(p));
        }
    }
    if far < reach.escalated {
        return Err(Error::TooLarge {
            what: format!(
                "{}: heap {} is beyond the computed nim-sequence and no period is proven \
                 within {far} terms; searching up to {} terms",
                game.spec,
                heap(),
                reach.escalated
            ),
            needed: reach.escalated.saturating_mul(SEARCH_BYTES_PER_TERM),
            limit: opts.memory_limit.bytes(),
        });
    }
    let searched = if far > first {
        format!("searched {first} terms, then {far}")
    } else {
        "the most that splits into three heaps allow in seconds".to_string()
    };
    Err(Error::input(format!(
        "{}: heap {} is beyond the computed nim-sequence (< {}) and no period is proven \
         by the Guy–Smith theorem within the first {far} terms ({searched})",
        game.spec,
        heap(),
        reach.sequence
    )))
}

fn analyse_heaps(
    game: &Octal,
    pos: &[BigUint],
    opts: &TableOptions,
    reach: Reach,
) -> Result<BigAnalysis> {
    let largest = pos.iter().max().cloned().unwrap_or_default();
    let (values, method) = heap_values(game, &largest, opts, reach)?;
    let heap_values: Vec<u32> = pos.iter().map(|h| values.of(h)).collect();
    let total = heap_values.iter().fold(0, |a, &b| a ^ b);
    let mut winning = Vec::new();
    let mut exhaustive = true;
    if total != 0 {
        for (j, h) in pos.iter().enumerate() {
            let target = total ^ heap_values[j];
            exhaustive &= winning_splits(game, &values, h, target, &mut |parts| {
                let mut next: Vec<BigUint> = pos[..j].to_vec();
                next.extend(parts);
                next.extend_from_slice(&pos[j + 1..]);
                if next.is_empty() {
                    next.push(BigUint::default());
                }
                winning.push(next);
                winning.len() < MAX_WINNING_MOVES
            });
            if winning.len() >= MAX_WINNING_MOVES {
                exhaustive = false;
                break;
            }
        }
    }
    Ok(BigAnalysis {
        position: pos.to_vec(),
        grundy: Some(BigUint::from(total)),
        outcome: Outcome::of(total),
        winning_moves: winning,
        all_winning_moves: exhaustive,
        method,
    })
}

/// Calls `found` with the parts of moves from heap `h` to value `target` (stop when it
/// returns false). Returns whether every such move was listed. With a period `p` from
/// preperiod `a`, a split's smaller parts can be lowered by `p` (and the largest raised)
/// without changing values while they stay ≥ max(a, 1), so small parts suffice.
fn winning_splits(
    game: &Octal,
    values: &Values,
    h: &BigUint,
    target: u32,
    found: &mut dyn FnMut(Vec<BigUint>) -> bool,
) -> bool {
    let small_limit = match values {
        Values::Periodic(p) => Some(p.preperiod.max(1) + p.period),
        Values::Sequence(_) => None,
    };
    let mut exhaustive = true;
    for (k, &d) in game.rules.digits().iter().enumerate() {
        let k = BigUint::from(k as u64);
        if k > *h || d == 0 {
            continue;
        }
        let m = h - &k;
        let zero = BigUint::default();
        if d & 1 != 0 && m == zero && k > zero && target == 0 && !found(vec![]) {
            return false;
        }
        if d & 2 != 0 && m > zero && k > zero && values.of(&m) == target && !found(vec![m.clone()])
        {
            return false;
        }
        let m_small = m.to_u64();
        let bound = |limit: Option<u64>, cap: u64| match limit {
            Some(l) => l.min(cap),
            None => cap,
        };
        if d & 4 != 0 {
            let half = m_small.map_or(u64::MAX, |m| m / 2);
            let top = bound(small_limit, half);
            exhaustive &= small_limit.is_none() || top == half;
            for x in 1..=top {
                let y = &m - x;
                if game.rules.distinct_parts() && y == BigUint::from(x) {
                    continue;
                }
                if values.of(&BigUint::from(x)) ^ values.of(&y) == target
                    && !found(vec![BigUint::from(x), y])
                {
                    return false;
                }
            }
        }
        if d & 8 != 0 {
            let third = m_small.map_or(u64::MAX, |m| m / 3);
            let top = bound(small_limit, third);
            exhaustive = false;
            for x in 1..=top {
                let rest = &m - x;
                let half = rest.to_u64().map_or(u64::MAX, |r| r / 2);
                for y in x..=bound(small_limit, half) {
                    let z = &rest - y;
                    let v = values.of(&BigUint::from(x)) ^ values.of(&BigUint::from(y));
                    if v ^ values.of(&z) == target
                        && !found(vec![BigUint::from(x), BigUint::from(y), z])
                    {
                        return false;
                    }
                }
            }
        }
    }
    exhaustive
}

/// `text` as an error message shows it: control characters escaped, cut after 60
/// characters (the catalog's spec parser words its errors the same way).
fn shown(text: &str) -> String {
    nimlab_engine::error::shown(text)
}

/// The rules of Grundy's game: take 0 beans, leave two heaps, which must be unequal.
///
/// ```
/// assert!(nimlab_octal::game::grundy_game_rules().distinct_parts());
/// ```
pub fn grundy_game_rules() -> TakeBreak {
    TakeBreak::new(vec![4], true)
}

/// Grundy's game (split one heap into two unequal non-empty heaps) as a take-and-break
/// game: the catalog's `grundy-game`.
///
/// ```
/// use nimlab_engine::Solver;
/// let g = nimlab_octal::game::grundy_game();
/// // 0 0 0 1 0 2 1 0 2 1 (Winning Ways)
/// let seq: Vec<u32> = (0..10).map(|n| Solver::new(&g).grundy(&[n]).unwrap()).collect();
/// assert_eq!(seq, vec![0, 0, 0, 1, 0, 2, 1, 0, 2, 1]);
/// ```
pub fn grundy_game() -> Octal {
    Octal::from_rules("grundy-game".into(), grundy_game_rules())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_parse_and_print_canonically() {
        assert_eq!(
            Octal::parse(".137", 8).unwrap().spec_text(),
            "octal(code=0.137)"
        );
        assert_eq!(
            Octal::parse("4.070", 8).unwrap().spec_text(),
            "octal(code=4.07)"
        );
        assert_eq!(
            Octal::parse("0.F8", 16).unwrap().spec_text(),
            "octal(code=0.f8,base=16)"
        );
        for bad in ["0.8", "abc", "1.5", "0.000", "04.7", "0.1x", ""] {
            assert!(Octal::parse(bad, 8).is_err(), "{bad}");
        }
        assert!(Octal::parse("0.7", 10).is_err());
    }

    #[test]
    fn hexadecimal_whole_parts_print_canonically() {
        assert_eq!(
            Octal::parse("c.1", 16).unwrap().spec_text(),
            "octal(code=c.1,base=16)"
        );
    }

    #[test]
    fn sparse_agrees_with_naive_mex_on_20000_terms() {
        for code in ["0.137", "0.77", "0.07", "0.6", "4.7", "0.51"] {
            let g = Octal::parse(code, 8).unwrap();
            let naive = g.rules.naive_sequence(20_000);
            assert_eq!(g.rules.sparse_sequence(20_000), naive, "{code}");
            assert_eq!(g.nim_sequence(20_000), naive, "{code} with its period");
        }
    }

    #[test]
    fn sequence_agrees_with_engine_brute_force_over_heap_sums() {
        for (code, base) in [("0.137", 8), ("4.07", 8), ("0.f", 16), ("8.1", 16)] {
            let g = Octal::parse(code, base).unwrap();
            let table = nimlab_engine::grundy_table(&g, &[150], &Default::default()).unwrap();
            assert_eq!(table.values(), &g.nim_sequence(150)[..], "{code}");
            let mut solver = nimlab_engine::Solver::new(&g);
            let seq = g.nim_sequence(60);
            assert_eq!(
                solver.grundy(&[17, 23, 5]).unwrap(),
                seq[17] ^ seq[23] ^ seq[5]
            );
        }
    }

    #[test]
    fn big_heaps_use_the_certified_period() {
        let g = Octal::parse("0.77", 8).unwrap();
        let seq = g.nim_sequence(5000);
        let a = g.analyse_big(&[BigUint::from(4999u32)]).unwrap().unwrap();
        assert_eq!(a.grundy, Some(BigUint::from(seq[4999])));
        // A huge heap: 10^30 ≡ r (mod 12), far past the preperiod 71.
        let huge = BigUint::parse_bytes(b"1000000000000000000000000000000", 10).unwrap();
        let r = ((&huge - 72u32) % 12u32).to_u64().unwrap() as usize;
        let a = g.analyse_big(std::slice::from_ref(&huge)).unwrap().unwrap();
        assert_eq!(a.grundy, Some(BigUint::from(seq[72 + r])));
        // Every listed winning move really is one.
        for m in &a.winning_moves {
            let v = m.iter().fold(0, |acc, h| {
                let i = if *h < BigUint::from(72u32) {
                    h.to_usize().unwrap()
                } else {
                    72 + ((h - 72u32) % 12u32).to_usize().unwrap()
                };
                acc ^ seq[i]
            });
            assert_eq!(v, 0, "{m:?}");
        }
        assert_eq!(a.winning_moves.is_empty(), a.outcome == Outcome::P);
    }

    /// Counts the terms reported and remembers the label.
    #[derive(Default)]
    struct Counted {
        what: Mutex<String>,
        done: std::sync::atomic::AtomicU64,
    }

    impl Progress for Counted {
        fn start(&self, _total: u64, what: &str) {
            *self.what.lock().unwrap() = what.to_string();
        }
        fn advance(&self, delta: u64) {
            self.done
                .fetch_add(delta, std::sync::atomic::Ordering::Relaxed);
        }
    }

    #[test]
    fn sequences_report_their_progress() {
        // Grundy's game (no period to find) and Kayles (period found early): the
        // planner's sequence call reports the terms it computes.
        for (game, least) in [
            (grundy_game(), 6000),
            (Octal::parse("0.77", 8).unwrap(), 100),
        ] {
            let counted = Counted::default();
            let opts = TableOptions {
                progress: &counted,
                ..TableOptions::default()
            };
            let values = game.sequence_within(6000, &opts).unwrap();
            assert_eq!(values, game.rules().naive_sequence(6000));
            assert!(counted.done.load(std::sync::atomic::Ordering::Relaxed) >= least);
            assert_eq!(*counted.what.lock().unwrap(), "terms");
        }
    }

    // 0.156 proves its period only after about 8000 terms: with the reach scaled down,
    // the same escalation as .376 and .354 at full scale, fast enough for a debug test.
    const SMALL_REACH: Reach = Reach {
        certify: 1 << 10,
        sequence: 1 << 11,
        escalated: 1 << 14,
    };

    fn analyse(game: &Octal, pos: &[BigUint], opts: &TableOptions, reach: Reach) -> BigAnalysis {
        analyse_heaps(game, pos, opts, reach).unwrap()
    }

    #[test]
    fn a_heap_beyond_the_sequence_escalates_the_period_search() {
        let game = Octal::parse("0.156", 8).unwrap();
        let plain = game.rules.sparse_sequence(8192); // term by term, no period
        let counted = Counted::default();
        let opts = TableOptions {
            progress: &counted,
            ..Default::default()
        };
        // Heaps past the scaled-down sequence, inside the plain one: same values.
        for pos in [vec![5000u64], vec![2500, 7999, 4096], vec![8191, 2049]] {
            let big: Vec<BigUint> = pos.iter().map(|&h| BigUint::from(h)).collect();
            let a = analyse(&game, &big, &opts, SMALL_REACH);
            let want = pos.iter().fold(0, |acc, &h| acc ^ plain[h as usize]);
            assert_eq!(a.grundy, Some(BigUint::from(want)), "{pos:?}");
            assert!(a.method.contains("certified period"), "{}", a.method);
        }
        let what = counted.what.lock().unwrap().clone();
        assert!(what.contains("searched for a period"), "{what}");
        assert!(counted.done.load(std::sync::atomic::Ordering::Relaxed) >= 4096);
        // A huge heap: its value is the plain sequence's at the same place in the period.
        let huge = BigUint::parse_bytes(b"1000000000000000000000000000001", 10).unwrap();
        let per = game.periods.lock().unwrap().found.clone().unwrap();
        let (a0, p) = (per.preperiod, per.period);
        assert!(
            a0 + 2 * p < 8192,
            "the plain sequence covers a period after a"
        );
        let same = a0 + ((&huge - a0) % p).to_u64().unwrap();
        let a = analyse(&game, std::slice::from_ref(&huge), &opts, SMALL_REACH);
        assert_eq!(a.grundy, Some(BigUint::from(plain[same as usize])));
        // Its winning moves lead to value 0, by the plain sequence (parts reduced mod p).
        let reduce = |h: &BigUint| -> usize {
            match h.to_u64().filter(|&h| h < a0) {
                Some(h) => h as usize,
                None => (a0 + ((h - a0) % p).to_u64().unwrap()) as usize,
            }
        };
        for m in &a.winning_moves {
            assert_eq!(
                m.iter().fold(0, |acc, h| acc ^ plain[reduce(h)]),
                0,
                "{m:?}"
            );
        }
        assert_eq!(a.winning_moves.is_empty(), a.outcome == Outcome::P);
    }

    #[test]
    fn heaps_within_the_sequence_do_not_escalate() {
        let game = Octal::parse("0.156", 8).unwrap();
        let plain = game.rules.sparse_sequence(2048);
        let a = analyse(
            &game,
            &[BigUint::from(2047u32)],
            &TableOptions::default(),
            SMALL_REACH,
        );
        assert_eq!(a.grundy, Some(BigUint::from(plain[2047])));
        assert!(a.method.contains("nim-sequence"), "{}", a.method);
        assert!(game.periods.lock().unwrap().found.is_none());
    }

    #[test]
    fn no_period_within_the_escalated_search_names_how_far_it_searched() {
        let game = Octal::parse("0.156", 8).unwrap();
        let reach = Reach {
            certify: 1 << 8,
            sequence: 1 << 9,
            escalated: 1 << 10,
        };
        let huge = BigUint::parse_bytes(b"1000000000000000000000000000000", 10).unwrap();
        let err = analyse_heaps(
            &game,
            std::slice::from_ref(&huge),
            &TableOptions::default(),
            reach,
        )
        .unwrap_err()
        .to_string();
        assert!(err.contains("within the first 1024 terms"), "{err}");
        assert!(err.contains("10^30") || err.contains("1000000"), "{err}");
        // Under a memory limit the search stops early and says what it would need.
        let opts = TableOptions {
            memory_limit: MemoryLimit::new(600 * SEARCH_BYTES_PER_TERM),
            ..Default::default()
        };
        let fresh = Octal::parse("0.156", 8).unwrap();
        match analyse_heaps(&fresh, &[huge], &opts, SMALL_REACH) {
            Err(Error::TooLarge { what, needed, .. }) => {
                assert!(what.contains("within 600 terms"), "{what}");
                assert_eq!(needed, (1 << 14) * SEARCH_BYTES_PER_TERM);
            }
            other => panic!("{other:?}"),
        }
    }
}
