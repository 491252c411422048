//! Worksheets (src/worksheet.rs): blanks, LaTeX and SVG renderings, typesetting.

use nimlab_engine::GrundyTable;
use nimlab_json::worksheet::{Blanks, Worksheet};

fn nim(n: usize) -> GrundyTable {
    let mut v = Vec::new();
    for y in 0..n {
        for x in 0..n {
            v.push((x ^ y) as u32);
        }
    }
    GrundyTable::from_parts(vec![n, n], v).unwrap()
}

#[test]
fn blanks_read_every_form() {
    let t = nim(4);
    assert_eq!(Blanks::parse("P", &t, 0).unwrap().count(), 4);
    assert_eq!(Blanks::parse("row=1;col=1", &t, 0).unwrap().count(), 7);
    assert_eq!(Blanks::parse("all", &t, 0).unwrap().count(), 16);
    let a = Blanks::parse("random=5", &t, 3).unwrap();
    assert_eq!(a, Blanks::parse("random=5", &t, 3).unwrap());
    assert_eq!(a.count(), 5);
    assert_eq!(Blanks::parse("random=99", &t, 3).unwrap().count(), 16);
    for bad in ["4,0", "0,4", "x", "1,2,3", "row=9", "random=-1"] {
        assert!(Blanks::parse(bad, &t, 0).is_err(), "{bad}");
    }
    // Cell (1,2) is index 2·4 + 1 of the plane.
    assert!(Blanks::parse("1,2", &t, 0).unwrap().is_blank(9));
}

#[test]
fn renderings_put_y_down_and_blank_the_cells() {
    let t = nim(3);
    let names = vec!["x".to_string(), "y".to_string()];
    let w = Worksheet::new(
        "nim & co",
        &names,
        &t,
        &[],
        Blanks::parse("2,0", &t, 0).unwrap(),
    )
    .unwrap();
    let tab = w.latex_tabular(false);
    let rows: Vec<&str> = tab.lines().collect();
    assert_eq!(rows[2], r"0 & 0 & 1 & \blank \\");
    assert_eq!(rows[3], r"1 & 1 & 0 & 3 \\");
    assert!(w.latex_tabular(true).contains(r"\answer{2}"));
    let doc = w.latex_document(true);
    assert!(doc.contains(r"nim \& co") && doc.contains("\\usepackage{tikz}"));
    assert_eq!(doc.matches("\\begin{tikzpicture}").count(), 2);
    let svg = w.svg(false);
    assert!(svg.contains("nim &amp; co"));
    // (2,0) is on the top row and has no number in the exercise.
    assert!(svg.contains("data-cell=\"2,0\""));
    assert!(!w.svg(false).contains("font-weight=\"bold\">2<"));
    assert!(w.svg(true).contains("font-weight=\"bold\">2<"));
    // The legend says what the boxes mean.
    assert!(
        w.svg(false).contains("<g class=\"legend\"") && w.svg(false).contains("write the value")
    );
    assert!(w.svg(true).contains("answer (bold)"));
    assert!(Worksheet::new("big", &names, &nim(65), &[], Blanks::none(&nim(65))).is_err());
    // Wider than a page: refused in one line.
    assert!(Worksheet::new("wide", &names, &nim(49), &[], Blanks::none(&nim(49))).is_err());
}

/// G(n) of subtraction {1, 3, 4} (period 7: 0 1 0 1 2 3 2).
fn strip(n: usize) -> GrundyTable {
    let v = (0..n).map(|i| [0, 1, 0, 1, 2, 3, 2][i % 7]).collect();
    GrundyTable::from_parts(vec![n], v).unwrap()
}

#[test]
fn a_long_strip_is_printed_in_rows_of_ten() {
    let t = strip(21);
    let names = vec!["n".to_string()];
    let w = Worksheet::new("s", &names, &t, &[], Blanks::parse("13;20", &t, 0).unwrap()).unwrap();
    let tab = w.latex_tabular(false);
    let rows: Vec<&str> = tab.lines().collect();
    assert_eq!(
        rows[1],
        r"$n=r+c$ & 0 & 1 & 2 & 3 & 4 & 5 & 6 & 7 & 8 & 9 \\ \hline"
    );
    assert_eq!(rows[2], r"0 & 0 & 1 & 0 & 1 & 2 & 3 & 2 & 0 & 1 & 0 \\");
    // Row 10: n = 13 is blanked; row 20 holds n = 20 (blanked) and nine empty cells.
    assert_eq!(
        rows[3],
        r"10 & 1 & 2 & 3 & \blank & 0 & 1 & 0 & 1 & 2 & 3 \\"
    );
    assert_eq!(rows[4], r"20 & \blank &  &  &  &  &  &  &  &  &  \\");
    let doc = w.latex_document(false);
    assert!(doc.contains("n = r + c"), "the layout is explained");
    // The document holds the very tabulars `--format latex` prints.
    assert!(doc.contains(&w.latex_tabular(false)) && doc.contains(&w.latex_tabular(true)));
    // A strip of ten or fewer stays one row.
    let short = Worksheet::new("s", &names, &strip(10), &[], Blanks::none(&strip(10))).unwrap();
    assert_eq!(short.latex_tabular(false).lines().count(), 4);
}

/// pdflatex, when installed, typesets every worksheet document without an overfull
/// box and on two pages (exercise, answers).
#[test]
fn documents_typeset_on_one_page_each_without_overfull_boxes() {
    // Over 100 lines because the three documents are built in full (a Wythoff table by
    // a mex written here) before they are typeset.
    let Ok(true) = std::process::Command::new("pdflatex")
        .arg("--version")
        .output()
        .map(|o| o.status.success())
    else {
        eprintln!("no pdflatex: skipped");
        return;
    };
    let dir = std::env::temp_dir().join(format!("nimlab-sheets-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let wythoff = {
        // G of Wythoff's game on 30 × 30 by the mex over the three move directions.
        let n = 30;
        let mut g = vec![0u32; n * n];
        for y in 0..n {
            for x in 0..n {
                let mut seen = [false; 128];
                for k in 1..=x {
                    seen[g[y * n + x - k] as usize] = true;
                }
                for k in 1..=y {
                    seen[g[(y - k) * n + x] as usize] = true;
                }
                for k in 1..=x.min(y) {
                    seen[g[(y - k) * n + x - k] as usize] = true;
                }
                g[y * n + x] = seen.iter().position(|s| !s).unwrap() as u32;
            }
        }
        GrundyTable::from_parts(vec![n, n], g).unwrap()
    };
    let names = vec!["x".to_string(), "y".to_string()];
    let sheets = [
        (
            "wythoff",
            Worksheet::new(
                "wythoff",
                &names,
                &wythoff,
                &[],
                Blanks::parse("random=20", &wythoff, 1).unwrap(),
            )
            .unwrap()
            .with_rules(
                "Wythoff's game: take any number from one heap, or the same number from both",
            ),
        ),
        (
            "strip",
            Worksheet::new(
                "subtraction(s={1,3,4})",
                &["n".to_string()],
                &strip(21),
                &[],
                Blanks::parse("random=5", &strip(21), 1).unwrap(),
            )
            .unwrap(),
        ),
        (
            "nim48",
            Worksheet::new(
                "nim",
                &names,
                &nim(48),
                &[],
                Blanks::parse("P", &nim(48), 1).unwrap(),
            )
            .unwrap(),
        ),
    ];
    // Each document once (pdflatex takes seconds): the widest plane as TikZ, the
    // wrapped strip as a tabular, Wythoff both ways.
    // The runs side by side: pdflatex is one process each, and the test is the
    // longest of its crate's.
    // By default the two that cover both renderings and the wrapped strip; the other
    // two with NIMLAB_LONG.
    let runs: &[(usize, bool)] = if std::env::var_os("NIMLAB_LONG").is_some() {
        &[(0, false), (0, true), (1, false), (2, true)]
    } else {
        &[(0, true), (1, false)]
    };
    let typeset = |name: &str, w: &Worksheet, tikz: bool| -> (String, bool, String) {
        let file = format!("{name}-{tikz}");
        std::fs::write(dir.join(format!("{file}.tex")), w.latex_document(tikz)).unwrap();
        let ok = std::process::Command::new("pdflatex")
            .args([
                "-interaction=nonstopmode",
                "-halt-on-error",
                &format!("{file}.tex"),
            ])
            .current_dir(&dir)
            .output()
            .unwrap()
            .status
            .success();
        let log = std::fs::read_to_string(dir.join(format!("{file}.log"))).unwrap();
        (file, ok, log)
    };
    let results: Vec<_> = std::thread::scope(|scope| {
        let handles: Vec<_> = runs
            .iter()
            .map(|&(i, tikz)| {
                let (name, w) = (sheets[i].0, &sheets[i].1);
                scope.spawn(move || typeset(name, w, tikz))
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    for (file, ok, log) in results {
        assert!(ok, "{file}: pdflatex failed");
        assert!(!log.contains("Overfull"), "{file}: an overfull box");
        assert!(log.contains("(2 pages"), "{file}: not one page each");
    }
    std::fs::remove_dir_all(dir).ok();
}
