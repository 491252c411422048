//! The table kernel for two-heap *line games*: rook moves (any number from one heap) plus
//! diagonal moves taking from both heaps — Wythoff's game, Fraenkel's a-Wythoff,
//! generalized Ryuoh Nim.
//!
//! Why it is fast: every row and every column is a line of mutual options, so its values
//! are distinct, and the options of (x, y) along a row, a column or a diagonal band are
//! whole *prefixes* of lines. Each line keeps the set of values seen so far as a small
//! bitset window above its least unused value ("mex pointer"), and one summary bit per
//! word of the window: set unless the word is full. The value of a cell is the least
//! value at or above the largest pointer that no line (and no finite step) holds. The
//! pointers lag far behind it (on Wythoff 8192², 26 words a cell on average, about 1 700
//! values), but nearly every word on the way is filled by one line alone: the AND of the
//! lines' summaries names the few words worth reading, 64 words (4 096 values) a step.
//!
//! Order: row y may run at column x as soon as row y − 1 is done through x + lag (lag 0
//! for Wythoff and Ryuoh, 2a − 3 for a-Wythoff). Rows are grouped in bands of up to 64
//! filled column by column, so a column's window is used by the whole band while it is
//! in cache; bands are pipelined across threads (`rayon::current_num_threads()`), each
//! waiting on the progress counter of the band above. Games symmetric in x and y (band
//! ≤ 1, steps closed under (s, t) ↦ (t, s)) fill only the cells with x ≥ y (row y starts
//! from column y's set) and write each value to its mirror cell as well; tall boxes are
//! filled transposed.
//!
//! Diagonal band moves (s, t) with |s − t| < a reach line (x − y) − (s − t) in rows
//! y − t; for a ≥ 2 those lines get each cell's value `a` rows late (when the pipeline is
//! past all queries that must not see it), and the cells of the last a − 1 rows are read
//! directly. Wythoff's single diagonal (a = 1) gets it at once, while its word is in
//! cache: the next query of that line is the next cell down the diagonal.
//!
//! Wythoff's game itself (normal play) on a box filled by halves has a kernel of its own,
//! [`wythoff`]: the same pipeline, with lines at fixed places instead of windows, since
//! its values are bounded by the cell's coordinates. Each band of rows, once final, goes
//! to [`Progress::cells_final`], so that a caller can write it out while the rest is
//! computed.

use crate::error::{Error, Result};
use crate::progress::Progress;
use std::marker::PhantomData;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

mod wythoff;

/// Wythoff's game, which has a kernel of its own ([`wythoff`]).
const WYTHOFF: LineMoves = LineMoves {
    diagonal_band: 1,
    steps: Vec::new(),
};

/// The moves of a line game on positions (x, y) ∈ N², besides the rook moves
/// (x, y) → (u, y), u < x and (x, y) → (x, v), v < y, which every line game has.
///
/// A [`crate::Game`] declares this through [`crate::capability::Capabilities::line_moves`]; then
/// [`crate::grundy_table`] fills its two-coordinate tables with [`line_table`].
///
/// ```
/// use nimlab_engine::kernels::line::{line_table, LineMoves};
/// use nimlab_engine::NoProgress;
/// // Wythoff's game: the whole equal diagonal.
/// let wythoff = LineMoves { diagonal_band: 1, steps: vec![] };
/// let t = line_table(&wythoff, 0, 6, 6, &NoProgress).unwrap();
/// assert_eq!(t[1 + 6 * 2], 0); // (1, 2) is a P-position
/// assert_eq!(t[3 + 6 * 5], 0); // (3, 5) too
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LineMoves {
    /// Take (s, t) from both heaps for every s, t ≥ 1 with |s − t| < `diagonal_band`:
    /// 0 = no such move, 1 = Wythoff's equal diagonal, a = Fraenkel's a-Wythoff.
    pub diagonal_band: u64,
    /// Further moves taking (s, t) from both heaps, s, t ≥ 1 (Ryuoh's s + t ≤ p − 1).
    pub steps: Vec<(u64, u64)>,
}

/// Steps (columns of a band) a pipeline stage handles between two looks at its
/// neighbour's progress, and between two publications of its own: the band below may
/// trail by up to this much. 64 rather than 512: with 512, the band below, as fast as
/// this one, often waited for the next publication (Wythoff 8192² on 2 threads, A and
/// B run in turn, medians of 5: 0.89 of the wall time with 64; 16 is no better).
const CHUNK: usize = 64;

/// Words a summary word covers: bit i of the summary of block b is about word
/// 64·b + i of the line.
const BLOCK: u64 = 64;

/// The set of values of one line seen so far: everything below `mex`, plus the bits of
/// its stored words, which hold the word indices `lo .. lo + len` (`buf[..len]`), each
/// summarised by one bit: bit i of summary j (`buf[len + j]`) is clear when word
/// 64·(lo / 64 + j) + i is full, set otherwise (words outside the window are empty;
/// bits of words below `mex` are not looked at), so a search skips the words one line
/// fills alone, 64 at a time. The summaries cover the blocks of the window's words, and
/// share the words' allocation (one allocation a line: a long strip has millions of
/// lines). Values are inserted once each (a line's values are distinct) and never
/// removed.
#[derive(Default, Clone)]
struct LineSet {
    mex: u64,
    lo: u64,
    len: usize,
    buf: Vec<u64>,
}

impl LineSet {
    /// Index in `buf` of the summary of word `w` (in the window).
    #[inline(always)]
    fn summary_of(&self, w: u64) -> usize {
        self.len + (w / BLOCK - self.lo / BLOCK) as usize
    }

    /// Adds `v`, which is not in the set (so `v ≥ mex`).
    #[inline(always)]
    fn insert(&mut self, v: u64) {
        debug_assert!(v >= self.mex);
        let w = v >> 6;
        let i = w.wrapping_sub(self.lo) as usize;
        if i < self.len {
            let word = self.buf[i] | 1 << (v & 63);
            self.buf[i] = word;
            if word == !0 {
                let j = self.summary_of(w);
                self.buf[j] &= !(1 << (w % BLOCK));
            }
            if v == self.mex {
                self.advance();
            }
        } else {
            self.insert_outside(v);
        }
    }

    /// [`LineSet::insert`] of a value outside the window: extends the window (and its
    /// summaries) to the value's word first.
    #[inline(never)]
    fn insert_outside(&mut self, v: u64) {
        let w = v >> 6;
        if self.len == 0 {
            self.lo = w;
            self.len = 1;
            self.buf.clear();
            self.buf.extend([0, !0]);
        } else if w < self.lo {
            let grow = (self.lo - w) as usize;
            let new_blocks = (self.lo / BLOCK - w / BLOCK) as usize;
            self.buf.splice(0..0, std::iter::repeat_n(0, grow));
            self.len += grow;
            self.lo = w;
            let at = self.len;
            self.buf.splice(at..at, std::iter::repeat_n(!0, new_blocks));
        } else {
            let grow = (w - self.lo) as usize + 1 - self.len;
            let old_end_block = (self.lo + self.len as u64 - 1) / BLOCK;
            let at = self.len;
            self.buf.splice(at..at, std::iter::repeat_n(0, grow));
            self.len += grow;
            let new_blocks = (w / BLOCK - old_end_block) as usize;
            self.buf.extend(std::iter::repeat_n(!0, new_blocks));
        }
        // A word that was empty is not full with one more bit.
        self.buf[(w - self.lo) as usize] |= 1 << (v & 63);
        if v == self.mex {
            self.advance();
        }
    }

    /// Moves `mex` (whose word is in the window) past the values present, and drops
    /// words wholly below it.
    #[inline(never)]
    fn advance(&mut self) {
        let mut w = self.mex >> 6;
        loop {
            let i = w.wrapping_sub(self.lo) as usize;
            let word = if i < self.len { self.buf[i] } else { 0 };
            if word != !0 {
                self.mex = (w << 6) + (!word).trailing_zeros() as u64;
                break;
            }
            // The next word that is not full, through the summaries: words outside
            // the window are empty, so their bits are set.
            let mut j = self.summary_of(w);
            let mut open = self.buf[j] & (!1u64 << (w % BLOCK));
            while open == 0 {
                j += 1;
                match self.buf.get(j) {
                    Some(&o) => open = o,
                    None => {
                        open = 1;
                        break;
                    }
                }
            }
            w = (self.lo / BLOCK + (j - self.len) as u64) * BLOCK + open.trailing_zeros() as u64;
        }
        let below = ((self.mex >> 6).saturating_sub(self.lo) as usize).min(self.len);
        if below == self.len {
            self.len = 0;
            self.buf.clear();
        } else if below >= 8 && 2 * below >= self.len {
            let gone = ((self.lo + below as u64) / BLOCK - self.lo / BLOCK) as usize;
            self.buf.drain(..below);
            self.len -= below;
            self.lo += below as u64;
            let at = self.len;
            self.buf.drain(at..at + gone);
        }
    }

    fn clear(&mut self) {
        self.mex = 0;
        self.lo = 0;
        self.len = 0;
        self.buf.clear();
    }
}

/// The table's cells while the pipeline's threads share them. A cell is only ever
/// touched by value through the raw pointer — [`SharedCells::read`] copies it out,
/// [`SharedCells::write`] stores it — so no reference (`&mut` or `&`) to a cell exists
/// while the table is shared, and two threads reading one final cell at once (a band
/// and the band below it both reading the cells of the band above, say) never hold
/// aliasing `&mut`s. Race freedom is the pipeline's ordering, stated at each call.
struct SharedCells<'a, T = u32> {
    ptr: *mut T,
    len: usize,
    /// The cells are borrowed mutably for `'a`: nothing else touches them meanwhile.
    _cells: PhantomData<&'a mut [T]>,
}

// SAFETY: a `SharedCells` is only a pointer to plain numbers (`u32`s or `u16`s, `Send`); every access
// goes through the unsafe `read`/`write`, whose callers guarantee that no cell is
// written while another thread reads or writes it.
unsafe impl<T: Send> Sync for SharedCells<'_, T> {}
// SAFETY: as for `Sync` above: the pointer may move to another thread, the callers of
// `read`/`write` keep the accesses apart.
unsafe impl<T: Send> Send for SharedCells<'_, T> {}

impl<'a, T: Copy> SharedCells<'a, T> {
    fn new(cells: &'a mut [T]) -> Self {
        SharedCells {
            ptr: cells.as_mut_ptr(),
            len: cells.len(),
            _cells: PhantomData,
        }
    }

    /// Rows `first .. first + count` of a table `width` cells wide, which are final.
    ///
    /// # Safety
    /// The rows are in bounds and nobody writes them again; other threads may still
    /// read their cells by value (through [`SharedCells::read`]), which a shared slice
    /// allows.
    unsafe fn final_rows(&self, first: usize, count: usize, width: usize) -> &[T] {
        // SAFETY: the caller's.
        unsafe { self.final_cells(first * width, count * width) }
    }

    /// Cells `first .. first + count`, which are final.
    ///
    /// # Safety
    /// As for [`SharedCells::final_rows`].
    unsafe fn final_cells(&self, first: usize, count: usize) -> &[T] {
        debug_assert!(first + count <= self.len);
        // SAFETY: the caller's.
        unsafe { std::slice::from_raw_parts(self.ptr.add(first).cast_const(), count) }
    }

    /// The value of cell `i`.
    ///
    /// # Safety
    /// `i < len`, and no thread writes cell `i` until this read happens-before that
    /// write: the cell is final (published through a `done` counter, or written earlier
    /// by this thread), or nobody writes it at all in this phase.
    #[inline(always)]
    unsafe fn read(&self, i: usize) -> T {
        debug_assert!(i < self.len);
        // SAFETY: in bounds, and no write races with this read (caller's contract).
        unsafe { std::ptr::read(self.ptr.add(i)) }
    }

    /// Stores `v` in cell `i`.
    ///
    /// # Safety
    /// `i < len`, and cell `i` is owned by the calling thread: no other thread reads or
    /// writes it until this write happens-before that access (a `done` counter
    /// published with Release and read with Acquire, or the end of the phase).
    #[inline(always)]
    unsafe fn write(&self, i: usize, v: T) {
        debug_assert!(i < self.len);
        // SAFETY: in bounds, and no other access races with this write (caller's
        // contract).
        unsafe { std::ptr::write(self.ptr.add(i), v) }
    }
}

/// The line sets (columns or diagonals) while the pipeline's threads share them. Unlike
/// cells, a line is owned by one pipeline stage at a time — the band that is at its
/// column, or whose rows query it — and handed to the band below through the `done`
/// counters (Release on publish, Acquire on read); only the owner ever makes a
/// reference to it.
struct SharedLines<'a> {
    ptr: *mut LineSet,
    len: usize,
    _lines: PhantomData<&'a mut [LineSet]>,
}

// SAFETY: a `LineSet` is `Send`; every access goes through the unsafe `get`, whose
// callers own the line (no other thread touches it meanwhile).
unsafe impl Sync for SharedLines<'_> {}
// SAFETY: as for `Sync` above: a line set may move to another thread, its owner alone
// reads it.
unsafe impl Send for SharedLines<'_> {}

impl<'a> SharedLines<'a> {
    fn new(lines: &'a mut [LineSet]) -> Self {
        SharedLines {
            ptr: lines.as_mut_ptr(),
            len: lines.len(),
            _lines: PhantomData,
        }
    }

    /// Line `i`, to read or update.
    ///
    /// # Safety
    /// `i < len`; the calling stage owns line `i` (pipeline protocol of [`line_table`]):
    /// no other thread accesses it while the reference lives, and this thread holds no
    /// other reference to it.
    #[inline(always)]
    #[allow(clippy::mut_from_ref)]
    unsafe fn get(&self, i: usize) -> &mut LineSet {
        debug_assert!(i < self.len);
        // SAFETY: in bounds, and exclusively owned by the caller (caller's contract).
        unsafe { &mut *self.ptr.add(i) }
    }
}

/// A row's progress: how many of its cells are final (and inserted where they belong).
struct Done(Vec<AtomicUsize>);

/// Upper bound on any value of the table: a position's value is at most its number of
/// options.
fn value_bound(moves: &LineMoves, width: usize, height: usize) -> u64 {
    let (w, h) = (width as u64, height as u64);
    let m = w.min(h);
    w + h + moves.diagonal_band.saturating_mul(2).saturating_mul(m) + moves.steps.len() as u64
}

/// Bytes [`line_table`] needs for a `width × height` table: the values (4 bytes a cell),
/// the line structures and their bitset windows. A line's window spans from its mex
/// pointer to its largest value; measured on Wythoff and Ryuoh tables (8192², 16384²,
/// 4·10⁶ × 32) the windows take under 0.5 bytes a cell plus about 100 bytes a line
/// (their summaries, one bit a word in the same allocation, add little: the 4·10⁶ × 32
/// Wythoff strip peaks at 1.25 GB, 1.19 GB without them, 1.81 GB with them allocated
/// apart); this estimate allows 0.75 bytes a cell and the line structure plus 64 bytes
/// (112 bytes) a line (that strip: 1.50 GB). A symmetric game on a
/// box taller than wide is filled transposed, which needs a second copy of the values.
///
/// ```
/// use nimlab_engine::kernels::line::{line_table_bytes, LineMoves};
/// let w = LineMoves { diagonal_band: 1, steps: vec![] };
/// let bytes = line_table_bytes(&w, 1000, 1000).unwrap();
/// assert!(bytes >= 4 * 1000 * 1000);
/// ```
pub fn line_table_bytes(moves: &LineMoves, width: usize, height: usize) -> Result<u64> {
    let too_large = || Error::input("table box is too large");
    let cells = (width as u64)
        .checked_mul(height as u64)
        .ok_or_else(too_large)?;
    let diag_lines = if moves.diagonal_band > 0 {
        width as u64 + height as u64 + 2 * moves.diagonal_band
    } else {
        0
    };
    let lines = width as u64 + diag_lines + 64;
    let line_bytes = lines * (std::mem::size_of::<LineSet>() as u64 + 64);
    let value_copies = if is_symmetric(moves) && height > width {
        8
    } else {
        4
    };
    cells
        .checked_mul(value_copies)
        .and_then(|b| b.checked_add(3 * cells / 4))
        .and_then(|b| b.checked_add(line_bytes))
        .ok_or_else(too_large)
}

/// Whether G(x, y) = G(y, x) follows from the moves alone (and the kernel may fill half a
/// table): a band of at most one diagonal and steps closed under (s, t) ↦ (t, s).
fn is_symmetric(moves: &LineMoves) -> bool {
    // A set, not `contains` on the list: p²/2 steps would cost p⁴ (minutes at p = 1024).
    moves.diagonal_band <= 1 && {
        let steps: rustc_hash::FxHashSet<&(u64, u64)> = moves.steps.iter().collect();
        moves.steps.iter().all(|&(s, t)| steps.contains(&(t, s)))
    }
}

/// Grundy values of the line game `moves` on the box `[0, width) × [0, height)`, stored
/// as `values[x + width * y]`. `terminal_value` is the value of (0, 0) (0 in normal
/// play). Uses up to `rayon::current_num_threads()` threads.
///
/// ```
/// use nimlab_engine::kernels::line::{line_table, LineMoves};
/// use nimlab_engine::NoProgress;
/// // Ryuoh Nim (p = 3): one diagonal step (1, 1). Table 1 of the paper: G(4, 7) = 11.
/// let ryuoh = LineMoves { diagonal_band: 0, steps: vec![(1, 1)] };
/// let t = line_table(&ryuoh, 0, 13, 13, &NoProgress).unwrap();
/// assert_eq!(t[4 + 13 * 7], 11);
/// ```
pub fn line_table(
    moves: &LineMoves,
    terminal_value: u32,
    width: usize,
    height: usize,
    progress: &dyn Progress,
) -> Result<Vec<u32>> {
    check_value_range(moves, terminal_value, width, height)?;
    let mut values = vec![0u32; width * height];
    line_table_into(moves, terminal_value, width, height, progress, &mut values)?;
    Ok(values)
}

/// Refuses a box whose values might not fit in 32 bits.
fn check_value_range(
    moves: &LineMoves,
    terminal_value: u32,
    width: usize,
    height: usize,
) -> Result<()> {
    if value_bound(moves, width, height) + terminal_value as u64 >= (u32::MAX - 1) as u64 {
        return Err(Error::input(format!(
            "table {width}x{height} may hold values beyond 32 bits"
        )));
    }
    Ok(())
}

/// [`line_table`] into `values` (`width · height` cells, any contents: every cell is
/// written), so a caller can have the table computed straight into memory of its own —
/// a memory-mapped output file, say.
///
/// ```
/// use nimlab_engine::kernels::line::{line_table_into, LineMoves};
/// use nimlab_engine::NoProgress;
/// let wythoff = LineMoves { diagonal_band: 1, steps: vec![] };
/// let mut t = vec![7u32; 36];
/// line_table_into(&wythoff, 0, 6, 6, &NoProgress, &mut t).unwrap();
/// assert_eq!(t[1 + 6 * 2], 0); // (1, 2) is a P-position
/// ```
pub fn line_table_into(
    moves: &LineMoves,
    terminal_value: u32,
    width: usize,
    height: usize,
    progress: &dyn Progress,
    values: &mut [u32],
) -> Result<()> {
    check_value_range(moves, terminal_value, width, height)?;
    if values.len() != width * height {
        return Err(Error::input(format!(
            "a {width}x{height} table has {} cells, the buffer {}",
            width * height,
            values.len()
        )));
    }
    let symmetric = is_symmetric(moves);
    if symmetric && height > width {
        // Mirror symmetric games: fill the transposed box (wide, so half of it is
        // filled by symmetry) and transpose.
        let mut t = vec![0u32; width * height];
        fill(
            moves,
            terminal_value,
            height,
            width,
            true,
            false,
            progress,
            &mut t,
        )?;
        for (x, column) in t.chunks(height).enumerate() {
            for (y, &v) in column.iter().enumerate() {
                values[x + width * y] = v;
            }
        }
        progress.cells_final(0, values);
        return Ok(());
    }
    fill(
        moves,
        terminal_value,
        width,
        height,
        symmetric,
        true,
        progress,
        values,
    )
}

/// Whether Wythoff's own kernel fills this box: Wythoff's game in normal play, filled by
/// halves.
fn has_own_kernel(
    moves: &LineMoves,
    terminal_value: u32,
    width: usize,
    height: usize,
    symmetric: bool,
) -> bool {
    symmetric && width >= height && height > 0 && terminal_value == 0 && *moves == WYTHOFF
}

/// [`line_table`], with every cell handed to [`Progress::cells_final`] once (a band of
/// rows at a time, in no particular order) instead of returned, for a caller that
/// writes the table out as it is computed. Wythoff's own kernel then keeps only half the
/// table in memory; the other line games fill a table of their own and report its rows
/// as they become final.
///
/// ```
/// use nimlab_engine::kernels::line::{line_table_streamed, LineMoves};
/// use nimlab_engine::Progress;
/// use std::sync::Mutex;
/// struct Collect(Mutex<Vec<u32>>);
/// impl Progress for Collect {
///     fn start(&self, _: u64, _: &str) {}
///     fn advance(&self, _: u64) {}
///     fn cells_final(&self, first: usize, cells: &[u32]) {
///         self.0.lock().unwrap()[first..first + cells.len()].copy_from_slice(cells);
///     }
/// }
/// let wythoff = LineMoves { diagonal_band: 1, steps: vec![] };
/// let table = Collect(Mutex::new(vec![0; 36]));
/// line_table_streamed(&wythoff, 0, 6, 6, &table).unwrap();
/// assert_eq!(table.0.lock().unwrap()[2 + 6 * 1], 0); // (2, 1) is a P-position
/// ```
pub fn line_table_streamed(
    moves: &LineMoves,
    terminal_value: u32,
    width: usize,
    height: usize,
    progress: &dyn Progress,
) -> Result<()> {
    check_value_range(moves, terminal_value, width, height)?;
    if has_own_kernel(moves, terminal_value, width, height, is_symmetric(moves)) {
        wythoff::fill(width, height, wythoff::Output::Stream, progress);
        return Ok(());
    }
    // `line_table` reports every row once final.
    line_table(moves, terminal_value, width, height, progress).map(drop)
}

/// [`fill_lines`], or Wythoff's own kernel for Wythoff's game (normal play) on a box
/// filled by halves.
#[allow(clippy::too_many_arguments)]
fn fill(
    moves: &LineMoves,
    terminal_value: u32,
    width: usize,
    height: usize,
    symmetric: bool,
    report_rows: bool,
    progress: &dyn Progress,
    values: &mut [u32],
) -> Result<()> {
    if has_own_kernel(moves, terminal_value, width, height, symmetric) {
        let output = wythoff::Output::Memory {
            values,
            report_rows,
        };
        wythoff::fill(width, height, output, progress);
        return Ok(());
    }
    fill_lines(
        moves,
        terminal_value,
        width,
        height,
        symmetric,
        report_rows,
        progress,
        values,
    )
}

/// [`line_table`] on a box; with `symmetric` (G(x, y) = G(y, x), `width ≥ height`) only
/// the cells with x ≥ y are computed and the others are mirrored. With `report_rows`,
/// each band's rows go to [`Progress::cells_final`] once the band is done.
#[allow(clippy::too_many_arguments)]
fn fill_lines(
    moves: &LineMoves,
    terminal_value: u32,
    width: usize,
    height: usize,
    symmetric: bool,
    report_rows: bool,
    progress: &dyn Progress,
    values: &mut [u32],
) -> Result<()> {
    // Over 100 lines because it is the line kernel's hot loop (bench line_kernel): the
    // row, column and diagonal bitsets of one sweep stay local to one body.
    let half = symmetric && width >= height;
    let cells = width * height;
    if cells == 0 {
        return Ok(());
    }
    let band = moves.diagonal_band as usize;
    // Cells read directly: the finite steps, and the diagonal band's cells in the rows
    // not yet inserted into their lines (offsets (dx, dy): the cell (x − dx, y − dy)).
    let mut offsets: Vec<(usize, usize)> = moves
        .steps
        .iter()
        .filter(|&&(s, t)| s >= 1 && t >= 1 && (s as usize) < width && (t as usize) < height)
        .map(|&(s, t)| (s as usize, t as usize))
        .collect();
    for d in -(band as i64 - 1)..=(band as i64 - 1) {
        let j_min = if d >= 0 { 1 } else { 1 - d };
        for j in j_min..band as i64 {
            offsets.push(((d + j) as usize, j as usize));
        }
    }
    offsets.sort_unstable();
    offsets.dedup();
    // A band member (s, t) with |s − t| < a is covered by the lines; drop it from steps.
    offsets.retain(|&(dx, dy)| {
        let in_band = (dx as i64 - dy as i64).unsigned_abs() < band as u64;
        !(in_band && dy >= band)
    });

    // Wythoff's lines: the hot loop without the general band's and the steps' work.
    let plain = band == 1 && offsets.is_empty();
    let threads = rayon::current_num_threads().max(1);
    // Row y may run at x once row y − 1 is done through x + lag (see module docs).
    let lag = (2 * band).saturating_sub(3);
    // Rows go in bands of `band_rows`, filled column by column (row k of a band `lag`
    // columns behind row k − 1), so a column's and a diagonal's windows are touched by
    // all rows of the band while they are in cache. Bands are pipelined across threads.
    let band_rows = (height / (4 * threads)).clamp(8, 64).min(height);
    let bands = height.div_ceil(band_rows);
    let mut columns = vec![LineSet::default(); width];
    let diag_count = if band > 0 {
        width + height + 2 * band
    } else {
        0
    };
    let mut diagonals = vec![LineSet::default(); diag_count];
    // Diagonal line x − y − d lives at index x − y − d + diag_shift.
    let diag_shift = height + band;
    // done[b]: cells of the last row of band b that are final.
    let done = Done((0..bands).map(|_| AtomicUsize::new(0)).collect());
    let threads = threads.min(bands);

    let values_s = SharedCells::new(values);
    let columns_s = SharedLines::new(&mut columns);
    let diagonals_s = SharedLines::new(&mut diagonals);
    let geo = Geometry {
        width,
        height,
        band,
        diag_shift,
        terminal_value,
        half,
    };
    let computed = if half {
        cells - height * (height - 1) / 2
    } else {
        cells
    };
    progress.start(computed as u64, "cells");
    // Set when a stage panics, so that the stages waiting on its band stop waiting
    // (the panic then reaches the caller through the thread scope).
    let failed = AtomicBool::new(false);
    let stage = |first_band: usize| {
        let _guard = PanicFlag(&failed);
        let mut rows = vec![LineSet::default(); band_rows];
        let mut near: Vec<u64> = Vec::with_capacity(offsets.len());
        let mut b = first_band;
        while b < bands {
            let y0 = b * band_rows;
            let k_count = band_rows.min(height - y0);
            rows.iter_mut().for_each(LineSet::clear);
            // Step t: row k of the band fills column t − k·lag.
            let steps = width + (k_count - 1) * lag;
            // In the half table row y starts at x = y.
            let mut t = if half { y0 } else { 0 };
            while t < steps {
                // How far the band above lets row 0 go.
                let limit = if b == 0 {
                    steps
                } else {
                    let mut spins = 0u32;
                    loop {
                        let above = done.0[b - 1].load(Ordering::Acquire);
                        let limit = if above >= width {
                            steps
                        } else {
                            above.saturating_sub(lag)
                        };
                        if limit > t {
                            break limit;
                        }
                        if failed.load(Ordering::Relaxed) {
                            return; // the band above will never be done
                        }
                        spins += 1;
                        if spins < 64 {
                            std::hint::spin_loop();
                        } else {
                            std::thread::yield_now();
                        }
                    }
                };
                let end = limit.min(t + CHUNK);
                for step in t..end {
                    for (k, row) in rows.iter_mut().enumerate().take(k_count) {
                        let y = y0 + k;
                        let Some(x) = step
                            .checked_sub(k * lag)
                            .filter(|&x| x < width && (!half || x >= y))
                        else {
                            continue;
                        };
                        if half && x == y {
                            // Row y left of the diagonal mirrors column y, now complete
                            // above row y.
                            // SAFETY: this band is at column y, so it owns column y's
                            // line (the band above is past it, the one below not there).
                            row.clone_from(unsafe { columns_s.get(y) });
                        }
                        // SAFETY: this band owns its cells, the column lines of the
                        // columns it is at and the diagonal lines they touch; the band
                        // above is final far enough (checked above; module docs).
                        unsafe {
                            if plain {
                                fill_cell::<true>(
                                    &values_s,
                                    &columns_s,
                                    &diagonals_s,
                                    row,
                                    &mut near,
                                    &offsets,
                                    geo,
                                    x,
                                    y,
                                );
                            } else {
                                fill_cell::<false>(
                                    &values_s,
                                    &columns_s,
                                    &diagonals_s,
                                    row,
                                    &mut near,
                                    &offsets,
                                    geo,
                                    x,
                                    y,
                                );
                            }
                        }
                    }
                }
                let last_row_done = end.saturating_sub((k_count - 1) * lag).min(width);
                done.0[b].store(last_row_done, Ordering::Release);
                t = end;
            }
            if report_rows {
                // Rows y0 .. y0 + k_count are final: the band wrote its cells and the
                // mirrors of its rows' cells left of the diagonal come from the bands
                // above, all done (this band ran only as far as each let it, and its
                // last steps needed the band above done through its last column, which
                // needed the one above it, and so on).
                // SAFETY: the rows are in bounds and nobody writes them again.
                let rows = unsafe { values_s.final_rows(y0, k_count, width) };
                progress.cells_final(y0 * width, rows);
            }
            progress.advance(
                (0..k_count)
                    .map(|k| width - if half { y0 + k } else { 0 })
                    .sum::<usize>() as u64,
            );
            b += threads;
        }
    };
    run_stages(threads, &stage);
    progress.finish();
    Ok(())
}

/// Runs `stage(0)` on this thread and `stage(1)` … `stage(threads − 1)` on threads of
/// their own, until all return.
fn run_stages(threads: usize, stage: &(dyn Fn(usize) + Sync)) {
    if threads <= 1 {
        stage(0);
        return;
    }
    std::thread::scope(|scope| {
        let workers: Vec<_> = (1..threads)
            .map(|t| scope.spawn(move || stage(t)))
            .collect();
        stage(0);
        // A worker's panic goes on with its own payload: left to the scope, it would
        // become "a scoped thread panicked", and callers tell a cancellation (a
        // progress that unwinds with its own payload type) from a fault by that type.
        for worker in workers {
            if let Err(payload) = worker.join() {
                std::panic::resume_unwind(payload);
            }
        }
    });
}

/// The widest diagonal band the kernel takes (its lines are scanned from a stack
/// array); [`crate::grundy_table`] leaves wider bands to the generic solver.
pub const MAX_BAND: usize = 16;

/// Marks `0` when the thread holding it unwinds from a panic.
struct PanicFlag<'a>(&'a AtomicBool);

impl Drop for PanicFlag<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.store(true, Ordering::Relaxed);
        }
    }
}

/// A read view of a line's stored words and their summaries, for the hot search loop.
/// It borrows the line (`'a`), so the words cannot change or go while the cursor is
/// used.
#[derive(Clone, Copy)]
struct Cursor<'a> {
    words: *const u64,
    lo: u64,
    len: u64,
    open: *const u64,
    open_lo: u64,
    open_len: u64,
    line: std::marker::PhantomData<&'a [u64]>,
}

impl<'a> Cursor<'a> {
    const EMPTY: Cursor<'static> = Cursor {
        words: std::ptr::null(),
        lo: 0,
        len: 0,
        open: std::ptr::null(),
        open_lo: 0,
        open_len: 0,
        line: std::marker::PhantomData,
    };

    #[inline(always)]
    fn of(set: &'a LineSet) -> Self {
        let (words, open) = set.buf.split_at(set.len);
        Cursor {
            words: words.as_ptr(),
            lo: set.lo,
            len: set.len as u64,
            open: open.as_ptr(),
            open_lo: set.lo / BLOCK,
            open_len: open.len() as u64,
            line: std::marker::PhantomData,
        }
    }

    /// The stored bits of word `w` (0 outside the window). Bits below the line's mex
    /// are not needed: the search starts at or above every line's mex.
    #[inline(always)]
    fn stored(self, w: u64) -> u64 {
        let i = w.wrapping_sub(self.lo);
        if i < self.len {
            // SAFETY: i < len, the length of the words the cursor was made from, which
            // it borrows: they are not modified or freed while the cursor lives.
            unsafe { *self.words.add(i as usize) }
        } else {
            0
        }
    }

    /// The summary of block `b`: bit i set unless word 64·b + i is full. Outside the
    /// summaries every word is open (the search never asks below the line's mex).
    #[inline(always)]
    fn open(self, b: u64) -> u64 {
        let j = b.wrapping_sub(self.open_lo);
        if j < self.open_len {
            // SAFETY: j < open_len, the length of the summaries the cursor borrows.
            unsafe { *self.open.add(j as usize) }
        } else {
            !0
        }
    }
}

/// The least value ≥ `start` in none of the lines and not in `near`, where `start` is at
/// least every line's mex. Only the words that no line fills alone are looked at: the
/// AND of the lines' summaries gives them, 64 words (4096 values) a step.
#[inline(always)]
fn scan(start: u64, lines: &[Cursor<'_>], near: &[u64]) -> u64 {
    let near_bits = |w: u64| {
        let mut bits = 0u64;
        for &v in near {
            if v >> 6 == w {
                bits |= 1 << (v & 63);
            }
        }
        bits
    };
    let word = |w: u64| {
        let mut occupied = near_bits(w);
        for c in lines {
            occupied |= c.stored(w);
        }
        occupied
    };
    let w = start >> 6;
    let occupied = word(w) | ((1u64 << (start & 63)) - 1);
    if occupied != !0 {
        return (w << 6) + (!occupied).trailing_zeros() as u64;
    }
    let mut w = w + 1;
    loop {
        let b = w / BLOCK;
        let mut candidates = !0u64 << (w % BLOCK);
        for c in lines {
            candidates &= c.open(b);
        }
        while candidates != 0 {
            let w = b * BLOCK + candidates.trailing_zeros() as u64;
            let occupied = word(w);
            if occupied != !0 {
                return (w << 6) + (!occupied).trailing_zeros() as u64;
            }
            candidates &= candidates - 1;
        }
        w = (b + 1) * BLOCK;
    }
}

#[derive(Clone, Copy)]
struct Geometry {
    width: usize,
    height: usize,
    band: usize,
    diag_shift: usize,
    terminal_value: u32,
    half: bool,
}

/// Fills cell (x, y), whose row set is `row`.
///
/// # Safety
/// The caller owns the cell, its column line and the diagonal lines it queries, and the
/// cells it reads are final (pipeline protocol of [`line_table`]). Cells are read and
/// written by value only ([`SharedCells`]); lines are borrowed one at a time.
/// `PLAIN`: the game's lines are Wythoff's (band 1, no finite steps), known at compile
/// time so that the general band's and the steps' work drops out of the hot loop.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
unsafe fn fill_cell<const PLAIN: bool>(
    values: &SharedCells,
    columns: &SharedLines,
    diagonals: &SharedLines,
    row: &mut LineSet,
    near: &mut Vec<u64>,
    offsets: &[(usize, usize)],
    geo: Geometry,
    x: usize,
    y: usize,
) {
    // SAFETY: the caller keeps the pipeline protocol stated above, which is what the
    // shared cells' and lines' accessors require.
    unsafe {
        let Geometry {
            width,
            height,
            band,
            diag_shift,
            terminal_value,
            half,
        } = geo;
        let band = if PLAIN { 1 } else { band };
        let offsets: &[(usize, usize)] = if PLAIN { &[] } else { offsets };
        if band > 1 && y >= band && x >= 1 {
            // Cell (x − 1, y − a) joins its diagonal line now: every query that must not
            // see it has been made. (With a = 1 a cell joins its line at once, below.)
            // SAFETY: cell (x − 1, y − a), in an earlier row and column, is final: written
            // at an earlier step of this band or published by the bands above, which are
            // past column x. Nobody writes it again.
            let v = values.read(x - 1 + width * (y - band)) as u64;
            diagonals.get(x - 1 + band + diag_shift - y).insert(v);
        }
        let g = if x == 0 && y == 0 {
            terminal_value as u64
        } else {
            near.clear();
            for &(dx, dy) in offsets {
                if dx <= x && dy <= y {
                    let (u, v) = (x - dx, y - dy);
                    // In the half table a cell left of the diagonal is read at its mirror.
                    let i = if half && u < v {
                        v + width * u
                    } else {
                        u + width * v
                    };
                    // SAFETY: the cell read is in an earlier row and column (dx, dy ≥ 1;
                    // mirrored: row u < y, column v < y ≤ x), so it is final: written at an
                    // earlier step of this band or published by the bands above through
                    // `done` (Acquire). Other bands may read it at the same time (by value,
                    // no reference); nobody writes it again.
                    near.push(values.read(i) as u64);
                }
            }
            let col = columns.get(x);
            let mut start = row.mex.max(col.mex);
            // Diagonal lines x − y − d for |d| < a, at indices x − y + diag_shift − d.
            let diag_hi = x + diag_shift - y + band; // exclusive; index of d = −a
            let diag_lo = diag_hi + 1 - 2 * band.max(1);
            if band > 0 {
                for i in diag_lo..diag_hi {
                    start = start.max(diagonals.get(i).mex);
                }
            }
            let row_c = Cursor::of(row);
            let col_c = Cursor::of(col);
            match band {
                0 => scan(start, &[row_c, col_c], near),
                1 => scan(
                    start,
                    &[row_c, col_c, Cursor::of(diagonals.get(diag_lo))],
                    if PLAIN { &[] } else { near },
                ),
                _ => {
                    let mut lines = [Cursor::EMPTY; 2 * MAX_BAND + 1];
                    lines[0] = row_c;
                    lines[1] = col_c;
                    for (c, i) in lines[2..].iter_mut().zip(diag_lo..diag_hi) {
                        *c = Cursor::of(diagonals.get(i));
                    }
                    scan(start, &lines[..2 + diag_hi - diag_lo], near)
                }
            }
        };
        // SAFETY: cell (x, y) belongs to this band's row y; nobody else reads it before the
        // band publishes column x through `done` (Release), after this write.
        values.write(x + width * y, g as u32);
        if half && x != y && x < height {
            // SAFETY: the mirror (y, x), y < x, is left of the diagonal: no cell query
            // reads it during the fill (they read its mirror, this cell), and only this
            // cell's band writes it.
            values.write(y + width * x, g as u32);
        }
        row.insert(g);
        columns.get(x).insert(g);
        if band == 1 {
            // Wythoff's diagonal: its next query is (x + 1, y + 1), which must see this
            // value; the line is this cell's own (it was queried above), and the band
            // below reaches (x + 1, y + 1) only after this band publishes column x + 1.
            diagonals.get(x + diag_shift - y).insert(g);
        } else if band > 1 && x == width - 1 && y >= band {
            // The last cell of row y − a joins its diagonal line.
            // SAFETY: row y − a < y is final at every column by now (see above).
            let v = values.read(width - 1 + width * (y - band)) as u64;
            diagonals.get(width - 1 + band + diag_shift - y).insert(v);
        }
    }
}

/// Visits the rook moves of (x, y) — (u, y) for u < x, then (x, v) for v < y — the part
/// every line game shares.
///
/// ```
/// use nimlab_engine::kernels::line::for_each_rook_option;
/// let mut seen = Vec::new();
/// for_each_rook_option(2, 1, &mut |o| seen.push(o.to_vec()));
/// assert_eq!(seen, vec![vec![0, 1], vec![1, 1], vec![2, 0]]);
/// ```
pub fn for_each_rook_option(x: u64, y: u64, visit: &mut dyn FnMut(&[u64])) {
    for u in 0..x {
        visit(&[u, y]);
    }
    for v in 0..y {
        visit(&[x, v]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A progress that unwinds with a payload of its own once some cells are done, as
    /// the web server's does when a request is stopped — here on the pipeline's other
    /// threads only, whose panics the thread scope would otherwise replace.
    struct StopAfter {
        caller: std::thread::ThreadId,
        cells: std::sync::atomic::AtomicU64,
    }
    struct Stopped;
    impl Progress for StopAfter {
        fn start(&self, _total: u64, _what: &str) {}
        fn advance(&self, delta: u64) {
            let cells = self.cells.fetch_add(delta, Ordering::Relaxed);
            if cells > 20_000 && std::thread::current().id() != self.caller {
                std::panic::panic_any(Stopped);
            }
        }
    }

    #[test]
    fn a_stopped_fill_unwinds_with_the_progress_payload_on_every_thread() {
        let wythoff = LineMoves {
            diagonal_band: 1,
            steps: vec![],
        };
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(3)
            .build()
            .unwrap();
        for _ in 0..5 {
            let unwound = pool.install(|| {
                let stop = StopAfter {
                    caller: std::thread::current().id(),
                    cells: std::sync::atomic::AtomicU64::new(0),
                };
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    line_table(&wythoff, 0, 700, 700, &stop)
                }))
            });
            let payload = unwound.expect_err("the progress stops the fill");
            assert!(payload.is::<Stopped>(), "the payload is the progress's own");
        }
    }

    /// The largest N whose N × N Wythoff table fits in 24 GiB by the estimate.
    #[test]
    fn largest_square_in_24_gib() {
        let wythoff = LineMoves {
            diagonal_band: 1,
            steps: vec![],
        };
        let limit = 24u64 << 30;
        let fits = |n: usize| line_table_bytes(&wythoff, n, n).unwrap() <= limit;
        let (mut lo, mut hi) = (1usize, 1 << 20);
        while lo + 1 < hi {
            let mid = (lo + hi) / 2;
            if fits(mid) {
                lo = mid
            } else {
                hi = mid
            }
        }
        // 4.75 bytes a cell: N ≈ sqrt(24 GiB / 4.75).
        assert!(fits(lo) && !fits(lo + 1));
        assert!((73_000..74_000).contains(&lo), "largest N = {lo}");
    }

    #[test]
    fn wythoffs_own_kernel_agrees_with_the_general_one() {
        for threads in [1, 2, 3, 4] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            pool.install(|| {
                for (w, h) in [
                    (1, 1),
                    (2, 1),
                    (1, 2),
                    (2, 2),
                    (300, 1),
                    (1, 300),
                    (63, 63),
                    (64, 64),
                    (65, 65),
                    (130, 130),
                    (200, 70),
                    (70, 200),
                    (129, 65),
                    (700, 37),
                    (37, 700),
                    // Values past 16 bits: the streamed half in `u32`s.
                    (66_000, 2),
                ] {
                    let own = line_table(&WYTHOFF, 0, w, h, &crate::NoProgress).unwrap();
                    // The general kernel on the same box: wide ones by halves, tall
                    // ones whole.
                    let mut general = vec![0u32; w * h];
                    fill_lines(
                        &WYTHOFF,
                        0,
                        w,
                        h,
                        w >= h,
                        false,
                        &crate::NoProgress,
                        &mut general,
                    )
                    .unwrap();
                    assert!(own == general, "{w}x{h} on {threads} threads");
                    // Streamed (half kept in strips, rows completed apart).
                    let finals = Finals(std::sync::Mutex::new(Vec::new()));
                    line_table_streamed(&WYTHOFF, 0, w, h, &finals).unwrap();
                    assert!(
                        finals.each_cell_once(w * h) == general,
                        "{w}x{h} streamed on {threads} threads"
                    );
                }
            });
        }
    }

    /// Collects the cells reported final.
    struct Finals(std::sync::Mutex<Vec<(usize, Vec<u32>)>>);
    impl Finals {
        /// The table of `cells` cells the reports make up; panics unless each cell was
        /// reported exactly once.
        fn each_cell_once(self, cells: usize) -> Vec<u32> {
            let mut seen = vec![None; cells];
            for (first, reported) in self.0.into_inner().unwrap() {
                for (i, v) in reported.into_iter().enumerate() {
                    assert!(seen[first + i].is_none(), "cell {} twice", first + i);
                    seen[first + i] = Some(v);
                }
            }
            seen.into_iter()
                .enumerate()
                .map(|(i, v)| v.unwrap_or_else(|| panic!("cell {i} never reported")))
                .collect()
        }
    }
    impl Progress for Finals {
        fn start(&self, _total: u64, _what: &str) {}
        fn advance(&self, _delta: u64) {}
        fn cells_final(&self, first: usize, cells: &[u32]) {
            self.0.lock().unwrap().push((first, cells.to_vec()));
        }
    }

    #[test]
    fn every_cell_is_reported_final_once_with_its_value() {
        let ryuoh = LineMoves {
            diagonal_band: 0,
            steps: vec![(1, 1), (1, 2), (2, 1)],
        };
        let a3 = LineMoves {
            diagonal_band: 3,
            steps: vec![],
        };
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        pool.install(|| {
            for moves in [&WYTHOFF, &ryuoh, &a3] {
                for (w, h) in [(1, 1), (300, 1), (1, 300), (200, 130), (130, 200)] {
                    let finals = Finals(std::sync::Mutex::new(Vec::new()));
                    let t = line_table(moves, 0, w, h, &finals).unwrap();
                    assert!(finals.each_cell_once(w * h) == t, "{moves:?} {w}x{h}");
                    let streamed = Finals(std::sync::Mutex::new(Vec::new()));
                    line_table_streamed(moves, 0, w, h, &streamed).unwrap();
                    assert!(
                        streamed.each_cell_once(w * h) == t,
                        "{moves:?} {w}x{h} streamed"
                    );
                }
            }
        });
    }

    #[test]
    fn line_set_tracks_mex_and_window() {
        let mut set = LineSet::default();
        for v in [0u64, 2, 1, 100, 3, 101] {
            set.insert(v);
        }
        assert_eq!(set.mex, 4);
        let c = Cursor::of(&set);
        assert_eq!(c.stored(1), (1 << (100 - 64)) | (1 << (101 - 64)));
        // A line whose values start high keeps a window there, not from 0.
        let mut high = LineSet::default();
        high.insert(5_000_011);
        high.insert(5_000_010);
        assert_eq!(high.len, 1);
        let bits = Cursor::of(&high).stored(5_000_010 / 64);
        assert_eq!(bits, 0b11 << (5_000_010 % 64));
    }
}
