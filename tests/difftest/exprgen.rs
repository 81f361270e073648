//! Random pure expressions of a requested C type over an `Env`: literals, scalars,
//! array elements (indexed in range), every operator of `ops.rs`, `?:`, casts
//! between all the types, comma, `sizeof` and routine calls.

use super::ctx::Ctx;
use super::env::{Access, ArrayView, Env, Shape};
use super::expr::{prec, Expr};
use super::literal;
use super::ops::{self, Bin};
use super::span::Span;
use super::ty::{usual, Ty};

/// Largest expression (in operators and leaves) the generator writes.
const MAX_SIZE: u32 = 40;

impl Ctx {
    /// An expression of exactly type `ty`, at most about `depth` operators deep.
    pub fn expr(&mut self, env: &Env, ty: Ty, depth: u32) -> Expr {
        if depth > 0 && !self.rng.chance(20) {
            for _ in 0..6 {
                if let Some(e) = self.compound(env, ty, depth - 1) {
                    if e.size <= MAX_SIZE {
                        return e;
                    }
                }
            }
        }
        self.leaf(env, ty, depth)
    }

    /// An expression of a random type.
    pub fn any_expr(&mut self, env: &Env, depth: u32) -> Expr {
        let ty = self.any_ty();
        self.expr(env, ty, depth)
    }

    /// `e` as type `ty`: itself, or cast (clamped when a floating value may be out
    /// of range); `None` when that would repeat too much text.
    pub fn convert(&mut self, e: Expr, ty: Ty) -> Option<Expr> {
        if e.ty == ty {
            return Some(e);
        }
        if let Some(c) = ops::cast(ty, &e) {
            return Some(c);
        }
        (e.size <= 6).then(|| ops::clamp_cast(ty, &e))
    }

    fn compound(&mut self, env: &Env, ty: Ty, d: u32) -> Option<Expr> {
        if ty.promote() != ty {
            // char and short values only come from leaves and casts.
            let e = self.any_expr(env, d);
            return self.convert(e, ty);
        }
        let calls = self.feat.routine && env.funcs.iter().any(|f| f.ret == ty);
        let weights = [
            40,                                  // binary arithmetic
            if ty == Ty::Int { 10 } else { 0 },  // comparison, && ||
            8,                                   // unary
            8,                                   // ?:
            10,                                  // cast
            2,                                   // comma
            if ty == Ty::ULong { 2 } else { 0 }, // sizeof
            if calls { 8 } else { 0 },           // routine call
        ];
        match self.rng.weighted(&weights) {
            0 => self.arith(env, ty, d),
            1 => self.logic(env, d),
            2 => self.unary(env, ty, d),
            3 => {
                let c = self.any_expr(env, d);
                let x = self.expr(env, ty, d);
                let other = self.partner_ty(ty, false);
                let y = self.expr(env, other, d);
                let (x, y) = if self.rng.chance(50) { (x, y) } else { (y, x) };
                Some(ops::cond(&c, &x, &y))
            }
            4 => {
                let e = self.any_expr(env, d);
                self.convert(e, ty)
            }
            5 => {
                let a = self.any_expr(env, d.saturating_sub(1));
                let b = self.expr(env, ty, d);
                Some(ops::comma(&a, &b))
            }
            6 => Some(if self.rng.chance(50) {
                let t = self.any_ty();
                ops::sizeof_ty(t)
            } else {
                let e = self.any_expr(env, 0);
                ops::sizeof_expr(&e)
            }),
            _ => self.call(env, ty, d),
        }
    }

    /// A type `t` with `usual(ty, t) == ty` (integers only when `int_only`).
    fn partner_ty(&mut self, ty: Ty, int_only: bool) -> Ty {
        for _ in 0..4 {
            let t = if int_only || !ty.is_float() {
                self.int_ty()
            } else {
                self.any_ty()
            };
            if usual(ty, t) == ty {
                return t;
            }
        }
        ty
    }

    fn arith(&mut self, env: &Env, ty: Ty, d: u32) -> Option<Expr> {
        let op = if ty.is_float() {
            *self.rng.pick(&[Bin::Add, Bin::Sub, Bin::Mul, Bin::Div])
        } else {
            *self.rng.pick(&Bin::COMPOUND)
        };
        let (ta, tb) = if matches!(op, Bin::Shl | Bin::Shr) {
            let small = [Ty::SChar, Ty::UChar, Ty::Short, Ty::UShort, Ty::Int];
            let ta = if ty == Ty::Int && self.rng.chance(40) {
                *self.rng.pick(&small)
            } else {
                ty
            };
            (ta, self.int_ty())
        } else {
            let other = self.partner_ty(ty, op.int_only());
            if self.rng.chance(50) {
                (ty, other)
            } else {
                (other, ty)
            }
        };
        let a = self.expr(env, ta, d);
        let b = if matches!(op, Bin::Shl | Bin::Shr) && self.rng.chance(40) {
            literal::int_literal(&mut self.rng, Ty::Int)
        } else {
            self.expr(env, tb, d)
        };
        let guard = a.size + b.size <= 8;
        let e = ops::binary(op, &a, &b, guard)?;
        debug_assert_eq!(e.ty, ty, "{op:?} on {ta:?} {tb:?}");
        Some(e)
    }

    fn logic(&mut self, env: &Env, d: u32) -> Option<Expr> {
        let ops = [
            Bin::Lt,
            Bin::Le,
            Bin::Gt,
            Bin::Ge,
            Bin::Eq,
            Bin::Ne,
            Bin::LAnd,
            Bin::LOr,
        ];
        let op = *self.rng.pick(&ops);
        let a = self.any_expr(env, d);
        let b = self.any_expr(env, d);
        ops::binary(op, &a, &b, false)
    }

    fn unary(&mut self, env: &Env, ty: Ty, d: u32) -> Option<Expr> {
        let k = self.rng.below(4);
        if k == 3 && ty == Ty::Int {
            let a = self.any_expr(env, d);
            return Some(ops::not(&a));
        }
        let ta = if ty == Ty::Int && self.rng.chance(30) {
            *self
                .rng
                .pick(&[Ty::SChar, Ty::UChar, Ty::Short, Ty::UShort])
        } else {
            ty
        };
        let a = self.expr(env, ta, d);
        Some(match k {
            0 | 3 => ops::neg(&a),
            1 if !ty.is_float() => ops::bit_not(&a),
            _ => ops::plus(&a),
        })
    }

    fn call(&mut self, env: &Env, ty: Ty, d: u32) -> Option<Expr> {
        let funcs: Vec<_> = env.funcs.iter().filter(|f| f.ret == ty).collect();
        let f = (*self.rng.pick(&funcs)).clone();
        let mut args = Vec::new();
        for (pty, pspan) in &f.params {
            args.push(self.arg(env, *pty, *pspan, d));
        }
        let text = format!(
            "{}({})",
            f.name,
            args.iter()
                .map(|a| a.at(prec::ASSIGN))
                .collect::<Vec<_>>()
                .join(", ")
        );
        let parts: Vec<&Expr> = args.iter().collect();
        self.used.routine = true;
        Some(Expr::node(text, f.ret, f.span, prec::POSTFIX, &parts))
    }

    /// An argument for a parameter of type `ty` whose values must lie in `span`.
    fn arg(&mut self, env: &Env, ty: Ty, span: Span, d: u32) -> Expr {
        for _ in 0..4 {
            let e = self.any_expr(env, d);
            let ok = e
                .span
                .convert(ty)
                .is_some_and(|s| s.lo_f() >= span.lo_f() && s.hi_f() <= span.hi_f());
            if ok {
                return e;
            }
        }
        self.literal(ty)
    }

    /// A literal, scalar or array element of type `ty`.
    pub fn leaf(&mut self, env: &Env, ty: Ty, depth: u32) -> Expr {
        let pick = self.rng.below(10);
        let e = if pick < 2 {
            None
        } else if pick < 5 {
            self.scalar(env, ty)
        } else {
            self.element(env, ty, depth)
        };
        e.and_then(|e| self.convert(e, ty))
            .unwrap_or_else(|| self.literal(ty))
    }

    /// A literal of exactly type `ty`.
    pub fn literal(&mut self, ty: Ty) -> Expr {
        if ty.is_float() {
            return literal::fp_literal(&mut self.rng, ty);
        }
        let lit = match self.rng.below(10) {
            _ if ty.promote() != ty => literal::int_literal(&mut self.rng, Ty::Int),
            0 => literal::any_int_literal(&mut self.rng),
            1 => literal::char_constant(&mut self.rng),
            _ => literal::int_literal(&mut self.rng, ty),
        };
        ops::cast(ty, &lit).expect("integer casts are defined")
    }

    /// A scalar of type `ty` if there is one (else of another type, or none).
    fn scalar(&mut self, env: &Env, ty: Ty) -> Option<Expr> {
        if env.scalars.is_empty() {
            return None;
        }
        let same: Vec<_> = env.scalars.iter().filter(|s| s.ty == ty).collect();
        let s = if !same.is_empty() && self.rng.chance(80) {
            *self.rng.pick(&same)
        } else {
            self.rng.pick(&env.scalars)
        };
        Some(Expr::read(&s.text, &s.base, s.ty, s.span))
    }

    /// An element of a readable array of type `ty` if there is one (else of another
    /// type, or none).
    fn element(&mut self, env: &Env, ty: Ty, depth: u32) -> Option<Expr> {
        let readable: Vec<&ArrayView> =
            env.arrays.iter().filter(|a| a.read != Access::No).collect();
        if readable.is_empty() {
            return None;
        }
        let same: Vec<_> = readable.iter().filter(|a| a.ty == ty).collect();
        let a = if !same.is_empty() && self.rng.chance(80) {
            (**self.rng.pick(&same)).clone()
        } else {
            (*self.rng.pick(&readable)).clone()
        };
        Some(self.element_of(env, &a, depth))
    }

    /// An element of `a` that the current code may read.
    pub fn element_of(&mut self, env: &Env, a: &ArrayView, depth: u32) -> Expr {
        let own = env.own.clone();
        let any = a.read == Access::Any;
        let subs: Vec<Expr> = match (&a.shape, own) {
            (Shape::Local(len), _) => vec![self.index(env, *len, &len.to_string(), None, depth)],
            (Shape::Flat, Some(o)) if !any => {
                vec![Expr::leaf(o.flat, Ty::Int, Span::int(0, env.n - 1))]
            }
            (Shape::Grid, Some(o)) if !any => vec![
                Expr::leaf(o.row, Ty::Int, Span::int(0, env.r - 1)),
                Expr::leaf(o.col, Ty::Int, Span::int(0, env.c - 1)),
            ],
            (Shape::Flat, o) => vec![self.index(env, env.n, "N", o.map(|o| o.flat), depth)],
            (Shape::Grid, o) => {
                let (row, col) = match o {
                    Some(o) => (Some(o.row), Some(o.col)),
                    None => (None, None),
                };
                vec![
                    self.index(env, env.r, "R", row, depth),
                    self.index(env, env.c, "C", col, depth),
                ]
            }
        };
        let text = format!(
            "{}{}",
            a.name,
            subs.iter()
                .map(|s| format!("[{}]", s.text))
                .collect::<String>()
        );
        let parts: Vec<&Expr> = subs.iter().collect();
        let mut e = Expr::node(text, a.ty, a.span, prec::POSTFIX, &parts);
        e.reads.push(a.name.clone());
        e
    }

    /// An index in `0..len` (`len_text` spells `len`); `own`: the current
    /// iteration's index in that dimension, if any.
    fn index(
        &mut self,
        env: &Env,
        len: i128,
        len_text: &str,
        own: Option<String>,
        depth: u32,
    ) -> Expr {
        let direct: Vec<_> = env
            .scalars
            .iter()
            .filter(|s| matches!(s.span, Span::Int { lo, hi } if lo >= 0 && hi < len))
            .filter(|s| !s.ty.is_float())
            .collect();
        let k = self.rng.range(0, (len - 1) as i64);
        let int = |text: String| Expr::leaf(text, Ty::Int, Span::int(0, len - 1));
        match (self.rng.weighted(&[30, 15, 10, 10, 15, 20]), own) {
            (0, Some(o)) => int(o),
            (1, Some(o)) => int(format!("({o} + {}) % {len_text}", k.max(1))),
            (2, Some(o)) => int(format!("{len_text} - 1 - {}", paren_if_op(&o))),
            (3, _) if !direct.is_empty() => {
                let s = *self.rng.pick(&direct);
                Expr::read(&s.text, &s.base, Ty::Int, Span::int(0, len - 1))
            }
            (4, _) if depth > 0 => {
                let t = self.int_ty();
                let e = self.expr(env, t, depth - 1);
                let cast = if t.bits() == 64 {
                    "unsigned long"
                } else {
                    "unsigned"
                };
                let text = format!("({cast}){} % {len_text}", e.at(prec::UNARY));
                Expr::node(text, Ty::Int, Span::int(0, len - 1), prec::MUL, &[&e])
            }
            _ => int(k.to_string()),
        }
    }
}

/// `(i / C)` for an index that is an expression, `i` for a name.
fn paren_if_op(s: &str) -> String {
    if s.contains(' ') {
        format!("({s})")
    } else {
        s.to_string()
    }
}
