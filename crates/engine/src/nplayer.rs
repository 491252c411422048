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
//! through the planner ([`crate::plan::value`]), which prefers a game's closed form
//! ([`NPlayerClosedForm`], e.g. Theorems A and B for Nim) and falls back on the recursion.
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

use crate::big::{abbreviate, BigPosition, BigUint};
use crate::capability::Decomposition;
use crate::error::{Error, Result};
use crate::game::{Coord, Game, Position};
use crate::memory::MemoryLimit;
use crate::rule::ValueRule;
use crate::solver::Solver;
use crate::table::{
    cell_count, check_box_dimension, check_work, describe_box, estimate_table_bytes,
    generic_table_by_rule, options_bound, GrundyTable, TableOptions,
};

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

    /// [`NPlayerClosedForm::classify_big`] for a query that may be stopped: a closed
    /// form that computes at length polls `progress` and returns
    /// [`Error::Cancelled`] (the default computes as `classify_big`).
    fn classify_big_within(
        &self,
        pos: &[BigUint],
        ranking: &Ranking,
        progress: &dyn crate::Progress,
    ) -> Option<Result<BigClass>> {
        let _ = progress;
        self.classify_big(pos, ranking)
    }

    /// [`NPlayerClosedForm::class_small`] within `budget` steps of work shared by many
    /// calls (the options of a position): a closed form that computes takes the steps
    /// it spent off `budget` and answers `Ok(None)` when it is spent; it polls
    /// `progress` ([`Error::Cancelled`]). The default is `class_small`.
    fn class_small_within(
        &self,
        pos: &[Coord],
        ranking: &Ranking,
        budget: &mut u64,
        progress: &dyn crate::Progress,
    ) -> Result<Option<u32>> {
        let _ = (budget, progress);
        Ok(self.class_small(pos, ranking))
    }

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

/// The n-player answer about one position (part of a
/// [`PositionReport`](crate::plan::PositionReport)).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClassReport {
    /// The ranking, e.g. `normal`.
    pub ranking: String,
    /// Number of players.
    pub players: usize,
    /// The class (moves still to be played, mod n).
    pub class: u32,
    /// `ranks[t]`: the rank of the t-th player to move (t = 0: the player to move).
    pub ranks: Vec<usize>,
    /// Moves that get the player to move its rank (every move ties from a class where
    /// all options are alike).
    pub best_moves: Vec<BigPosition>,
    /// Whether `best_moves` lists all of them.
    pub all_best_moves: bool,
    /// Every option with its class ([`crate::plan::moves`]), when listed.
    pub options: Option<Vec<(BigPosition, u32)>>,
    /// `rank_after[c]`: the rank the player to move gets by moving to class c.
    pub rank_after: Vec<usize>,
}

impl ClassReport {
    /// The rank the player to move gets by moving to an option of class `c`.
    pub fn best_rank_after(&self, c: u32) -> usize {
        self.rank_after[c as usize]
    }
}

/// Memoizing evaluator of n-player classes for one game and ranking: the engine's
/// [`Solver`] under [`ValueRule::Classes`] (iterative; positions discovered with an
/// explicit stack and evaluated in increasing [`Game::rank`]).
pub struct ClassSolver<'g>(Solver<'g>);

impl<'g> ClassSolver<'g> {
    /// A solver with the default memory limit and no work bound.
    pub fn new(game: &'g dyn Game, ranking: &'g Ranking) -> Self {
        ClassSolver(Solver::with_rule(
            game,
            ValueRule::Classes(ranking),
            MemoryLimit::default(),
        ))
    }

    /// A solver bounded by `opts` (memory limit; work estimate unless `opts.force`).
    pub fn with_options(game: &'g dyn Game, ranking: &'g Ranking, opts: &TableOptions<'g>) -> Self {
        ClassSolver(Solver::with_rule_and_options(
            game,
            ValueRule::Classes(ranking),
            opts,
        ))
    }

    /// The class of `pos` (a legal position).
    pub fn class(&mut self, pos: &[Coord]) -> Result<u32> {
        self.0.value(pos)
    }
}

/// The class of every position of `game` in the box `dims` under `ranking`, by the
/// recursion ([`crate::INVALID`] where a cell is not a position): the engine's box walk
/// ([`crate::table::generic_table_by_rule`]) under [`ValueRule::Classes`]. Memory and
/// work are estimated and refused past `opts`.
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
    let what = format!("n-player {} for {}", describe_box(dims), game.spec());
    opts.memory_limit
        .check(&what, estimate_table_bytes(dims, downward)?)?;
    let corner: Position = dims.iter().map(|&d| d.saturating_sub(1) as Coord).collect();
    check_work(
        &format!("the {what}"),
        cell_count(dims)? as u128,
        options_bound(game, &corner),
        opts.force,
    )?;
    generic_table_by_rule(game, ValueRule::Classes(ranking), dims, downward, opts)
}

/// `G` played by n players under a ranking: positions and moves are `G`'s; values are
/// classes ([`crate::plan::value`], [`class_table`]), not Grundy values. When `G` has a
/// closed form for n-player classes
/// ([`crate::capability::Capabilities::nplayer_closed_form`]), it carries over.
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

impl crate::transform::Transform for NPlayerGame {
    fn inner(&self) -> &dyn Game {
        &*self.inner
    }
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
    use crate::test_games::{Chain, Take12};

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
            let last = misere.ranks(b.class(&[h]).unwrap())[0] == 2;
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
