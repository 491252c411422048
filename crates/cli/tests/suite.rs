//! Every integration test of this crate, in one test binary: one link instead of one
//! per file keeps a cold `cargo test --workspace --release` short. A new file in
//! tests/ must be listed here (crates/cli/tests/workspace.rs checks it).

mod census_run;
mod certificate;
mod check;
mod common;
mod conventions;
mod draw;
mod fibonacci_nim;
mod foundation;
mod guess;
mod hostile_input;
mod limits;
mod misere_quotient;
mod nplayer;
mod octal;
mod output;
mod periodicity;
mod play;
mod prove;
mod prove_guess;
mod readme;
mod rules;
mod search;
mod sg_system;
mod surfaces;
mod table_big_outputs;
mod worksheet;
mod workspace;
mod wythoff_big;
