//! `all(…)`: refused by evaluated formulas, ∀ in the automata of `prove` (src/logic.rs).

use nimlab_automata::Numeration;
use nimlab_formula::internals::{parse_quantified, Compiler};
use nimlab_formula::Formula;

/// all(…) is refused by every evaluated formula, with one line naming it.
#[test]
fn evaluated_formulas_refuse_all() {
    let e = Formula::compile("x > 0 && all(z: z + x != 3)", &["x"]).unwrap_err();
    assert_eq!(e.column, 10);
    assert!(
        e.message.starts_with("all(…) is a universal quantifier"),
        "{e}"
    );
    assert!(!e.to_string().contains('\n'));
    // a bound name must be new, and the list ends with ':'
    let vars = vec!["x".to_string(), "y".to_string()];
    assert!(parse_quantified("all(x: x > 0)", &vars).is_err());
    assert!(parse_quantified("all(z, w x > 0)", &vars).is_err());
    assert!(parse_quantified("all(z: z >= 0) && z > 0", &vars).is_err());
}

/// ∀ compiled by the automata against brute force on a window, alone, under a
/// negation and over two variables; both halves of the condition pair.
#[test]
fn all_is_forall_in_the_automata() {
    let vars = vec!["x".to_string(), "y".to_string()];
    type Case = (&'static str, fn(u64, u64) -> bool);
    let cases: [Case; 3] = [
        ("all(z: z + x != y)", |x, y| y < x),
        // z + x ≥ y for every z iff x ≥ y; nested and under a negation
        ("!all(z: z + x >= y) || x == 5", |x, y| x < y || x == 5),
        // for all z0, z1: z0 xor z1 xor x != y … false for every x, y (z1 = z0 xor x xor y)
        (
            "all(z0, z1: (z0 xor z1) xor x != y) || x + y == 3",
            |x, y| x + y == 3,
        ),
    ];
    let num = Numeration::Base(2);
    for (text, want) in cases {
        let tree = parse_quantified(text, &vars).unwrap();
        let mut comp = Compiler::new(num, 2);
        let (t, f) = comp.condition(&tree, &[0, 1]).unwrap();
        let (t, f) = (t.automaton(&num).unwrap(), f.automaton(&num).unwrap());
        for x in 0..12u64 {
            for y in 0..12u64 {
                let w = [num.encode(x as u128, 6), num.encode(y as u128, 6)];
                assert_eq!(t.accepts(&w), want(x, y), "{text} at {x},{y}");
                assert_eq!(f.accepts(&w), !want(x, y), "{text} at {x},{y} (false)");
            }
        }
    }
}
