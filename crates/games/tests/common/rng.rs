//! A small deterministic generator (xorshift), so that tests and benchmarks are
//! reproducible. Included as a module by the games suite (tests/common.rs), by
//! crates/automata/tests/brute.rs, crates/cli/tests/common/mod.rs and
//! crates/bench/benches/common/mod.rs; each uses a part of it.
#![allow(dead_code)]

/// An xorshift stream; its state must not be 0.
pub struct Rng(pub u64);

impl Rng {
    /// The next number of the stream.
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number below `n`.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    /// The decimal digits of a number of exactly `count` digits (no leading 0).
    pub fn decimal(&mut self, count: usize) -> String {
        (0..count)
            .map(|i| {
                let d = (self.next() % 10) as u8;
                (b'0' + if i == 0 { 1 + d % 9 } else { d }) as char
            })
            .collect()
    }
}
