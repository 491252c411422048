//! Chocolate-bar games (docs/theory.md §5) against brute force computed in this file
//! straight from Definition 1.8: options of {y, z} are {v, z} for v < y and
//! {min(y, f(w)), w} for w < z.

use crate::common::mex;
use nimlab_engine::big::parse_big_position;
use nimlab_engine::plan;
use nimlab_engine::theorem::CheckContext;
use nimlab_engine::{Game, TableOptions};
use nimlab_games::chocolate::Chocolate;
use nimlab_games::chocolate_staircase::{
    check_condition, formula_of, monotone_functions, ChocolateStaircase, StaircaseFunction,
    SATISFYING, VIOLATING,
};
use nimlab_games::parse_game;
use std::collections::HashMap;

/// G({y, z}) for every position with z < f.len(), by mex over Definition 1.8.
fn brute(f: &[u64]) -> HashMap<(u64, u64), u32> {
    let mut g = HashMap::new();
    for z in 0..f.len() as u64 {
        for y in 0..=f[z as usize] {
            let mut seen = Vec::new();
            for v in 0..y {
                seen.push(g[&(v, z)]);
            }
            for w in 0..z {
                seen.push(g[&(y.min(f[w as usize]), w)]);
            }
            g.insert((y, z), mex(seen));
        }
    }
    g
}

/// Condition (a) on [0, f.len()) pair by pair, straight from its statement.
fn condition_a(f: &[u64]) -> bool {
    let n_max = 64 - (f.len() as u64).leading_zeros();
    (0..f.len()).all(|u| {
        (0..f.len())
            .all(|w| (1..=n_max).all(|n| u >> n != w >> n || f[u] >> (n - 1) == f[w] >> (n - 1)))
    })
}

fn eval(f: &str, len: usize) -> Vec<u64> {
    StaircaseFunction::parse(f)
        .unwrap()
        .values(len as u64)
        .unwrap()
        .values()[..len]
        .to_vec()
}

#[test]
fn kernel_equals_brute_force_for_the_seeds_functions() {
    for f in SATISFYING
        .iter()
        .chain(VIOLATING)
        .chain(&["t/7", "3*t/2", "t*t/5"])
    {
        let len = 80;
        let values = eval(f, len);
        let g = brute(&values);
        let bar = ChocolateStaircase::new(f, false).unwrap();
        let ys = values[len - 1] as usize + 1;
        let t = bar.kernel_table(ys, len, Default::default()).unwrap();
        for z in 0..len as u64 {
            for y in 0..ys as u64 {
                assert_eq!(t.get(&[y, z]), g.get(&(y, z)).copied(), "f={f} y={y} z={z}");
            }
        }
        // The planner's table is the kernel's, over the game's own box.
        let dims = bar.table_box(len);
        let planned = plan::table(&bar, &dims, &TableOptions::default()).unwrap();
        assert_eq!(planned.method.id(), "table-kernel");
        for (p, g) in planned.table.iter() {
            assert_eq!(Some(g), t.get(&p), "f={f} {p:?}");
        }
        let count = planned.table.iter().count();
        let expected = g.keys().filter(|(y, _)| (*y as usize) < dims[0]).count();
        assert_eq!(count, expected, "f={f}");
        // A box lower than the columns is cut from whole columns.
        let low = bar.kernel_table(3, len, Default::default()).unwrap();
        for z in 0..len as u64 {
            for y in 0..3u64 {
                assert_eq!(low.get(&[y, z]), g.get(&(y, z)).copied());
            }
        }
    }
}

#[test]
fn the_seeds_examples_satisfy_or_violate_condition_a_as_stated() {
    for f in SATISFYING {
        let r = check_condition(f, 512, Default::default()).unwrap();
        assert!(r.witness.is_none() && r.mismatch.is_none(), "{f}: {r:?}");
        assert!(condition_a(&r.values[..64]));
    }
    for f in VIOLATING {
        let r = check_condition(f, 512, Default::default()).unwrap();
        assert!(r.witness.is_some() && r.agrees(), "{f}: {r:?}");
        assert!(!condition_a(&r.values));
    }
    // docs/theory.md §5: for ⌊t/3⌋, G({1,3}) = 4 while 1 ⊕ 3 = 2.
    let r = check_condition("t/3", 16, Default::default()).unwrap();
    assert_eq!(r.mismatch, Some((1, 3, 4)));
    let w = r.witness.unwrap();
    assert_eq!((w.u, w.w, w.n, w.f_u, w.f_w), (2, 3, 1, 0, 1));
}

#[test]
fn condition_a_decides_nim_values_for_every_monotone_function_on_8_columns() {
    let all = monotone_functions(8, 7);
    assert_eq!(all.len(), 6435);
    for values in all {
        let g = brute(&values);
        let first_bad_z =
            (0..8u64).find(|&z| (0..=values[z as usize]).any(|y| g[&(y, z)] as u64 != y ^ z));
        let holds = condition_a(&values);
        assert_eq!(holds, first_bad_z.is_none(), "f = {values:?}");
        let r = check_condition(&formula_of(&values), 8, Default::default()).unwrap();
        assert_eq!(r.values, values);
        assert_eq!(r.witness.is_none(), holds, "f = {values:?}");
        assert_eq!(r.mismatch.map(|m| m.1), first_bad_z, "f = {values:?}");
        if let Some((y, z, gv)) = r.mismatch {
            assert_eq!(g[&(y, z)], gv);
        }
        assert!(r.agrees(), "f = {values:?}: {r:?}");
    }
}

#[test]
fn values_come_from_the_closed_form_where_a_holds_and_are_exact_elsewhere() {
    let opts = TableOptions::default();
    let half = parse_game("chocolate-staircase(f=t/2)").unwrap();
    let r = plan::moves(&*half, &parse_big_position("2,5").unwrap(), &opts).unwrap();
    assert_eq!(r.method.id(), "closed-form");
    assert_eq!(r.grundy, Some(7u32.into()));
    assert_eq!(r.winning_moves, vec![parse_big_position("0,0").unwrap()]);
    let listed: Vec<u32> = r
        .options
        .unwrap()
        .iter()
        .map(|o| u32::try_from(o.grundy.clone().unwrap()).unwrap())
        .collect();
    assert_eq!(listed.len(), 7);
    let third = parse_game("chocolate-staircase(f=t/3)").unwrap();
    let r = plan::value(&*third, &parse_big_position("1,3").unwrap(), &opts).unwrap();
    assert_eq!(r.method.id(), "brute-force");
    assert_eq!(r.grundy, Some(4u32.into()));
    // Below the first violation the closed form still answers.
    let r = plan::value(&*third, &parse_big_position("0,2").unwrap(), &opts).unwrap();
    assert_eq!(r.method.id(), "closed-form");
}

#[test]
fn the_strip_is_a_nim_heap_beside_the_bar() {
    let opts = TableOptions::default();
    let strip = parse_game("chocolate-staircase(f=t/2, strip=true)").unwrap();
    assert_eq!(strip.spec(), "chocolate-staircase(f=t/2, strip=true)");
    assert_eq!(strip.dimension(), 3);
    let r = plan::value(&*strip, &parse_big_position("7,2,5").unwrap(), &opts).unwrap();
    assert_eq!(r.method.id(), "components");
    assert_eq!(r.grundy, Some(0u32.into()));
    // P-positions of the table are x ⊕ y ⊕ z = 0 (f = t/2 satisfies (a)), and the
    // table equals brute force.
    let dims = strip.table_box(20);
    let t = plan::table(&*strip, &dims, &opts).unwrap().table;
    let brute = nimlab_engine::table::generic_table(&*strip, &dims, true, &opts).unwrap();
    assert_eq!(t, brute);
    for (p, g) in t.iter() {
        assert_eq!(g == 0, p[0] ^ p[1] ^ p[2] == 0, "{p:?}");
    }
    // With f = t/3 the strip's P-positions are not x ⊕ y ⊕ z = 0.
    let third = ChocolateStaircase::new("t/3", true).unwrap();
    let t = plan::table(&third, &third.table_box(8), &opts)
        .unwrap()
        .table;
    assert_eq!(t.get(&[4, 1, 3]), Some(0)); // G({1,3}) = 4
}

#[test]
fn rectangular_bar_is_three_heap_nim() {
    let t =
        nimlab_engine::grundy_table(&Chocolate, &[12, 12, 12], &TableOptions::default()).unwrap();
    for (p, g) in t.iter() {
        assert_eq!(g as u64, p[0] ^ p[1] ^ p[2]);
    }
    let r = plan::value(
        &*parse_game("chocolate").unwrap(),
        &parse_big_position("3,3,2").unwrap(),
        &TableOptions::default(),
    )
    .unwrap();
    assert_eq!(r.grundy, Some(2u32.into()));
}

#[test]
fn bad_functions_and_positions_are_one_line_errors() {
    let err = |spec: &str, pos: &str| -> String {
        let game = parse_game(spec).unwrap();
        let e = plan::value(
            &*game,
            &parse_big_position(pos).unwrap(),
            &Default::default(),
        )
        .unwrap_err()
        .to_string();
        assert!(!e.contains('\n'), "{e}");
        e
    };
    let e = err("chocolate-staircase(f=t/2)", "3,5");
    assert!(e.contains("y = 3 must be ≤ f(z) = f(5) = 2"), "{e}");
    let e = err("chocolate-staircase(f=10 - t)", "0,3");
    assert!(e.contains("non-decreasing but f(0) = 10 > f(1) = 9"), "{e}");
    let e = err("chocolate-staircase(f=t - 3)", "0,5");
    assert!(e.contains("must be ≥ 0 but f(0) = -3"), "{e}");
    let e = err("chocolate-staircase(f=2^floor_log2(t) - 1)", "0,5");
    assert!(e.contains("f is undefined at t = 0"), "{e}");
    let e = err("chocolate-staircase(f=t/2)", "0,99999999999999999999999");
    assert!(e.contains("too large"), "{e}");
    let e = err("chocolate-staircase(f=t/2)", "0,5000000");
    assert!(e.contains("too large"), "{e}");
    // Monotonicity is checked on the range used only.
    let game = parse_game("chocolate-staircase(f=if t < 10 then t else 0)").unwrap();
    assert!(game.check_position(&[3, 9]).is_ok());
    assert!(game.check_position(&[0, 10]).is_err());
    assert!(parse_game("chocolate-staircase(f=t/)").is_err());
    assert!(parse_game("chocolate-staircase").is_err());
    assert!(parse_game("chocolate-staircase(f=t, strip=maybe)").is_err());
    assert!(check_condition("t", 0, Default::default()).is_err());
    assert!(check_condition("10-t", 8, Default::default()).is_err());
}

#[test]
fn bars_are_drawn_from_the_rules() {
    let bar = ChocolateStaircase::new("t/2", false).unwrap();
    let caps = bar.capabilities();
    let draw = caps.columns_picture.unwrap();
    let p = draw.columns_picture(&[2, 5]).unwrap();
    let heights: Vec<u64> = p.columns.iter().map(|c| c.height).collect();
    assert_eq!(heights, vec![1, 1, 2, 2, 3, 3]); // min(2, ⌊i/2⌋) + 1
                                                 // The move {2,5} → {1,3} eats columns 4 and 5.
    let q = draw.columns_picture(&[1, 3]).unwrap();
    let mut eaten = p.eaten_by(&q);
    eaten.sort();
    assert_eq!(eaten, vec![(4, 0), (4, 1), (4, 2), (5, 0), (5, 1), (5, 2)]);
    // {2,5} → {1,5} eats the top row.
    let r = draw.columns_picture(&[1, 5]).unwrap();
    assert_eq!(p.eaten_by(&r), vec![(4, 2), (5, 2)]);
    let strip = ChocolateStaircase::new("t/2", true).unwrap();
    let s = strip
        .capabilities()
        .columns_picture
        .unwrap()
        .columns_picture(&[3, 1, 4])
        .unwrap();
    assert_eq!(s.column_range(), (-3, 4));
    let r = Chocolate.bar_picture_for_test();
    assert_eq!(r.columns.len(), 6);
}

trait RectangleForTest {
    fn bar_picture_for_test(&self) -> nimlab_engine::picture::ColumnsPicture;
}

impl RectangleForTest for Chocolate {
    fn bar_picture_for_test(&self) -> nimlab_engine::picture::ColumnsPicture {
        self.capabilities()
            .columns_picture
            .unwrap()
            .columns_picture(&[3, 3, 2])
            .unwrap()
    }
}

#[test]
fn registered_theorems_hold() {
    let ctx = CheckContext::with_size(32);
    for t in nimlab_games::all_theorems()
        .into_iter()
        .filter(|t| t.id.starts_with("chocolate"))
    {
        let v = t.verify(&ctx).unwrap();
        assert!(v.holds(), "{}: {v:?}", t.id);
    }
}
