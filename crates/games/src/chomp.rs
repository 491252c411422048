//! Chomp: a chocolate bar whose bottom left square is poisoned. A move takes a square
//! and every square above and to the right of it; the poisoned square is never taken,
//! so whoever faces it alone loses (D. Gale, "A curious Nim-type game", Amer. Math.
//! Monthly 81 (1974); F. Schuh, 1952).
//!
//! A position is the row lengths of a Young diagram, bottom row (with the poisoned
//! square) first and longest first: `5,5,5` is the 3 × 5 bar, `4,2,1` a staircase.
//! Rows of length 0 may end the list (they are the rows a move emptied).
//!
//! ```
//! use nimlab_games::parse_game;
//! use nimlab_engine::Solver;
//! let g = parse_game("chomp").unwrap();
//! // Two rows: (n, n − 1) are the P-positions.
//! assert_eq!(Solver::new(&*g).grundy(&[5, 4]).unwrap(), 0);
//! assert_ne!(Solver::new(&*g).grundy(&[5, 5]).unwrap(), 0);
//! ```

use crate::{Args, Family, Param};
use nimlab_engine::theorem::Verdict;
use nimlab_engine::{Coord, Game, Result, Solver, Theorem};

/// Chomp; `rows` is the number of rows of a table (positions may have any number).
#[derive(Debug, Clone)]
pub struct Chomp {
    rows: usize,
}

impl Chomp {
    /// Chomp whose tables have `rows` rows.
    pub fn new(rows: usize) -> Self {
        Chomp { rows }
    }
}

impl Game for Chomp {
    fn spec(&self) -> String {
        format!("chomp(rows={})", self.rows)
    }
    fn dimension(&self) -> usize {
        self.rows
    }
    fn form(&self) -> nimlab_engine::position::PositionForm {
        // Any number of rows; `rows` sizes tables only.
        nimlab_engine::position::PositionForm::heaps(true)
    }
    fn coordinate_names(&self) -> Vec<String> {
        (0..self.rows).map(|i| format!("r{i}")).collect()
    }
    fn for_each_option(&self, pos: &[Coord], visit: &mut dyn FnMut(&[Coord])) {
        // Take the square (row i, column j) and everything above and right of it.
        let mut next = pos.to_vec();
        for i in 0..pos.len() {
            for j in 0..pos[i] {
                if i == 0 && j == 0 {
                    continue; // the poisoned square
                }
                next.copy_from_slice(pos);
                for r in &mut next[i..] {
                    *r = (*r).min(j);
                }
                visit(&next);
            }
        }
    }
    fn position_error(&self, pos: &[Coord]) -> Option<String> {
        if pos[0] == 0 {
            return Some("the bottom row holds the poisoned square: its length is ≥ 1".into());
        }
        pos.windows(2)
            .any(|w| w[1] > w[0])
            .then(|| "row lengths go bottom to top, each at most the one below".into())
    }
    fn is_downward_closed(&self) -> bool {
        true
    }
    fn max_options(&self, pos: &[Coord]) -> Option<u128> {
        Some(pos.iter().map(|&r| r as u128).sum())
    }
}

fn build(args: &Args) -> Result<Box<dyn Game>> {
    Ok(Box::new(Chomp::new(args.int("rows", 1)?.min(64) as usize)))
}

fn theorems() -> Vec<Theorem> {
    vec![
        Theorem::new(
            "chomp.two-rows",
            "Two-row Chomp: (a, b) is a P-position exactly when b = a − 1",
            "D. Gale, \"A curious Nim-type game\", Amer. Math. Monthly 81 (1974); D. \
             Zeilberger, \"Three-rowed Chomp\", Adv. Appl. Math. 26 (2001)",
            |ctx| {
                let n = ctx.size.clamp(2, 200) as u64;
                let g = Chomp::new(2);
                let mut solver = Solver::with_memory_limit(&g, ctx.memory_limit);
                let mut checked = 0;
                for a in 1..n {
                    for b in 0..=a {
                        let v = solver.grundy(&[a, b])?;
                        if (v == 0) != (b + 1 == a) {
                            return Ok(Verdict::Fails {
                                counterexample: format!("G({a},{b}) = {v}"),
                            });
                        }
                        checked += 1;
                    }
                }
                Ok(Verdict::Holds {
                    window: format!("a < {n}"),
                    checked,
                })
            },
        ),
        Theorem::new(
            "chomp.rectangles",
            "Every rectangle but the poisoned square alone is an N-position (strategy \
             stealing: if taking the top right square lost, the answer to it would win)",
            "D. Gale, \"A curious Nim-type game\", Amer. Math. Monthly 81 (1974)",
            |ctx| {
                let side = ctx.size.clamp(2, 7) as u64;
                let mut checked = 0;
                for rows in 1..=side as usize {
                    let g = Chomp::new(rows);
                    let mut solver = Solver::with_memory_limit(&g, ctx.memory_limit);
                    for cols in 1..=side {
                        if rows == 1 && cols == 1 {
                            continue;
                        }
                        let v = solver.grundy(&vec![cols; rows])?;
                        if v == 0 {
                            return Ok(Verdict::Fails {
                                counterexample: format!("the {rows} × {cols} bar has G = 0"),
                            });
                        }
                        checked += 1;
                    }
                }
                Ok(Verdict::Holds {
                    window: format!("rectangles up to {side} × {side}"),
                    checked,
                })
            },
        ),
    ]
}

/// The `chomp` family.
pub static FAMILY: Family = Family {
    name: "chomp",
    summary: "Chomp: take a square and all squares above and right of it; the poisoned \
              corner is never taken",
    params: &[Param {
        name: "rows",
        kind: "integer ≥ 1",
        default: Some("2"),
        example: None,
        help: "rows of a table (positions may have any number of rows)",
    }],
    position_syntax: "row lengths, bottom row first, each at most the one below (5,5,5 is \
                      the 3 × 5 bar)",
    seed: "D. Gale, \"A curious Nim-type game\", Amer. Math. Monthly 81 (1974); P. Beling, \
           M. Rogalski, \"On pruning search trees of impartial games\", Artificial \
           Intelligence 283 (2020)",
    build,
    theorems,
    sweep: None,
};
