//! The automata against brute-force truth tables of random formulas on small ranges.

use nimlab_automata::{Atom, DigitOp, Fo, Numeration, Rel};

// The xorshift generator the games suite, the CLI tests and the benches use too.
#[path = "../../games/tests/common/rng.rs"]
mod rng;
use rng::Rng;

impl Rng {
    /// A number in `lo..=hi`.
    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.below((hi - lo + 1) as u64) as i64
    }
}

fn digit_op(op: DigitOp, b: u64, x: u64, y: u64) -> u64 {
    if let DigitOp::BlockSum(r) = op {
        // the mixed radix (r₀, r₁, …, r₀, r₁, …) digit by digit, independent of base b
        let r: Vec<u64> = r.iter().filter(|&&d| d != 0).map(|&d| d as u64).collect();
        let (mut x, mut y, mut out, mut w, mut i) = (x, y, 0, 1, 0);
        while x > 0 || y > 0 {
            let ri = r[i % r.len()];
            out += (x % ri + y % ri) % ri * w;
            w *= ri;
            x /= ri;
            y /= ri;
            i += 1;
        }
        return out;
    }
    let (mut x, mut y, mut out, mut w) = (x, y, 0, 1);
    while x > 0 || y > 0 {
        let (dx, dy) = (x % b, y % b);
        let d = match op {
            DigitOp::SumMod => (dx + dy) % b,
            DigitOp::Min => dx.min(dy),
            DigitOp::Max => dx.max(dy),
            // the bits of each digit (base 2^k)
            DigitOp::BitXor => dx ^ dy,
            DigitOp::BitAnd => dx & dy,
            DigitOp::BitOr => dx | dy,
            DigitOp::BlockSum(_) => unreachable!("handled above"),
        };
        out += d * w;
        w *= b;
        x /= b;
        y /= b;
    }
    out
}

fn zeck_low(n: u64) -> u64 {
    let mut w = vec![1u64, 2];
    while *w.last().unwrap() <= n {
        let k = w.len();
        w.push(w[k - 1] + w[k - 2]);
    }
    let mut m = n;
    let mut low = 0;
    for &x in w.iter().rev() {
        if x <= m {
            m -= x;
            low = x;
        }
    }
    low
}

/// Truth of `f` under `vals` (variables by index); ∃ ranges over 0..bound.
fn truth(f: &Fo, num: &Numeration, vals: &mut Vec<u64>, bound: u64) -> bool {
    match f {
        Fo::Const(b) => *b,
        Fo::Atom(Atom::Linear { terms, c, rel }) => {
            let s: i128 = terms
                .iter()
                .map(|&(v, a)| a as i128 * vals[v as usize] as i128)
                .sum::<i128>()
                + i128::try_from(c).expect("a small constant in these tests");
            match rel {
                Rel::Eq => s == 0,
                Rel::Le => s <= 0,
                Rel::Cong(m) => s.rem_euclid(*m as i128) == 0,
            }
        }
        Fo::Atom(Atom::Digitwise { op, x, y, z }) => {
            let b = num.digits() as u64;
            vals[*z as usize] == digit_op(*op, b, vals[*x as usize], vals[*y as usize])
        }
        Fo::Atom(Atom::LowestTerm { n, z }) => {
            let n = vals[*n as usize];
            let low = match num {
                Numeration::Fib => zeck_low(n),
                _ => n & n.wrapping_neg(),
            };
            n >= 1 && vals[*z as usize] == low
        }
        Fo::Atom(Atom::LowRepunit { n, z }) => {
            let Numeration::Base(b) = num else {
                unreachable!("base b only")
            };
            let n = vals[*n as usize];
            if n == 0 {
                return false;
            }
            // (b^(ord+1) − 1)/(b − 1), by brute force
            let (mut m, mut want, mut place) = (n, 1, 1);
            while m % *b as u64 == 0 {
                m /= *b as u64;
                place *= *b as u64;
                want += place;
            }
            vals[*z as usize] == want
        }
        Fo::Atom(Atom::BlockRepunit { n, z, block }) => {
            // Σ_{j ≤ ord_β(n)} β^j in the mixed radix β = (block, block, …)
            let r: Vec<u64> = block
                .iter()
                .take_while(|&&d| d != 0)
                .map(|&d| d as u64)
                .collect();
            let n = vals[*n as usize];
            if n == 0 {
                return false;
            }
            let (mut m, mut want, mut place, mut j) = (n, 1, 1, 0);
            while m % r[j % r.len()] == 0 {
                m /= r[j % r.len()];
                place *= r[j % r.len()];
                want += place;
                j += 1;
            }
            vals[*z as usize] == want
        }
        Fo::Atom(Atom::Up { x, z }) => {
            let mut d = num.encode(vals[*x as usize] as u128, 0);
            d.push(0);
            vals[*z as usize] as u128 == num.decode(&d).unwrap()
        }
        Fo::Not(a) => !truth(a, num, vals, bound),
        Fo::And(a, b) => truth(a, num, vals, bound) && truth(b, num, vals, bound),
        Fo::Or(a, b) => truth(a, num, vals, bound) || truth(b, num, vals, bound),
        Fo::Exists(v, a) => {
            let old = vals[*v as usize];
            let r = (0..bound).any(|x| {
                vals[*v as usize] = x;
                truth(a, num, vals, bound)
            });
            vals[*v as usize] = old;
            r
        }
    }
}

fn random_atom(rng: &mut Rng, num: &Numeration, vars: u32) -> Fo {
    let v = |rng: &mut Rng| rng.below(vars as u64) as u32;
    match rng.below(if matches!(num, Numeration::Fib) { 6 } else { 7 }) {
        0..=3 => {
            let n = 1 + rng.below(3);
            let terms = (0..n).map(|_| (v(rng), rng.range(-3, 3))).collect();
            let rel = match rng.below(3) {
                0 => Rel::Eq,
                1 => Rel::Le,
                _ => Rel::Cong(1 + rng.below(5)),
            };
            Fo::linear(terms, rng.range(-6, 6), rel)
        }
        5 => {
            let (x, z) = (v(rng), v(rng));
            if x == z {
                Fo::linear(vec![(x, 1)], 0, Rel::Eq)
            } else {
                Fo::Atom(Atom::Up { x, z })
            }
        }
        4 => {
            let (n, z) = (v(rng), v(rng));
            if n == z {
                Fo::Const(true)
            } else if matches!(num, Numeration::Base(6)) && rng.below(2) == 0 {
                Fo::Atom(Atom::BlockRepunit {
                    n,
                    z,
                    block: [2, 3, 0, 0],
                })
            } else if matches!(num, Numeration::Base(4)) && rng.below(2) == 0 {
                Fo::Atom(Atom::BlockRepunit {
                    n,
                    z,
                    block: [2, 2, 0, 0],
                })
            } else if matches!(num, Numeration::Base(b) if *b != 2 || rng.below(2) == 0) {
                Fo::Atom(Atom::LowRepunit { n, z })
            } else {
                Fo::Atom(Atom::LowestTerm { n, z })
            }
        }
        _ => {
            let (x, y, z) = (v(rng), v(rng), v(rng));
            let mut ops = vec![DigitOp::SumMod, DigitOp::Min, DigitOp::Max];
            match num {
                Numeration::Base(6) => ops.push(DigitOp::BlockSum([2, 3, 0, 0])),
                Numeration::Base(4) => ops.extend([
                    DigitOp::BlockSum([2, 2, 0, 0]),
                    DigitOp::BitXor,
                    DigitOp::BitAnd,
                    DigitOp::BitOr,
                ]),
                _ => {}
            }
            let op = ops[rng.below(ops.len() as u64) as usize];
            Fo::Atom(Atom::Digitwise { op, x, y, z })
        }
    }
}

fn random_formula(rng: &mut Rng, num: &Numeration, vars: u32, depth: u32) -> Fo {
    if depth == 0 || rng.below(3) == 0 {
        return random_atom(rng, num, vars);
    }
    match rng.below(3) {
        0 => Fo::not(random_formula(rng, num, vars, depth - 1)),
        1 => Fo::and(
            random_formula(rng, num, vars, depth - 1),
            random_formula(rng, num, vars, depth - 1),
        ),
        _ => Fo::or(
            random_formula(rng, num, vars, depth - 1),
            random_formula(rng, num, vars, depth - 1),
        ),
    }
}

/// Compares the automaton of `f` with brute force on every assignment of its free
/// variables below `range`, encoded with a few extra leading zeros.
fn compare(f: &Fo, num: &Numeration, range: u64, bound: u64) {
    let a = f.automaton(num).unwrap();
    assert!(a.is_zero_invariant(), "{f:?}");
    let free = a.vars().to_vec();
    let nvars = 8;
    let mut vals = vec![0u64; nvars];
    let total = range.pow(free.len() as u32);
    for idx in 0..total {
        let mut r = idx;
        for &v in &free {
            vals[v as usize] = r % range;
            r /= range;
        }
        let want = truth(f, num, &mut vals, bound);
        let len = free
            .iter()
            .map(|&v| num.encode(vals[v as usize] as u128, 0).len())
            .max()
            .unwrap_or(0)
            + (idx % 3) as usize;
        let tracks: Vec<Vec<u32>> = free
            .iter()
            .map(|&v| num.encode(vals[v as usize] as u128, len))
            .collect();
        assert_eq!(a.accepts(&tracks), want, "{f:?} at {vals:?} ({num:?})");
    }
}

#[test]
fn quantifier_free_formulas_match_truth_tables() {
    let mut rng = Rng(0x9e3779b97f4a7c15);
    for num in [
        Numeration::Base(2),
        Numeration::Base(3),
        Numeration::Base(4),
        Numeration::Base(6),
        Numeration::Fib,
    ] {
        for _ in 0..60 {
            let f = random_formula(&mut rng, &num, 3, 3);
            compare(&f, &num, 14, 0);
        }
    }
}

#[test]
fn projections_match_bounded_search() {
    // ∃y with y ≤ x + z + 2 forced, so a search below 2·range + 3 is exact.
    let mut rng = Rng(12345);
    for num in [Numeration::Base(2), Numeration::Base(3), Numeration::Fib] {
        for _ in 0..40 {
            let body = random_formula(&mut rng, &num, 3, 2);
            let cap = Fo::linear(vec![(1, 1), (0, -1), (2, -1)], -2, Rel::Le);
            let f = Fo::exists(1, Fo::and(cap, body));
            compare(&f, &num, 12, 12 * 2 + 3);
        }
    }
}

#[test]
fn fibonacci_addition_matches_brute_force() {
    let num = Numeration::Fib;
    let add = Fo::linear(vec![(0, 1), (1, 1), (2, -1)], 0, Rel::Eq)
        .automaton(&num)
        .unwrap();
    for x in 0..70u128 {
        for y in 0..70u128 {
            for z in [x + y, x + y + 1, (x + y).saturating_sub(1)] {
                let len = num.encode(z.max(x).max(y) + 1, 0).len();
                let t = [num.encode(x, len), num.encode(y, len), num.encode(z, len)];
                assert_eq!(add.accepts(&t), x + y == z, "{x} + {y} = {z}");
            }
        }
    }
    // small: the Fibonacci adder is a handful of states, as in the literature
    assert!(add.states() <= 20, "{} states", add.states());
}

#[test]
fn minimization_is_canonical() {
    let mut rng = Rng(777);
    for num in [Numeration::Base(2), Numeration::Fib] {
        for _ in 0..40 {
            let f = random_formula(&mut rng, &num, 3, 2);
            let g = random_formula(&mut rng, &num, 3, 2);
            // de Morgan and absorption give the same language by other routes
            let a = Fo::and(f.clone(), g.clone());
            let b = Fo::not(Fo::or(Fo::not(f.clone()), Fo::not(g.clone())));
            let (da, db) = (a.automaton(&num).unwrap(), b.automaton(&num).unwrap());
            if da.vars() == db.vars() {
                assert_eq!(da, db);
            }
            let c = Fo::or(f.clone(), Fo::and(f.clone(), g.clone()));
            let (dc, df) = (c.automaton(&num).unwrap(), f.automaton(&num).unwrap());
            if dc.vars() == df.vars() {
                assert_eq!(dc, df);
            }
        }
    }
    // x ≡ 0 mod 6 three ways
    let n = Numeration::Base(2);
    let a = Fo::linear(vec![(0, 1)], 0, Rel::Cong(6))
        .automaton(&n)
        .unwrap();
    let b = Fo::exists(1, Fo::linear(vec![(0, 1), (1, -6)], 0, Rel::Eq))
        .automaton(&n)
        .unwrap();
    let c = Fo::and(
        Fo::linear(vec![(0, 1)], 0, Rel::Cong(2)),
        Fo::linear(vec![(0, 1)], 0, Rel::Cong(3)),
    )
    .automaton(&n)
    .unwrap();
    assert_eq!(a, b);
    assert_eq!(a, c);
}

#[test]
fn least_witness_is_least() {
    let n = Numeration::Base(2);
    // x > 1000 ∧ x ≡ 3 mod 7: least is 1004
    let f = Fo::and(
        Fo::linear(vec![(0, -1)], 1001, Rel::Le),
        Fo::linear(vec![(0, 1)], -3, Rel::Cong(7)),
    );
    let w = f.automaton(&n).unwrap().least_word().unwrap();
    assert_eq!(n.decode(&w[0]), Some(1004));
    // x ≥ 2^40: the witness needs 41 digits
    let g = Fo::linear(vec![(0, -1)], 1 << 40, Rel::Le);
    let w = g.automaton(&n).unwrap().least_word().unwrap();
    assert_eq!(n.decode(&w[0]), Some(1 << 40));
    let fib = Numeration::Fib;
    let w = g.automaton(&fib).unwrap().least_word().unwrap();
    assert_eq!(fib.decode(&w[0]), Some(1 << 40));
    // a false sentence: ∃x. x + 1 = 0
    let h = Fo::exists(0, Fo::linear(vec![(0, 1)], 1, Rel::Eq));
    assert!(h.automaton(&n).unwrap().is_empty());
}

#[test]
fn encode_decode_round_trip() {
    for num in [Numeration::Base(2), Numeration::Base(7), Numeration::Fib] {
        for x in (0..500u128).chain([u64::MAX as u128, 1 << 100]) {
            assert_eq!(num.decode(&num.encode(x, 0)), Some(x));
        }
    }
    // Zeckendorf: 31 = 21 + 8 + 2 = 1010010
    assert_eq!(Numeration::Fib.encode(31, 0), vec![1, 0, 1, 0, 0, 1, 0]);
}
