//! What the value of a position is, given the values of its options.
//!
//! Two players value a position by its Grundy value, the mex of its options' values;
//! n players ([`crate::nplayer`]) by its class, the option class that gives the player to
//! move the best rank, plus one. Every exact method of the engine (the memoized
//! [`crate::Solver`], the box walk of [`crate::table::generic_table`], the planner's
//! routes in [`crate::plan`]) walks positions the same way and asks a [`ValueRule`] to
//! combine the options' values, so that n-player classes are one more rule, not a
//! second planner.
//!
//! ```
//! use nimlab_engine::nplayer::Ranking;
//! use nimlab_engine::rule::ValueRule;
//! use nimlab_engine::MexScratch;
//! let mut scratch = MexScratch::default();
//! assert_eq!(ValueRule::Grundy.combine(&[0, 1, 3], 0, &mut scratch), 2);
//! let three = Ranking::normal(3).unwrap();
//! // Three players: from options of classes 0 and 2 the mover takes class 0 (it then
//! // made the last move and ranks first), so the position has class 1.
//! assert_eq!(ValueRule::Classes(&three).combine(&[2, 0], 0, &mut scratch), 1);
//! ```

use crate::game::Game;
use crate::mex::MexScratch;
use crate::nplayer::Ranking;

/// How a position's value follows from its options' values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValueRule<'a> {
    /// Two players: the Grundy value, the mex of the options' values.
    Grundy,
    /// n players under a ranking: the class (moves still to be played, mod n).
    Classes(&'a Ranking),
}

impl<'a> ValueRule<'a> {
    /// The rule `game` is played by: classes when the game declares n-player rules
    /// ([`crate::capability::Capabilities::nplayer`]), else Grundy values.
    pub fn of(game: &'a dyn Game) -> Self {
        match game.capabilities().nplayer {
            Some(rules) => ValueRule::Classes(rules.ranking),
            None => ValueRule::Grundy,
        }
    }

    /// Whether values are Grundy values (so that sums combine by ⊕).
    pub fn is_grundy(&self) -> bool {
        matches!(self, ValueRule::Grundy)
    }

    /// The value of a position whose options have the values `options` (any order,
    /// duplicates allowed); `terminal` is the value of a position without options in
    /// two-player play (0 normal, 1 misère). A terminal position has class 0.
    pub fn combine(&self, options: &[u32], terminal: u32, scratch: &mut MexScratch) -> u32 {
        match self {
            ValueRule::Grundy => {
                if options.is_empty() {
                    return terminal;
                }
                scratch.clear(options.len());
                for &v in options {
                    scratch.insert(v);
                }
                scratch.mex()
            }
            ValueRule::Classes(ranking) => {
                best_class(ranking, options.iter().copied()).map_or(0, |c| ranking.class_after(c))
            }
        }
    }

    /// Whether an option of value `v` is a best move from a position of value `value`:
    /// for Grundy values a move to a P-position (value 0); for classes an option
    /// whose class gets the player to move its best rank, that is, the one whose
    /// successor class is `value` (the successor is one-to-one).
    pub fn is_best_option(&self, value: u32, v: u32) -> bool {
        match self {
            ValueRule::Grundy => v == 0,
            ValueRule::Classes(ranking) => ranking.class_after(v) == value,
        }
    }

    /// The word for a value under this rule, for people: "grundy" or "class".
    pub fn value_name(&self) -> &'static str {
        match self {
            ValueRule::Grundy => "Grundy value",
            ValueRule::Classes(_) => "n-player class",
        }
    }
}

/// The option class that gives the player to move its best rank (`None`: no options).
pub fn best_class(ranking: &Ranking, options: impl IntoIterator<Item = u32>) -> Option<u32> {
    let mut best: Option<(usize, u32)> = None;
    for c in options {
        let r = ranking.mover_rank_after(c);
        if best.is_none_or(|(b, _)| r < b) {
            best = Some((r, c));
            if r == 1 {
                break;
            }
        }
    }
    best.map(|(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grundy_is_the_mex_and_terminal_positions_take_the_given_value() {
        let mut s = MexScratch::default();
        assert_eq!(ValueRule::Grundy.combine(&[], 1, &mut s), 1);
        assert_eq!(ValueRule::Grundy.combine(&[1, 1, 2], 0, &mut s), 0);
        assert_eq!(ValueRule::Grundy.combine(&[0, 2, 1, 4], 0, &mut s), 3);
    }

    #[test]
    fn classes_pick_the_movers_best_rank() {
        let mut s = MexScratch::default();
        for n in 2..6 {
            let r = Ranking::normal(n).unwrap();
            let rule = ValueRule::Classes(&r);
            assert_eq!(rule.combine(&[], 1, &mut s), 0, "terminal: class 0");
            // Every non-empty set of option classes: the result is one more than the
            // class whose rank for the mover is least, by the definition.
            for mask in 1u32..(1 << n) {
                let opts: Vec<u32> = (0..n as u32).filter(|c| mask >> c & 1 == 1).collect();
                let best = *opts.iter().min_by_key(|&&c| r.mover_rank_after(c)).unwrap();
                assert_eq!(rule.combine(&opts, 0, &mut s), r.class_after(best));
                let v = rule.combine(&opts, 0, &mut s);
                for &c in &opts {
                    assert_eq!(rule.is_best_option(v, c), c == best);
                }
            }
        }
    }
}
