//! `--rules FILE` on table, value, moves and check, through the real binary.

use crate::common::run as nimlab;
use std::path::PathBuf;
use std::process::Output;

fn example(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn table_from_rules_equals_catalog_table() {
    let rules = nimlab(&[
        "table",
        "--rules",
        &example("ryuoh.toml"),
        "--size",
        "13",
        "--format",
        "csv",
    ]);
    let catalog = nimlab(&["table", "ryuoh(p=3)", "--size", "13", "--format", "csv"]);
    assert_eq!(rules.status.code(), Some(0));
    assert_eq!(stdout(&rules), stdout(&catalog));
    let spec = format!("rules(file={})", example("ryuoh.toml"));
    let via_spec = nimlab(&["table", &spec, "--size", "13", "--format", "csv"]);
    assert_eq!(stdout(&via_spec), stdout(&catalog));
}

#[test]
fn value_and_moves_from_rules() {
    // Table 1 of the Ryuoh paper: G(4, 7) = 11
    let out = nimlab(&[
        "value",
        "--rules",
        &example("ryuoh.toml"),
        "4,7",
        "--format",
        "json",
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["grundy"], 11);
    // docs/theory.md §5: from {2,5} with f(t) = t/2 one reaches exactly these bars
    let out = nimlab(&[
        "moves",
        "--rules",
        &example("chocolate.toml"),
        "2,5",
        "--format",
        "json",
    ]);
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut got: Vec<String> = v["options"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["position"].to_string())
        .collect();
    got.sort();
    let mut want: Vec<String> = [
        "[1,5]", "[0,5]", "[2,4]", "[1,3]", "[1,2]", "[0,1]", "[0,0]",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    want.sort();
    assert_eq!(got, want);
    // a bar that does not exist (y > f(z))
    let out = nimlab(&["value", "--rules", &example("chocolate.toml"), "3,5"]);
    assert_eq!(out.status.code(), Some(2));
    // far too many move vectors to try the predicate on: refused, not a hang
    let out = nimlab(&[
        "value",
        "--rules",
        &example("ryuoh.toml"),
        "1000000,1000000",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("move predicate"));
    // game and --rules together
    let out = nimlab(&["value", "wythoff", "3,5", "--rules", &example("ryuoh.toml")]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn check_uses_the_declared_closed_form() {
    for (file, n) in [
        ("ryuoh.toml", "60"),
        ("chocolate.toml", "48"),
        ("moore3.toml", "12"),
    ] {
        let out = nimlab(&["check", "--rules", &example(file), "--size", n]);
        assert_eq!(out.status.code(), Some(0), "{file}: {}", stdout(&out));
        assert!(stdout(&out).contains("no mismatch"));
    }
    // an explicit formula overrides it, and the file's params are usable
    let out = nimlab(&[
        "check",
        "--rules",
        &example("ryuoh.toml"),
        "--formula",
        "x xor y",
        "-n",
        "10",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let out = nimlab(&[
        "check",
        "--rules",
        &example("ryuoh.toml"),
        "--formula",
        "sigma(beta=[p, 2], x, y)",
        "-n",
        "30",
    ]);
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn bad_rules_files_exit_2_with_one_line() {
    let dir = std::env::temp_dir().join(format!("nimlab-rules-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cases = [
        (
            "syntax.toml",
            "name = \"x\"\ndimension = 2\nmoves = [[1, 0]\n",
            "line",
        ),
        (
            "formula.toml",
            "name = \"x\"\ndimension = 2\nmoves = \"c0 > > 1\"\n",
            "column 6",
        ),
        (
            "closed.toml",
            "name = \"x\"\ndimension = 2\nmoves = \"c0 > 0\"\ngrundy = \"x +\"\n",
            "grundy",
        ),
        (
            "field.toml",
            "name = \"x\"\ndimension = 2\nmove = \"c0 > 0\"\n",
            "move",
        ),
    ];
    for (name, text, expect) in cases {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        for cmd in [
            vec!["table", "--rules", path.to_str().unwrap(), "--size", "5"],
            vec!["check", "--rules", path.to_str().unwrap(), "--size", "5"],
            vec!["value", "--rules", path.to_str().unwrap(), "1,1"],
        ] {
            let out = nimlab(&cmd);
            assert_eq!(out.status.code(), Some(2), "{name} {cmd:?}");
            assert!(out.stdout.is_empty());
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(err.trim_end().lines().count(), 1, "{err}");
            assert!(err.contains(expect), "{name}: {err}");
        }
    }
    let out = nimlab(&["table", "--rules", "/nonexistent.toml", "--size", "5"]);
    assert_eq!(out.status.code(), Some(2));
    std::fs::remove_dir_all(&dir).ok();
}

/// A one-heap rules file with a finite list of takes is that subtraction game: its
/// period is proven as the catalog's is (`periodicity --rules`), and big heaps are
/// valued by it.
#[test]
fn a_list_of_takes_from_one_heap_gets_the_subtraction_games_proof() {
    let dir = std::env::temp_dir().join(format!("nimlab-rules-takes-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("take124.toml");
    std::fs::write(&file, "dimension = 1\nmoves = [[1], [2], [4]]\n").unwrap();
    let f = file.to_str().unwrap();
    let json = |o: &Output| -> serde_json::Value {
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        serde_json::from_str(&stdout(o)).unwrap()
    };
    let mine = json(&nimlab(&["periodicity", "--rules", f, "--format", "json"]));
    let catalog = json(&nimlab(&[
        "periodicity",
        "subtraction(s={1,2,4})",
        "--format",
        "json",
    ]));
    assert_eq!(mine["method"], "certified-period", "{mine}");
    for key in [
        "preperiod",
        "period",
        "values",
        "block",
        "proven",
        "proof",
        "method",
    ] {
        assert_eq!(mine[key], catalog[key], "{key}: {mine}");
    }
    let big = "123456789012345678901234567890";
    let mine = json(&nimlab(&["value", "--rules", f, big, "--format", "json"]));
    let catalog = json(&nimlab(&[
        "value",
        "subtraction(s={1,2,4})",
        big,
        "--format",
        "json",
    ]));
    assert_eq!(mine["grundy"], catalog["grundy"]);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_take_and_break_file_answers_as_its_octal_code() {
    let file = example("split124.toml");
    let spec = format!("rules(file={file})");
    // value and moves: the same answers as octal(code=4.7707), under the file's spec.
    for (command, position) in [("value", "5,7"), ("value", "4,4,9"), ("moves", "12")] {
        let rules = nimlab(&[command, "--rules", &file, position, "--format", "json"]);
        let octal = nimlab(&[command, "octal(code=4.7707)", position, "--format", "json"]);
        assert_eq!(
            rules.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&rules.stderr)
        );
        let mut r: serde_json::Value = serde_json::from_slice(&rules.stdout).unwrap();
        let mut o: serde_json::Value = serde_json::from_slice(&octal.stdout).unwrap();
        assert!(
            r["game"].as_str().unwrap().starts_with("rules(file="),
            "{r}"
        );
        for v in [&mut r, &mut o] {
            v.as_object_mut().unwrap().remove("game");
            v.as_object_mut().unwrap().remove("method_detail");
        }
        assert_eq!(r, o, "{command} {position}");
    }
    let text = stdout(&nimlab(&["value", "--rules", &file, "5,7"]));
    assert!(text.contains("grundy:   3"), "{text}");
    // The period and the misère quotient of the code.
    let periodicity = |game: &str| {
        let out = nimlab(&["periodicity", game]);
        assert_eq!(out.status.code(), Some(0), "{game}");
        stdout(&out).lines().skip(1).collect::<Vec<_>>().join("\n")
    };
    assert_eq!(periodicity(&spec), periodicity("octal(code=4.7707)"));
    let quotient = |game: &str| {
        let out = nimlab(&["misere-quotient", game, "--max-heap", "8"]);
        assert_eq!(out.status.code(), Some(0), "{game}");
        stdout(&out).lines().skip(1).collect::<Vec<_>>().join("\n")
    };
    assert_eq!(quotient(&spec), quotient("4.7707"));
    // A bad take-and-break file is a one-line input error.
    let bad = std::env::temp_dir().join(format!("nimlab-rules-{}-bad.toml", std::process::id()));
    std::fs::write(&bad, "kind = \"take-and-break\"\nremove = [0]\n").unwrap();
    let out = nimlab(&["value", "--rules", bad.to_str().unwrap(), "5"]);
    let _ = std::fs::remove_file(&bad);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("must leave two heaps"), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
}
