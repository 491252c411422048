//! `nimlab guess`: discoveries of known closed forms from small windows, through the
//! real binary. Each found formula is re-evaluated here against the known theorem on a
//! window larger than the one the command used.

use crate::common::{run as nimlab, stdout_json as json};
use nimlab_formula::Formula;

fn found(v: &serde_json::Value) -> Vec<String> {
    v["found"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["formula"].as_str().unwrap().to_string())
        .collect()
}

/// Whether `text` (over `vars`) equals `truth` on every point of [0, side)^2.
fn agrees_2d(text: &str, vars: [&str; 2], side: i64, truth: impl Fn(i64, i64) -> i64) -> bool {
    let f = Formula::compile(text, &vars).unwrap();
    (0..side).all(|x| (0..side).all(|y| f.eval(&[x, y]).unwrap() == truth(x, y)))
}

#[test]
fn theorem_3_1_from_table_1_alone() {
    let out = nimlab(&["guess", "ryuoh(p=3)", "--size", "13", "--format", "json"]);
    assert_eq!(out.status.code(), Some(0));
    let v = json(&out);
    assert_eq!(v["training"], serde_json::json!([13, 13]));
    assert_eq!(v["verification"], serde_json::json!([52, 52]));
    let fs = found(&v);
    assert!(
        fs.iter().any(|f| f == "(x+y)%3 + 3*((x/3) xor (y/3))"),
        "{fs:?}"
    );
    for f in &fs {
        assert!(agrees_2d(f, ["x", "y"], 120, |x, y| (x + y) % 3
            + 3 * ((x / 3) ^ (y / 3))));
    }
    // Each found formula names the windows it was checked on.
    let w = &v["found"][0]["windows"];
    assert_eq!(w[1]["checked"], 52 * 52);
}

#[test]
fn bouton_and_the_chocolate_staircase() {
    let v = json(&nimlab(&["guess", "nim(heaps=2)", "--format", "json"]));
    let fs = found(&v);
    assert_eq!(fs[0], "x xor y");
    let v = json(&nimlab(&[
        "guess",
        "chocolate-staircase(f=t/2)",
        "--format",
        "json",
    ]));
    let fs = found(&v);
    assert_eq!(fs[0], "y xor z", "{fs:?}");
}

#[test]
fn game_i_is_n_mod_4() {
    let out = nimlab(&["guess", "subtraction(s={1,2,3})"]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("G = n % 4   [size 3"), "{text}");
}

#[test]
fn arithmetic_periodic_one_heap_formula_is_verified() {
    // subtraction(s={2,5}) has period 7; whatever is printed must reproduce the values.
    let v = json(&nimlab(&[
        "guess",
        "subtraction(s={2,5})",
        "--size",
        "40",
        "--format",
        "json",
    ]));
    let fs = found(&v);
    assert!(!fs.is_empty());
    let table = json(&nimlab(&[
        "table",
        "subtraction(s={2,5})",
        "--size",
        "300",
        "--format",
        "json",
    ]));
    let values = table["values"].as_array().unwrap();
    for text in fs {
        let f = Formula::compile(&text, &["n"]).unwrap();
        for (n, g) in values.iter().enumerate() {
            assert_eq!(f.eval(&[n as i64]).unwrap(), g.as_i64().unwrap(), "{text}");
        }
    }
}

#[test]
fn wythoff_grundy_values_none_found_but_p_positions_are_beatty() {
    let out = nimlab(&["guess", "wythoff", "--format", "json"]);
    assert_eq!(out.status.code(), Some(1));
    let v = json(&out);
    assert!(found(&v).is_empty());
    let near = v["nearest"].as_array().unwrap();
    assert!(!near.is_empty());
    assert!(near[0]["mismatch_count"].as_u64().unwrap() > 0);
    assert!(near[0]["first_counterexample"]["position"].is_array());
    let text = String::from_utf8(nimlab(&["guess", "wythoff"]).stdout).unwrap();
    assert!(text.contains("none found"), "{text}");

    let v = json(&nimlab(&[
        "guess",
        "wythoff",
        "--p-positions",
        "--format",
        "json",
    ]));
    let fs = found(&v);
    assert_eq!(v["found"][0]["family"], "Beatty pair (a-Wythoff)");
    // P-positions of Wythoff: (⌊nφ⌋, ⌊nφ²⌋) and their mirrors.
    let phi = (1.0 + 5f64.sqrt()) / 2.0;
    let mut p = std::collections::HashSet::new();
    for n in 0..200i64 {
        let a = (n as f64 * phi).floor() as i64;
        p.insert((a, a + n));
        p.insert((a + n, a));
    }
    let f = Formula::compile(&fs[0], &["x", "y"]).unwrap();
    for x in 0..200 {
        for y in 0..200 {
            assert_eq!(f.eval_bool(&[x, y]).unwrap(), p.contains(&(x, y)));
        }
    }
}

#[test]
fn from_table_reads_csv_and_json_as_table_writes_them() {
    let dir = std::env::temp_dir().join(format!("nimlab-guess-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for fmt in ["csv", "json"] {
        let path = dir.join(format!("t.{fmt}"));
        let path = path.to_str().unwrap();
        let out = nimlab(&["table", "nim(heaps=2)", "--size", "12", "-o", path]);
        assert_eq!(out.status.code(), Some(0));
        let v = json(&nimlab(&[
            "guess",
            "--from-table",
            path,
            "--format",
            "json",
        ]));
        assert_eq!(found(&v)[0], "x xor y", "{fmt}");
        assert!(v["verification"].is_null());
    }
    std::fs::write(dir.join("bad.csv"), "x,y,grundy\n1,2\n").unwrap();
    let out = nimlab(&[
        "guess",
        "--from-table",
        dir.join("bad.csv").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bad_input_is_a_one_line_error() {
    for args in [
        vec!["guess", "nosuchgame"],
        vec!["guess", "nim", "--size", "0"],
        vec!["guess", "nim", "--size", "8", "--verify-size", "4"],
        vec!["guess", "--from-table", "/nonexistent/t.csv"],
        vec!["guess", "nim", "--size", "1000"], // training window too large
        vec!["guess", "nplayer-nim", "--size", "4"],
    ] {
        let out = nimlab(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert_eq!(String::from_utf8_lossy(&out.stderr).lines().count(), 1);
    }
}

#[test]
fn fibonacci_nim_p_positions_are_a_zeckendorf_predicate() {
    for (k, family) in [(2, "Zeckendorf predicate"), (1, "binary predicate")] {
        let game = format!("fibonacci-nim(k={k})");
        let v = json(&nimlab(&[
            "guess",
            &game,
            "--p-positions",
            "--format",
            "json",
        ]));
        assert_eq!(v["found"][0]["family"], family, "{v}");
        // Cross-check the printed predicate by brute force on a larger box.
        let pred = found(&v)[0].clone();
        let out = nimlab(&["check", &game, "--p-positions", &pred, "--size", "150"]);
        assert_eq!(out.status.code(), Some(0), "{pred}");
    }
}

#[test]
fn rules_file_games_are_guessed_too() {
    let rules = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/ryuoh.toml");
    let v = json(&nimlab(&[
        "guess", "--rules", rules, "--size", "13", "--format", "json",
    ]));
    let fs = found(&v);
    assert!(
        fs.iter().any(|f| f == "(x+y)%3 + 3*((x/3) xor (y/3))"),
        "{fs:?}"
    );
}
