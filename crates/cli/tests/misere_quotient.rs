//! `nimlab misere-quotient` and `census misere`: known answers and hostile input.

use crate::common;
use common::nimlab;

#[test]
fn octal_075_quotient_in_text_and_json() {
    let (code, out, err) = nimlab(&["misere-quotient", "0.75", "--max-heap", "12"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("|Q| = 8, |P| = 2, wild"), "{out}");
    assert!(
        out.contains("⟨a, b, c | a² = 1, bc = ab, c² = b², b³ = b⟩"),
        "{out}"
    );
    let (code, out, err) = nimlab(&[
        "misere-quotient",
        "octal(code=0.75)",
        "--max-heap",
        "12",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["size"], 8);
    assert_eq!(v["p_size"], 2);
    assert_eq!(v["table"].as_array().unwrap().len(), 8);
    assert_eq!(v["heaps"][1]["word"], "a");
    assert_eq!(v["heaps"][1]["p"], true);
}

#[test]
fn bad_input_is_one_line_and_exit_code_2() {
    for args in [
        vec!["misere-quotient", "nim"],
        vec!["misere-quotient", "ünïcode"],
        vec!["misere-quotient", "0.75", "--max-heap", "5000"],
        vec![
            "misere-quotient",
            "0.75",
            "--max-heap",
            "99999999999999999999",
        ],
        vec!["misere-quotient", "0.75", "--max-elements", "0"],
        vec!["misere-quotient", "0.75", "-o", "/dev/full"],
        vec!["census", "misere", "--digits", "9"],
        vec!["census", "misere", "--digits", "2", "--max-heap", "0"],
    ] {
        let (code, out, err) = nimlab(&args);
        assert_eq!(code, 2, "{args:?}: {out} {err}");
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
    }
}

#[test]
fn census_misere_of_one_digit_codes() {
    let (code, out, err) = nimlab(&["census", "misere", "--digits", "1", "--max-heap", "10"]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 7); // 0.1 … 0.7
                                // 0.3 ("she loves me"): take one, leave nothing or one heap: the tame T₁.
    let she = lines.iter().find(|l| l["code"] == "0.3").unwrap();
    assert_eq!(
        (she["size"].as_u64(), she["p_size"].as_u64()),
        (Some(2), Some(1))
    );
    assert!(err.contains("codes settled"), "{err}");
}

#[test]
fn a_huge_misere_census_is_refused_after_a_short_pilot() {
    // The pilot charges a game it cuts short a share of the hour each game may take,
    // so the first cut game already puts 4095 codes to heap 1000 over the limit.
    let (code, out, err) = nimlab(&[
        "census",
        "misere",
        "--digits",
        "4",
        "--max-heap",
        "1000",
        "--seconds",
        "3600",
    ]);
    assert_eq!(code, 2, "{out} {err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    // A refusal of the whole census by its estimate (TooLong), not a run cut short:
    // checked by its words, not by the time it took.
    assert!(
        err.contains("a misère census of 4095 codes to heap 1000 would take about"),
        "{err}"
    );
    assert!(err.contains("(estimate); pass --force"), "{err}");
    assert!(out.is_empty(), "{out}");
}
