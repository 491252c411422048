//! `nimlab games`: the catalog.

use super::{Context, OutputArgs, PlainFormat};
use crate::Status;
use nimlab_engine::Result;
use serde_json::json;

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
    // What the family's default instance can do (families without defaults: none).
    let capabilities = |f: &nimlab_games::Family| -> Vec<&'static str> {
        nimlab_games::parse_game(f.name)
            .map(|g| g.capabilities().names())
            .unwrap_or_default()
    };
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
                        "source": f.seed,
                        "theorems": (f.theorems)().iter().map(|t| json!({
                            "id": t.id, "statement": t.statement,
                        })).collect::<Vec<_>>(),
                        "capabilities": capabilities(f),
                    })
                })
                .collect();
            ctx.print_json(out, &json!({ "games": list }))
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
                writeln!(out, "    source:    {}", f.seed)?;
                if detail {
                    let caps = capabilities(f);
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
