//! `nplayer-nim(n=3)`: Nim played by n players (Kano), with the closed form of its
//! classes for heaps of any size (Theorems A and B and what follows from them).
//!
//! The closed form. Write ρ for the class shifted so that ρ = 0 exactly where the
//! player to move ranks last (ρ = class for the normal type, class − (l − 1) mod n
//! for the l-retreat type). Theorems A and B say where ρ = 0: the n-nim sum is 0 (and,
//! for the retreat type, some heap has ≥ 2 stones), or (retreat type) every heap has
//! ≤ 1 stone and their number is ≡ l − 1 (mod n). The recursion then gives, for every
//! other position, ρ = the fewest moves to such a position, or to the end of the game
//! plus the terminal ρ, whichever is less (each move lowers ρ by at most one, and a
//! position with ρ ≥ 1 has an option with ρ − 1). A set of r moves to n-nim sum 0 is a
//! set of r heaps to lower; `fewest_changes` finds the least r by a dynamic
//! programme over the binary columns, from the top, whose state is the set of heaps
//! already lowered (below the column where a heap drops a 1 it is free).

use crate::nim::Nim;
use crate::{parse_game, Args, Family};
use nimlab_engine::big::{BigPosition, BigUint};
use nimlab_engine::nimarith::n_nim_sum;
use nimlab_engine::nplayer::{
    class_table, BigClass, NPlayerClosedForm, NPlayerGame, Ranking, RankingKind,
};
use nimlab_engine::theorem::{describe_window, Verdict};
use nimlab_engine::{Coord, Error, Game, Result, TableOptions, Theorem};
use rustc_hash::FxHashMap;

/// Kano's theorems for Nim played by n players: the class of any position of the
/// normal and l-retreat types, with best moves, for heaps of any size.
///
/// ```
/// use nimlab_engine::big::parse_big_position;
/// use nimlab_engine::nplayer::{NPlayerClosedForm, Ranking};
/// use nimlab_games::nplayer_nim::Kano;
/// let three = Ranking::normal(3).unwrap();
/// // 3-nim sum of 14, 11, 10, 7 is 23 ≠ 0: the player to move does not rank last.
/// let c = Kano.classify_big(&parse_big_position("14,11,10,7").unwrap(), &three).unwrap().unwrap();
/// assert_ne!(c.class, 0);
/// assert_eq!(Kano.class_small(&[1, 1, 1], &three), Some(0)); // columns: 3 ≡ 0
/// ```
pub struct Kano;

/// Most heaps the closed form takes (a heap set is a 64-bit mask).
const MAX_HEAPS: usize = 64;
/// Most dynamic-programme steps (columns × states × choices) a query may take (about
/// ten seconds: a step is a hash-map update, about a million and a half a second).
const MAX_STEPS: u128 = 15_000_000;
/// Steps a second, for the estimates in refusals.
const STEPS_PER_SECOND: f64 = 1_500_000.0;
/// Most memory the closed form's back-pointers may take (one entry per column and state).
const MAX_BYTES: u64 = 1 << 29;
/// Bytes of one back-pointer (hash map entry with its overhead).
const BYTES_PER_STATE: u64 = 64;

/// Heaps as binary columns: `masks[k]` has bit i set iff heap i has bit k.
struct Columns {
    masks: Vec<u64>,
    /// Bit length of each heap.
    lens: Vec<u64>,
}

impl Columns {
    fn from_big(pos: &[BigUint]) -> Result<Self> {
        if pos.len() > MAX_HEAPS {
            return Err(Error::input(format!(
                "the n-player closed form takes at most {MAX_HEAPS} heaps, got {}",
                pos.len()
            )));
        }
        let lens: Vec<u64> = pos.iter().map(|h| h.bits()).collect();
        let top = lens.iter().copied().max().unwrap_or(0);
        let mut masks = vec![0u64; top as usize];
        for (i, h) in pos.iter().enumerate() {
            for (k, m) in masks.iter_mut().enumerate().take(lens[i] as usize) {
                if h.bit(k as u64) {
                    *m |= 1 << i;
                }
            }
        }
        Ok(Columns { masks, lens })
    }

    fn from_small(pos: &[Coord]) -> Option<Self> {
        if pos.len() > MAX_HEAPS {
            return None;
        }
        let lens: Vec<u64> = pos.iter().map(|&h| 64 - h.leading_zeros() as u64).collect();
        let top = lens.iter().copied().max().unwrap_or(0);
        let masks = (0..top)
            .map(|k| {
                pos.iter()
                    .enumerate()
                    .filter(|&(_, &h)| h >> k & 1 == 1)
                    .fold(0u64, |m, (i, _)| m | 1 << i)
            })
            .collect();
        Some(Columns { masks, lens })
    }

    fn heaps(&self) -> usize {
        self.lens.len()
    }

    /// Whether the n-nim sum is 0: every column count divisible by n.
    fn n_nim_sum_is_zero(&self, n: usize) -> bool {
        self.masks
            .iter()
            .all(|m| (m.count_ones() as usize).is_multiple_of(n))
    }
}

/// A least set of heaps to lower to reach n-nim sum 0, with the columns' choices.
struct Changes {
    /// The heaps lowered.
    set: u64,
    /// Per column k (index k): heaps already free above it, heaps freed at it, and how
    /// many free heaps carry a 1 in it.
    steps: Vec<(u64, u64, usize)>,
}

/// Subsets of `mask` with at most `most` elements.
fn subsets_up_to(mask: u64, most: usize, out: &mut Vec<u64>) {
    out.clear();
    let bits: Vec<u64> = (0..64).filter(|i| mask >> i & 1 == 1).collect();
    let most = most.min(bits.len());
    let mut idx: Vec<usize> = Vec::with_capacity(most);
    out.push(0);
    for size in 1..=most {
        idx.clear();
        idx.extend(0..size);
        loop {
            out.push(idx.iter().fold(0u64, |m, &j| m | 1 << bits[j]));
            // Next combination in lexicographic order.
            let mut i = size;
            while i > 0 && idx[i - 1] == bits.len() - size + i - 1 {
                i -= 1;
            }
            if i == 0 {
                break;
            }
            idx[i - 1] += 1;
            for j in i..size {
                idx[j] = idx[j - 1] + 1;
            }
        }
    }
}

fn binomial_sum(r: usize, most: usize) -> u128 {
    let mut total = 0u128;
    let mut c = 1u128;
    for j in 0..=most.min(r) {
        total = total.saturating_add(c);
        c = c.saturating_mul((r - j) as u128) / (j as u128 + 1);
    }
    total
}

/// The fewest heaps to lower (each strictly) so that every binary column sums to
/// 0 mod n; with `need_big`, some heap of the result must have ≥ 2 stones. `None`: no
/// set of at most n − 1 heaps does it.
/// The steps a computation may take and have taken, and the query's cancellation.
struct Work<'a> {
    /// Steps allowed in all (one query, or the options of one position).
    budget: u128,
    /// Steps taken so far.
    steps: u128,
    progress: &'a dyn nimlab_engine::Progress,
}

impl Work<'_> {
    /// One query's work: [`MAX_STEPS`].
    fn query(progress: &dyn nimlab_engine::Progress) -> Work<'_> {
        Work {
            budget: MAX_STEPS,
            steps: 0,
            progress,
        }
    }
}

fn fewest_changes(
    cols: &Columns,
    n: usize,
    need_big: bool,
    work: &mut Work<'_>,
) -> Result<Option<Changes>> {
    let most = n - 1;
    let r = cols.heaps();
    let states = binomial_sum(r, most);
    let flags = if need_big { 2 } else { 1 };
    // Not a TooLong error: --force cannot lift this bound (the closed form is not
    // brute force), so the message says what would work instead.
    let too_long = |steps: u128| {
        Error::input(format!(
            "the n-player closed form for {r} heaps and n = {n} would take about {}; it is \
             meant for few heaps (the work grows with the sets of up to n − 1 heaps)",
            nimlab_engine::error::human_duration(steps as f64 / STEPS_PER_SECOND)
        ))
    };
    // Every column visits every state at least once; the choices are counted as they go.
    let least = (cols.masks.len() as u128).saturating_mul(states) * flags;
    let allowed = MAX_STEPS.min(work.budget.saturating_sub(work.steps));
    if least > allowed {
        return Err(too_long(least));
    }
    let mut steps_done: u128 = 0;
    let mut stored: u64 = 0;
    type State = (u64, bool);
    // parents[k]: state after column k → (state before, heaps freed at k, ones).
    let mut parents: Vec<FxHashMap<State, (State, u64, usize)>> =
        vec![FxHashMap::default(); cols.masks.len()];
    let mut current: Vec<State> = vec![(0, false)];
    let mut choices = Vec::new();
    for k in (0..cols.masks.len()).rev() {
        let mask = cols.masks[k];
        let mut next: FxHashMap<State, (State, u64, usize)> = FxHashMap::default();
        for (i, &(set, big)) in current.iter().enumerate() {
            if i % 4096 == 4095 {
                work.progress.check_cancelled()?;
                if steps_done > allowed {
                    break;
                }
            }
            let free = set.count_ones() as usize;
            let avail = mask & !set;
            subsets_up_to(avail, most - free, &mut choices);
            steps_done += choices.len() as u128;
            work.steps += choices.len() as u128;
            for &g in &choices {
                let fixed = (avail.count_ones() - g.count_ones()) as usize;
                let ones = (n - fixed % n) % n;
                if ones > free {
                    continue;
                }
                let freed_big = (0..r).any(|i| g >> i & 1 == 1 && cols.lens[i] > k as u64 + 1);
                let big2 = need_big && (big || (k >= 1 && ones >= 1) || freed_big);
                next.entry((set | g, big2)).or_insert(((set, big), g, ones));
            }
        }
        current = next.keys().copied().collect();
        current.sort_unstable();
        parents[k] = next;
        stored += parents[k].len() as u64;
        if stored * BYTES_PER_STATE > MAX_BYTES {
            return Err(Error::TooLarge {
                what: format!("the n-player closed form for {r} heaps and n = {n}"),
                needed: stored * BYTES_PER_STATE * cols.masks.len() as u64
                    / (cols.masks.len() - k) as u64,
                limit: MAX_BYTES,
            });
        }
        if steps_done > allowed {
            // Extrapolated over the columns still to do.
            let done = (cols.masks.len() - k) as u128;
            return Err(too_long(steps_done * cols.masks.len() as u128 / done));
        }
    }
    let kept_big = |set: u64| (0..r).any(|i| set >> i & 1 == 0 && cols.lens[i] >= 2);
    let best = current
        .iter()
        .filter(|(set, big)| !need_big || *big || kept_big(*set))
        .min_by_key(|(set, _)| set.count_ones())
        .copied();
    let Some(mut state) = best else {
        return Ok(None);
    };
    let set = state.0;
    let mut steps = vec![(0u64, 0u64, 0usize); cols.masks.len()];
    for k in 0..cols.masks.len() {
        let (before, g, ones) = parents[k][&state];
        steps[k] = (before.0, g, ones);
        state = before;
    }
    Ok(Some(Changes { set, steps }))
}

/// The new heap sizes of a [`Changes`]: bits above a heap's freeing column kept, a 0
/// there, and below it the ones each column needs given to the first free heaps.
fn changed_heaps(pos: &[BigUint], ch: &Changes) -> Vec<(usize, BigUint)> {
    let mut out: Vec<(usize, BigUint)> = Vec::new();
    let mut freed_at = vec![None; pos.len()];
    for (k, &(_, g, _)) in ch.steps.iter().enumerate() {
        for (i, f) in freed_at.iter_mut().enumerate() {
            if g >> i & 1 == 1 {
                *f = Some(k as u64);
            }
        }
    }
    let mut new: Vec<BigUint> = pos.to_vec();
    for (i, f) in freed_at.iter().enumerate() {
        if let Some(p) = f {
            new[i] = (&pos[i] >> (p + 1)) << (p + 1);
        }
    }
    for (k, &(free, _, ones)) in ch.steps.iter().enumerate() {
        let mut left = ones;
        for (i, h) in new.iter_mut().enumerate() {
            if left == 0 {
                break;
            }
            if free >> i & 1 == 1 {
                h.set_bit(k as u64, true);
                left -= 1;
            }
        }
    }
    for (i, h) in new.into_iter().enumerate() {
        if ch.set >> i & 1 == 1 {
            out.push((i, h));
        }
    }
    out
}

/// The shifted class ρ (0: the player to move ranks last) and some best moves.
fn classify(
    pos: &[BigUint],
    n: usize,
    l: usize,
    work: &mut Work<'_>,
) -> Result<(usize, Vec<BigPosition>, String)> {
    let cols = Columns::from_big(pos)?;
    let one = BigUint::from(1u32);
    let zero = BigUint::default();
    let set_heap = |i: usize, v: BigUint| {
        let mut p = pos.to_vec();
        p[i] = v;
        p
    };
    let any_move = || -> Vec<BigPosition> {
        pos.iter()
            .position(|h| h > &zero)
            .map(|i| vec![set_heap(i, &pos[i] - 1u32)])
            .unwrap_or_default()
    };
    let theorem = if l == 1 { "Theorem A" } else { "Theorem B" };
    // The n-nim sum itself when it is small enough to show (as in the paper's example).
    let sum_text = nimlab_engine::big::to_small(pos)
        .and_then(|p| n_nim_sum(n as u64, &p).ok())
        .map_or_else(|| "not 0".to_string(), |s| format!("{s} ≠ 0"));
    let all_small = cols.lens.iter().all(|&b| b <= 1);
    if l > 1 && all_small {
        let ones = pos.iter().filter(|h| **h == one).count();
        let rho = (ones % n + n - (l - 1)) % n;
        return Ok((
            rho,
            any_move(),
            format!("{theorem} (Kano): every heap ≤ 1, so play is forced: {ones} moves"),
        ));
    }
    if cols.n_nim_sum_is_zero(n) {
        return Ok((
            0,
            any_move(),
            format!("{theorem} (Kano): the {n}-nim sum is 0, so the player to move ranks last"),
        ));
    }
    let need_big = l > 1;
    let mut best: (usize, Vec<BigPosition>) = (usize::MAX, Vec::new());
    if let Some(ch) = fewest_changes(&cols, n, need_big, work)? {
        let moves: Vec<BigPosition> = changed_heaps(pos, &ch)
            .into_iter()
            .map(|(i, v)| set_heap(i, v))
            .collect();
        best = (ch.set.count_ones() as usize, moves);
    }
    if l > 1 {
        // Down to heaps of 0 or 1 stones, as many as l − 1 (mod n).
        let big: Vec<usize> = (0..pos.len()).filter(|&i| pos[i] > one).collect();
        let ones: Vec<usize> = (0..pos.len()).filter(|&i| pos[i] == one).collect();
        let (h, o) = (big.len(), ones.len());
        for k in 0..=o {
            let j = ((l - 1) % n + n - (o - k) % n) % n;
            if j <= h {
                if h + k < best.0 {
                    let to = if j >= 1 { one.clone() } else { zero.clone() };
                    best = (h + k, vec![set_heap(big[0], to)]);
                }
                break;
            }
        }
        // To the end of the game, whose ρ is n − (l − 1).
        let nonzero: Vec<usize> = (0..pos.len()).filter(|&i| pos[i] > zero).collect();
        let cost = nonzero.len() + n - (l - 1);
        if cost < best.0 {
            best = (cost, vec![set_heap(nonzero[0], zero.clone())]);
        }
    }
    if best.0 >= n {
        return Err(Error::Contract(format!(
            "the n-player closed form found no way to rank for {} (n = {n})",
            nimlab_engine::plan::position_text(pos)
        )));
    }
    Ok((
        best.0,
        best.1,
        format!(
            "{theorem} (Kano): the {n}-nim sum is {sum_text}; {} move{} to a position where the \
             player to move ranks last",
            best.0,
            if best.0 == 1 { "" } else { "s" }
        ),
    ))
}

fn retreat_of(ranking: &Ranking) -> Option<usize> {
    match ranking.kind() {
        RankingKind::Normal => Some(1),
        RankingKind::Retreat(l) => Some(l),
        RankingKind::Permutation => None,
    }
}

impl Kano {
    /// [`NPlayerClosedForm::class_small`] counting its steps in `work`.
    fn class_small_counted(
        &self,
        pos: &[Coord],
        ranking: &Ranking,
        work: &mut Work<'_>,
    ) -> Result<Option<u32>> {
        let Some(l) = retreat_of(ranking) else {
            return Ok(None);
        };
        let n = ranking.players();
        let Some(cols) = Columns::from_small(pos) else {
            return Ok(None);
        };
        let rho = if l > 1 && cols.lens.iter().all(|&b| b <= 1) {
            let ones = pos.iter().filter(|&&h| h == 1).count();
            (ones % n + n - (l - 1)) % n
        } else if cols.n_nim_sum_is_zero(n) {
            0
        } else {
            let mut best = match fewest_changes(&cols, n, l > 1, work) {
                Ok(found) => found.map_or(usize::MAX, |c| c.set.count_ones() as usize),
                Err(e) => return Err(e),
            };
            if l > 1 {
                let h = pos.iter().filter(|&&x| x > 1).count();
                let o = pos.iter().filter(|&&x| x == 1).count();
                if let Some(k) = (0..=o).find(|k| ((l - 1) % n + n - (o - k) % n) % n <= h) {
                    best = best.min(h + k);
                }
                best = best.min(pos.iter().filter(|&&x| x > 0).count() + n - (l - 1));
            }
            best
        };
        Ok((rho < n).then(|| ((rho + l - 1) % n) as u32))
    }
}

impl NPlayerClosedForm for Kano {
    fn classify_big(&self, pos: &[BigUint], ranking: &Ranking) -> Option<Result<BigClass>> {
        self.classify_big_within(pos, ranking, &nimlab_engine::NoProgress)
    }

    fn classify_big_within(
        &self,
        pos: &[BigUint],
        ranking: &Ranking,
        progress: &dyn nimlab_engine::Progress,
    ) -> Option<Result<BigClass>> {
        let l = retreat_of(ranking)?;
        let n = ranking.players();
        Some(
            classify(pos, n, l, &mut Work::query(progress)).map(|(rho, best_moves, method)| {
                BigClass {
                    class: ((rho + l - 1) % n) as u32,
                    best_moves,
                    all_best_moves: false,
                    method,
                }
            }),
        )
    }

    fn class_small(&self, pos: &[Coord], ranking: &Ranking) -> Option<u32> {
        let mut budget = u64::MAX;
        self.class_small_within(pos, ranking, &mut budget, &nimlab_engine::NoProgress)
            .ok()
            .flatten()
    }

    fn class_small_within(
        &self,
        pos: &[Coord],
        ranking: &Ranking,
        budget: &mut u64,
        progress: &dyn nimlab_engine::Progress,
    ) -> Result<Option<u32>> {
        let mut work = Work {
            budget: *budget as u128,
            steps: 0,
            progress,
        };
        let class = self.class_small_counted(pos, ranking, &mut work);
        *budget = budget.saturating_sub(u64::try_from(work.steps).unwrap_or(u64::MAX));
        match class {
            Err(Error::Cancelled) => Err(Error::Cancelled),
            // Over the budget (or a query's bounds): the budget is spent.
            Err(_) => {
                *budget = 0;
                Ok(None)
            }
            Ok(class) => Ok(class),
        }
    }
    fn explain_move(&self, _from: &[BigUint], to: &[BigUint], ranking: &Ranking) -> Option<String> {
        let n = ranking.players();
        let heaps: Vec<u64> = to
            .iter()
            .map(u64::try_from)
            .collect::<std::result::Result<_, _>>()
            .ok()?;
        let sum = n_nim_sum(n as u64, &heaps).ok()?;
        let text: Vec<String> = heaps.iter().map(|h| h.to_string()).collect();
        let theorem = match ranking.kind() {
            RankingKind::Normal if sum == 0 => {
                ", so by Theorem A the next player to move ranks last"
            }
            RankingKind::Normal => {
                " ≠ 0, so by Theorem A the next player to move does not rank last"
            }
            _ => "",
        };
        Some(format!(
            "the {n}-nim sum of {} is {sum}{theorem}",
            text.join(", ")
        ))
    }
}

fn build(args: &Args) -> Result<Box<dyn Game>> {
    let (n, ranking) = crate::nplayer::players_and_ranking(args)?;
    let heaps = args.int("heaps", 1)?;
    if heaps > crate::nim::MAX_TABLE_HEAPS {
        return Err(Error::input(format!(
            "nplayer-nim: heaps sets a table's dimension and must be ≤ {}, got {heaps}",
            crate::nim::MAX_TABLE_HEAPS
        )));
    }
    let mut spec = format!("nplayer-nim(n={n}");
    if ranking.kind() != RankingKind::Normal {
        spec.push_str(&format!(",ranking={}", ranking.spec()));
    }
    if heaps != 2 {
        spec.push_str(&format!(",heaps={heaps}"));
    }
    spec.push(')');
    Ok(Box::new(
        NPlayerGame::new(
            Box::new(Nim {
                heaps: heaps as usize,
            }),
            ranking,
        )
        .with_spec(spec),
    ))
}

/// Checks `claim(position, ρ = 0?)` for every position of up to four heaps in a
/// window, for every ranking given.
fn check_last_place(
    ctx: &nimlab_engine::theorem::CheckContext,
    rankings: &[(String, Ranking)],
    claim: impl Fn(&[Coord], usize, usize) -> bool,
) -> Result<Verdict> {
    let opts = ctx.table_options();
    let mut parts = Vec::new();
    for (label, ranking) in rankings {
        let n = ranking.players();
        let l = retreat_of(ranking).unwrap_or(1);
        let mut checked = 0;
        let mut windows = Vec::new();
        for m in 1..=4usize {
            let side = match m {
                1 => ctx.size.min(256),
                2 => ctx.size.min(64),
                3 => ctx.size.min(16),
                _ => ctx.size.min(8),
            };
            let dims = vec![side; m];
            let game = NPlayerGame::new(Box::new(Nim { heaps: m }), ranking.clone());
            let t = class_table(&game, ranking, &dims, &opts)?;
            for (pos, class) in t.iter() {
                let last = ranking.ranks(class)[0] == n;
                if last != claim(&pos, n, l) {
                    return Ok(Verdict::Fails {
                        counterexample: format!(
                            "{label}: at {} the player to move {} last (class {class}) but the \
                             theorem says it {}",
                            nimlab_engine::game::format_position(&pos),
                            if last { "ranks" } else { "does not rank" },
                            if last { "does not" } else { "does" }
                        ),
                    });
                }
                checked += 1;
            }
            windows.push(describe_window(&dims));
        }
        parts.push((
            label.clone(),
            Verdict::Holds {
                window: windows.join(", "),
                checked,
            },
        ));
    }
    Ok(Verdict::all(parts))
}

fn n_nim_sum_zero(pos: &[Coord], n: usize) -> bool {
    n_nim_sum(n as u64, pos).is_ok_and(|s| s == 0)
}

fn theorems() -> Vec<Theorem> {
    let source = "M. Kano, \"Take-away games played by n players\" (in Japanese, year uncertain), \
                  Theorems A and B [Kano]";
    vec![
        Theorem::new(
            "nplayer-nim.theorem-a",
            "Theorem A (normal type): in Nim played by n players the player to move ranks last \
             iff the n-nim sum of the heaps is 0 (checked for n = 2..5)",
            source,
            |ctx| {
                let rankings = (2..=5)
                    .map(|n| Ok((format!("n={n}"), Ranking::normal(n)?)))
                    .collect::<Result<Vec<_>>>()?;
                check_last_place(ctx, &rankings, |p, n, _| n_nim_sum_zero(p, n))
            },
        ),
        Theorem::new(
            "nplayer-nim.theorem-b",
            "Theorem B (l-retreat type): the player to move ranks last iff some heap has ≥ 2 \
             stones and the n-nim sum is 0, or every heap has ≤ 1 stone and the n-nim sum (the \
             number of 1-heaps mod n) is l − 1 (checked for n = 2..5, every l = 2..n)",
            source,
            |ctx| {
                let mut rankings = Vec::new();
                for n in 2..=5 {
                    for l in 2..=n {
                        rankings.push((format!("n={n} l={l}"), Ranking::retreat(n, l)?));
                    }
                }
                check_last_place(ctx, &rankings, |p, n, l| {
                    if p.iter().any(|&h| h >= 2) {
                        n_nim_sum_zero(p, n)
                    } else {
                        p.iter().filter(|&&h| h == 1).count() % n == l - 1
                    }
                })
            },
        ),
        Theorem::new(
            "nplayer-nim.classes",
            "Every class of n-player Nim (normal and l-retreat types): ρ = 0 as Theorems A/B \
             say, else ρ = the fewest moves to a position with ρ = 0, or to the end plus the \
             end's ρ — nimlab's closed form for heaps of any size (checked for n = 2..5)",
            source,
            |ctx| {
                let opts = ctx.table_options();
                let mut parts = Vec::new();
                for n in 2..=5 {
                    for l in 1..=n {
                        let ranking = Ranking::retreat(n, l)?;
                        let mut checked = 0;
                        let mut windows = Vec::new();
                        for m in 1..=3usize {
                            let side = ctx.size.min(if m == 3 { 12 } else { 32 });
                            let dims = vec![side; m];
                            let game =
                                NPlayerGame::new(Box::new(Nim { heaps: m }), ranking.clone());
                            let t = class_table(&game, &ranking, &dims, &opts)?;
                            for (pos, class) in t.iter() {
                                let closed = Kano.class_small(&pos, &ranking);
                                if closed != Some(class) {
                                    return Ok(Verdict::Fails {
                                        counterexample: format!(
                                            "n={n} {}: class({}) = {class} by the recursion but \
                                             {closed:?} by the closed form",
                                            ranking.spec(),
                                            nimlab_engine::game::format_position(&pos)
                                        ),
                                    });
                                }
                                checked += 1;
                            }
                            windows.push(describe_window(&dims));
                        }
                        parts.push((
                            format!("n={n} {}", ranking.spec()),
                            Verdict::Holds {
                                window: windows.join(", "),
                                checked,
                            },
                        ));
                    }
                }
                Ok(Verdict::all(parts))
            },
        ),
    ]
}

/// Checks a spec that `nplayer-nim` builds is what `nplayer(nim,…)` means, for tests.
#[doc(hidden)]
pub fn same_as_transform(spec: &str) -> Result<bool> {
    let a = parse_game(spec)?;
    let b = parse_game(&format!(
        "nplayer(nim,{})",
        spec.strip_prefix("nplayer-nim(")
            .and_then(|s| s.strip_suffix(')'))
            .unwrap_or_default()
    ))?;
    let opts = TableOptions::default();
    Ok(nimlab_engine::plan::table(&*a, &[6, 6], &opts)?.table
        == nimlab_engine::plan::computed_table(&*b, &[6, 6], &opts)?.table)
}

/// The `nplayer-nim` family.
pub static FAMILY: Family = Family {
    name: "nplayer-nim",
    summary: "Nim played by n players in turn (Kano): classes, every player's rank, best moves",
    params: &[
        crate::nplayer::PLAYERS,
        crate::nplayer::ranking(
            "how players are ranked: normal (the last mover first), the l-retreat type, \
             or any permutation σ (the r-th place goes to the player who moved r−1 moves \
             before the last, counted σ(r))",
        ),
        crate::nim::HEAPS,
    ],
    position_syntax: crate::nim::HEAPS_SYNTAX,
    seed: "M. Kano, \"Take-away games played by n players\" (in Japanese, year uncertain) [Kano]",
    build,
    theorems,
    sweep: None,
};
