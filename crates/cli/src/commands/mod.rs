//! One module per subcommand.

pub mod census;
pub mod census_run;
pub mod certify;
pub mod check;
pub mod chocolate;
pub mod draw;
pub mod games;
pub mod guess;
pub mod misere_census;
pub mod misere_quotient;
pub mod periodicity;
pub mod play;
pub mod prove;
#[cfg(feature = "serve")]
pub mod serve;
pub mod sg_system;
pub mod sweep;
pub mod table;
pub mod theorems;
pub mod value;
pub mod wythoff_pairs;

use crate::progress::Bar;
use crate::sink::Sink;
use nimlab_engine::{Error, MemoryLimit, Result, TableOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

/// What every command shares: limits, the progress display, the JSON layout.
pub struct Context {
    /// Memory limit for tables and solvers.
    pub memory_limit: MemoryLimit,
    /// Progress bar (silent when stderr is not a terminal).
    pub progress: Bar,
    /// Run work whose estimate is very long (`--force`).
    pub force: bool,
    /// Indented JSON (the global `--pretty`) instead of one compact line.
    pub pretty: bool,
}

impl Context {
    /// From the global `--max-memory` and `--pretty` options.
    pub fn new(max_memory: Option<MemoryLimit>, pretty: bool) -> Result<Self> {
        Ok(Context {
            memory_limit: max_memory.unwrap_or_default(),
            progress: Bar::new(),
            force: false,
            pretty,
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

    /// Writes a JSON document (compact, or indented with `--pretty`; objects get
    /// `"schema": 1`).
    pub fn print_json(
        &self,
        out: &mut dyn Write,
        value: &serde_json::Value,
    ) -> std::io::Result<()> {
        crate::json::write(out, value, self.pretty)
    }
}

/// `-o/--output`, shared by every command that prints a result.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct OutputArgs {
    /// Write the result to FILE instead of standard output (`-`: standard output). The
    /// file is replaced only once the whole result is written; on failure it is left
    /// as it was. Without --format, the format follows the extension (.txt, .json,
    /// .csv, .tex, .md, .npy, .png, .svg) where the command has it.
    #[arg(long, short = 'o', value_name = "FILE", global = true)]
    pub output: Option<PathBuf>,
}

impl OutputArgs {
    /// The file to write, `None` for standard output (no `-o`, or `-o -`).
    pub fn file(&self) -> Option<&Path> {
        self.output.as_deref().filter(|p| p.as_os_str() != "-")
    }

    /// Opens the destination.
    pub fn open(&self) -> Result<Sink> {
        Sink::open(self.file())
    }

    /// The format: the one given, else the one the output file's extension names (when
    /// the command has it), else `default`. Also refuses, before any work, a destination
    /// that cannot be written: a directory, or a file in a directory that does not exist.
    pub fn format<F: clap::ValueEnum + Copy>(&self, given: Option<F>, default: F) -> Result<F> {
        if let Some(path) = self.file() {
            Sink::precheck(path)?;
        }
        if let Some(f) = given {
            return Ok(f);
        }
        let Some(path) = self.file() else {
            return Ok(default);
        };
        let Some(ext) = path.extension().and_then(|e| e.to_str()) else {
            return Ok(default);
        };
        let name = match ext.to_ascii_lowercase().as_str() {
            "txt" | "text" => "text",
            "json" => "json",
            "csv" => "csv",
            "tex" | "latex" => "latex",
            "md" | "markdown" => "markdown",
            "npy" => "npy",
            "png" => "png",
            "svg" => "svg",
            "jsonl" => "json",
            other => {
                // Text written to `x.jpg` would mislead: refuse a name the command
                // cannot honour instead of guessing.
                return Err(Error::input(format!(
                    "{}: nimlab writes no .{other} files (formats: {}); give --format or \
                     another extension",
                    path.display(),
                    format_names::<F>().join(", ")
                )));
            }
        };
        F::from_str(name, true).map_err(|_| {
            let have = format_names::<F>();
            Error::input(format!(
                "{} asks for {name}, which this command does not write (formats: {}); give --format",
                path.display(),
                have.join(", ")
            ))
        })
    }

    /// Opens the destination, writes with `write`, and commits: a failed write is an
    /// error naming the destination, and a file is replaced only on success.
    pub fn emit(&self, write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>) -> Result<()> {
        let mut sink = self.open()?;
        write(&mut sink).map_err(|e| sink.error(e))?;
        sink.finish()
    }
}

/// The width of each column of a text table: its widest cell, the header's included.
pub(crate) fn column_widths<R: AsRef<[String]>>(
    header: &[impl AsRef<str>],
    rows: &[R],
) -> Vec<usize> {
    (0..header.len())
        .map(|i| {
            rows.iter()
                .map(|r| r.as_ref()[i].len())
                .chain([header[i].as_ref().len()])
                .max()
                .unwrap_or(0)
        })
        .collect()
}

/// The names of a command's output formats.
fn format_names<F: clap::ValueEnum>() -> Vec<String> {
    F::value_variants()
        .iter()
        .filter_map(|v| v.to_possible_value().map(|p| p.get_name().to_string()))
        .collect()
}

/// Output formats shared by commands with a plain and a JSON form.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum PlainFormat {
    /// Human-readable text.
    Text,
    /// Machine-readable JSON.
    Json,
}

/// Reads a text input file of at most a quarter of the memory limit: a huge file (or
/// an endless one, such as /dev/zero) is refused with its size, not read into memory.
pub fn read_input(path: &Path, limit: MemoryLimit) -> Result<String> {
    use std::io::Read;
    let name = path.display();
    let most = limit.bytes() / 4;
    let file =
        std::fs::File::open(path).map_err(|e| Error::io(format!("cannot read {name}"), e))?;
    let too_big = |needed: u64| Error::TooLarge {
        what: format!("reading {name}"),
        needed: needed.saturating_mul(4),
        limit: limit.bytes(),
    };
    if let Ok(meta) = file.metadata()
        && meta.is_file()
        && meta.len() > most
    {
        return Err(too_big(meta.len()));
    }
    let mut bytes = Vec::new();
    file.take(most.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| Error::io(format!("cannot read {name}"), e))?;
    if bytes.len() as u64 > most {
        // Not a regular file (a device, a pipe): its length is unknown.
        return Err(Error::input(format!(
            "{name} holds more than {} (a quarter of the memory limit): not read",
            nimlab_engine::error::human_bytes(most)
        )));
    }
    String::from_utf8(bytes).map_err(|_| Error::input(format!("{name} is not UTF-8 text")))
}
