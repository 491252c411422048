//! Bounded and predictable: inputs that would need absurd memory or time are refused
//! up front with one line and exit code 2 — checked under a real address-space limit
//! (`ulimit -v`), so an allocation that escaped the estimates would abort instead.

use std::process::Command;

/// Runs `nimlab ARGS` with the address space limited to `kib` KiB.
fn limited(kib: u64, args: &[&str]) -> (i32, String, String) {
    let mut script = format!("ulimit -v {kib}; exec \"$0\"");
    for i in 0..args.len() {
        script.push_str(&format!(" \"${}\"", i + 1));
    }
    let out = Command::new("sh")
        .arg("-c")
        .arg(script)
        .arg(env!("CARGO_BIN_EXE_nimlab"))
        .args(args)
        .output()
        .expect("sh runs");
    (
        out.status.code().unwrap_or(-1),
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
