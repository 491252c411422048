//! `nimlab games`: the catalog.

use super::{Context, OutputArgs, PlainFormat};
use crate::Status;
use nimlab_engine::Result;
use serde_json::json;

/// List every game with its parameters, defaults, position syntax and seed.
#[derive(clap::Args)]
#[command(after_help = "Example:\n  nimlab games\n  nimlab games --format json")]
pub struct GamesArgs {
    /// Output format (default: from the --output extension, else text).
    #[arg(long, value_enum)]
    format: Option<PlainFormat>,
    #[command(flatten)]
    out: OutputArgs,
}

pub fn run(ctx: &Context, args: GamesArgs) -> Result<Status> {
    let format = args.out.format(args.format, PlainFormat::Text)?;
    let catalog = nimlab_games::catalog();
    args.out.emit(|out| match format {
        PlainFormat::Json => {
            let list: Vec<_> = catalog
                .iter()
                .map(|f| {
                    json!({
                        "name": f.name,
                        "summary": f.summary,
                        "parameters": f.params.iter().map(|p| json!({
                            "name": p.name, "kind": p.kind, "default": p.default, "help": p.help
                        })).collect::<Vec<_>>(),
                        "position": f.position_syntax,
                        "seed": f.seed,
                    })
                })
                .collect();
            ctx.print_json(out, &json!(list))
        }
        PlainFormat::Text => {
            for f in catalog {
                let defaults: Vec<String> = f
                    .params
                    .iter()
                    .map(|p| format!("{}={}", p.name, p.default.unwrap_or("?")))
                    .collect();
                let head = if defaults.is_empty() {
                    f.name.to_string()
                } else {
                    format!("{}({})", f.name, defaults.join(","))
                };
                writeln!(out, "{head}\n    {}", f.summary)?;
                for p in f.params {
                    writeln!(
                        out,
                        "    parameter {}: {}{} — {}",
                        p.name,
                        p.kind,
                        p.default
                            .map(|d| format!(", default {d}"))
                            .unwrap_or_default(),
                        p.help
                    )?;
                }
                writeln!(out, "    position:  {}", f.position_syntax)?;
                writeln!(out, "    seed:      {}\n", f.seed)?;
            }
            Ok(())
        }
    })?;
    Ok(Status::Ok)
}
