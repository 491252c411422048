//! `pass(G)`: any game with one pass per game (future work named by the Ryuoh paper).

use crate::{parse_game, Args, Family, Param};
use nimlab_engine::transform::Pass;
use nimlab_engine::{Game, Result, Theorem};

fn build(args: &Args) -> Result<Box<dyn Game>> {
    Ok(Box::new(Pass::new(crate::nplayer::refuse_inside(
        "pass",
        parse_game(&args.raw("game")?)?,
    )?)))
}

/// The `pass` family.
pub static FAMILY: Family = Family {
    name: "pass",
    summary: "Any game with one pass per game, for whichever player uses it first \
              (never at a terminal position)",
    params: &[Param {
        name: "game",
        kind: crate::GAME_KIND,
        default: None,
        example: Some("nim"),
        help: "the game played with a pass, e.g. pass(ryuoh(p=3))",
    }],
    position_syntax: "the inner game's position, then 1 if the pass is still available \
                      else 0 (e.g. 3,5,1)",
    seed: "Y. Tokuni, \"Ryuoh Nim: a variant of Wythoff Nim\" (in Japanese, year uncertain), \
         §1.4, future work: Ryuoh Nim with a pass [Tokuni]",
    build,
    theorems: Vec::<Theorem>::new,
    sweep: None,
};
