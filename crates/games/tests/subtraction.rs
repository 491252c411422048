//! Subtraction games: certified periods against the naive mex far beyond them, big
//! heaps, the byte and prefix sequences, and the sweep's shards. Moved from the
//! library's unit tests (through the public API).

use crate::common::subtraction_option_values;
use nimlab_engine::big::BigUint;
use nimlab_engine::capability::BigPositions;
use nimlab_engine::Solver;
use nimlab_games::subtraction::{
    certify_period, count_sets, grundy_prefix, grundy_sequence_u8, sweep, value_at_big, Subtraction,
};
use nimlab_games::{sweep_order, SweepRow};

fn naive(s: &[u64], len: usize) -> Vec<u32> {
    // The mex written out the long way, independent of `mex_at`.
    let mut g: Vec<u32> = Vec::new();
    for n in 0..len {
        let opts = subtraction_option_values(s, &g, n);
        let mut m = 0;
        while opts.contains(&m) {
            m += 1;
        }
        g.push(m);
    }
    g
}

fn small_sets() -> Vec<Vec<u64>> {
    let mut sets: Vec<Vec<u64>> = (1u64..1024)
        .map(|mask| (1..=10).filter(|i| mask >> (i - 1) & 1 == 1).collect())
        .collect();
    sets.extend([
        vec![9, 20, 29],
        vec![1, 3, 4],
        vec![2, 5, 7, 11, 40],
        vec![17],
        vec![3, 300],
    ]);
    sets
}

#[test]
fn certified_period_matches_naive_far_beyond_it() {
    for s in small_sets() {
        let per = certify_period(&s, 1_000_000).unwrap();
        let len = per.values.len() * 3 + 500;
        let g = naive(&s, len);
        for (n, &v) in g.iter().enumerate() {
            assert_eq!(per.value_at(n as u128), Some(v as u128), "S={s:?} n={n}");
        }
        // least period and preperiod: no smaller pair fits the long prefix
        let (a, p) = (per.preperiod as usize, per.period as usize);
        for q in 1..p {
            assert!(
                (a..len - q).any(|n| g[n] != g[n + q]),
                "S={s:?}: {q} is a period"
            );
        }
        if a > 0 {
            assert!(
                (a - 1..len - p).any(|n| g[n] != g[n + p]),
                "S={s:?}: pre {a}"
            );
        }
    }
}

#[test]
fn small_heaps_of_huge_sets_are_answered_without_the_period() {
    let g = nimlab_games::parse_game("subtraction(s={6000000})").unwrap();
    for n in [0u64, 5, 5_999_999, 6_000_000, 6_000_005] {
        let a = g
            .capabilities()
            .big
            .unwrap()
            .analyse_big(&[BigUint::from(n)])
            .unwrap()
            .unwrap();
        let want = u32::from(n >= 6_000_000);
        assert_eq!(a.grundy, Some(BigUint::from(want)), "G({n})");
    }
    let a = g
        .capabilities()
        .big
        .unwrap()
        .analyse_big(&[BigUint::from(6_000_005u64)])
        .unwrap()
        .unwrap();
    assert_eq!(a.winning_moves, vec![vec![BigUint::from(5u64)]]);
    // Far heaps need the period, which max(S) puts beyond the search: refused.
    let far = BigUint::from(1u64 << 40);
    assert!(g
        .capabilities()
        .big
        .unwrap()
        .analyse_big(&[far])
        .unwrap()
        .is_err());
    // A set whose window alone would need gigabytes is refused with an estimate.
    let e = certify_period(&[2_000_000_000], u64::MAX)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("needs about") && e.contains("the limit is"),
        "{e}"
    );
}

#[test]
fn direct_answers_agree_with_the_period() {
    for s in small_sets() {
        let per = certify_period(&s, 1_000_000).unwrap();
        for n in 0..200u64 {
            // The direct answer of a heap n: G(n) from G(0..=n) by the mex recurrence.
            let direct = grundy_prefix(&s, n as usize + 1)[n as usize];
            assert_eq!(
                Some(BigUint::from(direct)),
                Some(BigUint::from(value_at_big(&per, &n.into())))
            );
        }
    }
}

#[test]
fn known_periods() {
    let per = certify_period(&[9, 20, 29], 100_000).unwrap();
    assert_eq!(per.period, 378);
    let per = certify_period(&[1, 2, 3], 100).unwrap();
    assert_eq!((per.preperiod, per.period), (0, 4));
}

#[test]
fn prefix_and_bytes_agree_with_naive_and_solver() {
    for s in [vec![1, 3, 4], vec![9, 20, 29], vec![2, 5, 6], vec![1]] {
        let n = 5000;
        let g = naive(&s, n);
        assert_eq!(grundy_prefix(&s, n), g);
        let b = grundy_sequence_u8(&s, n).unwrap();
        assert!(b.iter().zip(&g).all(|(&x, &y)| x as u32 == y), "S={s:?}");
        let game = Subtraction::new(s.clone()).unwrap();
        let mut solver = Solver::new(&game);
        for k in (0..n).step_by(97) {
            assert_eq!(solver.grundy(&[k as u64]).unwrap(), g[k]);
        }
    }
}

#[test]
fn big_heaps_follow_the_period() {
    let game = Subtraction::new(vec![2, 5, 7]).unwrap();
    let g = naive(&[2, 5, 7], 3000);
    for n in 0..3000u64 {
        let a = game.analyse_big(&[BigUint::from(n)]).unwrap().unwrap();
        assert_eq!(a.grundy, Some(BigUint::from(g[n as usize])));
        let expected: Vec<Vec<BigUint>> = [7u64, 5, 2]
            .iter()
            .filter(|&&t| t <= n && g[(n - t) as usize] == 0)
            .map(|&t| vec![BigUint::from(n - t)])
            .collect();
        assert_eq!(a.winning_moves, expected, "n={n}");
    }
    // a heap of 60 digits: same residue as a small heap in the periodic part
    let per = game.cached_period().unwrap().clone();
    let big: BigUint = "123456789012345678901234567890123456789012345678901234567890"
        .parse()
        .unwrap();
    let r = ((&big - per.preperiod) % per.period)
        .to_string()
        .parse::<u64>()
        .unwrap();
    let small = per.preperiod + r + 10 * per.period;
    assert_eq!(
        game.analyse_big(&[big]).unwrap().unwrap().grundy,
        Some(BigUint::from(g[small as usize]))
    );
    assert!(game
        .analyse_big(&[1u32.into(), 2u32.into()])
        .unwrap()
        .is_err());
}

#[test]
fn sweep_shards_reassemble_the_whole() {
    let whole = sweep(
        &nimlab_games::SweepRequest {
            max: 14,
            size: 3,
            shard: (0, 1),
            up_to: 100_000,
        },
        &nimlab_engine::NoProgress,
    )
    .unwrap();
    assert_eq!(whole.len() as u64, count_sets(14, 3).unwrap());
    let mut merged: Vec<SweepRow> = (0..3)
        .flat_map(|i| {
            sweep(
                &nimlab_games::SweepRequest {
                    max: 14,
                    size: 3,
                    shard: (i, 3),
                    up_to: 100_000,
                },
                &nimlab_engine::NoProgress,
            )
            .unwrap()
        })
        .collect();
    merged.sort_by(sweep_order);
    assert_eq!(merged, whole);
    for row in whole.iter().take(20) {
        let per = certify_period(&row.member, 100_000).unwrap();
        assert_eq!(row.period, Some((per.preperiod, per.period)));
    }
    let refused = |size, shard| {
        let request = nimlab_games::SweepRequest {
            max: 5,
            size,
            shard,
            up_to: 10,
        };
        sweep(&request, &nimlab_engine::NoProgress).is_err()
    };
    assert!(refused(6, (0, 1)));
    assert!(refused(2, (3, 3)));
}
