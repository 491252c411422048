//! `nimlab table` big outputs (npy, png), the kernel behind it, and refusals.

use crate::common::run as nimlab;
use std::path::PathBuf;
use std::process::{Command, Output};

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("nimlab-test-{}-{name}", std::process::id()))
}

/// `nimlab table wythoff --size SIZE --format FORMAT EXTRA… --output PATH`.
fn wythoff_table_to(path: &str, format: &str, size: &str, extra: &[&str]) -> Output {
    let mut args = vec!["table", "wythoff", "--size", size, "--format", format];
    args.extend(extra);
    args.extend(["--output", path]);
    nimlab(&args)
}

fn assert_success(out: &Output) {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Wythoff's table by the definition, independently of the engine.
fn wythoff_naive(n: usize) -> Vec<Vec<u32>> {
    let mut g = vec![vec![0u32; n]; n];
    for y in 0..n {
        for x in 0..n {
            let mut seen = Vec::new();
            seen.extend((0..x).map(|u| g[y][u]));
            seen.extend((0..y).map(|v| g[v][x]));
            seen.extend((1..=x.min(y)).map(|k| g[y - k][x - k]));
            g[y][x] = (0..).find(|m| !seen.contains(m)).unwrap();
        }
    }
    g
}

/// A table written to a file (computed straight into the mapped file where the route
/// is the line kernel) is byte for byte the one written to standard output (through
/// buffers), for line games, a game of another route, and a file being replaced.
#[test]
fn npy_in_a_mapped_file_equals_npy_written_to_standard_output() {
    let path = temp("mapped.npy");
    let file = path.to_str().unwrap();
    for (game, size) in [
        ("wythoff", "300"),
        ("wythoff", "1"),
        ("wythoff(a=2)", "97"),
        ("ryuoh(p=3)", "130"),
        ("nim", "20"),
        ("subtraction(s={1,3,4})", "50"),
    ] {
        let args = ["table", game, "--size", size, "--format", "npy"];
        let streamed = nimlab(&[&args[..], &["-o", "-"]].concat());
        assert_success(&streamed);
        // Twice: the second run replaces the first file.
        for _ in 0..2 {
            let mapped = nimlab(&[&args[..], &["-o", file]].concat());
            assert_success(&mapped);
            assert_eq!(
                std::fs::read(&path).unwrap(),
                streamed.stdout,
                "{game} --size {size}"
            );
        }
    }
    let _ = std::fs::remove_file(&path);
}

#[test]
fn npy_holds_values_y_x_with_a_numpy_header() {
    let path = temp("w.npy");
    let out = wythoff_table_to(path.to_str().unwrap(), "npy", "40", &[]);
    assert_success(&out);
    assert!(out.stdout.is_empty());
    let bytes = std::fs::read(&path).unwrap();
    let _ = std::fs::remove_file(&path);
    assert_eq!(&bytes[..8], b"\x93NUMPY\x01\x00");
    let header_len = u16::from_le_bytes([bytes[8], bytes[9]]) as usize;
    let data_start = 10 + header_len;
    assert_eq!(data_start % 64, 0);
    let header = std::str::from_utf8(&bytes[10..data_start]).unwrap();
    assert!(header.contains("'descr': '<u4'"), "{header}");
    assert!(header.contains("'fortran_order': False"), "{header}");
    assert!(header.contains("'shape': (40, 40)"), "{header}");
    let data = &bytes[data_start..];
    assert_eq!(data.len(), 40 * 40 * 4);
    let expect = wythoff_naive(40);
    for (y, row) in expect.iter().enumerate() {
        for (x, &g) in row.iter().enumerate() {
            let i = 4 * (x + 40 * y);
            let v = u32::from_le_bytes(data[i..i + 4].try_into().unwrap());
            assert_eq!(v, g, "values[{y}][{x}]");
        }
    }
}

#[test]
fn npy_loads_in_numpy_when_available() {
    let has_numpy = Command::new("python3")
        .args(["-c", "import numpy"])
        .status()
        .is_ok_and(|s| s.success());
    if !has_numpy {
        return; // the header and bytes are checked above
    }
    let path = temp("r.npy");
    let out = nimlab(&[
        "table",
        "ryuoh(p=3)",
        "--size",
        "13",
        "--format",
        "npy",
        "-o",
        path.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    // Table 1 of the Ryuoh paper: G(4, 7) = 11, so values[7][4] == 11.
    let check = format!(
        "import numpy; a = numpy.load('{}'); assert a.shape == (13, 13) and a[7][4] == 11",
        path.display()
    );
    let status = Command::new("python3")
        .args(["-c", &check])
        .status()
        .unwrap();
    let _ = std::fs::remove_file(&path);
    assert!(status.success());
}

#[test]
fn png_is_a_heatmap_with_axes_and_a_legend() {
    let path = temp("w.png");
    let out = wythoff_table_to(path.to_str().unwrap(), "png", "30", &["--scale", "2"]);
    assert_success(&out);
    let decoder = png::Decoder::new(std::fs::File::open(&path).unwrap());
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    let _ = std::fs::remove_file(&path);
    assert_eq!(info.color_type, png::ColorType::Rgb);
    // The figure's margins: 46 pixels for the row labels (two digits), 36 for the
    // column labels; the legend at the right. Cell (x, y) is 2 × 2 pixels.
    let (left, top, width) = (46, 36, info.width as usize);
    assert!(width > left + 60 + 100 && info.height as usize >= top + 60);
    let pixel = |x: usize, y: usize| {
        let i = 3 * (left + 2 * x + 1 + width * (top + 2 * y + 1));
        &buf[i..i + 3]
    };
    let g = wythoff_naive(30);
    let max = g.iter().flatten().copied().max().unwrap();
    // P-positions (value 0) get the dark end of the scale, the largest value the bright end.
    assert_eq!(pixel(3, 5), [68, 1, 84]);
    assert_eq!(pixel(5, 3), [68, 1, 84]);
    let (mx, my) = (0..30)
        .flat_map(|y| (0..30).map(move |x| (x, y)))
        .find(|&(x, y)| g[y][x] == max)
        .unwrap();
    assert_eq!(pixel(mx, my), [253, 231, 37]);
    // Different values, different colours.
    assert_ne!(pixel(1, 0), pixel(29, 29));
}

#[test]
fn binary_formats_need_an_output_file() {
    for format in ["npy", "png"] {
        let out = nimlab(&["table", "wythoff", "--size", "4", "--format", format]);
        assert_eq!(out.status.code(), Some(2));
        assert!(out.stdout.is_empty());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("--output"), "{err}");
        assert_eq!(err.lines().count(), 1);
    }
}

#[test]
fn text_formats_may_go_to_a_file() {
    let path = temp("t.csv");
    let out = wythoff_table_to(path.to_str().unwrap(), "csv", "3", &[]);
    assert!(out.status.success());
    assert!(out.stdout.is_empty());
    let text = std::fs::read_to_string(&path).unwrap();
    let _ = std::fs::remove_file(&path);
    assert!(text.starts_with("x,y,grundy\n0,0,0\n1,0,1\n"), "{text}");
}

#[test]
fn too_large_tables_are_refused_up_front_with_the_estimate() {
    let out = nimlab(&["--max-memory", "24G", "table", "wythoff", "--size", "80000"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("table 80000x80000"), "{err}");
    assert!(err.contains("needs about") && err.contains("GiB"), "{err}");
    assert!(err.contains("24.0 GiB"), "{err}");
    // Refused up front by the estimate (TooLarge: the limit is named with the flag that
    // lifts it), not counted as it grows: the verdict is the message, not the time.
    assert!(err.contains("(raise it with --max-memory)"), "{err}");
}

#[test]
fn unwritable_output_is_a_clear_error() {
    let out = wythoff_table_to("/nonexistent-dir/x.npy", "npy", "4", &[]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("cannot write /nonexistent-dir/x.npy"), "{err}");
}
