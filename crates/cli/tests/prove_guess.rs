//! `nimlab guess --prove`: each formula found is proved by the same library call as
//! `nimlab prove`; every proved formula also passes `check` on a window.

use crate::common::{code, run as nimlab};
use serde_json::Value;

#[test]
fn guess_prove_proves_what_it_found_and_check_agrees() {
    for (game, size) in [("ryuoh(p=3)", "13"), ("subtraction(s={1,2,3})", "40")] {
        let out = nimlab(&["guess", game, "--size", size, "--prove", "--format", "json"]);
        assert_eq!(code(&out), 0, "{}", String::from_utf8_lossy(&out.stderr));
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        let found = v["found"].as_array().unwrap();
        assert!(!found.is_empty());
        for f in found {
            let formula = f["formula"].as_str().unwrap();
            assert_eq!(f["proof"]["result"]["proved"], true, "{game}: {formula}");
            // the proof agrees with brute force on a window larger than guess's
            let c = nimlab(&["check", game, "--formula", formula, "--size", "60"]);
            assert_eq!(code(&c), 0, "{game}: {formula}");
        }
        let text = nimlab(&["guess", game, "--size", size, "--prove"]);
        let t = String::from_utf8_lossy(&text.stdout).to_string();
        assert!(t.contains("prove: proved for all positions"), "{t}");
    }
}

#[test]
fn guess_prove_exit_codes() {
    // found but not expressible (a Beatty predicate with squares): exit 1, reason shown
    let out = nimlab(&["guess", "wythoff", "--p-positions", "--prove"]);
    assert_eq!(code(&out), 1, "{}", String::from_utf8_lossy(&out.stderr));
    let t = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(t.contains("prove: not proved: not expressible"), "{t}");
    // without --prove the same search exits 0 (something was found)
    assert_eq!(code(&nimlab(&["guess", "wythoff", "--p-positions"])), 0);
    // --prove needs a game
    let bad = nimlab(&["guess", "--from-table", "t.csv", "--prove"]);
    assert_eq!(code(&bad), 2);
}

#[test]
fn irie_c_beta_in_mixed_radix() {
    let game = "takeaway(dim=2, moves=Cbeta(beta=[2,3..]))";
    let ok = nimlab(&[
        "prove",
        game,
        "--formula",
        "sigma(beta=[2,3..], x, y)",
        "--numeration",
        "mixed([2,3..])",
    ]);
    assert_eq!(code(&ok), 0, "{}", String::from_utf8_lossy(&ok.stderr));
    // the proved formula also agrees with brute force on a window
    let c = nimlab(&[
        "check",
        game,
        "--formula",
        "sigma(beta=[2,3..], x, y)",
        "--size",
        "40",
    ]);
    assert_eq!(code(&c), 0);
    // σ^[3..] is not the SG function of C^[2,3..]: the solver confirms the counterexample
    let wrong = nimlab(&[
        "prove",
        game,
        "--formula",
        "sigma(beta=[3..], x, y)",
        "--numeration",
        "mixed([2,3..])",
    ]);
    assert_eq!(code(&wrong), 1);
    let t = String::from_utf8_lossy(&wrong.stdout).to_string();
    assert!(t.contains("re-check:   at "), "{t}");
    // a repeating block whose product exceeds 16: refused, one line, exit 2
    let bad = nimlab(&[
        "prove",
        game,
        "--formula",
        "x",
        "--numeration",
        "mixed([2,(3,6)..])",
    ]);
    assert_eq!(code(&bad), 2);
    assert_eq!(String::from_utf8_lossy(&bad.stderr).lines().count(), 1);
}

#[test]
fn theorems_show_and_prove_their_claims() {
    // the list says, per theorem, whether it is provable for all positions
    let list = nimlab(&["theorems", "--format", "json"]);
    assert_eq!(code(&list), 0);
    let v: Value = serde_json::from_slice(&list.stdout).unwrap();
    let theorems = v["theorems"].as_array().unwrap();
    let provable: Vec<&Value> = theorems
        .iter()
        .filter(|t| !t["provable_for"].as_array().unwrap().is_empty())
        .collect();
    assert!(provable.iter().any(|t| t["id"] == "irie.thm-4.3"));
    assert!(
        provable.len() < theorems.len(),
        "some are verified on windows only"
    );
    let text = String::from_utf8_lossy(&nimlab(&["theorems"]).stdout).to_string();
    assert!(text.contains("status: proved for all positions"), "{text}");
    assert!(text.contains("status: verified on windows only"), "{text}");
    // `theorems prove` proves every registered claim (exit 0), one record each
    let out = nimlab(&["theorems", "prove", "--format", "json"]);
    assert_eq!(code(&out), 0, "{}", String::from_utf8_lossy(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["proved"], true);
    let results = v["results"].as_array().unwrap();
    let claims: usize = provable
        .iter()
        .map(|t| t["provable_for"].as_array().unwrap().len())
        .sum();
    assert_eq!(results.len(), claims);
    assert!(results.iter().all(|r| r["proved"] == true));
    // the block β = (2, 3, 2, 3, …) is among them, read in base 6
    assert!(results
        .iter()
        .any(|r| r["numeration"] == "mixed([(2,3)..])"));
    let one = nimlab(&["theorems", "prove", "--id", "ryuoh"]);
    assert_eq!(code(&one), 0);
    let t = String::from_utf8_lossy(&one.stdout).to_string();
    assert!(t.contains("proved for all positions"), "{t}");
}
