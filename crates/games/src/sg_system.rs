//! Sprague–Grundy systems (docs/theory.md §3): is a move set C the SG system of a
//! function φ, i.e. does Γ(P, C) have Grundy function φ? Equivalently, for all X ∈ P:
//!
//! * (SG1) C ∈ C, X − C ∈ P ⇒ φ(X − C) ≠ φ(X);
//! * (SG2) 0 ≤ h < φ(X) ⇒ some C ∈ C has X − C ∈ P and φ(X − C) = h.
//!
//! Both are statements about infinite sets; here they are checked for every X in a box
//! [0, N)^m (φ itself is evaluated wherever a move lands), and every answer says so.
//! Also: which moves a system can lose on the box (minimal systems), the least weight
//! of a system (Theorem 4.4) and the comparison with the maximum system A^β.

use crate::takeaway::{
    for_each_candidate, in_a_beta, in_c_beta, in_f_beta, in_f_beta_level, in_p, position_variables,
    MoveSet,
};
use nimlab_engine::nimarith::{nim_sum, nim_sum_base, nimhoff, MixedRadix};
use nimlab_engine::theorem::ProofClaim;
use nimlab_engine::theorem::Verdict;
use nimlab_engine::{Error, Result, Theorem};
use nimlab_formula::Formula;
use rayon::prelude::*;
use rustc_hash::FxHashMap;

/// A function φ: N^m → N given by name or as a formula.
#[derive(Debug, Clone)]
pub enum Phi {
    /// σ^β (mixed-radix nim sum of the coordinates).
    Sigma(MixedRadix),
    /// The nim sum σ² (XOR).
    Nimsum,
    /// Flanigan's σ^b.
    NimsumB(u64),
    /// Fraenkel–Lorberbom's σ^\[b\].
    Nimhoff(u64),
    /// A formula over the coordinates (x0, x1, …; x, y for two).
    Formula(Formula),
}

impl Phi {
    /// Parses `nimsum`, `sigma(beta=[3..])`, `nimsum_b(b=3)`, `nimhoff(b=3)` or a
    /// formula over the coordinates of `dim` heaps.
    ///
    /// ```
    /// use nimlab_games::sg_system::Phi;
    /// let phi = Phi::parse("sigma(beta=[60,24,7..])", 2).unwrap();
    /// assert_eq!(phi.eval(&[1000, 2000]), Some(1500)); // Example 4.1
    /// assert_eq!(Phi::parse("x0 xor x1", 2).unwrap().eval(&[5, 3]), Some(6));
    /// ```
    pub fn parse(text: &str, dim: usize) -> Result<Phi> {
        let t = text.trim();
        let arg = |name: &str, key: &str| -> Option<&str> {
            let inner = t
                .strip_prefix(name)?
                .trim_start()
                .strip_prefix('(')?
                .strip_suffix(')')?;
            let inner = inner.trim();
            Some(
                inner
                    .strip_prefix(key)
                    .map(str::trim_start)
                    .and_then(|r| r.strip_prefix('='))
                    .unwrap_or(inner)
                    .trim(),
            )
        };
        let int = |v: &str, what: &str| -> Result<u64> {
            v.parse::<u64>()
                .ok()
                .filter(|&b| (2..=1 << 32).contains(&b))
                .ok_or_else(|| {
                    Error::input(format!(
                        "{what} needs b ≥ 2, got '{}'",
                        crate::spec::show(v)
                    ))
                })
        };
        match t {
            "nimsum" | "sigma2" => return Ok(Phi::Nimsum),
            _ => {}
        }
        if let Some(v) = arg("sigma", "beta") {
            // `sigma(beta=[…])` alone names σ^β; with more arguments it is a formula.
            if v.starts_with('[') && v.ends_with(']') {
                return Ok(Phi::Sigma(MixedRadix::parse(v)?));
            }
        }
        if let Some(v) = arg("nimsum_b", "b")
            && !v.contains(',')
        {
            return Ok(Phi::NimsumB(int(v, "nimsum_b")?));
        }
        if let Some(v) = arg("nimhoff", "b") {
            return Ok(Phi::Nimhoff(int(v, "nimhoff")?));
        }
        let names = position_variables(dim);
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        let f = Formula::compile(t, &refs).map_err(|e| {
            Error::input(format!(
                "phi '{}': {e} (named functions: nimsum, sigma(beta=[…]), nimsum_b(b=…), nimhoff(b=…))",
                crate::spec::show(t)
            ))
        })?;
        Ok(Phi::Formula(f))
    }

    /// φ(X), or `None` where it is undefined (a formula failing or negative).
    pub fn eval(&self, x: &[u64]) -> Option<u64> {
        match self {
            Phi::Nimsum => Some(nim_sum(x)),
            Phi::Sigma(b) => b.sigma(x).ok(),
            Phi::NimsumB(b) => nim_sum_base(*b, x).ok(),
            Phi::Nimhoff(b) => nimhoff(*b, x).ok(),
            Phi::Formula(f) => {
                let mut vals: Vec<i64> = x
                    .iter()
                    .map(|&v| i64::try_from(v).ok())
                    .collect::<Option<_>>()?;
                if x.len() <= 2 {
                    vals.extend_from_within(..);
                }
                f.eval(&vals).ok().and_then(|v| u64::try_from(v).ok())
            }
        }
    }

    /// Canonical text.
    pub fn text(&self) -> String {
        match self {
            Phi::Nimsum => "nimsum".into(),
            Phi::Sigma(b) => format!("sigma(beta={b})"),
            Phi::NimsumB(b) => format!("nimsum_b(b={b})"),
            Phi::Nimhoff(b) => format!("nimhoff(b={b})"),
            Phi::Formula(f) => f.text().to_string(),
        }
    }

    /// The mixed radix β when φ is σ^β (σ² = σ^(2,2,…), σ^b, σ^\[b\] = σ^(b,2,2,…)).
    pub fn radix(&self) -> Option<MixedRadix> {
        match self {
            Phi::Nimsum => MixedRadix::new(vec![2]).ok(),
            Phi::Sigma(b) => Some(b.clone()),
            Phi::NimsumB(b) => MixedRadix::new(vec![*b]).ok(),
            Phi::Nimhoff(b) => MixedRadix::new(vec![*b, 2]).ok(),
            Phi::Formula(_) => None,
        }
    }
}

/// The question: is `moves` an SG system of `phi` on P, checked on the box [0, size)^dim?
pub struct SystemQuery<'a> {
    /// φ.
    pub phi: &'a Phi,
    /// C.
    pub moves: &'a MoveSet,
    /// P as a condition over the coordinates (`None`: N^m).
    pub positions: Option<&'a Formula>,
    /// m.
    pub dim: usize,
    /// N: the box is [0, N)^m.
    pub size: u64,
    /// Run even if the work estimate is very long.
    pub force: bool,
}

/// What fails at the first position (in index order, first coordinate fastest).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Violation {
    /// (SG1): a move C from X lands on Y = X − C with φ(Y) = φ(X).
    Sg1 {
        /// X.
        position: Vec<u64>,
        /// C.
        mv: Vec<i64>,
        /// Y = X − C.
        target: Vec<u64>,
        /// φ(X) = φ(Y).
        value: u64,
    },
    /// (SG2): no move from X reaches value h < φ(X).
    Sg2 {
        /// X.
        position: Vec<u64>,
        /// φ(X).
        value: u64,
        /// The least h < φ(X) not reached.
        missing: u64,
    },
    /// φ is undefined at a position of P that the check needs.
    Undefined {
        /// The position.
        position: Vec<u64>,
    },
}

impl Violation {
    /// One line for people.
    pub fn describe(&self) -> String {
        let p = |v: &[u64]| {
            format!(
                "({})",
                v.iter().map(u64::to_string).collect::<Vec<_>>().join(",")
            )
        };
        match self {
            Violation::Sg1 {
                position,
                mv,
                target,
                value,
            } => format!(
                "(SG1) fails: the move ({}) goes from {} to {}, and φ = {value} at both",
                mv.iter().map(i64::to_string).collect::<Vec<_>>().join(","),
                p(position),
                p(target)
            ),
            Violation::Sg2 {
                position,
                value,
                missing,
            } => format!(
                "(SG2) fails: φ{} = {value} but no move reaches a position with φ = {missing}",
                p(position)
            ),
            Violation::Undefined { position } => format!("φ is undefined at {}", p(position)),
        }
    }
}

/// The answer of [`check_system`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SystemReport {
    /// `[0,N)^m`.
    pub window: String,
    /// Positions of P in the box that were checked (all of them if it holds).
    pub positions: u64,
    /// The first violation, if any.
    pub violation: Option<Violation>,
}

impl SystemReport {
    /// Whether (SG1) and (SG2) hold on the whole box.
    pub fn holds(&self) -> bool {
        self.violation.is_none()
    }
}

/// Largest box (cells) a check builds tables for.
pub const MAX_CELLS: u64 = 1 << 22;
/// Work (move vectors tried) allowed without `force`: about a minute.
pub const WORK_LIMIT: f64 = 3e10;

fn window(dim: usize, size: u64) -> String {
    if dim == 1 {
        format!("[0,{size})")
    } else {
        format!("[0,{size})^{dim}")
    }
}

/// The box [0, size)^dim: cells in index order, first coordinate fastest.
struct BoxIndex {
    dim: usize,
    size: u64,
    cells: usize,
}

/// Bits per packed coordinate: the coordinate, plus one guard bit above it.
fn field_width(size: u64) -> u32 {
    (64 - size.saturating_sub(1).leading_zeros()).max(1) + 1
}

impl BoxIndex {
    fn new(dim: usize, size: u64) -> Result<BoxIndex> {
        let cells = (size as u128)
            .checked_pow(dim as u32)
            .filter(|&c| c <= MAX_CELLS as u128);
        let cells = cells.ok_or_else(|| {
            Error::input(format!(
                "the box {} is too large for an SG-system check (at most {MAX_CELLS} cells)",
                window(dim, size)
            ))
        })?;
        if size >= 1 << 20 {
            return Err(Error::input("the box side must be below 2^20"));
        }
        Ok(BoxIndex {
            dim,
            size,
            cells: cells as usize,
        })
    }
    fn coords(&self, mut i: usize) -> Vec<u64> {
        let mut out = vec![0; self.dim];
        for c in out.iter_mut() {
            *c = i as u64 % self.size;
            i /= self.size as usize;
        }
        out
    }
    /// Coordinates packed side by side, each with a guard bit above it, so Y ≤ X
    /// componentwise is one subtraction: ((X | G) − Y) & G == G.
    fn pack(&self, x: &[u64]) -> u128 {
        let w = field_width(self.size);
        x.iter()
            .enumerate()
            .map(|(i, &v)| (v as u128) << (w as usize * i))
            .sum()
    }
    fn guard(&self) -> u128 {
        let w = field_width(self.size) as usize;
        (0..self.dim).map(|i| 1u128 << (w * i + w - 1)).sum()
    }
}

/// Checks (SG1) and (SG2) at every X ∈ P in the box.
///
/// ```
/// use nimlab_games::sg_system::{check_system, Phi, SystemQuery};
/// use nimlab_games::takeaway::MoveSet;
/// let phi = Phi::parse("sigma(beta=[3..])", 2).unwrap();
/// let cbeta = MoveSet::parse("Cbeta(beta=[3..])", 2, false).unwrap();
/// let q = SystemQuery { phi: &phi, moves: &cbeta, positions: None, dim: 2, size: 27, force: false };
/// assert!(check_system(&q).unwrap().holds()); // Theorem 4.3
/// let nim = MoveSet::parse("C1", 2, false).unwrap();
/// let q = SystemQuery { moves: &nim, ..q };
/// assert!(!check_system(&q).unwrap().holds()); // σ³ needs diagonal moves: (1,1) → (0,0)
/// ```
pub fn check_system(q: &SystemQuery) -> Result<SystemReport> {
    if q.dim == 0 || q.dim > crate::takeaway::MAX_DIMENSION {
        return Err(Error::input(format!(
            "the dimension must be 1..{}, got {}",
            crate::takeaway::MAX_DIMENSION,
            q.dim
        )));
    }
    let bx = BoxIndex::new(q.dim, q.size)?;
    if q.moves.is_positive() && !matches!(q.moves, MoveSet::List(_)) {
        check_positive(q, &bx)
    } else {
        check_general(q, &bx)
    }
}

fn work_check(work: f64, force: bool, what: &str) -> Result<()> {
    if work > WORK_LIMIT && !force {
        return Err(Error::TooLong {
            what: what.to_string(),
            seconds: (work / 3e8) as u64,
        });
    }
    Ok(())
}

/// Positive sets: every move from the box stays in it, so φ and membership are
/// tabulated once; (SG1) compares X only with the positions of its own φ-value, (SG2)
/// tries single-heap moves first and then the positions of each missing value.
fn check_positive(q: &SystemQuery, bx: &BoxIndex) -> Result<SystemReport> {
    let n = bx.cells;
    // Pairs (Y ≤ X) with equal values are the dominant work: about cells²/(2·values).
    work_check(
        n as f64 * n as f64 / 64.0,
        q.force,
        &format!("an SG-system check on {}", window(q.dim, q.size)),
    )?;
    const OUT: u64 = u64::MAX;
    let coords: Vec<Vec<u64>> = (0..n).map(|i| bx.coords(i)).collect();
    let phi: Vec<u64> = coords
        .par_iter()
        .map(|x| {
            let xi: Vec<i64> = x.iter().map(|&v| v as i64).collect();
            if !in_p(q.positions, q.dim, &xi) {
                return OUT;
            }
            q.phi.eval(x).map_or(OUT - 1, |v| v.min(OUT - 2))
        })
        .collect();
    if let Some(i) = phi.iter().position(|&v| v == OUT - 1) {
        return Ok(SystemReport {
            window: window(q.dim, q.size),
            positions: 0,
            violation: Some(Violation::Undefined {
                position: coords[i].clone(),
            }),
        });
    }
    let mut member: Vec<bool> = coords
        .par_iter()
        .map(|c| {
            let ci: Vec<i64> = c.iter().map(|&v| v as i64).collect();
            q.moves.contains(&ci)
        })
        .collect();
    member[0] = false; // the scan relies on it
    let width = field_width(q.size) as usize * q.dim;
    let first = if width <= 32 {
        scan::<u32>(q, bx, &coords, &phi, &member, true)
    } else if width <= 64 {
        scan::<u64>(q, bx, &coords, &phi, &member, true)
    } else {
        scan::<u128>(q, bx, &coords, &phi, &member, true)
    };
    let positions = match &first {
        None => phi.iter().filter(|&&v| v != OUT).count() as u64,
        Some(_) => 0,
    };
    Ok(SystemReport {
        window: window(q.dim, q.size),
        positions,
        violation: first,
    })
}

/// Test hook, not part of the API: the (SG1)/(SG2) scan of [`check_system`] for a
/// positive set on the box [0, size)^dim, with φ (every value defined) and membership
/// tabulated over the whole box, packed positions held in a `bits`-bit integer (32,
/// 64 or 128) and membership looked up by the packed move or not, so that every
/// variant can be compared.
#[doc(hidden)]
pub fn scan_variant(
    q: &SystemQuery,
    bits: u32,
    packed_membership: bool,
) -> Result<Option<Violation>> {
    let bx = BoxIndex::new(q.dim, q.size)?;
    let coords: Vec<Vec<u64>> = (0..bx.cells).map(|i| bx.coords(i)).collect();
    let values: Vec<u64> = coords
        .iter()
        .map(|x| {
            q.phi
                .eval(x)
                .ok_or_else(|| Error::input(format!("φ is undefined at {x:?}")))
        })
        .collect::<Result<_>>()?;
    let member: Vec<bool> = coords
        .iter()
        .map(|c| {
            q.moves
                .contains(&c.iter().map(|&v| v as i64).collect::<Vec<_>>())
        })
        .collect();
    let (coords, values, member) = (&coords, &values, &member);
    match bits {
        32 => Ok(scan::<u32>(
            q,
            &bx,
            coords,
            values,
            member,
            packed_membership,
        )),
        64 => Ok(scan::<u64>(
            q,
            &bx,
            coords,
            values,
            member,
            packed_membership,
        )),
        128 => Ok(scan::<u128>(
            q,
            &bx,
            coords,
            values,
            member,
            packed_membership,
        )),
        _ => Err(Error::input(format!("no scan packs into {bits} bits"))),
    }
}

/// Test hook, not part of the API: the check of [`check_system`] for any set (every
/// candidate move of every position), whatever the set.
#[doc(hidden)]
pub fn check_general_variant(q: &SystemQuery) -> Result<SystemReport> {
    check_general(q, &BoxIndex::new(q.dim, q.size)?)
}

/// Packed coordinates: u32, u64 or u128, the smallest that holds them.
trait Packed:
    Copy
    + Send
    + Sync
    + Eq
    + std::ops::BitOr<Output = Self>
    + std::ops::BitAnd<Output = Self>
    + std::ops::BitXor<Output = Self>
    + std::ops::Sub<Output = Self>
    + std::ops::Shr<usize, Output = Self>
{
    fn from_u128(v: u128) -> Self;
    fn low(self) -> u64;
}
impl Packed for u32 {
    fn from_u128(v: u128) -> Self {
        v as u32
    }
    fn low(self) -> u64 {
        self as u64
    }
}
impl Packed for u64 {
    fn from_u128(v: u128) -> Self {
        v as u64
    }
    fn low(self) -> u64 {
        self
    }
}
impl Packed for u128 {
    fn from_u128(v: u128) -> Self {
        v
    }
    fn low(self) -> u64 {
        self as u64
    }
}

/// Most bits of a packed position for which membership is a bitset indexed by the
/// packed move itself (2^24 bits = 2 MiB); beyond, the move is unpacked to its index.
const PACKED_MEMBERSHIP_BITS: usize = 24;

/// The (SG1)/(SG2) scan of [`check_positive`]: the first X (index order) that fails.
fn scan<T: Packed>(
    q: &SystemQuery,
    bx: &BoxIndex,
    coords: &[Vec<u64>],
    phi: &[u64],
    member: &[bool],
    packed_membership: bool,
) -> Option<Violation> {
    // Over 100 lines because it is the hot (SG1)/(SG2) scan (bench takeaway): the
    // packed index, membership bits and witness search are closures over one set of
    // locals that the branch-free inner loop reads.
    const OUT: u64 = u64::MAX;
    let n = bx.cells;
    let m = q.dim;
    let side = q.size as usize;
    let w = field_width(q.size) as usize;
    let field_mask = (1u64 << (w - 1)) - 1;
    let packed: Vec<T> = coords.iter().map(|x| T::from_u128(bx.pack(x))).collect();
    let guard = T::from_u128(bx.guard());
    // Membership of a move, looked up by its packed form (guard bits clear).
    let small = packed_membership && w * m <= PACKED_MEMBERSHIP_BITS;
    let mut bits = vec![
        0u64;
        if small {
            (1usize << (w * m)).div_ceil(64)
        } else {
            n.div_ceil(64)
        }
    ];
    for (i, &b) in member.iter().enumerate() {
        if b {
            let k = if small { packed[i].low() as usize } else { i };
            bits[k >> 6] |= 1 << (k & 63);
        }
    }
    bits[0] &= !1; // 0 ∉ C: incomparable pairs look up entry 0
    let unpack_index = |p: u64| -> usize {
        (0..m).rev().fold(0usize, |acc, i| {
            acc * side + ((p >> (w * i)) as usize & field_mask as usize)
        })
    };
    let is_member = |c: u64| -> bool {
        let k = if small { c as usize } else { unpack_index(c) };
        bits[k >> 6] >> (k & 63) & 1 == 1
    };
    // Positions of each value in index order (packed); `starts[t]` is where the
    // positions with last coordinate t begin (within them the second-to-last
    // coordinate never decreases).
    struct Group<T> {
        pk: Vec<T>,
        starts: Vec<u32>,
    }
    let mut groups: FxHashMap<u64, Group<T>> = FxHashMap::default();
    for (i, &v) in phi.iter().enumerate() {
        if v != OUT {
            let g = groups.entry(v).or_insert_with(|| Group {
                pk: Vec::new(),
                starts: vec![0; side + 1],
            });
            g.pk.push(packed[i]);
            g.starts[coords[i][m - 1] as usize + 1] = g.pk.len() as u32;
        }
    }
    for g in groups.values_mut() {
        // Empty blocks start where the previous one ended.
        for t in 1..=side {
            g.starts[t] = g.starts[t].max(g.starts[t - 1]);
        }
    }
    let empty: Group<T> = Group {
        pk: Vec::new(),
        starts: vec![0; side + 1],
    };
    let le = |y: usize, x: usize| ((packed[x] | guard) - packed[y]) & guard == guard;
    let second = |p: T| (p >> (w * (m - 2))).low() & field_mask;
    // A Y of `group` with Y ≤ X componentwise and X − Y ∈ C (Y = X never counts:
    // 0 ∉ C). Only the blocks of last coordinate ≤ x_{m−1} are read, and in each only
    // the part whose second-to-last coordinate is ≤ x_{m−2}; nearest blocks first
    // (witnesses of (SG2) are usually close to X).
    let witness = |g: &Group<T>, xi: usize| -> Option<usize> {
        let x = &coords[xi];
        let top = packed[xi] | guard;
        for t in (0..=x[m - 1] as usize).rev() {
            let (a, b) = (g.starts[t] as usize, g.starts[t + 1] as usize);
            let block = &g.pk[a..b];
            let block = if m >= 2 {
                &block[..block.partition_point(|&p| second(p) <= x[m - 2])]
            } else {
                block
            };
            // Branch-free over the block (comparability is a coin flip the predictor
            // cannot learn): an incomparable Y looks up the move 0, which is not in C.
            let mut found = 0u64;
            for &p in block {
                let diff = top - p;
                let comparable = ((diff & guard) == guard) as u64;
                let c = (diff ^ guard).low() * comparable;
                found |= is_member(c) as u64;
            }
            if found != 0 {
                for &p in block.iter().rev() {
                    let diff = top - p;
                    if (diff & guard) == guard && is_member((diff ^ guard).low()) {
                        return Some(unpack_index(p.low()));
                    }
                }
            }
        }
        None
    };
    // Chunks of positions, each worker keeping the moves that recently were witnesses
    // of (SG2): they are tried first (most witnesses recur from one X to the next).
    const CHUNK: usize = 2048;
    const HINTS: usize = 48;
    let check_one = |xi: usize, hints: &mut Vec<usize>| -> Option<Violation> {
        let v = phi[xi];
        if v == OUT {
            return None;
        }
        let x = &coords[xi];
        // (SG1)
        if let Some(yi) = witness(groups.get(&v).unwrap_or(&empty), xi) {
            let c: Vec<i64> = x
                .iter()
                .zip(&coords[yi])
                .map(|(&a, &b)| a as i64 - b as i64)
                .collect();
            return Some(Violation::Sg1 {
                position: x.clone(),
                mv: c,
                target: coords[yi].clone(),
                value: v,
            });
        }
        if v == 0 {
            return None;
        }
        // (SG2): more values than positions below X cannot all be reached.
        let below: u64 = x.iter().map(|&c| c + 1).product();
        if v >= below {
            let mut seen = vec![false; below as usize + 1];
            for yi in 0..xi {
                if le(yi, xi)
                    && member[xi - yi]
                    && phi[yi] != OUT
                    && (phi[yi] as usize) < seen.len()
                {
                    seen[phi[yi] as usize] = true;
                }
            }
            let missing = seen.iter().position(|&s| !s).unwrap_or(seen.len()) as u64;
            return Some(Violation::Sg2 {
                position: x.clone(),
                value: v,
                missing,
            });
        }
        // Single-heap moves first (they reach most values for nim-like φ), then the
        // positions of each value still missing.
        let mut hit = vec![false; v as usize];
        let mut stride = 1usize;
        for &c in x.iter() {
            for k in 1..=c as usize {
                let yi = xi - k * stride;
                if member[k * stride] && phi[yi] < v {
                    hit[phi[yi] as usize] = true;
                }
            }
            stride *= q.size as usize;
        }
        let top = packed[xi] | guard;
        for &c in hints.iter() {
            if (top - packed[c]) & guard == guard {
                let w = phi[xi - c];
                if w < v {
                    hit[w as usize] = true;
                }
            }
        }
        for h in 0..v {
            if hit[h as usize] {
                continue;
            }
            match witness(groups.get(&h).unwrap_or(&empty), xi) {
                Some(yi) => {
                    if hints.len() == HINTS {
                        hints.pop();
                    }
                    hints.insert(0, xi - yi);
                }
                None => {
                    return Some(Violation::Sg2 {
                        position: x.clone(),
                        value: v,
                        missing: h,
                    })
                }
            }
        }
        None
    };
    (0..n.div_ceil(CHUNK))
        .into_par_iter()
        .map_init(Vec::new, |hints, chunk| {
            (chunk * CHUNK..((chunk + 1) * CHUNK).min(n)).find_map(|xi| check_one(xi, hints))
        })
        .find_map_first(|r| r)
}

/// Any set (lists, take-and-put conditions): every candidate move of every X, φ
/// evaluated wherever the move lands.
fn check_general(q: &SystemQuery, bx: &BoxIndex) -> Result<SystemReport> {
    let n = bx.cells;
    let s = (q.dim as f64) * (q.size as f64);
    let per = match q.moves {
        MoveSet::List(l) => l.len() as f64,
        m if m.is_positive() => (q.size as f64 + 1.0).powi(q.dim as i32),
        _ => (0..q.dim)
            .map(|i| (s + i as f64) / (i as f64 + 1.0))
            .product(),
    };
    work_check(
        n as f64 * per,
        q.force,
        &format!("an SG-system check on {}", window(q.dim, q.size)),
    )?;
    let result: Vec<Option<(Option<Violation>, bool)>> = (0..n)
        .into_par_iter()
        .map(|xi| {
            let x = bx.coords(xi);
            let xs: Vec<i64> = x.iter().map(|&v| v as i64).collect();
            if !in_p(q.positions, q.dim, &xs) {
                return None;
            }
            let v = match q.phi.eval(&x) {
                Some(v) => v,
                None => return Some((Some(Violation::Undefined { position: x }), false)),
            };
            let mut hit = vec![false; (v as usize).min(1 << 24)];
            let mut bad: Option<Violation> = None;
            let mut y = vec![0i64; q.dim];
            for_each_candidate(q.moves, &x, &mut |c| {
                if bad.is_some() || !q.moves.contains(c) {
                    return;
                }
                for i in 0..c.len() {
                    y[i] = xs[i] - c[i];
                }
                if !in_p(q.positions, q.dim, &y) {
                    return;
                }
                let yu: Vec<u64> = y.iter().map(|&t| t as u64).collect();
                match q.phi.eval(&yu) {
                    None => bad = Some(Violation::Undefined { position: yu }),
                    Some(w) if w == v => {
                        bad = Some(Violation::Sg1 {
                            position: x.clone(),
                            mv: c.to_vec(),
                            target: yu,
                            value: v,
                        })
                    }
                    Some(w) if (w as usize) < hit.len() => hit[w as usize] = true,
                    _ => {}
                }
            });
            if bad.is_none()
                && let Some(h) = (0..v).find(|&h| !hit.get(h as usize).copied().unwrap_or(false))
            {
                bad = Some(Violation::Sg2 {
                    position: x.clone(),
                    value: v,
                    missing: h,
                });
            }
            Some((bad, true))
        })
        .collect();
    let violation = result.iter().flatten().find_map(|(v, _)| v.clone());
    let positions = if violation.is_some() {
        0
    } else {
        result.iter().flatten().count() as u64
    };
    Ok(SystemReport {
        window: window(q.dim, q.size),
        positions,
        violation,
    })
}

/// The Hamming weight of a move: its number of non-zero components.
pub fn hamming_weight(c: &[i64]) -> usize {
    c.iter().filter(|&&v| v != 0).count()
}

/// Which moves of a positive set matter on the box (the set must be a system there).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MinimalReport {
    /// Moves of the set inside the box.
    pub moves_in_box: usize,
    /// Moves that are the only way from some X to some value h < φ(X): every system
    /// inside the set contains them.
    pub necessary: Vec<Vec<u64>>,
    /// Whether the necessary moves alone form a system on the box (then it is the
    /// unique minimal system inside the set).
    pub necessary_suffice: bool,
    /// A minimal system inside the set, found greedily (largest moves dropped first).
    pub minimal: Vec<Vec<u64>>,
    /// wt of the set (restricted to the box): the largest Hamming weight.
    pub weight: usize,
    /// wt of the greedy minimal system.
    pub minimal_weight: usize,
    /// The least w such that the moves of weight ≤ w still form a system (the least
    /// weight of a system inside the set, Theorem 4.4 (1) when the set is A^β).
    pub least_weight: usize,
}

/// Minimal systems inside a positive set on the box (the set must satisfy (SG1) and
/// (SG2) there: check with [`check_system`] first). Boxes up to 4096 cells.
///
/// ```
/// use nimlab_games::sg_system::{minimal_systems, Phi, SystemQuery};
/// use nimlab_games::takeaway::MoveSet;
/// let phi = Phi::parse("nimsum", 2).unwrap();
/// let a = MoveSet::parse("Abeta(beta=[2..])", 2, false).unwrap();
/// let q = SystemQuery { phi: &phi, moves: &a, positions: None, dim: 2, size: 8, force: false };
/// let r = minimal_systems(&q).unwrap();
/// assert_eq!(r.least_weight, 1); // C_[1] suffices for Nim
/// // Among positive systems every single-heap move is needed (X = (3,0) reaches 0
/// // only by (3,0)); Theorem 3.3 drops (3,0) once take-and-put moves like (2,−1) count.
/// assert_eq!(r.necessary.len(), 14);
/// assert!(r.necessary_suffice);
/// ```
pub fn minimal_systems(q: &SystemQuery) -> Result<MinimalReport> {
    let descents = Descents::new(q)?;
    let moves = &descents.moves;
    let coords = &descents.coords;
    // count[X][h]: moves of the current set reaching value h < φ(X) from X.
    let mut count = vec![0u32; descents.slots()];
    for &c in moves {
        descents.for_each(c, |s| count[s] += 1);
    }
    let necessary: Vec<usize> = moves
        .iter()
        .copied()
        .filter(|&c| {
            let mut sole = false;
            descents.for_each(c, |s| sole |= count[s] == 1);
            sole
        })
        .collect();
    let necessary_suffice = {
        let set: Vec<bool> = (0..descents.cells)
            .map(|i| necessary.contains(&i))
            .collect();
        descents.is_system(|c| set[c])
    };
    let in_set = descents.greedy_minimal(&mut count);
    let wt = |c: usize| coords[c].iter().filter(|&&v| v != 0).count();
    let minimal: Vec<usize> = moves.iter().copied().filter(|&c| in_set[c]).collect();
    let least_weight = (0..=q.dim)
        .find(|&w| descents.is_system(|c| wt(c) <= w))
        .unwrap_or(q.dim);
    Ok(MinimalReport {
        moves_in_box: moves.len(),
        necessary: necessary.iter().map(|&c| coords[c].clone()).collect(),
        necessary_suffice,
        weight: moves.iter().map(|&c| wt(c)).max().unwrap_or(0),
        minimal_weight: minimal.iter().map(|&c| wt(c)).max().unwrap_or(0),
        minimal: minimal.iter().map(|&c| coords[c].clone()).collect(),
        least_weight,
    })
}

/// The descents of a positive move set on a box, for [`minimal_systems`]: every pair
/// (X, C) with X − C in the box and φ(X − C) = h < φ(X), each (X, h) one slot of a flat
/// array (X's slots are `offset[X] .. offset[X] + φ(X)`).
struct Descents {
    cells: usize,
    coords: Vec<Vec<u64>>,
    phi: Vec<Option<u64>>,
    /// The moves of the set inside the box (as cell indices), in index order.
    moves: Vec<usize>,
    packed: Vec<u128>,
    offset: Vec<usize>,
}

impl Descents {
    /// Most cells of a box on which minimal systems are computed.
    const MAX_CELLS: usize = 1 << 12;

    fn new(q: &SystemQuery) -> Result<Self> {
        if !q.moves.is_positive() {
            return Err(Error::input(
                "minimal systems are computed for positive move sets only (no negative components)",
            ));
        }
        let bx = BoxIndex::new(q.dim, q.size)?;
        if bx.cells > Self::MAX_CELLS {
            return Err(Error::input(format!(
                "minimal systems are computed on boxes of at most {} cells; {} has {}",
                Self::MAX_CELLS,
                window(q.dim, q.size),
                bx.cells
            )));
        }
        let n = bx.cells;
        let coords: Vec<Vec<u64>> = (0..n).map(|i| bx.coords(i)).collect();
        let phi: Vec<Option<u64>> = coords
            .iter()
            .map(|x| {
                let xi: Vec<i64> = x.iter().map(|&v| v as i64).collect();
                if in_p(q.positions, q.dim, &xi) {
                    q.phi.eval(x)
                } else {
                    None
                }
            })
            .collect();
        let moves: Vec<usize> = (1..n)
            .filter(|&i| {
                let c: Vec<i64> = coords[i].iter().map(|&v| v as i64).collect();
                q.moves.contains(&c)
            })
            .collect();
        let packed: Vec<u128> = coords.iter().map(|x| bx.pack(x)).collect();
        let mut offset = vec![0usize; n + 1];
        for i in 0..n {
            offset[i + 1] = offset[i] + phi[i].map_or(0, |v| v as usize);
        }
        Ok(Descents {
            cells: n,
            coords,
            phi,
            moves,
            packed,
            offset,
        })
    }

    /// The number of (X, h) slots.
    fn slots(&self) -> usize {
        self.offset[self.cells]
    }

    /// Calls `f` with the slot of every descent by the move `c`.
    fn for_each(&self, c: usize, mut f: impl FnMut(usize)) {
        for yi in 0..self.cells {
            let xi = yi + c;
            // X = Y + C componentwise (no carry from one coordinate into the next).
            if xi < self.cells
                && self.packed[xi] == self.packed[yi] + self.packed[c]
                && let (Some(vx), Some(vy)) = (self.phi[xi], self.phi[yi])
                && vy < vx
            {
                f(self.offset[xi] + vy as usize);
            }
        }
    }

    /// Does the set of the moves `keep` accepts reach every h < φ(X)?
    fn is_system(&self, keep: impl Fn(usize) -> bool) -> bool {
        let mut reached = vec![false; self.slots()];
        for &c in self.moves.iter().filter(|&&c| keep(c)) {
            self.for_each(c, |s| reached[s] = true);
        }
        reached.iter().all(|&r| r)
    }

    /// A minimal system, greedily: the largest moves dropped first while every (X, h)
    /// keeps a witness. `count` holds each slot's witnesses among all the moves and is
    /// kept up to date; returns membership by cell index.
    fn greedy_minimal(&self, count: &mut [u32]) -> Vec<bool> {
        let mut in_set = vec![false; self.cells];
        for &c in &self.moves {
            in_set[c] = true;
        }
        let mut order = self.moves.clone();
        order.sort_by_key(|&c| std::cmp::Reverse((self.coords[c].iter().sum::<u64>(), c)));
        for &c in &order {
            let mut removable = true;
            self.for_each(c, |s| removable &= count[s] >= 2);
            if removable {
                in_set[c] = false;
                self.for_each(c, |s| count[s] -= 1);
            }
        }
        in_set
    }
}

/// The comparison of a positive set with A^β and C^β on the box [0, N)^m of moves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MaximalReport {
    /// β.
    pub beta: MixedRadix,
    /// Moves of the box in the set.
    pub in_set: u64,
    /// Moves of the box in A^β (Theorem 4.7).
    pub in_a_beta: u64,
    /// Moves of the box in C^β.
    pub in_c_beta: u64,
    /// A move of the set outside A^β (it breaks (SG1) somewhere), if any.
    pub outside_a_beta: Option<Vec<u64>>,
    /// A move of A^β missing from the set, if any.
    pub missing_from_set: Option<Vec<u64>>,
    /// A move of A^β outside C^β, if any (none iff β = (b, 2, 2, …)).
    pub a_not_c: Option<Vec<u64>>,
}

/// Compares a positive set with the maximum positive system A^β on the box of moves.
///
/// ```
/// use nimlab_engine::nimarith::MixedRadix;
/// use nimlab_games::sg_system::compare_with_a_beta;
/// use nimlab_games::takeaway::MoveSet;
/// let beta = MixedRadix::parse("[3..]").unwrap();
/// let c = MoveSet::parse("Cbeta(beta=[3..])", 2, false).unwrap();
/// let r = compare_with_a_beta(&c, &beta, 2, 12).unwrap();
/// assert_eq!(r.outside_a_beta, None);      // C^β ⊆ A^β
/// assert_eq!(r.a_not_c, Some(vec![11, 1])); // like Example 4.6's (2, 10): first in index order
/// ```
pub fn compare_with_a_beta(
    moves: &MoveSet,
    beta: &MixedRadix,
    dim: usize,
    size: u64,
) -> Result<MaximalReport> {
    let bx = BoxIndex::new(dim, size)?;
    let rows: Vec<(bool, bool, bool, Vec<u64>)> = (1..bx.cells)
        .into_par_iter()
        .map(|i| {
            let c = bx.coords(i);
            let ci: Vec<i64> = c.iter().map(|&v| v as i64).collect();
            (
                moves.contains(&ci),
                in_a_beta(beta, &c),
                in_c_beta(beta, &c),
                c,
            )
        })
        .collect();
    Ok(MaximalReport {
        beta: beta.clone(),
        in_set: rows.iter().filter(|r| r.0).count() as u64,
        in_a_beta: rows.iter().filter(|r| r.1).count() as u64,
        in_c_beta: rows.iter().filter(|r| r.2).count() as u64,
        outside_a_beta: rows.iter().find(|r| r.0 && !r.1).map(|r| r.3.clone()),
        missing_from_set: rows.iter().find(|r| r.1 && !r.0).map(|r| r.3.clone()),
        a_not_c: rows.iter().find(|r| r.1 && !r.2).map(|r| r.3.clone()),
    })
}

// ---------------------------------------------------------------------------------
// Theorems of §§3–4, checked on boxes.

const SOURCE: &str = "Y. Irie, \"Take-away games with the same Sprague–Grundy function as Nim\" \
                      (in Japanese, year uncertain) [Irie]; Y. Irie, \"Mixed-radix Nim\", \
                      arXiv:1801.00616 (2018)";

fn radix(text: &str) -> MixedRadix {
    MixedRadix::parse(text).expect("a valid radix")
}

fn query_verdict(phi: &Phi, moves: &MoveSet, dim: usize, size: u64) -> Result<Verdict> {
    let r = check_system(&SystemQuery {
        phi,
        moves,
        positions: None,
        dim,
        size,
        force: false,
    })?;
    Ok(match r.violation {
        None => Verdict::Holds {
            window: r.window,
            checked: r.positions,
        },
        Some(v) => Verdict::Fails {
            counterexample: v.describe(),
        },
    })
}

/// The moves that every SG system of σ² on N^m contains, as seen from the box
/// [0, n)^m: C is necessary when, for some X in the box and h < σ²(X), it is the only
/// move of the maximum system reaching h. Membership of the maximum system (all of T
/// that keeps (SG1)) is decided by brute force over X ∈ [0, wide)^m.
fn necessary_moves_sigma2(dim: usize, n: u64, wide: u64) -> Vec<Vec<i64>> {
    let bx = BoxIndex {
        dim,
        size: wide,
        cells: (wide as usize).pow(dim as u32),
    };
    let mut memo: FxHashMap<Vec<i64>, bool> = FxHashMap::default();
    let mut in_max = |c: &[i64]| -> bool {
        if let Some(&v) = memo.get(c) {
            return v;
        }
        let ok = (0..bx.cells).all(|i| {
            let x = bx.coords(i);
            let y: Option<Vec<u64>> = x
                .iter()
                .zip(c)
                .map(|(&a, &b)| u64::try_from(a as i64 - b).ok())
                .collect();
            y.is_none_or(|y| nim_sum(&y) != nim_sum(&x))
        });
        memo.insert(c.to_vec(), ok);
        ok
    };
    let small = BoxIndex {
        dim,
        size: n,
        cells: (n as usize).pow(dim as u32),
    };
    let all = MoveSet::Predicate {
        formula: Formula::compile("1 == 1", &[]).expect("constant"),
        take_and_put: true,
    };
    let mut necessary: Vec<Vec<i64>> = Vec::new();
    for i in 0..small.cells {
        let x = small.coords(i);
        let v = nim_sum(&x);
        let mut witnesses: FxHashMap<u64, (u32, Vec<i64>)> = FxHashMap::default();
        let mut cands: Vec<Vec<i64>> = Vec::new();
        for_each_candidate(&all, &x, &mut |c| cands.push(c.to_vec()));
        for c in cands {
            let y: Vec<u64> = x
                .iter()
                .zip(&c)
                .map(|(&a, &b)| (a as i64 - b) as u64)
                .collect();
            let w = nim_sum(&y);
            if w < v && in_max(&c) {
                let e = witnesses.entry(w).or_insert((0, c.clone()));
                e.0 += 1;
            }
        }
        for (_, (k, c)) in witnesses {
            if k == 1 && !necessary.contains(&c) {
                necessary.push(c);
            }
        }
    }
    necessary.sort();
    necessary
}

fn ord2(n: i64) -> Option<u32> {
    (n != 0).then(|| n.trailing_zeros())
}

/// The theorems of the take-away paper, registered with the `takeaway` family.
pub fn theorems() -> Vec<Theorem> {
    vec![
        theorem_3_3(),
        theorem_3_4(),
        theorem_4_3(),
        theorem_4_4(),
        theorem_4_5(),
        theorem_4_7(),
        theorem_max_system(),
    ]
}

/// Every theorem below checks a list of cases and reports them together: each case's
/// labelled verdict, combined by [`Verdict::all`] (every case is run, even after a
/// failure, so the report names them all).
fn all_cases<T>(cases: &[T], check: impl Fn(&T) -> Result<(String, Verdict)>) -> Result<Verdict> {
    let parts = cases.iter().map(check).collect::<Result<Vec<_>>>()?;
    Ok(Verdict::all(parts))
}

/// A case of Theorems 4.4 and 4.5, labelled: the minimal systems inside A^β of σ^β on
/// the box [0, size)^dim, judged by `fails` (the counterexample when the claim about
/// them fails, `None` when it holds on the box's cells).
fn minimal_systems_case(
    b: &str,
    dim: usize,
    size: u64,
    fails: impl FnOnce(&MixedRadix, &MinimalReport) -> Option<String>,
) -> Result<(String, Verdict)> {
    let beta = radix(b);
    let phi = Phi::Sigma(beta.clone());
    let a = MoveSet::ABeta(beta.clone());
    let r = minimal_systems(&SystemQuery {
        phi: &phi,
        moves: &a,
        positions: None,
        dim,
        size,
        force: false,
    })?;
    let v = match fails(&beta, &r) {
        None => Verdict::Holds {
            window: window(dim, size),
            checked: size.pow(dim as u32),
        },
        Some(counterexample) => Verdict::Fails { counterexample },
    };
    Ok((beta_label(b, dim), v))
}

/// Whether the move set `moves(β)` is an SG system of σ^β on [0, size)^dim, labelled.
fn sigma_system_case(
    b: &str,
    dim: usize,
    size: u64,
    moves: fn(MixedRadix) -> MoveSet,
) -> Result<(String, Verdict)> {
    let beta = radix(b);
    let v = query_verdict(&Phi::Sigma(beta.clone()), &moves(beta), dim, size)?;
    Ok((beta_label(b, dim), v))
}

/// The label of a case over β and m.
fn beta_label(b: &str, dim: usize) -> String {
    format!("β = {b}, m = {dim}")
}

fn theorem_3_3() -> Theorem {
    Theorem::new(
        "irie.thm-3.3",
        "Theorem 3.3 (m ≥ 2): the moves common to all SG systems of σ² are the single-heap \
         moves taking a power of 2",
        SOURCE,
        |_ctx| {
            all_cases(&[(2usize, 9u64, 40u64), (3, 5, 16)], |&(dim, n, wide)| {
                let found = necessary_moves_sigma2(dim, n, wide);
                let claimed = single_heap_powers_of_two(dim, n);
                let v = if found == claimed {
                    Verdict::Holds {
                        window: format!(
                            "{} (maximum system decided on {})",
                            window(dim, n),
                            window(dim, wide)
                        ),
                        checked: n.pow(dim as u32),
                    }
                } else {
                    Verdict::Fails {
                        counterexample: format!(
                            "necessary moves found {found:?}, claimed {claimed:?}"
                        ),
                    }
                };
                Ok((format!("m = {dim}"), v))
            })
        },
    )
}

/// The moves Theorem 3.3 names, sorted: one heap, taking a power of 2 below n.
fn single_heap_powers_of_two(dim: usize, n: u64) -> Vec<Vec<i64>> {
    let mut claimed: Vec<Vec<i64>> = Vec::new();
    for i in 0..dim {
        let mut k = 1;
        while k < n {
            let mut c = vec![0i64; dim];
            c[i] = k as i64;
            claimed.push(c);
            k *= 2;
        }
    }
    claimed.sort();
    claimed
}

fn theorem_3_4() -> Theorem {
    Theorem::new(
        "irie.thm-3.4",
        "Theorem 3.4: the maximum SG system of σ² is {C ∈ T : ord₂(Σcᵢ) = mord₂(C)} \
         (moves may have negative components)",
        SOURCE,
        |_ctx| {
            all_cases(
                &[(2usize, 12i64, 64u64), (3, 5, 24)],
                |&(dim, span, wide)| {
                    let side = (2 * span) as usize;
                    let cells = side.pow(dim as u32);
                    let v = match maximum_sigma2_disagreement(dim, span, wide) {
                        None => Verdict::Holds {
                            window: format!("moves in [{},{})^{dim}", -span, span),
                            checked: cells as u64,
                        },
                        Some(c) => Verdict::Fails { counterexample: c },
                    };
                    Ok((format!("m = {dim}"), v))
                },
            )
        },
    )
}

/// Theorem 3.4 on the moves in [−span, span)^dim: the first move (index order) where the
/// formula and a brute force over [0, wide)^dim disagree on keeping (SG1), described.
fn maximum_sigma2_disagreement(dim: usize, span: i64, wide: u64) -> Option<String> {
    let bx = BoxIndex {
        dim,
        size: wide,
        cells: (wide as usize).pow(dim as u32),
    };
    let side = (2 * span) as usize;
    let cells = side.pow(dim as u32);
    (0..cells).into_par_iter().find_map_first(|k| {
        let mut k = k;
        let c: Vec<i64> = (0..dim)
            .map(|_| {
                let v = (k % side) as i64 - span;
                k /= side;
                v
            })
            .collect();
        let sum: i64 = c.iter().sum();
        if sum <= 0 {
            return None;
        }
        let claimed = ord2(sum) == c.iter().filter_map(|&v| ord2(v)).min();
        let keeps_sg1 = (0..bx.cells).all(|i| {
            let x = bx.coords(i);
            let y: Option<Vec<u64>> = x
                .iter()
                .zip(&c)
                .map(|(&a, &b)| u64::try_from(a as i64 - b).ok())
                .collect();
            y.is_none_or(|y| nim_sum(&y) != nim_sum(&x))
        });
        (claimed != keeps_sg1).then(|| {
            format!(
                "move {c:?}: the formula says {claimed}, brute force over {} says {keeps_sg1}",
                window(dim, wide)
            )
        })
    })
}

fn theorem_4_3() -> Theorem {
    Theorem::new(
        "irie.thm-4.3",
        "Theorem 4.3: C^β is a positive SG system of σ^β",
        SOURCE,
        |_ctx| {
            all_cases(
                &[
                    ("[2..]", 2usize, 32u64),
                    ("[3..]", 2, 27),
                    ("[3,2..]", 2, 24),
                    ("[2,3..]", 2, 24),
                    ("[60,24,7..]", 2, 64),
                    ("[2,(3,5)..]", 2, 30),
                    ("[3..]", 3, 12),
                    ("[2,3..]", 3, 12),
                    ("[4,2..]", 3, 12),
                ],
                |&(b, dim, size)| sigma_system_case(b, dim, size, MoveSet::CBeta),
            )
        },
    )
    .with_claims(vec![
        ProofClaim::grundy(
            "takeaway(dim=2, moves=Cbeta(beta=[2..]))",
            "x xor y",
            "base2",
        ),
        ProofClaim::grundy(
            "takeaway(dim=3, moves=Cbeta(beta=[2..]))",
            "x0 xor x1 xor x2",
            "base2",
        ),
        ProofClaim::grundy(
            "takeaway(dim=2, moves=Cbeta(beta=[3..]))",
            "sigma(beta=[3..], x, y)",
            "base-3",
        ),
        ProofClaim::grundy(
            "takeaway(dim=2, moves=Cbeta(beta=[2,3..]))",
            "sigma(beta=[2,3..], x, y)",
            "mixed([2,3..])",
        ),
        ProofClaim::grundy(
            "takeaway(dim=2, moves=Cbeta(beta=[(2,3)..]))",
            "sigma(beta=[(2,3)..], x, y)",
            "mixed([(2,3)..])",
        ),
        ProofClaim::grundy(
            "takeaway(dim=3, moves=Cbeta(beta=[3..]))",
            "sigma(beta=[3..], x0, x1, x2)",
            "base-3",
        ),
        ProofClaim::grundy(
            "takeaway(dim=3, moves=Cbeta(beta=[2,3..]))",
            "sigma(beta=[2,3..], x0, x1, x2)",
            "mixed([2,3..])",
        ),
    ])
}

fn theorem_4_4() -> Theorem {
    Theorem::new(
        "irie.thm-4.4",
        "Theorem 4.4 (1): the least weight of an SG system of σ^{β,m} is min{m, sup(β_L − 1)}",
        SOURCE,
        |_ctx| {
            all_cases(
                &[
                    ("[2..]", 2usize, 16u64),
                    ("[2..]", 3, 8),
                    ("[3..]", 2, 18),
                    ("[3..]", 3, 9),
                    ("[4..]", 3, 8),
                    ("[2,3..]", 3, 8),
                    ("[3,2..]", 3, 8),
                ],
                |&(b, dim, size)| {
                    minimal_systems_case(b, dim, size, |beta, r| {
                        let claimed = (dim as u64).min(beta.max_digit()) as usize;
                        (r.least_weight != claimed).then(|| {
                            format!(
                                "least weight {} on the box, claimed {claimed}",
                                r.least_weight
                            )
                        })
                    })
                },
            )
        },
    )
}

fn theorem_4_5() -> Theorem {
    Theorem::new(
        "irie.thm-4.5",
        "Theorem 4.5 (m ≥ 2): σ^β has a unique minimal positive SG system iff β_L = 2 for all L ≥ 1",
        SOURCE,
        |_ctx| {
            all_cases(
                &[
                    ("[2..]", 2usize, 16u64),
                    ("[3,2..]", 2, 18),
                    ("[5,2..]", 2, 20),
                    ("[3..]", 2, 18),
                    ("[2,3..]", 2, 18),
                    ("[4..]", 2, 16),
                    ("[2..]", 3, 8),
                    ("[3..]", 3, 9),
                ],
                |&(b, dim, size)| {
                    minimal_systems_case(b, dim, size, |beta, r| {
                        let claimed = beta.is_b_2_2();
                        (r.necessary_suffice != claimed).then(|| {
                            format!(
                                "the moves common to all systems {} a system on the box, but β {} (b, 2, 2, …)",
                                if r.necessary_suffice { "form" } else { "do not form" },
                                if claimed { "is" } else { "is not" }
                            )
                        })
                    })
                },
            )
        },
    )
}

fn theorem_4_7() -> Theorem {
    Theorem::new(
        "irie.thm-4.7",
        "Theorem 4.7: F ∈ F^β (some X has σ^β(X + F) = σ^β(X)) iff σ₀^β(F) = 0 and F̂ + r ∈ F^β̂ \
         for some r ∈ ρ(F); F^β ∩ {max F ≤ β^{L+1} − β^L} ⊆ F_L^β ⊆ F^β; A^β = N^m ∖ F^β",
        SOURCE,
        |_ctx| {
            all_cases(
                &[
                    ("[2..]", 2usize, 16u64, 32u64),
                    ("[3..]", 2, 18, 54),
                    ("[2,3..]", 2, 18, 48),
                    ("[3,2..]", 2, 18, 48),
                    ("[4,3..]", 2, 24, 48),
                    ("[3..]", 3, 9, 27),
                    ("[2,3..]", 3, 8, 24),
                ],
                |&(b, dim, size, wide)| {
                    Ok((beta_label(b, dim), check_f_beta(&radix(b), dim, size, wide)))
                },
            )
        },
    )
}

fn theorem_max_system() -> Theorem {
    Theorem::new(
        "irie.max-system",
        "A^β = {C : σ^β(X + C) ≠ σ^β(X) for every X} is the maximum positive SG system of σ^β: \
         σ^β is the Grundy function of Γ(N^m, A^β)",
        SOURCE,
        |_ctx| {
            all_cases(
                &[
                    ("[2..]", 2usize, 16u64),
                    ("[3..]", 2, 27),
                    ("[2,3..]", 2, 24),
                    ("[3..]", 3, 9),
                ],
                |&(b, dim, size)| sigma_system_case(b, dim, size, MoveSet::ABeta),
            )
        },
    )
    // A^β's move relation holds a ∀ over positions (all(…)), decided by the automata
    .with_claims(vec![
        ProofClaim::grundy(
            "takeaway(dim=2, moves=Abeta(beta=[3..]))",
            "sigma(beta=[3..], x, y)",
            "mixed([3..])",
        ),
        ProofClaim::grundy(
            "takeaway(dim=2, moves=Abeta(beta=[2,3..]))",
            "sigma(beta=[2,3..], x, y)",
            "mixed([2,3..])",
        ),
    ])
}

/// Theorem 4.7 on a box: the recursion against a brute-force witness search, the
/// inclusions (4.2), and part (3) against the complement.
pub fn check_f_beta(beta: &MixedRadix, dim: usize, size: u64, wide: u64) -> Verdict {
    let bx = BoxIndex {
        dim,
        size,
        cells: (size as usize).pow(dim as u32),
    };
    let bad = (0..bx.cells).into_par_iter().find_map_first(|i| {
        let f = bx.coords(i);
        let rec = in_f_beta(beta, &f);
        let brute = crate::takeaway::f_beta_witness(beta, &f, wide).is_some();
        if rec != brute {
            return Some(format!(
                "F = {f:?}: the recursion says {rec}, a witness search over {} says {brute}",
                window(dim, wide)
            ));
        }
        if in_a_beta(beta, &f) == rec {
            return Some(format!("F = {f:?}: Theorem 4.7 (3) disagrees with (2)"));
        }
        let max = f.iter().copied().max().unwrap_or(0);
        for level in 0..6usize {
            let (Some(p), Some(q)) = (beta.place(level), beta.place(level + 1)) else {
                break;
            };
            let in_l = in_f_beta_level(beta, &f, level + 1);
            if in_l && !rec {
                return Some(format!("F = {f:?} is in F_{level} but not in F^β"));
            }
            if rec && max <= q - p && !in_l {
                return Some(format!(
                    "F = {f:?} ∈ F^β with max F ≤ β^{} − β^{level} is not in F_{level}",
                    level + 1
                ));
            }
        }
        None
    });
    match bad {
        None => Verdict::Holds {
            window: window(dim, size),
            checked: bx.cells as u64,
        },
        Some(c) => Verdict::Fails { counterexample: c },
    }
}
