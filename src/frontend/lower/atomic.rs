//! `#pragma acc atomic` in device code: a recognised [`Form`] lowered to
//! the IR's atomics.
//!
//! Owns: the choice between a hardware read-modify-write and a
//! compare-and-swap loop. The hardware operation serves where it computes
//! exactly what C computes: `+ - & | ^` (and `++`/`--`) on 32- and 64-bit
//! integers with an integer operand, and `+`/`-` on `float`/`double` when
//! the operand's usual arithmetic conversion is the target's own type
//! (`x - e` as `x + (-e)`, exact in IEEE arithmetic). Everything else —
//! `*`, `/`, shifts, `x = e - x`, narrower types, mixed-type arithmetic —
//! loads `x`, computes the new value with C's conversions, and retries a
//! compare-and-swap until no other thread came in between. Reads and
//! writes are single relaxed loads and stores; the swap of a capture block
//! is an exchange (a loop for narrower types). An `if` clause that is
//! false runs the statement as plain code. In code a whole gang runs
//! (outside its partitioned loops) one thread performs the atomic, as it
//! performs stores.
//! May call: `frontend::atomic` (forms), the rest of `lower`, `ir`.

use super::expr::{Place, Val};
use super::Lower;
use crate::diag::{DResult, Diagnostics};
use crate::frontend::atomic::{c_binop, recognize, AtomicSpec, Capture, Form, Update};
use crate::frontend::conv::usual_arith;
use crate::frontend::ctype::CType;
use crate::ir::host::AtomicArith;
use crate::ir::{AtomicOp, Block, Expr, ExprId, LocalId, Stmt, Type, UnOp};
use lang_c::ast::Statement;
use lang_c::span::{Node, Span};

/// The value an atomic access captured (a local), if any, and the C type
/// of its location.
type Captured = (Option<LocalId>, CType);

impl Lower<'_> {
    /// Lowers atomic statement `s` under directive `spec`.
    pub fn atomic(&mut self, spec: &AtomicSpec, s: &Node<Statement>) -> DResult<()> {
        let sm = self.sm;
        let err = |at: Span, msg: String| Diagnostics::one(Some(sm.loc(at.start)), msg);
        let form = recognize(self.text, spec.kind, s, &err)?;
        let (done, body) = self.in_block(|l| l.atomic_form(&form, s.span))?;
        let Some(captured) = done else {
            // A variable of this thread: no other thread sees it.
            return self.stmt_plain(s);
        };
        let ((), atomic) = self.in_block(|l| l.perform(body, captured, &form))?;
        match &spec.cond {
            None => atomic.into_iter().for_each(|st| self.emit(st)),
            Some(c) => {
                let cond = self.condition_text(c, spec)?;
                let ((), plain) = self.in_block(|l| l.stmt_plain(s))?;
                self.emit(Stmt::If {
                    cond,
                    then: atomic,
                    otherwise: plain,
                    single: false,
                });
            }
        }
        Ok(())
    }

    /// Emits the atomic access `body` (performed by one thread where a
    /// whole gang or worker runs the code, as stores are) and assigns the
    /// value it captured, if any, to `v`: in every thread when `v` is a
    /// variable of each thread (the value broadcast to them), else as a
    /// store is done.
    fn perform(&mut self, body: Block, captured: Captured, f: &Form) -> DResult<()> {
        let (Some(value), Some((v, _))) = (captured.0, f.capture) else {
            self.emit_single_block(body);
            return Ok(());
        };
        let target = self.expr(v)?;
        let own = match &target {
            Val::L(Place::Local(_), _) => true,
            Val::L(Place::Mem(p), _) => self.thread_own(*p),
            Val::L(Place::Addr(a), _) => {
                let p = self.f.read(*a);
                self.thread_own(p)
            }
            Val::R(..) => false,
        };
        if own {
            self.emit(Stmt::Broadcast {
                value,
                performed: body,
            });
        } else {
            self.emit_single_block(body);
        }
        let x = self.f.read(value);
        self.assign(target, x, &captured.1, v.span)?;
        Ok(())
    }

    /// The `if` clause's condition (C text) as a `bool`.
    fn condition_text(&mut self, c: &str, spec: &AtomicSpec) -> DResult<ExprId> {
        let Some(e) = crate::frontend::clauses::parse_expression(c) else {
            return Err(Diagnostics::one(
                Some(spec.loc.clone()),
                format!("expected an expression in the 'if' clause, found '{c}'"),
            ));
        };
        // Messages about the condition point at the directive.
        self.condition(&e).map_err(|d| {
            Diagnostics(
                d.0.into_iter()
                    .map(|mut x| {
                        x.loc = Some(spec.loc.clone());
                        x
                    })
                    .collect(),
            )
        })
    }

    /// The atomic access itself, and the local holding the value it
    /// captures (when it captures one); `None` (nothing emitted) when `x`
    /// is a variable of this thread.
    fn atomic_form(&mut self, f: &Form, span: Span) -> DResult<Option<Captured>> {
        let xv = self.expr(f.x)?;
        let xt = xv.ty().clone();
        if xt.is_complex() {
            return self.err(
                f.x.span,
                format!("atomic operations on '{xt}' are not supported on the device"),
            );
        }
        if !xt.is_arithmetic() || xt == CType::Bool {
            return self.err(
                f.x.span,
                format!(
                    "the location of an atomic operation must have an arithmetic type, not '{xt}'"
                ),
            );
        }
        let Val::L(place, _) = xv else {
            return self.err(
                f.x.span,
                "the location of an atomic operation must be an lvalue",
            );
        };
        if let Place::Local(_) = place {
            return Ok(None);
        }
        if xt == CType::LongDouble {
            return self.err(
                f.x.span,
                "atomic operations on a 'long double' in memory are not supported on the device (its 16-byte objects are wider than the hardware's atomics)",
            );
        }
        let addr = self.addr_of(place, &xt, f.x.span)?;
        let pl = self.hold(addr);
        let ty = self.ir_type(&xt, f.x.span)?;
        let (old, new) = match &f.update {
            None => {
                let dst = self.temp(ty);
                let ptr = self.f.read(pl);
                self.emit(Stmt::AtomicLoad { ptr, dst });
                (Some(dst), None)
            }
            Some(Update::Set(e)) => {
                let e = *e;
                let v = self.rvalue_as(e, &xt)?;
                if f.capture.is_none() {
                    let ptr = self.f.read(pl);
                    self.emit(Stmt::AtomicStore { ptr, value: v });
                    (None, None)
                } else if hardware_width(&ty) {
                    let old = self.temp(ty);
                    let ptr = self.f.read(pl);
                    self.emit(Stmt::AtomicRmw {
                        op: AtomicOp::Exchange,
                        ptr,
                        value: v,
                        old: Some(old),
                    });
                    (Some(old), None)
                } else {
                    let vl = self.hold(v);
                    let (old, new) = self.cas_loop(pl, &ty, |l, _| Ok(l.f.read(vl)))?;
                    (Some(old), Some(new))
                }
            }
            Some(Update::Op {
                op,
                expr,
                expr_first,
            }) => {
                let (op, expr, expr_first) = (*op, *expr, *expr_first);
                let (e, et) = match expr {
                    Some(e) => self.rvalue(e)?,
                    None => (self.int_lit(1, &CType::INT), CType::INT),
                };
                let el = self.hold(e);
                match rmw_op(op, expr_first, &xt, &et, &ty) {
                    Some((aop, negate)) => {
                        let ev = self.f.read(el);
                        let mut v = self.convert(ev, &et, &xt, span)?;
                        if negate {
                            v = self.f.add(
                                Expr::Unary {
                                    op: UnOp::Neg,
                                    arg: v,
                                },
                                ty.clone(),
                            );
                        }
                        let old = self.temp(ty.clone());
                        let ptr = self.f.read(pl);
                        self.emit(Stmt::AtomicRmw {
                            op: aop,
                            ptr,
                            value: v,
                            old: Some(old),
                        });
                        let new = match f.capture {
                            Some((_, Capture::New)) => {
                                let n =
                                    self.binop_value(op, expr_first, old, &xt, el, &et, span)?;
                                Some(self.hold(n))
                            }
                            _ => None,
                        };
                        (Some(old), new)
                    }
                    None => {
                        let (old, new) = self.cas_loop(pl, &ty, |l, old| {
                            l.binop_value(op, expr_first, old, &xt, el, &et, span)
                        })?;
                        (Some(old), Some(new))
                    }
                }
            }
        };
        match f.capture {
            None => Ok(Some((None, xt))),
            Some((_, when)) => match (when, old, new) {
                (Capture::Old, Some(o), _) | (Capture::New, _, Some(o)) => Ok(Some((Some(o), xt))),
                _ => self.err(span, "internal error: atomic capture without a value"),
            },
        }
    }

    /// `old op e` (or `e op old`) converted to `xt`, C's arithmetic.
    #[allow(clippy::too_many_arguments)]
    fn binop_value(
        &mut self,
        op: AtomicArith,
        expr_first: bool,
        old: LocalId,
        xt: &CType,
        e: LocalId,
        et: &CType,
        span: Span,
    ) -> DResult<ExprId> {
        let a = (self.f.read(old), xt.clone());
        let b = (self.f.read(e), et.clone());
        let (l, r) = if expr_first { (b, a) } else { (a, b) };
        let (v, t) = self.apply_binop(&c_binop(op), l, r, span)?;
        self.convert(v, &t, xt, span)
    }

    /// `old = *p; do { new = next(old); } while (!cas(p, old, new));` —
    /// the values before and after (locals).
    fn cas_loop(
        &mut self,
        pl: LocalId,
        ty: &Type,
        next: impl FnOnce(&mut Self, LocalId) -> DResult<ExprId>,
    ) -> DResult<(LocalId, LocalId)> {
        let old = self.temp(ty.clone());
        let new = self.temp(ty.clone());
        let found = self.temp(ty.clone());
        let ok = self.temp(Type::BOOL);
        let ptr = self.f.read(pl);
        self.emit(Stmt::AtomicLoad { ptr, dst: old });
        let (n, mut body) = self.in_block(|l| next(l, old))?;
        body.push(Stmt::Assign {
            local: new,
            value: n,
        });
        let (ptr, expected, desired) = (self.f.read(pl), self.f.read(old), self.f.read(new));
        body.push(Stmt::AtomicCas {
            ptr,
            expected,
            desired,
            old: found,
            ok,
        });
        let done = self.f.read(ok);
        body.push(Stmt::If {
            cond: done,
            then: vec![Stmt::Break],
            otherwise: vec![],
            single: false,
        });
        let again = self.f.read(found);
        body.push(Stmt::Assign {
            local: old,
            value: again,
        });
        let always = self.f.int(1, Type::BOOL);
        self.emit(Stmt::While {
            cond: always,
            body,
            step: vec![],
        });
        Ok((old, new))
    }
}

/// Whether the hardware exchanges values of type `t` (32 and 64 bits).
fn hardware_width(t: &Type) -> bool {
    t.size() >= 4
}

/// The hardware read-modify-write computing `x op e` exactly as C does,
/// and whether the operand is negated first; `None` when there is none.
fn rmw_op(
    op: AtomicArith,
    expr_first: bool,
    xt: &CType,
    et: &CType,
    ty: &Type,
) -> Option<(AtomicOp, bool)> {
    use AtomicArith as B;
    let commutes = matches!(op, B::Add | B::And | B::Or | B::Xor);
    if expr_first && !commutes {
        return None;
    }
    match ty {
        Type::Int(k) if k.bits() >= 32 && et.is_integer() => Some(match op {
            B::Add => (AtomicOp::Add, false),
            B::Sub => (AtomicOp::Sub, false),
            B::And => (AtomicOp::And, false),
            B::Or => (AtomicOp::Or, false),
            B::Xor => (AtomicOp::Xor, false),
            _ => return None,
        }),
        Type::Float(_) if et.is_arithmetic() && usual_arith(xt, et) == *xt => match op {
            B::Add => Some((AtomicOp::Add, false)),
            B::Sub => Some((AtomicOp::Add, true)),
            _ => None,
        },
        _ => None,
    }
}
