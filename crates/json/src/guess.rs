//! `guess` as one library call, for every surface: which windows a game is guessed on,
//! the search itself, a proof of each formula found when asked, and the document the
//! answer is written as.

use crate::doc::Nat;
use nimlab_engine::game::default_coordinate_names;
use nimlab_engine::{Error, Game, GrundyTable, Knob, Result, TableOptions, INVALID};
use nimlab_formula::check::Claim;
use nimlab_formula::guess::{Guess, Near};
use nimlab_formula::prove::{Proof, ProveError};
#[cfg(feature = "schema")]
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;

/// What to guess for a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GuessRequest {
    /// Grundy values or P-positions.
    pub claim: Claim,
    /// Side of the training window (default 64 for one coordinate, 16 for two, 8 beyond).
    pub size: Option<usize>,
    /// Side of the verification window (default 4 × the training side).
    pub verify_size: Option<usize>,
    /// Prove each formula found for all positions, as `prove` does.
    pub prove: bool,
}

impl GuessRequest {
    /// A search for the Grundy values with the default windows and no proof.
    pub fn grundy() -> Self {
        GuessRequest {
            claim: Claim::Grundy,
            size: None,
            verify_size: None,
            prove: false,
        }
    }
}

/// The proof attempt of one formula found.
#[derive(Debug)]
pub struct FoundProof {
    /// The numeration the formula's functions need (`base2`, `fib`, …).
    pub numeration: String,
    /// The proof, or why there is none.
    pub outcome: std::result::Result<Proof, ProveError>,
}

impl FoundProof {
    /// Whether the formula is proved for all positions.
    pub fn proved(&self) -> bool {
        matches!(
            &self.outcome,
            Ok(p) if matches!(p.verdict, nimlab_formula::prove::Verdict::Proved)
        )
    }
}

/// A finished guess: its windows, the search's result and the proofs asked for.
#[derive(Debug)]
pub struct GuessRun {
    /// The game's spec, or where the table came from.
    pub label: String,
    /// The coordinates' names.
    pub names: Vec<String>,
    /// What was searched for.
    pub claim: Claim,
    /// The training window.
    pub training: GrundyTable,
    /// The verification window (none for a table given as data).
    pub verification: Option<GrundyTable>,
    /// The search.
    pub result: Guess,
    /// Per formula found, its proof when proofs were asked for.
    pub proofs: Vec<Option<FoundProof>>,
}

impl GuessRun {
    /// Whether the run succeeded: a formula proved (when proofs were asked for) or found.
    pub fn succeeded(&self, prove: bool) -> bool {
        if prove {
            self.proofs.iter().flatten().any(FoundProof::proved)
        } else {
            !self.result.found.is_empty()
        }
    }
}

/// Guesses a formula for `game`: computes the training and verification windows,
/// searches (using a period the game proves), and proves each formula found when
/// `request.prove` (`constants` are the named constants of a rules file's formulas).
///
/// ```
/// use nimlab_json::guess::{guess_game, GuessRequest};
/// let game = nimlab_games::parse_game("subtraction(s={1,2,3})").unwrap();
/// let run = guess_game(&*game, &[], &GuessRequest::grundy(), &Default::default()).unwrap();
/// assert_eq!(run.result.found[0].formula, "n % 4");
/// ```
pub fn guess_game(
    game: &dyn Game,
    constants: &[(String, i64)],
    request: &GuessRequest,
    opts: &TableOptions,
) -> Result<GuessRun> {
    if game.capabilities().nplayer.is_some() {
        return Err(Error::input(format!(
            "{} is an n-player game: its tables hold classes, not Grundy values",
            game.spec()
        )));
    }
    let size = request.size.unwrap_or(match game.dimension() {
        1 => 64,
        2 => 16,
        _ => 8,
    });
    if size == 0 {
        return Err(Error::out_of_range(
            "guess: the training window's side",
            size,
            "at least 1",
            Knob::Size,
        ));
    }
    let vsize = request.verify_size.unwrap_or(size.saturating_mul(4));
    if vsize < size {
        return Err(Error::out_of_range(
            "guess: the verification window's side",
            vsize,
            format!("at least the training side {size}"),
            Knob::VerifySize,
        ));
    }
    let cells = nimlab_engine::table::cell_count(&game.table_box(size))?;
    if cells > nimlab_formula::guess::MAX_TRAINING_CELLS as u64 {
        return Err(Error::out_of_range(
            format!("guess: the training window of {cells} cells: its side"),
            size,
            format!(
                "a window of at most {} cells (train on a smaller one and verify on a \
                 larger one)",
                nimlab_formula::guess::MAX_TRAINING_CELLS
            ),
            Knob::Size,
        ));
    }
    let training = nimlab_engine::plan::computed_table(game, &game.table_box(size), opts)?.table;
    let verification =
        nimlab_engine::plan::computed_table(game, &game.table_box(vsize), opts)?.table;
    let known = nimlab_formula::guess::proven_period(game, opts);
    let names = game.coordinate_names();
    let result = nimlab_formula::guess::guess_with(
        &training,
        &names,
        Some(&verification),
        request.claim,
        opts,
        known.as_ref(),
    )?;
    let proofs = result
        .found
        .iter()
        .map(|f| {
            request
                .prove
                .then(|| prove_found(game, constants, request.claim, &f.formula, opts))
        })
        .collect();
    Ok(GuessRun {
        label: game.spec(),
        names,
        claim: request.claim,
        training,
        verification: Some(verification),
        result,
        proofs,
    })
}

/// Guesses a formula for a table given as data (`text` as `table` writes it, CSV or
/// JSON); the table is both the training and the only verification window.
///
/// ```
/// use nimlab_json::guess::guess_table;
/// use nimlab_formula::check::Claim;
/// let csv = "x,y,grundy\n0,0,0\n1,0,1\n0,1,1\n1,1,0\n";
/// let run = guess_table("t.csv", csv, Claim::Grundy, &Default::default()).unwrap();
/// assert!(run.result.found.iter().any(|f| f.formula == "x xor y"));
/// ```
pub fn guess_table(label: &str, text: &str, claim: Claim, opts: &TableOptions) -> Result<GuessRun> {
    let (names, training) = parse_table(text).map_err(|e| Error::input(format!("{label}: {e}")))?;
    let result = nimlab_formula::guess::guess_with(&training, &names, None, claim, opts, None)?;
    let proofs = result.found.iter().map(|_| None).collect();
    Ok(GuessRun {
        label: label.to_string(),
        names,
        claim,
        training,
        verification: None,
        result,
        proofs,
    })
}

/// The proof of one formula found, in the numeration its functions need, by the same
/// call as `prove`.
fn prove_found(
    game: &dyn Game,
    constants: &[(String, i64)],
    claim: Claim,
    formula: &str,
    opts: &TableOptions,
) -> FoundProof {
    use nimlab_formula::prove::{numeration_name, prove, suggest_numeration, ProveOptions};
    let num = suggest_numeration(game, formula);
    let prove_opts = ProveOptions {
        table: TableOptions {
            memory_limit: opts.memory_limit,
            progress: opts.progress,
            force: opts.force,
        },
        constants: constants.to_vec(),
    };
    FoundProof {
        numeration: numeration_name(&num),
        outcome: prove(game, claim, formula, num, &prove_opts),
    }
}

/// Reads a table as `table` writes it: CSV (a header naming the coordinates then the
/// value column; an empty value is not a position) or JSON (`box` and nested `values`).
pub fn parse_table(text: &str) -> std::result::Result<(Vec<String>, GrundyTable), String> {
    if text.trim_start().starts_with('{') {
        let v: Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
        let dims: Vec<usize> = v["box"]
            .as_array()
            .ok_or("no \"box\" array")?
            .iter()
            .map(|d| d.as_u64().map(|d| d as usize))
            .collect::<Option<_>>()
            .ok_or("\"box\" must hold sizes")?;
        let cells = nimlab_engine::table::cell_count(&dims).map_err(|e| e.to_string())?;
        if cells > MAX_TABLE_CELLS {
            return Err("table too large for guessing".into());
        }
        let mut values = Vec::new();
        // Depth-first over the nesting (last coordinate outermost) is storage order.
        let mut stack = vec![&v["values"]];
        while let Some(x) = stack.pop() {
            match x {
                Value::Array(a) => stack.extend(a.iter().rev()),
                Value::Null => values.push(INVALID),
                Value::Number(n) => values.push(
                    n.as_u64()
                        .and_then(|n| u32::try_from(n).ok())
                        .filter(|&n| n != INVALID)
                        .ok_or_else(|| format!("bad value {n}"))?,
                ),
                _ => return Err("\"values\" must hold numbers or null".into()),
            }
        }
        let table = GrundyTable::from_parts(dims.clone(), values)
            .map_err(|e| format!("values do not fill the box: {e}"))?;
        return Ok((default_coordinate_names(dims.len()), table));
    }
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    let header: Vec<String> = lines
        .next()
        .ok_or("empty file")?
        .split(',')
        .map(|s| s.trim().to_string())
        .collect();
    if header.len() < 2 {
        return Err("the header must name the coordinates, then the value".into());
    }
    let d = header.len() - 1;
    // Flat, compact rows (coordinates are below 2^24): twice the text at most.
    let mut coords: Vec<u32> = Vec::new();
    let mut cell_values: Vec<u32> = Vec::new();
    for (i, line) in lines.enumerate() {
        let fields: Vec<&str> = line.split(',').map(str::trim).collect();
        if fields.len() != d + 1 {
            return Err(format!(
                "line {}: expected {} fields, found {}",
                i + 2,
                d + 1,
                fields.len()
            ));
        }
        for f in &fields[..d] {
            let c = f
                .parse::<u32>()
                .ok()
                .filter(|&c| c < 1 << 24)
                .ok_or_else(|| format!("line {}: bad coordinate", i + 2))?;
            coords.push(c);
        }
        let value = if fields[d].is_empty() {
            INVALID
        } else {
            fields[d]
                .parse::<u32>()
                .ok()
                .filter(|&v| v != INVALID)
                .ok_or_else(|| format!("line {}: bad value '{}'", i + 2, fields[d]))?
        };
        cell_values.push(value);
    }
    let mut dims = vec![0usize; d];
    for pos in coords.chunks(d) {
        for (m, &c) in dims.iter_mut().zip(pos) {
            *m = (*m).max(c as usize + 1);
        }
    }
    let cells = nimlab_engine::table::cell_count(&dims).map_err(|e| e.to_string())?;
    if cells > MAX_TABLE_CELLS {
        return Err("table too large for guessing".into());
    }
    let mut values = vec![INVALID; cells as usize];
    for (pos, v) in coords.chunks(d).zip(cell_values) {
        let mut index = 0;
        for (&c, &m) in pos.iter().zip(&dims).rev() {
            index = index * m + c as usize;
        }
        values[index] = v;
    }
    let names = header[..d].to_vec();
    let table = GrundyTable::from_parts(dims, values).map_err(|e| e.to_string())?;
    Ok((names, table))
}

/// Cells a table given as data may have.
const MAX_TABLE_CELLS: u64 = 1 << 24;

/// One window a formula was checked on.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
pub struct WindowDoc {
    /// The box: coordinate i runs over 0..`box[i]`.
    #[serde(rename = "box")]
    pub dims: Vec<usize>,
    /// Positions checked.
    pub checked: Nat,
}

/// A formula found.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
pub struct FoundDoc {
    /// Its text.
    pub formula: String,
    /// Nodes of its parse tree.
    pub size: usize,
    /// Which part of the search space produced it.
    pub family: &'static str,
    /// The windows it was checked on, training first.
    pub windows: Vec<WindowDoc>,
    /// Its proof for all positions, when asked for (as `prove` writes it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub proof: Option<Value>,
}

/// Where a near miss fails first.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
pub struct CounterexampleDoc {
    /// The position.
    pub position: Vec<u64>,
    /// Its value in the table.
    pub grundy: u32,
    /// What the formula gave.
    pub formula: i64,
}

/// A candidate that does not fit.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
pub struct NearDoc {
    /// Its text.
    pub formula: String,
    /// Nodes of its parse tree.
    pub size: usize,
    /// Which part of the search space produced it.
    pub family: &'static str,
    /// The window compared.
    #[serde(rename = "box")]
    pub window: Vec<usize>,
    /// Positions compared.
    pub checked: Nat,
    /// Positions where it fails.
    pub mismatch_count: Nat,
    /// The first failing position (null when it fails to evaluate).
    pub first_counterexample: Option<CounterexampleDoc>,
}

impl NearDoc {
    fn new(n: &Near) -> Self {
        NearDoc {
            formula: n.formula.clone(),
            size: n.size,
            family: n.family,
            window: n.window.clone(),
            checked: n.checked.into(),
            mismatch_count: n.mismatch_count.into(),
            first_counterexample: n.first_counterexample.as_ref().map(|m| CounterexampleDoc {
                position: m.position.clone(),
                grundy: m.grundy,
                formula: m.formula,
            }),
        }
    }
}

/// The answer of `guess`.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
pub struct GuessDoc {
    /// The game's spec, or where the table came from.
    pub game: String,
    /// `grundy` or `p_positions`.
    pub claim: &'static str,
    /// The training window's box.
    pub training: Vec<usize>,
    /// The verification window's box (null for a table given as data).
    pub verification: Option<Vec<usize>>,
    /// Distinct candidates screened.
    pub searched: Nat,
    /// Limits that stopped part of the search, in words.
    pub limits: Vec<String>,
    /// Verified formulas, simplest first.
    pub found: Vec<FoundDoc>,
    /// Formulas that fit the training window but failed verification.
    pub failed_verification: Vec<NearDoc>,
    /// When nothing was found: the candidates nearest to fitting.
    pub nearest: Vec<NearDoc>,
}

impl GuessDoc {
    /// The document of `run`.
    pub fn new(run: &GuessRun) -> Self {
        let r = &run.result;
        GuessDoc {
            game: run.label.clone(),
            claim: match run.claim {
                Claim::Grundy => "grundy",
                Claim::PPositions => "p_positions",
            },
            training: run.training.dims().to_vec(),
            verification: run.verification.as_ref().map(|t| t.dims().to_vec()),
            searched: r.searched.into(),
            limits: r.limits.clone(),
            found: r
                .found
                .iter()
                .zip(&run.proofs)
                .map(|(f, p)| FoundDoc {
                    formula: f.formula.clone(),
                    size: f.size,
                    family: f.family,
                    windows: f
                        .windows
                        .iter()
                        .map(|(b, n)| WindowDoc {
                            dims: b.clone(),
                            checked: (*n).into(),
                        })
                        .collect(),
                    proof: p.as_ref().map(proof_doc),
                })
                .collect(),
            failed_verification: r.failed_verification.iter().map(NearDoc::new).collect(),
            nearest: r.nearest.iter().map(NearDoc::new).collect(),
        }
    }
}

fn proof_doc(p: &FoundProof) -> Value {
    match &p.outcome {
        Ok(proof) => crate::proof_json(proof),
        Err(e) => crate::doc::to_value(&UnprovedDoc {
            numeration: p.numeration.clone(),
            result: UnprovedResultDoc {
                proved: false,
                error: e.to_string(),
            },
        }),
    }
}

/// A formula found whose proof could not be attempted (e.g. no automaton for the
/// game): the numeration tried and why.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
pub struct UnprovedDoc {
    /// The numeration tried.
    pub numeration: String,
    /// Not proved, and why.
    pub result: UnprovedResultDoc,
}

/// Why a proof was not attempted.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
pub struct UnprovedResultDoc {
    /// Always false.
    pub proved: bool,
    /// The error.
    pub error: String,
}
