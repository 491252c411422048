//! `nimlab theorems`: list and verify the registered theorems.

use super::{Context, OutputArgs, PlainFormat};
use crate::Status;
use nimlab_engine::theorem::{CheckContext, Verdict};
use nimlab_engine::{Error, Result};
use nimlab_json::doc;
use nimlab_json::reports::{TheoremProofDoc, TheoremProofsDoc};
use std::io::Write;

/// List the registered theorems, or verify them against brute force.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  nimlab theorems\n  nimlab theorems verify\n  nimlab theorems verify --size 128 --id ryuoh.thm-3.1 --format json"
)]
pub struct TheoremsArgs {
    #[command(subcommand)]
    action: Option<Action>,
    /// Output format (default: from the --output extension, else text).
    #[arg(long, value_enum, global = true)]
    format: Option<PlainFormat>,
    #[command(flatten)]
    out: OutputArgs,
}

#[derive(clap::Subcommand)]
enum Action {
    /// List every theorem: id, statement, source.
    List,
    /// Check theorems by brute force on a window; exit 1 if any fails.
    Verify {
        /// Window size (each theorem derives its box from it).
        #[arg(long, default_value_t = 64)]
        size: usize,
        /// Only the theorem with this id (or id prefix, e.g. `ryuoh`).
        #[arg(long)]
        id: Option<String>,
    },
    /// Prove every expressible instance for ALL positions with automata (`nimlab
    /// prove`); theorems without one are left to `verify`. Exit 1 if any is false.
    Prove {
        /// Only the theorem with this id (or id prefix).
        #[arg(long)]
        id: Option<String>,
    },
}

/// Whether a theorem is proved for all positions (its registered claims; a test runs
/// `theorems prove` on every one of them) or verified on windows only.
fn status(t: &nimlab_engine::Theorem) -> String {
    if t.claims.is_empty() {
        "verified on windows only (nimlab theorems verify)".into()
    } else {
        let mut games: Vec<&str> = Vec::new();
        for c in &t.claims {
            // a game may carry a Grundy and a P-position claim: name it once
            if !games.contains(&c.game.as_str()) {
                games.push(&c.game);
            }
        }
        format!(
            "proved for all positions for {} (nimlab theorems prove --id {} re-runs it); verified on windows",
            games.join(", "),
            t.id
        )
    }
}

/// The theorems whose id is `id` or starts with it (every one without `id`); an error
/// when there is none.
fn choose(
    theorems: &[nimlab_engine::Theorem],
    id: Option<String>,
) -> Result<Vec<&nimlab_engine::Theorem>> {
    let chosen: Vec<_> = theorems
        .iter()
        .filter(|t| t.is_chosen_by(id.as_deref()))
        .collect();
    if chosen.is_empty() {
        return Err(Error::input(format!(
            "no theorem with id '{}' (see nimlab theorems)",
            id.unwrap_or_default()
        )));
    }
    Ok(chosen)
}

/// `theorems prove`: every claim of the chosen theorems, by automata.
fn prove_all(
    ctx: &Context,
    args: &TheoremsArgs,
    format: PlainFormat,
    id: Option<String>,
) -> Result<Status> {
    use nimlab_formula::check::Claim;
    use nimlab_formula::prove::{prove, ProveOptions, Verdict as ProofVerdict};
    let theorems = nimlab_games::all_theorems();
    let chosen = choose(&theorems, id)?;
    let mut sink = args.out.open()?;
    let mut all = true;
    let mut report = Vec::new();
    for t in chosen {
        if t.claims.is_empty() {
            if format == PlainFormat::Text {
                writeln!(
                    sink,
                    "{}: no claim expressible for automata (see theorems verify)",
                    t.id
                )
                .map_err(|e| sink.error(e))?;
            }
            continue;
        }
        for c in &t.claims {
            let game = nimlab_games::parse_game(&c.game)?;
            let num = super::prove::parse_numeration(&c.numeration).map_err(Error::input)?;
            let claim = if c.p_positions {
                Claim::PPositions
            } else {
                Claim::Grundy
            };
            let opts = ProveOptions {
                table: ctx.table_options(),
                constants: vec![],
            };
            let proof = prove(&*game, claim, &c.formula, num, &opts)
                .map_err(|e| Error::input(format!("{}: {}: {e}", t.id, c.game)))?;
            let proved = matches!(proof.verdict, ProofVerdict::Proved);
            all &= proved;
            match format {
                PlainFormat::Text => writeln!(
                    sink,
                    "{}: {} {} '{}': {} ({:.3} s)",
                    t.id,
                    c.game,
                    if c.p_positions { "P iff" } else { "G =" },
                    c.formula,
                    if proved {
                        "proved for all positions"
                    } else {
                        "FALSE"
                    },
                    proof.seconds
                )
                .and_then(|()| sink.flush())
                .map_err(|e| sink.error(e))?,
                PlainFormat::Json => report.push(TheoremProofDoc {
                    id: t.id.to_string(),
                    game: c.game.clone(),
                    formula: c.formula.clone(),
                    p_positions: c.p_positions,
                    numeration: c.numeration.clone(),
                    proved,
                    seconds: proof.seconds,
                }),
            }
        }
    }
    finish(ctx, sink, format, all, || {
        doc::to_value(&TheoremProofsDoc {
            proved: all,
            results: report,
        })
    })
}

/// Ends `theorems verify` or `prove`: the JSON document `answer` makes (JSON output
/// only: the text went out theorem by theorem), then the status, failed unless `all`
/// held.
fn finish(
    ctx: &Context,
    mut sink: crate::sink::Sink,
    format: PlainFormat,
    all: bool,
    answer: impl FnOnce() -> serde_json::Value,
) -> Result<Status> {
    if format == PlainFormat::Json {
        ctx.print_json(&mut sink, &answer())
            .map_err(|e| sink.error(e))?;
    }
    sink.finish()?;
    Ok(if all { Status::Ok } else { Status::Failed })
}

pub fn run(ctx: &Context, args: TheoremsArgs) -> Result<Status> {
    let format = args.out.format(args.format, PlainFormat::Text)?;
    let theorems = nimlab_games::all_theorems();
    if let Some(Action::Prove { id }) = &args.action {
        let id = id.clone();
        return prove_all(ctx, &args, format, id);
    }
    match args.action.unwrap_or(Action::List) {
        Action::List => {
            args.out.emit(|out| match format {
                PlainFormat::Json => ctx.print_json(
                    out,
                    &doc::to_value(&doc::TheoremsDoc {
                        theorems: theorems.iter().map(doc::TheoremDoc::new).collect(),
                    }),
                ),
                PlainFormat::Text => {
                    for t in &theorems {
                        writeln!(
                            out,
                            "{}\n    {}\n    source: {}\n    status: {}",
                            t.id,
                            t.statement,
                            t.source,
                            status(t)
                        )?;
                    }
                    Ok(())
                }
            })?;
            Ok(Status::Ok)
        }
        Action::Verify { size, id } => {
            if size == 0 {
                return Err(Error::input("--size must be at least 1"));
            }
            let chosen = choose(&theorems, id)?;
            let check = CheckContext {
                size,
                memory_limit: ctx.memory_limit,
                progress: &ctx.progress,
                force: ctx.force,
            };
            let mut all_hold = true;
            let mut report = Vec::new();
            // Text lines appear as each theorem is verified (flushed one by one).
            let mut sink = args.out.open()?;
            for t in chosen {
                let verdict = t.verify(&check)?;
                all_hold &= verdict.holds();
                match format {
                    PlainFormat::Text => {
                        match &verdict {
                            Verdict::Holds { window, checked } => {
                                writeln!(sink, "{}: holds on {window} ({checked} cases)", t.id)
                            }
                            Verdict::Fails { counterexample } => {
                                writeln!(sink, "{}: FAILS: {counterexample}", t.id)
                            }
                        }
                        .and_then(|()| sink.flush())
                        .map_err(|e| sink.error(e))?;
                    }
                    PlainFormat::Json => report.push(doc::VerdictDoc::new(&t.id, &verdict)),
                }
            }
            finish(ctx, sink, format, all_hold, || {
                doc::to_value(&doc::VerifyDoc {
                    holds: all_hold,
                    results: report,
                })
            })
        }
        Action::Prove { .. } => unreachable!("handled above"),
    }
}
