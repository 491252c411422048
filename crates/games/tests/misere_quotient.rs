//! Misère quotients against the plain definition: for every multiset of up to four
//! heaps below the quotient's bound, the outcome read off the quotient (the product of
//! the heaps' elements lies in the P-portion) equals the multiset kernel's misère value
//! being 0; winning moves are exactly the options the kernel values 0. Known quotients
//! from the papers as exact tests.

use nimlab_engine::misere_quotient::{MisereQuotient, QuotientOptions};
use nimlab_engine::{Coord, Solver};
use nimlab_games::parse_game;

/// Every multiset of `count` heaps of sizes 1..=`max`, sizes non-decreasing.
fn multisets(count: usize, max: Coord) -> Vec<Vec<Coord>> {
    let mut out = vec![vec![]];
    let mut all = vec![];
    for _ in 0..count {
        out = out
            .into_iter()
            .flat_map(|m: Vec<Coord>| {
                let from = m.last().copied().unwrap_or(1);
                (from..=max).map(move |h| {
                    let mut n = m.clone();
                    n.push(h);
                    n
                })
            })
            .collect();
        all.extend(out.iter().cloned());
    }
    all
}

fn quotient(code: &str, max: u64) -> MisereQuotient {
    let game = parse_game(&format!("octal(code={code})")).unwrap();
    MisereQuotient::of_game(game.as_ref(), max, &QuotientOptions::default()).unwrap()
}

fn long() -> bool {
    std::env::var_os("NIMLAB_LONG").is_some()
}

/// The quotient's outcomes and winning moves against the multiset kernel; `false` when
/// the quotient did not settle (a clean refusal, never a wrong answer).
fn check(code: &str, max_heap: u64, count: usize, window: u64) -> bool {
    let game = parse_game(&format!("octal(code={code})")).unwrap();
    let q = match MisereQuotient::of_game(game.as_ref(), max_heap, &QuotientOptions::default()) {
        Ok(q) => q,
        Err(nimlab_engine::Error::TooLong { .. }) => return false,
        Err(e) => panic!("{code}: {e}"),
    };
    let inner = parse_game(&format!("octal(code={code})")).unwrap();
    let game = parse_game(&format!("misere(octal(code={code}))")).unwrap();
    let mut solver = Solver::new(game.as_ref());
    for pos in multisets(count, window) {
        let kernel_p = solver.grundy(&pos).unwrap() == 0;
        assert_eq!(
            q.is_p(&pos),
            kernel_p,
            "0.{code} at {pos:?}: {}",
            q.presentation
        );
        if pos.len() <= 2 {
            let a = q
                .analyse(&pos, &|h, visit| inner.for_each_option(&[h], visit))
                .unwrap();
            for (option, winning) in &a.options {
                assert_eq!(
                    *winning,
                    solver.grundy(option).unwrap() == 0,
                    "{code} {pos:?} → {option:?}"
                );
            }
        }
    }
    true
}

#[test]
fn quotient_outcomes_match_the_multiset_kernel_on_a_sample_of_codes() {
    // Two- and three-digit codes, tame and wild, with and without splitting.
    let codes = [
        "0.75", "0.77", "0.07", "0.137", "0.6", "0.4", "0.71", "0.26", "0.34", "0.56", "0.35",
        "0.16", "0.53", "0.54", "0.72", "0.126", "0.156", "0.314", "0.176",
    ];
    let (heap, four, three) = if long() { (14, 9, 14) } else { (9, 6, 9) };
    let mut settled = 0;
    for code in codes {
        // Pairs to heap 14: sums of product 1 other than the empty sum (such as two
        // equal heaps) once slipped through the check.
        if check(code, heap, 4, four) && check(code, heap, 3, three) && check(code, 14, 2, 14) {
            settled += 1;
        }
    }
    assert!(
        settled == codes.len(),
        "{settled} of {} settled",
        codes.len()
    );
}

#[test]
fn winning_moves_of_larger_positions_match_the_multiset_kernel() {
    let w = if long() { 20 } else { 12 };
    assert!(check("0.77", w, 2, w));
    assert!(check("0.07", w, 2, w));
}

#[test]
fn octal_075_has_the_published_quotient_of_order_8() {
    // Plambeck, "Taming the wild in impartial combinatorial games" (2005): the misère
    // quotient of 0.75 is ⟨a, b, c | a² = 1, b³ = b, bc = ab, c² = b²⟩, of order 8 with
    // two P-positions' elements, a and b²; heaps 1, 2, 5 carry the generators.
    let q = quotient("0.75", 40);
    assert_eq!((q.size(), q.p_size()), (8, 2));
    assert_eq!(q.generator_heaps, vec![1, 2, 5]);
    assert_eq!(
        q.presentation.to_string(),
        "⟨a, b, c | a² = 1, bc = ab, c² = b², b³ = b⟩"
    );
    assert!(!q.is_tame());
}

#[test]
fn tame_and_wild_codes_are_told_apart() {
    // 0.56 and 0.156 have the tame quotient T₃ (order 10, |P| = 2); 0.75 and Kayles
    // are wild.
    assert!(quotient("0.56", 12).is_tame());
    assert!(quotient("0.156", 12).is_tame());
    assert!(!quotient("0.77", 12).is_tame());
}

#[test]
fn kayles_quotient_is_stable_from_heap_27() {
    // Misère Kayles: the presentation last changes at heap 27 (generators at heaps 1, 2,
    // 5, 9, 12, 25, 27), then |Q| = 40 with |P| = 9 through heap 40.
    let q = quotient("0.77", 40);
    assert_eq!(q.changes, vec![1, 2, 5, 9, 12, 25, 27]);
    assert_eq!((q.size(), q.p_size()), (40, 9));
}

#[test]
fn dawsons_kayles_quotients_match_misere_solver() {
    // Dawson's Kayles (0.07), heap by heap: the orders and P-portions MisereSolver
    // (A. N. Siegel's Java program, run beside nimlab; see docs/misere.md) prints for the
    // same bounds, and the same heaps where the presentation changes.
    let q = quotient("0.07", 24);
    assert_eq!((q.size(), q.p_size()), (24, 5));
    assert_eq!(q.changes, vec![2, 4, 10, 14]);
    let q = quotient("0.07", 26);
    assert_eq!((q.size(), q.p_size()), (144, 23));
    let q = quotient("0.07", 30);
    assert_eq!((q.size(), q.p_size()), (360, 65));
    assert_eq!(q.changes, vec![2, 4, 10, 14, 25, 27, 30]);
    if long() {
        let q = quotient("0.07", 33);
        assert_eq!((q.size(), q.p_size()), (638, 109));
        assert_eq!(q.changes, vec![2, 4, 10, 14, 25, 27, 30, 31, 32, 33]);
    }
}

#[test]
fn dawsons_kayles_to_heap_30_has_the_published_order_360() {
    // A. N. Siegel, answering M. Weimerskirch in T. E. Plambeck's weblog "Misère games"
    // ("Some MisereSolver questions answered", 28 August 2007): Q_30(0.07) has 360
    // elements.
    assert_eq!(quotient("0.07", 30).size(), 360);
}

#[test]
fn dawsons_kayles_at_heap_34_is_refused_cleanly() {
    // Heap 34 does not settle (docs/misere.md: the powers of heap 34 keep growing apart);
    // a small element limit stops it at once, saying how far the quotient is known.
    let game = parse_game("octal(code=0.07)").unwrap();
    let limits = QuotientOptions {
        max_elements: 2500,
        ..QuotientOptions::default()
    };
    match MisereQuotient::of_game(game.as_ref(), 34, &limits) {
        Err(
            e @ nimlab_engine::Error::OutOfRange {
                knob: nimlab_engine::Knob::MaxElements,
                ..
            },
        ) => {
            // The element limit is named as a setting of its own, not as memory.
            let what = e.to_string();
            assert!(what.contains("known to heap 33"), "{what}");
            assert!(what.contains("max_elements 2500"), "{what}")
        }
        other => panic!("expected a refusal, got {:?}", other.map(|q| q.size())),
    }
}

#[test]
fn dawsons_kayles_past_heap_25_matches_the_multiset_kernel() {
    // The quotient grows from 24 to 144 elements at heap 25; its outcomes on sums of
    // two (three, with NIMLAB_LONG) heaps up to 27 against the exact search.
    assert!(check("0.07", 27, 2, 27));
    if long() {
        assert!(check("0.07", 27, 3, 27));
    }
}

#[test]
fn the_planner_answers_many_heaps_of_misere_kayles_from_the_quotient() {
    use nimlab_engine::plan;
    use nimlab_engine::TableOptions;
    let game = parse_game("misere(octal(code=0.77))").unwrap();
    let inner = parse_game("octal(code=0.77)").unwrap();
    let heaps: Vec<Coord> = (0..1000u64).map(|i| 1 + (i * 7) % 20).collect();
    let pos: Vec<nimlab_engine::big::BigUint> = heaps.iter().map(|&h| h.into()).collect();
    let r = plan::moves(game.as_ref(), &pos, &TableOptions::default()).unwrap();
    assert_eq!(r.method.id(), "misere-quotient");
    let q = quotient("0.77", 20);
    assert_eq!(r.outcome == nimlab_engine::Outcome::P, q.is_p(&heaps));
    // Every option is marked winning exactly when the quotient calls it P; an
    // N-position has a winning move, a P-position none.
    let options = r.options.expect("options listed");
    let a = q
        .analyse(&heaps, &|h, visit| inner.for_each_option(&[h], visit))
        .unwrap();
    assert_eq!(options.len(), a.options.len());
    for o in &options {
        let small: Vec<Coord> = o.position.iter().map(|c| c.try_into().unwrap()).collect();
        assert_eq!(o.winning, q.is_p(&small));
    }
    assert_eq!(
        r.winning_moves.is_empty(),
        r.outcome == nimlab_engine::Outcome::P
    );
    // Small positions keep the exact solver and its misère Grundy value.
    let small: Vec<nimlab_engine::big::BigUint> = [3u64, 5, 7].iter().map(|&h| h.into()).collect();
    let s = plan::value(game.as_ref(), &small, &TableOptions::default()).unwrap();
    assert_ne!(s.method.id(), "misere-quotient");
    assert!(s.grundy.is_some());
}

/// The heaps' option lists count against the memory limit: 0.fff in base 16 (a heap
/// splits into up to three) to heap 1000 needs gigabytes of lists, refused with an
/// estimate before they grow (it reached 4.59 GB with a 200 MB limit).
#[test]
fn option_lists_count_against_the_memory_limit() {
    let game = parse_game("octal(code=0.fff,base=16)").unwrap();
    let limits = QuotientOptions {
        memory_limit: nimlab_engine::MemoryLimit::new(200 << 20),
        ..QuotientOptions::default()
    };
    let e = MisereQuotient::of_game(game.as_ref(), 1000, &limits).unwrap_err();
    match &e {
        nimlab_engine::Error::TooLarge {
            what,
            needed,
            limit,
        } => {
            assert!(what.starts_with("listing the options of"), "{e}");
            assert!(needed > limit, "{e}");
            assert_eq!(*limit, 200 << 20);
        }
        other => panic!("{other}"),
    }
    // Within the limit the same game's small quotient is computed.
    let q = MisereQuotient::of_game(game.as_ref(), 30, &limits).unwrap();
    assert_eq!(q.max_heap(), 30);
}

/// Candidates count against the limit with what is alive beside them: grundy-game to
/// heap 40 is refused at heap 29 within 200 MB (it used 405 MB before).
#[test]
fn candidates_count_against_the_memory_limit() {
    let game = parse_game("grundy-game").unwrap();
    let limits = QuotientOptions {
        memory_limit: nimlab_engine::MemoryLimit::new(200 << 20),
        ..QuotientOptions::default()
    };
    let e = MisereQuotient::of_game(game.as_ref(), 40, &limits).unwrap_err();
    assert!(
        matches!(e, nimlab_engine::Error::TooLarge { limit, .. } if limit == 200 << 20),
        "{e}"
    );
    assert!(e.to_string().contains("at heap 29"), "{e}");
}
