//! Impartial games played by *n* players (Kano, "Nim played by n players").
//!
//! Players move in turn, cyclically; the game ends when the player to move has no
//! move. Let X₁ be the player who made the last move, X₂ the one who moved just
//! before, and so on cyclically. A [`Ranking`] (a permutation σ of 1..n) ranks the
//! players: 1st is X_σ(1), 2nd X_σ(2), …. The *normal type* is σ = identity (the last
//! mover is first); the *l-retreat type* ranks X_l first, X_{l+1} second, ….
//!
//! Every player moves to get the best rank it can. Since a play's ranking depends only
//! on who made the last move, the value of a position is its **class**: the number of
//! moves still to be played under such play, modulo n (a terminal position has class
//! 0). The player to move prefers the option whose class c gives it the best rank
//! σ⁻¹(c + 1), and the position's class is that c + 1 (mod n). From the class follow
//! every player's rank ([`Ranking::ranks`]).
//!
//! This module computes classes for any [`Game`] by that recursion — iterative and
//! memoized ([`ClassSolver`]), over boxes ([`class_table`]) — and answers queries
//! through [`report`], which prefers a game's closed form ([`NPlayerClosedForm`], e.g.
//! Theorems A and B for Nim) and falls back on the recursion.
//!
//! ```
//! use nimlab_engine::nplayer::{ClassSolver, Ranking};
//! use nimlab_engine::{Coord, Game};
//! struct Heap; // one heap, take any positive number
//! impl Game for Heap {
//!     fn spec(&self) -> String { "heap".into() }
//!     fn dimension(&self) -> usize { 1 }
//!     fn for_each_option(&self, p: &[Coord], visit: &mut dyn FnMut(&[Coord])) {
//!         for u in 0..p[0] { visit(&[u]); }
//!     }
//! }
//! // Three players: whoever faces a non-empty heap takes it all and ranks first.
//! let three = Ranking::normal(3).unwrap();
//! let mut s = ClassSolver::new(&Heap, &three);
//! assert_eq!(s.class(&[5]).unwrap(), 1);
//! assert_eq!(three.ranks(1), vec![1, 3, 2]);
//! ```

use crate::big::{abbreviate, to_small, BigPosition, BigUint};
use crate::capability::Decomposition;
use crate::error::{Error, Result};
use crate::game::{format_position, Coord, Game, Position};
use crate::memory::MemoryLimit;
use crate::plan::{Method, PositionReport, MAX_LISTED_OPTIONS};
use crate::table::{
    box_index, cell_count, check_box_dimension, check_work, describe_box, options_bound,
    GrundyTable, TableOptions, INVALID,
};
use rustc_hash::{FxHashMap, FxHashSet};

/// Option visits up to which a class table is computed by the recursion even when a
/// closed form exists (about a second of work).
pub const RECURSION_PREFERRED: u128 = 500_000_000;

/// Most players a ranking may have (classes are stored in a byte).
pub const MAX_PLAYERS: usize = 64;

/// Which special ranking a [`Ranking`] is (for names and closed forms).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RankingKind {
    /// 1st X₁, 2nd X₂, …: the last mover wins.
    Normal,
    /// The l-retreat normal type (2 ≤ l ≤ n): 1st X_l, 2nd X_{l+1}, … (indices mod n).
    Retreat(usize),
    /// Any other permutation.
    Permutation,
}

/// How the players are ranked at the end of a play: a permutation σ of 1..n, the r-th
/// place going to X_σ(r) (X₁ made the last move, X₂ the move before, …).
///
/// ```
/// use nimlab_engine::nplayer::{Ranking, RankingKind};
/// let r = Ranking::permutation(vec![2, 3, 1]).unwrap();
/// assert_eq!(r.kind(), RankingKind::Retreat(2)); // a rotation is a retreat type
/// assert_eq!(r.spec(), "retreat(2)");
/// assert!(Ranking::permutation(vec![1, 1, 2]).is_err());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ranking {
    /// sigma[r − 1] = i: rank r goes to X_i.
    sigma: Vec<usize>,
    /// preference[c] = the rank the mover gets by moving to an option of class c.
    preference: Vec<u8>,
    kind: RankingKind,
}

impl Ranking {
    /// The normal type for `n` players (n = 2: ordinary normal play).
    pub fn normal(n: usize) -> Result<Self> {
        check_players(n)?;
        Self::permutation((1..=n).collect())
    }

    /// The l-retreat normal type for `n` players, 1 ≤ l ≤ n (l = 1 is the normal type;
    /// n = 2, l = 2 is misère play).
    pub fn retreat(n: usize, l: usize) -> Result<Self> {
        check_players(n)?;
        if l == 0 || l > n {
            return Err(Error::input(format!(
                "retreat(l) needs 1 ≤ l ≤ n = {n}, got l = {l}"
            )));
        }
        Self::permutation((0..n).map(|r| (l - 1 + r) % n + 1).collect())
    }

    /// The σ-game of the permutation `sigma` = (σ(1), …, σ(n)) of 1..n.
    pub fn permutation(sigma: Vec<usize>) -> Result<Self> {
        let n = sigma.len();
        check_players(n)?;
        let mut seen = vec![false; n];
        for &i in &sigma {
            if i == 0 || i > n || seen[i - 1] {
                return Err(Error::input(format!(
                    "perm(…) must list each of 1..{n} once, got ({})",
                    sigma
                        .iter()
                        .map(|i| i.to_string())
                        .collect::<Vec<_>>()
                        .join(",")
                )));
            }
            seen[i - 1] = true;
        }
        let mut inverse = vec![0usize; n];
        for (r, &i) in sigma.iter().enumerate() {
            inverse[i - 1] = r + 1;
        }
        // Moving to class c makes the mover X_{c+1} (c moves follow the mover's).
        let preference = (0..n).map(|c| inverse[c] as u8).collect();
        let shift = sigma[0] - 1;
        let kind = if sigma
            .iter()
            .enumerate()
            .all(|(r, &i)| i == (shift + r) % n + 1)
        {
            if shift == 0 {
                RankingKind::Normal
            } else {
                RankingKind::Retreat(shift + 1)
            }
        } else {
            RankingKind::Permutation
        };
        Ok(Ranking {
            sigma,
            preference,
            kind,
        })
    }

    /// Parses `normal`, `retreat(l)` or `perm(s1,…,sn)` for `n` players.
    ///
    /// ```
    /// use nimlab_engine::nplayer::Ranking;
    /// assert_eq!(Ranking::parse(3, "retreat(3)").unwrap().spec(), "retreat(3)");
    /// assert_eq!(Ranking::parse(3, "perm(1,3,2)").unwrap().spec(), "perm(1,3,2)");
    /// assert!(Ranking::parse(3, "perm(1,2)").is_err());
    /// ```
    pub fn parse(n: usize, text: &str) -> Result<Self> {
        let t: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        let args = |name: &str| -> Option<String> {
            t.strip_prefix(name)
                .and_then(|s| s.strip_prefix('('))
                .and_then(|s| s.strip_suffix(')'))
                .map(str::to_string)
        };
        let number = |s: &str| -> Result<usize> {
            s.parse::<usize>().map_err(|_| {
                Error::input(format!(
                    "ranking '{}': '{}' is not a natural number",
                    abbreviate(text),
                    abbreviate(s)
                ))
            })
        };
        if t == "normal" {
            return Self::normal(n);
        }
        if let Some(l) = args("retreat") {
            return Self::retreat(n, number(&l)?);
        }
        if let Some(list) = args("perm") {
            let sigma = list
                .split(',')
                .map(number)
                .collect::<Result<Vec<usize>>>()?;
            if sigma.len() != n {
                return Err(Error::input(format!(
                    "perm(…) must list {n} numbers (one per player), got {}",
                    sigma.len()
                )));
            }
            return Self::permutation(sigma);
        }
        Err(Error::input(format!(
            "unknown ranking '{}' (expected normal, retreat(l) or perm(…))",
            abbreviate(text)
        )))
    }

    /// Number of players.
    pub fn players(&self) -> usize {
        self.sigma.len()
    }

    /// Normal, retreat or another permutation.
    pub fn kind(&self) -> RankingKind {
        self.kind
    }

    /// σ(1), …, σ(n).
    pub fn sigma(&self) -> &[usize] {
        &self.sigma
    }

    /// `normal`, `retreat(l)` or `perm(…)`; [`Ranking::parse`] reads it back.
    pub fn spec(&self) -> String {
        match self.kind {
            RankingKind::Normal => "normal".into(),
            RankingKind::Retreat(l) => format!("retreat({l})"),
            RankingKind::Permutation => format!(
                "perm({})",
                self.sigma
                    .iter()
                    .map(|i| i.to_string())
                    .collect::<Vec<_>>()
                    .join(",")
            ),
        }
    }

    /// The rank the player to move gets by moving to an option of class `c`.
    #[inline]
    pub fn mover_rank_after(&self, c: u32) -> usize {
        self.preference[c as usize] as usize
    }

    /// The class of a position whose best option has class `c`.
    #[inline]
    pub fn class_after(&self, c: u32) -> u32 {
        (c + 1) % self.players() as u32
    }

    /// Every player's rank at a position of class `class`: element t is the rank of
    /// the t-th player to move from here (t = 0: the player to move).
    ///
    /// ```
    /// use nimlab_engine::nplayer::Ranking;
    /// let r = Ranking::normal(3).unwrap();
    /// assert_eq!(r.ranks(0), vec![3, 2, 1]); // class 0: the mover is last
    /// assert_eq!(r.ranks(2), vec![2, 1, 3]);
    /// ```
    pub fn ranks(&self, class: u32) -> Vec<usize> {
        let n = self.players();
        let mut inverse = vec![0usize; n];
        for (r, &i) in self.sigma.iter().enumerate() {
            inverse[i - 1] = r + 1;
        }
        (0..n)
            .map(|t| {
                // With k moves left, the t-th player makes the last move iff k ≡ t + 1,
                // so it is X_i with i ≡ k − t (mod n).
                let i = (class as usize + 2 * n - t - 1) % n + 1;
                inverse[i - 1]
            })
            .collect()
    }
}

fn check_players(n: usize) -> Result<()> {
    if !(2..=MAX_PLAYERS).contains(&n) {
        return Err(Error::input(format!(
            "the number of players n must be between 2 and {MAX_PLAYERS}, got {n}"
        )));
    }
    Ok(())
}

/// A game's own answer about n-player classes of big positions (e.g. Theorems A and B
/// for Nim).
pub trait NPlayerClosedForm: Send + Sync {
    /// Class and best moves of `pos` under `ranking`; `None` when the closed form does
    /// not cover this ranking (the recursion then answers small positions).
    fn classify_big(&self, pos: &[BigUint], ranking: &Ranking) -> Option<Result<BigClass>>;

    /// The class of a machine-size position, fast (tables); `None` as above.
    fn class_small(&self, pos: &[Coord], ranking: &Ranking) -> Option<u32>;

    /// Why the move `from` → `to` is good, in the closed form's own terms (for play).
    fn explain_move(
        &self,
        _from: &[BigUint],
        _to: &[BigUint],
        _ranking: &Ranking,
    ) -> Option<String> {
        None
    }
}

/// What a closed form says about a position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BigClass {
    /// The class: moves still to be played, mod n.
    pub class: u32,
    /// Best moves for the player to move (some of them).
    pub best_moves: Vec<BigPosition>,
    /// Whether `best_moves` lists them all.
    pub all_best_moves: bool,
    /// The theorem used, for people.
    pub method: String,
}

/// The n-player rules a game is played under: the ranking and, when the underlying
/// game has one, its closed form ([`crate::capability::Capabilities::nplayer`]).
#[derive(Clone, Copy)]
pub struct NPlayerRules<'a> {
    /// How players are ranked.
    pub ranking: &'a Ranking,
    /// The underlying game's closed form for classes, if any.
    pub closed_form: Option<&'a dyn NPlayerClosedForm>,
    /// Positions are multisets of heaps of one game (their order does not matter).
    pub heaps: bool,
}

/// Whether positions of `game` are multisets of heaps (a heap game, or one played by n
/// players).
fn is_heaps(game: &dyn Game) -> bool {
    let caps = game.capabilities();
    matches!(caps.decomposition, Some(Decomposition::Heaps))
        || caps.nplayer.is_some_and(|r| r.heaps)
}

/// The n-player answer about one position (part of a [`PositionReport`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClassReport {
    /// The ranking, e.g. `normal`.
    pub ranking: String,
    /// Number of players.
    pub players: usize,
    /// The class (moves still to be played, mod n).
    pub class: u32,
    /// ranks[t]: the rank of the t-th player to move (t = 0: the player to move).
    pub ranks: Vec<usize>,
    /// Moves that get the player to move its rank (every move ties from a class where
    /// all options are alike).
    pub best_moves: Vec<BigPosition>,
    /// Whether `best_moves` lists all of them.
    pub all_best_moves: bool,
    /// Every option with its class ([`crate::plan::moves`]), when listed.
    pub options: Option<Vec<(BigPosition, u32)>>,
    /// rank_after[c]: the rank the player to move gets by moving to class c.
    pub rank_after: Vec<usize>,
}

impl ClassReport {
    /// The rank the player to move gets by moving to an option of class `c`.
    pub fn best_rank_after(&self, c: u32) -> usize {
        self.rank_after[c as usize]
    }
}

/// Memoizing evaluator of n-player classes for one game and ranking. Iterative: the
/// reachable positions are discovered with an explicit stack and evaluated in
/// increasing [`Game::rank`].
pub struct ClassSolver<'g> {
    game: &'g dyn Game,
    ranking: &'g Ranking,
    memo: FxHashMap<Position, u8>,
    limit: MemoryLimit,
    force: bool,
    /// Heaps of one game: positions are multisets, memoized sorted.
    heaps: bool,
    /// Where discovery and evaluation report (and a cancelled query stops).
    progress: &'g dyn crate::progress::Progress,
}

impl<'g> ClassSolver<'g> {
    /// A solver with the default memory limit and no work bound.
    pub fn new(game: &'g dyn Game, ranking: &'g Ranking) -> Self {
        ClassSolver {
            game,
            ranking,
            memo: FxHashMap::default(),
            limit: MemoryLimit::default(),
            force: true,
            heaps: is_heaps(game),
            progress: &crate::progress::NoProgress,
        }
    }

    /// A solver bounded by `opts` (memory limit; work estimate unless `opts.force`).
    pub fn with_options(game: &'g dyn Game, ranking: &'g Ranking, opts: &TableOptions<'g>) -> Self {
        ClassSolver {
            limit: opts.memory_limit,
            force: opts.force,
            progress: opts.progress,
            ..Self::new(game, ranking)
        }
    }

    fn key(&self, p: &[Coord]) -> Position {
        let mut k = p.to_vec();
        if self.heaps {
            k.sort_unstable();
        }
        k
    }

    /// The class of `pos` (a legal position).
    pub fn class(&mut self, pos: &[Coord]) -> Result<u32> {
        let root = self.key(pos);
        if let Some(&c) = self.memo.get(&root) {
            return Ok(c as u32);
        }
        if !self.force && self.game.is_downward_closed() {
            let positions = pos
                .iter()
                .fold(1u128, |acc, &c| acc.saturating_mul(c as u128 + 1));
            check_work(
                &format!(
                    "the n-player recursion on {} at {}",
                    self.game.spec(),
                    format_position(pos)
                ),
                positions,
                options_bound(self.game, pos),
                self.force,
            )?;
        }
        let order = self.discover(&root)?;
        self.progress
            .start(order.len() as u64, "positions evaluated");
        for (i, p) in order.into_iter().enumerate() {
            let c = self.evaluate(&p);
            self.memo.insert(p, c as u8);
            if i % 4096 == 4095 {
                self.progress.advance(4096);
            }
        }
        self.progress.finish();
        Ok(self.memo[&root] as u32)
    }

    /// Best option class by the ranking, over options already memoized.
    fn evaluate(&self, p: &[Coord]) -> u32 {
        let mut best: Option<u32> = None;
        let mut best_rank = usize::MAX;
        self.game.for_each_option(p, &mut |o| {
            if best_rank == 1 {
                return;
            }
            let c = self.memo[&self.key(o)] as u32;
            let r = self.ranking.mover_rank_after(c);
            if r < best_rank {
                best_rank = r;
                best = Some(c);
            }
        });
        best.map_or(0, |c| self.ranking.class_after(c))
    }

    fn discover(&self, root: &[Coord]) -> Result<Vec<Position>> {
        let game = self.game;
        crate::solver::reachable_in_rank_order(
            game,
            root,
            crate::solver::DiscoveryBudget {
                limit: self.limit,
                already_held: self.memo.len(),
                progress: self.progress,
                describe: &|n| {
                    format!(
                        "n-player classes of {} at {} ({n}+ positions)",
                        game.spec(),
                        format_position(root)
                    )
                },
            },
            &|k| self.memo.contains_key(k),
            &mut |o, push| push(&self.key(o)),
        )
    }
}

/// The class of every position of `game` in the box `dims` under `ranking`, by the
/// recursion ([`INVALID`] where a cell is not a position). Downward-closed games are
/// filled in index order; others in increasing rank, options outside the box by a
/// [`ClassSolver`]. Memory and work are estimated and refused past `opts`.
///
/// ```
/// use nimlab_engine::nplayer::{class_table, Ranking};
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
/// let two = Ranking::normal(2).unwrap();
/// let t = class_table(&Nim2, &two, &[8, 8], &TableOptions::default()).unwrap();
/// assert_eq!(t.get(&[5, 5]), Some(0)); // two players: class 0 = P-position
/// assert_eq!(t.get(&[5, 3]), Some(1));
/// ```
pub fn class_table(
    game: &dyn Game,
    ranking: &Ranking,
    dims: &[usize],
    opts: &TableOptions,
) -> Result<GrundyTable> {
    check_box_dimension(game, dims)?;
    let downward = game.is_downward_closed();
    let cells = cell_count(dims)?;
    let what = format!("n-player {} for {}", describe_box(dims), game.spec());
    let per_cell = if downward { 4 } else { 4 + 24 };
    opts.memory_limit.check(
        &what,
        cells
            .checked_mul(per_cell)
            .ok_or_else(|| Error::input("table box is too large"))?,
    )?;
    let corner: Position = dims.iter().map(|&d| d.saturating_sub(1) as Coord).collect();
    check_work(
        &format!("the {what}"),
        cells as u128,
        options_bound(game, &corner),
        opts.force,
    )?;
    let cells = cells as usize;
    const UNFILLED: u32 = INVALID - 1;
    let mut values = vec![UNFILLED; cells];
    // The table reports in cells; the solver for options outside the box stays quiet
    // (its own counts would reset the table's bar).
    let mut outside = ClassSolver {
        progress: &crate::progress::NoProgress,
        ..ClassSolver::with_options(game, ranking, opts)
    };
    let fill = |i: usize, pos: &mut Position| {
        let mut index = i;
        for (c, &d) in pos.iter_mut().zip(dims) {
            *c = (index % d) as Coord;
            index /= d;
        }
    };
    let mut pos: Position = vec![0; dims.len()];
    let order: Option<Vec<usize>> = (!downward).then(|| {
        let mut idx: Vec<(u128, usize)> = (0..cells)
            .map(|i| {
                fill(i, &mut pos);
                (game.rank(&pos), i)
            })
            .collect();
        idx.sort_unstable();
        idx.into_iter().map(|(_, i)| i).collect()
    });
    let step = (cells / 1000).max(1);
    opts.progress.start(cells as u64, "cells");
    for k in 0..cells {
        let i = order.as_ref().map_or(k, |o| o[k]);
        fill(i, &mut pos);
        if game.position_error(&pos).is_some() {
            values[i] = INVALID;
            continue;
        }
        let mut best: Option<u32> = None;
        let mut best_rank = usize::MAX;
        let mut failure: Option<Error> = None;
        game.for_each_option(&pos, &mut |o| {
            if failure.is_some() || best_rank == 1 {
                return;
            }
            let c = match box_index(dims, o) {
                Some(j) if values[j] < UNFILLED => values[j],
                Some(_) => {
                    failure = Some(Error::Contract(format!(
                        "{} moves from {} to {}, which is not a position of lower rank",
                        game.spec(),
                        format_position(&pos),
                        format_position(o)
                    )));
                    return;
                }
                None => match outside.class(o) {
                    Ok(c) => c,
                    Err(e) => {
                        failure = Some(e);
                        return;
                    }
                },
            };
            let r = ranking.mover_rank_after(c);
            if r < best_rank {
                best_rank = r;
                best = Some(c);
            }
        });
        if let Some(e) = failure {
            return Err(e);
        }
        values[i] = best.map_or(0, |c| ranking.class_after(c));
        if k % step == step - 1 {
            opts.progress.advance(step as u64);
        }
    }
    opts.progress.finish();
    GrundyTable::from_parts(dims.to_vec(), values)
}

/// The class table of an n-player game (a game with
/// [`crate::capability::Capabilities::nplayer`]) by the best method: the recursion
/// over the box while its work is small ([`RECURSION_PREFERRED`]), else the closed
/// form cell by cell when the game has one for its ranking (and `closed_forms` allows
/// it), else the recursion. `None` for games that are not n-player games.
pub fn table(
    game: &dyn Game,
    dims: &[usize],
    opts: &TableOptions,
    closed_forms: bool,
) -> Result<Option<crate::plan::TableReport>> {
    let Some(rules) = game.capabilities().nplayer else {
        return Ok(None);
    };
    check_box_dimension(game, dims)?;
    let ranking = rules.ranking;
    let origin = vec![0; dims.len()];
    // The recursion over a box is faster than the closed form cell by cell while the
    // options are few; past that, the closed form's cost does not grow with them.
    let corner: Position = dims.iter().map(|&d| d.saturating_sub(1) as Coord).collect();
    let recursion_work = (cell_count(dims)? as u128).saturating_mul(options_bound(game, &corner));
    if let Some(cf) = rules.closed_form.filter(|cf| {
        closed_forms
            && recursion_work > RECURSION_PREFERRED
            && cf.class_small(&origin, ranking).is_some()
    }) {
        let cells = cell_count(dims)?;
        opts.memory_limit.check(
            &format!("n-player {} for {}", describe_box(dims), game.spec()),
            cells.saturating_mul(4),
        )?;
        let cells = cells as usize;
        let mut values = Vec::with_capacity(cells);
        let mut pos: Position = vec![0; dims.len()];
        opts.progress.start(cells as u64, "cells");
        for i in 0..cells {
            let v = if game.position_error(&pos).is_some() {
                INVALID
            } else {
                cf.class_small(&pos, ranking).unwrap_or(INVALID)
            };
            values.push(v);
            for (c, &d) in pos.iter_mut().zip(dims) {
                *c += 1;
                if *c < d as Coord {
                    break;
                }
                *c = 0;
            }
            if i % 65536 == 65535 {
                opts.progress.advance(65536);
            }
        }
        opts.progress.finish();
        return Ok(Some(crate::plan::TableReport {
            table: GrundyTable::from_parts(dims.to_vec(), values)?,
            method: Method {
                id: "closed-form",
                detail: format!(
                    "n-player classes ({} players, {}) by the game's closed form, cell by cell",
                    ranking.players(),
                    ranking.spec()
                ),
            },
        }));
    }
    Ok(Some(crate::plan::TableReport {
        table: class_table(game, ranking, dims, opts)?,
        method: Method {
            id: "brute-force",
            detail: format!(
                "n-player class recursion ({} players, {}), cell by cell",
                ranking.players(),
                ranking.spec()
            ),
        },
    }))
}

fn big_of(p: &[Coord]) -> BigPosition {
    p.iter().map(|&c| BigUint::from(c)).collect()
}

fn position_text(pos: &[BigUint]) -> String {
    crate::plan::position_text(pos)
}

/// The answer about one position of an n-player game: `None` for games that are not
/// n-player games. Prefers the closed form (any size), else the recursion (small
/// positions). `with_options` also lists every option with its class.
pub fn report(
    game: &dyn Game,
    pos: &[BigUint],
    opts: &TableOptions,
    with_options: bool,
) -> Result<Option<PositionReport>> {
    let Some(rules) = game.capabilities().nplayer else {
        return Ok(None);
    };
    if !game.accepts_dimension(pos.len()) {
        return Err(Error::input(format!(
            "position {} has {} coordinate{} but {} needs {}",
            position_text(pos),
            pos.len(),
            if pos.len() == 1 { "" } else { "s" },
            game.spec(),
            game.dimension()
        )));
    }
    let small = to_small(pos);
    if let Some(p) = &small {
        game.check_position(p)?;
    }
    let ranking = rules.ranking;
    let heaps = is_heaps(game);
    let closed = rules
        .closed_form
        .and_then(|cf| cf.classify_big(pos, ranking).map(|r| (cf, r)));
    let (class, mut best, mut all_best, method, listed) = match (closed, &small) {
        (Some((cf, found)), _) => {
            let found = found?;
            let method = Method {
                id: "closed-form",
                detail: found.method.clone(),
            };
            // Small positions: every option's class from the closed form as well.
            let listed = match &small {
                Some(p) => small_options(game, p, heaps)
                    .ok()
                    .map(|list| {
                        list.into_iter()
                            .map(|o| cf.class_small(&o, ranking).map(|c| (o, c)))
                            .collect::<Option<Vec<_>>>()
                    })
                    .unwrap_or(None),
                None => None,
            };
            (
                found.class,
                found.best_moves,
                found.all_best_moves,
                method,
                listed,
            )
        }
        (None, Some(p)) => {
            let mut solver = ClassSolver::with_options(game, ranking, opts);
            let class = solver.class(p)?;
            let listed = match small_options(game, p, heaps) {
                Ok(list) => {
                    let mut out = Vec::with_capacity(list.len());
                    for o in list {
                        let c = solver.class(&o)?;
                        out.push((o, c));
                    }
                    Some(out)
                }
                Err(_) => None,
            };
            (
                class,
                Vec::new(),
                false,
                Method {
                    id: "brute-force",
                    detail: format!(
                        "n-player class recursion ({} players, {}): memoized over every reachable position",
                        ranking.players(),
                        ranking.spec()
                    ),
                },
                listed,
            )
        }
        (None, None) => {
            return Err(Error::input(format!(
                "position {} is too big for the n-player recursion and {} has no closed form for \
                 the {} ranking",
                position_text(pos),
                game.spec(),
                ranking.spec()
            )))
        }
    };
    if let Some(list) = &listed {
        let best_rank = list.iter().map(|(_, c)| ranking.mover_rank_after(*c)).min();
        best = list
            .iter()
            .filter(|(_, c)| Some(ranking.mover_rank_after(*c)) == best_rank)
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
    let options_note = (with_options && options.is_none())
        .then(|| "not listed: too many options or too big a position".to_string());
    Ok(Some(PositionReport {
        position: pos.to_vec(),
        grundy: None,
        // Two-player language where it fits: the player to move "loses" iff it ranks last.
        outcome: if ranks[0] == n {
            crate::game::Outcome::P
        } else {
            crate::game::Outcome::N
        },
        winning_moves: best.clone(),
        all_winning_moves: all_best,
        options: None,
        options_note,
        method,
        nplayer: Some(ClassReport {
            ranking: ranking.spec(),
            players: n,
            class,
            ranks,
            best_moves: best,
            all_best_moves: all_best,
            options,
            rank_after: (0..n as u32).map(|c| ranking.mover_rank_after(c)).collect(),
        }),
    }))
}

/// The distinct options of a small position, if few enough to list.
fn small_options(
    game: &dyn Game,
    p: &[Coord],
    heaps: bool,
) -> std::result::Result<Vec<Position>, ()> {
    let bound = options_bound(game, p);
    if bound > MAX_LISTED_OPTIONS * 4 {
        return Err(());
    }
    let mut seen = FxHashSet::default();
    let mut list = Vec::new();
    game.for_each_option(p, &mut |o| {
        let mut o = o.to_vec();
        if heaps {
            crate::capability::canonical_heaps(&mut o);
        }
        if (list.len() as u128) < MAX_LISTED_OPTIONS && seen.insert(o.clone()) {
            list.push(o);
        }
    });
    if list.len() as u128 >= MAX_LISTED_OPTIONS {
        return Err(());
    }
    Ok(list)
}

/// `G` played by n players under a ranking: positions and moves are `G`'s; values are
/// classes ([`report`], [`table`]), not Grundy values. When `G` has a closed form for
/// n-player classes ([`crate::capability::Capabilities::nplayer_closed_form`]), it
/// carries over.
///
/// ```
/// use nimlab_engine::nplayer::{NPlayerGame, Ranking};
/// use nimlab_engine::{Coord, Game};
/// struct Heap;
/// impl Game for Heap {
///     fn spec(&self) -> String { "heap".into() }
///     fn dimension(&self) -> usize { 1 }
///     fn for_each_option(&self, p: &[Coord], visit: &mut dyn FnMut(&[Coord])) {
///         for u in 0..p[0] { visit(&[u]); }
///     }
/// }
/// let g = NPlayerGame::new(Box::new(Heap), Ranking::retreat(3, 2).unwrap());
/// assert_eq!(g.spec(), "nplayer(heap,n=3,ranking=retreat(2))");
/// ```
pub struct NPlayerGame {
    inner: Box<dyn Game>,
    ranking: Ranking,
    name: Option<String>,
}

impl NPlayerGame {
    /// `inner` played by `ranking.players()` players.
    pub fn new(inner: Box<dyn Game>, ranking: Ranking) -> Self {
        NPlayerGame {
            inner,
            ranking,
            name: None,
        }
    }

    /// The same game under a shorthand spec (e.g. `nplayer-nim(n=3)`), which must
    /// parse back to it.
    pub fn with_spec(mut self, spec: impl Into<String>) -> Self {
        self.name = Some(spec.into());
        self
    }

    /// The ranking.
    pub fn ranking(&self) -> &Ranking {
        &self.ranking
    }

    /// The game being played.
    pub fn inner(&self) -> &dyn Game {
        &*self.inner
    }
}

impl Game for NPlayerGame {
    fn spec(&self) -> String {
        if let Some(s) = &self.name {
            return s.clone();
        }
        let ranking = match self.ranking.kind() {
            RankingKind::Normal => String::new(),
            _ => format!(",ranking={}", self.ranking.spec()),
        };
        format!(
            "nplayer({},n={}{ranking})",
            self.inner.spec(),
            self.ranking.players()
        )
    }
    fn dimension(&self) -> usize {
        self.inner.dimension()
    }
    fn accepts_dimension(&self, m: usize) -> bool {
        self.inner.accepts_dimension(m)
    }
    fn for_each_option(&self, pos: &[Coord], visit: &mut dyn FnMut(&[Coord])) {
        self.inner.for_each_option(pos, visit)
    }
    fn position_error(&self, pos: &[Coord]) -> Option<String> {
        self.inner.position_error(pos)
    }
    fn rank(&self, pos: &[Coord]) -> u128 {
        self.inner.rank(pos)
    }
    fn is_downward_closed(&self) -> bool {
        self.inner.is_downward_closed()
    }
    fn coordinate_names(&self) -> Vec<String> {
        self.inner.coordinate_names()
    }
    fn table_box(&self, size: usize) -> Vec<usize> {
        self.inner.table_box(size)
    }
    fn max_options(&self, pos: &[Coord]) -> Option<u128> {
        self.inner.max_options(pos)
    }
    fn keeps_dimension(&self) -> bool {
        self.inner.keeps_dimension()
    }
    fn capabilities(&self) -> crate::capability::Capabilities<'_> {
        // Classes do not decompose into parts and have no Grundy value: only the
        // n-player rules, with the inner game's closed form for them.
        let inner = self.inner.capabilities();
        crate::capability::Capabilities {
            nplayer: Some(NPlayerRules {
                ranking: &self.ranking,
                closed_form: inner.nplayer_closed_form,
                heaps: matches!(inner.decomposition, Some(Decomposition::Heaps)),
            }),
            ..crate::capability::Capabilities::none()
        }
    }
    fn explain_move(&self, from: &[BigUint], to: &[BigUint]) -> Option<String> {
        self.inner
            .capabilities()
            .nplayer_closed_form?
            .explain_move(from, to, &self.ranking)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One heap, take one or two.
    struct Take12;
    impl Game for Take12 {
        fn spec(&self) -> String {
            "take12".into()
        }
        fn dimension(&self) -> usize {
            1
        }
        fn for_each_option(&self, p: &[Coord], visit: &mut dyn FnMut(&[Coord])) {
            for t in 1..=2 {
                if p[0] >= t {
                    visit(&[p[0] - t]);
                }
            }
        }
    }

    #[test]
    fn rankings_agree_with_their_definitions() {
        let r = Ranking::retreat(4, 3).unwrap();
        assert_eq!(r.sigma(), &[3, 4, 1, 2]);
        assert_eq!(r.kind(), RankingKind::Retreat(3));
        assert_eq!(Ranking::retreat(4, 1).unwrap().kind(), RankingKind::Normal);
        assert!(Ranking::retreat(3, 4).is_err());
        assert!(Ranking::normal(1).is_err());
        // Every player's rank is a permutation of 1..n.
        for n in 2..6 {
            let r = Ranking::normal(n).unwrap();
            for c in 0..n as u32 {
                let mut ranks = r.ranks(c);
                assert_eq!(ranks[0], if c == 0 { n } else { c as usize });
                ranks.sort();
                assert_eq!(ranks, (1..=n).collect::<Vec<_>>());
            }
        }
    }

    #[test]
    fn a_chain_counts_moves_mod_n() {
        // One heap, take exactly one: n moves of forced play.
        struct Chain;
        impl Game for Chain {
            fn spec(&self) -> String {
                "chain".into()
            }
            fn dimension(&self) -> usize {
                1
            }
            fn for_each_option(&self, p: &[Coord], visit: &mut dyn FnMut(&[Coord])) {
                if p[0] > 0 {
                    visit(&[p[0] - 1]);
                }
            }
        }
        let r = Ranking::permutation(vec![2, 1, 3, 4]).unwrap();
        let mut s = ClassSolver::new(&Chain, &r);
        assert_eq!(s.class(&[1_000_003]).unwrap(), 3);
        assert_eq!(s.class(&[10]).unwrap(), 2);
    }

    #[test]
    fn two_players_normal_and_retreat_are_normal_and_misere_play() {
        let normal = Ranking::normal(2).unwrap();
        let misere = Ranking::retreat(2, 2).unwrap();
        let mut a = ClassSolver::new(&Take12, &normal);
        let mut b = ClassSolver::new(&Take12, &misere);
        for h in 0..40u64 {
            assert_eq!(a.class(&[h]).unwrap() == 0, h % 3 == 0);
            // Misère: the mover ranks last (class 1) iff h ≡ 1 (mod 3).
            let last = b.ranking.ranks(b.class(&[h]).unwrap())[0] == 2;
            assert_eq!(last, h % 3 == 1, "heap {h}");
        }
    }

    #[test]
    fn tables_agree_with_the_solver() {
        let r = Ranking::permutation(vec![3, 1, 2]).unwrap();
        let t = class_table(&Take12, &r, &[50], &TableOptions::default()).unwrap();
        let mut s = ClassSolver::new(&Take12, &r);
        for h in 0..50u64 {
            assert_eq!(t.get(&[h]), Some(s.class(&[h]).unwrap()));
        }
    }

    #[test]
    fn memory_limit_is_enforced() {
        struct Chain;
        impl Game for Chain {
            fn spec(&self) -> String {
                "chain".into()
            }
            fn dimension(&self) -> usize {
                1
            }
            fn for_each_option(&self, p: &[Coord], visit: &mut dyn FnMut(&[Coord])) {
                if p[0] > 0 {
                    visit(&[p[0] - 1]);
                }
            }
        }
        let r = Ranking::normal(3).unwrap();
        let opts = TableOptions {
            memory_limit: MemoryLimit::new(1 << 20),
            ..TableOptions::default()
        };
        let mut s = ClassSolver::with_options(&Chain, &r, &opts);
        assert!(matches!(
            s.class(&[10_000_000]).unwrap_err(),
            Error::TooLarge { .. }
        ));
    }
}
