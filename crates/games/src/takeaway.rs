//! Take-away games Γ(P, C) (docs/theory.md §3): m heaps, positions P ⊆ N^m, moves
//! C ⊆ {C ∈ Z^m : Σcᵢ > 0}; X → X − C when both are in P. Components of a move may be
//! negative ("take and put back"); the coordinate sum still falls, so every play ends.
//!
//! Move sets are named (`C1` = Nim's C_\[1\], `Cbeta(beta=…)` = C^β of Theorem 4.3,
//! `Abeta(beta=…)` = the maximum positive system A^β of σ^β by Theorem 4.7), explicit
//! lists, or predicates over the move vector c0, c1, …. This module also holds the
//! mixed-radix sets themselves: ord_β, C^β, and F^β = N^m ∖ A^β both by Theorem 4.7's
//! recursion and by a brute-force search for a witness.

use crate::{Args, Family, Param};
use nimlab_engine::game::default_coordinate_names;
use nimlab_engine::nimarith::MixedRadix;
use nimlab_engine::{Coord, Error, Game, Result};
use nimlab_formula::Formula;

/// Largest number of heaps (moves are enumerated over boxes whose size is exponential
/// in it).
pub const MAX_DIMENSION: usize = 6;

/// Most move vectors tried for one position (about a second of work per position).
pub const MAX_CANDIDATES: f64 = 2e7;

/// A set of moves C ⊆ Z^m.
#[derive(Debug, Clone)]
pub enum MoveSet {
    /// C_\[1\]: one positive component (Nim).
    Nim,
    /// C^β = {C ∈ N^m ∖ {0} : ord_β(Σcᵢ) = mord_β(C)} (Theorem 4.3).
    CBeta(MixedRadix),
    /// A^β, the maximum positive system of σ^β (Theorem 4.7).
    ABeta(MixedRadix),
    /// An explicit list (components may be negative).
    List(Vec<Vec<i64>>),
    /// A predicate over c0, c1, … (components ≥ 0 unless take-and-put is allowed).
    Predicate {
        /// The condition, over the variables `c0, …, c_{m−1}`.
        formula: Formula,
        /// Whether components may be negative.
        take_and_put: bool,
    },
}

impl MoveSet {
    /// Parses `C1`, `Cbeta(beta=[3..])`, `Abeta(beta=[3..])`, `[[1,0],[0,1]]` or a
    /// predicate over `c0, c1, …` (named constants allowed) for `dim` heaps.
    ///
    /// ```
    /// use nimlab_games::takeaway::MoveSet;
    /// let c = MoveSet::parse("Cbeta(beta=[3..])", 2, false).unwrap();
    /// assert!(c.contains(&[1, 1]) && !c.contains(&[1, 2]) && !c.contains(&[2, 10]));
    /// let a = MoveSet::parse("Abeta(beta=[3..])", 2, false).unwrap();
    /// assert!(a.contains(&[2, 10]) && !a.contains(&[2, 4])); // Examples 4.6, 4.8
    /// let p = MoveSet::parse("c0 == 0 || c1 == 0", 2, false).unwrap();
    /// assert!(p.contains(&[0, 5]) && !p.contains(&[1, 1]));
    /// ```
    pub fn parse(text: &str, dim: usize, take_and_put: bool) -> Result<MoveSet> {
        let t = text.trim();
        if let Some(named) = MoveSet::parse_named(t, &|_| None) {
            return named;
        }
        if t.starts_with('[') {
            return parse_move_list(t, dim).map(MoveSet::List);
        }
        let vars: Vec<String> = (0..dim).map(|i| format!("c{i}")).collect();
        let refs: Vec<&str> = vars.iter().map(String::as_str).collect();
        let formula = Formula::compile(t, &refs).map_err(|e| {
            Error::input(format!(
                "moves '{}': {e} (a move set is C1, Cbeta(beta=[…]), Abeta(beta=[…]), a list \
                 [[1,0],[0,1]] or a condition on c0, c1, …)",
                crate::spec::show(t)
            ))
        })?;
        if !formula.is_condition() {
            return Err(Error::input(format!(
                "moves '{}' must be a condition on c0, c1, … (a comparison, &&, ||, !)",
                crate::spec::show(t)
            )));
        }
        Ok(MoveSet::Predicate {
            formula,
            take_and_put,
        })
    }

    /// The named sets `C1`, `Cbeta(beta=…)`, `Abeta(beta=…)` (the radix may use names
    /// that `resolve` knows, e.g. a rules file's constants); `None` if `text` names none.
    ///
    /// ```
    /// use nimlab_games::takeaway::MoveSet;
    /// let p = |n: &str| (n == "p").then_some(3);
    /// let c = MoveSet::parse_named("Cbeta(beta=[p,2..])", &p).unwrap().unwrap();
    /// assert_eq!(c.text(), "Cbeta(beta=[3,2..])");
    /// assert!(MoveSet::parse_named("c0 > 0", &p).is_none());
    /// ```
    pub fn parse_named(
        text: &str,
        resolve: &dyn Fn(&str) -> Option<i64>,
    ) -> Option<Result<MoveSet>> {
        let t = text.trim();
        let radix_arg = |name: &str| -> Option<Result<MixedRadix>> {
            let rest = t.strip_prefix(name)?.trim_start();
            let inner = rest.strip_prefix('(')?.strip_suffix(')')?.trim();
            let value = inner
                .strip_prefix("beta")
                .map(|r| r.trim_start())
                .and_then(|r| r.strip_prefix('='))
                .unwrap_or(inner);
            Some(MixedRadix::parse_with(value.trim(), resolve))
        };
        if t == "C1" {
            return Some(Ok(MoveSet::Nim));
        }
        if let Some(beta) = radix_arg("Cbeta") {
            return Some(beta.map(MoveSet::CBeta));
        }
        radix_arg("Abeta").map(|beta| beta.map(MoveSet::ABeta))
    }

    /// Whether every move has non-negative components (a *positive* set).
    pub fn is_positive(&self) -> bool {
        match self {
            MoveSet::Nim | MoveSet::CBeta(_) | MoveSet::ABeta(_) => true,
            MoveSet::List(l) => l.iter().all(|c| c.iter().all(|&v| v >= 0)),
            MoveSet::Predicate { take_and_put, .. } => !take_and_put,
        }
    }

    /// Whether `c` is in the set (every set holds only vectors with Σcᵢ > 0).
    pub fn contains(&self, c: &[i64]) -> bool {
        if c.iter().map(|&v| v as i128).sum::<i128>() <= 0 {
            return false;
        }
        let natural = || {
            c.iter()
                .map(|&v| u64::try_from(v).ok())
                .collect::<Option<Vec<u64>>>()
        };
        match self {
            MoveSet::Nim => c.iter().filter(|&&v| v != 0).count() == 1 && c.iter().all(|&v| v >= 0),
            MoveSet::CBeta(beta) => natural().is_some_and(|n| in_c_beta(beta, &n)),
            MoveSet::ABeta(beta) => natural().is_some_and(|n| !in_f_beta(beta, &n)),
            MoveSet::List(l) => l.iter().any(|m| m == c),
            MoveSet::Predicate {
                formula,
                take_and_put,
            } => {
                (*take_and_put || c.iter().all(|&v| v >= 0))
                    && formula.eval(c).is_ok_and(|v| v != 0)
            }
        }
    }

    /// Canonical text (parsing it gives the same set).
    pub fn text(&self) -> String {
        match self {
            MoveSet::Nim => "C1".into(),
            MoveSet::CBeta(b) => format!("Cbeta(beta={b})"),
            MoveSet::ABeta(b) => format!("Abeta(beta={b})"),
            MoveSet::List(l) => {
                let items: Vec<String> = l
                    .iter()
                    .map(|c| {
                        format!(
                            "[{}]",
                            c.iter().map(i64::to_string).collect::<Vec<_>>().join(",")
                        )
                    })
                    .collect();
                format!("[{}]", items.join(","))
            }
            MoveSet::Predicate { formula, .. } => formula.text().to_string(),
        }
    }

    /// The mixed radix of a named σ^β set, if it is one.
    pub fn radix(&self) -> Option<&MixedRadix> {
        match self {
            MoveSet::CBeta(b) | MoveSet::ABeta(b) => Some(b),
            _ => None,
        }
    }
}

/// `[[1,0],[0,1]]` → the move vectors, each of `dim` components with positive sum.
fn parse_move_list(t: &str, dim: usize) -> Result<Vec<Vec<i64>>> {
    let bad = |why: String| Error::input(format!("moves '{}': {why}", crate::spec::show(t)));
    let inner = t
        .strip_prefix('[')
        .and_then(|s| s.strip_suffix(']'))
        .ok_or_else(|| bad("expected a list of moves like [[1,0],[0,1]]".into()))?;
    let mut out = Vec::new();
    for item in crate::spec::split_top_level(inner, t)? {
        let item = item.trim();
        let v = item
            .strip_prefix('[')
            .and_then(|s| s.strip_suffix(']'))
            .ok_or_else(|| {
                bad(format!(
                    "'{}' is not a move like [1,0]",
                    crate::spec::show(item)
                ))
            })?;
        let c: Vec<i64> = v
            .split(',')
            .map(|x| {
                x.trim().parse::<i64>().map_err(|_| {
                    bad(format!(
                        "'{}' is not an integer",
                        crate::spec::show(x.trim())
                    ))
                })
            })
            .collect::<Result<_>>()?;
        if c.len() != dim {
            return Err(bad(format!(
                "move {item} has {} components but there are {dim} heaps",
                c.len()
            )));
        }
        if c.iter().map(|&x| x as i128).sum::<i128>() <= 0 {
            return Err(bad(format!(
                "move {item} must take something: its components must sum to more than 0"
            )));
        }
        if c.iter().any(|&x| x.unsigned_abs() > 1 << 40) {
            return Err(bad(format!("move {item} has a component beyond 2^40")));
        }
        out.push(c);
    }
    if out.is_empty() {
        return Err(bad("the list of moves is empty".into()));
    }
    out.sort();
    out.dedup();
    Ok(out)
}

/// ord_β(Σcᵢ) = mord_β(C) (C ≠ 0): the condition defining C^β.
///
/// ```
/// use nimlab_engine::nimarith::MixedRadix;
/// use nimlab_games::takeaway::in_c_beta;
/// let two = MixedRadix::parse("[2..]").unwrap();
/// assert!(in_c_beta(&two, &[1, 2]));   // ord(3) = 0 = mord
/// assert!(!in_c_beta(&two, &[1, 1]));  // ord(2) = 1 ≠ 0
/// ```
pub fn in_c_beta(beta: &MixedRadix, c: &[u64]) -> bool {
    let sum: u128 = c.iter().map(|&v| v as u128).sum();
    if sum == 0 {
        return false;
    }
    let mord = c.iter().filter_map(|&v| beta.ord(v)).min();
    ord_u128(beta, sum) == mord
}

fn ord_u128(beta: &MixedRadix, mut n: u128) -> Option<usize> {
    if n == 0 {
        return None;
    }
    let mut level = 0;
    while n.is_multiple_of(beta.base(level) as u128) {
        n /= beta.base(level) as u128;
        level += 1;
    }
    Some(level)
}

/// F ∈ F^β = {F : σ^β(X + F) = σ^β(X) for some X} by Theorem 4.7 (2): σ₀^β(F) = 0 and
/// F̂ + r ∈ F^{β̂} for some r ∈ ρ(F). Evaluated level by level (no recursion): the
/// candidates at level L lie within ⌊F/β^L⌋ + {0,1}^m, so there are at most 2^m of
/// them, and once every component is ≤ 1 the level decides.
///
/// ```
/// use nimlab_engine::nimarith::MixedRadix;
/// use nimlab_games::takeaway::in_f_beta;
/// let three = MixedRadix::parse("[3..]").unwrap();
/// assert!(in_f_beta(&three, &[2, 4]));   // Example 4.6: witness X = (1, 2)
/// assert!(!in_f_beta(&three, &[2, 10])); // Example 4.8
/// ```
pub fn in_f_beta(beta: &MixedRadix, f: &[u64]) -> bool {
    f_beta_depth(beta, f, usize::MAX).is_some()
}

/// F ∈ F_L^β (the level-L approximation of Theorem 4.7; F_{−1} = {0}): `level` = L + 1
/// steps of the recursion reach 0. `level = 0` means L = −1.
pub fn in_f_beta_level(beta: &MixedRadix, f: &[u64], level_plus_one: usize) -> bool {
    f_beta_depth(beta, f, level_plus_one).is_some()
}

/// The number of recursion steps after which 0 is reached (F ∈ F_{steps−1}), within
/// `max_steps`; `None` if F ∉ F^β (or not within the steps).
fn f_beta_depth(beta: &MixedRadix, f: &[u64], max_steps: usize) -> Option<usize> {
    let m = f.len();
    let mut frontier: Vec<Vec<u64>> = vec![f.to_vec()];
    let mut level = 0usize;
    loop {
        if frontier.iter().any(|g| g.iter().all(|&v| v == 0)) {
            return Some(level);
        }
        if level >= max_steps || frontier.is_empty() {
            return None;
        }
        let b = beta.base(level);
        let mut next: Vec<Vec<u64>> = Vec::new();
        for g in &frontier {
            let digit_sum: u128 = g.iter().map(|&v| (v % b) as u128).sum();
            if !digit_sum.is_multiple_of(b as u128) {
                continue;
            }
            let hat: Vec<u64> = g.iter().map(|&v| v / b).collect();
            let free: Vec<usize> = (0..m).filter(|&i| g[i] % b != 0).collect();
            for mask in 0u64..1 << free.len() {
                let mut h = hat.clone();
                for (k, &i) in free.iter().enumerate() {
                    h[i] += mask >> k & 1;
                }
                next.push(h);
            }
        }
        next.sort_unstable();
        next.dedup();
        frontier = next;
        level += 1;
    }
}

/// C ∈ A^β by Theorem 4.7 (3): for the least L with max C ≤ β^{L+1} − β^L,
/// C ∉ F_L^β (C ∈ N^m).
///
/// ```
/// use nimlab_engine::nimarith::MixedRadix;
/// use nimlab_games::takeaway::in_a_beta;
/// let three = MixedRadix::parse("[3..]").unwrap();
/// assert!(in_a_beta(&three, &[2, 10]) && !in_a_beta(&three, &[2, 4]));
/// ```
pub fn in_a_beta(beta: &MixedRadix, c: &[u64]) -> bool {
    let max = c.iter().copied().max().unwrap_or(0) as u128;
    let mut place: u128 = 1;
    let mut level = 0;
    // β^L (β_L − 1) ≥ 2^L, so L ≤ 64 for u64 components.
    while place * (beta.base(level) as u128 - 1) < max {
        place *= beta.base(level) as u128;
        level += 1;
    }
    !in_f_beta_level(beta, c, level + 1)
}

/// A witness X ∈ [0, window)^m with σ^β(X + F) = σ^β(X), found by brute force (so
/// F ∈ F^β), or `None` if the window has none.
///
/// ```
/// use nimlab_engine::nimarith::MixedRadix;
/// use nimlab_games::takeaway::f_beta_witness;
/// let three = MixedRadix::parse("[3..]").unwrap();
/// assert!(f_beta_witness(&three, &[2, 4], 9).is_some());
/// assert_eq!(f_beta_witness(&three, &[2, 10], 27), None);
/// ```
pub fn f_beta_witness(beta: &MixedRadix, f: &[u64], window: u64) -> Option<Vec<u64>> {
    let m = f.len();
    let mut x = vec![0u64; m];
    let mut shifted = vec![0u64; m];
    loop {
        for i in 0..m {
            shifted[i] = x[i] + f[i];
        }
        if beta.sigma(&x).ok()? == beta.sigma(&shifted).ok()? {
            return Some(x);
        }
        let mut i = 0;
        loop {
            if i == m {
                return None;
            }
            x[i] += 1;
            if x[i] < window {
                break;
            }
            x[i] = 0;
            i += 1;
        }
    }
}

/// The take-away game Γ(P, C).
///
/// ```
/// use nimlab_engine::Solver;
/// use nimlab_games::parse_game;
/// // σ^3 is the Grundy function of Γ(N^2, C^(3,3,…)) (Theorem 4.3)
/// let g = parse_game("takeaway(dim=2, moves=Cbeta(beta=[3..]))").unwrap();
/// assert_eq!(Solver::new(&*g).grundy(&[4, 7]).unwrap(), 2); // 11₃ ⊕₃ 21₃ = 02₃
/// ```
pub struct Takeaway {
    dim: usize,
    moves: MoveSet,
    positions: Option<Formula>,
}

impl Takeaway {
    /// Γ(P, C) with `dim` heaps; `positions` is a condition over the coordinates
    /// (default: all of N^m).
    pub fn new(dim: usize, moves: MoveSet, positions: Option<&str>) -> Result<Takeaway> {
        if dim == 0 || dim > MAX_DIMENSION {
            return Err(Error::input(format!(
                "takeaway: dim must be 1..{MAX_DIMENSION}, got {dim}"
            )));
        }
        if let MoveSet::List(l) = &moves
            && l.iter().any(|c| c.len() != dim)
        {
            return Err(Error::input(
                "takeaway: a move has the wrong number of components",
            ));
        }
        let names = position_variables(dim);
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        let positions = positions
            .map(|t| {
                let f = Formula::compile(t, &refs).map_err(|e| {
                    Error::input(format!(
                        "takeaway: positions '{}': {e}",
                        crate::spec::show(t)
                    ))
                })?;
                if !f.is_condition() {
                    return Err(Error::input(format!(
                        "takeaway: positions '{}' must be a condition (a comparison, &&, ||, !)",
                        crate::spec::show(t)
                    )));
                }
                Ok(f)
            })
            .transpose()?;
        Ok(Takeaway {
            dim,
            moves,
            positions,
        })
    }

    /// The move set.
    pub fn moves(&self) -> &MoveSet {
        &self.moves
    }

    /// Whether `pos` is in P.
    pub fn in_positions(&self, pos: &[i64]) -> bool {
        in_p(self.positions.as_ref(), self.dim, pos)
    }

    /// The number of move vectors tried at `pos`.
    fn candidates(&self, pos: &[Coord]) -> f64 {
        match &self.moves {
            MoveSet::Nim => pos.iter().map(|&x| x as f64).sum(),
            MoveSet::List(l) => l.len() as f64,
            m if m.is_positive() => pos.iter().map(|&x| x as f64 + 1.0).product(),
            _ => {
                let s: f64 = pos.iter().map(|&x| x as f64).sum();
                (0..self.dim)
                    .map(|i| (s + i as f64) / (i as f64 + 1.0))
                    .product()
            }
        }
    }
}

/// The variables of a position predicate: the default coordinate names, then the
/// aliases x0, x1, … not already among them.
pub fn position_variables(dim: usize) -> Vec<String> {
    let mut names = default_coordinate_names(dim);
    for i in 0..dim {
        let alias = format!("x{i}");
        if !names.contains(&alias) {
            names.push(alias);
        }
    }
    names
}

/// Evaluates a position predicate made over [`position_variables`] (absent: N^m).
pub fn in_p(positions: Option<&Formula>, dim: usize, pos: &[i64]) -> bool {
    if pos.iter().any(|&v| v < 0) {
        return false;
    }
    match positions {
        None => true,
        Some(f) => {
            // For 1 or 2 heaps the names (n; x, y) come first, then the aliases x0, x1.
            let mut vals = pos.to_vec();
            if dim <= 2 {
                vals.extend_from_slice(pos);
            }
            f.eval(&vals).is_ok_and(|v| v != 0)
        }
    }
}

/// Calls `visit(C)` for every move vector C with X − C ∈ N^m and Σcᵢ > 0 that a set of
/// this kind can contain: single heaps (C_\[1\]), the box \[0, X\] (positive sets), the
/// list, or every Y ∈ N^m with ΣY < ΣX (take-and-put predicates).
pub fn for_each_candidate(moves: &MoveSet, pos: &[Coord], visit: &mut dyn FnMut(&[i64])) {
    let m = pos.len();
    let x: Vec<i64> = pos.iter().map(|&v| v as i64).collect();
    match moves {
        MoveSet::Nim => {
            let mut c = vec![0i64; m];
            for i in 0..m {
                for v in 1..=x[i] {
                    c[i] = v;
                    visit(&c);
                }
                c[i] = 0;
            }
        }
        MoveSet::List(l) => {
            for c in l {
                if c.iter().zip(&x).all(|(&ci, &xi)| ci <= xi) {
                    visit(c);
                }
            }
        }
        s if s.is_positive() => {
            let mut c = vec![0i64; m];
            loop {
                let mut i = 0;
                loop {
                    if i == m {
                        return;
                    }
                    if c[i] < x[i] {
                        c[i] += 1;
                        break;
                    }
                    c[i] = 0;
                    i += 1;
                }
                visit(&c);
            }
        }
        _ => {
            // Y ∈ N^m with ΣY < ΣX; C = X − Y.
            let s: i64 = x.iter().sum();
            let mut y = vec![0i64; m];
            let mut c = vec![0i64; m];
            let mut ysum = 0i64;
            loop {
                if ysum < s {
                    for i in 0..m {
                        c[i] = x[i] - y[i];
                    }
                    visit(&c);
                }
                let mut i = 0;
                loop {
                    if i == m {
                        return;
                    }
                    if ysum + 1 < s {
                        y[i] += 1;
                        ysum += 1;
                        break;
                    }
                    ysum -= y[i];
                    y[i] = 0;
                    i += 1;
                }
            }
        }
    }
}

impl Game for Takeaway {
    fn spec(&self) -> String {
        let mut s = format!("takeaway(dim={},moves={}", self.dim, self.moves.text());
        if let MoveSet::Predicate {
            take_and_put: true, ..
        } = self.moves
        {
            s.push_str(",take_and_put=true");
        }
        if let Some(p) = &self.positions {
            s.push_str(&format!(",positions={}", p.text()));
        }
        s.push(')');
        s
    }
    fn dimension(&self) -> usize {
        self.dim
    }
    fn is_downward_closed(&self) -> bool {
        self.moves.is_positive()
    }
    fn position_error(&self, pos: &[Coord]) -> Option<String> {
        let n = self.candidates(pos);
        if n > MAX_CANDIDATES {
            return Some(format!(
                "the moves are found by trying about {n:.1e} move vectors here (at most \
                 {MAX_CANDIDATES:.0e}); use smaller positions"
            ));
        }
        let p: Vec<i64> = match pos.iter().map(|&c| i64::try_from(c)).collect() {
            Ok(v) => v,
            Err(_) => return Some("coordinates must be below 2^63".into()),
        };
        if !self.in_positions(&p) {
            return Some("the condition positions is false here".into());
        }
        None
    }
    fn for_each_option(&self, pos: &[Coord], visit: &mut dyn FnMut(&[Coord])) {
        if self.candidates(pos) > MAX_CANDIDATES {
            return; // refused by position_error
        }
        let mut target = vec![0i64; self.dim];
        let mut out = vec![0 as Coord; self.dim];
        for_each_candidate(&self.moves, pos, &mut |c| {
            for i in 0..c.len() {
                target[i] = pos[i] as i64 - c[i];
            }
            if self.moves.contains(c) && self.in_positions(&target) {
                for (o, &t) in out.iter_mut().zip(&target) {
                    *o = t as Coord;
                }
                visit(&out);
            }
        });
    }
    fn coordinate_names(&self) -> Vec<String> {
        default_coordinate_names(self.dim)
    }
    fn max_options(&self, pos: &[Coord]) -> Option<u128> {
        Some(self.candidates(pos).min(1e30) as u128)
    }
    fn capabilities(&self) -> nimlab_engine::capability::Capabilities<'_> {
        use crate::relation::{gamma_relation, GammaMoves};
        let (moves, take_and_put) = match &self.moves {
            MoveSet::List(l) => (GammaMoves::List(l), true),
            MoveSet::Predicate {
                formula,
                take_and_put,
            } => (GammaMoves::Predicate(formula.text()), *take_and_put),
            named => (GammaMoves::Named(named), false),
        };
        nimlab_engine::capability::Capabilities {
            move_relation: gamma_relation(
                &self.coordinate_names(),
                moves,
                take_and_put,
                self.positions.as_ref().map(|p| p.text()),
                &[],
            ),
            ..nimlab_engine::capability::Capabilities::none()
        }
    }
}

fn build(args: &Args) -> Result<Box<dyn Game>> {
    let dim = args.int("dim", 1)?;
    if dim as usize > MAX_DIMENSION {
        return Err(Error::input(format!(
            "takeaway: dim must be 1..{MAX_DIMENSION}, got {dim}"
        )));
    }
    let take_and_put = match args.raw("take_and_put")?.trim() {
        "true" => true,
        "false" => false,
        other => {
            return Err(Error::input(format!(
                "takeaway: take_and_put must be true or false, got '{}'",
                crate::spec::show(other)
            )))
        }
    };
    let moves = MoveSet::parse(&args.raw("moves")?, dim as usize, take_and_put)?;
    let positions = args.optional_raw("positions");
    Ok(Box::new(Takeaway::new(
        dim as usize,
        moves,
        positions.as_deref(),
    )?))
}

/// The `takeaway` family.
pub static FAMILY: Family = Family {
    name: "takeaway",
    summary: "Take-away game Γ(P, C): m heaps, move X → X − C for C in a move set (C1, Cbeta, Abeta, list or condition)",
    params: &[
        Param {
            name: "dim",
            kind: "integer 1..6",
            default: Some("2"),
            example: None,
            help: "number of heaps m",
        },
        Param {
            name: "moves",
            kind: "C1 | Cbeta(beta=[…]) | Abeta(beta=[…]) | [[1,0],…] | condition on c0, c1, …",
            default: Some("C1"),
            example: None,
            help: "the move set C; a mixed radix is written [60,24,7..] (the base before .. repeats)",
        },
        Param {
            name: "positions",
            kind: "condition on the coordinates (x0, x1, …)",
            default: None,
            example: None,
            help: "the positions P (default: all of N^m); a move must land in P",
        },
        Param {
            name: "take_and_put",
            kind: "true | false",
            default: Some("false"),
            example: None,
            help: "whether a condition's move vectors may have negative components",
        },
    ],
    position_syntax: "x0,x1,… (one natural number per heap)",
    seed: "Y. Irie, \"Take-away games with the same Sprague–Grundy function as Nim\" (in \
         Japanese, year uncertain), §§2–4 [Irie]",
    build,
    theorems: crate::sg_system::theorems,
    sweep: None,
};
