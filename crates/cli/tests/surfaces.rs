//! One shape across commands: flag words, `--format`, `-o`, and library errors worded
//! with the command line's flags (issue 23's surfaces half).

use crate::common;
use common::nimlab;

fn json(args: &[&str]) -> serde_json::Value {
    let (code, out, err) = nimlab(args);
    assert!(code == 0 || code == 1, "{args:?}: {err}");
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("{args:?}: {e}: {out}"))
}

#[test]
fn old_and_new_flag_spellings_agree() {
    let sweep = |size_flag, count_flag| {
        vec![
            "sweep",
            "subtraction",
            "--max",
            "8",
            size_flag,
            "2",
            count_flag,
            "3",
        ]
    };
    let check = |count_flag| {
        vec![
            "check",
            "ryuoh(p=3)",
            "--formula",
            "x xor y",
            "--size",
            "8",
            count_flag,
            "2",
        ]
    };
    let with_json = |mut a: Vec<&'static str>| {
        a.extend(["--format", "json"]);
        json(&a)
    };
    for (new, old) in [
        (sweep("--set-size", "--count"), sweep("--size", "--top")),
        (check("--count"), check("--limit")),
        (
            vec!["chocolate", "condition", "--f", "t/2", "--up-to", "16"],
            vec!["chocolate", "condition", "--f", "t/2", "--window", "16"],
        ),
    ] {
        assert_eq!(with_json(new), with_json(old));
    }
    let c = with_json(check("--count"));
    assert_eq!(c["mismatches"].as_array().unwrap().len(), 2);
    // The old spellings are hidden from the help.
    let (_, help, _) = nimlab(&["sweep", "--help"]);
    assert!(
        help.contains("--set-size") && help.contains("--count"),
        "{help}"
    );
}

#[test]
fn library_limits_are_worded_as_flags() {
    let (code, out, err) = nimlab(&["sweep", "subtraction", "--max", "3", "--set-size", "5"]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(
        err.contains("--set-size 5") && err.contains("at most"),
        "{err}"
    );
    let (code, _, err) = nimlab(&["census", "octal", "--digits", "9"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("--digits 9") && err.contains("between 1 and 6"),
        "{err}"
    );
    let (code, _, err) = nimlab(&["check", "nim", "--formula", "x", "--size", "0"]);
    assert_eq!(code, 2);
    assert!(err.contains("--size 0"), "{err}");
}

#[test]
fn unknown_output_extensions_are_refused() {
    let dir = std::env::temp_dir().join(format!("nimlab-surfaces-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let jpg = dir.join("x.jpg");
    let (code, out, err) = nimlab(&[
        "table",
        "wythoff",
        "--size",
        "4",
        "-o",
        jpg.to_str().unwrap(),
    ]);
    assert_eq!((code, out.as_str()), (2, ""), "{err}");
    assert!(err.contains(".jpg") && err.contains("--format"), "{err}");
    assert!(!jpg.exists());
    // With --format the name is the user's choice; nothing is said on stderr.
    let (code, _, err) = nimlab(&[
        "table",
        "wythoff",
        "--size",
        "4",
        "--format",
        "csv",
        "-o",
        jpg.to_str().unwrap(),
    ]);
    assert_eq!((code, err.as_str()), (0, ""));
    assert!(std::fs::read_to_string(&jpg).unwrap().starts_with("x,y"));
    let png = dir.join("c.png");
    let (code, out, err) = nimlab(&[
        "check",
        "wythoff",
        "--formula",
        "x xor y",
        "--size",
        "8",
        "-o",
        png.to_str().unwrap(),
    ]);
    assert_eq!((code, err.as_str()), (1, ""));
    assert!(!out.contains("wrote"), "{out}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn p_position_mismatches_say_what_differs() {
    let (code, out, _) = nimlab(&["check", "nim", "--p-positions", "x == 0", "--size", "3"]);
    assert_eq!(code, 1);
    assert!(
        out.contains("outcome") && out.contains("predicate"),
        "{out}"
    );
    // (1,1) is a P-position the predicate calls N; (0,1) an N-position it calls P.
    let line = |p: &str| out.lines().find(|l| l.trim_start().starts_with(p)).unwrap();
    assert!(
        line("1,1").contains("P (grundy 0)") && line("1,1").contains("says N"),
        "{out}"
    );
    assert!(
        line("0,1").contains("N (grundy 1)") && line("0,1").contains("says P"),
        "{out}"
    );
    assert!(!out.contains("predicate 0"));
}

#[test]
fn census_octal_has_a_format() {
    let lines = |format: &str| {
        let (code, out, err) = nimlab(&["census", "octal", "--digits", "1", "--format", format]);
        assert_eq!(code, 0, "{err}");
        let mut l: Vec<String> = out.lines().map(str::to_string).collect();
        l.sort();
        l
    };
    let json_lines = lines("json");
    let text = lines("text");
    assert_eq!(json_lines.len(), text.len());
    for (j, t) in json_lines.iter().zip(&text) {
        let v: serde_json::Value = serde_json::from_str(j).unwrap();
        assert!(
            t.starts_with(&format!(
                "{}: {}",
                v["code"].as_str().unwrap(),
                v["status"].as_str().unwrap()
            )),
            "{t} / {j}"
        );
    }
}

#[test]
fn guess_uses_the_period_the_game_proves() {
    // Period 22 is longer than a third of the default training window (64 values).
    let v = json(&["guess", "subtraction(s={2,5,7})", "--format", "json"]);
    let found = v["found"].as_array().unwrap();
    let proven = found
        .iter()
        .find(|f| f["family"] == "proven period")
        .unwrap_or_else(|| panic!("{v}"));
    let p = json(&["periodicity", "subtraction(s={2,5,7})", "--format", "json"]);
    assert_eq!(p["period"], 22);
    // The formula is the game's: it checks on a window far beyond the training one.
    let c = json(&[
        "check",
        "subtraction(s={2,5,7})",
        "--formula",
        proven["formula"].as_str().unwrap(),
        "--size",
        "5000",
        "--format",
        "json",
    ]);
    assert_eq!(c["holds"], true, "{c}");
    // A table alone says which limit stopped the period search.
    let dir = std::env::temp_dir().join(format!("nimlab-guess-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let t = dir.join("t.json");
    let (code, _, err) = nimlab(&[
        "table",
        "subtraction(s={2,5,7})",
        "--size",
        "40",
        "--format",
        "json",
        "-o",
        t.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let (_, out, _) = nimlab(&["guess", "--from-table", t.to_str().unwrap()]);
    assert!(out.contains("a third of the training window"), "{out}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn rules_file_values_take_the_dense_table_and_agree_with_it() {
    let rules = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/knight.toml");
    let t = json(&[
        "table", "--rules", rules, "--size", "41", "--format", "json",
    ]);
    for (x, y) in [(40u64, 39u64), (17, 33), (0, 5)] {
        let pos = format!("{x},{y}");
        let v = json(&["moves", "--rules", rules, &pos, "--format", "json"]);
        assert_eq!(v["grundy"], t["values"][y as usize][x as usize], "{pos}");
        assert!(
            v["method_detail"]
                .as_str()
                .unwrap()
                .contains("over the box"),
            "{v}"
        );
        // Every option's value is the table's too.
        for o in v["options"].as_array().unwrap() {
            let (ox, oy) = (
                o["position"][0].as_u64().unwrap(),
                o["position"][1].as_u64().unwrap(),
            );
            assert_eq!(o["grundy"], t["values"][oy as usize][ox as usize]);
        }
    }
}

/// A sum with one part of any length (Nim's heaps) takes that part at any length, in
/// groups or flat; its value is the nim-sum of the parts' values (Sprague–Grundy).
#[test]
fn a_sum_part_of_any_length_takes_any_number_of_heaps() {
    let grundy = |spec: &str, pos: &str| -> u64 {
        json(&["value", spec, pos, "--format", "json"])["grundy"]
            .as_u64()
            .unwrap_or_else(|| panic!("{spec} at {pos}"))
    };
    for (heaps, flat) in [
        ("1,2,4", "3,5,1,2,4"),
        ("7", "3,5,7"),
        ("1,2,3,4,5,6", "3,5,1,2,3,4,5,6"),
    ] {
        let parts = grundy("wythoff", "3,5") ^ grundy("nim", heaps);
        assert_eq!(grundy("sum(wythoff,nim)", &format!("3,5;{heaps}")), parts);
        assert_eq!(grundy("sum(wythoff,nim)", flat), parts);
        let nplayer = json(&[
            "value",
            "nplayer(sum(wythoff,nim),n=2)",
            flat,
            "--format",
            "json",
        ]);
        assert_eq!(
            nplayer["class"].as_u64(),
            Some((parts != 0) as u64),
            "{flat}"
        );
    }
    // Two parts of any length: the groups cannot be stored flat; the error says how.
    let (code, _, err) = common::nimlab(&["value", "sum(nim,nim(heaps=1))", "3,5,6;2"]);
    assert_eq!(code, 2);
    assert!(err.contains("heaps=3") && err.lines().count() == 1, "{err}");
}
