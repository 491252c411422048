//! The chocolate-bar game of the source papers on a bar of any shape: a move breaks
//! the bar along one full grid line and eats the part without the bitter square, then
//! every square no longer joined to the bitter square; whoever is left the bitter
//! square alone loses (S. Nakamura, R. Miyadera et al., "Chocolate games that are
//! variants of the game of Nim", and "Maximum Nim and chocolate bar games", Integers 20
//! (2020) #G1).
//!
//! A position is a picture, rows top to bottom joined by `/`: `#` a square, `B` the
//! bitter square, `.` no square. `....##/..####/B#####` is the staircase CB(⌊t/2⌋, 2, 5);
//! a rectangle with the bitter square on its bottom edge, x squares left and z right
//! of it and y rows above, has the value x ⊕ y ⊕ z.
//!
//! ```
//! use nimlab_games::parse_game;
//! use nimlab_engine::plan::{read_position, value};
//! use nimlab_engine::TableOptions;
//! let g = parse_game("chocolate-bar").unwrap();
//! let p = read_position(&*g, "###/#B#").unwrap(); // x = 1, y = 1, z = 1
//! assert_eq!(value(&*g, &p, &TableOptions::default()).unwrap().grundy.unwrap(), 1u32.into());
//! ```

use crate::{Args, Family};
use nimlab_engine::big::{BigPosition, BigUint};
use nimlab_engine::board::{cells_of, connected_parts, from_words, Cells, MAX_CELLS};
use nimlab_engine::position::{PositionForm, Shown};
use nimlab_engine::theorem::Verdict;
use nimlab_engine::{Coord, Error, Game, Position, Result, Solver, Theorem};

/// A bar in its bounding box: `rows × cols`, squares as cells (row-major, row 0 on
/// top), the bitter square's cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Bar {
    rows: usize,
    cols: usize,
    bitter: usize,
    squares: Cells,
}

impl Bar {
    fn at(&self, r: usize, c: usize) -> bool {
        self.squares >> (r * self.cols + c) & 1 == 1
    }

    /// The stored position: rows, columns, bitter cell, then the squares in two words.
    pub fn position(&self) -> Position {
        vec![
            self.rows as Coord,
            self.cols as Coord,
            self.bitter as Coord,
            self.squares as Coord,
            (self.squares >> 64) as Coord,
        ]
    }

    /// The bar of a stored position, if it is one.
    pub fn of(pos: &[Coord]) -> Option<Bar> {
        let [rows, cols, bitter, ..] = *pos else {
            return None;
        };
        let (rows, cols, bitter) = (rows as usize, cols as usize, bitter as usize);
        let cells = rows.checked_mul(cols)?;
        if rows == 0 || cols == 0 || cells > MAX_CELLS || bitter >= cells || pos.len() != 5 {
            return None;
        }
        Some(Bar {
            rows,
            cols,
            bitter,
            squares: from_words(&pos[3..]),
        })
    }

    fn neighbours(&self) -> Vec<Cells> {
        (0..self.rows * self.cols)
            .map(|i| {
                let (r, c) = (i / self.cols, i % self.cols);
                let mut n: Cells = 0;
                if r > 0 {
                    n |= 1 << (i - self.cols);
                }
                if r + 1 < self.rows {
                    n |= 1 << (i + self.cols);
                }
                if c > 0 {
                    n |= 1 << (i - 1);
                }
                if c + 1 < self.cols {
                    n |= 1 << (i + 1);
                }
                n
            })
            .collect()
    }

    /// The squares joined to the bitter one, cropped to their bounding box.
    fn joined(&self, squares: Cells) -> Bar {
        let part = connected_parts(squares, &self.neighbours())
            .into_iter()
            .find(|p| p >> self.bitter & 1 == 1)
            .unwrap_or(1 << self.bitter);
        let points: Vec<(usize, usize)> = cells_of(part)
            .map(|i| (i / self.cols, i % self.cols))
            .collect();
        Self::from_points(&points, (self.bitter / self.cols, self.bitter % self.cols))
    }

    fn from_points(points: &[(usize, usize)], bitter: (usize, usize)) -> Bar {
        let r0 = points.iter().map(|p| p.0).min().unwrap_or(0);
        let c0 = points.iter().map(|p| p.1).min().unwrap_or(0);
        let rows = points.iter().map(|p| p.0).max().unwrap_or(0) - r0 + 1;
        let cols = points.iter().map(|p| p.1).max().unwrap_or(0) - c0 + 1;
        let squares = points
            .iter()
            .fold(0 as Cells, |a, &(r, c)| a | 1 << ((r - r0) * cols + c - c0));
        Bar {
            rows,
            cols,
            bitter: (bitter.0 - r0) * cols + bitter.1 - c0,
            squares,
        }
    }

    /// Every bar one break leads to.
    pub fn options(&self) -> Vec<Bar> {
        let (br, bc) = (self.bitter / self.cols, self.bitter % self.cols);
        let mut out = Vec::new();
        let mut keep = |mask: Cells| {
            let next = self.joined(self.squares & mask);
            if next.squares.count_ones() < self.squares.count_ones() {
                out.push(next);
            }
        };
        // A horizontal line below row r, or a vertical line right of column c.
        for r in 0..self.rows - 1 {
            let above: Cells = (0..=r)
                .flat_map(|rr| (0..self.cols).map(move |c| (rr, c)))
                .fold(0, |a, (rr, c)| a | 1 << (rr * self.cols + c));
            keep(if br <= r { above } else { !above });
        }
        for c in 0..self.cols - 1 {
            let left: Cells = (0..self.rows)
                .flat_map(|r| (0..=c).map(move |cc| (r, cc)))
                .fold(0, |a, (r, cc)| a | 1 << (r * self.cols + cc));
            keep(if bc <= c { left } else { !left });
        }
        out
    }

    /// The least of the bar's eight images under reflections and rotations.
    pub fn canonical(&self) -> Bar {
        let points: Vec<(usize, usize)> = cells_of(self.squares)
            .map(|i| (i / self.cols, i % self.cols))
            .collect();
        let b = (self.bitter / self.cols, self.bitter % self.cols);
        (0..8u8)
            .map(|map| {
                let f = |(r, c): (usize, usize)| {
                    let (r, c) = if map & 4 != 0 { (c, r) } else { (r, c) };
                    let r = if map & 1 != 0 { usize::MAX / 2 - r } else { r };
                    let c = if map & 2 != 0 { usize::MAX / 2 - c } else { c };
                    (r, c)
                };
                let image: Vec<(usize, usize)> = points.iter().map(|&p| f(p)).collect();
                Self::from_points(&image, f(b))
            })
            .min()
            .expect("eight images")
    }

    /// Reads a picture (`#` square, `B` bitter square, `.` none).
    pub fn read(text: &str) -> Result<Bar> {
        let lines: Vec<&str> = text.trim().split('/').map(str::trim).collect();
        let mut points = Vec::new();
        let mut bitter = None;
        for (r, line) in lines.iter().enumerate() {
            for (c, ch) in line.chars().enumerate() {
                match ch {
                    '#' => points.push((r, c)),
                    'B' | 'b' if bitter.is_none() => {
                        bitter = Some((r, c));
                        points.push((r, c));
                    }
                    'B' | 'b' => return Err(Error::input("a bar has one bitter square 'B'")),
                    '.' => {}
                    other => {
                        return Err(Error::input(format!(
                            "row {}, column {}: '{other}' is not part of a bar (write '#' a \
                             square, 'B' the bitter square, '.' none; rows joined by '/')",
                            r + 1,
                            c + 1
                        )));
                    }
                }
            }
        }
        let bitter =
            bitter.ok_or_else(|| Error::input("a bar needs its bitter square 'B' (e.g. ##/B#)"))?;
        let r0 = points.iter().map(|p| p.0).min().unwrap_or(0);
        let c0 = points.iter().map(|p| p.1).min().unwrap_or(0);
        let rows = points.iter().map(|p| p.0).max().unwrap_or(0) - r0 + 1;
        let cols = points.iter().map(|p| p.1).max().unwrap_or(0) - c0 + 1;
        if rows.saturating_mul(cols) > MAX_CELLS {
            return Err(Error::input(format!(
                "a bar fits in at most {MAX_CELLS} cells of its bounding box, got {rows}×{cols}"
            )));
        }
        let bar = Self::from_points(&points, bitter);
        if bar.joined(bar.squares) != bar {
            return Err(Error::input(
                "every square of a bar is joined (by an edge, through squares) to the bitter square",
            ));
        }
        Ok(bar)
    }

    /// The picture of the bar.
    pub fn write(&self) -> String {
        (0..self.rows)
            .map(|r| {
                (0..self.cols)
                    .map(
                        |c| match (r * self.cols + c == self.bitter, self.at(r, c)) {
                            (true, _) => 'B',
                            (false, true) => '#',
                            (false, false) => '.',
                        },
                    )
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("/")
    }
}

/// The chocolate-bar game on bars of any shape.
#[derive(Debug, Clone, Default)]
pub struct ChocolateBar;

impl Game for ChocolateBar {
    fn spec(&self) -> String {
        "chocolate-bar".into()
    }
    fn dimension(&self) -> usize {
        5
    }
    fn for_each_option(&self, pos: &[Coord], visit: &mut dyn FnMut(&[Coord])) {
        if let Some(bar) = Bar::of(pos) {
            for o in bar.options() {
                visit(&o.position());
            }
        }
    }
    fn position_error(&self, pos: &[Coord]) -> Option<String> {
        match Bar::of(pos) {
            Some(bar) if bar.squares >> bar.bitter & 1 == 1 && bar.joined(bar.squares) == bar => {
                None
            }
            _ => Some("it is not a bar (rows, columns, bitter square, squares)".into()),
        }
    }
    fn rank(&self, pos: &[Coord]) -> u128 {
        Bar::of(pos).map_or(0, |b| b.squares.count_ones() as u128)
    }
    fn max_options(&self, pos: &[Coord]) -> Option<u128> {
        Bar::of(pos).map(|b| (b.rows + b.cols) as u128)
    }
    fn simplified(&self, pos: &[Coord]) -> Option<Position> {
        let bar = Bar::of(pos)?;
        let c = bar.canonical();
        (c != bar).then(|| c.position())
    }
    fn read_position(&self, text: &str) -> Result<BigPosition> {
        let bar = Bar::read(text).map_err(|e| Error::input(format!("chocolate-bar: {e}")))?;
        Ok(bar.position().into_iter().map(BigUint::from).collect())
    }
    fn show_position(&self, pos: &[BigUint]) -> Shown {
        let small: Vec<Coord> = pos.iter().map(|w| w.try_into().unwrap_or(0)).collect();
        match Bar::of(&small) {
            Some(bar) => Shown::Text(bar.write()),
            None => Shown::Numbers(pos.to_vec()),
        }
    }
    fn form(&self) -> PositionForm {
        PositionForm::own(self.dimension())
    }
}

fn build(_args: &Args) -> Result<Box<dyn Game>> {
    Ok(Box::new(ChocolateBar))
}

/// The picture of the rectangle with `x` squares left of the bitter square, `z` right
/// of it and `y` rows above it.
pub fn rectangle(x: usize, y: usize, z: usize) -> String {
    let top = "#".repeat(x + z + 1);
    let mut rows = vec![top; y];
    rows.push(format!("{}B{}", "#".repeat(x), "#".repeat(z)));
    rows.join("/")
}

/// The picture of the staircase CB(f, y, z): columns 0..=z, column i of height
/// min(y, f(i)) + 1, the bitter square at the bottom of column 0.
pub fn staircase(f: impl Fn(usize) -> usize, y: usize, z: usize) -> String {
    let heights: Vec<usize> = (0..=z).map(|i| y.min(f(i)) + 1).collect();
    (0..=y)
        .rev()
        .map(|level| {
            (0..=z)
                .map(|i| match (level, i) {
                    (0, 0) => 'B',
                    _ if heights[i] > level => '#',
                    _ => '.',
                })
                .collect::<String>()
        })
        .filter(|row| row.contains(['#', 'B']))
        .collect::<Vec<_>>()
        .join("/")
}

fn theorems() -> Vec<Theorem> {
    vec![
        Theorem::new(
            "chocolate-bar.rectangle",
            "A rectangle with x squares left of the bitter square, z right of it and y rows \
             above has the value x ⊕ y ⊕ z",
            "S. Nakamura, R. Miyadera et al., chocolate games that are variants of Nim \
             (the source papers, §5 of docs/theory.md)",
            |ctx| {
                let side = ctx.size.clamp(2, 6);
                let g = ChocolateBar;
                let mut solver = Solver::with_memory_limit(&g, ctx.memory_limit);
                let mut checked = 0;
                for x in 0..side {
                    for y in 0..side {
                        for z in 0..side {
                            let bar = Bar::read(&rectangle(x, y, z))?;
                            let v = solver.grundy(&bar.position())? as usize;
                            if v != x ^ y ^ z {
                                return Ok(Verdict::Fails {
                                    counterexample: format!("{{{x},{y},{z}}} has G = {v}"),
                                });
                            }
                            checked += 1;
                        }
                    }
                }
                Ok(Verdict::Holds {
                    window: format!("x, y, z < {side}"),
                    checked,
                })
            },
        ),
        Theorem::new(
            "chocolate-bar.staircase",
            "The staircase CB(⌊t/2⌋, y, z) drawn as a picture has the value of \
             chocolate-staircase(f=t/2) at y,z (= y ⊕ z: ⌊t/2⌋ satisfies condition (a))",
            "S. Nakamura, R. Miyadera et al., Integers 20 (2020) #G1",
            |ctx| {
                let side = ctx.size.clamp(2, 12);
                let g = ChocolateBar;
                let mut solver = Solver::with_memory_limit(&g, ctx.memory_limit);
                let mut checked = 0;
                for z in 0..side {
                    for y in 0..=(z / 2) {
                        let bar = Bar::read(&staircase(|t| t / 2, y, z))?;
                        let v = solver.grundy(&bar.position())? as usize;
                        if v != y ^ z {
                            return Ok(Verdict::Fails {
                                counterexample: format!("CB(t/2, {y}, {z}) has G = {v}"),
                            });
                        }
                        checked += 1;
                    }
                }
                Ok(Verdict::Holds {
                    window: format!("z < {side}"),
                    checked,
                })
            },
        ),
    ]
}

/// The `chocolate-bar` family.
pub static FAMILY: Family = Family {
    name: "chocolate-bar",
    summary: "Chocolate bar of any shape: break along a grid line, eat the side without \
              the bitter square",
    params: &[],
    position_syntax: "a picture, rows top to bottom joined by '/': '#' a square, 'B' the \
                      bitter square, '.' none (e.g. ....##/..####/B#####)",
    seed: "S. Nakamura, R. Miyadera et al., \"Maximum Nim and chocolate bar games\" and \
           chocolate games that are variants of Nim, Integers 20 (2020) #G1",
    build,
    theorems,
    sweep: None,
};
