//! JSON of the teaching aids ([`nimlab_engine::classroom`]): a value explained and a
//! dealt set of challenges (the web explorer's `/api/explain` and `/api/challenge`).

use crate::{position_json, uint};
use nimlab_engine::big::BigUint;
use nimlab_engine::classroom::{Challenge, ValueExplanation};
use nimlab_engine::Game;
use serde_json::{json, Value};

/// `v` in binary, padded to `bits` digits (by hand: a formatting width is limited to
/// 65 535, and a heap of 30 000 decimal digits has about 100 000 binary ones).
fn binary(v: &BigUint, bits: usize) -> String {
    let digits = v.to_str_radix(2);
    format!("{}{digits}", "0".repeat(bits.saturating_sub(digits.len())))
}

/// Why a position has its value: `options` (position, grundy), `sorted_values`, `mex`,
/// `missing` (the values below the largest option value that no option has, the mex
/// first), `components` with `binary` columns and the nim-sum, `closed_form` text.
///
/// ```
/// use nimlab_engine::classroom::explain_value;
/// use nimlab_engine::TableOptions;
/// // Wythoff at 3,4 (value 2) plus a Nim heap of 5: 010 ⊕ 101 = 111.
/// let g = nimlab_games::parse_game("sum(wythoff,nim(heaps=1))").unwrap();
/// let pos = [3u32.into(), 4u32.into(), 5u32.into()];
/// let e = explain_value(&*g, &pos, &TableOptions::default()).unwrap();
/// let v = nimlab_json::classroom::explanation_json(&*g, &e);
/// assert_eq!(v["mex"], 7);
/// assert_eq!(v["nim_sum"]["rows"][0]["binary"], "010");
/// assert_eq!(v["nim_sum"]["rows"][1]["binary"], "101");
/// assert_eq!(v["nim_sum"]["binary"], "111");
/// ```
pub fn explanation_json(game: &dyn Game, e: &ValueExplanation) -> Value {
    let options: Vec<Value> = e
        .options
        .iter()
        .flatten()
        .map(|o| {
            json!({
                "position": position_json(game, &o.position),
                "grundy": o.grundy.as_ref().map(uint),
                "winning": o.winning,
            })
        })
        .collect();
    let nim_sum = if e.components.len() > 1 {
        let total = e
            .components
            .iter()
            .fold(BigUint::default(), |acc, c| acc ^ &c.grundy);
        let bits = e
            .components
            .iter()
            .map(|c| c.grundy.bits())
            .max()
            .unwrap_or(1)
            .max(1) as usize;
        json!({
            "rows": e.components.iter().map(|c| json!({
                "game": c.game,
                "position": c.position.iter().map(uint).collect::<Vec<_>>(),
                "grundy": uint(&c.grundy),
                "binary": binary(&c.grundy, bits),
            })).collect::<Vec<_>>(),
            "total": uint(&total),
            "binary": binary(&total, bits),
        })
    } else {
        Value::Null
    };
    json!({
        "game": game.spec(),
        "position": position_json(game, &e.position),
        "grundy": e.grundy.as_ref().map(uint),
        "outcome": e.outcome.as_str(),
        "options": e.options.as_ref().map(|_| options),
        "options_note": e.options_note,
        "sorted_values": e.sorted_values.iter().map(uint).collect::<Vec<_>>(),
        "mex": e.mex.as_ref().map(uint),
        "nim_sum": nim_sum,
        "closed_form": e.closed_form,
        "method": e.method.id(),
        "method_detail": e.method.detail,
    })
}

/// A dealt set: `difficulty`, `seed` and one object per challenge with `position`,
/// `question` (`outcome` or `winning-move`) and the answers (`outcome`, `grundy`,
/// `winning_moves`).
pub fn challenges_json(game: &dyn Game, difficulty: &str, seed: u64, list: &[Challenge]) -> Value {
    let pos = |p: &[u64]| -> Value {
        let big: Vec<BigUint> = p.iter().map(|&c| BigUint::from(c)).collect();
        position_json(game, &big)
    };
    json!({
        "game": game.spec(),
        "difficulty": difficulty,
        "seed": crate::int(seed),
        "challenges": list.iter().map(|c| json!({
            "position": pos(&c.position),
            "question": c.question.as_str(),
            "outcome": c.outcome.as_str(),
            "grundy": c.grundy,
            "winning_moves": c.winning_moves.iter().map(|m| pos(m)).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
    })
}
