//! CLI tests for octal games and Grundy's game.

use crate::common;
use common::nimlab;

/// Dawson's Chess (0.137) by a plain mex loop written here: take 1 only from a heap of
/// 1, take 2 leaving at most one heap, take 3 leaving at most two heaps.
fn dawson(len: usize) -> Vec<u32> {
    let mut g: Vec<u32> = Vec::new();
    for n in 0..len {
        let mut opts = Vec::new();
        if n == 1 {
            opts.push(0);
        }
        if n >= 2 {
            opts.push(g[n - 2]);
        }
        if n >= 3 {
            for a in 0..=n - 3 {
                opts.push(g[a] ^ g[n - 3 - a]);
            }
        }
        g.push((0..).find(|v| !opts.contains(v)).unwrap());
    }
    g
}

fn csv_values(out: &str) -> Vec<u32> {
    out.lines()
        .skip(1)
        .map(|l| l.rsplit(',').next().unwrap().trim().parse().unwrap())
        .collect()
}

#[test]
fn value_of_a_dawson_kayles_heap() {
    let g = dawson(101);
    let (code, out, _) = nimlab(&["value", "octal(code=0.137)", "100", "--format", "json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["grundy"], g[100]);
    assert_eq!(v["game"], "octal(code=0.137)");
    // Each winning move leaves heaps whose values nim-sum to 0.
    let moves = v["winning_moves"].as_array().unwrap();
    assert!(!moves.is_empty());
    for m in moves {
        let heaps: Vec<usize> = m
            .as_array()
            .unwrap()
            .iter()
            .map(|h| h.as_u64().unwrap() as usize)
            .collect();
        assert_eq!(heaps.iter().fold(0, |acc, &h| acc ^ g[h]), 0, "{heaps:?}");
    }
    let (code, text, _) = nimlab(&["value", "octal(code=0.137)", "100"]);
    assert_eq!(code, 0);
    assert!(text.contains(&format!("grundy:   {}", g[100])), "{text}");
}

#[test]
fn kayles_table_of_100() {
    let (code, out, err) = nimlab(&[
        "table",
        "octal(code=0.77)",
        "--size",
        "100",
        "--format",
        "csv",
    ]);
    assert_eq!(code, 0, "{err}");
    let values = csv_values(&out);
    assert_eq!(values.len(), 100);
    // Kayles (Winning Ways): 0 1 2 3 1 4 3 2 1 4 2 6, and period 12 from n = 71.
    assert_eq!(&values[..12], &[0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]);
    for n in 71..88 {
        assert_eq!(values[n], values[n + 12], "n = {n}");
    }
    let (code, text, _) = nimlab(&["table", "octal(code=0.77)", "--size", "100"]);
    assert_eq!(code, 0);
    assert!(text.contains("  6"), "{text}");
}

#[test]
fn huge_heaps_answer_from_the_certified_period() {
    let g = dawson(200);
    let (code, out, _) = nimlab(&[
        "value",
        "octal(code=0.137)",
        "1000000000000000000000000000000000000000",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    // 10^39 ≡ r (mod 34); the value is that of the heap 52 + ((10^39 − 52) mod 34).
    let r = (0..39).fold(1u64, |acc, _| acc * 10 % 34);
    let shift = (r + 34 * 2 - 52 % 34) % 34;
    assert_eq!(v["grundy"], g[52 + shift as usize]);
}

#[test]
fn bad_codes_are_one_line_errors() {
    for spec in [
        "octal(code=0.8)",
        "octal(code=abc)",
        "octal(code=1.7)",
        "octal(code=0.7,base=9)",
    ] {
        let (code, out, err) = nimlab(&["value", spec, "5"]);
        assert_eq!(code, 2, "{spec}");
        assert!(out.is_empty());
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.starts_with("nimlab: error: octal(code="), "{err}");
    }
}

#[test]
fn grundy_game_values() {
    let (code, out, _) = nimlab(&["table", "grundy-game", "--size", "10", "--format", "csv"]);
    assert_eq!(code, 0);
    assert_eq!(csv_values(&out), [0, 0, 0, 1, 0, 2, 1, 0, 2, 1]);
}
