//! Numeration systems and their basic relations as automata: base b, and Zeckendorf
//! (Fibonacci) numeration with weights 1, 2, 3, 5, 8, … .

use crate::dfa::Dfa;
use crate::{Error, Result};
use num_bigint::{BigInt, BigUint};
use num_traits::{Signed, ToPrimitive, Zero};

/// How natural numbers are written as digit strings (msd first).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Numeration {
    /// Base b ≥ 2: digits 0..b−1, weights b^i; every digit string is valid.
    Base(u32),
    /// Zeckendorf: digits 0/1, weights W₀ = 1, W₁ = 2, W_{i+1} = W_i + W_{i−1}; valid
    /// strings have no two adjacent 1s (every n has exactly one).
    Fib,
}

/// A linear relation Σ aᵢ·vᵢ + c ⋈ 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Rel {
    /// = 0
    Eq,
    /// ≤ 0
    Le,
    /// ≡ 0 (mod m), m ≥ 1
    Cong(u64),
}

/// Digit-by-digit relations z = op(x, y) (no carries).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DigitOp {
    /// (x + y) mod b: ⊕ in base 2, Flanigan's σ^b in base b.
    SumMod,
    /// min(x, y) digitwise: `&` in base 2.
    Min,
    /// max(x, y) digitwise: `|` in base 2.
    Max,
    /// Each base-Q digit (Q = b₀⋯b_{p−1}) split into p sub-digits of radices b₀, b₁, …
    /// (lowest first; a 0 ends the list), added sub-digit-wise mod bᵢ: σ^β for a
    /// repeating block β = (b₀, …, b_{p−1}, b₀, …), read in base Q.
    BlockSum([u8; 4]),
    /// Bitwise x xor y of the digits' values: ⊕ in base 2^k (a base-2^k digit is k
    /// bits, and ⊕ works bit by bit).
    BitXor,
    /// Bitwise x and y of the digits' values: `&` in base 2^k.
    BitAnd,
    /// Bitwise x or y of the digits' values: `|` in base 2^k.
    BitOr,
}

impl DigitOp {
    /// op(x, y) on one digit of base `b`.
    ///
    /// ```
    /// use nimlab_automata::DigitOp;
    /// // base 6 read as sub-digits of radices 2 then 3: 5 = (1, 2), 3 = (1, 1)
    /// assert_eq!(DigitOp::BlockSum([2, 3, 0, 0]).apply(6, 5, 3), 0);
    /// assert_eq!(DigitOp::BlockSum([2, 3, 0, 0]).apply(6, 1, 2), 3);
    /// assert_eq!(DigitOp::SumMod.apply(3, 2, 2), 1);
    /// ```
    pub fn apply(&self, b: u32, x: u32, y: u32) -> u32 {
        match self {
            DigitOp::SumMod => (x + y) % b,
            DigitOp::Min => x.min(y),
            DigitOp::Max => x.max(y),
            DigitOp::BitXor => x ^ y,
            DigitOp::BitAnd => x & y,
            DigitOp::BitOr => x | y,
            DigitOp::BlockSum(radices) => {
                let (mut x, mut y, mut place, mut out) = (x, y, 1, 0);
                for &r in radices.iter().take_while(|&&r| r != 0) {
                    let r = r as u32;
                    out += place * ((x % r + y % r) % r);
                    x /= r;
                    y /= r;
                    place *= r;
                }
                out
            }
        }
    }
}

/// Most Σ|aᵢ| of a linear relation: its automaton's states are the carries, about that
/// many, so a larger one is refused (exactly: "too large", never an approximation).
pub const MAX_COEFFICIENTS: i128 = 1 << 16;

/// Largest state value the linear automata may reach before they give up (they never do
/// for the coefficient sizes formulas use; this keeps a bug from looping forever).
const STATE_BOUND: i128 = 1 << 40;

impl Numeration {
    /// Digits per position.
    pub fn digits(&self) -> u32 {
        match self {
            Numeration::Base(b) => *b,
            Numeration::Fib => 2,
        }
    }

    /// Name as Walnut writes it (`msd_2`, `msd_fib`).
    pub fn walnut_name(&self) -> String {
        match self {
            Numeration::Base(b) => format!("msd_{b}"),
            Numeration::Fib => "msd_fib".into(),
        }
    }

    /// The automaton of valid words on every track of `vars`.
    pub fn valid(&self, vars: &[u32]) -> Result<Dfa> {
        match self {
            Numeration::Base(b) => Dfa::constant(*b, vars.to_vec(), true),
            Numeration::Fib => {
                // state: bitmask of tracks whose last digit was 1
                Dfa::explore(
                    2,
                    vars.to_vec(),
                    0u64,
                    |&m, l| {
                        let mut next = 0u64;
                        for (i, &d) in l.iter().enumerate() {
                            if d == 1 {
                                if m >> i & 1 == 1 {
                                    return None;
                                }
                                next |= 1 << i;
                            }
                        }
                        Some(next)
                    },
                    |_| true,
                )
            }
        }
    }

    /// Σ aᵢ·vᵢ + c ⋈ 0 over valid words (coefficients of a repeated variable add up).
    ///
    /// ```
    /// use nimlab_automata::{Numeration, Rel};
    /// let n = Numeration::Base(2);
    /// // x = 2y + 1 on tracks (x, y)
    /// let a = n.linear(&[(0, 1), (1, -2)], -1, Rel::Eq).unwrap();
    /// assert!(a.accepts(&[n.encode(7, 3), n.encode(3, 3)]));
    /// assert!(!a.accepts(&[n.encode(6, 3), n.encode(3, 3)]));
    /// ```
    pub fn linear(&self, terms: &[(u32, i64)], c: i64, rel: Rel) -> Result<Dfa> {
        self.linear_big(terms, &BigInt::from(c), rel)
    }

    /// Σ aᵢ·vᵢ + c ⋈ 0 with a constant of any size. The automaton has about Σ|aᵢ|
    /// states per carry, so the coefficients are bounded ([`MAX_COEFFICIENTS`]: an
    /// exact refusal beyond); the constant is not: a large one is spelled as a word.
    ///
    /// ```
    /// use nimlab_automata::{Numeration, Rel};
    /// use num_bigint::BigInt;
    /// let n = Numeration::Base(2);
    /// // x − 2^100 = 0 on one track: 101 digits
    /// let c = -(BigInt::from(1u8) << 100u32);
    /// let a = n.linear_big(&[(0, 1)], &c, Rel::Eq).unwrap();
    /// let mut word = vec![1];
    /// word.extend(std::iter::repeat(0).take(100));
    /// assert!(a.accepts(&[word.clone()]));
    /// word[100] = 1;
    /// assert!(!a.accepts(&[word]));
    /// ```
    pub fn linear_big(&self, terms: &[(u32, i64)], c: &BigInt, rel: Rel) -> Result<Dfa> {
        let total: i128 = terms.iter().map(|t| (t.1 as i128).abs()).sum();
        if total > MAX_COEFFICIENTS {
            return Err(Error::TooLarge(format!(
                "a linear relation whose coefficients add up to {total} in absolute value (the automaton has about that many states; at most {MAX_COEFFICIENTS})"
            )));
        }
        let c = match rel {
            // only c mod m matters
            Rel::Cong(m) if m > 0 => {
                let m = BigInt::from(m);
                ((c % &m) + &m) % &m
            }
            _ => c.clone(),
        };
        if !matches!(rel, Rel::Cong(_)) && c.abs() > BigInt::from(64 * (total + 1)) {
            // A large constant would need about |c| states; as Walnut does, spell it
            // as a word instead: ∃w. w = |c| ∧ Σ aᵢvᵢ ± w ⋈ 0 (a few states per digit).
            let w = u32::MAX;
            let sign = if c.is_positive() { 1 } else { -1 };
            let mut t = terms.to_vec();
            t.push((w, sign));
            let rel_auto = self.linear(&t, 0, rel)?;
            let word = self.constant_big(w, &c.magnitude().clone())?;
            return rel_auto.product(&word, |a, b| a && b)?.project(w);
        }
        let c = c
            .to_i64()
            .expect("a small constant: bounded by 64·(Σ|aᵢ| + 1) above");
        let mut vars: Vec<u32> = terms.iter().map(|t| t.0).collect();
        vars.sort_unstable();
        vars.dedup();
        let mut coef = vec![0i128; vars.len()];
        for &(v, a) in terms {
            let i = vars.binary_search(&v).unwrap();
            coef[i] += a as i128;
        }
        let c = c as i128;
        let total: i128 = coef.iter().map(|a| a.abs()).sum();
        let bound = total.max(c.abs());
        if let Rel::Cong(0) = rel {
            return Err(Error::Input("congruence modulo 0".into()));
        }
        let dfa = match self {
            Numeration::Base(b) => linear_base_b(*b, &vars, &coef, c, bound, rel)?,
            Numeration::Fib => linear_fib(&vars, &coef, c, total, rel)?,
        };
        let valid = self.valid(&vars)?;
        dfa.product(&valid, |a, b| a && b)
    }

    /// v = n: the digits of n after any number of leading zeros.
    pub fn constant(&self, v: u32, n: u128) -> Result<Dfa> {
        self.constant_big(v, &BigUint::from(n))
    }

    /// v = n for n of any size.
    pub fn constant_big(&self, v: u32, n: &BigUint) -> Result<Dfa> {
        let digits = self.encode_big(n, 0);
        let len = digits.len();
        Dfa::explore(
            self.digits(),
            vec![v],
            0usize,
            |&i, l| {
                if i < len && l[0] == digits[i] {
                    Some(i + 1)
                } else if i == 0 && l[0] == 0 {
                    Some(0)
                } else {
                    None
                }
            },
            |&i| i == len,
        )
    }

    /// z = op(x, y) digit by digit (base b only; x, y, z distinct variables).
    pub fn digitwise(&self, op: DigitOp, x: u32, y: u32, z: u32) -> Result<Dfa> {
        let Numeration::Base(b) = *self else {
            return Err(Error::Input(
                "digit-wise operations need a base-b numeration".into(),
            ));
        };
        if matches!(op, DigitOp::BitXor | DigitOp::BitAnd | DigitOp::BitOr) && !b.is_power_of_two()
        {
            return Err(Error::Input(format!(
                "a bitwise digit operation in base {b} (not a power of 2)"
            )));
        }
        if let DigitOp::BlockSum(r) = op {
            let q: u32 = r.iter().filter(|&&d| d != 0).map(|&d| d as u32).product();
            if q != b {
                return Err(Error::Input(format!(
                    "a block of radices with product {q} read in base {b}"
                )));
            }
        }
        let mut vars = vec![x, y, z];
        vars.sort_unstable();
        let (ix, iy, iz) = (
            vars.binary_search(&x).unwrap(),
            vars.binary_search(&y).unwrap(),
            vars.binary_search(&z).unwrap(),
        );
        Dfa::explore(
            b,
            vars,
            (),
            |_, l| {
                let (dx, dy) = (l[ix], l[iy]);
                (l[iz] == op.apply(b, dx, dy)).then_some(())
            },
            |_| true,
        )
    }

    /// z = ℓ(n): z is the single digit 1 at the position of n's last non-zero digit
    /// (Zeckendorf: the smallest Fibonacci number in n; base b: the lowest power of b
    /// in n times … only for b = 2 is this the lowest set bit). n ≥ 1.
    pub fn lowest_term(&self, n: u32, z: u32) -> Result<Dfa> {
        let base = self.digits();
        if base != 2 {
            return Err(Error::Input(
                "the lowest term needs base 2 or Zeckendorf numeration".into(),
            ));
        }
        let vars = if n < z { vec![n, z] } else { vec![z, n] };
        let (i_n, i_z) = if n < z { (0, 1) } else { (1, 0) };
        let a = Dfa::explore(
            2,
            vars.clone(),
            false,
            |&done, l| match (done, l[i_n], l[i_z]) {
                (false, _, 0) => Some(false),
                (false, 1, 1) => Some(true),
                (true, 0, 0) => Some(true),
                _ => None,
            },
            |&done| done,
        )?;
        a.product(&self.valid(&vars)?, |a, b| a && b)
    }

    /// z = (b^(ord_b(n)+1) − 1)/(b − 1) (n ≥ 1, base b, n ≠ z): reading msd first, z
    /// is 0 above n's lowest non-zero digit and 1 from there down, where n's digits
    /// are 0. Three states: before, after, dead.
    pub fn low_repunit(&self, n: u32, z: u32) -> Result<Dfa> {
        let Numeration::Base(b) = *self else {
            return Err(Error::Input(
                "the b-adic order needs a base-b numeration".into(),
            ));
        };
        repunit_dfa(b, n, z, |_| 1, 1)
    }

    /// [`crate::Atom::BlockRepunit`]: reading base-Q digits msd first, z's digit is 0
    /// above n's lowest non-zero digit D, Σ_{i ≤ s} cᵢ at it (cᵢ = b₀⋯b_{i−1}, s the
    /// largest i < p with cᵢ | D: the sub-digits 1 from D's lowest non-zero sub-digit
    /// down), and the all-ones digit Σ_{i<p} cᵢ below, where n's digits are 0. Three
    /// states, as [`Numeration::low_repunit`] (the case p = 1).
    ///
    /// ```
    /// use nimlab_automata::Numeration;
    /// let n = Numeration::Base(6);
    /// let a = n.block_repunit(0, 1, &[2, 3, 0, 0]).unwrap();
    /// // β = (2, 3, 2, 3, …): 12 = 2·6 has ord_β = 3, so z = 1 + 2 + 6 + 12 = 21
    /// assert!(a.accepts(&[n.encode(12, 3), n.encode(21, 3)]));
    /// assert!(!a.accepts(&[n.encode(12, 3), n.encode(9, 3)]));
    /// ```
    pub fn block_repunit(&self, n: u32, z: u32, block: &[u8; 4]) -> Result<Dfa> {
        let radices: Vec<u32> = block
            .iter()
            .take_while(|&&r| r != 0)
            .map(|&r| r as u32)
            .collect();
        let q: u32 = radices.iter().product();
        if *self != Numeration::Base(q) || radices.iter().any(|&r| r < 2) {
            return Err(Error::Input(format!(
                "a block of radices with product {q} needs base {q}"
            )));
        }
        let mut places = vec![1u32];
        for &r in &radices[..radices.len() - 1] {
            places.push(places.last().unwrap() * r);
        }
        let all_ones: u32 = places.iter().sum();
        // the digit of z at n's lowest non-zero digit d
        let at = |d: u32| -> u32 {
            let s = places
                .iter()
                .rposition(|&c| d.is_multiple_of(c))
                .unwrap_or(0);
            places[..=s].iter().sum()
        };
        repunit_dfa(q, n, z, at, all_ones)
    }

    /// z = x with a 0 appended (x ≠ z): reading msd first, each digit of z is the digit
    /// of x one place lower, so the state is the last digit of z read.
    pub fn up(&self, x: u32, z: u32) -> Result<Dfa> {
        let vars = if x < z { vec![x, z] } else { vec![z, x] };
        let (ix, iz) = if x < z { (0, 1) } else { (1, 0) };
        let a = Dfa::explore(
            self.digits(),
            vars.clone(),
            0u32,
            |&last_z, l| (l[ix] == last_z).then_some(l[iz]),
            |&last_z| last_z == 0,
        )?;
        a.product(&self.valid(&vars)?, |a, b| a && b)
    }

    /// The digits of n (msd first), padded with leading zeros to `len` (longer if
    /// needed).
    pub fn encode(&self, n: u128, len: usize) -> Vec<u32> {
        let mut out = Vec::new();
        match self {
            Numeration::Base(b) => {
                let mut m = n;
                while m > 0 {
                    out.push((m % *b as u128) as u32);
                    m /= *b as u128;
                }
            }
            Numeration::Fib => {
                let w = fib_weights(n);
                let mut m = n;
                for &x in w.iter().rev() {
                    if x <= m {
                        out.push(1);
                        m -= x;
                    } else {
                        out.push(0);
                    }
                }
                out.reverse();
            }
        }
        while out.last() == Some(&0) {
            out.pop();
        }
        while out.len() < len {
            out.push(0);
        }
        out.reverse();
        out
    }

    /// The digits of n of any size (msd first), padded with zeros to at least `len`.
    ///
    /// ```
    /// use nimlab_automata::Numeration;
    /// use num_bigint::BigUint;
    /// let big = BigUint::from(1u8) << 130;
    /// for n in [Numeration::Base(2), Numeration::Base(10), Numeration::Fib] {
    ///     assert_eq!(n.decode_big(&n.encode_big(&big, 0)), big);
    ///     assert_eq!(n.encode_big(&BigUint::from(300u32), 3), n.encode(300, 3));
    /// }
    /// ```
    pub fn encode_big(&self, n: &BigUint, len: usize) -> Vec<u32> {
        let mut out: Vec<u32> = match self {
            Numeration::Base(b) => {
                if n.is_zero() {
                    vec![]
                } else {
                    n.to_radix_be(*b).into_iter().map(u32::from).collect()
                }
            }
            Numeration::Fib => {
                let mut w = vec![BigUint::from(1u8), BigUint::from(2u8)];
                while w.last().expect("two") <= n {
                    let next = &w[w.len() - 1] + &w[w.len() - 2];
                    w.push(next);
                }
                let mut m = n.clone();
                let mut digits = Vec::with_capacity(w.len());
                for x in w.iter().rev() {
                    if x <= &m {
                        digits.push(1);
                        m -= x;
                    } else {
                        digits.push(0);
                    }
                }
                let first = digits.iter().position(|&d| d != 0).unwrap_or(digits.len());
                digits.split_off(first)
            }
        };
        if out.len() < len {
            let mut padded = vec![0; len - out.len()];
            padded.append(&mut out);
            out = padded;
        }
        out
    }

    /// The value of a digit string (msd first), of any size.
    pub fn decode_big(&self, digits: &[u32]) -> BigUint {
        match self {
            Numeration::Base(b) => digits.iter().fold(BigUint::zero(), |acc, &d| acc * *b + d),
            Numeration::Fib => {
                let (mut w0, mut w1) = (BigUint::from(1u8), BigUint::from(2u8));
                let mut sum = BigUint::zero();
                for &d in digits.iter().rev() {
                    if d == 1 {
                        sum += &w0;
                    }
                    let w2 = &w0 + &w1;
                    w0 = std::mem::replace(&mut w1, w2);
                }
                sum
            }
        }
    }

    /// The value of a digit string (msd first); `None` if it does not fit in u128.
    pub fn decode(&self, digits: &[u32]) -> Option<u128> {
        match self {
            Numeration::Base(b) => digits.iter().try_fold(0u128, |acc, &d| {
                acc.checked_mul(*b as u128)?.checked_add(d as u128)
            }),
            Numeration::Fib => {
                let (mut w0, mut w1) = (1u128, 2u128);
                let mut sum = 0u128;
                for &d in digits.iter().rev() {
                    if d == 1 {
                        sum = sum.checked_add(w0)?;
                    }
                    let w2 = w0.checked_add(w1);
                    w0 = w1;
                    w1 = w2.unwrap_or(u128::MAX);
                }
                Some(sum)
            }
        }
    }
}

/// The automaton of [`Numeration::low_repunit`] and [`Numeration::block_repunit`],
/// reading base-`base` digits msd first: z's digit is 0 above n's lowest non-zero digit
/// d, `at(d)` at it, and `below` under it, where n's digits are 0. Three states: before,
/// after, dead.
fn repunit_dfa(base: u32, n: u32, z: u32, at: impl Fn(u32) -> u32, below: u32) -> Result<Dfa> {
    let vars = if n < z { vec![n, z] } else { vec![z, n] };
    let (i_n, i_z) = if n < z { (0, 1) } else { (1, 0) };
    Dfa::explore(
        base,
        vars,
        false,
        |&after, l| match (after, l[i_n], l[i_z]) {
            (false, _, 0) => Some(false),
            (false, d, w) if d != 0 && w == at(d) => Some(true),
            (true, 0, w) if w == below => Some(true),
            _ => None,
        },
        |&after| after,
    )
}

/// The Zeckendorf weights 1, 2, 3, 5, … up to the largest ≤ n (at least [1]).
fn fib_weights(n: u128) -> Vec<u128> {
    let mut w = vec![1u128];
    let mut next = 2u128;
    while next <= n {
        let last = *w.last().unwrap();
        w.push(next);
        match next.checked_add(last) {
            Some(x) => next = x,
            None => break,
        }
    }
    w
}

/// A state of a linear relation's automaton: the value read so far (two numbers in
/// Zeckendorf numeration), or decided whatever follows.
#[derive(Clone, PartialEq, Eq, Hash)]
enum LinearState {
    V(i128, i128),
    Yes,
    No,
}

/// Σ coef·digits, the weight of one letter.
fn weigh(coef: &[i128], l: &[u32]) -> i128 {
    coef.iter().zip(l).map(|(a, &d)| a * d as i128).sum()
}

/// Σ coef·vars + c ⋈ 0 in base b, reading most significant digits first (before the
/// digits' validity is imposed).
fn linear_base_b(
    base: u32,
    vars: &[u32],
    coef: &[i128],
    c: i128,
    bound: i128,
    rel: Rel,
) -> Result<Dfa> {
    use LinearState as S;
    let b = base as i128;
    Dfa::explore(
        base,
        vars.to_vec(),
        S::V(0, 0),
        |s, l| {
            let S::V(r, _) = s else {
                return Some(s.clone());
            };
            let r2 = b * r + weigh(coef, l);
            match rel {
                Rel::Cong(m) => Some(S::V(r2.rem_euclid(m as i128), 0)),
                Rel::Eq => (r2.abs() <= bound).then_some(S::V(r2, 0)),
                Rel::Le => Some(if r2 > bound {
                    S::No
                } else if r2 < -bound {
                    S::Yes
                } else {
                    S::V(r2, 0)
                }),
            }
        },
        |s| match s {
            S::Yes => true,
            S::No => false,
            S::V(r, _) => match rel {
                Rel::Eq => r + c == 0,
                Rel::Le => r + c <= 0,
                Rel::Cong(m) => (r + c).rem_euclid(m as i128) == 0,
            },
        },
    )
}

/// Σ coef·vars + c ⋈ 0 in Zeckendorf numeration (before the digits' validity is
/// imposed); too large a state is refused.
fn linear_fib(vars: &[u32], coef: &[i128], c: i128, total: i128, rel: Rel) -> Result<Dfa> {
    use LinearState as S;
    let mut overflow = false;
    // After reading down to position k the value read is a·W_k + b·W_{k−1}
    // (W_{−1} = 1); a digit d at position k−1 gives (a + b + d, a); at the
    // end the value is a + b.
    let slack = 3 * total + c.abs();
    let dfa = Dfa::explore(
        2,
        vars.to_vec(),
        S::V(0, 0),
        |s, l| {
            let S::V(a, b) = s else {
                return Some(s.clone());
            };
            let (a2, b2) = (a + b + weigh(coef, l), *a);
            if a2.abs() > STATE_BOUND || b2.abs() > STATE_BOUND {
                overflow = true;
                return None;
            }
            match rel {
                Rel::Cong(m) => {
                    let m = m as i128;
                    Some(S::V(a2.rem_euclid(m), b2.rem_euclid(m)))
                }
                _ => {
                    // a·ρ + b for ρ = W_k/W_{k−1} ∈ [1, 2]
                    let (lo, hi) = {
                        let (u, v) = (a2 + b2, 2 * a2 + b2);
                        (u.min(v), u.max(v))
                    };
                    if lo > slack {
                        if rel == Rel::Eq {
                            None
                        } else {
                            Some(S::No)
                        }
                    } else if hi < -slack {
                        if rel == Rel::Eq {
                            None
                        } else {
                            Some(S::Yes)
                        }
                    } else {
                        Some(S::V(a2, b2))
                    }
                }
            }
        },
        |s| match s {
            S::Yes => true,
            S::No => false,
            S::V(a, b) => match rel {
                Rel::Eq => a + b + c == 0,
                Rel::Le => a + b + c <= 0,
                Rel::Cong(m) => (a + b + c).rem_euclid(m as i128) == 0,
            },
        },
    )?;
    if overflow {
        return Err(Error::TooLarge(
            "a linear relation with too large coefficients".into(),
        ));
    }
    Ok(dfa)
}
