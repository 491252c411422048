//! Misère quotients of take-and-break games (Plambeck; Plambeck and Siegel).
//!
//! In misère play the outcome of a sum of heaps is not a function of the heaps'
//! Grundy values. It is, however, a function of the heaps' images in a finite
//! commutative monoid — the *misère quotient* `Q` of the set of heaps up to a bound:
//! two sums are identified when adding any third sum of those heaps gives both the same
//! outcome. `Q` comes with its *P-portion* (the images of P-positions), so the outcome
//! of a sum is read off the product of its heaps' elements.
//!
//! The quotient is built heap by heap. A *candidate* — a monoid, a subset `P`, and an
//! element for each heap — is right when every sum of heaps is a P-position exactly
//! when its product lies in `P`. The check is finite: no product `x·h` in `P` may have
//! an option product `x·t` in `P` (every element being a product of heaps), and every
//! sum outside `P` with a move needs an option in `P` — a closure over the pairs
//! (product, option products) reachable from the heaps, where a pair is not extended
//! when an earlier pair of the same product has a subset of its option products.
//!
//! A new heap first tries every element of the current quotient. When none passes, a
//! free generator with `a⁴ = a²` is adjoined, the P-portion marked by the recursion on
//! the least sum of each element, and the candidate reduced. While the check fails, the
//! least failing sum (largest heaps compared first; every option of a sum comes before
//! it, so its true outcome is the opposite of the candidate's) is repaired by *freeing*
//! its heaps — the candidate cut to the submonoid of the other heaps, times a cyclic
//! monoid for each freed heap — as Plambeck and Siegel describe for MisereSolver.
//!
//! The engine knows no game: it takes each heap's options (lists of smaller heaps) from
//! [`crate::Game::for_each_option`] of a one-heap position.

use crate::error::{Error, Knob, Result};
use crate::game::{Coord, Game, Outcome};
use crate::memory::MemoryLimit;
use crate::monoid::{format_word, Automaton, Monoid, Presentation};
use crate::progress::{NoProgress, Progress};
use rustc_hash::FxHashMap;

/// Heaps beyond this are not taken (the options of one heap are listed in full).
pub const MAX_QUOTIENT_HEAP: u64 = 4096;

/// Default most elements of a candidate quotient.
pub const DEFAULT_MAX_ELEMENTS: usize = 1 << 14;

/// The options of every heap `0..=max_heap`: for heap `h`, each option as the list of
/// heaps it leaves (sorted, empty heaps dropped), without repeats.
pub type HeapOptions = Vec<Vec<Vec<u32>>>;

/// Reads the options of heaps `0..=max_heap` from a game whose positions are multisets
/// of heaps (capability `heap_multiset`). Every part of an option of heap `h` must be
/// smaller than `h`.
pub fn heap_options(game: &dyn Game, max_heap: u64) -> Result<HeapOptions> {
    heap_options_within(game, max_heap, &QuotientOptions::default())
}

/// Bytes an option list of `parts` heaps takes (the vector, its buffer, the allocator).
fn option_bytes(parts: usize) -> u64 {
    40 + 4 * parts as u64
}

/// [`heap_options`] within `limits`: the lists count against the memory limit, and the
/// listing refuses with an estimate (every heap still to come having about the options
/// of the last one) before it grows past it; it stops when cancelled.
pub fn heap_options_within(
    game: &dyn Game,
    max_heap: u64,
    limits: &QuotientOptions<'_>,
) -> Result<HeapOptions> {
    if !game.capabilities().heap_multiset {
        return Err(Error::input(format!(
            "{} is not a game of heaps whose moves replace one heap by smaller ones; misère \
             quotients need a take-and-break game",
            game.spec()
        )));
    }
    if max_heap > MAX_QUOTIENT_HEAP {
        return Err(Error::input(format!(
            "heap {max_heap} is beyond the largest heap a misère quotient takes ({MAX_QUOTIENT_HEAP})"
        )));
    }
    let mut out = Vec::with_capacity(max_heap as usize + 1);
    let limit = limits.memory_limit;
    let what = |h: u64| {
        format!(
            "listing the options of {}'s heaps up to {max_heap} (at heap {h})",
            game.spec()
        )
    };
    // Bytes of the lists kept so far.
    let mut held = 0u64;
    for h in 0..=max_heap {
        limits.progress.check_cancelled()?;
        let mut opts: Vec<Vec<u32>> = Vec::new();
        let mut bad = None;
        let mut listed = 0u64;
        let mut refused: Option<Error> = None;
        game.for_each_option(&[h], &mut |parts| {
            if refused.is_some() {
                return;
            }
            listed += option_bytes(parts.len());
            if opts.len().is_multiple_of(1 << 16)
                && let Err(e) = limits
                    .progress
                    .check_cancelled()
                    .and_then(|()| limit.check(&what(h), held + listed))
            {
                refused = Some(e);
                return;
            }
            let mut o: Vec<u32> = Vec::with_capacity(parts.len());
            for &p in parts {
                if p >= h.max(1) && p != 0 {
                    bad = Some(p);
                }
                if p > 0 {
                    o.push(p as u32);
                }
            }
            o.sort_unstable();
            opts.push(o);
        });
        if let Some(p) = bad {
            return Err(Error::input(format!(
                "{}: heap {h} has an option with a heap of {p}; misère quotients need moves \
                 that leave only smaller heaps",
                game.spec()
            )));
        }
        if let Some(e) = refused {
            return Err(e);
        }
        opts.sort();
        opts.dedup();
        opts.shrink_to_fit();
        let kept: u64 = 24 + opts.iter().map(|o| option_bytes(o.len())).sum::<u64>();
        held += kept;
        // The estimate: the heaps to come have about as many options as this one (most
        // games give a larger heap more): refuse before listing them.
        limit.check(&what(h), held + kept * (max_heap - h))?;
        out.push(opts);
    }
    Ok(out)
}

/// Limits and progress of a quotient computation.
pub struct QuotientOptions<'a> {
    /// Refuse when the work's memory would exceed this.
    pub memory_limit: MemoryLimit,
    /// Most elements of a candidate monoid.
    pub max_elements: usize,
    /// Receives one unit per heap.
    pub progress: &'a dyn Progress,
    /// Give up (an [`Error::TooLong`]) once this much time has passed.
    pub time_limit: Option<std::time::Duration>,
}

impl Default for QuotientOptions<'_> {
    fn default() -> Self {
        QuotientOptions {
            memory_limit: MemoryLimit::default(),
            max_elements: DEFAULT_MAX_ELEMENTS,
            progress: &NoProgress,
            time_limit: None,
        }
    }
}

/// The misère quotient of a take-and-break game's heaps `0..=max_heap`.
///
/// ```
/// use nimlab_engine::misere_quotient::MisereQuotient;
/// // Misère Nim on heaps of at most 3: heap h may go to any smaller heap.
/// let options: Vec<Vec<Vec<u32>>> = (0..4u32)
///     .map(|h| (0..h).map(|k| if k == 0 { vec![] } else { vec![k] }).collect())
///     .collect();
/// let q = MisereQuotient::from_heap_options(&options, &Default::default()).unwrap();
/// assert_eq!((q.size(), q.p_size()), (6, 2)); // the tame quotient T₂
/// assert!(q.is_p(&[1, 1, 1]));               // three single stones: P in misère
/// assert!(!q.is_p(&[2, 3]));
/// ```
#[derive(Debug, Clone)]
pub struct MisereQuotient {
    /// The monoid; element 0 is the identity (the empty sum).
    pub monoid: Monoid,
    /// `p_portion[x]`: sums of product `x` are P-positions.
    pub p_portion: Vec<bool>,
    /// The element of each heap `0..=max_heap`.
    pub heap_elements: Vec<u32>,
    /// The heaps at which the quotient grew (the new heap was equivalent to no sum of
    /// smaller heaps).
    pub changes: Vec<u64>,
    /// The heaps whose elements are the generators a, b, c, … (in heap order, each not
    /// a product of the earlier ones).
    pub generator_heaps: Vec<u64>,
    /// Generators and relations.
    pub presentation: Presentation,
    /// The least word of every element (exponents of the generators).
    pub words: Vec<Vec<u32>>,
    /// Normal-play Grundy values of the heaps, for comparison.
    pub nim_sequence: Vec<u32>,
}

/// `a^i · a^j` in the cyclic monoid with `a^(index+period) = a^index`.
#[inline]
fn cyc(index: u32, period: u32, i: u32, j: u32) -> u32 {
    let s = i + j;
    if s < index + period {
        s
    } else {
        index + (s - index) % period
    }
}

/// A candidate bipartite monoid with an element per heap: a table (the base) times
/// cyclic monoids `(index, period)` for generators adjoined freely. An element is
/// `base · radix + digits` (mixed radix over the components).
struct Cand {
    bn: usize,
    /// The base's table, shared between a candidate and the trials built from it.
    bt: std::rc::Rc<Vec<u32>>,
    comps: Vec<(u32, u32)>,
    radix: u32,
    p: Vec<bool>,
    phi: Vec<u32>,
}

impl Cand {
    fn explicit(bn: usize, bt: Vec<u32>, p: Vec<bool>, phi: Vec<u32>) -> Self {
        Cand {
            bn,
            bt: std::rc::Rc::new(bt),
            comps: Vec::new(),
            radix: 1,
            p,
            phi,
        }
    }
    fn n(&self) -> usize {
        self.bn * self.radix as usize
    }
    /// Bytes the candidate takes: its base's table (shared with the trials built from
    /// it, counted once by the caller), its marks and heap elements.
    fn bytes(&self) -> u64 {
        table_bytes(self.bn) + self.p.len() as u64 + self.phi.len() as u64 * 4
    }
    #[inline]
    fn mul(&self, a: u32, b: u32) -> u32 {
        if self.comps.is_empty() {
            return self.bt[a as usize * self.bn + b as usize];
        }
        let r = self.radix;
        let (x, mut da, y, mut db) = (a / r, a % r, b / r, b % r);
        let mut digits = 0;
        let mut place = 1;
        for &(index, period) in &self.comps {
            let s = index + period;
            digits += cyc(index, period, da % s, db % s) * place;
            place *= s;
            da /= s;
            db /= s;
        }
        self.bt[x as usize * self.bn + y as usize] * r + digits
    }
    fn product(&self, heaps: &[u32]) -> u32 {
        heaps
            .iter()
            .fold(0, |acc, &h| self.mul(acc, self.phi[h as usize]))
    }
}

/// The time limit of one quotient computation and the caller's cancellation, checked
/// inside the long loops too (a single check of a large candidate can take longer than
/// a census gives a game).
#[derive(Clone, Copy)]
struct Clock<'a> {
    started: std::time::Instant,
    limit: Option<std::time::Duration>,
    progress: &'a dyn Progress,
    /// Bytes the candidates alive beside the work take (they count against the memory
    /// limit with it).
    held: u64,
}

impl Clock<'_> {
    /// The clock of a stage during which candidates of `held` bytes are alive.
    fn holding(self, held: u64) -> Self {
        Clock { held, ..self }
    }

    /// Whether the work must stop: past the time limit, or cancelled.
    fn past(&self) -> bool {
        self.progress.cancelled() || self.limit.is_some_and(|t| self.started.elapsed() > t)
    }

    /// `Err(Cancelled)` once the caller cancelled, `Err(TooLong)` once the limit has
    /// passed, naming the heap being added.
    fn check(&self, h: usize) -> Result<()> {
        self.progress.check_cancelled()?;
        match self.limit {
            Some(t) if self.started.elapsed() > t => Err(Error::TooLong {
                what: format!(
                    "the misère quotient (stopped at heap {h} after {} s)",
                    t.as_secs()
                ),
                seconds: t.as_secs(),
            }),
            _ => Ok(()),
        }
    }
}

/// Heaps that behave alike in a candidate (same element, same option elements) are one
/// *kind*; sums are enumerated as multisets of kinds.
struct Kind {
    /// A heap of this kind.
    heap: u32,
    g: u32,
    /// The elements of the heap's options, sorted, without repeats.
    t: Vec<u32>,
}

fn kinds(c: &Cand, opts: &HeapOptions, top: usize) -> Vec<Kind> {
    let mut out: Vec<Kind> = Vec::new();
    let mut seen: FxHashMap<(u32, Vec<u32>), ()> = FxHashMap::default();
    for (h, list) in opts.iter().enumerate().take(top + 1).skip(1) {
        if list.is_empty() {
            continue;
        }
        let mut t: Vec<u32> = list.iter().map(|w| c.product(w)).collect();
        t.sort_unstable();
        t.dedup();
        let key = (c.phi[h], t);
        if seen.insert(key.clone(), ()).is_none() {
            out.push(Kind {
                heap: h as u32,
                g: key.0,
                t: key.1,
            });
        }
    }
    out
}

/// The option elements of `X + heap`, from those of `X` (`t`, element `e`).
fn extend(c: &Cand, e: u32, t: &[u32], k: &Kind, out: &mut Vec<u32>) {
    out.clear();
    out.extend(t.iter().map(|&x| c.mul(x, k.g)));
    out.extend(k.t.iter().map(|&y| c.mul(e, y)));
    out.sort_unstable();
    out.dedup();
}

/// Marks the P-portion of a candidate: sums are met in an order where every option
/// comes before the sum (the largest heap's multiplicity outermost), and each element
/// takes the outcome the misère recursion gives its first sum. A kind's multiplicity
/// stops growing once it lands on an element already marked.
fn mark(c: &mut Cand, kinds: &[Kind]) {
    struct St<'a> {
        c: &'a Cand,
        kinds: &'a [Kind],
        marked: Vec<bool>,
        p: Vec<bool>,
    }
    fn rec(s: &mut St<'_>, d: usize, e: u32, t: &[u32]) {
        if d == 0 {
            if !s.marked[e as usize] {
                s.marked[e as usize] = true;
                s.p[e as usize] = !t.is_empty() && t.iter().all(|&x| !s.p[x as usize]);
            }
            return;
        }
        let k = &s.kinds[d - 1];
        let mut e = e;
        let mut t = t.to_vec();
        let mut nt = Vec::new();
        loop {
            rec(s, d - 1, e, &t);
            extend(s.c, e, &t, k, &mut nt);
            std::mem::swap(&mut t, &mut nt);
            e = s.c.mul(e, k.g);
            if s.marked[e as usize] {
                break;
            }
        }
    }
    let n = c.n();
    let p = {
        let mut s = St {
            c,
            kinds,
            marked: vec![false; n],
            p: vec![false; n],
        };
        rec(&mut s, kinds.len(), 0, &[]);
        s.p
    };
    c.p = p;
}

/// A sum per element, shortest (breadth first over `kinds`): for each element the
/// element one heap less and that heap's kind (`None` where unreachable), and the
/// elements in the order met.
fn shortest_sums(c: &Cand, kinds: &[Kind]) -> (Vec<Option<(u32, u32)>>, Vec<u32>) {
    let mut rep: Vec<Option<(u32, u32)>> = vec![None; c.n()];
    rep[0] = Some((0, u32::MAX));
    let mut order = vec![0u32];
    let mut i = 0;
    while i < order.len() {
        let x = order[i];
        for (j, k) in kinds.iter().enumerate() {
            let y = c.mul(x, k.g);
            if rep[y as usize].is_none() {
                rep[y as usize] = Some((x, j as u32));
                order.push(y);
            }
        }
        i += 1;
    }
    (rep, order)
}

/// A sum of heaps (sorted) the candidate gets wrong, or `None` when it is right on
/// every sum. The check: no sum of product in P has an option of product in P (a
/// table look-up per element and heap, every element being a product of heaps), and
/// every other sum with a move has an option in P (a closure over the pairs (product,
/// option products) reachable from the heaps, a pair dropped when another pair of the
/// same product has a subset of its options: whatever fails beyond it fails beyond
/// that one too).
fn find_failure(
    c: &Cand,
    kinds: &[Kind],
    limits: &QuotientOptions<'_>,
    clock: Clock<'_>,
    h: usize,
) -> Result<Option<Vec<u32>>> {
    let n = c.n();
    let (rep, order) = shortest_sums(c, kinds);
    let word_of = |mut x: u32| -> Vec<u32> {
        let mut w = Vec::new();
        while x != 0 {
            let (px, j) = rep[x as usize].expect("reachable");
            w.push(kinds[j as usize].heap);
            x = px;
        }
        w
    };
    for &x in &order {
        for k in kinds {
            if c.p[c.mul(x, k.g) as usize] && k.t.iter().any(|&t| c.p[c.mul(x, t) as usize]) {
                let mut w = word_of(x);
                w.push(k.heap);
                w.sort_unstable();
                return Ok(Some(w));
            }
        }
    }
    // N-check: the closure with dominance pruning.
    let words = n.div_ceil(64);
    let pbits = p_bits(c, words);
    let mut elem: Vec<u32> = vec![0];
    let mut sets: Vec<Vec<u32>> = vec![Vec::new()];
    let mut bits: Vec<u64> = vec![0; words];
    let mut parent: Vec<(u32, u32)> = vec![(u32::MAX, 0)];
    // The empty sum is not registered: it has no options, so it would wrongly cover
    // every later sum of product 1 (a sum it covers must fail whenever that one does).
    let mut by_elem: Vec<Vec<u32>> = vec![Vec::new(); n];
    let per_state = (words * 8 + 64) as u64;
    let mut nt = Vec::new();
    let mut nb = vec![0u64; words];
    let mut s = 0;
    while s < elem.len() {
        for (j, k) in kinds.iter().enumerate() {
            let e = elem[s];
            extend(c, e, &sets[s], k, &mut nt);
            let ne = c.mul(e, k.g);
            nb.iter_mut().for_each(|w| *w = 0);
            for &x in &nt {
                nb[x as usize / 64] |= 1 << (x % 64);
            }
            let dominated = by_elem[ne as usize].iter().any(|&o| {
                let ob = &bits[o as usize * words..(o as usize + 1) * words];
                ob.iter().zip(&nb).all(|(a, b)| a & !b == 0)
            });
            if dominated {
                continue;
            }
            let id = elem.len() as u32;
            elem.push(ne);
            sets.push(nt.clone());
            bits.extend_from_slice(&nb);
            parent.push((s as u32, j as u32));
            by_elem[ne as usize].push(id);
            if id.is_multiple_of(4096) {
                clock.check(h)?;
                limits.memory_limit.check(
                    "the sums checked against a candidate quotient",
                    clock.held + id as u64 * per_state + nt.len() as u64 * 4 * id as u64,
                )?;
                if id as usize > limits.max_elements.saturating_mul(256).max(1 << 20) {
                    return Err(Error::TooLarge {
                        what: format!("more than {id} sums while checking a candidate quotient"),
                        needed: id as u64 * per_state,
                        limit: limits.memory_limit.bytes(),
                    });
                }
            }
            let has_p = nb.iter().zip(&pbits).any(|(a, b)| a & b != 0);
            if !c.p[ne as usize] && !has_p {
                let mut w = Vec::new();
                let mut z = id;
                while z != 0 {
                    let (pz, j) = parent[z as usize];
                    w.push(kinds[j as usize].heap);
                    z = pz;
                }
                w.sort_unstable();
                return Ok(Some(w));
            }
        }
        s += 1;
    }
    Ok(None)
}

/// The least sum (in the order that compares the largest heaps first, where every
/// option of a sum comes before it) at which the candidate breaks the misère
/// recursion, as a list of heaps (largest first). Every option of that sum is
/// classified right, so its true outcome is the opposite of the candidate's.
fn least_failure(
    c: &Cand,
    opts: &HeapOptions,
    top: usize,
    limits: &QuotientOptions<'_>,
    clock: Clock<'_>,
) -> Result<Option<Vec<u32>>> {
    let live: Vec<u32> = (1..=top as u32)
        .filter(|&h| !opts[h as usize].is_empty())
        .collect();
    let ts: Vec<Vec<u32>> = live
        .iter()
        .map(|&h| {
            let mut t: Vec<u32> = opts[h as usize].iter().map(|w| c.product(w)).collect();
            t.sort_unstable();
            t.dedup();
            t
        })
        .collect();
    let n = c.n();
    limits.memory_limit.check(
        "the least sums of a candidate quotient's elements",
        clock.held + n as u64 * (24 + 4 * live.len() as u64),
    )?;
    let mut rep: Vec<Option<Vec<u32>>> = vec![None; n];
    least_sums(c, &live, live.len(), 0, &mut Vec::new(), &mut rep);
    let best = least_p_failure(c, &live, &ts, &rep);
    // N-failures, in increasing order, up to the least P-failure; a sum whose pair
    // (product, option products) has the options of an earlier pair of the same product
    // (and more) is not extended: anything failing beyond it fails beyond the earlier,
    // smaller one first.
    let words = n.div_ceil(64);
    let mut s = NFailureSearch {
        c,
        live: &live,
        ts: &ts,
        seen: vec![Vec::new(); n],
        pbits: p_bits(c, words),
        bound: best.clone(),
        words,
        clock,
        steps: 0,
        seen_bytes: n as u64 * 24,
        limit: limits.memory_limit,
        refused: None,
    };
    let found = nrec(&mut s, live.len(), 0, &[], &mut Vec::new());
    if let Some(e) = s.refused {
        return Err(e);
    }
    Ok(match found {
        Step::Found(w) => Some(w),
        _ => best,
    })
}

/// The least sum of every element: a larger multiplicity of a heap that lands on an
/// element met before cannot give a least sum (adding the same heaps to the
/// earlier, smaller sum gives a smaller one).
fn least_sums(
    c: &Cand,
    live: &[u32],
    d: usize,
    e: u32,
    w: &mut Vec<u32>,
    rep: &mut [Option<Vec<u32>>],
) {
    if d == 0 {
        if rep[e as usize].is_none() {
            rep[e as usize] = Some(w.clone());
        }
        return;
    }
    let h = live[d - 1];
    let g = c.phi[h as usize];
    let mut e = e;
    let base = w.len();
    loop {
        least_sums(c, live, d - 1, e, w, rep);
        e = c.mul(e, g);
        if rep[e as usize].is_some() {
            break;
        }
        w.push(h);
    }
    w.truncate(base);
}

/// The least sum failing for a P-position: a sum of product in P with an option of
/// product in P, from the least sum of each element and one more heap.
fn least_p_failure(
    c: &Cand,
    live: &[u32],
    ts: &[Vec<u32>],
    rep: &[Option<Vec<u32>>],
) -> Option<Vec<u32>> {
    let mut best: Option<Vec<u32>> = None;
    for (x, r) in rep.iter().enumerate() {
        let Some(r) = r else { continue };
        for (i, &h) in live.iter().enumerate() {
            let x = x as u32;
            if c.p[c.mul(x, c.phi[h as usize]) as usize]
                && ts[i].iter().any(|&t| c.p[c.mul(x, t) as usize])
            {
                let mut w = r.clone();
                w.push(h);
                w.sort_unstable_by(|a, b| b.cmp(a));
                if best.as_ref().is_none_or(|b| w < *b) {
                    best = Some(w);
                }
            }
        }
    }
    best
}

/// The depth-first search for the least N-failure (a sum not in P with no option in P):
/// the heaps in decreasing order, each with a multiplicity, up to the least P-failure
/// found (`bound`).
struct NFailureSearch<'a> {
    c: &'a Cand,
    live: &'a [u32],
    ts: &'a [Vec<u32>],
    seen: Vec<Vec<Vec<u64>>>,
    pbits: Vec<u64>,
    bound: Option<Vec<u32>>,
    words: usize,
    clock: Clock<'a>,
    steps: u64,
    /// Bytes of `seen`, and the limit they must stay within.
    seen_bytes: u64,
    limit: crate::memory::MemoryLimit,
    refused: Option<Error>,
}
/// What one branch of the N-failure search ended with.
enum Step {
    /// The least N-failure below the branch.
    Found(Vec<u32>),
    /// Past the bound, out of time or memory: give up.
    Stop,
    /// Nothing below the branch: go on.
    Go,
}

/// The candidate's P-portion as a bitset of `words` words.
fn p_bits(c: &Cand, words: usize) -> Vec<u64> {
    bits_of(
        &(0..c.n() as u32)
            .filter(|&x| c.p[x as usize])
            .collect::<Vec<_>>(),
        words,
    )
}

/// The set `t` of elements as a bitset of `words` words.
fn bits_of(t: &[u32], words: usize) -> Vec<u64> {
    let mut b = vec![0u64; words];
    for &x in t {
        b[x as usize / 64] |= 1 << (x % 64);
    }
    b
}

/// The N-failure search over the `d` largest heaps from the sum of product `e` and
/// option products `t` (its heaps in `w`): the least failure found, or where it stopped.
fn nrec(s: &mut NFailureSearch<'_>, d: usize, e: u32, t: &[u32], w: &mut Vec<u32>) -> Step {
    if d == 0 {
        if !t.is_empty() && !s.c.p[e as usize] && !t.iter().any(|&x| s.c.p[x as usize]) {
            return Step::Found(w.clone());
        }
        return Step::Go;
    }
    let h = s.live[d - 1];
    let k = Kind {
        heap: h,
        g: s.c.phi[h as usize],
        t: s.ts[d - 1].clone(),
    };
    let base = w.len();
    let mut e = e;
    let mut t = t.to_vec();
    let mut nt = Vec::new();
    let out = loop {
        match nrec(s, d - 1, e, &t, w) {
            Step::Go => {}
            other => break other,
        }
        extend(s.c, e, &t, &k, &mut nt);
        e = s.c.mul(e, k.g);
        w.push(h);
        s.steps += 1;
        if s.bound.as_ref().is_some_and(|b| *w >= *b)
            || (s.steps.is_multiple_of(4096) && s.clock.past())
        {
            break Step::Stop;
        }
        let nb = bits_of(&nt, s.words);
        let dominated = s.seen[e as usize]
            .iter()
            .any(|o| o.iter().zip(&nb).all(|(a, b)| a & !b == 0));
        if dominated {
            // The sum itself still counts (the earlier pair may be the empty sum's).
            if !s.c.p[e as usize] && nb.iter().zip(&s.pbits).all(|(a, b)| a & b == 0) {
                break Step::Found(w.clone());
            }
            break Step::Go;
        }
        s.seen_bytes += 24 + 8 * nb.len() as u64;
        s.seen[e as usize].push(nb);
        if s.steps.is_multiple_of(4096)
            && let Err(e) = s.limit.check(
                "the sums compared against a candidate quotient",
                s.clock.held + s.seen_bytes,
            )
        {
            s.refused = Some(e);
            break Step::Stop;
        }
        std::mem::swap(&mut t, &mut nt);
    };
    w.truncate(base);
    out
}

/// The least `i` with `x^i = x^j` for some `j > i` (the index of `x`).
fn index_of(c: &Cand, x: u32) -> u32 {
    let mut seen: FxHashMap<u32, u32> = FxHashMap::default();
    let mut y = 0;
    for i in 0.. {
        if let Some(&j) = seen.get(&y) {
            return j;
        }
        seen.insert(y, i);
        y = c.mul(y, x);
    }
    unreachable!()
}

/// Frees the heaps `free`: the candidate (explicit) times a cyclic monoid for each
/// freed heap, the freed heaps sent to the cyclic generators and the others kept, its
/// P-portion marked afresh. Only the submonoid the heaps generate is ever reached, so
/// the base is the candidate's own table, shared, not a copy cut to that submonoid.
fn freed(c: &Cand, opts: &HeapOptions, top: usize, free: &[(u32, u32, u32)]) -> Cand {
    debug_assert!(c.comps.is_empty());
    let comps: Vec<(u32, u32)> = free.iter().map(|&(_, i, p)| (i, p)).collect();
    let radix: u32 = comps.iter().map(|&(i, p)| i + p).product();
    let mut place = 1;
    let mut gen_of = Vec::new();
    for &(i, p) in &comps {
        gen_of.push(place);
        place *= i + p;
    }
    let phi = (0..=top)
        .map(
            |h| match free.iter().position(|&(f, _, _)| f as usize == h) {
                Some(j) => gen_of[j],
                None => c.phi[h] * radix,
            },
        )
        .collect();
    let mut out = Cand {
        bn: c.bn,
        bt: c.bt.clone(),
        comps,
        radix,
        p: Vec::new(),
        phi,
    };
    let ks = kinds(&out, opts, top);
    mark(&mut out, &ks);
    out
}

/// Most elements of a candidate before reduction, per element allowed after it.
const PRE_REDUCTION_FACTOR: usize = 4;

/// Bytes a candidate of `n` elements before reduction needs with `k` distinct heap
/// elements: the reachable part's index, transitions and signatures (4 bytes each per
/// generator), the classes, and the marks.
fn pre_reduction_bytes(n: usize, k: usize) -> u64 {
    (n as u64).saturating_mul(8 * k as u64 + 32)
}

/// Bytes of a reduced candidate of `m` elements: its table.
fn table_bytes(m: usize) -> u64 {
    (m as u64).saturating_mul(m as u64).saturating_mul(4)
}

/// The least candidate a repair skipped for its size.
#[derive(Debug, Clone, Copy)]
struct Skipped {
    /// Elements (before reduction, or after when `reduced`).
    elements: usize,
    /// Bytes it would have needed.
    bytes: u64,
    reduced: bool,
}

/// Repairs a candidate that classifies the sum `w` wrongly: frees the heaps of `w`
/// (fewest first), each as a cyclic monoid long enough for its multiplicity in `w`,
/// until the marked and reduced result classifies `w` right. A trial's outcome on `w`
/// is read off its reduction before the reduced table is built, so trials that fail
/// cost no table.
///
/// Candidates over the limits (elements before reduction, elements after, memory) are
/// not built; `Err` with the least one skipped when nothing smaller repaired the sum.
fn recalibrate(
    c: &Cand,
    opts: &HeapOptions,
    top: usize,
    w: &[u32],
    want_p: bool,
    limits: &QuotientOptions<'_>,
    clock: Clock<'_>,
) -> std::result::Result<Cand, Option<Skipped>> {
    let held = clock.held;
    let mut skipped: Option<Skipped> = None;
    let mut skip = |s: Skipped| {
        if skipped.is_none_or(|o| s.elements < o.elements) {
            skipped = Some(s);
        }
    };
    let pre_cap = limits.max_elements.saturating_mul(PRE_REDUCTION_FACTOR);
    let k = {
        let mut g: Vec<u32> = c.phi[..=top].to_vec();
        g.sort_unstable();
        g.dedup();
        g.len() + 1
    };
    let mut heaps: Vec<u32> = w.to_vec();
    heaps.dedup();
    let mult = |h: u32| w.iter().filter(|&&x| x == h).count() as u32;
    let index: Vec<u32> = heaps
        .iter()
        .map(|&h| index_of(c, c.phi[h as usize]))
        .collect();
    for extra in [0u32, 2, 4] {
        for size in 1..=heaps.len().min(4) {
            let mut combo: Vec<usize> = (0..size).collect();
            loop {
                let free: Vec<(u32, u32, u32)> = combo
                    .iter()
                    .map(|&i| {
                        let h = heaps[i];
                        let index = index[i].max(mult(h).saturating_sub(1)) + extra;
                        let period = if index >= 8 { 2 * ((index - 4) / 2) } else { 2 };
                        (h, index, period)
                    })
                    .collect();
                let elements = free.iter().fold(c.n(), |acc, &(_, i, p)| {
                    acc.saturating_mul((i + p) as usize)
                });
                let bytes = pre_reduction_bytes(elements, k).saturating_add(held);
                if clock.past() {
                    // The caller reports the time limit.
                    return Err(None);
                }
                if elements > pre_cap || bytes > limits.memory_limit.bytes() {
                    skip(Skipped {
                        elements,
                        bytes,
                        reduced: false,
                    });
                } else {
                    let r = Reduced::new(&freed(c, opts, top, &free), top);
                    if r.is_p(w) == want_p {
                        let m = r.size();
                        let bytes = table_bytes(m)
                            .saturating_add(held)
                            .saturating_add(pre_reduction_bytes(r.accept.len(), r.k));
                        if m > limits.max_elements || bytes > limits.memory_limit.bytes() {
                            skip(Skipped {
                                elements: m,
                                bytes,
                                reduced: true,
                            });
                        } else {
                            return Ok(r.build());
                        }
                    }
                }
                // Next combination.
                let mut i = size;
                loop {
                    if i == 0 {
                        break;
                    }
                    i -= 1;
                    if combo[i] < heaps.len() - size + i {
                        combo[i] += 1;
                        for j in i + 1..size {
                            combo[j] = combo[j - 1] + 1;
                        }
                        i = usize::MAX;
                        break;
                    }
                }
                if i != usize::MAX {
                    break;
                }
            }
        }
    }
    Err(skipped)
}

/// Looks for an element of the current quotient the new heap `h` is equivalent to:
/// its P-status must be the heap's, and the candidate with `h ↦ x` must pass the check.
fn conservative(
    c: &Cand,
    options: &HeapOptions,
    h: usize,
    limits: &QuotientOptions<'_>,
    clock: Clock<'_>,
) -> Result<Option<u32>> {
    let n = c.n();
    let mut t: Vec<u32> = options[h].iter().map(|w| c.product(w)).collect();
    t.sort_unstable();
    t.dedup();
    let need_p = !t.iter().any(|&x| c.p[x as usize]);
    'cand: for x in 0..n as u32 {
        if c.p[x as usize] != need_p {
            continue;
        }
        clock.check(h)?;
        // Cheap necessary test: z + h for every element z (a product of heaps).
        for z in 0..n as u32 {
            if c.p[c.mul(z, x) as usize] && t.iter().any(|&y| c.p[c.mul(z, y) as usize]) {
                continue 'cand;
            }
        }
        let trial = Cand {
            bn: c.bn,
            bt: c.bt.clone(),
            comps: Vec::new(),
            radix: 1,
            p: c.p.clone(),
            phi: c.phi.iter().copied().chain([x]).collect(),
        };
        let ks = kinds(&trial, options, h);
        if find_failure(&trial, &ks, limits, clock, h)?.is_none() {
            return Ok(Some(x));
        }
    }
    Ok(None)
}

/// The refusal for a candidate too large at heap `h`: over the memory limit, or over
/// the element limit (a setting of its own, so the surfaces name the right one).
fn size_error(s: &Skipped, h: usize, limits: &QuotientOptions<'_>) -> Error {
    let (stage, cap) = if s.reduced {
        ("", limits.max_elements)
    } else {
        (
            " before reduction",
            limits.max_elements.saturating_mul(PRE_REDUCTION_FACTOR),
        )
    };
    let what = format!(
        "a candidate quotient of {} elements{stage} at heap {h} (the quotient is known to heap {})",
        s.elements,
        h - 1
    );
    if s.bytes > limits.memory_limit.bytes() {
        Error::TooLarge {
            what,
            needed: s.bytes,
            limit: limits.memory_limit.bytes(),
        }
    } else {
        Error::out_of_range(
            "the element limit of the misère quotient",
            limits.max_elements,
            format!("{what} is over it (at most {cap}{stage})"),
            Knob::MaxElements,
        )
    }
}

fn c_check_memory(limits: &QuotientOptions<'_>, n: usize, h: usize, held: u64) -> Result<()> {
    let needed = table_bytes(n)
        .saturating_add(n as u64 * 64)
        .saturating_add(held);
    if n > limits.max_elements {
        let s = Skipped {
            elements: n,
            bytes: needed,
            reduced: true,
        };
        return Err(size_error(&s, h, limits));
    }
    limits
        .memory_limit
        .check("a candidate quotient's tables", needed)
}

/// A candidate's reachable elements as an automaton over the heaps' distinct elements,
/// with its reduction's classes: enough to read the outcome of a sum of heaps (a walk
/// of transitions) before paying for the reduced monoid's `m²` table.
struct Reduced {
    /// Generator index of each heap `0..=top`.
    gen_of_heap: Vec<usize>,
    k: usize,
    trans: Vec<u32>,
    accept: Vec<bool>,
    red: crate::monoid::Reduction,
}

impl Reduced {
    fn new(c: &Cand, top: usize) -> Self {
        let gens: Vec<u32> = {
            let mut g: Vec<u32> = c.phi[..=top].to_vec();
            g.sort_unstable();
            g.dedup();
            g
        };
        let k = gens.len();
        // Reachable elements, numbered from the identity (a dense index: candidates
        // are bounded in size before they are built).
        let mut number = vec![u32::MAX; c.n()];
        let mut elems = vec![0u32];
        number[0] = 0;
        let mut trans = Vec::with_capacity(k * 64);
        let mut i = 0;
        while i < elems.len() {
            for &g in &gens {
                let e = c.mul(elems[i], g);
                let slot = &mut number[e as usize];
                if *slot == u32::MAX {
                    *slot = elems.len() as u32;
                    elems.push(e);
                }
                trans.push(*slot);
            }
            i += 1;
        }
        let accept: Vec<bool> = elems.iter().map(|&e| c.p[e as usize]).collect();
        let gen_of_heap = c.phi[..=top]
            .iter()
            .map(|g| {
                gens.binary_search(g)
                    .expect("a heap's element is a generator")
            })
            .collect();
        let red = crate::monoid::Reduction::new(&Automaton {
            n: elems.len(),
            k,
            trans: &trans,
            accept: &accept,
            labels: None,
        });
        Reduced {
            gen_of_heap,
            k,
            trans,
            accept,
            red,
        }
    }

    fn automaton(&self) -> Automaton<'_> {
        Automaton {
            n: self.accept.len(),
            k: self.k,
            trans: &self.trans,
            accept: &self.accept,
            labels: None,
        }
    }

    /// Elements of the reduced monoid.
    fn size(&self) -> usize {
        self.red.size
    }

    /// Whether the sum of `heaps` is P in the reduced candidate.
    fn is_p(&self, heaps: &[u32]) -> bool {
        let gens: Vec<usize> = heaps
            .iter()
            .map(|&h| self.gen_of_heap[h as usize])
            .collect();
        let a = self.automaton();
        self.red.accepts(&a, self.red.class_of_word(&a, &gens))
    }

    /// The reduced candidate, with its explicit table.
    fn build(self) -> Cand {
        let a = Automaton {
            n: self.accept.len(),
            k: self.k,
            trans: &self.trans,
            accept: &self.accept,
            labels: None,
        };
        let heap_states: Vec<u32> = self.gen_of_heap.iter().map(|&j| self.trans[j]).collect();
        let (m, pp, classes) = self.red.build(&a);
        let phi = heap_states.iter().map(|&s| classes[s as usize]).collect();
        Cand::explicit(m.size(), m.into_table(), pp, phi)
    }
}

/// Repairs the candidate at heap `h` at the least sum it gets wrong, until it gets none
/// wrong (or the time, memory or search runs out).
fn repair(
    mut cand: Cand,
    options: &HeapOptions,
    h: usize,
    limits: &QuotientOptions<'_>,
    clock: Clock<'_>,
) -> Result<Cand> {
    loop {
        clock.check(h)?;
        c_check_memory(limits, cand.n(), h, 0)?;
        let held = clock.holding(cand.bytes());
        let ks = kinds(&cand, options, h);
        if find_failure(&cand, &ks, limits, held, h)?.is_none() {
            return Ok(cand);
        }
        let least = least_failure(&cand, options, h, limits, held)?;
        clock.check(h)?;
        let Some(w) = least else {
            return Err(Error::Contract(format!(
                "a failing candidate at heap {h} of the misère quotient has no least failure"
            )));
        };
        let want_p = !cand.p[cand.product(&w) as usize];
        let next = match recalibrate(&cand, options, h, &w, want_p, limits, held) {
            Ok(next) => next,
            Err(Some(s)) => {
                return Err(size_error(&s, h, limits));
            }
            Err(None) => {
                clock.check(h)?;
                return Err(Error::TooLong {
                    what: format!(
                        "the misère quotient past heap {} (no repair found at heap {h}; the quotient is known to heap {})",
                        h - 1,
                        h - 1
                    ),
                    seconds: clock.started.elapsed().as_secs() + 1,
                });
            }
        };
        cand = next;
    }
}

impl MisereQuotient {
    /// The quotient of `game`'s heaps `0..=max_heap` (options from the game).
    pub fn of_game(game: &dyn Game, max_heap: u64, limits: &QuotientOptions<'_>) -> Result<Self> {
        let opts = heap_options_within(game, max_heap, limits)?;
        Self::from_heap_options(&opts, limits)
    }

    /// The quotient of heaps `0..options.len()`, `options[h]` listing heap `h`'s options
    /// (each the heaps it leaves, all smaller than `h`).
    pub fn from_heap_options(options: &HeapOptions, limits: &QuotientOptions<'_>) -> Result<Self> {
        for (h, list) in options.iter().enumerate() {
            if list.iter().flatten().any(|&p| p as usize >= h || p == 0) {
                return Err(Error::input(format!(
                    "heap {h} has an option with a heap that is empty or not smaller"
                )));
            }
        }
        let top = options.len().saturating_sub(1);
        let started = std::time::Instant::now();
        let clock = Clock {
            started,
            limit: limits.time_limit,
            progress: limits.progress,
            held: 0,
        };
        let over_time = |h: usize| clock.check(h);
        limits.progress.start(options.len() as u64, "heaps");
        let mut c = Cand::explicit(1, vec![0], vec![false], vec![0]);
        let mut changes = Vec::new();
        for h in 1..=top {
            limits.progress.advance(1);
            over_time(h)?;
            if options[h].is_empty() {
                c.phi.push(0);
                continue;
            }
            if let Some(x) = conservative(&c, options, h, limits, clock.holding(c.bytes()))? {
                c.phi.push(x);
                continue;
            }
            changes.push(h as u64);
            // Adjoin a free generator a with a⁴ = a², mark, reduce; then repair the
            // candidate at the sums it gets wrong until it gets none wrong.
            let mut first = Cand {
                bn: c.bn,
                bt: c.bt.clone(),
                comps: vec![(2, 2)],
                radix: 4,
                p: Vec::new(),
                phi: c.phi.iter().map(|&x| x * 4).chain([1]).collect(),
            };
            // The current quotient stays alive until the candidate is reduced.
            let held = c.bytes();
            let k = {
                let mut g = first.phi.clone();
                g.sort_unstable();
                g.dedup();
                g.len()
            };
            limits.memory_limit.check(
                &format!("a candidate quotient of {} elements at heap {h}", first.n()),
                held.saturating_add(pre_reduction_bytes(first.n(), k)),
            )?;
            let ks = kinds(&first, options, h);
            mark(&mut first, &ks);
            let r = Reduced::new(&first, h);
            // The old quotient is not needed any more: its table goes now.
            drop(first);
            drop(std::mem::replace(
                &mut c,
                Cand::explicit(1, vec![0], vec![false], vec![0]),
            ));
            c_check_memory(
                limits,
                r.size(),
                h,
                pre_reduction_bytes(r.accept.len(), r.k),
            )?;
            c = repair(r.build(), options, h, limits, clock)?;
        }
        limits.progress.finish();
        Ok(Self::finish(c, options, changes))
    }

    fn finish(c: Cand, options: &HeapOptions, changes: Vec<u64>) -> Self {
        let table = std::rc::Rc::try_unwrap(c.bt).unwrap_or_else(|t| (*t).clone());
        let monoid = Monoid::from_table_unchecked(c.bn, table);
        // Generators: heap elements not in the submonoid of the earlier ones.
        let mut generated = vec![false; monoid.size()];
        generated[0] = true;
        let mut members = vec![0u32];
        let mut gens = Vec::new();
        let mut generator_heaps = Vec::new();
        for (h, &x) in c.phi.iter().enumerate() {
            if generated[x as usize] {
                continue;
            }
            gens.push(x);
            generator_heaps.push(h as u64);
            let mut i = 0;
            while i < members.len() {
                let e = monoid.mul(members[i], x);
                if !generated[e as usize] {
                    generated[e as usize] = true;
                    members.push(e);
                }
                i += 1;
            }
            // Products with the new generator may reach elements times older ones.
            let mut j = 0;
            while j < members.len() {
                for &g in &gens {
                    let e = monoid.mul(members[j], g);
                    if !generated[e as usize] {
                        generated[e as usize] = true;
                        members.push(e);
                    }
                }
                j += 1;
            }
        }
        let presentation = monoid.presentation(&gens);
        // Normal forms by the same order as the presentation (an element not reached:
        // the empty word).
        let words: Vec<Vec<u32>> = monoid
            .normal_forms(&gens)
            .into_iter()
            .map(Option::unwrap_or_default)
            .collect();
        let nim_sequence = nim_values(options);
        MisereQuotient {
            monoid,
            p_portion: c.p,
            heap_elements: c.phi,
            changes,
            generator_heaps,
            presentation,
            words,
            nim_sequence,
        }
    }

    /// Number of elements |Q|.
    pub fn size(&self) -> usize {
        self.monoid.size()
    }

    /// Number of elements of the P-portion |P|.
    pub fn p_size(&self) -> usize {
        self.p_portion.iter().filter(|&&b| b).count()
    }

    /// Largest heap covered.
    pub fn max_heap(&self) -> u64 {
        self.heap_elements.len() as u64 - 1
    }

    /// About how many bytes the quotient takes in memory (its table, words and heaps).
    pub fn bytes(&self) -> u64 {
        let n = self.size() as u64;
        let words: u64 = self.words.iter().map(|w| 24 + 4 * w.len() as u64).sum();
        n * n * 4 + n + words + self.heap_elements.len() as u64 * 12 + 256
    }

    /// The product of the heaps' elements, or `None` if a heap is beyond the bound.
    pub fn product(&self, heaps: &[Coord]) -> Option<u32> {
        heaps.iter().try_fold(0u32, |acc, &h| {
            let e = *self.heap_elements.get(usize::try_from(h).ok()?)?;
            Some(self.monoid.mul(acc, e))
        })
    }

    /// Whether the sum of `heaps` is a misère P-position (panics on heaps beyond the
    /// bound; see [`MisereQuotient::product`]).
    pub fn is_p(&self, heaps: &[Coord]) -> bool {
        let x = self
            .product(heaps)
            .expect("heap within the quotient's bound");
        self.p_portion[x as usize]
    }

    /// An element as a word in the generators (`1` for the identity).
    pub fn word(&self, x: u32) -> String {
        format_word(&self.words[x as usize])
    }

    /// Whether the quotient is *tame*: isomorphic to a quotient of misère Nim (the
    /// trivial monoid, or `T_k` of Nim heaps below 2^k), tested for k ≤ 6.
    pub fn is_tame(&self) -> bool {
        tame_order(self).is_some()
    }

    /// Outcome, winning moves and every option of a position of heaps, by products in
    /// the quotient. `options_of(h, visit)` lists the options of one heap `h` (as the
    /// game does). `None` when a heap is beyond the bound.
    pub fn analyse(
        &self,
        heaps: &[Coord],
        options_of: &HeapOptionsOf<'_>,
    ) -> Option<QuotientAnalysis> {
        let elems: Vec<u32> = heaps
            .iter()
            .map(|&h| {
                usize::try_from(h)
                    .ok()
                    .and_then(|h| self.heap_elements.get(h).copied())
            })
            .collect::<Option<_>>()?;
        let n = heaps.len();
        let mut prefix = vec![0u32; n + 1];
        for i in 0..n {
            prefix[i + 1] = self.monoid.mul(prefix[i], elems[i]);
        }
        let mut suffix = vec![0u32; n + 1];
        for i in (0..n).rev() {
            suffix[i] = self.monoid.mul(suffix[i + 1], elems[i]);
        }
        let total = prefix[n];
        let mut options: Vec<(Vec<Coord>, bool)> = Vec::new();
        let mut seen = rustc_hash::FxHashSet::default();
        for i in 0..n {
            if !seen.insert(heaps[i]) {
                continue;
            }
            let rest = self.monoid.mul(prefix[i], suffix[i + 1]);
            options_of(heaps[i], &mut |parts| {
                let x = parts.iter().try_fold(rest, |acc, &p| {
                    let e = *self.heap_elements.get(usize::try_from(p).ok()?)?;
                    Some(self.monoid.mul(acc, e))
                });
                let mut pos: Vec<Coord> = heaps[..i].to_vec();
                pos.extend_from_slice(&heaps[i + 1..]);
                pos.extend_from_slice(parts);
                crate::capability::canonical_heaps(&mut pos);
                options.push((pos, x.is_some_and(|x| self.p_portion[x as usize])));
            });
        }
        options.sort();
        options.dedup();
        Some(QuotientAnalysis {
            element: total,
            outcome: if self.p_portion[total as usize] {
                Outcome::P
            } else {
                Outcome::N
            },
            options,
        })
    }
}

/// Lists the options of one heap (as [`crate::Game::for_each_option`] of `[h]`).
pub type HeapOptionsOf<'a> = dyn Fn(Coord, &mut dyn FnMut(&[Coord])) + 'a;

/// The answer about one position from a quotient.
#[derive(Debug, Clone)]
pub struct QuotientAnalysis {
    /// The product of the heaps' elements.
    pub element: u32,
    /// P or N.
    pub outcome: Outcome,
    /// Every option (canonical heaps) and whether it is a P-position (a winning move).
    pub options: Vec<(Vec<Coord>, bool)>,
}

/// Normal-play Grundy values of heaps from their options.
fn nim_values(options: &HeapOptions) -> Vec<u32> {
    let mut g: Vec<u32> = Vec::with_capacity(options.len());
    for list in options {
        let mut vals: Vec<u32> = list
            .iter()
            .map(|o| o.iter().fold(0, |acc, &p| acc ^ g[p as usize]))
            .collect();
        vals.sort_unstable();
        vals.dedup();
        let mex = vals
            .iter()
            .enumerate()
            .find(|&(i, &v)| i as u32 != v)
            .map_or(vals.len() as u32, |(i, _)| i as u32);
        g.push(mex);
    }
    g
}

/// `Some(k)` when the quotient is isomorphic to the quotient of misère Nim heaps below
/// 2^k (k = 0: the trivial monoid).
fn tame_order(q: &MisereQuotient) -> Option<u32> {
    if q.size() == 1 {
        return Some(0);
    }
    for k in 1..=6u32 {
        // |T_1| = 2 with one P element; |T_k| = 2^k + 2 with two (Plambeck–Siegel).
        let order = if k == 1 {
            (2, 1)
        } else {
            ((1usize << k) + 2, 2)
        };
        if order != (q.size(), q.p_size()) {
            continue;
        }
        let t = tame_quotient(k);
        if bipartite_isomorphic(&t, q) {
            return Some(k);
        }
    }
    None
}

/// The quotient of misère Nim on heaps below 2^k.
fn tame_quotient(k: u32) -> MisereQuotient {
    let options: HeapOptions = (0..(1u32 << k))
        .map(|h| {
            (0..h)
                .map(|j| if j == 0 { vec![] } else { vec![j] })
                .collect()
        })
        .collect();
    MisereQuotient::from_heap_options(&options, &QuotientOptions::default())
        .expect("misère Nim's quotient is small")
}

/// Whether `t`'s generators can be sent to elements of `q` so that the bipartite
/// monoids correspond (a search, for small tame quotients).
fn bipartite_isomorphic(t: &MisereQuotient, q: &MisereQuotient) -> bool {
    let tg: Vec<u32> = t
        .generator_heaps
        .iter()
        .map(|&h| t.heap_elements[h as usize])
        .collect();
    let n = q.size() as u32;
    let mut choice = vec![0u32; tg.len()];
    fn search(
        i: usize,
        choice: &mut Vec<u32>,
        tg: &[u32],
        t: &MisereQuotient,
        q: &MisereQuotient,
        n: u32,
    ) -> bool {
        if i == tg.len() {
            return t.monoid.isomorphic_by_generators(tg, &q.monoid, choice)
                && (0..t.size() as u32).all(|x| {
                    // Map x through its word.
                    let w = &t.words[x as usize];
                    let y = w.iter().enumerate().fold(0u32, |acc, (g, &e)| {
                        q.monoid.mul(acc, q.monoid.pow(choice[g], e as u64))
                    });
                    t.p_portion[x as usize] == q.p_portion[y as usize]
                });
        }
        let gx = tg[i];
        for y in 0..n {
            // Quick filters: P-membership and the square.
            if t.p_portion[gx as usize] != q.p_portion[y as usize] {
                continue;
            }
            let sq_t = t.monoid.mul(gx, gx);
            let sq_q = q.monoid.mul(y, y);
            if t.p_portion[sq_t as usize] != q.p_portion[sq_q as usize] {
                continue;
            }
            choice[i] = y;
            if search(i + 1, choice, tg, t, q, n) {
                return true;
            }
        }
        false
    }
    search(0, &mut choice, &tg, t, q, n)
}

/// Positions whose multiset search would visit fewer multisets than this keep the
/// exact solver (it also gives the misère Grundy value); larger ones take the quotient.
pub const QUOTIENT_ROUTE_MIN_MULTISETS: u128 = 1 << 20;

/// Largest heap the planner's quotient route takes.
pub const QUOTIENT_ROUTE_MAX_HEAP: u64 = 255;

/// Most elements of a quotient the planner computes for one query.
const QUOTIENT_ROUTE_MAX_ELEMENTS: usize = 4096;

/// Most quotients the per-process cache holds (a server asked about many games).
pub const QUOTIENT_CACHE_ENTRIES: usize = 32;

/// Most bytes the quotients in the per-process cache take together; a quotient larger
/// than this is computed but not kept.
pub const QUOTIENT_CACHE_BYTES: u64 = 256 << 20;

/// The cached quotients, least recently used first.
type QuotientCache = std::sync::Mutex<Vec<(String, std::sync::Arc<MisereQuotient>)>>;

fn cache() -> &'static QuotientCache {
    static CACHE: std::sync::OnceLock<QuotientCache> = std::sync::OnceLock::new();
    CACHE.get_or_init(Default::default)
}

/// The cached quotient of `key`, marked as used most recently.
fn cache_get(key: &str) -> Option<std::sync::Arc<MisereQuotient>> {
    let mut c = cache().lock().ok()?;
    let i = c.iter().position(|(k, _)| k == key)?;
    let entry = c.remove(i);
    let q = entry.1.clone();
    c.push(entry);
    Some(q)
}

/// Keeps `q` under `key`, dropping the least recently used quotients until the cache
/// is within [`QUOTIENT_CACHE_ENTRIES`] and [`QUOTIENT_CACHE_BYTES`].
fn cache_put(key: String, q: std::sync::Arc<MisereQuotient>) {
    if let Ok(mut c) = cache().lock() {
        keep_within(&mut c, key, q, QUOTIENT_CACHE_ENTRIES, QUOTIENT_CACHE_BYTES);
    }
}

/// Puts `q` last in `cache` (least recently used first) and drops the first entries
/// until at most `entries` of at most `bytes` together are left; a quotient larger
/// than `bytes` alone is not kept.
fn keep_within(
    cache: &mut Vec<(String, std::sync::Arc<MisereQuotient>)>,
    key: String,
    q: std::sync::Arc<MisereQuotient>,
    entries: usize,
    bytes: u64,
) {
    cache.retain(|(k, _)| *k != key);
    if q.bytes() > bytes {
        return;
    }
    cache.push((key, q));
    while cache.len() > entries || cache.iter().map(|(_, q)| q.bytes()).sum::<u64>() > bytes {
        cache.remove(0);
    }
}

/// How many quotients the per-process cache holds, and their bytes (see
/// [`QUOTIENT_CACHE_ENTRIES`], [`QUOTIENT_CACHE_BYTES`]).
pub fn cache_usage() -> (usize, u64) {
    cache().lock().map_or((0, 0), |c| {
        (c.len(), c.iter().map(|(_, q)| q.bytes()).sum())
    })
}

/// The quotient of `game`'s heaps up to at least `max_heap`, from a per-process cache
/// (bounded: [`QUOTIENT_CACHE_ENTRIES`] quotients, [`QUOTIENT_CACHE_BYTES`] bytes).
pub fn cached_quotient(
    game: &dyn Game,
    max_heap: u64,
    limits: &QuotientOptions<'_>,
) -> Result<std::sync::Arc<MisereQuotient>> {
    let key = game.spec();
    if let Some(q) = cache_get(&key)
        && q.max_heap() >= max_heap
    {
        return Ok(q);
    }
    let q = std::sync::Arc::new(MisereQuotient::of_game(game, max_heap, limits)?);
    cache_put(key, q.clone());
    Ok(q)
}

/// Whether the planner's `misere-quotient` route may apply to positions of `game`: a
/// misère game whose positions are multisets of heaps.
pub fn route_applies(game: &dyn Game) -> bool {
    game.terminal_value() == 1 && game.capabilities().heap_multiset
}

/// The run of the planner's `misere-quotient` route: outcome and winning moves of a
/// misère take-and-break position of many heaps from the quotient of its heaps. `None`
/// when the route does not apply ([`route_applies`]) or passes (a position the exact
/// solver handles quickly, a heap too large, or a quotient that does not settle within
/// the route's budget).
pub fn plan_report(
    game: &dyn Game,
    pos: &[Coord],
    opts: &crate::table::TableOptions<'_>,
    with_options: bool,
) -> Result<Option<crate::plan::PositionReport>> {
    use crate::big::BigUint;
    if !route_applies(game) {
        return Ok(None);
    }
    let max = pos.iter().copied().max().unwrap_or(0);
    if max > QUOTIENT_ROUTE_MAX_HEAP
        || crate::kernels::multiset::count_bound(game, pos) < QUOTIENT_ROUTE_MIN_MULTISETS
    {
        return Ok(None);
    }
    let limits = QuotientOptions {
        memory_limit: opts.memory_limit,
        max_elements: QUOTIENT_ROUTE_MAX_ELEMENTS,
        progress: opts.progress,
        time_limit: Some(std::time::Duration::from_secs(20)),
    };
    let q = match cached_quotient(game, max, &limits) {
        Ok(q) => q,
        Err(Error::TooLarge { .. } | Error::TooLong { .. }) => return Ok(None),
        Err(Error::OutOfRange {
            knob: Knob::MaxElements,
            ..
        }) => return Ok(None),
        Err(e) => return Err(e),
    };
    let Some(a) = q.analyse(pos, &|h, visit| game.for_each_option(&[h], visit)) else {
        return Ok(None);
    };
    let big = |p: &[Coord]| p.iter().map(|&c| BigUint::from(c)).collect::<Vec<_>>();
    let winning_moves = a
        .options
        .iter()
        .filter(|(_, w)| *w)
        .map(|(o, _)| big(o))
        .collect();
    let options = with_options.then(|| {
        a.options
            .iter()
            .map(|(o, w)| crate::plan::OptionReport {
                position: big(o),
                grundy: None,
                winning: *w,
            })
            .collect()
    });
    Ok(Some(crate::plan::PositionReport {
        position: big(pos),
        grundy: None,
        outcome: a.outcome,
        winning_moves,
        all_winning_moves: true,
        options,
        options_note: None,
        method: crate::plan::Method::new(
            crate::plan::MethodKind::MisereQuotient,
            format!(
                "misère quotient of heaps 0..{} (|Q| = {}, |P| = {}): the product of the heaps' elements, {}",
                q.max_heap(),
                q.size(),
                q.p_size(),
                q.word(a.element)
            ),
        ),
        nplayer: None,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nim_options(max: u32) -> HeapOptions {
        (0..=max)
            .map(|h| {
                (0..h)
                    .map(|j| if j == 0 { vec![] } else { vec![j] })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn misere_nim_quotients_are_the_tame_ones() {
        // T_1 = {1, a}, T_2 of order 6, T_3 of order 10 (Plambeck–Siegel).
        let q1 = MisereQuotient::from_heap_options(&nim_options(1), &Default::default()).unwrap();
        assert_eq!((q1.size(), q1.p_size()), (2, 1));
        let q3 = MisereQuotient::from_heap_options(&nim_options(3), &Default::default()).unwrap();
        assert_eq!((q3.size(), q3.p_size()), (6, 2));
        let q7 = MisereQuotient::from_heap_options(&nim_options(7), &Default::default()).unwrap();
        assert_eq!((q7.size(), q7.p_size()), (10, 2));
        assert!(q7.is_tame());
    }

    /// Cancelled after `after` polls.
    struct StopAfter {
        polls: std::sync::atomic::AtomicUsize,
        after: usize,
    }

    impl Progress for StopAfter {
        fn start(&self, _total: u64, _what: &str) {}
        fn advance(&self, _delta: u64) {}
        fn cancelled(&self) -> bool {
            self.polls
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed)
                >= self.after
        }
    }

    #[test]
    fn a_cancelled_quotient_returns_cancelled() {
        for after in [0, 1, 5, 20] {
            let stop = StopAfter {
                polls: Default::default(),
                after,
            };
            let limits = QuotientOptions {
                progress: &stop,
                ..Default::default()
            };
            let r = MisereQuotient::from_heap_options(&nim_options(7), &limits);
            assert_eq!(r.unwrap_err(), Error::Cancelled, "after {after} polls");
            // It stopped at the poll that said so.
            let polls = stop.polls.load(std::sync::atomic::Ordering::Relaxed);
            assert_eq!(polls, after + 1, "after {after} polls");
        }
        // Never cancelled: the quotient.
        let stop = StopAfter {
            polls: Default::default(),
            after: usize::MAX,
        };
        let limits = QuotientOptions {
            progress: &stop,
            ..Default::default()
        };
        let q = MisereQuotient::from_heap_options(&nim_options(7), &limits).unwrap();
        assert_eq!((q.size(), q.p_size()), (10, 2));
    }

    #[test]
    fn the_cache_keeps_the_most_recent_within_its_bounds() {
        let q = |k| {
            std::sync::Arc::new(
                MisereQuotient::from_heap_options(&nim_options(k), &Default::default()).unwrap(),
            )
        };
        let (small, large) = (q(1), q(7));
        assert!(small.bytes() < large.bytes());
        let mut cache = Vec::new();
        for i in 0..10 {
            keep_within(&mut cache, format!("g{i}"), small.clone(), 4, u64::MAX);
        }
        let keys: Vec<&str> = cache.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(keys, ["g6", "g7", "g8", "g9"]);
        // By bytes: room for the large one and one small one.
        let room = large.bytes() + small.bytes();
        let mut cache = Vec::new();
        keep_within(&mut cache, "a".into(), small.clone(), 100, room);
        keep_within(&mut cache, "b".into(), small.clone(), 100, room);
        keep_within(&mut cache, "c".into(), large.clone(), 100, room);
        let keys: Vec<&str> = cache.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(keys, ["b", "c"]);
        assert!(cache.iter().map(|(_, q)| q.bytes()).sum::<u64>() <= room);
        // A quotient larger than the whole budget is not kept (and replaces nothing).
        keep_within(&mut cache, "d".into(), large.clone(), 100, small.bytes());
        assert!(cache.iter().all(|(k, _)| k != "d"));
        // The process-wide cache: many games, at most its bound.
        for i in 0..QUOTIENT_CACHE_ENTRIES + 5 {
            cache_put(format!("test-game-{i}"), small.clone());
        }
        let (entries, bytes) = cache_usage();
        assert!(entries <= QUOTIENT_CACHE_ENTRIES, "{entries} entries");
        assert!(bytes <= QUOTIENT_CACHE_BYTES, "{bytes} bytes");
        let last = format!("test-game-{}", QUOTIENT_CACHE_ENTRIES + 4);
        assert!(cache_get(&last).is_some());
        assert!(cache_get("test-game-0").is_none());
    }
}
