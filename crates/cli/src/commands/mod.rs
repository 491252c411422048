//! One module per subcommand.

pub mod check;
pub mod games;
pub mod periodicity;
pub mod sweep;
pub mod table;
pub mod theorems;
pub mod value;
pub mod wythoff_pairs;

use crate::progress::Bar;
use nimlab_engine::{MemoryLimit, Result, TableOptions};

/// What every command shares: limits and the progress display.
pub struct Context {
    /// Memory limit for tables and solvers.
    pub memory_limit: MemoryLimit,
    /// Progress bar (silent when stderr is not a terminal).
    pub progress: Bar,
    /// Run work whose estimate is very long (`--force`).
    pub force: bool,
}

impl Context {
    /// From the global `--max-memory` option.
    pub fn new(max_memory: Option<&str>) -> Result<Self> {
        Ok(Context {
            memory_limit: match max_memory {
                Some(m) => MemoryLimit::parse(m)?,
                None => MemoryLimit::default(),
            },
            progress: Bar::new(),
            force: false,
        })
    }

    /// Table options for the engine.
    pub fn table_options(&self) -> TableOptions<'_> {
        TableOptions {
            memory_limit: self.memory_limit,
            progress: &self.progress,
            force: self.force,
        }
    }
}

/// Output formats shared by commands with a plain and a JSON form.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum PlainFormat {
    /// Human-readable text.
    Text,
    /// Machine-readable JSON.
    Json,
}

/// Prints a JSON value on stdout.
pub fn print_json(value: &serde_json::Value) {
    println!(
        "{}",
        serde_json::to_string_pretty(value).expect("JSON values always serialize")
    );
}
