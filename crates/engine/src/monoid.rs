//! Finite commutative monoids: a multiplication table, a presentation by generators
//! and relations, and the reduction of a commutative "automaton" (elements acted on by
//! generators) to the monoid it presents.
//!
//! Elements are numbered `0..size`; element 0 is always the identity. The misère
//! quotients of [`crate::misere_quotient`] are built from these.

use crate::error::{Error, Result};
use std::collections::VecDeque;
use std::fmt;

/// A finite commutative monoid given by its full multiplication table.
///
/// ```
/// use nimlab_engine::monoid::Monoid;
/// // Z/2 = {1, a}, a·a = 1.
/// let m = Monoid::from_table(2, vec![0, 1, 1, 0]).unwrap();
/// assert_eq!(m.mul(1, 1), 0);
/// assert!(m.is_associative() && m.is_commutative());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Monoid {
    size: usize,
    table: Vec<u32>,
}

impl Monoid {
    /// The monoid with one element.
    pub fn trivial() -> Self {
        Monoid {
            size: 1,
            table: vec![0],
        }
    }

    /// A monoid from its table (`table[a * size + b] = a·b`), checked: entries in range,
    /// element 0 the identity, commutative and associative.
    pub fn from_table(size: usize, table: Vec<u32>) -> Result<Self> {
        if size == 0 || table.len() != size.saturating_mul(size) {
            return Err(Error::input(
                "a monoid table needs size² entries and size ≥ 1",
            ));
        }
        if table.iter().any(|&e| e as usize >= size) {
            return Err(Error::input("a monoid table entry is out of range"));
        }
        let m = Monoid { size, table };
        if (0..size).any(|a| m.mul(0, a as u32) != a as u32) {
            return Err(Error::input(
                "element 0 of a monoid table must be the identity",
            ));
        }
        if !m.is_commutative() || !m.is_associative() {
            return Err(Error::input("the table is not commutative and associative"));
        }
        Ok(m)
    }

    /// A table already known to be a commutative monoid with identity 0.
    pub(crate) fn from_table_unchecked(size: usize, table: Vec<u32>) -> Self {
        debug_assert_eq!(table.len(), size * size);
        Monoid { size, table }
    }

    /// Number of elements.
    pub fn size(&self) -> usize {
        self.size
    }

    /// The product `a·b`.
    #[inline]
    pub fn mul(&self, a: u32, b: u32) -> u32 {
        self.table[a as usize * self.size + b as usize]
    }

    /// `a` to the power `k`.
    ///
    /// ```
    /// use nimlab_engine::monoid::Monoid;
    /// let m = Monoid::cyclic(2, 2); // 1, a, a², a³ with a⁴ = a²
    /// assert_eq!(m.pow(1, 4), m.pow(1, 2));
    /// ```
    pub fn pow(&self, a: u32, mut k: u64) -> u32 {
        let (mut base, mut acc) = (a, 0u32);
        while k > 0 {
            if k & 1 == 1 {
                acc = self.mul(acc, base);
            }
            base = self.mul(base, base);
            k >>= 1;
        }
        acc
    }

    /// The cyclic monoid of index `index` and period `period`: 1, a, …, a^(index+period−1)
    /// with a^(index+period) = a^index.
    pub fn cyclic(index: usize, period: usize) -> Self {
        let size = index + period.max(1);
        let reduce = |k: usize| {
            if k < size {
                k
            } else {
                index + (k - index) % period.max(1)
            }
        };
        let mut table = vec![0u32; size * size];
        for a in 0..size {
            for b in 0..size {
                table[a * size + b] = reduce(a + b) as u32;
            }
        }
        Monoid { size, table }
    }

    /// The raw table, row by row, given up.
    pub(crate) fn into_table(self) -> Vec<u32> {
        self.table
    }

    /// The raw table, row by row.
    pub fn table(&self) -> &[u32] {
        &self.table
    }

    /// Whether `a·b = b·a` for all elements.
    pub fn is_commutative(&self) -> bool {
        (0..self.size as u32).all(|a| (0..a).all(|b| self.mul(a, b) == self.mul(b, a)))
    }

    /// Whether `(a·b)·c = a·(b·c)` for all elements (cubic: for tests and small tables).
    pub fn is_associative(&self) -> bool {
        let n = self.size as u32;
        (0..n).all(|a| {
            (0..n).all(|b| {
                let ab = self.mul(a, b);
                (0..n).all(|c| self.mul(ab, c) == self.mul(a, self.mul(b, c)))
            })
        })
    }

    /// The elements reached from the identity by multiplying by `gens`, each with its
    /// least word (graded, then lexicographic with the first generator most significant)
    /// and the BFS order in which they were met.
    pub(crate) fn normal_forms(&self, gens: &[u32]) -> Vec<Option<Vec<u32>>> {
        // Breadth-first by degree; inside a degree, words are met in lexicographic order
        // when each word is extended only by generators at or after its last one, which
        // keeps the set of least words closed under division.
        let mut nf: Vec<Option<Vec<u32>>> = vec![None; self.size];
        nf[0] = Some(vec![0; gens.len()]);
        let mut frontier: Vec<(u32, Vec<u32>, usize)> = vec![(0, vec![0; gens.len()], 0)];
        while !frontier.is_empty() {
            let mut next = Vec::new();
            for (elem, word, last) in &frontier {
                for (i, &g) in gens.iter().enumerate().skip(*last) {
                    let e = self.mul(*elem, g);
                    if nf[e as usize].is_none() {
                        let mut w = word.clone();
                        w[i] += 1;
                        nf[e as usize] = Some(w.clone());
                        next.push((e, w, i));
                    }
                }
            }
            // Sort the new degree lexicographically (descending exponents of earlier gens).
            next.sort_by(|a, b| b.1.cmp(&a.1));
            frontier = next;
        }
        nf
    }

    /// A presentation of the submonoid generated by `gens`: the least word of every
    /// element (graded lexicographic order) and the relations `lhs = rhs` whose left
    /// sides are the minimal words that are not least words. Rewriting by these
    /// relations brings any word to its element's least word.
    ///
    /// ```
    /// use nimlab_engine::monoid::Monoid;
    /// let m = Monoid::cyclic(1, 2); // a³ = a
    /// let p = m.presentation(&[1]);
    /// assert_eq!(p.to_string(), "⟨a | a³ = a⟩");
    /// assert_eq!(Monoid::from_presentation(&p, 100).unwrap(), m);
    /// ```
    pub fn presentation(&self, gens: &[u32]) -> Presentation {
        let nf = self.normal_forms(gens);
        let r = gens.len();
        let mut words: Vec<Vec<u32>> = Vec::new();
        let mut is_nf = rustc_hash::FxHashSet::default();
        for w in nf.iter().flatten() {
            is_nf.insert(w.clone());
        }
        let mut elem_of_nf = rustc_hash::FxHashMap::default();
        for (e, w) in nf.iter().enumerate() {
            if let Some(w) = w {
                elem_of_nf.insert(w.clone(), e as u32);
                words.push(w.clone());
            }
        }
        // Candidate left sides: a least word times one generator, not a least word,
        // all of whose one-smaller divisors are least words (minimality).
        let mut relations: Vec<(Vec<u32>, Vec<u32>)> = Vec::new();
        let mut seen = rustc_hash::FxHashSet::default();
        for w in &words {
            let e = elem_of_nf[w];
            for (i, &g) in gens.iter().enumerate() {
                let mut lhs = w.clone();
                lhs[i] += 1;
                if is_nf.contains(&lhs) || !seen.insert(lhs.clone()) {
                    continue;
                }
                let minimal = (0..r).all(|j| {
                    if lhs[j] == 0 {
                        return true;
                    }
                    let mut d = lhs.clone();
                    d[j] -= 1;
                    is_nf.contains(&d)
                });
                if minimal {
                    let target = self.mul(e, g);
                    let rhs = nf[target as usize].clone().expect("reached element");
                    relations.push((lhs, rhs));
                }
            }
        }
        relations.sort_by(|a, b| {
            let da: u32 = a.0.iter().sum();
            let db: u32 = b.0.iter().sum();
            da.cmp(&db).then(b.0.cmp(&a.0))
        });
        Presentation {
            generators: r,
            relations,
        }
    }

    /// The monoid presented by `p`, whose relations must rewrite every word to a
    /// unique normal form (as those [`Monoid::presentation`] writes do). Refuses past
    /// `max_size` elements (an infinite or too large monoid).
    pub fn from_presentation(p: &Presentation, max_size: usize) -> Result<Monoid> {
        let r = p.generators;
        if p.relations
            .iter()
            .any(|(l, rr)| l.len() != r || rr.len() != r)
        {
            return Err(Error::input("a relation has the wrong number of exponents"));
        }
        let reduce = |mut w: Vec<u32>| -> Vec<u32> {
            // Each rewrite lowers the word in a well-order, so this ends.
            loop {
                let mut changed = false;
                for (lhs, rhs) in &p.relations {
                    if w.iter().zip(lhs).all(|(a, b)| a >= b) && lhs != rhs {
                        for j in 0..r {
                            w[j] = w[j] - lhs[j] + rhs[j];
                        }
                        changed = true;
                    }
                }
                if !changed {
                    return w;
                }
            }
        };
        let mut index = rustc_hash::FxHashMap::default();
        let mut words: Vec<Vec<u32>> = vec![vec![0; r]];
        index.insert(vec![0u32; r], 0u32);
        let mut queue = VecDeque::from([0usize]);
        while let Some(i) = queue.pop_front() {
            for g in 0..r {
                let mut w = words[i].clone();
                w[g] += 1;
                let w = reduce(w);
                if !index.contains_key(&w) {
                    if words.len() >= max_size {
                        return Err(Error::input(format!(
                            "the presentation has more than {max_size} elements"
                        )));
                    }
                    index.insert(w.clone(), words.len() as u32);
                    words.push(w);
                    queue.push_back(words.len() - 1);
                }
            }
        }
        let n = words.len();
        let mut table = vec![0u32; n * n];
        for a in 0..n {
            for b in a..n {
                let w: Vec<u32> = words[a].iter().zip(&words[b]).map(|(x, y)| x + y).collect();
                let e = *index.get(&reduce(w)).ok_or_else(|| {
                    Error::input("the relations do not rewrite every word to a normal form")
                })?;
                table[a * n + b] = e;
                table[b * n + a] = e;
            }
        }
        Monoid::from_table(n, table)
    }

    /// Whether `other` is the same monoid up to renumbering, by a bijection sending
    /// `gens` to `other_gens` (generators in the same order). `None` when the
    /// generators do not determine a bijection.
    pub fn isomorphic_by_generators(
        &self,
        gens: &[u32],
        other: &Monoid,
        other_gens: &[u32],
    ) -> bool {
        if self.size != other.size || gens.len() != other_gens.len() {
            return false;
        }
        let a = self.normal_forms(gens);
        let b = other.normal_forms(other_gens);
        let mut map = vec![u32::MAX; self.size];
        let mut index_b = rustc_hash::FxHashMap::default();
        for (e, w) in b.iter().enumerate() {
            if let Some(w) = w {
                index_b.insert(w.clone(), e as u32);
            }
        }
        for (e, w) in a.iter().enumerate() {
            match w.as_ref().and_then(|w| index_b.get(w)) {
                Some(&f) => map[e] = f,
                None => return false,
            }
        }
        (0..self.size as u32).all(|x| {
            (0..self.size as u32).all(|y| {
                map[self.mul(x, y) as usize] == other.mul(map[x as usize], map[y as usize])
            })
        })
    }
}

/// Generators (named a, b, c, … in order) and relations `lhs = rhs` between words,
/// each word a vector of exponents.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Presentation {
    /// Number of generators.
    pub generators: usize,
    /// Relations, left side first.
    pub relations: Vec<(Vec<u32>, Vec<u32>)>,
}

/// The name of generator `i`: a … z, then g26, g27, …
///
/// ```
/// assert_eq!(nimlab_engine::monoid::generator_name(1), "b");
/// ```
pub fn generator_name(i: usize) -> String {
    if i < 26 {
        ((b'a' + i as u8) as char).to_string()
    } else {
        format!("g{i}")
    }
}

fn superscript(k: u32) -> String {
    const DIGITS: [char; 10] = ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'];
    k.to_string()
        .chars()
        .map(|c| DIGITS[c.to_digit(10).unwrap_or(0) as usize])
        .collect()
}

/// A word of exponents as text: `a²b`, or `1` for the empty word.
///
/// ```
/// assert_eq!(nimlab_engine::monoid::format_word(&[2, 1]), "a²b");
/// assert_eq!(nimlab_engine::monoid::format_word(&[0, 0]), "1");
/// ```
pub fn format_word(w: &[u32]) -> String {
    let mut s = String::new();
    for (i, &k) in w.iter().enumerate() {
        if k == 0 {
            continue;
        }
        s.push_str(&generator_name(i));
        if k > 1 {
            s.push_str(&superscript(k));
        }
    }
    if s.is_empty() {
        s.push('1');
    }
    s
}

/// A word of exponents in ASCII: `a^2 b`, or `1`.
pub fn format_word_ascii(w: &[u32]) -> String {
    let parts: Vec<String> = w
        .iter()
        .enumerate()
        .filter(|&(_, &k)| k > 0)
        .map(|(i, &k)| {
            if k == 1 {
                generator_name(i)
            } else {
                format!("{}^{k}", generator_name(i))
            }
        })
        .collect();
    if parts.is_empty() {
        "1".into()
    } else {
        parts.join(" ")
    }
}

impl fmt::Display for Presentation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let gens: Vec<String> = (0..self.generators).map(generator_name).collect();
        let rels: Vec<String> = self
            .relations
            .iter()
            .map(|(l, r)| format!("{} = {}", format_word(l), format_word(r)))
            .collect();
        if rels.is_empty() {
            write!(f, "⟨{}⟩", gens.join(", "))
        } else {
            write!(f, "⟨{} | {}⟩", gens.join(", "), rels.join(", "))
        }
    }
}

/// A commutative monoid given as an automaton: `n` states, state 0 the identity, and
/// `trans[s * k + j]` the state times generator `j` (of `k`). `accept` marks a subset
/// (the P-portion). [`Reduction`] merges the states no product tells apart.
pub(crate) struct Automaton<'a> {
    pub n: usize,
    pub k: usize,
    pub trans: &'a [u32],
    pub accept: &'a [bool],
    /// States with different labels are never merged (`None`: only `accept` counts).
    pub labels: Option<&'a [u64]>,
}

/// The reduced bipartite monoid of an automaton: two states are merged when for every
/// word `w` in the generators, `s·w` and `t·w` are both in or both out of the accepted
/// set (commutativity makes that a congruence). The classes of the states, numbered in breadth-first
/// order from the identity, before the table is built: enough to read the outcome of a
/// word ([`Reduction::class_of_word`]) without the `m²` table.
pub(crate) struct Reduction {
    /// Number of classes.
    pub size: usize,
    /// The class of every state.
    pub class: Vec<u32>,
    /// A state of each class.
    rep: Vec<u32>,
    /// `parent[y] = (x, j)`: class `y` is class `x` times generator `j` (a tree of words).
    parent: Vec<(u32, u32)>,
}

impl Reduction {
    /// Moore's partition refinement; signatures live in one flat buffer so that a round
    /// allocates nothing per state.
    pub(crate) fn new(a: &Automaton<'_>) -> Self {
        let (n, k) = (a.n, a.k);
        let mut class: Vec<u32> = {
            let mut ids: rustc_hash::FxHashMap<(u64, bool), u32> = Default::default();
            (0..n)
                .map(|s| {
                    let key = (a.labels.map_or(0, |l| l[s]), a.accept[s]);
                    let len = ids.len() as u32;
                    *ids.entry(key).or_insert(len)
                })
                .collect()
        };
        let mut count = class.iter().max().map_or(0, |&m| m as usize + 1);
        let w = k + 1;
        let mut sigs = vec![0u32; n * w];
        let mut next = vec![0u32; n];
        loop {
            for s in 0..n {
                let row = &mut sigs[s * w..(s + 1) * w];
                row[0] = class[s];
                for j in 0..k {
                    row[j + 1] = class[a.trans[s * k + j] as usize];
                }
            }
            let new_count = {
                let mut index: rustc_hash::FxHashMap<&[u32], u32> = Default::default();
                index.reserve(count * 2);
                for (s, row) in sigs.chunks_exact(w).enumerate() {
                    let len = index.len() as u32;
                    next[s] = *index.entry(row).or_insert(len);
                }
                index.len()
            };
            std::mem::swap(&mut class, &mut next);
            if new_count == count {
                break;
            }
            count = new_count;
        }
        // Renumber classes in BFS order from the identity, recording a tree of words.
        let mut number = vec![u32::MAX; count];
        let mut rep: Vec<u32> = Vec::with_capacity(count);
        let mut parent: Vec<(u32, u32)> = Vec::with_capacity(count);
        number[class[0] as usize] = 0;
        rep.push(0);
        parent.push((0, u32::MAX));
        let mut i = 0;
        while i < rep.len() {
            let s = rep[i] as usize;
            for j in 0..k {
                let t = a.trans[s * k + j];
                let c = class[t as usize] as usize;
                if number[c] == u32::MAX {
                    number[c] = rep.len() as u32;
                    rep.push(t);
                    parent.push((i as u32, j as u32));
                }
            }
            i += 1;
        }
        for c in class.iter_mut() {
            *c = number[*c as usize];
        }
        Reduction {
            size: rep.len(),
            class,
            rep,
            parent,
        }
    }

    /// The class of the state the word `gens` (generator indices) leads to from state 0.
    pub(crate) fn class_of_word(&self, a: &Automaton<'_>, gens: &[usize]) -> u32 {
        let s = gens
            .iter()
            .fold(0u32, |s, &j| a.trans[s as usize * a.k + j]);
        self.class[s as usize]
    }

    /// Whether class `x` is accepted.
    pub(crate) fn accepts(&self, a: &Automaton<'_>, x: u32) -> bool {
        a.accept[self.rep[x as usize] as usize]
    }

    /// The table (`size²` entries), P-portion and state classes.
    pub(crate) fn build(self, a: &Automaton<'_>) -> (Monoid, Vec<bool>, Vec<u32>) {
        let (m, k) = (self.size, a.k);
        let step = |e: u32, j: u32| {
            self.class[a.trans[self.rep[e as usize] as usize * k + j as usize] as usize]
        };
        let mut table = vec![0u32; m * m];
        for x in 0..m {
            table[x * m] = x as u32;
            for y in 1..m {
                let (py, g) = self.parent[y];
                let v = table[x * m + py as usize];
                table[x * m + y] = step(v, g);
            }
        }
        let accept: Vec<bool> = self.rep.iter().map(|&s| a.accept[s as usize]).collect();
        (Monoid::from_table_unchecked(m, table), accept, self.class)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cyclic_monoids_are_monoids() {
        for index in 0..4 {
            for period in 1..4 {
                let m = Monoid::cyclic(index, period);
                assert_eq!(m.size(), index + period);
                assert!(m.is_associative() && m.is_commutative());
                if m.size() > 1 {
                    assert_eq!(m.pow(1, (index + period) as u64), m.pow(1, index as u64));
                }
            }
        }
    }

    #[test]
    fn from_table_refuses_bad_tables() {
        assert!(Monoid::from_table(2, vec![0, 1, 1]).is_err());
        assert!(Monoid::from_table(2, vec![1, 1, 1, 0]).is_err()); // 0 not identity
        assert!(Monoid::from_table(2, vec![0, 1, 1, 2]).is_err()); // out of range
                                                                   // Not associative: 3 elements, a·a = b, a·b = a, b·b = a.
        assert!(Monoid::from_table(3, vec![0, 1, 2, 1, 2, 1, 2, 1, 1]).is_err());
    }

    #[test]
    fn presentation_round_trips_on_products_of_cyclic_monoids() {
        let a = Monoid::cyclic(2, 2);
        let b = Monoid::cyclic(1, 2);
        // Direct product, element (x, y) = x * |b| + y.
        let (na, nb) = (a.size(), b.size());
        let n = na * nb;
        let mut t = vec![0u32; n * n];
        for x in 0..n {
            for y in 0..n {
                let (x1, x2) = (x / nb, x % nb);
                let (y1, y2) = (y / nb, y % nb);
                t[x * n + y] =
                    a.mul(x1 as u32, y1 as u32) * nb as u32 + b.mul(x2 as u32, y2 as u32);
            }
        }
        let m = Monoid::from_table(n, t).unwrap();
        let gens = [nb as u32, 1];
        let p = m.presentation(&gens);
        assert_eq!(p.to_string(), "⟨a, b | b³ = b, a⁴ = a²⟩");
        // Rebuilt, elements 1 and 2 are the words a and b.
        let back = Monoid::from_presentation(&p, 1000).unwrap();
        assert_eq!(back.presentation(&[1, 2]), p);
        assert!(m.isomorphic_by_generators(&gens, &back, &[1, 2]));
        assert!(!m.isomorphic_by_generators(&gens, &back, &[2, 1]));
    }
}
