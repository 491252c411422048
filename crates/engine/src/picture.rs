//! What a position looks like, for pictures: a game that is played on a bar of unit
//! squares (chocolate-bar games) describes the bar; the surfaces (`nimlab draw`, the
//! web explorer) only turn the description into SVG, PNG or text.
//!
//! The grid has the special (bitter) square at column 0, row 0. Columns to its left
//! have negative indices, rows grow upward. Every column is a run of squares from row 0
//! up to its height, so a bar is its list of column heights.

use crate::error::Result;
use crate::game::Coord;

/// One column of a bar.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BarColumn {
    /// Column index: 0 holds the bitter square, negative ones lie to its left.
    pub index: i64,
    /// Number of squares in the column (rows 0..height).
    pub height: u64,
    /// The height the column has when nothing has been cut from above (a staircase's
    /// f(index) + 1), when the bar's shape limits it; drawn as the staircase outline.
    pub limit: Option<u64>,
}

/// A position drawn as a chocolate bar.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BarPicture {
    /// The columns, left to right, indices consecutive.
    pub columns: Vec<BarColumn>,
    /// One line naming the bar, e.g. `CB(f, 2, 5) with f(t) = t/2`.
    pub caption: String,
}

impl BarPicture {
    /// Whether the square at (column, row) is part of the bar.
    ///
    /// ```
    /// use nimlab_engine::picture::{BarColumn, BarPicture};
    /// let bar = BarPicture {
    ///     columns: vec![BarColumn { index: 0, height: 2, limit: None }],
    ///     caption: String::new(),
    /// };
    /// assert!(bar.contains(0, 1));
    /// assert!(!bar.contains(0, 2) && !bar.contains(1, 0));
    /// ```
    pub fn contains(&self, column: i64, row: u64) -> bool {
        self.columns
            .iter()
            .any(|c| c.index == column && row < c.height)
    }

    /// Every square of the bar as (column, row), column by column.
    pub fn squares(&self) -> impl Iterator<Item = (i64, u64)> + '_ {
        self.columns
            .iter()
            .flat_map(|c| (0..c.height).map(move |r| (c.index, r)))
    }

    /// The squares of this bar that `next` (the bar after a move) no longer has: the
    /// part eaten by the move.
    ///
    /// ```
    /// use nimlab_engine::picture::{BarColumn, BarPicture};
    /// let col = |index, height| BarColumn { index, height, limit: None };
    /// let before = BarPicture { columns: vec![col(0, 2), col(1, 2)], caption: String::new() };
    /// let after = BarPicture { columns: vec![col(0, 2)], caption: String::new() };
    /// assert_eq!(before.eaten_by(&after), vec![(1, 0), (1, 1)]);
    /// ```
    pub fn eaten_by(&self, next: &BarPicture) -> Vec<(i64, u64)> {
        self.squares()
            .filter(|&(c, r)| !next.contains(c, r))
            .collect()
    }

    /// Lowest and highest column index (`(0, 0)` for an empty bar).
    pub fn column_range(&self) -> (i64, i64) {
        let lo = self.columns.iter().map(|c| c.index).min().unwrap_or(0);
        let hi = self.columns.iter().map(|c| c.index).max().unwrap_or(0);
        (lo, hi)
    }

    /// The tallest column, counting the staircase outline.
    pub fn max_height(&self) -> u64 {
        self.columns
            .iter()
            .map(|c| c.height.max(c.limit.unwrap_or(0)))
            .max()
            .unwrap_or(0)
    }
}

/// A game played on a chocolate bar: draws its positions.
pub trait BarGame: Send + Sync {
    /// The bar of the (legal) position `pos`, or why it cannot be drawn.
    fn bar(&self, pos: &[Coord]) -> Result<BarPicture>;
}
