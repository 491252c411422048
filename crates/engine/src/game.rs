//! The game abstraction: positions are vectors of natural numbers, a game lists the
//! options of a position.

use crate::big::{BigPosition, BigUint};
use crate::error::{Error, Result};

/// One coordinate of a position (a heap size, a row index, a flag …).
pub type Coord = u64;

/// A position: one [`Coord`] per dimension of the game.
pub type Position = Vec<Coord>;

/// An impartial, short game.
///
/// Implementors describe the *rules* only; the engine does all evaluation. The contract:
/// * positions are vectors of [`Coord`] of length [`Game::dimension`] (unless
///   [`Game::form`] allows others, as Nim does for any number of heaps);
/// * every move strictly lowers [`Game::rank`] (so every play ends); the engine checks
///   this and reports [`Error::Contract`] instead of looping;
/// * a position without options is terminal; its value is [`Game::terminal_value`]
///   (0 in normal play, 1 in misère play).
///
/// ```
/// use nimlab_engine::{Game, Coord};
/// /// Two heaps; take any number from one heap (two-heap Nim).
/// struct TwoHeapNim;
/// impl Game for TwoHeapNim {
///     fn spec(&self) -> String { "nim2".into() }
///     fn dimension(&self) -> usize { 2 }
///     fn for_each_option(&self, p: &[Coord], visit: &mut dyn FnMut(&[Coord])) {
///         for u in 0..p[0] { visit(&[u, p[1]]); }
///         for v in 0..p[1] { visit(&[p[0], v]); }
///     }
/// }
/// assert_eq!(TwoHeapNim.options(&[1, 1]), vec![vec![0, 1], vec![1, 0]]);
/// ```
pub trait Game: Send + Sync {
    /// Canonical text of the game, e.g. `ryuoh(p=3)`; parsing it gives the same game.
    fn spec(&self) -> String;

    /// Number of coordinates of a position (and of a table's box).
    fn dimension(&self) -> usize;

    /// How positions are written and stored: how many coordinates they have, whether
    /// moves keep that count, and whether people write numbers or the game's own form
    /// (a board, a set of vertices). Default: exactly [`Game::dimension`] numbers.
    ///
    /// ```
    /// use nimlab_engine::{Coord, Game, position::PositionForm};
    /// struct Heaps; // any number of heaps, as in Nim
    /// impl Game for Heaps {
    ///     fn spec(&self) -> String { "heaps".into() }
    ///     fn dimension(&self) -> usize { 1 }
    ///     fn form(&self) -> PositionForm { PositionForm::heaps(true) }
    ///     fn for_each_option(&self, p: &[Coord], visit: &mut dyn FnMut(&[Coord])) {}
    /// }
    /// assert!(Heaps.check_position(&[1, 2, 3]).is_ok());
    /// assert!(Heaps.check_position(&[]).is_err());
    /// ```
    fn form(&self) -> crate::position::PositionForm {
        crate::position::PositionForm::tuple(self.dimension())
    }

    /// Calls `visit` once for each option of `pos` (the order is free; duplicates are
    /// allowed and harmless). `pos` is a legal position.
    fn for_each_option(&self, pos: &[Coord], visit: &mut dyn FnMut(&[Coord]));

    /// `None` if `pos` is a legal position, else why not (e.g. "y must be ≤ f(z)").
    /// The dimension is checked before this is called.
    fn position_error(&self, _pos: &[Coord]) -> Option<String> {
        None
    }

    /// A measure that every move strictly lowers. Default: the sum of coordinates,
    /// right for every take-away game (docs/theory.md §3).
    fn rank(&self, pos: &[Coord]) -> u128 {
        pos.iter().map(|&c| c as u128).sum()
    }

    /// Why the move `from` → `to` is good, in the game's own terms (a theorem, a
    /// numeration system, the binary nim-sum), for people playing: `to` is a
    /// P-position and this says why. `None`: the game has no words of its own, and
    /// players are told "moves to a position of Grundy value 0" ([`crate::play`]).
    fn explain_move(&self, _from: &[BigUint], _to: &[BigUint]) -> Option<String> {
        None
    }

    /// Whether every option is ≤ its position in every coordinate. Then a table over a
    /// box can be filled in plain index order and never leaves the box.
    fn is_downward_closed(&self) -> bool {
        false
    }

    /// Value of a terminal position: 0 in normal play (default), 1 in misère play.
    fn terminal_value(&self) -> u32 {
        0
    }

    /// Names of the coordinates, for table headers and formulas.
    fn coordinate_names(&self) -> Vec<String> {
        default_coordinate_names(self.dimension())
    }

    /// The table box for `size`: how many values of each coordinate a table of this
    /// size covers. Default `[size; dimension]`; a flag coordinate would use 2.
    fn table_box(&self, size: usize) -> Vec<usize> {
        vec![size; self.dimension()]
    }

    /// What the game can do beyond listing options (closed forms, kernels,
    /// decomposition …); see [`crate::capability`]. Default: nothing, so the engine's
    /// generic methods answer.
    fn capabilities(&self) -> crate::capability::Capabilities<'_> {
        crate::capability::Capabilities::none()
    }

    /// An upper bound on the number of options of `pos`, when cheaply known (e.g. |S|
    /// for a subtraction game). `None`: unknown; the planner then bounds the options
    /// by the rank (right for take-away games, where the count is at most a few times
    /// the sum of the coordinates).
    fn max_options(&self, _pos: &[Coord]) -> Option<u128> {
        None
    }

    /// The canonical form of `pos`, if it differs from `pos`: the one representative
    /// of positions that are the same game state (for take-and-break games, the heaps
    /// as a sorted multiset without empty heaps). The solver keys its memo on it and
    /// option lists show it, so `1,1,2` and `2,1,1` are one position. Default: every
    /// position is its own canonical form (`None`).
    ///
    /// ```
    /// use nimlab_engine::{Coord, Game};
    /// struct Heaps; // take one from a heap; heaps are a multiset
    /// impl Game for Heaps {
    ///     fn spec(&self) -> String { "heaps".into() }
    ///     fn dimension(&self) -> usize { 1 }
    ///     fn form(&self) -> nimlab_engine::position::PositionForm {
    ///         nimlab_engine::position::PositionForm::heaps(false)
    ///     }
    ///     fn for_each_option(&self, p: &[Coord], visit: &mut dyn FnMut(&[Coord])) {}
    ///     fn canonical(&self, p: &[Coord]) -> Option<Vec<Coord>> {
    ///         nimlab_engine::capability::canonical_heaps_of(p)
    ///     }
    /// }
    /// assert_eq!(Heaps.canonical(&[2, 0, 1]), Some(vec![1, 2]));
    /// assert_eq!(Heaps.canonical(&[1, 2]), None);
    /// ```
    fn canonical(&self, _pos: &[Coord]) -> Option<Position> {
        None
    }

    /// A position with the same game tree as `pos` and as few coordinates as
    /// possible, if it differs from `pos`: the canonical form, less any component
    /// that has no move (a heap of one in `4.07` is the empty game, in misère play
    /// too). The solver keys its memo on it. Default: [`Game::canonical`].
    fn simplified(&self, pos: &[Coord]) -> Option<Position> {
        self.canonical(pos)
    }

    /// Reads a position written as people write it. Default: numbers separated by
    /// commas. A game whose positions are boards or vertex sets reads its own form
    /// instead (and says so in [`Game::form`]); a sum reads its parts separated by `;`.
    ///
    /// ```
    /// use nimlab_engine::{Coord, Game};
    /// struct Heap;
    /// impl Game for Heap {
    ///     fn spec(&self) -> String { "heap".into() }
    ///     fn dimension(&self) -> usize { 1 }
    ///     fn for_each_option(&self, p: &[Coord], visit: &mut dyn FnMut(&[Coord])) {}
    /// }
    /// assert_eq!(Heap.read_position("7").unwrap(), vec![7u32.into()]);
    /// assert!(Heap.read_position("7;3").is_err());
    /// ```
    fn read_position(&self, text: &str) -> Result<BigPosition> {
        crate::position::read_numbers(text, || self.spec())
    }

    /// The position as people read it (the inverse of [`Game::read_position`]).
    /// Default: its numbers.
    fn show_position(&self, pos: &[BigUint]) -> crate::position::Shown {
        crate::position::Shown::Numbers(pos.to_vec())
    }

    /// The game's starting position, when its parameters fix one (the empty board of
    /// Cram, every vertex of a Node Kayles graph); asked for with the word `start`.
    /// Default: none.
    fn start_position(&self) -> Option<BigPosition> {
        None
    }

    /// All options of `pos`, collected.
    fn options(&self, pos: &[Coord]) -> Vec<Position> {
        let mut out = Vec::new();
        self.for_each_option(pos, &mut |o| out.push(o.to_vec()));
        out
    }

    /// Checks dimension and legality of `pos`, with a message naming the problem.
    fn check_position(&self, pos: &[Coord]) -> Result<()> {
        if !self.form().accepts(pos.len()) {
            return Err(Error::input(format!(
                "position {} has {} coordinate{} but {} needs {}",
                format_position(pos),
                pos.len(),
                if pos.len() == 1 { "" } else { "s" },
                self.spec(),
                self.dimension()
            )));
        }
        match self.position_error(pos) {
            Some(why) => Err(Error::input(format!(
                "{} is not a position of {}: {why}",
                format_position(pos),
                self.spec()
            ))),
            None => Ok(()),
        }
    }
}

/// `x, y` for two coordinates, `n` for one, `x0, x1, …` otherwise.
pub fn default_coordinate_names(m: usize) -> Vec<String> {
    match m {
        1 => vec!["n".into()],
        2 => vec!["x".into(), "y".into()],
        _ => (0..m).map(|i| format!("x{i}")).collect(),
    }
}

/// Outcome class of a position in two-player play.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// The previous player (the one who just moved) wins: Grundy value 0.
    P,
    /// The next player (the one to move) wins.
    N,
}

impl Outcome {
    /// The outcome of a position with Grundy value `g`.
    pub fn of(g: u32) -> Self {
        if g == 0 {
            Outcome::P
        } else {
            Outcome::N
        }
    }

    /// `"P"` or `"N"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::P => "P",
            Outcome::N => "N",
        }
    }
}

/// Parses `3,5` (spaces allowed) into a position.
///
/// ```
/// use nimlab_engine::parse_position;
/// assert_eq!(parse_position("3, 5").unwrap(), vec![3, 5]);
/// assert!(parse_position("3,-1").is_err());
/// assert!(parse_position("3,x").is_err());
/// ```
pub fn parse_position(text: &str) -> Result<Position> {
    let big = crate::big::parse_big_position(text)?;
    crate::big::to_small(&big).ok_or_else(|| {
        Error::input(format!(
            "position {} has a coordinate above {} (too big for brute force)",
            crate::big::abbreviate(text.trim()),
            Coord::MAX
        ))
    })
}

/// A stored position as `game` writes it (`3,5`, a board's picture, `{0,2}`): the words
/// of messages about positions.
///
/// ```
/// use nimlab_engine::game::{position_words, Game};
/// use nimlab_engine::Coord;
/// struct Heap;
/// impl Game for Heap {
///     fn spec(&self) -> String { "heap".into() }
///     fn dimension(&self) -> usize { 1 }
///     fn for_each_option(&self, p: &[Coord], visit: &mut dyn FnMut(&[Coord])) {}
/// }
/// assert_eq!(position_words(&Heap, &[7]), "7");
/// ```
pub fn position_words(game: &dyn Game, pos: &[Coord]) -> String {
    let big: Vec<BigUint> = pos.iter().map(|&c| BigUint::from(c)).collect();
    game.show_position(&big).text()
}

/// `3,5` — the inverse of [`parse_position`].
pub fn format_position(pos: &[Coord]) -> String {
    pos.iter()
        .map(|c| c.to_string())
        .collect::<Vec<_>>()
        .join(",")
}
