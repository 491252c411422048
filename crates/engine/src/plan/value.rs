//! The position queries, [`super::value()`] and [`super::moves`]: the `Planner` and its
//! routes, for Grundy values ([`super::route::VALUE_ROUTES`]) and for n-player classes
//! ([`super::route::CLASS_VALUE_ROUTES`]).

use super::route::{walk, PositionRoute, Route, CLASS_VALUE_ROUTES, VALUE_ROUTES};
use super::{
    check_cells, check_sequence_work, listed_coordinates, write_position, Method, MethodKind,
    OptionReport, PositionReport, EXACT_SEQUENCE_LEN, EXACT_VALUE_CELLS, MAX_EVALUATED_COORDINATES,
    MAX_EVALUATED_OPTIONS, MAX_LISTED_OPTIONS, NPLAYER_LISTING_STEPS,
};
use crate::big::{to_small, BigPosition, BigUint};
use crate::capability::Decomposition;
use crate::error::{Error, Result};
use crate::game::{format_position, Coord, Game, Outcome, Position};
use crate::rule::ValueRule;
use crate::solver::Solver;
use crate::table::{
    cell_count, describe_box, grundy_table, line_kernel_moves, GrundyTable, TableOptions, INVALID,
};
use std::ops::Range;

/// Where exact small-position answers come from, kept across the options of a query.
enum Exact<'g> {
    Line(GrundyTable),
    /// A generic table over the box below the position ([`dense_is_cheaper`]).
    Dense(GrundyTable),
    Sequence(Vec<u32>),
    Solver(Box<Solver<'g>>),
}

impl Exact<'_> {
    fn grundy(&mut self, pos: &[Coord]) -> Result<u32> {
        match self {
            Exact::Line(t) | Exact::Dense(t) => t.get(pos).ok_or_else(|| {
                Error::Contract(format!("{} lies outside the table", format_position(pos)))
            }),
            // A one-heap game's option of several coordinates is a sum of heaps.
            Exact::Sequence(v) => pos.iter().try_fold(0u32, |acc, &h| {
                v.get(h as usize)
                    .copied()
                    .filter(|&g| g != INVALID)
                    .map(|g| acc ^ g)
                    .ok_or_else(|| Error::Contract(format!("heap {h} lies outside the sequence")))
            }),
            Exact::Solver(s) => s.grundy(pos),
        }
    }
}

/// Answers position queries of one game under one set of options.
pub(super) struct Planner<'a> {
    game: &'a dyn Game,
    opts: &'a TableOptions<'a>,
    rule: ValueRule<'a>,
}

fn big_of(p: &[Coord]) -> BigPosition {
    p.iter().map(|&c| BigUint::from(c)).collect()
}

impl<'a> Planner<'a> {
    /// The planner of `game`, played by its own value rule.
    pub(super) fn new(game: &'a dyn Game, opts: &'a TableOptions<'a>) -> Self {
        Planner {
            game,
            opts,
            rule: ValueRule::of(game),
        }
    }

    fn check_dimension(&self, pos: &[BigUint]) -> Result<()> {
        if self.game.form().accepts(pos.len()) {
            return Ok(());
        }
        Err(Error::input(format!(
            "position {} has {} coordinate{} but {} needs {}",
            write_position(self.game, pos),
            pos.len(),
            if pos.len() == 1 { "" } else { "s" },
            self.game.spec(),
            self.game.dimension()
        )))
    }

    /// The answer about `pos`: the first of the rule's routes that applies and answers.
    pub(super) fn report(&self, pos: &[BigUint], with_options: bool) -> Result<PositionReport> {
        self.check_dimension(pos)?;
        let small = to_small(pos);
        if let Some(p) = &small {
            self.game.check_position(p)?;
        }
        let mut q = PositionQuery {
            planner: self,
            pos,
            small,
            with_options,
            strategy: None,
        };
        if let ValueRule::Classes(ranking) = self.rule {
            return walk(&CLASS_VALUE_ROUTES, &mut q, PositionQuery::refused)?.ok_or_else(|| {
                Error::input(format!(
                    "position {} is too big for the n-player recursion and {} has no closed \
                     form for the {} ranking",
                    write_position(self.game, pos),
                    self.game.spec(),
                    ranking.spec()
                ))
            });
        }
        // A small position always has an answer (the memoized search applies to any),
        // so only a big one without closed form or strategy reaches the end.
        walk(&VALUE_ROUTES, &mut q, PositionQuery::refused)?.ok_or_else(|| {
            Error::input(format!(
                "position {} is too big for exact computation and {} has no closed-form strategy",
                write_position(self.game, pos),
                self.game.spec()
            ))
        })
    }

    /// Every option of a small position with its value, or why they cannot be listed.
    fn exact_options(
        &self,
        p: &[Coord],
        exact: &mut Exact<'a>,
    ) -> Result<std::result::Result<Vec<OptionReport>, String>> {
        let options = match self.small_options(p) {
            Ok(o) => o,
            Err(note) => return Ok(Err(note)),
        };
        let mut out = Vec::with_capacity(options.len());
        for o in options {
            let g = exact.grundy(&o)?;
            out.push(OptionReport {
                position: big_of(&o),
                grundy: Some(g.into()),
                winning: g == 0,
            });
        }
        Ok(Ok(out))
    }

    /// The distinct options of a small position, if there are few enough to list.
    fn small_options(&self, p: &[Coord]) -> std::result::Result<Vec<Position>, String> {
        let bound = self
            .game
            .max_options(p)
            .unwrap_or_else(|| self.game.rank(p).saturating_mul(2).saturating_add(64));
        if bound > MAX_LISTED_OPTIONS * 4 {
            return Err(format!(
                "not listed: up to about {bound} options (the limit is {MAX_LISTED_OPTIONS})"
            ));
        }
        // The memory limit caps the list too: options × coordinates.
        let fit = (listed_coordinates(self.opts) / p.len().max(1) as u64) as u128;
        let most = MAX_LISTED_OPTIONS.min(fit.max(1));
        let mut seen = rustc_hash::FxHashSet::default();
        let mut list = Vec::new();
        let game = self.game;
        // Heaps valued by classes, not ⊕: options that differ in order are one.
        let sort = !self.rule.is_grundy() && crate::capability::is_heap_multiset(game);
        let mut visited = 0u64;
        game.for_each_option(p, &mut |o| {
            visited += 1;
            if visited.is_multiple_of(4096) {
                self.opts.progress.advance(0); // a heartbeat: the list is bounded
            }
            if (list.len() as u128) < most {
                let mut o = game.canonical(o).unwrap_or_else(|| o.to_vec());
                if sort {
                    crate::capability::canonical_heaps(&mut o);
                }
                if seen.insert(o.clone()) {
                    list.push(o);
                }
            }
        });
        if list.len() as u128 >= most {
            return Err(if most < MAX_LISTED_OPTIONS {
                format!(
                    "not listed: more than {most} options of {} coordinates do not fit the memory limit",
                    p.len()
                )
            } else {
                format!("not listed: more than {MAX_LISTED_OPTIONS} options")
            });
        }
        Ok(list)
    }

    /// Adds the option list to an answer from a closed form or strategy.
    fn with_options(
        &self,
        mut r: PositionReport,
        small: Option<&[Coord]>,
        with_options: bool,
    ) -> Result<PositionReport> {
        if !with_options {
            return Ok(r);
        }
        let caps = self.game.capabilities();
        let listed: std::result::Result<Vec<BigPosition>, String> =
            match (small.map(|p| p.to_vec()).or_else(|| to_small(&r.position)), caps.big) {
                (Some(p), _) => self
                    .small_options(&p)
                    .map(|l| l.iter().map(|o| big_of(o)).collect()),
                (None, Some(big)) => big.big_options(&r.position).ok_or_else(|| {
                    "not listed: the position has coordinates beyond 2^64 (the options are too many to list)"
                        .to_string()
                }),
                (None, None) => Err("not listed: the position is too big".into()),
            };
        match listed {
            Ok(list) => {
                let mut out = Vec::with_capacity(list.len());
                let quick = caps.big.filter(|b| {
                    to_small(&r.position).is_some_and(|p| b.grundy_small(&p).is_some())
                });
                let coords = list.len() as u128 * r.position.len().max(1) as u128;
                if quick.is_none()
                    && (list.len() as u128 > MAX_EVALUATED_OPTIONS
                        || coords > MAX_EVALUATED_COORDINATES)
                {
                    r.options_note = Some(format!(
                        "not listed: {} options of {} coordinates, each needing its own evaluation (the limit is {MAX_EVALUATED_OPTIONS} options, {MAX_EVALUATED_COORDINATES} coordinates in all)",
                        list.len(),
                        r.position.len()
                    ));
                    return Ok(r);
                }
                for o in list {
                    if let Some(g) =
                        quick.and_then(|b| to_small(&o).and_then(|p| b.grundy_small(&p)))
                    {
                        out.push(OptionReport {
                            position: o,
                            grundy: Some(g.into()),
                            winning: g == 0,
                        });
                        continue;
                    }
                    // Each option by the same planner, without its own options.
                    let a = self.report(&o, false);
                    let (g, outcome) = match a {
                        Ok(a) => (a.grundy, Some(a.outcome)),
                        Err(Error::Cancelled) => return Err(Error::Cancelled),
                        Err(_) => (None, None),
                    };
                    out.push(OptionReport {
                        position: o,
                        grundy: g,
                        winning: outcome == Some(Outcome::P),
                    });
                }
                r.options = Some(out);
            }
            Err(note) => r.options_note = Some(note),
        }
        Ok(r)
    }

    /// Splits `pos` into its components (when the game decomposes and there are
    /// several) and answers from the parts.
    fn by_components(&self, pos: &[BigUint], with_options: bool) -> Result<Option<PositionReport>> {
        let caps = self.game.capabilities();
        let Some(split) = Split::of(self.game, &caps.decomposition, pos) else {
            return Ok(None);
        };
        let mut reports = Vec::new();
        for (g, r) in &split.parts {
            reports.push(Planner::new(*g, self.opts).report(&pos[r.clone()], false)?);
            self.opts.progress.check_cancelled()?; // a cancelled query stops between parts
        }
        let method = split.method(&reports, pos);
        let unknown: Vec<usize> = (0..reports.len())
            .filter(|&i| reports[i].grundy.is_none())
            .collect();
        let known_sum = reports
            .iter()
            .filter_map(|a| a.grundy.as_ref())
            .fold(BigUint::default(), |acc, g| acc ^ g);
        let mut report = match unknown.as_slice() {
            [] => {
                let total = known_sum;
                let (winning, all) = self.winning_by_nim_sum(&split, &reports, pos, &total)?;
                PositionReport {
                    position: pos.to_vec(),
                    outcome: if total == BigUint::default() {
                        Outcome::P
                    } else {
                        Outcome::N
                    },
                    grundy: Some(total),
                    winning_moves: winning,
                    all_winning_moves: all,
                    options: None,
                    options_note: None,
                    method,
                    nplayer: None,
                }
            }
            [i] if known_sum == BigUint::default() => {
                // The others sum to 0: the outcome is that component's.
                let a = &reports[*i];
                PositionReport {
                    position: pos.to_vec(),
                    grundy: None,
                    outcome: a.outcome,
                    winning_moves: a
                        .winning_moves
                        .iter()
                        .map(|m| split.splice(pos, *i, m))
                        .collect(),
                    all_winning_moves: false,
                    options: None,
                    options_note: None,
                    method,
                    nplayer: None,
                }
            }
            _ => {
                let i = unknown[0];
                return Err(Error::input(format!(
                    "cannot value {} at {}: component {} ({}) has no known Grundy value at this size",
                    self.game.spec(),
                    write_position(self.game, pos),
                    i + 1,
                    split.parts[i].0.spec()
                )));
            }
        };
        if split.heaps {
            // Heaps form a multiset: one canonical order per move.
            for m in report.winning_moves.iter_mut() {
                crate::capability::canonical_heaps(m);
            }
            report.winning_moves.sort();
            report.winning_moves.dedup();
        }
        if with_options {
            report = self.with_options(report, None, true)?;
            if let Some(list) = &report.options {
                // Winning moves from the full option list when it could be made.
                if report.grundy.is_some() {
                    report.winning_moves = list
                        .iter()
                        .filter(|o| o.winning)
                        .map(|o| o.position.clone())
                        .collect();
                    report.all_winning_moves = true;
                }
            }
        }
        Ok(Some(report))
    }

    /// The winning moves of a sum of known value `total`: in each part, the options of
    /// value g ⊕ total, spliced back into the whole position; with whether the list is
    /// complete (it is bounded by the memory limit).
    fn winning_by_nim_sum(
        &self,
        split: &Split<'_>,
        reports: &[PositionReport],
        pos: &[BigUint],
        total: &BigUint,
    ) -> Result<(Vec<BigPosition>, bool)> {
        let mut winning = Vec::new();
        let mut all = true;
        // Each winning move is a whole position: the list is bounded by the
        // memory limit (then marked incomplete).
        let most = listed_coordinates(self.opts) / pos.len().max(1) as u64;
        // Equal heaps give the same moves once heaps are sorted: one of each.
        let mut heaps_done = rustc_hash::FxHashSet::default();
        if *total != BigUint::default() {
            for (i, a) in reports.iter().enumerate() {
                if split.heaps && !heaps_done.insert(&pos[split.parts[i].1.clone()]) {
                    continue;
                }
                let g = a.grundy.as_ref().expect("known");
                // Any option of value g ⊕ T wins, also one above g (options
                // of larger value exist in most games).
                let target = g ^ total;
                let r = split.parts[i].1.clone();
                match Planner::new(split.parts[i].0, self.opts).moves_to_value(&pos[r], &target) {
                    Some(list) if (winning.len() + list.len()) as u64 <= most => {
                        winning.extend(list.iter().map(|m| split.splice(pos, i, m)))
                    }
                    Some(_) | None => all = false,
                }
                self.opts.progress.check_cancelled()?;
            }
        }
        Ok((winning, all))
    }

    /// Options of `pos` whose value is `target`, when they can be found.
    fn moves_to_value(&self, pos: &[BigUint], target: &BigUint) -> Option<Vec<BigPosition>> {
        let caps = self.game.capabilities();
        if let Some(found) = caps.big.and_then(|b| b.moves_to_value(pos, target)) {
            return Some(found);
        }
        let r = self.report(pos, true).ok()?;
        let options = r.options?;
        Some(
            options
                .into_iter()
                .filter(|o| o.grundy.as_ref() == Some(target))
                .map(|o| o.position)
                .collect(),
        )
    }
}

/// A position query while its routes are tried.
pub(super) struct PositionQuery<'q, 'a> {
    planner: &'q Planner<'a>,
    pos: &'q [BigUint],
    /// The position in machine words, when it fits: what the exact routes need.
    small: Option<Position>,
    with_options: bool,
    /// The game's strategy, when its closed form gave the outcome but no value: the
    /// last route, and the answer when an exact route is beyond the limits.
    strategy: Option<PositionReport>,
}

impl<'a> PositionQuery<'_, 'a> {
    fn game(&self) -> &'a dyn Game {
        self.planner.game
    }

    fn opts(&self) -> &'a TableOptions<'a> {
        self.planner.opts
    }

    /// The position in machine words; the exact routes apply to such positions only.
    fn small(&self) -> &[Coord] {
        self.small
            .as_deref()
            .expect("an exact route applies to positions of machine words only")
    }

    /// Whether the exact routes work within the tighter budgets of a query the
    /// strategy can answer.
    fn has_fallback(&self) -> bool {
        self.strategy.is_some()
    }

    /// The query's answer to a refusal: the exact value is beyond the limits (memory,
    /// time, a box too big), so the strategy answers the outcome and a winning move
    /// when the game has one; otherwise the refusal is the answer.
    fn refused(&mut self, e: Error) -> Result<PositionReport> {
        match (e, self.strategy.take()) {
            (Error::TooLarge { .. } | Error::TooLong { .. } | Error::Input(_), Some(r)) => self
                .planner
                .with_options(r, self.small.as_deref(), self.with_options),
            (e, _) => Err(e),
        }
    }

    /// The run of an exact route: `build` makes the evaluator, which values the
    /// position and then each option. A failure to build or to value the position is
    /// a refusal ([`PositionQuery::refused`]: the strategy may answer instead, as
    /// when the estimate refuses); a failure while valuing the options is not.
    fn exactly(
        &mut self,
        build: impl FnOnce(&Planner<'a>, &[Coord]) -> Result<(Exact<'a>, Method)>,
    ) -> Result<Option<PositionReport>> {
        let planner = self.planner;
        let p = self.small().to_vec();
        let attempt = build(planner, &p).and_then(|(mut exact, method)| {
            let g = exact.grundy(&p)?;
            Ok((exact, method, g))
        });
        let (mut exact, method, g) = match attempt {
            Ok(found) => found,
            Err(e) => return self.refused(e).map(Some),
        };
        let mut r = PositionReport::of_value(self.pos.to_vec(), g, method);
        match planner.exact_options(&p, &mut exact)? {
            Ok(list) => {
                r.winning_moves = list
                    .iter()
                    .filter(|o| o.winning)
                    .map(|o| o.position.clone())
                    .collect();
                if self.with_options {
                    r.options = Some(list);
                }
            }
            Err(note) => {
                r.all_winning_moves = false;
                r.options_note = Some(note);
            }
        }
        Ok(Some(r))
    }

    /// The ranking of a query under the class rule.
    fn ranking(&self) -> &'a crate::nplayer::Ranking {
        match self.planner.rule {
            ValueRule::Classes(ranking) => ranking,
            ValueRule::Grundy => unreachable!("class routes run under the class rule only"),
        }
    }

    /// The answer of a class route: best moves from the listed options when they could
    /// be listed.
    fn classes(&self, found: Classes) -> PositionReport {
        let Classes {
            class,
            mut best,
            mut all_best,
            method,
            listed,
            listing_note,
        } = found;
        let ranking = self.ranking();
        let with_options = self.with_options;
        if let Some(list) = &listed {
            let rule = ValueRule::Classes(ranking);
            best = list
                .iter()
                .filter(|(_, c)| rule.is_best_option(class, *c))
                .map(|(o, _)| big_of(o))
                .collect();
            all_best = true;
        }
        let ranks = ranking.ranks(class);
        let n = ranking.players();
        let options = if with_options {
            listed.map(|l| l.into_iter().map(|(o, c)| (big_of(&o), c)).collect())
        } else {
            None
        };
        let options_note = (with_options && options.is_none()).then(|| {
            listing_note
                .unwrap_or_else(|| "not listed: too many options or too big a position".to_string())
        });
        PositionReport {
            position: self.pos.to_vec(),
            grundy: None,
            // Two-player words where they fit: the player to move "loses" iff it ranks last.
            outcome: if ranks[0] == n {
                Outcome::P
            } else {
                Outcome::N
            },
            winning_moves: best.clone(),
            all_winning_moves: all_best,
            options: None,
            options_note,
            method,
            nplayer: Some(crate::nplayer::ClassReport {
                ranking: ranking.spec(),
                players: n,
                class,
                ranks,
                best_moves: best,
                all_best_moves: all_best,
                options,
                rank_after: (0..n as u32).map(|c| ranking.mover_rank_after(c)).collect(),
            }),
        }
    }
}

/// What a class route found, before the best moves are read off the options.
struct Classes {
    class: u32,
    best: Vec<BigPosition>,
    all_best: bool,
    method: Method,
    /// Every option with its class, when they could be listed.
    listed: Option<Vec<(Position, u32)>>,
    /// Why they could not, when the route knows better than "too many".
    listing_note: Option<String>,
}

// The Grundy routes, in the order of `VALUE_ROUTES`.

/// The game's closed form, for positions of any size. A closed form that gives only
/// the outcome (a strategy) does not answer here: the exact routes may still find the
/// value, and the strategy is kept for the last route and for their refusals.
pub(super) const CLOSED_FORM: PositionRoute = Route {
    kind: MethodKind::ClosedForm,
    summary: "any size",
    applies: |q| q.game().capabilities().big.is_some(),
    // The closed form bounds its own work (`analyse_big_within`).
    estimate: |_| Ok(()),
    run: closed_form_run,
};

fn closed_form_run(q: &mut PositionQuery<'_, '_>) -> Result<Option<PositionReport>> {
    let caps = q.game().capabilities();
    let Some(big) = caps.big else {
        return Ok(None);
    };
    let Some(a) = big.analyse_big_within(q.pos, q.opts()) else {
        return Ok(None);
    };
    let mut r = PositionReport::from_big(a?);
    if matches!(caps.decomposition, Some(Decomposition::Heaps)) {
        for m in r.winning_moves.iter_mut() {
            crate::capability::canonical_heaps(m);
        }
        r.winning_moves.sort();
        r.winning_moves.dedup();
    }
    if r.grundy.is_some() {
        return q.planner.with_options(r, None, q.with_options).map(Some);
    }
    q.strategy = Some(r);
    Ok(None)
}

/// A sum valued part by part, combined by ⊕. Not tried once the closed form has left a
/// strategy (as before the routes were values): the strategy then answers a position
/// too big for the exact routes, and the exact routes a small one.
pub(super) const COMPONENTS: PositionRoute = Route {
    kind: MethodKind::Components,
    summary: "the parts' values combined by ⊕",
    applies: |q| !q.has_fallback() && q.game().capabilities().decomposition.is_some(),
    // Each part is planned (and estimated) by its own routes.
    estimate: |_| Ok(()),
    run: |q| q.planner.by_components(q.pos, q.with_options),
};

/// A misère heap game of many heaps: the outcome from its misère quotient
/// ([`crate::misere_quotient::plan_report`], which passes when the quotient does not
/// settle within the route's budget or the exact search is quick).
pub(super) const MISERE_QUOTIENT: PositionRoute = Route {
    kind: MethodKind::MisereQuotient,
    summary: "misère heap games of many heaps: outcome only",
    applies: |q| q.small.is_some() && crate::misere_quotient::route_applies(q.game()),
    // The quotient is bounded in elements, memory and time by the route itself.
    estimate: |_| Ok(()),
    run: |q| crate::misere_quotient::plan_report(q.game(), q.small(), q.opts(), q.with_options),
};

/// The box `[0, p0] × [0, p1]` of a two-coordinate position.
fn line_box(p: &[Coord]) -> Result<[usize; 2]> {
    let big_box = || {
        Error::input(format!(
            "{} is too big for an exact table",
            format_position(p)
        ))
    };
    Ok([
        usize::try_from(p[0].checked_add(1).ok_or_else(big_box)?).map_err(|_| big_box())?,
        usize::try_from(p[1].checked_add(1).ok_or_else(big_box)?).map_err(|_| big_box())?,
    ])
}

/// The line kernel over the box below a two-coordinate position.
pub(super) const LINE_KERNEL: PositionRoute = Route {
    kind: MethodKind::LineKernel,
    summary: "over the position's box",
    applies: |q| {
        let Some(p) = q.small.as_deref() else {
            return false;
        };
        // A box beyond the machine's words applies: its estimate refuses it.
        p.len() == 2
            && q.game().is_downward_closed()
            && line_box(p).map_or(true, |dims| line_kernel_moves(q.game(), &dims).is_some())
    },
    estimate: |q| {
        let game = q.game();
        let dims = line_box(q.small())?;
        let Some(moves) = line_kernel_moves(game, &dims) else {
            return Ok(());
        };
        let cells = cell_count(&dims)?;
        if q.has_fallback() && cells > EXACT_VALUE_CELLS {
            return Err(Error::input("box beyond the exact-value budget"));
        }
        let needed = crate::kernels::line::line_table_bytes(&moves, dims[0], dims[1])?;
        q.opts().memory_limit.check(
            &format!("{} for {}", describe_box(&dims), game.spec()),
            needed,
        )
    },
    run: |q| {
        q.exactly(|planner, p| {
            let dims = line_box(p)?;
            let t = grundy_table(planner.game, &dims, planner.opts)?;
            Ok((
                Exact::Line(t),
                Method::new(
                    MethodKind::LineKernel,
                    format!(
                        "line kernel over the box {}",
                        describe_box(&dims).trim_start_matches("table ")
                    ),
                ),
            ))
        })
    },
};

/// The game's sequence kernel up to a one-heap position.
pub(super) const SEQUENCE_KERNEL: PositionRoute = Route {
    kind: MethodKind::SequenceKernel,
    summary: "up to the heap",
    applies: |q| {
        q.small.as_deref().is_some_and(|p| {
            p.len() == 1
                && q.game().capabilities().sequence.is_some()
                && q.game().dimension() == 1
                && p[0] < EXACT_SEQUENCE_LEN
        })
    },
    estimate: |q| {
        let game = q.game();
        let len = q.small()[0] as usize + 1;
        check_cells(game, &[len], 4, q.opts())?;
        match game.capabilities().sequence {
            Some(kernel) => check_sequence_work(game, kernel, len as u64, q.opts()),
            None => Ok(()),
        }
    },
    run: |q| {
        q.exactly(|planner, p| {
            let Some(kernel) = planner.game.capabilities().sequence else {
                return Err(Error::Contract("the sequence route needs a kernel".into()));
            };
            let values = kernel.sequence_within(p[0] as usize + 1, planner.opts)?;
            Ok((
                Exact::Sequence(values),
                Method::new(MethodKind::SequenceKernel, kernel.sequence_method()),
            ))
        })
    },
};

/// A generic table over the box below the position, where that is cheaper than the
/// memoized search ([`dense_is_cheaper`]).
pub(super) const DENSE_BRUTE_FORCE: PositionRoute = Route {
    kind: MethodKind::BruteForce,
    summary: "a table over the position's box, where cheaper than the search",
    applies: |q| {
        let Some(p) = q.small.as_deref() else {
            return false;
        };
        // `dense_is_cheaper` has counted the cells of the box it returns.
        dense_is_cheaper(q.game(), p, q.opts()).is_some_and(|dims| {
            cell_count(&dims).is_ok_and(|cells| !(q.has_fallback() && cells > EXACT_VALUE_CELLS))
        })
    },
    // `dense_is_cheaper` accepts only work the search would take on and a table that
    // fits in memory.
    estimate: |_| Ok(()),
    run: |q| {
        q.exactly(|planner, p| {
            let dims = dense_is_cheaper(planner.game, p, planner.opts)
                .ok_or_else(|| Error::Contract("the dense route's box changed".into()))?;
            let t = grundy_table(planner.game, &dims, planner.opts)?;
            let method = format!(
                "brute force: mex over the options, cell by cell, over the box {}",
                describe_box(&dims).trim_start_matches("table ")
            );
            Ok((Exact::Dense(t), Method::new(MethodKind::BruteForce, method)))
        })
    },
};

/// Pruned search for the nimber ([`crate::search`]), where the memoized search's
/// estimate is too big ([`super::search::preferred`]).
pub(super) const SEARCH: PositionRoute = Route {
    kind: MethodKind::Search,
    summary: "pruned search for the nimber, where the memoized search is too big",
    applies: |q| {
        q.small
            .as_deref()
            .is_some_and(|p| super::search::preferred(q.game(), p))
    },
    // The transposition table forgets rather than outgrow the memory limit.
    estimate: |_| Ok(()),
    run: |q| {
        let settings = super::SearchSettings::default();
        match super::search_value(q.game(), q.pos, q.opts(), &settings, q.with_options) {
            Ok(r) => Ok(Some(r)),
            Err(e) => q.refused(e).map(Some),
        }
    },
};

/// The memoized search over every reachable position.
pub(super) const SOLVER_BRUTE_FORCE: PositionRoute = Route {
    kind: MethodKind::BruteForce,
    summary: "memoized search over every reachable position",
    applies: |q| q.small.is_some(),
    // The memoized search estimates its work only where the positions below the
    // position bound what it reaches (moves lower every coordinate) or where it
    // counts multisets; elsewhere (a move may raise a coordinate: Fibonacci Nim's
    // limit) it cannot, and with a strategy to answer instead it is not started
    // (an unestimated search of hours for a value the strategy does not need).
    estimate: |q| {
        let game = q.game();
        let estimable = game.is_downward_closed() || game.capabilities().heap_multiset;
        if q.has_fallback() && !estimable {
            return Err(Error::input(
                "the memoized search's work cannot be estimated here",
            ));
        }
        Ok(())
    },
    run: |q| {
        q.exactly(|planner, _| {
            Ok((
                Exact::Solver(Box::new(Solver::with_options(planner.game, planner.opts))),
                Method::new(
                    MethodKind::BruteForce,
                    "brute force: memoized mex over every reachable position",
                ),
            ))
        })
    },
};

/// The game's strategy: outcome and winning moves, no value. Reached by a position too
/// big for the exact routes (a refusal of theirs reaches it directly).
pub(super) const STRATEGY: PositionRoute = Route {
    kind: MethodKind::Strategy,
    summary: "outcome and winning moves only",
    applies: |q| q.has_fallback(),
    estimate: |_| Ok(()),
    run: |q| match q.strategy.take() {
        Some(r) => q
            .planner
            .with_options(r, q.small.as_deref(), q.with_options)
            .map(Some),
        None => Ok(None),
    },
};

// The class routes, in the order of `CLASS_VALUE_ROUTES`.

/// The game's closed form for n-player classes, for positions of any size; passes
/// when it does not cover the position.
pub(super) const CLASS_CLOSED_FORM: PositionRoute = Route {
    kind: MethodKind::ClosedForm,
    summary: "the n-player closed form, any size",
    applies: |q| {
        q.game()
            .capabilities()
            .nplayer
            .is_some_and(|r| r.closed_form.is_some())
    },
    // The closed form bounds its own work (`classify_big_within`), and the listing
    // of the options by `NPLAYER_LISTING_STEPS`.
    estimate: |_| Ok(()),
    run: class_closed_form_run,
};

fn class_closed_form_run(q: &mut PositionQuery<'_, '_>) -> Result<Option<PositionReport>> {
    let ranking = q.ranking();
    let Some(cf) = q.game().capabilities().nplayer.and_then(|r| r.closed_form) else {
        return Ok(None);
    };
    let Some(found) = cf.classify_big_within(q.pos, ranking, q.opts().progress) else {
        return Ok(None);
    };
    let found = found?;
    let mut listing_note = None;
    // Small positions: every option's class from the closed form as well, within the
    // work of a query, reporting each option and stopping when cancelled.
    let listed = match q.small.as_deref().map(|p| q.planner.small_options(p)) {
        Some(Ok(list)) => {
            let mut budget = NPLAYER_LISTING_STEPS;
            let progress = q.opts().progress;
            progress.start(list.len() as u64, "options classified");
            let mut out = Vec::with_capacity(list.len());
            for o in list {
                progress.check_cancelled()?;
                match cf.class_small_within(&o, ranking, &mut budget, progress)? {
                    Some(c) => out.push((o, c)),
                    None => {
                        if budget == 0 {
                            listing_note = Some(
                                "not listed: classifying every option by the closed \
                                 form would take too long"
                                    .to_string(),
                            );
                        }
                        break;
                    }
                }
                progress.advance(1);
            }
            progress.finish();
            (listing_note.is_none() && out.len() == out.capacity()).then_some(out)
        }
        _ => None,
    };
    Ok(Some(q.classes(Classes {
        class: found.class,
        best: found.best_moves,
        all_best: found.all_best_moves,
        method: Method::new(MethodKind::ClosedForm, found.method),
        listed,
        listing_note,
    })))
}

/// The class recursion on a small position: over the box below it when that is
/// cheaper, else memoized.
pub(super) const CLASS_BRUTE_FORCE: PositionRoute = Route {
    kind: MethodKind::BruteForce,
    summary: "the class recursion, over the position's box or memoized",
    applies: |q| q.small.is_some(),
    // The box is chosen by `dense_is_cheaper` (work and memory); the search and the
    // table check their own limits.
    estimate: |_| Ok(()),
    run: class_brute_force_run,
};

fn class_brute_force_run(q: &mut PositionQuery<'_, '_>) -> Result<Option<PositionReport>> {
    let game = q.game();
    let ranking = q.ranking();
    let opts = q.opts();
    let p = q.small();
    // As for Grundy values: a table over the box below p reads each option from an
    // array where the memoized search hashes it, when that is cheaper.
    type ClassOf<'s> = Box<dyn FnMut(&[Coord]) -> Result<u32> + 's>;
    let (mut class_of, how): (ClassOf, String) = match dense_is_cheaper(game, p, opts) {
        Some(dims) => {
            let table = crate::nplayer::class_table(game, ranking, &dims, opts)?;
            let lookup = move |x: &[Coord]| {
                table
                    .get(x)
                    .filter(|&c| c != crate::INVALID)
                    .ok_or_else(|| {
                        Error::input(format!(
                            "{} is not a position of {}",
                            crate::game::format_position(x),
                            game.spec()
                        ))
                    })
            };
            (
                Box::new(lookup),
                format!(
                    "cell by cell over the box {}",
                    describe_box(&dims).trim_start_matches("table ")
                ),
            )
        }
        None => {
            let mut solver = Solver::with_rule_and_options(game, ValueRule::Classes(ranking), opts);
            (
                Box::new(move |x: &[Coord]| solver.value(x)),
                "memoized over every reachable position".to_string(),
            )
        }
    };
    let class = class_of(p)?;
    let listed = match q.planner.small_options(p) {
        Ok(list) => Some(
            list.into_iter()
                .map(|o| class_of(&o).map(|c| (o, c)))
                .collect::<Result<Vec<_>>>()?,
        ),
        Err(_) => None,
    };
    let method = Method::new(
        MethodKind::BruteForce,
        format!(
            "n-player class recursion ({} players, {}): {how}",
            ranking.players(),
            ranking.spec()
        ),
    );
    Ok(Some(q.classes(Classes {
        class,
        best: Vec::new(),
        all_best: false,
        method,
        listed,
        listing_note: None,
    })))
}

/// The box below `p` when a generic table over it is cheaper than memoized search from
/// `p`. In a game whose moves lower the coordinates, memoized search visits every
/// position below `p` that is reachable — for most such games all of the box — paying a
/// hash look-up per option where the table pays an array read (about ten times less;
/// e.g. rook-and-knight moves at (1000, 999): 145 s memoized, 7.8 s as a table). Games
/// the solver shortens (sums of heaps, heap multisets, decompositions) keep the solver,
/// and so do a box whose table would not fit in memory and work the solver's estimate
/// refuses.
fn dense_is_cheaper(game: &dyn Game, p: &[Coord], opts: &TableOptions) -> Option<Vec<usize>> {
    let caps = game.capabilities();
    if !game.is_downward_closed()
        || !game.form().is_box()
        || caps.heap_multiset
        || caps.decomposition.is_some()
        || crate::capability::is_sum_of_heaps(game)
        || p.len() != game.dimension()
    {
        return None;
    }
    let dims = p
        .iter()
        .map(|&c| c.checked_add(1).and_then(|d| usize::try_from(d).ok()))
        .collect::<Option<Vec<usize>>>()?;
    let bytes = crate::table::estimate_table_bytes(&dims, true).ok()?;
    // Only work the solver itself would take on: a refusal stays a refusal (with its
    // estimate), the table only makes accepted work cheaper.
    let positions = cell_count(&dims).ok()? as u128;
    let options = crate::table::options_bound(game, p);
    let accepted = crate::table::check_work("", positions, options, opts.force).is_ok();
    (accepted && bytes <= opts.memory_limit.bytes()).then_some(dims)
}

/// A position split into its components: each part's game and its coordinates.
struct Split<'g> {
    parts: Vec<(&'g dyn Game, Range<usize>)>,
    /// The sum the parts belong to, when the game is one.
    sum: Option<&'g dyn crate::capability::Components>,
    /// Whether every coordinate is one heap of the game itself (a multiset of heaps).
    heaps: bool,
}

impl<'g> Split<'g> {
    /// The components of `pos` when the game decomposes and there are several.
    fn of(
        game: &'g dyn Game,
        decomposition: &Option<Decomposition<'g>>,
        pos: &[BigUint],
    ) -> Option<Self> {
        match decomposition {
            Some(Decomposition::Parts(sum)) if sum.parts().len() > 1 => {
                // not laid out as the sum: leave it to the game
                let ranges = sum.split(pos)?;
                Some(Split {
                    parts: sum.parts().into_iter().zip(ranges).collect(),
                    sum: Some(*sum),
                    heaps: false,
                })
            }
            Some(Decomposition::Heaps) if pos.len() > 1 => Some(Split {
                parts: (0..pos.len()).map(|i| (game, i..i + 1)).collect(),
                sum: None,
                heaps: true,
            }),
            _ => None,
        }
    }

    /// The method: the nim-sum of the parts' values, each part's route named.
    fn method(&self, reports: &[PositionReport], pos: &[BigUint]) -> Method {
        let methods: Vec<String> = self
            .parts
            .iter()
            .zip(reports)
            .map(|((g, r), a)| {
                format!(
                    "{} at {}: {}",
                    g.spec(),
                    write_position(*g, &pos[r.clone()]),
                    a.method.id()
                )
            })
            .collect();
        Method::new(
            MethodKind::Components,
            format!("nim-sum of the components' values ({})", methods.join("; ")),
        )
    }

    /// The whole position after `part_move` in part `i`.
    fn splice(&self, pos: &[BigUint], i: usize, part_move: &[BigUint]) -> BigPosition {
        if let Some(sum) = self.sum {
            let mut pieces: Vec<&[BigUint]> =
                self.parts.iter().map(|(_, r)| &pos[r.clone()]).collect();
            pieces[i] = part_move;
            return sum.join(&pieces);
        }
        let r = &self.parts[i].1;
        let mut next: BigPosition = pos[..r.start].to_vec();
        next.extend_from_slice(part_move);
        next.extend_from_slice(&pos[r.end..]);
        if next.is_empty() {
            next.push(BigUint::default());
        }
        next
    }
}
