//! Worksheets: one plane of a Grundy table for a class, with chosen cells blanked for
//! the students to fill in, as LaTeX (a `tabular` or a TikZ picture, or a whole
//! document with the exercise and its answers) and SVG. Shared by `nimlab table
//! --blank …` and the web explorer's worksheet export.
//!
//! Orientation, as in every nimlab table: columns x left to right, rows y top to
//! bottom (y = 0 on top), the layout the papers print their tables in.
//!
//! ```
//! use nimlab_engine::GrundyTable;
//! use nimlab_json::worksheet::{Blanks, Worksheet};
//! // Nim on 3 × 3: G = x xor y, stored first coordinate fastest.
//! let t = GrundyTable::from_parts(vec![3, 3], vec![0, 1, 2, 1, 0, 3, 2, 3, 0]).unwrap();
//! let names = vec!["x".to_string(), "y".to_string()];
//! let blanks = Blanks::parse("1,2", &t, 0).unwrap();
//! let w = Worksheet::new("nim", &names, &t, &[], blanks).unwrap();
//! let tex = w.latex_tabular(false);
//! assert!(tex.contains(r"$y\backslash x$ & 0 & 1 & 2"));
//! assert!(tex.contains(r"2 & 2 & \blank & 0"));     // row y = 2: cell (1,2) blanked
//! assert!(w.latex_tabular(true).contains(r"\answer{3}"));
//! ```

use nimlab_engine::{Error, GrundyTable, Result, INVALID};
use std::fmt::Write as _;

/// Most cells a worksheet holds (a page, not a data dump).
pub const MAX_WORKSHEET_CELLS: usize = 64 * 64;

/// Which cells of a plane are blanked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Blanks(Vec<bool>);

/// SplitMix64, for `random=K` blanks: the same seed blanks the same cells everywhere.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Blanks {
    /// Reads which cells of the first plane of `table` to blank: items separated by
    /// `;` or spaces, each a cell `x,y` (`n` for one coordinate), `P` (every
    /// P-position: value 0), `all`, `row=y`, `col=x`, or `random=K` (K cells drawn from
    /// `seed`).
    ///
    /// ```
    /// use nimlab_engine::GrundyTable;
    /// use nimlab_json::worksheet::Blanks;
    /// let t = GrundyTable::from_parts(vec![2, 2], vec![0, 1, 1, 0]).unwrap();
    /// assert_eq!(Blanks::parse("P", &t, 0).unwrap().count(), 2);
    /// assert_eq!(Blanks::parse("random=3", &t, 9).unwrap().count(), 3);
    /// assert!(Blanks::parse("5,0", &t, 0).is_err());
    /// ```
    pub fn parse(spec: &str, table: &GrundyTable, seed: u64) -> Result<Blanks> {
        let (nx, ny) = plane_shape(table.dims());
        let plane = &table.values()[..nx * ny];
        let mut b = vec![false; nx * ny];
        let bad = |what: &str| {
            Error::input(format!(
                "the cells to blank: cannot read '{}' (a cell x,y, P, all, row=y, col=x or random=K)",
                what.chars().take(40).collect::<String>()
            ))
        };
        let number = |s: &str, below: usize, what: &str| -> Result<usize> {
            let v: usize = s.trim().parse().map_err(|_| bad(what))?;
            if v >= below {
                return Err(Error::input(format!(
                    "the cells to blank: {what} lies outside the table (coordinates below {below})"
                )));
            }
            Ok(v)
        };
        for item in spec.split([';', ' ']).filter(|s| !s.trim().is_empty()) {
            let item = item.trim();
            if item.eq_ignore_ascii_case("all") {
                b.iter_mut().for_each(|c| *c = true);
            } else if item == "P" || item == "p" {
                for (c, &v) in b.iter_mut().zip(plane) {
                    *c |= v == 0;
                }
            } else if let Some(y) = item.strip_prefix("row=") {
                let y = number(y, ny, item)?;
                b[y * nx..(y + 1) * nx].iter_mut().for_each(|c| *c = true);
            } else if let Some(x) = item.strip_prefix("col=") {
                let x = number(x, nx, item)?;
                (0..ny).for_each(|y| b[y * nx + x] = true);
            } else if let Some(k) = item.strip_prefix("random=") {
                let k: usize = k.trim().parse().map_err(|_| bad(item))?;
                let mut free: Vec<usize> = (0..b.len())
                    .filter(|&i| !b[i] && plane[i] != INVALID)
                    .collect();
                let mut state = seed;
                for _ in 0..k.min(free.len()) {
                    let j = (splitmix(&mut state) % free.len() as u64) as usize;
                    b[free.swap_remove(j)] = true;
                }
            } else {
                let coords: Vec<&str> = item.split(',').collect();
                let (x, y) = match coords.as_slice() {
                    [x] if ny == 1 => (number(x, nx, item)?, 0),
                    [x, y] => (number(x, nx, item)?, number(y, ny, item)?),
                    _ => return Err(bad(item)),
                };
                b[y * nx + x] = true;
            }
        }
        // A cell that is not a position has nothing to fill in.
        for (c, &v) in b.iter_mut().zip(plane) {
            *c &= v != INVALID;
        }
        Ok(Blanks(b))
    }

    /// No cell blanked.
    pub fn none(table: &GrundyTable) -> Blanks {
        let (nx, ny) = plane_shape(table.dims());
        Blanks(vec![false; nx * ny])
    }

    /// How many cells are blanked.
    pub fn count(&self) -> usize {
        self.0.iter().filter(|&&b| b).count()
    }

    /// Whether cell `i` of the plane (row by row, y = 0 first) is blanked.
    pub fn is_blank(&self, i: usize) -> bool {
        self.0.get(i).copied().unwrap_or(false)
    }
}

fn plane_shape(dims: &[usize]) -> (usize, usize) {
    match dims {
        [] => (1, 1),
        [n] => (*n, 1),
        [x, y, ..] => (*x, *y),
    }
}

/// One plane of a table, ready to print as an exercise or its answers.
#[derive(Debug, Clone)]
pub struct Worksheet {
    title: String,
    x_name: String,
    y_name: Option<String>,
    nx: usize,
    ny: usize,
    /// Row by row; [`PAD`] past the end of a wrapped strip.
    cells: Vec<u32>,
    blanks: Blanks,
    /// A one-heap strip longer than [`STRIP_WRAP`] is printed in rows of that many
    /// cells: cell (c, r) is the heap n = r·STRIP_WRAP + c.
    wrapped: bool,
    /// The game's rules in one sentence, printed above the exercise.
    rules: Option<String>,
}

/// How many cells of a one-heap strip a printed row holds.
pub const STRIP_WRAP: usize = 10;

/// Most columns a printed worksheet fits across an A4 page (cells of at least 3.5 mm).
pub const MAX_PRINTED_COLUMNS: usize = 48;

/// The padding after the last cell of a wrapped strip: drawn as nothing.
const PAD: u32 = INVALID - 1;

/// The side of a printed cell in millimetres, so that `nx` columns and `ny` rows
/// (with their labels) fit the text block of an A4 page with 15 mm margins below the
/// title and instructions; and the font that fits in it.
fn printed_cell(nx: usize, ny: usize) -> (f64, &'static str) {
    // Two and a half cells for the row labels and the rotated name of y, one for
    // the column labels and the name of x.
    let side = (180.0 / (nx as f64 + 2.5))
        .min(200.0 / (ny as f64 + 2.0))
        .min(7.0);
    let font = if side >= 6.5 {
        "\\small"
    } else if side >= 5.0 {
        "\\footnotesize"
    } else if side >= 4.0 {
        "\\scriptsize"
    } else {
        "\\tiny"
    };
    (side, font)
}

/// Escapes text for LaTeX outside math mode.
pub fn latex_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '\\' => out.push_str(r"\textbackslash{}"),
            '{' | '}' | '%' | '$' | '#' | '&' | '_' => {
                out.push('\\');
                out.push(ch);
            }
            '^' => out.push_str(r"\textasciicircum{}"),
            '~' => out.push_str(r"\textasciitilde{}"),
            c if c.is_ascii() => out.push(c),
            // pdflatex without extra packages knows ASCII only.
            _ => out.push('?'),
        }
    }
    out
}

fn xml_escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

impl Worksheet {
    /// The plane of `table` where the coordinates beyond the second are `fixed`
    /// (missing ones are 0), with `blanks` (read on the first plane's layout).
    /// `names` are the game's coordinate names.
    pub fn new(
        title: &str,
        names: &[String],
        table: &GrundyTable,
        fixed: &[usize],
        blanks: Blanks,
    ) -> Result<Worksheet> {
        let dims = table.dims();
        let (nx, ny) = plane_shape(dims);
        if nx * ny > MAX_WORKSHEET_CELLS {
            return Err(Error::input(format!(
                "a worksheet holds at most {MAX_WORKSHEET_CELLS} cells; this plane has {}",
                nx * ny
            )));
        }
        let mut start = 0usize;
        let mut stride = nx * ny;
        for (i, &d) in dims.iter().enumerate().skip(2) {
            let c = fixed.get(i - 2).copied().unwrap_or(0);
            if c >= d {
                return Err(Error::input(format!(
                    "the slice {} = {c} lies outside the table (below {d})",
                    names.get(i).map_or("coordinate", String::as_str)
                )));
            }
            start += c * stride;
            stride *= d;
        }
        let name = |i: usize, default: &str| names.get(i).cloned().unwrap_or(default.into());
        let mut cells = table.values()[start..start + nx * ny].to_vec();
        let (mut nx, mut ny, wrapped) = (nx, ny, ny == 1 && nx > STRIP_WRAP);
        if wrapped {
            // Rows of STRIP_WRAP heaps: the blanks' index n stays the cell's index.
            ny = nx.div_ceil(STRIP_WRAP);
            nx = STRIP_WRAP;
            cells.resize(nx * ny, PAD);
        }
        if nx > MAX_PRINTED_COLUMNS {
            return Err(Error::input(format!(
                "a worksheet prints at most {MAX_PRINTED_COLUMNS} columns on a page; this \
                 plane has {nx}: lower the size"
            )));
        }
        Ok(Worksheet {
            title: title.to_string(),
            x_name: name(0, "x"),
            y_name: (dims.len() > 1).then(|| name(1, "y")),
            nx,
            ny,
            cells,
            blanks,
            wrapped,
            rules: None,
        })
    }

    /// The same worksheet with the game's rules stated above the exercise; a rules
    /// sentence that starts with the game's name (`Wythoff's game: take …`) names the
    /// worksheet too (the spec after it when it has parameters), instead of the spec.
    ///
    /// ```
    /// use nimlab_engine::GrundyTable;
    /// use nimlab_json::worksheet::{Blanks, Worksheet};
    /// let t = GrundyTable::from_parts(vec![2, 2], vec![0, 1, 1, 0]).unwrap();
    /// let names = vec!["x".to_string(), "y".to_string()];
    /// let w = Worksheet::new("nim", &names, &t, &[], Blanks::none(&t)).unwrap()
    ///     .with_rules("Nim: take any number of stones from one heap");
    /// let doc = w.latex_document(false);
    /// assert!(doc.contains("take any number of stones") && doc.contains("Grundy values: Nim}"));
    /// ```
    pub fn with_rules(mut self, rules: &str) -> Self {
        if let Some((name, _)) = rules.split_once(": ")
            && !name.contains([';', ','])
            && name.len() <= 40
        {
            self.title = if self.title.contains('(') {
                format!("{name}, {}", self.title)
            } else {
                name.to_string()
            };
        }
        self.rules = Some(rules.to_string());
        self
    }

    fn row_label(&self, y: usize) -> String {
        if self.wrapped {
            (y * STRIP_WRAP).to_string()
        } else if self.y_name.is_some() {
            y.to_string()
        } else {
            "G".into()
        }
    }

    fn corner(&self) -> String {
        match &self.y_name {
            Some(y) => format!("{y}\\{}", self.x_name),
            None if self.wrapped => format!("{}=r+c", self.x_name),
            None => self.x_name.clone(),
        }
    }

    /// How to read the rows and columns, for the instructions.
    fn layout_words(&self) -> String {
        let x = latex_escape(&self.x_name);
        match &self.y_name {
            Some(y) => format!(
                "Columns are {x}, rows are {}, with {} = 0 on top.",
                latex_escape(y),
                latex_escape(y)
            ),
            None if self.wrapped => {
                format!("The cell in the row marked r and the column marked c is {x} = r + c.")
            }
            None => format!("Columns are {x}; the row holds the Grundy values G({x})."),
        }
    }

    /// A LaTeX `tabular` in the text table's layout; blanked cells are `\blank` (an
    /// empty box) in the exercise and `\answer{v}` (bold) in the answers. Needs the
    /// two macros of [`LATEX_MACROS`].
    pub fn latex_tabular(&self, answers: bool) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "\\begin{{tabular}}{{r|{}}}", "r".repeat(self.nx));
        let corner = latex_escape(&self.corner()).replace(r"\textbackslash{}", r"\backslash ");
        let _ = write!(s, "${corner}$");
        for x in 0..self.nx {
            let _ = write!(s, " & {x}");
        }
        s.push_str(" \\\\ \\hline\n");
        for y in 0..self.ny {
            s.push_str(&self.row_label(y));
            for x in 0..self.nx {
                let i = y * self.nx + x;
                let v = self.cells[i];
                s.push_str(" & ");
                if v == PAD {
                    // past the end of a wrapped strip: nothing
                } else if v == INVALID {
                    s.push('.');
                } else if self.blanks.is_blank(i) {
                    if answers {
                        let _ = write!(s, "\\answer{{{v}}}");
                    } else {
                        s.push_str("\\blank");
                    }
                } else {
                    let _ = write!(s, "{v}");
                }
            }
            s.push_str(" \\\\\n");
        }
        s.push_str("\\end{tabular}\n");
        s
    }

    /// A TikZ picture: a grid of cells sized to fit an A4 page, x across, y down
    /// (y = 0 on top), numbers along the top and the left; blanked cells framed and
    /// empty (exercise) or bold on grey (answers).
    pub fn latex_tikz(&self, answers: bool) -> String {
        let (side, font) = printed_cell(self.nx, self.ny);
        let mut s = String::new();
        let _ = writeln!(
            s,
            "\\begin{{tikzpicture}}[x={side:.2}mm,y=-{side:.2}mm,every node/.style={{font={font}}}]"
        );
        for y in 0..self.ny {
            for x in 0..self.nx {
                let i = y * self.nx + x;
                let v = self.cells[i];
                let (cx, cy) = (x as f64 + 0.5, y as f64 + 0.5);
                if v == PAD {
                    continue;
                }
                if v == INVALID {
                    let _ = writeln!(s, "\\fill[gray!40] ({x},{y}) rectangle +(1,1);");
                } else if self.blanks.is_blank(i) {
                    if answers {
                        let _ = writeln!(s, "\\fill[gray!25] ({x},{y}) rectangle +(1,1);");
                        let _ = writeln!(s, "\\node at ({cx},{cy}) {{\\textbf{{{v}}}}};");
                    } else {
                        // A box to write in, inside the cell.
                        let _ = writeln!(
                            s,
                            "\\draw[thick] ({}.12,{}.12) rectangle +(0.76,0.76);",
                            x, y
                        );
                    }
                } else {
                    let _ = writeln!(s, "\\node at ({cx},{cy}) {{{v}}};");
                }
            }
        }
        // The grid in the picture's own units (TikZ's `grid` steps in centimetres).
        let real = |y: usize| {
            (0..self.nx)
                .filter(|&x| self.cells[y * self.nx + x] != PAD)
                .count()
        };
        for y in 0..=self.ny {
            // A horizontal line as long as the longer of the rows it separates.
            let above = if y > 0 { real(y - 1) } else { 0 };
            let below = if y < self.ny { real(y) } else { 0 };
            let _ = writeln!(s, "\\draw[gray] (0,{y}) -- ({},{y});", above.max(below));
        }
        for x in 0..=self.nx {
            // A vertical line down to the last row that has a cell on either side.
            let depth = (0..self.ny)
                .filter(|&y| {
                    (x > 0 && self.cells[y * self.nx + x - 1] != PAD)
                        || (x < self.nx && self.cells[y * self.nx + x] != PAD)
                })
                .count();
            let _ = writeln!(s, "\\draw[gray] ({x},0) -- ({x},{depth});");
        }
        for x in 0..self.nx {
            let _ = writeln!(s, "\\node[above] at ({}.5,0) {{{x}}};", x);
        }
        for y in 0..self.ny {
            let _ = writeln!(
                s,
                "\\node[left] at (0,{}.5) {{{}}};",
                y,
                latex_escape(&self.row_label(y))
            );
        }
        let x_name = latex_escape(&self.x_name);
        let _ = writeln!(
            s,
            "\\node[above] at ({}.5,-0.9) {{${x_name}\\rightarrow$}};",
            self.nx / 2
        );
        if let Some(y) = &self.y_name {
            let _ = writeln!(
                s,
                "\\node[left,rotate=90,anchor=south] at (-1.2,{}.5) {{${}\\rightarrow$}};",
                self.ny / 2,
                latex_escape(y)
            );
        }
        s.push_str("\\end{tikzpicture}\n");
        s
    }

    /// A whole LaTeX document on A4: a title, a line for the name and the date, the
    /// game's rules, the exercise, then the answers on a new page; `tikz` draws TikZ
    /// pictures (package tikz), else tabulars scaled down to fit the page when they
    /// are larger (package graphicx). Both packages come with every LaTeX installation.
    pub fn latex_document(&self, tikz: bool) -> String {
        let (_, font) = printed_cell(self.nx, self.ny);
        let body = |answers| {
            if tikz {
                format!(
                    "\\begin{{center}}\n{}\\end{{center}}\n",
                    self.latex_tikz(answers)
                )
            } else {
                // Set the tabular in a box, then scale it to the text width and to
                // most of the page's height when it is larger.
                format!(
                    "\\begin{{center}}{font}\n\\sbox{{\\sheet}}{{{tab}\\unskip}}%\n\
                     \\ifdim\\wd\\sheet>\\linewidth\\sbox{{\\sheet}}{{\\resizebox{{\\linewidth}}{{!}}{{\\usebox{{\\sheet}}}}}}\\fi\n\
                     \\ifdim\\dimexpr\\ht\\sheet+\\dp\\sheet\\relax>0.72\\textheight\\sbox{{\\sheet}}{{\\resizebox*{{!}}{{0.72\\textheight}}{{\\usebox{{\\sheet}}}}}}\\fi\n\
                     \\usebox{{\\sheet}}\n\\end{{center}}\n",
                    // The tabular as `latex` prints it; \unskip drops the space its
                    // last line break would leave in the box.
                    tab = self.latex_tabular(answers)
                )
            }
        };
        let title = latex_escape(&self.title);
        let rules = self
            .rules
            .as_deref()
            .map(|r| format!("\\textbf{{The game.}} {}\n\n", latex_escape(r)))
            .unwrap_or_default();
        format!(
            "\\documentclass[11pt,a4paper]{{article}}\n\\usepackage[margin=15mm]{{geometry}}\n\
             \\usepackage{{graphicx}}\n{pkg}{LATEX_MACROS}\\newsavebox{{\\sheet}}\n\
             \\renewcommand{{\\arraystretch}}{{1.6}}\n\\setlength{{\\tabcolsep}}{{3pt}}\n\
             \\pagestyle{{empty}}\n\\begin{{document}}\n\
             \\section*{{Grundy values: {title}}}\n\
             Name: \\makebox[7cm]{{\\hrulefill}} \\hfill Date: \\makebox[4cm]{{\\hrulefill}}\n\n\\medskip\n\
             {rules}Fill in the {count} empty cells: the Grundy value of a position is the least \
             value that none of its options has (the mex). {layout}\n\n\
             \\medskip\n{ex}\\newpage\n\\section*{{Answers: {title}}}\n{ans}\\end{{document}}\n",
            pkg = if tikz { "\\usepackage{tikz}\n" } else { "" },
            count = self.blanks.count(),
            layout = self.layout_words(),
            ex = body(false),
            ans = body(true),
        )
    }

    /// An SVG picture in the same layout (y = 0 on top, numbers along the top and the
    /// left); blanked cells empty with a dashed frame (exercise) or bold on yellow
    /// (answers).
    pub fn svg(&self, answers: bool) -> String {
        const CELL: usize = 28;
        const LEFT: usize = 44;
        const TOP: usize = 52;
        // The legend's line under the table: what the boxes and colours mean.
        const LEGEND: usize = 30;
        let width = (LEFT + self.nx * CELL + 10).max(LEFT + 420);
        let height = TOP + self.ny * CELL + 10 + LEGEND;
        let mut s = String::new();
        let _ = writeln!(
            s,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
             viewBox=\"0 0 {width} {height}\" font-family=\"sans-serif\" font-size=\"13\" \
             role=\"img\" aria-label=\"{} Grundy table{}\">",
            xml_escape(&self.title),
            if answers { ", answers" } else { "" }
        );
        let _ = writeln!(
            s,
            "<rect width=\"{width}\" height=\"{height}\" fill=\"#fff\"/>"
        );
        let _ = writeln!(
            s,
            "<text x=\"4\" y=\"16\" font-weight=\"bold\">{}{}</text>",
            xml_escape(&self.title),
            if answers { " — answers" } else { "" }
        );
        let _ = writeln!(
            s,
            "<text x=\"{}\" y=\"30\" text-anchor=\"middle\" fill=\"#444\">{} →</text>",
            LEFT + self.nx * CELL / 2,
            xml_escape(&self.x_name)
        );
        if let Some(y) = &self.y_name {
            let cy = TOP + self.ny * CELL / 2;
            let _ = writeln!(
                s,
                "<text x=\"12\" y=\"{cy}\" text-anchor=\"middle\" fill=\"#444\" \
                 transform=\"rotate(90 12 {cy})\">{} →</text>",
                xml_escape(y)
            );
        }
        for x in 0..self.nx {
            let _ = writeln!(
                s,
                "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" fill=\"#444\">{x}</text>",
                LEFT + x * CELL + CELL / 2,
                TOP - 6
            );
        }
        for y in 0..self.ny {
            let _ = writeln!(
                s,
                "<text x=\"{}\" y=\"{}\" text-anchor=\"end\" fill=\"#444\">{}</text>",
                LEFT - 6,
                TOP + y * CELL + CELL / 2 + 5,
                xml_escape(&self.row_label(y))
            );
        }
        for y in 0..self.ny {
            for x in 0..self.nx {
                let i = y * self.nx + x;
                let v = self.cells[i];
                if v == PAD {
                    continue;
                }
                let (px, py) = (LEFT + x * CELL, TOP + y * CELL);
                let blank = self.blanks.is_blank(i);
                let fill = if v == INVALID {
                    "#ccc"
                } else if blank && answers {
                    "#ffe9a8"
                } else {
                    "#fff"
                };
                let dash = if blank && !answers {
                    " stroke-dasharray=\"3 2\""
                } else {
                    ""
                };
                let _ = writeln!(
                    s,
                    "<rect x=\"{px}\" y=\"{py}\" width=\"{CELL}\" height=\"{CELL}\" fill=\"{fill}\" stroke=\"#888\"{dash} data-cell=\"{x},{y}\"/>"
                );
                if v != INVALID && (!blank || answers) {
                    let _ = writeln!(
                        s,
                        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\"{}>{v}</text>",
                        px + CELL / 2,
                        py + CELL / 2 + 5,
                        if blank { " font-weight=\"bold\"" } else { "" }
                    );
                }
            }
        }
        self.svg_legend(&mut s, answers, TOP + self.ny * CELL + 14, LEFT);
        s.push_str("</svg>\n");
        s
    }

    /// The legend under the SVG table, from `x` on the line at `y`: the blank cells
    /// (dashed, to fill in; yellow with the answer in bold) and, when the table has any,
    /// the grey cells that are not positions.
    fn svg_legend(&self, s: &mut String, answers: bool, y: usize, x: usize) {
        let _ = writeln!(s, "<g class=\"legend\" font-size=\"12\" fill=\"#333\">");
        let mut at = x;
        let mut entry = |s: &mut String, fill: &str, dash: &str, label: &str| {
            let _ = writeln!(
                s,
                "<rect x=\"{at}\" y=\"{y}\" width=\"14\" height=\"14\" fill=\"{fill}\" stroke=\"#888\"{dash}/>\
                 <text x=\"{}\" y=\"{}\">{label}</text>",
                at + 19,
                y + 12
            );
            at += 19 + 7 * label.len() + 16;
        };
        if answers {
            entry(s, "#ffe9a8", "", "answer (bold)");
        } else {
            entry(s, "#fff", " stroke-dasharray=\"3 2\"", "write the value");
        }
        if self.cells.contains(&INVALID) {
            entry(s, "#ccc", "", "not a position");
        }
        let _ = writeln!(s, "</g>");
    }
}

/// The two macros a worksheet's tabular uses: `\blank` (an empty box to write in) and
/// `\answer{v}` (a filled-in answer, bold).
pub const LATEX_MACROS: &str = "\\providecommand{\\blank}{\\framebox[1.6em]{\\rule{0pt}{1.1em}}}\n\
                                \\providecommand{\\answer}[1]{\\textbf{#1}}\n";
