//! The games' own explanations of winning moves (`Game::explain_move`), checked
//! against brute force: they are given for exactly the P-positions, and say why.

use nimlab_engine::big::BigUint;
use nimlab_engine::Solver;

fn big(p: &[u64]) -> Vec<BigUint> {
    p.iter().map(|&c| BigUint::from(c)).collect()
}

#[test]
fn wythoff_pairs_in_zeckendorf_are_exactly_the_p_positions() {
    let game = nimlab_games::parse_game("wythoff").unwrap();
    let mut solver = Solver::new(&*game);
    for x in 0..60u64 {
        for y in 0..60u64 {
            let p = solver.grundy(&[x, y]).unwrap() == 0;
            let words = game.explain_move(&big(&[x + 1, y]), &big(&[x, y]));
            assert_eq!(words.is_some(), p, "({x},{y}): {words:?}");
        }
    }
    let words = game.explain_move(&big(&[4, 6]), &big(&[3, 5])).unwrap();
    assert!(
        words.contains("3 = 100") && words.contains("5 = 1000"),
        "{words}"
    );
}

#[test]
fn fibonacci_nim_explains_p_positions_by_the_smallest_term() {
    for k in [1u64, 2] {
        let game = nimlab_games::parse_game(&format!("fibonacci-nim(k={k})")).unwrap();
        let mut solver = Solver::new(&*game);
        for n in 1..80u64 {
            for limit in 1..n {
                if solver.grundy(&[n, limit]).unwrap() != 0 {
                    continue;
                }
                let words = game
                    .explain_move(&big(&[n + 1, n]), &big(&[n, limit]))
                    .unwrap();
                // "... smallest term w = W, more than the LIMIT the opponent may take"
                let w: u64 = words
                    .split("smallest term w = ")
                    .nth(1)
                    .and_then(|t| t.split(',').next())
                    .and_then(|t| t.parse().ok())
                    .unwrap_or_else(|| panic!("{words}"));
                assert!(w > limit, "k={k} ({n},{limit}): {words}");
            }
        }
    }
    let g2 = nimlab_games::parse_game("fibonacci-nim(k=1)").unwrap();
    assert!(g2
        .explain_move(&big(&[20]), &big(&[16, 4]))
        .unwrap()
        .contains("16 = 10000"));
}

#[test]
fn ryuoh_and_nim_show_the_theorem_at_work() {
    let ryuoh = nimlab_games::parse_game("ryuoh(p=3)").unwrap();
    let words = ryuoh.explain_move(&big(&[4, 7]), &big(&[4, 5])).unwrap();
    assert!(
        words.contains("(4+5) mod 3 = 0") && words.contains("1 ⊕ 1 = 0"),
        "{words}"
    );
    let nim = nimlab_games::parse_game("nim").unwrap();
    let words = nim.explain_move(&big(&[5, 2]), &big(&[2, 2])).unwrap();
    assert!(words.contains("10 ⊕ 10 = 00"), "{words}");
    // Transforms do not borrow the inner game's words: misère Nim is another game.
    let misere = nimlab_games::parse_game("misere(nim)").unwrap();
    assert!(misere.explain_move(&big(&[2, 2]), &big(&[1, 1])).is_none());
}

/// Heaps too wide for binary columns (a formatting width is limited to 65 535) are
/// told without them; narrow ones keep theirs.
#[test]
fn nim_explains_huge_heaps_without_columns() {
    let nim = nimlab_games::parse_game("nim").unwrap();
    let huge: nimlab_engine::big::BigUint = "9".repeat(30_000).parse().unwrap();
    let one = nimlab_engine::big::BigUint::from(1u32);
    let words = nim
        .explain_move(&[huge.clone(), one.clone()], &[huge.clone(), one])
        .unwrap();
    assert!(
        words.contains("99658 binary columns (too wide to show)"),
        "{words}"
    );
    assert!(words.contains("player to move wins"), "{words}");
    let zero = nim
        .explain_move(&[huge.clone(), huge.clone()], &[huge.clone(), huge])
        .unwrap();
    assert!(
        zero.starts_with("the nim-sum of the heaps is 0 (Bouton): 99658 binary"),
        "{zero}"
    );
    let words = nimlab_games::nim::nim_sum_in_binary(&big(&[1 << 40, 1]));
    assert!(
        words.contains(&format!("{:041b} ⊕ {:041b}", 1u64 << 40, 1)),
        "{words}"
    );
}
