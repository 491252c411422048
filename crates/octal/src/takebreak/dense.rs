//! Games without a sparse space (`.007`, `.04`, `.06`, …: a third to a half of the heaps
//! rare): every heap must look at all its splits, O(n²) in all. The rare/common method
//! gains little there (walking the rare parts one by one is most of the work), so these
//! codes take a plainer route, made fast by the vector scan and two threads.
//!
//! For a tile of [`DENSE_TILE`] heaps starting at `s`, every split of a heap whose parts
//! are both below `s` (the *far* splits: all but the first few hundred) is known before
//! the tile starts, so the heaps' far work runs in parallel:
//!
//! 1. the [`WARM`] splits of each sum nearest the middle are marked one by one;
//! 2. the *wanted* values are the first [`WANT`] values those marks miss (every value
//!    below the first of them is an option already);
//! 3. one vector pass ([`split_scan::next_hit_planes`], 32 splits a step, values split
//!    into a low byte and a top byte) over the other far splits removes the wanted values
//!    it finds; when it has found them all, the next [`WANT`] missed values are wanted,
//!    over a whole cycle of the far splits from that point.
//!
//! Where the CPU has AVX2 or AVX-512, the far pass is instead a *strike*
//! ([`split_scan::strike`]): every value below the bound (up to 2^16) is wanted at
//! once, in a bitmap cut in blocks, each held in vector registers while it is looked
//! for (AVX-512: blocks of 2048 values in four registers, byte permutes, at most two
//! blocks at a time; AVX2: blocks of 512 values in four 16-byte shuffle tables, one
//! block at a time); each step looks 64 splits' values up in the blocks looked for and
//! keeps the hits' mask, and every 8 steps the hits clear their bits. The lowest blocks
//! are looked for over one pass of the far splits; a block that empties gives its
//! place to the next one, which is looked for over a whole cycle of the far splits
//! from there; the pass ends when the lowest blocks are settled up to a non-empty one
//! (nearly always after one pass on AVX-512, where the heap's value lies in block 0 or
//! 1 for most heaps of `.764` at 10^5, whose values reach 4665; 1.3 passes on AVX2 for
//! `.007` to 2^17). No refills of a few values, no false hits. It pays from one rare
//! heap in [`DENSE_SHARE_STRIKE`] on AVX-512 (2 %: measured on `.007`, `.064`, `.264`,
//! `.606`) and one in [`DENSE_SHARE_STRIKE_AVX2`] on AVX2 and the portable kernel, against one in
//! [`DENSE_SHARE`] for the windowed scan. The heaps of a tile strike in groups of
//! [`STRIKE_GROUP`], taking turns over each stretch of [`STRIKE_CHUNK`] splits while
//! its values are in cache.
//!
//! Then, heap by heap in order, the options that need the tile's own values (the splits
//! with a part ≥ s, taking without splitting) remove theirs, and the value is the least
//! wanted value left. When none is left (the options of the tile's own values took the
//! last ones: rare), the heap is done again by the plain mex over all its splits (by
//! the strike where the far pass struck, from the first value not settled). The
//! values are exactly the mex's, whatever the tile, the number of threads or the marks.

use super::{last_split, split_scan, Narrow, SparseSequence, SplitTargets, PREFIX};
use crate::split_scan::ByteSet;
use rayon::prelude::*;

/// Heaps per dense tile.
pub(super) const DENSE_TILE: usize = 512;
/// Splits per sum marked one by one, nearest the middle, before the vector pass.
const WARM: usize = 768;
/// Values looked for by the vector pass at a time.
const WANT: usize = 96;
/// Splits per call of the vector scan.
const SCAN_STEP: usize = 4096;
/// The dense route pays from one rare heap in this many (the windowed scan)…
const DENSE_SHARE: usize = 8;
/// … and from one in this many with the bitmap strike on AVX-512 …
const DENSE_SHARE_STRIKE: usize = 48;
/// … and on AVX2 (to 2^18 against the sparse route: `.606`, 2.6 % rare, 11.0 against
/// 8.5 CPU s; `.764`, 4.6 %, 51 against 64 s; `.007`, 8 %, 8 against 14 s).
const DENSE_SHARE_STRIKE_AVX2: usize = 28;
/// The windowed scan runs while every value is below this: its wanted values go up to
/// the bound, a power of two, and must fit a low and a top byte.
const WINDOWS_MAX: u32 = 1 << 15;

/// What the far pass left of one heap: the wanted values not found (bit v of word
/// v / 64 set: v is not a far option).
struct FarScan {
    left: Vec<u64>,
    /// Every value below this is an option or in `left`.
    next: u32,
}

impl FarScan {
    /// The values of `left`, in increasing order.
    fn left(&self) -> impl Iterator<Item = u32> + '_ {
        self.left.iter().enumerate().flat_map(|(w, &word)| {
            let mut word = word;
            std::iter::from_fn(move || {
                (word != 0).then(|| {
                    let b = word.trailing_zeros();
                    word &= word - 1;
                    (w as u32) * 64 + b
                })
            })
        })
    }
}

/// The values a far pass looks for, grouped by top for [`split_scan::next_hit_planes`];
/// which values they are is in the pass's marks (see [`far_scan`]).
#[derive(Default)]
struct Looking {
    groups: Vec<(u8, ByteSet)>,
    len: usize,
}

impl Looking {
    fn insert(&mut self, v: u32, low_bits: u32) {
        split_scan::insert_grouped(&mut self.groups, v, low_bits);
        self.len += 1;
    }
    /// Removes v, which is there.
    fn remove(&mut self, v: u32, low_bits: u32) {
        split_scan::remove_grouped(&mut self.groups, v, low_bits);
        self.len -= 1;
    }
}

impl SparseSequence {
    /// Whether the dense route applies from here: many rare heaps (a sparse space
    /// would not pay), at most two parts, values held in 16 bits.
    fn dense_applies(&self, len: usize) -> bool {
        let start = self.values.len();
        // The share of rare heaps from which the route pays: measured on `.007`, `.064`,
        // `.264`, `.606` (crossing near 2 % with the bitmap strike, 1/8 without); a
        // strike of two blocks at a time costs about twice one block's (`.764` at 2^19,
        // 2.3 % rare: the sparse route 1.8× faster).
        let share = match self.strikes().then(|| self.strike_kernel()) {
            Some(split_scan::StrikeKernel::Avx512) => {
                let blocks = (self.max as usize + 1).div_ceil(split_scan::STRIKE_BLOCK as usize);
                DENSE_SHARE_STRIKE / blocks.min(split_scan::STRIKE_LIVE)
            }
            // The portable kernel: AVX2's share too (it strikes 1.6–2.7× slower than
            // AVX2, but the sparse route runs scalar then; `.606` to 2^18, 2.6 % rare:
            // 16.5 CPU s dense against 15.4 sparse, so it stays sparse, as on AVX2).
            Some(_) => DENSE_SHARE_STRIKE_AVX2,
            None => DENSE_SHARE,
        };
        let dense = self.always_dense || self.rare.len() * share >= start;
        dense
            && start >= PREFIX
            && len >= start + DENSE_TILE
            && self.rules.max_parts() <= 2
            && self.rules.digits.len() < DENSE_TILE
            && self.max < self.dense_max()
            && !self.always_tiles
    }

    /// Whether the far passes strike a bitmap ([`split_scan::strike`]) at the current values.
    fn strikes(&self) -> bool {
        self.strike_route() && (self.max + 1).next_power_of_two() <= split_scan::STRIKE_VALUES
    }

    /// How the strike looks its pairs up: the CPU's fastest, or the kernel tests ask
    /// for (one that runs on any CPU).
    fn strike_kernel(&self) -> split_scan::StrikeKernel {
        self.dense_strike.unwrap_or_else(split_scan::strike_kernel)
    }

    /// Whether the far passes strike a bitmap while the values let them.
    fn strike_route(&self) -> bool {
        !self.dense_windows && (split_scan::strike_vectors() || self.dense_strike.is_some())
    }

    /// A tile starts while every value is below this. The strike takes values up to
    /// 2^16 − 1 (a heap's value is at most the bound, 2^16: then the tile stops there,
    /// see [`Self::extend_dense`]); the windowed scan up to [`WINDOWS_MAX`]. Both stop
    /// at what the planes hold (`dense_hold`): a tile that ends early because a value
    /// passed it must end the route on either path, or the route would start again
    /// from the next heap on the windowed path only, and where it ends would depend on
    /// whether the CPU strikes on vectors.
    fn dense_max(&self) -> u32 {
        let route = if self.strike_route() {
            split_scan::STRIKE_VALUES - 1
        } else {
            WINDOWS_MAX
        };
        self.dense_hold.min(route)
    }

    /// Computes whole tiles of [`DENSE_TILE`] heaps while the dense route applies and
    /// at least one whole tile is wanted (see the module docs).
    pub(super) fn extend_dense(&mut self, len: usize) {
        if !self.dense_applies(len) {
            return;
        }
        let split = self.split.expect("split chosen");
        self.narrow.sync(&self.values);
        while self.values.len() + DENSE_TILE <= len && self.max < self.dense_max() {
            let s = self.values.len();
            let bound = (self.max + 1).next_power_of_two();
            // The bitmap strike when it runs on vectors and the values fit it.
            let strike = self.strikes();
            if strike {
                self.strike_planes.sync(&self.values);
            }
            // The strike on vectors, or one split at a time (tests on any CPU).
            let kernel = strike.then(|| self.strike_kernel());
            let far: Vec<FarScan> = {
                let (rules, narrow, planes) = (&self.rules, &self.narrow, &self.strike_planes);
                let chunk = self.strike_chunk;
                let (digits, distinct) = (rules.digits(), rules.distinct_parts);
                match kernel {
                    Some(kernel) => (s..s + DENSE_TILE)
                        .step_by(STRIKE_GROUP)
                        .collect::<Vec<_>>()
                        .into_par_iter()
                        .map_init(Vec::new, |tables, first| {
                            let heaps = first..(first + STRIKE_GROUP).min(s + DENSE_TILE);
                            let far = FarStrikes {
                                digits,
                                distinct,
                                planes,
                                s,
                                bound,
                                kernel,
                                chunk,
                            };
                            far.run(heaps, tables)
                        })
                        .flatten()
                        .collect(),
                    None => (s..s + DENSE_TILE)
                        .into_par_iter()
                        .with_min_len(16)
                        .map_init(Vec::new, |marks, n| {
                            far_scan(digits, distinct, narrow, s, n, bound, marks)
                        })
                        .collect(),
                }
            };
            for (i, far) in far.into_iter().enumerate() {
                let n = s + i;
                let v = self.finish_dense(n, s, far, kernel);
                self.values.push(v);
                self.max = self.max.max(v);
                if split.class(n, v) == split.rare_class {
                    self.rare.push(n as u32);
                    self.rare_values.push(v);
                }
                if v > self.dense_hold {
                    // Past what the planes hold: the route ends here (the rest of the
                    // tile would read this value from them), the values stay exact.
                    return;
                }
                self.narrow.push(v);
                if strike {
                    self.strike_planes.push(v);
                }
            }
        }
    }

    /// G(n) from the far pass's leftovers and the options with a part in the tile
    /// (which starts at `s`), G(0), …, G(n − 1) known; `strike`: whether the far pass
    /// struck a bitmap (on vectors or not), so that the plain mex may too.
    fn finish_dense(
        &mut self,
        n: usize,
        s: usize,
        far: FarScan,
        strike: Option<split_scan::StrikeKernel>,
    ) -> u32 {
        let next = far.next;
        let g = &self.values;
        // Options with a part in the tile: stamped n + 1 in `near`.
        let near = &mut self.near;
        if near.len() <= self.max as usize * 2 + 2 {
            near.resize(
                ((self.max as usize + 1).next_power_of_two() * 2).max(1 << 16),
                0,
            );
        }
        let stamp = n as u32 + 1;
        let distinct = self.rules.distinct_parts;
        for (k, &d) in self.rules.digits.iter().enumerate() {
            if k > n || d == 0 {
                continue;
            }
            let m = n - k;
            if d & 1 != 0 && m == 0 && k > 0 {
                near[0] = stamp;
            }
            if d & 2 != 0 && m >= 1 && k > 0 {
                near[g[m] as usize] = stamp;
            }
            if d & 4 != 0 && m >= 2 {
                // Splits x + (m − x) with m − x ≥ s.
                let near_end = (m + 1)
                    .saturating_sub(s)
                    .max(1)
                    .min(last_split(m, distinct) + 1);
                for x in 1..near_end {
                    near[(g[x] ^ g[m - x]) as usize] = stamp;
                }
            }
        }
        if let Some(v) = far.left().find(|&v| near[v as usize] != stamp) {
            return v;
        }
        // Every value below `next` is an option: the vector scan over all the splits
        // (the narrow values hold G(0), …, G(n − 1)) for the next values, [`WANT`] at a
        // time, or the strike from the block of `next` on.
        self.dense_fallbacks += 1;
        let bound = (self.max + 1).next_power_of_two();
        if let Some(kernel) = strike {
            return self.mex_by_strike(n, next, bound, kernel);
        }
        let mut marks = vec![0u8; bound as usize + 1];
        let mut lo = next;
        loop {
            marks[..lo.min(bound + 1) as usize].fill(1);
            for (k, &d) in self.rules.digits.iter().enumerate() {
                if k > n || d == 0 {
                    continue;
                }
                let m = n - k;
                if d & 1 != 0 && m == 0 && k > 0 {
                    marks[0] = 1;
                }
                if d & 2 != 0 && m >= 1 && k > 0 {
                    marks[g[m] as usize] = 1;
                }
            }
            let mut wanted = Looking::default();
            let mut hi = lo;
            while wanted.len < WANT && hi <= bound {
                if marks[hi as usize] == 0 {
                    wanted.insert(hi, self.narrow.low_bits);
                }
                hi += 1;
            }
            for (k, &d) in self.rules.digits.iter().enumerate() {
                if d & 4 != 0 && k <= n && n - k >= 2 {
                    let m = n - k;
                    scan(
                        &self.narrow,
                        m,
                        1,
                        last_split(m, distinct) + 1,
                        &mut wanted,
                        &mut marks,
                        hi,
                    );
                }
            }
            if let Some(v) = (lo..hi).find(|&v| marks[v as usize] == 0) {
                return v;
            }
            lo = hi;
        }
    }
}

impl SparseSequence {
    /// G(n) by the strike over every split, every value below `next` an option already,
    /// every option below `bound`; the strike planes hold G(0), …, G(n − 1).
    fn mex_by_strike(
        &mut self,
        n: usize,
        next: u32,
        bound: u32,
        kernel: split_scan::StrikeKernel,
    ) -> u32 {
        if next >= bound {
            return bound;
        }
        let (g, distinct) = (&self.values, self.rules.distinct_parts);
        let from = next / split_scan::STRIKE_BLOCK * split_scan::STRIKE_BLOCK;
        let mut options: Vec<u32> = (from..next).collect();
        let mut splits = Vec::new();
        for (k, &d) in self.rules.digits.iter().enumerate() {
            if k > n || d == 0 {
                continue;
            }
            let m = n - k;
            if d & 1 != 0 && m == 0 && k > 0 {
                options.push(0);
            }
            if d & 2 != 0 && m >= 1 && k > 0 {
                options.push(g[m]);
            }
            if d & 4 != 0 && m >= 2 {
                splits.push((m, 1, last_split(m, distinct) + 1));
            }
        }
        let struck = split_scan::strike(
            &self.strike_planes,
            &splits,
            &options,
            from,
            bound,
            kernel,
            &mut self.strike_table,
        );
        let least = struck.left.iter().enumerate().find(|&(_, &w)| w != 0);
        least.map_or(bound, |(w, &word)| w as u32 * 64 + word.trailing_zeros())
    }
}

/// The far splits of heap `n` in the tile starting at `s`, as `(m, x0, x1)`: the splits
/// x + (m − x), x0 ≤ x < x1, with m − x < s.
fn far_splits(digits: &[u8], distinct: bool, s: usize, n: usize) -> Vec<(usize, usize, usize)> {
    let mut splits = Vec::with_capacity(4);
    for (k, &d) in digits.iter().enumerate() {
        if d & 4 == 0 || k > n || n - k < 2 {
            continue;
        }
        let m = n - k;
        let first = (m + 1).saturating_sub(s).max(1);
        let last = last_split(m, distinct);
        if first <= last {
            splits.push((m, first, last + 1));
        }
    }
    splits
}

/// Heaps whose far strikes take turns over each stretch of [`STRIKE_CHUNK`] splits.
const STRIKE_GROUP: usize = 32;
/// Splits (values of x) in a stretch: the planes' bytes of a stretch, forwards and
/// backwards, stay in a core's L2 cache (1 MiB here) while a group's heaps strike it
/// (`.06` to 2^21: 55 s against 74 s one heap at a time). Tests make it short (the
/// sequence's `strike_chunk`), so that their heaps have many stretches.
pub(super) const STRIKE_CHUNK: usize = 1 << 16;

/// The far passes of a group of heaps of the tile starting at `s` by the strike
/// ([`split_scan::strike`]), from the planes of G(0), …, G(s − 1); every XOR of two
/// of them is below `bound`.
struct FarStrikes<'a> {
    digits: &'a [u8],
    distinct: bool,
    planes: &'a split_scan::StrikePlanes,
    s: usize,
    bound: u32,
    kernel: split_scan::StrikeKernel,
    /// Splits in a stretch ([`STRIKE_CHUNK`]; fewer in tests).
    chunk: usize,
}

impl FarStrikes<'_> {
    /// The far passes of `heaps`: the heaps' splits are cut at the multiples of
    /// [`STRIKE_CHUNK`] in x, and each stretch is struck by every heap in turn while it
    /// is in cache; what a pass needs past one cycle of its splits (a block first looked
    /// for late), it does alone. `tables`: the bitmaps' room, reused.
    fn run(&self, heaps: std::ops::Range<usize>, tables: &mut Vec<Vec<u8>>) -> Vec<FarScan> {
        let mut runs: Vec<(split_scan::StrikeRun, Vec<usize>)> = heaps
            .map(|n| {
                let splits = far_splits(self.digits, self.distinct, self.s, n);
                let (splits, ends) = cut_splits(&splits, self.chunk);
                let table = tables.pop().unwrap_or_default();
                let run = split_scan::StrikeRun::new(
                    self.planes,
                    splits,
                    &[],
                    0,
                    self.bound,
                    self.kernel,
                    table,
                );
                (run, ends)
            })
            .collect();
        let stretches = runs.iter().map(|(_, ends)| ends.len()).max().unwrap_or(0);
        for stretch in 0..stretches {
            for (run, ends) in &mut runs {
                if let Some(&stop) = ends.get(stretch) {
                    run.run(self.planes, stop);
                }
            }
        }
        runs.into_iter()
            .map(|(mut run, _)| {
                run.run(self.planes, usize::MAX);
                let (struck, table) = run.finish();
                tables.push(table);
                FarScan {
                    left: struck.left,
                    next: struck.next,
                }
            })
            .collect()
    }
}

/// `splits` (`(m, x0, x1)`) cut at the multiples of `chunk` in x, stretch by stretch
/// (each stretch's pieces in the order of `splits`), and how many splits end each
/// stretch, counted from the first.
fn cut_splits(
    splits: &[(usize, usize, usize)],
    chunk: usize,
) -> (Vec<(usize, usize, usize)>, Vec<usize>) {
    let (mut cut, mut ends) = (Vec::new(), Vec::new());
    let end = splits.iter().map(|s| s.2).max().unwrap_or(0);
    let mut done = 0;
    for from in (0..end).step_by(chunk.max(1)) {
        let to = from + chunk.max(1);
        for &(m, x0, x1) in splits {
            let (a, b) = (x0.max(from), x1.min(to));
            if a < b {
                cut.push((m, a, b));
                done += b - a;
            }
        }
        ends.push(done);
    }
    (cut, ends)
}

/// The far pass of heap `n` in the tile starting at `s` (module docs, steps 1–3), from
/// the narrow values G(0), …, G(s − 1); every XOR of two of them is below `bound`.
fn far_scan(
    digits: &[u8],
    distinct: bool,
    narrow: &Narrow,
    s: usize,
    n: usize,
    bound: u32,
    marks: &mut Vec<u8>,
) -> FarScan {
    let g = &narrow.values;
    marks.clear();
    marks.resize(bound as usize + 1, 0);
    // Far splits x + (m − x): m − x < s, i.e. x from m + 1 − s; the warm ones last.
    let mut ranges: Vec<(usize, usize, usize)> = Vec::with_capacity(4);
    for (m, first, end) in far_splits(digits, distinct, s, n) {
        let warm = end.saturating_sub(WARM).max(first);
        for x in warm..end {
            marks[usize::from(g[x] ^ g[m - x])] = 1;
        }
        ranges.push((m, first, warm));
    }
    // The wanted values, in increasing order of first look; when all are found, the next
    // ones (above them) are looked for over a whole cycle of the splits from there.
    let mut wanted = Looking::default();
    let mut next = 0u32;
    let refill = |wanted: &mut Looking, next: &mut u32, marks: &[u8]| {
        let mut added = 0;
        while added < WANT && *next <= bound {
            if marks[*next as usize] == 0 {
                wanted.insert(*next, narrow.low_bits);
                added += 1;
            }
            *next += 1;
        }
    };
    refill(&mut wanted, &mut next, marks);
    let total: usize = ranges.iter().map(|&(_, first, warm)| warm - first).sum();
    let (mut range, mut x) = (0, ranges.first().map_or(0, |r| r.1));
    let mut scanned = 0;
    while scanned < total && wanted.len > 0 {
        let (m, _, warm) = ranges[range];
        let x1 = warm.min(x + SCAN_STEP);
        scan(narrow, m, x, x1, &mut wanted, marks, next);
        if wanted.len == 0 && next <= bound {
            // All found: the next values, over a whole cycle from this block.
            refill(&mut wanted, &mut next, marks);
            scanned = 0;
            continue;
        }
        scanned += x1 - x;
        x = x1;
        if x == warm {
            range = (range + 1) % ranges.len();
            x = ranges[range].1;
        }
    }
    let mut left = vec![0u64; (next as usize).div_ceil(64)];
    for v in (0..next).filter(|&v| marks[v as usize] == 0) {
        left[v as usize / 64] |= 1 << (v % 64);
    }
    FarScan { left, next }
}

/// Removes from `wanted` (the values v < `next` with `marks[v] = 0`) the values of the
/// splits x + (m − x), x0 ≤ x < x1, marking them; stops when it is empty.
fn scan(
    narrow: &Narrow,
    m: usize,
    x0: usize,
    x1: usize,
    wanted: &mut Looking,
    marks: &mut [u8],
    next: u32,
) {
    narrow.scan_splits(
        m,
        x0,
        x1,
        &mut Marking {
            wanted,
            marks,
            next,
        },
    );
}

/// A far pass's targets: the values below `next` not yet marked.
struct Marking<'a> {
    wanted: &'a mut Looking,
    marks: &'a mut [u8],
    next: u32,
}

impl SplitTargets for Marking<'_> {
    fn groups(&self) -> &[(u8, ByteSet)] {
        &self.wanted.groups
    }
    fn found(&mut self, v: u32, low_bits: u32) -> bool {
        if v < self.next && self.marks[v as usize] == 0 {
            self.marks[v as usize] = 1;
            self.wanted.remove(v, low_bits);
            return self.wanted.len == 0;
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::super::{SparseSequence, TakeBreak};
    use super::DENSE_TILE;
    use crate::split_scan::{scan_kernels_here, ScanKernel, StrikeKernel};

    /// How the far passes run: as in production (`Strike`: the bitmap strike by the
    /// kernel `NIMLAB_SIMD` and the CPU allow, else the windowed scan), the strike one
    /// pair at a time or by the portable kernel (both on any CPU), or the windowed scan.
    #[derive(Clone, Copy, Debug, PartialEq)]
    enum Far {
        Strike,
        StrikeAnyCpu,
        StrikePortable,
        Windows,
    }

    impl Far {
        /// Every way, in the order the tests run them.
        const ALL: [Far; 4] = [
            Far::Strike,
            Far::StrikeAnyCpu,
            Far::StrikePortable,
            Far::Windows,
        ];

        /// The strike kernel the far passes are held to, if any.
        fn kernel(self) -> Option<StrikeKernel> {
            match self {
                Far::StrikeAnyCpu => Some(StrikeKernel::Pairs),
                Far::StrikePortable => Some(StrikeKernel::Portable),
                Far::Strike | Far::Windows => None,
            }
        }
    }

    /// The dense route's values to `len` and its fallbacks, the far passes run as `far`
    /// says, the split scans and walks by `scan`.
    fn dense(
        rules: &TakeBreak,
        len: usize,
        (low_bits, steps): (u32, bool),
        far: Far,
        scan: ScanKernel,
    ) -> (Vec<u32>, u64) {
        let mut s = SparseSequence::new(rules.clone());
        s.always_dense = true;
        s.narrow.scan = scan;
        s.narrow.low_bits = low_bits;
        s.dense_windows = matches!(far, Far::Windows);
        s.dense_strike = far.kernel();
        // Stretches far shorter than the heaps, so that the far strikes take turns.
        s.strike_chunk = 1000;
        if steps {
            let mut to = 4100;
            while to < len {
                s.extend_to(to);
                to += DENSE_TILE + 91 * (to % 7) + 1;
            }
        }
        s.extend_to(len);
        (s.values, s.dense_fallbacks)
    }

    /// Timing of the dense route (not a test of speed: prints it). `DENSE_CODE` (digits,
    /// e.g. `0007`), `DENSE_N` (terms, in chunks of 2^16 as `census run` does) and
    /// `DENSE_ALWAYS` (the route whatever the rare share) choose the run.
    #[test]
    #[ignore]
    fn dense_timing() {
        let code = std::env::var("DENSE_CODE").unwrap_or("0007".into());
        let digits = code.bytes().map(|b| b - b'0').collect();
        let rules = TakeBreak::new(digits, false);
        let n = std::env::var("DENSE_N").map_or(1 << 16, |v| v.parse().unwrap());
        let t = std::time::Instant::now();
        let mut s = SparseSequence::new(rules);
        s.always_dense = std::env::var("DENSE_ALWAYS").is_ok();
        let mut to = 0;
        while to < n {
            to = (to + (1 << 16)).min(n);
            s.extend_to(to);
        }
        eprintln!("rare {}", s.rare.len());
        let sum = s
            .values
            .iter()
            .fold(0u64, |h, &v| h.wrapping_mul(31).wrapping_add(v.into()));
        eprintln!(
            "{:?}, fallbacks {}, checksum {sum:x}",
            t.elapsed(),
            s.dense_fallbacks
        );
    }

    #[test]
    fn dense_tiles_agree_with_naive() {
        // Dense codes (.007, .04, .06, .004) and sparse ones forced onto the route
        // (Grundy's game: parts must differ; .376: several split digits; .6). Values
        // split at bit 3 or 4 as well as 8, so that the top bytes are exercised.
        // Every (path, top bits) pair runs on about half the rules by default, in a
        // checkerboard so that each pair meets dense and sparse codes; all with NIMLAB_LONG.
        // The split scans run by each kernel here in turn.
        let long = std::env::var_os("NIMLAB_LONG").is_some();
        let len = 4096 + 14 * DENSE_TILE + 333;
        let scans = scan_kernels_here();
        let mut runs = 0;
        for (r, rules) in [
            TakeBreak::new(vec![0, 0, 0, 7], false),
            TakeBreak::new(vec![0, 4], false),
            TakeBreak::new(vec![0, 6], false),
            TakeBreak::new(vec![0, 0, 4], false),
            TakeBreak::new(vec![0, 0, 6], false),
            TakeBreak::new(vec![4], true),
            TakeBreak::new(vec![0, 3, 7, 6], false),
        ]
        .into_iter()
        .enumerate()
        {
            let naive = rules.naive_sequence(len);
            for (f, far) in Far::ALL.into_iter().enumerate() {
                for (b, (low_bits, steps)) in
                    [(8, false), (3, true), (4, false)].into_iter().enumerate()
                {
                    if !long && (r + f + b) % 2 == 1 {
                        continue;
                    }
                    let scan = scans[runs % scans.len()];
                    runs += 1;
                    let (values, _) = dense(&rules, len, (low_bits, steps), far, scan);
                    assert_eq!(
                        values,
                        naive,
                        "{:?}, tops from bit {low_bits}, {far:?}, {scan:?}",
                        rules.digits()
                    );
                }
            }
        }
    }

    #[test]
    fn dense_route_ends_exactly_past_what_its_planes_hold() {
        // The dense route runs while its planes hold the values (2^16 − 1; here 2100)
        // and stops in the tile where a value passes them (.764 passes 2100 mid-tile);
        // the sparse route goes on from there. Every path (the strike on vectors where
        // the CPU has them, else the windowed scan; the strike one split at a time; the
        // portable strike; the windowed scan) ends at that same heap, whatever the CPU,
        // the split scans by each kernel here in turn.
        let rules = TakeBreak::new(vec![0, 7, 6, 4], false);
        let len = 20_000;
        let naive = rules.naive_sequence(len);
        let scans = scan_kernels_here();
        for (run, far) in Far::ALL.into_iter().enumerate() {
            let mut s = SparseSequence::new(rules.clone());
            s.always_dense = true;
            s.dense_strike = far.kernel();
            s.dense_windows = far == Far::Windows;
            s.dense_hold = 2100;
            s.strike_chunk = 1000;
            let scan = scans[run % scans.len()];
            s.narrow.scan = scan;
            s.extend_to(len);
            assert_eq!(s.values, naive, "{far:?}, {scan:?}");
            let past = s
                .values
                .iter()
                .position(|&v| v > 2100)
                .expect("values pass 2100");
            assert!(
                past > 4096 && past % DENSE_TILE != 0,
                "passed mid-tile: {past}"
            );
            assert_eq!(
                s.narrow.values.len(),
                past,
                "{far:?}: planes up to the value past"
            );
        }
    }

    #[test]
    fn dense_strike_past_2_11_agrees_with_naive() {
        // .764's values pass 2^11 at heap 14 967 (and 2^12 before 70 000, with
        // NIMLAB_LONG: then a third block is looked for once one of the two lowest is
        // empty): blocks above the first are settled late, and the plain mex by the
        // strike runs (its fallback count checked), on vectors, by the portable kernel
        // and one split at a time.
        let rules = TakeBreak::new(vec![0, 7, 6, 4], false);
        let long = std::env::var_os("NIMLAB_LONG").is_some();
        let (len, past) = if long { (70_000, 4096) } else { (30_000, 2048) };
        let naive = rules.naive_sequence(len);
        assert!(naive.iter().any(|&v| v >= past), "values past {past}");
        for far in [Far::Strike, Far::StrikeAnyCpu, Far::StrikePortable] {
            let scan = crate::split_scan::scan_kernel();
            let (values, fallbacks) = dense(&rules, len, (8, far == Far::Strike), far, scan);
            assert_eq!(values, naive, "{far:?}");
            assert!(fallbacks > 0, "{far:?}");
        }
    }
}
