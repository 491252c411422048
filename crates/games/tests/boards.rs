//! The families whose positions are boards, shapes and graphs (Chomp, Cram, Node Kayles,
//! chocolate bars of any shape), each against a plain brute force written here from
//! its definition, on every small position and on random larger ones; and through the
//! transforms (misère, pass, sum). Positions are given as people write them, so the
//! text forms are exercised too. `NIMLAB_LONG=1` widens the windows.

use crate::common::{mex, Rng};
use nimlab_engine::big::BigUint;
use nimlab_engine::plan::{self, read_position, write_position};
use nimlab_engine::{Game, TableOptions};
use nimlab_games::parse_game;
use std::collections::HashMap;

fn long() -> bool {
    std::env::var_os("NIMLAB_LONG").is_some()
}

/// Plain memoized Grundy values over any position type; `terminal` is 0 in normal play
/// and 1 in misère play (a misère terminal position is worth *1).
fn grundy<P: Clone + Eq + std::hash::Hash>(
    p: &P,
    options: &dyn Fn(&P) -> Vec<P>,
    terminal: u32,
    memo: &mut HashMap<P, u32>,
) -> u32 {
    if let Some(&v) = memo.get(p) {
        return v;
    }
    let opts = options(p);
    let v = if opts.is_empty() {
        terminal
    } else {
        let vals: Vec<u32> = opts
            .iter()
            .map(|o| grundy(o, options, terminal, memo))
            .collect();
        mex(vals)
    };
    memo.insert(p.clone(), v);
    v
}

fn engine_value(game: &dyn Game, text: &str) -> u32 {
    let pos = read_position(game, text).unwrap_or_else(|e| panic!("{text}: {e}"));
    assert_eq!(
        write_position(game, &pos),
        text.trim(),
        "text form round trip"
    );
    let r = plan::value(game, &pos, &TableOptions::default()).unwrap();
    u32::try_from(r.grundy.expect("a value")).unwrap()
}

// ---------------------------------------------------------------- Chomp

// `&Vec`: the brute force takes a function of `&P` with `P = Vec<u64>`.
#[allow(clippy::ptr_arg)]
fn chomp_options(rows: &Vec<u64>) -> Vec<Vec<u64>> {
    let mut out = Vec::new();
    for i in 0..rows.len() {
        for j in 0..rows[i] {
            if (i, j) == (0, 0) {
                continue;
            }
            // Every square (r, c) with r ≥ i and c ≥ j goes.
            out.push(
                rows.iter()
                    .enumerate()
                    .map(|(r, &len)| if r >= i { len.min(j) } else { len })
                    .collect(),
            );
        }
    }
    out
}

fn diagrams(rows: usize, cols: u64) -> Vec<Vec<u64>> {
    let mut out = vec![vec![]];
    for _ in 0..rows {
        out = out
            .into_iter()
            .flat_map(|d: Vec<u64>| {
                let top = d.last().copied().unwrap_or(cols);
                (0..=top).map(move |len| {
                    let mut e = d.clone();
                    e.push(len);
                    e
                })
            })
            .collect();
    }
    out.retain(|d| d[0] >= 1);
    out
}

#[test]
fn chomp_equals_brute_force_on_every_diagram_within_4_by_6() {
    let game = parse_game("chomp").unwrap();
    let mut memo = HashMap::new();
    let mut checked = 0;
    for rows in 1..=4 {
        for d in diagrams(rows, 6) {
            let text = d.iter().map(u64::to_string).collect::<Vec<_>>().join(",");
            let want = grundy(&d, &chomp_options, 0, &mut memo);
            assert_eq!(engine_value(&*game, &text), want, "chomp at {text}");
            checked += 1;
        }
    }
    assert!(checked > 300);
}

#[test]
fn two_row_chomp_p_positions_are_n_and_n_minus_1() {
    let game = parse_game("chomp(rows=2)").unwrap();
    let n = if long() { 200 } else { 60 };
    let t = plan::table(&*game, &[n, n], &TableOptions::default())
        .unwrap()
        .table;
    for a in 1..n as u64 {
        for b in 0..=a {
            assert_eq!(t.get(&[a, b]) == Some(0), b + 1 == a, "({a},{b})");
        }
    }
}

// ---------------------------------------------------------------- Cram

fn cram_options(rows: usize, cols: usize) -> impl Fn(&u32) -> Vec<u32> {
    move |free: &u32| {
        let mut out = Vec::new();
        for r in 0..rows {
            for c in 0..cols {
                let i = r * cols + c;
                for j in [
                    (c + 1 < cols).then(|| i + 1),
                    (r + 1 < rows).then(|| i + cols),
                ]
                .into_iter()
                .flatten()
                {
                    if free >> i & 1 == 1 && free >> j & 1 == 1 {
                        out.push(free & !(1 << i) & !(1 << j));
                    }
                }
            }
        }
        out
    }
}

fn board_text(free: u32, rows: usize, cols: usize) -> String {
    (0..rows)
        .map(|r| {
            (0..cols)
                .map(|c| {
                    if free >> (r * cols + c) & 1 == 1 {
                        '.'
                    } else {
                        '#'
                    }
                })
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("/")
}

#[test]
fn cram_equals_brute_force_on_every_board_within_4_by_4() {
    // Every set of free squares of every board up to 3×4 and 4×3, and a sample of
    // 4×4 (all of it with NIMLAB_LONG).
    for (rows, cols) in [
        (1, 5),
        (2, 2),
        (2, 3),
        (3, 2),
        (2, 4),
        (3, 3),
        (3, 4),
        (4, 3),
        (4, 4),
    ] {
        let game = parse_game(&format!("cram(rows={rows},cols={cols})")).unwrap();
        let options = cram_options(rows, cols);
        let mut memo = HashMap::new();
        let cells = rows * cols;
        let step = if cells == 16 && !long() { 97 } else { 1 };
        for free in (0..1u32 << cells).step_by(step) {
            let want = grundy(&free, &options, 0, &mut memo);
            let text = board_text(free, rows, cols);
            assert_eq!(
                engine_value(&*game, &text),
                want,
                "cram {rows}×{cols} at {text}"
            );
        }
    }
}

#[test]
fn cram_on_random_covered_boards_of_5_by_5() {
    let game = parse_game("cram(rows=5,cols=5)").unwrap();
    let options = cram_options(5, 5);
    let mut memo = HashMap::new();
    let mut rng = Rng(0x9e3779b97f4a7c15);
    for _ in 0..if long() { 200 } else { 25 } {
        // About a third of the squares covered.
        let free = (0..25).fold(0u32, |a, i| if rng.below(3) == 0 { a } else { a | 1 << i });
        let want = grundy(&free, &options, 0, &mut memo);
        assert_eq!(engine_value(&*game, &board_text(free, 5, 5)), want);
    }
}

#[test]
fn cram_on_a_strip_is_octal_0_07() {
    let dawson = parse_game("octal(code=0.07)").unwrap();
    let seq = plan::sequence(&*dawson, 41, &TableOptions::default())
        .unwrap()
        .0;
    let game = parse_game("cram(rows=1,cols=40)").unwrap();
    for (n, &want) in seq.iter().enumerate() {
        let text = format!("{}{}", ".".repeat(n), "#".repeat(40 - n));
        assert_eq!(engine_value(&*game, &text), want, "1×{n}");
    }
}

// ---------------------------------------------------------------- Node Kayles

fn kayles_options(adj: Vec<u32>) -> impl Fn(&u32) -> Vec<u32> {
    move |set: &u32| {
        (0..adj.len())
            .filter(|&v| set >> v & 1 == 1)
            .map(|v| set & !(1 << v) & !adj[v])
            .collect()
    }
}

fn vertex_text(set: u32) -> String {
    let v: Vec<String> = (0..32)
        .filter(|v| set >> v & 1 == 1)
        .map(|v: u32| v.to_string())
        .collect();
    format!("{{{}}}", v.join(","))
}

#[test]
fn node_kayles_equals_brute_force_on_random_graphs() {
    let mut rng = Rng(12345);
    let dir = std::env::temp_dir().join(format!("nimlab-kayles-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for round in 0..if long() { 60 } else { 12 } {
        let n = 4 + rng.below(11) as usize; // up to 14 vertices
        let mut adj = vec![0u32; n];
        let mut edges = String::new();
        for u in 0..n {
            for v in u + 1..n {
                if rng.below(100) < 30 {
                    adj[u] |= 1 << v;
                    adj[v] |= 1 << u;
                    edges.push_str(&format!("{u} {v}\n"));
                }
            }
        }
        edges.push_str(&format!("{} {}\n", n - 2, n - 1)); // the graph has every vertex
        adj[n - 2] |= 1 << (n - 1);
        adj[n - 1] |= 1 << (n - 2);
        let file = dir.join(format!("g{round}.edges"));
        std::fs::write(&file, edges).unwrap();
        let game = parse_game(&format!("node-kayles(graph={})", file.display())).unwrap();
        let options = kayles_options(adj);
        let mut memo = HashMap::new();
        let all = (1u32 << n) - 1;
        for _ in 0..10 {
            let set = all & rng.next() as u32 | if rng.below(3) == 0 { all } else { 0 };
            let want = grundy(&set, &options, 0, &mut memo);
            assert_eq!(
                engine_value(&*game, &vertex_text(set)),
                want,
                "graph {round}"
            );
        }
    }
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn node_kayles_on_paths_is_dawsons_chess_and_cycles_grids_complete_graphs_agree() {
    let dawson = parse_game("octal(code=0.137)").unwrap();
    let seq = plan::sequence(&*dawson, 41, &TableOptions::default())
        .unwrap()
        .0;
    for n in 1..=40u32 {
        let game = parse_game(&format!("node-kayles(graph=path({n}))")).unwrap();
        let start = read_position(&*game, "start").unwrap();
        let v = plan::value(&*game, &start, &TableOptions::default()).unwrap();
        assert_eq!(v.grundy, Some(BigUint::from(seq[n as usize])), "P_{n}");
    }
    // Named graphs with symmetries against the brute force with none.
    for (spec, n, adj) in named_graphs() {
        let game = parse_game(&format!("node-kayles(graph={spec})")).unwrap();
        let options = kayles_options(adj);
        let mut memo = HashMap::new();
        let mut rng = Rng(777);
        let all = if n == 32 { u32::MAX } else { (1u32 << n) - 1 };
        for k in 0..30 {
            let set = if k == 0 { all } else { all & rng.next() as u32 };
            let want = grundy(&set, &options, 0, &mut memo);
            assert_eq!(engine_value(&*game, &vertex_text(set)), want, "{spec}");
        }
    }
}

fn named_graphs() -> Vec<(String, usize, Vec<u32>)> {
    let mut out = Vec::new();
    for n in [3usize, 7, 12] {
        let adj = (0..n)
            .map(|v| 1 << ((v + 1) % n) | 1 << ((v + n - 1) % n))
            .collect();
        out.push((format!("cycle({n})"), n, adj));
    }
    for (r, c) in [(2usize, 5usize), (3, 4), (4, 4)] {
        let adj = (0..r * c)
            .map(|i| {
                let (y, x) = (i / c, i % c);
                let mut a = 0u32;
                if y > 0 {
                    a |= 1 << (i - c);
                }
                if y + 1 < r {
                    a |= 1 << (i + c);
                }
                if x > 0 {
                    a |= 1 << (i - 1);
                }
                if x + 1 < c {
                    a |= 1 << (i + 1);
                }
                a
            })
            .collect();
        out.push((format!("grid({r},{c})"), r * c, adj));
    }
    let adj = (0..6).map(|v| 0b111111 & !(1 << v)).collect();
    out.push(("complete(6)".into(), 6, adj));
    out
}

#[test]
fn node_kayles_reads_graph6() {
    // "Dhc" is the 5-cycle 0-2-4-1-3? Decode it here from the format's definition.
    let text = "Dhc";
    let bits: Vec<u8> = text
        .bytes()
        .skip(1)
        .flat_map(|b| (0..6).rev().map(move |k| (b - 63) >> k & 1))
        .collect();
    let n = (text.as_bytes()[0] - 63) as usize;
    let mut adj = vec![0u32; n];
    let mut k = 0;
    for j in 1..n {
        for i in 0..j {
            if bits[k] == 1 {
                adj[i] |= 1 << j;
                adj[j] |= 1 << i;
            }
            k += 1;
        }
    }
    let game = parse_game("node-kayles(graph=Dhc)").unwrap();
    let options = kayles_options(adj);
    let mut memo = HashMap::new();
    for set in 0..32u32 {
        let want = grundy(&set, &options, 0, &mut memo);
        assert_eq!(engine_value(&*game, &vertex_text(set)), want);
    }
}

// ---------------------------------------------------------------- chocolate bars

type Shape = Vec<Vec<u8>>; // 0 none, 1 square, 2 bitter

fn joined(shape: &Shape) -> Shape {
    let (h, w) = (shape.len(), shape[0].len());
    let mut keep = vec![vec![0u8; w]; h];
    let mut stack: Vec<(usize, usize)> = (0..h)
        .flat_map(|r| (0..w).map(move |c| (r, c)))
        .filter(|&(r, c)| shape[r][c] == 2)
        .collect();
    while let Some((r, c)) = stack.pop() {
        if keep[r][c] != 0 || shape[r][c] == 0 {
            continue;
        }
        keep[r][c] = shape[r][c];
        if r > 0 {
            stack.push((r - 1, c));
        }
        if r + 1 < h {
            stack.push((r + 1, c));
        }
        if c > 0 {
            stack.push((r, c - 1));
        }
        if c + 1 < w {
            stack.push((r, c + 1));
        }
    }
    crop(keep)
}

fn crop(shape: Shape) -> Shape {
    let rows: Vec<usize> = (0..shape.len())
        .filter(|&r| shape[r].iter().any(|&x| x != 0))
        .collect();
    let cols: Vec<usize> = (0..shape[0].len())
        .filter(|&c| shape.iter().any(|row| row[c] != 0))
        .collect();
    (rows[0]..=*rows.last().unwrap())
        .map(|r| {
            (cols[0]..=*cols.last().unwrap())
                .map(|c| shape[r][c])
                .collect()
        })
        .collect()
}

fn bar_options(shape: &Shape) -> Vec<Shape> {
    let (h, w) = (shape.len(), shape[0].len());
    let (br, bc) = (0..h)
        .flat_map(|r| (0..w).map(move |c| (r, c)))
        .find(|&(r, c)| shape[r][c] == 2)
        .unwrap();
    let count = |s: &Shape| s.iter().flatten().filter(|&&x| x != 0).count();
    let mut out = Vec::new();
    for line in 1..h {
        // Break between rows line − 1 and line; eat the side without the bitter square.
        let cut: Shape = (0..h)
            .map(|r| {
                if (r < line) == (br < line) {
                    shape[r].clone()
                } else {
                    vec![0; w]
                }
            })
            .collect();
        out.push(joined(&cut));
    }
    for line in 1..w {
        let cut: Shape = shape
            .iter()
            .map(|row| {
                (0..w)
                    .map(|c| if (c < line) == (bc < line) { row[c] } else { 0 })
                    .collect()
            })
            .collect();
        out.push(joined(&cut));
    }
    out.retain(|s| count(s) < count(shape));
    out
}

fn shape_text(shape: &Shape) -> String {
    shape
        .iter()
        .map(|row| {
            row.iter()
                .map(|&x| ['.', '#', 'B'][x as usize])
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("/")
}

#[test]
fn chocolate_bars_of_random_shapes_within_5_by_6_equal_brute_force() {
    let game = parse_game("chocolate-bar").unwrap();
    let mut memo = HashMap::new();
    let mut rng = Rng(4242);
    let mut checked = 0;
    while checked < if long() { 400 } else { 60 } {
        let (h, w) = (1 + rng.below(5) as usize, 1 + rng.below(6) as usize);
        let mut shape: Shape = (0..h)
            .map(|_| (0..w).map(|_| (rng.below(4) != 0) as u8).collect())
            .collect();
        let (br, bc) = (rng.below(h as u64) as usize, rng.below(w as u64) as usize);
        shape[br][bc] = 2;
        let shape = joined(&shape);
        let want = grundy(&shape, &|s: &Shape| bar_options(s), 0, &mut memo);
        assert_eq!(
            engine_value(&*game, &shape_text(&shape)),
            want,
            "{}",
            shape_text(&shape)
        );
        checked += 1;
    }
}

#[test]
fn staircases_of_the_papers_figures_equal_chocolate_staircase() {
    // CB(⌊t/4⌋, 3, 13), CB(⌊t/2⌋, 4, 9), CB(⌊t/2⌋, 2, 9) and every position below them
    // (the fourth figure, CB(f, 8, 31), has a 9 × 32 bounding box, over the 128 cells
    // a bar position holds).
    let bar = parse_game("chocolate-bar").unwrap();
    for (f, div, y0, z0) in [
        ("t/4", 4usize, 3usize, 13usize),
        ("t/2", 2, 4, 9),
        ("t/2", 2, 2, 9),
    ] {
        let stair = parse_game(&format!("chocolate-staircase(f={f})")).unwrap();
        for z in 0..=z0 {
            for y in 0..=y0.min(z / div) {
                let text = nimlab_games::chocolate_bar::staircase(|t| t / div, y, z);
                let want = engine_value(&*stair, &format!("{y},{z}"));
                assert_eq!(
                    engine_value(&*bar, &text),
                    want,
                    "CB({f}, {y}, {z}) = {text}"
                );
            }
        }
    }
}

#[test]
fn rectangles_are_three_heap_nim() {
    let bar = parse_game("chocolate-bar").unwrap();
    for x in 0..5 {
        for y in 0..4 {
            for z in 0..5 {
                let text = nimlab_games::chocolate_bar::rectangle(x, y, z);
                assert_eq!(engine_value(&*bar, &text) as usize, x ^ y ^ z, "{text}");
            }
        }
    }
}

// ---------------------------------------------------------------- transforms

#[test]
fn the_new_families_under_misere_pass_and_sum() {
    // Misère: the same brute force with terminal value 1.
    let misere = parse_game("misere(cram(rows=3,cols=3))").unwrap();
    let options = cram_options(3, 3);
    let mut memo = HashMap::new();
    for free in (0..512u32).step_by(7) {
        let want = grundy(&free, &options, 1, &mut memo);
        assert_eq!(
            engine_value(&*misere, &board_text(free, 3, 3)),
            want,
            "misère cram"
        );
    }
    let misere = parse_game("misere(node-kayles(graph=cycle(7)))").unwrap();
    let adj: Vec<u32> = (0..7)
        .map(|v| 1 << ((v + 1) % 7) | 1 << ((v + 6) % 7))
        .collect();
    let options = kayles_options(adj);
    let mut memo = HashMap::new();
    for set in 0..128u32 {
        let want = grundy(&set, &options, 1, &mut memo);
        assert_eq!(
            engine_value(&*misere, &vertex_text(set)),
            want,
            "misère node kayles"
        );
    }
    // Pass: a (position, flag) pair; the pass is not allowed at a terminal position.
    let pass = parse_game("pass(chomp)").unwrap();
    let pass_options = |(d, flag): &(Vec<u64>, u64)| -> Vec<(Vec<u64>, u64)> {
        let mut out: Vec<_> = chomp_options(d).into_iter().map(|o| (o, *flag)).collect();
        if *flag == 1 && !out.is_empty() {
            out.push((d.clone(), 0));
        }
        out
    };
    let mut memo = HashMap::new();
    for d in diagrams(3, 4) {
        for flag in 0..2 {
            let text = format!(
                "{},{flag}",
                d.iter().map(u64::to_string).collect::<Vec<_>>().join(",")
            );
            let want = grundy(&(d.clone(), flag), &pass_options, 0, &mut memo);
            assert_eq!(engine_value(&*pass, &text), want, "pass(chomp) at {text}");
        }
    }
    let pass = parse_game("pass(cram(rows=2,cols=3))").unwrap();
    let options = cram_options(2, 3);
    let pass_options = |(free, flag): &(u32, u64)| -> Vec<(u32, u64)> {
        let mut out: Vec<_> = options(free).into_iter().map(|o| (o, *flag)).collect();
        if *flag == 1 && !out.is_empty() {
            out.push((*free, 0));
        }
        out
    };
    let mut memo = HashMap::new();
    for free in 0..64u32 {
        for flag in 0..2 {
            let text = format!("{},{flag}", board_text(free, 2, 3));
            let want = grundy(&(free, flag), &pass_options, 0, &mut memo);
            assert_eq!(engine_value(&*pass, &text), want, "pass(cram) at {text}");
        }
    }
    // Sum: the nim-sum of the parts.
    let sum =
        parse_game("sum(cram(rows=2,cols=3),node-kayles(graph=path(5)),nim(heaps=1))").unwrap();
    let cram = parse_game("cram(rows=2,cols=3)").unwrap();
    let kayles = parse_game("node-kayles(graph=path(5))").unwrap();
    for (b, v, h) in [
        (".../..#", "{0,1,2,3,4}", 3),
        ("#../...", "{1,2}", 0),
        ("###/...", "{}", 6),
    ] {
        let want = engine_value(&*cram, b) ^ engine_value(&*kayles, v) ^ h;
        assert_eq!(engine_value(&*sum, &format!("{b};{v};{h}")), want);
    }
}

#[test]
fn bad_positions_are_refused_in_one_line() {
    for (spec, text) in [
        ("cram(rows=2,cols=2)", "../."),
        ("cram(rows=2,cols=2)", "../x."),
        ("cram(rows=2,cols=2)", "3,4"),
        ("node-kayles(graph=path(3))", "{0,5}"),
        ("node-kayles(graph=path(3))", "0,1"),
        ("chocolate-bar", "##/##"),
        ("chocolate-bar", "B./.#"),
        ("chomp", "3,4"),
        ("chomp", "0,0"),
        ("chomp", "start"),
    ] {
        let game = parse_game(spec).unwrap();
        let err = read_position(&*game, text)
            .and_then(|p| plan::value(&*game, &p, &TableOptions::default()).map(|_| ()))
            .expect_err(text);
        assert!(!err.to_string().contains('\n'), "{spec} {text}: {err}");
    }
    for spec in [
        "cram(rows=12,cols=11)",
        "node-kayles(graph=path(0))",
        "node-kayles(graph=grid(20,20))",
        "node-kayles(graph=nonsense)",
        "node-kayles(graph=cycle(2))",
    ] {
        assert!(parse_game(spec).is_err(), "{spec}");
    }
}

// ---------------------------------------------------------------- published values

fn start_value(spec: &str) -> u32 {
    let game = parse_game(spec).unwrap();
    let start = read_position(&*game, "start").unwrap();
    let r = plan::value(&*game, &start, &TableOptions::default()).unwrap();
    u32::try_from(r.grundy.expect("a value")).unwrap()
}

#[test]
fn cram_matches_the_published_table() {
    // P. Beling's table of Cram nimbers (README of beling/impartial-games, from Glop,
    // M. Schneider 2009 and his own solver): rows × cols → nimber.
    let mut published = vec![((4, 4), 0), ((4, 5), 2), ((4, 6), 0), ((5, 5), 0)];
    if long() {
        published.extend([
            ((4, 7), 3),
            ((5, 6), 2),
            ((5, 7), 1),
            ((6, 6), 0),
            ((4, 8), 0),
        ]);
    }
    for ((r, c), want) in published {
        assert_eq!(
            start_value(&format!("cram(rows={r},cols={c})")),
            want,
            "{r}×{c}"
        );
    }
}

#[test]
fn node_kayles_on_grids_matches_oeis() {
    // OEIS A316632 (3 × n grids), and the 2 × n and 4 × n sequences its comments give
    // (Brown et al., J. Integer Seq. 23 (2020), Article 20.3.5).
    let a316632 = [2, 1, 1, 0, 3, 3, 2, 2, 2, 3, 3, 5, 2, 4, 1, 3];
    let n = if long() { 16 } else { 12 };
    for (i, &want) in a316632.iter().enumerate().take(n) {
        assert_eq!(
            start_value(&format!("node-kayles(graph=grid(3,{}))", i + 1)),
            want
        );
    }
    for c in 1..=10 {
        assert_eq!(
            start_value(&format!("node-kayles(graph=grid(2,{c}))")),
            c % 2
        );
    }
    for c in 1..=if long() { 10 } else { 6 } {
        assert_eq!(
            start_value(&format!("node-kayles(graph=grid(4,{c}))")),
            0,
            "4×{c}"
        );
    }
}

#[test]
fn node_kayles_on_symmetric_graphs_keyed_by_their_automorphisms_equals_brute_force() {
    // Graphs read from their edges get their automorphism group from the labelling
    // library; every subset of vertices must keep its brute-force value.
    let petersen = "0 1\n1 2\n2 3\n3 4\n4 0\n0 5\n1 6\n2 7\n3 8\n4 9\n5 7\n7 9\n9 6\n6 8\n8 5\n";
    let cube = "0 1\n1 3\n3 2\n2 0\n4 5\n5 7\n7 6\n6 4\n0 4\n1 5\n2 6\n3 7\n";
    let star = "0 1\n0 2\n0 3\n0 4\n0 5\n0 6\n0 7\n0 8\n";
    let triangles = "0 1\n1 2\n2 0\n3 4\n4 5\n5 3\n6 7\n7 8\n8 6\n";
    let dir = std::env::temp_dir().join(format!("nimlab-kayles-sym-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (name, edges) in [
        ("petersen", petersen),
        ("cube", cube),
        ("star", star),
        ("triangles", triangles),
    ] {
        let mut adj = vec![0u32; 0];
        for line in edges.lines() {
            let (u, v) = line.split_once(' ').unwrap();
            let (u, v): (usize, usize) = (u.parse().unwrap(), v.parse().unwrap());
            adj.resize(adj.len().max(u.max(v) + 1), 0);
            adj[u] |= 1 << v;
            adj[v] |= 1 << u;
        }
        let file = dir.join(format!("{name}.edges"));
        std::fs::write(&file, edges).unwrap();
        let game = parse_game(&format!("node-kayles(graph={})", file.display())).unwrap();
        let n = adj.len();
        let options = kayles_options(adj);
        let mut memo = HashMap::new();
        // One solver for the whole graph (its memo holds the keys of every subset).
        let start = read_position(&*game, "start").unwrap();
        let full = plan::value(&*game, &start, &TableOptions::default()).unwrap();
        assert_eq!(
            full.grundy,
            Some(BigUint::from(grundy(
                &((1u32 << n) - 1),
                &options,
                0,
                &mut memo
            ))),
            "{name}"
        );
        for set in 0..1u32 << n {
            let want = grundy(&set, &options, 0, &mut memo);
            assert_eq!(
                engine_value(&*game, &vertex_text(set)),
                want,
                "{name} {set:b}"
            );
        }
    }
    std::fs::remove_dir_all(dir).ok();
}
