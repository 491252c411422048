//! How positions are written: the numbers of a tuple game, or a game's own form (a
//! board's picture, a set of vertices). Storage is always a [`crate::Position`]; a game
//! with its own form says how its positions read and show ([`crate::Game::read_position`],
//! [`crate::Game::show_position`]), and every surface prints what it shows.

use crate::big::BigUint;

/// A position as people read it (text, JSON, Python), the inverse of
/// [`crate::Game::read_position`].
///
/// ```
/// use nimlab_engine::position::Shown;
/// assert_eq!(Shown::Numbers(vec![3u32.into(), 5u32.into()]).text(), "3,5");
/// assert_eq!(Shown::Text("../##".into()).text(), "../##");
/// assert_eq!(Shown::Vertices(vec![0, 2]).text(), "{0,2}");
/// let pass = Shown::Flagged(Box::new(Shown::Text("..".into())), 1);
/// assert_eq!(pass.text(), "..,1");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Shown {
    /// Coordinates: heap sizes, rows of a diagram …
    Numbers(Vec<BigUint>),
    /// One list of coordinates per part (a sum with take-and-break parts), written
    /// separated by `;`.
    Groups(Vec<Vec<BigUint>>),
    /// The game's own picture, e.g. a board: rows joined by `/`.
    Text(String),
    /// A set of vertices of a graph, increasing, written `{0,2,5}`.
    Vertices(Vec<u64>),
    /// One shown position per part of a sum, written separated by `;`.
    Parts(Vec<Shown>),
    /// A position and a last flag (the pass transform's), written `position,flag`.
    Flagged(Box<Shown>, u64),
}

impl Shown {
    /// The text people write for the position (long numbers shortened).
    pub fn text(&self) -> String {
        match self {
            Shown::Numbers(n) => crate::plan::position_text(n),
            Shown::Groups(g) => g
                .iter()
                .map(|g| crate::plan::position_text(g))
                .collect::<Vec<_>>()
                .join(";"),
            Shown::Text(t) => t.clone(),
            Shown::Vertices(v) => format!(
                "{{{}}}",
                v.iter()
                    .map(|v| v.to_string())
                    .collect::<Vec<_>>()
                    .join(",")
            ),
            Shown::Parts(p) => p.iter().map(Shown::text).collect::<Vec<_>>().join(";"),
            Shown::Flagged(inner, flag) => format!("{},{flag}", inner.text()),
        }
    }

    /// Numbers in groups as people read them: one group is plain numbers, several are
    /// the parts of a sum written separated by `;`.
    pub fn of_groups(groups: &[Vec<BigUint>]) -> Shown {
        match groups {
            [one] => Shown::Numbers(one.clone()),
            groups => Shown::Groups(groups.to_vec()),
        }
    }

    /// Whether this is plain numbers (a tuple game's position).
    pub fn is_numbers(&self) -> bool {
        matches!(self, Shown::Numbers(_) | Shown::Groups(_))
    }
}

/// The word that asks for a game's starting position, in every family
/// ([`crate::Game::start_position`]).
pub const START: &str = "start";

/// How a game's positions are written and stored: what the parts of the engine that
/// assume tuples of numbers (a table's box, a sum's slots, a flat list of coordinates)
/// may rely on. One value per game ([`crate::Game::form`]), so that reading, showing,
/// tables and sums ask the same question.
///
/// ```
/// use nimlab_engine::position::{PositionForm, Written};
/// let pair = PositionForm::tuple(2);
/// assert!(pair.accepts(2) && !pair.accepts(3));
/// assert!(pair.is_box() && pair.writes_numbers());
/// let heaps = PositionForm::heaps(false); // heaps that split or vanish
/// assert!(heaps.accepts(7) && !heaps.accepts(0) && !heaps.kept);
/// let board = PositionForm::own(2);
/// assert_eq!(board.written, Written::Own);
/// assert!(!board.writes_numbers() && !board.is_box());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PositionForm {
    /// How people write a position.
    pub written: Written,
    /// How many coordinates (words) a stored position may have.
    pub coordinates: std::ops::RangeInclusive<usize>,
    /// Whether every option has as many coordinates as its position (false for heaps
    /// that split or vanish: a sum cannot keep such a part in a fixed slot).
    pub kept: bool,
}

/// How people write a game's positions ([`PositionForm::written`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Written {
    /// Numbers separated by `,`: the coordinates themselves, the cells of a table's box.
    Numbers,
    /// Numbers in groups separated by `;`, one group per part of a sum whose parts
    /// change their number of heaps; stored with each part's count, so not a box.
    Groups,
    /// The game's own form (a board's picture, a set of vertices), read and shown by
    /// the game ([`crate::Game::read_position`], [`crate::Game::show_position`]).
    Own,
}

impl PositionForm {
    /// Exactly `dimension` numbers, kept by every move (the default of every game).
    pub fn tuple(dimension: usize) -> Self {
        PositionForm {
            written: Written::Numbers,
            coordinates: dimension..=dimension,
            kept: true,
        }
    }

    /// Any number of heaps, at least one; `kept` says whether moves keep their count
    /// (Nim: yes; take-and-break games, whose heaps split or vanish: no).
    pub fn heaps(kept: bool) -> Self {
        PositionForm {
            written: Written::Numbers,
            coordinates: 1..=usize::MAX,
            kept,
        }
    }

    /// The game's own written form, stored in `words` words.
    pub fn own(words: usize) -> Self {
        PositionForm {
            written: Written::Own,
            coordinates: words..=words,
            kept: true,
        }
    }

    /// Whether a stored position of `m` coordinates has this form.
    pub fn accepts(&self, m: usize) -> bool {
        self.coordinates.contains(&m)
    }

    /// Whether positions are written as numbers (plain or in groups) rather than in a
    /// form of the game's own.
    pub fn writes_numbers(&self) -> bool {
        self.written != Written::Own
    }

    /// Whether positions are the cells of a box: the numbers people write, stored as
    /// they are written (tables, sequences and dense walks need this).
    pub fn is_box(&self) -> bool {
        self.written == Written::Numbers
    }
}

/// Reads numbers separated by commas, in groups separated by `;`.
///
/// ```
/// use nimlab_engine::position::read_groups;
/// assert_eq!(read_groups("1,2;3").unwrap(), vec![vec![1u32.into(), 2u32.into()], vec![3u32.into()]]);
/// assert!(read_groups("1,x").is_err());
/// ```
pub fn read_groups(text: &str) -> crate::Result<Vec<crate::big::BigPosition>> {
    text.split(';')
        .map(crate::big::parse_big_position)
        .collect()
}

/// Reads the numbers of one tuple of coordinates (the written form of every tuple
/// game): no `;`, which only separates the parts of a sum.
/// `spec` names the game in the error.
pub fn read_numbers(
    text: &str,
    spec: impl FnOnce() -> String,
) -> crate::Result<crate::big::BigPosition> {
    let mut groups = read_groups(text)?;
    if groups.len() == 1 {
        return Ok(groups.pop().expect("one group"));
    }
    Err(crate::Error::input(format!(
        "{} writes its positions as one list of coordinates; ';' separates only the \
         parts of a sum of take-and-break games",
        spec()
    )))
}
