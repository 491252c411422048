//! The solver's multiset kernel for misère take-and-break games against the plain
//! definition: a memoized recursion written here, over sorted heap lists, using only
//! the one-heap moves of the game.

use crate::common::mex;
use nimlab_engine::{Coord, Game, Solver};
use nimlab_games::parse_game;
use std::collections::HashMap;

/// The misère Grundy value by the definition: 1 with no move, else the mex of the
/// options' values; every heap moved from, its parts put back in.
fn misere_value(game: &dyn Game, heaps: &[Coord], memo: &mut HashMap<Vec<Coord>, u32>) -> u32 {
    let mut key: Vec<Coord> = heaps.iter().copied().filter(|&h| h > 0).collect();
    key.sort_unstable();
    if let Some(&v) = memo.get(&key) {
        return v;
    }
    let mut options: Vec<Vec<Coord>> = Vec::new();
    for i in 0..key.len() {
        game.for_each_option(&[key[i]], &mut |parts| {
            let mut o: Vec<Coord> = key[..i].to_vec();
            o.extend_from_slice(&key[i + 1..]);
            o.extend(parts.iter().copied().filter(|&p| p > 0));
            options.push(o);
        });
    }
    let v = if options.is_empty() {
        1
    } else {
        let values: Vec<u32> = options
            .iter()
            .map(|o| misere_value(game, o, memo))
            .collect();
        mex(values)
    };
    memo.insert(key, v);
    v
}

/// Every multiset of `count` heaps of sizes 0..=`max` (sizes non-decreasing).
fn multisets(count: usize, max: Coord) -> Vec<Vec<Coord>> {
    let mut out = vec![vec![]];
    for _ in 0..count {
        out = out
            .into_iter()
            .flat_map(|m: Vec<Coord>| {
                let from = m.last().copied().unwrap_or(0);
                (from..=max).map(move |h| {
                    let mut n = m.clone();
                    n.push(h);
                    n
                })
            })
            .collect();
    }
    out
}

#[test]
fn misere_take_and_break_values_match_the_definition() {
    for (code, count, max) in [
        ("0.77", 3, 12),        // Kayles
        ("4.07", 3, 9),         // split without taking: the rank is not the bean count
        ("0.137", 3, 11),       // Dawson's Chess
        ("0.6", 2, 14),         // one-bean moves only from heaps of two or more
        ("0.f8,base=16", 3, 9), // hexadecimal: three parts
        ("0.4", 3, 10),         // take one, must split: small heaps are dead
    ] {
        let spec = format!("misere(octal(code={code}))");
        let game = parse_game(&spec).unwrap();
        let inner = parse_game(&format!("octal(code={code})")).unwrap();
        let mut memo = HashMap::new();
        // One solver for all positions, small ones first: its memo grows and widens.
        let mut solver = Solver::new(game.as_ref());
        for pos in multisets(count, max) {
            let mut shuffled = pos.clone();
            shuffled.reverse(); // positions need not come sorted
            let expected = misere_value(inner.as_ref(), &pos, &mut memo);
            assert_eq!(
                solver.grundy(&shuffled).unwrap(),
                expected,
                "{spec} at {shuffled:?}"
            );
        }
    }
}

#[test]
fn grundy_game_in_misere_play_matches_the_definition() {
    let game = parse_game("misere(grundy-game)").unwrap();
    let inner = parse_game("grundy-game").unwrap();
    let mut memo = HashMap::new();
    let mut solver = Solver::new(game.as_ref());
    for pos in multisets(2, 16) {
        let expected = misere_value(inner.as_ref(), &pos, &mut memo);
        assert_eq!(solver.grundy(&pos).unwrap(), expected, "{pos:?}");
    }
    // Large single heaps, straight away (the memo starts wide).
    let mut fresh = Solver::new(game.as_ref());
    assert_eq!(
        fresh.grundy(&[30]).unwrap(),
        misere_value(inner.as_ref(), &[30], &mut memo)
    );
}

#[test]
fn a_memory_limit_stops_the_kernel_and_the_solver_recovers() {
    let game = parse_game("misere(octal(code=0.77))").unwrap();
    let mut solver =
        Solver::with_memory_limit(game.as_ref(), nimlab_engine::MemoryLimit::new(1 << 16));
    let err = solver.grundy(&[60]).unwrap_err().to_string();
    assert!(err.contains("memory"), "{err}");
    // What was evaluated before the stop is still right; nothing half-done is kept.
    let inner = parse_game("octal(code=0.77)").unwrap();
    let mut memo = HashMap::new();
    for h in 0..12 {
        assert_eq!(
            solver.grundy(&[h, 3]).unwrap(),
            misere_value(inner.as_ref(), &[h, 3], &mut memo)
        );
    }
}
