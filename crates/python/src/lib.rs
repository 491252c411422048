//! `nimlab` for Python: the catalog, the planner and the conjecture checker of nimlab as
//! a native module (built with maturin: `pip install ./crates/python`).
//!
//! A thin surface like the CLI: it converts Python values, calls the same library entry
//! points (`nimlab_engine::plan`, `nimlab_formula::check`, `nimlab_games`), and converts
//! the answers back. Long computations release the GIL, so threads and Dask workers run
//! side by side. The Python-facing documentation is in the docstrings and `nimlab.pyi`.

use nimlab_engine::big::BigUint;
use nimlab_engine::capability::{Capabilities, Components};
use nimlab_engine::periodicity::Periodicity;
use nimlab_engine::plan::{self, PositionReport};
use nimlab_engine::theorem::CheckContext;
use nimlab_engine::transform::{Misere, Sum, Transform};
use nimlab_engine::{Error, Game as EngineGame, MemoryLimit, Progress, TableOptions, INVALID};
use nimlab_formula::check::{CheckRequest, Declared};
use nimlab_json::doc;
use nimlab_json::search_shard::SearchShardDoc;
use numpy::{PyArray1, PyArrayMethods};
use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::exceptions::{PyKeyboardInterrupt, PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyByteArray, PyBytes};
use pyo3::types::{
    PyDict, PyFrozenSet, PyInt, PyList, PyMapping, PySet, PyString, PyTuple, PyType,
};
use serde_json::Value;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

mod defined;
mod to_py;

create_exception!(
    nimlab,
    NimlabError,
    PyException,
    "Every error nimlab reports; the message is the one the `nimlab` CLI prints."
);
create_exception!(
    nimlab,
    TooLargeError,
    NimlabError,
    "The computation would need more memory than the limit (`max_memory`) allows."
);
create_exception!(
    nimlab,
    TooLongError,
    NimlabError,
    "The computation would take far too long (an estimate); pass `force=True` to run it anyway."
);
create_exception!(
    nimlab,
    ContractError,
    NimlabError,
    "A game broke the rules of the game contract (e.g. a move that might never end the game)."
);

/// `nimlab.InputError`: a [`NimlabError`] and a `ValueError`, so that both idioms
/// catch a bad argument (`create_exception!` takes one base, so the class is made once
/// with Python's `type`).
static INPUT_ERROR: pyo3::sync::PyOnceLock<Py<PyType>> = pyo3::sync::PyOnceLock::new();

fn input_error_type(py: Python<'_>) -> PyResult<&Bound<'_, PyType>> {
    INPUT_ERROR
        .get_or_try_init(py, || -> PyResult<Py<PyType>> {
            let doc = "Malformed or out-of-range input: an unknown game, a bad parameter, \
                       position or formula. Also a ValueError.";
            let namespace = PyDict::new(py);
            namespace.set_item("__module__", "nimlab")?;
            namespace.set_item("__doc__", doc)?;
            let bases = PyTuple::new(
                py,
                [
                    py.get_type::<NimlabError>().into_any(),
                    py.get_type::<PyValueError>().into_any(),
                ],
            )?;
            let class = py
                .get_type::<PyType>()
                .call1(("InputError", bases, namespace))?;
            Ok(class.cast_into::<PyType>()?.unbind())
        })
        .map(|t| t.bind(py))
}

/// The Python exception for an engine error, with the CLI's message.
fn py_err(e: Error) -> PyErr {
    // A setting is named as the Python keyword that sets it: `up_to=5`.
    let message = e.describe(&|knob, value| format!("{}={value}", knob.id()));
    match e {
        Error::Input(_) | Error::OutOfRange { .. } => input_err(message),
        // The limit met, and how to lift it in Python's terms (the CLI names its flags).
        Error::TooLarge { .. } => {
            TooLargeError::new_err(format!("{message} (raise it with max_memory=…)"))
        }
        Error::TooLong { .. } => {
            TooLongError::new_err(format!("{message}; pass force=True to run it anyway"))
        }
        Error::Contract(_) => ContractError::new_err(message),
        // Python's own exception for a failed read or write, with the errno when the
        // operating system gave one (so `except FileNotFoundError` works).
        Error::Io { ref source, .. } => match source.error().raw_os_error() {
            Some(errno) => PyOSError::new_err((errno, message)),
            None => PyOSError::new_err(message),
        },
        // Stopped by Ctrl-C (a signal handler that raised): `interruptible` raises the
        // handler's exception itself; this is the fallback.
        Error::Cancelled => PyKeyboardInterrupt::new_err(message),
    }
}

fn input_err(message: impl Into<String>) -> PyErr {
    let message = message.into();
    Python::attach(|py| match input_error_type(py) {
        Ok(t) => PyErr::from_type(t.clone(), message),
        Err(e) => e,
    })
}

/// The payload that unwinds a stopped computation that ignored [`Progress::cancelled`].
struct Interrupted;

/// Progress that asks the computation to stop once `stop` is set: the engine polls
/// [`Progress::cancelled`] in its long loops and returns `Error::Cancelled`. A kernel
/// that cannot return an error (a take-and-break period search) only reports
/// progress: [`Progress::advance`] after the stop unwinds it with
/// [`std::panic::resume_unwind`] (no panic hook runs; the computation owns its state).
struct StopProgress<'a>(&'a AtomicBool);

impl Progress for StopProgress<'_> {
    fn start(&self, _total: u64, _what: &str) {}
    fn advance(&self, _delta: u64) {
        if self.cancelled() {
            std::panic::resume_unwind(Box::new(Interrupted));
        }
    }
    fn cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// How often a waiting call looks for a pending signal.
const SIGNAL_POLL: Duration = Duration::from_millis(20);

/// Runs `work` without the GIL on a helper thread while this thread checks Python's
/// signals every [`SIGNAL_POLL`]: Ctrl-C raises `KeyboardInterrupt` promptly (the
/// exception the signal handler raised), and the computation stops at its next
/// cancellation point (the engine polls [`Progress::cancelled`], also in its parallel
/// kernels).
fn interruptible<T: Send>(
    py: Python<'_>,
    limits: Limits,
    work: impl FnOnce(&TableOptions) -> T + Send,
) -> PyResult<T> {
    let stop = AtomicBool::new(false);
    let (tx, rx) = std::sync::mpsc::channel();
    // Shared with the GIL-free closure below (a receiver alone is not `Sync`).
    let rx = std::sync::Mutex::new(rx);
    std::thread::scope(|scope| {
        let stop = &stop;
        scope.spawn(move || {
            let progress = StopProgress(stop);
            let opts = TableOptions {
                memory_limit: limits.memory,
                progress: &progress,
                force: limits.force,
            };
            let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| work(&opts)));
            let _ = tx.send(r);
        });
        let mut interrupt: Option<PyErr> = None;
        loop {
            let next = py.detach(|| match rx.lock() {
                Ok(r) => r.recv_timeout(SIGNAL_POLL),
                Err(_) => Err(std::sync::mpsc::RecvTimeoutError::Disconnected),
            });
            match next {
                Ok(Ok(value)) => {
                    return match interrupt {
                        Some(e) => Err(e),
                        None => Ok(value),
                    }
                }
                Ok(Err(payload)) => {
                    if let Some(e) = interrupt {
                        return Err(e);
                    }
                    if payload.is::<Interrupted>() {
                        return Err(PyKeyboardInterrupt::new_err("interrupted"));
                    }
                    // A panic in the library: Python sees pyo3's PanicException.
                    std::panic::resume_unwind(payload);
                }
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                    if interrupt.is_none()
                        && let Err(e) = py.check_signals()
                    {
                        stop.store(true, Ordering::Relaxed);
                        interrupt = Some(e);
                    }
                }
                Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                    return Err(
                        interrupt.unwrap_or_else(|| PyKeyboardInterrupt::new_err("interrupted"))
                    );
                }
            }
        }
    })
}

/// A count from Python (a size, a bound): an int ≥ 0 that fits, else `InputError`
/// (not Python's OverflowError or TypeError: every bad argument is an input error).
fn count_arg(value: &Bound<'_, PyAny>, what: &str) -> PyResult<u64> {
    let shown = || value.str().map(|s| s.to_string()).unwrap_or_default();
    if !value.is_instance_of::<PyInt>() || value.is_instance_of::<PyBool>() {
        return Err(input_err(format!(
            "{what} must be an int, got {}",
            value
                .get_type()
                .name()
                .map(|n| n.to_string())
                .unwrap_or_default()
        )));
    }
    value.extract::<u64>().map_err(|_| {
        input_err(format!(
            "{what} must be a natural number below 2^64, got {}",
            shown()
        ))
    })
}

/// As [`count_arg`], for an optional argument.
fn opt_count(value: Option<&Bound<'_, PyAny>>, what: &str) -> PyResult<Option<u64>> {
    match value {
        Some(v) if !v.is_none() => count_arg(v, what).map(Some),
        _ => Ok(None),
    }
}

/// An optional text argument (a formula, a numeration): a str, else `InputError`
/// naming the argument (not Python's TypeError).
fn opt_text(value: Option<&Bound<'_, PyAny>>, what: &str) -> PyResult<Option<String>> {
    match value {
        Some(v) if !v.is_none() => match v.cast::<PyString>() {
            Ok(text) => Ok(Some(text.to_cow()?.into_owned())),
            Err(_) => Err(input_err(format!(
                "{what} must be text (a str), got {}",
                type_name(v)
            ))),
        },
        _ => Ok(None),
    }
}

/// The name of a Python value's type, for messages.
fn type_name(value: &Bound<'_, PyAny>) -> String {
    value
        .get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_default()
}

/// A size in memory: refuses what does not fit a `usize`.
fn usize_arg(value: &Bound<'_, PyAny>, what: &str) -> PyResult<usize> {
    let n = count_arg(value, what)?;
    usize::try_from(n).map_err(|_| input_err(format!("{what} is too large: {n}")))
}

/// Resource limits of one game object (the CLI's global `--max-memory` and `--force`).
#[derive(Clone, Copy)]
struct Limits {
    memory: MemoryLimit,
    force: bool,
}

impl Limits {
    fn from_python(max_memory: Option<&Bound<'_, PyAny>>, force: bool) -> PyResult<Self> {
        let memory = match max_memory {
            None => MemoryLimit::default(),
            Some(m) if m.is_none() => MemoryLimit::default(),
            Some(m) => match m.extract::<u64>() {
                Ok(bytes) => MemoryLimit::new(bytes),
                Err(_) => {
                    let text: String = m.extract().map_err(|_| {
                        input_err("max_memory must be a number of bytes or text like '4G'")
                    })?;
                    MemoryLimit::parse(&text).map_err(py_err)?
                }
            },
        };
        Ok(Limits { memory, force })
    }
}

/// A game of the catalog (or of a rules file): values, moves, tables, checks.
///
/// Made by `nimlab.game(spec)`. Positions are given as text (`"3,5"`, `"4;1,1"` for a
/// sum of take-and-break games) or as a tuple/list of non-negative Python ints of any
/// size (a list of lists for the parts of such a sum). Also made by `nimlab.define`
/// (positions are Python values), `nimlab.sum`, `g + h` and `nimlab.misere`.
#[pyclass(frozen, module = "nimlab", name = "Game")]
struct PyGame {
    game: Arc<dyn EngineGame>,
    /// How Python positions map to the engine's (games defined in Python).
    layout: Layout,
    /// The closed form a rules file declares, if any (the default claim of `check`).
    closed_form: Option<String>,
    /// The P-position predicate a rules file declares, if any.
    p_positions: Option<String>,
    constants: Vec<(String, i64)>,
    limits: Limits,
}

/// How a game's Python positions are read and written.
#[derive(Clone)]
enum Layout {
    /// As the engine reads and shows them: text, ints, tuples of ints.
    Engine,
    /// A game defined in Python: the position is the Python value itself.
    Defined(Arc<defined::DefinedGame>),
    /// A sum with a defined part: a tuple with one position per part (each part's
    /// game is the one inside the sum).
    Sum(Arc<Sum>, Vec<(Arc<dyn EngineGame>, Layout)>),
}

/// The game and layout for misère play: defined games in their plain view (misère
/// play does not split a position into components).
fn plain_of(
    game: &Arc<dyn EngineGame>,
    layout: &Layout,
) -> PyResult<(Arc<dyn EngineGame>, Layout)> {
    Ok(match layout {
        Layout::Engine => (game.clone(), Layout::Engine),
        Layout::Defined(d) if d.is_split() => {
            let plain = Arc::new(d.plain());
            (plain.clone(), Layout::Defined(plain))
        }
        Layout::Defined(_) => (game.clone(), layout.clone()),
        Layout::Sum(_, parts) => {
            let parts = parts
                .iter()
                .map(|(g, l)| plain_of(g, l))
                .collect::<PyResult<Vec<_>>>()?;
            let boxes: Vec<Box<dyn EngineGame>> = parts
                .iter()
                .map(|(g, _)| Box::new(Shared(g.clone())) as Box<dyn EngineGame>)
                .collect();
            let sum = Arc::new(Sum::new(boxes).map_err(py_err)?);
            (sum.clone(), Layout::Sum(sum, parts))
        }
    })
}

impl Layout {
    fn is_engine(&self) -> bool {
        matches!(self, Layout::Engine)
    }
}

/// A game shared between Python objects, as a part of another (a sum, misère play):
/// every method is the shared game's.
struct Shared(Arc<dyn EngineGame>);

impl Transform for Shared {
    fn inner(&self) -> &dyn EngineGame {
        &*self.0
    }
    fn spec(&self) -> String {
        self.0.spec()
    }
    fn capabilities(&self) -> Capabilities<'_> {
        self.0.capabilities()
    }
    fn explain_move(&self, from: &[BigUint], to: &[BigUint]) -> Option<String> {
        self.0.explain_move(from, to)
    }
}

/// Reads a Python position of a game laid out as `layout`, interning the values of
/// defined games (each such part is pushed on `defined` to be explored).
fn read_layout(
    game: &dyn EngineGame,
    layout: &Layout,
    pos: &Bound<'_, PyAny>,
    defined: &mut Vec<(Arc<defined::DefinedGame>, u64)>,
) -> PyResult<Vec<BigUint>> {
    match layout {
        Layout::Engine => read_position(game, pos),
        Layout::Defined(d) => {
            let id = d
                .core
                .intern(pos, &|| format!("a position of {}", game.spec()))?;
            defined.push((d.clone(), id));
            Ok(vec![BigUint::from(id)])
        }
        Layout::Sum(sum, parts) => {
            let wrong = || {
                input_err(format!(
                    "a position of {} is a tuple of {} positions, one per part",
                    game.spec(),
                    parts.len()
                ))
            };
            if pos.is_instance_of::<PyString>() || pos.is_instance_of::<PyBytes>() {
                return Err(wrong());
            }
            let items: Vec<Bound<'_, PyAny>> = pos
                .try_iter()
                .map_err(|_| wrong())?
                .collect::<PyResult<_>>()?;
            if items.len() != parts.len() {
                return Err(wrong());
            }
            let mut read = Vec::with_capacity(parts.len());
            for (i, ((g, l), item)) in parts.iter().zip(&items).enumerate() {
                let p = read_layout(&**g, l, item, defined).map_err(|e| {
                    Python::attach(|py| {
                        if e.is_instance(py, input_error_type(py).ok()?) {
                            let m = e.value(py).str().ok()?.to_string();
                            Some(input_err(format!("part {} ({}): {m}", i + 1, g.spec())))
                        } else {
                            None
                        }
                    })
                    .unwrap_or(e)
                })?;
                let form = g.form();
                let fits = if form.accepts(g.dimension() + 1) {
                    form.accepts(p.len())
                } else {
                    p.len() == g.dimension()
                };
                if !fits {
                    return Err(input_err(nimlab_engine::transform::part_length_message(
                        i,
                        &**g,
                        p.len(),
                    )));
                }
                read.push(p);
            }
            Ok(Components::join(
                &**sum,
                &read.iter().map(|p| &p[..]).collect::<Vec<_>>(),
            ))
        }
    }
}

/// A position of `game` (laid out as `layout`) as Python shows it: a defined game's
/// Python value, a tuple per part of a sum with such a part, else as the documents
/// show positions (a tuple of ints, text for a board).
fn layout_py<'py>(
    py: Python<'py>,
    game: &dyn EngineGame,
    layout: &Layout,
    pos: &[BigUint],
) -> PyResult<Bound<'py, PyAny>> {
    match layout {
        Layout::Engine => doc_py(py, &doc::Pos::of(game, pos)),
        Layout::Defined(d) => {
            let id = match pos {
                [id] => u64::try_from(id).unwrap_or(u64::MAX),
                _ => u64::MAX,
            };
            d.core
                .object(py, id)
                .ok_or_else(|| input_err(format!("{}: no such position", game.spec())))
        }
        Layout::Sum(sum, parts) => {
            let ranges = Components::split(&**sum, pos)
                .ok_or_else(|| input_err(format!("not a position of {}", game.spec())))?;
            let shown = parts
                .iter()
                .zip(ranges)
                .map(|((g, l), r)| layout_py(py, &**g, l, &pos[r]))
                .collect::<PyResult<Vec<_>>>()?;
            Ok(PyTuple::new(py, shown)?.into_any())
        }
    }
}

/// Reads a Python position: text as the CLI reads it, or ints / lists of ints.
fn read_position(game: &dyn EngineGame, pos: &Bound<'_, PyAny>) -> PyResult<Vec<BigUint>> {
    // Bytes iterate as numbers (b'3,5' would be the heaps 51, 44, 53): refused.
    if pos.is_instance_of::<PyBytes>() || pos.is_instance_of::<PyByteArray>() {
        return Err(input_err(
            "a position is text like '3,5' or a tuple of ints, not bytes (decode it first)",
        ));
    }
    if let Ok(text) = pos.cast::<PyString>() {
        return plan::read_position(game, &text.to_cow()?).map_err(py_err);
    }
    refuse_unordered(pos)?;
    if pos.is_instance_of::<PyBool>() {
        return Err(input_err(
            "a position is text like '3,5' or a tuple of ints, not a bool",
        ));
    }
    if pos.is_instance_of::<PyInt>() {
        return read_numbers(game, &[vec![natural(pos)?]]);
    }
    let items: Vec<Bound<'_, PyAny>> = pos
        .try_iter()
        .map_err(|_| input_err("a position is text like '3,5' or a tuple of ints"))?
        .collect::<PyResult<_>>()?;
    let grouped = items.iter().any(|i| !i.is_instance_of::<PyInt>());
    let groups = if grouped {
        items
            .iter()
            .map(|group| {
                refuse_unordered(group)?;
                group
                    .try_iter()
                    .map_err(|_| input_err("a position's parts are tuples of ints"))?
                    .map(|c| natural(&c?))
                    .collect::<PyResult<Vec<_>>>()
            })
            .collect::<PyResult<Vec<_>>>()?
    } else {
        vec![items.iter().map(natural).collect::<PyResult<Vec<_>>>()?]
    };
    read_numbers(game, &groups)
}

/// A position given as Python ints, one list per part of a sum: read as the same
/// numbers written out (`1,2;5`), so ints and text go through the game's one reader.
fn read_numbers(game: &dyn EngineGame, groups: &[Vec<BigUint>]) -> PyResult<Vec<BigUint>> {
    let text = groups
        .iter()
        .map(|g| {
            g.iter()
                .map(|c| c.to_string())
                .collect::<Vec<_>>()
                .join(",")
        })
        .collect::<Vec<_>>()
        .join(";");
    game.read_position(&text).map_err(py_err)
}

/// A dict iterates its keys and a set has no order: neither is a position (or a
/// part of one).
fn refuse_unordered(pos: &Bound<'_, PyAny>) -> PyResult<()> {
    if pos.is_instance_of::<PyDict>()
        || pos.cast::<PyMapping>().is_ok()
        || pos.is_instance_of::<PySet>()
        || pos.is_instance_of::<PyFrozenSet>()
    {
        return Err(input_err(format!(
            "a position is text like '3,5' or a tuple of ints, not a {}",
            type_name(pos)
        )));
    }
    Ok(())
}

/// A natural number from a Python int of any size (not a bool: `True` is no heap).
fn natural(c: &Bound<'_, PyAny>) -> PyResult<BigUint> {
    if !c.is_instance_of::<PyInt>() || c.is_instance_of::<PyBool>() {
        return Err(input_err(format!(
            "coordinates are non-negative ints, got {}",
            c.get_type().name()?
        )));
    }
    c.extract::<BigUint>().map_err(|_| {
        input_err(format!(
            "coordinates are natural numbers (0, 1, 2, …), got {}",
            c.str().map(|s| s.to_string()).unwrap_or_default()
        ))
    })
}

/// An answer document ([`nimlab_json::doc`]) as Python objects: the keys and values of
/// the JSON the CLI and the web write, with integers of any size as Python ints and
/// positions as tuples (see [`to_py`]).
fn doc_py<'py, T: serde::Serialize + ?Sized>(
    py: Python<'py>,
    doc: &T,
) -> PyResult<Bound<'py, PyAny>> {
    to_py::to_py(py, doc)
}

fn periodicity_dict<'py>(py: Python<'py>, p: &Periodicity) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("preperiod", p.preperiod)?;
    d.set_item("period", p.period)?;
    d.set_item("saltus", p.saltus)?;
    d.set_item("values", p.values.clone())?;
    d.set_item("block", p.block().to_vec())?;
    d.set_item("proven", p.proof.is_some())?;
    d.set_item("proof", p.proof.clone())?;
    d.set_item("checked_up_to", p.checked_up_to)?;
    Ok(d)
}

impl PyGame {
    /// A game made here (a defined game, a sum, misère play): no rules file's claims.
    fn made(game: Arc<dyn EngineGame>, layout: Layout, limits: Limits) -> Self {
        PyGame {
            game,
            layout,
            closed_form: None,
            p_positions: None,
            constants: Vec::new(),
            limits,
        }
    }

    /// The engine's position for a Python position; a defined game is explored from
    /// it first (its callables run here, with the GIL: their exceptions and Ctrl-C
    /// raise as in any Python code).
    fn engine_position(&self, py: Python<'_>, pos: &Bound<'_, PyAny>) -> PyResult<Vec<BigUint>> {
        let mut defined = Vec::new();
        let big = read_layout(&*self.game, &self.layout, pos, &mut defined)?;
        for (d, id) in defined {
            d.explore(py, id, self.limits.memory)?;
        }
        Ok(big)
    }

    fn position_report(
        &self,
        py: Python<'_>,
        pos: &Bound<'_, PyAny>,
        with_options: bool,
    ) -> PyResult<PositionReport> {
        let game = &*self.game;
        let big = self.engine_position(py, pos)?;
        interruptible(py, self.limits, |opts| {
            if with_options {
                plan::moves(game, &big, opts)
            } else {
                plan::value(game, &big, opts)
            }
        })?
        .map_err(py_err)
    }

    /// The document of a position's report; positions of a game with a defined part
    /// are the Python values (the document's JSON shows their repr).
    fn report_py<'py>(&self, py: Python<'py>, r: &PositionReport) -> PyResult<Bound<'py, PyAny>> {
        let game = &*self.game;
        let d = doc_py(py, &doc::PositionDoc::new(game, r))?;
        if self.layout.is_engine() {
            return Ok(d);
        }
        let shown = |p: &[BigUint]| layout_py(py, game, &self.layout, p);
        d.set_item("position", shown(&r.position)?)?;
        // The documents list the report's moves and options in its order.
        let moves = r
            .winning_moves
            .iter()
            .map(|m| shown(m))
            .collect::<PyResult<Vec<_>>>()?;
        if d.contains("winning_moves")? {
            d.set_item("winning_moves", PyList::new(py, moves)?)?;
        }
        if let (Some(options), Ok(list)) = (&r.options, d.get_item("options"))
            && let Ok(list) = list.cast::<PyList>()
        {
            for (o, item) in options.iter().zip(list.iter()) {
                item.set_item("position", shown(&o.position)?)?;
            }
        }
        Ok(d)
    }

    /// Refuses what needs positions that are numbers (tables, formulas) for a game
    /// with a part defined in Python.
    fn numbers_only(&self, what: &str) -> PyResult<()> {
        if self.layout.is_engine() {
            return Ok(());
        }
        Err(input_err(format!(
            "{what} needs positions that are numbers; {} has positions that are Python \
             values (a game defined in Python): ask value, outcome, analyse or moves",
            self.game.spec()
        )))
    }
}

#[pymethods]
impl PyGame {
    /// The game's canonical spec, e.g. `ryuoh(p=3)`.
    #[getter]
    fn spec(&self) -> String {
        self.game.spec()
    }

    /// How many coordinates a position has.
    #[getter]
    fn dimension(&self) -> usize {
        self.game.dimension()
    }

    /// Names of the coordinates (as formulas use them), e.g. `['x', 'y']`.
    #[getter]
    fn coordinates(&self) -> Vec<String> {
        self.game.coordinate_names()
    }

    /// What the game can do beyond listing options, e.g. `['big-positions', 'line-kernel']`.
    #[getter]
    fn capabilities(&self) -> Vec<&'static str> {
        self.game.capabilities().names()
    }

    fn __repr__(&self) -> String {
        match &self.layout {
            Layout::Defined(_) => format!("nimlab.define(…, name={:?})", self.game.spec()),
            Layout::Sum(..) => format!("<nimlab.Game {}>", self.game.spec()),
            Layout::Engine => format!("nimlab.game({:?})", self.game.spec()),
        }
    }

    /// The disjunctive sum `self + other` (see `nimlab.sum`).
    fn __add__(&self, other: &Bound<'_, PyAny>) -> PyResult<PyGame> {
        let other = other.cast::<PyGame>().map_err(|_| {
            input_err(format!(
                "a game is added to a game (nimlab.game(...), nimlab.define(...)), not a {}",
                type_name(other)
            ))
        })?;
        sum_of(&[self, other.get()], self.limits)
    }

    /// Misère play of this game (see `nimlab.misere`).
    fn misere(&self) -> PyResult<PyGame> {
        misere_of(self)
    }

    /// The Grundy value of `pos` (an int of any size), or None when the game only
    /// knows the outcome there (a strategy without values).
    fn value(&self, py: Python<'_>, pos: &Bound<'_, PyAny>) -> PyResult<Option<BigUint>> {
        Ok(self.position_report(py, pos, false)?.grundy)
    }

    /// 'P' (the player to move loses) or 'N' (the player to move wins).
    fn outcome(&self, py: Python<'_>, pos: &Bound<'_, PyAny>) -> PyResult<&'static str> {
        Ok(self.position_report(py, pos, false)?.outcome.as_str())
    }

    /// Value, outcome, winning moves and the method that found them (a dict with the
    /// keys of `nimlab value --format json`).
    fn analyse<'py>(
        &self,
        py: Python<'py>,
        pos: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let r = self.position_report(py, pos, false)?;
        self.report_py(py, &r)
    }

    /// As `analyse`, plus `options`: every option with its value and whether it wins
    /// (None, with `options_note`, when there are too many to list).
    fn moves<'py>(&self, py: Python<'py>, pos: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let r = self.position_report(py, pos, true)?;
        self.report_py(py, &r)
    }

    /// One shard of a search split at the root, like `nimlab value GAME POS --shard
    /// i/k --below B`: which nimbers below `below` (default 4) the options of `pos`
    /// whose index is ≡ i (mod k) have, as the CLI's shard document (a dict). Run the
    /// k shards anywhere (Dask workers, Slurm array jobs) and join them with
    /// `merge_search`. Ctrl-C stops it.
    #[pyo3(signature = (pos, shard, *, below = None))]
    fn search_shard<'py>(
        &self,
        py: Python<'py>,
        pos: &Bound<'py, PyAny>,
        shard: &Bound<'py, PyAny>,
        below: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let shard = shard_arg(shard)?;
        let below = match opt_count(below, "below")? {
            Some(b) => u32::try_from(b).map_err(|_| input_err("below is too large"))?,
            None => plan::DEFAULT_SHARD_BELOW,
        };
        let game = &*self.game;
        let big = self.engine_position(py, pos)?;
        let settings = plan::SearchSettings::default();
        let s = interruptible(py, self.limits, |opts| {
            plan::search_shard(game, &big, opts, &settings, shard, below)
        })?
        .map_err(py_err)?;
        doc_py(py, &SearchShardDoc::new(game, &big, &s))
    }

    /// The answer about `pos` from the k shard dicts of `search_shard` (in any order),
    /// like `nimlab value GAME POS --merge FILES`: the dict of `analyse`, after
    /// checking that the shards are of this game and position and fit together.
    fn merge_search<'py>(
        &self,
        py: Python<'py>,
        pos: &Bound<'py, PyAny>,
        shards: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let json = py.import("json")?;
        let text: String = json.call_method1("dumps", (shards,))?.extract()?;
        let docs: Vec<SearchShardDoc> = serde_json::from_str(&text).map_err(|e| {
            input_err(format!(
                "merge_search takes the dicts of search_shard, one per shard: {e}"
            ))
        })?;
        let game = &*self.game;
        let big = self.engine_position(py, pos)?;
        let r = nimlab_json::search_shard::merge(game, &big, &docs).map_err(py_err)?;
        self.report_py(py, &r)
    }

    /// The Grundy table over the box [0, size)^d as a numpy array of dtype uint32 and
    /// shape (y, x) for two coordinates (the last coordinate first, as `nimlab table`
    /// prints and writes .npy). A table with cells that are not positions is a
    /// `numpy.ma.MaskedArray` with those cells masked (their data
    /// `nimlab.NOT_A_POSITION`); `masked=False` gives the plain array instead.
    /// With `with_method=True`, returns `(array, method)` with the planner's method id.
    #[pyo3(signature = (size, *, with_method = false, masked = true))]
    fn table<'py>(
        &self,
        py: Python<'py>,
        size: &Bound<'py, PyAny>,
        with_method: bool,
        masked: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        self.numbers_only("table")?;
        let size = usize_arg(size, "size")?;
        if size == 0 {
            return Err(input_err("size must be at least 1"));
        }
        // NumPy's API is loaded now, not after the computation: loading it with a
        // KeyboardInterrupt pending fails inside rust-numpy as a panic.
        let _ = PyArray1::<u32>::zeros(py, 0, false);
        let game = &*self.game;
        let dims = game.table_box(size);
        let report = interruptible(py, self.limits, |opts| plan::table(game, &dims, opts))?
            .map_err(py_err)?;
        let shape: Vec<usize> = report.table.dims().iter().rev().copied().collect();
        let method = report.method.id();
        let holes = masked && report.table.values().contains(&INVALID);
        // The values are stored first coordinate fastest: NumPy's C order for the
        // reversed shape. The Vec becomes the array's buffer without a copy.
        let mut array = PyArray1::from_vec(py, report.table.into_values())
            .reshape(shape)?
            .into_any();
        if holes {
            array = py
                .import("numpy.ma")?
                .call_method1("masked_equal", (array, INVALID))?;
        }
        if with_method {
            Ok(PyTuple::new(py, [array, method.into_pyobject(py)?.into_any()])?.into_any())
        } else {
            Ok(array)
        }
    }

    /// Compares a conjectured formula with the Grundy values computed from the rules on
    /// the box [0, size)^d, like `nimlab check`. `formula` is the claimed Grundy value
    /// (e.g. `'x xor y'`); or give `p_positions`, a predicate claimed to hold exactly at
    /// the P-positions. Returns a dict: holds, checked, mismatch_count, mismatches
    /// (the first `limit`, each {position, grundy, formula}), box, claim, formula.
    #[pyo3(signature = (formula = None, size = None, *, p_positions = None, limit = None))]
    fn check<'py>(
        &self,
        py: Python<'py>,
        formula: Option<&Bound<'py, PyAny>>,
        size: Option<&Bound<'py, PyAny>>,
        p_positions: Option<&Bound<'py, PyAny>>,
        limit: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        self.numbers_only("check")?;
        let formula = opt_text(formula, "formula")?;
        let p_positions = opt_text(p_positions, "p_positions")?;
        let size = opt_count(size, "size")?.unwrap_or(64);
        let size = usize::try_from(size).map_err(|_| input_err("size is too large"))?;
        let limit = opt_count(limit, "limit")?.unwrap_or(1000);
        let limit = usize::try_from(limit).unwrap_or(usize::MAX);
        let request = CheckRequest {
            formula,
            p_positions,
            size,
            limit,
            want_mask: false,
        };
        let game = &*self.game;
        let declared = Declared {
            closed_form: self.closed_form.as_deref(),
            p_positions: self.p_positions.as_deref(),
            constants: &self.constants,
        };
        let checked = interruptible(py, self.limits, |opts| request.run(game, &declared, opts))?
            .map_err(py_err)?;
        doc_py(py, &doc::CheckDoc::new(game, &checked))
    }

    /// Searches formulas for the Grundy values (or, with `p_positions=True`, predicates
    /// for the P-positions) on a training window of side `size`, verifies them on one of
    /// side `verify_size`, and with `prove=True` proves each one found for all positions,
    /// like `nimlab guess`. Returns a dict with the keys of its JSON: found (each
    /// {formula, size, family, windows, proof}), failed_verification, nearest, searched,
    /// limits, training, verification.
    #[pyo3(signature = (size = None, verify_size = None, *, p_positions = false, prove = false))]
    fn guess<'py>(
        &self,
        py: Python<'py>,
        size: Option<&Bound<'py, PyAny>>,
        verify_size: Option<&Bound<'py, PyAny>>,
        p_positions: bool,
        prove: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        self.numbers_only("guess")?;
        use nimlab_json::guess::{guess_game, GuessDoc, GuessRequest};
        let side = |v: Option<&Bound<'py, PyAny>>, what: &str| -> PyResult<Option<usize>> {
            opt_count(v, what)?
                .map(|n| usize::try_from(n).map_err(|_| input_err(format!("{what} is too large"))))
                .transpose()
        };
        let request = GuessRequest {
            claim: if p_positions {
                nimlab_formula::check::Claim::PPositions
            } else {
                nimlab_formula::check::Claim::Grundy
            },
            size: side(size, "size")?,
            verify_size: side(verify_size, "verify_size")?,
            prove,
        };
        let game = &*self.game;
        let constants = &self.constants;
        let run = interruptible(py, self.limits, |opts| {
            guess_game(game, constants, &request, opts)
        })?
        .map_err(py_err)?;
        doc_py(py, &GuessDoc::new(&run))
    }

    /// The certificate of this octal or hexadecimal game's period proven below `up_to`
    /// (`nimlab periodicity --certificate`): a dict with the keys of the JSON file,
    /// `"schema": 1` first; check it with `nimlab.certify`.
    #[pyo3(signature = (up_to = None))]
    fn certificate<'py>(
        &self,
        py: Python<'py>,
        up_to: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        self.numbers_only("certificate")?;
        let up_to = opt_count(up_to, "up_to")?;
        let game = &*self.game;
        let mut cert = interruptible(py, self.limits, |opts| {
            nimlab_json::certificate::write(game, up_to, opts)
        })?
        .map_err(py_err)?;
        // As the file holds it: the schema version first.
        if let Value::Object(map) = &mut cert {
            let mut with_schema = serde_json::Map::new();
            with_schema.insert("schema".into(), nimlab_json::SCHEMA.into());
            with_schema.extend(std::mem::take(map));
            *map = with_schema;
        }
        doc_py(py, &cert)
    }

    /// The misère quotient of a take-and-break game's heaps 0..=max_heap: a dict with
    /// `size`, `p_size`, `tame`, `presentation`, `generator_heaps`, `p_portion` (words),
    /// `changes` (heaps where the presentation changed), `heaps` (each heap's element
    /// as a word), `heap_is_p`, `nim` (normal-play values) and `table` (`table[x][y]`:
    /// the index of x·y; 0 is the identity; `elements[x]` its word).
    /// `max_elements` bounds a candidate quotient's size (as the CLI's `--max-elements`).
    #[pyo3(signature = (max_heap = None, max_elements = None))]
    fn misere_quotient<'py>(
        &self,
        py: Python<'py>,
        max_heap: Option<&Bound<'py, PyAny>>,
        max_elements: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        self.numbers_only("misere_quotient")?;
        use nimlab_engine::misere_quotient::{
            MisereQuotient, QuotientOptions, DEFAULT_MAX_ELEMENTS,
        };
        let max_heap = opt_count(max_heap, "max_heap")?.unwrap_or(30);
        let max_elements = match max_elements {
            Some(m) if !m.is_none() => usize_arg(m, "max_elements")?,
            _ => DEFAULT_MAX_ELEMENTS,
        };
        if max_elements == 0 {
            return Err(input_err("max_elements must be at least 1"));
        }
        let game = &*self.game;
        let q = interruptible(py, self.limits, |opts| {
            let limits = QuotientOptions {
                memory_limit: opts.memory_limit,
                max_elements,
                progress: opts.progress,
                ..QuotientOptions::default()
            };
            MisereQuotient::of_game(game, max_heap, &limits)
        })?
        .map_err(py_err)?;
        let d = PyDict::new(py);
        d.set_item("size", q.size())?;
        d.set_item("p_size", q.p_size())?;
        d.set_item("tame", q.is_tame())?;
        d.set_item("presentation", q.presentation.to_string())?;
        d.set_item("generator_heaps", q.generator_heaps.clone())?;
        let n = q.size() as u32;
        d.set_item(
            "p_portion",
            (0..n)
                .filter(|&x| q.p_portion[x as usize])
                .map(|x| q.word(x))
                .collect::<Vec<_>>(),
        )?;
        d.set_item("elements", (0..n).map(|x| q.word(x)).collect::<Vec<_>>())?;
        d.set_item("changes", q.changes.clone())?;
        d.set_item(
            "heaps",
            q.heap_elements
                .iter()
                .map(|&x| q.word(x))
                .collect::<Vec<_>>(),
        )?;
        d.set_item(
            "heap_is_p",
            q.heap_elements
                .iter()
                .map(|&x| q.p_portion[x as usize])
                .collect::<Vec<_>>(),
        )?;
        d.set_item("nim", q.nim_sequence.clone())?;
        let table: Vec<Vec<u32>> = q
            .monoid
            .table()
            .chunks(q.size())
            .map(|r| r.to_vec())
            .collect();
        d.set_item("table", table)?;
        Ok(d)
    }

    /// Proves a Grundy formula (or, with `p_positions`, a P-position predicate) for
    /// EVERY position with automata, like `nimlab prove`. `numeration` is `'base2'`,
    /// `'base-B'` or `'fib'`. Returns the document of `nimlab prove --format json` as a
    /// dict: game, claim, text, numeration, moves, positions, automata, statements (each
    /// {name, meaning, holds, states, seconds, walnut}), seconds, and result ({proved},
    /// or when false {proved, statement, position, option, value, explanation,
    /// confirmed, recheck}; positions as strings of digits, of any size). Raises
    /// NimlabError when the claim is not expressible.
    #[pyo3(signature = (formula = None, *, p_positions = None, numeration = None))]
    fn prove<'py>(
        &self,
        py: Python<'py>,
        formula: Option<&Bound<'py, PyAny>>,
        p_positions: Option<&Bound<'py, PyAny>>,
        numeration: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        self.numbers_only("prove")?;
        let formula = opt_text(formula, "formula")?;
        let p_positions = opt_text(p_positions, "p_positions")?;
        let numeration = opt_text(numeration, "numeration")?;
        let numeration = numeration.as_deref().unwrap_or("base2");
        use nimlab_formula::prove::{parse_numeration, prove, ProveOptions};
        let declared = Declared {
            closed_form: self.closed_form.as_deref(),
            p_positions: self.p_positions.as_deref(),
            constants: &self.constants,
        };
        let (claim, text) = nimlab_formula::check::choose_claim(
            formula.as_deref(),
            p_positions.as_deref(),
            &*self.game,
            &declared,
        )
        .map_err(py_err)?;
        let num = parse_numeration(numeration).map_err(input_err)?;
        let game = &*self.game;
        let constants = self.constants.clone();
        let proof = interruptible(py, self.limits, |opts| {
            let opts = ProveOptions {
                table: TableOptions {
                    memory_limit: opts.memory_limit,
                    progress: opts.progress,
                    force: opts.force,
                },
                constants,
            };
            prove(game, claim, &text, num, &opts)
        })?
        .map_err(|e| input_err(e.to_string()))?;
        doc_py(py, &nimlab_json::reports::ProofDoc::new(&proof))
    }

    /// Preperiod and period of the Grundy sequence of a one-heap game: proven when the
    /// game can prove it (subtraction, octal games), else observed on n < up_to. A dict
    /// (preperiod, period, saltus, values, block, proven, proof, checked_up_to, method),
    /// or None when no period is found. For a two-coordinate game give `rows=(a, b)`:
    /// a list of (row, dict or None), periods G(x + p, y) = G(x, y) + saltus observed on
    /// x < up_to (default 2000).
    #[pyo3(signature = (up_to = None, *, rows = None))]
    fn periodicity<'py>(
        &self,
        py: Python<'py>,
        up_to: Option<&Bound<'py, PyAny>>,
        rows: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        self.numbers_only("periodicity")?;
        let up_to = opt_count(up_to, "up_to")?;
        if up_to == Some(0) {
            return Err(input_err("up_to must be at least 1"));
        }
        let rows = match rows {
            Some(r) if !r.is_none() => {
                let pair: Vec<Bound<'py, PyAny>> = r
                    .try_iter()
                    .map_err(|_| input_err("rows is a pair (first, last) of ints"))?
                    .collect::<PyResult<_>>()?;
                match pair.as_slice() {
                    [a, b] => Some((count_arg(a, "rows")?, count_arg(b, "rows")?)),
                    _ => return Err(input_err("rows is a pair (first, last) of ints")),
                }
            }
            _ => None,
        };
        let game = &*self.game;
        if let Some((first, last)) = rows {
            if first > last {
                return Err(input_err(format!(
                    "rows ({first}, {last}) is empty (give the smaller row first)"
                )));
            }
            let x = up_to.unwrap_or(plan::DEFAULT_OBSERVED_WINDOW);
            let found = interruptible(py, self.limits, |opts| {
                plan::row_periodicity(game, (first, last), x, opts)
            })?
            .map_err(py_err)?;
            let list = PyList::empty(py);
            for (y, p) in &found {
                let p = match p {
                    Some(p) => periodicity_dict(py, p)?.into_any(),
                    None => py.None().into_bound(py),
                };
                list.append((y, p))?;
            }
            return Ok(list.into_any());
        }
        let (found, method, searched) =
            interruptible(py, self.limits, |opts| plan::periodicity(game, up_to, opts))?
                .map_err(py_err)?;
        doc_py(
            py,
            &doc::PeriodicityDoc::new(game, found.as_ref(), method.id(), searched),
        )
    }
}

/// Checks a periodicity certificate (`nimlab certify`): `certificate` is the text of
/// the file or the dict `Game.certificate()` returned. Returns the verdict as a dict
/// (file, game, holds, preperiod, period, bound, sha256, refuted). A malformed or
/// self-contradicting certificate raises InputError.
#[pyfunction]
#[pyo3(signature = (certificate, *, name = "certificate", max_memory = None))]
fn certify<'py>(
    py: Python<'py>,
    certificate: &Bound<'py, PyAny>,
    name: &str,
    max_memory: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let limits = Limits::from_python(max_memory, false)?;
    let text = match certificate.cast::<PyString>() {
        Ok(s) => s.to_cow()?.into_owned(),
        Err(_) => {
            let json = py.import("json")?;
            json.call_method1("dumps", (certificate,))?.extract()?
        }
    };
    let verdict = interruptible(py, limits, |opts| {
        nimlab_json::certificate::check(&text, name, opts)
    })?
    .map_err(py_err)?;
    doc_py(py, &doc::CertifyDoc::new(name, &verdict))
}

/// The game named by `spec` (e.g. `'ryuoh(p=3)'`, `'subtraction(s={1,3,4})'`), or read
/// from a rules file: `rules=PATH` (a str or path), or the TOML text itself — with
/// `rules_text=TEXT`, or as `rules=` when the str has a line break (a path has none).
/// `max_memory` (bytes, or text like `'4G'`; default half of physical memory) bounds
/// tables and solvers; `force=True` runs brute force even when its estimate is very
/// long.
#[pyfunction]
#[pyo3(signature = (spec = None, *, rules = None, rules_text = None, max_memory = None, force = false))]
fn game(
    spec: Option<&Bound<'_, PyAny>>,
    rules: Option<&Bound<'_, PyAny>>,
    rules_text: Option<&Bound<'_, PyAny>>,
    max_memory: Option<&Bound<'_, PyAny>>,
    force: bool,
) -> PyResult<PyGame> {
    let spec: Option<String> = match spec {
        Some(s) if !s.is_none() => Some(s.extract().map_err(|_| {
            input_err(format!(
                "a game is text like 'wythoff' or 'ryuoh(p=3)', got {}",
                s.get_type()
                    .name()
                    .map(|n| n.to_string())
                    .unwrap_or_default()
            ))
        })?),
        _ => None,
    };
    let mut text = opt_text(rules_text, "rules_text")?;
    let rules: Option<PathBuf> = match rules {
        Some(r) if !r.is_none() => match r.cast::<PyString>() {
            // TOML text has line breaks; a path never does.
            Ok(s) if s.to_cow()?.contains('\n') => {
                if text.is_some() {
                    return Err(input_err("give either rules or rules_text, not both"));
                }
                text = Some(s.to_cow()?.into_owned());
                None
            }
            _ => Some(r.extract().map_err(|_| {
                input_err("rules is the path of a rules file (or its TOML text, of several lines)")
            })?),
        },
        _ => None,
    };
    let limits = Limits::from_python(max_memory, force)?;
    let source = match text {
        Some(text) => {
            if spec.is_some() || rules.is_some() {
                return Err(input_err(
                    "give one of a game, a rules file and a rules text, not several",
                ));
            }
            nimlab_games::source::load_text(&text, "rules_text")
        }
        None => nimlab_games::source::load(spec.as_deref(), rules.as_deref()),
    }
    .map_err(py_err)?;
    Ok(PyGame {
        game: Arc::from(source.game),
        layout: Layout::Engine,
        closed_form: source.closed_form,
        p_positions: source.p_positions,
        constants: source.constants,
        limits,
    })
}

/// A game defined in Python. `options(pos)` returns the positions one move from `pos`
/// (an iterable; `[]` when the game is over there). Positions are any hashable Python
/// values — tuples, frozensets, strings, ints — and are given to `value`, `outcome`,
/// `analyse` and `moves` as themselves; answers show them as themselves too (their
/// `repr` in JSON). Every play must end: a position reached again raises
/// ContractError. `name` names the game in answers and messages.
///
/// Optional: `canonical(pos)` returns one representative of the positions that are
/// the same game (e.g. the heaps sorted): positions with one canonical form are solved
/// once. `components(pos)` returns the independent parts of `pos`, positions of this
/// same game whose disjunctive sum `pos` is (e.g. its heaps): the value is the nim-sum
/// of theirs, each solved once. Both are checked against the game's longest plays.
///
/// A query first calls the callables once on every position reachable from the one
/// asked — with `components`, on the parts only, never on a position that splits
/// (but the asked one) — then solves; the game object keeps their answers.
/// Tables, formula checks and proofs need positions that are numbers: they refuse.
///
/// The game adds to others: `nimlab.sum(g, h)` or `g + h`, whose positions are tuples
/// with one position per part (`(pos, (3, 5))` for `g + nimlab.game("nim")`); misère
/// play is `nimlab.misere(g)` or `g.misere()`. An exception in a callable propagates
/// (with a note naming the position); Ctrl-C raises KeyboardInterrupt.
#[pyfunction]
#[pyo3(signature = (options, *, name, canonical = None, components = None, max_memory = None, force = false))]
fn define(
    py: Python<'_>,
    options: &Bound<'_, PyAny>,
    name: &Bound<'_, PyAny>,
    canonical: Option<&Bound<'_, PyAny>>,
    components: Option<&Bound<'_, PyAny>>,
    max_memory: Option<&Bound<'_, PyAny>>,
    force: bool,
) -> PyResult<PyGame> {
    let name = opt_text(Some(name), "name")?.unwrap_or_default();
    if name.trim().is_empty() {
        return Err(input_err("name must name the game (a non-empty str)"));
    }
    let callable = |f: Option<&Bound<'_, PyAny>>, what: &str| -> PyResult<Option<Py<PyAny>>> {
        match f {
            Some(f) if !f.is_none() => {
                if f.is_callable() {
                    Ok(Some(f.clone().unbind()))
                } else {
                    Err(input_err(format!(
                        "{what} must be a function of a position, got a {}",
                        type_name(f)
                    )))
                }
            }
            _ => Ok(None),
        }
    };
    let options = callable(Some(options), "options")?.expect("given");
    let canonical = callable(canonical, "canonical")?;
    let components = callable(components, "components")?;
    let limits = Limits::from_python(max_memory, force)?;
    let defined = Arc::new(defined::DefinedGame::new(Arc::new(defined::Defined::new(
        py, name, options, canonical, components,
    ))));
    Ok(PyGame::made(
        defined.clone(),
        Layout::Defined(defined),
        limits,
    ))
}

/// The disjunctive sum of `games` (two-player, normal play): the sum of the catalog
/// (`nimlab.game("sum(nim,wythoff)")`) also for games it cannot name, such as games
/// defined in Python. A sum with a defined part takes and shows its positions as
/// tuples with one position per part; otherwise as the catalog's sum. `g + h` is
/// `nimlab.sum(g, h)`. The limits are the first game's unless given.
#[pyfunction]
#[pyo3(signature = (*games, max_memory = None, force = None))]
fn sum(
    games: &Bound<'_, PyTuple>,
    max_memory: Option<&Bound<'_, PyAny>>,
    force: Option<bool>,
) -> PyResult<PyGame> {
    let parts = games
        .iter()
        .map(|g| {
            g.cast_into::<PyGame>().map_err(|e| {
                input_err(format!(
                    "nimlab.sum takes games (nimlab.game(...), nimlab.define(...)), not a {}",
                    type_name(&e.into_inner())
                ))
            })
        })
        .collect::<PyResult<Vec<_>>>()?;
    let first = parts
        .first()
        .ok_or_else(|| input_err("nimlab.sum needs at least one game"))?
        .get()
        .limits;
    let limits = match (max_memory, force) {
        (None, None) => first,
        _ => Limits::from_python(max_memory, force.unwrap_or(first.force))?,
    };
    let refs: Vec<&PyGame> = parts.iter().map(|g| g.get()).collect();
    sum_of(&refs, limits)
}

fn sum_of(parts: &[&PyGame], limits: Limits) -> PyResult<PyGame> {
    let games = parts
        .iter()
        .map(|g| nimlab_games::nplayer::refuse_inside("sum", Box::new(Shared(g.game.clone()))))
        .collect::<Result<Vec<_>, _>>()
        .map_err(py_err)?;
    let sum = Arc::new(Sum::new(games).map_err(py_err)?);
    let layout = if parts.iter().all(|g| g.layout.is_engine()) {
        Layout::Engine
    } else {
        Layout::Sum(
            sum.clone(),
            parts
                .iter()
                .map(|g| (g.game.clone(), g.layout.clone()))
                .collect(),
        )
    };
    Ok(PyGame::made(sum, layout, limits))
}

/// Misère play of `game` (the player who makes the last move loses), as the catalog's
/// `misere(…)` — also for games defined in Python. Same as `game.misere()`.
#[pyfunction]
fn misere(game: &Bound<'_, PyAny>) -> PyResult<PyGame> {
    let game = game.cast::<PyGame>().map_err(|_| {
        input_err(format!(
            "nimlab.misere takes a game (nimlab.game(...), nimlab.define(...)), not a {}",
            type_name(game)
        ))
    })?;
    misere_of(game.get())
}

fn misere_of(game: &PyGame) -> PyResult<PyGame> {
    let (plain, layout) = plain_of(&game.game, &game.layout)?;
    let inner =
        nimlab_games::nplayer::refuse_inside("misere", Box::new(Shared(plain))).map_err(py_err)?;
    if inner.terminal_value() != 0 {
        return Err(input_err(format!(
            "misere({}): the game is already in misère play; misère applies once, to the whole game",
            inner.spec()
        )));
    }
    Ok(PyGame {
        game: Arc::new(Misere::new(inner)),
        layout,
        closed_form: None,
        p_positions: None,
        constants: game.constants.clone(),
        limits: game.limits,
    })
}

/// The catalog: one dict per game family (name, summary, parameters, position, source,
/// theorems, capabilities), as `nimlab games --format json`.
#[pyfunction]
fn games(py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
    doc_py(py, &nimlab_json::catalog(&nimlab_games::catalog()).games)
}

/// Every registered theorem: dicts with id, statement and source (`nimlab theorems`).
#[pyfunction]
fn theorems(py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
    let list: Vec<_> = nimlab_games::all_theorems()
        .iter()
        .map(doc::TheoremDoc::new)
        .collect();
    doc_py(py, &list)
}

/// Verifies theorems against brute force on a window of `size` (`nimlab theorems
/// verify`): those whose id is `id` or starts with it (all by default). One dict per
/// theorem: id, holds, and window and checked, or counterexample.
#[pyfunction]
#[pyo3(signature = (id = None, *, size = None, max_memory = None, force = false))]
fn verify<'py>(
    py: Python<'py>,
    id: Option<String>,
    size: Option<&Bound<'py, PyAny>>,
    max_memory: Option<&Bound<'py, PyAny>>,
    force: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let size = match size {
        Some(s) if !s.is_none() => usize_arg(s, "size")?,
        _ => 64,
    };
    if size == 0 {
        return Err(input_err("size must be at least 1"));
    }
    let limits = Limits::from_python(max_memory, force)?;
    let chosen: Vec<_> = nimlab_games::all_theorems()
        .into_iter()
        .filter(|t| t.is_chosen_by(id.as_deref()))
        .collect();
    if chosen.is_empty() {
        return Err(input_err(format!(
            "no theorem with id '{}' (see nimlab.theorems())",
            id.unwrap_or_default()
        )));
    }
    let verdicts = interruptible(py, limits, |opts| {
        let ctx = CheckContext {
            size,
            memory_limit: opts.memory_limit,
            progress: opts.progress,
            force: opts.force,
        };
        chosen
            .iter()
            .map(|t| t.verify(&ctx))
            .collect::<Result<Vec<_>, _>>()
    })?
    .map_err(py_err)?;
    let list: Vec<_> = chosen
        .iter()
        .zip(&verdicts)
        .map(|(t, v)| doc::VerdictDoc::new(&t.id, v))
        .collect();
    doc_py(py, &list)
}

/// A shard `(i, k)` from Python: two naturals with 0 ≤ i < k, else `InputError`.
fn shard_arg(value: &Bound<'_, PyAny>) -> PyResult<(u64, u64)> {
    let bad = || input_err("shard must be a pair (i, k) of ints with 0 ≤ i < k");
    let pair = value.cast::<PyTuple>().map_err(|_| bad())?;
    if pair.len() != 2 {
        return Err(bad());
    }
    Ok((
        count_arg(&pair.get_item(0)?, "shard[0]")?,
        count_arg(&pair.get_item(1)?, "shard[1]")?,
    ))
}

/// Proven preperiods and periods of every member of a family (`nimlab sweep`; the
/// family `subtraction`: every set of `size` elements with max ≤ `max`). `shard=(i, k)`
/// takes the members whose lexicographic index is ≡ i (mod k), like `--shard i/k`:
/// run the k shards anywhere (Dask workers, Slurm array jobs) and join them with
/// `merge_sweep`. Rows are dicts {s, preperiod, period}, the CLI's JSON "results",
/// sorted by period descending, preperiod descending, then set. Ctrl-C stops it.
#[pyfunction]
#[pyo3(signature = (family, max, size, *, shard = None, up_to = None, max_memory = None))]
fn sweep<'py>(
    py: Python<'py>,
    family: &str,
    max: &Bound<'py, PyAny>,
    size: &Bound<'py, PyAny>,
    shard: Option<&Bound<'py, PyAny>>,
    up_to: Option<&Bound<'py, PyAny>>,
    max_memory: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let request = nimlab_games::SweepRequest {
        max: count_arg(max, "max")?,
        size: count_arg(size, "size")?,
        shard: match shard {
            Some(s) if !s.is_none() => shard_arg(s)?,
            _ => (0, 1),
        },
        up_to: opt_count(up_to, "up_to")?.unwrap_or(10_000_000),
    };
    let limits = Limits::from_python(max_memory, false)?;
    let doc = interruptible(py, limits, |opts| {
        nimlab_json::census::sweep(family, &request, None, opts)
    })?
    .map_err(py_err)?;
    doc_py(py, &doc.results)
}

/// Joins the shards of a sweep (lists of rows from `sweep(..., shard=(i, k))`) into
/// the rows of the unsharded sweep, in its order.
#[pyfunction]
fn merge_sweep<'py>(py: Python<'py>, parts: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let json = py.import("json")?;
    let text: String = json.call_method1("dumps", (parts,))?.extract()?;
    let parts: Vec<Vec<nimlab_json::census::SweepRowDoc>> =
        serde_json::from_str(&text).map_err(|e| {
            input_err(format!(
                "merge_sweep takes lists of sweep rows {{s, preperiod, period}}: {e}"
            ))
        })?;
    let rows = nimlab_json::census::merge_sweep(&parts).map_err(py_err)?;
    doc_py(py, &rows)
}

/// The octal census (`nimlab census octal`): every code w.d1…dD with `digits` digits
/// after the point (base 8 or 16, whole parts `whole`), each solved (a period proven
/// below `up_to` heaps) or left unsolved with its sparse-space figures. Returns the
/// census lines (dicts, the CLI's JSON lines) in census order. `shard=(i, k)` takes the
/// codes whose census index is ≡ i (mod k); `done` (lines of an earlier run with the
/// same settings) are skipped and kept, so an interrupted census resumes. Ctrl-C stops it.
#[pyfunction]
#[pyo3(signature = (digits, *, base = None, whole = None, up_to = None, shard = None, done = None, max_memory = None, force = false))]
#[allow(clippy::too_many_arguments)]
fn census<'py>(
    py: Python<'py>,
    digits: &Bound<'py, PyAny>,
    base: Option<&Bound<'py, PyAny>>,
    whole: Option<Vec<Bound<'py, PyAny>>>,
    up_to: Option<&Bound<'py, PyAny>>,
    shard: Option<&Bound<'py, PyAny>>,
    done: Option<&Bound<'py, PyAny>>,
    max_memory: Option<&Bound<'py, PyAny>>,
    force: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let digits = usize_arg(digits, "digits")?;
    let base = opt_count(base, "base")?.unwrap_or(8);
    let base = u32::try_from(base).unwrap_or(u32::MAX);
    let wholes = match whole {
        None => vec![0u8],
        Some(list) => list
            .iter()
            .map(|w| count_arg(w, "whole").map(|n| u8::try_from(n).unwrap_or(u8::MAX)))
            .collect::<PyResult<Vec<u8>>>()?,
    };
    let shard = match shard {
        Some(s) if !s.is_none() => shard_arg(s)?,
        _ => (0, 1),
    };
    let up_to = opt_count(up_to, "up_to")?.unwrap_or(1 << 16);
    let earlier = census_lines_arg(py, done)?;
    let shape =
        nimlab_json::census::CensusShape::new(digits, base, &wholes, shard).map_err(py_err)?;
    let census = nimlab_json::census::OctalCensus::new(shape, up_to).map_err(py_err)?;
    let limits = Limits::from_python(max_memory, force)?;
    let lines =
        interruptible(py, limits, |opts| census.collect(&earlier, opts))?.map_err(py_err)?;
    doc_py(py, &lines)
}

/// Census lines from Python: a list of dicts (or None).
fn census_lines_arg(py: Python<'_>, lines: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<Value>> {
    let Some(lines) = lines.filter(|l| !l.is_none()) else {
        return Ok(Vec::new());
    };
    let json = py.import("json")?;
    let text: String = json.call_method1("dumps", (lines,))?.extract()?;
    let values: Vec<Value> = serde_json::from_str(&text)
        .map_err(|e| input_err(format!("census lines must be a list of dicts: {e}")))?;
    nimlab_json::census::lines_from_values(&values).map_err(py_err)
}

/// Joins census lines (from `census(..., shard=(i, k))` runs, or read from the CLI's
/// JSON-lines files) into the merged document {count, games, solved} of `nimlab census
/// merge`: sorted by census index, each game once; lines that disagree raise InputError.
#[pyfunction]
#[pyo3(signature = (lines, *, max_memory = None))]
fn merge_census<'py>(
    py: Python<'py>,
    lines: &Bound<'py, PyAny>,
    max_memory: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let limits = Limits::from_python(max_memory, false)?;
    let lines = census_lines_arg(py, Some(lines))?;
    let mut merged = nimlab_json::census::CensusMerge::new(limits.memory);
    for (i, line) in lines.iter().enumerate() {
        merged.add(line, &format!("line {i}")).map_err(py_err)?;
    }
    doc_py(py, &merged.document().map_err(py_err)?)
}

/// nimlab: Sprague–Grundy values, tables, conjecture checks and theorems for impartial
/// games, from the same library as the `nimlab` command line.
#[pymodule]
fn nimlab(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("NOT_A_POSITION", INVALID)?;
    m.add("NimlabError", py.get_type::<NimlabError>())?;
    m.add("InputError", input_error_type(py)?)?;
    m.add("TooLargeError", py.get_type::<TooLargeError>())?;
    m.add("TooLongError", py.get_type::<TooLongError>())?;
    m.add("ContractError", py.get_type::<ContractError>())?;
    m.add_class::<PyGame>()?;
    m.add_function(wrap_pyfunction!(game, m)?)?;
    m.add_function(wrap_pyfunction!(define, m)?)?;
    m.add_function(wrap_pyfunction!(sum, m)?)?;
    m.add_function(wrap_pyfunction!(misere, m)?)?;
    m.add_function(wrap_pyfunction!(games, m)?)?;
    m.add_function(wrap_pyfunction!(theorems, m)?)?;
    m.add_function(wrap_pyfunction!(verify, m)?)?;
    m.add_function(wrap_pyfunction!(certify, m)?)?;
    m.add_function(wrap_pyfunction!(sweep, m)?)?;
    m.add_function(wrap_pyfunction!(merge_sweep, m)?)?;
    m.add_function(wrap_pyfunction!(census, m)?)?;
    m.add_function(wrap_pyfunction!(merge_census, m)?)?;
    Ok(())
}
