//! Playing against the computer: the computer's move, the remoteness of positions,
//! and why a move is good, for every surface (`nimlab play`, the web explorer).
//!
//! Perfect play (normal or misère, whatever the game's terminal value says):
//! from an N-position, a winning move — the one that wins fastest when the
//! remoteness is known; from a P-position, the move that makes the game last longest
//! (largest remoteness, Steinhaus). Remoteness comes from an iterative search over
//! every position reachable from the current one, bounded by [`MAX_SEARCH_POSITIONS`]
//! and [`MAX_SEARCH_MOVES`]; beyond that, the planner's winning moves, else the move
//! that changes the position least.
//!
//! ```
//! use nimlab_engine::play::{computer_move, Level};
//! use nimlab_engine::{Coord, Game, TableOptions};
//! struct Take12; // one heap, take 1 or 2: P-positions are the multiples of 3
//! impl Game for Take12 {
//!     fn spec(&self) -> String { "take12".into() }
//!     fn dimension(&self) -> usize { 1 }
//!     fn for_each_option(&self, p: &[Coord], visit: &mut dyn FnMut(&[Coord])) {
//!         for t in 1..=2 { if p[0] >= t { visit(&[p[0] - t]); } }
//!     }
//! }
//! let m = computer_move(&Take12, &[7], Level::Perfect, &TableOptions::default())
//!     .unwrap()
//!     .unwrap();
//! assert_eq!(m.to, vec![6]);
//! assert!(m.winning);
//! ```

use crate::big::{BigPosition, BigUint};
use crate::error::{Error, Result};
use crate::game::{Coord, Game, Outcome, Position};
use crate::table::TableOptions;
use rustc_hash::FxHashMap;

/// Most positions the remoteness search visits before giving up.
pub const MAX_SEARCH_POSITIONS: usize = 300_000;
/// Most moves (edges) the remoteness search lists before giving up.
pub const MAX_SEARCH_MOVES: usize = 3_000_000;

/// How well the computer plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    /// Always the best move (see the module documentation).
    Perfect,
    /// Half of the moves at random (pseudo-random from `seed`), the others perfect.
    Easy {
        /// Seed of the pseudo-random choices (same seed, same game).
        seed: u64,
    },
}

/// Outcome and remoteness of one position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Remoteness {
    /// P (the player to move loses) or N.
    pub outcome: Outcome,
    /// Moves left under perfect play: the winner hurries, the loser delays.
    pub moves: u64,
}

/// The computer's move and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveChoice {
    /// The position moved from.
    pub from: Position,
    /// The position moved to.
    pub to: Position,
    /// The Grundy value of `to`, when known.
    pub grundy: Option<BigUint>,
    /// Whether `to` is a P-position (the move wins).
    pub winning: bool,
    /// Remoteness of `to`, when the search could reach the end of the game.
    pub remoteness: Option<u64>,
    /// Why, in the game's own terms where it has them.
    pub explanation: String,
    /// Whether the move was picked at random ([`Level::Easy`]).
    pub random: bool,
}

/// The distinct options of `pos`, in canonical form, in the game's order.
///
/// ```
/// use nimlab_engine::play::legal_moves;
/// use nimlab_engine::{Coord, Game};
/// struct Heap;
/// impl Game for Heap {
///     fn spec(&self) -> String { "heap".into() }
///     fn dimension(&self) -> usize { 1 }
///     fn for_each_option(&self, p: &[Coord], visit: &mut dyn FnMut(&[Coord])) {
///         for u in 0..p[0] { visit(&[u]); }
///     }
/// }
/// assert_eq!(legal_moves(&Heap, &[2]), vec![vec![0], vec![1]]);
/// ```
pub fn legal_moves(game: &dyn Game, pos: &[Coord]) -> Vec<Position> {
    let mut seen = rustc_hash::FxHashSet::default();
    let mut out = Vec::new();
    game.for_each_option(pos, &mut |o| {
        let o = game.canonical(o).unwrap_or_else(|| o.to_vec());
        if seen.insert(o.clone()) {
            out.push(o);
        }
    });
    out
}

/// `to` in canonical form if it is an option of `from`, else `None` (heaps may be
/// written in any order).
pub fn find_move(game: &dyn Game, from: &[Coord], to: &[Coord]) -> Option<Position> {
    let to = game.canonical(to).unwrap_or_else(|| to.to_vec());
    legal_moves(game, from).into_iter().find(|o| *o == to)
}

/// Whether the player to move at a position without options wins (misère play).
pub fn mover_wins_at_end(game: &dyn Game) -> bool {
    game.terminal_value() != 0
}

/// Outcome and remoteness of `pos` and of each of its options (in the order of
/// [`legal_moves`]), by an iterative search over every reachable position; `None`
/// when there are more than [`MAX_SEARCH_POSITIONS`] positions or
/// [`MAX_SEARCH_MOVES`] moves to look at.
pub fn remoteness(game: &dyn Game, pos: &[Coord]) -> Result<Option<(Remoteness, Vec<Remoteness>)>> {
    remoteness_within(
        game,
        pos,
        MAX_SEARCH_POSITIONS,
        &crate::progress::NoProgress,
    )
}

fn remoteness_within(
    game: &dyn Game,
    pos: &[Coord],
    max_positions: usize,
    progress: &dyn crate::progress::Progress,
) -> Result<Option<(Remoteness, Vec<Remoteness>)>> {
    let root = game.canonical(pos).unwrap_or_else(|| pos.to_vec());
    let mut index: FxHashMap<Position, u32> = FxHashMap::default();
    let mut nodes: Vec<Position> = vec![root.clone()];
    let mut edges: Vec<Vec<u32>> = vec![Vec::new()];
    index.insert(root, 0);
    let mut stack = vec![0u32];
    let mut edge_count = 0usize;
    let mut processed = 0u64;
    while let Some(i) = stack.pop() {
        let p = nodes[i as usize].clone();
        let rank = game.rank(&p);
        let mut list = Vec::new();
        let mut bad = None;
        game.for_each_option(&p, &mut |o| {
            if bad.is_some() {
                return;
            }
            if game.rank(o) >= rank {
                bad = Some(Error::Contract(format!(
                    "{} moves from {} to {} without lowering its rank",
                    game.spec(),
                    crate::game::position_words(game, &p),
                    crate::game::position_words(game, o)
                )));
                return;
            }
            let o = game.canonical(o).unwrap_or_else(|| o.to_vec());
            let j = match index.get(&o) {
                Some(&j) => j,
                None => {
                    let j = nodes.len() as u32;
                    index.insert(o.clone(), j);
                    nodes.push(o);
                    edges.push(Vec::new());
                    stack.push(j);
                    j
                }
            };
            if !list.contains(&j) {
                list.push(j);
            }
        });
        if let Some(e) = bad {
            return Err(e);
        }
        edge_count += list.len();
        edges[i as usize] = list;
        processed += 1;
        if processed.is_multiple_of(4096) {
            progress.check_cancelled()?;
        }
        if processed.is_multiple_of(65536) {
            progress.advance(65536);
        }
        if nodes.len() > max_positions || edge_count > MAX_SEARCH_MOVES {
            return Ok(None);
        }
    }
    let result = remoteness_by_rank(game, &nodes, &edges);
    let get = |i: u32| result[i as usize].expect("every position evaluated");
    Ok(Some((get(0), edges[0].iter().map(|&j| get(j)).collect())))
}

/// The outcome and remoteness of every node of the searched graph (`edges[i]`: node
/// i's options), in increasing rank: every option has a lower rank than its position.
fn remoteness_by_rank(
    game: &dyn Game,
    nodes: &[Position],
    edges: &[Vec<u32>],
) -> Vec<Option<Remoteness>> {
    let mut order: Vec<u32> = (0..nodes.len() as u32).collect();
    order.sort_unstable_by_key(|&i| game.rank(&nodes[i as usize]));
    let end = if mover_wins_at_end(game) {
        Outcome::N
    } else {
        Outcome::P
    };
    let mut result: Vec<Option<Remoteness>> = vec![None; nodes.len()];
    for &i in &order {
        let opts = &edges[i as usize];
        let r = if opts.is_empty() {
            Remoteness {
                outcome: end,
                moves: 0,
            }
        } else {
            let known = |j: &u32| result[*j as usize].expect("options come first in rank order");
            let fastest_win = opts
                .iter()
                .map(known)
                .filter(|r| r.outcome == Outcome::P)
                .map(|r| r.moves)
                .min();
            match fastest_win {
                Some(m) => Remoteness {
                    outcome: Outcome::N,
                    moves: m + 1,
                },
                None => Remoteness {
                    outcome: Outcome::P,
                    moves: opts.iter().map(|j| known(j).moves).max().unwrap_or(0) + 1,
                },
            }
        };
        result[i as usize] = Some(r);
    }
    result
}

/// A small pseudo-random generator (SplitMix64): reproducible easy games without a
/// dependency.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn big_of(p: &[Coord]) -> BigPosition {
    p.iter().map(|&c| BigUint::from(c)).collect()
}

/// The computer's move from `pos`, or `None` when the game is over (no option).
pub fn computer_move(
    game: &dyn Game,
    pos: &[Coord],
    level: Level,
    opts: &TableOptions,
) -> Result<Option<MoveChoice>> {
    computer_move_within(game, pos, level, opts, MAX_SEARCH_POSITIONS)
}

fn computer_move_within(
    game: &dyn Game,
    pos: &[Coord],
    level: Level,
    opts: &TableOptions,
    max_positions: usize,
) -> Result<Option<MoveChoice>> {
    game.check_position(pos)?;
    let options = legal_moves(game, pos);
    if options.is_empty() {
        return Ok(None);
    }
    let from = game.canonical(pos).unwrap_or_else(|| pos.to_vec());
    if let Level::Easy { seed } = level {
        // Mix in the position so that each move of a game draws afresh.
        let mut state = seed
            ^ (crate::plan::write_position(game, &big_of(pos)).len() as u64)
                .wrapping_mul(0x100_0000_01B3)
            ^ pos
                .iter()
                .fold(0u64, |h, &c| h.wrapping_mul(31).wrapping_add(c));
        if splitmix(&mut state).is_multiple_of(2) {
            let to = options[(splitmix(&mut state) % options.len() as u64) as usize].clone();
            return describe(game, from, to, None, true, opts).map(Some);
        }
    }
    if game.capabilities().nplayer.is_some() {
        // n players: a move that secures the mover's best rank (the class recursion
        // or the game's closed form, through the planner).
        let report = crate::plan::value(game, &big_of(&from), opts)?;
        let best = report
            .nplayer
            .as_ref()
            .and_then(|np| {
                np.best_moves
                    .iter()
                    .filter_map(|m| crate::big::to_small(m))
                    .map(|m| game.canonical(&m).unwrap_or(m))
                    .find(|m| options.contains(m))
            })
            .unwrap_or_else(|| options[0].clone());
        return describe(game, from, best, None, false, opts).map(Some);
    }
    if let Some((_, rems)) = remoteness_within(game, pos, max_positions, opts.progress)? {
        let best = options
            .iter()
            .zip(&rems)
            .min_by_key(|(_, r)| match r.outcome {
                // Winning options first, fastest first; then the longest defence.
                Outcome::P => (0, r.moves as i128),
                Outcome::N => (1, -(r.moves as i128)),
            })
            .map(|(o, r)| (o.clone(), *r))
            .expect("options are not empty");
        return describe(game, from, best.0, Some(best.1.moves), false, opts).map(Some);
    }
    // Too many positions to search: the planner's winning move, else the smallest
    // change (the longest game is likeliest when little is taken).
    let report = crate::plan::value(game, &big_of(pos), opts)?;
    let winning = report
        .winning_moves
        .iter()
        .filter_map(|m| crate::big::to_small(m))
        .map(|m| game.canonical(&m).unwrap_or(m))
        .find(|m| options.contains(m));
    let to = winning.unwrap_or_else(|| {
        options
            .iter()
            .max_by_key(|o| o.iter().map(|&c| c as u128).sum::<u128>())
            .expect("options are not empty")
            .clone()
    });
    describe(game, from, to, None, false, opts).map(Some)
}

fn describe(
    game: &dyn Game,
    from: Position,
    to: Position,
    remoteness: Option<u64>,
    random: bool,
    opts: &TableOptions,
) -> Result<MoveChoice> {
    let (from_big, to_big) = (big_of(&from), big_of(&to));
    let after = crate::plan::value(game, &to_big, opts)?;
    if let Some(np) = &after.nplayer {
        // The mover's rank is fixed by the class of the position moved to.
        let before = crate::plan::value(game, &from_big, opts)?;
        let rank = before
            .nplayer
            .as_ref()
            .map_or(0, |b| b.best_rank_after(np.class));
        let at = crate::plan::write_position(game, &to_big);
        let own = game
            .explain_move(&from_big, &to_big)
            .map_or(String::new(), |w| format!("; {w}"));
        let explanation = if random {
            format!("a random move to {at} (easy level)")
        } else {
            format!(
                "moves to {at} (class {}), which secures rank {rank} of {} for the mover{own}",
                np.class, np.players
            )
        };
        return Ok(MoveChoice {
            from,
            to,
            grundy: None,
            winning: rank == 1,
            remoteness: None,
            explanation,
            random,
        });
    }
    let winning = after.outcome == Outcome::P;
    let explanation = explain(game, &from_big, &to_big, winning, remoteness, random);
    Ok(MoveChoice {
        from,
        to,
        grundy: after.grundy,
        winning,
        remoteness,
        explanation,
        random,
    })
}

/// Why the move `from` → `to` was played, for people: the game's own words
/// ([`Game::explain_move`]) for a winning move when it has them.
pub fn explain(
    game: &dyn Game,
    from: &[BigUint],
    to: &[BigUint],
    winning: bool,
    remoteness: Option<u64>,
    random: bool,
) -> String {
    let at = crate::plan::write_position(game, to);
    if random {
        return format!("a random move to {at} (easy level)");
    }
    if winning {
        let own = game.explain_move(from, to);
        let base = format!("moves to {at}, a position of Grundy value 0");
        return match own {
            Some(words) => format!("{base}: {words}"),
            None => {
                format!("{base}: every move from there can be answered by a move back to value 0")
            }
        };
    }
    match remoteness {
        Some(r) => format!(
            "no winning move from {} (Grundy value 0); prolonging the game: {at} has remoteness {r}",
            crate::plan::write_position(game, from)
        ),
        None => format!(
            "no winning move found from {}; takes as little as possible",
            crate::plan::write_position(game, from)
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_games::{Nim2, Take12};

    #[test]
    fn remoteness_of_two_heap_nim() {
        // (n, n) is P; the loser can take one at a time: remoteness 2n.
        let (r, _) = remoteness(&Nim2, &[3, 3]).unwrap().unwrap();
        assert_eq!(
            r,
            Remoteness {
                outcome: Outcome::P,
                moves: 6
            }
        );
        // (5, 2): win by equalising to (2,2) of remoteness 4, in 5 moves.
        let (r, _) = remoteness(&Nim2, &[5, 2]).unwrap().unwrap();
        assert_eq!(
            r,
            Remoteness {
                outcome: Outcome::N,
                moves: 5
            }
        );
    }

    #[test]
    fn perfect_play_wins_and_delays() {
        let o = TableOptions::default();
        let m = computer_move(&Nim2, &[5, 2], Level::Perfect, &o)
            .unwrap()
            .unwrap();
        assert_eq!(m.to, vec![2, 2]);
        assert!(m.winning && m.explanation.contains("Grundy value 0"));
        // From (3,3) every move loses; the longest defence takes one stone.
        let m = computer_move(&Nim2, &[3, 3], Level::Perfect, &o)
            .unwrap()
            .unwrap();
        assert!(m.to == vec![2, 3] || m.to == vec![3, 2], "{:?}", m.to);
        assert!(!m.winning && m.remoteness == Some(5));
        assert!(computer_move(&Nim2, &[0, 0], Level::Perfect, &o)
            .unwrap()
            .is_none());
    }

    #[test]
    fn easy_play_is_legal_and_reproducible() {
        let o = TableOptions::default();
        for seed in 0..20 {
            let a = computer_move(&Nim2, &[6, 4], Level::Easy { seed }, &o)
                .unwrap()
                .unwrap();
            let b = computer_move(&Nim2, &[6, 4], Level::Easy { seed }, &o)
                .unwrap()
                .unwrap();
            assert_eq!(a, b);
            assert!(find_move(&Nim2, &[6, 4], &a.to).is_some());
        }
    }

    #[test]
    fn big_searches_fall_back_to_the_planner() {
        let o = TableOptions::default();
        let m = computer_move_within(&Take12, &[10_000], Level::Perfect, &o, 1000)
            .unwrap()
            .unwrap();
        assert_eq!((m.to, m.remoteness, m.winning), (vec![9_999], None, true));
        let m = computer_move_within(&Take12, &[9_999], Level::Perfect, &o, 1000)
            .unwrap()
            .unwrap();
        assert_eq!((m.to, m.winning), (vec![9_998], false));
    }
}
