//! # nimlab-automata
//!
//! A small decision procedure for first-order statements about natural numbers in the
//! style of Walnut (J. Shallit, *The Logical Approach to Automatic Sequences*,
//! Cambridge University Press, 2022): numbers are digit strings of a numeration system,
//! a formula with k free variables is a finite automaton reading k-tuples of digits in
//! parallel (a *synchronized* automaton), and every logical connective is an operation
//! on automata — ∧/∨ a product, ¬ a complement, ∃ a projection followed by the subset
//! construction. A closed statement becomes an automaton over no tracks, which accepts
//! the empty word or not: true or false, for all numbers at once (Büchi's theorem;
//! Bruyère, Hansel, Michaux and Villemaire, *Logic and p-recognizable sets of
//! integers*, Bull. Belg. Math. Soc. 1994).
//!
//! Words are read **most significant digit first**, as Walnut does by default: the
//! least accepted word (shortest, then lexicographic) is then the least
//! counterexample, and the automata written for Walnut need no reversal. Every
//! automaton is *zero-invariant* (leading zeros do not change acceptance); projection
//! keeps that by closing the start state under the all-zero letter.
//!
//! ```
//! use nimlab_automata::{Fo, Numeration, Rel};
//! // ∀x ∃y. x = 2y ∨ x = 2y + 1  (every number is even or odd)
//! let f = Fo::forall(0, Fo::exists(1, Fo::or(
//!     Fo::linear(vec![(0, 1), (1, -2)], 0, Rel::Eq),
//!     Fo::linear(vec![(0, 1), (1, -2)], -1, Rel::Eq))));
//! let a = f.automaton(&Numeration::Base(2)).unwrap();
//! assert!(a.is_universal());
//! ```

pub mod budget;
mod dfa;
mod fo;
mod numeration;
pub mod walnut;

pub use dfa::{decode_letter, Dfa, MAX_ENTRIES, MAX_LETTERS};
pub use fo::{Atom, Fo, Stats};
pub use numeration::{DigitOp, Numeration, Rel};

use std::fmt;

/// What can go wrong building automata.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// An automaton or alphabet beyond the limits (the text says which).
    TooLarge(String),
    /// A relation the numeration cannot express.
    Input(String),
    /// The computation was cancelled ([`budget::with_budget`]).
    Cancelled,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::TooLarge(s) => write!(f, "too large: {s}"),
            Error::Input(s) => write!(f, "{s}"),
            Error::Cancelled => write!(f, "cancelled"),
        }
    }
}

impl std::error::Error for Error {}

/// Result of automata operations.
pub type Result<T> = std::result::Result<T, Error>;
