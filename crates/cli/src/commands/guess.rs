//! `nimlab guess`: search closed forms (or P-position predicates) for a Grundy table.

use super::{Context, OutputArgs, PlainFormat};
use crate::Status;
use nimlab_engine::game::format_position;
use nimlab_engine::theorem::describe_window;
use nimlab_engine::{Error, Result};
use nimlab_formula::check::Claim;
use nimlab_formula::guess::Near;
use nimlab_json::guess::{guess_game, guess_table, FoundProof, GuessDoc, GuessRequest, GuessRun};
use std::io::Write;
use std::path::PathBuf;

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
    let opts = ctx.table_options();
    let run = match &args.from_table {
        Some(path) => {
            if args.size.is_some() || args.verify_size.is_some() {
                return Err(Error::input(
                    "--size and --verify-size do not apply to --from-table",
                ));
            }
            let text = super::read_input(path, ctx.memory_limit)?;
            guess_table(&path.display().to_string(), &text, claim, &opts)?
        }
        None => {
            let source = nimlab_games::source::load(args.game.as_deref(), args.rules.as_deref())?;
            let request = GuessRequest {
                claim,
                size: args.size,
                verify_size: args.verify_size,
                prove: args.prove,
            };
            guess_game(&*source.game, &source.constants, &request, &opts)?
        }
    };
    match format {
        PlainFormat::Json => {
            let doc = GuessDoc::new(&run);
            args.out
                .emit(|out| ctx.print_json(out, &nimlab_json::doc::to_value(&doc)))?;
        }
        PlainFormat::Text => args.out.emit(|out| write_text(out, &run))?,
    }
    Ok(if run.succeeded(args.prove) {
        Status::Ok
    } else {
        Status::Failed
    })
}

/// One line for the proof attempt of a formula found.
fn proof_text(p: &FoundProof) -> String {
    use nimlab_formula::prove::Verdict;
    match &p.outcome {
        Ok(proof) => match &proof.verdict {
            Verdict::Proved => format!(
                "proved for all positions ({}, {:.3} s)",
                p.numeration, proof.seconds
            ),
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
            Verdict::Unconfirmed(c) => format!(
                "not decided ({}): the automata report {}, unconfirmed ({})",
                c.statement, c.explanation, c.recheck_note
            ),
        },
        Err(e) => format!("not proved: {e}"),
    }
}

fn write_text(out: &mut dyn Write, run: &GuessRun) -> std::io::Result<()> {
    let (label, claim, g, training, verification) = (
        &run.label,
        run.claim,
        &run.result,
        &run.training,
        &run.verification,
    );
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
        for (f, proof) in g.found.iter().zip(&run.proofs) {
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
                writeln!(out, "      prove: {}", proof_text(p))?;
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
