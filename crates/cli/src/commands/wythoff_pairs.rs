//! `nimlab wythoff-pairs`: the P-positions {p_n, q_n} of Wythoff's game with their
//! Zeckendorf codes (the table of seed 001, Game IV).

use super::{Context, OutputArgs, PlainFormat};
use crate::Status;
use nimlab_engine::{Error, Result};
use nimlab_games::wythoff::strategy::wythoff_pair;
use nimlab_json::doc::to_value;
use nimlab_json::reports::WythoffPairDoc;
use std::io::Write;

/// Largest --count accepted (the codes are computed by the plain greedy).
const MAX_COUNT: u64 = 1_000_000;

/// Print n, p_n, q_n of Wythoff's game and their Zeckendorf codes (p_n = up(n) or
/// up(n) − 1, q_n = up(p_n)).
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  nimlab wythoff-pairs --count 20\n  nimlab wythoff-pairs --count 5 --format json"
)]
pub struct WythoffPairsArgs {
    /// How many pairs (n = 1..=count).
    #[arg(long, default_value_t = 20)]
    count: u64,
    /// Output format (default: from the --output extension, else text). JSON numbers
    /// beyond 2^53 − 1 are strings of decimal digits.
    #[arg(long, value_enum)]
    format: Option<PlainFormat>,
    #[command(flatten)]
    out: OutputArgs,
}

pub fn run(ctx: &Context, args: WythoffPairsArgs) -> Result<Status> {
    let format = args.out.format(args.format, PlainFormat::Text)?;
    if args.count > MAX_COUNT {
        return Err(Error::input(format!(
            "--count {} is too large (at most {MAX_COUNT})",
            args.count
        )));
    }
    // Pair by pair: a million pairs are written, never held.
    let row = |r: &nimlab_games::wythoff::strategy::WythoffPair| {
        [
            r.n.to_string(),
            r.n_code.clone(),
            r.p.to_string(),
            r.p_code.clone(),
            r.q.to_string(),
            r.q_code.clone(),
        ]
    };
    args.out.emit(|out| match format {
        PlainFormat::Json => crate::json::write_streamed(
            out,
            ctx.pretty,
            &[],
            "pairs",
            &mut (1..=args.count).map(|n| to_value(&WythoffPairDoc::new(&wythoff_pair(n)))),
            &[],
        ),
        PlainFormat::Text => {
            // Every column grows with n: the last row is the widest.
            let last: Vec<[String; 6]> = (args.count >= 1)
                .then(|| row(&wythoff_pair(args.count)))
                .into_iter()
                .collect();
            let rows = &last;
            let header = ["n", "φ(n)", "p_n", "φ(p_n)", "q_n", "φ(q_n)"];
            let widths: Vec<usize> = (0..6)
                .map(|i| {
                    rows.iter()
                        .map(|r| r[i].len())
                        .chain([header[i].chars().count()])
                        .max()
                        .unwrap_or(0)
                })
                .collect();
            let line = |out: &mut dyn Write, cells: [&str; 6]| {
                let cells: Vec<String> = cells
                    .iter()
                    .zip(&widths)
                    .map(|(c, &w)| format!("{c:>w$}", w = w + c.len() - c.chars().count()))
                    .collect();
                writeln!(out, "{}", cells.join("  ").trim_end())
            };
            line(out, header)?;
            for n in 1..=args.count {
                let r = row(&wythoff_pair(n));
                line(out, [&r[0], &r[1], &r[2], &r[3], &r[4], &r[5]])?;
            }
            Ok(())
        }
    })?;
    Ok(Status::Ok)
}
