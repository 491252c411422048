//! `misere(G)`: misère play of any game — the player who makes the last move loses.

use crate::{parse_game, Args, Family, Param};
use nimlab_engine::transform::Misere;
use nimlab_engine::{Game, Result, Theorem};

fn build(args: &Args) -> Result<Box<dyn Game>> {
    let inner = crate::nplayer::refuse_inside("misere", parse_game(&args.raw("game")?)?)?;
    if inner.terminal_value() != 0 {
        // Misère is a convention for the whole game, not a move-level transform:
        // applying it twice has no agreed meaning, so say so rather than guess.
        return Err(nimlab_engine::Error::input(format!(
            "misere({}): the game is already in misère play; misère applies once, to the whole game",
            inner.spec()
        )));
    }
    Ok(Box::new(Misere::new(inner)))
}

/// The `misere` family.
pub static FAMILY: Family = Family {
    name: "misere",
    summary: "Misère play of any game: the player who makes the last move loses",
    params: &[Param {
        name: "game",
        kind: crate::GAME_KIND,
        default: None,
        example: Some("nim"),
        help: "the game played in misère form, e.g. misere(nim(heaps=3))",
    }],
    position_syntax: "as the inner game",
    seed: "M. Kano, \"Take-away games played by n players\" (in Japanese, year uncertain), the \
         case n = 2 of the 2-retreat type [Kano]",
    build,
    theorems: Vec::<Theorem>::new,
    sweep: None,
};
