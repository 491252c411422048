//! Take-away games, Sprague–Grundy systems, mixed-radix sets and Welter's game
//! against brute force; the worked examples of the take-away paper (§4) as exact data.

use crate::common::for_each_point;
use nimlab_engine::big::{parse_big_position, BigUint};
use nimlab_engine::capability::BigPositions;
use nimlab_engine::nimarith::MixedRadix;
use nimlab_engine::theorem::CheckContext;
use nimlab_engine::{Game, Solver};
use nimlab_games::sg_system::{
    check_general_variant, check_system, compare_with_a_beta, minimal_systems, scan_variant, Phi,
    SystemQuery, Violation,
};
use nimlab_games::takeaway::{
    f_beta_witness, in_a_beta, in_c_beta, in_f_beta, in_f_beta_level, MoveSet,
};
use nimlab_games::welter::{welter_function, Welter};
use nimlab_games::{all_theorems, parse_game};

fn beta(t: &str) -> MixedRadix {
    MixedRadix::parse(t).unwrap()
}

#[test]
fn example_4_1() {
    let b = beta("[60,24,7..]");
    assert_eq!(b.digits(1000), vec![40, 16]);
    assert_eq!(b.digits(2000), vec![20, 9, 1]);
    assert_eq!(b.sigma(&[1000, 2000]).unwrap(), 1500);
    assert_eq!(b.digits(1500), vec![0, 1, 1]);
    let phi = Phi::parse("sigma(beta=[60,24,7..])", 2).unwrap();
    assert_eq!(phi.eval(&[1000, 2000]), Some(1500));
}

#[test]
fn examples_4_6_and_4_8() {
    let b = beta("[3..]");
    // C = (2, 10) = ([2], [1,0,1]) and F = (2, 4) = ([2], [1,1]) are not in C^β.
    assert!(!in_c_beta(&b, &[2, 10]) && !in_c_beta(&b, &[2, 4]));
    // F ∉ A^β: σ((1,2) + F) = σ(3,6) = 0 = σ(1,2).
    assert_eq!(b.sigma(&[3, 6]).unwrap(), 0);
    assert_eq!(b.sigma(&[1, 2]).unwrap(), 0);
    assert!(in_f_beta(&b, &[2, 4]) && !in_a_beta(&b, &[2, 4]));
    assert!(f_beta_witness(&b, &[2, 4], 3).is_some());
    // C ∈ A^β (Example 4.8 by the recursion), and no witness on a wide window.
    assert!(in_a_beta(&b, &[2, 10]) && !in_f_beta(&b, &[2, 10]));
    assert_eq!(f_beta_witness(&b, &[2, 10], 81), None);
    // F_0^β = {(0,0), (1,2), (2,1)} for m = 2 (F_0 lies in [0,3)^2).
    let mut f0 = Vec::new();
    for x in 0..9 {
        for y in 0..9 {
            if in_f_beta_level(&b, &[x, y], 1) {
                f0.push((x, y));
            }
        }
    }
    assert_eq!(f0, vec![(0, 0), (1, 2), (2, 1)]);
    // F = ([2], [1,1]) ∈ F_1^β via r = (1,1): F̂ + r = (1, 2) ∈ F_0.
    assert!(!in_f_beta_level(&b, &[2, 4], 1) && in_f_beta_level(&b, &[2, 4], 2));
    // ρ(F) for β = (4,4,…), F = ([3], [0,2]) = (3, 8): r ∈ {0,1} × {0}.
    // (Checked through the recursion: F ∈ F^β needs σ₀(F) = 3 ≡ 0 — false.)
    assert!(!in_f_beta(&beta("[4..]"), &[3, 8]));
}

#[test]
fn a_beta_is_c_beta_exactly_for_b_2_2() {
    for (b, equal) in [
        ("[2..]", true),
        ("[5,2..]", true),
        ("[3..]", false),
        ("[2,3..]", false),
    ] {
        let r = compare_with_a_beta(&MoveSet::CBeta(beta(b)), &beta(b), 2, 40).unwrap();
        assert_eq!(r.outside_a_beta, None, "{b}");
        assert_eq!(r.a_not_c.is_none(), equal, "{b}");
    }
}

/// The query of φ and C on the box [0, size)^2, over all of N^2, not forced.
fn plane<'a>(phi: &'a Phi, moves: &'a MoveSet, size: u64) -> SystemQuery<'a> {
    SystemQuery {
        phi,
        moves,
        positions: None,
        dim: 2,
        size,
        force: false,
    }
}

/// Γ(N^m, C) computed by the plain solver has Grundy function σ^β for C = C^β and A^β.
#[test]
fn takeaway_games_have_sigma_beta_as_grundy_function() {
    for (b, m, n) in [
        ("[3..]", 2usize, 14u64),
        ("[2,3..]", 2, 14),
        ("[3,2..]", 3, 6),
        ("[4..]", 3, 5),
    ] {
        let r = beta(b);
        for set in ["Cbeta", "Abeta"] {
            let g = parse_game(&format!("takeaway(dim={m}, moves={set}(beta={b}))")).unwrap();
            let mut solver = Solver::new(&*g);
            for_each_point(m, n, |x| {
                assert_eq!(
                    solver.grundy(x).unwrap() as u64,
                    r.sigma(x).unwrap(),
                    "{set} {b} at {x:?}"
                );
            });
        }
    }
}

#[test]
fn takeaway_specs_and_moves() {
    let g = parse_game("takeaway(dim=2, moves=[[1,0],[0,1],[2,-1]])").unwrap();
    assert_eq!(g.spec(), "takeaway(dim=2,moves=[[0,1],[1,0],[2,-1]])");
    // (2,0) → (1,0), (0,1)
    let mut o = g.options(&[2, 0]);
    o.sort();
    assert_eq!(o, vec![vec![0, 1], vec![1, 0]]);
    let g =
        parse_game("takeaway(dim=2, moves=c0 + c1 <= 2, take_and_put=true, positions=x0 != x1)")
            .unwrap();
    let mut o = g.options(&[0, 2]);
    o.sort();
    // Y ≠ diagonal with ΣY < 2 and C = X − Y satisfying c0 + c1 ≤ 2: (0,1), (1,0)
    assert_eq!(o, vec![vec![0, 1], vec![1, 0]]);
    assert!(g.check_position(&[1, 1]).is_err());
    for bad in [
        "takeaway(dim=0)",
        "takeaway(dim=7)",
        "takeaway(dim=2, moves=[[1]])",
        "takeaway(dim=2, moves=[[1,-1]])",
        "takeaway(dim=2, moves=Cbeta(beta=[1..]))",
        "takeaway(dim=2, moves=c0 + )",
        "takeaway(dim=2, moves=c0 + c1)",
        "takeaway(dim=2, positions=x0 +)",
        "takeaway(dim=2, take_and_put=maybe)",
    ] {
        assert!(parse_game(bad).is_err(), "{bad}");
    }
}

#[test]
fn sg_system_checks_report_first_violations() {
    let phi = Phi::parse("nimsum", 2).unwrap();
    let nim = MoveSet::parse("C1", 2, false).unwrap();
    let q = plane(&phi, &nim, 16);
    let r = check_system(&q).unwrap();
    assert!(r.holds());
    assert_eq!(r.positions, 256);
    // (1,1) keeps the nim sum: (SG1) fails at (1,1) → (0,0).
    let diag = MoveSet::parse("c0 == 0 || c1 == 0 || c0 == c1", 2, false).unwrap();
    let q2 = SystemQuery { moves: &diag, ..q };
    assert_eq!(
        check_system(&q2).unwrap().violation,
        Some(Violation::Sg1 {
            position: vec![1, 1],
            mv: vec![1, 1],
            target: vec![0, 0],
            value: 0
        })
    );
    // Taking only 1 at a time: (SG2) fails at (2,0), value 2, nothing reaches 0.
    let ones = MoveSet::parse("[[1,0],[0,1]]", 2, false).unwrap();
    let q3 = SystemQuery { moves: &ones, ..q };
    assert_eq!(
        check_system(&q3).unwrap().violation,
        Some(Violation::Sg2 {
            position: vec![2, 0],
            value: 2,
            missing: 0
        })
    );
    // The general path (lists) agrees with the positive path on C^β.
    let b = beta("[3..]");
    let phi3 = Phi::Sigma(b.clone());
    let mut list = Vec::new();
    for x in 0..9i64 {
        for y in 0..9i64 {
            if in_c_beta(&b, &[x as u64, y as u64]) {
                list.push(format!("[{x},{y}]"));
            }
        }
    }
    let listed = MoveSet::parse(&format!("[{}]", list.join(",")), 2, false).unwrap();
    let q4 = plane(&phi3, &listed, 9);
    assert!(check_system(&q4).unwrap().holds());
    // Theorem 3.4's maximum system of σ² with a take-and-put condition holds on a box.
    let max = MoveSet::parse("c0 + c1 > 0", 2, true).unwrap();
    let q5 = plane(&phi, &max, 6);
    assert!(matches!(
        check_system(&q5).unwrap().violation,
        Some(Violation::Sg1 { .. })
    ));
    // A formula φ that is not an SG function and a box too large are clear errors/violations.
    let bad = Phi::parse("x0 + x1", 2).unwrap();
    let q6 = plane(&bad, &nim, 4);
    assert!(!check_system(&q6).unwrap().holds());
    let q7 = SystemQuery {
        size: 1 << 20,
        ..q6
    };
    assert!(check_system(&q7).is_err());
}

#[test]
fn minimal_systems_of_nimhoff_and_sigma3() {
    // σ^[3] = σ^(3,2,2,…): the moves common to all systems form the unique minimal one.
    let phi = Phi::parse("nimhoff(b=3)", 2).unwrap();
    let a = MoveSet::ABeta(beta("[3,2..]"));
    let q = plane(&phi, &a, 12);
    let r = minimal_systems(&q).unwrap();
    assert!(r.necessary_suffice);
    assert_eq!(r.minimal.len(), r.necessary.len());
    assert_eq!(r.least_weight, 2);
    // σ³: not unique.
    let phi = Phi::parse("sigma(beta=[3..])", 2).unwrap();
    let a = MoveSet::ABeta(beta("[3..]"));
    let q = plane(&phi, &a, 12);
    let r = minimal_systems(&q).unwrap();
    assert!(!r.necessary_suffice);
    assert!(r.minimal.len() > r.necessary.len());
}

/// Welter's function = brute force on every position of up to 4 heaps < 16, and the
/// winning moves of the closed form are exactly the brute-force ones.
#[test]
fn welter_closed_form_against_brute_force() {
    for m in 1..=4usize {
        let game = Welter { heaps: m };
        let mut solver = Solver::new(&game);
        for_each_point(m, 16, |x| {
            let mut s = x.to_vec();
            s.sort();
            s.dedup();
            if s.len() == m {
                let g = solver.grundy(x).unwrap() as u64;
                assert_eq!(welter_function(x), g, "{x:?}");
                if m <= 3 || x.iter().sum::<u64>() % 7 == 0 {
                    let big: Vec<BigUint> = x.iter().map(|&v| BigUint::from(v)).collect();
                    let a = game.analyse_big(&big).unwrap().unwrap();
                    let mut got: Vec<Vec<u64>> = a
                        .winning_moves
                        .iter()
                        .map(|p| p.iter().map(|c| u64::try_from(c).unwrap()).collect())
                        .collect();
                    got.sort();
                    let mut want: Vec<Vec<u64>> = Vec::new();
                    for o in game.options(x) {
                        if solver.grundy(&o).unwrap() == 0 {
                            want.push(o);
                        }
                    }
                    want.sort();
                    assert_eq!(got, want, "{x:?}");
                }
            }
        });
    }
}

#[test]
fn welter_big_heaps() {
    let game = Welter { heaps: 3 };
    let p = parse_big_position("123456789012345678901234567890,98765432109876543210,5").unwrap();
    let a = game.analyse_big(&p).unwrap().unwrap();
    assert!(!a.winning_moves.is_empty() || a.grundy == Some(BigUint::default()));
    for mv in &a.winning_moves {
        assert_eq!(nimlab_games::welter::welter_big(mv), BigUint::default());
    }
    assert!(game
        .analyse_big(&parse_big_position("7,7,1").unwrap())
        .unwrap()
        .is_err());
}

#[test]
fn new_theorems_hold() {
    let ctx = CheckContext::with_size(64);
    let mut ids = Vec::new();
    for t in all_theorems() {
        if t.id.starts_with("irie.") || t.id.starts_with("welter.") {
            let v = t.verify(&ctx).unwrap();
            assert!(v.holds(), "{}: {v:?}", t.id);
            ids.push(t.id.clone());
        }
    }
    for id in [
        "irie.thm-3.3",
        "irie.thm-3.4",
        "irie.thm-4.3",
        "irie.thm-4.4",
        "irie.thm-4.5",
        "irie.thm-4.7",
        "irie.max-system",
        "welter.conway",
    ] {
        assert!(ids.iter().any(|i| i == id), "{id}");
    }
}

#[test]
fn rules_files_take_named_move_sets() {
    use nimlab_games::rules::RulesGame;
    let text = r#"
        name = "mixed-radix"
        dimension = 2
        params = { p = 3 }
        moves = "Abeta(beta=[p, 2..])"
        grundy = "sigma(beta=[p, 2..], x, y)"
    "#;
    let game = RulesGame::from_toml(text, "inline").unwrap();
    let mut solver = Solver::new(&game);
    let b = beta("[3,2..]");
    for x in 0..12 {
        for y in 0..12 {
            assert_eq!(
                solver.grundy(&[x, y]).unwrap() as u64,
                b.sigma(&[x, y]).unwrap()
            );
        }
    }
    let bad = text.replace("Abeta(beta=[p, 2..])", "Cbeta(beta=[q..])");
    let e = RulesGame::from_toml(&bad, "inline")
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("'q' is not a base"), "{e}");
}

/// The scan gives the same first violation with every packing and both ways of
/// looking membership up.
#[test]
fn scan_variants_agree() {
    let cases = [
        ("sigma(beta=[3..])", "Cbeta(beta=[3..])", 2usize, 20u64),
        ("sigma(beta=[3..])", "C1", 2, 20),
        ("nimsum", "c0 == 0 || c1 == 0 || c0 == c1", 2, 12),
        ("nimsum", "c0 + c1 + c2 <= 3", 3, 8),
        ("sigma(beta=[2,3..])", "Abeta(beta=[2,3..])", 3, 9),
        ("x0 + x1", "C1", 2, 6),
    ];
    for (phi, moves, dim, size) in cases {
        let phi = Phi::parse(phi, dim).unwrap();
        let moves = MoveSet::parse(moves, dim, false).unwrap();
        let q = SystemQuery {
            phi: &phi,
            moves: &moves,
            positions: None,
            dim,
            size,
            force: false,
        };
        let reference = scan_variant(&q, 128, false).unwrap();
        for packed in [false, true] {
            assert_eq!(scan_variant(&q, 32, packed).unwrap(), reference);
            assert_eq!(scan_variant(&q, 64, packed).unwrap(), reference);
            assert_eq!(scan_variant(&q, 128, packed).unwrap(), reference);
        }
        // And the general path (every candidate move) agrees on holding or not.
        let general = check_general_variant(&q).unwrap();
        assert_eq!(general.violation.is_none(), reference.is_none());
    }
}
