//! Where a command's result goes: standard output or a file, written atomically.
//!
//! A file is written to a temporary file in the same directory and renamed over the
//! target only when everything was written, flushed and synced ([`Sink::finish`]); on
//! any failure (or a drop without `finish`) the temporary file is removed and the old
//! target is untouched. A target that exists and is not a regular file (`/dev/null`,
//! `/dev/full`, a FIFO) is written directly: nimlab never renames over a device.

use nimlab_engine::{Error, Result};
use std::fs::{File, OpenOptions};
use std::io::{self, BufWriter, StdoutLock, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Buffer size of every sink: big writes, few system calls.
const BUFFER: usize = 1 << 20;

/// Standard output or a file; a [`Write`] with a [`Sink::finish`] that commits it.
pub struct Sink {
    target: Target,
    /// How error messages name the destination.
    name: String,
}

enum Target {
    Stdout(BufWriter<StdoutLock<'static>>),
    /// A regular file written through a temporary `tmp`, renamed over `path` at the end.
    Atomic {
        file: Option<BufWriter<File>>,
        tmp: PathBuf,
        path: PathBuf,
    },
    /// A device, FIFO or other non-regular file that exists: written in place.
    Direct(BufWriter<File>),
}

/// Distinguishes the temporary files of one process.
static COUNTER: AtomicU64 = AtomicU64::new(0);

impl Sink {
    /// Standard output.
    pub fn stdout() -> Sink {
        Sink {
            target: Target::Stdout(BufWriter::with_capacity(BUFFER, io::stdout().lock())),
            name: "standard output".into(),
        }
    }

    /// `None` or `-`: standard output; otherwise the file `path` (atomically replaced
    /// when it is a regular file or does not exist).
    pub fn open(path: Option<&Path>) -> Result<Sink> {
        match path {
            None => Ok(Sink::stdout()),
            Some(p) if p.as_os_str() == "-" => Ok(Sink::stdout()),
            Some(p) => Sink::file(p),
        }
    }

    /// Refuses early (before a long computation) a destination that cannot be written:
    /// a directory, or a path whose directory does not exist. [`Sink::open`] reports
    /// everything else.
    pub fn precheck(path: &Path) -> Result<()> {
        let name = path.display();
        if path.is_dir() {
            return Err(Error::input(format!(
                "cannot write {name}: it is a directory"
            )));
        }
        if path.exists() {
            return Ok(());
        }
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        if !dir.is_dir() {
            return Err(Error::input(format!(
                "cannot write {name}: no directory {}",
                dir.display()
            )));
        }
        Ok(())
    }

    fn file(path: &Path) -> Result<Sink> {
        let name = path.display().to_string();
        let fail = |e: io::Error| Error::input(format!("cannot write {name}: {e}"));
        // Follow a symbolic link: replace the file it points to, keep the link.
        let (path, existing) = match std::fs::metadata(path) {
            Ok(meta) => (std::fs::canonicalize(path).map_err(fail)?, Some(meta)),
            Err(e) if e.kind() == io::ErrorKind::NotFound => (path.to_path_buf(), None),
            Err(e) => return Err(fail(e)),
        };
        if let Some(meta) = &existing {
            if meta.is_dir() {
                return Err(Error::input(format!(
                    "cannot write {name}: it is a directory"
                )));
            }
            if !meta.is_file() {
                let file = OpenOptions::new().write(true).open(&path).map_err(fail)?;
                return Ok(Sink {
                    target: Target::Direct(BufWriter::with_capacity(BUFFER, file)),
                    name,
                });
            }
        }
        let file_name = path
            .file_name()
            .ok_or_else(|| Error::input(format!("cannot write {name}: not a file name")))?;
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let tmp = dir.join(format!(
            ".{}.nimlab-{}-{}.tmp",
            file_name.to_string_lossy(),
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::Relaxed)
        ));
        let file = OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)
            .map_err(fail)?;
        // From here on, dropping the sink removes `tmp`.
        let sink = Sink {
            target: Target::Atomic {
                file: Some(BufWriter::with_capacity(BUFFER, file)),
                tmp,
                path,
            },
            name,
        };
        if let (Some(meta), Target::Atomic { file: Some(f), .. }) = (&existing, &sink.target) {
            // The replacement keeps the permissions of the file it replaces.
            f.get_ref()
                .set_permissions(meta.permissions())
                .map_err(|e| sink.error(e))?;
        }
        Ok(sink)
    }

    /// Whether this sink is standard output.
    pub fn is_stdout(&self) -> bool {
        matches!(self.target, Target::Stdout(_))
    }

    /// The one-line error for a failed write to this sink.
    pub fn error(&self, e: impl std::fmt::Display) -> Error {
        Error::input(format!("cannot write {}: {e}", self.name))
    }

    /// Commits the output: flushes; for a file also syncs it to disk and renames the
    /// temporary file over the target. Any failure is an error (and leaves the old
    /// target untouched).
    pub fn finish(mut self) -> Result<()> {
        let result = match &mut self.target {
            Target::Stdout(w) => w.flush(),
            Target::Direct(w) => w.flush(),
            Target::Atomic { file, tmp, path } => {
                let mut w = file.take().expect("finish runs once");
                match w.flush() {
                    Ok(()) => match w.into_inner() {
                        Ok(f) => f
                            .sync_all()
                            .and_then(|()| {
                                drop(f);
                                std::fs::rename(&*tmp, &*path)
                            })
                            .map(|()| {
                                sync_dir(path);
                                // Renamed: nothing left to clean up.
                                tmp.clear();
                            }),
                        Err(e) => Err(e.into_error()),
                    },
                    Err(e) => Err(e),
                }
            }
        };
        result.map_err(|e| self.error(e))
    }
}

/// Makes a rename durable (best effort: some file systems refuse to sync a directory).
fn sync_dir(path: &Path) {
    if let Some(dir) = path.parent() {
        let dir = if dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            dir
        };
        if let Ok(d) = File::open(dir) {
            let _ = d.sync_all();
        }
    }
}

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match &mut self.target {
            Target::Stdout(w) => w.write(buf),
            Target::Direct(w) => w.write(buf),
            Target::Atomic { file: Some(w), .. } => w.write(buf),
            Target::Atomic { file: None, .. } => Err(io::Error::other("output already closed")),
        }
    }
    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        match &mut self.target {
            Target::Stdout(w) => w.write_all(buf),
            Target::Direct(w) => w.write_all(buf),
            Target::Atomic { file: Some(w), .. } => w.write_all(buf),
            Target::Atomic { file: None, .. } => Err(io::Error::other("output already closed")),
        }
    }
    fn flush(&mut self) -> io::Result<()> {
        match &mut self.target {
            Target::Stdout(w) => w.flush(),
            Target::Direct(w) => w.flush(),
            Target::Atomic { file: Some(w), .. } => w.flush(),
            Target::Atomic { file: None, .. } => Ok(()),
        }
    }
}

impl Drop for Sink {
    fn drop(&mut self) {
        if let Target::Atomic { file, tmp, .. } = &mut self.target {
            // Not finished (or finishing failed): throw the partial output away.
            drop(file.take());
            if !tmp.as_os_str().is_empty() {
                let _ = std::fs::remove_file(&*tmp);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("nimlab-sink-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    fn entries(d: &Path) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn finish_replaces_the_target() {
        let d = dir("finish");
        let target = d.join("t.txt");
        std::fs::write(&target, "old").unwrap();
        let mut s = Sink::open(Some(&target)).unwrap();
        s.write_all(b"new").unwrap();
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "old");
        s.finish().unwrap();
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "new");
        assert_eq!(entries(&d), ["t.txt"]);
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn drop_without_finish_keeps_the_old_target() {
        let d = dir("drop");
        let target = d.join("t.txt");
        std::fs::write(&target, "old").unwrap();
        {
            let mut s = Sink::open(Some(&target)).unwrap();
            s.write_all(b"partial").unwrap();
        }
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "old");
        assert_eq!(entries(&d), ["t.txt"]);
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn devices_are_written_in_place() {
        let mut s = Sink::open(Some(Path::new("/dev/null"))).unwrap();
        s.write_all(b"x").unwrap();
        s.finish().unwrap();
        assert!(Path::new("/dev/null").exists());
        let mut s = Sink::open(Some(Path::new("/dev/full"))).unwrap();
        let _ = s.write_all(b"x");
        assert!(s.finish().is_err());
    }
}
