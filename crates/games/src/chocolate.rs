//! The rectangular chocolate bar {x, y, z} (docs/theory.md §5): the bitter square has
//! x columns to its left, y rows above it and z columns to its right. A break along a
//! grid line lowers one of the three numbers, so the game is three-heap Nim.

use crate::nim::Bouton;
use crate::{Args, Family};
use nimlab_engine::capability::Capabilities;
use nimlab_engine::nimarith::nim_sum;
use nimlab_engine::picture::{ColumnsDrawing, ColumnsPicture, SquareColumn};
use nimlab_engine::theorem::check_grundy_formula;
use nimlab_engine::{Coord, Error, Game, Result, Theorem};

/// Largest bar side drawn or listed: a picture of more columns is unreadable anyway.
pub const MAX_DRAWN: u64 = 1 << 20;

/// The rectangular chocolate bar, position `x,y,z` (breaks possible left of, above and
/// right of the bitter square).
///
/// ```
/// use nimlab_engine::{Game, Solver};
/// use nimlab_games::chocolate::Chocolate;
/// // The seed's Figure 1.1: {3,3,2} is three-heap Nim with heaps 3, 3, 2.
/// assert_eq!(Solver::new(&Chocolate).grundy(&[3, 3, 2]).unwrap(), 2);
/// assert_eq!(Chocolate.options(&[1, 0, 1]), vec![vec![0, 0, 1], vec![1, 0, 0]]);
/// ```
#[derive(Debug, Clone, Copy)]
pub struct Chocolate;

impl Game for Chocolate {
    fn spec(&self) -> String {
        "chocolate".into()
    }
    fn dimension(&self) -> usize {
        3
    }
    fn is_downward_closed(&self) -> bool {
        true
    }
    fn coordinate_names(&self) -> Vec<String> {
        vec!["x".into(), "y".into(), "z".into()]
    }
    fn for_each_option(&self, pos: &[Coord], visit: &mut dyn FnMut(&[Coord])) {
        let mut next = pos.to_vec();
        for i in 0..3 {
            for u in 0..pos[i] {
                next[i] = u;
                visit(&next);
            }
            next[i] = pos[i];
        }
    }
    fn max_options(&self, pos: &[Coord]) -> Option<u128> {
        Some(pos.iter().map(|&c| c as u128).sum())
    }
    fn capabilities(&self) -> Capabilities<'_> {
        Capabilities {
            big: Some(&Bouton),
            columns_picture: Some(self),
            ..Capabilities::none()
        }
    }
}

impl ColumnsDrawing for Chocolate {
    /// Columns −x … z, each y + 1 squares high.
    fn columns_picture(&self, pos: &[Coord]) -> Result<ColumnsPicture> {
        self.check_position(pos)?;
        let (x, y, z) = (pos[0], pos[1], pos[2]);
        if x.max(z).max(y) >= MAX_DRAWN {
            return Err(Error::input(format!(
                "{{{x},{y},{z}}} is too large to draw (sides below {MAX_DRAWN})"
            )));
        }
        let columns = (-(x as i64)..=z as i64)
            .map(|index| SquareColumn {
                index,
                height: y + 1,
                limit: None,
            })
            .collect();
        Ok(ColumnsPicture {
            columns,
            caption: format!("rectangular bar {{{x},{y},{z}}} = Nim heaps {x}, {y}, {z}"),
        })
    }
}

fn build(_args: &Args) -> Result<Box<dyn Game>> {
    Ok(Box::new(Chocolate))
}

fn theorems() -> Vec<Theorem> {
    vec![Theorem::new(
        "chocolate.nim",
        "The rectangular bar {x,y,z} is three-heap Nim: G = x ⊕ y ⊕ z",
        "[Chocolate], Figure 1.1; [Bouton]",
        |ctx| {
            let side = ctx.size.min(24);
            check_grundy_formula(&Chocolate, &[side; 3], ctx, nim_sum)
        },
    )]
}

/// The `chocolate` family.
pub static FAMILY: Family = Family {
    name: "chocolate",
    summary: "Rectangular chocolate bar {x,y,z}: breaks left of, above and right of the bitter \
              square; three-heap Nim",
    params: &[],
    position_syntax: "x,y,z (breaks possible left of, above and right of the bitter square)",
    seed: "Untitled account of staircase chocolate bars, Miyadera's group (in Japanese, \
           about 2018), Figure 1.1 [Chocolate]",
    build,
    theorems,
    sweep: None,
};
