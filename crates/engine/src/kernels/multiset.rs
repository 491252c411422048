//! Grundy values of games whose positions are multisets of heaps but whose value is
//! *not* the nim-sum of the heaps' values — misère take-and-break games above all
//! (misère Kayles, `misere(octal(code=4.07))`).
//!
//! Sprague–Grundy theory does not apply to misère sums, so every multiset reachable
//! from the position has to be solved. What makes it fast is the representation: a
//! position is its live heaps (heaps with no move are dropped, as they change
//! nothing) `a_0 ≤ a_1 ≤ … ≤ a_{k−1}`, written as the bit set `{a_i + i}` — the
//! lattice path of the partition, `max heap + number of heaps` bits — in one, two or
//! four machine words stored inline in the hash map. Misère Kayles on a heap of 60
//! then needs 120 bits per position; a lookup touches one small entry and no
//! allocation is made per position. An option is made by merging one heap's parts
//! into the sorted key, each distinct heap size is moved from once, and the search is
//! a single iterative depth-first pass whose post-order evaluates each position after
//! its options (no separate discovery and sort). The generic solver stays the oracle in
//! the tests.

use crate::error::{Error, Result};
use crate::game::{Coord, Game};
use crate::memory::MemoryLimit;
use crate::mex::MexScratch;
use crate::progress::Progress;
use rustc_hash::FxHashMap;

/// Heaps at most this size fit in a byte; larger roots use the generic solver (their
/// multisets are far too many to enumerate anyway).
const MAX_HEAP: u64 = u8::MAX as u64;

/// The most words of a key: positions whose paths need more bits use the generic
/// solver.
const MAX_WORDS: usize = 4;

/// Marks a position on the current search path (options not all evaluated yet).
const ON_PATH: u32 = u32::MAX;

/// The memo, its keys as many words as the positions searched so far need.
enum Memo {
    W1(FxHashMap<[u64; 1], u32>),
    W2(FxHashMap<[u64; 2], u32>),
    W4(FxHashMap<[u64; 4], u32>),
}

impl Memo {
    fn len(&self) -> usize {
        match self {
            Memo::W1(m) => m.len(),
            Memo::W2(m) => m.len(),
            Memo::W4(m) => m.len(),
        }
    }

    fn words(&self) -> usize {
        match self {
            Memo::W1(_) => 1,
            Memo::W2(_) => 2,
            Memo::W4(_) => 4,
        }
    }

    /// The memo with keys of at least `words` words (entries carried over: a path's
    /// bits do not depend on the width).
    fn widened(self, words: usize) -> Memo {
        if words <= self.words() {
            return self;
        }
        let entries: Vec<(Vec<u64>, u32)> = match self {
            Memo::W1(m) => m.into_iter().map(|(k, v)| (k.to_vec(), v)).collect(),
            Memo::W2(m) => m.into_iter().map(|(k, v)| (k.to_vec(), v)).collect(),
            Memo::W4(m) => m.into_iter().map(|(k, v)| (k.to_vec(), v)).collect(),
        };
        fn rekey<const N: usize>(entries: Vec<(Vec<u64>, u32)>) -> FxHashMap<[u64; N], u32> {
            entries
                .into_iter()
                .map(|(k, v)| {
                    let mut key = [0u64; N];
                    key[..k.len()].copy_from_slice(&k);
                    (key, v)
                })
                .collect()
        }
        if words <= 2 {
            Memo::W2(rekey(entries))
        } else {
            Memo::W4(rekey(entries))
        }
    }
}

/// Splits larger than this many beans are not looked for by [`count_bound`].
const SPLIT_PROBE: u64 = 64;

/// Bean totals past this make [`count_bound`] answer "too many" without counting.
const COUNTED_BEANS: u64 = 1024;

/// About how many multisets of heaps a heap game may reach from `pos`, for refusing
/// hours of work before it starts: when some small heap splits, the multisets of
/// heaps no larger than the largest with at most as many beans (moves add no beans);
/// when no heap splits, the heaps only shrink, so the product of `heap + 1`.
///
pub(crate) fn count_bound(game: &dyn Game, pos: &[Coord]) -> u128 {
    let largest = pos.iter().copied().max().unwrap_or(0);
    let mut splits = false;
    for h in 1..=largest.min(SPLIT_PROBE) {
        game.for_each_option(&[h], &mut |o| {
            splits |= o.iter().filter(|&&p| p > 0).count() > 1;
        });
    }
    if !splits {
        return pos
            .iter()
            .fold(1u128, |acc, &c| acc.saturating_mul(c as u128 + 1));
    }
    let beans = pos.iter().fold(0u64, |acc, &h| acc.saturating_add(h));
    if beans > COUNTED_BEANS {
        return u128::MAX;
    }
    // ways[s]: multisets of parts 1..=largest with sum s (the partition recurrence).
    let beans = beans as usize;
    let mut ways = vec![0u128; beans + 1];
    ways[0] = 1;
    for part in 1..=(largest as usize).min(beans) {
        for s in part..=beans {
            ways[s] = ways[s].saturating_add(ways[s - part]);
        }
    }
    ways.iter().fold(0u128, |acc, &w| acc.saturating_add(w))
}

/// The path key of heaps in increasing order (see the module documentation).
fn encode<const N: usize>(heaps: &[u8]) -> [u64; N] {
    let mut key = [0u64; N];
    for (i, &h) in heaps.iter().enumerate() {
        let bit = h as usize + i;
        key[bit / 64] |= 1 << (bit % 64);
    }
    key
}

/// The heaps of a path key in increasing order, written to `out`; returns how many.
fn decode<const N: usize>(key: &[u64; N], out: &mut [u8; 256]) -> usize {
    let mut i = 0;
    for (w, &word) in key.iter().enumerate() {
        let mut bits = word;
        while bits != 0 {
            let bit = w * 64 + bits.trailing_zeros() as usize;
            out[i] = (bit - i) as u8;
            i += 1;
            bits &= bits - 1;
        }
    }
    i
}

/// The memoized multiset search for one game (see the module documentation).
pub(crate) struct HeapMultisetSolver<'g> {
    game: &'g dyn Game,
    /// By heap size: its options as lists of live heaps in decreasing order, once
    /// known; an empty list marks a dead heap.
    heap_options: Vec<Option<Vec<Vec<u8>>>>,
    memo: Memo,
    scratch: MexScratch,
}

/// The search's view of one heap game: each heap size's options.
struct Rules<'a> {
    heap_options: &'a [Option<Vec<Vec<u8>>>],
    game: &'a dyn Game,
}

/// One position of the search path: the options still to visit and the values of the
/// options already evaluated.
struct Frame<const N: usize> {
    key: [u64; N],
    unvisited: Vec<[u64; N]>,
    next: usize,
    values: Vec<u32>,
}

impl<'g> HeapMultisetSolver<'g> {
    pub(crate) fn new(game: &'g dyn Game) -> Self {
        HeapMultisetSolver {
            game,
            heap_options: Vec::new(),
            memo: Memo::W1(FxHashMap::default()),
            scratch: MexScratch::default(),
        }
    }

    /// Positions memoized so far.
    pub(crate) fn len(&self) -> usize {
        self.memo.len()
    }

    /// The live heaps of `pos` in increasing order, or `None` when the kernel cannot
    /// take the position (a reachable heap too large for a byte, a game whose moves
    /// add beans, or a path longer than the widest key).
    pub(crate) fn key_of(&mut self, pos: &[Coord]) -> Option<Vec<u8>> {
        if pos.iter().any(|&h| h > MAX_HEAP) {
            return None;
        }
        // Learn every heap size reachable from the position, so that the search
        // itself never meets one it does not know.
        let mut todo: Vec<u64> = pos.to_vec();
        let mut learned = false;
        while let Some(h) = todo.pop() {
            let h = h as usize;
            if self.heap_options.get(h).is_some_and(|o| o.is_some()) {
                continue;
            }
            let mut list: Vec<Vec<u8>> = Vec::new();
            let mut too_big = false;
            self.game.for_each_option(&[h as Coord], &mut |o| {
                too_big |= o.iter().any(|&p| p > MAX_HEAP);
                let mut parts: Vec<u8> = o.iter().filter(|&&p| p > 0).map(|&p| p as u8).collect();
                parts.sort_unstable();
                if !list.contains(&parts) {
                    list.push(parts);
                }
            });
            if too_big {
                return None;
            }
            todo.extend(list.iter().flatten().map(|&p| p as u64));
            if self.heap_options.len() <= h {
                self.heap_options.resize(h + 1, None);
            }
            self.heap_options[h] = Some(list);
            learned = true;
        }
        fn is_live(heap_options: &[Option<Vec<Vec<u8>>>], h: u8) -> bool {
            heap_options
                .get(h as usize)
                .is_some_and(|o| o.as_ref().is_some_and(|o| !o.is_empty()))
        }
        if learned {
            // Dead heaps (no move) change nothing: drop them from every option.
            let alive: Vec<bool> = (0..self.heap_options.len())
                .map(|h| is_live(&self.heap_options, h as u8))
                .collect();
            for list in self.heap_options.iter_mut().flatten() {
                for parts in list.iter_mut() {
                    parts.retain(|&p| alive[p as usize]);
                }
                let mut distinct: Vec<Vec<u8>> = Vec::with_capacity(list.len());
                for parts in list.drain(..) {
                    if !distinct.contains(&parts) {
                        distinct.push(parts);
                    }
                }
                *list = distinct;
            }
        }
        let live = |h: u8| is_live(&self.heap_options, h);
        let mut key: Vec<u8> = pos.iter().map(|&h| h as u8).filter(|&h| live(h)).collect();
        key.sort_unstable();
        // Heaps never outnumber the beans over the smallest live heap (a move keeps
        // or lowers the beans: each option's parts sum to at most the heap).
        let smallest_live = (1..=MAX_HEAP as u8).find(|&h| live(h)).unwrap_or(1) as u64;
        let beans: u64 = key.iter().map(|&h| h as u64).sum();
        let conserving = self.heap_options.iter().enumerate().all(|(h, o)| {
            o.as_ref().is_none_or(|o| {
                o.iter()
                    .all(|p| p.iter().map(|&x| x as usize).sum::<usize>() <= h)
            })
        });
        // and no heap outgrows the largest one of the position.
        let bits = beans / smallest_live + key.last().copied().unwrap_or(0) as u64;
        if !conserving || bits > 64 * MAX_WORDS as u64 {
            return None;
        }
        let memo = std::mem::replace(&mut self.memo, Memo::W1(FxHashMap::default()));
        self.memo = memo.widened(bits.div_ceil(64) as usize);
        Some(key)
    }

    /// The value of the position with key `root` (from [`Self::key_of`]).
    pub(crate) fn grundy(
        &mut self,
        root: &[u8],
        limit: MemoryLimit,
        progress: &dyn Progress,
        describe: &dyn Fn(usize) -> String,
    ) -> Result<u32> {
        let rules = Rules {
            heap_options: &self.heap_options,
            game: self.game,
        };
        let scratch = &mut self.scratch;
        match &mut self.memo {
            Memo::W1(m) => evaluate(&rules, m, scratch, root, limit, progress, describe),
            Memo::W2(m) => evaluate(&rules, m, scratch, root, limit, progress, describe),
            Memo::W4(m) => evaluate(&rules, m, scratch, root, limit, progress, describe),
        }
    }
}

fn evaluate<const N: usize>(
    rules: &Rules,
    memo: &mut FxHashMap<[u64; N], u32>,
    scratch: &mut MexScratch,
    root: &[u8],
    limit: MemoryLimit,
    progress: &dyn Progress,
    describe: &dyn Fn(usize) -> String,
) -> Result<u32> {
    let key = encode::<N>(root);
    if let Some(&v) = memo.get(&key) {
        return Ok(v);
    }
    let answer = search(rules, memo, scratch, key, limit, progress, describe);
    if answer.is_err() {
        // Forget the positions left half-evaluated on the abandoned path.
        memo.retain(|_, v| *v != ON_PATH);
    }
    answer
}

fn search<const N: usize>(
    rules: &Rules,
    memo: &mut FxHashMap<[u64; N], u32>,
    scratch: &mut MexScratch,
    root: [u64; N],
    limit: MemoryLimit,
    progress: &dyn Progress,
    describe: &dyn Fn(usize) -> String,
) -> Result<u32> {
    let terminal = rules.game.terminal_value();
    // A bucket of the map: its entry and its control byte.
    let bucket = std::mem::size_of::<([u64; N], u32)>() as u64 + 1;
    let mut path: Vec<Frame<N>> = Vec::new();
    let mut spare: Vec<Frame<N>> = Vec::new();
    memo.insert(root, ON_PATH);
    path.push(expand(rules, memo, root, &mut spare)?);
    let mut evaluated = 0usize;
    progress.start(0, "positions evaluated");
    while let Some(top) = path.last_mut() {
        if top.next < top.unvisited.len() {
            let child = top.unvisited[top.next];
            top.next += 1;
            match memo.get(&child) {
                Some(&ON_PATH) => return Err(cycle(rules)),
                Some(&v) => top.values.push(v),
                None => {
                    memo.insert(child, ON_PATH);
                    let frame = expand(rules, memo, child, &mut spare)?;
                    path.push(frame);
                }
            }
            continue;
        }
        let frame = path.pop().expect("the loop holds a frame");
        let v = if frame.values.is_empty() {
            terminal
        } else {
            scratch.clear(frame.values.len());
            for &x in &frame.values {
                scratch.insert(x);
            }
            scratch.mex()
        };
        *memo.get_mut(&frame.key).expect("inserted on entry") = v;
        if let Some(parent) = path.last_mut() {
            parent.values.push(v);
        }
        spare.push(frame);
        evaluated += 1;
        if evaluated.is_multiple_of(4096) {
            progress.check_cancelled()?;
            if evaluated.is_multiple_of(65536) {
                progress.advance(65536);
            }
            // The table as allocated; when it is about to grow, the old and the new
            // (twice as large) tables live side by side while it rehashes.
            let table = (memo.capacity() as u64 * 8 / 7).next_power_of_two() * bucket;
            let soon_full = memo.len() + 4096 > memo.capacity();
            limit.check(
                &describe(memo.len()),
                if soon_full { 3 * table } else { table },
            )?;
        }
    }
    progress.finish();
    Ok(memo[&root])
}

fn cycle(rules: &Rules) -> Error {
    Error::Contract(format!(
        "{} returns to a position on its own line of play",
        rules.game.spec()
    ))
}

/// A frame for `key` holding its options: values of those already evaluated, keys
/// of the others.
fn expand<const N: usize>(
    rules: &Rules,
    memo: &FxHashMap<[u64; N], u32>,
    key: [u64; N],
    spare: &mut Vec<Frame<N>>,
) -> Result<Frame<N>> {
    let mut frame = spare.pop().unwrap_or(Frame {
        key,
        unvisited: Vec::new(),
        next: 0,
        values: Vec::new(),
    });
    frame.key = key;
    frame.unvisited.clear();
    frame.values.clear();
    frame.next = 0;
    let mut heaps = [0u8; 256];
    let len = decode(&key, &mut heaps);
    let heaps = &heaps[..len];
    let mut option = [0u8; 256];
    for (i, &h) in heaps.iter().enumerate() {
        if i > 0 && heaps[i - 1] == h {
            continue; // the same options as from the equal heap before it
        }
        let Some(Some(list)) = rules.heap_options.get(h as usize) else {
            unreachable!("key_of learns every reachable heap size")
        };
        for parts in list {
            let n = merge_without(heaps, i, parts, &mut option);
            frame.unvisited.push(encode::<N>(&option[..n]));
        }
    }
    // All the keys first, then all the lookups: the lookups miss the cache, and
    // back to back they overlap.
    let mut kept = 0;
    for j in 0..frame.unvisited.len() {
        let o = frame.unvisited[j];
        match memo.get(&o) {
            Some(&ON_PATH) => return Err(cycle(rules)),
            Some(&v) => frame.values.push(v),
            None => {
                frame.unvisited[kept] = o;
                kept += 1;
            }
        }
    }
    frame.unvisited.truncate(kept);
    Ok(frame)
}

/// `heaps` (increasing) without its `skip`-th heap and with `parts` (increasing)
/// merged in, written to `out`; returns how many.
fn merge_without(heaps: &[u8], skip: usize, parts: &[u8], out: &mut [u8; 256]) -> usize {
    let mut n = 0;
    let mut p = 0;
    for (i, &h) in heaps.iter().enumerate() {
        if i == skip {
            continue;
        }
        while p < parts.len() && parts[p] < h {
            out[n] = parts[p];
            n += 1;
            p += 1;
        }
        out[n] = h;
        n += 1;
    }
    for &x in &parts[p..] {
        out[n] = x;
        n += 1;
    }
    n
}

#[cfg(test)]
mod tests {
    use super::{decode, encode, merge_without};

    #[test]
    fn merging_keeps_the_heaps_sorted() {
        let mut out = [0u8; 256];
        let n = merge_without(&[1, 3, 3, 7], 1, &[2, 5], &mut out);
        assert_eq!(&out[..n], &[1, 2, 3, 5, 7]);
        assert_eq!(merge_without(&[4], 0, &[], &mut out), 0);
        let n = merge_without(&[1, 2], 0, &[9], &mut out);
        assert_eq!(&out[..n], &[2, 9]);
    }

    #[test]
    fn the_count_bound_is_the_number_of_partitions() {
        use crate::game::{Coord, Game};
        /// Kayles-like splitting: take one bean, leave up to two heaps.
        struct Split;
        impl Game for Split {
            fn spec(&self) -> String {
                "split".into()
            }
            fn dimension(&self) -> usize {
                1
            }
            fn for_each_option(&self, p: &[Coord], visit: &mut dyn FnMut(&[Coord])) {
                for a in 0..p[0] {
                    visit(&[a, p[0] - 1 - a]);
                }
            }
        }
        // Partitions of 0..=5 with parts ≤ 5: 1 + 1 + 2 + 3 + 5 + 7.
        assert_eq!(super::count_bound(&Split, &[5]), 19);
        assert_eq!(super::count_bound(&Split, &[2000]), u128::MAX);
    }

    #[test]
    fn path_keys_round_trip() {
        let mut out = [0u8; 256];
        for heaps in [
            vec![],
            vec![1],
            vec![1, 1, 1],
            vec![2, 5, 5, 60],
            vec![200, 255],
        ] {
            let key = encode::<8>(&heaps);
            let n = decode(&key, &mut out);
            assert_eq!(&out[..n], &heaps[..]);
        }
        assert_ne!(encode::<2>(&[1, 2]), encode::<2>(&[3]));
    }
}
