//! The planner's routes as values, and the ordered list of them for each query.
//!
//! A [`Route`] is one way of answering a query: its [`MethodKind`] (the id every answer
//! names), a short description for people, and three functions — whether it applies to
//! the query at hand, what it estimates its cost to be (a typed refusal,
//! [`Error::TooLarge`] or [`Error::TooLong`], instead of hours of silent work), and the
//! run that answers. [`walk`] tries the routes of a query in order; the first that
//! applies and answers wins. A route whose run finds it does not cover the query after
//! all (a kernel that declines a box, a closed form silent on a cell) answers `None`,
//! and the walk goes on.
//!
//! The lists below are the whole of the planner's preference order: the route table
//! of `docs/architecture.md` is [`route_table`] (a test compares them).

use super::sequence::PeriodicityQuery;
use super::table::TableQuery;
use super::value::PositionQuery;
use super::{sequence, table, value, PositionReport, TableReport};
use crate::error::{Error, Result};
use crate::periodicity::Periodicity;

/// The routes of the planner: every answer names the one that produced it. The same
/// routes answer two-player Grundy values and n-player classes (`ValueRule`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MethodKind {
    /// The game's closed form (a theorem), for positions of any size.
    ClosedForm,
    /// The game's winning strategy: outcome and winning moves, no value.
    Strategy,
    /// The parts of a sum valued one by one and combined by ⊕.
    Components,
    /// The line kernel over a box (rook lines and a diagonal band).
    LineKernel,
    /// The game's one-heap sequence kernel.
    SequenceKernel,
    /// A period proven by the game's sequence kernel.
    CertifiedPeriod,
    /// The game's own table kernel.
    TableKernel,
    /// Brute force: the value rule over every reachable position.
    BruteForce,
    /// A period observed on a window, not proven.
    ObservedPeriod,
    /// A misère heap game's outcome from its misère quotient
    /// ([`crate::misere_quotient`]): outcome and winning moves, no value.
    MisereQuotient,
    /// Pruned search for one position's nimber ([`crate::search`]).
    Search,
}

impl MethodKind {
    /// Every kind, in the order of the enum.
    pub const ALL: [MethodKind; 11] = [
        MethodKind::ClosedForm,
        MethodKind::Strategy,
        MethodKind::Components,
        MethodKind::LineKernel,
        MethodKind::SequenceKernel,
        MethodKind::CertifiedPeriod,
        MethodKind::TableKernel,
        MethodKind::BruteForce,
        MethodKind::ObservedPeriod,
        MethodKind::MisereQuotient,
        MethodKind::Search,
    ];

    /// The stable id programs read (`closed-form`, `line-kernel`, …).
    pub fn id(self) -> &'static str {
        match self {
            MethodKind::ClosedForm => "closed-form",
            MethodKind::Strategy => "strategy",
            MethodKind::Components => "components",
            MethodKind::LineKernel => "line-kernel",
            MethodKind::SequenceKernel => "sequence-kernel",
            MethodKind::CertifiedPeriod => "certified-period",
            MethodKind::TableKernel => "table-kernel",
            MethodKind::BruteForce => "brute-force",
            MethodKind::ObservedPeriod => "observed-period",
            MethodKind::MisereQuotient => "misere-quotient",
            MethodKind::Search => "search",
        }
    }
}

/// How an answer was obtained: a stable [`id`](Method::id) for programs, from its
/// [`MethodKind`] (a `Method` is only ever made from one, [`Method::new`]), and a
/// `detail` for people.
///
/// ```
/// use nimlab_engine::plan::{Method, MethodKind};
/// let m = Method::new(MethodKind::LineKernel, "line kernel over the box 4x7");
/// assert_eq!(m.id(), "line-kernel");
/// assert_eq!(m.kind(), MethodKind::LineKernel);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Method {
    /// The route; private so that the id always is a kind's.
    kind: MethodKind,
    /// What exactly, e.g. "Bouton's theorem: the nim-sum of the heaps".
    pub detail: String,
}

impl Method {
    /// The route `kind`, with what exactly it did.
    pub fn new(kind: MethodKind, detail: impl Into<String>) -> Self {
        Method {
            kind,
            detail: detail.into(),
        }
    }

    /// The route's stable id, [`MethodKind::id`].
    pub fn id(&self) -> &'static str {
        self.kind.id()
    }

    /// The route.
    pub fn kind(&self) -> MethodKind {
        self.kind
    }
}

/// One route of a query. `Applies`, `Estimate` and `Run` are function pointers over
/// the query's state `Q` (see the aliases [`PositionRoute`], [`TableRoute`],
/// [`PeriodicityRoute`]); they are type parameters so that the pointers stay generic
/// over the state's lifetimes and one static list serves every call.
pub(super) struct Route<Applies, Estimate, Run> {
    /// The kind every answer of this route names.
    pub kind: MethodKind,
    /// What the route does, for people (the route table of the docs).
    pub summary: &'static str,
    /// Whether the route applies to the query (cheap; no work, no refusal).
    pub applies: Applies,
    /// Its memory and work estimate: `Err` refuses the query (`TooLarge`, `TooLong`,
    /// or an input error for a size beyond the route).
    pub estimate: Estimate,
    /// The answer; `None` when the route finds it does not cover the query after all.
    pub run: Run,
}

/// A route of `value` and `moves`.
pub(super) type PositionRoute = Route<
    fn(&PositionQuery<'_, '_>) -> bool,
    fn(&PositionQuery<'_, '_>) -> Result<()>,
    fn(&mut PositionQuery<'_, '_>) -> Result<Option<PositionReport>>,
>;

/// A route of `table` (and so of `sequence`, a table over one coordinate).
pub(super) type TableRoute = Route<
    fn(&TableQuery<'_, '_>) -> bool,
    fn(&TableQuery<'_, '_>) -> Result<()>,
    fn(&mut TableQuery<'_, '_>) -> Result<Option<TableReport>>,
>;

/// What `periodicity` answers: the period found (if any), how, and up to which heap.
pub(super) type PeriodicityAnswer = (Option<Periodicity>, Method, u64);

/// A route of `periodicity`.
pub(super) type PeriodicityRoute = Route<
    fn(&PeriodicityQuery<'_, '_>) -> bool,
    fn(&PeriodicityQuery<'_, '_>) -> Result<()>,
    fn(&mut PeriodicityQuery<'_, '_>) -> Result<Option<PeriodicityAnswer>>,
>;

/// Tries `routes` in order on `q`: the answer of the first that applies and answers,
/// `None` when none does. A refused estimate ends the walk with `refused(q, error)`:
/// the query's own policy (`value` hands the position to the game's strategy when it
/// has one, the others return the error).
pub(super) fn walk<Q, T: Answer, A, E, R>(
    routes: &[Route<A, E, R>],
    q: &mut Q,
    refused: impl FnOnce(&mut Q, Error) -> Result<T>,
) -> Result<Option<T>>
where
    A: Fn(&Q) -> bool,
    E: Fn(&Q) -> Result<()>,
    R: Fn(&mut Q) -> Result<Option<T>>,
{
    for route in routes {
        if !(route.applies)(q) {
            continue;
        }
        if let Err(e) = (route.estimate)(q) {
            return refused(q, e).map(Some);
        }
        if let Some(answer) = (route.run)(q)? {
            // Every answer names the route that produced it: a list entry whose run
            // answers for another kind would mislabel answers.
            if answer.method().kind() != route.kind {
                return Err(Error::Contract(format!(
                    "the {} route answered as {}",
                    route.kind.id(),
                    answer.method().id()
                )));
            }
            return Ok(Some(answer));
        }
    }
    Ok(None)
}

/// An answer of a query: it names the [`Method`] that produced it.
pub(super) trait Answer {
    /// The method named.
    fn method(&self) -> &Method;
}

impl Answer for PositionReport {
    fn method(&self) -> &Method {
        &self.method
    }
}

impl Answer for TableReport {
    fn method(&self) -> &Method {
        &self.method
    }
}

impl Answer for PeriodicityAnswer {
    fn method(&self) -> &Method {
        &self.1
    }
}

/// `value` and `moves` under the Grundy rule.
pub(super) static VALUE_ROUTES: [PositionRoute; 9] = [
    value::CLOSED_FORM,
    value::COMPONENTS,
    value::MISERE_QUOTIENT,
    value::LINE_KERNEL,
    value::SEQUENCE_KERNEL,
    value::DENSE_BRUTE_FORCE,
    value::SEARCH,
    value::SOLVER_BRUTE_FORCE,
    value::STRATEGY,
];

/// `value` and `moves` of a game played by n players (its values are classes).
pub(super) static CLASS_VALUE_ROUTES: [PositionRoute; 2] =
    [value::CLASS_CLOSED_FORM, value::CLASS_BRUTE_FORCE];

/// `table` and `sequence` under the Grundy rule.
pub(super) static TABLE_ROUTES: [TableRoute; 6] = [
    table::TABLE_KERNEL,
    table::PARTS,
    table::SEQUENCE_KERNEL,
    table::LINE_KERNEL,
    table::CLOSED_FORM,
    table::BRUTE_FORCE,
];

/// `table` of a game played by n players.
pub(super) static CLASS_TABLE_ROUTES: [TableRoute; 2] =
    [table::CLASS_CLOSED_FORM, table::CLASS_BRUTE_FORCE];

/// `periodicity` of a one-heap game.
pub(super) static PERIODICITY_ROUTES: [PeriodicityRoute; 2] =
    [sequence::CERTIFIED_PERIOD, sequence::OBSERVED_PERIOD];

/// The planner's route table, made from its lists of routes: one Markdown row per
/// query, its routes in the order they are tried, each as `` `id` (what it does) ``.
/// `docs/architecture.md` shows this table (a test keeps the two equal).
///
/// ```
/// let t = nimlab_engine::plan::route_table();
/// assert!(t.starts_with("| query | routes, in order |"));
/// assert!(t.contains("`misere-quotient`"));
/// ```
pub fn route_table() -> String {
    fn row<A, E, R>(query: &str, routes: &[Route<A, E, R>]) -> String {
        let routes: Vec<String> = routes
            .iter()
            .map(|r| format!("`{}` ({})", r.kind.id(), r.summary))
            .collect();
        format!("| {query} | {} |\n", routes.join(" → "))
    }
    [
        "| query | routes, in order |\n|---|---|\n".to_string(),
        row("value, moves", &VALUE_ROUTES),
        row("value, moves (n players)", &CLASS_VALUE_ROUTES),
        row("table, sequence", &TABLE_ROUTES),
        row("table (n players)", &CLASS_TABLE_ROUTES),
        row("periodicity", &PERIODICITY_ROUTES),
    ]
    .concat()
}
