//! The command line on Wythoff positions of any size and on `wythoff-pairs`.

use crate::common::rng::Rng;
use crate::common::run as nimlab;
use num_bigint::BigUint;
use serde_json::Value;
use std::process::Output;

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("UTF-8 output")
}

fn json(o: &Output) -> Value {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).expect("valid JSON")
}

/// A number of `count` decimal digits (reproducible pseudo-random).
fn digits(count: usize, seed: u64) -> String {
    Rng(seed).decimal(count)
}

fn big(v: &Value) -> BigUint {
    // Numbers beyond 2^53 − 1 are strings of decimal digits.
    match v {
        Value::String(s) => {
            let n: BigUint = s.parse().expect("a natural number");
            assert!(
                n > BigUint::from((1u64 << 53) - 1),
                "{n} should be a number"
            );
            n
        }
        _ => v.as_u64().expect("a natural number").into(),
    }
}

#[test]
fn value_on_two_heaps_of_100000_digits() {
    let (a, b) = (digits(100_000, 1), digits(100_000, 2));
    // Two arguments: one argument cannot hold 200 000 characters on Linux.
    let v = json(&nimlab(&["value", "wythoff", &a, &b, "--format", "json"]));
    assert_eq!(v["grundy"], Value::Null);
    assert_eq!(v["outcome"], "N");
    let mv = v["winning_moves"][0]
        .as_array()
        .expect("a winning move")
        .clone();
    let (x, y) = (a.parse::<BigUint>().unwrap(), b.parse::<BigUint>().unwrap());
    let (u, w) = (big(&mv[0]), big(&mv[1]));
    let legal = (u < x && w == y) || (u == x && w < y) || (u < x && w < y && &x - &u == &y - &w);
    assert!(legal, "not a Wythoff move");
    // The move lands on a P-position.
    let (us, ws) = (u.to_string(), w.to_string());
    let after = json(&nimlab(&["value", "wythoff", &us, &ws, "--format", "json"]));
    assert_eq!(after["outcome"], "P");
    assert_eq!(after["winning_moves"].as_array().unwrap().len(), 0);

    let text = stdout(&nimlab(&["value", "wythoff", &a, &b]));
    assert!(text.contains("outcome:  N"), "{text}");
    assert!(text.contains("grundy:   unknown"), "{text}");
    assert!(text.contains("winning move"), "{text}");

    let moves = json(&nimlab(&["moves", "wythoff", &a, &b, "--format", "json"]));
    assert_eq!(moves["winning_moves"][0], v["winning_moves"][0]);
}

#[test]
fn big_p_position_and_a_known_move() {
    // (p_n, q_n) for n = 10^30: p_n = ⌊nφ⌋ (n's φ digits: 1.6180339887498948482045868343656…).
    let n = "1000000000000000000000000000000";
    let p = "1618033988749894848204586834365";
    let q = "2618033988749894848204586834365";
    let v = json(&nimlab(&[
        "value",
        "wythoff",
        &format!("{q},{p}"),
        "--format",
        "json",
    ]));
    assert_eq!(v["outcome"], "P");
    let _ = n;
    // From (p_n + 7, q_n + 7) the winning move takes 7 from both heaps.
    let p7 = "1618033988749894848204586834372";
    let q7 = "2618033988749894848204586834372";
    let v = json(&nimlab(&["value", "wythoff", p7, q7, "--format", "json"]));
    assert_eq!(v["outcome"], "N");
    assert_eq!(big(&v["winning_moves"][0][0]), p.parse().unwrap());
    assert_eq!(big(&v["winning_moves"][0][1]), q.parse().unwrap());
}

#[test]
fn small_positions_still_get_the_grundy_value() {
    let v = json(&nimlab(&["value", "wythoff", "3,5", "--format", "json"]));
    assert_eq!(v["grundy"], 0);
    let v = json(&nimlab(&[
        "value", "wythoff", "100", "127", "--format", "json",
    ]));
    let g = nimlab_engine::Solver::new(&nimlab_games::wythoff::Wythoff)
        .grundy(&[100, 127])
        .unwrap();
    assert_eq!(v["grundy"], g);
    // Beyond the solver's old reach the planner still gives the exact value (line
    // kernel over the position's box) …
    let v = json(&nimlab(&[
        "value", "wythoff", "100", "128", "--format", "json",
    ]));
    let g = nimlab_engine::Solver::new(&nimlab_games::wythoff::Wythoff)
        .grundy(&[100, 128])
        .unwrap();
    assert_eq!(v["grundy"], g);
    assert_eq!(v["method"], "line-kernel");
    // … and beyond the exact-value budget the Zeckendorf strategy, without a value.
    let v = json(&nimlab(&[
        "value",
        "wythoff",
        "100000",
        "100000000",
        "--format",
        "json",
    ]));
    assert_eq!(v["grundy"], Value::Null);
    assert_eq!(v["method"], "strategy");
}

#[test]
fn malformed_big_positions_exit_2() {
    let a = digits(100_000, 3);
    let negative = format!("{a},-5");
    for args in [
        vec!["value", "wythoff", &a, "12x"],
        vec!["value", "wythoff", &negative],
        vec!["value", "wythoff", &a, &a, "7"],
        vec!["value", "wythoff", &a],
        vec!["moves", "wythoff", "1e100000,3"],
    ] {
        let o = nimlab(&args);
        assert_eq!(
            o.status.code(),
            Some(2),
            "{:?}",
            &args[2..].iter().map(|s| s.len()).collect::<Vec<_>>()
        );
        assert!(o.stdout.is_empty());
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.starts_with("nimlab: error: ") && err.lines().count() == 1,
            "{err}"
        );
        assert!(
            err.len() < 300,
            "the message abbreviates long numbers: {err}"
        );
    }
}

#[test]
fn wythoff_pairs_prints_the_seed_table() {
    // Seed 001: n, φ(n), p_n, φ(p_n), q_n, φ(q_n).
    let seed = [
        "1 1 1 1 2 10",
        "2 10 3 100 5 1000",
        "3 100 4 101 7 1010",
        "10 10010 16 100100 26 1001000",
        "13 100000 21 1000000 34 10000000",
        "20 101010 32 1010100 52 10101000",
    ];
    let text = stdout(&nimlab(&["wythoff-pairs", "--count", "20"]));
    let rows: Vec<Vec<&str>> = text
        .lines()
        .skip(1)
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(rows.len(), 20);
    for line in seed {
        let f: Vec<&str> = line.split(' ').collect();
        let n: usize = f[0].parse().unwrap();
        assert_eq!(rows[n - 1], f);
    }
    let v = json(&nimlab(&[
        "wythoff-pairs",
        "--count",
        "20",
        "--format",
        "json",
    ]));
    let last = &v["pairs"].as_array().unwrap()[19];
    assert_eq!(last["n"], 20);
    assert_eq!(last["p"], 32);
    assert_eq!(last["q"], 52);
    assert_eq!(last["q_code"], "10101000");

    let o = nimlab(&["wythoff-pairs", "--count", "100000000000"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn zeckendorf_theorems_hold() {
    let o = nimlab(&[
        "theorems",
        "verify",
        "--id",
        "wythoff.zeckendorf",
        "--format",
        "json",
    ]);
    let v = json(&o);
    let text = v.to_string();
    for id in ["p-even-zero", "q-up-p", "p-from-n", "strategy"] {
        assert!(text.contains(&format!("wythoff.zeckendorf.{id}")), "{text}");
    }
    assert!(
        !text.contains("Fails") && !text.contains("\"holds\":false"),
        "{text}"
    );
}
