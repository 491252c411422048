//! Subtraction games: one heap; a move takes s stones for some s in a finite set S.
//! Game I of the take-away paper is S = {1, 2, 3}.
//!
//! G(n) = mex{G(n − s) : s ∈ S, s ≤ n} depends only on the previous max(S) values, so
//! the sequence of windows W(n) = (G(n), …, G(n + max S − 1)) is produced by a fixed
//! map. The first window that repeats, W(a) = W(a + p), therefore *proves* that G has
//! preperiod a and period p (both least). [`certify_period`] finds it with a rolling
//! hash (every hit is confirmed by comparing the windows), which gives exact values for
//! any heap, however big ([`BigPositions::analyse_big`]), a fast sequence generator
//! ([`grundy_sequence_u8`]) and a parallel sweep over families of sets ([`sweep`]).

use crate::{format_set, sweep_order, Args, Family, Param, SweepRow};
use nimlab_engine::big::{BigAnalysis, BigPosition, BigUint};
use nimlab_engine::capability::{BigPositions, Capabilities, MoveRelation, SequenceKernel};
use nimlab_engine::periodicity::Periodicity;
use nimlab_engine::theorem::ProofClaim;
use nimlab_engine::theorem::{check_p_positions, Verdict};
use nimlab_engine::MemoryLimit;
use nimlab_engine::{Coord, Error, Game, Knob, Outcome, Result, Theorem};
use rayon::prelude::*;
use std::sync::OnceLock;

/// How far [`BigPositions::analyse_big`] and the generators search for the repeating window.
pub const DEFAULT_SEARCH_LIMIT: u64 = 10_000_000;

/// Most memory the period search may use (a value and a hash per heap searched).
pub const MAX_SEARCH_BYTES: u64 = 2 << 30;
/// Bytes the period search keeps per heap: a `u32` value and a `u64` window hash.
pub const SEARCH_BYTES_PER_HEAP: u64 = 12;

/// Heaps up to this size are answered term by term (G(0..=n) by the mex recurrence)
/// when the period is not known: no up-front search sized by max(S).
const DIRECT_HEAPS: u64 = 1 << 24;
/// Most mex steps (heaps × moves considered) spent on a term-by-term answer.
const DIRECT_WORK: u64 = 1 << 31;

/// The subtraction game with set `s` (sorted, positive, non-empty).
///
/// ```
/// use nimlab_engine::Solver;
/// use nimlab_games::subtraction::Subtraction;
/// let g = Subtraction::new(vec![1, 2, 3]).unwrap();
/// assert_eq!(Solver::new(&g).grundy(&[10]).unwrap(), 2); // 10 mod 4
/// ```
#[derive(Debug, Clone)]
pub struct Subtraction {
    s: Vec<u64>,
    /// The certified period found with [`DEFAULT_SEARCH_LIMIT`], computed on first use.
    period: OnceLock<std::result::Result<Periodicity, String>>,
}

impl Subtraction {
    /// A subtraction game; `s` must be a non-empty set of positive integers.
    pub fn new(mut s: Vec<u64>) -> Result<Self> {
        s.sort_unstable();
        s.dedup();
        if s.is_empty() {
            return Err(Error::input(
                "subtraction: the set s must not be empty (e.g. s={1,2,3})",
            ));
        }
        if s[0] == 0 {
            return Err(Error::input(
                "subtraction: the set s must hold positive integers (0 is not a move)",
            ));
        }
        if *s.last().expect("non-empty") > u32::MAX as u64 {
            return Err(Error::input(format!(
                "subtraction: the elements of s must be below 2^32, got {}",
                s.last().expect("non-empty")
            )));
        }
        Ok(Subtraction {
            s,
            period: OnceLock::new(),
        })
    }

    /// The subtraction set.
    pub fn set(&self) -> &[u64] {
        &self.s
    }

    /// The certified period within [`DEFAULT_SEARCH_LIMIT`] (cached).
    pub fn cached_period(&self) -> Result<&Periodicity> {
        self.period
            .get_or_init(|| {
                certify_period(&self.s, DEFAULT_SEARCH_LIMIT).map_err(|e| e.to_string())
            })
            .as_ref()
            .map_err(|msg| Error::input(msg.clone()))
    }
}

impl Game for Subtraction {
    fn spec(&self) -> String {
        format!("subtraction(s={})", format_set(&self.s))
    }
    fn dimension(&self) -> usize {
        1
    }
    fn is_downward_closed(&self) -> bool {
        true
    }
    fn for_each_option(&self, pos: &[Coord], visit: &mut dyn FnMut(&[Coord])) {
        for &t in &self.s {
            if t <= pos[0] {
                visit(&[pos[0] - t]);
            }
        }
    }
    fn capabilities(&self) -> Capabilities<'_> {
        // n′ = n − s for some s ∈ S
        let n = self.coordinate_names().remove(0);
        let takes: Vec<String> = self
            .s
            .iter()
            .map(|s| format!("{n} - {n}_ == {s}"))
            .collect();
        Capabilities {
            big: Some(self),
            sequence: Some(self),
            move_relation: Some(MoveRelation::new(takes.join(" || "))),
            ..Capabilities::none()
        }
    }
    fn max_options(&self, _pos: &[Coord]) -> Option<u128> {
        Some(self.s.len() as u128)
    }
}

impl SequenceKernel for Subtraction {
    fn sequence(&self, len: usize, limit: MemoryLimit) -> Result<Vec<u32>> {
        limit.check(
            &format!("the first {len} values of {}", self.spec()),
            (len as u64).saturating_mul(5),
        )?;
        if self.s.len() <= 254 {
            Ok(grundy_sequence_u8(&self.s, len)?
                .into_iter()
                .map(u32::from)
                .collect())
        } else {
            Ok(grundy_prefix(&self.s, len))
        }
    }
    fn sequence_method(&self) -> String {
        "the proven period (a repeated window of max(S) values), copied block by block".into()
    }
    fn certified_periodicity(
        &self,
        max_n: u64,
        _progress: &dyn nimlab_engine::Progress,
    ) -> Option<Result<Option<Periodicity>>> {
        if let Some(Ok(p)) = self.period.get()
            && p.checked_up_to <= max_n
        {
            return Some(Ok(Some(p.clone())));
        }
        Some(certify_period(&self.s, max_n).map(Some))
    }
}

impl BigPositions for Subtraction {
    fn analyse_big(&self, pos: &[BigUint]) -> Option<Result<BigAnalysis>> {
        Some(self.analyse_heap(pos))
    }
    fn moves_to_value(&self, pos: &[BigUint], target: &BigUint) -> Option<Vec<BigPosition>> {
        let per = self.cached_period().ok()?;
        let n = pos.first()?;
        let mut out: Vec<BigPosition> = self
            .s
            .iter()
            .map(|&t| BigUint::from(t))
            .filter(|t| t <= n)
            .map(|t| n - t)
            .filter(|m| BigUint::from(value_at_big(per, m)) == *target)
            .map(|m| vec![m])
            .collect();
        out.sort();
        Some(out)
    }
    fn big_options(&self, pos: &[BigUint]) -> Option<Vec<BigPosition>> {
        let n = pos.first()?;
        Some(
            self.s
                .iter()
                .map(|&t| BigUint::from(t))
                .filter(|t| t <= n)
                .map(|t| vec![n - t])
                .collect(),
        )
    }
}

impl Subtraction {
    fn analyse_heap(&self, pos: &[BigUint]) -> Result<BigAnalysis> {
        if pos.len() != 1 {
            return Err(Error::input(format!(
                "{} takes one heap (a position like 17), got {} coordinates",
                self.spec(),
                pos.len()
            )));
        }
        let n = &pos[0];
        // A small heap is answered from G(0..=n) directly when that is cheap, and always
        // when the period search fails (say max(S) is beyond its bound): its cost depends
        // on n, not on max(S).
        let direct = u64::try_from(n)
            .ok()
            .filter(|&n| self.direct_work(n).is_some());
        if let Some(small) = direct.filter(|&n| n < 2 * *self.s.last().expect("non-empty")) {
            return Ok(self.analyse_directly(pos, small, "computed term by term"));
        }
        let per = match self.cached_period() {
            Ok(per) => per,
            Err(e) => match direct {
                Some(small) => {
                    return Ok(self.analyse_directly(
                        pos,
                        small,
                        "computed term by term (no period within the search bound)",
                    ))
                }
                None => {
                    return Err(Error::input(format!(
                        "{e} (heaps below {DIRECT_HEAPS} are computed term by term)"
                    )))
                }
            },
        };
        let grundy = value_at_big(per, n);
        let mut winning_moves = Vec::new();
        for &t in &self.s {
            let t = BigUint::from(t);
            if &t <= n {
                let m = n - &t;
                if value_at_big(per, &m) == 0 {
                    winning_moves.push(vec![m]);
                }
            }
        }
        winning_moves.sort();
        Ok(BigAnalysis {
            position: pos.to_vec(),
            grundy: Some(BigUint::from(grundy)),
            outcome: Outcome::of(grundy),
            winning_moves,
            all_winning_moves: true,
            method: format!(
                "proven period: preperiod {}, period {} (the window of max(S) = {} values repeats)",
                per.preperiod,
                per.period,
                self.s.last().expect("non-empty")
            ),
        })
    }
}

impl Subtraction {
    /// The mex steps of computing G(0..=n) term by term, if within the direct bounds.
    fn direct_work(&self, n: u64) -> Option<u64> {
        if n >= DIRECT_HEAPS {
            return None;
        }
        let moves = self.s.partition_point(|&t| t <= n) as u64;
        let work = (n + 1).checked_mul(moves.max(1))?;
        (work <= DIRECT_WORK).then_some(work)
    }

    /// Value and every winning move of heap `n` from G(0..=n) by the mex recurrence.
    fn analyse_directly(&self, pos: &[BigUint], n: u64, method: &str) -> BigAnalysis {
        let g = grundy_prefix(&self.s, n as usize + 1);
        let grundy = g[n as usize];
        let winning_moves: Vec<Vec<BigUint>> = self
            .s
            .iter()
            .rev()
            .filter(|&&t| t <= n && g[(n - t) as usize] == 0)
            .map(|&t| vec![BigUint::from(n - t)])
            .collect();
        BigAnalysis {
            position: pos.to_vec(),
            grundy: Some(BigUint::from(grundy)),
            outcome: Outcome::of(grundy),
            winning_moves,
            all_winning_moves: true,
            method: format!("{method}: G(n) = mex{{G(n − s) : s ∈ S, s ≤ n}} for n ≤ {n}"),
        }
    }
}

/// The set for a one-line message (a long set is cut).
fn show_set(s: &[u64]) -> String {
    crate::spec::show(&format_set(s))
}

/// G(n) for a big n from a plain (saltus 0) periodicity.
///
/// ```
/// use nimlab_engine::big::BigUint;
/// use nimlab_games::subtraction::{certify_period, value_at_big};
/// let per = certify_period(&[1, 2, 3], 1000).unwrap();
/// let n: BigUint = "100000000000000000000000000003".parse().unwrap();
/// assert_eq!(value_at_big(&per, &n), 3); // n mod 4
/// ```
pub fn value_at_big(per: &Periodicity, n: &BigUint) -> u32 {
    let a = per.preperiod;
    match u64::try_from(n) {
        Ok(small) if small < a => per.values[small as usize],
        _ => {
            let r = (n - BigUint::from(a)) % BigUint::from(per.period);
            let r = u64::try_from(&r).expect("remainder below the period fits in u64");
            per.values[(a + r) as usize]
        }
    }
}

/// The mex of the option values of heap `n`, given G(0..n) in `g`. Values are at most
/// |S|, so a 64-bit mask holds them when |S| < 64 (the common case); otherwise a
/// sorted scan.
#[inline]
fn mex_at(s: &[u64], g: &[u32], n: usize) -> u32 {
    if s.len() < 64 {
        let mut mask = 0u64;
        for &t in s {
            let t = t as usize;
            if t > n {
                break;
            }
            mask |= 1 << g[n - t];
        }
        (!mask).trailing_zeros()
    } else {
        let mut seen: Vec<u32> = s
            .iter()
            .take_while(|&&t| t as usize <= n)
            .map(|&t| g[n - t as usize])
            .collect();
        seen.sort_unstable();
        seen.dedup();
        seen.iter()
            .enumerate()
            .find(|&(i, &v)| v != i as u32)
            .map_or(seen.len() as u32, |(i, _)| i as u32)
    }
}

/// The first `len` Grundy values, by the plain mex recurrence (the oracle).
///
/// ```
/// use nimlab_games::subtraction::grundy_prefix;
/// assert_eq!(grundy_prefix(&[1, 3, 4], 10), vec![0, 1, 0, 1, 2, 3, 2, 0, 1, 0]);
/// ```
pub fn grundy_prefix(s: &[u64], len: usize) -> Vec<u32> {
    let mut g = Vec::with_capacity(len);
    for n in 0..len {
        let v = mex_at(s, &g, n);
        g.push(v);
    }
    g
}

/// The bounds of [`certify_period`]'s search on a valid set: max(S), the heaps searched
/// and the most the memory allows; a set that is not sorted positive integers, or whose
/// window (2·max(S) heaps) does not fit, is refused.
fn period_search_bounds(s: &[u64], max_n: u64) -> Result<(usize, usize, u64)> {
    let m = *s
        .last()
        .ok_or_else(|| Error::input("empty subtraction set"))? as usize;
    if !s.windows(2).all(|w| w[0] < w[1]) || s[0] == 0 {
        return Err(Error::input(format!(
            "subtraction(s={}): the set must be sorted positive integers",
            show_set(s)
        )));
    }
    // The search keeps a value and a hash per heap: bound it by memory as well, and
    // refuse up front a set whose window alone (2·max(S) heaps) would not fit.
    let max_heaps = MAX_SEARCH_BYTES / SEARCH_BYTES_PER_HEAP;
    let least = 2 * m as u64;
    if least > max_heaps && least <= max_n {
        return Err(Error::input(format!(
            "subtraction(s={}): the period search for max(S) = {m} needs about {}; \
             the limit is {}",
            show_set(s),
            nimlab_engine::error::human_bytes(least.saturating_mul(SEARCH_BYTES_PER_HEAP)),
            nimlab_engine::error::human_bytes(MAX_SEARCH_BYTES)
        )));
    }
    let limit = max_n.min(u32::MAX as u64).min(max_heaps) as usize;
    if 2 * m > limit {
        return Err(Error::input(format!(
            "subtraction(s={}): max(S) = {m} needs a search bound of at least {} (got {limit})",
            show_set(s),
            2 * m
        )));
    }
    Ok((m, limit, max_heaps))
}

/// The least preperiod and period of the subtraction game with set `s`, *proven* by the
/// first repeat of a window of max(S) consecutive values, searching heaps below
/// `max_n`. `s` must be sorted, positive and non-empty.
///
/// ```
/// use nimlab_games::subtraction::certify_period;
/// let p = certify_period(&[1, 3, 4], 1000).unwrap();
/// assert_eq!((p.preperiod, p.period), (0, 7));
/// assert_eq!(p.block(), &[0, 1, 0, 1, 2, 3, 2]);
/// assert!(p.proof.is_some());
/// assert!(certify_period(&[9, 20, 29], 100).is_err()); // period 378 needs more room
/// ```
pub fn certify_period(s: &[u64], max_n: u64) -> Result<Periodicity> {
    let (m, limit, max_heaps) = period_search_bounds(s, max_n)?;
    // Polynomial rolling hash of each window (values shifted by 1 so zeros count);
    // equal hashes are confirmed by comparing the windows themselves.
    const BASE: u64 = 0x9E37_79B9_7F4A_7C15;
    let top = BASE.wrapping_pow((m - 1) as u32); // BASE^(m−1); m < 2^32
    let mut g: Vec<u32> = Vec::new();
    let mut hashes: Vec<u64> = Vec::new(); // hashes[j] = hash of W(j) = g[j..j+m]
    let mut h = 0u64;
    let mut extend = |g: &mut Vec<u32>, hashes: &mut Vec<u64>| {
        // compute values until one more window is complete
        loop {
            let n = g.len();
            let v = mex_at(s, g, n);
            g.push(v);
            h = h.wrapping_mul(BASE).wrapping_add(v as u64 + 1);
            if n + 1 >= m {
                hashes.push(h);
                let j = n + 1 - m;
                h = h.wrapping_sub((g[j] as u64 + 1).wrapping_mul(top));
                return;
            }
        }
    };
    let same = |g: &[u32], hashes: &[u64], i: usize, j: usize| {
        hashes[i] == hashes[j] && g[i..i + m] == g[j..j + m]
    };
    // Brent's cycle finding on the window sequence: the anchor jumps to powers of two;
    // the first window equal to an anchor inside the cycle is exactly one period away.
    extend(&mut g, &mut hashes);
    let mut anchor = 0usize;
    let mut power = 1usize;
    let mut j = 0usize;
    let period = loop {
        j += 1;
        if j + m > limit {
            return Err(Error::input(format!(
                "subtraction(s={}): no window of {m} values repeats below n = {limit}; \
                 {}",
                show_set(s),
                if limit as u64 == max_heaps {
                    format!(
                        "a longer search would need more than {}",
                        nimlab_engine::error::human_bytes(MAX_SEARCH_BYTES)
                    )
                } else {
                    "search further (a larger window up_to)".to_string()
                }
            )));
        }
        extend(&mut g, &mut hashes);
        if same(&g, &hashes, anchor, j) {
            break j - anchor;
        }
        if j - anchor == power {
            anchor = j;
            power *= 2;
        }
    };
    // The least preperiod: the first window equal to the one a period later.
    let a = (0..=anchor)
        .find(|&i| same(&g, &hashes, i, i + period))
        .expect("the anchor itself repeats");
    Ok(Periodicity {
        preperiod: a as u64,
        period: period as u64,
        saltus: 0,
        values: g[..a + period].to_vec(),
        checked_up_to: g.len() as u64,
        proof: Some(format!(
            "the window of max(S) = {m} values at n = {a} repeats at n = {}; \
             each value depends only on the previous {m}",
            a + period
        )),
    })
}

/// The Grundy values G(0), …, G(len − 1) as bytes (|S| ≤ 254 so every value fits),
/// fast: the proven period is found first, then the periodic block is copied with
/// doubling `memcpy`s. Falls back to the mex loop past [`DEFAULT_SEARCH_LIMIT`].
///
/// ```
/// use nimlab_games::subtraction::{grundy_prefix, grundy_sequence_u8};
/// let fast = grundy_sequence_u8(&[1, 3, 4], 1000).unwrap();
/// let slow = grundy_prefix(&[1, 3, 4], 1000);
/// assert!(fast.iter().zip(&slow).all(|(&a, &b)| a as u32 == b));
/// ```
pub fn grundy_sequence_u8(s: &[u64], len: usize) -> Result<Vec<u8>> {
    if s.len() > 254 {
        return Err(Error::input(
            "grundy_sequence_u8 needs |S| ≤ 254 so that every value fits in a byte",
        ));
    }
    let mut out = vec![0u8; len];
    match certify_period(s, DEFAULT_SEARCH_LIMIT.min(len as u64)) {
        Ok(per) => {
            let head = per.values.len().min(len);
            for (o, &v) in out[..head].iter_mut().zip(&per.values) {
                *o = v as u8;
            }
            // out[a..a+filled) holds whole periods; double it until the end.
            let a = per.preperiod as usize;
            let mut filled = head - a.min(head);
            while a + filled < len {
                let take = filled.min(len - a - filled);
                out.copy_within(a..a + take, a + filled);
                filled += take;
            }
        }
        Err(_) => {
            // No period found early: the plain recurrence on bytes.
            for n in 0..len {
                let mut mask = 0u128;
                let mut bigger = Vec::new();
                for &t in s {
                    let t = t as usize;
                    if t > n {
                        break;
                    }
                    let v = out[n - t];
                    if v < 128 {
                        mask |= 1 << v;
                    } else {
                        bigger.push(v);
                    }
                }
                let mut mex = (!mask).trailing_zeros();
                if mex == 128 {
                    bigger.sort_unstable();
                    for v in bigger {
                        if v as u32 == mex {
                            mex += 1;
                        }
                    }
                }
                out[n] = mex as u8;
            }
        }
    }
    Ok(out)
}

/// Number of `size`-element subsets of {1, …, max}, if it fits in u64.
///
/// ```
/// use nimlab_games::subtraction::count_sets;
/// assert_eq!(count_sets(30, 3), Some(4060));
/// assert_eq!(count_sets(3, 5), Some(0));
/// ```
pub fn count_sets(max: u64, size: u64) -> Option<u64> {
    if size > max {
        return Some(0);
    }
    // C(max, size) = C(max, max − size): the shorter product.
    let k = size.min(max - size);
    let mut c: u128 = 1;
    for i in 0..k {
        c = c * (max - i) as u128 / (i + 1) as u128;
        if c > u64::MAX as u128 {
            return None;
        }
    }
    Some(c as u64)
}

/// The number of `size`-element subsets of {1, …, max} in words: exact, or "more than
/// 10^300" when it has more digits than that (never a saturated count).
///
/// ```
/// use nimlab_games::subtraction::count_sets_text;
/// assert_eq!(count_sets_text(30, 3), "4060");
/// assert_eq!(count_sets_text(1000, 10), "263409560461970212832400");
/// assert_eq!(count_sets_text(u64::MAX, u64::MAX), "1");
/// assert_eq!(count_sets_text(1 << 40, 1 << 20), "more than 10^300");
/// ```
pub fn count_sets_text(max: u64, size: u64) -> String {
    use nimlab_engine::big::BigUint;
    if size > max {
        return "0".into();
    }
    let k = size.min(max - size);
    // From k = 1000 on (and max ≥ 2k), C(max, k) ≥ C(2000, 1000) > 10^600.
    if k >= 1000 {
        return "more than 10^300".into();
    }
    let mut c = BigUint::from(1u32);
    for i in 0..k {
        c = c * BigUint::from(max - i) / BigUint::from(i + 1);
    }
    c.to_string()
}

/// Every `size`-element subset of {1, …, max} whose index in lexicographic order is
/// ≡ `shard` (mod `shards`), with its proven preperiod and period (searching heaps
/// below `search_limit`), computed in parallel and sorted by [`sweep_order`].
///
/// Sharding is round-robin over the lexicographic index, so shards get similar work;
/// the union of the shards `0/k, …, (k−1)/k` is the whole sweep, and sorting the
/// concatenation with [`sweep_order`] gives the unsharded result.
///
/// ```
/// use nimlab_games::{subtraction::sweep, SweepRequest};
/// let req = SweepRequest { max: 30, size: 3, shard: (0, 1), up_to: 1_000_000 };
/// let rows = sweep(&req, &nimlab_engine::NoProgress).unwrap();
/// assert_eq!(rows.len(), 4060);
/// assert_eq!(rows[0].member, vec![9, 20, 29]);
/// assert_eq!(rows[0].period.unwrap().1, 378);
/// ```
pub fn sweep(
    request: &crate::SweepRequest,
    progress: &dyn nimlab_engine::Progress,
) -> Result<Vec<SweepRow>> {
    let crate::SweepRequest {
        max,
        size,
        shard: (shard, shards),
        up_to: search_limit,
    } = *request;
    check_sweep_request(max, size, (shard, shards), search_limit)?;
    check_sweep_size(max, size, (shard, shards))?;
    let sets = shard_sets(max, size, (shard, shards));
    progress.start(sets.len() as u64, "sets");
    let mut rows: Vec<SweepRow> = sets
        .into_par_iter()
        .with_min_len(64) // sets are cheap: hand them out in batches
        .map(|set| {
            // Once cancelled, the sets left are skipped (and the rows thrown away).
            if progress.cancelled() {
                return SweepRow {
                    member: set,
                    period: None,
                };
            }
            let period = certify_period(&set, search_limit)
                .ok()
                .map(|p| (p.preperiod, p.period));
            progress.advance(1);
            SweepRow {
                member: set,
                period,
            }
        })
        .collect();
    progress.check_cancelled()?;
    progress.finish();
    rows.par_sort_by(sweep_order);
    Ok(rows)
}

/// Refuses a sweep request (the fields of [`crate::SweepRequest`]) whose sets, shard or
/// search bound are out of range.
fn check_sweep_request(
    max: u64,
    size: u64,
    (shard, shards): (u64, u64),
    search_limit: u64,
) -> Result<()> {
    if size == 0 || max == 0 {
        let (knob, value) = if max == 0 {
            (Knob::Max, max)
        } else {
            (Knob::SetSize, size)
        };
        return Err(Error::out_of_range(
            "sweep: the sets' size and largest element",
            value,
            "at least 1",
            knob,
        ));
    }
    if size > max {
        return Err(Error::out_of_range(
            format!("sweep: no {size}-element subsets of {{1,…,{max}}}: the sets' size"),
            size,
            format!("at most the largest element {max}"),
            Knob::SetSize,
        ));
    }
    if shards == 0 || shard >= shards {
        return Err(Error::out_of_range(
            "sweep: the shard",
            format!("{shard}/{shards}"),
            "i/k with 0 ≤ i < k",
            Knob::Shard,
        ));
    }
    if search_limit == 0 {
        return Err(Error::out_of_range(
            "sweep: the heaps searched for a period",
            search_limit,
            "at least 1",
            Knob::UpTo,
        ));
    }
    Ok(())
}

/// Refuses a sweep of the `size`-element subsets of {1, …, `max`} too long to run in
/// one shard `shard.0` of `shard.1`, or at all.
fn check_sweep_size(max: u64, size: u64, (shard, shards): (u64, u64)) -> Result<()> {
    const MAX_SETS: u64 = 50_000_000;
    let total = count_sets(max, size).unwrap_or(u64::MAX);
    if total / shards > MAX_SETS {
        return Err(Error::out_of_range(
            format!(
                "sweep: {} sets is too many for one run: the shard",
                count_sets_text(max, size)
            ),
            format!("{shard}/{shards}"),
            format!("at most {MAX_SETS} sets per shard (split into more shards)"),
            Knob::Shard,
        ));
    }
    // Enumerating the family costs one step a set whatever the shard; certifying a
    // set's period costs at least a few windows of max(S) values.
    const MAX_ENUMERATED: u64 = 2_000_000_000;
    if total > MAX_ENUMERATED {
        return Err(Error::out_of_range(
            format!(
                "sweep: the family has {} sets; enumerating more than \
                 {MAX_ENUMERATED} (in any shard) takes too long: the largest element",
                count_sets_text(max, size)
            ),
            max,
            "lower (or a smaller set size)",
            Knob::Max,
        ));
    }
    let work = (total / shards) as u128 * max as u128 * size as u128 * 4;
    const MAX_WORK: u128 = 60_000_000_000; // about ten minutes
    if work > MAX_WORK {
        return Err(Error::out_of_range(
            format!(
                "sweep over {} sets of size {size} with max ≤ {max} would take about {} \
                 (estimate): the shard",
                total / shards,
                nimlab_engine::error::human_duration((work / 100_000_000) as f64)
            ),
            format!("{shard}/{shards}"),
            "smaller (split into more shards or lower the largest element)",
            Knob::Shard,
        ));
    }
    Ok(())
}

/// The `size`-element subsets of {1, …, `max`} whose index in lexicographic order is
/// ≡ `shard.0` (mod `shard.1`), in that order.
fn shard_sets(max: u64, size: u64, (shard, shards): (u64, u64)) -> Vec<Vec<u64>> {
    let mut sets = Vec::new();
    let mut combo: Vec<u64> = (1..=size).collect();
    let mut index = 0u64;
    loop {
        if index % shards == shard {
            sets.push(combo.clone());
        }
        index += 1;
        // next combination in lexicographic order
        let k = size as usize;
        let mut i = k;
        while i > 0 && combo[i - 1] == max - (k - i) as u64 {
            i -= 1;
        }
        if i == 0 {
            break;
        }
        combo[i - 1] += 1;
        for j in i..k {
            combo[j] = combo[j - 1] + 1;
        }
    }
    sets
}

fn build(args: &Args) -> Result<Box<dyn Game>> {
    Ok(Box::new(Subtraction::new(args.set("s")?)?))
}

fn theorems() -> Vec<Theorem> {
    vec![
        Theorem::new(
            "subtraction.game-i",
            "Game I (take 1, 2 or 3): n is a P-position iff n ≡ 0 (mod 4); more generally for \
             S = {1,…,k}, iff n ≡ 0 (mod k+1)",
            "\"Winning strategies for take-away games\" (in Japanese; author and year not \
             stated), Game I [Take-away]",
            |ctx| {
                let n = (ctx.size * ctx.size).max(1000);
                let parts = (1..=6)
                    .map(|k| {
                        let g = Subtraction::new((1..=k).collect())?;
                        let v = check_p_positions(&g, &[n], ctx, |p| p[0] % (k + 1) == 0)?;
                        Ok((format!("S = {}", format_set(g.set())), v))
                    })
                    .collect::<Result<Vec<_>>>()?;
                Ok(Verdict::all(parts))
            },
        )
        .with_claims(vec![
            ProofClaim::grundy("subtraction(s={1,2,3})", "n % 4", "base2"),
            ProofClaim::p_positions("subtraction(s={1,2,3})", "n % 4 == 0", "base2"),
            ProofClaim::grundy("subtraction(s={1,2,3,4,5})", "n % 6", "base2"),
        ]),
        Theorem::new(
            "subtraction.window-period",
            "For a finite S, if the max(S) values from n = a repeat from n = a + p, then \
             G(n + p) = G(n) for every n ≥ a (the certified period is the true one)",
            "E. R. Berlekamp, J. H. Conway, R. K. Guy, Winning Ways (1982), ch. 4 (subtraction \
             games); cf. [Take-away], Game I",
            |ctx| {
                // Every set with max ≤ 8 (and a few wider ones): the period found from the
                // repeated window must agree with the plain mex loop far beyond it.
                let mut sets: Vec<Vec<u64>> = (1u64..256)
                    .map(|mask| (1..=8).filter(|i| mask >> (i - 1) & 1 == 1).collect())
                    .collect();
                sets.extend([vec![9, 20, 29], vec![2, 7, 11, 18], vec![3, 5, 17, 23, 30]]);
                let mut checked = 0;
                for s in &sets {
                    let per = certify_period(s, 1_000_000)?;
                    let len = (per.values.len() * 4).max(ctx.size * ctx.size).max(2000);
                    let g = grundy_prefix(s, len);
                    for (n, &v) in g.iter().enumerate() {
                        let claimed = per.value_at(n as u128).expect("plain period") as u32;
                        if claimed != v {
                            return Ok(Verdict::Fails {
                                counterexample: format!(
                                    "S = {}: G({n}) = {v} but the period gives {claimed}",
                                    format_set(s)
                                ),
                            });
                        }
                        checked += 1;
                    }
                }
                Ok(Verdict::Holds {
                    window: format!(
                        "{} sets (all S ⊆ {{1..8}} and 3 wider), each to ≥ 4 periods",
                        sets.len()
                    ),
                    checked,
                })
            },
        ),
    ]
}

/// Every subtraction set of a size with max ≤ M.
static SWEEP: crate::Sweep = crate::Sweep {
    members: "sets",
    run: sweep,
    count: count_sets,
};

/// The `subtraction` family.
pub static FAMILY: Family = Family {
    name: "subtraction",
    summary: "One heap; take s stones for some s in the finite set S",
    params: &[Param {
        name: "s",
        kind: "finite non-empty set of positive integers",
        default: Some("{1,2,3}"),
        example: None,
        help: "the subtraction set",
    }],
    position_syntax: "n (the heap size, any size)",
    seed: "\"Winning strategies for take-away games\" (in Japanese; author and year not \
         stated), Game I [Take-away]",
    build,
    theorems,
    sweep: Some(&SWEEP),
};
