//! Every integration test of this crate, in one test binary: one link instead of one
//! per file keeps a cold `cargo test --workspace --release` short. A new file in
//! tests/ must be listed here (crates/cli/tests/workspace.rs checks it).

mod batch;
mod compiler_soundness;
mod exact;
mod formula;
mod fuzz;
mod guess;
mod ops;
mod quantifiers;
