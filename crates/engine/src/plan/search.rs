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

/// The most shards a split search is merged from (each is a document to read).
pub const MAX_SHARDS: u64 = 1 << 16;

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
    let small = searchable(game, pos)?;
    on_search_thread(|| run(game, &small, opts, settings, with_options))
}

/// `pos` as the search takes it, or why the search does not answer there.
fn searchable(game: &dyn Game, pos: &[BigUint]) -> Result<Vec<Coord>> {
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
    Ok(small)
}

/// Runs `work` on a thread of its own with room for the search's nested questions.
fn on_search_thread<T: Send>(work: impl FnOnce() -> Result<T> + Send) -> Result<T> {
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .name("nimlab-search".into())
            .stack_size(SEARCH_STACK)
            .spawn_scoped(s, work)
            .map_err(|e| Error::io("cannot start the search's thread", e))?
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    })
}

/// A search set up as `settings` ask: its end rank, the table it resumes from and
/// its checkpoints.
fn configured<'g>(
    game: &'g dyn Game,
    opts: &TableOptions<'g>,
    settings: &SearchSettings,
) -> Result<Search<'g>> {
    let mut search =
        Search::new(game, opts).with_end_rank(settings.end_rank.unwrap_or(DEFAULT_END_RANK));
    if let Some(file) = &settings.resume {
        search.resume(file)?;
    }
    if let Some(file) = &settings.checkpoint {
        let every = settings.checkpoint_every.unwrap_or(Duration::from_secs(60));
        search = search.with_checkpoint(file, every);
    }
    Ok(search)
}

/// The options of `pos` as the search and its shards list them: each game once (in
/// the game's canonical form), in the order the game lists them. Shard i of k
/// values those whose index here is ≡ i (mod k) ([`search_shard`]).
///
/// ```
/// use nimlab_engine::plan::root_options;
/// use nimlab_engine::{Coord, Game};
/// struct Heap;
/// impl Game for Heap {
///     fn spec(&self) -> String { "heap".into() }
///     fn dimension(&self) -> usize { 1 }
///     fn for_each_option(&self, p: &[Coord], visit: &mut dyn FnMut(&[Coord])) {
///         for u in 0..p[0] { visit(&[u]); }
///     }
/// }
/// assert_eq!(root_options(&Heap, &[3]), vec![vec![0], vec![1], vec![2]]);
/// ```
pub fn root_options(game: &dyn Game, pos: &[Coord]) -> Vec<Vec<Coord>> {
    let mut options = Vec::new();
    let mut seen = rustc_hash::FxHashSet::default();
    game.for_each_option(pos, &mut |o| {
        let o = game.canonical(o).unwrap_or_else(|| o.to_vec());
        if seen.insert(o.clone()) {
            options.push(o);
        }
    });
    options
}

/// One option of the root valued by a shard.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShardValue {
    /// Its index in [`root_options`].
    pub index: u64,
    /// The option.
    pub option: Vec<Coord>,
    /// Its nimber.
    pub grundy: u32,
}

/// What one shard of a split search found: the exact nimbers of the root's options
/// whose index is ≡ i (mod k). The k shards together value every option, and the
/// root's nimber is their mex ([`merge_search_shards`]).
#[derive(Debug, Clone)]
pub struct SearchShard {
    /// (i, k): this is shard i of k.
    pub shard: (u64, u64),
    /// How many options the root has (each game once).
    pub options_total: u64,
    /// The options this shard valued, by index.
    pub values: Vec<ShardValue>,
    /// What its search did.
    pub stats: SearchStats,
}

/// Shard `shard = (i, k)` of a search split at the root: the exact nimber of each
/// option of `pos` whose index in [`root_options`] is ≡ i (mod k), by pruned search.
/// The shards share nothing, so they run on any machines (with their own
/// checkpoints); [`merge_search_shards`] joins them into the root's answer. The k
/// shards together do more work than one search of the root, which needs only some
/// options' values: the split trades work for machines.
///
/// ```
/// use nimlab_engine::plan::{merge_search_shards, search_shard, SearchSettings};
/// use nimlab_engine::{Coord, Game, TableOptions};
/// struct Heap;
/// impl Game for Heap {
///     fn spec(&self) -> String { "heap".into() }
///     fn dimension(&self) -> usize { 1 }
///     fn for_each_option(&self, p: &[Coord], visit: &mut dyn FnMut(&[Coord])) {
///         for u in 0..p[0] { visit(&[u]); }
///     }
/// }
/// let pos = [7u32.into()];
/// let (opts, settings) = (TableOptions::default(), SearchSettings::default());
/// let shards: Vec<_> = (0..3)
///     .map(|i| search_shard(&Heap, &pos, &opts, &settings, (i, 3)).unwrap())
///     .collect();
/// assert_eq!(shards[1].values.iter().map(|v| v.grundy).collect::<Vec<_>>(), [1, 4]);
/// let r = merge_search_shards(&Heap, &pos, &shards, false).unwrap();
/// assert_eq!(r.grundy, Some(7u32.into()));
/// ```
pub fn search_shard(
    game: &dyn Game,
    pos: &[BigUint],
    opts: &TableOptions,
    settings: &SearchSettings,
    shard: (u64, u64),
) -> Result<SearchShard> {
    let (i, k) = shard;
    if k == 0 || i >= k || k > MAX_SHARDS {
        return Err(Error::input(format!(
            "shard {i}/{k}: give i/k with 0 ≤ i < k ≤ {MAX_SHARDS}"
        )));
    }
    let small = searchable(game, pos)?;
    on_search_thread(|| {
        let options = root_options(game, &small);
        let mut search = configured(game, opts, settings)?;
        let mut values = Vec::new();
        for (index, option) in (0u64..).zip(options.iter()) {
            if index % k == i {
                let grundy = search.grundy(option)?;
                values.push(ShardValue {
                    index,
                    option: option.clone(),
                    grundy,
                });
            }
        }
        Ok(SearchShard {
            shard,
            options_total: options.len() as u64,
            values,
            stats: search.stats(),
        })
    })
}

/// The answer about `pos` from the k shards of a split search ([`search_shard`]):
/// its nimber is the mex of its options' nimbers, and its winning moves are the
/// options worth 0 (all of them). Refuses shards that do not fit together or do not
/// belong to `pos` — one missing or given twice, splits of different k, an option
/// that is not the one its index names — rather than answer from part of the options.
pub fn merge_search_shards(
    game: &dyn Game,
    pos: &[BigUint],
    shards: &[SearchShard],
    with_options: bool,
) -> Result<PositionReport> {
    let small = searchable(game, pos)?;
    let k = match shards.first() {
        Some(s) => s.shard.1,
        None => return Err(Error::input("give the shards of the search to merge")),
    };
    if k == 0 || k > MAX_SHARDS {
        return Err(Error::input(format!(
            "a split into {k} shards: give 1 to {MAX_SHARDS}"
        )));
    }
    let expected = root_options(game, &small);
    let mut held: Vec<Option<&SearchShard>> = vec![None; k as usize];
    for s in shards {
        let (i, sk) = s.shard;
        if sk != k {
            return Err(Error::input(format!(
                "the shards come from different splits: {i}/{sk} beside one of {k}"
            )));
        }
        let slot = held
            .get_mut(i as usize)
            .ok_or_else(|| Error::input(format!("shard {i}/{k} does not exist")))?;
        if slot.replace(s).is_some() {
            return Err(Error::input(format!("shard {i}/{k} is given twice")));
        }
    }
    if let Some(i) = held.iter().position(Option::is_none) {
        return Err(Error::input(format!(
            "shard {i}/{k} is missing: the nimber needs every option's value"
        )));
    }
    let foreign = |i: u64| {
        Error::input(format!(
            "shard {i}/{k} does not hold the options of {} at {} (another position, or \
             another version of the game's listing)",
            game.spec(),
            write_position(game, pos)
        ))
    };
    let mut grundy = vec![0u32; expected.len()];
    for s in shards {
        let (i, _) = s.shard;
        let indices: Vec<u64> = s.values.iter().map(|v| v.index).collect();
        let wanted: Vec<u64> = (i..expected.len() as u64).step_by(k as usize).collect();
        if s.options_total != expected.len() as u64 || indices != wanted {
            return Err(foreign(i));
        }
        for v in &s.values {
            if expected[v.index as usize] != v.option {
                return Err(foreign(i));
            }
            grundy[v.index as usize] = v.grundy;
        }
    }
    // Every index is ≡ i (mod k) for exactly one shard i, so every option has its value.
    let mex = (0u32..)
        .find(|g| !grundy.contains(g))
        .expect("fewer options than nimbers");
    let nodes: u64 = shards.iter().map(|s| s.stats.nodes).sum();
    let detail = format!(
        "pruned search split at the root into {k} shards: {} options valued, {nodes} nodes",
        expected.len()
    );
    let mut r =
        PositionReport::of_value(pos.to_vec(), mex, Method::new(MethodKind::Search, detail));
    let listed: Vec<super::OptionReport> = expected
        .iter()
        .zip(&grundy)
        .map(|(o, &v)| super::OptionReport {
            position: big_of(o),
            grundy: Some(v.into()),
            winning: v == 0,
        })
        .collect();
    r.winning_moves = listed
        .iter()
        .filter(|o| o.winning)
        .map(|o| o.position.clone())
        .collect();
    if with_options {
        r.options = Some(listed);
    }
    Ok(r)
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
    let mut search = configured(game, opts, settings)?;
    let g = search.grundy(p)?;
    let stats = search.stats();
    let options = root_options(game, p);
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
