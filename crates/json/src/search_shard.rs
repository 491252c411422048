//! The document of one shard of a search split at the root (`nimlab value … --shard
//! i/k`, Python's `Game.search_shard`) and the merge of k of them into the root's
//! answer (`--merge`, `Game.merge_search`): what a cluster's machines write and read
//! back (docs/records.md, "Split across machines").

use nimlab_engine::big::BigUint;
use nimlab_engine::plan::{
    merge_search_shards, root_options, write_position, PositionReport, SearchShard, ShardValue,
};
use nimlab_engine::search::SearchStats;
use nimlab_engine::{Error, Game, Result};
#[cfg(feature = "schema")]
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// One shard of a search split at the root: the nimbers of the root's options
/// whose index is ≡ i (mod k). Positions are written as the game writes them, so a
/// merge can check that every shard belongs to the same game and position.
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
    /// The options this shard valued: each option's index among the root's options,
    /// the option as the game writes it, and its nimber.
    pub options: Vec<ShardOptionDoc>,
    /// Components this shard's search listed the options of.
    pub nodes: u64,
}

/// One option valued by a shard.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
pub struct ShardOptionDoc {
    /// Its index among the root's options.
    pub index: u64,
    /// The option, as the game writes it.
    pub position: String,
    /// Its nimber.
    pub grundy: u32,
}

impl SearchShardDoc {
    /// The document of shard `s` of the search of `pos` in `game`.
    pub fn new(game: &dyn Game, pos: &[BigUint], s: &SearchShard) -> Self {
        SearchShardDoc {
            game: game.spec(),
            position: write_position(game, pos),
            shard: [s.shard.0, s.shard.1],
            options_total: s.options_total,
            options: s
                .values
                .iter()
                .map(|v| ShardOptionDoc {
                    index: v.index,
                    position: write_small(game, &v.option),
                    grundy: v.grundy,
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

/// The answer about `pos` from the documents of the k shards of its split search:
/// the same report a single search gives (with every winning move), after checking
/// that each document is of this game and position and that its options are the
/// ones its indices name.
///
/// ```
/// use nimlab_engine::plan::{search_shard, SearchSettings};
/// use nimlab_engine::TableOptions;
/// use nimlab_json::search_shard::{merge, SearchShardDoc};
/// let game = nimlab_games::parse_game("cram(rows=3,cols=4)").unwrap();
/// let pos = nimlab_engine::plan::read_position(&*game, "start").unwrap();
/// let (opts, settings) = (TableOptions::default(), SearchSettings::default());
/// let docs: Vec<SearchShardDoc> = (0..2)
///     .map(|i| search_shard(&*game, &pos, &opts, &settings, (i, 2)).unwrap())
///     .map(|s| SearchShardDoc::new(&*game, &pos, &s))
///     .collect();
/// let r = merge(&*game, &pos, &docs, false).unwrap();
/// // Odd × even: the first player wins (the centre domino, then symmetry).
/// assert_eq!(r.grundy, Some(1u32.into()));
/// assert!(merge(&*game, &pos, &docs[..1], false).is_err()); // shard 1/2 is missing
/// ```
pub fn merge(
    game: &dyn Game,
    pos: &[BigUint],
    docs: &[SearchShardDoc],
    with_options: bool,
) -> Result<PositionReport> {
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
        let mut values = Vec::with_capacity(d.options.len());
        for o in &d.options {
            // The option its index names, if the shard wrote that one; the engine's
            // merge refuses the shard otherwise.
            let option = match expected.get(o.index as usize) {
                Some(e) if write_small(game, e) == o.position => e.clone(),
                _ => Vec::new(),
            };
            values.push(ShardValue {
                index: o.index,
                option,
                grundy: o.grundy,
            });
        }
        shards.push(SearchShard {
            shard: (i, k),
            options_total: d.options_total,
            values,
            stats: SearchStats {
                nodes: d.nodes,
                ..SearchStats::default()
            },
        });
    }
    merge_search_shards(game, pos, &shards, with_options)
}
