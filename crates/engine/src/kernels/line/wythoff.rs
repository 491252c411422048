//! Wythoff's game itself (band 1, no finite steps, G(0, 0) = 0) on a box at least as
//! wide as tall: the line kernel's half-table pipeline with lines whose bitsets never
//! move.
//!
//! Why they need not move: for x ≥ y, x − 2y ≤ G(x, y) ≤ x + y (as in G. Nivasch, *More
//! on the Sprague–Grundy function for Wythoff's game*, Games of No Chance 3, MSRI Publ.
//! 56 (2009); also checked on every cell: a table that broke it would panic, not go
//! wrong). The upper bound by induction on x + y: every option's value is below its own
//! x + y, so below ours, and a mex of values below n is at most n. The lower bound: if
//! some v < x − 2y were not in row y before column x, each of those x cells would be
//! kept from v by its column (v is in at most one cell of each of the y rows above: y
//! columns), by its diagonal (y diagonals), or by a value below v (at most v cells), so
//! x ≤ 2y + v. And each row holds every value once, so row y before column x holds every value below x − 2y and the search for
//! G(x, y) starts at row y's least unused value, at or above x − 2y. Column x is
//! queried only by its cells (x, y), y ≤ min(x, height − 1), and diagonal d by its cells
//! (d + k, k): both are read and written only within a range known in advance, about
//! three times the line's length, where their words stay put (all lines in one array,
//! allocated once, no window to grow, slide or drop, no summaries rebuilt). A row spans
//! the whole value range, [0, width + height), 2 KiB at 8192².
//!
//! As in the general kernel, each word of a line has one summary bit, set unless the
//! word is full, and the search for a cell's value reads only the words that none of
//! its three lines fills alone, 64 words a step.
//!
//! Threads: rows go in bands of 64, filled column by column, as in the general kernel,
//! but a band's columns are split into one segment per thread, of about equal work, and
//! each thread fills its segment of every band in turn, the band's rows passed from one
//! segment's thread to the next; a thread may run on at column x once the band above is
//! done through x. Since the segments move right only a little from band to band, a
//! column or diagonal stays with one thread for many bands, in its cache, where the
//! general kernel's bands, one a thread, passed every line from thread to thread once a
//! band (on 2 threads the fill ran 1.45 times as fast as on 1).
//!
//! Only the half x ≥ y is computed; a band's mirror cells (x < y) are copied from the
//! rows above once the band and all above it are final ("completing" the band), by
//! whichever stage would otherwise wait. Streamed ([`Output::Stream`], for a caller that
//! writes the table out), the half is kept in strips of 64 columns, two bytes a value
//! where they fit, so that a band's mirrors lie in one strip, in order, and each
//! completed band goes out from a buffer reused from band to band: the table is never
//! whole in memory (Wythoff 8192²: 93 MiB at the peak, against 256 MiB of values).

use super::{run_stages, Done, PanicFlag, SharedCells, CHUNK};
use crate::progress::Progress;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// Where a line's bits are: word w (values 64w .. 64w + 63, w in `lo ..= hi`) at
/// `words[w + woff]`, its summary bit (set unless the word is full) bit w % 64 of
/// `summ[w / 64 + soff]` (offsets wrapping: a line's first word need not be word 0).
#[derive(Clone, Copy)]
struct Place {
    woff: usize,
    soff: usize,
}

/// Lines laid out one after another in one array of words and one of summaries.
struct Arena {
    words: Vec<u64>,
    summ: Vec<u64>,
    places: Vec<Place>,
}

impl Arena {
    /// Lines covering the words `lo ..= hi` each, all empty.
    fn new(ranges: impl Iterator<Item = (u64, u64)>) -> Arena {
        let mut places = Vec::new();
        let (mut nw, mut ns) = (0usize, 0usize);
        for (lo, hi) in ranges {
            debug_assert!(lo <= hi);
            places.push(Place {
                woff: nw.wrapping_sub(lo as usize),
                soff: ns.wrapping_sub((lo / 64) as usize),
            });
            nw += (hi - lo + 1) as usize;
            ns += (hi / 64 - lo / 64 + 1) as usize;
        }
        let words = vec![0u64; nw];
        populate(&words);
        Arena {
            words,
            summ: vec![!0; ns],
            places,
        }
    }
}

/// The arena's lines while the pipeline's threads share them; a line is owned by one
/// stage at a time (the band at its column, or whose rows query it), handed on through
/// the `done` counters, as [`super::SharedLines`].
struct SharedArena<'a> {
    words: *mut u64,
    summ: *mut u64,
    places: &'a [Place],
}

// SAFETY: only `u64`s behind the pointers; every access is through the unsafe `line`,
// whose callers own the line (pipeline protocol).
unsafe impl Sync for SharedArena<'_> {}
// SAFETY: as for `Sync`.
unsafe impl Send for SharedArena<'_> {}

impl<'a> SharedArena<'a> {
    fn new(arena: &'a mut Arena) -> Self {
        SharedArena {
            words: arena.words.as_mut_ptr(),
            summ: arena.summ.as_mut_ptr(),
            places: &arena.places,
        }
    }

    /// Line `i`.
    ///
    /// # Safety
    /// The calling stage owns line `i` while it uses the result: no other thread
    /// accesses its words or summaries meanwhile.
    #[inline(always)]
    unsafe fn line(&self, i: usize) -> Line {
        let p = self.places[i];
        Line {
            words: self.words.wrapping_add(p.woff),
            summ: self.summ.wrapping_add(p.soff),
        }
    }
}

/// One line's bits, addressed by absolute word index (pointers offset by the line's
/// place: only the words of its range may be read or written).
#[derive(Clone, Copy)]
struct Line {
    words: *mut u64,
    summ: *mut u64,
}

impl Line {
    /// # Safety
    /// `w` is in the line's range and the caller owns the line.
    #[inline(always)]
    unsafe fn word(self, w: u64) -> u64 {
        // SAFETY: in the line's range (caller's contract), so within the arena.
        unsafe { *self.words.wrapping_add(w as usize) }
    }

    /// # Safety
    /// Block `b` covers a word of the line's range; the caller owns the line.
    #[inline(always)]
    unsafe fn open(self, b: u64) -> u64 {
        // SAFETY: a summary of the line's (caller's contract), so within the arena.
        unsafe { *self.summ.wrapping_add(b as usize) }
    }

    /// Adds `v`.
    ///
    /// # Safety
    /// `v / 64` is in the line's range; the caller owns the line.
    #[inline(always)]
    unsafe fn insert(self, v: u64) {
        let w = v >> 6;
        // SAFETY: word `w` and its summary are the line's (caller's contract).
        unsafe {
            let p = self.words.wrapping_add(w as usize);
            let word = *p | 1 << (v & 63);
            *p = word;
            if word == !0 {
                *self.summ.wrapping_add((w / 64) as usize) &= !(1 << (w % 64));
            }
        }
    }
}

/// A row of the band: all values below `mex` are in it.
struct Row {
    words: Vec<u64>,
    summ: Vec<u64>,
    mex: u64,
}

impl Row {
    fn line(&mut self) -> Line {
        Line {
            words: self.words.as_mut_ptr(),
            summ: self.summ.as_mut_ptr(),
        }
    }

    /// Moves `mex` past the values present, through the summaries (a row is never
    /// full to its end: it holds `width` values below `width + height`).
    fn advance(&mut self) {
        let mut w = (self.mex >> 6) as usize;
        loop {
            let word = self.words[w];
            if word != !0 {
                self.mex = ((w as u64) << 6) + (!word).trailing_zeros() as u64;
                return;
            }
            let mut b = w / 64;
            let mut open = self.summ[b] & (!1u64 << (w % 64));
            while open == 0 {
                b += 1;
                open = self.summ[b];
            }
            w = b * 64 + open.trailing_zeros() as usize;
        }
    }
}

/// Where the kernel's table goes.
pub(super) enum Output<'a> {
    /// Into `values` (`width · height` cells, storage order); with `report_rows`, each
    /// band's rows also go to [`Progress::cells_final`] once final.
    Memory {
        values: &'a mut [u32],
        report_rows: bool,
    },
    /// Only to [`Progress::cells_final`], a band's rows at a time, from a buffer of the
    /// kernel's own, reused from band to band: the kernel keeps only the half x ≥ y.
    Stream,
}

/// Fills the half table x ≥ y of Wythoff's game on `width × height` (`width ≥ height
/// ≥ 1`), and completes each band's rows from the rows above once the band is done
/// (the mirror cells x < y): into `values`, or streamed ([`Output`]). The pipeline of
/// [`super::fill`], lag 0.
///
/// Why the mirrors are not written with their cells: a band's mirror cells are 256
/// bytes in each row below it, a new cache line (and every 16th band a new page) in
/// each, written back to memory long before their row is done; copied at the end of
/// the band, a band's rows are written in one place, and a streamed table keeps only
/// half the cells (Wythoff 8192² into a file: A and B run in turn, see the README).
pub(super) fn fill(width: usize, height: usize, output: Output<'_>, progress: &dyn Progress) {
    debug_assert!(width >= height && height >= 1);
    match output {
        Output::Memory {
            values,
            report_rows,
        } => {
            debug_assert!(values.len() == width * height);
            let rows = Rows { width };
            let completion = Completion::InPlace { report_rows };
            fill_half(width, height, &rows, values, completion, progress);
        }
        Output::Stream => {
            let strips = Strips::new(width, height);
            // Two bytes a value where they fit (G(x, y) ≤ x + y < width + height).
            if width + height <= 1 << 16 {
                let mut half = vec![0u16; strips.cells()];
                fill_half(
                    width,
                    height,
                    &strips,
                    &mut half,
                    Completion::Streamed,
                    progress,
                );
            } else {
                let mut half = vec![0u32; strips.cells()];
                fill_half(
                    width,
                    height,
                    &strips,
                    &mut half,
                    Completion::Streamed,
                    progress,
                );
            }
        }
    }
}

/// A value as the half table keeps it: a `u32`, or a `u16` where every value fits.
trait Cell: Copy + Send + Into<u32> + 'static {
    /// `v`, which fits.
    fn of(v: u32) -> Self;
    /// The cells as values, if they are `u32`s.
    fn as_values(cells: &[Self]) -> Option<&[u32]>;
}

impl Cell for u32 {
    #[inline(always)]
    fn of(v: u32) -> u32 {
        v
    }
    fn as_values(cells: &[u32]) -> Option<&[u32]> {
        Some(cells)
    }
}

impl Cell for u16 {
    #[inline(always)]
    fn of(v: u32) -> u16 {
        debug_assert!(v <= u16::MAX as u32);
        v as u16
    }
    fn as_values(_: &[u16]) -> Option<&[u32]> {
        None
    }
}

/// Where the half table keeps cell (x, y), x ≥ y: at `index(x, y)`. In every layout the
/// cells x0 .. x0 + 63 of a row (x0 a multiple of 64) are consecutive, and so are the
/// cells (x, y0) .. (x, y0 + 63) of a column.
trait Layout: Sync {
    fn index(&self, x: usize, y: usize) -> usize;
}

/// The table's own order, row by row (`width` cells a row): the half is kept in the
/// caller's table and completed in place.
struct Rows {
    width: usize,
}

impl Layout for Rows {
    #[inline(always)]
    fn index(&self, x: usize, y: usize) -> usize {
        x + self.width * y
    }
}

/// Strips of 64 columns, each holding its rows 0 .. min(64 (s + 1), height) one after
/// another, 64 cells a row: the half alone, and the mirrors of a band's rows (rows
/// 64 s .. 64 s + 63 are strip s's columns) all in one strip, read in order when the
/// band is completed. Kept in the table's row order, a band's mirrors were 256 bytes
/// in each row above it, 32 KiB apart: the reads of a completion then took as long as
/// a tenth of the computation.
struct Strips {
    /// Where strip s starts.
    starts: Vec<usize>,
}

impl Strips {
    fn new(width: usize, height: usize) -> Strips {
        let mut starts = Vec::with_capacity(width.div_ceil(64) + 1);
        let mut at = 0;
        for s in 0..width.div_ceil(64) {
            starts.push(at);
            at += 64 * height.min(64 * (s + 1));
        }
        starts.push(at);
        Strips { starts }
    }

    /// Cells of all strips.
    fn cells(&self) -> usize {
        self.starts.last().copied().unwrap_or(0)
    }
}

impl Layout for Strips {
    #[inline(always)]
    fn index(&self, x: usize, y: usize) -> usize {
        self.starts[x / 64] + 64 * y + x % 64
    }
}

/// How [`fill_half`] completes a band's rows.
#[derive(Clone, Copy)]
enum Completion {
    /// In a buffer, handed to [`Progress::cells_final`].
    Streamed,
    /// In place: the half is the whole table ([`Rows`]); with `report_rows`, the rows
    /// are then reported final.
    InPlace { report_rows: bool },
}

/// [`fill`] with the half table in `half`, laid out by `layout`, each band's rows
/// completed as `completion` says.
fn fill_half<L: Layout, C: Cell>(
    width: usize,
    height: usize,
    layout: &L,
    half: &mut [C],
    completion: Completion,
    progress: &dyn Progress,
) {
    let (w, h) = (width as u64, height as u64);
    // Column x: cells (x, y), y ≤ min(x, h − 1), values and searches in
    // [x − 2y, x + y]. Diagonal d: cells (d + k, k), k ≤ min(h − 1, w − 1 − d), in
    // [d − k, d + 2k].
    let mut columns = Arena::new((0..w).map(|x| {
        let m = x.min(h - 1);
        (x.saturating_sub(2 * m) >> 6, (x + m) >> 6)
    }));
    let mut diagonals = Arena::new((0..w).map(|d| {
        let m = (h - 1).min(w - 1 - d);
        (d.saturating_sub(m) >> 6, (d + 2 * m) >> 6)
    }));
    let row_words = ((w + h) >> 6) as usize + 2;
    let threads = rayon::current_num_threads().max(1);
    let band_rows = 64.min(height);
    let bands = height.div_ceil(band_rows);
    // Each band's columns y0 .. width go in `threads` segments of about equal work, one
    // per thread, in order (the rows pass from one to the next); the segments move right
    // from band to band, so each column and diagonal stays with one thread for many
    // bands.
    let segment = |b: usize, i: usize| {
        let y0 = b * band_rows;
        y0 + (width - y0) * i / threads
    };
    let done = Done((0..bands).map(|_| AtomicUsize::new(0)).collect());
    // handed[b]: the stage that holds band b's rows (set once the one before is done).
    let handed: Vec<AtomicUsize> = (0..bands).map(|_| AtomicUsize::new(0)).collect();
    let slots: Vec<std::sync::Mutex<Option<Vec<Row>>>> =
        (0..bands).map(|_| std::sync::Mutex::new(None)).collect();
    let spare: std::sync::Mutex<Vec<Vec<Row>>> = std::sync::Mutex::new(Vec::new());
    let values_s = SharedCells::new(half);
    let columns_s = SharedArena::new(&mut columns);
    let diagonals_s = SharedArena::new(&mut diagonals);
    progress.start((width * height - height * (height - 1) / 2) as u64, "cells");
    let failed = AtomicBool::new(false);
    // Completes band b, all of whose rows and the rows above are final (rows and
    // mirrors: `complete_rows`), streams or reports its rows, and counts them done.
    let complete_band = |b: usize, buffer: &mut Vec<u32>| {
        let y0 = b * band_rows;
        let k_count = band_rows.min(height - y0);
        if let Completion::Streamed = completion {
            if buffer.is_empty() {
                buffer.resize(band_rows * width, 0);
            }
            let rows = &mut buffer[..k_count * width];
            // SAFETY: the rows above and this band's are final, and the stages at work
            // below write only cells x ≥ y of later rows.
            unsafe { complete_rows(&values_s, layout, width, y0, k_count, Some(rows)) };
            progress.cells_final(y0 * width, rows);
        } else {
            // SAFETY: as above; the cells x < y of this band's rows are written only
            // here.
            unsafe { complete_rows(&values_s, layout, width, y0, k_count, None) };
            if let Completion::InPlace { report_rows: true } = completion {
                // SAFETY: rows y0 .. y0 + k_count are final (see `super::fill`).
                let rows = unsafe { values_s.final_rows(y0, k_count, width) };
                // In place, the cells are the caller's `u32`s.
                if let Some(rows) = C::as_values(rows) {
                    progress.cells_final(y0 * width, rows);
                }
            }
        }
        progress.advance((0..k_count).map(|k| width - (y0 + k)).sum::<usize>() as u64);
    };
    // Bands final but not yet completed. Any stage completes them (in any order) when
    // it would otherwise wait, and the last stage when more than BACKLOG are waiting:
    // done by the last stage alone, the completions (a fifth of the work with a file
    // to write) held up the first stage, which can run at most a band ahead of it
    // (Wythoff 8192², 2 threads: the first stage waited 0.2 s of its 0.55 s); done by
    // a thread of their own, they took a processor from a stage in turn, which then
    // held up the other (0.57 s wall).
    let pending = std::sync::Mutex::new(std::collections::VecDeque::<usize>::new());
    let backlog = if threads > 1 { BACKLOG } else { 0 };
    let complete_one = |buffer: &mut Vec<u32>| {
        let next = pending.lock().ok().and_then(|mut p| p.pop_front());
        next.map(|b| complete_band(b, buffer)).is_some()
    };
    let sleepers: Vec<Sleeper> = (0..threads).map(|_| Sleeper::default()).collect();
    let wake_all = || {
        for s in &sleepers {
            if s.waiting.load(Ordering::SeqCst) {
                s.waiting.store(false, Ordering::Relaxed);
                if let Some(thread) = s.thread.get() {
                    thread.unpark();
                }
            }
        }
    };
    let stage = |i: usize| {
        let _guard = PanicFlag(&failed);
        let me = &sleepers[i];
        // The rows of the bands this stage completes.
        let mut buffer = Vec::new();
        let _ = me.thread.set(std::thread::current());
        for b in 0..bands {
            let y0 = b * band_rows;
            let k_count = band_rows.min(height - y0);
            let (lo, hi) = (segment(b, i), segment(b, i + 1));
            let mut rows = if i == 0 {
                let reused = spare.lock().ok().and_then(|mut s| s.pop());
                reused.unwrap_or_else(|| {
                    (0..band_rows)
                        .map(|_| Row {
                            words: vec![0; row_words],
                            summ: vec![!0; row_words.div_ceil(64) + 1],
                            mex: 0,
                        })
                        .collect()
                })
            } else {
                if me
                    .wait(
                        &failed,
                        || (handed[b].load(Ordering::SeqCst) == i).then_some(()),
                        || complete_one(&mut buffer),
                    )
                    .is_none()
                {
                    return;
                }
                let Some(rows) = slots[b].lock().ok().and_then(|mut r| r.take()) else {
                    return;
                };
                rows
            };
            let mut t = lo;
            while t < hi {
                let limit = if b == 0 {
                    hi
                } else {
                    let Some(above) = me.wait(
                        &failed,
                        || {
                            let above = done.0[b - 1].load(Ordering::SeqCst);
                            (above > t).then_some(above)
                        },
                        || complete_one(&mut buffer),
                    ) else {
                        return; // the band above will never be done
                    };
                    above
                };
                let end = limit.min(t + CHUNK).min(hi);
                for x in t..end {
                    // SAFETY: this band owns column x and the diagonals x − y of its
                    // rows (the band above is past column x, the one below not yet
                    // there, and the stages before this one in this band are done:
                    // module docs of `super`), and its cells.
                    unsafe {
                        let col = columns_s.line(x);
                        for (k, row) in rows.iter_mut().enumerate().take(k_count) {
                            let y = y0 + k;
                            if x < y {
                                break;
                            }
                            if x == y {
                                start_row(row, col, x as u64, h);
                            }
                            let g = cell(row, col, diagonals_s.line(x - y), x as u64, y as u64);
                            // SAFETY: cell (x, y) is this band's.
                            values_s.write(layout.index(x, y), C::of(g));
                        }
                    }
                }
                done.0[b].store(end, Ordering::SeqCst);
                wake_all();
                t = end;
            }
            if i + 1 < threads {
                if let Ok(mut slot) = slots[b].lock() {
                    *slot = Some(rows);
                }
                handed[b].store(i + 1, Ordering::SeqCst);
                wake_all();
                continue;
            }
            // The band is done, and so are all the bands above (this thread did their
            // last segments before).
            if let Ok(mut s) = spare.lock() {
                s.push(rows);
            }
            let Ok(mut waiting) = pending.lock() else {
                return;
            };
            waiting.push_back(b);
            let excess = waiting.len().saturating_sub(backlog);
            drop(waiting);
            for _ in 0..excess {
                complete_one(&mut buffer);
            }
        }
        // The bands still waiting, once this stage has no more to compute (the last
        // stage's, all of them).
        while complete_one(&mut buffer) {}
    };
    run_stages(threads, &stage);
    progress.finish();
}

/// A stage waiting for the band above or for its rows, asleep once it has spun for a
/// while: spinning or yielding, the waiting thread took a fifth of the samples (system
/// time: `sched_yield`) and its processor from the kernel's own work for the process
/// (page faults, write-back). A stage that publishes progress or hands rows on wakes the
/// sleeping ones.
#[derive(Default)]
struct Sleeper {
    /// The stage's thread.
    thread: std::sync::OnceLock<std::thread::Thread>,
    /// Set from the stage's last look at the band above until it is woken or sees
    /// progress. Read and set with `SeqCst`, as the `done` counters around it: either
    /// the sleeper's last look sees the progress, or the publisher sees it asleep.
    waiting: AtomicBool,
}

impl Sleeper {
    /// Until `ready` gives a value, does other work (`idle`, while it finds some), then
    /// spins, then sleeps; `None` once a stage failed.
    fn wait<T>(
        &self,
        failed: &AtomicBool,
        mut ready: impl FnMut() -> Option<T>,
        mut idle: impl FnMut() -> bool,
    ) -> Option<T> {
        let mut spins = 0u32;
        loop {
            if let Some(v) = ready() {
                self.waiting.store(false, Ordering::Relaxed);
                return Some(v);
            }
            if failed.load(Ordering::Relaxed) {
                return None;
            }
            if idle() {
                spins = 0;
                continue;
            }
            spins += 1;
            if spins < 64 {
                std::hint::spin_loop();
            } else if !self.waiting.swap(true, Ordering::SeqCst) {
                // Asleep from now on (a stage that publishes wakes it): look once
                // more before sleeping.
            } else {
                // The timeout only bounds a wait on a stage that failed.
                std::thread::park_timeout(std::time::Duration::from_millis(1));
            }
        }
    }
}

/// Bands the last stage leaves to the others to complete, beyond which it completes
/// them itself.
const BACKLOG: usize = 2;

/// Completes rows y0 .. y0 + count (within one band of 64) once they and all
/// rows above are final: their cells x < y are the mirrors (y, x), in the rows above
/// (or this band's, for x ≥ y0). Into `rows` (`count` whole rows, the cells x ≥ y
/// copied too), or in place ([`Rows`] only).
///
/// # Safety
/// Rows 0 .. y0 + count are final in their cells x ≥ y, and nobody else touches the
/// cells x < y of rows y0 .. y0 + count meanwhile.
unsafe fn complete_rows<L: Layout, C: Cell>(
    cells: &SharedCells<C>,
    layout: &L,
    width: usize,
    y0: usize,
    count: usize,
    mut rows: Option<&mut [u32]>,
) {
    // Sixteen columns (a cache line of each row written) at a time; their mirrors are
    // sixteen runs of `count` consecutive cells.
    const TILE: usize = 16;
    let end = y0 + count;
    for x0 in (0..end).step_by(TILE) {
        let x1 = (x0 + TILE).min(end);
        if let (Some(rows), true) = (rows.as_deref_mut(), x0 + TILE <= y0) {
            // A whole tile left of all the rows (most of them): each row takes the
            // tile's sixteen mirrors, the k-th of each run, the runs `stride` apart.
            let start = layout.index(y0, x0);
            let stride = layout.index(y0, x0 + 1) - start;
            // SAFETY: the runs of cells (y0 .. y0 + count, x), x in the tile, are final
            // (caller's contract); the slice spans them and what lies between, which
            // is never written during the fill either (other strips' rows, or other
            // final rows).
            let block = unsafe { cells.final_cells(start, stride * (TILE - 1) + count) };
            for (k, row) in rows.chunks_exact_mut(width).enumerate() {
                let tile = &mut row[x0..x0 + TILE];
                for (j, cell) in tile.iter_mut().enumerate() {
                    *cell = block[stride * j + k].into();
                }
            }
            continue;
        }
        let mut runs = [&[][..]; TILE];
        for x in x0..x1 {
            // Rows y > x only: k ≥ first.
            let first = (x + 1).saturating_sub(y0);
            if first < count {
                // SAFETY: cells (y, x), y0 + first ≤ y < end, are x ≥ y cells of rows
                // above (final: caller's contract), consecutive (a column below a
                // multiple of 64).
                runs[x - x0] =
                    unsafe { cells.final_cells(layout.index(y0 + first, x), count - first) };
            }
        }
        for k in 0..count {
            let y = y0 + k;
            for x in x0..x1.min(y) {
                let first = (x + 1).saturating_sub(y0);
                let v = runs[x - x0][k - first];
                match rows.as_deref_mut() {
                    Some(rows) => rows[x + width * k] = v.into(),
                    // SAFETY: cell (x, y), x < y, is the caller's to write.
                    None => unsafe { cells.write(x + width * y, v) },
                }
            }
        }
    }
    if let Some(rows) = rows {
        for k in 0..count {
            let y = y0 + k;
            let mut x = y;
            while x < width {
                let run = (x / 64 * 64 + 64).min(width) - x;
                // SAFETY: cells (x, y) .. (x + run − 1, y), x ≥ y, of a final row,
                // consecutive (within 64 columns from a multiple of 64).
                let src = unsafe { cells.final_cells(layout.index(x, y), run) };
                let dst = &mut rows[x + width * k..x + width * k + run];
                for (d, &v) in dst.iter_mut().zip(src) {
                    *d = v.into();
                }
                x += run;
            }
        }
    }
}

/// Row y = x starts as column y (its cells left of the diagonal are their mirrors).
///
/// # Safety
/// The caller owns column `x` (complete above row x).
#[inline(never)]
unsafe fn start_row(row: &mut Row, col: Line, x: u64, h: u64) {
    row.words.fill(0);
    row.summ.fill(!0);
    let m = x.min(h - 1);
    let (lo, hi) = (x.saturating_sub(2 * m) >> 6, (x + m) >> 6);
    for w in lo..=hi {
        // SAFETY: words of column x's range; the caller owns the column.
        let word = unsafe { col.word(w) };
        row.words[w as usize] = word;
        if word == !0 {
            row.summ[(w / 64) as usize] &= !(1 << (w % 64));
        }
    }
    row.mex = 0;
    row.advance();
}

/// G(x, y), x ≥ y, entered in its row, column and diagonal.
///
/// # Safety
/// The caller owns `col` (column x) and `diag` (diagonal x − y).
#[inline(always)]
unsafe fn cell(row: &mut Row, col: Line, diag: Line, x: u64, y: u64) -> u32 {
    let r = row.line();
    let start = row.mex;
    let (lo, hi) = (x.saturating_sub(2 * y), x + y);
    // The bounds that keep every word read below in the lines' ranges (module docs).
    assert!(
        start >= lo && start <= hi,
        "Wythoff bound broken at ({x}, {y})"
    );
    let hi_w = hi >> 6;
    // SAFETY: every `word`, `open` and `insert` below is of a word from `start`'s to at
    // most `hi`'s (checked), which the lines' ranges cover (module docs); the caller
    // owns the lines.
    unsafe {
        let w = start >> 6;
        let occupied = r.word(w) | col.word(w) | diag.word(w) | ((1u64 << (start & 63)) - 1);
        let g = if occupied != !0 {
            (w << 6) + (!occupied).trailing_zeros() as u64
        } else {
            let mut w = w + 1;
            'search: loop {
                assert!(w <= hi_w, "Wythoff bound broken at ({x}, {y})");
                let b = w / 64;
                let mut candidates = (!0u64 << (w % 64)) & r.open(b) & col.open(b) & diag.open(b);
                while candidates != 0 {
                    let w = b * 64 + candidates.trailing_zeros() as u64;
                    assert!(w <= hi_w, "Wythoff bound broken at ({x}, {y})");
                    let occupied = r.word(w) | col.word(w) | diag.word(w);
                    if occupied != !0 {
                        break 'search (w << 6) + (!occupied).trailing_zeros() as u64;
                    }
                    candidates &= candidates - 1;
                }
                w = (b + 1) * 64;
            }
        };
        assert!(g <= hi, "Wythoff bound broken at ({x}, {y})");
        r.insert(g);
        col.insert(g);
        diag.insert(g);
        if g == start {
            row.advance();
        }
        g as u32
    }
}

/// Has the pages of `memory` mapped writable at once (on Linux; elsewhere, and where
/// the kernel cannot, they are mapped on first touch as usual). A first read of a fresh
/// page maps the shared zero page, and the first write after it faults again and
/// flushes the page from the other threads' TLBs (an interprocessor interrupt each):
/// the line arrays are read before they are written. In one go, the pages are also
/// cleared without a fault each (Wythoff 8192²: 0.14 s of system time, not 0.19 s).
fn populate<T>(memory: &[T]) {
    populate_range(memory.as_ptr() as usize, std::mem::size_of_val(memory));
}

/// [`populate`] for the whole pages of the `bytes` bytes at address `start`, which
/// are memory of the process, mapped private and anonymous: only the kernel touches
/// them here (zeroing pages not yet mapped, leaving mapped ones alone), so the memory
/// may be in use meanwhile.
fn populate_range(start: usize, bytes: usize) {
    #[cfg(target_os = "linux")]
    {
        const PAGE: usize = 4096;
        let (first, end) = (start.div_ceil(PAGE) * PAGE, (start + bytes) / PAGE * PAGE);
        if end > first {
            // SAFETY: advice on whole pages of the caller's memory; a populated page
            // of anonymous memory reads as zero, as it did unmapped, and a mapped one
            // is left as it is. A failure (an old kernel) changes nothing.
            unsafe {
                libc::madvise(
                    first as *mut libc::c_void,
                    end - first,
                    libc::MADV_POPULATE_WRITE,
                )
            };
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (start, bytes);
}
