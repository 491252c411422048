//! Text drawings for the terminal: two characters per square.

use super::scenes::{BarView, BoardView};

/// `[]` chocolate, `XX` the bitter square, `::` eaten by the move, `. ` inside the
/// staircase outline of f but cut off from above.
pub fn bar_text(view: &BarView) -> String {
    let bar = view.bar;
    let (lo, hi) = bar.column_range();
    let rows = view.rows();
    let label = (rows - 1).to_string().len();
    let mut out = format!("{}\n", bar.caption);
    if let Some(m) = &view.move_caption {
        out.push_str(m);
        out.push('\n');
    }
    for r in (0..rows).rev() {
        out.push_str(&format!("{r:>label$} "));
        for c in lo..=hi {
            let col = bar.columns.iter().find(|k| k.index == c);
            let cell = if (c, r) == (0, 0) {
                "XX"
            } else if view.eaten.contains(&(c, r)) {
                "::"
            } else if col.is_some_and(|k| r < k.height) {
                "[]"
            } else if col.and_then(|k| k.limit).is_some_and(|l| r < l) {
                ". "
            } else {
                "  "
            };
            out.push_str(cell);
        }
        out.truncate(out.trim_end().len());
        out.push('\n');
    }
    out.push_str(&column_labels(label, lo, hi));
    out.push_str("XX bitter square  [] chocolate");
    if !view.eaten.is_empty() {
        out.push_str("  :: eaten by the move");
    }
    if bar.columns.iter().any(|c| c.limit.is_some()) {
        out.push_str("  . outline f(t)+1");
    }
    out.push('\n');
    out
}

/// Column numbers under the squares: units digit, and a line of tens where needed.
fn column_labels(indent: usize, lo: i64, hi: i64) -> String {
    let mut units = " ".repeat(indent + 1);
    let mut tens = units.clone();
    for c in lo..=hi {
        let a = c.unsigned_abs();
        units.push_str(&format!("{}{}", if c < 0 { '-' } else { ' ' }, a % 10));
        tens.push_str(&if a >= 10 {
            format!(" {}", a / 10 % 10)
        } else {
            "  ".into()
        });
    }
    let mut out = format!("{}\n", units.trim_end());
    if hi >= 10 || lo <= -10 {
        out.push_str(&format!("{}  (tens)\n", tens.trim_end()));
    }
    out
}

/// `@` the piece, `*` where the move goes, `o` a P-position, `.` any other square.
pub fn board_text(view: &BoardView) -> String {
    let label = (view.rows - 1).to_string().len();
    // y = 0 on the top row, numbers of x above, as in `nimlab table`.
    let mut out = format!("{}\n", view.caption);
    out.push_str(&column_labels(label, 0, view.cols as i64 - 1));
    for r in 0..view.rows {
        out.push_str(&format!("{r:>label$} "));
        for c in 0..view.cols {
            let cell = if (c, r) == view.piece {
                " @"
            } else if Some((c, r)) == view.target {
                " *"
            } else if view.p_positions.contains(&(c, r)) {
                " o"
            } else {
                " ."
            };
            out.push_str(cell);
        }
        out.push('\n');
    }
    out.push_str(&format!(
        "columns: {}, rows: {} (0 on top);  @ piece  o P-position{}\n",
        view.names.0,
        view.names.1,
        if view.target.is_some() {
            "  * move"
        } else {
            ""
        }
    ));
    out
}

/// A board, a bar or a vertex set as text: one row per line (two characters per cell,
/// `()` a cell the move shown empties), or the vertices in a row.
pub fn cells_text(view: &super::scenes::CellsView) -> String {
    let mut out = format!("{}\n", view.caption);
    if let Some(vs) = &view.vertices {
        let cells: Vec<String> = vs
            .iter()
            .enumerate()
            .map(|(i, v)| {
                if view.changed.contains(&(0, i)) {
                    format!("({v})")
                } else {
                    v.to_string()
                }
            })
            .collect();
        out.push_str(&cells.join(" "));
        out.push('\n');
        return out;
    }
    for (r, row) in view.rows.iter().enumerate() {
        for (c, &ch) in row.iter().enumerate() {
            out.push_str(match (view.changed.contains(&(r, c)), view.bar, ch) {
                (true, _, _) => "()",
                (_, true, 'B') => "BB",
                (_, true, '#') => "[]",
                (_, false, '.') => "[]",
                (_, false, _) => "##",
                _ => "  ",
            });
        }
        out.push('\n');
    }
    out
}
