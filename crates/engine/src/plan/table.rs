//! The table query ([`super::table()`], [`super::computed_table`], and through them
//! [`super::sequence()`]): its routes, for Grundy values ([`super::route::TABLE_ROUTES`])
//! and for n-player classes ([`super::route::CLASS_TABLE_ROUTES`]).

use super::route::{walk, Route, TableRoute, CLASS_TABLE_ROUTES, TABLE_ROUTES};
use super::{check_cells, check_sequence_work, Method, MethodKind, TableReport};
use crate::capability::Decomposition;
use crate::error::{Error, Result};
use crate::game::{Coord, Game, Position};
use crate::rule::ValueRule;
use crate::table::{
    cell_count, grundy_table, line_kernel_moves, GrundyTable, TableOptions, INVALID,
};
use std::ops::Range;

/// A table query while its routes are tried.
pub(super) struct TableQuery<'q, 'o> {
    game: &'q dyn Game,
    dims: &'q [usize],
    opts: &'q TableOptions<'o>,
    /// Whether closed forms may answer (`false`: computed from the rules only).
    closed_forms: bool,
    rule: ValueRule<'q>,
}

/// The table of `game` over `dims` from the first route that applies and answers.
pub(super) fn table_with(
    game: &dyn Game,
    dims: &[usize],
    opts: &TableOptions,
    closed_forms: bool,
) -> Result<TableReport> {
    crate::table::check_box_dimension(game, dims)?;
    let rule = ValueRule::of(game);
    let routes: &[TableRoute] = if rule.is_grundy() {
        &TABLE_ROUTES
    } else {
        check_flat_layout(game)?;
        // The class routes weigh the recursion's work by the cells: a box whose cells
        // cannot be counted is refused before either.
        cell_count(dims)?;
        &CLASS_TABLE_ROUTES
    };
    let mut q = TableQuery {
        game,
        dims,
        opts,
        closed_forms,
        rule,
    };
    walk(routes, &mut q, |_, e| Err(e))?
        .ok_or_else(|| Error::Contract("no table route answered (brute force always does)".into()))
}

/// [`super::streams_table`]: whether the first route that applies (the one the walk of
/// [`table_with`] would take) is the line kernel, after its estimate and its memory and
/// work checks (their refusals are errors).
pub(super) fn streams_table(game: &dyn Game, dims: &[usize], opts: &TableOptions) -> Result<bool> {
    crate::table::check_box_dimension(game, dims)?;
    let rule = ValueRule::of(game);
    if !rule.is_grundy() {
        return Ok(false);
    }
    let q = TableQuery {
        game,
        dims,
        opts,
        closed_forms: true,
        rule,
    };
    let Some(first) = TABLE_ROUTES.iter().find(|r| (r.applies)(&q)) else {
        return Ok(false);
    };
    if first.kind != MethodKind::LineKernel {
        return Ok(false);
    }
    (first.estimate)(&q)?;
    let Some(moves) = line_kernel_moves(game, dims) else {
        return Ok(false);
    };
    crate::table::check_line_kernel(game, &moves, dims, opts)?;
    Ok(true)
}

/// [`super::table_streamed`]: the line kernel, streamed, when [`streams_table`], else
/// `None`.
pub(super) fn table_streamed(
    game: &dyn Game,
    dims: &[usize],
    opts: &TableOptions,
) -> Result<Option<Method>> {
    if !streams_table(game, dims, opts)? {
        return Ok(None);
    }
    crate::table::grundy_table_streamed(game, dims, opts)?;
    Ok(Some(line_kernel_method()))
}

/// How the line kernel's tables name their method.
fn line_kernel_method() -> Method {
    Method::new(
        MethodKind::LineKernel,
        "line kernel (rook lines and diagonal band)",
    )
}

/// The game's own table kernel, when it handles the box.
pub(super) const TABLE_KERNEL: TableRoute = Route {
    kind: MethodKind::TableKernel,
    summary: "the game's own",
    applies: |q| q.game.capabilities().table_kernel.is_some(),
    // The kernel declines a box it does not handle and checks the memory limit itself.
    estimate: |_| Ok(()),
    run: |q| {
        let Some(kernel) = q.game.capabilities().table_kernel else {
            return Ok(None);
        };
        let Some(t) = kernel.table(q.dims, q.opts.memory_limit) else {
            return Ok(None);
        };
        Ok(Some(TableReport {
            table: t?,
            method: Method::new(MethodKind::TableKernel, kernel.table_method()),
        }))
    },
};

/// A sum's table: each part's table by its own routes, combined by ⊕.
pub(super) const PARTS: TableRoute = Route {
    kind: MethodKind::Components,
    summary: "the parts' tables combined by ⊕",
    applies: |q| {
        matches!(
            q.game.capabilities().decomposition,
            Some(Decomposition::Parts(_))
        )
    },
    // The parts' routes estimate their own tables; the sum's is checked in the run.
    estimate: |_| Ok(()),
    run: |q| {
        let caps = q.game.capabilities();
        let Some(Decomposition::Parts(sum)) = &caps.decomposition else {
            return Ok(None);
        };
        let parts: Vec<(&dyn Game, Range<usize>)> =
            sum.parts().into_iter().zip(sum.box_ranges()).collect();
        parts_table(q.game, &parts, q.dims, q.opts, q.closed_forms).map(Some)
    },
};

/// What every route past the parts' checks first: a table needs positions that are
/// the cells of a box.
fn flat_layout(q: &TableQuery<'_, '_>) -> Result<()> {
    check_flat_layout(q.game)
}

/// The game's one-heap sequence kernel.
pub(super) const SEQUENCE_KERNEL: TableRoute = Route {
    kind: MethodKind::SequenceKernel,
    summary: "one coordinate",
    applies: |q| q.dims.len() == 1 && q.game.capabilities().sequence.is_some(),
    estimate: |q| {
        flat_layout(q)?;
        check_cells(q.game, q.dims, 4, q.opts)?;
        match q.game.capabilities().sequence {
            Some(kernel) => check_sequence_work(q.game, kernel, q.dims[0] as u64, q.opts),
            None => Ok(()),
        }
    },
    run: |q| {
        let Some(kernel) = q.game.capabilities().sequence else {
            return Ok(None);
        };
        let values = kernel.sequence_within(q.dims[0], q.opts)?;
        Ok(Some(TableReport {
            table: GrundyTable::from_parts(q.dims.to_vec(), values)?,
            method: Method::new(MethodKind::SequenceKernel, kernel.sequence_method()),
        }))
    },
};

/// The line kernel over a two-coordinate box (`grundy_table` takes it up).
pub(super) const LINE_KERNEL: TableRoute = Route {
    kind: MethodKind::LineKernel,
    summary: "rook lines and a diagonal band",
    applies: |q| line_kernel_moves(q.game, q.dims).is_some(),
    // `grundy_table` checks the memory limit.
    estimate: flat_layout,
    run: |q| {
        Ok(Some(TableReport {
            table: grundy_table(q.game, q.dims, q.opts)?,
            method: line_kernel_method(),
        }))
    },
};

/// The game's closed form, cell by cell; passes when it does not cover a cell.
pub(super) const CLOSED_FORM: TableRoute = Route {
    kind: MethodKind::ClosedForm,
    summary: "cell by cell",
    applies: |q| q.closed_forms && q.game.capabilities().big.is_some(),
    // The box's memory is checked once the closed form covers its origin.
    estimate: flat_layout,
    run: |q| match q.game.capabilities().big {
        Some(big) => closed_form_table(q.game, big, q.dims, q.opts),
        None => Ok(None),
    },
};

/// Brute force: the mex over the options, cell by cell (the one box walk).
pub(super) const BRUTE_FORCE: TableRoute = Route {
    kind: MethodKind::BruteForce,
    summary: "mex over the options, cell by cell",
    applies: |_| true,
    // `grundy_table` checks the memory limit and the work.
    estimate: flat_layout,
    run: |q| {
        Ok(Some(TableReport {
            table: grundy_table(q.game, q.dims, q.opts)?,
            method: Method::new(
                MethodKind::BruteForce,
                "brute force: mex over the options, cell by cell",
            ),
        }))
    },
};

/// Option visits of the class recursion over the box: the cells times the options of
/// its far corner.
fn recursion_work(q: &TableQuery<'_, '_>) -> u128 {
    let corner: Position = q
        .dims
        .iter()
        .map(|&d| d.saturating_sub(1) as Coord)
        .collect();
    // The cells were counted before the class routes (`table_with`).
    let cells = cell_count(q.dims).unwrap_or(u64::MAX);
    (cells as u128).saturating_mul(crate::table::options_bound(q.game, &corner))
}

/// The ranking of a class query.
fn ranking<'q>(q: &TableQuery<'q, '_>) -> &'q crate::nplayer::Ranking {
    match q.rule {
        ValueRule::Classes(ranking) => ranking,
        ValueRule::Grundy => unreachable!("class routes run under the class rule only"),
    }
}

/// "3 players, normal" for the details.
fn players(ranking: &crate::nplayer::Ranking) -> String {
    format!("{} players, {}", ranking.players(), ranking.spec())
}

/// The n-player closed form cell by cell, once the recursion's work is large
/// ([`RECURSION_PREFERRED`]): the recursion over a box is faster while the options
/// are few; past that, the closed form's cost does not grow with them. Passes when
/// the closed form does not cover a cell.
pub(super) const CLASS_CLOSED_FORM: TableRoute = Route {
    kind: MethodKind::ClosedForm,
    summary: "the n-player closed form cell by cell, once the recursion's work is large",
    applies: |q| {
        q.closed_forms
            && q.game
                .capabilities()
                .nplayer
                .is_some_and(|r| r.closed_form.is_some())
            && recursion_work(q) > RECURSION_PREFERRED
    },
    estimate: |_| Ok(()),
    run: |q| {
        let Some(cf) = q.game.capabilities().nplayer.and_then(|r| r.closed_form) else {
            return Ok(None);
        };
        let ranking = ranking(q);
        let method = Method::new(
            MethodKind::ClosedForm,
            format!(
                "n-player classes ({}) by the game's closed form, cell by cell",
                players(ranking)
            ),
        );
        table_cell_by_cell(
            q.game,
            q.dims,
            q.opts,
            &|p| cf.class_small(p, ranking),
            method,
        )
    },
};

/// The class recursion over the box.
pub(super) const CLASS_BRUTE_FORCE: TableRoute = Route {
    kind: MethodKind::BruteForce,
    summary: "the class recursion, cell by cell",
    applies: |_| true,
    // `class_table` checks the memory limit and the work.
    estimate: |_| Ok(()),
    run: |q| {
        let ranking = ranking(q);
        Ok(Some(TableReport {
            table: crate::nplayer::class_table(q.game, ranking, q.dims, q.opts)?,
            method: Method::new(
                MethodKind::BruteForce,
                format!(
                    "n-player class recursion ({}), cell by cell",
                    players(ranking)
                ),
            ),
        }))
    },
};

/// Refuses a table of a game whose positions are not the cells of a box.
fn check_flat_layout(game: &dyn Game) -> Result<()> {
    if game.form().written != crate::position::Written::Groups {
        return Ok(());
    }
    Err(Error::input(format!(
        "{} has no table: its positions are sums of take-and-break games written part by \
         part; ask for single positions with value or moves",
        game.spec()
    )))
}

/// Steps `pos` to the next position of the box in storage order (first coordinate
/// fastest), wrapping to the origin after the last.
pub(super) fn next_in_box(pos: &mut [Coord], dims: &[usize]) {
    for (c, &d) in pos.iter_mut().zip(dims) {
        *c += 1;
        if *c < d as Coord {
            return;
        }
        *c = 0;
    }
}

/// A sum's table: each part's table over its own box, combined by ⊕.
fn parts_table(
    game: &dyn Game,
    parts: &[(&dyn Game, Range<usize>)],
    dims: &[usize],
    opts: &TableOptions,
    closed_forms: bool,
) -> Result<TableReport> {
    check_cells(game, dims, 4, opts)?;
    let mut tables = Vec::new();
    let mut details = Vec::new();
    for (part, range) in parts {
        let t = table_with(*part, &dims[range.clone()], opts, closed_forms)?;
        details.push(format!("{}: {}", part.spec(), t.method.id()));
        tables.push((t.table, range.clone()));
    }
    let cells = cell_count(dims)? as usize;
    let mut values = vec![0u32; cells];
    // Walk the box in storage order with a carry counter per coordinate.
    let mut pos: Position = vec![0; dims.len()];
    for v in values.iter_mut() {
        let mut acc = 0u32;
        for (t, range) in &tables {
            match t.get(&pos[range.clone()]) {
                Some(g) if acc != INVALID => acc ^= g,
                _ => acc = INVALID,
            }
        }
        *v = acc;
        next_in_box(&mut pos, dims);
    }
    Ok(TableReport {
        table: GrundyTable::from_parts(dims.to_vec(), values)?,
        method: Method::new(
            MethodKind::Components,
            format!("nim-sum of the parts' tables ({})", details.join("; ")),
        ),
    })
}

/// A table from a closed form evaluated cell by cell, when the game offers one.
fn closed_form_table(
    game: &dyn Game,
    big: &dyn crate::capability::BigPositions,
    dims: &[usize],
    opts: &TableOptions,
) -> Result<Option<TableReport>> {
    table_cell_by_cell(
        game,
        dims,
        opts,
        &|pos| big.grundy_small(pos),
        Method::new(
            MethodKind::ClosedForm,
            "the game's closed form, cell by cell",
        ),
    )
}

/// The box walk of the closed-form routes: `cell` values each legal cell; `None` when
/// it does not cover one (the caller then takes another route).
fn table_cell_by_cell(
    game: &dyn Game,
    dims: &[usize],
    opts: &TableOptions,
    cell: &dyn Fn(&[Coord]) -> Option<u32>,
    method: Method,
) -> Result<Option<TableReport>> {
    let origin = vec![0; dims.len()];
    if cell_count(dims)? == 0 || cell(&origin).is_none() {
        return Ok(None);
    }
    check_cells(game, dims, 4, opts)?;
    let cells = cell_count(dims)? as usize;
    let mut values = Vec::with_capacity(cells);
    let mut pos: Position = vec![0; dims.len()];
    opts.progress.start(cells as u64, "cells");
    for i in 0..cells {
        let v = if game.position_error(&pos).is_some() {
            INVALID
        } else {
            match cell(&pos) {
                Some(g) => g,
                None => return Ok(None),
            }
        };
        values.push(v);
        next_in_box(&mut pos, dims);
        if i % (1 << 20) == (1 << 20) - 1 {
            opts.progress.check_cancelled()?;
            opts.progress.advance(1 << 20);
        }
    }
    opts.progress.finish();
    Ok(Some(TableReport {
        table: GrundyTable::from_parts(dims.to_vec(), values)?,
        method,
    }))
}

/// Option visits up to which a class table is computed by the recursion even when a
/// closed form exists (about a second of work).
pub const RECURSION_PREFERRED: u128 = 500_000_000;
