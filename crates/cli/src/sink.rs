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
use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicU64, Ordering};

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
        /// Its slot among the files a signal removes.
        slot: Option<usize>,
    },
    /// A device, FIFO or other non-regular file that exists: written in place.
    Direct(BufWriter<File>),
}

/// Distinguishes the temporary files of one process.
static COUNTER: AtomicU64 = AtomicU64::new(0);

/// Set at start-up when the process began with standard output closed (`>&-`).
static STDOUT_CLOSED: AtomicBool = AtomicBool::new(false);

/// Longest file name most file systems accept, in bytes.
const NAME_MAX: usize = 255;

/// Rust's runtime opens `/dev/null` on a closed descriptor 0, 1 or 2 before `main`
/// runs, so a closed standard output must be seen earlier: this runs from the ELF
/// initialisers, before the runtime starts.
#[cfg(target_os = "linux")]
#[used]
#[unsafe(link_section = ".init_array")]
static SEE_CLOSED_STDOUT: extern "C" fn() = {
    extern "C" fn see() {
        // SAFETY: fcntl on a plain descriptor number; no memory is shared.
        if unsafe { libc::fcntl(1, libc::F_GETFD) } == -1 {
            STDOUT_CLOSED.store(true, Ordering::Relaxed);
        }
    }
    see
};

/// Run once at start-up, before any file is opened: if standard output or standard
/// error is closed, `/dev/null` takes its descriptor, so that no file nimlab opens
/// later becomes descriptor 1 or 2 by accident; a closed standard output is
/// remembered, and writing a result to it is then an error (exit 2), not a silent loss.
/// A file grown past the size limit (`ulimit -f`) is a write error too (EFBIG: exit 2,
/// the temporary file removed), not the signal that would end the process and leave
/// the temporary file behind.
pub fn guard_standard_streams() {
    #[cfg(unix)]
    // SAFETY: ignoring a signal installs no handler; no memory is shared.
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
    }
    #[cfg(unix)]
    for fd in [1, 2] {
        // SAFETY: fcntl and open on plain descriptors; no memory is shared.
        unsafe {
            if libc::fcntl(fd, libc::F_GETFD) == -1 {
                if fd == 1 {
                    STDOUT_CLOSED.store(true, Ordering::Relaxed);
                }
                let null = libc::open(c"/dev/null".as_ptr(), libc::O_RDWR);
                if null >= 0 && null != fd {
                    libc::dup2(null, fd);
                    libc::close(null);
                }
            }
        }
    }
}

/// Whether the process began with standard output closed.
pub fn stdout_closed() -> bool {
    STDOUT_CLOSED.load(Ordering::Relaxed)
}

/// The error for a write to a closed standard output.
pub fn closed_stdout_error() -> io::Error {
    io::Error::other("it is closed")
}

/// Temporary files not yet renamed or removed, as C strings for the signal handler
/// (which may only call async-signal-safe functions such as `unlink`). A slot holds a
/// leaked `CString`; a few hundred bytes per output file are never freed.
static PENDING: [AtomicPtr<libc::c_char>; 64] =
    [const { AtomicPtr::new(std::ptr::null_mut()) }; 64];

/// Set by [`stop_on_signals`]: the first SIGINT or SIGTERM only asks the run to stop.
static GRACEFUL: AtomicBool = AtomicBool::new(false);
/// Set by that first signal; see [`stop_requested`].
static STOP: AtomicBool = AtomicBool::new(false);

/// From now on the first SIGINT or SIGTERM asks a long run to stop (it saves its state
/// and ends by itself, see [`stop_requested`]); a second one ends the process at once,
/// as SIGHUP does. One handler serves both this and the removal of temporary files, so
/// that an output written atomically during the run does not take the signals back.
pub fn stop_on_signals() {
    GRACEFUL.store(true, Ordering::SeqCst);
    install_cleanup_handlers();
}

/// Whether a signal asked the run to stop (after [`stop_on_signals`]).
pub fn stop_requested() -> bool {
    STOP.load(Ordering::SeqCst)
}

/// Installs, once, handlers for SIGINT, SIGTERM and SIGHUP that remove the pending
/// temporary files and then end the process as the signal would have (the first SIGINT
/// or SIGTERM after [`stop_on_signals`] only sets the stop flag).
fn install_cleanup_handlers() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        extern "C" fn on_signal(sig: libc::c_int) {
            if sig != libc::SIGHUP
                && GRACEFUL.load(Ordering::SeqCst)
                && !STOP.swap(true, Ordering::SeqCst)
            {
                return;
            }
            for slot in &PENDING {
                let p = slot.load(Ordering::SeqCst);
                if !p.is_null() {
                    // SAFETY: `p` is a leaked, never freed, NUL-terminated string.
                    unsafe { libc::unlink(p) };
                }
            }
            // SAFETY: signal and raise are async-signal-safe; the default action ends
            // the process with the signal's status.
            unsafe {
                libc::signal(sig, libc::SIG_DFL);
                libc::raise(sig);
            }
        }
        for sig in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
            // SAFETY: installing a handler that only calls async-signal-safe functions.
            unsafe {
                libc::signal(
                    sig,
                    on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t,
                );
            }
        }
    });
}

/// Output piped into a reader that stops reading (`nimlab table … | head`) ends nimlab
/// quietly with exit code 0, as the reader asked for no more; but if a file written
/// atomically is pending (its result would be cut short), that file is removed and the
/// exit code is 2 with the one-line error. Installed once at start-up (`serve` ignores
/// SIGPIPE instead: a client leaving must not end the server).
pub fn quiet_on_closed_pipe() {
    extern "C" fn on_sigpipe(_sig: libc::c_int) {
        let mut pending = false;
        for slot in &PENDING {
            let p = slot.load(Ordering::SeqCst);
            if !p.is_null() {
                // SAFETY: `p` is a leaked, never freed, NUL-terminated string.
                unsafe { libc::unlink(p) };
                pending = true;
            }
        }
        const MESSAGE: &[u8] =
            b"nimlab: error: cannot write standard output: the reader closed it\n";
        // SAFETY: write and _exit are async-signal-safe.
        unsafe {
            if pending {
                libc::write(2, MESSAGE.as_ptr().cast(), MESSAGE.len());
                libc::_exit(2);
            }
            libc::_exit(0);
        }
    }
    // SAFETY: installing a handler that only calls async-signal-safe functions, at
    // start-up before any thread exists.
    unsafe {
        libc::signal(
            libc::SIGPIPE,
            on_sigpipe as extern "C" fn(libc::c_int) as libc::sighandler_t,
        );
    }
}

/// Registers `tmp` for removal on a signal; returns its slot (none if all are taken).
fn register_pending(tmp: &Path) -> Option<usize> {
    use std::os::unix::ffi::OsStrExt;
    install_cleanup_handlers();
    let c = std::ffi::CString::new(tmp.as_os_str().as_bytes()).ok()?;
    let raw = c.into_raw();
    for (i, slot) in PENDING.iter().enumerate() {
        if slot
            .compare_exchange(
                std::ptr::null_mut(),
                raw,
                Ordering::SeqCst,
                Ordering::SeqCst,
            )
            .is_ok()
        {
            return Some(i);
        }
    }
    // SAFETY: `raw` came from `into_raw` above and was not stored.
    drop(unsafe { std::ffi::CString::from_raw(raw) });
    None
}

/// Forgets a registered temporary file (renamed or removed). Its string is leaked: the
/// signal handler may be reading it at this very moment.
fn unregister_pending(slot: Option<usize>) {
    if let Some(i) = slot {
        PENDING[i].store(std::ptr::null_mut(), Ordering::SeqCst);
    }
}

/// The temporary name for `file_name`: `.NAME.nimlab-PID-N.tmp`, NAME shortened (on a
/// character boundary) so that the whole stays within [`NAME_MAX`] bytes.
fn temp_name(file_name: &std::ffi::OsStr) -> String {
    let suffix = format!(
        ".nimlab-{}-{}.tmp",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    );
    let name = file_name.to_string_lossy();
    let room = NAME_MAX - 1 - suffix.len();
    let mut end = name.len().min(room);
    while !name.is_char_boundary(end) {
        end -= 1;
    }
    format!(".{}{suffix}", &name[..end])
}

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
        let fail = |e: io::Error| Error::io(format!("cannot write {name}"), e);
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
        let tmp = dir.join(temp_name(file_name));
        // Registered before it exists: a signal between open and register leaves nothing.
        let slot = register_pending(&tmp);
        // Readable too: a shared writable mapping of it ([`Sink::map`]) needs both.
        let file = match OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .open(&tmp)
        {
            Ok(f) => f,
            Err(e) => {
                unregister_pending(slot);
                return Err(fail(e));
            }
        };
        // From here on, dropping the sink removes `tmp`.
        let sink = Sink {
            target: Target::Atomic {
                file: Some(BufWriter::with_capacity(BUFFER, file)),
                tmp,
                path,
                slot,
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

    /// The error for a failed write to this sink.
    pub fn error(&self, e: io::Error) -> Error {
        Error::io(format!("cannot write {}", self.name), e)
    }

    /// Commits the output: flushes; for a file also syncs it to disk and renames the
    /// temporary file over the target. Any failure is an error (and leaves the old
    /// target untouched).
    pub fn finish(mut self) -> Result<()> {
        let result = match &mut self.target {
            Target::Stdout(_) if stdout_closed() => Err(closed_stdout_error()),
            Target::Stdout(w) => w.flush(),
            Target::Direct(w) => w.flush(),
            Target::Atomic {
                file, tmp, path, ..
            } => {
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

/// Asks the kernel to drop the cached pages of the regular file at `path`, which an
/// output being computed will replace: the rename that replaces a file frees its pages
/// in the renaming process, and a big output written again (the same table, say) had
/// the old one's 256 MiB in the cache, 0.11–0.14 s of the rename against 0.05 s with
/// them dropped beforehand, by a thread beside the computation. Only a hint: the file's
/// contents do not change, pages in use elsewhere stay, and a failure changes nothing.
pub fn drop_cached_pages(path: &Path) {
    #[cfg(target_os = "linux")]
    {
        use std::os::fd::AsRawFd;
        let Ok(file) = File::open(path) else {
            return;
        };
        if file.metadata().is_ok_and(|m| m.is_file()) {
            // SAFETY: advice on a descriptor this function owns; no memory is touched.
            unsafe { libc::posix_fadvise(file.as_raw_fd(), 0, 0, libc::POSIX_FADV_DONTNEED) };
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = path;
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

/// A sink's temporary file, sized in advance, written at given offsets, from any
/// thread ([`Sink::positional`]); borrowed from the sink, so written before
/// [`Sink::finish`].
pub struct Positional<'a> {
    file: &'a File,
    /// The latest writes (offset, length), oldest first, whose pages are still cached.
    #[cfg(target_os = "linux")]
    cached: std::sync::Mutex<std::collections::VecDeque<(libc::off64_t, libc::off64_t)>>,
}

/// How much of the latest writes a [`Positional`] file leaves in the page cache, not
/// yet known to be on disk; older writes leave it once they are.
#[cfg(target_os = "linux")]
const CACHED_BYTES: libc::off64_t = 8 << 20;

impl Positional<'_> {
    /// Writes `bytes` at `offset`. On Linux it also starts sending them to disk without
    /// waiting, so that [`Sink::finish`]'s sync has only the last ones to wait for
    /// (Wythoff 8192²: that sync took 0.17 s of a 1.1 s run when it wrote the whole
    /// 256 MiB), and drops from the page cache the pages of older writes, once on disk,
    /// so that new writes reuse their memory rather than fresh pages: a file of 256 MiB
    /// written into the cache took 0.2–0.4 s of system time more after another big
    /// process had just ended (pages new to the process, and to the virtual machine's
    /// host, are slow to fill the first time).
    pub fn write_at(&self, bytes: &[u8], offset: u64) -> io::Result<()> {
        use std::os::unix::fs::FileExt;
        self.file.write_all_at(bytes, offset)?;
        #[cfg(target_os = "linux")]
        {
            use std::os::fd::AsRawFd;
            let fd = self.file.as_raw_fd();
            let (Ok(start), Ok(len)) = (
                libc::off64_t::try_from(offset),
                libc::off64_t::try_from(bytes.len()),
            ) else {
                return Ok(());
            };
            // SAFETY: a write-back request on the descriptor of the sink's own file,
            // open while `self` borrows the sink; no memory is touched. Only a hint: a
            // failure changes nothing (the sync reports errors).
            unsafe { libc::sync_file_range(fd, start, len, libc::SYNC_FILE_RANGE_WRITE) };
            // The writes that leave the cache now: the oldest, beyond CACHED_BYTES.
            let older: Vec<(libc::off64_t, libc::off64_t)> = {
                let Ok(mut cached) = self.cached.lock() else {
                    return Ok(());
                };
                cached.push_back((start, len));
                let mut total: libc::off64_t = cached.iter().map(|&(_, len)| len).sum();
                let mut older = Vec::new();
                while total > CACHED_BYTES && cached.len() > 1 {
                    if let Some((start, len)) = cached.pop_front() {
                        total -= len;
                        older.push((start, len));
                    }
                }
                older
            };
            for (start, len) in older {
                // SAFETY: as above: waits for the write-back of a range of the sink's
                // own file (started by an earlier call), then advises dropping its
                // pages; no memory is touched.
                unsafe {
                    libc::sync_file_range(
                        fd,
                        start,
                        len,
                        libc::SYNC_FILE_RANGE_WAIT_BEFORE
                            | libc::SYNC_FILE_RANGE_WRITE
                            | libc::SYNC_FILE_RANGE_WAIT_AFTER,
                    );
                    libc::posix_fadvise(fd, start, len, libc::POSIX_FADV_DONTNEED);
                }
            }
        }
        Ok(())
    }
}

impl Sink {
    /// For a file written through a temporary file, with nothing written yet: makes the
    /// temporary file `len` bytes long, its blocks reserved where the file system can
    /// (a full disk is an error here, not after minutes of work), for writes at given
    /// offsets ([`Positional::write_at`]), so that a large result can be written out
    /// as its parts are computed, in any order. `None` for standard output and devices:
    /// write through [`Write`] then. [`Sink::finish`] syncs and renames the file as it
    /// does written output; a sink dropped unfinished removes it.
    pub fn positional(&mut self, len: u64) -> Result<Option<Positional<'_>>> {
        let Target::Atomic { file: Some(w), .. } = &self.target else {
            return Ok(None);
        };
        let file = w.get_ref();
        let empty = w.buffer().is_empty() && file.metadata().is_ok_and(|m| m.len() == 0);
        if !empty {
            return Ok(None);
        }
        #[cfg(target_os = "linux")]
        {
            use std::os::fd::AsRawFd;
            let Ok(size) = libc::off_t::try_from(len) else {
                return Err(Error::input("the output is too large for a file"));
            };
            // SAFETY: fallocate on the descriptor of the file this sink owns.
            if size > 0 && unsafe { libc::fallocate(file.as_raw_fd(), 0, 0, size) } != 0 {
                let e = io::Error::last_os_error();
                if matches!(
                    e.raw_os_error(),
                    Some(libc::ENOSPC | libc::EFBIG | libc::EDQUOT)
                ) {
                    let _ = file.set_len(0);
                    return Err(self.error(e));
                }
                // The file system reserves no blocks (EOPNOTSUPP): sized below.
            }
        }
        file.set_len(len).map_err(|e| self.error(e))?;
        Ok(Some(Positional {
            file,
            #[cfg(target_os = "linux")]
            cached: Default::default(),
        }))
    }
}

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match &mut self.target {
            Target::Stdout(_) if stdout_closed() => Err(closed_stdout_error()),
            Target::Stdout(w) => w.write(buf),
            Target::Direct(w) => w.write(buf),
            Target::Atomic { file: Some(w), .. } => w.write(buf),
            Target::Atomic { file: None, .. } => Err(io::Error::other("output already closed")),
        }
    }
    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        match &mut self.target {
            Target::Stdout(_) if stdout_closed() => Err(closed_stdout_error()),
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
        if let Target::Atomic {
            file, tmp, slot, ..
        } = &mut self.target
        {
            // Not finished (or finishing failed): throw the partial output away.
            drop(file.take());
            if !tmp.as_os_str().is_empty() {
                let _ = std::fs::remove_file(&*tmp);
            }
            unregister_pending(slot.take());
        }
    }
}

#[cfg(test)]
mod scratch;

#[cfg(test)]
mod tests {
    use super::scratch::{entries, scratch};
    use super::*;

    #[test]
    fn a_file_written_at_offsets_replaces_the_target_on_finish_and_goes_unfinished() {
        let d = scratch("sink", "positional");
        let target = d.join("t.bin");
        std::fs::write(&target, "old").unwrap();
        let mut s = Sink::open(Some(&target)).unwrap();
        {
            let p = s.positional(5).unwrap().expect("a regular file");
            p.write_at(b"llo", 2).unwrap();
            p.write_at(b"he", 0).unwrap();
        }
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "old");
        s.finish().unwrap();
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "hello");
        assert_eq!(entries(&d), ["t.bin"]);
        // Written, then dropped unfinished: the target stays, the temporary file goes.
        let mut s = Sink::open(Some(&target)).unwrap();
        s.positional(3)
            .unwrap()
            .unwrap()
            .write_at(b"new", 0)
            .unwrap();
        drop(s);
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "hello");
        assert_eq!(entries(&d), ["t.bin"]);
        // Standard output and a sink already written to are not written at offsets.
        assert!(Sink::stdout().positional(3).unwrap().is_none());
        let mut s = Sink::open(Some(&target)).unwrap();
        s.write_all(b"x").unwrap();
        s.flush().unwrap();
        assert!(s.positional(3).unwrap().is_none());
        drop(s);
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn finish_replaces_the_target() {
        let d = scratch("sink", "finish");
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
        let d = scratch("sink", "drop");
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
