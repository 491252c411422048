//! Formulas of the language → first-order statements over N ([`nimlab_automata::Fo`]).
//!
//! A term becomes a linear combination with integer coefficients of natural-valued
//! variables: the free variables and *auxiliary* ones, each defined by a relation
//! (`q = ⌊L/m⌋` is `m·q ≤ L ≤ m·q + m − 1`, `z = a xor b` a digit-wise automaton, …).
//! The definitions form a condition that holds exactly when every value the formula's
//! evaluation computes is defined; auxiliary values are natural numbers, so a negative
//! argument of `xor`, `/` … makes the condition false rather than wrong. A condition
//! compiles to a pair (true and defined, false and defined), which keeps the
//! short-circuit meaning of `&&`, `||` and `if`.

use crate::parse::{BinOp, Expr, Func, Kind, UnOp};
use nimlab_automata::{Atom, DigitOp, Fo, Numeration, Rel};
use nimlab_engine::nimarith::MixedRadix;
use num_bigint::BigInt;
use num_traits::{One, Signed, ToPrimitive, Zero};

/// A piece of a formula the automata cannot express, with its column.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotExpressible {
    /// 1-based column of the operator or function.
    pub column: usize,
    /// What it is and why not.
    pub what: String,
}

type R<T> = Result<T, NotExpressible>;

/// Σ aᵢ·vᵢ + c. The constant is exact at any size (a bound such as L + 1 ≤ 0 for
/// L < 0 must never saturate: two branches of an `if` would then overlap); the
/// coefficients are checked 64-bit numbers (an automaton has about Σ|aᵢ| states, so a
/// larger one is refused exactly).
#[derive(Debug, Clone, Default)]
struct Lin {
    terms: Vec<(u32, i64)>,
    c: BigInt,
}

impl Lin {
    fn constant(&self) -> Option<BigInt> {
        self.terms.iter().all(|t| t.1 == 0).then(|| self.c.clone())
    }
    fn scale(&self, k: &BigInt) -> Option<Lin> {
        let small = k.to_i64();
        Some(Lin {
            terms: self
                .terms
                .iter()
                .filter(|t| t.1 != 0)
                .map(|&(v, a)| small?.checked_mul(a).map(|b| (v, b)))
                .collect::<Option<_>>()?,
            c: &self.c * k,
        })
    }
    fn neg(&self) -> Option<Lin> {
        self.scale(&BigInt::from(-1))
    }
    fn add(&self, o: &Lin, sign: i64) -> Option<Lin> {
        let mut terms = self.terms.clone();
        for &(v, a) in &o.terms {
            terms.push((v, a.checked_mul(sign)?));
        }
        Some(Lin {
            terms,
            c: &self.c + &o.c * sign,
        })
    }
    /// This plus a constant.
    fn shifted(&self, k: i64) -> Lin {
        Lin {
            terms: self.terms.clone(),
            c: &self.c + k,
        }
    }
    fn var(v: u32) -> Lin {
        Lin {
            terms: vec![(v, 1)],
            c: BigInt::zero(),
        }
    }
    fn num(c: BigInt) -> Lin {
        Lin { terms: vec![], c }
    }
    /// The single variable this is, if it is one.
    fn as_var(&self) -> Option<u32> {
        match self.terms.as_slice() {
            [(v, 1)] if self.c.is_zero() => Some(*v),
            _ => None,
        }
    }
    fn rel(&self, rel: Rel) -> Fo {
        Fo::linear_big(self.terms.clone(), self.c.clone(), rel)
    }
}

/// A compiled term: its value is `lin` where `cond` holds (over the free and the
/// auxiliary variables `aux`, to be bound by ∃ around the use).
struct Term {
    lin: Lin,
    aux: Vec<u32>,
    cond: Fo,
}

impl Term {
    /// The term's value when it is a constant (no auxiliary variable, no variable).
    fn constant(&self) -> Option<BigInt> {
        self.aux.is_empty().then(|| self.lin.constant()).flatten()
    }

    fn plain(lin: Lin) -> Term {
        Term {
            lin,
            aux: vec![],
            cond: Fo::Const(true),
        }
    }
}

/// Structural equality of two expressions (columns ignored).
fn same(a: &Expr, b: &Expr) -> bool {
    match (&a.kind, &b.kind) {
        (Kind::Num(x), Kind::Num(y)) => x == y,
        (Kind::Var(x), Kind::Var(y)) => x == y,
        (Kind::Unary(o, x), Kind::Unary(p, y)) => o == p && same(x, y),
        (Kind::Binary(o, x1, x2), Kind::Binary(p, y1, y2)) => {
            o == p && same(x1, y1) && same(x2, y2)
        }
        (Kind::If(a1, a2, a3), Kind::If(b1, b2, b3)) => {
            same(a1, b1) && same(a2, b2) && same(a3, b3)
        }
        (Kind::Call(f, xs), Kind::Call(g, ys)) => {
            f == g && xs.len() == ys.len() && xs.iter().zip(ys).all(|(x, y)| same(x, y))
        }
        _ => false,
    }
}

/// `n` when `args` is n, n − 1, …, n − 1 with b − 1 copies of n − 1.
fn repunit_argument(b: i64, args: &[Expr]) -> Option<&Expr> {
    let (n, rest) = args.split_first()?;
    (rest.len() as i64 == b - 1
        && rest.iter().all(|a| match &a.kind {
            Kind::Binary(BinOp::Sub, x, one) => matches!(one.kind, Kind::Num(1)) && same(x, n),
            _ => false,
        }))
    .then_some(n)
}

/// The base that reads a repeating block of a mixed radix one block per digit (the
/// block's product, at most 16), and σ's digit-wise operation in that base.
pub(crate) fn block_op(period: &[u64]) -> Option<(u32, DigitOp)> {
    if period.len() > 4 || period.iter().any(|&b| b < 2) {
        return None;
    }
    let q: u64 = period.iter().product();
    if q > 16 {
        return None;
    }
    if period.len() == 1 {
        return Some((q as u32, DigitOp::SumMod));
    }
    let mut r = [0u8; 4];
    for (slot, &b) in r.iter_mut().zip(period) {
        *slot = b as u8;
    }
    Some((q as u32, DigitOp::BlockSum(r)))
}

/// The compiler: numeration, the variables of the formula, fresh variable numbers.
#[doc(hidden)] // for the tests in tests/ (`internals`)
pub struct Compiler {
    pub num: Numeration,
    next: u32,
}

/// The refusal of a piece at `col` the automata cannot express.
fn refusal(col: usize, what: &str) -> NotExpressible {
    NotExpressible {
        column: col,
        what: what.to_string(),
    }
}

fn overflow(col: usize) -> NotExpressible {
    NotExpressible {
        column: col,
        what: "a coefficient too large for 64 bits".into(),
    }
}

impl Compiler {
    /// Auxiliary variables are numbered from `first_aux` up (above every variable the
    /// caller uses, so that the caller's variables come first in witnesses).
    pub fn new(num: Numeration, first_aux: u32) -> Self {
        Compiler {
            num,
            next: first_aux,
        }
    }

    /// A fresh variable.
    pub fn fresh(&mut self) -> u32 {
        self.next += 1;
        self.next - 1
    }

    /// The condition `e` with formula variable i meaning automaton variable `env[i]`:
    /// (true and defined, false and defined).
    pub fn condition(&mut self, e: &Expr, env: &[u32]) -> R<(Fo, Fo)> {
        Ok(match &e.kind {
            Kind::Num(v) => (Fo::Const(*v != 0), Fo::Const(*v == 0)),
            Kind::Unary(UnOp::Not, a) => {
                let (t, f) = self.condition(a, env)?;
                (f, t)
            }
            Kind::Binary(BinOp::LogAnd, a, b) => {
                let (ta, fa) = self.condition(a, env)?;
                let (tb, fb) = self.condition(b, env)?;
                (Fo::and(ta.clone(), tb), Fo::or(fa, Fo::and(ta, fb)))
            }
            Kind::Binary(BinOp::LogOr, a, b) => {
                let (ta, fa) = self.condition(a, env)?;
                let (tb, fb) = self.condition(b, env)?;
                (Fo::or(ta, Fo::and(fa.clone(), tb)), Fo::and(fa, fb))
            }
            Kind::Binary(
                op @ (BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge),
                a,
                b,
            ) => {
                let ta = self.term(a, env)?;
                let tb = self.term(b, env)?;
                let d = ta.lin.add(&tb.lin, -1).ok_or_else(|| overflow(e.col))?;
                let neg = d.neg().ok_or_else(|| overflow(e.col))?;
                // x < 0 over the integers is x + 1 ≤ 0, exactly
                let lt = |x: &Lin| x.shifted(1).rel(Rel::Le);
                let (yes, no) = match op {
                    BinOp::Eq => (d.rel(Rel::Eq), Fo::not(d.rel(Rel::Eq))),
                    BinOp::Ne => (Fo::not(d.rel(Rel::Eq)), d.rel(Rel::Eq)),
                    BinOp::Lt => (lt(&d), neg.rel(Rel::Le)),
                    BinOp::Le => (d.rel(Rel::Le), lt(&neg)),
                    BinOp::Gt => (lt(&neg), d.rel(Rel::Le)),
                    _ => (neg.rel(Rel::Le), lt(&d)),
                };
                let aux: Vec<u32> = ta.aux.iter().chain(&tb.aux).copied().collect();
                let cond = Fo::and(ta.cond, tb.cond);
                (
                    Fo::exists_all(&aux, Fo::and(cond.clone(), yes)),
                    Fo::exists_all(&aux, Fo::and(cond, no)),
                )
            }
            Kind::If(c, a, b) => {
                let (tc, fc) = self.condition(c, env)?;
                let (ta, fa) = self.condition(a, env)?;
                let (tb, fb) = self.condition(b, env)?;
                (
                    Fo::or(Fo::and(tc.clone(), ta), Fo::and(fc.clone(), tb)),
                    Fo::or(Fo::and(tc, fa), Fo::and(fc, fb)),
                )
            }
            Kind::All(bound, body) => {
                // each bound variable is a fresh automaton variable; the body is over
                // the caller's variables and those
                let mut inner = env.to_vec();
                let mut zs = Vec::new();
                for &i in bound {
                    if inner.len() <= i {
                        inner.resize(i + 1, u32::MAX);
                    }
                    let z = self.fresh();
                    inner[i] = z;
                    zs.push(z);
                }
                let (t, f) = self.condition(body, &inner)?;
                // true: the body is true (and defined) for every Z; false: it is false
                // (and defined) for some Z; else (never false, sometimes undefined)
                // neither
                let mut all = t;
                for &z in zs.iter().rev() {
                    all = Fo::forall(z, all);
                }
                (all, Fo::exists_all(&zs, f))
            }
            _ => {
                // a number used as a condition: non-zero is true
                let t = self.term(e, env)?;
                let eq = t.lin.rel(Rel::Eq);
                (
                    Fo::exists_all(&t.aux, Fo::and(t.cond.clone(), Fo::not(eq.clone()))),
                    Fo::exists_all(&t.aux, Fo::and(t.cond, eq)),
                )
            }
        })
    }

    /// z = the value of `e` (z a variable of the caller): defined and equal.
    pub fn value(&mut self, e: &Expr, env: &[u32], z: u32) -> R<Fo> {
        let t = self.term(e, env)?;
        let eq = Lin::var(z)
            .add(&t.lin, -1)
            .ok_or_else(|| overflow(e.col))?
            .rel(Rel::Eq);
        Ok(Fo::exists_all(&t.aux, Fo::and(t.cond, eq)))
    }

    /// A natural-valued variable equal to the term (the term's own variable if it is
    /// one; else a fresh one defined by an equation).
    fn natural(&mut self, t: Term, col: usize) -> R<(u32, Vec<u32>, Fo)> {
        if let Some(v) = t.lin.as_var() {
            return Ok((v, t.aux, t.cond));
        }
        let z = self.fresh();
        let eq = Lin::var(z)
            .add(&t.lin, -1)
            .ok_or_else(|| overflow(col))?
            .rel(Rel::Eq);
        let mut aux = t.aux;
        aux.push(z);
        Ok((z, aux, Fo::and(t.cond, eq)))
    }

    fn digitwise(&mut self, op: DigitOp, args: Vec<Term>, col: usize) -> R<Term> {
        let mut it = args.into_iter();
        let first = it.next().expect("at least one argument");
        let (mut acc, mut aux, mut cond) = self.natural(first, col)?;
        for t in it {
            let (v, a, c) = self.natural(t, col)?;
            aux.extend(a);
            cond = Fo::and(cond, c);
            let z = self.fresh();
            cond = Fo::and(
                cond,
                Fo::Atom(Atom::Digitwise {
                    op,
                    x: acc,
                    y: v,
                    z,
                }),
            );
            aux.push(z);
            acc = z;
        }
        Ok(Term {
            lin: Lin::var(acc),
            aux,
            cond,
        })
    }

    fn need_base(&self, b: u32, col: usize, what: &str) -> R<()> {
        if self.num == Numeration::Base(b) {
            Ok(())
        } else {
            Err(NotExpressible {
                column: col,
                what: format!(
                    "{what} is digit-wise in base {b}: it is expressible in numeration base{}",
                    if b == 2 {
                        "2".to_string()
                    } else {
                        format!("-{b}")
                    }
                ),
            })
        }
    }

    /// The digit-wise operation that adds digits of base `b` mod b (⊕ for b = 2) in
    /// this numeration: the sum itself in base b; in base b^k (k ≤ 4) each digit holds
    /// k base-b digits, added one by one (bitwise xor when b = 2).
    fn nim_op(&self, b: u32, col: usize, what: &str) -> R<DigitOp> {
        let Numeration::Base(n) = self.num else {
            return self.need_base(b, col, what).map(|_| DigitOp::SumMod);
        };
        if n == b {
            return Ok(DigitOp::SumMod);
        }
        let mut power = b;
        for k in 2..=4usize {
            power = power.saturating_mul(b);
            if power == n {
                return Ok(if b == 2 {
                    DigitOp::BitXor
                } else {
                    let mut block = [0u8; 4];
                    block[..k].fill(b as u8);
                    DigitOp::BlockSum(block)
                });
            }
        }
        Err(NotExpressible {
            column: col,
            what: format!(
                "{what} is digit-wise in base {b}: it is expressible in numeration base-{b} or a power of it (base-{})",
                b * b
            ),
        })
    }

    /// A value defined by a condition: z with (c ∧ z = 1) ∨ (¬c ∧ z = 0).
    fn value_of_condition(&mut self, e: &Expr, env: &[u32]) -> R<Term> {
        let (t, f) = self.condition(e, env)?;
        let z = self.fresh();
        let one = Fo::linear(vec![(z, 1)], -1, Rel::Eq);
        let zero = Fo::linear(vec![(z, 1)], 0, Rel::Eq);
        Ok(Term {
            lin: Lin::var(z),
            aux: vec![z],
            cond: Fo::or(Fo::and(t, one), Fo::and(f, zero)),
        })
    }

    /// z = if c then a else b, with a and b's definitions inside their branches.
    fn choose(&mut self, c: (Fo, Fo), a: Term, b: Term, col: usize) -> R<Term> {
        let z = self.fresh();
        let branch = |t: Term| -> R<Fo> {
            let eq = Lin::var(z)
                .add(&t.lin, -1)
                .ok_or_else(|| overflow(col))?
                .rel(Rel::Eq);
            Ok(Fo::exists_all(&t.aux, Fo::and(t.cond, eq)))
        };
        let (tc, fc) = c;
        let cond = Fo::or(Fo::and(tc, branch(a)?), Fo::and(fc, branch(b)?));
        Ok(Term {
            lin: Lin::var(z),
            aux: vec![z],
            cond,
        })
    }

    /// The constant value of `t` as a machine integer, or a refusal naming `what`.
    fn small_constant_of(&self, t: &Term, col: usize, what: &str) -> R<i64> {
        self.constant_of(t, col, what)?
            .to_i64()
            .ok_or_else(|| NotExpressible {
                column: col,
                what: format!("{what} beyond 64 bits"),
            })
    }

    fn constant_of(&self, t: &Term, col: usize, what: &str) -> R<BigInt> {
        if !t.aux.is_empty() {
            return Err(NotExpressible {
                column: col,
                what: format!("{what} must be a constant"),
            });
        }
        t.lin.constant().ok_or_else(|| NotExpressible {
            column: col,
            what: format!("{what} must be a constant"),
        })
    }

    /// A fresh z with `atom(n, z)` for the natural value n of `e`: the functions the
    /// automata know as one relation (lowest Zeckendorf term, repunits).
    fn unary_atom(
        &mut self,
        e: &Expr,
        env: &[u32],
        col: usize,
        atom: impl FnOnce(u32, u32) -> Atom,
    ) -> R<Term> {
        let t = self.term(e, env)?;
        let (n, mut aux, cond) = self.natural(t, col)?;
        let z = self.fresh();
        aux.push(z);
        Ok(Term {
            lin: Lin::var(z),
            aux,
            cond: Fo::and(cond, Fo::Atom(atom(n, z))),
        })
    }

    fn term(&mut self, e: &Expr, env: &[u32]) -> R<Term> {
        let col = e.col;
        Ok(match &e.kind {
            Kind::Num(v) => Term::plain(Lin::num(BigInt::from(*v))),
            Kind::Var(i) => Term::plain(Lin::var(env[*i])),
            Kind::Unary(UnOp::Neg, a) => {
                let t = self.term(a, env)?;
                Term {
                    lin: t.lin.neg().ok_or_else(|| overflow(col))?,
                    ..t
                }
            }
            Kind::Unary(UnOp::Not, _) | Kind::All(..) => self.value_of_condition(e, env)?,
            Kind::Binary(op, a, b) => {
                if op.is_condition() {
                    return self.value_of_condition(e, env);
                }
                let ta = self.term(a, env)?;
                let tb = self.term(b, env)?;
                self.binary(*op, ta, tb, col)?
            }
            Kind::If(c, a, b) => {
                let c = self.condition(c, env)?;
                let ta = self.term(a, env)?;
                let tb = self.term(b, env)?;
                self.choose(c, ta, tb, col)?
            }
            Kind::Call(func, args) => self.call(func, args, env, col)?,
        })
    }

    /// A call of a function the automata know: each function its own relation.
    fn call(&mut self, func: &Func, args: &[Expr], env: &[u32], col: usize) -> R<Term> {
        let refuse = |what: &str| refusal(col, what);
        Ok(match func {
            Func::Min | Func::Max => self.min_max(*func == Func::Min, args, env, col)?,
            Func::Abs => self.abs(&args[0], env, col)?,
            Func::NimsumB => self.nimsum_b(args, env, col)?,
            Func::Sigma(beta) => self.sigma(beta, args, env, col)?,
            Func::ZeckLow => {
                if self.num != Numeration::Fib {
                    return Err(refuse(
                        "zeck_low is automatic in Zeckendorf numeration: it is expressible in numeration fib",
                    ));
                }
                self.unary_atom(&args[0], env, col, |n, z| Atom::LowestTerm { n, z })?
            }
            Func::FloorPhi => {
                if self.num != Numeration::Fib {
                    return Err(refuse(
                    "floor_phi is automatic in Zeckendorf numeration: it is expressible in numeration fib",
                ));
                }
                self.floor_phi(&args[0], env, col)?
            }
            Func::FloorLog2 => return Err(refuse("floor_log2 (not a synchronized relation)")),
            Func::Popcount => return Err(refuse("popcount (not a synchronized relation)")),
            Func::NNimsum => return Err(refuse("nnimsum (binary columns read in base n)")),
            Func::Fib => return Err(refuse("fib(k) (exponential in k)")),
        })
    }

    /// min (`min` true) or max of the arguments, from the left: a fresh z equal to the
    /// one each comparison picks.
    fn min_max(&mut self, min: bool, args: &[Expr], env: &[u32], col: usize) -> R<Term> {
        let mut it = args.iter();
        let mut acc = self.term(it.next().expect("arity"), env)?;
        for a in it {
            let t = self.term(a, env)?;
            // acc ≤ t decides which one min (max) takes
            let d = acc.lin.add(&t.lin, -1).ok_or_else(|| overflow(col))?;
            let aux: Vec<u32> = acc.aux.iter().chain(&t.aux).copied().collect();
            let both = Fo::and(acc.cond.clone(), t.cond.clone());
            let le = Fo::and(both.clone(), d.rel(Rel::Le));
            let gt = Fo::and(both, Fo::not(d.rel(Rel::Le)));
            let z = self.fresh();
            let eq = |x: &Lin| -> R<Fo> {
                Ok(Lin::var(z)
                    .add(x, -1)
                    .ok_or_else(|| overflow(col))?
                    .rel(Rel::Eq))
            };
            let (first, second) = if min {
                (eq(&acc.lin)?, eq(&t.lin)?)
            } else {
                (eq(&t.lin)?, eq(&acc.lin)?)
            };
            let cond = Fo::exists_all(&aux, Fo::or(Fo::and(le, first), Fo::and(gt, second)));
            acc = Term {
                lin: Lin::var(z),
                aux: vec![z],
                cond,
            };
        }
        Ok(acc)
    }

    /// |t|: t or −t, chosen by the sign of t.
    fn abs(&mut self, arg: &Expr, env: &[u32], col: usize) -> R<Term> {
        let t = self.term(arg, env)?;
        let neg = t.lin.neg().ok_or_else(|| overflow(col))?;
        // t ≥ 0 is ¬(t + 1 ≤ 0)
        let pos = Fo::not(t.lin.shifted(1).rel(Rel::Le));
        let c = (
            Fo::exists_all(&t.aux, Fo::and(t.cond.clone(), pos.clone())),
            Fo::exists_all(&t.aux, Fo::and(t.cond.clone(), Fo::not(pos))),
        );
        let tn = Term {
            lin: neg,
            aux: t.aux.clone(),
            cond: t.cond.clone(),
        };
        self.choose(c, t, tn, col)
    }

    /// nimsum_b(b, …): the digit-wise sum in base b (one atom for the repunit case).
    fn nimsum_b(&mut self, args: &[Expr], env: &[u32], col: usize) -> R<Term> {
        let refuse = |what: &str| refusal(col, what);
        let b = self.term(&args[0], env)?;
        let b = self.small_constant_of(&b, col, "the base of nimsum_b")?;
        if !(2..=16).contains(&b) {
            return Err(refuse("nimsum_b: the base must be between 2 and 16 here"));
        }
        let op = self.nim_op(b as u32, col, "nimsum_b")?;
        if args.len() == 1 {
            return Ok(Term::plain(Lin::default()));
        }
        if let (true, Some(n)) = (
            self.num == Numeration::Base(b as u32),
            repunit_argument(b, &args[1..]),
        ) {
            // nimsum_b(b, n, n − 1, …, n − 1) (b − 1 copies): n and n − 1
            // differ digit-wise by 1 exactly from n's lowest non-zero digit
            // down, so this is 1…1 there: one atom instead of b sums
            return self.unary_atom(n, env, col, |n, z| Atom::LowRepunit { n, z });
        }
        let ts = args[1..]
            .iter()
            .map(|a| self.term(a, env))
            .collect::<R<Vec<_>>>()?;
        self.digitwise(op, ts, col)
    }

    /// σ^β of the arguments: a repunit atom, digit-wise in a constant base, or a
    /// prefix and then a repeating block; other β are refused.
    fn sigma(&mut self, beta: &MixedRadix, args: &[Expr], env: &[u32], col: usize) -> R<Term> {
        let refuse = |what: &str| refusal(col, what);
        let (prefix, period) = beta.parts();
        if let (true, Some((q, DigitOp::BlockSum(block)))) = (prefix.is_empty(), block_op(period)) {
            let lcm = period.iter().fold(1i64, |l, &b| {
                let (mut x, mut y) = (l, b as i64);
                while y != 0 {
                    (x, y) = (y, x % y);
                }
                l / x * b as i64
            });
            if let Some(n) = repunit_argument(lcm, args) {
                // σ^β(n, n − 1, …, n − 1) (lcm(β) − 1 copies) has sub-digits 1
                // from ord_β(n) down: one atom instead of a chain of sums
                self.need_base(q, col, "sigma with a repeating block")?;
                return self.unary_atom(n, env, col, |n, z| Atom::BlockRepunit { n, z, block });
            }
        }
        let ts = args
            .iter()
            .map(|a| self.term(a, env))
            .collect::<R<Vec<_>>>()?;
        if ts.is_empty() {
            return Ok(Term::plain(Lin::default()));
        }
        if period.len() == 1 && prefix.iter().all(|&b| b == period[0]) {
            // σ^b: the digit-wise sum in base b
            let b = period[0];
            let op = self.nim_op(b as u32, col, "sigma with a constant base")?;
            self.digitwise(op, ts, col)
        } else if let Some((b, op)) = block_op(period) {
            self.sigma_prefix_and_block(prefix, b, op, ts, col)
        } else {
            Err(refuse(
                "sigma with this beta (expressible: a prefix and then a repeating block whose product b is at most 16, read in base b)",
            ))
        }
    }

    /// σ^β for β = (β₀, …, β_{k−1}, then a block repeated) read in base b, the
    /// block's product: the prefix by division, the rest digit-wise with `op`.
    fn sigma_prefix_and_block(
        &mut self,
        prefix: &[u64],
        b: u32,
        op: DigitOp,
        ts: Vec<Term>,
        col: usize,
    ) -> R<Term> {
        // β = (β₀, …, β_{k−1}, then a block repeated): with P = β₀⋯β_{k−1},
        // σ^β(X) = Σ_{L<k} β^L·((Σᵢ digit_L(xᵢ)) mod β_L) + P·σ^block(⌊xᵢ/P⌋),
        // digit_L(x) = ⌊x/β^L⌋ mod β_L: the prefix by division, the
        // rest digit-wise in base b = the block's product (one base-b
        // digit is one block of sub-digits; [p, 2..] is σ^[p] of
        // Fraenkel and Lorberbom: p·(⊕ ⌊xᵢ/p⌋) + (Σ xᵢ mod p)).
        self.need_base(b, col, "sigma with a repeating base")?;
        let mut places = vec![1i64];
        for &bl in prefix {
            let last = *places.last().expect("non-empty");
            places.push(last.checked_mul(bl as i64).ok_or_else(|| overflow(col))?);
        }
        let big_p = *places.last().expect("non-empty");
        let mut vars = Vec::new();
        let mut total = Term::plain(Lin::default());
        for t in ts {
            let (v, aux, cond) = self.natural(t, col)?;
            total.aux.extend(aux);
            total.cond = Fo::and(total.cond, cond);
            vars.push(v);
        }
        for (l, &bl) in prefix.iter().enumerate() {
            // Σᵢ digit_L(xᵢ), then mod β_L, weighted by β^L
            let mut sum = Term::plain(Lin::default());
            for &v in &vars {
                let d = if l == 0 {
                    Term::plain(Lin::var(v))
                } else {
                    self.div_const(Term::plain(Lin::var(v)), &BigInt::from(places[l]), col)?
                };
                let d = self.mod_const(d, bl as i64, col)?;
                sum.lin = sum.lin.add(&d.lin, 1).ok_or_else(|| overflow(col))?;
                sum.aux.extend(d.aux);
                sum.cond = Fo::and(sum.cond, d.cond);
            }
            let r = self.mod_const(sum, bl as i64, col)?;
            let w = r
                .lin
                .scale(&BigInt::from(places[l]))
                .ok_or_else(|| overflow(col))?;
            total.lin = total.lin.add(&w, 1).ok_or_else(|| overflow(col))?;
            total.aux.extend(r.aux);
            total.cond = Fo::and(total.cond, r.cond);
        }
        let mut quots = Vec::new();
        for &v in &vars {
            quots.push(if big_p == 1 {
                Term::plain(Lin::var(v))
            } else {
                self.div_const(Term::plain(Lin::var(v)), &BigInt::from(big_p), col)?
            });
        }
        let high = if quots.len() == 1 {
            quots.pop().expect("one")
        } else {
            self.digitwise(op, quots, col)?
        };
        let w = high
            .lin
            .scale(&BigInt::from(big_p))
            .ok_or_else(|| overflow(col))?;
        total.lin = total.lin.add(&w, 1).ok_or_else(|| overflow(col))?;
        total.aux.extend(high.aux);
        total.cond = Fo::and(total.cond, high.cond);
        Ok(total)
    }

    /// ⌊nφ⌋ in Zeckendorf numeration.
    fn floor_phi(&mut self, arg: &Expr, env: &[u32], col: usize) -> R<Term> {
        // ⌊nφ⌋ = up(n − 1) + 1 for n ≥ 1 (up appends a 0 to the Zeckendorf
        // digits), and 0 for n = 0
        let t = self.term(arg, env)?;
        let (n, mut aux, cond) = self.natural(t, col)?;
        let (pm, u, z) = (self.fresh(), self.fresh(), self.fresh());
        aux.push(z);
        let zero = Fo::and(
            Fo::linear(vec![(n, 1)], 0, Rel::Eq),
            Fo::linear(vec![(z, 1)], 0, Rel::Eq),
        );
        let pos = Fo::exists_all(
            &[pm, u],
            Fo::and(
                Fo::linear(vec![(pm, 1), (n, -1)], 1, Rel::Eq),
                Fo::and(
                    Fo::Atom(Atom::Up { x: pm, z: u }),
                    Fo::linear(vec![(z, 1), (u, -1)], -1, Rel::Eq),
                ),
            ),
        );
        Ok(Term {
            lin: Lin::var(z),
            aux,
            cond: Fo::and(cond, Fo::or(zero, pos)),
        })
    }

    fn div_const(&mut self, t: Term, m: &BigInt, col: usize) -> R<Term> {
        // q = ⌊L/m⌋ (q natural, m > 0): m·q ≤ L ≤ m·q + m − 1, with exact constants
        debug_assert!(m.is_positive());
        let q = self.fresh();
        let mq = Lin::var(q).scale(m).ok_or_else(|| overflow(col))?;
        let low = mq.add(&t.lin, -1).ok_or_else(|| overflow(col))?;
        let mut high = t.lin.add(&mq, -1).ok_or_else(|| overflow(col))?;
        high.c -= m - 1;
        let mut aux = t.aux;
        aux.push(q);
        Ok(Term {
            lin: Lin::var(q),
            aux,
            cond: Fo::and(t.cond, Fo::and(low.rel(Rel::Le), high.rel(Rel::Le))),
        })
    }

    /// Q = ⌊L/m⌋ of either sign (m > 0): Q = q − q′ with q, q′ natural, one of them 0,
    /// and m·Q ≤ L ≤ m·Q + m − 1. Division by a negative constant is ⌊(−L)/|m|⌋, whose
    /// quotient is negative for L > 0.
    fn div_signed(&mut self, t: Term, m: &BigInt, col: usize) -> R<Term> {
        debug_assert!(m.is_positive());
        let (q, qn) = (self.fresh(), self.fresh());
        let quotient = Lin::var(q)
            .add(&Lin::var(qn), -1)
            .ok_or_else(|| overflow(col))?;
        let mq = quotient.scale(m).ok_or_else(|| overflow(col))?;
        let low = mq.add(&t.lin, -1).ok_or_else(|| overflow(col))?;
        let mut high = t.lin.add(&mq, -1).ok_or_else(|| overflow(col))?;
        high.c -= m - 1;
        let one_zero = Fo::or(
            Fo::linear(vec![(q, 1)], 0, Rel::Eq),
            Fo::linear(vec![(qn, 1)], 0, Rel::Eq),
        );
        let mut aux = t.aux;
        aux.extend([q, qn]);
        Ok(Term {
            lin: quotient,
            aux,
            cond: Fo::and(
                t.cond,
                Fo::and(one_zero, Fo::and(low.rel(Rel::Le), high.rel(Rel::Le))),
            ),
        })
    }

    fn mod_const(&mut self, t: Term, m: i64, col: usize) -> R<Term> {
        // r = L mod m: r ≤ m − 1 and L − r ≡ 0 (mod m); defined for negative L too
        let m = m.unsigned_abs() as i64;
        if m > (1 << 40) {
            return Err(NotExpressible {
                column: col,
                what: "'%' by a constant beyond 2^40 (its automaton has that many states)".into(),
            });
        }
        let r = self.fresh();
        let bound = Fo::linear(vec![(r, 1)], -(m - 1), Rel::Le);
        let cong = t
            .lin
            .add(&Lin::var(r), -1)
            .ok_or_else(|| overflow(col))?
            .rel(Rel::Cong(m as u64));
        let mut aux = t.aux;
        aux.push(r);
        Ok(Term {
            lin: Lin::var(r),
            aux,
            cond: Fo::and(t.cond, Fo::and(bound, cong)),
        })
    }

    fn binary(&mut self, op: BinOp, a: Term, b: Term, col: usize) -> R<Term> {
        let refuse = |what: &str| refusal(col, what);
        let join = |a: Term, b: Term, lin: Lin| Term {
            lin,
            aux: a.aux.into_iter().chain(b.aux).collect(),
            cond: Fo::and(a.cond, b.cond),
        };
        Ok(match op {
            BinOp::Add | BinOp::Sub => {
                let s = if op == BinOp::Add { 1 } else { -1 };
                let lin = a.lin.add(&b.lin, s).ok_or_else(|| overflow(col))?;
                join(a, b, lin)
            }
            BinOp::Mul => {
                let ka = a.constant();
                let kb = b.constant();
                match (ka, kb) {
                    (_, Some(k)) => {
                        let lin = a.lin.scale(&k).ok_or_else(|| overflow(col))?;
                        Term { lin, ..a }
                    }
                    (Some(k), _) => {
                        let lin = b.lin.scale(&k).ok_or_else(|| overflow(col))?;
                        Term { lin, ..b }
                    }
                    _ => {
                        return Err(refuse(
                            "'*' of two non-constant terms (multiplication is only by constants)",
                        ))
                    }
                }
            }
            BinOp::Div | BinOp::Mod | BinOp::Shl | BinOp::Shr => self.by_constant(op, a, b, col)?,
            BinOp::Pow => {
                let ka = a.constant();
                let kb = b.constant();
                match (ka, kb) {
                    (Some(x), Some(y)) => {
                        Term::plain(Lin::num(exact_binary(op, &x, &y).ok_or_else(|| {
                            refuse(
                                "a power that is undefined (a negative exponent) or beyond 2^256 (the automata grow with the square of a constant's digits)",
                            )
                        })?))
                    }
                    _ => {
                        return Err(refuse(
                            "'^' (power) of a variable (not a synchronized relation)",
                        ))
                    }
                }
            }
            BinOp::Xor | BinOp::And | BinOp::Or => self.bitwise(op, a, b, col)?,
            _ => unreachable!("conditions are compiled by value_of_condition"),
        })
    }

    /// `a / k`, `a % k`, `a << k`, `a >> k` for a constant k (exact when a is constant too).
    fn by_constant(&mut self, op: BinOp, a: Term, b: Term, col: usize) -> R<Term> {
        let refuse = |what: &str| refusal(col, what);
        let k = self.constant_of(&b, col, "the right operand of '/', '%', '<<' and '>>'")?;
        if let Some(c) = a.constant() {
            // both constant: exact
            return exact_binary(op, &c, &k)
                .map(|v| Term::plain(Lin::num(v)))
                .ok_or_else(|| refuse("a constant operation that is undefined (division by 0, a negative shift) or beyond 2^256 (the automata grow with the square of a constant's digits)"));
        }
        let small = k.to_i64();
        Ok(match (op, small) {
            (BinOp::Div, _) if k.is_positive() => self.div_const(a, &k, col)?,
            (BinOp::Div, _) if k.is_negative() => {
                let neg = Term {
                    lin: a.lin.neg().ok_or_else(|| overflow(col))?,
                    ..a
                };
                self.div_signed(neg, &-k, col)?
            }
            (BinOp::Div, _) => return Err(refuse("'/' by 0")),
            (BinOp::Mod, Some(k)) if k != 0 && k != i64::MIN => self.mod_const(a, k, col)?,
            (BinOp::Mod, _) if k.is_zero() => return Err(refuse("'%' by 0")),
            (BinOp::Mod, _) => {
                return Err(refuse(
                    "'%' by a constant beyond 2^40 (its automaton has that many states)",
                ))
            }
            (BinOp::Shl, Some(k)) if (0..=4096).contains(&k) => {
                let lin = a
                    .lin
                    .scale(&(BigInt::one() << k as usize))
                    .ok_or_else(|| overflow(col))?;
                Term { lin, ..a }
            }
            (BinOp::Shr, Some(k)) if (0..=4096).contains(&k) => {
                self.div_const(a, &(BigInt::one() << k as usize), col)?
            }
            _ => return Err(refuse("a shift by a constant outside 0..4096")),
        })
    }

    /// xor, `&`, `|`: digit-wise where the numeration allows (exact on constants).
    fn bitwise(&mut self, op: BinOp, a: Term, b: Term, col: usize) -> R<Term> {
        let refuse = |what: &str| refusal(col, what);
        let name = match op {
            BinOp::Xor => "xor",
            BinOp::And => "'&'",
            _ => "'|'",
        };
        if let (Some(x), Some(y)) = (a.constant(), b.constant()) {
            return exact_binary(op, &x, &y)
                .map(|v| Term::plain(Lin::num(v)))
                .ok_or_else(|| refuse("a bitwise operation on a negative constant"));
        }
        let dop = match (op, self.num) {
            (BinOp::Xor, _) => self.nim_op(2, col, name)?,
            (_, Numeration::Base(2)) if op == BinOp::And => DigitOp::Min,
            (_, Numeration::Base(2)) => DigitOp::Max,
            (_, Numeration::Base(b)) if b.is_power_of_two() => {
                if op == BinOp::And {
                    DigitOp::BitAnd
                } else {
                    DigitOp::BitOr
                }
            }
            _ => {
                return Err(refuse(&format!(
                    "{name} is bitwise: it is expressible in numeration base2 or base-4, base-8, base-16"
                )))
            }
        };
        self.digitwise(dop, vec![a, b], col)
    }
}

/// `x op y` for two constants, exactly (`None` where the evaluator faults, or beyond
/// 2^65536): constants fold at any size, so `2^63` and `2^100 + 1` can be written.
pub(crate) fn exact_binary(op: BinOp, x: &BigInt, y: &BigInt) -> Option<BigInt> {
    crate::exact::binary(op, x, y)
        .ok()
        .filter(|v| v.bits() <= MAX_CONSTANT_BITS)
}

/// The largest constant a proof takes, in bits. Its automaton is a word of its digits,
/// but the statements multiply automata that carry it, and their size grows with the
/// square of its length (2^200 took half a minute): past this, a refusal, not an hour
/// of silent work.
pub(crate) const MAX_CONSTANT_BITS: u64 = 256;
