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

/// Reads numbers separated by commas, groups separated by `;`, as `game` places them
/// ([`crate::Game::position_from_groups`]): the written form of every tuple game.
pub fn read_numbers(game: &dyn crate::Game, text: &str) -> crate::Result<crate::big::BigPosition> {
    let groups = text
        .split(';')
        .map(crate::big::parse_big_position)
        .collect::<crate::Result<Vec<_>>>()?;
    game.position_from_groups(groups)
}
