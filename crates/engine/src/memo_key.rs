//! The solver's memo and its keys: a position of at most two words is stored inline
//! (no allocation per entry, and no pointer to follow when a lookup compares keys),
//! a longer one on the heap. Keys hash and compare as the position's words do, so a
//! map of keys is looked up by a position's slice as well.

use crate::game::Coord;
use rustc_hash::FxHashMap;
use std::borrow::Borrow;
use std::hash::{Hash, Hasher};

/// A position held as a memo key.
#[derive(Clone, Debug)]
pub(crate) enum Key {
    /// A position of at most two words (the unused ones 0).
    Inline { len: u8, words: [Coord; 2] },
    /// A longer position.
    Heap(Box<[Coord]>),
}

impl Key {
    /// The key of `pos`.
    #[inline]
    pub(crate) fn new(pos: &[Coord]) -> Self {
        match *pos {
            [] => Key::Inline {
                len: 0,
                words: [0, 0],
            },
            [a] => Key::Inline {
                len: 1,
                words: [a, 0],
            },
            [a, b] => Key::Inline {
                len: 2,
                words: [a, b],
            },
            _ => Key::Heap(pos.into()),
        }
    }

    /// The position's words.
    #[inline]
    pub(crate) fn as_slice(&self) -> &[Coord] {
        match self {
            Key::Inline { len, words } => &words[..*len as usize],
            Key::Heap(words) => words,
        }
    }
}

impl PartialEq for Key {
    #[inline]
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Key::Inline { len: a, words: x }, Key::Inline { len: b, words: y }) => {
                a == b && x == y
            }
            _ => self.as_slice() == other.as_slice(),
        }
    }
}

impl Eq for Key {}

impl Hash for Key {
    #[inline]
    fn hash<H: Hasher>(&self, state: &mut H) {
        // As the slice hashes: a key and its position's words find the same entry.
        self.as_slice().hash(state)
    }
}

impl Borrow<[Coord]> for Key {
    #[inline]
    fn borrow(&self) -> &[Coord] {
        self.as_slice()
    }
}

/// The solver's memo: positions of at most two words in an open-addressing table of
/// their own (key and value side by side in one 32-byte slot: a lookup reads one
/// cache line, and can be announced ahead by [`Memo::prefetch`]); longer positions in a
/// hash map.
#[derive(Default)]
pub(crate) struct Memo {
    /// A power of two of slots (none before the first insertion), at most 5/8 full.
    slots: Vec<Slot>,
    /// Occupied slots.
    short: usize,
    long: FxHashMap<Key, u32>,
}

/// A slot: a position of at most two words and its value; `len == EMPTY` when free.
#[derive(Clone, Copy)]
#[repr(C, align(32))]
struct Slot {
    words: [Coord; 2],
    len: u32,
    value: u32,
}

/// Fetches the cache line of a hash table's `slot` ahead of its lookup (a hint: x86-64
/// only, nothing elsewhere).
#[inline(always)]
pub(crate) fn prefetch_slot<T>(slot: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is only a hint; the address is that of a live reference.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
            (slot as *const T).cast(),
        )
    };
    #[cfg(not(target_arch = "x86_64"))]
    let _ = slot;
}

const EMPTY: u32 = u32::MAX;

impl Memo {
    /// Memoized positions.
    pub(crate) fn len(&self) -> usize {
        self.short + self.long.len()
    }

    /// The slot index where the search for a short position starts.
    #[inline(always)]
    fn home(&self, words: [Coord; 2], len: usize) -> usize {
        const K: u64 = 0xf135_7aea_2e62_a9c5;
        let h = (words[0].wrapping_mul(K).rotate_left(26) ^ words[1] ^ (len as u64) << 60)
            .wrapping_mul(K);
        // The high bits of the product are the well mixed ones.
        (h >> (64 - self.slots.len().trailing_zeros())) as usize
    }

    /// The words of a short position (`None` for a longer one).
    #[inline(always)]
    fn short_words(pos: &[Coord]) -> Option<[Coord; 2]> {
        match *pos {
            [] => Some([0, 0]),
            [a] => Some([a, 0]),
            [a, b] => Some([a, b]),
            _ => None,
        }
    }

    /// The value of `pos`, if memoized.
    #[inline]
    pub(crate) fn get(&self, pos: &[Coord]) -> Option<u32> {
        let Some(words) = Self::short_words(pos) else {
            return self.long.get(pos).copied();
        };
        if self.slots.is_empty() {
            return None;
        }
        let mask = self.slots.len() - 1;
        let mut i = self.home(words, pos.len());
        loop {
            let slot = &self.slots[i];
            if slot.len == EMPTY {
                return None;
            }
            if slot.words == words && slot.len as usize == pos.len() {
                return Some(slot.value);
            }
            i = (i + 1) & mask;
        }
    }

    /// Announces a lookup of `pos` soon: its first slot is fetched into the cache.
    #[inline]
    pub(crate) fn prefetch(&self, pos: &[Coord]) {
        if let Some(words) = Self::short_words(pos)
            && !self.slots.is_empty()
        {
            crate::memo_key::prefetch_slot(&self.slots[self.home(words, pos.len())]);
        }
    }

    /// Memoizes `value` for `key` (replacing a value it had).
    pub(crate) fn insert(&mut self, key: Key, value: u32) {
        let (words, len) = match key {
            Key::Inline { len, words } => (words, len as usize),
            Key::Heap(_) => {
                self.long.insert(key, value);
                return;
            }
        };
        if (self.short + 1) * 8 > self.slots.len() * 5 {
            self.grow();
        }
        if self.put(words, len, value) {
            self.short += 1;
        }
    }

    /// Puts an entry in its slot; `true` when the slot was free.
    fn put(&mut self, words: [Coord; 2], len: usize, value: u32) -> bool {
        let mask = self.slots.len() - 1;
        let mut i = self.home(words, len);
        loop {
            let slot = &mut self.slots[i];
            if slot.len == EMPTY {
                *slot = Slot {
                    words,
                    len: len as u32,
                    value,
                };
                return true;
            }
            if slot.words == words && slot.len as usize == len {
                slot.value = value;
                return false;
            }
            i = (i + 1) & mask;
        }
    }

    /// Twice the slots (64 to start with), every entry moved to its new place.
    fn grow(&mut self) {
        let size = (self.slots.len() * 2).max(64);
        let empty = Slot {
            words: [0, 0],
            len: EMPTY,
            value: 0,
        };
        let mut slots = Vec::with_capacity(size);
        advise_huge_pages(&slots);
        slots.resize(size, empty);
        let old = std::mem::replace(&mut self.slots, slots);
        for slot in old.into_iter().filter(|s| s.len != EMPTY) {
            self.put(slot.words, slot.len as usize, slot.value);
        }
    }
}

/// Asks the kernel to back the (not yet written) capacity of a big vector by huge
/// pages: random lookups in a table of hundreds of megabytes then miss the TLB far
/// less. Only a hint: nothing happens but on Linux, for tables of some megabytes.
pub(crate) fn advise_huge_pages<T>(v: &Vec<T>) {
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        let bytes = v.capacity() * std::mem::size_of::<T>();
        let start = v.as_ptr() as usize;
        let (first, end) = (start.next_multiple_of(HUGE), (start + bytes) / HUGE * HUGE);
        if bytes >= 4 * HUGE && end > first {
            // SAFETY: the range lies within the vector's allocation, and the advice
            // changes no contents (a refusal is harmless).
            unsafe {
                libc::madvise(first as *mut libc::c_void, end - first, libc::MADV_HUGEPAGE);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = v;
}

#[cfg(test)]
mod tests {
    use super::*;
    use rustc_hash::FxHashMap;

    #[test]
    fn keys_are_found_by_their_words_and_by_themselves() {
        let positions: Vec<Vec<Coord>> = vec![
            vec![],
            vec![0],
            vec![7],
            vec![0, 7],
            vec![7, 0],
            vec![1, 2, 3],
            vec![1, 2, 3, 0],
        ];
        let mut memo = FxHashMap::default();
        for (i, p) in positions.iter().enumerate() {
            memo.insert(Key::new(p), i);
        }
        assert_eq!(memo.len(), positions.len());
        for (i, p) in positions.iter().enumerate() {
            assert_eq!(memo.get(&p[..]), Some(&i));
            assert_eq!(memo.get(&Key::new(p)), Some(&i));
            assert_eq!(Key::new(p).as_slice(), &p[..]);
        }
        assert_eq!(memo.get(&[7, 0, 0][..]), None);
    }

    #[test]
    fn the_memo_holds_what_a_map_holds() {
        let mut memo = Memo::default();
        let mut map = FxHashMap::default();
        let mut x = 0x2545f4914f6cdd1d_u64;
        for i in 0..200_000u32 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            // Few distinct words, so that keys repeat and collide.
            let w = x % 5000;
            let pos: Vec<Coord> = match i % 5 {
                0 => vec![],
                1 => vec![w],
                2 => vec![w, x % 3],
                3 => vec![x % 3, w],
                _ => vec![w, 1, x % 7],
            };
            let probe: Vec<Coord> = vec![w ^ 1; (i % 4) as usize];
            assert_eq!(memo.get(&probe), map.get(&probe).copied(), "{probe:?}");
            memo.prefetch(&probe);
            memo.insert(Key::new(&pos), i);
            map.insert(pos, i);
            assert_eq!(memo.len(), map.len());
        }
        for (pos, &v) in &map {
            assert_eq!(memo.get(pos), Some(v), "{pos:?}");
        }
    }
}
