//! # nimlab-engine
//!
//! The game-agnostic core of nimlab. It knows no particular game: a game is anything
//! implementing [`Game`] (positions are vectors of natural numbers, a move goes to an
//! *option*), and the engine computes Sprague–Grundy values of single positions
//! ([`Solver`]), dense tables over boxes ([`grundy_table`]), and checks claimed closed
//! forms against brute force ([`theorem`]). It also holds the arithmetic the theory
//! needs: mex ([`mex()`]), nim sums in every base of docs/theory.md ([`nimarith`]).
//!
//! ```
//! use nimlab_engine::{Game, Coord, Solver};
//!
//! /// One heap; take 1 or 2.
//! struct TakeOneOrTwo;
//! impl Game for TakeOneOrTwo {
//!     fn spec(&self) -> String { "take12".into() }
//!     fn dimension(&self) -> usize { 1 }
//!     fn for_each_option(&self, pos: &[Coord], visit: &mut dyn FnMut(&[Coord])) {
//!         for t in 1..=2 {
//!             if pos[0] >= t { visit(&[pos[0] - t]); }
//!         }
//!     }
//! }
//! let mut solver = Solver::new(&TakeOneOrTwo);
//! assert_eq!(solver.grundy(&[7]).unwrap(), 1); // 7 mod 3
//! ```

pub mod big;
pub mod board;
pub mod capability;
pub mod classroom;
pub mod error;
pub mod game;
pub mod kernels;
mod memo_key;
pub mod memory;
pub mod mex;
pub mod misere_quotient;
pub mod monoid;
pub mod nimarith;
pub mod nplayer;
pub mod periodicity;
pub mod picture;
pub mod plan;
pub mod play;
pub mod position;
pub mod progress;
pub mod rule;
pub mod search;
pub mod solver;
pub mod table;
#[cfg(test)]
mod test_games;
pub mod theorem;
pub mod transform;
pub mod zeckendorf;

pub use error::{Error, Knob, Result};
pub use game::{parse_position, Coord, Game, Outcome, Position};
pub use memory::MemoryLimit;
pub use mex::{mex, MexScratch};
pub use progress::{NoProgress, Progress};
pub use solver::{analyse, Analysis, MoveInfo, Solver};
pub use table::{grundy_table, GrundyTable, TableOptions, INVALID};
pub use theorem::{Theorem, Verdict};
