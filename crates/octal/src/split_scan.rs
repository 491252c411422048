//! Looking for a few values among the splits x + (m − x) of a heap, 32 splits at a time.
//!
//! Once every split with a rare part is marked, the sparse take-and-break method (see
//! [`crate::takebreak`]) only needs to know which of a handful of missing values the
//! other splits have. A [`ByteSet`] holds such values (below 256) in a layout that two
//! byte shuffles query for 32 lanes at once; [`next_hit`] finds the next 32 splits that
//! hold one. The values of the parts are their low bytes: the caller checks each hit.
//! [`mark_walk`] marks one part's splits across a tile, its indices computed 8 at a
//! time. [`strike`] strikes every split's value out of a bitmap of all values below
//! 2^16 (the dense route's far pass), 64 splits a step on AVX-512, AVX2 or in plain
//! Rust that the compiler vectorises (any CPU) ([`StrikeKernel`]). The module holds the engine's only vector code; each vector
//! path has a scalar reference that tests compare it with on any CPU that has it,
//! whatever the `NIMLAB_SIMD` cap ([`simd_level`]).

/// A set of bytes, stored for [`next_hit`]: byte `(v & 15) + 16·(v >> 7)` has bit
/// `(v >> 4) & 7` set when v is in the set.
#[derive(Clone, Default)]
pub(crate) struct ByteSet {
    table: [u8; 32],
    len: u32,
}

impl ByteSet {
    #[inline]
    fn slot(v: u8) -> (usize, u8) {
        (
            (v & 15) as usize + 16 * (v >> 7) as usize,
            1 << ((v >> 4) & 7),
        )
    }
    pub(crate) fn insert(&mut self, v: u8) {
        let (i, bit) = Self::slot(v);
        if self.table[i] & bit == 0 {
            self.table[i] |= bit;
            self.len += 1;
        }
    }
    /// Removes v; whether it was there.
    pub(crate) fn remove(&mut self, v: u8) -> bool {
        let (i, bit) = Self::slot(v);
        let was = self.table[i] & bit != 0;
        if was {
            self.table[i] &= !bit;
            self.len -= 1;
        }
        was
    }
    #[inline]
    pub(crate) fn contains(&self, v: u8) -> bool {
        let (i, bit) = Self::slot(v);
        self.table[i] & bit != 0
    }
    pub(crate) fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// The widest instruction set the vector paths may use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum SimdLevel {
    /// The scalar reference only.
    Scalar,
    /// Plain Rust that compilers vectorise for the target (any CPU; see
    /// [`StrikeKernel::Portable`]).
    Portable,
    /// AVX2 at most.
    Avx2,
    /// AVX-512 (with byte permutes) where the CPU has it.
    Avx512,
}

/// The cap set by the environment variable `NIMLAB_SIMD` (`scalar`, `portable`, `avx2`, or
/// anything else / unset: the best the CPU has), read once: it lets every path be
/// tested and measured on a machine that has a wider one. The CPU's own features are
/// still checked at each use.
///
/// ```
/// use nimlab_octal::{simd_level, SimdLevel};
/// assert!(simd_level() >= SimdLevel::Scalar);
/// ```
pub fn simd_level() -> SimdLevel {
    static LEVEL: std::sync::OnceLock<SimdLevel> = std::sync::OnceLock::new();
    *LEVEL.get_or_init(|| match std::env::var("NIMLAB_SIMD").as_deref() {
        Ok("scalar") => SimdLevel::Scalar,
        Ok("portable") => SimdLevel::Portable,
        Ok("avx2") => SimdLevel::Avx2,
        _ => SimdLevel::Avx512,
    })
}

/// How the split scans ([`next_hit`], [`next_hit_planes`]) and [`mark_walk`] run on
/// this CPU (and under [`simd_level`]'s cap). (Off x86-64 the AVX2 kernel is never made:
/// it is named everywhere so that the code choosing a kernel is the same on every
/// target.)
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(crate) enum ScanKernel {
    /// One pair at a time (any CPU; the reference in tests).
    Scalar,
    /// 32 pairs a step in plain Rust (any CPU; see [`portable_scan`]).
    Portable,
    /// 32 pairs a step by AVX2 byte shuffles.
    Avx2,
}

/// The fastest [`ScanKernel`] here, under [`simd_level`]'s cap (AVX-512 adds nothing
/// to the scans).
pub(crate) fn scan_kernel() -> ScanKernel {
    #[cfg(target_arch = "x86_64")]
    if simd_level() >= SimdLevel::Avx2 && avx2_present() {
        return ScanKernel::Avx2;
    }
    if simd_level() >= SimdLevel::Portable {
        return ScanKernel::Portable;
    }
    ScanKernel::Scalar
}

/// Every [`ScanKernel`] this CPU can run, whatever the cap: tests compare each with the
/// scalar reference.
#[cfg(test)]
pub(crate) fn scan_kernels_here() -> Vec<ScanKernel> {
    // Off x86-64 there is nothing to add.
    #[cfg_attr(not(target_arch = "x86_64"), allow(unused_mut))]
    let mut kernels = vec![ScanKernel::Scalar, ScanKernel::Portable];
    #[cfg(target_arch = "x86_64")]
    if avx2_present() {
        kernels.push(ScanKernel::Avx2);
    }
    kernels
}

/// The first run of (at most) 32 pairs from index `from` on whose XOR is in `set`:
/// `Some((i, mask))` where bit j of `mask` says `low[i + j] ^ high[len − 1 − i − j]` is in
/// the set (len = `low.len()` = `high.len()`, i ≥ `from`, `i` a multiple of 32 past
/// `from`). `None` when no pair from `from` on is. By `kernel`.
#[inline]
pub(crate) fn next_hit(
    low: &[u8],
    high: &[u8],
    from: usize,
    set: &ByteSet,
    kernel: ScanKernel,
) -> Option<(usize, u32)> {
    debug_assert_eq!(low.len(), high.len());
    match kernel {
        ScanKernel::Scalar => next_hit_scalar(low, high, from, set),
        ScanKernel::Portable => portable_scan::next_hit(low, high, from, set),
        #[cfg(target_arch = "x86_64")]
        ScanKernel::Avx2 => {
            assert!(avx2_present(), "AVX2 here");
            // SAFETY: the CPU has AVX2, checked just above.
            unsafe { avx2::next_hit(low, high, from, set) }
        }
        #[cfg(not(target_arch = "x86_64"))]
        ScanKernel::Avx2 => unreachable!("an x86-64 kernel"),
    }
}

/// [`next_hit`] one pair at a time (any CPU; the reference in tests).
fn next_hit_scalar(low: &[u8], high: &[u8], from: usize, set: &ByteSet) -> Option<(usize, u32)> {
    let len = low.len().min(high.len());
    let mut i = from;
    while i < len {
        let mut mask = 0u32;
        for j in 0..32.min(len - i) {
            if set.contains(low[i + j] ^ high[len - 1 - i - j]) {
                mask |= 1 << j;
            }
        }
        if mask != 0 {
            return Some((i, mask));
        }
        i += 32;
    }
    None
}

/// The most groups [`next_hit_planes`] takes on the vector path (more go one by one).
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
const MAX_GROUPS: usize = 8;

/// Adds v to `groups`, the values [`next_hit_planes`] looks for grouped by
/// top (v >> low_bits), each group's low bytes in one [`ByteSet`].
pub(crate) fn insert_grouped(groups: &mut Vec<(u8, ByteSet)>, v: u32, low_bits: u32) {
    let (top, low) = ((v >> low_bits) as u8, (v & ((1 << low_bits) - 1)) as u8);
    match groups.iter_mut().find(|(t, _)| *t == top) {
        Some((_, set)) => set.insert(low),
        None => {
            let mut set = ByteSet::default();
            set.insert(low);
            groups.push((top, set));
        }
    }
}

/// Removes v, which is there, from `groups` (as [`insert_grouped`]); a group left
/// empty goes.
pub(crate) fn remove_grouped(groups: &mut Vec<(u8, ByteSet)>, v: u32, low_bits: u32) {
    let (top, low) = ((v >> low_bits) as u8, (v & ((1 << low_bits) - 1)) as u8);
    let g = groups
        .iter()
        .position(|(t, _)| *t == top)
        .expect("every value looked for is in its group");
    groups[g].1.remove(low);
    if groups[g].1.is_empty() {
        groups.swap_remove(g);
    }
}

/// As [`next_hit`] for values wider than a byte, split into a low byte and a top byte:
/// the pairs whose low bytes XOR to a member of `set` and whose top bytes XOR to `top`,
/// for some `(top, set)` of `groups` (the wanted values, grouped by their top byte).
/// `low_tops` and `high_tops` are the top bytes beside `low` and `high`. By `kernel`.
#[inline]
pub(crate) fn next_hit_planes(
    low: &[u8],
    high: &[u8],
    low_tops: &[u8],
    high_tops: &[u8],
    from: usize,
    groups: &[(u8, ByteSet)],
    kernel: ScanKernel,
) -> Option<(usize, u32)> {
    debug_assert!(low.len() == high.len() && low.len() == low_tops.len());
    debug_assert_eq!(high.len(), high_tops.len());
    match kernel {
        ScanKernel::Portable => {
            portable_scan::next_hit_planes(low, high, low_tops, high_tops, from, groups)
        }
        #[cfg(target_arch = "x86_64")]
        ScanKernel::Avx2 if groups.len() <= MAX_GROUPS => {
            assert!(avx2_present(), "AVX2 here");
            // SAFETY: the CPU has AVX2, checked just above.
            unsafe { avx2::next_hit_planes(low, high, low_tops, high_tops, from, groups) }
        }
        _ => next_hit_planes_scalar(low, high, low_tops, high_tops, from, groups),
    }
}

/// [`next_hit_planes`] one pair at a time (any CPU; the reference in tests).
fn next_hit_planes_scalar(
    low: &[u8],
    high: &[u8],
    low_tops: &[u8],
    high_tops: &[u8],
    from: usize,
    groups: &[(u8, ByteSet)],
) -> Option<(usize, u32)> {
    let len = low.len().min(high.len());
    let mut i = from;
    while i < len {
        let mut mask = 0u32;
        for j in 0..32.min(len - i) {
            let v = low[i + j] ^ high[len - 1 - i - j];
            let t = low_tops[i + j] ^ high_tops[len - 1 - i - j];
            if groups.iter().any(|(top, set)| *top == t && set.contains(v)) {
                mask |= 1 << j;
            }
        }
        if mask != 0 {
            return Some((i, mask));
        }
        i += 32;
    }
    None
}

/// Values below this fit [`strike`]'s bitmap.
pub(crate) const STRIKE_VALUES: u32 = 1 << 16;
/// Values per block of the bitmap as the planes cut it (2048 bits: four AVX-512
/// registers); `from` of a strike is a multiple of it.
pub(crate) const STRIKE_BLOCK: u32 = 2048;
/// Values of a block on AVX2 (see [`StrikeKernel::settle_block`]): four 16-byte
/// tables. Blocks of 256 values (two tables), one or two at a time, cost 5–15 % more
/// (`.007` to 2^17).
const AVX2_BLOCK: u32 = 512;
/// The most blocks a strike settles.
const SETTLE_BLOCKS_MAX: usize = (STRIKE_VALUES / AVX2_BLOCK) as usize;
/// The most blocks struck at once on AVX-512: each live block costs a table lookup per
/// step, and the blocks above the lowest few rarely matter (the heap's value is nearly
/// always in one of the lowest two that a whole pass leaves non-empty).
pub(crate) const STRIKE_LIVE: usize = 2;
/// The most blocks struck at once on AVX2: one. A second costs half a step more on
/// every step and saves only the cycle that a block first looked for late adds
/// (`.007` to 2^17: 1.31 passes over the splits with one, 1.05 with two; one is about
/// 10 % faster).
const AVX2_LIVE: usize = 1;

/// How [`strike`] looks its pairs up on this CPU (and under [`simd_level`]'s cap).
/// (Off x86-64 the AVX kernels are never made: they are named everywhere so that the
/// code choosing a kernel is the same on every target.)
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(crate) enum StrikeKernel {
    /// One pair at a time, every block at once (any CPU).
    Pairs,
    /// 64 pairs a step in plain Rust, one block of 2048 values at a time (any CPU;
    /// see [`portable`]).
    Portable,
    /// 32 pairs a step, at most [`STRIKE_LIVE`] blocks of 512 values, each in four
    /// registers of 16-byte tables (AVX2 byte shuffles).
    Avx2,
    /// 64 pairs a step, at most [`STRIKE_LIVE`] blocks of 2048 values, each in four
    /// registers (AVX-512 byte permutes).
    Avx512,
}

impl StrikeKernel {
    /// Values of a block the strike settles at a time: what the kernel's step looks up
    /// per live block (the pair-at-a-time form strikes every block at once; its size
    /// only sets where an answer's `next` may fall).
    pub(crate) fn settle_block(self) -> u32 {
        match self {
            StrikeKernel::Avx512 | StrikeKernel::Portable => STRIKE_BLOCK,
            StrikeKernel::Pairs | StrikeKernel::Avx2 => AVX2_BLOCK,
        }
    }
}

/// The fastest [`StrikeKernel`] here, under [`simd_level`]'s cap.
pub(crate) fn strike_kernel() -> StrikeKernel {
    #[cfg(target_arch = "x86_64")]
    {
        if simd_level() >= SimdLevel::Avx512 && avx512_present() {
            return StrikeKernel::Avx512;
        }
        if simd_level() >= SimdLevel::Avx2 && avx2_present() {
            return StrikeKernel::Avx2;
        }
    }
    if simd_level() >= SimdLevel::Portable {
        return StrikeKernel::Portable;
    }
    StrikeKernel::Pairs
}

/// Every [`StrikeKernel`] this CPU can run, whatever the cap: tests compare each with
/// the pairs one by one.
#[cfg(test)]
pub(crate) fn strike_kernels_here() -> Vec<StrikeKernel> {
    // Off x86-64 there is nothing to add.
    #[cfg_attr(not(target_arch = "x86_64"), allow(unused_mut))]
    let mut kernels = vec![StrikeKernel::Pairs, StrikeKernel::Portable];
    #[cfg(target_arch = "x86_64")]
    {
        if avx2_present() {
            kernels.push(StrikeKernel::Avx2);
        }
        if avx512_present() {
            kernels.push(StrikeKernel::Avx512);
        }
    }
    kernels
}

/// The CPU has AVX2.
#[cfg(target_arch = "x86_64")]
fn avx2_present() -> bool {
    std::arch::is_x86_feature_detected!("avx2")
}

/// The CPU has the AVX-512 parts [`strike`] uses (byte and word ops, byte permutes).
#[cfg(target_arch = "x86_64")]
fn avx512_present() -> bool {
    std::arch::is_x86_feature_detected!("avx512f")
        && std::arch::is_x86_feature_detected!("avx512bw")
        && std::arch::is_x86_feature_detected!("avx512vbmi")
}

/// Whether [`strike`] runs on vectors here (AVX-512 with byte permutes, AVX2, or the
/// portable kernel); without (`NIMLAB_SIMD=scalar`), it runs one pair at a time and the
/// windowed scan ([`next_hit_planes`]) is faster.
pub(crate) fn strike_vectors() -> bool {
    strike_kernel() != StrikeKernel::Pairs
}

/// A sequence's values as [`strike`] reads them: `(v >> 3) & 255` (the byte of a
/// block's 2048-bit bitmap) and `(v & 7) | (v >> 11) << 3` (the bit in it and the
/// block), forwards, and backwards so that the second parts of the splits x + (m − x),
/// x rising, lie in increasing order too (no shuffle to reverse them). Values of
/// [`STRIKE_VALUES`] and more are held cut (the strike is not used then).
#[derive(Default)]
pub(crate) struct StrikePlanes {
    bytes: Vec<u8>,
    bits: Vec<u8>,
    /// Value j at `cap − 1 − j`, cap = the length of these two.
    bytes_back: Vec<u8>,
    bits_back: Vec<u8>,
}

impl StrikePlanes {
    /// How many values are held.
    pub(crate) fn len(&self) -> usize {
        self.bytes.len()
    }

    /// Makes `self` hold `values` (a prefix of them may be held already).
    pub(crate) fn sync(&mut self, values: &[u32]) {
        let held = self.len().min(values.len());
        self.bytes.truncate(held);
        self.bits.truncate(held);
        for &v in &values[held..] {
            self.push(v);
        }
    }

    pub(crate) fn push(&mut self, v: u32) {
        let v = v.min(STRIKE_VALUES - 1);
        let j = self.bytes.len();
        let cap = self.bytes_back.len();
        if j == cap {
            // Twice the room, the values held moved to the end.
            let new_cap = (cap * 2).max(1 << 12);
            for back in [&mut self.bytes_back, &mut self.bits_back] {
                let mut grown = vec![0u8; new_cap];
                grown[new_cap - cap..].copy_from_slice(back);
                *back = grown;
            }
        }
        let cap = self.bytes_back.len();
        let (byte, bit) = ((v >> 3) as u8, ((v & 7) | (v >> 11) << 3) as u8);
        self.bytes.push(byte);
        self.bits.push(bit);
        self.bytes_back[cap - 1 - j] = byte;
        self.bits_back[cap - 1 - j] = bit;
    }
}

/// The pass state of [`strike`]: the bitmap of the values still wanted, 256 bytes a
/// block (bit v & 7 of byte v >> 3), kept between calls to save its allocation.
#[derive(Default)]
pub(crate) struct StrikeTable {
    bytes: Vec<u8>,
}

/// What [`strike`] found: the values below `next` that no split has (bit v of word
/// v / 64), every value from `from` to `next` settled.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Struck {
    pub(crate) left: Vec<u64>,
    pub(crate) next: u32,
}

/// Looks for the least values from `from` (a multiple of [`STRIKE_BLOCK`]) to `bound`
/// (at most [`STRIKE_VALUES`]) that are not G(x) ^ G(m − x) for any split of `splits`
/// (`(m, x0, x1)`: the splits x + (m − x), x0 ≤ x < x1, of the values in `planes`),
/// nor in `options`. Every value below `bound` is wanted at first and struck out when a
/// split has it; the blocks of 2048 values are settled from the lowest up (a block is
/// settled when empty, or when every split has been looked at since it was first
/// looked for), at most [`STRIKE_LIVE`] at a time, until one is settled non-empty. The
/// least value of the answer's `left` is then the least value no split has; `next` is
/// `bound` when every block is empty. The bitmap is exact: no hit to check. `kernel`:
/// how the pairs are looked up ([`strike_kernel`] for the fastest; the vector kernels
/// must be the CPU's).
pub(crate) fn strike(
    planes: &StrikePlanes,
    splits: &[(usize, usize, usize)],
    options: &[u32],
    from: u32,
    bound: u32,
    kernel: StrikeKernel,
    table: &mut StrikeTable,
) -> Struck {
    let buffer = std::mem::take(&mut table.bytes);
    let mut run = StrikeRun::new(
        planes,
        splits.to_vec(),
        options,
        from,
        bound,
        kernel,
        buffer,
    );
    run.run(planes, usize::MAX);
    let (struck, buffer) = run.finish();
    table.bytes = buffer;
    struck
}

/// A [`strike`] that can stop after a number of splits and go on later: the far passes
/// of several heaps take turns over the same stretch of the planes while it is in
/// cache (the planes of 2^22 values fill the L3 cache, and one heap at a time reads
/// them from there at half the speed of the steps).
pub(crate) struct StrikeRun {
    splits: Vec<(usize, usize, usize)>,
    /// Splits in a cycle.
    total: usize,
    /// How the pairs are looked up.
    kernel: StrikeKernel,
    /// Values a block (the kernel's [`StrikeKernel::settle_block`]).
    block: usize,
    /// The first block looked for, and how many there are.
    first: usize,
    blocks: usize,
    bound: u32,
    /// Per block: not looked for yet (None), or looked for since this many splits, or
    /// settled ([`SETTLED`]).
    since: [Option<usize>; SETTLE_BLOCKS_MAX],
    /// Splits looked at so far (cyclically), and where: split `x` of `splits[at]`.
    done: usize,
    at: usize,
    x: usize,
    /// The bitmap of the values still wanted (bit v & 7 of byte v >> 3).
    table: Vec<u8>,
    /// Where the settled blocks end, once one of them is non-empty (or all are settled).
    next: Option<u32>,
}

const SETTLED: usize = usize::MAX;

impl StrikeRun {
    /// A strike of `splits` (in this order, cyclically) and `options`, as [`strike`]'s;
    /// `table`: room for the bitmap, reused.
    pub(crate) fn new(
        planes: &StrikePlanes,
        splits: Vec<(usize, usize, usize)>,
        options: &[u32],
        from: u32,
        bound: u32,
        kernel: StrikeKernel,
        mut table: Vec<u8>,
    ) -> Self {
        assert!(bound <= STRIKE_VALUES && from.is_multiple_of(STRIKE_BLOCK));
        let block = kernel.settle_block() as usize;
        let (first, blocks) = (from as usize / block, (bound as usize).div_ceil(block));
        table.clear();
        // Whole blocks of the planes' cut, which the vector kernels read.
        table.resize((bound as usize).div_ceil(STRIKE_BLOCK as usize) * 256, 0);
        table[from as usize >> 3..bound as usize >> 3].fill(0xff);
        if !bound.is_multiple_of(8) {
            table[bound as usize >> 3] = (1 << (bound % 8)) - 1;
        }
        for &v in options {
            if v < bound {
                table[v as usize >> 3] &= !(1 << (v & 7));
            }
        }
        for &(m, x0, x1) in &splits {
            assert!(
                x0 >= x1 || (m - x0 < planes.len() && x1 <= m + 1),
                "splits of held values"
            );
        }
        let mut splits = splits;
        splits.retain(|s| s.1 < s.2);
        let total: usize = splits.iter().map(|s| s.2 - s.1).sum();
        let mut since = [None; SETTLE_BLOCKS_MAX];
        for s in since.iter_mut().take(first) {
            *s = Some(SETTLED);
        }
        let x = splits.first().map_or(0, |s| s.1);
        StrikeRun {
            splits,
            total,
            kernel,
            block,
            first,
            blocks,
            bound,
            since,
            done: 0,
            at: 0,
            x,
            table,
            next: None,
        }
    }

    /// Whether block `b` of the bitmap is empty (word by word, without a branch: this
    /// runs a few times a call).
    fn empty(&self, b: usize) -> bool {
        let bytes = self.block / 8;
        let words = self.table[b * bytes..(b + 1) * bytes].chunks_exact(8);
        words.fold(0, |any, w| {
            any | u64::from_le_bytes(w.try_into().expect("8 bytes"))
        }) == 0
    }

    /// Strikes splits until the answer is known (true) or `stop` splits have been
    /// looked at in all (false: call again with a larger `stop`).
    pub(crate) fn run(&mut self, planes: &StrikePlanes, stop: usize) -> bool {
        let block = self.block;
        let live_most = match self.kernel {
            StrikeKernel::Pairs => SETTLE_BLOCKS_MAX,
            StrikeKernel::Avx2 => AVX2_LIVE,
            StrikeKernel::Avx512 => STRIKE_LIVE,
            StrikeKernel::Portable => portable::LIVE,
        };
        loop {
            if self.next.is_some() {
                return true;
            }
            // Settled from the lowest up to a non-empty block (or all): the answer.
            let open = (0..self.blocks).find(|&b| self.since[b] != Some(SETTLED));
            let settled_to = open.unwrap_or(self.blocks);
            if open.is_none() || (self.first..settled_to).any(|b| !self.empty(b)) {
                self.next = Some(((settled_to * block) as u32).min(self.bound));
                return true;
            }
            // The lowest open blocks are looked for (from here if not yet); the empty
            // ones and those looked for over every split are settled.
            let mut live = [0usize; SETTLE_BLOCKS_MAX];
            let mut n_live = 0;
            let mut until = usize::MAX;
            for b in settled_to..self.blocks {
                if n_live == live_most {
                    break;
                }
                let since = match self.since[b] {
                    Some(SETTLED) => continue,
                    None if self.empty(b) => Some(SETTLED),
                    None => Some(self.done),
                    known => known,
                };
                self.since[b] = match since {
                    Some(s) if s != SETTLED && self.done < s + self.total && !self.empty(b) => {
                        live[n_live] = b;
                        n_live += 1;
                        until = until.min(s + self.total);
                        since
                    }
                    _ => Some(SETTLED),
                };
            }
            if n_live == 0 {
                continue;
            }
            if self.done >= stop {
                return false;
            }
            let (m, _, x1) = self.splits[self.at];
            let x = self.x;
            let end = x1.min(x + (until.min(stop) - self.done));
            let back = planes.bytes_back.len() - 1 - (m - x);
            let pairs = (
                &planes.bytes[x..end],
                &planes.bits[x..end],
                &planes.bytes_back[back..back + end - x],
                &planes.bits_back[back..back + end - x],
            );
            let step = strike_step(pairs, &mut self.table, &live[..n_live], self.kernel);
            self.done += step;
            self.x += step;
            if self.x == x1 {
                self.at = (self.at + 1) % self.splits.len();
                self.x = self.splits[self.at].1;
            }
        }
    }

    /// The answer (the strike must have run to it) and the bitmap's room, for reuse.
    pub(crate) fn finish(self) -> (Struck, Vec<u8>) {
        let next = self.next.expect("the strike ran to its answer");
        let mut left = vec![0u64; (next as usize).div_ceil(64)];
        for (w, word) in left.iter_mut().enumerate() {
            let bytes = self.table.get(w * 8..w * 8 + 8).expect("within the table");
            *word = u64::from_le_bytes(bytes.try_into().expect("8 bytes"));
        }
        if !next.is_multiple_of(64) {
            let last = left.len() - 1;
            left[last] &= (1 << (next % 64)) - 1;
        }
        (Struck { left, next }, self.table)
    }
}

/// Strikes `pairs` out of the `live` blocks of `table` by `kernel`, or out of every
/// block one pair at a time; returns how many pairs it looked at (all, or fewer when a
/// live block is empty).
fn strike_step(
    pairs: (&[u8], &[u8], &[u8], &[u8]),
    table: &mut [u8],
    live: &[usize],
    kernel: StrikeKernel,
) -> usize {
    let len = pairs.0.len();
    let step = match kernel {
        StrikeKernel::Pairs => 0,
        StrikeKernel::Portable => portable::strike_live(pairs, table, live),
        #[cfg(target_arch = "x86_64")]
        StrikeKernel::Avx512 => {
            assert!(avx512_present(), "AVX-512 here");
            // SAFETY: the CPU has AVX-512 BW and VBMI, checked by `strike_kernel`.
            unsafe { avx512::strike_live(pairs, table, live) }
        }
        #[cfg(target_arch = "x86_64")]
        StrikeKernel::Avx2 => {
            assert!(avx2_present(), "AVX2 here");
            // SAFETY: the CPU has AVX2, checked just above.
            unsafe { avx2::strike_live(pairs, table, live) }
        }
        #[cfg(not(target_arch = "x86_64"))]
        StrikeKernel::Avx2 | StrikeKernel::Avx512 => unreachable!("x86-64 kernels"),
    };
    // Stopped early (a live block emptied): the caller settles it and goes on.
    if step < len && len - step >= 64 && kernel != StrikeKernel::Pairs {
        return step;
    }
    strike_scalar(pairs, step, table);
    len
}

/// [`strike`]'s pairs one at a time from pair `from` on, every block at once (any CPU;
/// the tail of the vector form). Pair j: the planes' entries j.
#[inline]
fn strike_scalar(pairs: (&[u8], &[u8], &[u8], &[u8]), from: usize, table: &mut [u8]) {
    let (bytes, bits, bytes_back, bits_back) = pairs;
    for j in from..bytes.len() {
        let bit = bits[j] ^ bits_back[j];
        let at = usize::from(bit >> 3) << 8 | usize::from(bytes[j] ^ bytes_back[j]);
        table[at] &= !(1 << (bit & 7));
    }
}

/// Strikes from `table` the value of every lane `hits` flags (step s's lane j: the
/// byte `at_bytes[s][j]` in the block and bit of `at_bits[s][j]`); returns whether
/// any lane was flagged.
#[inline]
fn strike_hits(hits: &[u64], at_bytes: &[[u8; 64]], at_bits: &[[u8; 64]], table: &mut [u8]) -> u64 {
    let mut any = 0;
    for ((&hit, at_bytes), at_bits) in hits.iter().zip(at_bytes).zip(at_bits) {
        let mut hit = hit;
        any |= hit;
        while hit != 0 {
            let j = hit.trailing_zeros() as usize & 63;
            hit &= hit - 1;
            let bit = at_bits[j];
            table[usize::from(bit >> 3) << 8 | usize::from(at_bytes[j])] &= !(1 << (bit & 7));
        }
    }
    any
}

/// `bytes[i · stride + min(value ^ others[i], width)] = 1` for every i: one part walked
/// across a tile. Values ≥ width go to a spare column of the row's padding. By `kernel`.
#[inline]
pub(crate) fn mark_walk(
    bytes: &mut [u8],
    stride: usize,
    width: usize,
    value: u32,
    others: &[u32],
    kernel: ScanKernel,
) {
    match kernel {
        ScanKernel::Scalar => mark_walk_plain(bytes, stride, width, value, others),
        ScanKernel::Portable => portable_scan::mark_walk(bytes, stride, width, value, others),
        #[cfg(target_arch = "x86_64")]
        ScanKernel::Avx2 => {
            assert!(avx2_present(), "AVX2 here");
            // SAFETY: the CPU has AVX2, checked just above.
            unsafe { avx2::mark_walk(bytes, stride, width, value, others) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        ScanKernel::Avx2 => unreachable!("an x86-64 kernel"),
    }
}

/// [`mark_walk`] one part at a time (any CPU; the reference in tests).
fn mark_walk_plain(bytes: &mut [u8], stride: usize, width: usize, value: u32, others: &[u32]) {
    for (i, &b) in others.iter().enumerate() {
        bytes[i * stride + ((value ^ b) as usize).min(width)] = 1;
    }
}

/// Steps between two updates of the bitmap's registers (every vector strike).
const BATCH: usize = 8;

/// The length of the four planes of `pairs` (bytes, bits and their backward copies),
/// which must be equal: the vector strikes read each at the same offsets.
#[inline(always)]
fn planes_len(pairs: (&[u8], &[u8], &[u8], &[u8])) -> usize {
    let (bytes, bits, bytes_back, bits_back) = pairs;
    let len = bytes.len();
    assert!(
        bits.len() == len && bytes_back.len() == len && bits_back.len() == len,
        "four planes of the same length"
    );
    len
}

/// The batch loop every vector strike (portable, AVX2, AVX-512) runs, written once: a macro, so
/// that each kernel's step keeps its `target_feature` code inline, exactly as written
/// there. Over the whole steps of 64 of `len` pairs, [`BATCH`] at a time: `step`
/// (given the registers of the live blocks `t`, the step's first pair `at`, and the
/// step's arrays of table bytes and bits to fill) returns the step's hits; the hits
/// are struck from `table`, and when any was, the registers are read again by
/// `load`, and the strike stops early (returning from the kernel with the pairs
/// looked at) when a live block is `empty`. Evaluates to the pairs looked at.
macro_rules! strike_in_batches {
    (
        $len:expr,
        $table:ident,
        $load:ident,
        |$block:ident| $empty:block,
        |$t:ident, $at:ident, $step_bytes:ident, $step_bits:ident| $step:block
    ) => {{
        let mut $t = $load($table);
        let whole = $len - $len % 64;
        let mut hits = [0u64; BATCH];
        // Each step's bytes of the table and bits (with the block), for the hits.
        let mut at_bytes = [[0u8; 64]; BATCH];
        let mut at_bits = [[0u8; 64]; BATCH];
        let mut i = 0;
        while i < whole {
            let steps = ((whole - i) / 64).min(BATCH);
            for (s, hit) in hits[..steps].iter_mut().enumerate() {
                let $at = i + 64 * s;
                let ($step_bytes, $step_bits) = (&mut at_bytes[s], &mut at_bits[s]);
                *hit = $step;
            }
            let any = super::strike_hits(&hits[..steps], &at_bytes, &at_bits, $table);
            i += 64 * steps;
            if any != 0 {
                $t = $load($table);
                for $block in &$t {
                    if $empty {
                        return i;
                    }
                }
            }
        }
        i
    }};
}
mod portable;
mod portable_scan;

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::{ByteSet, BATCH};
    use std::arch::x86_64::*;

    /// Both halves of a [`ByteSet`]'s table (bytes 0–15: values below 128; 16–31: the
    /// rest), each held in both halves of a register for the byte shuffles.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn table_halves(set: &ByteSet) -> (__m256i, __m256i) {
        // SAFETY: both halves of the table are 16 readable bytes.
        unsafe {
            (
                _mm256_broadcastsi128_si256(_mm_loadu_si128(set.table.as_ptr() as *const __m128i)),
                _mm256_broadcastsi128_si256(_mm_loadu_si128(
                    set.table.as_ptr().add(16) as *const __m128i
                )),
            )
        }
    }

    /// The constants with which [`next_hit`] and [`next_hit_planes`] read 32 split values
    /// at once: the bit of each row byte (by a value's bits 4–6), the reversal of each
    /// 16-byte half, and the masks of a value's column (its low nibble) and bit.
    #[derive(Clone, Copy)]
    struct Lookup {
        bits: __m256i,
        reverse: __m256i,
        nibble: __m256i,
        three: __m256i,
    }

    impl Lookup {
        #[target_feature(enable = "avx2")]
        #[inline]
        fn new() -> Lookup {
            Lookup {
                bits: _mm256_setr_epi8(
                    1, 2, 4, 8, 16, 32, 64, -128, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 4, 8, 16, 32, 64,
                    -128, 0, 0, 0, 0, 0, 0, 0, 0,
                ),
                // Reverses the 16 bytes of each half; the halves are swapped after.
                reverse: _mm256_setr_epi8(
                    15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10,
                    9, 8, 7, 6, 5, 4, 3, 2, 1, 0,
                ),
                nibble: _mm256_set1_epi8(15),
                three: _mm256_set1_epi8(7),
            }
        }

        /// The 32 bytes of `b` in reverse order (the high parts are read backward).
        #[target_feature(enable = "avx2")]
        #[inline]
        fn backward(self, b: __m256i) -> __m256i {
            _mm256_permute4x64_epi64(_mm256_shuffle_epi8(b, self.reverse), 0x4E)
        }

        /// Each value's column in the table (its low nibble) and its bit in the row byte.
        #[target_feature(enable = "avx2")]
        #[inline]
        fn column_and_bit(self, v: __m256i) -> (__m256i, __m256i) {
            let column = _mm256_and_si256(v, self.nibble);
            let bit = _mm256_shuffle_epi8(
                self.bits,
                _mm256_and_si256(_mm256_srli_epi16(v, 4), self.three),
            );
            (column, bit)
        }
    }

    /// The row byte of each value `v` at `column` of a table's halves `rows`: from the
    /// high half when v ≥ 128 (top bit set).
    #[target_feature(enable = "avx2")]
    #[inline]
    fn row_byte(rows: (__m256i, __m256i), column: __m256i, v: __m256i) -> __m256i {
        _mm256_blendv_epi8(
            _mm256_shuffle_epi8(rows.0, column),
            _mm256_shuffle_epi8(rows.1, column),
            v,
        )
    }

    #[target_feature(enable = "avx2")]
    pub(super) fn next_hit(
        low: &[u8],
        high: &[u8],
        from: usize,
        set: &ByteSet,
    ) -> Option<(usize, u32)> {
        let len = low.len().min(high.len());
        let rows = table_halves(set);
        let lookup = Lookup::new();
        let mut i = from;
        while i + 32 <= len {
            // SAFETY: low[i..i + 32] and high[len − i − 32..len − i] are in bounds.
            let (a, b) = unsafe {
                (
                    _mm256_loadu_si256(low.as_ptr().add(i) as *const __m256i),
                    _mm256_loadu_si256(high.as_ptr().add(len - i - 32) as *const __m256i),
                )
            };
            let v = _mm256_xor_si256(a, lookup.backward(b));
            let (column, bit) = lookup.column_and_bit(v);
            let absent = _mm256_cmpeq_epi8(
                _mm256_and_si256(row_byte(rows, column, v), bit),
                _mm256_setzero_si256(),
            );
            let mask = !(_mm256_movemask_epi8(absent) as u32);
            if mask != 0 {
                return Some((i, mask));
            }
            i += 32;
        }
        super::next_hit_scalar(low, high, i, set)
    }

    /// [`super::next_hit_planes`] on 32 pairs a step (AVX2).
    #[target_feature(enable = "avx2")]
    pub(super) fn next_hit_planes(
        low: &[u8],
        high: &[u8],
        low_tops: &[u8],
        high_tops: &[u8],
        from: usize,
        groups: &[(u8, ByteSet)],
    ) -> Option<(usize, u32)> {
        let len = low.len().min(high.len());
        let zero = _mm256_setzero_si256();
        // Per group: its top byte, and the two halves of its table.
        let mut tables = [(zero, (zero, zero)); super::MAX_GROUPS];
        for (t, (top, set)) in tables.iter_mut().zip(groups) {
            *t = (_mm256_set1_epi8(*top as i8), table_halves(set));
        }
        let tables = &tables[..groups.len()];
        let lookup = Lookup::new();
        let mut i = from;
        while i + 32 <= len {
            // SAFETY: the four slices hold 32 bytes at i and at len − i − 32.
            let (a, b, at, bt) = unsafe {
                (
                    _mm256_loadu_si256(low.as_ptr().add(i) as *const __m256i),
                    _mm256_loadu_si256(high.as_ptr().add(len - i - 32) as *const __m256i),
                    _mm256_loadu_si256(low_tops.as_ptr().add(i) as *const __m256i),
                    _mm256_loadu_si256(high_tops.as_ptr().add(len - i - 32) as *const __m256i),
                )
            };
            let v = _mm256_xor_si256(a, lookup.backward(b));
            let t = _mm256_xor_si256(at, lookup.backward(bt));
            let (column, bit) = lookup.column_and_bit(v);
            let mut found = zero;
            for &(top, rows) in tables {
                let in_set = _mm256_and_si256(row_byte(rows, column, v), bit);
                let same_top = _mm256_cmpeq_epi8(t, top);
                found = _mm256_or_si256(found, _mm256_and_si256(in_set, same_top));
            }
            let absent = _mm256_cmpeq_epi8(found, zero);
            let mask = !(_mm256_movemask_epi8(absent) as u32);
            if mask != 0 {
                return Some((i, mask));
            }
            i += 32;
        }
        super::next_hit_planes_scalar(low, high, low_tops, high_tops, i, groups)
    }

    /// [`mark_walk`] with the indices computed 8 at a time (AVX2).
    #[target_feature(enable = "avx2")]
    pub(super) fn mark_walk(
        bytes: &mut [u8],
        stride: usize,
        width: usize,
        value: u32,
        others: &[u32],
    ) {
        // Every index min(·, width) + i·stride is then below bytes.len().
        assert!(width < stride && others.len() * stride <= bytes.len() && bytes.len() < 1 << 31);
        let chunks = others.chunks_exact(8);
        let rest = chunks.remainder();
        let part = _mm256_set1_epi32(value as i32);
        let cap = _mm256_set1_epi32(width as i32);
        let s = stride as i32;
        let mut rows = _mm256_setr_epi32(0, s, 2 * s, 3 * s, 4 * s, 5 * s, 6 * s, 7 * s);
        let step = _mm256_set1_epi32(8 * s);
        let mut at = [0u32; 8];
        for chunk in chunks {
            // SAFETY: chunk holds 8 u32; at has room for 8.
            unsafe {
                let b = _mm256_loadu_si256(chunk.as_ptr() as *const __m256i);
                let index =
                    _mm256_add_epi32(_mm256_min_epu32(_mm256_xor_si256(b, part), cap), rows);
                _mm256_storeu_si256(at.as_mut_ptr() as *mut __m256i, index);
            }
            for &a in &at {
                // SAFETY: a ≤ width + i·stride < others.len()·stride ≤ bytes.len() (asserted).
                unsafe { *bytes.get_unchecked_mut(a as usize) = 1 };
            }
            rows = _mm256_add_epi32(rows, step);
        }
        let done = others.len() - rest.len();
        for (j, &b) in rest.iter().enumerate() {
            bytes[(done + j) * stride + ((value ^ b) as usize).min(width)] = 1;
        }
    }

    /// [`super::strike_step`]'s vector form on AVX2: strikes the pairs of whole steps
    /// of 64 out of the live blocks of `table` (blocks of 512 values, at most
    /// [`super::AVX2_LIVE`]); returns how many pairs it looked at: all the whole
    /// steps, or fewer when a live block is empty (the caller settles it).
    #[target_feature(enable = "avx2")]
    pub(super) fn strike_live(
        pairs: (&[u8], &[u8], &[u8], &[u8]),
        table: &mut [u8],
        live: &[usize],
    ) -> usize {
        // Every value below 2048 (one block of the planes' cut: a table of 256 bytes):
        // the bit plane is the bit alone, the lane's block the byte's top two bits.
        let small = table.len() <= 256;
        match (small, live) {
            (true, &[a]) => strike_blocks::<1, true>(pairs, table, [a]),
            (true, &[a, b]) => strike_blocks::<2, true>(pairs, table, [a, b]),
            (false, &[a]) => strike_blocks::<1, false>(pairs, table, [a]),
            (false, &[a, b]) => strike_blocks::<2, false>(pairs, table, [a, b]),
            _ => unreachable!("at most two live blocks"),
        }
    }

    /// [`strike_live`] for `L` live blocks. A block of 512 values is 64 bytes of the
    /// bitmap: four 16-byte tables, each held in both halves of a register, that a byte
    /// shuffle indexes by bits 3–6 of a value (the low nibble of its plane byte); bits
    /// 7 and 8 pick one of the four (two blends), and bit 0–2 the bit of the byte. A
    /// lane's block, `v >> 9`, is compared with each live block's number. As on
    /// AVX-512, the hits of [`BATCH`] steps are kept without a branch, then struck
    /// from the bitmap in memory and the registers read again. `SMALL`: every value is
    /// below 2048, which saves a third of the work of finding a lane's bit and block.
    #[target_feature(enable = "avx2")]
    fn strike_blocks<const L: usize, const SMALL: bool>(
        pairs: (&[u8], &[u8], &[u8], &[u8]),
        table: &mut [u8],
        live: [usize; L],
    ) -> usize {
        let len = super::planes_len(pairs);
        let (bytes, bits, bytes_back, bits_back) = pairs;
        assert!(live.iter().all(|&b| (b + 1) * 64 <= table.len() && b < 128));
        assert!(!SMALL || table.len() <= 256, "values below 2048");
        let masks = _mm256_setr_epi8(
            1, 2, 4, 8, 16, 32, 64, -128, 1, 2, 4, 8, 16, 32, 64, -128, 1, 2, 4, 8, 16, 32, 64,
            -128, 1, 2, 4, 8, 16, 32, 64, -128,
        );
        let (seven, fifteen) = (_mm256_set1_epi8(7), _mm256_set1_epi8(15));
        let (top_bits, three) = (_mm256_set1_epi8(0xf8u8 as i8), _mm256_set1_epi8(3));
        let zero = _mm256_setzero_si256();
        let tags: [__m256i; L] = std::array::from_fn(|k| {
            // SMALL: the block is the byte's top two bits, compared in place.
            let tag = if SMALL { live[k] << 6 } else { live[k] };
            _mm256_set1_epi8(tag as u8 as i8)
        });
        let top_two = _mm256_set1_epi8(0xc0u8 as i8);
        let load = |table: &[u8]| -> [[__m256i; 4]; L] {
            std::array::from_fn(|k| {
                std::array::from_fn(|j| {
                    // SAFETY: block live[k] is 64 bytes of the table (asserted above).
                    unsafe {
                        _mm256_broadcastsi128_si256(_mm_loadu_si128(
                            table.as_ptr().add(live[k] * 64 + 16 * j) as *const __m128i,
                        ))
                    }
                })
            })
        };
        strike_in_batches!(
            len,
            table,
            load,
            |block| {
                let all = block.iter().fold(zero, |all, &c| _mm256_or_si256(all, c));
                _mm256_testz_si256(all, all) == 1
            },
            |t, step_at, step_bytes, step_bits| {
                let mut found_step = 0u64;
                for half in 0..2 {
                    let at = step_at + 32 * half;
                    // SAFETY: the four slices hold 32 bytes at `at` (at + 32 ≤ whole ≤ len).
                    let (a, b, c, d) = unsafe {
                        (
                            _mm256_loadu_si256(bytes.as_ptr().add(at) as *const __m256i),
                            _mm256_loadu_si256(bytes_back.as_ptr().add(at) as *const __m256i),
                            _mm256_loadu_si256(bits.as_ptr().add(at) as *const __m256i),
                            _mm256_loadu_si256(bits_back.as_ptr().add(at) as *const __m256i),
                        )
                    };
                    let byte = _mm256_xor_si256(a, b);
                    let bit_block = _mm256_xor_si256(c, d);
                    // SMALL: the bit plane is below 8 (no block bits above it).
                    let bit = if SMALL {
                        _mm256_shuffle_epi8(masks, bit_block)
                    } else {
                        _mm256_shuffle_epi8(masks, _mm256_and_si256(bit_block, seven))
                    };
                    let index = _mm256_and_si256(byte, fifteen);
                    // Bits 4 and 5 of the byte moved to bit 7 (the blends read only
                    // bit 7; what the 16-bit shifts carry across bytes is below it).
                    let pick_odd = _mm256_slli_epi16(byte, 3);
                    let pick_high = _mm256_slli_epi16(byte, 2);
                    // v >> 9: the 2048-block (bits 3–7 of the bit plane) times four,
                    // plus the top two bits of the byte.
                    let block = if SMALL {
                        _mm256_and_si256(byte, top_two)
                    } else {
                        _mm256_or_si256(
                            _mm256_srli_epi16(_mm256_and_si256(bit_block, top_bits), 1),
                            _mm256_and_si256(_mm256_srli_epi16(byte, 6), three),
                        )
                    };
                    let mut found = zero;
                    for k in 0..L {
                        let low = _mm256_blendv_epi8(
                            _mm256_shuffle_epi8(t[k][0], index),
                            _mm256_shuffle_epi8(t[k][1], index),
                            pick_odd,
                        );
                        let high = _mm256_blendv_epi8(
                            _mm256_shuffle_epi8(t[k][2], index),
                            _mm256_shuffle_epi8(t[k][3], index),
                            pick_odd,
                        );
                        let row = _mm256_blendv_epi8(low, high, pick_high);
                        let here = _mm256_cmpeq_epi8(block, tags[k]);
                        found = _mm256_or_si256(
                            found,
                            _mm256_and_si256(_mm256_and_si256(row, bit), here),
                        );
                    }
                    let absent = _mm256_movemask_epi8(_mm256_cmpeq_epi8(found, zero)) as u32;
                    found_step |= u64::from(!absent) << (32 * half);
                    // SAFETY: each array is 64 bytes; 32 * half + 32 ≤ 64.
                    unsafe {
                        _mm256_storeu_si256(
                            step_bytes.as_mut_ptr().add(32 * half) as *mut __m256i,
                            byte,
                        );
                        _mm256_storeu_si256(
                            step_bits.as_mut_ptr().add(32 * half) as *mut __m256i,
                            bit_block,
                        );
                    }
                }
                found_step
            }
        )
    }
}

/// [`strike`] on 64 pairs a step (AVX-512; its intrinsics are stable from Rust 1.89,
/// the workspace's minimum).
#[cfg(target_arch = "x86_64")]
mod avx512 {
    use super::BATCH;
    use std::arch::x86_64::*;

    /// Strikes the pairs of whole steps of 64 out of the live blocks of `table` (at most
    /// [`super::STRIKE_LIVE`]); returns how many pairs it looked at: all the whole
    /// steps, or fewer when a live block is empty (the caller settles it).
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
    pub(super) fn strike_live(
        pairs: (&[u8], &[u8], &[u8], &[u8]),
        table: &mut [u8],
        live: &[usize],
    ) -> usize {
        match *live {
            [a] => strike_blocks::<1>(pairs, table, [a]),
            [a, b] => strike_blocks::<2>(pairs, table, [a, b]),
            _ => unreachable!("at most two live blocks"),
        }
    }

    /// [`strike_live`] for `L` live blocks, each held in four registers. Each step looks
    /// its 64 values up in every live block (two byte permutes, the block's lanes kept)
    /// and keeps the mask of hits without a branch: hits come in a third of the steps at
    /// first, and a branch on each would be mispredicted. Every [`BATCH`] steps the hits
    /// strike their values out of the bitmap in memory and the registers are read
    /// again; a value found twice before that is struck twice, which does no harm.
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
    fn strike_blocks<const L: usize>(
        pairs: (&[u8], &[u8], &[u8], &[u8]),
        table: &mut [u8],
        live: [usize; L],
    ) -> usize {
        let len = super::planes_len(pairs);
        let (bytes, bits, bytes_back, bits_back) = pairs;
        assert!(live.iter().all(|&b| (b + 1) * 256 <= table.len()));
        // Lane j: 1 << (j & 7), the bit of v in byte v >> 3 of the block.
        let masks = _mm512_set1_epi64(0x8040_2010_0804_0201u64 as i64);
        let block_bits = _mm512_set1_epi8(0xf8u8 as i8);
        let tags: [__m512i; L] = std::array::from_fn(|k| _mm512_set1_epi8((live[k] << 3) as i8));
        let load = |table: &[u8]| -> [[__m512i; 4]; L] {
            std::array::from_fn(|k| {
                // SAFETY: block live[k] is 256 bytes of the table (asserted above).
                let p = unsafe { table.as_ptr().add(live[k] * 256) } as *const __m512i;
                // SAFETY: as above.
                unsafe {
                    [
                        _mm512_loadu_si512(p),
                        _mm512_loadu_si512(p.add(1)),
                        _mm512_loadu_si512(p.add(2)),
                        _mm512_loadu_si512(p.add(3)),
                    ]
                }
            })
        };
        strike_in_batches!(
            len,
            table,
            load,
            |block| {
                let all = _mm512_or_si512(
                    _mm512_or_si512(block[0], block[1]),
                    _mm512_or_si512(block[2], block[3]),
                );
                _mm512_test_epi8_mask(all, all) == 0
            },
            |t, at, step_bytes, step_bits| {
                // SAFETY: the four slices hold 64 bytes at `at` (at + 64 ≤ whole ≤ len).
                let (a, b, c, d) = unsafe {
                    (
                        _mm512_loadu_si512(bytes.as_ptr().add(at) as *const __m512i),
                        _mm512_loadu_si512(bytes_back.as_ptr().add(at) as *const __m512i),
                        _mm512_loadu_si512(bits.as_ptr().add(at) as *const __m512i),
                        _mm512_loadu_si512(bits_back.as_ptr().add(at) as *const __m512i),
                    )
                };
                let byte = _mm512_xor_si512(a, b);
                let bit_block = _mm512_xor_si512(c, d);
                let high = _mm512_movepi8_mask(byte);
                let bit = _mm512_permutexvar_epi8(bit_block, masks);
                let block = _mm512_and_si512(bit_block, block_bits);
                let mut found = 0u64;
                for k in 0..L {
                    let row = _mm512_mask_blend_epi8(
                        high,
                        _mm512_permutex2var_epi8(t[k][0], byte, t[k][1]),
                        _mm512_permutex2var_epi8(t[k][2], byte, t[k][3]),
                    );
                    let here = _mm512_cmpeq_epi8_mask(block, tags[k]);
                    found |= _mm512_mask_test_epi8_mask(here, row, bit);
                }
                // SAFETY: each array is 64 bytes.
                unsafe {
                    _mm512_storeu_si512(step_bytes.as_mut_ptr() as *mut __m512i, byte);
                    _mm512_storeu_si512(step_bits.as_mut_ptr() as *mut __m512i, bit_block);
                }
                found
            }
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small xorshift generator: reproducible test data.
    fn xorshift(mut state: u64) -> impl FnMut() -> u64 {
        move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        }
    }

    #[test]
    fn byte_set_holds_what_was_put() {
        let mut s = ByteSet::default();
        for v in [0u8, 7, 128, 255, 16, 143] {
            s.insert(v);
        }
        s.insert(7);
        for v in 0..=255u8 {
            assert_eq!(s.contains(v), [0, 7, 128, 255, 16, 143].contains(&v), "{v}");
        }
        assert!(s.remove(128) && !s.remove(128) && !s.contains(128));
        for v in [0u8, 7, 255, 16, 143] {
            s.remove(v);
        }
        assert!(s.is_empty());
    }

    #[test]
    fn next_hit_agrees_with_the_pairs_one_by_one() {
        // Many lengths, offsets and sets (of every size the portable kernel's forms
        // take: up to 16 values compared, more by a table), every lane checked; bytes
        // below 16 in some rounds, so that big sets miss too.
        let mut next = xorshift(0x9e37_79b9_7f4a_7c15);
        for round in 0..600 {
            let len = (next() % 200) as usize;
            let narrow = if round % 3 == 2 { 15 } else { 255 };
            let low: Vec<u8> = (0..len).map(|_| next() as u8 & narrow).collect();
            let high: Vec<u8> = (0..len).map(|_| next() as u8 & narrow).collect();
            let mut set = ByteSet::default();
            for _ in 0..[0, 1, 2, 3, 4, 5, 8, 9, 16, 17, 40, 200][round % 12] {
                set.insert(next() as u8);
            }
            let from = if len == 0 {
                0
            } else {
                (next() as usize) % (len + 1)
            };
            let expect = (from..len)
                .find(|&x| set.contains(low[x] ^ high[len - 1 - x]))
                .map(|first| {
                    let i = from + (first - from) / 32 * 32;
                    let mask = (0..32.min(len - i))
                        .filter(|&j| set.contains(low[i + j] ^ high[len - 1 - i - j]))
                        .fold(0u32, |m, j| m | 1 << j);
                    (i, mask)
                });
            for kernel in scan_kernels_here() {
                let got = next_hit(&low, &high, from, &set, kernel);
                assert_eq!(got, expect, "round {round}, {kernel:?}");
            }
            assert_eq!(
                next_hit_scalar(&low, &high, from, &set),
                expect,
                "round {round}"
            );
        }
    }

    #[test]
    fn next_hit_planes_agrees_with_the_pairs_one_by_one() {
        let mut next = xorshift(0x1234_5678_9abc_def1);
        for round in 0..900 {
            let len = (next() % 200) as usize;
            // Top bytes mostly 0 and 1, as the values of Grundy's game past 2^8.
            let top = |r: u64| {
                if r.is_multiple_of(5) {
                    (r >> 8) as u8 % 4
                } else {
                    0
                }
            };
            // Bytes below 16 in some rounds, so that big sets miss too.
            let narrow = if round % 3 == 2 { 15 } else { 255 };
            let low: Vec<u8> = (0..len).map(|_| next() as u8 & narrow).collect();
            let high: Vec<u8> = (0..len).map(|_| next() as u8 & narrow).collect();
            let low_tops: Vec<u8> = (0..len).map(|_| top(next())).collect();
            let high_tops: Vec<u8> = (0..len).map(|_| top(next())).collect();
            let mut wanted: Vec<(u8, u8)> = Vec::new();
            for _ in 0..(round % 7) {
                wanted.push(((next() % 3) as u8, next() as u8));
            }
            // Now and then more than the portable kernel compares (a table then).
            if round % 10 == 4 {
                for _ in 0..(next() % 60) {
                    wanted.push(((next() % 3) as u8, next() as u8));
                }
            }
            // Groups by top byte, as many as 10 (past the vector path's 8).
            let mut groups: Vec<(u8, ByteSet)> = Vec::new();
            for &(t, v) in &wanted {
                insert_grouped(&mut groups, u32::from(t) << 8 | u32::from(v), 8);
            }
            if round % 50 == 49 {
                for t in 3..13u8 {
                    let mut set = ByteSet::default();
                    set.insert(next() as u8);
                    groups.push((t, set.clone()));
                    wanted.extend((0..=255u8).filter(|&v| set.contains(v)).map(|v| (t, v)));
                }
            }
            let pair = |x: usize| {
                (
                    low_tops[x] ^ high_tops[len - 1 - x],
                    low[x] ^ high[len - 1 - x],
                )
            };
            let from = if len == 0 {
                0
            } else {
                (next() as usize) % (len + 1)
            };
            let expect = (from..len)
                .find(|&x| wanted.contains(&pair(x)))
                .map(|first| {
                    let i = from + (first - from) / 32 * 32;
                    let mask = (0..32.min(len - i))
                        .filter(|&j| wanted.contains(&pair(i + j)))
                        .fold(0u32, |m, j| m | 1 << j);
                    (i, mask)
                });
            let args = (&low[..], &high[..], &low_tops[..], &high_tops[..]);
            for kernel in scan_kernels_here() {
                assert_eq!(
                    next_hit_planes(args.0, args.1, args.2, args.3, from, &groups, kernel),
                    expect,
                    "round {round}, {kernel:?}"
                );
            }
            assert_eq!(
                next_hit_planes_scalar(args.0, args.1, args.2, args.3, from, &groups),
                expect,
                "round {round}"
            );
        }
    }

    #[test]
    fn strike_agrees_with_the_pairs_one_by_one() {
        // Heaps whose split counts fall around the 64-pair steps and batches, values of
        // every width up to 2^16 (up to 32 blocks), one to three ranges of splits, with
        // and without options, from the first block or a later one; both forms.
        let mut next = xorshift(0x0bad_cafe_dead_beef);
        let mut table = StrikeTable::default();
        for round in 0..400 {
            let width = 1 + (next() % 16) as u32;
            let n = 2 + (next() % 5000) as usize;
            // Mostly small values, a few wide ones: the blocks empty at different times.
            let values: Vec<u32> = (0..n)
                .map(|_| {
                    let r = next();
                    let w = if r.is_multiple_of(3) {
                        width
                    } else {
                        width.min(11)
                    };
                    ((r >> 8) % (1 << w)) as u32
                })
                .collect();
            let mut planes = StrikePlanes::default();
            // In two goes, the second past a growth of the backward planes.
            planes.sync(&values[..n / 3]);
            planes.sync(&values);
            let splits: Vec<(usize, usize, usize)> = (0..1 + next() % 3)
                .map(|_| {
                    let m = (next() as usize) % n;
                    let x0 = (next() as usize) % (m + 1);
                    let x1 = x0 + (next() as usize) % (m + 2 - x0);
                    (m, x0, x1)
                })
                .collect();
            let bound = (1u32 << width)
                .max(1 + (next() % 64) as u32)
                .next_power_of_two();
            let from = if bound > STRIKE_BLOCK && next().is_multiple_of(3) {
                (next() as u32 % (bound / STRIKE_BLOCK)) * STRIKE_BLOCK
            } else {
                0
            };
            let options: Vec<u32> = (0..next() % 4).map(|_| next() as u32 % bound).collect();
            let mut hit = vec![false; bound as usize];
            for &(m, x0, x1) in &splits {
                for x in x0..x1 {
                    hit[(values[x] ^ values[m - x]) as usize] = true;
                }
            }
            for &v in &options {
                hit[v as usize] = true;
            }
            let least = (from..bound).find(|&v| !hit[v as usize]);
            for kernel in strike_kernels_here() {
                let got = strike(&planes, &splits, &options, from, bound, kernel, &mut table);
                let mut left = vec![0u64; (got.next as usize).div_ceil(64)];
                for v in from..got.next {
                    if !hit[v as usize] {
                        left[v as usize / 64] |= 1 << (v % 64);
                    }
                }
                assert_eq!(got.left, left, "round {round}, {kernel:?}");
                match least {
                    Some(v) => {
                        assert!(v < got.next, "round {round}, {kernel:?}: {v}, {}", got.next)
                    }
                    None => assert_eq!(got.next, bound, "round {round}, {kernel:?}"),
                }
                assert!(got.next == bound || got.next.is_multiple_of(kernel.settle_block()));
                // Stopped and resumed at random points: the answer may settle other
                // blocks, but is as exact.
                let table = Vec::new();
                let mut run = StrikeRun::new(
                    &planes,
                    splits.clone(),
                    &options,
                    from,
                    bound,
                    kernel,
                    table,
                );
                let mut stop = 0;
                while !run.run(&planes, stop) {
                    stop += 1 + (next() % 700) as usize;
                }
                let (got, _) = run.finish();
                for v in from..got.next {
                    let left = got.left[v as usize / 64] >> (v % 64) & 1 == 1;
                    assert_eq!(left, !hit[v as usize], "round {round}: {v}, resumed");
                }
                match least {
                    Some(v) => assert!(v < got.next, "round {round}: {v}, {}, resumed", got.next),
                    None => assert_eq!(got.next, bound, "round {round}, resumed"),
                }
            }
        }
    }

    #[test]
    fn mark_walk_agrees_with_its_plain_form() {
        let mut next = xorshift(0x2545_f491_4f6c_dd1d);
        for len in [0usize, 5, 8, 13, 64, 256, 259] {
            let width = 64;
            let stride = width + 64;
            let others: Vec<u32> = (0..len).map(|_| (next() % 200) as u32).collect();
            let value = (next() % 100) as u32;
            let mut fast = vec![0u8; len * stride];
            let mut plain = fast.clone();
            mark_walk_plain(&mut plain, stride, width, value, &others);
            for kernel in scan_kernels_here() {
                fast.fill(0);
                mark_walk(&mut fast, stride, width, value, &others, kernel);
                assert_eq!(fast, plain, "{len}, {kernel:?}");
            }
            assert_eq!(plain.iter().filter(|&&b| b == 1).count(), len);
        }
    }
}
