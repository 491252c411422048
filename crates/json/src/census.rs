//! Censuses and sweeps as library calls. The command line (`census octal|misere|merge`,
//! `sweep`), Python (`nimlab.census`, `nimlab.merge_census`, `nimlab.sweep`) and the web
//! API (`/api/census`, `/api/sweep`) run them through here, so that they visit the same
//! codes, resume alike and write the same lines and documents.
//!
//! ```
//! use nimlab_json::census::{CensusShape, OctalCensus};
//! let shape = CensusShape::new(1, 8, &[0], (0, 1)).unwrap();
//! let census = OctalCensus::new(shape, 1 << 10).unwrap();
//! let lines = census.collect(&[], &nimlab_engine::TableOptions::default()).unwrap();
//! assert_eq!(lines.len(), 7); // 0.1 … 0.7
//! let nim = lines.iter().find(|l| l["code"] == "0.3").unwrap();
//! assert_eq!((nim["status"].as_str(), nim["period"].as_u64()), (Some("solved"), Some(2)));
//! ```

use crate::Int;
use nimlab_engine::{Error, Knob, MemoryLimit, Result, TableOptions};
use nimlab_octal::census::{self as octal_census, CensusEntry};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, Read, Write};
use std::path::Path;

/// Which codes a census visits: `w.d1…dD` with `digits` digits after the point in
/// `base` (8 or 16), whole parts `wholes`, the codes whose census index is ≡ `shard.0`
/// (mod `shard.1`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CensusShape {
    /// Digits after the point.
    pub digits: usize,
    /// 8 (octal) or 16 (hexadecimal).
    pub base: u32,
    /// Whole parts: 0, 4 (and 8, 12 in base 16).
    pub wholes: Vec<u8>,
    /// `(i, k)`: the codes whose census index is ≡ i (mod k).
    pub shard: (u64, u64),
}

impl CensusShape {
    /// Checks the settings: the base, the digits, the whole parts and the shard.
    pub fn new(digits: usize, base: u32, wholes: &[u8], shard: (u64, u64)) -> Result<Self> {
        let shape = CensusShape {
            digits,
            base,
            wholes: wholes.to_vec(),
            shard,
        };
        if shard.1 == 0 || shard.0 >= shard.1 {
            return Err(Error::out_of_range(
                "the shard",
                format!("{}/{}", shard.0, shard.1),
                "i/k with 0 ≤ i < k",
                Knob::Shard,
            ));
        }
        octal_census::codes(digits, base, wholes)?;
        Ok(shape)
    }

    /// Whole parts written as digits of `base` (`"0"`, `"4"`, `"c"`), as the command
    /// line takes them.
    pub fn parse_wholes(texts: &[String], base: u32) -> Result<Vec<u8>> {
        // Before any digit is read in that base (outside 2..=36 the reader panics).
        octal_census::check_base(base)?;
        texts
            .iter()
            .map(|w| {
                u8::from_str_radix(w.trim(), base)
                    .map_err(|_| Error::input(format!("the whole part '{w}' is not a digit")))
            })
            .collect()
    }

    /// This shard's codes with their census indices, in census order.
    pub fn codes(&self) -> Result<Vec<(usize, String)>> {
        let (i, k) = self.shard;
        Ok(octal_census::codes(self.digits, self.base, &self.wholes)?
            .into_iter()
            .enumerate()
            .filter(|(n, _)| *n as u64 % k == i)
            .collect())
    }

    /// The codes already in `lines` (a census file being resumed), after checking that
    /// every line was written with these `settings` (e.g. `[("up_to", 65536)]`) and this
    /// base; `file` names the lines' source in the error.
    pub fn finished(
        &self,
        lines: &[Value],
        settings: &[(&str, u64)],
        file: &str,
    ) -> Result<BTreeSet<String>> {
        let mut done = BTreeSet::new();
        for line in lines {
            let all = settings.iter().copied().chain([("base", self.base as u64)]);
            for (key, want) in all {
                if line.get(key).and_then(Value::as_u64) != Some(want) {
                    return Err(Error::input(format!(
                        "{file} holds a census with other settings ({key} {}, not {want}): \
                         write to another file",
                        line.get(key).unwrap_or(&Value::Null)
                    )));
                }
            }
            if let Some(code) = line.get("code").and_then(Value::as_str) {
                done.insert(code.to_string());
            }
        }
        Ok(done)
    }

    /// This shard's codes not in `finished`.
    pub fn todo(&self, finished: &BTreeSet<String>) -> Result<Vec<(usize, String)>> {
        Ok(self
            .codes()?
            .into_iter()
            .filter(|(_, c)| !finished.contains(c))
            .collect())
    }
}

/// The octal census: each code of a shape solved (a period proven by the Guy–Smith
/// theorem below `up_to`) or left unsolved with its sparse-space figures.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OctalCensus {
    /// The codes visited.
    pub shape: CensusShape,
    /// Per game, heaps below this are computed.
    pub up_to: u64,
}

/// One game of a census run: its line and, for a solved game, its certificate.
#[derive(Debug, Clone)]
pub struct CensusResult {
    /// The game as the census found it.
    pub entry: CensusEntry,
    /// The JSON line (what census files hold, `census merge` reads).
    pub line: Value,
    /// The certificate of a solved game, when asked for.
    pub certificate: Option<Value>,
}

impl OctalCensus {
    /// The largest `up_to`: the values take 4 bytes a heap, per game in flight.
    pub const MAX_UP_TO: u64 = 1 << 28;

    /// Checks `up_to`.
    pub fn new(shape: CensusShape, up_to: u64) -> Result<Self> {
        if up_to == 0 || up_to > Self::MAX_UP_TO {
            return Err(Error::out_of_range(
                "the number of heaps computed per game",
                up_to,
                format!("between 1 and {}", Self::MAX_UP_TO),
                Knob::UpTo,
            ));
        }
        Ok(OctalCensus { shape, up_to })
    }

    /// The codes still to do when `lines` (a census file) are already done.
    pub fn todo(&self, lines: &[Value], file: &str) -> Result<Vec<(usize, String)>> {
        let done = self.shape.finished(lines, &[("up_to", self.up_to)], file)?;
        self.shape.todo(&done)
    }

    /// Refuses `todo` if it would take too long (unless `opts.force`) or hold more
    /// values than the memory limit allows (one game per thread in flight).
    pub fn check_work(&self, todo: &[(usize, String)], opts: &TableOptions) -> Result<()> {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let threads = cores.min(todo.len()).max(1) as u64;
        opts.memory_limit.check(
            &format!(
                "a census to {} heaps per game ({threads} in flight)",
                self.up_to
            ),
            self.up_to.saturating_mul(8).saturating_mul(threads),
        )?;
        let codes: Vec<String> = todo.iter().map(|(_, c)| c.clone()).collect();
        octal_census::check_work(&codes, self.shape.base, self.up_to, opts.force)
    }

    /// Solves `todo` in parallel, calling `done` with each game as soon as it is done
    /// (in no particular order); `opts.progress` gets one unit a game (and may stop the
    /// run by unwinding).
    pub fn run(
        &self,
        todo: &[(usize, String)],
        certificates: bool,
        opts: &TableOptions,
        done: &(dyn Fn(Result<CensusResult>) + Sync),
    ) {
        let index: BTreeMap<&str, usize> = todo.iter().map(|(i, c)| (c.as_str(), *i)).collect();
        let codes: Vec<String> = todo.iter().map(|(_, c)| c.clone()).collect();
        opts.progress.start(codes.len() as u64, "games");
        octal_census::run_with(
            &codes,
            self.shape.base,
            self.up_to,
            opts.progress,
            &|entry| {
                let result = entry.and_then(|e| {
                    let line = census_line(&e, index[e.code.as_str()], self.shape.base, self.up_to);
                    let certificate = match (&e.period, certificates) {
                        (Some(per), true) => {
                            let game = nimlab_octal::Octal::parse(&e.code, self.shape.base)?;
                            Some(crate::certificate::build(&game, per)?)
                        }
                        _ => None,
                    };
                    Ok(CensusResult {
                        entry: e,
                        line,
                        certificate,
                    })
                });
                done(result);
                opts.progress.advance(1);
            },
        );
        opts.progress.finish();
    }

    /// Runs the census to the end and returns its lines in census order (Python, the
    /// web): `lines` already done are skipped and kept.
    pub fn collect(&self, lines: &[Value], opts: &TableOptions) -> Result<Vec<Value>> {
        let todo = self.todo(lines, "the lines given")?;
        self.check_work(&todo, opts)?;
        let out = std::sync::Mutex::new((Vec::new(), None::<Error>));
        self.run(&todo, false, opts, &|r| {
            let mut guard = out.lock().unwrap_or_else(|e| e.into_inner());
            match r {
                Ok(r) => guard.0.push(r.line),
                Err(e) => {
                    guard.1.get_or_insert(e);
                }
            }
        });
        let (mut found, error) = out.into_inner().unwrap_or_else(|e| e.into_inner());
        if let Some(e) = error {
            return Err(e);
        }
        found.extend(lines.iter().cloned());
        found.sort_by_key(|l| l["index"].as_u64());
        Ok(found)
    }
}

/// One census line: what a census file holds for a game.
pub fn census_line(e: &CensusEntry, index: usize, base: u32, up_to: u64) -> Value {
    crate::doc::to_value(&CensusLine::new(e, index, base, up_to))
}

/// One line of an octal census file (fields in the order the line writes them).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct CensusLine {
    /// 8 or 16.
    pub base: u32,
    /// The code, e.g. `0.376`.
    pub code: String,
    /// How many terms were computed.
    pub computed: Int,
    /// The canonical spec.
    pub game: String,
    /// The code's census index.
    pub index: usize,
    /// The rare/common split's mask bits cleared, when one was chosen.
    pub mask_cleared: Option<u32>,
    /// Whether the index parity joins the class, when a split was chosen.
    pub mask_domain: Option<bool>,
    /// The largest value computed.
    pub max_value: u32,
    /// The proven period.
    pub period: Option<Int>,
    /// The proven preperiod.
    pub preperiod: Option<Int>,
    /// How many indices are rare.
    pub rare: Int,
    /// SHA-256 of the certified values (preperiod and one period), when solved.
    pub sha256: Option<String>,
    /// `solved` or `unsolved`.
    pub status: &'static str,
    /// The bound on the terms.
    pub up_to: Int,
}

impl CensusLine {
    /// The line of the entry `e` at census index `index` of a census in `base` to
    /// `up_to` terms.
    pub fn new(e: &CensusEntry, index: usize, base: u32, up_to: u64) -> Self {
        CensusLine {
            base,
            code: e.code.clone(),
            computed: Int(e.computed),
            game: e.spec.clone(),
            index,
            mask_cleared: e.mask.map(|m| m.0),
            mask_domain: e.mask.map(|m| m.1),
            max_value: e.max_value,
            period: e.period.as_ref().map(|p| Int(p.period)),
            preperiod: e.period.as_ref().map(|p| Int(p.preperiod)),
            rare: Int(e.rare_count),
            sha256: e
                .period
                .as_ref()
                .map(|p| crate::certificate::values_hash(&p.values)),
            status: if e.period.is_some() {
                "solved"
            } else {
                "unsolved"
            },
            up_to: Int(up_to),
        }
    }
}

/// One census line in words.
pub fn census_text(e: &CensusEntry) -> String {
    match &e.period {
        Some(p) => format!(
            "{}: solved, preperiod {}, period {} (computed {} terms)",
            e.code, p.preperiod, p.period, e.computed
        ),
        None => format!(
            "{}: unsolved below {} terms ({} rare, largest value {})",
            e.code, e.computed, e.rare_count, e.max_value
        ),
    }
}

/// The merged census document (fields in the order it writes them).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct MergedCensusDoc {
    /// How many games.
    pub count: usize,
    /// Their lines, in census order.
    pub games: Vec<Value>,
    /// How many are solved.
    pub solved: usize,
}

/// Longest census line read (a game's line is a few hundred bytes).
const MAX_LINE: u64 = 1 << 16;

/// The JSON lines of a census file. `lenient` (the output of a census, to resume): a
/// missing file or one that is not a regular file (a device such as /dev/full) is
/// empty, and an unfinished last line (an interrupted run: no newline after it, and
/// begun as a JSON object) is ignored. Any other line that is not a census line is an
/// error: a file that is not a census is never appended to.
pub fn read_lines(path: &Path, lenient: bool) -> Result<Vec<Value>> {
    let mut out = Vec::new();
    for_each_line(path, lenient, &mut |_, v| {
        out.push(v);
        Ok(())
    })?;
    Ok(out)
}

/// As [`read_lines`], one line at a time (with its 1-based number): a file of any
/// length is read in constant memory.
pub fn for_each_line(
    path: &Path,
    lenient: bool,
    visit: &mut dyn FnMut(usize, Value) -> Result<()>,
) -> Result<()> {
    let name = path.display();
    if lenient && std::fs::metadata(path).is_ok_and(|m| !m.is_file()) {
        return Ok(());
    }
    let file = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) if lenient && e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(Error::io(format!("cannot read {name}"), e)),
    };
    // Line by line, each at most MAX_LINE bytes: /dev/zero is refused, not read forever.
    let mut reader = std::io::BufReader::new(file);
    let mut number = 0usize;
    // A line that is not JSON: an error unless it is the last (lenient).
    let mut pending: Option<usize> = None;
    let mut line = Vec::new();
    loop {
        line.clear();
        let read = (&mut reader)
            .take(MAX_LINE + 1)
            .read_until(b'\n', &mut line)
            .map_err(|e| Error::io(format!("cannot read {name}"), e))?;
        if read == 0 {
            break;
        }
        number += 1;
        if line.len() as u64 > MAX_LINE {
            return Err(Error::input(format!(
                "{name}:{number}: not a census line (longer than {MAX_LINE} bytes)"
            )));
        }
        let text = String::from_utf8_lossy(&line);
        if text.trim().is_empty() {
            continue;
        }
        if let Some(at) = pending {
            return Err(Error::input(format!("{name}:{at}: not a census line")));
        }
        let unfinished = !line.ends_with(b"\n") && text.trim_start().starts_with('{');
        match serde_json::from_str::<Value>(text.trim_end_matches('\n')) {
            Ok(v) if v.get("code").is_some() => visit(number, v)?,
            _ if lenient && unfinished => pending = Some(number),
            _ => {
                return Err(Error::input(format!(
                    "{name}:{number}: not a census line (a census file holds JSON lines; \
                     write to another file)"
                )))
            }
        }
    }
    Ok(())
}

/// Opens `path` for appending census lines, cutting a last line left unfinished by an
/// interruption.
pub fn open_append(path: &Path) -> Result<std::fs::File> {
    let err = |e: std::io::Error| Error::io(format!("cannot write {}", path.display()), e);
    // Only a regular file has a last line to mend (reading /dev/zero never ends).
    let regular = std::fs::metadata(path).is_ok_and(|m| m.is_file());
    if let Some(bytes) = regular.then(|| std::fs::read(path).ok()).flatten() {
        let keep = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        if keep < bytes.len() {
            let f = std::fs::OpenOptions::new()
                .write(true)
                .open(path)
                .map_err(err)?;
            f.set_len(keep as u64).map_err(err)?;
        }
    }
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(err)
}

/// CSV columns of a merged octal census.
pub const CSV_COLUMNS: [&str; 13] = [
    "index",
    "code",
    "base",
    "up_to",
    "status",
    "preperiod",
    "period",
    "sha256",
    "computed",
    "mask_cleared",
    "mask_domain",
    "rare",
    "max_value",
];

/// Bytes a kept census row costs beyond its compact JSON text (key, map node).
const ROW_OVERHEAD: u64 = 160;

/// Census lines joined into one table sorted by census index: every line checked,
/// duplicates (the same game in two files) kept once if they agree, refused if not; the
/// rows kept are counted against half the memory limit.
///
/// ```
/// use nimlab_json::census::{CensusMerge, CensusShape, OctalCensus};
/// let census = OctalCensus::new(CensusShape::new(1, 8, &[0], (0, 1)).unwrap(), 256).unwrap();
/// let lines = census.collect(&[], &nimlab_engine::TableOptions::default()).unwrap();
/// let mut merge = CensusMerge::new(nimlab_engine::MemoryLimit::default());
/// for (i, l) in lines.iter().chain(&lines).enumerate() {
///     merge.add(l, &format!("line {i}")).unwrap();
/// }
/// assert_eq!(merge.count(), 7);
/// ```
pub struct CensusMerge {
    rows: BTreeMap<(u64, u64, String), (String, String, bool)>,
    used: u64,
    limit: MemoryLimit,
}

impl CensusMerge {
    /// An empty table under `limit`.
    pub fn new(limit: MemoryLimit) -> Self {
        CensusMerge {
            rows: BTreeMap::new(),
            used: 0,
            limit,
        }
    }

    /// Adds one line (`at` names it in errors, e.g. `file:12`).
    pub fn add(&mut self, line: &Value, at: &str) -> Result<()> {
        let row = census_row(line, at)?;
        match self.rows.get(&row.key) {
            Some((_, claim, _)) if *claim != row.claim => Err(Error::input(format!(
                "{at} disagrees with an earlier line about {}",
                row.key.2
            ))),
            Some(_) => Ok(()),
            None => {
                self.used +=
                    (row.text.len() + row.claim.len() + row.key.2.len()) as u64 + ROW_OVERHEAD;
                if self.used > self.limit.bytes() / 2 {
                    return Err(Error::TooLarge {
                        what: format!("merging the census lines up to {at}"),
                        needed: self.used.saturating_mul(2),
                        limit: self.limit.bytes(),
                    });
                }
                self.rows.insert(row.key, (row.text, row.claim, row.solved));
                Ok(())
            }
        }
    }

    /// Adds every line of a census file (read in constant memory).
    pub fn add_file(&mut self, path: &Path) -> Result<()> {
        let name = path.display().to_string();
        for_each_line(path, false, &mut |n, line| {
            self.add(&line, &format!("{name}:{n}"))
        })
    }

    /// How many games the table has.
    pub fn count(&self) -> usize {
        self.rows.len()
    }

    /// How many of them are solved.
    pub fn solved(&self) -> usize {
        self.rows.values().filter(|r| r.2).count()
    }

    /// The rows as compact JSON texts, in census order.
    pub fn rows(&self) -> impl Iterator<Item = &str> {
        self.rows.values().map(|r| r.0.as_str())
    }

    /// The merged document `{"schema":1,"count","games":[…],"solved"}` as a value.
    pub fn document(&self) -> Result<Value> {
        let games = self
            .rows()
            .map(|t| serde_json::from_str(t).map_err(|e| Error::input(e.to_string())))
            .collect::<Result<Vec<Value>>>()?;
        Ok(crate::doc::to_value(&MergedCensusDoc {
            count: self.count(),
            games,
            solved: self.solved(),
        }))
    }

    /// Writes the merged document, row by row (keys sorted, as [`crate::write`] would).
    pub fn write_json(&self, out: &mut dyn Write, pretty: bool) -> std::io::Result<()> {
        let (count, solved) = (self.count(), self.solved());
        if pretty {
            writeln!(out, "{}", crate::schema_open(true) + ",")?;
            writeln!(out, "  \"count\": {count},")?;
            write!(out, "  \"games\": [")?;
            for (i, text) in self.rows().enumerate() {
                let v: Value = serde_json::from_str(text).map_err(std::io::Error::other)?;
                let pretty = serde_json::to_string_pretty(&v).map_err(std::io::Error::other)?;
                write!(
                    out,
                    "{}\n    {}",
                    if i == 0 { "" } else { "," },
                    pretty.replace('\n', "\n    ")
                )?;
            }
            writeln!(out, "{}],", if count == 0 { "" } else { "\n  " })?;
            writeln!(out, "  \"solved\": {solved}\n}}")
        } else {
            write!(
                out,
                "{},\"count\":{count},\"games\":[",
                crate::schema_open(false)
            )?;
            for (i, text) in self.rows().enumerate() {
                if i > 0 {
                    out.write_all(b",")?;
                }
                out.write_all(text.as_bytes())?;
            }
            writeln!(out, "],\"solved\":{solved}}}")
        }
    }

    /// Writes one CSV row per game ([`CSV_COLUMNS`]).
    pub fn write_csv(&self, out: &mut dyn Write) -> std::io::Result<()> {
        writeln!(out, "{}", CSV_COLUMNS.join(","))?;
        for text in self.rows() {
            let g: Value = serde_json::from_str(text).map_err(std::io::Error::other)?;
            let cells: Vec<String> = CSV_COLUMNS
                .iter()
                .map(|k| match g.get(*k) {
                    None | Some(Value::Null) => String::new(),
                    Some(Value::String(s)) => s.clone(),
                    Some(v) => v.to_string(),
                })
                .collect();
            writeln!(out, "{}", cells.join(","))?;
        }
        Ok(())
    }
}

/// One census line, checked: its sort key, its compact JSON (without `schema`), what
/// two files must agree on, and whether it is solved.
struct Row {
    key: (u64, u64, String),
    text: String,
    claim: String,
    solved: bool,
}

/// Checks a census line: every field a census writes, with its type and range, and a
/// `code` that is a code of `base` naming the `game` the line says.
fn census_row(line: &Value, at: &str) -> Result<Row> {
    let bad = |what: String| Error::input(format!("{at}: {what}"));
    let natural = |k: &str| -> Result<Option<u64>> {
        match line.get(k) {
            None | Some(Value::Null) => Ok(None),
            Some(v) => v.as_u64().map(Some).ok_or_else(|| {
                bad(format!(
                    "\"{k}\" must be a natural number below 2^64, got {v}"
                ))
            }),
        }
    };
    let base = natural("base")?.ok_or_else(|| bad("no \"base\"".into()))?;
    if base != 8 && base != 16 {
        return Err(bad(format!("\"base\" must be 8 or 16, got {base}")));
    }
    let index = natural("index")?.ok_or_else(|| bad("no \"index\"".into()))?;
    let code = line
        .get("code")
        .and_then(Value::as_str)
        .ok_or_else(|| bad("\"code\" must be text such as \"0.137\"".into()))?;
    let game =
        nimlab_octal::Octal::parse(code, base as u32).map_err(|e| bad(format!("\"code\": {e}")))?;
    let named = line.get("game").and_then(Value::as_str);
    if named != Some(game.spec_text()) {
        return Err(bad(format!(
            "\"game\" must be {} for the code {code}, got {}",
            game.spec_text(),
            line.get("game").unwrap_or(&Value::Null)
        )));
    }
    let up_to = natural("up_to")?.filter(|&u| u >= 1);
    if up_to.is_none() {
        return Err(bad("\"up_to\" must be a natural number ≥ 1".into()));
    }
    let (preperiod, period) = (natural("preperiod")?, natural("period")?);
    let solved = match line.get("status").and_then(Value::as_str) {
        Some("solved") => true,
        Some("unsolved") => false,
        _ => return Err(bad("\"status\" must be \"solved\" or \"unsolved\"".into())),
    };
    if solved && (period.is_none_or(|p| p == 0) || preperiod.is_none()) {
        return Err(bad(
            "a solved game has a \"period\" ≥ 1 and a \"preperiod\"".into(),
        ));
    }
    if !solved && (period.is_some() || preperiod.is_some()) {
        return Err(bad("an unsolved game has no period".into()));
    }
    let mut v = line.clone();
    if let Some(m) = v.as_object_mut() {
        m.remove("schema");
    }
    let claim = ["status", "preperiod", "period", "sha256", "up_to"]
        .iter()
        .map(|k| line.get(*k).map(|v| v.to_string()).unwrap_or_default())
        .collect::<Vec<_>>()
        .join("\u{1}");
    Ok(Row {
        key: (base, index, code.to_string()),
        text: serde_json::to_string(&v).map_err(|e| Error::input(e.to_string()))?,
        claim,
        solved,
    })
}

/// The document of a sweep (`nimlab sweep --format json`, `/api/sweep`; Python's
/// `sweep` returns its `results`).
#[derive(Debug, Clone, serde::Serialize)]
pub struct SweepDoc {
    // Fields in alphabetical order: `write_doc` streams them in the order a JSON value
    // sorts its keys, so every surface writes the same bytes.
    /// The family swept.
    pub family: String,
    /// Largest element of the members.
    pub max: crate::doc::Nat,
    /// Whether the periods are proven (always: a window repeated).
    pub proven: bool,
    /// One row per member.
    pub results: Vec<SweepRowDoc>,
    /// Members of the whole family (null beyond 2^64).
    pub sets_in_family: Option<crate::doc::Nat>,
    /// Members of this shard.
    pub sets_in_shard: crate::doc::Nat,
    /// `i/k`.
    pub shard: String,
    /// Number of elements of each member.
    pub size: crate::doc::Nat,
    /// The order of `results`.
    pub sorted_by: &'static str,
    /// Each member's period was searched among heaps below this (the request's bound,
    /// or lower when memory allowed no more).
    pub up_to: crate::doc::Nat,
}

/// One member of a sweep.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SweepRowDoc {
    /// Its proven period (null: no period below the search limit).
    pub period: Option<u64>,
    /// Its proven preperiod.
    pub preperiod: Option<u64>,
    /// The member (a subtraction set).
    pub s: Vec<u64>,
}

/// The order of a sweep's rows, in words.
pub const SWEEP_ORDER: &str = "period descending, then preperiod descending, then set ascending";

impl SweepRowDoc {
    /// The row of `r`.
    pub fn new(r: &nimlab_games::SweepRow) -> Self {
        SweepRowDoc {
            s: r.member.clone(),
            preperiod: r.period.map(|p| p.0),
            period: r.period.map(|p| p.1),
        }
    }

    /// Back to the library's row (a row read from JSON or Python).
    pub fn row(&self) -> Result<nimlab_games::SweepRow> {
        let period = match (self.preperiod, self.period) {
            (Some(a), Some(p)) if p >= 1 => Some((a, p)),
            (None, None) => None,
            _ => {
                return Err(Error::input(format!(
                    "a sweep row of {} has a preperiod without a period ≥ 1 or the reverse",
                    nimlab_games::format_set(&self.s)
                )));
            }
        };
        Ok(nimlab_games::SweepRow {
            member: self.s.clone(),
            period,
        })
    }
}

/// Runs the sweep of `family` through the library and returns its document; `count`
/// keeps the first rows only.
///
/// ```
/// use nimlab_games::SweepRequest;
/// let req = SweepRequest { max: 8, size: 2, shard: (0, 1), up_to: 10_000 };
/// let doc = nimlab_json::census::sweep("subtraction", &req, None, &Default::default()).unwrap();
/// assert_eq!(doc.results.len(), 28);
/// ```
pub fn sweep(
    family: &str,
    request: &nimlab_games::SweepRequest,
    count: Option<usize>,
    opts: &TableOptions,
) -> Result<SweepDoc> {
    let (fam, sweeper) = nimlab_games::sweeper(family)?;
    let nimlab_games::SweepOutcome { rows, up_to } = nimlab_games::sweep(fam.name, request, opts)?;
    let total = (sweeper.count)(request.max, request.size);
    let shown = &rows[..count.unwrap_or(rows.len()).min(rows.len())];
    Ok(SweepDoc {
        family: fam.name.to_string(),
        max: request.max.into(),
        size: request.size.into(),
        shard: format!("{}/{}", request.shard.0, request.shard.1),
        sets_in_family: total.map(Into::into),
        sets_in_shard: (rows.len() as u64).into(),
        sorted_by: SWEEP_ORDER,
        proven: true,
        up_to: up_to.into(),
        results: shown.iter().map(SweepRowDoc::new).collect(),
    })
}

/// Joins the rows of a sweep's shards into the unsharded sweep's rows, in its order.
pub fn merge_sweep(parts: &[Vec<SweepRowDoc>]) -> Result<Vec<SweepRowDoc>> {
    let rows = parts
        .iter()
        .flatten()
        .map(SweepRowDoc::row)
        .collect::<Result<Vec<_>>>()?;
    Ok(nimlab_games::merge_sweep(rows)?
        .iter()
        .map(SweepRowDoc::new)
        .collect())
}

/// Reads census lines given as values (Python, the web), checking each is an object.
pub fn lines_from_values(values: &[Value]) -> Result<Vec<Value>> {
    values
        .iter()
        .enumerate()
        .map(|(i, v)| {
            if v.get("code").is_some() {
                Ok(v.clone())
            } else {
                Err(Error::input(format!(
                    "census line {i} is not a census line"
                )))
            }
        })
        .collect()
}
