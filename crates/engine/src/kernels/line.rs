//! The table kernel for two-heap *line games*: rook moves (any number from one heap) plus
//! diagonal moves taking from both heaps — Wythoff's game, Fraenkel's a-Wythoff,
//! generalized Ryuoh Nim.
//!
//! Why it is fast: every row and every column is a line of mutual options, so its values
//! are distinct, and the options of (x, y) along a row, a column or a diagonal band are
//! whole *prefixes* of lines. Each line keeps the set of values seen so far as a small
//! bitset window above its least unused value ("mex pointer"); the value of a cell is the
//! least value at or above the largest pointer that no line (and no finite step) holds,
//! found 64 values at a time. Rows are filled in a pipeline: row y may run at column x as
//! soon as row y − 1 is done a little past x, so all cores work on different rows.
//!
//! Diagonal band moves (s, t) with |s − t| < a reach line (x − y) − (s − t) in rows
//! y − t; those lines get each cell's value `a` rows late (when the pipeline is past all
//! queries that must not see it), and the cells of the last a − 1 rows are read directly.

use crate::error::{Error, Result};
use crate::progress::Progress;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The moves of a line game on positions (x, y) ∈ N², besides the rook moves
/// (x, y) → (u, y), u < x and (x, y) → (x, v), v < y, which every line game has.
///
/// A [`crate::Game`] declares this through [`crate::Game::line_moves`]; then
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

/// Cells a pipeline stage handles between two looks at its neighbour's progress.
const CHUNK: usize = 512;

/// The set of values of one line seen so far: everything below `mex`, plus the bits of
/// `words`, which hold the word indices `lo .. lo + words.len()`. Values are inserted
/// once each (a line's values are distinct) and never removed.
#[derive(Default, Clone)]
struct LineSet {
    mex: u64,
    lo: u64,
    words: Vec<u64>,
}

impl LineSet {
    /// Bits of word `w` (values 64w .. 64w + 63) that are in the set.
    #[inline(always)]
    fn word(&self, w: u64) -> u64 {
        let stored = w
            .checked_sub(self.lo)
            .and_then(|i| self.words.get(i as usize))
            .copied()
            .unwrap_or(0);
        let m = self.mex >> 6;
        let below = if w < m {
            !0
        } else if w == m {
            (1u64 << (self.mex & 63)) - 1
        } else {
            0
        };
        stored | below
    }

    #[inline(always)]
    fn stored(&self, w: u64) -> u64 {
        w.checked_sub(self.lo)
            .and_then(|i| self.words.get(i as usize))
            .copied()
            .unwrap_or(0)
    }

    /// Adds `v`, which is not in the set (so `v ≥ mex`).
    #[inline]
    fn insert(&mut self, v: u64) {
        debug_assert!(v >= self.mex);
        let w = v >> 6;
        if self.words.is_empty() {
            self.lo = w;
            self.words.push(0);
        } else if w < self.lo {
            let grow = (self.lo - w) as usize;
            self.words.splice(0..0, std::iter::repeat(0).take(grow));
            self.lo = w;
        }
        let i = (w - self.lo) as usize;
        if i >= self.words.len() {
            self.words.resize(i + 1, 0);
        }
        self.words[i] |= 1 << (v & 63);
        if v == self.mex {
            self.advance();
        }
    }

    /// Moves `mex` past the values present, and drops words wholly below it.
    fn advance(&mut self) {
        loop {
            let b = self.mex & 63;
            let run = (!(self.stored(self.mex >> 6) >> b)).trailing_zeros() as u64;
            self.mex += run;
            if b + run < 64 {
                break;
            }
        }
        let below = ((self.mex >> 6).saturating_sub(self.lo) as usize).min(self.words.len());
        if below == self.words.len() {
            self.words.clear();
        } else if below >= 8 && 2 * below >= self.words.len() {
            self.words.drain(..below);
            self.lo += below as u64;
        }
    }

    fn clear(&mut self) {
        self.mex = 0;
        self.lo = 0;
        self.words.clear();
    }
}

/// A slice shared by the pipeline's threads. Each element is written by one row's stage
/// at a time; the stages hand elements over through the `done` counters (Release on
/// publish, Acquire on read), so no element is ever accessed by two threads at once.
struct Shared<T>(*mut T, usize);

unsafe impl<T: Send> Sync for Shared<T> {}
unsafe impl<T: Send> Send for Shared<T> {}

impl<T> Shared<T> {
    fn new(slice: &mut [T]) -> Self {
        Shared(slice.as_mut_ptr(), slice.len())
    }

    /// # Safety
    /// No other thread may access element `i` while the reference lives (the pipeline
    /// protocol of [`line_table`] guarantees it).
    #[inline(always)]
    #[allow(clippy::mut_from_ref)]
    unsafe fn get(&self, i: usize) -> &mut T {
        debug_assert!(i < self.1);
        &mut *self.0.add(i)
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

/// Bytes [`line_table`] needs for a `width × height` table: the values (4 bytes a cell)
/// plus the line windows. A line's window spans from its mex pointer to its largest
/// value; for the games of this family that is a few times the line's length, bounded
/// here by 3 bits per cell of the line plus two words (rows are reused, so only the
/// columns and diagonals count) — measured peaks stay below this.
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
    let lines = width as u64 + diag_lines + 8;
    let struct_bytes = lines * std::mem::size_of::<LineSet>() as u64;
    // 3 bits a cell for the columns and again for the diagonals, plus 16 bytes a line.
    let window_bytes = if diag_lines > 0 {
        6 * cells / 8
    } else {
        3 * cells / 8
    } + 16 * lines;
    cells
        .checked_mul(4)
        .and_then(|b| b.checked_add(struct_bytes))
        .and_then(|b| b.checked_add(window_bytes))
        .ok_or_else(too_large)
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
    if value_bound(moves, width, height) + terminal_value as u64 >= (u32::MAX - 1) as u64 {
        return Err(Error::input(format!(
            "table {width}x{height} may hold values beyond 32 bits"
        )));
    }
    let cells = width * height;
    let mut values = vec![0u32; cells];
    if cells == 0 {
        return Ok(values);
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

    let threads = rayon::current_num_threads().clamp(1, height);
    // Row y may run at x once row y − 1 is done through x + lag (see module docs).
    let lag = (2 * band).saturating_sub(3);
    let mut columns = vec![LineSet::default(); width];
    let diag_count = if band > 0 {
        width + height + 2 * band
    } else {
        0
    };
    let mut diagonals = vec![LineSet::default(); diag_count];
    // Diagonal line x − y − d lives at index x − y − d + diag_shift.
    let diag_shift = height + band;
    let done = Done((0..height).map(|_| AtomicUsize::new(0)).collect());

    let values_s = Shared::new(&mut values);
    let columns_s = Shared::new(&mut columns);
    let diagonals_s = Shared::new(&mut diagonals);
    progress.start(cells as u64, "cells");
    let stage = |first_row: usize| {
        let mut row = LineSet::default();
        let mut near: Vec<u64> = Vec::with_capacity(offsets.len());
        let mut y = first_row;
        while y < height {
            row.clear();
            let mut x = 0;
            while x < width {
                // How far the row above lets us go.
                let limit = if y == 0 {
                    width
                } else {
                    let mut spins = 0u32;
                    loop {
                        let above = done.0[y - 1].load(Ordering::Acquire);
                        let limit = if above >= width {
                            width
                        } else {
                            above.saturating_sub(lag)
                        };
                        if limit > x {
                            break limit;
                        }
                        spins += 1;
                        if spins < 64 {
                            std::hint::spin_loop();
                        } else {
                            std::thread::yield_now();
                        }
                    }
                };
                let end = limit.min(x + CHUNK);
                // SAFETY: cells x..end of row y, column lines x..end and the diagonal
                // lines they touch belong to this stage until done[y] passes them; the
                // rows above are final up to end + lag (checked just above).
                unsafe {
                    fill_run(
                        &values_s,
                        &columns_s,
                        &diagonals_s,
                        &mut row,
                        &mut near,
                        &offsets,
                        Geometry {
                            width,
                            band,
                            diag_shift,
                            terminal_value,
                        },
                        y,
                        x,
                        end,
                    );
                }
                if end == width && band > 0 && y >= band {
                    // The last cell of row y − a joins its diagonal line.
                    let xl = width - 1;
                    let v = unsafe { *values_s.get(xl + width * (y - band)) } as u64;
                    unsafe { diagonals_s.get(xl + band + diag_shift - y) }.insert(v);
                }
                done.0[y].store(end, Ordering::Release);
                progress.advance((end - x) as u64);
                x = end;
            }
            y += threads;
        }
    };
    if threads == 1 {
        stage(0);
    } else {
        std::thread::scope(|scope| {
            for t in 1..threads {
                let stage = &stage;
                scope.spawn(move || stage(t));
            }
            stage(0);
        });
    }
    progress.finish();
    Ok(values)
}

#[derive(Clone, Copy)]
struct Geometry {
    width: usize,
    band: usize,
    diag_shift: usize,
    terminal_value: u32,
}

/// Fills cells `x0..x1` of row `y`.
///
/// # Safety
/// The caller owns those cells, their column lines and the diagonal lines they query
/// (pipeline protocol of [`line_table`]).
#[allow(clippy::too_many_arguments)]
#[inline(never)]
unsafe fn fill_run(
    values: &Shared<u32>,
    columns: &Shared<LineSet>,
    diagonals: &Shared<LineSet>,
    row: &mut LineSet,
    near: &mut Vec<u64>,
    offsets: &[(usize, usize)],
    geo: Geometry,
    y: usize,
    x0: usize,
    x1: usize,
) {
    let Geometry {
        width,
        band,
        diag_shift,
        terminal_value,
    } = geo;
    for x in x0..x1 {
        if band > 0 && y >= band && x >= 1 {
            // Cell (x − 1, y − a) joins its diagonal line now: every query that must not
            // see it has been made.
            let v = *values.get(x - 1 + width * (y - band)) as u64;
            diagonals.get(x - 1 + band + diag_shift - y).insert(v);
        }
        let g = if x == 0 && y == 0 {
            terminal_value as u64
        } else {
            near.clear();
            for &(dx, dy) in offsets {
                if dx <= x && dy <= y {
                    near.push(*values.get(x - dx + width * (y - dy)) as u64);
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
            let mut g = start;
            loop {
                let w = g >> 6;
                let mut occupied = row.word(w) | col.word(w);
                if band > 0 {
                    for i in diag_lo..diag_hi {
                        occupied |= diagonals.get(i).word(w);
                    }
                }
                for &v in near.iter() {
                    if v >> 6 == w {
                        occupied |= 1 << (v & 63);
                    }
                }
                occupied |= (1u64 << (g & 63)) - 1;
                if occupied != !0 {
                    break (w << 6) + (!occupied).trailing_zeros() as u64;
                }
                g = (w + 1) << 6;
            }
        };
        *values.get(x + width * y) = g as u32;
        row.insert(g);
        columns.get(x).insert(g);
    }
}
