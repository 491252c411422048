//! The document of one shard of a search split at the root (`nimlab value … --shard
//! i/k`, Python's `Game.search_shard`) and the merge of k of them into the root's
//! answer (`--merge`, `Game.merge_search`): what a cluster's machines write and read
//! back (docs/records.md, "Split across machines").

use nimlab_engine::big::BigUint;
use nimlab_engine::plan::{
    merge_search_shards, root_options, write_position, PositionReport, SearchShard, ShardHit,
};
use nimlab_engine::search::SearchStats;
use nimlab_engine::{Error, Game, Result};
#[cfg(feature = "schema")]
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// One shard of a search split at the root: which nimbers below `below` the root's
/// options whose index is ≡ i (mod k) have, one option of each. Positions are written
/// as the game writes them, so a merge can check that every shard belongs to the
/// same game and position and holds the options its indices name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
pub struct SearchShardDoc {
    /// The game's canonical spec.
    pub game: String,
    /// The root position, as the game writes it.
    pub position: String,
    /// `[i, k]`: shard i of k.
    pub shard: [u64; 2],
    /// How many options the root has (each game once, in canonical form).
    pub options_total: u64,
    /// The nimbers asked about: 0, 1, …, below − 1.
    pub below: u32,
    /// The nimbers below `below` this shard's options have, increasing, each with one
    /// option worth it (its index among the root's options and the option as the
    /// game writes it); every other nimber below `below` is none of its options'.
    pub hits: Vec<ShardHitDoc>,
    /// Components this shard's search listed the options of.
    pub nodes: u64,
}

/// A nimber some option of a shard has.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
pub struct ShardHitDoc {
    /// The nimber.
    pub grundy: u32,
    /// The option's index among the root's options.
    pub index: u64,
    /// The option, as the game writes it.
    pub position: String,
}

impl SearchShardDoc {
    /// The document of shard `s` of the search of `pos` in `game`.
    pub fn new(game: &dyn Game, pos: &[BigUint], s: &SearchShard) -> Self {
        SearchShardDoc {
            game: game.spec(),
            position: write_position(game, pos),
            shard: [s.shard.0, s.shard.1],
            options_total: s.options_total,
            below: s.below,
            hits: s
                .hits
                .iter()
                .map(|h| ShardHitDoc {
                    grundy: h.grundy,
                    index: h.index,
                    position: write_small(game, &h.option),
                })
                .collect(),
            nodes: s.stats.nodes,
        }
    }
}

fn write_small(game: &dyn Game, p: &[nimlab_engine::Coord]) -> String {
    let big: Vec<BigUint> = p.iter().map(|&c| BigUint::from(c)).collect();
    write_position(game, &big)
}

/// The answer about `pos` from the documents of the k shards of its split search
/// (its nimber and a winning move from each shard that found one), after checking
/// that each document is of this game and position and that its options are the
/// ones its indices name. The merge trusts each shard's nimbers, as a census merge
/// trusts its lines.
///
/// ```
/// use nimlab_engine::plan::{search_shard, SearchSettings};
/// use nimlab_engine::TableOptions;
/// use nimlab_json::search_shard::{merge, SearchShardDoc};
/// let game = nimlab_games::parse_game("cram(rows=3,cols=4)").unwrap();
/// let pos = nimlab_engine::plan::read_position(&*game, "start").unwrap();
/// let (opts, settings) = (TableOptions::default(), SearchSettings::default());
/// let docs: Vec<SearchShardDoc> = (0..2)
///     .map(|i| search_shard(&*game, &pos, &opts, &settings, (i, 2), 8).unwrap())
///     .map(|s| SearchShardDoc::new(&*game, &pos, &s))
///     .collect();
/// let r = merge(&*game, &pos, &docs).unwrap();
/// // Odd × even: the first player wins (the centre domino, then symmetry).
/// assert_eq!(r.grundy, Some(1u32.into()));
/// assert!(merge(&*game, &pos, &docs[..1]).is_err()); // shard 1/2 is missing
/// ```
pub fn merge(game: &dyn Game, pos: &[BigUint], docs: &[SearchShardDoc]) -> Result<PositionReport> {
    let spec = game.spec();
    let shown = write_position(game, pos);
    let small: Option<Vec<nimlab_engine::Coord>> = nimlab_engine::big::to_small(pos);
    let expected = small.map(|p| root_options(game, &p)).unwrap_or_default();
    let mut shards = Vec::with_capacity(docs.len());
    for d in docs {
        let [i, k] = d.shard;
        if d.game != spec || d.position != shown {
            return Err(Error::input(format!(
                "shard {i}/{k} is of {} at {}, not of {spec} at {shown}",
                d.game, d.position
            )));
        }
        let hits = d
            .hits
            .iter()
            .map(|h| ShardHit {
                grundy: h.grundy,
                index: h.index,
                // The option its index names, if the shard wrote that one; the
                // engine's merge refuses the shard otherwise.
                option: match expected.get(h.index as usize) {
                    Some(e) if write_small(game, e) == h.position => e.clone(),
                    _ => Vec::new(),
                },
            })
            .collect();
        shards.push(SearchShard {
            shard: (i, k),
            options_total: d.options_total,
            below: d.below,
            hits,
            stats: SearchStats {
                nodes: d.nodes,
                ..SearchStats::default()
            },
        });
    }
    merge_search_shards(game, pos, &shards)
}
