//! Wythoff's game (SPEC §2, Game IV): two heaps; take any number from one heap, or the
//! same number from both.

pub mod strategy;

use crate::{Args, Family};
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
        for u in 0..x {
            visit(&[u, y]);
        }
        for v in 0..y {
            visit(&[x, v]);
        }
        for k in 1..=x.min(y) {
            visit(&[x - k, y - k]);
        }
    }
    fn analyse_big(
        &self,
        pos: &[nimlab_engine::big::BigUint],
    ) -> Option<Result<nimlab_engine::big::BigAnalysis>> {
        strategy::analyse_big(pos)
    }
}

/// The P-positions {p_n, q_n} with p_n < `bound`, by the mex construction of SPEC §2:
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

fn build(_args: &Args) -> Result<Box<dyn Game>> {
    Ok(Box::new(Wythoff))
}

fn theorems() -> Vec<Theorem> {
    let mut list = vec![Theorem::new(
        "wythoff.p-positions",
        "The P-positions of Wythoff's game are {p_n, p_n + n}, p_n the least positive \
         integer not used by earlier pairs",
        "001_8ec63898d35ad5c0.txt (Game IV)",
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
    )];
    list.extend(strategy::theorems());
    list
}

/// The `wythoff` family.
pub static FAMILY: Family = Family {
    name: "wythoff",
    summary: "Wythoff's game: take any number from one heap, or the same number from both",
    params: &[],
    position_syntax: "x,y (two heaps)",
    seed: "001_8ec63898d35ad5c0.txt (Game IV)",
    build,
    theorems,
};
