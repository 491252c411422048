//! Every integration test of this crate, in one test binary: one link instead of one
//! per file keeps a cold `cargo test --workspace --release` short. A new file in
//! tests/ must be listed here (crates/cli/tests/workspace.rs checks it).

mod boards;
mod chocolate;
mod chocolate_bar;
mod common;
mod cram;
mod cross_checks;
mod explain;
mod fibonacci_nim;
mod fuzz_parsers;
mod grundy_game;
mod line_kernel;
mod line_kernel_stress;
mod misere_multiset;
mod misere_quotient;
mod node_kayles;
mod nplayer;
mod octal;
mod planner;
mod prove;
mod prove_soundness;
mod rules;
mod search;
mod seed_tables;
mod subtraction;
mod takeaway_sg;
mod transform_properties;
mod transforms;
mod wythoff_strategy;
