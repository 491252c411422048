//! Conventions of the command line: completions, man page, the rules reference, one
//! family described, formulas that start with a minus sign.

use crate::common;
use common::nimlab;

#[test]
fn completions_and_man_page_are_generated() {
    for shell in ["bash", "zsh", "fish"] {
        let (code, out, _) = nimlab(&["completions", shell]);
        assert_eq!(code, 0, "{shell}");
        assert!(out.contains("nimlab"), "{shell}");
        assert!(out.contains("periodicity"), "{shell}: subcommands listed");
    }
    let (code, out, _) = nimlab(&["man"]);
    assert_eq!(code, 0);
    assert!(out.starts_with(".ie") || out.contains(".TH nimlab 1"));
    let (code, _, err) = nimlab(&["completions", "powershell-9"]);
    assert_eq!(code, 2);
    assert!(!err.is_empty());
}

#[test]
fn the_rules_reference_lists_every_key() {
    let (code, out, _) = nimlab(&["rules"]);
    assert_eq!(code, 0);
    for key in [
        "name",
        "description",
        "dimension",
        "coordinates",
        "params",
        "positions",
        "moves",
        "take_and_put",
        "grundy",
        "p_positions",
        "kind",
        "remove",
        "leave",
        "split",
    ] {
        assert!(out.contains(&format!("| `{key}` |")), "{key}");
    }
    let (code, help, _) = nimlab(&["help", "rules"]);
    assert_eq!(code, 0);
    assert!(help.contains("take_and_put"));
}

#[test]
fn one_family_is_described_with_its_theorems_and_capabilities() {
    let (code, out, _) = nimlab(&["games", "ryuoh"]);
    assert_eq!(code, 0);
    assert!(out.contains("theorem ryuoh.thm-3.1"));
    assert!(out.contains("line-moves"));
    assert!(!out.contains("wythoff"));
    let (code, out, _) = nimlab(&["games", "nim", "--format", "json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["games"][0]["name"], "nim");
    assert!(v["games"][0]["capabilities"]
        .as_array()
        .unwrap()
        .iter()
        .any(|c| c == "big-positions"));
    let (code, _, err) = nimlab(&["games", "chess"]);
    assert_eq!(code, 2);
    assert_eq!(err.lines().count(), 1);
}

#[test]
fn a_formula_may_start_with_a_minus_sign() {
    let (code, out, _) = nimlab(&["check", "nim(heaps=1)", "--formula", "-n", "--size", "5"]);
    assert_eq!(code, 1, "{out}"); // -n differs from n except at 0
    let (code, _, _) = nimlab(&["check", "nim(heaps=1)", "--formula", "-(-n)", "--size", "5"]);
    assert_eq!(code, 0);
}

#[test]
fn argument_errors_are_one_line() {
    for args in [
        vec!["table", "wythoff"],
        vec!["value"],
        vec!["frobnicate"],
        vec!["value", "nim", "-€€"],
        vec!["table", "wythoff", "--size", "many"],
    ] {
        let (code, out, err) = nimlab(&args);
        assert_eq!(code, 2, "{args:?}");
        assert!(out.is_empty(), "{args:?}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("nimlab: error: "), "{args:?}: {err}");
    }
    let (code, out, _) = nimlab(&["--version"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("nimlab "));
}

#[test]
fn a_rules_predicate_must_be_a_condition() {
    let dir = std::env::temp_dir().join(format!("nimlab-pred-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("bad.toml");
    std::fs::write(
        &file,
        "name = \"bad\"\ndimension = 2\nmoves = \"c0 + c1\"\n",
    )
    .unwrap();
    let (code, _, err) = nimlab(&["value", "--rules", file.to_str().unwrap(), "1,1"]);
    assert_eq!(code, 2);
    assert!(err.contains("must be a condition"), "{err}");
    assert_eq!(err.lines().count(), 1);
    std::fs::remove_dir_all(&dir).unwrap();
}
