//! The prover never says "proved" for a false claim nor "false" for a true one at the
//! edge of 64 bits; every "false" is confirmed independently of the automata; every
//! exported Walnut automaton, read back from its text, has the arity of its calls and
//! agrees with the game's options and the claim's exact value.

use nimlab_automata::walnut;
use nimlab_engine::big::BigUint;
use nimlab_engine::capability::{Capabilities, MoveRelation};
use nimlab_engine::{Coord, Game};
use nimlab_formula::check::Claim;
use nimlab_formula::prove::{parse_numeration, prove, Numeration, Proof, ProveError, Verdict};
use nimlab_formula::Formula;
use nimlab_games::parse_game;
use num_bigint::BigInt;

const B2: Numeration = Numeration::Base(2);

fn run(spec: &str, claim: Claim, text: &str, num: Numeration) -> Proof {
    let game = parse_game(spec).unwrap();
    prove(&*game, claim, text, num, &Default::default())
        .unwrap_or_else(|e| panic!("{spec} '{text}': {e}"))
}

fn big(p: &[BigUint]) -> Vec<String> {
    p.iter().map(|c| c.to_string()).collect()
}

/// The least counterexample and where it was confirmed; panics unless false.
fn false_at(spec: &str, claim: Claim, text: &str) -> (Vec<String>, Option<Vec<String>>) {
    match run(spec, claim, text, B2).verdict {
        Verdict::False(c) => {
            assert!(c.confirmed.is_some());
            (big(&c.position), c.option.as_deref().map(big))
        }
        v => panic!("{spec} '{text}': {v:?}"),
    }
}

const MAX: &str = "9223372036854775807"; // 2^63 − 1

#[test]
fn false_claims_at_2_to_the_63_are_false() {
    // at n = 2^63 − 1 the formula is 0 while G = 2^63 − 1
    let text =
        format!("if n > {MAX} then n else (if n >= {MAX} then min(0, (n - {MAX} + n)/10) else n)");
    let (x, y) = false_at("nim(heaps=1)", Claim::Grundy, &text);
    assert_eq!(x, [MAX]);
    assert_eq!(y, Some(vec!["0".to_string()]));
    let text = format!(
        "if n > {MAX} then n == 0 else (n == 0 || (n >= {MAX} && (n - {MAX} + n)/10 == 922337203685477580))"
    );
    let (x, _) = false_at("nim(heaps=1)", Claim::PPositions, &text);
    assert_eq!(x, [MAX]);
}

#[test]
fn true_claims_at_2_to_the_63_are_proved() {
    let text = format!("if n >= {MAX} then min(n, n + (n - {MAX})/3) else n");
    let p = run("nim(heaps=1)", Claim::Grundy, &text, B2);
    assert!(matches!(p.verdict, Verdict::Proved), "{:?}", p.verdict);
    assert_eq!(p.statements[0].name, "function");
    assert!(p.statements.iter().all(|s| s.holds));
    // constants beyond 64 bits, written as powers
    for text in [
        "if x >= 2^64 then x xor y else x xor y",
        "if y < 2^100 then x xor y else y xor x",
        "(x xor y) + (x / -3) + ((x + 2) / 3)",
    ] {
        let p = run("nim", Claim::Grundy, text, B2);
        assert!(
            matches!(p.verdict, Verdict::Proved),
            "{text}: {:?}",
            p.verdict
        );
    }
}

#[test]
fn the_least_violation_is_the_least() {
    // wrong from 2^63 on, not at 2^63 − 1
    let (x, y) = false_at(
        "nim",
        Claim::Grundy,
        &format!("if x > {MAX} then 0 else x xor y"),
    );
    assert_eq!(x, ["9223372036854775808", "0"]);
    assert_eq!(y, Some(vec!["0".to_string(), "0".to_string()]));
    let (x, _) = false_at(
        "nim",
        Claim::Grundy,
        "if x >= 2^100 + 3 then 0 else x xor y",
    );
    assert_eq!(
        x,
        [(BigUint::from(1u8) << 100u32) + BigUint::from(3u8)].map(|b| b.to_string())[..1]
            .iter()
            .cloned()
            .chain(["0".to_string()])
            .collect::<Vec<_>>()
    );
}

#[test]
fn numerations_where_digit_wise_operations_are_exact() {
    // ⊕ in base 4 (a digit is 2 bits; base 16 works alike, tested on the compiler,
    // but its alphabet is too large for two heaps and their options), nimsum_b(3) in
    // base 9 (two base-3 digits a digit)
    let p = run(
        "nim",
        Claim::Grundy,
        "x xor y",
        parse_numeration("base-4").unwrap(),
    );
    assert!(matches!(p.verdict, Verdict::Proved), "base-4");
    let p = run(
        "nim",
        Claim::Grundy,
        "x + y",
        parse_numeration("base-4").unwrap(),
    );
    assert!(matches!(p.verdict, Verdict::False(_)));
    let game = parse_game("nim").unwrap();
    // nimsum_b(3, …) reads base 3 digit by digit: in base 9 two at a time; the same
    // (false) claim is refused nowhere and false in both
    for num in ["base-3", "base-9"] {
        let p = prove(
            &*game,
            Claim::PPositions,
            "nimsum_b(3, x, y) == 0",
            parse_numeration(num).unwrap(),
            &Default::default(),
        )
        .unwrap();
        assert!(matches!(p.verdict, Verdict::False(_)), "{num}");
    }
    // a number is not a P-set
    let e = prove(
        &*game,
        Claim::PPositions,
        "x xor y",
        B2,
        &Default::default(),
    )
    .unwrap_err();
    assert!(matches!(e, ProveError::Input(_)), "{e}");
    assert!(e.to_string().contains("condition"), "{e}");
    // a divisor whose automaton would have 2^63 states is refused at once
    let e = prove(
        &*game,
        Claim::Grundy,
        &format!("if x/{MAX} >= 2 then 0 else x xor y"),
        B2,
        &Default::default(),
    )
    .unwrap_err();
    assert!(matches!(e, ProveError::TooLarge(_)), "{e}");
    // a constant whose statements would take hours is refused at once, with the reason
    let e = prove(
        &*game,
        Claim::Grundy,
        "if x > 2^300 then 0 else x xor y",
        B2,
        &Default::default(),
    )
    .unwrap_err();
    assert!(matches!(e, ProveError::NotExpressible { .. }), "{e}");
    assert!(e.to_string().contains("2^256"), "{e}");
}

/// A game whose declared move relation (one heap, take any number) disagrees with its
/// own options (none): the automata find a violation the solver cannot confirm.
struct Liar;

impl Game for Liar {
    fn spec(&self) -> String {
        "liar".into()
    }
    fn dimension(&self) -> usize {
        1
    }
    fn for_each_option(&self, _: &[Coord], _: &mut dyn FnMut(&[Coord])) {}
    fn capabilities(&self) -> Capabilities<'_> {
        Capabilities {
            move_relation: Some(MoveRelation::new("n_ < n")),
            ..Capabilities::none()
        }
    }
    fn coordinate_names(&self) -> Vec<String> {
        vec!["n".into()]
    }
}

#[test]
fn an_unconfirmed_violation_is_not_false() {
    let p = prove(&Liar, Claim::Grundy, "0", B2, &Default::default()).unwrap();
    let Verdict::Unconfirmed(c) = &p.verdict else {
        panic!("{:?}", p.verdict)
    };
    assert_eq!(c.statement, "SG1");
    assert!(c.confirmed.is_none());
    assert!(
        c.recheck_note.contains("not an option"),
        "{}",
        c.recheck_note
    );
}

/// Each `$name(…)` call of the Walnut commands has as many arguments as the exported
/// file `name.txt`, read back by the independent reader, has tracks.
fn assert_call_arities(p: &Proof, what: &str) {
    let commands = p.walnut_commands();
    for (file, text) in p.walnut_automata() {
        let name = file.trim_end_matches(".txt");
        let auto = walnut::from_text(&text).unwrap();
        let needle = format!("${name}(");
        for (i, _) in commands.match_indices(&needle) {
            let rest = &commands[i + needle.len()..];
            let args = &rest[..rest.find(')').unwrap()];
            assert_eq!(
                args.split(',').count(),
                auto.numerations.len(),
                "{what}: ${name}({args})"
            );
        }
    }
}

/// Checks every exported automaton of `p` against the game and the claim.
fn exports_agree(spec: &str, p: &Proof) {
    let game = parse_game(spec).unwrap();
    let files: Vec<(String, walnut::WalnutAutomaton)> = p
        .walnut_automata()
        .into_iter()
        .map(|(n, t)| {
            (
                n.trim_end_matches(".txt").to_string(),
                walnut::from_text(&t).unwrap(),
            )
        })
        .collect();
    assert_call_arities(p, &format!("{spec} '{}'", p.formula));
    let m = game.dimension();
    let num = p.numeration;
    let names = game.coordinate_names();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let f = Formula::compile(&p.formula, &refs).unwrap();
    let side = if m == 1 {
        12
    } else if m == 2 {
        6
    } else {
        3
    };
    let boxed: Vec<Vec<Coord>> = (0..(side as u64).pow(m as u32))
        .map(|mut i| {
            (0..m)
                .map(|_| {
                    let c = i % side as u64;
                    i /= side as u64;
                    c
                })
                .collect()
        })
        .collect();
    let width = 8;
    let word = |n: u64| num.encode(n as u128, width);
    for x in &boxed {
        let xw: Vec<Vec<u32>> = x.iter().map(|&c| word(c)).collect();
        let exact = f.eval_exact(&x.iter().map(|&c| BigInt::from(c)).collect::<Vec<_>>());
        for (name, auto) in &files {
            match name.as_str() {
                "move" => {
                    let mut opts = Vec::new();
                    game.for_each_option(x, &mut |o| opts.push(o.to_vec()));
                    for y in &boxed {
                        let tracks: Vec<Vec<u32>> = xw
                            .iter()
                            .cloned()
                            .chain(y.iter().map(|&c| word(c)))
                            .collect();
                        assert_eq!(
                            auto.accepts(&tracks),
                            opts.contains(y),
                            "{spec}: move {x:?} → {y:?}"
                        );
                    }
                }
                "phi" => {
                    let v = exact.clone().unwrap();
                    let mut t = xw.clone();
                    t.push(word(u64::try_from(&v).unwrap()));
                    assert!(auto.accepts(&t), "{spec} '{}' at {x:?}", p.formula);
                    t.pop();
                    t.push(word(u64::try_from(&v).unwrap() + 1));
                    assert!(!auto.accepts(&t), "{spec} '{}' at {x:?}", p.formula);
                }
                "pset" | "nset" => {
                    let truth = exact.clone().unwrap() != BigInt::from(0);
                    assert_eq!(
                        auto.accepts(&xw),
                        truth == (name == "pset"),
                        "{spec} {name} {x:?}"
                    );
                }
                _ => {}
            }
        }
    }
}

#[test]
fn exported_automata_have_every_track_and_agree() {
    for (spec, claim, text) in [
        ("nim", Claim::Grundy, "x"),
        ("nim", Claim::PPositions, "x == 0"),
        ("nim", Claim::Grundy, "x xor y"),
        ("nim(heaps=1)", Claim::Grundy, "n"),
        ("ryuoh(p=3)", Claim::Grundy, "(x+y)%3 + 3*((x/3) xor (y/3))"),
        ("wythoff", Claim::PPositions, "x == y"),
        (
            "chocolate-staircase(f=t/2,strip=true)",
            Claim::Grundy,
            "y xor z",
        ),
    ] {
        let p = run(spec, claim, text, B2);
        exports_agree(spec, &p);
    }
}

/// Every theorem's must-prove claim: exported with consistent arities.
#[test]
fn every_theorem_export_has_consistent_arities() {
    for t in nimlab_games::all_theorems() {
        for c in &t.claims {
            let num = parse_numeration(&c.numeration).unwrap();
            let claim = if c.p_positions {
                Claim::PPositions
            } else {
                Claim::Grundy
            };
            let game = parse_game(&c.game).unwrap();
            let Ok(p) = prove(&*game, claim, &c.formula, num, &Default::default()) else {
                continue;
            };
            assert_call_arities(&p, &format!("{} {}", t.id, c.game));
        }
    }
}
