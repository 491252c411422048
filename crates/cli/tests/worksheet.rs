//! `nimlab table --blank …`: worksheets in LaTeX, TikZ and SVG, in the text table's
//! orientation (y = 0 on top).

use crate::common::nimlab;

/// The rows of a tabular: cells after the row label.
fn rows(tex: &str) -> Vec<Vec<String>> {
    tex.lines()
        .skip_while(|l| !l.starts_with("\\begin{tabular}"))
        .skip(2)
        .take_while(|l| !l.starts_with("\\end{tabular}"))
        .map(|l| {
            l.trim_end_matches(" \\\\")
                .split(" & ")
                .skip(1)
                .map(str::to_string)
                .collect()
        })
        .collect()
}

#[test]
fn latex_worksheet_blanks_p_positions_and_answers_them() {
    let (code, ex, err) = nimlab(&[
        "table", "nim", "--size", "5", "--format", "latex", "--blank", "P",
    ]);
    assert_eq!(code, 0, "{err}");
    let (_, ans, _) = nimlab(&[
        "table",
        "nim",
        "--size",
        "5",
        "--format",
        "latex",
        "--blank",
        "P",
        "--answers",
    ]);
    let (ex, ans) = (rows(&ex), rows(&ans));
    assert_eq!(ex.len(), 5);
    for y in 0..5 {
        for x in 0..5 {
            let v = x ^ y; // Bouton
            if v == 0 {
                assert_eq!(ex[y][x], "\\blank", "({x},{y})");
                assert_eq!(ans[y][x], "\\answer{0}");
            } else {
                assert_eq!(ex[y][x], v.to_string(), "({x},{y})");
                assert_eq!(ans[y][x], v.to_string());
            }
        }
    }
}

#[test]
fn worksheet_rows_follow_the_text_table() {
    let (_, text, _) = nimlab(&["table", "ryuoh(p=3)", "--size", "6"]);
    let (_, tex, _) = nimlab(&[
        "table",
        "ryuoh(p=3)",
        "--size",
        "6",
        "--format",
        "latex",
        "--blank",
        "row=5",
        "--answers",
    ]);
    let text_rows: Vec<Vec<String>> = text
        .lines()
        .skip(1)
        .map(|l| l.split_whitespace().skip(1).map(str::to_string).collect())
        .collect();
    let tex_rows = rows(&tex);
    for y in 0..5 {
        assert_eq!(tex_rows[y], text_rows[y], "row y = {y}");
    }
    let last: Vec<String> = tex_rows[5]
        .iter()
        .map(|c| {
            c.trim_start_matches("\\answer{")
                .trim_end_matches('}')
                .to_string()
        })
        .collect();
    assert_eq!(last, text_rows[5]);
}

#[test]
fn tikz_svg_and_document_formats() {
    let (code, tikz, _) = nimlab(&[
        "table", "wythoff", "--size", "4", "--format", "tikz", "--blank", "random=3", "--seed", "9",
    ]);
    assert_eq!(code, 0);
    assert!(
        tikz.starts_with("\\begin{tikzpicture}") && tikz.trim_end().ends_with("\\end{tikzpicture}")
    );
    // 16 cells, 3 blanked: 13 values.
    assert_eq!(tikz.matches("\\node at").count(), 13);
    let file = std::env::temp_dir().join(format!("nimlab-ws-{}.svg", std::process::id()));
    let (code, _, err) = nimlab(&[
        "table",
        "wythoff",
        "--size",
        "4",
        "--blank",
        "P",
        "-o",
        file.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let svg = std::fs::read_to_string(&file).unwrap();
    std::fs::remove_file(&file).ok();
    assert!(svg.starts_with("<svg") && svg.contains("stroke-dasharray"));
    let (_, doc, _) = nimlab(&[
        "table",
        "nim",
        "--size",
        "4",
        "--format",
        "worksheet",
        "--blank",
        "all",
    ]);
    assert!(doc.starts_with("\\documentclass") && doc.contains("\\newpage"));
    assert_eq!(doc.matches("\\answer{").count(), 16);
}

#[test]
fn bad_blanks_are_one_line_errors() {
    let latex_blank = |blank| {
        vec![
            "table", "nim", "--size", "4", "--format", "latex", "--blank", blank,
        ]
    };
    for (args, needle) in [
        (
            vec!["table", "nim", "--size", "4", "--blank", "P"],
            "--format latex",
        ),
        (
            vec![
                "table", "nim", "--size", "4", "--format", "csv", "--blank", "P",
            ],
            "--format latex",
        ),
        (latex_blank("4,0"), "outside"),
        (latex_blank("ünï,☃"), "cannot read"),
        (latex_blank("random=99999999999999999999999"), "cannot read"),
        (
            vec!["table", "nim", "--size", "100", "--format", "svg"],
            "at most 4096 cells",
        ),
        (vec!["table", "nim", "--size", "4", "--answers"], "--blank"),
    ] {
        let (code, out, err) = nimlab(&args);
        assert_eq!(code, 2, "{args:?}: {out}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}
