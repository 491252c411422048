//! Games defined in Python: `nimlab.define(options, name=…)`.
//!
//! A defined game's positions are any hashable Python values. Each one is interned:
//! the engine's position is `[id]`, one coordinate, and [`Defined`] keeps the Python
//! object of every id. Before a query, [`Defined::explore`] walks the game from the
//! asked position with the GIL held — it calls the user's callables, caches every
//! position's options (and canonical form and components), finds the longest play
//! from each position (its *height*), and refuses a game whose moves repeat a
//! position. The engine then solves the cached graph without Python: the height is
//! the rank its contract asks for (every move lowers it), Python's exceptions and
//! Ctrl-C surface during exploration as they would in any Python loop, and the
//! engine's own memo, memory limit and cancellation work as for any game.

use nimlab_engine::big::{BigPosition, BigUint};
use nimlab_engine::capability::{Capabilities, Decomposition, Regions};
use nimlab_engine::position::Shown;
use nimlab_engine::{Coord, Error, Game, MemoryLimit, Position};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyDict, PyString};
use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, RwLock};

/// What is known of one interned position.
#[derive(Default)]
struct Node {
    /// Its options' ids, once `options(pos)` was called.
    options: Option<Arc<[u64]>>,
    /// The id of `canonical(pos)`, when given and not `pos` itself.
    canonical: Option<u64>,
    /// The ids of `components(pos)`, when two or more.
    components: Option<Arc<[u64]>>,
    /// The components without the empty ones, when two or more are left: the regions
    /// the engine values apart (set once the heights are checked).
    regions: Option<Arc<[u64]>>,
    /// The longest play from it: known once everything reachable from it by moves is
    /// explored.
    height: Option<u64>,
    /// Whether everything reachable from it (by moves, canonical forms and
    /// components) is explored and checked: the exploration that found its height
    /// succeeded. Only ready positions are given to the engine.
    ready: bool,
}

/// The interned positions and what is known of them.
#[derive(Default)]
struct Graph {
    objects: Vec<Py<PyAny>>,
    nodes: Vec<Node>,
}

/// The state of one exploration.
struct Exploration {
    /// Positions still to explore (canonical forms and components found).
    pending: Vec<u64>,
    /// Positions whose height this exploration found.
    heights_set: Vec<u64>,
    /// How many positions it expanded (called the user's callables on).
    expanded: usize,
    limit: MemoryLimit,
}

/// A game whose options come from a Python callable (see the module's documentation).
pub(crate) struct Defined {
    name: String,
    options: Py<PyAny>,
    canonical: Option<Py<PyAny>>,
    components: Option<Py<PyAny>>,
    /// Python position → id (Python's hash and equality decide which are one).
    ids: Py<PyDict>,
    graph: RwLock<Graph>,
    /// One exploration at a time (Python threads may query the same game).
    exploring: AtomicBool,
}

/// Rough bytes held per explored position (its node, its Python object and entries
/// in the dict and in the engine's memo), for the memory limit.
const BYTES_PER_POSITION: u64 = 256;

/// How many positions an exploration expands between looks at the memory limit.
const CHECK_EVERY: usize = 64;

impl Defined {
    pub(crate) fn new(
        py: Python<'_>,
        name: String,
        options: Py<PyAny>,
        canonical: Option<Py<PyAny>>,
        components: Option<Py<PyAny>>,
    ) -> Self {
        Defined {
            name,
            options,
            canonical,
            components,
            ids: PyDict::new(py).unbind(),
            graph: RwLock::new(Graph::default()),
            exploring: AtomicBool::new(false),
        }
    }

    fn read(&self) -> std::sync::RwLockReadGuard<'_, Graph> {
        self.graph.read().unwrap_or_else(|e| e.into_inner())
    }

    fn write(&self) -> std::sync::RwLockWriteGuard<'_, Graph> {
        self.graph.write().unwrap_or_else(|e| e.into_inner())
    }

    /// The id of the Python position `pos`, interning it if new. An unhashable value
    /// is an input error naming `context`.
    pub(crate) fn intern(
        &self,
        pos: &Bound<'_, PyAny>,
        context: &dyn Fn() -> String,
    ) -> PyResult<u64> {
        let py = pos.py();
        let ids = self.ids.bind(py);
        if let Err(e) = pos.hash() {
            let err = crate::input_err(format!(
                "{}: {} is not a position: a position of a defined game must be hashable \
                 (a tuple, frozenset, str or int, not a {})",
                context(),
                short_repr(pos),
                crate::type_name(pos)
            ));
            err.set_cause(py, Some(e));
            return Err(err);
        }
        if let Some(id) = ids.get_item(pos)? {
            return id.extract::<u64>();
        }
        let id = {
            let mut g = self.write();
            g.objects.push(pos.clone().unbind());
            g.nodes.push(Node::default());
            (g.nodes.len() - 1) as u64
        };
        ids.set_item(pos, id)?;
        Ok(id)
    }

    /// The Python object of `id`.
    pub(crate) fn object<'py>(&self, py: Python<'py>, id: u64) -> Option<Bound<'py, PyAny>> {
        let g = self.read();
        g.objects.get(id as usize).map(|o| o.bind(py).clone())
    }

    fn repr_of(&self, py: Python<'_>, id: u64) -> String {
        match self.object(py, id) {
            Some(o) => short_repr(&o),
            None => format!("#{id}"),
        }
    }

    /// Explores the game from `root`: afterwards every position reachable from it (by
    /// moves, canonical forms and components) has its options cached and its height
    /// known. Errors of the user's callables propagate (with a note naming the
    /// position); a repeated position is a [`crate::ContractError`]; Ctrl-C raises
    /// `KeyboardInterrupt`; more positions than `limit` allows raise `TooLargeError`.
    /// A failed exploration forgets the heights it found, so a position has a height
    /// only when everything reachable from it is explored and checked.
    pub(crate) fn explore(&self, py: Python<'_>, root: u64, limit: MemoryLimit) -> PyResult<()> {
        if self.ready(root) {
            return Ok(());
        }
        // One exploration at a time; a second thread waits without the GIL.
        while self
            .exploring
            .compare_exchange(false, true, Ordering::Acquire, Ordering::Relaxed)
            .is_err()
        {
            py.detach(|| std::thread::sleep(std::time::Duration::from_millis(1)));
            py.check_signals()?;
        }
        struct Release<'a>(&'a AtomicBool);
        impl Drop for Release<'_> {
            fn drop(&mut self) {
                self.0.store(false, Ordering::Release);
            }
        }
        let _release = Release(&self.exploring);
        if self.ready(root) {
            return Ok(()); // explored by the exploration waited for
        }
        let mut run = Exploration {
            pending: vec![root],
            heights_set: Vec::new(),
            expanded: 0,
            limit,
        };
        let result = self.run(py, &mut run);
        let mut g = self.write();
        for &id in &run.heights_set {
            let node = &mut g.nodes[id as usize];
            match result {
                Ok(()) => node.ready = true,
                Err(_) => node.height = None,
            }
        }
        result
    }

    fn ready(&self, id: u64) -> bool {
        self.read().nodes.get(id as usize).is_some_and(|n| n.ready)
    }

    fn run(&self, py: Python<'_>, run: &mut Exploration) -> PyResult<()> {
        while let Some(r) = run.pending.pop() {
            if self.height(r).is_none() {
                self.explore_moves(py, r, run)?;
            }
        }
        self.check_forms(py, &run.heights_set)
    }

    fn height(&self, id: u64) -> Option<u64> {
        self.read().nodes.get(id as usize).and_then(|n| n.height)
    }

    /// Depth-first search along the moves from `root`, computing heights; canonical
    /// forms and components found on the way are queued on `run.pending`.
    fn explore_moves(&self, py: Python<'_>, root: u64, run: &mut Exploration) -> PyResult<()> {
        let mut on_path: HashSet<u64> = HashSet::new();
        let mut stack: Vec<(u64, Arc<[u64]>, usize)> = Vec::new();
        let options = self.expand(py, root, run)?;
        on_path.insert(root);
        stack.push((root, options, 0));
        while let Some((v, options, next)) = stack.last_mut() {
            if let Some(&c) = options.get(*next) {
                *next += 1;
                if self.height(c).is_some() {
                    continue;
                }
                if on_path.contains(&c) {
                    let start = stack.iter().position(|(u, _, _)| *u == c).unwrap_or(0);
                    let mut cycle: Vec<u64> = stack[start..].iter().map(|(u, _, _)| *u).collect();
                    cycle.push(c);
                    return Err(self.cycle_error(py, &cycle));
                }
                let options = self.expand(py, c, run)?;
                on_path.insert(c);
                stack.push((c, options, 0));
            } else {
                let v = *v;
                let mut g = self.write();
                let height = options
                    .iter()
                    .map(|&o| g.nodes[o as usize].height.map_or(0, |h| h + 1))
                    .max()
                    .unwrap_or(0);
                g.nodes[v as usize].height = Some(height);
                drop(g);
                run.heights_set.push(v);
                on_path.remove(&v);
                stack.pop();
            }
        }
        Ok(())
    }

    /// Calls the user's callables on `id` (once per position): its options, canonical
    /// form and components, interned; queues the canonical form and components to be
    /// explored. Returns the options.
    fn expand(&self, py: Python<'_>, id: u64, run: &mut Exploration) -> PyResult<Arc<[u64]>> {
        let cached = self.read().nodes.get(id as usize).and_then(|n| {
            let o = n.options.clone()?;
            Some((o, n.canonical, n.components.clone()))
        });
        if let Some((options, canonical, components)) = cached {
            run.pending.extend(canonical);
            run.pending
                .extend(components.iter().flat_map(|c| c.iter().copied()));
            return Ok(options);
        }
        run.expanded += 1;
        // Ctrl-C is seen here between the user's calls (a call that runs Python code
        // sees it itself); a pending signal is a flag, cheap to look at.
        py.check_signals()?;
        if run.expanded.is_multiple_of(CHECK_EVERY) {
            let held = self.read().nodes.len() as u64;
            run.limit
                .check(
                    &format!("exploring {} ({held}+ positions)", self.name),
                    held.saturating_mul(BYTES_PER_POSITION),
                )
                .map_err(crate::py_err)?;
        }
        let pos = self
            .object(py, id)
            .ok_or_else(|| crate::input_err(format!("{}: no position #{id}", self.name)))?;
        let options: Arc<[u64]> = self.call_list(py, &self.options, "options", &pos)?.into();
        let canonical = match &self.canonical {
            None => None,
            Some(f) => {
                let c = f
                    .bind(py)
                    .call1((&pos,))
                    .map_err(|e| self.noted(py, e, "canonical", &pos))?;
                let c = self.intern(&c, &|| {
                    format!("{}: canonical({})", self.name, short_repr(&pos))
                })?;
                (c != id).then_some(c)
            }
        };
        let components: Option<Arc<[u64]>> = match &self.components {
            None => None,
            Some(f) => {
                let parts = self.call_list(py, f, "components", &pos)?;
                (parts.len() > 1).then(|| parts.into())
            }
        };
        run.pending.extend(canonical);
        run.pending
            .extend(components.iter().flat_map(|c| c.iter().copied()));
        let mut g = self.write();
        let node = &mut g.nodes[id as usize];
        node.options = Some(options.clone());
        node.canonical = canonical;
        node.components = components;
        Ok(options)
    }

    /// `f(pos)` as a list of interned positions (`what` names `f` in messages).
    fn call_list(
        &self,
        py: Python<'_>,
        f: &Py<PyAny>,
        what: &str,
        pos: &Bound<'_, PyAny>,
    ) -> PyResult<Vec<u64>> {
        let returned = f
            .bind(py)
            .call1((pos,))
            .map_err(|e| self.noted(py, e, what, pos))?;
        let called = || format!("{}: {what}({})", self.name, short_repr(pos));
        if returned.is_instance_of::<PyString>()
            || returned.is_instance_of::<PyBytes>()
            || returned.is_instance_of::<PyByteArray>()
        {
            return Err(crate::input_err(format!(
                "{} returned a {}, not a list of positions (return [s] for the one position s)",
                called(),
                crate::type_name(&returned)
            )));
        }
        let items = returned.try_iter().map_err(|_| {
            crate::input_err(format!(
                "{} returned {} (of type {}), not an iterable of positions (return [] when \
                 there is none)",
                called(),
                short_repr(&returned),
                crate::type_name(&returned)
            ))
        })?;
        let mut out = Vec::new();
        for item in items {
            let item = item.map_err(|e| self.noted(py, e, what, pos))?;
            out.push(self.intern(&item, &called)?);
        }
        Ok(out)
    }

    /// `e`, with a note saying which call of the user's raised it (Python ≥ 3.11
    /// shows notes under the traceback).
    fn noted(&self, py: Python<'_>, e: PyErr, what: &str, pos: &Bound<'_, PyAny>) -> PyErr {
        let note = format!(
            "(raised by {what}({}) of the game {})",
            short_repr(pos),
            self.name
        );
        let _ = e.value(py).call_method1("add_note", (note,));
        e
    }

    fn cycle_error(&self, py: Python<'_>, cycle: &[u64]) -> PyErr {
        const SHOWN: usize = 8;
        let mut shown: Vec<String> = cycle
            .iter()
            .take(SHOWN)
            .map(|&id| self.repr_of(py, id))
            .collect();
        if cycle.len() > SHOWN {
            shown.push(format!("… ({} moves in all)", cycle.len() - 1));
        }
        crate::ContractError::new_err(format!(
            "{}: the moves lead from {} back to itself ({}); a game must end, so no \
             position may be reached again",
            self.name,
            self.repr_of(py, cycle[0]),
            shown.join(" → ")
        ))
    }

    /// Checks the canonical forms and components of the positions just explored
    /// against the heights (a canonical form is the same game, so its longest play is
    /// as long; independent components' longest plays add up to the position's), and
    /// keeps the non-empty components. What fails would make the engine's memo wrong.
    fn check_forms(&self, py: Python<'_>, explored: &[u64]) -> PyResult<()> {
        let mut g = self.write();
        let height = |g: &Graph, id: u64| g.nodes[id as usize].height.unwrap_or(0);
        let mut problem: Option<String> = None;
        for &v in explored {
            let hv = height(&g, v);
            if let Some(c) = g.nodes[v as usize].canonical {
                let hc = height(&g, c);
                let again = g.nodes[c as usize].canonical;
                if hc != hv {
                    problem = Some(format!(
                        "canonical({}) is {}, but their longest plays differ ({hv} and {hc} \
                         moves): a canonical form must be the same game",
                        self.repr_of_locked(py, &g, v),
                        self.repr_of_locked(py, &g, c)
                    ));
                } else if let Some(d) = again {
                    problem = Some(format!(
                        "canonical({}) is {}, whose canonical form is {}: canonical must \
                         return a position that is its own canonical form",
                        self.repr_of_locked(py, &g, v),
                        self.repr_of_locked(py, &g, c),
                        self.repr_of_locked(py, &g, d)
                    ));
                }
            }
            if problem.is_none()
                && let Some(parts) = g.nodes[v as usize].components.clone()
            {
                let total: u64 = parts.iter().map(|&p| height(&g, p)).sum();
                if total != hv {
                    problem = Some(format!(
                        "components({}) are {}, whose longest plays add up to {total} moves, \
                         but from the position itself it is {hv}: components must be \
                         independent parts of the position",
                        self.repr_of_locked(py, &g, v),
                        parts
                            .iter()
                            .map(|&p| self.repr_of_locked(py, &g, p))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ));
                } else {
                    // Empty parts add nothing; one part left is the position itself.
                    let kept: Vec<u64> = parts
                        .iter()
                        .copied()
                        .filter(|&p| height(&g, p) > 0)
                        .collect();
                    g.nodes[v as usize].regions = (kept.len() > 1).then(|| kept.into());
                }
            }
            if let Some(p) = problem.take() {
                return Err(crate::ContractError::new_err(format!("{}: {p}", self.name)));
            }
        }
        Ok(())
    }

    fn repr_of_locked(&self, py: Python<'_>, g: &Graph, id: u64) -> String {
        match g.objects.get(id as usize) {
            Some(o) => short_repr(o.bind(py)),
            None => format!("#{id}"),
        }
    }

    fn id_of(pos: &[Coord]) -> Option<u64> {
        match pos {
            [id] => Some(*id),
            _ => None,
        }
    }
}

/// `repr(value)`, shortened for messages.
fn short_repr(value: &Bound<'_, PyAny>) -> String {
    let text = value
        .repr()
        .map(|r| r.to_string())
        .unwrap_or_else(|_| "<unprintable>".into());
    if text.chars().count() > 80 {
        let head: String = text.chars().take(77).collect();
        format!("{head}…")
    } else {
        text
    }
}

impl Game for Defined {
    fn spec(&self) -> String {
        self.name.clone()
    }
    fn dimension(&self) -> usize {
        1
    }
    fn for_each_option(&self, pos: &[Coord], visit: &mut dyn FnMut(&[Coord])) {
        let options = Self::id_of(pos).and_then(|id| {
            self.read()
                .nodes
                .get(id as usize)
                .and_then(|n| n.options.clone())
        });
        for &o in options.iter().flat_map(|o| o.iter()) {
            visit(&[o]);
        }
    }
    fn position_error(&self, pos: &[Coord]) -> Option<String> {
        match Self::id_of(pos).filter(|&id| self.ready(id)) {
            Some(_) => None,
            None => Some(format!(
                "{} is a game defined in Python: its positions are Python values, given as \
                 themselves",
                self.name
            )),
        }
    }
    fn rank(&self, pos: &[Coord]) -> u128 {
        // The longest play: every move lowers it. Unknown (never explored): the top,
        // so that the engine reports a broken contract rather than guess.
        Self::id_of(pos)
            .and_then(|id| {
                let g = self.read();
                let node = g.nodes.get(id as usize)?;
                node.height.filter(|_| node.ready)
            })
            .map_or(u128::MAX, u128::from)
    }
    fn max_options(&self, pos: &[Coord]) -> Option<u128> {
        let id = Self::id_of(pos)?;
        let g = self.read();
        g.nodes
            .get(id as usize)?
            .options
            .as_ref()
            .map(|o| o.len() as u128)
    }
    fn capabilities(&self) -> Capabilities<'_> {
        Capabilities {
            decomposition: self
                .components
                .is_some()
                .then_some(Decomposition::Regions(self)),
            ..Capabilities::none()
        }
    }
    fn simplified(&self, pos: &[Coord]) -> Option<Position> {
        let id = Self::id_of(pos)?;
        let c = self.read().nodes.get(id as usize)?.canonical?;
        Some(vec![c])
    }
    fn read_position(&self, _text: &str) -> nimlab_engine::Result<BigPosition> {
        Err(Error::input(format!(
            "{} is a game defined in Python: give its positions as the Python values \
             themselves, not as text",
            self.name
        )))
    }
    fn show_position(&self, pos: &[BigUint]) -> Shown {
        let id = match pos {
            [id] => u64::try_from(id).ok(),
            _ => None,
        };
        Shown::Text(match id {
            Some(id) => Python::attach(|py| self.repr_of(py, id)),
            None => "?".into(),
        })
    }
    fn writes_numbers(&self) -> bool {
        false
    }
}

impl Regions for Defined {
    fn regions(&self, pos: &[Coord], parts: &mut Vec<Position>) {
        let Some(id) = Self::id_of(pos) else { return };
        let found = self
            .read()
            .nodes
            .get(id as usize)
            .and_then(|n| n.regions.clone());
        if let Some(found) = found {
            parts.extend(found.iter().map(|&p| vec![p]));
        }
    }
}
