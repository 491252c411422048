//! `nplayer(G, n=3, ranking=normal)`: any game played by n players in turn (Kano's
//! σ-games). Values are classes (moves still to be played, mod n) and ranks, not
//! Grundy values; see [`nimlab_engine::nplayer`].

use crate::{parse_game, Args, Family, Param};
use nimlab_engine::nimarith::n_nim_sum;
use nimlab_engine::nplayer::{class_table, NPlayerGame, Ranking, MAX_PLAYERS};
use nimlab_engine::theorem::Verdict;
use nimlab_engine::{Error, Game, Result, Theorem};

/// The number of players (`n`, 2..=[`MAX_PLAYERS`]) and the ranking of a spec.
pub fn players_and_ranking(args: &Args) -> Result<(usize, Ranking)> {
    let n = args.int("n", 2)?;
    if n > MAX_PLAYERS as i64 {
        return Err(Error::input(format!(
            "parameter n must be ≤ {MAX_PLAYERS}, got {n}"
        )));
    }
    let n = n as usize;
    Ok((n, Ranking::parse(n, &args.raw("ranking")?)?))
}

/// Refuses an n-player game as a part of a two-player transform (`misere`, `pass`,
/// `sum`): its values are classes, which those transforms do not combine.
pub fn refuse_inside(transform: &str, part: Box<dyn Game>) -> Result<Box<dyn Game>> {
    if part.capabilities().nplayer.is_some() {
        return Err(Error::input(format!(
            "{transform}: {} is played by n players; {transform}(…) takes two-player games \
             (write nplayer({transform}(…), …) instead)",
            part.spec()
        )));
    }
    Ok(part)
}

fn build(args: &Args) -> Result<Box<dyn Game>> {
    let inner = parse_game(&args.raw("game")?)?;
    if inner.capabilities().nplayer.is_some() {
        return Err(Error::input(format!(
            "nplayer: {} is already played by n players",
            inner.spec()
        )));
    }
    let (_, ranking) = players_and_ranking(args)?;
    Ok(Box::new(NPlayerGame::new(inner, ranking)))
}

/// The first heap of `subtraction(s={1,2})` below `limit` where Theorem A's criterion
/// (n-nim sum 0 ⇔ the player to move ranks last) fails for 3 players.
fn restricted_counterexample(
    ctx: &nimlab_engine::theorem::CheckContext,
    limit: usize,
) -> Result<Option<(u64, u64, u32)>> {
    let game = NPlayerGame::new(parse_game("subtraction(s={1,2})")?, Ranking::normal(3)?);
    let t = class_table(&game, game.ranking(), &[limit], &ctx.table_options())?;
    for (pos, class) in t.iter() {
        let sum = n_nim_sum(3, &pos)?;
        if (sum == 0) != (class == 0) {
            return Ok(Some((pos[0], sum, class)));
        }
    }
    Ok(None)
}

fn theorems() -> Vec<Theorem> {
    vec![Theorem::new(
        "nplayer.theorem-a-fails-for-restricted-takes",
        "A registered negative result: Theorem A (the player to move ranks last iff the n-nim \
         sum is 0) does not extend to restricted takes — for 3 players on subtraction(s={1,2}) \
         some heap is a counterexample. Verified when the counterexample is found.",
        "M. Kano, \"Take-away games played by n players\" (in Japanese, year uncertain), remark \
         after Theorem B [Kano]",
        |ctx| {
            let limit = ctx.size.clamp(8, 4096);
            Ok(match restricted_counterexample(ctx, limit)? {
                Some((heap, sum, class)) => Verdict::Holds {
                    window: format!(
                        "[0,{limit}): expected counterexample found — heap {heap} has 3-nim sum \
                         {sum} ≠ 0, yet its class is {class}{}",
                        if class == 0 {
                            " (the player to move ranks last)"
                        } else {
                            ""
                        }
                    ),
                    checked: heap + 1,
                },
                None => Verdict::Fails {
                    counterexample: format!(
                        "no counterexample below {limit}: Theorem A's criterion held everywhere"
                    ),
                },
            })
        },
    )]
}

/// The parameter `n` of the n-player families: the number of players.
pub(crate) const PLAYERS: Param = Param {
    name: "n",
    kind: "integer 2..64",
    default: Some("3"),
    example: None,
    help: "number of players",
};

/// The parameter `ranking` of the n-player families, with its `help`.
pub(crate) const fn ranking(help: &'static str) -> Param {
    Param {
        name: "ranking",
        kind: "normal, retreat(l) or perm(σ(1),…,σ(n))",
        default: Some("normal"),
        example: None,
        help,
    }
}

/// The `nplayer` family.
pub static FAMILY: Family = Family {
    name: "nplayer",
    summary: "Any game played by n players in turn (Kano's σ-games): classes, every player's \
              rank, best moves",
    params: &[
        Param {
            name: "game",
            kind: crate::GAME_KIND,
            default: None,
            example: Some("nim"),
            help: "the game played, e.g. nplayer(subtraction(s={1,2}),n=3)",
        },
        PLAYERS,
        ranking(
            "how players are ranked: normal (the last mover first), the l-retreat type \
             (2 ≤ l ≤ n; n = 2, l = 2 is misère play), or any permutation σ (the r-th \
             place goes to X_σ(r), X_1 being the last mover, X_2 the one before, …)",
        ),
    ],
    position_syntax: "as the inner game",
    seed: "M. Kano, \"Take-away games played by n players\" (in Japanese, year uncertain) [Kano]",
    build,
    theorems,
    sweep: None,
};
