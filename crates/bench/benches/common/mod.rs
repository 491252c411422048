//! What several benches share; each bench uses a part of it.
#![allow(dead_code)]

use nimlab_engine::big::BigUint;
use std::time::{Duration, Instant};

/// The xorshift stream of the games suite and the CLI tests.
#[path = "../../../games/tests/common/rng.rs"]
mod rng;
use rng::Rng;

/// Best of `runs` wall times of `f`.
pub fn best<T>(runs: usize, mut f: impl FnMut() -> T) -> (T, Duration) {
    let mut best = Duration::MAX;
    let mut out = None;
    for _ in 0..runs {
        let t = Instant::now();
        let v = f();
        best = best.min(t.elapsed());
        out = Some(v);
    }
    (out.expect("runs ≥ 1"), best)
}

/// A pseudo-random number of exactly `digits` decimal digits, from the xorshift state
/// `state` (not 0): reproducible.
pub fn random_decimal(digits: usize, state: u64) -> BigUint {
    let text = Rng(state).decimal(digits);
    BigUint::parse_bytes(text.as_bytes(), 10).expect("digits")
}
