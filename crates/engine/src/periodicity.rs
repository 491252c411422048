//! Eventual (arithmetic) periodicity of Grundy sequences.
//!
//! A sequence is *arithmetic-periodic* with preperiod `a`, period `p` and saltus `s` when
//! `G(n + p) = G(n) + s` for every `n ≥ a`. Plain periodicity is `s = 0` (subtraction and
//! octal games); Wythoff's rows are additively periodic with `s = p` (Dress, Flammenkamp
//! and Pink). Detection on a finite window is an *observation*; games that can prove
//! their period (a repeated window for subtraction games, Guy–Smith for octal games)
//! say so through [`crate::capability::SequenceKernel::certified_periodicity`].

/// Preperiod, period and saltus of a sequence, with how it is known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Periodicity {
    /// First index from which the sequence is periodic.
    pub preperiod: u64,
    /// Least period.
    pub period: u64,
    /// Increase per period (0 for plain periodicity).
    pub saltus: i64,
    /// The values G(0), …, G(preperiod + period − 1): preperiod then one periodic block.
    pub values: Vec<u32>,
    /// The sequence was computed (and the pattern seen) for n < `checked_up_to`.
    pub checked_up_to: u64,
    /// `Some(reason)` if the period is proven (e.g. "window of max(S) values repeats"),
    /// `None` if only observed on the window.
    pub proof: Option<String>,
}

impl Periodicity {
    /// The periodic block G(a), …, G(a + p − 1).
    pub fn block(&self) -> &[u32] {
        &self.values[self.preperiod as usize..]
    }

    /// G(n) for any n, from the preperiod and block.
    ///
    /// ```
    /// use nimlab_engine::periodicity::find_arithmetic_period;
    /// let seq: Vec<u32> = (0..100).map(|n| n % 4).collect();
    /// let per = find_arithmetic_period(&seq, 10, 2).unwrap();
    /// assert_eq!(per.value_at(1_000_000_001), Some(1));
    /// ```
    pub fn value_at(&self, n: u128) -> Option<u128> {
        if n < self.preperiod as u128 {
            return Some(self.values[n as usize] as u128);
        }
        let k = (n - self.preperiod as u128) / self.period as u128;
        let r = (n - self.preperiod as u128) % self.period as u128;
        let base = self.values[(self.preperiod as u128 + r) as usize] as i128;
        let v = base + self.saltus as i128 * k as i128;
        u128::try_from(v).ok()
    }
}

/// Finds the least period `p ≤ max_period` (and then the least preperiod) such that
/// `values[n + p] − values[n]` is one constant for every `n ≥ preperiod` in the window,
/// with at least `min_repeats` full periods seen after the preperiod and the periodic
/// part covering at least the later half of the window. `None` if no such
/// period is seen. The result is an observation on the window (`proof: None`).
///
/// ```
/// use nimlab_engine::periodicity::find_arithmetic_period;
/// // 5, 7, then 0 1 2 0 1 2 …
/// let mut seq = vec![5, 7];
/// seq.extend((0..60).map(|n| n % 3));
/// let per = find_arithmetic_period(&seq, 20, 3).unwrap();
/// assert_eq!((per.preperiod, per.period, per.saltus), (2, 3, 0));
/// // an additive period: G(n + 2) = G(n) + 2
/// let add: Vec<u32> = (0..50).map(|n| n + (n % 2) * 3).collect();
/// let per = find_arithmetic_period(&add, 10, 3).unwrap();
/// assert_eq!((per.period, per.saltus), (2, 2));
/// ```
pub fn find_arithmetic_period(
    values: &[u32],
    max_period: usize,
    min_repeats: usize,
) -> Option<Periodicity> {
    let len = values.len();
    let min_repeats = min_repeats.max(1);
    for p in 1..=max_period.min(len / (min_repeats + 1).max(2)) {
        let diff = |n: usize| values[n + p] as i64 - values[n] as i64;
        let last = len - p - 1;
        let s = diff(last);
        // Walk back while the difference stays s: the preperiod is where it stops.
        let mut start = last;
        while start > 0 && diff(start - 1) == s {
            start -= 1;
        }
        // The pattern must fill the later half of the window too, or any short tail
        // would pass for a period.
        if len - start >= ((min_repeats + 1) * p).max(len / 2) {
            return Some(Periodicity {
                preperiod: start as u64,
                period: p as u64,
                saltus: s,
                values: values[..start + p].to_vec(),
                checked_up_to: len as u64,
                proof: None,
            });
        }
    }
    None
}
