//! Rendering of tables: text in the papers' layout, CSV, JSON, LaTeX, Markdown; NumPy
//! and PNG in [`big`]. Every format is streamed to its writer, a row at a time: the
//! output never exists in memory as a whole.

use nimlab_engine::{Game, GrundyTable, INVALID};
use std::io::{self, Write};

mod big;
pub use big::{
    check_figure, default_scale, npy_header, png_size, write_cells_png, write_npy, write_png,
    write_png_figure, NOT_A_POSITION_RGB,
};

/// How to print a table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum TableFormat {
    /// Rows y, columns x, header `y\x`, as the papers print them.
    Text,
    /// One row per position: coordinates then grundy.
    Csv,
    /// `{"game", "box", "values"}` with values[y][x].
    Json,
    /// A LaTeX tabular a paper can include.
    Latex,
    /// A Markdown table.
    Markdown,
    /// A NumPy .npy file (needs --output): uint32 values[y][x]; 4294967295 marks cells
    /// that are not positions.
    Npy,
    /// A PNG heatmap (needs --output): one pixel per cell, dark blue (0) to yellow (max).
    Png,
    /// A TikZ picture of the table (a worksheet's grid; see --blank).
    Tikz,
    /// An SVG picture of the table (a worksheet's grid; see --blank).
    Svg,
    /// A whole LaTeX document: the worksheet (--blank cells empty), then its answers.
    Worksheet,
    /// An OEIS b-file of a one-heap game's sequence: lines `n G(n)`.
    Bfile,
}

impl TableFormat {
    /// Whether the format is binary and must go to a file (`--output`).
    pub fn needs_file(self) -> bool {
        matches!(self, TableFormat::Npy | TableFormat::Png)
    }
}

pub use nimlab_json::write_table_json;
use nimlab_json::{format_u64, Buffered};

/// Number of decimal digits of `v`.
fn digit_count(v: u64) -> usize {
    let mut digits = [0u8; 20];
    format_u64(v, &mut digits).len()
}

/// Writes the table in a text format (not JSON, npy or png), ending with a newline.
pub fn write_table(
    out: &mut dyn Write,
    game: &dyn Game,
    table: &GrundyTable,
    format: TableFormat,
) -> io::Result<()> {
    match format {
        TableFormat::Csv => csv(out, game, table),
        TableFormat::Bfile => bfile(out, game, table),
        TableFormat::Text | TableFormat::Latex | TableFormat::Markdown => {
            slices(out, game, table, format)
        }
        TableFormat::Json => write_table_json(out, game, table, &[], false),
        TableFormat::Npy => write_npy(table, out),
        TableFormat::Png => {
            let (w, h) = png_size(table).map_err(|e| io::Error::other(e.to_string()))?;
            write_png(table, w, h, out)
        }
        TableFormat::Tikz | TableFormat::Svg | TableFormat::Worksheet => {
            let blanks = nimlab_json::worksheet::Blanks::none(table);
            write_worksheet(out, game, table, &blanks, format, false)
        }
    }
}

/// A worksheet rendering of the table's first plane (library [`nimlab_json::worksheet`]):
/// `Latex` a tabular, `Tikz` a picture, `Svg`, `Worksheet` a whole document; `answers`
/// fills the blanked cells in.
pub fn write_worksheet(
    out: &mut dyn Write,
    game: &dyn Game,
    table: &GrundyTable,
    blanks: &nimlab_json::worksheet::Blanks,
    format: TableFormat,
    answers: bool,
) -> io::Result<()> {
    let mut w = nimlab_json::worksheet::Worksheet::new(
        &game.spec(),
        &game.coordinate_names(),
        table,
        &[],
        blanks.clone(),
    )
    .map_err(|e| io::Error::other(e.to_string()))?;
    if let Some(rules) = nimlab_games::rules_of(&game.spec()) {
        w = w.with_rules(rules);
    }
    let text = match format {
        TableFormat::Tikz => w.latex_tikz(answers),
        TableFormat::Svg => w.svg(answers),
        TableFormat::Worksheet => w.latex_document(false),
        _ => format!(
            "{}{}",
            nimlab_json::worksheet::LATEX_MACROS,
            w.latex_tabular(answers)
        ),
    };
    out.write_all(text.as_bytes())
}

/// The OEIS b-file of a sequence (one coordinate): a comment naming the game, then
/// one line `n a(n)` per position, n from 0; a cell that is not a position is left out
/// with a comment saying so (a b-file's lines are the sequence's terms, in order).
fn bfile(out: &mut dyn Write, game: &dyn Game, table: &GrundyTable) -> io::Result<()> {
    let mut w = Buffered::new(out);
    let what = if game.capabilities().nplayer.is_some() {
        "classes"
    } else {
        "Grundy values"
    };
    w.str(&format!("# {what} of {}, by nimlab\n", game.spec()))?;
    let mut digits = [0u8; 20];
    for (n, &v) in table.values().iter().enumerate() {
        if v == INVALID {
            w.str(&format!("# {n} is not a position\n"))?;
            continue;
        }
        w.bytes(format_u64(n as u64, &mut digits))?;
        w.str(" ")?;
        w.bytes(format_u64(u64::from(v), &mut digits))?;
        w.str("\n")?;
    }
    w.finish()
}

/// One row per cell: the coordinates, then the Grundy value (empty for non-positions).
fn csv(out: &mut dyn Write, game: &dyn Game, table: &GrundyTable) -> io::Result<()> {
    let mut w = Buffered::new(out);
    w.str(&game.coordinate_names().join(","))?;
    // n-player games tabulate classes, not Grundy values.
    let n_player = game.capabilities().nplayer.is_some();
    w.str(if n_player { ",class\n" } else { ",grundy\n" })?;
    let dims = table.dims();
    // The position of cell i, first coordinate fastest (as the table stores it).
    let mut pos = vec![0usize; dims.len()];
    for &v in table.values() {
        for (k, &c) in pos.iter().enumerate() {
            if k > 0 {
                w.byte(b',')?;
            }
            w.number(c as u64)?;
        }
        w.byte(b',')?;
        if v != INVALID {
            w.number(v as u64)?;
        }
        w.byte(b'\n')?;
        for (c, &d) in pos.iter_mut().zip(dims) {
            *c += 1;
            if *c < d {
                break;
            }
            *c = 0;
        }
    }
    w.finish()
}

/// Text, LaTeX or Markdown: one 2-D grid per value of the coordinates beyond the
/// second (a heading names them); a one-coordinate table is a grid with one row.
fn slices(
    out: &mut dyn Write,
    game: &dyn Game,
    table: &GrundyTable,
    format: TableFormat,
) -> io::Result<()> {
    let names = game.coordinate_names();
    let dims = table.dims();
    let (nx, ny) = match dims.len() {
        1 => (dims[0], 1),
        _ => (dims[0], dims[1]),
    };
    let plane = nx * ny;
    let planes = table.values().len() / plane.max(1);
    let mut w = Buffered::new(out);
    for k in 0..planes {
        if dims.len() > 2 {
            let pos = table.position_of(k * plane);
            let fixed: Vec<String> = (2..dims.len())
                .map(|i| format!("{} = {}", names[i], pos[i]))
                .collect();
            w.str(&fixed.join(", "))?;
            w.str(":\n")?;
        }
        let cells = &table.values()[k * plane..(k + 1) * plane];
        let (corner, row_labels): (String, Vec<String>) = if dims.len() == 1 {
            let label = if game.capabilities().nplayer.is_some() {
                "class"
            } else {
                "G"
            };
            (names[0].clone(), vec![label.into()])
        } else {
            (
                format!("{}\\{}", names[1], names[0]),
                (0..ny).map(|y| y.to_string()).collect(),
            )
        };
        grid(&mut w, format, &corner, nx, &row_labels, cells)?;
        if k + 1 < planes {
            w.byte(b'\n')?;
        }
    }
    w.finish()
}

/// One grid: a header of column numbers 0..nx, then one row per label of `nx` cells.
fn grid(
    w: &mut Buffered,
    format: TableFormat,
    corner: &str,
    nx: usize,
    row_labels: &[String],
    cells: &[u32],
) -> io::Result<()> {
    let rows = cells.chunks(nx.max(1)).zip(row_labels);
    // A cell: its value, or `.` for a cell that is not a position.
    let cell = |w: &mut Buffered, v: u32, width: usize| -> io::Result<()> {
        if v == INVALID {
            w.spaces(width.saturating_sub(1))?;
            w.byte(b'.')
        } else {
            w.number_right(v as u64, width)
        }
    };
    match format {
        TableFormat::Latex => {
            w.str(&format!("\\begin{{tabular}}{{r|{}}}\n", "r".repeat(nx)))?;
            let corner = corner.replace('\\', "\\backslash ");
            w.str(&format!("${corner}$ & "))?;
            for x in 0..nx {
                if x > 0 {
                    w.str(" & ")?;
                }
                w.number(x as u64)?;
            }
            w.str(" \\\\ \\hline\n")?;
            for (row, label) in rows {
                w.str(label)?;
                w.str(" & ")?;
                for (x, &v) in row.iter().enumerate() {
                    if x > 0 {
                        w.str(" & ")?;
                    }
                    cell(w, v, 0)?;
                }
                w.str(" \\\\\n")?;
            }
            w.str("\\end{tabular}\n")
        }
        TableFormat::Markdown => {
            w.str(&format!("| {} | ", corner.replace('\\', "\\\\")))?;
            for x in 0..nx {
                if x > 0 {
                    w.str(" | ")?;
                }
                w.number(x as u64)?;
            }
            w.str(" |\n|")?;
            for _ in 0..nx + 1 {
                w.str("---:|")?;
            }
            w.byte(b'\n')?;
            for (row, label) in rows {
                w.str(&format!("| **{label}** | "))?;
                for (x, &v) in row.iter().enumerate() {
                    if x > 0 {
                        w.str(" | ")?;
                    }
                    cell(w, v, 0)?;
                }
                w.str(" |\n")?;
            }
            Ok(())
        }
        _ => {
            // Every column as wide as the widest cell or header of the grid.
            let widest = cells
                .iter()
                .filter(|&&v| v != INVALID)
                .max()
                .map_or(1, |&v| digit_count(v as u64));
            let width = widest.max(digit_count(nx.saturating_sub(1) as u64));
            let label_width = row_labels
                .iter()
                .map(String::len)
                .chain([corner.len()])
                .max()
                .unwrap_or(1);
            w.str(&format!("{corner:>label_width$}"))?;
            for x in 0..nx {
                w.byte(b' ')?;
                w.number_right(x as u64, width)?;
            }
            w.byte(b'\n')?;
            for (row, label) in rows {
                w.str(&format!("{label:>label_width$}"))?;
                for &v in row {
                    w.byte(b' ')?;
                    cell(w, v, width)?;
                }
                w.byte(b'\n')?;
            }
            Ok(())
        }
    }
}
