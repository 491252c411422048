//! Benchmarks of the one-heap games (subtraction games, the multiplier family), each
//! against a baseline run in the same process. Run with
//! `cargo bench -p nimlab-bench --bench one_heap` (add `-- quick` to skip the 10^9 run).

use nimlab_engine::big::BigUint;
use nimlab_engine::capability::BigPositions;
use nimlab_engine::{grundy_table, MemoryLimit, TableOptions};
use nimlab_games::fibonacci_nim::{grundy_rows, FibonacciNim};
use nimlab_games::subtraction::{grundy_sequence_u8, sweep, Subtraction};
use std::hint::black_box;
use std::time::{Duration, Instant};

/// On-CPU time of this thread (Linux), to read timings on a loaded machine.
fn thread_cpu() -> Option<Duration> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = text.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(ns))
}

thread_local!(static LAST_CPU: std::cell::Cell<Option<Duration>> = const { std::cell::Cell::new(None) });

/// Wall time of `f`; its thread CPU time is kept for [`secs`] to show.
fn time<T>(f: impl FnOnce() -> T) -> (T, Duration) {
    let cpu0 = thread_cpu();
    let start = Instant::now();
    let out = f();
    let wall = start.elapsed();
    LAST_CPU.with(|c| c.set(cpu0.zip(thread_cpu()).map(|(a, b)| b.saturating_sub(a))));
    (out, wall)
}

/// `1.234 s` plus, when known, the CPU time of the last timed call on this thread
/// (wall time suffers most from other jobs on a shared machine).
fn secs(d: Duration) -> String {
    match LAST_CPU.with(|c| c.get()) {
        Some(cpu) => format!("{:.3} s (cpu {:.3} s)", d.as_secs_f64(), cpu.as_secs_f64()),
        None => format!("{:.3} s", d.as_secs_f64()),
    }
}

/// The plain loop: G(n) = mex of the option values, one heap after another.
fn naive_sequence(s: &[u64], len: usize) -> Vec<u8> {
    let mut g = vec![0u8; len];
    for n in 0..len {
        let mut mask = 0u64;
        for &t in s {
            if t as usize <= n {
                mask |= 1 << g[n - t as usize];
            }
        }
        g[n] = (!mask).trailing_zeros() as u8;
    }
    g
}

fn main() {
    let quick = std::env::args().any(|a| a == "quick");
    let len: usize = if quick { 100_000_000 } else { 1_000_000_000 };

    sequence(len);
    big_heaps();
    sweeps();
    fibonacci_rows();
    fibonacci_big_heap();
}

/// The Grundy sequence of {1,3,4}: the proven period and block copies against the
/// plain mex loop and the cost of writing the bytes.
fn sequence(len: usize) {
    println!("== subtraction(s={{1,3,4}}): the Grundy sequence G(0..{len})");
    let (floor, t_floor) = time(|| {
        let mut v = vec![0u8; len];
        v.iter_mut().for_each(|x| *x = 1);
        v
    });
    black_box(&floor);
    drop(floor);
    println!("  writing {len} bytes (floor): {}", secs(t_floor));
    let (fast, t_fast) = time(|| grundy_sequence_u8(&[1, 3, 4], len).unwrap());
    println!("  nimlab (proven period + block copies): {}", secs(t_fast));
    let (slow, t_slow) = time(|| naive_sequence(&[1, 3, 4], len));
    println!("  naive mex loop: {}", secs(t_slow));
    assert!(fast == slow, "fast and naive sequences differ");
    drop((fast, slow));
    println!(
        "  ratio naive / nimlab: {:.1}x",
        t_slow.as_secs_f64() / t_fast.as_secs_f64()
    );
}

/// Values of a 1000-digit heap for random sets (the period search included), and the
/// generic solver as the baseline.
fn big_heaps() {
    println!(
        "== subtraction value for a 1000-digit heap, fresh game each time (period search included)"
    );
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let mut rnd = |m: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % m
    };
    let heap: BigUint = format!("7{}", "3".repeat(999)).parse().unwrap();
    let mut times = Vec::new();
    let mut worst = (Duration::ZERO, Vec::new(), 0);
    for _ in 0..200 {
        let size = 1 + rnd(8) as usize;
        let mut s: Vec<u64> = (0..size).map(|_| 1 + rnd(1000)).collect();
        s.push(1000); // max S = 1000, the bound of the goal
        s.sort_unstable();
        s.dedup();
        s.truncate(8);
        let (a, t) = time(|| {
            let g = Subtraction::new(s.clone()).unwrap();
            g.analyse_big(std::slice::from_ref(&heap)).unwrap().unwrap()
        });
        black_box(a);
        times.push(t);
        if t > worst.0 {
            let g = Subtraction::new(s.clone()).unwrap();
            worst = (t, s, g.cached_period().unwrap().period);
        }
    }
    times.sort();
    println!(
        "  200 random sets, |S| ≤ 8, max S = 1000: median {:.3} ms, max {:.3} ms (S = {:?}, period {})",
        times[100].as_secs_f64() * 1e3,
        worst.0.as_secs_f64() * 1e3,
        worst.1,
        worst.2
    );
    let g = Subtraction::new(vec![1, 3, 4]).unwrap();
    let (_, t_solver) = time(|| {
        let mut solver = nimlab_engine::Solver::new(&g);
        solver.grundy(&[1_000_000]).unwrap()
    });
    println!(
        "  baseline: generic solver for heap 10^6 of {{1,3,4}}: {:.3} ms (it cannot reach big heaps)",
        t_solver.as_secs_f64() * 1e3
    );
}

/// Sweeps of subtraction sets, in parallel and one set after another.
fn sweeps() {
    println!("== sweep: all 3-element subtraction sets with max ≤ 30");
    let (rows, t_sweep) = time(|| {
        sweep(
            &nimlab_games::SweepRequest {
                max: 30,
                size: 3,
                shard: (0, 1),
                up_to: 10_000_000,
            },
            &nimlab_engine::NoProgress,
        )
        .unwrap()
    });
    println!(
        "  {} sets in {:.3} s wall (parallel); longest: {:?} period {:?}",
        rows.len(),
        t_sweep.as_secs_f64(),
        rows[0].member,
        rows[0].period.map(|p| p.1)
    );
    let (_, t_serial) = time(|| longest_period_serially(rows.iter().map(|r| &r.member)));
    println!("  same sets one after another: {}", secs(t_serial));
    let (rows, t_big) = time(|| {
        sweep(
            &nimlab_games::SweepRequest {
                max: 50,
                size: 4,
                shard: (0, 1),
                up_to: 10_000_000,
            },
            &nimlab_engine::NoProgress,
        )
        .unwrap()
    });
    let (_, t_big_serial) = time(|| longest_period_serially(rows.iter().map(|r| &r.member)));
    println!(
        "  larger sweep, 4-element sets with max ≤ 50 ({} sets): parallel {:.3} s wall, \
         serial {:.3} s wall; longest {:?} period {:?}",
        rows.len(),
        t_big.as_secs_f64(),
        t_big_serial.as_secs_f64(),
        rows[0].member,
        rows[0].period.map(|p| p.1)
    );
}

/// Fibonacci Nim's rows of G(heap, limit), against the generic table.
fn fibonacci_rows() {
    println!("== fibonacci-nim: all G(heap, limit) for heap ≤ 32768");
    for k in [1u64, 2, 3] {
        let (rows, t) = time(|| grundy_rows(k, 32768, MemoryLimit::default()).unwrap());
        println!(
            "  k = {k}: {} ({} breakpoints for 5.4·10^8 cells)",
            secs(t),
            rows.breakpoints()
        );
    }
    let n = 512;
    let game = FibonacciNim::new(2).unwrap();
    let (_, t_generic) = time(|| grundy_table(&game, &[n, n], &TableOptions::default()).unwrap());
    let generic = secs(t_generic);
    let (_, t_kernel) = time(|| grundy_rows(2, n as u64 - 1, MemoryLimit::default()).unwrap());
    println!(
        "  baseline at {n}x{n}, k = 2: generic table {generic}, kernel {} (ratio {:.0}x)",
        secs(t_kernel),
        t_generic.as_secs_f64() / t_kernel.as_secs_f64()
    );
}

/// A winning move of Fibonacci Nim from a huge heap.
fn fibonacci_big_heap() {
    println!("== fibonacci-nim: a winning move from a heap of 10^5 decimal digits");
    let digits: String = (0..100_000)
        .map(|i| char::from(b'1' + ((i * 7 + 3) % 9) as u8))
        .collect();
    for k in [1u64, 2] {
        let game = FibonacciNim::new(k).unwrap();
        let (a, t) = time(|| {
            let n: BigUint = digits.parse().unwrap();
            game.analyse_big(&[n]).unwrap().unwrap()
        });
        println!(
            "  k = {k}: {} (parse + strategy), outcome {}",
            secs(t),
            a.outcome.as_str()
        );
    }
}

/// The longest period of the sets, certified one set after another (the serial
/// baseline of a sweep).
fn longest_period_serially<'a>(sets: impl Iterator<Item = &'a Vec<u64>>) -> Option<u64> {
    sets.map(|set| {
        nimlab_games::subtraction::certify_period(set, 10_000_000)
            .unwrap()
            .period
    })
    .max()
}
