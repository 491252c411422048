//! Long nim-sequence runs and the frontier (`nimlab census run`, `nimlab census
//! frontier`): what one run reports ([`RunReport`], written as a [`RunLine`]), which
//! games of the unsolved list are left to run ([`FrontierLines`], [`frontier_todo`]),
//! their estimate, and the Markdown table of the lines ([`write_table`]). The runs
//! themselves are [`nimlab_octal::takebreak::run::PeriodRun`]s; stopping them (signals,
//! deadlines) and writing checkpoints is the surface's.

use crate::Int;
use nimlab_engine::periodicity::Periodicity;
use nimlab_engine::{Error, Result};
use nimlab_octal::frontier::{self as octal_frontier, Figures};
use nimlab_octal::takebreak::run::PeriodRun;
use nimlab_octal::takebreak::{PeriodSearch, TakeBreak};
use serde::Serialize;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;

/// The code of `rules` as the frontier list writes it (`grundy`, `0.1777`).
///
/// ```
/// use nimlab_json::frontier::code_of;
/// use nimlab_octal::takebreak::TakeBreak;
/// assert_eq!(code_of(&TakeBreak::new(vec![4], true), 8), "grundy");
/// assert_eq!(code_of(&TakeBreak::new(vec![0, 6], false), 8), "0.6");
/// ```
pub fn code_of(rules: &TakeBreak, base: u32) -> String {
    if rules.distinct_parts() && rules.digits() == [4] {
        return "grundy".into();
    }
    let text: String = rules
        .digits()
        .iter()
        .map(|&x| char::from_digit(u32::from(x), base).unwrap_or('?'))
        .collect();
    let (d0, rest) = text.split_at(1);
    format!("{d0}.{}", if rest.is_empty() { "0" } else { rest })
}

/// A file name for a code's checkpoint (`.6` → `0.6.ckpt`).
///
/// ```
/// assert_eq!(nimlab_json::frontier::checkpoint_name(".6"), "0.6.ckpt");
/// ```
pub fn checkpoint_name(code: &str) -> String {
    let c = if code.starts_with('.') {
        format!("0{code}")
    } else {
        code.to_string()
    };
    format!("{c}.ckpt")
}

/// What one run reports.
#[derive(Debug, Clone)]
pub struct RunReport {
    /// The code as the frontier list writes it ([`code_of`]).
    pub code: String,
    /// The game's canonical spec.
    pub spec: String,
    /// The bound on the terms.
    pub up_to: u64,
    /// "solved", "unsolved" (to the bound), "stopped" (signal or time).
    pub status: &'static str,
    /// What stopped a stopped run ("signal", "time", "cpu time").
    pub stopped_by: Option<&'static str>,
    /// The sparse-space figures of the terms computed.
    pub figures: Option<Figures>,
    /// Terms computed.
    pub n: u64,
    /// The proven period.
    pub period: Option<Periodicity>,
    /// SHA-256 of the values, as certificates write it.
    pub sha256: String,
    /// Wall-clock seconds of this run.
    pub seconds: f64,
    /// CPU seconds of the whole computation, across resumes where known.
    pub cpu_seconds: f64,
}

/// One JSON line of a run or of the frontier (fields in the order the line writes
/// them).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RunLine {
    /// 8 or 16.
    pub base: u32,
    /// The code.
    pub code: String,
    /// How many heaps have a common value.
    pub common: Option<Int>,
    /// CPU seconds, to a tenth.
    pub cpu_seconds: f64,
    /// The canonical spec.
    pub game: String,
    /// The game's index in the frontier list (frontier lines only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub index: Option<usize>,
    /// The largest value.
    pub largest: Option<u32>,
    /// The first heap with the largest value.
    pub largest_index: Option<Int>,
    /// The last heap with a rare value.
    pub last_rare: Option<Int>,
    /// Terms computed.
    pub n: Int,
    /// The proven period.
    pub period: Option<Int>,
    /// The proven preperiod.
    pub preperiod: Option<Int>,
    /// How many heaps have a rare value.
    pub rare: Option<Int>,
    /// The rare mask, in hexadecimal.
    pub rare_mask: Option<String>,
    /// Wall-clock seconds, to a tenth.
    pub seconds: f64,
    /// "solved", "unsolved" or "stopped".
    pub status: &'static str,
    /// What stopped a stopped run.
    pub stopped_by: Option<&'static str>,
    /// The bound on the terms.
    pub up_to: Int,
    /// SHA-256 of the values.
    pub values_sha256: String,
}

impl RunReport {
    /// The report of a run of the game `spec` that ended (a period proven, or the
    /// bound `up_to` reached).
    pub fn done(
        found: PeriodSearch,
        code: String,
        spec: String,
        up_to: u64,
        (seconds, cpu_seconds): (f64, f64),
    ) -> Self {
        RunReport {
            code,
            spec,
            up_to,
            status: if found.period.is_some() {
                "solved"
            } else {
                "unsolved"
            },
            stopped_by: None,
            figures: octal_frontier::figures_of(&found),
            n: found.values.len() as u64,
            sha256: crate::certificate::values_hash(&found.values),
            period: found.period,
            seconds,
            cpu_seconds,
        }
    }

    /// The report of `run`, stopped by `stopped_by`.
    pub fn stopped(
        run: &PeriodRun,
        stopped_by: Option<&'static str>,
        code: String,
        spec: String,
        (seconds, cpu_seconds): (f64, f64),
    ) -> Self {
        let values = run.values();
        let (split, rare, last) = run.rare_figures();
        RunReport {
            code,
            spec,
            up_to: run.max_n(),
            status: "stopped",
            stopped_by,
            figures: octal_frontier::figures(values, split, rare, last),
            n: values.len() as u64,
            sha256: crate::certificate::values_hash(values),
            period: None,
            seconds,
            cpu_seconds,
        }
    }

    /// The report's line, for codes in `base`; `index`: the game's place in the
    /// frontier list.
    pub fn line(&self, base: u32, index: Option<usize>) -> RunLine {
        let f = self.figures.as_ref();
        RunLine {
            base,
            code: self.code.clone(),
            common: f.map(|f| Int(self.n - f.rare_count)),
            cpu_seconds: (self.cpu_seconds * 10.0).round() / 10.0,
            game: self.spec.clone(),
            index,
            largest: f.map(|f| f.largest),
            largest_index: f.map(|f| Int(f.largest_index)),
            last_rare: f.map(|f| Int(f.last_rare)),
            n: Int(self.n),
            period: self.period.as_ref().map(|p| Int(p.period)),
            preperiod: self.period.as_ref().map(|p| Int(p.preperiod)),
            rare: f.map(|f| Int(f.rare_count)),
            rare_mask: f.map(|f| format!("{:x}", f.rare_mask)),
            seconds: (self.seconds * 10.0).round() / 10.0,
            status: self.status,
            stopped_by: self.stopped_by,
            up_to: Int(self.up_to),
            values_sha256: self.sha256.clone(),
        }
    }
}

/// The codes of a frontier run: `codes` as given (each checked), or the whole
/// unsolved list.
///
/// ```
/// let all = nimlab_json::frontier::frontier_codes(None).unwrap();
/// assert!(all.len() > 10);
/// assert!(nimlab_json::frontier::frontier_codes(Some(&["0.9".into()])).is_err());
/// ```
pub fn frontier_codes(codes: Option<&[String]>) -> Result<Vec<String>> {
    let list: Vec<String> = match codes {
        Some(c) => c.iter().map(|s| s.trim().to_string()).collect(),
        None => octal_frontier::unsolved()
            .into_iter()
            .map(|g| g.code)
            .collect(),
    };
    for c in &list {
        octal_frontier::check_code(c, 8)?;
    }
    Ok(list)
}

/// The last line of each game already in a frontier file (a rerun appends the
/// continuation of a stopped game: a game's last line is its result).
#[derive(Debug, Clone, Default)]
pub struct FrontierLines {
    last: BTreeMap<String, Value>,
}

impl FrontierLines {
    /// The lines of the file `file`, after checking that every one ran to `up_to`.
    pub fn read(lines: Vec<Value>, up_to: u64, file: &str) -> Result<Self> {
        let mut last = BTreeMap::new();
        for line in lines {
            if line.get("up_to").and_then(Value::as_u64) != Some(up_to) {
                return Err(Error::input(format!(
                    "{file} holds runs to another --up-to ({}): write to another file",
                    line.get("up_to").unwrap_or(&Value::Null)
                )));
            }
            if let Some(c) = line.get("code").and_then(Value::as_str).map(str::to_string) {
                last.insert(c, line);
            }
        }
        Ok(FrontierLines { last })
    }

    /// The games not to run again: those that reached the bound (or a period), and
    /// those a budget stopped unless they can be continued from `checkpoints`.
    pub fn finished(&self, checkpoints: bool) -> BTreeSet<&String> {
        self.last
            .iter()
            .filter(|(_, line)| {
                line.get("status").and_then(Value::as_str) != Some("stopped") || !checkpoints
            })
            .map(|(code, _)| code)
            .collect()
    }

    /// The CPU seconds of `code`'s last line (what a checkpoint of version 1, which
    /// does not record them, continues from).
    pub fn cpu_seconds(&self, code: &str) -> Option<f64> {
        self.last.get(code).and_then(|l| l["cpu_seconds"].as_f64())
    }
}

/// The share `shard.0` of `shard.1` of `list` (by list index) without the games in
/// `finished` (by [`code_of`]), with their list indices.
pub fn frontier_todo(
    list: &[String],
    (shard, shards): (u64, u64),
    finished: &BTreeSet<&String>,
) -> Vec<(usize, String)> {
    list.iter()
        .enumerate()
        .filter(|(i, _)| *i as u64 % shards == shard)
        .map(|(i, c)| (i, c.clone()))
        .filter(|(_, c)| {
            let code = octal_frontier::game_of(c, 8)
                .map(|g| code_of(g.rules(), 8))
                .unwrap_or_default();
            !finished.contains(&code)
        })
        .collect()
}

/// Refuses a frontier run of `todo`'s games to `up_to` terms each, each capped at
/// `cap` seconds, whose estimate passes the usual threshold unless `force`.
pub fn check_frontier_work(
    todo: &[(usize, String)],
    up_to: u64,
    cap: Option<f64>,
    force: bool,
) -> Result<()> {
    let mut estimate = 0.0;
    for (_, c) in todo {
        let g = octal_frontier::game_of(c, 8)?;
        let s = g.search_seconds(up_to);
        estimate += s.min(cap.unwrap_or(f64::INFINITY));
    }
    nimlab_engine::table::check_seconds(
        &format!(
            "{} frontier game{} to {} terms each",
            todo.len(),
            if todo.len() == 1 { "" } else { "s" },
            up_to
        ),
        estimate,
        force,
    )
}

/// The Markdown table of frontier lines, in list order, in Czajka's layout plus our
/// columns, and the published figures where the source gives them.
pub fn write_table(out: &mut dyn Write, lines: &[Value]) -> std::io::Result<()> {
    let published: BTreeMap<String, Figures> = octal_frontier::unsolved()
        .into_iter()
        .filter_map(|g| {
            let code = octal_frontier::game_of(&g.code, 8).ok()?;
            Some((code_of(code.rules(), 8), g.published?))
        })
        .collect();
    // A game's last line (a rerun appends the continuation of a stopped game).
    let mut last = BTreeMap::new();
    for v in lines {
        last.insert(v.get("code").and_then(Value::as_str).unwrap_or(""), v);
    }
    let mut rows: Vec<&Value> = last.into_values().collect();
    rows.sort_by_key(|v| v.get("index").and_then(Value::as_u64).unwrap_or(u64::MAX));
    writeln!(
        out,
        "| game | n | largest idx | largest | rare mask | num rare | last rare | period | CPU s | published (n, num rare, last rare) | reproduce |"
    )?;
    writeln!(
        out,
        "| :--- | ---: | ---: | ---: | ---: | ---: | ---: | :--- | ---: | :--- | :--- |"
    )?;
    for v in rows {
        write_row(out, v, &published)?;
    }
    Ok(())
}

/// A cell of a line: its text, empty when absent.
fn cell(v: &Value, k: &str) -> String {
    match v.get(k) {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(s)) => s.clone(),
        Some(x) => x.to_string(),
    }
}

/// One row of [`write_table`].
fn write_row(
    out: &mut dyn Write,
    v: &Value,
    published: &BTreeMap<String, Figures>,
) -> std::io::Result<()> {
    let code = cell(v, "code");
    let name = if code == "grundy" {
        "Grundy's".to_string()
    } else {
        code.trim_start_matches('0').to_string()
    };
    let n = v.get("n").and_then(Value::as_u64).unwrap_or(0);
    let n_text = if n.is_power_of_two() {
        format!("2^{}", n.trailing_zeros())
    } else {
        n.to_string()
    };
    let period = match (cell(v, "preperiod"), cell(v, "period")) {
        (a, p) if !p.is_empty() => format!("p = {p}, a = {a}"),
        _ if cell(v, "status") == "stopped" => {
            format!("none (stopped: {})", cell(v, "stopped_by"))
        }
        _ => "none".into(),
    };
    let theirs = published.get(&code).map_or(String::new(), |f| {
        format!(
            "2^{}, {}, {}",
            f.n.trailing_zeros(),
            f.rare_count,
            f.last_rare
        )
    });
    writeln!(
        out,
        "| {name} | {n_text} | {} | {} | {} | {} | {} | {period} | {} | {theirs} | `nimlab census run {} --up-to {n}` |",
        cell(v, "largest_index"),
        cell(v, "largest"),
        cell(v, "rare_mask"),
        cell(v, "rare"),
        cell(v, "last_rare"),
        cell(v, "cpu_seconds"),
        if code == "grundy" { "grundy" } else { name.as_str() },
    )
}
