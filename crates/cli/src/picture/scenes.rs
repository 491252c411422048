//! Scenes of a chocolate bar and of a two-coordinate board. What is drawn comes from
//! the game library (the bar's squares, the P-positions); this module only lays it out.

use super::{palette, Anchor, Item, Scene};
use nimlab_engine::picture::ColumnsPicture;

/// Side of a square, in pixels.
pub const CELL: f64 = 28.0;
const LEFT: f64 = 48.0;
const RIGHT: f64 = 24.0;
const TOP: f64 = 52.0;
const BOTTOM: f64 = 56.0;
/// Most columns or rows a picture shows.
pub const MAX_SIDE: u64 = 400;

/// A bar, and what a move eats from it.
pub struct BarView<'a> {
    pub bar: &'a ColumnsPicture,
    /// Squares (column, row) the move shown eats.
    pub eaten: Vec<(i64, u64)>,
    /// One line about the move, if one is shown.
    pub move_caption: Option<String>,
}

impl BarView<'_> {
    /// Rows shown: the bar, and the staircase outline up to a few rows above it.
    pub fn rows(&self) -> u64 {
        let tallest = self.bar.columns.iter().map(|c| c.height).max().unwrap_or(1);
        self.bar.max_height().min(tallest + 3).max(1)
    }
}

/// A board: columns 0..cols, rows 0..rows, the piece, the P-positions.
pub struct BoardView {
    pub cols: u64,
    pub rows: u64,
    pub piece: (u64, u64),
    pub target: Option<(u64, u64)>,
    /// Whether (column, row) is a P-position.
    pub p_positions: Vec<(u64, u64)>,
    pub caption: String,
    /// Names of the two coordinates (along columns, along rows).
    pub names: (String, String),
}

fn text(at: (f64, f64), size: f64, anchor: Anchor, text: impl Into<String>) -> Item {
    Item::Text {
        at,
        size,
        anchor,
        text: text.into(),
        fill: palette::INK,
    }
}

/// Column labels only every k-th column when numbers are wider than a square.
fn label_step(widest: usize) -> i64 {
    if widest <= 3 {
        1
    } else {
        5
    }
}

/// Width a line of `chars` characters needs at `size` (the PNG font is 8 pixels a
/// character at sizes up to 14, the SVG font about as wide).
fn text_width(chars: usize, size: f64) -> f64 {
    let scale = ((size / 10.0).round()).max(1.0);
    8.0 * scale * chars as f64
}

/// Width of a legend.
fn legend_width(entries: &[(super::Rgb, &'static str, &str)]) -> f64 {
    entries
        .iter()
        .map(|(_, _, label)| 18.0 + 8.0 * label.len() as f64 + 24.0)
        .sum()
}

fn legend(items: &mut Vec<Item>, y: f64, entries: &[(super::Rgb, &'static str, &str)]) {
    let mut x = LEFT;
    for (colour, class, label) in entries {
        items.push(Item::Rect {
            x,
            y: y - 11.0,
            w: 12.0,
            h: 12.0,
            fill: *colour,
            stroke: Some(palette::INK),
            class,
        });
        items.push(text((x + 18.0, y), 12.0, Anchor::Start, *label));
        x += 18.0 + 8.0 * label.len() as f64 + 24.0;
    }
}

/// A column's number under the grid (its bottom at `base`), centred on the column
/// starting at `x`.
fn column_number(x: f64, base: f64, n: impl ToString) -> Item {
    text(
        (x + CELL / 2.0, base + 16.0),
        12.0,
        Anchor::Middle,
        n.to_string(),
    )
}

/// A row's number left of the grid, on the row starting at `y`.
fn row_number(y: f64, n: impl ToString) -> Item {
    text(
        (LEFT - 6.0, y + CELL / 2.0 + 5.0),
        12.0,
        Anchor::End,
        n.to_string(),
    )
}

/// The bitter square's mark, a cross, on the square at (`bx`, `by`).
fn bitter_cross(bx: f64, by: f64) -> impl Iterator<Item = Item> {
    [
        ((bx + 7.0, by + 7.0), (bx + CELL - 7.0, by + CELL - 7.0)),
        ((bx + CELL - 7.0, by + 7.0), (bx + 7.0, by + CELL - 7.0)),
    ]
    .into_iter()
    .map(|(from, to)| Item::Line {
        from,
        to,
        stroke: palette::PAPER,
        width: 3.0,
        dashed: false,
        class: "bitter-mark",
    })
}

/// The staircase outline, dashed: the top of each limited column (`limits`: column and
/// height, at most `rows`), with the steps between them and down at the last.
fn staircase_outline(
    items: &mut Vec<Item>,
    limits: &[(i64, u64)],
    rows: u64,
    px: impl Fn(i64) -> f64,
) {
    let top = |h: u64| TOP + (rows - h) as f64 * CELL;
    let line = |from, to| Item::Line {
        from,
        to,
        stroke: palette::OUTLINE,
        width: 2.5,
        dashed: true,
        class: "outline",
    };
    for (i, &(c, h)) in limits.iter().enumerate() {
        items.push(line((px(c), top(h)), (px(c) + CELL, top(h))));
        match limits.get(i + 1) {
            Some(&(_, next)) if next != h => {
                items.push(line((px(c) + CELL, top(h)), (px(c) + CELL, top(next))))
            }
            None => items.push(line((px(c) + CELL, top(h)), (px(c) + CELL, top(0)))),
            _ => {}
        }
    }
}

/// The bar as the paper draws it: squares on a grid, the bitter square marked, the
/// staircase outline of f dashed, columns and rows numbered.
pub fn bar_scene(view: &BarView) -> Scene {
    let bar = view.bar;
    let (lo, hi) = bar.column_range();
    let cols = (hi - lo + 1) as f64;
    let rows = view.rows();
    let width = LEFT + cols * CELL + RIGHT;
    let height = TOP + rows as f64 * CELL + BOTTOM;
    let px = |c: i64| LEFT + (c - lo) as f64 * CELL;
    let py = |r: u64| TOP + (rows - 1 - r) as f64 * CELL;
    let mut items = vec![text((LEFT, 20.0), 14.0, Anchor::Start, bar.caption.clone())];
    if let Some(m) = &view.move_caption {
        items.push(text((LEFT, 40.0), 12.0, Anchor::Start, m.clone()));
    }
    for (c, r) in bar.squares() {
        if r >= rows {
            continue;
        }
        let (fill, class) = if (c, r) == (0, 0) {
            (palette::BITTER, "bitter")
        } else if view.eaten.contains(&(c, r)) {
            (palette::EATEN, "eaten")
        } else {
            (palette::CHOCOLATE, "square")
        };
        items.push(Item::Rect {
            x: px(c),
            y: py(r),
            w: CELL,
            h: CELL,
            fill,
            stroke: Some(palette::GROOVE),
            class,
        });
    }
    items.extend(bitter_cross(px(0), py(0)));
    // The staircase outline: the top of f(i) + 1 over each column that has a limit.
    let limits: Vec<(i64, u64)> = bar
        .columns
        .iter()
        .filter_map(|c| c.limit.map(|l| (c.index, l.min(rows))))
        .collect();
    staircase_outline(&mut items, &limits, rows, px);
    // Column numbers below, row numbers at the left.
    let widest = lo.to_string().len().max(hi.to_string().len());
    let step = label_step(widest);
    let base = TOP + rows as f64 * CELL;
    for c in (lo..=hi).filter(|c| c % step == 0) {
        items.push(column_number(px(c), base, c));
    }
    let row_step = if rows > 99 { 5 } else { 1 };
    for r in (0..rows).filter(|r| r % row_step == 0) {
        items.push(row_number(py(r), r));
    }
    let mut entries = vec![(palette::BITTER, "legend-bitter", "bitter square")];
    if !view.eaten.is_empty() {
        entries.push((palette::EATEN, "legend-eaten", "eaten by the move"));
    }
    if !limits.is_empty() {
        entries.push((palette::OUTLINE, "legend-outline", "outline f(t)+1"));
    }
    legend(&mut items, base + 42.0, &entries);
    let width = width
        .max(LEFT + text_width(bar.caption.chars().count(), 14.0) + RIGHT)
        .max(
            LEFT + text_width(
                view.move_caption.as_ref().map_or(0, |m| m.chars().count()),
                12.0,
            ) + RIGHT,
        )
        .max(LEFT + legend_width(&entries));
    Scene {
        width,
        height,
        title: match &view.move_caption {
            Some(m) => format!("{}; {m}", bar.caption),
            None => bar.caption.clone(),
        },
        items,
    }
}

/// A board: the grid, the P-positions filled, the piece, the move's arrow.
pub fn board_scene(view: &BoardView) -> Scene {
    let (cols, rows) = (view.cols, view.rows);
    let width = LEFT + cols as f64 * CELL + RIGHT;
    let height = TOP + rows as f64 * CELL + BOTTOM;
    let px = |c: u64| LEFT + c as f64 * CELL;
    // y = 0 on the top row, as in `nimlab table` and the explorer.
    let py = |r: u64| TOP + r as f64 * CELL;
    let centre = |(c, r): (u64, u64)| (px(c) + CELL / 2.0, py(r) + CELL / 2.0);
    let mut items = vec![text(
        (LEFT, 20.0),
        14.0,
        Anchor::Start,
        view.caption.clone(),
    )];
    for r in 0..rows {
        for c in 0..cols {
            let p = view.p_positions.contains(&(c, r));
            items.push(Item::Rect {
                x: px(c),
                y: py(r),
                w: CELL,
                h: CELL,
                fill: if p {
                    palette::P_POSITION
                } else {
                    palette::PAPER
                },
                stroke: Some(palette::GRID),
                class: if p { "p-position" } else { "cell" },
            });
        }
    }
    if let Some(t) = view.target {
        items.push(Item::Line {
            from: centre(view.piece),
            to: centre(t),
            stroke: palette::TARGET,
            width: 3.0,
            dashed: false,
            class: "move",
        });
        items.push(Item::Disc {
            centre: centre(t),
            radius: CELL * 0.32,
            fill: None,
            stroke: palette::TARGET,
            class: "target",
        });
    }
    items.push(Item::Disc {
        centre: centre(view.piece),
        radius: CELL * 0.32,
        fill: Some(palette::PIECE),
        stroke: palette::PIECE,
        class: "piece",
    });
    let base = TOP + rows as f64 * CELL;
    let widest = cols.to_string().len().max(rows.to_string().len());
    let step = label_step(widest) as u64;
    for c in (0..cols).filter(|c| c % step == 0) {
        items.push(column_number(px(c), base, c));
    }
    for r in (0..rows).filter(|r| r % step == 0) {
        items.push(row_number(py(r), r));
    }
    let axis = format!("{} ->", view.names.0);
    items.push(text(
        (px(cols) + 6.0, base + 16.0),
        12.0,
        Anchor::Start,
        axis.clone(),
    ));
    items.push(text(
        (LEFT - 6.0, TOP - 8.0),
        12.0,
        Anchor::End,
        view.names.1.clone(),
    ));
    let mut entries = vec![
        (palette::P_POSITION, "legend-p", "P-position"),
        (palette::PIECE, "legend-piece", "piece"),
    ];
    if view.target.is_some() {
        entries.push((palette::TARGET, "legend-target", "move"));
    }
    legend(&mut items, base + 42.0, &entries);
    let width = (width + text_width(axis.len(), 12.0))
        .max(LEFT + text_width(view.caption.chars().count(), 14.0) + RIGHT)
        .max(LEFT + legend_width(&entries));
    Scene {
        width,
        height,
        title: view.caption.clone(),
        items,
    }
}

/// A position drawn cell by cell: a board (`.` free, `#` covered), a chocolate bar of any
/// shape (`#` a square, `B` the bitter one, `.` none) or a set of vertices (one disc
/// each); the cells a move changes marked.
pub struct CellsView {
    /// Rows of characters, top first.
    pub rows: Vec<Vec<char>>,
    /// Whether the picture is a chocolate bar (else a board, or vertices).
    pub bar: bool,
    /// Whether the cells are vertices (`rows` is then one row of labels).
    pub vertices: Option<Vec<u64>>,
    /// Cells (row, column) or vertices the move shown empties.
    pub changed: Vec<(usize, usize)>,
    pub caption: String,
}

impl CellsView {
    /// The view of `shown`, with the move to `next` marked; `None` for a position that
    /// is not a picture or a vertex set.
    pub fn new(
        shown: &nimlab_engine::position::Shown,
        next: Option<&nimlab_engine::position::Shown>,
        caption: String,
    ) -> Option<Self> {
        use nimlab_engine::position::Shown;
        match shown {
            Shown::Text(t) => {
                let rows: Vec<Vec<char>> = t.split('/').map(|r| r.chars().collect()).collect();
                let bar = t.contains('B');
                let changed = match next {
                    Some(Shown::Text(n)) => changed_cells(&rows, bar, n),
                    _ => Vec::new(),
                };
                Some(CellsView {
                    rows,
                    bar,
                    vertices: None,
                    changed,
                    caption,
                })
            }
            Shown::Vertices(v) => {
                let changed = match next {
                    Some(Shown::Vertices(n)) => v
                        .iter()
                        .enumerate()
                        .filter(|(_, x)| !n.contains(x))
                        .map(|(i, _)| (0, i))
                        .collect(),
                    _ => Vec::new(),
                };
                Some(CellsView {
                    rows: vec![],
                    bar: false,
                    vertices: Some(v.clone()),
                    changed,
                    caption,
                })
            }
            _ => None,
        }
    }
}

/// The cells of `rows` a move to the picture `next` empties (a bar's option is cropped
/// to its squares: it is aligned on the bitter square).
fn changed_cells(rows: &[Vec<char>], bar: bool, next: &str) -> Vec<(usize, usize)> {
    let after: Vec<Vec<char>> = next.split('/').map(|r| r.chars().collect()).collect();
    let find = |g: &[Vec<char>]| {
        g.iter()
            .enumerate()
            .find_map(|(r, row)| row.iter().position(|&c| c == 'B').map(|c| (r, c)))
            .unwrap_or((0, 0))
    };
    let ((ra, ca), (rb, cb)) = if bar {
        (find(rows), find(&after))
    } else {
        ((0, 0), (0, 0))
    };
    let mut out = Vec::new();
    for (r, row) in rows.iter().enumerate() {
        for (c, &ch) in row.iter().enumerate() {
            let there = (r + rb)
                .checked_sub(ra)
                .zip((c + cb).checked_sub(ca))
                .and_then(|(r2, c2)| after.get(r2).and_then(|x| x.get(c2)).copied());
            let full = if bar { ch != '.' } else { ch == '.' };
            let stays = if bar {
                there.is_some_and(|t| t != '.')
            } else {
                there == Some('.')
            };
            if full && !stays {
                out.push((r, c));
            }
        }
    }
    out
}

/// A board, a bar or a vertex set: one square (or disc) per cell.
pub fn cells_scene(view: &CellsView) -> Scene {
    const S: f64 = 32.0;
    let (left, top) = (16.0, 40.0);
    let mut items = vec![Item::Text {
        at: (left, 24.0),
        size: 14.0,
        anchor: Anchor::Start,
        text: view.caption.clone(),
        fill: palette::INK,
    }];
    let (w, h);
    if let Some(vs) = &view.vertices {
        for (i, v) in vs.iter().enumerate() {
            let centre = (left + S / 2.0 + i as f64 * S, top + S / 2.0);
            let gone = view.changed.contains(&(0, i));
            items.push(Item::Disc {
                centre,
                radius: S * 0.4,
                fill: Some(if gone {
                    palette::EATEN
                } else {
                    palette::P_POSITION
                }),
                stroke: palette::INK,
                class: if gone { "taken" } else { "vertex" },
            });
            items.push(Item::Text {
                at: (centre.0, centre.1 + 5.0),
                size: 12.0,
                anchor: Anchor::Middle,
                text: v.to_string(),
                fill: palette::INK,
            });
        }
        (w, h) = (vs.len().max(1) as f64 * S, S);
    } else {
        for (r, row) in view.rows.iter().enumerate() {
            for (c, &ch) in row.iter().enumerate() {
                let changed = view.changed.contains(&(r, c));
                let (fill, class) = match (view.bar, ch, changed) {
                    (_, _, true) => (palette::EATEN, "eaten"),
                    (true, 'B', _) => (palette::BITTER, "bitter"),
                    (true, '#', _) => (palette::CHOCOLATE, "square"),
                    (false, '.', _) => (palette::PAPER, "free"),
                    (false, _, _) => (palette::PIECE, "covered"),
                    _ => continue,
                };
                items.push(Item::Rect {
                    x: left + c as f64 * S,
                    y: top + r as f64 * S,
                    w: S,
                    h: S,
                    fill,
                    stroke: Some(if view.bar {
                        palette::GROOVE
                    } else {
                        palette::GRID
                    }),
                    class,
                });
            }
        }
        let cols = view.rows.iter().map(Vec::len).max().unwrap_or(0);
        (w, h) = (cols as f64 * S, view.rows.len() as f64 * S);
    }
    Scene {
        width: (left * 2.0 + w).max(left * 2.0 + text_width(view.caption.chars().count(), 14.0)),
        height: top + h + 16.0,
        title: view.caption.clone(),
        items,
    }
}
