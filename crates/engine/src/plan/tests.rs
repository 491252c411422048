//! The planner's own tests: each query takes the route expected for each toy game
//! ([`crate::test_games`]), its values agree with a plain mex, and the route table of the
//! docs is the one the lists make.

use super::route::{
    route_table, CLASS_TABLE_ROUTES, CLASS_VALUE_ROUTES, PERIODICITY_ROUTES, TABLE_ROUTES,
    VALUE_ROUTES,
};
use super::*;
use crate::error::Error;
use crate::game::{Coord, Outcome, Position};
use crate::memory::MemoryLimit;
use crate::test_games::{
    mex_value, sum, three_players, Heap, King, Plain, Subtraction, TakeOneTwo, Wythoff,
};
use std::collections::{BTreeSet, HashMap};

fn big(p: &[Coord]) -> BigPosition {
    p.iter().map(|&c| BigUint::from(c)).collect()
}

fn opts() -> TableOptions<'static> {
    TableOptions::default()
}

/// `moves` at `p`: the value, the outcome, every option's value and the winning moves
/// agree with the plain mex; returns the method.
fn agrees(game: &dyn Game, p: &[Coord]) -> Method {
    let mut memo = HashMap::new();
    let g = mex_value(game, p, &mut memo);
    let r = moves(game, &big(p), &opts()).unwrap();
    let here = format!("{} at {p:?} by {}", game.spec(), r.method.id());
    assert_eq!(r.grundy, Some(BigUint::from(g)), "{here}");
    assert_eq!(r.outcome, Outcome::of(g), "{here}");
    let mut options: Vec<Position> = Vec::new();
    game.for_each_option(p, &mut |o| options.push(o.to_vec()));
    let expected: BTreeSet<(BigPosition, u32)> = options
        .iter()
        .map(|o| (big(o), mex_value(game, o, &mut memo)))
        .collect();
    let listed: BTreeSet<(BigPosition, u32)> = r
        .options
        .as_ref()
        .unwrap_or_else(|| panic!("{here}: options not listed"))
        .iter()
        .map(|o| {
            let v = u32::try_from(o.grundy.clone().expect("a value")).unwrap();
            assert_eq!(o.winning, v == 0, "{here}");
            (o.position.clone(), v)
        })
        .collect();
    assert_eq!(listed, expected, "{here}: options");
    let winning: BTreeSet<BigPosition> = expected
        .iter()
        .filter(|(_, v)| *v == 0)
        .map(|(o, _)| o.clone())
        .collect();
    let found: BTreeSet<BigPosition> = r.winning_moves.iter().cloned().collect();
    assert!(r.all_winning_moves, "{here}");
    assert_eq!(found, winning, "{here}: winning moves");
    // `value` answers the same by the same route.
    let v = value(game, &big(p), &opts()).unwrap();
    assert_eq!(
        (v.grundy, v.method.id()),
        (r.grundy, r.method.id()),
        "{here}"
    );
    r.method
}

/// The table over `dims` against the plain mex, cell by cell; returns the method.
fn table_agrees(game: &dyn Game, dims: &[usize], t: &TableReport) -> Method {
    let mut memo = HashMap::new();
    let mut p: Position = vec![0; dims.len()];
    for _ in 0..cell_count(dims).unwrap() {
        let g = mex_value(game, &p, &mut memo);
        assert_eq!(t.table.get(&p), Some(g), "{} at {p:?}", game.spec());
        super::table::next_in_box(&mut p, dims);
    }
    t.method.clone()
}

#[test]
fn value_takes_the_expected_route() {
    let cases: [(&dyn Game, &[Coord], MethodKind, &str); 9] = [
        (&Heap, &[9], MethodKind::ClosedForm, "G(n) = n"),
        (
            &Subtraction { proves: false },
            &[40],
            MethodKind::SequenceKernel,
            "toy",
        ),
        (&Wythoff, &[7, 5], MethodKind::LineKernel, "box 8x6"),
        (&King, &[6, 4], MethodKind::BruteForce, "over the box 7x5"),
        (&Plain, &[5, 3], MethodKind::BruteForce, "memoized"),
        (
            &TakeOneTwo { downward: true },
            &[10],
            MethodKind::BruteForce,
            "box 11",
        ),
        (
            &sum(),
            &[9, 4, 6],
            MethodKind::Components,
            "toy-wythoff at 4,6: line-kernel",
        ),
        (
            &sum(),
            &[3, 0, 0],
            MethodKind::Components,
            "sequence-kernel",
        ),
        (
            &Subtraction { proves: true },
            &[0],
            MethodKind::SequenceKernel,
            "toy",
        ),
    ];
    for (game, p, kind, detail) in cases {
        let m = agrees(game, p);
        assert_eq!(m.kind(), kind, "{} at {p:?}: {m:?}", game.spec());
        assert!(m.detail.contains(detail), "{} at {p:?}: {m:?}", game.spec());
    }
}

#[test]
fn value_of_positions_beyond_machine_words() {
    let huge = BigUint::from(1u32) << 100u32;
    // A closed form answers at any size.
    let r = value(&Heap, std::slice::from_ref(&huge), &opts()).unwrap();
    assert_eq!(
        (r.grundy, r.method.id()),
        (Some(huge.clone()), "closed-form")
    );
    // A strategy answers the outcome and a winning move, no value.
    let r = value(
        &TakeOneTwo { downward: true },
        std::slice::from_ref(&huge),
        &opts(),
    )
    .unwrap();
    assert_eq!(r.method.kind(), MethodKind::Strategy);
    assert_eq!(r.grundy, None);
    assert_eq!(r.outcome, Outcome::N); // 2^100 = 1 (mod 3)
    assert_eq!(r.winning_moves, vec![vec![&huge - BigUint::from(1u32)]]);
    // No closed form, no strategy: refused.
    let e = value(&Subtraction { proves: false }, &[huge], &opts()).unwrap_err();
    assert!(
        matches!(&e, Error::Input(m) if m.contains("too big for exact computation")),
        "{e:?}"
    );
}

#[test]
fn a_strategy_answers_when_the_exact_value_is_beyond_the_limits() {
    // The memoized search cannot estimate its work where a move may raise a coordinate:
    // with a strategy to answer, it is not started.
    let r = moves(&TakeOneTwo { downward: false }, &big(&[10]), &opts()).unwrap();
    assert_eq!(r.method.kind(), MethodKind::Strategy);
    assert_eq!((r.grundy, r.outcome), (None, Outcome::N));
    assert_eq!(r.winning_moves, vec![big(&[9])]);
    // Its options are still listed, each valued by the planner (by the strategy too).
    let listed: Vec<(BigPosition, bool)> = r
        .options
        .unwrap()
        .into_iter()
        .map(|o| (o.position, o.winning))
        .collect();
    assert_eq!(listed, vec![(big(&[9]), true), (big(&[8]), false)]);
    // Without a strategy the line kernel's memory refusal is the answer.
    let tiny = TableOptions {
        memory_limit: MemoryLimit::new(1 << 10),
        ..TableOptions::default()
    };
    let e = value(&Wythoff, &big(&[300, 300]), &tiny).unwrap_err();
    assert!(matches!(e, Error::TooLarge { .. }), "{e:?}");
}

#[test]
fn class_values_take_the_class_routes() {
    let game = three_players(Box::new(Subtraction { proves: false }));
    let r = value(&game, &big(&[9]), &opts()).unwrap();
    assert_eq!(r.method.kind(), MethodKind::BruteForce);
    assert!(
        r.method
            .detail
            .starts_with("n-player class recursion (3 players"),
        "{r:?}"
    );
    let classes = r.nplayer.expect("a class report");
    // A class is the number of moves still to be played, mod 3, under best play:
    // checked against the class table of the same game.
    let t = table(&game, &[10], &opts()).unwrap();
    assert_eq!(t.method.kind(), MethodKind::BruteForce);
    assert_eq!(t.table.get(&[9]), Some(classes.class));
    let e = value(&game, &[BigUint::from(1u32) << 80u32], &opts()).unwrap_err();
    assert!(
        matches!(&e, Error::Input(m) if m.contains("n-player recursion")),
        "{e:?}"
    );
}

#[test]
fn table_takes_the_expected_route() {
    let cases: [(&dyn Game, &[usize], MethodKind); 6] = [
        (
            &Subtraction { proves: false },
            &[40],
            MethodKind::SequenceKernel,
        ),
        (&Wythoff, &[9, 7], MethodKind::LineKernel),
        (&Heap, &[12], MethodKind::ClosedForm),
        (&King, &[6, 5], MethodKind::BruteForce),
        (&Plain, &[5, 4], MethodKind::BruteForce),
        (&sum(), &[8, 5, 4], MethodKind::Components),
    ];
    for (game, dims, kind) in cases {
        let t = table(game, dims, &opts()).unwrap();
        let m = table_agrees(game, dims, &t);
        assert_eq!(m.kind(), kind, "{} over {dims:?}: {m:?}", game.spec());
    }
    // From the rules only: never a closed form.
    let t = computed_table(&Heap, &[12], &opts()).unwrap();
    assert_eq!(
        table_agrees(&Heap, &[12], &t).kind(),
        MethodKind::BruteForce
    );
    // The sum names each part's route.
    let t = table(&sum(), &[8, 5, 4], &opts()).unwrap();
    assert_eq!(
        t.method.detail,
        "nim-sum of the parts' tables (toy-subtraction(1,3,4): sequence-kernel; toy-wythoff: line-kernel)"
    );
}

#[test]
fn sequence_and_periodicity() {
    let game = Subtraction { proves: false };
    let (values, method) = sequence(&game, 30, &opts()).unwrap();
    assert_eq!(method.kind(), MethodKind::SequenceKernel);
    let mut memo = HashMap::new();
    let expected: Vec<u32> = (0..30).map(|n| mex_value(&game, &[n], &mut memo)).collect();
    assert_eq!(values, expected);
    // Observed without a proof, certified with one; the same period either way.
    let (found, method, up_to) = periodicity(&game, Some(100), &opts()).unwrap();
    assert_eq!((method.kind(), up_to), (MethodKind::ObservedPeriod, 100));
    assert_eq!(method.detail, "observed on n < 100 (the toy's own loop)");
    let found = found.expect("period 7");
    assert_eq!((found.preperiod, found.period, found.saltus), (0, 7, 0));
    let (proved, method, up_to) =
        periodicity(&Subtraction { proves: true }, None, &opts()).unwrap();
    assert_eq!(
        (method.kind(), up_to),
        (MethodKind::CertifiedPeriod, DEFAULT_PROOF_SEARCH)
    );
    assert_eq!(proved.map(|p| p.period), Some(7));
    // No kernel: observed on the brute-force table.
    let (_, method, _) = periodicity(&Heap, Some(60), &opts()).unwrap();
    assert_eq!(method.kind(), MethodKind::ObservedPeriod);
    assert!(periodicity(&Wythoff, None, &opts()).is_err());
}

#[test]
fn the_route_lists_in_order() {
    let ids = |kinds: Vec<MethodKind>| kinds.into_iter().map(MethodKind::id).collect::<Vec<_>>();
    assert_eq!(
        ids(VALUE_ROUTES.iter().map(|r| r.kind).collect()),
        [
            "closed-form",
            "components",
            "misere-quotient",
            "line-kernel",
            "sequence-kernel",
            "brute-force",
            "search",
            "brute-force",
            "strategy"
        ]
    );
    assert_eq!(
        ids(CLASS_VALUE_ROUTES.iter().map(|r| r.kind).collect()),
        ["closed-form", "brute-force"]
    );
    assert_eq!(
        ids(TABLE_ROUTES.iter().map(|r| r.kind).collect()),
        [
            "table-kernel",
            "components",
            "sequence-kernel",
            "line-kernel",
            "closed-form",
            "brute-force"
        ]
    );
    assert_eq!(
        ids(CLASS_TABLE_ROUTES.iter().map(|r| r.kind).collect()),
        ["closed-form", "brute-force"]
    );
    assert_eq!(
        ids(PERIODICITY_ROUTES.iter().map(|r| r.kind).collect()),
        ["certified-period", "observed-period"]
    );
}

#[test]
fn every_kind_has_its_own_id() {
    let ids: BTreeSet<&str> = MethodKind::ALL.iter().map(|k| k.id()).collect();
    assert_eq!(ids.len(), MethodKind::ALL.len());
    for kind in MethodKind::ALL {
        let m = Method::new(kind, "detail");
        assert_eq!((m.kind(), m.id()), (kind, kind.id()));
    }
}

#[test]
fn the_docs_route_table_is_the_lists() {
    let doc = include_str!("../../../../docs/architecture.md");
    let table = route_table();
    assert!(
        doc.contains(&table),
        "docs/architecture.md must show the planner's route table as the lists make it:\n{table}"
    );
    // The README shows it in a numbered list, indented, and names every method id.
    let readme = include_str!("../../../../README.md");
    let indented: String = table.lines().map(|l| format!("   {l}\n")).collect();
    assert!(
        readme.contains(&indented),
        "README.md must show the planner's route table as the lists make it:\n{indented}"
    );
    for kind in MethodKind::ALL {
        assert!(
            readme.contains(&format!("`{}`", kind.id())),
            "README.md does not name the method {}",
            kind.id()
        );
    }
}
