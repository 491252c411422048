//! `nimlab census run`: one long nim-sequence run that survives (checkpoints, Ctrl-C,
//! `--resume`); `nimlab census frontier`: every game of the unsolved list to a budget,
//! as JSON lines and a Markdown table.

use super::census::{open_append, read_lines};
use super::Context;
use super::OutputArgs;
use crate::sink::Sink;
use crate::Status;
use nimlab_engine::{Error, Result};
use nimlab_json::frontier::{
    self, check_frontier_work, checkpoint_name, code_of, frontier_codes, frontier_todo,
    FrontierLines, RunReport,
};
use nimlab_octal::frontier as octal_frontier;
use nimlab_octal::takebreak::run::{PeriodRun, RunControl, RunOutcome};
use nimlab_octal::Octal;
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

/// Runs `run` to its end or a stop; saves a checkpoint on a stop.
fn drive(
    ctx: &Context,
    mut run: PeriodRun,
    game: &Octal,
    base: u32,
    (seconds, cpu): (Option<f64>, Option<f64>),
    checkpoint: Option<&Path>,
    every: f64,
) -> Result<(RunReport, Option<PeriodRun>)> {
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
    let spec = game.spec_text().to_string();
    let outcome = run.run(&ctx.progress, &mut control)?;
    let seconds = started.elapsed().as_secs_f64();
    // The whole computation's CPU time, across resumes, where the checkpoint knows it.
    let cpu_seconds = cpu_seconds() - cpu_start + spent_before.unwrap_or(0.0);
    let times = (seconds, cpu_seconds);
    Ok(match outcome {
        RunOutcome::Done(found) => (RunReport::done(found, code, spec, up_to, times), None),
        RunOutcome::Stopped => {
            control.save(&mut run)?;
            let report = RunReport::stopped(&run, control.stopped_by, code, spec, times);
            (report, Some(run))
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
        .map_err(|e| Error::io(format!("cannot read {}", path.display()), e))?;
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
    args.out.emit(|out| {
        ctx.print_json(
            out,
            &nimlab_json::doc::to_value(&report.line(args.base, None)),
        )
    })?;
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

pub fn frontier(ctx: &Context, args: FrontierArgs) -> Result<Status> {
    if args.up_to == 0 || args.up_to > MAX_TERMS {
        return Err(Error::input(format!(
            "--up-to must be between 1 and {MAX_TERMS}, got {}",
            args.up_to
        )));
    }
    check_seconds([Some(args.checkpoint_every), args.seconds, args.cpu_seconds])?;
    let list = frontier_codes(args.codes.as_deref())?;
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
    // The last line of each game already in the -o file. A game that reached --up-to
    // (or a period) is skipped; one stopped by its budget is continued from its
    // checkpoint when there are checkpoints (its new line is appended: readers keep a
    // game's last line), else skipped too.
    let last_lines = match &args.output {
        Some(path) => FrontierLines::read(
            read_lines(path, true)?,
            args.up_to,
            &path.display().to_string(),
        )?,
        None => FrontierLines::default(),
    };
    let finished = last_lines.finished(args.checkpoints.is_some());
    let todo = frontier_todo(&list, args.shard, &finished);
    // The estimate: each game to --up-to, or --seconds each.
    let cap = args.seconds.or(args.cpu_seconds);
    check_frontier_work(&todo, args.up_to, cap, ctx.force)?;
    if let Some(dir) = &args.checkpoints {
        if dir.exists() && !dir.is_dir() {
            return Err(Error::input(format!(
                "--checkpoints {} is not a directory",
                dir.display()
            )));
        }
        std::fs::create_dir_all(dir)
            .map_err(|e| Error::io(format!("cannot create {}", dir.display()), e))?;
    }
    let mut file = match &args.output {
        Some(p) => Some(open_append(p)?),
        None => None,
    };
    // SIGINT/SIGTERM: the run stops at its next chunk and saves a checkpoint.
    crate::sink::stop_on_signals();
    let mut interrupted = false;
    for (index, c) in &todo {
        if !run_frontier_game(ctx, &args, &last_lines, (*index, c), &mut file)? {
            interrupted = true;
            break;
        }
    }
    if let (Some(table), Some(path)) = (&args.table, &args.output) {
        let lines = read_lines(path, true)?;
        let mut sink = Sink::open(Some(table))?;
        frontier::write_table(&mut sink, &lines).map_err(|e| sink.error(e))?;
        sink.finish()?;
    }
    Ok(if interrupted {
        Status::Interrupted
    } else {
        Status::Ok
    })
}

/// Runs the frontier game `c` (list index `index`) from its checkpoint if there is
/// one, and writes its line to `file` (or standard output); `false` when a signal
/// interrupted it (no line is written: a rerun resumes it).
fn run_frontier_game(
    ctx: &Context,
    args: &FrontierArgs,
    last_lines: &FrontierLines,
    (index, c): (usize, &str),
    file: &mut Option<std::fs::File>,
) -> Result<bool> {
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
            if let (None, Some(cpu)) = (run.spent_seconds(), last_lines.cpu_seconds(&code)) {
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
        return Ok(false);
    }
    let line = nimlab_json::doc::to_value(&report.line(8, Some(index)));
    if report.stopped_by.is_none()
        && let Some(p) = &ckpt
    {
        // Finished: the line holds the result.
        let _ = std::fs::remove_file(p);
    }
    let mut text = Vec::new();
    crate::json::write(&mut text, &line, false).map_err(|e| Error::input(e.to_string()))?;
    let written = match file {
        Some(f) => f.write_all(&text).and_then(|_| f.flush()),
        None => std::io::stdout().lock().write_all(&text),
    };
    written.map_err(|e| Error::io("cannot write the results", e))?;
    Ok(true)
}
