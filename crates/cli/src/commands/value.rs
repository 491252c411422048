//! `nimlab value` and `nimlab moves`: one position, its value and its options.

use super::{print_json, Context, PlainFormat};
use crate::Status;
use nimlab_engine::big::{abbreviate, parse_big_position, to_small, BigAnalysis, BigUint};
use nimlab_engine::game::format_position;
use nimlab_engine::{analyse, Analysis, Error, Result};
use serde_json::{json, Value};

/// Grundy value, outcome (P/N) and winning moves of one position.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  nimlab value wythoff 3,5\n  nimlab value 'ryuoh(p=3)' 4,7 --format json\n  nimlab value nim 3,5,6"
)]
pub struct ValueArgs {
    /// Game, e.g. wythoff, 'ryuoh(p=4)', 'subtraction(s={1,3,4})'.
    game: String,
    /// Position: comma-separated natural numbers, e.g. 3,5 (or as separate arguments,
    /// `3 5`, for numbers too long for one argument).
    #[arg(required = true, num_args = 1..)]
    position: Vec<String>,
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
    /// Position: comma-separated natural numbers, e.g. 3,5 (or as separate arguments,
    /// `3 5`, for numbers too long for one argument).
    #[arg(required = true, num_args = 1..)]
    position: Vec<String>,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: PlainFormat,
}

/// Either a brute-force analysis or a game's closed-form answer for a big position.
enum Answer {
    Exact(Analysis),
    Big(BigAnalysis),
}

/// Joins the position arguments with commas (`3 5`, `3, 5` and `3,5` are the same):
/// one argument cannot hold two numbers of 10^5 digits (Linux caps an argument at 128 KiB).
fn join_position(parts: &[String]) -> String {
    let mut out = String::new();
    for part in parts {
        if !out.is_empty() && !out.trim_end().ends_with(',') && !part.trim_start().starts_with(',')
        {
            out.push(',');
        }
        out.push_str(part);
    }
    out
}

fn analyse_args(ctx: &Context, game: &str, position: &[String]) -> Result<(String, Answer)> {
    let position = &join_position(position);
    let game = nimlab_games::parse_game(game)?;
    let big = parse_big_position(position)?;
    if let Some(answer) = game.analyse_big(&big) {
        return Ok((game.spec(), Answer::Big(answer?)));
    }
    let pos = to_small(&big).ok_or_else(|| {
        Error::input(format!(
            "position {} is too big for brute force and {} has no closed-form strategy",
            abbreviate(position.trim()),
            game.spec()
        ))
    })?;
    let analysis = analyse(&*game, &pos, ctx.memory_limit)?;
    Ok((game.spec(), Answer::Exact(analysis)))
}

/// A big natural number as a JSON number (exact, any size).
fn big_json(n: &BigUint) -> Value {
    serde_json::from_str(&n.to_str_radix(10)).expect("decimal digits are a JSON number")
}

fn big_position_json(p: &[BigUint]) -> Value {
    Value::Array(p.iter().map(big_json).collect())
}

fn big_position_text(p: &[BigUint]) -> String {
    p.iter()
        .map(|c| abbreviate(&c.to_str_radix(10)))
        .collect::<Vec<_>>()
        .join(",")
}

fn print_big(spec: &str, a: &BigAnalysis, format: PlainFormat, moves: bool) {
    match format {
        PlainFormat::Json => {
            let winning: Vec<Value> = a
                .winning_moves
                .iter()
                .map(|m| big_position_json(m))
                .collect();
            let mut v = json!({
                "game": spec,
                "position": big_position_json(&a.position),
                "grundy": a.grundy.as_ref().map(big_json),
                "outcome": a.outcome.as_str(),
                "winning_moves": winning,
                "method": a.method,
            });
            if moves {
                v["options"] = Value::Null;
                v["note"] = json!("too many options to list; winning moves given by the strategy");
            }
            print_json(&v)
        }
        PlainFormat::Text => {
            println!("game:     {spec}");
            println!("position: {}", big_position_text(&a.position));
            match &a.grundy {
                Some(g) => println!("grundy:   {}", abbreviate(&g.to_str_radix(10))),
                None => println!("grundy:   unknown (no closed form; too big for brute force)"),
            }
            println!(
                "outcome:  {} ({})",
                a.outcome.as_str(),
                if a.outcome == nimlab_engine::Outcome::P {
                    "the player to move loses"
                } else {
                    "the player to move wins"
                }
            );
            if !a.winning_moves.is_empty() {
                let w: Vec<String> = a
                    .winning_moves
                    .iter()
                    .map(|m| big_position_text(m))
                    .collect();
                println!(
                    "winning move{}: {}",
                    if a.all_winning_moves {
                        "s"
                    } else {
                        " (one of them)"
                    },
                    w.join("  ")
                );
            }
            println!("method:   {}", a.method);
        }
    }
}

pub fn run_value(ctx: &Context, args: ValueArgs) -> Result<Status> {
    let (spec, a) = match analyse_args(ctx, &args.game, &args.position)? {
        (spec, Answer::Exact(a)) => (spec, a),
        (spec, Answer::Big(b)) => {
            print_big(&spec, &b, args.format, false);
            return Ok(Status::Ok);
        }
    };
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
    let (spec, a) = match analyse_args(ctx, &args.game, &args.position)? {
        (spec, Answer::Exact(a)) => (spec, a),
        (spec, Answer::Big(b)) => {
            print_big(&spec, &b, args.format, true);
            return Ok(Status::Ok);
        }
    };
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
