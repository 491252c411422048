//! JSON of the teaching aids ([`nimlab_engine::classroom`]): a value explained and a
//! dealt set of challenges (the web explorer's `/api/explain` and `/api/challenge`).

use crate::doc::{to_value, Nat, Pos};
use nimlab_engine::big::BigUint;
use nimlab_engine::classroom::{Challenge, ValueExplanation};
use nimlab_engine::Game;
#[cfg(feature = "schema")]
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;

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
    to_value(&ExplanationDoc::new(game, e))
}

/// Why a position has its value (the document of [`explanation_json`]).
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
pub struct ExplanationDoc {
    /// The game's spec.
    pub game: String,
    /// The position.
    pub position: Pos,
    /// Its Grundy value.
    pub grundy: Option<Nat>,
    /// `P` or `N`.
    pub outcome: &'static str,
    /// Its options, when they are few enough to list.
    pub options: Option<Vec<OptionValueDoc>>,
    /// Why the options are not listed.
    pub options_note: Option<String>,
    /// The options' values, distinct, ascending.
    pub sorted_values: Vec<Nat>,
    /// The least value missing.
    pub mex: Option<Nat>,
    /// The components' values and their nim-sum, for a sum.
    pub nim_sum: Option<NimSumRowsDoc>,
    /// The game's own explanation of the value.
    pub closed_form: Option<String>,
    /// The method's id.
    pub method: &'static str,
    /// The method in words.
    pub method_detail: String,
}

/// One option and its value.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
pub struct OptionValueDoc {
    /// The position moved to.
    pub position: Pos,
    /// Its value.
    pub grundy: Option<Nat>,
    /// Whether moving there wins.
    pub winning: bool,
}

/// The components of a sum in binary, and their nim-sum.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
pub struct NimSumRowsDoc {
    /// One row per component.
    pub rows: Vec<NimSumRowDoc>,
    /// The nim-sum.
    pub total: Nat,
    /// The nim-sum in binary.
    pub binary: String,
}

/// One component of a sum.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
pub struct NimSumRowDoc {
    /// The component's game.
    pub game: String,
    /// Its position.
    pub position: Vec<Nat>,
    /// Its value.
    pub grundy: Nat,
    /// Its value in binary, padded like the others.
    pub binary: String,
}

impl ExplanationDoc {
    /// The document of an explanation.
    pub fn new(game: &dyn Game, e: &ValueExplanation) -> Self {
        let nat = |v: &BigUint| Nat(v.clone());
        let options = e.options.as_ref().map(|list| {
            list.iter()
                .map(|o| OptionValueDoc {
                    position: Pos::of(game, &o.position),
                    grundy: o.grundy.as_ref().map(nat),
                    winning: o.winning,
                })
                .collect()
        });
        let nim_sum = (e.components.len() > 1).then(|| {
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
            NimSumRowsDoc {
                rows: e
                    .components
                    .iter()
                    .map(|c| NimSumRowDoc {
                        game: c.game.clone(),
                        position: c.position.iter().map(nat).collect(),
                        grundy: nat(&c.grundy),
                        binary: binary(&c.grundy, bits),
                    })
                    .collect(),
                binary: binary(&total, bits),
                total: Nat(total),
            }
        });
        ExplanationDoc {
            game: game.spec(),
            position: Pos::of(game, &e.position),
            grundy: e.grundy.as_ref().map(nat),
            outcome: e.outcome.as_str(),
            options,
            options_note: e.options_note.clone(),
            sorted_values: e.sorted_values.iter().map(nat).collect(),
            mex: e.mex.as_ref().map(nat),
            nim_sum,
            closed_form: e.closed_form.clone(),
            method: e.method.id(),
            method_detail: e.method.detail.clone(),
        }
    }
}

/// A dealt set: `difficulty`, `seed` and one object per challenge with `position`,
/// `question` (`outcome` or `winning-move`) and the answers (`outcome`, `grundy`,
/// `winning_moves`).
pub fn challenges_json(game: &dyn Game, difficulty: &str, seed: u64, list: &[Challenge]) -> Value {
    to_value(&ChallengesDoc::new(game, difficulty, seed, list))
}

/// A dealt set of challenges (the document of [`challenges_json`]).
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
pub struct ChallengesDoc {
    /// The game's spec.
    pub game: String,
    /// `easy`, `medium` or `hard`.
    pub difficulty: String,
    /// The seed that dealt them.
    pub seed: Nat,
    /// The challenges.
    pub challenges: Vec<ChallengeDoc>,
}

/// One challenge and its answers.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
pub struct ChallengeDoc {
    /// The position.
    pub position: Pos,
    /// `outcome` ("P or N?") or `winning-move`.
    pub question: &'static str,
    /// `P` or `N`.
    pub outcome: &'static str,
    /// The position's value.
    pub grundy: u32,
    /// Every winning move.
    pub winning_moves: Vec<Pos>,
}

impl ChallengesDoc {
    /// The document of a dealt set.
    pub fn new(game: &dyn Game, difficulty: &str, seed: u64, list: &[Challenge]) -> Self {
        let pos = |p: &[u64]| -> Pos {
            let big: Vec<BigUint> = p.iter().map(|&c| BigUint::from(c)).collect();
            Pos::of(game, &big)
        };
        ChallengesDoc {
            game: game.spec(),
            difficulty: difficulty.to_string(),
            seed: Nat::from(seed),
            challenges: list
                .iter()
                .map(|c| ChallengeDoc {
                    position: pos(&c.position),
                    question: c.question.as_str(),
                    outcome: c.outcome.as_str(),
                    grundy: c.grundy,
                    winning_moves: c.winning_moves.iter().map(|m| pos(m)).collect(),
                })
                .collect(),
        }
    }
}
