//! `nimlab periodicity`: preperiod and period of a one-heap Grundy sequence (proven when
//! the game can prove it), or of the rows of a two-coordinate table (observed).

use super::{Context, OutputArgs, PlainFormat};
use crate::Status;
use nimlab_engine::plan;
use nimlab_engine::Progress;
use nimlab_engine::{Error, Game, Result};
use nimlab_json::doc;

/// Preperiod, period and periodic block of a game's Grundy sequence.
///
/// One-heap games that can prove their period (subtraction games: a repeated window of
/// max(S) values; octal games: Guy–Smith) report it as proven. Other one-heap games
/// report the period observed on n < --up-to. For two-coordinate games, --row Y (or a
/// range 0-31) computes the table over [0,X) × rows and reports, for each row, the
/// arithmetic period G(x + p, y) = G(x, y) + saltus observed on x < X (not a proof).
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  nimlab periodicity 'subtraction(s={1,3,4})'\n  nimlab periodicity 'subtraction(s={9,20,29})' --format json\n  nimlab periodicity wythoff --row 0-10 --up-to 3000\n  nimlab periodicity --rules take124.toml"
)]
pub struct PeriodicityArgs {
    /// Game, e.g. 'subtraction(s={1,3,4})', wythoff (omit it with --rules).
    #[arg(required_unless_present = "rules", conflicts_with = "rules")]
    game: Option<String>,
    /// Take the game from a rules file (TOML) instead of the catalog.
    #[arg(long, value_name = "FILE")]
    rules: Option<std::path::PathBuf>,
    /// Row(s) of a two-coordinate game: Y or a range A-B (inclusive).
    #[arg(long, value_name = "Y|A-B", value_parser = parse_rows)]
    row: Option<(u64, u64)>,
    /// Search bound: heaps (or x) below this are computed. Default: 2^19 = 524288 for proven
    /// periods, 2000 for observed ones.
    #[arg(long, value_name = "X")]
    up_to: Option<u64>,
    /// Output format (default: from the --output extension, else text).
    #[arg(long, value_enum)]
    format: Option<PlainFormat>,
    /// Also write a checkable certificate of the proven period to FILE (octal and
    /// hexadecimal games; re-check it with `nimlab certify FILE`; layout in
    /// docs/certificates.md).
    #[arg(long, value_name = "FILE")]
    certificate: Option<std::path::PathBuf>,
    #[command(flatten)]
    out: OutputArgs,
}

/// Parses `5` or `0-31` into an inclusive range of rows.
fn parse_rows(text: &str) -> std::result::Result<(u64, u64), Error> {
    let bad = || {
        Error::input(format!(
            "--row must be a row number or a range like 0-31, got '{text}'"
        ))
    };
    let t = text.trim();
    let (a, b) = match t.split_once('-') {
        Some((a, b)) => (a.trim(), b.trim()),
        None => (t, t),
    };
    let a: u64 = a.parse().map_err(|_| bad())?;
    let b: u64 = b.parse().map_err(|_| bad())?;
    if a > b {
        return Err(Error::input(format!(
            "--row range {a}-{b} is empty (write the smaller row first)"
        )));
    }
    Ok((a, b))
}

pub fn run(ctx: &Context, args: PeriodicityArgs) -> Result<Status> {
    let format = args.out.format(args.format, PlainFormat::Text)?;
    let game = nimlab_games::source::load(args.game.as_deref(), args.rules.as_deref())?.game;
    if args.up_to == Some(0) {
        return Err(Error::input("--up-to must be at least 1"));
    }
    match (game.dimension(), &args.row) {
        (1, Some(_)) => Err(Error::input(format!(
            "{} has one coordinate; --row is for two-coordinate games",
            game.spec()
        ))),
        (1, None) => one_heap(ctx, &*game, &args, format),
        (2, Some(rows)) => table_rows(ctx, &*game, *rows, &args, format),
        (2, None) => Err(Error::input(format!(
            "{} has two coordinates: give --row Y (or a range like 0-31) to study rows",
            game.spec()
        ))),
        (d, _) => Err(Error::input(format!(
            "periodicity handles games of one or two coordinates; {} has {d}",
            game.spec()
        ))),
    }
}

/// Values shown of a long preperiod or block in the text format (JSON and certificates
/// hold them all).
pub const TEXT_VALUES: usize = 200;

/// Writes the values separated by spaces, at most the first [`TEXT_VALUES`] of a longer
/// list then how many there are (a preperiod may hold 10^7 values: for a terminal,
/// never all of them).
fn write_values(out: &mut dyn std::io::Write, v: &[u32]) -> std::io::Result<()> {
    for (i, x) in v.iter().take(TEXT_VALUES).enumerate() {
        if i > 0 {
            out.write_all(b" ")?;
        }
        write!(out, "{x}")?;
    }
    if v.len() > TEXT_VALUES {
        write!(
            out,
            " … ({} values; --format json or --certificate FILE for all)",
            v.len()
        )?;
    }
    Ok(())
}

fn one_heap(
    ctx: &Context,
    game: &dyn Game,
    args: &PeriodicityArgs,
    format: PlainFormat,
) -> Result<Status> {
    let spec = game.spec();
    if let Some(path) = &args.certificate {
        nimlab_json::certificate::digits_of(game)?;
        crate::sink::Sink::precheck(path)?;
    }
    ctx.progress.busy("searching for the period");
    let result = plan::periodicity(game, args.up_to, &ctx.table_options());
    ctx.progress.finish();
    let (found, method, searched) = result?;
    if let (Some(path), None) = (&args.certificate, &found) {
        return Err(Error::input(format!(
            "{spec}: no period proven below n = {searched}, so no certificate for {} \
             (raise --up-to)",
            path.display()
        )));
    }
    let Some(p) = found else {
        args.out.emit(|out| match format {
            PlainFormat::Json => ctx.print_json(
                out,
                &doc::to_value(&doc::PeriodicityDoc::new(game, None, method.id(), searched)),
            ),
            PlainFormat::Text => writeln!(
                out,
                "{spec}: no period found up to n = {searched} ({}; raise --up-to to search further)",
                if method.id() == "certified-period" {
                    "no period proven"
                } else {
                    "none seen"
                }
            ),
        })?;
        return Ok(Status::Ok);
    };
    if let Some(path) = &args.certificate {
        let cert = nimlab_json::certificate::build(game, &p)?;
        let mut sink = crate::sink::Sink::open(Some(path))?;
        ctx.print_json(&mut sink, &cert)
            .map_err(|e| sink.error(e))?;
        sink.finish()?;
    }
    args.out.emit(|out| match format {
        PlainFormat::Json => ctx.print_json(
            out,
            &doc::to_value(&doc::PeriodicityDoc::new(
                game,
                Some(&p),
                method.id(),
                searched,
            )),
        ),
        PlainFormat::Text => {
            writeln!(out, "game:       {spec}")?;
            writeln!(out, "preperiod:  {}", p.preperiod)?;
            writeln!(out, "period:     {}", p.period)?;
            if p.saltus != 0 {
                writeln!(out, "saltus:     {}", p.saltus)?;
            }
            if p.preperiod > 0 {
                write!(out, "preperiod values: ")?;
                write_values(out, &p.values[..p.preperiod as usize])?;
                writeln!(out)?;
            }
            write!(out, "block:      ")?;
            write_values(out, p.block())?;
            writeln!(out)?;
            match &p.proof {
                Some(why) => writeln!(out, "proven:     yes — {why}"),
                None => writeln!(
                    out,
                    "proven:     no — observed on n < {} only",
                    p.checked_up_to
                ),
            }
        }
    })?;
    Ok(Status::Ok)
}

fn table_rows(
    ctx: &Context,
    game: &dyn Game,
    (first, last): (u64, u64),
    args: &PeriodicityArgs,
    format: PlainFormat,
) -> Result<Status> {
    let spec = game.spec();
    let x = args.up_to.unwrap_or(plan::DEFAULT_OBSERVED_WINDOW);
    let rows = plan::row_periodicity(game, (first, last), x, &ctx.table_options())?;
    args.out.emit(|out| match format {
        PlainFormat::Json => {
            ctx.print_json(out, &doc::to_value(&doc::RowsDoc::new(game, x, &rows)))
        }
        PlainFormat::Text => {
            writeln!(
                out,
                "{spec}: rows G(x + period, y) = G(x, y) + saltus, observed on x < {x} (not a proof)"
            )?;
            writeln!(
                out,
                "{:>5} {:>10} {:>8} {:>8}",
                "row", "preperiod", "period", "saltus"
            )?;
            for (y, p) in &rows {
                match p {
                    Some(p) => writeln!(
                        out,
                        "{y:>5} {:>10} {:>8} {:>8}",
                        p.preperiod, p.period, p.saltus
                    )?,
                    None => writeln!(out, "{y:>5} {:>10} {:>8} {:>8}", "-", "none seen", "-")?,
                }
            }
            Ok(())
        }
    })?;
    Ok(Status::Ok)
}
