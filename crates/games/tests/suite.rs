//! Every integration test of this crate, in one test binary: one link instead of one
//! per file keeps a cold `cargo test --workspace --release` short. A new file in
//! tests/ must be listed here (`every_test_file_is_in_the_suite` checks it).

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

#[test]
fn every_test_file_is_in_the_suite() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let suite = include_str!("suite.rs");
    for entry in std::fs::read_dir(dir).expect("tests/ is readable") {
        let name = entry
            .expect("an entry")
            .file_name()
            .into_string()
            .expect("UTF-8 name");
        if let Some(module) = name.strip_suffix(".rs").filter(|m| *m != "suite") {
            assert!(
                suite.contains(&format!("\nmod {module};")),
                "tests/{name} is not in tests/suite.rs, so it would never run"
            );
        }
    }
}
