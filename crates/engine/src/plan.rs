//! The planner: every query answered by the best method the game offers.
//!
//! The surfaces (the `nimlab` CLI, the web explorer, the Python package) call these
//! entry points and print what they return; none of them chooses an algorithm. Each
//! answer says which [`Method`] produced it.
//!
//! | query | methods, in order of preference |
//! |---|---|
//! | [`value`], [`moves`] | components (nim-sum of the parts) → closed form for any size → line kernel over the position's box → sequence kernel → brute-force solver → strategy (outcome and winning move only) |
//! | [`table`], [`sequence`] | the game's table kernel → parts' tables combined by ⊕ → sequence kernel → line kernel → closed form cell by cell → brute force |
//! | [`periodicity`] | the game's proof (certified period) → a period observed on the sequence |
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

use crate::big::{abbreviate, to_small, BigAnalysis, BigPosition, BigUint};
use crate::capability::{Decomposition, TextTable};
use crate::error::{Error, Knob, Result};
use crate::game::{format_position, Coord, Game, Outcome, Position};
use crate::periodicity::{find_arithmetic_period, Periodicity};
use crate::rule::ValueRule;
use crate::solver::Solver;
use crate::table::{
    cell_count, describe_box, grundy_table, line_kernel_moves, GrundyTable, TableOptions, INVALID,
};
use std::ops::Range;

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

/// The routes of the planner: every answer names the one that produced it. The same
/// routes answer two-player Grundy values and n-player classes ([`ValueRule`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MethodKind {
    /// The game's closed form (a theorem), for positions of any size.
    ClosedForm,
    /// The game's winning strategy: outcome and winning moves, no value.
    Strategy,
    /// The parts of a sum valued one by one and combined by ⊕.
    Components,
    /// The line kernel over a box (rook lines and a diagonal band).
    LineKernel,
    /// The game's one-heap sequence kernel.
    SequenceKernel,
    /// A period proven by the game's sequence kernel.
    CertifiedPeriod,
    /// The game's own table kernel.
    TableKernel,
    /// Brute force: the value rule over every reachable position.
    BruteForce,
    /// A period observed on a window, not proven.
    ObservedPeriod,
    /// A misère heap game's outcome from its misère quotient
    /// ([`crate::misere_quotient`]): outcome and winning moves, no value.
    MisereQuotient,
}

impl MethodKind {
    /// Every kind, in the order of the enum.
    pub const ALL: [MethodKind; 10] = [
        MethodKind::ClosedForm,
        MethodKind::Strategy,
        MethodKind::Components,
        MethodKind::LineKernel,
        MethodKind::SequenceKernel,
        MethodKind::CertifiedPeriod,
        MethodKind::TableKernel,
        MethodKind::BruteForce,
        MethodKind::ObservedPeriod,
        MethodKind::MisereQuotient,
    ];

    /// The stable id programs read (`closed-form`, `line-kernel`, …).
    pub fn id(self) -> &'static str {
        match self {
            MethodKind::ClosedForm => "closed-form",
            MethodKind::Strategy => "strategy",
            MethodKind::Components => "components",
            MethodKind::LineKernel => "line-kernel",
            MethodKind::SequenceKernel => "sequence-kernel",
            MethodKind::CertifiedPeriod => "certified-period",
            MethodKind::TableKernel => "table-kernel",
            MethodKind::BruteForce => "brute-force",
            MethodKind::ObservedPeriod => "observed-period",
            MethodKind::MisereQuotient => "misere-quotient",
        }
    }
}

/// How an answer was obtained: a stable [`id`](Method::id) for programs, from its
/// [`MethodKind`] (a `Method` is only ever made from one, [`Method::new`]), and a
/// `detail` for people.
///
/// ```
/// use nimlab_engine::plan::{Method, MethodKind};
/// let m = Method::new(MethodKind::LineKernel, "line kernel over the box 4x7");
/// assert_eq!(m.id(), "line-kernel");
/// assert_eq!(m.kind(), MethodKind::LineKernel);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Method {
    /// The route; private so that the id always is a kind's.
    kind: MethodKind,
    /// What exactly, e.g. "Bouton's theorem: the nim-sum of the heaps".
    pub detail: String,
}

impl Method {
    /// The route `kind`, with what exactly it did.
    pub fn new(kind: MethodKind, detail: impl Into<String>) -> Self {
        Method {
            kind,
            detail: detail.into(),
        }
    }

    /// The route's stable id, [`MethodKind::id`].
    pub fn id(&self) -> &'static str {
        self.kind.id()
    }

    /// The route.
    pub fn kind(&self) -> MethodKind {
        self.kind
    }
}

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

/// As [`value`], plus every option with its value when the options are finitely many
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
    table_with(game, dims, opts, true)
}

/// As [`table`], but computed from the rules only — kernels and brute force, never a
/// closed form — so that it can be compared with a conjectured formula (`check`).
pub fn computed_table(game: &dyn Game, dims: &[usize], opts: &TableOptions) -> Result<TableReport> {
    table_with(game, dims, opts, false)
}

fn table_with(
    game: &dyn Game,
    dims: &[usize],
    opts: &TableOptions,
    closed_forms: bool,
) -> Result<TableReport> {
    crate::table::check_box_dimension(game, dims)?;
    if let ValueRule::Classes(ranking) = ValueRule::of(game) {
        check_flat_layout(game)?;
        return class_table_report(game, ranking, dims, opts, closed_forms);
    }
    let caps = game.capabilities();
    if let Some(kernel) = caps.table_kernel
        && let Some(t) = kernel.table(dims, opts.memory_limit)
    {
        return Ok(TableReport {
            table: t?,
            method: Method::new(MethodKind::TableKernel, kernel.table_method()),
        });
    }
    if let Some(Decomposition::Parts(sum)) = &caps.decomposition {
        let parts: Vec<(&dyn Game, Range<usize>)> =
            sum.parts().into_iter().zip(sum.box_ranges()).collect();
        return parts_table(game, &parts, dims, opts, closed_forms);
    }
    check_flat_layout(game)?;
    if let (1, Some(kernel)) = (dims.len(), caps.sequence) {
        check_cells(game, dims, 4, opts)?;
        check_sequence_work(game, kernel, dims[0] as u64, opts)?;
        let values = kernel.sequence_within(dims[0], opts)?;
        return Ok(TableReport {
            table: GrundyTable::from_parts(dims.to_vec(), values)?,
            method: Method::new(MethodKind::SequenceKernel, kernel.sequence_method()),
        });
    }
    if line_kernel_moves(game, dims).is_some() {
        return Ok(TableReport {
            table: grundy_table(game, dims, opts)?,
            method: Method::new(
                MethodKind::LineKernel,
                "line kernel (rook lines and diagonal band)",
            ),
        });
    }
    if let (Some(big), true) = (caps.big, closed_forms)
        && let Some(t) = closed_form_table(game, big, dims, opts)?
    {
        return Ok(t);
    }
    Ok(TableReport {
        table: grundy_table(game, dims, opts)?,
        method: Method::new(
            MethodKind::BruteForce,
            "brute force: mex over the options, cell by cell",
        ),
    })
}

/// Refuses a table of a game whose positions are not the cells of a box.
fn check_flat_layout(game: &dyn Game) -> Result<()> {
    if game.has_flat_layout() {
        return Ok(());
    }
    Err(Error::input(format!(
        "{} has no table: its positions are sums of take-and-break games written part by \
         part; ask for single positions with value or moves",
        game.spec()
    )))
}

/// G(0), …, G(len − 1) of a one-coordinate game, by the fastest method it offers.
pub fn sequence(game: &dyn Game, len: usize, opts: &TableOptions) -> Result<(Vec<u32>, Method)> {
    if game.dimension() != 1 {
        return Err(Error::input(format!(
            "{} has {} coordinates; a sequence needs a one-heap game",
            game.spec(),
            game.dimension()
        )));
    }
    let t = table(game, &[len], opts)?;
    Ok((t.table.into_values(), t.method))
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

/// Steps `pos` to the next position of the box in storage order (first coordinate
/// fastest), wrapping to the origin after the last.
fn next_in_box(pos: &mut [Coord], dims: &[usize]) {
    for (c, &d) in pos.iter_mut().zip(dims) {
        *c += 1;
        if *c < d as Coord {
            return;
        }
        *c = 0;
    }
}

/// A sum's table: each part's table over its own box, combined by ⊕.
fn parts_table(
    game: &dyn Game,
    parts: &[(&dyn Game, Range<usize>)],
    dims: &[usize],
    opts: &TableOptions,
    closed_forms: bool,
) -> Result<TableReport> {
    check_cells(game, dims, 4, opts)?;
    let mut tables = Vec::new();
    let mut details = Vec::new();
    for (part, range) in parts {
        let t = table_with(*part, &dims[range.clone()], opts, closed_forms)?;
        details.push(format!("{}: {}", part.spec(), t.method.id()));
        tables.push((t.table, range.clone()));
    }
    let cells = cell_count(dims)? as usize;
    let mut values = vec![0u32; cells];
    // Walk the box in storage order with a carry counter per coordinate.
    let mut pos: Position = vec![0; dims.len()];
    for v in values.iter_mut() {
        let mut acc = 0u32;
        for (t, range) in &tables {
            match t.get(&pos[range.clone()]) {
                Some(g) if acc != INVALID => acc ^= g,
                _ => acc = INVALID,
            }
        }
        *v = acc;
        next_in_box(&mut pos, dims);
    }
    Ok(TableReport {
        table: GrundyTable::from_parts(dims.to_vec(), values)?,
        method: Method::new(
            MethodKind::Components,
            format!("nim-sum of the parts' tables ({})", details.join("; ")),
        ),
    })
}

/// A table from a closed form evaluated cell by cell, when the game offers one.
fn closed_form_table(
    game: &dyn Game,
    big: &dyn crate::capability::BigPositions,
    dims: &[usize],
    opts: &TableOptions,
) -> Result<Option<TableReport>> {
    table_cell_by_cell(
        game,
        dims,
        opts,
        &|pos| big.grundy_small(pos),
        Method::new(
            MethodKind::ClosedForm,
            "the game's closed form, cell by cell",
        ),
    )
}

/// The box walk of the closed-form routes: `cell` values each legal cell; `None` when
/// it does not cover one (the caller then takes another route).
fn table_cell_by_cell(
    game: &dyn Game,
    dims: &[usize],
    opts: &TableOptions,
    cell: &dyn Fn(&[Coord]) -> Option<u32>,
    method: Method,
) -> Result<Option<TableReport>> {
    let origin = vec![0; dims.len()];
    if cell_count(dims)? == 0 || cell(&origin).is_none() {
        return Ok(None);
    }
    check_cells(game, dims, 4, opts)?;
    let cells = cell_count(dims)? as usize;
    let mut values = Vec::with_capacity(cells);
    let mut pos: Position = vec![0; dims.len()];
    opts.progress.start(cells as u64, "cells");
    for i in 0..cells {
        let v = if game.position_error(&pos).is_some() {
            INVALID
        } else {
            match cell(&pos) {
                Some(g) => g,
                None => return Ok(None),
            }
        };
        values.push(v);
        next_in_box(&mut pos, dims);
        if i % (1 << 20) == (1 << 20) - 1 {
            opts.progress.check_cancelled()?;
            opts.progress.advance(1 << 20);
        }
    }
    opts.progress.finish();
    Ok(Some(TableReport {
        table: GrundyTable::from_parts(dims.to_vec(), values)?,
        method,
    }))
}

/// Option visits up to which a class table is computed by the recursion even when a
/// closed form exists (about a second of work).
pub const RECURSION_PREFERRED: u128 = 500_000_000;

/// The n-player class table: the recursion over the box while its work is small
/// ([`RECURSION_PREFERRED`]), else the closed form cell by cell when the game has one
/// for its ranking (and `closed_forms` allows it), else the recursion.
fn class_table_report(
    game: &dyn Game,
    ranking: &crate::nplayer::Ranking,
    dims: &[usize],
    opts: &TableOptions,
    closed_forms: bool,
) -> Result<TableReport> {
    let who = format!("{} players, {}", ranking.players(), ranking.spec());
    // The recursion over a box is faster than the closed form cell by cell while the
    // options are few; past that, the closed form's cost does not grow with them.
    let corner: Position = dims.iter().map(|&d| d.saturating_sub(1) as Coord).collect();
    let recursion_work =
        (cell_count(dims)? as u128).saturating_mul(crate::table::options_bound(game, &corner));
    let closed_form = game.capabilities().nplayer.and_then(|r| r.closed_form);
    if let Some(cf) = closed_form.filter(|_| closed_forms && recursion_work > RECURSION_PREFERRED) {
        let method = Method::new(
            MethodKind::ClosedForm,
            format!("n-player classes ({who}) by the game's closed form, cell by cell"),
        );
        if let Some(t) =
            table_cell_by_cell(game, dims, opts, &|p| cf.class_small(p, ranking), method)?
        {
            return Ok(t);
        }
    }
    Ok(TableReport {
        table: crate::nplayer::class_table(game, ranking, dims, opts)?,
        method: Method::new(
            MethodKind::BruteForce,
            format!("n-player class recursion ({who}), cell by cell"),
        ),
    })
}

/// Preperiod and period of a one-heap game's Grundy sequence: proven when the game has
/// a proof method, else observed on the first `up_to` values. `Ok(None)`: no period
/// seen.
pub fn periodicity(
    game: &dyn Game,
    up_to: Option<u64>,
    opts: &TableOptions,
) -> Result<(Option<Periodicity>, Method, u64)> {
    if game.dimension() != 1 {
        return Err(Error::input(format!(
            "{} has {} coordinates; periodicity of a sequence needs a one-heap game",
            game.spec(),
            game.dimension()
        )));
    }
    if let Some(kernel) = game.capabilities().sequence {
        let bound = up_to.unwrap_or(DEFAULT_PROOF_SEARCH);
        check_sequence_work(game, kernel, bound, opts)?;
        if let Some(found) = kernel.certified_periodicity(bound, opts.progress) {
            return Ok((
                found?,
                Method::new(MethodKind::CertifiedPeriod, kernel.sequence_method()),
                bound,
            ));
        }
    }
    let x = up_to.unwrap_or(DEFAULT_OBSERVED_WINDOW);
    let len = usize::try_from(x).map_err(|_| window_too_large(x))?;
    let (values, method) = sequence(game, len, opts)?;
    if values.contains(&INVALID) {
        return Err(Error::input(format!(
            "{} has heaps below {x} that are not positions; no sequence to study",
            game.spec()
        )));
    }
    Ok((
        find_arithmetic_period(&values, len / 3, 2),
        Method::new(
            MethodKind::ObservedPeriod,
            format!("observed on n < {x} ({})", method.detail),
        ),
        x,
    ))
}

/// Arithmetic periods of rows `rows` of a two-coordinate game, observed on x < `up_to`.
pub fn row_periodicity(
    game: &dyn Game,
    rows: (u64, u64),
    up_to: u64,
    opts: &TableOptions,
) -> Result<Vec<(u64, Option<Periodicity>)>> {
    if game.dimension() != 2 {
        return Err(Error::input(format!(
            "{} has {} coordinates; rows need a two-coordinate game",
            game.spec(),
            game.dimension()
        )));
    }
    let (first, last) = rows;
    let width = usize::try_from(up_to).map_err(|_| window_too_large(up_to))?;
    let height = last
        .checked_add(1)
        .and_then(|h| usize::try_from(h).ok())
        .ok_or_else(|| {
            Error::out_of_range("the last row", last, "too large for a table", Knob::Row)
        })?;
    let t = table(game, &[width, height], opts)?.table;
    let mut out = Vec::new();
    for y in first..=last {
        let row = &t.values()[y as usize * width..(y as usize + 1) * width];
        if let Some(x_bad) = row.iter().position(|&v| v == INVALID) {
            return Err(Error::input(format!(
                "({x_bad},{y}) is not a position of {}; rows must be all positions",
                game.spec()
            )));
        }
        out.push((y, find_arithmetic_period(row, width / 3, 2)));
    }
    Ok(out)
}

/// The game's own strategy table for people (`None` if it has none).
pub fn strategy_table(game: &dyn Game, size: usize) -> Result<Option<TextTable>> {
    match game.capabilities().strategy_table {
        Some(t) => t.strategy_table(size).map(Some),
        None => Ok(None),
    }
}

/// Where exact small-position answers come from, kept across the options of a query.
enum Exact<'g> {
    Line(GrundyTable),
    /// A generic table over the box below the position ([`dense_is_cheaper`]).
    Dense(GrundyTable),
    Sequence(Vec<u32>),
    Solver(Box<Solver<'g>>),
}

impl Exact<'_> {
    fn grundy(&mut self, pos: &[Coord]) -> Result<u32> {
        match self {
            Exact::Line(t) | Exact::Dense(t) => t.get(pos).ok_or_else(|| {
                Error::Contract(format!("{} lies outside the table", format_position(pos)))
            }),
            // A one-heap game's option of several coordinates is a sum of heaps.
            Exact::Sequence(v) => pos.iter().try_fold(0u32, |acc, &h| {
                v.get(h as usize)
                    .copied()
                    .filter(|&g| g != INVALID)
                    .map(|g| acc ^ g)
                    .ok_or_else(|| Error::Contract(format!("heap {h} lies outside the sequence")))
            }),
            Exact::Solver(s) => s.grundy(pos),
        }
    }
}

struct Planner<'a> {
    game: &'a dyn Game,
    opts: &'a TableOptions<'a>,
    rule: ValueRule<'a>,
}

fn big_of(p: &[Coord]) -> BigPosition {
    p.iter().map(|&c| BigUint::from(c)).collect()
}

impl<'a> Planner<'a> {
    fn new(game: &'a dyn Game, opts: &'a TableOptions<'a>) -> Self {
        Planner {
            game,
            opts,
            rule: ValueRule::of(game),
        }
    }

    fn check_dimension(&self, pos: &[BigUint]) -> Result<()> {
        if self.game.accepts_dimension(pos.len()) {
            return Ok(());
        }
        Err(Error::input(format!(
            "position {} has {} coordinate{} but {} needs {}",
            write_position(self.game, pos),
            pos.len(),
            if pos.len() == 1 { "" } else { "s" },
            self.game.spec(),
            self.game.dimension()
        )))
    }

    fn report(&self, pos: &[BigUint], with_options: bool) -> Result<PositionReport> {
        self.check_dimension(pos)?;
        let small = to_small(pos);
        if let Some(p) = &small {
            self.game.check_position(p)?;
        }
        if let ValueRule::Classes(ranking) = self.rule {
            return self.class_report(pos, small.as_deref(), ranking, with_options);
        }
        let caps = self.game.capabilities();
        let mut strategy = None;
        if let Some(big) = caps.big
            && let Some(a) = big.analyse_big_within(pos, self.opts)
        {
            let mut r = PositionReport::from_big(a?);
            if matches!(caps.decomposition, Some(Decomposition::Heaps)) {
                for m in r.winning_moves.iter_mut() {
                    crate::capability::canonical_heaps(m);
                }
                r.winning_moves.sort();
                r.winning_moves.dedup();
            }
            if r.grundy.is_some() {
                return self.with_options(r, None, with_options);
            }
            strategy = Some(r);
        }
        if strategy.is_none()
            && let Some(r) = self.by_components(pos, with_options)?
        {
            return Ok(r);
        }
        let Some(p) = small else {
            return match strategy {
                Some(r) => self.with_options(r, None, with_options),
                None => Err(Error::input(format!(
                    "position {} is too big for exact computation and {} has no closed-form strategy",
                    write_position(self.game, pos),
                    self.game.spec()
                ))),
            };
        };
        // Misère take-and-break positions of many heaps: products in the misère quotient.
        if let Some(r) =
            crate::misere_quotient::plan_report(self.game, &p, self.opts, with_options)?
        {
            return Ok(r);
        }
        let attempt = self
            .exact(&p, strategy.is_some())
            .and_then(|(mut exact, method)| {
                let g = exact.grundy(&p)?;
                Ok((exact, method, g))
            });
        let (mut exact, method, g) = match (attempt, strategy) {
            (Ok(found), _) => found,
            // The exact value is beyond the limits (memory, time, a box too big): the
            // strategy answers the outcome and a winning move.
            (Err(Error::TooLarge { .. } | Error::TooLong { .. } | Error::Input(_)), Some(r)) => {
                return self.with_options(r, Some(&p), with_options)
            }
            (Err(e), _) => return Err(e),
        };
        let mut r = PositionReport {
            position: pos.to_vec(),
            grundy: Some(g.into()),
            outcome: Outcome::of(g),
            winning_moves: Vec::new(),
            all_winning_moves: true,
            options: None,
            options_note: None,
            method,
            nplayer: None,
        };
        match self.exact_options(&p, &mut exact)? {
            Ok(list) => {
                r.winning_moves = list
                    .iter()
                    .filter(|o| o.winning)
                    .map(|o| o.position.clone())
                    .collect();
                if with_options {
                    r.options = Some(list);
                }
            }
            Err(note) => {
                r.all_winning_moves = false;
                r.options_note = Some(note);
            }
        }
        Ok(r)
    }

    /// The n-player route: the game's closed form for classes (any size), else the
    /// class recursion on small positions; best moves from the listed options.
    fn class_report(
        &self,
        pos: &[BigUint],
        small: Option<&[Coord]>,
        ranking: &crate::nplayer::Ranking,
        with_options: bool,
    ) -> Result<PositionReport> {
        let game = self.game;
        let closed = game
            .capabilities()
            .nplayer
            .and_then(|r| r.closed_form)
            .and_then(|cf| {
                cf.classify_big_within(pos, ranking, self.opts.progress)
                    .map(|r| (cf, r))
            });
        let mut listing_note = None;
        let (class, mut best, mut all_best, method, listed) = match (closed, small) {
            (Some((cf, found)), _) => {
                let found = found?;
                // Small positions: every option's class from the closed form as well,
                // within the work of a query, reporting each option and stopping
                // when cancelled.
                let listed = match small.map(|p| self.small_options(p)) {
                    Some(Ok(list)) => {
                        let mut budget = NPLAYER_LISTING_STEPS;
                        let progress = self.opts.progress;
                        progress.start(list.len() as u64, "options classified");
                        let mut out = Vec::with_capacity(list.len());
                        for o in list {
                            progress.check_cancelled()?;
                            match cf.class_small_within(&o, ranking, &mut budget, progress)? {
                                Some(c) => out.push((o, c)),
                                None => {
                                    if budget == 0 {
                                        listing_note = Some(
                                            "not listed: classifying every option by the closed \
                                             form would take too long"
                                                .to_string(),
                                        );
                                    }
                                    break;
                                }
                            }
                            progress.advance(1);
                        }
                        progress.finish();
                        (listing_note.is_none() && out.len() == out.capacity()).then_some(out)
                    }
                    _ => None,
                };
                (
                    found.class,
                    found.best_moves,
                    found.all_best_moves,
                    Method::new(MethodKind::ClosedForm, found.method),
                    listed,
                )
            }
            (None, Some(p)) => {
                // As for Grundy values: a table over the box below p reads each option
                // from an array where the memoized search hashes it, when that is cheaper.
                type ClassOf<'s> = Box<dyn FnMut(&[Coord]) -> Result<u32> + 's>;
                let (mut class_of, how): (ClassOf, String) =
                    match dense_is_cheaper(game, p, self.opts) {
                        Some(dims) => {
                            let table =
                                crate::nplayer::class_table(game, ranking, &dims, self.opts)?;
                            let lookup = move |q: &[Coord]| {
                                table
                                    .get(q)
                                    .filter(|&c| c != crate::INVALID)
                                    .ok_or_else(|| {
                                        Error::input(format!(
                                            "{} is not a position of {}",
                                            crate::game::format_position(q),
                                            game.spec()
                                        ))
                                    })
                            };
                            (
                                Box::new(lookup),
                                format!(
                                    "cell by cell over the box {}",
                                    describe_box(&dims).trim_start_matches("table ")
                                ),
                            )
                        }
                        None => {
                            let mut solver = Solver::with_rule_and_options(
                                game,
                                ValueRule::Classes(ranking),
                                self.opts,
                            );
                            (
                                Box::new(move |q: &[Coord]| solver.value(q)),
                                "memoized over every reachable position".to_string(),
                            )
                        }
                    };
                let class = class_of(p)?;
                let listed = match self.small_options(p) {
                    Ok(list) => Some(
                        list.into_iter()
                            .map(|o| class_of(&o).map(|c| (o, c)))
                            .collect::<Result<Vec<_>>>()?,
                    ),
                    Err(_) => None,
                };
                (
                    class,
                    Vec::new(),
                    false,
                    Method::new(
                        MethodKind::BruteForce,
                        format!(
                            "n-player class recursion ({} players, {}): {how}",
                            ranking.players(),
                            ranking.spec()
                        ),
                    ),
                    listed,
                )
            }
            (None, None) => {
                return Err(Error::input(format!(
                    "position {} is too big for the n-player recursion and {} has no closed \
                     form for the {} ranking",
                    write_position(game, pos),
                    game.spec(),
                    ranking.spec()
                )));
            }
        };
        if let Some(list) = &listed {
            let rule = ValueRule::Classes(ranking);
            best = list
                .iter()
                .filter(|(_, c)| rule.is_best_option(class, *c))
                .map(|(o, _)| big_of(o))
                .collect();
            all_best = true;
        }
        let ranks = ranking.ranks(class);
        let n = ranking.players();
        let options = if with_options {
            listed.map(|l| l.into_iter().map(|(o, c)| (big_of(&o), c)).collect())
        } else {
            None
        };
        let options_note = (with_options && options.is_none()).then(|| {
            listing_note
                .unwrap_or_else(|| "not listed: too many options or too big a position".to_string())
        });
        Ok(PositionReport {
            position: pos.to_vec(),
            grundy: None,
            // Two-player words where they fit: the player to move "loses" iff it ranks last.
            outcome: if ranks[0] == n {
                Outcome::P
            } else {
                Outcome::N
            },
            winning_moves: best.clone(),
            all_winning_moves: all_best,
            options: None,
            options_note,
            method,
            nplayer: Some(crate::nplayer::ClassReport {
                ranking: ranking.spec(),
                players: n,
                class,
                ranks,
                best_moves: best,
                all_best_moves: all_best,
                options,
                rank_after: (0..n as u32).map(|c| ranking.mover_rank_after(c)).collect(),
            }),
        })
    }

    /// An exact evaluator whose box covers `p` and its options.
    fn exact(&self, p: &[Coord], has_fallback: bool) -> Result<(Exact<'a>, Method)> {
        let game = self.game;
        let caps = game.capabilities();
        let big_box = || {
            Error::input(format!(
                "{} is too big for an exact table",
                format_position(p)
            ))
        };
        if p.len() == 2 && game.is_downward_closed() {
            let dims = [
                usize::try_from(p[0].checked_add(1).ok_or_else(big_box)?).map_err(|_| big_box())?,
                usize::try_from(p[1].checked_add(1).ok_or_else(big_box)?).map_err(|_| big_box())?,
            ];
            if let Some(moves) = line_kernel_moves(game, &dims) {
                let cells = cell_count(&dims)?;
                if has_fallback && cells > EXACT_VALUE_CELLS {
                    return Err(Error::input("box beyond the exact-value budget"));
                }
                let needed = crate::kernels::line::line_table_bytes(&moves, dims[0], dims[1])?;
                self.opts.memory_limit.check(
                    &format!("{} for {}", describe_box(&dims), game.spec()),
                    needed,
                )?;
                let t = grundy_table(game, &dims, self.opts)?;
                return Ok((
                    Exact::Line(t),
                    Method::new(
                        MethodKind::LineKernel,
                        format!(
                            "line kernel over the box {}",
                            describe_box(&dims).trim_start_matches("table ")
                        ),
                    ),
                ));
            }
        }
        if let (1, Some(kernel)) = (p.len(), caps.sequence)
            && game.dimension() == 1
            && p[0] < EXACT_SEQUENCE_LEN
        {
            let len = p[0] as usize + 1;
            check_cells(game, &[len], 4, self.opts)?;
            check_sequence_work(game, kernel, len as u64, self.opts)?;
            let values = kernel.sequence_within(len, self.opts)?;
            return Ok((
                Exact::Sequence(values),
                Method::new(MethodKind::SequenceKernel, kernel.sequence_method()),
            ));
        }
        if let Some(dims) = dense_is_cheaper(game, p, self.opts)
            && !(has_fallback && cell_count(&dims)? > EXACT_VALUE_CELLS)
        {
            let t = grundy_table(game, &dims, self.opts)?;
            let method = format!(
                "brute force: mex over the options, cell by cell, over the box {}",
                describe_box(&dims).trim_start_matches("table ")
            );
            return Ok((Exact::Dense(t), Method::new(MethodKind::BruteForce, method)));
        }
        // The memoized search estimates its work only where the positions below the
        // position bound what it reaches (moves lower every coordinate) or where it
        // counts multisets; elsewhere (a move may raise a coordinate: Fibonacci Nim's
        // limit) it cannot, and with a strategy to answer instead it is not started
        // (an unestimated search of hours for a value the strategy does not need).
        let estimable = game.is_downward_closed() || caps.heap_multiset;
        if has_fallback && !estimable {
            return Err(Error::input(
                "the memoized search's work cannot be estimated here",
            ));
        }
        Ok((
            Exact::Solver(Box::new(Solver::with_options(game, self.opts))),
            Method::new(
                MethodKind::BruteForce,
                "brute force: memoized mex over every reachable position",
            ),
        ))
    }

    /// Every option of a small position with its value, or why they cannot be listed.
    fn exact_options(
        &self,
        p: &[Coord],
        exact: &mut Exact<'a>,
    ) -> Result<std::result::Result<Vec<OptionReport>, String>> {
        let options = match self.small_options(p) {
            Ok(o) => o,
            Err(note) => return Ok(Err(note)),
        };
        let mut out = Vec::with_capacity(options.len());
        for o in options {
            let g = exact.grundy(&o)?;
            out.push(OptionReport {
                position: big_of(&o),
                grundy: Some(g.into()),
                winning: g == 0,
            });
        }
        Ok(Ok(out))
    }

    /// The distinct options of a small position, if there are few enough to list.
    fn small_options(&self, p: &[Coord]) -> std::result::Result<Vec<Position>, String> {
        let bound = self
            .game
            .max_options(p)
            .unwrap_or_else(|| self.game.rank(p).saturating_mul(2).saturating_add(64));
        if bound > MAX_LISTED_OPTIONS * 4 {
            return Err(format!(
                "not listed: up to about {bound} options (the limit is {MAX_LISTED_OPTIONS})"
            ));
        }
        // The memory limit caps the list too: options × coordinates.
        let fit = (listed_coordinates(self.opts) / p.len().max(1) as u64) as u128;
        let most = MAX_LISTED_OPTIONS.min(fit.max(1));
        let mut seen = rustc_hash::FxHashSet::default();
        let mut list = Vec::new();
        let game = self.game;
        // Heaps valued by classes, not ⊕: options that differ in order are one.
        let sort = !self.rule.is_grundy() && crate::capability::is_heap_multiset(game);
        let mut visited = 0u64;
        game.for_each_option(p, &mut |o| {
            visited += 1;
            if visited.is_multiple_of(4096) {
                self.opts.progress.advance(0); // a heartbeat: the list is bounded
            }
            if (list.len() as u128) < most {
                let mut o = game.canonical(o).unwrap_or_else(|| o.to_vec());
                if sort {
                    crate::capability::canonical_heaps(&mut o);
                }
                if seen.insert(o.clone()) {
                    list.push(o);
                }
            }
        });
        if list.len() as u128 >= most {
            return Err(if most < MAX_LISTED_OPTIONS {
                format!(
                    "not listed: more than {most} options of {} coordinates do not fit the memory limit",
                    p.len()
                )
            } else {
                format!("not listed: more than {MAX_LISTED_OPTIONS} options")
            });
        }
        Ok(list)
    }

    /// Adds the option list to an answer from a closed form or strategy.
    fn with_options(
        &self,
        mut r: PositionReport,
        small: Option<&[Coord]>,
        with_options: bool,
    ) -> Result<PositionReport> {
        if !with_options {
            return Ok(r);
        }
        let caps = self.game.capabilities();
        let listed: std::result::Result<Vec<BigPosition>, String> =
            match (small.map(|p| p.to_vec()).or_else(|| to_small(&r.position)), caps.big) {
                (Some(p), _) => self
                    .small_options(&p)
                    .map(|l| l.iter().map(|o| big_of(o)).collect()),
                (None, Some(big)) => big.big_options(&r.position).ok_or_else(|| {
                    "not listed: the position has coordinates beyond 2^64 (the options are too many to list)"
                        .to_string()
                }),
                (None, None) => Err("not listed: the position is too big".into()),
            };
        match listed {
            Ok(list) => {
                let mut out = Vec::with_capacity(list.len());
                let quick = caps.big.filter(|b| {
                    to_small(&r.position).is_some_and(|p| b.grundy_small(&p).is_some())
                });
                let coords = list.len() as u128 * r.position.len().max(1) as u128;
                if quick.is_none()
                    && (list.len() as u128 > MAX_EVALUATED_OPTIONS
                        || coords > MAX_EVALUATED_COORDINATES)
                {
                    r.options_note = Some(format!(
                        "not listed: {} options of {} coordinates, each needing its own evaluation (the limit is {MAX_EVALUATED_OPTIONS} options, {MAX_EVALUATED_COORDINATES} coordinates in all)",
                        list.len(),
                        r.position.len()
                    ));
                    return Ok(r);
                }
                for o in list {
                    if let Some(g) =
                        quick.and_then(|b| to_small(&o).and_then(|p| b.grundy_small(&p)))
                    {
                        out.push(OptionReport {
                            position: o,
                            grundy: Some(g.into()),
                            winning: g == 0,
                        });
                        continue;
                    }
                    // Each option by the same planner, without its own options.
                    let a = self.report(&o, false);
                    let (g, outcome) = match a {
                        Ok(a) => (a.grundy, Some(a.outcome)),
                        Err(Error::Cancelled) => return Err(Error::Cancelled),
                        Err(_) => (None, None),
                    };
                    out.push(OptionReport {
                        position: o,
                        grundy: g,
                        winning: outcome == Some(Outcome::P),
                    });
                }
                r.options = Some(out);
            }
            Err(note) => r.options_note = Some(note),
        }
        Ok(r)
    }

    /// Splits `pos` into its components (when the game decomposes and there are
    /// several) and answers from the parts.
    fn by_components(&self, pos: &[BigUint], with_options: bool) -> Result<Option<PositionReport>> {
        let caps = self.game.capabilities();
        let parts: Vec<(&dyn Game, Range<usize>)> = match &caps.decomposition {
            Some(Decomposition::Parts(sum)) if sum.parts().len() > 1 => match sum.split(pos) {
                Some(ranges) => sum.parts().into_iter().zip(ranges).collect(),
                None => return Ok(None), // not laid out as the sum: leave it to the game
            },
            Some(Decomposition::Heaps) if pos.len() > 1 => {
                (0..pos.len()).map(|i| (self.game, i..i + 1)).collect()
            }
            _ => return Ok(None),
        };
        let mut reports = Vec::new();
        for (g, r) in &parts {
            reports.push(Planner::new(*g, self.opts).report(&pos[r.clone()], false)?);
            self.opts.progress.check_cancelled()?; // a cancelled query stops between parts
        }
        let methods: Vec<String> = parts
            .iter()
            .zip(&reports)
            .map(|((g, r), a)| {
                format!(
                    "{} at {}: {}",
                    g.spec(),
                    write_position(*g, &pos[r.clone()]),
                    a.method.id()
                )
            })
            .collect();
        let method = Method::new(
            MethodKind::Components,
            format!("nim-sum of the components' values ({})", methods.join("; ")),
        );
        let splice = |i: usize, part_move: &[BigUint]| -> BigPosition {
            if let Some(Decomposition::Parts(sum)) = &caps.decomposition {
                let mut pieces: Vec<&[BigUint]> =
                    parts.iter().map(|(_, r)| &pos[r.clone()]).collect();
                pieces[i] = part_move;
                return sum.join(&pieces);
            }
            let r = &parts[i].1;
            let mut next: BigPosition = pos[..r.start].to_vec();
            next.extend_from_slice(part_move);
            next.extend_from_slice(&pos[r.end..]);
            if next.is_empty() {
                next.push(BigUint::default());
            }
            next
        };
        let unknown: Vec<usize> = (0..reports.len())
            .filter(|&i| reports[i].grundy.is_none())
            .collect();
        let known_sum = reports
            .iter()
            .filter_map(|a| a.grundy.as_ref())
            .fold(BigUint::default(), |acc, g| acc ^ g);
        let mut report = match unknown.as_slice() {
            [] => {
                let total = known_sum;
                let mut winning = Vec::new();
                let mut all = true;
                // Each winning move is a whole position: the list is bounded by the
                // memory limit (then marked incomplete).
                let most = listed_coordinates(self.opts) / pos.len().max(1) as u64;
                // Equal heaps give the same moves once heaps are sorted: one of each.
                let heaps = matches!(caps.decomposition, Some(Decomposition::Heaps));
                let mut heaps_done = rustc_hash::FxHashSet::default();
                if total != BigUint::default() {
                    for (i, a) in reports.iter().enumerate() {
                        if heaps && !heaps_done.insert(&pos[parts[i].1.clone()]) {
                            continue;
                        }
                        let g = a.grundy.as_ref().expect("known");
                        // Any option of value g ⊕ T wins, also one above g (options
                        // of larger value exist in most games).
                        let target = g ^ &total;
                        let r = parts[i].1.clone();
                        match Planner::new(parts[i].0, self.opts).moves_to_value(&pos[r], &target) {
                            Some(list) if (winning.len() + list.len()) as u64 <= most => {
                                winning.extend(list.iter().map(|m| splice(i, m)))
                            }
                            Some(_) | None => all = false,
                        }
                        self.opts.progress.check_cancelled()?;
                    }
                }
                PositionReport {
                    position: pos.to_vec(),
                    outcome: if total == BigUint::default() {
                        Outcome::P
                    } else {
                        Outcome::N
                    },
                    grundy: Some(total),
                    winning_moves: winning,
                    all_winning_moves: all,
                    options: None,
                    options_note: None,
                    method,
                    nplayer: None,
                }
            }
            [i] if known_sum == BigUint::default() => {
                // The others sum to 0: the outcome is that component's.
                let a = &reports[*i];
                PositionReport {
                    position: pos.to_vec(),
                    grundy: None,
                    outcome: a.outcome,
                    winning_moves: a.winning_moves.iter().map(|m| splice(*i, m)).collect(),
                    all_winning_moves: false,
                    options: None,
                    options_note: None,
                    method,
                    nplayer: None,
                }
            }
            _ => {
                let i = unknown[0];
                return Err(Error::input(format!(
                    "cannot value {} at {}: component {} ({}) has no known Grundy value at this size",
                    self.game.spec(),
                    write_position(self.game, pos),
                    i + 1,
                    parts[i].0.spec()
                )));
            }
        };
        if matches!(caps.decomposition, Some(Decomposition::Heaps)) {
            // Heaps form a multiset: one canonical order per move.
            for m in report.winning_moves.iter_mut() {
                crate::capability::canonical_heaps(m);
            }
            report.winning_moves.sort();
            report.winning_moves.dedup();
        }
        if with_options {
            report = self.with_options(report, None, true)?;
            if let Some(list) = &report.options {
                // Winning moves from the full option list when it could be made.
                if report.grundy.is_some() {
                    report.winning_moves = list
                        .iter()
                        .filter(|o| o.winning)
                        .map(|o| o.position.clone())
                        .collect();
                    report.all_winning_moves = true;
                }
            }
        }
        Ok(Some(report))
    }

    /// Options of `pos` whose value is `target`, when they can be found.
    fn moves_to_value(&self, pos: &[BigUint], target: &BigUint) -> Option<Vec<BigPosition>> {
        let caps = self.game.capabilities();
        if let Some(found) = caps.big.and_then(|b| b.moves_to_value(pos, target)) {
            return Some(found);
        }
        let r = self.report(pos, true).ok()?;
        let options = r.options?;
        Some(
            options
                .into_iter()
                .filter(|o| o.grundy.as_ref() == Some(target))
                .map(|o| o.position)
                .collect(),
        )
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

/// The box below `p` when a generic table over it is cheaper than memoized search from
/// `p`. In a game whose moves lower the coordinates, memoized search visits every
/// position below `p` that is reachable — for most such games all of the box — paying a
/// hash look-up per option where the table pays an array read (about ten times less;
/// e.g. rook-and-knight moves at (1000, 999): 145 s memoized, 7.8 s as a table). Games
/// the solver shortens (sums of heaps, heap multisets, decompositions) keep the solver,
/// and so do a box whose table would not fit in memory and work the solver's estimate
/// refuses.
fn dense_is_cheaper(game: &dyn Game, p: &[Coord], opts: &TableOptions) -> Option<Vec<usize>> {
    let caps = game.capabilities();
    if !game.is_downward_closed()
        || !game.has_flat_layout()
        || caps.heap_multiset
        || caps.decomposition.is_some()
        || crate::capability::is_sum_of_heaps(game)
        || p.len() != game.dimension()
    {
        return None;
    }
    let dims = p
        .iter()
        .map(|&c| c.checked_add(1).and_then(|d| usize::try_from(d).ok()))
        .collect::<Option<Vec<usize>>>()?;
    let bytes = crate::table::estimate_table_bytes(&dims, true).ok()?;
    // Only work the solver itself would take on: a refusal stays a refusal (with its
    // estimate), the table only makes accepted work cheaper.
    let positions = cell_count(&dims).ok()? as u128;
    let options = crate::table::options_bound(game, p);
    let accepted = crate::table::check_work("", positions, options, opts.force).is_ok();
    (accepted && bytes <= opts.memory_limit.bytes()).then_some(dims)
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
