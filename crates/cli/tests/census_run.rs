//! Long runs that survive: `census run` killed (SIGKILL) or interrupted (SIGTERM) at
//! random moments and resumed from its checkpoint gives the very values of an
//! uninterrupted run; `census frontier` resumes too; damaged checkpoints are refused.

use crate::common;
use common::nimlab;
use serde_json::Value;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

fn last_json(stdout: &str) -> Value {
    let line = stdout.lines().last().expect("a line");
    serde_json::from_str(line).expect("JSON")
}

/// A small xorshift: the kill moments.
fn next(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

/// Runs `census run GAME --up-to N` with a checkpoint every chunk, killing it after a
/// random delay each time (SIGKILL or SIGTERM, alternately) and resuming, until a run
/// finishes; returns its JSON and the number of kills.
fn killed_and_resumed(dir: &Path, game: &str, up_to: &str, seed: u64) -> (Value, usize) {
    let ckpt = dir.join(format!("{game}-{seed}.ckpt"));
    let ckpt_s = ckpt.to_str().unwrap().to_string();
    let mut state = seed;
    let mut kills = 0;
    for round in 0..40 {
        let mut args: Vec<String> = vec!["census".into(), "run".into()];
        if ckpt.exists() {
            args.extend(["--resume".into(), ckpt_s.clone()]);
        } else {
            args.extend([game.into(), "--up-to".into(), up_to.into()]);
            args.extend(["--checkpoint".into(), ckpt_s.clone()]);
        }
        args.extend(["--checkpoint-every".into(), "0".into()]);
        // The first round stops itself at once (a budget of 0 seconds: at its first
        // chunk, saving its state), so that every run is interrupted at least once
        // however fast the machine; the kills that follow land where they land.
        if round == 0 {
            args.extend(["--seconds".into(), "0".into()]);
        }
        let child = Command::new(env!("CARGO_BIN_EXE_nimlab"))
            .args(&args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("nimlab runs");
        // After the first rounds, let it finish. SIGTERM comes after a checkpoint was
        // written this round (the atomic write must not take the signal back).
        let term = round % 2 == 1;
        if (1..4).contains(&round) {
            if term {
                let before = std::fs::metadata(&ckpt).and_then(|m| m.modified()).ok();
                for _ in 0..500 {
                    let now = std::fs::metadata(&ckpt).and_then(|m| m.modified()).ok();
                    if now.is_some() && now != before {
                        break;
                    }
                    std::thread::sleep(Duration::from_millis(10));
                }
            }
            std::thread::sleep(Duration::from_millis(30 + next(&mut state) % 250));
            let signal = if term { "TERM" } else { "KILL" };
            let _ = Command::new("kill")
                .args([format!("-{signal}"), child.id().to_string()])
                .status();
        }
        let out = child.wait_with_output().expect("nimlab ends");
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        match out.status.code() {
            Some(0) if last_json(&stdout)["status"] != "stopped" => {
                return (last_json(&stdout), kills)
            }
            // Its budget spent: the state saved, the figures so far printed.
            Some(0) if round == 0 => {
                kills += 1;
                assert_eq!(last_json(&stdout)["stopped_by"], "time");
            }
            // SIGTERM: the state saved, exit 130, the figures so far printed.
            Some(130) => {
                kills += 1;
                assert_eq!(last_json(&stdout)["stopped_by"], "signal");
            }
            None if !term || round >= 4 => kills += 1, // SIGKILL
            other => {
                // Killed before it started work is fine too; anything else is not.
                assert!(
                    other == Some(0),
                    "exit {other:?}: {}",
                    String::from_utf8_lossy(&out.stderr)
                );
            }
        }
    }
    panic!("never finished");
}

#[test]
fn a_run_killed_at_random_moments_resumes_bit_identical() {
    let dir = std::env::temp_dir().join(format!("nimlab-census-run-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (game, up_to, seed) in [(".6", "160000", 0x9e37u64), ("grundy", "500000", 12345)] {
        let (code, out, err) = nimlab(&["census", "run", game, "--up-to", up_to]);
        assert_eq!(code, 0, "{err}");
        let whole = last_json(&out);
        assert_eq!(whole["status"], "unsolved");
        let (resumed, kills) = killed_and_resumed(&dir, game, up_to, seed);
        assert!(kills >= 1, "{game}: never interrupted");
        for key in [
            "values_sha256",
            "n",
            "rare",
            "rare_mask",
            "last_rare",
            "largest",
        ] {
            assert_eq!(resumed[key], whole[key], "{game}: {key}");
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_proven_period_survives_a_resume_and_certifies() {
    let dir = std::env::temp_dir().join(format!("nimlab-census-cert-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let ckpt = dir.join("a.ckpt");
    let cert = dir.join("cert.json");
    let (c, out, err) = nimlab(&[
        "census",
        "run",
        "0.16",
        "--up-to",
        "600000",
        "--seconds",
        "0",
        "--checkpoint",
        ckpt.to_str().unwrap(),
    ]);
    assert_eq!(c, 0, "{err}");
    assert_eq!(last_json(&out)["status"], "stopped");
    let (c, out, err) = nimlab(&[
        "census",
        "run",
        "--resume",
        ckpt.to_str().unwrap(),
        "--certificate",
        cert.to_str().unwrap(),
    ]);
    assert_eq!(c, 0, "{err}");
    let v = last_json(&out);
    assert_eq!(v["status"], "solved");
    // Flammenkamp: 0.16 has preperiod 105351 and period 149459.
    assert_eq!(
        (v["preperiod"].as_u64(), v["period"].as_u64()),
        (Some(105351), Some(149459))
    );
    let (c, _, err) = nimlab(&["certify", cert.to_str().unwrap()]);
    assert_eq!(c, 0, "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bad_checkpoints_and_arguments_are_one_line_errors() {
    let dir = std::env::temp_dir().join(format!("nimlab-census-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let junk = dir.join("junk.ckpt");
    std::fs::write(&junk, b"NLTBRUN1 but not really").unwrap();
    for args in [
        vec!["census", "run", "--resume", junk.to_str().unwrap()],
        vec!["census", "run", "--resume", "/dev/null"],
        vec!["census", "run", "--resume", "/nonexistent/x.ckpt"],
        vec!["census", "run", "0.9"],
        vec!["census", "run"],
        vec!["census", "run", ".6", "--up-to", "0"],
        vec!["census", "run", ".6", "--up-to", "99999999999999"],
        vec!["census", "run", ".6", "--seconds", "NaN"],
        vec![
            "--max-memory",
            "1M",
            "census",
            "run",
            ".6",
            "--up-to",
            "1000000",
        ],
        vec!["census", "frontier", "--codes", ".6,é", "--up-to", "1000"],
        vec!["census", "frontier", "--codes", ".6", "--table", "t.md"],
        vec![
            "census",
            "frontier",
            "--codes",
            ".6",
            "--up-to",
            "1000",
            "--checkpoints",
            junk.to_str().unwrap(),
        ],
    ] {
        let (code, out, err) = nimlab(&args);
        assert_eq!(code, 2, "{args:?}: {out} {err}");
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
    }
    // A checkpoint of one game is not resumed as another.
    let ckpt = dir.join("six.ckpt");
    let (c, _, err) = nimlab(&[
        "census",
        "run",
        ".6",
        "--up-to",
        "20000",
        "--seconds",
        "0",
        "--checkpoint",
        ckpt.to_str().unwrap(),
    ]);
    assert_eq!(c, 0, "{err}");
    let (c, _, err) = nimlab(&["census", "run", ".04", "--resume", ckpt.to_str().unwrap()]);
    assert_eq!(c, 2, "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_rerun_continues_the_games_its_budget_stopped() {
    // .06 stopped by a CPU budget; the same command again (no budget) continues it from
    // its checkpoint: its new line is appended, holds the whole run's CPU seconds and
    // the values of an uninterrupted run; the table keeps the last line of each game.
    let dir = std::env::temp_dir().join(format!("nimlab-frontier-re-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("f.jsonl");
    let table = dir.join("f.md");
    let ckpts = dir.join("ckpt");
    let up_to = "150000";
    let run = |budget: Option<&str>| {
        let mut args = vec![
            "--force",
            "census",
            "frontier",
            "--codes",
            ".06,.6",
            "--up-to",
            up_to,
            "-o",
            out.to_str().unwrap(),
            "--checkpoints",
            ckpts.to_str().unwrap(),
            "--table",
            table.to_str().unwrap(),
        ];
        if let Some(b) = budget {
            args.extend(["--cpu-seconds", b]);
        }
        let (c, _, err) = nimlab(&args);
        assert_eq!(c, 0, "{err}");
        std::fs::read_to_string(&out)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str::<Value>(l).unwrap())
            .collect::<Vec<Value>>()
    };
    let first = run(Some("0.05"));
    let stopped = first
        .iter()
        .find(|l| l["code"] == "0.06")
        .expect("a line for .06");
    assert_eq!(stopped["status"], "stopped", "{stopped}");
    let again = first.iter().filter(|l| l["status"] == "stopped").count();
    let lines = run(None);
    assert_eq!(
        lines.len(),
        first.len() + again,
        "a line more per stopped game"
    );
    let last = lines
        .iter()
        .rfind(|l| l["code"] == "0.06")
        .expect("a line for .06");
    assert_eq!(last["n"], 150000);
    assert!(last["cpu_seconds"].as_f64() >= stopped["cpu_seconds"].as_f64());
    let (c, whole, err) = nimlab(&["census", "run", ".06", "--up-to", up_to]);
    assert_eq!(c, 0, "{err}");
    assert_eq!(last["values_sha256"], last_json(&whole)["values_sha256"]);
    // Nothing left to do: a third run appends nothing; the table has a row a game.
    assert_eq!(run(None).len(), lines.len());
    let md = std::fs::read_to_string(&table).unwrap();
    assert_eq!(md.lines().count(), 2 + 2, "{md}");
    assert!(md.contains("| .06 | 150000 |"), "{md}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_frontier_resumes_and_writes_its_table() {
    let dir = std::env::temp_dir().join(format!("nimlab-frontier-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("f.jsonl");
    let table = dir.join("f.md");
    let ckpts = dir.join("ckpt");
    let base = |codes: &str| {
        vec![
            "census".to_string(),
            "frontier".into(),
            "--codes".into(),
            codes.into(),
            "--up-to".into(),
            "20000".into(),
            "-o".into(),
            out.to_str().unwrap().into(),
            "--checkpoints".into(),
            ckpts.to_str().unwrap().into(),
            "--table".into(),
            table.to_str().unwrap().into(),
        ]
    };
    let args = base("grundy,.6");
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (c, _, err) = nimlab(&args);
    assert_eq!(c, 0, "{err}");
    // A rerun with one more code runs only that one.
    let args = base("grundy,.6,.14");
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (c, _, err) = nimlab(&args);
    assert_eq!(c, 0, "{err}");
    let lines: Vec<Value> = std::fs::read_to_string(&out)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let codes: Vec<&str> = lines.iter().map(|v| v["code"].as_str().unwrap()).collect();
    assert_eq!(codes, ["grundy", "0.6", "0.14"]);
    let md = std::fs::read_to_string(&table).unwrap();
    assert!(md.contains("| Grundy's |"), "{md}");
    assert!(md.contains("| .14 |"), "{md}");
    assert_eq!(md.lines().count(), 2 + 3);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn every_simd_cap_gives_the_same_values() {
    // `.007` takes the dense route (its far passes strike a bitmap) from heap 4096 on:
    // the kernel differs by cap (the pairs and windowed scan, the portable strike, AVX2,
    // the CPU's widest; each cap runs what the CPU has below it), the values must not.
    // `.6` takes the sparse route's tiles (from heap 7168 on): their split scans and
    // walks differ by cap too (scalar, portable, AVX2).
    let run = |code: &str, up_to: &str, cap: Option<&str>| {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_nimlab"));
        cmd.args(["census", "run", code, "--up-to", up_to]);
        match cap {
            Some(cap) => cmd.env("NIMLAB_SIMD", cap),
            None => cmd.env_remove("NIMLAB_SIMD"),
        };
        let out = cmd.output().expect("nimlab runs");
        assert!(out.status.success(), "{code} {cap:?}");
        last_json(&String::from_utf8_lossy(&out.stdout))["values_sha256"].clone()
    };
    for (code, up_to) in [(".007", "24576"), (".6", "32768")] {
        let widest = run(code, up_to, None);
        assert!(widest.is_string(), "{widest}");
        for cap in ["scalar", "portable", "avx2"] {
            assert_eq!(
                run(code, up_to, Some(cap)),
                widest,
                "{code}, NIMLAB_SIMD={cap}"
            );
        }
    }
}
