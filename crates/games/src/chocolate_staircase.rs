//! Staircase chocolate bars CB(f, y, z) (docs/theory.md §5), and the three-coordinate
//! bar {x, y, z} with a strip of x squares left of the bitter square.
//!
//! f is a formula in `t` (the formula language of `check`), e.g. `t/2`,
//! `2^floor_log2(max(t,1)) - 1`. It must be defined, ≥ 0 and non-decreasing on the
//! columns a position uses; where it is not, the position is refused with the place it
//! fails. Condition (a) on f decides whether G({y, z}) = y ⊕ z
//! ([`StaircaseFunction::first_violation`]); where it holds on [0, z] the closed form
//! answers, elsewhere the staircase table kernel (row and column bitsets) or brute
//! force does.

use crate::nim::Nim;
use crate::{Args, Family, Param};
use nimlab_engine::big::{BigAnalysis, BigPosition, BigUint};
use nimlab_engine::capability::{
    BigPositions, Capabilities, Decomposition, MoveRelation, TableKernel,
};
use nimlab_engine::picture::{ColumnsDrawing, ColumnsPicture, SquareColumn};
use nimlab_engine::table::{describe_box, GrundyTable, INVALID};
use nimlab_engine::theorem::ProofClaim;
use nimlab_engine::theorem::{describe_window, Verdict};
use nimlab_engine::{Coord, Error, Game, MemoryLimit, Result, Theorem};
use nimlab_formula::{Column, Formula};
use std::sync::{Arc, RwLock};

/// Most columns f is tabulated for: positions need z below this.
pub const MAX_COLUMNS: u64 = 1 << 22;

/// Word operations a second the staircase kernel manages, for refusals of huge boxes.
const WORD_OPS_PER_SECOND: f64 = 1e9;
/// Longest kernel run accepted, in seconds.
const MAX_KERNEL_SECONDS: f64 = 600.0;

/// A place where condition (a) fails: ⌊u/2ⁿ⌋ = ⌊w/2ⁿ⌋ but ⌊f(u)/2ⁿ⁻¹⌋ ≠ ⌊f(w)/2ⁿ⁻¹⌋.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ConditionWitness {
    /// The smaller argument (the start of the aligned block of 2ⁿ holding w).
    pub u: u64,
    /// The larger argument: the least w such that (a) fails on [0, w].
    pub w: u64,
    /// The exponent n ≥ 1 (the least that fails for this w).
    pub n: u32,
    /// f(u).
    pub f_u: u64,
    /// f(w).
    pub f_w: u64,
}

impl ConditionWitness {
    /// The witness in words, e.g. `u = 2, w = 3, n = 1: ⌊2/2⌋ = ⌊3/2⌋ = 1 but
    /// ⌊f(2)/1⌋ = 0 ≠ ⌊f(3)/1⌋ = 1`.
    pub fn describe(&self) -> String {
        let (n, p) = (self.n, 1u128 << self.n);
        let q = 1u128 << (self.n - 1);
        format!(
            "u = {}, w = {}, n = {n}: ⌊{}/{p}⌋ = ⌊{}/{p}⌋ = {} but ⌊f({})/{q}⌋ = {} ≠ ⌊f({})/{q}⌋ = {} (f({}) = {}, f({}) = {})",
            self.u,
            self.w,
            self.u,
            self.w,
            self.w as u128 / p,
            self.u,
            self.f_u as u128 / q,
            self.w,
            self.f_w as u128 / q,
            self.u,
            self.f_u,
            self.w,
            self.f_w
        )
    }
}

/// f tabulated on [0, len): values, where it stops being non-decreasing, where (a)
/// first fails.
#[derive(Debug, Clone, Default)]
pub struct FunctionPrefix {
    values: Vec<u64>,
    /// Least t ≥ 1 with f(t) < f(t − 1).
    first_descent: Option<u64>,
    /// The (a) witness with the least w (searched only where f is non-decreasing).
    first_violation: Option<ConditionWitness>,
}

impl FunctionPrefix {
    /// f(0), …, f(len − 1).
    pub fn values(&self) -> &[u64] {
        &self.values
    }

    /// Extends the derived facts over the values from `from` on.
    fn update(&mut self, from: usize) {
        let f = &self.values;
        for t in from.max(1)..f.len() {
            if self.first_descent.is_some() {
                break;
            }
            if f[t] < f[t - 1] {
                self.first_descent = Some(t as u64);
            }
        }
        if self.first_violation.is_some() {
            return;
        }
        // For non-decreasing f, (a) on a block of 2ⁿ only needs its first and last
        // values in the same block of 2ⁿ⁻¹: every other value lies between them.
        let end = self.first_descent.map_or(f.len(), |d| d as usize);
        for w in from..end {
            for n in 1..=64u32 {
                let u = if n == 64 { 0 } else { (w >> n) << n };
                let q = n - 1;
                if f[u] >> q != f[w] >> q {
                    self.first_violation = Some(ConditionWitness {
                        u: u as u64,
                        w: w as u64,
                        n,
                        f_u: f[u],
                        f_w: f[w],
                    });
                    return;
                }
                if u == 0 {
                    break; // larger n only weaken the condition
                }
            }
        }
    }
}

/// The staircase function f of a chocolate bar: a formula in `t`, tabulated on demand.
///
/// ```
/// use nimlab_games::chocolate_staircase::StaircaseFunction;
/// let f = StaircaseFunction::parse("t/3").unwrap();
/// assert_eq!(f.values(8).unwrap().values(), &[0, 0, 0, 1, 1, 1, 2, 2]);
/// let w = f.first_violation(8).unwrap().unwrap();
/// assert_eq!((w.u, w.w, w.n), (2, 3, 1)); // ⌊2/2⌋ = ⌊3/2⌋ but f(2) = 0 ≠ f(3) = 1
/// assert!(StaircaseFunction::parse("t/2").unwrap().first_violation(1000).unwrap().is_none());
/// ```
pub struct StaircaseFunction {
    formula: Formula,
    cache: RwLock<Arc<FunctionPrefix>>,
}

impl std::fmt::Debug for StaircaseFunction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "StaircaseFunction({})", self.formula.text())
    }
}

impl StaircaseFunction {
    /// Compiles `text`, a formula in `t`.
    pub fn parse(text: &str) -> Result<Self> {
        let text = text.trim();
        let formula = Formula::compile(text, &["t"]).map_err(|e| {
            Error::input(format!(
                "f = '{}': {e} (f is a formula in t, e.g. t/2)",
                crate::spec::show(text)
            ))
        })?;
        Ok(StaircaseFunction {
            formula,
            cache: RwLock::new(Arc::new(FunctionPrefix::default())),
        })
    }

    /// The formula's text.
    pub fn text(&self) -> &str {
        self.formula.text()
    }

    /// f on [0, len): every value defined and ≥ 0 (monotonicity is not checked here;
    /// see [`StaircaseFunction::monotone`]).
    pub fn values(&self, len: u64) -> Result<Arc<FunctionPrefix>> {
        if len > MAX_COLUMNS {
            return Err(Error::input(format!(
                "f is tabulated on at most {MAX_COLUMNS} columns (t < {MAX_COLUMNS}); {len} were asked for"
            )));
        }
        let have = self.cache.read().map(|c| c.clone()).unwrap_or_default();
        if have.values.len() as u64 >= len {
            return Ok(have);
        }
        // Grow geometrically, so that a solver asking column by column stays linear.
        let target = len.max(2 * have.values.len() as u64).min(MAX_COLUMNS) as usize;
        let from = have.values.len();
        let ts: Vec<i64> = (from as i64..target as i64).collect();
        let mut out = vec![0i64; ts.len()];
        let mut grown = (*have).clone();
        let evaluated = self
            .formula
            .evaluator()
            .eval(&[Column::Values(&ts)], &mut out);
        let good = match &evaluated {
            Ok(()) => out.len(),
            // The batch stops at the first failing cell: find it exactly.
            Err(_) => ts
                .iter()
                .position(|&t| self.formula.eval(&[t]).map_or(true, |v| v < 0))
                .unwrap_or(out.len()),
        };
        let negative = out[..good].iter().position(|&v| v < 0);
        let good = negative.unwrap_or(good);
        grown.values.extend(out[..good].iter().map(|&v| v as u64));
        grown.update(from);
        let grown = Arc::new(grown);
        if let Ok(mut c) = self.cache.write()
            && c.values.len() < grown.values.len()
        {
            *c = grown.clone();
        }
        if (grown.values.len() as u64) < len {
            let t = grown.values.len() as i64;
            return Err(match self.formula.eval(&[t]) {
                Err(e) if t == 0 => Error::input(format!(
                    "f is undefined at t = 0: {e}; define f(0) too, e.g. with max(t,1) in \
                     place of t or 'if t == 0 then 0 else …'"
                )),
                Err(e) => Error::input(format!("f is undefined at t = {t}: {e}")),
                Ok(v) => Error::input(format!(
                    "f(t) = {} must be ≥ 0 but f({t}) = {v}",
                    self.text()
                )),
            });
        }
        Ok(grown)
    }

    /// f on [0, len), which must be non-decreasing there.
    pub fn monotone(&self, len: u64) -> Result<Arc<FunctionPrefix>> {
        let p = match self.values(len) {
            Ok(p) => p,
            Err(e) => {
                // A descent before the place f fails is the first thing wrong with it.
                let partial = self.cache.read().map(|c| c.clone()).unwrap_or_default();
                if partial.first_descent.is_none() {
                    return Err(e);
                }
                partial
            }
        };
        if let Some(t) = p.first_descent.filter(|&t| t < len) {
            let f = &p.values;
            return Err(Error::input(format!(
                "f(t) = {} must be non-decreasing but f({}) = {} > f({t}) = {}",
                self.text(),
                t - 1,
                f[t as usize - 1],
                f[t as usize]
            )));
        }
        Ok(p)
    }

    /// The least w < len such that condition (a) fails on [0, w], with its witness;
    /// `Ok(None)` when (a) holds on [0, len). f must be non-decreasing on [0, len).
    pub fn first_violation(&self, len: u64) -> Result<Option<ConditionWitness>> {
        Ok(self.monotone(len)?.first_violation.filter(|w| w.w < len))
    }

    /// Whether (a) holds on [0, z] (then G = y ⊕ z at every position {y, z'}, z' ≤ z).
    fn condition_holds_through(&self, z: u64) -> bool {
        self.first_violation(z + 1).is_ok_and(|w| w.is_none())
    }
}

/// The staircase chocolate bar CB(f, y, z), position `y,z`; with `strip`, the bar
/// {x, y, z} that also has a strip of x squares left of the bitter square.
///
/// ```
/// use nimlab_engine::{Game, Solver};
/// use nimlab_games::chocolate_staircase::ChocolateStaircase;
/// let bar = ChocolateStaircase::new("t/2", false).unwrap();
/// // The seed's example: the options of {2,5}.
/// let mut o = bar.options(&[2, 5]);
/// o.sort();
/// assert_eq!(o, vec![vec![0, 0], vec![0, 1], vec![0, 5], vec![1, 2], vec![1, 3], vec![1, 5], vec![2, 4]]);
/// // f(t) = ⌊t/3⌋ violates (a): G({1,3}) = 4, not 1 ⊕ 3.
/// let third = ChocolateStaircase::new("t/3", false).unwrap();
/// assert_eq!(Solver::new(&third).grundy(&[1, 3]).unwrap(), 4);
/// assert!(third.check_position(&[2, 3]).is_err()); // y > f(z)
/// ```
#[derive(Debug)]
pub struct ChocolateStaircase {
    f: Arc<StaircaseFunction>,
    strip: bool,
    /// The strip as a one-heap Nim (strip only).
    heap: Nim,
    /// The two-coordinate bar (strip only): {x, y, z} is heap x + CB(f, y, z).
    bar: Option<Box<ChocolateStaircase>>,
}

impl ChocolateStaircase {
    /// The bar for the formula `f` (in t), with or without the left strip.
    pub fn new(f: &str, strip: bool) -> Result<Self> {
        Ok(Self::with_function(
            Arc::new(StaircaseFunction::parse(f)?),
            strip,
        ))
    }

    fn with_function(f: Arc<StaircaseFunction>, strip: bool) -> Self {
        ChocolateStaircase {
            bar: strip.then(|| Box::new(Self::with_function(f.clone(), false))),
            f,
            strip,
            heap: Nim { heaps: 1 },
        }
    }

    /// The staircase function.
    pub fn function(&self) -> &StaircaseFunction {
        &self.f
    }

    /// Whether the bar has the left strip (positions x,y,z).
    pub fn has_strip(&self) -> bool {
        self.strip
    }

    /// (y, z) of a position.
    fn yz(&self, pos: &[Coord]) -> (Coord, Coord) {
        if self.strip {
            (pos[1], pos[2])
        } else {
            (pos[0], pos[1])
        }
    }

    /// f(0), …, f(z) for a legal position.
    fn prefix(&self, z: Coord) -> Result<Arc<FunctionPrefix>> {
        if z >= MAX_COLUMNS {
            return Err(Error::input(format!(
                "z = {z} is too large (z < {MAX_COLUMNS}: f is tabulated column by column)"
            )));
        }
        self.f.monotone(z + 1)
    }

    /// The Grundy values of CB(f, ·, ·) over the box y < `ys`, z < `zs` (y fastest;
    /// [`INVALID`] where y > f(z)), by the staircase kernel.
    ///
    /// Along column z the options are the column below; along row y they are the
    /// squares {y, w} of that row (where y ≤ f(w)) and the top squares {f(w), w} of the
    /// columns lower than y. So each row keeps a bitset of the values seen in it,
    /// started from the values of those top squares, each column a bitset of its own,
    /// and a square's value is the first bit clear in both.
    ///
    /// ```
    /// use nimlab_games::chocolate_staircase::ChocolateStaircase;
    /// let bar = ChocolateStaircase::new("t/3", false).unwrap();
    /// let t = bar.kernel_table(4, 8, Default::default()).unwrap();
    /// assert_eq!(t.get(&[1, 3]), Some(4));
    /// assert_eq!(t.get(&[2, 3]), None); // 2 > f(3) = 1
    /// ```
    pub fn kernel_table(&self, ys: usize, zs: usize, limit: MemoryLimit) -> Result<GrundyTable> {
        let dims = vec![ys, zs];
        let too_large = |ys: usize| {
            Error::input(format!(
                "the table of y < {ys}, z < {zs} is too large (f grows too fast for a table)"
            ))
        };
        let cells = (ys as u64)
            .checked_mul(zs as u64)
            .ok_or_else(|| too_large(ys))?;
        if zs == 0 || ys == 0 {
            return GrundyTable::from_parts(dims, vec![INVALID; cells as usize]);
        }
        let f = self.prefix(zs as u64 - 1)?;
        let full = usize::try_from(f.values()[zs - 1])
            .ok()
            .and_then(|t| t.checked_add(1))
            .ok_or_else(|| Error::input("f is too large for a table"))?;
        if full <= ys {
            return self.kernel_whole(&f.values()[..zs], ys, limit);
        }
        (full as u64)
            .checked_mul(zs as u64)
            .ok_or_else(|| too_large(full))?;
        // The box cuts the tallest columns: compute them whole, keep the box.
        let t = self.kernel_whole(&f.values()[..zs], full, limit)?;
        let mut values = vec![INVALID; ys * zs];
        for z in 0..zs {
            values[ys * z..ys * (z + 1)].copy_from_slice(&t.values()[full * z..full * z + ys]);
        }
        GrundyTable::from_parts(dims, values)
    }

    /// The kernel over y < `ys`, z < `f.len()`, where every column fits: f(z) < `ys`.
    fn kernel_whole(&self, f: &[u64], ys: usize, limit: MemoryLimit) -> Result<GrundyTable> {
        let zs = f.len();
        let dims = vec![ys, zs];
        let what = format!("{} for {}", describe_box(&dims), self.spec_2d());
        let cells = ys as u64 * zs as u64;
        // Values are below y + z + 1 (a square has y + z options).
        let rows = f[zs - 1] as usize + 1;
        let bits = rows + zs;
        let words = bits / 64 + 1;
        let needed = cells
            .saturating_mul(4)
            .saturating_add(((rows + 2) as u64).saturating_mul(words as u64 * 8));
        limit.check(&what, needed)?;
        let valid: u64 = f.iter().map(|&t| t + 1).sum();
        let seconds = valid as f64 * words as f64 / WORD_OPS_PER_SECOND;
        if seconds > MAX_KERNEL_SECONDS {
            return Err(Error::TooLong {
                what: format!("the staircase kernel's {what}"),
                seconds: seconds as u64,
            });
        }
        let mut values = vec![INVALID; cells as usize];
        let mut row_sets: Vec<u64> = vec![0; rows * words];
        let mut column: Vec<u64> = vec![0; words];
        let mut tops: Vec<u64> = vec![0; words];
        let mut active = 0usize; // rows started so far
        for (z, &fz) in f.iter().enumerate() {
            let height = fz as usize + 1;
            // Rows reaching column z for the first time start from the values of the
            // top squares of the columns before it.
            while active < height {
                row_sets[active * words..(active + 1) * words].copy_from_slice(&tops);
                active += 1;
            }
            column.iter_mut().for_each(|w| *w = 0);
            let mut g = 0;
            for y in 0..height {
                let row = &mut row_sets[y * words..(y + 1) * words];
                g = bits;
                for (i, (r, c)) in row.iter().zip(&column).enumerate() {
                    let free = !(r | c);
                    if free != 0 {
                        g = i * 64 + free.trailing_zeros() as usize;
                        break;
                    }
                }
                debug_assert!(g < bits, "a value exceeds y + z");
                row[g / 64] |= 1 << (g % 64);
                column[g / 64] |= 1 << (g % 64);
                values[y + ys * z] = g as u32;
            }
            tops[g / 64] |= 1 << (g % 64);
        }
        GrundyTable::from_parts(dims, values)
    }

    fn spec_2d(&self) -> String {
        format!("chocolate-staircase(f={})", self.f.text())
    }

    /// Options of CB(f, y, z) (two coordinates), given f on [0, z).
    fn for_each_bar_option(f: &[u64], y: Coord, z: Coord, visit: &mut dyn FnMut(Coord, Coord)) {
        for v in 0..y {
            visit(v, z);
        }
        for w in 0..z {
            visit(y.min(f[w as usize]), w);
        }
    }
}

impl Game for ChocolateStaircase {
    fn spec(&self) -> String {
        if self.strip {
            format!("chocolate-staircase(f={}, strip=true)", self.f.text())
        } else {
            self.spec_2d()
        }
    }
    fn dimension(&self) -> usize {
        if self.strip {
            3
        } else {
            2
        }
    }
    fn is_downward_closed(&self) -> bool {
        true
    }
    fn coordinate_names(&self) -> Vec<String> {
        let names: &[&str] = if self.strip {
            &["x", "y", "z"]
        } else {
            &["y", "z"]
        };
        names.iter().map(|s| s.to_string()).collect()
    }
    fn table_box(&self, size: usize) -> Vec<usize> {
        // Rows above f(size − 1) hold no position.
        let ys = self
            .f
            .monotone(size as u64)
            .ok()
            .and_then(|p| p.values().last().copied())
            .map_or(size, |top| size.min(top as usize + 1))
            .max(1);
        if self.strip {
            vec![size, ys, size]
        } else {
            vec![ys, size]
        }
    }
    fn position_error(&self, pos: &[Coord]) -> Option<String> {
        let (y, z) = self.yz(pos);
        let f = match self.prefix(z) {
            Ok(f) => f,
            Err(e) => return Some(e.to_string()),
        };
        let fz = f.values()[z as usize];
        (y > fz).then(|| format!("y = {y} must be ≤ f(z) = f({z}) = {fz}"))
    }
    fn for_each_option(&self, pos: &[Coord], visit: &mut dyn FnMut(&[Coord])) {
        let (y, z) = self.yz(pos);
        let Ok(f) = self.prefix(z) else {
            return; // not a position (position_error says why)
        };
        if self.strip {
            let x = pos[0];
            for u in 0..x {
                visit(&[u, y, z]);
            }
            Self::for_each_bar_option(f.values(), y, z, &mut |v, w| visit(&[x, v, w]));
        } else {
            Self::for_each_bar_option(f.values(), y, z, &mut |v, w| visit(&[v, w]));
        }
    }
    fn max_options(&self, pos: &[Coord]) -> Option<u128> {
        Some(pos.iter().map(|&c| c as u128).sum())
    }
    fn capabilities(&self) -> Capabilities<'_> {
        match &self.bar {
            Some(_) => Capabilities {
                decomposition: Some(Decomposition::Parts(self)),
                columns_picture: Some(self),
                move_relation: Some(self.move_relation()),
                ..Capabilities::none()
            },
            None => Capabilities {
                big: Some(self),
                table_kernel: Some(self),
                columns_picture: Some(self),
                move_relation: Some(self.move_relation()),
                ..Capabilities::none()
            },
        }
    }
}

impl ChocolateStaircase {
    /// The moves of CB(f, y, z) as a formula (for `nimlab prove`): a horizontal cut
    /// {v, z}, v < y, or a vertical cut {min(y, f(w)), w}, w < z; positions have
    /// y ≤ f(z). With the strip, also {u, y, z} for u < x.
    ///
    /// ```
    /// use nimlab_games::chocolate_staircase::ChocolateStaircase;
    /// let r = ChocolateStaircase::new("t/2", false).unwrap().move_relation();
    /// assert_eq!(r.positions.as_deref(), Some("y <= ((z)/2)"));
    /// ```
    pub fn move_relation(&self) -> MoveRelation {
        let f = |arg: &str| {
            let t = crate::relation::substitute(self.f.text(), &|w| {
                (w == "t").then(|| format!("({arg})"))
            });
            format!("({t})")
        };
        let bar = format!(
            "(y_ < y && z_ == z) || (z_ < z && y_ == min(y, {}))",
            f("z_")
        );
        let options = if self.strip {
            format!("(x_ < x && y_ == y && z_ == z) || (x_ == x && ({bar}))")
        } else {
            bar
        };
        MoveRelation {
            options,
            positions: Some(format!("y <= {}", f("z"))),
        }
    }
}

/// With the strip, {x, y, z} is the sum of the Nim heap x and the bar CB(f, y, z).
impl nimlab_engine::capability::Components for ChocolateStaircase {
    fn parts(&self) -> Vec<&dyn Game> {
        match &self.bar {
            Some(bar) => vec![&self.heap as &dyn Game, &**bar as &dyn Game],
            None => vec![self as &dyn Game],
        }
    }
    fn split(&self, pos: &[BigUint]) -> Option<Vec<std::ops::Range<usize>>> {
        (pos.len() == self.dimension()).then(|| self.box_ranges())
    }
    fn join(&self, parts: &[&[BigUint]]) -> nimlab_engine::big::BigPosition {
        parts.concat()
    }
    fn box_ranges(&self) -> Vec<std::ops::Range<usize>> {
        if self.bar.is_some() {
            vec![0..1, 1..3]
        } else {
            std::iter::once(0..self.dimension()).collect()
        }
    }
}

/// A position's coordinates as machine integers, or why they are too big.
fn small_yz(pos: &[BigUint]) -> Result<(Coord, Coord)> {
    let conv = |c: &BigUint, name: &str| -> Result<Coord> {
        u64::try_from(c).map_err(|_| {
            Error::input(format!(
                "{name} = {} is too large (z < {MAX_COLUMNS}: f is tabulated column by column)",
                nimlab_engine::big::abbreviate(&c.to_str_radix(10))
            ))
        })
    };
    Ok((conv(&pos[0], "y")?, conv(&pos[1], "z")?))
}

impl BigPositions for ChocolateStaircase {
    /// Where (a) holds on \[0, z\], G({y, z}) = y ⊕ z (the theorem of \[Chocolate\]: f
    /// restricted to \[0, z\] and continued by the constant f(z) satisfies (a), and a
    /// position only sees f on \[0, z\]); elsewhere exact computation answers.
    fn analyse_big(&self, pos: &[BigUint]) -> Option<Result<BigAnalysis>> {
        if self.strip || pos.len() != 2 {
            return None;
        }
        let (y, z) = match small_yz(pos) {
            Ok(p) => p,
            Err(e) => return Some(Err(e)),
        };
        if let Some(why) = self.position_error(&[y, z]) {
            return Some(Err(Error::input(why)));
        }
        if !self.f.condition_holds_through(z) {
            return None;
        }
        let moves = self
            .moves_to_value(pos, &BigUint::default())
            .unwrap_or_default();
        Some(Ok(BigAnalysis::exact(
            pos.to_vec(),
            BigUint::from(y ^ z),
            moves,
            format!("G = y ⊕ z: f satisfies condition (a) on [0, {z}] (Nakamura–Miyadera)"),
        )))
    }
    fn grundy_small(&self, pos: &[Coord]) -> Option<u32> {
        if self.strip || pos.len() != 2 || pos[1] >= MAX_COLUMNS {
            return None;
        }
        let g = pos[0] ^ pos[1];
        (self.f.condition_holds_through(pos[1]) && g < u32::MAX as u64).then_some(g as u32)
    }
    fn moves_to_value(&self, pos: &[BigUint], target: &BigUint) -> Option<Vec<BigPosition>> {
        if self.strip || pos.len() != 2 {
            return None;
        }
        let (y, z) = small_yz(pos).ok()?;
        let target = u64::try_from(target).ok()?;
        if !self.f.condition_holds_through(z) {
            return None;
        }
        let f = self.prefix(z).ok()?;
        let mut out = Vec::new();
        Self::for_each_bar_option(f.values(), y, z, &mut |v, w| {
            if v ^ w == target {
                out.push(vec![BigUint::from(v), BigUint::from(w)]);
            }
        });
        out.sort();
        out.dedup();
        Some(out)
    }
}

impl TableKernel for ChocolateStaircase {
    fn table(&self, dims: &[usize], limit: MemoryLimit) -> Option<Result<GrundyTable>> {
        match dims {
            [ys, zs] if !self.strip => Some(self.kernel_table(*ys, *zs, limit)),
            _ => None,
        }
    }
    fn table_method(&self) -> String {
        "staircase kernel: a bitset of values per row and per column".into()
    }
}

impl ColumnsDrawing for ChocolateStaircase {
    fn columns_picture(&self, pos: &[Coord]) -> Result<ColumnsPicture> {
        self.check_position(pos)?;
        let (y, z) = self.yz(pos);
        let f = self.prefix(z)?;
        let x = if self.strip { pos[0] } else { 0 };
        let mut columns: Vec<SquareColumn> = (1..=x)
            .rev()
            .map(|i| SquareColumn {
                index: -(i as i64),
                height: 1,
                limit: None,
            })
            .collect();
        for (i, &fi) in f.values()[..=z as usize].iter().enumerate() {
            columns.push(SquareColumn {
                index: i as i64,
                height: y.min(fi) + 1,
                limit: Some(fi.saturating_add(1)),
            });
        }
        let caption = if self.strip {
            format!(
                "{{{x},{y},{z}}}: strip of {x} + CB(f, {y}, {z}), f(t) = {}",
                self.f.text()
            )
        } else {
            format!("CB(f, {y}, {z}) = {{{y},{z}}}, f(t) = {}", self.f.text())
        };
        Ok(ColumnsPicture { columns, caption })
    }
}

/// What `nimlab chocolate condition` reports about f on a window.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConditionReport {
    /// The window: f on [0, window), positions with z < window.
    pub window: u64,
    /// f(0), …, f(window − 1).
    pub values: Vec<u64>,
    /// Where condition (a) first fails (least w), if it does.
    pub witness: Option<ConditionWitness>,
    /// The first position {y, z} (least z, then least y) with G ≠ y ⊕ z, and its G.
    pub mismatch: Option<(u64, u64, u32)>,
    /// Positions compared.
    pub checked: u64,
}

impl ConditionReport {
    /// Whether the two answers agree as the theorem says: (a) fails on the window iff
    /// some position has G ≠ y ⊕ z, and then at the same column (least w = least z).
    pub fn agrees(&self) -> bool {
        match (&self.witness, &self.mismatch) {
            (None, None) => true,
            (Some(w), Some((_, z, _))) => w.w == *z,
            _ => false,
        }
    }
}

/// Largest window `condition` accepts.
pub const MAX_WINDOW: u64 = 1 << 16;

/// Tests condition (a) for f on [0, `window`) and compares every Grundy value of
/// CB(f, y, z), z < `window`, with y ⊕ z (the staircase kernel, not the closed form).
///
/// ```
/// use nimlab_games::chocolate_staircase::check_condition;
/// let r = check_condition("t/3", 16, Default::default()).unwrap();
/// assert_eq!(r.witness.map(|w| w.w), Some(3));
/// assert_eq!(r.mismatch, Some((1, 3, 4))); // G({1,3}) = 4 ≠ 1 ⊕ 3
/// assert!(r.agrees());
/// assert!(check_condition("t/2", 64, Default::default()).unwrap().mismatch.is_none());
/// ```
pub fn check_condition(f: &str, window: u64, limit: MemoryLimit) -> Result<ConditionReport> {
    if window == 0 || window > MAX_WINDOW {
        return Err(Error::input(format!(
            "window must be 1..{MAX_WINDOW}, got {window}"
        )));
    }
    let bar = ChocolateStaircase::new(f, false)?;
    let prefix = bar.f.monotone(window)?;
    let values = prefix.values()[..window as usize].to_vec();
    let witness = bar.f.first_violation(window)?;
    let ys = usize::try_from(values[window as usize - 1])
        .ok()
        .and_then(|t| t.checked_add(1))
        .ok_or_else(|| Error::input("f is too large for a table"))?;
    if (ys as u64).checked_mul(window).is_none() {
        return Err(Error::input(format!(
            "f({}) = {} is too large: the table of y ≤ f(z), z < {window} does not fit",
            window - 1,
            values[window as usize - 1]
        )));
    }
    let table = bar.kernel_table(ys, window as usize, limit)?;
    let mut mismatch = None;
    let mut checked = 0;
    'columns: for z in 0..window {
        for y in 0..=values[z as usize] {
            let g = table.get(&[y, z]).expect("a position");
            checked += 1;
            if g as u64 != y ^ z {
                mismatch = Some((y, z, g));
                break 'columns;
            }
        }
    }
    Ok(ConditionReport {
        window,
        values,
        witness,
        mismatch,
        checked,
    })
}

/// Every non-decreasing f : [0, len) → [0, top], in lexicographic order.
///
/// ```
/// use nimlab_games::chocolate_staircase::monotone_functions;
/// assert_eq!(monotone_functions(2, 1), vec![vec![0, 0], vec![0, 1], vec![1, 1]]);
/// assert_eq!(monotone_functions(8, 7).len(), 6435); // C(15, 8)
/// ```
pub fn monotone_functions(len: usize, top: u64) -> Vec<Vec<u64>> {
    let mut out = Vec::new();
    let mut f = vec![0u64; len];
    loop {
        out.push(f.clone());
        // Next in lexicographic order: raise the last entry that can rise, reset the
        // rest to it.
        let Some(i) = (0..len).rev().find(|&i| f[i] < top) else {
            return out;
        };
        let v = f[i] + 1;
        f[i..].iter_mut().for_each(|x| *x = v);
    }
}

/// A formula in t that gives `values` on [0, len) (a chain of `if`s), for tests and
/// theorem checks over tabulated functions.
pub fn formula_of(values: &[u64]) -> String {
    let mut text = values.last().map_or("0".into(), |v| v.to_string());
    for (t, v) in values.iter().enumerate().rev().skip(1) {
        text = format!("if t <= {t} then {v} else {text}");
    }
    text
}

/// The seed's functions that satisfy condition (a), as formulas in t.
pub const SATISFYING: &[&str] = &[
    "t/2",
    "t/4",
    "t/6",
    "t/8",
    "2^floor_log2(max(t,1)) - 1",
    "if t <= 1 then 0 else 2^(floor_log2(t) - 1)",
];
/// The seed's functions that violate condition (a).
pub const VIOLATING: &[&str] = &["t/3", "t/5", "t"];

fn theorems() -> Vec<Theorem> {
    vec![condition_a(), strip_p_positions(), kernel_cross_check()]
}

/// Condition (a) decides G = y ⊕ z: on the seed's examples and every small
/// non-decreasing f.
fn condition_a() -> Theorem {
    Theorem::new(
        "chocolate-staircase.condition-a",
        "G({y,z}) = y ⊕ z for every position of CB(f,y,z) iff f satisfies (a): \
         ⌊u/2ⁿ⌋ = ⌊w/2ⁿ⌋ ⇒ ⌊f(u)/2ⁿ⁻¹⌋ = ⌊f(w)/2ⁿ⁻¹⌋ (n ≥ 1); checked on windows z < N: \
         (a) on [0,N) iff G = y ⊕ z for z < N, the least failing w being the least z of a \
         mismatch — for the seed's examples and every non-decreasing f : [0,8) → [0,7]",
        "[Chocolate] (necessity and sufficiency); [NM15] (sufficiency)",
        |ctx| {
            let window = (ctx.size as u64).clamp(8, 256);
            let mut parts = Vec::new();
            for (list, expect) in [(SATISFYING, true), (VIOLATING, false)] {
                for f in list {
                    let v = seed_example_verdict(f, expect, window, ctx.memory_limit)?;
                    parts.push((format!("f = {f}"), v));
                }
            }
            parts.push((
                "every non-decreasing f".into(),
                every_monotone_verdict(ctx.memory_limit)?,
            ));
            Ok(Verdict::all(parts))
        },
    )
    .with_claims(vec![
        ProofClaim::grundy("chocolate-staircase(f=t/2)", "y xor z", "base2"),
        ProofClaim::grundy("chocolate-staircase(f=t/4)", "y xor z", "base2"),
    ])
}

/// Condition (a) for one of the seed's functions on z < `window`: it must agree with
/// G = y ⊕ z, and hold exactly when `expect`.
fn seed_example_verdict(f: &str, expect: bool, window: u64, limit: MemoryLimit) -> Result<Verdict> {
    let r = check_condition(f, window, limit)?;
    Ok(if !r.agrees() || r.witness.is_none() != expect {
        Verdict::Fails {
            counterexample: format!(
                "f(t) = {f}: (a) {} but {}",
                r.witness
                    .map_or("holds".into(), |w| format!("fails at {}", w.describe())),
                r.mismatch
                    .map_or("G = y ⊕ z everywhere".into(), |m| format!(
                        "G({},{}) = {}",
                        m.0, m.1, m.2
                    ))
            ),
        }
    } else {
        Verdict::Holds {
            window: format!("z < {window}"),
            checked: r.checked,
        }
    })
}

/// Condition (a) against G = y ⊕ z for every non-decreasing f : [0,8) → [0,7], z < 8.
fn every_monotone_verdict(limit: MemoryLimit) -> Result<Verdict> {
    let mut checked = 0;
    for values in monotone_functions(8, 7) {
        let r = check_condition(&formula_of(&values), 8, limit)?;
        checked += r.checked;
        if !r.agrees() {
            return Ok(Verdict::Fails {
                counterexample: format!(
                    "f = {values:?}: witness {:?}, mismatch {:?}",
                    r.witness, r.mismatch
                ),
            });
        }
    }
    Ok(Verdict::Holds {
        window: "f : [0,8) → [0,7], z < 8".into(),
        checked,
    })
}

/// With the strip: the P-positions are those of nim-sum 0 when f satisfies (a).
fn strip_p_positions() -> Theorem {
    Theorem::new(
        "chocolate-staircase.strip-p-positions",
        "With the strip of x squares: when f satisfies (a), the P-positions of {x,y,z} are \
         exactly those with x ⊕ y ⊕ z = 0",
        "[Chocolate]",
        |ctx| {
            let size = ctx.size.clamp(4, 48);
            let mut parts = Vec::new();
            for f in SATISFYING {
                let game = ChocolateStaircase::new(f, true)?;
                let dims = game.table_box(size);
                let t =
                    nimlab_engine::table::generic_table(&game, &dims, true, &ctx.table_options())?;
                let mut checked = 0;
                let mut v = Verdict::Holds {
                    window: describe_window(&dims),
                    checked: 0,
                };
                for (p, g) in t.iter() {
                    checked += 1;
                    if (g == 0) != (p[0] ^ p[1] ^ p[2] == 0) {
                        v = Verdict::Fails {
                            counterexample: format!("G({},{},{}) = {g}", p[0], p[1], p[2]),
                        };
                        break;
                    }
                }
                if let Verdict::Holds { checked: c, .. } = &mut v {
                    *c = checked;
                }
                parts.push((format!("f = {f}"), v));
            }
            Ok(Verdict::all(parts))
        },
    )
    .with_claims(vec![ProofClaim::p_positions(
        "chocolate-staircase(f=t/2, strip=true)",
        "x xor y xor z == 0",
        "base2",
    )])
}

/// The kernel and the closed form against brute force.
fn kernel_cross_check() -> Theorem {
    Theorem::new(
        "chocolate-staircase.kernel",
        "The staircase kernel and the closed form agree with brute force (mex over the \
         options of Definition 1.8), for functions satisfying and violating (a)",
        "nimlab (cross-check)",
        |ctx| {
            let size = ctx.size.clamp(8, 96);
            let mut parts = Vec::new();
            for f in SATISFYING.iter().chain(VIOLATING) {
                let game = ChocolateStaircase::new(f, false)?;
                let dims = game.table_box(size);
                let brute =
                    nimlab_engine::table::generic_table(&game, &dims, true, &ctx.table_options())?;
                let fast = game.kernel_table(dims[0], dims[1], ctx.memory_limit)?;
                let mut v = nimlab_engine::theorem::compare_table(
                    &brute,
                    |p| fast.get(p).map_or(u64::MAX, u64::from),
                    "the staircase kernel",
                );
                if v.holds() {
                    v = nimlab_engine::theorem::compare_table(
                        &brute,
                        |p| {
                            game.grundy_small(p)
                                .map_or(brute.get(p).unwrap_or(0) as u64, u64::from)
                        },
                        "the closed form y ⊕ z",
                    );
                }
                parts.push((format!("f = {f}"), v));
            }
            Ok(Verdict::all(parts))
        },
    )
}

fn build(args: &Args) -> Result<Box<dyn Game>> {
    let f = args.raw("f")?;
    let strip = match args.raw("strip")?.trim() {
        "true" | "1" | "yes" => true,
        "false" | "0" | "no" => false,
        other => {
            return Err(Error::input(format!(
                "chocolate-staircase: parameter strip must be true or false, got '{}'",
                crate::spec::show(other)
            )))
        }
    };
    Ok(Box::new(ChocolateStaircase::new(&f, strip)?))
}

/// The `chocolate-staircase` family.
pub static FAMILY: Family = Family {
    name: "chocolate-staircase",
    summary: "Staircase chocolate bar CB(f,y,z): column i has height min(y,f(i))+1; \
              G = y ⊕ z iff f satisfies condition (a)",
    params: &[
        Param {
            name: "f",
            kind: "formula in t, non-decreasing and ≥ 0",
            default: None,
            example: Some("t/2"),
            help: "the staircase: column t holds at most f(t)+1 squares, e.g. t/2, \
                   2^floor_log2(max(t,1)) - 1",
        },
        Param {
            name: "strip",
            kind: "true or false",
            default: Some("false"),
            example: None,
            help: "add a strip of x squares (height 1) left of the bitter square: positions x,y,z",
        },
    ],
    position_syntax: "y,z (y ≤ f(z)); x,y,z with strip=true",
    seed: "Untitled account of staircase chocolate bars, Miyadera's group (in Japanese, \
           about 2018) [Chocolate]; S. Nakamura and R. Miyadera [NM15]",
    build,
    theorems,
    sweep: None,
};
