//! `nimlab value` and `nimlab moves`: one position, its value and its options.

use super::{print_json, Context, PlainFormat};
use crate::Status;
use nimlab_engine::game::format_position;
use nimlab_engine::{analyse, parse_position, Analysis, Result};
use serde_json::json;

/// Grundy value, outcome (P/N) and winning moves of one position.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  nimlab value wythoff 3,5\n  nimlab value 'ryuoh(p=3)' 4,7 --format json\n  nimlab value nim 3,5,6"
)]
pub struct ValueArgs {
    /// Game, e.g. wythoff, 'ryuoh(p=4)', 'subtraction(s={1,3,4})'.
    game: String,
    /// Position: comma-separated natural numbers, e.g. 3,5.
    position: String,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: PlainFormat,
}

/// Every option of a position with its Grundy value; winning ones marked.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  nimlab moves wythoff 3,6\n  nimlab moves 'ryuoh(p=3)' 2,2 --format json"
)]
pub struct MovesArgs {
    /// Game, e.g. wythoff, 'ryuoh(p=4)'.
    game: String,
    /// Position: comma-separated natural numbers, e.g. 3,5.
    position: String,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: PlainFormat,
}

fn analyse_args(ctx: &Context, game: &str, position: &str) -> Result<(String, Analysis)> {
    let game = nimlab_games::parse_game(game)?;
    let pos = parse_position(position)?;
    let analysis = analyse(&*game, &pos, ctx.memory_limit)?;
    Ok((game.spec(), analysis))
}

pub fn run_value(ctx: &Context, args: ValueArgs) -> Result<Status> {
    let (spec, a) = analyse_args(ctx, &args.game, &args.position)?;
    let winning: Vec<_> = a.winning_moves().map(|m| m.position.clone()).collect();
    match args.format {
        PlainFormat::Json => print_json(&json!({
            "game": spec,
            "position": a.position,
            "grundy": a.grundy,
            "outcome": a.outcome.as_str(),
            "winning_moves": winning,
        })),
        PlainFormat::Text => {
            println!("game:     {spec}");
            println!("position: {}", format_position(&a.position));
            println!("grundy:   {}", a.grundy);
            println!(
                "outcome:  {} ({})",
                a.outcome.as_str(),
                if winning.is_empty() {
                    "the player to move loses"
                } else {
                    "the player to move wins"
                }
            );
            if !winning.is_empty() {
                let w: Vec<String> = winning.iter().map(|p| format_position(p)).collect();
                println!("winning moves: {}", w.join("  "));
            }
        }
    }
    Ok(Status::Ok)
}

pub fn run_moves(ctx: &Context, args: MovesArgs) -> Result<Status> {
    let (spec, a) = analyse_args(ctx, &args.game, &args.position)?;
    match args.format {
        PlainFormat::Json => {
            let options: Vec<_> = a
                .options
                .iter()
                .map(|m| json!({"position": m.position, "grundy": m.grundy}))
                .collect();
            print_json(&json!({
                "game": spec,
                "position": a.position,
                "options": options,
            }))
        }
        PlainFormat::Text => {
            println!(
                "{spec} at {} (grundy {}, {}): {} option{}",
                format_position(&a.position),
                a.grundy,
                a.outcome.as_str(),
                a.options.len(),
                if a.options.len() == 1 { "" } else { "s" }
            );
            let width = a
                .options
                .iter()
                .map(|m| format_position(&m.position).len())
                .max()
                .unwrap_or(0);
            for m in &a.options {
                println!(
                    "  {:width$}  grundy {}{}",
                    format_position(&m.position),
                    m.grundy,
                    if m.grundy == 0 { "  ← winning" } else { "" }
                );
            }
        }
    }
    Ok(Status::Ok)
}
