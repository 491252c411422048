//! `nimlab check`: conjectures against brute force, through the real binary.

use crate::common::{run as nimlab, stdout_json as json};
use std::process::Output;

/// Runs `nimlab check GAME --formula FORMULA --size SIZE REST…`.
fn check(game: &str, formula: &str, size: &str, rest: &[&str]) -> Output {
    check_claim(game, "--formula", formula, size, rest)
}

/// Runs `nimlab check GAME --p-positions PREDICATE --size SIZE REST…`.
fn check_p_positions(game: &str, predicate: &str, size: &str, rest: &[&str]) -> Output {
    check_claim(game, "--p-positions", predicate, size, rest)
}

fn check_claim(game: &str, flag: &str, claim: &str, size: &str, rest: &[&str]) -> Output {
    let mut args = vec!["check", game, flag, claim, "--size", size];
    args.extend(rest);
    nimlab(&args)
}

#[test]
fn ryuoh_theorem_3_1_has_no_mismatch_for_p_3_and_4() {
    for p in [3, 4] {
        let formula = format!("(x+y)%{p} + {p}*((x/{p}) xor (y/{p}))");
        let out = check(
            &format!("ryuoh(p={p})"),
            &formula,
            "80",
            &["--format", "json"],
        );
        assert_eq!(out.status.code(), Some(0), "p = {p}");
        let v = json(&out);
        assert_eq!(v["checked"], 80 * 80);
        assert_eq!(v["mismatches"].as_array().unwrap().len(), 0);
        assert_eq!(v["game"], format!("ryuoh(p={p})"));
        assert_eq!(v["formula"], formula);
    }
    // Also with the text output and the σ^[p] function form
    let out = nimlab(&[
        "check",
        "ryuoh(p=4)",
        "--formula",
        "sigma(beta=[4,2], x, y)",
        "-n",
        "40",
    ]);
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).contains("no mismatch"));
}

#[test]
fn wythoff_is_not_nim_and_check_says_where() {
    let out = check(
        "wythoff",
        "x xor y",
        "12",
        &["--format", "json", "--limit", "5"],
    );
    assert_eq!(out.status.code(), Some(1));
    let v = json(&out);
    let m = v["mismatches"].as_array().unwrap();
    assert_eq!(m.len(), 5);
    // G(1,1) = mex{G(0,1), G(1,0), G(0,0)} = mex{1, 1, 0} = 2, while 1 xor 1 = 0.
    assert_eq!(m[0]["position"], serde_json::json!([1, 1]));
    assert_eq!(m[0]["grundy"], 2);
    assert_eq!(m[0]["formula"], 0);
    assert!(v["mismatch_count"].as_u64().unwrap() > 5);
    // Text: a table of at most 20 mismatches
    let out = check("wythoff", "x xor y", "30", &[]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("(first 20)"), "{text}");
    assert!(text.contains("1,1"));
}

#[test]
fn p_positions_of_wythoff_and_nim() {
    // Nim: P iff x = y.  Wythoff: the P-positions below 12 are (0,0),(1,2),(2,1),(3,5),(5,3).
    let out = check_p_positions("nim", "x == y", "25", &[]);
    assert_eq!(out.status.code(), Some(0));
    let wythoff_p =
        "x == y && x == 0 || min(x,y) == 1 && max(x,y) == 2 || min(x,y) == 3 && max(x,y) == 5";
    let out = check_p_positions("wythoff", wythoff_p, "6", &[]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let out = check_p_positions("wythoff", "x == y", "6", &["--format", "json"]);
    assert_eq!(out.status.code(), Some(1));
    let v = json(&out);
    assert_eq!(v["mismatches"][0]["position"], serde_json::json!([1, 1]));
}

#[test]
fn coordinate_aliases_and_one_heap_games() {
    let out = check("wythoff", "x0 xor x1", "3", &["--format", "json"]);
    assert_eq!(out.status.code(), Some(1));
    // subtraction {1,2}: G(n) = n mod 3
    let out = check("subtraction(s={1,2})", "n % 3", "100", &[]);
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn bad_formulas_exit_2_with_a_column() {
    for (formula, expect) in [
        ("x xor (y", "column 9"),
        ("x + z", "unknown variable 'z'"),
        ("x +* y", "column 4"),
        ("x / (y - y)", "division by zero"),
        ("x ^ 99", "overflow"),
    ] {
        let out = check("wythoff", formula, "8", &[]);
        assert_eq!(out.status.code(), Some(2), "{formula}");
        assert!(out.stdout.is_empty());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(expect), "{formula}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    }
    let out = nimlab(&["check", "wythoff", "--size", "8"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--formula"));
    let out = check("chess", "x", "8", &[]);
    assert_eq!(out.status.code(), Some(2));
    let out = check("wythoff", "x", "8", &["--format", "png"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn png_marks_mismatches() {
    let dir = std::env::temp_dir().join(format!("nimlab-check-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("wythoff.png");
    let out = check(
        "wythoff",
        "x xor y",
        "16",
        &["--format", "png", "--output", path.to_str().unwrap()],
    );
    assert_eq!(out.status.code(), Some(1));
    let bytes = std::fs::read(&path).unwrap();
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    // A file written with -o is not announced: nothing on stdout or stderr, the exit
    // code says that cells mismatch.
    assert!(
        out.stdout.is_empty(),
        "{:?}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert!(
        out.stderr.is_empty(),
        "{:?}",
        String::from_utf8_lossy(&out.stderr)
    );
    // With the picture on standard output, the count is a note on stderr: the count
    // `check` gives in words.
    let text = check("wythoff", "x xor y", "16", &[]);
    let text = String::from_utf8_lossy(&text.stdout);
    let count = text
        .lines()
        .find_map(|l| l.strip_prefix("result:")?.trim().split(' ').next())
        .unwrap()
        .to_string();
    let piped = check("wythoff", "x xor y", "16", &["--format", "png", "-o", "-"]);
    assert_eq!(&piped.stdout[..8], b"\x89PNG\r\n\x1a\n");
    let note = String::from_utf8_lossy(&piped.stderr);
    assert!(
        note.contains(&format!("wythoff: {count} of 256 positions mismatch")),
        "{note}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// An n-player game's table holds classes: `check` says so in words and in JSON.
#[test]
fn check_of_an_n_player_game_compares_classes() {
    let out = check("nplayer(nim,n=3)", "0", "4", &[]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("position  class  formula"), "{text}");
    assert!(!text.contains("grundy"), "{text}");
    let v = json(&check("nplayer(nim,n=3)", "0", "4", &["--format", "json"]));
    assert_eq!(v["compared"], "class");
    let first = &v["mismatches"][0];
    assert!(first.get("grundy").is_none() && first["class"].as_u64().unwrap() > 0);
    // "Always class 0" as a predicate fails exactly where the formula 0 does.
    let p = json(&check_p_positions(
        "nplayer(nim,n=3)",
        "x == x",
        "4",
        &["--format", "json"],
    ));
    assert_eq!(p["mismatch_count"], v["mismatch_count"]);
    let out = check_p_positions("nplayer(nim,n=3)", "x == x", "4", &[]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("class 1") && !text.contains("grundy"),
        "{text}"
    );
}
