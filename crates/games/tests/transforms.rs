//! misere(…), pass(…) and sum(…) against direct brute forces written independently here.

use crate::common::{mex, subtraction_option_values};
use nimlab_engine::{analyse, grundy_table, TableOptions};
use nimlab_games::parse_game;
use std::collections::HashMap;

/// Bouton's misère rule: with some heap ≥ 2, P iff the nim sum is 0; with all heaps
/// ≤ 1, P iff the nim sum is 1 (an odd number of 1-heaps).
fn bouton_misere_is_p(heaps: &[u64]) -> bool {
    let x = heaps.iter().fold(0, |a, h| a ^ h);
    if heaps.iter().any(|&h| h >= 2) {
        x == 0
    } else {
        x == 1
    }
}

#[test]
fn misere_nim_follows_bouton_misere_rule() {
    let g = parse_game("misere(nim(heaps=3))").unwrap();
    let t = grundy_table(&*g, &[10, 10, 10], &TableOptions::default()).unwrap();
    for (pos, v) in t.iter() {
        assert_eq!(v == 0, bouton_misere_is_p(&pos), "{pos:?}");
    }
    // Winning moves of misère play go to misère P-positions.
    let a = analyse(&*g, &[1, 1, 5], Default::default()).unwrap();
    let wins: Vec<_> = a.winning_moves().map(|m| m.position.clone()).collect();
    // Leave an odd number of 1-heaps and nothing bigger.
    assert_eq!(wins, vec![vec![1, 1, 1]]);
}

/// Misère Grundy values by the misère recursion, written directly for one-heap
/// subtraction games.
#[test]
fn misere_values_follow_the_misere_recursion() {
    let s = [1u64, 3, 4];
    let mut g = vec![0u32; 200];
    for n in 0..200usize {
        let opts = subtraction_option_values(&s, &g, n);
        g[n] = if opts.is_empty() {
            1
        } else {
            mex(opts.iter().copied())
        };
    }
    let game = parse_game("misere(subtraction(s={1,3,4}))").unwrap();
    let t = grundy_table(&*game, &[200], &TableOptions::default()).unwrap();
    for n in 0..200u64 {
        assert_eq!(t.get(&[n]).unwrap(), g[n as usize], "n={n}");
    }
}

/// Ryuoh Nim (p = 3) with one pass, by a direct memoized recursion over (x, y, pass).
fn ryuoh_with_pass(x: u64, y: u64, pass: bool, memo: &mut HashMap<(u64, u64, bool), u32>) -> u32 {
    if let Some(&v) = memo.get(&(x, y, pass)) {
        return v;
    }
    let mut options = Vec::new();
    for u in 0..x {
        options.push((u, y, pass));
    }
    for v in 0..y {
        options.push((x, v, pass));
    }
    if x >= 1 && y >= 1 {
        options.push((x - 1, y - 1, pass));
    }
    // The pass: only while available, never at the terminal position (0, 0).
    if pass && (x, y) != (0, 0) {
        options.push((x, y, false));
    }
    let values: Vec<u32> = options
        .into_iter()
        .map(|(a, b, p)| ryuoh_with_pass(a, b, p, memo))
        .collect();
    let g = mex(values);
    memo.insert((x, y, pass), g);
    g
}

#[test]
fn pass_ryuoh_matches_a_direct_brute_force() {
    let game = parse_game("pass(ryuoh(p=3))").unwrap();
    assert_eq!(game.table_box(40), vec![40, 40, 2]);
    let t = grundy_table(&*game, &[40, 40, 2], &TableOptions::default()).unwrap();
    let mut memo = HashMap::new();
    for (pos, v) in t.iter() {
        let direct = ryuoh_with_pass(pos[0], pos[1], pos[2] == 1, &mut memo);
        assert_eq!(v, direct, "{pos:?}");
    }
    // Without the pass it is Ryuoh Nim: Theorem 3.1.
    for x in 0..40u64 {
        for y in 0..40u64 {
            let f = (x + y) % 3 + 3 * ((x / 3) ^ (y / 3));
            assert_eq!(t.get(&[x, y, 0]).unwrap() as u64, f);
        }
    }
}

#[test]
fn sums_have_the_nim_sum_of_values() {
    let a = parse_game("ryuoh(p=4)").unwrap();
    let b = parse_game("subtraction(s={2,5})").unwrap();
    let sum = parse_game("sum(ryuoh(p=4), subtraction(s={2,5}), nim(heaps=1))").unwrap();
    assert_eq!(sum.dimension(), 4);
    let ta = grundy_table(&*a, &[12, 12], &TableOptions::default()).unwrap();
    let tb = grundy_table(&*b, &[12], &TableOptions::default()).unwrap();
    let t = grundy_table(&*sum, &[12, 12, 12, 12], &TableOptions::default()).unwrap();
    for (pos, v) in t.iter() {
        let expect = ta.get(&pos[..2]).unwrap() ^ tb.get(&pos[2..3]).unwrap() ^ pos[3] as u32;
        assert_eq!(v, expect, "{pos:?}");
    }
}

#[test]
fn transforms_have_canonical_specs_and_refuse_bad_input() {
    assert_eq!(
        parse_game("pass( ryuoh(p=3) )").unwrap().spec(),
        "pass(ryuoh(p=3))"
    );
    assert_eq!(
        parse_game("misere(pass(wythoff))").unwrap().spec(),
        "misere(pass(wythoff))"
    );
    assert_eq!(
        parse_game("sum(wythoff,subtraction(s={1,2}))")
            .unwrap()
            .spec(),
        "sum(wythoff,subtraction(s={1,2}))"
    );
    assert!(parse_game("pass").is_err());
    assert!(parse_game("pass(chess)").is_err());
    assert!(parse_game("sum(misere(nim), nim)").is_err());
    let g = parse_game("pass(wythoff)").unwrap();
    assert!(g.check_position(&[1, 2, 2]).is_err());
    assert!(g.check_position(&[1, 2]).is_err());
    assert!(g.check_position(&[1, 2, 1]).is_ok());
}

#[test]
fn pass_of_a_take_and_break_game_keeps_the_flag_last() {
    use nimlab_engine::plan;
    use nimlab_engine::{Solver, TableOptions};
    // Options of pass(Kayles) may have more or fewer heaps than the position.
    let g = nimlab_games::parse_game("pass(octal(code=0.77))").unwrap();
    let mut s = Solver::new(&*g);
    // Without the pass, the value is Kayles' (flag 0): the nim-sum of the heaps.
    let kayles = nimlab_games::parse_game("octal(code=0.77)").unwrap();
    let mut k = Solver::new(&*kayles);
    for p in [[4u64, 0], [3, 0], [7, 0]] {
        assert_eq!(s.grundy(&p).unwrap(), k.grundy(&p[..1]).unwrap());
    }
    assert_eq!(
        s.grundy(&[3, 5, 0]).unwrap(),
        k.grundy(&[3]).unwrap() ^ k.grundy(&[5]).unwrap()
    );
    for o in g.options(&[4, 1]) {
        assert!(*o.last().unwrap() <= 1);
    }
    let t = plan::table(&*g, &[8, 2], &TableOptions::default()).unwrap();
    assert_eq!(t.table.get(&[4, 0]), Some(k.grundy(&[4]).unwrap()));
    // A sum places parts whose number of heaps changes (written part by part with
    // ';'), also behind a transform; a sum of such sums is refused.
    let s = nimlab_games::parse_game("sum(octal(code=0.77),nim(heaps=1))").unwrap();
    let p = plan::read_position(&*s, "4,4").unwrap();
    assert_eq!(plan::write_position(&*s, &p), "4;4");
    let r = plan::value(&*s, &p, &TableOptions::default()).unwrap();
    assert_eq!(r.grundy, Some((k.grundy(&[4]).unwrap() ^ 4).into()));
    assert!(nimlab_games::parse_game("sum(pass(grundy-game),nim)").is_ok());
    assert!(nimlab_games::parse_game("sum(sum(grundy-game,nim),nim)").is_err());
    assert!(nimlab_games::parse_game("sum(fibonacci-nim,nim)").is_ok());
}
