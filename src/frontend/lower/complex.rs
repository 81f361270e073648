//! `_Complex` values in device code (C11 6.2.5, Annex G): like a struct, a
//! complex value is carried as the address of its storage (two parts of
//! its real type, real part first; the parts of a `long double _Complex`
//! are x87 objects, computed with in double precision).
//!
//! Owns: the methods of `Lower` that read and build complex values, convert
//! to and from them (a real value has imaginary part 0; a complex value
//! converts to a real one by its real part, to `_Bool` by either part being
//! non-zero), the operators `+ - * /` (real operands are not widened: `x *
//! (a+bi)` is `xa + xbi`; division uses Smith's scaling, so that it
//! overflows no sooner than the quotient), `== !=`, unary `+ -`, GNU `~`
//! (conjugate), and the `<complex.h>` functions `creal cimag conj cabs
//! carg` (with their `f` and `l` forms) and GCC's `__builtin_complex`.
//! Multiplication is the textbook formula, without Annex G's recovery of
//! infinities from NaN results. May call: `ir`, the rest of `lower`.

use super::Lower;
use crate::diag::DResult;
use crate::frontend::conv::usual_arith;
use crate::frontend::ctype::CType;
use crate::ir::{BinOp, CmpOp, Expr, ExprId, IntKind, Literal, MathFunc, Stmt, Type, UnOp};
use lang_c::ast::{BinaryOperator, Expression};
use lang_c::span::{Node, Span};

impl Lower<'_> {
    /// The address of part `k` (0 real, 1 imaginary) of the complex object
    /// at `addr` whose real type is `real`.
    fn part_addr(&mut self, addr: ExprId, real: &CType, k: i128) -> DResult<ExprId> {
        let size = real.size().unwrap_or(8);
        let byte = Type::Int(IntKind::U8).ptr_to();
        let b = self.cast_ir(addr, byte.clone());
        let off = self.f.int(k * i128::from(size), Type::I64);
        let p = self.f.add(
            Expr::PtrAdd {
                base: b,
                index: off,
            },
            byte,
        );
        let mem = real.mem_ir().unwrap_or(Type::F64);
        Ok(self.cast_ir(p, mem.ptr_to()))
    }

    /// The real and imaginary parts (values of the real type's IR type) of
    /// complex value `x` (an address) of type `t`.
    pub fn complex_parts(&mut self, x: ExprId, t: &CType, span: Span) -> DResult<(ExprId, ExprId)> {
        let real = t.real();
        let ir = self.ir_type(&real, span)?;
        let a = self.hold(x);
        let part = |l: &mut Self, k: i128| -> DResult<ExprId> {
            let base = l.f.read(a);
            let p = l.part_addr(base, &real, k)?;
            Ok(if real == CType::LongDouble {
                l.load_x87(p)
            } else {
                l.f.add(Expr::Load(p), ir.clone())
            })
        };
        let re = part(self, 0)?;
        let re = self.hold(re);
        let im = part(self, 1)?;
        Ok((self.f.read(re), im))
    }

    /// A new complex value of type `t` from its parts (of the real type's IR
    /// type): the address of a fresh local holding them.
    pub fn make_complex(
        &mut self,
        re: ExprId,
        im: ExprId,
        t: &CType,
        span: Span,
    ) -> DResult<ExprId> {
        let real = t.real();
        let ir = self.ir_type(t, span)?;
        let tmp = self.temp(ir.clone());
        for (k, v) in [(0, re), (1, im)] {
            let a = self.f.add(Expr::LocalAddr(tmp), ir.ptr_to());
            let p = self.part_addr(a, &real, k)?;
            if real == CType::LongDouble {
                for s in self.store_x87(p, v) {
                    self.emit(s);
                }
            } else {
                self.emit(Stmt::Store { ptr: p, value: v });
            }
        }
        Ok(self.f.add(Expr::LocalAddr(tmp), ir.ptr_to()))
    }

    /// Conversions that involve a complex type (`from` or `to`).
    pub fn convert_complex(
        &mut self,
        x: ExprId,
        from: &CType,
        to: &CType,
        span: Span,
    ) -> DResult<ExprId> {
        match (from.is_complex(), to) {
            (true, CType::Complex(real)) => {
                let (re, im) = self.complex_parts(x, from, span)?;
                let fr = from.real();
                let re = self.convert(re, &fr, real, span)?;
                let re = self.hold(re);
                let im = self.convert(im, &fr, real, span)?;
                let re = self.f.read(re);
                self.make_complex(re, im, to, span)
            }
            (false, CType::Complex(real)) if from.is_arithmetic() => {
                let re = self.convert(x, from, real, span)?;
                let ir = self.ir_type(real, span)?;
                let zero = self.f.add(Expr::Literal(Literal::Float(0.0)), ir);
                self.make_complex(re, zero, to, span)
            }
            (true, CType::Bool) => {
                let t = self.complex_truth(x, from, span)?;
                Ok(self.f.add(Expr::Cast(t), Type::Int(IntKind::U8)))
            }
            (true, t) if t.is_arithmetic() => {
                let (re, _) = self.complex_parts(x, from, span)?;
                let fr = from.real();
                self.convert(re, &fr, t, span)
            }
            _ => self.err(span, format!("cannot convert '{from}' to '{to}'")),
        }
    }

    /// `x != 0` for complex `x`: either part non-zero.
    pub fn complex_truth(&mut self, x: ExprId, t: &CType, span: Span) -> DResult<ExprId> {
        let (re, im) = self.complex_parts(x, t, span)?;
        let ir = self.f.ty(re).clone();
        let nz = |l: &mut Self, v: ExprId| {
            let z = l.f.add(Expr::Literal(Literal::Float(0.0)), ir.clone());
            l.f.add(
                Expr::Cmp {
                    op: CmpOp::Ne,
                    lhs: v,
                    rhs: z,
                },
                Type::BOOL,
            )
        };
        let a = nz(self, re);
        let b = nz(self, im);
        Ok(self.f.add(
            Expr::Logical {
                and: false,
                lhs: a,
                rhs: b,
            },
            Type::BOOL,
        ))
    }

    fn fbin(&mut self, op: BinOp, a: ExprId, b: ExprId) -> ExprId {
        let t = self.f.ty(a).clone();
        self.f.add(Expr::Binary { op, lhs: a, rhs: b }, t)
    }

    /// The parts of operand `v` of type `t` converted to complex type `ct`'s
    /// real type; `None` for the imaginary part of a real operand.
    fn operand_parts(
        &mut self,
        v: ExprId,
        t: &CType,
        ct: &CType,
        span: Span,
    ) -> DResult<(ExprId, Option<ExprId>)> {
        let real = ct.real();
        if t.is_complex() {
            let (re, im) = self.complex_parts(v, t, span)?;
            let tr = t.real();
            let re = self.convert(re, &tr, &real, span)?;
            let re = self.hold(re);
            let im = self.convert(im, &tr, &real, span)?;
            let im = self.hold(im);
            Ok((self.f.read(re), Some(self.f.read(im))))
        } else {
            let re = self.convert(v, t, &real, span)?;
            let re = self.hold(re);
            Ok((self.f.read(re), None))
        }
    }

    /// `a op b` where either operand is complex (`op` one of `+ - * /`).
    pub fn complex_arith(
        &mut self,
        op: BinOp,
        a: (ExprId, CType),
        b: (ExprId, CType),
        span: Span,
    ) -> DResult<(ExprId, CType)> {
        if !a.1.is_c_arithmetic() || !b.1.is_c_arithmetic() {
            return self.err(
                span,
                format!(
                    "invalid operands to binary expression ('{}' and '{}')",
                    a.1, b.1
                ),
            );
        }
        let ct = usual_arith(&a.1, &b.1);
        let (ar, ai) = self.operand_parts(a.0, &a.1, &ct, span)?;
        let (br, bi) = self.operand_parts(b.0, &b.1, &ct, span)?;
        let ir = self.f.ty(ar).clone();
        let zero = |l: &mut Self| l.f.add(Expr::Literal(Literal::Float(0.0)), ir.clone());
        // Each local read afresh: an expression node has one user.
        let hold = |l: &mut Self, x: Option<ExprId>| x.map(|x| l.hold(x));
        let (ar, ai, br, bi) = (self.hold(ar), hold(self, ai), self.hold(br), hold(self, bi));
        let r = |l: &mut Self, x: super::LocalId| l.f.read(x);
        let (re, im) = match op {
            BinOp::Add | BinOp::Sub => {
                let (x, y) = (r(self, ar), r(self, br));
                let re = self.fbin(op, x, y);
                let im = match (ai, bi) {
                    (Some(p), Some(q)) => {
                        let (x, y) = (r(self, p), r(self, q));
                        self.fbin(op, x, y)
                    }
                    (Some(p), None) => r(self, p),
                    (None, Some(q)) if op == BinOp::Add => r(self, q),
                    (None, Some(q)) => {
                        let y = r(self, q);
                        self.f.add(
                            Expr::Unary {
                                op: UnOp::Neg,
                                arg: y,
                            },
                            ir.clone(),
                        )
                    }
                    (None, None) => zero(self),
                };
                (re, im)
            }
            BinOp::Mul => match (ai, bi) {
                (Some(p), Some(q)) => {
                    // (ar + ai i)(br + bi i) = (ar br - ai bi) + (ar bi + ai br) i
                    let (x1, y1, x2, y2) = (r(self, ar), r(self, br), r(self, p), r(self, q));
                    let (m1, m2) = (self.fbin(BinOp::Mul, x1, y1), self.fbin(BinOp::Mul, x2, y2));
                    let re = self.fbin(BinOp::Sub, m1, m2);
                    let (x1, y1, x2, y2) = (r(self, ar), r(self, q), r(self, p), r(self, br));
                    let (m1, m2) = (self.fbin(BinOp::Mul, x1, y1), self.fbin(BinOp::Mul, x2, y2));
                    (re, self.fbin(BinOp::Add, m1, m2))
                }
                (Some(p), None) | (None, Some(p)) => {
                    // A real factor scales both parts.
                    let (re_c, s) = if ai.is_some() { (ar, br) } else { (br, ar) };
                    let (x, y) = (r(self, re_c), r(self, s));
                    let re = self.fbin(BinOp::Mul, x, y);
                    let (x, y) = (r(self, p), r(self, s));
                    (re, self.fbin(BinOp::Mul, x, y))
                }
                (None, None) => {
                    let (x, y) = (r(self, ar), r(self, br));
                    (self.fbin(BinOp::Mul, x, y), zero(self))
                }
            },
            BinOp::Div => match bi {
                None => {
                    let (x, y) = (r(self, ar), r(self, br));
                    let re = self.fbin(BinOp::Div, x, y);
                    let im = match ai {
                        Some(p) => {
                            let (x, y) = (r(self, p), r(self, br));
                            self.fbin(BinOp::Div, x, y)
                        }
                        None => zero(self),
                    };
                    (re, im)
                }
                Some(q) => {
                    let ai = match ai {
                        Some(p) => p,
                        None => {
                            let z = zero(self);
                            self.hold(z)
                        }
                    };
                    self.smith(ar, ai, br, q, &ir)
                }
            },
            _ => return self.err(span, "internal error: a complex operator"),
        };
        let re = self.hold(re);
        let re = self.f.read(re);
        let v = self.make_complex(re, im, &ct, span)?;
        Ok((v, ct))
    }

    /// `(a + bi) / (c + di)` by Smith's method: scaled by the larger of
    /// `|c|` and `|d|` (all locals of IR type `ir`).
    fn smith(
        &mut self,
        a: super::LocalId,
        b: super::LocalId,
        c: super::LocalId,
        d: super::LocalId,
        ir: &Type,
    ) -> (ExprId, ExprId) {
        let (re, im) = (self.temp(ir.clone()), self.temp(ir.clone()));
        let abs = |l: &mut Self, x: super::LocalId| {
            let v = l.f.read(x);
            l.f.add(
                Expr::Math {
                    func: MathFunc::Fabs,
                    args: vec![v],
                },
                ir.clone(),
            )
        };
        let (ac, ad) = (abs(self, c), abs(self, d));
        let wide = self.f.add(
            Expr::Cmp {
                op: CmpOp::Ge,
                lhs: ac,
                rhs: ad,
            },
            Type::BOOL,
        );
        // |c| >= |d|: r = d/c, den = c + d r, re = (a + b r)/den, im = (b - a r)/den
        // else:       r = c/d, den = c r + d, re = (a r + b)/den, im = (b r - a)/den
        let arm = |l: &mut Self, first: bool| -> Vec<Stmt> {
            l.blocks.push(vec![]);
            let rd = |l: &mut Self, x| l.f.read(x);
            let (p, q) = if first { (d, c) } else { (c, d) };
            let (x, y) = (rd(l, p), rd(l, q));
            let ratio = l.fbin(BinOp::Div, x, y);
            let ratio = l.hold(ratio);
            let (x, y) = (rd(l, p), rd(l, ratio));
            let t = l.fbin(BinOp::Mul, x, y);
            let y = rd(l, q);
            let den = l.fbin(BinOp::Add, t, y);
            let den = l.hold(den);
            // The numerators: with u = a, v = b when |c| >= |d|, else swapped roles.
            let (x, y) = (rd(l, b), rd(l, ratio));
            let br = l.fbin(BinOp::Mul, x, y);
            let (x, y) = (rd(l, a), rd(l, ratio));
            let ar = l.fbin(BinOp::Mul, x, y);
            let (nre, nim) = if first {
                let x = rd(l, a);
                let nre = l.fbin(BinOp::Add, x, br);
                let y = rd(l, b);
                (nre, l.fbin(BinOp::Sub, y, ar))
            } else {
                let y = rd(l, b);
                let nre = l.fbin(BinOp::Add, ar, y);
                let x = rd(l, a);
                (nre, l.fbin(BinOp::Sub, br, x))
            };
            let dv = rd(l, den);
            let v = l.fbin(BinOp::Div, nre, dv);
            l.emit(Stmt::Assign {
                local: re,
                value: v,
            });
            let dv = rd(l, den);
            let v = l.fbin(BinOp::Div, nim, dv);
            l.emit(Stmt::Assign {
                local: im,
                value: v,
            });
            l.blocks.pop().unwrap_or_default()
        };
        let then = arm(self, true);
        let otherwise = arm(self, false);
        self.emit(Stmt::If {
            cond: wide,
            then,
            otherwise,
            single: false,
        });
        (self.f.read(re), self.f.read(im))
    }

    /// `a == b` / `a != b` where either is complex: both parts compared.
    pub fn complex_equal(
        &mut self,
        eq: bool,
        a: (ExprId, CType),
        b: (ExprId, CType),
        span: Span,
    ) -> DResult<(ExprId, CType)> {
        if !a.1.is_c_arithmetic() || !b.1.is_c_arithmetic() {
            return self.err(span, format!("comparison between '{}' and '{}'", a.1, b.1));
        }
        let ct = usual_arith(&a.1, &b.1);
        let (ar, ai) = self.operand_parts(a.0, &a.1, &ct, span)?;
        let (br, bi) = self.operand_parts(b.0, &b.1, &ct, span)?;
        let ir = self.f.ty(ar).clone();
        let im = |l: &mut Self, x: Option<ExprId>| {
            x.unwrap_or_else(|| l.f.add(Expr::Literal(Literal::Float(0.0)), ir.clone()))
        };
        let (ai, bi) = (im(self, ai), im(self, bi));
        let op = if eq { CmpOp::Eq } else { CmpOp::Ne };
        let c1 = self.f.add(
            Expr::Cmp {
                op,
                lhs: ar,
                rhs: br,
            },
            Type::BOOL,
        );
        let c2 = self.f.add(
            Expr::Cmp {
                op,
                lhs: ai,
                rhs: bi,
            },
            Type::BOOL,
        );
        let both = self.f.add(
            Expr::Logical {
                and: eq,
                lhs: c1,
                rhs: c2,
            },
            Type::BOOL,
        );
        Ok((self.f.add(Expr::Cast(both), Type::I32), CType::INT))
    }

    /// Unary `+`, `-` and `~` (the conjugate, a GNU extension) on complex `x`.
    pub fn complex_unary(
        &mut self,
        neg_re: bool,
        neg_im: bool,
        x: ExprId,
        t: &CType,
        span: Span,
    ) -> DResult<ExprId> {
        let (re, im) = self.complex_parts(x, t, span)?;
        let ir = self.f.ty(re).clone();
        let neg = |l: &mut Self, v: ExprId, yes: bool| {
            if yes {
                l.f.add(
                    Expr::Unary {
                        op: UnOp::Neg,
                        arg: v,
                    },
                    ir.clone(),
                )
            } else {
                v
            }
        };
        let re = neg(self, re, neg_re);
        let re = self.hold(re);
        let im = neg(self, im, neg_im);
        let re = self.f.read(re);
        self.make_complex(re, im, t, span)
    }

    /// The `<complex.h>` functions device code provides, by name: `creal`,
    /// `cimag`, `conj`, `cabs`, `carg` (and their `f`/`l` forms) and GCC's
    /// `__builtin_complex(re, im)` (behind `CMPLX`). `None` for other names.
    pub fn complex_call(
        &mut self,
        name: &str,
        args: &[Node<Expression>],
        span: Span,
    ) -> Option<DResult<super::expr::Val>> {
        let base = name.strip_prefix("__builtin_").unwrap_or(name);
        let (func, real) = match base {
            "complex" => ("complex", None),
            _ => {
                const STEMS: [&str; 5] = ["creal", "cimag", "conj", "cabs", "carg"];
                let known = |s: &str| STEMS.iter().copied().find(|k| *k == s);
                let (stem, real) = if let Some(k) = known(base) {
                    (k, CType::DOUBLE)
                } else if let Some(k) = base.strip_suffix('f').and_then(known) {
                    (k, CType::Float(crate::ir::FloatKind::F32))
                } else {
                    (base.strip_suffix('l').and_then(known)?, CType::LongDouble)
                };
                (stem, Some(real))
            }
        };
        Some(self.complex_fn(func, real, args, span))
    }

    fn complex_fn(
        &mut self,
        func: &str,
        real: Option<CType>,
        args: &[Node<Expression>],
        span: Span,
    ) -> DResult<super::expr::Val> {
        use super::expr::Val;
        let want = if func == "complex" { 2 } else { 1 };
        if args.len() != want {
            return self.err(span, format!("'{func}' takes {want} argument(s)"));
        }
        let Some(real) = real else {
            // __builtin_complex(re, im): both of one real floating type.
            let (re, rt) = self.rvalue(&args[0])?;
            let (im, it) = self.rvalue(&args[1])?;
            if !rt.is_floating() || rt != it {
                return self.err(
                    span,
                    "the arguments of '__builtin_complex' must have one real floating type",
                );
            }
            let ct = CType::Complex(Box::new(rt));
            let re = self.hold(re);
            let re = self.f.read(re);
            return Ok(Val::R(self.make_complex(re, im, &ct, span)?, ct));
        };
        let ct = CType::Complex(Box::new(real.clone()));
        let (x, t) = self.rvalue(&args[0])?;
        let z = self.convert(x, &t, &ct, args[0].span)?;
        let (re, im) = self.complex_parts(z, &ct, span)?;
        let ir = self.f.ty(re).clone();
        let v = match func {
            "creal" => re,
            "cimag" => im,
            "conj" => {
                let re = self.hold(re);
                let im = self.f.add(
                    Expr::Unary {
                        op: UnOp::Neg,
                        arg: im,
                    },
                    ir,
                );
                let re = self.f.read(re);
                return Ok(Val::R(self.make_complex(re, im, &ct, span)?, ct));
            }
            "carg" => self.f.add(
                Expr::Math {
                    func: MathFunc::Atan2,
                    args: vec![im, re],
                },
                ir,
            ),
            _ => self.hypot(re, im, &ir),
        };
        Ok(Val::R(v, real))
    }

    /// `sqrt(x² + y²)` without overflow or underflow in between: the larger
    /// magnitude times `sqrt(1 + (smaller/larger)²)` (0 when both are 0).
    fn hypot(&mut self, x: ExprId, y: ExprId, ir: &Type) -> ExprId {
        let abs = |l: &mut Self, v: ExprId| {
            l.f.add(
                Expr::Math {
                    func: MathFunc::Fabs,
                    args: vec![v],
                },
                ir.clone(),
            )
        };
        let (ax, ay) = (abs(self, x), abs(self, y));
        let (ax, ay) = (self.hold(ax), self.hold(ay));
        let rd = |l: &mut Self, v| l.f.read(v);
        let (a, b) = (rd(self, ax), rd(self, ay));
        let big = self.fbin(BinOp::Max, a, b);
        let big = self.hold(big);
        let (a, b) = (rd(self, ax), rd(self, ay));
        let small = self.fbin(BinOp::Min, a, b);
        let bv = rd(self, big);
        let q = self.fbin(BinOp::Div, small, bv);
        let q = self.hold(q);
        let (q1, q2) = (rd(self, q), rd(self, q));
        let q2 = self.fbin(BinOp::Mul, q1, q2);
        let one = self.f.add(Expr::Literal(Literal::Float(1.0)), ir.clone());
        let s = self.fbin(BinOp::Add, one, q2);
        let s = self.f.add(
            Expr::Math {
                func: MathFunc::Sqrt,
                args: vec![s],
            },
            ir.clone(),
        );
        let bv = rd(self, big);
        let h = self.fbin(BinOp::Mul, bv, s);
        let (bv, z) = (
            rd(self, big),
            self.f.add(Expr::Literal(Literal::Float(0.0)), ir.clone()),
        );
        let zero = self.f.add(
            Expr::Cmp {
                op: CmpOp::Eq,
                lhs: bv,
                rhs: z,
            },
            Type::BOOL,
        );
        let z = self.f.add(Expr::Literal(Literal::Float(0.0)), ir.clone());
        self.f.add(
            Expr::Select {
                cond: zero,
                then: z,
                otherwise: h,
            },
            ir.clone(),
        )
    }
}

/// The IR operator of a C arithmetic operator a complex operand may take.
pub fn complex_op(op: &BinaryOperator) -> Option<BinOp> {
    use BinaryOperator as B;
    Some(match op {
        B::Plus | B::AssignPlus => BinOp::Add,
        B::Minus | B::AssignMinus => BinOp::Sub,
        B::Multiply | B::AssignMultiply => BinOp::Mul,
        B::Divide | B::AssignDivide => BinOp::Div,
        _ => return None,
    })
}
