//! The 64-bit operators and functions (src/ops.rs).

use nimlab_formula::{EvalError, Formula};

/// The 64-bit operators and functions (src/ops.rs), through the formula whose tree
/// evaluation is exactly that one call.
fn op(text: &str, args: &[i64]) -> Result<i64, EvalError> {
    Formula::compile(text, &["a", "b"])
        .expect("a formula")
        .eval(args)
}

/// ⌊a/b⌋: `a / b`.
pub fn floor_div(a: i64, b: i64) -> Result<i64, EvalError> {
    op("a / b", &[a, b])
}

/// a mod b ∈ [0, |b|): `a % b`.
pub fn modulo(a: i64, b: i64) -> Result<i64, EvalError> {
    op("a % b", &[a, b])
}

fn fib(k: i64) -> Result<i64, EvalError> {
    op("fib(a)", &[k])
}

fn zeck_low(n: i64) -> Result<i64, EvalError> {
    op("zeck_low(a)", &[n])
}

fn floor_phi(n: i64) -> Result<i64, EvalError> {
    op("floor_phi(a)", &[n])
}

#[test]
fn fibonacci_convention_of_the_seeds() {
    let f: Vec<i64> = (0..8).map(|k| fib(k).unwrap()).collect();
    assert_eq!(f, vec![1, 1, 2, 3, 5, 8, 13, 21]);
    assert!(fib(200).is_err());
    assert!(fib(-1).is_err());
}

#[test]
fn floor_phi_matches_the_wythoff_pairs() {
    // the lower Wythoff sequence: the least number not yet used, paired with it + n
    let mut used = std::collections::HashSet::new();
    for n in 0..2000i64 {
        let a = (0..).find(|a| !used.contains(a)).unwrap();
        used.insert(a);
        used.insert(a + n);
        assert_eq!(floor_phi(n).unwrap(), a, "n = {n}");
    }
    assert_eq!(floor_phi(1 << 40).unwrap(), 1779047184767);
    assert!(floor_phi(i64::MAX).is_err());
    assert!(floor_phi(-1).is_err());
}

#[test]
fn zeck_low_matches_a_brute_force_zeckendorf() {
    // φ(31) = 21 + 8 + 2 (SPEC §2), so ℓ(31) = 2.
    assert_eq!(zeck_low(31).unwrap(), 2);
    let fibs = [1i64, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144];
    for n in 1..200i64 {
        // brute force: the non-adjacent subset of fibs summing to n
        let mut found = None;
        for mask in 0u32..(1 << fibs.len()) {
            if mask & (mask >> 1) != 0 {
                continue;
            }
            let s: i64 = (0..fibs.len())
                .filter(|i| mask >> i & 1 == 1)
                .map(|i| fibs[i])
                .sum();
            if s == n {
                found = Some(fibs[mask.trailing_zeros() as usize]);
            }
        }
        assert_eq!(zeck_low(n).unwrap(), found.unwrap(), "n = {n}");
    }
    assert!(zeck_low(0).is_err());
}

#[test]
fn floor_division_and_modulo() {
    for a in -20i64..20 {
        for b in -7i64..7 {
            if b == 0 {
                assert!(floor_div(a, b).is_err());
                continue;
            }
            let q = floor_div(a, b).unwrap();
            assert_eq!(q, (a as f64 / b as f64).floor() as i64);
            let r = modulo(a, b).unwrap();
            assert!((0..b.abs()).contains(&r));
            assert_eq!((a - r) % b, 0);
        }
    }
    assert!(floor_div(i64::MIN, -1).is_err());
    assert_eq!(modulo(i64::MIN, -1).unwrap(), 0);
}
