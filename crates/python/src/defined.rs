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
//!
//! A game with `components` is explored as the engine values it (the Regions
//! decomposition): a position that splits is valued by its parts, so only the parts
//! (and the asked position) have their options listed ([`Defined::explore_split`]).
//! Misère play cannot split, and uses the plain view of the same game.

use nimlab_engine::big::{BigPosition, BigUint};
use nimlab_engine::capability::{Capabilities, Decomposition, Regions};
use nimlab_engine::position::{PositionForm, Shown};
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
    canonical_known: bool,
    /// The ids of `components(pos)`, when two or more.
    components: Option<Arc<[u64]>>,
    components_known: bool,
    /// With components: the positions the engine values apart for it, canonical and
    /// not split further (its canonical form's components, split again as far as
    /// they go); `[canonical form]` when it does not split.
    leaves: Option<Arc<[u64]>>,
    /// With components, for a leaf: the longest play, by leaves (an option's is the
    /// sum of its leaves'). Only leaves are listed (their options asked for).
    split_height: Option<u64>,
    split_ready: bool,
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
    counter: Counter,
}

/// The state of one exploration by leaves (a game with components).
struct SplitExploration {
    /// Leaves whose height this exploration found.
    heights_set: Vec<u64>,
    /// Positions the engine may be asked about once it succeeds.
    ready_now: Vec<u64>,
    counter: Counter,
}

/// Counts the positions whose options an exploration asked for, looking at Ctrl-C
/// each time and at the memory limit every [`CHECK_EVERY`].
struct Counter {
    calls: usize,
    limit: MemoryLimit,
}

/// Most levels of components within components.
const MAX_NESTING: usize = 64;

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
        let _exclusive = self.exclusive(py)?;
        if self.ready(root) {
            return Ok(()); // explored by the exploration waited for
        }
        let mut run = Exploration {
            pending: vec![root],
            heights_set: Vec::new(),
            counter: Counter { calls: 0, limit },
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

    /// Waits (without the GIL) until no other exploration of this game runs; this one
    /// runs until the returned guard is dropped.
    fn exclusive(&self, py: Python<'_>) -> PyResult<Exclusive<'_>> {
        while self
            .exploring
            .compare_exchange(false, true, Ordering::Acquire, Ordering::Relaxed)
            .is_err()
        {
            py.detach(|| std::thread::sleep(std::time::Duration::from_millis(1)));
            py.check_signals()?;
        }
        Ok(Exclusive(&self.exploring))
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
        self.depth_first(
            py,
            root,
            run,
            |run, id| self.expand(py, id, run),
            |c| self.height(c).is_some(),
            |run, v, options| {
                let mut g = self.write();
                let height = options
                    .iter()
                    .map(|&o| g.nodes[o as usize].height.map_or(0, |h| h + 1))
                    .max()
                    .unwrap_or(0);
                g.nodes[v as usize].height = Some(height);
                drop(g);
                run.heights_set.push(v);
            },
        )
    }

    /// The depth-first search of both height computations: from `root` along the
    /// nodes' `children` (asked once per node, on the way down), passing over the nodes
    /// already `done`, and `finish`ing each node once all its children are; a cycle is
    /// an error that names it.
    fn depth_first<R, C: AsRef<[u64]>>(
        &self,
        py: Python<'_>,
        root: u64,
        run: &mut R,
        mut children: impl FnMut(&mut R, u64) -> PyResult<C>,
        done: impl Fn(u64) -> bool,
        mut finish: impl FnMut(&mut R, u64, &C),
    ) -> PyResult<()> {
        let mut on_path: HashSet<u64> = HashSet::new();
        let mut stack: Vec<(u64, C, usize)> = Vec::new();
        let first = children(run, root)?;
        on_path.insert(root);
        stack.push((root, first, 0));
        while let Some((v, below, next)) = stack.last_mut() {
            if let Some(&c) = below.as_ref().get(*next) {
                *next += 1;
                if done(c) {
                    continue;
                }
                if on_path.contains(&c) {
                    let start = stack.iter().position(|(u, _, _)| *u == c).unwrap_or(0);
                    let mut cycle: Vec<u64> = stack[start..].iter().map(|(u, _, _)| *u).collect();
                    cycle.push(c);
                    return Err(self.cycle_error(py, &cycle));
                }
                let below = children(run, c)?;
                on_path.insert(c);
                stack.push((c, below, 0));
            } else {
                let v = *v;
                finish(run, v, below);
                on_path.remove(&v);
                stack.pop();
            }
        }
        Ok(())
    }

    /// Calls the user's callables on `id`: its options, canonical form and
    /// components, interned; queues the canonical form and components to be explored.
    /// Returns the options.
    fn expand(&self, py: Python<'_>, id: u64, run: &mut Exploration) -> PyResult<Arc<[u64]>> {
        let options = self.options_of(py, id, &mut run.counter)?;
        run.pending.extend(self.canonical_of(py, id)?);
        run.pending.extend(
            self.components_of(py, id)?
                .iter()
                .flat_map(|c| c.iter().copied()),
        );
        Ok(options)
    }

    fn position<'py>(&self, py: Python<'py>, id: u64) -> PyResult<Bound<'py, PyAny>> {
        self.object(py, id)
            .ok_or_else(|| crate::input_err(format!("{}: no position #{id}", self.name)))
    }

    /// `options(pos)` of the position `id`, asked once.
    fn options_of(&self, py: Python<'_>, id: u64, counter: &mut Counter) -> PyResult<Arc<[u64]>> {
        if let Some(o) = self.read().nodes[id as usize].options.clone() {
            return Ok(o);
        }
        counter.calls += 1;
        // Ctrl-C is seen here between the user's calls (a call that runs Python code
        // sees it itself); a pending signal is a flag, cheap to look at.
        py.check_signals()?;
        if counter.calls.is_multiple_of(CHECK_EVERY) {
            let held = self.read().nodes.len() as u64;
            counter
                .limit
                .check(
                    &format!("exploring {} ({held}+ positions)", self.name),
                    held.saturating_mul(BYTES_PER_POSITION),
                )
                .map_err(crate::py_err)?;
        }
        let pos = self.position(py, id)?;
        let options: Arc<[u64]> = self.call_list(py, &self.options, "options", &pos)?.into();
        self.write().nodes[id as usize].options = Some(options.clone());
        Ok(options)
    }

    /// The id of `canonical(pos)` when it is not the position `id` itself, asked once.
    fn canonical_of(&self, py: Python<'_>, id: u64) -> PyResult<Option<u64>> {
        {
            let g = self.read();
            let n = &g.nodes[id as usize];
            if n.canonical_known {
                return Ok(n.canonical);
            }
        }
        let canonical = match &self.canonical {
            None => None,
            Some(f) => {
                let pos = self.position(py, id)?;
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
        let mut g = self.write();
        g.nodes[id as usize].canonical = canonical;
        g.nodes[id as usize].canonical_known = true;
        Ok(canonical)
    }

    /// The ids of `components(pos)` when there are two or more, asked once.
    fn components_of(&self, py: Python<'_>, id: u64) -> PyResult<Option<Arc<[u64]>>> {
        {
            let g = self.read();
            let n = &g.nodes[id as usize];
            if n.components_known {
                return Ok(n.components.clone());
            }
        }
        let components: Option<Arc<[u64]>> = match &self.components {
            None => None,
            Some(f) => {
                let pos = self.position(py, id)?;
                let parts = self.call_list(py, f, "components", &pos)?;
                (parts.len() > 1).then(|| parts.into())
            }
        };
        let mut g = self.write();
        g.nodes[id as usize].components = components.clone();
        g.nodes[id as usize].components_known = true;
        Ok(components)
    }

    /// Explores a game with components from `root` as the engine will value it: the
    /// leaves of the root and of its options (see [`Node::leaves`]), and from each leaf
    /// the leaves of its options, recursively. A position that splits into parts is
    /// never listed (but the root): the parts are. Errors as [`Defined::explore`].
    pub(crate) fn explore_split(
        &self,
        py: Python<'_>,
        root: u64,
        limit: MemoryLimit,
    ) -> PyResult<()> {
        if self.split_ready(root) {
            return Ok(());
        }
        let _exclusive = self.exclusive(py)?;
        if self.split_ready(root) {
            return Ok(());
        }
        let mut run = SplitExploration {
            heights_set: Vec::new(),
            ready_now: Vec::new(),
            counter: Counter { calls: 0, limit },
        };
        let result = self.run_split(py, root, &mut run);
        let mut g = self.write();
        match result {
            Ok(()) => {
                for &id in run.heights_set.iter().chain(&run.ready_now) {
                    g.nodes[id as usize].split_ready = true;
                }
            }
            Err(_) => {
                for &id in &run.heights_set {
                    g.nodes[id as usize].split_height = None;
                }
            }
        }
        result
    }

    fn split_ready(&self, id: u64) -> bool {
        self.read()
            .nodes
            .get(id as usize)
            .is_some_and(|n| n.split_ready)
    }

    fn run_split(&self, py: Python<'_>, root: u64, run: &mut SplitExploration) -> PyResult<()> {
        // The root's options are listed (the answer shows them), each valued.
        let mut leaves = self.leaves_of(py, root, 0)?.to_vec();
        let options = self.options_of(py, root, &mut run.counter)?;
        for &o in options.iter() {
            leaves.extend(self.leaves_of(py, o, 0)?.iter().copied());
            run.ready_now.push(o);
        }
        for leaf in leaves {
            self.leaf_heights(py, leaf, run)?;
        }
        run.ready_now.push(root);
        Ok(())
    }

    /// The leaves of the position `id` (see [`Node::leaves`]); `depth` counts the
    /// levels of components above it.
    fn leaves_of(&self, py: Python<'_>, id: u64, depth: usize) -> PyResult<Arc<[u64]>> {
        if let Some(l) = self.read().nodes[id as usize].leaves.clone() {
            return Ok(l);
        }
        let c = self.canonical_of(py, id)?.unwrap_or(id);
        if c != id
            && let Some(d) = self.canonical_of(py, c)?
        {
            return Err(crate::ContractError::new_err(format!(
                "{}: canonical({}) is {}, whose canonical form is {}: canonical must return \
                 a position that is its own canonical form",
                self.name,
                self.repr_of(py, id),
                self.repr_of(py, c),
                self.repr_of(py, d)
            )));
        }
        let known = self.read().nodes[c as usize].leaves.clone();
        let leaves: Arc<[u64]> = match known {
            Some(l) => l,
            None => match self.components_of(py, c)? {
                None => Arc::from([c]),
                Some(parts) => {
                    if depth >= MAX_NESTING || parts.contains(&c) {
                        return Err(crate::ContractError::new_err(format!(
                            "{}: components({}) are {}: a part is the position itself or \
                             splits back into it (components must be smaller, independent \
                             parts)",
                            self.name,
                            self.repr_of(py, c),
                            parts
                                .iter()
                                .map(|&p| self.repr_of(py, p))
                                .collect::<Vec<_>>()
                                .join(", ")
                        )));
                    }
                    let mut out = Vec::new();
                    for &p in parts.iter() {
                        out.extend(self.leaves_of(py, p, depth + 1)?.iter().copied());
                    }
                    out.into()
                }
            },
        };
        let mut g = self.write();
        g.nodes[c as usize].leaves = Some(leaves.clone());
        g.nodes[id as usize].leaves = Some(leaves.clone());
        Ok(leaves)
    }

    /// Depth-first search from the leaf `root` along its options' leaves, computing
    /// their heights.
    fn leaf_heights(&self, py: Python<'_>, root: u64, run: &mut SplitExploration) -> PyResult<()> {
        if self.read().nodes[root as usize].split_height.is_some() {
            return Ok(());
        }
        self.depth_first(
            py,
            root,
            run,
            |run, id| self.leaf_children(py, id, run),
            |c| self.read().nodes[c as usize].split_height.is_some(),
            |run, v, _| {
                let mut g = self.write();
                let options = g.nodes[v as usize]
                    .options
                    .clone()
                    .unwrap_or_else(|| Arc::from([]));
                let rank = |o: u64| -> u64 {
                    g.nodes[o as usize].leaves.as_ref().map_or(0, |l| {
                        l.iter()
                            .map(|&l| g.nodes[l as usize].split_height.unwrap_or(0))
                            .sum()
                    })
                };
                let height = options.iter().map(|&o| rank(o) + 1).max().unwrap_or(0);
                g.nodes[v as usize].split_height = Some(height);
                drop(g);
                run.heights_set.push(v);
            },
        )
    }

    /// The leaves of the options of the leaf `id`.
    fn leaf_children(
        &self,
        py: Python<'_>,
        id: u64,
        run: &mut SplitExploration,
    ) -> PyResult<Vec<u64>> {
        let options = self.options_of(py, id, &mut run.counter)?;
        let mut children = Vec::new();
        for &o in options.iter() {
            children.extend(self.leaves_of(py, o, 0)?.iter().copied());
        }
        Ok(children)
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
    /// as long; independent components' longest plays add up to the position's). What
    /// fails would make the engine's memo wrong.
    fn check_forms(&self, py: Python<'_>, explored: &[u64]) -> PyResult<()> {
        let g = self.read();
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

/// The guard of [`Defined::exclusive`].
struct Exclusive<'a>(&'a AtomicBool);

impl Drop for Exclusive<'_> {
    fn drop(&mut self) {
        self.0.store(false, Ordering::Release);
    }
}

/// A defined game as the engine sees it. With components (`split`), the engine values
/// a position by its leaves (the Regions decomposition) and lists only leaves and the
/// asked position; misère play, which cannot split, uses the plain view (every
/// reachable position listed). Both views share one [`Defined`]: its callables' answers.
pub(crate) struct DefinedGame {
    pub(crate) core: Arc<Defined>,
    split: bool,
}

impl DefinedGame {
    /// The view that splits by components when the game has them.
    pub(crate) fn new(core: Arc<Defined>) -> Self {
        let split = core.components.is_some();
        DefinedGame { core, split }
    }

    /// The view that lists every reachable position (for misère play).
    pub(crate) fn plain(&self) -> Self {
        DefinedGame {
            core: self.core.clone(),
            split: false,
        }
    }

    pub(crate) fn is_split(&self) -> bool {
        self.split
    }

    /// Explores from `root` as this view's engine will need (see [`Defined::explore`]).
    pub(crate) fn explore(&self, py: Python<'_>, root: u64, limit: MemoryLimit) -> PyResult<()> {
        if self.split {
            self.core.explore_split(py, root, limit)
        } else {
            self.core.explore(py, root, limit)
        }
    }

    fn node<T>(&self, pos: &[Coord], f: impl FnOnce(&Graph, &Node) -> Option<T>) -> Option<T> {
        let id = Defined::id_of(pos)?;
        let g = self.core.read();
        let node = g.nodes.get(id as usize)?;
        f(&g, node)
    }
}

impl Game for DefinedGame {
    fn spec(&self) -> String {
        self.core.name.clone()
    }
    fn dimension(&self) -> usize {
        1
    }
    fn for_each_option(&self, pos: &[Coord], visit: &mut dyn FnMut(&[Coord])) {
        let options = self.node(pos, |_, n| n.options.clone());
        for &o in options.iter().flat_map(|o| o.iter()) {
            visit(&[o]);
        }
    }
    fn position_error(&self, pos: &[Coord]) -> Option<String> {
        let ready = self
            .node(pos, |_, n| {
                Some(if self.split { n.split_ready } else { n.ready })
            })
            .unwrap_or(false);
        (!ready).then(|| {
            format!(
                "{} is a game defined in Python: its positions are Python values, given as \
                 themselves",
                self.core.name
            )
        })
    }
    fn rank(&self, pos: &[Coord]) -> u128 {
        // The longest play (by leaves, with components): every move lowers it. Unknown
        // (never explored): the top, so that the engine reports a broken contract
        // rather than guess.
        self.node(pos, |g, n| {
            if self.split {
                n.leaves.as_ref()?.iter().try_fold(0u128, |sum, &l| {
                    Some(sum + u128::from(g.nodes[l as usize].split_height?))
                })
            } else {
                n.height.filter(|_| n.ready).map(u128::from)
            }
        })
        .unwrap_or(u128::MAX)
    }
    fn max_options(&self, pos: &[Coord]) -> Option<u128> {
        self.node(pos, |_, n| n.options.as_ref().map(|o| o.len() as u128))
    }
    fn capabilities(&self) -> Capabilities<'_> {
        Capabilities {
            decomposition: self.split.then_some(Decomposition::Regions(self)),
            ..Capabilities::none()
        }
    }
    fn simplified(&self, pos: &[Coord]) -> Option<Position> {
        self.node(pos, |_, n| n.canonical).map(|c| vec![c])
    }
    fn read_position(&self, _text: &str) -> nimlab_engine::Result<BigPosition> {
        Err(Error::input(format!(
            "{} is a game defined in Python: give its positions as the Python values \
             themselves, not as text",
            self.core.name
        )))
    }
    fn show_position(&self, pos: &[BigUint]) -> Shown {
        let id = match pos {
            [id] => u64::try_from(id).ok(),
            _ => None,
        };
        Shown::Text(match id {
            Some(id) => Python::attach(|py| self.core.repr_of(py, id)),
            None => "?".into(),
        })
    }
    fn form(&self) -> PositionForm {
        PositionForm::own(self.dimension())
    }
}

impl Regions for DefinedGame {
    fn regions(&self, pos: &[Coord], parts: &mut Vec<Position>) {
        if let Some(leaves) = self.node(pos, |_, n| n.leaves.clone())
            && leaves.len() > 1
        {
            parts.extend(leaves.iter().map(|&p| vec![p]));
        }
    }
}
