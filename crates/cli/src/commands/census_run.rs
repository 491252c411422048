//! `nimlab census run`: one long nim-sequence run that survives (checkpoints, Ctrl-C,
//! `--resume`); `nimlab census frontier`: every game of the unsolved list to a budget,
//! as JSON lines and a Markdown table.

use super::census::{open_append, read_lines};
use super::Context;
use super::OutputArgs;
use crate::sink::Sink;
use crate::Status;
use nimlab_engine::{Error, Result};
use nimlab_octal::frontier::{self as octal_frontier, Figures};
use nimlab_octal::takebreak::run::{PeriodRun, RunControl, RunOutcome};
use nimlab_octal::takebreak::TakeBreak;
use nimlab_octal::Octal;
use serde_json::{json, Value};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// One game's nim-sequence to --up-to terms (or until a period is proven), with
/// checkpoints: every --checkpoint-every seconds and on Ctrl-C/SIGTERM the state is
/// written to --checkpoint FILE (atomically); `--resume FILE` continues exactly where it
/// stopped. Prints one JSON line with the figures (n reached, largest value, rare mask
/// and count, last rare heap, the period if proven, SHA-256 of the values).
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  nimlab census run grundy --up-to 67108864 --checkpoint grundy.ckpt\n  nimlab census run --resume grundy.ckpt\n  nimlab census run .1777 --up-to 450000000 --checkpoint 1777.ckpt --certificate 1777.json"
)]
pub struct RunArgs {
    /// The game: an octal code (.6, 0.1777, 4.007) or grundy (Grundy's game); taken
    /// from the checkpoint with --resume.
    game: Option<String>,
    /// 8 (octal) or 16 (hexadecimal) codes.
    #[arg(long, default_value_t = 8)]
    base: u32,
    /// Compute heaps below N (default 2^20; with --resume, the checkpoint's bound).
    #[arg(long, value_name = "N")]
    up_to: Option<u64>,
    /// Stop after this many seconds (the figures so far are printed; resumable; `inf`:
    /// no limit).
    #[arg(long, value_name = "S")]
    seconds: Option<f64>,
    /// Stop after this many seconds of CPU time (both threads; steadier than wall time
    /// on a shared machine; `inf`: no limit).
    #[arg(long, value_name = "S")]
    cpu_seconds: Option<f64>,
    /// Write checkpoints to FILE (with --resume: default the resumed file).
    #[arg(long, value_name = "FILE")]
    checkpoint: Option<PathBuf>,
    /// Seconds between checkpoints (`inf`: only when the run stops).
    #[arg(long, value_name = "S", default_value_t = 300.0)]
    checkpoint_every: f64,
    /// Continue the run saved in FILE.
    #[arg(long, value_name = "FILE")]
    resume: Option<PathBuf>,
    /// Write the certificate of a proven period to FILE (check it with `nimlab certify`).
    #[arg(long, value_name = "FILE")]
    certificate: Option<PathBuf>,
    #[command(flatten)]
    out: OutputArgs,
}

/// Every game of the unsolved list (T. Czajka's table, after A. Flammenkamp; the list is
/// data in the repository), each to --up-to terms or --seconds, one JSON line each as it
/// ends; with -o FILE the lines are appended and a rerun skips the games finished
/// there; with --checkpoints DIR an interrupted game resumes from DIR/CODE.ckpt, and a
/// rerun continues the games a budget stopped (a game's last line is its result).
/// --table FILE writes the Markdown table of the -o file, a row per game.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  nimlab census frontier --up-to 1048576 --seconds 60 -o frontier.jsonl --checkpoints ckpt --table frontier.md\n  nimlab census frontier --codes .6,.04 --up-to 65536\n  nimlab census frontier --shard 0/4 -o a.jsonl --checkpoints /shared/ckpt"
)]
pub struct FrontierArgs {
    /// Codes to run (comma separated; default: the whole unsolved list).
    #[arg(long, value_name = "C,…", value_delimiter = ',')]
    codes: Option<Vec<String>>,
    /// Per game, compute heaps below N.
    #[arg(long, value_name = "N", default_value_t = 1 << 20)]
    up_to: u64,
    /// Per game, stop after this many seconds (`inf`: no limit).
    #[arg(long, value_name = "S")]
    seconds: Option<f64>,
    /// Per game, stop after this many seconds of CPU time (`inf`: no limit).
    #[arg(long, value_name = "S")]
    cpu_seconds: Option<f64>,
    /// Only this share of the list: i/k (0 ≤ i < k), by list index mod k.
    #[arg(long, value_name = "i/k", default_value = "0/1", value_parser = super::sweep::parse_shard)]
    shard: (u64, u64),
    /// Directory for per-game checkpoints (resumed on a rerun).
    #[arg(long, value_name = "DIR")]
    checkpoints: Option<PathBuf>,
    /// Seconds between checkpoints (`inf`: only when the run stops).
    #[arg(long, value_name = "S", default_value_t = 300.0)]
    checkpoint_every: f64,
    /// Append the JSON lines to FILE (resuming: games finished there are skipped).
    #[arg(long, short = 'o', value_name = "FILE")]
    output: Option<PathBuf>,
    /// Write the Markdown table of the -o file's lines to FILE.
    #[arg(long, value_name = "FILE")]
    table: Option<PathBuf>,
}

/// Largest --up-to of one run: indices are held as 32-bit numbers.
const MAX_TERMS: u64 = 4_000_000_000;
/// Bytes per term a run holds (values, narrow copies, scratch), as the engine's sequence
/// estimate counts them.
const BYTES_PER_TERM: u64 = 16;

/// Stops on a signal or past a deadline; saves a checkpoint every so often.
struct Control<'a> {
    deadline: Option<Instant>,
    /// Process CPU seconds at which to stop.
    cpu_deadline: Option<f64>,
    every: Duration,
    last_save: Instant,
    path: Option<&'a Path>,
    stopped_by: Option<&'static str>,
    /// Process CPU seconds when this run started, and the run's CPU seconds before it
    /// (from its checkpoint): a checkpoint records their sum.
    cpu_start: f64,
    spent_before: Option<f64>,
}

impl Control<'_> {
    fn save(&mut self, run: &mut PeriodRun) -> Result<()> {
        if let Some(before) = self.spent_before {
            run.set_spent_seconds(before + (cpu_seconds() - self.cpu_start));
        }
        if let Some(path) = self.path {
            let mut sink = Sink::open(Some(path))?;
            run.write_to(&mut sink).map_err(|e| sink.error(e))?;
            sink.finish()?;
            self.last_save = Instant::now();
        }
        Ok(())
    }
}

impl RunControl for Control<'_> {
    fn stop(&mut self, _terms: usize) -> bool {
        if crate::sink::stop_requested() {
            self.stopped_by = Some("signal");
        } else if self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.stopped_by = Some("time");
        } else if self.cpu_deadline.is_some_and(|d| cpu_seconds() >= d) {
            self.stopped_by = Some("cpu time");
        }
        self.stopped_by.is_some()
    }
    fn after_chunk(&mut self, run: &mut PeriodRun) -> Result<()> {
        if self.last_save.elapsed() >= self.every {
            self.save(run)?;
        }
        Ok(())
    }
}

/// CPU seconds used by this process so far (every thread).
fn cpu_seconds() -> f64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid timespec to write to.
    let ok = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut t) } == 0;
    if ok {
        t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9
    } else {
        0.0
    }
}

/// The code of `rules` as the frontier list writes it (`grundy`, `0.1777`).
fn code_of(rules: &TakeBreak, base: u32) -> String {
    if rules.distinct_parts() && rules.digits() == [4] {
        return "grundy".into();
    }
    let text: String = rules
        .digits()
        .iter()
        .map(|&x| char::from_digit(u32::from(x), base).unwrap_or('?'))
        .collect();
    let (d0, rest) = text.split_at(1);
    format!("{d0}.{}", if rest.is_empty() { "0" } else { rest })
}

/// What one run reports.
struct Report {
    code: String,
    spec: String,
    up_to: u64,
    /// "solved", "unsolved" (to --up-to), "stopped" (signal or time).
    status: &'static str,
    stopped_by: Option<&'static str>,
    figures: Option<Figures>,
    n: u64,
    period: Option<nimlab_engine::periodicity::Periodicity>,
    sha256: String,
    seconds: f64,
    cpu_seconds: f64,
}

impl Report {
    fn json(&self, base: u32) -> Value {
        let f = self.figures.as_ref();
        json!({
            "code": self.code,
            "game": self.spec,
            "base": base,
            "up_to": crate::json::int(self.up_to),
            "status": self.status,
            "stopped_by": self.stopped_by,
            "n": crate::json::int(self.n),
            "largest": f.map(|f| f.largest),
            "largest_index": f.map(|f| crate::json::int(f.largest_index)),
            "rare_mask": f.map(|f| format!("{:x}", f.rare_mask)),
            "rare": f.map(|f| crate::json::int(f.rare_count)),
            "common": f.map(|f| crate::json::int(self.n - f.rare_count)),
            "last_rare": f.map(|f| crate::json::int(f.last_rare)),
            "preperiod": self.period.as_ref().map(|p| crate::json::int(p.preperiod)),
            "period": self.period.as_ref().map(|p| crate::json::int(p.period)),
            "values_sha256": self.sha256,
            "seconds": (self.seconds * 10.0).round() / 10.0,
            "cpu_seconds": (self.cpu_seconds * 10.0).round() / 10.0,
        })
    }
}

/// Runs `run` to its end or a stop; saves a checkpoint on a stop.
fn drive(
    ctx: &Context,
    mut run: PeriodRun,
    game: &Octal,
    base: u32,
    (seconds, cpu): (Option<f64>, Option<f64>),
    checkpoint: Option<&Path>,
    every: f64,
) -> Result<(Report, Option<PeriodRun>)> {
    let started = Instant::now();
    let cpu_start = cpu_seconds();
    let spent_before = run.spent_seconds();
    let mut control = Control {
        deadline: seconds.and_then(|s| after(started, s)),
        cpu_deadline: cpu.map(|s| cpu_start + s.max(0.0)),
        every: seconds_or_never(every),
        last_save: Instant::now(),
        path: checkpoint,
        stopped_by: None,
        cpu_start,
        spent_before,
    };
    let up_to = run.max_n();
    let code = code_of(run.rules(), base);
    let outcome = run.run(&ctx.progress, &mut control)?;
    let seconds = started.elapsed().as_secs_f64();
    // The whole computation's CPU time, across resumes, where the checkpoint knows it.
    let cpu_seconds = cpu_seconds() - cpu_start + spent_before.unwrap_or(0.0);
    Ok(match outcome {
        RunOutcome::Done(found) => {
            let figures = octal_frontier::figures_of(&found);
            let status = if found.period.is_some() {
                "solved"
            } else {
                "unsolved"
            };
            (
                Report {
                    code,
                    spec: game.spec_text().into(),
                    up_to,
                    status,
                    stopped_by: None,
                    figures,
                    n: found.values.len() as u64,
                    sha256: nimlab_json::certificate::values_hash(&found.values),
                    period: found.period,
                    seconds,
                    cpu_seconds,
                },
                None,
            )
        }
        RunOutcome::Stopped => {
            control.save(&mut run)?;
            let values = run.values();
            let (split, rare, last) = run.rare_figures();
            (
                Report {
                    code,
                    spec: game.spec_text().into(),
                    up_to,
                    status: "stopped",
                    stopped_by: control.stopped_by,
                    figures: octal_frontier::figures(values, split, rare, last),
                    n: values.len() as u64,
                    sha256: nimlab_json::certificate::values_hash(values),
                    period: None,
                    seconds,
                    cpu_seconds,
                },
                Some(run),
            )
        }
    })
}

/// `seconds` as a duration: a budget too long to represent (`inf`, `1e20`: past any
/// run) is no limit at all.
fn seconds_or_never(seconds: f64) -> Duration {
    Duration::try_from_secs_f64(seconds.max(0.0)).unwrap_or(Duration::MAX)
}

/// The instant `seconds` after `start`, `None` (no deadline) when it lies past what
/// the clock can represent.
fn after(start: Instant, seconds: f64) -> Option<Instant> {
    start.checked_add(seconds_or_never(seconds))
}

/// Refuses a budget that is not a number of seconds ≥ 0 (`inf` is one: no limit).
fn check_seconds(budgets: [Option<f64>; 3]) -> Result<()> {
    if budgets.iter().flatten().any(|s| s.is_nan() || *s < 0.0) {
        return Err(Error::input(
            "--seconds, --cpu-seconds and --checkpoint-every must be numbers of seconds ≥ 0 \
             (inf: no limit)",
        ));
    }
    Ok(())
}

fn check_up_to(ctx: &Context, up_to: u64) -> Result<()> {
    if up_to == 0 || up_to > MAX_TERMS {
        return Err(Error::input(format!(
            "--up-to must be between 1 and {MAX_TERMS}, got {up_to}"
        )));
    }
    ctx.memory_limit.check(
        &format!("a nim-sequence of {up_to} terms"),
        up_to * BYTES_PER_TERM,
    )
}

fn read_checkpoint(path: &Path) -> Result<PeriodRun> {
    let file = std::fs::File::open(path)
        .map_err(|e| Error::input(format!("cannot read {}: {e}", path.display())))?;
    if !file.metadata().is_ok_and(|m| m.is_file()) {
        return Err(Error::input(format!(
            "{}: not a checkpoint file",
            path.display()
        )));
    }
    let mut reader = std::io::BufReader::with_capacity(1 << 20, file);
    PeriodRun::read_from(&mut reader).map_err(|e| match e {
        Error::Input(m) => Error::input(format!("{}: {m}", path.display())),
        other => other,
    })
}

pub fn run(ctx: &Context, args: RunArgs) -> Result<Status> {
    check_seconds([Some(args.checkpoint_every), args.seconds, args.cpu_seconds])?;
    if let Some(p) = &args.checkpoint {
        Sink::precheck(p)?;
    }
    if let Some(p) = &args.certificate {
        Sink::precheck(p)?;
    }
    let (run, game) = match &args.resume {
        Some(path) => {
            let mut run = read_checkpoint(path)?;
            let code = code_of(run.rules(), args.base);
            let game = octal_frontier::game_of(&code, args.base)?;
            if let Some(g) = &args.game {
                let given = octal_frontier::game_of(g, args.base)?;
                if given.rules() != run.rules() {
                    return Err(Error::input(format!(
                        "{} holds a run of {code}, not of {g}",
                        path.display()
                    )));
                }
            }
            if let Some(n) = args.up_to {
                check_up_to(ctx, n)?;
                // A resumed run never goes back: a bound below the terms held would be
                // ignored, so it is refused.
                let held = run.values().len() as u64;
                if n < held {
                    return Err(Error::out_of_range(
                        format!(
                            "{} holds {held} terms already: the bound on the terms",
                            path.display()
                        ),
                        n,
                        format!("at least {held} (a resumed run does not go back)"),
                        nimlab_engine::Knob::UpTo,
                    ));
                }
                run.set_max_n(n);
            }
            (run, game)
        }
        None => {
            let Some(g) = &args.game else {
                return Err(Error::input(
                    "give a game (an octal code such as .6, or grundy) or --resume FILE",
                ));
            };
            let game = octal_frontier::game_of(g, args.base)?;
            let up_to = args.up_to.unwrap_or(1 << 20);
            check_up_to(ctx, up_to)?;
            nimlab_engine::table::check_seconds(
                &format!("{} to {up_to} terms", game.spec_text()),
                game.search_seconds(up_to),
                ctx.force,
            )?;
            (PeriodRun::new(game.rules().clone(), up_to), game)
        }
    };
    check_up_to(ctx, run.max_n())?;
    let checkpoint = args.checkpoint.clone().or(args.resume.clone());
    // SIGINT/SIGTERM: the run stops at its next chunk and saves a checkpoint.
    crate::sink::stop_on_signals();
    let (report, _) = drive(
        ctx,
        run,
        &game,
        args.base,
        (args.seconds, args.cpu_seconds),
        checkpoint.as_deref(),
        args.checkpoint_every,
    )?;
    if let (Some(path), Some(per)) = (&args.certificate, &report.period) {
        let cert = nimlab_json::certificate::build(&game, per)?;
        let mut sink = Sink::open(Some(path))?;
        crate::json::write(&mut sink, &cert, false).map_err(|e| sink.error(e))?;
        sink.finish()?;
    }
    args.out
        .emit(|out| ctx.print_json(out, &report.json(args.base)))?;
    if report.status == "stopped" {
        if let Some(p) = &checkpoint {
            eprintln!(
                "nimlab: stopped at n = {} ({}); continue with: nimlab census run --resume {}",
                report.n,
                report.stopped_by.unwrap_or("stop"),
                p.display()
            );
        }
        if report.stopped_by == Some("signal") {
            return Ok(Status::Interrupted);
        }
    }
    Ok(Status::Ok)
}

/// A file name for a code's checkpoint (`.6` → `0.6.ckpt`).
fn checkpoint_name(code: &str) -> String {
    let c = if code.starts_with('.') {
        format!("0{code}")
    } else {
        code.to_string()
    };
    format!("{c}.ckpt")
}

pub fn frontier(ctx: &Context, args: FrontierArgs) -> Result<Status> {
    if args.up_to == 0 || args.up_to > MAX_TERMS {
        return Err(Error::input(format!(
            "--up-to must be between 1 and {MAX_TERMS}, got {}",
            args.up_to
        )));
    }
    check_seconds([Some(args.checkpoint_every), args.seconds, args.cpu_seconds])?;
    let list: Vec<String> = match &args.codes {
        Some(c) => c.iter().map(|s| s.trim().to_string()).collect(),
        None => octal_frontier::unsolved()
            .into_iter()
            .map(|g| g.code)
            .collect(),
    };
    for c in &list {
        octal_frontier::check_code(c, 8)?;
    }
    // Before any work: the table is made of the -o file's lines.
    match (&args.table, &args.output) {
        (Some(_), None) => {
            return Err(Error::input(
                "--table needs -o FILE (the table is of its lines)",
            ))
        }
        (Some(t), Some(_)) => Sink::precheck(t)?,
        _ => {}
    }
    check_up_to(ctx, args.up_to)?;
    let (shard, shards) = args.shard;
    // The last line of each game already in the -o file. A game that reached --up-to
    // (or a period) is skipped; one stopped by its budget is continued from its
    // checkpoint when there are checkpoints (its new line is appended: readers keep a
    // game's last line), else skipped too.
    let mut last_lines = std::collections::BTreeMap::new();
    if let Some(path) = &args.output {
        for line in read_lines(path, true)? {
            if line.get("up_to").and_then(Value::as_u64) != Some(args.up_to) {
                return Err(Error::input(format!(
                    "{} holds runs to another --up-to ({}): write to another file",
                    path.display(),
                    line.get("up_to").unwrap_or(&Value::Null)
                )));
            }
            if let Some(c) = line.get("code").and_then(Value::as_str).map(str::to_string) {
                last_lines.insert(c, line);
            }
        }
    }
    let finished: std::collections::BTreeSet<&String> = last_lines
        .iter()
        .filter(|(_, line)| {
            line.get("status").and_then(Value::as_str) != Some("stopped")
                || args.checkpoints.is_none()
        })
        .map(|(code, _)| code)
        .collect();
    let todo: Vec<(usize, String)> = list
        .iter()
        .enumerate()
        .filter(|(i, _)| *i as u64 % shards == shard)
        .map(|(i, c)| (i, c.clone()))
        .filter(|(_, c)| {
            let code = octal_frontier::game_of(c, 8)
                .map(|g| code_of(g.rules(), 8))
                .unwrap_or_default();
            !finished.contains(&code)
        })
        .collect();
    // The estimate: each game to --up-to, or --seconds each.
    let mut estimate = 0.0;
    for (_, c) in &todo {
        let g = octal_frontier::game_of(c, 8)?;
        let s = g.search_seconds(args.up_to);
        let cap = args.seconds.or(args.cpu_seconds).unwrap_or(f64::INFINITY);
        estimate += s.min(cap);
    }
    nimlab_engine::table::check_seconds(
        &format!(
            "{} frontier game{} to {} terms each",
            todo.len(),
            if todo.len() == 1 { "" } else { "s" },
            args.up_to
        ),
        estimate,
        ctx.force,
    )?;
    if let Some(dir) = &args.checkpoints {
        if dir.exists() && !dir.is_dir() {
            return Err(Error::input(format!(
                "--checkpoints {} is not a directory",
                dir.display()
            )));
        }
        std::fs::create_dir_all(dir)
            .map_err(|e| Error::input(format!("cannot create {}: {e}", dir.display())))?;
    }
    let mut file = match &args.output {
        Some(p) => Some(open_append(p)?),
        None => None,
    };
    // SIGINT/SIGTERM: the run stops at its next chunk and saves a checkpoint.
    crate::sink::stop_on_signals();
    let mut interrupted = false;
    for (index, c) in &todo {
        let game = octal_frontier::game_of(c, 8)?;
        let code = code_of(game.rules(), 8);
        let ckpt = args
            .checkpoints
            .as_ref()
            .map(|d| d.join(checkpoint_name(&code)));
        let run = match &ckpt {
            Some(p) if p.is_file() => {
                let mut run = read_checkpoint(p)?;
                // A checkpoint of version 1 does not record the CPU seconds before it:
                // those of the game's stopped line stand in.
                let line_cpu = last_lines
                    .get(&code)
                    .and_then(|l| l["cpu_seconds"].as_f64());
                if let (None, Some(cpu)) = (run.spent_seconds(), line_cpu) {
                    run.set_spent_seconds(cpu);
                }
                if run.rules() != game.rules() {
                    return Err(Error::input(format!(
                        "{} holds a run of another game",
                        p.display()
                    )));
                }
                run.set_max_n(args.up_to);
                run
            }
            _ => PeriodRun::new(game.rules().clone(), args.up_to),
        };
        let (report, _) = drive(
            ctx,
            run,
            &game,
            8,
            (args.seconds, args.cpu_seconds),
            ckpt.as_deref(),
            args.checkpoint_every,
        )?;
        if report.stopped_by == Some("signal") {
            eprintln!(
                "nimlab: interrupted in {code} at n = {}; rerun the same command to resume",
                report.n
            );
            interrupted = true;
            break;
        }
        let mut v = report.json(8);
        v["index"] = (*index).into();
        if report.stopped_by.is_none()
            && let Some(p) = &ckpt
        {
            // Finished: the line holds the result.
            let _ = std::fs::remove_file(p);
        }
        let mut text = Vec::new();
        crate::json::write(&mut text, &v, false).map_err(|e| Error::input(e.to_string()))?;
        let written = match &mut file {
            Some(f) => f.write_all(&text).and_then(|_| f.flush()),
            None => std::io::stdout().lock().write_all(&text),
        };
        written.map_err(|e| Error::input(format!("cannot write the results: {e}")))?;
    }
    if let (Some(table), Some(path)) = (&args.table, &args.output) {
        let lines = read_lines(path, true)?;
        let mut sink = Sink::open(Some(table))?;
        write_table(&mut sink, &lines).map_err(|e| sink.error(e))?;
        sink.finish()?;
    }
    Ok(if interrupted {
        Status::Interrupted
    } else {
        Status::Ok
    })
}

/// The Markdown table of frontier lines, in list order, in Czajka's layout plus our
/// columns, and the published figures where the source gives them.
fn write_table(out: &mut dyn Write, lines: &[Value]) -> std::io::Result<()> {
    let published: std::collections::BTreeMap<String, Figures> = octal_frontier::unsolved()
        .into_iter()
        .filter_map(|g| {
            let code = octal_frontier::game_of(&g.code, 8).ok()?;
            Some((code_of(code.rules(), 8), g.published?))
        })
        .collect();
    // A game's last line (a rerun appends the continuation of a stopped game).
    let mut last = std::collections::BTreeMap::new();
    for v in lines {
        last.insert(v.get("code").and_then(Value::as_str).unwrap_or(""), v);
    }
    let mut rows: Vec<&Value> = last.into_values().collect();
    rows.sort_by_key(|v| v.get("index").and_then(Value::as_u64).unwrap_or(u64::MAX));
    writeln!(
        out,
        "| game | n | largest idx | largest | rare mask | num rare | last rare | period | CPU s | published (n, num rare, last rare) | reproduce |"
    )?;
    writeln!(
        out,
        "| :--- | ---: | ---: | ---: | ---: | ---: | ---: | :--- | ---: | :--- | :--- |"
    )?;
    let cell = |v: &Value, k: &str| match v.get(k) {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(s)) => s.clone(),
        Some(x) => x.to_string(),
    };
    for v in rows {
        let code = cell(v, "code");
        let name = if code == "grundy" {
            "Grundy's".to_string()
        } else {
            code.trim_start_matches('0').to_string()
        };
        let n = v.get("n").and_then(Value::as_u64).unwrap_or(0);
        let n_text = if n.is_power_of_two() {
            format!("2^{}", n.trailing_zeros())
        } else {
            n.to_string()
        };
        let period = match (cell(v, "preperiod"), cell(v, "period")) {
            (a, p) if !p.is_empty() => format!("p = {p}, a = {a}"),
            _ if cell(v, "status") == "stopped" => {
                format!("none (stopped: {})", cell(v, "stopped_by"))
            }
            _ => "none".into(),
        };
        let theirs = published.get(&code).map_or(String::new(), |f| {
            format!(
                "2^{}, {}, {}",
                f.n.trailing_zeros(),
                f.rare_count,
                f.last_rare
            )
        });
        writeln!(
            out,
            "| {name} | {n_text} | {} | {} | {} | {} | {} | {period} | {} | {theirs} | `nimlab census run {} --up-to {n}` |",
            cell(v, "largest_index"),
            cell(v, "largest"),
            cell(v, "rare_mask"),
            cell(v, "rare"),
            cell(v, "last_rare"),
            cell(v, "cpu_seconds"),
            if code == "grundy" { "grundy" } else { name.as_str() },
        )?;
    }
    Ok(())
}
