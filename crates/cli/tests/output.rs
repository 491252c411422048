//! Where results go and how: atomic files, failed writes, `-o/--output` with the format
//! from the extension, and the JSON conventions (schema, compact or --pretty, big
//! integers as strings).

use crate::common::run as nimlab;
use crate::common::scratch::{entries, scratch};
use serde_json::Value;
use std::fs::File;
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// Runs nimlab with standard output sent to `stdout`.
fn nimlab_to(stdout: File, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_nimlab"))
        .args(args)
        .stdout(Stdio::from(stdout))
        .stderr(Stdio::piped())
        .output()
        .expect("nimlab runs")
}

/// `nimlab GLOBAL… table wythoff --size SIZE -o TARGET`.
fn wythoff_table_to(global: &[&str], size: &str, target: &str) -> Output {
    let mut args = global.to_vec();
    args.extend(["table", "wythoff", "--size", size, "-o", target]);
    nimlab(&args)
}

/// Exit code 2, one `nimlab: error:` line on stderr, and nothing on stdout.
fn assert_one_line_error(out: &Output, what: &str) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{what}: {err}");
    assert!(
        err.starts_with("nimlab: error: ") && err.lines().count() == 1,
        "{what}: {err}"
    );
    assert!(!err.contains("panicked"), "{what}: {err}");
    assert!(out.stdout.is_empty(), "{what}");
}

fn json(out: &Output) -> Value {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("valid JSON")
}

#[test]
fn a_failing_run_leaves_the_old_file_and_no_temporary() {
    let d = scratch("output", "atomic");
    for name in ["t.txt", "t.json", "t.csv", "t.npy", "t.png"] {
        let target = d.join(name);
        std::fs::write(&target, "precious").unwrap();
        let out = wythoff_table_to(&["--max-memory", "1M"], "3000", target.to_str().unwrap());
        assert_one_line_error(&out, name);
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "precious");
    }
    assert_eq!(entries(&d), ["t.csv", "t.json", "t.npy", "t.png", "t.txt"]);
    // A run that succeeds replaces the file, and leaves nothing else behind.
    let target = d.join("t.txt");
    let out = wythoff_table_to(&[], "4", target.to_str().unwrap());
    assert!(out.status.success());
    assert!(out.stdout.is_empty());
    let text = std::fs::read_to_string(&target).unwrap();
    assert!(text.starts_with("y\\x 0 1 2 3\n"), "{text}");
    assert_eq!(entries(&d), ["t.csv", "t.json", "t.npy", "t.png", "t.txt"]);
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn a_failed_write_is_removed_and_keeps_the_old_file() {
    // A bad formula is found after the game and box are known: the old file stays.
    let d = scratch("output", "check-atomic");
    let target = d.join("report.json");
    std::fs::write(&target, "precious").unwrap();
    let out = nimlab(&[
        "check",
        "wythoff",
        "--formula",
        "x +* y",
        "--size",
        "8",
        "-o",
        target.to_str().unwrap(),
    ]);
    assert_one_line_error(&out, "bad formula");
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "precious");
    assert_eq!(entries(&d), ["report.json"]);
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn a_file_past_the_size_limit_is_one_line_and_exit_2_with_the_old_file_kept() {
    // `ulimit -f`: the write fails with EFBIG (nimlab ignores SIGXFSZ, which would end
    // the process and leave the temporary file behind), for a table streamed into its
    // file (`--format npy`, the line kernel) as for one written through a buffer.
    use std::os::unix::process::CommandExt;
    let d = scratch("output", "size-limit");
    for (name, format) in [("w.npy", "npy"), ("w.csv", "csv")] {
        let target = d.join(name);
        std::fs::write(&target, "precious").unwrap();
        let mut command = Command::new(env!("CARGO_BIN_EXE_nimlab"));
        command.args([
            "table", "wythoff", "--size", "600", "--format", format, "-o",
        ]);
        command.arg(&target);
        // SAFETY: only setrlimit, async-signal-safe, between fork and exec.
        unsafe {
            command.pre_exec(|| {
                let limit = libc::rlimit {
                    rlim_cur: 64 * 1024,
                    rlim_max: libc::RLIM_INFINITY,
                };
                if libc::setrlimit(libc::RLIMIT_FSIZE, &limit) == 0 {
                    Ok(())
                } else {
                    Err(std::io::Error::last_os_error())
                }
            })
        };
        let out = command.output().expect("nimlab runs");
        assert_one_line_error(&out, "File too large");
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "precious");
    }
    assert_eq!(entries(&d), ["w.csv", "w.npy"]);
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn a_full_disk_on_stdout_is_one_line_and_exit_2() {
    if !Path::new("/dev/full").exists() {
        return;
    }
    for args in [
        vec!["games"],
        vec!["games", "--format", "json"],
        vec!["theorems"],
        vec!["value", "wythoff", "3,5"],
        vec!["moves", "wythoff", "3,5", "--format", "json"],
        vec!["table", "wythoff", "--size", "50"],
        vec!["table", "wythoff", "--size", "50", "--format", "json"],
        vec!["periodicity", "subtraction(s={1,3,4})"],
        vec!["sweep", "subtraction", "--max", "8", "--size", "2"],
        vec!["wythoff-pairs", "--count", "5"],
        vec!["check", "nim", "--formula", "x xor y", "--size", "8"],
        vec!["theorems", "verify", "--size", "8", "--id", "nim"],
    ] {
        let full = File::options().write(true).open("/dev/full").unwrap();
        let out = nimlab_to(full, &args);
        assert_one_line_error(&out, &args.join(" "));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("cannot write standard output"), "{err}");
    }
}

#[test]
fn a_full_disk_on_output_is_one_line_and_exit_2() {
    if !Path::new("/dev/full").exists() {
        return;
    }
    let table_as = |format| vec!["table", "wythoff", "--size", "50", "--format", format];
    let check_as = |format| {
        let check = ["check", "wythoff", "--formula", "x xor y", "--size", "20"];
        [&check[..], &["--format", format]].concat()
    };
    for args in [
        table_as("png"),
        table_as("npy"),
        table_as("csv"),
        table_as("json"),
        check_as("png"),
        check_as("json"),
        vec!["games"],
        vec!["value", "nim", "1,2", "--format", "json"],
    ] {
        let mut args = args.clone();
        args.extend(["--output", "/dev/full"]);
        let out = nimlab(&args);
        assert_one_line_error(&out, &args.join(" "));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("cannot write /dev/full"), "{err}");
        // The operating system's reason follows, on the same line.
        assert!(
            err.contains("cannot write /dev/full: No space left on device"),
            "{err}"
        );
    }
    // A device is written in place, never renamed over.
    let out = wythoff_table_to(&[], "9", "/dev/null");
    assert!(out.status.success());
    assert!(!std::fs::metadata("/dev/null")
        .unwrap()
        .file_type()
        .is_file());
}

#[test]
fn the_format_follows_the_extension() {
    let d = scratch("output", "infer");
    let read = |name: &str, args: &[&str]| -> Vec<u8> {
        let path = d.join(name);
        let mut all = args.to_vec();
        all.extend(["-o", path.to_str().unwrap()]);
        let out = nimlab(&all);
        assert!(
            out.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(out.stdout.is_empty(), "{name}");
        std::fs::read(&path).unwrap()
    };
    let table = ["table", "wythoff", "--size", "5"];
    let stdout = |format: &str| {
        let mut args = table.to_vec();
        args.extend(["--format", format]);
        nimlab(&args).stdout
    };
    assert_eq!(read("t.csv", &table), stdout("csv"));
    assert_eq!(read("t.json", &table), stdout("json"));
    assert_eq!(read("t.tex", &table), stdout("latex"));
    assert_eq!(read("t.md", &table), stdout("markdown"));
    assert_eq!(read("t.txt", &table), stdout("text"));
    // An extension no format has is refused (text in x.jpg would mislead).
    let dat = d.join("t.dat");
    let refused = wythoff_table_to(&[], "5", dat.to_str().unwrap());
    assert_eq!(refused.status.code(), Some(2));
    assert!(!dat.exists());
    assert_eq!(&read("t.npy", &table)[..6], b"\x93NUMPY");
    assert_eq!(&read("t.png", &table)[..4], b"\x89PNG");
    // --format wins over the extension.
    let mut explicit = table.to_vec();
    explicit.extend(["--format", "csv"]);
    assert_eq!(read("u.json", &explicit), stdout("csv"));
    // Other commands: JSON from .json, text otherwise.
    let v: Value = serde_json::from_slice(&read("g.json", &["games"])).unwrap();
    assert!(v["games"].is_array());
    assert!(String::from_utf8(read("g.txt", &["games"]))
        .unwrap()
        .contains("wythoff"));
    let v: Value = serde_json::from_slice(&read("v.json", &["value", "wythoff", "3,5"])).unwrap();
    assert_eq!(v["outcome"], "P");
    let v: Value = serde_json::from_slice(&read(
        "c.json",
        &["check", "nim", "--formula", "x xor y", "--size", "8"],
    ))
    .unwrap();
    assert_eq!(v["mismatch_count"], 0);
    // check's picture goes to the file, not announced: nothing on stdout or stderr
    // (the exit code says whether a cell mismatches).
    let png = d.join("c.png");
    let out = nimlab(&[
        "check",
        "nim",
        "--formula",
        "x xor y",
        "--size",
        "8",
        "-o",
        png.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    assert!(out.stdout.is_empty());
    assert!(out.stderr.is_empty());
    assert_eq!(&std::fs::read(&png).unwrap()[..4], b"\x89PNG");
    for args in [
        vec!["theorems"],
        vec!["periodicity", "subtraction(s={1,3,4})"],
        vec!["sweep", "subtraction", "--max", "8", "--size", "2"],
        vec!["wythoff-pairs", "--count", "3"],
        vec!["moves", "nim", "2,3"],
    ] {
        let bytes = read("x.json", &args);
        serde_json::from_slice::<Value>(&bytes).unwrap_or_else(|e| panic!("{args:?}: {e}"));
    }
    // An extension naming a format the command does not have is refused.
    let out = nimlab(&["games", "-o", d.join("g.csv").to_str().unwrap()]);
    assert_one_line_error(&out, "games -o g.csv");
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn dash_is_standard_output() {
    let plain = nimlab(&["table", "wythoff", "--size", "6"]);
    let dash = wythoff_table_to(&[], "6", "-");
    assert!(dash.status.success());
    assert_eq!(dash.stdout, plain.stdout);
    let v = json(&nimlab(&[
        "value", "nim", "1,2", "--format", "json", "-o", "-",
    ]));
    assert_eq!(v["grundy"], 3);
    // Binary formats may go to standard output when asked for explicitly.
    let npy = nimlab(&[
        "table", "wythoff", "--size", "4", "--format", "npy", "-o", "-",
    ]);
    assert!(npy.status.success());
    assert_eq!(&npy.stdout[..6], b"\x93NUMPY");
}

/// Commands that write JSON, each with `--format json`.
fn json_commands() -> Vec<Vec<&'static str>> {
    [
        vec!["table", "wythoff", "--size", "4"],
        vec!["table", "fibonacci-nim(k=2)", "--size", "6"],
        vec!["value", "wythoff", "3,5"],
        vec!["moves", "wythoff", "3,5"],
        vec!["check", "nim", "--formula", "x xor y", "--size", "4"],
        vec!["games"],
        vec!["theorems"],
        vec!["wythoff-pairs", "--count", "3"],
        vec!["periodicity", "subtraction(s={1,3,4})"],
        vec!["periodicity", "wythoff", "--row", "0-2"],
        vec!["sweep", "subtraction", "--max", "8", "--size", "2"],
        vec!["theorems", "verify", "--id", "nim", "--size", "8"],
    ]
    .into_iter()
    .map(|mut args| {
        args.extend(["--format", "json"]);
        args
    })
    .collect()
}

#[test]
fn json_is_compact_by_default_and_indented_with_pretty() {
    for args in json_commands() {
        let compact = nimlab(&args);
        let text = String::from_utf8(compact.stdout.clone()).unwrap();
        assert_eq!(text.lines().count(), 1, "{args:?}: {text}");
        assert!(text.ends_with('\n'));
        let mut pretty_args = args.clone();
        pretty_args.push("--pretty");
        let pretty = nimlab(&pretty_args);
        let pretty_text = String::from_utf8(pretty.stdout.clone()).unwrap();
        assert!(pretty_text.lines().count() > 3, "{args:?}: {pretty_text}");
        assert!(pretty_text.contains("\n  "), "{pretty_text}");
        assert_eq!(json(&compact), json(&pretty), "{args:?}");
    }
    // --pretty is global: before the command too.
    let v = json(&nimlab(&[
        "--pretty", "value", "nim", "1,2", "--format", "json",
    ]));
    assert_eq!(v["grundy"], 3);
}

#[test]
fn every_json_object_has_the_schema() {
    for args in json_commands() {
        for pretty in [false, true] {
            let mut all = args.clone();
            if pretty {
                all.push("--pretty");
            }
            let out = nimlab(&all);
            let text = String::from_utf8(out.stdout.clone()).unwrap();
            // The schema comes first.
            assert!(
                text.starts_with("{\"schema\":1,") || text.starts_with("{\n  \"schema\": 1,"),
                "{all:?}: {text}"
            );
            assert_eq!(json(&out)["schema"], 1, "{all:?}");
        }
    }
}

#[test]
fn integers_beyond_2_pow_53_are_strings() {
    let safe = "9007199254740991"; // 2^53 − 1
    let unsafe_ = "9007199254740992"; // 2^53
    let v = json(&nimlab(&[
        "value",
        "nim",
        &format!("{safe},{unsafe_}"),
        "--format",
        "json",
    ]));
    assert_eq!(v["position"][0], 9007199254740991u64);
    assert_eq!(v["position"][1], "9007199254740992");
    // G = a xor b = 2^54 − 1, a string; the winning move (a, a) is two numbers.
    assert_eq!(v["grundy"], "18014398509481983");
    assert_eq!(
        v["winning_moves"][0],
        serde_json::json!([9007199254740991u64, 9007199254740991u64])
    );
    let big = format!("1{}", "0".repeat(40));
    let v = json(&nimlab(&["moves", "nim", &big, "--format", "json"]));
    assert_eq!(v["position"][0], Value::String(big.clone()));
    assert_eq!(v["grundy"], Value::String(big));
    // Small numbers stay numbers.
    let v = json(&nimlab(&["value", "nim", "5", "--format", "json"]));
    assert_eq!(v["grundy"], 5);
    // The --help says so.
    let help = String::from_utf8(nimlab(&["value", "--help"]).stdout).unwrap();
    assert!(help.contains("2^53"), "{help}");
}

#[test]
fn pipes_closed_early_end_quietly() {
    use std::io::Read;
    let mut child = Command::new(env!("CARGO_BIN_EXE_nimlab"))
        .args(["table", "wythoff", "--size", "2000"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 16];
    child
        .stdout
        .as_mut()
        .unwrap()
        .read_exact(&mut first)
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn unwritable_destinations_are_refused_before_any_work() {
    let d = scratch("output", "unwritable");
    for (target, why) in [
        (d.clone(), "is a directory"),
        (d.join("missing/t.txt"), "no directory"),
    ] {
        // A table that the memory limit refuses: the destination is refused first,
        // before even the estimate (so before any work), whatever the machine's speed.
        let out = wythoff_table_to(&["--max-memory", "1M"], "20000", target.to_str().unwrap());
        assert_one_line_error(&out, why);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(why), "{err}");
        assert!(!err.contains("needs about"), "{err}");
    }
    assert!(entries(&d).is_empty());
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn bfile_lists_a_one_heap_sequence_as_oeis_wants_it() {
    let out = nimlab(&[
        "table",
        "subtraction(s={1,3,4})",
        "--size",
        "30",
        "--format",
        "bfile",
    ]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let mut lines = text.lines();
    assert!(lines
        .next()
        .unwrap()
        .starts_with("# Grundy values of subtraction"));
    // G(n) by the mex over n − 1, n − 3, n − 4, from the definition.
    let mut g: Vec<u32> = Vec::new();
    for n in 0..30usize {
        let opts: Vec<u32> = [1, 3, 4]
            .iter()
            .filter(|&&s| s <= n)
            .map(|&s| g[n - s])
            .collect();
        g.push((0..).find(|v| !opts.contains(v)).unwrap());
    }
    let rows: Vec<(usize, u32)> = lines
        .map(|l| {
            let (n, v) = l.split_once(' ').unwrap();
            (n.parse().unwrap(), v.parse().unwrap())
        })
        .collect();
    assert_eq!(rows, g.into_iter().enumerate().collect::<Vec<_>>());
    // A table of two coordinates is no sequence: one line, exit 2.
    let out = nimlab(&["table", "wythoff", "--size", "4", "--format", "bfile"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
}
