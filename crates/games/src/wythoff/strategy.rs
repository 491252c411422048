//! Wythoff's game for heaps of any size: the Zeckendorf strategy (docs/theory.md §2,
//! Game IV, with its erratum) and the Zeckendorf theorems about the P-positions {p_n, q_n}.

use super::{pairs_by_mex, Wythoff};
use nimlab_engine::big::{BigAnalysis, BigUint};
use nimlab_engine::theorem::{describe_window, Verdict};
use nimlab_engine::zeckendorf::{
    down_of_trailing_zero, even_zero_and_up, fib, up, zeck_code, zeck_indices,
};
use nimlab_engine::{grundy_table, Error, Outcome, Result, Theorem};
use num_traits::Zero;

/// Positions with both heaps below this go to the exact solver (it answers with the
/// Grundy value in about 0.1 s at 127,127; at 255,255 it already needs 1.4 s).
pub const BRUTE_FORCE_LIMIT: u64 = 128;

/// `p_n` by docs/theory.md §2: `up(n)` if `n` is odd-zero, `up(n) − 1` if `n` is even-zero
/// (`p_0 = 0`).
///
/// ```
/// use nimlab_games::wythoff::strategy::p_of;
/// let p: Vec<u32> = (0u32..8).map(|n| p_of(&n.into()).try_into().unwrap()).collect();
/// assert_eq!(p, vec![0, 1, 3, 4, 6, 8, 9, 11]);
/// ```
pub fn p_of(n: &BigUint) -> BigUint {
    if n.is_zero() {
        return BigUint::zero();
    }
    let (even_zero, up_n) = even_zero_and_up(n);
    if even_zero {
        up_n - 1u32
    } else {
        up_n
    }
}

/// One row of the seed's table: `n`, `p_n`, `q_n` and their Zeckendorf codes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WythoffPair {
    /// The index n.
    pub n: BigUint,
    /// `p_n`, the n-th even-zero number.
    pub p: BigUint,
    /// `q_n = up(p_n) = p_n + n`.
    pub q: BigUint,
    /// `φ(n)`.
    pub n_code: String,
    /// `φ(p_n)`.
    pub p_code: String,
    /// `φ(q_n)`.
    pub q_code: String,
}

/// The pairs `n = 1..=count` by the Zeckendorf formulas (`p_n` by [`p_of`],
/// `q_n = up(p_n)`), with codes.
///
/// ```
/// use nimlab_games::wythoff::strategy::wythoff_pairs;
/// let t = wythoff_pairs(3);
/// assert_eq!((t[2].p_code.as_str(), t[2].q_code.as_str()), ("101", "1010")); // 4, 7
/// ```
pub fn wythoff_pairs(count: u64) -> Vec<WythoffPair> {
    (1..=count).map(wythoff_pair).collect()
}

/// The pair of index `n` alone (a long table is written pair by pair, not held).
///
/// ```
/// use nimlab_games::wythoff::strategy::wythoff_pair;
/// assert_eq!((wythoff_pair(3).p.to_string(), wythoff_pair(3).q.to_string()), ("4".into(), "7".into()));
/// ```
pub fn wythoff_pair(n: u64) -> WythoffPair {
    let n = BigUint::from(n);
    let p = p_of(&n);
    let q = up(&p);
    WythoffPair {
        n_code: zeck_code(&n),
        p_code: zeck_code(&p),
        q_code: zeck_code(&q),
        n,
        p,
        q,
    }
}

/// The P/N outcome of `(x, y)` and, from an N-position, one winning move, by the
/// Zeckendorf strategy (docs/theory.md §2 with its erratum: compare with `p_n`, not `up(n)`).
/// Works for heaps of any size.
///
/// ```
/// use nimlab_games::wythoff::strategy::zeckendorf_move;
/// use nimlab_engine::Outcome;
/// let b = |v: u32| v.into();
/// assert_eq!(zeckendorf_move(&b(3), &b(5)), (Outcome::P, None));
/// // {4, 6}: n = 2, p_2 = 3 < 4, so take 1 from both heaps, to {3, 5}.
/// assert_eq!(zeckendorf_move(&b(6), &b(4)), (Outcome::N, Some((b(5), b(3)))));
/// ```
pub fn zeckendorf_move(x: &BigUint, y: &BigUint) -> (Outcome, Option<(BigUint, BigUint)>) {
    let swapped = x > y;
    let (p, q) = if swapped { (y, x) } else { (x, y) };
    let n = q - p;
    let p_n = p_of(&n);
    let target = match p.cmp(&p_n) {
        std::cmp::Ordering::Equal => return (Outcome::P, None),
        // Take p − p_n from both heaps: (p_n, q_n).
        std::cmp::Ordering::Greater => {
            let take = p - &p_n;
            (p_n, q - take)
        }
        std::cmp::Ordering::Less => {
            if p.is_zero() {
                (BigUint::zero(), BigUint::zero())
            } else {
                let (even_zero, up_p) = even_zero_and_up(p);
                if even_zero {
                    // p = p_m (m < n): reduce q to q_m = up(p).
                    (p.clone(), up_p)
                } else {
                    // p = q_m: reduce q to p_m = down(p).
                    (p.clone(), down_of_trailing_zero(p))
                }
            }
        }
    };
    let (a, b) = target;
    let mv = if swapped { (b, a) } else { (a, b) };
    (Outcome::N, Some(mv))
}

/// [`nimlab_engine::capability::BigPositions::analyse_big`] for Wythoff: `None` (brute force) when both heaps
/// are below [`BRUTE_FORCE_LIMIT`], else the Zeckendorf strategy, with the Grundy value
/// reported as unknown.
pub fn analyse_big(pos: &[BigUint]) -> Option<Result<BigAnalysis>> {
    if pos.len() != 2 {
        return Some(Err(Error::input(format!(
            "position has {} coordinate{} but wythoff needs 2",
            pos.len(),
            if pos.len() == 1 { "" } else { "s" }
        ))));
    }
    let limit = BigUint::from(BRUTE_FORCE_LIMIT);
    if pos[0] < limit && pos[1] < limit {
        return None;
    }
    let (outcome, mv) = zeckendorf_move(&pos[0], &pos[1]);
    Some(Ok(BigAnalysis {
        position: pos.to_vec(),
        grundy: None,
        outcome,
        winning_moves: mv.map(|(a, b)| vec![vec![a, b]]).unwrap_or_default(),
        all_winning_moves: false,
        method: "Zeckendorf strategy (docs/theory.md §2, Game IV); the Grundy value has no \
                 known closed form"
            .into(),
    }))
}

/// The pairs {p_n, q_n} with p_n < `bound` by the mex construction, as u64.
fn mex_pairs(bound: u64) -> Vec<(u64, u64)> {
    pairs_by_mex(bound)
}

/// The Zeckendorf definitions read off the plain greedy code (independent of the
/// golden-ratio functions), for the theorem checks: (trailing zeros, up(v)).
fn greedy_zeros_and_up(v: u64) -> (u64, u64) {
    let idx = zeck_indices(&big(v));
    let zeros = idx.last().map_or(0, |&k| k - 1);
    let up_v = idx.iter().map(|&k| fib(k + 1)).sum::<BigUint>();
    (zeros, small(&up_v))
}

fn big(v: u64) -> BigUint {
    BigUint::from(v)
}

fn small(v: &BigUint) -> u64 {
    u64::try_from(v).expect("value in the checked window fits u64")
}

/// Zeckendorf theorems of docs/theory.md §2, each checked against the mex construction or brute
/// force on a window derived from `CheckContext.size`.
pub fn theorems() -> Vec<Theorem> {
    const SOURCE: &str = "\"Winning strategies for take-away games\" (in Japanese; author and \
         year not stated), Game IV [Take-away]";
    vec![
        Theorem::new(
            "wythoff.zeckendorf.p-even-zero",
            "p_n is the n-th even-zero number (even count of trailing zeros in its \
             Zeckendorf code)",
            SOURCE,
            // Window: the pairs with p_n < 16·size.
            |ctx| Ok(p_n_is_even_zero(16 * ctx.size as u64)),
        ),
        Theorem::new(
            "wythoff.zeckendorf.q-up-p",
            "q_n = up(p_n): the code of q_n is that of p_n followed by a 0",
            SOURCE,
            |ctx| {
                let bound = 16 * ctx.size as u64;
                Ok(each_pair(bound, 0, format!("p_n < {bound}"), |n, p, q| {
                    let u = greedy_zeros_and_up(p).1;
                    (u != q).then(|| format!("q_{n} = {q} but up(p_{n}) = up({p}) = {u}"))
                }))
            },
        ),
        Theorem::new(
            "wythoff.zeckendorf.p-from-n",
            "p_n = up(n) if n is odd-zero, up(n) − 1 if n is even-zero",
            SOURCE,
            |ctx| {
                let bound = 16 * ctx.size as u64;
                Ok(each_pair(
                    bound,
                    1,
                    format!("1 ≤ n, p_n < {bound}"),
                    |n, p, _| {
                        let (zeros, up_n) = greedy_zeros_and_up(n as u64);
                        let formula = if zeros & 1 == 0 { up_n - 1 } else { up_n };
                        (formula != p)
                            .then(|| format!("p_{n} = {p} but the formula gives {formula}"))
                    },
                ))
            },
        ),
        Theorem::new(
            "wythoff.zeckendorf.strategy",
            "The Zeckendorf strategy (docs/theory.md §2, with its erratum) gives the right \
             outcome and, from an N-position, a move to a P-position",
            SOURCE,
            |ctx| {
                let size = ctx.size;
                let table = grundy_table(&Wythoff, &[size, size], &ctx.table_options())?;
                Ok(check_strategy_on_table(&table, size))
            },
        ),
    ]
}

/// A claim about each pair (n, p_n, q_n) from n = `from` on with p_n < `bound`: it fails
/// at the first pair for which `counterexample` writes one, else holds on `window`.
fn each_pair(
    bound: u64,
    from: usize,
    window: String,
    counterexample: impl Fn(usize, u64, u64) -> Option<String>,
) -> Verdict {
    let pairs = mex_pairs(bound);
    for (n, &(p, q)) in pairs.iter().enumerate().skip(from) {
        if let Some(counterexample) = counterexample(n, p, q) {
            return Verdict::Fails { counterexample };
        }
    }
    Verdict::Holds {
        window,
        checked: (pairs.len() - from) as u64,
    }
}

/// p_n is the n-th even-zero number, for the pairs with p_n < `bound`.
fn p_n_is_even_zero(bound: u64) -> Verdict {
    let pairs = mex_pairs(bound);
    let mut n = 0usize;
    for v in 1..bound {
        if greedy_zeros_and_up(v).0 & 1 == 0 {
            n += 1;
            if pairs.get(n).is_none_or(|pair| pair.0 != v) {
                return Verdict::Fails {
                    counterexample: format!(
                        "the {n}-th even-zero number is {v} but p_{n} is {}",
                        pairs
                            .get(n)
                            .map_or("not below the bound".into(), |pair| pair.0.to_string())
                    ),
                };
            }
        }
    }
    if n + 1 != pairs.len() {
        return Verdict::Fails {
            counterexample: format!(
                "there are {n} even-zero numbers below {bound} but {} pairs p_n",
                pairs.len() - 1
            ),
        };
    }
    Verdict::Holds {
        window: format!("p_n < {bound}"),
        checked: n as u64,
    }
}

/// Compares the strategy with a brute-force Wythoff table on `[0,size)²`.
fn check_strategy_on_table(table: &nimlab_engine::GrundyTable, size: usize) -> Verdict {
    let value = |x: u64, y: u64| table.values()[x as usize + size * y as usize];
    let mut checked = 0;
    for y in 0..size as u64 {
        for x in 0..size as u64 {
            let g = value(x, y);
            let (outcome, mv) = zeckendorf_move(&big(x), &big(y));
            if outcome != Outcome::of(g) {
                return Verdict::Fails {
                    counterexample: format!(
                        "({x},{y}) has G = {g} but the strategy says {}",
                        outcome.as_str()
                    ),
                };
            }
            if let Some((a, b)) = mv {
                let (a, b) = (small(&a), small(&b));
                let legal =
                    (a < x && b == y) || (a == x && b < y) || (a < x && b < y && x - a == y - b);
                if !legal || value(a, b) != 0 {
                    return Verdict::Fails {
                        counterexample: format!(
                            "from ({x},{y}) the strategy moves to ({a},{b}), which is {}",
                            if legal {
                                format!("not a P-position (G = {})", value(a, b))
                            } else {
                                "not a legal move".to_string()
                            }
                        ),
                    };
                }
            }
            checked += 1;
        }
    }
    Verdict::Holds {
        window: describe_window(&[size, size]),
        checked,
    }
}
