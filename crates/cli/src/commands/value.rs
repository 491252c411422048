//! `nimlab value` and `nimlab moves`: one position, its value and its options.

use super::{Context, OutputArgs, PlainFormat};
use crate::Status;
use nimlab_engine::big::abbreviate;
use nimlab_engine::plan::{self, write_position, PositionReport};
use nimlab_engine::Game;
use nimlab_engine::{Error, Outcome, Result};
use std::io::{self, Write};

/// Grundy value, outcome (P/N) and winning moves of one position.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  nimlab value wythoff 3,5\n  nimlab value 'ryuoh(p=3)' 4,7 --format json\n  nimlab value nim 3,5,6"
)]
pub struct ValueArgs {
    /// Game, e.g. wythoff, 'ryuoh(p=4)', 'subtraction(s={1,3,4})'. (With --rules, give only the position.)
    #[arg(value_name = "GAME")]
    game: String,
    #[command(flatten)]
    query: PositionQuery,
}

/// Every option of a position with its Grundy value; winning ones marked.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  nimlab moves wythoff 3,6\n  nimlab moves 'ryuoh(p=3)' 2,2 --format json"
)]
pub struct MovesArgs {
    /// Game, e.g. wythoff, 'ryuoh(p=4)'. (With --rules, give only the position.)
    #[arg(value_name = "GAME")]
    game: String,
    #[command(flatten)]
    query: PositionQuery,
}

/// What `value` and `moves` take after the game: the position, where the game comes
/// from, the output and the search.
#[derive(clap::Args)]
struct PositionQuery {
    /// Position: comma-separated natural numbers, e.g. 3,5 (or as separate arguments,
    /// `3 5`, for numbers too long for one argument).
    #[arg(value_name = "POSITION", num_args = 0..)]
    position: Vec<String>,
    /// Take the game from a rules file (TOML) instead of the catalog.
    #[arg(long, value_name = "FILE")]
    rules: Option<std::path::PathBuf>,
    /// Output format (default: from the --output extension, else text). JSON: positions
    /// and Grundy values are numbers up to 2^53 − 1 and strings of decimal digits
    /// beyond, so every JSON reader gets them exactly.
    #[arg(long, value_enum)]
    format: Option<PlainFormat>,
    #[command(flatten)]
    search: SearchArgs,
    #[command(flatten)]
    out: OutputArgs,
}

impl PositionQuery {
    /// The output format and the answer about the position of `game` (the first
    /// position argument, with --rules), with its options when `with_options`.
    fn ask(
        &self,
        ctx: &Context,
        game: &str,
        with_options: bool,
    ) -> Result<(PlainFormat, Box<dyn Game>, PositionReport)> {
        let format = self.out.format(self.format, PlainFormat::Text)?;
        let (game, report) = ask(
            ctx,
            game,
            &self.position,
            self.rules.as_deref(),
            with_options,
            &self.search,
        )?;
        Ok((format, game, report))
    }
}

/// How to run the pruned search, when asked for (any of these asks for it; without
/// them the planner chooses it for positions too big for the memoized solver).
#[derive(clap::Args)]
pub struct SearchArgs {
    /// Value the position by pruned search (Cram, Node Kayles, Chomp, defined games).
    #[arg(long)]
    search: bool,
    /// Components of at most this many squares/vertices (rank) are valued by plain mex
    /// during the search (default 10; 0: none).
    #[arg(long, value_name = "RANK")]
    end_rank: Option<u32>,
    /// Write the search's transposition table to FILE every minute and at the end.
    #[arg(long, value_name = "FILE")]
    checkpoint: Option<std::path::PathBuf>,
    /// Seconds between checkpoints (default 60).
    #[arg(long, value_name = "SECONDS", requires = "checkpoint")]
    checkpoint_every: Option<u64>,
    /// Start the search from the table a --checkpoint file holds.
    #[arg(long, value_name = "FILE")]
    resume: Option<std::path::PathBuf>,
    /// Split the search at the root: find which nimbers below --below the options
    /// whose index is ≡ i (mod k) have, and write them as a shard document (JSON; run
    /// i = 0…k−1 anywhere, then --merge the k files).
    #[arg(long, value_name = "i/k", value_parser = super::sweep::parse_shard, conflicts_with = "merge")]
    shard: Option<(u64, u64)>,
    /// With --shard: the nimbers asked about, 0 … N−1 (default 4). The merge says so
    /// when the root's nimber is N or more; run the shards again with a higher N.
    #[arg(long, value_name = "N", requires = "shard")]
    below: Option<u32>,
    /// Answer from the k shard documents of a split search (--shard), checked to be
    /// of this game and position and to hold every option once.
    #[arg(long, value_name = "FILE", num_args = 1..)]
    merge: Vec<std::path::PathBuf>,
}

impl SearchArgs {
    /// The search's settings, when any flag asks for the search.
    fn settings(&self) -> Option<plan::SearchSettings> {
        let asked = self.search
            || self.shard.is_some()
            || self.end_rank.is_some()
            || self.checkpoint.is_some()
            || self.resume.is_some();
        asked.then(|| plan::SearchSettings {
            end_rank: self.end_rank,
            checkpoint: self.checkpoint.clone(),
            checkpoint_every: self.checkpoint_every.map(std::time::Duration::from_secs),
            resume: self.resume.clone(),
        })
    }
}

/// Joins the position arguments with commas (`3 5`, `3, 5` and `3,5` are the same):
/// one argument cannot hold two numbers of 10^5 digits (Linux caps an argument at 128 KiB).
fn join_position(parts: &[String]) -> String {
    let mut out = String::new();
    for part in parts {
        if !out.is_empty() && !out.trim_end().ends_with(',') && !part.trim_start().starts_with(',')
        {
            out.push(',');
        }
        out.push_str(part);
    }
    out
}

/// With `--rules FILE` there is no game argument: `first` starts the position.
fn ask(
    ctx: &Context,
    first: &str,
    rest: &[String],
    rules: Option<&std::path::Path>,
    with_options: bool,
    search: &SearchArgs,
) -> Result<(Box<dyn nimlab_engine::Game>, PositionReport)> {
    let (game, parts): (Option<&str>, Vec<String>) = match rules {
        Some(_) => (
            None,
            std::iter::once(first.to_string())
                .chain(rest.iter().cloned())
                .collect(),
        ),
        None if rest.is_empty() => {
            return Err(Error::input("give a game and a position, e.g. wythoff 3,5"))
        }
        None => (Some(first), rest.to_vec()),
    };
    let position = &join_position(&parts);
    let game = nimlab_games::source::load(game, rules)?.game;
    let big = plan::read_position(&*game, position)?;
    let opts = ctx.table_options();
    let report = if !search.merge.is_empty() {
        // The shard files are read whole: together they count against --max-memory.
        let bytes: u64 = search
            .merge
            .iter()
            .map(|f| std::fs::metadata(f).map_or(0, |m| m.len()))
            .sum();
        ctx.memory_limit.check("the shard files to merge", bytes)?;
        let docs = search
            .merge
            .iter()
            .map(|f| read_shard(f))
            .collect::<Result<Vec<_>>>()?;
        if with_options {
            return Err(Error::input(
                "a split search finds the nimber and a winning move, not every option's \
                 value: merge with `nimlab value … --merge FILES`",
            ));
        }
        nimlab_json::search_shard::merge(&*game, &big, &docs)?
    } else if let Some(settings) = search.settings() {
        plan::search_value(&*game, &big, &opts, &settings, with_options)?
    } else if with_options {
        plan::moves(&*game, &big, &opts)?
    } else {
        plan::value(&*game, &big, &opts)?
    };
    Ok((game, report))
}

use nimlab_json::report_json;
use nimlab_json::search_shard::SearchShardDoc;

/// A shard document written by `--shard`, or why it cannot be read.
fn read_shard(file: &std::path::Path) -> Result<SearchShardDoc> {
    use std::io::Read;
    // A shard lists at most one option per nimber asked about: far below this. The
    // bound keeps a wrong file (/dev/zero, a table) from being read into memory.
    const MAX_SHARD_BYTES: u64 = 16 << 20;
    let cannot = |e| Error::io(format!("cannot read {}", file.display()), e);
    let mut text = String::new();
    std::fs::File::open(file)
        .map_err(cannot)?
        .take(MAX_SHARD_BYTES + 1)
        .read_to_string(&mut text)
        .map_err(cannot)?;
    if text.len() as u64 > MAX_SHARD_BYTES {
        return Err(Error::input(format!(
            "{} is more than 16 MiB: not a search shard document",
            file.display()
        )));
    }
    serde_json::from_str(&text).map_err(|e| {
        Error::input(format!(
            "{} is not a search shard document (of `value … --shard i/k --format json`): {e}",
            file.display()
        ))
    })
}

/// `value … --shard i/k`: one shard of the search split at the root.
fn run_shard(ctx: &Context, args: &ValueArgs, shard: (u64, u64)) -> Result<Status> {
    let q = &args.query;
    let format = q.out.format(q.format, PlainFormat::Json)?;
    if q.rules.is_some() {
        return Err(Error::input(
            "a split search takes a game of the catalog, not a rules file",
        ));
    }
    let game = nimlab_games::source::load(Some(&args.game), None)?.game;
    let big = plan::read_position(&*game, &join_position(&q.position))?;
    let settings = q.search.settings().unwrap_or_default();
    let below = q.search.below.unwrap_or(plan::DEFAULT_SHARD_BELOW);
    let s = plan::search_shard(&*game, &big, &ctx.table_options(), &settings, shard, below)?;
    let doc = SearchShardDoc::new(&*game, &big, &s);
    q.out.emit(|out| match format {
        PlainFormat::Json => ctx.print_json(out, &nimlab_json::doc::to_value(&doc)),
        PlainFormat::Text => {
            writeln!(
                out,
                "shard {}/{} of {} at {} ({} options in all): nimbers below {} its options have",
                doc.shard[0], doc.shard[1], doc.game, doc.position, doc.options_total, doc.below
            )?;
            for h in &doc.hits {
                writeln!(
                    out,
                    "  {:>3}  option {:>4}  {}",
                    h.grundy, h.index, h.position
                )?;
            }
            writeln!(
                out,
                "({} nodes; --format json writes the document --merge reads)",
                doc.nodes
            )
        }
    })?;
    Ok(Status::Ok)
}

fn grundy_text(r: &PositionReport) -> String {
    match &r.grundy {
        Some(g) => abbreviate(&g.to_str_radix(10)),
        None => "unknown (no closed form; too big for exact computation)".into(),
    }
}

fn write_value_text(out: &mut dyn Write, game: &dyn Game, r: &PositionReport) -> io::Result<()> {
    let spec = game.spec();
    if let Some(np) = &r.nplayer {
        return crate::nplayer::write_text(out, game, r, np, false);
    }
    writeln!(out, "game:     {spec}")?;
    writeln!(out, "position: {}", write_position(game, &r.position))?;
    writeln!(out, "grundy:   {}", grundy_text(r))?;
    writeln!(
        out,
        "outcome:  {} ({})",
        r.outcome.as_str(),
        if r.outcome == Outcome::P {
            "the player to move loses"
        } else {
            "the player to move wins"
        }
    )?;
    if !r.winning_moves.is_empty() {
        let w: Vec<String> = r
            .winning_moves
            .iter()
            .map(|m| write_position(game, m))
            .collect();
        writeln!(
            out,
            "winning move{}: {}",
            if r.all_winning_moves {
                "s"
            } else {
                " (one of them)"
            },
            w.join("  ")
        )?;
    } else if r.outcome == Outcome::N {
        writeln!(out, "winning moves: not found by this method")?;
    }
    writeln!(out, "method:   {} — {}", r.method.id(), r.method.detail)
}

pub fn run_value(ctx: &Context, args: ValueArgs) -> Result<Status> {
    if let Some(shard) = args.query.search.shard {
        return run_shard(ctx, &args, shard);
    }
    let (format, game, r) = args.query.ask(ctx, &args.game, false)?;
    args.query.out.emit(|out| match format {
        PlainFormat::Json => ctx.print_json(out, &report_json(&*game, &r)),
        PlainFormat::Text => write_value_text(out, &*game, &r),
    })?;
    Ok(Status::Ok)
}

pub fn run_moves(ctx: &Context, args: MovesArgs) -> Result<Status> {
    if args.query.search.shard.is_some() {
        return Err(Error::input(
            "a shard of a split search is written by `nimlab value … --shard i/k`; \
             `moves … --merge FILES` lists the options from the k shards",
        ));
    }
    let (format, game, r) = args.query.ask(ctx, &args.game, true)?;
    args.query.out.emit(|out| match format {
        PlainFormat::Json => ctx.print_json(out, &report_json(&*game, &r)),
        PlainFormat::Text => match (&r.options, &r.nplayer) {
            (_, Some(np)) => crate::nplayer::write_text(out, &*game, &r, np, true),
            (Some(options), None) => {
                writeln!(
                    out,
                    "{} at {} (grundy {}, {}): {} option{}",
                    game.spec(),
                    write_position(&*game, &r.position),
                    grundy_text(&r),
                    r.outcome.as_str(),
                    options.len(),
                    if options.len() == 1 { "" } else { "s" }
                )?;
                let width = options
                    .iter()
                    .map(|o| write_position(&*game, &o.position).len())
                    .max()
                    .unwrap_or(0);
                for o in options {
                    writeln!(
                        out,
                        "  {:width$}  grundy {}{}",
                        write_position(&*game, &o.position),
                        o.grundy
                            .as_ref()
                            .map_or("?".to_string(), |g| abbreviate(&g.to_str_radix(10))),
                        if o.winning { "  ← winning" } else { "" }
                    )?;
                }
                writeln!(out, "method: {} — {}", r.method.id(), r.method.detail)
            }
            (None, None) => {
                write_value_text(out, &*game, &r)?;
                if let Some(note) = &r.options_note {
                    writeln!(out, "options:  {note}")?;
                }
                Ok(())
            }
        },
    })?;
    Ok(Status::Ok)
}
