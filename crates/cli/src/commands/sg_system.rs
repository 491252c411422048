//! `nimlab sg-system`: is a move set a Sprague–Grundy system of a function on a box?
//! The checks live in `nimlab_games::sg_system`; this file only words the results.

use super::{Context, OutputArgs, PlainFormat};
use crate::Status;
use nimlab_engine::Progress;
use nimlab_engine::{Error, Result};
use nimlab_formula::Formula;
use nimlab_games::sg_system::{
    check_system, compare_with_a_beta, minimal_systems, MaximalReport, MinimalReport, Phi,
    SystemQuery,
};
use nimlab_games::takeaway::{position_variables, MoveSet, MAX_DIMENSION};
use nimlab_json::doc::to_value;
use nimlab_json::reports::{SgSystemDoc, SgSystemQueryText};
use std::io::Write;

/// Check that a move set C is a Sprague–Grundy system of φ — the game Γ(P, C) has
/// Grundy function φ — by testing (SG1) and (SG2) at every position of the box
/// [0,N)^m. Exit 1 if a condition fails.
#[derive(clap::Args)]
#[command(after_help = "Examples:
  nimlab sg-system --phi 'sigma(beta=[3..])' --moves 'Cbeta(beta=[3..])' --dim 3 --size 27
  nimlab sg-system --phi nimsum --moves C1 --dim 2 --size 64 --minimal
  nimlab sg-system --phi 'nimhoff(b=3)' --moves 'Abeta(beta=[3,2..])' --size 12 --minimal --maximal
  nimlab sg-system --phi 'x0 xor x1' --moves 'c0 == 0 || c1 == 0 || c0 == c1' --format json

φ: nimsum, sigma(beta=[…]), nimsum_b(b=…), nimhoff(b=…), or a formula over x0, x1, …
Moves: C1, Cbeta(beta=[…]), Abeta(beta=[…]), a list [[1,0],[0,1]], or a condition on
c0, c1, … (with --take-and-put its components may be negative). A mixed radix is
written [60,24,7..]: the base before '..' repeats; [2,(3,5)..] repeats a block.")]
pub struct SgSystemArgs {
    /// The function φ.
    #[arg(long, value_name = "EXPR|NAME")]
    phi: String,
    /// The move set C.
    #[arg(long, value_name = "SET")]
    moves: String,
    /// Number of heaps m.
    #[arg(long, default_value_t = 2)]
    dim: usize,
    /// Side N of the box [0,N)^m.
    #[arg(long, default_value_t = 16)]
    size: u64,
    /// The positions P: a condition over x0, x1, … (default: all of N^m).
    #[arg(long, value_name = "COND")]
    positions: Option<String>,
    /// A condition's move vectors may have negative components ("take and put").
    #[arg(long)]
    take_and_put: bool,
    /// Which moves every system inside C needs, a minimal system found greedily, and
    /// the weights (Theorem 4.4). Positive sets, boxes of at most 4096 cells.
    #[arg(long)]
    minimal: bool,
    /// Compare C with the maximum positive system A^β and with C^β (φ = σ^β).
    #[arg(long)]
    maximal: bool,
    /// Output format (default: from the --output extension, else text).
    #[arg(long, value_enum)]
    format: Option<PlainFormat>,
    #[command(flatten)]
    out: OutputArgs,
}

fn list(v: &[u64]) -> String {
    format!(
        "({})",
        v.iter().map(u64::to_string).collect::<Vec<_>>().join(",")
    )
}

pub fn run(ctx: &Context, args: SgSystemArgs) -> Result<Status> {
    // Over 100 lines because it reads six flags and writes two formats in sequence; the
    // checks are the library's and the text parts are their own functions.
    let format = args.out.format(args.format, PlainFormat::Text)?;
    if args.dim == 0 || args.dim > MAX_DIMENSION {
        return Err(Error::input(format!(
            "--dim must be 1..{MAX_DIMENSION}, got {}",
            args.dim
        )));
    }
    if args.size == 0 {
        return Err(Error::input("--size must be at least 1"));
    }
    let phi = Phi::parse(&args.phi, args.dim)?;
    let moves = MoveSet::parse(&args.moves, args.dim, args.take_and_put)?;
    let positions = positions_condition(args.positions.as_deref(), args.dim)?;
    let beta = phi.radix().or_else(|| moves.radix().cloned());
    if args.maximal && beta.is_none() {
        return Err(Error::input(
            "--maximal compares with A^β: give φ as nimsum, sigma(beta=…), nimsum_b(b=…) or nimhoff(b=…)",
        ));
    }
    let query = SystemQuery {
        phi: &phi,
        moves: &moves,
        positions: positions.as_ref(),
        dim: args.dim,
        size: args.size,
        force: ctx.force,
    };
    // These stages report no progress of their own: a spinner with the elapsed time
    // shows that they run (--maximal on a large box takes half a minute).
    ctx.progress.busy("checking (SG1) and (SG2) on the box");
    let report = check_system(&query);
    ctx.progress.finish();
    let report = report?;
    let minimal: Option<MinimalReport> = if args.minimal && report.holds() {
        ctx.progress.busy("searching the minimal systems");
        let found = minimal_systems(&query);
        ctx.progress.finish();
        Some(found?)
    } else {
        None
    };
    let maximal: Option<MaximalReport> = match (&beta, args.maximal) {
        (Some(b), true) => {
            ctx.progress.busy("comparing the moves with A^β");
            let found = compare_with_a_beta(&moves, b, args.dim, args.size);
            ctx.progress.finish();
            Some(found?)
        }
        _ => None,
    };
    let space = if args.positions.is_some() {
        "P".to_string()
    } else {
        format!("N^{}", args.dim)
    };
    let note = format!(
        "a check of every position in the box {}, not a proof for all of {space}",
        report.window
    );
    let predicted_weight = beta.as_ref().map(|b| (args.dim as u64).min(b.max_digit()));
    args.out.emit(|out| match format {
        PlainFormat::Json => {
            let query = SgSystemQueryText {
                phi: phi.text(),
                moves: moves.text(),
                dim: args.dim,
                size: args.size,
                positions: args.positions.clone(),
                note: note.clone(),
            };
            let minimal = minimal.as_ref().map(|m| (m, predicted_weight));
            let answer = SgSystemDoc::new(query, &report, minimal, maximal.as_ref());
            ctx.print_json(out, &to_value(&answer))
        }
        PlainFormat::Text => {
            writeln!(out, "phi:      {}", phi.text())?;
            writeln!(out, "moves:    {}", moves.text())?;
            if let Some(p) = &args.positions {
                writeln!(out, "positions: {p}")?;
            }
            match &report.violation {
                None => writeln!(
                    out,
                    "result:   holds on {}: (SG1) and (SG2) at all {} positions ({note})",
                    report.window, report.positions
                )?,
                Some(v) => writeln!(
                    out,
                    "result:   NOT a system on {}: {}",
                    report.window,
                    v.describe()
                )?,
            }
            if args.minimal && minimal.is_none() {
                writeln!(out, "minimal:  not computed (C is not a system on the box)")?;
            }
            if let Some(m) = &minimal {
                write_minimal(out, m, predicted_weight)?;
            }
            if let Some(x) = &maximal {
                write_maximal(out, x)?;
            }
            Ok(())
        }
    })?;
    Ok(if report.holds() {
        Status::Ok
    } else {
        Status::Failed
    })
}

/// The P positions' condition (`--positions`), over the variables x0, x1, ….
fn positions_condition(text: Option<&str>, dim: usize) -> Result<Option<Formula>> {
    let Some(text) = text else {
        return Ok(None);
    };
    let names = position_variables(dim);
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let f = Formula::compile(text, &refs).map_err(|e| Error::input(format!("--positions: {e}")))?;
    if f.is_condition() {
        Ok(Some(f))
    } else {
        Err(Error::input(
            "--positions must be a condition (a comparison, &&, ||, !)",
        ))
    }
}

/// The minimal systems inside C, for people.
fn write_minimal(
    out: &mut dyn Write,
    m: &MinimalReport,
    predicted_weight: Option<u64>,
) -> std::io::Result<()> {
    writeln!(out, "moves in the box:  {}", m.moves_in_box)?;
    let shown: Vec<String> = m.necessary.iter().take(20).map(|c| list(c)).collect();
    writeln!(
        out,
        "necessary moves:   {} (the only way to some value somewhere){}{}",
        m.necessary.len(),
        if shown.is_empty() {
            String::new()
        } else {
            format!(": {}", shown.join(" "))
        },
        if m.necessary.len() > 20 { " …" } else { "" }
    )?;
    writeln!(
        out,
        "unique minimal:    {}",
        if m.necessary_suffice {
            "yes — the necessary moves alone form a system on the box"
        } else {
            "no — the necessary moves alone do not form a system; minimal systems differ"
        }
    )?;
    writeln!(
        out,
        "greedy minimal:    {} moves of weight {}; {} of the box's moves can go",
        m.minimal.len(),
        m.minimal_weight,
        m.moves_in_box - m.minimal.len()
    )?;
    writeln!(out, "weight of C:       {}", m.weight)?;
    write!(
        out,
        "least weight:      {} (moves of weight ≤ {0} still form a system)",
        m.least_weight
    )?;
    match predicted_weight {
        Some(w) => writeln!(out, "; Theorem 4.4 gives min{{m, sup(β_L − 1)}} = {w}")?,
        None => writeln!(out)?,
    }
    Ok(())
}

/// The comparison of C with A^β and C^β, for people.
fn write_maximal(out: &mut dyn Write, x: &MaximalReport) -> std::io::Result<()> {
    writeln!(
        out,
        "A^β, β = {}: {} moves in the box (C^β: {}; C: {})",
        x.beta, x.in_a_beta, x.in_c_beta, x.in_set
    )?;
    match (&x.outside_a_beta, &x.missing_from_set) {
        (None, None) => writeln!(
            out,
            "maximal:  C = A^β on the box (the maximum positive system)"
        )?,
        (a, b) => {
            if let Some(c) = a {
                writeln!(
                    out,
                    "maximal:  {} is in C but not in A^β (it breaks (SG1) somewhere)",
                    list(c)
                )?;
            }
            if let Some(c) = b {
                writeln!(
                    out,
                    "maximal:  {} is in A^β but not in C (C is not the maximum system)",
                    list(c)
                )?;
            }
        }
    }
    match &x.a_not_c {
        None => writeln!(out, "A^β = C^β on the box")?,
        Some(c) => writeln!(out, "A^β ≠ C^β: e.g. {} ∈ A^β ∖ C^β", list(c))?,
    }
    Ok(())
}
