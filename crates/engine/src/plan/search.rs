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
    let mut search = Search::new(game, opts)
        .with_end_rank(settings.end_rank.unwrap_or(DEFAULT_END_RANK))
        .with_threads(rayon::current_num_threads());
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

/// An option of the root worth a given nimber, found by a shard.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShardHit {
    /// The nimber.
    pub grundy: u32,
    /// The option's index in [`root_options`].
    pub index: u64,
    /// The option.
    pub option: Vec<Coord>,
}

/// What one shard of a search split at the root found about the root's options
/// whose index is ≡ i (mod k): which nimbers below `below` they have (one option of
/// each), every other nimber below `below` proved to be none of theirs. The root's
/// nimber is the least nimber no shard's options have ([`merge_search_shards`]).
#[derive(Debug, Clone)]
pub struct SearchShard {
    /// (i, k): this is shard i of k.
    pub shard: (u64, u64),
    /// How many options the root has (each game once).
    pub options_total: u64,
    /// The nimbers asked about: 0, 1, …, below − 1.
    pub below: u32,
    /// The nimbers below `below` its options have, increasing, one option each.
    pub hits: Vec<ShardHit>,
    /// What its search did.
    pub stats: SearchStats,
}

/// The nimbers a shard asks about unless told otherwise: 0…3. Each nimber more costs
/// a shard more than the last (an option worth more must be shown not to be worth
/// each one asked: on Cram 5×7, whose nimber is 1, a quarter of the options took
/// 0.6 CPU s below 2, 0.9 below 4, 8 below 6 and 19 below 8), while the boards and
/// graphs searched have small nimbers; when the root's is 4 or more, the merge says
/// so and the shards run again asking higher, resuming their checkpoints.
pub const DEFAULT_SHARD_BELOW: u32 = 4;

/// Shard `shard = (i, k)` of a search split at the root: for u = 0, 1, …, `below` − 1,
/// whether some option of `pos` whose index in [`root_options`] is ≡ i (mod k) is
/// worth u ([`Search::values_hit`]). The root's search stops at the first u none of
/// its options has; a shard cannot, since another shard's options may have it, so
/// it asks up to `below`. The shards share nothing, so they run on any machines
/// (each with its own checkpoints), and [`merge_search_shards`] joins them.
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
///     .map(|i| search_shard(&Heap, &pos, &opts, &settings, (i, 3), 16).unwrap())
///     .collect();
/// // Shard 1 of 3 holds the heaps 1 and 4.
/// assert_eq!(shards[1].hits.iter().map(|h| h.grundy).collect::<Vec<_>>(), [1, 4]);
/// let r = merge_search_shards(&Heap, &pos, &shards).unwrap();
/// assert_eq!(r.grundy, Some(7u32.into()));
/// ```
pub fn search_shard(
    game: &dyn Game,
    pos: &[BigUint],
    opts: &TableOptions,
    settings: &SearchSettings,
    shard: (u64, u64),
    below: u32,
) -> Result<SearchShard> {
    let (i, k) = shard;
    if k == 0 || i >= k || k > MAX_SHARDS {
        return Err(Error::input(format!(
            "shard {i}/{k}: give i/k with 0 ≤ i < k ≤ {MAX_SHARDS}"
        )));
    }
    if below == 0 {
        return Err(Error::input(
            "a shard asks about the nimbers below a bound of at least 1",
        ));
    }
    let small = searchable(game, pos)?;
    on_search_thread(|| {
        let all = root_options(game, &small);
        let mine: Vec<(u64, &Vec<Coord>)> = (0u64..)
            .zip(all.iter())
            .filter(|(index, _)| index % k == i)
            .collect();
        let positions: Vec<Vec<Coord>> = mine.iter().map(|(_, o)| (*o).clone()).collect();
        let mut search = configured(game, opts, settings)?;
        let hits = search
            .values_hit(&positions, below)?
            .into_iter()
            .map(|(grundy, j)| ShardHit {
                grundy,
                index: mine[j].0,
                option: positions[j].clone(),
            })
            .collect();
        Ok(SearchShard {
            shard,
            options_total: all.len() as u64,
            below,
            hits,
            stats: search.stats(),
        })
    })
}

/// The answer about `pos` from the k shards of a split search ([`search_shard`]):
/// its nimber is the least one no shard's options have, and its winning moves are
/// the options the shards found worth 0 (one per shard at most). Refuses shards that
/// do not fit together or do not belong to `pos` — one missing or given twice,
/// splits of different k, an option that is not the one its index names or not in
/// its shard — rather than answer from part of the options; and, when every nimber
/// below the smallest shard's bound is some option's, says so (the shards must ask
/// higher) rather than guess.
pub fn merge_search_shards(
    game: &dyn Game,
    pos: &[BigUint],
    shards: &[SearchShard],
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
            "shard {i}/{k} is missing: the nimber needs every option"
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
    let mut had = vec![false; expected.len() + 1];
    let mut winning = Vec::new();
    for s in shards {
        let (i, _) = s.shard;
        if s.options_total != expected.len() as u64 {
            return Err(foreign(i));
        }
        let mut last = None;
        for h in &s.hits {
            let fits = h.index % k == i
                && expected.get(h.index as usize) == Some(&h.option)
                && h.grundy < s.below
                && last.is_none_or(|l| l < h.grundy);
            if !fits {
                return Err(foreign(i));
            }
            last = Some(h.grundy);
            if let Some(slot) = had.get_mut(h.grundy as usize) {
                *slot = true;
            }
            if h.grundy == 0 {
                winning.push(big_of(&h.option));
            }
        }
    }
    // Every nimber below each shard's bound that its options have is among its hits,
    // so a nimber below every bound that no shard hit is no option's.
    let below = shards.iter().map(|s| s.below).min().unwrap_or(0);
    let mex = had.iter().position(|&h| !h).unwrap_or(had.len()) as u32;
    if mex >= below {
        return Err(Error::input(format!(
            "every nimber below {below} is some option's, so the nimber is {below} or \
             more: run the shards again asking below {} (resuming their checkpoints)",
            below.saturating_mul(2)
        )));
    }
    let nodes: u64 = shards.iter().map(|s| s.stats.nodes).sum();
    let detail = format!(
        "pruned search split at the root into {k} shards ({} options, nimbers below {below} \
         asked about): {nodes} nodes",
        expected.len()
    );
    let mut r =
        PositionReport::of_value(pos.to_vec(), mex, Method::new(MethodKind::Search, detail));
    winning.sort();
    r.winning_moves = winning;
    r.all_winning_moves = false;
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
