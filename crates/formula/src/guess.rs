//! Formula discovery: given a Grundy table, propose formulas in the formula language that
//! reproduce it (or its P-positions), verify them on a larger window, and say honestly
//! when nothing in the search space fits.
//!
//! The search space (documented for users in `docs/guess.md`):
//!
//! * nim sums of per-coordinate terms `x`, `x % a`, `x / a` (2 ≤ a ≤ 8), any coordinate
//!   possibly absent (up to three coordinates; beyond, only `x` or absent);
//! * σ^\[b\] forms `(x+y)%b + b*((x/b) xor (y/b))` (3 ≤ b ≤ 8, any ≥ 2 coordinates; b = 2 is the plain nim sum),
//!   mixed-radix sums `sigma(beta=[b0, b1], …)` (bases 2..6) and Flanigan's
//!   `nimsum_b(b, …)` (3 ≤ b ≤ 8);
//! * one-coordinate tables: arithmetic-periodic sequences (preperiod, period, saltus)
//!   written with `%` and `if`;
//! * P-positions: zeros of all the above, periodic zero sets of one heap, and Beatty
//!   pairs (⌊nα⌋, ⌊nα⌋ + a·n) with α = (2 − a + √(a² + 4))/2 (a = 1: the golden ratio,
//!   Wythoff's P-positions; a ≥ 2: Fraenkel's a-Wythoff), written exactly in integers;
//!   for a heap h and a limit l: `l < zeck_low(h)` and `l < (h & -h)`;
//! * an enumeration of expression trees of at most [`ENUM_SIZE`] nodes (7 for one
//!   coordinate) over the coordinates and constants 1..8 with `+ - * / % xor`,
//!   keeping one tree per distinct value vector on the training window.
//!
//! Candidates are screened on the training table; every one reported as found has been
//! re-parsed from its text and compared with [`crate::check::compare`] on the training
//! window and on the verification window.
//!
//! ```
//! use nimlab_engine::{GrundyTable, NoProgress};
//! use nimlab_formula::check::Claim;
//! use nimlab_formula::guess::guess;
//! // Nim with two heaps: x xor y
//! let values: Vec<u32> = (0..64u32).map(|i| (i % 8) ^ (i / 8)).collect();
//! let table = GrundyTable::from_parts(vec![8, 8], values).unwrap();
//! let names = ["x".to_string(), "y".to_string()];
//! let g = guess(&table, &names, None, Claim::Grundy, &NoProgress).unwrap();
//! assert_eq!(g.found[0].formula, "x xor y");
//! ```

use crate::check::{compare, compile_for, Claim, Mismatch};
use crate::{Column, Formula};
use nimlab_engine::periodicity::{find_arithmetic_period, Periodicity};
use nimlab_engine::{
    Coord, Error, Game, GrundyTable, MemoryLimit, Progress, Result, TableOptions, INVALID,
};
use rayon::prelude::*;
use std::collections::HashSet;
use std::hash::{Hash, Hasher};

/// Largest expression tree (in nodes) enumerated for tables of two or more coordinates.
pub const ENUM_SIZE: usize = 5;
/// Largest expression tree enumerated for one-coordinate tables.
pub const ENUM_SIZE_1D: usize = 7;
/// Largest training window (cells): every template is screened on every cell.
pub const MAX_TRAINING_CELLS: usize = 1 << 18;
/// Most fitting candidates re-checked exactly.
pub const MAX_VERIFIED: usize = 200;
/// Most bytes of freshly made trees held before they are de-duplicated.
const MADE_AT_ONCE_BYTES: usize = 8 << 20;
/// Most coordinates a guessed table may have (the templates number about 2^d).
pub const MAX_DIMENSION: usize = 6;
/// Most verified candidates reported.
pub const MAX_FOUND: usize = 8;
/// Most enumerated trees among the candidates verified (they are often rewritings of
/// one another: `x - y == 0`, `2*(x - y) == 0`, …).
pub const MAX_ENUMERATED: usize = 2;
/// The family name of enumerated trees.
const ENUMERATED: &str = "enumerated expression";
/// Nearest candidates reported when none fits.
pub const MAX_NEAREST: usize = 3;

/// A verified formula.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// The formula's text (in the formula language).
    pub formula: String,
    /// Nodes of its parse tree.
    pub size: usize,
    /// Which part of the search space produced it.
    pub family: &'static str,
    /// The windows it was checked on: (box, positions checked), training first.
    pub windows: Vec<(Vec<usize>, u64)>,
}

/// A candidate that does not fit: where and how badly.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Near {
    /// The formula's text.
    pub formula: String,
    /// Nodes of its parse tree.
    pub size: usize,
    /// Which part of the search space produced it.
    pub family: &'static str,
    /// The window compared.
    pub window: Vec<usize>,
    /// Positions compared.
    pub checked: u64,
    /// Positions where it fails.
    pub mismatch_count: u64,
    /// The first failing position (storage order).
    pub first_counterexample: Option<Mismatch>,
}

/// The result of a search.
#[derive(Debug, Clone, Default)]
pub struct Guess {
    /// Verified formulas, simplest first.
    pub found: Vec<Found>,
    /// Formulas that fit the training window but failed on the verification window.
    pub failed_verification: Vec<Near>,
    /// When nothing was found: the candidates with fewest mismatches on the training window.
    pub nearest: Vec<Near>,
    /// Distinct candidates screened.
    pub searched: u64,
    /// Limits that stopped part of the search (e.g. periods longer than a third of the
    /// training window), in words; empty when none did.
    pub limits: Vec<String>,
}

/// A stand-in game that only names coordinates, so [`compare`] can check a bare table.
struct Named(Vec<String>);

impl Game for Named {
    fn spec(&self) -> String {
        "table".into()
    }
    fn dimension(&self) -> usize {
        self.0.len()
    }
    fn coordinate_names(&self) -> Vec<String> {
        self.0.clone()
    }
    fn for_each_option(&self, _: &[Coord], _: &mut dyn FnMut(&[Coord])) {}
}

/// The legal cells of the training table, as columns.
struct Cells {
    /// `coords[v][i]`: coordinate v of cell i.
    coords: Vec<Vec<i64>>,
    /// Grundy value of cell i.
    values: Vec<i64>,
}

impl Cells {
    fn new(table: &GrundyTable) -> Cells {
        let d = table.dims().len();
        let mut coords = vec![Vec::new(); d];
        let mut values = Vec::new();
        for (pos, g) in table.iter() {
            if g == INVALID {
                continue;
            }
            for (c, &p) in coords.iter_mut().zip(&pos) {
                c.push(p as i64);
            }
            values.push(g as i64);
        }
        Cells { coords, values }
    }

    /// At most `limit` cells: one from each of `limit` equal stretches of the storage
    /// order, at a scrambled offset (a plain stride would line up with the rows and see
    /// only some residues of the first coordinate).
    fn sample(&self, limit: usize) -> Cells {
        let n = self.values.len();
        if n <= limit {
            return Cells {
                coords: self.coords.clone(),
                values: self.values.clone(),
            };
        }
        let pick: Vec<usize> = (0..limit)
            .map(|k| {
                let (lo, hi) = (k * n / limit, (k + 1) * n / limit);
                lo + (k.wrapping_mul(2_654_435_761) >> 7) % (hi - lo).max(1)
            })
            .collect();
        Cells {
            coords: self
                .coords
                .iter()
                .map(|c| pick.iter().map(|&i| c[i]).collect())
                .collect(),
            values: pick.iter().map(|&i| self.values[i]).collect(),
        }
    }

    /// Mismatches of value vector `out` under `claim`.
    fn mismatches(&self, out: &[i64], claim: Claim) -> u64 {
        match claim {
            Claim::Grundy => self.values.iter().zip(out).filter(|(g, f)| g != f).count() as u64,
            Claim::PPositions => self
                .values
                .iter()
                .zip(out)
                .filter(|(g, f)| (**f != 0) != (**g == 0))
                .count() as u64,
        }
    }

    /// Screens a formula text: its training mismatches, `None` if it fails to compile or
    /// to evaluate.
    fn screen(&self, names: &[String], text: &str, claim: Claim) -> Option<u64> {
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        let f = Formula::compile(text, &refs).ok()?;
        let cols: Vec<Column<'_>> = self.coords.iter().map(|c| Column::Values(c)).collect();
        let mut out = vec![0; self.values.len()];
        f.evaluator().eval(&cols, &mut out).ok()?;
        Some(self.mismatches(&out, claim))
    }
}

/// A candidate formula before verification.
#[derive(Debug, Clone)]
struct Candidate {
    text: String,
    family: &'static str,
    mismatches: u64,
}

/// Searches formulas for `training` (coordinates named `names`); verifies those that fit
/// on `training` and on `verification` (a larger table of the same game) if given.
/// When nothing fits, [`Guess::nearest`] holds the closest candidates.
///
/// ```
/// use nimlab_engine::{GrundyTable, NoProgress};
/// use nimlab_formula::check::Claim;
/// use nimlab_formula::guess::guess;
/// // Game I (take 1, 2 or 3): P-positions are the multiples of 4
/// let table = GrundyTable::from_parts(vec![40], (0..40).map(|n| n % 4).collect()).unwrap();
/// let g = guess(&table, &["n".to_string()], None, Claim::PPositions, &NoProgress).unwrap();
/// assert_eq!(g.found[0].formula, "n % 4 == 0");
/// assert_eq!(g.found[0].windows, vec![(vec![40], 40)]);
/// ```
pub fn guess(
    training: &GrundyTable,
    names: &[String],
    verification: Option<&GrundyTable>,
    claim: Claim,
    progress: &dyn Progress,
) -> Result<Guess> {
    let opts = TableOptions {
        progress,
        ..TableOptions::default()
    };
    guess_with(training, names, verification, claim, &opts, None)
}

/// As [`guess`], with the period the game proves (one coordinate: [`proven_period`]):
/// its formula is a candidate whatever the training window's length, where the window
/// alone only shows periods of at most a third of its length.
///
/// ```
/// use nimlab_engine::periodicity::Periodicity;
/// use nimlab_engine::{GrundyTable, NoProgress};
/// use nimlab_formula::check::Claim;
/// use nimlab_formula::guess::{guess, guess_with};
/// // Subtraction {2, 3}: G = 0 0 1 1 repeated. Eight values show no period of at most 8/3.
/// let block = [0, 0, 1, 1];
/// let table = GrundyTable::from_parts(vec![8], (0..8).map(|n| block[n % 4]).collect()).unwrap();
/// let names = ["n".to_string()];
/// let alone = guess(&table, &names, None, Claim::Grundy, &NoProgress).unwrap();
/// assert!(alone.limits[0].contains("a third of the training window"));
/// let proven = Periodicity {
///     preperiod: 0, period: 4, saltus: 0, values: block.to_vec(),
///     checked_up_to: 100, proof: Some("a proof".into()),
/// };
/// let opts = nimlab_engine::TableOptions::default();
/// let g = guess_with(&table, &names, None, Claim::Grundy, &opts, Some(&proven)).unwrap();
/// assert!(g.found.iter().any(|f| f.family == "proven period"));
/// ```
pub fn guess_with(
    training: &GrundyTable,
    names: &[String],
    verification: Option<&GrundyTable>,
    claim: Claim,
    opts: &TableOptions,
    known: Option<&Periodicity>,
) -> Result<Guess> {
    let cells = checked_cells(training, names)?;
    let mut limits = Vec::new();
    let (candidates, searched) = screen(&cells, names, claim, opts, known, &mut limits);
    let game = Named(names.to_vec());
    let mut result = Guess {
        searched,
        limits,
        ..Guess::default()
    };
    let mut enumerated_found = 0;
    // Each verification is cheap, but the list of fitting candidates is not bounded.
    for (size, c) in fitting(&candidates, names).into_iter().take(MAX_VERIFIED) {
        if result.found.len() >= MAX_FOUND {
            break;
        }
        let is_enumerated = c.family == ENUMERATED;
        if is_enumerated && enumerated_found >= MAX_ENUMERATED {
            continue;
        }
        match verify(&game, &c, size, training, verification, claim) {
            Verified::Unparsable | Verified::Misfit => {}
            Verified::Failed(near) => {
                if result.failed_verification.len() < MAX_NEAREST {
                    result.failed_verification.push(near)
                }
            }
            Verified::Holds(windows) => {
                enumerated_found += is_enumerated as usize;
                result.found.push(Found {
                    formula: c.text,
                    size,
                    family: c.family,
                    windows,
                })
            }
        }
    }
    if result.found.is_empty() {
        result.nearest = nearest(&game, &candidates, names, training, claim);
    }
    result.nearest.sort_by_key(|n| (n.mismatch_count, n.size));
    result.nearest.truncate(MAX_NEAREST);
    Ok(result)
}

/// The training table's cells, once its shape is one `guess` searches.
fn checked_cells(training: &GrundyTable, names: &[String]) -> Result<Cells> {
    let d = training.dims().len();
    if names.len() != d {
        return Err(Error::input(format!(
            "{} coordinate names for a table of {d} coordinates",
            names.len()
        )));
    }
    // The templates combine a term per coordinate: their number grows as 2^d.
    if d > MAX_DIMENSION {
        return Err(Error::input(format!(
            "a table of {d} coordinates: guess searches tables of at most {MAX_DIMENSION}"
        )));
    }
    let total = training.values().len();
    if total > MAX_TRAINING_CELLS {
        return Err(Error::input(format!(
            "the training window has {total} cells; at most {MAX_TRAINING_CELLS} are searched \
             (train on a smaller window, verify on a larger one)"
        )));
    }
    let cells = Cells::new(training);
    if cells.values.is_empty() {
        return Err(Error::input("the table holds no position"));
    }
    Ok(cells)
}

/// Every candidate screened on the cells: the templates (and periods, for one
/// coordinate) on every cell, the enumerated trees on a sample; with the number of
/// candidates searched.
fn screen(
    cells: &Cells,
    names: &[String],
    claim: Claim,
    opts: &TableOptions,
    known: Option<&Periodicity>,
    limits: &mut Vec<String>,
) -> (Vec<Candidate>, u64) {
    let progress = opts.progress;
    let d = names.len();
    let mut texts: Vec<(String, &'static str)> = templates(names, claim);
    if d == 1 {
        texts.extend(periodic(cells, &names[0], claim, known, limits));
    }
    progress.start(0, "candidates screened");
    let mut candidates: Vec<Candidate> = texts
        .par_iter()
        .filter_map(|(text, family)| {
            let m = cells.screen(names, text, claim)?;
            progress.advance(1);
            Some(Candidate {
                text: text.clone(),
                family,
                mismatches: m,
            })
        })
        .collect();
    let max_size = if d == 1 { ENUM_SIZE_1D } else { ENUM_SIZE };
    // Enumeration keeps value vectors of whole tree levels: it screens a strided sample
    // of the cells (exact checks on every cell follow for whatever it proposes).
    let sample = cells.sample(if max_size >= 7 { 256 } else { 4096 });
    let (mut enumerated, count) = enumerate(
        &sample,
        names,
        claim,
        max_size,
        progress,
        opts.memory_limit,
        limits,
    );
    // Near misses counted on the sample: scale to the whole window for the ranking.
    let (whole, part) = (cells.values.len() as u64, sample.values.len().max(1) as u64);
    for c in enumerated.iter_mut().filter(|c| c.mismatches > 0) {
        c.mismatches = (c.mismatches * whole).div_ceil(part);
    }
    candidates.extend(enumerated);
    progress.finish();
    let searched = candidates.len() as u64 + count;
    (candidates, searched)
}

/// The candidates that fit their screening, each text once with its size: simplest
/// first, at equal size a template before an enumerated tree.
fn fitting(candidates: &[Candidate], names: &[String]) -> Vec<(usize, Candidate)> {
    let mut fitting: Vec<(usize, Candidate)> = Vec::new();
    let mut seen = HashSet::new();
    for c in candidates.iter().filter(|c| c.mismatches == 0) {
        if seen.insert(c.text.clone()) {
            fitting.push((size_of(names, &c.text), c.clone()));
        }
    }
    let rank = |c: &Candidate| (c.family == ENUMERATED) as u8;
    fitting.sort_by(|a, b| {
        (a.0, rank(&a.1), a.1.text.len(), &a.1.text).cmp(&(
            b.0,
            rank(&b.1),
            b.1.text.len(),
            &b.1.text,
        ))
    });
    fitting
}

/// What the exact check of a fitting candidate found.
enum Verified {
    /// Its text does not compile (never reported: only verified text is).
    Unparsable,
    /// Proposed from a sample of the training window, but does not fit it all.
    Misfit,
    /// It fails on the verification window (or cannot be compared there).
    Failed(Near),
    /// It holds on every window: each window with its cells checked.
    Holds(Vec<(Vec<usize>, u64)>),
}

/// The exact check of a candidate on the training window, then the verification
/// window, with `check`'s machinery on its re-parsed text.
fn verify(
    game: &Named,
    c: &Candidate,
    size: usize,
    training: &GrundyTable,
    verification: Option<&GrundyTable>,
    claim: Claim,
) -> Verified {
    let Ok(f) = compile_for(game, &c.text, &[]) else {
        return Verified::Unparsable;
    };
    let mut windows = Vec::new();
    for (stage, table) in std::iter::once(training).chain(verification).enumerate() {
        let near = |checked, mismatch_count, first_counterexample| Near {
            formula: c.text.clone(),
            size,
            family: c.family,
            window: table.dims().to_vec(),
            checked,
            mismatch_count,
            first_counterexample,
        };
        let report = match compare(game, table, &f, claim, 1, false) {
            Ok(r) => r,
            Err(_) => return Verified::Failed(near(0, 0, None)),
        };
        if report.mismatch_count > 0 && stage == 0 {
            return Verified::Misfit;
        }
        if report.mismatch_count > 0 {
            return Verified::Failed(near(
                report.checked,
                report.mismatch_count,
                report.mismatches.first().cloned(),
            ));
        }
        windows.push((table.dims().to_vec(), report.checked));
    }
    Verified::Holds(windows)
}

/// When nothing fits: the candidates of fewest mismatches on the screening, checked
/// exactly on the training window.
fn nearest(
    game: &Named,
    candidates: &[Candidate],
    names: &[String],
    training: &GrundyTable,
    claim: Claim,
) -> Vec<Near> {
    let mut rest: Vec<&Candidate> = candidates.iter().filter(|c| c.mismatches > 0).collect();
    rest.sort_by(|a, b| {
        a.mismatches
            .cmp(&b.mismatches)
            .then_with(|| a.text.len().cmp(&b.text.len()))
            .then_with(|| a.text.cmp(&b.text))
    });
    let mut nearest = Vec::new();
    for c in rest.into_iter().take(2 * MAX_NEAREST) {
        let Ok(f) = compile_for(game, &c.text, &[]) else {
            continue;
        };
        if let Ok(report) = compare(game, training, &f, claim, 1, false) {
            nearest.push(Near {
                formula: c.text.clone(),
                size: size_of(names, &c.text),
                family: c.family,
                window: training.dims().to_vec(),
                checked: report.checked,
                mismatch_count: report.mismatch_count,
                first_counterexample: report.mismatches.first().cloned(),
            });
        }
    }
    nearest
}

/// Nodes of the parse tree of `text`.
fn size_of(names: &[String], text: &str) -> usize {
    fn count(e: &crate::parse::Expr) -> usize {
        use crate::parse::Kind;
        1 + match &e.kind {
            Kind::Num(_) | Kind::Var(_) => 0,
            Kind::Unary(_, a) => count(a),
            Kind::Binary(_, a, b) => count(a) + count(b),
            Kind::If(c, a, b) => count(c) + count(a) + count(b),
            Kind::Call(_, args) => args.iter().map(count).sum(),
            Kind::All(_, body) => count(body),
        }
    }
    crate::parse::parse(text, names, &[])
        .map(|e| count(&e))
        .unwrap_or(usize::MAX)
}

/// Template formulas (texts) for `claim`.
fn templates(names: &[String], claim: Claim) -> Vec<(String, &'static str)> {
    let mut values: Vec<(String, &'static str)> = vec![("0".into(), "constant")];
    values.extend(nim_sums_of_terms(names));
    values.extend(sigma_forms(names));
    let d = names.len();
    match claim {
        Claim::Grundy => values,
        Claim::PPositions => {
            let mut preds: Vec<(String, &'static str)> = values
                .into_iter()
                .filter(|(t, _)| t != "0")
                .map(|(t, fam)| (format!("{t} == 0"), fam))
                .collect();
            if d == 2 {
                for a in 1..=4 {
                    preds.push((beatty(&names[0], &names[1], a), "Beatty pair (a-Wythoff)"));
                }
                // Take-away games with a limit (heap h, limit l): P iff the limit is below
                // the smallest part of h's Zeckendorf (Fibonacci Nim) or binary (k = 1)
                // representation.
                for (h, l) in [(&names[0], &names[1]), (&names[1], &names[0])] {
                    preds.push((
                        format!("{h} == 0 || {l} < zeck_low({h})"),
                        "Zeckendorf predicate",
                    ));
                    preds.push((
                        format!("{h} == 0 || {l} < ({h} & -{h})"),
                        "binary predicate",
                    ));
                }
            }
            preds
        }
    }
}

/// Nim sums of per-coordinate terms (the coordinate, or for at most three coordinates
/// its remainder or quotient by 2…8), one term or none per coordinate.
fn nim_sums_of_terms(names: &[String]) -> Vec<(String, &'static str)> {
    let d = names.len();
    let mut values = Vec::new();
    let terms = |v: &str| -> Vec<String> {
        let mut t = vec![String::new(), v.to_string()];
        if d <= 3 {
            for a in 2..=8 {
                t.push(format!("{v} % {a}"));
                t.push(format!("{v} / {a}"));
            }
        }
        t
    };
    let per: Vec<Vec<String>> = names.iter().map(|v| terms(v)).collect();
    let mut idx = vec![0usize; d];
    loop {
        let parts: Vec<&String> = idx
            .iter()
            .enumerate()
            .map(|(v, &i)| &per[v][i])
            .filter(|t| !t.is_empty())
            .collect();
        if !parts.is_empty() {
            let text = if parts.len() == 1 {
                parts[0].clone()
            } else {
                parts
                    .iter()
                    .map(|t| {
                        if t.contains(' ') {
                            format!("({t})")
                        } else {
                            t.to_string()
                        }
                    })
                    .collect::<Vec<_>>()
                    .join(" xor ")
            };
            values.push((text, "nim sum of coordinate terms"));
        }
        // next index vector
        let mut k = 0;
        while k < d {
            idx[k] += 1;
            if idx[k] < per[k].len() {
                break;
            }
            idx[k] = 0;
            k += 1;
        }
        if k == d {
            break;
        }
    }
    values
}

/// σ-type forms over every subset of ≥ 2 coordinates (at most 4 coordinates).
fn sigma_forms(names: &[String]) -> Vec<(String, &'static str)> {
    let d = names.len();
    let mut values = Vec::new();
    if (2..=4).contains(&d) {
        for mask in 1u32..(1 << d) {
            if mask.count_ones() < 2 {
                continue;
            }
            let vs: Vec<&str> = (0..d)
                .filter(|i| mask >> i & 1 == 1)
                .map(|i| names[i].as_str())
                .collect();
            let list = vs.join(", ");
            for b in 3..=8 {
                let sum = vs.join("+");
                let quo: Vec<String> = vs.iter().map(|v| format!("({v}/{b})")).collect();
                values.push((
                    format!("({sum})%{b} + {b}*({})", quo.join(" xor ")),
                    "sigma^[b] form",
                ));
                if b >= 3 {
                    values.push((format!("nimsum_b({b}, {list})"), "base-b nim sum"));
                }
            }
            for b0 in 2..=6 {
                for b1 in 2..=6 {
                    if b0 == 2 && b1 == 2 {
                        continue; // the plain nim sum
                    }
                    values.push((
                        format!("sigma(beta=[{b0}, {b1}], {list})"),
                        "mixed-radix nim sum",
                    ));
                }
            }
        }
    }
    values
}

/// The predicate "(x, y) is a P-position of a-Wythoff": with m = min, M = max,
/// M − m = a·n and m = ⌊nα⌋, α = (2 − a + √(a²+4))/2, i.e. (integers only)
/// 0 ≤ 2m − (2−a)n, (2m − (2−a)n)² < (a²+4)n² < (2m + 2 − (2−a)n)².
#[doc(hidden)] // for the tests in tests/ (`internals`)
pub fn beatty(x: &str, y: &str, a: i64) -> String {
    let m = format!("min({x}, {y})");
    let diff = format!("abs({x} - {y})");
    let n = if a == 1 {
        diff.clone()
    } else {
        format!("({diff} / {a})")
    };
    let k = 2 - a;
    let low = match k {
        1 => format!("2*{m} - {n}"),
        0 => format!("2*{m}"),
        _ => format!("2*{m} + {}*{n}", -k),
    };
    let div = if a == 1 {
        String::new()
    } else {
        format!("{diff} % {a} == 0 && ")
    };
    let c = a * a + 4;
    format!(
        "{x} + {y} == 0 || {div}{diff} > 0 && {low} >= 0 && ({low})^2 < {c}*{n}^2 && {c}*{n}^2 < ({low} + 2)^2"
    )
}

/// Periodic and arithmetic-periodic descriptions of a one-coordinate table: the `known`
/// (proven) period if given, else one seen in the table; a search that finds none says
/// in `limits` how long a period it looked for.
fn periodic(
    cells: &Cells,
    n: &str,
    claim: Claim,
    known: Option<&Periodicity>,
    limits: &mut Vec<String>,
) -> Vec<(String, &'static str)> {
    if let Some(per) = known {
        let mut seq = per.values.clone();
        if claim == Claim::PPositions {
            if per.saltus != 0 {
                return Vec::new();
            }
            seq.iter_mut().for_each(|v| *v = (*v == 0) as u32);
        }
        let per = Periodicity {
            values: seq,
            ..per.clone()
        };
        if per.values.len() as u64 == per.preperiod + per.period {
            return vec![(periodic_text(&per, n, claim), "proven period")];
        }
    }
    // The sequence must be complete from 0 for the period search.
    let len = cells.values.len();
    if cells.coords[0]
        .iter()
        .enumerate()
        .any(|(i, &c)| c != i as i64)
        || len < 6
    {
        return Vec::new();
    }
    let seq: Vec<u32> = match claim {
        Claim::Grundy => cells.values.iter().map(|&g| g as u32).collect(),
        Claim::PPositions => cells.values.iter().map(|&g| (g == 0) as u32).collect(),
    };
    let Some(per) = find_arithmetic_period(&seq, len / 3, 2) else {
        limits.push(format!(
            "no period of at most {} (a third of the training window of {len}) was seen; \
             a longer one needs a longer window",
            len / 3
        ));
        return Vec::new();
    };
    if claim == Claim::PPositions && per.saltus != 0 {
        return Vec::new();
    }
    vec![(
        periodic_text(&per, n, claim),
        "arithmetic-periodic sequence",
    )]
}

/// The formula of a periodic sequence (`per.values`: 0/1 flags of the P-positions for
/// a P-position claim).
fn periodic_text(per: &Periodicity, n: &str, claim: Claim) -> String {
    let pre = per.preperiod as usize;
    let p = per.period as i64;
    let block = &per.values[pre..];
    let k = if pre == 0 {
        format!("{n} % {p}")
    } else {
        format!("({n} - {pre}) % {p}")
    };
    match claim {
        Claim::Grundy => {
            // The block, as nested ifs (or k itself when the block is 0, 1, …, p−1).
            let mut body = if block.iter().enumerate().all(|(i, &v)| v as usize == i) {
                k.clone()
            } else {
                let mut e = block[block.len() - 1].to_string();
                for (i, v) in block.iter().enumerate().rev().skip(1) {
                    e = format!("if {k} == {i} then {v} else {e}");
                }
                e
            };
            if per.saltus != 0 {
                let q = if pre == 0 {
                    format!("{n} / {p}")
                } else {
                    format!("({n} - {pre}) / {p}")
                };
                body = format!("({body}) + {}*({q})", per.saltus);
            }
            let mut e = body;
            for i in (0..pre).rev() {
                e = format!("if {n} == {i} then {} else {e}", per.values[i]);
            }
            e
        }
        Claim::PPositions => {
            let zeros: Vec<String> = block
                .iter()
                .enumerate()
                .filter(|&(_, &v)| v == 1)
                .map(|(i, _)| format!("{k} == {i}"))
                .collect();
            let mut e = if zeros.is_empty() {
                "false".to_string()
            } else {
                zeros.join(" || ")
            };
            if pre > 0 {
                let early: Vec<String> = (0..pre)
                    .filter(|&i| per.values[i] == 1)
                    .map(|i| format!("{n} == {i}"))
                    .collect();
                let early = if early.is_empty() {
                    "false".to_string()
                } else {
                    early.join(" || ")
                };
                e = format!("if {n} < {pre} then {early} else {e}");
            }
            e
        }
    }
}

/// The period `game` proves for its Grundy sequence (one coordinate; e.g. subtraction
/// and octal games), if the planner finds one by its default search. Nothing when the
/// game has none to offer or the search is refused.
pub fn proven_period(game: &dyn Game, opts: &nimlab_engine::TableOptions) -> Option<Periodicity> {
    if game.dimension() != 1 {
        return None;
    }
    match nimlab_engine::plan::periodicity(game, None, opts) {
        Ok((Some(p), _, _)) if p.proof.is_some() => Some(p),
        _ => None,
    }
}

/// One enumerated expression: its text, top-level precedence, and values on the cells.
#[derive(Clone)]
struct Expr {
    text: String,
    prec: u8,
    vals: Vec<i64>,
}

#[derive(Clone, Copy)]
enum Op {
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    Xor,
}

const OPS: [Op; 6] = [Op::Add, Op::Sub, Op::Mul, Op::Div, Op::Mod, Op::Xor];

impl Op {
    fn prec(self) -> u8 {
        match self {
            Op::Xor => 6,
            Op::Add | Op::Sub => 9,
            Op::Mul | Op::Div | Op::Mod => 10,
        }
    }
    fn symbol(self) -> &'static str {
        match self {
            Op::Add => "+",
            Op::Sub => "-",
            Op::Mul => "*",
            Op::Div => "/",
            Op::Mod => "%",
            Op::Xor => "xor",
        }
    }
    fn apply(self, a: i64, b: i64) -> Option<i64> {
        match self {
            Op::Add => a.checked_add(b),
            Op::Sub => a.checked_sub(b),
            Op::Mul => a.checked_mul(b),
            Op::Div => {
                let q = a.checked_div_euclid(b)?;
                Some(q - (a.checked_rem_euclid(b)? != 0 && b < 0) as i64)
            }
            Op::Mod => a.checked_rem_euclid(b),
            Op::Xor => Some(a ^ b),
        }
    }
    /// `a op b` as text, with the parentheses precedence needs.
    fn text(self, a: &Expr, b: &Expr) -> String {
        let p = self.prec();
        let l = if a.prec < p {
            format!("({})", a.text)
        } else {
            a.text.clone()
        };
        let r = if b.prec <= p {
            format!("({})", b.text)
        } else {
            b.text.clone()
        };
        format!("{l} {} {r}", self.symbol())
    }
}

fn combine(op: Op, a: &Expr, b: &Expr) -> Option<Vec<i64>> {
    a.vals
        .iter()
        .zip(&b.vals)
        .map(|(&x, &y)| op.apply(x, y))
        .collect()
}

fn key(vals: &[i64]) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    vals.hash(&mut h);
    h.finish()
}

/// Bottom-up enumeration of expression trees of at most `max_size` nodes (odd sizes: all
/// operators are binary), one tree per distinct value vector on the cells. Returns the
/// candidates that fit (and the best near misses) and how many trees were screened.
fn enumerate(
    cells: &Cells,
    names: &[String],
    claim: Claim,
    max_size: usize,
    progress: &dyn Progress,
    memory: MemoryLimit,
    limits: &mut Vec<String>,
) -> (Vec<Candidate>, u64) {
    let n = cells.values.len();
    // What the kept trees hold (value vectors, texts, the de-duplication set), counted
    // against half the memory limit: the search stops growing trees when it is reached.
    let budget = memory.bytes() / 2;
    let mut held = 0u64;
    let cost = |e: &Expr| (e.vals.len() * 8 + e.text.len() + 96) as u64;
    let mut seen: HashSet<u64> = HashSet::new();
    let mut levels: Vec<Vec<Expr>> = vec![Vec::new(); max_size + 1];
    for e in leaves(cells, names) {
        if seen.insert(key(&e.vals)) {
            held += cost(&e);
            levels[1].push(e);
        }
    }
    let mut out: Vec<Candidate> = Vec::new();
    let mut best: Vec<Candidate> = Vec::new();
    let mut screened = 0u64;
    let consider = |e: &Expr, out: &mut Vec<Candidate>, best: &mut Vec<Candidate>| {
        let c = screen_tree(cells, claim, e);
        let m = c.mismatches;
        if m == 0 {
            out.push(c);
        } else if best.len() < MAX_NEAREST || m < best[best.len() - 1].mismatches {
            best.push(c);
            best.sort_by_key(|c| c.mismatches);
            best.truncate(MAX_NEAREST);
        }
    };
    for e in &levels[1] {
        consider(e, &mut out, &mut best);
        screened += 1;
    }
    let mut size = 3;
    'sizes: while size <= max_size {
        // Trees of `size` nodes: an operator over (l, size − 1 − l) nodes.
        let mut pairs: Vec<(usize, usize)> = Vec::new();
        let mut l = 1;
        while l < size - 1 {
            pairs.push((l, size - 1 - l));
            l += 2;
        }
        let last = size + 2 > max_size;
        let mut fresh: Vec<Expr> = Vec::new();
        for (ls, rs) in pairs {
            let (left, right) = (&levels[ls], &levels[rs]);
            // The trees made from a slice of `left` are de-duplicated before the next
            // slice is made: all of them at once held gigabytes of value vectors (most
            // of them duplicates). Same trees, same order as in one go.
            let per_tree = right.len() * OPS.len() * (n.max(1) * 8 + 64);
            let slice = (MADE_AT_ONCE_BYTES / per_tree.max(1)).max(1);
            for part in left.chunks(slice) {
                let made = trees_over(part, right, progress);
                for e in made.into_iter().flatten() {
                    if seen.insert(key(&e.vals)) {
                        screened += 1;
                        consider(&e, &mut out, &mut best);
                        held += if last { 24 } else { cost(&e) };
                        if !last {
                            fresh.push(e);
                        }
                    }
                }
                if held > budget {
                    limits.push(format!(
                        "formulas of {size} or more symbols were searched only in part: the \
                         trees kept reached half the memory limit ({})",
                        nimlab_engine::error::human_bytes(memory.bytes())
                    ));
                    break 'sizes;
                }
            }
        }
        levels[size] = fresh;
        size += 2;
    }
    out.extend(best);
    (out, screened)
}

/// The trees of one node: each coordinate, and the constants 1 to 8.
fn leaves(cells: &Cells, names: &[String]) -> Vec<Expr> {
    let n = cells.values.len();
    let mut leaves: Vec<Expr> = names
        .iter()
        .zip(&cells.coords)
        .map(|(name, c)| Expr {
            text: name.clone(),
            prec: 100,
            vals: c.clone(),
        })
        .collect();
    leaves.extend((1..=8).map(|k| Expr {
        text: k.to_string(),
        prec: 100,
        vals: vec![k; n],
    }));
    leaves
}

/// An enumerated tree as a candidate, with its mismatches on the cells.
fn screen_tree(cells: &Cells, claim: Claim, e: &Expr) -> Candidate {
    let m = match claim {
        Claim::Grundy => cells.mismatches(&e.vals, claim),
        // The predicate printed is `e == 0`: compare e's zero set with the P-positions.
        Claim::PPositions => cells
            .values
            .iter()
            .zip(&e.vals)
            .filter(|(g, v)| (**g == 0) != (**v == 0))
            .count() as u64,
    };
    let text = match claim {
        Claim::Grundy => e.text.clone(),
        Claim::PPositions => format!("{} == 0", e.text),
    };
    Candidate {
        text,
        family: ENUMERATED,
        mismatches: m,
    }
}

/// Every operator over a tree of `left` and one of `right`, in parallel over `left`
/// (one list per tree of `left`, in order).
fn trees_over(left: &[Expr], right: &[Expr], progress: &dyn Progress) -> Vec<Vec<Expr>> {
    left.par_iter()
        .map(|a| {
            let mut v = Vec::new();
            for b in right {
                for op in OPS {
                    if let Some(vals) = combine(op, a, b) {
                        v.push(Expr {
                            text: op.text(a, b),
                            prec: op.prec(),
                            vals,
                        });
                    }
                }
            }
            progress.advance((right.len() * OPS.len()) as u64);
            v
        })
        .collect()
}
