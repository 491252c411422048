//! `prove` on the seeds' theorems: each proved claim also passes `check` on a window,
//! and each refuted claim's counterexample is confirmed by the solver.

use nimlab_engine::TableOptions;
use nimlab_formula::check::{check_box, Claim};
use nimlab_formula::prove::{prove, Numeration, ProveError, Verdict};
use nimlab_games::parse_game;

fn proved(spec: &str, claim: Claim, text: &str, num: Numeration) {
    let game = parse_game(spec).unwrap();
    let proof = prove(&*game, claim, text, num, &Default::default())
        .unwrap_or_else(|e| panic!("{spec} {text}: {e}"));
    if let Verdict::False(c) = &proof.verdict {
        panic!("{spec} '{text}' refuted: {} {}", c.statement, c.explanation);
    }
    // the proof agrees with brute force on a window
    let size = match game.dimension() {
        1 => 200,
        2 => 24,
        _ => 10,
    };
    let c = check_box(
        &*game,
        text,
        claim,
        &[],
        size,
        &TableOptions::default(),
        5,
        false,
    )
    .unwrap();
    assert_eq!(
        c.report.mismatch_count, 0,
        "{spec} '{text}': {:?}",
        c.report.mismatches
    );
}

/// `right` is proved the Grundy function of `spec`, and `wrong` refuted: the
/// counterexample the solver confirms.
fn grundy_proved_and_refuted(spec: &str, right: &str, wrong: &str, num: Numeration) -> Vec<u128> {
    proved(spec, Claim::Grundy, right, num);
    refuted(spec, Claim::Grundy, wrong, num)
}

/// The least violation's position and the position where the solver disagrees.
fn refuted(spec: &str, claim: Claim, text: &str, num: Numeration) -> Vec<u128> {
    refuted_at(spec, claim, text, num).0
}

fn refuted_at(spec: &str, claim: Claim, text: &str, num: Numeration) -> (Vec<u128>, Vec<u128>) {
    let game = parse_game(spec).unwrap();
    let proof = prove(&*game, claim, text, num, &Default::default())
        .unwrap_or_else(|e| panic!("{spec} {text}: {e}"));
    let Verdict::False(c) = proof.verdict else {
        panic!("{spec} '{text}' was proved")
    };
    let (at, why) = c
        .confirmed
        .clone()
        .unwrap_or_else(|| panic!("{spec} '{text}': not confirmed ({})", c.recheck_note));
    assert!(!why.is_empty());
    let big = |p: &[nimlab_engine::big::BigUint]| -> Vec<u128> {
        p.iter().map(|b| u128::try_from(b).unwrap()).collect()
    };
    (big(&c.position), big(&at))
}

const B2: Numeration = Numeration::Base(2);

#[test]
fn bouton_two_and_three_heaps() {
    proved("nim", Claim::Grundy, "x xor y", B2);
    proved("nim(heaps=3)", Claim::Grundy, "x0 xor x1 xor x2", B2);
    proved("nim", Claim::PPositions, "x == y", B2);
    refuted("nim", Claim::Grundy, "x + y", B2);
}

#[test]
fn ryuoh_theorem_3_1() {
    for p in 1..=6 {
        proved(
            &format!("ryuoh(p={p})"),
            Claim::Grundy,
            &format!("(x+y)%{p} + {p}*((x/{p}) xor (y/{p}))"),
            B2,
        );
    }
    // x xor y is Nim's value, not Ryuoh's: (1,1) → (0,0) keeps it 0
    let x = refuted("ryuoh(p=3)", Claim::Grundy, "x xor y", B2);
    assert_eq!(x, vec![1, 1]);
}

#[test]
fn subtraction_games() {
    proved("subtraction(s={1,2,3})", Claim::Grundy, "n % 4", B2);
    proved(
        "subtraction(s={1,2,3})",
        Claim::PPositions,
        "n % 4 == 0",
        B2,
    );
    // S = {2, 3}: G = 0,0,1,1,2, 0,0,1,1,2 … (period 5, no preperiod); S = {1, 4}:
    // period 5 with values 0,1,0,1,2
    proved("subtraction(s={2,3})", Claim::Grundy, "(n % 5) / 2", B2);
    proved(
        "subtraction(s={1,4})",
        Claim::Grundy,
        "if n % 5 == 4 then 2 else n % 5 % 2",
        B2,
    );
    // S = {2, 4, 7}: preperiod 8 (0 0 1 1 2 2 0 3), then period 3 (1 0 2)
    let s247 = "if n < 6 then n / 2 else if n == 6 then 0 else if n == 7 then 3 \
                else if n % 3 == 2 then 1 else if n % 3 == 0 then 0 else 2";
    proved("subtraction(s={2,4,7})", Claim::Grundy, s247, B2);
    // the period alone from n = 0 is wrong (first at n = 0: it says 0 … at n = 2)
    refuted(
        "subtraction(s={2,4,7})",
        Claim::Grundy,
        "if n % 3 == 2 then 1 else if n % 3 == 0 then 0 else 2",
        B2,
    );
    let x = refuted("subtraction(s={1,2,3})", Claim::Grundy, "n % 3", B2);
    assert_eq!(x, vec![3]);
}

#[test]
fn wrong_only_beyond_2_to_the_40() {
    let x = refuted(
        "nim",
        Claim::Grundy,
        "if x >= 1099511627776 then 0 else x xor y",
        B2,
    );
    assert!(x[0] >= 1 << 40, "{x:?}");
}

#[test]
fn not_expressible_is_named() {
    let game = parse_game("nim").unwrap();
    let e = prove(&*game, Claim::Grundy, "x * y", B2, &Default::default()).unwrap_err();
    assert!(matches!(e, ProveError::NotExpressible { .. }), "{e}");
    assert!(e.to_string().contains("column 3"), "{e}");
    let e = prove(
        &*game,
        Claim::Grundy,
        "popcount(x) + y",
        B2,
        &Default::default(),
    )
    .unwrap_err();
    assert!(e.to_string().contains("popcount"), "{e}");
}

#[test]
fn take_away_games_ii_and_iii() {
    // Game II: P iff the lowest set bit of the heap exceeds the limit
    proved(
        "fibonacci-nim(k=1)",
        Claim::PPositions,
        "heap == 0 || heap - (heap & (heap - 1)) > limit",
        B2,
    );
    // Game III (Fibonacci Nim): the same with ℓ(n), the least Zeckendorf term
    proved(
        "fibonacci-nim(k=2)",
        Claim::PPositions,
        "heap == 0 || zeck_low(heap) > limit",
        Numeration::Fib,
    );
    // Game III's rule is not Game II's
    refuted(
        "fibonacci-nim(k=2)",
        Claim::PPositions,
        "heap == 0 || heap - (heap & (heap - 1)) > limit",
        B2,
    );
}

#[test]
fn wythoff_pairs_in_zeckendorf() {
    // P-positions: {⌊nφ⌋, ⌊nφ⌋ + n}
    proved(
        "wythoff",
        Claim::PPositions,
        "min(x, y) == floor_phi(abs(x - y))",
        Numeration::Fib,
    );
    // the seed's strategy read literally: p = up(n) = ⌊(n+1)φ⌋ − 1 — wrong at {1, 2}
    let (_, wrong) = refuted_at(
        "wythoff",
        Claim::PPositions,
        "min(x, y) == floor_phi(abs(x - y) + 1) - 1",
        Numeration::Fib,
    );
    // it calls {2, 3} a P-position (it is N: move to {1, 2})
    let mut w = wrong.clone();
    w.sort();
    assert_eq!(w, vec![2, 3], "{wrong:?}");
}

#[test]
fn chocolate_staircase_bars() {
    // f(t) = ⌊t/2⌋ satisfies condition (a): G = y ⊕ z
    proved("chocolate-staircase(f=t/2)", Claim::Grundy, "y xor z", B2);
    proved("chocolate-staircase(f=t/4)", Claim::Grundy, "y xor z", B2);
    proved(
        "chocolate-staircase(f=t/2, strip=true)",
        Claim::PPositions,
        "x xor y xor z == 0",
        B2,
    );
    // ⌊t/3⌋ fails (a): G({1,3}) = 4, not 1 ⊕ 3
    refuted("chocolate-staircase(f=t/3)", Claim::Grundy, "y xor z", B2);
}

/// Every declared move relation agrees with the game's own options on a window.
#[test]
fn move_relations_match_the_options() {
    use nimlab_formula::Formula;
    let specs = [
        "nim",
        "nim(heaps=3)",
        "ryuoh(p=1)",
        "ryuoh(p=4)",
        "wythoff",
        "subtraction(s={2,4,7})",
        "fibonacci-nim(k=1)",
        "fibonacci-nim(k=2)",
        "chocolate-staircase(f=t/2)",
        "chocolate-staircase(f=t/3, strip=true)",
        "takeaway(dim=2, moves=C1)",
        "takeaway(dim=2, moves=Cbeta(beta=[2..]))",
        "takeaway(dim=3, moves=Cbeta(beta=[2..]))",
        "takeaway(dim=2, moves=Cbeta(beta=[3..]))",
        "takeaway(dim=2, moves=Cbeta(beta=[2,3..]))",
        "takeaway(dim=2, moves=Cbeta(beta=[4,2,3..]))",
        "takeaway(dim=3, moves=Cbeta(beta=[3..]))",
        // repeating blocks, read one block per base-6 digit
        "takeaway(dim=2, moves=Cbeta(beta=[(2,3)..]))",
        "takeaway(dim=2, moves=Cbeta(beta=[(3,2)..]))",
        "takeaway(dim=2, moves=Cbeta(beta=[2,(2,3)..]))",
        "rules(file=../../examples/ryuoh.toml)",
        "rules(file=../../examples/moore3.toml)",
    ];
    for spec in specs {
        let game = parse_game(spec).unwrap();
        let rel = game.capabilities().move_relation.expect("declared");
        let names = game.coordinate_names();
        let m = names.len();
        let mut vars: Vec<String> = names.clone();
        vars.extend(names.iter().map(|n| format!("{n}_")));
        let refs: Vec<&str> = vars.iter().map(String::as_str).collect();
        let f = Formula::compile(&rel.options, &refs).unwrap();
        let side: u64 = if m == 1 {
            40
        } else if spec.contains("(2,3)") || spec.contains("(3,2)") {
            // far enough to reach β-orders 0 … 3 (12 = 2·6 has order 3 for (2,3))
            14
        } else if m == 2 {
            9
        } else {
            5
        };
        let cells = side.pow(m as u32);
        let unpack = |mut i: u64| -> Vec<u64> {
            (0..m)
                .map(|_| {
                    let c = i % side;
                    i /= side;
                    c
                })
                .collect()
        };
        for a in 0..cells {
            let x = unpack(a);
            if game.position_error(&x).is_some() {
                continue;
            }
            let mut want: Vec<Vec<u64>> = Vec::new();
            game.for_each_option(&x, &mut |o| want.push(o.to_vec()));
            want.sort();
            want.dedup();
            let mut got = Vec::new();
            for b in 0..cells {
                let y = unpack(b);
                let vals: Vec<i64> = x.iter().chain(&y).map(|&c| c as i64).collect();
                if f.eval(&vals).map(|v| v != 0).unwrap_or(false) {
                    got.push(y);
                }
            }
            got.sort();
            assert_eq!(got, want, "{spec} at {x:?}");
        }
    }
}

#[test]
fn take_away_games_and_rules_files() {
    // Irie, Theorem 4.3 for β = [2..]: C^β is an SG system of σ² (= xor)
    proved(
        "takeaway(dim=2, moves=Cbeta(beta=[2..]))",
        Claim::Grundy,
        "x xor y",
        B2,
    );
    proved(
        "takeaway(dim=3, moves=Cbeta(beta=[2..]))",
        Claim::Grundy,
        "x0 xor x1 xor x2",
        B2,
    );
    // Theorem 4.3 for β = [3..] and [2,3..] (read in base 3, the prefix by division)
    for beta in ["[3..]", "[2,3..]"] {
        proved(
            &format!("takeaway(dim=2, moves=Cbeta(beta={beta}))"),
            Claim::Grundy,
            &format!("sigma(beta={beta}, x, y)"),
            Numeration::Base(3),
        );
    }
    // σ^[3..] is not the SG function of C^[2,3..] (nor the other way round)
    refuted(
        "takeaway(dim=2, moves=Cbeta(beta=[2,3..]))",
        Claim::Grundy,
        "sigma(beta=[3..], x, y)",
        Numeration::Base(3),
    );
    refuted(
        "takeaway(dim=2, moves=Cbeta(beta=[3..]))",
        Claim::Grundy,
        "sigma(beta=[2,3..], x, y)",
        Numeration::Base(3),
    );
    // a rules file: its params (p = 3) are folded into the relation and the claim
    proved(
        "rules(file=../../examples/ryuoh.toml)",
        Claim::Grundy,
        "(x+y)%3 + 3*((x/3) xor (y/3))",
        B2,
    );
}

/// Irie's Theorem 4.3 for an eventually periodic β with a repeating block of two
/// bases, β = (2, 3, 2, 3, …): read in base 6, one block per digit.
#[test]
fn irie_c_beta_with_a_repeating_block() {
    let b6 = Numeration::Base(6);
    // the block in the other order is another game; each σ refutes the other's claim,
    // and the solver confirms the counterexample
    let at = grundy_proved_and_refuted(
        "takeaway(dim=2, moves=Cbeta(beta=[(2,3)..]))",
        "sigma(beta=[(2,3)..], x, y)",
        "sigma(beta=[(3,2)..], x, y)",
        b6,
    );
    assert_eq!(at, vec![1, 2]);
}

/// The automaton of g = σ^β(x, y) (β = a prefix then a repeating block, read in the
/// block's product as base) against the engine's σ^β on a window: accepts exactly the true triples.
#[test]
fn mixed_radix_sigma_automaton_matches_brute_force() {
    use nimlab_engine::nimarith::MixedRadix;
    for (beta, base) in [
        ("[3..]", 3u32),
        ("[2,3..]", 3),
        ("[4,2,3..]", 3),
        ("[3,2..]", 2),
        ("[(2,3)..]", 6),
        ("[(3,2)..]", 6),
        ("[2,(2,3)..]", 6),
    ] {
        let spec = format!("takeaway(dim=2, moves=Cbeta(beta={beta}))");
        let game = parse_game(&spec).unwrap();
        let num = Numeration::Base(base);
        let text = format!("sigma(beta={beta}, x, y)");
        let proof = prove(&*game, Claim::Grundy, &text, num, &Default::default())
            .unwrap_or_else(|e| panic!("{spec}: {e}"));
        let phi = &proof.automata.iter().find(|(n, _)| n == "phi").unwrap().1;
        let r = MixedRadix::parse(beta).unwrap();
        for x in 0..40u64 {
            for y in 0..40u64 {
                let g = r.sigma(&[x, y]).unwrap();
                for (cand, want) in [(g, true), (g + 1, false), (g.saturating_sub(1), g == 0)] {
                    let len = 8;
                    let tracks = [
                        num.encode(x as u128, len),
                        num.encode(y as u128, len),
                        num.encode(cand as u128, len),
                    ];
                    assert_eq!(
                        phi.accepts(&tracks),
                        want,
                        "{beta}: σ({x},{y}) = {g}, tried {cand}"
                    );
                }
            }
        }
    }
}

/// Irie's A^β (the maximum positive system of σ^β): its relation holds a ∀ over
/// Z ∈ N^m, which only the automata decide. The move automaton against takeaway.rs's own
/// options (Theorem 4.7's F^β) on a window; σ^β proved the Grundy function; a wrong
/// claim refuted and the solver confirms it.
#[test]
fn irie_a_beta_with_a_universal_quantifier() {
    let b3 = Numeration::Base(3);
    for beta in ["[3..]", "[2,3..]"] {
        let spec = format!("takeaway(dim=2, moves=Abeta(beta={beta}))");
        let game = parse_game(&spec).unwrap();
        let rel = game.capabilities().move_relation.expect("declared");
        assert!(rel.options.contains("all("), "{}", rel.options);
        let text = format!("sigma(beta={beta}, x, y)");
        let proof = prove(&*game, Claim::Grundy, &text, b3, &Default::default())
            .unwrap_or_else(|e| panic!("{spec}: {e}"));
        assert!(matches!(proof.verdict, Verdict::Proved), "{spec}");
        let mv = &proof.automata.iter().find(|(n, _)| n == "move").unwrap().1;
        let side = 10u64;
        for x in 0..side {
            for y in 0..side {
                let mut want: Vec<Vec<u64>> = Vec::new();
                game.for_each_option(&[x, y], &mut |o| want.push(o.to_vec()));
                want.sort();
                let mut got = Vec::new();
                for x_ in 0..side {
                    for y_ in 0..side {
                        let tracks: Vec<Vec<u32>> = [x, y, x_, y_]
                            .iter()
                            .map(|&v| b3.encode(v as u128, 4))
                            .collect();
                        if mv.accepts(&tracks) {
                            got.push(vec![x_, y_]);
                        }
                    }
                }
                assert_eq!(got, want, "{spec} at {x},{y}");
            }
        }
    }
    // σ^[2,3..] is not the SG function of A^[3..]: (1,1) → (0,0) keeps it 0
    let at = grundy_proved_and_refuted(
        "takeaway(dim=2, moves=Abeta(beta=[3..]))",
        "sigma(beta=[3..], x, y)",
        "sigma(beta=[2,3..], x, y)",
        b3,
    );
    assert_eq!(at, vec![1, 1]);
}
