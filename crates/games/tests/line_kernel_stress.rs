//! Stress test of the line kernel's pipeline (Miri and ThreadSanitizer are not available
//! here): the kernel's bands run on 3 threads of a 2-core machine, over and over, on
//! tables of several bands each, and every cell is compared with the brute force (or,
//! on boxes too large for it, with the kernel on one thread).
//!
//! The kernel runs `rayon::current_num_threads()` pipeline stages, so inside
//! `pool.install` it uses the pool's 3 threads. Its bands are
//! `(height / (4 · threads)).clamp(8, 64)` rows high (the filled box's height: a
//! symmetric game on a tall box is filled transposed), so with 3 threads a filled height
//! h ≥ 24 gives at least 3 bands; Ryuoh p = 20 reads cells up to 18 rows up, across two
//! band boundaries. A band publishes its progress every 512 columns, so bands overlap in
//! time only on boxes wider than that: the boxes below are 600 to 2000 wide.

use nimlab_engine::table::generic_table;
use nimlab_engine::{grundy_table, TableOptions};
use nimlab_games::parse_game;

/// Bands the kernel makes of a box filled `height` rows high with 3 threads (the
/// arithmetic of `kernels::line::fill`, repeated to check the sizes chosen below).
fn bands(height: usize) -> usize {
    height.div_ceil((height / 12).clamp(8, 64).min(height))
}

/// `(game, [width, height], rounds)`: the kernel's table is computed `rounds` times.
const CASES: [(&str, [usize; 2], usize); 9] = [
    // Symmetric: the half table (x ≥ y) is pipelined, the rest mirrored.
    ("ryuoh(p=20)", [800, 32], 20),
    // Taller than wide: filled transposed (an 800-wide, 32-high box).
    ("ryuoh(p=20)", [32, 800], 20),
    ("ryuoh(p=20)", [600, 48], 16),
    ("ryuoh(p=20)", [96, 96], 20),
    ("wythoff", [800, 36], 60),
    ("wythoff", [36, 800], 60),
    // Not symmetric: the whole box, row k of a band lag = 2a − 3 columns behind k − 1.
    ("wythoff(a=2)", [800, 48], 60),
    ("wythoff(a=3)", [800, 40], 60),
    ("ryuoh(p=5)", [800, 40], 60),
];

#[test]
fn kernel_on_three_threads_agrees_cell_by_cell_many_times() {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(3)
        .build()
        .unwrap();
    let opts = TableOptions::default();
    for (spec, dims, rounds) in CASES {
        let game = parse_game(spec).unwrap();
        let moves = game.capabilities().line_moves.expect("a line game");
        let symmetric = moves.diagonal_band <= 1
            && moves
                .steps
                .iter()
                .all(|&(s, t)| moves.steps.contains(&(t, s)));
        let filled_height = if symmetric {
            dims[0].min(dims[1])
        } else {
            dims[1]
        };
        assert!(
            bands(filled_height) >= 3,
            "{spec} on {dims:?}: only {} bands",
            bands(filled_height)
        );
        let slow = generic_table(&*game, &dims, true, &opts).unwrap();
        for round in 0..rounds {
            let fast = pool.install(|| grundy_table(&*game, &dims, &opts)).unwrap();
            if let Some(i) =
                (0..slow.values().len()).find(|&i| fast.values()[i] != slow.values()[i])
            {
                panic!(
                    "{spec} on {dims:?}, round {round}: kernel on 3 threads gives {} at {:?}, \
                     brute force {}",
                    fast.values()[i],
                    fast.position_of(i),
                    slow.values()[i]
                );
            }
        }
    }
}

#[test]
fn three_threads_agree_with_one() {
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let three = rayon::ThreadPoolBuilder::new()
        .num_threads(3)
        .build()
        .unwrap();
    let opts = TableOptions::default();
    for (spec, dims) in [
        ("ryuoh(p=20)", [1600, 120]),
        ("ryuoh(p=20)", [500, 500]),
        ("wythoff", [2000, 300]),
        ("wythoff(a=2)", [2000, 200]),
    ] {
        let game = parse_game(spec).unwrap();
        let single = one.install(|| grundy_table(&*game, &dims, &opts)).unwrap();
        for _ in 0..3 {
            let multi = three
                .install(|| grundy_table(&*game, &dims, &opts))
                .unwrap();
            assert!(
                multi.values() == single.values(),
                "{spec} on {dims:?}: 3 threads differ from 1"
            );
        }
    }
}
