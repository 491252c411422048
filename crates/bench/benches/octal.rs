//! Octal games and Grundy's game: nimlab's rare/common nim-sequences and Guy–Smith
//! certificates, against the `ogsolve` program (Piotr Beling's Rust octal solver) on the
//! same games and n, and against the naive mex in this process.
//!
//! Run with `bench/octal.sh` (installs ogsolve first), or
//! `OGSOLVE=/path/to/ogsolve cargo bench -p nimlab-bench --bench octal`.
//! `NIMLAB_BENCH_GRUNDY24=1` adds Grundy's game to 2^24 (about a minute).

use nimlab_games::grundy_game;
use nimlab_games::octal::Octal;
use std::process::Command;
use std::time::{Duration, Instant};

/// Seconds ogsolve may run per row.
const OGSOLVE_TIMEOUT: &str = "300";

fn time<T>(f: impl FnOnce() -> T) -> (T, Duration) {
    let t = Instant::now();
    let out = f();
    (out, t.elapsed())
}

/// Runs of each short row (both programs); the best time counts, as the machine is
/// shared and a single sub-millisecond run is mostly noise.
const REPEATS: usize = 5;

fn best_of<T>(mut f: impl FnMut() -> T) -> (T, Duration) {
    let (mut out, mut best) = time(&mut f);
    for _ in 1..REPEATS {
        let (o, t) = time(&mut f);
        if t < best {
            (out, best) = (o, t);
        }
    }
    (out, best)
}

fn secs(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s >= 1.0 {
        format!("{s:.2} s")
    } else if s >= 1e-3 {
        format!("{:.2} ms", s * 1e3)
    } else {
        format!("{:.1} µs", s * 1e6)
    }
}

/// Parses ogsolve's "calculation time: 3.69s" (units s, ms, µs, ns).
fn parse_ogsolve_time(out: &str) -> Option<Duration> {
    let line = out.lines().find(|l| l.contains("calculation time:"))?;
    let t = line.split("calculation time:").nth(1)?.trim();
    let (num, scale) = if let Some(v) = t.strip_suffix("ms") {
        (v, 1e-3)
    } else if let Some(v) = t.strip_suffix("µs").or_else(|| t.strip_suffix("us")) {
        (v, 1e-6)
    } else if let Some(v) = t.strip_suffix("ns") {
        (v, 1e-9)
    } else {
        (t.strip_suffix('s')?, 1.0)
    };
    Some(Duration::from_secs_f64(
        num.trim().parse::<f64>().ok()? * scale,
    ))
}

/// ogsolve's best own reported time over the methods in `OGSOLVE_METHODS` (default
/// `rc2`, its newest; e.g. `rc,rc2`), with its wall time, or why it did not run.
fn ogsolve(code: &str, n: u64) -> Result<(Duration, Duration, String), String> {
    let Ok(bin) = std::env::var("OGSOLVE") else {
        return Err("not run (set OGSOLVE=path; bench/octal.sh installs it)".into());
    };
    let mut best: Option<(Duration, Duration, String)> = None;
    let methods = std::env::var("OGSOLVE_METHODS").unwrap_or_else(|_| "rc2".into());
    for method in methods
        .split(',')
        .flat_map(|m| std::iter::repeat_n(m, REPEATS))
    {
        let t = Instant::now();
        let out = Command::new("timeout")
            .args([
                OGSOLVE_TIMEOUT,
                &bin,
                "-m",
                method,
                "-n",
                &n.to_string(),
                code,
            ])
            .output()
            .map_err(|e| format!("cannot run {bin}: {e}"))?;
        let wall = t.elapsed();
        let text = String::from_utf8_lossy(&out.stdout).to_string()
            + &String::from_utf8_lossy(&out.stderr);
        if !out.status.success() {
            let first = text.lines().next().unwrap_or("").to_string();
            return Err(format!("failed ({}): {first}", out.status));
        }
        let own = parse_ogsolve_time(&text).ok_or("no 'calculation time' in its output")?;
        if best.as_ref().is_none_or(|(b, _, _)| own < *b) {
            best = Some((own, wall, method.to_string()));
        }
    }
    best.ok_or_else(|| "no method ran".into())
}

fn row(label: &str, ours: Duration, code: &str, n: u64) {
    match ogsolve(code, n) {
        Ok((own, wall, method)) => println!(
            "{label:<44} nimlab {:>10}   ogsolve -m {method:<3} {:>10} (wall {:>10})   \
             ogsolve/nimlab {:>7.1}x  {}",
            secs(ours),
            secs(own),
            secs(wall),
            own.as_secs_f64() / ours.as_secs_f64(),
            if ours < own {
                "nimlab faster"
            } else {
                "OGSOLVE FASTER"
            }
        ),
        Err(why) => println!("{label:<44} nimlab {:>10}   ogsolve: {why}", secs(ours)),
    }
}

fn main() {
    println!("# octal games: nimlab vs ogsolve (its own reported calculation time; methods: OGSOLVE_METHODS, default rc2; best of 5 runs each)");
    for (code, name) in [("0.137", "Dawson's Chess"), ("0.77", "Kayles")] {
        let game = Octal::parse(code, 8).expect("valid code");
        let (per, t) = best_of(|| game.rules().certified_periodicity(1 << 20));
        let per = per.expect("certified");
        row(
            &format!(
                "{code} {name}: certified a={} p={} (n={})",
                per.preperiod, per.period, per.checked_up_to
            ),
            t,
            code,
            per.checked_up_to,
        );
    }
    for (code, n) in [("0.137", 1u64 << 16), ("0.77", 1 << 16)] {
        let game = Octal::parse(code, 8).expect("valid code");
        let (seq, t) = best_of(|| game.nim_sequence(n as usize));
        assert_eq!(seq.len(), n as usize);
        row(
            &format!("{code} nim-sequence to n = 2^{}", n.ilog2()),
            t,
            code,
            n,
        );
    }

    for code in ["0.137", "0.77"] {
        let game = Octal::parse(code, 8).expect("valid code");
        let (_, t) = time(|| game.rules().sparse_sequence(1 << 16));
        println!(
            "{code} to n = 2^16 by rare/common alone (no period shortcut; a periodic game \
             has no sparse space): nimlab {}",
            secs(t)
        );
    }
    let game = Octal::parse("0.137", 8).expect("valid code");
    let (_, t) = time(|| game.nim_sequence(1 << 20));
    println!(
        "0.137 nim-sequence to n = 2^20: nimlab {} (ogsolve not run: minutes at this n)",
        secs(t)
    );

    println!("\n# Grundy's game (ogsolve takes only codes [X.]OOO with X = 0 or 4: it cannot express the unequal-split rule)");
    let rules = grundy_game::rules();
    let n = 1usize << 15;
    let (naive, t_naive) = time(|| rules.naive_sequence(n));
    let (sparse, t_sparse) = time(|| rules.sparse_sequence(n));
    assert_eq!(naive, sparse);
    println!(
        "grundy-game to 2^15: naive mex {}   rare/common {}   naive/sparse {:.1}x",
        secs(t_naive),
        secs(t_sparse),
        t_naive.as_secs_f64() / t_sparse.as_secs_f64()
    );
    let mut sizes = vec![20u32];
    if std::env::var("NIMLAB_BENCH_GRUNDY24").is_ok_and(|v| v == "1") {
        sizes.push(24);
    }
    for bits in sizes {
        let (seq, t) = time(|| rules.sparse_sequence(1 << bits));
        let goal = if bits == 20 { 5.0 } else { 60.0 };
        println!(
            "grundy-game to 2^{bits}: {}  (goal ≤ {goal} s: {})  max value {}",
            secs(t),
            if t.as_secs_f64() <= goal {
                "met"
            } else {
                "MISSED"
            },
            seq.iter().max().unwrap_or(&0)
        );
    }
}
