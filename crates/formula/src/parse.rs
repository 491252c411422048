//! Lexer and Pratt parser: formula text → [`Expr`] tree.
//!
//! Hand-written because the grammar is one precedence table plus calls and
//! `if … then … else`; a Pratt loop states that table directly, gives exact columns in
//! errors, and needs no dependency.

use crate::{FormulaError, MAX_DEPTH};
use nimlab_engine::nimarith::MixedRadix;

/// Binary operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    Pow,
    Xor,
    And,
    Or,
    Shl,
    Shr,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    LogAnd,
    LogOr,
}

impl BinOp {
    /// Whether the operator's value is a truth value (0 or 1): a comparison or a
    /// logical connective.
    pub(crate) fn is_condition(self) -> bool {
        use BinOp::*;
        matches!(self, Eq | Ne | Lt | Le | Gt | Ge | LogAnd | LogOr)
    }

    /// (left, right) binding powers; higher binds tighter.
    fn binding(self) -> (u8, u8) {
        use BinOp::*;
        match self {
            LogOr => (1, 2),
            LogAnd => (3, 4),
            Eq | Ne | Lt | Le | Gt | Ge => (5, 6),
            Or => (7, 8),
            Xor => (9, 10),
            And => (11, 12),
            Shl | Shr => (13, 14),
            Add | Sub => (15, 16),
            Mul | Div | Mod => (17, 18),
            // right-associative and tighter than unary minus: -2^2 = -4, 2^3^2 = 512
            Pow => (22, 21),
        }
    }
}

/// Binding power of the operand of prefix `-` and `!`.
const PREFIX_BP: u8 = 19;

/// Unary operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum UnOp {
    Neg,
    Not,
}

/// Built-in functions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Func {
    Min,
    Max,
    Abs,
    FloorLog2,
    Popcount,
    NimsumB,
    Sigma(MixedRadix),
    NNimsum,
    Fib,
    ZeckLow,
    FloorPhi,
}

/// Names of the built-in functions, for messages and docs.
pub const FUNCTIONS: &[&str] = &[
    "min",
    "max",
    "abs",
    "floor_log2",
    "popcount",
    "nimsum_b",
    "sigma",
    "nnimsum",
    "fib",
    "zeck_low",
    "floor_phi",
];

impl Func {
    /// (least, most) number of arguments (not counting sigma's `beta=`).
    fn arity(&self) -> (usize, usize) {
        match self {
            Func::Min | Func::Max => (1, usize::MAX),
            Func::Abs
            | Func::FloorLog2
            | Func::Popcount
            | Func::Fib
            | Func::ZeckLow
            | Func::FloorPhi => (1, 1),
            Func::NimsumB | Func::NNimsum => (1, usize::MAX),
            Func::Sigma(_) => (0, usize::MAX),
        }
    }
}

/// One node of a parsed formula. `col` is the 1-based column of the operator (or of the
/// token) that a runtime error should point at.
#[doc(hidden)] // for the tests in tests/ (`internals`)
#[derive(Debug, Clone)]
pub struct Expr {
    pub(crate) kind: Kind,
    pub(crate) col: usize,
    pub(crate) depth: usize,
}

#[derive(Debug, Clone)]
pub(crate) enum Kind {
    Num(i64),
    Var(usize),
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    If(Box<Expr>, Box<Expr>, Box<Expr>),
    Call(Func, Vec<Expr>),
    /// `all(z0, z1: condition)`: the condition for every natural value of the bound
    /// variables (their indices, above the caller's variables). Only a proof's automata
    /// decide it; [`parse`] refuses it, [`parse_quantified`] accepts it.
    All(Vec<usize>, Box<Expr>),
}

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Num(Result<i64, ()>),
    Ident(String),
    Sym(&'static str),
    End,
}

fn describe(t: &Tok) -> String {
    match t {
        Tok::Num(_) => "a number".into(),
        Tok::Ident(s) => format!("'{s}'"),
        Tok::Sym(s) => format!("'{s}'"),
        Tok::End => "the end of the formula".into(),
    }
}

const SYMBOLS: &[&str] = &[
    "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "+", "-", "*", "/", "%", "^", "&", "|", "<",
    ">", "!", "(", ")", ",", "[", "]", "=", "..", ":",
];

fn lex(text: &str) -> Result<Vec<(Tok, usize)>, FormulaError> {
    let mut toks = Vec::new();
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let col = i + 1;
        if c.is_whitespace() {
            i += 1;
        } else if c.is_ascii_digit() {
            let start = i;
            while i < chars.len() && (chars[i].is_ascii_digit() || chars[i] == '_') {
                i += 1;
            }
            let digits: String = chars[start..i].iter().filter(|&&c| c != '_').collect();
            toks.push((Tok::Num(digits.parse::<i64>().map_err(|_| ())), col));
        } else if c.is_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            toks.push((Tok::Ident(chars[start..i].iter().collect()), col));
        } else {
            let rest: String = chars[i..chars.len().min(i + 2)].iter().collect();
            match SYMBOLS.iter().find(|s| rest.starts_with(**s)) {
                Some(s) => {
                    toks.push((Tok::Sym(s), col));
                    i += s.chars().count();
                }
                None => {
                    return Err(FormulaError::new(
                        col,
                        format!("unexpected character '{c}'"),
                    ))
                }
            }
        }
    }
    toks.push((Tok::End, chars.len() + 1));
    Ok(toks)
}

struct Parser<'a> {
    toks: Vec<(Tok, usize)>,
    at: usize,
    vars: &'a [String],
    constants: &'a [(String, i64)],
    nesting: usize,
    /// Whether `all(…)` is accepted.
    quantifiers: bool,
    /// Bound variables in scope (innermost last), with their indices.
    bound: Vec<(String, usize)>,
    /// The next bound variable's index.
    next_bound: usize,
}

/// Parses `text` with variables `vars` (index = position in `vars`) and named
/// constants.
pub(crate) fn parse(
    text: &str,
    vars: &[String],
    constants: &[(String, i64)],
) -> Result<Expr, FormulaError> {
    parse_with(text, vars, constants, false)
}

/// As [`parse`], accepting `all(z0, z1: condition)`; the bound variables get the
/// indices `vars.len()`, `vars.len() + 1`, … in the order they are written.
pub(crate) fn parse_quantified(
    text: &str,
    vars: &[String],
    constants: &[(String, i64)],
) -> Result<Expr, FormulaError> {
    parse_with(text, vars, constants, true)
}

fn parse_with(
    text: &str,
    vars: &[String],
    constants: &[(String, i64)],
    quantifiers: bool,
) -> Result<Expr, FormulaError> {
    let mut p = Parser {
        toks: lex(text)?,
        at: 0,
        vars,
        constants,
        nesting: 0,
        quantifiers,
        bound: Vec::new(),
        next_bound: vars.len(),
    };
    if p.peek() == &Tok::End {
        return Err(FormulaError::new(
            1,
            "expected an expression, found nothing",
        ));
    }
    let e = p.expr(0)?;
    match p.peek() {
        Tok::End => Ok(e),
        t => Err(p.error(format!(
            "expected an operator or the end of the formula, found {}",
            describe(t)
        ))),
    }
}

/// A node over children of the given depths; too deep a tree is refused so that
/// evaluating and dropping it can never overflow the stack.
fn node(kind: Kind, col: usize, child_depths: &[usize]) -> Result<Expr, FormulaError> {
    let depth = 1 + child_depths.iter().copied().max().unwrap_or(0);
    if depth > MAX_DEPTH {
        return Err(FormulaError::new(
            col,
            format!("formula nested too deeply (more than {MAX_DEPTH} levels)"),
        ));
    }
    Ok(Expr { kind, col, depth })
}

impl Parser<'_> {
    fn peek(&self) -> &Tok {
        &self.toks[self.at].0
    }
    fn col(&self) -> usize {
        self.toks[self.at].1
    }
    fn bump(&mut self) -> (Tok, usize) {
        let t = self.toks[self.at].clone();
        if self.at + 1 < self.toks.len() {
            self.at += 1;
        }
        t
    }
    fn error(&self, msg: String) -> FormulaError {
        FormulaError::new(self.col(), msg)
    }
    fn expect(&mut self, sym: &str, context: &str) -> Result<(), FormulaError> {
        if self.peek() == &Tok::Sym(leak(sym)) {
            self.bump();
            Ok(())
        } else {
            Err(self.error(format!(
                "expected '{sym}' {context}, found {}",
                describe(self.peek())
            )))
        }
    }
    fn expect_word(&mut self, word: &str, context: &str) -> Result<(), FormulaError> {
        if matches!(self.peek(), Tok::Ident(w) if w == word) {
            self.bump();
            Ok(())
        } else {
            Err(self.error(format!(
                "expected '{word}' {context}, found {}",
                describe(self.peek())
            )))
        }
    }

    fn binop(&self) -> Option<BinOp> {
        use BinOp::*;
        Some(match self.peek() {
            Tok::Sym(s) => match *s {
                "+" => Add,
                "-" => Sub,
                "*" => Mul,
                "/" => Div,
                "%" => Mod,
                "^" => Pow,
                "&" => And,
                "|" => Or,
                "<<" => Shl,
                ">>" => Shr,
                "==" => Eq,
                "!=" => Ne,
                "<" => Lt,
                "<=" => Le,
                ">" => Gt,
                ">=" => Ge,
                "&&" => LogAnd,
                "||" => LogOr,
                _ => return None,
            },
            Tok::Ident(w) if w == "xor" => Xor,
            _ => return None,
        })
    }

    /// Pratt loop: an operand, then operators binding at least `min_bp`.
    fn expr(&mut self, min_bp: u8) -> Result<Expr, FormulaError> {
        self.nesting += 1;
        if self.nesting > MAX_DEPTH {
            return Err(self.error(format!(
                "formula nested too deeply (more than {MAX_DEPTH} levels)"
            )));
        }
        let mut lhs = self.operand()?;
        while let Some(op) = self.binop() {
            let (l_bp, r_bp) = op.binding();
            if l_bp < min_bp {
                break;
            }
            let (_, col) = self.bump();
            let rhs = self.expr(r_bp)?;
            let depths = [lhs.depth, rhs.depth];
            lhs = node(Kind::Binary(op, Box::new(lhs), Box::new(rhs)), col, &depths)?;
        }
        self.nesting -= 1;
        Ok(lhs)
    }

    fn operand(&mut self) -> Result<Expr, FormulaError> {
        let (tok, col) = self.bump();
        match tok {
            Tok::Num(Ok(n)) => node(Kind::Num(n), col, &[]),
            Tok::Num(Err(())) => Err(FormulaError::new(
                col,
                "number too large for a literal (at most 9223372036854775807); write a larger constant as a power, e.g. 2^63 + 5 (exact in a proof; beyond 64 bits an evaluation overflows)",
            )),
            Tok::Sym("-") | Tok::Sym("!") => {
                let op = if tok == Tok::Sym("-") {
                    UnOp::Neg
                } else {
                    UnOp::Not
                };
                let e = self.expr(PREFIX_BP)?;
                let depths = [e.depth];
                node(Kind::Unary(op, Box::new(e)), col, &depths)
            }
            Tok::Sym("(") => {
                let e = self.expr(0)?;
                self.expect(")", &format!("to close the '(' at column {col}"))?;
                Ok(e)
            }
            Tok::Ident(word) => self.word(word, col),
            t => Err(FormulaError::new(
                col,
                format!(
                    "expected a number, a variable, a function or '(', found {}",
                    describe(&t)
                ),
            )),
        }
    }

    fn word(&mut self, word: String, col: usize) -> Result<Expr, FormulaError> {
        match word.as_str() {
            "if" => {
                let c = self.expr(0)?;
                self.expect_word("then", "after the condition of 'if'")?;
                let a = self.expr(0)?;
                self.expect_word("else", "after the 'then' branch")?;
                let b = self.expr(0)?;
                let depths = [c.depth, a.depth, b.depth];
                return node(
                    Kind::If(Box::new(c), Box::new(a), Box::new(b)),
                    col,
                    &depths,
                );
            }
            "true" => return node(Kind::Num(1), col, &[]),
            "false" => return node(Kind::Num(0), col, &[]),
            "then" | "else" | "xor" => {
                return Err(FormulaError::new(
                    col,
                    format!("expected an expression, found '{word}'"),
                ))
            }
            _ => {}
        }
        if word == "all" && self.peek() == &Tok::Sym("(") {
            return self.all(col);
        }
        if self.peek() == &Tok::Sym("(") {
            return self.call(word, col);
        }
        if let Some((_, i)) = self.bound.iter().rev().find(|(n, _)| *n == word) {
            return node(Kind::Var(*i), col, &[]);
        }
        if let Some(i) = self.vars.iter().position(|v| *v == word) {
            return node(Kind::Var(i), col, &[]);
        }
        if let Some((_, v)) = self.constants.iter().find(|(n, _)| *n == word) {
            return node(Kind::Num(*v), col, &[]);
        }
        let mut known: Vec<&str> = self.vars.iter().map(String::as_str).collect();
        known.extend(self.constants.iter().map(|(n, _)| n.as_str()));
        Err(FormulaError::new(
            col,
            if FUNCTIONS.contains(&word.as_str()) {
                format!("expected '(' after the function name '{word}'")
            } else {
                format!(
                    "unknown variable '{word}' (variables: {})",
                    if known.is_empty() {
                        "none".to_string()
                    } else {
                        known.join(", ")
                    }
                )
            },
        ))
    }

    /// `all(z0, z1: condition)` (after the word `all`).
    fn all(&mut self, col: usize) -> Result<Expr, FormulaError> {
        if !self.quantifiers {
            return Err(FormulaError::new(
                col,
                "all(…) is a universal quantifier over the naturals: only the automata of \
                 a proof decide it, a formula that is evaluated cannot use it",
            ));
        }
        self.bump(); // '('
        let scope = self.bound.len();
        loop {
            let (tok, c) = self.bump();
            match tok {
                Tok::Ident(name)
                    if !self.vars.contains(&name)
                        && !self.constants.iter().any(|(n, _)| *n == name)
                        && !self.bound.iter().any(|(n, _)| *n == name)
                        && !FUNCTIONS.contains(&name.as_str())
                        && !matches!(
                            name.as_str(),
                            "all" | "if" | "then" | "else" | "xor" | "true" | "false"
                        ) =>
                {
                    self.bound.push((name, self.next_bound));
                    self.next_bound += 1;
                }
                Tok::Ident(name) => {
                    return Err(FormulaError::new(
                        c,
                        format!("all: '{name}' is already a name; bind a new variable"),
                    ))
                }
                t => {
                    return Err(FormulaError::new(
                        c,
                        format!(
                            "expected a new variable name in all(…), found {}",
                            describe(&t)
                        ),
                    ))
                }
            }
            match self.peek() {
                Tok::Sym(",") => {
                    self.bump();
                }
                Tok::Sym(":") => {
                    self.bump();
                    break;
                }
                t => {
                    return Err(self.error(format!(
                        "expected ',' or ':' after a variable of all(…), found {}",
                        describe(t)
                    )))
                }
            }
        }
        let body = self.expr(0)?;
        self.expect(")", &format!("to close the all( at column {col}"))?;
        let vars: Vec<usize> = self.bound[scope..].iter().map(|(_, i)| *i).collect();
        self.bound.truncate(scope);
        let depths = [body.depth];
        node(Kind::All(vars, Box::new(body)), col, &depths)
    }

    fn call(&mut self, name: String, col: usize) -> Result<Expr, FormulaError> {
        self.bump(); // '('
        let mut func = match name.as_str() {
            "min" => Func::Min,
            "max" => Func::Max,
            "abs" => Func::Abs,
            "floor_log2" => Func::FloorLog2,
            "popcount" => Func::Popcount,
            "nimsum_b" => Func::NimsumB,
            "nnimsum" => Func::NNimsum,
            "fib" => Func::Fib,
            "zeck_low" => Func::ZeckLow,
            "floor_phi" => Func::FloorPhi,
            "sigma" => Func::Sigma(MixedRadix::new(vec![2]).expect("2 is a base")),
            _ => {
                return Err(FormulaError::new(
                    col,
                    format!(
                        "unknown function '{name}' (functions: {})",
                        FUNCTIONS.join(", ")
                    ),
                ))
            }
        };
        let mut args: Vec<Expr> = Vec::new();
        if let Func::Sigma(_) = func {
            func = Func::Sigma(self.beta()?);
            if self.peek() == &Tok::Sym(",") {
                self.bump();
            } else if self.peek() != &Tok::Sym(")") {
                return Err(self.error(format!(
                    "expected ',' or ')' after beta=[…], found {}",
                    describe(self.peek())
                )));
            }
        }
        if self.peek() != &Tok::Sym(")") {
            loop {
                args.push(self.expr(0)?);
                match self.peek() {
                    Tok::Sym(",") => {
                        self.bump();
                    }
                    Tok::Sym(")") => break,
                    t => {
                        return Err(self.error(format!(
                            "expected ',' or ')' in the arguments of {name}, found {}",
                            describe(t)
                        )))
                    }
                }
            }
        }
        self.bump(); // ')'
        let (least, most) = func.arity();
        if args.len() < least || args.len() > most {
            return Err(FormulaError::new(
                col,
                format!(
                    "{name} takes {} argument{}, got {}",
                    if most == usize::MAX {
                        format!("at least {least}")
                    } else {
                        least.to_string()
                    },
                    if least == 1 && most == 1 { "" } else { "s" },
                    args.len()
                ),
            ));
        }
        let depths: Vec<usize> = args.iter().map(|a| a.depth).collect();
        node(Kind::Call(func, args), col, &depths)
    }

    /// `beta=[b0, b1, …]` — the mixed radix of `sigma`, literal naturals ≥ 2 (or named
    /// constants), in the one syntax of [`MixedRadix::parse`]: `[60,24,7..]`,
    /// `[2,(3,5)..]`, or `[3,2]` (the last base repeats).
    fn beta(&mut self) -> Result<MixedRadix, FormulaError> {
        self.expect_word(
            "beta",
            "as the first argument of sigma (sigma(beta=[3,2..], x, y))",
        )?;
        self.expect("=", "after beta")?;
        let open_col = self.col();
        self.expect("[", "to open the list of bases")?;
        let mut text = String::from("[");
        loop {
            let (tok, col) = self.bump();
            match tok {
                Tok::Num(Ok(b)) if b >= 2 => text.push_str(&b.to_string()),
                Tok::Num(Ok(b)) => {
                    return Err(FormulaError::new(
                        col,
                        format!("every base of beta must be ≥ 2, got {b}"),
                    ))
                }
                // A named constant (a rules file's parameter) may stand for a base.
                Tok::Ident(name) => match self.constants.iter().find(|(n, _)| *n == name) {
                    Some((_, v)) if *v >= 2 => text.push_str(&v.to_string()),
                    _ => {
                        return Err(FormulaError::new(
                            col,
                            format!("expected a base (an integer ≥ 2) in beta, found '{name}'"),
                        ))
                    }
                },
                Tok::Sym("]") => {
                    text.push(']');
                    break;
                }
                Tok::Sym(s @ ("," | "(" | ")" | "..")) => text.push_str(s),
                t => {
                    return Err(FormulaError::new(
                        col,
                        format!(
                            "expected a base (an integer ≥ 2), ',', '..' or ']' in beta, found {}",
                            describe(&t)
                        ),
                    ))
                }
            }
        }
        MixedRadix::parse(&text).map_err(|e| {
            let msg = e.to_string();
            let msg = msg
                .split_once(": ")
                .map_or(msg.as_str(), |(_, m)| m)
                .to_string();
            FormulaError::new(open_col, format!("beta: {msg}"))
        })
    }
}

/// Symbols are `&'static str` in tokens; map a literal back to its static copy.
fn leak(sym: &str) -> &'static str {
    SYMBOLS.iter().find(|s| **s == sym).copied().unwrap_or("")
}
