//! The meaning of every operator and function on one pair of values. Both evaluators
//! (the tree walker and the batch program) call these, so they cannot disagree.

use crate::parse::{BinOp, Func, UnOp};
use nimlab_engine::nimarith;

/// What went wrong, without the location (the caller adds it).
pub(crate) type Fault = &'static str;

pub(crate) const OVERFLOW: Fault = "overflow (the result does not fit in a 64-bit integer)";
pub(crate) const DIV_ZERO: Fault = "division by zero";
pub(crate) const QUANTIFIER: Fault =
    "all(…) cannot be evaluated (only the automata of a proof decide it)";

/// Floor division ⌊a/b⌋.
#[inline]
pub(crate) fn floor_div(a: i64, b: i64) -> Result<i64, Fault> {
    if b == 0 {
        return Err(DIV_ZERO);
    }
    let q = a.checked_div(b).ok_or(OVERFLOW)?;
    Ok(if a % b != 0 && ((a < 0) != (b < 0)) {
        q - 1
    } else {
        q
    })
}

/// Non-negative remainder: a mod b ∈ [0, |b|).
#[inline]
pub(crate) fn modulo(a: i64, b: i64) -> Result<i64, Fault> {
    if b == 0 {
        return Err(DIV_ZERO);
    }
    // i64::MIN mod -1 is 0; wrapping_rem_euclid gives exactly that.
    Ok(a.wrapping_rem_euclid(b))
}

#[inline]
pub(crate) fn binary(op: BinOp, a: i64, b: i64) -> Result<i64, Fault> {
    use BinOp::*;
    Ok(match op {
        Add => a.checked_add(b).ok_or(OVERFLOW)?,
        Sub => a.checked_sub(b).ok_or(OVERFLOW)?,
        Mul => a.checked_mul(b).ok_or(OVERFLOW)?,
        Div => floor_div(a, b)?,
        Mod => modulo(a, b)?,
        Pow => {
            if b < 0 {
                return Err("negative exponent");
            }
            match a {
                0 | 1 => {
                    if b == 0 {
                        1
                    } else {
                        a
                    }
                }
                -1 => {
                    if b % 2 == 0 {
                        1
                    } else {
                        -1
                    }
                }
                _ => {
                    let e = u32::try_from(b).map_err(|_| OVERFLOW)?;
                    a.checked_pow(e).ok_or(OVERFLOW)?
                }
            }
        }
        Xor => a ^ b,
        And => a & b,
        Or => a | b,
        Shl => {
            if b < 0 {
                return Err("negative shift");
            }
            if a == 0 {
                0
            } else if b >= 63 {
                return Err(OVERFLOW);
            } else {
                let r = a << b;
                if r >> b != a {
                    return Err(OVERFLOW);
                }
                r
            }
        }
        Shr => {
            if b < 0 {
                return Err("negative shift");
            }
            // ⌊a / 2^b⌋
            a >> b.min(63)
        }
        Eq => (a == b) as i64,
        Ne => (a != b) as i64,
        Lt => (a < b) as i64,
        Le => (a <= b) as i64,
        Gt => (a > b) as i64,
        Ge => (a >= b) as i64,
        LogAnd => (a != 0 && b != 0) as i64,
        LogOr => (a != 0 || b != 0) as i64,
    })
}

#[inline]
pub(crate) fn unary(op: UnOp, a: i64) -> Result<i64, Fault> {
    match op {
        UnOp::Neg => a.checked_neg().ok_or(OVERFLOW),
        UnOp::Not => Ok((a == 0) as i64),
    }
}

fn naturals(args: &[i64]) -> Result<Vec<u64>, Fault> {
    args.iter()
        .map(|&a| u64::try_from(a).map_err(|_| "nim sums need non-negative arguments"))
        .collect()
}

fn to_i64(v: u64) -> Result<i64, Fault> {
    i64::try_from(v).map_err(|_| OVERFLOW)
}

/// Fibonacci numbers in the seeds' convention (SPEC §2): f1 = 1, f2 = 2, f3 = 3, f4 = 5;
/// f0 = 1 so that f(k) = f(k−1) + f(k−2) from k = 2 on.
pub(crate) fn fib(k: i64) -> Result<i64, Fault> {
    if k < 0 {
        return Err("fib needs k ≥ 0");
    }
    let (mut a, mut b) = (1i64, 1i64); // f0, f1
    for _ in 1..k {
        let c = a.checked_add(b).ok_or(OVERFLOW)?;
        a = b;
        b = c;
    }
    Ok(b)
}

/// ℓ(n): the smallest Fibonacci number (f1 = 1, f2 = 2, …) in the Zeckendorf
/// representation of n ≥ 1 (SPEC §2).
pub(crate) fn zeck_low(n: i64) -> Result<i64, Fault> {
    if n < 1 {
        return Err("zeck_low needs n ≥ 1");
    }
    // Greedy: subtract the largest Fibonacci number ≤ the rest; the last one taken is ℓ.
    let mut fibs = vec![1i64, 2];
    while let Some(next) = fibs[fibs.len() - 1].checked_add(fibs[fibs.len() - 2]) {
        if next > n {
            break;
        }
        fibs.push(next);
    }
    let mut rest = n;
    let mut last = n;
    for &f in fibs.iter().rev() {
        if f <= rest {
            rest -= f;
            last = f;
            if rest == 0 {
                break;
            }
        }
    }
    Ok(last)
}

pub(crate) fn call(func: &Func, args: &[i64]) -> Result<i64, Fault> {
    match func {
        Func::Min => Ok(*args.iter().min().expect("arity checked")),
        Func::Max => Ok(*args.iter().max().expect("arity checked")),
        Func::Abs => args[0].checked_abs().ok_or(OVERFLOW),
        Func::FloorLog2 => {
            if args[0] <= 0 {
                Err("floor_log2 needs a positive argument")
            } else {
                Ok(63 - args[0].leading_zeros() as i64)
            }
        }
        Func::Popcount => {
            if args[0] < 0 {
                Err("popcount needs a non-negative argument")
            } else {
                Ok(args[0].count_ones() as i64)
            }
        }
        Func::NimsumB => {
            let xs = naturals(args)?;
            to_i64(
                nimarith::nim_sum_base(xs[0], &xs[1..])
                    .map_err(|_| "nimsum_b needs a base b ≥ 2 and a result that fits")?,
            )
        }
        Func::NNimsum => {
            let xs = naturals(args)?;
            to_i64(
                nimarith::n_nim_sum(xs[0], &xs[1..])
                    .map_err(|_| "nnimsum needs n ≥ 2 and a result that fits")?,
            )
        }
        Func::Sigma(beta) => {
            let xs = naturals(args)?;
            to_i64(beta.sigma(&xs).map_err(|_| OVERFLOW)?)
        }
        Func::Fib => fib(args[0]),
        Func::ZeckLow => zeck_low(args[0]),
        Func::FloorPhi => floor_phi(args[0]),
    }
}

/// ⌊n·φ⌋, φ = (1 + √5)/2, exactly: ⌊(n + ⌊√(5n²)⌋)/2⌋ (√5·n is irrational for n > 0).
pub(crate) fn floor_phi(n: i64) -> Result<i64, Fault> {
    if n < 0 {
        return Err("floor_phi needs n ≥ 0");
    }
    let n = n as u128;
    let square = n
        .checked_mul(n)
        .and_then(|m| m.checked_mul(5))
        .ok_or(OVERFLOW)?;
    let root = square.isqrt();
    i64::try_from((n + root) / 2).map_err(|_| OVERFLOW)
}
