//! Welter's game (the Maya game of Sato and Welter, docs/theory.md §3): m heaps of
//! distinct sizes; take any number of stones from one heap, never making two heaps
//! equal. It is the take-away game Γ(P, C_\[1\]) with P = {X : all coordinates distinct}.
//!
//! Its Grundy value is Welter's function (Conway, *On Numbers and Games*, ch. 13):
//! [a|b|c|…] = a ⊕ b ⊕ c ⊕ … ⊕ (⊕ over all pairs i < j of (aᵢ|aⱼ)), where
//! (x|y) = 2^(k+1) − 1 for 2^k the largest power of 2 dividing x − y; for two heaps
//! [a|b] = (a ⊕ b) − 1. Computed without looking at all pairs: in the binary trie of
//! the heaps read from the lowest bit, the pairs with k = ord₂(x − y) are those split
//! at a node of depth k, c₀·c₁ of them for subtrees of c₀ and c₁ heaps, so the pair
//! terms cancel except at nodes where both subtrees hold an odd number of heaps
//! (Conway's "mating"). Linear in the total size of the heaps for a fixed count.

use crate::{Args, Family, Param};
use nimlab_engine::big::{BigAnalysis, BigPosition, BigUint};
use nimlab_engine::capability::{BigPositions, Capabilities};
use nimlab_engine::theorem::{check_grundy_formula, Verdict};
use nimlab_engine::{Coord, Error, Game, Result, Theorem};

/// Welter's game: positions of any number of distinct heaps; `heaps` is the number
/// of heaps of a table (its dimension).
///
/// ```
/// use nimlab_engine::Solver;
/// use nimlab_games::welter::{welter_function, Welter};
/// assert_eq!(Solver::new(&Welter { heaps: 3 }).grundy(&[1, 2, 5]).unwrap(), 1);
/// assert_eq!(welter_function(&[1, 2, 5]), 1);
/// ```
#[derive(Debug, Clone)]
pub struct Welter {
    /// Number of heaps m.
    pub heaps: usize,
}

/// Welter's function of machine-size heaps (distinct).
///
/// ```
/// use nimlab_games::welter::welter_function;
/// assert_eq!(welter_function(&[3, 6]), (3 ^ 6) - 1);
/// assert_eq!(welter_function(&[0, 1, 2]), 0); // no move at all
/// assert_eq!(welter_function(&[1, 2, 5]), 1);
/// ```
pub fn welter_function(heaps: &[u64]) -> u64 {
    let big: Vec<BigUint> = heaps.iter().map(|&h| BigUint::from(h)).collect();
    u64::try_from(welter_big(&big)).expect("the value of u64 heaps fits in u64")
}

/// 2^(k+1) − 1.
fn mate_mask(k: u64) -> BigUint {
    (BigUint::from(1u32) << (k + 1)) - 1u32
}

/// The depths k of the trie nodes whose two subtrees hold odd numbers of heaps (the
/// mated pairs), for distinct heaps. Iterative: a stack of (heap indices, depth below
/// which they all agree).
fn mating_depths(heaps: &[BigUint]) -> Vec<u64> {
    let mut out = Vec::new();
    let mut stack: Vec<Vec<usize>> = vec![(0..heaps.len()).collect()];
    while let Some(set) = stack.pop() {
        if set.len() < 2 {
            continue;
        }
        let first = &heaps[set[0]];
        let split = set[1..]
            .iter()
            .filter_map(|&i| (&heaps[i] ^ first).trailing_zeros())
            .min()
            .expect("distinct heaps");
        let (ones, zeros): (Vec<usize>, Vec<usize>) =
            set.iter().partition(|&&i| heaps[i].bit(split));
        if ones.len() % 2 == 1 && zeros.len() % 2 == 1 {
            out.push(split);
        }
        stack.push(ones);
        stack.push(zeros);
    }
    out
}

/// Welter's function [a|b|c|…] of distinct heaps of any size.
///
/// ```
/// use nimlab_engine::big::BigUint;
/// use nimlab_games::welter::welter_big;
/// let h: Vec<BigUint> = [5u32, 9, 12].iter().map(|&x| BigUint::from(x)).collect();
/// assert_eq!(welter_big(&h), BigUint::from(7u32));
/// ```
pub fn welter_big(heaps: &[BigUint]) -> BigUint {
    let mut v = heaps.iter().fold(BigUint::default(), |a, h| a ^ h);
    for k in mating_depths(heaps) {
        v ^= mate_mask(k);
    }
    v
}

/// Every a' ∉ `rest` with [a'|rest] = `target`. Inserting a' into the trie of `rest`
/// only changes the nodes on its path; a' leaves the trie at some node of a chain
/// (a run of nodes with one occupied subtree) and on each chain the exit depth is
/// forced, so there is at most one candidate per chain. Each is verified.
pub fn heaps_with_value(rest: &[BigUint], target: &BigUint) -> Vec<BigUint> {
    let base = rest.iter().fold(target.clone(), |a, h| a ^ h);
    let mut m_rest = BigUint::default();
    for k in mating_depths(rest) {
        m_rest ^= mate_mask(k);
    }
    let t = base ^ &m_rest; // a' = t ⊕ Δ(path) ⊕ (exit term)
    if rest.is_empty() {
        return vec![target.clone()];
    }
    let mut out = Vec::new();
    // (heap indices, first chain depth, Δ = XOR of the status changes above)
    let mut stack: Vec<(Vec<usize>, u64, BigUint)> =
        vec![((0..rest.len()).collect(), 0, BigUint::default())];
    while let Some((set, from, delta)) = stack.pop() {
        let p = &rest[set[0]];
        let split = set[1..]
            .iter()
            .filter_map(|&i| (&rest[i] ^ p).trailing_zeros())
            .min();
        // Exit below a chain node at depth d ∈ [from, split): a' agrees with the set
        // below bit d and differs at bit d.
        let y = &t ^ &delta ^ p;
        let odd = set.len() % 2 == 1;
        let d = if odd {
            (&y + 1u32).trailing_zeros()
        } else {
            y.trailing_zeros()
        };
        if let Some(d) = d
            && d >= from
            && split.is_none_or(|s| d < s)
        {
            let mut a = &t ^ &delta;
            if odd {
                a ^= mate_mask(d);
            }
            out.push(a);
        }
        if let Some(s) = split {
            let (ones, zeros): (Vec<usize>, Vec<usize>) =
                set.iter().partition(|&&i| rest[i].bit(s));
            for (path, other) in [(&ones, &zeros), (&zeros, &ones)] {
                let mut d2 = delta.clone();
                if other.len() % 2 == 1 {
                    d2 ^= mate_mask(s);
                }
                stack.push((path.clone(), s + 1, d2));
            }
        }
    }
    out.retain(|a| {
        !rest.contains(a) && {
            let mut all = rest.to_vec();
            all.push(a.clone());
            &welter_big(&all) == target
        }
    });
    out.sort();
    out.dedup();
    out
}

/// The options of `pos` with Welter value `target`: for each heap, the one or few
/// sizes a' < aᵢ that give it ([`heaps_with_value`]).
pub fn moves_to_welter_value(pos: &[BigUint], target: &BigUint) -> Vec<BigPosition> {
    let mut out = Vec::new();
    for i in 0..pos.len() {
        let mut rest = pos.to_vec();
        rest.remove(i);
        for a in heaps_with_value(&rest, target) {
            if a < pos[i] {
                let mut next = pos.to_vec();
                next[i] = a;
                out.push(next);
            }
        }
    }
    out
}

fn distinct_error<T: Ord + Clone>(pos: &[T]) -> Option<String> {
    let mut s = pos.to_vec();
    s.sort();
    s.windows(2)
        .any(|w| w[0] == w[1])
        .then(|| "the heaps of Welter's game must be distinct".to_string())
}

impl Game for Welter {
    fn spec(&self) -> String {
        format!("welter(heaps={})", self.heaps)
    }
    fn dimension(&self) -> usize {
        self.heaps
    }
    fn form(&self) -> nimlab_engine::position::PositionForm {
        // Like Nim: a position has any number of heaps; `heaps` sizes tables only.
        nimlab_engine::position::PositionForm::heaps(true)
    }
    fn is_downward_closed(&self) -> bool {
        true
    }
    fn position_error(&self, pos: &[Coord]) -> Option<String> {
        distinct_error(pos)
    }
    fn for_each_option(&self, pos: &[Coord], visit: &mut dyn FnMut(&[Coord])) {
        let mut next = pos.to_vec();
        for i in 0..pos.len() {
            for a in 0..pos[i] {
                if !pos.contains(&a) {
                    next[i] = a;
                    visit(&next);
                }
            }
            next[i] = pos[i];
        }
    }
    fn capabilities(&self) -> Capabilities<'_> {
        Capabilities {
            big: Some(self),
            ..Capabilities::none()
        }
    }
    fn max_options(&self, pos: &[Coord]) -> Option<u128> {
        Some(pos.iter().map(|&c| c as u128).sum())
    }
}

impl BigPositions for Welter {
    fn analyse_big(&self, pos: &[BigUint]) -> Option<Result<BigAnalysis>> {
        if let Some(why) = distinct_error(pos) {
            return Some(Err(Error::input(why)));
        }
        let g = welter_big(pos);
        let method = "Welter's function (Conway, On Numbers and Games, ch. 13)";
        if pos.len() > MAX_HEAPS_WITH_MOVES {
            // The value takes n log n steps, the winning moves n² (a trie per heap).
            let mut a = BigAnalysis::exact(pos.to_vec(), g, Vec::new(), method);
            a.all_winning_moves = a.outcome == nimlab_engine::Outcome::P;
            a.method = format!(
                "{method}; winning moves are listed for at most {MAX_HEAPS_WITH_MOVES} heaps"
            );
            return Some(Ok(a));
        }
        let moves = moves_to_welter_value(pos, &BigUint::default());
        Some(Ok(BigAnalysis::exact(pos.to_vec(), g, moves, method)))
    }
    fn grundy_small(&self, pos: &[Coord]) -> Option<u32> {
        if distinct_error(pos).is_some() {
            return None;
        }
        u32::try_from(welter_function(pos))
            .ok()
            .filter(|&g| g != u32::MAX)
    }
    fn moves_to_value(&self, pos: &[BigUint], target: &BigUint) -> Option<Vec<BigPosition>> {
        (pos.len() <= MAX_HEAPS_WITH_MOVES).then(|| moves_to_welter_value(pos, target))
    }
}

/// Most heaps whose winning moves are listed (finding them costs n² trie steps: about a
/// second at this size).
pub const MAX_HEAPS_WITH_MOVES: usize = 1024;

/// Largest number of heaps (a table's dimension).
pub const MAX_HEAPS: i64 = 64;

fn build(args: &Args) -> Result<Box<dyn Game>> {
    match args.int("heaps", 1)? {
        h if h > MAX_HEAPS => Err(Error::input(format!(
            "welter: heaps must be ≤ {MAX_HEAPS}, got {h}"
        ))),
        h => Ok(Box::new(Welter { heaps: h as usize })),
    }
}

fn theorems() -> Vec<Theorem> {
    vec![Theorem::new(
        "welter.conway",
        "Welter's theorem: the Grundy value of Welter's game is Welter's function [a|b|c|…] \
         (the nim sum of the heaps and of (x|y) = 2^(k+1) − 1 over mated pairs)",
        "J. H. Conway, On Numbers and Games, ch. 13; C. P. Welter (1954); Y. Irie (in \
         Japanese), Example 2.2 [Irie]",
        |ctx| {
            let parts = [(2usize, 64usize), (3, 24), (4, 16)]
                .into_iter()
                .map(|(m, side)| {
                    let side = side.min(ctx.size.max(m));
                    let v = check_grundy_formula(&Welter { heaps: m }, &vec![side; m], ctx, |p| {
                        if distinct_error(p).is_some() {
                            0
                        } else {
                            welter_function(p)
                        }
                    })?;
                    Ok((format!("{m} heaps"), v))
                })
                .collect::<Result<Vec<_>>>()?;
            Ok(Verdict::all(parts))
        },
    )]
}

/// The `welter` family.
pub static FAMILY: Family = Family {
    name: "welter",
    summary: "Welter's game (Maya game): take from one heap, heaps stay distinct",
    params: &[Param {
        name: "heaps",
        kind: "integer ≥ 1",
        default: Some("3"),
        example: None,
        help: "number of heaps of a table (positions may have any number of distinct heaps)",
    }],
    position_syntax: "a,b,c,… (distinct heap sizes)",
    seed: "C. P. Welter (1954); J. H. Conway, On Numbers and Games, ch. 13; Y. Irie, \
         \"Take-away games with the same Sprague–Grundy function as Nim\" (in Japanese, \
         year uncertain), Example 2.2 [Irie]",
    build,
    theorems,
    sweep: None,
};
