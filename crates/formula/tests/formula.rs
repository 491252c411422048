//! The language (src/lib.rs): precedence, errors with columns, depth, batch against tree.

use nimlab_formula::{Column, EvalError, Formula};

fn ev(text: &str, vars: &[&str], vals: &[i64]) -> Result<i64, String> {
    let f = Formula::compile(text, vars).map_err(|e| e.to_string())?;
    f.eval(vals).map_err(|e| e.to_string())
}

#[test]
fn precedence_and_operators() {
    assert_eq!(ev("1 + 2 * 3", &[], &[]), Ok(7));
    assert_eq!(ev("2^3^2", &[], &[]), Ok(512));
    assert_eq!(ev("-2^2", &[], &[]), Ok(-4));
    assert_eq!(ev("5 xor 3 == 6", &[], &[]), Ok(1));
    assert_eq!(ev("1 | 2 xor 3 & 1", &[], &[]), Ok(1 | (2 ^ (3 & 1))));
    assert_eq!(ev("-7 / 2", &[], &[]), Ok(-4));
    assert_eq!(ev("-7 % 2", &[], &[]), Ok(1));
    assert_eq!(ev("7 % -2", &[], &[]), Ok(1));
    assert_eq!(ev("1 << 3 + 1", &[], &[]), Ok(16));
    assert_eq!(ev("-9 >> 1", &[], &[]), Ok(-5));
    assert_eq!(ev("!0 && !(3 < 2) || 0", &[], &[]), Ok(1));
    assert_eq!(ev("if 1 > 2 then 5 else 6 + 1", &[], &[]), Ok(7));
    assert_eq!(ev("1 + if 0 then 5 else 6", &[], &[]), Ok(7));
    assert_eq!(ev("min(4, 2, 9) + max(1, 3) + abs(-5)", &[], &[]), Ok(10));
    assert_eq!(ev("floor_log2(1000) + popcount(7)", &[], &[]), Ok(12));
    assert_eq!(ev("nimsum_b(3, 5, 7)", &[], &[]), Ok(0));
    assert_eq!(
        ev("sigma(beta=[60, 24, 7], 1000, 2000)", &[], &[]),
        Ok(1500)
    );
    assert_eq!(ev("sigma(beta=[3,2], 4, 7)", &[], &[]), Ok(11));
    assert_eq!(ev("sigma(beta=[3,2..], 4, 7)", &[], &[]), Ok(11));
    assert_eq!(
        ev("sigma(beta=[60, 24, 7..], 1000, 2000)", &[], &[]),
        Ok(1500)
    );
    // (2, 3, 5, 3, 5, …): 7 = [1, 0, 1] and 11 = [1, 2, 1] → [0, 2, 2] = 2·2 + 2·6
    assert_eq!(ev("sigma(beta=[2,(3,5)..], 7, 11)", &[], &[]), Ok(16));
    assert_eq!(ev("nnimsum(3, 14, 11, 10, 7)", &[], &[]), Ok(23));
    assert_eq!(ev("fib(4) + zeck_low(31)", &[], &[]), Ok(7));
    assert_eq!(ev("true + false", &[], &[]), Ok(1));
    assert_eq!(ev("1_000 * 2", &[], &[]), Ok(2000));
}

#[test]
fn runtime_errors_name_column_and_values() {
    assert_eq!(
        ev("x * x", &["x"], &[i64::MAX]),
        Err(format!(
            "overflow (the result does not fit in a 64-bit integer) at column 3 of 'x * x' (x = {})",
            i64::MAX
        ))
    );
    assert!(ev("2 ^ -1", &[], &[])
        .unwrap_err()
        .contains("negative exponent"));
    assert!(ev("floor_log2(x)", &["x"], &[0])
        .unwrap_err()
        .contains("column 1"));
    // untaken branches never fail
    assert_eq!(
        ev("if y == 0 then 0 else x / y", &["x", "y"], &[3, 0]),
        Ok(0)
    );
    assert_eq!(ev("y != 0 && x / y > 1", &["x", "y"], &[3, 0]), Ok(0));
    // constant folding keeps failing subtrees for run time
    assert_eq!(ev("if x > 0 then 1 else 1/0", &["x"], &[1]), Ok(1));
    assert!(ev("if x > 0 then 1 else 1/0", &["x"], &[0]).is_err());
}

#[test]
fn parse_errors_are_one_line_with_columns() {
    let cases = [
        ("x +", 4, "expected a number"),
        ("(x + y", 7, "expected ')' to close the '(' at column 1"),
        ("x y", 3, "expected an operator"),
        ("z + 1", 1, "unknown variable 'z' (variables: x, y)"),
        ("foo(1)", 1, "unknown function 'foo'"),
        ("abs(1, 2)", 1, "abs takes 1 argument, got 2"),
        ("x # 2", 3, "unexpected character '#'"),
        ("99999999999999999999", 1, "number too large"),
        ("if x then 1", 12, "expected 'else'"),
        ("sigma(beta=[1], x)", 13, "every base of beta must be ≥ 2"),
        ("", 1, "expected an expression"),
    ];
    for (text, col, msg) in cases {
        let e = Formula::compile(text, &["x", "y"]).unwrap_err();
        assert_eq!(e.column, col, "{text}: {e}");
        assert!(e.to_string().contains(msg), "{text}: {e}");
        assert!(!e.to_string().contains('\n'));
    }
}

#[test]
fn deep_nesting_is_refused_not_a_stack_overflow() {
    let deep = "(".repeat(10_000) + "1" + &")".repeat(10_000);
    assert!(Formula::compile(&deep, &[])
        .unwrap_err()
        .message
        .contains("nested too deeply"));
    let long = vec!["1"; 10_000].join("+");
    assert!(Formula::compile(&long, &[]).is_err());
    let minus = "-".repeat(10_000) + "1";
    assert!(Formula::compile(&minus, &[]).is_err());
    let ok = vec!["x"; 150].join("+");
    assert_eq!(
        Formula::compile(&ok, &["x"]).unwrap().eval(&[2]).unwrap(),
        300
    );
}

#[test]
fn batch_agrees_with_tree_including_faults() {
    let f = Formula::compile(
        "if y == 0 then x else (x / y) xor (x % (y - 3)) + 7 * y ^ 2",
        &["x", "y"],
    )
    .unwrap();
    let mut ev = f.evaluator();
    for y in -5..6i64 {
        let xs: Vec<i64> = (-300..300).collect();
        let ys = vec![y; xs.len()];
        let mut out = vec![0; xs.len()];
        let batch = ev.eval(&[Column::Values(&xs), Column::Values(&ys)], &mut out);
        let mut out2 = vec![0; xs.len()];
        let batch2 = ev.eval(&[Column::Values(&xs), Column::Constant(y)], &mut out2);
        assert_eq!(batch.is_ok(), batch2.is_ok());
        if batch.is_ok() {
            assert_eq!(out, out2);
        }
        let exact: Result<Vec<i64>, EvalError> = xs.iter().map(|&x| f.eval(&[x, y])).collect();
        match (batch, exact) {
            (Ok(()), Ok(e)) => assert_eq!(out, e),
            (Err(a), Err(b)) => assert_eq!(a, b),
            (a, b) => panic!("y = {y}: batch {a:?}, exact {b:?}"),
        }
    }
}
