//! Complete deterministic automata over tuples of digits, read most significant digit
//! first, with the operations of the decision procedure: product, complement,
//! projection (∃) with determinization, minimization, least witness.

use crate::{Error, Result};
use rustc_hash::FxHashMap;
use std::collections::VecDeque;
use std::hash::Hash;

/// Most transitions (states × letters) one automaton may hold: 2^27 entries of 4 bytes
/// is 512 MiB, far below the 2 GB a proof may use.
pub const MAX_ENTRIES: usize = 1 << 27;

/// Most letters of an alphabet (digits ^ tracks): 2^16 admits six tracks in base 6
/// (Irie's C^β for β = [(2,3)..] reads the block in base 6).
pub const MAX_LETTERS: usize = 1 << 16;

/// A complete DFA over the alphabet {0..base−1}^k (one track per variable), start state
/// 0. Letter index: Σ dᵢ·base^(k−1−i), so track 0 is the most significant digit of a
/// letter and letters in index order are lexicographic in the tracks.
///
/// ```
/// use nimlab_automata::Dfa;
/// // one track over {0,1}: words whose last digit is 1 (odd numbers in base 2)
/// let odd = Dfa::explore(2, vec![0], false, |_, l| Some(l[0] == 1), |s| *s).unwrap();
/// assert!(odd.accepts(&[vec![1, 1]]));
/// assert!(!odd.accepts(&[vec![1, 0]]));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dfa {
    base: u32,
    vars: Vec<u32>,
    letters: usize,
    delta: crate::budget::Transitions,
    accept: Vec<bool>,
}

fn letter_count(base: u32, tracks: usize) -> Result<usize> {
    let mut n: usize = 1;
    for _ in 0..tracks {
        n = n.saturating_mul(base as usize);
        if n > MAX_LETTERS {
            return Err(Error::TooLarge(format!(
                "an alphabet of {base}^{tracks} letters (at most {MAX_LETTERS}): too many variables at once"
            )));
        }
    }
    Ok(n)
}

/// Digits of letter `l` (track 0 first).
pub fn decode_letter(base: u32, tracks: usize, mut l: usize, out: &mut [u32]) {
    for i in (0..tracks).rev() {
        out[i] = (l % base as usize) as u32;
        l /= base as usize;
    }
}

fn encode_letter(base: u32, digits: &[u32]) -> usize {
    digits
        .iter()
        .fold(0usize, |acc, &d| acc * base as usize + d as usize)
}

/// Numbers the states reached from `start` breadth first, in the order met, each with
/// its `letters` transitions by `step`: the states and the transitions (state ·
/// letters + letter). `bytes` is the memory one state takes, checked with the
/// transitions against the budget after each state; `what` names the automaton when
/// it grows past [`MAX_ENTRIES`] transitions.
fn number_states<S: Clone + Eq + Hash>(
    start: S,
    letters: usize,
    mut step: impl FnMut(&S, usize) -> S,
    bytes: impl Fn(&S) -> usize,
    what: &str,
) -> Result<(Vec<S>, Vec<u32>)> {
    let mut ids: FxHashMap<S, u32> = FxHashMap::default();
    let mut state_bytes = bytes(&start);
    let mut states = vec![start.clone()];
    ids.insert(start, 0);
    let mut delta = Vec::new();
    let mut i = 0;
    while i < states.len() {
        let s = states[i].clone();
        for l in 0..letters {
            let t = step(&s, l);
            let next = states.len() as u32;
            let id = match ids.get(&t) {
                Some(&id) => id,
                None => {
                    state_bytes += bytes(&t);
                    ids.insert(t.clone(), next);
                    states.push(t);
                    next
                }
            };
            delta.push(id);
        }
        if delta.len() > MAX_ENTRIES {
            return Err(Error::TooLarge(format!(
                "{what} of more than {} states",
                states.len()
            )));
        }
        crate::budget::check(delta.len() * 4 + state_bytes)?;
        i += 1;
    }
    Ok((states, delta))
}

impl Dfa {
    /// The automaton accepting every word (`true`) or none, over tracks `vars`.
    pub fn constant(base: u32, vars: Vec<u32>, value: bool) -> Result<Dfa> {
        let letters = letter_count(base, vars.len())?;
        Ok(Dfa {
            base,
            vars,
            letters,
            delta: vec![0; letters].into(),
            accept: vec![value],
        })
    }

    /// Builds the automaton reachable from `start` by `step` (None: the rejecting sink),
    /// states accepting where `accept` says. `vars` must be sorted and distinct.
    pub fn explore<S, F, A>(
        base: u32,
        vars: Vec<u32>,
        start: S,
        mut step: F,
        accept: A,
    ) -> Result<Dfa>
    where
        S: Clone + Eq + Hash,
        F: FnMut(&S, &[u32]) -> Option<S>,
        A: Fn(&S) -> bool,
    {
        debug_assert!(vars.windows(2).all(|w| w[0] < w[1]));
        let k = vars.len();
        let letters = letter_count(base, k)?;
        let mut ids: FxHashMap<S, u32> = FxHashMap::default();
        let mut states = vec![start.clone()];
        ids.insert(start, 0);
        let mut delta: Vec<u32> = Vec::new();
        let mut digits = vec![0u32; k];
        let mut sink: Option<u32> = None;
        let mut i = 0;
        // The sink is appended after the last real state; its index is fixed up below.
        let mut pending_sink: Vec<usize> = Vec::new();
        while i < states.len() {
            let s = states[i].clone();
            for l in 0..letters {
                decode_letter(base, k, l, &mut digits);
                match step(&s, &digits) {
                    Some(t) => {
                        let next = states.len() as u32;
                        let id = *ids.entry(t.clone()).or_insert_with(|| {
                            states.push(t);
                            next
                        });
                        delta.push(id);
                    }
                    None => {
                        pending_sink.push(delta.len());
                        delta.push(0);
                        sink = Some(0);
                    }
                }
            }
            if delta.len() > MAX_ENTRIES {
                return Err(Error::TooLarge(format!(
                    "an automaton of more than {} states",
                    states.len()
                )));
            }
            // transitions, and each state kept twice (list and table) with its id
            crate::budget::check(
                delta.len() * 4 + states.len() * (2 * std::mem::size_of::<S>() + 16),
            )?;
            i += 1;
        }
        let mut accept: Vec<bool> = states.iter().map(&accept).collect();
        if sink.is_some() {
            let s = states.len() as u32;
            for at in pending_sink {
                delta[at] = s;
            }
            delta.extend(std::iter::repeat_n(s, letters));
            accept.push(false);
        }
        Ok(Dfa {
            base,
            vars,
            letters,
            delta: delta.into(),
            accept,
        }
        .minimize())
    }

    /// Number of digits per track.
    pub fn base(&self) -> u32 {
        self.base
    }
    /// The variables, one per track, sorted.
    pub fn vars(&self) -> &[u32] {
        &self.vars
    }
    /// Number of states.
    pub fn states(&self) -> usize {
        self.accept.len()
    }
    /// Number of letters.
    pub fn letters(&self) -> usize {
        self.letters
    }
    /// The state after reading letter `l` in state `q`.
    pub fn next(&self, q: usize, l: usize) -> usize {
        self.delta[q * self.letters + l] as usize
    }
    /// Whether state `q` accepts.
    pub fn is_accepting(&self, q: usize) -> bool {
        self.accept[q]
    }

    /// Whether the word given track by track (msd first, all tracks equally long) is
    /// accepted.
    pub fn accepts(&self, tracks: &[Vec<u32>]) -> bool {
        assert_eq!(tracks.len(), self.vars.len());
        let len = tracks.first().map_or(0, |t| t.len());
        let mut q = 0;
        let mut digits = vec![0u32; tracks.len()];
        for i in 0..len {
            for (d, t) in digits.iter_mut().zip(tracks) {
                *d = t[i];
            }
            q = self.next(q, encode_letter(self.base, &digits));
        }
        self.accept[q]
    }

    /// The same automaton with variable v renamed `rename(v)` (distinct new names; the
    /// tracks are re-sorted).
    pub fn renamed(&self, rename: impl Fn(u32) -> u32) -> Result<Dfa> {
        let new: Vec<u32> = self.vars.iter().map(|&v| rename(v)).collect();
        let mut sorted = new.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(
            sorted.len(),
            new.len(),
            "renaming must keep variables distinct"
        );
        // track i of the new automaton is old track perm[i]
        let perm: Vec<usize> = sorted
            .iter()
            .map(|v| new.iter().position(|w| w == v).unwrap())
            .collect();
        let k = new.len();
        let mut digits = vec![0u32; k];
        let mut old = vec![0u32; k];
        let mut map = vec![0usize; self.letters];
        for (l, m) in map.iter_mut().enumerate() {
            decode_letter(self.base, k, l, &mut digits);
            for (i, &p) in perm.iter().enumerate() {
                old[p] = digits[i];
            }
            *m = encode_letter(self.base, &old);
        }
        let mut delta = Vec::with_capacity(self.delta.len());
        for q in 0..self.states() {
            for &m in &map {
                delta.push(self.delta[q * self.letters + m]);
            }
        }
        Ok(Dfa {
            base: self.base,
            vars: sorted,
            letters: self.letters,
            delta: delta.into(),
            accept: self.accept.clone(),
        }
        .minimize())
    }

    /// The complement (same tracks).
    pub fn complement(&self) -> Dfa {
        let mut d = self.clone();
        for a in d.accept.iter_mut() {
            *a = !*a;
        }
        d
    }

    /// The same language over the tracks `vars` ⊇ `self.vars()` (the new tracks are
    /// free).
    pub fn cylindrify(&self, vars: &[u32]) -> Result<Dfa> {
        if vars == self.vars.as_slice() {
            return Ok(self.clone());
        }
        let pos: Vec<usize> = self
            .vars
            .iter()
            .map(|v| {
                vars.iter()
                    .position(|w| w == v)
                    .expect("superset of tracks")
            })
            .collect();
        let letters = letter_count(self.base, vars.len())?;
        if self.states().saturating_mul(letters) > MAX_ENTRIES {
            return Err(Error::TooLarge(format!(
                "{} states × {letters} letters",
                self.states()
            )));
        }
        crate::budget::check(self.states().saturating_mul(letters).saturating_mul(4))?;
        let mut map = vec![0usize; letters];
        let mut digits = vec![0u32; vars.len()];
        let mut small = vec![0u32; self.vars.len()];
        for (l, m) in map.iter_mut().enumerate() {
            decode_letter(self.base, vars.len(), l, &mut digits);
            for (s, &p) in small.iter_mut().zip(&pos) {
                *s = digits[p];
            }
            *m = encode_letter(self.base, &small);
        }
        let mut delta = Vec::with_capacity(self.states() * letters);
        for q in 0..self.states() {
            for &m in &map {
                delta.push(self.delta[q * self.letters + m]);
            }
        }
        Ok(Dfa {
            base: self.base,
            vars: vars.to_vec(),
            letters,
            delta: delta.into(),
            accept: self.accept.clone(),
        })
    }

    /// The product automaton over the union of the tracks, accepting where
    /// `op(accept₁, accept₂)`; minimized.
    pub fn product(&self, other: &Dfa, op: impl Fn(bool, bool) -> bool) -> Result<Dfa> {
        assert_eq!(self.base, other.base, "one numeration per automaton");
        let mut vars: Vec<u32> = self.vars.iter().chain(&other.vars).copied().collect();
        vars.sort_unstable();
        vars.dedup();
        let a = self.cylindrify(&vars)?;
        let b = other.cylindrify(&vars)?;
        let letters = a.letters;
        let (pairs, delta) = number_states(
            (0u32, 0u32),
            letters,
            |&(p, q), l| {
                (
                    a.delta[p as usize * letters + l],
                    b.delta[q as usize * letters + l],
                )
            },
            |_| 28,
            "a product",
        )?;
        let accept = pairs
            .iter()
            .map(|&(p, q)| op(a.accept[p as usize], b.accept[q as usize]))
            .collect();
        Ok(Dfa {
            base: self.base,
            vars,
            letters,
            delta: delta.into(),
            accept,
        }
        .minimize())
    }

    /// full[l·base + d]: the letter of `self` for letter l of the other tracks (`letters`
    /// of them) with digit d on track `at`.
    fn letters_with_digit(&self, at: usize, letters: usize) -> Vec<usize> {
        let k = self.vars.len();
        // full[l][d]: the letter of self for small letter l with digit d on track `at`
        let mut full = vec![0usize; letters * self.base as usize];
        let mut small = vec![0u32; k - 1];
        let mut digits = vec![0u32; k];
        for l in 0..letters {
            decode_letter(self.base, k - 1, l, &mut small);
            for d in 0..self.base {
                let mut j = 0;
                for (i, slot) in digits.iter_mut().enumerate() {
                    if i == at {
                        *slot = d;
                    } else {
                        *slot = small[j];
                        j += 1;
                    }
                }
                full[l * self.base as usize + d as usize] = encode_letter(self.base, &digits);
            }
        }
        full
    }

    /// ∃ `var`: the automaton accepting a word of the other tracks when some digits on
    /// track `var` — and some number of leading all-zero letters before the word — make
    /// `self` accept. The leading zeros let the witness be longer than the other
    /// variables (Walnut's treatment of msd-first projection). Determinized by the
    /// subset construction and minimized.
    pub fn project(&self, var: u32) -> Result<Dfa> {
        let Some(at) = self.vars.iter().position(|&v| v == var) else {
            return Ok(self.clone());
        };
        let k = self.vars.len();
        let vars: Vec<u32> = self.vars.iter().copied().filter(|&v| v != var).collect();
        let letters = letter_count(self.base, k - 1)?;
        let full = self.letters_with_digit(at, letters);
        let n = self.states();
        let step = |set: &[u32], l: usize, seen: &mut Vec<bool>| -> Vec<u32> {
            let mut out = Vec::new();
            for &q in set {
                for d in 0..self.base as usize {
                    let t =
                        self.delta[q as usize * self.letters + full[l * self.base as usize + d]];
                    if !seen[t as usize] {
                        seen[t as usize] = true;
                        out.push(t);
                    }
                }
            }
            for &t in &out {
                seen[t as usize] = false;
            }
            out.sort_unstable();
            out
        };
        let mut seen = vec![false; n];
        // zero closure of the start state
        let mut start = vec![0u32];
        loop {
            let mut next = step(&start, 0, &mut seen);
            next.extend_from_slice(&start);
            next.sort_unstable();
            next.dedup();
            if next == start {
                break;
            }
            start = next;
        }
        let (sets, delta) = number_states(
            start,
            letters,
            |s, l| step(s, l, &mut seen),
            // the subsets are kept twice (list and table): their elements and their headers
            |t| 2 * (t.len() * 4 + 48),
            "a determinized automaton",
        )?;
        let accept = sets
            .iter()
            .map(|s| s.iter().any(|&q| self.accept[q as usize]))
            .collect();
        Ok(Dfa {
            base: self.base,
            vars,
            letters,
            delta: delta.into(),
            accept,
        }
        .minimize())
    }

    /// The minimal automaton of the same language, in canonical form: states numbered
    /// in breadth-first order from the start, letters in index order. Two automata of
    /// the same language (same tracks) minimize to equal values.
    pub fn minimize(&self) -> Dfa {
        let order = self.reachable();
        let (class, count) = self.moore_classes(&order);
        self.canonical_quotient(&order, &class, count)
    }

    /// The states reachable from the start, in breadth-first order.
    fn reachable(&self) -> Vec<u32> {
        let n = self.states();
        let letters = self.letters;
        // reachable states only
        let mut reach = vec![false; n];
        let mut order = vec![0u32];
        reach[0] = true;
        let mut i = 0;
        while i < order.len() {
            let q = order[i] as usize;
            for l in 0..letters {
                let t = self.delta[q * letters + l];
                if !reach[t as usize] {
                    reach[t as usize] = true;
                    order.push(t);
                }
            }
            i += 1;
        }
        order
    }

    /// Moore's refinement over the `order`ed states: each state's class (states of one
    /// class accept the same words) and the number of classes.
    fn moore_classes(&self, order: &[u32]) -> (Vec<u32>, usize) {
        let n = self.states();
        let letters = self.letters;
        // Moore's refinement: classes by acceptance, then by the classes of successors
        let mut class = vec![0u32; n];
        for &q in order {
            class[q as usize] = self.accept[q as usize] as u32;
        }
        let mut count = {
            let mut c: Vec<u32> = order.iter().map(|&q| class[q as usize]).collect();
            c.sort_unstable();
            c.dedup();
            c.len()
        };
        // renumber so that classes are 0..count
        if count == 1 {
            for &q in order {
                class[q as usize] = 0;
            }
        }
        let mut sig: Vec<u32> = Vec::with_capacity(letters + 1);
        loop {
            let mut ids: FxHashMap<Vec<u32>, u32> = FxHashMap::default();
            let mut next = vec![0u32; n];
            for &q in order {
                let q = q as usize;
                sig.clear();
                sig.push(class[q]);
                for l in 0..letters {
                    sig.push(class[self.delta[q * letters + l] as usize]);
                }
                let len = ids.len() as u32;
                next[q] = match ids.get(&sig) {
                    Some(&c) => c,
                    None => {
                        ids.insert(sig.clone(), len);
                        len
                    }
                };
            }
            let new_count = ids.len();
            class = next;
            if new_count == count {
                break;
            }
            count = new_count;
        }
        (class, count)
    }

    /// The automaton of the classes, numbered breadth-first from the start's class.
    fn canonical_quotient(&self, order: &[u32], class: &[u32], count: usize) -> Dfa {
        let letters = self.letters;
        // canonical numbering: BFS over classes from the start's class
        let mut rep = vec![u32::MAX; count];
        for &q in order {
            let c = class[q as usize] as usize;
            if rep[c] == u32::MAX {
                rep[c] = q;
            }
        }
        let mut num = vec![u32::MAX; count];
        let mut queue = VecDeque::new();
        num[class[0] as usize] = 0;
        queue.push_back(class[0] as usize);
        let mut bfs = Vec::with_capacity(count);
        while let Some(c) = queue.pop_front() {
            bfs.push(c);
            let q = rep[c] as usize;
            for l in 0..letters {
                let t = class[self.delta[q * letters + l] as usize] as usize;
                if num[t] == u32::MAX {
                    num[t] = (bfs.len() + queue.len()) as u32;
                    queue.push_back(t);
                }
            }
        }
        let mut delta = Vec::with_capacity(count * letters);
        let mut accept = Vec::with_capacity(count);
        for &c in &bfs {
            let q = rep[c] as usize;
            for l in 0..letters {
                delta.push(num[class[self.delta[q * letters + l] as usize] as usize]);
            }
            accept.push(self.accept[q]);
        }
        Dfa {
            base: self.base,
            vars: self.vars.clone(),
            letters,
            delta: delta.into(),
            accept,
        }
    }

    /// Whether no word is accepted.
    pub fn is_empty(&self) -> bool {
        self.least_word().is_none()
    }

    /// Whether every word is accepted.
    pub fn is_universal(&self) -> bool {
        self.complement().is_empty()
    }

    /// The least accepted word: shortest, then lexicographically least in letter order
    /// (track 0's digit first). Given track by track, msd first; with leading all-zero
    /// letters removed, so that it is the least tuple in that order. `None`: empty.
    pub fn least_word(&self) -> Option<Vec<Vec<u32>>> {
        let n = self.states();
        let letters = self.letters;
        let mut parent: Vec<Option<(u32, u32)>> = vec![None; n];
        let mut seen = vec![false; n];
        seen[0] = true;
        let mut queue = VecDeque::from([0u32]);
        let mut found = None;
        while let Some(q) = queue.pop_front() {
            if self.accept[q as usize] {
                found = Some(q);
                break;
            }
            for l in 0..letters {
                let t = self.delta[q as usize * letters + l];
                if !seen[t as usize] {
                    seen[t as usize] = true;
                    parent[t as usize] = Some((q, l as u32));
                    queue.push_back(t);
                }
            }
        }
        let mut q = found?;
        let mut word = Vec::new();
        while let Some((p, l)) = parent[q as usize] {
            word.push(l as usize);
            q = p;
        }
        word.reverse();
        let k = self.vars.len();
        let mut tracks = vec![Vec::with_capacity(word.len()); k];
        let mut digits = vec![0u32; k];
        for &l in &word {
            decode_letter(self.base, k, l, &mut digits);
            for (t, &d) in tracks.iter_mut().zip(&digits) {
                t.push(d);
            }
        }
        Some(tracks)
    }

    /// Whether the start state loops on the all-zero letter, so that leading zeros do
    /// not change acceptance: true of every automaton the decision procedure builds.
    pub fn is_zero_invariant(&self) -> bool {
        self.next(0, 0) == 0
    }

    /// The transition table (states × letters, row-major).
    pub fn transitions(&self) -> &[u32] {
        &self.delta[..]
    }
}
