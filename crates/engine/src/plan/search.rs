//! The `search` route: one position's nimber by pruned search ([`crate::search`]),
//! for positions too big for the memoized solver, and [`search_value`] for callers
//! that ask for it (with checkpoints, a resumed table, another end rank).

use super::{write_position, Method, MethodKind, PositionReport};
use crate::big::{to_small, BigPosition, BigUint};
use crate::error::{Error, Result};
use crate::game::{Coord, Game};
use crate::search::{Search, SearchStats, DEFAULT_END_RANK};
use crate::table::TableOptions;
use std::path::PathBuf;
use std::time::Duration;

/// Positions of a game that falls apart into regions with more than this rank go to
/// the search: the memoized solver's work grows about as 2^rank there (Cram 5×7, rank
/// 35, took it 23 s), and the search's far more slowly.
pub const SEARCH_RANK: u128 = 30;

/// Stack of the thread a search runs on: its questions nest (a component's
/// question asks its options'), as deep as the rank times the nimbers asked about.
const SEARCH_STACK: usize = 1 << 30;

/// How a caller wants a search run ([`search_value`]).
#[derive(Debug, Clone, Default)]
pub struct SearchSettings {
    /// Components of at most this rank valued by plain mex (`None`: the default,
    /// [`DEFAULT_END_RANK`]; `Some(0)`: none, every component searched).
    pub end_rank: Option<u32>,
    /// Write the transposition table to this file now and then, and at the end.
    pub checkpoint: Option<PathBuf>,
    /// How often (`None`: every minute).
    pub checkpoint_every: Option<Duration>,
    /// Start from the table a checkpoint wrote.
    pub resume: Option<PathBuf>,
}

/// Whether the planner sends `pos` to the search rather than the memoized solver: a
/// game the search applies to whose positions fall apart into regions (boards,
/// graphs), at a rank over [`SEARCH_RANK`]. Other games keep the solver and its work
/// estimate, which refuses hours of work up front; the search has no such estimate,
/// so it runs for them only when asked ([`search_value`]).
pub(super) fn preferred(game: &dyn Game, pos: &[Coord]) -> bool {
    Search::applies_to(game)
        && matches!(
            game.capabilities().decomposition,
            Some(crate::capability::Decomposition::Regions(_))
        )
        && game.rank(pos) > SEARCH_RANK
}

/// Value, outcome and a winning move of `pos` by pruned search, however big the
/// memoized solver's estimate (with `with_options`, every option with its value).
///
/// ```
/// use nimlab_engine::plan::{search_value, SearchSettings};
/// use nimlab_engine::{Coord, Game, TableOptions};
/// struct Heap;
/// impl Game for Heap {
///     fn spec(&self) -> String { "heap".into() }
///     fn dimension(&self) -> usize { 1 }
///     fn for_each_option(&self, p: &[Coord], visit: &mut dyn FnMut(&[Coord])) {
///         for u in 0..p[0] { visit(&[u]); }
///     }
/// }
/// let r = search_value(&Heap, &[20u32.into()], &TableOptions::default(),
///                      &SearchSettings::default(), false).unwrap();
/// assert_eq!(r.grundy, Some(20u32.into()));
/// assert_eq!(r.method.id(), "search");
/// assert_eq!(r.winning_moves, vec![vec![0u32.into()]]);
/// ```
pub fn search_value(
    game: &dyn Game,
    pos: &[BigUint],
    opts: &TableOptions,
    settings: &SearchSettings,
    with_options: bool,
) -> Result<PositionReport> {
    if !Search::applies_to(game) {
        return Err(Error::input(format!(
            "the search values games of normal play whose positions are one piece or fall \
             apart into regions; {} is not one",
            game.spec()
        )));
    }
    let small = to_small(pos).ok_or_else(|| {
        Error::input(format!(
            "position {} is too big for the search",
            write_position(game, pos)
        ))
    })?;
    game.check_position(&small)?;
    // The questions nest deep: a thread of its own with room for them.
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .name("nimlab-search".into())
            .stack_size(SEARCH_STACK)
            .spawn_scoped(s, || run(game, &small, opts, settings, with_options))
            .map_err(|e| Error::io("cannot start the search's thread", e))?
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    })
}

fn big_of(p: &[Coord]) -> BigPosition {
    p.iter().map(|&c| BigUint::from(c)).collect()
}

fn run(
    game: &dyn Game,
    p: &[Coord],
    opts: &TableOptions,
    settings: &SearchSettings,
    with_options: bool,
) -> Result<PositionReport> {
    let mut search =
        Search::new(game, opts).with_end_rank(settings.end_rank.unwrap_or(DEFAULT_END_RANK));
    if let Some(file) = &settings.resume {
        search.resume(file)?;
    }
    if let Some(file) = &settings.checkpoint {
        let every = settings.checkpoint_every.unwrap_or(Duration::from_secs(60));
        search = search.with_checkpoint(file, every);
    }
    let g = search.grundy(p)?;
    let stats = search.stats();
    let mut options = Vec::new();
    let mut seen = rustc_hash::FxHashSet::default();
    game.for_each_option(p, &mut |o| {
        let o = game.canonical(o).unwrap_or_else(|| o.to_vec());
        if seen.insert(o.clone()) {
            options.push(o);
        }
    });
    let mut r = PositionReport::of_value(
        big_of(p),
        g,
        Method::new(MethodKind::Search, describe(&stats)),
    );
    if with_options {
        let mut listed = Vec::with_capacity(options.len());
        for o in options {
            let v = search.grundy(&o)?;
            listed.push(super::OptionReport {
                position: big_of(&o),
                grundy: Some(v.into()),
                winning: v == 0,
            });
        }
        r.winning_moves = listed
            .iter()
            .filter(|o| o.winning)
            .map(|o| o.position.clone())
            .collect();
        r.options = Some(listed);
    } else if g != 0 {
        // One winning move, the first found: enough to play, and far cheaper than
        // asking every option (a P-option's question is the expensive kind).
        for o in options {
            if search.is_p(&o)? {
                r.winning_moves.push(big_of(&o));
                break;
            }
        }
        r.all_winning_moves = false;
    }
    Ok(r)
}

/// The method's words: what the search did.
fn describe(s: &SearchStats) -> String {
    format!(
        "pruned search: {} nodes, {} table entries ({} MiB), depth {}",
        s.nodes,
        s.entries,
        s.table_bytes >> 20,
        s.max_depth
    )
}
