//! # nimlab-octal
//!
//! Octal research tools: everything about take-and-break games (octal and hexadecimal
//! codes, Grundy's game) beyond the rules the catalog lists.
//!
//! - [`takebreak`]: the rules as a value ([`takebreak::TakeBreak`]), the naive and the
//!   rare/common ("sparse space") nim-sequences, the dense tiles, the Guy–Smith period
//!   search and its resumable long runs ([`takebreak::run`]); the private `split_scan`
//!   holds their vector code (the crate's only SIMD; [`simd_level`] says which is used).
//! - [`game`]: the game ([`Octal`]) as the engine sees it — a [`nimlab_engine::Game`]
//!   that offers its sequence kernel and big-heap analysis to the planner as
//!   capabilities; the catalog (`nimlab-games`' `octal` and `grundy-game` families)
//!   wraps it.
//! - [`census`]: the octal census (codes, estimates, solving codes in parallel);
//!   [`check`]: the independent re-check of a periodicity certificate;
//!   [`frontier`]: the unsolved codes and their figures; [`misere_census`]: misère
//!   quotients of many codes.
//!
//! ```
//! use nimlab_octal::Octal;
//! let kayles = Octal::parse("0.77", 8).unwrap();
//! assert_eq!(&kayles.nim_sequence(6)[..], &[0, 1, 2, 3, 1, 4]);
//! ```

pub mod census;
pub mod check;
pub mod frontier;
pub mod game;
pub mod misere_census;
mod split_scan;
pub mod takebreak;

pub use game::Octal;
pub use split_scan::{simd_level, SimdLevel};
