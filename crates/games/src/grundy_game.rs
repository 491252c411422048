//! Grundy's game: one heap; a move splits one heap into two unequal non-empty heaps.
//!
//! It is a take-and-break game (take nothing, leave two heaps) with the extra rule that
//! the parts differ, so it shares the octal games' machinery ([`nimlab_octal::Octal`]):
//! positions `n` or `n1,n2,…` (a sum of heaps), values by the rare/common method. The
//! Guy–Smith theorem does not apply (shifting a part by the period can make the two
//! parts equal), and whether the nim-sequence is eventually periodic is open; no period
//! is claimed.

use crate::{Args, Family};
use nimlab_engine::theorem::Verdict;
use nimlab_engine::{Game, Result, Theorem};

/// Grundy's game (`nimlab-octal`'s take-and-break game with unequal parts).
pub use nimlab_octal::game::grundy_game;
/// The rules: take 0 beans, leave two heaps, which must be unequal.
pub use nimlab_octal::game::grundy_game_rules as rules;

fn build(_args: &Args) -> Result<Box<dyn Game>> {
    Ok(Box::new(grundy_game()))
}

fn theorems() -> Vec<Theorem> {
    vec![Theorem::new(
        "grundy-game.p-positions-start",
        "Grundy's game: the heaps 0, 1, 2, 4, 7, 10, 20, 23, 26 are the only P-positions \
         below 30 (Winning Ways ch. 4); the sparse nim-sequence agrees with brute force",
        "Winning Ways ch. 4",
        |ctx| {
            let g = grundy_game();
            let n = (ctx.size * 8).max(30);
            let table = nimlab_engine::grundy_table(&g, &[n], &ctx.table_options())?;
            let zeros: Vec<usize> = (0..30).filter(|&i| table.values()[i] == 0).collect();
            if zeros != [0, 1, 2, 4, 7, 10, 20, 23, 26] {
                return Ok(Verdict::Fails {
                    counterexample: format!("P-positions below 30: {zeros:?}"),
                });
            }
            let sparse = g.nim_sequence(n);
            if let Some(i) = (0..n).find(|&i| sparse[i] != table.values()[i]) {
                return Ok(Verdict::Fails {
                    counterexample: format!(
                        "G({i}) = {} by brute force but {} by the sparse method",
                        table.values()[i],
                        sparse[i]
                    ),
                });
            }
            Ok(Verdict::Holds {
                window: format!("[0,{n})"),
                checked: n as u64,
            })
        },
    )]
}

/// The `grundy-game` family.
pub static FAMILY: Family = Family {
    name: "grundy-game",
    summary: "Grundy's game: split one heap into two unequal non-empty heaps",
    params: &[],
    position_syntax: "n (one heap) or n1,n2,… (a sum of heaps; value = nim-sum)",
    seed: "P. M. Grundy, Mathematics and games, Eureka 2 (1939); E. R. Berlekamp, J. H. \
         Conway, R. K. Guy, Winning Ways (1982), ch. 4",
    build,
    theorems,
    sweep: None,
};
