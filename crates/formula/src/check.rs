//! Comparing a formula with a computed Grundy table, cell by cell — the seeds' research
//! method (compute the table, guess a formula, compare; Tables 1–2 of the Ryuoh paper).

use crate::{Column, EvalError, Formula, FormulaError};
use nimlab_engine::{Coord, Error, Game, GrundyTable, Position, TableOptions, INVALID};

/// What a formula claims.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Claim {
    /// The formula is the Grundy value.
    Grundy,
    /// The formula (non-zero = true) holds exactly at the P-positions (value 0).
    PPositions,
}

impl Claim {
    /// The claim's id in answer documents: `formula` or `p_positions`.
    pub fn id(self) -> &'static str {
        match self {
            Claim::Grundy => "formula",
            Claim::PPositions => "p_positions",
        }
    }
}

/// One cell where the claim fails.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mismatch {
    /// The position.
    pub position: Position,
    /// Its Grundy value.
    pub grundy: u32,
    /// What the formula gave there.
    pub formula: i64,
}

/// The outcome of a comparison.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    /// Number of positions compared (cells that are legal positions).
    pub checked: u64,
    /// Total number of mismatches.
    pub mismatch_count: u64,
    /// The first mismatches in storage order (first coordinate fastest), at most `limit`.
    pub mismatches: Vec<Mismatch>,
    /// One flag per cell (storage order) if asked for: whether the cell mismatches.
    pub mask: Option<Vec<bool>>,
}

/// The variables a formula about `game` may use: the game's coordinate names, then the
/// aliases `x0, x1, …` (each alias refers to the coordinate of the same index).
///
/// ```
/// use nimlab_engine::{Game, Coord};
/// struct Nim2;
/// impl Game for Nim2 {
///     fn spec(&self) -> String { "nim".into() }
///     fn dimension(&self) -> usize { 2 }
///     fn for_each_option(&self, _: &[Coord], _: &mut dyn FnMut(&[Coord])) {}
/// }
/// let (names, coords) = nimlab_formula::check::variables(&Nim2);
/// assert_eq!(names, ["x", "y", "x0", "x1"]);
/// assert_eq!(coords, [0, 1, 0, 1]);
/// ```
pub fn variables(game: &dyn Game) -> (Vec<String>, Vec<usize>) {
    let mut names = game.coordinate_names();
    let mut coords: Vec<usize> = (0..names.len()).collect();
    for i in 0..game.dimension() {
        let alias = format!("x{i}");
        if !names.contains(&alias) {
            names.push(alias);
            coords.push(i);
        }
    }
    (names, coords)
}

/// Compiles `text` over the variables of `game` (see [`variables`]) and named
/// `constants` (a rules file's parameters).
pub fn compile_for(
    game: &dyn Game,
    text: &str,
    constants: &[(&str, i64)],
) -> Result<Formula, FormulaError> {
    let (names, _) = variables(game);
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    Formula::compile_with_constants(text, &refs, constants)
}

/// Compiles a claim's text as [`compile_for`] does; a P-position claim must moreover be
/// a condition ([`Formula::is_condition`]), as rules files require of their predicates:
/// `x+y` would silently read "non-zero is true".
///
/// ```
/// use nimlab_engine::{Game, Coord};
/// use nimlab_formula::check::{compile_claim, Claim};
/// struct Nim2;
/// impl Game for Nim2 {
///     fn spec(&self) -> String { "nim".into() }
///     fn dimension(&self) -> usize { 2 }
///     fn for_each_option(&self, _: &[Coord], _: &mut dyn FnMut(&[Coord])) {}
/// }
/// assert!(compile_claim(&Nim2, "x == y", &[], Claim::PPositions).is_ok());
/// assert!(compile_claim(&Nim2, "x + y", &[], Claim::PPositions).is_err());
/// assert!(compile_claim(&Nim2, "x + y", &[], Claim::Grundy).is_ok());
/// ```
pub fn compile_claim(
    game: &dyn Game,
    text: &str,
    constants: &[(&str, i64)],
    claim: Claim,
) -> Result<Formula, FormulaError> {
    let f = compile_for(game, text, constants)?;
    if claim == Claim::PPositions && !f.is_condition() {
        return Err(FormulaError::new(
            1,
            "a P-position predicate must be a condition (a comparison, &&, ||, !), not a number",
        ));
    }
    Ok(f)
}

/// Compares `formula` (compiled by [`compile_for`] for `game`) with every legal cell of
/// `table`. Keeps the first `limit` mismatches; `want_mask` also records every
/// mismatching cell (for pictures).
///
/// ```
/// use nimlab_engine::{grundy_table, Game, Coord, TableOptions};
/// use nimlab_formula::check::{compare, compile_for, Claim};
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
/// let table = grundy_table(&Nim2, &[16, 16], &TableOptions::default()).unwrap();
/// let good = compile_for(&Nim2, "x xor y", &[]).unwrap();
/// assert_eq!(compare(&Nim2, &table, &good, Claim::Grundy, 20, false).unwrap().mismatch_count, 0);
/// let p = compile_for(&Nim2, "x == y", &[]).unwrap();
/// assert_eq!(compare(&Nim2, &table, &p, Claim::PPositions, 20, false).unwrap().mismatch_count, 0);
/// let bad = compile_for(&Nim2, "x + y", &[]).unwrap();
/// let r = compare(&Nim2, &table, &bad, Claim::Grundy, 20, false).unwrap();
/// assert_eq!(r.mismatches[0].position, vec![1, 1]);
/// ```
pub fn compare(
    game: &dyn Game,
    table: &GrundyTable,
    formula: &Formula,
    claim: Claim,
    limit: usize,
    want_mask: bool,
) -> Result<Report, EvalError> {
    let (_, coords) = variables(game);
    let dims = table.dims();
    let values = table.values();
    let row_len = dims.first().copied().unwrap_or(1).max(1);
    let first: Vec<i64> = (0..row_len as i64).collect();
    let mut out = vec![0i64; row_len];
    let mut ev = formula.evaluator();
    let mut report = Report {
        checked: 0,
        mismatch_count: 0,
        mismatches: Vec::new(),
        mask: want_mask.then(|| vec![false; values.len()]),
    };
    let mut columns: Vec<Column<'_>> = Vec::with_capacity(coords.len());
    for start in (0..values.len()).step_by(row_len) {
        let row_pos: Position = table.position_of(start);
        columns.clear();
        for &c in &coords {
            columns.push(if c == 0 {
                Column::Values(&first)
            } else {
                Column::Constant(coord_i64(row_pos[c]))
            });
        }
        ev.eval(&columns, &mut out)?;
        for (i, (&g, &f)) in values[start..start + row_len].iter().zip(&out).enumerate() {
            if g == INVALID {
                continue;
            }
            report.checked += 1;
            let ok = match claim {
                Claim::Grundy => f == g as i64,
                Claim::PPositions => (f != 0) == (g == 0),
            };
            if !ok {
                report.mismatch_count += 1;
                if let Some(mask) = report.mask.as_mut() {
                    mask[start + i] = true;
                }
                if report.mismatches.len() < limit {
                    let mut position = row_pos.clone();
                    position[0] = i as Coord;
                    report.mismatches.push(Mismatch {
                        position,
                        grundy: g,
                        formula: f,
                    });
                }
            }
        }
    }
    Ok(report)
}

fn coord_i64(c: Coord) -> i64 {
    // Table coordinates are indices of an allocated box, far below 2^63.
    c.min(i64::MAX as Coord) as i64
}

/// A claim checked on a whole box: the computed table, the comparison, and how long
/// computing the table took.
#[derive(Debug, Clone)]
pub struct Checked {
    /// What was claimed.
    pub claim: Claim,
    /// The claim's text (a formula or a predicate).
    pub text: String,
    /// The box: each coordinate runs over `0..dims[i]`.
    pub dims: Vec<usize>,
    /// The Grundy table computed from the rules (never from a closed form).
    pub table: GrundyTable,
    /// The comparison.
    pub report: Report,
    /// Time spent computing the table.
    pub table_time: std::time::Duration,
}

/// The whole of a conjecture check, as every surface (CLI, Python) runs it: compile
/// `text` for `game` (with named `constants`), compute the table of the box
/// `game.table_box(size)` from the rules only ([`nimlab_engine::plan::computed_table`]),
/// and compare. Errors are one-line input errors naming the formula.
///
/// ```
/// use nimlab_engine::{Coord, Game, TableOptions};
/// use nimlab_formula::check::{check_box, Claim};
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
/// let opts = TableOptions::default();
/// let c = check_box(&Nim2, "x xor y", Claim::Grundy, &[], 16, &opts, 20, false).unwrap();
/// assert_eq!((c.report.checked, c.report.mismatch_count), (256, 0));
/// assert!(check_box(&Nim2, "x +", Claim::Grundy, &[], 16, &opts, 20, false).is_err());
/// ```
#[allow(clippy::too_many_arguments)]
pub fn check_box(
    game: &dyn Game,
    text: &str,
    claim: Claim,
    constants: &[(&str, i64)],
    size: usize,
    opts: &TableOptions,
    limit: usize,
    want_mask: bool,
) -> nimlab_engine::Result<Checked> {
    if size == 0 {
        return Err(Error::out_of_range(
            "the box's side",
            0,
            "at least 1",
            nimlab_engine::Knob::Size,
        ));
    }
    let formula = compile_claim(game, text, constants, claim)
        .map_err(|e| Error::input(format!("{e} (in '{text}')")))?;
    let dims = game.table_box(size);
    let started = std::time::Instant::now();
    let table = nimlab_engine::plan::computed_table(game, &dims, opts)?.table;
    let table_time = started.elapsed();
    let report = compare(game, &table, &formula, claim, limit, want_mask)
        .map_err(|e| Error::input(format!("the formula failed: {e}")))?;
    Ok(Checked {
        claim,
        text: text.to_string(),
        dims,
        table,
        report,
        table_time,
    })
}

/// What a game's source declares about it: a rules file's closed form or P-position
/// predicate, and its named constants. Catalog games declare nothing.
#[derive(Debug, Clone, Copy, Default)]
pub struct Declared<'a> {
    /// The declared Grundy value, if any.
    pub closed_form: Option<&'a str>,
    /// The declared P-position predicate, if any.
    pub p_positions: Option<&'a str>,
    /// Named constants formulas may use.
    pub constants: &'a [(String, i64)],
}

/// The claim a request makes (`check`, `prove`, on every surface): the formula or the
/// P-position predicate given, else the game source's closed form, else its declared
/// P-positions.
///
/// ```
/// use nimlab_engine::{Coord, Game};
/// use nimlab_formula::check::{choose_claim, Claim, Declared};
/// struct Heap; // one heap of nim
/// impl Game for Heap {
///     fn spec(&self) -> String { "heap".into() }
///     fn dimension(&self) -> usize { 1 }
///     fn for_each_option(&self, p: &[Coord], f: &mut dyn FnMut(&[Coord])) {
///         for n in 0..p[0] { f(&[n]) }
///     }
/// }
/// let game = Heap;
/// let none = Declared { closed_form: None, p_positions: None, constants: &[] };
/// let (claim, text) = choose_claim(None, Some("x == y"), &game, &none).unwrap();
/// assert_eq!((claim, text.as_str()), (Claim::PPositions, "x == y"));
/// assert!(choose_claim(None, None, &game, &none).is_err());
/// ```
pub fn choose_claim(
    formula: Option<&str>,
    p_positions: Option<&str>,
    game: &dyn Game,
    declared: &Declared,
) -> nimlab_engine::Result<(Claim, String)> {
    match (formula, p_positions) {
        (Some(_), Some(_)) => Err(Error::input(
            "give a formula or a P-position predicate, not both",
        )),
        (Some(f), None) => Ok((Claim::Grundy, f.to_string())),
        (None, Some(p)) => Ok((Claim::PPositions, p.to_string())),
        (None, None) => match (declared.closed_form, declared.p_positions) {
            (Some(f), _) => Ok((Claim::Grundy, f.to_string())),
            (None, Some(p)) => Ok((Claim::PPositions, p.to_string())),
            (None, None) => Err(Error::input(format!(
                "give a formula or a P-position predicate ({} declares no closed form)",
                game.spec()
            ))),
        },
    }
}

/// A conjecture check as every surface asks it (the CLI's `check`, the web's
/// `/api/check`, Python's `Game.check`): the claim given (a formula or a P-position
/// predicate; neither: what the game's source declares), the box side, and how many
/// mismatches to keep.
///
/// ```
/// use nimlab_engine::{Coord, Game, TableOptions};
/// use nimlab_formula::check::{CheckRequest, Claim, Declared};
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
/// let req = CheckRequest { p_positions: Some("x == y".into()), size: 8, ..Default::default() };
/// let c = req.run(&Nim2, &Declared::default(), &TableOptions::default()).unwrap();
/// assert_eq!((c.claim, c.report.checked, c.report.mismatch_count), (Claim::PPositions, 64, 0));
/// ```
#[derive(Debug, Clone, Default)]
pub struct CheckRequest {
    /// The claimed Grundy value.
    pub formula: Option<String>,
    /// A predicate claimed to hold exactly at the P-positions.
    pub p_positions: Option<String>,
    /// The side of the box (the game's `table_box(size)`).
    pub size: usize,
    /// Most mismatches kept.
    pub limit: usize,
    /// Also flag every mismatching cell (for pictures).
    pub want_mask: bool,
}

impl CheckRequest {
    /// The claim to check: the one given, else the game source's closed form, else its
    /// P-position predicate.
    pub fn claim(
        &self,
        game: &dyn Game,
        declared: &Declared,
    ) -> nimlab_engine::Result<(Claim, String)> {
        choose_claim(
            self.formula.as_deref(),
            self.p_positions.as_deref(),
            game,
            declared,
        )
    }

    /// Runs the check ([`check_box`] on the chosen claim).
    pub fn run(
        &self,
        game: &dyn Game,
        declared: &Declared,
        opts: &TableOptions,
    ) -> nimlab_engine::Result<Checked> {
        let (claim, text) = self.claim(game, declared)?;
        let constants: Vec<(&str, i64)> = declared
            .constants
            .iter()
            .map(|(n, v)| (n.as_str(), *v))
            .collect();
        check_box(
            game,
            &text,
            claim,
            &constants,
            self.size,
            opts,
            self.limit,
            self.want_mask,
        )
    }
}
