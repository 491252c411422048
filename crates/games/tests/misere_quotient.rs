//! Misère quotients against the plain definition: for every multiset of up to four
//! heaps below the quotient's bound, the outcome read off the quotient (the product of
//! the heaps' elements lies in the P-portion) equals the multiset kernel's misère value
//! being 0; winning moves are exactly the options the kernel values 0. Known quotients
//! from the papers as exact tests.

use nimlab_engine::misere_quotient::{MisereQuotient, QuotientOptions};
use nimlab_engine::{Coord, Game, Solver};
use nimlab_games::parse_game;

/// Every multiset of `count` heaps of sizes 1..=`max`, sizes non-decreasing.
fn multisets(count: usize, max: Coord) -> Vec<Vec<Coord>> {
    let mut out = vec![vec![]];
    let mut all = vec![];
    for _ in 0..count {
        out = out
            .into_iter()
            .flat_map(|m: Vec<Coord>| {
                let from = m.last().copied().unwrap_or(1);
                (from..=max).map(move |h| {
                    let mut n = m.clone();
                    n.push(h);
                    n
                })
            })
            .collect();
        all.extend(out.iter().cloned());
    }
    all
}

fn quotient(code: &str, max: u64) -> MisereQuotient {
    let game = parse_game(&format!("octal(code={code})")).unwrap();
    MisereQuotient::of_game(game.as_ref(), max, &QuotientOptions::default()).unwrap()
}

/// The quotient's outcomes and winning moves against the multiset kernel.
fn check(code: &str, max_heap: u64, count: usize, window: u64) {
    let q = quotient(code, max_heap);
    let inner = parse_game(&format!("octal(code={code})")).unwrap();
    let game = parse_game(&format!("misere(octal(code={code}))")).unwrap();
    let mut solver = Solver::new(game.as_ref());
    for pos in multisets(count, window) {
        let kernel_p = solver.grundy(&pos).unwrap() == 0;
        assert_eq!(q.is_p(&pos), kernel_p, "0.{code} at {pos:?}: {}", q.presentation);
        if pos.len() <= 2 {
            let a = q
                .analyse(&pos, &|h, visit| inner.for_each_option(&[h], visit))
                .unwrap();
            for (option, winning) in &a.options {
                assert_eq!(*winning, solver.grundy(option).unwrap() == 0, "{code} {pos:?} → {option:?}");
            }
        }
    }
}

#[test]
fn quotient_outcomes_match_the_multiset_kernel_on_a_sample_of_codes() {
    // Two- and three-digit codes, tame and wild, with and without splitting.
    for code in [
        "0.75", "0.77", "0.07", "0.137", "0.6", "0.4", "0.71", "0.26", "0.34", "0.56", "0.35",
        "0.16", "0.53", "0.54", "0.72", "0.126", "0.156", "0.314", "0.176",
    ] {
        check(code, 12, 4, 9);
        check(code, 12, 3, 12);
    }
}

#[test]
fn winning_moves_of_larger_positions_match_the_multiset_kernel() {
    check("0.77", 14, 2, 14);
    check("0.07", 14, 2, 14);
}

#[test]
fn octal_075_has_the_published_quotient_of_order_8() {
    // Plambeck, "Taming the wild in impartial combinatorial games" (2005): the misère
    // quotient of 0.75 is ⟨a, b, c | a² = 1, b³ = b, bc = ab, c² = b²⟩, of order 8 with
    // two P-positions' elements, a and b²; heaps 1, 2, 5 carry the generators.
    let q = quotient("0.75", 40);
    assert_eq!((q.size(), q.p_size()), (8, 2));
    assert_eq!(q.generator_heaps, vec![1, 2, 5]);
    assert_eq!(q.presentation.to_string(), "⟨a, b, c | a² = 1, bc = ab, c² = b², b³ = b⟩");
    assert!(!q.is_tame());
}

#[test]
fn misere_nim_like_games_are_tame() {
    // 0.6 is tame in misère play (its positions behave like misère Nim heaps).
    let q = quotient("0.6", 12);
    assert!(q.is_tame(), "{}", q.presentation);
}
