//! The generic (brute-force) table solver on the foundation's two-heap games.
//! Run: `cargo bench -p nimlab-bench --bench generic_table` (set NIMLAB_BENCH_SIZES to
//! override the sizes, e.g. `NIMLAB_BENCH_SIZES=256,512`).

use nimlab_engine::table::generic_table;
use nimlab_engine::TableOptions;
use nimlab_games::parse_game;
use std::time::Instant;

fn main() {
    let sizes: Vec<usize> = std::env::var("NIMLAB_BENCH_SIZES")
        .ok()
        .map(|s| s.split(',').filter_map(|x| x.trim().parse().ok()).collect())
        .unwrap_or_else(|| vec![1024, 2048]);
    println!(
        "{:<12} {:>6} {:>10} {:>14}",
        "game", "N", "seconds", "ns/option"
    );
    for spec in ["ryuoh(p=3)", "wythoff"] {
        let game = parse_game(spec).unwrap();
        let mut previous: Option<f64> = None;
        for &n in &sizes {
            let start = Instant::now();
            let t = generic_table(&*game, &[n, n], true, &TableOptions::default()).unwrap();
            let secs = start.elapsed().as_secs_f64();
            // Options per cell: x + y + diagonal moves; count them for a per-option cost.
            let options: u64 = (0..n as u64)
                .map(|y| {
                    (0..n as u64)
                        .map(|x| {
                            let mut k = 0;
                            game.for_each_option(&[x, y], &mut |_| k += 1);
                            k
                        })
                        .sum::<u64>()
                })
                .sum();
            std::hint::black_box(t.values()[n * n - 1]);
            let ratio = previous
                .map(|p| format!("  ({:.1}x the previous size)", secs / p))
                .unwrap_or_default();
            println!(
                "{spec:<12} {n:>6} {secs:>10.2} {:>14.2}{ratio}",
                secs * 1e9 / options as f64
            );
            previous = Some(secs);
        }
    }
}
