//! Progress reporting without a UI dependency: surfaces plug in a bar.

/// Receives progress of a long computation. Implementations must be cheap and
/// thread-safe; the engine calls [`Progress::advance`] in coarse steps.
pub trait Progress: Sync {
    /// Announces the total amount of work (in the engine's units, e.g. cells).
    fn start(&self, total: u64, what: &str);
    /// Reports `delta` more units done.
    fn advance(&self, delta: u64);
    /// The computation is over.
    fn finish(&self) {}
    /// Whether the computation should stop now (Ctrl-C, a stopped request).
    fn cancelled(&self) -> bool {
        false
    }
}

/// A [`Progress`] that ignores everything.
pub struct NoProgress;

impl Progress for NoProgress {
    fn start(&self, _total: u64, _what: &str) {}
    fn advance(&self, _delta: u64) {}
}
