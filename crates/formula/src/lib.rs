//! # nimlab-formula
//!
//! The one expression language of nimlab, for every piece of user-written mathematics:
//! `check` formulas and P-position predicates, closed forms and move predicates in rules
//! files, a chocolate bar's f(t), φ of a Sprague–Grundy system.
//!
//! ```
//! use nimlab_formula::Formula;
//! // Theorem 3.1 of the Ryuoh paper for p = 3
//! let f = Formula::compile("(x+y)%3 + 3*((x/3) xor (y/3))", &["x", "y"]).unwrap();
//! assert_eq!(f.eval(&[4, 7]).unwrap(), 11);
//! ```
//!
//! ## The language
//!
//! Values are 64-bit signed integers. Nothing wraps: an overflow, a division by zero, a
//! negative exponent… is an [`EvalError`] naming the column of the operator and the
//! variables' values. Booleans are integers: comparisons give 1 or 0, and `&&`, `||`,
//! `!`, `if` treat any non-zero value as true.
//!
//! | precedence (loosest first) | operators |
//! |---|---|
//! | 1 | `if c then a else b` (the `else` branch extends as far right as possible) |
//! | 2 | `\|\|` |
//! | 3 | `&&` |
//! | 4 | `==  !=  <  <=  >  >=` |
//! | 5 | `\|` (bitwise or) |
//! | 6 | `xor` — **the nim sum** (bitwise exclusive or) |
//! | 7 | `&` (bitwise and) |
//! | 8 | `<<  >>` (`a >> b` = ⌊a / 2^b⌋) |
//! | 9 | `+  -` |
//! | 10 | `*  /  %` — `/` is **floor** division, `%` is the **non-negative** remainder (in [0, \|b\|)); for b > 0, a = b·(a/b) + a%b |
//! | 11 | prefix `-`, `!` |
//! | 12 | `^` — **power** (right-associative: `2^3^2` = 512, `-2^2` = −4). It is *not* xor: write the nim sum as `xor`. |
//!
//! Bitwise operators bind tighter than comparisons (as in Python), so
//! `x xor y == 0` means `(x xor y) == 0`.
//!
//! Functions: `min(a, …)`, `max(a, …)`, `abs(a)`, `floor_log2(a)` (a ≥ 1), `popcount(a)`
//! (a ≥ 0), `nimsum_b(b, a1, …)` (Flanigan's base-b nim sum σ^b), `sigma(beta=[b0, b1,
//! …, bk..], a1, …)` (mixed-radix nim sum σ^β; the base before `..` repeats forever,
//! a block in parentheses repeats as a whole — `[2,(3,5)..]` — and without `..` the
//! last base repeats, so `beta=[p, 2]` = `beta=[p, 2..]` is σ^\[p\]), `nnimsum(n, a1, …)` (the n-nim sum of n-player Nim), `fib(k)` (Fibonacci
//! numbers in the seeds' convention **f1 = 1, f2 = 2, f3 = 3, f4 = 5, …**, with f0 = 1),
//! `zeck_low(n)` (ℓ(n): the smallest Fibonacci number in n's Zeckendorf representation,
//! n ≥ 1), `floor_phi(n)` (⌊n·φ⌋ with φ the golden ratio, n ≥ 0: the lower Wythoff
//! numbers). Constants: `true` = 1, `false` = 0. Variables are named by the caller.
//!
//! A game's move relation, which only the automata of `nimlab prove` read, may also hold
//! `all(z0, z1: condition)` (for every natural z0, z1); every formula that is evaluated
//! refuses it:
//!
//! ```
//! use nimlab_formula::Formula;
//! let e = Formula::compile("all(z: z + x != y)", &["x", "y"]).unwrap_err();
//! assert!(e.message.starts_with("all(…) is a universal quantifier"));
//! ```
//!
//! ## Evaluation
//!
//! A formula is parsed once into a tree (used for single evaluations, with exact
//! short-circuit semantics) and compiled into a batch program that evaluates a block of
//! cells per instruction ([`BatchEvaluator`]); divisions by constants become
//! multiplications. Blocks where anything faulted are recomputed exactly, so both
//! paths give the same values and the same errors.

mod batch;
pub mod check;
mod exact;
pub mod guess;
mod logic;
mod ops;
mod parse;
pub mod prove;

/// Not part of the API (hidden, no stability promise): the internals below the public
/// API that this crate's tests in tests/ check directly: the batch program's division by
/// a constant, the automata compiler of `prove` (and the quantified conditions it
/// reads), the Beatty predicate of `guess`.
#[doc(hidden)]
pub mod internals {
    pub use crate::batch::Magic;
    pub use crate::guess::beatty;
    pub use crate::logic::Compiler;
    pub use crate::parse_quantified;
}

use parse::{Expr, Kind, UnOp};
use std::fmt;

pub use batch::Column;
pub use parse::FUNCTIONS;

/// Deepest nesting accepted (keeps every recursive walk far from the stack's end).
pub const MAX_DEPTH: usize = 200;

/// A formula that failed to compile: the 1-based column and what was expected there.
///
/// ```
/// use nimlab_formula::Formula;
/// let e = Formula::compile("(x + ", &["x"]).unwrap_err();
/// assert_eq!(e.column, 6);
/// assert_eq!(e.to_string(), "formula error at column 6: expected a number, a variable, a function or '(', found the end of the formula");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FormulaError {
    /// 1-based column (in characters) of the offending token.
    pub column: usize,
    /// What is wrong, e.g. `expected ')' …`.
    pub message: String,
}

impl FormulaError {
    pub(crate) fn new(column: usize, message: impl Into<String>) -> Self {
        FormulaError {
            column,
            message: message.into(),
        }
    }
}

impl fmt::Display for FormulaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "formula error at column {}: {}",
            self.column, self.message
        )
    }
}

impl std::error::Error for FormulaError {}

/// A formula that failed on some input: what, where in the formula, with which values.
///
/// ```
/// use nimlab_formula::Formula;
/// let f = Formula::compile("x / y", &["x", "y"]).unwrap();
/// let e = f.eval(&[3, 0]).unwrap_err();
/// assert_eq!(e.to_string(), "division by zero at column 3 of 'x / y' (x = 3, y = 0)");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EvalError {
    /// What went wrong.
    pub message: String,
    /// 1-based column of the operator or function that failed.
    pub column: usize,
    /// The formula's text.
    pub formula: String,
    /// The variables' values.
    pub values: Vec<(String, i64)>,
}

impl fmt::Display for EvalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} at column {} of '{}'",
            self.message, self.column, self.formula
        )?;
        if !self.values.is_empty() {
            let vals: Vec<String> = self
                .values
                .iter()
                .map(|(n, v)| format!("{n} = {v}"))
                .collect();
            write!(f, " ({})", vals.join(", "))?;
        }
        Ok(())
    }
}

impl std::error::Error for EvalError {}

/// A compiled formula over named variables.
///
/// ```
/// use nimlab_formula::Formula;
/// let f = Formula::compile("if n % 4 == 0 then 0 else n % 4", &["n"]).unwrap();
/// assert_eq!(f.eval(&[7]).unwrap(), 3);
/// assert!(Formula::compile("x ^ 2 + y", &["x", "y"]).unwrap().eval(&[3, 1]).unwrap() == 10);
/// assert!(Formula::compile("x xor", &["x"]).is_err());
/// ```
#[derive(Debug, Clone)]
pub struct Formula {
    text: String,
    vars: Vec<String>,
    tree: Expr,
    program: batch::Program,
    uses: Vec<bool>,
}

impl Formula {
    /// Parses and compiles `text`; `vars` names the variables (their order is the order
    /// of values given to [`Formula::eval`]).
    pub fn compile(text: &str, vars: &[&str]) -> Result<Formula, FormulaError> {
        Self::compile_with_constants(text, vars, &[])
    }

    /// As [`Formula::compile`], with named constants (e.g. a rules file's parameters)
    /// folded in at compile time.
    ///
    /// ```
    /// use nimlab_formula::Formula;
    /// let f = Formula::compile_with_constants("x % p", &["x"], &[("p", 5)]).unwrap();
    /// assert_eq!(f.eval(&[12]).unwrap(), 2);
    /// ```
    pub fn compile_with_constants(
        text: &str,
        vars: &[&str],
        constants: &[(&str, i64)],
    ) -> Result<Formula, FormulaError> {
        let vars: Vec<String> = vars.iter().map(|v| v.to_string()).collect();
        let constants: Vec<(String, i64)> =
            constants.iter().map(|(n, v)| (n.to_string(), *v)).collect();
        let tree = fold(parse::parse(text, &vars, &constants)?);
        let mut uses = vec![false; vars.len()];
        mark_uses(&tree, &mut uses);
        let program = batch::Program::compile(&tree);
        Ok(Formula {
            text: text.to_string(),
            vars,
            tree,
            program,
            uses,
        })
    }

    /// The formula's text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The variable names, in value order.
    pub fn variables(&self) -> &[String] {
        &self.vars
    }

    /// Whether variable `index` occurs in the formula.
    pub fn uses_variable(&self, index: usize) -> bool {
        self.uses.get(index).copied().unwrap_or(false)
    }

    /// The value for `values` (one per variable, in order). Missing values count as 0.
    pub fn eval(&self, values: &[i64]) -> Result<i64, EvalError> {
        eval_tree(&self.tree, values).map_err(|(fault, column)| self.error(fault, column, values))
    }

    /// Evaluates exactly, with integers of any size: the value the prover's automata
    /// give the formula. Never overflows; equals [`Formula::eval`] wherever that one
    /// succeeds on non-negative digit-wise arguments. The error is the fault's words
    /// and its column.
    ///
    /// ```
    /// use nimlab_formula::Formula;
    /// use num_bigint::BigInt;
    /// let f = Formula::compile("(x + 2^63) / 2 xor 1", &["x"]).unwrap();
    /// let x = BigInt::from(i64::MAX);
    /// assert!(f.eval(&[i64::MAX]).is_err()); // overflows 64 bits
    /// let v = f.eval_exact(&[x.clone()]).unwrap();
    /// assert_eq!(v, ((x + (BigInt::from(1u8) << 63u32)) / 2) ^ BigInt::from(1));
    /// ```
    pub fn eval_exact(
        &self,
        values: &[num_bigint::BigInt],
    ) -> Result<num_bigint::BigInt, (String, usize)> {
        exact::eval(&self.tree, values).map_err(|(f, c)| (f.to_string(), c))
    }

    /// Whether the formula is a condition: a comparison, `&&`, `||`, `!`, an
    /// `if … then … else …` of conditions, or the constants `true`/`false` (0 or 1
    /// after folding). Rules files require this of their predicates.
    ///
    /// ```
    /// use nimlab_formula::Formula;
    /// assert!(Formula::compile("x == 0 || !(y < 2)", &["x", "y"]).unwrap().is_condition());
    /// assert!(Formula::compile("true", &[]).unwrap().is_condition());
    /// assert!(!Formula::compile("x + 1", &["x"]).unwrap().is_condition());
    /// ```
    pub fn is_condition(&self) -> bool {
        fn condition(e: &Expr) -> bool {
            match &e.kind {
                Kind::Num(v) => *v == 0 || *v == 1,
                Kind::Unary(UnOp::Not, _) => true,
                Kind::Binary(op, _, _) => op.is_condition(),
                Kind::If(_, a, b) => condition(a) && condition(b),
                Kind::All(..) => true,
                _ => false,
            }
        }
        condition(&self.tree)
    }

    /// The formula as a predicate: non-zero is true.
    ///
    /// ```
    /// use nimlab_formula::Formula;
    /// let p = Formula::compile("x xor y == 0", &["x", "y"]).unwrap();
    /// assert!(p.eval_bool(&[5, 5]).unwrap());
    /// ```
    pub fn eval_bool(&self, values: &[i64]) -> Result<bool, EvalError> {
        Ok(self.eval(values)? != 0)
    }

    /// A reusable evaluator of many cells at once (the fast path).
    pub fn evaluator(&self) -> BatchEvaluator<'_> {
        BatchEvaluator {
            formula: self,
            regs: vec![0; self.program.registers() * batch::BLOCK],
            locs: vec![batch::Loc::Uniform(0); self.program.registers()],
            cell: vec![0; self.vars.len()],
        }
    }

    fn error(&self, fault: ops::Fault, column: usize, values: &[i64]) -> EvalError {
        EvalError {
            message: fault.to_string(),
            column,
            formula: self.text.clone(),
            values: self
                .vars
                .iter()
                .enumerate()
                .filter(|(i, _)| self.uses[*i])
                .map(|(i, n)| (n.clone(), values.get(i).copied().unwrap_or(0)))
                .collect(),
        }
    }
}

/// Evaluates a formula on many cells, a block at a time.
///
/// ```
/// use nimlab_formula::{Column, Formula};
/// let f = Formula::compile("x * y", &["x", "y"]).unwrap();
/// let xs: Vec<i64> = (0..1000).collect();
/// let mut out = vec![0; 1000];
/// // y is 3 in every cell: a constant column is computed with once per block
/// f.evaluator().eval(&[Column::Values(&xs), Column::Constant(3)], &mut out).unwrap();
/// assert_eq!(out[999], 2997);
/// ```
pub struct BatchEvaluator<'f> {
    formula: &'f Formula,
    regs: Vec<i64>,
    locs: Vec<batch::Loc>,
    cell: Vec<i64>,
}

impl BatchEvaluator<'_> {
    /// `out[i]` = the formula with variable v taken from `columns[v]` in cell i. Every
    /// [`Column::Values`] must be at least `out.len()` long; missing columns count as 0.
    /// Stops at the first cell whose exact evaluation fails.
    pub fn eval(&mut self, columns: &[Column<'_>], out: &mut [i64]) -> Result<(), EvalError> {
        let f = self.formula;
        let n = out.len();
        for (v, col) in columns.iter().enumerate() {
            if let Column::Values(c) = col {
                assert!(c.len() >= n, "column {v} is shorter than the output");
            }
        }
        let mut block: Vec<Column<'_>> = columns.to_vec();
        let mut start = 0;
        while start < n {
            let len = (n - start).min(batch::BLOCK);
            for (b, c) in block.iter_mut().zip(columns) {
                if let Column::Values(vals) = c {
                    *b = Column::Values(&vals[start..start + len]);
                }
            }
            let dest = &mut out[start..start + len];
            let bad = f.program.run(&mut self.regs, &mut self.locs, &block, dest);
            if bad {
                // Recompute exactly: reports a real error, or confirms the fault only
                // happened in branches the exact semantics do not take.
                for (i, d) in dest.iter_mut().enumerate() {
                    for (v, c) in self.cell.iter_mut().enumerate() {
                        *c = match block.get(v) {
                            Some(Column::Values(vals)) => vals[i],
                            Some(Column::Constant(k)) => *k,
                            None => 0,
                        };
                    }
                    *d = f.eval(&self.cell)?;
                }
            }
            start += len;
        }
        Ok(())
    }
}

/// Exact evaluation with short-circuit `&&`, `||` and `if`. Recursion depth is bounded by
/// [`MAX_DEPTH`].
fn eval_tree(e: &Expr, vals: &[i64]) -> Result<i64, (ops::Fault, usize)> {
    let at = |r: Result<i64, ops::Fault>| r.map_err(|f| (f, e.col));
    match &e.kind {
        Kind::Num(n) => Ok(*n),
        Kind::Var(v) => Ok(vals.get(*v).copied().unwrap_or(0)),
        Kind::Unary(op, a) => at(ops::unary(*op, eval_tree(a, vals)?)),
        Kind::Binary(parse::BinOp::LogAnd, a, b) => {
            Ok((eval_tree(a, vals)? != 0 && eval_tree(b, vals)? != 0) as i64)
        }
        Kind::Binary(parse::BinOp::LogOr, a, b) => {
            Ok((eval_tree(a, vals)? != 0 || eval_tree(b, vals)? != 0) as i64)
        }
        Kind::Binary(op, a, b) => {
            let x = eval_tree(a, vals)?;
            let y = eval_tree(b, vals)?;
            at(ops::binary(*op, x, y))
        }
        Kind::If(c, a, b) => {
            if eval_tree(c, vals)? != 0 {
                eval_tree(a, vals)
            } else {
                eval_tree(b, vals)
            }
        }
        Kind::Call(func, args) => {
            let xs = args
                .iter()
                .map(|a| eval_tree(a, vals))
                .collect::<Result<Vec<i64>, _>>()?;
            at(ops::call(func, &xs))
        }
        // the parser refuses all(…) in formulas that are evaluated
        Kind::All(..) => Err((ops::QUANTIFIER, e.col)),
    }
}

/// Folds constant subtrees (`5*2` → 10) so the batch program sees constant operands.
/// A subtree whose evaluation fails is kept, to fail at run time only if reached.
fn fold(mut e: Expr) -> Expr {
    let all_const = |children: &[&Expr]| children.iter().all(|c| matches!(c.kind, Kind::Num(_)));
    e.kind = match e.kind {
        Kind::Unary(op, a) => Kind::Unary(op, Box::new(fold(*a))),
        Kind::Binary(op, a, b) => Kind::Binary(op, Box::new(fold(*a)), Box::new(fold(*b))),
        Kind::If(c, a, b) => Kind::If(Box::new(fold(*c)), Box::new(fold(*a)), Box::new(fold(*b))),
        Kind::Call(f, args) => Kind::Call(f, args.into_iter().map(fold).collect()),
        Kind::All(vs, body) => Kind::All(vs, Box::new(fold(*body))),
        k => k,
    };
    let foldable = match &e.kind {
        Kind::Unary(_, a) => all_const(&[a]),
        Kind::Binary(_, a, b) => all_const(&[a, b]),
        Kind::If(c, a, b) => all_const(&[c, a, b]),
        Kind::Call(_, args) => args.iter().all(|a| matches!(a.kind, Kind::Num(_))),
        _ => false,
    };
    if foldable && let Ok(v) = eval_tree(&e, &[]) {
        return Expr {
            kind: Kind::Num(v),
            col: e.col,
            depth: 1,
        };
    }
    e
}

fn mark_uses(e: &Expr, uses: &mut [bool]) {
    match &e.kind {
        Kind::Num(_) => {}
        Kind::Var(v) => {
            // a variable bound by all(…) has an index past the caller's
            if let Some(u) = uses.get_mut(*v) {
                *u = true;
            }
        }
        Kind::Unary(_, a) => mark_uses(a, uses),
        Kind::Binary(_, a, b) => {
            mark_uses(a, uses);
            mark_uses(b, uses);
        }
        Kind::If(c, a, b) => {
            mark_uses(c, uses);
            mark_uses(a, uses);
            mark_uses(b, uses);
        }
        Kind::Call(_, args) => args.iter().for_each(|a| mark_uses(a, uses)),
        Kind::All(_, body) => mark_uses(body, uses),
    }
}

/// Parses a condition that may contain `all(z0, z1: …)` (a move relation for a proof),
/// over `vars`; the tree for [`logic::Compiler`], never evaluated.
#[doc(hidden)] // for the tests in tests/ (`internals`)
pub fn parse_quantified(text: &str, vars: &[String]) -> Result<Expr, FormulaError> {
    Ok(fold(parse::parse_quantified(text, vars, &[])?))
}
