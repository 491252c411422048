//! The staircase chocolate bar's table kernel: the Grundy table of
//! `chocolate-staircase(f=t/3)` for z < 4096 (goal ≤ 2 s), the condition check on the
//! same window, and the brute-force oracle on a small window for scale.
//!
//! Run: `cargo bench -p nimlab-bench --bench chocolate`

// `criterion_group!` defines a public function without a doc comment.
#![allow(missing_docs)]

use criterion::{criterion_group, criterion_main, Criterion};
use nimlab_engine::table::generic_table;
use nimlab_engine::{plan, TableOptions};
use nimlab_games::chocolate_staircase::check_condition;
use nimlab_games::parse_game;
use std::hint::black_box;
use std::time::Duration;

fn staircase(c: &mut Criterion) {
    let mut group = c.benchmark_group("chocolate-staircase");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4));
    for (f, z) in [("t/3", 4096usize), ("t/2", 4096), ("t", 2048)] {
        let game = parse_game(&format!("chocolate-staircase(f={f})")).expect("catalog game");
        let dims = game.table_box(z);
        group.bench_function(
            format!("table f={f} z<{z} (box {}x{})", dims[0], dims[1]),
            |b| {
                b.iter(|| {
                    let t = plan::table(&*game, &dims, &TableOptions::default()).expect("fits");
                    black_box(t.table.values().len())
                })
            },
        );
    }
    group.bench_function("condition f=t/3 window 4096", |b| {
        b.iter(|| black_box(check_condition("t/3", 4096, Default::default()).expect("fits")))
    });
    let game = parse_game("chocolate-staircase(f=t/3)").expect("catalog game");
    let dims = game.table_box(256);
    group.bench_function("brute force f=t/3 z<256 (oracle, for scale)", |b| {
        b.iter(|| {
            black_box(
                generic_table(&*game, &dims, true, &TableOptions::default())
                    .expect("fits")
                    .values()
                    .len(),
            )
        })
    });
    group.finish();
}

criterion_group!(benches, staircase);
criterion_main!(benches);
