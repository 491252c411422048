//! Generalized Ryuoh Nim (docs/theory.md §1): a shogi dragon king moving toward (0,0). Rook moves
//! along a row or column, plus diagonal steps (x−s, y−t) with s, t ≥ 1 and s + t ≤ p − 1.
//! p = 3 is Ryuoh Nim itself; p = 1, 2 are two-heap Nim.

use crate::{Args, Family, Param};
use nimlab_engine::big::{BigAnalysis, BigPosition, BigUint};
use nimlab_engine::capability::{BigPositions, Capabilities, MoveRelation};
use nimlab_engine::kernels::line::{for_each_rook_option, LineMoves};
use nimlab_engine::nimarith::nimhoff;
use nimlab_engine::theorem::ProofClaim;
use nimlab_engine::theorem::{check_grundy_formula, Verdict};
use nimlab_engine::{Coord, Game, Result, Theorem};

/// Generalized Ryuoh Nim with parameter `p ≥ 1`.
///
/// ```
/// use nimlab_engine::Solver;
/// use nimlab_games::ryuoh::Ryuoh;
/// // Table 3 of the Ryuoh paper (p = 4): G(12, 4) = 8
/// assert_eq!(Solver::new(&Ryuoh { p: 4 }).grundy(&[12, 4]).unwrap(), 8);
/// ```
#[derive(Debug, Clone)]
pub struct Ryuoh {
    /// The parameter p: diagonal steps (s, t) with s + t ≤ p − 1.
    pub p: u64,
}

impl Ryuoh {
    /// Theorem 3.1: G(x, y) = ((x + y) mod p) + p·(⌊x/p⌋ ⊕ ⌊y/p⌋).
    pub fn closed_form(&self, x: u64, y: u64) -> u64 {
        (x + y) % self.p + self.p * ((x / self.p) ^ (y / self.p))
    }

    /// Theorem 3.1 on integers of any size.
    pub fn big_closed_form(&self, x: &BigUint, y: &BigUint) -> BigUint {
        let p = BigUint::from(self.p);
        (x + y) % &p + &p * ((x / &p) ^ (y / &p))
    }

    /// Value, outcome and every winning move of (x, y) by Theorem 3.1: in each row and
    /// each column exactly one cell is a P-position, and the diagonal steps are few.
    ///
    /// ```
    /// use nimlab_engine::big::BigUint;
    /// use nimlab_games::ryuoh::Ryuoh;
    /// let a = Ryuoh { p: 3 }.analyse_by_theorem(&BigUint::from(10u32), &BigUint::from(4u32));
    /// assert_eq!(a.grundy, Some(BigUint::from(8u32)));
    /// assert_eq!(a.winning_moves, vec![vec![BigUint::from(5u32), BigUint::from(4u32)]]);
    /// ```
    pub fn analyse_by_theorem(&self, x: &BigUint, y: &BigUint) -> BigAnalysis {
        let p = BigUint::from(self.p);
        let zero = BigUint::from(0u32);
        let is_p = |a: &BigUint, b: &BigUint| self.big_closed_form(a, b) == zero;
        // The one P-position in the row/column of `other`: same block, residues summing
        // to 0 or p.
        let partner = |other: &BigUint| -> BigUint {
            let r = other % &p;
            let back = if r == zero { zero.clone() } else { &p - r };
            (other / &p) * &p + (back % &p)
        };
        let mut winning_moves = Vec::new();
        let u = partner(y);
        if &u < x {
            winning_moves.push(vec![u, y.clone()]);
        }
        let v = partner(x);
        if &v < y {
            winning_moves.push(vec![x.clone(), v]);
        }
        for (s, t) in self.diagonal_steps() {
            let (s, t) = (BigUint::from(s), BigUint::from(t));
            if &s <= x && &t <= y {
                let (a, b) = (x - &s, y - &t);
                if is_p(&a, &b) {
                    winning_moves.push(vec![a, b]);
                }
            }
        }
        let grundy = self.big_closed_form(x, y);
        BigAnalysis::exact(
            vec![x.clone(), y.clone()],
            grundy,
            winning_moves,
            "Theorem 3.1 (proven closed form)",
        )
    }

    /// The diagonal steps (s, t): s, t ≥ 1, s + t ≤ p − 1.
    pub fn diagonal_steps(&self) -> Vec<(u64, u64)> {
        let mut steps = Vec::new();
        for s in 1..self.p {
            for t in 1..self.p {
                if s + t < self.p {
                    steps.push((s, t));
                }
            }
        }
        steps
    }
}

impl Ryuoh {
    /// The moves as a formula (for `nimlab prove`): a rook move, or a diagonal step
    /// (s, t) with s, t ≥ 1 and s + t ≤ p − 1.
    ///
    /// ```
    /// use nimlab_games::ryuoh::Ryuoh;
    /// assert!(Ryuoh { p: 3 }.move_relation().options.contains("<= 2"));
    /// ```
    pub fn move_relation(&self) -> MoveRelation {
        MoveRelation::new(format!(
            "(x_ < x && y_ == y) || (x_ == x && y_ < y) || (x_ < x && y_ < y && (x - x_) + (y - y_) <= {})",
            self.p.saturating_sub(1)
        ))
    }
}

impl Game for Ryuoh {
    fn spec(&self) -> String {
        format!("ryuoh(p={})", self.p)
    }
    fn explain_move(&self, _from: &[BigUint], to: &[BigUint]) -> Option<String> {
        let [x, y] = to else { return None };
        let p = BigUint::from(self.p);
        Some(format!(
            "Theorem 3.1, G(x,y) = ((x+y) mod p) + p·(⌊x/p⌋ ⊕ ⌊y/p⌋) with p = {p}: here ({x}+{y}) mod {p} = {} and ⌊x/p⌋ ⊕ ⌊y/p⌋ = {} ⊕ {} = {}",
            (x + y) % &p,
            x / &p,
            y / &p,
            (x / &p) ^ (y / &p)
        ))
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
        for s in 1..self.p.min(x + 1) {
            for t in 1..(self.p - s).min(y + 1) {
                visit(&[x - s, y - t]);
            }
        }
    }
    fn capabilities(&self) -> Capabilities<'_> {
        Capabilities {
            big: Some(self),
            line_moves: Some(LineMoves {
                diagonal_band: 0,
                steps: self.diagonal_steps(),
            }),
            move_relation: Some(self.move_relation()),
            ..Capabilities::none()
        }
    }
    fn max_options(&self, pos: &[Coord]) -> Option<u128> {
        Some(pos[0] as u128 + pos[1] as u128 + (self.p as u128).pow(2) / 2)
    }
}

impl BigPositions for Ryuoh {
    /// Positions beyond brute force are answered by Theorem 3.1 (proven), with every
    /// winning move.
    fn analyse_big(&self, pos: &[BigUint]) -> Option<Result<BigAnalysis>> {
        const BRUTE_FORCE_BELOW: u64 = 256;
        if pos.len() != 2 || pos.iter().all(|c| *c < BigUint::from(BRUTE_FORCE_BELOW)) {
            return None;
        }
        Some(Ok(self.analyse_by_theorem(&pos[0], &pos[1])))
    }
    fn grundy_small(&self, pos: &[Coord]) -> Option<u32> {
        let (x, y) = (*pos.first()?, *pos.get(1)?);
        let g = (x as u128 + y as u128) % self.p as u128
            + self.p as u128 * ((x / self.p) ^ (y / self.p)) as u128;
        u32::try_from(g).ok().filter(|&g| g != u32::MAX)
    }
    fn moves_to_value(&self, pos: &[BigUint], target: &BigUint) -> Option<Vec<BigPosition>> {
        // In each row and each column the values are distinct (rook moves), so at most
        // one cell of each has value `target`; the diagonal steps are few.
        let (x, y) = (pos.first()?, pos.get(1)?);
        let p = BigUint::from(self.p);
        // G(u, y) = target: (u + y) mod p = target mod p and ⌊u/p⌋ = ⌊y/p⌋ ⊕ ⌊target/p⌋.
        let cell = |other: &BigUint| -> BigUint {
            let block = (other / &p) ^ (target / &p);
            let r = ((target % &p) + &p - (other % &p)) % &p;
            block * &p + r
        };
        let mut out = Vec::new();
        let u = cell(y);
        if &u < x && &self.big_closed_form(&u, y) == target {
            out.push(vec![u, y.clone()]);
        }
        let v = cell(x);
        if &v < y && &self.big_closed_form(x, &v) == target {
            out.push(vec![x.clone(), v]);
        }
        for (s, t) in self.diagonal_steps() {
            let (s, t) = (BigUint::from(s), BigUint::from(t));
            if &s <= x && &t <= y {
                let (a, b) = (x - &s, y - &t);
                if &self.big_closed_form(&a, &b) == target {
                    out.push(vec![a, b]);
                }
            }
        }
        Some(out)
    }
}

/// Largest p: the diagonal steps number about p²/2, listed for every position.
pub const MAX_P: i64 = 1024;

fn build(args: &Args) -> Result<Box<dyn Game>> {
    match args.int("p", 1)? {
        p if p > MAX_P => Err(nimlab_engine::Error::input(format!(
            "ryuoh: p must be ≤ {MAX_P}, got {p} (a position has about p²/2 diagonal moves)"
        ))),
        p => Ok(Box::new(Ryuoh { p: p as u64 })),
    }
}

fn theorems() -> Vec<Theorem> {
    vec![Theorem::new(
        "ryuoh.thm-3.1",
        "Theorem 3.1: G(x, y) = ((x + y) mod p) + p·(⌊x/p⌋ ⊕ ⌊y/p⌋) (= σ^[p](x, y)); \
         the P-positions are its zeros",
        "Y. Tokuni, \"Ryuoh Nim: a variant of Wythoff Nim\" (in Japanese, year uncertain), \
         Theorem 3.1, Tables 1–4 [Tokuni]",
        |ctx| {
            let parts = (1..=8u64)
                .map(|p| {
                    let v = check_grundy_formula(&Ryuoh { p }, &[ctx.size, ctx.size], ctx, |q| {
                        nimhoff(p, q).expect("small values")
                    })?;
                    Ok((format!("p = {p}"), v))
                })
                .collect::<Result<Vec<_>>>()?;
            Ok(Verdict::all(parts))
        },
    )
    .with_claims(vec![
        ProofClaim::grundy("ryuoh(p=1)", "(x+y)%1 + 1*((x/1) xor (y/1))", "base2"),
        ProofClaim::grundy("ryuoh(p=2)", "(x+y)%2 + 2*((x/2) xor (y/2))", "base2"),
        ProofClaim::grundy("ryuoh(p=3)", "(x+y)%3 + 3*((x/3) xor (y/3))", "base2"),
        ProofClaim::grundy("ryuoh(p=4)", "(x+y)%4 + 4*((x/4) xor (y/4))", "base2"),
        ProofClaim::grundy("ryuoh(p=5)", "(x+y)%5 + 5*((x/5) xor (y/5))", "base2"),
        ProofClaim::grundy("ryuoh(p=6)", "(x+y)%6 + 6*((x/6) xor (y/6))", "base2"),
    ])]
}

/// The `ryuoh` family.
pub static FAMILY: Family = Family {
    name: "ryuoh",
    summary: "Generalized Ryuoh Nim: rook moves toward (0,0) plus diagonal steps (s,t), s+t ≤ p−1",
    params: &[Param {
        name: "p",
        kind: "integer ≥ 1",
        default: Some("3"),
        example: None,
        help: "diagonal steps (s,t) with s,t ≥ 1 and s+t ≤ p−1; p = 3 is Ryuoh Nim",
    }],
    position_syntax: "x,y (column, row; two heaps)",
    seed: "Y. Tokuni, \"Ryuoh Nim: a variant of Wythoff Nim\" (in Japanese, year uncertain), \
         Theorem 3.1 [Tokuni]",
    build,
    theorems,
    sweep: None,
};
