//! The search's transposition table: what is known of each component's nimber (a
//! lower bound, an upper bound, and values ruled out), bounded in memory. Positions
//! of one or two words live in buckets of four 32-byte slots; when a bucket is full
//! the entry of the smallest component gives way (it is the cheapest to find again),
//! so a full table never fails, it forgets. Longer positions live in a hash map that
//! is emptied when it reaches its share of the memory.

use crate::game::Coord;
use rustc_hash::FxHashMap;

/// What is known of one nimber g: `lower ≤ g ≤ upper`, and g is none of the values
/// below 64 whose bit is set in `ruled_out`.
///
/// ```
/// use nimlab_engine::search::Bounds;
/// let mut b = Bounds::UNKNOWN;
/// b.rule_out(0);
/// b.at_most(2);
/// b.rule_out(1);
/// assert_eq!(b.exact(), Some(2));
/// assert!(b.excludes(5));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bounds {
    /// g ≥ lower.
    pub lower: u32,
    /// g ≤ upper.
    pub upper: u32,
    /// Bit u set: g ≠ u.
    pub ruled_out: u64,
}

impl Bounds {
    /// Nothing known.
    pub const UNKNOWN: Bounds = Bounds {
        lower: 0,
        upper: u32::MAX,
        ruled_out: 0,
    };

    /// g = v.
    pub fn exactly(v: u32) -> Bounds {
        Bounds {
            lower: v,
            upper: v,
            ruled_out: 0,
        }
    }

    /// The nimber, when the bounds meet.
    pub fn exact(&self) -> Option<u32> {
        (self.lower == self.upper).then_some(self.lower)
    }

    /// Whether g = v is ruled out.
    pub fn excludes(&self, v: u32) -> bool {
        v < self.lower || v > self.upper || (v < 64 && self.ruled_out >> v & 1 == 1)
    }

    /// Records g ≠ v (the bounds move past values ruled out at their ends).
    pub fn rule_out(&mut self, v: u32) {
        if v < 64 {
            self.ruled_out |= 1 << v;
        }
        if v == self.lower && self.lower < self.upper {
            self.lower += 1;
        } else if v == self.upper && self.upper > self.lower {
            self.upper -= 1;
        }
        self.settle();
    }

    /// Records g ≤ v.
    pub fn at_most(&mut self, v: u32) {
        self.upper = self.upper.min(v);
        self.settle();
    }

    /// Moves each bound past the values ruled out next to it.
    pub(crate) fn settle(&mut self) {
        let out = |v: u32, mask: u64| v < 64 && mask >> v & 1 == 1;
        while self.lower < self.upper && out(self.lower, self.ruled_out) {
            self.lower += 1;
        }
        while self.upper > self.lower && out(self.upper, self.ruled_out) {
            self.upper -= 1;
        }
    }

    /// Both bounds' knowledge together.
    pub fn merge(&mut self, other: Bounds) {
        self.ruled_out |= other.ruled_out;
        self.lower = self.lower.max(other.lower);
        self.upper = self.upper.min(other.upper);
        self.settle();
    }
}

/// A slot: a position of at most two words and its bounds, stored in 16 bits each
/// (a bound that does not fit is stored weaker: the lower one cut down, the upper one
/// forgotten). `len == 0` marks a free slot; positions are stored with `len` 1 or 2.
#[derive(Clone, Copy, Default)]
#[repr(C, align(32))]
pub(crate) struct Slot {
    words: [Coord; 2],
    ruled_out: u64,
    lower: u16,
    upper: u16,
    len: u8,
    /// The component's rank, capped: the replacement policy keeps the bigger ones.
    rank: u8,
}

const NO_UPPER: u16 = u16::MAX;
const BUCKET: usize = 4;

impl Slot {
    fn bounds(&self) -> Bounds {
        Bounds {
            lower: self.lower as u32,
            upper: if self.upper == NO_UPPER {
                u32::MAX
            } else {
                self.upper as u32
            },
            ruled_out: self.ruled_out,
        }
    }

    fn set(&mut self, b: Bounds) {
        self.lower = b.lower.min(NO_UPPER as u32 - 1) as u16;
        self.upper = if b.upper < NO_UPPER as u32 {
            b.upper as u16
        } else {
            NO_UPPER
        };
        self.ruled_out = b.ruled_out;
    }
}

/// The transposition table.
pub(crate) struct Table {
    slots: Vec<Slot>,
    /// Occupied slots.
    used: usize,
    /// Most slots it may grow to (a power of two).
    most_slots: usize,
    long: FxHashMap<Box<[Coord]>, Bounds>,
    most_long: usize,
    /// Entries overwritten for want of room.
    pub(crate) replaced: u64,
}

/// Bytes a long entry costs, about (its key on the heap, the map's slot).
const LONG_ENTRY_BYTES: usize = 96;

impl Table {
    /// A table that holds at most about `bytes` bytes.
    pub(crate) fn new(bytes: u64) -> Self {
        let slots_fit = (bytes / 2 / std::mem::size_of::<Slot>() as u64).max(64);
        Table {
            slots: Vec::new(),
            used: 0,
            most_slots: 1usize << (63 - slots_fit.leading_zeros()),
            long: FxHashMap::default(),
            most_long: ((bytes / 2) as usize / LONG_ENTRY_BYTES).max(1 << 10),
            replaced: 0,
        }
    }

    /// Entries held.
    pub(crate) fn len(&self) -> usize {
        self.used + self.long.len()
    }

    /// Bytes held, about.
    pub(crate) fn bytes(&self) -> u64 {
        (self.slots.len() * std::mem::size_of::<Slot>() + self.long.len() * LONG_ENTRY_BYTES) as u64
    }

    fn short(pos: &[Coord]) -> Option<[Coord; 2]> {
        match *pos {
            [a] => Some([a, 0]),
            [a, b] => Some([a, b]),
            _ => None,
        }
    }

    #[inline]
    fn bucket(&self, words: [Coord; 2], len: usize) -> usize {
        const K: u64 = 0x9e37_79b9_7f4a_7c15;
        let h = (words[0].wrapping_mul(K).rotate_left(29) ^ words[1] ^ (len as u64) << 62)
            .wrapping_mul(K);
        let buckets = self.slots.len() / BUCKET;
        (h >> (64 - buckets.trailing_zeros())) as usize * BUCKET
    }

    /// Announces a lookup of `pos` soon: its bucket is fetched into the cache while
    /// the options are still being listed.
    #[inline]
    pub(crate) fn prefetch(&self, pos: &[Coord]) {
        #[cfg(target_arch = "x86_64")]
        if let Some(words) = Self::short(pos)
            && !self.slots.is_empty()
        {
            crate::memo_key::prefetch_slot(&self.slots[self.bucket(words, pos.len())]);
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = pos;
    }

    /// What is known of `pos`.
    pub(crate) fn get(&self, pos: &[Coord]) -> Bounds {
        let Some(words) = Self::short(pos) else {
            return self.long.get(pos).copied().unwrap_or(Bounds::UNKNOWN);
        };
        if self.slots.is_empty() {
            return Bounds::UNKNOWN;
        }
        let b = self.bucket(words, pos.len());
        self.slots[b..b + BUCKET]
            .iter()
            .find(|s| s.len as usize == pos.len() && s.words == words)
            .map_or(Bounds::UNKNOWN, Slot::bounds)
    }

    /// Adds what `known` says of `pos` (of rank `rank`) to what the table holds.
    pub(crate) fn learn(&mut self, pos: &[Coord], rank: u128, known: Bounds) {
        let Some(words) = Self::short(pos) else {
            if self.long.len() >= self.most_long && !self.long.contains_key(pos) {
                // A full map starts over: forgetting is always sound.
                self.replaced += self.long.len() as u64;
                self.long.clear();
            }
            self.long
                .entry(pos.into())
                .or_insert(Bounds::UNKNOWN)
                .merge(known);
            return;
        };
        if self.slots.is_empty()
            || ((self.used + 1) * 4 > self.slots.len() * 3 && self.slots.len() < self.most_slots)
        {
            self.grow();
        }
        self.put(words, pos.len() as u8, rank.min(255) as u8, known);
    }

    /// Puts the entry in its bucket: merged into its own slot, else in a free slot,
    /// else over the bucket's smallest component.
    fn put(&mut self, words: [Coord; 2], len: u8, rank: u8, known: Bounds) {
        let b = self.bucket(words, len as usize);
        let bucket = &mut self.slots[b..b + BUCKET];
        if let Some(s) = bucket.iter_mut().find(|s| s.len == len && s.words == words) {
            let mut now = s.bounds();
            now.merge(known);
            s.set(now);
            return;
        }
        let victim = match bucket.iter().position(|s| s.len == 0) {
            Some(free) => {
                self.used += 1;
                free
            }
            None => {
                self.replaced += 1;
                (0..BUCKET)
                    .min_by_key(|&i| bucket[i].rank)
                    .expect("a bucket has slots")
            }
        };
        let s = &mut self.slots[b + victim];
        *s = Slot {
            words,
            len,
            rank,
            ..Slot::default()
        };
        s.set(known);
    }

    /// Room for `entries` entries read back from a checkpoint (within the most
    /// slots): four slots each, so that the table is at least as big as the one that
    /// wrote them (it grew at three quarters full) and the entries, which come bucket
    /// by bucket, never crowd a bucket.
    pub(crate) fn reserve(&mut self, entries: u64) {
        while (self.slots.len() as u64) < entries.saturating_mul(4)
            && self.slots.len() < self.most_slots
        {
            self.grow();
        }
    }

    /// Twice the slots, every entry moved over (none is lost: a bucket that
    /// overflows while moving keeps the bigger components).
    fn grow(&mut self) {
        let size = (self.slots.len() * 2).clamp(2 * BUCKET, self.most_slots);
        let old = std::mem::replace(&mut self.slots, vec![Slot::default(); size]);
        self.used = 0;
        for s in old.into_iter().filter(|s| s.len != 0) {
            self.put(s.words, s.len, s.rank, s.bounds());
        }
    }

    /// Every entry, for a checkpoint: short ones as (words, len, rank, bounds).
    pub(crate) fn entries(&self) -> impl Iterator<Item = (Vec<Coord>, u8, Bounds)> + '_ {
        let short = self
            .slots
            .iter()
            .filter(|s| s.len != 0)
            .map(|s| (s.words[..s.len as usize].to_vec(), s.rank, s.bounds()));
        let long = self.long.iter().map(|(k, b)| (k.to_vec(), 255u8, *b));
        short.chain(long)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_meet_when_every_other_value_is_ruled_out() {
        let mut b = Bounds::UNKNOWN;
        b.at_most(3);
        b.rule_out(3);
        assert_eq!(b.upper, 2);
        b.rule_out(0);
        b.rule_out(1);
        assert_eq!(b.exact(), Some(2));
    }

    #[test]
    fn a_full_table_forgets_but_never_lies() {
        let mut t = Table::new(1 << 12);
        for i in 1..100_000u64 {
            t.learn(&[i], (i % 50) as u128, Bounds::exactly((i % 7) as u32));
        }
        assert!(t.replaced > 0);
        for i in 1..100_000u64 {
            let b = t.get(&[i]);
            assert!(b == Bounds::UNKNOWN || b.exact() == Some((i % 7) as u32));
        }
        t.learn(&[1, 2, 3], 9, Bounds::exactly(4));
        assert_eq!(t.get(&[1, 2, 3]).exact(), Some(4));
    }
}
