//! Where a command's game comes from: a catalog spec (`'ryuoh(p=3)'`, also
//! `'rules(file=F)'`) or a rules file (`--rules FILE`).

use crate::rules::{self, RulesGame};
use nimlab_engine::{Error, Game, Result};
use std::path::Path;

/// A game and the claims its source makes about it beyond the rules.
pub struct GameSource {
    /// The game.
    pub game: Box<dyn Game>,
    /// A closed form for the Grundy value, if declared (rules files may).
    pub closed_form: Option<String>,
    /// A predicate claimed to give the P-positions, if declared.
    pub p_positions: Option<String>,
    /// Named constants the source's formulas use (a rules file's `params`).
    pub constants: Vec<(String, i64)>,
}

impl GameSource {
    fn from_rules(game: RulesGame) -> Self {
        GameSource {
            closed_form: game.closed_form().map(str::to_string),
            p_positions: game.p_positions().map(str::to_string),
            constants: game.params().to_vec(),
            game: Box::new(game),
        }
    }
}

/// The game named by exactly one of `spec` and `rules`.
///
/// ```
/// use nimlab_games::source::load;
/// let s = load(Some("wythoff"), None).unwrap();
/// assert_eq!(s.game.spec(), "wythoff");
/// assert!(s.closed_form.is_none());
/// assert!(load(None, None).is_err());
/// ```
pub fn load(spec: Option<&str>, rules: Option<&Path>) -> Result<GameSource> {
    match (spec, rules) {
        (Some(s), None) => {
            // A rules spec is read directly so that its declared claims are kept.
            let parsed = crate::spec::parse_spec(s)?;
            if parsed.name == rules::FAMILY.name
                && let [(key, path)] = parsed.args.as_slice()
                && key.as_deref().is_none_or(|k| k == "file")
            {
                return Ok(GameSource::from_rules(rules::load(Path::new(path))?));
            }
            Ok(GameSource {
                game: crate::parse_game(s)?,
                closed_form: None,
                p_positions: None,
                constants: Vec::new(),
            })
        }
        (None, Some(path)) => Ok(GameSource::from_rules(rules::load(path)?)),
        (Some(_), Some(_)) => Err(Error::input("give either a game or a rules file, not both")),
        (None, None) => Err(Error::input(
            "give a game (e.g. 'ryuoh(p=3)') or a rules file",
        )),
    }
}

/// The game of a rules file's TOML text (Python's `nimlab.game(rules_text=…)`); `name`
/// stands for the file in messages, and names the game when the text gives no name.
///
/// ```
/// use nimlab_games::source::load_text;
/// let s = load_text("dimension = 1\nmoves = [[1], [2]]\n", "take12").unwrap();
/// assert_eq!(s.game.dimension(), 1);
/// assert!(load_text("dimension = ", "bad").is_err());
/// ```
pub fn load_text(text: &str, name: &str) -> Result<GameSource> {
    Ok(GameSource::from_rules(RulesGame::from_toml(text, name)?))
}
