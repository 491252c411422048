//! `nimlab census octal`: every octal code of a shape, solved or not; `nimlab census
//! merge`: shards into one table.

use super::{Context, OutputArgs};
use crate::Status;
use nimlab_engine::{Error, Progress, Result};
use nimlab_games::octal_census::{self, CensusEntry};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::io::{BufRead, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The octal census (Flammenkamp's tables, re-computed with certificates).
#[derive(clap::Args)]
pub struct CensusArgs {
    #[command(subcommand)]
    what: CensusCommand,
}

#[derive(clap::Subcommand)]
enum CensusCommand {
    Octal(OctalArgs),
    Merge(MergeArgs),
    Run(super::census_run::RunArgs),
    Frontier(super::census_run::FrontierArgs),
}

/// Every code w.d1…dD (each game once): a period proven by the Guy–Smith theorem
/// below --up-to, or the sparse-space figures of the unsolved sequence.
///
/// One JSON line per game is written as soon as the game is done (in no particular
/// order; `census merge` sorts). With -o FILE the lines are appended to FILE, and a
/// rerun with the same FILE skips the games already in it: an interrupted census
/// resumes. Shards: --shard i/k (0 ≤ i < k) takes the codes whose census index is
/// ≡ i (mod k); merge the k files with `census merge`.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  nimlab census octal --digits 2\n  nimlab census octal --digits 3 --up-to 65536 -o census.jsonl\n  nimlab census octal --digits 3 --shard 0/2 -o a.jsonl\n  nimlab census merge a.jsonl b.jsonl --format csv"
)]
struct OctalArgs {
    /// Digits after the point (0.d1…dD).
    #[arg(long, value_name = "D")]
    digits: usize,
    /// 8 (octal) or 16 (hexadecimal).
    #[arg(long, default_value_t = 8)]
    base: u32,
    /// Whole parts to include, comma separated: 0 (0.???), 4 (4.???: a heap may be
    /// split without taking), e.g. 0,4.
    #[arg(long, value_name = "W,…", default_value = "0", value_delimiter = ',')]
    whole: Vec<String>,
    /// Per game, compute heaps below N (and prove periods within them).
    #[arg(long, value_name = "N", default_value_t = 1 << 16)]
    up_to: u64,
    /// Only this share of the codes: i/k (0 ≤ i < k), by census index mod k.
    #[arg(long, value_name = "i/k", default_value = "0/1", value_parser = super::sweep::parse_shard)]
    shard: (u64, u64),
    /// Write each solved game's certificate to DIR/<code>.json.
    #[arg(long, value_name = "DIR")]
    certificates: Option<PathBuf>,
    /// Append the JSON lines to FILE (resuming: games already there are skipped).
    #[arg(long, short = 'o', value_name = "FILE")]
    output: Option<PathBuf>,
}

/// Merges census files (JSON lines) into one table sorted by census index.
#[derive(clap::Args)]
#[command(after_help = "Examples:\n  nimlab census merge a.jsonl b.jsonl -o census.csv")]
struct MergeArgs {
    /// The census files.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Output format (default: from the --output extension, else json).
    #[arg(long, value_enum)]
    format: Option<MergeFormat>,
    #[command(flatten)]
    out: OutputArgs,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum MergeFormat {
    /// One JSON document {"schema":1,"games":[…]}.
    Json,
    /// One row per game.
    Csv,
}

pub fn run(ctx: &Context, args: CensusArgs) -> Result<Status> {
    match args.what {
        CensusCommand::Octal(a) => octal(ctx, a),
        CensusCommand::Merge(a) => merge(ctx, a),
        CensusCommand::Run(a) => super::census_run::run(ctx, a),
        CensusCommand::Frontier(a) => super::census_run::frontier(ctx, a),
    }
}

/// Largest --up-to: the values take 4 bytes a heap, per game in flight.
const MAX_UP_TO: u64 = 1 << 28;

fn octal(ctx: &Context, args: OctalArgs) -> Result<Status> {
    if args.up_to == 0 || args.up_to > MAX_UP_TO {
        return Err(Error::input(format!(
            "--up-to must be between 1 and {MAX_UP_TO}, got {}",
            args.up_to
        )));
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
    // Games already in the output file (an interrupted run): skipped.
    let mut finished: BTreeMap<String, ()> = BTreeMap::new();
    let mut file = None;
    if let Some(path) = &args.output {
        for line in read_lines(path, true)? {
            if line.get("up_to").and_then(Value::as_u64) != Some(args.up_to)
                || line.get("base").and_then(Value::as_u64) != Some(args.base as u64)
            {
                return Err(Error::input(format!(
                    "{} holds a census with other settings (up_to {}, base {}): write to another file",
                    path.display(),
                    line.get("up_to").unwrap_or(&Value::Null),
                    line.get("base").unwrap_or(&Value::Null)
                )));
            }
            if let Some(code) = line.get("code").and_then(Value::as_str) {
                finished.insert(code.to_string(), ());
            }
        }
    }
    let index: BTreeMap<&str, usize> = all
        .iter()
        .enumerate()
        .map(|(i, c)| (c.as_str(), i))
        .collect();
    let todo: Vec<String> = all
        .iter()
        .enumerate()
        .filter(|(i, c)| *i as u64 % shards == shard && !finished.contains_key(*c))
        .map(|(_, c)| c.clone())
        .collect();
    // Before anything is written. Only the codes still to do count: a resumed census
    // is estimated afresh.
    octal_census::check_work(&todo, args.base, args.up_to, ctx.force)?;
    if let Some(path) = &args.output {
        file = Some(open_append(path)?);
    }
    if let Some(dir) = &args.certificates {
        std::fs::create_dir_all(dir)
            .map_err(|e| Error::input(format!("cannot create {}: {e}", dir.display())))?;
    }
    ctx.progress.start(todo.len() as u64, "games");
    let out: Mutex<(Option<std::fs::File>, Option<Error>)> = Mutex::new((file, None));
    let stdout = std::io::stdout();
    octal_census::run(&todo, args.base, args.up_to, &|entry| {
        let line = entry.and_then(|e| {
            let mut v = entry_json(&e, index[e.code.as_str()], args.base, args.up_to);
            if let (Some(dir), Some(per)) = (&args.certificates, &e.period) {
                let game = nimlab_games::octal::Octal::parse(&e.code, args.base)?;
                let cert = crate::certificate::build(&game, per)?;
                let path = dir.join(format!("{}.json", e.code));
                let mut sink = crate::sink::Sink::open(Some(&path))?;
                crate::json::write(&mut sink, &cert, false).map_err(|err| sink.error(err))?;
                sink.finish()?;
                v["certificate"] = path.display().to_string().into();
            }
            let mut text = Vec::new();
            crate::json::write(&mut text, &v, false)
                .map_err(|err| Error::input(err.to_string()))?;
            Ok(text)
        });
        let mut guard = out.lock().expect("no panic while holding the lock");
        let (file, error) = &mut *guard;
        match line {
            Ok(text) => {
                let written = match file {
                    Some(f) => f.write_all(&text).and_then(|_| f.flush()),
                    None => stdout.lock().write_all(&text),
                };
                if let Err(e) = written {
                    error.get_or_insert(Error::input(format!("cannot write the census: {e}")));
                }
            }
            Err(e) => {
                error.get_or_insert(e);
            }
        }
        ctx.progress.advance(1);
    });
    ctx.progress.finish();
    let (_, error) = out.into_inner().expect("no panic while holding the lock");
    match error {
        Some(e) => Err(e),
        None => Ok(Status::Ok),
    }
}

fn entry_json(e: &CensusEntry, index: usize, base: u32, up_to: u64) -> Value {
    let mut v = json!({
        "index": index,
        "code": e.code,
        "game": e.spec,
        "base": base,
        "up_to": crate::json::int(up_to),
        "status": if e.period.is_some() { "solved" } else { "unsolved" },
        "preperiod": e.period.as_ref().map(|p| crate::json::int(p.preperiod)),
        "period": e.period.as_ref().map(|p| crate::json::int(p.period)),
        "sha256": e.period.as_ref().map(|p| crate::certificate::values_hash(&p.values)),
        "computed": crate::json::int(e.computed),
        "mask_cleared": e.mask.map(|m| m.0),
        "mask_domain": e.mask.map(|m| m.1),
        "rare": crate::json::int(e.rare_count),
        "max_value": e.max_value,
    });
    if e.period.is_none() {
        v["sha256"] = Value::Null;
    }
    v
}

/// Opens `path` for appending, cutting a last line left unfinished by an interruption.
pub(crate) fn open_append(path: &Path) -> Result<std::fs::File> {
    let err = |e: std::io::Error| Error::input(format!("cannot write {}: {e}", path.display()));
    // Only a regular file has a last line to mend (reading /dev/zero never ends).
    let regular = std::fs::metadata(path).is_ok_and(|m| m.is_file());
    if let Some(bytes) = regular.then(|| std::fs::read(path).ok()).flatten() {
        let keep = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        if keep < bytes.len() {
            let f = std::fs::OpenOptions::new()
                .write(true)
                .open(path)
                .map_err(err)?;
            f.set_len(keep as u64).map_err(err)?;
        }
    }
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(err)
}

/// Longest census line read (a game's line is a few hundred bytes).
const MAX_LINE: u64 = 1 << 16;

/// The JSON lines of a census file. `lenient` (the output of a census, to resume): a
/// missing file or one that is not a regular file (a device such as /dev/full) is
/// empty, and an unfinished last line (an interrupted run) is ignored.
pub(crate) fn read_lines(path: &Path, lenient: bool) -> Result<Vec<Value>> {
    let name = path.display();
    if lenient && std::fs::metadata(path).is_ok_and(|m| !m.is_file()) {
        return Ok(Vec::new());
    }
    let file = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) if lenient && e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(Error::input(format!("cannot read {name}: {e}"))),
    };
    // Line by line, each at most MAX_LINE bytes: /dev/zero is refused, not read forever.
    let mut reader = std::io::BufReader::new(file);
    let mut bytes = Vec::new();
    loop {
        let mut line = Vec::new();
        let read = (&mut reader)
            .take(MAX_LINE + 1)
            .read_until(b'\n', &mut line)
            .map_err(|e| Error::input(format!("cannot read {name}: {e}")))?;
        if read == 0 {
            break;
        }
        if line.len() as u64 > MAX_LINE {
            return Err(Error::input(format!(
                "{name}:{}: not a census line (longer than {MAX_LINE} bytes)",
                bytes.len() + 1
            )));
        }
        if line.last() == Some(&b'\n') {
            line.pop();
        }
        bytes.push(String::from_utf8_lossy(&line).into_owned());
    }
    let mut out = Vec::new();
    let n = bytes.len();
    for (i, line) in bytes.iter().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<Value>(line) {
            Ok(v) if v.get("code").is_some() => out.push(v),
            _ if lenient && i + 1 == n => {}
            _ => return Err(Error::input(format!("{name}:{}: not a census line", i + 1))),
        }
    }
    Ok(out)
}

/// CSV columns of `census merge --format csv`.
const COLUMNS: [&str; 13] = [
    "index",
    "code",
    "base",
    "up_to",
    "status",
    "preperiod",
    "period",
    "sha256",
    "computed",
    "mask_cleared",
    "mask_domain",
    "rare",
    "max_value",
];

fn merge(ctx: &Context, args: MergeArgs) -> Result<Status> {
    let format = args.out.format(args.format, MergeFormat::Json)?;
    let mut rows: BTreeMap<(u64, u64, String), Value> = BTreeMap::new();
    for path in &args.files {
        for mut line in read_lines(path, false)? {
            if let Some(m) = line.as_object_mut() {
                m.remove("schema");
            }
            let key = (
                line.get("base").and_then(Value::as_u64).unwrap_or(0),
                line.get("index")
                    .and_then(Value::as_u64)
                    .unwrap_or(u64::MAX),
                line.get("code")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_string(),
            );
            let same = |a: &Value, b: &Value| {
                ["status", "preperiod", "period", "sha256", "up_to"]
                    .iter()
                    .all(|k| a.get(k) == b.get(k))
            };
            match rows.get(&key) {
                Some(old) if !same(old, &line) => {
                    return Err(Error::input(format!(
                        "{} disagrees with an earlier file about {}",
                        path.display(),
                        key.2
                    )))
                }
                Some(_) => {}
                None => {
                    rows.insert(key, line);
                }
            }
        }
    }
    let games: Vec<Value> = rows.into_values().collect();
    let solved = games
        .iter()
        .filter(|g| g.get("status").and_then(Value::as_str) == Some("solved"))
        .count();
    args.out.emit(|out| match format {
        MergeFormat::Json => ctx.print_json(
            out,
            &json!({"games": games, "count": games.len(), "solved": solved}),
        ),
        MergeFormat::Csv => {
            writeln!(out, "{}", COLUMNS.join(","))?;
            for g in &games {
                let cells: Vec<String> = COLUMNS
                    .iter()
                    .map(|k| match g.get(*k) {
                        None | Some(Value::Null) => String::new(),
                        Some(Value::String(s)) => s.clone(),
                        Some(v) => v.to_string(),
                    })
                    .collect();
                writeln!(out, "{}", cells.join(","))?;
            }
            Ok(())
        }
    })?;
    Ok(Status::Ok)
}
