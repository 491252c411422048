//! Every planner route: the method it reports, and agreement with the plain brute-force
//! solver (value, outcome, every winning move, every option's value) on small positions.

use nimlab_engine::big::{BigPosition, BigUint};
use nimlab_engine::plan::{self, PositionReport};
use nimlab_engine::table::generic_table;
use nimlab_engine::{Coord, Game, Solver, TableOptions};
use nimlab_games::parse_game;
use std::collections::BTreeSet;

fn big(p: &[Coord]) -> BigPosition {
    p.iter().map(|&c| BigUint::from(c)).collect()
}

fn canonical(game: &dyn Game, p: &[Coord]) -> Vec<Coord> {
    let mut p = p.to_vec();
    if nimlab_engine::capability::is_sum_of_heaps(game) {
        nimlab_engine::capability::canonical_heaps(&mut p);
    }
    p
}

/// The planner's answer at `p` against brute force; returns the method id.
fn agrees(spec: &str, p: &[Coord]) -> &'static str {
    let game = parse_game(spec).unwrap();
    let opts = TableOptions::default();
    let r: PositionReport = plan::moves(&*game, &big(p), &opts).unwrap();
    let mut solver = Solver::new(&*game);
    let g = solver.grundy(p).unwrap();
    let here = format!("{spec} at {p:?} by {}", r.method.id());
    assert_eq!(r.grundy, Some(BigUint::from(g)), "{here}");
    assert_eq!(r.outcome, nimlab_engine::Outcome::of(g), "{here}");
    // Every option with its value, as brute force sees them.
    let mut expected = BTreeSet::new();
    let mut winning = BTreeSet::new();
    for o in game.options(p) {
        let v = solver.grundy(&o).unwrap();
        let o = canonical(&*game, &o);
        if v == 0 {
            winning.insert(big(&o));
        }
        expected.insert((big(&o), v));
    }
    let listed: BTreeSet<(BigPosition, u32)> = r
        .options
        .as_ref()
        .unwrap_or_else(|| panic!("{here}: options not listed: {:?}", r.options_note))
        .iter()
        .map(|o| {
            let v: u32 = o.grundy.as_ref().unwrap().try_into().unwrap();
            assert_eq!(o.winning, v == 0, "{here}");
            (o.position.clone(), v)
        })
        .collect();
    assert_eq!(listed, expected, "{here}: options");
    let found: BTreeSet<BigPosition> = r.winning_moves.iter().cloned().collect();
    if r.all_winning_moves {
        assert_eq!(found, winning, "{here}: winning moves");
    } else {
        assert!(found.is_subset(&winning), "{here}: winning moves");
    }
    // `value` gives the same value and winning moves as `moves`.
    let v = plan::value(&*game, &big(p), &opts).unwrap();
    assert_eq!(v.grundy, r.grundy, "{here}");
    let found_v: BTreeSet<BigPosition> = v.winning_moves.iter().cloned().collect();
    if v.all_winning_moves {
        assert_eq!(found_v, winning, "{here}: value's winning moves");
    }
    r.method.id()
}

fn positions(dim: usize, side: u64) -> Vec<Vec<Coord>> {
    let mut out = vec![vec![]];
    for _ in 0..dim {
        out = out
            .into_iter()
            .flat_map(|p| {
                (0..side).map(move |c| {
                    let mut q = p.clone();
                    q.push(c);
                    q
                })
            })
            .collect();
    }
    out
}

#[test]
fn closed_form_route_nim_and_misere_nim() {
    for p in positions(3, 7) {
        assert_eq!(agrees("nim(heaps=3)", &p), "closed-form");
        assert_eq!(agrees("misere(nim(heaps=3))", &p), "closed-form");
    }
    for p in positions(4, 4) {
        assert_eq!(agrees("misere(nim(heaps=4))", &p), "closed-form");
    }
}

#[test]
fn line_kernel_route_wythoff_and_ryuoh() {
    for p in positions(2, 24) {
        assert_eq!(agrees("wythoff", &p), "line-kernel");
        assert_eq!(agrees("wythoff(a=2)", &p), "line-kernel");
        assert_eq!(agrees("ryuoh(p=4)", &p), "line-kernel");
        assert_eq!(agrees("misere(wythoff)", &p), "line-kernel");
    }
}

#[test]
fn components_route_sums_and_heaps() {
    for p in positions(4, 5) {
        assert_eq!(agrees("sum(wythoff,nim)", &p), "components");
        assert_eq!(
            agrees(
                "sum(ryuoh(p=3),subtraction(s={1,3,4}),nim(heaps=2))",
                &[p[0], p[1], p[2] * 3, p[3], 2]
            ),
            "components"
        );
    }
    for p in positions(3, 9) {
        assert_eq!(agrees("octal(code=0.77)", &p), "components");
        assert_eq!(agrees("octal(code=4.07)", &p), "components");
    }
}

#[test]
fn sequence_route_one_heap() {
    for n in 0..60 {
        assert_eq!(agrees("octal(code=0.137)", &[n]), "sequence-kernel");
        assert_eq!(agrees("grundy-game", &[n]), "sequence-kernel");
        assert_eq!(agrees("subtraction(s={2,5,7})", &[n]), "closed-form");
    }
}

#[test]
fn brute_force_route() {
    for p in positions(3, 4) {
        let q = [p[0], p[1], p[2] % 2];
        assert_eq!(agrees("pass(ryuoh(p=3))", &q), "brute-force");
    }
    for n in 0..40 {
        assert_eq!(agrees("fibonacci-nim(k=2)", &[n, n / 2]), "brute-force");
    }
}

#[test]
fn big_positions_route_through_closed_forms_and_strategies() {
    let opts = TableOptions::default();
    let huge = "1".repeat(1000);
    let pos = |t: &str| nimlab_engine::big::parse_big_position(t).unwrap();
    let nim = parse_game("nim").unwrap();
    let r = plan::value(&*nim, &pos(&format!("{huge},{huge}5")), &opts).unwrap();
    assert_eq!(r.method.id(), "closed-form");
    assert_eq!(r.winning_moves.len(), 1);
    let w = parse_game("wythoff").unwrap();
    let r = plan::value(&*w, &pos(&format!("{huge},{huge}")), &opts).unwrap();
    assert_eq!(r.method.id(), "strategy");
    assert_eq!(r.grundy, None);
    // A sum whose parts all have closed forms: the value is the nim-sum, and every
    // winning move is found (Ryuoh by Theorem 3.1 in its row, column and steps).
    let s = parse_game("sum(ryuoh(p=3),nim(heaps=1),subtraction(s={1,3,4}))").unwrap();
    let r = plan::moves(&*s, &pos(&format!("{huge},{huge}7,{huge},{huge}")), &opts).unwrap();
    assert_eq!(r.method.id(), "components");
    assert!(r.all_winning_moves && !r.winning_moves.is_empty());
    for m in &r.winning_moves {
        assert_eq!(
            plan::value(&*s, m, &opts).unwrap().outcome,
            nimlab_engine::Outcome::P
        );
    }
    // A sum with Wythoff far out: outcome from the strategy when the rest sums to 0.
    let s = parse_game("sum(wythoff,nim)").unwrap();
    let r = plan::value(&*s, &pos(&format!("{huge},{huge},5,5")), &opts).unwrap();
    assert_eq!(r.grundy, None);
    assert_eq!(r.outcome, nimlab_engine::Outcome::N);
}

#[test]
fn ryuoh_beyond_brute_force_agrees_with_the_line_kernel() {
    // Coordinates ≥ 256 go to Theorem 3.1; compare with the kernel's table.
    let game = parse_game("ryuoh(p=5)").unwrap();
    let opts = TableOptions::default();
    let t = plan::table(&*game, &[300, 300], &opts).unwrap();
    assert_eq!(t.method.id(), "line-kernel");
    for p in [[299u64, 3], [256, 280], [270, 299]] {
        let r = plan::moves(&*game, &big(&p), &opts).unwrap();
        assert_eq!(r.method.id(), "closed-form");
        assert_eq!(r.grundy, Some(BigUint::from(t.table.get(&p).unwrap())));
        for o in r.options.unwrap() {
            let q: Vec<u64> = o.position.iter().map(|c| c.try_into().unwrap()).collect();
            assert_eq!(o.grundy, Some(BigUint::from(t.table.get(&q).unwrap())));
        }
    }
}

#[test]
fn table_routes_agree_with_the_generic_table() {
    let opts = TableOptions::default();
    for (spec, dims, method) in [
        ("nim(heaps=3)", vec![9, 9, 9], "closed-form"),
        ("misere(nim(heaps=3))", vec![7, 7, 7], "closed-form"),
        (
            "sum(wythoff,subtraction(s={1,3,4}))",
            vec![12, 12, 12],
            "components",
        ),
        ("octal(code=0.137)", vec![300], "sequence-kernel"),
        ("grundy-game", vec![300], "sequence-kernel"),
        ("subtraction(s={2,5,7})", vec![300], "sequence-kernel"),
        ("wythoff", vec![40, 30], "line-kernel"),
        ("misere(wythoff)", vec![40, 30], "line-kernel"),
        ("misere(ryuoh(p=5))", vec![30, 45], "line-kernel"),
        ("misere(wythoff(a=3))", vec![35, 35], "line-kernel"),
        ("fibonacci-nim(k=2)", vec![40, 40], "table-kernel"),
        ("pass(ryuoh(p=3))", vec![12, 12, 2], "brute-force"),
    ] {
        let game = parse_game(spec).unwrap();
        let t = plan::table(&*game, &dims, &opts).unwrap();
        assert_eq!(t.method.id(), method, "{spec}");
        let oracle = generic_table(&*game, &dims, game.is_downward_closed(), &opts).unwrap();
        assert_eq!(t.table.values(), oracle.values(), "{spec}");
    }
}

#[test]
fn periodicity_routes() {
    let opts = TableOptions::default();
    let g = parse_game("subtraction(s={2,5,7})").unwrap();
    let (p, method, _) = plan::periodicity(&*g, None, &opts).unwrap();
    assert_eq!(method.id(), "certified-period");
    assert_eq!(p.unwrap().period, 22);
    let g = parse_game("octal(code=0.137)").unwrap();
    let (p, method, _) = plan::periodicity(&*g, None, &opts).unwrap();
    assert_eq!(method.id(), "certified-period");
    assert_eq!(p.unwrap().period, 34);
    let g = parse_game("nim(heaps=1)").unwrap();
    let (p, method, _) = plan::periodicity(&*g, Some(300), &opts).unwrap();
    assert_eq!(method.id(), "observed-period");
    assert_eq!(p.unwrap().saltus, 1);
}

#[test]
fn every_catalog_game_forwards_its_capabilities_through_the_box() {
    for spec in [
        "nim",
        "wythoff",
        "ryuoh",
        "subtraction(s={1,2})",
        "octal(code=0.77)",
        "grundy-game",
        "fibonacci-nim",
        "sum(nim,wythoff)",
        "misere(nim)",
    ] {
        let boxed = parse_game(spec).unwrap();
        let direct: &dyn Game = &*boxed;
        assert_eq!(
            boxed.capabilities().names(),
            direct.capabilities().names(),
            "{spec}"
        );
        assert!(!direct.capabilities().names().is_empty(), "{spec}");
    }
}

/// Welter positions of many heaps: the value (n log n) always, the winning moves (n²)
/// up to the cap; beyond it the answer says so instead of listing none silently.
#[test]
fn welter_lists_winning_moves_up_to_its_cap() {
    use nimlab_engine::big::BigUint;
    use nimlab_games::welter::{welter_big, MAX_HEAPS_WITH_MOVES};
    let game = nimlab_games::parse_game("welter").unwrap();
    let opts = nimlab_engine::TableOptions::default();
    for n in [40, MAX_HEAPS_WITH_MOVES + 1] {
        let heaps: Vec<BigUint> = (1..=n as u64).map(|h| BigUint::from(h * 3)).collect();
        let r = nimlab_engine::plan::value(&*game, &heaps, &opts).unwrap();
        assert_eq!(r.grundy, Some(welter_big(&heaps)));
        if n <= MAX_HEAPS_WITH_MOVES {
            assert!(r.all_winning_moves && !r.winning_moves.is_empty());
            for m in &r.winning_moves {
                assert_eq!(welter_big(m), BigUint::default());
            }
        } else {
            assert!(!r.all_winning_moves && r.winning_moves.is_empty());
            assert!(r.method.detail.contains("at most"), "{}", r.method.detail);
        }
    }
}

#[test]
fn n_player_values_take_the_class_table_when_it_is_cheaper() {
    // The class table over the box below the position (an array read per option)
    // against the memoized class recursion (a hash look-up per option): same classes
    // and best moves, at every position of a window.
    use nimlab_engine::rule::ValueRule;
    let game = parse_game("nplayer(wythoff,n=3)").unwrap();
    let opts = TableOptions::default();
    let ranking = game.capabilities().nplayer.unwrap().ranking.clone();
    let mut solver = Solver::with_rule_and_options(&*game, ValueRule::Classes(&ranking), &opts);
    for x in 0..14u64 {
        for y in 0..14u64 {
            let r = plan::moves(&*game, &big(&[x, y]), &opts).unwrap();
            assert!(
                r.method.detail.contains("cell by cell"),
                "{}",
                r.method.detail
            );
            let c = r.nplayer.as_ref().unwrap();
            assert_eq!(c.class, solver.value(&[x, y]).unwrap(), "at {x},{y}");
            for (o, oc) in c.options.as_ref().unwrap() {
                let o: Vec<Coord> = o.iter().map(|b| u64::try_from(b).unwrap()).collect();
                assert_eq!(*oc, solver.value(&o).unwrap(), "option {o:?} of {x},{y}");
            }
        }
    }
}
