//! Bounded and predictable: inputs that would need absurd memory or time are refused
//! up front with one line and exit code 2 — checked under a real address-space limit
//! (`ulimit -v`), so an allocation that escaped the estimates would abort instead.

use crate::common::code;
use std::process::{Command, Output};

/// Runs `nimlab ARGS` through `sh` with the address space limited to `kib` KiB, and
/// its standard output sent to /dev/null when `quiet`.
fn under_ulimit(kib: u64, args: &[&str], quiet: bool) -> Output {
    let mut script = format!("ulimit -v {kib}; exec \"$0\"");
    for i in 0..args.len() {
        script.push_str(&format!(" \"${{{}}}\"", i + 1));
    }
    if quiet {
        script.push_str(" > /dev/null");
    }
    Command::new("sh")
        .arg("-c")
        .arg(script)
        .arg(env!("CARGO_BIN_EXE_nimlab"))
        .args(args)
        .output()
        .expect("sh runs")
}

/// Runs `nimlab ARGS` with the address space limited to `kib` KiB: the exit code,
/// stdout and stderr.
fn limited(kib: u64, args: &[&str]) -> (i32, String, String) {
    let out = under_ulimit(kib, args, false);
    (
        code(&out),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn refused(args: &[&str], says: &str) {
    let (code, out, err) = limited(1_500_000, args);
    assert_eq!(code, 2, "{args:?}: exit {code}, stderr {err}");
    assert!(out.is_empty(), "{args:?}: stdout {out}");
    assert_eq!(err.lines().count(), 1, "{args:?}: stderr {err}");
    assert!(err.contains(says), "{args:?}: {err}");
}

#[test]
fn memory_is_estimated_before_allocating() {
    let m = ["--max-memory", "1G"];
    let with = |rest: &[&'static str]| -> Vec<&'static str> {
        m.iter().copied().chain(rest.iter().copied()).collect()
    };
    refused(
        &with(&["table", "wythoff", "--size", "100000"]),
        "needs about",
    );
    // The tables' memory is estimated (and refused) before their time.
    refused(
        &with(&["theorems", "verify", "--size", "100000"]),
        "needs about",
    );
    // One theorem sizes a sequence by the window's square: refused, not an abort.
    refused(
        &with(&[
            "theorems",
            "verify",
            "--size",
            "100000",
            "--id",
            "subtraction.window-period",
        ]),
        "needs about",
    );
    refused(
        &with(&["table", "nim(heaps=1000000000)", "--size", "1"]),
        "≤ 64",
    );
    refused(&with(&["table", "ryuoh(p=20000)", "--size", "3"]), "≤ 1024");
    refused(
        &with(&[
            "periodicity",
            "subtraction(s={2147483647})",
            "--up-to",
            "18446744073709551615",
        ]),
        "needs about",
    );
    // The solver's memo counts as it grows and stops cleanly.
    refused(
        &[
            "--max-memory",
            // Below a dense table of the box (301 × 301 × 2 cells, 725 KB) too.
            "600K",
            "--force",
            "value",
            "pass(nim)",
            "300,300,1",
        ],
        "needs about",
    );
}

#[test]
fn hours_of_work_are_refused_with_an_estimate() {
    refused(&["value", "pass(nim)", "2000,2000,1"], "--force");
    // Its 3 GiB pass the memory estimate only with a limit above the default under
    // `ulimit -v` (three quarters of it): the time estimate is what refuses it here.
    refused(
        &[
            "--max-memory",
            "4G",
            "table",
            "misere(pass(wythoff))",
            "--size",
            "20000",
        ],
        "--force",
    );
    refused(
        &["sweep", "subtraction", "--max", "3000000", "--size", "1"],
        "would take about",
    );
    // Half a million diagonal steps per cell (ryuoh p = 1024): estimated, not run.
    refused(&["table", "ryuoh(p=1024)", "--size", "1024"], "--force");
    refused(
        &[
            "check",
            "ryuoh(p=1024)",
            "--formula",
            "x xor y",
            "--size",
            "512",
        ],
        "--force",
    );
}

#[test]
fn closed_forms_answer_what_brute_force_cannot() {
    // Formerly minutes and gigabytes of brute force; now Bouton's theorem.
    let (code, out, _) = limited(500_000, &["value", "nim", "3200,3200"]);
    assert_eq!(code, 0);
    assert!(out.contains("closed-form"), "{out}");
    let (code, out, _) = limited(2_000_000, &["table", "nim(heaps=3)", "--size", "200"]);
    assert_eq!(code, 0);
    assert!(out.len() > 200 * 200);
}

/// Runs `nimlab ARGS` under `ulimit -v` with stdout going to /dev/null: the exit code
/// and stderr.
fn limited_quiet(kib: u64, args: &[&str]) -> (i32, String) {
    let out = under_ulimit(kib, args, true);
    (
        code(&out),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A position of `n` heaps of `h`.
fn heaps(n: usize, h: u32) -> String {
    vec![h.to_string(); n].join(",")
}

#[test]
fn answer_lists_are_counted_against_the_limit() {
    // 20,001 heaps: each winning move and option is a whole position of 20,001
    // coordinates, k² in all (gigabytes) unless the lists are bounded. Under 600 MB of
    // address space, a 100M limit must answer (lists cut, marked incomplete) or refuse.
    let many = heaps(20_001, 1);
    for game in ["nim", "octal(code=0.137)", "misere(nim)"] {
        for command in ["value", "moves"] {
            let (code, err) =
                limited_quiet(600_000, &["--max-memory", "100M", command, game, &many]);
            assert!(
                code == 0 || (code == 2 && err.lines().count() == 1),
                "{command} {game}: exit {code}: {err}"
            );
        }
    }
    // Distinct heaps: many distinct winning moves, still within the limit.
    let distinct: Vec<String> = (1..=3000).map(|h| h.to_string()).collect();
    let (code, err) = limited_quiet(
        600_000,
        &["--max-memory", "100M", "moves", "nim", &distinct.join(",")],
    );
    assert!(code == 0 || code == 2, "exit {code}: {err}");
    // The answer says when its list was cut.
    let (code, out, err) = limited(
        600_000,
        &[
            "--max-memory",
            "100M",
            "value",
            "nim",
            &many,
            "--format",
            "json",
        ],
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("\"grundy\":1"),
        "{}",
        &out[..out.len().min(300)]
    );
}

#[test]
fn long_documents_are_streamed() {
    // 200,000 Wythoff pairs as JSON (formerly 500 MB): written pair by pair.
    let (code, err) = limited_quiet(
        300_000,
        &[
            "--max-memory",
            "100M",
            "wythoff-pairs",
            "--count",
            "200000",
            "--format",
            "json",
        ],
    );
    assert_eq!(code, 0, "{err}");
    // A sweep's 194,580 rows as JSON (formerly a JSON tree of about 250 MB): streamed,
    // and the rows themselves count against the limit.
    let (code, err) = limited_quiet(
        250_000,
        &[
            "--max-memory",
            "100M",
            "sweep",
            "subtraction",
            "--max",
            "48",
            "--set-size",
            "4",
            "--format",
            "json",
        ],
    );
    assert_eq!(code, 0, "{err}");
    refused(
        &[
            "--max-memory",
            "10M",
            "sweep",
            "subtraction",
            "--max",
            "60",
            "--set-size",
            "5",
        ],
        "the rows of 5461512 sets",
    );
    // Endless or huge inputs are refused by their size, not read.
    refused(
        &["--max-memory", "100M", "certify", "/dev/zero"],
        "not read",
    );
    refused(
        &["--max-memory", "100M", "guess", "--from-table", "/dev/zero"],
        "not read",
    );
}

#[test]
fn wide_tables_are_not_guessed() {
    // k columns made 2^k templates: k = 20 took seconds and hundreds of MB.
    let dir = std::env::temp_dir().join(format!("nimlab-limits-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("wide.csv");
    let header: Vec<String> = (0..20).map(|i| format!("c{i}")).collect();
    std::fs::write(
        &path,
        format!("{},g\n{}0\n", header.join(","), "0,".repeat(20)),
    )
    .unwrap();
    refused(
        &["guess", "--from-table", path.to_str().unwrap()],
        "at most 6",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn census_merge_counts_its_rows() {
    let dir = std::env::temp_dir().join(format!("nimlab-merge-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let line = |i: u64| {
        format!(
            "{{\"schema\":1,\"index\":{i},\"code\":\"0.{:o}\",\"game\":\"octal(code=0.{:o})\",\"base\":8,\"up_to\":64,\"status\":\"unsolved\",\"preperiod\":null,\"period\":null,\"sha256\":null,\"computed\":64,\"mask_cleared\":null,\"mask_domain\":null,\"rare\":0,\"max_value\":1}}\n",
            i % 8,
            i % 8
        )
    };
    // A few hundred thousand lines (40 MB) against a 16M limit: refused up front.
    let big = dir.join("big.jsonl");
    let mut text = String::new();
    for i in 0..200_000u64 {
        text.push_str(&line(i));
    }
    std::fs::write(&big, &text).unwrap();
    refused(
        &[
            "--max-memory",
            "16M",
            "census",
            "merge",
            big.to_str().unwrap(),
        ],
        "memory limit",
    );
    let _ = std::fs::remove_dir_all(&dir);
}
