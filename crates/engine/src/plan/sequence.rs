//! The one-heap queries: [`sequence()`] (the table routes over one coordinate),
//! [`periodicity`] (its routes, [`super::route::PERIODICITY_ROUTES`]) and
//! [`row_periodicity`].

use super::route::{walk, PeriodicityAnswer, PeriodicityRoute, Route, PERIODICITY_ROUTES};
use super::{
    check_sequence_work, table, window_too_large, Method, MethodKind, DEFAULT_OBSERVED_WINDOW,
    DEFAULT_PROOF_SEARCH,
};
use crate::error::{Error, Knob, Result};
use crate::game::Game;
use crate::periodicity::{find_arithmetic_period, Periodicity};
use crate::table::{TableOptions, INVALID};

/// G(0), …, G(len − 1) of a one-coordinate game, by the fastest method it offers.
pub fn sequence(game: &dyn Game, len: usize, opts: &TableOptions) -> Result<(Vec<u32>, Method)> {
    if game.dimension() != 1 {
        return Err(Error::input(format!(
            "{} has {} coordinates; a sequence needs a one-heap game",
            game.spec(),
            game.dimension()
        )));
    }
    let t = table(game, &[len], opts)?;
    Ok((t.table.into_values(), t.method))
}

/// A periodicity query while its routes are tried.
pub(super) struct PeriodicityQuery<'q, 'o> {
    game: &'q dyn Game,
    /// The heaps asked for (`None`: the route's default).
    up_to: Option<u64>,
    opts: &'q TableOptions<'o>,
}

/// Preperiod and period of a one-heap game's Grundy sequence: proven when the game has
/// a proof method, else observed on the first `up_to` values. `Ok(None)`: no period
/// seen.
pub fn periodicity(
    game: &dyn Game,
    up_to: Option<u64>,
    opts: &TableOptions,
) -> Result<(Option<Periodicity>, Method, u64)> {
    if game.dimension() != 1 {
        return Err(Error::input(format!(
            "{} has {} coordinates; periodicity of a sequence needs a one-heap game",
            game.spec(),
            game.dimension()
        )));
    }
    let mut q = PeriodicityQuery { game, up_to, opts };
    walk(&PERIODICITY_ROUTES, &mut q, |_, e| Err(e))?.ok_or_else(|| {
        Error::Contract("no periodicity route answered (observation always does)".into())
    })
}

/// The search bound of the proof.
fn proof_bound(q: &PeriodicityQuery<'_, '_>) -> u64 {
    q.up_to.unwrap_or(DEFAULT_PROOF_SEARCH)
}

/// The game's proof: a period certified by its sequence kernel (passes when the
/// kernel has no proof method).
pub(super) const CERTIFIED_PERIOD: PeriodicityRoute = Route {
    kind: MethodKind::CertifiedPeriod,
    summary: "the game's proof",
    applies: |q| q.game.capabilities().sequence.is_some(),
    estimate: |q| match q.game.capabilities().sequence {
        Some(kernel) => check_sequence_work(q.game, kernel, proof_bound(q), q.opts),
        None => Ok(()),
    },
    run: |q| {
        let Some(kernel) = q.game.capabilities().sequence else {
            return Ok(None);
        };
        let bound = proof_bound(q);
        let Some(found) = kernel.certified_periodicity(bound, q.opts.progress) else {
            return Ok(None);
        };
        let answer: PeriodicityAnswer = (
            found?,
            Method::new(MethodKind::CertifiedPeriod, kernel.sequence_method()),
            bound,
        );
        Ok(Some(answer))
    },
};

/// The window of the observation.
fn observed_window(q: &PeriodicityQuery<'_, '_>) -> u64 {
    q.up_to.unwrap_or(DEFAULT_OBSERVED_WINDOW)
}

/// A period observed on the first values of the sequence (by the table routes).
pub(super) const OBSERVED_PERIOD: PeriodicityRoute = Route {
    kind: MethodKind::ObservedPeriod,
    summary: "seen on the sequence",
    applies: |_| true,
    // The sequence's own route estimates its work; a window beyond memory's indices
    // is refused here.
    estimate: |q| {
        let x = observed_window(q);
        usize::try_from(x)
            .map(|_| ())
            .map_err(|_| window_too_large(x))
    },
    run: |q| {
        let x = observed_window(q);
        let len = usize::try_from(x).map_err(|_| window_too_large(x))?;
        let (values, method) = sequence(q.game, len, q.opts)?;
        if values.contains(&INVALID) {
            return Err(Error::input(format!(
                "{} has heaps below {x} that are not positions; no sequence to study",
                q.game.spec()
            )));
        }
        Ok(Some((
            find_arithmetic_period(&values, len / 3, 2),
            Method::new(
                MethodKind::ObservedPeriod,
                format!("observed on n < {x} ({})", method.detail),
            ),
            x,
        )))
    },
};

/// Arithmetic periods of rows `rows` of a two-coordinate game, observed on x < `up_to`.
pub fn row_periodicity(
    game: &dyn Game,
    rows: (u64, u64),
    up_to: u64,
    opts: &TableOptions,
) -> Result<Vec<(u64, Option<Periodicity>)>> {
    if game.dimension() != 2 {
        return Err(Error::input(format!(
            "{} has {} coordinates; rows need a two-coordinate game",
            game.spec(),
            game.dimension()
        )));
    }
    let (first, last) = rows;
    let width = usize::try_from(up_to).map_err(|_| window_too_large(up_to))?;
    let height = last
        .checked_add(1)
        .and_then(|h| usize::try_from(h).ok())
        .ok_or_else(|| {
            Error::out_of_range("the last row", last, "too large for a table", Knob::Row)
        })?;
    let t = table(game, &[width, height], opts)?.table;
    let mut out = Vec::new();
    for y in first..=last {
        let row = &t.values()[y as usize * width..(y as usize + 1) * width];
        if let Some(x_bad) = row.iter().position(|&v| v == INVALID) {
            return Err(Error::input(format!(
                "({x_bad},{y}) is not a position of {}; rows must be all positions",
                game.spec()
            )));
        }
        out.push((y, find_arithmetic_period(row, width / 3, 2)));
    }
    Ok(out)
}
