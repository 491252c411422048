//! Nim arithmetic of docs/theory.md §3 and §4: the nim sum ⊕, Flanigan's base-b nim sum
//! σ^b, Fraenkel–Lorberbom's σ^\[b\], mixed-radix sums ⊕_β / σ^β, and the n-nim sum of
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

/// Fraenkel–Lorberbom's σ^\[b\] ("Nimhoff"): `b·(⊕ ⌊xᵢ/b⌋) + (Σ xᵢ mod b)`. For two
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

/// A mixed radix β = (β₀, β₁, …), every β_L ≥ 2: a finite prefix followed by a block
/// that repeats forever.
///
/// Written `[60,24,7..]` = (60, 24, 7, 7, 7, …): the entry before `..` repeats; a block
/// in parentheses repeats as a whole, `[2,(3,5)..]` = (2, 3, 5, 3, 5, …). Without `..`
/// the last entry repeats (shorthand): `[b,2]` = `[b,2..]` = (b, 2, 2, …), the radix of
/// σ^\[b\]; `[3]` = (3, 3, …), the radix of σ^3. One parser, [`MixedRadix::parse`], serves
/// game specs, formulas (`sigma(beta=…)`) and rules files.
///
/// ```
/// use nimlab_engine::nimarith::MixedRadix;
/// let beta = MixedRadix::parse("[60,24,7..]").unwrap();
/// assert_eq!(beta.digits(1000), vec![40, 16]);
/// assert_eq!(beta.digits(2000), vec![20, 9, 1]);
/// // Example 4.1 of docs/theory.md §3
/// assert_eq!(beta.sigma(&[1000, 2000]).unwrap(), 1500);
/// assert_eq!(beta.to_string(), "[60,24,7..]");
/// assert_eq!(MixedRadix::parse("[2,(3,5)..]").unwrap().base(4), 5);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct MixedRadix {
    prefix: Vec<u64>,
    period: Vec<u64>,
}

/// Most entries a written radix may have (prefix and block together).
pub const MAX_RADIX_ENTRIES: usize = 64;

impl MixedRadix {
    /// A radix from its prefix (non-empty, every entry ≥ 2); the last entry repeats.
    pub fn new(mut prefix: Vec<u64>) -> Result<Self> {
        let last = prefix
            .pop()
            .ok_or_else(|| Error::input("a mixed radix needs at least one base"))?;
        Self::with_period(prefix, vec![last])
    }

    /// The radix `prefix` followed by `period` repeated forever (`period` non-empty,
    /// every entry ≥ 2).
    ///
    /// ```
    /// use nimlab_engine::nimarith::MixedRadix;
    /// let a = MixedRadix::with_period(vec![4, 2, 2], vec![2, 2]).unwrap();
    /// assert_eq!(a, MixedRadix::new(vec![4, 2]).unwrap());
    /// assert_eq!(a.to_string(), "[4,2..]");
    /// ```
    pub fn with_period(prefix: Vec<u64>, period: Vec<u64>) -> Result<Self> {
        if period.is_empty() {
            return Err(Error::input("a mixed radix needs a repeating base"));
        }
        if prefix.len() + period.len() > MAX_RADIX_ENTRIES {
            return Err(Error::input(format!(
                "a mixed radix may list at most {MAX_RADIX_ENTRIES} bases"
            )));
        }
        if let Some(b) = prefix.iter().chain(&period).find(|&&b| b < 2) {
            return Err(Error::input(format!(
                "every base of a mixed radix must be ≥ 2, got {b}"
            )));
        }
        let mut r = MixedRadix { prefix, period };
        r.normalize();
        Ok(r)
    }

    /// One representation per radix: the shortest block, and the prefix as short as
    /// the block allows (so equal radixes compare equal and print alike).
    fn normalize(&mut self) {
        let n = self.period.len();
        if let Some(d) = (1..=n)
            .find(|&d| n.is_multiple_of(d) && (d..n).all(|i| self.period[i] == self.period[i - d]))
        {
            self.period.truncate(d);
        }
        while let Some(&last) = self.prefix.last() {
            if last != *self.period.last().expect("non-empty") {
                break;
            }
            self.prefix.pop();
            self.period.rotate_right(1);
        }
    }

    /// Parses `[60,24,7..]`, `[2,(3,5)..]` or the shorthand `[3,2]` (last entry
    /// repeats). Spaces are free.
    ///
    /// ```
    /// use nimlab_engine::nimarith::MixedRadix;
    /// assert_eq!(MixedRadix::parse("[3, 2..]").unwrap(), MixedRadix::parse("[3,2]").unwrap());
    /// assert!(MixedRadix::parse("[1..]").is_err());
    /// assert!(MixedRadix::parse("60,24").is_err());
    /// ```
    pub fn parse(text: &str) -> Result<Self> {
        Self::parse_with(text, &|_| None)
    }

    /// [`MixedRadix::parse`], where a base may also be a name that `resolve` knows (a
    /// rules file's named constant).
    pub fn parse_with(text: &str, resolve: &dyn Fn(&str) -> Option<i64>) -> Result<Self> {
        let shown = || {
            let t: String = text.chars().take(60).collect();
            t.replace(|c: char| c.is_control(), " ")
        };
        let bad = |why: &str| {
            Error::input(format!(
                "mixed radix '{}': {why} (write e.g. [60,24,7..] or [2,(3,5)..])",
                shown()
            ))
        };
        let inner = text
            .trim()
            .strip_prefix('[')
            .and_then(|s| s.strip_suffix(']'))
            .ok_or_else(|| bad("expected a list in brackets"))?;
        let (body, repeats) = match inner.trim_end().strip_suffix("..") {
            Some(b) => (b.trim_end(), true),
            None => (inner, false),
        };
        let base = |word: &str| -> Result<u64> {
            let w = word.trim();
            let v = if w.bytes().all(|b| b.is_ascii_digit()) && !w.is_empty() {
                w.parse::<u64>().map_err(|_| bad("a base is too large"))?
            } else {
                match resolve(w) {
                    Some(v) if v >= 0 => v as u64,
                    _ => {
                        return Err(bad(&format!(
                            "'{}' is not a base (an integer ≥ 2)",
                            w.chars().take(20).collect::<String>()
                        )))
                    }
                }
            };
            if v < 2 {
                return Err(bad(&format!("every base must be ≥ 2, got {v}")));
            }
            Ok(v)
        };
        let list = |s: &str| -> Result<Vec<u64>> {
            if s.trim().is_empty() {
                return Ok(Vec::new());
            }
            s.split(',').map(base).collect()
        };
        if repeats && body.ends_with(')') {
            let open = body.rfind('(').ok_or_else(|| bad("unbalanced ')'"))?;
            let block = list(&body[open + 1..body.len() - 1])?;
            let head = body[..open].trim_end();
            let head = match head.strip_suffix(',') {
                Some(h) => h,
                None if head.trim().is_empty() => head,
                None => return Err(bad("expected ',' before the repeating block")),
            };
            if block.is_empty() {
                return Err(bad("the repeating block is empty"));
            }
            return Self::with_period(list(head)?, block);
        }
        let mut all = list(body)?;
        if all.is_empty() {
            return Err(bad("a mixed radix needs at least one base"));
        }
        let last = all.pop().expect("non-empty");
        Self::with_period(all, vec![last])
    }

    /// β_L.
    pub fn base(&self, level: usize) -> u64 {
        match self.prefix.get(level) {
            Some(&b) => b,
            None => self.period[(level - self.prefix.len()) % self.period.len()],
        }
    }

    /// β̂ = (β₁, β₂, …): the radix shifted by one place (Theorem 4.7).
    pub fn shifted(&self) -> MixedRadix {
        let mut r = if self.prefix.is_empty() {
            let mut period = self.period.clone();
            period.rotate_left(1);
            MixedRadix {
                prefix: Vec::new(),
                period,
            }
        } else {
            MixedRadix {
                prefix: self.prefix[1..].to_vec(),
                period: self.period.clone(),
            }
        };
        r.normalize();
        r
    }

    /// β^L = β₀⋯β_{L−1}, if it fits in u64.
    pub fn place(&self, level: usize) -> Option<u64> {
        (0..level).try_fold(1u64, |p, l| p.checked_mul(self.base(l)))
    }

    /// ord_β(n) = max{L : β^L | n}; `None` for n = 0 (ord = ∞).
    pub fn ord(&self, mut n: u64) -> Option<usize> {
        if n == 0 {
            return None;
        }
        let mut level = 0;
        while n.is_multiple_of(self.base(level)) {
            n /= self.base(level);
            level += 1;
        }
        Some(level)
    }

    /// sup_L (β_L − 1) over the whole radix (finite: the radix is eventually periodic).
    pub fn max_digit(&self) -> u64 {
        self.prefix
            .iter()
            .chain(&self.period)
            .max()
            .expect("non-empty")
            - 1
    }

    /// Whether β_L = 2 for every L ≥ 1, i.e. β = (b, 2, 2, …) (Theorem 4.5).
    pub fn is_b_2_2(&self) -> bool {
        self.prefix.iter().skip(1).all(|&b| b == 2) && self.period == [2]
    }

    /// The bases listed before the repeating block, and the block.
    pub fn parts(&self) -> (&[u64], &[u64]) {
        (&self.prefix, &self.period)
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

impl std::fmt::Display for MixedRadix {
    /// `[60,24,7..]`, `[2,(3,5)..]`: the form [`MixedRadix::parse`] reads.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let join = |v: &[u64]| v.iter().map(u64::to_string).collect::<Vec<_>>().join(",");
        let block = if self.period.len() == 1 {
            join(&self.period)
        } else {
            format!("({})", join(&self.period))
        };
        if self.prefix.is_empty() {
            write!(f, "[{block}..]")
        } else {
            write!(f, "[{},{block}..]", join(&self.prefix))
        }
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
    fn radix_syntax_round_trips() {
        for (text, canonical) in [
            ("[60,24,7..]", "[60,24,7..]"),
            ("[ 60, 24, 7 ]", "[60,24,7..]"),
            ("[3]", "[3..]"),
            ("[3,3,3..]", "[3..]"),
            ("[5,2,2]", "[5,2..]"),
            ("[2,(3,5)..]", "[2,(3,5)..]"),
            ("[3,5,(3,5)..]", "[(3,5)..]"),
            ("[3,(5,3)..]", "[(3,5)..]"),
            ("[(2,2)..]", "[2..]"),
        ] {
            let r = MixedRadix::parse(text).unwrap();
            assert_eq!(r.to_string(), canonical, "{text}");
            assert_eq!(MixedRadix::parse(canonical).unwrap(), r);
        }
        let r = MixedRadix::parse("[2,(3,5)..]").unwrap();
        let bases: Vec<u64> = (0..6).map(|l| r.base(l)).collect();
        assert_eq!(bases, vec![2, 3, 5, 3, 5, 3]);
        assert_eq!(r.shifted().to_string(), "[(3,5)..]");
        assert_eq!(r.shifted().shifted().to_string(), "[(5,3)..]");
        assert_eq!(r.place(3), Some(30));
        assert_eq!(r.ord(60), Some(3));
        assert_eq!(r.ord(0), None);
        assert!(MixedRadix::parse("[7,2..]").unwrap().is_b_2_2());
        assert!(!MixedRadix::parse("[7,3..]").unwrap().is_b_2_2());
        for bad in [
            "",
            "[]",
            "[..]",
            "[1..]",
            "[2,()..]",
            "[2,(3..]",
            "[x]",
            "3,2",
            "[2,,3]",
            "[2(3,5)..]",
        ] {
            assert!(MixedRadix::parse(bad).is_err(), "{bad}");
        }
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
