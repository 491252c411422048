//! Hostile input through the real binary: every case ends with exactly one line on
//! stderr, nothing on stdout and exit code 2 — never a panic, a stack overflow, a hang or
//! a silent wrong answer.

use crate::common;
use common::nimlab;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Runs nimlab and checks the clean refusal; returns the message.
fn refused(args: &[&str]) -> String {
    let start = Instant::now();
    let (code, out, err) = nimlab(args);
    let shown: Vec<String> = args.iter().map(|a| abbreviated(a)).collect();
    assert_eq!(code, 2, "{shown:?}: exit {code}, stderr {err:?}");
    assert!(out.is_empty(), "{shown:?}: stdout {out:?}");
    assert_eq!(err.lines().count(), 1, "{shown:?}: stderr {err:?}");
    assert!(err.starts_with("nimlab: error: "), "{shown:?}: {err:?}");
    assert!(err.len() < 400, "{shown:?}: message too long: {err:?}");
    assert!(!err.contains("panicked"), "{shown:?}: {err:?}");
    assert!(
        start.elapsed() < Duration::from_secs(10),
        "{shown:?}: took {:?}",
        start.elapsed()
    );
    err
}

fn abbreviated(a: &str) -> String {
    if a.chars().count() > 40 {
        format!(
            "{}…({} chars)",
            a.chars().take(40).collect::<String>(),
            a.chars().count()
        )
    } else {
        a.to_string()
    }
}

fn temp_file(name: &str, contents: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!("nimlab-hostile-{}-{name}", std::process::id()));
    std::fs::write(&path, contents).unwrap();
    path
}

#[test]
fn non_ascii_positions_and_specs() {
    let euros = "€".repeat(22);
    refused(&["value", "nim", &euros]);
    refused(&["value", "nim", &"€".repeat(40_000)]);
    refused(&[
        "value",
        "nim",
        "3,€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€",
    ]);
    refused(&[
        "value",
        "nim",
        "3,-€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€",
    ]);
    refused(&["value", "nim", "1\n2"]);
    refused(&["moves", "nim", &euros]);
    refused(&["value", &euros, "1"]);
    refused(&["value", &format!("nim(heaps={euros})"), "1"]);
    refused(&["value", &format!("subtraction(s={{{euros}}})"), "1"]);
    refused(&["value", &format!("octal(code={euros})"), "1"]);
    refused(&["value", "nim\u{1}", "1"]);
    refused(&["value", "ryuoh(p=3\n)x", "1,2"]);
    refused(&["table", &euros, "--size", "3"]);
}

#[test]
fn deep_nesting_is_refused_not_a_stack_overflow() {
    // One argument holds at most 128 KiB on Linux.
    for (open, close) in [
        ("pass(", ")"),
        ("misere(", ")"),
        ("sum(nim,", ")"),
        ("{", "}"),
    ] {
        let n = 20_000.min(120_000 / (open.len() + close.len()));
        let spec = format!("{}nim{}", open.repeat(n), close.repeat(n));
        let err = refused(&["value", &spec, "1"]);
        if open != "{" {
            assert!(err.contains("nested too deeply"), "{err}");
        }
    }
    let n = 20_000;
    let spec = format!("subtraction(s={}1{})", "{".repeat(n), "}".repeat(n));
    refused(&["value", &spec, "1"]);
}

#[test]
fn octal_specs_round_trip_through_the_cli() {
    let (code, out, err) = nimlab(&["value", "octal(code=c.1,base=16)", "3"]);
    assert_eq!(code, 0, "{err}");
    let spec = out
        .lines()
        .find_map(|l| l.strip_prefix("game:"))
        .expect("a game line")
        .trim()
        .to_string();
    assert_eq!(spec, "octal(code=c.1,base=16)");
    let (code, again, err) = nimlab(&["value", &spec, "3"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(again, out);
    // What cannot be written in the base is refused.
    refused(&["value", "octal(code=c.1)", "3"]);
    refused(&["value", "octal(code=12.1,base=16)", "3"]);
    refused(&["value", "octal(code=0.1,base=10)", "3"]);
}

#[test]
fn small_heaps_of_huge_subtraction_sets() {
    let (code, out, err) = nimlab(&["value", "subtraction(s={6000000})", "5"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("grundy:   0"), "{out}");
    let (code, out, err) = nimlab(&["value", "subtraction(s={6000000})", "6000003"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("grundy:   1"), "{out}");
    // A far heap needs the period, beyond the search bound: refused, not guessed.
    refused(&["value", "subtraction(s={6000000})", "100000000000000000000"]);
    refused(&["value", "subtraction(s={4294967296})", "5"]);
    // A period search whose window alone needs gigabytes: an estimate, no allocation.
    let err = refused(&[
        "periodicity",
        "subtraction(s={2000000000})",
        "--up-to",
        "100000000000",
    ]);
    assert!(
        err.contains("needs about") && err.contains("the limit is"),
        "{err}"
    );
}

#[test]
fn rules_files_are_read_within_a_limit() {
    refused(&["value", "--rules", "/dev/zero", "1"]);
    refused(&["value", "rules(file=/dev/zero)", "1"]);
    refused(&["table", "--rules", "/dev/zero", "--size", "3"]);
    refused(&["value", "--rules", "/nonexistent/nimlab.toml", "1"]);
    refused(&["value", "--rules", "/", "1"]);
    let big = temp_file("big.toml", &format!("# {}\n", "x".repeat(2 << 20)));
    refused(&["value", "--rules", big.to_str().unwrap(), "1"]);
    let n = 100_000;
    let cases = [
        (
            "paren.toml",
            format!(
                "name = \"x\"\ndimension = 1\nmoves = \"{}c0{}\"\n",
                "(".repeat(n),
                ")".repeat(n)
            ),
        ),
        (
            "neg.toml",
            format!(
                "name = \"x\"\ndimension = 1\nmoves = \"{}c0\"\n",
                "-".repeat(n)
            ),
        ),
        (
            "arrays.toml",
            format!(
                "name = \"x\"\ndimension = 1\nmoves = {}1{}\n",
                "[".repeat(n),
                "]".repeat(n)
            ),
        ),
        (
            "multiline.toml",
            "name = \"x\"\ndimension = 1\nmoves = \"\"\"\nc0 ==\n\n\"\"\"\n".to_string(),
        ),
        (
            "binary.toml",
            "name = \"\u{0}\u{1}\"\ndimension = 1\nmoves = [[1]]\ngrundy = \"€€\n".to_string(),
        ),
    ];
    for (name, text) in cases {
        let path = temp_file(name, &text);
        refused(&["value", "--rules", path.to_str().unwrap(), "1"]);
        let _ = std::fs::remove_file(path);
    }
    let _ = std::fs::remove_file(big);
}

#[test]
fn big_numbers_in_positions_and_parameters() {
    // Nim answers heaps of any size by Bouton's theorem.
    let (code, out, _) = nimlab(&["value", "nim", "18446744073709551616"]);
    assert_eq!(code, 0);
    assert!(out.contains("grundy:   18446744073709551616"), "{out}");
    refused(&["value", "ryuoh(p=18446744073709551615)", "1,2"]);
    refused(&["value", "ryuoh(p=-1)", "1,2"]);
    refused(&["value", "subtraction(s={18446744073709551616})", "1"]);
    refused(&["value", "octal(code=0.7,base=18446744073709551616)", "1"]);
}

/// `--row A-B` with B = u64::MAX: `last + 1` overflows in the periodicity command.
#[test]
fn row_range_overflow() {
    refused(&[
        "periodicity",
        "ryuoh(p=3)",
        "--row",
        "0-18446744073709551615",
    ]);
    refused(&["periodicity", "ryuoh(p=3)", "--row", "18446744073709551615"]);
}

#[test]
fn misere_take_and_break_beyond_reach_is_refused_at_once() {
    // Misère values do not add, so every multiset below the position is searched:
    // a heap of 300 has about 10^15 of them. Heaps up to 255 are answered by the
    // misère quotient instead (checked against brute force in the games crate).
    let err = refused(&["value", "misere(octal(code=0.77))", "300"]);
    assert!(err.contains("would take"), "300: {err}");
    for pos in ["120", "60,60,60"] {
        let (code, out, err) = nimlab(&["value", "misere(octal(code=0.77))", pos]);
        assert_eq!(code, 0, "{pos}: {err}");
        assert!(out.contains("misere-quotient"), "{pos}: {out}");
    }
}

#[test]
fn a_census_of_hours_is_refused_with_an_estimate_and_resumes_count_what_is_left() {
    // 262143 codes (hours on any machine): refused at once, before any output.
    let err = refused(&["census", "octal", "--digits", "6"]);
    assert!(err.contains("would take about"), "{err}");
    assert!(err.contains("262143 codes"), "{err}");
    assert!(err.contains("pass --force to run it anyway"), "{err}");
    for digits in ["0", "7", "-1", "٣"] {
        refused(&["census", "octal", "--digits", digits]);
    }
    refused(&["census", "octal", "--digits", "3", "--up-to", "0"]);
    let out = std::env::temp_dir().join(format!(
        "nimlab-hostile-{}-census.jsonl",
        std::process::id()
    ));
    let out_s = out.to_str().unwrap();
    let _ = std::fs::remove_file(&out);
    let big = [
        "census", "octal", "--digits", "5", "--up-to", "1048576", "-o", out_s,
    ];
    let err = refused(&big);
    assert!(err.contains("32767 codes"), "{err}");
    assert!(!out.exists(), "a refused census writes nothing");
    // A resumed run with three codes left is estimated on those three, and runs.
    let left = ["0.7", "0.77", "0.137"];
    let mut lines = String::new();
    for i in 1..8u32.pow(5) {
        let digits = format!("{i:05o}");
        let code = format!("0.{}", digits.trim_end_matches('0'));
        if !left.contains(&code.as_str()) {
            lines.push_str(&format!(
                "{{\"code\":\"{code}\",\"base\":8,\"up_to\":1048576,\"status\":\"unsolved\"}}\n"
            ));
        }
    }
    std::fs::write(&out, &lines).unwrap();
    let (rc, stdout, stderr) = nimlab(&big);
    assert_eq!(rc, 0, "{stderr}");
    assert!(stdout.is_empty(), "{stdout}");
    let after = std::fs::read_to_string(&out).unwrap();
    let _ = std::fs::remove_file(&out);
    let new: Vec<&str> = after[lines.len()..].lines().collect();
    assert_eq!(new.len(), 3, "{new:?}");
    for code in left {
        assert!(
            new.iter()
                .any(|l| l.contains(&format!("\"code\":\"{code}\""))),
            "{code}: {new:?}"
        );
    }
}

/// Runs `sh -c SCRIPT` with the binary as `$N`: (exit code, stdout, stderr).
fn shell(script: &str) -> (i32, String, String) {
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(script)
        .env("N", env!("CARGO_BIN_EXE_nimlab"))
        .output()
        .expect("sh runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn bases_outside_8_and_16_are_refused_not_panicked_on() {
    for base in ["0", "1", "37", "100", "4294967295"] {
        let err = refused(&["census", "octal", "--digits", "1", "--base", base]);
        assert!(err.contains("8 or 16"), "{base}: {err}");
    }
}

#[test]
fn a_full_or_closed_stream_is_exit_2_not_a_panic() {
    // stderr on a full device: the error line is lost, the exit code still says 2.
    for script in [
        "\"$N\" value nope 3,5 2>/dev/full",
        "\"$N\" value 2>/dev/full",
    ] {
        let (code, _, _) = shell(script);
        assert_eq!(code, 2, "{script}");
    }
    // stdout closed: the answer cannot be written, which is an error.
    let (code, _, err) = shell("\"$N\" value nim 3,5 >&-");
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("standard output"), "{err}");
    // With -o, a closed stdout does not matter (and no file takes descriptor 1).
    let dir = std::env::temp_dir().join(format!("nimlab-closed-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("t.txt");
    let (code, _, err) = shell(&format!(
        "\"$N\" table nim --size 4 -o '{}' >&-",
        out.display()
    ));
    assert_eq!(code, 0, "{err}");
    assert!(std::fs::read_to_string(&out).unwrap().contains("y\\x"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn long_output_names_get_short_temporary_names() {
    let dir = std::env::temp_dir().join(format!("nimlab-longname-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let name = format!("{}.txt", "a".repeat(236)); // 240 bytes: legal
    let path = dir.join(&name);
    let (code, _, err) = nimlab(&["table", "nim", "--size", "4", "-o", path.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(path.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn signals_remove_the_temporary_file() {
    use std::time::Duration;
    let dir = std::env::temp_dir().join(format!("nimlab-signal-{}", std::process::id()));
    for signal in [libc_signal::INT, libc_signal::TERM, libc_signal::HUP] {
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        // A long list written pair by pair: seconds of writing, so the signal lands
        // mid-write.
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_nimlab"))
            .args(["wythoff-pairs", "--count", "1000000", "-o"])
            .arg(dir.join("big.txt"))
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        // Wait for the temporary file to appear, then signal.
        let started = std::time::Instant::now();
        while std::fs::read_dir(&dir).unwrap().count() == 0
            && started.elapsed() < Duration::from_secs(20)
        {
            std::thread::sleep(Duration::from_millis(20));
        }
        std::process::Command::new("kill")
            .arg(format!("-{signal}"))
            .arg(child.id().to_string())
            .status()
            .unwrap();
        let status = child.wait().unwrap();
        assert!(!status.success(), "{signal}: {status:?}");
        let left: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
        assert!(left.is_empty(), "{signal}: left {left:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Signal names for `kill`.
mod libc_signal {
    pub const INT: &str = "INT";
    pub const TERM: &str = "TERM";
    pub const HUP: &str = "HUP";
}

#[test]
fn contracts_the_docs_make() {
    // A rules file without `name` is named after its file.
    let rules = temp_file(
        "take-two.toml",
        "dimension = 1\nmoves = \"c0 >= 1 && c0 <= 2\"\n",
    );
    let (code, out, err) = nimlab(&[
        "value",
        &format!("rules({})", rules.display()),
        "7",
        "--format",
        "json",
    ]);
    let _ = std::fs::remove_file(&rules);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("\"grundy\":1"), "{out}");
    // A P-position claim must be a condition.
    let err = refused(&["check", "nim", "--p-positions", "x+y", "--size", "8"]);
    assert!(err.contains("condition"), "{err}");
    // The computer cannot play here: nothing on stdout, one line, exit 2.
    refused(&[
        "--max-memory",
        "50M",
        "play",
        "misere(octal(code=0.77))",
        "300",
        "--first",
        "computer",
    ]);
}

#[test]
fn census_merge_checks_every_field() {
    let good = "{\"index\":5,\"code\":\"0.07\",\"game\":\"octal(code=0.07)\",\"base\":8,\"up_to\":64,\"status\":\"solved\",\"preperiod\":0,\"period\":2,\"sha256\":\"x\"}";
    let ok = temp_file("merge-ok.jsonl", &format!("{good}\n"));
    let (code, out, err) = nimlab(&["census", "merge", ok.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("{\"schema\":1,\"count\":1,\"games\":[{"),
        "{out}"
    );
    assert!(out.trim_end().ends_with("],\"solved\":1}"), "{out}");
    let _ = std::fs::remove_file(&ok);
    for (what, bad) in [
        ("period", good.replace("\"period\":2", "\"period\":-5")),
        (
            "game",
            good.replace(
                "\"game\":\"octal(code=0.07)\"",
                "\"game\":\"octal(code=0.137)\"",
            ),
        ),
        (
            "index",
            good.replace("\"index\":5", "\"index\":18446744073709551616"),
        ),
        ("base", good.replace("\"base\":8", "\"base\":10")),
        ("status", good.replace("\"solved\"", "\"maybe\"")),
    ] {
        let f = temp_file(&format!("merge-{what}.jsonl"), &format!("{bad}\n"));
        let err = refused(&["census", "merge", f.to_str().unwrap()]);
        let _ = std::fs::remove_file(&f);
        assert!(err.contains(what), "{what}: {err}");
    }
}
