//! CLI tests of `nimlab periodicity` and `nimlab sweep`.

use crate::common;
use common::nimlab;

fn json(args: &[&str]) -> serde_json::Value {
    let (code, out, err) = nimlab(args);
    assert_eq!(code, 0, "{args:?}: {err}");
    serde_json::from_str(&out).expect("valid JSON")
}

/// `nimlab periodicity SPEC --format json`: the JSON, the preperiod a, the period p and
/// the values listed, which are the first a + p.
fn period_of(spec: &str) -> (serde_json::Value, usize, usize, Vec<u64>) {
    let v = json(&["periodicity", spec, "--format", "json"]);
    let a = v["preperiod"].as_u64().unwrap() as usize;
    let p = v["period"].as_u64().unwrap() as usize;
    let values: Vec<u64> = v["values"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap())
        .collect();
    assert_eq!(values.len(), a + p, "{spec}");
    (v, a, p, values)
}

/// The plain mex recurrence, written independently of the code under test.
fn naive(s: &[usize], len: usize) -> Vec<u64> {
    let mut g: Vec<u64> = Vec::new();
    for n in 0..len {
        let opts: Vec<u64> = s.iter().filter(|&&t| t <= n).map(|&t| g[n - t]).collect();
        g.push((0..).find(|m| !opts.contains(m)).unwrap());
    }
    g
}

#[test]
fn subtraction_period_is_proven_and_right() {
    for (spec, s) in [
        ("subtraction(s={1,3,4})", vec![1, 3, 4]),
        ("subtraction(s={9,20,29})", vec![9, 20, 29]),
        ("subtraction(s={2,5,6,13})", vec![2, 5, 6, 13]),
    ] {
        let (v, a, p, values) = period_of(spec);
        assert_eq!(v["proven"], true);
        let g = naive(&s, a + 5 * p + 100);
        for (n, &gn) in g.iter().enumerate() {
            let claimed = if n < a {
                values[n]
            } else {
                values[a + (n - a) % p]
            };
            assert_eq!(claimed, gn, "{spec} n={n}");
        }
    }
    let v = json(&[
        "periodicity",
        "subtraction(s={9,20,29})",
        "--format",
        "json",
    ]);
    assert_eq!(v["period"], 378);
    let (code, out, _) = nimlab(&["periodicity", "subtraction(s={1,3,4})"]);
    assert_eq!(code, 0);
    assert!(out.contains("period:     7") && out.contains("block:      0 1 0 1 2 3 2"));
}

#[test]
fn wythoff_rows_have_the_published_periods() {
    // Dress, Flammenkamp and Pink: rows 0–10 are additively periodic with these periods.
    let v = json(&[
        "periodicity",
        "wythoff",
        "--row",
        "0-10",
        "--up-to",
        "1500",
        "--format",
        "json",
    ]);
    let rows = v["rows"].as_array().unwrap();
    let periods: Vec<u64> = rows.iter().map(|r| r["period"].as_u64().unwrap()).collect();
    assert_eq!(periods, vec![1, 3, 3, 6, 12, 24, 12, 24, 24, 24, 24]);
    for r in rows {
        assert_eq!(r["saltus"], r["period"]);
        assert_eq!(r["proven"], false);
    }
    let v = json(&[
        "periodicity",
        "wythoff",
        "--row",
        "4",
        "--up-to",
        "600",
        "--format",
        "json",
    ]);
    assert_eq!(v["rows"][0]["row"], 4);
    assert_eq!(v["rows"][0]["period"], 12);
}

#[test]
fn one_heap_games_without_proof_report_an_observed_period() {
    // `nim` with one heap is not periodic (G(n) = n: saltus 1, period 1).
    let v = json(&[
        "periodicity",
        "nim(heaps=1)",
        "--up-to",
        "300",
        "--format",
        "json",
    ]);
    assert_eq!(v["proven"], false);
    assert_eq!(v["period"], 1);
    assert_eq!(v["saltus"], 1);
}

#[test]
fn sweep_finds_the_longest_period_and_shards_merge() {
    // `nimlab sweep subtraction --max MAX --size SIZE REST… --format json`
    let sweep_json = |max, size, rest: &[&str]| {
        let mut args = vec!["sweep", "subtraction", "--max", max, "--size", size];
        args.extend(rest);
        args.extend(["--format", "json"]);
        json(&args)
    };
    let v = sweep_json("30", "3", &[]);
    let results = v["results"].as_array().unwrap();
    assert_eq!(results.len(), 4060);
    assert_eq!(results[0]["s"], serde_json::json!([9, 20, 29]));
    assert_eq!(results[0]["period"], 378);
    // shards 0/3, 1/3, 2/3 together are the whole sweep
    let mut merged: Vec<serde_json::Value> = (0..3)
        .flat_map(|i| {
            let shard = format!("{i}/3");
            let v = sweep_json("12", "3", &["--shard", &shard]);
            v["results"].as_array().unwrap().clone()
        })
        .collect();
    let key = |r: &serde_json::Value| {
        (
            std::cmp::Reverse(r["period"].as_u64().unwrap()),
            std::cmp::Reverse(r["preperiod"].as_u64().unwrap()),
            r["s"]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_u64().unwrap())
                .collect::<Vec<_>>(),
        )
    };
    merged.sort_by_key(key);
    let whole = sweep_json("12", "3", &[]);
    assert_eq!(&merged, whole["results"].as_array().unwrap());
    // spot-check against the naive recurrence
    for r in whole["results"].as_array().unwrap().iter().take(5) {
        let s: Vec<usize> = r["s"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_u64().unwrap() as usize)
            .collect();
        let (a, p) = (
            r["preperiod"].as_u64().unwrap() as usize,
            r["period"].as_u64().unwrap() as usize,
        );
        let g = naive(&s, a + 4 * p + 50);
        assert!((a..g.len() - p).all(|n| g[n] == g[n + p]));
    }
}

#[test]
fn big_heaps_answer_from_the_period() {
    let big = "9".repeat(300);
    let v = json(&["value", "subtraction(s={1,2,3})", &big, "--format", "json"]);
    assert_eq!(v["grundy"], 3); // 99…9 ≡ 3 (mod 4)
    let moves = v["winning_moves"].as_array().unwrap();
    assert_eq!(moves.len(), 1);
    // a heap beyond 2^53 − 1 is a JSON string of its digits
    assert!(moves[0][0].as_str().unwrap().ends_with("96"));
}

#[test]
fn bad_input_exits_2_with_one_line() {
    let sharded = |shard| {
        vec![
            "sweep",
            "subtraction",
            "--max",
            "5",
            "--size",
            "2",
            "--shard",
            shard,
        ]
    };
    for args in [
        vec!["periodicity", "chess"],
        vec!["periodicity", "wythoff"],
        vec!["periodicity", "wythoff", "--row", "x"],
        vec!["periodicity", "wythoff", "--row", "5-2"],
        vec!["periodicity", "subtraction(s={1,2})", "--row", "3"],
        vec!["periodicity", "subtraction(s={9,20,29})", "--up-to", "50"],
        vec!["periodicity", "subtraction(s={1,2})", "--up-to", "0"],
        vec!["periodicity", "nim(heaps=3)"],
        vec!["sweep", "octal", "--max", "5", "--size", "2"],
        vec!["sweep", "subtraction", "--max", "5", "--size", "6"],
        sharded("3/3"),
        sharded("x"),
        vec!["value", "subtraction(s={1,2})", "3,4"],
    ] {
        let (code, out, err) = nimlab(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("nimlab: error: "), "{args:?}: {err}");
    }
}

#[test]
fn long_preperiods_are_cut_in_text_and_whole_in_json() {
    // 0.156: preperiod 3479, period 349 (proven after about 8000 terms).
    let game = "octal(code=0.156)";
    let (_, a, p, values) = period_of(game);
    assert!(a > 200 && p > 200, "{a} {p}");
    let (code, out, err) = nimlab(&["periodicity", game]);
    assert_eq!(code, 0, "{err}");
    assert!(out.lines().count() < 10, "{out}");
    let line = |key: &str| -> String {
        out.lines()
            .find(|l| l.starts_with(key))
            .unwrap_or_else(|| panic!("{key} in {out}"))
            .to_string()
    };
    let first = |from: usize| -> String {
        values[from..from + 200]
            .iter()
            .map(|v| v.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    };
    let pre = line("preperiod values: ");
    assert_eq!(
        pre,
        format!(
            "preperiod values: {} … ({a} values; --format json or --certificate FILE for all)",
            first(0)
        )
    );
    let block = line("block:");
    assert!(block.ends_with(&format!(
        "{} … ({p} values; --format json or --certificate FILE for all)",
        first(a)
    )));
}
