//! Assignment and lvalues: storing into a place (with the single-thread
//! rule for shared memory), lvalues made safe to use twice, and which
//! addresses are a thread's own.
//!
//! Owns: `Lower::assign`, `Lower::stable`, `Lower::thread_own`,
//! `Lower::fresh`, `Lower::hold`. May call: `expr` (its types), `ir`.

use super::expr::{Place, Val};
use super::Lower;
use crate::diag::DResult;
use crate::frontend::ctype::CType;
use crate::ir::{Expr, ExprId, Index, LocalId, Stmt};
use lang_c::span::Span;

impl Lower<'_> {
    /// Makes an lvalue safe to use twice: its address goes into a temporary.
    pub fn stable(&mut self, v: Val) -> Val {
        match v {
            Val::L(Place::Mem(p), t) => {
                let own = self.thread_own(p);
                let ty = self.f.ty(p).clone();
                let tmp = self.temp(ty);
                self.emit(Stmt::Assign {
                    local: tmp,
                    value: p,
                });
                if own {
                    self.own_addrs.insert(tmp);
                }
                Val::L(Place::Addr(tmp), t)
            }
            v => v,
        }
    }

    /// Whether the address `p` points into a local of this thread (an
    /// element or member of a local array or struct): every thread stores
    /// into its own copy, also where only one thread performs the stores to
    /// memory (gang-redundant code).
    pub fn thread_own(&self, mut p: ExprId) -> bool {
        loop {
            match self.f.expr(p) {
                Expr::LocalAddr(_) => return true,
                Expr::Cast(a) => p = *a,
                Expr::PtrAdd { base, .. } | Expr::Index(Index { base, .. }) => p = *base,
                Expr::Local(l) => return self.own_addrs.contains(l),
                _ => return false,
            }
        }
    }

    /// A place whose address expression is fresh (not used elsewhere).
    pub fn fresh(&mut self, p: Place) -> Place {
        match p {
            Place::Addr(l) => Place::Mem(self.f.read(l)),
            p => p,
        }
    }

    /// Stores `x` (of type `t`) into `target`; the result is the stored value.
    pub fn assign(&mut self, target: Val, x: ExprId, t: &CType, span: Span) -> DResult<Val> {
        let Val::L(place, ty) = target else {
            return self.err(span, "expression is not assignable");
        };
        if ty.is_array() {
            return self.err(span, format!("array type '{ty}' is not assignable"));
        }
        if ty.by_address() {
            let x = if ty.is_complex() {
                self.convert(x, t, &ty, span)?
            } else if *t != ty {
                return self.err(
                    span,
                    format!("assigning to '{ty}' from incompatible type '{t}'"),
                );
            } else {
                x
            };
            let dst = self.addr_of(place, &ty, span)?;
            let own = self.thread_own(dst);
            let dst = self.hold(dst);
            if own {
                self.own_addrs.insert(dst);
            }
            let d = self.f.read(dst);
            self.copy_struct(d, x, &ty, span)?;
            return Ok(Val::L(Place::Addr(dst), ty));
        }
        let place = self.fresh(place);
        let v = if matches!(ty, CType::Ptr(_)) && self.is_null_constant(x, t) {
            let pt = self.ir_type(&ty, span)?;
            self.cast_ir(x, pt)
        } else if let (CType::Ptr(_), CType::Ptr(_)) = (&ty, t) {
            let pt = self.ir_type(&ty, span)?;
            self.cast_ir(x, pt)
        } else {
            self.convert(x, t, &ty, span)?
        };
        let irty = self.ir_type(&ty, span)?;
        let tmp = self.temp(irty);
        self.emit(Stmt::Assign {
            local: tmp,
            value: v,
        });
        let val = self.f.read(tmp);
        match place {
            Place::Local(l) => self.emit(Stmt::Assign {
                local: l,
                value: val,
            }),
            Place::Mem(p) if ty == CType::LongDouble => {
                let own = self.thread_own(p);
                let stores = self.store_x87(p, val);
                if own {
                    stores.into_iter().for_each(|s| self.emit(s));
                } else {
                    self.emit_single_block(stores);
                }
            }
            Place::Mem(p) if self.thread_own(p) => self.emit(Stmt::Store { ptr: p, value: val }),
            Place::Mem(p) => self.emit_single(Stmt::Store { ptr: p, value: val }),
            Place::Addr(_) => return self.err(span, "internal error: unresolved address"),
        }
        Ok(Val::R(self.f.read(tmp), ty))
    }

    /// Keeps `x` in a fresh local (so it can be read more than once).
    pub fn hold(&mut self, x: ExprId) -> LocalId {
        let t = self.temp(self.f.ty(x).clone());
        self.emit(Stmt::Assign { local: t, value: x });
        t
    }
}
