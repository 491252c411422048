//! The exact operators (src/exact.rs) against the 64-bit ones (src/ops.rs).

use nimlab_formula::Formula;
use num_bigint::BigInt;
use num_traits::One;

/// The binary operators, each as the formula `x op y`: its tree is that one operator.
#[derive(Debug, Clone, Copy)]
enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    Pow,
    Xor,
    And,
    Or,
    Shl,
    Shr,
    Eq,
    Lt,
    Ge,
}

impl BinOp {
    fn formula(self) -> Formula {
        use BinOp::*;
        let symbol = match self {
            Add => "+",
            Sub => "-",
            Mul => "*",
            Div => "/",
            Mod => "%",
            Pow => "^",
            Xor => "xor",
            And => "&",
            Or => "|",
            Shl => "<<",
            Shr => ">>",
            Eq => "==",
            Lt => "<",
            Ge => ">=",
        };
        Formula::compile(&format!("x {symbol} y"), &["x", "y"]).expect("a formula")
    }
}

/// `x op y` exactly (the exact evaluation of the tree).
fn binary(op: BinOp, x: &BigInt, y: &BigInt) -> Result<BigInt, String> {
    op.formula()
        .eval_exact(&[x.clone(), y.clone()])
        .map_err(|(fault, _)| fault)
}

/// `x op y` in 64 bits (the tree evaluation).
mod ops {
    use super::BinOp;
    use nimlab_formula::EvalError;

    pub fn binary(op: BinOp, a: i64, b: i64) -> Result<i64, EvalError> {
        op.formula().eval(&[a, b])
    }
}

/// Wherever the 64-bit operators are defined on naturals, the exact ones agree.
#[test]
fn exact_operators_agree_with_the_64_bit_ones() {
    let ops_list = [
        BinOp::Add,
        BinOp::Sub,
        BinOp::Mul,
        BinOp::Div,
        BinOp::Mod,
        BinOp::Pow,
        BinOp::Xor,
        BinOp::And,
        BinOp::Or,
        BinOp::Shl,
        BinOp::Shr,
        BinOp::Eq,
        BinOp::Lt,
        BinOp::Ge,
    ];
    let vals: Vec<i64> = (-9..=9)
        .chain([62, 63, 64, i64::MAX, i64::MIN, i64::MAX - 1, 1 << 40])
        .collect();
    for op in ops_list {
        for &x in &vals {
            for &y in &vals {
                let small = ops::binary(op, x, y);
                let big = binary(op, &BigInt::from(x), &BigInt::from(y));
                let digitwise = matches!(op, BinOp::Xor | BinOp::And | BinOp::Or);
                match small {
                    Ok(v) if !(digitwise && (x < 0 || y < 0)) => {
                        assert_eq!(big, Ok(BigInt::from(v)), "{x} {op:?} {y}")
                    }
                    _ => {}
                }
            }
        }
    }
    // beyond 64 bits: no overflow
    let two63: BigInt = BigInt::one() << 63;
    assert_eq!(
        binary(BinOp::Pow, &BigInt::from(2), &BigInt::from(63)),
        Ok(two63.clone())
    );
    assert_eq!(
        binary(BinOp::Div, &(&two63 * BigInt::from(3)), &BigInt::from(-2)),
        Ok(-(&two63 * BigInt::from(3)) / BigInt::from(2))
    );
    assert!(binary(BinOp::Pow, &BigInt::from(2), &BigInt::from(1 << 20)).is_err());
}
