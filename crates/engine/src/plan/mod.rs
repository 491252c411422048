//! The planner: every query answered by the best method the game offers.
//!
//! The surfaces (the `nimlab` CLI, the web explorer, the Python package) call these
//! entry points and print what they return; none of them chooses an algorithm. Each
//! answer says which [`Method`] produced it.
//!
//! Each query walks an ordered list of routes, values of one type (`route::Route`):
//! whether the route applies, its cost estimate, and its run. The first route that
//! applies and answers wins. The lists are in `plan/route.rs`; the route table of
//! `docs/architecture.md` and the README is made from them, [`route_table`] (a unit
//! test compares them). The code is split by query:
//!
//! | file | queries |
//! |---|---|
//! | `plan/value.rs` | [`value()`], [`moves`] (the `Planner`, Grundy and n-player routes) |
//! | `plan/table.rs` | [`table()`], [`computed_table`] |
//! | `plan/sequence.rs` | [`sequence()`], [`periodicity`], [`row_periodicity`] |
//! | `plan/search.rs` | the `search` route, [`search_value`] |
//! | `plan/route.rs` | [`MethodKind`], [`Method`], the routes and their lists |
//!
//! ```
//! use nimlab_engine::plan::{value, Method};
//! use nimlab_engine::big::parse_big_position;
//! use nimlab_engine::{Coord, Game, TableOptions};
//! struct Heap; // one heap, take any positive number: G(n) = n
//! impl Game for Heap {
//!     fn spec(&self) -> String { "heap".into() }
//!     fn dimension(&self) -> usize { 1 }
//!     fn is_downward_closed(&self) -> bool { true }
//!     fn for_each_option(&self, p: &[Coord], visit: &mut dyn FnMut(&[Coord])) {
//!         for u in 0..p[0] { visit(&[u]); }
//!     }
//! }
//! let a = value(&Heap, &parse_big_position("7").unwrap(), &TableOptions::default()).unwrap();
//! assert_eq!(a.grundy, Some(7u32.into()));
//! assert_eq!(a.method.id(), "brute-force");
//! ```

mod route;
mod search;
mod sequence;
mod table;
#[cfg(test)]
mod tests;
mod value;

pub use route::{route_table, Method, MethodKind};
pub use search::{
    merge_search_shards, root_options, search_shard, search_value, SearchSettings, SearchShard,
    ShardHit, DEFAULT_SHARD_BELOW, MAX_SHARDS, SEARCH_RANK,
};
pub use sequence::{periodicity, row_periodicity, sequence};
pub use table::RECURSION_PREFERRED;

use crate::big::{abbreviate, BigAnalysis, BigPosition, BigUint};
use crate::capability::TextTable;
use crate::error::{Error, Knob, Result};
use crate::game::{Game, Outcome};
use crate::table::{cell_count, describe_box, GrundyTable, TableOptions};
use value::Planner;

/// Largest line-kernel box (cells) a single `value` query computes when the game also
/// has a strategy to fall back on: about five seconds of work.
pub const EXACT_VALUE_CELLS: u64 = 1 << 28;
/// Largest one-heap sequence a single `value` query computes.
pub const EXACT_SEQUENCE_LEN: u64 = 1 << 26;
/// Most options `moves` lists.
pub const MAX_LISTED_OPTIONS: u128 = 1_000_000;
/// Most options `moves` values one by one (closed forms without a fast small form).
pub const MAX_EVALUATED_OPTIONS: u128 = 20_000;
/// Bytes one listed coordinate of a move or option may cost on its way to the printed
/// answer: the engine's position, the canonical copy the de-duplication keeps, the
/// big-integer report and the JSON document built from it.
pub const LISTED_COORDINATE_BYTES: u64 = 192;
/// Most coordinate evaluations `moves` spends valuing options one by one (options ×
/// coordinates per option).
pub const MAX_EVALUATED_COORDINATES: u128 = 1 << 22;

/// How many coordinates the lists of one answer (winning moves, options) may hold: a
/// quarter of the memory limit. A position of k coordinates has up to k·n options of k
/// coordinates each, so without this bound a 40 KB position asks for gigabytes. Games
/// that list moves themselves (closed forms) keep to it too.
///
/// ```
/// use nimlab_engine::{plan::listed_coordinates, MemoryLimit, TableOptions};
/// let opts = TableOptions { memory_limit: MemoryLimit::new(100 << 20), ..TableOptions::default() };
/// assert!(listed_coordinates(&opts) * 192 <= 25 << 20);
/// ```
pub fn listed_coordinates(opts: &TableOptions) -> u64 {
    (opts.memory_limit.bytes() / 4 / LISTED_COORDINATE_BYTES).max(64)
}

/// Default search bound for proven periods.
pub const DEFAULT_PROOF_SEARCH: u64 = 1 << 19;
/// Default window for observed periods.
pub const DEFAULT_OBSERVED_WINDOW: u64 = 2000;
/// Steps of work (the n-player closed form's dynamic programme) the options of one
/// position may take to be classified for a listing, all together: about as much as
/// one query's own class (seconds, not minutes); past it the options are not listed.
pub const NPLAYER_LISTING_STEPS: u64 = 15_000_000;

/// One option of a position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OptionReport {
    /// The position moved to.
    pub position: BigPosition,
    /// Its Grundy value, when known.
    pub grundy: Option<BigUint>,
    /// Whether it is a winning move (the option is a P-position).
    pub winning: bool,
}

/// The answer about one position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PositionReport {
    /// The position.
    pub position: BigPosition,
    /// Its Grundy value; `None` when only the outcome is known (a strategy).
    pub grundy: Option<BigUint>,
    /// P or N.
    pub outcome: Outcome,
    /// Winning moves (to P-positions); none from a P-position.
    pub winning_moves: Vec<BigPosition>,
    /// Whether `winning_moves` lists every winning move.
    pub all_winning_moves: bool,
    /// Every option with its value ([`moves`] only, when they can be listed).
    pub options: Option<Vec<OptionReport>>,
    /// Why the options are not listed, when they are not.
    pub options_note: Option<String>,
    /// How the answer was obtained.
    pub method: Method,
    /// For games played by n players: class, ranks and best moves ([`crate::nplayer`]).
    pub nplayer: Option<crate::nplayer::ClassReport>,
}

impl PositionReport {
    /// The report of a position whose Grundy value `g` was computed exactly by
    /// `method`, before its winning moves and options are added.
    fn of_value(position: BigPosition, g: u32, method: Method) -> Self {
        PositionReport {
            position,
            grundy: Some(g.into()),
            outcome: Outcome::of(g),
            winning_moves: Vec::new(),
            all_winning_moves: true,
            options: None,
            options_note: None,
            method,
            nplayer: None,
        }
    }

    fn from_big(a: BigAnalysis) -> Self {
        let id = if a.grundy.is_some() {
            MethodKind::ClosedForm
        } else {
            MethodKind::Strategy
        };
        PositionReport {
            position: a.position,
            grundy: a.grundy,
            outcome: a.outcome,
            winning_moves: a.winning_moves,
            all_winning_moves: a.all_winning_moves,
            options: None,
            options_note: None,
            method: Method::new(id, a.method),
            nplayer: None,
        }
    }
}

/// Value, outcome and winning moves of `pos` (coordinates of any size).
pub fn value(game: &dyn Game, pos: &[BigUint], opts: &TableOptions) -> Result<PositionReport> {
    Planner::new(game, opts).report(pos, false)
}

/// As [`value()`], plus every option with its value when the options are finitely many
/// and few enough to list ([`MAX_LISTED_OPTIONS`]); otherwise `options_note` says why
/// not.
pub fn moves(game: &dyn Game, pos: &[BigUint], opts: &TableOptions) -> Result<PositionReport> {
    Planner::new(game, opts).report(pos, true)
}

/// A table with the method that computed it.
#[derive(Debug, Clone)]
pub struct TableReport {
    /// The values.
    pub table: GrundyTable,
    /// How they were computed.
    pub method: Method,
}

/// The Grundy table of `game` over the box `dims`, by the fastest method it offers.
///
/// ```
/// use nimlab_engine::plan::table;
/// use nimlab_engine::{Coord, Game, TableOptions};
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
/// let t = table(&Nim2, &[8, 8], &TableOptions::default()).unwrap();
/// assert_eq!(t.table.get(&[5, 3]), Some(5 ^ 3));
/// assert_eq!(t.method.id(), "brute-force");
/// ```
pub fn table(game: &dyn Game, dims: &[usize], opts: &TableOptions) -> Result<TableReport> {
    table::table_with(game, dims, opts, true)
}

/// [`table()`] handed out as it is computed: every cell goes once to
/// `opts.progress`'s [`crate::Progress::cells_final`] (a band of rows at a time, in no
/// particular order) and no table is returned, when the route that answers is one that
/// streams — the line kernel — so a caller can write a large table out while it is
/// computed, without holding it (Wythoff's own kernel keeps half of it). `Ok(None)`,
/// with nothing computed, when another route comes first: the caller then asks
/// [`table()`].
///
/// ```
/// use nimlab_engine::capability::Capabilities;
/// use nimlab_engine::kernels::line::LineMoves;
/// use nimlab_engine::{plan, Coord, Game, Progress, TableOptions};
/// use std::sync::Mutex;
/// struct Wythoff;
/// impl Game for Wythoff {
///     fn spec(&self) -> String { "wythoff".into() }
///     fn dimension(&self) -> usize { 2 }
///     fn is_downward_closed(&self) -> bool { true }
///     fn for_each_option(&self, p: &[Coord], visit: &mut dyn FnMut(&[Coord])) {
///         for u in 0..p[0] { visit(&[u, p[1]]); }
///         for v in 0..p[1] { visit(&[p[0], v]); }
///         for s in 1..=p[0].min(p[1]) { visit(&[p[0] - s, p[1] - s]); }
///     }
///     fn capabilities(&self) -> Capabilities<'_> {
///         let line_moves = Some(LineMoves { diagonal_band: 1, steps: vec![] });
///         Capabilities { line_moves, ..Capabilities::none() }
///     }
/// }
/// struct Collect(Mutex<Vec<u32>>);
/// impl Progress for Collect {
///     fn start(&self, _: u64, _: &str) {}
///     fn advance(&self, _: u64) {}
///     fn cells_final(&self, first: usize, cells: &[u32]) {
///         self.0.lock().unwrap()[first..first + cells.len()].copy_from_slice(cells);
///     }
/// }
/// let cells = Collect(Mutex::new(vec![0; 80]));
/// let opts = TableOptions { progress: &cells, ..TableOptions::default() };
/// assert!(plan::table_streamed(&Wythoff, &[10, 8], &opts).unwrap().is_some());
/// let whole = plan::table(&Wythoff, &[10, 8], &TableOptions::default()).unwrap();
/// assert_eq!(cells.0.into_inner().unwrap(), whole.table.values());
/// ```
pub fn table_streamed(
    game: &dyn Game,
    dims: &[usize],
    opts: &TableOptions,
) -> Result<Option<Method>> {
    table::table_streamed(game, dims, opts)
}

/// Whether [`table_streamed`] would answer for this box: the line kernel is the route,
/// and its memory and work checks pass (their refusals are errors, as from
/// [`table()`]).
pub fn streams_table(game: &dyn Game, dims: &[usize], opts: &TableOptions) -> Result<bool> {
    table::streams_table(game, dims, opts)
}

/// As [`table()`], but computed from the rules only — kernels and brute force, never a
/// closed form — so that it can be compared with a conjectured formula (`check`).
pub fn computed_table(game: &dyn Game, dims: &[usize], opts: &TableOptions) -> Result<TableReport> {
    table::table_with(game, dims, opts, false)
}

/// Refuses a sequence kernel's work on `terms` values when its estimate is hours.
fn check_sequence_work(
    game: &dyn Game,
    kernel: &dyn crate::capability::SequenceKernel,
    terms: u64,
    opts: &TableOptions,
) -> Result<()> {
    match kernel.work_seconds(terms) {
        Some(seconds) => crate::table::check_seconds(
            &format!("the first {terms} values of {}", game.spec()),
            seconds,
            opts.force,
        ),
        None => Ok(()),
    }
}

/// Refuses a table of `bytes_per_cell` bytes a cell over `dims` beyond the memory limit.
fn check_cells(
    game: &dyn Game,
    dims: &[usize],
    bytes_per_cell: u64,
    opts: &TableOptions,
) -> Result<()> {
    let cells = cell_count(dims)?;
    let needed = cells
        .checked_mul(bytes_per_cell)
        .ok_or_else(|| Error::input("table box is too large"))?;
    opts.memory_limit.check(
        &format!("{} for {}", describe_box(dims), game.spec()),
        needed,
    )
}

/// The game's own strategy table for people (`None` if it has none).
pub fn strategy_table(game: &dyn Game, size: usize) -> Result<Option<TextTable>> {
    match game.capabilities().strategy_table {
        Some(t) => t.strategy_table(size).map(Some),
        None => Ok(None),
    }
}

/// Reads a position of `game` as people write it: coordinates separated by commas,
/// the parts of a sum of take-and-break games separated by `;`.
///
/// ```
/// use nimlab_engine::plan::{read_position, write_position};
/// use nimlab_engine::{Coord, Game};
/// struct Heap;
/// impl Game for Heap {
///     fn spec(&self) -> String { "heap".into() }
///     fn dimension(&self) -> usize { 1 }
///     fn for_each_option(&self, p: &[Coord], visit: &mut dyn FnMut(&[Coord])) {}
/// }
/// let p = read_position(&Heap, "7").unwrap();
/// assert_eq!(write_position(&Heap, &p), "7");
/// assert!(read_position(&Heap, "7;3").is_err());
/// ```
pub fn read_position(game: &dyn Game, text: &str) -> Result<BigPosition> {
    if text.trim() == crate::position::START {
        return game.start_position().ok_or_else(|| {
            Error::input(format!(
                "{} has no starting position of its own: write a position",
                game.spec()
            ))
        });
    }
    game.read_position(text)
}

/// Writes a position of `game` as people read it (the inverse of [`read_position`]),
/// long numbers shortened.
pub fn write_position(game: &dyn Game, pos: &[BigUint]) -> String {
    game.show_position(pos).text()
}

/// `3,5` with long numbers shortened.
pub fn position_text(pos: &[BigUint]) -> String {
    pos.iter()
        .map(|c| abbreviate(&c.to_str_radix(10)))
        .collect::<Vec<_>>()
        .join(",")
}

/// The error of a window of heaps beyond what memory can index.
fn window_too_large(up_to: u64) -> Error {
    Error::out_of_range(
        "the window of heaps",
        up_to,
        format!("at most {}", usize::MAX),
        Knob::UpTo,
    )
}
