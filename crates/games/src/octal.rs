//! Octal (take-and-break) games in Guy–Conway notation, and hexadecimal ones.
//!
//! The code `d0.d1d2d3…` says for each `k` what a move taking `k` beans from one heap
//! may leave: digit `d_k` is a sum of 1 (may take the whole heap, leaving nothing),
//! 2 (may leave one non-empty heap) and 4 (may leave two non-empty heaps). `0.137` is
//! Dawson's Chess, `0.07` Dawson's Kayles, `0.77` Kayles. The whole part `d0` is 0 or 4 (4: a heap may be split
//! in two without taking a bean, as in `4.07`). With `base=16` digits go up to `f`, the
//! bit 8 allowing three heaps (hexadecimal games).
//!
//! Positions are heaps: `n` is one heap, `n1,n2,…` is the sum of several heaps (its
//! value is the nim-sum of theirs). A move from one heap replaces it by the parts left.
//! Values come from the nim-sequence, computed by the rare/common method
//! ([`nimlab_octal::takebreak`]); periods are certified by the Guy–Smith theorem.
//!
//! The game itself ([`Octal`]: rules, positions, the sequence kernel and big heaps) is
//! `nimlab-octal`'s; this module is its catalog entry (parameters, theorems).

use crate::{Args, Family, Param};
use nimlab_engine::theorem::Verdict;
use nimlab_engine::{Game, Result, Theorem};
pub use nimlab_octal::game::*;

fn build(args: &Args) -> Result<Box<dyn Game>> {
    let base = args.int("base", 0)?;
    let base = u32::try_from(base).unwrap_or(0);
    Ok(Box::new(Octal::parse(&args.raw("code")?, base)?))
}

/// A theorem "code has preperiod a and period p", checked by the Guy–Smith certificate
/// and by the engine's brute force on the first terms.
fn period_theorem(
    id: &'static str,
    code: &'static str,
    name: &'static str,
    preperiod: u64,
    period: u64,
    source: &'static str,
) -> Theorem {
    Theorem::new(
        id,
        format!(
            "{name} ({code}): the nim-sequence is periodic with period {period} from n = \
             {preperiod} on (least period and preperiod), proven by the Guy–Smith theorem"
        ),
        source,
        move |ctx| {
            let game = Octal::parse(code, 8)?;
            let Some(per) = game.rules().certified_periodicity(CERTIFY_LIMIT) else {
                return Ok(Verdict::Fails {
                    counterexample: format!("no certificate within {CERTIFY_LIMIT} terms"),
                });
            };
            if (per.preperiod, per.period) != (preperiod, period) {
                return Ok(Verdict::Fails {
                    counterexample: format!(
                        "the certified computation gives preperiod {} and period {}",
                        per.preperiod, per.period
                    ),
                });
            }
            // The certificate's values against brute force over the engine's generic
            // table (sum of heaps), and the sparse sequence beyond.
            let n = (ctx.size * 8).max(preperiod as usize + 3 * period as usize);
            let table = nimlab_engine::grundy_table(&game, &[n], &ctx.table_options())?;
            // Computed term by term (not from the period, which would be circular).
            let long = game.rules().sparse_sequence(n.max(1 << 14));
            for (i, &g) in long.iter().enumerate() {
                let from_period = per.value_at(i as u128).expect("natural") as u32;
                let brute = table.values().get(i).copied().unwrap_or(g);
                if g != from_period || brute != g {
                    return Ok(Verdict::Fails {
                        counterexample: format!(
                            "G({i}) = {g} (brute force {brute}) but the period gives \
                             {from_period}"
                        ),
                    });
                }
            }
            Ok(Verdict::Holds {
                window: format!(
                    "certificate: {}; brute force on [0,{n}), sparse sequence on [0,{})",
                    per.proof.unwrap_or_default(),
                    long.len()
                ),
                checked: long.len() as u64,
            })
        },
    )
}

fn theorems() -> Vec<Theorem> {
    vec![
        period_theorem(
            "octal.kayles-period",
            "0.77",
            "Kayles",
            71,
            12,
            "Guy & Smith 1956; Winning Ways p. 91; OEIS A002186 (period 12 from n = 71, last \
             exception n = 70)",
        ),
        period_theorem(
            "octal.dawson-chess-period",
            "0.137",
            "Dawson's Chess",
            52,
            34,
            "Guy & Smith 1956; Winning Ways p. 89; OEIS A002187 (period 34, last exception \
             n = 51)",
        ),
        period_theorem(
            "octal.dawson-kayles-period",
            "0.07",
            "Dawson's Kayles",
            53,
            34,
            "Winning Ways p. 90; OEIS A002187 (Dawson's Chess; Dawson's Kayles 0.07 has its values \
             shifted by one: G(n+1) = G_0.137(n))",
        ),
    ]
}

/// The `octal` family.
pub static FAMILY: Family = Family {
    name: "octal",
    summary: "Octal (take-and-break) games in Guy–Conway notation, e.g. 0.137, 0.77, 4.07",
    params: &[
        Param {
            name: "code",
            kind: "octal code d0.d1d2… (d0 ∈ {0,4}); with base=16 hexadecimal digits",
            default: Some("0.137"),
            example: None,
            help: "digit d_k: 1 may take k beans leaving no heap, 2 leaving one heap, 4 \
                   leaving two heaps (8: three, hexadecimal only)",
        },
        Param {
            name: "base",
            kind: "8 or 16",
            default: Some("8"),
            example: None,
            help: "16 for hexadecimal codes (digits up to f, up to three heaps left)",
        },
    ],
    position_syntax: "n (one heap) or n1,n2,… (a sum of heaps; value = nim-sum)",
    seed: "R. K. Guy, C. A. B. Smith, The G-values of various games, Proc. Cambridge Philos. \
         Soc. 52 (1956); E. R. Berlekamp, J. H. Conway, R. K. Guy, Winning Ways (1982), ch. 4",
    build,
    theorems,
    sweep: None,
};
