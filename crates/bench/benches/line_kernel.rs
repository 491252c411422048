//! Benchmark of the line-game table kernel against the generic brute force and a plain
//! Python brute force, all in one run. Prints timings and ratios.
//!
//! Run: `cargo bench -p nimlab-bench --bench line_kernel`
//! (`-- --quick` skips the 16384² table and the generic 2048² tables.)

use nimlab_engine::table::generic_table;
use nimlab_engine::{grundy_table, TableOptions};
use nimlab_games::parse_game;
use std::process::Command;
use std::time::Instant;

/// CPU seconds this process has used (all threads; Linux /proc), or 0 if unknown. Shown
/// next to wall time because the machine is shared: CPU time is what load inflates least.
fn cpu_seconds() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return 0.0;
    };
    // Fields after the command name (which ends with ')'): utime is the 12th, stime 13th.
    let after = stat.rsplit(')').next().unwrap_or("");
    let fields: Vec<&str> = after.split_whitespace().collect();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    (ticks(11) + ticks(12)) / 100.0
}

/// Seconds to compute the table, and a checksum so the work is not optimized away.
fn kernel(spec: &str, dims: [usize; 2]) -> f64 {
    let game = parse_game(spec).expect("catalog game");
    let cpu = cpu_seconds();
    let start = Instant::now();
    let t = grundy_table(&*game, &dims, &TableOptions::default()).expect("table fits");
    let secs = start.elapsed().as_secs_f64();
    let cpu = cpu_seconds() - cpu;
    let sum: u64 = t.values().iter().map(|&v| v as u64).sum();
    println!(
        "kernel   {spec:<12} {:>9}x{:<6} {secs:>9.3} s  (cpu {cpu:.2} s, {:.2} ns/cell, checksum {sum})",
        dims[0],
        dims[1],
        secs * 1e9 / (dims[0] * dims[1]) as f64
    );
    secs
}

fn generic(spec: &str, n: usize) -> f64 {
    let game = parse_game(spec).expect("catalog game");
    let start = Instant::now();
    let t = generic_table(&*game, &[n, n], true, &TableOptions::default()).expect("fits");
    let secs = start.elapsed().as_secs_f64();
    let sum: u64 = t.values().iter().map(|&v| v as u64).sum();
    println!("generic  {spec:<12} {n:>9}x{n:<6} {secs:>9.3} s  (checksum {sum})");
    secs
}

fn python(n: usize) -> Option<f64> {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../../bench/wythoff_brute.py");
    let out = Command::new("python3")
        .arg(script)
        .arg(n.to_string())
        .output()
        .ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    let mut parts = text.split_whitespace();
    let secs: f64 = parts.next()?.parse().ok()?;
    println!(
        "python   {:<12} {n:>9}x{n:<6} {secs:>9.3} s  (checksum {})",
        "wythoff",
        parts.next().unwrap_or("?")
    );
    Some(secs)
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    println!(
        "threads: {} (set RAYON_NUM_THREADS to change); load average: {}",
        rayon::current_num_threads(),
        std::fs::read_to_string("/proc/loadavg")
            .unwrap_or_default()
            .trim()
    );
    let w8 = kernel("wythoff", [8192, 8192]);
    let w16 = (!quick).then(|| kernel("wythoff", [16384, 16384]));
    let r8 = kernel("ryuoh(p=3)", [8192, 8192]);
    let strip = kernel("wythoff", [4_000_000, 32]);
    let kw1 = kernel("wythoff", [1024, 1024]);
    let kr1 = kernel("ryuoh(p=3)", [1024, 1024]);
    let gw1 = generic("wythoff", 1024);
    let gr1 = generic("ryuoh(p=3)", 1024);
    let (gw2, gr2) = if quick {
        (None, None)
    } else {
        (
            Some(generic("wythoff", 2048)),
            Some(generic("ryuoh(p=3)", 2048)),
        )
    };
    let py = python(256);

    println!("\nratios (same run):");
    println!(
        "  generic / kernel at 1024²: wythoff {:.0}x, ryuoh(p=3) {:.0}x",
        gw1 / kw1,
        gr1 / kr1
    );
    // The generic solver is cubic: scale the 2048² time by 4³ to estimate 8192².
    if let (Some(gw2), Some(gr2)) = (gw2, gr2) {
        println!(
            "  generic 2048² / kernel 8192²: wythoff {:.1}x, ryuoh(p=3) {:.1}x (16x fewer cells)",
            gw2 / w8,
            gr2 / r8
        );
        println!(
            "  generic at 8192² (2048² × 64, cubic) ≈ {:.0} s wythoff, {:.0} s ryuoh(p=3): kernel {:.0}x / {:.0}x faster",
            gw2 * 64.0,
            gr2 * 64.0,
            gw2 * 64.0 / w8,
            gr2 * 64.0 / r8
        );
    }
    if let Some(py) = py {
        println!(
            "  python 256² ≈ {:.0}x the kernel's time at 1024² (16x fewer cells)",
            py / kw1
        );
        println!(
            "  python at 8192² (256² × 32³, cubic) ≈ {:.1} h: kernel {:.0}x faster",
            py * 32768.0 / 3600.0,
            py * 32768.0 / w8
        );
    } else {
        println!("  python3 not available: no Python baseline");
    }
    if let Some(w16) = w16 {
        println!(
            "  wythoff 16384² / 8192²: {:.2} (4.00 = linear in cells)",
            w16 / w8
        );
    }
    println!("  wythoff strip 4e6x32: {strip:.3} s");
    println!("goals: wythoff 8192² ≤ 2 s, 16384² ≤ 20 s, ryuoh(p=3) 8192² ≤ 1.5 s");
}
