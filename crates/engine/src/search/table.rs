//! The search's transposition table: what is known of each component's nimber (a
//! lower bound, an upper bound, and values ruled out), bounded in memory. Positions
//! of one word live four to a 64-byte cache line, the bounds packed into a word beside
//! each key (16 bytes an entry, one cache miss a lookup); positions of two words live
//! in buckets of four 32-byte slots. When a bucket is full the entry of the smallest
//! component gives way (it is the cheapest to find again), so a full table never
//! fails, it forgets. Longer positions live in a hash map that is emptied when it
//! reaches its share of the memory.
//!
//! Several searches may share one table (the parallel search, [`super::Search::with_threads`]):
//! a one-word entry (key and packed bounds, 16 bytes) is read and written as one
//! 16-byte access, which x86-64 CPUs with AVX make atomic, so a reader sees a whole
//! entry or none, never the key of one with the bounds of another. Two writers of one
//! slot may lose one entry; every entry written is still true, so that is forgetting,
//! which is always sound. The table grows only while every search sharing it is parked
//! at a node boundary ([`Table::pause_for_growth`]). Two-word entries are for one
//! search alone (the parallel search takes one-word games only).

use crate::game::Coord;
use crate::memo_key::prefetch_slot;
use rustc_hash::FxHashMap;
use std::cell::UnsafeCell;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering::Relaxed};
use std::sync::{Condvar, Mutex};

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

/// One slot of a one-word position: its key and its bounds and rank packed in a word
/// (`data`, see [`pack`]; 0 marks a free slot), read and written as one 16-byte access.
#[derive(Default)]
#[repr(C, align(16))]
struct Entry(UnsafeCell<[u64; 2]>);

impl Clone for Entry {
    fn clone(&self) -> Self {
        let (key, data) = self.load();
        Entry(UnsafeCell::new([key, data]))
    }
}

impl Entry {
    /// (key, data), both from the same write.
    #[inline(always)]
    fn load(&self) -> (Coord, u64) {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the entry is 16-byte aligned and live; `movdqa` reads it in one
        // access (atomic on CPUs with AVX, the only ones where searches share a table;
        // [`Table::shareable`]).
        unsafe {
            use std::arch::x86_64::*;
            let v: __m128i;
            std::arch::asm!(
                "movdqa {v}, xmmword ptr [{p}]",
                p = in(reg) self.0.get(),
                v = out(xmm_reg) v,
                options(nostack, preserves_flags, readonly),
            );
            (
                _mm_cvtsi128_si64(v) as u64,
                _mm_cvtsi128_si64(_mm_unpackhi_epi64(v, v)) as u64,
            )
        }
        #[cfg(not(target_arch = "x86_64"))]
        // SAFETY: elsewhere a table is never shared: no write happens at the same time.
        unsafe {
            let [key, data] = *self.0.get();
            (key, data)
        }
    }

    /// Writes (key, data) in one access.
    #[inline(always)]
    fn store(&self, key: Coord, data: u64) {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as in `load`; the entry sits in an `UnsafeCell`, so writing it through a
        // shared reference is allowed.
        unsafe {
            use std::arch::x86_64::*;
            let v = _mm_set_epi64x(data as i64, key as i64);
            std::arch::asm!(
                "movdqa xmmword ptr [{p}], {v}",
                p = in(reg) self.0.get(),
                v = in(xmm_reg) v,
                options(nostack, preserves_flags),
            );
        }
        #[cfg(not(target_arch = "x86_64"))]
        // SAFETY: a table is never shared here (see `load`).
        unsafe {
            *self.0.get() = [key, data];
        }
    }
}

/// Four entries of one-word positions in one cache line. A lookup costs one cache
/// miss at most, and an entry 16 bytes.
#[derive(Clone, Default)]
#[repr(C, align(64))]
struct Line {
    slots: [Entry; BUCKET],
}

/// Where a key is in a line.
enum Found {
    /// In this slot, with this packed data.
    At(usize, u64),
    /// Not there; this slot is free.
    Free(usize),
    /// Not there, and every slot is taken.
    Full,
}

impl Line {
    /// Where `a` is, or the first free slot. Slots fill in order and are never
    /// emptied (only overwritten), so the first free slot ends the search.
    #[inline]
    fn find(&self, a: Coord) -> Found {
        for i in 0..BUCKET {
            let (key, data) = self.slots[i].load();
            if data == 0 {
                return Found::Free(i);
            }
            if key == a {
                return Found::At(i, data);
            }
        }
        Found::Full
    }
}

/// Bits of `ruled_out` a packed entry keeps (the values below 40; the rest are
/// forgotten, which is always sound).
const PACKED_RULED_OUT: u32 = 40;
/// A packed bound of this value: no upper bound (or a lower one cut down to it).
const PACKED_NONE: u64 = 255;
/// The packed entry's exact value did not fit: it is in the map of long entries.
const PACKED_OVERFLOW: u64 = 1 << 63;

/// One entry's bounds and rank in a word: `ruled_out` (bits 0–39), `lower` (40–47,
/// cut down to 255), `upper` (48–55, 255 for none), the rank (56–62, capped to
/// 1–127, so a used slot is never 0). An exact value of 255 or more does not fit:
/// the caller keeps it elsewhere.
#[inline]
fn pack(b: Bounds, rank: u8) -> u64 {
    let lower = (b.lower as u64).min(PACKED_NONE);
    let upper = if (b.upper as u64) < PACKED_NONE {
        b.upper as u64
    } else {
        PACKED_NONE
    };
    b.ruled_out & ((1 << PACKED_RULED_OUT) - 1)
        | lower << 40
        | upper << 48
        | (rank.clamp(1, 127) as u64) << 56
}

#[inline]
fn unpack(d: u64) -> Bounds {
    let upper = d >> 48 & 0xff;
    Bounds {
        lower: (d >> 40 & 0xff) as u32,
        upper: if upper == PACKED_NONE {
            u32::MAX
        } else {
            upper as u32
        },
        ruled_out: d & ((1 << PACKED_RULED_OUT) - 1),
    }
}

#[inline]
fn packed_rank(d: u64) -> u8 {
    (d >> 56 & 0x7f) as u8
}

/// A slot of a two-word position and its bounds, stored in 16 bits each (a bound that
/// does not fit is stored weaker: the lower one cut down, the upper one forgotten).
/// `len == 0` marks a free slot.
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

/// Four two-word slots, on two cache lines.
#[derive(Clone, Copy, Default)]
#[repr(C, align(128))]
struct Pair([Slot; BUCKET]);

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

/// The transposition table: one-word positions in `ones` (lines of four), two-word
/// ones in `twos` (buckets of four), longer ones in a hash map.
pub(crate) struct Table {
    /// Replaced only while no search uses the table ([`Table::pause_for_growth`]);
    /// its entries are written in place through shared references.
    ones: UnsafeCell<Vec<Line>>,
    /// Occupied slots of `ones` (about, when shared: two writers may fill one slot).
    ones_used: AtomicUsize,
    /// Used by one search alone (the parallel search takes one-word games only).
    twos: UnsafeCell<Vec<Pair>>,
    /// Occupied slots of `twos`.
    twos_used: AtomicUsize,
    /// Bytes `ones` and `twos` may take together.
    budget: usize,
    long: Mutex<FxHashMap<Box<[Coord]>, Bounds>>,
    most_long: usize,
    /// Entries overwritten for want of room.
    replaced: AtomicU64,
    /// Components some search sharing the table is in (one-word keys by hash; 0:
    /// none), so that the others put them off.
    busy: std::sync::OnceLock<Box<[AtomicU64]>>,
    /// `ones` should grow, at the next moment when no search is in it.
    grow_wanted: AtomicBool,
    /// A search sharing the table is making the next, doubled `ones` ready
    /// (`next_ones`).
    preparing: AtomicBool,
    next_ones: Mutex<Option<Vec<Line>>>,
    /// More than one search runs on the table: it grows only at a pause, and two-word
    /// entries are neither kept nor read.
    shared: AtomicBool,
    /// The searches sharing the table, and those parked for its growth.
    crew: Mutex<Crew>,
    crew_moved: Condvar,
}

/// Marks of components being searched ([`Table::mark_busy`]): a power of two.
const BUSY_SLOTS: usize = 1 << 14;

/// Slots each thread fills before it adds them to a shared table's count (fewer in a
/// small table).
const COUNT_EVERY: usize = 256;

thread_local! {
    /// The shared table this thread fills (its address) and the slots it filled there
    /// that the table has not counted yet.
    static UNCOUNTED: std::cell::Cell<(usize, usize)> = const { std::cell::Cell::new((0, 0)) };
}

/// Who uses a shared table ([`Table::pause_for_growth`]).
#[derive(Default)]
struct Crew {
    /// Searches registered as running on the table (0 or 1: one search, which may
    /// grow the table at once).
    running: usize,
    /// Of those, how many wait for the growth.
    parked: usize,
    /// Growths done: a parked search waits for it to change.
    growths: u64,
}

// SAFETY: the entries of `ones` are read and written as whole 16-byte accesses through
// `UnsafeCell`s, and the vector itself is replaced only while every other search
// sharing the table is parked (`pause_for_growth`, under the crew's mutex); `twos` is
// used by one search alone (the parallel search refuses games of wider positions);
// the rest is atomics and mutexes.
unsafe impl Sync for Table {}

/// Bytes a long entry costs, about (its key on the heap, the map's slot).
const LONG_ENTRY_BYTES: usize = 96;

/// The bucket of a hash among `buckets` (a power of two): its top bits.
#[inline]
fn bucket_of(h: u64, buckets: usize) -> usize {
    (h >> (64 - buckets.trailing_zeros())) as usize
}

#[inline]
fn hash_one(w: Coord) -> u64 {
    const K: u64 = 0x9e37_79b9_7f4a_7c15;
    (w.wrapping_mul(K).rotate_left(29) ^ 1 << 62).wrapping_mul(K)
}

#[inline]
fn hash_two(words: [Coord; 2]) -> u64 {
    const K: u64 = 0x9e37_79b9_7f4a_7c15;
    (words[0].wrapping_mul(K).rotate_left(29) ^ words[1] ^ 2 << 62).wrapping_mul(K)
}

/// Types whose all-zero bytes are their empty value (free slots).
///
/// # Safety
/// All-zero bytes must be a valid value of the type.
unsafe trait ZeroIsEmpty {}
// SAFETY: zero keys and data: four free slots.
unsafe impl ZeroIsEmpty for Line {}
// SAFETY: plain integers; `len == 0` marks a free slot.
unsafe impl ZeroIsEmpty for Pair {}

/// `n` empty values, on huge pages where the system gives them: the table is looked
/// up at random, and with small pages nearly every lookup (and prefetch) of a big
/// table also misses the TLB.
fn huge_vec<T: ZeroIsEmpty>(n: usize) -> Vec<T> {
    let mut v = Vec::with_capacity(n);
    crate::memo_key::advise_huge_pages(&v);
    // SAFETY: the capacity holds n values, and all-zero bytes are a valid (empty)
    // value of T (`ZeroIsEmpty`).
    unsafe {
        std::ptr::write_bytes(v.as_mut_ptr(), 0, n);
        v.set_len(n);
    }
    v
}

impl Table {
    /// A table that holds at most about `bytes` bytes.
    pub(crate) fn new(bytes: u64) -> Self {
        Table {
            ones: UnsafeCell::new(Vec::new()),
            ones_used: AtomicUsize::new(0),
            twos: UnsafeCell::new(Vec::new()),
            twos_used: AtomicUsize::new(0),
            budget: bytes as usize,
            long: Mutex::new(FxHashMap::default()),
            most_long: ((bytes / 2) as usize / LONG_ENTRY_BYTES).max(1 << 10),
            replaced: AtomicU64::new(0),
            busy: std::sync::OnceLock::new(),
            grow_wanted: AtomicBool::new(false),
            preparing: AtomicBool::new(false),
            next_ones: Mutex::new(None),
            shared: AtomicBool::new(false),
            crew: Mutex::new(Crew::default()),
            crew_moved: Condvar::new(),
        }
    }

    /// Whether searches on several threads may share this table: one-word entries must
    /// be read and written whole, which x86-64 guarantees for aligned 16-byte
    /// accesses on CPUs with AVX.
    pub(crate) fn shareable() -> bool {
        #[cfg(target_arch = "x86_64")]
        {
            std::arch::is_x86_feature_detected!("avx")
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            false
        }
    }

    #[inline(always)]
    fn ones(&self) -> &[Line] {
        // SAFETY: the vector is replaced only while no other search is in the table
        // (`pause_for_growth`), and never while this reference lives: it is not held
        // across a node boundary.
        unsafe { &*self.ones.get() }
    }

    #[inline(always)]
    fn twos(&self) -> &[Pair] {
        // SAFETY: as `ones`; and two-word entries are used by one search alone.
        unsafe { &*self.twos.get() }
    }

    /// The two-word buckets, to change.
    ///
    /// # Safety
    /// No other reference to them may live (one search alone uses them).
    #[allow(clippy::mut_from_ref)]
    unsafe fn twos_mut(&self) -> &mut Vec<Pair> {
        // SAFETY: the caller's.
        unsafe { &mut *self.twos.get() }
    }

    /// Entries overwritten for want of room.
    pub(crate) fn replaced(&self) -> u64 {
        self.replaced.load(Relaxed)
    }

    fn long(&self) -> std::sync::MutexGuard<'_, FxHashMap<Box<[Coord]>, Bounds>> {
        // A search that panicked while holding it left a map of true entries.
        self.long.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn crew(&self) -> std::sync::MutexGuard<'_, Crew> {
        self.crew.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Entries held (an exact value past the packed range, rare, counts twice: in its
    /// line and in the map).
    pub(crate) fn len(&self) -> usize {
        self.ones_used.load(Relaxed) + self.twos_used.load(Relaxed) + self.long().len()
    }

    fn short_bytes(&self) -> usize {
        std::mem::size_of_val(self.ones()) + std::mem::size_of_val(self.twos())
    }

    /// Bytes held, about.
    pub(crate) fn bytes(&self) -> u64 {
        (self.short_bytes() + self.long().len() * LONG_ENTRY_BYTES) as u64
    }

    /// Announces a lookup of `pos` soon: its bucket is fetched into the cache while
    /// the options are still being listed.
    #[inline]
    pub(crate) fn prefetch(&self, pos: &[Coord]) {
        match *pos {
            [a] if !self.ones().is_empty() => {
                let ones = self.ones();
                prefetch_slot(&ones[bucket_of(hash_one(a), ones.len())]);
            }
            [a, b] if !self.twos().is_empty() && !self.shared.load(Relaxed) => {
                let twos = self.twos();
                let p = &twos[bucket_of(hash_two([a, b]), twos.len())];
                prefetch_slot(&p.0[0]);
                prefetch_slot(&p.0[2]);
            }
            _ => {}
        }
    }

    /// What is known of `pos`.
    #[inline]
    pub(crate) fn get(&self, pos: &[Coord]) -> Bounds {
        match *pos {
            [a] => {
                let ones = self.ones();
                if ones.is_empty() {
                    return Bounds::UNKNOWN;
                }
                let home = bucket_of(hash_one(a), ones.len());
                match ones[home].find(a) {
                    Found::At(_, d) => self.unpack_at(a, d),
                    Found::Free(_) => Bounds::UNKNOWN,
                    Found::Full => match ones[home ^ 1].find(a) {
                        Found::At(_, d) => self.unpack_at(a, d),
                        _ => Bounds::UNKNOWN,
                    },
                }
            }
            [a, b] => {
                let twos = self.twos();
                if twos.is_empty() || self.shared.load(Relaxed) {
                    return Bounds::UNKNOWN;
                }
                let p = &twos[bucket_of(hash_two([a, b]), twos.len())];
                p.0.iter()
                    .find(|s| s.len == 2 && s.words == [a, b])
                    .map_or(Bounds::UNKNOWN, Slot::bounds)
            }
            _ => self.long_get(pos),
        }
    }

    fn long_get(&self, pos: &[Coord]) -> Bounds {
        self.long().get(pos).copied().unwrap_or(Bounds::UNKNOWN)
    }

    fn long_learn(&self, pos: &[Coord], known: Bounds) {
        let mut long = self.long();
        if long.len() >= self.most_long && !long.contains_key(pos) {
            // A full map starts over: forgetting is always sound.
            self.replaced.fetch_add(long.len() as u64, Relaxed);
            long.clear();
        }
        long.entry(pos.into())
            .or_insert(Bounds::UNKNOWN)
            .merge(known);
    }

    /// Whether the short slots may double from `now` bytes (the old array is freed
    /// once moved).
    fn may_grow(&self, now: usize) -> bool {
        self.short_bytes() + now <= self.budget
    }

    /// Whether `ones` should grow before `extra` more entries go in.
    fn ones_want_room(&self, extra: usize) -> bool {
        let ones = self.ones();
        ones.is_empty()
            || ((self.ones_used.load(Relaxed) + extra) * 4 > ones.len() * BUCKET * 3
                && self.may_grow(std::mem::size_of_val(ones)))
    }

    /// Grows `ones` now when this search is alone on the table; else asks for it at
    /// the searches' next node boundary. Returns whether it grew.
    fn grow_ones_or_ask(&self) -> bool {
        if self.shared.load(Relaxed)
            && (self.grow_wanted.load(Relaxed) || self.preparing.load(Relaxed))
        {
            return false; // asked already, or the next lines are being made ready
        }
        let crew = self.crew();
        if !self.shared.load(Relaxed) {
            // SAFETY: no other search runs on the table (the crew counts them, and it
            // cannot change while this holds its mutex), and the caller holds no
            // reference into `ones`.
            unsafe { self.grow_ones() };
            self.grow_wanted.store(false, Relaxed);
            true
        } else {
            drop(crew);
            if !self.preparing.swap(true, Relaxed) {
                // The doubled lines are allocated and their pages cleared here, while
                // the other searches go on: only moving the entries over stops them
                // all (clearing the pages took about half of the pauses on Cram 5×8).
                let next = huge_vec::<Line>((self.ones().len() * 2).max(2));
                *self.next_ones.lock().unwrap_or_else(|e| e.into_inner()) = Some(next);
                self.grow_wanted.store(true, Relaxed);
            }
            false
        }
    }

    /// Adds what `known` says of `pos` (of rank `rank`) to what the table holds.
    pub(crate) fn learn(&self, pos: &[Coord], rank: u128, known: Bounds) {
        let rank = rank.min(255) as u8;
        match *pos {
            [a] => {
                if self.ones_want_room(1) && !self.grow_ones_or_ask() && self.ones().is_empty() {
                    return; // nowhere to put it until the table grows: forgotten
                }
                self.put_one(a, rank, known);
            }
            [a, b] => {
                if self.shared.load(Relaxed) {
                    return; // for one search alone: forgotten, which is sound
                }
                let now = std::mem::size_of_val(self.twos());
                if self.twos().is_empty()
                    || ((self.twos_used.load(Relaxed) + 1) * 4 > self.twos().len() * BUCKET * 3
                        && self.may_grow(now))
                {
                    // SAFETY: two-word entries are used by one search alone.
                    unsafe { self.grow_twos() };
                }
                self.put_two([a, b], rank, known);
            }
            _ => self.long_learn(pos, known),
        }
    }

    /// Puts a one-word entry in its line (its home, or when that is full, the other
    /// line of its pair): merged into its own slot, else in a free slot; when both
    /// lines are full and the table at least half full, the table grows if it may,
    /// else the entry goes over the pair's smallest component. An exact value that
    /// does not pack goes to the long map, the slot marked.
    fn put_one(&self, a: Coord, rank: u8, known: Bounds) {
        let (b, i) = loop {
            let ones = self.ones();
            let home = bucket_of(hash_one(a), ones.len());
            let place = match ones[home].find(a) {
                Found::At(i, d) => Some((home, i, Some(d))),
                Found::Free(i) => Some((home, i, None)),
                Found::Full => match ones[home ^ 1].find(a) {
                    Found::At(i, d) => Some((home ^ 1, i, Some(d))),
                    Found::Free(i) => Some((home ^ 1, i, None)),
                    Found::Full => None,
                },
            };
            match place {
                Some((b, i, Some(d))) => {
                    if d & PACKED_OVERFLOW != 0 {
                        // Exact already.
                        return;
                    }
                    let mut now = unpack(d);
                    now.merge(known);
                    self.write_one(b, i, a, rank, now);
                    return;
                }
                Some((b, i, None)) => {
                    self.count_new_one();
                    break (b, i);
                }
                // A full pair when the table is half full: it grows if it may (a
                // full pair in an emptier table is bad luck, not want of room).
                None if self.ones_used.load(Relaxed) * 2 >= ones.len() * BUCKET
                    && self.may_grow(std::mem::size_of_val(ones))
                    && self.grow_ones_or_ask() => {}
                None => {
                    self.replaced.fetch_add(1, Relaxed);
                    break [home, home ^ 1]
                        .into_iter()
                        .flat_map(|b| (0..BUCKET).map(move |i| (b, i)))
                        .min_by_key(|&(b, i)| packed_rank(ones[b].slots[i].load().1))
                        .expect("a line has slots");
                }
            }
        };
        self.write_one(b, i, a, rank, known);
    }

    /// Counts a newly filled one-word slot. While shared, each thread counts its own
    /// and adds them up now and then: one counter written by every insert of every
    /// thread would move between their caches at each insert.
    #[inline]
    fn count_new_one(&self) {
        if !self.shared.load(Relaxed) {
            self.ones_used.fetch_add(1, Relaxed);
            return;
        }
        // A small table counts every slot: its growth must not wait for a batch.
        let every = (self.ones().len() * BUCKET / 64).clamp(1, COUNT_EVERY);
        UNCOUNTED.with(|c| {
            let (table, n) = c.get();
            let me = self as *const Table as usize;
            if table == me && n + 1 < every {
                c.set((me, n + 1));
            } else {
                // A count left for another table (one this thread shared before) is
                // dropped: it only says when to grow.
                let n = if table == me { n + 1 } else { 1 };
                self.ones_used.fetch_add(n, Relaxed);
                c.set((me, 0));
            }
        });
    }

    /// Adds this thread's uncounted slots to the count (it leaves the table).
    fn count_mine(&self) {
        UNCOUNTED.with(|c| {
            let (table, n) = c.get();
            if table == self as *const Table as usize {
                self.ones_used.fetch_add(n, Relaxed);
                c.set((table, 0));
            }
        });
    }

    fn write_one(&self, b: usize, i: usize, a: Coord, rank: u8, now: Bounds) {
        let mut d = pack(now, rank);
        if now.exact().is_some_and(|g| g as u64 >= PACKED_NONE) {
            d |= PACKED_OVERFLOW;
            self.long_learn(&[a], now);
        }
        self.ones()[b].slots[i].store(a, d);
    }

    /// The bounds in a one-word slot's packed word.
    #[inline]
    fn unpack_at(&self, a: Coord, d: u64) -> Bounds {
        if d & PACKED_OVERFLOW != 0 {
            self.long_get(&[a])
        } else {
            unpack(d)
        }
    }

    /// Puts a two-word entry in its bucket: merged into its own slot, else in a free
    /// slot, else over the bucket's smallest component.
    fn put_two(&self, words: [Coord; 2], rank: u8, known: Bounds) {
        // SAFETY: two-word entries are used by one search alone, and no other
        // reference to them lives during this call.
        let twos = unsafe { self.twos_mut() };
        let b = bucket_of(hash_two(words), twos.len());
        let bucket = &mut twos[b].0;
        if let Some(s) = bucket.iter_mut().find(|s| s.len == 2 && s.words == words) {
            let mut now = s.bounds();
            now.merge(known);
            s.set(now);
            return;
        }
        let victim = match bucket.iter().position(|s| s.len == 0) {
            Some(free) => {
                self.twos_used.fetch_add(1, Relaxed);
                free
            }
            None => {
                self.replaced.fetch_add(1, Relaxed);
                (0..BUCKET)
                    .min_by_key(|&i| bucket[i].rank)
                    .expect("a bucket has slots")
            }
        };
        let s = &mut bucket[victim];
        *s = Slot {
            words,
            len: 2,
            rank,
            ..Slot::default()
        };
        s.set(known);
    }

    /// Room for `entries` entries of `width` words read back from a checkpoint
    /// (within the budget): four slots each, so that the table is at least as big as
    /// the one that wrote them (it grew at three quarters full) and the entries, which
    /// come bucket by bucket, never crowd a bucket.
    pub(crate) fn reserve(&mut self, entries: u64, width: usize) {
        let slots = entries.saturating_mul(4);
        match width {
            1 => {
                while ((self.ones().len() * BUCKET) as u64) < slots
                    && (self.ones().is_empty() || self.may_grow(std::mem::size_of_val(self.ones())))
                {
                    // SAFETY: `&mut self`: nobody else is in the table.
                    unsafe { self.grow_ones() };
                }
            }
            2 => {
                while ((self.twos().len() * BUCKET) as u64) < slots
                    && (self.twos().is_empty() || self.may_grow(std::mem::size_of_val(self.twos())))
                {
                    // SAFETY: `&mut self`.
                    unsafe { self.grow_twos() };
                }
            }
            _ => {}
        }
    }

    /// Waits at a node boundary while `ones` grows, when some search sharing the
    /// table asked for it: the last search to arrive (or to leave,
    /// [`Table::leave`]) grows it, while the others wait. A search calls it with no
    /// reference into the table.
    #[inline]
    pub(crate) fn pause_for_growth(&self) {
        if !self.grow_wanted.load(Relaxed) {
            return;
        }
        let mut crew = self.crew();
        if !self.grow_wanted.load(Relaxed) {
            return;
        }
        crew.parked += 1;
        if crew.parked >= crew.running {
            // SAFETY: every other running search is parked below, holding no reference
            // into the table; the crew's mutex orders their accesses before and after.
            unsafe { self.grow_parked(&mut crew) };
        } else {
            let seen = crew.growths;
            while crew.growths == seen {
                crew = self
                    .crew_moved
                    .wait(crew)
                    .unwrap_or_else(|e| e.into_inner());
            }
        }
    }

    /// Grows `ones` for the parked searches and wakes them.
    ///
    /// # Safety
    /// Every running search but the caller is parked, holding no reference into it.
    unsafe fn grow_parked(&self, crew: &mut Crew) {
        if self.ones().is_empty() || self.may_grow(std::mem::size_of_val(self.ones())) {
            // SAFETY: the caller's.
            unsafe { self.grow_ones() };
        }
        self.grow_wanted.store(false, Relaxed);
        crew.parked = 0;
        crew.growths += 1;
        self.crew_moved.notify_all();
    }

    fn busy_slot(&self, pos: &[Coord]) -> Option<(&AtomicU64, Coord)> {
        let [a] = *pos else { return None };
        let busy = self
            .busy
            .get_or_init(|| (0..BUSY_SLOTS).map(|_| AtomicU64::new(0)).collect());
        Some((&busy[bucket_of(hash_one(a), BUSY_SLOTS)], a))
    }

    /// Marks one-word component `pos` as being searched; false when it cannot (another
    /// mark holds its slot, or the key is wider).
    pub(crate) fn mark_busy(&self, pos: &[Coord]) -> bool {
        self.busy_slot(pos)
            .is_some_and(|(slot, a)| slot.compare_exchange(0, a, Relaxed, Relaxed).is_ok())
    }

    /// Takes the mark of [`Table::mark_busy`] away.
    pub(crate) fn unmark_busy(&self, pos: &[Coord]) {
        if let Some((slot, a)) = self.busy_slot(pos) {
            let _ = slot.compare_exchange(a, 0, Relaxed, Relaxed);
        }
    }

    /// Whether some search marked `pos` as being searched.
    pub(crate) fn busy(&self, pos: &[Coord]) -> bool {
        self.busy_slot(pos)
            .is_some_and(|(slot, a)| slot.load(Relaxed) == a)
    }

    /// Registers `searches` more searches running on the table (the parallel search,
    /// before it starts them).
    pub(crate) fn join(&self, searches: usize) {
        let mut crew = self.crew();
        crew.running += searches;
        self.shared.store(crew.running > 1, Relaxed);
    }

    /// A search stops running on the table; if the others are all parked for a
    /// growth, it does the growth for them.
    pub(crate) fn leave(&self) {
        self.count_mine();
        let mut crew = self.crew();
        crew.running -= 1;
        self.shared.store(crew.running > 1, Relaxed);
        if crew.parked > 0 && crew.parked >= crew.running {
            // SAFETY: every running search is parked.
            unsafe { self.grow_parked(&mut crew) };
        }
    }

    /// Twice the lines, every entry moved over (none is lost: the entries of a pair
    /// of lines go to the two pairs it becomes).
    ///
    /// # Safety
    /// No other search is in the table, and no reference into `ones` lives.
    unsafe fn grow_ones(&self) {
        // SAFETY: the caller's.
        let ones = unsafe { &mut *self.ones.get() };
        let size = (ones.len() * 2).max(2);
        let ready = self
            .next_ones
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()
            .filter(|next| next.len() == size);
        self.preparing.store(false, Relaxed);
        let old = std::mem::replace(ones, ready.unwrap_or_else(|| huge_vec(size)));
        let mut used = 0;
        for line in &old {
            for slot in &line.slots {
                let (a, d) = slot.load();
                if d == 0 {
                    continue;
                }
                let home = bucket_of(hash_one(a), ones.len());
                let (b, j) = match ones[home].find(a) {
                    Found::Free(j) => (home, j),
                    _ => match ones[home ^ 1].find(a) {
                        Found::Free(j) => (home ^ 1, j),
                        _ => {
                            self.replaced.fetch_add(1, Relaxed);
                            continue;
                        }
                    },
                };
                used += 1;
                ones[b].slots[j].store(a, d);
            }
        }
        self.ones_used.store(used, Relaxed);
    }

    /// Twice the two-word buckets, every entry moved over.
    ///
    /// # Safety
    /// As [`Table::twos_mut`].
    unsafe fn grow_twos(&self) {
        // SAFETY: the caller's.
        let twos = unsafe { self.twos_mut() };
        let size = (twos.len() * 2).max(2);
        let old = std::mem::replace(twos, huge_vec(size));
        self.twos_used.store(0, Relaxed);
        for s in old.iter().flat_map(|p| p.0).filter(|s| s.len != 0) {
            self.put_two(s.words, s.rank, s.bounds());
        }
    }

    /// Every entry, for a checkpoint: (words, rank, bounds).
    pub(crate) fn entries(&self) -> impl Iterator<Item = (Vec<Coord>, u8, Bounds)> + '_ {
        let ones = self.ones().iter().flat_map(move |line| {
            line.slots.iter().filter_map(move |slot| {
                let (a, d) = slot.load();
                if d == 0 {
                    return None;
                }
                let words = vec![a];
                let b = if d & PACKED_OVERFLOW != 0 {
                    self.long_get(&words)
                } else {
                    unpack(d)
                };
                Some((words, packed_rank(d), b))
            })
        });
        let twos = self
            .twos()
            .iter()
            .flat_map(|p| p.0)
            .filter(|s| s.len != 0)
            .map(|s| (s.words.to_vec(), s.rank, s.bounds()));
        let long: Vec<_> = self
            .long()
            .iter()
            .filter(|(k, _)| k.len() > 2)
            .map(|(k, b)| (k.to_vec(), 255u8, *b))
            .collect();
        ones.chain(twos).chain(long)
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
        let t = Table::new(1 << 12);
        for i in 1..100_000u64 {
            t.learn(&[i], (i % 50) as u128, Bounds::exactly((i % 7) as u32));
        }
        assert!(t.replaced() > 0);
        for i in 1..100_000u64 {
            let b = t.get(&[i]);
            assert!(b == Bounds::UNKNOWN || b.exact() == Some((i % 7) as u32));
        }
        t.learn(&[1, 2, 3], 9, Bounds::exactly(4));
        assert_eq!(t.get(&[1, 2, 3]).exact(), Some(4));
    }

    #[test]
    fn what_goes_in_comes_out_in_every_width() {
        let t = Table::new(1 << 24);
        let mut b = Bounds::UNKNOWN;
        b.rule_out(3);
        b.rule_out(39);
        b.at_most(200);
        for i in 0..2000u64 {
            t.learn(&[i * 7919], 30, Bounds::exactly((i % 300) as u32));
            t.learn(&[i, i ^ 5], 30, Bounds::exactly((i % 300) as u32));
            t.learn(&[i, 1, 2], 30, Bounds::exactly((i % 300) as u32));
            t.learn(&[!i], 30, b);
        }
        // A bucket may fill up before the table grows: an entry is then forgotten,
        // never wrong.
        let mut found = 0;
        for i in 0..2000u64 {
            let want = (i % 300) as u32;
            for words in [vec![i * 7919], vec![i, i ^ 5], vec![i, 1, 2]] {
                let got = t.get(&words);
                assert!(
                    got == Bounds::UNKNOWN || got.exact() == Some(want),
                    "{words:?}"
                );
                found += (got != Bounds::UNKNOWN) as usize;
            }
            let got = t.get(&[!i]);
            assert!(got == Bounds::UNKNOWN || got == b);
            found += (got != Bounds::UNKNOWN) as usize;
        }
        assert_eq!(found as u64 + t.replaced(), 4 * 2000);
        assert!(found > 4 * 2000 * 9 / 10);
        // A bound past the packed range is kept weaker, never wrong.
        let mut high = Bounds::UNKNOWN;
        high.rule_out(50);
        high.lower = 300;
        t.learn(&[1 << 40], 30, high);
        let got = t.get(&[1 << 40]);
        assert!(got.lower <= 300 && got.upper == u32::MAX && got.ruled_out >> 50 & 1 == 0);
        // The checkpoint's listing has every entry once.
        let mut listed: Vec<_> = t.entries().map(|(w, _, b)| (w, b)).collect();
        listed.sort_by(|a, b| a.0.cmp(&b.0));
        listed.dedup_by(|a, b| a.0 == b.0);
        assert_eq!(listed.len(), found + 1);
        assert!(listed.iter().all(|(w, b)| t.get(w) == *b));
    }
}
