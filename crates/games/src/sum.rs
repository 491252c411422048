//! `sum(G1, G2, …)`: the disjunctive sum of games; its Grundy value is the nim sum of
//! the parts' values (Sprague–Grundy).

use crate::{parse_game, Args, Family, Param};
use nimlab_engine::theorem::{check_grundy_formula, Verdict};
use nimlab_engine::transform::Sum;
use nimlab_engine::{grundy_table, Game, Result, Theorem};

const PARTS: [&str; 8] = ["g1", "g2", "g3", "g4", "g5", "g6", "g7", "g8"];

fn build(args: &Args) -> Result<Box<dyn Game>> {
    let mut parts = Vec::new();
    for key in PARTS {
        if let Some(spec) = args.optional_raw(key) {
            parts.push(crate::nplayer::refuse_inside("sum", parse_game(&spec)?)?);
        }
    }
    Ok(Box::new(Sum::new(parts)?))
}

fn theorems() -> Vec<Theorem> {
    vec![Theorem::new(
        "sum.sprague-grundy",
        "Sprague–Grundy: the value of a disjunctive sum is the nim sum of the parts' values",
        "R. P. Sprague, Über mathematische Kampfspiele, Tôhoku Math. J. 41 (1935); P. M. \
         Grundy, Mathematics and games, Eureka 2 (1939)",
        |ctx| {
            let n = ctx.size.min(24);
            let mut parts = Vec::new();
            for (a, b) in [("ryuoh(p=3)", "subtraction(s={1,3,4})"), ("wythoff", "nim")] {
                let (ga, gb) = (parse_game(a)?, parse_game(b)?);
                let sum = Sum::new(vec![parse_game(a)?, parse_game(b)?])?;
                let opts = ctx.table_options();
                let ta = grundy_table(&*ga, &ga.table_box(n), &opts)?;
                let tb = grundy_table(&*gb, &gb.table_box(n), &opts)?;
                let da = ga.dimension();
                let v = check_grundy_formula(&sum, &sum.table_box(n), ctx, |p| {
                    let va = ta.get(&p[..da]).unwrap_or(u32::MAX);
                    let vb = tb.get(&p[da..]).unwrap_or(u32::MAX);
                    (va ^ vb) as u64
                })?;
                parts.push((format!("sum({a},{b})"), v));
            }
            Ok(Verdict::all(parts))
        },
    )]
}

const fn part(name: &'static str, default: Option<&'static str>) -> Param {
    Param {
        name,
        kind: crate::GAME_KIND,
        default,
        example: Some("nim"),
        help: "a part of the sum",
    }
}

/// The `sum` family.
pub static FAMILY: Family = Family {
    name: "sum",
    summary: "Disjunctive sum of up to 8 games: a move is a move in exactly one part",
    params: &[
        part("g1", None),
        part("g2", None),
        part("g3", None),
        part("g4", None),
        part("g5", None),
        part("g6", None),
        part("g7", None),
        part("g8", None),
    ],
    position_syntax: "the parts' positions one after another (sum(wythoff,nim): x,y,h1,h2)",
    seed: "R. P. Sprague, Tôhoku Math. J. 41 (1935); P. M. Grundy, Eureka 2 (1939): the sum of \
         games",
    build,
    theorems,
    sweep: None,
};
