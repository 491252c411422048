//! Grundy values of single positions: memoized and iterative.
//!
//! The solver values a position depth first, with an explicit stack of frames (no
//! recursion; see `depth_first`). When that stack grows too long (a chain of positions
//! with many options each), it discovers every position reachable from the one asked
//! about (an explicit stack again), then evaluates them in increasing [`Game::rank`],
//! so each option is known before the position that needs it. A chain of a million
//! positions is just a million entries, never a million stack frames.

use crate::error::{Error, Result};
use crate::game::{Coord, Game, Outcome, Position};
use crate::memo_key::{Key, Memo};
use crate::memory::MemoryLimit;
use crate::mex::MexScratch;
use crate::rule::ValueRule;
use rustc_hash::FxHashSet;

mod depth_first;

/// Memoizing evaluator of Grundy values for one game.
///
/// ```
/// use nimlab_engine::{Game, Coord, Solver};
/// struct Heap; // one heap, take any positive number: G(n) = n
/// impl Game for Heap {
///     fn spec(&self) -> String { "heap".into() }
///     fn dimension(&self) -> usize { 1 }
///     fn for_each_option(&self, p: &[Coord], visit: &mut dyn FnMut(&[Coord])) {
///         for u in 0..p[0] { visit(&[u]); }
///     }
/// }
/// let mut solver = Solver::new(&Heap);
/// assert_eq!(solver.grundy(&[300]).unwrap(), 300);
/// ```
pub struct Solver<'g> {
    game: &'g dyn Game,
    memo: Memo,
    limit: MemoryLimit,
    progress: &'g dyn crate::progress::Progress,
    force: bool,
    scratch: MexScratch,
    values: Vec<u32>,
    /// The game is a sum of heaps ([`crate::capability::Decomposition::Heaps`]).
    heaps: bool,
    /// The game's positions fall apart into independent regions
    /// ([`crate::capability::Decomposition::Regions`]): valued by the nim-sum.
    regions: Option<&'g dyn crate::capability::Regions>,
    /// The multiset kernel, for heap games whose values are not nim-sums (misère).
    multiset: Option<crate::kernels::multiset::HeapMultisetSolver<'g>>,
    /// How a position's value follows from its options' (Grundy values or classes).
    rule: ValueRule<'g>,
    /// Positions are multisets of heaps whose values do not combine by ⊕ (n-player
    /// classes of a heap game): memoized with the heaps sorted.
    sort_heaps: bool,
}

impl<'g> Solver<'g> {
    /// A solver with the default memory limit.
    pub fn new(game: &'g dyn Game) -> Self {
        Self::with_memory_limit(game, MemoryLimit::default())
    }

    /// A solver that refuses to memoize more than `limit` allows.
    pub fn with_memory_limit(game: &'g dyn Game, limit: MemoryLimit) -> Self {
        Self::with_rule(game, ValueRule::of(game), limit)
    }

    /// A solver of the values `rule` gives (e.g. n-player classes of a two-player
    /// game under a ranking), memoizing within `limit`.
    pub fn with_rule(game: &'g dyn Game, rule: ValueRule<'g>, limit: MemoryLimit) -> Self {
        // Classes do not add up over heaps: no nim-sum, no misère multiset kernel; a
        // heap multiset is memoized with its heaps sorted instead.
        let grundy = rule.is_grundy();
        let sum_of_heaps = crate::capability::is_sum_of_heaps(game);
        Solver {
            game,
            memo: Memo::default(),
            limit,
            progress: &crate::progress::NoProgress,
            force: true,
            scratch: MexScratch::default(),
            values: Vec::new(),
            heaps: grundy && sum_of_heaps,
            regions: match game.capabilities().decomposition {
                Some(crate::capability::Decomposition::Regions(r)) if grundy => Some(r),
                _ => None,
            },
            multiset: (grundy && game.capabilities().heap_multiset && !sum_of_heaps)
                .then(|| crate::kernels::multiset::HeapMultisetSolver::new(game)),
            rule,
            sort_heaps: !grundy && crate::capability::is_heap_multiset(game),
        }
    }

    /// A solver that reports progress to `opts.progress`, and refuses (unless
    /// `opts.force`) a position whose brute force would take hours by the estimate
    /// "positions below it × its options" (for games whose moves lower every
    /// coordinate).
    pub fn with_options(game: &'g dyn Game, opts: &crate::table::TableOptions<'g>) -> Self {
        Self::with_rule_and_options(game, ValueRule::of(game), opts)
    }

    /// [`Solver::with_options`] for the values `rule` gives.
    pub fn with_rule_and_options(
        game: &'g dyn Game,
        rule: ValueRule<'g>,
        opts: &crate::table::TableOptions<'g>,
    ) -> Self {
        Solver {
            progress: opts.progress,
            force: opts.force,
            ..Self::with_rule(game, rule, opts.memory_limit)
        }
    }

    /// The game being solved.
    pub fn game(&self) -> &'g dyn Game {
        self.game
    }

    /// Number of memoized positions.
    pub fn memo_len(&self) -> usize {
        self.memo.len() + self.multiset.as_ref().map_or(0, |m| m.len())
    }

    /// The Grundy value of `pos` (which must be a legal position); for a game played
    /// by n players, its class (see [`Solver::value`]).
    pub fn grundy(&mut self, pos: &[Coord]) -> Result<u32> {
        self.value(pos)
    }

    /// The value of `pos` (a legal position) under the solver's [`ValueRule`]: the
    /// Grundy value, or the n-player class.
    pub fn value(&mut self, pos: &[Coord]) -> Result<u32> {
        if let Some(c) = self.key_if_other(pos) {
            return self.value(&c);
        }
        if let Some(v) = self.memo_get(pos) {
            return Ok(v);
        }
        if self.heaps && pos.len() > 1 {
            // A sum of heaps: the nim-sum of the heaps' values (Sprague–Grundy).
            let mut v = 0;
            for &c in pos {
                v ^= self.value(&[c])?;
            }
            return Ok(v);
        }
        if let Some(parts) = self.regions_of(pos) {
            // Independent regions: the nim-sum of their values (Sprague–Grundy).
            let mut v = 0;
            for part in parts {
                v ^= self.value(&part)?;
            }
            return Ok(v);
        }
        let multisets = self.multiset.is_some();
        if !self.force && (multisets || self.game.is_downward_closed()) {
            let positions = if multisets {
                crate::kernels::multiset::count_bound(self.game, pos)
            } else {
                pos.iter()
                    .fold(1u128, |acc, &c| acc.saturating_mul(c as u128 + 1))
            };
            crate::table::check_work(
                &format!(
                    "brute force on {} at {}",
                    self.game.spec(),
                    crate::game::position_words(self.game, pos)
                ),
                positions,
                crate::table::options_bound(self.game, pos),
                self.force,
            )?;
        }
        if let Some(kernel) = self.multiset.as_mut()
            && let Some(key) = kernel.key_of(pos)
        {
            let game = self.game;
            return kernel.grundy(&key, self.limit, self.progress, &|n| {
                format!(
                    "evaluating {} at {} ({n}+ positions)",
                    game.spec(),
                    crate::game::position_words(game, pos)
                )
            });
        }
        if let Some(v) = self.depth_first(pos)? {
            return Ok(v);
        }
        let order = self.discover(pos)?;
        let total = order.len() as u64;
        self.progress.start(total, "positions evaluated");
        // Reports every 65536 positions, or sooner when they have many options.
        let (mut options_seen, mut reported) = (0usize, 0usize);
        for (i, p) in order.into_iter().enumerate() {
            let v = self.evaluate_known_options(p.as_slice());
            self.memo.insert(p, v);
            options_seen += self.values.len() + 1;
            if options_seen >= 1 << 16 {
                self.progress.check_cancelled()?;
                self.progress.advance((i + 1 - reported) as u64);
                reported = i + 1;
                options_seen = 0;
            }
        }
        self.progress.finish();
        Ok(self
            .memo_get(pos)
            .expect("the position asked about is evaluated last"))
    }

    /// The memoized value of `pos`, if any.
    #[inline]
    fn memo_get(&self, pos: &[Coord]) -> Option<u32> {
        self.memo.get(pos)
    }

    /// Calls `visit` with the memo key of each independent part of the option `o`:
    /// its heaps (a sum of heaps), its regions, or `o` itself, each simplified. The
    /// value of `o` is the nim-sum of theirs (for the Grundy rule; other rules have
    /// one part).
    fn for_each_key(&self, o: &[Coord], visit: &mut dyn FnMut(&[Coord])) {
        if self.heaps && o.len() > 1 {
            // Only the heaps are positions to solve; the sum is their nim-sum.
            for &c in o {
                visit(&[c]);
            }
        } else if let Some(regions) = self.regions
            && regions.simplified_parts(o, visit)
        {
            // The game listed its simplified regions itself.
        } else if let Some(parts) = self.regions_of(o) {
            // Likewise the regions, each one keyed by its simplified form.
            for part in &parts {
                match self.key_if_other(part) {
                    Some(k) => visit(&k),
                    None => visit(part),
                }
            }
        } else {
            // Positions that are one game state share one memo entry.
            match self.key_if_other(o) {
                Some(k) => visit(&k),
                None => visit(o),
            }
        }
    }

    /// The memo key of `pos` when it is not `pos` itself: the simplified position
    /// (one game state, one entry), with the heaps sorted for multiset games.
    fn key_if_other(&self, pos: &[Coord]) -> Option<Position> {
        let mut key = self.game.simplified(pos);
        if self.sort_heaps && !pos.is_sorted() {
            let k = key.get_or_insert_with(|| pos.to_vec());
            k.sort_unstable();
        }
        key
    }

    /// The regions of `pos` when it falls apart into two or more.
    fn regions_of(&self, pos: &[Coord]) -> Option<Vec<Position>> {
        let mut parts = Vec::new();
        self.regions?.regions(pos, &mut parts);
        (parts.len() > 1).then_some(parts)
    }

    /// Every not-yet-memoized position reachable from `root`, sorted by rank.
    fn discover(&self, root: &[Coord]) -> Result<Vec<Key>> {
        let game = self.game;
        reachable_in_rank_order(
            game,
            root,
            DiscoveryBudget {
                limit: self.limit,
                already_held: self.memo.len(),
                progress: self.progress,
                describe: &|n| {
                    format!(
                        "evaluating {} at {} ({n}+ positions)",
                        game.spec(),
                        crate::game::position_words(game, root)
                    )
                },
            },
            &|k| self.memo_get(k).is_some(),
            &mut |o, push| self.for_each_key(o, push),
        )
    }

    fn evaluate_known_options(&mut self, p: &[Coord]) -> u32 {
        let mut values = std::mem::take(&mut self.values);
        values.clear();
        let game = self.game;
        game.for_each_option(p, &mut |o| {
            let mut v = 0;
            self.for_each_key(o, &mut |k| {
                v ^= self
                    .memo_get(k)
                    .expect("every option's parts are evaluated first")
            });
            values.push(v);
        });
        let v = self
            .rule
            .combine(&values, game.terminal_value(), &mut self.scratch);
        self.values = values;
        v
    }
}

/// One option of a position with its Grundy value.
/// Every position reachable from `root` that is not `known` yet, in increasing
/// [`Game::rank`], so that each one's options come before it: the discovery phase
/// shared by the Grundy solver and the n-player class solver. `keys_of` maps an
/// option to the positions to solve for it (its memo key; the heaps of a sum of
/// heaps). Memory is checked against `limit` as the search grows (each position is
/// held in the seen set, the list, and later the memo, beside the `already_held`
/// entries of the memo); `describe(n)` names the work
/// in that error. A move that does not lower the rank is a contract error.
/// What a discovery may hold and how it reports (see [`reachable_in_rank_order`]).
pub(crate) struct DiscoveryBudget<'a> {
    pub limit: MemoryLimit,
    pub already_held: usize,
    pub progress: &'a dyn crate::progress::Progress,
    pub describe: &'a dyn Fn(usize) -> String,
}

/// Maps an option to the positions to solve for it, passing each to the callback.
pub(crate) type OptionKeys<'a> = &'a mut dyn FnMut(&[Coord], &mut dyn FnMut(&[Coord]));

pub(crate) fn reachable_in_rank_order(
    game: &dyn Game,
    root: &[Coord],
    budget: DiscoveryBudget,
    known: &dyn Fn(&[Coord]) -> bool,
    keys_of: OptionKeys,
) -> Result<Vec<Key>> {
    let DiscoveryBudget {
        limit,
        already_held,
        progress,
        describe,
    } = budget;
    let per_entry = 160 + 24 * root.len() as u64;
    let mut seen: FxHashSet<Key> = FxHashSet::default();
    let mut stack: Vec<Key> = vec![Key::new(root)];
    seen.insert(Key::new(root));
    let mut found: Vec<(u128, Key)> = Vec::new();
    let mut contract_error: Option<Error> = None;
    progress.start(0, "positions discovered");
    // Positions with very many options (a million and more) report, check the limit
    // and may be cancelled between options too, not only between positions.
    let mut visited = 0u64;
    let mut reported = 0usize;
    while let Some(p) = stack.pop() {
        let rank = game.rank(p.as_slice());
        let found_so_far = found.len();
        game.for_each_option(p.as_slice(), &mut |o| {
            if contract_error.is_some() {
                return;
            }
            visited += 1;
            if visited.is_multiple_of(1 << 16) {
                if let Err(e) = progress.check_cancelled() {
                    contract_error = Some(e);
                    return;
                }
                progress.advance((found_so_far - reported) as u64);
                reported = found_so_far;
                let needed = (already_held + 2 * found_so_far + seen.len()) as u64 * per_entry;
                if let Err(e) = limit.check(&describe(found_so_far), needed) {
                    contract_error = Some(e);
                    return;
                }
            }
            if game.rank(o) >= rank {
                contract_error = Some(Error::Contract(format!(
                    "{} moves from {} to {} without lowering its rank",
                    game.spec(),
                    crate::game::position_words(game, p.as_slice()),
                    crate::game::position_words(game, o)
                )));
                return;
            }
            keys_of(o, &mut |k| {
                if !known(k) && seen.insert(Key::new(k)) {
                    stack.push(Key::new(k));
                }
            });
        });
        if let Some(e) = contract_error {
            return Err(e);
        }
        found.push((rank, p));
        if found.len().is_multiple_of(4096) {
            progress.check_cancelled()?;
            progress.advance((found.len() - reported) as u64);
            reported = found.len();
            let needed = (already_held + 2 * found.len() + stack.len()) as u64 * per_entry;
            limit.check(&describe(found.len()), needed)?;
        }
    }
    found.sort_unstable_by_key(|(r, _)| *r);
    Ok(found.into_iter().map(|(_, p)| p).collect())
}

/// One option of a position with what a player needs to choose it: the position moved
/// to and its value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveInfo {
    /// The position moved to.
    pub position: Position,
    /// Its Grundy value.
    pub grundy: u32,
}

/// Everything a player wants to know about a position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Analysis {
    /// The position analysed.
    pub position: Position,
    /// Its Grundy value.
    pub grundy: u32,
    /// P or N.
    pub outcome: Outcome,
    /// Every option (without duplicates, in the game's order) with its value.
    pub options: Vec<MoveInfo>,
}

impl Analysis {
    /// The winning moves: options of value 0 (none from a P-position).
    pub fn winning_moves(&self) -> impl Iterator<Item = &MoveInfo> {
        self.options.iter().filter(|m| m.grundy == 0)
    }
}

/// Grundy value, outcome and every option's value of `pos`, after checking that `pos`
/// is a legal position of `game`.
///
/// ```
/// use nimlab_engine::{analyse, Game, Coord, MemoryLimit, Outcome};
/// struct Heap;
/// impl Game for Heap {
///     fn spec(&self) -> String { "heap".into() }
///     fn dimension(&self) -> usize { 1 }
///     fn for_each_option(&self, p: &[Coord], visit: &mut dyn FnMut(&[Coord])) {
///         for u in 0..p[0] { visit(&[u]); }
///     }
/// }
/// let a = analyse(&Heap, &[3], MemoryLimit::default()).unwrap();
/// assert_eq!(a.outcome, Outcome::N);
/// assert_eq!(a.winning_moves().next().unwrap().position, vec![0]);
/// ```
pub fn analyse(game: &dyn Game, pos: &[Coord], limit: MemoryLimit) -> Result<Analysis> {
    game.check_position(pos)?;
    let mut solver = Solver::with_memory_limit(game, limit);
    let grundy = solver.grundy(pos)?;
    let mut seen = FxHashSet::default();
    let mut options = Vec::new();
    for o in game.options(pos) {
        let o = game.canonical(&o).unwrap_or(o);
        if seen.insert(o.clone()) {
            let g = solver.grundy(&o)?;
            options.push(MoveInfo {
                position: o,
                grundy: g,
            });
        }
    }
    Ok(Analysis {
        position: pos.to_vec(),
        grundy,
        outcome: Outcome::of(grundy),
        options,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_games::{Chain, Loop};

    #[test]
    fn a_chain_of_a_million_does_not_overflow_the_stack() {
        let mut s = Solver::new(&Chain);
        assert_eq!(s.grundy(&[1_000_000]).unwrap(), 0);
        assert_eq!(s.grundy(&[999_999]).unwrap(), 1);
    }

    #[test]
    fn a_game_that_does_not_end_is_reported() {
        let err = Solver::new(&Loop).grundy(&[0]).unwrap_err();
        assert!(matches!(err, Error::Contract(_)));
    }

    #[test]
    fn memory_limit_is_enforced() {
        let mut s = Solver::with_memory_limit(&Chain, MemoryLimit::new(1 << 20));
        assert!(matches!(
            s.grundy(&[10_000_000]).unwrap_err(),
            Error::TooLarge { .. }
        ));
    }
}
