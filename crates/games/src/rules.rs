//! Games defined in a rules file (TOML): take-away games Γ(P, C) (docs/theory.md §3)
//! written with the formula language, and take-and-break games on heaps (below). The engine sees an ordinary [`Game`]; it never
//! knows the game came from a file.
//!
//! ```toml
//! name = "ryuoh-3"
//! description = "Generalized Ryuoh Nim, p = 3"
//! dimension = 2
//! coordinates = ["x", "y"]        # optional; default x, y (n for 1, x0, x1, … for m ≥ 3)
//! params = { p = 3 }              # optional named constants, usable in every formula
//! positions = "true"              # optional predicate P over the coordinates
//! moves = "c0 == 0 || c1 == 0 || c0 + c1 <= p - 1"
//! # or an explicit list of move vectors:  moves = [[1, 0], [0, 1], [1, 1]]
//! # or a named set: "C1" (Nim), "Cbeta(beta=[3..])", "Abeta(beta=[p,2..])"
//! take_and_put = false            # optional: may components of a move be negative?
//! grundy = "(x+y)%p + p*((x/p) xor (y/p))"   # optional closed form (`check` uses it)
//! p_positions = "..."             # optional predicate claimed to give the P-positions
//! ```
//!
//! A move C = (c0, c1, …) goes from X to X − C. It must keep every coordinate ≥ 0, have
//! Σcᵢ > 0 (so every play ends), land in P, and satisfy the move predicate, which may
//! use the coordinates of X as well as c0, c1, …. Components are ≥ 0 unless
//! `take_and_put = true` (then a move may also *add* to some heaps, docs/theory.md §3).
//! A move predicate that fails to evaluate (overflow, division by zero) at some C is
//! taken as false there.
//!
//! # Take-and-break files
//!
//! With `kind = "take-and-break"` a file states a game on heaps in the words of its
//! rules instead: how many tokens a move removes from one heap, and how many non-empty
//! heaps it may leave of the rest (0: it took the whole heap, 1, or 2: it broke the
//! rest in two).
//!
//! ```toml
//! name = "split-124"
//! kind = "take-and-break"
//! remove = [1, 2, 4]        # amounts: numbers, ranges "2..4" (both ends in), or a list
//! leave = [0, 1, 2]         # optional; default [0, 1] (a plain removal)
//! split = true              # optional: split a heap in two without removing a token
//! # or, per amount, instead of remove and leave:
//! # moves = [{ remove = 1, leave = [0] }, { remove = "2..3", leave = [0, 1, 2] }]
//! ```
//!
//! Removing k tokens with the heap counts L allowed is the take-and-break code digit
//! d_k = Σ_{l ∈ L} 2^l, and `split = true` (or `{ remove = 0, leave = [2] }`) is the
//! whole part d0 = 4: the file above is the octal code 4.7707. The file's game *is*
//! the [`crate::octal::Octal`] game of that code (the engine asks it every question:
//! values, periods, big heaps, misère quotients), under the spec `rules(file=…)`;
//! [`RulesGame::equivalent_spec`] names the code. Removing 0 tokens must leave two
//! heaps; amounts go up to [`MAX_REMOVE`]; the take-away keys (`dimension`, `moves` as
//! a predicate or vectors, …) are refused in such a file, and its keys in a take-away
//! one. Rules files are read from a path ([`load`]) or from text ([`from_text`]).

use crate::{Args, Family, Param};
use nimlab_engine::game::default_coordinate_names;
use nimlab_engine::{Coord, Error, Game, Result, Theorem};
use nimlab_formula::{Column, Formula};
use serde::Deserialize;
use std::path::Path;
use std::sync::{Arc, Mutex};

/// Largest dimension a rules file may declare (move enumeration is exponential in it).
pub const MAX_DIMENSION: usize = 6;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RulesFile {
    /// Defaults to the file's name without its extension.
    name: Option<String>,
    #[serde(default)]
    description: String,
    dimension: usize,
    coordinates: Option<Vec<String>>,
    #[serde(default)]
    params: toml::Table,
    positions: Option<String>,
    moves: MovesField,
    #[serde(default)]
    take_and_put: bool,
    grundy: Option<String>,
    p_positions: Option<String>,
    /// `"take-away"` (the default) when given; read by [`RulesGame::from_toml`].
    #[serde(rename = "kind")]
    _kind: Option<String>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum MovesField {
    Predicate(String),
    List(Vec<Vec<i64>>),
}

enum Moves {
    /// Explicit move vectors.
    List(Vec<Vec<i64>>),
    /// A named set of the take-away paper: C_[1], C^β or A^β.
    Named(crate::takeaway::MoveSet),
    /// A predicate over (c0, …, c_{m−1}, coordinates…, x0, …).
    Predicate {
        formula: Formula,
        uses_position: bool,
    },
}

/// The legal move vectors of a position-independent predicate, for every component
/// in [low, bound] (low = 0, or −m·bound with take-and-put).
struct MoveCache {
    bound: u64,
    moves: Vec<Vec<i64>>,
}

/// The take-away form of a rules file: a game over N^m.
struct TakeAway {
    origin: String,
    dimension: usize,
    names: Vec<String>,
    positions: Option<Formula>,
    moves: Moves,
    take_and_put: bool,
    grundy: Option<String>,
    p_positions: Option<String>,
    params: Vec<(String, i64)>,
    /// Coordinates that also get an `x{i}` alias (those not already named so).
    alias_coords: Vec<usize>,
    cache: Mutex<Arc<MoveCache>>,
    /// One heap, every position, a finite list of takes: the subtraction game of those
    /// takes, whose proven period and big-heap values the file's game has too.
    subtraction: Option<crate::subtraction::Subtraction>,
}

/// Largest rules file read (a rules file is a few lines; this keeps `--rules /dev/zero`
/// or a huge file from being read whole).
pub const MAX_FILE_BYTES: u64 = 1 << 20;

/// Reads and checks the rules file at `path`, reading at most [`MAX_FILE_BYTES`].
pub fn load(path: &Path) -> Result<RulesGame> {
    use std::io::Read;
    let shown = crate::spec::show(&path.display().to_string());
    let cannot = |e: std::io::Error| Error::io(format!("cannot read rules file {shown}"), e);
    let file = std::fs::File::open(path).map_err(cannot)?;
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(cannot)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(Error::input(format!(
            "rules file {shown} is larger than the limit of {} (a rules file is a few lines)",
            nimlab_engine::error::human_bytes(MAX_FILE_BYTES)
        )));
    }
    let text = String::from_utf8(bytes).map_err(|e| {
        Error::input(format!(
            "rules file {shown} is not UTF-8 text (bad byte at offset {})",
            e.utf8_error().valid_up_to()
        ))
    })?;
    RulesGame::from_toml(&text, &path.display().to_string())
}

/// The name of a rules file that gives none: its file name without the extension
/// (`games/take-1-2.toml` → `take-1-2`).
fn default_name(origin: &str) -> String {
    let path = Path::new(origin);
    path.file_stem()
        .or_else(|| path.file_name())
        .map(|s| s.to_string_lossy().into_owned())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| origin.to_string())
}

fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Line and column (1-based) of a byte offset.
fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let col = before.chars().rev().take_while(|&c| c != '\n').count() + 1;
    (line, col)
}

/// The coordinates' names of a rules file (its own or x, y, …), each a plain name of
/// its own that no move variable, function or other coordinate's index alias takes.
fn coordinate_names(file: &RulesFile, bad: &dyn Fn(String) -> Error) -> Result<Vec<String>> {
    let m = file.dimension;
    if m == 0 || m > MAX_DIMENSION {
        return Err(bad(format!(
            "dimension must be 1..{MAX_DIMENSION}, got {m}"
        )));
    }
    let names = file
        .coordinates
        .clone()
        .unwrap_or_else(|| default_coordinate_names(m));
    if names.len() != m {
        return Err(bad(format!(
            "coordinates names {} coordinate(s) but dimension is {m}",
            names.len()
        )));
    }
    let move_vars: Vec<String> = (0..m).map(|i| format!("c{i}")).collect();
    for (i, n) in names.iter().enumerate() {
        if names[..i].contains(n) {
            return Err(bad(format!(
                "coordinates names '{}' twice (each coordinate needs its own name)",
                crate::spec::show(n)
            )));
        }
        // x0, x1, … always name the coordinates by index: `x1` cannot name another.
        let alias = (0..MAX_DIMENSION).find(|j| *n == format!("x{j}"));
        if alias.is_some_and(|j| j != i) {
            return Err(bad(format!(
                "'{}' cannot name coordinate {i}: x0, x1, … always name the coordinates \
                 by their index",
                crate::spec::show(n)
            )));
        }
    }
    for n in &names {
        if !is_identifier(n)
            || move_vars.contains(n)
            || nimlab_formula::FUNCTIONS.contains(&n.as_str())
        {
            return Err(bad(format!(
                "'{}' cannot name a coordinate (use a plain name that is not c0, c1, … or a function)",
                crate::spec::show(n)
            )));
        }
    }
    Ok(names)
}

/// The file's parameters, each an integer.
fn integer_params(file: &RulesFile, bad: &dyn Fn(String) -> Error) -> Result<Vec<(String, i64)>> {
    let mut params: Vec<(String, i64)> = Vec::new();
    for (k, v) in &file.params {
        let v = v.as_integer().ok_or_else(|| {
            bad(format!(
                "parameter {} must be an integer",
                crate::spec::show(k)
            ))
        })?;
        params.push((k.clone(), v));
    }
    Ok(params)
}

/// A list of moves must be non-empty, each move of the dimension's length, taking
/// something, and without negative components unless the game allows take-and-put.
fn check_move_list(
    list: &[Vec<i64>],
    m: usize,
    take_and_put: bool,
    bad: &dyn Fn(String) -> Error,
) -> Result<()> {
    if list.is_empty() {
        return Err(bad(
            "moves is an empty list (the game would have no move)".into()
        ));
    }
    for c in list {
        if c.len() != m {
            return Err(bad(format!(
                "move {c:?} has {} component(s) but dimension is {m}",
                c.len()
            )));
        }
        if c.iter().map(|&v| v as i128).sum::<i128>() <= 0 {
            return Err(bad(format!(
                "move {c:?} must take something: its components must sum to more than 0"
            )));
        }
        if !take_and_put && c.iter().any(|&v| v < 0) {
            return Err(bad(format!(
                "move {c:?} has a negative component; set take_and_put = true to allow it"
            )));
        }
    }
    Ok(())
}

/// A finite list of takes from one heap, every heap a position: a subtraction game
/// (its set the takes).
fn subtraction_of(
    moves: &Moves,
    m: usize,
    positions: Option<&Formula>,
) -> Option<crate::subtraction::Subtraction> {
    let every_position = positions.is_none_or(|p| p.text().trim() == "true");
    match moves {
        Moves::List(list) if m == 1 && every_position => {
            let takes: Option<Vec<u64>> = list
                .iter()
                .map(|c| u64::try_from(c[0]).ok().filter(|&t| t > 0))
                .collect();
            takes.and_then(|t| crate::subtraction::Subtraction::new(t).ok())
        }
        _ => None,
    }
}

impl TakeAway {
    /// The take-away game of a parsed file; `bad` makes its one-line errors.
    fn from_file(file: RulesFile, origin: &str, bad: &dyn Fn(String) -> Error) -> Result<Self> {
        let m = file.dimension;
        let names = coordinate_names(&file, bad)?;
        let move_vars: Vec<String> = (0..m).map(|i| format!("c{i}")).collect();
        let params = integer_params(&file, bad)?;
        let params_ref: Vec<(&str, i64)> = params.iter().map(|(k, v)| (k.as_str(), *v)).collect();
        let mut position_vars: Vec<String> = names.clone();
        for i in 0..m {
            let alias = format!("x{i}");
            if !position_vars.contains(&alias) {
                position_vars.push(alias);
            }
        }
        let pv: Vec<&str> = position_vars.iter().map(String::as_str).collect();
        let compile = |field: &str, text: &str, vars: &[&str]| {
            let f = Formula::compile_with_constants(text, vars, &params_ref)
                .map_err(|e| bad(format!("{field} = '{}': {e}", crate::spec::show(text))))?;
            if field != "grundy" && !f.is_condition() {
                return Err(bad(format!(
                    "{field} = '{}' must be a condition (a comparison, &&, ||, !), not a number",
                    crate::spec::show(text)
                )));
            }
            Ok(f)
        };
        let positions = file
            .positions
            .as_deref()
            .map(|t| compile("positions", t, &pv))
            .transpose()?;
        for (field, claim) in [("grundy", &file.grundy), ("p_positions", &file.p_positions)] {
            if let Some(t) = claim {
                compile(field, t, &pv)?;
            }
        }
        let resolve = |name: &str| params.iter().find(|(k, _)| k == name).map(|(_, v)| *v);
        let named = match &file.moves {
            MovesField::Predicate(t) => crate::takeaway::MoveSet::parse_named(t, &resolve)
                .transpose()
                .map_err(|e| bad(format!("moves = '{}': {e}", crate::spec::show(t))))?,
            MovesField::List(_) => None,
        };
        let moves = match file.moves {
            MovesField::Predicate(_) if named.is_some() => Moves::Named(named.expect("checked")),
            MovesField::Predicate(t) => {
                let mut vars: Vec<&str> = move_vars.iter().map(String::as_str).collect();
                vars.extend(pv.iter());
                let formula = compile("moves", &t, &vars)?;
                let uses_position = (m..vars.len()).any(|i| formula.uses_variable(i));
                Moves::Predicate {
                    formula,
                    uses_position,
                }
            }
            MovesField::List(list) => {
                check_move_list(&list, m, file.take_and_put, bad)?;
                Moves::List(list)
            }
        };
        let subtraction = subtraction_of(&moves, m, positions.as_ref());
        Ok(TakeAway {
            subtraction,
            origin: origin.to_string(),
            dimension: m,
            names: names.clone(),
            positions,
            moves,
            take_and_put: file.take_and_put,
            grundy: file.grundy,
            p_positions: file.p_positions,
            params,
            alias_coords: (0..m)
                .filter(|i| !names.contains(&format!("x{i}")))
                .collect(),
            cache: Mutex::new(Arc::new(MoveCache {
                bound: 0,
                moves: Vec::new(),
            })),
        })
    }

    fn position_ok(&self, pos: &[i64]) -> bool {
        match &self.positions {
            None => true,
            Some(p) => p.eval(&self.position_values(pos)).is_ok_and(|v| v != 0),
        }
    }

    /// Values of the position variables: the coordinates, then the x0, … aliases.
    fn position_values(&self, pos: &[i64]) -> Vec<i64> {
        let mut v = pos.to_vec();
        v.extend(self.alias_coords.iter().map(|&i| pos[i]));
        v
    }

    /// Visits X − C for every C in `moves` that is legal from `pos`.
    fn visit_moves(&self, pos: &[Coord], moves: &[Vec<i64>], visit: &mut dyn FnMut(&[Coord])) {
        let mut target = vec![0i64; pos.len()];
        let mut out: Vec<Coord> = vec![0; pos.len()];
        'next: for c in moves {
            for i in 0..pos.len() {
                match (pos[i] as i64).checked_sub(c[i]) {
                    Some(t) if t >= 0 => target[i] = t,
                    _ => continue 'next,
                }
            }
            if self.position_ok(&target) {
                for (o, &t) in out.iter_mut().zip(&target) {
                    *o = t as Coord;
                }
                visit(&out);
            }
        }
    }

    /// Every candidate move vector with component i in [low[i], high[i]] and Σ > 0
    /// that satisfies the predicate (with the position `pos`, if it uses it).
    fn enumerate(
        &self,
        formula: &Formula,
        low: &[i64],
        high: &[i64],
        pos: &[i64],
    ) -> Vec<Vec<i64>> {
        let m = self.dimension;
        let position = self.position_values(pos);
        let mut found = Vec::new();
        let mut columns: Vec<Vec<i64>> = vec![Vec::new(); m];
        let flush = |columns: &mut Vec<Vec<i64>>, found: &mut Vec<Vec<i64>>| {
            let n = columns[0].len();
            if n == 0 {
                return;
            }
            let mut cols: Vec<Column<'_>> = columns.iter().map(|c| Column::Values(c)).collect();
            cols.extend(position.iter().map(|&v| Column::Constant(v)));
            let mut out = vec![0; n];
            let mut ev = formula.evaluator();
            if ev.eval(&cols, &mut out).is_err() {
                // Some cell fails: evaluate one by one, failures count as false.
                let mut vals = vec![0i64; cols.len()];
                for (i, o) in out.iter_mut().enumerate() {
                    for (v, c) in vals.iter_mut().zip(&cols) {
                        *v = match c {
                            Column::Values(c) => c[i],
                            Column::Constant(k) => *k,
                        };
                    }
                    *o = formula.eval(&vals).unwrap_or(0);
                }
            }
            for (i, &o) in out.iter().enumerate() {
                if o != 0 {
                    found.push(columns.iter().map(|c| c[i]).collect());
                }
            }
            columns.iter_mut().for_each(Vec::clear);
        };
        if low.iter().zip(high).any(|(l, h)| l > h) {
            return found;
        }
        let mut c: Vec<i64> = low.to_vec();
        loop {
            if c.iter().map(|&v| v as i128).sum::<i128>() > 0 {
                for (col, &v) in columns.iter_mut().zip(&c) {
                    col.push(v);
                }
                if columns[0].len() == 1024 {
                    flush(&mut columns, &mut found);
                }
            }
            // odometer increment
            let mut i = 0;
            loop {
                if i == m {
                    flush(&mut columns, &mut found);
                    return found;
                }
                if c[i] < high[i] {
                    c[i] += 1;
                    break;
                }
                c[i] = low[i];
                i += 1;
            }
        }
    }

    /// The cached position-independent move list, covering components up to `need`.
    fn cached_moves(&self, formula: &Formula, need: u64) -> Arc<MoveCache> {
        let mut guard = self.cache.lock().unwrap_or_else(|p| p.into_inner());
        if guard.bound < need || guard.moves.is_empty() && guard.bound == 0 {
            // Grow geometrically, but never past the candidate limit a position obeys.
            let mut bound = need.max(guard.bound.saturating_mul(2)).max(8);
            let span = |b: u64| {
                let width = if self.take_and_put {
                    (self.dimension as f64 + 1.0) * b as f64 + 1.0
                } else {
                    b as f64 + 1.0
                };
                width.powi(self.dimension as i32)
            };
            if span(bound) > MAX_CANDIDATES {
                bound = need;
            }
            let b = bound as i64;
            let m = self.dimension as i64;
            let low = if self.take_and_put { -(m * b) } else { 0 };
            let moves = self.enumerate(
                formula,
                &vec![low; self.dimension],
                &vec![b; self.dimension],
                &[0; MAX_DIMENSION][..self.dimension],
            );
            *guard = Arc::new(MoveCache { bound, moves });
        }
        Arc::clone(&guard)
    }
}

/// Most move vectors a predicate is tried on for one position (position-independent
/// predicates cache the matches: at most this many vectors, about 1.3 GiB).
const MAX_CANDIDATES: f64 = 2e7;

impl TakeAway {
    /// How many move vectors the predicate is tried on at `pos` (as a float: it may be
    /// astronomically large).
    fn candidate_count(&self, pos: &[Coord]) -> f64 {
        let m = self.dimension as f64;
        let max = pos.iter().copied().max().unwrap_or(0) as f64;
        let per_component = |x: f64| {
            if self.take_and_put {
                // components in [-m·max, max] (cache) or [-Σ, x] (per position)
                (m + 1.0) * max + 1.0
            } else {
                x.max(max) + 1.0
            }
        };
        pos.iter().map(|&c| per_component(c as f64)).product()
    }
}

impl Game for TakeAway {
    fn spec(&self) -> String {
        format!("rules(file={})", self.origin)
    }
    fn dimension(&self) -> usize {
        self.dimension
    }
    fn coordinate_names(&self) -> Vec<String> {
        self.names.clone()
    }
    fn capabilities(&self) -> nimlab_engine::capability::Capabilities<'_> {
        use crate::relation::{gamma_relation, GammaMoves};
        let moves = match &self.moves {
            Moves::List(l) => GammaMoves::List(l),
            Moves::Named(set) => GammaMoves::Named(set),
            Moves::Predicate { formula, .. } => GammaMoves::Predicate(formula.text()),
        };
        let subtraction = self.subtraction.as_ref();
        nimlab_engine::capability::Capabilities {
            sequence: subtraction.map(|s| s as &dyn nimlab_engine::capability::SequenceKernel),
            big: subtraction.map(|s| s as &dyn nimlab_engine::capability::BigPositions),
            move_relation: gamma_relation(
                &self.names,
                moves,
                self.take_and_put,
                self.positions.as_ref().map(|p| p.text()),
                &self.params,
            ),
            ..nimlab_engine::capability::Capabilities::none()
        }
    }
    fn is_downward_closed(&self) -> bool {
        !self.take_and_put
    }
    fn position_error(&self, pos: &[Coord]) -> Option<String> {
        if let Moves::Predicate { .. } | Moves::Named(_) = self.moves {
            let candidates = self.candidate_count(pos);
            if candidates > MAX_CANDIDATES {
                return Some(format!(
                    "a move predicate is tried on every move vector, and there are about \
                     {candidates:.1e} of them here (at most {MAX_CANDIDATES:.0e}); \
                     list the moves explicitly or use smaller positions"
                ));
            }
        }
        let p = self.positions.as_ref()?;
        let vals: Vec<i64> = match pos.iter().map(|&c| i64::try_from(c)).collect() {
            Ok(v) => v,
            Err(_) => return Some("coordinates must be below 2^63".into()),
        };
        match p.eval(&self.position_values(&vals)) {
            Ok(0) => Some(format!("the rule positions = '{}' is false here", p.text())),
            Ok(_) => None,
            Err(e) => Some(e.to_string()),
        }
    }
    fn for_each_option(&self, pos: &[Coord], visit: &mut dyn FnMut(&[Coord])) {
        if self.candidate_count(pos) > MAX_CANDIDATES
            && matches!(self.moves, Moves::Predicate { .. } | Moves::Named(_))
        {
            return; // refused by position_error; never enumerate an astronomic box
        }
        match &self.moves {
            Moves::List(list) => self.visit_moves(pos, list, visit),
            Moves::Named(set) => {
                let mut target = vec![0i64; pos.len()];
                let mut out: Vec<Coord> = vec![0; pos.len()];
                crate::takeaway::for_each_candidate(set, pos, &mut |c| {
                    for i in 0..pos.len() {
                        target[i] = pos[i] as i64 - c[i];
                    }
                    if set.contains(c) && self.position_ok(&target) {
                        for (o, &t) in out.iter_mut().zip(&target) {
                            *o = t as Coord;
                        }
                        visit(&out);
                    }
                });
            }
            Moves::Predicate {
                formula,
                uses_position,
            } => {
                if *uses_position {
                    let p: Vec<i64> = pos.iter().map(|&c| c as i64).collect();
                    let sum: i64 = p.iter().sum();
                    let low: Vec<i64> = if self.take_and_put {
                        vec![-sum; p.len()]
                    } else {
                        vec![0; p.len()]
                    };
                    let moves = self.enumerate(formula, &low, &p, &p);
                    self.visit_moves(pos, &moves, visit);
                } else {
                    let need = pos.iter().copied().max().unwrap_or(0);
                    let cache = self.cached_moves(formula, need);
                    self.visit_moves(pos, &cache.moves, visit);
                }
            }
        }
    }
}

/// Keys only the take-away form has (refused in a take-and-break file).
const TAKE_AWAY_KEYS: [&str; 7] = [
    "dimension",
    "coordinates",
    "params",
    "positions",
    "take_and_put",
    "grundy",
    "p_positions",
];

/// Keys only the take-and-break form has (refused in a take-away file).
const TAKE_BREAK_KEYS: [&str; 3] = ["remove", "leave", "split"];

/// Largest number of tokens a take-and-break move may remove (the code has one digit
/// per amount, so this bounds its length).
pub const MAX_REMOVE: i64 = 1000;

/// The take-and-break form of a rules file (`kind = "take-and-break"`).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TakeBreakFile {
    name: Option<String>,
    #[serde(default)]
    description: String,
    #[serde(rename = "kind")]
    _kind: String,
    remove: Option<toml::Value>,
    leave: Option<toml::Value>,
    #[serde(default)]
    split: bool,
    moves: Option<Vec<TakeBreakMove>>,
}

/// One entry of a take-and-break file's `moves`: amounts and the heaps they may leave.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TakeBreakMove {
    remove: toml::Value,
    leave: Option<toml::Value>,
}

/// The numbers of a `remove` or `leave` value: an integer, a range `"a..b"` (both ends
/// included), or an array of these.
fn numbers(field: &str, value: &toml::Value) -> std::result::Result<Vec<i64>, String> {
    let one = |v: &toml::Value| -> std::result::Result<Vec<i64>, String> {
        match v {
            toml::Value::Integer(k) => Ok(vec![*k]),
            toml::Value::String(t) => {
                let range = t.split_once("..=").or_else(|| t.split_once(".."));
                let end = |e: &str| e.trim().parse::<i64>().ok();
                match range.map(|(a, b)| (end(a), end(b))) {
                    Some((Some(a), Some(b))) if a <= b && b > MAX_REMOVE => Err(format!(
                        "{field}: the range \"{}\" goes past {MAX_REMOVE}, the most a move \
                         may remove",
                        crate::spec::show(t)
                    )),
                    // A negative end is refused by the caller, which sees it first.
                    Some((Some(a), Some(b))) if a <= b && a < 0 => Ok(vec![a]),
                    Some((Some(a), Some(b))) if a <= b => Ok((a..=b).collect()),
                    Some((Some(a), Some(b))) if a > b => Err(format!(
                        "{field}: the range \"{}\" is empty (write the smaller end first)",
                        crate::spec::show(t)
                    )),
                    _ => Err(format!(
                        "{field}: \"{}\" is not a number or a range such as \"2..4\" (both \
                         ends included, both needed)",
                        crate::spec::show(t)
                    )),
                }
            }
            other => Err(format!(
                "{field}: {} is not a number or a range such as \"2..4\"",
                other.type_str()
            )),
        }
    };
    let list = match value {
        toml::Value::Array(items) => {
            if items.is_empty() {
                return Err(format!("{field} is an empty list"));
            }
            let mut all = Vec::new();
            for item in items {
                all.extend(one(item)?);
            }
            all
        }
        v => one(v)?,
    };
    Ok(list)
}

/// The code digit of a set of heap counts left: bit 1 for none, 2 for one, 4 for two.
fn leave_bits(leave: Option<&toml::Value>, field: &str) -> std::result::Result<u8, String> {
    let Some(leave) = leave else {
        return Ok(0b011); // a plain removal: empty the heap, or leave one heap
    };
    let mut bits = 0;
    for n in numbers(field, leave)? {
        if !(0..=2).contains(&n) {
            return Err(format!("{field}: a move leaves 0, 1 or 2 heaps, not {n}"));
        }
        bits |= 1 << n;
    }
    Ok(bits)
}

/// Adds `bits` to the digit of each amount of `remove`.
fn add_amounts(
    digits: &mut Vec<u8>,
    field: &str,
    remove: &toml::Value,
    bits: u8,
) -> std::result::Result<(), String> {
    for k in numbers(field, remove)? {
        if !(0..=MAX_REMOVE).contains(&k) {
            return Err(format!(
                "{field}: {k} tokens is not an amount a move may remove (0..{MAX_REMOVE})"
            ));
        }
        if k == 0 && bits != 0b100 {
            return Err(format!(
                "{field}: a move that removes 0 tokens must leave two heaps (leave = [2], \
                 or split = true); leaving 0 or 1 heap would not be a move"
            ));
        }
        let k = k as usize;
        if digits.len() <= k {
            digits.resize(k + 1, 0);
        }
        digits[k] |= bits;
    }
    Ok(())
}

/// The take-and-break code digits d0, d1, … of a take-and-break file.
fn take_break_digits(file: &TakeBreakFile) -> std::result::Result<Vec<u8>, String> {
    let mut digits = vec![0u8];
    if file.split {
        digits[0] |= 0b100;
    }
    match (&file.remove, &file.moves) {
        (Some(_), Some(_)) => {
            return Err("give either remove (with leave) or moves, not both".into())
        }
        (Some(remove), None) => {
            let bits = leave_bits(file.leave.as_ref(), "leave")?;
            add_amounts(&mut digits, "remove", remove, bits)?;
        }
        (None, Some(moves)) => {
            if file.leave.is_some() {
                return Err("leave goes inside each entry of moves, not beside it".into());
            }
            if moves.is_empty() {
                return Err("moves is an empty list (the game would have no move)".into());
            }
            for (i, m) in moves.iter().enumerate() {
                let field = format!("moves[{i}]");
                let bits = leave_bits(m.leave.as_ref(), &format!("{field}.leave"))?;
                add_amounts(&mut digits, &format!("{field}.remove"), &m.remove, bits)?;
            }
        }
        (None, None) => {
            if file.leave.is_some() {
                return Err("leave needs remove (how many tokens a move removes)".into());
            }
            if !file.split {
                return Err(
                    "a take-and-break file needs remove (or moves, or split = true)".into(),
                );
            }
        }
    }
    Ok(digits)
}

/// The game of a take-and-break file: the octal game of its code.
fn take_break_game(file: &TakeBreakFile) -> std::result::Result<crate::octal::Octal, String> {
    let digits = take_break_digits(file)?;
    let text: String = digits
        .iter()
        .map(|&d| char::from_digit(d as u32, 8).expect("an octal digit"))
        .collect();
    let (d0, rest) = text.split_at(1);
    let code = format!("{d0}.{}", if rest.is_empty() { "0" } else { rest });
    crate::octal::Octal::parse(&code, 8).map_err(|e| e.to_string())
}

/// What a rules file defines.
enum Form {
    /// A take-away game over N^m (the default `kind`).
    TakeAway(Box<TakeAway>),
    /// A take-and-break game on heaps: the octal game of the file's code.
    TakeBreak(crate::octal::Octal),
}

/// A game read from a rules file: a take-away game over N^m, or (with
/// `kind = "take-and-break"`) a take-and-break game on heaps, which is the octal game of
/// the code the file spells out ([`RulesGame::equivalent_spec`]).
///
/// ```
/// use nimlab_games::rules::RulesGame;
/// use nimlab_engine::Solver;
/// let text = r#"
///     name = "take-1-2-3"
///     dimension = 1
///     moves = [[1], [2], [3]]
///     grundy = "n % 4"
/// "#;
/// let game = RulesGame::from_toml(text, "inline").unwrap();
/// assert_eq!(Solver::new(&game).grundy(&[10]).unwrap(), 2);
/// assert_eq!(game.closed_form(), Some("n % 4"));
/// ```
pub struct RulesGame {
    name: String,
    description: String,
    /// The file's path (or what names its text), for the spec `rules(file=…)`.
    origin: String,
    form: Form,
}

/// Builds the game of a rules file from its TOML text; `name` names the text in error
/// messages and in the game's spec (`rules(file=NAME)`), and is the game's name when
/// the text gives none. The same as [`RulesGame::from_toml`].
///
/// ```
/// use nimlab_engine::{Game, Solver};
/// let text = r#"
///     name = "split-124"
///     kind = "take-and-break"
///     remove = [1, 2, 4]
///     leave = [0, 1, 2]
///     split = true
/// "#;
/// let game = nimlab_games::rules::from_text(text, "split-124.toml").unwrap();
/// assert_eq!(game.name(), "split-124");
/// assert_eq!(game.equivalent_spec(), Some("octal(code=4.7707)"));
/// // A heap of 3: take 1, 2 or 3 … or split it; heaps 3 and 3 cancel.
/// let mut solver = Solver::new(&game);
/// assert_eq!(solver.grundy(&[3, 3]).unwrap(), 0);
/// let octal = nimlab_games::parse_game("octal(code=4.7707)").unwrap();
/// assert_eq!(solver.grundy(&[9]).unwrap(), Solver::new(&*octal).grundy(&[9]).unwrap());
/// assert!(nimlab_games::rules::from_text("kind = \"take-and-break\"", "x").is_err());
/// ```
pub fn from_text(text: &str, name: &str) -> Result<RulesGame> {
    RulesGame::from_toml(text, name)
}

impl RulesGame {
    /// Parses a rules file's text; `origin` names it in messages and in the spec.
    pub fn from_toml(text: &str, origin: &str) -> Result<RulesGame> {
        let shown = crate::spec::show(origin);
        let bad = |msg: String| Error::input(format!("rules file {shown}: {msg}"));
        if text.len() as u64 > MAX_FILE_BYTES {
            return Err(bad(format!(
                "larger than the limit of {}",
                nimlab_engine::error::human_bytes(MAX_FILE_BYTES)
            )));
        }
        let toml_error = |e: toml::de::Error| {
            let msg = e.message().replace('\n', " ");
            match e.span() {
                Some(span) => {
                    let (line, col) = line_col(text, span.start);
                    bad(format!("line {line}, column {col}: {}", msg.trim()))
                }
                None => bad(msg.trim().to_string()),
            }
        };
        let table: toml::Table = toml::from_str(text).map_err(toml_error)?;
        let kind = match table.get("kind") {
            None => "take-away",
            Some(toml::Value::String(k)) if k == "take-away" || k == "take-and-break" => k,
            Some(other) => {
                return Err(bad(format!(
                    "kind must be \"take-away\" (the default) or \"take-and-break\", not {}",
                    crate::spec::show(&other.to_string())
                )))
            }
        };
        let (name, description, form) = if kind == "take-and-break" {
            if let Some(key) = TAKE_AWAY_KEYS.iter().find(|k| table.contains_key(**k)) {
                return Err(bad(format!(
                    "{key} is a key of take-away rules files, not of kind = \"take-and-break\" \
                     (whose positions are heaps)"
                )));
            }
            let file: TakeBreakFile = toml::from_str(text).map_err(toml_error)?;
            let game = take_break_game(&file).map_err(bad)?;
            (file.name, file.description, Form::TakeBreak(game))
        } else {
            if let Some(key) = TAKE_BREAK_KEYS.iter().find(|k| table.contains_key(**k)) {
                return Err(bad(format!(
                    "{key} is a key of take-and-break rules files, which say kind = \"take-and-break\""
                )));
            }
            if let Some(toml::Value::Array(moves)) = table.get("moves")
                && moves.iter().any(toml::Value::is_table)
            {
                return Err(bad(
                    "moves as tables ({ remove = …, leave = … }) need kind = \"take-and-break\""
                        .into(),
                ));
            }
            let file: RulesFile = toml::from_str(text).map_err(toml_error)?;
            let (name, description) = (file.name.clone(), file.description.clone());
            let game = TakeAway::from_file(file, origin, &bad)?;
            (name, description, Form::TakeAway(Box::new(game)))
        };
        Ok(RulesGame {
            name: name.unwrap_or_else(|| default_name(origin)),
            description,
            origin: origin.to_string(),
            form,
        })
    }

    /// The file's `name`.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The file's `description`.
    pub fn description(&self) -> &str {
        &self.description
    }

    /// The catalog game a take-and-break file equals, e.g. `octal(code=4.7707)`: the
    /// same values, periods and misère quotients. `None` for a take-away file.
    pub fn equivalent_spec(&self) -> Option<&str> {
        match &self.form {
            Form::TakeBreak(octal) => Some(octal.spec_text()),
            Form::TakeAway(_) => None,
        }
    }

    /// The declared closed form of the Grundy value, if any.
    pub fn closed_form(&self) -> Option<&str> {
        match &self.form {
            Form::TakeAway(t) => t.grundy.as_deref(),
            Form::TakeBreak(_) => None,
        }
    }

    /// The file's named constants (`params`), which its formulas may use.
    pub fn params(&self) -> &[(String, i64)] {
        match &self.form {
            Form::TakeAway(t) => &t.params,
            Form::TakeBreak(_) => &[],
        }
    }

    /// The declared P-position predicate, if any.
    pub fn p_positions(&self) -> Option<&str> {
        match &self.form {
            Form::TakeAway(t) => t.p_positions.as_deref(),
            Form::TakeBreak(_) => None,
        }
    }

    /// The game that answers: the take-away game, or the octal game of the code.
    fn inner(&self) -> &dyn Game {
        match &self.form {
            Form::TakeAway(t) => t.as_ref(),
            Form::TakeBreak(o) => o,
        }
    }
}

/// Every question goes to the inner game (a transform that changes nothing but the
/// name); only the spec (and the messages built on it) names the rules file.
impl nimlab_engine::transform::Transform for RulesGame {
    fn inner(&self) -> &dyn Game {
        RulesGame::inner(self)
    }
    fn spec(&self) -> String {
        format!("rules(file={})", self.origin)
    }
    fn capabilities(&self) -> nimlab_engine::capability::Capabilities<'_> {
        self.inner().capabilities()
    }
    fn explain_move(
        &self,
        from: &[nimlab_engine::big::BigUint],
        to: &[nimlab_engine::big::BigUint],
    ) -> Option<String> {
        self.inner().explain_move(from, to)
    }
    // The hot calls dispatch statically, as the take-away game did before it was one
    // form of two (a call through `inner()` cost 6 % on a 1001 × 1000 table).
    fn for_each_option(&self, pos: &[Coord], visit: &mut dyn FnMut(&[Coord])) {
        match &self.form {
            Form::TakeAway(t) => t.for_each_option(pos, visit),
            Form::TakeBreak(o) => o.for_each_option(pos, visit),
        }
    }
    fn position_error(&self, pos: &[Coord]) -> Option<String> {
        match &self.form {
            Form::TakeAway(t) => t.position_error(pos),
            Form::TakeBreak(o) => o.position_error(pos),
        }
    }
    fn rank(&self, pos: &[Coord]) -> u128 {
        match &self.form {
            Form::TakeAway(t) => t.rank(pos),
            Form::TakeBreak(o) => o.rank(pos),
        }
    }
    // Read as any game of numbers, so that a malformed position names the rules file.
    fn read_position(&self, text: &str) -> Result<nimlab_engine::big::BigPosition> {
        nimlab_engine::position::read_numbers(text, || {
            nimlab_engine::transform::Transform::spec(self)
        })
    }
}

fn build(args: &Args) -> Result<Box<dyn Game>> {
    let path = args.raw("file")?;
    Ok(Box::new(load(Path::new(&path))?))
}

fn theorems() -> Vec<Theorem> {
    Vec::new()
}

/// The name of the family that reads a rules file.
pub const FAMILY_NAME: &str = "rules";

/// The `rules` family: `rules(file=PATH)` reads a game from a rules file.
pub static FAMILY: Family = Family {
    name: FAMILY_NAME,
    summary: "A take-away game (moves as a predicate or a list) or a take-and-break game \
              (remove, leave, split) read from a TOML rules file",
    params: &[Param {
        name: "file",
        kind: "path of a .toml rules file",
        default: None,
        example: None,
        help: "see examples/ryuoh.toml and examples/split124.toml; the same as giving the \
               rules file directly",
    }],
    position_syntax: "one natural number per coordinate of the file",
    seed: "Y. Irie, \"Take-away games with the same Sprague–Grundy function as Nim\" (in \
         Japanese, year uncertain), take-away games Γ(P, C) [Irie]",
    build,
    theorems,
    sweep: None,
};
