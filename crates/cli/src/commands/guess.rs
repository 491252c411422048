//! `nimlab guess`: search closed forms (or P-position predicates) for a Grundy table.

use super::{Context, OutputArgs, PlainFormat};
use crate::Status;
use nimlab_engine::game::{default_coordinate_names, format_position};
use nimlab_engine::theorem::describe_window;
use nimlab_engine::{Error, GrundyTable, Result, INVALID};
use nimlab_formula::check::Claim;
use nimlab_formula::guess::{Guess, Near};
use serde_json::json;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Search a documented space of formulas for the Grundy values (or the P-positions) of a
/// game, verify each fitting formula on a larger window, and list them simplest first.
/// Exit 0: some formula found; 1: none found; 2: bad input.
#[derive(clap::Args)]
#[command(after_help = "The search space is described in docs/guess.md.\n\n\
Examples:\n  nimlab guess 'ryuoh(p=3)' --size 13          # Theorem 3.1 from Table 1's window\n  \
nimlab guess 'subtraction(s={1,2,3})'\n  \
nimlab guess wythoff --p-positions             # the golden-ratio Beatty pairs\n  \
nimlab guess --from-table table.csv --format json")]
pub struct GuessArgs {
    /// Game, e.g. 'ryuoh(p=3)' (omit it with --rules or --from-table).
    #[arg(
        required_unless_present_any = ["rules", "from_table"],
        conflicts_with_all = ["rules", "from_table"]
    )]
    game: Option<String>,
    /// Take the game from a rules file (TOML) instead of the catalog.
    #[arg(long, value_name = "FILE", conflicts_with = "from_table")]
    rules: Option<PathBuf>,
    /// Guess for a table computed elsewhere: CSV or JSON as `nimlab table` writes them.
    /// The table is both the training and the only verification window.
    #[arg(long, value_name = "FILE")]
    from_table: Option<PathBuf>,
    /// Side of the training window (default 64 for one coordinate, 16 for two, 8 beyond).
    #[arg(long, short = 'n', value_name = "N")]
    size: Option<usize>,
    /// Side of the verification window (default 4 × the training side).
    #[arg(long, value_name = "M")]
    verify_size: Option<usize>,
    /// Search predicates for the P-positions (value 0) instead of the Grundy values.
    #[arg(long)]
    p_positions: bool,
    /// Then prove each formula found for ALL positions with automata (as `nimlab
    /// prove`, in the numeration its functions need). Exit 0 if one is proved.
    #[arg(long, conflicts_with = "from_table")]
    prove: bool,
    /// Output format. Default: from the --output extension, else text.
    #[arg(long, value_enum)]
    format: Option<PlainFormat>,
    #[command(flatten)]
    out: OutputArgs,
}

pub fn run(ctx: &Context, args: GuessArgs) -> Result<Status> {
    let format = args.out.format(args.format, PlainFormat::Text)?;
    let claim = if args.p_positions {
        Claim::PPositions
    } else {
        Claim::Grundy
    };
    let mut known = None;
    let mut loaded = None;
    let (label, names, training, verification) = match &args.from_table {
        Some(path) => {
            if args.size.is_some() || args.verify_size.is_some() {
                return Err(Error::input(
                    "--size and --verify-size do not apply to --from-table",
                ));
            }
            let (names, table) = read_table(path, ctx.memory_limit)?;
            (path.display().to_string(), names, table, None)
        }
        None => {
            let source = nimlab_games::source::load(args.game.as_deref(), args.rules.as_deref())?;
            let game = &*source.game;
            if game.capabilities().nplayer.is_some() {
                return Err(Error::input(format!(
                    "{} is an n-player game: its tables hold classes, not Grundy values",
                    game.spec()
                )));
            }
            let d = game.dimension();
            let size = args.size.unwrap_or(match d {
                1 => 64,
                2 => 16,
                _ => 8,
            });
            if size == 0 {
                return Err(Error::input("--size must be at least 1"));
            }
            let vsize = args.verify_size.unwrap_or(size.saturating_mul(4));
            if vsize < size {
                return Err(Error::input("--verify-size must be at least --size"));
            }
            let cells = nimlab_engine::table::cell_count(&game.table_box(size))?;
            if cells > nimlab_formula::guess::MAX_TRAINING_CELLS as u64 {
                return Err(Error::input(format!(
                    "--size {size} gives a training window of {cells} cells; guess trains on at \
                     most {} (use a smaller --size and a large --verify-size)",
                    nimlab_formula::guess::MAX_TRAINING_CELLS
                )));
            }
            let opts = ctx.table_options();
            let training =
                nimlab_engine::plan::computed_table(game, &game.table_box(size), &opts)?.table;
            let verification =
                nimlab_engine::plan::computed_table(game, &game.table_box(vsize), &opts)?.table;
            known = nimlab_formula::guess::proven_period(game, &opts);
            let out = (
                game.spec(),
                game.coordinate_names(),
                training,
                Some(verification),
            );
            loaded = Some(source);
            out
        }
    };
    let result = nimlab_formula::guess::guess_with(
        &training,
        &names,
        verification.as_ref(),
        claim,
        &ctx.table_options(),
        known.as_ref(),
    )?;
    // --prove: each formula found, by the same library call as `nimlab prove`
    let proofs: Vec<Option<ProofLine>> = match (&loaded, args.prove) {
        (Some(source), true) => result
            .found
            .iter()
            .map(|f| Some(prove_found(ctx, source, claim, &f.formula)))
            .collect(),
        _ => result.found.iter().map(|_| None).collect(),
    };
    let what = match claim {
        Claim::Grundy => "grundy",
        Claim::PPositions => "p_positions",
    };
    match format {
        PlainFormat::Json => {
            let value = json!({
                "game": label,
                "claim": what,
                "training": training.dims(),
                "verification": verification.as_ref().map(|t| t.dims().to_vec()),
                "searched": crate::json::int(result.searched),
                "limits": result.limits,
                "found": result.found.iter().zip(&proofs).map(|(f, p)| {
                    let mut v = json!({
                        "formula": f.formula,
                        "size": f.size,
                        "family": f.family,
                        "windows": f.windows.iter().map(|(b, n)| json!({"box": b, "checked": crate::json::int(*n)})).collect::<Vec<_>>(),
                    });
                    if let Some(p) = p {
                        v["proof"] = p.json.clone();
                    }
                    v
                }).collect::<Vec<_>>(),
                "failed_verification": result.failed_verification.iter().map(near_json).collect::<Vec<_>>(),
                "nearest": result.nearest.iter().map(near_json).collect::<Vec<_>>(),
            });
            args.out.emit(|out| ctx.print_json(out, &value))?;
        }
        PlainFormat::Text => args.out.emit(|out| {
            write_text(
                out,
                &label,
                claim,
                &result,
                &training,
                &verification,
                &proofs,
            )
        })?,
    }
    let ok = if args.prove {
        proofs.iter().flatten().any(|p| p.proved)
    } else {
        !result.found.is_empty()
    };
    Ok(if ok { Status::Ok } else { Status::Failed })
}

/// The verdict of `nimlab prove` on one formula `guess` found.
struct ProofLine {
    proved: bool,
    text: String,
    json: serde_json::Value,
}

fn prove_found(
    ctx: &Context,
    source: &nimlab_games::source::GameSource,
    claim: Claim,
    formula: &str,
) -> ProofLine {
    use nimlab_formula::prove::{
        numeration_name, prove, suggest_numeration, ProveOptions, Verdict,
    };
    let game = &*source.game;
    let num = suggest_numeration(game, formula);
    let opts = ProveOptions {
        table: ctx.table_options(),
        constants: source.constants.clone(),
    };
    let name = numeration_name(&num);
    match prove(game, claim, formula, num, &opts) {
        Ok(p) => {
            let proved = matches!(p.verdict, Verdict::Proved);
            let text = match &p.verdict {
                Verdict::Proved => format!("proved for all positions ({name}, {:.3} s)", p.seconds),
                Verdict::False(c) => format!(
                    "FALSE ({}): {}{}",
                    c.statement,
                    c.explanation,
                    match &c.confirmed {
                        Some((at, why)) => format!(
                            "; re-check at {}: {why}",
                            nimlab_engine::plan::position_text(at)
                        ),
                        None => String::new(),
                    }
                ),
            };
            ProofLine {
                proved,
                text,
                json: nimlab_json::proof_json(&p),
            }
        }
        Err(e) => ProofLine {
            proved: false,
            text: format!("not proved: {e}"),
            json: json!({"numeration": name, "result": {"proved": false, "error": e.to_string()}}),
        },
    }
}

fn near_json(n: &Near) -> serde_json::Value {
    json!({
        "formula": n.formula,
        "size": n.size,
        "family": n.family,
        "box": n.window,
        "checked": crate::json::int(n.checked),
        "mismatch_count": crate::json::int(n.mismatch_count),
        "first_counterexample": n.first_counterexample.as_ref().map(|m| json!({
            "position": m.position, "grundy": m.grundy, "formula": m.formula
        })),
    })
}

fn write_text(
    out: &mut dyn Write,
    label: &str,
    claim: Claim,
    g: &Guess,
    training: &GrundyTable,
    verification: &Option<GrundyTable>,
    proofs: &[Option<ProofLine>],
) -> std::io::Result<()> {
    writeln!(out, "game:      {label}")?;
    let windows = match verification {
        Some(v) => format!(
            "trained on {}, verified on {}",
            describe_window(training.dims()),
            describe_window(v.dims())
        ),
        None => format!(
            "trained and verified on {} only",
            describe_window(training.dims())
        ),
    };
    writeln!(out, "windows:   {windows}")?;
    writeln!(out, "searched:  {} candidates", g.searched)?;
    let subject = match claim {
        Claim::Grundy => "G =",
        Claim::PPositions => "P iff",
    };
    for why in &g.limits {
        writeln!(out, "limit:     {why}")?;
    }
    if g.found.is_empty() {
        writeln!(out, "result:    none found in the search space")?;
    } else {
        writeln!(out, "found (simplest first):")?;
        for (f, proof) in g.found.iter().zip(proofs) {
            let checked: Vec<String> = f
                .windows
                .iter()
                .map(|(b, n)| format!("{n} in {}", describe_window(b)))
                .collect();
            writeln!(
                out,
                "  {subject} {}   [size {}, {}; checked {}]",
                f.formula,
                f.size,
                f.family,
                checked.join(", ")
            )?;
            if let Some(p) = proof {
                writeln!(out, "      prove: {}", p.text)?;
            }
        }
    }
    let near = |out: &mut dyn Write, n: &Near| -> std::io::Result<()> {
        let first = match &n.first_counterexample {
            Some(m) => format!(
                "; first at {}: value {}, formula {}",
                format_position(&m.position),
                m.grundy,
                m.formula
            ),
            None => " (fails to evaluate)".to_string(),
        };
        writeln!(
            out,
            "  {subject} {}   [{} of {} mismatch in {}{first}]",
            n.formula,
            n.mismatch_count,
            n.checked,
            describe_window(&n.window)
        )
    };
    if !g.failed_verification.is_empty() {
        writeln!(out, "fit the training window but failed verification:")?;
        for n in &g.failed_verification {
            near(out, n)?;
        }
    }
    if !g.nearest.is_empty() {
        writeln!(out, "nearest candidates:")?;
        for n in &g.nearest {
            near(out, n)?;
        }
    }
    Ok(())
}

/// Reads a table written by `nimlab table` as CSV (header of coordinate names then a
/// value column; empty value = not a position) or JSON (`box` and nested `values`).
fn read_table(
    path: &Path,
    limit: nimlab_engine::MemoryLimit,
) -> Result<(Vec<String>, GrundyTable)> {
    let text = super::read_input(path, limit)?;
    let bad = |msg: String| Error::input(format!("{}: {msg}", path.display()));
    if text.trim_start().starts_with('{') {
        let v: serde_json::Value =
            serde_json::from_str(&text).map_err(|e| bad(format!("not JSON: {e}")))?;
        let dims: Vec<usize> = v["box"]
            .as_array()
            .ok_or_else(|| bad("no \"box\" array".into()))?
            .iter()
            .map(|d| d.as_u64().map(|d| d as usize))
            .collect::<Option<_>>()
            .ok_or_else(|| bad("\"box\" must hold sizes".into()))?;
        let mut values = Vec::new();
        // Depth-first over the nesting (last coordinate outermost) is storage order.
        let mut stack = vec![&v["values"]];
        while let Some(x) = stack.pop() {
            match x {
                serde_json::Value::Array(a) => stack.extend(a.iter().rev()),
                serde_json::Value::Null => values.push(INVALID),
                serde_json::Value::Number(n) => values.push(
                    n.as_u64()
                        .and_then(|n| u32::try_from(n).ok())
                        .filter(|&n| n != INVALID)
                        .ok_or_else(|| bad(format!("bad value {n}")))?,
                ),
                _ => return Err(bad("\"values\" must hold numbers or null".into())),
            }
        }
        let table = GrundyTable::from_parts(dims.clone(), values)
            .map_err(|e| bad(format!("values do not fill the box: {e}")))?;
        return Ok((default_coordinate_names(dims.len()), table));
    }
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    let header: Vec<String> = lines
        .next()
        .ok_or_else(|| bad("empty file".into()))?
        .split(',')
        .map(|s| s.trim().to_string())
        .collect();
    if header.len() < 2 {
        return Err(bad(
            "the header must name the coordinates, then the value".into()
        ));
    }
    let d = header.len() - 1;
    // Flat, compact rows (coordinates are below 2^24): twice the text at most.
    let mut coords: Vec<u32> = Vec::new();
    let mut cell_values: Vec<u32> = Vec::new();
    for (i, line) in lines.enumerate() {
        let fields: Vec<&str> = line.split(',').map(str::trim).collect();
        if fields.len() != d + 1 {
            return Err(bad(format!(
                "line {}: expected {} fields, found {}",
                i + 2,
                d + 1,
                fields.len()
            )));
        }
        for f in &fields[..d] {
            let c = f
                .parse::<u32>()
                .ok()
                .filter(|&c| c < 1 << 24)
                .ok_or_else(|| bad(format!("line {}: bad coordinate", i + 2)))?;
            coords.push(c);
        }
        let value = if fields[d].is_empty() {
            INVALID
        } else {
            fields[d]
                .parse::<u32>()
                .ok()
                .filter(|&v| v != INVALID)
                .ok_or_else(|| bad(format!("line {}: bad value '{}'", i + 2, fields[d])))?
        };
        cell_values.push(value);
    }
    let mut dims = vec![0usize; d];
    for pos in coords.chunks(d) {
        for (m, &c) in dims.iter_mut().zip(pos) {
            *m = (*m).max(c as usize + 1);
        }
    }
    let cells = nimlab_engine::table::cell_count(&dims)?;
    if cells > 1 << 24 {
        return Err(bad("table too large for guessing".into()));
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
    let table = GrundyTable::from_parts(dims, values)?;
    Ok((names, table))
}
