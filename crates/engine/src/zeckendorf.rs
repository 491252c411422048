//! Zeckendorf (Fibonacci) representation of natural numbers of any size (docs/theory.md §2).
//!
//! The Fibonacci numbers are those of docs/theory.md §2, `f1 = 1, f2 = 2, f3 = 3,
//! f4 = 5, …` (so `f_k` is the standard `F_{k+1}`). Every `n ≥ 1` is a unique sum of
//! non-adjacent ones; its *code* `φ(n)` is that sum as a bit string, highest term first
//! (`φ(31) = 1010010`).
//!
//! * [`up`] appends a 0 to the code, [`down`] removes the last digit;
//! * [`trailing_zeros`] counts the zeros after the last 1; `n` is *even-zero* or
//!   *odd-zero* by the parity of that count ([`is_even_zero`], [`is_odd_zero`]);
//! * [`zeck_low`] is `ℓ(n)`, the smallest term of the sum.
//!
//! ## Why these are fast for huge `n`
//! The plain greedy ([`zeck_indices`], [`zeck_code`]) needs one big subtraction per
//! Fibonacci digit: quadratic in the number of digits. The other functions use the
//! golden ratio `φ = (1+√5)/2` instead (Beatty sequences):
//!
//! * `f_i·φ = f_{i+1} − ψ^{i+1}` with `ψ = −1/φ`, so for `n = Σ_{i∈S} f_i`,
//!   `δ(n) := up(n) − nφ = Σ_{i∈S} ψ^{i+1}`, a number in `(−0.382, 0.618)`. Hence
//!   `up(n) = ⌊(n+1)φ⌋ − 1`, and the sign of `δ(n)` is the sign of its first term
//!   `ψ^{s+1}` (`s` the smallest index): `n` is even-zero iff `up(n) > nφ`, that is iff
//!   `⌊nφ⌋ = up(n) − 1`.
//! * `min S ≥ k` iff `δ(n)` lies in the open interval `J_k` spanned by the extreme sums of
//!   `ψ^{i+1}`, `i ≥ k`: `(−φ^{−(k+1)}, φ^{−k})` for odd `k`, `(−φ^{−k}, φ^{−(k+1)})` for
//!   even `k`. A floating-point estimate of `log_φ |δ(n)|` (from the exact integer
//!   `(2 up(n) − n)² − 5n²`) finds `s` to within one or two; exact tests of `δ(n) ∈ J_k`
//!   (signs of `A − Bφ`, decided by comparing `A` with `⌊Bφ⌋`) settle it.
//! * `⌊xφ⌋ = ⌊(x + ⌊x√5⌋)/2⌋`, and `⌊x√5⌋` comes from one multiplication by a cached
//!   fixed-point `⌊√5·2^P⌋` (computed by a Newton iteration that only multiplies), with an
//!   exact correction by squares in the rare case the fixed point is too close to call.
//!
//! Every function is cross-checked in the tests against the plain greedy on all
//! `n < 10^5` and on random numbers of hundreds of digits.
//!
//! ```
//! use nimlab_engine::zeckendorf::{up, down, zeck_code, zeck_low, is_even_zero};
//! use nimlab_engine::big::BigUint;
//! let n = BigUint::from(31u32);
//! assert_eq!(zeck_code(&n), "1010010"); // 21 + 8 + 2
//! assert_eq!(zeck_low(&n), BigUint::from(2u32));
//! assert_eq!(up(&n), BigUint::from(50u32)); // 10100100 = 34 + 13 + 3
//! assert_eq!(down(&n), BigUint::from(19u32)); // 101001 = 13 + 5 + 1
//! assert!(!is_even_zero(&n)); // one trailing zero
//! ```

use num_bigint::{BigInt, BigUint, Sign};
use num_traits::{One, ToPrimitive, Zero};
use std::cmp::Ordering;
use std::sync::Mutex;

/// The Fibonacci number `f_k` of docs/theory.md §2 (`f1 = 1, f2 = 2, f3 = 3, f4 = 5, …`;
/// `f0 = 1` by the same recurrence), by fast doubling.
///
/// ```
/// use nimlab_engine::zeckendorf::fib;
/// assert_eq!(fib(1), 1u32.into());
/// assert_eq!(fib(4), 5u32.into());
/// assert_eq!(fib(10), 89u32.into());
/// ```
pub fn fib(k: u64) -> BigUint {
    fibonacci_pair(k + 1).0
}

/// `(F_m, F_{m+1})` of the standard sequence (`F_0 = 0, F_1 = 1`), by fast doubling over
/// the bits of `m`, highest first (a loop, no recursion).
///
/// ```
/// use nimlab_engine::zeckendorf::fibonacci_pair;
/// assert_eq!(fibonacci_pair(10), (55u32.into(), 89u32.into()));
/// ```
pub fn fibonacci_pair(m: u64) -> (BigUint, BigUint) {
    let mut a = BigUint::zero(); // F_j
    let mut b = BigUint::one(); // F_{j+1}
    for bit in (0..64 - m.leading_zeros()).rev() {
        // F_{2j} = F_j (2F_{j+1} − F_j), F_{2j+1} = F_j² + F_{j+1}²
        let two_b_minus_a = (&b << 1u32) - &a;
        let c = &a * &two_b_minus_a;
        let d = &a * &a + &b * &b;
        if (m >> bit) & 1 == 1 {
            b = &c + &d;
            a = d;
        } else {
            a = c;
            b = d;
        }
    }
    (a, b)
}

/// The indices `k` of the Zeckendorf terms `f_k` of `n`, highest first, by the plain
/// greedy (the reference implementation: one big subtraction per Fibonacci digit, so
/// quadratic in the size of `n`; fine up to some thousands of digits).
///
/// ```
/// use nimlab_engine::zeckendorf::zeck_indices;
/// assert_eq!(zeck_indices(&31u32.into()), vec![7, 5, 2]); // 21 + 8 + 2
/// assert!(zeck_indices(&0u32.into()).is_empty());
/// ```
pub fn zeck_indices(n: &BigUint) -> Vec<u64> {
    if n.is_zero() {
        return Vec::new();
    }
    // Highest k with f_k ≤ n: f_k ≈ φ^{k+1}/√5; estimate, then walk.
    let mut k = (n.bits() as f64 / std::f64::consts::LOG2_E / PHI.ln()).max(1.0) as u64;
    let (mut lo, mut hi) = fibonacci_pair(k + 1); // (f_k, f_{k+1})
    while &hi <= n {
        let next = &lo + &hi;
        lo = std::mem::replace(&mut hi, next);
        k += 1;
    }
    while &lo > n {
        let prev = &hi - &lo;
        hi = std::mem::replace(&mut lo, prev);
        k -= 1;
    }
    // Now f_k = lo ≤ n < hi = f_{k+1}; walk down taking every term that fits.
    let mut rest = n.clone();
    let mut out = Vec::new();
    loop {
        if lo <= rest {
            rest -= &lo;
            out.push(k);
            if rest.is_zero() {
                return out;
            }
        }
        if k == 1 {
            // f_1 = 1 always fits what is left, so rest is zero by now.
            unreachable!("greedy Zeckendorf ends at f_1");
        }
        let prev = &hi - &lo;
        hi = std::mem::replace(&mut lo, prev);
        k -= 1;
    }
}

/// The code `φ(n)`: digits for `f_K … f_1`, highest first (`"0"` for `n = 0`). Uses the
/// plain greedy [`zeck_indices`].
///
/// ```
/// use nimlab_engine::zeckendorf::zeck_code;
/// assert_eq!(zeck_code(&12u32.into()), "10101");
/// assert_eq!(zeck_code(&0u32.into()), "0");
/// ```
pub fn zeck_code(n: &BigUint) -> String {
    let idx = zeck_indices(n);
    let Some(&top) = idx.first() else {
        return "0".into();
    };
    let mut code = vec![b'0'; top as usize];
    for k in idx {
        code[(top - k) as usize] = b'1';
    }
    String::from_utf8(code).expect("ASCII digits")
}

const PHI: f64 = 1.618_033_988_749_895;

/// Cached `⌊√5 · 2^P⌋` for the largest `P` asked so far.
static SQRT5_FIXED: Mutex<Option<(u64, BigUint)>> = Mutex::new(None);

/// `⌊√5 · 2^precision⌋`, exact.
fn sqrt5_fixed(precision: u64) -> BigUint {
    let mut cache = SQRT5_FIXED.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((p, r)) = cache.as_ref()
        && *p >= precision
    {
        // ⌊⌊y⌋ / 2^j⌋ = ⌊y / 2^j⌋.
        return r >> (p - precision);
    }
    // Grow by a margin so a sequence of slightly larger requests computes rarely.
    let p = precision + precision / 4 + 64;
    let r = compute_sqrt5_fixed(p);
    let out = &r >> (p - precision);
    *cache = Some((p, r));
    out
}

/// `⌊√5 · 2^p⌋` by Newton's iteration for `1/√5` (`y ← y + y(1 − 5y²)/2`, doubling the
/// precision each step, multiplications only), then an exact correction by squares.
fn compute_sqrt5_fixed(p: u64) -> BigUint {
    let target = p + 32;
    let mut precisions = vec![target];
    while *precisions.last().expect("non-empty") > 48 {
        let last = *precisions.last().expect("non-empty");
        precisions.push(last / 2 + 8);
    }
    precisions.reverse();
    let mut prec = precisions[0];
    // y ≈ 2^prec / √5 from f64 (53 bits; prec ≤ 48).
    let mut y = BigInt::from((0.447_213_595_499_957_9_f64 * (prec as f64).exp2()) as u64);
    for &next in &precisions[1..] {
        // e = 2^{2 prec} − 5y² ≈ 2^{2 prec} (1 − 5 (y/2^prec)²)
        let e = (BigInt::one() << (2 * prec)) - BigInt::from(5u32) * &y * &y;
        // y' = y·2^{next−prec} + y·e / 2^{3 prec + 1 − next}
        let correction = (&y * &e) >> (3 * prec + 1 - next);
        y = (y << (next - prec)) + correction;
        prec = next;
    }
    let y = y.to_biguint().expect("1/√5 approximation is positive");
    let r = (y * 5u32) >> (target - p);
    floor_sqrt_near(r, &(BigUint::from(5u32) << (2 * p)))
}

/// `⌊√target⌋` from `r`, an estimate a few units off: stepped down while `r²` is above
/// `target`, then up while `(r + 1)²` is not, each step updating the square by
/// `2r ± 1` (exact, without a square root).
fn floor_sqrt_near(mut r: BigUint, target: &BigUint) -> BigUint {
    let mut sq = &r * &r;
    while &sq > target {
        sq -= (&r << 1u32) - 1u32;
        r -= 1u32;
    }
    loop {
        let next_sq = &sq + (&r << 1u32) + 1u32;
        if &next_sq > target {
            break;
        }
        sq = next_sq;
        r += 1u32;
    }
    r
}

/// `⌊x·√5⌋`, exact.
fn floor_mul_sqrt5(x: &BigUint) -> BigUint {
    if x.is_zero() {
        return BigUint::zero();
    }
    let p = x.bits() + 16;
    let r = sqrt5_fixed(p);
    // r ≤ √5·2^p < r + 1, so x·r ≤ x√5·2^p < x·r + x.
    let product = x * &r;
    let c = &product >> p;
    let fraction = product - (&c << p);
    if fraction + x < (BigUint::one() << p) {
        return c; // x√5 lies in [c, c + 1)
    }
    // Too close to call: settle it with squares.
    floor_sqrt_near(c, &(x * x * 5u32))
}

/// `⌊x·φ⌋` with `φ = (1+√5)/2`, exact for any `x`. `⌊nφ⌋` (n ≥ 1) are the
/// lower Wythoff numbers, which are the even-zero numbers.
///
/// ```
/// use nimlab_engine::zeckendorf::floor_mul_phi;
/// let v: Vec<u32> = (1u32..8).map(|n| floor_mul_phi(&n.into()).try_into().unwrap()).collect();
/// assert_eq!(v, vec![1, 3, 4, 6, 8, 9, 11]);
/// ```
pub fn floor_mul_phi(x: &BigUint) -> BigUint {
    // x√5 is irrational (x > 0), so ⌊(x + x√5)/2⌋ = ⌊(x + ⌊x√5⌋)/2⌋.
    (x + floor_mul_sqrt5(x)) >> 1u32
}

/// `up(n)`: the number whose code is `φ(n)` followed by a 0 (every term `f_k` becomes
/// `f_{k+1}`). Equals `⌊(n+1)φ⌋ − 1`. `up(0) = 0`.
///
/// ```
/// use nimlab_engine::zeckendorf::up;
/// assert_eq!(up(&4u32.into()), 7u32.into()); // 101 → 1010
/// ```
pub fn up(n: &BigUint) -> BigUint {
    floor_mul_phi(&(n + 1u32)) - 1u32
}

/// Whether `φ(n)` has an even number of trailing zeros (`n ≥ 1`; false for 0, whose code
/// has no 1). The even-zero numbers are `⌊kφ⌋`, `k ≥ 1`.
///
/// ```
/// use nimlab_engine::zeckendorf::is_even_zero;
/// let v: Vec<u32> = (1u32..12).filter(|&n| is_even_zero(&n.into())).collect();
/// assert_eq!(v, vec![1, 3, 4, 6, 8, 9, 11]);
/// ```
pub fn is_even_zero(n: &BigUint) -> bool {
    !n.is_zero() && even_zero_and_up(n).0
}

/// Whether `φ(n)` has an odd number of trailing zeros (false for 0).
///
/// ```
/// use nimlab_engine::zeckendorf::is_odd_zero;
/// assert!(is_odd_zero(&2u32.into())); // 10
/// assert!(!is_odd_zero(&3u32.into())); // 100
/// ```
pub fn is_odd_zero(n: &BigUint) -> bool {
    !n.is_zero() && !even_zero_and_up(n).0
}

/// `(n is even-zero, up(n))` for `n ≥ 1`, sharing the work: two multiplications.
///
/// ```
/// use nimlab_engine::zeckendorf::even_zero_and_up;
/// assert_eq!(even_zero_and_up(&4u32.into()), (true, 7u32.into()));
/// assert_eq!(even_zero_and_up(&5u32.into()), (false, 8u32.into()));
/// ```
pub fn even_zero_and_up(n: &BigUint) -> (bool, BigUint) {
    let up_n = up(n);
    // δ = up(n) − nφ > 0 ⇔ ⌊nφ⌋ < up(n) (nφ is irrational for n ≥ 1).
    let even = floor_mul_phi(n) < up_n;
    (even, up_n)
}

/// `down(n)`: the number whose code is `φ(n)` without its last digit (`down(0) = 0`).
/// If the code ends in 0 this inverts [`up`]: `down(n) = ⌊(n+1)/φ⌋`; if it ends in 1,
/// `down(n) = down(n − 1)`.
///
/// ```
/// use nimlab_engine::zeckendorf::down;
/// assert_eq!(down(&7u32.into()), 4u32.into()); // 1010 → 101
/// assert_eq!(down(&4u32.into()), 2u32.into()); // 101 → 10
/// ```
pub fn down(n: &BigUint) -> BigUint {
    if n.is_zero() {
        return BigUint::zero();
    }
    // The code of n ends in 0 iff n = up(m) iff n + 1 = ⌊(m+1)φ⌋ is even-zero.
    let n1 = n + 1u32;
    let floor_n1 = floor_mul_phi(&n1);
    let ends_in_zero = floor_mul_phi(&(&n1 + 1u32)) - &floor_n1 == BigUint::from(2u32);
    if ends_in_zero {
        floor_n1 - n1 // ⌊(n+1)φ⌋ − (n+1) = ⌊(n+1)/φ⌋
    } else {
        floor_mul_phi(n) - n
    }
}

/// [`down`] for an `n` whose code is known to end in 0 (an odd-zero number, or any
/// `up(m)`): one multiplication.
///
/// ```
/// use nimlab_engine::zeckendorf::down_of_trailing_zero;
/// assert_eq!(down_of_trailing_zero(&7u32.into()), 4u32.into());
/// ```
pub fn down_of_trailing_zero(n: &BigUint) -> BigUint {
    let n1 = n + 1u32;
    floor_mul_phi(&n1) - n1
}

/// The number of trailing zeros of `φ(n)` (`None` for 0). `ℓ(n) = f_{t+1}`.
///
/// ```
/// use nimlab_engine::zeckendorf::trailing_zeros;
/// assert_eq!(trailing_zeros(&31u32.into()), Some(1)); // 1010010
/// assert_eq!(trailing_zeros(&34u32.into()), Some(7)); // 10000000
/// assert_eq!(trailing_zeros(&0u32.into()), None);
/// ```
pub fn trailing_zeros(n: &BigUint) -> Option<u64> {
    smallest_index(n).map(|(s, _)| s - 1)
}

/// `ℓ(n)`: the smallest Fibonacci term of `n`'s Zeckendorf sum (the winning take of
/// Fibonacci Nim). `ℓ(0) = 0` by convention (there is no term).
///
/// ```
/// use nimlab_engine::zeckendorf::zeck_low;
/// let l: Vec<u32> = (1u32..=12).map(|n| zeck_low(&n.into()).try_into().unwrap()).collect();
/// assert_eq!(l, vec![1, 2, 3, 1, 5, 1, 2, 8, 1, 2, 3, 1]);
/// ```
pub fn zeck_low(n: &BigUint) -> BigUint {
    smallest_index(n).map_or_else(BigUint::zero, |(_, f)| f)
}

/// The smallest index `s` of `n`'s Zeckendorf sum and `f_s`; `None` for 0.
fn smallest_index(n: &BigUint) -> Option<(u64, BigUint)> {
    if n.is_zero() {
        return None;
    }
    let up_n = BigInt::from(up(n));
    let n_int = BigInt::from(n.clone());
    // 2δ = a − n√5 with a = 2 up(n) − n, and (a − n√5)(a + n√5) = a² − 5n² =: d,
    // so |δ| = |d| / (2(a + n√5)) ≈ |d| / (4a).
    let a = (&up_n << 1u32) - &n_int;
    let d = &a * &a - BigInt::from(5u32) * &n_int * &n_int;
    let estimate = (ln_big(a.magnitude()) + 4f64.ln() - ln_big(d.magnitude())) / PHI.ln();
    // |δ| lies in (φ^{−(s+2)}, φ^{−s}), so s ∈ (L − 2, L) for the estimate L; start one
    // below in case of rounding.
    let mut k = (estimate.floor() as i64 - 2).max(1) as u64;
    let mut fibs = FibWindow::new(k);
    while k > 1 && !delta_in_j(&up_n, &n_int, k, &mut fibs) {
        k -= 1; // only if the estimate was far off
    }
    while delta_in_j(&up_n, &n_int, k + 1, &mut fibs) {
        k += 1;
    }
    // f_k = F_{k+1}.
    let f = fibs.get(k + 1).clone();
    Some((k, f))
}

/// Natural logarithm of a positive big number (≈ 1e-15 relative error).
fn ln_big(x: &BigUint) -> f64 {
    let bits = x.bits();
    let shift = bits.saturating_sub(64);
    let top = (x >> shift).to_f64().expect("64-bit value fits f64");
    top.ln() + shift as f64 * std::f64::consts::LN_2
}

/// Standard Fibonacci numbers `F_m` on a sliding window of indices (extended by
/// additions, recomputed by fast doubling when asked below the window).
struct FibWindow {
    base: u64,
    values: Vec<BigUint>,
}

impl FibWindow {
    fn new(base: u64) -> Self {
        let base = base.saturating_sub(1);
        let (a, b) = fibonacci_pair(base);
        FibWindow {
            base,
            values: vec![a, b],
        }
    }

    fn get(&mut self, m: u64) -> &BigUint {
        if m < self.base {
            *self = FibWindow::new(m + 1);
        }
        while self.base + (self.values.len() as u64) <= m {
            let len = self.values.len();
            let next = &self.values[len - 1] + &self.values[len - 2];
            self.values.push(next);
        }
        &self.values[(m - self.base) as usize]
    }
}

/// Whether `δ(n) = up(n) − nφ` lies in `J_k`, i.e. the smallest index of `n` is ≥ `k`.
fn delta_in_j(up_n: &BigInt, n: &BigInt, k: u64, fibs: &mut FibWindow) -> bool {
    // J_k = (−φ^{−lower}, φ^{−upper}).
    let (lower, upper) = if k & 1 == 1 { (k + 1, k) } else { (k, k + 1) };
    // φ^{−m} = (−1)^m (F_{m+1} − F_m φ).
    let phi_power = |m: u64, fibs: &mut FibWindow| -> (BigInt, BigInt) {
        let f_m = BigInt::from(fibs.get(m).clone());
        let f_m1 = BigInt::from(fibs.get(m + 1).clone());
        if m & 1 == 0 {
            (f_m1, f_m)
        } else {
            (-f_m1, -f_m)
        }
    };
    // δ − φ^{−upper} = (up − A) − (n − B)φ < 0
    let (a, b) = phi_power(upper, fibs);
    if sign_of_a_minus_b_phi(&(up_n - a), &(n - b)) != Ordering::Less {
        return false;
    }
    // δ + φ^{−lower} = (up + A) − (n + B)φ > 0
    let (a, b) = phi_power(lower, fibs);
    sign_of_a_minus_b_phi(&(up_n + a), &(n + b)) == Ordering::Greater
}

/// The sign of `A − Bφ`, exactly, with one multiplication: `Bφ` is irrational for
/// `B ≠ 0`, so comparing `A` with `⌊|B|φ⌋` decides it.
fn sign_of_a_minus_b_phi(a: &BigInt, b: &BigInt) -> Ordering {
    match b.sign() {
        Sign::NoSign => a.sign().cmp_zero(),
        Sign::Plus => {
            // A − Bφ > 0 ⇔ A > ⌊Bφ⌋
            let floor = BigInt::from(floor_mul_phi(b.magnitude()));
            if *a > floor {
                Ordering::Greater
            } else {
                Ordering::Less
            }
        }
        Sign::Minus => {
            // A + |B|φ < 0 ⇔ −A > |B|φ ⇔ −A > ⌊|B|φ⌋
            let floor = BigInt::from(floor_mul_phi(b.magnitude()));
            if -a > floor {
                Ordering::Less
            } else {
                Ordering::Greater
            }
        }
    }
}

trait SignExt {
    fn cmp_zero(self) -> Ordering;
}

impl SignExt for Sign {
    fn cmp_zero(self) -> Ordering {
        match self {
            Sign::Minus => Ordering::Less,
            Sign::NoSign => Ordering::Equal,
            Sign::Plus => Ordering::Greater,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Greedy over u64, written independently of the module: indices, highest first.
    fn greedy_u64(mut n: u64) -> Vec<u64> {
        let mut f = vec![1u64, 2];
        while *f.last().unwrap() <= n {
            let l = f.len();
            f.push(f[l - 1] + f[l - 2]);
        }
        let mut out = Vec::new();
        for k in (0..f.len()).rev() {
            if f[k] <= n {
                n -= f[k];
                out.push(k as u64 + 1);
            }
        }
        out
    }

    /// Σ f_k over `indices`, walking the Fibonacci numbers upward once.
    fn value_of(indices: &[u64]) -> BigUint {
        let top = indices.iter().copied().max().unwrap_or(0);
        let wanted: std::collections::HashSet<u64> = indices.iter().copied().collect();
        let (mut f, mut g) = (BigUint::one(), BigUint::from(2u32)); // f_1, f_2
        let mut sum = BigUint::zero();
        for k in 1..=top {
            if wanted.contains(&k) {
                sum += &f;
            }
            let next = &f + &g;
            f = std::mem::replace(&mut g, next);
        }
        sum
    }

    /// Deterministic pseudo-random big numbers (xorshift), some of them near Fibonacci
    /// numbers and sums of few terms (many trailing zeros), where the golden-ratio
    /// identities are most delicate.
    fn random_bigs(count: usize, max_bits: u64, seed: u64) -> Vec<BigUint> {
        let mut s = seed;
        let mut next = move || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        let mut out = Vec::new();
        for i in 0..count {
            let bits = 1 + next() % max_bits;
            let limbs = bits.div_ceil(32) as usize;
            let digits: Vec<u32> = (0..limbs).map(|_| next() as u32).collect();
            let n = BigUint::from_slice(&digits) >> (limbs as u64 * 32 - bits);
            match i % 4 {
                0 => out.push(n),
                1 => {
                    let k = 1 + next() % (bits + 2);
                    out.push(fib(k));
                }
                2 => {
                    // a few far-apart terms: long runs of zeros
                    let k = 3 + next() % (bits + 2);
                    let j = 1 + next() % (k - 2);
                    out.push(fib(k) + fib(j));
                }
                _ => {
                    let k = 1 + next() % (bits + 2);
                    let f = fib(k);
                    out.push(if next() & 1 == 0 { f + 1u32 } else { f - 1u32 });
                }
            }
        }
        out.retain(|n| !n.is_zero());
        out
    }

    #[test]
    fn big_fibonacci_and_greedy_agree_with_u64() {
        let mut a = 1u64;
        let mut b = 2u64;
        for k in 1..80 {
            assert_eq!(fib(k), BigUint::from(a), "f_{k}");
            (a, b) = (b, a + b);
        }
        for n in 0..20_000u64 {
            assert_eq!(zeck_indices(&n.into()), greedy_u64(n), "n = {n}");
        }
    }

    #[test]
    fn seed_codes() {
        // 001: φ(31) = 1010010; the pairs table codes.
        assert_eq!(zeck_code(&31u32.into()), "1010010");
        assert_eq!(zeck_code(&52u32.into()), "10101000");
        assert_eq!(zeck_code(&1u32.into()), "1");
        assert_eq!(zeck_code(&17u32.into()), "100101");
    }

    #[test]
    fn sqrt5_fixed_point_is_exact_floor() {
        for p in [0u64, 1, 10, 63, 64, 65, 200, 1000, 5000] {
            let r = compute_sqrt5_fixed(p);
            let t = BigUint::from(5u32) << (2 * p);
            assert!(&r * &r <= t && (&r + 1u32) * (&r + 1u32) > t, "p = {p}");
            assert_eq!(sqrt5_fixed(p), r);
        }
    }

    fn check_against_greedy(n: &BigUint) {
        let idx = zeck_indices(n);
        let low = *idx.last().unwrap();
        let t = low - 1;
        let up_ref = value_of(&idx.iter().map(|k| k + 1).collect::<Vec<_>>());
        let down_ref = value_of(
            &idx.iter()
                .filter(|&&k| k > 1)
                .map(|k| k - 1)
                .collect::<Vec<_>>(),
        );
        assert_eq!(up(n), up_ref, "up({n})");
        assert_eq!(down(n), down_ref, "down({n})");
        if t > 0 {
            assert_eq!(down_of_trailing_zero(n), down_ref, "down'({n})");
        }
        assert_eq!(is_even_zero(n), t & 1 == 0, "even-zero({n})");
        assert_eq!(is_odd_zero(n), t & 1 == 1, "odd-zero({n})");
        assert_eq!(trailing_zeros(n), Some(t), "t({n})");
        assert_eq!(zeck_low(n), fib(low), "ℓ({n})");
    }

    #[test]
    fn golden_ratio_functions_agree_with_greedy_below_100000() {
        for n in 1..100_000u64 {
            check_against_greedy(&n.into());
        }
        let zero = BigUint::zero();
        assert_eq!(up(&zero), zero);
        assert_eq!(down(&zero), zero);
        assert!(!is_even_zero(&zero) && !is_odd_zero(&zero));
        assert_eq!(trailing_zeros(&zero), None);
        assert_eq!(zeck_low(&zero), zero);
    }

    #[test]
    fn golden_ratio_functions_agree_with_greedy_on_random_big_numbers() {
        for n in random_bigs(1200, 1500, 0x9e37_79b9_7f4a_7c15) {
            check_against_greedy(&n);
        }
        // A few of some thousands of digits (several Newton steps, Toom-3 products).
        for n in random_bigs(24, 40_000, 77) {
            check_against_greedy(&n);
        }
    }

    #[test]
    fn floor_mul_phi_agrees_with_exact_square_test() {
        // ⌊xφ⌋ = c iff c ≤ xφ < c + 1, i.e. (2c − x)² ≤ 5x² < (2c + 2 − x)² (2c ≥ x).
        for x in random_bigs(400, 3000, 12345) {
            let c = floor_mul_phi(&x);
            let lo = (&c << 1u32) - &x;
            let hi = &lo + 2u32;
            let t = &x * &x * 5u32;
            assert!(&lo * &lo <= t && t < &hi * &hi, "x = {x}");
        }
    }
}
