//! Game transforms that work on any game: misère play, one pass per game, and the
//! disjunctive sum.

use crate::capability::{Capabilities, Decomposition};
use crate::error::{Error, Result};
use crate::game::{default_coordinate_names, Coord, Game};

/// Misère play of `G`: the player who makes the last move loses. Positions and moves
/// are `G`'s; values follow the misère recursion (terminal positions have value 1).
///
/// ```
/// use nimlab_engine::{Game, Coord, Solver};
/// use nimlab_engine::transform::Misere;
/// struct Heap;
/// impl Game for Heap {
///     fn spec(&self) -> String { "heap".into() }
///     fn dimension(&self) -> usize { 1 }
///     fn for_each_option(&self, p: &[Coord], visit: &mut dyn FnMut(&[Coord])) {
///         for u in 0..p[0] { visit(&[u]); }
///     }
/// }
/// let g = Misere::new(Box::new(Heap));
/// // One heap of one stone: the mover must take it and lose.
/// assert_eq!(Solver::new(&g).grundy(&[1]).unwrap(), 0);
/// ```
pub struct Misere {
    inner: Box<dyn Game>,
}

impl Misere {
    /// Misère play of `inner`.
    pub fn new(inner: Box<dyn Game>) -> Self {
        Misere { inner }
    }
}

impl Game for Misere {
    fn spec(&self) -> String {
        format!("misere({})", self.inner.spec())
    }
    fn dimension(&self) -> usize {
        self.inner.dimension()
    }
    fn accepts_dimension(&self, m: usize) -> bool {
        self.inner.accepts_dimension(m)
    }
    fn for_each_option(&self, pos: &[Coord], visit: &mut dyn FnMut(&[Coord])) {
        self.inner.for_each_option(pos, visit)
    }
    fn position_error(&self, pos: &[Coord]) -> Option<String> {
        self.inner.position_error(pos)
    }
    fn rank(&self, pos: &[Coord]) -> u128 {
        self.inner.rank(pos)
    }
    fn is_downward_closed(&self) -> bool {
        self.inner.is_downward_closed()
    }
    fn terminal_value(&self) -> u32 {
        1
    }
    fn capabilities(&self) -> Capabilities<'_> {
        // A closed form of the misère game itself carries over (Bouton's misère rule
        // for Nim), and so do line moves: the line kernel takes the value of (0, 0),
        // the only terminal position of a line game, as a parameter. Normal-play
        // closed forms, sequence kernels and decompositions do not.
        let inner = self.inner.capabilities();
        Capabilities {
            big: inner.misere_big,
            line_moves: inner.line_moves,
            ..Capabilities::none()
        }
    }
    fn keeps_dimension(&self) -> bool {
        self.inner.keeps_dimension()
    }
    fn max_options(&self, pos: &[Coord]) -> Option<u128> {
        self.inner.max_options(pos)
    }
    fn coordinate_names(&self) -> Vec<String> {
        self.inner.coordinate_names()
    }
    fn table_box(&self, size: usize) -> Vec<usize> {
        self.inner.table_box(size)
    }
}

/// `G` with one pass per game: a position is `G`'s position plus a last coordinate,
/// 1 while the pass is still available and 0 once it is used. Whoever passes first uses
/// it up for both players. A pass is not allowed at a terminal position of `G`, so
/// every play still ends.
///
/// ```
/// use nimlab_engine::{Game, Coord, Solver};
/// use nimlab_engine::transform::Pass;
/// struct Heap;
/// impl Game for Heap {
///     fn spec(&self) -> String { "heap".into() }
///     fn dimension(&self) -> usize { 1 }
///     fn for_each_option(&self, p: &[Coord], visit: &mut dyn FnMut(&[Coord])) {
///         for u in 0..p[0] { visit(&[u]); }
///     }
/// }
/// let g = Pass::new(Box::new(Heap));
/// let mut s = Solver::new(&g);
/// assert_eq!(s.grundy(&[0, 1]).unwrap(), 0); // no pass at a terminal position
/// assert_eq!(s.grundy(&[1, 1]).unwrap(), 2); // options: (0,1)=0 and the pass (1,0)=1
/// ```
pub struct Pass {
    inner: Box<dyn Game>,
}

impl Pass {
    /// `inner` with one pass.
    pub fn new(inner: Box<dyn Game>) -> Self {
        Pass { inner }
    }

    fn has_option(&self, pos: &[Coord]) -> bool {
        let mut any = false;
        self.inner.for_each_option(pos, &mut |_| any = true);
        any
    }
}

impl Game for Pass {
    fn spec(&self) -> String {
        format!("pass({})", self.inner.spec())
    }
    fn dimension(&self) -> usize {
        self.inner.dimension() + 1
    }
    fn accepts_dimension(&self, m: usize) -> bool {
        m >= 1 && self.inner.accepts_dimension(m - 1)
    }
    fn for_each_option(&self, pos: &[Coord], visit: &mut dyn FnMut(&[Coord])) {
        let (inner, flag) = pos.split_at(pos.len() - 1);
        // The inner option may have another number of coordinates (a heap that splits
        // or vanishes): the flag always goes last.
        let mut next: Vec<Coord> = Vec::with_capacity(pos.len() + 2);
        self.inner.for_each_option(inner, &mut |o| {
            next.clear();
            next.extend_from_slice(o);
            next.push(flag[0]);
            visit(&next);
        });
        if flag[0] == 1 && self.has_option(inner) {
            next.clear();
            next.extend_from_slice(inner);
            next.push(0);
            visit(&next);
        }
    }
    fn position_error(&self, pos: &[Coord]) -> Option<String> {
        let (inner, flag) = pos.split_at(pos.len() - 1);
        if flag[0] > 1 {
            return Some(format!(
                "the last coordinate says whether the pass is still available: 0 or 1, got {}",
                flag[0]
            ));
        }
        self.inner.position_error(inner)
    }
    fn rank(&self, pos: &[Coord]) -> u128 {
        let (inner, flag) = pos.split_at(pos.len() - 1);
        self.inner.rank(inner) * 2 + flag[0] as u128
    }
    fn is_downward_closed(&self) -> bool {
        self.inner.is_downward_closed()
    }
    fn terminal_value(&self) -> u32 {
        self.inner.terminal_value()
    }
    fn coordinate_names(&self) -> Vec<String> {
        let mut names = self.inner.coordinate_names();
        names.push("pass".into());
        names
    }
    fn table_box(&self, size: usize) -> Vec<usize> {
        let mut dims = self.inner.table_box(size);
        dims.push(2);
        dims
    }
    fn capabilities(&self) -> Capabilities<'_> {
        // A pass couples the whole position: none of the inner game's abilities holds.
        Capabilities::none()
    }
    fn keeps_dimension(&self) -> bool {
        self.inner.keeps_dimension()
    }
    fn max_options(&self, pos: &[Coord]) -> Option<u128> {
        self.inner
            .max_options(&pos[..pos.len() - 1])
            .map(|n| n.saturating_add(1))
    }
}

/// Most coordinates a sum's positions may have.
pub const MAX_SUM_DIMENSION: usize = 4096;

/// The disjunctive sum G₁ + G₂ + …: a move is a move in exactly one part. A position is
/// the parts' positions written one after another.
///
/// ```
/// use nimlab_engine::{Game, Coord, Solver};
/// use nimlab_engine::transform::Sum;
/// struct Heap;
/// impl Game for Heap {
///     fn spec(&self) -> String { "heap".into() }
///     fn dimension(&self) -> usize { 1 }
///     fn for_each_option(&self, p: &[Coord], visit: &mut dyn FnMut(&[Coord])) {
///         for u in 0..p[0] { visit(&[u]); }
///     }
/// }
/// let g = Sum::new(vec![Box::new(Heap), Box::new(Heap)]).unwrap();
/// assert_eq!(Solver::new(&g).grundy(&[5, 3]).unwrap(), 5 ^ 3);
/// ```
pub struct Sum {
    parts: Vec<Box<dyn Game>>,
    offsets: Vec<usize>,
}

impl Sum {
    /// The sum of `parts` (at least one; all in normal play).
    pub fn new(parts: Vec<Box<dyn Game>>) -> Result<Self> {
        if parts.is_empty() {
            return Err(Error::input("sum needs at least one game"));
        }
        if let Some(p) = parts
            .iter()
            .find(|p| !p.keeps_dimension())
            .filter(|_| parts.len() > 1)
        {
            return Err(Error::input(format!(
                "sum: {} is a take-and-break game, whose positions change their number of \
                 heaps; a sum cannot place them yet (give several heaps to {} itself: \
                 its positions are already sums of heaps)",
                p.spec(),
                p.spec()
            )));
        }
        if let Some(p) = parts.iter().find(|p| p.terminal_value() != 0) {
            return Err(Error::input(format!(
                "sum: {} is in misère play; misère applies to the whole sum (write misere(sum(…)))",
                p.spec()
            )));
        }
        let mut offsets = vec![0];
        for p in &parts {
            let end = offsets
                .last()
                .and_then(|o: &usize| o.checked_add(p.dimension()))
                .filter(|&d| d <= MAX_SUM_DIMENSION)
                .ok_or_else(|| {
                    Error::input(format!(
                        "sum: the parts have more than {MAX_SUM_DIMENSION} coordinates in all"
                    ))
                })?;
            offsets.push(end);
        }
        Ok(Sum { parts, offsets })
    }

    fn part<'a>(&self, i: usize, pos: &'a [Coord]) -> &'a [Coord] {
        &pos[self.offsets[i]..self.offsets[i + 1]]
    }
}

impl Game for Sum {
    fn spec(&self) -> String {
        let parts: Vec<String> = self.parts.iter().map(|p| p.spec()).collect();
        format!("sum({})", parts.join(","))
    }
    fn dimension(&self) -> usize {
        *self.offsets.last().unwrap()
    }
    fn for_each_option(&self, pos: &[Coord], visit: &mut dyn FnMut(&[Coord])) {
        let mut next = pos.to_vec();
        for (i, g) in self.parts.iter().enumerate() {
            let (start, end) = (self.offsets[i], self.offsets[i + 1]);
            g.for_each_option(self.part(i, pos), &mut |o| {
                next[start..end].copy_from_slice(o);
                visit(&next);
            });
            next[start..end].copy_from_slice(&pos[start..end]);
        }
    }
    fn position_error(&self, pos: &[Coord]) -> Option<String> {
        self.parts.iter().enumerate().find_map(|(i, g)| {
            g.position_error(self.part(i, pos))
                .map(|e| format!("part {} ({}): {e}", i + 1, g.spec()))
        })
    }
    fn rank(&self, pos: &[Coord]) -> u128 {
        self.parts
            .iter()
            .enumerate()
            .map(|(i, g)| g.rank(self.part(i, pos)))
            .sum()
    }
    fn is_downward_closed(&self) -> bool {
        self.parts.iter().all(|p| p.is_downward_closed())
    }
    fn coordinate_names(&self) -> Vec<String> {
        default_coordinate_names(self.dimension())
    }
    fn table_box(&self, size: usize) -> Vec<usize> {
        self.parts.iter().flat_map(|p| p.table_box(size)).collect()
    }
    fn capabilities(&self) -> Capabilities<'_> {
        Capabilities {
            decomposition: Some(Decomposition::Parts(
                self.parts
                    .iter()
                    .enumerate()
                    .map(|(i, g)| (&**g as &dyn Game, self.offsets[i]..self.offsets[i + 1]))
                    .collect(),
            )),
            ..Capabilities::none()
        }
    }
    fn max_options(&self, pos: &[Coord]) -> Option<u128> {
        self.parts
            .iter()
            .enumerate()
            .try_fold(0u128, |acc, (i, g)| {
                g.max_options(self.part(i, pos))
                    .map(|n| acc.saturating_add(n))
            })
    }
}
