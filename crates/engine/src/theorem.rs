//! The theorem registry's engine side: a theorem is a claim about a game (a closed
//! form, a set of P-positions, …) with a check that compares it with brute force.
//! Games declare their theorems next to their rules; the engine verifies them.

use crate::error::Result;
use crate::game::{format_position, Coord, Game};
use crate::memory::MemoryLimit;
use crate::progress::{NoProgress, Progress};
use crate::table::{grundy_table, GrundyTable, TableOptions};

/// The result of checking a claim on a finite window.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// No counterexample in the window.
    Holds {
        /// The window checked, e.g. `[0,64)^2`.
        window: String,
        /// How many cases were compared.
        checked: u64,
    },
    /// The first counterexample found.
    Fails {
        /// What disagrees, e.g. `G(3,5) = 6 but the formula gives 7`.
        counterexample: String,
    },
}

impl Verdict {
    /// Whether the claim held.
    pub fn holds(&self) -> bool {
        matches!(self, Verdict::Holds { .. })
    }

    /// Combines verdicts of sub-checks: the first failure, else one window listing all.
    pub fn all(parts: Vec<(String, Verdict)>) -> Verdict {
        // Windows in first-seen order, each with the labels checked on it.
        let mut windows: Vec<(String, Vec<String>)> = Vec::new();
        let mut checked = 0;
        for (label, v) in parts {
            match v {
                Verdict::Holds { window, checked: c } => {
                    checked += c;
                    match windows.iter_mut().find(|(w, _)| *w == window) {
                        Some((_, labels)) => labels.push(label),
                        None => windows.push((window, vec![label])),
                    }
                }
                Verdict::Fails { counterexample } => {
                    return Verdict::Fails {
                        counterexample: if label.is_empty() {
                            counterexample
                        } else {
                            format!("{label}: {counterexample}")
                        },
                    }
                }
            }
        }
        let window = windows
            .into_iter()
            .map(|(w, labels)| {
                let labels: Vec<String> = labels.into_iter().filter(|l| !l.is_empty()).collect();
                if labels.is_empty() {
                    w
                } else {
                    format!("{w} for {}", labels.join(", "))
                }
            })
            .collect::<Vec<_>>()
            .join("; ");
        Verdict::Holds { window, checked }
    }
}

/// How far and with what resources to check.
pub struct CheckContext<'a> {
    /// The window size requested (`--size`); each theorem picks its box from it.
    pub size: usize,
    /// Memory limit for tables.
    pub memory_limit: MemoryLimit,
    /// Progress sink.
    pub progress: &'a dyn Progress,
    /// Run brute force even when its estimate is very long.
    pub force: bool,
}

impl CheckContext<'_> {
    /// Refuses a window whose square table would not fit the memory limit. Checks
    /// compare values on a square of side `size` (a table of 4-byte values); finding
    /// that out only when a theorem's table is allocated would come after minutes of
    /// the other theorems' work, or as an allocation failure in a check that sizes a
    /// sequence by the square.
    ///
    /// ```
    /// use nimlab_engine::theorem::CheckContext;
    /// assert!(CheckContext::with_size(64).check_window().is_ok());
    /// assert!(CheckContext::with_size(1 << 20).check_window().is_err());
    /// ```
    pub fn check_window(&self) -> Result<()> {
        let cells = (self.size as u64).saturating_mul(self.size as u64);
        self.memory_limit.check(
            &format!("the theorems' window {0}x{0}", self.size),
            cells.saturating_mul(4),
        )
    }

    /// A context for `size` with default limits and no progress display.
    pub fn with_size(size: usize) -> CheckContext<'static> {
        CheckContext {
            size,
            memory_limit: MemoryLimit::default(),
            progress: &NoProgress,
            force: false,
        }
    }

    /// Table options matching this context.
    pub fn table_options(&self) -> TableOptions<'_> {
        TableOptions {
            memory_limit: self.memory_limit,
            progress: self.progress,
            force: self.force,
        }
    }
}

type CheckFn = dyn Fn(&CheckContext) -> Result<Verdict> + Send + Sync;

/// A registered theorem.
///
/// ```
/// use nimlab_engine::theorem::{Theorem, Verdict, CheckContext};
/// let t = Theorem::new("demo", "0 = 0", "none", |_ctx| Ok(Verdict::Holds {
///     window: "everywhere".into(), checked: 1 }));
/// assert!(t.verify(&CheckContext::with_size(8)).unwrap().holds());
/// ```
pub struct Theorem {
    /// Stable identifier, e.g. `ryuoh.thm-3.1`.
    pub id: String,
    /// The claim in words.
    pub statement: String,
    /// Where it comes from (a seed file, a paper).
    pub source: String,
    /// Instances of the theorem that `nimlab prove` can decide for every position.
    pub claims: Vec<ProofClaim>,
    check: Box<CheckFn>,
}

/// One instance of a theorem as a claim for `nimlab prove`: a game, a Grundy formula
/// or P-position predicate, and the numeration its automata read.
///
/// ```
/// use nimlab_engine::theorem::ProofClaim;
/// let c = ProofClaim::grundy("nim", "x xor y", "base2");
/// assert!(!c.p_positions);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProofClaim {
    /// The game's spec, e.g. `ryuoh(p=3)`.
    pub game: String,
    /// Whether `formula` is a P-position predicate (else a Grundy formula).
    pub p_positions: bool,
    /// The formula or predicate.
    pub formula: String,
    /// `base2`, `base-B` or `fib`.
    pub numeration: String,
}

impl ProofClaim {
    /// A Grundy formula claim.
    pub fn grundy(game: &str, formula: &str, numeration: &str) -> Self {
        ProofClaim {
            game: game.into(),
            p_positions: false,
            formula: formula.into(),
            numeration: numeration.into(),
        }
    }
    /// A P-position predicate claim.
    pub fn p_positions(game: &str, predicate: &str, numeration: &str) -> Self {
        ProofClaim {
            p_positions: true,
            ..ProofClaim::grundy(game, predicate, numeration)
        }
    }
}

impl Theorem {
    /// Whether `id` picks this theorem, as every surface reads it: its id or a prefix of
    /// it (`ryuoh` picks every Ryuoh theorem); no `id` picks every theorem.
    pub fn is_chosen_by(&self, id: Option<&str>) -> bool {
        id.is_none_or(|i| self.id == i || self.id.starts_with(i))
    }

    /// A theorem with its brute-force check.
    pub fn new(
        id: impl Into<String>,
        statement: impl Into<String>,
        source: impl Into<String>,
        check: impl Fn(&CheckContext) -> Result<Verdict> + Send + Sync + 'static,
    ) -> Self {
        Theorem {
            id: id.into(),
            statement: statement.into(),
            source: source.into(),
            claims: Vec::new(),
            check: Box::new(check),
        }
    }

    /// The theorem with instances `nimlab prove` can decide for every position.
    pub fn with_claims(mut self, claims: Vec<ProofClaim>) -> Self {
        self.claims = claims;
        self
    }

    /// Runs the check, after [`CheckContext::check_window`]: a window too large for
    /// the memory limit is refused at once, before any work.
    pub fn verify(&self, ctx: &CheckContext) -> Result<Verdict> {
        ctx.check_window()?;
        (self.check)(ctx)
    }
}

/// `[0,64)^2` or `[0,64)x[0,2)`.
pub fn describe_window(dims: &[usize]) -> String {
    if dims.iter().all(|&d| d == dims[0]) {
        if dims.len() == 1 {
            format!("[0,{})", dims[0])
        } else {
            format!("[0,{})^{}", dims[0], dims.len())
        }
    } else {
        dims.iter()
            .map(|d| format!("[0,{d})"))
            .collect::<Vec<_>>()
            .join("x")
    }
}

/// Compares every value of a computed table with `claim` (the first mismatch fails).
pub fn compare_table(
    table: &GrundyTable,
    claim: impl Fn(&[Coord]) -> u64,
    claim_name: &str,
) -> Verdict {
    let mut checked = 0;
    for (pos, g) in table.iter() {
        let f = claim(&pos);
        if f != g as u64 {
            return Verdict::Fails {
                counterexample: format!(
                    "G({}) = {g} but {claim_name} gives {f}",
                    format_position(&pos)
                ),
            };
        }
        checked += 1;
    }
    Verdict::Holds {
        window: describe_window(table.dims()),
        checked,
    }
}

/// Checks `G = formula` on the box `dims` by brute force.
///
/// ```
/// use nimlab_engine::{Game, Coord};
/// use nimlab_engine::theorem::{check_grundy_formula, CheckContext};
/// struct Nim2;
/// impl Game for Nim2 {
///     fn spec(&self) -> String { "nim".into() }
///     fn dimension(&self) -> usize { 2 }
///     fn is_downward_closed(&self) -> bool { true }
///     fn for_each_option(&self, p: &[Coord], visit: &mut dyn FnMut(&[Coord])) {
///         for u in 0..p[0] { visit(&[u, p[1]]); }
///         for v in 0..p[1] { visit(&[p[0], v]); }
///     }
/// }
/// let ctx = CheckContext::with_size(16);
/// assert!(check_grundy_formula(&Nim2, &[16, 16], &ctx, |p| p[0] ^ p[1]).unwrap().holds());
/// assert!(!check_grundy_formula(&Nim2, &[16, 16], &ctx, |p| p[0] + p[1]).unwrap().holds());
/// ```
pub fn check_grundy_formula(
    game: &dyn Game,
    dims: &[usize],
    ctx: &CheckContext,
    formula: impl Fn(&[Coord]) -> u64,
) -> Result<Verdict> {
    let table = grundy_table(game, dims, &ctx.table_options())?;
    Ok(compare_table(&table, formula, "the formula"))
}

/// Checks that the P-positions (value 0) on the box are exactly where `predicate` holds.
pub fn check_p_positions(
    game: &dyn Game,
    dims: &[usize],
    ctx: &CheckContext,
    predicate: impl Fn(&[Coord]) -> bool,
) -> Result<Verdict> {
    let table = grundy_table(game, dims, &ctx.table_options())?;
    let mut checked = 0;
    for (pos, g) in table.iter() {
        let claimed = predicate(&pos);
        if claimed != (g == 0) {
            return Ok(Verdict::Fails {
                counterexample: format!(
                    "({}) has G = {g} but the claim says it is {}a P-position",
                    format_position(&pos),
                    if claimed { "" } else { "not " }
                ),
            });
        }
        checked += 1;
    }
    Ok(Verdict::Holds {
        window: describe_window(dims),
        checked,
    })
}
