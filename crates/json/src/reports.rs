//! The answer documents of the research commands that are not planner queries — a
//! Sprague–Grundy system check, the staircase chocolate bar's condition (a), Wythoff's
//! pairs with their codes, the seed theorems proved by automata — and the error
//! document every surface writes. Each is a serde type built from the library's report,
//! so that the command line, the web API and Python write the same keys.
//!
//! ```
//! use nimlab_json::doc::to_value;
//! use nimlab_json::reports::WythoffPairDoc;
//! use nimlab_games::wythoff::strategy::wythoff_pair;
//! let row = to_value(&WythoffPairDoc::new(&wythoff_pair(1)));
//! assert_eq!(row["p"], 1);
//! assert_eq!(row["q"], 2);
//! ```

use crate::doc::Nat;
use nimlab_games::chocolate_staircase::{ConditionReport, ConditionWitness};
use nimlab_games::sg_system::{MaximalReport, MinimalReport, SystemReport, Violation};
use nimlab_games::wythoff::strategy::WythoffPair;
#[cfg(feature = "schema")]
use schemars::JsonSchema;
use serde::Serialize;

fn nats(v: &[u64]) -> Vec<Nat> {
    v.iter().map(|&x| Nat::from(x)).collect()
}

/// An error as every surface writes it: `{"error": {"kind": …, "message": …}}`.
///
/// ```
/// use nimlab_json::reports::ErrorDoc;
/// let v = nimlab_json::doc::to_value(&ErrorDoc::new("input", "bad heap"));
/// assert_eq!(v["error"]["kind"], "input");
/// ```
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
pub struct ErrorDoc {
    /// The error.
    pub error: ErrorBody,
}

/// The kind and message of an [`ErrorDoc`].
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
pub struct ErrorBody {
    /// What kind of error: `input`, `too-large`, `io`, …
    pub kind: String,
    /// One line for people.
    pub message: String,
}

impl ErrorDoc {
    /// The document of an error of `kind`.
    pub fn new(kind: impl Into<String>, message: impl Into<String>) -> Self {
        ErrorDoc {
            error: ErrorBody {
                kind: kind.into(),
                message: message.into(),
            },
        }
    }
}

/// One row of `wythoff-pairs`: n, p_n, q_n and their Zeckendorf codes.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
pub struct WythoffPairDoc {
    /// The index n.
    pub n: Nat,
    /// φ(n).
    pub n_code: String,
    /// p_n.
    pub p: Nat,
    /// φ(p_n).
    pub p_code: String,
    /// q_n = p_n + n.
    pub q: Nat,
    /// φ(q_n).
    pub q_code: String,
}

impl WythoffPairDoc {
    /// The row of a pair.
    pub fn new(r: &WythoffPair) -> Self {
        WythoffPairDoc {
            n: Nat(r.n.clone()),
            n_code: r.n_code.clone(),
            p: Nat(r.p.clone()),
            p_code: r.p_code.clone(),
            q: Nat(r.q.clone()),
            q_code: r.q_code.clone(),
        }
    }
}

/// The answer of the staircase chocolate bar's condition check: condition (a) on f
/// and the nim-sum law G = y ⊕ z on the same window, and whether they agree as the
/// theorem `chocolate-staircase.condition-a` says.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
pub struct ChocolateConditionDoc {
    /// f(t), as given.
    pub f: String,
    /// The window: t < window.
    pub window: u64,
    /// f(0), …, f(window − 1).
    pub values: Vec<u64>,
    /// Condition (a).
    pub condition_a: ConditionADoc,
    /// The nim-sum law.
    pub nim_sum: NimSumDoc,
    /// Whether the two answers agree as the theorem says.
    pub agree: bool,
    /// The theorem's id.
    pub theorem: &'static str,
}

/// Condition (a) on the window.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
pub struct ConditionADoc {
    /// Whether it holds.
    pub holds: bool,
    /// Where it first fails.
    pub witness: Option<WitnessDoc>,
}

/// Where condition (a) first fails.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
pub struct WitnessDoc {
    /// The smaller argument.
    pub u: u64,
    /// The larger argument.
    pub w: u64,
    /// The exponent.
    pub n: u32,
    /// f(u).
    pub f_u: u64,
    /// f(w).
    pub f_w: u64,
    /// The witness in words.
    pub text: String,
}

impl WitnessDoc {
    fn new(w: &ConditionWitness) -> Self {
        WitnessDoc {
            u: w.u,
            w: w.w,
            n: w.n,
            f_u: w.f_u,
            f_w: w.f_w,
            text: w.describe(),
        }
    }
}

/// The nim-sum law on the window.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
pub struct NimSumDoc {
    /// Whether G = y ⊕ z at every position compared.
    pub holds: bool,
    /// The first position where it does not.
    pub first_mismatch: Option<NimSumMismatchDoc>,
    /// Positions compared.
    pub checked: u64,
}

/// A position {y, z} with G ≠ y ⊕ z.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
pub struct NimSumMismatchDoc {
    /// [y, z].
    pub position: [u64; 2],
    /// G(y, z).
    pub grundy: u32,
    /// y ⊕ z.
    pub nim_sum: u64,
}

impl ChocolateConditionDoc {
    /// The document of a condition check of `f`.
    pub fn new(f: &str, r: &ConditionReport) -> Self {
        ChocolateConditionDoc {
            f: f.to_string(),
            window: r.window,
            values: r.values.clone(),
            condition_a: ConditionADoc {
                holds: r.witness.is_none(),
                witness: r.witness.as_ref().map(WitnessDoc::new),
            },
            nim_sum: NimSumDoc {
                holds: r.mismatch.is_none(),
                first_mismatch: r.mismatch.map(|(y, z, g)| NimSumMismatchDoc {
                    position: [y, z],
                    grundy: g,
                    nim_sum: y ^ z,
                }),
                checked: r.checked,
            },
            agree: r.agrees(),
            theorem: "chocolate-staircase.condition-a",
        }
    }
}

/// The answer of a Sprague–Grundy system check: does the move set C satisfy (SG1)
/// and (SG2) for φ at every position of the box, and (when asked) the minimal
/// systems inside C and the comparison with A^β.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
pub struct SgSystemDoc {
    /// φ, as read.
    pub phi: String,
    /// C, as read.
    pub moves: String,
    /// The number of heaps m.
    pub dim: usize,
    /// The side N of the box.
    pub size: Nat,
    /// The box, `[0,N)^m`.
    pub window: String,
    /// The condition defining P, if given.
    pub positions: Option<String>,
    /// Whether (SG1) and (SG2) hold on the whole box.
    pub holds: bool,
    /// Positions of P checked.
    pub positions_checked: Nat,
    /// The first violation.
    pub violation: Option<ViolationDoc>,
    /// What the check shows (a box, not a proof).
    pub note: String,
    /// The minimal systems inside C, when asked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub minimal: Option<MinimalDoc>,
    /// The comparison with A^β and C^β, when asked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub maximal: Option<MaximalDoc>,
}

/// What a system check asked, besides the report: the texts of φ, C and P.
#[derive(Debug, Clone)]
pub struct SgSystemQueryText {
    /// φ.
    pub phi: String,
    /// C.
    pub moves: String,
    /// m.
    pub dim: usize,
    /// N.
    pub size: u64,
    /// P, if given.
    pub positions: Option<String>,
    /// What the check shows.
    pub note: String,
}

impl SgSystemDoc {
    /// The document of a check, with the minimal systems (and Theorem 4.4's predicted
    /// weight) and the comparison with A^β when they were computed.
    pub fn new(
        query: SgSystemQueryText,
        report: &SystemReport,
        minimal: Option<(&MinimalReport, Option<u64>)>,
        maximal: Option<&MaximalReport>,
    ) -> Self {
        SgSystemDoc {
            phi: query.phi,
            moves: query.moves,
            dim: query.dim,
            size: Nat::from(query.size),
            window: report.window.clone(),
            positions: query.positions,
            holds: report.holds(),
            positions_checked: Nat::from(report.positions),
            violation: report.violation.as_ref().map(ViolationDoc::new),
            note: query.note,
            minimal: minimal.map(|(m, predicted)| MinimalDoc::new(m, predicted)),
            maximal: maximal.map(MaximalDoc::new),
        }
    }
}

/// The first position where (SG1) or (SG2) fails, or where φ is undefined.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(tag = "condition")]
pub enum ViolationDoc {
    /// A move lands on a position of the same value.
    #[serde(rename = "SG1")]
    Sg1 {
        /// X.
        position: Vec<Nat>,
        /// The move C.
        #[serde(rename = "move")]
        mv: Vec<i64>,
        /// X − C.
        target: Vec<Nat>,
        /// φ(X) = φ(X − C).
        value: Nat,
    },
    /// A smaller value is not reached.
    #[serde(rename = "SG2")]
    Sg2 {
        /// X.
        position: Vec<Nat>,
        /// φ(X).
        value: Nat,
        /// The least value below φ(X) that no move reaches.
        missing: Nat,
    },
    /// φ is undefined where the check needs it.
    #[serde(rename = "undefined")]
    Undefined {
        /// The position.
        position: Vec<Nat>,
    },
}

impl ViolationDoc {
    fn new(v: &Violation) -> Self {
        match v {
            Violation::Sg1 {
                position,
                mv,
                target,
                value,
            } => ViolationDoc::Sg1 {
                position: nats(position),
                mv: mv.clone(),
                target: nats(target),
                value: Nat::from(*value),
            },
            Violation::Sg2 {
                position,
                value,
                missing,
            } => ViolationDoc::Sg2 {
                position: nats(position),
                value: Nat::from(*value),
                missing: Nat::from(*missing),
            },
            Violation::Undefined { position } => ViolationDoc::Undefined {
                position: nats(position),
            },
        }
    }
}

/// The minimal systems inside a move set (Theorem 4.4).
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
pub struct MinimalDoc {
    /// Moves of the set inside the box.
    pub moves_in_box: usize,
    /// Moves every system inside the set needs.
    pub necessary: Vec<Vec<Nat>>,
    /// Whether the necessary moves alone form a system.
    pub necessary_form_a_system: bool,
    /// A minimal system found greedily.
    pub greedy_minimal: Vec<Vec<Nat>>,
    /// The set's weight.
    pub weight: usize,
    /// The greedy minimal system's weight.
    pub greedy_minimal_weight: usize,
    /// The least weight of a system inside the set.
    pub least_weight: usize,
    /// The weight Theorem 4.4 predicts (φ = σ^β).
    pub theorem_4_4_weight: Option<u64>,
}

impl MinimalDoc {
    fn new(m: &MinimalReport, predicted: Option<u64>) -> Self {
        let moves = |v: &[Vec<u64>]| v.iter().map(|c| nats(c)).collect();
        MinimalDoc {
            moves_in_box: m.moves_in_box,
            necessary: moves(&m.necessary),
            necessary_form_a_system: m.necessary_suffice,
            greedy_minimal: moves(&m.minimal),
            weight: m.weight,
            greedy_minimal_weight: m.minimal_weight,
            least_weight: m.least_weight,
            theorem_4_4_weight: predicted,
        }
    }
}

/// A move set compared with the maximum positive system A^β and with C^β.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
pub struct MaximalDoc {
    /// β.
    pub beta: String,
    /// Moves of the box in the set.
    pub moves_in_set: Nat,
    /// Moves of the box in A^β.
    pub moves_in_a_beta: Nat,
    /// Moves of the box in C^β.
    pub moves_in_c_beta: Nat,
    /// Whether the set is A^β on the box.
    pub set_equals_a_beta: bool,
    /// A move of the set outside A^β.
    pub in_set_not_a_beta: Option<Vec<u64>>,
    /// A move of A^β missing from the set.
    pub in_a_beta_not_set: Option<Vec<u64>>,
    /// A move of A^β outside C^β.
    pub in_a_beta_not_c_beta: Option<Vec<u64>>,
}

impl MaximalDoc {
    fn new(x: &MaximalReport) -> Self {
        MaximalDoc {
            beta: x.beta.to_string(),
            moves_in_set: Nat::from(x.in_set),
            moves_in_a_beta: Nat::from(x.in_a_beta),
            moves_in_c_beta: Nat::from(x.in_c_beta),
            set_equals_a_beta: x.outside_a_beta.is_none() && x.missing_from_set.is_none(),
            in_set_not_a_beta: x.outside_a_beta.clone(),
            in_a_beta_not_set: x.missing_from_set.clone(),
            in_a_beta_not_c_beta: x.a_not_c.clone(),
        }
    }
}

/// The answer of `theorems prove`: each claim of the seed theorems proved (or
/// refuted) for all positions by automata.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
pub struct TheoremProofsDoc {
    /// Whether every claim was proved.
    pub proved: bool,
    /// One entry per claim.
    pub results: Vec<TheoremProofDoc>,
}

/// One claim of a seed theorem and what the prover found.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
pub struct TheoremProofDoc {
    /// The theorem's id.
    pub id: String,
    /// The game.
    pub game: String,
    /// The claimed formula.
    pub formula: String,
    /// Whether the formula is a P-position predicate (else the Grundy value).
    pub p_positions: bool,
    /// The numeration system the automata read.
    pub numeration: String,
    /// Whether the claim was proved for all positions.
    pub proved: bool,
    /// Seconds the proof took.
    pub seconds: f64,
}

/// What the explorer needs to draw a game: its coordinates, capabilities, how its
/// positions are written, its start, and the claims of its rules file.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
pub struct GameInfoDoc {
    /// The game's spec.
    pub game: String,
    /// The number of coordinates.
    pub dimension: usize,
    /// The coordinates' names.
    pub coordinate_names: Vec<String>,
    /// The capabilities' names.
    pub capabilities: Vec<&'static str>,
    /// Whether positions are written as numbers.
    pub writes_numbers: bool,
    /// The start position, written, when the game has one.
    pub start: Option<String>,
    /// The closed form a rules file declares.
    pub closed_form: Option<String>,
    /// The P-position predicate a rules file declares.
    pub p_positions: Option<String>,
    /// The rules in one sentence, from the catalog (none for a rules file).
    pub rules: Option<&'static str>,
    /// The functions a formula about the game may call (its variables are the
    /// coordinates' names).
    pub formula_functions: &'static [&'static str],
    /// The catalog family the spec names (`rules` for a rules file; none when the spec
    /// cannot be read back).
    pub family: Option<&'static str>,
    /// The spec's arguments by parameter name (positional ones named by the family's
    /// parameters in order), as written: `ryuoh(p=3)` → `[{name: "p", value: "3"}]`.
    pub arguments: Vec<ArgumentDoc>,
}

/// One argument of a game's spec.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
pub struct ArgumentDoc {
    /// The parameter's name.
    pub name: String,
    /// Its value as written.
    pub value: String,
}

/// The family a spec names and its arguments by name; `(None, [])` when the spec names
/// no family of the catalog.
fn spec_arguments(spec: &str) -> (Option<&'static str>, Vec<ArgumentDoc>) {
    let Ok(parsed) = nimlab_games::spec::parse_spec(spec) else {
        return (None, Vec::new());
    };
    let Ok(family) = nimlab_games::family(&parsed.name) else {
        return (None, Vec::new());
    };
    let arguments = parsed
        .args
        .iter()
        .enumerate()
        .filter_map(|(i, (key, value))| {
            let name = match key {
                Some(k) => k.clone(),
                None => family.params.get(i)?.name.to_string(),
            };
            Some(ArgumentDoc {
                name,
                value: value.clone(),
            })
        })
        .collect();
    (Some(family.name), arguments)
}

impl GameInfoDoc {
    /// The document of a game loaded from the catalog or a rules file.
    ///
    /// ```
    /// let source = nimlab_games::source::load(Some("wythoff"), None).unwrap();
    /// let info = nimlab_json::reports::GameInfoDoc::new(&source);
    /// assert_eq!(info.dimension, 2);
    /// let source = nimlab_games::source::load(Some("ryuoh(4)"), None).unwrap();
    /// let info = nimlab_json::reports::GameInfoDoc::new(&source);
    /// assert_eq!(info.family, Some("ryuoh"));
    /// assert_eq!((info.arguments[0].name.as_str(), info.arguments[0].value.as_str()), ("p", "4"));
    /// ```
    pub fn new(source: &nimlab_games::source::GameSource) -> Self {
        let game = &*source.game;
        let (family, arguments) = spec_arguments(&game.spec());
        GameInfoDoc {
            game: game.spec(),
            dimension: game.dimension(),
            coordinate_names: game.coordinate_names(),
            capabilities: game.capabilities().names(),
            writes_numbers: game.form().writes_numbers(),
            start: game
                .start_position()
                .map(|p| nimlab_engine::plan::write_position(game, &p)),
            closed_form: source.closed_form.clone(),
            p_positions: source.p_positions.clone(),
            rules: nimlab_games::rules_of(&game.spec()),
            formula_functions: nimlab_formula::FUNCTIONS,
            family,
            arguments,
        }
    }
}

/// A chocolate-bar position drawn as columns, with each option's eaten squares.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
pub struct BarDoc {
    /// The game's spec.
    pub game: String,
    /// The position.
    pub position: crate::doc::Pos,
    /// One line naming the bar.
    pub caption: String,
    /// The columns, left to right.
    pub columns: Vec<BarColumnDoc>,
    /// The position's Grundy value.
    pub grundy: Option<Nat>,
    /// `P` or `N`.
    pub outcome: &'static str,
    /// Every option with the squares it eats.
    pub options: Vec<BarOptionDoc>,
}

/// One column of a bar.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
pub struct BarColumnDoc {
    /// The column's index (0 holds the bitter square).
    pub index: i64,
    /// Squares in the column.
    pub height: u64,
    /// The column's height before anything is cut from above.
    pub limit: Option<u64>,
}

/// One option of a bar position.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
pub struct BarOptionDoc {
    /// The position moved to.
    pub position: crate::doc::Pos,
    /// Its Grundy value.
    pub grundy: Option<Nat>,
    /// Whether it is a winning move.
    pub winning: bool,
    /// The squares eaten: (column, row).
    pub eaten: Vec<(i64, u64)>,
}

impl BarColumnDoc {
    /// The document of a picture's column.
    pub fn new(c: &nimlab_engine::picture::SquareColumn) -> Self {
        BarColumnDoc {
            index: c.index,
            height: c.height,
            limit: c.limit,
        }
    }
}

/// A worksheet of a table: LaTeX documents (tabular and TikZ) and SVG pictures of
/// the exercise and of the answers.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
pub struct WorksheetDoc {
    /// The game's spec.
    pub game: String,
    /// The table's box.
    #[serde(rename = "box")]
    pub dims: Vec<usize>,
    /// Cells left empty for the pupils.
    pub blanked: usize,
    /// The whole document with tabulars.
    pub latex: String,
    /// The whole document with TikZ pictures.
    pub tikz: String,
    /// The exercise as SVG.
    pub svg: String,
    /// The answers as SVG.
    pub svg_answers: String,
}

impl WorksheetDoc {
    /// The document of a worksheet.
    pub fn new(
        game: String,
        dims: Vec<usize>,
        blanked: usize,
        w: &crate::worksheet::Worksheet,
    ) -> Self {
        WorksheetDoc {
            game,
            dims,
            blanked,
            latex: w.latex_document(false),
            tikz: w.latex_document(true),
            svg: w.svg(false),
            svg_answers: w.svg(true),
        }
    }
}

/// A misère quotient: sizes, presentation, every element's word and P-status, each
/// heap's element and nim value, and the multiplication table.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
pub struct MisereQuotientDoc {
    /// The game's spec.
    pub game: String,
    /// The largest heap the quotient covers.
    pub max_heap: u64,
    /// Elements.
    pub size: usize,
    /// Elements of the P-portion.
    pub p_size: usize,
    /// Whether the quotient is tame.
    pub tame: bool,
    /// The presentation, as text.
    pub presentation: String,
    /// The generators and their heaps.
    pub generators: Vec<GeneratorDoc>,
    /// The relations.
    pub relations: Vec<RelationDoc>,
    /// The words of the P-portion.
    pub p_portion: Vec<String>,
    /// The heaps at which the quotient changed.
    pub changes: Vec<u64>,
    /// Every element.
    pub elements: Vec<ElementDoc>,
    /// Every heap's element.
    pub heaps: Vec<HeapElementDoc>,
    /// The multiplication table, by element index.
    pub table: Vec<Vec<u32>>,
    /// The method's id.
    pub method: &'static str,
}

/// A generator of a quotient.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
pub struct GeneratorDoc {
    /// Its name (`a`, `b`, …).
    pub name: String,
    /// The heap it stands for.
    pub heap: u64,
}

/// A relation `lhs = rhs`.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
pub struct RelationDoc {
    /// The left side.
    pub lhs: String,
    /// The right side.
    pub rhs: String,
}

/// An element of a quotient.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
pub struct ElementDoc {
    /// Its index in the table.
    pub index: u32,
    /// Its word.
    pub word: String,
    /// Whether it is in the P-portion.
    pub p: bool,
}

/// A heap's element.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
pub struct HeapElementDoc {
    /// The heap.
    pub heap: usize,
    /// Its element's index.
    pub element: u32,
    /// Its element's word.
    pub word: String,
    /// Whether the element is in the P-portion.
    pub p: bool,
    /// The heap's nim value.
    pub nim: u32,
}

impl MisereQuotientDoc {
    /// The document of a quotient of `spec`.
    pub fn new(spec: &str, q: &nimlab_engine::misere_quotient::MisereQuotient) -> Self {
        use nimlab_engine::monoid::{format_word, generator_name};
        let n = q.size();
        MisereQuotientDoc {
            game: spec.to_string(),
            max_heap: q.max_heap(),
            size: q.size(),
            p_size: q.p_size(),
            tame: q.is_tame(),
            presentation: q.presentation.to_string(),
            generators: q
                .generator_heaps
                .iter()
                .enumerate()
                .map(|(i, &heap)| GeneratorDoc {
                    name: generator_name(i),
                    heap,
                })
                .collect(),
            relations: q
                .presentation
                .relations
                .iter()
                .map(|(l, r)| RelationDoc {
                    lhs: format_word(l),
                    rhs: format_word(r),
                })
                .collect(),
            p_portion: (0..n as u32)
                .filter(|&x| q.p_portion[x as usize])
                .map(|x| q.word(x))
                .collect(),
            changes: q.changes.clone(),
            elements: (0..n as u32)
                .map(|x| ElementDoc {
                    index: x,
                    word: q.word(x),
                    p: q.p_portion[x as usize],
                })
                .collect(),
            heaps: q
                .heap_elements
                .iter()
                .enumerate()
                .map(|(h, &x)| HeapElementDoc {
                    heap: h,
                    element: x,
                    word: q.word(x),
                    p: q.p_portion[x as usize],
                    nim: q.nim_sequence[h],
                })
                .collect(),
            table: q.monoid.table().chunks(n).map(|r| r.to_vec()).collect(),
            method: "misere-quotient",
        }
    }
}

/// The answer of a proof by automata: the claim, the automata's sizes, each statement
/// decided, and the verdict. Positions are strings of digits (any size).
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
pub struct ProofDoc {
    /// The game's spec.
    pub game: String,
    /// `formula` (a Grundy formula) or `p_positions` (a predicate).
    pub claim: &'static str,
    /// The formula or predicate.
    pub text: String,
    /// How the automata read numbers.
    pub numeration: String,
    /// The move relation's formula.
    pub moves: String,
    /// The positions' formula, if the game restricts them.
    pub positions: Option<String>,
    /// The automata built.
    pub automata: Vec<AutomatonDoc>,
    /// The statements decided.
    pub statements: Vec<StatementDoc>,
    /// The verdict.
    pub result: ProofResultDoc,
    /// Seconds the proof took.
    pub seconds: f64,
}

/// An automaton and its size.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
pub struct AutomatonDoc {
    /// Its name.
    pub name: String,
    /// Its tracks.
    pub tracks: Vec<String>,
    /// Its states.
    pub states: usize,
}

/// A statement decided by automata.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
pub struct StatementDoc {
    /// Its name.
    pub name: &'static str,
    /// What it says.
    pub meaning: String,
    /// Whether it holds.
    pub holds: bool,
    /// States of its automaton.
    pub states: usize,
    /// Seconds it took.
    pub seconds: f64,
    /// The statement in Walnut's syntax.
    pub walnut: String,
}

/// A proof's verdict: proved, or the least counterexample and its re-check.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(untagged)]
pub enum ProofResultDoc {
    /// Proved for every position.
    Proved {
        /// Always true.
        proved: bool,
        /// `proved`.
        verdict: &'static str,
    },
    /// A counterexample.
    Refuted {
        /// Always false.
        proved: bool,
        /// `false` (confirmed) or `unconfirmed`.
        verdict: &'static str,
        /// The statement that fails.
        statement: &'static str,
        /// The position.
        position: Vec<String>,
        /// The option involved.
        option: Option<Vec<String>>,
        /// The value involved.
        value: Option<String>,
        /// What goes wrong.
        explanation: String,
        /// The independent re-check.
        confirmed: Option<ConfirmedDoc>,
        /// The re-check's note.
        recheck: String,
    },
}

/// A counterexample re-checked by the game's own rules.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
pub struct ConfirmedDoc {
    /// The position re-checked.
    pub position: Vec<String>,
    /// Why it is a counterexample.
    pub why: String,
}

impl ProofDoc {
    /// The document of a proof.
    pub fn new(p: &nimlab_formula::prove::Proof) -> Self {
        use nimlab_formula::check::Claim;
        use nimlab_formula::prove::{numeration_name, Verdict};
        let nums = |v: &[nimlab_engine::big::BigUint]| -> Vec<String> {
            v.iter().map(|b| b.to_string()).collect()
        };
        let result = match &p.verdict {
            Verdict::Proved => ProofResultDoc::Proved {
                proved: true,
                verdict: "proved",
            },
            Verdict::False(c) | Verdict::Unconfirmed(c) => ProofResultDoc::Refuted {
                proved: false,
                verdict: if matches!(p.verdict, Verdict::False(_)) {
                    "false"
                } else {
                    "unconfirmed"
                },
                statement: c.statement,
                position: nums(&c.position),
                option: c.option.as_deref().map(nums),
                value: c.value.as_ref().map(|v| v.to_string()),
                explanation: c.explanation.clone(),
                confirmed: c.confirmed.as_ref().map(|(at, why)| ConfirmedDoc {
                    position: nums(at),
                    why: why.clone(),
                }),
                recheck: c.recheck_note.clone(),
            },
        };
        ProofDoc {
            game: p.game.clone(),
            claim: match p.claim {
                Claim::Grundy => "formula",
                Claim::PPositions => "p_positions",
            },
            text: p.formula.clone(),
            numeration: numeration_name(&p.numeration).to_string(),
            moves: p.relation.options.clone(),
            positions: p.relation.positions.clone(),
            automata: p
                .automata
                .iter()
                .zip(&p.tracks)
                .map(|((name, d), tracks)| AutomatonDoc {
                    name: name.clone(),
                    tracks: tracks.clone(),
                    states: d.states(),
                })
                .collect(),
            statements: p
                .statements
                .iter()
                .map(|s| StatementDoc {
                    name: s.name,
                    meaning: s.meaning.clone(),
                    holds: s.holds,
                    states: s.states,
                    seconds: s.seconds,
                    walnut: s.walnut.clone(),
                })
                .collect(),
            result,
            seconds: p.seconds,
        }
    }
}
