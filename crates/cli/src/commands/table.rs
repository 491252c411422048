//! `nimlab table`: the Grundy table of a game over a box.

use super::Context;
use crate::output::{render_table, write_npy, write_png, TableFormat};
use crate::Status;
use nimlab_engine::plan;
use nimlab_engine::{Error, Result};
use std::fmt::Write;

/// Grundy values of every position in a box [0,N)^m (rows y, columns x).
///
/// Games with their own one-heap strategy table (fibonacci-nim: the seed's table
/// n | w(n) | code, n = 1..N−1) print that in text, csv, latex and markdown; `--format
/// json` gives the full two-coordinate Grundy table G(heap, limit) (values[limit][heap])
/// plus the strategy table under "strategy", and `--grundy` prints the Grundy table in
/// any format instead.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  nimlab table 'ryuoh(p=3)' --size 13          # Table 1 of the Ryuoh paper\n  nimlab table wythoff --size 10 --format latex\n  nimlab table 'subtraction(s={1,3,4})' --size 30 --format csv\n  nimlab table 'nim(heaps=3)' --size 4 --format json\n  nimlab table wythoff --size 8192 --format npy --output wythoff.npy   # numpy.load('wythoff.npy')[y][x]\n  nimlab table wythoff --size 2048 --format png --output wythoff.png\n  nimlab table 'fibonacci-nim(k=2)' --size 32        # the seed's n | w(n) | code\n  nimlab table 'fibonacci-nim(k=1)' --size 16 --grundy"
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
    /// latex (a tabular), markdown; npy (NumPy array) and png (heatmap) need --output.
    #[arg(long, value_enum, default_value = "text")]
    format: TableFormat,
    /// For games with a strategy table (fibonacci-nim): print the Grundy table instead.
    #[arg(long)]
    grundy: bool,
    /// Write the table to this file instead of standard output (required for npy, png).
    #[arg(long, short = 'o', value_name = "FILE")]
    output: Option<std::path::PathBuf>,
}

pub fn run(ctx: &Context, args: TableArgs) -> Result<Status> {
    let game = nimlab_games::source::load(args.game.as_deref(), args.rules.as_deref())?.game;
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
    let emit = |text: &str| -> Result<()> {
        match &args.output {
            Some(path) => std::fs::write(path, text)
                .map_err(|e| Error::input(format!("cannot write {}: {e}", path.display()))),
            None => {
                print!("{text}");
                Ok(())
            }
        }
    };
    let strategy = plan::strategy_table(&*game, args.size)?;
    if let (Some((cols, rows)), false, false) = (
        &strategy,
        args.grundy,
        matches!(
            args.format,
            TableFormat::Json | TableFormat::Npy | TableFormat::Png
        ),
    ) {
        emit(&render_rows(cols, rows, args.format))?;
        return Ok(Status::Ok);
    }
    let dims = game.table_box(args.size);
    let report = plan::table(&*game, &dims, &ctx.table_options())?;
    let table = report.table;
    match (args.format, &args.output) {
        (TableFormat::Npy, Some(path)) => return write_npy(&table, path).map(|_| Status::Ok),
        (TableFormat::Png, Some(path)) => return write_png(&table, path).map(|_| Status::Ok),
        _ => {}
    }
    let mut text = render_table(&*game, &table, args.format);
    if args.format == TableFormat::Json {
        let mut value: serde_json::Value =
            serde_json::from_str(&text).expect("render_table writes JSON");
        value["method"] = report.method.id.into();
        value["method_detail"] = report.method.detail.clone().into();
        text = serde_json::to_string(&value).expect("JSON values always serialize") + "\n";
    }
    match (&strategy, args.format) {
        (Some((cols, rows)), TableFormat::Json) if !args.grundy => {
            let mut value: serde_json::Value =
                serde_json::from_str(&text).expect("render_table writes JSON");
            value["strategy"] = rows
                .iter()
                .map(|r| {
                    cols.iter()
                        .zip(r)
                        .map(|(c, v)| {
                            // numbers as numbers; codes (bit strings) as strings
                            let cell = match v.parse::<u64>() {
                                Ok(x) if c != "code" => serde_json::Value::from(x),
                                _ => serde_json::Value::String(v.clone()),
                            };
                            (c.clone(), cell)
                        })
                        .collect::<serde_json::Map<_, _>>()
                        .into()
                })
                .collect::<Vec<serde_json::Value>>()
                .into();
            emit(&(serde_json::to_string(&value).expect("JSON values always serialize") + "\n"))?;
        }
        _ => emit(&text)?,
    }
    Ok(Status::Ok)
}

/// A plain table of text rows under column names, in a non-JSON format.
fn render_rows(cols: &[String], rows: &[Vec<String>], format: TableFormat) -> String {
    let mut out = String::new();
    match format {
        TableFormat::Csv => {
            let _ = writeln!(out, "{}", cols.join(","));
            for r in rows {
                let _ = writeln!(out, "{}", r.join(","));
            }
        }
        TableFormat::Latex => {
            let _ = writeln!(out, "\\begin{{tabular}}{{{}}}", "r".repeat(cols.len()));
            let _ = writeln!(out, "{} \\\\ \\hline", cols.join(" & "));
            for r in rows {
                let _ = writeln!(out, "{} \\\\", r.join(" & "));
            }
            out.push_str("\\end{tabular}\n");
        }
        TableFormat::Markdown => {
            let _ = writeln!(out, "| {} |", cols.join(" | "));
            let _ = writeln!(out, "|{}", "---:|".repeat(cols.len()));
            for r in rows {
                let _ = writeln!(out, "| {} |", r.join(" | "));
            }
        }
        TableFormat::Text | TableFormat::Json | TableFormat::Npy | TableFormat::Png => {
            let widths: Vec<usize> = (0..cols.len())
                .map(|i| {
                    rows.iter()
                        .map(|r| r[i].len())
                        .chain([cols[i].len()])
                        .max()
                        .unwrap_or(1)
                })
                .collect();
            let line = |cells: &[String]| {
                cells
                    .iter()
                    .zip(&widths)
                    .map(|(c, &w)| format!("{c:>w$}"))
                    .collect::<Vec<_>>()
                    .join("  ")
            };
            let _ = writeln!(out, "{}", line(cols));
            for r in rows {
                let _ = writeln!(out, "{}", line(r));
            }
        }
    }
    out
}
