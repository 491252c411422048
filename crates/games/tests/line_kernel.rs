//! The line-game kernel (picked by `grundy_table`) against the generic brute force.

use nimlab_engine::table::generic_table;
use nimlab_engine::{grundy_table, TableOptions};
use nimlab_games::parse_game;

fn agree(spec: &str, dims: [usize; 2]) {
    let game = parse_game(spec).unwrap();
    assert!(
        game.capabilities().line_moves.is_some(),
        "{spec} should declare line moves"
    );
    let opts = TableOptions::default();
    let fast = grundy_table(&*game, &dims, &opts).unwrap();
    let slow = generic_table(&*game, &dims, true, &opts).unwrap();
    if let Some(i) = (0..fast.values().len()).find(|&i| fast.values()[i] != slow.values()[i]) {
        panic!(
            "{spec} on {dims:?}: kernel gives {} at {:?}, brute force {}",
            fast.values()[i],
            fast.position_of(i),
            slow.values()[i]
        );
    }
}

const GAMES: [&str; 9] = [
    "wythoff",
    "wythoff(a=2)",
    "wythoff(a=3)",
    "ryuoh(p=1)",
    "ryuoh(p=2)",
    "ryuoh(p=3)",
    "ryuoh(p=4)",
    "ryuoh(p=5)",
    "ryuoh(p=6)",
];

#[test]
fn kernel_agrees_with_brute_force_on_512_squares() {
    // The brute force is quadratic per cell: 512² for Wythoff (many tiles, every
    // pipeline stage), 384² for one game of each other kind, 256² for the rest; all at
    // 512² with NIMLAB_LONG.
    let long = std::env::var_os("NIMLAB_LONG").is_some();
    for spec in GAMES {
        let side = if long || spec == "wythoff" {
            512
        } else if ["wythoff(a=3)", "ryuoh(p=3)"].contains(&spec) {
            384
        } else {
            256
        };
        agree(spec, [side, side]);
    }
}

#[test]
fn kernel_agrees_with_brute_force_on_rectangles() {
    for spec in GAMES.iter().chain(&["wythoff(a=4)", "wythoff(a=7)"]) {
        for dims in [
            [700, 37],
            [37, 700],
            [1, 300],
            [300, 1],
            [2, 2],
            [1, 1],
            [129, 65],
        ] {
            agree(spec, dims);
        }
    }
}

#[test]
fn kernel_matches_seed_tables() {
    // Ryuoh paper, Table 1 (p = 3), row y = 7: G(x, 7) for x = 0..12.
    let game = parse_game("ryuoh(p=3)").unwrap();
    let t = grundy_table(&*game, &[13, 13], &TableOptions::default()).unwrap();
    let row7: Vec<u32> = (0..13).map(|x| t.get(&[x, 7]).unwrap()).collect();
    let expect: Vec<u32> = (0..13u64)
        .map(|x| ((x + 7) % 3 + 3 * ((x / 3) ^ (7 / 3))) as u32)
        .collect();
    assert_eq!(row7, expect);
}
