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
    Misere(super::misere_census::MisereCensusArgs),
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
    /// Output format: json (one JSON line per game, the default; what `census merge`
    /// and resuming read) or text (one line per game in words, standard output only).
    #[arg(long, value_enum, default_value = "json")]
    format: CensusFormat,
}

/// Output formats of `census octal`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum CensusFormat {
    /// One JSON object per line.
    Json,
    /// One line per game in words.
    Text,
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
        CensusCommand::Misere(a) => super::misere_census::run(ctx, a),
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
    // Before any digit is read in that base (from_str_radix panics outside 2..=36).
    if args.base != 8 && args.base != 16 {
        return Err(Error::input(format!(
            "--base must be 8 or 16, got {}",
            args.base
        )));
    }
    if args.format == CensusFormat::Text && args.output.is_some() {
        return Err(Error::input(
            "a census file holds JSON lines (to resume and merge): --format text writes to \
             standard output only",
        ));
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
                let cert = nimlab_json::certificate::build(&game, per)?;
                let path = dir.join(format!("{}.json", e.code));
                let mut sink = crate::sink::Sink::open(Some(&path))?;
                crate::json::write(&mut sink, &cert, false).map_err(|err| sink.error(err))?;
                sink.finish()?;
                v["certificate"] = path.display().to_string().into();
            }
            let mut text = Vec::new();
            match args.format {
                CensusFormat::Json => crate::json::write(&mut text, &v, false),
                CensusFormat::Text => writeln!(text, "{}", entry_text(&e)),
            }
            .map_err(|err| Error::input(err.to_string()))?;
            Ok(text)
        });
        let mut guard = out.lock().expect("no panic while holding the lock");
        let (file, error) = &mut *guard;
        match line {
            Ok(text) => {
                let written = match file {
                    Some(f) => f.write_all(&text).and_then(|_| f.flush()),
                    None if crate::sink::stdout_closed() => Err(crate::sink::closed_stdout_error()),
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

/// One census line in words.
fn entry_text(e: &CensusEntry) -> String {
    match &e.period {
        Some(p) => format!(
            "{}: solved, preperiod {}, period {} (computed {} terms)",
            e.code, p.preperiod, p.period, e.computed
        ),
        None => format!(
            "{}: unsolved below {} terms ({} rare, largest value {})",
            e.code, e.computed, e.rare_count, e.max_value
        ),
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
        "sha256": e.period.as_ref().map(|p| nimlab_json::certificate::values_hash(&p.values)),
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
    let mut out = Vec::new();
    for_each_line(path, lenient, &mut |_, v| {
        out.push(v);
        Ok(())
    })?;
    Ok(out)
}

/// As [`read_lines`], one line at a time (with its 1-based number): a file of any
/// length is read in constant memory.
fn for_each_line(
    path: &Path,
    lenient: bool,
    visit: &mut dyn FnMut(usize, Value) -> Result<()>,
) -> Result<()> {
    let name = path.display();
    if lenient && std::fs::metadata(path).is_ok_and(|m| !m.is_file()) {
        return Ok(());
    }
    let file = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) if lenient && e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(Error::input(format!("cannot read {name}: {e}"))),
    };
    // Line by line, each at most MAX_LINE bytes: /dev/zero is refused, not read forever.
    let mut reader = std::io::BufReader::new(file);
    let mut number = 0usize;
    // A line that is not JSON: an error unless it is the last (lenient).
    let mut pending: Option<usize> = None;
    let mut line = Vec::new();
    loop {
        line.clear();
        let read = (&mut reader)
            .take(MAX_LINE + 1)
            .read_until(b'\n', &mut line)
            .map_err(|e| Error::input(format!("cannot read {name}: {e}")))?;
        if read == 0 {
            break;
        }
        number += 1;
        if line.len() as u64 > MAX_LINE {
            return Err(Error::input(format!(
                "{name}:{number}: not a census line (longer than {MAX_LINE} bytes)"
            )));
        }
        let text = String::from_utf8_lossy(&line);
        if text.trim().is_empty() {
            continue;
        }
        if let Some(at) = pending {
            return Err(Error::input(format!("{name}:{at}: not a census line")));
        }
        match serde_json::from_str::<Value>(text.trim_end_matches('\n')) {
            Ok(v) if v.get("code").is_some() => visit(number, v)?,
            _ if lenient => pending = Some(number),
            _ => return Err(Error::input(format!("{name}:{number}: not a census line"))),
        }
    }
    Ok(())
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

/// Bytes a kept census row costs beyond its compact JSON text (key, map node).
const ROW_OVERHEAD: u64 = 160;

/// One census line, checked: its sort key, its compact JSON (without `schema`), what
/// two files must agree on, and whether it is solved.
struct Row {
    key: (u64, u64, String),
    text: String,
    claim: String,
    solved: bool,
}

/// Checks a census line: every field a census writes, with its type and range, and a
/// `code` that is a code of `base` naming the `game` the line says.
fn census_row(line: &Value, at: &str) -> Result<Row> {
    let bad = |what: String| Error::input(format!("{at}: {what}"));
    let natural = |k: &str| -> Result<Option<u64>> {
        match line.get(k) {
            None | Some(Value::Null) => Ok(None),
            Some(v) => v.as_u64().map(Some).ok_or_else(|| {
                bad(format!(
                    "\"{k}\" must be a natural number below 2^64, got {v}"
                ))
            }),
        }
    };
    let base = natural("base")?.ok_or_else(|| bad("no \"base\"".into()))?;
    if base != 8 && base != 16 {
        return Err(bad(format!("\"base\" must be 8 or 16, got {base}")));
    }
    let index = natural("index")?.ok_or_else(|| bad("no \"index\"".into()))?;
    let code = line
        .get("code")
        .and_then(Value::as_str)
        .ok_or_else(|| bad("\"code\" must be text such as \"0.137\"".into()))?;
    let game = nimlab_games::octal::Octal::parse(code, base as u32)
        .map_err(|e| bad(format!("\"code\": {e}")))?;
    let named = line.get("game").and_then(Value::as_str);
    if named != Some(game.spec_text()) {
        return Err(bad(format!(
            "\"game\" must be {} for the code {code}, got {}",
            game.spec_text(),
            line.get("game").unwrap_or(&Value::Null)
        )));
    }
    let up_to = natural("up_to")?.filter(|&u| u >= 1);
    if up_to.is_none() {
        return Err(bad("\"up_to\" must be a natural number ≥ 1".into()));
    }
    let (preperiod, period) = (natural("preperiod")?, natural("period")?);
    let solved = match line.get("status").and_then(Value::as_str) {
        Some("solved") => true,
        Some("unsolved") => false,
        _ => return Err(bad("\"status\" must be \"solved\" or \"unsolved\"".into())),
    };
    if solved && (period.is_none_or(|p| p == 0) || preperiod.is_none()) {
        return Err(bad(
            "a solved game has a \"period\" ≥ 1 and a \"preperiod\"".into(),
        ));
    }
    if !solved && (period.is_some() || preperiod.is_some()) {
        return Err(bad("an unsolved game has no period".into()));
    }
    let mut v = line.clone();
    if let Some(m) = v.as_object_mut() {
        m.remove("schema");
    }
    let claim = ["status", "preperiod", "period", "sha256", "up_to"]
        .iter()
        .map(|k| line.get(*k).map(|v| v.to_string()).unwrap_or_default())
        .collect::<Vec<_>>()
        .join("\u{1}");
    Ok(Row {
        key: (base, index, code.to_string()),
        text: serde_json::to_string(&v).map_err(|e| Error::input(e.to_string()))?,
        claim,
        solved,
    })
}

fn merge(ctx: &Context, args: MergeArgs) -> Result<Status> {
    let format = args.out.format(args.format, MergeFormat::Json)?;
    // The rows are kept (compact) until all files are read: bounded by the memory
    // limit, estimated from the files' sizes first and counted as they are read.
    let budget = ctx.memory_limit.bytes() / 2;
    let sizes: u64 = args
        .files
        .iter()
        .filter_map(|p| std::fs::metadata(p).ok().filter(|m| m.is_file()))
        .map(|m| m.len())
        .sum();
    ctx.memory_limit.check(
        &format!(
            "merging {} of census lines",
            nimlab_engine::error::human_bytes(sizes)
        ),
        sizes.saturating_mul(2),
    )?;
    let mut rows: BTreeMap<(u64, u64, String), (String, String, bool)> = BTreeMap::new();
    let mut used = 0u64;
    for path in &args.files {
        let name = path.display().to_string();
        for_each_line(path, false, &mut |n, line| {
            let row = census_row(&line, &format!("{name}:{n}"))?;
            match rows.get(&row.key) {
                Some((_, claim, _)) if *claim != row.claim => {
                    return Err(Error::input(format!(
                        "{name} disagrees with an earlier file about {}",
                        row.key.2
                    )))
                }
                Some(_) => {}
                None => {
                    used +=
                        (row.text.len() + row.claim.len() + row.key.2.len()) as u64 + ROW_OVERHEAD;
                    if used > budget {
                        return Err(Error::TooLarge {
                            what: format!("merging the census lines of {name}"),
                            needed: used,
                            limit: ctx.memory_limit.bytes(),
                        });
                    }
                    rows.insert(row.key, (row.text, row.claim, row.solved));
                }
            }
            Ok(())
        })?;
    }
    let count = rows.len();
    let solved = rows.values().filter(|r| r.2).count();
    args.out.emit(|out| match format {
        // Streamed row by row, in the layout of the whole document (keys sorted).
        MergeFormat::Json if ctx.pretty => {
            writeln!(out, "{}", nimlab_json::schema_open(true) + ",")?;
            writeln!(out, "  \"count\": {count},")?;
            write!(out, "  \"games\": [")?;
            for (i, (text, _, _)) in rows.values().enumerate() {
                let v: Value = serde_json::from_str(text).map_err(std::io::Error::other)?;
                let pretty = serde_json::to_string_pretty(&v).map_err(std::io::Error::other)?;
                write!(
                    out,
                    "{}\n    {}",
                    if i == 0 { "" } else { "," },
                    pretty.replace('\n', "\n    ")
                )?;
            }
            writeln!(out, "{}],", if count == 0 { "" } else { "\n  " })?;
            writeln!(out, "  \"solved\": {solved}\n}}")
        }
        MergeFormat::Json => {
            write!(
                out,
                "{},\"count\":{count},\"games\":[",
                nimlab_json::schema_open(false)
            )?;
            for (i, (text, _, _)) in rows.values().enumerate() {
                if i > 0 {
                    out.write_all(b",")?;
                }
                out.write_all(text.as_bytes())?;
            }
            writeln!(out, "],\"solved\":{solved}}}")
        }
        MergeFormat::Csv => {
            writeln!(out, "{}", COLUMNS.join(","))?;
            for (text, _, _) in rows.values() {
                let g: Value = serde_json::from_str(text).map_err(std::io::Error::other)?;
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
