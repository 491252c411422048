//! Long nim-sequence runs that survive: a [`PeriodRun`] is the state of
//! [`TakeBreak::search_period`] between two chunks of terms. It can be stopped (a signal,
//! a time budget), written to a checkpoint and read back, and then continues exactly:
//! the terms are the game's values whatever the chunks, and the run's own choices (the
//! rare/common split, the lengths at which a period is looked for) are saved with it.
//!
//! **Checkpoint layout** (little-endian, version 2): the magic `NLTBRUN1`, the version,
//! the rules (digits, unequal-parts flag), `max_n` and the length aimed at, the terms
//! held as narrow as they fit (1, 2 or 4 bytes each), the split, the scan witnesses and
//! the mean scan length, the seconds spent on the run so far (a byte, 1 when known, and
//! an `f64`), then a 64-bit checksum of everything before it. The rare indices and the
//! narrow copies are rebuilt from the terms on reading. Version 1 (without the seconds)
//! is read too.
//!
//! ```
//! use nimlab_octal::takebreak::run::{PeriodRun, RunControl, RunOutcome};
//! use nimlab_octal::takebreak::TakeBreak;
//! use nimlab_engine::NoProgress;
//!
//! /// Stops once 20 000 terms are computed.
//! struct StopAt(usize);
//! impl RunControl for StopAt {
//!     fn stop(&mut self, terms: usize) -> bool { terms >= self.0 }
//! }
//! let rules = TakeBreak::new(vec![0, 6], false); // 0.6, unsolved
//! let mut run = PeriodRun::new(rules.clone(), 1 << 15);
//! let outcome = run.run(&NoProgress, &mut StopAt(20_000)).unwrap();
//! assert!(matches!(outcome, RunOutcome::Stopped));
//! let mut file = Vec::new();
//! run.write_to(&mut file).unwrap();
//! let mut resumed = PeriodRun::read_from(&mut &file[..]).unwrap();
//! let RunOutcome::Done(found) = resumed.run(&NoProgress, &mut StopAt(usize::MAX)).unwrap()
//! else { unreachable!() };
//! assert_eq!(found.values, rules.search_period(1 << 15, &NoProgress).values);
//! ```

use super::{guy_smith, max_value, PeriodSearch, SparseSequence, SparseSplit, TakeBreak};
use nimlab_engine::progress::Progress;
use nimlab_engine::{Error, Result};
use std::io::{Read, Write};

/// What a run asks between chunks of terms (a few thousand terms each, well under a
/// second): whether to stop, and whether to save a checkpoint.
pub trait RunControl {
    /// Whether to stop now, with `terms` computed; the run then returns
    /// [`RunOutcome::Stopped`] and can be saved and resumed.
    fn stop(&mut self, terms: usize) -> bool {
        let _ = terms;
        false
    }
    /// Called after each chunk: a checkpoint may be written here (every few minutes).
    fn after_chunk(&mut self, run: &mut PeriodRun) -> Result<()> {
        let _ = run;
        Ok(())
    }
}

/// A [`RunControl`] that never stops and saves nothing.
pub struct Uninterrupted;

impl RunControl for Uninterrupted {}

/// How a run ended.
#[derive(Debug)]
pub enum RunOutcome {
    /// A period was proven, or `max_n` terms were computed.
    Done(PeriodSearch),
    /// The control asked to stop; the run holds its state.
    Stopped,
}

/// The state of a period search between chunks (see the module docs).
pub struct PeriodRun {
    seq: SparseSequence,
    max_n: usize,
    /// The length at which the Guy–Smith test runs next.
    len: usize,
    /// Seconds spent on the run so far, as its caller counts them (CPU time, say),
    /// across resumes; unknown for a run read from a version-1 checkpoint.
    spent: Option<f64>,
}

/// Checkpoint magic and version.
const MAGIC: &[u8; 8] = b"NLTBRUN1";
const VERSION: u32 = 2;

impl PeriodRun {
    /// A run of [`TakeBreak::search_period`] for `rules` up to `max_n` terms.
    pub fn new(rules: TakeBreak, max_n: u64) -> Self {
        let max_n = max_n.min(usize::MAX as u64 / 8) as usize;
        PeriodRun {
            seq: SparseSequence::new(rules),
            max_n,
            len: 64usize.min(max_n.max(1)),
            spent: Some(0.0),
        }
    }

    /// Seconds spent on the run so far (as set by [`Self::set_spent_seconds`] and saved
    /// in its checkpoints), across resumes; `None` when read from a checkpoint of
    /// version 1, which did not hold them.
    pub fn spent_seconds(&self) -> Option<f64> {
        self.spent
    }

    /// Records the seconds spent on the run so far (written with its checkpoint).
    pub fn set_spent_seconds(&mut self, seconds: f64) {
        self.spent = Some(seconds.max(0.0));
    }

    /// The rules.
    pub fn rules(&self) -> &TakeBreak {
        &self.seq.rules
    }

    /// The bound on the terms.
    pub fn max_n(&self) -> u64 {
        self.max_n as u64
    }

    /// Raises (or lowers) the bound on the terms, e.g. to continue a resumed run further;
    /// never below the terms held.
    pub fn set_max_n(&mut self, max_n: u64) {
        let max_n = (max_n.min(usize::MAX as u64 / 8) as usize).max(self.terms());
        self.max_n = max_n;
        self.len = self.len.max(self.terms()).min(max_n).max(1);
    }

    /// The terms computed so far.
    pub fn values(&self) -> &[u32] {
        &self.seq.values
    }

    /// The rare/common split, how many heaps are rare (heap 0 left out) and the last
    /// rare heap with its value, so far.
    pub fn rare_figures(&self) -> (Option<SparseSplit>, usize, Option<(u64, u32)>) {
        let seq = &self.seq;
        let last = seq.rare.last().zip(seq.rare_values.last());
        (
            seq.split,
            seq.rare.len(),
            last.map(|(&r, &v)| (u64::from(r), v)),
        )
    }

    /// How many terms are computed.
    pub fn terms(&self) -> usize {
        self.seq.values.len()
    }

    /// Bytes a checkpoint of `terms` terms of values below `max_value` takes (about).
    pub fn checkpoint_bytes(terms: u64, max_value: u32) -> u64 {
        terms * width_of(max_value) as u64 + 4096
    }

    /// Computes until a period is proven or `max_n` terms are computed, asking `control`
    /// between chunks; reports the terms to `progress` (counting those already held).
    /// [`RunOutcome::Done`] takes the terms out of the run (it is spent then).
    pub fn run(
        &mut self,
        progress: &dyn Progress,
        control: &mut dyn RunControl,
    ) -> Result<RunOutcome> {
        let rules = self.seq.rules.clone();
        if rules.digits.is_empty() {
            return Ok(RunOutcome::Done(PeriodSearch {
                period: None,
                values: Vec::new(),
                split: None,
                rare_count: 0,
                max_value: 0,
                last_rare: None,
            }));
        }
        let t = rules.max_take();
        let h = rules.max_parts().max(1) as u64;
        progress.start(self.max_n as u64, "terms");
        progress.advance(self.terms() as u64);
        loop {
            if rules.max_parts() > 2 {
                if self.seq.values.len() < self.len {
                    let before = self.terms();
                    self.seq.values = rules.naive_sequence(self.len);
                    progress.advance((self.len - before) as u64);
                }
            } else {
                while self.seq.values.len() < self.len {
                    if control.stop(self.terms()) {
                        progress.finish();
                        return Ok(RunOutcome::Stopped);
                    }
                    let from = self.terms();
                    self.seq.extend_to(self.len.min(from + chunk(from)));
                    progress.advance((self.terms() - from) as u64);
                    control.after_chunk(self)?;
                }
            }
            let (found, wanted) = if rules.distinct_parts {
                (None, None)
            } else {
                guy_smith(&self.seq.values, t, h)
            };
            if found.is_some() || self.len >= self.max_n {
                progress.finish();
                let seq = &mut self.seq;
                let last_rare = seq
                    .rare
                    .last()
                    .zip(seq.rare_values.last())
                    .map(|(&r, &v)| (u64::from(r), v));
                return Ok(RunOutcome::Done(PeriodSearch {
                    period: found,
                    split: seq.split,
                    rare_count: seq.rare.len(),
                    max_value: max_value(&seq.values),
                    last_rare,
                    // Moved out, not copied (2^28 terms are 1 GiB): the run is spent.
                    values: std::mem::take(&mut self.seq.values),
                }));
            }
            // Towards the length a candidate period needs, at least 1/16 more, at most
            // twice as many terms.
            let len = self.len;
            let next = match wanted {
                Some(w) => (w as usize).clamp(len + len / 16 + 1, 2 * len),
                None => 2 * len,
            };
            self.len = next.min(self.max_n);
        }
    }

    /// Writes the checkpoint (see the module docs) to `out`, in blocks: no copy of the
    /// terms is made.
    pub fn write_to(&self, out: &mut dyn Write) -> std::io::Result<()> {
        let mut w = Hashed {
            out,
            sum: Checksum::default(),
        };
        let seq = &self.seq;
        w.put(MAGIC)?;
        w.put(&VERSION.to_le_bytes())?;
        w.put(&(seq.rules.digits.len() as u32).to_le_bytes())?;
        w.put(&seq.rules.digits)?;
        w.put(&[seq.rules.distinct_parts as u8])?;
        w.put(&(self.max_n as u64).to_le_bytes())?;
        w.put(&(self.len as u64).to_le_bytes())?;
        let width = width_of(max_value(&seq.values));
        w.put(&(seq.values.len() as u64).to_le_bytes())?;
        w.put(&[width as u8])?;
        let mut block = Vec::with_capacity(1 << 16);
        for part in seq.values.chunks((1 << 16) / width) {
            block.clear();
            for &v in part {
                block.extend_from_slice(&v.to_le_bytes()[..width]);
            }
            w.put(&block)?;
        }
        match seq.split {
            Some(s) => {
                w.put(&[1])?;
                w.put(&s.cleared.to_le_bytes())?;
                w.put(&[s.domain as u8])?;
                w.put(&s.rare_class.to_le_bytes())?;
            }
            None => w.put(&[0; 10])?,
        }
        w.put(&(seq.witnesses.len() as u32).to_le_bytes())?;
        for &x in &seq.witnesses {
            w.put(&(x as u64).to_le_bytes())?;
        }
        w.put(&(seq.witness_slot as u64).to_le_bytes())?;
        w.put(&seq.mean_scan.to_bits().to_le_bytes())?;
        w.put(&[u8::from(self.spent.is_some())])?;
        w.put(&self.spent.unwrap_or(0.0).to_bits().to_le_bytes())?;
        let sum = w.sum.finish();
        w.out.write_all(&sum.to_le_bytes())
    }

    /// Reads a checkpoint written by [`PeriodRun::write_to`]; a damaged, truncated or
    /// foreign file is an input error naming what is wrong.
    pub fn read_from(input: &mut dyn Read) -> Result<Self> {
        let mut r = Reader {
            input,
            sum: Checksum::default(),
        };
        let version = r.version()?;
        let rules = r.rules()?;
        let max_n = r.u64()?;
        let len = r.u64()?;
        let terms = r.u64()?;
        let width = r.u8()? as usize;
        if ![1, 2, 4].contains(&width) || terms > len || len > max_n.max(1) || max_n > 1 << 40 {
            return Err(Error::input("checkpoint: malformed header"));
        }
        let values = r.values(terms as usize, width)?;
        let split = r.split()?;
        let witnesses = r.witnesses()?;
        let witness_slot = r.u64()? as usize;
        let mean_scan = f64::from_bits(r.u64()?);
        let spent = if version >= 2 { r.spent()? } else { None };
        r.check_sum()?;
        if witnesses.iter().any(|&x| x >= values.len().max(1))
            || witness_slot >= super::WITNESSES
            || split.is_some_and(|s| s.rare_class > 1)
            || (split.is_some() && values.len() < super::PREFIX)
        {
            return Err(Error::input("checkpoint: inconsistent state"));
        }
        let mut seq = SparseSequence::new(rules);
        seq.max = max_value(&values);
        if let Some(s) = split {
            for (i, &v) in values.iter().enumerate().skip(1) {
                if s.class(i, v) == s.rare_class {
                    seq.rare.push(i as u32);
                    seq.rare_values.push(v);
                }
            }
        }
        seq.split = split;
        seq.values = values;
        seq.witnesses = witnesses;
        seq.witness_slot = witness_slot;
        seq.mean_scan = mean_scan;
        Ok(PeriodRun {
            seq,
            max_n: max_n as usize,
            len: len as usize,
            spent,
        })
    }
}

/// Terms per chunk: short early (the prefix, quick stops in tests), a multiple of
/// the tile length later, under a second of work.
fn chunk(from: usize) -> usize {
    (from / 8).clamp(1 << 12, 1 << 16) & !255
}

/// Bytes per term in a checkpoint.
fn width_of(max: u32) -> usize {
    if max < 1 << 8 {
        1
    } else if max < 1 << 16 {
        2
    } else {
        4
    }
}

/// A 64-bit checksum of a byte stream, 8 bytes at a time (multiply–rotate mixing):
/// it detects damage, it is not a cryptographic hash.
#[derive(Default)]
struct Checksum {
    state: u64,
    pending: [u8; 8],
    held: usize,
    total: u64,
}

impl Checksum {
    fn word(&mut self, w: u64) {
        self.state = (self.state ^ w)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .rotate_left(29)
            .wrapping_add(0x632B_E59B_D9B4_E019);
    }
    fn update(&mut self, mut bytes: &[u8]) {
        self.total += bytes.len() as u64;
        while self.held > 0 && !bytes.is_empty() {
            self.pending[self.held] = bytes[0];
            self.held = (self.held + 1) % 8;
            bytes = &bytes[1..];
            if self.held == 0 {
                self.word(u64::from_le_bytes(self.pending));
            }
        }
        let mut words = bytes.chunks_exact(8);
        for w in &mut words {
            self.word(u64::from_le_bytes(w.try_into().expect("8 bytes")));
        }
        for &b in words.remainder() {
            self.pending[self.held] = b;
            self.held += 1;
        }
    }
    fn finish(&self) -> u64 {
        let mut c = Checksum {
            state: self.state,
            ..Default::default()
        };
        let mut last = [0u8; 8];
        last[..self.held].copy_from_slice(&self.pending[..self.held]);
        c.word(u64::from_le_bytes(last));
        c.word(self.total);
        c.state
    }
}

struct Hashed<'a> {
    out: &'a mut dyn Write,
    sum: Checksum,
}

impl Hashed<'_> {
    fn put(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.sum.update(bytes);
        self.out.write_all(bytes)
    }
}

struct Reader<'a> {
    input: &'a mut dyn Read,
    sum: Checksum,
}

impl Reader<'_> {
    fn get(&mut self, buf: &mut [u8]) -> Result<()> {
        self.input.read_exact(buf).map_err(|e| match e.kind() {
            std::io::ErrorKind::UnexpectedEof => Error::input("checkpoint: truncated"),
            _ => Error::io("cannot read the checkpoint", e),
        })?;
        self.sum.update(buf);
        Ok(())
    }
    fn u8(&mut self) -> Result<u8> {
        let mut b = [0u8; 1];
        self.get(&mut b)?;
        Ok(b[0])
    }
    fn u32(&mut self) -> Result<u32> {
        let mut b = [0u8; 4];
        self.get(&mut b)?;
        Ok(u32::from_le_bytes(b))
    }
    fn u64(&mut self) -> Result<u64> {
        let mut b = [0u8; 8];
        self.get(&mut b)?;
        Ok(u64::from_le_bytes(b))
    }

    /// The magic and the version (1 or [`VERSION`]).
    fn version(&mut self) -> Result<u32> {
        let mut magic = [0u8; 8];
        self.get(&mut magic)?;
        if &magic != MAGIC {
            return Err(Error::input("not a nimlab checkpoint (wrong magic)"));
        }
        let version = self.u32()?;
        if version != VERSION && version != 1 {
            return Err(Error::input(format!(
                "checkpoint version {version}, this nimlab reads versions 1 to {VERSION}"
            )));
        }
        Ok(version)
    }

    /// The rules: the code's digits and whether parts must be unequal.
    fn rules(&mut self) -> Result<TakeBreak> {
        let ndigits = self.u32()? as usize;
        if ndigits > 4096 {
            return Err(Error::input("checkpoint: implausible rules"));
        }
        let mut digits = vec![0u8; ndigits];
        self.get(&mut digits)?;
        let distinct = self.u8()? != 0;
        let rules = TakeBreak::new(digits.clone(), distinct);
        if rules.digits != digits || digits.is_empty() {
            return Err(Error::input("checkpoint: malformed rules"));
        }
        Ok(rules)
    }

    /// `terms` values of `width` bytes each, read in blocks so that a short file fails
    /// before much is allocated.
    fn values(&mut self, terms: usize, width: usize) -> Result<Vec<u32>> {
        let mut values: Vec<u32> = Vec::new();
        let mut block = vec![0u8; 1 << 16];
        let mut left = terms;
        while left > 0 {
            let count = left.min(block.len() / width);
            let bytes = &mut block[..count * width];
            self.get(bytes)?;
            values.extend(bytes.chunks_exact(width).map(|c| {
                let mut b = [0u8; 4];
                b[..width].copy_from_slice(c);
                u32::from_le_bytes(b)
            }));
            left -= count;
        }
        Ok(values)
    }

    /// The rare/common split, if one was chosen (its nine bytes are there either way).
    fn split(&mut self) -> Result<Option<SparseSplit>> {
        Ok(match self.u8()? {
            1 => Some(SparseSplit {
                cleared: self.u32()?,
                domain: self.u8()? != 0,
                rare_class: self.u32()?,
            }),
            0 => {
                let mut rest = [0u8; 9];
                self.get(&mut rest)?;
                None
            }
            _ => return Err(Error::input("checkpoint: malformed split")),
        })
    }

    /// The witnesses of recent long scans.
    fn witnesses(&mut self) -> Result<Vec<usize>> {
        let count = self.u32()? as usize;
        if count > super::WITNESSES {
            return Err(Error::input("checkpoint: malformed witnesses"));
        }
        let mut witnesses = Vec::with_capacity(count);
        for _ in 0..count {
            witnesses.push(self.u64()? as usize);
        }
        Ok(witnesses)
    }

    /// The CPU seconds spent before (version 2 on), if known.
    fn spent(&mut self) -> Result<Option<f64>> {
        let known = self.u8()?;
        let seconds = f64::from_bits(self.u64()?);
        match known {
            0 => Ok(None),
            1 if seconds.is_finite() && seconds >= 0.0 => Ok(Some(seconds)),
            _ => Err(Error::input("checkpoint: malformed seconds spent")),
        }
    }

    /// The stored checksum against the bytes read, and nothing after it.
    fn check_sum(&mut self) -> Result<()> {
        let expected = self.sum.finish();
        let mut stored = [0u8; 8];
        self.input
            .read_exact(&mut stored)
            .map_err(|_| Error::input("checkpoint: truncated (no checksum)"))?;
        if u64::from_le_bytes(stored) != expected {
            return Err(Error::input("checkpoint: checksum mismatch (damaged file)"));
        }
        if self.input.read(&mut [0u8; 1]).unwrap_or(0) != 0 {
            return Err(Error::input("checkpoint: data after the checksum"));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nimlab_engine::progress::NoProgress;

    /// Stops at pseudo-random chunk boundaries (about one chunk in `every`).
    struct RandomStops {
        state: u64,
        every: u64,
    }

    impl RunControl for RandomStops {
        fn stop(&mut self, _terms: usize) -> bool {
            self.state ^= self.state << 13;
            self.state ^= self.state >> 7;
            self.state ^= self.state << 17;
            self.state.is_multiple_of(self.every)
        }
    }

    /// Runs to the end, stopping at random points; each stop goes through a checkpoint
    /// written and read back. Returns the result and how many stops there were.
    fn interrupted(rules: &TakeBreak, max_n: u64, seed: u64) -> (PeriodSearch, usize) {
        let mut run = PeriodRun::new(rules.clone(), max_n);
        let mut control = RandomStops {
            state: seed | 1,
            every: 3,
        };
        let mut stops = 0;
        loop {
            match run.run(&NoProgress, &mut control).unwrap() {
                RunOutcome::Done(found) => return (found, stops),
                RunOutcome::Stopped => {
                    stops += 1;
                    let mut file = Vec::new();
                    run.write_to(&mut file).unwrap();
                    run = PeriodRun::read_from(&mut &file[..]).unwrap();
                }
            }
        }
    }

    #[test]
    fn resumed_runs_equal_uninterrupted_ones() {
        // Grundy's game and 0.6 (unsolved, tiles), 0.376 (a period proven after a
        // long preperiod: the Guy–Smith lengths must survive), 0.16, 0.142.
        for (rules, max_n) in [
            (TakeBreak::new(vec![4], true), 40_000u64),
            (TakeBreak::new(vec![0, 6], false), 40_000),
            (TakeBreak::new(vec![0, 3, 7, 6], false), 1 << 16),
            (TakeBreak::new(vec![0, 1, 6], false), 30_000),
            // 0.142: the split changes at heap 16 384 (see `recheck_split`).
            (TakeBreak::new(vec![0, 1, 4, 2], false), 40_000),
        ] {
            let whole = rules.search_period(max_n, &NoProgress);
            let naive = rules.naive_sequence(whole.values.len().min(20_000));
            assert_eq!(&whole.values[..naive.len()], &naive[..]);
            // Two interruption patterns by default, three with NIMLAB_LONG.
            let seeds: &[u64] = if std::env::var_os("NIMLAB_LONG").is_some() {
                &[1, 0x5eed, 977]
            } else {
                &[1, 0x5eed]
            };
            for &seed in seeds {
                let (resumed, stops) = interrupted(&rules, max_n, seed);
                assert!(stops >= 2, "{:?}: only {stops} stops", rules.digits());
                assert_eq!(resumed.values, whole.values, "{:?}", rules.digits());
                assert_eq!(resumed.split, whole.split);
                assert_eq!(resumed.rare_count, whole.rare_count);
                assert_eq!(resumed.last_rare, whole.last_rare);
                assert_eq!(
                    resumed.period.as_ref().map(|p| (p.preperiod, p.period)),
                    whole.period.as_ref().map(|p| (p.preperiod, p.period))
                );
            }
        }
    }

    /// A run of 0.6 to 2^14 terms stopped halfway.
    fn half_run() -> PeriodRun {
        let rules = TakeBreak::new(vec![0, 6], false);
        let mut run = PeriodRun::new(rules, 1 << 14);
        struct Half;
        impl RunControl for Half {
            fn stop(&mut self, terms: usize) -> bool {
                terms >= 8192
            }
        }
        assert!(matches!(
            run.run(&NoProgress, &mut Half).unwrap(),
            RunOutcome::Stopped
        ));
        run
    }

    #[test]
    fn damaged_checkpoints_are_refused() {
        let run = half_run();
        let mut file = Vec::new();
        run.write_to(&mut file).unwrap();
        assert!(PeriodRun::read_from(&mut &file[..]).is_ok());
        // Every byte flipped in turn (a sample), truncations, extra data.
        for i in (0..file.len()).step_by(97).chain([0, 8, file.len() - 1]) {
            let mut bad = file.clone();
            bad[i] ^= 0x20;
            assert!(PeriodRun::read_from(&mut &bad[..]).is_err(), "byte {i}");
        }
        for cut in [0, 7, 20, file.len() / 2, file.len() - 1] {
            assert!(
                PeriodRun::read_from(&mut &file[..cut]).is_err(),
                "cut {cut}"
            );
        }
        let mut longer = file.clone();
        longer.push(0);
        assert!(PeriodRun::read_from(&mut &longer[..]).is_err());
    }

    #[test]
    fn spent_seconds_survive_and_version_1_is_read() {
        let mut run = half_run();
        assert_eq!(run.spent_seconds(), Some(0.0));
        run.set_spent_seconds(12.5);
        let mut file = Vec::new();
        run.write_to(&mut file).unwrap();
        let back = PeriodRun::read_from(&mut &file[..]).unwrap();
        assert_eq!(back.spent_seconds(), Some(12.5));
        assert_eq!(back.values(), run.values());
        // The same checkpoint as version 1 wrote it: no seconds, its own checksum.
        let body = file.len() - 8 - 9;
        let mut old = file[..body].to_vec();
        old[8..12].copy_from_slice(&1u32.to_le_bytes());
        let mut sum = Checksum::default();
        sum.update(&old);
        old.extend_from_slice(&sum.finish().to_le_bytes());
        let v1 = PeriodRun::read_from(&mut &old[..]).unwrap();
        assert_eq!(v1.spent_seconds(), None);
        assert_eq!(v1.values(), run.values());
        // A third version is refused, naming it.
        let mut v3 = file.clone();
        v3[8..12].copy_from_slice(&3u32.to_le_bytes());
        let err = PeriodRun::read_from(&mut &v3[..]).err().expect("refused");
        assert!(err.to_string().contains("version 3"), "{err}");
    }

    #[test]
    fn values_are_stored_narrow() {
        assert_eq!(width_of(255), 1);
        assert_eq!(width_of(256), 2);
        assert_eq!(width_of(70_000), 4);
        let rules = TakeBreak::new(vec![0, 7, 7], false);
        let mut run = PeriodRun::new(rules, 1 << 12);
        run.run(&NoProgress, &mut Uninterrupted).unwrap();
        let mut file = Vec::new();
        run.write_to(&mut file).unwrap();
        assert!(file.len() < run.terms() + 200, "{} bytes", file.len());
    }
}
