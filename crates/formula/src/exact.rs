//! Exact evaluation over the integers, of any size: the meaning the prover's automata
//! give a formula. The 64-bit evaluators (`eval_tree`, the batch program) compute the
//! same values wherever they do not overflow; this one never overflows, so it can
//! confirm a counterexample at 2^63 or 2^100, and the compiler's tests compare every
//! automaton with it.
//!
//! Where the automata work over N, so does this: the digit-wise operations (`xor`,
//! `&`, `|`, `nimsum_b`, `sigma` …) are undefined on negative arguments.

use crate::parse::{BinOp, Expr, Func, Kind, UnOp};
use num_bigint::{BigInt, BigUint, Sign};
use num_integer::Integer;
use num_traits::{One, Signed, ToPrimitive, Zero};

/// Why a value is undefined.
pub(crate) type Fault = &'static str;

/// Results beyond this many bits are refused (a power or shift of a constant).
const MAX_BITS: u64 = 1 << 16;

const NEGATIVE_DIGITS: Fault = "digit-wise operations need non-negative arguments";
const TOO_LARGE: Fault = "a result beyond 2^65536";

/// The value of `e` with formula variable i equal to `vals[i]`; the fault and its
/// column where undefined.
pub(crate) fn eval(e: &Expr, vals: &[BigInt]) -> Result<BigInt, (Fault, usize)> {
    let at = |r: Result<BigInt, Fault>| r.map_err(|f| (f, e.col));
    let truth = |b: bool| if b { BigInt::one() } else { BigInt::zero() };
    match &e.kind {
        Kind::Num(n) => Ok(BigInt::from(*n)),
        Kind::Var(v) => Ok(vals.get(*v).cloned().unwrap_or_default()),
        Kind::Unary(UnOp::Neg, a) => Ok(-eval(a, vals)?),
        Kind::Unary(UnOp::Not, a) => Ok(truth(eval(a, vals)?.is_zero())),
        Kind::Binary(BinOp::LogAnd, a, b) => Ok(truth(
            !eval(a, vals)?.is_zero() && !eval(b, vals)?.is_zero(),
        )),
        Kind::Binary(BinOp::LogOr, a, b) => Ok(truth(
            !eval(a, vals)?.is_zero() || !eval(b, vals)?.is_zero(),
        )),
        Kind::Binary(op, a, b) => {
            let x = eval(a, vals)?;
            let y = eval(b, vals)?;
            at(binary(*op, &x, &y))
        }
        Kind::If(c, a, b) => {
            if !eval(c, vals)?.is_zero() {
                eval(a, vals)
            } else {
                eval(b, vals)
            }
        }
        Kind::Call(func, args) => {
            let xs = args
                .iter()
                .map(|a| eval(a, vals))
                .collect::<Result<Vec<_>, _>>()?;
            at(call(func, &xs))
        }
        Kind::All(..) => Err((crate::ops::QUANTIFIER, e.col)),
    }
}

fn natural(x: &BigInt) -> Result<BigUint, Fault> {
    x.to_biguint().ok_or(NEGATIVE_DIGITS)
}

fn bits_ok(x: BigInt) -> Result<BigInt, Fault> {
    if x.bits() > MAX_BITS {
        Err(TOO_LARGE)
    } else {
        Ok(x)
    }
}

/// `x op y` exactly.
pub(crate) fn binary(op: BinOp, x: &BigInt, y: &BigInt) -> Result<BigInt, Fault> {
    use BinOp::*;
    let truth = |b: bool| if b { BigInt::one() } else { BigInt::zero() };
    Ok(match op {
        Add => x + y,
        Sub => x - y,
        Mul => bits_ok(x * y)?,
        Div => {
            if y.is_zero() {
                return Err(crate::ops::DIV_ZERO);
            }
            x.div_floor(y)
        }
        Mod => {
            if y.is_zero() {
                return Err(crate::ops::DIV_ZERO);
            }
            x.mod_floor(&y.abs())
        }
        Pow => {
            if y.is_negative() {
                return Err("negative exponent");
            }
            if x.is_zero() || x.magnitude().is_one() {
                // 0^0 = 1, 0^k = 0; ±1 alternate
                return Ok(if y.is_zero() {
                    BigInt::one()
                } else if x.is_negative() && y.is_odd() {
                    -BigInt::one()
                } else if x.is_negative() {
                    BigInt::one()
                } else {
                    x.clone()
                });
            }
            let e = y.to_u64().filter(|&e| e <= MAX_BITS).ok_or(TOO_LARGE)?;
            if (x.bits() - 1).saturating_mul(e) > MAX_BITS {
                return Err(TOO_LARGE);
            }
            bits_ok(num_traits::pow(x.clone(), e as usize))?
        }
        Xor | And | Or => {
            let (a, b) = (natural(x)?, natural(y)?);
            BigInt::from(match op {
                Xor => a ^ b,
                And => a & b,
                _ => a | b,
            })
        }
        Shl | Shr => {
            if y.is_negative() {
                return Err("negative shift");
            }
            if x.is_zero() {
                return Ok(BigInt::zero());
            }
            let Some(k) = y.to_u64().filter(|&k| k <= MAX_BITS) else {
                // every bit shifted out: ⌊x / 2^k⌋ is 0 or −1
                return match (op, x.is_negative()) {
                    (Shr, false) => Ok(BigInt::zero()),
                    (Shr, true) => Ok(-BigInt::one()),
                    _ => Err(TOO_LARGE),
                };
            };
            if op == Shl {
                bits_ok(x << k as usize)?
            } else {
                x.div_floor(&(BigInt::one() << k as usize))
            }
        }
        Eq => truth(x == y),
        Ne => truth(x != y),
        Lt => truth(x < y),
        Le => truth(x <= y),
        Gt => truth(x > y),
        Ge => truth(x >= y),
        LogAnd => truth(!x.is_zero() && !y.is_zero()),
        LogOr => truth(!x.is_zero() || !y.is_zero()),
    })
}

/// The Zeckendorf weights 1, 2, 3, 5, … up to the largest ≤ n.
fn fib_weights(n: &BigUint) -> Vec<BigUint> {
    let mut w = vec![BigUint::one()];
    let mut next = BigUint::from(2u8);
    while &next <= n {
        let last = w.last().expect("non-empty").clone();
        w.push(next.clone());
        next += last;
    }
    w
}

fn call(func: &Func, xs: &[BigInt]) -> Result<BigInt, Fault> {
    let small = |xs: &[BigInt]| -> Result<Vec<u64>, Fault> {
        xs.iter()
            .map(|x| {
                natural(x)?
                    .to_u64()
                    .ok_or("beyond the 64-bit arguments this function is evaluated with")
            })
            .collect()
    };
    Ok(match func {
        Func::Min => xs.iter().min().expect("arity checked").clone(),
        Func::Max => xs.iter().max().expect("arity checked").clone(),
        Func::Abs => xs[0].abs(),
        Func::FloorLog2 => {
            if !xs[0].is_positive() {
                return Err("floor_log2 needs a positive argument");
            }
            BigInt::from(xs[0].bits() - 1)
        }
        Func::Popcount => BigInt::from(
            natural(&xs[0])
                .map_err(|_| "popcount needs a non-negative argument")?
                .count_ones(),
        ),
        Func::NimsumB => {
            let b = xs[0]
                .to_u32()
                .filter(|&b| (2..=256).contains(&b))
                .ok_or("nimsum_b needs a base 2 ≤ b ≤ 256")?;
            let mut digits: Vec<u8> = Vec::new();
            for x in &xs[1..] {
                let d = natural(x)?.to_radix_le(b);
                if digits.len() < d.len() {
                    digits.resize(d.len(), 0);
                }
                for (acc, &v) in digits.iter_mut().zip(&d) {
                    *acc = ((*acc as u32 + v as u32) % b) as u8;
                }
            }
            BigInt::from_biguint(
                Sign::Plus,
                BigUint::from_radix_le(&digits, b).unwrap_or_default(),
            )
        }
        Func::NNimsum => {
            let v = small(xs)?;
            BigInt::from(
                nimlab_engine::nimarith::n_nim_sum(v[0], &v[1..])
                    .map_err(|_| "nnimsum needs n ≥ 2 and a result that fits")?,
            )
        }
        Func::Sigma(beta) => BigInt::from(beta.sigma(&small(xs)?).map_err(|_| TOO_LARGE)?),
        Func::Fib => {
            let k = xs[0].to_i64().ok_or(TOO_LARGE)?;
            if k < 0 {
                return Err("fib needs k ≥ 0");
            }
            if k > 90_000 {
                return Err(TOO_LARGE);
            }
            let (mut a, mut b) = (BigInt::one(), BigInt::one());
            for _ in 1..k {
                let c = &a + &b;
                a = std::mem::replace(&mut b, c);
            }
            b
        }
        Func::ZeckLow => {
            if !xs[0].is_positive() {
                return Err("zeck_low needs n ≥ 1");
            }
            let n = natural(&xs[0])?;
            let mut rest = n.clone();
            let mut last = n;
            for f in fib_weights(&rest).iter().rev() {
                if f <= &rest {
                    rest -= f;
                    last = f.clone();
                    if rest.is_zero() {
                        break;
                    }
                }
            }
            BigInt::from(last)
        }
        Func::FloorPhi => {
            let n = natural(&xs[0]).map_err(|_| "floor_phi needs n ≥ 0")?;
            let root = (&n * &n * 5u32).sqrt();
            BigInt::from((n + root) / 2u32)
        }
    })
}
