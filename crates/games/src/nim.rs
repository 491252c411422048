//! Nim: any number of heaps; take any positive number of stones from one heap.

use crate::{Args, Family, Param};
use nimlab_engine::nimarith::nim_sum;
use nimlab_engine::theorem::{check_grundy_formula, Verdict};
use nimlab_engine::{Coord, Game, Result, Theorem};

/// Nim. Positions may have any number of heaps; `heaps` sets the table dimension.
///
/// ```
/// use nimlab_engine::Solver;
/// use nimlab_games::nim::Nim;
/// assert_eq!(Solver::new(&Nim { heaps: 3 }).grundy(&[1, 3, 2]).unwrap(), 0);
/// ```
#[derive(Debug, Clone)]
pub struct Nim {
    /// Number of heaps of a table (positions may have any number).
    pub heaps: usize,
}

impl Game for Nim {
    fn spec(&self) -> String {
        if self.heaps == 2 {
            "nim".into()
        } else {
            format!("nim(heaps={})", self.heaps)
        }
    }
    fn dimension(&self) -> usize {
        self.heaps
    }
    fn accepts_dimension(&self, m: usize) -> bool {
        m >= 1
    }
    fn is_downward_closed(&self) -> bool {
        true
    }
    fn for_each_option(&self, pos: &[Coord], visit: &mut dyn FnMut(&[Coord])) {
        let mut next = pos.to_vec();
        for i in 0..pos.len() {
            for u in 0..pos[i] {
                next[i] = u;
                visit(&next);
            }
            next[i] = pos[i];
        }
    }
}

fn build(args: &Args) -> Result<Box<dyn Game>> {
    Ok(Box::new(Nim {
        heaps: args.int("heaps", 1)? as usize,
    }))
}

fn theorems() -> Vec<Theorem> {
    vec![Theorem::new(
        "nim.bouton",
        "Bouton: the Grundy value of Nim is the nim sum x0 ⊕ x1 ⊕ … of the heaps",
        "C. L. Bouton, Nim, a game with a complete mathematical theory, Ann. of Math. 3 \
         (1901); Y. Irie, \"Take-away games with the same Sprague–Grundy function as Nim\" (in \
         Japanese, year uncertain), §3 (σ²) [Irie]",
        |ctx| {
            let parts = (1..=3)
                .map(|m| {
                    let side = if m == 3 { ctx.size.min(24) } else { ctx.size };
                    let v = check_grundy_formula(&Nim { heaps: m }, &vec![side; m], ctx, nim_sum)?;
                    Ok((format!("{m} heap{}", if m == 1 { "" } else { "s" }), v))
                })
                .collect::<Result<Vec<_>>>()?;
            Ok(Verdict::all(parts))
        },
    )]
}

/// The `nim` family.
pub static FAMILY: Family = Family {
    name: "nim",
    summary: "Nim: take any positive number of stones from one heap",
    params: &[Param {
        name: "heaps",
        kind: "integer ≥ 1",
        default: Some("2"),
        help: "number of heaps of a table (positions may have any number)",
    }],
    position_syntax: "h1,h2,… (one heap size each; any number of heaps)",
    seed: "C. L. Bouton, Ann. of Math. 3 (1901); Y. Irie, \"Take-away games with the same \
         Sprague–Grundy function as Nim\" (in Japanese, year uncertain), §3 [Irie]; \
         rectangular chocolate bars [Chocolate]",
    build,
    theorems,
};
