//! Rendering of tables: text in the papers' layout, CSV, JSON, LaTeX, Markdown.

use nimlab_engine::{Game, GrundyTable, INVALID};
use serde_json::{json, Value};
use std::fmt::Write;

mod big;
pub use big::{write_npy, write_png};

/// How to print a table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum TableFormat {
    /// Rows y, columns x, header `y\x`, as the papers print them.
    Text,
    /// One row per position: coordinates then grundy.
    Csv,
    /// `{"game", "size", "values"}` with values[y][x].
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
}

impl TableFormat {
    /// Whether the format is binary and must go to a file (`--output`).
    pub fn needs_file(self) -> bool {
        matches!(self, TableFormat::Npy | TableFormat::Png)
    }
}

/// The table in `format`, ending with a newline.
pub fn render_table(game: &dyn Game, table: &GrundyTable, format: TableFormat) -> String {
    match format {
        TableFormat::Json => {
            let value = json!({
                "game": game.spec(),
                "size": table.dims(),
                "values": nested_values(table),
            });
            serde_json::to_string(&value).expect("JSON values always serialize") + "\n"
        }
        TableFormat::Csv => csv(game, table),
        TableFormat::Text | TableFormat::Latex | TableFormat::Markdown => {
            slices(game, table, format)
        }
        // Binary formats are written to a file by write_npy / write_png.
        TableFormat::Npy | TableFormat::Png => String::new(),
    }
}

/// values nested with the last coordinate outermost: values[y][x] for two coordinates.
fn nested_values(table: &GrundyTable) -> Value {
    fn cell(v: u32) -> Value {
        if v == INVALID {
            Value::Null
        } else {
            json!(v)
        }
    }
    let dims = table.dims();
    let mut level: Vec<Value> = table.values().iter().map(|&v| cell(v)).collect();
    for &d in dims.iter().take(dims.len().saturating_sub(1)) {
        level = level
            .chunks(d.max(1))
            .map(|c| Value::Array(c.to_vec()))
            .collect();
    }
    Value::Array(level)
}

fn csv(game: &dyn Game, table: &GrundyTable) -> String {
    let mut out = game.coordinate_names().join(",") + ",grundy\n";
    for (i, &v) in table.values().iter().enumerate() {
        let pos = table.position_of(i);
        let coords: Vec<String> = pos.iter().map(|c| c.to_string()).collect();
        let g = if v == INVALID {
            String::new()
        } else {
            v.to_string()
        };
        let _ = writeln!(out, "{},{g}", coords.join(","));
    }
    out
}

fn cell_text(v: u32) -> String {
    if v == INVALID {
        ".".into()
    } else {
        v.to_string()
    }
}

/// Text, LaTeX or Markdown: one 2-D grid per value of the coordinates beyond the
/// second (a heading names them); a one-coordinate table is a grid with one row.
fn slices(game: &dyn Game, table: &GrundyTable, format: TableFormat) -> String {
    let names = game.coordinate_names();
    let dims = table.dims();
    let (nx, ny) = match dims.len() {
        1 => (dims[0], 1),
        _ => (dims[0], dims[1]),
    };
    let plane = nx * ny;
    let planes = table.values().len() / plane.max(1);
    let mut out = String::new();
    for k in 0..planes {
        if dims.len() > 2 {
            let pos = table.position_of(k * plane);
            let fixed: Vec<String> = (2..dims.len())
                .map(|i| format!("{} = {}", names[i], pos[i]))
                .collect();
            let _ = writeln!(out, "{}:", fixed.join(", "));
        }
        let rows: Vec<Vec<String>> = (0..ny)
            .map(|y| {
                (0..nx)
                    .map(|x| cell_text(table.values()[k * plane + y * nx + x]))
                    .collect()
            })
            .collect();
        let (corner, row_labels): (String, Vec<String>) = if dims.len() == 1 {
            (names[0].clone(), vec!["G".into()])
        } else {
            (
                format!("{}\\{}", names[1], names[0]),
                (0..ny).map(|y| y.to_string()).collect(),
            )
        };
        let header: Vec<String> = (0..nx).map(|x| x.to_string()).collect();
        out.push_str(&grid(format, &corner, &header, &row_labels, &rows));
        if k + 1 < planes {
            out.push('\n');
        }
    }
    out
}

fn grid(
    format: TableFormat,
    corner: &str,
    header: &[String],
    row_labels: &[String],
    rows: &[Vec<String>],
) -> String {
    let mut out = String::new();
    match format {
        TableFormat::Latex => {
            let _ = writeln!(out, "\\begin{{tabular}}{{r|{}}}", "r".repeat(header.len()));
            let corner = corner.replace('\\', "\\backslash ");
            let _ = writeln!(out, "${corner}$ & {} \\\\ \\hline", header.join(" & "));
            for (label, row) in row_labels.iter().zip(rows) {
                let _ = writeln!(out, "{label} & {} \\\\", row.join(" & "));
            }
            out.push_str("\\end{tabular}\n");
        }
        TableFormat::Markdown => {
            let _ = writeln!(
                out,
                "| {} | {} |",
                corner.replace('\\', "\\\\"),
                header.join(" | ")
            );
            let _ = writeln!(out, "|{}", "---:|".repeat(header.len() + 1));
            for (label, row) in row_labels.iter().zip(rows) {
                let _ = writeln!(out, "| **{label}** | {} |", row.join(" | "));
            }
        }
        _ => {
            let width = rows
                .iter()
                .flatten()
                .chain(header)
                .map(String::len)
                .max()
                .unwrap_or(1);
            let label_width = row_labels
                .iter()
                .map(String::len)
                .chain([corner.len()])
                .max()
                .unwrap_or(1);
            let _ = write!(out, "{corner:>label_width$}");
            for h in header {
                let _ = write!(out, " {h:>width$}");
            }
            out.push('\n');
            for (label, row) in row_labels.iter().zip(rows) {
                let _ = write!(out, "{label:>label_width$}");
                for c in row {
                    let _ = write!(out, " {c:>width$}");
                }
                out.push('\n');
            }
        }
    }
    out
}
