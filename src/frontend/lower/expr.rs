//! Expression lowering: C expressions → typed IR expression trees, with every
//! C conversion made an explicit cast.
//!
//! Owns: [`Val`], [`Place`] and the methods of `Lower` that lower operators,
//! conversions, constants, names, `sizeof` and `?:` (assignment: `assign.rs`). Side effects
//! (assignments, `++`) become statements emitted before the expression that
//! uses their value. A struct value is carried as the address of its storage
//! (C has no struct operators but assignment, member access and passing).

use super::{Binding, Lower, Resolved};
use crate::diag::DResult;
use crate::frontend::conv::{promote, usual_arith};
use crate::frontend::ctype::CType;
use crate::frontend::declare;
use crate::frontend::literal;
use crate::ir::{BinOp, CmpOp, Expr, ExprId, IntKind, Literal, LocalId, Stmt, Type, UnOp};
use lang_c::ast::*;
use lang_c::span::{Node, Span};

/// Where an lvalue lives.
#[derive(Clone, Debug)]
pub enum Place {
    /// A local of the body.
    Local(LocalId),
    /// Device memory at the address the expression computes.
    Mem(ExprId),
    /// Device memory at the address held in a temporary local (an lvalue
    /// used twice, as by `a[i] += x`: each use reads the local afresh).
    Addr(LocalId),
}

/// A lowered expression: a value, or an lvalue not yet read.
#[derive(Clone, Debug)]
pub enum Val {
    R(ExprId, CType),
    L(Place, CType),
}

impl Val {
    pub fn ty(&self) -> &CType {
        match self {
            Val::R(_, t) | Val::L(_, t) => t,
        }
    }
}

impl Lower<'_> {
    /// Lowers `e` to a value (lvalue conversion and decay applied; a struct
    /// value is the address of its storage).
    pub fn rvalue(&mut self, e: &Node<Expression>) -> DResult<(ExprId, CType)> {
        let v = self.expr(e)?;
        self.load_value(v, e.span)
    }

    /// Lowers `e` and converts it to type `to`.
    pub fn rvalue_as(&mut self, e: &Node<Expression>, to: &CType) -> DResult<ExprId> {
        let (x, t) = self.rvalue(e)?;
        self.convert(x, &t, to, e.span)
    }

    /// Lowers `e` as a condition: a `bool`.
    pub fn condition(&mut self, e: &Node<Expression>) -> DResult<ExprId> {
        let (x, t) = self.rvalue(e)?;
        self.truth(x, &t, e.span)
    }

    /// `x != 0` as a `bool`.
    fn truth(&mut self, x: ExprId, t: &CType, span: Span) -> DResult<ExprId> {
        if t.is_complex() {
            return self.complex_truth(x, t, span);
        }
        if !t.is_scalar() {
            return self.err(span, format!("used type '{t}' where a scalar is required"));
        }
        Ok(self.f.add(Expr::Cast(x), Type::BOOL))
    }

    /// Lvalue conversion: reads a place; arrays decay to a pointer to their
    /// first element; a struct becomes the address of its storage.
    pub fn load_value(&mut self, v: Val, span: Span) -> DResult<(ExprId, CType)> {
        match v {
            Val::R(x, t) => Ok((x, t)),
            Val::L(place, t) if t.is_array() || t.by_address() => {
                let a = self.addr_of(place, &t, span)?;
                Ok((a, t.decay()))
            }
            Val::L(place, t) => {
                let ir = self.ir_type(&t, span)?;
                let x = match self.fresh(place) {
                    Place::Local(l) => self.f.add(Expr::Local(l), ir),
                    Place::Mem(p) if t == CType::LongDouble => self.load_x87(p),
                    Place::Mem(p) => self.f.add(Expr::Load(p), ir),
                    Place::Addr(_) => return self.err(span, "internal error: unresolved address"),
                };
                Ok((x, t))
            }
        }
    }

    /// Converts value `x` of type `from` to type `to` (C11 6.3).
    pub fn convert(&mut self, x: ExprId, from: &CType, to: &CType, span: Span) -> DResult<ExprId> {
        if from == to {
            return Ok(x);
        }
        if to == &CType::Void {
            return Ok(x);
        }
        if from.is_complex() || to.is_complex() {
            return self.convert_complex(x, from, to, span);
        }
        let ok = from.is_scalar() && to.is_scalar();
        if !ok {
            return self.err(span, format!("cannot convert '{from}' to '{to}'"));
        }
        if to == &CType::Bool {
            let b = self.truth(x, from, span)?;
            return Ok(self.f.add(Expr::Cast(b), Type::Int(IntKind::U8)));
        }
        let irto = self.ir_type(to, span)?;
        Ok(self.cast_ir(x, irto))
    }

    /// `x` as IR type `to` (no node when it already has it).
    pub fn cast_ir(&mut self, x: ExprId, to: Type) -> ExprId {
        if *self.f.ty(x) == to {
            x
        } else {
            self.f.add(Expr::Cast(x), to)
        }
    }

    pub fn int_lit(&mut self, v: i128, t: &CType) -> ExprId {
        let ty = t.to_ir().unwrap_or(Type::I32);
        self.f.add(Expr::Literal(Literal::Int(v)), ty)
    }

    /// Lowers an expression.
    pub fn expr(&mut self, e: &Node<Expression>) -> DResult<Val> {
        let span = e.span;
        match &e.node {
            Expression::Identifier(id) => self.identifier(&id.node.name, span),
            Expression::Constant(c) => self.constant(&c.node, span),
            Expression::BinaryOperator(b)
                if b.node.operator.node == BinaryOperator::Index && !self.elem_reds.is_empty() =>
            {
                // An element a loop reduces: its private copy.
                let key: String = self
                    .text
                    .get(span.start..span.end)
                    .unwrap_or("")
                    .chars()
                    .filter(|c| !c.is_whitespace())
                    .collect();
                match self.elem_reds.iter().rev().find(|(k, _, _)| *k == key) {
                    Some((_, l, t)) => Ok(Val::L(Place::Local(*l), t.clone())),
                    None => self.binary(&b.node, span),
                }
            }
            Expression::BinaryOperator(b) => self.binary(&b.node, span),
            Expression::UnaryOperator(u) => self.unary(&u.node, span),
            Expression::Cast(c) => {
                let to = declare::type_name(&c.node.type_name, self.host, self.sm)?;
                let (x, t) = self.rvalue(&c.node.expression)?;
                let y = self.convert(x, &t, &to, span)?;
                Ok(Val::R(y, to))
            }
            Expression::Conditional(c) => self.conditional(&c.node, span),
            Expression::Comma(list) => {
                let mut last = None;
                for (i, x) in list.iter().enumerate() {
                    if i + 1 == list.len() {
                        last = Some(self.expr(x)?);
                    } else {
                        self.effect(x)?;
                    }
                }
                match last {
                    Some(v) => Ok(v),
                    None => self.err(span, "empty comma expression"),
                }
            }
            Expression::SizeOfTy(t) => {
                let ty = declare::type_name(&t.node.0, self.host, self.sm)?;
                self.sizeof(&ty, span)
            }
            Expression::SizeOfVal(v) => {
                // The operand is not evaluated: lower it in a discarded block.
                let (val, _) = self.in_block(|l| l.expr(&v.node.0))?;
                self.sizeof(&val.ty().clone(), span)
            }
            Expression::Call(c) => self.call(&c.node, span),
            Expression::Member(m) => self.member(&m.node, span),
            Expression::StringLiteral(_) => {
                self.err(span, "string literals are not supported in device code")
            }
            Expression::CompoundLiteral(c) => self.compound_literal(&c.node, span),
            Expression::LabelAddress(_) => self.err(
                span,
                "label addresses ('&&label', GNU C) are not supported in device code",
            ),
            Expression::Statement(_) => self.err(
                span,
                "statement expressions are not supported in device code",
            ),
            _ => self.err(
                span,
                "this kind of expression is not supported in device code",
            ),
        }
    }

    /// Lowers an expression for its side effects only.
    pub fn effect(&mut self, e: &Node<Expression>) -> DResult<()> {
        self.expr(e).map(|_| ())
    }

    fn sizeof(&mut self, t: &CType, span: Span) -> DResult<Val> {
        if t.runtime_sized() {
            let n = self.size_of(t, span)?;
            return Ok(Val::R(n, CType::ULONG));
        }
        match t.size() {
            Some(n) => Ok(Val::R(
                self.int_lit(i128::from(n), &CType::ULONG),
                CType::ULONG,
            )),
            None => self.err(
                span,
                format!("invalid application of 'sizeof' to type '{t}'"),
            ),
        }
    }

    fn identifier(&mut self, name: &str, span: Span) -> DResult<Val> {
        match self.resolve(name, span)? {
            Resolved::Local(Binding::Local(l), t) => Ok(Val::L(Place::Local(l), t)),
            Resolved::Local(Binding::Indirect(l), t) => {
                let p = self.f.read(l);
                Ok(Val::L(Place::Mem(p), t))
            }
            Resolved::Const(v) => Ok(Val::R(self.int_lit(v, &CType::INT), CType::INT)),
            Resolved::Global(p, t) => Ok(Val::L(Place::Mem(p), t)),
            Resolved::Param(i) => {
                let p = &self.params[i];
                let (local, ty) = (p.local, self.vars[i].ty.clone());
                if ty.is_array() || self.vars[i].by_ref {
                    let ptr = self.f.read(local);
                    Ok(Val::L(Place::Mem(ptr), ty))
                } else if ty == CType::LongDouble || ty.is_complex() {
                    // Its bytes are the parameter's (a blob).
                    let pt = self.f.local(local).ty.ptr_to();
                    let a = self.f.add(Expr::LocalAddr(local), pt);
                    Ok(Val::L(Place::Mem(a), ty))
                } else {
                    Ok(Val::L(Place::Local(local), ty))
                }
            }
            Resolved::Function(f, _) => self.err(
                span,
                format!("function '{f}' cannot be used as a value (its address taken or called through a pointer) in device code"),
            ),
        }
    }

    fn constant(&mut self, c: &Constant, span: Span) -> DResult<Val> {
        match c {
            Constant::Integer(i) => match literal::int_constant(i) {
                Ok((v, t)) => Ok(Val::R(self.int_lit(v, &t), t)),
                Err(m) => self.err(span, m),
            },
            Constant::Character(ch) => match literal::char_constant(ch) {
                Ok(v) => Ok(Val::R(self.int_lit(v, &CType::INT), CType::INT)),
                Err(m) => self.err(span, m),
            },
            Constant::Float(fl) => match literal::float_constant(fl) {
                Ok((v, CType::Complex(real))) => {
                    // An imaginary constant: 0 + v i.
                    let ir = self.ir_type(&real, span)?;
                    let zero = self.f.add(Expr::Literal(Literal::Float(0.0)), ir.clone());
                    let im = self.f.add(Expr::Literal(Literal::Float(v)), ir);
                    let t = CType::Complex(real);
                    Ok(Val::R(self.make_complex(zero, im, &t, span)?, t))
                }
                Ok((v, t)) => {
                    let ir = self.ir_type(&t, span)?;
                    Ok(Val::R(self.f.add(Expr::Literal(Literal::Float(v)), ir), t))
                }
                Err(m) => self.err(span, m),
            },
        }
    }

    /// Arithmetic on two values converted to their common type.
    fn arith(
        &mut self,
        op: BinOp,
        a: (ExprId, CType),
        b: (ExprId, CType),
        span: Span,
    ) -> DResult<(ExprId, CType)> {
        let (ta, tb) = (&a.1, &b.1);
        let int_only = matches!(
            op,
            BinOp::Rem | BinOp::And | BinOp::Or | BinOp::Xor | BinOp::Shl | BinOp::Shr
        );
        if !ta.is_arithmetic()
            || !tb.is_arithmetic()
            || (int_only && (!ta.is_integer() || !tb.is_integer()))
        {
            return self.err(
                span,
                format!("invalid operands to binary expression ('{ta}' and '{tb}')"),
            );
        }
        let (t, tr) = if matches!(op, BinOp::Shl | BinOp::Shr) {
            // The result has the promoted left type; the count is converted
            // to it (the IR shifts operands of one type).
            (promote(ta), promote(ta))
        } else {
            let t = usual_arith(ta, tb);
            (t.clone(), t)
        };
        let x = self.convert(a.0, ta, &t, span)?;
        let y = self.convert(b.0, tb, &tr, span)?;
        let ir = self.ir_type(&t, span)?;
        Ok((self.f.add(Expr::Binary { op, lhs: x, rhs: y }, ir), t))
    }

    /// True when `e` (lowered to `x` of type `t`) is a null pointer
    /// constant (an integer constant 0).
    pub(super) fn is_null_constant(&self, x: ExprId, t: &CType) -> bool {
        t.is_integer() && matches!(self.f.expr(x), Expr::Literal(Literal::Int(0)))
    }

    /// `a op b` on values (the arithmetic, pointer and comparison operators).
    pub fn apply_binop(
        &mut self,
        op: &BinaryOperator,
        a: (ExprId, CType),
        b: (ExprId, CType),
        span: Span,
    ) -> DResult<(ExprId, CType)> {
        use BinaryOperator as B;
        let is_ptr = |t: &CType| matches!(t, CType::Ptr(_));
        if a.1.is_complex() || b.1.is_complex() {
            if let Some(op) = super::complex::complex_op(op) {
                return self.complex_arith(op, a, b, span);
            }
            if matches!(op, B::Equals | B::NotEquals) {
                return self.complex_equal(*op == B::Equals, a, b, span);
            }
        }
        Ok(match op {
            B::Plus | B::AssignPlus if is_ptr(&a.1) => self.ptr_add(a, b, false, span)?,
            B::Plus if is_ptr(&b.1) => self.ptr_add(b, a, false, span)?,
            B::Minus if is_ptr(&a.1) && is_ptr(&b.1) => self.ptr_diff(a, b, span)?,
            B::Minus | B::AssignMinus if is_ptr(&a.1) => self.ptr_add(a, b, true, span)?,
            B::Plus | B::AssignPlus => self.arith(BinOp::Add, a, b, span)?,
            B::Minus | B::AssignMinus => self.arith(BinOp::Sub, a, b, span)?,
            B::Multiply | B::AssignMultiply => self.arith(BinOp::Mul, a, b, span)?,
            B::Divide | B::AssignDivide => self.arith(BinOp::Div, a, b, span)?,
            B::Modulo | B::AssignModulo => self.arith(BinOp::Rem, a, b, span)?,
            B::ShiftLeft | B::AssignShiftLeft => self.arith(BinOp::Shl, a, b, span)?,
            B::ShiftRight | B::AssignShiftRight => self.arith(BinOp::Shr, a, b, span)?,
            B::BitwiseAnd | B::AssignBitwiseAnd => self.arith(BinOp::And, a, b, span)?,
            B::BitwiseOr | B::AssignBitwiseOr => self.arith(BinOp::Or, a, b, span)?,
            B::BitwiseXor | B::AssignBitwiseXor => self.arith(BinOp::Xor, a, b, span)?,
            B::Less
            | B::Greater
            | B::LessOrEqual
            | B::GreaterOrEqual
            | B::Equals
            | B::NotEquals => {
                let cmp = match op {
                    B::Less => CmpOp::Lt,
                    B::Greater => CmpOp::Gt,
                    B::LessOrEqual => CmpOp::Le,
                    B::GreaterOrEqual => CmpOp::Ge,
                    B::Equals => CmpOp::Eq,
                    _ => CmpOp::Ne,
                };
                let (x, y) = if is_ptr(&a.1) && (is_ptr(&b.1) || self.is_null_constant(b.0, &b.1)) {
                    let t = self.f.ty(a.0).clone();
                    (a.0, self.cast_ir(b.0, t))
                } else if is_ptr(&b.1) && self.is_null_constant(a.0, &a.1) {
                    let t = self.f.ty(b.0).clone();
                    (self.cast_ir(a.0, t), b.0)
                } else if a.1.is_arithmetic() && b.1.is_arithmetic() {
                    let t = usual_arith(&a.1, &b.1);
                    (
                        self.convert(a.0, &a.1, &t, span)?,
                        self.convert(b.0, &b.1, &t, span)?,
                    )
                } else {
                    return self.err(span, format!("comparison between '{}' and '{}'", a.1, b.1));
                };
                let c = self.f.add(
                    Expr::Cmp {
                        op: cmp,
                        lhs: x,
                        rhs: y,
                    },
                    Type::BOOL,
                );
                (self.f.add(Expr::Cast(c), Type::I32), CType::INT)
            }
            _ => return self.err(span, "unsupported operator"),
        })
    }

    fn binary(&mut self, b: &BinaryOperatorExpression, span: Span) -> DResult<Val> {
        use BinaryOperator as B;
        match &b.operator.node {
            B::Index => self.subscript(&b.lhs, &b.rhs, span),
            B::LogicalAnd | B::LogicalOr => {
                let and = matches!(b.operator.node, B::LogicalAnd);
                let lhs = self.condition(&b.lhs)?;
                let (rhs, pre) = self.in_block(|l| l.condition(&b.rhs))?;
                let r = if pre.is_empty() {
                    self.f.add(Expr::Logical { and, lhs, rhs }, Type::BOOL)
                } else {
                    // The right side has side effects: evaluate it only when needed.
                    let t = self.temp(Type::BOOL);
                    self.emit(Stmt::Assign {
                        local: t,
                        value: lhs,
                    });
                    let cur = self.f.read(t);
                    let cond = if and {
                        cur
                    } else {
                        self.f.add(
                            Expr::Unary {
                                op: UnOp::Not,
                                arg: cur,
                            },
                            Type::BOOL,
                        )
                    };
                    let mut then = pre;
                    then.push(Stmt::Assign {
                        local: t,
                        value: rhs,
                    });
                    self.emit(Stmt::If {
                        cond,
                        then,
                        otherwise: vec![],
                        single: false,
                    });
                    self.f.read(t)
                };
                Ok(Val::R(self.f.add(Expr::Cast(r), Type::I32), CType::INT))
            }
            B::Assign => {
                let target = self.expr(&b.lhs)?;
                let (x, t) = self.rvalue(&b.rhs)?;
                self.assign(target, x, &t, b.lhs.span)
            }
            B::AssignPlus
            | B::AssignMinus
            | B::AssignMultiply
            | B::AssignDivide
            | B::AssignModulo
            | B::AssignShiftLeft
            | B::AssignShiftRight
            | B::AssignBitwiseAnd
            | B::AssignBitwiseOr
            | B::AssignBitwiseXor => {
                let target = self.expr(&b.lhs)?;
                let target = self.stable(target);
                let rhs = self.rvalue(&b.rhs)?;
                let cur = self.load_value(target.clone(), b.lhs.span)?;
                if matches!(cur.1, CType::Ptr(_))
                    && !matches!(b.operator.node, B::AssignPlus | B::AssignMinus)
                {
                    return self.err(span, "invalid operands to compound assignment");
                }
                let (v, t) = self.apply_binop(&b.operator.node, cur, rhs, span)?;
                self.assign(target, v, &t, b.lhs.span)
            }
            op => {
                let x = self.rvalue(&b.lhs)?;
                let y = self.rvalue(&b.rhs)?;
                let (v, t) = self.apply_binop(op, x, y, span)?;
                Ok(Val::R(v, t))
            }
        }
    }

    fn unary(&mut self, u: &UnaryOperatorExpression, span: Span) -> DResult<Val> {
        use UnaryOperator as U;
        match u.operator.node {
            U::Indirection => {
                let (p, t) = self.rvalue(&u.operand)?;
                match t {
                    CType::Ptr(elem) if matches!(*elem, CType::Function(_)) => self.err(
                        span,
                        "calls through function pointers are not supported in device code",
                    ),
                    CType::Ptr(elem) if *elem == CType::Void => {
                        self.err(span, "dereferencing a 'void *' pointer")
                    }
                    CType::Ptr(elem) => {
                        let want = elem.pointee_ir().map(|t| t.ptr_to());
                        let p = match want {
                            Some(w) => self.cast_ir(p, w),
                            None => p,
                        };
                        Ok(Val::L(Place::Mem(p), *elem))
                    }
                    t => self.err(
                        span,
                        format!("indirection requires a pointer operand ('{t}' invalid)"),
                    ),
                }
            }
            U::Real | U::Imag => self.err(
                span,
                "'__real__' and '__imag__' (GNU C) are not supported in device code",
            ),
            U::Address => {
                let v = self.expr(&u.operand)?;
                let Val::L(place, t) = v else {
                    return self.err(span, "cannot take the address of an rvalue");
                };
                let ptr = CType::Ptr(Box::new(t.clone()));
                let a = self.addr_of(place, &t, span)?;
                let ir = match ptr.to_ir() {
                    Some(ir) => ir,
                    None => self.ir_type(&ptr, span)?,
                };
                Ok(Val::R(self.cast_ir(a, ir), ptr))
            }
            U::Plus | U::Minus | U::Complement => {
                let (x, t) = self.rvalue(&u.operand)?;
                if t.is_complex() {
                    // `~z` is the conjugate (GNU).
                    let (neg_re, neg_im) = match u.operator.node {
                        U::Plus => (false, false),
                        U::Minus => (true, true),
                        _ => (false, true),
                    };
                    let v = self.complex_unary(neg_re, neg_im, x, &t, span)?;
                    return Ok(Val::R(v, t));
                }
                if !t.is_arithmetic() || (u.operator.node == U::Complement && !t.is_integer()) {
                    return self.err(
                        span,
                        format!("invalid argument type '{t}' to unary expression"),
                    );
                }
                let pt = promote(&t);
                let y = self.convert(x, &t, &pt, span)?;
                if u.operator.node == U::Plus {
                    return Ok(Val::R(y, pt));
                }
                let op = if u.operator.node == U::Minus {
                    UnOp::Neg
                } else {
                    UnOp::BitNot
                };
                let ir = self.ir_type(&pt, span)?;
                Ok(Val::R(self.f.add(Expr::Unary { op, arg: y }, ir), pt))
            }
            U::Negate => {
                let c = self.condition(&u.operand)?;
                let n = self.f.add(
                    Expr::Unary {
                        op: UnOp::Not,
                        arg: c,
                    },
                    Type::BOOL,
                );
                Ok(Val::R(self.f.add(Expr::Cast(n), Type::I32), CType::INT))
            }
            U::PreIncrement | U::PreDecrement | U::PostIncrement | U::PostDecrement => {
                let inc = matches!(u.operator.node, U::PreIncrement | U::PostIncrement);
                let post = matches!(u.operator.node, U::PostIncrement | U::PostDecrement);
                let target = self.expr(&u.operand)?;
                let target = self.stable(target);
                let (old, t) = self.load_value(target.clone(), u.operand.span)?;
                if !t.is_scalar() {
                    return self.err(span, format!("cannot increment value of type '{t}'"));
                }
                let irty = self.ir_type(&t, span)?;
                let saved = self.temp(irty);
                self.emit(Stmt::Assign {
                    local: saved,
                    value: old,
                });
                let cur = self.f.read(saved);
                let one = self.int_lit(1, &CType::INT);
                let op = if inc {
                    BinaryOperator::Plus
                } else {
                    BinaryOperator::Minus
                };
                let (new, nt) = self.apply_binop(&op, (cur, t.clone()), (one, CType::INT), span)?;
                let stored = self.assign(target, new, &nt, span)?;
                if post {
                    Ok(Val::R(self.f.read(saved), t))
                } else {
                    Ok(stored)
                }
            }
        }
    }

    fn conditional(&mut self, c: &ConditionalExpression, span: Span) -> DResult<Val> {
        let cond = self.condition(&c.condition)?;
        let (a, pa) = self.in_block(|l| l.rvalue(&c.then_expression))?;
        let (b, pb) = self.in_block(|l| l.rvalue(&c.else_expression))?;
        let t = if a.1.is_c_arithmetic() && b.1.is_c_arithmetic() {
            usual_arith(&a.1, &b.1)
        } else if a.1 == b.1
            || (matches!(a.1, CType::Ptr(_))
                && (self.is_null_constant(b.0, &b.1) || matches!(b.1, CType::Ptr(_))))
        {
            a.1.clone()
        } else if matches!(b.1, CType::Ptr(_)) && self.is_null_constant(a.0, &a.1) {
            b.1.clone()
        } else if a.1 == CType::Void || b.1 == CType::Void {
            CType::Void
        } else {
            return self.err(
                span,
                format!("incompatible operand types ('{}' and '{}')", a.1, b.1),
            );
        };
        if t == CType::Void {
            // Both arms for their side effects only.
            self.emit(Stmt::If {
                cond,
                then: pa,
                otherwise: pb,
                single: false,
            });
            let z = self.int_lit(0, &CType::INT);
            return Ok(Val::R(z, CType::Void));
        }
        let ir = match &t {
            CType::Struct(_) => self.f.ty(a.0).clone(),
            t if t.by_address() => self.ir_type(&CType::Ptr(Box::new(t.clone())), span)?,
            t => self.ir_type(t, span)?,
        };
        let arm = |l: &mut Self, v: (ExprId, CType)| -> DResult<ExprId> {
            if matches!(t, CType::Ptr(_) | CType::Struct(_)) {
                Ok(l.cast_ir(v.0, ir.clone()))
            } else {
                let x = l.convert(v.0, &v.1, &t, span)?;
                Ok(l.cast_ir(x, ir.clone()))
            }
        };
        // Each arm with its conversion (which may emit statements: a
        // complex or `long double` value) evaluated only when chosen.
        let (x, pa) = self.in_block(|l| {
            pa.into_iter().for_each(|s| l.emit(s));
            arm(l, a)
        })?;
        let (y, pb) = self.in_block(|l| {
            pb.into_iter().for_each(|s| l.emit(s));
            arm(l, b)
        })?;
        if pa.is_empty() && pb.is_empty() {
            return Ok(Val::R(
                self.f.add(
                    Expr::Select {
                        cond,
                        then: x,
                        otherwise: y,
                    },
                    ir,
                ),
                t,
            ));
        }
        let tmp = self.temp(ir.clone());
        let mut then = pa;
        then.push(Stmt::Assign {
            local: tmp,
            value: x,
        });
        let mut otherwise = pb;
        otherwise.push(Stmt::Assign {
            local: tmp,
            value: y,
        });
        self.emit(Stmt::If {
            cond,
            then,
            otherwise,
            single: false,
        });
        Ok(Val::R(self.f.read(tmp), t))
    }
}
