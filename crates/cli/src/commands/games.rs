//! `nimlab games`: the catalog.

use super::{Context, OutputArgs, PlainFormat};
use crate::Status;
use nimlab_engine::Result;

/// List every game with its parameters, defaults, position syntax and seed.
#[derive(clap::Args)]
#[command(
    after_help = "Example:\n  nimlab games\n  nimlab games ryuoh\n  nimlab games --format json"
)]
pub struct GamesArgs {
    /// Describe only this family (its theorems and capabilities too), e.g. ryuoh.
    name: Option<String>,
    /// Output format (default: from the --output extension, else text).
    #[arg(long, value_enum)]
    format: Option<PlainFormat>,
    #[command(flatten)]
    out: OutputArgs,
}

pub fn run(ctx: &Context, args: GamesArgs) -> Result<Status> {
    let format = args.out.format(args.format, PlainFormat::Text)?;
    let catalog = match &args.name {
        Some(name) => vec![nimlab_games::family(name)?],
        None => nimlab_games::catalog(),
    };
    let detail = args.name.is_some();
    args.out.emit(|out| match format {
        PlainFormat::Json => ctx.print_json(out, &nimlab_json::catalog_json(&catalog)),
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
                writeln!(out, "    source:    {}", f.seed)?;
                if detail {
                    let caps = nimlab_json::family_capabilities(f);
                    if !caps.is_empty() {
                        writeln!(out, "    can:       {}", caps.join(", "))?;
                    }
                    for t in (f.theorems)() {
                        writeln!(out, "    theorem {}: {}", t.id, t.statement)?;
                    }
                }
                writeln!(out)?;
            }
            Ok(())
        }
    })?;
    Ok(Status::Ok)
}
