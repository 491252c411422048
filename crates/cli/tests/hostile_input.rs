//! Hostile input through the real binary: every case ends with exactly one line on
//! stderr, nothing on stdout and exit code 2 — never a panic, a stack overflow, a hang or
//! a silent wrong answer.

use crate::common;
use common::nimlab;
use std::path::{Path, PathBuf};

/// Runs nimlab and checks the clean refusal; returns the message. A refusal is checked
/// by what it is (exit code 2, one line, the message's words), never by how long it
/// took: a loaded machine must not turn a right refusal into a failure.
fn refused(args: &[&str]) -> String {
    let (code, out, err) = nimlab(args);
    let shown: Vec<String> = args.iter().map(|a| abbreviated(a)).collect();
    assert_eq!(code, 2, "{shown:?}: exit {code}, stderr {err:?}");
    assert!(out.is_empty(), "{shown:?}: stdout {out:?}");
    assert_eq!(err.lines().count(), 1, "{shown:?}: stderr {err:?}");
    assert!(err.starts_with("nimlab: error: "), "{shown:?}: {err:?}");
    assert!(err.len() < 400, "{shown:?}: message too long: {err:?}");
    assert!(!err.contains("panicked"), "{shown:?}: {err:?}");
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
        // Wait for the temporary file to appear (or the run to end, however long
        // either takes), then signal.
        while std::fs::read_dir(&dir).unwrap().count() == 0 && child.try_wait().unwrap().is_none() {
            std::thread::sleep(Duration::from_millis(20));
        }
        std::process::Command::new("kill")
            .arg(format!("-{signal}"))
            .arg(child.id().to_string())
            .status()
            .unwrap();
        let status = child.wait().unwrap();
        let left: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        if status.success() {
            // The run ended before the signal landed: the whole file, nothing else.
            assert_eq!(left, ["big.txt"], "{signal}");
        } else {
            // Stopped by the signal: no temporary file is left behind.
            assert!(left.is_empty(), "{signal}: left {left:?}");
        }
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
    // The computer cannot play here: nothing on stdout, one line, exit 2, and the
    // refusal is the work estimate's (TooLong), refused before the work.
    let err = refused(&[
        "--max-memory",
        "50M",
        "play",
        "misere(octal(code=0.77))",
        "300",
        "--first",
        "computer",
    ]);
    assert!(
        err.contains("would take about") && err.contains("(estimate)"),
        "{err}"
    );
    assert!(err.contains("pass --force"), "{err}");
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

/// The JSON line a run printed last.
fn last_line(out: &str) -> serde_json::Value {
    serde_json::from_str(out.lines().last().expect("a line")).expect("JSON")
}

#[test]
fn budgets_of_infinite_or_huge_seconds_are_no_limit_not_a_panic() {
    let whole = nimlab(&["census", "run", ".6", "--up-to", "3000"]);
    assert_eq!(whole.0, 0, "{}", whole.2);
    let whole = last_line(&whole.1);
    for budget in [
        ["--seconds", "inf"],
        ["--seconds", "1e20"],
        ["--cpu-seconds", "inf"],
        ["--checkpoint-every", "inf"],
        ["--checkpoint-every", "1e300"],
    ] {
        let (code, out, err) = nimlab(&[
            "census", "run", ".6", "--up-to", "3000", budget[0], budget[1],
        ]);
        assert_eq!(code, 0, "{budget:?}: {err}");
        assert!(!err.contains("panicked"), "{budget:?}: {err}");
        let line = last_line(&out);
        // No limit: the run goes to its bound, the very values of a run without budget.
        assert_eq!(line["stopped_by"], serde_json::Value::Null, "{budget:?}");
        assert_eq!(line["values_sha256"], whole["values_sha256"], "{budget:?}");
        assert_eq!(line["n"], whole["n"], "{budget:?}");
    }
    for seconds in ["inf", "1e20"] {
        let (code, out, err) = nimlab(&[
            "census",
            "frontier",
            "--codes",
            ".6",
            "--up-to",
            "3000",
            "--seconds",
            seconds,
        ]);
        assert_eq!(code, 0, "{seconds}: {err}");
        assert_eq!(last_line(&out)["values_sha256"], whole["values_sha256"]);
    }
    for bad in ["--seconds=nan", "--seconds=-1", "--checkpoint-every=-0.5"] {
        let err = refused(&["census", "run", ".6", "--up-to", "3000", bad]);
        assert!(err.contains("numbers of seconds ≥ 0"), "{bad}: {err}");
    }
}

#[test]
fn fibonacci_nim_big_positions_answer_exactly_or_by_the_strategy_never_search() {
    // Heap 4000: the exact value, which is the mex of the listed options' values.
    let (code, out, err) = nimlab(&[
        "moves",
        "fibonacci-nim(k=2)",
        "4000,4000",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let g = v["grundy"].as_u64().expect("an exact value");
    let options = v["options"].as_array().expect("the options");
    assert_eq!(options.len(), 4000);
    let values: std::collections::BTreeSet<u64> = options
        .iter()
        .map(|o| o["grundy"].as_u64().unwrap())
        .collect();
    let mex = (0..).find(|x| !values.contains(x)).unwrap();
    assert_eq!(g, mex);
    assert_eq!(v["outcome"], if g == 0 { "P" } else { "N" });
    // Heaps near 2^64: no exact search (a bounded memory limit would stop one), the
    // strategy's outcome and winning move by the Zeckendorf code.
    let (code, out, err) = nimlab(&[
        "--max-memory",
        "64M",
        "value",
        "fibonacci-nim(k=2)",
        "18446744073709551615,18446744073709551615",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["method"], "strategy", "{v}");
    assert_eq!(v["grundy"], serde_json::Value::Null);
    // The least winning take is the smallest term of the heap's Zeckendorf code.
    let n: u128 = 18446744073709551615;
    let mut fib = vec![1u128, 2];
    while fib[fib.len() - 1] <= n {
        fib.push(fib[fib.len() - 1] + fib[fib.len() - 2]);
    }
    let (mut rest, mut smallest) = (n, 0);
    for &f in fib.iter().rev() {
        if f <= rest {
            rest -= f;
            smallest = f;
        }
    }
    let to = &v["winning_moves"][0];
    let heap: u128 = to[0]
        .as_str()
        .map_or_else(|| to[0].as_u64().unwrap().into(), |s| s.parse().unwrap());
    assert_eq!(n - heap, smallest, "{v}");
}

#[test]
fn a_long_octal_code_is_refused_with_its_estimate() {
    let code = format!("octal(code=0.{})", "7".repeat(500));
    let err = refused(&["periodicity", &code, "--up-to", "100000"]);
    assert!(
        err.contains("the first 100000 values of octal(code=0.777"),
        "{err}"
    );
    assert!(err.contains("(estimate); pass --force"), "{err}");
}

#[test]
fn sweeps_refuse_empty_searches_and_count_sets_exactly() {
    let err = refused(&[
        "sweep",
        "subtraction",
        "--max",
        "10",
        "--set-size",
        "2",
        "--up-to",
        "0",
    ]);
    assert!(err.contains("--up-to 0"), "{err}");
    // C(1000, 10), counted here, in the refusal: not a saturated 2^64 − 1.
    let sets = (0..10u128).fold(1u128, |c, i| c * (1000 - i) / (i + 1));
    let err = refused(&["sweep", "subtraction", "--max", "1000", "--set-size", "10"]);
    assert!(err.contains(&format!("{sets} sets")), "{err}");
    assert!(!err.contains("18446744073709551615"), "{err}");
}

/// `census octal --digits 1 --up-to 64 -o FILE`.
fn census_of_one_digit_codes(file: &Path) -> [&str; 8] {
    let f = file.to_str().unwrap();
    ["census", "octal", "--digits", "1", "--up-to", "64", "-o", f]
}

#[test]
fn census_files_are_only_appended_to_when_they_are_census_files() {
    for text in [
        "my notes\n",
        "my notes",
        "{\"code\":\"0.6\"}\nnot json\n{\"code\":\"0.7\"}\n",
    ] {
        let f = temp_file("not-a-census.jsonl", text);
        let err = refused(&census_of_one_digit_codes(&f));
        assert!(err.contains("not a census line"), "{text:?}: {err}");
        assert_eq!(std::fs::read_to_string(&f).unwrap(), text, "left as it was");
        let _ = std::fs::remove_file(&f);
    }
    // A census cut mid-line (an interrupted run) still resumes.
    let f = std::env::temp_dir().join(format!("nimlab-hostile-{}-cut.jsonl", std::process::id()));
    let _ = std::fs::remove_file(&f);
    let whole = nimlab(&census_of_one_digit_codes(&f));
    assert_eq!(whole.0, 0, "{}", whole.2);
    let full = std::fs::read_to_string(&f).unwrap();
    let first = full.lines().next().unwrap();
    std::fs::write(&f, format!("{first}\n{}", &first[..first.len() / 2])).unwrap();
    let again = nimlab(&census_of_one_digit_codes(&f));
    assert_eq!(again.0, 0, "{}", again.2);
    let mut a: Vec<&str> = full.lines().collect();
    let resumed = std::fs::read_to_string(&f).unwrap();
    let mut b: Vec<&str> = resumed.lines().collect();
    a.sort_unstable();
    b.sort_unstable();
    assert_eq!(a, b);
    let _ = std::fs::remove_file(&f);
}

#[test]
fn a_resumed_run_below_what_it_holds_is_refused() {
    let ckpt =
        std::env::temp_dir().join(format!("nimlab-hostile-{}-back.ckpt", std::process::id()));
    let _ = std::fs::remove_file(&ckpt);
    let c = ckpt.to_str().unwrap();
    // A run to its end, its state saved after every chunk.
    let (code, out, err) = nimlab(&[
        "census",
        "run",
        ".6",
        "--up-to",
        "5000",
        "--checkpoint",
        c,
        "--checkpoint-every",
        "0",
    ]);
    assert_eq!(code, 0, "{err}");
    let held = last_line(&out)["n"].as_u64().unwrap();
    assert_eq!(held, 5000);
    let before = std::fs::read(&ckpt).unwrap();
    let err = refused(&["census", "run", "--resume", c, "--up-to", "100"]);
    assert!(
        err.contains(&format!("holds {held} terms already")),
        "{err}"
    );
    assert!(err.contains("--up-to 100"), "{err}");
    assert_eq!(
        std::fs::read(&ckpt).unwrap(),
        before,
        "the checkpoint is untouched"
    );
    // At or above what it holds, it runs on to the bound.
    let (code, out, err) = nimlab(&["census", "run", "--resume", c, "--up-to", "6000"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(last_line(&out)["n"], 6000);
    let _ = std::fs::remove_file(&ckpt);
}

#[test]
fn rules_files_name_each_coordinate_once() {
    for (coords, what) in [
        ("[\"x\", \"x\"]", "twice"),
        ("[\"x1\", \"x0\"]", "by their index"),
    ] {
        let f = temp_file(
            "coords.toml",
            &format!("dimension = 2\ncoordinates = {coords}\nmoves = [[1, 0], [0, 1]]\n"),
        );
        let err = refused(&["value", "--rules", f.to_str().unwrap(), "1,2"]);
        assert!(err.contains(what), "{coords}: {err}");
        let _ = std::fs::remove_file(&f);
    }
}

#[test]
fn output_into_a_closed_pipe_ends_quietly() {
    // `nimlab table … | head -c 100`: the reader stops; nimlab ends with 0, silently.
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_nimlab"))
        .args(["table", "wythoff", "--size", "3000"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 100];
    std::io::Read::read_exact(child.stdout.as_mut().unwrap(), &mut first).unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{:?}", out.status);
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn walnut_needs_a_directory() {
    let err = refused(&[
        "prove",
        "nim",
        "--formula",
        "x xor y",
        "--walnut",
        "/dev/full",
    ]);
    assert!(err.contains("/dev/full: it is not a directory"), "{err}");
}

#[test]
fn errors_quote_long_or_control_laden_input_abbreviated_and_escaped() {
    let long = format!("x + {}(", "1 + ".repeat(25_000));
    let err = refused(&["check", "nim", "--formula", &long, "--size", "4"]);
    assert!(
        err.contains(&format!("…({} characters)", long.chars().count())),
        "{err}"
    );
    let bell = "x + \u{7}\u{1b}[31m y";
    let err = refused(&["check", "nim", "--formula", bell, "--size", "4"]);
    assert!(!err.chars().any(|c| c.is_control() && c != '\n'), "{err:?}");
    assert!(err.contains("\\u{1b}"), "{err}");
}
