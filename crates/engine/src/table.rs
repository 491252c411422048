//! Dense Grundy tables over boxes `[0,d0) × [0,d1) × …`.
//!
//! Storage is row-major with the *first* coordinate fastest, so for two coordinates
//! `values[x + d0 * y]` — row `y`, column `x`, as the papers print their tables.

use crate::error::{Error, Result};
use crate::game::{format_position, Coord, Game, Position};
use crate::memory::MemoryLimit;
use crate::mex::MexScratch;
use crate::progress::{NoProgress, Progress};
use crate::rule::ValueRule;
use crate::solver::Solver;

/// Marks a cell of the box that is not a legal position of the game.
pub const INVALID: u32 = u32::MAX;
/// Marks a cell not computed yet (never visible outside this module).
const UNFILLED: u32 = u32::MAX - 1;

/// Grundy values of every position in a box.
///
/// ```
/// use nimlab_engine::GrundyTable;
/// let t = GrundyTable::from_parts(vec![2, 2], vec![0, 1, 1, 0]).unwrap();
/// assert_eq!(t.get(&[1, 0]), Some(1));
/// assert_eq!(t.get(&[2, 0]), None);
/// assert_eq!(t.position_of(3), vec![1, 1]);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GrundyTable {
    dims: Vec<usize>,
    values: Vec<u32>,
}

impl GrundyTable {
    /// A table from its box and its values in storage order ([`INVALID`] for cells that
    /// are not positions). Errors if the lengths disagree.
    pub fn from_parts(dims: Vec<usize>, values: Vec<u32>) -> Result<Self> {
        let cells = cell_count(&dims)?;
        if cells != values.len() as u64 {
            return Err(Error::input(format!(
                "table box has {cells} cells but {} values were given",
                values.len()
            )));
        }
        Ok(GrundyTable { dims, values })
    }

    /// The box: number of values of each coordinate.
    pub fn dims(&self) -> &[usize] {
        &self.dims
    }

    /// All values in storage order (first coordinate fastest).
    pub fn values(&self) -> &[u32] {
        &self.values
    }

    /// Consumes the table, giving its values.
    pub fn into_values(self) -> Vec<u32> {
        self.values
    }

    /// Storage index of `pos`, if it lies in the box.
    #[inline]
    pub fn index(&self, pos: &[Coord]) -> Option<usize> {
        box_index(&self.dims, pos)
    }

    /// The value at `pos`; `None` outside the box or where `pos` is not a position.
    pub fn get(&self, pos: &[Coord]) -> Option<u32> {
        let v = self.values[self.index(pos)?];
        (v != INVALID).then_some(v)
    }

    /// The position stored at `index`.
    pub fn position_of(&self, mut index: usize) -> Position {
        self.dims
            .iter()
            .map(|&d| {
                let c = index % d;
                index /= d;
                c as Coord
            })
            .collect()
    }

    /// Iterates `(position, value)` over the legal positions of the box.
    pub fn iter(&self) -> impl Iterator<Item = (Position, u32)> + '_ {
        self.values
            .iter()
            .enumerate()
            .filter(|&(_, &v)| v != INVALID)
            .map(|(i, &v)| (self.position_of(i), v))
    }

    /// The largest value in the table (0 for an empty table).
    pub fn max_value(&self) -> u32 {
        self.values
            .iter()
            .copied()
            .filter(|&v| v != INVALID)
            .max()
            .unwrap_or(0)
    }
}

/// Index of `pos` in a box stored first-coordinate-fastest.
#[inline]
pub fn box_index(dims: &[usize], pos: &[Coord]) -> Option<usize> {
    if pos.len() != dims.len() {
        return None;
    }
    let mut index = 0usize;
    for (&c, &d) in pos.iter().zip(dims).rev() {
        if c >= d as Coord {
            return None;
        }
        index = index * d + c as usize;
    }
    Some(index)
}

/// Number of cells of a box, or an error if it overflows.
pub fn cell_count(dims: &[usize]) -> Result<u64> {
    dims.iter().try_fold(1u64, |acc, &d| {
        acc.checked_mul(d as u64)
            .ok_or_else(|| Error::input("table box is too large to count its cells"))
    })
}

/// How to compute a table.
pub struct TableOptions<'a> {
    /// Refuse tables whose estimate exceeds this.
    pub memory_limit: MemoryLimit,
    /// Receives progress in cells.
    pub progress: &'a dyn Progress,
    /// Run brute-force work even when its estimate exceeds [`WORK_LIMIT`].
    pub force: bool,
}

impl Default for TableOptions<'_> {
    fn default() -> Self {
        TableOptions {
            memory_limit: MemoryLimit::default(),
            progress: &NoProgress,
            force: false,
        }
    }
}

/// Option visits a brute-force computation may make without `force`: about ten minutes at
/// the ten million visits a second the memoized solver manages (a generic table does
/// better; the estimate is an upper bound from the options of the largest position).
pub const WORK_LIMIT: u128 = 6_000_000_000;
/// Option visits a second, for the time estimates of refusals.
const VISITS_PER_SECOND: f64 = 1e7;

/// Refuses brute force over about `positions` positions of `game`, each with at most
/// `options` options, when the work would exceed [`WORK_LIMIT`] (unless `force`).
pub fn check_work(what: &str, positions: u128, options: u128, force: bool) -> Result<()> {
    let work = positions.saturating_mul(options.max(1));
    if work <= WORK_LIMIT || force {
        return Ok(());
    }
    Err(Error::TooLong {
        what: what.to_string(),
        seconds: (work as f64 / VISITS_PER_SECOND) as u64,
    })
}

/// Option visits a second of a generic table (an array read per option, where the
/// memoized solver pays a hash look-up): measured about 1.3 · 10^8 on rook-and-knight
/// moves (examples/knight.toml, 2000 × 2000 in 61 s on an idle core).
const DENSE_VISITS_PER_SECOND: f64 = 1e8;

/// Estimated seconds of a generic table over `dims`: every cell times the options of
/// the box's middle cell (the options of a position grow with its coordinates, so the
/// middle stands for the average; the far corner would count them twice).
///
/// ```
/// use nimlab_engine::{Coord, Game};
/// struct Rook;
/// impl Game for Rook {
///     fn spec(&self) -> String { "rook".into() }
///     fn dimension(&self) -> usize { 2 }
///     fn is_downward_closed(&self) -> bool { true }
///     fn max_options(&self, p: &[Coord]) -> Option<u128> { Some((p[0] + p[1]) as u128) }
///     fn for_each_option(&self, _: &[Coord], _: &mut dyn FnMut(&[Coord])) {}
/// }
/// let s = nimlab_engine::table::dense_table_seconds(&Rook, &[2000, 2000]).unwrap();
/// assert!((s - 80.0).abs() < 1.0, "{s}"); // 4·10^6 cells × 2000 options at 10^8 a second
/// ```
pub fn dense_table_seconds(game: &dyn Game, dims: &[usize]) -> Result<f64> {
    let middle: Position = dims.iter().map(|&d| (d / 2) as Coord).collect();
    let visits = (cell_count(dims)? as f64) * (options_bound(game, &middle).max(1) as f64);
    Ok(visits / DENSE_VISITS_PER_SECOND)
}

/// Refuses work estimated at `seconds` (wall-clock) past the same threshold as
/// [`check_work`] — about ten minutes — unless `force`: for computations that estimate
/// their time their own way (e.g. an octal census).
///
/// ```
/// use nimlab_engine::table::check_seconds;
/// assert!(check_seconds("a census", 60.0, false).is_ok());
/// assert!(check_seconds("a census", 3600.0, false).is_err());
/// assert!(check_seconds("a census", 3600.0, true).is_ok());
/// ```
pub fn check_seconds(what: &str, seconds: f64, force: bool) -> Result<()> {
    if force || seconds <= WORK_LIMIT as f64 / VISITS_PER_SECOND {
        return Ok(());
    }
    Err(Error::TooLong {
        what: what.to_string(),
        seconds: seconds as u64,
    })
}

/// An upper bound on the options of a position of `game` near `pos` (its own bound, or
/// twice the rank: right for take-away games).
pub fn options_bound(game: &dyn Game, pos: &[Coord]) -> u128 {
    game.max_options(pos)
        .unwrap_or_else(|| game.rank(pos).saturating_mul(2).saturating_add(16))
}

/// Bytes a generic table over `dims` needs (values, plus the fill order when the game
/// is not downward closed).
pub fn estimate_table_bytes(dims: &[usize], downward_closed: bool) -> Result<u64> {
    let cells = cell_count(dims)?;
    let per_cell = if downward_closed { 4 } else { 4 + 24 };
    cells
        .checked_mul(per_cell)
        .ok_or_else(|| Error::input("table box is too large"))
}

/// Describes a box for messages: `table 13x13`.
pub fn describe_box(dims: &[usize]) -> String {
    let d: Vec<String> = dims.iter().map(|d| d.to_string()).collect();
    format!("table {}", d.join("x"))
}

/// The Grundy value of every position of `game` in the box `dims`.
///
/// Cells that are not legal positions hold [`INVALID`]. The memory needed is estimated
/// first and refused past `opts.memory_limit`. Two-coordinate line games
/// ([`crate::capability::Capabilities::line_moves`]) are filled by the fast [`crate::kernels::line`] kernel.
/// Options outside the box (possible when moves may raise a coordinate) are evaluated
/// by a [`Solver`].
///
/// ```
/// use nimlab_engine::{grundy_table, Game, Coord, TableOptions};
/// struct Nim2;
/// impl Game for Nim2 {
///     fn spec(&self) -> String { "nim".into() }
///     fn dimension(&self) -> usize { 2 }
///     fn is_downward_closed(&self) -> bool { true }
///     fn for_each_option(&self, p: &[Coord], visit: &mut dyn FnMut(&[Coord])) {
///         for u in 0..p[0] { visit(&[u, p[1]]); }
///         for v in 0..p[1] { visit(&[p[0], v]); }
///     }
/// }
/// let t = grundy_table(&Nim2, &[8, 8], &TableOptions::default()).unwrap();
/// assert_eq!(t.get(&[5, 3]), Some(5 ^ 3));
/// ```
pub fn grundy_table(game: &dyn Game, dims: &[usize], opts: &TableOptions) -> Result<GrundyTable> {
    check_box_dimension(game, dims)?;
    if let Some(moves) = line_kernel_moves(game, dims) {
        // Line games (Wythoff, Ryuoh …) get the fast kernel, same values.
        check_line_kernel(game, &moves, dims, opts)?;
        let values = crate::kernels::line::line_table(
            &moves,
            game.terminal_value(),
            dims[0],
            dims[1],
            opts.progress,
        )?;
        return GrundyTable::from_parts(dims.to_vec(), values);
    }
    let downward = game.is_downward_closed();
    let needed = estimate_table_bytes(dims, downward)?;
    let what = format!("{} for {}", describe_box(dims), game.spec());
    opts.memory_limit.check(&what, needed)?;
    check_seconds(
        &format!("the brute-force {what}"),
        dense_table_seconds(game, dims)?,
        opts.force,
    )?;
    generic_table(game, dims, downward, opts)
}

/// [`grundy_table`] of a line game (`line_kernel_moves(game, dims)` is `Some`) handed
/// out as it is computed: every cell once to `opts.progress`'s
/// [`crate::Progress::cells_final`] ([`crate::kernels::line::line_table_streamed`]).
/// Errors (and computes nothing) for another game.
pub fn grundy_table_streamed(game: &dyn Game, dims: &[usize], opts: &TableOptions) -> Result<()> {
    check_box_dimension(game, dims)?;
    let Some(moves) = line_kernel_moves(game, dims) else {
        return Err(Error::Contract(format!(
            "{}: only line games are streamed",
            game.spec()
        )));
    };
    check_line_kernel(game, &moves, dims, opts)?;
    crate::kernels::line::line_table_streamed(
        &moves,
        game.terminal_value(),
        dims[0],
        dims[1],
        opts.progress,
    )
}

/// Refuses the line kernel's table of `game` over `dims` beyond the memory limit (the
/// values, the line sets) or when its work is hours.
pub(crate) fn check_line_kernel(
    game: &dyn Game,
    moves: &crate::kernels::line::LineMoves,
    dims: &[usize],
    opts: &TableOptions,
) -> Result<()> {
    let needed = crate::kernels::line::line_table_bytes(moves, dims[0], dims[1])?;
    opts.memory_limit.check(
        &format!("{} for {}", describe_box(dims), game.spec()),
        needed,
    )?;
    // Every cell visits each diagonal step: Ryuoh Nim with p = 1024 has half a
    // million of them, hours over a 1024 × 1024 box.
    check_work(
        &format!(
            "the line kernel on {} over the {}",
            game.spec(),
            describe_box(dims)
        ),
        cell_count(dims)? as u128,
        moves.steps.len() as u128,
        opts.force,
    )
}

/// `Ok` if the box `dims` has one extent per coordinate of `game`.
pub fn check_box_dimension(game: &dyn Game, dims: &[usize]) -> Result<()> {
    if !game.form().writes_numbers() {
        return Err(Error::input(format!(
            "{} has no table: its positions are not tuples of numbers; ask for single \
             positions with value or moves",
            game.spec()
        )));
    }
    if dims.len() == game.dimension() {
        return Ok(());
    }
    Err(Error::input(format!(
        "{} has {} coordinates but the table box has {}",
        game.spec(),
        game.dimension(),
        dims.len()
    )))
}

/// The line moves of `game` when the line kernel applies to a table over `dims`
/// (two coordinates, line moves declared, diagonal band within the kernel's reach).
pub fn line_kernel_moves(
    game: &dyn Game,
    dims: &[usize],
) -> Option<crate::kernels::line::LineMoves> {
    if dims.len() != 2 {
        return None;
    }
    game.capabilities()
        .line_moves
        .filter(|m| m.diagonal_band <= crate::kernels::line::MAX_BAND as u64)
}

/// The plain brute-force table: every cell is the mex of its options. This is the
/// oracle every fast kernel is tested against.
pub fn generic_table(
    game: &dyn Game,
    dims: &[usize],
    downward: bool,
    opts: &TableOptions,
) -> Result<GrundyTable> {
    generic_table_by_rule(game, ValueRule::of(game), dims, downward, opts)
}

/// [`generic_table`] with the values `rule` gives: the one box walk behind Grundy
/// tables and n-player class tables ([`crate::nplayer::class_table`]).
pub fn generic_table_by_rule(
    game: &dyn Game,
    rule: ValueRule,
    dims: &[usize],
    downward: bool,
    opts: &TableOptions,
) -> Result<GrundyTable> {
    let cells = cell_count(dims)? as usize;
    let mut values = vec![UNFILLED; cells];
    let mut table_pos: Position = vec![0; dims.len()];
    let mut scratch = MexScratch::default();
    let mut option_values: Vec<u32> = Vec::new();
    let mut outside = Solver::with_rule(game, rule, opts.memory_limit);
    // A move to several heaps of a one-heap game is valued by ⊕: Grundy values only.
    let sums = rule.is_grundy() && crate::capability::is_sum_of_heaps(game);
    let order: Option<Vec<usize>> = (!downward).then(|| cells_by_rank(game, dims, cells));
    let step = (cells / 1000).max(1);
    opts.progress.start(cells as u64, "cells");
    for k in 0..cells {
        let i = order.as_ref().map_or(k, |o| o[k]);
        fill_position(dims, i, &mut table_pos);
        if game.position_error(&table_pos).is_some() {
            values[i] = INVALID;
            continue;
        }
        option_values.clear();
        let mut failure: Option<Error> = None;
        game.for_each_option(&table_pos, &mut |o| {
            if failure.is_some() {
                return;
            }
            if sums && o.len() > 1 && dims.len() == 1 {
                // A move that leaves several heaps: the nim-sum of the heaps' values,
                // all of them smaller heaps already in the table.
                let mut v = 0;
                for &c in o {
                    match box_index(dims, &[c]).map(|j| values[j]) {
                        Some(w) if w < UNFILLED => v ^= w,
                        _ => match outside.grundy(&[c]) {
                            Ok(w) => v ^= w,
                            Err(e) => {
                                failure = Some(e);
                                return;
                            }
                        },
                    }
                }
                option_values.push(v);
                return;
            }
            match box_index(dims, o) {
                Some(j) => {
                    let v = values[j];
                    if v >= UNFILLED {
                        failure = Some(Error::Contract(format!(
                            "{} moves from {} to {}, which {}",
                            game.spec(),
                            format_position(&table_pos),
                            format_position(o),
                            if v == INVALID {
                                "is not a legal position"
                            } else {
                                "does not have a lower rank"
                            }
                        )));
                    } else {
                        option_values.push(v);
                    }
                }
                None => match outside.grundy(o) {
                    Ok(v) => option_values.push(v),
                    Err(e) => failure = Some(e),
                },
            }
        });
        if let Some(e) = failure {
            return Err(e);
        }
        values[i] = rule.combine(&option_values, game.terminal_value(), &mut scratch);
        if k % step == step - 1 {
            opts.progress.check_cancelled()?;
            opts.progress.advance(step as u64);
        }
    }
    opts.progress.finish();
    Ok(GrundyTable {
        dims: dims.to_vec(),
        values,
    })
}

/// The box's `cells` in increasing rank (ties in index order): every option has a lower
/// rank, so it comes before its position even when moves may raise a coordinate.
fn cells_by_rank(game: &dyn Game, dims: &[usize], cells: usize) -> Vec<usize> {
    let mut table_pos: Position = vec![0; dims.len()];
    let mut idx: Vec<(u128, usize)> = (0..cells)
        .map(|i| {
            fill_position(dims, i, &mut table_pos);
            (game.rank(&table_pos), i)
        })
        .collect();
    idx.sort_unstable();
    idx.into_iter().map(|(_, i)| i).collect()
}

#[inline]
fn fill_position(dims: &[usize], mut index: usize, pos: &mut [Coord]) {
    for (c, &d) in pos.iter_mut().zip(dims) {
        *c = (index % d) as Coord;
        index /= d;
    }
}
