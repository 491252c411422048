//! The nimber of one position by pruned search, without valuing every option: the
//! method of the record holders for Cram, Node Kayles and Sprouts.
//!
//! The full solver ([`crate::Solver`]) values every position below the one asked
//! about. This search asks questions instead — "is g(C) in the set S?" — which a
//! single option often answers, so most of the tree is never entered (P. Beling and
//! M. Rogalski, *On pruning search trees of impartial games*, Artificial Intelligence
//! 283 (2020)). A component with m options has g ≤ m; each option takes one of the
//! candidates 0, …, m away (its value, or when its value is not among the smaller
//! candidates, the greatest), and is only asked about the candidates below the
//! greatest. The root's components are valued by asking, for u = 0, 1, …, whether
//! some option is worth u (aspiration sets).
//!
//! An option that falls apart ([`crate::capability::Regions`]) is a sum: its value is
//! in S exactly when the biggest part's value is in S ⊕ (the other parts' nimbers).
//! The other parts' nimbers are computed first, exactly (J. Lemoine and S. Viennot,
//! *Nimbers are inevitable*, Theoret. Comput. Sci. 462 (2012)), so every question is
//! about one component. Components of rank at most the end rank (an end database)
//! are valued by plain mex over their options, and those the game's mirror strategy
//! proves P ([`crate::capability::MirrorStrategy`]) are worth 0 without search. Parts
//! are keyed by the game's simplified form (its symmetries); a node splits its moves
//! into parts one at a time and reads the table for each, stopping as soon as the
//! values found answer its question. Options that are the same game are asked about
//! once, and the others go cheapest first (the squared ranks of their unknown
//! parts). Everything learnt — bounds of each component's nimber — goes into a
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
mod nimset;
mod table;

pub use table::Bounds;

use crate::capability::{Decomposition, MirrorStrategy, OneWord, Regions};
use crate::error::{Error, Result};
use crate::game::{Coord, Game};
use crate::memo_key::Key;
use crate::table::TableOptions;
use nimset::NimSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use table::Table;

/// Components of at most this rank are valued exactly, by mex over all their options
/// (the end database), unless the caller chooses otherwise ([`Search::with_end_rank`]).
pub const DEFAULT_END_RANK: u32 = 10;

/// The multiplier of the options' signatures (an odd constant with well-mixed bits).
const SIGNATURE_MIX: u64 = 0x9e37_79b9_7f4a_7c15;

/// Moves split ahead of the one whose parts are looked up (`nimber_in_at`).
const LOOK_AHEAD: usize = 2;

/// Nodes between two progress reports (and cancellation checks).
const REPORT_EVERY: u64 = 1 << 14;

/// Components of at least this rank are marked while a search sharing the table is
/// in them (smaller ones are over before another search could use the mark).
/// (Cram 5×8 on two threads, three runs each: 2.7 million nodes without the marks,
/// 2.2 million with them from rank 12 or from rank 20, against 1.84 million on one.)
const BUSY_RANK: u128 = 20;

/// The stack of a parallel search's other threads: the nested questions go as deep
/// as on the planner's search thread.
const SIBLING_STACK: usize = 1 << 30;

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
    /// The moves as played, `width` words each (0: listed the slow way, straight
    /// into `options`).
    raw: Vec<Coord>,
    width: usize,
    /// The component whose moves `raw` holds, and its rank (for the fast path of
    /// one-word games, [`OneWord`]).
    parent: Coord,
    rank: u128,
    /// The parts of one option as [`OneWord::parts`] gives them.
    split: Vec<(Coord, u32)>,
    words: Vec<Coord>,
    parts: Vec<Part>,
    options: Vec<Opt>,
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
    /// A hash of the parts, the same for the same game.
    signature: u64,
    /// The work its search is expected to take: the sum of its searched parts'
    /// squared ranks (small parts cost nothing: the end database values them).
    cost: u64,
    /// Its place in the game's listing.
    index: u32,
}

impl Node {
    fn clear(&mut self) {
        self.raw.clear();
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

    /// The options in the order they are tried, the same game twice kept once (the
    /// one listed first): duplicates are found by sorting on a signature of the
    /// parts, the parts compared only when two signatures are equal; then the
    /// options go cheapest first (`cost`), in the game's own order among equals.
    fn order_and_dedup(&mut self) {
        let mut options = std::mem::take(&mut self.options);
        if options.len() <= 64 && options.is_sorted_by_key(|o| o.index) {
            // The same, without the first sort: the options in their listing order,
            // each looked up by its signature in a small open-addressed table of those
            // kept (the first listed of a game is kept).
            let mut slots = [u32::MAX; 128];
            let mut kept = 0;
            for j in 0..options.len() {
                let o = options[j];
                let mut h = (o.signature >> 57) as usize;
                let repeat = loop {
                    match slots[h] {
                        u32::MAX => {
                            slots[h] = kept as u32;
                            break false;
                        }
                        k if self.same_game(&options[k as usize], &o) => break true,
                        _ => h = (h + 1) & 127,
                    }
                };
                if !repeat {
                    options[kept] = o;
                    kept += 1;
                }
            }
            options.truncate(kept);
            options.sort_unstable_by_key(|o| (o.cost, o.index));
            self.options = options;
            return;
        }
        options.sort_unstable_by_key(|o| (o.signature, o.index));
        options.dedup_by(|a, b| self.same_game(a, b));
        options.sort_unstable_by_key(|o| (o.cost, o.index));
        self.options = options;
    }

    /// Whether two options are the same game: equal signatures, equal parts.
    fn same_game(&self, a: &Opt, b: &Opt) -> bool {
        a.signature == b.signature && {
            let (pa, pb) = (self.option_parts(a), self.option_parts(b));
            pa.len() == pb.len()
                && pa
                    .iter()
                    .zip(pb)
                    .all(|(x, y)| self.part_words(x) == self.part_words(y))
        }
    }
}

/// A search running on a shared table: when it ends (or unwinds from a panic) it leaves
/// the table's crew, so that no other search waits for it, and stops the others.
struct OnTable(Arc<Table>, Arc<AtomicBool>);

impl Drop for OnTable {
    fn drop(&mut self) {
        self.0.leave();
        self.1.store(true, Ordering::Relaxed);
    }
}

/// A pruned search for nimbers of positions of one game, keeping what it learns
/// between questions (ask several positions of one game with one `Search`).
pub struct Search<'g> {
    game: &'g dyn Game,
    regions: Option<&'g dyn Regions>,
    one_word: Option<&'g dyn OneWord>,
    mirror: Option<&'g dyn MirrorStrategy>,
    table: Arc<Table>,
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
    /// Searches [`Search::grundy`] runs at once on the shared table.
    threads: usize,
    /// This search's place among them (0: the caller's), which sets its root order.
    worker: usize,
    /// Set when one of the searches sharing the table has the answer, or failed.
    stop: Option<Arc<AtomicBool>>,
}

impl<'g> Search<'g> {
    /// A search within `opts`' memory limit, reporting to its progress.
    pub fn new(game: &'g dyn Game, opts: &TableOptions<'g>) -> Self {
        // The table takes at most three quarters of the limit: the search's own lists
        // and the process need the rest.
        let table = Table::new(opts.memory_limit.bytes() / 4 * 3);
        Self::on_table(game, Arc::new(table), opts.progress)
    }

    /// A search of `game` on `table`, with the default settings.
    fn on_table(
        game: &'g dyn Game,
        table: Arc<Table>,
        progress: &'g dyn crate::progress::Progress,
    ) -> Self {
        let regions = match game.capabilities().decomposition {
            Some(Decomposition::Regions(r)) => Some(r),
            _ => None,
        };
        Search {
            game,
            regions,
            one_word: regions.and(game.capabilities().one_word),
            mirror: game.capabilities().mirror,
            table,
            end_rank: DEFAULT_END_RANK as u128,
            progress,
            nodes: 0,
            reported: 0,
            depth: 0,
            max_depth: 0,
            pool: Vec::new(),
            asking: String::new(),
            part_note: String::new(),
            checkpoint: None,
            threads: 1,
            worker: 0,
            stop: None,
        }
    }

    /// The same search run by `threads` threads at once where it can
    /// ([`Search::grundy`] on games whose positions are one word, on CPUs that read
    /// a table entry whole, x86-64 with AVX). They share one transposition table and
    /// start the root's questions at different options: each finds in the table what
    /// the others learnt, and the first to reach the root's nimber answers. The
    /// value is the same; the node count is not fixed (it depends on the timing).
    ///
    /// ```
    /// use nimlab_engine::search::Search;
    /// use nimlab_engine::{Coord, Game, Solver};
    /// struct Row; // Kayles on one row of pins, as a bit set
    /// impl Game for Row {
    ///     fn spec(&self) -> String { "row".into() }
    ///     fn dimension(&self) -> usize { 1 }
    ///     fn rank(&self, p: &[Coord]) -> u128 { p[0].count_ones() as u128 }
    ///     fn for_each_option(&self, p: &[Coord], visit: &mut dyn FnMut(&[Coord])) {
    ///         for i in 0..63 {
    ///             if p[0] >> i & 1 == 1 { visit(&[p[0] & !(1 << i)]); }
    ///             if p[0] >> i & 3 == 3 { visit(&[p[0] & !(3 << i)]); }
    ///         }
    ///     }
    /// }
    /// let row = [(1u64 << 14) - 1];
    /// let mut search = Search::new(&Row, &Default::default()).with_threads(2);
    /// assert_eq!(search.grundy(&row).unwrap(), Solver::new(&Row).grundy(&row).unwrap());
    /// ```
    pub fn with_threads(mut self, threads: usize) -> Self {
        self.threads = threads.max(1);
        self
    }

    /// A search on another thread sharing this one's table and settings, the
    /// `worker`-th of the parallel search.
    fn sibling(&self, worker: usize, stop: &Arc<AtomicBool>) -> Search<'g> {
        Search {
            end_rank: self.end_rank,
            threads: self.threads,
            worker,
            stop: Some(Arc::clone(stop)),
            ..Self::on_table(
                self.game,
                Arc::clone(&self.table),
                &crate::progress::NoProgress,
            )
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
            replaced: self.table.replaced(),
            table_bytes: self.table.bytes(),
        }
    }

    /// The Grundy value of `pos` (a legal position of the game).
    pub fn grundy(&mut self, pos: &[Coord]) -> Result<u32> {
        self.progress.start(0, "nodes searched");
        if self.threads > 1 && self.game.dimension() == 1 && Table::shareable() {
            let g = self.grundy_shared(pos);
            self.finish()?;
            return g;
        }
        let g = self.grundy_alone(pos)?;
        self.finish()?;
        Ok(g)
    }

    /// [`Search::grundy`] by `threads` searches sharing the table (see
    /// [`Search::with_threads`]).
    fn grundy_shared(&mut self, pos: &[Coord]) -> Result<u32> {
        let stop = Arc::new(AtomicBool::new(false));
        self.table.join(self.threads);
        self.stop = Some(Arc::clone(&stop));
        let (mine, theirs) = std::thread::scope(|scope| {
            let siblings: Vec<_> = (1..self.threads)
                .filter_map(|w| {
                    let mut sibling = self.sibling(w, &stop);
                    let stop = Arc::clone(&stop);
                    let spawned = std::thread::Builder::new()
                        .name("nimlab-search".into())
                        .stack_size(SIBLING_STACK)
                        .spawn_scoped(scope, move || {
                            let g = {
                                let _on_table = OnTable(Arc::clone(&sibling.table), stop);
                                sibling.grundy_alone(pos)
                            };
                            (g, sibling.nodes, sibling.max_depth)
                        });
                    if spawned.is_err() {
                        // A thread that could not start (say, no room for its stack)
                        // leaves the work to the others at once.
                        self.table.leave();
                    }
                    spawned.ok()
                })
                .collect();
            let mine = {
                let _on_table = OnTable(Arc::clone(&self.table), Arc::clone(&stop));
                self.grundy_alone(pos)
            };
            let theirs: Vec<_> = siblings
                .into_iter()
                .map(|handle| {
                    handle
                        .join()
                        .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
                })
                .collect();
            (mine, theirs)
        });
        self.stop = None;
        let mut answer = mine;
        for (g, nodes, depth) in theirs {
            self.nodes += nodes;
            self.max_depth = self.max_depth.max(depth);
            answer = match (answer, g) {
                // Every entry of the table is true, so this is a bug, never a choice.
                (Ok(a), Ok(b)) if a != b => {
                    panic!("two searches sharing a table found {a} and {b}")
                }
                (Ok(a), _) | (Err(_), Ok(a)) => Ok(a),
                // A search stopped because another ended says less than why that
                // one ended.
                (Err(Error::Cancelled), Err(e)) | (Err(e), Err(_)) => Err(e),
            };
        }
        answer
    }

    /// [`Search::grundy`] on this thread alone (with whatever siblings share the
    /// table).
    fn grundy_alone(&mut self, pos: &[Coord]) -> Result<u32> {
        let parts = self.parts_of(pos);
        let mut acc = 0;
        for (i, (key, rank)) in parts.iter().enumerate() {
            self.part_note = format!("component {} of {}", i + 1, parts.len());
            self.asking = self.part_note.clone();
            acc ^= self.root_nimber(key.as_slice(), *rank)?;
        }
        Ok(acc)
    }

    /// Whether `pos` is a P-position (the player to move loses): one question, not
    /// the whole nimber.
    pub fn is_p(&mut self, pos: &[Coord]) -> Result<bool> {
        self.progress.start(0, "nodes searched");
        self.part_note = "is it a P-position".into();
        self.asking = self.part_note.clone();
        let answer = self.is_worth(pos, 0)?;
        self.finish()?;
        Ok(answer)
    }

    /// Which nimbers below `below` some position among `options` has, each with the
    /// index of the first position found worth it, in increasing order of nimber: for
    /// u = 0, 1, … each position not yet found worth less is asked "is your nimber
    /// u?", as the root of [`Search::grundy`] asks its options, but without stopping
    /// at the first u none has. The search split at the root
    /// ([`crate::plan::search_shard`]) asks this of its share of the root's options.
    ///
    /// ```
    /// use nimlab_engine::search::Search;
    /// use nimlab_engine::{Coord, Game};
    /// struct Heap;
    /// impl Game for Heap {
    ///     fn spec(&self) -> String { "heap".into() }
    ///     fn dimension(&self) -> usize { 1 }
    ///     fn for_each_option(&self, p: &[Coord], visit: &mut dyn FnMut(&[Coord])) {
    ///         for u in 0..p[0] { visit(&[u]); }
    ///     }
    /// }
    /// let mut search = Search::new(&Heap, &Default::default());
    /// let hits = search.values_hit(&[vec![5], vec![2], vec![9], vec![2]], 6).unwrap();
    /// assert_eq!(hits, [(2, 1), (5, 0)]);
    /// ```
    pub fn values_hit(&mut self, options: &[Vec<Coord>], below: u32) -> Result<Vec<(u32, usize)>> {
        self.progress.start(0, "nodes searched");
        let mut open: Vec<usize> = (0..options.len()).collect();
        let mut hits = Vec::new();
        for u in 0..below {
            if open.is_empty() {
                break;
            }
            self.part_note = format!("is some option worth {u}");
            self.asking = self.part_note.clone();
            let mut found = None;
            for (j, &i) in open.iter().enumerate() {
                if self.is_worth(&options[i], u)? {
                    found = Some(j);
                    break;
                }
            }
            if let Some(j) = found {
                hits.push((u, open.remove(j)));
            }
        }
        self.finish()?;
        Ok(hits)
    }

    /// Whether the nimber of `pos` is `u`: the parts but the biggest valued exactly,
    /// then one question about the biggest.
    fn is_worth(&mut self, pos: &[Coord], u: u32) -> Result<bool> {
        let mut parts = self.parts_of(pos);
        parts.sort_by_key(|(_, rank)| *rank);
        let mut acc = 0;
        let biggest = parts.pop();
        for (key, rank) in &parts {
            acc ^= self.nimber(key.as_slice(), *rank)?;
        }
        let want = u ^ acc;
        Ok(match biggest {
            None => acc == u,
            Some((key, rank)) if want < NimSet::LIMIT => {
                self.nimber_in(key.as_slice(), rank, NimSet::single(want))? == Some(want)
            }
            Some((key, rank)) => self.nimber(key.as_slice(), rank)? == want,
        })
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
        if let Some(stop) = &self.stop {
            if stop.load(Ordering::Relaxed) {
                return Err(Error::Cancelled);
            }
            self.table.pause_for_growth();
        }
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

    /// Lists the moves of component `c` into `node` as played (`raw`, each `width`
    /// words), not yet split nor simplified. A move that does not lower the rank is
    /// a contract error.
    fn list_moves(&self, c: &[Coord], rank: u128, node: &mut Node) -> Result<()> {
        node.clear();
        node.width = c.len();
        node.rank = rank;
        if let (Some(one), &[w]) = (self.one_word, c) {
            // The fast path: every move in one call; the ranks are checked part by
            // part when the moves are split (`add_move`).
            node.parent = w;
            one.options(w, &mut node.raw);
            return Ok(());
        }
        let game = self.game;
        let mut wrong = None;
        let Node { raw, width, .. } = node;
        game.for_each_option(c, &mut |o| {
            if wrong.is_some() {
                return;
            }
            if o.len() != *width || game.rank(o) >= rank {
                wrong = Some(o.to_vec());
                return;
            }
            raw.extend_from_slice(o);
        });
        if let Some(o) = wrong {
            if o.len() == c.len() {
                return Err(Error::Contract(format!(
                    "{} moves from {} to {} without lowering its rank",
                    game.spec(),
                    crate::game::position_words(game, c),
                    crate::game::position_words(game, &o)
                )));
            }
            // Options of another length: listed one by one as a single part each
            // way (rare: the fast path wants one length).
            node.clear();
            node.width = 0;
            return self.list_options_slow(c, rank, node);
        }
        Ok(())
    }

    /// Options of varying lengths: split and simplified as they come.
    fn list_options_slow(&self, c: &[Coord], rank: u128, node: &mut Node) -> Result<()> {
        let game = self.game;
        let mut wrong = None;
        let mut all = Vec::new();
        game.for_each_option(c, &mut |o| {
            if game.rank(o) >= rank && wrong.is_none() {
                wrong = Some(o.to_vec());
            }
            all.push(o.to_vec());
        });
        if let Some(o) = wrong {
            return Err(Error::Contract(format!(
                "{} moves from {} to {} without lowering its rank",
                game.spec(),
                crate::game::position_words(game, c),
                crate::game::position_words(game, &o)
            )));
        }
        for o in &all {
            self.add_option(o, node.options.len(), node);
        }
        Ok(())
    }

    /// How many moves `list_moves` listed.
    fn moves(node: &Node) -> usize {
        node.raw
            .len()
            .checked_div(node.width)
            .unwrap_or(node.options.len())
    }

    /// Splits move `i` of `node` into its simplified parts and adds it as the last
    /// option (nothing to do for options listed the slow way).
    fn add_move(&self, node: &mut Node, i: usize) -> Result<()> {
        if node.width == 0 {
            return Ok(());
        }
        if let Some(one) = self.one_word.filter(|_| node.width == 1) {
            let Node {
                raw,
                parent,
                rank,
                split,
                words,
                parts,
                ..
            } = node;
            split.clear();
            one.parts(*parent, raw[i], split);
            let first = parts.len();
            for &(k, r) in split.iter() {
                if r as u128 >= *rank {
                    let game = self.game;
                    return Err(Error::Contract(format!(
                        "{} moves from {} to a position with a part {} of rank {r}, not \
                         below its rank {rank}",
                        game.spec(),
                        crate::game::position_words(game, &[*parent]),
                        crate::game::position_words(game, &[k]),
                    )));
                }
                self.table.prefetch(&[k]);
                parts.push(Part {
                    at: words.len() as u32,
                    len: 1,
                    rank: r as u128,
                });
                words.push(k);
            }
            self.close_option(node, first, i);
            return Ok(());
        }
        let w = node.width;
        let raw = std::mem::take(&mut node.raw);
        self.add_option(&raw[i * w..(i + 1) * w], i, node);
        node.raw = raw;
        Ok(())
    }

    /// Adds option `o`, the game's `index`-th, to `node`: its parts simplified,
    /// biggest first, equal pairs dropped (g ⊕ g = 0).
    fn add_option(&self, o: &[Coord], index: usize, node: &mut Node) {
        let game = self.game;
        let first = node.parts.len();
        let Node { words, parts, .. } = node;
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
        self.close_option(node, first, index);
    }

    /// Makes the parts of `node` from `first` on an option, the game's `index`-th:
    /// biggest first, equal pairs dropped (g ⊕ g = 0), with its signature and cost.
    fn close_option(&self, node: &mut Node, first: usize, index: usize) {
        let end_rank = self.end_rank;
        let Node {
            words,
            parts,
            options,
            ..
        } = node;
        let mine = &mut parts[first..];
        if mine.len() > 1 {
            let order = |a: &Part, b: &Part| {
                let wa = &words[a.at as usize..(a.at + a.len) as usize];
                let wb = &words[b.at as usize..(b.at + b.len) as usize];
                b.rank.cmp(&a.rank).then_with(|| wa.cmp(wb))
            };
            if mine.len() == 2 {
                // (The common case, without a call to the sort.)
                if order(&mine[1], &mine[0]).is_lt() {
                    mine.swap(0, 1);
                }
            } else {
                mine.sort_unstable_by(order);
            }
            let mut kept = first;
            let mut j = first;
            while j < parts.len() {
                let same_next = j + 1 < parts.len() && {
                    let (a, b) = (parts[j], parts[j + 1]);
                    a.rank == b.rank
                        && words[a.at as usize..(a.at + a.len) as usize]
                            == words[b.at as usize..(b.at + b.len) as usize]
                };
                if same_next {
                    j += 2;
                } else {
                    parts[kept] = parts[j];
                    kept += 1;
                    j += 1;
                }
            }
            parts.truncate(kept);
        }
        let mine = &parts[first..];
        let signature = mine.iter().fold(0u64, |h, p| {
            words[p.at as usize..(p.at + p.len) as usize]
                .iter()
                .fold(h, |h, &w| {
                    (h.rotate_left(23) ^ w).wrapping_mul(SIGNATURE_MIX)
                })
                .wrapping_add(1)
        });
        let cost = mine
            .iter()
            .filter(|p| p.rank > end_rank)
            .map(|p| (p.rank.min(1 << 20) as u64).pow(2))
            .sum();
        options.push(Opt {
            first: first as u32,
            count: mine.len() as u32,
            signature,
            cost,
            index: index as u32,
        });
    }

    /// Lists the options of component `c` into `node`: each option's parts, biggest
    /// first; the options ordered and without repeats.
    fn list_options(&self, c: &[Coord], rank: u128, node: &mut Node) -> Result<()> {
        self.list_moves(c, rank, node)?;
        if node.width != 0 {
            for i in 0..Self::moves(node) {
                self.add_move(node, i)?;
            }
        }
        node.order_and_dedup();
        Ok(())
    }

    /// The nimber of component `c` (simplified, of rank `rank`).
    fn nimber(&mut self, c: &[Coord], rank: u128) -> Result<u32> {
        match self.nimber_in(c, rank, NimSet::ALL)? {
            Some(g) => Ok(g),
            // Past the set's limit: only a component of more than 255 options.
            None => self.nimber_beyond(c, rank),
        }
    }

    /// The nimber of a component whose nimber is past [`NimSet::LIMIT`]: mex over all
    /// its options' values.
    fn nimber_beyond(&mut self, c: &[Coord], rank: u128) -> Result<u32> {
        if let Some(g) = self.table.get(c).exact() {
            return Ok(g);
        }
        self.enter()?;
        let mut node = self.pool.pop().unwrap_or_default();
        let found = self
            .list_options(c, rank, &mut node)
            .and_then(|()| self.mex_of_all(&mut node));
        self.pool.push(node);
        self.depth -= 1;
        let g = found?;
        self.table.learn(c, rank, Bounds::exactly(g));
        Ok(g)
    }

    /// The mex of every option's value in `node`, each option valued exactly.
    fn mex_of_all(&mut self, node: &mut Node) -> Result<u32> {
        let mut values = Vec::with_capacity(node.options.len());
        for i in 0..node.options.len() {
            values.push(self.option_value(node, i)?);
        }
        Ok(crate::mex::mex(&values))
    }

    /// The exact value of option `i` of `node`: the ⊕ of its parts' nimbers.
    fn option_value(&mut self, node: &Node, i: usize) -> Result<u32> {
        let o = node.options[i];
        let mut acc = 0;
        for j in 0..o.count {
            let p = node.parts[(o.first + j) as usize];
            let k = Key::new(node.part_words(&p));
            acc ^= self.nimber(k.as_slice(), p.rank)?;
        }
        Ok(acc)
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

    /// Counts a node one level deeper.
    fn enter(&mut self) -> Result<()> {
        self.visit()?;
        self.depth += 1;
        self.max_depth = self.max_depth.max(self.depth);
        Ok(())
    }

    /// The nimber g of component `c` (simplified, of rank `rank`) when g is in
    /// `wanted`; `None` proves g ∉ `wanted`. An exact nimber found on the way is
    /// returned even when it is not in `wanted` (the caller checks).
    fn nimber_in(&mut self, c: &[Coord], rank: u128, wanted: NimSet) -> Result<Option<u32>> {
        if rank <= self.end_rank {
            return self.exact(c, rank).map(Some);
        }
        let known = self.table.get(c);
        if let Some(g) = known.exact() {
            return Ok(Some(g));
        }
        let wanted = wanted.allowed_by(known);
        if wanted.is_empty() {
            return Ok(None);
        }
        if self.mirrored(c, rank) {
            return Ok(Some(0));
        }
        self.enter()?;
        // While searches share the table, the others put this component off for now
        // (it is being searched here: they would only do the same work twice).
        let marked = self.stop.is_some() && rank >= BUSY_RANK && self.table.mark_busy(c);
        let mut node = self.pool.pop().unwrap_or_default();
        let found = self
            .list_moves(c, rank, &mut node)
            .and_then(|()| self.nimber_in_at(c, rank, wanted, &mut node));
        self.pool.push(node);
        if marked {
            self.table.unmark_busy(c);
        }
        self.depth -= 1;
        found
    }

    /// [`Self::nimber_in`] on the listed options, by the candidates' count
    /// (Beling and Rogalski): g is at most the number m of options, so it is one of
    /// the m + 1 candidates P = {0, …, m}. Each option takes one candidate away:
    /// its value, when it is found, or else the greatest candidate. An option is
    /// asked only whether its value is one of the candidates below the greatest
    /// (and at most the greatest wanted value W): if it is not, then g is not the
    /// greatest candidate, since the candidates below it would all have to be the
    /// values of the options still to come, which are too few. So P always holds
    /// min(g, W + 1), and once every option has been asked that is min(P).
    fn nimber_in_at(
        &mut self,
        c: &[Coord],
        rank: u128,
        wanted: NimSet,
        node: &mut Node,
    ) -> Result<Option<u32>> {
        let m = Self::moves(node) as u32;
        if m >= NimSet::LIMIT {
            // More candidates than the set holds: value every option.
            if node.width != 0 {
                for i in 0..m as usize {
                    self.add_move(node, i)?;
                }
            }
            node.order_and_dedup();
            let g = self.mex_of_all(node)?;
            self.table.learn(c, rank, Bounds::exactly(g));
            return Ok(Some(g));
        }
        let top = wanted.max().expect("the caller asks about some value");
        let upto = NimSet::upto(top);
        let mut cand = NimSet::upto(m);
        // First the options the table values alone (a cut found without search), each
        // split and simplified only when its turn comes: a hit stops the listing.
        let mut complete = true;
        if node.width != 0 {
            // `LOOK_AHEAD` moves ahead: the next options' parts are split (and their
            // table slots fetched into the cache) before this one's are read.
            let m = m as usize;
            for i in 0..LOOK_AHEAD.min(m) {
                self.add_move(node, i)?;
            }
            for i in 0..m {
                if i + LOOK_AHEAD < m {
                    self.add_move(node, i + LOOK_AHEAD)?;
                }
                let this = node.options.len() - 1 - LOOK_AHEAD.min(m - 1 - i);
                if let Some(v) = self.option_known(node, this)? {
                    // Those listed after it keep their places.
                    node.options.remove(this);
                    cand.remove(v);
                    if cand.and(wanted).is_empty() {
                        complete = false;
                        break;
                    }
                }
            }
        } else {
            let mut i = 0;
            while i < node.options.len() {
                match self.option_known(node, i)? {
                    Some(v) => {
                        node.options.swap_remove(i);
                        cand.remove(v);
                    }
                    None => i += 1,
                }
            }
        }
        if complete {
            node.order_and_dedup();
            // While searches share the table, an option whose biggest part another
            // search is in is put off to a second pass (Weill's ABDADA): by then the
            // table may answer it. The candidates' count holds in any order.
            let shared = self.stop.is_some();
            let mut put_off = 0u64;
            let mut second_pass = false;
            'passes: loop {
                for i in 0..node.options.len() {
                    if second_pass {
                        if put_off >> i & 1 == 0 {
                            continue;
                        }
                    } else if shared && i < 64 && self.biggest_part_busy(node, i) {
                        put_off |= 1 << i;
                        continue;
                    }
                    if cand.and(wanted).is_empty() {
                        complete = false;
                        break 'passes;
                    }
                    let asked = cand.without_max().and(upto);
                    match self.option_in(node, i, asked)? {
                        Some(v) => cand.remove(v),
                        None => cand = cand.without_max(),
                    }
                }
                if second_pass || put_off == 0 {
                    break;
                }
                second_pass = true;
            }
        }
        let least = cand.min().expect("min(g, W + 1) is always a candidate");
        if complete && least <= top {
            self.table.learn(c, rank, Bounds::exactly(least));
            return Ok(Some(least));
        }
        // g ∉ wanted. What P says: min(g, W + 1) ∈ P.
        let mut learnt = Bounds::UNKNOWN;
        learnt.at_most(m);
        learnt.ruled_out = !cand.low_word() & NimSet::upto(top.min(63)).low_word();
        learnt.lower = least.min(top + 1);
        learnt.settle();
        self.table.learn(c, rank, learnt);
        Ok(None)
    }

    /// Whether another search sharing the table is in the biggest part of option `i`.
    fn biggest_part_busy(&self, node: &Node, i: usize) -> bool {
        let o = node.options[i];
        node.option_parts(&o)
            .first()
            .is_some_and(|p| p.rank >= BUSY_RANK && self.table.busy(node.part_words(p)))
    }

    /// Whether the game's mirror strategy proves component `c` a P-position (then the
    /// table learns it).
    fn mirrored(&mut self, c: &[Coord], rank: u128) -> bool {
        let p = self.mirror.is_some_and(|m| m.mirrored_p(c));
        if p {
            self.table.learn(c, rank, Bounds::exactly(0));
        }
        p
    }

    /// The value of option `i` of `node` when it needs no search (every part small or
    /// in the table), else `None`.
    /// Its cost is then set to the sum of the squared ranks of the parts that need a
    /// search (Beling and Rogalski's order: options whose unknown parts are small
    /// first).
    fn option_known(&mut self, node: &mut Node, i: usize) -> Result<Option<u32>> {
        let o = node.options[i];
        let mut acc = 0;
        let mut cost = 0u64;
        for p in node.option_parts(&o) {
            let words = node.part_words(p);
            if p.rank <= self.end_rank {
                acc ^= self.exact(words, p.rank)?;
            } else if let Some(g) = self.table.get(words).exact() {
                acc ^= g;
            } else if !self.mirrored(words, p.rank) {
                cost += (p.rank.min(1 << 20) as u64).pow(2);
            }
        }
        if cost > 0 {
            node.options[i].cost = cost;
            return Ok(None);
        }
        Ok(Some(acc))
    }

    /// The value of option `i` of `node` when it is in `asked` (or whenever it is
    /// found exactly); `None` proves it is not in `asked`. Every part but the biggest
    /// is valued exactly, and the biggest is asked about `asked` ⊕ their nimbers.
    fn option_in(&mut self, node: &Node, i: usize, asked: NimSet) -> Result<Option<u32>> {
        let o = node.options[i];
        let parts = node.option_parts(&o);
        let Some((biggest, rest)) = parts.split_first() else {
            return Ok(Some(0));
        };
        let mut acc = 0;
        // Smallest parts first.
        for p in rest.iter().rev() {
            let k = Key::new(node.part_words(p));
            acc ^= self.nimber(k.as_slice(), p.rank)?;
        }
        let k = Key::new(node.part_words(biggest));
        if acc >= NimSet::LIMIT {
            let g = self.nimber(k.as_slice(), biggest.rank)? ^ acc;
            return Ok(Some(g));
        }
        Ok(self
            .nimber_in(k.as_slice(), biggest.rank, asked.xor_each(acc))?
            .map(|g| g ^ acc))
    }

    /// The nimber of a component of the root, found by asking its options, for each
    /// candidate value u from the least up, whether some option is worth u (the
    /// aspiration sets of Beling and Rogalski): the first u no option has is the
    /// nimber. Options found exactly on the way are asked no more.
    fn root_nimber(&mut self, c: &[Coord], rank: u128) -> Result<u32> {
        if rank <= self.end_rank {
            return self.exact(c, rank);
        }
        let known = self.table.get(c);
        if let Some(g) = known.exact() {
            return Ok(g);
        }
        if self.mirrored(c, rank) {
            return Ok(0);
        }
        self.enter()?;
        let mut node = self.pool.pop().unwrap_or_default();
        let found = self
            .list_options(c, rank, &mut node)
            .and_then(|()| self.root_nimber_at(c, rank, &mut node));
        self.pool.push(node);
        self.depth -= 1;
        found
    }

    fn root_nimber_at(&mut self, c: &[Coord], rank: u128, node: &mut Node) -> Result<u32> {
        let n = node.options.len();
        if n as u32 >= NimSet::LIMIT {
            let g = self.mex_of_all(node)?;
            self.table.learn(c, rank, Bounds::exactly(g));
            return Ok(g);
        }
        // The values of the options found so far, and the options still open.
        let mut seen = NimSet::EMPTY;
        let mut open = Vec::with_capacity(n);
        for i in 0..n {
            match self.option_known(node, i)? {
                Some(v) => seen.insert(v),
                None => open.push(i),
            }
        }
        // Searches sharing the table start at different options, so that they learn
        // different things.
        let first = self.worker * open.len() / self.threads;
        open.rotate_left(first);
        let mut u = 0;
        loop {
            if seen.contains(u) || self.table.get(c).excludes(u) {
                u += 1;
                continue;
            }
            self.asking = format!("{}: is the nimber {u}?", self.part_note);
            let mut hit = false;
            let mut j = 0;
            // As in `nimber_in_at`, options another search is in are put off to a
            // second round (Cram 5×8 on two threads: 1.91 million nodes against 2.17
            // million without, and 1.84 million on one thread).
            let mut skip_busy = self.stop.is_some();
            let mut skipped = false;
            loop {
                if j >= open.len() {
                    if skip_busy && skipped {
                        skip_busy = false;
                        j = 0;
                        continue;
                    }
                    break;
                }
                if skip_busy && self.biggest_part_busy(node, open[j]) {
                    skipped = true;
                    j += 1;
                    continue;
                }
                if self.stop.is_some() {
                    // A sibling may have settled this question, or the nimber.
                    let known = self.table.get(c);
                    if let Some(g) = known.exact() {
                        return Ok(g);
                    }
                    if known.excludes(u) {
                        hit = true;
                        break;
                    }
                }
                match self.option_in(node, open[j], NimSet::single(u))? {
                    Some(v) => {
                        seen.insert(v);
                        open.remove(j);
                        if v == u {
                            hit = true;
                            break;
                        }
                    }
                    None => j += 1,
                }
            }
            if !hit {
                self.table.learn(c, rank, Bounds::exactly(u));
                return Ok(u);
            }
            let mut learnt = Bounds::UNKNOWN;
            learnt.rule_out(u);
            self.table.learn(c, rank, learnt);
            u += 1;
        }
    }
}

#[cfg(test)]
mod tests;
