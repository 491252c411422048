//! The pruned search ([`nimlab_engine::search`]) against the full memoized solver on
//! the catalog's board and graph games: Cram boards and positions on them, Node
//! Kayles on paths, cycles, grids and random graphs (graph6), Chomp — each with and
//! without the end database, so two routes of the search meet the solver's values;
//! and Node Kayles on the 3×n grid against OEIS A316632. `NIMLAB_LONG=1` widens the
//! windows.

use crate::common::Rng;
use nimlab_engine::plan::{self, read_position};
use nimlab_engine::search::Search;
use nimlab_engine::{Coord, Game, Solver, TableOptions};
use nimlab_games::node_kayles::{Graph, NodeKayles};
use nimlab_games::parse_game;

fn long() -> bool {
    std::env::var_os("NIMLAB_LONG").is_some()
}

fn small(game: &dyn Game, text: &str) -> Vec<Coord> {
    let big = read_position(game, text).unwrap();
    big.iter().map(|c| c.try_into().unwrap()).collect()
}

/// The search (with the end database at ranks 0, 4 and the default) and the solver
/// agree on `pos`, its value and its outcome.
fn agree(game: &dyn Game, pos: &[Coord]) -> u32 {
    let want = Solver::new(game).grundy(pos).unwrap();
    for end in [0, 4, nimlab_engine::search::DEFAULT_END_RANK] {
        let mut s = Search::new(game, &TableOptions::default()).with_end_rank(end);
        assert_eq!(
            s.grundy(pos).unwrap(),
            want,
            "{} {pos:?} end {end}",
            game.spec()
        );
        assert_eq!(s.is_p(pos).unwrap(), want == 0, "{} {pos:?}", game.spec());
    }
    want
}

#[test]
fn cram_boards_and_positions_agree_with_the_solver() {
    let most = if long() { 30 } else { 20 };
    let mut rng = Rng(0x5eed);
    for rows in 1..=6 {
        for cols in rows..=10 {
            if rows * cols > most {
                continue;
            }
            let g = parse_game(&format!("cram(rows={rows},cols={cols})")).unwrap();
            let start = small(&*g, "start");
            agree(&*g, &start);
            // Boards with squares covered at random.
            for _ in 0..3 {
                let pos = vec![start[0] & rng.next() | rng.next() & rng.next() & start[0]];
                agree(&*g, &pos);
            }
        }
    }
}

#[test]
fn cram_portable_code_searches_the_same_tree() {
    // Cram's hot code runs a copy compiled for the processor's bit instructions when
    // it has them; the portable copy must give the same values and visit the same
    // nodes (on any processor the verdict is the same: both may be the portable one).
    for (rows, cols, want) in [(4, 5, 2), (4, 7, 3), (5, 5, 0), (5, 6, 2)] {
        let fast = nimlab_games::cram::Cram::new(rows, cols).unwrap();
        let portable = fast.clone().portable();
        let start = small(&fast, "start");
        let mut a = Search::new(&fast, &TableOptions::default());
        let mut b = Search::new(&portable, &TableOptions::default());
        assert_eq!(a.grundy(&start).unwrap(), want, "{rows}×{cols}");
        assert_eq!(b.grundy(&start).unwrap(), want, "{rows}×{cols}");
        assert_eq!(a.stats().nodes, b.stats().nodes, "{rows}×{cols}");
    }
}

#[test]
fn node_kayles_graphs_agree_with_the_solver() {
    let n = if long() { 24 } else { 14 };
    for graph in [
        format!("path({n})"),
        format!("cycle({n})"),
        "grid(2,7)".to_string(),
        "grid(3,5)".to_string(),
        "grid(4,4)".to_string(),
        "complete(6)".to_string(),
    ] {
        let g = parse_game(&format!("node-kayles(graph={graph})")).unwrap();
        agree(&*g, &small(&*g, "start"));
    }
    let mut rng = Rng(0x6a6b);
    for i in 0..if long() { 60 } else { 20 } {
        let n = 6 + (i % 10);
        let text = graph6(n, 100 + 40 * (i % 8) as u64, &mut rng);
        // graph6 text may hold parentheses: the graph is built directly, not from a
        // spec.
        let g = NodeKayles::new(Graph::parse(&text).unwrap());
        agree(&g, &small(&g, "start"));
    }
}

/// A random graph on `n` vertices in graph6 format, each edge drawn with probability
/// `per_mille`/1000.
fn graph6(n: usize, per_mille: u64, rng: &mut Rng) -> String {
    let mut bits = Vec::new();
    for j in 1..n {
        for _ in 0..j {
            bits.push(rng.next() % 1000 < per_mille);
        }
    }
    let mut out = String::from((n as u8 + 63) as char);
    for chunk in bits.chunks(6) {
        let v = chunk
            .iter()
            .enumerate()
            .fold(0u8, |a, (k, &b)| a | (b as u8) << (5 - k));
        out.push((v + 63) as char);
    }
    out
}

#[test]
fn chomp_agrees_with_the_solver() {
    let g = parse_game("chomp(rows=4)").unwrap();
    let most = if long() { 8 } else { 5 };
    for a in 1..=most {
        for b in 0..=a {
            for c in 0..=b {
                agree(&*g, &[a, b, c]);
            }
        }
    }
}

#[test]
fn node_kayles_on_the_3_by_n_grid_is_oeis_a316632() {
    const A316632: [u32; 16] = [2, 1, 1, 0, 3, 3, 2, 2, 2, 3, 3, 5, 2, 4, 1, 3];
    let most = if long() { 16 } else { 9 };
    for n in 1..=most {
        let g = parse_game(&format!("node-kayles(graph=grid(3,{n}))")).unwrap();
        let start = small(&*g, "start");
        let mut s = Search::new(&*g, &TableOptions::default());
        assert_eq!(s.grundy(&start).unwrap(), A316632[n - 1], "3x{n}");
    }
}

/// The values past A316632 that docs/records.md publishes, reached there by the search
/// with and without the end database; here the full solver confirms those it can
/// reach (n ≤ 20, with `NIMLAB_LONG=1`).
#[test]
fn node_kayles_past_a316632_agrees_with_the_solver() {
    const PAST: [u32; 4] = [2, 2, 1, 1]; // n = 17, 18, 19, 20
    let most = if long() { 20 } else { 17 };
    for n in 17..=most {
        let g = parse_game(&format!("node-kayles(graph=grid(3,{n}))")).unwrap();
        let start = small(&*g, "start");
        let full = Solver::new(&*g).grundy(&start).unwrap();
        let searched = Search::new(&*g, &TableOptions::default())
            .grundy(&start)
            .unwrap();
        assert_eq!((full, searched), (PAST[n - 17], PAST[n - 17]), "3x{n}");
    }
}

/// Node Kayles on the 5×n grid, A316632's neighbour. For n ≤ 4 the value is known from
/// the grid read the other way: the path of five vertices is Dawson's chess (A002187,
/// 3), the 2×n ladder alternates 1, 0 (A316632's comments: 1 at five rungs), 3×5 is
/// A316632's fifth term (3) and the 4×n grid is always 0 (A316632's comments). For
/// n = 5, 6 the full solver confirms the values docs/records.md publishes (both 3).
#[test]
fn node_kayles_on_the_5_by_n_grid_agrees_with_the_other_grids_and_the_solver() {
    const KNOWN: [u32; 4] = [3, 1, 3, 0]; // n = 1, 2, 3, 4
    for n in 1..=4 {
        let g = parse_game(&format!("node-kayles(graph=grid(5,{n}))")).unwrap();
        let start = small(&*g, "start");
        let mut s = Search::new(&*g, &TableOptions::default());
        assert_eq!(s.grundy(&start).unwrap(), KNOWN[n - 1], "5x{n}");
    }
    for (n, want) in [(5, 3), (6, 3)] {
        let g = parse_game(&format!("node-kayles(graph=grid(5,{n}))")).unwrap();
        let start = small(&*g, "start");
        assert_eq!(agree(&*g, &start), want, "5x{n}");
    }
}

#[test]
fn the_planner_sends_big_boards_to_the_search() {
    // Rank 32 > SEARCH_RANK: the search; the value is Beling's (4×8: nimber 0).
    let g = parse_game("cram(rows=4,cols=8)").unwrap();
    let start = read_position(&*g, "start").unwrap();
    let r = plan::value(&*g, &start, &TableOptions::default()).unwrap();
    assert_eq!(r.method.id(), "search");
    assert_eq!(r.grundy, Some(0u32.into()));
    // A small board stays with the memoized solver.
    let g = parse_game("cram(rows=3,cols=4)").unwrap();
    let start = read_position(&*g, "start").unwrap();
    let r = plan::value(&*g, &start, &TableOptions::default()).unwrap();
    assert_eq!(r.method.id(), "brute-force");
}

/// A search split at the root into k shards and merged gives the solver's value, for
/// k from one shard to more shards than options; each shard's hits and misses are
/// the solver's; shards that do not fit together, and bounds the nimber reaches,
/// are refused.
#[test]
fn a_search_split_at_the_root_agrees_with_the_solver() {
    use nimlab_engine::big::BigUint;
    use nimlab_engine::plan::{merge_search_shards, root_options, search_shard, SearchSettings};
    let specs = [
        ("cram(rows=3,cols=5)", "start"),
        ("cram(rows=4,cols=4)", "start"),
        ("cram(rows=3,cols=6)", "#...../....../.....#"),
        ("node-kayles(graph=grid(3,5))", "start"),
        ("node-kayles(graph=cycle(11))", "start"),
        ("chomp(rows=4)", "6,4,4,2"),
    ];
    let opts = TableOptions::default();
    for (spec, text) in specs {
        let g = parse_game(spec).unwrap();
        let pos = small(&*g, text);
        let big: Vec<BigUint> = pos.iter().map(|&c| c.into()).collect();
        let want = Solver::new(&*g).grundy(&pos).unwrap();
        let values: Vec<u32> = root_options(&*g, &pos)
            .iter()
            .map(|o| Solver::new(&*g).grundy(o).unwrap())
            .collect();
        for (k, below, end_rank) in [
            (1, 8, None),
            (2, 8, Some(0)),
            (3, 2, None),
            (4, 4, None),
            (50, 8, Some(4)),
        ] {
            let settings = SearchSettings {
                end_rank,
                ..SearchSettings::default()
            };
            let shards: Vec<_> = (0..k)
                .map(|i| search_shard(&*g, &big, &opts, &settings, (i, k), below).unwrap())
                .collect();
            // Each shard's hits are exactly the nimbers below the bound its options
            // have, by the solver, each with an option worth it.
            for s in &shards {
                let mut have: Vec<u32> = (s.shard.0 as usize..values.len())
                    .step_by(k as usize)
                    .map(|j| values[j])
                    .filter(|&v| v < below)
                    .collect();
                have.sort();
                have.dedup();
                let hits: Vec<u32> = s.hits.iter().map(|h| h.grundy).collect();
                assert_eq!(hits, have, "{spec} shard {}/{k}", s.shard.0);
                for h in &s.hits {
                    assert_eq!(values[h.index as usize], h.grundy, "{spec}");
                }
            }
            let merged = merge_search_shards(&*g, &big, &shards);
            if want < below {
                let r = merged.unwrap();
                assert_eq!(r.grundy, Some(want.into()), "{spec} in {k} shards");
                for m in &r.winning_moves {
                    let m: Vec<Coord> = m.iter().map(|c| c.try_into().unwrap()).collect();
                    assert_eq!(Solver::new(&*g).grundy(&m).unwrap(), 0, "{spec}");
                }
                assert_eq!(r.winning_moves.is_empty(), want == 0, "{spec}");
            } else {
                // The nimber is not below the bound: said, not guessed.
                assert!(merged.is_err(), "{spec} below {below}");
            }
            // Refused: a shard missing, one given twice, a split of another k.
            if k > 1 {
                assert!(merge_search_shards(&*g, &big, &shards[1..]).is_err());
                let mut twice = shards.clone();
                twice[1] = shards[0].clone();
                assert!(merge_search_shards(&*g, &big, &twice).is_err());
                let other = search_shard(&*g, &big, &opts, &settings, (0, k + 1), below).unwrap();
                let mut mixed = shards.clone();
                mixed[0] = other;
                assert!(merge_search_shards(&*g, &big, &mixed).is_err());
            }
            // Refused: a hit whose option is not the one its index names.
            if let Some(h) = shards[0].hits.first() {
                let mut forged = shards.clone();
                forged[0].hits[0].option = vec![h.option[0] ^ 1];
                assert!(merge_search_shards(&*g, &big, &forged).is_err());
            }
        }
    }
}
