//! What the automata of one computation may spend, and how it is stopped.
//!
//! A proof builds automata deep inside [`crate::Fo::automaton`]; threading a limit
//! through every product and projection would touch every signature, so the limit is
//! set once around the computation ([`with_budget`]) and every construction loop asks
//! [`check`] as it grows: more bytes than allowed gives [`Error::TooLarge`] before the
//! automaton is built, a cancelled computation [`Error::Cancelled`] within one state.

use crate::{Error, Result};
use std::cell::Cell;

type Cancel = dyn Fn() -> bool;

thread_local! {
    static CURRENT: Cell<Option<(u64, *const Cancel)>> = const { Cell::new(None) };
    /// Bytes of the transition tables of every automaton alive on this thread.
    static LIVE: Cell<usize> = const { Cell::new(0) };
}

/// An automaton's transition table, counted while it lives: [`check`] adds every
/// automaton alive on the thread to the one under construction, so the operands and
/// intermediate results of a proof count against its budget too.
#[derive(Debug, PartialEq, Eq)]
pub struct Transitions(Vec<u32>);

impl Transitions {
    fn bytes(&self) -> usize {
        self.0.capacity() * 4
    }
}

impl From<Vec<u32>> for Transitions {
    fn from(v: Vec<u32>) -> Self {
        let t = Transitions(v);
        LIVE.with(|l| l.set(l.get() + t.bytes()));
        t
    }
}

impl Clone for Transitions {
    fn clone(&self) -> Self {
        Transitions::from(self.0.clone())
    }
}

impl Drop for Transitions {
    fn drop(&mut self) {
        let b = self.bytes();
        // an automaton dropped on another thread than it was made on: never below 0
        LIVE.with(|l| l.set(l.get().saturating_sub(b)));
    }
}

impl std::ops::Deref for Transitions {
    type Target = [u32];
    fn deref(&self) -> &[u32] {
        &self.0
    }
}

/// Bytes of the automata alive on this thread.
pub fn live_bytes() -> usize {
    LIVE.with(|l| l.get())
}

/// Runs `f` with at most `max_bytes` for the automata: every one alive on this thread
/// plus the one under construction (its transitions and the tables that number its
/// states); `cancelled` is asked at every state built. Restores the previous budget
/// afterwards, also on a panic.
///
/// ```
/// use nimlab_automata::{budget, Error, Fo, Numeration, Rel};
/// let n = Numeration::Base(2);
/// // x + y = z needs a few states: fine in 1 MB, refused in 100 bytes
/// let f = Fo::linear(vec![(0, 1), (1, 1), (2, -1)], 0, Rel::Eq);
/// assert!(budget::with_budget(1 << 20, &|| false, || f.automaton(&n)).is_ok());
/// let small = budget::with_budget(100, &|| false, || f.automaton(&n));
/// assert!(matches!(small, Err(Error::TooLarge(_))));
/// let stopped = budget::with_budget(1 << 20, &|| true, || f.automaton(&n));
/// assert_eq!(stopped, Err(Error::Cancelled));
/// ```
pub fn with_budget<R>(max_bytes: u64, cancelled: &dyn Fn() -> bool, f: impl FnOnce() -> R) -> R {
    struct Restore(Option<(u64, *const Cancel)>);
    impl Drop for Restore {
        fn drop(&mut self) {
            CURRENT.with(|c| c.set(self.0));
        }
    }
    let ptr: *const (dyn Fn() -> bool + '_) = cancelled;
    // SAFETY: only the lifetime is erased. The pointer is dereferenced by `check` on
    // this thread only, and only while `f` runs: `Restore` puts the previous value
    // back before this function returns or unwinds, so `cancelled` outlives every use.
    let ptr: *const Cancel = unsafe { std::mem::transmute(ptr) };
    let _restore = Restore(CURRENT.with(|c| c.replace(Some((max_bytes, ptr)))));
    f()
}

/// Whether a construction that holds `bytes` may go on: `Err(TooLarge)` past the
/// budget, `Err(Cancelled)` once the computation is cancelled; always `Ok` outside
/// [`with_budget`].
pub fn check(bytes: usize) -> Result<()> {
    let Some((max, cancel)) = CURRENT.with(|c| c.get()) else {
        return Ok(());
    };
    // SAFETY: see `with_budget`: set only while the closure it points to is alive.
    if unsafe { (*cancel)() } {
        return Err(Error::Cancelled);
    }
    let total = bytes.saturating_add(live_bytes()) as u64;
    if total > max {
        return Err(Error::TooLarge(format!(
            "automata of more than {} (the memory limit allows {} for them)",
            human(total),
            human(max)
        )));
    }
    Ok(())
}

/// Bytes in words: `12.5 MB`.
pub fn human(b: u64) -> String {
    const UNITS: [&str; 5] = ["B", "kB", "MB", "GB", "TB"];
    let mut v = b as f64;
    let mut u = 0;
    while v >= 1000.0 && u + 1 < UNITS.len() {
        v /= 1000.0;
        u += 1;
    }
    if u == 0 {
        format!("{b} B")
    } else {
        format!("{v:.1} {}", UNITS[u])
    }
}
