//! CLI tests of the multiplier family (`fibonacci-nim`).

use crate::common;
use common::nimlab;

#[test]
fn table_prints_the_seeds_tables() {
    let (code, out, err) = nimlab(&["table", "fibonacci-nim(k=2)", "--size", "32"]);
    assert_eq!(code, 0, "{err}");
    let rows: Vec<Vec<String>> = out
        .lines()
        .skip(1)
        .map(|l| l.split_whitespace().map(String::from).collect())
        .collect();
    assert_eq!(rows.len(), 31);
    // rows of the seed's Game III table
    for (n, w, c) in [
        (13, 13, "100000"),
        (18, 5, "101000"),
        (29, 8, "1010000"),
        (31, 2, "1010010"),
    ] {
        assert_eq!(
            rows[n - 1],
            vec![n.to_string(), w.to_string(), c.to_string()]
        );
    }
    let (code, out, _) = nimlab(&[
        "table",
        "fibonacci-nim(k=1)",
        "--size",
        "32",
        "--format",
        "csv",
    ]);
    assert_eq!(code, 0);
    assert!(out.contains("\n24,8,11000\n") && out.contains("\n16,16,10000\n"));
}

#[test]
fn json_table_has_grundy_values_and_strategy() {
    let (code, out, err) = nimlab(&[
        "table",
        "fibonacci-nim(k=2)",
        "--size",
        "12",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    // values[limit][heap]; the start of a Fibonacci heap is a P-position
    assert_eq!(v["values"][7][8], 0);
    assert_ne!(v["values"][1][4], 0); // 4 = 3 + 1: take 1
    assert_eq!(v["strategy"][10]["code"], "10100");
    assert_eq!(v["strategy"][10]["w(n)"], 3);
}

#[test]
fn huge_heap_gets_a_winning_move() {
    // 10^99999 + 1: the code gives a move; check it is legal and leaves a smaller heap
    let n = format!("1{}1", "0".repeat(99_998));
    let (code, out, err) = nimlab(&["value", "fibonacci-nim(k=2)", &n, "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["grundy"], serde_json::Value::Null);
    assert_eq!(v["outcome"], "N");
    // 10^99999 + 1 ends in ...01 in Zeckendorf? not necessarily; the take is ≥ 1 and the
    // remaining heap has as many or one fewer digit.
    // beyond 2^53 − 1 a number is a JSON string of its digits
    let rest = v["winning_moves"][0][0]
        .as_str()
        .expect("a big number is a string");
    assert!(rest.len() >= 99_999 && rest.len() <= 100_000);
    // the same game with k = 1: the lowest set bit of 10^99999 + 1 is 1
    let (code, out, _) = nimlab(&["value", "fibonacci-nim(k=1)", &n, "--format", "json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(v["winning_moves"][0][0]
        .as_str()
        .expect("a big number is a string")
        .ends_with("0000"));
}

#[test]
fn small_positions_use_brute_force() {
    let (code, out, _) = nimlab(&["value", "fibonacci-nim(k=2)", "8"]);
    assert_eq!(code, 0);
    assert!(out.contains("outcome:  P"));
    let (code, out, _) = nimlab(&["value", "fibonacci-nim(k=2)", "12,1"]);
    assert_eq!(code, 0);
    assert!(out.contains("winning moves: 11,2"));
}

#[test]
fn bad_input_exits_2() {
    for args in [
        vec!["value", "fibonacci-nim(k=0)", "5"],
        vec!["value", "fibonacci-nim(k=x)", "5"],
        vec!["value", "fibonacci-nim(k=2)", "1,2,3"],
        vec!["value", "fibonacci-nim(k=2)", "5,-1"],
        vec!["table", "fibonacci-nim(k=2)", "--size", "0"],
        vec!["table", "fibonacci-nim(k=2)", "--size", "2000000"],
        vec!["periodicity", "fibonacci-nim(k=2)"],
    ] {
        let (code, out, err) = nimlab(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    }
}
