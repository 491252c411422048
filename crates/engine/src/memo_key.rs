//! Memo keys of the solver: a position of at most two words is stored inline (no
//! allocation per entry, and no pointer to follow when a lookup compares keys),
//! a longer one on the heap. Keys hash and compare as the position's words do, so a
//! memo of keys is looked up by a position's slice as well.

use crate::game::Coord;
use std::borrow::Borrow;
use std::hash::{Hash, Hasher};

/// A position held as a memo key.
#[derive(Clone, Debug)]
pub(crate) enum Key {
    /// A position of at most two words (the unused ones 0).
    Inline { len: u8, words: [Coord; 2] },
    /// A longer position.
    Heap(Box<[Coord]>),
}

impl Key {
    /// The key of `pos`.
    #[inline]
    pub(crate) fn new(pos: &[Coord]) -> Self {
        match *pos {
            [] => Key::Inline {
                len: 0,
                words: [0, 0],
            },
            [a] => Key::Inline {
                len: 1,
                words: [a, 0],
            },
            [a, b] => Key::Inline {
                len: 2,
                words: [a, b],
            },
            _ => Key::Heap(pos.into()),
        }
    }

    /// The position's words.
    #[inline]
    pub(crate) fn as_slice(&self) -> &[Coord] {
        match self {
            Key::Inline { len, words } => &words[..*len as usize],
            Key::Heap(words) => words,
        }
    }
}

impl PartialEq for Key {
    #[inline]
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Key::Inline { len: a, words: x }, Key::Inline { len: b, words: y }) => {
                a == b && x == y
            }
            _ => self.as_slice() == other.as_slice(),
        }
    }
}

impl Eq for Key {}

impl Hash for Key {
    #[inline]
    fn hash<H: Hasher>(&self, state: &mut H) {
        // As the slice hashes: a key and its position's words find the same entry.
        self.as_slice().hash(state)
    }
}

impl Borrow<[Coord]> for Key {
    #[inline]
    fn borrow(&self) -> &[Coord] {
        self.as_slice()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rustc_hash::FxHashMap;

    #[test]
    fn keys_are_found_by_their_words_and_by_themselves() {
        let positions: Vec<Vec<Coord>> = vec![
            vec![],
            vec![0],
            vec![7],
            vec![0, 7],
            vec![7, 0],
            vec![1, 2, 3],
            vec![1, 2, 3, 0],
        ];
        let mut memo = FxHashMap::default();
        for (i, p) in positions.iter().enumerate() {
            memo.insert(Key::new(p), i);
        }
        assert_eq!(memo.len(), positions.len());
        for (i, p) in positions.iter().enumerate() {
            assert_eq!(memo.get(&p[..]), Some(&i));
            assert_eq!(memo.get(&Key::new(p)), Some(&i));
            assert_eq!(Key::new(p).as_slice(), &p[..]);
        }
        assert_eq!(memo.get(&[7, 0, 0][..]), None);
    }
}
