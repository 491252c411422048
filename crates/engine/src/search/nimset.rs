//! Sets of nimbers below 256 as 256-bit masks: the questions the search asks ("is the
//! nimber in S?") and the candidates it keeps for a component's nimber.

use super::Bounds;

/// A set of nimbers below [`NimSet::LIMIT`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct NimSet([u64; 4]);

impl NimSet {
    /// Nimbers at or past this are never members.
    pub(crate) const LIMIT: u32 = 256;

    /// Every nimber below the limit.
    pub(crate) const ALL: NimSet = NimSet([u64::MAX; 4]);

    /// No nimber.
    pub(crate) const EMPTY: NimSet = NimSet([0; 4]);

    /// {0, 1, …, n} (cut at the limit).
    pub(crate) fn upto(n: u32) -> NimSet {
        let mut s = NimSet::EMPTY;
        for (w, word) in s.0.iter_mut().enumerate() {
            let low = 64 * w as u32;
            if n >= low + 63 {
                *word = u64::MAX;
            } else if n >= low {
                *word = (1u64 << (n - low + 1)) - 1;
            }
        }
        s
    }

    /// {v}, or the empty set when v is past the limit.
    pub(crate) fn single(v: u32) -> NimSet {
        let mut s = NimSet::EMPTY;
        s.insert(v);
        s
    }

    pub(crate) fn contains(&self, v: u32) -> bool {
        v < Self::LIMIT && self.0[(v / 64) as usize] >> (v % 64) & 1 == 1
    }

    pub(crate) fn insert(&mut self, v: u32) {
        if v < Self::LIMIT {
            self.0[(v / 64) as usize] |= 1 << (v % 64);
        }
    }

    pub(crate) fn remove(&mut self, v: u32) {
        if v < Self::LIMIT {
            self.0[(v / 64) as usize] &= !(1 << (v % 64));
        }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.0 == [0; 4]
    }

    /// How many members.
    #[cfg(test)]
    pub(crate) fn len(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    /// The least member.
    pub(crate) fn min(&self) -> Option<u32> {
        self.0
            .iter()
            .enumerate()
            .find(|(_, w)| **w != 0)
            .map(|(i, w)| 64 * i as u32 + w.trailing_zeros())
    }

    /// The greatest member.
    pub(crate) fn max(&self) -> Option<u32> {
        self.0
            .iter()
            .enumerate()
            .rev()
            .find(|(_, w)| **w != 0)
            .map(|(i, w)| 64 * i as u32 + 63 - w.leading_zeros())
    }

    /// The set without its greatest member.
    pub(crate) fn without_max(mut self) -> NimSet {
        if let Some(m) = self.max() {
            self.remove(m);
        }
        self
    }

    pub(crate) fn and(self, other: NimSet) -> NimSet {
        NimSet(std::array::from_fn(|i| self.0[i] & other.0[i]))
    }

    /// The members `known` does not rule out.
    pub(crate) fn allowed_by(self, known: Bounds) -> NimSet {
        let mut s = self.and(NimSet::upto(known.upper)).and(NimSet::ALL);
        for v in 0..known.lower.min(Self::LIMIT) {
            s.remove(v);
        }
        s.0[0] &= !known.ruled_out;
        s
    }

    /// {v ⊕ x : v in the set} (x below the limit): bit v moves to bit v ⊕ x, which is
    /// a swap of blocks of 2^i bits for each bit i of x.
    pub(crate) fn xor_each(self, x: u32) -> NimSet {
        debug_assert!(x < Self::LIMIT);
        const MASKS: [u64; 6] = [
            0x5555_5555_5555_5555,
            0x3333_3333_3333_3333,
            0x0f0f_0f0f_0f0f_0f0f,
            0x00ff_00ff_00ff_00ff,
            0x0000_ffff_0000_ffff,
            0x0000_0000_ffff_ffff,
        ];
        let low = x & 63;
        let mut out = NimSet::EMPTY;
        for (w, &word) in self.0.iter().enumerate() {
            let mut v = word;
            for (i, &m) in MASKS.iter().enumerate() {
                if low >> i & 1 == 1 {
                    let shift = 1 << i;
                    v = (v & m) << shift | (v >> shift) & m;
                }
            }
            out.0[w ^ (x >> 6) as usize] = v;
        }
        out
    }

    /// The members below 64, as bits.
    pub(crate) fn low_word(&self) -> u64 {
        self.0[0]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xor_moves_every_member() {
        let mut s = NimSet::EMPTY;
        for v in [0, 1, 5, 63, 64, 100, 200, 255] {
            s.insert(v);
        }
        for x in [0, 1, 3, 7, 63, 64, 77, 129, 255] {
            let t = s.xor_each(x);
            assert_eq!(t.len(), s.len());
            for v in 0..256 {
                assert_eq!(t.contains(v ^ x), s.contains(v), "v {v} x {x}");
            }
        }
    }

    #[test]
    fn bounds_and_extremes() {
        let s = NimSet::upto(70);
        assert_eq!((s.min(), s.max(), s.len()), (Some(0), Some(70), 71));
        assert_eq!(s.without_max().max(), Some(69));
        assert_eq!(NimSet::upto(300), NimSet::ALL);
        let mut b = Bounds::UNKNOWN;
        b.rule_out(0);
        b.rule_out(3);
        b.at_most(5);
        let a = NimSet::ALL.allowed_by(b);
        assert_eq!(
            (0..10).filter(|&v| a.contains(v)).collect::<Vec<_>>(),
            vec![1, 2, 4, 5]
        );
        assert!(NimSet::single(300).is_empty());
    }
}
