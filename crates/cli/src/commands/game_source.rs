//! Where a command's game comes from: a catalog spec (`'ryuoh(p=3)'`) or a rules file
//! (`--rules FILE`).

use nimlab_engine::{Error, Game, Result};
use std::path::Path;

/// A game and what its source knows about it beyond the rules.
pub struct GameSource {
    /// The game.
    pub game: Box<dyn Game>,
    /// A closed form for the Grundy value, if the source declares one (rules files may).
    pub closed_form: Option<String>,
}

/// The game named by exactly one of `spec` and `rules`.
pub fn load(spec: Option<&str>, rules: Option<&Path>) -> Result<GameSource> {
    match (spec, rules) {
        (Some(s), None) => Ok(GameSource {
            game: nimlab_games::parse_game(s)?,
            closed_form: None,
        }),
        (None, Some(_)) => Err(Error::input("--rules is not available yet")),
        (Some(_), Some(_)) => Err(Error::input("give either a game or --rules FILE, not both")),
        (None, None) => Err(Error::input(
            "give a game (e.g. 'ryuoh(p=3)') or --rules FILE",
        )),
    }
}
