//! The reader's expressions: one tree of the printed form, appended to the
//! function's arena operands first.
//!
//! Owns: [`Parser::expr`]. The types the text leaves out come from the node
//! (a local's type, `bool` for comparisons, `u32` for special registers) or,
//! for a bare integer literal, from the context, as `print.rs` describes.

use super::cursor::Result;
use super::{named, Parser, BIN_OPS, CMP_OPS, UN_OPS};
use crate::ir::print::{dim_name, local_addr_type, op_name, special_name};
use crate::ir::{Expr, ExprId, Extent, Index, IntKind, Literal, MathFunc, Special, Type};

impl Parser<'_, '_> {
    /// One expression; `expect` is the type its context implies (that of a
    /// bare integer literal).
    pub(super) fn expr(&mut self, expect: Option<&Type>) -> Result<ExprId> {
        self.deeper()?;
        let e = self.expr_at(expect);
        self.depth -= 1;
        e
    }

    /// `.TYPE` right after a word.
    fn suffix(&mut self) -> Result<Type> {
        self.c.expect_here(".")?;
        self.c.ty()
    }

    /// An operand that must have type `ty` (it was printed from the
    /// operand's type).
    fn operand(&mut self, ty: &Type) -> Result<ExprId> {
        self.c.skip_ws();
        let at = self.c.pos;
        let e = self.expr(Some(ty))?;
        if self.f.ty(e) != ty {
            return Err(self
                .c
                .error_at(at, format!("operand has type {}, not {ty}", self.f.ty(e))));
        }
        Ok(e)
    }

    /// `(a, b, …)` of `n` expressions of type `ty`.
    fn operands(&mut self, n: usize, ty: &Type) -> Result<Vec<ExprId>> {
        self.c.expect("(")?;
        let mut v = vec![];
        for i in 0..n {
            if i > 0 {
                self.c.expect(",")?;
            }
            v.push(self.expr(Some(ty))?);
        }
        self.c.expect(")")?;
        Ok(v)
    }

    fn expr_at(&mut self, expect: Option<&Type>) -> Result<ExprId> {
        self.c.skip_ws();
        let at = self.c.pos;
        match self.c.peek() {
            Some('%') => {
                let l = self.local()?;
                let ty = self.local_ty(l);
                return Ok(self.f.add(Expr::Local(l), ty));
            }
            Some('&') => {
                self.c.pos += 1;
                let l = self.local()?;
                let ty = local_addr_type(&self.local_ty(l));
                return Ok(self.f.add(Expr::LocalAddr(l), ty));
            }
            Some(c) if c == '-' || c.is_ascii_digit() => return self.literal(expect),
            _ => {}
        }
        let w = self.c.word();
        let u32t = Type::Int(IntKind::U32);
        let (e, ty) = match w {
            "inf" | "NaN" => {
                self.c.pos = at;
                return self.literal(expect);
            }
            "load" => {
                let ty = self.suffix()?;
                self.c.expect("(")?;
                let p = self.expr(Some(&ty.ptr_to()))?;
                self.c.expect(")")?;
                (Expr::Load(p), ty)
            }
            "ptradd" => {
                self.c.expect("(")?;
                let base = self.expr(None)?;
                self.c.expect(",")?;
                let index = self.expr(Some(&Type::I64))?;
                self.c.expect(")")?;
                let ty = self.f.ty(base).clone();
                (Expr::PtrAdd { base, index }, ty)
            }
            "index" => {
                let elem = self.suffix()?;
                self.c.expect("(")?;
                let base = self.expr(None)?;
                self.c.expect(",")?;
                let extents = self.extents()?;
                let mut subs = vec![];
                while self.c.tok(",") {
                    subs.push(self.expr(Some(&Type::I64))?);
                }
                self.c.expect(")")?;
                let e = Expr::Index(Index {
                    base,
                    extents,
                    subs,
                });
                (e, elem.ptr_to())
            }
            "cast" => {
                let from = self.suffix()?;
                let ty = self.suffix()?;
                self.c.expect("(")?;
                let a = self.operand(&from)?;
                self.c.expect(")")?;
                (Expr::Cast(a), ty)
            }
            "select" => {
                let ty = self.suffix()?;
                self.c.expect("(")?;
                let cond = self.expr(Some(&Type::BOOL))?;
                self.c.expect(",")?;
                let then = self.expr(Some(&ty))?;
                self.c.expect(",")?;
                let otherwise = self.expr(Some(&ty))?;
                self.c.expect(")")?;
                (
                    Expr::Select {
                        cond,
                        then,
                        otherwise,
                    },
                    ty,
                )
            }
            "and" | "or" if self.c.peek() == Some('(') => {
                let v = self.operands(2, &Type::BOOL)?;
                let e = Expr::Logical {
                    and: w == "and",
                    lhs: v[0],
                    rhs: v[1],
                };
                (e, Type::BOOL)
            }
            "shfl" => {
                self.c.expect_here(".bfly")?;
                let ty = self.suffix()?;
                self.c.expect("(")?;
                let value = self.expr(Some(&ty))?;
                self.c.expect(",")?;
                let lane_xor = self.expr(Some(&u32t))?;
                self.c.expect(",")?;
                let members = self.expr(Some(&u32t))?;
                self.c.expect(")")?;
                let e = Expr::Shuffle {
                    value,
                    lane_xor,
                    members,
                };
                (e, ty)
            }
            "cell" => {
                let ty = self.suffix()?;
                self.c.expect("(")?;
                let sym_at = self.c.pos;
                let sym = self.c.symbol()?;
                let Some(n) = self.cells.iter().position(|c| c.symbol == sym) else {
                    return Err(self.c.error_at(sym_at, format!("unknown cell @{sym}")));
                };
                self.c.expect(")")?;
                (Expr::Cell(u32::try_from(n).unwrap_or(u32::MAX)), ty)
            }
            "shared" => {
                let ty = self.suffix()?;
                self.c.expect("(")?;
                self.c.expect("#")?;
                let n = self.c.unsigned()?;
                self.c.expect(")")?;
                (Expr::SharedAddr(n), ty)
            }
            w => {
                if let Some(s) = self.special(w)? {
                    let ty = match s {
                        Special::Performs(_) | Special::OnDevice(_) => Type::BOOL,
                        _ => u32t,
                    };
                    (Expr::Special(s), ty)
                } else if let Some(op) = named(&BIN_OPS, w, op_name) {
                    let ty = self.suffix()?;
                    let v = self.operands(2, &ty)?;
                    let e = Expr::Binary {
                        op,
                        lhs: v[0],
                        rhs: v[1],
                    };
                    (e, ty)
                } else if let Some(op) = named(&CMP_OPS, w, op_name) {
                    let t = self.suffix()?;
                    self.c.expect("(")?;
                    let lhs = self.operand(&t)?;
                    self.c.expect(",")?;
                    let rhs = self.expr(Some(&t))?;
                    self.c.expect(")")?;
                    (Expr::Cmp { op, lhs, rhs }, Type::BOOL)
                } else if let Some(op) = named(&UN_OPS, w, op_name) {
                    let ty = self.suffix()?;
                    let v = self.operands(1, &ty)?;
                    (Expr::Unary { op, arg: v[0] }, ty)
                } else if let Some(func) = named(&MathFunc::ALL, w, MathFunc::c_name) {
                    let ty = self.suffix()?;
                    let args = self.operands(func.arity(), &ty)?;
                    (Expr::Math { func, args }, ty)
                } else {
                    return Err(self.c.error_at(at, format!("unknown expression '{w}'")));
                }
            }
        };
        Ok(self.f.add(e, ty))
    }

    /// `[64, %3 n]`: an index's extents, each a bare number (known when
    /// compiling) or an expression (computed at run time; a literal one
    /// prints typed, `64.i64`).
    fn extents(&mut self) -> Result<Vec<Extent>> {
        self.c.expect("[")?;
        let mut v = vec![];
        if self.c.tok("]") {
            return Ok(v);
        }
        loop {
            self.c.skip_ws();
            let at = self.c.pos;
            let r = self.c.rest();
            let digits = r.find(|c: char| !c.is_ascii_digit()).unwrap_or(r.len());
            if digits > 0 && !r[digits..].starts_with('.') {
                v.push(Extent::Const(self.c.unsigned()?));
            } else {
                self.c.pos = at;
                v.push(Extent::Dyn(self.expr(None)?));
            }
            if !self.c.tok(",") {
                break;
            }
        }
        self.c.expect("]")?;
        Ok(v)
    }

    /// `tid.x` and the other special registers, after the word.
    fn special(&mut self, w: &str) -> Result<Option<Special>> {
        let make = [
            Special::ThreadIdx,
            Special::BlockIdx,
            Special::BlockDim,
            Special::GridDim,
            Special::Performs,
        ];
        if w == special_name(Special::OnDevice(0)).0 {
            self.c.expect_here(".")?;
            return Ok(Some(Special::OnDevice(self.c.unsigned()?)));
        }
        let Some(make) = make.into_iter().find(|m| special_name(m(0)).0 == w) else {
            return Ok(None);
        };
        self.c.expect_here(".")?;
        let at = self.c.pos;
        let d = self.c.word();
        match (0..3u8).find(|i| dim_name(*i) == d) {
            Some(i) => Ok(Some(make(i))),
            None => Err(self.c.error_at(at, "expected x, y or z")),
        }
    }

    /// An integer (`-3`, `7.u64`) or floating literal (`1.5.f64`,
    /// `1e-7.f32`, `-inf.f64`, `NaN.f64`).
    fn literal(&mut self, expect: Option<&Type>) -> Result<ExprId> {
        let start = self.c.pos;
        self.c.eat("-");
        let float = if self.c.eat("inf") || self.c.eat("NaN") {
            true
        } else {
            let digits = self.c.word();
            let frac = self.c.rest().starts_with('.')
                && self.c.rest()[1..].starts_with(|c: char| c.is_ascii_digit());
            if frac {
                self.c.pos += 1;
                self.c.word();
            }
            let mut float = frac;
            // An exponent ends the word: `1e-7`, `1e16`.
            if digits.contains('e') || self.c.src[start..self.c.pos].ends_with('e') {
                float = true;
                if self.c.eat("-") || self.c.eat("+") {
                    self.c.word();
                }
            }
            float
        };
        let text = &self.c.src[start..self.c.pos];
        let typed = self.c.rest().starts_with('.');
        let (lit, ty) = if float {
            let v: f64 = text
                .parse()
                .map_err(|_| self.c.error_at(start, format!("bad number '{text}'")))?;
            (Literal::Float(v), self.suffix()?)
        } else {
            let v: i128 = text
                .parse()
                .map_err(|_| self.c.error_at(start, format!("bad number '{text}'")))?;
            let ty = match expect {
                _ if typed => self.suffix()?,
                Some(t) => t.clone(),
                None => {
                    return Err(self
                        .c
                        .error_at(start, "an integer literal needs its type here (1.i32)"))
                }
            };
            (Literal::Int(v), ty)
        };
        Ok(self.f.add(Expr::Literal(lit), ty))
    }
}
