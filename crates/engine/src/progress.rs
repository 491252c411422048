//! Progress reporting without a UI dependency: surfaces plug in a bar, and a way to
//! stop the computation ([`Progress::cancelled`]).

use crate::error::{Error, Result};

/// Receives progress of a long computation. Implementations must be cheap and
/// thread-safe; the engine calls [`Progress::advance`] in coarse steps.
pub trait Progress: Sync {
    /// Announces the total amount of work (in the engine's units, e.g. cells).
    fn start(&self, total: u64, what: &str);
    /// Reports `delta` more units done.
    fn advance(&self, delta: u64);
    /// The computation is over.
    fn finish(&self) {}
    /// A line on where a long computation stands, beside the count (a search's depth
    /// and the question it is on). Default: not shown.
    fn status(&self, _text: &str) {}
    /// Whether the caller asked the computation to stop (a client that went away, a
    /// time limit, Ctrl-C). The engine's long loops poll it at their progress points
    /// and return [`Error::Cancelled`]; nothing unwinds.
    fn cancelled(&self) -> bool {
        false
    }
    /// Cells `first .. first + cells.len()` of the table being computed (storage
    /// order) are final: nothing writes them again, so a caller that writes the table
    /// out may write them now, while the rest is computed (the `.npy` output file:
    /// its last bytes then reach the disk soon after the last cell). A kernel that
    /// finishes whole rows in turn (the line kernel) says so; other computations do
    /// not, and the caller writes the whole table once it is done. Called from any of
    /// the computation's threads, each cell once, the ranges in no particular order.
    /// Default: nothing.
    fn cells_final(&self, _first: usize, _cells: &[u32]) {}
    /// `Err(`[`Error::Cancelled`]`)` once [`Progress::cancelled`] is true: what a loop
    /// writes at each of its progress points (`progress.check_cancelled()?`).
    fn check_cancelled(&self) -> Result<()> {
        if self.cancelled() {
            Err(Error::Cancelled)
        } else {
            Ok(())
        }
    }
}

/// A [`Progress`] that ignores everything.
pub struct NoProgress;

impl Progress for NoProgress {
    fn start(&self, _total: u64, _what: &str) {}
    fn advance(&self, _delta: u64) {}
}
