//! Times every "must prove" and "must refute" item of `nimlab prove` (best of 3 runs)
//! and each item's peak memory (the process's peak resident set, reset before each
//! item through /proc/self/clear_refs). Goal: each ≤ 10 s and ≤ 2 GB.
//!
//! `nice -n 19 cargo bench -p nimlab-bench --bench prove`

use nimlab_formula::check::Claim;
use nimlab_formula::prove::{prove, Numeration, Verdict};
use nimlab_games::parse_game;
use std::time::Instant;

fn peak_rss_mib() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = s.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024.0)
}

/// Resets the peak resident set (VmHWM) so the next reading is one item's peak;
/// false where the kernel does not allow it (then the peaks are cumulative).
fn reset_peak() -> bool {
    std::fs::write("/proc/self/clear_refs", "5").is_ok()
}

fn main() {
    let b2 = Numeration::Base(2);
    let fib = Numeration::Fib;
    let b3 = Numeration::Base(3);
    let mut items: Vec<(String, &str, Claim, String, Numeration, bool)> = vec![
        (
            "Bouton, 2 heaps".into(),
            "nim",
            Claim::Grundy,
            "x xor y".into(),
            b2,
            true,
        ),
        (
            "Bouton, 3 heaps".into(),
            "nim(heaps=3)",
            Claim::Grundy,
            "x0 xor x1 xor x2".into(),
            b2,
            true,
        ),
    ];
    let ryuoh: Vec<String> = (1..=6).map(|p| format!("ryuoh(p={p})")).collect();
    for (p, spec) in (1..=6).zip(&ryuoh) {
        items.push((
            format!("Ryuoh Theorem 3.1, p = {p}"),
            spec,
            Claim::Grundy,
            format!("(x+y)%{p} + {p}*((x/{p}) xor (y/{p}))"),
            b2,
            true,
        ));
    }
    items.extend([
        ("Game I: {1,2,3}, n % 4".into(), "subtraction(s={1,2,3})", Claim::Grundy, "n % 4".into(), b2, true),
        ("subtraction {2,4,7}, preperiod 8".into(), "subtraction(s={2,4,7})", Claim::Grundy,
         "if n < 6 then n / 2 else if n == 6 then 0 else if n == 7 then 3 else if n % 3 == 2 then 1 else if n % 3 == 0 then 0 else 2".into(), b2, true),
        ("Game II (lowest set bit)".into(), "fibonacci-nim(k=1)", Claim::PPositions,
         "heap == 0 || heap - (heap & (heap - 1)) > limit".into(), b2, true),
        ("Game III (zeck_low)".into(), "fibonacci-nim(k=2)", Claim::PPositions,
         "heap == 0 || zeck_low(heap) > limit".into(), fib, true),
        ("Wythoff P-positions (Zeckendorf)".into(), "wythoff", Claim::PPositions,
         "min(x, y) == floor_phi(abs(x - y))".into(), fib, true),
        ("Irie C^β, β = [2..], m = 2".into(), "takeaway(dim=2, moves=Cbeta(beta=[2..]))", Claim::Grundy, "x xor y".into(), b2, true),
        ("Irie C^β, β = [2..], m = 3".into(), "takeaway(dim=3, moves=Cbeta(beta=[2..]))", Claim::Grundy, "x0 xor x1 xor x2".into(), b2, true),
        ("Irie C^β, β = [3..], m = 2".into(), "takeaway(dim=2, moves=Cbeta(beta=[3..]))", Claim::Grundy, "sigma(beta=[3..], x, y)".into(), b3, true),
        ("Irie C^β, β = [2,3..], m = 2".into(), "takeaway(dim=2, moves=Cbeta(beta=[2,3..]))", Claim::Grundy, "sigma(beta=[2,3..], x, y)".into(), b3, true),
        ("Irie C^β, β = [3..], m = 3".into(), "takeaway(dim=3, moves=Cbeta(beta=[3..]))", Claim::Grundy, "sigma(beta=[3..], x0, x1, x2)".into(), b3, true),
        ("Irie C^β, β = [2,3..], m = 3".into(), "takeaway(dim=3, moves=Cbeta(beta=[2,3..]))", Claim::Grundy, "sigma(beta=[2,3..], x0, x1, x2)".into(), b3, true),
        ("Irie C^β, β = [(2,3)..], m = 2 (base 6)".into(), "takeaway(dim=2, moves=Cbeta(beta=[(2,3)..]))", Claim::Grundy, "sigma(beta=[(2,3)..], x, y)".into(), Numeration::Base(6), true),
        ("Irie C^β, β = [2,(2,3)..], m = 2 (base 6)".into(), "takeaway(dim=2, moves=Cbeta(beta=[2,(2,3)..]))", Claim::Grundy, "sigma(beta=[2,(2,3)..], x, y)".into(), Numeration::Base(6), true),
        ("refute σ^[3..] for C^[2,3..]".into(), "takeaway(dim=2, moves=Cbeta(beta=[2,3..]))", Claim::Grundy, "sigma(beta=[3..], x, y)".into(), b3, false),
        ("staircase CB(t/2, y, z)".into(), "chocolate-staircase(f=t/2)", Claim::Grundy, "y xor z".into(), b2, true),
        ("refute x xor y for Ryuoh p = 3".into(), "ryuoh(p=3)", Claim::Grundy, "x xor y".into(), b2, false),
        ("refute: wrong only for x ≥ 2^40".into(), "nim", Claim::Grundy,
         "if x >= 1099511627776 then 0 else x xor y".into(), b2, false),
        ("refute wrong Wythoff pairing p = up(n)".into(), "wythoff", Claim::PPositions,
         "min(x, y) == floor_phi(abs(x - y) + 1) - 1".into(), fib, false),
    ]);
    println!(
        "{:<44} {:>10} {:>9}  verdict",
        "item", "seconds", "peak MiB"
    );
    let mut worst: f64 = 0.0;
    let mut per_item = true;
    for (name, spec, claim, text, num, want) in &items {
        per_item &= reset_peak();
        let game = parse_game(spec).unwrap();
        let mut best = f64::INFINITY;
        let mut verdict = String::new();
        for _ in 0..3 {
            let t = Instant::now();
            let p = prove(&*game, *claim, text, *num, &Default::default()).unwrap();
            best = best.min(t.elapsed().as_secs_f64());
            verdict = match (&p.verdict, want) {
                (Verdict::Proved, true) => "proved".into(),
                (Verdict::False(c), false) => {
                    format!(
                        "false at {}",
                        nimlab_engine::plan::position_text(&c.position)
                    )
                }
                _ => "UNEXPECTED".into(),
            };
        }
        worst = worst.max(best);
        let peak = peak_rss_mib().unwrap_or(f64::NAN);
        println!("{name:<44} {best:>10.4} {peak:>9.0}  {verdict}");
    }
    println!(
        "slowest item {worst:.3} s; peaks are {}",
        if per_item {
            "per item"
        } else {
            "cumulative (the kernel refused to reset them)"
        }
    );
}
