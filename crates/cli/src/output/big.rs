//! Big outputs of `nimlab table`: a NumPy `.npy` array and a PNG heatmap (binary: they
//! go to a file, or to standard output with `-o -`).

use nimlab_engine::{Error, GrundyTable, Result, INVALID};
use std::io::{self, Write};

/// The value stored in a `.npy` file for a cell that is not a position: 2³² − 1, the
/// largest `<u4` (`numpy.iinfo(numpy.uint32).max`).
pub const NPY_NOT_A_POSITION: u32 = INVALID;

/// The header of a NumPy format 1.0 file holding a C-ordered little-endian `uint32` array
/// of `shape`: magic, version, header length, the dict, padded with spaces and a newline
/// so the data starts at a multiple of 64 bytes.
pub fn npy_header(shape: &[usize]) -> Vec<u8> {
    let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
    let shape_text = if dims.len() == 1 {
        format!("({},)", dims[0])
    } else {
        format!("({})", dims.join(", "))
    };
    let mut dict = format!("{{'descr': '<u4', 'fortran_order': False, 'shape': {shape_text}, }}");
    // 6 magic + 2 version + 2 length bytes, then the dict and its final newline.
    let total = (10 + dict.len() + 1).div_ceil(64) * 64;
    while 10 + dict.len() + 1 < total {
        dict.push(' ');
    }
    dict.push('\n');
    let mut out = b"\x93NUMPY\x01\x00".to_vec();
    out.extend_from_slice(&(dict.len() as u16).to_le_bytes());
    out.extend_from_slice(dict.as_bytes());
    out
}

/// Writes `table` as a `.npy` file: shape (d_{m−1}, …, d₁, d₀), so `values[y][x]` for two
/// coordinates; dtype `<u4`; [`NPY_NOT_A_POSITION`] marks cells that are not positions.
pub fn write_npy(table: &GrundyTable, out: &mut dyn Write) -> io::Result<()> {
    let shape: Vec<usize> = table.dims().iter().rev().copied().collect();
    out.write_all(&npy_header(&shape))?;
    // The table is stored first coordinate fastest: exactly NumPy's C order here.
    let mut buffer = Vec::with_capacity(1 << 16);
    for chunk in table.values().chunks(1 << 14) {
        buffer.clear();
        for &v in chunk {
            let stored = if v == INVALID { NPY_NOT_A_POSITION } else { v };
            buffer.extend_from_slice(&stored.to_le_bytes());
        }
        out.write_all(&buffer)?;
    }
    Ok(())
}

/// Colour stops of the heatmap scale (viridis-like: dark blue for 0, through teal and
/// green, to yellow for the largest value).
const SCALE: [[f64; 3]; 5] = [
    [68.0, 1.0, 84.0],
    [59.0, 82.0, 139.0],
    [33.0, 145.0, 140.0],
    [94.0, 201.0, 98.0],
    [253.0, 231.0, 37.0],
];

/// Colour of a cell that is not a position, on every picture (heatmaps and classes).
pub const NOT_A_POSITION_RGB: [u8; 3] = [128, 128, 128];

/// The heatmap colour of value `v` on a scale from 0 to `max`.
pub fn heat_colour(v: u32, max: u32) -> [u8; 3] {
    if v == INVALID {
        return NOT_A_POSITION_RGB;
    }
    let f = if max == 0 { 0.0 } else { v as f64 / max as f64 };
    let pos = f.clamp(0.0, 1.0) * (SCALE.len() - 1) as f64;
    let i = (pos.floor() as usize).min(SCALE.len() - 2);
    let t = pos - i as f64;
    let mut rgb = [0u8; 3];
    for (c, out) in rgb.iter_mut().enumerate() {
        *out = (SCALE[i][c] + t * (SCALE[i + 1][c] - SCALE[i][c])).round() as u8;
    }
    rgb
}

/// Width and height of the heatmap of `table`, or why it cannot be drawn.
pub fn png_size(table: &GrundyTable) -> Result<(u32, u32)> {
    let dims = table.dims();
    let (width, height) = match dims {
        [w] => (*w, 1),
        [w, h] => (*w, *h),
        _ => {
            return Err(Error::input(format!(
                "png needs a table of one or two coordinates, this one has {} (use npy)",
                dims.len()
            )))
        }
    };
    let too_big = || {
        Error::input(format!(
            "a png is at most 2^31 − 1 pixels wide and high; table is {width}x{height} (use npy)"
        ))
    };
    let w32 = u32::try_from(width)
        .ok()
        .filter(|&w| w < 1 << 31)
        .ok_or_else(too_big)?;
    let h32 = u32::try_from(height)
        .ok()
        .filter(|&h| h < 1 << 31)
        .ok_or_else(too_big)?;
    Ok((w32, h32))
}

/// A PNG encoder's error as an I/O error (the writer's own error when it is one).
fn io_error(e: png::EncodingError) -> io::Error {
    match e {
        png::EncodingError::IoError(e) => e,
        other => io::Error::other(other.to_string()),
    }
}

/// Writes a two-coordinate `table` as a PNG heatmap, one pixel per cell: column x, row y
/// (y = 0 at the top, as the papers print tables); colour from dark blue (0) to yellow
/// (the table's largest value); grey for non-positions. One-coordinate tables make one
/// row of pixels. `(w32, h32)` is [`png_size`].
pub fn write_png(table: &GrundyTable, w32: u32, h32: u32, out: &mut dyn Write) -> io::Result<()> {
    let max = table.max_value();
    write_cells_png(
        table,
        (w32, h32),
        format!("Grundy values, 0 (dark blue) to {max} (yellow); grey = not a position"),
        |v| heat_colour(v, max),
        out,
    )
}

/// Writes `table` as a PNG of `(w32, h32)` pixels ([`png_size`]), one per cell in the
/// table's order, each the `colour` of its value, streamed row by row; `description`
/// says what the colours mean.
pub fn write_cells_png(
    table: &GrundyTable,
    (w32, h32): (u32, u32),
    description: String,
    colour: impl Fn(u32) -> [u8; 3],
    out: &mut dyn Write,
) -> io::Result<()> {
    let width = w32 as usize;
    let mut encoder = png::Encoder::new(out, w32, h32);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    encoder
        .add_text_chunk("Description".into(), description)
        .map_err(io_error)?;
    let mut writer = encoder.write_header().map_err(io_error)?;
    let mut stream = writer.stream_writer_with_size(1 << 20).map_err(io_error)?;
    let mut line = Vec::with_capacity(3 * width);
    for row in table.values().chunks(width.max(1)) {
        line.clear();
        for &v in row {
            line.extend_from_slice(&colour(v));
        }
        stream.write_all(&line)?;
    }
    stream.finish().map_err(io_error)?;
    writer.finish().map_err(io_error)
}

/// Most pixels of a heatmap drawn as a figure (axes, legend); a larger table is written
/// one pixel per cell by [`write_png`], streamed row by row.
pub const MAX_FIGURE_PIXELS: usize = 1 << 26;

/// The default pixels per cell of a heatmap: the least whole number that makes the
/// table's longer side at least 384 pixels (a 64 × 64 table: 6), 1 from 384 cells on.
pub fn default_scale(table: &GrundyTable) -> u32 {
    let longest = table.dims().iter().copied().max().unwrap_or(1).max(1);
    384usize.div_ceil(longest).max(1) as u32
}

/// The figure's layout: margins left (row labels), top (column labels and the axis
/// names) and right (the legend), and its width and height in pixels.
struct Layout {
    left: usize,
    top: usize,
    width: usize,
    height: usize,
}

/// Rows of the legend at most: five values and non-positions.
const LEGEND_ROWS: usize = 6;

fn layout(cols: usize, rows: usize, s: usize) -> Layout {
    let left = 8 * rows.saturating_sub(1).to_string().len() + 30;
    let top = 36;
    let right = 8 * "G = 4294967295 (P-position)".len() + 30;
    Layout {
        left,
        top,
        width: left + cols * s + right,
        height: top + (rows * s).max(LEGEND_ROWS * 14) + 8,
    }
}

/// Whether a heatmap figure of `table` at `scale` pixels per cell fits in
/// [`MAX_FIGURE_PIXELS`]; the error says what to lower.
pub fn check_figure(table: &GrundyTable, scale: u32) -> Result<()> {
    let (w32, h32) = png_size(table)?;
    let l = layout(w32 as usize, h32 as usize, scale.max(1) as usize);
    if l.width.saturating_mul(l.height) > MAX_FIGURE_PIXELS {
        return Err(Error::input(format!(
            "a {w32}x{h32} table at --scale {scale} is a figure of {}x{} pixels, more than \
             {MAX_FIGURE_PIXELS}: lower --scale or --size",
            l.width, l.height
        )));
    }
    Ok(())
}

/// The label step of an axis: the least of 1, 2, 5, 10, 20, 50, … whose labels (of
/// `digits` characters, 8 pixels each) are apart by their width and more.
fn label_step(digits: usize, cell: usize) -> usize {
    let need = 8 * digits + 6;
    let mut base = 1usize;
    loop {
        for m in [1, 2, 5] {
            if base * m * cell >= need {
                return base * m;
            }
        }
        base *= 10;
    }
}

/// Writes a one- or two-coordinate table as a PNG figure: `scale` pixels per cell, the
/// columns numbered along the top and the rows down the left (y = 0 on top, as every
/// nimlab table), a frame, and a legend of the colour scale (0, a few values up to the
/// largest, and grey for non-positions) at the right. [`check_figure`] first.
pub fn write_png_figure(
    table: &GrundyTable,
    names: &[String],
    scale: u32,
    out: &mut dyn Write,
) -> io::Result<()> {
    use crate::picture::{palette, Anchor, Item, Rgb, Scene};
    let (w32, h32) = png_size(table).map_err(|e| io::Error::other(e.to_string()))?;
    let (width, height, s) = (w32 as usize, h32 as usize, scale.max(1) as usize);
    let Layout {
        left,
        top,
        width: fig_w,
        height: fig_h,
    } = layout(width, height, s);
    let max = table.max_value();
    let rgb = |c: [u8; 3]| Rgb(c[0], c[1], c[2]);
    let mut items = Vec::new();
    let text = |at: (f64, f64), anchor: Anchor, text: String| Item::Text {
        at,
        size: 10.0,
        anchor,
        text,
        fill: palette::INK,
    };
    let kx = label_step(width.saturating_sub(1).to_string().len(), s);
    for x in (0..width).step_by(kx) {
        let cx = (left + x * s) as f64 + s as f64 / 2.0;
        items.push(text((cx, top as f64 - 6.0), Anchor::Middle, x.to_string()));
    }
    let x_name = names.first().map_or("x", String::as_str);
    items.push(text(
        ((left + width * s) as f64, 12.0),
        Anchor::End,
        format!("{x_name} ->"),
    ));
    if table.dims().len() == 2 {
        // Rows are 10 pixels of text high, whatever their digits.
        let ky = label_step(1, s);
        for y in (0..height).step_by(ky) {
            let cy = (top + y * s) as f64 + s as f64 / 2.0 + 4.0;
            items.push(text((left as f64 - 6.0, cy), Anchor::End, y.to_string()));
        }
        let y_name = names.get(1).map_or("y", String::as_str);
        items.push(text((4.0, 12.0), Anchor::Start, format!("{y_name} v")));
    }
    items.push(Item::Rect {
        x: left as f64 - 1.0,
        y: top as f64 - 1.0,
        w: (width * s) as f64 + 2.0,
        h: (height * s) as f64 + 2.0,
        fill: palette::PAPER,
        stroke: Some(palette::INK),
        class: "frame",
    });
    // The legend: 0, four more values up to the largest, and non-positions.
    let lx = (left + width * s + 16) as f64;
    let mut values: Vec<u32> = (0..=4).map(|i| (max as u64 * i / 4) as u32).collect();
    values.dedup();
    let mut entries: Vec<(String, [u8; 3])> = values
        .iter()
        .map(|&v| {
            let what = if v == 0 { " (P-position)" } else { "" };
            (format!("G = {v}{what}"), heat_colour(v, max))
        })
        .collect();
    if table.values().contains(&INVALID) {
        entries.push(("not a position".to_string(), NOT_A_POSITION_RGB));
    }
    for (i, (label, colour)) in entries.iter().enumerate() {
        let y = (top + i * 14) as f64;
        items.push(Item::Rect {
            x: lx,
            y,
            w: 10.0,
            h: 10.0,
            fill: rgb(*colour),
            stroke: Some(palette::INK),
            class: "legend",
        });
        items.push(text((lx + 14.0, y + 9.0), Anchor::Start, label.clone()));
    }
    let scene = Scene {
        width: fig_w as f64,
        height: fig_h as f64,
        title: format!("Grundy values, 0 (dark blue) to {max} (yellow); grey = not a position; {scale} pixels per cell"),
        items,
    };
    let mut canvas = crate::picture::raster::rasterize(&scene);
    for (y, row) in table.values().chunks(width.max(1)).enumerate() {
        for (x, &v) in row.iter().enumerate() {
            let c = heat_colour(v, max);
            for py in top + y * s..top + (y + 1) * s {
                let start = (py * fig_w + left + x * s) * 3;
                for px in 0..s {
                    canvas.pixels[start + 3 * px..start + 3 * px + 3].copy_from_slice(&c);
                }
            }
        }
    }
    crate::picture::raster::write_canvas_png(&canvas, &scene.title, out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn npy_header_is_aligned_and_parsable() {
        let h = npy_header(&[3, 5]);
        assert_eq!(h.len() % 64, 0);
        assert_eq!(&h[..8], b"\x93NUMPY\x01\x00");
        let len = u16::from_le_bytes([h[8], h[9]]) as usize;
        assert_eq!(len + 10, h.len());
        let dict = std::str::from_utf8(&h[10..]).unwrap();
        assert!(dict.starts_with("{'descr': '<u4', 'fortran_order': False, 'shape': (3, 5), }"));
        assert!(dict.ends_with('\n'));
        assert!(std::str::from_utf8(&npy_header(&[7])[10..])
            .unwrap()
            .contains("'shape': (7,)"));
    }

    #[test]
    fn npy_marks_non_positions() {
        let table = GrundyTable::from_parts(vec![2, 1], vec![7, INVALID]).unwrap();
        let mut bytes = Vec::new();
        write_npy(&table, &mut bytes).unwrap();
        let start = npy_header(&[1, 2]).len();
        assert_eq!(bytes.len(), start + 8);
        assert_eq!(&bytes[start..], &[7, 0, 0, 0, 255, 255, 255, 255]);
    }

    #[test]
    fn a_64_table_is_a_figure_of_384_pixels_or_more_with_axes_and_a_legend() {
        let table =
            GrundyTable::from_parts(vec![64, 64], (0..64 * 64).map(|i| i % 7).collect()).unwrap();
        assert_eq!(default_scale(&table), 6);
        check_figure(&table, 6).unwrap();
        let mut bytes = Vec::new();
        let names = ["x".to_string(), "y".to_string()];
        write_png_figure(&table, &names, 6, &mut bytes).unwrap();
        let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
        let mut reader = decoder.read_info().unwrap();
        let mut pixels = vec![0; reader.output_buffer_size()];
        let info = reader.next_frame(&mut pixels).unwrap();
        let l = layout(64, 64, 6);
        assert_eq!(
            (info.width as usize, info.height as usize),
            (l.width, l.height)
        );
        assert!(info.width >= 384 + 64 && info.height >= 384);
        let at = |x: usize, y: usize| {
            let i = (y * l.width + x) * 3;
            [pixels[i], pixels[i + 1], pixels[i + 2]]
        };
        // Cell (3, 0) holds 3: its colour fills its 6 × 6 pixels.
        assert_eq!(at(l.left + 3 * 6 + 2, l.top + 2), heat_colour(3, 6));
        // Ink in the margins: the labels of the axes, the legend's swatches.
        let ink = |x0: usize, x1: usize, y0: usize, y1: usize| {
            (y0..y1).any(|y| (x0..x1).any(|x| at(x, y) == [20, 20, 20]))
        };
        assert!(ink(l.left, l.left + 64 * 6, 14, l.top - 2), "column labels");
        assert!(ink(0, l.left - 2, l.top, l.top + 64 * 6), "row labels");
        assert!(
            ink(l.left + 64 * 6 + 2, l.width, l.top, l.top + 80),
            "legend"
        );
        assert_eq!(label_step(2, 6), 5);
        // Too large: refused in one line.
        let big = GrundyTable::from_parts(vec![2048, 2048], vec![0; 2048 * 2048]).unwrap();
        assert!(check_figure(&big, 8)
            .unwrap_err()
            .to_string()
            .contains("lower --scale"));
        assert_eq!(default_scale(&big), 1);
    }

    #[test]
    fn heat_scale_runs_from_dark_to_yellow() {
        assert_eq!(heat_colour(0, 10), [68, 1, 84]);
        assert_eq!(heat_colour(10, 10), [253, 231, 37]);
        assert_eq!(heat_colour(0, 0), [68, 1, 84]);
        assert_eq!(heat_colour(INVALID, 10), NOT_A_POSITION_RGB);
    }
}
