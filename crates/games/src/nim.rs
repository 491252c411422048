//! Nim: any number of heaps; take any positive number of stones from one heap.

use crate::{Args, Family, Param};
use nimlab_engine::big::{BigAnalysis, BigPosition, BigUint};
use nimlab_engine::capability::{BigPositions, Capabilities, MoveRelation};
use nimlab_engine::nimarith::nim_sum;
use nimlab_engine::plan;
use nimlab_engine::theorem::ProofClaim;
use nimlab_engine::theorem::{check_grundy_formula, Verdict};
use nimlab_engine::{Coord, Game, Result, TableOptions, Theorem};

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
    fn form(&self) -> nimlab_engine::position::PositionForm {
        nimlab_engine::position::PositionForm::heaps(true)
    }
    fn is_downward_closed(&self) -> bool {
        true
    }
    fn capabilities(&self) -> Capabilities<'_> {
        Capabilities {
            big: Some(&Bouton),
            misere_big: Some(&BoutonMisere),
            nplayer_closed_form: Some(&crate::nplayer_nim::Kano),
            move_relation: Some(MoveRelation::one_coordinate_decreases(
                &self.coordinate_names(),
            )),
            ..Capabilities::none()
        }
    }
    fn max_options(&self, pos: &[Coord]) -> Option<u128> {
        Some(pos.iter().map(|&h| h as u128).sum())
    }
    fn explain_move(&self, _from: &[BigUint], to: &[BigUint]) -> Option<String> {
        Some(nim_sum_in_binary(to))
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

/// Why heaps `heaps` are a P-position of Nim, column by column in binary (Bouton).
///
/// ```
/// use nimlab_engine::big::parse_big_position;
/// use nimlab_games::nim::nim_sum_in_binary;
/// let s = nim_sum_in_binary(&parse_big_position("1,2,3").unwrap());
/// assert_eq!(s, "the nim-sum of the heaps is 0 (Bouton): 01 ⊕ 10 ⊕ 11 = 00, an even number of 1s in every binary column, and every move breaks that");
/// assert!(nim_sum_in_binary(&parse_big_position("3,5").unwrap()).contains("011 ⊕ 101 = 110"));
/// ```
pub fn nim_sum_in_binary(heaps: &[BigUint]) -> String {
    let width = heaps.iter().map(|h| h.bits()).max().unwrap_or(0).max(1);
    let sum = heaps.iter().fold(BigUint::default(), |acc, h| acc ^ h);
    let zero = sum == BigUint::default();
    // Columns are shown while they fit a line or two; wider heaps (a 30000-digit one
    // is 99 658 binary digits) are told without them.
    let shown = width <= MAX_SHOWN_BITS && heaps.len() <= MAX_SHOWN_HEAPS;
    let columns = if shown {
        // Padded by hand: a formatting width is limited to 65 535.
        let pad = |h: &BigUint| {
            let digits = h.to_str_radix(2);
            format!("{}{digits}", "0".repeat(width as usize - digits.len()))
        };
        let bits: Vec<String> = heaps.iter().map(pad).collect();
        format!("{} = {}", bits.join(" ⊕ "), pad(&sum))
    } else {
        format!("{width} binary columns (too wide to show)")
    };
    let shown_sum = if shown {
        sum.to_string()
    } else {
        nimlab_engine::big::abbreviate(&sum.to_string())
    };
    if !zero {
        // Told about a position that is not P (the explorer's "why this value").
        return format!(
            "the nim-sum of the heaps is {shown_sum} (Bouton): {columns}, a binary column with an odd number of 1s, so the player to move wins by making every column even"
        );
    }
    format!(
        "the nim-sum of the heaps is {shown_sum} (Bouton): {columns}, an even number of 1s in every binary column, and every move breaks that"
    )
}

/// Widest heaps (in binary digits) whose columns [`nim_sum_in_binary`] writes out.
pub const MAX_SHOWN_BITS: u64 = 256;
/// Most heaps whose columns [`nim_sum_in_binary`] writes out.
pub const MAX_SHOWN_HEAPS: usize = 64;

/// Bouton's theorem: G(h₁, …, h_m) = h₁ ⊕ … ⊕ h_m, for heaps of any size; the winning
/// moves lower one heap h to h ⊕ G wherever that is smaller.
///
/// ```
/// use nimlab_engine::capability::BigPositions;
/// use nimlab_engine::big::parse_big_position;
/// use nimlab_games::nim::Bouton;
/// let a = Bouton.analyse_big(&parse_big_position("3,5,7").unwrap()).unwrap().unwrap();
/// assert_eq!(a.grundy, Some(1u32.into()));
/// assert_eq!(a.winning_moves.len(), 3); // 2,5,7  3,4,7  3,5,6
/// ```
pub struct Bouton;

/// Bouton's misère rule: while some heap has two or more stones, misère Nim has the
/// normal-play values; when every heap is 0 or 1, the value is 1 ⊕ (number of ones
/// mod 2) (the misère recursion's value: a terminal position has value 1).
///
/// ```
/// use nimlab_engine::capability::BigPositions;
/// use nimlab_engine::big::parse_big_position;
/// use nimlab_games::nim::BoutonMisere;
/// // Leave an odd number of heaps of one stone.
/// let a = BoutonMisere.analyse_big(&parse_big_position("1,1,5").unwrap()).unwrap().unwrap();
/// assert_eq!(a.winning_moves, parse_big_position("1,1,1").map(|p| vec![p]).unwrap());
/// ```
pub struct BoutonMisere;

fn nim_sum_big(pos: &[BigUint]) -> BigUint {
    pos.iter().fold(BigUint::default(), |acc, h| acc ^ h)
}

/// How many moves of `pos` an answer may list within `opts`' memory limit (each move
/// is a whole position).
fn most_moves(pos: &[BigUint], opts: &TableOptions) -> usize {
    (plan::listed_coordinates(opts) / pos.len().max(1) as u64) as usize
}

/// Adds to `out` the move that sets heap `i` of `pos` to `want`, unless `out` holds
/// `most` moves already: then `false` (the list is cut short).
fn push_move(
    out: &mut Vec<BigPosition>,
    most: usize,
    pos: &[BigUint],
    i: usize,
    want: BigUint,
) -> bool {
    if out.len() >= most {
        return false;
    }
    let mut next = pos.to_vec();
    next[i] = want;
    out.push(next);
    true
}

/// The moves that set one heap to `target ⊕ (the others' sum)`, for each heap where
/// that lowers it (equal heaps give distinct positions: a position is a tuple), at most
/// `most` (then the list is incomplete: `false`).
fn moves_to_sum(pos: &[BigUint], target: &BigUint, most: usize) -> (Vec<BigPosition>, bool) {
    let total = nim_sum_big(pos);
    let mut out = Vec::new();
    for (i, h) in pos.iter().enumerate() {
        let want = &total ^ h ^ target;
        if &want < h && !push_move(&mut out, most, pos, i, want) {
            return (out, false);
        }
    }
    (out, true)
}

fn analysis(
    pos: &[BigUint],
    grundy: BigUint,
    (winning_moves, all): (Vec<BigPosition>, bool),
    method: &str,
) -> BigAnalysis {
    let mut a = BigAnalysis::exact(pos.to_vec(), grundy, winning_moves, method);
    a.all_winning_moves = all;
    a
}

impl BigPositions for Bouton {
    fn analyse_big(&self, pos: &[BigUint]) -> Option<Result<BigAnalysis>> {
        self.analyse_big_within(pos, &TableOptions::default())
    }
    fn analyse_big_within(
        &self,
        pos: &[BigUint],
        opts: &TableOptions,
    ) -> Option<Result<BigAnalysis>> {
        let g = nim_sum_big(pos);
        let moves = moves_to_sum(pos, &BigUint::default(), most_moves(pos, opts));
        Some(Ok(analysis(
            pos,
            g,
            moves,
            "Bouton's theorem: the nim-sum of the heaps",
        )))
    }
    fn grundy_small(&self, pos: &[Coord]) -> Option<u32> {
        u32::try_from(nim_sum(pos)).ok().filter(|&g| g != u32::MAX)
    }
    fn moves_to_value(&self, pos: &[BigUint], target: &BigUint) -> Option<Vec<BigPosition>> {
        let (moves, all) = moves_to_sum(pos, target, most_moves(pos, &TableOptions::default()));
        all.then_some(moves)
    }
}

/// Misère value of heaps that are all 0 or 1.
fn misere_small_heaps(pos: &[BigUint]) -> Option<BigUint> {
    let one = BigUint::from(1u32);
    if pos.iter().any(|h| h > &one) {
        return None;
    }
    let ones = pos.iter().filter(|h| **h == one).count();
    Some(BigUint::from(1 - (ones % 2) as u32))
}

impl BoutonMisere {
    /// The moves to positions of value `target`, at most `most` (`false`: cut short).
    /// Each candidate's value is updated from the whole position's counts, not
    /// recomputed: linear in the number of heaps.
    fn moves_within(
        &self,
        pos: &[BigUint],
        target: &BigUint,
        most: usize,
    ) -> (Vec<BigPosition>, bool) {
        let one = BigUint::from(1u32);
        let total = nim_sum_big(pos);
        let ones = pos.iter().filter(|h| **h == one).count();
        let large = pos.iter().filter(|h| **h > one).count();
        let mut out = Vec::new();
        for (i, h) in pos.iter().enumerate() {
            // Few candidates per heap: lowering it to 0, 1, or the value that fixes the sum.
            let mut wants = vec![BigUint::default(), one.clone(), &total ^ h ^ target];
            wants.sort();
            wants.dedup();
            for want in wants {
                if &want < h {
                    let large_after = large - (h > &one) as usize + (want > one) as usize;
                    let g = if large_after == 0 {
                        let ones_after = ones - (*h == one) as usize + (want == one) as usize;
                        BigUint::from(1 - (ones_after % 2) as u32)
                    } else {
                        &total ^ h ^ &want
                    };
                    if &g == target && !push_move(&mut out, most, pos, i, want) {
                        return (out, false);
                    }
                }
            }
        }
        (out, true)
    }
}

impl BigPositions for BoutonMisere {
    fn analyse_big(&self, pos: &[BigUint]) -> Option<Result<BigAnalysis>> {
        self.analyse_big_within(pos, &TableOptions::default())
    }
    fn analyse_big_within(
        &self,
        pos: &[BigUint],
        opts: &TableOptions,
    ) -> Option<Result<BigAnalysis>> {
        let method = "Bouton's misère rule";
        let g = misere_small_heaps(pos).unwrap_or_else(|| nim_sum_big(pos));
        let moves = self.moves_within(pos, &BigUint::default(), most_moves(pos, opts));
        Some(Ok(analysis(pos, g, moves, method)))
    }
    fn grundy_small(&self, pos: &[Coord]) -> Option<u32> {
        if pos.iter().all(|&h| h <= 1) {
            Some(1 - (pos.iter().filter(|&&h| h == 1).count() % 2) as u32)
        } else {
            u32::try_from(nim_sum(pos)).ok().filter(|&g| g != u32::MAX)
        }
    }
    fn moves_to_value(&self, pos: &[BigUint], target: &BigUint) -> Option<Vec<BigPosition>> {
        let (moves, all) =
            self.moves_within(pos, target, most_moves(pos, &TableOptions::default()));
        all.then_some(moves)
    }
}

/// Largest `heaps` parameter (the dimension of a table).
pub const MAX_TABLE_HEAPS: i64 = 64;

fn build(args: &Args) -> Result<Box<dyn Game>> {
    Ok(Box::new(Nim {
        heaps: match args.int("heaps", 1)? {
            h if h > MAX_TABLE_HEAPS => {
                return Err(nimlab_engine::Error::input(format!(
                    "nim: heaps sets a table's dimension and must be ≤ {MAX_TABLE_HEAPS}, got {h} \
                     (positions may still have any number of heaps)"
                )))
            }
            h => h as usize,
        },
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
    )
    .with_claims(vec![
        ProofClaim::grundy("nim", "x xor y", "base2"),
        ProofClaim::grundy("nim(heaps=3)", "x0 xor x1 xor x2", "base2"),
    ])]
}

/// The parameter `heaps` of the Nim families: how many heaps a table has.
pub(crate) const HEAPS: Param = Param {
    name: "heaps",
    kind: "integer ≥ 1",
    default: Some("2"),
    example: None,
    help: "number of heaps of a table (positions may have any number)",
};

/// How the Nim families write a position.
pub(crate) const HEAPS_SYNTAX: &str = "h1,h2,… (one heap size each; any number of heaps)";

/// The `nim` family.
pub static FAMILY: Family = Family {
    name: "nim",
    summary: "Nim: take any positive number of stones from one heap",
    params: &[HEAPS],
    position_syntax: HEAPS_SYNTAX,
    seed: "C. L. Bouton, Ann. of Math. 3 (1901); Y. Irie, \"Take-away games with the same \
         Sprague–Grundy function as Nim\" (in Japanese, year uncertain), §3 [Irie]; \
         rectangular chocolate bars [Chocolate]",
    build,
    theorems,
    sweep: None,
};
