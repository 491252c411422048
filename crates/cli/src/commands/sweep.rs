//! `nimlab sweep`: proven preperiods and periods of a whole family of games at once.

use super::{Context, OutputArgs, PlainFormat};
use crate::Status;
use nimlab_engine::{Error, Progress, Result};
use nimlab_games::format_set;
use nimlab_games::subtraction::SweepRow;
use serde_json::json;

/// Every subtraction set of a given size with max ≤ M: proven preperiod and period,
/// sorted by period (longest first), then preperiod (longest first), then the set.
///
/// Sharding across machines: `--shard i/k` takes the sets whose index in lexicographic
/// order is ≡ i (mod k). Run i = 0, …, k−1 (e.g. one per machine) with `--format json`;
/// concatenate their "results" arrays and sort them by the same key (period descending,
/// preperiod descending, set ascending) to get exactly the unsharded output.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  nimlab sweep subtraction --max 30 --set-size 3\n  nimlab sweep subtraction --max 30 --set-size 3 --count 10\n  nimlab sweep subtraction --max 40 --set-size 4 --shard 0/4 --format json > part0.json"
)]
pub struct SweepArgs {
    /// Family to sweep (supported: subtraction).
    family: String,
    /// Largest element of the sets.
    #[arg(long, value_name = "M")]
    max: u64,
    /// Number of elements of each set (`--size` is the old spelling).
    #[arg(long = "set-size", value_name = "K", alias = "size")]
    size: u64,
    /// Only this share of the sets: i/k (0 ≤ i < k), round-robin by lexicographic index.
    #[arg(long, value_name = "i/k", default_value = "0/1", value_parser = parse_shard)]
    shard: (u64, u64),
    /// Print only the first N rows of the sorted list (all by default; `--top` is the
    /// old spelling).
    #[arg(long = "count", value_name = "N", alias = "top")]
    top: Option<usize>,
    /// Per set, search heaps below this for the repeating window.
    #[arg(long, value_name = "X", default_value_t = 10_000_000)]
    up_to: u64,
    /// Output format (default: from the --output extension, else text). JSON counts
    /// beyond 2^53 − 1 are strings of decimal digits.
    #[arg(long, value_enum)]
    format: Option<PlainFormat>,
    #[command(flatten)]
    out: OutputArgs,
}

pub(crate) fn parse_shard(text: &str) -> std::result::Result<(u64, u64), Error> {
    let bad = || {
        Error::input(format!(
            "--shard must look like i/k (e.g. 0/4), got '{text}'"
        ))
    };
    let (i, k) = text.split_once('/').ok_or_else(bad)?;
    let i: u64 = i.trim().parse().map_err(|_| bad())?;
    let k: u64 = k.trim().parse().map_err(|_| bad())?;
    if k == 0 || i >= k {
        return Err(Error::input(format!(
            "--shard {i}/{k} does not exist: need 0 ≤ i < k"
        )));
    }
    Ok((i, k))
}

pub fn run(ctx: &Context, args: SweepArgs) -> Result<Status> {
    let format = args.out.format(args.format, PlainFormat::Text)?;
    let family = nimlab_games::family(&args.family)?;
    let Some(sweeper) = family.sweep else {
        let able: Vec<&str> = nimlab_games::catalog()
            .iter()
            .filter(|f| f.sweep.is_some())
            .map(|f| f.name)
            .collect();
        return Err(Error::input(format!(
            "{} has no sweep (families with one: {})",
            family.name,
            able.join(", ")
        )));
    };
    let (shard, shards) = args.shard;
    ctx.progress.busy(&format!("sweeping {}", family.name));
    let rows = (sweeper.run)(args.max, args.size, shard, shards, args.up_to);
    ctx.progress.finish();
    let rows = rows?;
    let total = (sweeper.count)(args.max, args.size).unwrap_or(u64::MAX);
    let shown: &[SweepRow] = &rows[..args.top.unwrap_or(rows.len()).min(rows.len())];
    let order = "period descending, then preperiod descending, then set ascending";
    args.out.emit(|out| match format {
        PlainFormat::Json => {
            let results: Vec<_> = shown
                .iter()
                .map(|r| match r.period {
                    Some((pre, per)) => json!({"s": r.set, "preperiod": pre, "period": per}),
                    None => json!({"s": r.set, "preperiod": null, "period": null}),
                })
                .collect();
            ctx.print_json(
                out,
                &json!({
                    "family": family.name,
                    "max": crate::json::int(args.max),
                    "size": crate::json::int(args.size),
                    "shard": format!("{shard}/{shards}"),
                    "sets_in_family": crate::json::int(total),
                    "sets_in_shard": crate::json::int(rows.len() as u64),
                    "sorted_by": order,
                    "proven": true,
                    "results": results,
                }),
            )
        }
        PlainFormat::Text => {
            writeln!(
                out,
                "{} {} of size {} with max ≤ {}: {} (shard {shard}/{shards} of {total}); \
                 proven periods, sorted by {order}",
                family.name,
                sweeper.members,
                args.size,
                args.max,
                rows.len(),
            )?;
            let width = shown
                .iter()
                .map(|r| format_set(&r.set).len())
                .max()
                .unwrap_or(1)
                .max(3);
            writeln!(out, "{:<width$} {:>10} {:>8}", "set", "preperiod", "period")?;
            for r in shown {
                match r.period {
                    Some((pre, per)) => {
                        writeln!(out, "{:<width$} {pre:>10} {per:>8}", format_set(&r.set))?
                    }
                    None => writeln!(
                        out,
                        "{:<width$} {:>10} {:>8}",
                        format_set(&r.set),
                        "-",
                        format!("none below {}", args.up_to)
                    )?,
                }
            }
            Ok(())
        }
    })?;
    Ok(Status::Ok)
}
