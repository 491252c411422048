//! n-player games: the closed form for Nim (Theorems A and B and the classes that
//! follow) against the plain recursion, best moves, big heaps, and the transforms.

use nimlab_engine::big::{parse_big_position, BigUint};
use nimlab_engine::nplayer::{class_table, ClassSolver, NPlayerClosedForm, NPlayerGame, Ranking};
use nimlab_engine::theorem::{CheckContext, Verdict};
use nimlab_engine::{plan, Coord, Game, Solver, TableOptions};
use nimlab_games::nim::Nim;
use nimlab_games::nplayer_nim::Kano;
use nimlab_games::parse_game;

fn rankings() -> Vec<Ranking> {
    let mut out = Vec::new();
    for n in 2..=5 {
        for l in 1..=n {
            out.push(Ranking::retreat(n, l).unwrap());
        }
    }
    out
}

#[test]
fn closed_form_classes_match_the_recursion() {
    let opts = TableOptions::default();
    for ranking in rankings() {
        for (m, side) in [(1usize, 64usize), (2, 24), (3, 10), (4, 6)] {
            let game = NPlayerGame::new(Box::new(Nim { heaps: m }), ranking.clone());
            let t = class_table(&game, &ranking, &vec![side; m], &opts).unwrap();
            for (pos, class) in t.iter() {
                assert_eq!(
                    Kano.class_small(&pos, &ranking),
                    Some(class),
                    "n={} {} at {pos:?}",
                    ranking.players(),
                    ranking.spec()
                );
            }
        }
    }
}

#[test]
fn closed_form_best_moves_are_best() {
    for ranking in rankings() {
        let game = NPlayerGame::new(Box::new(Nim { heaps: 3 }), ranking.clone());
        let mut s = ClassSolver::new(&game, &ranking);
        let n = ranking.players();
        for a in 0..7u64 {
            for b in 0..7u64 {
                for c in 0..7u64 {
                    let pos = [a, b, c];
                    let big: Vec<BigUint> = pos.iter().map(|&h| h.into()).collect();
                    let found = Kano.classify_big(&big, &ranking).unwrap().unwrap();
                    assert_eq!(found.class, s.class(&pos).unwrap());
                    // The best rank among all options.
                    let best = game
                        .options(&pos)
                        .iter()
                        .map(|o| ranking.mover_rank_after(s.class(o).unwrap()))
                        .min();
                    assert_eq!(best.is_none(), found.best_moves.is_empty(), "{pos:?}");
                    for m in &found.best_moves {
                        let o: Vec<Coord> = m.iter().map(|h| h.try_into().unwrap()).collect();
                        assert!(game.options(&pos).contains(&o), "{pos:?} → {o:?}");
                        let r = ranking.mover_rank_after(s.class(&o).unwrap());
                        assert_eq!(Some(r), best, "n={n} {} {pos:?} → {o:?}", ranking.spec());
                    }
                }
            }
        }
    }
}

#[test]
fn spec_worked_example_and_ranks() {
    let game = parse_game("nplayer-nim(n=3)").unwrap();
    let r = plan::value(
        &*game,
        &parse_big_position("14,11,10,7").unwrap(),
        &TableOptions::default(),
    )
    .unwrap();
    let np = r.nplayer.unwrap();
    // 3-nim sum 23 ≠ 0: not class 0; the recursion agrees with the closed form.
    let ranking = Ranking::normal(3).unwrap();
    let inner = NPlayerGame::new(Box::new(Nim { heaps: 4 }), ranking.clone());
    let class = ClassSolver::new(&inner, &ranking)
        .class(&[14, 11, 10, 7])
        .unwrap();
    assert_eq!(np.class, class);
    assert_ne!(class, 0);
    assert_eq!(np.ranks, ranking.ranks(class));
    assert_eq!(r.method.id(), "closed-form");
    assert!(np.all_best_moves && !np.best_moves.is_empty());
}

#[test]
fn two_players_are_normal_and_misere_nim() {
    let normal = Ranking::normal(2).unwrap();
    let misere = Ranking::retreat(2, 2).unwrap();
    let nim = Nim { heaps: 3 };
    let mis = parse_game("misere(nim(heaps=3))").unwrap();
    let mut g = Solver::new(&nim);
    let mut gm = Solver::new(&*mis);
    for a in 0..8u64 {
        for b in 0..8u64 {
            for c in 0..8u64 {
                let p = [a, b, c];
                assert_eq!(
                    Kano.class_small(&p, &normal) == Some(0),
                    g.grundy(&p).unwrap() == 0
                );
                let last =
                    normal.players() == misere.ranks(Kano.class_small(&p, &misere).unwrap())[0];
                assert_eq!(last, gm.grundy(&p).unwrap() == 0, "{p:?}");
            }
        }
    }
}

#[test]
fn big_heaps_in_closed_form() {
    let digits = "7".repeat(10_000);
    let text = format!("{digits},{}3,{}1", "5".repeat(9_999), "2".repeat(9_998));
    let pos = parse_big_position(&text).unwrap();
    for ranking in [
        Ranking::normal(3).unwrap(),
        Ranking::retreat(3, 2).unwrap(),
        Ranking::normal(5).unwrap(),
    ] {
        let found = Kano.classify_big(&pos, &ranking).unwrap().unwrap();
        assert!(!found.best_moves.is_empty());
        let n = ranking.players() as u32;
        let l = match ranking.kind() {
            nimlab_engine::nplayer::RankingKind::Retreat(l) => l as u32,
            _ => 1,
        };
        let rho = (found.class + n - (l - 1)) % n;
        for m in &found.best_moves {
            // One heap lowered; the option is one step closer to ranking last.
            let changed: Vec<usize> = (0..3).filter(|&i| m[i] != pos[i]).collect();
            assert_eq!(changed.len(), 1);
            assert!(m[changed[0]] < pos[changed[0]]);
            let next = Kano.classify_big(m, &ranking).unwrap().unwrap();
            let next_rho = (next.class + n - (l - 1)) % n;
            if rho == 0 {
                assert_eq!(next_rho, n - 1);
            } else {
                assert_eq!(next_rho, rho - 1);
            }
        }
    }
}

#[test]
fn shorthand_is_the_transform() {
    for spec in [
        "nplayer-nim(n=3)",
        "nplayer-nim(n=4,ranking=retreat(2))",
        "nplayer-nim(n=3,ranking=perm(2,1,3))",
    ] {
        assert!(
            nimlab_games::nplayer_nim::same_as_transform(spec).unwrap(),
            "{spec}"
        );
        assert_eq!(parse_game(spec).unwrap().spec(), spec);
    }
    let g = parse_game("nplayer(subtraction(s={1,2}), n=3, ranking=perm(1,3,2))").unwrap();
    assert_eq!(
        g.spec(),
        "nplayer(subtraction(s={1,2}),n=3,ranking=perm(1,3,2))"
    );
    assert_eq!(parse_game(&g.spec()).unwrap().spec(), g.spec());
    for bad in [
        "nplayer(nim,n=1)",
        "nplayer(nim,n=65)",
        "nplayer(nim,n=3,ranking=retreat(4))",
        "nplayer(nim,n=3,ranking=perm(1,2))",
        "nplayer(nim,n=3,ranking=perm(1,1,2))",
        "nplayer(nim,n=3,ranking=best)",
        "nplayer(nplayer-nim)",
        "sum(nplayer-nim,nim)",
        "misere(nplayer(nim))",
        "pass(nplayer-nim(n=4))",
    ] {
        assert!(parse_game(bad).is_err(), "{bad}");
    }
}

#[test]
fn general_sigma_games_use_the_recursion() {
    let g = parse_game("nplayer-nim(n=3,ranking=perm(2,1,3))").unwrap();
    let r = plan::value(
        &*g,
        &parse_big_position("3,4,5").unwrap(),
        &TableOptions::default(),
    )
    .unwrap();
    assert_eq!(r.method.id(), "brute-force");
    let big = parse_big_position(&"9".repeat(30)).unwrap();
    assert!(plan::value(&*g, &big, &TableOptions::default()).is_err());
    // Tables: closed form for normal/retreat, recursion otherwise; same values.
    // Small boxes by the recursion (faster); large ones by the closed form.
    let a = parse_game("nplayer-nim(n=4,ranking=retreat(3),heaps=1)").unwrap();
    let small = plan::table(&*a, &[300], &TableOptions::default()).unwrap();
    assert_eq!(small.method.id(), "brute-force");
    let large = plan::table(&*a, &[40_000], &TableOptions::default()).unwrap();
    assert_eq!(large.method.id(), "closed-form");
    assert_eq!(&large.table.values()[..300], small.table.values());
    let b = parse_game("nplayer-nim(n=4,ranking=retreat(3))").unwrap();
    let t2 = plan::computed_table(&*b, &[12, 12], &TableOptions::default()).unwrap();
    assert_eq!(t2.method.id(), "brute-force");
}

#[test]
fn registered_theorems_hold() {
    let ctx = CheckContext::with_size(64);
    for t in nimlab_games::all_theorems()
        .into_iter()
        .filter(|t| t.id.starts_with("nplayer"))
    {
        let v = t.verify(&ctx).unwrap();
        assert!(v.holds(), "{}: {v:?}", t.id);
    }
}

#[test]
fn theorem_a_fails_at_heap_5_for_take_one_or_two() {
    // The registered negative result searches the heaps below 64 (its window at size 64)
    // and reports the first counterexample it finds: (heap, 3-nim sum, class).
    let theorem = nimlab_games::all_theorems()
        .into_iter()
        .find(|t| t.id == "nplayer.theorem-a-fails-for-restricted-takes")
        .expect("the theorem is registered");
    let found = match theorem.verify(&CheckContext::with_size(64)).unwrap() {
        Verdict::Holds { window, checked } => {
            assert!(window.starts_with("[0,64): "), "{window}");
            let number = |after: &str| -> u64 {
                let rest = &window[window.find(after).expect(after) + after.len()..];
                let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
                digits.parse().expect("a number")
            };
            let found = (
                number("heap "),
                number("3-nim sum "),
                number("its class is "),
            );
            assert_eq!(checked, found.0 + 1, "{window}");
            Some((found.0, found.1, found.2 as u32))
        }
        Verdict::Fails { .. } => None,
    };
    assert_eq!(found, Some((5, 10, 0)));
}
