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

/// Colour of a cell that is not a position.
const NOT_A_POSITION_RGB: [u8; 3] = [128, 128, 128];

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
    let width = w32 as usize;
    let max = table.max_value();
    let mut encoder = png::Encoder::new(out, w32, h32);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    encoder
        .add_text_chunk(
            "Description".into(),
            format!("Grundy values, 0 (dark blue) to {max} (yellow); grey = not a position"),
        )
        .map_err(io_error)?;
    let mut writer = encoder.write_header().map_err(io_error)?;
    let mut stream = writer.stream_writer_with_size(1 << 20).map_err(io_error)?;
    let mut line = Vec::with_capacity(3 * width);
    for row in table.values().chunks(width.max(1)) {
        line.clear();
        for &v in row {
            line.extend_from_slice(&heat_colour(v, max));
        }
        stream.write_all(&line)?;
    }
    stream.finish().map_err(io_error)?;
    writer.finish().map_err(io_error)
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
    fn heat_scale_runs_from_dark_to_yellow() {
        assert_eq!(heat_colour(0, 10), [68, 1, 84]);
        assert_eq!(heat_colour(10, 10), [253, 231, 37]);
        assert_eq!(heat_colour(0, 0), [68, 1, 84]);
        assert_eq!(heat_colour(INVALID, 10), NOT_A_POSITION_RGB);
    }
}
