//! Closed forms of the foundation's games against plain brute force, on windows large
//! enough to matter. The brute force here is the engine's generic table (every cell the
//! mex of its options); the claims are computed independently in this file.

use nimlab_engine::theorem::CheckContext;
use nimlab_engine::{grundy_table, Game, Solver, TableOptions};
use nimlab_games::nim::Nim;
use nimlab_games::ryuoh::Ryuoh;
use nimlab_games::subtraction::Subtraction;
use nimlab_games::wythoff::Wythoff;
use nimlab_games::{all_theorems, parse_game};

#[test]
fn theorem_3_1_holds_for_p_1_to_8_on_64_by_64() {
    for p in 1..=8u64 {
        let t = grundy_table(&Ryuoh { p }, &[64, 64], &TableOptions::default()).unwrap();
        for y in 0..64u64 {
            for x in 0..64u64 {
                let formula = (x + y) % p + p * ((x / p) ^ (y / p));
                assert_eq!(t.get(&[x, y]).unwrap() as u64, formula, "p={p} x={x} y={y}");
            }
        }
    }
}

#[test]
fn three_heap_nim_is_the_nim_sum_up_to_15() {
    let t = grundy_table(&Nim { heaps: 3 }, &[16, 16, 16], &TableOptions::default()).unwrap();
    for (pos, g) in t.iter() {
        assert_eq!(g as u64, pos[0] ^ pos[1] ^ pos[2], "{pos:?}");
    }
    assert_eq!(t.iter().count(), 16 * 16 * 16);
}

#[test]
fn nim_positions_of_any_length_are_the_nim_sum() {
    let nim = Nim { heaps: 2 };
    let mut solver = Solver::new(&nim);
    assert_eq!(solver.grundy(&[1, 3, 2]).unwrap(), 0); // docs/theory.md §3's example
    assert_eq!(solver.grundy(&[7, 5, 3, 1]).unwrap(), 7 ^ 5 ^ 3 ^ 1);
    assert_eq!(solver.grundy(&[6]).unwrap(), 6);
}

#[test]
fn game_i_is_n_mod_4() {
    let g = Subtraction::new(vec![1, 2, 3]).unwrap();
    let t = grundy_table(&g, &[5000], &TableOptions::default()).unwrap();
    for n in 0..5000u64 {
        assert_eq!(t.get(&[n]).unwrap() as u64, n % 4);
    }
    // The winning move takes n mod 4.
    for n in 1..200u64 {
        let a = nimlab_engine::analyse(&g, &[n], Default::default()).unwrap();
        let wins: Vec<u64> = a.winning_moves().map(|m| n - m.position[0]).collect();
        if n % 4 == 0 {
            assert!(wins.is_empty());
        } else {
            assert_eq!(wins, vec![n % 4]);
        }
    }
}

/// The mex construction of docs/theory.md §2, written independently of the library's.
fn wythoff_pairs(bound: u64) -> Vec<(u64, u64)> {
    let mut used = std::collections::HashSet::new();
    let mut pairs = vec![(0, 0)];
    let mut n = 1;
    loop {
        let p = (1..).find(|k| !used.contains(k)).unwrap();
        if p >= bound {
            return pairs;
        }
        used.insert(p);
        used.insert(p + n);
        pairs.push((p, p + n));
        n += 1;
    }
}

#[test]
fn wythoff_p_positions_are_the_mex_construction() {
    let n = 300u64;
    let t = grundy_table(
        &Wythoff,
        &[n as usize, n as usize],
        &TableOptions::default(),
    )
    .unwrap();
    let pairs = wythoff_pairs(n);
    let mut zeros = 0;
    for (pos, g) in t.iter() {
        let (a, b) = (pos[0].min(pos[1]), pos[0].max(pos[1]));
        assert_eq!(g == 0, pairs.contains(&(a, b)), "{pos:?}");
        zeros += (g == 0) as usize;
    }
    assert!(zeros > 200, "the window holds many P-positions ({zeros})");
    // The library's construction agrees.
    assert_eq!(nimlab_games::wythoff::pairs_by_mex(n), pairs);
}

#[test]
fn the_solver_agrees_with_the_table() {
    for spec in ["wythoff", "ryuoh(p=5)", "nim", "subtraction(s={2,5,7})"] {
        let game = parse_game(spec).unwrap();
        let dims = game.table_box(40);
        let t = grundy_table(&*game, &dims, &TableOptions::default()).unwrap();
        let mut solver = Solver::new(&*game);
        for (pos, g) in t.iter().step_by(7) {
            assert_eq!(solver.grundy(&pos).unwrap(), g, "{spec} {pos:?}");
        }
    }
}

#[test]
fn every_registered_theorem_holds() {
    let ctx = CheckContext::with_size(32);
    // Irie's and Welter's theorems are verified on a window twice as wide in
    // takeaway_sg::new_theorems_hold.
    for t in all_theorems()
        .into_iter()
        .filter(|t| !t.id.starts_with("irie.") && !t.id.starts_with("welter."))
    {
        let v = t.verify(&ctx).unwrap();
        assert!(v.holds(), "{}: {v:?}", t.id);
    }
}

#[test]
fn specs_round_trip() {
    for spec in [
        "nim",
        "nim(heaps=3)",
        "wythoff",
        "ryuoh(p=3)",
        "ryuoh(p=7)",
        "subtraction(s={1,3,4})",
    ] {
        let g = parse_game(spec).unwrap();
        assert_eq!(g.spec(), spec);
        assert_eq!(parse_game(&g.spec()).unwrap().spec(), spec);
    }
    assert_eq!(parse_game("ryuoh(4)").unwrap().spec(), "ryuoh(p=4)");
    assert_eq!(parse_game(" ryuoh( p = 4 ) ").unwrap().spec(), "ryuoh(p=4)");
}

#[test]
fn bad_specs_are_named() {
    let err = |s: &str| parse_game(s).err().unwrap().to_string();
    assert!(err("chess").contains("unknown game 'chess'"));
    assert!(err("ryuoh(p=0)").contains("p must be ≥ 1"));
    assert!(err("ryuoh(p=x)").contains("must be an integer"));
    assert!(err("ryuoh(q=3)").contains("unknown parameter 'q'"));
    assert!(err("ryuoh(p=3,p=4)").contains("given twice"));
    assert!(err("subtraction(s={})").contains("must not be empty"));
    assert!(err("subtraction(s={0,1})").contains("positive"));
    assert!(err("subtraction(s={a})").contains("natural numbers"));
    assert!(err("subtraction(s=3)").contains("must be a set"));
    assert!(err("ryuoh(p=3").contains("missing ')'"));
    assert!(err("wythoff(1,2)").contains("too many arguments"));
}

#[test]
fn ryuoh_theorem_answers_agree_with_brute_force() {
    use nimlab_engine::big::BigUint;
    for p in 1..=6u64 {
        let g = Ryuoh { p };
        let t = grundy_table(&g, &[40, 40], &TableOptions::default()).unwrap();
        for (pos, v) in t.iter() {
            let a = g.analyse_by_theorem(&BigUint::from(pos[0]), &BigUint::from(pos[1]));
            assert_eq!(a.grundy, Some(BigUint::from(v)), "p={p} {pos:?}");
            let mut expected: Vec<Vec<BigUint>> = g
                .options(&pos)
                .into_iter()
                .filter(|o| t.get(o) == Some(0))
                .map(|o| o.into_iter().map(BigUint::from).collect())
                .collect();
            expected.sort();
            expected.dedup();
            let mut got = a.winning_moves.clone();
            got.sort();
            assert_eq!(got, expected, "p={p} {pos:?}");
        }
    }
}
