//! Initialisers of variables declared in device code: `= expr` and
//! brace-enclosed lists for arrays, structs and unions, with designators
//! (`[k] =`, `.m =`) and brace elision (C11 6.7.9). The object is zeroed
//! first, then every initialised scalar is stored at its offset. Compound
//! literals are unnamed locals initialised the same way.
//!
//! Owns: the methods of `Lower` that initialise a local.

use super::expr::{Place, Val};
use super::Lower;
use crate::diag::DResult;
use crate::frontend::ctype::CType;
use crate::frontend::declare;
use crate::ir::{BinOp, CmpOp, Expr, IntKind, LocalId, Stmt, Type};
use lang_c::ast::*;
use lang_c::span::{Node, Span};

impl Lower<'_> {
    /// The type of an array of unknown length (`int a[] = {1, 2, 3}`)
    /// completed by its initialiser list.
    pub fn complete_array(
        &mut self,
        ty: CType,
        init: Option<&Node<Initializer>>,
        span: Span,
    ) -> DResult<CType> {
        let CType::Array(elem, None) = &ty else {
            return Ok(ty);
        };
        let Some(Initializer::List(items)) = init.map(|i| &i.node) else {
            return self.err(span, format!("definition of variable with array type '{ty}' needs an explicit size or an initializer"));
        };
        let (mut pos, mut n) = (0u64, 0u64);
        for it in items {
            match it.node.designation.first().map(|d| &d.node) {
                None => {}
                Some(Designator::Index(e)) => {
                    let k = declare::const_int(e, self.host, self.sm)?;
                    pos = u64::try_from(k)
                        .or_else(|_| self.err(e.span, "array index in initializer is negative"))?;
                }
                Some(_) => return self.err(it.span, "this designator does not apply to an array"),
            }
            let braced_or_scalar =
                elem.is_scalar() || matches!(it.node.initializer.node, Initializer::List(_));
            if !braced_or_scalar {
                return self.err(it.span, "cannot determine the array's size from an initializer without braces around each element");
            }
            pos += 1;
            n = n.max(pos);
        }
        Ok(CType::Array(elem.clone(), Some(n)))
    }

    /// Initialises local `l` of type `ty` with `init`.
    pub fn init_local(&mut self, l: LocalId, ty: &CType, init: &Node<Initializer>) -> DResult<()> {
        match (&init.node, ty) {
            (Initializer::Expression(e), t) if t.by_address() => {
                let (x, xt) = self.rvalue(e)?;
                let x = if ty.is_complex() {
                    self.convert(x, &xt, ty, e.span)?
                } else {
                    x
                };
                if !ty.is_complex() && xt != *ty {
                    let t = xt;
                    return self.err(
                        e.span,
                        format!(
                            "initializing '{ty}' with an expression of incompatible type '{t}'"
                        ),
                    );
                }
                let dst = self.addr_of(Place::Local(l), ty, e.span)?;
                self.copy_struct(dst, x, ty, e.span)
            }
            (Initializer::Expression(e), t) if t.is_array() => {
                self.err(e.span, "array initializer must be an initializer list")
            }
            (Initializer::Expression(e), t) => {
                let v = self.rvalue_as_assigned(e, t)?;
                self.emit(Stmt::Assign { local: l, value: v });
                Ok(())
            }
            (Initializer::List(items), t)
                if t.is_scalar() || (t.is_complex() && !items.is_empty()) =>
            {
                let Some(first) = items.first() else {
                    let z = self.zero(t, init.span)?;
                    self.emit(Stmt::Assign { local: l, value: z });
                    return Ok(());
                };
                self.init_local(l, ty, &first.node.initializer)
            }
            (Initializer::List(_), _) => {
                let base = self.addr_of(Place::Local(l), ty, init.span)?;
                let byte_ptr = Type::Int(IntKind::U8).ptr_to();
                let base = self.cast_ir(base, byte_ptr);
                let b = self.hold(base);
                let size = ty.size().unwrap_or(0);
                self.zero_bytes(b, size);
                self.init_object(b, 0, ty, init)
            }
        }
    }

    /// A compound literal `(T){ ... }` (C11 6.5.2.5): an unnamed local of
    /// type `T`, initialised where the literal is evaluated; an lvalue.
    pub fn compound_literal(&mut self, c: &CompoundLiteral, span: Span) -> DResult<Val> {
        let ty = declare::type_name(&c.type_name, self.host, self.sm)?;
        let init = Node::new(Initializer::List(c.initializer_list.clone()), span);
        let ty = self.complete_array(ty, Some(&init), span)?;
        if ty.runtime_sized() {
            return self.err(
                span,
                "a compound literal of variable-length array type is not supported in device code",
            );
        }
        let irty = self.ir_type(&ty, span)?;
        let local = self.f.new_local("literal", irty);
        self.init_local(local, &ty, &init)?;
        Ok(Val::L(Place::Local(local), ty))
    }

    /// `e` converted to `t` as by assignment (a null pointer constant or a
    /// pointer of another type becomes a pointer of type `t`).
    fn rvalue_as_assigned(
        &mut self,
        e: &Node<Expression>,
        t: &CType,
    ) -> DResult<crate::ir::ExprId> {
        let (x, from) = self.rvalue(e)?;
        if let CType::Ptr(_) = t {
            if matches!(from, CType::Ptr(_))
                || (from.is_integer()
                    && matches!(self.f.expr(x), Expr::Literal(crate::ir::Literal::Int(0))))
            {
                let ir = self.ir_type(t, e.span)?;
                return Ok(self.cast_ir(x, ir));
            }
        }
        self.convert(x, &from, t, e.span)
    }

    fn zero(&mut self, t: &CType, span: Span) -> DResult<crate::ir::ExprId> {
        let ir = self.ir_type(t, span)?;
        Ok(match ir {
            Type::Float(_) => self
                .f
                .add(Expr::Literal(crate::ir::Literal::Float(0.0)), ir),
            ir => self.f.add(Expr::Literal(crate::ir::Literal::Int(0)), ir),
        })
    }

    /// Zeroes `size` bytes from the byte address held in `b` (a loop LLVM
    /// turns into a memset).
    fn zero_bytes(&mut self, b: LocalId, size: u64) {
        if size == 0 {
            return;
        }
        let zero = self.f.int(0, Type::U64);
        let i = self.hold(zero);
        let (iv, n) = (self.f.read(i), self.f.int(i128::from(size), Type::U64));
        let cond = self.f.add(
            Expr::Cmp {
                op: CmpOp::Lt,
                lhs: iv,
                rhs: n,
            },
            Type::BOOL,
        );
        let byte_ptr = Type::Int(IntKind::U8).ptr_to();
        let (base, iv) = (self.f.read(b), self.f.read(i));
        let idx = self.cast_ir(iv, Type::I64);
        let p = self.f.add(Expr::PtrAdd { base, index: idx }, byte_ptr);
        let z = self.f.int(0, Type::Int(IntKind::U8));
        let (iv, one) = (self.f.read(i), self.f.int(1, Type::U64));
        let next = self.f.add(
            Expr::Binary {
                op: BinOp::Add,
                lhs: iv,
                rhs: one,
            },
            Type::U64,
        );
        self.emit(Stmt::While {
            cond,
            body: vec![Stmt::Store { ptr: p, value: z }],
            step: vec![Stmt::Assign {
                local: i,
                value: next,
            }],
        });
    }

    /// The address `off` bytes into the object at byte address `b`, as a
    /// pointer to `t`.
    fn at(&mut self, b: LocalId, off: u64, t: &CType, span: Span) -> DResult<crate::ir::ExprId> {
        let byte_ptr = Type::Int(IntKind::U8).ptr_to();
        let base = self.f.read(b);
        let o = self.f.int(i128::from(off), Type::I64);
        let p = self.f.add(Expr::PtrAdd { base, index: o }, byte_ptr);
        let want = match t.pointee_ir() {
            Some(w) => w.ptr_to(),
            None => {
                return self.ir_type(t, span).and_then(|_| {
                    self.err(span, format!("cannot initialise an object of type '{t}'"))
                })
            }
        };
        Ok(self.cast_ir(p, want))
    }

    /// Initialises the object of type `t` at byte offset `off` of `b`.
    fn init_object(
        &mut self,
        b: LocalId,
        off: u64,
        t: &CType,
        init: &Node<Initializer>,
    ) -> DResult<()> {
        match &init.node {
            Initializer::Expression(e) => self.init_expr(b, off, t, e),
            Initializer::List(items) if t.is_scalar() => match items.first() {
                Some(first) => self.init_object(b, off, t, &first.node.initializer),
                None => Ok(()), // zeroed already
            },
            Initializer::List(items) => {
                let mut idx = 0;
                self.init_list(b, off, t, items, &mut idx, true)?;
                if idx < items.len() {
                    return self.err(items[idx].span, "excess elements in initializer");
                }
                Ok(())
            }
        }
    }

    /// A scalar or a whole struct from an expression.
    fn init_expr(&mut self, b: LocalId, off: u64, t: &CType, e: &Node<Expression>) -> DResult<()> {
        let p = self.at(b, off, t, e.span)?;
        if t.by_address() {
            let (x, xt) = self.rvalue(e)?;
            let x = if t.is_complex() {
                self.convert(x, &xt, t, e.span)?
            } else {
                x
            };
            if !t.is_complex() && xt != *t {
                return self.err(
                    e.span,
                    format!("initializing '{t}' with an expression of incompatible type '{xt}'"),
                );
            }
            return self.copy_struct(p, x, t, e.span);
        }
        if t.is_array() {
            return self.err(e.span, "array initializer must be an initializer list");
        }
        let v = self.rvalue_as_assigned(e, t)?;
        if *t == CType::LongDouble {
            for s in self.store_x87(p, v) {
                self.emit(s);
            }
        } else {
            self.emit(Stmt::Store { ptr: p, value: v });
        }
        Ok(())
    }

    /// The number of sub-objects of an aggregate and the offset and type of
    /// sub-object `k` (a union's list initialises its first member).
    fn sub_object(&self, t: &CType, k: u64) -> Option<(u64, CType)> {
        match t {
            CType::Array(e, Some(n)) if k < *n => Some((k * e.size()?, (**e).clone())),
            CType::Struct(s) => {
                let ms = s.members();
                let limit = if s.is_union() { 1 } else { ms.len() };
                let m = ms.into_iter().take(limit).nth(usize::try_from(k).ok()?)?;
                Some((m.offset, m.ty))
            }
            _ => None,
        }
    }

    /// The position a designator selects in aggregate `t`.
    fn designate(&mut self, t: &CType, d: &Node<Designator>) -> DResult<(u64, u64, CType)> {
        match (&d.node, t) {
            (Designator::Index(e), CType::Array(el, Some(n))) => {
                let k = declare::const_int(e, self.host, self.sm)?;
                match u64::try_from(k) {
                    Ok(k) if k < *n => Ok((k, k * el.size().unwrap_or(0), (**el).clone())),
                    _ => self.err(
                        e.span,
                        format!("array index {k} in initializer exceeds array bounds"),
                    ),
                }
            }
            (Designator::Member(id), CType::Struct(s)) => {
                let ms = s.members();
                match ms
                    .iter()
                    .position(|m| m.name.as_deref() == Some(id.node.name.as_str()))
                {
                    Some(k) => Ok((k as u64, ms[k].offset, ms[k].ty.clone())),
                    None => self.err(
                        id.span,
                        format!(
                            "field designator '{}' does not refer to any field in type '{t}'",
                            id.node.name
                        ),
                    ),
                }
            }
            _ => self.err(
                d.span,
                format!("this designator does not apply to type '{t}'"),
            ),
        }
    }

    /// Initialises the sub-objects of aggregate `t` (at `off` of `b`) from
    /// `items[*idx..]`. In a braced list (`braced`) every item belongs here
    /// and designators are honoured; in an elided one (an aggregate member
    /// initialised without its own braces) items are taken while they fit
    /// and a designated item ends it.
    fn init_list(
        &mut self,
        b: LocalId,
        off: u64,
        t: &CType,
        items: &[Node<InitializerListItem>],
        idx: &mut usize,
        braced: bool,
    ) -> DResult<()> {
        if let CType::Struct(s) = t {
            if let Some(why) = s.unusable() {
                return self.err(
                    items.first().map_or(lang_c::span::Span::none(), |i| i.span),
                    why,
                );
            }
        }
        let mut pos = 0u64;
        while let Some(item) = items.get(*idx) {
            if let Some((first, rest)) = item.node.designation.split_first() {
                if !braced {
                    return Ok(());
                }
                let (k, so, st) = self.designate(t, first)?;
                let (mut so, mut st) = (off + so, st);
                for d in rest {
                    let (_, o, inner) = self.designate(&st, d)?;
                    so += o;
                    st = inner;
                }
                self.init_object(b, so, &st, &item.node.initializer)?;
                *idx += 1;
                pos = k + 1;
                continue;
            }
            let Some((so, st)) = self.sub_object(t, pos) else {
                if braced {
                    return self.err(item.span, "excess elements in initializer");
                }
                return Ok(());
            };
            let so = off + so;
            match &item.node.initializer.node {
                Initializer::List(_) => {
                    self.init_object(b, so, &st, &item.node.initializer)?;
                    *idx += 1;
                }
                Initializer::Expression(e) => {
                    let whole = st.is_scalar() || {
                        // A struct member may take a whole struct value.
                        let (v, _) = self.in_block(|l| l.expr(e))?;
                        matches!(st, CType::Struct(_)) && *v.ty() == st
                    };
                    if whole {
                        self.init_expr(b, so, &st, e)?;
                        *idx += 1;
                    } else {
                        self.init_list(b, so, &st, items, idx, false)?;
                    }
                }
            }
            pos += 1;
        }
        Ok(())
    }
}
