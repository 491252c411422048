//! The CLI's contracts: the papers' tables, the JSON shapes, and bad input → exit 2.

use crate::common::run as nimlab;
use serde_json::Value;

fn stdout(args: &[&str]) -> String {
    let out = nimlab(args);
    assert!(
        out.status.success(),
        "{args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn json(args: &[&str]) -> Value {
    serde_json::from_str(&stdout(args)).expect("valid JSON")
}

/// Whitespace-separated tokens, with the seed's LaTeX corner `$y \setminus x$` as `y\x`.
fn tokens(text: &str) -> Vec<String> {
    text.replace("$y \\setminus x$", "y\\x")
        .split_whitespace()
        .map(str::to_string)
        .collect()
}

#[test]
fn table_prints_table_1_of_the_ryuoh_paper() {
    let seed = include_str!("../../games/tests/data/ryuoh_table1_p3.tsv");
    let out = stdout(&["table", "ryuoh(p=3)", "--size", "13"]);
    assert!(out.starts_with("y\\x"), "{out}");
    assert_eq!(tokens(&out), tokens(seed));
}

#[test]
fn table_prints_table_3_for_p_4() {
    let seed = include_str!("../../games/tests/data/ryuoh_table3_p4.tsv");
    let out = stdout(&["table", "ryuoh(p=4)", "--size", "13"]);
    // The seed's Table 3 has an empty corner cell.
    assert_eq!(tokens(&out)[1..], tokens(seed)[..]);
}

#[test]
fn value_json_contract() {
    let v = json(&["value", "wythoff", "3,6", "--format", "json"]);
    assert_eq!(v["game"], "wythoff");
    assert_eq!(v["position"], serde_json::json!([3, 6]));
    assert_eq!(v["grundy"], 1);
    assert_eq!(v["outcome"], "N");
    assert_eq!(v["winning_moves"], serde_json::json!([[3, 5]]));
    let v = json(&["value", "ryuoh(p=3)", "4,7", "--format", "json"]);
    assert_eq!(v["game"], "ryuoh(p=3)");
    assert_eq!(v["grundy"], 11);
    let v = json(&["value", "nim", "1,3,2", "--format", "json"]);
    assert_eq!(v["outcome"], "P");
    assert_eq!(v["winning_moves"], serde_json::json!([]));
}

#[test]
fn moves_json_contract() {
    let v = json(&["moves", "ryuoh(p=3)", "1,1", "--format", "json"]);
    assert_eq!(v["game"], "ryuoh(p=3)");
    assert_eq!(v["position"], serde_json::json!([1, 1]));
    let mut options: Vec<(Vec<u64>, u64)> = v["options"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| {
            (
                serde_json::from_value(o["position"].clone()).unwrap(),
                o["grundy"].as_u64().unwrap(),
            )
        })
        .collect();
    options.sort();
    assert_eq!(
        options,
        vec![(vec![0, 0], 0), (vec![0, 1], 1), (vec![1, 0], 1)]
    );
}

#[test]
fn table_json_contract() {
    let v = json(&["table", "wythoff", "--size", "4", "--format", "json"]);
    assert_eq!(v["game"], "wythoff");
    assert_eq!(v["box"], serde_json::json!([4, 4]));
    // values[y][x]: G(1, 2) = 0 and G(3, 0) = 3.
    assert_eq!(v["values"][2][1], 0);
    assert_eq!(v["values"][0][3], 3);
    assert_eq!(v["values"][3][0], 3);
    let v = json(&[
        "table",
        "subtraction(s={1,2,3})",
        "--size",
        "6",
        "--format",
        "json",
    ]);
    assert_eq!(v["box"], serde_json::json!([6]));
    assert_eq!(v["values"], serde_json::json!([0, 1, 2, 3, 0, 1]));
}

#[test]
fn table_other_formats() {
    let csv = stdout(&["table", "wythoff", "--size", "3", "--format", "csv"]);
    assert!(csv.starts_with("x,y,grundy\n0,0,0\n1,0,1\n"), "{csv}");
    let latex = stdout(&["table", "ryuoh(p=3)", "--size", "3", "--format", "latex"]);
    assert!(latex.contains("\\begin{tabular}") && latex.contains("1 & 1 & 2 & 0 \\\\"));
    let md = stdout(&["table", "ryuoh(p=3)", "--size", "3", "--format", "markdown"]);
    assert!(md.contains("| **2** | 2 | 0 | 1 |"), "{md}");
}

#[test]
fn theorems_verify_all_hold() {
    // The command on one family's theorems (the library's suite verifies every
    // theorem: `cross_checks::every_registered_theorem_holds`).
    let out = stdout(&["theorems", "verify", "--size", "32", "--id", "ryuoh"]);
    assert!(out.contains("ryuoh.thm-3.1: holds on"), "{out}");
    assert!(!out.contains("FAILS"), "{out}");
    assert!(
        out.lines().all(|l| l.starts_with("ryuoh.")),
        "only the chosen theorems: {out}"
    );
    let list = stdout(&["theorems"]);
    for id in ["nim.bouton", "subtraction.game-i", "wythoff.p-positions"] {
        assert!(list.contains(id), "{list}");
    }
}

#[test]
fn games_lists_the_catalog() {
    let out = stdout(&["games"]);
    assert!(out.contains("ryuoh(p=3)") && out.contains("Y. Tokuni"));
    let v = json(&["games", "--format", "json"]);
    assert_eq!(v["schema"], 1);
    assert!(v["games"]
        .as_array()
        .unwrap()
        .iter()
        .any(|g| g["name"] == "subtraction"));
}

/// Bad input: exit 2, one line on stderr naming the problem, nothing on stdout.
fn assert_bad_input(args: &[&str], mentions: &str) {
    let out = nimlab(args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert!(out.stdout.is_empty(), "{args:?} printed on stdout");
    assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
    assert!(err.contains(mentions), "{args:?}: {err}");
}

#[test]
fn bad_input_exits_2_with_one_line() {
    assert_bad_input(&["value", "chess", "1,2"], "unknown game 'chess'");
    assert_bad_input(&["value", "ryuoh(p=0)", "1,2"], "p must be ≥ 1");
    assert_bad_input(&["value", "ryuoh(p=x)", "1,2"], "must be an integer");
    assert_bad_input(
        &["table", "subtraction(s={})", "--size", "5"],
        "must not be empty",
    );
    assert_bad_input(&["value", "wythoff", "3"], "needs 2");
    assert_bad_input(&["value", "wythoff", "3,5,1"], "needs 2");
    assert_bad_input(&["value", "wythoff", "3,-5"], "negative");
    assert_bad_input(&["moves", "wythoff", "3,x"], "not a natural number");
    assert_bad_input(&["value", "wythoff", ""], "empty position");
    assert_bad_input(&["table", "wythoff", "--size", "10000000"], "needs about");
    assert_bad_input(
        &["table", "wythoff", "--size", "3000", "--max-memory", "1M"],
        "memory limit",
    );
    assert_bad_input(&["table", "wythoff", "--size", "0"], "at least 1");
    assert_bad_input(&["theorems", "verify", "--id", "nope"], "no theorem");
    assert_bad_input(
        &["table", "wythoff", "--size", "3", "--max-memory", "lots"],
        "memory size",
    );
}
