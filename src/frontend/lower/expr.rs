//! Expression lowering: C expressions of a region → typed IR expression
//! trees, with every C conversion made an explicit cast.
//!
//! Owns: [`Val`], [`Place`] and the methods of `Lower` that lower
//! expressions. Side effects (assignments, `++`) become statements emitted
//! before the expression that uses their value.

use super::{Lower, Resolved};
use crate::diag::DResult;
use crate::frontend::conv::{promote, usual_arith};
use crate::frontend::ctype::CType;
use crate::frontend::declare;
use crate::frontend::literal;
use crate::ir::{
    BinOp, CmpOp, Expr, ExprId, IntKind, Literal, LocalId, MathFunc, ParamMode, Stmt, Type, UnOp,
};
use lang_c::ast::*;
use lang_c::span::{Node, Span};

/// Where an lvalue lives.
#[derive(Clone, Debug)]
pub enum Place {
    /// A local of the kernel.
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
    fn ty(&self) -> &CType {
        match self {
            Val::R(_, t) | Val::L(_, t) => t,
        }
    }
}

impl Lower<'_> {
    /// Lowers `e` to a value (lvalue conversion and decay applied).
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
        if !t.is_scalar() {
            return self.err(span, format!("used type '{t}' where a scalar is required"));
        }
        Ok(self.f.add(Expr::Cast(x), Type::BOOL))
    }

    /// Lvalue conversion: reads a place; arrays decay to a pointer to their
    /// first element.
    pub fn load_value(&mut self, v: Val, span: Span) -> DResult<(ExprId, CType)> {
        match v {
            Val::R(x, t) => Ok((x, t)),
            Val::L(place, t) => {
                let place = self.fresh(place);
                let ir = self.ir_type(&t.decay(), span)?;
                let x = match (place, &t) {
                    (Place::Local(l), CType::Array(..)) => self.f.add(Expr::LocalAddr(l), ir),
                    (Place::Local(l), _) => self.f.add(Expr::Local(l), ir),
                    (Place::Mem(p), CType::Array(..)) => {
                        if *self.f.ty(p) == ir {
                            p
                        } else {
                            self.f.add(Expr::Cast(p), ir)
                        }
                    }
                    (Place::Mem(p), _) => self.f.add(Expr::Load(p), ir),
                    (Place::Addr(_), _) => {
                        return self.err(span, "internal error: unresolved address")
                    }
                };
                Ok((x, t.decay()))
            }
        }
    }

    fn ir_type(&self, t: &CType, span: Span) -> DResult<Type> {
        match t.to_ir() {
            Some(t) => Ok(t),
            None => self.err(
                span,
                format!("type '{t}' is not supported in a compute region yet"),
            ),
        }
    }

    /// Converts value `x` of type `from` to type `to` (C11 6.3).
    pub fn convert(&mut self, x: ExprId, from: &CType, to: &CType, span: Span) -> DResult<ExprId> {
        if from == to {
            return Ok(x);
        }
        let ok = (from.is_scalar() && to.is_scalar()) || (to == &CType::Void);
        if !ok {
            return self.err(span, format!("cannot convert '{from}' to '{to}'"));
        }
        if to == &CType::Void {
            return Ok(x);
        }
        if to == &CType::Bool {
            let b = self.truth(x, from, span)?;
            return Ok(self.f.add(Expr::Cast(b), Type::Int(IntKind::U8)));
        }
        let irto = self.ir_type(to, span)?;
        if *self.f.ty(x) == irto {
            return Ok(x);
        }
        Ok(self.f.add(Expr::Cast(x), irto))
    }

    fn int_lit(&mut self, v: i128, t: &CType) -> ExprId {
        let ty = t.to_ir().unwrap_or(Type::I32);
        self.f.add(Expr::Literal(Literal::Int(v)), ty)
    }

    /// Lowers an expression.
    pub fn expr(&mut self, e: &Node<Expression>) -> DResult<Val> {
        let span = e.span;
        match &e.node {
            Expression::Identifier(id) => self.identifier(&id.node.name, span),
            Expression::Constant(c) => self.constant(&c.node, span),
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
            Expression::Member(_) => self.err(
                span,
                "struct and union members in compute regions are not supported yet",
            ),
            Expression::StringLiteral(_) => {
                self.err(span, "string literals are not supported in compute regions")
            }
            _ => self.err(
                span,
                "this kind of expression is not supported in a compute region yet",
            ),
        }
    }

    /// Lowers an expression for its side effects only.
    pub fn effect(&mut self, e: &Node<Expression>) -> DResult<()> {
        self.expr(e).map(|_| ())
    }

    fn sizeof(&mut self, t: &CType, span: Span) -> DResult<Val> {
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
            Resolved::Local(l, t) => Ok(Val::L(Place::Local(l), t)),
            Resolved::Const(v) => Ok(Val::R(self.int_lit(v, &CType::INT), CType::INT)),
            Resolved::Param(i) => {
                let p = &self.params[i];
                let (local, ty) = (p.local, self.vars[i].ty.clone());
                if matches!(ty, CType::Array(..)) || self.vars[i].by_ref {
                    let ptr = self.f.read(local);
                    Ok(Val::L(Place::Mem(ptr), ty))
                } else {
                    Ok(Val::L(Place::Local(local), ty))
                }
            }
            Resolved::Function(f) => self.err(
                span,
                format!("function '{f}' cannot be used as a value in a compute region"),
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
        let t = if matches!(op, BinOp::Shl | BinOp::Shr) {
            promote(ta)
        } else {
            usual_arith(ta, tb)
        };
        let x = self.convert(a.0, ta, &t, span)?;
        let y = self.convert(b.0, tb, &t, span)?;
        let ir = self.ir_type(&t, span)?;
        Ok((self.f.add(Expr::Binary { op, lhs: x, rhs: y }, ir), t))
    }

    /// `p + i` for a pointer `p` (negated index when `neg`).
    fn ptr_add(
        &mut self,
        p: (ExprId, CType),
        i: (ExprId, CType),
        neg: bool,
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
        if p.1.element().and_then(|e| e.size()).is_none() {
            return self.err(
                span,
                format!("arithmetic on a pointer to an incomplete type '{}'", p.1),
            );
        }
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
        let ir = self.f.ty(p.0).clone();
        Ok((
            self.f.add(
                Expr::PtrAdd {
                    base: p.0,
                    index: idx,
                },
                ir,
            ),
            p.1,
        ))
    }

    /// `a op b` on values (the arithmetic and pointer operators).
    fn apply_binop(
        &mut self,
        op: &BinaryOperator,
        a: (ExprId, CType),
        b: (ExprId, CType),
        span: Span,
    ) -> DResult<(ExprId, CType)> {
        use BinaryOperator as B;
        let is_ptr = |t: &CType| matches!(t, CType::Ptr(_));
        Ok(match op {
            B::Plus if is_ptr(&a.1) => self.ptr_add(a, b, false, span)?,
            B::Plus if is_ptr(&b.1) => self.ptr_add(b, a, false, span)?,
            B::Minus if is_ptr(&a.1) && is_ptr(&b.1) => {
                let size = a.1.element().and_then(|e| e.size()).unwrap_or(1) as i128;
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
                let s = self.int_lit(size, &CType::LONG);
                (
                    self.f.add(
                        Expr::Binary {
                            op: BinOp::Div,
                            lhs: d,
                            rhs: s,
                        },
                        Type::I64,
                    ),
                    CType::LONG,
                )
            }
            B::Minus if is_ptr(&a.1) => self.ptr_add(a, b, true, span)?,
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
                let (x, y) = if is_ptr(&a.1) && is_ptr(&b.1) {
                    (a.0, b.0)
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
            B::Index => {
                let x = self.rvalue(&b.lhs)?;
                let y = self.rvalue(&b.rhs)?;
                let (p, t) = if matches!(x.1, CType::Ptr(_)) {
                    self.ptr_add(x, y, false, span)?
                } else if matches!(y.1, CType::Ptr(_)) {
                    self.ptr_add(y, x, false, span)?
                } else {
                    return self.err(span, "subscripted value is not an array or pointer");
                };
                let elem = t.element().cloned().unwrap_or(CType::Void);
                Ok(Val::L(Place::Mem(p), elem))
            }
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
                let op = if matches!(cur.1, CType::Ptr(_)) {
                    match b.operator.node {
                        B::AssignPlus => B::Plus,
                        B::AssignMinus => B::Minus,
                        _ => return self.err(span, "invalid operands to compound assignment"),
                    }
                } else {
                    b.operator.node.clone()
                };
                let (v, t) = self.apply_binop(&op, cur, rhs, span)?;
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

    /// Makes an lvalue safe to use twice: its address goes into a temporary.
    fn stable(&mut self, v: Val) -> Val {
        match v {
            Val::L(Place::Mem(p), t) => {
                let ty = self.f.ty(p).clone();
                let tmp = self.temp(ty);
                self.emit(Stmt::Assign {
                    local: tmp,
                    value: p,
                });
                Val::L(Place::Addr(tmp), t)
            }
            v => v,
        }
    }

    /// A place whose address expression is fresh (not used elsewhere).
    fn fresh(&mut self, p: Place) -> Place {
        match p {
            Place::Addr(l) => Place::Mem(self.f.read(l)),
            p => p,
        }
    }

    /// Stores `x` (of type `t`) into `target`; the result is the stored value.
    fn assign(&mut self, target: Val, x: ExprId, t: &CType, span: Span) -> DResult<Val> {
        let Val::L(place, ty) = target else {
            return self.err(span, "expression is not assignable");
        };
        let place = self.fresh(place);
        if matches!(ty, CType::Array(..)) {
            return self.err(span, format!("array type '{ty}' is not assignable"));
        }
        let v = self.convert(x, t, &ty, span)?;
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
            Place::Mem(p) => self.store(p, val),
            Place::Addr(_) => return self.err(span, "internal error: unresolved address"),
        }
        Ok(Val::R(self.f.read(tmp), ty))
    }

    fn unary(&mut self, u: &UnaryOperatorExpression, span: Span) -> DResult<Val> {
        use UnaryOperator as U;
        match u.operator.node {
            U::Indirection => {
                let (p, t) = self.rvalue(&u.operand)?;
                match t {
                    CType::Ptr(elem) => Ok(Val::L(Place::Mem(p), *elem)),
                    t => self.err(span, format!("indirection requires a pointer operand ('{t}' invalid)")),
                }
            }
            U::Address => match self.expr(&u.operand)? {
                Val::L(place @ (Place::Mem(_) | Place::Addr(_)), t) => {
                    let Place::Mem(p) = self.fresh(place) else {
                        return self.err(span, "internal error: unresolved address");
                    };
                    let ptr = CType::Ptr(Box::new(t));
                    let ir = self.ir_type(&ptr, span)?;
                    let x = if *self.f.ty(p) == ir { p } else { self.f.add(Expr::Cast(p), ir) };
                    Ok(Val::R(x, ptr))
                }
                _ => self.err(span, "taking the address of a scalar variable in a compute region is not supported yet"),
            },
            U::Plus | U::Minus | U::Complement => {
                let (x, t) = self.rvalue(&u.operand)?;
                if !t.is_arithmetic() || (u.operator.node == U::Complement && !t.is_integer()) {
                    return self.err(span, format!("invalid argument type '{t}' to unary expression"));
                }
                let pt = promote(&t);
                let y = self.convert(x, &t, &pt, span)?;
                if u.operator.node == U::Plus {
                    return Ok(Val::R(y, pt));
                }
                let op = if u.operator.node == U::Minus { UnOp::Neg } else { UnOp::BitNot };
                let ir = self.ir_type(&pt, span)?;
                Ok(Val::R(self.f.add(Expr::Unary { op, arg: y }, ir), pt))
            }
            U::Negate => {
                let c = self.condition(&u.operand)?;
                let n = self.f.add(Expr::Unary { op: UnOp::Not, arg: c }, Type::BOOL);
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
                self.emit(Stmt::Assign { local: saved, value: old });
                let cur = self.f.read(saved);
                let one = self.int_lit(1, &CType::INT);
                let op = if inc { BinaryOperator::Plus } else { BinaryOperator::Minus };
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
        let t = if a.1.is_arithmetic() && b.1.is_arithmetic() {
            usual_arith(&a.1, &b.1)
        } else if a.1 == b.1 {
            a.1.clone()
        } else {
            return self.err(
                span,
                format!("incompatible operand types ('{}' and '{}')", a.1, b.1),
            );
        };
        let ir = self.ir_type(&t, span)?;
        if pa.is_empty() && pb.is_empty() {
            let x = self.convert(a.0, &a.1, &t, span)?;
            let y = self.convert(b.0, &b.1, &t, span)?;
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
        let tmp = self.temp(ir);
        let (_, then) = self.in_block(|l| {
            for s in pa {
                l.emit(s);
            }
            let x = l.convert(a.0, &a.1, &t, span)?;
            l.emit(Stmt::Assign {
                local: tmp,
                value: x,
            });
            Ok(())
        })?;
        let (_, otherwise) = self.in_block(|l| {
            for s in pb {
                l.emit(s);
            }
            let y = l.convert(b.0, &b.1, &t, span)?;
            l.emit(Stmt::Assign {
                local: tmp,
                value: y,
            });
            Ok(())
        })?;
        self.emit(Stmt::If {
            cond,
            then,
            otherwise,
        });
        Ok(Val::R(self.f.read(tmp), t))
    }

    fn call(&mut self, c: &CallExpression, span: Span) -> DResult<Val> {
        let Expression::Identifier(id) = &c.callee.node else {
            return self.err(
                span,
                "calls through function pointers are not supported in compute regions",
            );
        };
        let name = id.node.name.as_str();
        if name == "acc_on_device" && c.arguments.len() == 1 {
            // On the device: true for acc_device_not_host (4) and acc_device_nvidia (5).
            let (x, t) = self.rvalue(&c.arguments[0])?;
            let x = self.convert(x, &t, &CType::INT, span)?;
            let tmp = self.temp(Type::I32);
            self.emit(Stmt::Assign {
                local: tmp,
                value: x,
            });
            let (a, b) = (self.f.read(tmp), self.f.read(tmp));
            let four = self.int_lit(4, &CType::INT);
            let five = self.int_lit(5, &CType::INT);
            let l = self.f.add(
                Expr::Cmp {
                    op: CmpOp::Eq,
                    lhs: a,
                    rhs: four,
                },
                Type::BOOL,
            );
            let r = self.f.add(
                Expr::Cmp {
                    op: CmpOp::Eq,
                    lhs: b,
                    rhs: five,
                },
                Type::BOOL,
            );
            let or = self.f.add(
                Expr::Logical {
                    and: false,
                    lhs: l,
                    rhs: r,
                },
                Type::BOOL,
            );
            return Ok(Val::R(self.f.add(Expr::Cast(or), Type::I32), CType::INT));
        }
        if let Some((func, single)) = MathFunc::from_c_name(name) {
            let t = if single {
                CType::Float(crate::ir::FloatKind::F32)
            } else {
                CType::DOUBLE
            };
            if c.arguments.len() != func.arity() {
                return self.err(span, format!("'{name}' takes {} argument(s)", func.arity()));
            }
            let mut args = vec![];
            for a in &c.arguments {
                args.push(self.rvalue_as(a, &t)?);
            }
            let ir = self.ir_type(&t, span)?;
            return Ok(Val::R(self.f.add(Expr::Math { func, args }, ir), t));
        }
        if matches!(name, "abs" | "labs" | "llabs") && c.arguments.len() == 1 {
            let t = if name == "abs" {
                CType::INT
            } else {
                CType::LONG
            };
            let x = self.rvalue_as(&c.arguments[0], &t)?;
            let ir = self.ir_type(&t, span)?;
            let tmp = self.temp(ir.clone());
            self.emit(Stmt::Assign {
                local: tmp,
                value: x,
            });
            let (a, b, n) = (self.f.read(tmp), self.f.read(tmp), self.f.read(tmp));
            let neg = self.f.add(
                Expr::Unary {
                    op: UnOp::Neg,
                    arg: b,
                },
                ir.clone(),
            );
            let zero = self.int_lit(0, &t);
            let lt = self.f.add(
                Expr::Cmp {
                    op: CmpOp::Lt,
                    lhs: n,
                    rhs: zero,
                },
                Type::BOOL,
            );
            return Ok(Val::R(
                self.f.add(
                    Expr::Select {
                        cond: lt,
                        then: neg,
                        otherwise: a,
                    },
                    ir,
                ),
                t,
            ));
        }
        self.err(
            id.span,
            format!("function '{name}' is called in a compute region but has no device version (no 'acc routine' directive)"),
        )
    }

    /// Marks parameter `i` as written through (not read-only).
    pub fn mark_written(&mut self, i: usize) {
        if let Some(v) = self.vars.get_mut(i) {
            v.written = true;
        }
        if let Some(p) = self.params.get_mut(i) {
            if let ParamMode::DevicePtr { read_only } = &mut p.mode {
                *read_only = false;
            }
        }
    }
}
