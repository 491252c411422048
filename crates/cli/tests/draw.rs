//! `nimlab draw` and `nimlab chocolate condition`: pictures parsed back (SVG as XML, PNG
//! decoded and sampled where the SVG says each square is), text drawings, errors.

use crate::common;
use common::nimlab;
use std::path::PathBuf;

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("nimlab-draw-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn draw_to(args: &[&str], file: &str) -> PathBuf {
    let path = temp(file);
    let mut all = vec!["draw"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--output", path.to_str().unwrap()]);
    let (code, out, err) = nimlab(&all);
    assert_eq!(code, 0, "{err}");
    assert!(out.is_empty());
    path
}

/// (class, x, y) of every rect of the SVG.
fn rects(svg: &str) -> Vec<(String, f64, f64)> {
    let doc = roxmltree::Document::parse(svg).expect("well-formed SVG");
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    doc.descendants()
        .filter(|n| n.has_tag_name("rect"))
        .map(|n| {
            (
                n.attribute("class").unwrap_or("").to_string(),
                n.attribute("x").unwrap().parse().unwrap(),
                n.attribute("y").unwrap().parse().unwrap(),
            )
        })
        .collect()
}

fn count(rects: &[(String, f64, f64)], class: &str) -> usize {
    rects.iter().filter(|r| r.0 == class).count()
}

fn texts(svg: &str) -> Vec<String> {
    let doc = roxmltree::Document::parse(svg).unwrap();
    doc.descendants()
        .filter(|n| n.has_tag_name("text"))
        .map(|n| n.text().unwrap_or("").to_string())
        .collect()
}

/// Decoded RGB pixels: (width, height, bytes).
fn decode(path: &PathBuf) -> (usize, usize, Vec<u8>) {
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!(info.color_type, png::ColorType::Rgb);
    buf.truncate(info.buffer_size());
    (info.width as usize, info.height as usize, buf)
}

fn pixel(img: &(usize, usize, Vec<u8>), x: f64, y: f64) -> [u8; 3] {
    let i = (y as usize * img.0 + x as usize) * 3;
    [img.2[i], img.2[i + 1], img.2[i + 2]]
}

const CHOCOLATE: [u8; 3] = [123, 74, 35];
const BITTER: [u8; 3] = [178, 34, 34];
const EATEN: [u8; 3] = [232, 220, 200];
const P_POSITION: [u8; 3] = [120, 200, 120];
const PIECE: [u8; 3] = [30, 30, 120];
const PAPER: [u8; 3] = [255, 255, 255];

#[test]
fn staircase_svg_has_the_papers_squares_outline_and_labels() {
    // The paper's figure CB(⌊t/4⌋, 3, 13): column i has min(3, ⌊i/4⌋) + 1 squares.
    let path = draw_to(&["chocolate-staircase(f=t/4)", "3,13"], "fig.svg");
    let svg = std::fs::read_to_string(&path).unwrap();
    let r = rects(&svg);
    let expected: usize = (0..=13).map(|i: usize| (i / 4).min(3) + 1).sum();
    assert_eq!(count(&r, "bitter"), 1);
    assert_eq!(count(&r, "square") + 1, expected);
    assert_eq!(count(&r, "eaten"), 0);
    let doc = roxmltree::Document::parse(&svg).unwrap();
    assert!(doc
        .descendants()
        .any(|n| n.attribute("class") == Some("outline")));
    let t = texts(&svg);
    assert!(t
        .iter()
        .any(|s| s.contains("CB(f, 3, 13)") && s.contains("t/4")));
    for label in ["0", "13", "3"] {
        assert!(t.iter().any(|s| s == label), "label {label}");
    }
}

#[test]
fn a_move_shades_the_eaten_part_in_svg_and_png() {
    // {2,9} → {1,3} with f = t/2 eats the columns 4..9 and the top square of 2, 3.
    let svg_path = draw_to(
        &["chocolate-staircase(f=t/2)", "2,9", "--move", "1,3"],
        "move.svg",
    );
    let svg = std::fs::read_to_string(&svg_path).unwrap();
    let r = rects(&svg);
    let before: usize = (0..=9).map(|i: usize| (i / 2).min(2) + 1).sum();
    let after: usize = (0..=3).map(|i: usize| (i / 2).min(1) + 1).sum();
    assert_eq!(count(&r, "eaten"), before - after);
    assert_eq!(count(&r, "square") + count(&r, "bitter"), after);
    let png_path = draw_to(
        &["chocolate-staircase(f=t/2)", "2,9", "--move", "1,3"],
        "move.png",
    );
    let img = decode(&png_path);
    // Every square's colour where the SVG puts it (sampled off its centre, clear of the
    // bitter square's cross and the grooves).
    for (class, x, y) in &r {
        let want = match class.as_str() {
            "square" => CHOCOLATE,
            "bitter" => BITTER,
            "eaten" => EATEN,
            _ => continue,
        };
        assert_eq!(pixel(&img, x + 14.0, y + 4.0), want, "{class} at {x},{y}");
    }
    assert_eq!(pixel(&img, 1.0, 1.0), PAPER);
}

#[test]
fn rectangle_and_strip_bars_extend_left_of_the_bitter_square() {
    let svg = std::fs::read_to_string(draw_to(&["chocolate", "3,3,2"], "rect.svg")).unwrap();
    let r = rects(&svg);
    assert_eq!(count(&r, "square") + count(&r, "bitter"), 6 * 4);
    let bitter = r.iter().find(|x| x.0 == "bitter").unwrap();
    let leftmost = r
        .iter()
        .filter(|x| x.0 == "square")
        .map(|x| x.1)
        .fold(f64::MAX, f64::min);
    assert_eq!(bitter.1 - leftmost, 3.0 * 28.0);
    let svg = std::fs::read_to_string(draw_to(
        &["chocolate-staircase(f=t/2, strip=true)", "3,2,5"],
        "strip.svg",
    ))
    .unwrap();
    let r = rects(&svg);
    assert_eq!(
        count(&r, "square") + count(&r, "bitter"),
        3 + 1 + 1 + 2 + 2 + 3 + 3
    );
}

#[test]
fn two_heap_boards_mark_the_piece_and_the_p_positions() {
    let svg = std::fs::read_to_string(draw_to(&["wythoff", "5,8", "--move", "4,7"], "wythoff.svg"))
        .unwrap();
    let r = rects(&svg);
    // Wythoff's P-positions with x ≤ 5, y ≤ 8: (0,0) (1,2) (2,1) (3,5) (5,3) (4,7).
    assert_eq!(count(&r, "p-position"), 6);
    assert_eq!(count(&r, "p-position") + count(&r, "cell"), 6 * 9);
    let doc = roxmltree::Document::parse(&svg).unwrap();
    for class in ["piece", "target", "move"] {
        assert!(
            doc.descendants()
                .any(|n| n.attribute("class") == Some(class)),
            "{class}"
        );
    }
    let img = decode(&draw_to(&["ryuoh(p=3)", "4,4"], "ryuoh.png"));
    let svg = std::fs::read_to_string(draw_to(&["ryuoh(p=3)", "4,4"], "ryuoh.svg")).unwrap();
    let r = rects(&svg);
    assert!(count(&r, "p-position") > 0);
    for (class, x, y) in &r {
        if class == "p-position" {
            assert_eq!(pixel(&img, x + 3.0, y + 3.0), P_POSITION);
        }
    }
    // The piece sits at (4,4): the bottom-right cell (y = 0 on top).
    let cells: Vec<_> = r
        .iter()
        .filter(|c| c.0 == "cell" || c.0 == "p-position")
        .collect();
    let (mx, my) = (
        cells.iter().map(|c| c.1).fold(f64::MIN, f64::max),
        cells.iter().map(|c| c.2).fold(f64::MIN, f64::max),
    );
    assert_eq!(pixel(&img, mx + 14.0, my + 14.0), PIECE);
    let (code, out, _) = nimlab(&["draw", "nim", "3,2"]);
    assert_eq!(code, 0);
    assert!(out.contains(" @") && out.contains(" o"), "{out}");
    // Rows in the text table's order: y = 0 first, under the numbers of x; the piece
    // at (3,2) on the last row, (0,0) a P-position on the first.
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[1].trim(), "0 1 2 3");
    assert_eq!(lines[2], "0  o . . .");
    assert_eq!(lines[4], "2  . . o @");
}

#[test]
fn text_drawings_in_the_terminal() {
    let (code, out, err) = nimlab(&["draw", "chocolate-staircase(f=t/2)", "2,5", "--move", "1,3"]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "CB(f, 2, 5) = {2,5}, f(t) = t/2");
    assert!(lines[1].contains("eats 6 squares"));
    assert_eq!(lines[2], "2         ::::");
    assert_eq!(lines[3], "1     [][]::::");
    assert_eq!(lines[4], "0 XX[][][]::::");
    let (_, out, _) = nimlab(&["draw", "chocolate-staircase(f=t/2)", "1,5"]);
    assert!(out.contains(". "), "outline above the cut bar: {out}");
}

#[test]
fn bad_drawings_are_one_line_errors() {
    for (args, needle) in [
        (
            vec!["draw", "chocolate-staircase(f=t/2)", "3,5"],
            "must be ≤ f(z)",
        ),
        (
            vec!["draw", "chocolate-staircase(f=t/2)", "2,5", "--move", "0,4"],
            "not one move",
        ),
        (
            vec!["draw", "wythoff", "5,8", "--move", "3,5"],
            "not one move",
        ),
        (vec!["draw", "wythoff", "5000,8"], "too large to draw"),
        (vec!["draw", "nim", "1,2,3"], "cannot draw"),
        (
            vec!["draw", "chocolate", "3,3,2", "--format", "png"],
            "--output",
        ),
        (
            vec!["draw", "chocolate-staircase(f=t/0)", "0,0"],
            "division by zero",
        ),
    ] {
        let (code, out, err) = nimlab(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(out.is_empty());
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
    let bad = temp("bar.json");
    let (code, _, err) = nimlab(&["draw", "chocolate", "1,1,1", "-o", bad.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("formats: text, svg, png"), "{err}");
}

#[test]
fn condition_reports_witness_and_first_mismatch() {
    let (code, out, err) = nimlab(&["chocolate", "condition", "--f", "t/3", "--window", "32"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("condition (a): fails: u = 2, w = 3, n = 1"),
        "{out}"
    );
    assert!(
        out.contains("fails first at {1,3}: G = 4, y xor z = 2"),
        "{out}"
    );
    assert!(out.contains("agreement:     yes"), "{out}");
    let (code, out, _) = nimlab(&[
        "chocolate",
        "condition",
        "--f",
        "t/2",
        "--window",
        "64",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["schema"], 1);
    assert_eq!(v["condition_a"]["holds"], true);
    assert_eq!(v["nim_sum"]["holds"], true);
    assert_eq!(v["agree"], true);
    assert_eq!(v["values"].as_array().unwrap().len(), 64);
    let (_, out, _) = nimlab(&[
        "chocolate",
        "condition",
        "--f",
        "t",
        "--window",
        "8",
        "--format",
        "json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["condition_a"]["witness"]["w"], 1);
    assert_eq!(
        v["nim_sum"]["first_mismatch"]["position"],
        serde_json::json!([1, 1])
    );
    for (f, needle) in [
        ("10 - t", "non-decreasing"),
        ("t -", "formula error"),
        ("2^floor_log2(t)", "undefined at t = 0"),
    ] {
        let (code, _, err) = nimlab(&["chocolate", "condition", "--f", f, "--window", "16"]);
        assert_eq!(code, 2);
        assert!(err.contains(needle), "{f}: {err}");
    }
    let (code, _, err) = nimlab(&["chocolate", "condition", "--f", "t", "--window", "0"]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn boards_bars_and_vertex_sets_are_drawn_with_the_move_shown() {
    // Cram: the domino covering the two top-left squares.
    let svg = std::fs::read_to_string(draw_to(
        &["cram(rows=2,cols=3)", ".../.#.", "--move", "##./.#."],
        "cram.svg",
    ))
    .unwrap();
    let r = rects(&svg);
    let count = |class: &str| r.iter().filter(|(c, _, _)| c == class).count();
    assert_eq!((count("eaten"), count("covered"), count("free")), (2, 1, 3));
    // A bar of any shape: the break eats the two right columns.
    let (code, out, err) = nimlab(&["draw", "chocolate-bar", "..##/B###", "--move", "B#"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, "chocolate-bar at ..##/B###\n    ()()\nBB[]()()\n");
    // Node Kayles: taking vertex 2 of a path takes 1 and 3 too.
    let (code, out, _) = nimlab(&[
        "draw",
        "node-kayles(graph=path(5))",
        "start",
        "--move",
        "{0,4}",
    ]);
    assert_eq!(code, 0);
    assert!(out.ends_with("0 (1) (2) (3) 4\n"), "{out}");
    // Not a move, not a position: one line, exit 2.
    for args in [
        ["draw", "cram(rows=2,cols=2)", "start", "--move", "##/##"],
        ["draw", "cram(rows=2,cols=2)", "../.", "--move", "start"],
    ] {
        let (code, _, err) = nimlab(&args);
        assert_eq!(code, 2, "{err}");
        assert_eq!(err.trim().lines().count(), 1, "{err}");
    }
}
