//! Addresses: pointer arithmetic (in elements, or in bytes for elements
//! whose size is known only at run time), subscripts (kept as indexed
//! accesses, [`Index`], one per chain `a[i][j]`), struct and union
//! members, the address of a place, struct copies, and the run-time sizes of
//! variable-length arrays.
//!
//! Owns: the methods of `Lower` that compute addresses and sizes.

use super::expr::{Place, Val};
use super::Lower;
use crate::diag::DResult;
use crate::frontend::ctype::{CType, VlaLen};
use crate::ir::{BinOp, Expr, ExprId, Extent, Index, IntKind, Stmt, Type, UnOp};
use lang_c::ast::*;
use lang_c::span::{Node, Span};

/// The size of a type's objects.
enum Size {
    Const(u64),
    /// A `u64` computed at run time.
    Dyn(ExprId),
}

impl Lower<'_> {
    /// The address of a place's storage: `ptr<E>` for an array of `E` (its
    /// first element), else a pointer to the object.
    pub fn addr_of(&mut self, place: Place, ty: &CType, span: Span) -> DResult<ExprId> {
        let want = match ty {
            t if t.is_array() => t.decay().to_ir(),
            t => t.pointee_ir().map(|p| p.ptr_to()),
        };
        let Some(want) = want else {
            return self.ir_type(ty, span).and_then(|_| {
                self.err(
                    span,
                    format!("cannot address an object of type '{ty}' in device code"),
                )
            });
        };
        let a = match self.fresh(place) {
            Place::Local(l) => {
                let lt = self.f.local(l).ty.clone();
                let t = match lt {
                    Type::Array(e, _) => e.ptr_to(),
                    t => t.ptr_to(),
                };
                self.f.add(Expr::LocalAddr(l), t)
            }
            Place::Mem(p) => p,
            Place::Addr(_) => return self.err(span, "internal error: unresolved address"),
        };
        Ok(self.cast_ir(a, want))
    }

    /// The size in bytes of `t` (a `u64`), at run time when it holds a
    /// variable-length array.
    pub fn size_of(&mut self, t: &CType, span: Span) -> DResult<ExprId> {
        match self.size(t, span)? {
            Size::Const(n) => Ok(self.f.int(i128::from(n), Type::U64)),
            Size::Dyn(x) => Ok(x),
        }
    }

    fn size(&mut self, t: &CType, span: Span) -> DResult<Size> {
        match t {
            CType::Vla(_, VlaLen::Bytes(l)) => Ok(Size::Dyn(self.f.read(*l))),
            CType::Vla(_, VlaLen::Expr(_)) => self.err(
                span,
                "internal error: variable-length array size not computed",
            ),
            CType::Array(e, Some(n)) if e.runtime_sized() => match self.size(e, span)? {
                Size::Dyn(x) => {
                    let n = self.f.int(i128::from(*n), Type::U64);
                    Ok(Size::Dyn(self.f.add(
                        Expr::Binary {
                            op: BinOp::Mul,
                            lhs: x,
                            rhs: n,
                        },
                        Type::U64,
                    )))
                }
                Size::Const(m) => Ok(Size::Const(m * n)),
            },
            CType::Void | CType::Function(_) => Ok(Size::Const(1)), // GNU: arithmetic in bytes
            t => match t.size() {
                Some(n) => Ok(Size::Const(n)),
                None => self.err(
                    span,
                    format!("arithmetic on a pointer to an incomplete type '{t}'"),
                ),
            },
        }
    }

    /// `p + i` (or `p - i` when `neg`) for a pointer `p` and an integer `i`.
    pub fn ptr_add(
        &mut self,
        p: (ExprId, CType),
        i: (ExprId, CType),
        neg: bool,
        span: Span,
    ) -> DResult<(ExprId, CType)> {
        self.offset(p, i, neg, false, span)
    }

    /// `p + i`, `p - i`, or the address of the subscript `p[i]` (`index`):
    /// an [`Index`] where the IR's pointee is the element, else pointer
    /// arithmetic (in bytes when the element's size is known only at run
    /// time).
    fn offset(
        &mut self,
        p: (ExprId, CType),
        i: (ExprId, CType),
        neg: bool,
        index: bool,
        span: Span,
    ) -> DResult<(ExprId, CType)> {
        if !i.1.is_integer() {
            return self.err(
                span,
                format!(
                    "invalid operands to pointer arithmetic ('{}' and '{}')",
                    p.1, i.1
                ),
            );
        }
        let elem = p.1.element().cloned().unwrap_or(CType::Void);
        let mut idx = self.convert(i.0, &i.1, &CType::LONG, span)?;
        if neg {
            idx = self.f.add(
                Expr::Unary {
                    op: UnOp::Neg,
                    arg: idx,
                },
                Type::I64,
            );
        }
        let pty = self.f.ty(p.0).clone();
        let sized_in_ir = pty.pointee().map(Type::size) == elem.size() && elem.size().is_some();
        let r = if sized_in_ir && index {
            self.index(p.0, idx, pty)
        } else if sized_in_ir {
            self.f.add(
                Expr::PtrAdd {
                    base: p.0,
                    index: idx,
                },
                pty,
            )
        } else {
            // Elements whose size the IR pointee does not give: step in bytes.
            let bytes = match self.size(&elem, span)? {
                Size::Const(n) => {
                    let n = self.f.int(i128::from(n), Type::I64);
                    self.f.add(
                        Expr::Binary {
                            op: BinOp::Mul,
                            lhs: idx,
                            rhs: n,
                        },
                        Type::I64,
                    )
                }
                Size::Dyn(n) => {
                    let n = self.cast_ir(n, Type::I64);
                    self.f.add(
                        Expr::Binary {
                            op: BinOp::Mul,
                            lhs: idx,
                            rhs: n,
                        },
                        Type::I64,
                    )
                }
            };
            let byte_ptr = Type::Int(IntKind::U8).ptr_to();
            let b = self.cast_ir(p.0, byte_ptr.clone());
            let moved = self.f.add(
                Expr::PtrAdd {
                    base: b,
                    index: bytes,
                },
                byte_ptr,
            );
            self.cast_ir(moved, pty)
        };
        Ok((r, p.1))
    }

    /// The address of `p[idx]` (of type `pty`, `p`'s): one more dimension
    /// of the index `p` comes from when it is a row of one (`a[i]` decayed
    /// to a pointer to its first element: `a[i][j]` is one index), else a
    /// new index. The decay's cast is left unused.
    fn index(&mut self, p: ExprId, idx: ExprId, pty: Type) -> ExprId {
        if let Expr::Cast(row) = *self.f.expr(p) {
            let elem_of_row = match self.f.ty(row).pointee() {
                Some(Type::Array(e, n)) if pty.pointee() == Some(&**e) => Some(*n),
                _ => None,
            };
            if let (Some(n), Expr::Index(ix)) = (elem_of_row, &mut self.f.exprs[row.0 as usize]) {
                ix.extents.push(Extent::Const(n));
                ix.subs.push(idx);
                self.f.expr_types[row.0 as usize] = pty;
                return row;
            }
        }
        let ix = Index {
            base: p,
            extents: vec![],
            subs: vec![idx],
        };
        self.f.add(Expr::Index(ix), pty)
    }

    /// `a - b` for two pointers: the number of elements between them.
    pub fn ptr_diff(
        &mut self,
        a: (ExprId, CType),
        b: (ExprId, CType),
        span: Span,
    ) -> DResult<(ExprId, CType)> {
        let elem = a.1.element().cloned().unwrap_or(CType::Void);
        let x = self.f.add(Expr::Cast(a.0), Type::I64);
        let y = self.f.add(Expr::Cast(b.0), Type::I64);
        let d = self.f.add(
            Expr::Binary {
                op: BinOp::Sub,
                lhs: x,
                rhs: y,
            },
            Type::I64,
        );
        let s = match self.size(&elem, span)? {
            Size::Const(n) => self.f.int(i128::from(n), Type::I64),
            Size::Dyn(n) => self.cast_ir(n, Type::I64),
        };
        Ok((
            self.f.add(
                Expr::Binary {
                    op: BinOp::Div,
                    lhs: d,
                    rhs: s,
                },
                Type::I64,
            ),
            CType::LONG,
        ))
    }

    /// `x[y]` (either operand may be the pointer).
    pub fn subscript(
        &mut self,
        lhs: &Node<Expression>,
        rhs: &Node<Expression>,
        span: Span,
    ) -> DResult<Val> {
        let x = self.rvalue(lhs)?;
        let y = self.rvalue(rhs)?;
        let (p, t) = if matches!(x.1, CType::Ptr(_)) {
            self.offset(x, y, false, true, span)?
        } else if matches!(y.1, CType::Ptr(_)) {
            self.offset(y, x, false, true, span)?
        } else {
            return self.err(span, "subscripted value is not an array or pointer");
        };
        let elem = t.element().cloned().unwrap_or(CType::Void);
        if elem == CType::Void {
            return self.err(span, "subscript of a 'void *' pointer");
        }
        Ok(Val::L(Place::Mem(p), elem))
    }

    /// `s.m` and `p->m`.
    pub fn member(&mut self, m: &MemberExpression, span: Span) -> DResult<Val> {
        let name = &m.identifier.node.name;
        let (base, sty) = match m.operator.node {
            MemberOperator::Direct => {
                let v = self.expr(&m.expression)?;
                let t = v.ty().clone();
                match v {
                    Val::L(place, t @ CType::Struct(_)) => (self.addr_of(place, &t, span)?, t),
                    Val::R(a, t @ CType::Struct(_)) => (a, t),
                    _ => {
                        return self.err(
                            span,
                            format!("member reference base type '{t}' is not a structure or union"),
                        )
                    }
                }
            }
            MemberOperator::Indirect => {
                let (p, t) = self.rvalue(&m.expression)?;
                match t {
                    CType::Ptr(inner) if matches!(*inner, CType::Struct(_)) => (p, *inner),
                    t => {
                        return self.err(
                            span,
                            format!(
                            "member reference type '{t}' is not a pointer to a structure or union"
                        ),
                        )
                    }
                }
            }
        };
        let CType::Struct(s) = &sty else {
            return self.err(span, "internal error: member of a non-struct");
        };
        if let Some(why) = s.unusable() {
            return self.err(span, why);
        }
        let Some((mty, off)) = s.member(name) else {
            return self.err(
                m.identifier.span,
                format!("no member named '{name}' in '{}'", s.name()),
            );
        };
        let byte_ptr = Type::Int(IntKind::U8).ptr_to();
        let b = self.cast_ir(base, byte_ptr.clone());
        let off = self.f.int(i128::from(off), Type::I64);
        let a = self.f.add(
            Expr::PtrAdd {
                base: b,
                index: off,
            },
            byte_ptr,
        );
        let want = match mty.pointee_ir() {
            Some(t) => t.ptr_to(),
            None => {
                return self.ir_type(&mty, span).and_then(|_| {
                    self.err(
                        span,
                        format!("member '{name}' of type '{mty}' is not supported in device code"),
                    )
                })
            }
        };
        let a = self.cast_ir(a, want);
        Ok(Val::L(Place::Mem(a), mty))
    }

    /// Copies the struct at `src` to `dst` (both addresses of type `ty`);
    /// into memory only by the thread that performs side effects unless
    /// `dst` points into a local of this thread ([`Lower::thread_own`]).
    pub fn copy_struct(&mut self, dst: ExprId, src: ExprId, ty: &CType, span: Span) -> DResult<()> {
        let Some(bytes) = ty.size() else {
            return self
                .ir_type(ty, span)
                .and_then(|_| self.err(span, format!("cannot copy an object of type '{ty}'")));
        };
        if bytes == 0 {
            return Ok(());
        }
        let s = Stmt::Copy { dst, src, bytes };
        if self.thread_own(dst) {
            self.emit(s);
        } else {
            self.emit_single(s);
        }
        Ok(())
    }

    /// `ty` with each variable-length dimension's size computed now, from
    /// its length expression, into a local (at a device function's entry:
    /// the lengths of its parameters' array types).
    pub fn materialize_lengths(&mut self, ty: &CType, span: Span) -> DResult<CType> {
        Ok(match ty {
            CType::Vla(e, VlaLen::Expr(len)) => {
                let inner = self.materialize_lengths(e, span)?;
                let n = self.rvalue_as(len, &CType::ULONG)?;
                let esize = self.size_of(&inner, span)?;
                let bytes = self.f.add(
                    Expr::Binary {
                        op: BinOp::Mul,
                        lhs: n,
                        rhs: esize,
                    },
                    Type::U64,
                );
                let l = self.hold(bytes);
                CType::Vla(Box::new(inner), VlaLen::Bytes(l))
            }
            CType::Array(e, n) if e.runtime_sized() => {
                CType::Array(Box::new(self.materialize_lengths(e, span)?), *n)
            }
            CType::Ptr(e) if e.runtime_sized() => {
                CType::Ptr(Box::new(self.materialize_lengths(e, span)?))
            }
            t => t.clone(),
        })
    }
}
