//! Nim arithmetic of docs/theory.md §3 and §4: the nim sum ⊕, Flanigan's base-b nim sum
//! σ^b, Fraenkel–Lorberbom's σ^[b], mixed-radix sums ⊕_β / σ^β, and the n-nim sum of
//! n-player Nim.

use crate::error::{Error, Result};

/// The nim sum x⁰ ⊕ x¹ ⊕ … (bitwise XOR), σ² of docs/theory.md §3.
///
/// ```
/// use nimlab_engine::nimarith::nim_sum;
/// assert_eq!(nim_sum(&[1, 3, 2]), 0);
/// assert_eq!(nim_sum(&[5, 9]), 12);
/// ```
pub fn nim_sum(xs: &[u64]) -> u64 {
    xs.iter().fold(0, |a, &x| a ^ x)
}

/// Flanigan's base-b nim sum σ^b: add the base-b digits column by column mod b, no
/// carries. `b ≥ 2`.
///
/// ```
/// use nimlab_engine::nimarith::nim_sum_base;
/// assert_eq!(nim_sum_base(2, &[5, 3]).unwrap(), 6);
/// // 5 = 12₃, 7 = 21₃ → 00₃
/// assert_eq!(nim_sum_base(3, &[5, 7]).unwrap(), 0);
/// ```
pub fn nim_sum_base(b: u64, xs: &[u64]) -> Result<u64> {
    if b < 2 {
        return Err(Error::input(format!("base must be at least 2, got {b}")));
    }
    let mut rest: Vec<u64> = xs.to_vec();
    let mut result: u64 = 0;
    let mut place: u64 = 1;
    while rest.iter().any(|&x| x > 0) {
        let digit = rest.iter().map(|&x| (x % b) as u128).sum::<u128>() % b as u128;
        result = (digit as u64)
            .checked_mul(place)
            .and_then(|d| result.checked_add(d))
            .ok_or_else(|| Error::input("base-b nim sum overflows u64"))?;
        rest.iter_mut().for_each(|x| *x /= b);
        if rest.iter().any(|&x| x > 0) {
            place = place
                .checked_mul(b)
                .ok_or_else(|| Error::input("base-b nim sum overflows u64"))?;
        }
    }
    Ok(result)
}

/// Fraenkel–Lorberbom's σ^[b] ("Nimhoff"): `b·(⊕ ⌊xᵢ/b⌋) + (Σ xᵢ mod b)`. For two
/// heaps it is the Grundy function of generalized Ryuoh Nim with p = b (Theorem 3.1).
///
/// ```
/// use nimlab_engine::nimarith::nimhoff;
/// // Table 1 of the Ryuoh paper: G(4, 7) = 11
/// assert_eq!(nimhoff(3, &[4, 7]).unwrap(), 11);
/// ```
pub fn nimhoff(b: u64, xs: &[u64]) -> Result<u64> {
    if b < 1 {
        return Err(Error::input("σ^[b] needs b ≥ 1"));
    }
    let high = xs.iter().fold(0u64, |a, &x| a ^ (x / b));
    let low = xs.iter().map(|&x| (x % b) as u128).sum::<u128>() % b as u128;
    high.checked_mul(b)
        .and_then(|h| h.checked_add(low as u64))
        .ok_or_else(|| Error::input("σ^[b] overflows u64"))
}

/// A mixed radix β = (β₀, β₁, …), every β_L ≥ 2. It is given by a finite prefix whose
/// last entry repeats forever: `[60, 24, 7]` means (60, 24, 7, 7, 7, …) and `[b, 2]`
/// means (b, 2, 2, …), the radix of σ^[b].
///
/// ```
/// use nimlab_engine::nimarith::MixedRadix;
/// let beta = MixedRadix::new(vec![60, 24, 7]).unwrap();
/// assert_eq!(beta.digits(1000), vec![40, 16]);
/// assert_eq!(beta.digits(2000), vec![20, 9, 1]);
/// // Example 4.1 of docs/theory.md §3
/// assert_eq!(beta.sigma(&[1000, 2000]).unwrap(), 1500);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MixedRadix {
    prefix: Vec<u64>,
}

impl MixedRadix {
    /// A radix from its prefix (non-empty, every entry ≥ 2).
    pub fn new(prefix: Vec<u64>) -> Result<Self> {
        if prefix.is_empty() {
            return Err(Error::input("a mixed radix needs at least one base"));
        }
        if let Some(b) = prefix.iter().find(|&&b| b < 2) {
            return Err(Error::input(format!(
                "every base of a mixed radix must be ≥ 2, got {b}"
            )));
        }
        Ok(MixedRadix { prefix })
    }

    /// β_L.
    pub fn base(&self, level: usize) -> u64 {
        *self
            .prefix
            .get(level)
            .unwrap_or(self.prefix.last().unwrap())
    }

    /// The digits n_0, n_1, … of `n` (no trailing zero digits; empty for 0).
    pub fn digits(&self, mut n: u64) -> Vec<u64> {
        let mut out = Vec::new();
        let mut level = 0;
        while n > 0 {
            let b = self.base(level);
            out.push(n % b);
            n /= b;
            level += 1;
        }
        out
    }

    /// The number with digits `digits` (n = Σ n_L β^L).
    pub fn from_digits(&self, digits: &[u64]) -> Result<u64> {
        let mut n: u64 = 0;
        let mut place: u64 = 1;
        for (level, &d) in digits.iter().enumerate() {
            n = d
                .checked_mul(place)
                .and_then(|v| n.checked_add(v))
                .ok_or_else(|| Error::input("mixed-radix number overflows u64"))?;
            if level + 1 < digits.len() {
                place = place
                    .checked_mul(self.base(level))
                    .ok_or_else(|| Error::input("mixed-radix number overflows u64"))?;
            }
        }
        Ok(n)
    }

    /// σ^β(X) = x⁰ ⊕_β x¹ ⊕_β …: digitwise sum, digit L taken mod β_L.
    pub fn sigma(&self, xs: &[u64]) -> Result<u64> {
        let digits: Vec<Vec<u64>> = xs.iter().map(|&x| self.digits(x)).collect();
        let len = digits.iter().map(Vec::len).max().unwrap_or(0);
        let sum: Vec<u64> = (0..len)
            .map(|l| {
                let s: u128 = digits.iter().map(|d| *d.get(l).unwrap_or(&0) as u128).sum();
                (s % self.base(l) as u128) as u64
            })
            .collect();
        self.from_digits(&sum)
    }

    /// n ⊕_β h.
    pub fn add(&self, n: u64, h: u64) -> Result<u64> {
        self.sigma(&[n, h])
    }
}

/// The n-nim sum of n-player Nim (docs/theory.md §4): add each binary column of the heaps as an
/// ordinary integer, reduce it mod `n`, and read the digits in base `n`.
///
/// ```
/// use nimlab_engine::nimarith::n_nim_sum;
/// // columns 3,2,4,2 → 0,2,1,2 in base 3 = 23
/// assert_eq!(n_nim_sum(3, &[14, 11, 10, 7]).unwrap(), 23);
/// assert_eq!(n_nim_sum(2, &[14, 11, 10, 7]).unwrap(), 14 ^ 11 ^ 10 ^ 7);
/// ```
pub fn n_nim_sum(n: u64, xs: &[u64]) -> Result<u64> {
    if n < 2 {
        return Err(Error::input(format!(
            "the n-nim sum needs n ≥ 2 players, got {n}"
        )));
    }
    let mut result: u128 = 0;
    let mut place: u128 = 1;
    for bit in 0..64 {
        let column = xs.iter().filter(|&&x| x >> bit & 1 == 1).count() as u128;
        result += (column % n as u128) * place;
        if xs.iter().all(|&x| x >> (bit + 1) == 0) {
            break;
        }
        place = place
            .checked_mul(n as u128)
            .ok_or_else(|| Error::input("n-nim sum overflows"))?;
    }
    u64::try_from(result).map_err(|_| Error::input("n-nim sum overflows u64"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn sigma_beta_specialises_to_base_b_and_nimhoff() {
        let base3 = MixedRadix::new(vec![3]).unwrap();
        let bracket5 = MixedRadix::new(vec![5, 2]).unwrap();
        for x in 0..60 {
            for y in 0..60 {
                assert_eq!(
                    base3.sigma(&[x, y]).unwrap(),
                    nim_sum_base(3, &[x, y]).unwrap()
                );
                assert_eq!(
                    bracket5.sigma(&[x, y]).unwrap(),
                    nimhoff(5, &[x, y]).unwrap()
                );
            }
        }
    }

    #[test]
    fn example_4_1_digits() {
        let beta = MixedRadix::new(vec![60, 24, 7]).unwrap();
        assert_eq!(beta.digits(1500), vec![0, 1, 1]);
        assert_eq!(beta.from_digits(&[40, 16, 0]).unwrap(), 1000);
    }

    #[test]
    fn bad_radix_is_refused() {
        assert!(MixedRadix::new(vec![]).is_err());
        assert!(MixedRadix::new(vec![3, 1]).is_err());
        assert!(nim_sum_base(1, &[3]).is_err());
        assert!(n_nim_sum(1, &[3]).is_err());
    }

    proptest! {
        #[test]
        fn n_nim_sum_is_zero_iff_columns_divisible(n in 2u64..7, xs in proptest::collection::vec(0u64..1000, 0..6)) {
            let s = n_nim_sum(n, &xs).unwrap();
            let all_divisible = (0..10).all(|b| (xs.iter().filter(|&&x| x >> b & 1 == 1).count() as u64).is_multiple_of(n));
            prop_assert_eq!(s == 0, all_divisible);
        }

        #[test]
        fn base_two_is_xor(xs in proptest::collection::vec(0u64..1 << 40, 0..6)) {
            prop_assert_eq!(nim_sum_base(2, &xs).unwrap(), nim_sum(&xs));
        }
    }
}
