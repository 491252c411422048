//! The answer documents: one serde type per query's answer, written identically by
//! the command line (`--format json`), the web API and Python (which serializes the same
//! document into dicts, lists and tuples; see [`NAT_DIGITS`] and [`Pos`]).
//!
//! Field order in the written JSON is alphabetical (serde_json's object map), after
//! `"schema"`; docs/json.md lists every field.

use crate::MAX_SAFE;
use nimlab_engine::big::BigUint;
use nimlab_engine::game::Game;
use nimlab_engine::nplayer::ClassReport;
use nimlab_engine::periodicity::Periodicity;
use nimlab_engine::plan::PositionReport;
use nimlab_engine::play::MoveChoice;
use nimlab_engine::position::Shown;
use nimlab_engine::theorem::{Theorem, Verdict};
#[cfg(feature = "schema")]
use schemars::JsonSchema;
use serde::{Serialize, Serializer};
use serde_json::Value;

/// The name under which a [`Nat`] past 2^53 − 1 serializes its decimal digits, as a
/// newtype struct: JSON writes the digits as a string (serde_json writes a newtype
/// struct as its content), and a serializer that builds numbers of any size (Python's
/// ints) reads the name and makes the number.
pub const NAT_DIGITS: &str = "nimlab::NatDigits";

/// A natural number of any size: a JSON number up to 2^53 − 1 and a string of its
/// decimal digits beyond (so that every JSON reader holds it exactly); see
/// [`NAT_DIGITS`] for serializers that hold any size.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Nat(pub BigUint);

impl From<u64> for Nat {
    fn from(n: u64) -> Self {
        Nat(BigUint::from(n))
    }
}

impl Serialize for Nat {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match u64::try_from(&self.0) {
            Ok(x) if x <= MAX_SAFE => s.serialize_u64(x),
            _ => s.serialize_newtype_struct(NAT_DIGITS, &self.0.to_str_radix(10)),
        }
    }
}

#[cfg(feature = "schema")]
impl JsonSchema for Nat {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Nat".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "A natural number: a JSON number up to 2^53 − 1, beyond it a string of decimal digits",
            "anyOf": [
                {"type": "integer", "minimum": 0, "maximum": 9007199254740991u64},
                {"type": "string", "pattern": "^[0-9]+$"}
            ]
        })
    }
}

/// The document as the JSON value every surface writes.
pub fn to_value<T: Serialize>(doc: &T) -> Value {
    serde_json::to_value(doc).expect("answer documents are plain data")
}

/// A position as its game shows it: its coordinates, one list per part for a sum whose
/// parts are take-and-break games (as `;` separates them in text), a board's picture, a
/// graph position's vertices, or the parts of a sum written in their own forms.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(untagged)]
pub enum Pos {
    /// The coordinates.
    Flat(#[serde(serialize_with = "tuple")] Vec<Nat>),
    /// One list of coordinates per part.
    Groups(#[serde(serialize_with = "tuple_of_tuples")] Vec<Vec<Nat>>),
    /// The game's own text (a board, rows joined by `/`).
    Text(String),
    /// The vertices left of a graph.
    Vertices {
        /// The vertices, in increasing order.
        vertices: Vec<u64>,
    },
    /// One position per part of a sum.
    Parts(#[serde(serialize_with = "tuple")] Vec<Pos>),
    /// A position and the pass flag.
    Flagged {
        /// The inner game's position.
        position: Box<Pos>,
        /// 1 when the previous move was a pass, else 0.
        flag: u64,
    },
}

/// A position's coordinates (or parts) serialize as a tuple: an array in JSON, a
/// Python tuple (hashable, as Python positions are) through the Python surface.
fn tuple<S: Serializer, T: Serialize>(items: &[T], s: S) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeTuple;
    let mut t = s.serialize_tuple(items.len())?;
    for item in items {
        t.serialize_element(item)?;
    }
    t.end()
}

fn tuple_of_tuples<S: Serializer>(groups: &[Vec<Nat>], s: S) -> Result<S::Ok, S::Error> {
    struct Group<'a>(&'a [Nat]);
    impl Serialize for Group<'_> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            tuple(self.0, s)
        }
    }
    let groups: Vec<Group<'_>> = groups.iter().map(|g| Group(g)).collect();
    tuple(&groups, s)
}

fn nats(p: &[BigUint]) -> Vec<Nat> {
    p.iter().cloned().map(Nat).collect()
}

impl Pos {
    /// `p` as `game` shows it.
    pub fn of(game: &dyn Game, p: &[BigUint]) -> Self {
        Self::shown(&game.show_position(p))
    }
    /// A shown position as JSON.
    pub fn shown(s: &Shown) -> Self {
        match s {
            Shown::Numbers(n) => Pos::Flat(nats(n)),
            Shown::Groups(g) => Pos::Groups(g.iter().map(|g| nats(g)).collect()),
            Shown::Text(t) => Pos::Text(t.clone()),
            Shown::Vertices(v) => Pos::Vertices {
                vertices: v.clone(),
            },
            Shown::Parts(p) => Pos::Parts(p.iter().map(Self::shown).collect()),
            Shown::Flagged(inner, flag) => Pos::Flagged {
                position: Box::new(Self::shown(inner)),
                flag: *flag,
            },
        }
    }
    /// The plain coordinates of `p`.
    pub fn flat(p: &[BigUint]) -> Self {
        Pos::Flat(nats(p))
    }
    /// Small coordinates.
    pub fn small(p: &[u64]) -> Self {
        Pos::Flat(p.iter().map(|&c| Nat::from(c)).collect())
    }
}

/// The answer of `value`, `moves` (and Python's `analyse`/`moves`): the game, the
/// position, what is known about it, and how.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
pub struct PositionDoc {
    /// The game's canonical spec.
    pub game: String,
    /// The position.
    pub position: Pos,
    /// Grundy value and outcome (two-player games) or class and ranks (n players).
    #[serde(flatten)]
    pub answer: Answer,
    /// The planner's method id, e.g. `closed-form`.
    pub method: &'static str,
    /// The method in words.
    pub method_detail: String,
    /// Every option (`moves` only, when they can be listed); null otherwise.
    pub options: Option<Vec<OptionDoc>>,
    /// Why the options are not listed, when they are not.
    pub options_note: Option<String>,
}

/// What a position's answer says.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(untagged)]
pub enum Answer {
    /// A two-player impartial game.
    Grundy {
        /// The Grundy value; null when only the outcome is known.
        grundy: Option<Nat>,
        /// `P` or `N`.
        outcome: &'static str,
        /// Moves to P-positions.
        winning_moves: Vec<Pos>,
        /// Whether `winning_moves` lists them all.
        all_winning_moves: bool,
    },
    /// A game of n players.
    NPlayer {
        /// Number of players.
        players: usize,
        /// The ranking, e.g. `normal`.
        ranking: String,
        /// The class (moves still to be played, mod n).
        class: u32,
        /// The rank of the player to move.
        rank: usize,
        /// `ranks[t]`: the rank of the t-th player to move.
        ranks: Vec<usize>,
        /// Moves that get the player to move its rank.
        best_moves: Vec<Pos>,
        /// Whether `best_moves` lists them all.
        all_best_moves: bool,
    },
}

/// One option of a position.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(untagged)]
pub enum OptionDoc {
    /// Of a two-player game.
    Grundy {
        /// The option.
        position: Pos,
        /// Its Grundy value (null when unknown).
        grundy: Option<Nat>,
        /// Whether moving there wins.
        winning: bool,
    },
    /// Of an n-player game.
    NPlayer {
        /// The option.
        position: Pos,
        /// Its class.
        class: u32,
        /// The rank the player to move gets by moving there.
        rank: usize,
    },
}

impl PositionDoc {
    /// The document of `r`, an answer about a position of `game`.
    ///
    /// ```
    /// use nimlab_engine::big::parse_big_position;
    /// use nimlab_engine::TableOptions;
    /// let g = nimlab_games::parse_game("nim").unwrap();
    /// let p = parse_big_position("3,5").unwrap();
    /// let r = nimlab_engine::plan::moves(&*g, &p, &TableOptions::default()).unwrap();
    /// let v = nimlab_json::doc::to_value(&nimlab_json::doc::PositionDoc::new(&*g, &r));
    /// assert_eq!((v["grundy"].as_u64(), v["outcome"].as_str()), (Some(6), Some("N")));
    /// assert_eq!(v["options"].as_array().unwrap().len(), 8);
    /// ```
    pub fn new(game: &dyn Game, r: &PositionReport) -> Self {
        if let Some(np) = &r.nplayer {
            return Self::nplayer(game, r, np);
        }
        PositionDoc {
            game: game.spec(),
            position: Pos::of(game, &r.position),
            answer: Answer::Grundy {
                grundy: r.grundy.clone().map(Nat),
                outcome: r.outcome.as_str(),
                winning_moves: r.winning_moves.iter().map(|m| Pos::of(game, m)).collect(),
                all_winning_moves: r.all_winning_moves,
            },
            method: r.method.id(),
            method_detail: r.method.detail.clone(),
            options: r.options.as_ref().map(|list| {
                list.iter()
                    .map(|o| OptionDoc::Grundy {
                        position: Pos::of(game, &o.position),
                        grundy: o.grundy.clone().map(Nat),
                        winning: o.winning,
                    })
                    .collect()
            }),
            options_note: r.options_note.clone(),
        }
    }

    fn nplayer(game: &dyn Game, r: &PositionReport, np: &ClassReport) -> Self {
        PositionDoc {
            game: game.spec(),
            position: Pos::of(game, &r.position),
            answer: Answer::NPlayer {
                players: np.players,
                ranking: np.ranking.clone(),
                class: np.class,
                rank: np.ranks[0],
                ranks: np.ranks.clone(),
                best_moves: np.best_moves.iter().map(|m| Pos::of(game, m)).collect(),
                all_best_moves: np.all_best_moves,
            },
            method: r.method.id(),
            method_detail: r.method.detail.clone(),
            options: np.options.as_ref().map(|list| {
                list.iter()
                    .map(|(p, c)| OptionDoc::NPlayer {
                        position: Pos::of(game, p),
                        class: *c,
                        rank: np.best_rank_after(*c),
                    })
                    .collect()
            }),
            options_note: r.options_note.clone(),
        }
    }
}

/// The computer's move (`nimlab play`, `/api/play`).
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
pub struct MoveDoc {
    /// The game's spec.
    pub game: String,
    /// The position moved from.
    pub from: Pos,
    /// The position moved to.
    pub to: Pos,
    /// The Grundy value of `to`, when known.
    pub grundy: Option<Nat>,
    /// Whether the move wins (`to` is a P-position).
    pub winning: bool,
    /// Remoteness of `to`, when known.
    pub remoteness: Option<Nat>,
    /// Whether the move was picked at random.
    pub random: bool,
    /// Why, in the game's terms.
    pub explanation: String,
}

impl MoveDoc {
    /// The document of the move `m` in `game`.
    pub fn new(game: &dyn Game, m: &MoveChoice) -> Self {
        let big = |p: &[u64]| -> Vec<BigUint> { p.iter().map(|&c| BigUint::from(c)).collect() };
        MoveDoc {
            game: game.spec(),
            from: Pos::of(game, &big(&m.from)),
            to: Pos::of(game, &big(&m.to)),
            grundy: m.grundy.clone().map(Nat),
            winning: m.winning,
            remoteness: m.remoteness.map(Nat::from),
            random: m.random,
            explanation: m.explanation.clone(),
        }
    }
}

/// One parameter of a family.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
pub struct ParamDoc {
    /// Its name in specs.
    pub name: &'static str,
    /// Its kind, e.g. `int`.
    pub kind: &'static str,
    /// Its default, if any.
    pub default: Option<&'static str>,
    /// A value to start from when there is no default (`t/2`, `nim`).
    pub example: Option<&'static str>,
    /// What it means.
    pub help: &'static str,
}

/// A theorem as the catalog lists it.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
pub struct TheoremRef {
    /// Its id, e.g. `ryuoh.thm-3.1`.
    pub id: String,
    /// What it states.
    pub statement: String,
}

/// One family of the catalog (`nimlab games`, `/api/games`, Python `games()`).
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
pub struct FamilyDoc {
    /// Name used in specs.
    pub name: &'static str,
    /// One line of description.
    pub summary: &'static str,
    /// Parameters in positional order.
    pub parameters: Vec<ParamDoc>,
    /// How positions are written.
    pub position: &'static str,
    /// Where the game comes from.
    pub source: &'static str,
    /// The family's theorems.
    pub theorems: Vec<TheoremRef>,
    /// What the default instance can do.
    pub capabilities: Vec<&'static str>,
    /// Where the family belongs in a list: `game`, `transform` (built from other
    /// games: misère, pass, sums, n players) or `file` (read from a rules file).
    pub group: &'static str,
}

impl FamilyDoc {
    /// The document of family `f`.
    pub fn new(f: &nimlab_games::Family) -> Self {
        FamilyDoc {
            name: f.name,
            summary: f.summary,
            parameters: f
                .params
                .iter()
                .map(|p| ParamDoc {
                    name: p.name,
                    kind: p.kind,
                    default: p.default,
                    example: p.example,
                    help: p.help,
                })
                .collect(),
            position: f.position_syntax,
            source: f.seed,
            theorems: (f.theorems)()
                .into_iter()
                .map(|t| TheoremRef {
                    id: t.id,
                    statement: t.statement,
                })
                .collect(),
            capabilities: crate::family_capabilities(f),
            group: f.group().name(),
        }
    }
}

/// The catalog: `{"games": [...]}`.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
pub struct CatalogDoc {
    /// One document per family.
    pub games: Vec<FamilyDoc>,
}

/// A registered theorem (`nimlab theorems`, Python `theorems()`).
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
pub struct TheoremDoc {
    /// Its id.
    pub id: String,
    /// What it states.
    pub statement: String,
    /// The paper it comes from.
    pub source: String,
    /// The games for which it is stated as a claim that automata can prove for all
    /// positions (`theorems prove`); empty when it is verified on windows only.
    pub provable_for: Vec<String>,
}

impl TheoremDoc {
    /// The document of `t`.
    pub fn new(t: &Theorem) -> Self {
        TheoremDoc {
            id: t.id.clone(),
            statement: t.statement.clone(),
            source: t.source.clone(),
            provable_for: t.claims.iter().map(|c| c.game.clone()).collect(),
        }
    }
}

/// The theorem list: `{"theorems": [...]}`.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
pub struct TheoremsDoc {
    /// Every theorem.
    pub theorems: Vec<TheoremDoc>,
}

/// A theorem's verdict on a window (`nimlab theorems verify`, Python `verify()`).
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
pub struct VerdictDoc {
    /// The theorem's id.
    pub id: String,
    /// Whether it held.
    pub holds: bool,
    /// The window, when it held.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub window: Option<String>,
    /// How many cases were checked, when it held.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub checked: Option<Nat>,
    /// The counterexample, when it failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub counterexample: Option<String>,
}

impl VerdictDoc {
    /// The document of theorem `id`'s verdict `v`.
    pub fn new(id: &str, v: &Verdict) -> Self {
        let (window, checked, counterexample) = match v {
            Verdict::Holds { window, checked } => {
                (Some(window.clone()), Some(Nat::from(*checked)), None)
            }
            Verdict::Fails { counterexample } => (None, None, Some(counterexample.clone())),
        };
        VerdictDoc {
            id: id.to_string(),
            holds: v.holds(),
            window,
            checked,
            counterexample,
        }
    }
}

/// All verdicts: `{"holds": all held, "results": [...]}`.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
pub struct VerifyDoc {
    /// Whether every theorem held.
    pub holds: bool,
    /// One verdict per theorem.
    pub results: Vec<VerdictDoc>,
}

/// One mismatch of a check.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
pub struct MismatchDoc {
    /// The position.
    pub position: Vec<Nat>,
    /// Its Grundy value (a two-player game).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub grundy: Option<u32>,
    /// Its class index (an n-player game: 0 is the class of positions the previous
    /// player wins, as in the game's tables).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub class: Option<u32>,
    /// What the formula (or predicate: 0 false, else true) gave.
    pub formula: i64,
}

/// The answer of `check` (`/api/check`, Python `Game.check`).
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
pub struct CheckDoc {
    /// The game's spec.
    pub game: String,
    /// `formula` (a Grundy value) or `p_positions` (a predicate).
    pub claim: &'static str,
    /// The claim's text.
    pub formula: String,
    /// What the table holds and a formula is compared with: `grundy` (Grundy values) or
    /// `class` (the class indices of an n-player game).
    pub compared: &'static str,
    /// The box: coordinate i runs over 0..`box[i]`.
    #[serde(rename = "box")]
    pub dims: Vec<usize>,
    /// Positions compared.
    pub checked: Nat,
    /// Whether no position mismatched.
    pub holds: bool,
    /// How many mismatched.
    pub mismatch_count: Nat,
    /// The first mismatches.
    pub mismatches: Vec<MismatchDoc>,
}

impl CheckDoc {
    /// The document of the check `c` of `game`.
    pub fn new(game: &dyn Game, c: &nimlab_formula::check::Checked) -> Self {
        let r = &c.report;
        let classes = game.capabilities().nplayer.is_some();
        CheckDoc {
            game: game.spec(),
            claim: c.claim.id(),
            formula: c.text.clone(),
            compared: if classes { "class" } else { "grundy" },
            dims: c.dims.clone(),
            checked: Nat::from(r.checked),
            holds: r.mismatch_count == 0,
            mismatch_count: Nat::from(r.mismatch_count),
            mismatches: r
                .mismatches
                .iter()
                .map(|m| MismatchDoc {
                    position: m.position.iter().map(|&c| Nat::from(c)).collect(),
                    grundy: (!classes).then_some(m.grundy),
                    class: classes.then_some(m.grundy),
                    formula: m.formula,
                })
                .collect(),
        }
    }
}

/// The answer of `periodicity` for a one-heap game (nulls when no period was found).
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
pub struct PeriodicityDoc {
    /// The game's spec.
    pub game: String,
    /// Length of the preperiod.
    pub preperiod: Option<u64>,
    /// The period.
    pub period: Option<u64>,
    /// The saltus (0 for a pure period).
    pub saltus: Option<i64>,
    /// Preperiod and first block of values.
    pub values: Option<Vec<u32>>,
    /// One block of the period.
    pub block: Option<Vec<u32>>,
    /// Whether the period is proven.
    pub proven: bool,
    /// Why, when proven.
    pub proof: Option<String>,
    /// Heaps below this were computed.
    pub checked_up_to: Nat,
    /// The planner's method id.
    pub method: &'static str,
}

impl PeriodicityDoc {
    /// The document of what the search found (`None`: nothing below `searched`).
    pub fn new(
        game: &dyn Game,
        found: Option<&Periodicity>,
        method: &'static str,
        searched: u64,
    ) -> Self {
        PeriodicityDoc {
            game: game.spec(),
            preperiod: found.map(|p| p.preperiod),
            period: found.map(|p| p.period),
            saltus: found.map(|p| p.saltus),
            values: found.map(|p| p.values.clone()),
            block: found.map(|p| p.block().to_vec()),
            proven: found.is_some_and(|p| p.proof.is_some()),
            proof: found.and_then(|p| p.proof.clone()),
            checked_up_to: Nat::from(found.map_or(searched, |p| p.checked_up_to)),
            method,
        }
    }
}

/// One row's period of a two-coordinate game: G(x + period, y) = G(x, y) + saltus.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
pub struct RowPeriodDoc {
    /// The row y.
    pub row: Nat,
    /// Length of the preperiod.
    pub preperiod: Option<u64>,
    /// The period.
    pub period: Option<u64>,
    /// The saltus.
    pub saltus: Option<i64>,
    /// The row's values.
    pub values: Option<Vec<u32>>,
    /// Always false: rows are observed.
    pub proven: bool,
    /// x below this was computed.
    pub checked_up_to: Nat,
}

/// The answer of `periodicity --row`: one document per row.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
pub struct RowsDoc {
    /// The game's spec.
    pub game: String,
    /// x below this was computed.
    pub checked_up_to: Nat,
    /// Always false: rows are observed.
    pub proven: bool,
    /// One per row.
    pub rows: Vec<RowPeriodDoc>,
}

impl RowsDoc {
    /// The document of the rows' periods observed on x < `up_to`.
    pub fn new(game: &dyn Game, up_to: u64, rows: &[(u64, Option<Periodicity>)]) -> Self {
        RowsDoc {
            game: game.spec(),
            checked_up_to: Nat::from(up_to),
            proven: false,
            rows: rows
                .iter()
                .map(|(y, p)| RowPeriodDoc {
                    row: Nat::from(*y),
                    preperiod: p.as_ref().map(|p| p.preperiod),
                    period: p.as_ref().map(|p| p.period),
                    saltus: p.as_ref().map(|p| p.saltus),
                    values: p.as_ref().map(|p| p.values.clone()),
                    proven: false,
                    checked_up_to: Nat::from(p.as_ref().map_or(up_to, |p| p.checked_up_to)),
                })
                .collect(),
        }
    }
}

/// The verdict on a certificate (`nimlab certify`, `/api/certify`, Python `certify`).
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
pub struct CertifyDoc {
    /// Where the certificate came from (a file name).
    pub file: String,
    /// The game's spec.
    pub game: String,
    /// Whether the claim holds.
    pub holds: bool,
    /// The claimed preperiod.
    pub preperiod: Nat,
    /// The claimed period.
    pub period: Nat,
    /// Every value below this was checked.
    pub bound: Nat,
    /// The SHA-256 of the values.
    pub sha256: String,
    /// The first failing fact, when the claim is false.
    pub refuted: Option<String>,
}

impl CertifyDoc {
    /// The document of verdict `v` on the certificate named `file`.
    pub fn new(file: &str, v: &crate::certificate::Verdict) -> Self {
        let c = &v.certificate;
        CertifyDoc {
            file: file.to_string(),
            game: c.spec.clone(),
            holds: v.refuted.is_none(),
            preperiod: Nat::from(c.claim.preperiod),
            period: Nat::from(c.claim.period),
            bound: Nat::from(v.bound),
            sha256: c.sha256.clone(),
            refuted: v.refuted.clone(),
        }
    }
}
