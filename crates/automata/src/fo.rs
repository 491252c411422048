//! First-order formulas over N with automatic relations, and their automata.

use crate::dfa::Dfa;
use crate::numeration::{DigitOp, Numeration, Rel};
use crate::Result;
use num_bigint::BigInt;
use std::fmt;

/// An atomic relation.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Atom {
    /// Σ aᵢ·vᵢ + c ⋈ 0.
    Linear {
        /// (variable, coefficient)
        terms: Vec<(u32, i64)>,
        /// constant term, of any size
        c: BigInt,
        /// the relation to 0
        rel: Rel,
    },
    /// z = op(x, y) digit by digit.
    Digitwise {
        /// the operation
        op: DigitOp,
        /// first operand
        x: u32,
        /// second operand
        y: u32,
        /// result
        z: u32,
    },
    /// z is x with one 0 appended to its digits (b·x in base b; in Zeckendorf every
    /// term moves one Fibonacci number up).
    Up {
        /// the number
        x: u32,
        /// x shifted up
        z: u32,
    },
    /// z = 1…1 in base b, one 1 at each place from n's lowest non-zero digit down:
    /// (b^(ord_b(n)+1) − 1)/(b − 1) (n ≥ 1; base b only). It is
    /// `nimsum_b(b, n, n − 1, …, n − 1)` and orders numbers by their b-adic order.
    LowRepunit {
        /// the number
        n: u32,
        /// the repunit
        z: u32,
    },
    /// The mixed-radix repunit of a repeating block b₀, …, b_{p−1} (a 0 ends the list),
    /// read in base Q = b₀⋯b_{p−1} one block per digit: z has a sub-digit 1 at each
    /// place of the mixed radix (b₀, b₁, …, b₀, …) from n's lowest non-zero sub-digit
    /// down, i.e. Σ_{j ≤ ord(n)} b₀⋯b_{j−1} (n ≥ 1). It is σ^β(n, n − 1, …, n − 1)
    /// with lcm(bᵢ) − 1 copies of n − 1, and orders numbers by their β-adic order.
    BlockRepunit {
        /// the number
        n: u32,
        /// the repunit
        z: u32,
        /// the block, lowest place first
        block: [u8; 4],
    },
    /// z = the lowest term of n (n ≥ 1).
    LowestTerm {
        /// the number
        n: u32,
        /// its lowest term
        z: u32,
    },
}

/// A first-order formula; variables range over N.
///
/// ```
/// use nimlab_automata::{Fo, Numeration, Rel};
/// // ∃q. x = 3q  ⇔  x ≡ 0 (mod 3)
/// let f = Fo::exists(1, Fo::linear(vec![(0, 1), (1, -3)], 0, Rel::Eq));
/// let g = Fo::linear(vec![(0, 1)], 0, Rel::Cong(3));
/// let n = Numeration::Base(2);
/// assert_eq!(f.automaton(&n).unwrap(), g.automaton(&n).unwrap());
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Fo {
    /// true or false
    Const(bool),
    /// an atomic relation
    Atom(Atom),
    /// negation
    Not(Box<Fo>),
    /// conjunction
    And(Box<Fo>, Box<Fo>),
    /// disjunction
    Or(Box<Fo>, Box<Fo>),
    /// ∃ v
    Exists(u32, Box<Fo>),
}

impl Fo {
    /// Σ aᵢ·vᵢ + c ⋈ 0.
    pub fn linear(terms: Vec<(u32, i64)>, c: i64, rel: Rel) -> Fo {
        Fo::linear_big(terms, BigInt::from(c), rel)
    }
    /// Σ aᵢ·vᵢ + c ⋈ 0 with a constant of any size.
    pub fn linear_big(terms: Vec<(u32, i64)>, c: BigInt, rel: Rel) -> Fo {
        Fo::Atom(Atom::Linear { terms, c, rel })
    }
    /// ¬f
    #[allow(clippy::should_implement_trait)]
    pub fn not(f: Fo) -> Fo {
        match f {
            Fo::Const(b) => Fo::Const(!b),
            Fo::Not(g) => *g,
            f => Fo::Not(Box::new(f)),
        }
    }
    /// a ∧ b
    pub fn and(a: Fo, b: Fo) -> Fo {
        match (a, b) {
            (Fo::Const(false), _) | (_, Fo::Const(false)) => Fo::Const(false),
            (Fo::Const(true), x) | (x, Fo::Const(true)) => x,
            (a, b) => Fo::And(Box::new(a), Box::new(b)),
        }
    }
    /// a ∨ b
    pub fn or(a: Fo, b: Fo) -> Fo {
        match (a, b) {
            (Fo::Const(true), _) | (_, Fo::Const(true)) => Fo::Const(true),
            (Fo::Const(false), x) | (x, Fo::Const(false)) => x,
            (a, b) => Fo::Or(Box::new(a), Box::new(b)),
        }
    }
    /// a → b
    pub fn implies(a: Fo, b: Fo) -> Fo {
        Fo::or(Fo::not(a), b)
    }
    /// ∃ v. f
    pub fn exists(v: u32, f: Fo) -> Fo {
        match f {
            Fo::Const(b) => Fo::Const(b),
            f => Fo::Exists(v, Box::new(f)),
        }
    }
    /// ∃ vs. f
    pub fn exists_all(vs: &[u32], mut f: Fo) -> Fo {
        for &v in vs.iter().rev() {
            f = Fo::exists(v, f);
        }
        f
    }
    /// ∀ v. f
    pub fn forall(v: u32, f: Fo) -> Fo {
        Fo::not(Fo::exists(v, Fo::not(f)))
    }

    /// The free variables, sorted.
    pub fn free_vars(&self) -> Vec<u32> {
        let mut out = Vec::new();
        self.collect_free(&mut Vec::new(), &mut out);
        out.sort_unstable();
        out.dedup();
        out
    }

    fn collect_free(&self, bound: &mut Vec<u32>, out: &mut Vec<u32>) {
        let mut add = |v: u32, bound: &Vec<u32>| {
            if !bound.contains(&v) {
                out.push(v)
            }
        };
        match self {
            Fo::Const(_) => {}
            Fo::Atom(Atom::Linear { terms, .. }) => {
                for &(v, _) in terms {
                    add(v, bound)
                }
            }
            Fo::Atom(Atom::Digitwise { x, y, z, .. }) => {
                for v in [*x, *y, *z] {
                    add(v, bound)
                }
            }
            Fo::Atom(Atom::LowestTerm { n, z })
            | Fo::Atom(Atom::LowRepunit { n, z })
            | Fo::Atom(Atom::BlockRepunit { n, z, .. })
            | Fo::Atom(Atom::Up { x: n, z }) => {
                for v in [*n, *z] {
                    add(v, bound)
                }
            }
            Fo::Not(a) => a.collect_free(bound, out),
            Fo::And(a, b) | Fo::Or(a, b) => {
                a.collect_free(bound, out);
                b.collect_free(bound, out);
            }
            Fo::Exists(v, a) => {
                bound.push(*v);
                a.collect_free(bound, out);
                bound.pop();
            }
        }
    }

    /// The minimal automaton of the formula: its tracks are the free variables
    /// (sorted), and it accepts exactly the valid words of the assignments that make
    /// the formula true.
    pub fn automaton(&self, num: &Numeration) -> Result<Dfa> {
        let mut stats = Stats::default();
        self.automaton_with(num, &mut stats)
    }

    /// As [`Fo::automaton`], recording the largest automaton built on the way.
    pub fn automaton_with(&self, num: &Numeration, stats: &mut Stats) -> Result<Dfa> {
        let d = match self {
            Fo::Const(b) => Dfa::constant(num.digits(), vec![], *b)?,
            Fo::Atom(Atom::Linear { terms, c, rel }) => num.linear_big(terms, c, *rel)?,
            Fo::Atom(Atom::Digitwise { op, x, y, z }) => num.digitwise(*op, *x, *y, *z)?,
            Fo::Atom(Atom::LowestTerm { n, z }) => num.lowest_term(*n, *z)?,
            Fo::Atom(Atom::LowRepunit { n, z }) => num.low_repunit(*n, *z)?,
            Fo::Atom(Atom::BlockRepunit { n, z, block }) => num.block_repunit(*n, *z, block)?,
            Fo::Atom(Atom::Up { x, z }) => num.up(*x, *z)?,
            Fo::Not(a) => {
                let a = a.automaton_with(num, stats)?;
                let valid = num.valid(a.vars())?;
                a.complement().product(&valid, |x, y| x && y)?
            }
            Fo::And(a, b) => {
                let a = a.automaton_with(num, stats)?;
                let b = b.automaton_with(num, stats)?;
                and_or(num, &a, &b, true)?
            }
            Fo::Or(a, b) => {
                let a = a.automaton_with(num, stats)?;
                let b = b.automaton_with(num, stats)?;
                and_or(num, &a, &b, false)?
            }
            Fo::Exists(v, a) => {
                // the block ∃v₁…vₙ. body, with the quantifiers pushed inwards
                let mut vars = vec![*v];
                let mut body: &Fo = a;
                while let Fo::Exists(w, b) = body {
                    vars.push(*w);
                    body = b;
                }
                exists_block(num, &vars, body, stats)?
            }
        };
        stats.steps += 1;
        stats.max_states = stats.max_states.max(d.states());
        Ok(d)
    }
}

/// ∃vars. body with miniscoping: ∃ distributes over ∨, and over a conjunction each
/// variable is eliminated from the product of only the conjuncts that mention it (the
/// one whose product has the fewest tracks first), so that the alphabet stays small.
fn exists_block(num: &Numeration, vars: &[u32], body: &Fo, stats: &mut Stats) -> Result<Dfa> {
    if let Fo::Or(a, b) = body {
        let a = exists_block(num, vars, a, stats)?;
        let b = exists_block(num, vars, b, stats)?;
        return and_or(num, &a, &b, false);
    }
    let mut conj: Vec<&Fo> = Vec::new();
    let mut stack = vec![body];
    while let Some(f) = stack.pop() {
        match f {
            Fo::And(a, b) => {
                stack.push(b);
                stack.push(a);
            }
            f => conj.push(f),
        }
    }
    let mut autos: Vec<Dfa> = conj
        .iter()
        .map(|f| f.automaton_with(num, stats))
        .collect::<Result<_>>()?;
    let mut todo: Vec<u32> = vars.to_vec();
    while !todo.is_empty() {
        // the variable whose conjuncts together have the fewest tracks
        let (i, _) = todo
            .iter()
            .enumerate()
            .map(|(i, &v)| {
                let mut all: Vec<u32> = autos
                    .iter()
                    .filter(|a| a.vars().contains(&v))
                    .flat_map(|a| a.vars().iter().copied())
                    .collect();
                all.sort_unstable();
                all.dedup();
                (i, all.len())
            })
            .min_by_key(|&(_, n)| n)
            .expect("non-empty");
        let v = todo.swap_remove(i);
        let (with, without): (Vec<Dfa>, Vec<Dfa>) =
            autos.into_iter().partition(|a| a.vars().contains(&v));
        autos = without;
        let mut it = with.into_iter();
        if let Some(first) = it.next() {
            let mut acc = first;
            for a in it {
                acc = and_or(num, &acc, &a, true)?;
                stats.max_states = stats.max_states.max(acc.states());
            }
            autos.push(acc.project(v)?);
        }
    }
    let mut it = autos.into_iter();
    let mut acc = match it.next() {
        Some(a) => a,
        None => Dfa::constant(num.digits(), vec![], true)?,
    };
    for a in it {
        acc = and_or(num, &acc, &a, true)?;
    }
    Ok(acc)
}

/// Product of two automata; tracks present in only one get their validity from the
/// numeration, so that every automaton accepts valid words only.
fn and_or(num: &Numeration, a: &Dfa, b: &Dfa, and: bool) -> Result<Dfa> {
    let only = |x: &Dfa, y: &Dfa| -> Vec<u32> {
        y.vars()
            .iter()
            .copied()
            .filter(|v| !x.vars().contains(v))
            .collect()
    };
    let mut a = a.clone();
    let mut b = b.clone();
    if let Numeration::Fib = num
        && !and
    {
        let extra_a = only(&a, &b);
        if !extra_a.is_empty() {
            a = a.product(&num.valid(&extra_a)?, |x, y| x && y)?;
        }
        let extra_b = only(&b, &a);
        if !extra_b.is_empty() {
            b = b.product(&num.valid(&extra_b)?, |x, y| x && y)?;
        }
    }
    if and {
        a.product(&b, |x, y| x && y)
    } else {
        a.product(&b, |x, y| x || y)
    }
}

impl Numeration {
    /// a ∧ b.
    pub fn and(&self, a: &Dfa, b: &Dfa) -> Result<Dfa> {
        and_or(self, a, b, true)
    }
    /// a ∨ b (tracks of only one side keep their validity).
    pub fn or(&self, a: &Dfa, b: &Dfa) -> Result<Dfa> {
        and_or(self, a, b, false)
    }
    /// ¬a among valid words.
    pub fn not(&self, a: &Dfa) -> Result<Dfa> {
        a.complement()
            .product(&self.valid(a.vars())?, |x, y| x && y)
    }
    /// The automaton with variable v fixed to n (the track removed).
    pub fn fix(&self, a: &Dfa, v: u32, n: u128) -> Result<Dfa> {
        self.and(a, &self.constant(v, n)?)?.project(v)
    }
}

/// Sizes seen while building an automaton.
#[derive(Debug, Clone, Copy, Default)]
pub struct Stats {
    /// Automata built (one per node of the formula).
    pub steps: usize,
    /// The most states of any of them.
    pub max_states: usize,
}

impl fmt::Display for Rel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Rel::Eq => write!(f, "="),
            Rel::Le => write!(f, "<="),
            Rel::Cong(m) => write!(f, "≡ (mod {m})"),
        }
    }
}
