//! Property-based fuzzing of the parser and both evaluators: no input may panic, and the
//! batch program must agree with the exact tree evaluator (values and errors).
//!
//! More cases: `PROPTEST_CASES=200000 cargo test -p nimlab-formula --release --test suite fuzz`.

use nimlab_formula::{Column, Formula, FUNCTIONS};
use proptest::prelude::*;

const VARS: &[&str] = &["x", "y", "n"];

/// Characters and words the language uses, plus some it does not.
fn token() -> impl Strategy<Value = String> {
    let mut words = vec![
        "x",
        "y",
        "n",
        "z",
        "0",
        "1",
        "5",
        "-3",
        "9223372036854775807",
        "99999999999999999999",
        "+",
        "-",
        "*",
        "/",
        "%",
        "^",
        "xor",
        "&",
        "|",
        "<<",
        ">>",
        "==",
        "!=",
        "<",
        "<=",
        ">",
        ">=",
        "&&",
        "||",
        "!",
        "(",
        ")",
        ",",
        "[",
        "]",
        "=",
        "if",
        "then",
        "else",
        "beta",
        "true",
        " ",
        "#",
        "é",
        "∞",
        "_",
    ];
    // Every built-in function's name.
    words.extend(FUNCTIONS);
    prop_oneof![
        prop::sample::select(words).prop_map(str::to_string),
        "[ -~]{1,3}",
    ]
}

fn random_text() -> impl Strategy<Value = String> {
    prop::collection::vec(token(), 0..40).prop_map(|t| t.join(""))
}

/// Well-formed expressions over x, y, n.
fn expr() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        prop::sample::select(vec![
            "x",
            "y",
            "n",
            "0",
            "1",
            "2",
            "3",
            "7",
            "64",
            "1000000007"
        ])
        .prop_map(str::to_string),
        any::<i64>().prop_map(|v| format!("({v})")),
    ];
    leaf.prop_recursive(6, 64, 4, |inner| {
        prop_oneof![
            (
                inner.clone(),
                prop::sample::select(vec![
                    "+", "-", "*", "/", "%", "^", "xor", "&", "|", "<<", ">>", "==", "!=", "<",
                    "<=", ">", ">=", "&&", "||",
                ]),
                inner.clone()
            )
                .prop_map(|(a, op, b)| format!("({a} {op} {b})")),
            inner.clone().prop_map(|a| format!("-{a}")),
            inner.clone().prop_map(|a| format!("!{a}")),
            (inner.clone(), inner.clone(), inner.clone())
                .prop_map(|(c, a, b)| format!("(if {c} then {a} else {b})")),
            (
                prop::sample::select(vec![
                    "min",
                    "max",
                    "abs",
                    "floor_log2",
                    "popcount",
                    "fib",
                    "zeck_low"
                ]),
                inner.clone()
            )
                .prop_map(|(f, a)| format!("{f}({a})")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("min({a}, {b})")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("nimsum_b(3, {a}, {b})")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("nnimsum(3, {a}, {b})")),
            (inner.clone(), inner).prop_map(|(a, b)| format!("sigma(beta=[5, 2], {a}, {b})")),
        ]
    })
}

fn value() -> impl Strategy<Value = i64> {
    prop_oneof![-10i64..300, any::<i64>(), Just(i64::MIN), Just(i64::MAX)]
}

/// Evaluates on a small block both ways and compares.
fn agree(f: &Formula, xs: &[i64], y: i64, n: i64) -> Result<(), TestCaseError> {
    let mut out = vec![0; xs.len()];
    let batch = f.evaluator().eval(
        &[Column::Values(xs), Column::Constant(y), Column::Constant(n)],
        &mut out,
    );
    let exact: Result<Vec<i64>, _> = xs.iter().map(|&x| f.eval(&[x, y, n])).collect();
    match (batch, exact) {
        (Ok(()), Ok(e)) => prop_assert_eq!(out, e),
        (Err(a), Err(b)) => prop_assert_eq!(a, b),
        (a, b) => prop_assert!(false, "batch {:?} but exact {:?}", a, b),
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(20_000),
        ..ProptestConfig::default()
    })]

    #[test]
    fn random_text_never_panics(text in random_text(), vals in prop::collection::vec(value(), 3)) {
        if let Ok(f) = Formula::compile(&text, VARS) {
            let _ = f.eval(&vals);
            agree(&f, &[vals[0], 0, 1, 2], vals[1], vals[2])?;
        }
    }

    #[test]
    fn well_formed_expressions_compile_and_agree(
        text in expr(),
        xs in prop::collection::vec(value(), 1..20),
        y in value(),
        n in value(),
    ) {
        let f = Formula::compile(&text, VARS).map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?;
        agree(&f, &xs, y, n)?;
        // errors are one line and point inside the formula
        if let Err(e) = f.eval(&[xs[0], y, n]) {
            prop_assert!(e.column >= 1 && e.column <= text.chars().count());
            prop_assert!(!e.to_string().contains('\n'));
        }
    }
}
