//! `nimlab table`: the Grundy table of a game over a box.

use super::Context;
use crate::output::{render_table, TableFormat};
use crate::Status;
use nimlab_engine::{grundy_table, Error, Result};

/// Grundy values of every position in a box [0,N)^m (rows y, columns x).
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  nimlab table 'ryuoh(p=3)' --size 13          # Table 1 of the Ryuoh paper\n  nimlab table wythoff --size 10 --format latex\n  nimlab table 'subtraction(s={1,3,4})' --size 30 --format csv\n  nimlab table 'nim(heaps=3)' --size 4 --format json"
)]
pub struct TableArgs {
    /// Game, e.g. wythoff, 'ryuoh(p=4)' (omit it with --rules).
    #[arg(required_unless_present = "rules", conflicts_with = "rules")]
    game: Option<String>,
    /// Take the game from a rules file (TOML) instead of the catalog.
    #[arg(long, value_name = "FILE")]
    rules: Option<std::path::PathBuf>,
    /// Side of the box: every coordinate runs over 0..N-1.
    #[arg(long, short = 'n', value_name = "N")]
    size: usize,
    /// Output format: text (the papers' layout), csv (one row per position), json,
    /// latex (a tabular), markdown.
    #[arg(long, value_enum, default_value = "text")]
    format: TableFormat,
}

pub fn run(ctx: &Context, args: TableArgs) -> Result<Status> {
    let game = super::game_source::load(args.game.as_deref(), args.rules.as_deref())?.game;
    if args.size == 0 {
        return Err(Error::input("--size must be at least 1"));
    }
    let dims = game.table_box(args.size);
    let table = grundy_table(&*game, &dims, &ctx.table_options())?;
    let text = render_table(&*game, &table, args.format);
    print!("{text}");
    Ok(Status::Ok)
}
