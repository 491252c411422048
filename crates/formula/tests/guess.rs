//! Guessing formulas from tables (src/guess.rs).

use nimlab_engine::{GrundyTable, MemoryLimit, NoProgress, TableOptions};
use nimlab_formula::check::Claim;
use nimlab_formula::guess::{guess, guess_with};
use nimlab_formula::internals::beatty;
use nimlab_formula::Formula;
use std::collections::HashSet;

fn table2(side: usize, f: impl Fn(usize, usize) -> u32) -> GrundyTable {
    let mut v = Vec::new();
    for y in 0..side {
        for x in 0..side {
            v.push(f(x, y));
        }
    }
    GrundyTable::from_parts(vec![side, side], v).unwrap()
}

fn names(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

#[test]
fn beatty_predicate_is_wythoff_for_a_1() {
    // P-positions of Wythoff from the Beatty sequences, computed with floats here.
    let phi = (1.0 + 5f64.sqrt()) / 2.0;
    let mut p = HashSet::new();
    for n in 0..40u32 {
        let a = (n as f64 * phi).floor() as usize;
        p.insert((a, a + n as usize));
        p.insert((a + n as usize, a));
    }
    let f = Formula::compile(&beatty("x", "y", 1), &["x", "y"]).unwrap();
    for x in 0..60 {
        for y in 0..60 {
            let want = p.contains(&(x, y));
            assert_eq!(f.eval_bool(&[x as i64, y as i64]).unwrap(), want, "{x},{y}");
        }
    }
}

#[test]
fn finds_sigma_form_and_one_heap_periods() {
    let t = table2(13, |x, y| ((x + y) % 3 + 3 * ((x / 3) ^ (y / 3))) as u32);
    let g = guess(&t, &names(&["x", "y"]), None, Claim::Grundy, &NoProgress).unwrap();
    assert!(
        g.found.iter().any(|f| f.formula.contains("%3 + 3*")),
        "{g:?}"
    );
    let seq: Vec<u32> = (0..60u32)
        .map(|n| if n < 2 { 5 } else { n % 3 + 2 * (n / 3) })
        .collect();
    let t = GrundyTable::from_parts(vec![60], seq.clone()).unwrap();
    let g = guess(&t, &names(&["n"]), None, Claim::Grundy, &NoProgress).unwrap();
    let f = Formula::compile(&g.found[0].formula, &["n"]).unwrap();
    for (n, &v) in seq.iter().enumerate() {
        assert_eq!(f.eval(&[n as i64]).unwrap(), v as i64);
    }
}

#[test]
fn reports_nearest_when_nothing_fits() {
    // A pseudo-random table.
    let t = table2(10, |x, y| ((x * 7919 + y * 104729) % 17) as u32);
    let g = guess(&t, &names(&["x", "y"]), None, Claim::Grundy, &NoProgress).unwrap();
    assert!(g.found.is_empty());
    assert!(!g.nearest.is_empty());
    assert!(g.nearest[0].first_counterexample.is_some());
}

#[test]
fn the_enumeration_stops_at_the_memory_limit_and_says_so() {
    // Values no small formula fits: the enumeration runs to its largest trees.
    let t = table2(16, |x, y| ((x * 7 + y * 13) ^ (x * y)) as u32 % 11);
    let tight = TableOptions {
        memory_limit: MemoryLimit::new(512 << 10),
        ..TableOptions::default()
    };
    let names = names(&["x", "y"]);
    let small = guess_with(&t, &names, None, Claim::Grundy, &tight, None).unwrap();
    assert!(
        small.limits.iter().any(|l| l.contains("memory limit")),
        "{:?}",
        small.limits
    );
    let whole = guess_with(
        &t,
        &names,
        None,
        Claim::Grundy,
        &TableOptions::default(),
        None,
    )
    .unwrap();
    assert!(whole.limits.iter().all(|l| !l.contains("memory limit")));
    assert!(small.searched < whole.searched);
}
