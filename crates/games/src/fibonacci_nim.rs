//! The multiplier family of take-away games (docs/theory.md §2, Games II and III): one heap; the
//! first move takes 1 ≤ t < n (not the whole heap); afterwards a player may take
//! 1 ≤ t ≤ k × (the previous take). k = 1 is Game II, k = 2 is Game III (Fibonacci Nim).
//!
//! A position is (heap, limit): the heap and the most the mover may take. A single
//! number n is the start (n, n − 1). Taking t from (n, L) goes to (n − t, min(k·t, n − t))
//! (a limit above the heap allows nothing more than the heap itself).
//!
//! Strategy (Schwenk 1970): let H₁ = 1, H_{j+1} = H_j + H_m with m least such that
//! k·H_m ≥ H_j (powers of two for k = 1, Fibonacci numbers for k = 2). Write n greedily
//! as a sum of H's; its smallest term w(n) is the least winning take, and (n, L) is an
//! N-position iff L ≥ w(n). The seed computes w(n) by the recursion "least t with
//! w(n − t) > k·t, or t = n", and the code of n (the greedy representation as a bit
//! string) alongside ([`strategy_table`]).

use crate::{Args, Family, Param};
use nimlab_engine::big::{BigAnalysis, BigUint};
use nimlab_engine::capability::{
    BigPositions, Capabilities, MoveRelation, StrategyTable, TableKernel, TextTable,
};
use nimlab_engine::theorem::ProofClaim;
use nimlab_engine::theorem::{describe_window, CheckContext, Verdict};
use nimlab_engine::{grundy_table, Coord, Error, Game, GrundyTable, MemoryLimit, Outcome};
use nimlab_engine::{Result, Theorem};
use std::sync::{Arc, Mutex};

/// The game with multiplier `k`.
///
/// ```
/// use nimlab_engine::Solver;
/// use nimlab_games::fibonacci_nim::FibonacciNim;
/// let g = FibonacciNim::new(2).unwrap();
/// let mut s = Solver::new(&g);
/// assert_eq!(s.grundy(&[8]).unwrap(), 0);     // 8 is a Fibonacci number: P
/// assert_ne!(s.grundy(&[7]).unwrap(), 0);     // 7 = 5 + 2: take 2
/// assert_eq!(s.grundy(&[7, 1]).unwrap(), 0);  // but not when at most 1 may be taken
/// ```
#[derive(Debug, Clone)]
pub struct FibonacciNim {
    k: u64,
    /// The longest G(heap, limit) rows computed for exact values, shared by clones: a
    /// position and then each of its options are valued from one computation.
    rows: Arc<Mutex<Option<Arc<FibNimRows>>>>,
}

impl FibonacciNim {
    /// The game with multiplier `k ≥ 1`.
    pub fn new(k: u64) -> Result<Self> {
        if k == 0 {
            return Err(Error::input("fibonacci-nim: k must be at least 1"));
        }
        Ok(FibonacciNim {
            k,
            rows: Arc::default(),
        })
    }

    /// The rows of every heap ≤ `n` ([`grundy_rows`]), from the cache when it covers
    /// them; `None` past the memory limit.
    fn rows_to(&self, n: u64, memory: MemoryLimit) -> Option<Arc<FibNimRows>> {
        let mut cache = self.rows.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(rows) = cache.as_ref().filter(|r| r.max_heap() >= n) {
            return Some(rows.clone());
        }
        let rows = Arc::new(grundy_rows(self.k, n, memory).ok()?);
        *cache = Some(rows.clone());
        Some(rows)
    }

    /// The multiplier.
    pub fn k(&self) -> u64 {
        self.k
    }
}

/// (heap, limit) of a position given as `n` (the start) or `n,limit`.
fn heap_and_limit(pos: &[Coord]) -> (u64, u64) {
    match pos {
        [n] => (*n, n.saturating_sub(1)),
        [n, l, ..] => (*n, *l),
        [] => (0, 0),
    }
}

impl Game for FibonacciNim {
    fn spec(&self) -> String {
        format!("fibonacci-nim(k={})", self.k)
    }
    fn explain_move(&self, _from: &[BigUint], to: &[BigUint]) -> Option<String> {
        let (n, limit) = match to {
            [n] => (
                n.clone(),
                n.clone() - BigUint::from(u8::from(*n > BigUint::ZERO)),
            ),
            [n, l] => (n.clone(), l.clone()),
            _ => return None,
        };
        if n == BigUint::ZERO {
            return Some("the heap is empty".into());
        }
        let (w, name) = least_winning_take(self.k, &n).ok()?;
        let code = match self.k {
            1 => format!(" = {}", n.to_str_radix(2)),
            2 => format!(" = {}", nimlab_engine::zeckendorf::zeck_code(&n)),
            _ => String::new(),
        };
        Some(format!(
            "in the {name} the heap {n}{code} has smallest term w = {w}, more than the {limit} the opponent may take (Schwenk: the mover wins iff the limit is at least w)"
        ))
    }
    fn dimension(&self) -> usize {
        2
    }
    fn form(&self) -> nimlab_engine::position::PositionForm {
        // A heap alone (the first move, any size), or a heap and the limit.
        nimlab_engine::position::PositionForm {
            coordinates: 1..=2,
            ..nimlab_engine::position::PositionForm::tuple(2)
        }
    }
    fn coordinate_names(&self) -> Vec<String> {
        vec!["heap".into(), "limit".into()]
    }
    fn rank(&self, pos: &[Coord]) -> u128 {
        // The heap shrinks with every move; the limit may grow.
        pos.first().copied().unwrap_or(0) as u128
    }
    fn for_each_option(&self, pos: &[Coord], visit: &mut dyn FnMut(&[Coord])) {
        let (n, l) = heap_and_limit(pos);
        for t in 1..=l.min(n) {
            visit(&[n - t, self.k.saturating_mul(t).min(n - t)]);
        }
    }
    fn capabilities(&self) -> Capabilities<'_> {
        // take t = heap − heap′ with 1 ≤ t ≤ limit; the next limit is min(k·t, heap′)
        let relation = format!(
            "heap_ < heap && heap - heap_ <= limit && limit_ == min({} * (heap - heap_), heap_)",
            self.k
        );
        Capabilities {
            big: Some(self),
            move_relation: Some(MoveRelation::new(relation)),
            table_kernel: Some(self),
            strategy_table: Some(self),
            ..Capabilities::none()
        }
    }
}

impl TableKernel for FibonacciNim {
    fn table(&self, dims: &[usize], limit: MemoryLimit) -> Option<Result<GrundyTable>> {
        match dims {
            [a, b] if a == b => Some(fast_table(self.k, *a, limit)),
            _ => None,
        }
    }
    fn table_method(&self) -> String {
        "Fibonacci Nim kernel: G(heap, limit) rows by breakpoints".into()
    }
}

impl StrategyTable for FibonacciNim {
    fn strategy_table(&self, size: usize) -> Result<TextTable> {
        const MAX_ROWS: usize = 1_000_000;
        if size > MAX_ROWS {
            return Err(Error::out_of_range(
                "the strategy table's rows",
                size,
                format!("at most {MAX_ROWS}"),
                nimlab_engine::Knob::Size,
            ));
        }
        let rows = strategy_table(self.k, size)
            .into_iter()
            .map(|r| vec![r.n.to_string(), r.w.to_string(), r.code])
            .collect();
        Ok((vec!["n".into(), "w(n)".into(), "code".into()], rows))
    }
}

impl BigPositions for FibonacciNim {
    fn analyse_big(&self, pos: &[BigUint]) -> Option<Result<BigAnalysis>> {
        self.analyse_big_within(pos, &nimlab_engine::TableOptions::default())
    }
    fn analyse_big_within(
        &self,
        pos: &[BigUint],
        opts: &nimlab_engine::TableOptions,
    ) -> Option<Result<BigAnalysis>> {
        // Small heaps: let the generic solver list every option and winning move.
        if matches!(pos.first().map(u64::try_from), Some(Ok(n)) if n <= BRUTE_FORCE_UP_TO)
            && pos.iter().all(|c| u64::try_from(c).is_ok())
        {
            return None;
        }
        Some(self.analyse_position(pos, opts.memory_limit))
    }
}

/// Heaps up to which `value` and `moves` use the generic solver (all options listed).
pub const BRUTE_FORCE_UP_TO: u64 = 200;

/// Kernel steps (the takes visited: about heap² / (k + 1)) up to which
/// [`BigPositions::analyse_big`] also gives the exact Grundy value (from
/// [`grundy_rows`], about a second); beyond, the outcome and a winning move come from
/// the code alone.
pub const EXACT_GRUNDY_WORK: u64 = 1 << 30;

/// Whether the exact Grundy value of a heap of `n` (any limit) is within
/// [`EXACT_GRUNDY_WORK`] for multiplier `k`.
///
/// ```
/// use nimlab_games::fibonacci_nim::exact_grundy_fits;
/// assert!(exact_grundy_fits(2, 4000));
/// assert!(!exact_grundy_fits(2, u64::MAX));
/// ```
pub fn exact_grundy_fits(k: u64, n: u64) -> bool {
    n.saturating_mul(n / k.saturating_add(1) + 1) <= EXACT_GRUNDY_WORK
}

/// Largest heap (in bits) for which the general-k code is computed (k ≥ 3 needs the
/// whole sequence H up to n; k = 1 and k = 2 have no such bound).
pub const GENERAL_K_MAX_BITS: u64 = 20_000;

impl FibonacciNim {
    /// The position `n` or `n,limit` by the code, at any size (the brute-force cut-off
    /// of [`BigPositions::analyse_big`] left out); the exact Grundy value too where
    /// [`grundy_rows`] is cheap ([`exact_grundy_fits`]) and fits `memory`.
    pub fn analyse_position(&self, pos: &[BigUint], memory: MemoryLimit) -> Result<BigAnalysis> {
        let (n, limit) = match pos {
            [n] => (
                n.clone(),
                if n > &BigUint::ZERO {
                    n - 1u32
                } else {
                    BigUint::ZERO
                },
            ),
            [n, l] => (n.clone(), l.clone()),
            _ => {
                return Err(Error::input(format!(
                    "{} positions are n (the start) or heap,limit; got {} coordinates",
                    self.spec(),
                    pos.len()
                )))
            }
        };
        if n == BigUint::ZERO {
            return Ok(BigAnalysis {
                position: pos.to_vec(),
                grundy: Some(BigUint::ZERO),
                outcome: Outcome::P,
                winning_moves: vec![],
                all_winning_moves: true,
                method: "empty heap: no move".into(),
            });
        }
        let (w, how) = least_winning_take(self.k, &n)?;
        let wins = limit >= w;
        let winning_moves = if wins {
            let rest = &n - &w;
            let next_limit = (&w * self.k).min(rest.clone());
            vec![vec![rest, next_limit]]
        } else {
            vec![]
        };
        // Exact Grundy values where the kernel is cheap (a limit past the heap changes
        // nothing); else, or past the memory limit, the code's answer alone.
        let grundy = match u64::try_from(&n) {
            Ok(small) if exact_grundy_fits(self.k, small) => {
                let l = u64::try_from(&limit).unwrap_or(u64::MAX);
                self.rows_to(small, memory)
                    .map(|rows| BigUint::from(rows.get(small, l)))
            }
            _ => None,
        };
        Ok(BigAnalysis {
            position: pos.to_vec(),
            grundy,
            outcome: if wins { Outcome::N } else { Outcome::P },
            winning_moves,
            all_winning_moves: false,
            method: format!(
                "{how}: the least winning take is w(n) = the smallest term of n's code; \
                 the mover wins iff limit ≥ w(n)"
            ),
        })
    }
}

/// w(n) = the smallest term of the greedy representation of `n ≥ 1` by Schwenk's
/// sequence for multiplier `k`, with the name of the code used.
///
/// ```
/// use nimlab_engine::big::BigUint;
/// use nimlab_games::fibonacci_nim::least_winning_take;
/// let w = |k, n: u32| least_winning_take(k, &BigUint::from(n)).unwrap().0;
/// assert_eq!(w(1, 24), BigUint::from(8u32));  // lowest set bit
/// assert_eq!(w(2, 31), BigUint::from(2u32));  // 31 = 21 + 8 + 2
/// assert_eq!(w(3, 10), BigUint::from(2u32));  // H = 1,2,3,4,6,8,11,…: 10 = 8 + 2
/// ```
pub fn least_winning_take(k: u64, n: &BigUint) -> Result<(BigUint, &'static str)> {
    if n == &BigUint::ZERO {
        return Err(Error::input("w(n) is defined for n ≥ 1"));
    }
    match k {
        1 => {
            let tz = n.trailing_zeros().expect("n ≥ 1");
            Ok((BigUint::from(1u32) << tz, "binary code (Game II)"))
        }
        2 => Ok((
            nimlab_engine::zeckendorf::zeck_low(n),
            "Zeckendorf code (Game III)",
        )),
        _ => {
            if n.bits() > GENERAL_K_MAX_BITS {
                return Err(Error::input(format!(
                    "fibonacci-nim(k={k}): heaps above 2^{GENERAL_K_MAX_BITS} are too big for \
                     the general-k code (k = 1 and k = 2 have no limit)"
                )));
            }
            let h = schwenk_big(k, n);
            let mut rest = n.clone();
            let mut smallest = BigUint::ZERO;
            for term in h.iter().rev() {
                if term <= &rest {
                    rest -= term;
                    smallest = term.clone();
                    if rest == BigUint::ZERO {
                        break;
                    }
                }
            }
            Ok((smallest, "Schwenk code"))
        }
    }
}

pub use nimlab_engine::zeckendorf::fibonacci_pair;

/// Schwenk's sequence H₁ = 1, H_{j+1} = H_j + H_m (m least with k·H_m ≥ H_j), every
/// term ≤ `bound`.
///
/// ```
/// use nimlab_games::fibonacci_nim::schwenk;
/// assert_eq!(schwenk(1, 20), vec![1, 2, 4, 8, 16]);
/// assert_eq!(schwenk(2, 20), vec![1, 2, 3, 5, 8, 13]);
/// assert_eq!(schwenk(3, 20), vec![1, 2, 3, 4, 6, 8, 11, 15]);
/// ```
pub fn schwenk(k: u64, bound: u64) -> Vec<u64> {
    if bound == 0 {
        return Vec::new();
    }
    let mut h: Vec<u64> = vec![1];
    let mut m = 0usize;
    loop {
        let last = *h.last().expect("non-empty");
        while (h[m] as u128) * (k as u128) < last as u128 {
            m += 1;
        }
        match last.checked_add(h[m]) {
            Some(next) if next <= bound => h.push(next),
            _ => return h,
        }
    }
}

fn schwenk_big(k: u64, bound: &BigUint) -> Vec<BigUint> {
    let mut h: Vec<BigUint> = vec![BigUint::from(1u32)];
    let mut m = 0usize;
    loop {
        let last = h.last().expect("non-empty");
        while &h[m] * k < *last {
            m += 1;
        }
        let next = last + &h[m];
        if &next > bound {
            break;
        }
        h.push(next);
    }
    h
}

/// The smallest term of the greedy representation of `n ≥ 1` over `h` (ascending).
fn greedy_smallest(n: u64, h: &[u64]) -> u64 {
    let mut rest = n;
    let mut smallest = 0;
    for &term in h.iter().rev() {
        if term <= rest {
            rest -= term;
            smallest = term;
        }
    }
    smallest
}

/// The seed's algorithm: w(n) for n = 0..len (w(0) = ∞, shown as `u64::MAX`):
/// the least t with w(n − t) > k·t, or t = n.
///
/// ```
/// use nimlab_games::fibonacci_nim::seed_winning_takes;
/// let w = seed_winning_takes(2, 14);
/// assert_eq!(&w[1..], &[1, 2, 3, 1, 5, 1, 2, 8, 1, 2, 3, 1, 13]);
/// ```
pub fn seed_winning_takes(k: u64, len: usize) -> Vec<u64> {
    let mut w = vec![u64::MAX; len.max(1)];
    for n in 1..len {
        let mut t = 1;
        while t < n && w[n - t] <= k.saturating_mul(t as u64) {
            t += 1;
        }
        w[n] = t as u64;
    }
    w.truncate(len);
    w
}

/// One line of the seed's table: n, w(n) and the code of n.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StrategyRow {
    /// The heap.
    pub n: u64,
    /// The least winning take from the start (w(n) = n: only taking everything wins,
    /// which the first move may not do, so n is a P-position at the start).
    pub w: u64,
    /// The code of n as a bit string.
    pub code: String,
}

/// The seed's table for n = 1..len−1, by the seed's algorithm: codes start at 1; when
/// w(n) = n, n gets the current code and a 0 is appended; otherwise the code of n is the
/// sum of the codes of w(n) and n − w(n).
///
/// ```
/// use nimlab_games::fibonacci_nim::strategy_table;
/// let t = strategy_table(2, 32);
/// assert_eq!((t[30].n, t[30].w, t[30].code.as_str()), (31, 2, "1010010"));
/// let t = strategy_table(1, 32);
/// assert_eq!((t[21].n, t[21].w, t[21].code.as_str()), (22, 2, "10110"));
/// ```
pub fn strategy_table(k: u64, len: usize) -> Vec<StrategyRow> {
    let w = seed_winning_takes(k, len);
    let mut codes: Vec<BigUint> = vec![BigUint::ZERO; len.max(1)];
    let mut code = BigUint::from(1u32);
    let mut rows = Vec::new();
    for n in 1..len {
        let wn = w[n] as usize;
        codes[n] = if wn == n {
            let c = code.clone();
            code <<= 1;
            c
        } else {
            &codes[wn] + &codes[n - wn]
        };
        rows.push(StrategyRow {
            n: n as u64,
            w: w[n],
            code: codes[n].to_str_radix(2),
        });
    }
    rows
}

/// All Grundy values G(heap, limit) for heap ≤ `n_max`, computed by a specialised
/// kernel: row n is the running mex of the options of taking t = 1, 2, … (so G(n, ·) is
/// non-decreasing in the limit) and is stored as its breakpoints (a few dozen per row).
///
/// Row n needs G(n − t, k·t) for the small takes (k·t < n − t) and G(m, m) for the
/// others. For the first kind, each earlier row m is queried at column k·(n − m), which
/// grows with n, so every row keeps a cursor into its own breakpoints that only moves
/// forward: reading it is a sequential sweep over small arrays, and nothing but the
/// breakpoints is stored. For the second kind the running mex reaches v + 1 at the take
/// where the last of 0..=v first appears, which the last occurrence of each value among
/// the G(m, m) gives directly, so that part costs one step per value, not per take.
///
/// ```
/// use nimlab_engine::MemoryLimit;
/// use nimlab_games::fibonacci_nim::grundy_rows;
/// let t = grundy_rows(2, 100, MemoryLimit::default()).unwrap();
/// assert_eq!(t.get(13, 12), 0);   // 13 is Fibonacci: the start is a P-position
/// assert_eq!(t.get(12, 0), 0);    // nothing may be taken
/// assert!(t.get(12, 1) > 0);      // 12 = 8 + 3 + 1: taking 1 wins
/// ```
pub fn grundy_rows(k: u64, n_max: u64, limit: MemoryLimit) -> Result<FibNimRows> {
    if n_max >= u32::MAX as u64 / 4 {
        return Err(Error::input(format!(
            "fibonacci-nim table: heap bound {n_max} is too large"
        )));
    }
    // per heap: cursor state and scratch (7 words), plus breakpoints (a generous 64 per
    // row of 8 bytes each)
    let needed = (n_max + 2) * (7 * 4 + 64 * 8);
    limit.check(
        &format!("fibonacci-nim(k={k}) table up to heap {n_max}"),
        needed,
    )?;
    Ok(kernel(k, n_max as usize))
}

fn kernel(k: u64, n_max: usize) -> FibNimRows {
    const NONE: u32 = u32::MAX;
    let small_takes = |n: usize| ((n as u64).saturating_sub(1) / k.saturating_add(1)) as usize;
    let mut full: Vec<u32> = vec![0; n_max + 1]; // G(m, m)
                                                 // cursors: row m is next queried at a column ≥ the current one
    let mut cursor: Vec<u32> = vec![0; n_max + 1]; // next breakpoint index of row m
    let mut next_limit: Vec<u32> = vec![NONE; n_max + 1]; // its limit (NONE: past the end)
    let mut value_now: Vec<u32> = vec![0; n_max + 1]; // G(m, current column)
    let mut stamp: Vec<u32> = vec![NONE; n_max + 2];
    let mut first_take: Vec<u32> = vec![0; n_max + 2]; // valid where stamp = row
    let mut last_full: Vec<u32> = vec![NONE; n_max + 2]; // last m < x with G(m,m) = v
    let mut registered = 0usize;
    let mut row_start: Vec<u32> = vec![0, 0]; // row 0: no breakpoints
    let mut bp_limit: Vec<u32> = Vec::new();
    let mut bp_value: Vec<u32> = Vec::new();
    for n in 1..=n_max {
        let stamp_id = n as u32;
        let cut = small_takes(n); // takes 1..=cut leave (n − t, k·t)
        let x = n - cut; // the others leave (m, m) for m < x
        for t in 1..=cut {
            let m = n - t;
            let col = (k as usize * t) as u32;
            if col >= next_limit[m] {
                let end = row_start[m + 1];
                let mut c = cursor[m];
                while c < end && bp_limit[c as usize] <= col {
                    value_now[m] = bp_value[c as usize];
                    c += 1;
                }
                cursor[m] = c;
                next_limit[m] = if c < end { bp_limit[c as usize] } else { NONE };
            }
            let v = value_now[m] as usize;
            if stamp[v] != stamp_id {
                stamp[v] = stamp_id;
                first_take[v] = t as u32;
            }
        }
        while registered < x {
            last_full[full[registered] as usize] = registered as u32;
            registered += 1;
        }
        // The running mex reaches v + 1 at the take max_{u ≤ v} first(u).
        let mut reached = 0u32;
        let mut v = 0usize;
        loop {
            let first = if stamp[v] == stamp_id {
                first_take[v]
            } else if last_full[v] != NONE {
                (cut + x) as u32 - last_full[v]
            } else {
                break;
            };
            if first > reached {
                if v > 0 {
                    bp_limit.push(reached);
                    bp_value.push(v as u32);
                }
                reached = first;
            }
            v += 1;
        }
        if v > 0 {
            bp_limit.push(reached);
            bp_value.push(v as u32);
        }
        full[n] = v as u32;
        row_start.push(bp_limit.len() as u32);
        // row n's cursor starts before its first breakpoint, at column 0
        cursor[n] = row_start[n];
        next_limit[n] = if row_start[n] < row_start[n + 1] {
            bp_limit[row_start[n] as usize]
        } else {
            NONE
        };
        value_now[n] = 0;
    }
    FibNimRows {
        row_start,
        bp_limit,
        bp_value,
    }
}

/// G(heap, limit) for every heap ≤ a bound, row by row as breakpoints: G(n, L) is the
/// value of the last breakpoint of row n with limit ≤ L (0 before the first).
#[derive(Debug, Clone)]
pub struct FibNimRows {
    row_start: Vec<u32>,
    bp_limit: Vec<u32>,
    bp_value: Vec<u32>,
}

impl FibNimRows {
    /// Largest heap covered.
    pub fn max_heap(&self) -> u64 {
        (self.row_start.len() - 2) as u64
    }

    /// G(heap, limit) (any limit; above the heap it changes nothing). `heap` must be
    /// at most [`FibNimRows::max_heap`].
    pub fn get(&self, heap: u64, limit: u64) -> u32 {
        let a = self.row_start[heap as usize] as usize;
        let b = self.row_start[heap as usize + 1] as usize;
        let lim = &self.bp_limit[a..b];
        let i = lim.partition_point(|&l| l as u64 <= limit);
        if i == 0 {
            0
        } else {
            self.bp_value[a + i - 1]
        }
    }

    /// Number of breakpoints stored (the table's size in memory, in cells).
    pub fn breakpoints(&self) -> usize {
        self.bp_limit.len()
    }

    /// The dense table over [0, size)² (first coordinate the heap, second the limit).
    pub fn to_table(&self, size: usize) -> Result<GrundyTable> {
        let mut values = vec![0u32; size * size];
        for limit in 0..size {
            for heap in 0..size.min(self.max_heap() as usize + 1) {
                values[heap + size * limit] = self.get(heap as u64, limit as u64);
            }
        }
        GrundyTable::from_parts(vec![size, size], values)
    }
}

/// The G(heap, limit) table over [0, size)² by the specialised kernel, with the
/// memory limit checked first.
///
/// ```
/// use nimlab_engine::MemoryLimit;
/// use nimlab_games::fibonacci_nim::fast_table;
/// let t = fast_table(1, 8, MemoryLimit::default()).unwrap();
/// assert_eq!(t.get(&[4, 3]), Some(0)); // Game II: 4 = 2², lowest bit 4 > limit 3
/// assert!(fast_table(1, 1 << 20, MemoryLimit::new(1 << 30)).is_err());
/// ```
pub fn fast_table(k: u64, size: usize, limit: MemoryLimit) -> Result<GrundyTable> {
    limit.check(
        &format!("table {size}x{size} for fibonacci-nim(k={k})"),
        (size as u64).saturating_mul(size as u64).saturating_mul(4),
    )?;
    grundy_rows(k, size.saturating_sub(1) as u64, limit)?.to_table(size)
}

/// Checks, against the generic solver's table over heaps and limits below `size`, that
/// (n, L) is a P-position exactly when L < `w(n)` (n ≥ 1), and that the seed's w(n)
/// equals `w(n)`.
fn check_strategy(
    k: u64,
    ctx: &CheckContext,
    w: impl Fn(u64) -> u64,
    label: &str,
) -> Result<Verdict> {
    let size = ctx.size.max(8);
    let game = FibonacciNim::new(k)?;
    let table = grundy_table(&game, &[size, size], &ctx.table_options())?;
    let seed = seed_winning_takes(k, size);
    let mut checked = 0;
    for n in 1..size as u64 {
        if seed[n as usize] != w(n) {
            return Ok(Verdict::Fails {
                counterexample: format!(
                    "k = {k}: the seed's algorithm gives w({n}) = {} but {label} gives {}",
                    seed[n as usize],
                    w(n)
                ),
            });
        }
        for l in 0..size as u64 {
            let g = table.get(&[n, l]).expect("in the box");
            if (g == 0) != (l < w(n)) {
                return Ok(Verdict::Fails {
                    counterexample: format!(
                        "k = {k}: G({n},{l}) = {g} but {label} w({n}) = {} says {}",
                        w(n),
                        if l < w(n) { "P" } else { "N" }
                    ),
                });
            }
            checked += 1;
        }
    }
    Ok(Verdict::Holds {
        window: format!("heap,limit in {}", describe_window(&[size, size])),
        checked,
    })
}

fn is_fibonacci(n: u64) -> bool {
    schwenk(2, n).last() == Some(&n)
}

fn build(args: &Args) -> Result<Box<dyn Game>> {
    Ok(Box::new(FibonacciNim::new(args.int("k", 1)? as u64)?))
}

/// The verdict of Games II and III: the strategy's (unlabelled) and the starting
/// positions' (`starts`), together.
fn strategy_and_starts(strategy: Verdict, starts: Verdict) -> Result<Verdict> {
    Ok(Verdict::all(vec![
        (String::new(), strategy),
        ("starts".into(), starts),
    ]))
}

fn theorems() -> Vec<Theorem> {
    vec![
        Theorem::new(
            "fibonacci-nim.game-ii",
            "Game II (k = 1): w(n) is the lowest set bit of n; (n, L) is an N-position iff \
             L ≥ w(n), winning by taking w(n); from the start, n is a P-position iff n is a \
             power of two",
            "\"Winning strategies for take-away games\" (in Japanese; author and year not \
             stated), Game II [Take-away]",
            |ctx| {
                let v = check_strategy(1, ctx, |n| n & n.wrapping_neg(), "the lowest set bit")?;
                strategy_and_starts(v, check_starts(1, ctx, |n| n.is_power_of_two())?)
            },
        )
        .with_claims(vec![ProofClaim::p_positions(
            "fibonacci-nim(k=1)",
            "heap == 0 || heap - (heap & (heap - 1)) > limit",
            "base2",
        )]),
        Theorem::new(
            "fibonacci-nim.game-iii",
            "Game III (k = 2, Fibonacci Nim): w(n) = ℓ(n), the smallest Fibonacci number in \
             n's Zeckendorf representation; (n, L) is an N-position iff L ≥ ℓ(n); from the \
             start, n is a P-position iff n is a Fibonacci number",
            "\"Winning strategies for take-away games\" (in Japanese; author and year not \
             stated), Game III [Take-away]; M. J. Whinihan, Fibonacci Nim, Fibonacci Quart. 1 \
             (1963)",
            |ctx| {
                let h = schwenk(2, ctx.size.max(8) as u64);
                let v = check_strategy(2, ctx, |n| greedy_smallest(n, &h), "ℓ(n)")?;
                strategy_and_starts(v, check_starts(2, ctx, is_fibonacci)?)
            },
        )
        .with_claims(vec![ProofClaim::p_positions(
            "fibonacci-nim(k=2)",
            "heap == 0 || zeck_low(heap) > limit",
            "fib",
        )]),
        Theorem::new(
            "fibonacci-nim.general-k",
            "Any k ≥ 1 (Schwenk): with H₁ = 1, H_{j+1} = H_j + H_m (m least with k·H_m ≥ H_j), \
             w(n) is the smallest term of n's greedy H-representation; (n, L) is an \
             N-position iff L ≥ w(n); from the start, n is a P-position iff n is some H_j",
            "\"Winning strategies for take-away games\" (in Japanese; author and year not \
             stated), Game III, the remark on any multiplier [Take-away]; A. J. Schwenk, \
             Take-away games, Fibonacci Quart. 8 (1970)",
            |ctx| {
                let mut parts = Vec::new();
                for k in 1..=7u64 {
                    let h = schwenk(k, ctx.size.max(8) as u64);
                    let v = check_strategy(k, ctx, |n| greedy_smallest(n, &h), "the H-code")?;
                    parts.push((format!("k = {k}"), v));
                    let hs = h.clone();
                    let starts = check_starts(k, ctx, move |n| hs.contains(&n))?;
                    parts.push((format!("k = {k} starts"), starts));
                }
                Ok(Verdict::all(parts))
            },
        ),
    ]
}

/// Checks the P-positions among start positions n (= (n, n − 1)) by the generic solver.
fn check_starts(k: u64, ctx: &CheckContext, is_p: impl Fn(u64) -> bool) -> Result<Verdict> {
    let game = FibonacciNim::new(k)?;
    let mut solver = nimlab_engine::Solver::with_memory_limit(&game, ctx.memory_limit);
    let size = ctx.size.max(8) as u64;
    for n in 1..size {
        let g = solver.grundy(&[n])?;
        if (g == 0) != is_p(n) {
            return Ok(Verdict::Fails {
                counterexample: format!(
                    "k = {k}: the start {n} has G = {g} but the claim says {}",
                    if is_p(n) { "P" } else { "N" }
                ),
            });
        }
    }
    Ok(Verdict::Holds {
        window: format!("starts 1 ≤ n < {size}"),
        checked: size - 1,
    })
}

/// The `fibonacci-nim` family.
pub static FAMILY: Family = Family {
    name: "fibonacci-nim",
    summary: "One heap; the first move takes less than all, later moves at most k × the previous take (k=1: Game II, k=2: Fibonacci Nim)",
    params: &[Param {
        name: "k",
        kind: "integer ≥ 1",
        default: Some("2"),
        example: None,
        help: "the multiplier: a move may take up to k times the previous take",
    }],
    position_syntax: "n (the start: n stones, the first move takes < n) or heap,limit (the most the mover may take); any size",
    seed: "\"Winning strategies for take-away games\" (in Japanese; author and year not \
         stated), Games II and III [Take-away]",
    build,
    theorems,
    sweep: None,
};
