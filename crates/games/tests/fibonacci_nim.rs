//! Fibonacci nim (and its multiplier-k variants): the seed's tables, the kernel against
//! the generic solver, the strategy against brute force, the Zeckendorf codes and big
//! positions. Moved from the library's unit tests (through the public API).

use nimlab_engine::big::BigUint;
use nimlab_engine::capability::BigPositions;
use nimlab_engine::{grundy_table, MemoryLimit, Outcome, TableOptions};
use nimlab_games::fibonacci_nim::{
    fast_table, fibonacci_pair, grundy_rows, least_winning_take, schwenk, strategy_table,
    FibonacciNim,
};

/// The smallest term of the greedy representation of `n ≥ 1` over `h` (ascending), from
/// the definition: take the largest term that fits, and the smallest term of the rest
/// (none when nothing is left).
fn greedy_smallest(n: u64, h: &[u64]) -> u64 {
    let largest = h
        .iter()
        .copied()
        .filter(|&t| t <= n)
        .max()
        .expect("h starts at 1");
    if largest == n {
        n
    } else {
        greedy_smallest(n - largest, h)
    }
}

/// An independent ℓ(n) for n ≥ 1, kept as a test oracle for the engine's
/// `zeck_low`: with standard indexing n = Σ F_{k_i} gives n·φ = U − ε with U an
/// integer and ε = Σ ψ^{k_i} (ψ = −1/φ), whose sign and size give the smallest
/// index k. Exact integer arithmetic: one big division and a few Fibonacci numbers.
fn zeckendorf_low_big(n: &BigUint) -> BigUint {
    use num_integer::Integer;
    const LOG_PHI_OF_2: f64 = 1.440_420_090_412_556_5;
    let m = (n.bits() as f64 * LOG_PHI_OF_2).ceil() as u64 + 24;
    let (fm, fm1) = fibonacci_pair(m);
    let (_, r) = (n * &fm1).div_rem(&fm);
    let fm_1 = &fm1 - &fm; // F_{m−1}
    let fm_2 = &fm - &fm_1; // F_{m−2}
                            // ε ∈ (−φ^{−2}, φ^{−1}): F_m·ε is −r or F_m − r.
    let (positive, ax) = if r < fm_2 {
        (false, r)
    } else {
        (true, &fm - &r)
    };
    // |F_m ε| lies in (F_{j−1}, F_{j+1}) for j = m − k; estimate j from the size.
    let bits = ax.bits();
    let top = if bits > 60 {
        &ax >> (bits - 60)
    } else {
        ax.clone()
    };
    let top = u64::try_from(&top).expect("60 bits") as f64;
    let log2 = top.log2() + bits.saturating_sub(60) as f64;
    let est = ((log2 + 5f64.sqrt().log2()) * LOG_PHI_OF_2).round() as i64;
    let first = (est - 3).max(1) as u64;
    // F_{first−1}, F_first, … up to F_{first+7}
    let (mut a, mut b) = fibonacci_pair(first - 1);
    let mut fibs = Vec::with_capacity(10);
    for _ in 0..10 {
        fibs.push(a.clone());
        let c = &a + &b;
        a = b;
        b = c;
    }
    for (i, j) in (first..first + 8).enumerate() {
        // k = m − j must be even exactly when ε > 0
        if j > m || (m - j).is_multiple_of(2) != positive {
            continue;
        }
        if fibs[i] < ax && ax < fibs[i + 2] {
            return fibonacci_pair(m - j).0;
        }
    }
    unreachable!("the Zeckendorf index estimate is within ±3")
}

#[test]
fn seed_tables_are_reproduced() {
    // Game II table of the seed, n = 1..31: w(n) and code (binary).
    let w2 = [
        1, 2, 1, 4, 1, 2, 1, 8, 1, 2, 1, 4, 1, 2, 1, 16, 1, 2, 1, 4, 1, 2, 1, 8, 1, 2, 1, 4, 1, 2,
        1,
    ];
    let t = strategy_table(1, 32);
    for (row, &w) in t.iter().zip(&w2) {
        assert_eq!(row.w, w, "n={}", row.n);
        assert_eq!(row.code, format!("{:b}", row.n));
    }
    // Game III table of the seed, n = 1..31.
    let w3 = [
        1, 2, 3, 1, 5, 1, 2, 8, 1, 2, 3, 1, 13, 1, 2, 3, 1, 5, 1, 2, 21, 1, 2, 3, 1, 5, 1, 2, 8, 1,
        2,
    ];
    let c3 = [
        "1", "10", "100", "101", "1000", "1001", "1010", "10000", "10001", "10010", "10100",
        "10101", "100000", "100001", "100010", "100100", "100101", "101000", "101001", "101010",
        "1000000", "1000001", "1000010", "1000100", "1000101", "1001000", "1001001", "1001010",
        "1010000", "1010001", "1010010",
    ];
    let t = strategy_table(2, 32);
    assert_eq!(t.len(), 31);
    for ((row, &w), &c) in t.iter().zip(&w3).zip(&c3) {
        assert_eq!((row.w, row.code.as_str()), (w, c), "n={}", row.n);
    }
}

#[test]
fn kernel_agrees_with_generic_solver() {
    for k in 1..=5u64 {
        let game = FibonacciNim::new(k).unwrap();
        let size = 140;
        let generic = grundy_table(&game, &[size, size], &TableOptions::default()).unwrap();
        let fast = fast_table(k, size, MemoryLimit::default()).unwrap();
        assert_eq!(generic, fast, "k={k}");
    }
    // limits above the heap change nothing
    let rows = grundy_rows(2, 300, MemoryLimit::default()).unwrap();
    for n in 0..300 {
        assert_eq!(rows.get(n, n), rows.get(n, n + 1000));
    }
}

#[test]
fn strategy_agrees_with_brute_force_everywhere_up_to_5000() {
    // all heaps ≤ 5000, every limit, by the kernel (itself checked against the
    // generic solver above); the code's w(n) from `least_winning_take`.
    for k in [1u64, 2, 3] {
        let rows = grundy_rows(k, 5000, MemoryLimit::default()).unwrap();
        for n in 1..=5000u64 {
            let w = least_winning_take(k, &BigUint::from(n)).unwrap().0;
            let w = u64::try_from(&w).unwrap();
            // every limit: P exactly for limits below w(n)
            for l in 0..=n {
                assert_eq!(rows.get(n, l) == 0, l < w, "k={k} n={n} l={l}");
            }
            // and taking w leads to a P-position
            let rest = n - w;
            assert_eq!(rows.get(rest, (k * w).min(rest)), 0, "k={k} n={n}");
        }
    }
}

#[test]
fn zeckendorf_low_big_matches_greedy() {
    let fib = schwenk(2, u64::MAX);
    for n in 1..30_000u64 {
        let w = zeckendorf_low_big(&BigUint::from(n));
        assert_eq!(w, BigUint::from(greedy_smallest(n, &fib)), "n={n}");
    }
    // numbers built from known Zeckendorf indices (standard F_k, k ≥ 2, gaps ≥ 2)
    let mut seed = 0x1234_5678_9abc_def0u64;
    for _ in 0..300 {
        let mut k = 2 + (seed % 40);
        let low = k;
        let mut n = BigUint::ZERO;
        let top = 100 + seed % 3000;
        while k < top {
            n += fibonacci_pair(k).0;
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            k += 2 + (seed >> 33) % 5;
        }
        assert_eq!(zeckendorf_low_big(&n), fibonacci_pair(low).0);
        // a Fibonacci number itself
        assert_eq!(
            zeckendorf_low_big(&fibonacci_pair(top).0),
            fibonacci_pair(top).0
        );
    }
}

#[test]
fn zeckendorf_low_agrees_with_the_engines_independent_method() {
    // nimlab_engine::zeckendorf::zeck_low finds ℓ(n) by another route (√5 bounds);
    // the two must agree on numbers of every size.
    let mut x = BigUint::from(0x9E37_79B9_7F4A_7C15u64);
    for i in 0..120u32 {
        x = &x * &x % (BigUint::from(10u32).pow(40 + 40 * i)) + 12345u32 + i;
        assert_eq!(
            zeckendorf_low_big(&x),
            nimlab_engine::zeckendorf::zeck_low(&x),
            "{x}"
        );
        let f = fibonacci_pair(200 + 97 * i as u64).0;
        assert_eq!(
            zeckendorf_low_big(&f),
            nimlab_engine::zeckendorf::zeck_low(&f)
        );
    }
}

#[test]
fn big_positions() {
    let g = FibonacciNim::new(2).unwrap();
    // 2·10^30 + 7 and its neighbours agree with the greedy Zeckendorf code
    let fib = schwenk(2, u64::MAX);
    for n in [
        1u64,
        2,
        7,
        12,
        100,
        1000,
        123_456_789,
        1 << 62,
        fib[80],
        fib[80] + 1,
    ] {
        let a = g
            .analyse_position(&[BigUint::from(n)], MemoryLimit::default())
            .unwrap();
        let w = greedy_smallest(n, &fib);
        let p = w == n; // start: w(n) ≤ n − 1 unless n is Fibonacci
        assert_eq!(a.outcome == Outcome::P, p, "n={n}");
        if !p {
            assert_eq!(
                a.winning_moves,
                vec![vec![
                    BigUint::from(n - w),
                    BigUint::from((2 * w).min(n - w))
                ]]
            );
        }
    }
    assert!(g.analyse_big(&[BigUint::from(20u32)]).is_none());
    let a = g.analyse_position(
        &[BigUint::from(20u32), BigUint::from(2u32)],
        MemoryLimit::default(),
    );
    assert_eq!(
        a.unwrap().grundy,
        Some(BigUint::from(
            grundy_rows(2, 20, MemoryLimit::default())
                .unwrap()
                .get(20, 2)
        ))
    );
    assert!(g
        .analyse_position(
            &[1u32.into(), 2u32.into(), 3u32.into()],
            MemoryLimit::default()
        )
        .is_err());
    let g3 = FibonacciNim::new(3).unwrap();
    let h3 = schwenk(3, u64::MAX);
    for n in [5u64, 77, 1_000_003, u64::MAX / 3] {
        let a = g3
            .analyse_position(&[BigUint::from(n)], MemoryLimit::default())
            .unwrap();
        let w = greedy_smallest(n, &h3);
        assert_eq!(a.outcome == Outcome::P, w == n, "n={n}");
    }
}
