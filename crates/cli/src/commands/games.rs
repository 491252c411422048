//! `nimlab games`: the catalog.

use super::{print_json, Context, PlainFormat};
use crate::Status;
use nimlab_engine::Result;
use serde_json::json;

/// List every game with its parameters, defaults, position syntax and seed.
#[derive(clap::Args)]
#[command(after_help = "Example:\n  nimlab games\n  nimlab games --format json")]
pub struct GamesArgs {
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: PlainFormat,
}

pub fn run(_ctx: &Context, args: GamesArgs) -> Result<Status> {
    let catalog = nimlab_games::catalog();
    match args.format {
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
            print_json(&json!(list));
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
                println!("{head}\n    {}", f.summary);
                for p in f.params {
                    println!(
                        "    parameter {}: {}{} — {}",
                        p.name,
                        p.kind,
                        p.default
                            .map(|d| format!(", default {d}"))
                            .unwrap_or_default(),
                        p.help
                    );
                }
                println!("    position:  {}", f.position_syntax);
                println!("    seed:      {}\n", f.seed);
            }
        }
    }
    Ok(Status::Ok)
}
