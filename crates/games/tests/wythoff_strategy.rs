//! Wythoff's game: the Zeckendorf strategy against the Grundy table and brute force,
//! the seed's table of pairs, the registered theorems and big positions. Moved from the
//! library's unit tests (through the public API).

use nimlab_engine::big::BigUint;
use nimlab_engine::theorem::CheckContext;
use nimlab_engine::{grundy_table, Outcome, Solver};
use nimlab_games::wythoff::strategy::{
    analyse_big, p_of, theorems, wythoff_pairs, zeckendorf_move,
};
use nimlab_games::wythoff::{pairs_by_mex, Wythoff};

fn big(v: u64) -> BigUint {
    BigUint::from(v)
}

fn small(v: &BigUint) -> u64 {
    u64::try_from(v).expect("value in the checked window fits u64")
}

#[test]
fn strategy_agrees_with_the_grundy_table_below_512() {
    let ctx = CheckContext::with_size(512);
    let table = grundy_table(&Wythoff, &[512, 512], &ctx.table_options()).unwrap();
    // The table itself agrees with the generic solver on a few cells.
    let mut solver = Solver::new(&Wythoff);
    for (x, y) in [(0, 0), (3, 5), (7, 11), (40, 63), (90, 31)] {
        assert_eq!(table.get(&[x, y]).unwrap(), solver.grundy(&[x, y]).unwrap());
    }
    // The registered strategy theorem compares the strategy with this same table.
    let theorem = theorems()
        .into_iter()
        .find(|t| t.id == "wythoff.zeckendorf.strategy")
        .expect("the strategy theorem is registered");
    let verdict = theorem.verify(&ctx).unwrap();
    assert!(verdict.holds(), "{verdict:?}");
}

/// Outcomes on [0,n)² by the plain definition (P iff no option is P), with flags for
/// "a P-position lies earlier on this row / column / diagonal": O(n²).
fn brute_force_p_positions(n: usize) -> Vec<bool> {
    let mut is_p = vec![false; n * n];
    let mut row = vec![false; n];
    let mut col = vec![false; n];
    let mut diag = vec![false; 2 * n];
    for y in 0..n {
        for x in 0..n {
            let d = x + n - y;
            if !row[y] && !col[x] && !diag[d] {
                is_p[x + n * y] = true;
                row[y] = true;
                col[x] = true;
                diag[d] = true;
            }
        }
    }
    is_p
}

#[test]
fn strategy_agrees_with_brute_force_on_all_p_le_q_below_2000() {
    const N: usize = 2000;
    let is_p = brute_force_p_positions(N);
    // Cross-check the sweep with the Grundy table where both exist.
    let ctx = CheckContext::with_size(128);
    let table = grundy_table(&Wythoff, &[128, 128], &ctx.table_options()).unwrap();
    for (pos, g) in table.iter() {
        assert_eq!(is_p[pos[0] as usize + N * pos[1] as usize], g == 0);
    }
    for q in 0..N as u64 {
        for p in 0..=q {
            let (outcome, mv) = zeckendorf_move(&big(p), &big(q));
            assert_eq!(
                outcome == Outcome::P,
                is_p[p as usize + N * q as usize],
                "({p},{q})"
            );
            if let Some((a, b)) = mv {
                let (a, b) = (small(&a), small(&b));
                let legal =
                    (a < p && b == q) || (a == p && b < q) || (a < p && b < q && p - a == q - b);
                assert!(legal, "({p},{q}) → ({a},{b}) is not a move");
                assert!(
                    is_p[a as usize + N * b as usize],
                    "({p},{q}) → ({a},{b}) is not P"
                );
            }
            // The other orientation moves symmetrically.
            let (outcome2, mv2) = zeckendorf_move(&big(q), &big(p));
            assert_eq!(outcome2, outcome);
            assert_eq!(
                mv2.map(|(a, b)| (b, a)),
                zeckendorf_move(&big(p), &big(q)).1
            );
        }
    }
}

#[test]
fn seed_table_of_pairs() {
    // The take-away paper's Game IV table: n, φ(n), p_n, φ(p_n), q_n, φ(q_n), n = 1..20.
    let seed = "\
1 1 1 1 2 10
2 10 3 100 5 1000
3 100 4 101 7 1010
4 101 6 1001 10 10010
5 1000 8 10000 13 100000
6 1001 9 10001 15 100010
7 1010 11 10100 18 101000
8 10000 12 10101 20 101010
9 10001 14 100001 23 1000010
10 10010 16 100100 26 1001000
11 10100 17 100101 28 1001010
12 10101 19 101001 31 1010010
13 100000 21 1000000 34 10000000
14 100001 22 1000001 36 10000010
15 100010 24 1000100 39 10001000
16 100100 25 1000101 41 10001010
17 100101 27 1001001 44 10010010
18 101000 29 1010000 47 10100000
19 101001 30 1010001 49 10100010
20 101010 32 1010100 52 10101000";
    let table = wythoff_pairs(20);
    for (row, line) in table.iter().zip(seed.lines()) {
        let f: Vec<&str> = line.split(' ').collect();
        let got = [
            row.n.to_string(),
            row.n_code.clone(),
            row.p.to_string(),
            row.p_code.clone(),
            row.q.to_string(),
            row.q_code.clone(),
        ];
        assert_eq!(got.to_vec(), f, "row {line}");
    }
    assert_eq!(table.len(), 20);
}

#[test]
fn pairs_agree_with_the_mex_construction() {
    let mex = pairs_by_mex(100_000);
    let pairs = wythoff_pairs(mex.len() as u64 - 1);
    for (row, &(p, q)) in pairs.iter().zip(&mex[1..]) {
        assert_eq!((small(&row.p), small(&row.q)), (p, q), "n = {}", row.n);
    }
}

#[test]
fn theorems_hold() {
    for t in theorems() {
        let v = t.verify(&CheckContext::with_size(64)).unwrap();
        assert!(v.holds(), "{}: {v:?}", t.id);
    }
}

#[test]
fn big_positions_get_a_move_to_a_pair() {
    // From a huge N-position the move lands on {p_m, p_m + m}, checked with p_of.
    let ten = BigUint::from(10u32);
    let x = ten.pow(300) + 12345u32;
    let y = ten.pow(300) * 3u32 + 777u32;
    for (a, b) in [(x.clone(), y.clone()), (y.clone(), x.clone())] {
        let analysis = analyse_big(&[a.clone(), b.clone()]).unwrap().unwrap();
        assert_eq!(analysis.grundy, None);
        if analysis.outcome == Outcome::P {
            continue;
        }
        let m = &analysis.winning_moves[0];
        let (lo, hi) = if m[0] <= m[1] {
            (&m[0], &m[1])
        } else {
            (&m[1], &m[0])
        };
        assert_eq!(&p_of(&(hi - lo)), lo);
        // A legal move: one heap lower, or both lower by the same amount.
        let legal = (m[0] < a && m[1] == b)
            || (m[0] == a && m[1] < b)
            || (m[0] < a && m[1] < b && &a - &m[0] == &b - &m[1]);
        assert!(legal);
    }
    // A P-position far out: (p_n, q_n) for n = 10^200.
    let n = ten.pow(200);
    let p = p_of(&n);
    let q = &p + &n;
    let analysis = analyse_big(&[q, p]).unwrap().unwrap();
    assert_eq!(analysis.outcome, Outcome::P);
    assert!(analysis.winning_moves.is_empty());
}

#[test]
fn small_positions_are_left_to_brute_force() {
    assert!(analyse_big(&[big(127), big(127)]).is_none());
    assert!(analyse_big(&[big(128), big(3)]).is_some());
    assert!(analyse_big(&[big(1), big(2), big(3)]).unwrap().is_err());
}
