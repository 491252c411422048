//! `nimlab prove`: exit codes, JSON, the Walnut files, hostile input.

use crate::common::scratch::scratch;
use crate::common::{code, run as nimlab};
use serde_json::Value;
use std::path::PathBuf;
use std::process::Output;

/// Runs `nimlab ARGS --walnut DIR` into a fresh directory named after `name`: the run and
/// the directory.
fn with_walnut(name: &str, args: &[&str]) -> (Output, PathBuf) {
    let dir = scratch("walnut", name);
    let mut all = args.to_vec();
    all.extend(["--walnut", dir.to_str().unwrap()]);
    (nimlab(&all), dir)
}

#[test]
fn proved_false_and_not_expressible_have_their_exit_codes() {
    let ok = nimlab(&[
        "prove",
        "ryuoh(p=4)",
        "--formula",
        "(x+y)%4 + 4*((x/4) xor (y/4))",
    ]);
    assert_eq!(code(&ok), 0, "{}", String::from_utf8_lossy(&ok.stderr));
    assert!(String::from_utf8_lossy(&ok.stdout).contains("proved for all positions"));

    let wrong = nimlab(&["prove", "ryuoh(p=3)", "--formula", "x xor y"]);
    assert_eq!(code(&wrong), 1);
    let text = String::from_utf8_lossy(&wrong.stdout).to_string();
    assert!(text.contains("false (SG1): 1,1"), "{text}");
    assert!(text.contains("re-check:   at 1,1: G = 2"), "{text}");

    let bad = nimlab(&["prove", "nim", "--formula", "x * y"]);
    assert_eq!(code(&bad), 2);
    let err = String::from_utf8_lossy(&bad.stderr).to_string();
    assert!(
        err.contains("not expressible") && err.contains("column 3"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[test]
fn json_gives_the_counterexample_beyond_2_to_the_40() {
    let out = nimlab(&[
        "prove",
        "nim",
        "--formula",
        "if x >= 2^40 then 0 else x xor y",
        "--format",
        "json",
    ]);
    assert_eq!(code(&out), 1);
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["result"]["proved"], false);
    assert_eq!(v["result"]["position"][0], "1099511627776");
    assert_eq!(v["result"]["confirmed"]["position"][0], "1099511627776");
}

#[test]
fn walnut_files_are_written() {
    let (out, dir) = with_walnut(
        "fib",
        &[
            "prove",
            "fibonacci-nim(k=2)",
            "--p-positions",
            "heap == 0 || zeck_low(heap) > limit",
            "--numeration",
            "fib",
        ],
    );
    assert_eq!(code(&out), 0, "{}", String::from_utf8_lossy(&out.stderr));
    let commands = std::fs::read_to_string(dir.join("prove.txt")).unwrap();
    assert!(commands.contains("eval nimlab_p1 \"?msd_fib"), "{commands}");
    let pset = std::fs::read_to_string(dir.join("pset.txt")).unwrap();
    assert!(pset.starts_with("msd_fib msd_fib\n"), "{pset}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn hostile_input_is_one_line_and_exit_2() {
    let xor_with = |flag, value| vec!["prove", "nim", "--formula", "x xor y", flag, value];
    for args in [
        vec!["prove", "nim", "--formula", "x ⊕ y"],
        vec!["prove", "nim", "--formula", "x + 99999999999999999999999"],
        xor_with("--numeration", "base-1"),
        xor_with("--numeration", "base99"),
        xor_with("--numeration", "fib"),
        vec!["prove", "grundy-game", "--formula", "n % 3"],
        xor_with("--walnut", "/dev/null/x"),
        vec!["prove", "nim", "--formula", "(x - y) / 2 + y"],
        vec![
            "prove",
            "nim",
            "--p-positions",
            "popcount(x) == popcount(y)",
        ],
    ] {
        let out = nimlab(&args);
        let err = String::from_utf8_lossy(&out.stderr).to_string();
        assert_eq!(code(&out), 2, "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    // a full disk is an error, not a panic
    if std::path::Path::new("/dev/full").exists() {
        let out = nimlab(&["prove", "nim", "--formula", "x xor y", "-o", "/dev/full"]);
        assert_eq!(code(&out), 2);
    }
}

/// The claims that were proved false (or refuted though true) at 2^63 − 1, through
/// the command line: exit codes, the verdict in JSON, the memory limit and the
/// exported files' arities.
#[test]
fn sound_at_the_edge_of_64_bits() {
    let max = "9223372036854775807";
    let false_claim =
        format!("if n > {max} then n else (if n >= {max} then min(0, (n - {max} + n)/10) else n)");
    let out = nimlab(&[
        "prove",
        "nim(heaps=1)",
        "--formula",
        &false_claim,
        "--format",
        "json",
    ]);
    assert_eq!(code(&out), 1, "{}", String::from_utf8_lossy(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["result"]["verdict"], "false");
    assert_eq!(v["result"]["position"][0], max);
    assert!(v["result"]["confirmed"].is_object());
    assert_eq!(v["statements"][0]["name"], "function");

    let true_claim = format!("if n >= {max} then min(n, n + (n - {max})/3) else n");
    let out = nimlab(&["prove", "nim(heaps=1)", "--formula", &true_claim]);
    assert_eq!(code(&out), 0, "{}", String::from_utf8_lossy(&out.stdout));

    // not boolean: refused in one line
    let out = nimlab(&["prove", "nim", "--p-positions", "x xor y"]);
    assert_eq!(code(&out), 2);
    assert_eq!(String::from_utf8_lossy(&out.stderr).lines().count(), 1);

    // the automata stay within --max-memory and refuse with the size
    let out = nimlab(&[
        "--max-memory",
        "100M",
        "prove",
        "ryuoh(p=1024)",
        "--formula",
        "(x+y)%1024 + 1024*((x/1024) xor (y/1024))",
    ]);
    assert_eq!(code(&out), 2);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("memory limit"), "{err}");

    // every exported automaton has the tracks of its call
    let (out, dir) = with_walnut("tracks", &["prove", "nim", "--formula", "x"]);
    assert_eq!(code(&out), 1);
    let phi = std::fs::read_to_string(dir.join("phi.txt")).unwrap();
    assert_eq!(phi.lines().next().unwrap(), "msd_2 msd_2 msd_2");
    let commands = std::fs::read_to_string(dir.join("prove.txt")).unwrap();
    assert!(commands.contains("$phi(x,y,g)"), "{commands}");
    let _ = std::fs::remove_dir_all(&dir);
}
