//! nimlab's JSON: the conventions and the shapes of every answer, shared by the
//! `nimlab` command line and the web explorer's API (`nimlab serve`), so that both
//! write the same documents (docs/json.md).
//!
//! * compact by default (one line), indented with the global `--pretty`;
//! * every top-level object starts with `"schema": 1`, the version of the output layout;
//! * integers that may exceed 2^53 (positions, Grundy values, counts) are numbers up to
//!   2^53 − 1 and strings (decimal digits) beyond, so that every JSON reader (JavaScript,
//!   jq, pandas) reads them exactly.

pub mod census;
pub mod classroom;
pub mod frontier;
pub mod guess;
pub mod misere_census;
pub mod reports;
#[cfg(feature = "schema")]
pub mod schema;
pub mod search_shard;
pub mod worksheet;

use num_bigint::BigUint;
use serde_json::Value;
use std::io::{self, Write};

/// Version of the JSON layout, written as `"schema"` in every top-level object.
pub const SCHEMA: u64 = 1;

/// The largest integer every JSON reader holds exactly: 2^53 − 1.
pub const MAX_SAFE: u64 = (1 << 53) - 1;

/// `n` as a JSON number when ≤ 2^53 − 1, else as a string of its decimal digits.
pub fn uint(n: &BigUint) -> Value {
    match u64::try_from(n) {
        Ok(x) => int(x),
        Err(_) => Value::String(n.to_str_radix(10)),
    }
}

/// `n` as a JSON number when ≤ 2^53 − 1, else as a string of its decimal digits.
pub fn int(n: u64) -> Value {
    if n <= MAX_SAFE {
        Value::from(n)
    } else {
        Value::String(n.to_string())
    }
}

/// A count in a typed document, written as [`int`] writes it: a number up to
/// 2^53 − 1, a string of decimal digits beyond.
///
/// ```
/// use nimlab_json::Int;
/// assert_eq!(serde_json::to_string(&Int(5)).unwrap(), "5");
/// assert_eq!(serde_json::to_string(&Int(1 << 60)).unwrap(), "\"1152921504606846976\"");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Int(pub u64);

impl serde::Serialize for Int {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        if self.0 <= MAX_SAFE {
            s.serialize_u64(self.0)
        } else {
            s.serialize_str(&self.0.to_string())
        }
    }
}

/// Writes `value` and a newline: compact, or indented when `pretty`. A top-level
/// object gets `"schema": 1` as its first field.
pub fn write(out: &mut dyn Write, value: &Value, pretty: bool) -> io::Result<()> {
    let text = if pretty {
        serde_json::to_string_pretty(value)
    } else {
        serde_json::to_string(value)
    }
    .map_err(io::Error::other)?;
    if value.is_object() {
        out.write_all(schema_open(pretty).as_bytes())?;
        let rest = &text[1..];
        if value.as_object().is_some_and(|m| m.is_empty()) {
            out.write_all(if pretty { b"\n}" } else { b"}" })?;
        } else {
            out.write_all(b",")?;
            out.write_all(rest.as_bytes())?;
        }
    } else {
        out.write_all(text.as_bytes())?;
    }
    out.write_all(b"\n")
}

/// Writes the document `doc` (an object) as [`write()`] writes its value, streamed: no
/// JSON tree is built, so a long list costs its text only. The bytes equal those of
/// `write(out, &doc::to_value(doc), pretty)` when `T`'s fields are declared in
/// alphabetical order (a value's keys are sorted).
///
/// ```
/// #[derive(serde::Serialize)]
/// struct Rows { count: u64, rows: Vec<u64> }
/// let doc = Rows { count: 2, rows: vec![3, 5] };
/// let (mut streamed, mut tree) = (Vec::new(), Vec::new());
/// nimlab_json::write_doc(&mut streamed, &doc, false).unwrap();
/// nimlab_json::write(&mut tree, &nimlab_json::doc::to_value(&doc), false).unwrap();
/// assert_eq!(streamed, tree);
/// assert_eq!(streamed, b"{\"schema\":1,\"count\":2,\"rows\":[3,5]}\n");
/// ```
pub fn write_doc<T: serde::Serialize>(
    out: &mut dyn Write,
    doc: &T,
    pretty: bool,
) -> io::Result<()> {
    /// Passes on everything after the object's opening brace, with a comma before it
    /// unless the object is empty (its next byte is the closing brace).
    struct AfterBrace<'a> {
        out: &'a mut dyn Write,
        seen: usize,
    }
    impl Write for AfterBrace<'_> {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            let mut rest = buf;
            if self.seen == 0 && !rest.is_empty() {
                rest = &rest[1..];
                self.seen = 1;
            }
            if self.seen == 1 && !rest.is_empty() {
                if rest[0] != b'}' {
                    self.out.write_all(b",")?;
                }
                self.seen = 2;
            }
            self.out.write_all(rest)?;
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            self.out.flush()
        }
    }
    out.write_all(schema_open(pretty).as_bytes())?;
    let mut w = io::BufWriter::with_capacity(1 << 16, AfterBrace { out, seen: 0 });
    if pretty {
        serde_json::to_writer_pretty(&mut w, doc)
    } else {
        serde_json::to_writer(&mut w, doc)
    }
    .map_err(io::Error::other)?;
    w.flush()?;
    drop(w);
    out.write_all(b"\n")
}

/// The start of a top-level object: `{"schema":1` (no comma after it).
pub fn schema_open(pretty: bool) -> String {
    if pretty {
        format!("{{\n  \"schema\": {SCHEMA}")
    } else {
        format!("{{\"schema\":{SCHEMA}")
    }
}

/// Writes `,"key":value` of a top-level object (`pretty`: on its own indented line).
pub fn field(out: &mut dyn Write, key: &str, value: &Value, pretty: bool) -> io::Result<()> {
    let key = serde_json::to_string(key).map_err(io::Error::other)?;
    if pretty {
        let v = serde_json::to_string_pretty(value).map_err(io::Error::other)?;
        // JSON strings hold no raw newline: every newline is layout, indent it.
        write!(out, ",\n  {key}: {}", v.replace('\n', "\n  "))
    } else {
        let v = serde_json::to_string(value).map_err(io::Error::other)?;
        write!(out, ",{key}:{v}")
    }
}

pub mod certificate;
pub mod doc;

use nimlab_engine::game::Game;
use nimlab_engine::plan::PositionReport;
use nimlab_engine::play::MoveChoice;
use nimlab_engine::{GrundyTable, INVALID};

/// A position in JSON: its coordinates, or one array per part for a sum whose parts
/// are take-and-break games (as `;` separates them in text).
///
/// ```
/// use nimlab_engine::big::parse_big_position;
/// let g = nimlab_games::parse_game("wythoff").unwrap();
/// let p = parse_big_position("3,5").unwrap();
/// assert_eq!(nimlab_json::position_json(&*g, &p).to_string(), "[3,5]");
/// ```
pub fn position_json(game: &dyn Game, p: &[BigUint]) -> Value {
    doc::to_value(&doc::Pos::of(game, p))
}

/// The answer of `value` and `moves` about one position (`options` when listed): the
/// JSON of [`doc::PositionDoc`].
///
/// ```
/// use nimlab_engine::big::parse_big_position;
/// use nimlab_engine::TableOptions;
/// let g = nimlab_games::parse_game("nim").unwrap();
/// let p = parse_big_position("3,5").unwrap();
/// let r = nimlab_engine::plan::value(&*g, &p, &TableOptions::default()).unwrap();
/// let v = nimlab_json::report_json(&*g, &r);
/// assert_eq!(v["grundy"], 6);
/// assert_eq!(v["outcome"], "N");
/// ```
pub fn report_json(game: &dyn Game, r: &PositionReport) -> Value {
    doc::to_value(&doc::PositionDoc::new(game, r))
}

/// The computer's move (`nimlab play`, `/api/play`): `from`, `to`, the Grundy value of
/// `to`, whether it wins, its remoteness and the explanation ([`doc::MoveDoc`]).
///
/// ```
/// use nimlab_engine::play::{computer_move, Level};
/// use nimlab_engine::TableOptions;
/// let g = nimlab_games::parse_game("nim").unwrap();
/// let m = computer_move(&*g, &[5, 2], Level::Perfect, &TableOptions::default()).unwrap().unwrap();
/// let v = nimlab_json::move_json(&*g, &m);
/// assert_eq!(v["to"].to_string(), "[2,2]");
/// assert_eq!(v["winning"], true);
/// ```
pub fn move_json(game: &dyn Game, m: &MoveChoice) -> Value {
    doc::to_value(&doc::MoveDoc::new(game, m))
}

/// What a family's default instance can do (families without defaults: nothing).
pub fn family_capabilities(f: &nimlab_games::Family) -> Vec<&'static str> {
    nimlab_games::parse_game(f.name)
        .map(|g| g.capabilities().names())
        .unwrap_or_default()
}

/// The catalog document (`nimlab games`, `/api/games`, Python `games()`).
pub fn catalog(catalog: &[&nimlab_games::Family]) -> doc::CatalogDoc {
    doc::CatalogDoc {
        games: catalog.iter().map(|f| doc::FamilyDoc::new(f)).collect(),
    }
}

/// The catalog (`nimlab games`): one object per family.
pub fn catalog_json(list: &[&nimlab_games::Family]) -> Value {
    doc::to_value(&catalog(list))
}

/// What a game's source declares for `check` (a rules file's closed form, predicate
/// and constants).
pub fn declared(source: &nimlab_games::source::GameSource) -> nimlab_formula::check::Declared<'_> {
    nimlab_formula::check::Declared {
        closed_form: source.closed_form.as_deref(),
        p_positions: source.p_positions.as_deref(),
        constants: &source.constants,
    }
}

/// The answer of `check`: the claim, the box, how many positions were checked and the
/// first mismatches ([`doc::CheckDoc`]).
pub fn check_json(game: &dyn Game, checked: &nimlab_formula::check::Checked) -> Value {
    doc::to_value(&doc::CheckDoc::new(game, checked))
}

/// Writes bytes through a local buffer handed to `out` in large pieces: one virtual call
/// per 64 KiB instead of one per cell.
pub struct Buffered<'a> {
    out: &'a mut dyn Write,
    buf: Vec<u8>,
}

const CHUNK: usize = 1 << 16;

impl<'a> Buffered<'a> {
    /// A buffer in front of `out`.
    pub fn new(out: &'a mut dyn Write) -> Self {
        Buffered {
            out,
            buf: Vec::with_capacity(CHUNK + 256),
        }
    }
    /// Appends bytes.
    pub fn bytes(&mut self, b: &[u8]) -> io::Result<()> {
        self.buf.extend_from_slice(b);
        self.spill()
    }
    /// Appends text.
    pub fn str(&mut self, s: &str) -> io::Result<()> {
        self.bytes(s.as_bytes())
    }
    /// Appends one byte.
    pub fn byte(&mut self, b: u8) -> io::Result<()> {
        self.buf.push(b);
        self.spill()
    }
    /// Appends `n` spaces.
    pub fn spaces(&mut self, n: usize) -> io::Result<()> {
        self.buf.resize(self.buf.len() + n, b' ');
        self.spill()
    }
    /// Appends `v` in decimal.
    pub fn number(&mut self, v: u64) -> io::Result<()> {
        let mut digits = [0u8; 20];
        let text = format_u64(v, &mut digits);
        self.bytes(text)
    }
    /// `v` right-aligned in `width` columns.
    pub fn number_right(&mut self, v: u64, width: usize) -> io::Result<()> {
        let mut digits = [0u8; 20];
        let text = format_u64(v, &mut digits);
        self.spaces(width.saturating_sub(text.len()))?;
        self.bytes(text)
    }
    fn spill(&mut self) -> io::Result<()> {
        if self.buf.len() >= CHUNK {
            self.out.write_all(&self.buf)?;
            self.buf.clear();
        }
        Ok(())
    }
    /// Writes what is left in the buffer.
    pub fn finish(mut self) -> io::Result<()> {
        self.out.write_all(&self.buf)?;
        self.buf.clear();
        Ok(())
    }
}

/// The decimal digits of `v`, written at the end of `digits`.
pub fn format_u64(mut v: u64, digits: &mut [u8; 20]) -> &[u8] {
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            return &digits[i..];
        }
    }
}

/// Writes the table as one JSON object and a newline: `schema`, `game`, `size`, then
/// `extra` fields in order, then `values` nested with the last coordinate outermost
/// (`values[y][x]` for two coordinates), `null` for cells that are not positions.
/// Streamed: the values are never held as a JSON tree or text.
pub fn write_table_json(
    out: &mut dyn Write,
    game: &dyn Game,
    table: &GrundyTable,
    extra: &[(&str, Value)],
    pretty: bool,
) -> io::Result<()> {
    out.write_all(schema_open(pretty).as_bytes())?;
    field(out, "game", &Value::from(game.spec()), pretty)?;
    let size: Vec<Value> = table.dims().iter().map(|&d| int(d as u64)).collect();
    if pretty {
        // The box on one line, as every row of values.
        let text = serde_json::to_string(&size).map_err(io::Error::other)?;
        write!(out, ",\n  \"box\": {}", text.replace(',', ", "))?;
    } else {
        field(out, "box", &Value::Array(size), pretty)?;
    }
    for (key, value) in extra {
        field(out, key, value, pretty)?;
    }
    out.write_all(if pretty {
        b",\n  \"values\": "
    } else {
        b",\"values\":"
    })?;
    let mut w = Buffered::new(out);
    nested_values(&mut w, table, pretty)?;
    w.str(if pretty { "\n}\n" } else { "}\n" })?;
    w.finish()
}

/// values nested with the last coordinate outermost: values[y][x] for two coordinates.
fn nested_values(w: &mut Buffered, table: &GrundyTable, pretty: bool) -> io::Result<()> {
    let dims = table.dims();
    let values = table.values();
    if values.is_empty() {
        return w.str("[]");
    }
    // Sizes of the inner arrays: d0, d0·d1, … (all but the outermost level).
    let mut spans = Vec::new();
    let mut p = 1usize;
    for &d in dims.iter().take(dims.len().saturating_sub(1)) {
        p = p.saturating_mul(d.max(1));
        spans.push(p);
    }
    let depth = spans.len();
    w.byte(b'[')?;
    if pretty && depth > 0 {
        w.str("\n    ")?;
    }
    for _ in 0..depth {
        w.byte(b'[')?;
    }
    for (i, &v) in values.iter().enumerate() {
        if i > 0 {
            // Arrays that end before cell i (and start again with it).
            let c = spans.iter().filter(|&&s| i % s == 0).count();
            for _ in 0..c {
                w.byte(b']')?;
            }
            w.byte(b',')?;
            if pretty {
                if c > 0 {
                    // numpy's layout: inner brackets aligned under the outer ones.
                    w.byte(b'\n')?;
                    w.spaces(4 + depth - c)?;
                } else {
                    w.byte(b' ')?;
                }
            }
            for _ in 0..c {
                w.byte(b'[')?;
            }
        }
        if v == INVALID {
            w.str("null")?;
        } else {
            w.number(v as u64)?;
        }
    }
    for _ in 0..depth {
        w.byte(b']')?;
    }
    if pretty && depth > 0 {
        w.str("\n  ")?;
    }
    w.byte(b']')
}

/// A misère quotient as a JSON document (`nimlab misere-quotient --format json`, the
/// web explorer's `/api/misere-quotient`): the value of [`reports::MisereQuotientDoc`].
pub fn misere_quotient_json(
    spec: &str,
    q: &nimlab_engine::misere_quotient::MisereQuotient,
) -> Value {
    doc::to_value(&reports::MisereQuotientDoc::new(spec, q))
}

/// The answer of `nimlab prove` (and `/api/prove`, Python's `Game.prove`): the value of
/// [`reports::ProofDoc`].
pub fn proof_json(p: &nimlab_formula::prove::Proof) -> Value {
    doc::to_value(&reports::ProofDoc::new(p))
}
