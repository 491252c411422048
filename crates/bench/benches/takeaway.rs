//! Criterion benchmarks of the take-away module (issue 10's speed goals):
//!
//! * the SG-system check of σ^β against C^β on the box [0,64)^3: ≤ 1 s;
//! * Welter's game with 8 heaps of 10^4 decimal digits: value ≤ 50 ms (also timed:
//!   value plus every winning move).
//!
//! Run: `cargo bench -p nimlab-bench --bench takeaway`

// `criterion_group!` defines a public function without a doc comment.
#![allow(missing_docs)]

mod common;

use common::random_decimal;
use criterion::{criterion_group, criterion_main, Criterion};
use nimlab_engine::big::BigUint;
use nimlab_engine::capability::BigPositions;
use nimlab_engine::nimarith::MixedRadix;
use nimlab_games::sg_system::{check_system, Phi, SystemQuery};
use nimlab_games::takeaway::MoveSet;
use nimlab_games::welter::{welter_big, Welter};
use std::hint::black_box;
use std::time::Duration;

fn sg_system(c: &mut Criterion) {
    let mut group = c.benchmark_group("sg-system [0,64)^3");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(8));
    for beta in ["[2..]", "[3..]", "[2,3..]"] {
        let radix = MixedRadix::parse(beta).expect("radix");
        let phi = Phi::Sigma(radix.clone());
        let moves = MoveSet::CBeta(radix);
        group.bench_function(format!("sigma^{beta} vs C^{beta}"), |b| {
            b.iter(|| {
                let q = SystemQuery {
                    phi: &phi,
                    moves: &moves,
                    positions: None,
                    dim: 3,
                    size: 64,
                    force: false,
                };
                let r = check_system(black_box(&q)).expect("check");
                assert!(r.holds());
            })
        });
    }
    group.finish();
}

fn welter(c: &mut Criterion) {
    let heaps: Vec<BigUint> = (0..8u64)
        .map(|i| random_decimal(10_000, (i + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1))
        .collect();
    let mut group = c.benchmark_group("welter 8 heaps of 10^4 digits");
    group.sample_size(20);
    group.bench_function("value", |b| b.iter(|| welter_big(black_box(&heaps))));
    group.bench_function("value + winning moves", |b| {
        b.iter(|| {
            Welter { heaps: 8 }
                .analyse_big(black_box(&heaps))
                .expect("answers")
                .expect("distinct heaps")
        })
    });
    group.finish();
}

criterion_group!(benches, sg_system, welter);
criterion_main!(benches);
