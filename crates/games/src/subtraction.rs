//! Subtraction games: one heap; a move takes s stones for some s in a finite set S.
//! Game I of the take-away paper is S = {1, 2, 3}.

use crate::{format_set, Args, Family, Param};
use nimlab_engine::theorem::{check_p_positions, Verdict};
use nimlab_engine::{Coord, Error, Game, Result, Theorem};

/// The subtraction game with set `s` (sorted, positive, non-empty).
///
/// ```
/// use nimlab_engine::Solver;
/// use nimlab_games::subtraction::Subtraction;
/// let g = Subtraction::new(vec![1, 2, 3]).unwrap();
/// assert_eq!(Solver::new(&g).grundy(&[10]).unwrap(), 2); // 10 mod 4
/// ```
#[derive(Debug, Clone)]
pub struct Subtraction {
    s: Vec<u64>,
}

impl Subtraction {
    /// A subtraction game; `s` must be a non-empty set of positive integers.
    pub fn new(mut s: Vec<u64>) -> Result<Self> {
        s.sort_unstable();
        s.dedup();
        if s.is_empty() {
            return Err(Error::input(
                "subtraction: the set s must not be empty (e.g. s={1,2,3})",
            ));
        }
        if s[0] == 0 {
            return Err(Error::input(
                "subtraction: the set s must hold positive integers (0 is not a move)",
            ));
        }
        Ok(Subtraction { s })
    }

    /// The subtraction set.
    pub fn set(&self) -> &[u64] {
        &self.s
    }
}

impl Game for Subtraction {
    fn spec(&self) -> String {
        format!("subtraction(s={})", format_set(&self.s))
    }
    fn dimension(&self) -> usize {
        1
    }
    fn is_downward_closed(&self) -> bool {
        true
    }
    fn for_each_option(&self, pos: &[Coord], visit: &mut dyn FnMut(&[Coord])) {
        for &t in &self.s {
            if t <= pos[0] {
                visit(&[pos[0] - t]);
            }
        }
    }
}

fn build(args: &Args) -> Result<Box<dyn Game>> {
    Ok(Box::new(Subtraction::new(args.set("s")?)?))
}

fn theorems() -> Vec<Theorem> {
    vec![Theorem::new(
        "subtraction.game-i",
        "Game I (take 1, 2 or 3): n is a P-position iff n ≡ 0 (mod 4); more generally for \
         S = {1,…,k}, iff n ≡ 0 (mod k+1)",
        "001_8ec63898d35ad5c0.txt (Game I)",
        |ctx| {
            let n = (ctx.size * ctx.size).max(1000);
            let parts = (1..=6)
                .map(|k| {
                    let g = Subtraction::new((1..=k).collect())?;
                    let v = check_p_positions(&g, &[n], ctx, |p| p[0] % (k + 1) == 0)?;
                    Ok((format!("S = {}", format_set(g.set())), v))
                })
                .collect::<Result<Vec<_>>>()?;
            Ok(Verdict::all(parts))
        },
    )]
}

/// The `subtraction` family.
pub static FAMILY: Family = Family {
    name: "subtraction",
    summary: "One heap; take s stones for some s in the finite set S",
    params: &[Param {
        name: "s",
        kind: "finite non-empty set of positive integers",
        default: Some("{1,2,3}"),
        help: "the subtraction set",
    }],
    position_syntax: "n (the heap size)",
    seed: "001_8ec63898d35ad5c0.txt (Game I)",
    build,
    theorems,
};
