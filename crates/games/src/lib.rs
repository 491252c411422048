//! # nimlab-games
//!
//! The catalog: one module per game family (the file name is the game's name). Each
//! module declares a [`Family`]: its rules (a [`Game`] implementation), parameters with
//! defaults, position syntax, the seed it comes from, and the theorems that hold for it,
//! each with a brute-force check the engine runs.
//!
//! ```
//! use nimlab_games::parse_game;
//! use nimlab_engine::Solver;
//! let game = parse_game("ryuoh(p=3)").unwrap();
//! assert_eq!(game.spec(), "ryuoh(p=3)");
//! assert_eq!(Solver::new(&*game).grundy(&[4, 7]).unwrap(), 11); // Table 1
//! ```

pub mod chocolate;
pub mod chocolate_bar;
pub mod chocolate_staircase;
pub mod chomp;
pub mod cram;
pub mod fibonacci_nim;
pub mod grundy_game;
pub mod misere;
pub mod nim;
pub mod node_kayles;
pub mod nplayer;
pub mod nplayer_nim;
pub mod octal;
pub mod pass;
pub mod relation;
pub mod rules;
pub mod ryuoh;
pub mod sg_system;
pub mod source;
pub mod spec;
pub mod subtraction;
pub mod sum;
pub mod takeaway;
pub mod welter;
pub mod wythoff;

use nimlab_engine::{Error, Game, Result, Theorem};
use spec::{parse_int, parse_set, parse_spec, Spec};

/// A declared parameter of a game family.
#[derive(Debug, Clone, Copy)]
pub struct Param {
    /// Its name, as written in `name(key=value)`.
    pub name: &'static str,
    /// What values it takes, in words (`integer ≥ 1`, `finite set of positive integers`).
    pub kind: &'static str,
    /// Default value as text, if it may be omitted.
    pub default: Option<&'static str>,
    /// A value to start from when there is no default (the explorer fills it in):
    /// `t/2` for a staircase, `nim` for a game.
    pub example: Option<&'static str>,
    /// One line of meaning.
    pub help: &'static str,
}

/// The kind of a parameter that is itself a game (`misere(game=…)`, `sum(g1=…)`).
pub const GAME_KIND: &str = "a game";

/// Where a family belongs in a list of the catalog.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FamilyGroup {
    /// A game of its own.
    Game,
    /// Built from other games (a parameter of kind [`GAME_KIND`]): misère, pass, sums,
    /// n players.
    Transform,
    /// Read from a rules file.
    File,
}

impl FamilyGroup {
    /// Its name in documents: `game`, `transform`, `file`.
    pub fn name(self) -> &'static str {
        match self {
            FamilyGroup::Game => "game",
            FamilyGroup::Transform => "transform",
            FamilyGroup::File => "file",
        }
    }
}

impl Family {
    /// The family's group: a transform when a parameter is a game, the rules family
    /// reads a file, every other family is a game.
    ///
    /// ```
    /// use nimlab_games::{family, FamilyGroup};
    /// assert_eq!(family("misere").unwrap().group(), FamilyGroup::Transform);
    /// assert_eq!(family("rules").unwrap().group(), FamilyGroup::File);
    /// assert_eq!(family("wythoff").unwrap().group(), FamilyGroup::Game);
    /// ```
    pub fn group(&self) -> FamilyGroup {
        if self.params.iter().any(|p| p.kind == GAME_KIND) {
            FamilyGroup::Transform
        } else if self.name == rules::FAMILY_NAME {
            FamilyGroup::File
        } else {
            FamilyGroup::Game
        }
    }
}

/// A game family of the catalog.
pub struct Family {
    /// Name used in specs (`ryuoh`).
    pub name: &'static str,
    /// One line of description.
    pub summary: &'static str,
    /// Parameters, in positional order.
    pub params: &'static [Param],
    /// How positions are written, e.g. `x,y (two heaps)`.
    pub position_syntax: &'static str,
    /// The seed (or other source) the game comes from.
    pub seed: &'static str,
    /// Builds an instance from checked arguments.
    pub build: fn(&Args) -> Result<Box<dyn Game>>,
    /// The theorems registered for this family.
    pub theorems: fn() -> Vec<Theorem>,
    /// A sweep over the family's members, if it has one (`nimlab sweep NAME`).
    pub sweep: Option<&'static Sweep>,
}

/// A sweep over every member of a family of given size (e.g. every subtraction set
/// of `size` elements with max ≤ `max`): proven preperiods and periods, in parallel.
pub struct Sweep {
    /// What the members are called, e.g. "sets".
    pub members: &'static str,
    /// Runs the sweep; rows sorted as [`sweep_order`] says. Reports one
    /// unit of `progress` per member (a progress that unwinds stops the sweep).
    pub run: fn(&SweepRequest, &dyn nimlab_engine::Progress) -> Result<Vec<SweepRow>>,
    /// How many members the family of `(max, size)` has, if it fits in u64.
    pub count: fn(u64, u64) -> Option<u64>,
}

/// One line of a [`Sweep`]: a member of the family (its parameters as numbers, e.g. a
/// subtraction set) with its proven preperiod and period. Every family's sweep writes
/// these rows, so the census layer, merging and the documents need no family's type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SweepRow {
    /// The member, e.g. the subtraction set `{9, 20, 29}` as `[9, 20, 29]`.
    pub member: Vec<u64>,
    /// Proven least preperiod and period, or `None` if none was found within the
    /// search limit.
    pub period: Option<(u64, u64)>,
}

/// The order of a sweep's rows: longest period first, then longest preperiod, then
/// the members in lexicographic order; members without a period found come last.
///
/// ```
/// use nimlab_games::{sweep_order, SweepRow};
/// let long = SweepRow { member: vec![9, 20, 29], period: Some((0, 378)) };
/// let short = SweepRow { member: vec![1, 2, 3], period: Some((0, 4)) };
/// assert_eq!(sweep_order(&long, &short), std::cmp::Ordering::Less);
/// ```
pub fn sweep_order(a: &SweepRow, b: &SweepRow) -> std::cmp::Ordering {
    let key = |r: &SweepRow| {
        r.period
            .map(|(pre, per)| (std::cmp::Reverse(per), std::cmp::Reverse(pre)))
    };
    match (key(a), key(b)) {
        (Some(x), Some(y)) => x.cmp(&y).then_with(|| a.member.cmp(&b.member)),
        (Some(_), None) => std::cmp::Ordering::Less,
        (None, Some(_)) => std::cmp::Ordering::Greater,
        (None, None) => a.member.cmp(&b.member),
    }
}

/// What a sweep visits: every member of size `size` with largest element ≤ `max`, the
/// share `shard.0` of `shard.1` of them (by index mod `shard.1`), each searched for a
/// period below `up_to`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SweepRequest {
    /// Largest element of the members.
    pub max: u64,
    /// Number of elements of each member.
    pub size: u64,
    /// `(i, k)`: the members whose index is ≡ i (mod k).
    pub shard: (u64, u64),
    /// Per member, search heaps below this for the repeating window.
    pub up_to: u64,
}

/// What a sweep found: its rows, and the bound each member's period search had (the
/// request's, or lower when memory allowed no more: members without a period below
/// it are reported as such).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SweepOutcome {
    /// The rows, sorted as [`sweep_order`] says.
    pub rows: Vec<SweepRow>,
    /// Heaps below this were searched for each member's period.
    pub up_to: u64,
}

/// Bytes a sweep holds per member besides its elements: the list of members, the rows
/// and the answer document's rows (vector headers and allocator overhead).
const SWEEP_BYTES_PER_MEMBER: u64 = 224;

/// A family's sweep (every surface runs it through here): the family's rows, or an
/// input error naming the families that have one. The rows count against
/// `opts.memory_limit` (refused when they do not fit); what is left, shared by the
/// threads, bounds each member's period search.
///
/// ```
/// use nimlab_games::{sweep, SweepRequest};
/// let req = SweepRequest { max: 6, size: 2, shard: (0, 1), up_to: 10_000 };
/// let out = sweep("subtraction", &req, &Default::default()).unwrap();
/// assert_eq!(out.rows.len(), 15); // every 2-element subset of {1..6}
/// assert!(sweep("wythoff", &req, &Default::default()).is_err());
/// ```
pub fn sweep(
    family_name: &str,
    request: &SweepRequest,
    opts: &nimlab_engine::TableOptions,
) -> Result<SweepOutcome> {
    let (_, sweeper) = sweeper(family_name)?;
    let (shard, shards) = request.shard;
    let mut up_to = request.up_to;
    if let (Some(total), true) = ((sweeper.count)(request.max, request.size), shard < shards) {
        // members with index ≡ shard (mod shards)
        let members = (total.saturating_sub(shard)).div_ceil(shards);
        let per_member = SWEEP_BYTES_PER_MEMBER.saturating_add(request.size.saturating_mul(16));
        let rows = members.saturating_mul(per_member);
        opts.memory_limit.check(
            &format!("sweep: the rows of {members} {}", sweeper.members),
            rows,
        )?;
        let threads = rayon::current_num_threads().max(1) as u64;
        let share = (opts.memory_limit.bytes() - rows) / threads;
        // vectors grow by doubling: up to twice the bytes a heap needs
        up_to = up_to.min(share / (2 * subtraction::SEARCH_BYTES_PER_HEAP));
    }
    let rows = (sweeper.run)(&SweepRequest { up_to, ..*request }, opts.progress)?;
    Ok(SweepOutcome { rows, up_to })
}

/// The family named `family_name` and its sweep, or an input error naming the
/// families that have one.
pub fn sweeper(family_name: &str) -> Result<(&'static Family, &'static Sweep)> {
    let fam = family(family_name)?;
    match fam.sweep {
        Some(s) => Ok((fam, s)),
        None => {
            let able: Vec<&str> = catalog()
                .iter()
                .filter(|f| f.sweep.is_some())
                .map(|f| f.name)
                .collect();
            Err(Error::input(format!(
                "{} has no sweep (families with one: {})",
                fam.name,
                able.join(", ")
            )))
        }
    }
}

/// Joins the rows of a sweep's shards into the rows of the unsharded sweep, in its
/// order (a member listed twice must have the same period both times).
pub fn merge_sweep(mut rows: Vec<SweepRow>) -> Result<Vec<SweepRow>> {
    rows.sort_by(|a, b| a.member.cmp(&b.member));
    for w in rows.windows(2) {
        if w[0].member == w[1].member && w[0].period != w[1].period {
            return Err(Error::input(format!(
                "two shards disagree about {}",
                format_set(&w[0].member)
            )));
        }
    }
    rows.dedup_by(|a, b| a.member == b.member);
    rows.sort_by(sweep_order);
    Ok(rows)
}

/// Every family of the catalog.
pub fn catalog() -> Vec<&'static Family> {
    vec![
        &nim::FAMILY,
        &subtraction::FAMILY,
        &wythoff::FAMILY,
        &ryuoh::FAMILY,
        &misere::FAMILY,
        &pass::FAMILY,
        &sum::FAMILY,
        &fibonacci_nim::FAMILY,
        &octal::FAMILY,
        &grundy_game::FAMILY,
        &rules::FAMILY,
        &chocolate::FAMILY,
        &chocolate_staircase::FAMILY,
        &nplayer::FAMILY,
        &nplayer_nim::FAMILY,
        &takeaway::FAMILY,
        &welter::FAMILY,
        &cram::FAMILY,
        &node_kayles::FAMILY,
        &chomp::FAMILY,
        &chocolate_bar::FAMILY,
    ]
}

/// The rules of the game written `spec`, in one sentence (its family's summary), for
/// worksheets and introductions; `None` for a spec that names no family.
///
/// ```
/// assert!(nimlab_games::rules_of("wythoff").unwrap().starts_with("Wythoff's game"));
/// assert_eq!(nimlab_games::rules_of("no-such-game"), None);
/// ```
pub fn rules_of(spec: &str) -> Option<&'static str> {
    let spec = parse_spec(spec).ok()?;
    family(&spec.name).ok().map(|f| f.summary)
}

/// The family called `name`.
pub fn family(name: &str) -> Result<&'static Family> {
    catalog()
        .into_iter()
        .find(|f| f.name == name)
        .ok_or_else(|| {
            let known: Vec<&str> = catalog().iter().map(|f| f.name).collect();
            Error::input(format!(
                "unknown game '{name}' (known: {})",
                known.join(", ")
            ))
        })
}

/// Every registered theorem of every family.
pub fn all_theorems() -> Vec<Theorem> {
    catalog().iter().flat_map(|f| (f.theorems)()).collect()
}

/// Parses a game specification and builds the game.
///
/// ```
/// use nimlab_games::parse_game;
/// assert_eq!(parse_game("subtraction(s={4,1,3})").unwrap().spec(), "subtraction(s={1,3,4})");
/// assert!(parse_game("ryuoh(p=0)").is_err());
/// assert!(parse_game("chess").is_err());
/// ```
pub fn parse_game(text: &str) -> Result<Box<dyn Game>> {
    let spec = parse_spec(text)?;
    let fam = family(&spec.name)?;
    let args = Args::new(fam, &spec)?;
    (fam.build)(&args)
}

/// Arguments of one game spec, checked against its family's parameters.
pub struct Args {
    game: &'static str,
    params: &'static [Param],
    values: Vec<(&'static str, String)>,
}

impl Args {
    /// Matches the spec's arguments to the family's parameters (positional arguments
    /// fill parameters in order); unknown or repeated parameters are errors.
    pub fn new(family: &'static Family, spec: &Spec) -> Result<Self> {
        let mut values: Vec<(&'static str, String)> = Vec::new();
        for (i, (key, value)) in spec.args.iter().enumerate() {
            let param = match key {
                Some(k) => family.params.iter().find(|p| p.name == k).ok_or_else(|| {
                    let names: Vec<&str> = family.params.iter().map(|p| p.name).collect();
                    Error::input(format!(
                        "{}: unknown parameter '{k}' (parameters: {})",
                        family.name,
                        if names.is_empty() {
                            "none".to_string()
                        } else {
                            names.join(", ")
                        }
                    ))
                })?,
                None => family.params.get(i).ok_or_else(|| {
                    Error::input(format!(
                        "{}: too many arguments ('{value}' has no parameter)",
                        family.name
                    ))
                })?,
            };
            if values.iter().any(|(n, _)| *n == param.name) {
                return Err(Error::input(format!(
                    "{}: parameter {} given twice",
                    family.name, param.name
                )));
            }
            values.push((param.name, value.clone()));
        }
        Ok(Args {
            game: family.name,
            params: family.params,
            values,
        })
    }

    /// The raw text of parameter `key`, or its default.
    pub fn raw(&self, key: &str) -> Result<String> {
        if let Some((_, v)) = self.values.iter().find(|(n, _)| *n == key) {
            return Ok(v.clone());
        }
        self.params
            .iter()
            .find(|p| p.name == key)
            .and_then(|p| p.default)
            .map(str::to_string)
            .ok_or_else(|| Error::input(format!("{}: parameter {key} is required", self.game)))
    }

    /// The raw text of parameter `key` if it was given (for parameters without default).
    pub fn optional_raw(&self, key: &str) -> Option<String> {
        self.values
            .iter()
            .find(|(n, _)| *n == key)
            .map(|(_, v)| v.clone())
    }

    /// Integer parameter `key`, at least `min`.
    pub fn int(&self, key: &str, min: i64) -> Result<i64> {
        let v = parse_int(self.game, key, &self.raw(key)?)?;
        if v < min {
            return Err(Error::input(format!(
                "{}: parameter {key} must be ≥ {min}, got {v}",
                self.game
            )));
        }
        Ok(v)
    }

    /// Set parameter `key` (sorted, without repeats).
    pub fn set(&self, key: &str) -> Result<Vec<u64>> {
        parse_set(self.game, key, &self.raw(key)?)
    }
}

/// Formats a set as `{1,3,4}`.
pub fn format_set(s: &[u64]) -> String {
    let items: Vec<String> = s.iter().map(u64::to_string).collect();
    format!("{{{}}}", items.join(","))
}
