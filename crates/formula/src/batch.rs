//! The batch program: a formula compiled to a list of instructions, each applied to a
//! whole block of cells at once. Interpretation overhead is paid once per block, and
//! each instruction is a tight loop the compiler can unroll and vectorize.
//!
//! Instructions are *total*: division by zero, overflow etc. write a dummy value and
//! raise the block's `bad` flag. A flagged block is recomputed cell by cell by the exact
//! tree evaluator, which reports the first real error — or none, when the flag came only
//! from a branch of `if`/`&&`/`||` that the exact semantics never take.

use crate::ops;
use crate::parse::{BinOp, Expr, Func, Kind, UnOp};

/// Cells per block: registers stay in L1 cache.
pub(crate) const BLOCK: usize = 256;

/// Unsigned division by a constant 1 ≤ d via one 64×64→128 multiplication
/// (Granlund–Montgomery): for 0 ≤ x < 2^63, ⌊x/d⌋ = ⌊m·x / 2^(63+ℓ)⌋ with
/// ℓ = ⌈log₂ d⌉ and m = ⌈2^(63+ℓ)/d⌉ < 2^64.
#[doc(hidden)] // for the tests in tests/ (`internals`)
#[derive(Debug, Clone, Copy)]
pub struct Magic {
    d: i64,
    m: u64,
    shift: u32,
}

impl Magic {
    /// The magic numbers of `d`; none for d < 1.
    pub fn new(d: i64) -> Option<Magic> {
        if d < 1 {
            return None;
        }
        let l = 64 - (d as u64 - 1).leading_zeros(); // ⌈log₂ d⌉ (0 for d = 1)
        let shift = 63 + l;
        let m = (1u128 << shift).div_ceil(d as u128);
        Some(Magic {
            d,
            m: u64::try_from(m).ok()?,
            shift,
        })
    }

    /// ⌊a/d⌋ for any a: for a < 0 it is !⌊!a/d⌋ (since −a−1 = !a ≥ 0), done without a branch.
    #[inline(always)]
    pub fn floor_div(self, a: i64) -> i64 {
        let sign = a >> 63;
        let x = (a ^ sign) as u64;
        let q = ((x as u128 * self.m as u128) >> self.shift) as i64;
        q ^ sign
    }

    /// `out[i] = ⌊a[i]/d⌋`. When the whole block lies in [0, 2^31) and d < 2^31 (the
    /// usual case: coordinates of a table), a 32×32→64-bit multiplication suffices,
    /// which vectorizes; otherwise the 64-bit path.
    #[inline(always)]
    pub fn floor_div_all(self, a: &[i64], out: &mut [i64]) {
        match self.small() {
            Some((m, shift)) if fits_u31(a) => {
                for (o, &x) in out.iter_mut().zip(a) {
                    *o = ((x as u32 as u64 * m) >> shift) as i64;
                }
            }
            _ => {
                for (o, &x) in out.iter_mut().zip(a) {
                    *o = self.floor_div(x);
                }
            }
        }
    }

    /// `out[i] = a[i] mod d`, with the same fast path as [`Magic::floor_div_all`].
    #[inline(always)]
    pub fn modulo_all(self, a: &[i64], out: &mut [i64]) {
        match self.small() {
            Some((m, shift)) if fits_u31(a) => {
                let d = self.d as u32 as u64;
                for (o, &x) in out.iter_mut().zip(a) {
                    let x = x as u32 as u64;
                    let q = (x * m) >> shift;
                    *o = (x - (q as u32 as u64) * d) as i64;
                }
            }
            _ => {
                for (o, &x) in out.iter_mut().zip(a) {
                    *o = self.modulo(x);
                }
            }
        }
    }

    /// The 31-bit magic: for 0 ≤ x < 2^31, ⌊x/d⌋ = ⌊x·m / 2^(31+ℓ)⌋ with
    /// m = ⌈2^(31+ℓ)/d⌉ < 2^32 (same theorem as above with N = 31).
    #[inline(always)]
    fn small(self) -> Option<(u64, u32)> {
        if self.d >= 1 << 31 {
            return None;
        }
        let l = self.shift - 63;
        let shift = 31 + l;
        let m = (1u64 << shift).div_ceil(self.d as u64);
        Some((m, shift))
    }

    /// a mod d ∈ [0, d).
    #[inline(always)]
    pub fn modulo(self, a: i64) -> i64 {
        a.wrapping_sub(self.floor_div(a).wrapping_mul(self.d))
    }
}

/// Whether every value is in [0, 2^31).
#[inline(always)]
fn fits_u31(a: &[i64]) -> bool {
    a.iter().fold(0u64, |acc, &x| acc | x as u64) < 1 << 31
}

#[derive(Debug, Clone)]
enum Inst {
    Var {
        dst: usize,
        var: usize,
    },
    Const {
        dst: usize,
        value: i64,
    },
    Bin {
        dst: usize,
        op: BinOp,
        a: usize,
        b: usize,
    },
    BinK {
        dst: usize,
        op: BinOp,
        a: usize,
        k: i64,
    },
    DivK {
        dst: usize,
        a: usize,
        magic: Magic,
    },
    ModK {
        dst: usize,
        a: usize,
        magic: Magic,
    },
    Un {
        dst: usize,
        op: UnOp,
        a: usize,
    },
    Select {
        dst: usize,
        c: usize,
        a: usize,
        b: usize,
    },
    Call {
        dst: usize,
        func: Func,
        args: Vec<usize>,
    },
}

/// A compiled formula.
#[derive(Debug, Clone)]
pub(crate) struct Program {
    insts: Vec<Inst>,
    registers: usize,
    result: usize,
}

impl Program {
    pub(crate) fn compile(e: &Expr) -> Program {
        let mut p = Program {
            insts: Vec::new(),
            registers: 0,
            result: 0,
        };
        p.result = p.emit(e);
        p
    }

    pub(crate) fn registers(&self) -> usize {
        self.registers
    }

    fn fresh(&mut self) -> usize {
        self.registers += 1;
        self.registers - 1
    }

    fn constant(e: &Expr) -> Option<i64> {
        match e.kind {
            Kind::Num(n) => Some(n),
            _ => None,
        }
    }

    /// Emits code for `e` (children first, so every source register is lower than its
    /// destination); returns the register holding the result. Recursion depth is
    /// bounded by the parser's nesting limit.
    fn emit(&mut self, e: &Expr) -> usize {
        let inst = match &e.kind {
            Kind::Num(n) => {
                let dst = self.fresh();
                Inst::Const { dst, value: *n }
            }
            Kind::Var(v) => {
                let dst = self.fresh();
                Inst::Var { dst, var: *v }
            }
            Kind::Unary(op, a) => {
                let a = self.emit(a);
                let dst = self.fresh();
                Inst::Un { dst, op: *op, a }
            }
            Kind::Binary(op, l, r) => {
                let commutes = matches!(
                    op,
                    BinOp::Add
                        | BinOp::Mul
                        | BinOp::Xor
                        | BinOp::And
                        | BinOp::Or
                        | BinOp::Eq
                        | BinOp::Ne
                );
                let (l, r) = match (Self::constant(l), commutes) {
                    (Some(_), true) if Self::constant(r).is_none() => (r, l),
                    _ => (l, r),
                };
                match Self::constant(r) {
                    Some(k) => {
                        let a = self.emit(l);
                        let dst = self.fresh();
                        match (op, Magic::new(k)) {
                            (BinOp::Div, Some(magic)) => Inst::DivK { dst, a, magic },
                            (BinOp::Mod, Some(magic)) => Inst::ModK { dst, a, magic },
                            _ => Inst::BinK { dst, op: *op, a, k },
                        }
                    }
                    None => {
                        let a = self.emit(l);
                        let b = self.emit(r);
                        let dst = self.fresh();
                        Inst::Bin { dst, op: *op, a, b }
                    }
                }
            }
            Kind::If(c, a, b) => {
                let c = self.emit(c);
                let a = self.emit(a);
                let b = self.emit(b);
                let dst = self.fresh();
                Inst::Select { dst, c, a, b }
            }
            Kind::Call(func, args) => {
                let args: Vec<usize> = args.iter().map(|a| self.emit(a)).collect();
                let dst = self.fresh();
                Inst::Call {
                    dst,
                    func: func.clone(),
                    args,
                }
            }
            // Formula::compile refuses all(…); quantified trees never become programs
            Kind::All(..) => unreachable!("all(…) is only parsed for proofs"),
        };
        let dst = match &inst {
            Inst::Var { dst, .. }
            | Inst::Const { dst, .. }
            | Inst::Bin { dst, .. }
            | Inst::BinK { dst, .. }
            | Inst::DivK { dst, .. }
            | Inst::ModK { dst, .. }
            | Inst::Un { dst, .. }
            | Inst::Select { dst, .. }
            | Inst::Call { dst, .. } => *dst,
        };
        self.insts.push(inst);
        dst
    }

    /// Runs the program on `n ≤ BLOCK` cells. `regs` has `registers() * BLOCK` entries
    /// and `locs` has `registers()` entries; `columns[v]` is variable v on the block.
    /// Registers whose value is the same in every cell (constants, constant columns,
    /// anything computed only from them) are computed once, like a compiler hoists loop
    /// invariants. Writes the result to `out` and returns whether any instruction faulted
    /// somewhere in the block.
    pub(crate) fn run(
        &self,
        regs: &mut [i64],
        locs: &mut [Loc],
        columns: &[Column<'_>],
        out: &mut [i64],
    ) -> bool {
        // Over 100 lines because it is the evaluator's dispatch (bench eval): one arm per
        // instruction, each a vectorised loop over the block, in one hot match.
        let n = out.len();
        let mut bad = false;
        for inst in &self.insts {
            match *inst {
                Inst::Var { dst, var } => {
                    locs[dst] = match columns.get(var) {
                        Some(Column::Values(_)) => Loc::Col(var),
                        Some(Column::Constant(v)) => Loc::Uniform(*v),
                        None => Loc::Uniform(0),
                    }
                }
                Inst::Const { dst, value } => locs[dst] = Loc::Uniform(value),
                Inst::Bin { dst, op, a, b } => {
                    locs[dst] = match (locs[a], locs[b]) {
                        (Loc::Uniform(x), Loc::Uniform(y)) => {
                            uniform(ops::binary(op, x, y), &mut bad)
                        }
                        (la, lb) => {
                            let (src, o) = regs.split_at_mut(dst * BLOCK);
                            let o = &mut o[..n];
                            let src = &*src;
                            match (la, lb) {
                                (_, Loc::Uniform(k)) => {
                                    let a = slice(src, columns, la, n);
                                    bad |= bin_loop(op, o, a, |_| k);
                                }
                                (Loc::Uniform(k), _) => {
                                    let b = slice(src, columns, lb, n);
                                    bad |= bin_loop_left(op, o, k, b);
                                }
                                _ => {
                                    let a = slice(src, columns, la, n);
                                    let b = slice(src, columns, lb, n);
                                    bad |= bin_loop(op, o, a, |i| b[i]);
                                }
                            }
                            Loc::Reg(dst)
                        }
                    }
                }
                Inst::BinK { dst, op, a, k } => {
                    locs[dst] = match locs[a] {
                        Loc::Uniform(x) => uniform(ops::binary(op, x, k), &mut bad),
                        la => {
                            let (src, o) = regs.split_at_mut(dst * BLOCK);
                            let a = slice(src, columns, la, n);
                            bad |= bin_loop(op, &mut o[..n], a, |_| k);
                            Loc::Reg(dst)
                        }
                    }
                }
                Inst::DivK { dst, a, magic } => {
                    locs[dst] = match locs[a] {
                        Loc::Uniform(x) => Loc::Uniform(magic.floor_div(x)),
                        la => {
                            let (src, o) = regs.split_at_mut(dst * BLOCK);
                            let a = slice(src, columns, la, n);
                            magic.floor_div_all(a, &mut o[..n]);
                            Loc::Reg(dst)
                        }
                    }
                }
                Inst::ModK { dst, a, magic } => {
                    locs[dst] = match locs[a] {
                        Loc::Uniform(x) => Loc::Uniform(magic.modulo(x)),
                        la => {
                            let (src, o) = regs.split_at_mut(dst * BLOCK);
                            let a = slice(src, columns, la, n);
                            magic.modulo_all(a, &mut o[..n]);
                            Loc::Reg(dst)
                        }
                    }
                }
                Inst::Un { dst, op, a } => {
                    locs[dst] = match locs[a] {
                        Loc::Uniform(x) => uniform(ops::unary(op, x), &mut bad),
                        la => {
                            let (src, o) = regs.split_at_mut(dst * BLOCK);
                            let a = slice(src, columns, la, n);
                            for (o, &x) in o[..n].iter_mut().zip(a) {
                                *o = ops::unary(op, x).unwrap_or_else(|_| {
                                    bad = true;
                                    0
                                });
                            }
                            Loc::Reg(dst)
                        }
                    }
                }
                Inst::Select { dst, c, a, b } => {
                    locs[dst] = match (locs[c], locs[a], locs[b]) {
                        (Loc::Uniform(k), la, lb) => {
                            // Only the taken branch's location is needed.
                            let taken = if k != 0 { la } else { lb };
                            match taken {
                                Loc::Uniform(_) => taken,
                                _ => {
                                    let (src, o) = regs.split_at_mut(dst * BLOCK);
                                    o[..n].copy_from_slice(slice(src, columns, taken, n));
                                    Loc::Reg(dst)
                                }
                            }
                        }
                        (lc, la, lb) => {
                            let (src, o) = regs.split_at_mut(dst * BLOCK);
                            let c = slice(src, columns, lc, n);
                            for (i, o) in o[..n].iter_mut().enumerate() {
                                *o = if c[i] != 0 {
                                    value(src, columns, la, i)
                                } else {
                                    value(src, columns, lb, i)
                                };
                            }
                            Loc::Reg(dst)
                        }
                    }
                }
                Inst::Call {
                    dst,
                    ref func,
                    ref args,
                } => {
                    let mut vals = vec![0i64; args.len()];
                    if args.iter().all(|&r| matches!(locs[r], Loc::Uniform(_))) {
                        for (v, &r) in vals.iter_mut().zip(args) {
                            *v = value(&[], columns, locs[r], 0);
                        }
                        locs[dst] = uniform(ops::call(func, &vals), &mut bad);
                    } else {
                        let (src, o) = regs.split_at_mut(dst * BLOCK);
                        for (i, o) in o[..n].iter_mut().enumerate() {
                            for (v, &r) in vals.iter_mut().zip(args) {
                                *v = value(src, columns, locs[r], i);
                            }
                            *o = ops::call(func, &vals).unwrap_or_else(|_| {
                                bad = true;
                                0
                            });
                        }
                        locs[dst] = Loc::Reg(dst);
                    }
                }
            }
        }
        let r = self.result;
        match locs[r] {
            Loc::Uniform(v) => out.fill(v),
            l => out.copy_from_slice(slice(&regs[..r * BLOCK + BLOCK], columns, l, n)),
        }
        bad
    }
}

/// Where a register's values for the current block are.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Loc {
    /// In register r's slot of the register file.
    Reg(usize),
    /// It is variable v's column (not copied).
    Col(usize),
    /// The same value in every cell.
    Uniform(i64),
}

/// The values of one variable over a block: one per cell, or one for all.
#[derive(Debug, Clone, Copy)]
pub enum Column<'a> {
    /// `values[i]` in cell i.
    Values(&'a [i64]),
    /// The same value in every cell (e.g. the row coordinate along a row).
    Constant(i64),
}

fn uniform(r: Result<i64, ops::Fault>, bad: &mut bool) -> Loc {
    Loc::Uniform(r.unwrap_or_else(|_| {
        *bad = true;
        0
    }))
}

/// A non-uniform register's values as a slice. `src` holds (at least) the registers
/// below the one being written, which are all an instruction reads.
#[inline(always)]
fn slice<'s>(src: &'s [i64], columns: &'s [Column<'s>], loc: Loc, n: usize) -> &'s [i64] {
    match loc {
        Loc::Reg(r) => &src[r * BLOCK..r * BLOCK + n],
        Loc::Col(v) => match columns[v] {
            Column::Values(c) => &c[..n],
            Column::Constant(_) => unreachable!("constant columns are uniform"),
        },
        Loc::Uniform(_) => unreachable!("uniform registers have no slice"),
    }
}

/// One cell of a register.
#[inline(always)]
fn value(src: &[i64], columns: &[Column<'_>], loc: Loc, i: usize) -> i64 {
    match loc {
        Loc::Uniform(v) => v,
        Loc::Reg(r) => src[r * BLOCK + i],
        Loc::Col(v) => match columns[v] {
            Column::Values(c) => c[i],
            Column::Constant(k) => k,
        },
    }
}

/// `out[i] = a[i] op b(i)`; returns whether any cell faulted. The common operators get
/// their own loops; the rest go through the shared scalar definition.
#[inline(always)]
fn bin_loop(op: BinOp, out: &mut [i64], a: &[i64], b: impl Fn(usize) -> i64) -> bool {
    let a = &a[..out.len()];
    bin_loop_with(op, out, |i| a[i], b)
}

/// `out[i] = k op b[i]`.
#[inline(always)]
fn bin_loop_left(op: BinOp, out: &mut [i64], k: i64, b: &[i64]) -> bool {
    let b = &b[..out.len()];
    bin_loop_with(op, out, |_| k, |i| b[i])
}

#[inline(always)]
fn bin_loop_with(
    op: BinOp,
    out: &mut [i64],
    a: impl Fn(usize) -> i64,
    b: impl Fn(usize) -> i64,
) -> bool {
    let mut bad = false;
    macro_rules! each {
        (|$x:ident, $y:ident| $body:expr) => {
            for i in 0..out.len() {
                let ($x, $y) = (a(i), b(i));
                out[i] = $body;
            }
        };
    }
    match op {
        // Sign-bit overflow tests accumulate in an integer, so these loops vectorize.
        BinOp::Add => {
            let mut acc = 0i64;
            each!(|x, y| {
                let r = x.wrapping_add(y);
                acc |= (x ^ r) & (y ^ r);
                r
            });
            bad = acc < 0;
        }
        BinOp::Sub => {
            let mut acc = 0i64;
            each!(|x, y| {
                let r = x.wrapping_sub(y);
                acc |= (x ^ y) & (x ^ r);
                r
            });
            bad = acc < 0;
        }
        BinOp::Mul => each!(|x, y| {
            let (r, o) = x.overflowing_mul(y);
            bad |= o;
            r
        }),
        BinOp::Xor => each!(|x, y| x ^ y),
        BinOp::And => each!(|x, y| x & y),
        BinOp::Or => each!(|x, y| x | y),
        BinOp::Eq => each!(|x, y| (x == y) as i64),
        BinOp::Ne => each!(|x, y| (x != y) as i64),
        BinOp::Lt => each!(|x, y| (x < y) as i64),
        BinOp::Le => each!(|x, y| (x <= y) as i64),
        BinOp::Gt => each!(|x, y| (x > y) as i64),
        BinOp::Ge => each!(|x, y| (x >= y) as i64),
        BinOp::LogAnd => each!(|x, y| (x != 0 && y != 0) as i64),
        BinOp::LogOr => each!(|x, y| (x != 0 || y != 0) as i64),
        _ => each!(|x, y| match ops::binary(op, x, y) {
            Ok(v) => v,
            Err(_) => {
                bad = true;
                0
            }
        }),
    }
    bad
}
