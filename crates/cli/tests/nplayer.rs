//! n-player games through the binary: value, moves, table (text, JSON, png), theorems,
//! big heaps and clean refusals.

use crate::common;
use common::nimlab;
use serde_json::Value;

/// Runs `nimlab ARGS --format json`, which must succeed: its JSON.
fn json(args: &[&str]) -> Value {
    let mut all = args.to_vec();
    all.extend(["--format", "json"]);
    let (code, out, err) = nimlab(&all);
    assert_eq!(code, 0, "{all:?}: {err}");
    serde_json::from_str(&out).unwrap()
}

#[test]
fn value_prints_class_ranks_and_best_moves() {
    let (code, out, err) = nimlab(&["value", "nplayer-nim(n=3)", "14,11,10,7"]);
    assert_eq!(code, 0, "{err}");
    for line in [
        "class:    2",
        "rank:     2nd of 3",
        "P1 2nd, P2 1st, P3 3rd",
        "best moves: ",
    ] {
        assert!(out.contains(line), "{line:?} in {out}");
    }
    let v = json(&["value", "nplayer-nim(n=3)", "14,11,10,7"]);
    assert_eq!(v["schema"], 1);
    assert_eq!(v["class"], 2);
    assert_eq!(v["rank"], 2);
    assert_eq!(v["ranks"], serde_json::json!([2, 1, 3]));
    assert_eq!(v["players"], 3);
    assert_eq!(v["ranking"], "normal");
    assert_eq!(v["all_best_moves"], true);
    // Every best move leads to class 1, where the mover (now P3) ranks 1st... i.e. P1
    // gets rank 2: check each with the binary itself.
    for m in v["best_moves"].as_array().unwrap() {
        let pos: Vec<String> = m
            .as_array()
            .unwrap()
            .iter()
            .map(|h| h.to_string())
            .collect();
        let next = json(&["value", "nplayer-nim(n=3)", &pos.join(",")]);
        assert_eq!(next["class"], 1, "{pos:?}");
    }
}

#[test]
fn moves_list_every_option_with_its_class() {
    // Theorem A fails for take-1-or-2: heap 5 has class 0 (mover last) although its
    // 3-nim sum is not 0.
    let v = json(&["moves", "nplayer(subtraction(s={1,2}),n=3)", "5"]);
    assert_eq!(v["class"], 0);
    assert_eq!(v["rank"], 3);
    let options = v["options"].as_array().unwrap();
    assert_eq!(options.len(), 2);
    assert!(options.iter().all(|o| o["class"] == 2 && o["rank"] == 3));
    let (code, out, _) = nimlab(&["moves", "nplayer(subtraction(s={1,2}),n=3)", "5"]);
    assert_eq!(code, 0);
    assert!(out.contains("class 2  → P1 ranks 3rd  ← best"), "{out}");
}

#[test]
fn two_players_agree_with_normal_and_misere_nim() {
    for pos in ["1,2,3", "1,1,5", "4,4", "1,1,1", "7,2,5"] {
        let nim = json(&["value", "nim", pos]);
        let two = json(&["value", "nplayer-nim(n=2)", pos]);
        assert_eq!(nim["outcome"] == "P", two["rank"] == 2, "{pos}");
        let mis = json(&["value", "misere(nim)", pos]);
        let two = json(&["value", "nplayer-nim(n=2,ranking=retreat(2))", pos]);
        assert_eq!(mis["outcome"] == "P", two["rank"] == 2, "{pos}");
    }
}

#[test]
fn sigma_games_and_the_recursion() {
    let v = json(&["value", "nplayer(nim,n=3,ranking=perm(2,1,3))", "4,5,6"]);
    assert_eq!(v["method"], "brute-force");
    assert_eq!(v["ranking"], "perm(2,1,3)");
    let mut ranks: Vec<u64> = v["ranks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_u64().unwrap())
        .collect();
    ranks.sort();
    assert_eq!(ranks, vec![1, 2, 3]);
}

#[test]
fn tables_of_classes() {
    let (code, out, err) = nimlab(&["table", "nplayer(subtraction(s={1,2}),n=3)", "--size", "8"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("class 0 1 1 2 2 0 1 1"), "{out}");
    let (_, csv, _) = nimlab(&[
        "table",
        "nplayer-nim(n=3)",
        "--size",
        "2",
        "--format",
        "csv",
    ]);
    assert!(csv.starts_with("x,y,class\n0,0,0\n"), "{csv}");
    let v = json(&["table", "nplayer-nim(n=3,heaps=3)", "--size", "2"]);
    assert_eq!(v["values_are"], "class");
    assert_eq!(v["players"], 3);
    assert_eq!(
        v["values"],
        serde_json::json!([[[0, 1], [1, 2]], [[1, 2], [2, 0]]])
    );
    let dir = std::env::temp_dir().join(format!("nimlab-nplayer-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let png = dir.join("classes.png");
    let (code, _, err) = nimlab(&[
        "table",
        "nplayer-nim(n=4)",
        "--size",
        "16",
        "-o",
        png.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let bytes = std::fs::read(&png).unwrap();
    assert_eq!(&bytes[1..4], b"PNG");
    let text = String::from_utf8_lossy(&bytes);
    assert!(text.contains("n-player classes (4 players)"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn big_heaps_by_the_closed_form() {
    let heaps: Vec<String> = ["7", "5", "3", "8"]
        .iter()
        .map(|d| d.repeat(10_000))
        .collect();
    let mut args = vec!["value", "nplayer-nim(n=3)"];
    args.extend(heaps.iter().map(String::as_str));
    let v = json(&args);
    assert_eq!(v["method"], "closed-form");
    assert!(!v["best_moves"].as_array().unwrap().is_empty());
    // A σ-game without closed form refuses big heaps cleanly.
    let (code, out, err) = nimlab(&[
        "value",
        "nplayer-nim(n=3,ranking=perm(2,1,3))",
        &"9".repeat(40),
    ]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(err.contains("no closed form"), "{err}");
    // Too many heaps for the closed form's programme: refused up front, and without
    // suggesting --force (which cannot lift it).
    let many = vec!["12345678901234567890123"; 30].join(",");
    let (code, out, err) = nimlab(&["value", "nplayer-nim(n=64)", &many]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(
        err.contains("meant for few heaps") && !err.contains("--force"),
        "{err}"
    );
}

#[test]
fn theorems_verify_including_the_negative_result() {
    let (code, out, err) = nimlab(&["theorems", "verify", "--id", "nplayer"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("nplayer-nim.theorem-a: holds"), "{out}");
    assert!(out.contains("nplayer-nim.theorem-b: holds"), "{out}");
    assert!(
        out.contains("expected counterexample found — heap 5 has 3-nim sum 10"),
        "{out}"
    );
}

#[test]
fn bad_specs_are_refused_in_one_line() {
    for spec in [
        "nplayer(nim,n=1)",
        "nplayer(nim,n=100)",
        "nplayer(nim,n=3,ranking=retreat(0))",
        "nplayer(nim,n=3,ranking=perm(1,2,2))",
        "nplayer(nim,n=3,ranking=perm(1,2))",
        "nplayer(nim,n=3,ranking=sideways)",
        "nplayer-nim(n=x)",
        "nplayer(nplayer-nim)",
    ] {
        let (code, out, err) = nimlab(&["value", spec, "3,4"]);
        assert_eq!(code, 2, "{spec}: {err}");
        assert!(out.is_empty());
        assert_eq!(err.lines().count(), 1, "{spec}: {err}");
    }
}
