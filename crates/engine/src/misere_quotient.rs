//! Misère quotients of take-and-break games (Plambeck; Plambeck and Siegel).
//!
//! In misère play the outcome of a sum of heaps is not a function of the heaps'
//! Grundy values. It is, however, a function of the heaps' images in a finite
//! commutative monoid — the *misère quotient* `Q` of the set of heaps up to a bound:
//! two sums are identified when adding any third sum of those heaps gives both the same
//! outcome. `Q` comes with its *P-portion* (the images of P-positions), so the outcome
//! of a sum is read off the product of its heaps' elements.
//!
//! The quotient is built heap by heap. A *pretension* — a monoid, a subset `P`, and an
//! element for each heap — is correct when every sum of heaps is a P-position exactly
//! when its product lies in `P`. The check is finite: the outcome of a sum `X` needs
//! only its product `x` and the set `H(X)` of elements `z` such that some option of
//! `X + Z` made inside `X` lands in `P` (for any `Z` of product `z`). The pairs
//! `(x, H)` multiply among themselves (`H(X+Y) = y⁻¹H(X) ∪ x⁻¹H(Y)`), so the pairs
//! reachable from the heaps are finitely many and are all visited; the pretension is
//! correct when at every pair, `x ∈ P` exactly when the sum has a move and `1 ∉ H`
//! (no P option).
//!
//! When the next heap is not equivalent to an element already there, a candidate is
//! made by adjoining a new generator `a` with `a⁴ = a²` (misère parity), and the
//! candidate is *recalibrated* until it is correct: the pairs `(x, H)` of a failing
//! candidate, with the outcomes they imply, are reduced to the monoid they present
//! (states no product tells apart are merged), which is correct on more sums than the
//! candidate it came from. Once correct, the candidate is reduced to the quotient.
//!
//! The engine knows no game: it takes each heap's options (lists of smaller heaps) from
//! [`crate::Game::for_each_option`] of a one-heap position.

use crate::error::{Error, Result};
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
    for h in 0..=max_heap {
        let mut opts: Vec<Vec<u32>> = Vec::new();
        let mut bad = None;
        game.for_each_option(&[h], &mut |parts| {
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
        opts.sort();
        opts.dedup();
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

/// The cyclic monoid of `k` elements and period 2: 1, a, …, a^(k−1) with
/// a^k = a^(k−2).
#[inline]
fn cyc(k: u32, i: u32, j: u32) -> u32 {
    let s = i + j;
    if s < k {
        s
    } else {
        k - 2 + (s - (k - 2)) % 2
    }
}

/// A candidate bipartite monoid with an element per heap: a table, optionally times
/// C(2,2) for a newly adjoined generator.
struct Cand {
    bn: usize,
    bt: Vec<u32>,
    /// 1, or the size of the cyclic monoid of period 2 it is multiplied by.
    k: u32,
    p: Vec<bool>,
    phi: Vec<u32>,
}

impl Cand {
    fn n(&self) -> usize {
        self.bn * self.k as usize
    }
    #[inline]
    fn mul(&self, a: u32, b: u32) -> u32 {
        if self.k == 1 {
            self.bt[a as usize * self.bn + b as usize]
        } else {
            let k = self.k;
            let (x, i, y, j) = (a / k, a % k, b / k, b % k);
            self.bt[x as usize * self.bn + y as usize] * k + cyc(k, i, j)
        }
    }
    fn product(&self, heaps: &[u32]) -> u32 {
        heaps
            .iter()
            .fold(0, |acc, &h| self.mul(acc, self.phi[h as usize]))
    }
}

/// One heap as a generator of the pair monoid: its element, the elements of its
/// options, and whether it has a move.
struct HeapState {
    g: u32,
    options: Vec<u32>,
    /// `z ↦ g·z`.
    times_g: Vec<u32>,
}

/// The reachable pairs of a candidate (see the module documentation).
struct Pairs {
    words: usize,
    xs: Vec<u32>,
    live: Vec<bool>,
    hs: Vec<u64>,
    trans: Vec<u32>,
    heap_state: Vec<Option<usize>>,
    consistent: bool,
    states: usize,
}

impl Pairs {
    fn h(&self, s: usize) -> &[u64] {
        &self.hs[s * self.words..(s + 1) * self.words]
    }
}

#[inline]
fn bit(bits: &[u64], i: u32) -> bool {
    bits[i as usize / 64] >> (i % 64) & 1 == 1
}

/// `r[t] = {z : t·z ∈ P}` for every element `t`.
fn hit_sets(c: &Cand, words: usize) -> Vec<u64> {
    let n = c.n();
    let mut r = vec![0u64; n * words];
    for t in 0..n as u32 {
        let row = &mut r[t as usize * words..(t as usize + 1) * words];
        for z in 0..n as u32 {
            if c.p[c.mul(t, z) as usize] {
                row[z as usize / 64] |= 1 << (z % 64);
            }
        }
    }
    r
}

/// Every pair reachable from the heaps `1..=top` of candidate `c`.
fn pairs(c: &Cand, opts: &HeapOptions, top: usize, limits: &QuotientOptions<'_>) -> Result<Pairs> {
    let n = c.n();
    let words = n.div_ceil(64);
    c_check_memory(limits, n, words)?;
    let r = hit_sets(c, words);
    // Distinct live heaps as generators.
    let mut heap_state = vec![None; top + 1];
    let mut gens: Vec<HeapState> = Vec::new();
    let mut index: FxHashMap<(u32, Vec<u32>), usize> = FxHashMap::default();
    for h in 1..=top {
        if opts[h].is_empty() {
            continue;
        }
        let mut o: Vec<u32> = opts[h].iter().map(|w| c.product(w)).collect();
        o.sort_unstable();
        o.dedup();
        let g = c.phi[h];
        let key = (g, o);
        let j = match index.get(&key) {
            Some(&j) => j,
            None => {
                let j = gens.len();
                gens.push(HeapState {
                    g,
                    options: key.1.clone(),
                    times_g: (0..n as u32).map(|z| c.mul(g, z)).collect(),
                });
                index.insert(key, j);
                j
            }
        };
        heap_state[h] = Some(j);
    }
    let k = gens.len();
    let mut p = Pairs {
        words,
        xs: vec![0],
        live: vec![false],
        hs: vec![0; words],
        trans: Vec::new(),
        heap_state,
        consistent: true,
        states: 0,
    };
    let mut seen: FxHashMap<Vec<u64>, u32> = FxHashMap::default();
    let mut key = vec![0u64; words + 1];
    seen.insert(key.clone(), 0);
    let mut next_h = vec![0u64; words];
    let per_state = (words * 8 * 2 + k * 4 + 64) as u64;
    let mut s = 0;
    while s < p.xs.len() {
        let (x, live) = (p.xs[s], p.live[s]);
        for g in &gens {
            next_h.iter_mut().for_each(|w| *w = 0);
            {
                let h = &p.hs[s * words..(s + 1) * words];
                for (z, &gz) in g.times_g.iter().enumerate() {
                    if bit(h, gz) {
                        next_h[z / 64] |= 1 << (z % 64);
                    }
                }
            }
            for &t in &g.options {
                let xt = c.mul(x, t) as usize;
                for (w, &b) in next_h.iter_mut().zip(&r[xt * words..(xt + 1) * words]) {
                    *w |= b;
                }
            }
            let nx = c.mul(x, g.g);
            key[0] = nx as u64 | 1 << 32;
            key[1..].copy_from_slice(&next_h);
            let _ = live;
            let id = match seen.get(&key) {
                Some(&id) => id,
                None => {
                    let id = p.xs.len() as u32;
                    if p.xs.len() >= limits.max_elements.saturating_mul(64).max(1 << 16) {
                        return Err(Error::TooLarge {
                            what: format!(
                                "more than {} pairs while checking a candidate quotient",
                                p.xs.len()
                            ),
                            needed: p.xs.len() as u64 * per_state,
                            limit: limits.memory_limit.bytes(),
                        });
                    }
                    if id.is_multiple_of(4096) {
                        limits
                            .memory_limit
                            .check("the pairs of a candidate quotient", id as u64 * per_state)?;
                    }
                    seen.insert(key.clone(), id);
                    p.xs.push(nx);
                    p.live.push(true);
                    p.hs.extend_from_slice(&next_h);
                    id
                }
            };
            p.trans.push(id);
        }
        s += 1;
    }
    for s in 0..p.xs.len() {
        let expect_p = p.live[s] && !bit(p.h(s), 0);
        if c.p[p.xs[s] as usize] != expect_p {
            p.consistent = false;
            break;
        }
    }
    p.states = p.xs.len();
    Ok(p)
}

fn c_check_memory(limits: &QuotientOptions<'_>, n: usize, words: usize) -> Result<()> {
    if n > limits.max_elements {
        return Err(Error::TooLarge {
            what: format!(
                "a candidate quotient of {n} elements (the limit is {})",
                limits.max_elements
            ),
            needed: (n * words * 8 + n * n * 4) as u64,
            limit: limits.memory_limit.bytes(),
        });
    }
    limits.memory_limit.check(
        "a candidate quotient's tables",
        (n * words * 8 + n * n * 4) as u64,
    )
}

/// Marks each element P or N as the recursion says for the first pair (in the order
/// pairs are met) that has it, until the marking stops changing; returns the pairs of
/// the last candidate.
fn settle(
    cand: &mut Cand,
    options: &HeapOptions,
    h: usize,
    limits: &QuotientOptions<'_>,
) -> Result<Pairs> {
    let mut rounds = 0;
    loop {
        let pr = pairs(cand, options, h, limits)?;
        if pr.consistent || rounds >= MAX_ROUNDS {
            return Ok(pr);
        }
        let mut next = vec![false; cand.n()];
        let mut done = vec![false; cand.n()];
        for s in 0..pr.states {
            let x = pr.xs[s] as usize;
            if !done[x] {
                done[x] = true;
                next[x] = pr.live[s] && !bit(pr.h(s), 0);
            }
        }
        if next == cand.p {
            return Ok(pr);
        }
        cand.p = next;
        rounds += 1;
    }
}

/// A finer candidate: the pairs of a failing candidate, states with different
/// elements or recursion outcomes kept apart, reduced to the monoid they present.
fn recalibrate(p: &Pairs, top: usize) -> Cand {
    let k = p.trans.len() / p.states.max(1);
    let accept: Vec<bool> = (0..p.states)
        .map(|s| p.live[s] && !bit(p.h(s), 0))
        .collect();
    let labels: Vec<u64> = p.xs.iter().map(|&x| x as u64).collect();
    let (m, pp, classes) = crate::monoid::reduce(&Automaton {
        n: p.states,
        k,
        trans: &p.trans,
        accept: &accept,
        labels: Some(&labels),
    });
    let phi = (0..=top)
        .map(|h| match p.heap_state[h] {
            Some(j) => classes[p.trans[j] as usize],
            None => 0,
        })
        .collect();
    Cand {
        bn: m.size(),
        bt: m.table().to_vec(),
        k: 1,
        p: pp,
        phi,
    }
}

/// The candidate reduced to the monoid generated by the heaps' elements, with equal
/// behaviour merged.
fn reduced(c: &Cand, top: usize) -> Cand {
    let gens: Vec<u32> = {
        let mut g: Vec<u32> = c.phi[..=top].to_vec();
        g.sort_unstable();
        g.dedup();
        g
    };
    let k = gens.len();
    // Reachable elements, numbered from the identity.
    let mut number: FxHashMap<u32, u32> = FxHashMap::default();
    let mut elems = vec![0u32];
    number.insert(0, 0);
    let mut trans = Vec::new();
    let mut i = 0;
    while i < elems.len() {
        for &g in &gens {
            let e = c.mul(elems[i], g);
            let id = *number.entry(e).or_insert_with(|| {
                elems.push(e);
                elems.len() as u32 - 1
            });
            trans.push(id);
        }
        i += 1;
    }
    let accept: Vec<bool> = elems.iter().map(|&e| c.p[e as usize]).collect();
    let (m, pp, classes) = crate::monoid::reduce(&Automaton {
        n: elems.len(),
        k,
        trans: &trans,
        accept: &accept,
        labels: None,
    });
    let phi = c.phi[..=top]
        .iter()
        .map(|g| classes[number[g] as usize])
        .collect();
    Cand {
        bn: m.size(),
        bt: m.table().to_vec(),
        k: 1,
        p: pp,
        phi,
    }
}

/// Most rounds of marking the P-portion of one candidate.
const MAX_ROUNDS: usize = 200;

/// Most recalibrations of a candidate before a longer index is tried.
const RECALIBRATIONS: usize = 6;

impl MisereQuotient {
    /// The quotient of `game`'s heaps `0..=max_heap` (options from the game).
    pub fn of_game(game: &dyn Game, max_heap: u64, limits: &QuotientOptions<'_>) -> Result<Self> {
        let opts = heap_options(game, max_heap)?;
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
        let over_time = |h: usize| -> Result<()> {
            match limits.time_limit {
                Some(t) if started.elapsed() > t => Err(Error::TooLong {
                    what: format!(
                        "the misère quotient (stopped at heap {h} after {} s)",
                        t.as_secs()
                    ),
                    seconds: t.as_secs(),
                }),
                _ => Ok(()),
            }
        };
        limits.progress.start(options.len() as u64, "heaps");
        let mut c = Cand {
            bn: 1,
            bt: vec![0],
            k: 1,
            p: vec![false],
            phi: vec![0],
        };
        let mut states = pairs(&c, options, 0, limits)?;
        let mut changes = Vec::new();
        for h in 1..=top {
            limits.progress.advance(1);
            over_time(h)?;
            if options[h].is_empty() {
                c.phi.push(0);
                continue;
            }
            if let Some((x, st)) = conservative(&c, &states, options, h, limits)? {
                c.phi.push(x);
                states = st;
                continue;
            }
            changes.push(h as u64);
            // Adjoin a generator a with a^(i+2) = a^i, recalibrate; a longer index when
            // recalibration does not settle.
            let mut found = None;
            for index in [2u32, 3, 4, 5, 6, 8, 10] {
                let k = index + 2;
                let mut cand = Cand {
                    bn: c.bn,
                    bt: c.bt.clone(),
                    k,
                    p: (0..c.bn * k as usize)
                        .map(|e| e % k as usize == 0 && c.p[e / k as usize])
                        .collect(),
                    phi: c.phi.iter().map(|&x| x * k).chain([1]).collect(),
                };
                for _ in 0..RECALIBRATIONS {
                    over_time(h)?;
                    let pr = settle(&mut cand, options, h, limits)?;
                    if pr.consistent {
                        found = Some(cand);
                        break;
                    }
                    cand = recalibrate(&pr, h);
                }
                if found.is_some() {
                    break;
                }
            }
            let Some(cand) = found else {
                // Every index tried, none settled: the search gives up here (at least
                // as long again would be needed, so say so rather than guess).
                return Err(Error::TooLong {
                    what: format!(
                        "the misère quotient past heap {} (no candidate tried at heap {h} settled; the quotient is known to heap {})",
                        h - 1,
                        h - 1
                    ),
                    seconds: started.elapsed().as_secs() + 1,
                });
            };
            c = reduced(&cand, h);
            states = pairs(&c, options, h, limits)?;
            if !states.consistent {
                return Err(Error::Contract(format!(
                    "the reduced misère quotient at heap {h} failed its own check"
                )));
            }
        }
        limits.progress.finish();
        Ok(Self::finish(c, options, changes))
    }

    fn finish(c: Cand, options: &HeapOptions, changes: Vec<u64>) -> Self {
        let monoid = Monoid::from_table_unchecked(c.bn, c.bt);
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
        let words = {
            let mut w = vec![Vec::new(); monoid.size()];
            // Normal forms by the same order as the presentation.
            let nf = monoid_normal_forms(&monoid, &gens);
            for (e, f) in nf.into_iter().enumerate() {
                w[e] = f;
            }
            w
        };
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

fn monoid_normal_forms(m: &Monoid, gens: &[u32]) -> Vec<Vec<u32>> {
    // Same order as Monoid::presentation: graded, then lexicographic.
    let mut nf: Vec<Option<Vec<u32>>> = vec![None; m.size()];
    nf[0] = Some(vec![0; gens.len()]);
    let mut frontier: Vec<(u32, Vec<u32>, usize)> = vec![(0, vec![0; gens.len()], 0)];
    while !frontier.is_empty() {
        let mut next = Vec::new();
        for (elem, word, last) in &frontier {
            for (i, &g) in gens.iter().enumerate().skip(*last) {
                let e = m.mul(*elem, g);
                if nf[e as usize].is_none() {
                    let mut w = word.clone();
                    w[i] += 1;
                    nf[e as usize] = Some(w.clone());
                    next.push((e, w, i));
                }
            }
        }
        frontier = next;
    }
    nf.into_iter().map(|w| w.unwrap_or_default()).collect()
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

/// Looks for an element the new heap `h` is equivalent to: its P-status must match, every
/// pair `(z, H)` of the quotient so far must stay consistent with one copy of `h`
/// added, and then the full check must pass.
fn conservative(
    c: &Cand,
    states: &Pairs,
    options: &HeapOptions,
    h: usize,
    limits: &QuotientOptions<'_>,
) -> Result<Option<(u32, Pairs)>> {
    let n = c.n();
    let words = states.words;
    let mut t: Vec<u32> = options[h].iter().map(|w| c.product(w)).collect();
    t.sort_unstable();
    t.dedup();
    let need_p = !t.iter().any(|&x| c.p[x as usize]);
    // H of the heap alone: z with t·z in P for some option t.
    let mut hh = vec![0u64; words];
    for &x in &t {
        for z in 0..n as u32 {
            if c.p[c.mul(x, z) as usize] {
                hh[z as usize / 64] |= 1 << (z % 64);
            }
        }
    }
    'cand: for x in 0..n as u32 {
        if c.p[x as usize] != need_p {
            continue;
        }
        for s in 0..states.states {
            let z = states.xs[s];
            let has_p_option = bit(&hh, z) || bit(states.h(s), x);
            if c.p[c.mul(x, z) as usize] == has_p_option {
                continue 'cand;
            }
        }
        let trial = Cand {
            bn: c.bn,
            bt: c.bt.clone(),
            k: 1,
            p: c.p.clone(),
            phi: c.phi.iter().copied().chain([x]).collect(),
        };
        let pr = pairs(&trial, options, h, limits)?;
        if pr.consistent {
            return Ok(Some((x, pr)));
        }
    }
    Ok(None)
}

/// Positions whose multiset search would visit fewer multisets than this keep the
/// exact solver (it also gives the misère Grundy value); larger ones take the quotient.
pub const QUOTIENT_ROUTE_MIN_MULTISETS: u128 = 1 << 20;

/// Largest heap the planner's quotient route takes.
pub const QUOTIENT_ROUTE_MAX_HEAP: u64 = 255;

/// Most elements of a quotient the planner computes for one query.
const QUOTIENT_ROUTE_MAX_ELEMENTS: usize = 4096;

type QuotientCache = std::sync::Mutex<FxHashMap<String, std::sync::Arc<MisereQuotient>>>;

fn cache() -> &'static QuotientCache {
    static CACHE: std::sync::OnceLock<QuotientCache> = std::sync::OnceLock::new();
    CACHE.get_or_init(Default::default)
}

/// The quotient of `game`'s heaps up to at least `max_heap`, from a per-process cache.
pub fn cached_quotient(
    game: &dyn Game,
    max_heap: u64,
    limits: &QuotientOptions<'_>,
) -> Result<std::sync::Arc<MisereQuotient>> {
    let key = game.spec();
    if let Some(q) = cache().lock().ok().and_then(|c| c.get(&key).cloned()) {
        if q.max_heap() >= max_heap {
            return Ok(q);
        }
    }
    let q = std::sync::Arc::new(MisereQuotient::of_game(game, max_heap, limits)?);
    if let Ok(mut c) = cache().lock() {
        c.insert(key, q.clone());
    }
    Ok(q)
}

/// The planner's `misere-quotient` route: outcome and winning moves of a misère
/// take-and-break position of many heaps from the quotient of its heaps. `None` when
/// the route does not apply (normal play, not a heap game, a position the exact
/// solver handles quickly, a heap too large, or a quotient that does not settle within
/// the route's budget).
pub fn plan_report(
    game: &dyn Game,
    pos: &[Coord],
    opts: &crate::table::TableOptions<'_>,
    with_options: bool,
) -> Result<Option<crate::plan::PositionReport>> {
    use crate::big::BigUint;
    if game.terminal_value() != 1 || !game.capabilities().heap_multiset {
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
        progress: &NoProgress,
        time_limit: Some(std::time::Duration::from_secs(20)),
    };
    let q = match cached_quotient(game, max, &limits) {
        Ok(q) => q,
        Err(Error::TooLarge { .. } | Error::TooLong { .. }) => return Ok(None),
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
        method: crate::plan::Method {
            id: "misere-quotient",
            detail: format!(
                "misère quotient of heaps 0..{} (|Q| = {}, |P| = {}): the product of the heaps' elements, {}",
                q.max_heap(),
                q.size(),
                q.p_size(),
                q.word(a.element)
            ),
        },
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
}
