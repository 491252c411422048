//! Toy games for the engine's unit tests, in one place, and a plain mex to check every
//! answer against. The planner's toys each offer the one capability that should steer
//! a query to one route; the plain ones (no capability) serve the solver, play,
//! n-player and classroom tests. A toy is shared only where it is the same game: two
//! toys with the same moves but other capabilities stay apart, since the capability
//! decides the route a test exercises.

use crate::big::{BigAnalysis, BigPosition, BigUint};
use crate::capability::{BigPositions, Capabilities, SequenceKernel};
use crate::error::Result;
use crate::game::{Coord, Game, Outcome, Position};
use crate::kernels::line::LineMoves;
use crate::memory::MemoryLimit;
use crate::periodicity::{find_arithmetic_period, Periodicity};
use crate::progress::Progress;
use std::collections::HashMap;

/// The Grundy value of `p` by the definition: the mex of the options' values,
/// memoized in `memo`. Written here, apart from every engine method it checks.
pub fn mex_value(game: &dyn Game, p: &[Coord], memo: &mut HashMap<Position, u32>) -> u32 {
    if let Some(&g) = memo.get(p) {
        return g;
    }
    let mut options = Vec::new();
    game.for_each_option(p, &mut |o| options.push(o.to_vec()));
    let seen: Vec<u32> = options.iter().map(|o| mex_value(game, o, memo)).collect();
    let g = (0..).find(|v| !seen.contains(v)).expect("a mex exists");
    memo.insert(p.to_vec(), g);
    g
}

/// The [`Game`] methods every toy states alike: its spec and dimension, and, with
/// `downward`, that its moves lower a coordinate (without it, the default: not said).
macro_rules! toy_basics {
    ($spec:literal, $dimension:literal) => {
        fn spec(&self) -> String {
            $spec.into()
        }
        fn dimension(&self) -> usize {
            $dimension
        }
    };
    ($spec:literal, $dimension:literal, downward) => {
        toy_basics!($spec, $dimension);
        fn is_downward_closed(&self) -> bool {
            true
        }
    };
}

/// The options of a one-heap game whose moves take any of `takes` from the heap.
fn take_from_heap(
    p: &[Coord],
    takes: impl IntoIterator<Item = Coord>,
    visit: &mut dyn FnMut(&[Coord]),
) {
    for t in takes {
        if p[0] >= t {
            visit(&[p[0] - t]);
        }
    }
}

/// The rook's options on two heaps: lower the first, then the second, by any amount.
fn rook_moves(p: &[Coord], visit: &mut dyn FnMut(&[Coord])) {
    for u in 0..p[0] {
        visit(&[u, p[1]]);
    }
    for v in 0..p[1] {
        visit(&[p[0], v]);
    }
}

/// The rook's options, then one step down both heaps when both are non-empty.
fn rook_and_diagonal_step(p: &[Coord], visit: &mut dyn FnMut(&[Coord])) {
    rook_moves(p, visit);
    if p[0] > 0 && p[1] > 0 {
        visit(&[p[0] - 1, p[1] - 1]);
    }
}

/// The subtraction game S = {1, 3, 4} on one heap (period 7: 0 1 0 1 2 3 2), with a
/// sequence kernel that computes the same values by its own loop; `proves` makes its
/// kernel claim a proof of the period it sees.
pub struct Subtraction {
    /// Whether the kernel offers a proof of periodicity.
    pub proves: bool,
}

const SUBTRACTION_SET: [Coord; 3] = [1, 3, 4];

impl Game for Subtraction {
    toy_basics!("toy-subtraction(1,3,4)", 1, downward);
    fn for_each_option(&self, p: &[Coord], visit: &mut dyn FnMut(&[Coord])) {
        take_from_heap(p, SUBTRACTION_SET, visit);
    }
    fn capabilities(&self) -> Capabilities<'_> {
        Capabilities {
            sequence: Some(self),
            ..Capabilities::none()
        }
    }
}

impl SequenceKernel for Subtraction {
    fn sequence(&self, len: usize, limit: MemoryLimit) -> Result<Vec<u32>> {
        limit.check("the toy sequence", len as u64 * 4)?;
        let mut v: Vec<u32> = Vec::with_capacity(len);
        for n in 0..len {
            let seen: Vec<u32> = SUBTRACTION_SET
                .iter()
                .filter(|&&s| s as usize <= n)
                .map(|&s| v[n - s as usize])
                .collect();
            v.push((0..).find(|g| !seen.contains(g)).expect("a mex exists"));
        }
        Ok(v)
    }
    fn certified_periodicity(
        &self,
        max_n: u64,
        _progress: &dyn Progress,
    ) -> Option<Result<Option<Periodicity>>> {
        if !self.proves {
            return None;
        }
        let len = max_n.min(1000) as usize;
        Some(
            self.sequence(len, MemoryLimit::default())
                .map(|v| find_arithmetic_period(&v, len / 3, 2)),
        )
    }
    fn sequence_method(&self) -> String {
        "the toy's own loop".into()
    }
}

/// Wythoff's game on two heaps: the line kernel's rook lines and diagonal.
pub struct Wythoff;

impl Game for Wythoff {
    toy_basics!("toy-wythoff", 2, downward);
    fn for_each_option(&self, p: &[Coord], visit: &mut dyn FnMut(&[Coord])) {
        rook_moves(p, visit);
        for s in 1..=p[0].min(p[1]) {
            visit(&[p[0] - s, p[1] - s]);
        }
    }
    fn capabilities(&self) -> Capabilities<'_> {
        Capabilities {
            line_moves: Some(LineMoves {
                diagonal_band: 1,
                steps: Vec::new(),
            }),
            ..Capabilities::none()
        }
    }
}

/// One heap, take any positive number: G(n) = n, known in closed form at any size.
pub struct Heap;

impl Game for Heap {
    toy_basics!("toy-heap", 1, downward);
    fn for_each_option(&self, p: &[Coord], visit: &mut dyn FnMut(&[Coord])) {
        for u in 0..p[0] {
            visit(&[u]);
        }
    }
    fn capabilities(&self) -> Capabilities<'_> {
        Capabilities {
            big: Some(self),
            ..Capabilities::none()
        }
    }
}

impl BigPositions for Heap {
    fn analyse_big(&self, pos: &[BigUint]) -> Option<Result<BigAnalysis>> {
        let n = pos[0].clone();
        let zero = n == BigUint::default();
        Some(Ok(BigAnalysis {
            position: pos.to_vec(),
            grundy: Some(n),
            outcome: if zero { Outcome::P } else { Outcome::N },
            winning_moves: if zero {
                Vec::new()
            } else {
                vec![vec![BigUint::default()]]
            },
            all_winning_moves: true,
            method: "G(n) = n".into(),
        }))
    }
    fn grundy_small(&self, pos: &[Coord]) -> Option<u32> {
        u32::try_from(pos[0]).ok()
    }
}

/// One heap, take 1 or 2, with a strategy for any size (P iff 3 divides the heap) but
/// no value. `downward`: whether the game says its moves lower the heap (when not,
/// the memoized search cannot estimate its work and the strategy answers).
pub struct TakeOneTwo {
    /// What `is_downward_closed` answers.
    pub downward: bool,
}

impl Game for TakeOneTwo {
    toy_basics!("toy-take12", 1);
    fn is_downward_closed(&self) -> bool {
        self.downward
    }
    fn for_each_option(&self, p: &[Coord], visit: &mut dyn FnMut(&[Coord])) {
        take_from_heap(p, 1..=2, visit);
    }
    fn capabilities(&self) -> Capabilities<'_> {
        Capabilities {
            big: Some(self),
            ..Capabilities::none()
        }
    }
}

impl BigPositions for TakeOneTwo {
    fn analyse_big(&self, pos: &[BigUint]) -> Option<Result<BigAnalysis>> {
        let rest = &pos[0] % BigUint::from(3u32);
        let p = rest == BigUint::default();
        let winning: Vec<BigPosition> = if p {
            Vec::new()
        } else {
            vec![vec![&pos[0] - &rest]]
        };
        Some(Ok(BigAnalysis {
            position: pos.to_vec(),
            grundy: None,
            outcome: if p { Outcome::P } else { Outcome::N },
            winning_moves: winning,
            all_winning_moves: true,
            method: "leave a multiple of 3".into(),
        }))
    }
}

/// Two heaps, a move takes from the first or moves one counter from the first heap to
/// the second: no capability, no line kernel (the second coordinate may rise), so the
/// generic routes answer.
pub struct Plain;

impl Game for Plain {
    toy_basics!("toy-plain", 2);
    fn rank(&self, p: &[Coord]) -> u128 {
        // Every move lowers 2x + y (moving a counter across lowers it by one).
        2 * p[0] as u128 + p[1] as u128
    }
    fn for_each_option(&self, p: &[Coord], visit: &mut dyn FnMut(&[Coord])) {
        for u in 0..p[0] {
            visit(&[u, p[1]]);
        }
        if p[0] > 0 && p[1] > 0 {
            visit(&[p[0] - 1, p[1] + 1]);
            visit(&[p[0], p[1] - 1]);
        }
    }
}

/// A two-heap game whose moves lower a coordinate (a rook that may also step one
/// square diagonally), without a kernel: brute force over boxes.
pub struct King;

impl Game for King {
    toy_basics!("toy-king", 2, downward);
    fn for_each_option(&self, p: &[Coord], visit: &mut dyn FnMut(&[Coord])) {
        rook_and_diagonal_step(p, visit);
    }
}

/// The sum of the subtraction game and Wythoff's game: components.
pub fn sum() -> crate::transform::Sum {
    crate::transform::Sum::new(vec![
        Box::new(Subtraction { proves: false }),
        Box::new(Wythoff),
    ])
    .expect("a sum of two normal-play games")
}

/// `game` played by three players under the normal ranking: class routes.
pub fn three_players(game: Box<dyn Game>) -> crate::nplayer::NPlayerGame {
    crate::nplayer::NPlayerGame::new(
        game,
        crate::nplayer::Ranking::normal(3).expect("three players"),
    )
}

/// Two-heap Nim: take any number from one heap.
pub struct Nim2;

impl Game for Nim2 {
    toy_basics!("nim2", 2, downward);
    fn for_each_option(&self, p: &[Coord], visit: &mut dyn FnMut(&[Coord])) {
        rook_moves(p, visit);
    }
}

/// One heap, take one or two, with no capability (unlike [`TakeOneTwo`]): every
/// answer comes from the search.
pub struct Take12;

impl Game for Take12 {
    toy_basics!("take12", 1);
    fn for_each_option(&self, p: &[Coord], visit: &mut dyn FnMut(&[Coord])) {
        take_from_heap(p, 1..=2, visit);
    }
}

/// One heap, take exactly one: a chain of forced moves, as deep as the heap.
pub struct Chain;

impl Game for Chain {
    toy_basics!("chain", 1);
    fn for_each_option(&self, p: &[Coord], visit: &mut dyn FnMut(&[Coord])) {
        if p[0] > 0 {
            visit(&[p[0] - 1]);
        }
    }
}

/// A broken game whose move does not lower the rank: it never ends.
pub struct Loop;

impl Game for Loop {
    toy_basics!("loop", 1);
    fn for_each_option(&self, p: &[Coord], visit: &mut dyn FnMut(&[Coord])) {
        visit(&[p[0] + 1]);
    }
}

/// Subtraction {1,3,4} with no capability (unlike [`Subtraction`]): a one-heap game
/// with an irregular start.
pub struct Sub134;

impl Game for Sub134 {
    toy_basics!("sub134", 1);
    fn for_each_option(&self, p: &[Coord], visit: &mut dyn FnMut(&[Coord])) {
        take_from_heap(p, SUBTRACTION_SET, visit);
    }
}

/// Two heaps, rook moves and one diagonal step, not declared downward closed (unlike
/// [`King`]).
pub struct Rook1;

impl Game for Rook1 {
    toy_basics!("rook1", 2);
    fn for_each_option(&self, p: &[Coord], visit: &mut dyn FnMut(&[Coord])) {
        rook_and_diagonal_step(p, visit);
    }
}
