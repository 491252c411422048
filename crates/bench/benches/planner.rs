//! The planner's speed goals, each next to a baseline run in the same process (the
//! route a query took before the planner, or the plain brute force). Run with
//! `cargo bench -p nimlab-bench --bench planner`.
//!
//! Goals: `value nim` on 1000-digit heaps and `value sum(wythoff,nim,subtraction)` on
//! huge positions ≤ 10 ms of work; `value wythoff 3000,5000` exact ≤ 1 s; the table of
//! `octal(code=0.137)` to 10^6 (with its JSON) ≤ 0.5 s; Grundy's game to 2^20 ≤ 5 s.

mod common;

use common::best;
use nimlab_engine::big::parse_big_position;
use nimlab_engine::plan;
use nimlab_engine::table::generic_table;
use nimlab_engine::{Solver, TableOptions};
use nimlab_games::parse_game;
use std::hint::black_box;
use std::time::Duration;

fn ms(d: Duration) -> String {
    format!("{:.3} ms", d.as_secs_f64() * 1e3)
}

fn main() {
    let opts = TableOptions::default();
    let digits = |seed: u32| -> String {
        // 1000 pseudo-random decimal digits, no leading zero.
        let mut x = seed.wrapping_mul(2_654_435_761).max(1);
        (0..1000)
            .map(|i| {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                char::from(b'0' + (x % 10) as u8 + u8::from(i == 0 && x.is_multiple_of(10)))
            })
            .collect()
    };
    let (a, b, c) = (digits(1), digits(2), digits(3));

    // 1. Nim with 1000-digit heaps by Bouton's theorem; baseline: brute force on a
    //    heap of 300 (what `value nim` did before, and it cannot reach 1000 digits).
    let nim = parse_game("nim(heaps=3)").unwrap();
    let pos = parse_big_position(&format!("{a},{b},{c}")).unwrap();
    let (r, t) = best(20, || plan::value(&*nim, &pos, &opts).unwrap());
    let small = parse_big_position("300,300,300").unwrap();
    let (_, t_small) = best(1, || Solver::new(&*nim).grundy(&[60, 60, 60]).unwrap());
    println!(
        "value nim (3 heaps of 1000 digits), {}: {}   [brute force on 60,60,60: {}, ratio {:.0}x]",
        r.method.id(),
        ms(t),
        ms(t_small),
        t_small.as_secs_f64() / t.as_secs_f64()
    );
    black_box(plan::value(&*nim, &small, &opts).unwrap());

    // 2. A sum with huge parts.
    let sum = parse_game("sum(wythoff,nim,subtraction(s={1,3,4}))").unwrap();
    let pos = parse_big_position(&format!("30,50,{a},{b},{c}")).unwrap();
    let (r, t) = best(20, || plan::value(&*sum, &pos, &opts).unwrap());
    println!(
        "value sum(wythoff,nim,subtraction(s={{1,3,4}})) at 30,50,<1000 digits>×3, {}: {}",
        r.method.id(),
        ms(t)
    );
    let pos = parse_big_position(&format!("{a},{b},{c},{c},7000")).unwrap();
    let (r, t) = best(20, || plan::value(&*sum, &pos, &opts).unwrap());
    println!(
        "value sum(…) with Wythoff far out too (outcome by the strategy), {}: {}",
        r.method.id(),
        ms(t)
    );

    // 3. Wythoff 3000,5000 exactly by the line kernel; baseline: the brute-force solver
    //    on 150,250 (1/400 of the box).
    let w = parse_game("wythoff").unwrap();
    let pos = parse_big_position("3000,5000").unwrap();
    let (r, t) = best(3, || plan::value(&*w, &pos, &opts).unwrap());
    let (_, t_base) = best(1, || Solver::new(&*w).grundy(&[150, 250]).unwrap());
    println!(
        "value wythoff 3000,5000 = {:?}, {}: {}   [solver on 150,250: {}]",
        r.grundy.map(|g| g.to_string()),
        r.method.id(),
        ms(t),
        ms(t_base),
    );

    // 4. One-heap tables through the sequence kernel, with the JSON a surface writes;
    //    baseline: the generic table on 1/100 of the length.
    for (spec, len) in [
        ("octal(code=0.137)", 1_000_000usize),
        ("grundy-game", 1 << 20),
    ] {
        let g = parse_game(spec).unwrap();
        let ((r, json_len), t) = best(3, || {
            let r = plan::table(&*g, &[len], &opts).unwrap();
            let json = serde_json_like(r.table.values());
            (r, json.len())
        });
        let base_len = len / 100;
        let (_, t_base) = best(1, || generic_table(&*g, &[base_len], true, &opts).unwrap());
        println!(
            "table {spec} --size {len} + JSON ({json_len} bytes), {}: {}   [generic table to {base_len}: {}]",
            r.method.id(),
            ms(t),
            ms(t_base)
        );
    }
}

/// The values as a JSON array, written the way the CLI writes them.
fn serde_json_like(values: &[u32]) -> String {
    let mut out = String::with_capacity(values.len() * 4);
    out.push('[');
    for (i, v) in values.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&v.to_string());
    }
    out.push(']');
    out
}
