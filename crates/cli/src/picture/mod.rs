//! Pictures of positions: a small scene of rectangles, lines, discs and text, built
//! from what the game library says (a chocolate bar's squares, a board's P-positions)
//! and written as SVG (by hand), PNG (rasterized here, encoded by the `png` crate, text
//! in the `font8x8` bitmap font) or a text drawing for the terminal.

pub mod raster;
pub mod scenes;
pub mod svg;
pub mod text;

/// An RGB colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rgb(pub u8, pub u8, pub u8);

impl Rgb {
    /// `#rrggbb`.
    pub fn hex(self) -> String {
        format!("#{:02x}{:02x}{:02x}", self.0, self.1, self.2)
    }
}

/// Colours of the pictures (also what the PNG tests sample).
pub mod palette {
    use super::Rgb;
    /// Background.
    pub const PAPER: Rgb = Rgb(255, 255, 255);
    /// A chocolate square.
    pub const CHOCOLATE: Rgb = Rgb(123, 74, 35);
    /// The grid lines between squares.
    pub const GROOVE: Rgb = Rgb(74, 44, 18);
    /// The bitter square.
    pub const BITTER: Rgb = Rgb(178, 34, 34);
    /// A square eaten by the move shown.
    pub const EATEN: Rgb = Rgb(232, 220, 200);
    /// The staircase outline given by f.
    pub const OUTLINE: Rgb = Rgb(31, 95, 191);
    /// Text.
    pub const INK: Rgb = Rgb(20, 20, 20);
    /// A board's grid.
    pub const GRID: Rgb = Rgb(170, 170, 170);
    /// A P-position on a board.
    pub const P_POSITION: Rgb = Rgb(120, 200, 120);
    /// The piece.
    pub const PIECE: Rgb = Rgb(30, 30, 120);
    /// The square the move goes to.
    pub const TARGET: Rgb = Rgb(230, 150, 20);
}

/// Where a text's x coordinate sits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Anchor {
    /// x is the left end.
    Start,
    /// x is the middle.
    Middle,
    /// x is the right end.
    End,
}

/// One thing drawn. Coordinates in pixels, y downward; `class` names the role (tests and
/// style sheets read it).
#[derive(Debug, Clone, PartialEq)]
pub enum Item {
    Rect {
        x: f64,
        y: f64,
        w: f64,
        h: f64,
        fill: Rgb,
        stroke: Option<Rgb>,
        class: &'static str,
    },
    Line {
        from: (f64, f64),
        to: (f64, f64),
        stroke: Rgb,
        width: f64,
        dashed: bool,
        class: &'static str,
    },
    Disc {
        centre: (f64, f64),
        radius: f64,
        fill: Option<Rgb>,
        stroke: Rgb,
        class: &'static str,
    },
    Text {
        at: (f64, f64),
        /// Height in pixels (the baseline is at `at.1`).
        size: f64,
        anchor: Anchor,
        text: String,
        fill: Rgb,
    },
}

/// A picture: its size and what is drawn, back to front.
#[derive(Debug, Clone, PartialEq)]
pub struct Scene {
    pub width: f64,
    pub height: f64,
    /// One line describing the picture (SVG title, PNG description).
    pub title: String,
    pub items: Vec<Item>,
}
