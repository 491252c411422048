//! CLI tests of `nimlab sg-system`, `welter` and `takeaway`.

use crate::common;
use common::nimlab;

/// Runs `nimlab sg-system --phi PHI --moves MOVES REST…`.
fn sg_system(phi: &str, moves: &str, rest: &[&str]) -> (i32, String, String) {
    let mut args = vec!["sg-system", "--phi", phi, "--moves", moves];
    args.extend(rest);
    nimlab(&args)
}

#[test]
fn sg_system_holds_and_says_it_is_a_box_check() {
    let (code, out, err) = sg_system(
        "sigma(beta=[3..])",
        "Cbeta(beta=[3..])",
        &["--dim", "3", "--size", "9"],
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("holds on [0,9)^3"), "{out}");
    assert!(out.contains("not a proof"), "{out}");
}

#[test]
fn sg_system_json_violation_and_exit_1() {
    let (code, out, _) = sg_system(
        "nimsum",
        "[[1,0],[0,1]]",
        &["--size", "8", "--format", "json"],
    );
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["schema"], 1);
    assert_eq!(v["holds"], false);
    assert_eq!(v["violation"]["condition"], "SG2");
    assert_eq!(v["violation"]["position"], serde_json::json!([2, 0]));
    assert_eq!(v["violation"]["missing"], 0);
}

#[test]
fn sg_system_minimal_and_maximal() {
    let (code, out, err) = sg_system(
        "nimhoff(b=3)",
        "Abeta(beta=[3,2..])",
        &["--size", "12", "--minimal", "--maximal", "--format", "json"],
    );
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["minimal"]["necessary_form_a_system"], true);
    assert_eq!(v["minimal"]["least_weight"], 2);
    assert_eq!(v["minimal"]["theorem_4_4_weight"], 2);
    assert_eq!(v["maximal"]["set_equals_a_beta"], true);
    assert_eq!(
        v["maximal"]["in_a_beta_not_c_beta"],
        serde_json::Value::Null
    );
    let (code, out, _) = sg_system(
        "sigma(beta=[3..])",
        "Cbeta(beta=[3..])",
        &["--size", "12", "--maximal"],
    );
    assert_eq!(code, 0);
    assert!(out.contains("A^β ≠ C^β: e.g. (11,1)"), "{out}");
}

#[test]
fn sg_system_bad_input_is_one_line_exit_2() {
    for (phi, moves, rest) in [
        ("x0 +", "C1", &[] as &[&str]),
        ("nimsum", "Cbeta(beta=[1..])", &[]),
        ("nimsum", "[[1,0,0]]", &[]),
        ("nimsum", "C1", &["--dim", "0"]),
        ("nimsum", "C1", &["--dim", "9"]),
        ("nimsum", "C1", &["--size", "0"]),
        ("nimsum", "C1", &["--size", "99999999999"]),
        ("x0 xor x1", "C1", &["--maximal"]),
        ("nimsum", "c0 > 0", &["--positions", "x0 + 1"]),
        ("€€€", "C1", &[]),
        ("nimhoff(b=1)", "C1", &[]),
    ] {
        let (code, out, err) = sg_system(phi, moves, rest);
        let args = (phi, moves, rest);
        assert_eq!(code, 2, "{args:?}: {out} {err}");
        assert!(out.is_empty(), "{args:?}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    }
}

#[test]
fn welter_values_big_heaps_with_winning_moves() {
    let (code, out, err) = nimlab(&[
        "value",
        "welter(heaps=3)",
        "123456789012345678901234567890,98765432109876543210,5",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["method"], "closed-form");
    assert!(!v["winning_moves"].as_array().unwrap().is_empty());
    let (code, _, err) = nimlab(&["value", "welter", "3,3,1"]);
    assert_eq!(code, 2);
    assert!(err.contains("distinct"), "{err}");
}

#[test]
fn takeaway_game_from_the_catalog() {
    let (code, out, err) = nimlab(&[
        "check",
        "takeaway(dim=2,moves=Cbeta(beta=[60,24,7..]))",
        "--formula",
        "sigma(beta=[60,24,7..], x, y)",
        "--size",
        "70",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("no mismatch"), "{out}");
}
