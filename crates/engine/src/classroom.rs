//! Teaching aids shared by every surface (the web explorer, the command line, Python):
//! why a position has its value ([`explain_value`]: the mex worked out, the nim-sum of
//! a sum's components column by column, the closed form's own explanation) and seeded
//! exercises ([`deal`]: "P or N?" and "make the winning move").
//!
//! ```
//! use nimlab_engine::classroom::explain_value;
//! use nimlab_engine::{Coord, Game, TableOptions};
//! struct Take12; // one heap, take 1 or 2
//! impl Game for Take12 {
//!     fn spec(&self) -> String { "take12".into() }
//!     fn dimension(&self) -> usize { 1 }
//!     fn for_each_option(&self, p: &[Coord], visit: &mut dyn FnMut(&[Coord])) {
//!         for t in 1..=2 { if p[0] >= t { visit(&[p[0] - t]); } }
//!     }
//! }
//! let e = explain_value(&Take12, &[4u32.into()], &TableOptions::default()).unwrap();
//! // options 3 (value 0) and 2 (value 2): the least value missing is 1
//! assert_eq!(e.sorted_values, vec![0u32.into(), 2u32.into()]);
//! assert_eq!(e.mex, Some(1u32.into()));
//! ```

use crate::big::{to_small, BigPosition, BigUint};
use crate::capability::Decomposition;
use crate::error::{Error, Result};
use crate::game::{Coord, Game, Outcome, Position};
use crate::plan::{self, Method, OptionReport};
use crate::table::{TableOptions, INVALID};

/// One component of a sum, with its value (for the nim-sum column by column).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Component {
    /// The game of the component (its spec).
    pub game: String,
    /// The component's position.
    pub position: BigPosition,
    /// Its Grundy value.
    pub grundy: BigUint,
}

/// Why a position has its value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValueExplanation {
    /// The position.
    pub position: BigPosition,
    /// Its Grundy value (as the planner answers it), when known.
    pub grundy: Option<BigUint>,
    /// P or N.
    pub outcome: Outcome,
    /// Every option with its value, in the game's order, when they can be listed.
    pub options: Option<Vec<OptionReport>>,
    /// The options' values, distinct and sorted (empty without options).
    pub sorted_values: Vec<BigUint>,
    /// The least value missing from `sorted_values` (the mex), when every option's
    /// value is known; it equals `grundy`.
    pub mex: Option<BigUint>,
    /// For a sum of independent components (heaps, parts of `sum(…)`): each one's
    /// value; `grundy` is their nim-sum.
    pub components: Vec<Component>,
    /// The game's own explanation of the value (a closed form evaluated step by step),
    /// when it has one.
    pub closed_form: Option<String>,
    /// How the value was obtained.
    pub method: Method,
    /// Why the options are not listed, when they are not.
    pub options_note: Option<String>,
}

/// The least natural number missing from a sorted list of distinct values.
fn mex_of_sorted(values: &[BigUint]) -> BigUint {
    let mut m = BigUint::default();
    for v in values {
        if *v != m {
            break;
        }
        m += 1u32;
    }
    m
}

/// Why `pos` has its value: its options' values sorted with the least missing one, the
/// components of a sum with their values, and the closed form's own explanation (the
/// game's [`Game::explain_move`] told about the position itself).
///
/// Errors as [`plan::moves`]; n-player games have classes, not Grundy values, and are
/// refused.
pub fn explain_value(
    game: &dyn Game,
    pos: &[BigUint],
    opts: &TableOptions,
) -> Result<ValueExplanation> {
    if game.capabilities().nplayer.is_some() {
        return Err(Error::input(format!(
            "{} is played by several players: its positions have classes, not a mex",
            game.spec()
        )));
    }
    let report = plan::moves(game, pos, opts)?;
    let mut sorted_values: Vec<BigUint> = Vec::new();
    let mut all_known = report.options.is_some();
    for o in report.options.iter().flatten() {
        match &o.grundy {
            Some(g) => sorted_values.push(g.clone()),
            None => all_known = false,
        }
    }
    sorted_values.sort();
    sorted_values.dedup();
    let mex = all_known.then(|| mex_of_sorted(&sorted_values));
    // The game's explanation of a value it reaches (a theorem evaluated at `pos`), told
    // whatever method the planner took for the number itself.
    let closed_form = game.explain_move(pos, pos);
    Ok(ValueExplanation {
        position: report.position.clone(),
        grundy: report.grundy.clone(),
        outcome: report.outcome,
        options: report.options.clone(),
        sorted_values,
        mex,
        components: components(game, pos, opts)?,
        closed_form,
        method: report.method.clone(),
        options_note: report.options_note.clone(),
    })
}

/// The components of `pos` with their values, when the game is a sum of several.
fn components(game: &dyn Game, pos: &[BigUint], opts: &TableOptions) -> Result<Vec<Component>> {
    let caps = game.capabilities();
    let parts: Vec<(&dyn Game, std::ops::Range<usize>)> = match &caps.decomposition {
        Some(Decomposition::Parts(sum)) if sum.parts().len() > 1 => match sum.split(pos) {
            Some(ranges) => sum.parts().into_iter().zip(ranges).collect(),
            None => return Ok(Vec::new()),
        },
        Some(Decomposition::Heaps) if pos.len() > 1 => {
            (0..pos.len()).map(|i| (game, i..i + 1)).collect()
        }
        _ => return Ok(Vec::new()),
    };
    let mut out = Vec::new();
    for (g, r) in parts {
        let part = &pos[r];
        match plan::value(g, part, opts)?.grundy {
            Some(grundy) => out.push(Component {
                game: g.spec(),
                position: part.to_vec(),
                grundy,
            }),
            None => return Ok(Vec::new()), // a part known by its strategy only
        }
    }
    Ok(out)
}

/// What a challenge asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Question {
    /// Is the position P (the player to move loses) or N?
    Outcome,
    /// Make a winning move (the position is an N-position).
    WinningMove,
}

impl Question {
    /// `outcome` or `winning-move`.
    pub fn as_str(self) -> &'static str {
        match self {
            Question::Outcome => "outcome",
            Question::WinningMove => "winning-move",
        }
    }
}

/// How hard the dealt positions are: the side of the box they are drawn from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Difficulty {
    /// Coordinates below 6.
    Easy,
    /// Coordinates below 12.
    Medium,
    /// Coordinates below 24.
    Hard,
}

impl Difficulty {
    /// Reads `easy`, `medium` or `hard`.
    ///
    /// ```
    /// use nimlab_engine::classroom::Difficulty;
    /// assert_eq!(Difficulty::parse("hard").unwrap().side(), 24);
    /// assert!(Difficulty::parse("expert").is_err());
    /// ```
    pub fn parse(text: &str) -> Result<Self> {
        match text {
            "easy" => Ok(Difficulty::Easy),
            "medium" => Ok(Difficulty::Medium),
            "hard" => Ok(Difficulty::Hard),
            other => Err(Error::input(format!(
                "unknown difficulty '{}' (easy, medium, hard)",
                other.chars().take(40).collect::<String>()
            ))),
        }
    }
    /// Side of the box the positions come from.
    pub fn side(self) -> usize {
        match self {
            Difficulty::Easy => 6,
            Difficulty::Medium => 12,
            Difficulty::Hard => 24,
        }
    }
    /// `easy`, `medium` or `hard`.
    pub fn as_str(self) -> &'static str {
        match self {
            Difficulty::Easy => "easy",
            Difficulty::Medium => "medium",
            Difficulty::Hard => "hard",
        }
    }
}

/// One dealt exercise with its answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Challenge {
    /// The position.
    pub position: Position,
    /// What is asked.
    pub question: Question,
    /// The answer to "P or N?".
    pub outcome: Outcome,
    /// The position's Grundy value.
    pub grundy: u32,
    /// Every winning move (to a P-position); empty from a P-position.
    pub winning_moves: Vec<Position>,
}

/// Most challenges one deal gives.
pub const MAX_CHALLENGES: usize = 100;

/// Most cells of the box a deal draws from (games of many coordinates get a smaller
/// side than the difficulty's).
pub const MAX_DEAL_CELLS: u64 = 1 << 16;

/// SplitMix64: a small, fixed pseudo-random sequence, so a seed deals the same set on
/// every machine and every version.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Deals `count` exercises on `game` from `seed`: the same seed, game and difficulty
/// always deal the same set (a class can share it). Questions alternate "P or N?"
/// and "make the winning move"; about half the "P or N?" positions are P-positions
/// when the box has any. Two-player games only.
///
/// ```
/// use nimlab_engine::classroom::{deal, Difficulty, Question};
/// use nimlab_engine::{Coord, Game, Outcome, TableOptions};
/// struct Nim2;
/// impl Game for Nim2 {
///     fn spec(&self) -> String { "nim".into() }
///     fn dimension(&self) -> usize { 2 }
///     fn for_each_option(&self, p: &[Coord], visit: &mut dyn FnMut(&[Coord])) {
///         for u in 0..p[0] { visit(&[u, p[1]]); }
///         for v in 0..p[1] { visit(&[p[0], v]); }
///     }
/// }
/// let opts = TableOptions::default();
/// let a = deal(&Nim2, Difficulty::Easy, 7, 6, &opts).unwrap();
/// assert_eq!(a, deal(&Nim2, Difficulty::Easy, 7, 6, &opts).unwrap());
/// for c in &a {
///     assert_eq!(c.outcome == Outcome::P, c.position[0] == c.position[1]);
///     if c.question == Question::WinningMove {
///         assert!(c.winning_moves.iter().all(|m| m[0] == m[1]));
///     }
/// }
/// ```
pub fn deal(
    game: &dyn Game,
    difficulty: Difficulty,
    seed: u64,
    count: usize,
    opts: &TableOptions,
) -> Result<Vec<Challenge>> {
    if game.capabilities().nplayer.is_some() {
        return Err(Error::input(format!(
            "challenges are for two players; {} has more",
            game.spec()
        )));
    }
    if count == 0 || count > MAX_CHALLENGES {
        return Err(Error::input(format!(
            "a challenge deals 1 to {MAX_CHALLENGES} positions"
        )));
    }
    // Games of many coordinates: a smaller side, so the box stays a quick table.
    let mut side = difficulty.side();
    while side > 2 && crate::table::cell_count(&game.table_box(side))? > MAX_DEAL_CELLS {
        side -= 1;
    }
    let dims = game.table_box(side);
    let table = plan::table(game, &dims, opts)?.table;
    // The cells that are positions with at least one move, split by outcome.
    let mut p_cells = Vec::new();
    let mut n_cells = Vec::new();
    for (i, &v) in table.values().iter().enumerate() {
        if v == INVALID {
            continue;
        }
        let pos = table.position_of(i);
        let mut has_move = false;
        game.for_each_option(&pos, &mut |_| has_move = true);
        if !has_move {
            continue;
        }
        if v == 0 {
            p_cells.push(i);
        } else {
            n_cells.push(i);
        }
    }
    if n_cells.is_empty() && p_cells.is_empty() {
        return Err(Error::input(format!(
            "{} has no position with a move in the box {}",
            game.spec(),
            crate::table::describe_box(&dims)
        )));
    }
    let mut rng = SplitMix(seed ^ 0x6E69_6D6C_6162); // "nimlab"
    let mut out = Vec::with_capacity(count);
    let mut last: Option<usize> = None;
    for k in 0..count {
        let question = if k % 2 == 1 && !n_cells.is_empty() {
            Question::WinningMove
        } else {
            Question::Outcome
        };
        let from_p = question == Question::Outcome
            && !p_cells.is_empty()
            && (n_cells.is_empty() || rng.next() & 1 == 0);
        let pool = if from_p { &p_cells } else { &n_cells };
        // Avoid dealing the same cell twice in a row when there is a choice.
        let mut cell = pool[rng.below(pool.len())];
        if Some(cell) == last && pool.len() > 1 {
            cell = pool[rng.below(pool.len())];
        }
        last = Some(cell);
        let position = table.position_of(cell);
        let big: Vec<BigUint> = position.iter().map(|&c| BigUint::from(c)).collect();
        let report = plan::value(game, &big, opts)?;
        let winning_moves = report
            .winning_moves
            .iter()
            .filter_map(|m| to_small(m))
            .collect();
        out.push(Challenge {
            position,
            question,
            outcome: report.outcome,
            grundy: table.values()[cell],
            winning_moves,
        });
    }
    Ok(out)
}

/// Whether `answer` is one of the moves that win from `from` (heaps in any order).
///
/// ```
/// use nimlab_engine::classroom::is_winning_move;
/// use nimlab_engine::{Coord, Game};
/// struct Nim2;
/// impl Game for Nim2 {
///     fn spec(&self) -> String { "nim".into() }
///     fn dimension(&self) -> usize { 2 }
///     fn for_each_option(&self, p: &[Coord], visit: &mut dyn FnMut(&[Coord])) {
///         for u in 0..p[0] { visit(&[u, p[1]]); }
///         for v in 0..p[1] { visit(&[p[0], v]); }
///     }
/// }
/// assert!(is_winning_move(&Nim2, &[3, 5], &[3, 3]));
/// assert!(!is_winning_move(&Nim2, &[3, 5], &[3, 4]));
/// ```
pub fn is_winning_move(game: &dyn Game, from: &[Coord], answer: &[Coord]) -> bool {
    let Some(to) = crate::play::find_move(game, from, answer) else {
        return false;
    };
    let mut solver = crate::Solver::new(game);
    // The terminal value decides misère play: a move wins when it leaves the opponent
    // a position of value 0.
    matches!(solver.grundy(&to), Ok(0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_games::{Rook1, Sub134};
    use crate::Solver;

    /// The mex worked out agrees with the solver's value and with the plain definition.
    #[test]
    fn explanation_matches_brute_force() {
        let opts = TableOptions::default();
        for x in 0..9u64 {
            for y in 0..9u64 {
                let e = explain_value(&Rook1, &[x.into(), y.into()], &opts).unwrap();
                let mut s = Solver::new(&Rook1);
                let g = s.grundy(&[x, y]).unwrap();
                assert_eq!(e.grundy, Some(g.into()));
                assert_eq!(e.mex, Some(g.into()));
                // Plain mex: the least value no option has.
                let mut vals = Vec::new();
                Rook1.for_each_option(&[x, y], &mut |o| vals.push(s.grundy(o).unwrap()));
                let plain = (0..).find(|v| !vals.contains(v)).unwrap();
                assert_eq!(plain, g);
                assert!(e.sorted_values.windows(2).all(|w| w[0] < w[1]));
                assert!(!e.sorted_values.contains(&g.into()));
            }
        }
        let e = explain_value(&Sub134, &[7u32.into()], &opts).unwrap();
        // G = 0,1,0,1,2,3,2,0 for 0..7; 7 → 6, 4, 3 of values 2, 2, 1: the mex is 0.
        assert_eq!(e.sorted_values, vec![1u32.into(), 2u32.into()]);
        assert_eq!(e.mex, Some(0u32.into()));
        assert_eq!(e.outcome, Outcome::P);
    }

    #[test]
    fn deals_are_seeded_and_answered_right() {
        let opts = TableOptions::default();
        let a = deal(&Rook1, Difficulty::Medium, 42, 20, &opts).unwrap();
        assert_eq!(a, deal(&Rook1, Difficulty::Medium, 42, 20, &opts).unwrap());
        assert_ne!(a, deal(&Rook1, Difficulty::Medium, 43, 20, &opts).unwrap());
        let mut s = Solver::new(&Rook1);
        let mut saw_p = false;
        for c in &a {
            assert!(c.position.iter().all(|&v| v < 12));
            let g = s.grundy(&c.position).unwrap();
            assert_eq!(c.grundy, g);
            assert_eq!(c.outcome == Outcome::P, g == 0);
            saw_p |= g == 0;
            if c.question == Question::WinningMove {
                assert!(g != 0 && !c.winning_moves.is_empty());
            }
            for m in &c.winning_moves {
                assert_eq!(s.grundy(m).unwrap(), 0);
                assert!(is_winning_move(&Rook1, &c.position, m));
            }
        }
        assert!(saw_p, "about half of the P-or-N questions are P-positions");
        assert!(deal(&Sub134, Difficulty::Easy, 1, 0, &opts).is_err());
        assert!(deal(&Sub134, Difficulty::Easy, 1, 1000, &opts).is_err());
        // Six heaps of Nim-like rook moves: the box shrinks to at most MAX_DEAL_CELLS.
        struct Rook6;
        impl Game for Rook6 {
            fn spec(&self) -> String {
                "rook6".into()
            }
            fn dimension(&self) -> usize {
                6
            }
            fn for_each_option(&self, p: &[Coord], visit: &mut dyn FnMut(&[Coord])) {
                let mut q = p.to_vec();
                for i in 0..6 {
                    for u in 0..p[i] {
                        q[i] = u;
                        visit(&q);
                    }
                    q[i] = p[i];
                }
            }
        }
        let six = deal(&Rook6, Difficulty::Hard, 3, 4, &opts).unwrap();
        let side = six
            .iter()
            .flat_map(|c| c.position.iter())
            .max()
            .copied()
            .unwrap();
        // 7^6 > 2^16 ≥ 6^6: coordinates below 6, not the hard 24.
        assert!(side <= 5, "{side}");
        let one = deal(&Sub134, Difficulty::Easy, 1, 5, &opts).unwrap();
        assert!(one.iter().all(|c| c.position[0] >= 1 && c.position[0] < 6));
    }
}
