//! Scenes as pixels: rectangles, lines and discs filled here, text in the 8×8 bitmap
//! font of `font8x8` (scaled by whole pixels), encoded as PNG by the `png` crate.

use super::{Anchor, Item, Rgb, Scene};
use std::io::{self, Write};

/// An RGB pixel buffer.
pub struct Canvas {
    pub width: usize,
    pub height: usize,
    pub pixels: Vec<u8>,
}

impl Canvas {
    fn new(width: usize, height: usize, paper: Rgb) -> Self {
        let mut pixels = Vec::with_capacity(width * height * 3);
        for _ in 0..width * height {
            pixels.extend_from_slice(&[paper.0, paper.1, paper.2]);
        }
        Canvas {
            width,
            height,
            pixels,
        }
    }

    fn put(&mut self, x: i64, y: i64, c: Rgb) {
        if x < 0 || y < 0 || x >= self.width as i64 || y >= self.height as i64 {
            return;
        }
        let i = (y as usize * self.width + x as usize) * 3;
        self.pixels[i..i + 3].copy_from_slice(&[c.0, c.1, c.2]);
    }

    /// Fills the pixels whose centres lie in [x0, x1) × [y0, y1).
    fn fill(&mut self, x0: f64, y0: f64, x1: f64, y1: f64, c: Rgb) {
        let (xa, xb) = (x0.round() as i64, x1.round() as i64);
        let (ya, yb) = (y0.round() as i64, y1.round() as i64);
        for y in ya..yb {
            for x in xa..xb {
                self.put(x, y, c);
            }
        }
    }

    /// A line of the given width: the pixels within width/2 of the segment.
    fn line(&mut self, from: (f64, f64), to: (f64, f64), width: f64, dashed: bool, c: Rgb) {
        let half = (width / 2.0).max(0.5);
        let (dx, dy) = (to.0 - from.0, to.1 - from.1);
        let len2 = dx * dx + dy * dy;
        let len = len2.sqrt();
        let xa = (from.0.min(to.0) - half).floor() as i64;
        let xb = (from.0.max(to.0) + half).ceil() as i64;
        let ya = (from.1.min(to.1) - half).floor() as i64;
        let yb = (from.1.max(to.1) + half).ceil() as i64;
        for y in ya..=yb {
            for x in xa..=xb {
                let (px, py) = (x as f64 + 0.5, y as f64 + 0.5);
                let t = if len2 == 0.0 {
                    0.0
                } else {
                    (((px - from.0) * dx + (py - from.1) * dy) / len2).clamp(0.0, 1.0)
                };
                let (qx, qy) = (from.0 + t * dx, from.1 + t * dy);
                let d2 = (px - qx).powi(2) + (py - qy).powi(2);
                // Dashes as in the SVG: 6 on, 4 off.
                if d2 <= half * half && (!dashed || (t * len) % 10.0 < 6.0) {
                    self.put(x, y, c);
                }
            }
        }
    }

    fn disc(&mut self, centre: (f64, f64), r: f64, fill: Option<Rgb>, stroke: Rgb) {
        let (xa, xb) = ((centre.0 - r - 2.0) as i64, (centre.0 + r + 2.0) as i64);
        let (ya, yb) = ((centre.1 - r - 2.0) as i64, (centre.1 + r + 2.0) as i64);
        for y in ya..=yb {
            for x in xa..=xb {
                let d = ((x as f64 + 0.5 - centre.0).powi(2) + (y as f64 + 0.5 - centre.1).powi(2))
                    .sqrt();
                if (d - r).abs() <= 1.0 {
                    self.put(x, y, stroke);
                } else if d < r
                    && let Some(f) = fill
                {
                    self.put(x, y, f);
                }
            }
        }
    }

    fn text(&mut self, at: (f64, f64), size: f64, anchor: Anchor, text: &str, c: Rgb) {
        let scale = ((size / 10.0).round() as i64).max(1);
        let advance = 8 * scale;
        let width = advance * text.chars().count() as i64;
        let left = match anchor {
            Anchor::Start => at.0 as i64,
            Anchor::Middle => at.0 as i64 - width / 2,
            Anchor::End => at.0 as i64 - width,
        };
        // The glyphs' baseline is their seventh row.
        let top = at.1 as i64 - 7 * scale;
        for (i, ch) in text.chars().enumerate() {
            let glyph = font8x8::legacy::BASIC_LEGACY
                .get(ch as usize)
                .copied()
                .unwrap_or([0x7e, 0x42, 0x42, 0x42, 0x42, 0x42, 0x7e, 0]);
            for (row, bits) in glyph.iter().enumerate() {
                for col in 0..8 {
                    if bits >> col & 1 == 1 {
                        for sy in 0..scale {
                            for sx in 0..scale {
                                self.put(
                                    left + i as i64 * advance + col * scale + sx,
                                    top + row as i64 * scale + sy,
                                    c,
                                );
                            }
                        }
                    }
                }
            }
        }
    }
}

/// Draws the scene into pixels.
pub fn rasterize(scene: &Scene) -> Canvas {
    let mut canvas = Canvas::new(
        scene.width.ceil() as usize,
        scene.height.ceil() as usize,
        super::palette::PAPER,
    );
    for item in &scene.items {
        match item {
            Item::Rect {
                x,
                y,
                w,
                h,
                fill,
                stroke,
                ..
            } => {
                canvas.fill(*x, *y, x + w, y + h, *fill);
                if let Some(s) = stroke {
                    canvas.fill(*x, *y, x + w, y + 1.0, *s);
                    canvas.fill(*x, y + h - 1.0, x + w, y + h, *s);
                    canvas.fill(*x, *y, x + 1.0, y + h, *s);
                    canvas.fill(x + w - 1.0, *y, x + w, y + h, *s);
                }
            }
            Item::Line {
                from,
                to,
                stroke,
                width,
                dashed,
                ..
            } => canvas.line(*from, *to, *width, *dashed, *stroke),
            Item::Disc {
                centre,
                radius,
                fill,
                stroke,
                ..
            } => canvas.disc(*centre, *radius, *fill, *stroke),
            Item::Text {
                at,
                size,
                anchor,
                text,
                fill,
            } => canvas.text(*at, *size, *anchor, text, *fill),
        }
    }
    canvas
}

/// The scene as a PNG file.
pub fn write_png(scene: &Scene, out: &mut dyn Write) -> io::Result<()> {
    write_canvas_png(&rasterize(scene), &scene.title, out)
}

/// Pixels as a PNG file, `title` in its text chunk.
pub fn write_canvas_png(canvas: &Canvas, title: &str, out: &mut dyn Write) -> io::Result<()> {
    let err = |e: png::EncodingError| io::Error::other(e.to_string());
    let mut encoder = png::Encoder::new(out, canvas.width as u32, canvas.height as u32);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    encoder
        .add_text_chunk("Title".into(), title.to_string())
        .map_err(err)?;
    let mut writer = encoder.write_header().map_err(err)?;
    writer.write_image_data(&canvas.pixels).map_err(err)?;
    writer.finish().map_err(err)
}
