//! `nimlab sweep`: proven preperiods and periods of a whole family of games at once.

use super::{Context, OutputArgs, PlainFormat};
use crate::Status;
use nimlab_engine::{Error, Result};
use nimlab_games::{format_set, SweepRequest};
use nimlab_json::census::sweep;

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
    let (family, sweeper) = nimlab_games::sweeper(&args.family)?;
    let request = SweepRequest {
        max: args.max,
        size: args.size,
        shard: args.shard,
        up_to: args.up_to,
    };
    let doc = sweep(family.name, &request, args.top, &ctx.table_options())?;
    let (shard, shards) = args.shard;
    args.out.emit(|out| match format {
        PlainFormat::Json => nimlab_json::write_doc(out, &doc, ctx.pretty),
        PlainFormat::Text => {
            writeln!(
                out,
                "{} {} of size {} with max ≤ {}: {} (shard {shard}/{shards} of {}); \
                 proven periods, sorted by {}",
                family.name,
                sweeper.members,
                args.size,
                args.max,
                doc.sets_in_shard.0,
                doc.sets_in_family
                    .as_ref()
                    .map_or("more than 2^64".to_string(), |n| n.0.to_string()),
                doc.sorted_by,
            )?;
            let width = doc
                .results
                .iter()
                .map(|r| format_set(&r.s).len())
                .max()
                .unwrap_or(1)
                .max(3);
            writeln!(out, "{:<width$} {:>10} {:>8}", "set", "preperiod", "period")?;
            for r in &doc.results {
                match (r.preperiod, r.period) {
                    (Some(pre), Some(per)) => {
                        writeln!(out, "{:<width$} {pre:>10} {per:>8}", format_set(&r.s))?
                    }
                    _ => writeln!(
                        out,
                        "{:<width$} {:>10} {:>8}",
                        format_set(&r.s),
                        "-",
                        format!("none below {}", doc.up_to.0)
                    )?,
                }
            }
            Ok(())
        }
    })?;
    Ok(Status::Ok)
}
