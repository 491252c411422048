//! Wythoff's game (docs/theory.md §2, Game IV): two heaps; take any number from one heap, or the
//! same number from both.

pub mod strategy;

use crate::{Args, Family, Param};
use nimlab_engine::big::BigUint;
use nimlab_engine::capability::{BigPositions, Capabilities, MoveRelation};
use nimlab_engine::kernels::line::{for_each_rook_option, LineMoves};
use nimlab_engine::theorem::ProofClaim;
use nimlab_engine::theorem::{check_p_positions, Verdict};
use nimlab_engine::{Coord, Game, Result, Theorem};

/// Wythoff's game.
///
/// ```
/// use nimlab_engine::Solver;
/// use nimlab_games::wythoff::Wythoff;
/// assert_eq!(Solver::new(&Wythoff).grundy(&[3, 5]).unwrap(), 0);
/// ```
#[derive(Debug, Clone)]
pub struct Wythoff;

impl Game for Wythoff {
    fn spec(&self) -> String {
        "wythoff".into()
    }
    fn dimension(&self) -> usize {
        2
    }
    fn is_downward_closed(&self) -> bool {
        true
    }
    fn for_each_option(&self, pos: &[Coord], visit: &mut dyn FnMut(&[Coord])) {
        let (x, y) = (pos[0], pos[1]);
        for_each_rook_option(x, y, visit);
        for k in 1..=x.min(y) {
            visit(&[x - k, y - k]);
        }
    }
    fn capabilities(&self) -> Capabilities<'_> {
        Capabilities {
            big: Some(self),
            line_moves: Some(LineMoves {
                diagonal_band: 1,
                steps: vec![],
            }),
            move_relation: Some(MoveRelation::new(
                "(x_ < x && y_ == y) || (x_ == x && y_ < y) || (x_ < x && x - x_ == y - y_)",
            )),
            ..Capabilities::none()
        }
    }
    fn max_options(&self, pos: &[Coord]) -> Option<u128> {
        Some(pos[0] as u128 + pos[1] as u128 + pos[0].min(pos[1]) as u128)
    }
    fn explain_move(&self, _from: &[BigUint], to: &[BigUint]) -> Option<String> {
        wythoff_pair_in_zeckendorf(to)
    }
}

/// Why `pos` is a P-position of Wythoff's game, in Zeckendorf code: the smaller
/// coordinate's code ends in an even number of 0s and the larger is its code shifted
/// left. `None` if `pos` is not such a pair.
///
/// ```
/// use nimlab_engine::big::parse_big_position;
/// use nimlab_games::wythoff::wythoff_pair_in_zeckendorf;
/// let s = wythoff_pair_in_zeckendorf(&parse_big_position("5,3").unwrap()).unwrap();
/// assert!(s.contains("3 = 100") && s.contains("5 = 1000"));
/// assert!(wythoff_pair_in_zeckendorf(&parse_big_position("3,4").unwrap()).is_none());
/// ```
pub fn wythoff_pair_in_zeckendorf(pos: &[BigUint]) -> Option<String> {
    use nimlab_engine::zeckendorf::{is_even_zero, up, zeck_code};
    let [x, y] = pos else { return None };
    let (a, b) = if x <= y { (x, y) } else { (y, x) };
    if a == &BigUint::ZERO && b == &BigUint::ZERO {
        return Some("no stones are left".into());
    }
    if !is_even_zero(a) || &up(a) != b {
        return None;
    }
    Some(format!(
        "a Wythoff pair: in Zeckendorf code {a} = {} ends in an even number of 0s and {b} = {} is that code shifted left",
        zeck_code(a),
        zeck_code(b)
    ))
}

impl BigPositions for Wythoff {
    /// Outcome and a winning move by the Zeckendorf strategy (no Grundy value: it has
    /// no known closed form).
    fn analyse_big(
        &self,
        pos: &[nimlab_engine::big::BigUint],
    ) -> Option<Result<nimlab_engine::big::BigAnalysis>> {
        strategy::analyse_big(pos)
    }
}

/// Fraenkel's a-Wythoff game (`wythoff(a=…)`, a ≥ 2; a = 1 is [`Wythoff`]): take any
/// number from one heap, or s ≥ 1 and t ≥ 1 from both with |s − t| < a.
///
/// ```
/// use nimlab_engine::Solver;
/// use nimlab_games::wythoff::AWythoff;
/// // a = 2: the P-positions are {A_n, A_n + 2n}: (0, 0), (1, 3), (2, 6), (4, 10) …
/// let g = AWythoff { a: 2 };
/// assert_eq!(Solver::new(&g).grundy(&[1, 3]).unwrap(), 0);
/// assert_eq!(Solver::new(&g).grundy(&[1, 2]).unwrap(), 3);
/// ```
#[derive(Debug, Clone)]
pub struct AWythoff {
    /// The band: (s, t) from both heaps with |s − t| < a.
    pub a: u64,
}

impl Game for AWythoff {
    fn spec(&self) -> String {
        format!("wythoff(a={})", self.a)
    }
    fn dimension(&self) -> usize {
        2
    }
    fn is_downward_closed(&self) -> bool {
        true
    }
    fn for_each_option(&self, pos: &[Coord], visit: &mut dyn FnMut(&[Coord])) {
        let (x, y) = (pos[0], pos[1]);
        for_each_rook_option(x, y, visit);
        for s in 1..=x {
            // t ≥ 1, t ≤ y, |s − t| < a
            let lo = (s + 1).saturating_sub(self.a).max(1);
            let hi = (s + self.a - 1).min(y);
            for t in lo..=hi {
                visit(&[x - s, y - t]);
            }
        }
    }
    fn capabilities(&self) -> Capabilities<'_> {
        Capabilities {
            line_moves: Some(LineMoves {
                diagonal_band: self.a,
                steps: vec![],
            }),
            ..Capabilities::none()
        }
    }
}

/// The P-positions {p_n, q_n} with p_n < `bound`, by the mex construction of docs/theory.md §2:
/// p_0 = q_0 = 0, p_n = least positive integer not among p_1..p_{n−1}, q_1..q_{n−1},
/// q_n = p_n + n.
///
/// ```
/// use nimlab_games::wythoff::pairs_by_mex;
/// assert_eq!(pairs_by_mex(5), vec![(0, 0), (1, 2), (3, 5), (4, 7)]);
/// ```
pub fn pairs_by_mex(bound: u64) -> Vec<(u64, u64)> {
    let mut used = vec![false; (3 * bound + 3) as usize];
    let mut pairs = vec![(0, 0)];
    let mut candidate = 1u64;
    for n in 1u64.. {
        while used[candidate as usize] {
            candidate += 1;
        }
        let p = candidate;
        if p >= bound {
            break;
        }
        let q = p + n;
        used[p as usize] = true;
        used[q as usize] = true;
        pairs.push((p, q));
    }
    pairs
}

fn build(args: &Args) -> Result<Box<dyn Game>> {
    match args.int("a", 1)? as u64 {
        1 => Ok(Box::new(Wythoff)),
        a => Ok(Box::new(AWythoff { a })),
    }
}

fn theorems() -> Vec<Theorem> {
    let mut list =
        vec![Theorem::new(
        "wythoff.p-positions",
        "The P-positions of Wythoff's game are {p_n, p_n + n}, p_n the least positive \
         integer not used by earlier pairs",
        "\"Winning strategies for take-away games\" (in Japanese; author and year not stated), \
         Game IV [Take-away]; W. A. Wythoff, A modification of the game of Nim, Nieuw Arch. \
         Wisk. 7 (1907)",
        |ctx| {
            let n = ctx.size;
            let mut is_p = vec![false; n * n];
            for (p, q) in pairs_by_mex(n as u64) {
                if (q as usize) < n {
                    is_p[p as usize + n * q as usize] = true;
                    is_p[q as usize + n * p as usize] = true;
                }
            }
            let v = check_p_positions(&Wythoff, &[n, n], ctx, |pos| {
                is_p[pos[0] as usize + n * pos[1] as usize]
            })?;
            Ok(Verdict::all(vec![(String::new(), v)]))
        },
    )
    .with_claims(vec![
        ProofClaim::p_positions("wythoff", "min(x, y) == floor_phi(abs(x - y))", "fib"),
    ])];
    list.extend(strategy::theorems());
    list
}

/// The `wythoff` family.
pub static FAMILY: Family = Family {
    name: "wythoff",
    summary: "Wythoff's game: take any number from one heap, or the same number from both",
    params: &[Param {
        name: "a",
        kind: "integer ≥ 1",
        default: Some("1"),
        example: None,
        help: "Fraenkel's a-Wythoff: take (s,t) from both heaps with |s−t| < a; a = 1 is Wythoff",
    }],
    position_syntax: "x,y (two heaps)",
    seed: "\"Winning strategies for take-away games\" (in Japanese; author and year not \
         stated), Game IV [Take-away]; W. A. Wythoff, A modification of the game of Nim, Nieuw \
         Arch. Wisk. 7 (1907)",
    build,
    theorems,
    sweep: None,
};
