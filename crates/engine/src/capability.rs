//! What a game can do beyond listing options: its *capabilities*.
//!
//! The [`crate::Game`] trait is a small core (dimension, options, legality, rank). A
//! family that knows more — a closed form for positions of any size, a fast one-heap
//! sequence kernel with a proven period, line moves for the two-heap kernel, a
//! decomposition into independent components, a table kernel of its own — says so by
//! returning a [`Capabilities`] from [`crate::Game::capabilities`]. The planner
//! ([`crate::plan`]) reads them and picks the best method for each query; nothing in
//! nimlab looks a family up by its name.
//!
//! A transform (misère, pass, sum) builds its own capabilities from its inner games',
//! so nothing is forwarded silently: one method, [`crate::Game::capabilities`], carries
//! them all.

use crate::big::{BigAnalysis, BigPosition, BigUint};
use crate::error::Result;
use crate::game::{Coord, Game, Position};
use crate::kernels::line::LineMoves;
use crate::memory::MemoryLimit;
use crate::periodicity::Periodicity;
use crate::table::GrundyTable;
use std::ops::Range;

/// Answers about positions of any size from a theorem or a strategy.
pub trait BigPositions: Send + Sync {
    /// Value, outcome and winning moves of `pos` (coordinates of any size), or `None`
    /// when this position is better left to exact computation (e.g. small positions of
    /// a game whose strategy gives no Grundy value).
    fn analyse_big(&self, pos: &[BigUint]) -> Option<Result<BigAnalysis>>;

    /// As [`BigPositions::analyse_big`], within the query's memory limit and reporting
    /// to its progress: the planner calls this, so a game whose answer may need a long
    /// computation first (an octal game's period search) can bound and show it. The
    /// default ignores the options.
    fn analyse_big_within(
        &self,
        pos: &[BigUint],
        _opts: &crate::table::TableOptions,
    ) -> Option<Result<BigAnalysis>> {
        self.analyse_big(pos)
    }

    /// The Grundy value of a position with machine-size coordinates by the closed form,
    /// fast (used to fill tables and to value many options). `None`: no closed form
    /// for the value (a strategy only), or not for this position.
    fn grundy_small(&self, _pos: &[crate::game::Coord]) -> Option<u32> {
        None
    }

    /// The options of `pos` whose Grundy value is `target`, when the game can find them
    /// without listing every option (used for winning moves in sums). `None`: unknown.
    fn moves_to_value(&self, _pos: &[BigUint], _target: &BigUint) -> Option<Vec<BigPosition>> {
        None
    }

    /// Every option of `pos`, when there are few and the game can list them at any size
    /// (e.g. a subtraction game: one per element of S). `None`: not offered.
    fn big_options(&self, _pos: &[BigUint]) -> Option<Vec<BigPosition>> {
        None
    }
}

/// A one-heap game's own sequence kernel.
pub trait SequenceKernel: Send + Sync {
    /// G(0), …, G(len − 1) by the game's fast method.
    fn sequence(&self, len: usize, limit: MemoryLimit) -> Result<Vec<u32>>;

    /// As [`SequenceKernel::sequence`], within the query's memory limit and reporting
    /// to its progress (the planner calls this; a kernel that can take minutes shows
    /// how far it is). The default reports nothing.
    fn sequence_within(&self, len: usize, opts: &crate::table::TableOptions) -> Result<Vec<u32>> {
        self.sequence(len, opts.memory_limit)
    }

    /// The game's *proven* periodicity, searching heaps below `max_n` (a repeated
    /// window for subtraction games, the Guy–Smith theorem for octal games) and
    /// reporting the terms computed to `progress`. `None`: the game has no proof
    /// method; `Some(Ok(None))`: no period proven below `max_n`.
    fn certified_periodicity(
        &self,
        max_n: u64,
        progress: &dyn crate::progress::Progress,
    ) -> Option<Result<Option<Periodicity>>>;

    /// Short name of the method, for answers ("rare/common nim-sequence").
    fn sequence_method(&self) -> String;

    /// Estimated seconds to compute the first `terms` values, or to search them for a
    /// period, when that can be long: the planner refuses past the usual threshold
    /// ([`crate::table::check_seconds`]) unless forced. `None` (the default): no
    /// estimate, the work is linear and bounded by the memory limit.
    fn work_seconds(&self, _terms: u64) -> Option<f64> {
        None
    }

    /// The kernel itself, for a tool outside the planner that knows its concrete type
    /// (the octal crate's periodicity certificates downcast it to its own game). The
    /// engine never looks inside. `None` (the default): the kernel is not offered.
    fn as_any(&self) -> Option<&dyn std::any::Any> {
        None
    }
}

/// A whole-table kernel of the game's own (e.g. Fibonacci Nim's G(heap, limit)).
pub trait TableKernel: Send + Sync {
    /// The table over the box `dims`, or `None` when the kernel does not handle that
    /// box (the planner then uses the engine's methods).
    fn table(&self, dims: &[usize], limit: MemoryLimit) -> Option<Result<GrundyTable>>;
    /// Short name of the method.
    fn table_method(&self) -> String;
}

/// Column names and rows of text.
pub type TextTable = (Vec<String>, Vec<Vec<String>>);

/// A table of the game's own strategy for people (Fibonacci Nim: n | w(n) | code).
pub trait StrategyTable: Send + Sync {
    /// Rows for n = 1..size−1.
    fn strategy_table(&self, size: usize) -> Result<TextTable>;
}

/// How a position splits into independent components (a disjunctive sum), whose
/// Grundy value is the nim-sum of the components' values (Sprague–Grundy).
pub enum Decomposition<'a> {
    /// Every coordinate is one heap of this same game (take-and-break games).
    Heaps,
    /// A sum of games, part after part.
    Parts(&'a dyn Components),
    /// A position that falls apart into independent positions of the same game (a
    /// board's regions that no move can join, a graph's connected components).
    Regions(&'a dyn Regions),
}

/// How a position of a game falls apart into independent positions of the same game,
/// whose Grundy value is the nim-sum of theirs (Sprague–Grundy): Cram's regions of
/// free squares, the connected components of a Node Kayles graph. The solver values
/// and memoizes the parts, not the whole.
///
/// ```
/// use nimlab_engine::capability::Regions;
/// use nimlab_engine::{Coord, Position};
/// /// Positions are bit sets on a line; a move takes one bit and its neighbours.
/// struct Line;
/// impl Regions for Line {
///     fn regions(&self, pos: &[Coord], parts: &mut Vec<Position>) {
///         let (mut rest, mut out) = (pos[0], Vec::new());
///         while rest != 0 {
///             let low = rest & rest.wrapping_neg();
///             let run = rest & !(rest.wrapping_add(low)); // the lowest run of ones
///             out.push(vec![run]);
///             rest &= !run;
///         }
///         if out.len() > 1 { parts.extend(out); }
///     }
/// }
/// let mut parts = Vec::new();
/// Line.regions(&[0b1101], &mut parts);
/// assert_eq!(parts, vec![vec![0b0001], vec![0b1100]]);
/// ```
pub trait Regions: Send + Sync {
    /// Pushes the independent parts of `pos` onto `parts` when there are two or more
    /// (each a position of the same game); pushes nothing when `pos` is one piece.
    fn regions(&self, pos: &[Coord], parts: &mut Vec<Position>);

    /// The memo keys of the parts of `pos`, for the solver's inner loop (no list, no
    /// allocation): calls `visit` with each part in the game's simplified form
    /// ([`Game::simplified`] of the part, or the part itself when that is `None`) —
    /// one call with the simplified `pos` when it is one piece — and returns `true`.
    /// A part without a move (value 0) may be left out. The default returns `false`
    /// without visiting anything: the solver then asks [`Regions::regions`] and
    /// [`Game::simplified`].
    fn simplified_parts(&self, _pos: &[Coord], _visit: &mut dyn FnMut(&[Coord])) -> bool {
        false
    }
}

/// The parts of a disjunctive sum and where each lies in a position. A part whose
/// heaps split or vanish (a take-and-break game) takes a varying number of
/// coordinates, so where the parts lie depends on the position.
pub trait Components: Send + Sync {
    /// The games summed, in order.
    fn parts(&self) -> Vec<&dyn Game>;
    /// Where each part lies in `pos`; `None` if `pos` is not laid out as a position
    /// of the sum.
    fn split(&self, pos: &[BigUint]) -> Option<Vec<Range<usize>>>;
    /// The sum's position made of one position per part (the inverse of
    /// [`Components::split`]).
    fn join(&self, parts: &[&[BigUint]]) -> BigPosition;
    /// Where each part lies in a cell of a table box (one table box per part, side
    /// by side).
    fn box_ranges(&self) -> Vec<Range<usize>>;
}

/// The game's move relation written in nimlab's formula language, so that claims about
/// it can be decided for all positions by automata (`nimlab prove`). `options` is a
/// condition over the coordinates and the option's coordinates — each coordinate name
/// followed by `_` (`x_` is x′) — true exactly when X′ is an option of X. It must agree
/// with [`Game::for_each_option`] on legal positions (the games' tests compare them).
///
/// ```
/// use nimlab_engine::capability::MoveRelation;
/// let nim2 = MoveRelation::new("(x_ < x && y_ == y) || (x_ == x && y_ < y)");
/// assert!(nim2.positions.is_none());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveRelation {
    /// X′ is an option of X (a condition over the coordinates and their `_` copies).
    pub options: String,
    /// Which tuples are positions (a condition over the coordinates); `None`: all of
    /// N^m.
    pub positions: Option<String>,
}

impl MoveRelation {
    /// A relation whose positions are all of N^m.
    pub fn new(options: impl Into<String>) -> Self {
        MoveRelation {
            options: options.into(),
            positions: None,
        }
    }

    /// The options of m heaps of Nim: exactly one coordinate decreases.
    ///
    /// ```
    /// use nimlab_engine::capability::MoveRelation;
    /// let r = MoveRelation::one_coordinate_decreases(&["x".into(), "y".into()]);
    /// assert_eq!(r.options, "(x_ < x && y_ == y) || (x_ == x && y_ < y)");
    /// ```
    pub fn one_coordinate_decreases(names: &[String]) -> Self {
        let parts: Vec<String> = (0..names.len())
            .map(|i| {
                let terms: Vec<String> = names
                    .iter()
                    .enumerate()
                    .map(|(j, n)| {
                        if i == j {
                            format!("{n}_ < {n}")
                        } else {
                            format!("{n}_ == {n}")
                        }
                    })
                    .collect();
                format!("({})", terms.join(" && "))
            })
            .collect();
        MoveRelation::new(parts.join(" || "))
    }
}

/// A pairing strategy for the second player: positions she wins by answering every
/// move with its image under a symmetry of the position (the mirror argument; e.g. a
/// Cram board symmetric under the half turn with no domino covering its centre).
/// Normal play only: transforms that change the play convention drop it.
pub trait MirrorStrategy: Send + Sync {
    /// `true` proves that `pos` is a P-position (its Grundy value is 0); `false`
    /// says nothing.
    fn mirrored_p(&self, pos: &[Coord]) -> bool;
}

/// The options of a one-word position, and their parts, listed without a call per move
/// or per part: the pruned search's fast path for games whose positions are a single
/// word (boards of at most 64 cells), where those calls cost as much as the work. Both
/// methods must agree with the game's generic ones (each game's tests compare them).
pub trait OneWord: Send + Sync {
    /// Pushes onto `out` the options of the one-word position `pos`: those
    /// [`Game::for_each_option`] lists, in its order, each a one-word position.
    fn options(&self, pos: Coord, out: &mut Vec<Coord>);

    /// Pushes onto `out` the parts of `option`, an option of `pos`, each with its
    /// rank ([`Game::rank`], below 2³²): the parts [`Regions::simplified_parts`]
    /// visits for `[option]`, in its order, leaving out those of rank 0. `pos` is
    /// itself one part as `simplified_parts` gives them (the search asks about no
    /// other positions), so that a game may find the parts faster from the move made.
    fn parts(&self, pos: Coord, option: Coord, out: &mut Vec<(Coord, u32)>);
}

/// Everything a game offers beyond its core. Build with struct update syntax:
/// `Capabilities { big: Some(self), ..Capabilities::none() }`.
#[derive(Default)]
pub struct Capabilities<'a> {
    /// Closed form or strategy for positions of any size.
    pub big: Option<&'a dyn BigPositions>,
    /// Closed form or strategy of the game's *misère* play (e.g. Bouton's misère rule),
    /// taken up by the `misere(…)` transform.
    pub misere_big: Option<&'a dyn BigPositions>,
    /// One-heap sequence kernel and proven periodicity.
    pub sequence: Option<&'a dyn SequenceKernel>,
    /// Rook and diagonal moves for the two-heap line kernel; the options listed by
    /// [`Game::for_each_option`] must be exactly these.
    pub line_moves: Option<LineMoves>,
    /// Splitting a position into independent components.
    pub decomposition: Option<Decomposition<'a>>,
    /// A position is a multiset of heaps and a move replaces one heap `h` by the
    /// heaps of an option of `[h]` — whatever the play convention. The solver then
    /// searches sorted multisets with a compact kernel; kept by `misere(…)`, where
    /// the value is not the nim-sum of the heaps'.
    pub heap_multiset: bool,
    /// A table kernel of the game's own.
    pub table_kernel: Option<&'a dyn TableKernel>,
    /// A strategy table for people.
    pub strategy_table: Option<&'a dyn StrategyTable>,
    /// The position drawn as columns of squares, for pictures.
    pub columns_picture: Option<&'a dyn crate::picture::ColumnsDrawing>,
    /// The game is played by n players under a ranking ([`crate::nplayer`]): its
    /// values are classes, not Grundy values.
    pub nplayer: Option<crate::nplayer::NPlayerRules<'a>>,
    /// A closed form for the game's n-player classes (Theorems A and B for Nim), taken
    /// up by the `nplayer(…)` transform.
    pub nplayer_closed_form: Option<&'a dyn crate::nplayer::NPlayerClosedForm>,
    /// The move relation as a formula, for proofs by automata.
    pub move_relation: Option<MoveRelation>,
    /// Positions won by the second player's mirror strategy (the pruned search
    /// answers them without search).
    pub mirror: Option<&'a dyn MirrorStrategy>,
    /// One-word positions' options and parts in one call each (the pruned search's
    /// fast path); only with [`Decomposition::Regions`].
    pub one_word: Option<&'a dyn OneWord>,
}

impl Capabilities<'_> {
    /// No capability: the engine's generic methods only.
    pub fn none() -> Self {
        Capabilities::default()
    }

    /// Names of the capabilities present, for `nimlab games` and tests.
    ///
    /// ```
    /// use nimlab_engine::capability::Capabilities;
    /// assert!(Capabilities::none().names().is_empty());
    /// ```
    pub fn names(&self) -> Vec<&'static str> {
        let mut out = Vec::new();
        if self.big.is_some() {
            out.push("big-positions");
        }
        if self.misere_big.is_some() {
            out.push("misere-big-positions");
        }
        if self.sequence.is_some() {
            out.push("sequence-kernel");
        }
        if self.line_moves.is_some() {
            out.push("line-moves");
        }
        if self.heap_multiset {
            out.push("heap-multiset");
        }
        match self.decomposition {
            Some(Decomposition::Heaps) => out.push("heaps"),
            Some(Decomposition::Parts(_)) => out.push("parts"),
            Some(Decomposition::Regions(_)) => out.push("regions"),
            None => {}
        }
        if self.table_kernel.is_some() {
            out.push("table-kernel");
        }
        if self.strategy_table.is_some() {
            out.push("strategy-table");
        }
        if self.columns_picture.is_some() {
            out.push("columns-picture");
        }
        if self.nplayer.is_some() {
            out.push("n-player");
        }
        if self.nplayer_closed_form.is_some() {
            out.push("n-player-closed-form");
        }
        if self.move_relation.is_some() {
            out.push("move-relation");
        }
        if self.mirror.is_some() {
            out.push("mirror-strategy");
        }
        if self.one_word.is_some() {
            out.push("one-word");
        }
        out
    }
}

/// Whether every coordinate of `game`'s positions is an independent heap of the game
/// itself ([`Decomposition::Heaps`]): the solver then values a position of several
/// heaps as the nim-sum of its heaps' values.
pub fn is_sum_of_heaps(game: &dyn Game) -> bool {
    matches!(
        game.capabilities().decomposition,
        Some(Decomposition::Heaps)
    )
}

/// Whether positions of `game` are multisets of heaps of one game, whatever the rule
/// that values them: a sum of heaps ([`Decomposition::Heaps`]), or such a game played
/// by n players.
pub fn is_heap_multiset(game: &dyn Game) -> bool {
    let caps = game.capabilities();
    matches!(caps.decomposition, Some(Decomposition::Heaps))
        || caps.nplayer.is_some_and(|r| r.heaps)
}

/// The canonical form of a position of heaps (a multiset): sorted, empty heaps
/// dropped, `[0]` for no heap at all. Options and winning moves of take-and-break
/// games are listed in this form, once each.
///
/// ```
/// use nimlab_engine::capability::canonical_heaps;
/// let mut p = vec![3u64, 0, 1];
/// canonical_heaps(&mut p);
/// assert_eq!(p, vec![1, 3]);
/// ```
pub fn canonical_heaps<T: Ord + Default>(pos: &mut Vec<T>) {
    let zero = T::default();
    pos.retain(|h| *h != zero);
    pos.sort_unstable();
    if pos.is_empty() {
        pos.push(T::default());
    }
}

/// The canonical form of heaps `pos` if it differs from `pos` (see
/// [`canonical_heaps`]): what take-and-break games return from
/// [`crate::Game::canonical`].
///
/// ```
/// use nimlab_engine::capability::canonical_heaps_of;
/// assert_eq!(canonical_heaps_of(&[3, 0, 1]), Some(vec![1, 3]));
/// assert_eq!(canonical_heaps_of(&[1, 3]), None);
/// assert_eq!(canonical_heaps_of(&[0]), None);
/// assert_eq!(canonical_heaps_of(&[0, 0]), Some(vec![0]));
/// ```
pub fn canonical_heaps_of(pos: &[crate::game::Coord]) -> Option<Vec<crate::game::Coord>> {
    let canonical = pos == [0] || (pos.windows(2).all(|w| w[0] <= w[1]) && !pos.contains(&0));
    if canonical {
        return None;
    }
    let mut v = pos.to_vec();
    canonical_heaps(&mut v);
    Some(v)
}
