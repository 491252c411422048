//! What a position looks like, for pictures: a game whose positions are columns of unit
//! squares standing on one row (a chocolate bar, a staircase of cells) describes them
//! as such; the surfaces (`nimlab draw`, the web explorer) only turn the description
//! into SVG, PNG or text.
//!
//! The grid has a marked square at column 0, row 0 (a chocolate bar's bitter square).
//! Columns to its left have negative indices, rows grow upward. Every column is a run of
//! squares from row 0 up to its height, so a picture is its list of column heights.

use crate::error::Result;
use crate::game::Coord;

/// One column of squares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SquareColumn {
    /// Column index: 0 holds the marked square, negative ones lie to its left.
    pub index: i64,
    /// Number of squares in the column (rows 0..height).
    pub height: u64,
    /// The height the column has when nothing has been cut from above (a staircase's
    /// f(index) + 1), when the shape limits it; drawn as an outline.
    pub limit: Option<u64>,
}

/// A position drawn as columns of squares.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ColumnsPicture {
    /// The columns, left to right, indices consecutive.
    pub columns: Vec<SquareColumn>,
    /// One line naming the position, e.g. `CB(f, 2, 5) with f(t) = t/2`.
    pub caption: String,
}

impl ColumnsPicture {
    /// Whether the square at (column, row) is part of the picture.
    ///
    /// ```
    /// use nimlab_engine::picture::{SquareColumn, ColumnsPicture};
    /// let bar = ColumnsPicture {
    ///     columns: vec![SquareColumn { index: 0, height: 2, limit: None }],
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

    /// Every square of the picture as (column, row), column by column.
    pub fn squares(&self) -> impl Iterator<Item = (i64, u64)> + '_ {
        self.columns
            .iter()
            .flat_map(|c| (0..c.height).map(move |r| (c.index, r)))
    }

    /// The squares of this picture that `next` (the picture after a move) no longer has: the
    /// part eaten by the move.
    ///
    /// ```
    /// use nimlab_engine::picture::{SquareColumn, ColumnsPicture};
    /// let col = |index, height| SquareColumn { index, height, limit: None };
    /// let before = ColumnsPicture { columns: vec![col(0, 2), col(1, 2)], caption: String::new() };
    /// let after = ColumnsPicture { columns: vec![col(0, 2)], caption: String::new() };
    /// assert_eq!(before.eaten_by(&after), vec![(1, 0), (1, 1)]);
    /// ```
    pub fn eaten_by(&self, next: &ColumnsPicture) -> Vec<(i64, u64)> {
        self.squares()
            .filter(|&(c, r)| !next.contains(c, r))
            .collect()
    }

    /// Lowest and highest column index (`(0, 0)` for an empty picture).
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

/// A game whose positions are drawn as columns of squares (chocolate-bar games).
pub trait ColumnsDrawing: Send + Sync {
    /// The columns of the (legal) position `pos`, or why it cannot be drawn.
    fn columns_picture(&self, pos: &[Coord]) -> Result<ColumnsPicture>;
}
