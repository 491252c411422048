//! Cram: two players take turns covering two adjacent free squares of a board with a
//! domino; whoever cannot move loses (M. Gardner, *Mathematical Games*, Scientific
//! American 230(2), 1974; E. Berlekamp, J. Conway, R. Guy, *Winning Ways*, ch. 3).
//!
//! A position is the board, rows top to bottom joined by `/`, `.` a free square and `#`
//! a covered one (`..../.##./....`); `start` is the empty board. The free squares fall
//! apart into regions no domino can join, valued by the nim-sum of theirs, and a region
//! is memoized once up to the board's symmetries and translations.
//!
//! ```
//! use nimlab_games::parse_game;
//! use nimlab_engine::plan::{read_position, value, write_position};
//! use nimlab_engine::TableOptions;
//! let g = parse_game("cram(rows=2,cols=3)").unwrap();
//! let start = read_position(&*g, "start").unwrap();
//! assert_eq!(write_position(&*g, &start), ".../...");
//! // An even × odd board is a first-player win.
//! let r = value(&*g, &start, &TableOptions::default()).unwrap();
//! assert_eq!(r.outcome.as_str(), "N");
//! ```

use crate::{Args, Family, Param};
use nimlab_engine::big::{BigPosition, BigUint};
use nimlab_engine::board::{from_words, to_words, words_for, Board, Cells};
use nimlab_engine::capability::{Capabilities, Decomposition, MirrorStrategy, OneWord, Regions};
use nimlab_engine::position::{PositionForm, Shown};
use nimlab_engine::theorem::Verdict;
use nimlab_engine::{Coord, Error, Game, Position, Result, Solver, Theorem};

/// Cram on a `rows × cols` board.
#[derive(Debug, Clone)]
pub struct Cram {
    board: Board,
    /// Every pair of adjacent squares, as a two-cell set.
    dominoes: Vec<Cells>,
    /// The same in one word, on boards of at most 64 squares (else empty).
    dominoes_word: Vec<u64>,
    /// The squares not in the first column, and not in the last.
    not_first: Cells,
    not_last: Cells,
    /// For a domino whose lower square is square i: the squares of the box around
    /// it (3×4 for a horizontal one, 4×3 for a vertical one, see [`Ring`]) that lie on
    /// the board.
    box_horizontal: Vec<u16>,
    box_vertical: Vec<u16>,
    /// Whether the hot one-word code runs its copy compiled for the processor's bit
    /// instructions (popcnt, tzcnt, lzcnt: see [`bit_instructions`]) or the portable
    /// one. Both give the same results ([`Cram::portable`] forces the latter).
    bit_instructions: bool,
    /// The row of each square (no division in the hot code).
    row_of: Vec<u8>,
}

/// Whether this processor has the bit instructions (x86-64: popcnt, bmi1, bmi2,
/// lzcnt) that the copies of the hot code under `#[target_feature]` use. The project
/// is built for any x86-64, where `count_ones`, `trailing_zeros` and `leading_zeros`
/// are sequences of instructions; those copies are chosen at run time instead.
pub fn bit_instructions() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("popcnt")
            && std::is_x86_feature_detected!("bmi1")
            && std::is_x86_feature_detected!("bmi2")
            && std::is_x86_feature_detected!("lzcnt")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Whether taking a domino out of a region leaves one region, read from the squares
/// around it: the box of 3 rows × 4 columns around a horizontal domino (4 × 3 around a
/// vertical one), row by row, bit 4r + c (3r + c). Its ten squares other than the
/// domino's form a cycle; the rest of the region is one region when the live squares
/// next to the domino all lie on one arc of live squares of that cycle, since every
/// path of the region through the domino enters and leaves it through such squares
/// (a square next to the domino that a path reaches has a free neighbour: it is
/// live). More generally the rest has at most as many regions as there are arcs
/// holding live squares next to the domino, since every region holds one of them.
/// Entry p of `horizontal` (`vertical`), for the box's pattern p: the number of such
/// arcs (bits 0–2), and for the first two of them (in the cycle's order) a live square
/// next to the domino, each as 4 × box row + box column (bits 4–7 and 8–11).
struct Ring {
    horizontal: Vec<u16>,
    vertical: Vec<u16>,
}

impl Ring {
    fn new() -> Ring {
        // The cycle around the domino, as (row, column) in the box, and which of its
        // squares are next to the domino.
        let h = [
            (0, 0),
            (0, 1),
            (0, 2),
            (0, 3),
            (1, 3),
            (2, 3),
            (2, 2),
            (2, 1),
            (2, 0),
            (1, 0),
        ];
        let h_next = [
            false, true, true, false, true, false, true, true, false, true,
        ];
        let v = [
            (0, 0),
            (0, 1),
            (0, 2),
            (1, 2),
            (2, 2),
            (3, 2),
            (3, 1),
            (3, 0),
            (2, 0),
            (1, 0),
        ];
        let v_next = [
            false, true, false, true, true, false, true, false, true, true,
        ];
        let table = |cycle: &[(usize, usize); 10], next: &[bool; 10], width: usize| {
            let mut t = vec![0u16; 4096];
            for (p, slot) in t.iter_mut().enumerate() {
                let live: Vec<bool> = cycle
                    .iter()
                    .map(|&(r, c)| p >> (r * width + c) & 1 == 1)
                    .collect();
                // The arcs of live squares, numbered; the squares next to the domino
                // must all be on one.
                let mut arc = [usize::MAX; 10];
                let mut arcs = 0;
                for start in 0..10 {
                    if !live[start] || arc[start] != usize::MAX {
                        continue;
                    }
                    let mut k = start;
                    while live[k] && arc[k] == usize::MAX {
                        arc[k] = arcs;
                        k = (k + 1) % 10;
                    }
                    let mut k = (start + 9) % 10;
                    while live[k] && arc[k] == usize::MAX {
                        arc[k] = arcs;
                        k = (k + 9) % 10;
                    }
                    arcs += 1;
                }
                // The arcs touched, each with its first square next to the domino.
                let mut touched: Vec<(usize, usize)> = Vec::new();
                for k in (0..10).filter(|&k| next[k] && live[k]) {
                    if touched.iter().all(|&(a, _)| a != arc[k]) {
                        touched.push((arc[k], k));
                    }
                }
                let mut entry = touched.len() as u16;
                for (n, &(_, k)) in touched.iter().take(2).enumerate() {
                    let (r, c) = cycle[k];
                    entry |= ((4 * r + c) as u16) << (4 + 4 * n);
                }
                *slot = entry;
            }
            t
        };
        Ring {
            horizontal: table(&h, &h_next, 4),
            vertical: table(&v, &v_next, 3),
        }
    }
}

/// The tables of [`Ring`], built once.
fn ring() -> &'static Ring {
    static RING: std::sync::OnceLock<Ring> = std::sync::OnceLock::new();
    RING.get_or_init(Ring::new)
}

impl Cram {
    /// Cram on a `rows × cols` board (at most 128 squares).
    pub fn new(rows: usize, cols: usize) -> Result<Self> {
        let board = Board::new(rows, cols).map_err(|e| Error::input(format!("cram: {e}")))?;
        let mut dominoes = Vec::new();
        for r in 0..rows {
            for c in 0..cols {
                let i = r * cols + c;
                if c + 1 < cols {
                    dominoes.push(0b11 << i);
                }
                if r + 1 < rows {
                    dominoes.push(1 << i | 1 << (i + cols));
                }
            }
        }
        // Dominoes nearest the centre first: the pruned search tries options in this
        // order among equally costly ones, and central moves split the board.
        let centre = |d: &Cells| {
            let (a, b) = (
                d.trailing_zeros() as usize,
                127 - d.leading_zeros() as usize,
            );
            let (r2, c2) = (a / cols + b / cols, a % cols + b % cols);
            let dr = (2 * r2).abs_diff(2 * (rows - 1));
            let dc = (2 * c2).abs_diff(2 * (cols - 1));
            dr * dr + dc * dc
        };
        dominoes.sort_by_key(centre);
        let all = board.all();
        let first_col: Cells = (0..rows).fold(0, |m, r| m | 1 << (r * cols));
        let dominoes_word = if rows * cols <= 64 {
            dominoes.iter().map(|&d| d as u64).collect()
        } else {
            Vec::new()
        };
        // The box's squares on the board, by the column of the domino's lower square.
        let box_mask = |c: usize, width: usize| -> u16 {
            let mut m = 0u16;
            for r in 0..7 - width {
                for j in 0..width {
                    // Box column j is board column c − 1 + j.
                    if c + j >= 1 && c + j <= cols {
                        m |= 1 << (r * width + j);
                    }
                }
            }
            m
        };
        let box_horizontal = (0..rows * cols).map(|i| box_mask(i % cols, 4)).collect();
        let box_vertical = (0..rows * cols).map(|i| box_mask(i % cols, 3)).collect();
        Ok(Cram {
            board,
            dominoes,
            dominoes_word,
            box_horizontal,
            box_vertical,
            not_first: all & !first_col,
            not_last: all & !(first_col << (cols - 1)),
            bit_instructions: bit_instructions(),
            row_of: (0..rows * cols).map(|i| (i / cols) as u8).collect(),
        })
    }

    /// The same game running only the portable copy of its hot code (the one for
    /// processors without [`bit_instructions`]): the same values, for tests that
    /// compare the two.
    pub fn portable(mut self) -> Self {
        self.bit_instructions = false;
        self
    }

    fn words(&self) -> usize {
        words_for(self.board.cells())
    }

    /// The free squares of a stored position.
    pub fn free(&self, pos: &[Coord]) -> Cells {
        from_words(pos)
    }

    /// The stored position of a set of free squares.
    pub fn position(&self, free: Cells) -> Position {
        to_words(free, self.words())
    }

    /// The same game with fewer squares: of the squares whose only free neighbour is
    /// one square s (tufts of s), all but one go. A domino on a tuft t covers s too,
    /// so it leaves the other tufts of s dead, as any domino on s does; two tufts of
    /// s are thus interchangeable, and a second one adds no option the first does
    /// not give (the game trees are the same, by induction: moves elsewhere keep the
    /// tufts).
    pub fn without_extra_tufts(&self, x: Cells) -> Cells {
        let c = self.board.cols();
        // Bit i set: square i of x has that neighbour in x.
        let left = (x << 1) & self.not_first & x;
        let right = (x >> 1) & self.not_last & x;
        let up = (x << c) & x;
        let down = (x >> c) & x;
        let odd = left ^ right ^ up ^ down;
        let two = (left & right) | (up & down) | ((left | right) & (up | down));
        let one = odd & !two;
        let mut seen: Cells = 0;
        let mut extra: Cells = 0;
        // Tufts by where their square s is; a square has one neighbour each way, so
        // within one direction no two tufts share s.
        let (l, r, u, d) = (one & left, one & right, one & up, one & down);
        for (stars, back) in [
            (l >> 1, 1i32),
            (r << 1, -1),
            (u >> c, c as i32),
            (d << c, -(c as i32)),
        ] {
            let again = stars & seen;
            extra |= if back > 0 {
                again << back
            } else {
                again >> -back
            };
            seen |= stars;
        }
        x & !extra
    }

    /// [`Cram::without_extra_tufts`] in one word, on boards of at most 64 squares (the
    /// search's fast path, [`OneWord`]).
    #[inline]
    fn without_extra_tufts_word(&self, x: u64) -> u64 {
        let c = self.board.cols();
        let left = (x << 1) & self.not_first as u64 & x;
        let right = (x >> 1) & self.not_last as u64 & x;
        let up = (x << c) & x;
        let down = (x >> c) & x;
        let odd = left ^ right ^ up ^ down;
        let two = (left & right) | (up & down) | ((left | right) & (up | down));
        let one = odd & !two;
        let (l, r, u, d) = (one & left, one & right, one & up, one & down);
        // As in `without_extra_tufts`: the square s of each tuft, direction by
        // direction; a tuft whose s was seen in an earlier direction goes.
        let (sl, sr, su, sd) = (l >> 1, r << 1, u >> c, d << c);
        let again_r = sr & sl;
        let seen = sl | sr;
        let again_u = su & seen;
        let seen = seen | su;
        let again_d = sd & seen;
        let extra = again_r >> 1 | again_u << c | again_d >> c;
        x & !extra
    }

    /// Calls `visit` with the stored words of a set of free squares (no allocation).
    fn with_words(&self, free: Cells, visit: &mut dyn FnMut(&[Coord])) {
        let words = [free as Coord, (free >> 64) as Coord];
        visit(&words[..self.words()]);
    }
}

impl Game for Cram {
    fn spec(&self) -> String {
        format!(
            "cram(rows={},cols={})",
            self.board.rows(),
            self.board.cols()
        )
    }
    fn dimension(&self) -> usize {
        self.words()
    }
    fn for_each_option(&self, pos: &[Coord], visit: &mut dyn FnMut(&[Coord])) {
        let free = from_words(pos);
        for &d in &self.dominoes {
            if free & d == d {
                self.with_words(free & !d, visit);
            }
        }
    }
    fn position_error(&self, pos: &[Coord]) -> Option<String> {
        (from_words(pos) & !self.board.all() != 0)
            .then(|| "it has squares outside the board".to_string())
    }
    fn rank(&self, pos: &[Coord]) -> u128 {
        from_words(pos).count_ones() as u128
    }
    fn max_options(&self, _pos: &[Coord]) -> Option<u128> {
        Some(self.dominoes.len() as u128)
    }
    fn simplified(&self, pos: &[Coord]) -> Option<Position> {
        // The same game: without the dead squares (no free neighbour), moved to its
        // least image under the board's symmetries and translations.
        let free = from_words(pos);
        let dead = self.board.isolated(free);
        let c = self.board.canonical(self.without_extra_tufts(free & !dead));
        (c != free).then(|| self.position(c))
    }
    fn capabilities(&self) -> Capabilities<'_> {
        Capabilities {
            decomposition: Some(Decomposition::Regions(self)),
            mirror: Some(self),
            one_word: (self.board.cells() <= 64).then_some(self as &dyn OneWord),
            ..Capabilities::none()
        }
    }
    fn read_position(&self, text: &str) -> Result<BigPosition> {
        let free = self
            .board
            .read(text, '.', &['#'])
            .map_err(|e| Error::input(format!("{}: {e}", self.spec())))?;
        Ok(self.position(free).into_iter().map(BigUint::from).collect())
    }
    fn show_position(&self, pos: &[BigUint]) -> Shown {
        let words: Vec<Coord> = pos.iter().map(|w| w.try_into().unwrap_or(0)).collect();
        Shown::Text(self.board.write(from_words(&words), '.', '#'))
    }
    fn form(&self) -> PositionForm {
        PositionForm::own(self.dimension())
    }
    fn start_position(&self) -> Option<BigPosition> {
        Some(
            self.position(self.board.all())
                .into_iter()
                .map(BigUint::from)
                .collect(),
        )
    }
}

impl Regions for Cram {
    fn regions(&self, pos: &[Coord], parts: &mut Vec<Position>) {
        // Single free squares are dead (no domino fits): they add nothing. Most
        // positions are one region: that is found without listing the regions.
        let free = from_words(pos);
        let live = free & !self.board.isolated(free);
        let first = self.board.first_region(live);
        if first == live {
            return;
        }
        parts.push(self.position(first));
        self.board
            .for_each_region(live & !first, |r| parts.push(self.position(r)));
    }

    fn simplified_parts(&self, pos: &[Coord], visit: &mut dyn FnMut(&[Coord])) -> bool {
        // Each region of the live squares at its least image: what `simplified` gives
        // it (a region has no dead square). No live square: no part, the value 0.
        let free = from_words(pos);
        let live = self.without_extra_tufts(free & !self.board.isolated(free));
        self.board
            .for_each_region(live, |r| self.with_words(self.board.canonical(r), visit));
        true
    }
}

impl OneWord for Cram {
    fn options(&self, pos: Coord, out: &mut Vec<Coord>) {
        // Without a branch per domino (whether one fits is as good as random): every
        // domino written, the next one over it when it does not fit.
        let base = out.len();
        out.resize(base + self.dominoes_word.len(), 0);
        let room = &mut out[base..];
        let mut n = 0;
        for (k, &d) in self.dominoes_word.iter().enumerate() {
            room[n.min(k)] = pos & !d;
            n += usize::from(pos & d == d);
        }
        out.truncate(base + n);
    }

    fn parts(&self, pos: Coord, option: Coord, out: &mut Vec<(Coord, u32)>) {
        #[cfg(target_arch = "x86_64")]
        if self.bit_instructions {
            // SAFETY: `bit_instructions` is only set when the processor has them.
            return unsafe { self.parts_bits(pos, option, out) };
        }
        self.parts_word(pos, option, out)
    }
}

impl Cram {
    /// [`OneWord::parts`] compiled for the processor's bit instructions.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt")]
    fn parts_bits(&self, pos: Coord, option: Coord, out: &mut Vec<(Coord, u32)>) {
        self.parts_word(pos, option, out)
    }

    /// [`OneWord::parts`], inlined into both copies.
    #[inline(always)]
    fn parts_word(&self, pos: Coord, option: Coord, out: &mut Vec<(Coord, u32)>) {
        // As `simplified_parts`, in one word. `pos` is one region: when the squares
        // around the domino played show that the rest is one region too (`Ring`), no
        // flood fill is needed.
        let b = &self.board;
        let live = option & !b.isolated_word(option);
        let domino = pos & !option;
        let i = domino.trailing_zeros() as usize;
        let cols = b.cols();
        let horizontal = i < 63 && domino == 0b11 << i && i % cols + 1 < cols;
        let vertical = i + cols < 64 && domino == (1 << i | 1 << (i + cols));
        // (The box's rows are read by shifts of at most 63 + 3 × cols bits.)
        if (horizontal || vertical) && option & !pos == 0 && cols <= 21 {
            let x = (live as u128) << (cols + 1);
            let row = |k: usize, width: usize| (x >> (i + k * cols)) as usize & ((1 << width) - 1);
            let entry = if horizontal {
                let p =
                    (row(0, 4) | row(1, 4) << 4 | row(2, 4) << 8) & self.box_horizontal[i] as usize;
                ring().horizontal[p]
            } else {
                let p = (row(0, 3) | row(1, 3) << 3 | row(2, 3) << 6 | row(3, 3) << 9)
                    & self.box_vertical[i] as usize;
                ring().vertical[p]
            };
            let arcs = entry & 7;
            if arcs <= 1 {
                let part = self.without_extra_tufts_word(live);
                if part != 0 {
                    out.push((b.canonical_word(part), part.count_ones()));
                }
                return;
            }
            if arcs == 2 {
                // One region or two: grown from a square of each arc at once, until
                // they meet (one) or one of them stops growing (two).
                let square = |q: u16| {
                    let (r, c) = ((q >> 2 & 3) as usize, (q & 3) as usize);
                    1u64 << (i + r * cols + c - (cols + 1))
                };
                let (mut a, mut z) = (square(entry >> 4 & 15), square(entry >> 8 & 15));
                let grow = |p: u64| {
                    (p | (p << 1) & self.not_first as u64
                        | (p >> 1) & self.not_last as u64
                        | p << cols
                        | p >> cols)
                        & live
                };
                let first = loop {
                    let (a2, z2) = (grow(grow(a)), grow(grow(z)));
                    if a2 & z2 != 0 {
                        break live;
                    }
                    if a2 == a {
                        break a;
                    }
                    if z2 == z {
                        break z;
                    }
                    (a, z) = (a2, z2);
                };
                let rest = self.without_extra_tufts_word(live);
                let one = rest & first;
                let other = rest & !first;
                // In the order of their lowest squares, as `simplified_parts` lists.
                let (p, q) = if other & other.wrapping_neg() < one & one.wrapping_neg() {
                    (other, one)
                } else {
                    (one, other)
                };
                for r in [p, q] {
                    if r != 0 {
                        out.push((b.canonical_word(r), r.count_ones()));
                    }
                }
                return;
            }
        }
        let mut rest = self.without_extra_tufts_word(live);
        while rest != 0 {
            let r = b.first_region_word(rest);
            rest &= !r;
            out.push((b.canonical_word(r), r.count_ones()));
        }
    }
}

impl MirrorStrategy for Cram {
    fn mirrored_p(&self, pos: &[Coord]) -> bool {
        #[cfg(target_arch = "x86_64")]
        if self.bit_instructions {
            // SAFETY: `bit_instructions` is only set when the processor has them.
            return unsafe { self.mirrored_bits(pos) };
        }
        self.mirrored(pos)
    }
}

impl Cram {
    /// [`MirrorStrategy::mirrored_p`] compiled for the processor's bit instructions.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt")]
    fn mirrored_bits(&self, pos: &[Coord]) -> bool {
        self.mirrored(pos)
    }

    /// [`MirrorStrategy::mirrored_p`], inlined into both copies.
    #[inline(always)]
    fn mirrored(&self, pos: &[Coord]) -> bool {
        // The live squares (those with a free neighbour) symmetric under the half
        // turn about the centre of their bounding box, and no domino that the half
        // turn maps onto itself or onto one overlapping it (one on the centre): then
        // the second player answers each domino by its image, and always can.
        if let &[free] = pos
            && self.board.cells() <= 64
        {
            return self.mirrored_word(free);
        }
        let free = from_words(pos);
        let live = free & !self.board.isolated(free);
        if live == 0 {
            return true;
        }
        // Squares pair off with their images (the centre square is not live).
        if live.count_ones() % 2 == 1 {
            return false;
        }
        let (rows, cols) = (self.board.rows(), self.board.cols());
        let first = live.trailing_zeros() as usize;
        let last = 127 - live.leading_zeros() as usize;
        let (r0, r1) = (first / cols, last / cols);
        let row_mask: Cells = (1 << cols) - 1;
        let any = (r0..=r1).fold(0, |a, r| a | (live >> (r * cols)) & row_mask);
        let c0 = any.trailing_zeros() as usize;
        let c1 = 127 - any.leading_zeros() as usize;
        // Reversing the bits turns (r, c) into (rows−1−r, cols−1−c); the shift then
        // brings that to (r0+r1−r, c0+c1−c).
        let turned = live.reverse_bits() >> (128 - rows * cols);
        let shift = half_turn_shift(rows, cols, r0 + r1, c0 + c1);
        let image = if shift >= 0 {
            turned << shift
        } else {
            turned >> -shift
        };
        image == live
            && no_domino_on_the_centre(r0 + r1, c0 + c1, |r, c| live >> (r * cols + c) & 1 == 1)
    }

    /// [`Cram::mirrored`] in one word, on boards of at most 64 squares.
    #[inline(always)]
    fn mirrored_word(&self, free: u64) -> bool {
        let live = free & !self.board.isolated_word(free);
        if live == 0 {
            return true;
        }
        if live.count_ones() % 2 == 1 {
            return false;
        }
        let (rows, cols) = (self.board.rows(), self.board.cols());
        let first = live.trailing_zeros() as usize;
        let last = 63 - live.leading_zeros() as usize;
        let (r0, r1) = (self.row_of[first] as usize, self.row_of[last] as usize);
        let row_mask = (1u64 << cols) - 1;
        let any = (r0..=r1).fold(0, |a, r| a | (live >> (r * cols)) & row_mask);
        let c0 = any.trailing_zeros() as usize;
        let c1 = 63 - any.leading_zeros() as usize;
        let turned = live.reverse_bits() >> (64 - rows * cols);
        let shift = half_turn_shift(rows, cols, r0 + r1, c0 + c1);
        let image = if shift >= 0 {
            turned << shift
        } else {
            turned >> -shift
        };
        image == live
            && no_domino_on_the_centre(r0 + r1, c0 + c1, |r, c| live >> (r * cols + c) & 1 == 1)
    }
}

/// How far the board's bits reversed (whose square (r, c) is then (rows−1−r,
/// cols−1−c)) must be shifted up so that (r, c) lands on (sr−r, sc−c): the half turn
/// about the centre of the live squares' bounding box, rows r0..=r1 and columns
/// c0..=c1 with sr = r0 + r1, sc = c0 + c1.
#[inline(always)]
fn half_turn_shift(rows: usize, cols: usize, sr: usize, sc: usize) -> isize {
    (sr + 1) as isize * cols as isize + (sc + 1) as isize - (rows * cols) as isize - cols as isize
}

/// Whether no domino is its own image under the half turn about (sr/2, sc/2)
/// (`live(r, c)`: whether the square is live): the second player's mirror answer is
/// then always legal.
#[inline(always)]
fn no_domino_on_the_centre(sr: usize, sc: usize, live: impl Fn(usize, usize) -> bool) -> bool {
    match (sr % 2, sc % 2) {
        // The centre is a square: it must not be live.
        (0, 0) => !live(sr / 2, sc / 2),
        // The centre is the middle of a horizontal domino, or of a vertical one.
        (0, _) => !(live(sr / 2, sc / 2) && live(sr / 2, sc / 2 + 1)),
        (_, 0) => !(live(sr / 2, sc / 2) && live(sr / 2 + 1, sc / 2)),
        // The centre is a corner: no domino is its own image.
        _ => true,
    }
}

fn build(args: &Args) -> Result<Box<dyn Game>> {
    let rows = args.int("rows", 1)? as usize;
    let cols = args.int("cols", 1)? as usize;
    Ok(Box::new(Cram::new(rows, cols)?))
}

fn theorems() -> Vec<Theorem> {
    vec![
        Theorem::new(
            "cram.strip",
            "Cram on a 1×n strip is Dawson's Kayles, the octal game 0.07: G(1×n) = G₀.₀₇(n)",
            "E. Berlekamp, J. Conway, R. Guy, Winning Ways, ch. 3 (Cram on a strip); \
             octal 0.07",
            |ctx| {
                let n = ctx.size.clamp(2, 40);
                let cram = Cram::new(1, n)?;
                let dawson = crate::parse_game("octal(code=0.07)")?;
                let seq = nimlab_engine::plan::sequence(&*dawson, n + 1, &Default::default())?.0;
                let mut solver = Solver::with_memory_limit(&cram, ctx.memory_limit);
                for (k, &want) in seq.iter().enumerate() {
                    let strip = cram.position((1 << k) - 1);
                    let g = solver.grundy(&strip)?;
                    if g != want {
                        return Ok(Verdict::Fails {
                            counterexample: format!("G(1×{k}) = {g} but 0.07 gives {want}"),
                        });
                    }
                }
                Ok(Verdict::Holds {
                    window: format!("1×n, n ≤ {n}"),
                    checked: n as u64 + 1,
                })
            },
        ),
        Theorem::new(
            "cram.symmetry",
            "An even × even board is a P-position (the second player answers each domino by \
             its image under the half turn); even × odd is an N-position (the first player \
             covers the two middle squares, then answers by the half turn)",
            "M. Gardner, Mathematical Games, Scientific American 230(2), 1974",
            |ctx| {
                let mut checked = 0;
                let most = if ctx.size >= 20 { 20 } else { 12 };
                for rows in 1..=6usize {
                    for cols in 1..=6usize {
                        if rows * cols > most || (rows % 2 == 1 && cols % 2 == 1) {
                            continue;
                        }
                        let cram = Cram::new(rows, cols)?;
                        let g = Solver::with_memory_limit(&cram, ctx.memory_limit)
                            .grundy(&cram.position(cram.board.all()))?;
                        let p_expected = rows % 2 == 0 && cols % 2 == 0;
                        if (g == 0) != p_expected {
                            return Ok(Verdict::Fails {
                                counterexample: format!("the {rows}×{cols} board has G = {g}"),
                            });
                        }
                        checked += 1;
                    }
                }
                Ok(Verdict::Holds {
                    window: format!("boards of at most {most} squares"),
                    checked,
                })
            },
        ),
    ]
}

/// The `cram` family.
pub static FAMILY: Family = Family {
    name: "cram",
    summary: "Cram: cover two adjacent free squares of a board; the last to move wins",
    params: &[
        Param {
            name: "rows",
            kind: "integer ≥ 1",
            default: Some("4"),
            example: None,
            help: "rows of the board (rows × cols ≤ 128)",
        },
        Param {
            name: "cols",
            kind: "integer ≥ 1",
            default: Some("4"),
            example: None,
            help: "columns of the board",
        },
    ],
    position_syntax: "the board, rows top to bottom joined by '/', '.' free and '#' covered \
                      (e.g. ..../.##./....); start = the empty board",
    seed: "M. Gardner, \"Mathematical Games\", Scientific American 230(2) (1974); E. \
           Berlekamp, J. H. Conway, R. K. Guy, Winning Ways for your Mathematical Plays, \
           ch. 3; P. Beling, M. Rogalski, \"On pruning search trees of impartial games\", \
           Artificial Intelligence 283 (2020)",
    build,
    theorems,
    sweep: None,
};
