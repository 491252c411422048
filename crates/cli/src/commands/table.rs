//! `nimlab table`: the Grundy table of a game over a box.

use super::Context;
use crate::output::{render_table, write_npy, write_png, TableFormat};
use crate::Status;
use nimlab_engine::{grundy_table, Error, Result};

/// Grundy values of every position in a box [0,N)^m (rows y, columns x).
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  nimlab table 'ryuoh(p=3)' --size 13          # Table 1 of the Ryuoh paper\n  nimlab table wythoff --size 10 --format latex\n  nimlab table 'subtraction(s={1,3,4})' --size 30 --format csv\n  nimlab table 'nim(heaps=3)' --size 4 --format json\n  nimlab table wythoff --size 8192 --format npy --output wythoff.npy   # numpy.load('wythoff.npy')[y][x]\n  nimlab table wythoff --size 2048 --format png --output wythoff.png"
)]
pub struct TableArgs {
    /// Game, e.g. wythoff, 'ryuoh(p=4)'.
    game: String,
    /// Side of the box: every coordinate runs over 0..N-1.
    #[arg(long, short = 'n', value_name = "N")]
    size: usize,
    /// Output format: text (the papers' layout), csv (one row per position), json,
    /// latex (a tabular), markdown; npy (NumPy array) and png (heatmap) need --output.
    #[arg(long, value_enum, default_value = "text")]
    format: TableFormat,
    /// Write the table to this file instead of standard output (required for npy, png).
    #[arg(long, short = 'o', value_name = "FILE")]
    output: Option<std::path::PathBuf>,
}

pub fn run(ctx: &Context, args: TableArgs) -> Result<Status> {
    let game = nimlab_games::parse_game(&args.game)?;
    if args.size == 0 {
        return Err(Error::input("--size must be at least 1"));
    }
    if args.format.needs_file() && args.output.is_none() {
        return Err(Error::input(format!(
            "--format {} writes a binary file: give it with --output FILE",
            if args.format == TableFormat::Npy {
                "npy"
            } else {
                "png"
            }
        )));
    }
    let dims = game.table_box(args.size);
    let table = grundy_table(&*game, &dims, &ctx.table_options())?;
    match (args.format, &args.output) {
        (TableFormat::Npy, Some(path)) => write_npy(&table, path)?,
        (TableFormat::Png, Some(path)) => write_png(&table, path)?,
        (format, Some(path)) => std::fs::write(path, render_table(&*game, &table, format))
            .map_err(|e| Error::input(format!("cannot write {}: {e}", path.display())))?,
        (format, None) => print!("{}", render_table(&*game, &table, format)),
    }
    Ok(Status::Ok)
}
