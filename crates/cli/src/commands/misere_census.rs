//! `nimlab census misere`: the misère quotient of every octal code of a shape.

use super::Context;
use crate::Status;
use nimlab_engine::table::check_seconds;
use nimlab_engine::{Error, Progress, Result};
use nimlab_json::census::{open_append, read_lines};
use nimlab_octal::{census as octal_census, misere_census};
use serde_json::{json, Value};
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
    /// Digits after the point (0.d1…dD).
    #[arg(long, value_name = "D")]
    digits: usize,
    /// 8 (octal) or 16 (hexadecimal).
    #[arg(long, default_value_t = 8)]
    base: u32,
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
    if args.max_heap == 0 || args.max_heap > 1000 {
        return Err(Error::input(format!(
            "--max-heap must be between 1 and 1000, got {}",
            args.max_heap
        )));
    }
    if args.seconds == 0 || args.seconds > 86_400 {
        return Err(Error::input("--seconds must be between 1 and 86400"));
    }
    let wholes = args
        .whole
        .iter()
        .map(|w| {
            u8::from_str_radix(w.trim(), args.base)
                .map_err(|_| Error::input(format!("--whole: '{w}' is not a digit")))
        })
        .collect::<Result<Vec<u8>>>()?;
    let all = octal_census::codes(args.digits, args.base, &wholes)?;
    let (shard, shards) = args.shard;
    let mut finished = BTreeSet::new();
    if let Some(path) = &args.output {
        for line in read_lines(path, true)? {
            if line.get("max_heap").and_then(Value::as_u64) != Some(args.max_heap)
                || line.get("base").and_then(Value::as_u64) != Some(args.base as u64)
            {
                return Err(Error::input(format!(
                    "{} holds a census with other settings (max_heap {}, base {}): write to another file",
                    path.display(),
                    line.get("max_heap").unwrap_or(&Value::Null),
                    line.get("base").unwrap_or(&Value::Null)
                )));
            }
            if let Some(code) = line.get("code").and_then(Value::as_str) {
                finished.insert(code.to_string());
            }
        }
    }
    let todo: Vec<(usize, String)> = all
        .iter()
        .enumerate()
        .filter(|(i, c)| *i as u64 % shards == shard && !finished.contains(*c))
        .map(|(i, c)| (i, c.clone()))
        .collect();
    let codes: Vec<String> = todo.iter().map(|(_, c)| c.clone()).collect();
    let time = std::time::Duration::from_secs(args.seconds);
    let what = format!(
        "a misère census of {} codes to heap {}",
        codes.len(),
        args.max_heap
    );
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    // Worst case: every game runs out its time. Most games settle or reach the size
    // limit far sooner, so when the worst case is over the limit a pilot (a spread
    // sample, a short time each) measures the typical game; its answers are kept.
    let worst = (codes.len() as u64 * args.seconds) as f64 / threads as f64;
    let mut pilot: Vec<misere_census::MisereCensusEntry> = Vec::new();
    let mut estimate = None;
    if !ctx.force && check_seconds(&what, worst, false).is_err() {
        let (seconds, found) = run_pilot(&codes, &args, threads, &what)?;
        estimate = Some(seconds);
        pilot = found;
    }
    let file = match &args.output {
        Some(path) => Some(open_append(path)?),
        None => None,
    };
    let index: std::collections::BTreeMap<String, usize> =
        todo.iter().map(|(i, c)| (c.clone(), *i)).collect();
    let done_in_pilot: BTreeSet<&str> = pilot.iter().map(|e| e.code.as_str()).collect();
    let rest: Vec<String> = codes
        .iter()
        .filter(|c| !done_in_pilot.contains(c.as_str()))
        .cloned()
        .collect();
    ctx.progress.start(codes.len() as u64, "games");
    let state: Mutex<(Option<std::fs::File>, Option<Error>, usize, usize)> =
        Mutex::new((file, None, 0, 0));
    let stdout = std::io::stdout();
    let half = args.max_heap / 2;
    let emit = |e: misere_census::MisereCensusEntry| {
        let v = json!({
            "index": index[&e.code],
            "code": e.code,
            "game": e.spec,
            "base": args.base,
            "max_heap": args.max_heap,
            "status": if e.size.is_some() { "settled" } else { "unsettled" },
            "size": e.size,
            "p_size": e.p_size,
            "tame": e.tame,
            "changes": e.changes,
            "last_change": e.last_change,
            "error": e.error,
        });
        let mut text = Vec::new();
        let written = crate::json::write(&mut text, &v, false);
        let mut guard = state.lock().expect("no panic while holding the lock");
        let (file, error, settled, stable) = &mut *guard;
        if e.size.is_some() {
            *settled += 1;
            if e.last_change.is_some_and(|c| c <= half) {
                *stable += 1;
            }
        }
        let written = written.and_then(|_| match file {
            Some(f) => f.write_all(&text).and_then(|_| f.flush()),
            None => stdout.lock().write_all(&text),
        });
        if let Err(err) = written {
            error.get_or_insert(Error::input(format!("cannot write the census: {err}")));
        }
        ctx.progress.advance(1);
    };
    for e in pilot {
        emit(e);
    }
    misere_census::run(&rest, args.base, args.max_heap, time, &emit);
    ctx.progress.finish();
    let (_, error, settled, stable) = state.into_inner().expect("no panic while holding the lock");
    if let Some(e) = error {
        return Err(e);
    }
    let estimated = estimate.map_or(String::new(), |s| {
        format!(" (estimated beforehand from a pilot: {s:.0} s)")
    });
    eprintln!(
        "{settled} of {} codes settled to heap {}; {stable} of them with no change after heap {half}{estimated}",
        codes.len(),
        args.max_heap
    );
    Ok(Status::Ok)
}

/// Games in the pilot of a census whose worst case is over the time limit.
const PILOT_GAMES: usize = 32;

/// Seconds each pilot game gets (less when the census gives less).
const PILOT_SECONDS: u64 = 1;

/// Runs a spread sample of `codes` (a short time each), estimates the whole census
/// from it, and refuses (one error with the estimate) when that is over the limit —
/// as soon as the games charged so far already put it over. Returns the estimate in
/// seconds and the sample's answers that are final (those not cut short).
fn run_pilot(
    codes: &[String],
    args: &MisereCensusArgs,
    threads: usize,
    what: &str,
) -> Result<(f64, Vec<misere_census::MisereCensusEntry>)> {
    let cap = args.seconds.min(PILOT_SECONDS);
    let step = codes.len().div_ceil(PILOT_GAMES).max(1);
    let sample: Vec<String> = codes.iter().step_by(step).cloned().collect();
    // A game the pilot cut short is charged the mean of a time spread evenly on a log
    // scale between the pilot's cap and the census's limit: game times spread over
    // orders of magnitude, and charging every cut game the whole limit overestimates
    // a typical census several times.
    let cut = |e: &misere_census::MisereCensusEntry| e.timed_out && cap < args.seconds;
    let (lo, hi) = (cap as f64, args.seconds as f64);
    let charge = if hi > lo {
        (hi - lo) / (hi / lo).ln()
    } else {
        hi
    };
    let cost = |e: &misere_census::MisereCensusEntry| if cut(e) { charge } else { e.seconds };
    let scale = codes.len() as f64 / sample.len().max(1) as f64 / threads as f64;
    let found = Mutex::new((Vec::new(), 0.0f64));
    misere_census::run_while(
        &sample,
        args.base,
        args.max_heap,
        std::time::Duration::from_secs(cap),
        &|e| {
            let mut g = found.lock().expect("no panic while holding the lock");
            g.1 += cost(&e);
            g.0.push(e);
            check_seconds(what, g.1 * scale, false).is_ok()
        },
    );
    let (found, charged) = found.into_inner().expect("no panic while holding the lock");
    // When the pilot stopped early, the games charged so far are already over the limit.
    let estimate = charged * scale;
    check_seconds(what, estimate, false)?;
    Ok((estimate, found.into_iter().filter(|e| !cut(e)).collect()))
}
