//! `nimlab census octal`: every octal code of a shape, solved or not; `nimlab census
//! merge`: shards into one table.

use super::{Context, OutputArgs};
use crate::Status;
use nimlab_engine::{Error, Result};
use nimlab_json::census::{census_text, CensusMerge, CensusShape, OctalCensus};
pub(crate) use nimlab_json::census::{open_append, read_lines};
use std::io::Write;
use std::path::PathBuf;
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
    #[command(flatten)]
    codes: CodeArgs,
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
    /// Write each solved game's certificate to DIR/CODE.json.
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

/// Which codes a census covers, as `census octal` and `census misere` take them: the
/// number of digits after the point and the base.
#[derive(clap::Args)]
pub(super) struct CodeArgs {
    /// Digits after the point (0.d1…dD).
    #[arg(long, value_name = "D")]
    pub(super) digits: usize,
    /// 8 (octal) or 16 (hexadecimal).
    #[arg(long, default_value_t = 8)]
    pub(super) base: u32,
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

fn octal(ctx: &Context, args: OctalArgs) -> Result<Status> {
    if args.format == CensusFormat::Text && args.output.is_some() {
        return Err(Error::input(
            "a census file holds JSON lines (to resume and merge): --format text writes to \
             standard output only",
        ));
    }
    let wholes = CensusShape::parse_wholes(&args.whole, args.codes.base)?;
    let shape = CensusShape::new(args.codes.digits, args.codes.base, &wholes, args.shard)?;
    let census = OctalCensus::new(shape, args.up_to)?;
    // Games already in the output file (an interrupted run) are skipped.
    let todo = match &args.output {
        Some(path) => census.todo(&read_lines(path, true)?, &path.display().to_string())?,
        None => census.todo(&[], "")?,
    };
    // Before anything is written. Only the codes still to do count: a resumed census
    // is estimated afresh.
    let opts = ctx.table_options();
    census.check_work(&todo, &opts)?;
    let file = match &args.output {
        Some(path) => Some(open_append(path)?),
        None => None,
    };
    if let Some(dir) = &args.certificates {
        std::fs::create_dir_all(dir)
            .map_err(|e| Error::io(format!("cannot create {}", dir.display()), e))?;
    }
    let out: Mutex<(Option<std::fs::File>, Option<Error>)> = Mutex::new((file, None));
    let stdout = std::io::stdout();
    census.run(&todo, args.certificates.is_some(), &opts, &|result| {
        let line = result.and_then(|r| {
            let mut v = r.line;
            if let (Some(dir), Some(cert)) = (&args.certificates, &r.certificate) {
                let path = dir.join(format!("{}.json", r.entry.code));
                let mut sink = crate::sink::Sink::open(Some(&path))?;
                crate::json::write(&mut sink, cert, false).map_err(|err| sink.error(err))?;
                sink.finish()?;
                v["certificate"] = path.display().to_string().into();
            }
            let mut text = Vec::new();
            match args.format {
                CensusFormat::Json => crate::json::write(&mut text, &v, false),
                CensusFormat::Text => writeln!(text, "{}", census_text(&r.entry)),
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
                    error.get_or_insert(Error::io("cannot write the census", e));
                }
            }
            Err(e) => {
                error.get_or_insert(e);
            }
        }
    });
    let (_, error) = out.into_inner().expect("no panic while holding the lock");
    match error {
        Some(e) => Err(e),
        None => Ok(Status::Ok),
    }
}

fn merge(ctx: &Context, args: MergeArgs) -> Result<Status> {
    let format = args.out.format(args.format, MergeFormat::Json)?;
    // The rows are kept (compact) until all files are read: bounded by the memory
    // limit, estimated from the files' sizes first and counted as they are read.
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
    let mut merged = CensusMerge::new(ctx.memory_limit);
    for path in &args.files {
        merged.add_file(path)?;
    }
    args.out.emit(|out| match format {
        MergeFormat::Json => merged.write_json(out, ctx.pretty),
        MergeFormat::Csv => merged.write_csv(out),
    })?;
    Ok(Status::Ok)
}
