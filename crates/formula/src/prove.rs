//! Proofs for every position: a Grundy formula or a P-position predicate, decided with
//! automata from the game's move relation ([`MoveRelation`]).
//!
//! A Grundy claim φ is the Grundy function iff, at every position X, (SG1) no option Y
//! has φ(Y) = φ(X) and (SG2) every v < φ(X) is φ(Y) of some option Y (the game is
//! short, so induction on the rank closes the argument). A P-set claim is right iff no
//! move goes from P to P and every position outside P has a move into P. Each
//! condition is a first-order statement over N; its *violations* form a set of
//! positions that an automaton recognizes, and the condition holds iff that automaton
//! accepts nothing. When it accepts something, its least word is the least
//! counterexample, which is then re-checked by the planner ([`plan::value`]).
//!
//! ```
//! use nimlab_formula::check::Claim;
//! use nimlab_formula::prove::{prove, Numeration, Verdict};
//! use nimlab_engine::{capability::{Capabilities, MoveRelation}, Coord, Game};
//! struct Nim2;
//! impl Game for Nim2 {
//!     fn spec(&self) -> String { "nim".into() }
//!     fn dimension(&self) -> usize { 2 }
//!     fn for_each_option(&self, p: &[Coord], visit: &mut dyn FnMut(&[Coord])) {
//!         for u in 0..p[0] { visit(&[u, p[1]]); }
//!         for v in 0..p[1] { visit(&[p[0], v]); }
//!     }
//!     fn capabilities(&self) -> Capabilities<'_> {
//!         Capabilities {
//!             move_relation: Some(MoveRelation::one_coordinate_decreases(&self.coordinate_names())),
//!             ..Capabilities::none()
//!         }
//!     }
//! }
//! let proof = prove(&Nim2, Claim::Grundy, "x xor y", Numeration::Base(2), &Default::default()).unwrap();
//! assert!(matches!(proof.verdict, Verdict::Proved));
//! let wrong = prove(&Nim2, Claim::Grundy, "x + y", Numeration::Base(2), &Default::default()).unwrap();
//! assert!(matches!(wrong.verdict, Verdict::False(_)));
//! ```

use crate::check::{compile_for, variables, Claim};
use crate::logic::{Compiler, NotExpressible};
use crate::{Formula, FormulaError};
use nimlab_automata::{walnut, Dfa, Fo, Rel};
use nimlab_engine::big::BigUint;
use nimlab_engine::capability::MoveRelation;
use nimlab_engine::{plan, Coord, Game, TableOptions};
use num_bigint::BigInt;
use num_traits::{Signed, Zero};
use std::fmt;
use std::time::Instant;

pub use nimlab_automata::Numeration;

/// Why a claim could not be decided.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProveError {
    /// The game does not declare its move relation.
    NoMoveRelation(String),
    /// The claim (or the game's relation) does not parse.
    Formula {
        /// which text: "the claim", "the move relation" …
        what: String,
        /// the parse error
        error: FormulaError,
    },
    /// A piece of the claim has no automaton.
    NotExpressible {
        /// which text
        what: String,
        /// the text
        text: String,
        /// the piece and why
        piece: NotExpressible,
    },
    /// An intermediate value of the claim is negative at some position, where the
    /// automata (over N) cannot follow it.
    NegativeIntermediate(String),
    /// An automaton beyond the limits.
    TooLarge(String),
    /// Anything else the input does not allow.
    Input(String),
    /// The prover's own check failed: the automaton built for the claim gives some
    /// position two values (or calls it both P and N). Nothing is decided: a defect of
    /// the compiler, to report, never a verdict.
    Unsound(String),
    /// The computation was cancelled (the progress hook said so).
    Cancelled,
}

impl fmt::Display for ProveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProveError::NoMoveRelation(g) => write!(
                f,
                "{g} does not declare its move relation as a formula, so it cannot be proved with automata"
            ),
            ProveError::Formula { what, error } => write!(f, "{what}: {error}"),
            ProveError::NotExpressible { what, text, piece } => {
                let snippet: String = text.chars().skip(piece.column.saturating_sub(1)).take(24).collect();
                write!(
                    f,
                    "not expressible: {} at column {} of {what} ('{}…'): {}",
                    piece.what.split(' ').next().unwrap_or(""),
                    piece.column,
                    snippet.trim_end(),
                    piece.what
                )
            }
            ProveError::NegativeIntermediate(s) => write!(f, "not expressible: {s}"),
            ProveError::TooLarge(s) => write!(f, "{s}"),
            ProveError::Input(s) => write!(f, "{s}"),
            ProveError::Unsound(s) => write!(
                f,
                "internal check failed, nothing decided: {s} (a defect of nimlab's formula compiler; please report it)"
            ),
            ProveError::Cancelled => write!(f, "cancelled"),
        }
    }
}

impl std::error::Error for ProveError {}

impl From<nimlab_automata::Error> for ProveError {
    fn from(e: nimlab_automata::Error) -> Self {
        match e {
            nimlab_automata::Error::TooLarge(s) => {
                ProveError::TooLarge(format!("the proof needs {s}"))
            }
            nimlab_automata::Error::Input(s) => ProveError::Input(s),
            nimlab_automata::Error::Cancelled => ProveError::Cancelled,
        }
    }
}

/// One condition decided.
#[derive(Debug, Clone)]
pub struct Statement {
    /// Short name: `function`, `defined`, `SG1`, `SG2`, `P1`, `P2`.
    pub name: &'static str,
    /// The condition in words.
    pub meaning: String,
    /// The condition as a Walnut command over the automata of [`Proof::automata`].
    pub walnut: String,
    /// Whether it holds for every position.
    pub holds: bool,
    /// States of the automaton of its violations.
    pub states: usize,
    /// Seconds spent deciding it.
    pub seconds: f64,
}

/// A position where the claim fails, with the brute-force re-check.
#[derive(Debug, Clone)]
pub struct Counterexample {
    /// The condition violated.
    pub statement: &'static str,
    /// The least position X violating it.
    pub position: Vec<BigUint>,
    /// The option Y involved (SG1, P1).
    pub option: Option<Vec<BigUint>>,
    /// The value v with no option of value v (SG2).
    pub value: Option<BigUint>,
    /// What the violation means, in words.
    pub explanation: String,
    /// The confirmation, independent of the automata: a position where the solver's
    /// (or the game's closed form's) value differs from the claim's exact value, or the
    /// violation itself re-done in exact arithmetic (the move checked by the game's
    /// rules, the claim evaluated exactly); with the reason in words. `None`: it could
    /// not be confirmed (see `recheck_note`), and the verdict is then
    /// [`Verdict::Unconfirmed`], never [`Verdict::False`].
    pub confirmed: Option<(Vec<BigUint>, String)>,
    /// How the re-check went.
    pub recheck_note: String,
}

/// The verdict.
#[derive(Debug, Clone)]
pub enum Verdict {
    /// Every condition holds for every position.
    Proved,
    /// A condition fails; the least counterexample, confirmed independently of the
    /// automata (`confirmed` is `Some`).
    False(Box<Counterexample>),
    /// The automata found a violation that neither the solver nor exact arithmetic
    /// could confirm: nothing is claimed either way.
    Unconfirmed(Box<Counterexample>),
}

/// A decided claim.
#[derive(Debug, Clone)]
pub struct Proof {
    /// The game's spec.
    pub game: String,
    /// Grundy formula or P-position predicate.
    pub claim: Claim,
    /// The claim's text.
    pub formula: String,
    /// The numeration the automata read.
    pub numeration: Numeration,
    /// The move relation used.
    pub relation: MoveRelation,
    /// The conditions, in the order decided (stops at the first that fails).
    pub statements: Vec<Statement>,
    /// The verdict.
    pub verdict: Verdict,
    /// Named automata the statements use (`move`, `phi` or `pset`, `legal` …).
    pub automata: Vec<(String, Dfa)>,
    /// Names of the automata's tracks, per automaton (for Walnut).
    pub tracks: Vec<Vec<String>>,
    /// Total seconds.
    pub seconds: f64,
}

impl Proof {
    /// The Walnut command file: the statements as `eval` commands. The automata go in
    /// Walnut's `Automata Library/` as `NAME.txt` ([`Proof::walnut_automata`]).
    pub fn walnut_commands(&self) -> String {
        let mut out = format!(
            "# nimlab prove {} --{} '{}' ({})\n# Copy the .txt automata into Walnut's \"Automata Library/\" first.\n",
            self.game,
            match self.claim {
                Claim::Grundy => "formula",
                Claim::PPositions => "p-positions",
            },
            self.formula,
            self.numeration.walnut_name()
        );
        for ((name, _), tracks) in self.automata.iter().zip(&self.tracks) {
            out.push_str(&format!("# {name}({})\n", tracks.join(",")));
        }
        for s in &self.statements {
            out.push_str(&format!("# {}: {}\n{}\n", s.name, s.meaning, s.walnut));
        }
        out
    }

    /// (file name, Walnut text) of every automaton.
    pub fn walnut_automata(&self) -> Vec<(String, String)> {
        self.automata
            .iter()
            .map(|(n, d)| (format!("{n}.txt"), walnut::to_text(d, &self.numeration)))
            .collect()
    }
}

/// Reads a numeration's name: `base2`, `base-B` (B = 2..16; also `baseB`), `fib`.
///
/// ```
/// use nimlab_formula::prove::{parse_numeration, numeration_name, Numeration};
/// assert_eq!(parse_numeration("base-3"), Ok(Numeration::Base(3)));
/// assert_eq!(parse_numeration("fib"), Ok(Numeration::Fib));
/// assert!(parse_numeration("base1").is_err());
/// assert_eq!(parse_numeration("mixed([2,3..])"), Ok(Numeration::Base(3)));
/// // a repeating block is read one block per digit: base 3·5
/// assert_eq!(parse_numeration("mixed([2,(3,5)..])"), Ok(Numeration::Base(15)));
/// assert!(parse_numeration("mixed([(3,6)..])").is_err());
/// assert_eq!(numeration_name(&Numeration::Base(2)), "base2");
/// ```
pub fn parse_numeration(text: &str) -> Result<Numeration, String> {
    let t = text.trim().to_ascii_lowercase();
    let bad = || {
        format!(
            "unknown numeration '{text}': use base2, base-B with 2 ≤ B ≤ 16 (e.g. base-3), mixed(BETA) (e.g. mixed([2,3..])), or fib"
        )
    };
    if let Some(inner) = t.strip_prefix("mixed(").and_then(|r| r.strip_suffix(')')) {
        // an eventually periodic mixed radix (β₀, …, β_{k−1}, then a block B repeated)
        // is read in base b = the product of B, one block of sub-digits per digit, its
        // prefix by division by β₀⋯β_{k−1} (exact for every claim the compiler
        // accepts: σ^β and C^β split the same way)
        let beta = nimlab_engine::nimarith::MixedRadix::parse(inner)
            .map_err(|e| format!("mixed({inner}): {e}"))?;
        let (_, period) = beta.parts();
        return match crate::logic::block_op(period) {
            Some((b, _)) => Ok(Numeration::Base(b)),
            None => Err(format!(
                "mixed({inner}): the repeating block must have a product of at most 16 \
                 (it is read one block per digit in that base)"
            )),
        };
    }
    match t.as_str() {
        "fib" | "zeckendorf" | "fibonacci" => Ok(Numeration::Fib),
        _ => {
            let digits = t
                .strip_prefix("base-")
                .or_else(|| t.strip_prefix("base"))
                .ok_or_else(bad)?;
            let b: u32 = digits.parse().map_err(|_| bad())?;
            if (2..=16).contains(&b) {
                Ok(Numeration::Base(b))
            } else {
                Err(bad())
            }
        }
    }
}

/// The name [`parse_numeration`] reads.
pub fn numeration_name(n: &Numeration) -> String {
    match n {
        Numeration::Base(2) => "base2".into(),
        Numeration::Base(b) => format!("base-{b}"),
        Numeration::Fib => "fib".into(),
    }
}

/// The numeration in which the digit-wise pieces of `text` (a formula over `game`'s
/// coordinates) are automatic: `fib` for `zeck_low` and `floor_phi`, base b for
/// `nimsum_b(b, …)` and `sigma(beta=…)` whose repeating base is b, base 2 otherwise
/// (and when pieces disagree: the claim is then refused as not expressible). Used by
/// `guess --prove` and `theorems prove`, which have no `--numeration` of their own.
///
/// ```
/// use nimlab_formula::prove::{suggest_numeration, Numeration};
/// use nimlab_engine::{Coord, Game};
/// struct Line;
/// impl Game for Line {
///     fn spec(&self) -> String { "line".into() }
///     fn dimension(&self) -> usize { 2 }
///     fn for_each_option(&self, _: &[Coord], _: &mut dyn FnMut(&[Coord])) {}
/// }
/// assert_eq!(suggest_numeration(&Line, "x xor y"), Numeration::Base(2));
/// assert_eq!(suggest_numeration(&Line, "nimsum_b(3, x, y)"), Numeration::Base(3));
/// assert_eq!(suggest_numeration(&Line, "sigma(beta=[2,3..], x, y)"), Numeration::Base(3));
/// assert_eq!(suggest_numeration(&Line, "sigma(beta=[(2,3)..], x, y)"), Numeration::Base(6));
/// assert_eq!(suggest_numeration(&Line, "zeck_low(x + 1) + y"), Numeration::Fib);
/// ```
pub fn suggest_numeration(game: &dyn Game, text: &str) -> Numeration {
    use crate::parse::{Expr, Func, Kind};
    fn walk(e: &Expr, out: &mut Vec<Numeration>) {
        match &e.kind {
            Kind::Num(_) | Kind::Var(_) => {}
            Kind::Unary(_, a) => walk(a, out),
            Kind::Binary(_, a, b) => {
                walk(a, out);
                walk(b, out);
            }
            Kind::If(c, a, b) => {
                walk(c, out);
                walk(a, out);
                walk(b, out);
            }
            Kind::Call(func, args) => {
                match func {
                    Func::ZeckLow | Func::FloorPhi => out.push(Numeration::Fib),
                    Func::NimsumB => {
                        if let Some(Kind::Num(b)) = args.first().map(|a| &a.kind)
                            && (2..=16).contains(b)
                        {
                            out.push(Numeration::Base(*b as u32));
                        }
                    }
                    Func::Sigma(beta) => {
                        if let Some((b, _)) = crate::logic::block_op(beta.parts().1) {
                            out.push(Numeration::Base(b));
                        }
                    }
                    _ => {}
                }
                for a in args {
                    walk(a, out);
                }
            }
            Kind::All(_, body) => walk(body, out),
        }
    }
    let Ok(f) = compile_for(game, text, &[]) else {
        return Numeration::Base(2);
    };
    let mut hints = Vec::new();
    walk(&f.tree, &mut hints);
    match hints.first() {
        Some(&n) if hints.iter().all(|&h| h == n) => n,
        _ => Numeration::Base(2),
    }
}

/// Options of [`prove`].
#[derive(Default)]
pub struct ProveOptions<'a> {
    /// For the brute-force re-check of a counterexample.
    pub table: TableOptions<'a>,
    /// Named constants the claim may use (a rules file's parameters).
    pub constants: Vec<(String, i64)>,
}

/// One condition to decide: name, meaning, Walnut command, its violations.
type Check<'a> = (
    &'static str,
    String,
    String,
    Box<dyn Fn() -> Result<Dfa, ProveError> + 'a>,
);

/// Names of the automata variables: X = 0..m, X′ = m..2m, then g and v.
struct Layout {
    m: u32,
}

impl Layout {
    fn x(&self) -> Vec<u32> {
        (0..self.m).collect()
    }
    fn y(&self) -> Vec<u32> {
        (self.m..2 * self.m).collect()
    }
    fn g(&self) -> u32 {
        2 * self.m
    }
    fn v(&self) -> u32 {
        2 * self.m + 1
    }
}

fn compile_text(text: &str, names: &[String], what: &str) -> Result<Formula, ProveError> {
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    Formula::compile(text, &refs).map_err(|error| ProveError::Formula {
        what: what.into(),
        error,
    })
}

fn not_expressible(what: &str, text: &str) -> impl Fn(NotExpressible) -> ProveError {
    let (what, text) = (what.to_string(), text.to_string());
    move |piece| ProveError::NotExpressible {
        what: what.clone(),
        text: text.clone(),
        piece,
    }
}

/// Decides `claim` (a Grundy formula or a P-position predicate over the game's
/// coordinate names) for every position of `game`, reading numbers in `num`.
///
/// The automata count against `opts.table.memory_limit` (those alive and the one under
/// construction, together at most half of it) and stop within one state when
/// `opts.table.progress` says the computation is cancelled.
pub fn prove(
    game: &dyn Game,
    claim: Claim,
    text: &str,
    num: Numeration,
    opts: &ProveOptions<'_>,
) -> Result<Proof, ProveError> {
    // the automata alive and the one being built; the rest of the limit is for the
    // tables that number states while they are built and the process itself
    let per_automaton = opts.table.memory_limit.bytes() / 2;
    // asked at every state built: the progress (a count of states, on a spinner) moves
    // while the automata grow, and a cancel stops them within one state
    let progress = opts.table.progress;
    progress.start(0, "automaton states built");
    let cancelled = || {
        progress.advance(1);
        progress.cancelled()
    };
    let proof = nimlab_automata::budget::with_budget(per_automaton, &cancelled, || {
        prove_within_budget(game, claim, text, num, opts)
    });
    progress.finish();
    proof
}

fn prove_within_budget(
    game: &dyn Game,
    claim: Claim,
    text: &str,
    num: Numeration,
    opts: &ProveOptions<'_>,
) -> Result<Proof, ProveError> {
    let start = Instant::now();
    let relation = checked_relation(game, num)?;
    let names = game.coordinate_names();
    let m = names.len() as u32;
    let lay = Layout { m };
    let mut comp = Compiler::new(num, 2 * m + 2);
    let (mv, legal) = relation_automata(&mut comp, &relation, &names, num)?;
    let claim_f = compile_claim(game, claim, text, opts)?;
    let (_, coords) = variables(game);
    let env_x: Vec<u32> = coords.iter().map(|&c| c as u32).collect();
    let what = match claim {
        Claim::Grundy => "the formula",
        Claim::PPositions => "the predicate",
    };

    let xn: Vec<String> = names.iter().map(|n| walnut_name(n)).collect();
    let yn: Vec<String> = names
        .iter()
        .map(|n| format!("{}p", walnut_name(n)))
        .collect();
    let mut automata = vec![("move".to_string(), mv.clone())];
    let mut tracks = vec![xn.iter().chain(&yn).cloned().collect::<Vec<_>>()];
    if let Some(l) = &legal {
        automata.push(("legal".into(), l.clone()));
        tracks.push(xn.clone());
    }
    let setting = ProofSetting {
        num,
        mv,
        legal,
        ys: lay.y(),
        what,
        q: format!("?{}", num.walnut_name()),
        xl: xn.join(","),
        yl: yn.join(","),
    };

    let claimed = match claim {
        Claim::Grundy => {
            let val = comp
                .value(&claim_f.tree, &env_x, lay.g())
                .map_err(not_expressible(what, text))?;
            let phi = val.automaton(&num)?; // (X, g)
            automata.push(("phi".into(), phi.clone()));
            tracks.push(xn.iter().cloned().chain(["g".to_string()]).collect());
            ClaimAutomata::Grundy(GrundyAutomata::new(phi, &lay)?)
        }
        Claim::PPositions => {
            let (t, f) = comp
                .condition(&claim_f.tree, &env_x)
                .map_err(not_expressible(what, text))?;
            let pset = t.automaton(&num)?;
            let nset = f.automaton(&num)?;
            automata.push(("pset".into(), pset.clone()));
            tracks.push(xn.clone());
            automata.push(("nset".into(), nset.clone()));
            tracks.push(xn.clone());
            let pset_y = pset.renamed(|w| w + m)?;
            ClaimAutomata::PPositions { pset, nset, pset_y }
        }
    };
    let checks = match &claimed {
        ClaimAutomata::Grundy(a) => grundy_checks(&setting, a, &lay),
        ClaimAutomata::PPositions { pset, nset, pset_y } => {
            p_position_checks(&setting, pset, nset, pset_y)
        }
    };
    let mut statements = Vec::new();
    let mut verdict = Verdict::Proved;
    for (name, meaning, wal, bad) in checks {
        if let Some(d) = decide(&mut statements, name, meaning, wal, &*bad)? {
            verdict = refuted(&Violation {
                game,
                claim,
                formula: &claim_f,
                relation: &relation,
                statement: name,
                bad: &d,
                lay: &lay,
                num: &num,
                opts,
            })?;
            break;
        }
    }
    let automata = with_all_tracks(automata, &lay, num)?;
    Ok(Proof {
        game: game.spec(),
        claim,
        formula: text.to_string(),
        numeration: num,
        relation,
        statements,
        verdict,
        automata,
        tracks,
        seconds: start.elapsed().as_secs_f64(),
    })
}

/// The game's move relation, once the game has one and the numeration's base is one
/// the automata read.
fn checked_relation(game: &dyn Game, num: Numeration) -> Result<MoveRelation, ProveError> {
    let relation = game
        .capabilities()
        .move_relation
        .ok_or_else(|| ProveError::NoMoveRelation(game.spec()))?;
    if let Numeration::Base(b) = num
        && !(2..=16).contains(&b)
    {
        return Err(ProveError::Input(format!(
            "the base of the numeration must be between 2 and 16, got {b}"
        )));
    }
    Ok(relation)
}

/// The automata of the game's move relation (over X and X′) and of its legal
/// positions (over X), when it restricts them.
fn relation_automata(
    comp: &mut Compiler,
    relation: &MoveRelation,
    names: &[String],
    num: Numeration,
) -> Result<(Dfa, Option<Dfa>), ProveError> {
    let m = names.len() as u32;
    let mut rel_names = names.to_vec();
    rel_names.extend(names.iter().map(|n| format!("{n}_")));
    // the one text that may hold all(…): compiled to ∀ in the automata
    let rel_tree = crate::parse_quantified(&relation.options, &rel_names).map_err(|error| {
        ProveError::Formula {
            what: "the game's move relation".into(),
            error,
        }
    })?;
    let env_rel: Vec<u32> = (0..2 * m).collect();
    let (rel_t, _) = comp
        .condition(&rel_tree, &env_rel)
        .map_err(not_expressible(
            "the game's move relation",
            &relation.options,
        ))?;
    let mv = rel_t.automaton(&num)?;
    let legal = match &relation.positions {
        Some(p) => {
            let f = compile_text(p, names, "the game's positions")?;
            let env: Vec<u32> = (0..m).collect();
            let (t, _) = comp
                .condition(&f.tree, &env)
                .map_err(not_expressible("the game's positions", p))?;
            Some(t.automaton(&num)?)
        }
        None => None,
    };
    Ok((mv, legal))
}

/// The claim over X (aliases x0, x1 … map to their coordinates), refused when a
/// P-position claim is a number rather than a condition.
fn compile_claim(
    game: &dyn Game,
    claim: Claim,
    text: &str,
    opts: &ProveOptions<'_>,
) -> Result<Formula, ProveError> {
    let constants: Vec<(&str, i64)> = opts
        .constants
        .iter()
        .map(|(n, v)| (n.as_str(), *v))
        .collect();
    let claim_f = compile_for(game, text, &constants).map_err(|error| ProveError::Formula {
        what: "the claim".into(),
        error,
    })?;
    if claim == Claim::PPositions && !claim_f.is_condition() {
        return Err(ProveError::Input(format!(
            "a P-position claim must be a condition (a comparison, &&, ||, !), not a number: '{}'",
            abbreviate(text)
        )));
    }
    Ok(claim_f)
}

/// What every statement of a proof is built from: the numeration, the automata of the
/// move relation and of the legal positions, and the words of the Walnut commands that
/// restate the statements.
struct ProofSetting {
    num: Numeration,
    /// The move relation, over (X, Y).
    mv: Dfa,
    /// The legal positions, over X, when the game restricts them.
    legal: Option<Dfa>,
    /// The tracks of Y.
    ys: Vec<u32>,
    /// "the formula" or "the predicate".
    what: &'static str,
    /// Walnut's quantifier prefix of the numeration (`?msd_2`).
    q: String,
    /// X's Walnut variables, comma-separated.
    xl: String,
    /// Y's Walnut variables, comma-separated.
    yl: String,
}

impl ProofSetting {
    /// The Walnut guard `$legal(X) & ` when the game restricts its positions.
    fn legal_pre(&self) -> String {
        if self.legal.is_some() {
            format!("$legal({}) & ", self.xl)
        } else {
            String::new()
        }
    }

    /// `d` restricted to legal positions.
    fn with_legal(&self, d: Dfa) -> Result<Dfa, ProveError> {
        Ok(match &self.legal {
            Some(l) => self.num.and(l, &d)?,
            None => d,
        })
    }

    /// `d` with every track of Y projected away (∃Y).
    fn some_option(&self, d: Dfa) -> Result<Dfa, ProveError> {
        let mut d = d;
        for &y in &self.ys {
            d = d.project(y)?;
        }
        Ok(d)
    }
}

/// The claim's automata the statements read.
enum ClaimAutomata {
    /// A Grundy-value claim: φ and its renamings.
    Grundy(GrundyAutomata),
    /// A P-position claim: where it is true over X, where false, and true over Y.
    PPositions { pset: Dfa, nset: Dfa, pset_y: Dfa },
}

/// φ over (X, g) and the renamings the Grundy statements read.
struct GrundyAutomata {
    phi: Dfa,
    /// φ over (X, v).
    phi_x_v: Dfa,
    /// φ over (Y, g).
    phi_y_g: Dfa,
    /// φ over (Y, v).
    phi_y_v: Dfa,
    /// Where φ is defined, over X.
    defined: Dfa,
}

impl GrundyAutomata {
    fn new(phi: Dfa, lay: &Layout) -> Result<Self, ProveError> {
        let (m, g, v) = (lay.m, lay.g(), lay.v());
        let to_y = |w: u32| if w < m { w + m } else { w };
        let phi_y_g = phi.renamed(to_y)?; // (Y, g)
        let phi_y_v = phi.renamed(|w| {
            if w < m {
                w + m
            } else if w == g {
                v
            } else {
                w
            }
        })?;
        let phi_x_v = phi.renamed(|w| if w == g { v } else { w })?;
        let defined = phi.project(g)?; // X
        Ok(GrundyAutomata {
            phi,
            phi_x_v,
            phi_y_g,
            phi_y_v,
            defined,
        })
    }
}

/// The statements of a Grundy-value claim: φ is a function, defined everywhere, and
/// satisfies (SG1) and (SG2).
fn grundy_checks<'a>(s: &'a ProofSetting, a: &'a GrundyAutomata, lay: &Layout) -> Vec<Check<'a>> {
    let (g, v) = (lay.g(), lay.v());
    let (num, what, q, xl, yl) = (s.num, s.what, &s.q, &s.xl, &s.yl);
    vec![
        (
            "function",
            format!("{what} has at most one value at every position (the prover's check of its own automaton)"),
            format!("eval nimlab_function \"{q} A{xl},g,v ($phi({xl},g) & $phi({xl},v)) => g=v\";"),
            Box::new(move || {
                let differ = Fo::not(Fo::linear(vec![(g, 1), (v, -1)], 0, Rel::Eq))
                    .automaton(&num)?;
                let two = num.and(&num.and(&a.phi, &a.phi_x_v)?, &differ)?;
                Ok(two.project(g)?.project(v)?)
            }),
        ),
        (
            "defined",
            format!("{what} is a natural number at every position"),
            format!("eval nimlab_defined \"{q} A{xl} {}E g $phi({xl},g)\";", s.legal_pre().replace(" & ", " => ")),
            Box::new(move || s.with_legal(num.not(&a.defined)?)),
        ),
        (
            "SG1",
            "no option Y of X has φ(Y) = φ(X)".into(),
            format!(
                "eval nimlab_sg1 \"{q} A{xl},{yl},g ({}$move({xl},{yl}) & $phi({xl},g)) => ~$phi({yl},g)\";",
                s.legal_pre()
            ),
            Box::new(move || {
                let b = num.and(&num.and(&s.mv, &a.phi)?, &a.phi_y_g)?.project(g)?;
                s.with_legal(b)
            }),
        ),
        (
            "SG2",
            "for every v < φ(X) some option Y of X has φ(Y) = v".into(),
            format!(
                "eval nimlab_sg2 \"{q} A{xl},g,v ({}$phi({xl},g) & v<g) => E{yl} $move({xl},{yl}) & $phi({yl},v)\";",
                s.legal_pre()
            ),
            Box::new(move || {
                let below = Fo::linear(vec![(v, 1), (g, -1)], 1, Rel::Le).automaton(&num)?;
                let lhs = num.and(&a.phi, &below)?.project(g)?; // (X, v)
                let reach = s.some_option(num.and(&s.mv, &a.phi_y_v)?)?;
                s.with_legal(num.and(&lhs, &num.not(&reach)?)?)
            }),
        ),
    ]
}

/// The statements of a P-position claim: never both true and false, defined
/// everywhere, and satisfying (P1) and (P2).
fn p_position_checks<'a>(
    s: &'a ProofSetting,
    pset: &'a Dfa,
    nset: &'a Dfa,
    pset_y: &'a Dfa,
) -> Vec<Check<'a>> {
    let (num, what, q, xl, yl) = (s.num, s.what, &s.q, &s.xl, &s.yl);
    vec![
        (
            "function",
            format!("{what} is never both true and false at one position (the prover's check of its own automata)"),
            format!("eval nimlab_function \"{q} A{xl} ~($pset({xl}) & $nset({xl}))\";"),
            Box::new(move || Ok(num.and(pset, nset)?)),
        ),
        (
            "defined",
            format!("{what} is defined (true or false) at every position"),
            format!("eval nimlab_defined \"{q} A{xl} {}($pset({xl}) | $nset({xl}))\";", s.legal_pre().replace(" & ", " => ")),
            Box::new(move || {
                let either = num.or(pset, nset)?;
                s.with_legal(num.not(&either)?)
            }),
        ),
        (
            "P1",
            "no move goes from a claimed P-position to a claimed P-position".into(),
            format!(
                "eval nimlab_p1 \"{q} A{xl},{yl} ({}$pset({xl}) & $move({xl},{yl})) => ~$pset({yl})\";",
                s.legal_pre()
            ),
            Box::new(move || {
                let a = num.and(pset, &s.mv)?;
                s.with_legal(num.and(&a, pset_y)?)
            }),
        ),
        (
            "P2",
            "every other position has a move to a claimed P-position".into(),
            format!(
                "eval nimlab_p2 \"{q} A{xl} ({}$nset({xl})) => E{yl} $move({xl},{yl}) & $pset({yl})\";",
                s.legal_pre()
            ),
            Box::new(move || {
                let reach = s.some_option(num.and(&s.mv, pset_y)?)?;
                s.with_legal(num.and(nset, &num.not(&reach)?)?)
            }),
        ),
    ]
}

/// Decides one statement: records it, and returns its violations when it fails.
fn decide(
    statements: &mut Vec<Statement>,
    name: &'static str,
    meaning: String,
    walnut: String,
    bad: &dyn Fn() -> Result<Dfa, ProveError>,
) -> Result<Option<Dfa>, ProveError> {
    let t = Instant::now();
    let d = bad()?;
    let holds = d.is_empty();
    statements.push(Statement {
        name,
        meaning,
        walnut,
        holds,
        states: d.states(),
        seconds: t.elapsed().as_secs_f64(),
    });
    Ok((!holds).then_some(d))
}

/// Every automaton written with all the tracks its statements call it with (one that
/// does not mention a coordinate still reads it, any digits allowed), so that Walnut
/// reads each file with the arity of its call.
fn with_all_tracks(
    automata: Vec<(String, Dfa)>,
    lay: &Layout,
    num: Numeration,
) -> Result<Vec<(String, Dfa)>, ProveError> {
    let m = lay.m;
    automata
        .into_iter()
        .map(|(name, d)| {
            let mut want: Vec<u32> = (0..m).collect();
            match name.as_str() {
                "move" => want.extend(m..2 * m),
                "phi" => want.push(lay.g()),
                _ => {}
            }
            let missing: Vec<u32> = want
                .iter()
                .copied()
                .filter(|v| !d.vars().contains(v))
                .collect();
            let full = if missing.is_empty() {
                d
            } else {
                num.and(&d, &num.valid(&missing)?)?
            };
            debug_assert_eq!(full.vars(), want.as_slice());
            Ok((name, full))
        })
        .collect()
}

/// A coordinate name as a Walnut variable (letters and digits).
fn walnut_name(n: &str) -> String {
    let s: String = n.chars().filter(|c| c.is_ascii_alphanumeric()).collect();
    if s.is_empty() || s.starts_with(|c: char| c.is_ascii_digit()) {
        format!("v{s}")
    } else {
        s
    }
}

/// The least word of `bad` (X first, then the rest with X fixed), decoded.
fn least(bad: &Dfa, xs: &[u32], num: &Numeration) -> Result<Vec<(u32, BigUint)>, ProveError> {
    let mut only_x = bad.clone();
    for &v in bad.vars() {
        if !xs.contains(&v) {
            only_x = only_x.project(v)?;
        }
    }
    let decode = |d: &[u32]| -> Result<BigUint, ProveError> {
        num.decode(d)
            .map(BigUint::from)
            .ok_or_else(|| ProveError::TooLarge("the counterexample has more than 128 bits".into()))
    };
    let wx = only_x.least_word().expect("non-empty");
    let mut out = Vec::new();
    let mut rest = bad.clone();
    for (v, d) in only_x.vars().iter().zip(&wx) {
        let n = num.decode(d).unwrap_or(0);
        out.push((*v, decode(d)?));
        rest = num.fix(&rest, *v, n)?;
    }
    if !rest.vars().is_empty() {
        let w = rest.least_word().expect("the fixed X has a witness");
        for (v, d) in rest.vars().iter().zip(&w) {
            out.push((*v, decode(d)?));
        }
    }
    Ok(out)
}

/// A formula shortened for a message: at most 80 characters, control characters
/// escaped.
fn abbreviate(text: &str) -> String {
    let clean: String = text
        .chars()
        .flat_map(|c| {
            if c.is_control() {
                c.escape_default().collect::<Vec<_>>()
            } else {
                vec![c]
            }
        })
        .collect();
    if clean.chars().count() > 80 {
        format!("{}…", clean.chars().take(79).collect::<String>())
    } else {
        clean
    }
}

/// A statement of the proof found violated: the claim about the game, the statement's
/// name, and its violations `bad` (an automaton over `lay`'s tracks read in `num`).
#[derive(Clone, Copy)]
struct Violation<'a, 'o> {
    game: &'a dyn Game,
    claim: Claim,
    formula: &'a Formula,
    relation: &'a MoveRelation,
    statement: &'static str,
    bad: &'a Dfa,
    lay: &'a Layout,
    num: &'a Numeration,
    opts: &'a ProveOptions<'o>,
}

/// The verdict once statement `statement` has violations `bad`: the prover's own check
/// failing is an error (nothing decided); any other violation is false only when
/// confirmed independently of the automata, else unconfirmed.
fn refuted(violation: &Violation<'_, '_>) -> Result<Verdict, ProveError> {
    let Violation {
        statement,
        bad,
        lay,
        num,
        ..
    } = *violation;
    if statement == "function" {
        let vals = least(bad, &lay.x(), num)?;
        let at: Vec<BigUint> = vals
            .iter()
            .filter(|p| p.0 < lay.m)
            .map(|p| p.1.clone())
            .collect();
        return Err(ProveError::Unsound(format!(
            "the automaton built for the claim gives {} two values",
            plan::position_text(&at)
        )));
    }
    let cx = counterexample(violation)?;
    Ok(if cx.confirmed.is_some() {
        Verdict::False(Box::new(cx))
    } else {
        Verdict::Unconfirmed(Box::new(cx))
    })
}

/// Whether Y is an option of X by the game's rules: its own option list when X is
/// small enough to list, else the move relation's formula evaluated exactly (`None`
/// when neither can tell: a quantified relation at a huge position).
fn is_option(
    game: &dyn Game,
    relation: &MoveRelation,
    x: &[BigUint],
    y: &[BigUint],
) -> Option<bool> {
    let small = |p: &[BigUint]| -> Option<Vec<Coord>> {
        p.iter().map(|c| Coord::try_from(c).ok()).collect()
    };
    if let (Some(xs), Some(ys)) = (small(x), small(y))
        && xs.iter().map(|&c| c as u128).sum::<u128>() <= 1 << 20
    {
        let mut found = false;
        game.for_each_option(&xs, &mut |o| found |= o == ys.as_slice());
        return Some(found);
    }
    let names = game.coordinate_names();
    let mut vars = names.clone();
    vars.extend(names.iter().map(|n| format!("{n}_")));
    let refs: Vec<&str> = vars.iter().map(String::as_str).collect();
    let f = Formula::compile(&relation.options, &refs).ok()?;
    let vals: Vec<num_bigint::BigInt> = x.iter().chain(y).map(|c| c.clone().into()).collect();
    let holds = !f.eval_exact(&vals).ok()?.is_zero();
    let legal = match &relation.positions {
        Some(p) => {
            let refs: Vec<&str> = names.iter().map(String::as_str).collect();
            let f = Formula::compile(p, &refs).ok()?;
            let at = |p: &[BigUint]| -> Option<bool> {
                let v: Vec<num_bigint::BigInt> = p.iter().map(|c| c.clone().into()).collect();
                Some(!f.eval_exact(&v).ok()?.is_zero())
            };
            at(x)? && at(y)?
        }
        None => true,
    };
    Some(holds && legal)
}

/// The least violation of `violation`'s statement, written out, and whether a check
/// independent of the automata confirms it.
fn counterexample(violation: &Violation<'_, '_>) -> Result<Counterexample, ProveError> {
    let Violation {
        game,
        claim,
        formula,
        relation,
        statement,
        bad,
        lay,
        num,
        opts,
    } = *violation;
    let xs = lay.x();
    let vals = least(bad, &xs, num)?;
    let get = |v: u32| vals.iter().find(|p| p.0 == v).map(|p| p.1.clone());
    let position: Vec<BigUint> = xs.iter().map(|&v| get(v).unwrap_or_default()).collect();
    let option: Option<Vec<BigUint>> = lay
        .y()
        .iter()
        .map(|&v| get(v))
        .collect::<Option<Vec<_>>>()
        .filter(|_| matches!(statement, "SG1" | "P1"));
    let value = get(lay.v()).filter(|_| statement == "SG2");
    let recheck = Recheck {
        game,
        claim,
        formula,
        coords: variables(game).1,
        opts,
    };
    let explanation = recheck.explain(statement, &position, option.as_deref(), value.as_ref());
    if statement == "defined" {
        recheck.refuse_negative_intermediate(&position)?;
    }
    let mut notes = Vec::new();
    // 1. The solver (or the game's closed form) at X, Y and X's options.
    let mut confirmed =
        recheck.confirm_by_solver(statement, &position, option.as_deref(), &mut notes);
    // 2. Else exact arithmetic on the violation itself.
    if confirmed.is_none() {
        confirmed = recheck.confirm_by_arithmetic(
            statement,
            relation,
            &position,
            option.as_deref(),
            &mut notes,
        );
    }
    Ok(Counterexample {
        statement,
        position,
        option,
        value,
        explanation,
        confirmed,
        recheck_note: notes.join("; "),
    })
}

fn show(p: &[BigUint]) -> String {
    plan::position_text(p)
}

/// What re-checks a violation the automata found: the game, the claim and where its
/// variables read the position.
struct Recheck<'a> {
    game: &'a dyn Game,
    claim: Claim,
    formula: &'a Formula,
    /// The coordinate each of the formula's variables reads.
    coords: Vec<usize>,
    opts: &'a ProveOptions<'a>,
}

impl Recheck<'_> {
    /// The claim's exact value (the automata's meaning), at any size.
    fn exact_at(&self, p: &[BigUint]) -> Result<BigInt, String> {
        let xs: Vec<BigInt> = self
            .coords
            .iter()
            .map(|&c| BigInt::from(p[c].clone()))
            .collect();
        self.formula
            .eval_exact(&xs)
            .map_err(|(f, col)| format!("{f} (column {col})"))
    }

    /// The 64-bit evaluator's value, where coordinates fit.
    fn eval_at(&self, p: &[BigUint]) -> Option<Result<i64, String>> {
        let xs: Option<Vec<i64>> = self
            .coords
            .iter()
            .map(|&c| i64::try_from(&p[c]).ok())
            .collect();
        xs.map(|xs| self.formula.eval(&xs).map_err(|e| e.to_string()))
    }

    /// What the claim says at `p`, in words.
    fn claim_word(&self, p: &[BigUint]) -> String {
        match (self.claim, self.exact_at(p)) {
            (_, Err(e)) => format!("undefined: {e}"),
            (Claim::Grundy, Ok(v)) => format!("φ = {v}"),
            (Claim::PPositions, Ok(v)) => {
                if v.is_zero() {
                    "claimed N".into()
                } else {
                    "claimed P".into()
                }
            }
        }
    }

    /// The violation of `statement` in words.
    fn explain(
        &self,
        statement: &str,
        position: &[BigUint],
        option: Option<&[BigUint]>,
        value: Option<&BigUint>,
    ) -> String {
        match statement {
            "defined" => format!(
                "at {} the claim is not a natural number ({})",
                show(position),
                self.claim_word(position)
            ),
            "SG1" | "P1" => {
                let y = option.unwrap_or_default();
                format!(
                    "{} ({}) has the option {} ({})",
                    show(position),
                    self.claim_word(position),
                    show(y),
                    self.claim_word(y)
                )
            }
            "SG2" => format!(
                "{} ({}) has no option Y with φ(Y) = {}",
                show(position),
                self.claim_word(position),
                value.cloned().unwrap_or_default()
            ),
            _ => format!(
                "{} ({}) has no option claimed P",
                show(position),
                self.claim_word(position)
            ),
        }
    }

    /// "defined" fails because of a negative intermediate value while the formula
    /// itself evaluates fine: not a counterexample, a limit of the method.
    fn refuse_negative_intermediate(&self, position: &[BigUint]) -> Result<(), ProveError> {
        let fine = |v: &BigInt| self.claim == Claim::PPositions || !v.is_negative();
        let value = match (self.exact_at(position), self.eval_at(position)) {
            (Ok(v), _) if fine(&v) => Some(v),
            (_, Some(Ok(v))) if fine(&BigInt::from(v)) => Some(BigInt::from(v)),
            _ => None,
        };
        match value {
            Some(v) => Err(ProveError::NegativeIntermediate(format!(
                "at {} an intermediate value of the claim is negative (it evaluates to {v}); the automata work with natural numbers — rewrite it, e.g. with if … then … else",
                show(position)
            ))),
            None => Ok(()),
        }
    }

    /// The planner's answer at `p` (noted), and the position with a description when
    /// it differs from the claim.
    fn check(&self, p: &[BigUint], notes: &mut Vec<String>) -> Option<(Vec<BigUint>, String)> {
        let r = match plan::value(self.game, p, &self.opts.table) {
            Ok(r) => r,
            Err(e) => {
                notes.push(format!("{}: {e}", show(p)));
                return None;
            }
        };
        let differs = match (self.claim, self.exact_at(p)) {
            (Claim::Grundy, Ok(v)) => match &r.grundy {
                Some(g) => BigInt::from(g.clone()) != v,
                None => false,
            },
            (Claim::PPositions, Ok(v)) => v.is_zero() == (r.outcome == nimlab_engine::Outcome::P),
            (_, Err(_)) => true,
        };
        let actual = match &r.grundy {
            Some(g) => format!("G = {g}"),
            None => format!("{}-position", r.outcome.as_str()),
        };
        notes.push(format!("{}: {actual} by {}", show(p), r.method.id()));
        differs.then(|| {
            (
                p.to_vec(),
                format!(
                    "{actual} by {}, the claim says {}",
                    r.method.detail,
                    self.claim_word(p)
                ),
            )
        })
    }

    /// The solver (or the game's closed form) at X, Y and, for SG2 and P2, X's options:
    /// the first position where it differs from the claim.
    fn confirm_by_solver(
        &self,
        statement: &str,
        position: &[BigUint],
        option: Option<&[BigUint]>,
        notes: &mut Vec<String>,
    ) -> Option<(Vec<BigUint>, String)> {
        let mut candidates = vec![position];
        if let Some(y) = option {
            candidates.push(y);
        }
        for c in candidates {
            if let Some(hit) = self.check(c, notes) {
                return Some(hit);
            }
        }
        if !matches!(statement, "SG2" | "P2") {
            return None;
        }
        // the claim is right at X, so it is wrong at an option of X
        // listing the options of a huge position would not end: only up to 2^24 in all
        let p: Vec<Coord> = position
            .iter()
            .map(|c| Coord::try_from(c).ok())
            .collect::<Option<Vec<_>>>()
            .filter(|p| p.iter().map(|&c| c as u128).sum::<u128>() <= 1 << 24)?;
        let mut opts_list = Vec::new();
        self.game.for_each_option(&p, &mut |o| {
            if opts_list.len() < 10_000 {
                opts_list.push(o.to_vec())
            }
        });
        for o in opts_list {
            let ob: Vec<BigUint> = o.iter().map(|&c| BigUint::from(c)).collect();
            let mut quiet = Vec::new();
            if let Some(hit) = self.check(&ob, &mut quiet) {
                notes.push(quiet.pop().unwrap_or_default());
                return Some(hit);
            }
        }
        None
    }

    /// Exact arithmetic on the violation itself: an undefined claim, or an option with
    /// the same value (SG1) or both claimed P (P1) that the game's rules confirm.
    fn confirm_by_arithmetic(
        &self,
        statement: &str,
        relation: &MoveRelation,
        position: &[BigUint],
        option: Option<&[BigUint]>,
        notes: &mut Vec<String>,
    ) -> Option<(Vec<BigUint>, String)> {
        match statement {
            "defined" => {
                let word = self.claim_word(position);
                notes.push(format!("{}: {word}", show(position)));
                Some((
                    position.to_vec(),
                    format!("the claim evaluated exactly: {word}, not a natural number"),
                ))
            }
            "SG1" | "P1" => {
                let y = option.unwrap_or_default();
                let (fx, fy) = (self.exact_at(position), self.exact_at(y));
                let same = match (self.claim, &fx, &fy) {
                    (Claim::Grundy, Ok(a), Ok(b)) => a == b && !a.is_negative(),
                    (Claim::PPositions, Ok(a), Ok(b)) => !a.is_zero() && !b.is_zero(),
                    _ => false,
                };
                match is_option(self.game, relation, position, y) {
                    Some(true) if same => Some((
                        position.to_vec(),
                        format!(
                            "exact arithmetic: {} is an option of {} by the game's rules, and the claim gives both {}",
                            show(y),
                            show(position),
                            if self.claim == Claim::Grundy {
                                format!("the value {}", fx.as_ref().expect("defined"))
                            } else {
                                "P".into()
                            }
                        ),
                    )),
                    Some(false) => {
                        notes.push(format!(
                            "{} is not an option of {} by the game's own rules",
                            show(y),
                            show(position)
                        ));
                        None
                    }
                    _ => None,
                }
            }
            _ => None,
        }
    }
}
