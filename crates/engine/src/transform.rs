//! Game transforms that work on any game: misère play, one pass per game, and the
//! disjunctive sum.

use crate::big::{BigPosition, BigUint};
use crate::capability::{Capabilities, Components, Decomposition};
use crate::error::{Error, Result};
use crate::game::{default_coordinate_names, Coord, Game, Position};
use crate::position::{PositionForm, Shown, Written};
use num_traits::ToPrimitive;
use std::ops::Range;

/// A game made from one other game by changing some of its rules: misère play, a
/// pass, n players.
///
/// Every [`Game`] method has a hook here whose default is the inner game's, and
/// [`Game`] is implemented once, for every transform, by calling the hooks: a
/// transform restates only what it changes, and a `Game` method cannot be dropped on
/// the way (the test `every_game_method_is_forwarded` compares the two lists). What a
/// transform must decide itself has no default: its name, and what its values can
/// still do ([`Game::capabilities`]); a move's explanation is dropped unless the
/// transform keeps it, since the inner game's words are about the inner game's values.
///
/// ```
/// use nimlab_engine::transform::Transform;
/// use nimlab_engine::capability::Capabilities;
/// use nimlab_engine::{Coord, Game};
/// struct Heap;
/// impl Game for Heap {
///     fn spec(&self) -> String { "heap".into() }
///     fn dimension(&self) -> usize { 1 }
///     fn for_each_option(&self, p: &[Coord], visit: &mut dyn FnMut(&[Coord])) {
///         for u in 0..p[0] { visit(&[u]); }
///     }
/// }
/// /// The same moves, values unknown to any closed form.
/// struct Plain(Heap);
/// impl Transform for Plain {
///     fn inner(&self) -> &dyn Game { &self.0 }
///     fn spec(&self) -> String { format!("plain({})", self.0.spec()) }
///     fn capabilities(&self) -> Capabilities<'_> { Capabilities::none() }
/// }
/// let g = Plain(Heap);
/// assert_eq!(Game::spec(&g), "plain(heap)");
/// assert_eq!(g.options(&[2]), vec![vec![0], vec![1]]); // moves forwarded
/// ```
pub trait Transform: Send + Sync {
    /// The game transformed.
    fn inner(&self) -> &dyn Game;
    /// [`Game::spec`].
    fn spec(&self) -> String;
    /// [`Game::capabilities`]: what carries over from the inner game.
    fn capabilities(&self) -> Capabilities<'_>;
    /// [`Game::explain_move`]; default: no words of its own.
    fn explain_move(&self, _from: &[BigUint], _to: &[BigUint]) -> Option<String> {
        None
    }
    /// [`Game::dimension`].
    fn dimension(&self) -> usize {
        self.inner().dimension()
    }
    /// [`Game::form`].
    fn form(&self) -> PositionForm {
        self.inner().form()
    }
    /// [`Game::for_each_option`].
    fn for_each_option(&self, pos: &[Coord], visit: &mut dyn FnMut(&[Coord])) {
        self.inner().for_each_option(pos, visit)
    }
    /// [`Game::position_error`].
    fn position_error(&self, pos: &[Coord]) -> Option<String> {
        self.inner().position_error(pos)
    }
    /// [`Game::rank`].
    fn rank(&self, pos: &[Coord]) -> u128 {
        self.inner().rank(pos)
    }
    /// [`Game::is_downward_closed`].
    fn is_downward_closed(&self) -> bool {
        self.inner().is_downward_closed()
    }
    /// [`Game::terminal_value`].
    fn terminal_value(&self) -> u32 {
        self.inner().terminal_value()
    }
    /// [`Game::coordinate_names`].
    fn coordinate_names(&self) -> Vec<String> {
        self.inner().coordinate_names()
    }
    /// [`Game::table_box`].
    fn table_box(&self, size: usize) -> Vec<usize> {
        self.inner().table_box(size)
    }
    /// [`Game::max_options`].
    fn max_options(&self, pos: &[Coord]) -> Option<u128> {
        self.inner().max_options(pos)
    }
    /// [`Game::canonical`].
    fn canonical(&self, pos: &[Coord]) -> Option<Position> {
        self.inner().canonical(pos)
    }
    /// [`Game::simplified`].
    fn simplified(&self, pos: &[Coord]) -> Option<Position> {
        self.inner().simplified(pos)
    }
    /// [`Game::read_position`].
    fn read_position(&self, text: &str) -> Result<BigPosition> {
        self.inner().read_position(text)
    }
    /// [`Game::show_position`].
    fn show_position(&self, pos: &[BigUint]) -> Shown {
        self.inner().show_position(pos)
    }
    /// [`Game::start_position`].
    fn start_position(&self) -> Option<BigPosition> {
        self.inner().start_position()
    }
}

impl<T: Transform> Game for T {
    fn spec(&self) -> String {
        Transform::spec(self)
    }
    fn dimension(&self) -> usize {
        Transform::dimension(self)
    }
    fn form(&self) -> PositionForm {
        Transform::form(self)
    }
    fn for_each_option(&self, pos: &[Coord], visit: &mut dyn FnMut(&[Coord])) {
        Transform::for_each_option(self, pos, visit)
    }
    fn position_error(&self, pos: &[Coord]) -> Option<String> {
        Transform::position_error(self, pos)
    }
    fn rank(&self, pos: &[Coord]) -> u128 {
        Transform::rank(self, pos)
    }
    fn explain_move(&self, from: &[BigUint], to: &[BigUint]) -> Option<String> {
        Transform::explain_move(self, from, to)
    }
    fn is_downward_closed(&self) -> bool {
        Transform::is_downward_closed(self)
    }
    fn terminal_value(&self) -> u32 {
        Transform::terminal_value(self)
    }
    fn coordinate_names(&self) -> Vec<String> {
        Transform::coordinate_names(self)
    }
    fn table_box(&self, size: usize) -> Vec<usize> {
        Transform::table_box(self, size)
    }
    fn capabilities(&self) -> Capabilities<'_> {
        Transform::capabilities(self)
    }
    fn max_options(&self, pos: &[Coord]) -> Option<u128> {
        Transform::max_options(self, pos)
    }
    fn canonical(&self, pos: &[Coord]) -> Option<Position> {
        Transform::canonical(self, pos)
    }
    fn simplified(&self, pos: &[Coord]) -> Option<Position> {
        Transform::simplified(self, pos)
    }
    fn read_position(&self, text: &str) -> Result<BigPosition> {
        Transform::read_position(self, text)
    }
    fn show_position(&self, pos: &[BigUint]) -> Shown {
        Transform::show_position(self, pos)
    }
    fn start_position(&self) -> Option<BigPosition> {
        Transform::start_position(self)
    }
}

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

impl Transform for Misere {
    fn inner(&self) -> &dyn Game {
        &*self.inner
    }
    fn spec(&self) -> String {
        format!("misere({})", self.inner.spec())
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
            heap_multiset: inner.heap_multiset,
            ..Capabilities::none()
        }
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

impl Transform for Pass {
    fn inner(&self) -> &dyn Game {
        &*self.inner
    }
    fn spec(&self) -> String {
        format!("pass({})", self.inner.spec())
    }
    fn dimension(&self) -> usize {
        self.inner.dimension() + 1
    }
    fn form(&self) -> PositionForm {
        // One more coordinate: the flag goes last.
        let inner = self.inner.form();
        PositionForm {
            coordinates: inner.coordinates.start().saturating_add(1)
                ..=inner.coordinates.end().saturating_add(1),
            ..inner
        }
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
    fn max_options(&self, pos: &[Coord]) -> Option<u128> {
        self.inner
            .max_options(&pos[..pos.len() - 1])
            .map(|n| n.saturating_add(1))
    }
    fn canonical(&self, pos: &[Coord]) -> Option<Position> {
        let (flag, inner) = pos.split_last()?;
        let mut c = self.inner.canonical(inner)?;
        c.push(*flag);
        Some(c)
    }
    fn simplified(&self, pos: &[Coord]) -> Option<Position> {
        let (flag, inner) = pos.split_last()?;
        let mut c = self.inner.simplified(inner)?;
        c.push(*flag);
        Some(c)
    }
    fn read_position(&self, text: &str) -> Result<BigPosition> {
        // The inner game's position (its numbers, its parts, its own form), then `,`
        // and the flag.
        let usage = || {
            Error::input(format!(
                "{}: a position is the inner game's position, then ',' and the pass flag \
                 (0 or 1), e.g. 3,5,1",
                Transform::spec(self)
            ))
        };
        let (inner, flag) = text.rsplit_once(',').ok_or_else(usage)?;
        if flag.contains(';') || inner.trim().is_empty() {
            return Err(usage());
        }
        let flag = crate::big::parse_big_position(flag)?;
        let mut pos = crate::plan::read_position(&*self.inner, inner)?;
        pos.extend(flag);
        Ok(pos)
    }
    fn show_position(&self, pos: &[BigUint]) -> Shown {
        let Some((flag, inner)) = pos.split_last() else {
            return Shown::Numbers(Vec::new());
        };
        match self.inner.show_position(inner) {
            // Numbers: the flag is one more; in groups, the last group's.
            Shown::Numbers(mut n) => {
                n.push(flag.clone());
                Shown::Numbers(n)
            }
            Shown::Groups(mut g) => {
                match g.last_mut() {
                    Some(last) => last.push(flag.clone()),
                    None => g.push(vec![flag.clone()]),
                }
                Shown::Groups(g)
            }
            own => Shown::Flagged(Box::new(own), flag.to_u64().unwrap_or(u64::MAX)),
        }
    }
    fn start_position(&self) -> Option<BigPosition> {
        let mut p = self.inner.start_position()?;
        p.push(BigUint::from(1u8));
        Some(p)
    }
}

/// Why a position of a sum is refused when its part `i` (counted from 0), the game
/// `part`, is given `len` coordinates: every surface that reads a sum's parts says it so.
pub fn part_length_message(i: usize, part: &dyn Game, len: usize) -> String {
    format!(
        "part {} ({}) takes {} coordinates in this sum, got {}",
        i + 1,
        part.spec(),
        part.dimension(),
        len
    )
}

/// Most coordinates a sum's positions may have.
pub const MAX_SUM_DIMENSION: usize = 4096;

/// The disjunctive sum G₁ + G₂ + …: a move is a move in exactly one part. A position is
/// the parts' positions one after the other. When a part's heaps split or vanish (a
/// take-and-break game), its number of coordinates changes from move to move: then
/// every part is stored with its coordinate count first, and people write the parts
/// separated by `;` (`1,2;5`), see [`Written::Groups`].
///
/// ```
/// use nimlab_engine::{Coord, Game, Solver};
/// use nimlab_engine::transform::Sum;
/// struct Heap; // one heap, take any positive number: G(n) = n
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
    /// Each part's [`Game::form`], asked once.
    forms: Vec<PositionForm>,
    /// Where each part lies in a table box, and in every position when `counted` is
    /// false.
    offsets: Vec<usize>,
    /// Whether each part is stored as its coordinate count, then its coordinates.
    counted: bool,
    /// The one part (if exactly one) that takes any number of coordinates (Nim's heaps):
    /// a flat position's length then says how many it has.
    flexible: Option<usize>,
}

impl Sum {
    /// The sum of `parts` (at least one; all in normal play).
    pub fn new(parts: Vec<Box<dyn Game>>) -> Result<Self> {
        if parts.is_empty() {
            return Err(Error::input("sum needs at least one game"));
        }
        if let Some(p) = parts.iter().find(|p| p.terminal_value() != 0) {
            return Err(Error::input(format!(
                "sum: {} is in misère play; misère applies to the whole sum (write misere(sum(…)))",
                p.spec()
            )));
        }
        let forms: Vec<PositionForm> = parts.iter().map(|p| p.form()).collect();
        if let Some(p) = (parts.iter().zip(&forms)).find(|(_, f)| f.written == Written::Groups) {
            let p = p.0;
            return Err(Error::input(format!(
                "sum: {} is itself a sum of take-and-break games; list its parts in the outer sum instead",
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
        let counted = forms.iter().any(|f| !f.kept);
        let mut any_length = (0..parts.len()).filter(|&i| {
            let d = parts[i].dimension();
            forms[i].accepts(d + 1) || (d > 1 && forms[i].accepts(d - 1))
        });
        let flexible = match (any_length.next(), any_length.next()) {
            (Some(j), None) if !counted => Some(j),
            _ => None,
        };
        Ok(Sum {
            parts,
            forms,
            offsets,
            counted,
            flexible,
        })
    }

    /// Where each part lies in a position of `len` coordinates whose `i`-th
    /// coordinate is `count(i)` (read only where a count is stored).
    fn ranges_by(
        &self,
        len: usize,
        count: impl Fn(usize) -> Option<usize>,
    ) -> Option<Vec<Range<usize>>> {
        if !self.counted {
            if len == self.dimension() {
                return Some(self.offsets.windows(2).map(|w| w[0]..w[1]).collect());
            }
            // The flexible part has the coordinates the others leave.
            let j = self.flexible?;
            let fixed = self.dimension() - (self.offsets[j + 1] - self.offsets[j]);
            let k = len.checked_sub(fixed).filter(|&k| k >= 1)?;
            if !self.forms[j].accepts(k) {
                return None;
            }
            let mut at = 0;
            return Some(
                self.parts
                    .iter()
                    .enumerate()
                    .map(|(i, g)| {
                        let n = if i == j { k } else { g.dimension() };
                        at += n;
                        at - n..at
                    })
                    .collect(),
            );
        }
        let mut out = Vec::with_capacity(self.parts.len());
        let mut at = 0usize;
        for f in &self.forms {
            let k = count(at).filter(|&k| k >= 1 && f.accepts(k))?;
            let end = at.checked_add(1 + k).filter(|&e| e <= len)?;
            out.push(at + 1..end);
            at = end;
        }
        (at == len).then_some(out)
    }

    fn ranges(&self, pos: &[Coord]) -> Option<Vec<Range<usize>>> {
        self.ranges_by(pos.len(), |i| {
            pos.get(i).and_then(|&c| usize::try_from(c).ok())
        })
    }

    fn big_ranges(&self, pos: &[BigUint]) -> Option<Vec<Range<usize>>> {
        self.ranges_by(pos.len(), |i| pos.get(i).and_then(|c| c.to_usize()))
    }

    /// `pos` with `f` applied to each part's position (`None`: nothing changed).
    fn per_part(
        &self,
        pos: &[Coord],
        f: impl Fn(&dyn Game, &[Coord]) -> Option<Position>,
    ) -> Option<Position> {
        if !self.counted {
            return None; // fixed slots: every part keeps its coordinates as written
        }
        let ranges = self.ranges(pos)?;
        let mut changed = false;
        let parts: Vec<Position> = self
            .parts
            .iter()
            .zip(&ranges)
            .map(|(g, r)| match f(&**g, &pos[r.clone()]) {
                Some(c) => {
                    changed = true;
                    c
                }
                None => pos[r.clone()].to_vec(),
            })
            .collect();
        changed.then(|| self.join_parts(&parts.iter().map(|p| &p[..]).collect::<Vec<_>>()))
    }

    /// Joins the parts' positions in this sum's layout.
    fn join_parts<T: Clone + From<u64>>(&self, parts: &[&[T]]) -> Vec<T> {
        let mut out = Vec::new();
        for p in parts {
            if self.counted {
                out.push(T::from(p.len() as u64));
            }
            out.extend_from_slice(p);
        }
        out
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
    fn form(&self) -> PositionForm {
        let own = self.forms.iter().any(|f| f.written == Written::Own);
        let written = if own {
            Written::Own
        } else if self.counted {
            Written::Groups
        } else {
            Written::Numbers
        };
        let dimension = self.dimension();
        let coordinates = if self.counted {
            // Each part: its count, then at least one coordinate.
            2 * self.parts.len()..=usize::MAX
        } else if let Some(j) = self.flexible {
            // The flexible part takes what the others leave.
            let fixed = dimension - (self.offsets[j + 1] - self.offsets[j]);
            let f = &self.forms[j].coordinates;
            (fixed + (*f.start()).max(1)).min(dimension)
                ..=fixed.saturating_add(*f.end()).max(dimension)
        } else {
            dimension..=dimension
        };
        PositionForm {
            written,
            coordinates,
            kept: !self.counted,
        }
    }
    fn for_each_option(&self, pos: &[Coord], visit: &mut dyn FnMut(&[Coord])) {
        let Some(ranges) = self.ranges(pos) else {
            return; // not a position of the sum (position_error says why)
        };
        let mut next: Vec<Coord> = Vec::with_capacity(pos.len() + 4);
        for (g, r) in self.parts.iter().zip(&ranges) {
            let before = if self.counted { r.start - 1 } else { r.start };
            g.for_each_option(&pos[r.clone()], &mut |o| {
                next.clear();
                next.extend_from_slice(&pos[..before]);
                if self.counted {
                    next.push(o.len() as Coord);
                }
                next.extend_from_slice(o);
                next.extend_from_slice(&pos[r.end..]);
                visit(&next);
            });
        }
    }
    fn position_error(&self, pos: &[Coord]) -> Option<String> {
        let Some(ranges) = self.ranges(pos) else {
            return Some(format!(
                "not laid out as {} parts, each its coordinate count then its coordinates",
                self.parts.len()
            ));
        };
        self.parts
            .iter()
            .zip(&ranges)
            .enumerate()
            .find_map(|(i, (g, r))| {
                g.position_error(&pos[r.clone()])
                    .map(|e| format!("part {} ({}): {e}", i + 1, g.spec()))
            })
    }
    fn rank(&self, pos: &[Coord]) -> u128 {
        match self.ranges(pos) {
            Some(ranges) => self
                .parts
                .iter()
                .zip(ranges)
                .map(|(g, r)| g.rank(&pos[r]))
                .sum(),
            None => pos.iter().map(|&c| c as u128).sum(),
        }
    }
    fn is_downward_closed(&self) -> bool {
        !self.counted && self.parts.iter().all(|p| p.is_downward_closed())
    }
    fn coordinate_names(&self) -> Vec<String> {
        default_coordinate_names(self.dimension())
    }
    fn table_box(&self, size: usize) -> Vec<usize> {
        self.parts.iter().flat_map(|p| p.table_box(size)).collect()
    }
    fn capabilities(&self) -> Capabilities<'_> {
        Capabilities {
            decomposition: Some(Decomposition::Parts(self)),
            ..Capabilities::none()
        }
    }
    fn max_options(&self, pos: &[Coord]) -> Option<u128> {
        let ranges = self.ranges(pos)?;
        self.parts
            .iter()
            .zip(ranges)
            .try_fold(0u128, |acc, (g, r)| {
                g.max_options(&pos[r]).map(|n| acc.saturating_add(n))
            })
    }
    fn canonical(&self, pos: &[Coord]) -> Option<Position> {
        self.per_part(pos, |g, p| g.canonical(p))
    }
    fn simplified(&self, pos: &[Coord]) -> Option<Position> {
        self.per_part(pos, |g, p| g.simplified(p))
    }
    fn read_position(&self, text: &str) -> Result<BigPosition> {
        if self.form().writes_numbers() {
            return self.place_groups(crate::position::read_groups(text)?);
        }
        // A part written in its own form: one position per part, separated by `;`.
        let texts: Vec<&str> = text.split(';').collect();
        if texts.len() != self.parts.len() {
            return Err(Error::input(format!(
                "{} has {} parts: write one position per part separated by ';'",
                self.spec(),
                self.parts.len()
            )));
        }
        let mut read = Vec::with_capacity(texts.len());
        for (i, (g, t)) in self.parts.iter().zip(texts).enumerate() {
            let p = crate::plan::read_position(&**g, t)
                .map_err(|e| Error::input(format!("part {} ({}): {e}", i + 1, g.spec())))?;
            let fits = if self.flexible == Some(i) {
                self.forms[i].accepts(p.len())
            } else {
                p.len() == g.dimension()
            };
            if !fits {
                return Err(Error::input(part_length_message(i, &**g, p.len())));
            }
            read.push(p);
        }
        Ok(self.join_parts(&read.iter().map(|p| &p[..]).collect::<Vec<_>>()))
    }
    fn show_position(&self, pos: &[BigUint]) -> Shown {
        if !self.form().writes_numbers()
            && let Some(ranges) = self.big_ranges(pos)
        {
            return Shown::Parts(
                self.parts
                    .iter()
                    .zip(ranges)
                    .map(|(g, r)| g.show_position(&pos[r]))
                    .collect(),
            );
        }
        match (self.counted, self.big_ranges(pos)) {
            (true, Some(ranges)) => Shown::of_groups(
                &ranges
                    .into_iter()
                    .map(|r| pos[r].to_vec())
                    .collect::<Vec<_>>(),
            ),
            _ => Shown::Numbers(pos.to_vec()),
        }
    }
    fn start_position(&self) -> Option<BigPosition> {
        let starts = self
            .parts
            .iter()
            .map(|g| g.start_position())
            .collect::<Option<Vec<_>>>()?;
        Some(self.join_parts(&starts.iter().map(|p| &p[..]).collect::<Vec<_>>()))
    }
}

impl Sum {
    /// Places the numbers people wrote, one group per part separated by `;` or one flat
    /// list, in this sum's layout.
    fn place_groups(&self, groups: Vec<BigPosition>) -> Result<BigPosition> {
        let n = self.parts.len();
        let per_part: Vec<BigPosition> = if groups.len() == n {
            groups
        } else if let (1, Some(ranges)) = (
            groups.len(),
            if groups[0].len() == self.dimension() {
                Some(self.offsets.windows(2).map(|w| w[0]..w[1]).collect())
            } else if self.counted {
                None
            } else {
                self.ranges_by(groups[0].len(), |_| None)
            },
        ) {
            // One flat list: each part takes its usual number of coordinates (the one
            // part of any length takes the rest).
            ranges.into_iter().map(|r| groups[0][r].to_vec()).collect()
        } else {
            return Err(Error::input(format!(
                "{} has {n} parts: write one position per part separated by ';' (e.g. {}), \
                 or {} coordinates in one list",
                self.spec(),
                vec!["1"; n].join(";"),
                self.dimension()
            )));
        };
        let mut read = Vec::with_capacity(n);
        for (i, ((g, form), p)) in self.parts.iter().zip(&self.forms).zip(per_part).enumerate() {
            let fixed = !self.counted && self.flexible != Some(i);
            if fixed && p.len() != g.dimension() && form.accepts(p.len()) {
                // Two parts of any length: a flat position could not say where one ends.
                return Err(Error::input(format!(
                    "part {} ({}) is written with {} coordinate{} in this sum ({}), got {}: \
                     where two parts take any number, each part's parameters fix it \
                     (e.g. heaps={})",
                    i + 1,
                    g.spec(),
                    g.dimension(),
                    if g.dimension() == 1 { "" } else { "s" },
                    g.coordinate_names().join(","),
                    p.len(),
                    p.len()
                )));
            }
            if !form.accepts(p.len()) {
                return Err(Error::input(format!(
                    "part {} ({}) takes {} coordinate{}, got {}",
                    i + 1,
                    g.spec(),
                    g.dimension(),
                    if g.dimension() == 1 { "" } else { "s" },
                    p.len()
                )));
            }
            read.push(p);
        }
        Ok(self.join_parts(&read.iter().map(|p| &p[..]).collect::<Vec<_>>()))
    }
}

impl Components for Sum {
    fn parts(&self) -> Vec<&dyn Game> {
        self.parts.iter().map(|g| &**g as &dyn Game).collect()
    }
    fn split(&self, pos: &[BigUint]) -> Option<Vec<Range<usize>>> {
        self.big_ranges(pos)
    }
    fn join(&self, parts: &[&[BigUint]]) -> BigPosition {
        self.join_parts(parts)
    }
    fn box_ranges(&self) -> Vec<Range<usize>> {
        self.offsets.windows(2).map(|w| w[0]..w[1]).collect()
    }
}

#[cfg(test)]
mod tests {
    /// The `fn` names declared between `start` and the next line that is exactly `}`.
    fn methods_in(source: &str, start: &str) -> Vec<String> {
        let body = &source[source.find(start).expect("block present")..];
        let body = &body[..body.find("\n}\n").expect("block closed")];
        let mut names: Vec<String> = body
            .lines()
            .filter_map(|l| l.trim().strip_prefix("fn "))
            .map(|rest| rest[..rest.find(['(', '<']).expect("a signature")].to_string())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn every_game_method_is_forwarded() {
        // A new `Game` method must get a hook in `Transform` and a line in the one
        // forwarding impl; otherwise misère, pass and n-player games would silently
        // answer with the trait's default instead of the inner game's.
        let game = include_str!("game.rs");
        let this = include_str!("transform.rs");
        let provided = ["options", "check_position"]; // helpers built on the others
        let mut trait_methods = methods_in(game, "pub trait Game: Send + Sync {");
        trait_methods.retain(|m| !provided.contains(&m.as_str()));
        let mut hooks = methods_in(this, "pub trait Transform: Send + Sync {");
        hooks.retain(|m| m != "inner");
        assert_eq!(hooks, trait_methods, "Transform's hooks vs Game's methods");
        let forwarded = methods_in(this, "impl<T: Transform> Game for T {");
        assert_eq!(
            forwarded, trait_methods,
            "the forwarding impl vs Game's methods"
        );
    }
}
