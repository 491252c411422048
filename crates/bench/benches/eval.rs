//! Formula evaluation on 10^8 cells against a hand-written Rust closure.
//!
//! `cargo bench -p nimlab-bench --bench eval` (optionally `-- SIDE` for a SIDE×SIDE
//! box; default 10000, i.e. 10^8 cells). The goal (issue 3): the compiled formula costs
//! at most 3× the closure. Both walk the box row by row exactly as `nimlab check` does
//! and sum the values, so neither can be optimised away.

use nimlab_formula::{Column, Formula};
use std::hint::black_box;
use std::time::Instant;

const FORMULA: &str = "(x+y)%5 + 5*((x/5) xor (y/5))";

fn main() {
    let side: i64 = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(10_000);
    let cells = side * side;
    println!("box {side}x{side} = {cells} cells, formula {FORMULA}");

    // Baseline: the closure a Rust programmer would write (constants known to rustc).
    let native = |x: i64, y: i64| (x + y) % 5 + 5 * ((x / 5) ^ (y / 5));
    let t = Instant::now();
    let mut native_sum: i64 = 0;
    for y in 0..black_box(side) {
        for x in 0..side {
            native_sum = native_sum.wrapping_add(native(x, y));
        }
    }
    let native_time = t.elapsed();

    let f = Formula::compile(FORMULA, &["x", "y"]).expect("the formula compiles");
    let mut ev = f.evaluator();
    let xs: Vec<i64> = (0..side).collect();
    let mut out = vec![0i64; side as usize];
    let t = Instant::now();
    let mut formula_sum: i64 = 0;
    for y in 0..side {
        ev.eval(&[Column::Values(&xs), Column::Constant(y)], &mut out)
            .expect("no overflow");
        formula_sum = out.iter().fold(formula_sum, |s, &v| s.wrapping_add(v));
    }
    let formula_time = t.elapsed();
    assert_eq!(
        native_sum, formula_sum,
        "the formula and the closure disagree"
    );

    // The same with y given as a full column (no loop-invariant hoisting of y/5).
    let mut ys = vec![0i64; side as usize];
    let t = Instant::now();
    let mut columns_sum: i64 = 0;
    for y in 0..side {
        ys.fill(y);
        ev.eval(&[Column::Values(&xs), Column::Values(&ys)], &mut out)
            .expect("no overflow");
        columns_sum = out.iter().fold(columns_sum, |s, &v| s.wrapping_add(v));
    }
    let columns_time = t.elapsed();
    assert_eq!(
        native_sum, columns_sum,
        "the formula and the closure disagree"
    );

    // For scale: one exact (tree-walking) evaluation per cell, on 1% of the box.
    let sample = (side / 10).max(1);
    let t = Instant::now();
    let mut tree_sum: i64 = 0;
    for y in 0..sample {
        for x in 0..sample {
            tree_sum = tree_sum.wrapping_add(f.eval(&[x, y]).expect("no overflow"));
        }
    }
    let tree_per_cell = t.elapsed().as_secs_f64() / (sample * sample) as f64;
    black_box(tree_sum);

    let per = |d: std::time::Duration| d.as_secs_f64() * 1e9 / cells as f64;
    println!(
        "hand-written closure: {:>8.3} s  ({:.2} ns/cell)",
        native_time.as_secs_f64(),
        per(native_time)
    );
    println!(
        "compiled formula:     {:>8.3} s  ({:.2} ns/cell)",
        formula_time.as_secs_f64(),
        per(formula_time)
    );
    println!(
        "formula, y as column: {:>8.3} s  ({:.2} ns/cell, ratio {:.2})",
        columns_time.as_secs_f64(),
        per(columns_time),
        columns_time.as_secs_f64() / native_time.as_secs_f64()
    );
    println!(
        "tree walk (per cell): {:>8.2} ns/cell (exact path, used only for single values and faulted blocks)",
        tree_per_cell * 1e9
    );
    println!(
        "ratio formula / closure: {:.2} (goal ≤ 3)",
        formula_time.as_secs_f64() / native_time.as_secs_f64()
    );
}
