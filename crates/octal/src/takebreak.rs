//! Take-and-break games on heaps: the rule description, the naive nim-sequence, the
//! rare/common ("sparse space") nim-sequence and the Guy–Smith periodicity certificate.
//!
//! A move takes `k` beans from one heap and leaves the rest as 0, 1, 2 or 3 non-empty
//! heaps, as the rules allow for that `k` (octal and hexadecimal codes describe exactly
//! this; Grundy's game adds "the parts must be unequal"). A position of several heaps is
//! their disjunctive sum, so its value is the nim-sum of the heaps' values and the whole
//! game is known from its *nim-sequence* G(0), G(1), ….
//!
//! **Sparse space.** Fix a mask `m` (an infinite bitstring, the complement of a small
//! number `b`) and a domain flag `s`. Call index `i` *rare* when
//! `parity(G(i) & m) ⊕ s·(i mod 2)` equals the rare class `ρ`. A split `x + y = M` with
//! one rare and one common part has a value of parity `1 ⊕ s·(M mod 2)`, while a split
//! with both parts in the same class has parity `s·(M mod 2)`. So the option values of
//! the first parity come *only* from splits with a rare part, found by walking the
//! short list of rare indices; only values of the other parity need the long scan over
//! all splits, and that scan stops as soon as every such value below the answer is hit.
//! The result is exact whatever the mask (a bad mask is only slower); the mask is picked
//! on a naive prefix as the one with the fewest rare indices (Berlekamp's phenomenon,
//! Winning Ways ch. 4 "Sparse space spells speed"; Flammenkamp's tables), and looked at
//! again at each power of two, since value bits that appear later may need clearing too.

use crate::split_scan::{self, ByteSet};
use nimlab_engine::periodicity::Periodicity;
use std::sync::atomic::{AtomicUsize, Ordering};

mod dense;
pub mod run;

/// The most heaps one move may leave (hexadecimal codes go up to 3).
pub const MAX_PARTS: u32 = 3;

/// The rules of a take-and-break game on heaps.
///
/// `digits[k]` says what taking `k` beans may leave: bit `2^j` set means "may leave
/// exactly `j` non-empty heaps" (`j` = 0, 1, 2, 3), as in octal/hexadecimal codes.
///
/// ```
/// use nimlab_octal::takebreak::TakeBreak;
/// // Kayles (0.77): take 1 or 2 beans, leaving 0, 1 or 2 heaps.
/// let kayles = TakeBreak::new(vec![0, 7, 7], false);
/// let g = kayles.sparse_sequence(13);
/// assert_eq!(g, vec![0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4]);
/// assert_eq!(g, kayles.naive_sequence(13));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TakeBreak {
    digits: Vec<u8>,
    distinct_parts: bool,
}

impl TakeBreak {
    /// Rules from `digits` (trailing zeros are dropped; bits above `2^3` are ignored) and
    /// whether the parts a move leaves must be pairwise unequal (Grundy's game).
    pub fn new(mut digits: Vec<u8>, distinct_parts: bool) -> Self {
        for d in digits.iter_mut() {
            *d &= 0b1111;
        }
        while digits.last() == Some(&0) {
            digits.pop();
        }
        TakeBreak {
            digits,
            distinct_parts,
        }
    }

    /// `digits[k]` as given (without trailing zeros).
    pub fn digits(&self) -> &[u8] {
        &self.digits
    }

    /// Whether parts must be pairwise unequal.
    pub fn distinct_parts(&self) -> bool {
        self.distinct_parts
    }

    /// The largest number of beans a move may take (`t` of the periodicity theorem).
    pub fn max_take(&self) -> u64 {
        self.digits.len().saturating_sub(1) as u64
    }

    /// The most heaps a move may leave.
    pub fn max_parts(&self) -> u32 {
        self.digits
            .iter()
            .map(|&d| if d == 0 { 0 } else { 7 - d.leading_zeros() })
            .max()
            .unwrap_or(0)
    }

    /// A measure that every move lowers, even a split that takes nothing (`4.07`):
    /// the sum over heaps of `2h − 1` (empty heaps count 0).
    ///
    /// ```
    /// use nimlab_octal::takebreak::TakeBreak;
    /// assert!(TakeBreak::rank(&[3, 4]) < TakeBreak::rank(&[7]));
    /// ```
    pub fn rank(heaps: &[u64]) -> u128 {
        heaps
            .iter()
            .map(|&h| if h == 0 { 0 } else { 2 * h as u128 - 1 })
            .sum()
    }

    /// Whether a heap of size `n` has a move ([`TakeBreak::for_each_split`] visits
    /// something), in time independent of `n`.
    ///
    /// ```
    /// use nimlab_octal::takebreak::TakeBreak;
    /// let g = TakeBreak::new(vec![4, 0, 7], false); // 4.07: a heap of one is dead
    /// assert!(!g.has_move(1));
    /// assert!(g.has_move(2) && g.has_move(3));
    /// ```
    pub fn has_move(&self, n: u64) -> bool {
        self.digits.iter().enumerate().any(|(k, &d)| {
            let k = k as u64;
            if k > n || d == 0 {
                return false;
            }
            let m = n - k;
            (d & 1 != 0 && m == 0 && k > 0)
                || (d & 2 != 0 && m >= 1 && k > 0)
                || (d & 4 != 0 && m >= if self.distinct_parts { 3 } else { 2 })
                || (d & 8 != 0 && m >= if self.distinct_parts { 6 } else { 3 })
        })
    }

    /// Calls `visit` with the parts left by each move from one heap of size `n`: `[]`
    /// when the heap is taken whole, else 1–3 non-empty parts in increasing order.
    ///
    /// ```
    /// use nimlab_octal::takebreak::TakeBreak;
    /// let dawson = TakeBreak::new(vec![0, 1, 3, 7], false); // 0.137
    /// let mut opts = Vec::new();
    /// dawson.for_each_split(4, &mut |p| opts.push(p.to_vec()));
    /// assert_eq!(opts, vec![vec![2], vec![1]]);
    /// ```
    pub fn for_each_split(&self, n: u64, visit: &mut dyn FnMut(&[u64])) {
        for (k, &d) in self.digits.iter().enumerate() {
            let k = k as u64;
            if k > n || d == 0 {
                continue;
            }
            let m = n - k;
            if d & 1 != 0 && m == 0 && k > 0 {
                visit(&[]);
            }
            if d & 2 != 0 && m >= 1 && k > 0 {
                visit(&[m]);
            }
            if d & 4 != 0 {
                for x in 1..=m / 2 {
                    if !(self.distinct_parts && 2 * x == m) {
                        visit(&[x, m - x]);
                    }
                }
            }
            if d & 8 != 0 {
                for x in 1..=m / 3 {
                    for y in x..=(m - x) / 2 {
                        let z = m - x - y;
                        if !(self.distinct_parts && (x == y || y == z)) {
                            visit(&[x, y, z]);
                        }
                    }
                }
            }
        }
    }

    /// G(0), …, G(len − 1) by the plain mex over every split: the oracle the fast
    /// method is tested against. O(len²) for splits into two heaps.
    pub fn naive_sequence(&self, len: usize) -> Vec<u32> {
        let mut g: Vec<u32> = Vec::with_capacity(len);
        let mut hit = ValueSet::default();
        let mut max = 0;
        for n in 0..len as u64 {
            hit.clear(max);
            self.for_each_split(n, &mut |parts| {
                hit.insert(parts.iter().fold(0, |v, &p| v ^ g[p as usize]));
            });
            let v = hit.mex();
            max = max.max(v);
            g.push(v);
        }
        g
    }

    /// G(0), …, G(len − 1) by the rare/common method (see the module docs). Rules that
    /// may leave three heaps fall back to [`TakeBreak::naive_sequence`].
    pub fn sparse_sequence(&self, len: usize) -> Vec<u32> {
        if self.max_parts() > 2 {
            return self.naive_sequence(len);
        }
        let mut s = SparseSequence::new(self.clone());
        s.extend_to(len);
        s.values
    }

    /// G(0), …, G(len − 1) by the fastest exact way: while computing (rare/common
    /// method), look for a Guy–Smith certificate; once the period is proven, the rest
    /// of the sequence is the period repeated.
    ///
    /// ```
    /// use nimlab_octal::takebreak::TakeBreak;
    /// let dawson = TakeBreak::new(vec![0, 1, 3, 7], false); // 0.137
    /// let g = dawson.sequence(1 << 20); // certified at n < 256, then repeated
    /// assert_eq!(g[(1 << 20) - 1], g[(1 << 20) - 1 - 34 * 1000]);
    /// assert_eq!(&g[..3000], &dawson.naive_sequence(3000)[..]);
    /// ```
    pub fn sequence(&self, len: usize) -> Vec<u32> {
        self.sequence_with(len, &nimlab_engine::progress::NoProgress)
    }

    /// As [`TakeBreak::sequence`], reporting the terms computed to `progress`.
    pub fn sequence_with(
        &self,
        len: usize,
        progress: &dyn nimlab_engine::progress::Progress,
    ) -> Vec<u32> {
        let (per, mut values) = self.certify_within(len as u64, progress);
        match per {
            Some(per) => {
                values.truncate(len);
                let from = values.len();
                values.extend((from..len).map(|n| {
                    let r = (n as u64 - per.preperiod) % per.period;
                    per.values[(per.preperiod + r) as usize]
                }));
                values
            }
            None => {
                if values.len() < len {
                    values = self.sparse_sequence(len);
                }
                values
            }
        }
    }

    /// Searches for the least period `p` and preperiod `a` of the nim-sequence proven by
    /// the Guy–Smith periodicity theorem, computing at most `max_n` terms. `None` if no
    /// certificate is reached by then, or if the rules have unequal-parts constraints
    /// (the theorem does not apply to them).
    ///
    /// The theorem (Winning Ways ch. 4; extended here to three-heap splits): if the
    /// largest move takes `t` beans and leaves at most `h` heaps, and
    /// `G(n + p) = G(n)` for all `a ≤ n < h·a + (h − 1)·p + t` (with `a ≥ 1`), then it
    /// holds for every `n ≥ a`.
    ///
    /// ```
    /// use nimlab_octal::takebreak::TakeBreak;
    /// let kayles = TakeBreak::new(vec![0, 7, 7], false);
    /// let per = kayles.certified_periodicity(1 << 12).unwrap();
    /// assert_eq!((per.preperiod, per.period), (71, 12));
    /// ```
    pub fn certified_periodicity(&self, max_n: u64) -> Option<Periodicity> {
        self.certify_within(max_n, &nimlab_engine::progress::NoProgress)
            .0
    }

    /// As [`TakeBreak::certified_periodicity`], reporting the terms computed.
    pub fn certified_periodicity_with(
        &self,
        max_n: u64,
        progress: &dyn nimlab_engine::progress::Progress,
    ) -> Option<Periodicity> {
        self.certify_within(max_n, progress).0
    }

    /// The certificate (if reached within `max_n` terms) and the terms computed.
    fn certify_within(
        &self,
        max_n: u64,
        progress: &dyn nimlab_engine::progress::Progress,
    ) -> (Option<Periodicity>, Vec<u32>) {
        let found = self.search_period(max_n, progress);
        (found.period, found.values)
    }

    /// Computes the nim-sequence until the Guy–Smith theorem proves a period, or
    /// `max_n` terms are computed; reports the terms computed to `progress`. The answer
    /// carries the terms and the sparse-space figures (for census tables of unsolved
    /// games). Rules with unequal-parts constraints get no period (the theorem does not
    /// apply) but still their terms.
    ///
    /// The length grows towards the bound a candidate period needs (2a + 2p + t terms
    /// for a preperiod a and period p seen at the end of the window), so the search
    /// computes little more than the certificate needs.
    ///
    /// ```
    /// use nimlab_octal::takebreak::TakeBreak;
    /// let kayles = TakeBreak::new(vec![0, 7, 7], false);
    /// let found = kayles.search_period(1 << 12, &nimlab_engine::NoProgress);
    /// let per = found.period.unwrap();
    /// assert_eq!((per.preperiod, per.period), (71, 12));
    /// assert!(found.values.len() >= 2 * 71 + 2 * 12 + 2);
    /// let naive = kayles.naive_sequence(found.values.len());
    /// assert_eq!(found.values, naive);
    /// assert_eq!(found.max_value, *naive.iter().max().unwrap());
    /// ```
    pub fn search_period(
        &self,
        max_n: u64,
        progress: &dyn nimlab_engine::progress::Progress,
    ) -> PeriodSearch {
        // The same run that can be stopped and resumed (`run::PeriodRun`), never stopped.
        match run::PeriodRun::new(self.clone(), max_n)
            .run(progress, &mut run::Uninterrupted)
            .expect("an uninterrupted run saves nothing and cannot fail")
        {
            run::RunOutcome::Done(found) => found,
            run::RunOutcome::Stopped => unreachable!("never asked to stop"),
        }
    }
}

/// What [`TakeBreak::search_period`] found.
#[derive(Debug, Clone)]
pub struct PeriodSearch {
    /// The period proven by the Guy–Smith theorem, if any.
    pub period: Option<Periodicity>,
    /// The terms computed, G(0), G(1), ….
    pub values: Vec<u32>,
    /// The rare/common split used (none for short or three-heap sequences).
    pub split: Option<SparseSplit>,
    /// How many indices are rare under that split.
    pub rare_count: usize,
    /// The largest value computed.
    pub max_value: u32,
    /// The last rare index and its value (none for short or three-heap sequences).
    pub last_rare: Option<(u64, u32)>,
}

/// The least period whose repetition on the window proves periodicity by Guy–Smith;
/// else the window length that would prove the candidate seen at the end of the window
/// (the period repeated at least twice) with the smallest such length.
fn guy_smith(g: &[u32], t: u64, h: u64) -> (Option<Periodicity>, Option<u64>) {
    let len = g.len();
    let mut wanted: Option<u64> = None;
    // Periods q with a long tail, and where their tail starts: for a multiple p of q,
    // G(n + p) = G(n) already holds from there, so its walk starts there (without
    // this, each multiple of the true period walks the whole tail: O(len²/q)).
    let mut long_tails: Vec<(usize, usize)> = Vec::new();
    for p in 1..len / 2 {
        // Walk back from the end while G(n + p) = G(n): the tail's preperiod.
        let mut a = len - p;
        let mut multiple = false;
        for &(q, aq) in &long_tails {
            if p.is_multiple_of(q) {
                a = a.min(aq);
                multiple = true;
            }
        }
        while a > 0 && g[a - 1] == g[a - 1 + p] {
            a -= 1;
        }
        if !multiple && len - a >= 64 + p {
            long_tails.push((p, a));
        }
        let a_check = a.max(1) as u64;
        let needed = h * a_check + (h - 1) * p as u64 + t; // check a ≤ n < needed
        if needed + p as u64 <= len as u64 {
            let per = Periodicity {
                preperiod: a as u64,
                period: p as u64,
                saltus: 0,
                values: g[..a + p].to_vec(),
                checked_up_to: len as u64,
                proof: Some(format!(
                    "Guy–Smith periodicity theorem: G(n+{p}) = G(n) for {a_check} ≤ n < \
                     {needed} = {h}·{a_check} + {}·{p} + {t} (computed to n = {})",
                    h - 1,
                    len - 1
                )),
            };
            return (Some(per), None);
        }
        if len - a >= 2 * p {
            let w = needed + p as u64;
            wanted = Some(wanted.map_or(w, |x| x.min(w)));
        }
    }
    (None, wanted)
}

fn max_value(g: &[u32]) -> u32 {
    g.iter().copied().max().unwrap_or(0)
}

const SMALL: usize = 1 << 16;

/// Records the options of taking `k` beans that leave no heap (digit bit 1, m = 0) or
/// one heap of `m` (digit bit 2) — the part shared by every mex method.
#[inline]
fn hit_take_without_split(hit: &mut ValueSet, digit: u8, k: usize, m: usize, g: &[u32]) {
    if digit & 1 != 0 && m == 0 && k > 0 {
        hit.insert(0);
    }
    if digit & 2 != 0 && m >= 1 && k > 0 {
        hit.insert(g[m]);
    }
}

/// The set of option values, one byte per value (cheaper to set than bits), sized for
/// XORs of values ≤ the current maximum.
#[derive(Default)]
struct ValueSet {
    seen: Vec<u8>,
    used: usize,
}

impl ValueSet {
    /// Empties the set, with room for every XOR of values ≤ `max` and the mex after.
    fn clear(&mut self, max: u32) {
        self.used = (max as u64 + 1).next_power_of_two() as usize * 2;
        if self.seen.len() < self.used.max(SMALL) {
            self.seen.resize(self.used.max(SMALL), 0);
        }
        self.seen[..self.used].iter_mut().for_each(|w| *w = 0);
    }
    /// The set as a 2^16-byte array when every XOR fits in 16 bits: indexing it by a
    /// `u16` needs no bounds check, which matters in the long scans.
    #[inline]
    fn small(&mut self) -> Option<&mut [u8; SMALL]> {
        if self.used <= SMALL {
            (&mut self.seen[..SMALL]).try_into().ok()
        } else {
            None
        }
    }
    #[inline]
    fn insert(&mut self, v: u32) {
        self.seen[v as usize] = 1;
    }
    /// Marks the values of the splits x + (m − x) for x over a run of small parts:
    /// `low` = G(x0), …, G(x1 − 1) and `high` = G(m − x1 + 1), …, G(m − x0).
    #[inline]
    fn mark_splits(&mut self, low: &[u32], high: &[u32]) {
        let pairs = low.iter().zip(high.iter().rev());
        match self.small() {
            Some(seen) => pairs.for_each(|(a, b)| seen[(a ^ b) as u16 as usize] = 1),
            None => pairs.for_each(|(a, b)| self.insert(a ^ b)),
        }
    }
    #[inline]
    fn contains(&self, v: u32) -> bool {
        self.seen[v as usize] != 0
    }
    fn mex(&self) -> u32 {
        self.seen[..self.used]
            .iter()
            .position(|&b| b == 0)
            .unwrap_or(self.used) as u32
    }
}

/// How the sparse method splits indices into rare and common.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SparseSplit {
    /// The bits left out of the (infinite) mask: the mask is `!cleared`.
    pub cleared: u32,
    /// Whether the index parity joins the class (Flammenkamp's sparse space "in the
    /// domain").
    pub domain: bool,
    /// The class (0 or 1) of the rare indices.
    pub rare_class: u32,
}

impl SparseSplit {
    #[inline]
    fn parity(&self, v: u32) -> u32 {
        (v & !self.cleared).count_ones() & 1
    }
    #[inline]
    fn class(&self, i: usize, v: u32) -> u32 {
        self.parity(v) ^ (self.domain as u32 & i as u32 & 1)
    }
    /// Whether a split of one of `sums` into two parts of the same class could have
    /// value v (then only a scan of the splits can tell whether one does).
    #[inline]
    fn expensive(&self, v: u32, sums: &[usize]) -> bool {
        sums.iter()
            .any(|&m| self.parity(v) == (self.domain as u32 & m as u32 & 1))
    }
}

/// The nim-sequence computed so far by the sparse method (splits into ≤ 2 heaps).
///
/// ```
/// use nimlab_octal::takebreak::{SparseSequence, TakeBreak};
/// let grundy = TakeBreak::new(vec![4], true); // Grundy's game
/// let mut s = SparseSequence::new(grundy.clone());
/// s.extend_to(3000);
/// assert_eq!(s.values(), &grundy.naive_sequence(3000)[..]);
/// assert!(s.rare_count() < 3000 / 10);
/// ```
pub struct SparseSequence {
    rules: TakeBreak,
    values: Vec<u32>,
    split: Option<SparseSplit>,
    rare: Vec<u32>,
    rare_values: Vec<u32>,
    max: u32,
    hit: ValueSet,
    sums: Vec<usize>,
    /// Where long scans ended lately (the x of the split that gave the last missing
    /// value): tried first when a scan runs long, as a nearly periodic sequence
    /// often finds a missing value again at the same x.
    witnesses: Vec<usize>,
    /// Next slot of `witnesses` to overwrite.
    witness_slot: usize,
    /// Running mean of the scan lengths of [`Self::next_value`].
    mean_scan: f64,
    /// Tiles whatever the scans (tests: every code's tiles checked).
    always_tiles: bool,
    /// The dense route whatever the rare count (tests).
    always_dense: bool,
    /// Heaps of the dense route done again by the plain mex (see `dense`).
    dense_fallbacks: u64,
    /// The dense route's windowed vector scan even where the bitmap strike applies (tests).
    dense_windows: bool,
    /// The bitmap strike by this kernel (tests of the forms any CPU runs: one split
    /// at a time, or the portable kernel), even where it runs on wider vectors.
    dense_strike: Option<split_scan::StrikeKernel>,
    /// The largest value the dense route's narrow planes take (`u16::MAX`; less in tests).
    dense_hold: u32,
    /// Splits in a stretch of the dense route's far strikes (see `dense`; fewer in tests).
    strike_chunk: usize,
    /// Stamps of the options with a part in a dense tile (see `dense`).
    near: Vec<u32>,
    /// The values again, narrow, for the tiles' vector scans.
    narrow: Narrow,
    /// The values again, for the dense route's bitmap strike (see `dense`).
    strike_planes: split_scan::StrikePlanes,
    /// The bitmap of the dense route's plain mex by the strike (see `dense`).
    strike_table: split_scan::StrikeTable,
}

/// Scans beyond this many splits per sum try the recent witnesses first.
const LONG_SCAN: usize = 512;
/// How many recent witnesses are kept.
const WITNESSES: usize = 32;

/// Terms computed naively before the split is chosen.
const PREFIX: usize = 4096;

/// Most heaps the split is looked at again on (those just before a power of two).
const SPLIT_WINDOW: usize = 1 << 17;

/// The next heap, after `n` terms, where the split is looked at again: the least power
/// of two above `n`, from `2 · PREFIX` on.
fn split_check_after(n: usize) -> usize {
    (n + 1).next_power_of_two().max(2 * PREFIX)
}

impl SparseSequence {
    /// An empty sequence for `rules` (which must leave at most two heaps).
    pub fn new(rules: TakeBreak) -> Self {
        SparseSequence {
            rules,
            values: Vec::new(),
            split: None,
            rare: Vec::new(),
            rare_values: Vec::new(),
            max: 0,
            hit: ValueSet::default(),
            sums: Vec::new(),
            witnesses: Vec::new(),
            witness_slot: 0,
            mean_scan: 0.0,
            always_tiles: false,
            always_dense: false,
            dense_fallbacks: 0,
            dense_windows: false,
            dense_strike: None,
            dense_hold: u32::from(u16::MAX),
            strike_chunk: dense::STRIKE_CHUNK,
            near: Vec::new(),
            narrow: Narrow::default(),
            strike_planes: split_scan::StrikePlanes::default(),
            strike_table: split_scan::StrikeTable::default(),
        }
    }

    /// The terms computed so far.
    pub fn values(&self) -> &[u32] {
        &self.values
    }

    /// The rare/common split in use (chosen after the first terms).
    pub fn split(&self) -> Option<SparseSplit> {
        self.split
    }

    /// How many indices are rare.
    pub fn rare_count(&self) -> usize {
        self.rare.len()
    }

    /// Computes terms until there are `len`.
    pub fn extend_to(&mut self, len: usize) {
        if self.values.len() >= len {
            return;
        }
        if self.split.is_none() {
            let prefix = len.min(PREFIX);
            self.extend_by_full_mex(prefix);
            if self.values.len() < PREFIX && len <= PREFIX {
                return;
            }
            self.choose_split();
        }
        self.values.reserve(len - self.values.len());
        // Segments end at the powers of two, where the split is looked at again: the
        // checks fall at the same heaps however the calls are cut (and a resumed run
        // makes the same choices as an uninterrupted one).
        while self.values.len() < len {
            let check = split_check_after(self.values.len());
            self.extend_segment(len.min(check));
            if self.values.len() == check {
                self.recheck_split(check);
            }
        }
    }

    /// Computes terms until there are `len` with the split in use.
    fn extend_segment(&mut self, len: usize) {
        while self.values.len() < len {
            self.extend_dense(len);
            self.extend_in_tiles(len);
            if self.values.len() >= len {
                break;
            }
            let v = self.next_value();
            let n = self.values.len();
            self.values.push(v);
            self.max = self.max.max(v);
            let split = self.split.expect("chosen above");
            if n > 0 && split.class(n, v) == split.rare_class {
                self.rare.push(n as u32);
                self.rare_values.push(v);
            }
        }
    }

    /// Extends the sequence to `len` terms by the full mex over every split (the
    /// prefix, before a split is chosen), continuing where it stopped.
    fn extend_by_full_mex(&mut self, len: usize) {
        let distinct = self.rules.distinct_parts;
        while self.values.len() < len {
            let n = self.values.len();
            let g = &self.values;
            self.hit.clear(self.max);
            for (k, &d) in self.rules.digits.iter().enumerate() {
                if k > n || d == 0 {
                    continue;
                }
                let m = n - k;
                hit_take_without_split(&mut self.hit, d, k, m, g);
                if d & 4 != 0 {
                    for x in 1..=m / 2 {
                        if !(distinct && 2 * x == m) {
                            self.hit.insert(g[x] ^ g[m - x]);
                        }
                    }
                }
            }
            let v = self.hit.mex();
            self.max = self.max.max(v);
            self.values.push(v);
        }
    }

    /// Picks the split with the fewest rare indices in the later half of the prefix.
    fn choose_split(&mut self) {
        let n = self.values.len();
        let (_, split) = self.best_split(n / 2..n);
        self.set_split(split);
    }

    /// At heap `at` (a power of two), takes the split with the fewest rare indices on
    /// the heaps just before it when it has fewer than half as many as the split in
    /// use, under an eighth of those heaps, and fewer rare heaps in all. A split chosen
    /// on the prefix knows nothing of the value bits that appear later: `.142` passes
    /// 256 at heap 7 440, and only clearing that bit too keeps its rare heaps few
    /// (1 357 to 2^20 against 64 598). Values do not depend on the split; a better one
    /// only makes them cheaper.
    fn recheck_split(&mut self, at: usize) {
        let current = self.split.expect("split chosen");
        let window = at - (at / 2).min(SPLIT_WINDOW)..at;
        let window_len = window.len();
        let (best, split) = self.best_split(window.clone());
        let now = self.values[window.clone()]
            .iter()
            .zip(window)
            .filter(|&(&v, i)| current.class(i, v) == current.rare_class)
            .count();
        // Only a split that makes the window sparse: where a third to a half of the
        // heaps are rare whatever the mask, changing it gains nothing.
        if split != current && 2 * best < now && 8 * best < window_len {
            // And fewer rare heaps in all: every heap's walk goes over all of them (a
            // lone late rare heap of Grundy's game must not trade its 1 287 for more).
            let g = &self.values;
            let total = (1..at)
                .filter(|&i| split.class(i, g[i]) == split.rare_class)
                .count();
            if total < self.rare.len() {
                self.set_split(split);
            }
        }
    }

    /// The split with the fewest rare indices among `window` (ties: the fewest bits
    /// cleared from the mask, then the plain space before the domain one), with that
    /// count. Counted on a histogram of (value, index parity), so each candidate costs
    /// the number of distinct values, not the window's length.
    fn best_split(&self, window: std::ops::Range<usize>) -> (usize, SparseSplit) {
        let g = &self.values;
        let max = max_value(&g[window.clone()]);
        // Candidates clear bits below the largest value so far (not only the window's).
        let top = (self.max.max(max) as u64 + 1)
            .next_power_of_two()
            .min(1 << 10) as u32;
        let mut hist = vec![[0usize; 2]; max as usize + 1];
        for i in window {
            hist[g[i] as usize][i & 1] += 1;
        }
        let seen: Vec<(u32, [usize; 2])> = hist
            .iter()
            .enumerate()
            .filter(|(_, h)| h[0] + h[1] > 0)
            .map(|(v, &h)| (v as u32, h))
            .collect();
        // Common indices must have the parity that only rare+common splits produce
        // (1, or 1 ⊕ (n − k) mod 2 in the domain variant), which fixes the rare class.
        // The domain variant needs every split digit k of one parity.
        let split_ks: Vec<usize> = (0..self.rules.digits.len())
            .filter(|&k| self.rules.digits[k] & 4 != 0)
            .collect();
        let one_parity = split_ks.iter().all(|&k| k % 2 == split_ks[0] % 2);
        let mut best: Option<(usize, SparseSplit)> = None;
        for cleared in 0..top {
            for domain in [false, true] {
                if domain && (split_ks.is_empty() || !one_parity) {
                    continue;
                }
                let rare_class = if domain { split_ks[0] as u32 & 1 } else { 0 };
                let split = SparseSplit {
                    cleared,
                    domain,
                    rare_class,
                };
                let count: usize = seen
                    .iter()
                    .map(|&(v, h)| {
                        (0..2)
                            .filter(|&parity| split.class(parity, v) == rare_class)
                            .map(|parity| h[parity])
                            .sum::<usize>()
                    })
                    .sum();
                if best.is_none_or(|(c, _)| count < c) {
                    best = Some((count, split));
                }
            }
        }
        best.expect("at least one candidate")
    }

    /// Uses `split` from now on: the rare indices are those of every term so far.
    fn set_split(&mut self, split: SparseSplit) {
        let g = &self.values;
        self.split = Some(split);
        self.max = max_value(g);
        self.rare = (1..g.len())
            .filter(|&i| split.class(i, g[i]) == split.rare_class)
            .map(|i| i as u32)
            .collect();
        self.rare_values = self.rare.iter().map(|&r| g[r as usize]).collect();
    }

    /// Whether extending to `len` terms in tiles pays: tiles need their far parts
    /// known and a short XOR width, and scan at least NEAR_SCAN splits of every heap —
    /// worth it only where the per-heap scans run at least that long on average
    /// (Grundy's game: thousands; 0.376: far fewer, and tiles would double its time).
    fn tiles_pay(&self, len: usize) -> bool {
        let start = self.values.len();
        let kmax = self.rules.digits.len();
        let min_start = 4 * NEAR_SCAN + 4 * TILE + kmax;
        !(start < min_start
            || (self.mean_scan < NEAR_SCAN as f64 && !self.always_tiles)
            || len < start + 2 * TILE
            || self.rules.max_parts() > 2
            || kmax > TILE
            || self.max >= NARROW_MAX)
    }

    /// Extends the sequence tile by tile ([`TILE`] heaps) on two threads while at least
    /// one whole tile is wanted: one thread marks, for the next tile, every split with a
    /// rare part ≥ 2·TILE known already, one tile ahead, while the other computes the
    /// current tile from its marks, the near rare parts and, when a value is still
    /// missing, a vectorized scan of the other splits for the missing values.
    /// Values are exactly those of [`Self::next_value`].
    fn extend_in_tiles(&mut self, len: usize) {
        if !self.tiles_pay(len) {
            return;
        }
        let start = self.values.len();
        let split = self.split.expect("split chosen");
        let tiles = (len - start) / TILE;
        let end = start + tiles * TILE;
        self.values.resize(end, 0);
        let Self {
            rules,
            values,
            rare,
            rare_values,
            max,
            hit,
            sums,
            narrow,
            ..
        } = self;
        narrow.sync(&values[..start]);
        let mut far_limit = start - TILE;
        let columns = NARROW_MAX;
        let mut rows = FarRows::first(
            rules,
            &values[..far_limit],
            (rare, rare_values),
            start,
            *max,
            narrow.scan,
        );
        let mut next_rows = FarRows::default();
        // The rows this thread marks while the other marks the next tile's.
        let mut helper: Vec<u8> = Vec::new();
        let mut new_rares: Vec<(u32, u32)> = Vec::new();
        // On a pool thread, so that each join below is cheap.
        rayon::scope(|_| {
            let mut s = start;
            while s < end {
                let (done, rest) = values.split_at_mut(s);
                let done: &[u32] = done;
                let tile = &mut rest[..TILE];
                let next = s + TILE;
                new_rares.clear();
                let (rare_now, rare_values_now): (&[u32], &[u32]) = (rare, rare_values);
                let mut tile_max = *max;
                if next < end {
                    next_rows.prepare(rules, done, rare_now, rare_values_now, next, *max, columns);
                }
                tile_with_next_rows(
                    TileJob {
                        rules,
                        split,
                        done,
                        rare: rare_now,
                        rare_values: rare_values_now,
                        far_limit,
                        rows: &rows,
                    },
                    TileOut {
                        tile,
                        max: &mut tile_max,
                        hit,
                        sums,
                        new_rares: &mut new_rares,
                        narrow,
                    },
                    (next < end).then_some(&mut next_rows),
                    &mut helper,
                );
                *max = tile_max;
                rare.extend(new_rares.iter().map(|&(r, _)| r));
                rare_values.extend(new_rares.iter().map(|&(_, v)| v));
                std::mem::swap(&mut rows, &mut next_rows);
                far_limit = s;
                s = next;
                if *max >= NARROW_MAX {
                    // Past what the narrow values hold: the per-heap method goes on.
                    values.truncate(s);
                    break;
                }
            }
        });
    }

    /// Marks in `hit` the values of heap `n`'s options that leave no heap or one, and of
    /// its splits with a rare part; lists in `sums` the split sums M = n − k, whose
    /// common-common splits may hold "expensive" values.
    #[inline]
    fn mark_rare_options(&mut self, n: usize) {
        let g = &self.values;
        let distinct = self.rules.distinct_parts;
        self.hit.clear(self.max);
        let sums = &mut self.sums;
        sums.clear();
        for (k, &d) in self.rules.digits.iter().enumerate() {
            if k > n || d == 0 {
                continue;
            }
            let m = n - k;
            hit_take_without_split(&mut self.hit, d, k, m, g);
            if d & 4 != 0 && m >= 2 {
                let below = self.rare.partition_point(|&r| (r as usize) < m);
                let tail = &g[..m];
                let pairs = self.rare[..below].iter().zip(&self.rare_values);
                match self.hit.small() {
                    Some(seen) => {
                        for (&r, &gr) in pairs {
                            let b = m - r as usize;
                            if !(distinct && b == r as usize) {
                                seen[(gr ^ tail[b]) as u16 as usize] = 1;
                            }
                        }
                    }
                    None => {
                        for (&r, &gr) in pairs {
                            let b = m - r as usize;
                            if !(distinct && b == r as usize) {
                                self.hit.insert(gr ^ tail[b]);
                            }
                        }
                    }
                }
                sums.push(m);
            }
        }
    }

    /// G(n) for the next n.
    fn next_value(&mut self) -> u32 {
        let n = self.values.len();
        let split = self.split.expect("split chosen");
        self.mark_rare_options(n);
        let g = &self.values;
        let distinct = self.rules.distinct_parts;
        let sums = &self.sums;
        // The resumable scan over every split of every sum (common-common included),
        // all sums side by side: a value missing from one sum's first splits is often
        // found early in another's (0.376 needs x ≈ 250 in one sum, x ≈ 10^4 in the
        // other).
        let last_of = |m: usize| last_split(m, distinct);
        let end = sums.iter().map(|&m| last_of(m)).max().unwrap_or(0) + 1;
        let mut cursor_x = 1usize;
        let mut tried_witnesses = false;
        let mut v = 0u32;
        loop {
            if self.hit.contains(v) {
                v += 1;
                continue;
            }
            if !split.expensive(v, sums) {
                self.note_scan(cursor_x);
                return v;
            }
            // Scan until v is hit or every split has been seen.
            // Blocks of splits without a test per split: the loop stays branch-free.
            const BLOCK: usize = 64;
            while cursor_x < end && !self.hit.contains(v) {
                if cursor_x == LONG_SCAN + 1 && !tried_witnesses {
                    tried_witnesses = true;
                    for &x in &self.witnesses {
                        for &m in sums.iter() {
                            if x <= last_of(m) {
                                self.hit.insert(g[x] ^ g[m - x]);
                            }
                        }
                    }
                    if self.hit.contains(v) {
                        break;
                    }
                }
                let x0 = cursor_x;
                for &m in sums.iter() {
                    let x1 = (x0 + BLOCK).min(last_of(m) + 1);
                    if x0 < x1 {
                        self.hit.mark_splits(&g[x0..x1], &g[m + 1 - x1..=m - x0]);
                    }
                }
                cursor_x = x0 + BLOCK;
                if cursor_x > LONG_SCAN && self.hit.contains(v) {
                    // Remember which split gave v, for the next long scans.
                    let found = sums.iter().find_map(|&m| {
                        (x0..(x0 + BLOCK).min(last_of(m) + 1)).find(|&x| g[x] ^ g[m - x] == v)
                    });
                    if let Some(x) = found {
                        if self.witnesses.len() < WITNESSES {
                            self.witnesses.push(x);
                        } else {
                            self.witnesses[self.witness_slot] = x;
                            self.witness_slot = (self.witness_slot + 1) % WITNESSES;
                        }
                    }
                }
            }
            if !self.hit.contains(v) {
                self.note_scan(cursor_x);
                return v;
            }
        }
    }

    /// Keeps a running mean of how far the per-heap scans go (in splits): tiles pay
    /// only where scans run long.
    fn note_scan(&mut self, reached: usize) {
        self.mean_scan += (reached as f64 - self.mean_scan) / 4096.0;
    }
}

/// The largest small part x of a split x + (m − x), 1 ≤ x ≤ m − x (the equal split
/// excluded when parts must differ).
fn last_split(m: usize, distinct: bool) -> usize {
    if distinct && m.is_multiple_of(2) {
        m / 2 - 1
    } else {
        m / 2
    }
}

/// Heaps per tile of [`SparseSequence::extend_in_tiles`].
const TILE: usize = 256;
/// The tiles' scans look at the splits with a small part below this first, going up,
/// then at the others from the middle down.
const NEAR_SCAN: usize = 1536;

/// `bytes[i * stride + u] = 1`: heap `start + i` has a split of value u < width whose parts
/// were both known a tile ahead.
#[derive(Default)]
struct FarRows {
    start: usize,
    width: usize,
    /// Row length: the width and a cache line, so that rows do not map to the same
    /// cache sets.
    stride: usize,
    bytes: Vec<u8>,
    /// The tile's walks: (first other part, value of the walking part).
    walks: Vec<(usize, u32)>,
}

impl FarRows {
    /// The rows of the first tile (heaps from `start`), marked from the values `done`
    /// before start − TILE only.
    fn first(
        rules: &TakeBreak,
        done: &[u32],
        (rare, rare_values): (&[u32], &[u32]),
        start: usize,
        max: u32,
        kernel: split_scan::ScanKernel,
    ) -> Self {
        let mut rows = FarRows::default();
        rows.prepare(rules, done, rare, rare_values, start, max, NARROW_MAX);
        rows.mark_all(done, kernel);
        rows
    }

    /// Adds the marks another thread made into a copy of these rows (`helper`).
    fn merge(&mut self, helper: &[u8]) {
        for (b, &h) in self.bytes.iter_mut().zip(helper) {
            *b |= h;
        }
    }

    /// Marks every walk listed by [`Self::prepare`] on this thread.
    fn mark_all(&mut self, done: &[u32], kernel: split_scan::ScanKernel) {
        let cursor = AtomicUsize::new(0);
        let (walks, bytes) = (&self.walks, &mut self.bytes);
        mark_claimed(walks, &cursor, bytes, self.stride, self.width, done, kernel);
    }

    /// Sizes and clears the rows of the tile starting at `start` and lists its walks,
    /// marking none: those of the rare parts ≥ 2·TILE among `done` = G(0), …,
    /// G(start − TILE − 1) (except, when parts must differ, those near half a heap of
    /// the tile: see [`half_band`]) and of the small parts. Each part is walked across
    /// the whole tile, reading the other parts in order.
    #[allow(clippy::too_many_arguments)]
    fn prepare(
        &mut self,
        rules: &TakeBreak,
        done: &[u32],
        rare: &[u32],
        rare_values: &[u32],
        start: usize,
        max: u32,
        columns: u32,
    ) {
        let width = ((u64::from(max) + 1).next_power_of_two() as usize).min(columns as usize);
        self.start = start;
        self.width = width;
        let stride = width + 64;
        self.stride = stride;
        self.bytes.clear();
        self.bytes.resize(TILE * stride, 0);
        // Heap start + i, sum start + i − k, other part start + i − k − part < start − TILE.
        let walks = &mut self.walks;
        walks.clear();
        for (k, &d) in rules.digits.iter().enumerate() {
            if d & 4 == 0 {
                continue;
            }
            let band = half_band(start, k);
            for (&r, &v) in rare.iter().zip(rare_values) {
                let r = r as usize;
                // Rare parts from done.len() on are the tile's own business.
                if r >= 2 * TILE && r < done.len() && !(rules.distinct_parts && band.contains(&r)) {
                    walks.push((start - k - r, v));
                }
            }
            // Small parts too (the rare ones again: no matter).
            for (x, &v) in done.iter().enumerate().take(ROWS_SCAN).skip(2 * TILE) {
                walks.push((start - k - x, v));
            }
        }
    }
}

/// Walks of [`FarRows`] taken at a time by a thread marking them.
const WALK_CHUNK: usize = 64;

/// Marks into `bytes` (rows of `stride`, values below `width`) the chunks of `walks` it
/// takes from `cursor` until none is left, while other threads may take others into
/// their own rows; whether it took any.
fn mark_claimed(
    walks: &[(usize, u32)],
    cursor: &AtomicUsize,
    bytes: &mut [u8],
    stride: usize,
    width: usize,
    done: &[u32],
    kernel: split_scan::ScanKernel,
) -> bool {
    let mut took = false;
    loop {
        let from = cursor.fetch_add(WALK_CHUNK, Ordering::Relaxed);
        if from >= walks.len() {
            return took;
        }
        took = true;
        for &(first, value) in &walks[from..(from + WALK_CHUNK).min(walks.len())] {
            let others = &done[first..first + TILE];
            split_scan::mark_walk(bytes, stride, width, value, others, kernel);
        }
    }
}

/// Parts r with 2r = n − k for some heap n of the tile starting at `start`: an equal
/// split, not a move when parts must differ; the far pass leaves them to the per-heap
/// walk, which checks each heap.
fn half_band(start: usize, k: usize) -> std::ops::Range<usize> {
    (start - k) / 2..(start - k + TILE) / 2 + 1
}

/// Tiles run while every value is below this (their values are held as `u16`, and
/// their value sets are short).
const NARROW_MAX: u32 = 1 << 11;

/// The values again, narrow, for the tiles' scans: as `u16` (all values are below
/// [`NARROW_MAX`] there), and split in two planes of bytes for [`split_scan`]: the low
/// `low_bits` bits of each value, and the bits above them (its *top*). The XOR of two
/// values is that of their low bytes beside that of their tops, so a scan over both
/// planes is exact whatever the values; while tops are rare and every wanted value has
/// top 0 (Grundy's game below 2^8, or past it with a few thousand heaps ≥ 256), the scan
/// reads the low bytes only and checks each hit's values, the rare big part making a
/// false hit now and then.
struct Narrow {
    values: Vec<u16>,
    bytes: Vec<u8>,
    tops: Vec<u8>,
    /// How many values have a top other than 0.
    bigs: usize,
    /// 8; less in tests, so that small values exercise the tops.
    low_bits: u32,
    /// The low-bytes-only scan runs while `bigs · sparse_bigs ≤ values.len()`.
    sparse_bigs: usize,
    /// How the scans and the far rows' walks run ([`split_scan::scan_kernel`]; tests
    /// hold them to each kernel the CPU has).
    scan: split_scan::ScanKernel,
}

impl Default for Narrow {
    fn default() -> Self {
        Narrow {
            values: Vec::new(),
            bytes: Vec::new(),
            tops: Vec::new(),
            bigs: 0,
            low_bits: 8,
            sparse_bigs: 256,
            scan: split_scan::scan_kernel(),
        }
    }
}

impl Narrow {
    /// Makes `self` hold `values` (a prefix of it may be held already).
    fn sync(&mut self, values: &[u32]) {
        let held = self.values.len().min(values.len());
        self.bigs -= self.tops[held..].iter().filter(|&&t| t != 0).count();
        self.values.truncate(held);
        self.bytes.truncate(held);
        self.tops.truncate(held);
        for &v in &values[held..] {
            self.push(v);
        }
    }
    fn push(&mut self, v: u32) {
        debug_assert!(v >> self.low_bits < 256);
        let top = (v >> self.low_bits) as u8;
        self.bigs += usize::from(top != 0);
        self.values.push(v as u16);
        self.bytes.push((v & ((1 << self.low_bits) - 1)) as u8);
        self.tops.push(top);
    }
    /// Whether the scans may read the low bytes only (and check each hit).
    fn low_only(&self) -> bool {
        self.bigs.saturating_mul(self.sparse_bigs) <= self.values.len()
    }
}

/// The values a tile's scan still looks for (a handful), and the same grouped by top
/// for [`split_scan::next_hit_planes`].
#[derive(Default)]
struct Wanted {
    values: Vec<u16>,
    groups: Vec<(u8, ByteSet)>,
}

impl Wanted {
    fn clear(&mut self) {
        self.values.clear();
        self.groups.clear();
    }
    fn is_empty(&self) -> bool {
        self.values.is_empty()
    }
    fn contains(&self, v: u32) -> bool {
        self.values.iter().any(|&w| u32::from(w) == v)
    }
    /// Adds v (not there yet).
    fn insert(&mut self, v: u32, low_bits: u32) {
        self.values.push(v as u16);
        split_scan::insert_grouped(&mut self.groups, v, low_bits);
    }
    /// Removes v; whether it was there.
    fn remove(&mut self, v: u32, low_bits: u32) -> bool {
        let Some(i) = self.values.iter().position(|&w| u32::from(w) == v) else {
            return false;
        };
        self.values.swap_remove(i);
        split_scan::remove_grouped(&mut self.groups, v, low_bits);
        true
    }
}

/// What one tile's computation reads.
struct TileJob<'a> {
    rules: &'a TakeBreak,
    split: SparseSplit,
    /// G(0), …, G(s − 1), s the tile's first heap.
    done: &'a [u32],
    /// The rare indices below s, with their values.
    rare: &'a [u32],
    rare_values: &'a [u32],
    /// Rare parts ≥ this were unknown when the tile's rows were marked.
    far_limit: usize,
    rows: &'a FarRows,
}

/// Where a tile's computation writes: its values, the largest value so far, the new
/// rare indices, and its scratch (the value set, the split sums, the narrow values).
struct TileOut<'a> {
    tile: &'a mut [u32],
    max: &'a mut u32,
    hit: &'a mut ValueSet,
    sums: &'a mut Vec<usize>,
    new_rares: &'a mut Vec<(u32, u32)>,
    narrow: &'a mut Narrow,
}

/// Computes the tile of `job` into `out` on this thread while the other thread marks
/// the walks of the next tile's rows `next` (if there is a next tile). The walks are
/// taken a chunk at a time; once the tile is done this thread takes those left into
/// its own rows `helper`, merged into `next` after: with many rare parts the marks
/// cost several times the tile.
fn tile_with_next_rows(
    job: TileJob<'_>,
    out: TileOut<'_>,
    next: Option<&mut FarRows>,
    helper: &mut Vec<u8>,
) {
    let Some(next_rows) = next else {
        compute_tile(job, out);
        return;
    };
    let done = job.done;
    let kernel = out.narrow.scan;
    let cursor = AtomicUsize::new(0);
    let (stride, width) = (next_rows.stride, next_rows.width);
    let next_bytes_len = next_rows.bytes.len();
    let (walks, next_bytes) = (&next_rows.walks, &mut next_rows.bytes);
    let mut helped = false;
    // The tile on this thread (it starts at once), the marks on the other.
    rayon::join(
        || {
            compute_tile(job, out);
            if cursor.load(Ordering::Relaxed) < walks.len() {
                helper.clear();
                helper.resize(next_bytes_len, 0);
                helped = mark_claimed(walks, &cursor, helper, stride, width, done, kernel);
            }
        },
        || mark_claimed(walks, &cursor, next_bytes, stride, width, done, kernel),
    );
    if helped {
        next_rows.merge(helper);
    }
}

/// Computes G(s), …, G(s + TILE − 1) into `tile` (s = `job.done.len()`), noting new rare
/// indices in `new_rares` and the largest value in `max`; `narrow` holds G(0), …,
/// G(s − 1) as `u16` and gets the tile's values appended.
fn compute_tile(job: TileJob<'_>, out: TileOut<'_>) {
    let TileOut {
        tile,
        max,
        hit,
        sums,
        new_rares,
        narrow,
    } = out;
    let TileJob {
        rules,
        split,
        done,
        rare,
        rare_values,
        far_limit,
        rows,
    } = job;
    let s = done.len();
    debug_assert_eq!(rows.start, s);
    debug_assert_eq!(narrow.values.len(), s);
    let distinct = rules.distinct_parts;
    let mut targets: Vec<u32> = Vec::new();
    let mut wanted = Wanted::default();
    let near_rares = near_rares(rules, s, rare, rare_values, far_limit);
    for (i, slot) in tile.iter_mut().enumerate() {
        let n = s + i;
        hit.clear(*max);
        hit.seen[..rows.width]
            .copy_from_slice(&rows.bytes[i * rows.stride..i * rows.stride + rows.width]);
        mark_near_options(rules, n, &narrow.values, &near_rares, new_rares, hit, sums);
        // Every split with a rare part is marked: the values still missing are found, if
        // at all, among the other splits (two common parts). Only the expensive values
        // below the first missing cheap one matter (the targets).
        let cheap = expensive_targets(hit, split, sums, &mut targets);
        wanted.clear();
        for &t in &targets {
            wanted.insert(t, narrow.low_bits);
        }
        scan_common_splits(narrow, sums, distinct, &mut wanted);
        let value = targets
            .iter()
            .copied()
            .find(|&t| wanted.contains(t))
            .unwrap_or(cheap);
        *slot = value;
        narrow.push(value);
        *max = (*max).max(value);
        if split.class(n, value) == split.rare_class {
            new_rares.push((n as u32, value));
        }
    }
}

/// Per split digit k, the rare parts a tile starting at heap `s` must walk itself
/// because its rows do not hold them: small ones, those found since the rows were
/// marked (at or past `far_limit`), and those near half a heap.
fn near_rares(
    rules: &TakeBreak,
    s: usize,
    rare: &[u32],
    rare_values: &[u32],
    far_limit: usize,
) -> Vec<Vec<(u32, u32)>> {
    let distinct = rules.distinct_parts;
    (0..rules.digits.len())
        .map(|k| {
            if rules.digits[k] & 4 == 0 {
                return Vec::new();
            }
            let band = half_band(s, k);
            rare.iter()
                .zip(rare_values)
                .filter(|&(&r, _)| {
                    let r = r as usize;
                    r < 2 * TILE || r >= far_limit || (distinct && band.contains(&r))
                })
                .map(|(&r, &v)| (r, v))
                .collect()
        })
        .collect()
}

/// Marks in `hit` the values of heap `n`'s options that leave no heap or one, and of
/// its splits with a rare part the rows do not hold (`near_rares`, `new_rares`);
/// lists in `sums` the heaps a split divides.
#[inline]
fn mark_near_options(
    rules: &TakeBreak,
    n: usize,
    g: &[u16],
    near_rares: &[Vec<(u32, u32)>],
    new_rares: &[(u32, u32)],
    hit: &mut ValueSet,
    sums: &mut Vec<usize>,
) {
    let distinct = rules.distinct_parts;
    sums.clear();
    for (k, &d) in rules.digits.iter().enumerate() {
        if d == 0 {
            continue;
        }
        let m = n - k;
        if d & 1 != 0 && m == 0 && k > 0 {
            hit.insert(0);
        }
        if d & 2 != 0 && m >= 1 && k > 0 {
            hit.insert(u32::from(g[m]));
        }
        if d & 4 == 0 || m < 2 {
            continue;
        }
        // Rare parts the rows do not hold. Every XOR is below 2^12: the set is its
        // fixed-size array.
        let seen = hit.small().expect("tiles hold values below 2^11");
        for &(r, v) in near_rares[k].iter().chain(new_rares.iter()) {
            let r = r as usize;
            if r < m && !(distinct && 2 * r == m) {
                seen[(v ^ u32::from(g[m - r])) as u16 as usize] = 1;
            }
        }
        sums.push(m);
    }
}

/// Lists in `targets` the expensive values missing from `hit` below the first missing
/// cheap one (which only two common parts could give), and returns that cheap value.
#[inline]
fn expensive_targets(
    hit: &ValueSet,
    split: SparseSplit,
    sums: &[usize],
    targets: &mut Vec<u32>,
) -> u32 {
    targets.clear();
    let mut cheap = 0u32;
    while (cheap as usize) < hit.used {
        // Runs of values all hit, 8 at a time.
        if hit.seen[cheap as usize..cheap as usize + 8] == [1; 8] {
            cheap += 8;
            continue;
        }
        let stop = cheap + 8;
        while cheap < stop && hit.contains(cheap) {
            cheap += 1;
        }
        if cheap < stop {
            if !split.expensive(cheap, sums) {
                break;
            }
            targets.push(cheap);
        }
        cheap += 1;
    }
    cheap
}

/// Scans the splits of `sums` with two common parts for the `wanted` values, until
/// every one is found or every split is seen.
///
/// Small parts x < NEAR_SCAN first, going up; then the rest from both ends at once, a
/// block going up and a block coming down from the middle split x = last_of(m) in turn.
/// Where the hard values turn up depends on the code: near the small parts for `.064`
/// (from the middle alone costs 12 times as many splits) and `.606` (5 times),
/// anywhere for Grundy's game; both ends in turn cost at most twice the better order,
/// and were the cheapest of the shares measured for Grundy's game.
#[inline]
fn scan_common_splits(narrow: &Narrow, sums: &[usize], distinct: bool, wanted: &mut Wanted) {
    let last_of = |m: usize| last_split(m, distinct);
    let mut x0 = 0;
    while x0 < NEAR_SCAN && !wanted.is_empty() {
        // The rows hold 2·TILE ≤ x < ROWS_SCAN.
        if !(2 * TILE..ROWS_SCAN).contains(&x0) {
            for &m in sums {
                let x1 = (x0 + SCAN_BLOCK).min(NEAR_SCAN).min(last_of(m) + 1);
                scan_splits(narrow, m, x0.max(1), x1, wanted);
            }
        }
        x0 += SCAN_BLOCK;
    }
    // Splits NEAR_SCAN ≤ x < up are done (going up), and the top `down` of each sum.
    let mut up = NEAR_SCAN;
    let mut down = 0usize;
    let mut left = true;
    while left && !wanted.is_empty() {
        left = false;
        for &m in sums {
            let top = (last_of(m) + 1).saturating_sub(down);
            let x1 = (up + SCAN_BLOCK).min(top);
            if up < x1 {
                scan_splits(narrow, m, up, x1, wanted);
                left = true;
            }
        }
        up += SCAN_BLOCK;
        if wanted.is_empty() {
            break;
        }
        for &m in sums {
            let top = (last_of(m) + 1).saturating_sub(down);
            let x0 = top.saturating_sub(SCAN_BLOCK).max(up);
            if x0 < top {
                scan_splits(narrow, m, x0, top, wanted);
                left = true;
            }
        }
        down += SCAN_BLOCK;
    }
}

/// The rows also mark the splits with a small part 2·TILE ≤ x < ROWS_SCAN (a multiple
/// of [`SCAN_BLOCK`]): the marking thread has room for them.
const ROWS_SCAN: usize = 1280;

/// Splits scanned per sum at a time (interleaving the sums).
const SCAN_BLOCK: usize = 256;

/// Removes from `wanted` the values of the splits x + (m − x), x0 ≤ x < x1, stopping
/// when it is empty.
fn scan_splits(narrow: &Narrow, m: usize, x0: usize, x1: usize, wanted: &mut Wanted) {
    if wanted.is_empty() {
        return;
    }
    narrow.scan_splits(m, x0, x1, wanted);
}

impl SplitTargets for Wanted {
    fn groups(&self) -> &[(u8, ByteSet)] {
        &self.groups
    }
    fn found(&mut self, v: u32, low_bits: u32) -> bool {
        self.remove(v, low_bits) && self.is_empty()
    }
}

/// The values a scan of splits looks for ([`Narrow::scan_splits`]), and what it does
/// with each value a split has.
trait SplitTargets {
    /// The values looked for, grouped by top (the bits above the low byte).
    fn groups(&self) -> &[(u8, ByteSet)];
    /// Takes the value `v` of a split the vector scan hit (possibly not looked for: a
    /// low-bytes-only hit may be a big part's); `true` stops the scan.
    fn found(&mut self, v: u32, low_bits: u32) -> bool;
}

impl Narrow {
    /// Scans the splits x + (m − x), x0 ≤ x < x1, 32 at a time for the values
    /// `targets` looks for, telling it each hit's value until it says stop: the one
    /// split scan of the sparse tiles and the dense far passes.
    #[inline]
    fn scan_splits(&self, m: usize, x0: usize, x1: usize, targets: &mut impl SplitTargets) {
        if x0 >= x1 {
            return;
        }
        let low = &self.bytes[x0..x1];
        let high = &self.bytes[m + 1 - x1..=m - x0];
        let low_only = self.low_only();
        let mut from = 0;
        loop {
            let found = match targets.groups() {
                [(0, set)] if low_only => split_scan::next_hit(low, high, from, set, self.scan),
                groups => split_scan::next_hit_planes(
                    low,
                    high,
                    &self.tops[x0..x1],
                    &self.tops[m + 1 - x1..=m - x0],
                    from,
                    groups,
                    self.scan,
                ),
            };
            let Some((i, mut lanes)) = found else {
                return;
            };
            // Each hit's values (a low-bytes-only hit may be false: a big part).
            while lanes != 0 {
                let x = x0 + i + lanes.trailing_zeros() as usize;
                lanes &= lanes - 1;
                let v = self.values[x] ^ self.values[m - x];
                if targets.found(u32::from(v), self.low_bits) {
                    return;
                }
            }
            from = i + 32;
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn has_move_agrees_with_the_splits() {
        for code in 0u32..4096 {
            let digits: Vec<u8> = (0..4).map(|i| ((code >> (3 * i)) & 7) as u8).collect();
            for distinct in [false, true] {
                let g = TakeBreak::new(digits.clone(), distinct);
                for n in 0..12 {
                    let mut any = false;
                    g.for_each_split(n, &mut |_| any = true);
                    assert_eq!(g.has_move(n), any, "{digits:?} distinct={distinct} n={n}");
                }
            }
        }
        let hex = TakeBreak::new(vec![0, 8, 15], true);
        for n in 0..20 {
            let mut any = false;
            hex.for_each_split(n, &mut |_| any = true);
            assert_eq!(hex.has_move(n), any, "hex n={n}");
        }
    }

    use super::*;

    fn octal(code: &[u8]) -> TakeBreak {
        TakeBreak::new(code.to_vec(), false)
    }

    #[test]
    fn walks_marked_by_two_threads_make_the_same_rows() {
        // .606 to 6 000 terms: hundreds of rare parts, and the small ones, in two sums;
        // marked one by one on one thread, then by each kernel here on two.
        let rules = octal(&[0, 6, 0, 6]);
        let mut s = SparseSequence::new(rules.clone());
        s.extend_to(6000);
        let (done, start) = (&s.values[..5000], 5000 + TILE);
        let mut one = FarRows::default();
        one.prepare(
            &rules,
            done,
            &s.rare,
            &s.rare_values,
            start,
            s.max,
            NARROW_MAX,
        );
        one.mark_all(done, split_scan::ScanKernel::Scalar);
        assert!(
            one.walks.len() > 8 * WALK_CHUNK,
            "{} walks",
            one.walks.len()
        );
        let kernels = split_scan::scan_kernels_here();
        for round in 0..20 {
            let kernel = kernels[round % kernels.len()];
            let mut two = FarRows::default();
            two.prepare(
                &rules,
                done,
                &s.rare,
                &s.rare_values,
                start,
                s.max,
                NARROW_MAX,
            );
            let mut other = vec![0u8; two.bytes.len()];
            let cursor = AtomicUsize::new(0);
            let (stride, width) = (two.stride, two.width);
            let (walks, bytes) = (&two.walks, &mut two.bytes);
            std::thread::scope(|scope| {
                scope.spawn(|| {
                    mark_claimed(walks, &cursor, &mut other, stride, width, done, kernel)
                });
                mark_claimed(walks, &cursor, bytes, stride, width, done, kernel);
            });
            for (b, &o) in two.bytes.iter_mut().zip(&other) {
                *b |= o;
            }
            assert!(two.bytes == one.bytes, "{kernel:?}");
        }
    }

    #[test]
    fn sparse_agrees_with_naive_on_small_codes() {
        for code in [
            vec![0, 1, 3, 7],
            vec![0, 7, 7],
            vec![0, 0, 7],
            vec![0, 6],
            vec![4, 7],
            vec![0, 5, 1],
            vec![0, 4],
            vec![4],
            vec![0, 1, 6, 4],
        ] {
            let r = octal(&code);
            assert_eq!(r.sparse_sequence(5000), r.naive_sequence(5000), "{code:?}");
        }
        let grundy = TakeBreak::new(vec![4], true);
        assert_eq!(grundy.sparse_sequence(5000), grundy.naive_sequence(5000));
    }

    #[test]
    fn tiles_agree_with_naive_in_one_go_and_in_uneven_steps() {
        // Long enough for many tiles (they start after 4·NEAR_SCAN + 4·TILE terms):
        // Grundy's game (parts must differ), several split digits (0.376, 0.354, 4.56),
        // a split digit only (0.6), 0.16. In one go by this CPU's kernels, the other
        // runs with the split scans and walks by each kernel here in turn.
        let len = 4 * NEAR_SCAN + 40 * TILE + 777;
        let mut big_codes = 0;
        let scans = split_scan::scan_kernels_here();
        let mut runs = 0;
        let mut next_scan = || {
            runs += 1;
            scans[(runs - 1) % scans.len()]
        };
        for rules in [
            TakeBreak::new(vec![4], true),
            octal(&[0, 3, 7, 6]),
            octal(&[0, 3, 5, 4]),
            octal(&[4, 5, 6]),
            octal(&[0, 6]),
            octal(&[0, 1, 6]),
        ] {
            let naive = rules.naive_sequence(len);
            let mut whole = SparseSequence::new(rules.clone());
            whole.always_tiles = true;
            whole.extend_to(len);
            assert_eq!(whole.values(), &naive[..], "{:?}", rules.digits());
            let mut steps = SparseSequence::new(rules.clone());
            steps.always_tiles = true;
            steps.narrow.scan = next_scan();
            let mut to = 5000;
            while to < len {
                steps.extend_to(to);
                to += TILE + 37 * (to % 5) + 1;
            }
            steps.extend_to(len);
            let scan = steps.narrow.scan;
            assert_eq!(
                steps.values(),
                &naive[..],
                "{:?} in steps, {scan:?}",
                rules.digits()
            );
            // Values split at a lower bit (as values ≥ 256 are at bit 8): the tops
            // exercised by small values, scanned on both planes, or on the low bits only
            // (each hit checked) while tops are taken for rare.
            let top = max_value(&naive) >> 3;
            if top == 0 {
                continue;
            }
            big_codes += 1;
            for (low_bits, sparse_bigs) in [(3, 1), (4, 1), (4, 0), (3, 0)] {
                let mut bigs = SparseSequence::new(rules.clone());
                bigs.always_tiles = true;
                bigs.narrow.low_bits = low_bits;
                bigs.narrow.sparse_bigs = sparse_bigs;
                bigs.narrow.scan = next_scan();
                bigs.extend_to(len);
                assert_eq!(
                    bigs.values(),
                    &naive[..],
                    "{:?} with tops from bit {low_bits}, low-only {}, {:?}",
                    rules.digits(),
                    sparse_bigs == 0,
                    bigs.narrow.scan
                );
            }
        }
        assert!(big_codes >= 3, "{big_codes} codes had big values");
    }

    #[test]
    fn sparse_agrees_with_naive_where_scans_run_long() {
        // 0.376 and 0.354 have long preperiods; 0.376's scans run past LONG_SCAN (the
        // witnesses path) within these terms; 0.16, 0.56, 0.6 and 4.56 as well-known
        // hard codes.
        for (code, len) in [
            (vec![0, 3, 7, 6], 12_000),
            (vec![0, 3, 5, 4], 6000),
            (vec![0, 1, 6], 6000),
            (vec![0, 5, 6], 6000),
            (vec![0, 6], 6000),
            (vec![4, 5, 6], 4000),
        ] {
            let r = octal(&code);
            assert_eq!(r.sparse_sequence(len), r.naive_sequence(len), "{code:?}");
        }
    }

    #[test]
    fn the_split_is_chosen_again_when_later_values_need_it() {
        // 0.142 passes 256 after its prefix: the split chosen there keeps bit 8 in the
        // mask, which leaves about 6 % of the later heaps rare.
        let rules = TakeBreak::new(vec![0, 1, 4, 2], false);
        let n = 1 << 15;
        let mut first = SparseSequence::new(rules.clone());
        first.extend_to(PREFIX);
        let prefix_split = first.split().unwrap();
        let mut whole = SparseSequence::new(rules.clone());
        whole.extend_to(n);
        let split = whole.split().unwrap();
        assert_ne!(split, prefix_split);
        let g = whole.values();
        assert_eq!(g, &rules.naive_sequence(n)[..]);
        let rare_in = |s: SparseSplit| {
            (n / 2..n)
                .filter(|&i| s.class(i, g[i]) == s.rare_class)
                .count()
        };
        assert!(2 * rare_in(split) < rare_in(prefix_split));
        assert_eq!(
            whole.rare_count(),
            (1..n)
                .filter(|&i| split.class(i, g[i]) == split.rare_class)
                .count()
        );
        // The same choice however the extension is cut.
        let mut steps = SparseSequence::new(rules);
        for len in (1000..=n).step_by(3001).chain([n]) {
            steps.extend_to(len);
        }
        assert_eq!(steps.split(), whole.split());
        assert_eq!(steps.values(), whole.values());
        assert_eq!(steps.rare_count(), whole.rare_count());
    }

    #[test]
    fn search_period_computes_little_beyond_the_bound() {
        // 0.16: preperiod 105351, period 149459 (Flammenkamp): the certificate needs
        // 2a + 2p + t = 509622 terms; doubling would have computed 2^19 or 2^20.
        let r = octal(&[0, 1, 6]);
        let found = r.search_period(1 << 21, &nimlab_engine::progress::NoProgress);
        let per = found.period.expect("certified");
        assert_eq!((per.preperiod, per.period), (105351, 149459));
        assert!(
            found.values.len() <= 509_622 + 509_622 / 8,
            "{}",
            found.values.len()
        );
    }

    #[test]
    fn splits_are_the_rules() {
        let r = TakeBreak::new(vec![0, 0xf], false); // take 1, leave 0..3 heaps
        let mut opts = Vec::new();
        r.for_each_split(5, &mut |p| opts.push(p.to_vec()));
        assert_eq!(opts, vec![vec![4], vec![1, 3], vec![2, 2], vec![1, 1, 2]]);
        let mut one = Vec::new();
        r.for_each_split(1, &mut |p| one.push(p.to_vec()));
        assert_eq!(one, vec![Vec::<u64>::new()]);
    }
}
