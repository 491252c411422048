//! Wythoff's Zeckendorf strategy on heaps of 10^5 decimal digits (goal: ≤ 0.5 s), and
//! the Zeckendorf primitives it uses, against the plain greedy code as a baseline.
//!
//! Run: `cargo bench -p nimlab-bench --bench wythoff_big`

mod common;

use common::random_decimal;
use nimlab_engine::capability::BigPositions;
use nimlab_engine::zeckendorf::{fib, trailing_zeros, up, zeck_indices, zeck_low};
use nimlab_games::wythoff::strategy::p_of;
use nimlab_games::wythoff::Wythoff;
use std::time::{Duration, Instant};

/// Best and median of `runs` timings.
fn time(runs: usize, mut f: impl FnMut()) -> (Duration, Duration) {
    let mut t: Vec<Duration> = (0..runs)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed()
        })
        .collect();
    t.sort();
    (t[0], t[runs / 2])
}

fn main() {
    const DIGITS: usize = 100_000;
    let a = random_decimal(DIGITS, 1);
    let b = random_decimal(DIGITS, 2);
    let cold = Instant::now();
    let first = Wythoff
        .analyse_big(&[a.clone(), b.clone()])
        .unwrap()
        .unwrap();
    let cold = cold.elapsed();
    println!(
        "value wythoff, two {DIGITS}-digit heaps, first call (computes √5 to {} bits): {:.3} s  [{}]",
        a.bits().max(b.bits()) + 16,
        cold.as_secs_f64(),
        first.outcome.as_str()
    );
    // A P-position of that size, and one where p < p_n (the up/down branch).
    let n = random_decimal(DIGITS - 1, 3);
    let p = p_of(&n);
    let q = &p + &n;
    let below = &p - 12345u32;

    let cases = [
        ("random heaps", a.clone(), b.clone()),
        ("P-position (p_n, q_n)", q.clone(), p.clone()),
        ("p < p_n (reduce the larger heap)", below.clone(), q.clone()),
    ];
    for (name, x, y) in &cases {
        let (best, median) = time(5, || {
            let r = Wythoff
                .analyse_big(&[x.clone(), y.clone()])
                .unwrap()
                .unwrap();
            std::hint::black_box(r);
        });
        println!(
            "value wythoff, {DIGITS} digits, {name}: best {:.3} s, median {:.3} s (goal ≤ 0.5 s)",
            best.as_secs_f64(),
            median.as_secs_f64()
        );
    }

    // ℓ(n) for Fibonacci Nim: random, and a Fibonacci number (≈ 478 000 trailing zeros).
    let big_fib = fib(478_000);
    for (name, x) in [("random", &a), ("f_478000", &big_fib)] {
        let (best, median) = time(3, || {
            std::hint::black_box(zeck_low(x));
        });
        println!(
            "zeck_low (ℓ) of a {}-digit {name}: best {:.3} s, median {:.3} s; trailing zeros {}",
            x.to_str_radix(10).len(),
            best.as_secs_f64(),
            median.as_secs_f64(),
            trailing_zeros(x).unwrap()
        );
    }
    let (best, _) = time(3, || {
        std::hint::black_box(up(&a));
    });
    println!("up of a {DIGITS}-digit number: {:.4} s", best.as_secs_f64());

    // Baseline: the plain greedy code against the golden-ratio ℓ on smaller numbers.
    for digits in [2_000usize, 10_000] {
        let x = random_decimal(digits, 4);
        let (greedy, _) = time(3, || {
            std::hint::black_box(zeck_indices(&x));
        });
        let (fast, _) = time(3, || {
            std::hint::black_box(zeck_low(&x));
        });
        println!(
            "{digits} digits: greedy code {:.4} s, golden-ratio ℓ {:.5} s, ratio {:.0}×",
            greedy.as_secs_f64(),
            fast.as_secs_f64(),
            greedy.as_secs_f64() / fast.as_secs_f64()
        );
    }
}
