//! Minimum excludant with a bitset.

/// Reusable scratch space for mex computations (no allocation per call once warm).
///
/// Values beyond the number of inserted values cannot change the mex (the mex of `k`
/// values is at most `k`), so the bitset only needs `k + 1` bits.
///
/// ```
/// use nimlab_engine::MexScratch;
/// let mut s = MexScratch::default();
/// s.clear(4);
/// for v in [0, 1, 3, 7] { s.insert(v); }
/// assert_eq!(s.mex(), 2);
/// ```
#[derive(Debug, Default, Clone)]
pub struct MexScratch {
    words: Vec<u64>,
    bound: usize,
}

impl MexScratch {
    /// Prepares for at most `count` inserted values.
    pub fn clear(&mut self, count: usize) {
        let nwords = count / 64 + 1;
        if self.words.len() < nwords {
            self.words.resize(nwords, 0);
        }
        self.words[..nwords].iter_mut().for_each(|w| *w = 0);
        self.bound = nwords * 64;
    }

    /// Records one option value.
    #[inline]
    pub fn insert(&mut self, v: u32) {
        let v = v as usize;
        if v < self.bound {
            self.words[v >> 6] |= 1 << (v & 63);
        }
    }

    /// The least value not inserted.
    pub fn mex(&self) -> u32 {
        let nwords = self.bound / 64;
        for (i, &w) in self.words[..nwords].iter().enumerate() {
            if w != u64::MAX {
                return (i * 64 + (!w).trailing_zeros() as usize) as u32;
            }
        }
        self.bound as u32
    }
}

/// The least natural number not in `values`.
///
/// ```
/// use nimlab_engine::mex;
/// assert_eq!(mex(&[]), 0);
/// assert_eq!(mex(&[0, 2, 1, 5]), 3);
/// ```
pub fn mex(values: &[u32]) -> u32 {
    let mut s = MexScratch::default();
    s.clear(values.len());
    for &v in values {
        s.insert(v);
    }
    s.mex()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn mex_matches_definition(values in proptest::collection::vec(0u32..200, 0..300)) {
            let m = mex(&values);
            prop_assert!(!values.contains(&m));
            for k in 0..m { prop_assert!(values.contains(&k)); }
        }
    }
}
