//! The exact operators (src/exact.rs) against the 64-bit ones (src/ops.rs).

use nimlab_formula::Formula;
use num_bigint::BigInt;
use num_traits::One;

/// The formula `x op y` for an operator's symbol: its tree is that one operator.
fn formula(op: &str) -> Formula {
    Formula::compile(&format!("x {op} y"), &["x", "y"]).expect("a formula")
}

/// `x op y` exactly (the exact evaluation of the tree).
fn binary(op: &str, x: &BigInt, y: &BigInt) -> Result<BigInt, String> {
    formula(op)
        .eval_exact(&[x.clone(), y.clone()])
        .map_err(|(fault, _)| fault)
}

/// `x op y` in 64 bits (the tree evaluation).
fn binary_64(op: &str, a: i64, b: i64) -> Result<i64, nimlab_formula::EvalError> {
    formula(op).eval(&[a, b])
}

/// Wherever the 64-bit operators are defined on naturals, the exact ones agree.
#[test]
fn exact_operators_agree_with_the_64_bit_ones() {
    let ops_list = [
        "+", "-", "*", "/", "%", "^", "xor", "&", "|", "<<", ">>", "==", "<", ">=",
    ];
    let vals: Vec<i64> = (-9..=9)
        .chain([62, 63, 64, i64::MAX, i64::MIN, i64::MAX - 1, 1 << 40])
        .collect();
    for op in ops_list {
        for &x in &vals {
            for &y in &vals {
                let small = binary_64(op, x, y);
                let big = binary(op, &BigInt::from(x), &BigInt::from(y));
                let digitwise = matches!(op, "xor" | "&" | "|");
                match small {
                    Ok(v) if !(digitwise && (x < 0 || y < 0)) => {
                        assert_eq!(big, Ok(BigInt::from(v)), "{x} {op} {y}")
                    }
                    _ => {}
                }
            }
        }
    }
    // beyond 64 bits: no overflow
    let two63: BigInt = BigInt::one() << 63;
    assert_eq!(
        binary("^", &BigInt::from(2), &BigInt::from(63)),
        Ok(two63.clone())
    );
    assert_eq!(
        binary("/", &(&two63 * BigInt::from(3)), &BigInt::from(-2)),
        Ok(-(&two63 * BigInt::from(3)) / BigInt::from(2))
    );
    assert!(binary("^", &BigInt::from(2), &BigInt::from(1 << 20)).is_err());
}
