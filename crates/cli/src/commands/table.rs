//! `nimlab table`: the Grundy table of a game over a box.

use super::{Context, OutputArgs};
use crate::output::{
    check_figure, default_scale, png_size, write_npy, write_png, write_png_figure, write_table,
    write_table_json, write_worksheet, TableFormat,
};
use crate::Status;
use nimlab_engine::plan;
use nimlab_engine::table::cell_count;
use nimlab_engine::{Error, Result};
use nimlab_json::worksheet::Blanks;
use serde_json::Value;
use std::io::{self, Write};

/// Grundy values of every position in a box [0,N)^m (rows y, columns x).
///
/// Games with their own one-heap strategy table (fibonacci-nim: the seed's table
/// n | w(n) | code, n = 1..N−1) print that in text, csv, latex and markdown; `--format
/// json` gives the full two-coordinate Grundy table G(heap, limit) (values[limit][heap])
/// plus the strategy table under "strategy", and `--grundy` prints the Grundy table in
/// any format instead.
///
/// JSON: `{"schema": 1, "game", "box", "method", "method_detail", "values"}` with
/// values[y][x] (the last coordinate outermost) and null for cells that are not
/// positions; one line, or indented with --pretty.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  nimlab table 'ryuoh(p=3)' --size 13          # Table 1 of the Ryuoh paper\n  nimlab table wythoff --size 10 --format latex\n  nimlab table 'subtraction(s={1,3,4})' --size 30 --format csv\n  nimlab table 'nim(heaps=3)' --size 4 --format json\n  nimlab table wythoff --size 8192 --format npy --output wythoff.npy   # numpy.load('wythoff.npy')[y][x]\n  nimlab table wythoff --size 2048 --format png --output wythoff.png\n  nimlab table 'fibonacci-nim(k=2)' --size 32        # the seed's n | w(n) | code\n  nimlab table 'fibonacci-nim(k=1)' --size 16 --grundy\n  nimlab table wythoff --size 8 --format latex --blank 'P;random=6'   # a worksheet's tabular\n  nimlab table wythoff --size 8 --format latex --blank 'P;random=6' --answers\n  nimlab table nim --size 6 --format worksheet --blank random=8 -o nim.tex   # exercise + answers\n  nimlab table 'ryuoh(p=3)' --size 10 --format svg --blank row=4 -o ryuoh.svg"
)]
pub struct TableArgs {
    /// Game, e.g. wythoff, 'ryuoh(p=4)' (omit it with --rules).
    #[arg(required_unless_present = "rules", conflicts_with = "rules")]
    game: Option<String>,
    /// Take the game from a rules file (TOML) instead of the catalog.
    #[arg(long, value_name = "FILE")]
    rules: Option<std::path::PathBuf>,
    /// Side of the box: every coordinate runs over 0..N-1.
    #[arg(long, short = 'n', value_name = "N")]
    size: usize,
    /// Output format: text (the papers' layout), csv (one row per position), json,
    /// latex (a tabular), markdown, bfile (an OEIS b-file of a one-heap game); npy
    /// (NumPy array) and png (heatmap) need --output.
    /// Default: from the --output extension, else text.
    #[arg(long, value_enum)]
    format: Option<TableFormat>,
    /// For games with a strategy table (fibonacci-nim): print the Grundy table instead.
    #[arg(long)]
    grundy: bool,
    /// A worksheet: cells left empty for students (with --format latex, tikz, svg or
    /// worksheet): cells x,y separated by ';', or P (every P-position), all, row=y,
    /// col=x, random=K. Two-coordinate tables use the plane of the first two.
    #[arg(long, value_name = "CELLS")]
    blank: Option<String>,
    /// With --blank: print the answers (the blanked cells filled in, in bold).
    #[arg(long, requires = "blank")]
    answers: bool,
    /// Seed of --blank random=K (the same seed blanks the same cells).
    #[arg(long, default_value_t = 1, requires = "blank")]
    seed: u64,
    /// With --format png: pixels per cell of the heatmap, drawn with numbered axes and a
    /// legend. Default: enough for 384 pixels on the longer side (a 64 × 64 table: 6),
    /// 1 from 384 cells on; a table too large for a figure (over 2^26 pixels) is then
    /// written one pixel per cell, without axes.
    #[arg(long, value_name = "PIXELS", value_parser = clap::value_parser!(u32).range(1..=64))]
    scale: Option<u32>,
    #[command(flatten)]
    out: OutputArgs,
}

pub fn run(ctx: &Context, args: TableArgs) -> Result<Status> {
    // Over 100 lines because every output format of a table is one arm of its match;
    // each arm calls the writer of its format.
    let format = args.out.format(args.format, TableFormat::Text)?;
    let game = nimlab_games::source::load(args.game.as_deref(), args.rules.as_deref())?.game;
    if args.size == 0 {
        return Err(Error::input("--size must be at least 1"));
    }
    if format.needs_file() && args.out.output.is_none() {
        return Err(Error::input(format!(
            "--format {} writes a binary file: give it with --output FILE (or -o - for standard output)",
            if format == TableFormat::Npy {
                "npy"
            } else {
                "png"
            }
        )));
    }
    if format == TableFormat::Bfile && game.dimension() != 1 {
        return Err(Error::input(format!(
            "--format bfile writes a sequence, one value per n: {} has {} coordinates",
            game.spec(),
            game.dimension()
        )));
    }
    let strategy = plan::strategy_table(&*game, args.size)?;
    if let (Some((cols, rows)), false, false) = (
        &strategy,
        args.grundy,
        args.blank.is_some()
            || matches!(
                format,
                TableFormat::Json
                    | TableFormat::Bfile
                    | TableFormat::Npy
                    | TableFormat::Png
                    | TableFormat::Tikz
                    | TableFormat::Svg
                    | TableFormat::Worksheet
            ),
    ) {
        args.out.emit(|out| write_rows(out, cols, rows, format))?;
        return Ok(Status::Ok);
    }
    let worksheet = matches!(
        format,
        TableFormat::Tikz | TableFormat::Svg | TableFormat::Worksheet
    );
    if args.blank.is_some() && !worksheet && format != TableFormat::Latex {
        return Err(Error::input(
            "--blank makes a worksheet: use it with --format latex, tikz, svg or worksheet",
        ));
    }
    if worksheet || args.blank.is_some() {
        let cells = cell_count(&game.table_box(args.size))?;
        let side = game.table_box(args.size);
        if side.iter().take(2).product::<usize>() > nimlab_json::worksheet::MAX_WORKSHEET_CELLS {
            return Err(Error::input(format!(
                "a worksheet holds at most {} cells (a table of {cells}): lower --size",
                nimlab_json::worksheet::MAX_WORKSHEET_CELLS
            )));
        }
        // A strip of one coordinate is printed in rows; a plane needs its columns on
        // the page.
        let columns = side.first().copied().unwrap_or(1);
        if side.len() > 1 && columns > nimlab_json::worksheet::MAX_PRINTED_COLUMNS {
            return Err(Error::input(format!(
                "a worksheet prints at most {} columns across a page, this table has \
                 {columns}: lower --size",
                nimlab_json::worksheet::MAX_PRINTED_COLUMNS
            )));
        }
    }
    let dims = game.table_box(args.size);
    if format == TableFormat::Npy && npy_streamed(ctx, &*game, &dims, &args.out)? {
        return Ok(Status::Ok);
    }
    let report = plan::table(&*game, &dims, &ctx.table_options())?;
    let table = report.table;
    // n-player games: the values are classes (one colour each in a png).
    let players = game.capabilities().nplayer.map(|r| r.ranking.clone());
    match format {
        TableFormat::Npy => args.out.emit(|out| write_npy(&table, out))?,
        TableFormat::Png => {
            let (w, h) = png_size(&table)?;
            match &players {
                Some(r) => args
                    .out
                    .emit(|out| crate::nplayer::write_class_png(&table, r.players(), w, h, out))?,
                None => {
                    let scale = args.scale.unwrap_or_else(|| default_scale(&table));
                    match check_figure(&table, scale) {
                        Ok(()) => {
                            let names = game.coordinate_names();
                            args.out
                                .emit(|out| write_png_figure(&table, &names, scale, out))?
                        }
                        // Too large for a figure: one pixel per cell, unless a scale
                        // was asked for.
                        Err(_) if args.scale.is_none() => {
                            args.out.emit(|out| write_png(&table, w, h, out))?
                        }
                        Err(e) => return Err(e),
                    }
                }
            }
        }
        TableFormat::Json => {
            let mut extra = vec![
                ("method", Value::from(report.method.id())),
                ("method_detail", Value::from(report.method.detail.clone())),
            ];
            if let Some(r) = &players {
                extra.push(("values_are", Value::from("class")));
                extra.push(("players", Value::from(r.players())));
                extra.push(("ranking", Value::from(r.spec())));
            }
            if let (Some((cols, rows)), false) = (&strategy, args.grundy) {
                extra.push(("strategy", strategy_json(cols, rows)));
            }
            args.out
                .emit(|out| write_table_json(out, &*game, &table, &extra, ctx.pretty))?
        }
        _ if worksheet || args.blank.is_some() => {
            let blanks = match &args.blank {
                Some(spec) => Blanks::parse(spec, &table, args.seed)?,
                None => Blanks::none(&table),
            };
            args.out
                .emit(|out| write_worksheet(out, &*game, &table, &blanks, format, args.answers))?
        }
        _ => args
            .out
            .emit(|out| write_table(out, &*game, &table, format))?,
    }
    Ok(Status::Ok)
}

/// `--format npy` into a file, written out as it is computed when the table's route
/// streams (the line kernel): each band of rows goes to its place in the file once
/// final, while the rest is computed, and the table is never whole in memory (Wythoff's
/// kernel keeps half of it). The 4-byte values are the `.npy` data as they are
/// (little-endian `<u4`). `false`, with nothing done, where that does not apply
/// (another route, standard output, a device): the caller writes the table the usual
/// way.
///
/// Why not a memory-mapped file, computed into (as before): every first touch of a
/// page of a shared file mapping is a fault through the file system, and the mirror
/// half of Wythoff's table touched them all over the file; for Wythoff 8192² (256 MiB)
/// that took a third of the CPU time, more than the copies of the writes (see the
/// README's benchmarks).
fn npy_streamed(
    ctx: &Context,
    game: &dyn nimlab_engine::Game,
    dims: &[usize],
    out: &OutputArgs,
) -> Result<bool> {
    if cfg!(target_endian = "big") || out.file().is_none() {
        return Ok(false);
    }
    let opts = ctx.table_options();
    if !plan::streams_table(game, dims, &opts)? {
        return Ok(false);
    }
    let cells = cell_count(dims)?;
    let shape: Vec<usize> = dims.iter().rev().copied().collect();
    let header = crate::output::npy_header(&shape);
    let len = cells
        .checked_mul(4)
        .and_then(|b| b.checked_add(header.len() as u64))
        .ok_or_else(|| Error::input("table box is too large"))?;
    let mut sink = out.open()?;
    let Some(file) = sink.positional(len)? else {
        return Ok(false);
    };
    let writing = Writing {
        inner: opts.progress,
        file,
        header: header.len() as u64,
        failed: std::sync::Mutex::new(None),
    };
    let streamed = nimlab_engine::table::TableOptions {
        progress: &writing,
        ..opts
    };
    let computed = std::thread::scope(|scope| {
        if let Some(path) = out.file() {
            // The file this one replaces leaves the cache meanwhile (not in the rename).
            scope.spawn(move || crate::sink::drop_cached_pages(path));
        }
        writing.write(&header, 0);
        plan::table_streamed(game, dims, &streamed)
    });
    let failed = writing.failed.into_inner().ok().flatten();
    if let Some(e) = failed {
        return Err(sink.error(e));
    }
    if computed?.is_none() {
        return Err(Error::Contract(
            "the line kernel route declined a box it had accepted".into(),
        ));
    }
    sink.finish()?;
    Ok(true)
}

/// The progress of a table streamed into a `.npy` file: passed on, and the cells the
/// kernel reports final written to their place in the file. After a failed write the
/// computation is asked to stop, and the first error is kept for the caller.
struct Writing<'a> {
    inner: &'a dyn nimlab_engine::Progress,
    file: crate::sink::Positional<'a>,
    /// Where the values start in the file.
    header: u64,
    failed: std::sync::Mutex<Option<std::io::Error>>,
}

impl nimlab_engine::Progress for Writing<'_> {
    fn start(&self, total: u64, what: &str) {
        self.inner.start(total, what)
    }
    fn advance(&self, delta: u64) {
        self.inner.advance(delta)
    }
    fn finish(&self) {
        self.inner.finish()
    }
    fn status(&self, text: &str) {
        self.inner.status(text)
    }
    fn cancelled(&self) -> bool {
        self.inner.cancelled() || self.failed.lock().map_or(true, |f| f.is_some())
    }
    fn cells_final(&self, first: usize, cells: &[u32]) {
        // SAFETY: any u32 slice is a valid byte slice four times as long; on a
        // little-endian machine (the only one streamed to, see `npy_streamed`) those
        // bytes are the file's.
        let bytes =
            unsafe { std::slice::from_raw_parts(cells.as_ptr().cast::<u8>(), 4 * cells.len()) };
        self.write(bytes, self.header + 4 * first as u64);
        self.inner.cells_final(first, cells)
    }
}

impl Writing<'_> {
    /// Writes `bytes` at `offset` in the file; a failure is kept (the first one).
    fn write(&self, bytes: &[u8], offset: u64) {
        if let Err(e) = self.file.write_at(bytes, offset)
            && let Ok(mut failed) = self.failed.lock()
        {
            failed.get_or_insert(e);
        }
    }
}

/// The strategy table as JSON: one object per row; numbers as numbers, codes (bit
/// strings) as strings.
fn strategy_json(cols: &[String], rows: &[Vec<String>]) -> Value {
    rows.iter()
        .map(|r| {
            cols.iter()
                .zip(r)
                .map(|(c, v)| {
                    let cell = match v.parse::<u64>() {
                        Ok(x) if c != "code" => crate::json::int(x),
                        _ => Value::String(v.clone()),
                    };
                    (c.clone(), cell)
                })
                .collect::<serde_json::Map<_, _>>()
                .into()
        })
        .collect::<Vec<Value>>()
        .into()
}

/// A plain table of text rows under column names, in a non-JSON format.
fn write_rows(
    out: &mut dyn Write,
    cols: &[String],
    rows: &[Vec<String>],
    format: TableFormat,
) -> io::Result<()> {
    match format {
        TableFormat::Csv => {
            writeln!(out, "{}", cols.join(","))?;
            for r in rows {
                writeln!(out, "{}", r.join(","))?;
            }
        }
        TableFormat::Latex => {
            writeln!(out, "\\begin{{tabular}}{{{}}}", "r".repeat(cols.len()))?;
            writeln!(out, "{} \\\\ \\hline", cols.join(" & "))?;
            for r in rows {
                writeln!(out, "{} \\\\", r.join(" & "))?;
            }
            writeln!(out, "\\end{{tabular}}")?;
        }
        TableFormat::Markdown => {
            writeln!(out, "| {} |", cols.join(" | "))?;
            writeln!(out, "|{}", "---:|".repeat(cols.len()))?;
            for r in rows {
                writeln!(out, "| {} |", r.join(" | "))?;
            }
        }
        TableFormat::Text
        | TableFormat::Bfile
        | TableFormat::Json
        | TableFormat::Npy
        | TableFormat::Png
        | TableFormat::Tikz
        | TableFormat::Svg
        | TableFormat::Worksheet => {
            let widths = super::column_widths(cols, rows);
            let line = |cells: &[String]| {
                cells
                    .iter()
                    .zip(&widths)
                    .map(|(c, &w)| format!("{c:>w$}"))
                    .collect::<Vec<_>>()
                    .join("  ")
            };
            writeln!(out, "{}", line(cols))?;
            for r in rows {
                writeln!(out, "{}", line(r))?;
            }
        }
    }
    Ok(())
}
