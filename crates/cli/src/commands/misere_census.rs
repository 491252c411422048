//! `nimlab census misere`: the misère quotient of every octal code of a shape.

use super::Context;
use crate::Status;
use nimlab_engine::{Error, Progress, Result};
use nimlab_json::census::{open_append, read_lines};
use nimlab_json::misere_census::{self, MisereCensus, MisereTally};
use nimlab_octal::misere_census::MisereCensusEntry;
use std::collections::BTreeSet;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Mutex;

/// Every code w.d1…dD: |Q| and |P| of its misère quotient to heap N (or why it did not
/// settle), one JSON line per game as soon as it is done.
///
/// With -o FILE the lines are appended to FILE and a rerun with the same FILE skips the
/// games already there (resuming). --shard i/k takes the codes whose census index is
/// ≡ i (mod k); `census merge` joins the files. A summary (how many settled, how many
/// had no change in the upper half of the heaps) goes to stderr.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  nimlab census misere --digits 2\n  nimlab census misere --digits 3 --max-heap 30 -o misere.jsonl\n  nimlab census misere --digits 3 --shard 0/2 -o a.jsonl"
)]
pub struct MisereCensusArgs {
    #[command(flatten)]
    codes: super::census::CodeArgs,
    /// Whole parts to include, comma separated: 0, 4.
    #[arg(long, value_name = "W,…", default_value = "0", value_delimiter = ',')]
    whole: Vec<String>,
    /// Largest heap of each game's quotient.
    #[arg(long, value_name = "N", default_value_t = 30)]
    max_heap: u64,
    /// Seconds per game before it is reported unsettled.
    #[arg(long, value_name = "S", default_value_t = 10)]
    seconds: u64,
    /// Only this share of the codes: i/k (0 ≤ i < k), by census index mod k.
    #[arg(long, value_name = "i/k", default_value = "0/1", value_parser = super::sweep::parse_shard)]
    shard: (u64, u64),
    /// Append the JSON lines to FILE (resuming: games already there are skipped).
    #[arg(long, short = 'o', value_name = "FILE")]
    output: Option<PathBuf>,
}

pub fn run(ctx: &Context, args: MisereCensusArgs) -> Result<Status> {
    let census = MisereCensus::new(
        args.codes.digits,
        args.codes.base,
        &args.whole,
        args.shard,
        args.max_heap,
        args.seconds,
    )?;
    let todo = match &args.output {
        Some(path) => census.todo(&read_lines(path, true)?, &path.display().to_string())?,
        None => census.todo(&[], "-")?,
    };
    let codes: Vec<String> = todo.iter().map(|(_, c)| c.clone()).collect();
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let (estimate, pilot) = match census.estimate(&codes, threads, ctx.force)? {
        Some((seconds, found)) => (Some(seconds), found),
        None => (None, Vec::new()),
    };
    let file = match &args.output {
        Some(path) => Some(open_append(path)?),
        None => None,
    };
    let index = misere_census::indices(&todo);
    let done_in_pilot: BTreeSet<&str> = pilot.iter().map(|e| e.code.as_str()).collect();
    let rest: Vec<String> = codes
        .iter()
        .filter(|c| !done_in_pilot.contains(c.as_str()))
        .cloned()
        .collect();
    ctx.progress.start(codes.len() as u64, "games");
    let state: Mutex<(Option<std::fs::File>, Option<Error>, MisereTally)> =
        Mutex::new((file, None, MisereTally::default()));
    let stdout = std::io::stdout();
    let emit = |e: MisereCensusEntry| {
        let line = nimlab_json::doc::to_value(&census.line(&e, index[&e.code]));
        let mut text = Vec::new();
        let written = crate::json::write(&mut text, &line, false);
        let mut guard = state.lock().expect("no panic while holding the lock");
        let (file, error, tally) = &mut *guard;
        tally.add(&e, census.max_heap);
        let written = written.and_then(|_| match file {
            Some(f) => f.write_all(&text).and_then(|_| f.flush()),
            None => stdout.lock().write_all(&text),
        });
        if let Err(err) = written {
            error.get_or_insert(Error::io("cannot write the census", err));
        }
        ctx.progress.advance(1);
    };
    for e in pilot {
        emit(e);
    }
    census.run(&rest, &emit);
    ctx.progress.finish();
    let (_, error, tally) = state.into_inner().expect("no panic while holding the lock");
    if let Some(e) = error {
        return Err(e);
    }
    eprintln!("{}", tally.summary(codes.len(), census.max_heap, estimate));
    Ok(Status::Ok)
}
