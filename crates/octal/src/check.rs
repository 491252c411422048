//! An independent, deliberately simple checker of octal periodicity certificates.
//!
//! A certificate claims that the nim-sequence of a take-and-break code has least
//! preperiod `a` and least period `p`, and lists G(0), …, G(a + p − 1). This module
//! re-checks the claim without the fast solver ([`crate::takebreak`]): it shares
//! nothing with it but the digits of the code.
//!
//! 1. The claimed sequence is extended periodically, G(n) = G(n − p) for n ≥ a + p, up
//!    to the Guy–Smith bound `B = h·a' + h·p + t` (a' = max(a, 1), `t` the most beans a
//!    move takes, `h` the most heaps it leaves).
//! 2. Every G(n), n < B, is checked to be the mex of the values of n's options, from
//!    the plain definition of the moves. Then G(n + p) = G(n) holds for
//!    a' ≤ n < h·a' + (h − 1)·p + t, and the Guy–Smith periodicity theorem (Winning Ways
//!    ch. 4) extends it to every n ≥ a'.
//! 3. Least period: no p/q (q a prime factor of p) is a period of the block. Least
//!    preperiod: G(a − 1) ≠ G(a − 1 + p) when a > 0.
//!
//! Step 2 is exact but avoids O(B²) work for most n by an elementary parity fact
//! (Winning Ways ch. 4, "Sparse space spells speed"): split indices into two classes by
//! `class(i) = parity(G(i) & m) ⊕ s·(i mod 2)` for a mask `m` and flag `s` (any choice is
//! sound; the certificate suggests one). If x and y are in the same class then
//! parity((G(x) ⊕ G(y)) & m) = s·((x + y) mod 2). So a value of the other parity can
//! only come from a split with one part in each class, and those are all found by
//! walking the (short) list of indices of the smaller class. When the claimed G(n)
//! could come from a same-class split, the checker lists *every* option of n.
//!
//! ```
//! use nimlab_octal::check::{check, Claim};
//! // Kayles (0.77): preperiod 71, period 12.
//! let g = nimlab_octal::Octal::parse("0.77", 8).unwrap().nim_sequence(83);
//! let claim = Claim { digits: vec![0, 7, 7], preperiod: 71, period: 12, values: g, mask: None };
//! assert!(check(&claim).is_ok());
//! ```

/// What a certificate claims, in the checker's terms.
#[derive(Debug, Clone)]
pub struct Claim {
    /// `digits[k]` of the code (bit 1: take k leaving no heap, 2: one heap, 4: two, 8:
    /// three).
    pub digits: Vec<u8>,
    /// The claimed least preperiod.
    pub preperiod: u64,
    /// The claimed least period.
    pub period: u64,
    /// G(0), …, G(preperiod + period − 1).
    pub values: Vec<u32>,
    /// The class split to use (mask bits cleared, domain flag); only speed depends on
    /// it. `None`: the checker picks one ([`choose_mask`]). `Some((u32::MAX, false))`
    /// puts every index in one class: the plain definition for every heap.
    pub mask: Option<(u32, bool)>,
}

/// Why a claim is false: the first failing fact, in words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refuted(pub String);

impl std::fmt::Display for Refuted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// The Guy–Smith check bound: the claimed values must be right for n < this.
///
/// ```
/// use nimlab_octal::check::guy_smith_bound;
/// assert_eq!(guy_smith_bound(&[0, 7, 7], 71, 12), 2 * 71 + 2 * 12 + 2);
/// ```
pub fn guy_smith_bound(digits: &[u8], preperiod: u64, period: u64) -> u64 {
    let t = digits.len().saturating_sub(1) as u64;
    let h = heaps_left(digits).max(1);
    let a = preperiod.max(1);
    h.saturating_mul(a)
        .saturating_add(h.saturating_mul(period))
        .saturating_add(t)
}

/// The most heaps a move may leave (the `h` of the Guy–Smith bound, before taking at
/// least 1).
///
/// ```
/// use nimlab_octal::check::heaps_left;
/// assert_eq!(heaps_left(&[0, 7, 7]), 2); // Kayles
/// assert_eq!(heaps_left(&[0, 3]), 1);
/// ```
pub fn heaps_left(digits: &[u8]) -> u64 {
    digits
        .iter()
        .map(|&d| match d {
            d if d & 8 != 0 => 3,
            d if d & 4 != 0 => 2,
            d if d & 3 != 0 => 1,
            _ => 0,
        })
        .max()
        .unwrap_or(0)
}

/// Checks a claim (see the module docs). `progress` is called with the number of
/// heaps checked so far, now and then.
pub fn check_with(claim: &Claim, progress: &mut dyn FnMut(u64, u64)) -> Result<(), Refuted> {
    let g = extended_values(claim)?;
    let bound = g.len();
    let mut checker = Checker::new(claim, g);
    for n in 0..bound {
        if n % (1 << 16) == 0 {
            progress(n as u64, bound as u64);
        }
        checker.check_value(n)?;
    }
    progress(bound as u64, bound as u64);
    check_least(&checker.g, claim.preperiod, claim.period)
}

/// The claimed values repeated by the period up to the Guy–Smith bound, after checking
/// that the claim gives preperiod + period values.
fn extended_values(claim: &Claim) -> Result<Vec<u32>, Refuted> {
    let (a, p) = (claim.preperiod, claim.period);
    if p == 0 {
        return Err(Refuted("the period must be at least 1".into()));
    }
    if claim.values.len() as u64 != a + p {
        return Err(Refuted(format!(
            "{} values given, preperiod + period = {}",
            claim.values.len(),
            a + p
        )));
    }
    let bound = guy_smith_bound(&claim.digits, a, p);
    let bound = usize::try_from(bound).map_err(|_| Refuted("bound too large".into()))?;
    let mut g: Vec<u32> = claim.values.clone();
    g.reserve(bound.saturating_sub(g.len()));
    while g.len() < bound {
        g.push(g[g.len() - p as usize]);
    }
    Ok(g)
}

/// Refutes a period that is not the least one (a prime factor shortens it) or a
/// preperiod that is not (the last heap before the period already repeats).
fn check_least(g: &[u32], a: u64, p: u64) -> Result<(), Refuted> {
    let block = &g[a as usize..(a + p) as usize];
    for q in prime_factors(p) {
        let shorter = (p / q) as usize;
        if (0..block.len()).all(|i| block[i] == block[(i + shorter) % block.len()]) {
            return Err(Refuted(format!(
                "{shorter} is a period too: {p} is not the least period"
            )));
        }
    }
    if a > 0 && g[a as usize - 1] == g[(a + p) as usize - 1] {
        return Err(Refuted(format!(
            "G({}) = G({}): the preperiod is less than {a}",
            a - 1,
            a + p - 1
        )));
    }
    Ok(())
}

/// The state of a check going through the heaps in order: the values, the class
/// split, the options' values marked for the current heap, the smaller class so far.
struct Checker<'a> {
    digits: &'a [u8],
    /// The claimed values extended to the bound.
    g: Vec<u32>,
    /// The class split: mask bits cleared, index parity joins the class.
    cleared: u32,
    domain: bool,
    /// Whether a move may leave three heaps (every option is then listed).
    three: bool,
    /// seen[u] == stamp(n) ⇔ u is known to be the value of an option of n. Every value
    /// is at most the largest claimed one, so every nim-sum of values fits.
    seen: Vec<u64>,
    /// The indices of the smaller class so far, and their values side by side.
    rare: Vec<usize>,
    rare_values: Vec<u32>,
    /// Which class is the smaller (index 0 is no heap: never a part).
    small_class: u32,
    /// The heaps m that a two-heap move from the current heap splits.
    sums: Vec<usize>,
    /// Splits x + (m − x) that gave a missing value lately: tried before a long scan (a
    /// nearly periodic sequence finds a missing value again at the same x).
    witnesses: Vec<usize>,
}

impl<'a> Checker<'a> {
    fn new(claim: &'a Claim, g: Vec<u32>) -> Self {
        let bound = g.len();
        let (cleared, domain) = claim.mask.unwrap_or_else(|| choose_mask(&g, &claim.digits));
        let max_value = g.iter().copied().max().unwrap_or(0);
        let width = (u64::from(max_value) + 1).next_power_of_two() as usize;
        let mut checker = Checker {
            digits: &claim.digits,
            cleared,
            domain,
            three: heaps_left(&claim.digits) > 2,
            seen: vec![0; width],
            rare: Vec::new(),
            rare_values: Vec::new(),
            small_class: 0,
            sums: Vec::new(),
            witnesses: Vec::new(),
            g,
        };
        let ones = (1..bound).filter(|&i| checker.class(i) == 1).count();
        checker.small_class = u32::from(ones * 2 <= bound);
        checker
    }

    fn class(&self, i: usize) -> u32 {
        ((self.g[i] & !self.cleared).count_ones() ^ (self.domain as u32 & i as u32)) & 1
    }

    /// Whether a split of `m` into two parts of the same class can have the value `w`.
    fn same_class_parity(&self, w: u32, m: usize) -> bool {
        (w & !self.cleared).count_ones() & 1 == (self.domain as u32 & m as u32 & 1)
    }

    /// Checks that G(n) is the mex of n's options, then counts n among the parts.
    fn check_value(&mut self, n: usize) -> Result<(), Refuted> {
        let v = self.g[n];
        let here = n as u64 + 1;
        self.sums.clear();
        let digits = self.digits;
        self.sums.extend(
            (0..digits.len())
                .filter(|&k| k <= n && digits[k] & 4 != 0 && n - k >= 2)
                .map(|k| n - k),
        );
        let full = self.three || self.sums.iter().any(|&m| self.same_class_parity(v, m));
        self.mark_options(n, here, full);
        if self.seen[v as usize] == here {
            return Err(Refuted(format!(
                "G({n}) = {v} is claimed, but {n} has an option of value {v}"
            )));
        }
        self.find_smaller_values(n, here, full)?;
        // n becomes a possible part of the larger heaps' splits.
        if n > 0 && self.class(n) == self.small_class {
            self.rare.push(n);
            self.rare_values.push(v);
        }
        Ok(())
    }

    /// Marks the values of n's options: those that leave no heap or one heap, then
    /// every option (`full`) or only the splits with a part in each class.
    fn mark_options(&mut self, n: usize, here: u64, full: bool) {
        let g = &self.g;
        let seen = &mut self.seen;
        for (k, &d) in self.digits.iter().enumerate() {
            if k == 0 || k > n {
                continue;
            }
            let m = n - k;
            if d & 1 != 0 && m == 0 {
                seen[0] = here;
            }
            if d & 2 != 0 && m >= 1 {
                seen[g[m] as usize] = here;
            }
        }
        if full {
            // The plain definition: every option.
            for (k, &d) in self.digits.iter().enumerate() {
                if k > n {
                    continue;
                }
                let m = n - k;
                if d & 4 != 0 {
                    for x in 1..=m / 2 {
                        seen[(g[x] ^ g[m - x]) as usize] = here;
                    }
                }
                if d & 8 != 0 {
                    for x in 1..=m / 3 {
                        for y in x..=(m - x) / 2 {
                            seen[(g[x] ^ g[y] ^ g[m - x - y]) as usize] = here;
                        }
                    }
                }
            }
        } else {
            // Splits with a part in each class: walk the smaller class. v is not of
            // a same-class parity, so only these could give it.
            for &m in &self.sums {
                let below = self.rare.partition_point(|&r| r < m);
                for (&r, &gr) in self.rare[..below].iter().zip(&self.rare_values) {
                    seen[(gr ^ g[m - r]) as usize] = here;
                }
            }
        }
    }

    /// Every value below G(n) must be an option's. After a full listing the marks are
    /// complete; otherwise a missing value may still come from a same-class split:
    /// look for one, first at the recent witnesses, then trying x = 1, 2, … in every
    /// sum side by side (a value missing from one sum's first splits is often found
    /// early in another's).
    fn find_smaller_values(&mut self, n: usize, here: u64, full: bool) -> Result<(), Refuted> {
        let v = self.g[n];
        let end = self.sums.iter().map(|&m| m / 2).max().unwrap_or(0);
        let mut x = 1usize;
        for w in 0..v {
            if self.seen[w as usize] == here {
                continue;
            }
            let missing = || {
                Refuted(format!(
                    "G({n}) = {v} is claimed, but no option of {n} has value {w}"
                ))
            };
            if full || !self.sums.iter().any(|&m| self.same_class_parity(w, m)) {
                return Err(missing());
            }
            let (g, seen) = (&self.g, &mut self.seen);
            for &y in &self.witnesses {
                for &m in &self.sums {
                    if y <= m / 2 {
                        seen[(g[y] ^ g[m - y]) as usize] = here;
                    }
                }
            }
            while seen[w as usize] != here && x <= end {
                for &m in &self.sums {
                    if x <= m / 2 {
                        seen[(g[x] ^ g[m - x]) as usize] = here;
                    }
                }
                if seen[w as usize] == here && x > 64 {
                    if self.witnesses.len() == 16 {
                        self.witnesses.remove(0);
                    }
                    self.witnesses.push(x);
                }
                x += 1;
            }
            if seen[w as usize] != here {
                return Err(missing());
            }
        }
        Ok(())
    }
}

/// A class split (mask bits cleared, domain flag) whose smaller class is as small as
/// possible over the whole sequence: the one that makes the check fast. Counted
/// exactly from a histogram of (value, index parity), so a split whose rare class is a
/// few hundred heaps among millions is found (a sample would see none of them and
/// could not tell the splits apart). Any answer is sound.
///
/// ```
/// use nimlab_octal::check::choose_mask;
/// // Values 2, 3, 2, 3, …: clearing bit 1 leaves classes by bit 0.
/// let (cleared, _) = choose_mask(&[2, 3, 2, 3, 2, 3], &[0, 7, 7]);
/// assert!(cleared < 4);
/// ```
pub fn choose_mask(g: &[u32], digits: &[u8]) -> (u32, bool) {
    // The class a common heap must be in for its value to need no full listing: its
    // value's parity must differ from that of same-class splits, s·(sum mod 2). Without
    // s that is the odd-parity class; with s it depends on the parity of the k taken
    // before a split, so s is tried only when every such k has one parity.
    let split_ks: Vec<usize> = (0..digits.len()).filter(|&k| digits[k] & 4 != 0).collect();
    let one_parity = split_ks
        .iter()
        .all(|&k| k % 2 == split_ks.first().map_or(0, |k0| k0 % 2));
    // How often each value occurs at even and at odd indices (index 0 is no heap).
    let mut histogram: std::collections::HashMap<u32, [u64; 2]> = Default::default();
    for (i, &v) in g.iter().enumerate().skip(1) {
        histogram.entry(v).or_default()[i & 1] += 1;
    }
    let counts: Vec<(u32, [u64; 2])> = histogram.into_iter().collect();
    let max = counts.iter().map(|&(v, _)| v).max().unwrap_or(0);
    // Candidate masks: every subset of the value bits in use (at most 2^10 of them,
    // fewer when there are very many distinct values, to bound the work).
    let cap = if counts.len() > 1 << 16 {
        1 << 6
    } else {
        1 << 10
    };
    let top = (max as u64 + 1).next_power_of_two().min(cap) as u32;
    let mut best = (u64::MAX, (0, false));
    for cleared in 0..top {
        for domain in [false, true] {
            if domain && (split_ks.is_empty() || !one_parity) {
                continue;
            }
            let rare_class = if domain { split_ks[0] as u32 & 1 } else { 0 };
            let rare: u64 = counts
                .iter()
                .map(|&(v, by_parity)| {
                    let parity = (v & !cleared).count_ones() & 1;
                    (0..2u32)
                        .filter(|&i| parity ^ (domain as u32 & i) == rare_class)
                        .map(|i| by_parity[i as usize])
                        .sum::<u64>()
                })
                .sum();
            if rare < best.0 {
                best = (rare, (cleared, domain));
            }
        }
    }
    best.1
}

/// [`check_with`] without progress reports.
pub fn check(claim: &Claim) -> Result<(), Refuted> {
    check_with(claim, &mut |_, _| {})
}

fn prime_factors(mut p: u64) -> Vec<u64> {
    let mut out = Vec::new();
    let mut q = 2;
    while q * q <= p {
        if p.is_multiple_of(q) {
            out.push(q);
            while p.is_multiple_of(q) {
                p /= q;
            }
        }
        q += 1;
    }
    if p > 1 {
        out.push(p);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Octal;

    /// A true claim for `code`, from the fast solver (the thing being checked).
    fn claim(code: &str, base: u32) -> Claim {
        let game = Octal::parse(code, base).unwrap();
        let per = game.rules().certified_periodicity(1 << 20).unwrap();
        Claim {
            digits: game.rules().digits().to_vec(),
            preperiod: per.preperiod,
            period: per.period,
            values: per.values,
            mask: None,
        }
    }

    #[test]
    fn true_claims_hold_with_any_class_split() {
        for (code, base) in [
            ("0.137", 8),
            ("0.77", 8),
            ("0.07", 8),
            ("4.07", 8),
            ("0.156", 8),
            ("0.f", 16),
            ("0.51", 8),
        ] {
            let c = claim(code, base);
            assert_eq!(check(&c), Ok(()), "{code}");
            let plain = Claim {
                mask: Some((u32::MAX, false)),
                ..c.clone()
            };
            assert_eq!(check(&plain), Ok(()), "{code} plain");
            let odd = Claim {
                mask: Some((6, true)),
                ..c
            };
            assert_eq!(check(&odd), Ok(()), "{code} odd split");
        }
    }

    #[test]
    fn every_flipped_value_is_refuted() {
        let c = claim("0.137", 8);
        for i in 0..c.values.len() {
            for delta in [1, 2] {
                let mut bad = c.clone();
                bad.values[i] ^= delta;
                assert!(check(&bad).is_err(), "G({i}) ^= {delta} passed");
            }
        }
    }

    #[test]
    fn periods_and_preperiods_that_are_not_least_are_refuted() {
        let c = claim("0.77", 8);
        let (a, p) = (c.preperiod as usize, c.period as usize);
        // Twice the period: true values, but not the least period.
        let mut twice = c.clone();
        twice.period *= 2;
        twice.values.extend_from_slice(&c.values[a..a + p]);
        let why = check(&twice).unwrap_err();
        assert!(why.0.contains("least period"), "{why}");
        // One more preperiod term: true values, but not the least preperiod.
        let mut later = c.clone();
        later.preperiod += 1;
        later.values.push(c.values[a]);
        let why = check(&later).unwrap_err();
        assert!(why.0.contains("preperiod"), "{why}");
        // One term fewer: false.
        let mut early = c.clone();
        early.preperiod -= 1;
        early.values.pop();
        assert!(check(&early).is_err());
        // Wrong count.
        let mut short = c;
        short.values.pop();
        assert!(check(&short).is_err());
    }
}
