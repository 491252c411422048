//! The nimber of one position by pruned search, without valuing every option: the
//! method of the record holders for Cram, Node Kayles and Sprouts.
//!
//! The full solver ([`crate::Solver`]) values every position below the one asked
//! about. This search asks questions instead — "is g(C) = v?" — which a single option
//! of value v answers *no*, so most of the tree is never entered (P. Beling and M.
//! Rogalski, *On pruning search trees of impartial games*, Artificial Intelligence 283
//! (2020)). The nimber of a component C is the first v for which the answer is yes,
//! asked for v = 0, 1, 2, …; g(C) = v holds exactly when no option has value v and
//! every smaller value is ruled out.
//!
//! An option that falls apart ([`crate::capability::Regions`]) is a sum: its value is
//! v exactly when the biggest part's value is v ⊕ (the other parts' nimbers). The
//! other parts' nimbers are computed first, exactly (J. Lemoine and S. Viennot,
//! *Nimbers are inevitable*, Theoret. Comput. Sci. 462 (2012)), so every question is
//! about one component. Components of rank at most the end rank (an end database)
//! are valued by plain mex over their options. Parts are keyed by the game's
//! simplified form (its symmetries), options that are the same game are asked about
//! once, and those whose biggest part is smallest go first (moves that split the
//! board). Everything learnt — bounds of each component's nimber — goes into a
//! transposition table bounded by the memory limit, which forgets small components
//! first when full (`table.rs`).
//!
//! ```
//! use nimlab_engine::search::Search;
//! use nimlab_engine::{Coord, Game, Solver};
//! /// Kayles on one row as a bit set: take one pin or two adjacent ones.
//! struct Row;
//! impl Game for Row {
//!     fn spec(&self) -> String { "row".into() }
//!     fn dimension(&self) -> usize { 1 }
//!     fn rank(&self, p: &[Coord]) -> u128 { p[0].count_ones() as u128 }
//!     fn for_each_option(&self, p: &[Coord], visit: &mut dyn FnMut(&[Coord])) {
//!         for i in 0..63 {
//!             if p[0] >> i & 1 == 1 { visit(&[p[0] & !(1 << i)]); }
//!             if p[0] >> i & 3 == 3 { visit(&[p[0] & !(3 << i)]); }
//!         }
//!     }
//! }
//! let row = [(1u64 << 12) - 1];
//! let mut search = Search::new(&Row, &Default::default());
//! assert_eq!(search.grundy(&row).unwrap(), Solver::new(&Row).grundy(&row).unwrap());
//! ```

mod checkpoint;
mod table;

pub use table::Bounds;

use crate::capability::{Decomposition, Regions};
use crate::error::{Error, Result};
use crate::game::{Coord, Game};
use crate::memo_key::Key;
use crate::table::TableOptions;
use table::Table;

/// Components of at most this rank are valued exactly, by mex over all their options
/// (the end database), unless the caller chooses otherwise ([`Search::with_end_rank`]).
pub const DEFAULT_END_RANK: u32 = 10;

/// The multiplier of the options' signatures (an odd constant with well-mixed bits).
const SIGNATURE_MIX: u64 = 0x9e37_79b9_7f4a_7c15;

/// Nodes between two progress reports (and cancellation checks).
const REPORT_EVERY: u64 = 1 << 14;

/// What a search did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Components whose options were listed.
    pub nodes: u64,
    /// Deepest nesting of questions.
    pub max_depth: u32,
    /// Entries in the transposition table.
    pub entries: usize,
    /// Entries the table forgot for want of room.
    pub replaced: u64,
    /// Bytes the table holds, about.
    pub table_bytes: u64,
}

/// The options of one component being searched, kept flat: every part's words in
/// `words`, each option a run of `parts`, biggest part first.
#[derive(Default)]
struct Node {
    words: Vec<Coord>,
    parts: Vec<Part>,
    options: Vec<Opt>,
    /// Options the cheap pass has already answered "no" for.
    settled: Vec<bool>,
    values: Vec<u32>,
}

#[derive(Clone, Copy)]
struct Part {
    at: u32,
    len: u32,
    rank: u128,
}

#[derive(Clone, Copy)]
struct Opt {
    first: u32,
    count: u32,
    biggest: u128,
    /// A hash of the parts, the same for the same game.
    signature: u64,
}

impl Node {
    fn clear(&mut self) {
        self.words.clear();
        self.parts.clear();
        self.options.clear();
    }

    fn part_words(&self, p: &Part) -> &[Coord] {
        &self.words[p.at as usize..(p.at + p.len) as usize]
    }

    fn option_parts(&self, o: &Opt) -> &[Part] {
        &self.parts[o.first as usize..(o.first + o.count) as usize]
    }

    /// The options in the order they are tried (smallest biggest part first, then
    /// most parts), the same game twice kept once: options are sorted by a signature
    /// of their parts, and the parts compared only when two signatures are equal.
    fn order_and_dedup(&mut self) {
        let mut options = std::mem::take(&mut self.options);
        // One machine word to sort by: the biggest part's rank, fewest parts last, then
        // the signature's top bits.
        options.sort_unstable_by_key(|o| {
            (o.biggest.min(255) as u64) << 56
                | (255 - o.count.min(255) as u64) << 48
                | o.signature >> 16
        });
        options.dedup_by(|a, b| {
            a.signature == b.signature && {
                let (pa, pb) = (self.option_parts(a), self.option_parts(b));
                pa.len() == pb.len()
                    && pa
                        .iter()
                        .zip(pb)
                        .all(|(x, y)| self.part_words(x) == self.part_words(y))
            }
        });
        self.options = options;
    }
}

/// A pruned search for nimbers of positions of one game, keeping what it learns
/// between questions (ask several positions of one game with one `Search`).
pub struct Search<'g> {
    game: &'g dyn Game,
    regions: Option<&'g dyn Regions>,
    table: Table,
    end_rank: u128,
    progress: &'g dyn crate::progress::Progress,
    nodes: u64,
    reported: u64,
    depth: u32,
    max_depth: u32,
    pool: Vec<Node>,
    /// What the root is asking, for the progress line.
    asking: String,
    /// Which of the root's components is being valued.
    part_note: String,
    checkpoint: Option<checkpoint::Schedule>,
}

impl<'g> Search<'g> {
    /// A search within `opts`' memory limit, reporting to its progress.
    pub fn new(game: &'g dyn Game, opts: &TableOptions<'g>) -> Self {
        let regions = match game.capabilities().decomposition {
            Some(Decomposition::Regions(r)) => Some(r),
            _ => None,
        };
        Search {
            game,
            regions,
            // The table takes at most three quarters of the limit: the search's own
            // lists and the process need the rest.
            table: Table::new(opts.memory_limit.bytes() / 4 * 3),
            end_rank: DEFAULT_END_RANK as u128,
            progress: opts.progress,
            nodes: 0,
            reported: 0,
            depth: 0,
            max_depth: 0,
            pool: Vec::new(),
            asking: String::new(),
            part_note: String::new(),
            checkpoint: None,
        }
    }

    /// Whether the search answers for `game`: a game of normal play (a terminal
    /// position is worth 0) whose positions are one component or fall apart into
    /// regions, so that values add up by ⊕.
    pub fn applies_to(game: &dyn Game) -> bool {
        let caps = game.capabilities();
        game.terminal_value() == 0
            && caps.nplayer.is_none()
            && !caps.heap_multiset
            && matches!(caps.decomposition, None | Some(Decomposition::Regions(_)))
    }

    /// The same search with components of rank at most `end_rank` valued by plain mex
    /// (0: every component is searched; a second route to the same values).
    pub fn with_end_rank(mut self, end_rank: u32) -> Self {
        self.end_rank = end_rank as u128;
        self
    }

    /// What the search has done so far.
    pub fn stats(&self) -> SearchStats {
        SearchStats {
            nodes: self.nodes,
            max_depth: self.max_depth,
            entries: self.table.len(),
            replaced: self.table.replaced,
            table_bytes: self.table.bytes(),
        }
    }

    /// The Grundy value of `pos` (a legal position of the game).
    pub fn grundy(&mut self, pos: &[Coord]) -> Result<u32> {
        self.progress.start(0, "nodes searched");
        let parts = self.parts_of(pos);
        let mut acc = 0;
        for (i, (key, rank)) in parts.iter().enumerate() {
            self.part_note = format!("component {} of {}", i + 1, parts.len());
            self.asking = self.part_note.clone();
            acc ^= self.nimber(key.as_slice(), *rank)?;
        }
        self.finish()?;
        Ok(acc)
    }

    /// Whether `pos` is a P-position (the player to move loses): one question, not
    /// the whole nimber.
    pub fn is_p(&mut self, pos: &[Coord]) -> Result<bool> {
        self.progress.start(0, "nodes searched");
        self.part_note = "is it a P-position".into();
        self.asking = self.part_note.clone();
        let mut parts = self.parts_of(pos);
        parts.sort_by_key(|(_, rank)| *rank);
        let mut acc = 0;
        let biggest = parts.pop();
        for (key, rank) in &parts {
            acc ^= self.nimber(key.as_slice(), *rank)?;
        }
        let answer = match biggest {
            None => acc == 0,
            Some((key, rank)) => self.is_value(key.as_slice(), rank, acc)?,
        };
        self.finish()?;
        Ok(answer)
    }

    fn finish(&mut self) -> Result<()> {
        self.progress.advance(self.nodes - self.reported);
        self.reported = self.nodes;
        if let Some(c) = &mut self.checkpoint {
            c.write(&self.table, self.game)?;
        }
        self.progress.finish();
        Ok(())
    }

    /// The simplified parts of `pos` with their ranks (none of rank 0: no move).
    fn parts_of(&self, pos: &[Coord]) -> Vec<(Key, u128)> {
        let mut out = Vec::new();
        self.for_each_part(pos, &mut |k| {
            let rank = self.game.rank(k);
            if rank > 0 {
                out.push((Key::new(k), rank));
            }
        });
        out
    }

    /// Calls `visit` with each independent part of `pos`, simplified.
    fn for_each_part(&self, pos: &[Coord], visit: &mut dyn FnMut(&[Coord])) {
        if let Some(regions) = self.regions {
            if regions.simplified_parts(pos, visit) {
                return;
            }
            let mut parts = Vec::new();
            regions.regions(pos, &mut parts);
            if parts.len() > 1 {
                for p in &parts {
                    match self.game.simplified(p) {
                        Some(s) => visit(&s),
                        None => visit(p),
                    }
                }
                return;
            }
        }
        match self.game.simplified(pos) {
            Some(s) => visit(&s),
            None => visit(pos),
        }
    }

    /// Counts a node; reports, polls cancellation and writes checkpoints now and then.
    fn visit(&mut self) -> Result<()> {
        self.nodes += 1;
        if self.nodes.is_multiple_of(REPORT_EVERY) {
            self.progress.advance(self.nodes - self.reported);
            self.reported = self.nodes;
            self.progress.check_cancelled()?;
            self.progress.status(&format!(
                "{}; depth {} (deepest {}); {} table entries",
                self.asking,
                self.depth,
                self.max_depth,
                self.table.len()
            ));
            if let Some(c) = &mut self.checkpoint
                && c.due()
            {
                c.write(&self.table, self.game)?;
            }
        }
        Ok(())
    }

    /// Lists the options of component `c` into `node`: each option's parts, biggest
    /// first; the options ordered and without repeats. A move that does not lower the
    /// rank is a contract error.
    fn list_options(&self, c: &[Coord], rank: u128, node: &mut Node) -> Result<()> {
        node.clear();
        let game = self.game;
        let mut wrong = None;
        let Node {
            words,
            parts,
            options,
            ..
        } = node;
        game.for_each_option(c, &mut |o| {
            if wrong.is_some() {
                return;
            }
            if game.rank(o) >= rank {
                wrong = Some(o.to_vec());
                return;
            }
            let first = parts.len();
            self.for_each_part(o, &mut |k| {
                let r = game.rank(k);
                if r > 0 {
                    self.table.prefetch(k);
                    parts.push(Part {
                        at: words.len() as u32,
                        len: k.len() as u32,
                        rank: r,
                    });
                    words.extend_from_slice(k);
                }
            });
            let mine = &mut parts[first..];
            mine.sort_unstable_by(|a, b| {
                let wa = &words[a.at as usize..(a.at + a.len) as usize];
                let wb = &words[b.at as usize..(b.at + b.len) as usize];
                b.rank.cmp(&a.rank).then_with(|| wa.cmp(wb))
            });
            let signature = mine.iter().fold(0u64, |h, p| {
                words[p.at as usize..(p.at + p.len) as usize]
                    .iter()
                    .fold(h, |h, &w| {
                        (h.rotate_left(23) ^ w).wrapping_mul(SIGNATURE_MIX)
                    })
                    .wrapping_add(1)
            });
            options.push(Opt {
                first: first as u32,
                count: mine.len() as u32,
                biggest: mine.first().map_or(0, |p| p.rank),
                signature,
            });
        });
        if let Some(o) = wrong {
            return Err(Error::Contract(format!(
                "{} moves from {} to {} without lowering its rank",
                game.spec(),
                crate::game::position_words(game, c),
                crate::game::position_words(game, &o)
            )));
        }
        node.order_and_dedup();
        Ok(())
    }

    /// The nimber of component `c` (simplified, of rank `rank`).
    fn nimber(&mut self, c: &[Coord], rank: u128) -> Result<u32> {
        if rank <= self.end_rank {
            return self.exact(c, rank);
        }
        let known = self.table.get(c);
        if let Some(g) = known.exact() {
            return Ok(g);
        }
        self.enter()?;
        let mut node = self.pool.pop().unwrap_or_default();
        let found = self.list_options(c, rank, &mut node).and_then(|()| {
            self.settle_from(c, rank, &mut node, known, known.upper)
                .map(|g| g.expect("no bound stops the search below the nimber"))
        });
        self.pool.push(node);
        self.depth -= 1;
        found
    }

    /// The nimber of a small component by mex over all its options (the end
    /// database), memoized in the table.
    fn exact(&mut self, c: &[Coord], rank: u128) -> Result<u32> {
        if let Some(g) = self.table.get(c).exact() {
            return Ok(g);
        }
        self.visit()?;
        let mut node = self.pool.pop().unwrap_or_default();
        let found = self.exact_at(c, rank, &mut node);
        self.pool.push(node);
        let g = found?;
        self.table.learn(c, rank, Bounds::exactly(g));
        Ok(g)
    }

    fn exact_at(&mut self, c: &[Coord], rank: u128, node: &mut Node) -> Result<u32> {
        self.list_options(c, rank, node)?;
        node.values.clear();
        for i in 0..node.options.len() {
            let o = node.options[i];
            let mut acc = 0;
            for j in 0..o.count {
                let p = node.parts[(o.first + j) as usize];
                let k = Key::new(node.part_words(&p));
                acc ^= self.exact(k.as_slice(), p.rank)?;
            }
            node.values.push(acc);
        }
        Ok(crate::mex::mex(&node.values))
    }

    /// Whether g(c) = v, for component `c` (simplified, of rank `rank`).
    fn is_value(&mut self, c: &[Coord], rank: u128, v: u32) -> Result<bool> {
        if rank <= self.end_rank {
            return Ok(self.exact(c, rank)? == v);
        }
        let known = self.table.get(c);
        if let Some(g) = known.exact() {
            return Ok(g == v);
        }
        if known.excludes(v) {
            return Ok(false);
        }
        self.enter()?;
        let mut node = self.pool.pop().unwrap_or_default();
        let answer = self
            .list_options(c, rank, &mut node)
            .and_then(|()| self.is_value_at(c, rank, v, &mut node, known));
        self.pool.push(node);
        self.depth -= 1;
        answer
    }

    /// Counts a node one level deeper.
    fn enter(&mut self) -> Result<()> {
        self.visit()?;
        self.depth += 1;
        self.max_depth = self.max_depth.max(self.depth);
        Ok(())
    }

    fn is_value_at(
        &mut self,
        c: &[Coord],
        rank: u128,
        v: u32,
        node: &mut Node,
        known: Bounds,
    ) -> Result<bool> {
        if self.some_option_has_value(node, v)? {
            // An option of value v: g ≠ v.
            let mut learnt = Bounds::UNKNOWN;
            learnt.rule_out(v);
            self.table.learn(c, rank, learnt);
            return Ok(false);
        }
        // No option of value v: g ≤ v; g = v once every smaller value is an
        // option's.
        let mut learnt = Bounds::UNKNOWN;
        learnt.at_most(v);
        self.table.learn(c, rank, learnt);
        let mut known = known;
        known.at_most(v);
        Ok(self.settle_from(c, rank, node, known, v)? == Some(v))
    }

    /// The mex of the options of `c` (listed in `node`) when it is at most `most`,
    /// found by asking for each value from the known lower bound up whether some
    /// option has it (values below the lower bound are options' values, and so is
    /// a value ruled out above it); `None` when every value up to `most` is an
    /// option's. What it finds goes into the table.
    fn settle_from(
        &mut self,
        c: &[Coord],
        rank: u128,
        node: &mut Node,
        known: Bounds,
        most: u32,
    ) -> Result<Option<u32>> {
        let mut u = known.lower;
        while u <= most {
            if self.depth == 1 {
                // The root's question, for the progress line: the bound it is at.
                self.asking = format!("{}: is the nimber {u}?", self.part_note);
            }
            let now = self.table.get(c);
            if let Some(g) = now.exact() {
                return Ok((g <= most).then_some(g));
            }
            // g ≥ u here: a value ruled out is an option's.
            if !(now.excludes(u) || known.excludes(u) || self.some_option_has_value(node, u)?) {
                self.table.learn(c, rank, Bounds::exactly(u));
                return Ok(Some(u));
            }
            let mut learnt = Bounds::UNKNOWN;
            learnt.rule_out(u);
            self.table.learn(c, rank, learnt);
            u += 1;
        }
        Ok(None)
    }

    /// Whether some option in `node` has value v: first every option the table
    /// answers for alone (a cut found without search), then the others in order.
    fn some_option_has_value(&mut self, node: &mut Node, v: u32) -> Result<bool> {
        let n = node.options.len();
        node.settled.clear();
        node.settled.resize(n, false);
        for i in 0..n {
            match self.option_is(node, i, v, true)? {
                Some(true) => return Ok(true),
                Some(false) => node.settled[i] = true,
                None => {}
            }
        }
        for i in 0..n {
            if !node.settled[i] && self.option_is(node, i, v, false)? == Some(true) {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Whether option `i` of `node` has value v; with `cheap`, `None` when that needs
    /// a search (small parts are valued, the table is read, nothing else).
    fn option_is(&mut self, node: &Node, i: usize, v: u32, cheap: bool) -> Result<Option<bool>> {
        let o = node.options[i];
        let parts = node.option_parts(&o);
        let mut acc = v;
        // The parts whose value needs a search: how many, and the last one seen.
        let (mut open, mut last_open) = (0, 0);
        // Smallest parts first: the biggest is the one asked about.
        for (j, p) in parts.iter().enumerate().rev() {
            let words = node.part_words(p);
            if p.rank <= self.end_rank {
                acc ^= self.exact(words, p.rank)?;
            } else if let Some(g) = self.table.get(words).exact() {
                acc ^= g;
            } else if j > 0 && !cheap {
                let k = Key::new(words);
                acc ^= self.nimber(k.as_slice(), p.rank)?;
            } else {
                open += 1;
                last_open = j;
            }
        }
        if open == 0 {
            return Ok(Some(acc == 0));
        }
        let asked = &parts[last_open];
        match open {
            1 if self.table.get(node.part_words(asked)).excludes(acc) => Ok(Some(false)),
            _ if cheap => Ok(None),
            _ => {
                let k = Key::new(node.part_words(asked));
                self.is_value(k.as_slice(), asked.rank, acc).map(Some)
            }
        }
    }
}

#[cfg(test)]
mod tests;
