//! `nimlab theorems`: list and verify the registered theorems.

use super::{Context, OutputArgs, PlainFormat};
use crate::Status;
use nimlab_engine::theorem::{CheckContext, Verdict};
use nimlab_engine::{Error, Result};
use nimlab_json::doc;
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
}

pub fn run(ctx: &Context, args: TheoremsArgs) -> Result<Status> {
    let format = args.out.format(args.format, PlainFormat::Text)?;
    let theorems = nimlab_games::all_theorems();
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
                            "{}\n    {}\n    source: {}",
                            t.id, t.statement, t.source
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
            let chosen: Vec<_> = theorems
                .iter()
                .filter(|t| {
                    id.as_ref()
                        .is_none_or(|i| t.id == *i || t.id.starts_with(i.as_str()))
                })
                .collect();
            if chosen.is_empty() {
                return Err(Error::input(format!(
                    "no theorem with id '{}' (see nimlab theorems)",
                    id.unwrap_or_default()
                )));
            }
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
            if format == PlainFormat::Json {
                let verdicts = doc::VerifyDoc {
                    holds: all_hold,
                    results: report,
                };
                ctx.print_json(&mut sink, &doc::to_value(&verdicts))
                    .map_err(|e| sink.error(e))?;
            }
            sink.finish()?;
            Ok(if all_hold { Status::Ok } else { Status::Failed })
        }
    }
}
