//! Positions that are sets of cells of a rectangular board, or sets of vertices of a
//! graph: stored as bit sets of at most [`MAX_CELLS`] cells (one or two [`Coord`]
//! words), with what every such game needs — reading and writing the board's picture,
//! the regions no move can join, and a canonical form up to the board's symmetries
//! and translations (for the memo).

use crate::error::{Error, Result};
use crate::game::{Coord, Position};

/// Most cells (or vertices) a board position may have.
pub const MAX_CELLS: usize = 128;

/// A set of cells, bit i for cell i (row-major on a board).
pub type Cells = u128;

/// How many [`Coord`] words a set of `cells` cells is stored in.
#[inline]
pub fn words_for(cells: usize) -> usize {
    if cells > 64 {
        2
    } else {
        1
    }
}

/// The stored words of a cell set.
///
/// ```
/// use nimlab_engine::board::{from_words, to_words};
/// let set = (1u128 << 100) | 5;
/// assert_eq!(from_words(&to_words(set, 2)), set);
/// assert_eq!(to_words(5, 1), vec![5]);
/// ```
#[inline]
pub fn to_words(set: Cells, words: usize) -> Position {
    if words == 1 {
        vec![set as Coord]
    } else {
        vec![set as Coord, (set >> 64) as Coord]
    }
}

/// The cell set stored in `words` (the inverse of [`to_words`]).
#[inline]
pub fn from_words(words: &[Coord]) -> Cells {
    words
        .iter()
        .take(2)
        .enumerate()
        .fold(0, |acc, (i, &w)| acc | (w as Cells) << (64 * i))
}

/// The cells `set` holds, lowest first.
pub fn cells_of(mut set: Cells) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let i = set.trailing_zeros() as usize;
            set &= set - 1;
            i
        })
    })
}

/// The connected part of `set` holding its lowest vertex, in a graph given by each
/// vertex's neighbours.
pub fn first_part(set: Cells, neighbours: &[Cells]) -> Cells {
    let mut part = set & set.wrapping_neg();
    let mut frontier = part;
    while frontier != 0 {
        let mut grown = 0;
        for v in cells_of(frontier) {
            grown |= neighbours[v];
        }
        frontier = grown & set & !part;
        part |= frontier;
    }
    part
}

/// The connected parts of `set` in a graph given by each vertex's neighbours, lowest
/// vertex first.
pub fn connected_parts(set: Cells, neighbours: &[Cells]) -> Vec<Cells> {
    let mut rest = set;
    let mut parts = Vec::new();
    while rest != 0 {
        let part = first_part(rest, neighbours);
        parts.push(part);
        rest &= !part;
    }
    parts
}

/// The machine word a cell set is computed in: `u64` on boards of at most 64 cells
/// (a shift is one instruction), `u128` on bigger ones.
trait Word:
    Copy
    + Ord
    + std::ops::BitAnd<Output = Self>
    + std::ops::BitOr<Output = Self>
    + std::ops::Not<Output = Self>
{
    /// Width in bits.
    const BITS: usize;
    const ZERO: Self;
    /// The low bits of a cell set (all of them on a board that fits the word).
    fn of(cells: Cells) -> Self;
    fn cells(self) -> Cells;
    /// Shifts, 0 once every bit is shifted out.
    fn up(self, n: usize) -> Self;
    fn down(self, n: usize) -> Self;
    fn lowest(self) -> Self;
    fn trailing_zeros(self) -> usize;
    fn leading_zeros(self) -> usize;
    fn reverse_bits(self) -> Self;
}

macro_rules! word {
    ($t:ty) => {
        impl Word for $t {
            const BITS: usize = <$t>::BITS as usize;
            const ZERO: Self = 0;
            #[inline(always)]
            fn of(cells: Cells) -> Self {
                cells as $t
            }
            #[inline(always)]
            fn cells(self) -> Cells {
                self as Cells
            }
            #[inline(always)]
            fn up(self, n: usize) -> Self {
                self.checked_shl(n as u32).unwrap_or(0)
            }
            #[inline(always)]
            fn down(self, n: usize) -> Self {
                self.checked_shr(n as u32).unwrap_or(0)
            }
            #[inline(always)]
            fn lowest(self) -> Self {
                self & self.wrapping_neg()
            }
            #[inline(always)]
            fn trailing_zeros(self) -> usize {
                <$t>::trailing_zeros(self) as usize
            }
            #[inline(always)]
            fn leading_zeros(self) -> usize {
                <$t>::leading_zeros(self) as usize
            }
            #[inline(always)]
            fn reverse_bits(self) -> Self {
                <$t>::reverse_bits(self)
            }
        }
    };
}
word!(u64);
word!(u128);

/// Runs `$f::<W>(board, cells)` in the narrowest word that holds the board.
macro_rules! in_word {
    ($board:expr, $f:ident, $cells:expr) => {
        if $board.cells() <= 64 {
            $f::<u64>($board, $cells as u64).cells()
        } else {
            $f::<u128>($board, $cells).cells()
        }
    };
}

#[inline(always)]
fn spread_in<W: Word>(b: &Board, x: W) -> W {
    x | (x.up(1) & W::of(b.not_first_col))
        | (x.down(1) & W::of(b.not_last_col))
        | (x.up(b.cols) & W::of(b.all()))
        | x.down(b.cols)
}

#[inline(always)]
fn isolated_in<W: Word>(b: &Board, x: W) -> W {
    let touched = (x.up(1) & W::of(b.not_first_col))
        | (x.down(1) & W::of(b.not_last_col))
        | x.up(b.cols)
        | x.down(b.cols);
    x & !touched
}

#[inline(always)]
fn first_region_in<W: Word>(b: &Board, x: W) -> W {
    let mut part = x.lowest();
    loop {
        let grown = spread_in(b, part) & x;
        if grown == part {
            return part;
        }
        part = grown;
    }
}

/// [`Board::canonical`] by whole-set bit operations, for boards of at most 16
/// columns (the hot path of Cram's search): the set is moved to the top left corner
/// by one shift; the half turn is a bit reversal and a shift; the upside-down image
/// reverses the order of the rows; the transposed image spreads each row into a
/// column by a table. The least of the (up to) 8 images is the form.
#[inline(always)]
fn canonical_in<W: Word>(b: &Board, cells: W) -> W {
    if cells == W::ZERO {
        return cells;
    }
    let cols = b.cols;
    let row_mask = W::of((1 << cols) - 1);
    // The occupied columns: every row folded onto the first.
    let mut folded = cells;
    let mut shift = cols;
    while shift < b.cells() {
        folded = folded | folded.down(shift);
        shift *= 2;
    }
    let any = folded & row_mask;
    let top = b.row_of[cells.trailing_zeros()] as usize;
    let bottom = b.row_of[W::BITS - 1 - cells.leading_zeros()] as usize;
    let left = any.trailing_zeros();
    let w = W::BITS - any.leading_zeros() - left;
    let h = bottom - top + 1;
    let shape = cells.down(top * cols + left);
    // The rows of a shape `h` high in the opposite order.
    let upside_down = |x: W, h: usize| -> W {
        (0..h).fold(W::ZERO, |acc, r| {
            acc | (x.down(r * cols) & row_mask).up((h - 1 - r) * cols)
        })
    };
    // The half turn of a shape `h` high and `w` wide.
    let half_turn =
        |x: W, h: usize, w: usize| x.reverse_bits().down(W::BITS - ((h - 1) * cols + w));
    let least_of_four = |x: W, h: usize, w: usize| -> W {
        let flipped = upside_down(x, h);
        x.min(flipped)
            .min(half_turn(x, h, w))
            .min(half_turn(flipped, h, w))
    };
    let mut best = least_of_four(shape, h, w);
    if h <= cols && w <= b.rows {
        // The transposed shape fits too: w rows, h columns.
        let transposed = (0..h).fold(W::ZERO, |acc, r| {
            let row = (shape.down(r * cols) & row_mask).cells() as usize;
            acc | W::of(b.column_of[row]).up(r)
        });
        best = best.min(least_of_four(transposed, w, h));
    }
    best
}

/// A rectangular board of `rows × cols` cells (row 0 on top, as written), cell
/// `r * cols + c`.
///
/// ```
/// use nimlab_engine::board::Board;
/// let b = Board::new(2, 3).unwrap();
/// let set = b.read("#../.##", '#', &['.']).unwrap();
/// assert_eq!(b.write(set, '#', '.'), "#../.##");
/// assert_eq!(b.regions(set).len(), 2);
/// // The same shape one column to the right has the same canonical form.
/// assert_eq!(b.canonical(0b000_011), b.canonical(0b000_110));
/// ```
#[derive(Debug, Clone)]
pub struct Board {
    rows: usize,
    cols: usize,
    neighbours: Vec<Cells>,
    /// Every cell but those of the first column (where a shift left by one lands
    /// from the previous row's last column), and likewise for the last column.
    not_first_col: Cells,
    not_last_col: Cells,
    /// For each row pattern of at most `min(rows, cols)` cells (boards of at most 16
    /// columns), the same cells down the first column: bit c to cell (c, 0).
    column_of: Vec<Cells>,
    /// The row of each cell index below [`MAX_CELLS`] (the last row beyond the board).
    row_of: Vec<u8>,
}

impl Board {
    /// A board of `rows × cols` cells, at most [`MAX_CELLS`] of them.
    pub fn new(rows: usize, cols: usize) -> Result<Self> {
        if rows == 0 || cols == 0 || rows.saturating_mul(cols) > MAX_CELLS {
            return Err(Error::input(format!(
                "a board has 1 to {MAX_CELLS} cells, got {rows}×{cols}"
            )));
        }
        let mut neighbours = vec![0; rows * cols];
        for r in 0..rows {
            for c in 0..cols {
                let n = &mut neighbours[r * cols + c];
                if r > 0 {
                    *n |= 1 << ((r - 1) * cols + c);
                }
                if r + 1 < rows {
                    *n |= 1 << ((r + 1) * cols + c);
                }
                if c > 0 {
                    *n |= 1 << (r * cols + c - 1);
                }
                if c + 1 < cols {
                    *n |= 1 << (r * cols + c + 1);
                }
            }
        }
        let all: Cells = if rows * cols == 128 {
            Cells::MAX
        } else {
            (1 << (rows * cols)) - 1
        };
        let first_col = (0..rows).fold(0 as Cells, |a, r| a | 1 << (r * cols));
        let column_of = if cols <= 16 {
            let side = rows.min(cols);
            (0..1usize << side)
                .map(|x| cells_of(x as Cells).fold(0 as Cells, |acc, c| acc | 1 << (c * cols)))
                .collect()
        } else {
            Vec::new()
        };
        Ok(Board {
            rows,
            cols,
            neighbours,
            not_first_col: all & !first_col,
            not_last_col: all & !(first_col << (cols - 1)),
            column_of,
            row_of: (0..MAX_CELLS)
                .map(|i| (i / cols).min(rows - 1) as u8)
                .collect(),
        })
    }

    /// Rows of the board.
    #[inline]
    pub fn rows(&self) -> usize {
        self.rows
    }
    /// Columns of the board.
    #[inline]
    pub fn cols(&self) -> usize {
        self.cols
    }
    /// Number of cells.
    #[inline]
    pub fn cells(&self) -> usize {
        self.rows * self.cols
    }
    /// Every cell.
    #[inline]
    pub fn all(&self) -> Cells {
        if self.cells() == 128 {
            Cells::MAX
        } else {
            (1 << self.cells()) - 1
        }
    }
    /// The cells next to each cell (up, down, left, right).
    pub fn neighbours(&self) -> &[Cells] {
        &self.neighbours
    }

    /// Reads a picture: rows top to bottom joined by `/`, `set` marking a cell of the
    /// set and any of `unset` a cell outside it. The picture must have the board's size.
    pub fn read(&self, text: &str, set: char, unset: &[char]) -> Result<Cells> {
        let lines: Vec<&str> = text.trim().split('/').map(str::trim).collect();
        let shape = || {
            format!(
                "a position is a {}×{} board: {} rows of {} cells joined by '/' (e.g. {})",
                self.rows,
                self.cols,
                self.rows,
                self.cols,
                vec![".".repeat(self.cols); self.rows].join("/")
            )
        };
        if lines.len() != self.rows {
            return Err(Error::input(format!(
                "{} rows written; {}",
                lines.len(),
                shape()
            )));
        }
        let mut out = 0;
        for (r, line) in lines.iter().enumerate() {
            if line.chars().count() != self.cols {
                return Err(Error::input(format!(
                    "row {} has {} cells; {}",
                    r + 1,
                    line.chars().count(),
                    shape()
                )));
            }
            for (c, ch) in line.chars().enumerate() {
                if ch == set {
                    out |= 1 << (r * self.cols + c);
                } else if !unset.contains(&ch) {
                    return Err(Error::input(format!(
                        "row {}, column {}: '{ch}' is not a cell (write '{set}' or '{}')",
                        r + 1,
                        c + 1,
                        unset.iter().collect::<String>()
                    )));
                }
            }
        }
        Ok(out)
    }

    /// The picture of `cells`: `set` for its cells, `unset` for the others.
    pub fn write(&self, cells: Cells, set: char, unset: char) -> String {
        (0..self.rows)
            .map(|r| {
                (0..self.cols)
                    .map(|c| {
                        if cells >> (r * self.cols + c) & 1 == 1 {
                            set
                        } else {
                            unset
                        }
                    })
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("/")
    }

    /// The cells next to some cell of `cells` (or in it), all at once.
    #[inline]
    pub fn spread(&self, cells: Cells) -> Cells {
        in_word!(self, spread_in, cells)
    }

    /// The cells of `cells` with no neighbour in `cells`.
    #[inline]
    pub fn isolated(&self, cells: Cells) -> Cells {
        in_word!(self, isolated_in, cells)
    }

    /// The region of `cells` holding its lowest cell (empty for no cells).
    #[inline]
    pub fn first_region(&self, cells: Cells) -> Cells {
        in_word!(self, first_region_in, cells)
    }

    /// Calls `visit` with each connected region of `cells`, lowest first, without
    /// listing them.
    pub fn for_each_region(&self, cells: Cells, mut visit: impl FnMut(Cells)) {
        if self.cells() <= 64 {
            let mut rest = cells as u64;
            while rest != 0 {
                let part = first_region_in(self, rest);
                visit(part as Cells);
                rest &= !part;
            }
        } else {
            let mut rest = cells;
            while rest != 0 {
                let part = first_region_in(self, rest);
                visit(part);
                rest &= !part;
            }
        }
    }

    /// The connected regions of `cells` (cells joined by an edge), lowest first.
    pub fn regions(&self, cells: Cells) -> Vec<Cells> {
        let mut rest = cells;
        let mut parts = Vec::new();
        while rest != 0 {
            let mut part = rest & rest.wrapping_neg();
            loop {
                let grown = self.spread(part) & rest;
                if grown == part {
                    break;
                }
                part = grown;
            }
            parts.push(part);
            rest &= !part;
        }
        parts
    }

    /// [`Board::isolated`] on a board of at most 64 cells, in one word (inlined into
    /// the games' hot loops).
    #[inline]
    pub fn isolated_word(&self, cells: u64) -> u64 {
        debug_assert!(self.cells() <= 64);
        isolated_in(self, cells)
    }

    /// [`Board::first_region`] on a board of at most 64 cells, in one word.
    #[inline]
    pub fn first_region_word(&self, cells: u64) -> u64 {
        debug_assert!(self.cells() <= 64);
        // Plain shifts (the generic ones check for shifts past the word): a board of
        // one row has nothing above or below, and there the mask also keeps a shift
        // by its 64 columns from wrapping.
        let c = (self.cols & 63) as u32;
        let vertical = if self.rows > 1 { u64::MAX } else { 0 };
        let (not_first, not_last) = (self.not_first_col as u64, self.not_last_col as u64);
        let grow = |p: u64| {
            (p | (p << 1) & not_first | (p >> 1) & not_last | ((p << c) | (p >> c)) & vertical)
                & cells
        };
        let mut part = cells & cells.wrapping_neg();
        loop {
            // Two steps between checks: the check costs about as much as a step.
            let grown = grow(grow(part));
            if grown == part {
                return part;
            }
            part = grown;
        }
    }

    /// [`Board::canonical`] on a board of at most 64 cells, in one word. (Always
    /// inlined: the caller may be compiled for more instructions than the project.)
    #[inline(always)]
    pub fn canonical_word(&self, cells: u64) -> u64 {
        debug_assert!(self.cells() <= 64);
        if cells == 0 {
            return 0;
        }
        if self.rows <= 8 && self.cols <= 8 {
            return self.canonical_bytes(cells);
        }
        if self.cols <= 16 {
            return canonical_in(self, cells);
        }
        self.canonical_by_cells(cells as Cells) as u64
    }

    /// [`Board::canonical_word`] on a board of at most 8 × 8 cells (a non-empty
    /// set): the set is laid out a row to a byte, where the upside-down image is a
    /// byte swap, the mirror image reverses the bits of each byte, and the
    /// transposition is three exchanges of bit blocks; no loop over rows but those
    /// that move the rows to their bytes and back (none on a board 8 wide). That layout
    /// keeps the order of the cells, so the least image there is the least here.
    #[inline(always)]
    fn canonical_bytes(&self, cells: u64) -> u64 {
        let (rows, cols) = (self.rows, self.cols);
        let row_mask = (1u64 << cols) - 1;
        let y = if cols == 8 {
            cells
        } else {
            (0..rows).fold(0, |y, r| y | (cells >> (r * cols) & row_mask) << (8 * r))
        };
        let top = y.trailing_zeros() / 8;
        let h = (63 - y.leading_zeros()) / 8 - top + 1;
        let mut any = y | y >> 32;
        any |= any >> 16;
        any |= any >> 8;
        let any = any as u8;
        let left = any.trailing_zeros();
        let w = 8 - any.leading_zeros() - left;
        let shape = y >> (8 * top + left);
        // (Functions, not closures: a closure may be left out of line, and then does
        // not get the instructions of a caller compiled for more.)
        /// The bits of each byte in the opposite order.
        #[inline(always)]
        fn mirror(x: u64) -> u64 {
            let x = (x >> 1) & 0x5555_5555_5555_5555 | (x & 0x5555_5555_5555_5555) << 1;
            let x = (x >> 2) & 0x3333_3333_3333_3333 | (x & 0x3333_3333_3333_3333) << 2;
            (x >> 4) & 0x0f0f_0f0f_0f0f_0f0f | (x & 0x0f0f_0f0f_0f0f_0f0f) << 4
        }
        /// The least of a shape `h` high and `w` wide, upside down, mirrored, and both.
        #[inline(always)]
        fn least_of_four(x: u64, h: u32, w: u32) -> u64 {
            let m = mirror(x);
            x.min(x.swap_bytes() >> (8 * (8 - h)))
                .min(m >> (8 - w))
                .min(m.swap_bytes() >> (8 * (8 - h) + 8 - w))
        }
        let mut best = least_of_four(shape, h, w);
        if h as usize <= cols && w as usize <= rows {
            // The transposed shape fits too: bit 8r + c to 8c + r, w high, h wide.
            let mut x = shape;
            let t = 0x0f0f_0f0f_0000_0000 & (x ^ x << 28);
            x ^= t ^ t >> 28;
            let t = 0x3333_0000_3333_0000 & (x ^ x << 14);
            x ^= t ^ t >> 14;
            let t = 0x5500_5500_5500_5500 & (x ^ x << 7);
            x ^= t ^ t >> 7;
            best = best.min(least_of_four(x, w, h));
        }
        if cols == 8 {
            best
        } else {
            (0..rows).fold(0, |z, r| z | (best >> (8 * r) & 0xff) << (r * cols))
        }
    }

    /// The least image of `cells` under the board's symmetries (reflections, and
    /// rotations and transposition where the shape still fits) moved to the top left
    /// corner: shapes that are copies of each other share one form.
    #[inline]
    pub fn canonical(&self, cells: Cells) -> Cells {
        if cells == 0 {
            return 0;
        }
        if self.cols <= 16 {
            return self.canonical_by_rows(cells);
        }
        self.canonical_by_cells(cells)
    }

    /// [`Board::canonical`] by whole-set bit operations (see [`canonical_in`]), for
    /// boards of at most 16 columns.
    #[inline]
    fn canonical_by_rows(&self, cells: Cells) -> Cells {
        in_word!(self, canonical_in, cells)
    }

    /// The former row-by-row canonical form (16-bit words per row), kept as a
    /// reference for the tests.
    #[cfg(test)]
    fn canonical_by_row_words(&self, cells: Cells) -> Cells {
        if cells == 0 {
            return 0;
        }
        let (rows, cols) = (self.rows, self.cols);
        let row_mask: Cells = (1 << cols) - 1;
        let mut grid = [0u16; MAX_CELLS];
        let mut any = 0u16;
        let (mut top, mut bottom) = (usize::MAX, 0);
        for (r, g) in grid.iter_mut().enumerate().take(rows) {
            *g = (cells >> (r * cols) & row_mask) as u16;
            if *g != 0 {
                top = top.min(r);
                bottom = r;
                any |= *g;
            }
        }
        let left = any.trailing_zeros() as usize;
        let w = 16 - any.leading_zeros() as usize - left;
        let h = bottom - top + 1;
        let mut shape = [0u16; MAX_CELLS];
        for (s, g) in shape.iter_mut().zip(&grid[top..=bottom]) {
            *s = g >> left;
        }
        let shape = &shape[..h];
        let pack = |rows_of: &mut dyn Iterator<Item = u16>| -> Cells {
            rows_of
                .enumerate()
                .fold(0, |acc, (i, x)| acc | (x as Cells) << (i * cols))
        };
        let flip = |x: u16, width: usize| x.reverse_bits() >> (16 - width);
        let mut best = Cells::MAX;
        let mut consider = |shape: &[u16], width: usize| {
            best = best
                .min(pack(&mut shape.iter().copied()))
                .min(pack(&mut shape.iter().rev().copied()))
                .min(pack(&mut shape.iter().map(|&x| flip(x, width))))
                .min(pack(&mut shape.iter().rev().map(|&x| flip(x, width))));
        };
        consider(shape, w);
        if h <= cols && w <= rows {
            let mut transposed = [0u16; 16];
            for (j, t) in transposed.iter_mut().enumerate().take(w) {
                *t = shape
                    .iter()
                    .enumerate()
                    .fold(0u16, |acc, (i, &x)| acc | ((x >> j) & 1) << i);
            }
            consider(&transposed[..w], h);
        }
        best
    }

    /// [`Board::canonical`] cell by cell, for boards wider than 16.
    fn canonical_by_cells(&self, cells: Cells) -> Cells {
        let points: Vec<(usize, usize)> = cells_of(cells)
            .map(|i| (i / self.cols, i % self.cols))
            .collect();
        let (mut best, mut first) = (cells, true);
        for map in 0..8u8 {
            let image = points.iter().map(|&(r, c)| {
                let (r, c) = if map & 4 != 0 { (c, r) } else { (r, c) };
                let r = if map & 1 != 0 { usize::MAX - r } else { r };
                let c = if map & 2 != 0 { usize::MAX - c } else { c };
                (r, c)
            });
            let (min_r, min_c, max_r, max_c) = image
                .clone()
                .fold((usize::MAX, usize::MAX, 0, 0), |(a, b, c, d), (r, col)| {
                    (a.min(r), b.min(col), c.max(r), d.max(col))
                });
            if max_r - min_r >= self.rows || max_c - min_c >= self.cols {
                continue; // a transposed shape that does not fit this board
            }
            let set = image.fold(0 as Cells, |acc, (r, c)| {
                acc | 1 << ((r - min_r) * self.cols + (c - min_c))
            });
            if first || set < best {
                best = set;
                first = false;
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_forms_are_shared_by_exactly_the_copies_of_a_shape() {
        // Every set of cells of a 3×3 board: two sets share a canonical form exactly
        // when one is a translated image of the other under one of the 8 symmetries.
        let b = Board::new(3, 3).unwrap();
        let images = |set: Cells| -> Vec<Cells> {
            let pts: Vec<(i64, i64)> = cells_of(set)
                .map(|i| ((i / 3) as i64, (i % 3) as i64))
                .collect();
            let mut out = Vec::new();
            for map in 0..8 {
                for dr in -3..=3 {
                    for dc in -3..=3 {
                        let moved: Option<Cells> = pts.iter().try_fold(0, |acc, &(r, c)| {
                            let (r, c) = if map & 4 != 0 { (c, r) } else { (r, c) };
                            let r = if map & 1 != 0 { 2 - r } else { r } + dr;
                            let c = if map & 2 != 0 { 2 - c } else { c } + dc;
                            ((0..3).contains(&r) && (0..3).contains(&c))
                                .then(|| acc | 1 << (r * 3 + c))
                        });
                        out.extend(moved);
                    }
                }
            }
            out
        };
        for a in 0..512u128 {
            let same = images(a);
            for b2 in 0..512u128 {
                assert_eq!(
                    b.canonical(a) == b.canonical(b2),
                    same.contains(&b2),
                    "{a:09b} {b2:09b}"
                );
            }
        }
    }

    #[test]
    fn both_canonical_forms_agree() {
        let mut x = 0x2545f4914f6cdd1d_u64;
        for (rows, cols) in [(4, 7), (5, 5), (1, 16), (8, 16), (7, 4), (3, 10)] {
            let b = Board::new(rows, cols).unwrap();
            for _ in 0..3000 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let y = x.rotate_left(17);
                let set = ((x as Cells) << 64 | y as Cells) & b.all() & (x as Cells) << 3;
                assert_eq!(
                    b.canonical_by_rows(set),
                    b.canonical_by_cells(set),
                    "{set:b}"
                );
            }
        }
    }

    /// A xorshift stream of random cell sets of `b`, of every density.
    fn random_sets(b: &Board, n: usize) -> Vec<Cells> {
        let mut x = 0x9e3779b97f4a7c15_u64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        (0..n)
            .map(|i| {
                let full = (next() as Cells) << 64 | next() as Cells;
                let thin = match i % 4 {
                    0 => full,
                    1 => full | (next() as Cells) << 64 | next() as Cells,
                    2 => full & ((next() as Cells) << 64 | next() as Cells),
                    _ => full & full.rotate_left(23) & full.rotate_left(71),
                };
                thin & b.all()
            })
            .collect()
    }

    #[test]
    fn the_bit_canonical_form_is_the_row_word_one_and_the_cell_one() {
        // Every set of small boards (square, wide, tall), random sets of bigger ones.
        let small = [
            (3, 3),
            (3, 4),
            (4, 3),
            (2, 6),
            (6, 2),
            (1, 12),
            (12, 1),
            (4, 4),
        ];
        for (rows, cols) in small {
            let b = Board::new(rows, cols).unwrap();
            for set in 0..=b.all() {
                let want = b.canonical_by_cells(set);
                assert_eq!(b.canonical_by_rows(set), want, "{rows}×{cols} {set:b}");
                assert_eq!(b.canonical_by_row_words(set), want, "{rows}×{cols} {set:b}");
            }
        }
        let big = [
            (5, 7),
            (7, 5),
            (4, 7),
            (6, 6),
            (11, 11),
            (8, 16),
            (16, 8),
            (1, 16),
        ];
        for (rows, cols) in big {
            let b = Board::new(rows, cols).unwrap();
            for set in random_sets(&b, 4000) {
                let want = b.canonical_by_cells(set);
                assert_eq!(b.canonical_by_rows(set), want, "{rows}×{cols} {set:b}");
                assert_eq!(b.canonical_by_row_words(set), want, "{rows}×{cols} {set:b}");
            }
        }
    }

    #[test]
    fn each_region_is_visited_once_in_order() {
        // Every set of small boards, random sets of bigger ones.
        for (rows, cols) in [(3, 4), (4, 3), (1, 12), (12, 1), (2, 7)] {
            let b = Board::new(rows, cols).unwrap();
            for set in 0..=b.all() {
                let mut seen = Vec::new();
                b.for_each_region(set, |r| seen.push(r));
                assert_eq!(seen, connected_parts(set, b.neighbours()), "{set:b}");
            }
        }
        for (rows, cols) in [
            (3, 4),
            (5, 7),
            (8, 8),
            (11, 11),
            (4, 32),
            (1, 100),
            (100, 1),
        ] {
            let b = Board::new(rows, cols).unwrap();
            for set in random_sets(&b, 2000) {
                let mut seen = Vec::new();
                b.for_each_region(set, |r| seen.push(r));
                assert_eq!(seen, b.regions(set));
                assert_eq!(seen, connected_parts(set, b.neighbours()));
            }
        }
    }

    #[test]
    fn the_one_word_methods_are_the_general_ones() {
        // Every set of small boards, random sets of boards up to 64 cells (one row of
        // 64 and one column of 64 among them).
        let check = |b: &Board, set: Cells| {
            let w = set as u64;
            let first = connected_parts(set, b.neighbours()).first().copied();
            assert_eq!(
                b.first_region_word(w) as Cells,
                first.unwrap_or(0),
                "{set:b}"
            );
            assert_eq!(b.first_region_word(w) as Cells, b.first_region(set));
            assert_eq!(b.isolated_word(w) as Cells, b.isolated(set));
            assert_eq!(b.canonical_word(w) as Cells, b.canonical_by_cells(set));
        };
        for (rows, cols) in [
            (3, 4),
            (4, 3),
            (1, 12),
            (12, 1),
            (2, 7),
            (3, 3),
            (2, 8),
            (8, 2),
        ] {
            let b = Board::new(rows, cols).unwrap();
            for set in 0..=b.all() {
                check(&b, set);
            }
        }
        for (rows, cols) in [
            (1, 64),
            (64, 1),
            (8, 8),
            (2, 32),
            (4, 16),
            (5, 8),
            (8, 5),
            (6, 7),
            (7, 6),
            (7, 8),
            (4, 4),
            (1, 8),
            (8, 1),
            (3, 20),
        ] {
            let b = Board::new(rows, cols).unwrap();
            for set in random_sets(&b, 3000) {
                check(&b, set);
            }
        }
    }

    #[test]
    fn regions_are_the_connected_parts() {
        let b = Board::new(2, 4).unwrap();
        let set = b.read("##.#/...#", '#', &['.']).unwrap();
        let parts = b.regions(set);
        assert_eq!(parts.len(), 2);
        assert_eq!(parts.iter().fold(0, |a, p| a | p), set);
        assert_eq!(parts, connected_parts(set, b.neighbours()));
        assert_eq!(b.first_region(set), parts[0]);
        assert_eq!(b.first_region(0), 0);
        assert_eq!(b.isolated(set), 0);
        assert_eq!(b.isolated(0b1000_0001), 0b1000_0001);
        assert!(Board::new(12, 11).is_err());
        assert!(b.read("##./...#", '#', &['.']).is_err());
        assert!(b.read("##x#/...#", '#', &['.']).is_err());
    }
}
