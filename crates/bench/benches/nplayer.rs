//! n-player games. Goals: the classes of all 3-heap positions < 64 for n = 3 by the
//! recursion ≤ 2 s; the closed form (Theorems A/B) on four heaps of 10^4 digits in
//! milliseconds. Run with `cargo bench -p nimlab-bench --bench nplayer`.

mod common;

use common::best;
use nimlab_engine::big::parse_big_position;
use nimlab_engine::nplayer::NPlayerClosedForm;
use nimlab_engine::nplayer::{class_table, NPlayerGame, Ranking};
use nimlab_engine::{plan, TableOptions};
use nimlab_games::nim::Nim;
use nimlab_games::nplayer_nim::Kano;
use nimlab_games::parse_game;
use std::hint::black_box;

/// Heaps of `digits` decimal digits, deterministic.
fn big_heaps(count: usize, digits: usize) -> String {
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    (0..count)
        .map(|_| {
            (0..digits)
                .map(|i| {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    let d = (state % 10) as u8;
                    (b'0' + if i == 0 { d.max(1) } else { d }) as char
                })
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join(",")
}

fn main() {
    let opts = TableOptions::default();
    println!("recursion: classes of every 3-heap position < 64 (262144 positions)");
    for ranking in [
        Ranking::normal(3).unwrap(),
        Ranking::retreat(3, 2).unwrap(),
        Ranking::normal(5).unwrap(),
        Ranking::permutation(vec![2, 1, 3]).unwrap(),
    ] {
        let game = NPlayerGame::new(Box::new(Nim { heaps: 3 }), ranking.clone());
        let (t, d) = best(3, || {
            class_table(&game, &ranking, &[64, 64, 64], &opts).unwrap()
        });
        black_box(t.values()[64 * 64 * 64 - 1]);
        println!(
            "  n={} {:<12} {:>8.3} s{}",
            ranking.players(),
            ranking.spec(),
            d.as_secs_f64(),
            if ranking.players() == 3 && ranking.spec() == "normal" {
                "   (goal ≤ 2 s)"
            } else {
                ""
            }
        );
    }
    let three = Ranking::normal(3).unwrap();
    let (sum, d) = best(3, || {
        let mut sum = 0u64;
        for a in 0..64 {
            for b in 0..64 {
                for c in 0..64 {
                    sum += Kano.class_small(&[a, b, c], &three).unwrap() as u64;
                }
            }
        }
        sum
    });
    black_box(sum);
    println!(
        "  n=3 normal by the closed form, cell by cell {:>8.3} s",
        d.as_secs_f64()
    );

    println!("closed form: value of four heaps (Theorems A/B, best moves)");
    for digits in [1_000, 10_000, 100_000] {
        let pos = parse_big_position(&big_heaps(4, digits)).unwrap();
        for spec in ["nplayer-nim(n=3)", "nplayer-nim(n=5,ranking=retreat(2))"] {
            let game = parse_game(spec).unwrap();
            let runs = if digits >= 100_000 { 2 } else { 5 };
            let (r, d) = best(runs, || plan::value(&*game, &pos, &opts).unwrap());
            black_box(r.nplayer.map(|c| c.class));
            println!(
                "  {digits:>6} digits  {spec:<38} {:>9.2} ms{}",
                d.as_secs_f64() * 1e3,
                if digits == 10_000 {
                    "   (goal: milliseconds)"
                } else {
                    ""
                }
            );
        }
    }
}
