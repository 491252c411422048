//! `nimlab check`: compare a conjectured formula with the Grundy table, cell by cell.

use super::{Context, OutputArgs};
use crate::Status;
use nimlab_engine::game::format_position;
use nimlab_engine::theorem::describe_window;
use nimlab_engine::{Error, GrundyTable, Result, INVALID};
use nimlab_formula::check::{CheckRequest, Claim, Report};
use nimlab_games::source as game_source;
use std::io::{self, Write};
use std::path::PathBuf;
use std::time::Instant;

/// The game and the claim about it, as `check` and `prove` both take them.
#[derive(clap::Args)]
pub struct ClaimArgs {
    /// Game, e.g. 'ryuoh(p=4)' (omit it with --rules).
    #[arg(required_unless_present = "rules", conflicts_with = "rules")]
    pub(crate) game: Option<String>,
    /// Take the game from a rules file (TOML) instead of the catalog.
    #[arg(long, value_name = "FILE")]
    pub(crate) rules: Option<PathBuf>,
    /// The claimed Grundy value, e.g. '(x+y)%3 + 3*((x/3) xor (y/3))'. Default: the
    /// rules file's closed form.
    #[arg(
        long,
        value_name = "EXPR",
        conflicts_with = "p_positions",
        allow_hyphen_values = true
    )]
    pub(crate) formula: Option<String>,
    /// Instead of a value: a predicate claimed to hold exactly at the P-positions,
    /// e.g. 'x xor y == 0'.
    #[arg(long = "p-positions", value_name = "PRED", allow_hyphen_values = true)]
    pub(crate) p_positions: Option<String>,
}

/// Compare a formula with the Grundy values (or a predicate with the P-positions) on
/// every position of a box; list the mismatches. Exit 0: none; 1: some; 2: bad input.
#[derive(clap::Args)]
#[command(
    after_help = "Formulas use the game's coordinate names (x, y; n for one heap; x0, x1, … always).\n\
xor is the nim sum, ^ is power, / floors, % is non-negative; see `nimlab check --help`.\n\n\
Examples:\n  nimlab check 'ryuoh(p=5)' --formula '(x+y)%5 + 5*((x/5) xor (y/5))' --size 500\n  \
nimlab check wythoff --formula 'x xor y' --size 20\n  \
nimlab check nim --p-positions 'x xor y == 0' --size 64\n  \
nimlab check --rules examples/ryuoh.toml --size 100          # the file's closed form\n  \
nimlab check wythoff --formula 'x xor y' --size 100 --format png --output wythoff.png"
)]
pub struct CheckArgs {
    #[command(flatten)]
    claim: ClaimArgs,
    /// Side of the box: every coordinate runs over 0..N-1.
    #[arg(long, short = 'n', value_name = "N")]
    size: usize,
    /// Output: text, json (all mismatches up to --count), png (the box with
    /// mismatching cells in red; needs --output). Default: from the --output
    /// extension, else text.
    #[arg(long, value_enum)]
    format: Option<CheckFormat>,
    #[command(flatten)]
    out: OutputArgs,
    /// Most mismatches listed in JSON (text lists 20; `--limit` is the old spelling).
    #[arg(
        long = "count",
        value_name = "N",
        default_value_t = 1000,
        alias = "limit"
    )]
    limit: usize,
}

/// Output formats of `check`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum CheckFormat {
    /// Summary and the first 20 mismatches.
    Text,
    /// `{"schema": 1, "game", "formula", "checked", "mismatches": [...]}`.
    Json,
    /// A picture of the box, mismatches in red.
    Png,
}

/// Mismatches shown by the text format.
const TEXT_LIMIT: usize = 20;

pub fn run(ctx: &Context, args: CheckArgs) -> Result<Status> {
    let format = args.out.format(args.format, CheckFormat::Text)?;
    let source = game_source::load(args.claim.game.as_deref(), args.claim.rules.as_deref())?;
    let game = &*source.game;
    if format == CheckFormat::Png && args.out.output.is_none() {
        return Err(Error::input(
            "--format png needs --output FILE (or -o - for standard output)",
        ));
    }
    let request = CheckRequest {
        formula: args.claim.formula.clone(),
        p_positions: args.claim.p_positions.clone(),
        size: args.size,
        limit: match format {
            CheckFormat::Json => args.limit,
            _ => TEXT_LIMIT,
        },
        want_mask: format == CheckFormat::Png,
    };
    let declared = nimlab_json::declared(&source);
    // Refuse a missing or doubled claim before any work, in the command line's words.
    if let Err(e) = request.claim(game, &declared) {
        return Err(match (&args.claim.formula, &args.claim.p_positions) {
            (None, None) => Error::input(format!(
                "give --formula EXPR or --p-positions PRED ({} declares no closed form)",
                game.spec()
            )),
            _ => e,
        });
    }
    let started = Instant::now();
    let checked = request.run(game, &declared, &ctx.table_options())?;
    let total_time = started.elapsed();
    let json = nimlab_json::check_json(game, &checked);
    let (claim, text) = (checked.claim, checked.text);
    let (dims, table, report, table_time) = (
        checked.dims,
        checked.table,
        checked.report,
        checked.table_time,
    );
    match format {
        CheckFormat::Json => {
            args.out.emit(|out| ctx.print_json(out, &json))?;
        }
        CheckFormat::Text => args.out.emit(|out| {
            writeln!(out, "game:     {}", game.spec())?;
            let label = match (claim, game.capabilities().nplayer.is_some()) {
                (Claim::Grundy, _) => "formula:",
                (Claim::PPositions, false) => "P iff:",
                (Claim::PPositions, true) => "class 0 iff:",
            };
            writeln!(out, "{label:<9} {text}")?;
            writeln!(
                out,
                "checked:  {} positions in {} ({:.3} s: table {:.3} s, formula {:.3} s)",
                report.checked,
                describe_window(&dims),
                total_time.as_secs_f64(),
                table_time.as_secs_f64(),
                (total_time - table_time).as_secs_f64()
            )?;
            write_text_verdict(out, &report, claim, game.capabilities().nplayer.is_some())
        })?,
        CheckFormat::Png => {
            let pixels = draw(&table, report.mask.as_deref().unwrap_or(&[]))?;
            let mut sink = args.out.open()?;
            write_png(&mut sink, &pixels).map_err(|e| sink.error(e))?;
            let to_stdout = sink.is_stdout();
            sink.finish()?;
            // The command's output is the picture, and a file written with -o is not
            // announced (the exit code says whether a cell mismatches). With the
            // picture on standard output, the count is a note on stderr.
            if to_stdout {
                let _ = writeln!(
                    std::io::stderr(),
                    "{}: {} of {} positions mismatch",
                    game.spec(),
                    report.mismatch_count,
                    report.checked,
                );
            }
        }
    }
    Ok(if report.mismatch_count == 0 {
        Status::Ok
    } else {
        Status::Failed
    })
}

/// `classes`: the table holds the class indices of an n-player game, not Grundy values.
fn write_text_verdict(
    out: &mut dyn Write,
    report: &Report,
    claim: Claim,
    classes: bool,
) -> io::Result<()> {
    let (value, zero) = if classes {
        ("class", "the positions of class 0")
    } else {
        ("grundy", "the P-positions")
    };
    if report.mismatch_count == 0 {
        return writeln!(
            out,
            "result:   no mismatch: {}",
            match (claim, classes) {
                (Claim::Grundy, false) => {
                    "the formula equals the Grundy value at every position".to_string()
                }
                (Claim::Grundy, true) => {
                    "the formula equals the class index at every position".to_string()
                }
                (Claim::PPositions, _) => format!("the predicate holds exactly at {zero}"),
            }
        );
    }
    writeln!(
        out,
        "result:   {} mismatch{}{}",
        report.mismatch_count,
        if report.mismatch_count == 1 { "" } else { "es" },
        if report.mismatch_count as usize > report.mismatches.len() {
            format!(" (first {})", report.mismatches.len())
        } else {
            String::new()
        }
    )?;
    // A P-position claim differs in the outcome: say which outcome each side gives.
    let rows: Vec<[String; 3]> = report
        .mismatches
        .iter()
        .map(|m| match claim {
            Claim::Grundy => [
                format_position(&m.position),
                m.grundy.to_string(),
                m.formula.to_string(),
            ],
            Claim::PPositions => [
                format_position(&m.position),
                match (m.grundy, classes) {
                    (0, false) => "P (grundy 0)".to_string(),
                    (g, false) => format!("N (grundy {g})"),
                    (c, true) => format!("class {c}"),
                },
                match (m.formula != 0, classes) {
                    (true, false) => "true: says P".to_string(),
                    (false, false) => "false: says N".to_string(),
                    (true, true) => "true: says class 0".to_string(),
                    (false, true) => "false: says not class 0".to_string(),
                },
            ],
        })
        .collect();
    let header = match claim {
        Claim::Grundy => ["position", value, "formula"],
        Claim::PPositions => [
            "position",
            if classes { value } else { "outcome" },
            "predicate",
        ],
    };
    let widths = super::column_widths(&header, &rows);
    let header_row: [String; 3] = header.map(str::to_string);
    for r in std::iter::once(&header_row).chain(&rows) {
        writeln!(
            out,
            "  {:<w0$}  {:>w1$}  {:>w2$}",
            r[0],
            r[1],
            r[2],
            w0 = widths[0],
            w1 = widths[1],
            w2 = widths[2]
        )?;
    }
    Ok(())
}

/// An RGB picture: width, height, 3 bytes per pixel.
struct Picture {
    w: usize,
    h: usize,
    pixels: Vec<u8>,
}

/// Draws the box: rows y (top = 0), columns x; one grid per value of the further
/// coordinates, stacked downwards. P-positions black, other values in shades of grey,
/// cells that are not positions white, mismatches red.
fn draw(table: &GrundyTable, mask: &[bool]) -> Result<Picture> {
    let dims = table.dims();
    let nx = dims[0];
    let ny = dims.get(1).copied().unwrap_or(1);
    let planes = table.values().len() / (nx * ny).max(1);
    let gap = usize::from(planes > 1);
    let rows_total = planes * ny + (planes.saturating_sub(1)) * gap;
    // Scale small boxes up so cells are visible; never beyond 2000 px.
    let scale = (512 / nx.max(rows_total)).clamp(1, 16);
    let (w, h) = (nx * scale, rows_total * scale);
    if w as u64 * h as u64 > 100_000_000 {
        return Err(Error::input(format!(
            "a picture of {nx}x{rows_total} cells is too large (at most 10^8 pixels)"
        )));
    }
    let max = table.max_value().max(1) as f64;
    let mut pixels = vec![255u8; w * h * 3];
    for plane in 0..planes {
        for y in 0..ny {
            for x in 0..nx {
                let i = plane * nx * ny + y * nx + x;
                let v = table.values()[i];
                let rgb = if mask.get(i).copied().unwrap_or(false) {
                    [220, 30, 30]
                } else if v == INVALID {
                    [255, 255, 255]
                } else if v == 0 {
                    [0, 0, 0]
                } else {
                    let shade = (90.0 + 150.0 * (v as f64 / max)) as u8;
                    [shade, shade, shade]
                };
                let top = (plane * (ny + gap) + y) * scale;
                for py in top..top + scale {
                    for px in x * scale..(x + 1) * scale {
                        let o = (py * w + px) * 3;
                        pixels[o..o + 3].copy_from_slice(&rgb);
                    }
                }
            }
        }
    }
    Ok(Picture { w, h, pixels })
}

/// Writes `picture` as a PNG.
fn write_png(out: &mut dyn Write, picture: &Picture) -> io::Result<()> {
    let io = |e: png::EncodingError| match e {
        png::EncodingError::IoError(e) => e,
        other => io::Error::other(other.to_string()),
    };
    let mut encoder = png::Encoder::new(out, picture.w as u32, picture.h as u32);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().map_err(io)?;
    writer.write_image_data(&picture.pixels).map_err(io)?;
    writer.finish().map_err(io)
}
