//! Checkpoints of a long search: the transposition table written to a file now and
//! then (atomically: a temporary file renamed over the old one), and read back by a
//! resumed search, which then reaches the same value without redoing what the table
//! holds. Everything a search knows lives in its table (bounds of nimbers), so the
//! table is the whole of its state: a resumed run asks the root's questions again and
//! finds them answered or nearly.
//!
//! The file: a line `nimlab-search 1`, a line with the game's spec, then the entries
//! in little-endian binary — the count (u64), and for each: the number of words (u8),
//! the component's rank (u8, capped), the words (u64 each), lower and upper bound
//! (u32 each) and the values ruled out (u64).

use super::table::{Bounds, Table};
use super::Search;
use crate::error::{Error, Result};
use crate::game::Game;
use std::io::{BufWriter, Read, Seek, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

const MAGIC: &str = "nimlab-search 1";

/// When and where a search writes its checkpoints.
pub(super) struct Schedule {
    path: PathBuf,
    every: Duration,
    last: Instant,
}

impl Schedule {
    /// Whether the time for the next checkpoint has come.
    pub(super) fn due(&self) -> bool {
        self.last.elapsed() >= self.every
    }

    /// Writes the table to the file (through a temporary file renamed over it).
    pub(super) fn write(&mut self, table: &Table, game: &dyn Game) -> Result<()> {
        self.last = Instant::now();
        let tmp = self.path.with_extension("tmp");
        let io = |e| Error::io(format!("cannot write {}", tmp.display()), e);
        let file = std::fs::File::create(&tmp).map_err(io)?;
        let mut out = BufWriter::new(file);
        let header = format!("{MAGIC}\n{}\n", game.spec());
        out.write_all(header.as_bytes()).map_err(io)?;
        // The count is written once the entries are: while searches share the table,
        // its count of entries is only about right (two may fill one slot), and other
        // threads may add entries while these are written.
        out.write_all(&0u64.to_le_bytes()).map_err(io)?;
        let mut count = 0u64;
        for (words, rank, b) in table.entries() {
            count += 1;
            out.write_all(&[words.len() as u8, rank]).map_err(io)?;
            for w in &words {
                out.write_all(&w.to_le_bytes()).map_err(io)?;
            }
            out.write_all(&b.lower.to_le_bytes()).map_err(io)?;
            out.write_all(&b.upper.to_le_bytes()).map_err(io)?;
            out.write_all(&b.ruled_out.to_le_bytes()).map_err(io)?;
        }
        let mut file = out.into_inner().map_err(|e| io(e.into_error()))?;
        file.seek(std::io::SeekFrom::Start(header.len() as u64))
            .map_err(io)?;
        file.write_all(&count.to_le_bytes()).map_err(io)?;
        file.sync_all().map_err(io)?;
        std::fs::rename(&tmp, &self.path)
            .map_err(|e| Error::io(format!("cannot write {}", self.path.display()), e))
    }
}

/// Reads a little-endian number of `N` bytes.
fn take<const N: usize>(r: &mut impl Read, what: &dyn Fn() -> Error) -> Result<[u8; N]> {
    let mut b = [0u8; N];
    r.read_exact(&mut b).map_err(|_| what())?;
    Ok(b)
}

impl Search<'_> {
    /// Writes the transposition table to `path` every `every` (and when a question
    /// is answered), atomically.
    ///
    /// ```
    /// use nimlab_engine::search::Search;
    /// use nimlab_engine::{Coord, Game};
    /// struct Heap;
    /// impl Game for Heap {
    ///     fn spec(&self) -> String { "heap".into() }
    ///     fn dimension(&self) -> usize { 1 }
    ///     fn for_each_option(&self, p: &[Coord], visit: &mut dyn FnMut(&[Coord])) {
    ///         for u in 0..p[0] { visit(&[u]); }
    ///     }
    /// }
    /// let file = std::env::temp_dir().join(format!("heap-{}.ckpt", std::process::id()));
    /// let mut s = Search::new(&Heap, &Default::default())
    ///     .with_checkpoint(&file, std::time::Duration::from_secs(60));
    /// assert_eq!(s.grundy(&[30]).unwrap(), 30);
    /// let mut again = Search::new(&Heap, &Default::default());
    /// again.resume(&file).unwrap();
    /// assert_eq!(again.grundy(&[30]).unwrap(), 30);
    /// assert_eq!(again.stats().nodes, 0); // every answer was in the file
    /// # std::fs::remove_file(&file).unwrap();
    /// ```
    pub fn with_checkpoint(mut self, path: &Path, every: Duration) -> Self {
        self.checkpoint = Some(Schedule {
            path: path.to_path_buf(),
            every,
            last: Instant::now(),
        });
        self
    }

    /// Loads the transposition table a checkpoint of this game wrote.
    pub fn resume(&mut self, path: &Path) -> Result<()> {
        let file = std::fs::File::open(path)
            .map_err(|e| Error::io(format!("cannot read {}", path.display()), e))?;
        let mut r = std::io::BufReader::new(file);
        let bad = || Error::input(format!("{} is not a search checkpoint", path.display()));
        let mut header = Vec::new();
        for _ in 0..2 {
            let mut line = Vec::new();
            loop {
                let [b] = take::<1>(&mut r, &bad)?;
                if b == b'\n' {
                    break;
                }
                line.push(b);
            }
            header.push(String::from_utf8(line).map_err(|_| bad())?);
        }
        if header[0] != MAGIC {
            return Err(bad());
        }
        if header[1] != self.game.spec() {
            return Err(Error::input(format!(
                "{} is a checkpoint of {}, not of {}",
                path.display(),
                header[1],
                self.game.spec()
            )));
        }
        let count = u64::from_le_bytes(take::<8>(&mut r, &bad)?);
        std::sync::Arc::get_mut(&mut self.table)
            .expect("a search resumes before it shares its table")
            .reserve(count, self.game.dimension());
        for _ in 0..count {
            let [len, rank] = take::<2>(&mut r, &bad)?;
            let mut words = Vec::with_capacity(len as usize);
            for _ in 0..len {
                words.push(u64::from_le_bytes(take::<8>(&mut r, &bad)?));
            }
            let lower = u32::from_le_bytes(take::<4>(&mut r, &bad)?);
            let upper = u32::from_le_bytes(take::<4>(&mut r, &bad)?);
            let ruled_out = u64::from_le_bytes(take::<8>(&mut r, &bad)?);
            if lower > upper {
                return Err(bad());
            }
            let b = Bounds {
                lower,
                upper,
                ruled_out,
            };
            self.table.learn(&words, rank as u128, b);
        }
        Ok(())
    }
}
