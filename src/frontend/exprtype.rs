//! The C type of an expression from the scope alone, without lowering it:
//! what `__typeof__(e)` and `__auto_type x = e;` need in declarations outside
//! device code (function signatures, globals, host locals that a compute
//! region then uses). Device code types its own declarations by lowering
//! the expression (`lower/infer.rs`), which also sees the device locals.
//!
//! Owns: [`expr_type`]. May call: `ctype`, `conv`, `declare`, `literal`,
//! `record`, `scope`, `source`.

use super::conv::{promote, usual_arith};
use super::ctype::CType;
use super::declare;
use super::literal;
use super::scope::{Scope, SymKind};
use super::source::SourceMap;
use lang_c::ast::*;
use lang_c::span::Node;

/// The type of `e` (before lvalue conversion: an array stays an array), or
/// `None` where the expression is not one this typer knows.
pub fn expr_type(e: &Node<Expression>, scope: &mut Scope, sm: &SourceMap) -> Option<CType> {
    use BinaryOperator as B;
    match &e.node {
        Expression::Identifier(id) => {
            let sym = scope.lookup(&id.node.name)?;
            match sym.kind {
                SymKind::Typedef => None,
                SymKind::EnumConst(_) => Some(CType::INT),
                _ => Some(sym.ty.clone()),
            }
        }
        Expression::Constant(c) => match &c.node {
            Constant::Integer(i) => literal::int_constant(i).ok().map(|(_, t)| t),
            Constant::Float(f) => literal::float_constant(f).ok().map(|(_, t)| t),
            Constant::Character(_) => Some(CType::INT),
        },
        Expression::Cast(c) => declare::type_name(&c.node.type_name, scope, sm).ok(),
        Expression::SizeOfTy(_) | Expression::SizeOfVal(_) | Expression::AlignOf(_) => {
            Some(CType::Int(crate::ir::IntKind::U64))
        }
        Expression::UnaryOperator(u) => {
            let t = expr_type(&u.node.operand, scope, sm)?;
            match u.node.operator.node {
                UnaryOperator::Address => Some(CType::Ptr(Box::new(t))),
                UnaryOperator::Indirection => match t.decay() {
                    CType::Ptr(p) => Some(*p),
                    _ => None,
                },
                UnaryOperator::Negate => Some(CType::INT),
                UnaryOperator::Plus | UnaryOperator::Minus | UnaryOperator::Complement => {
                    t.is_arithmetic().then(|| promote(&t))
                }
                UnaryOperator::Real | UnaryOperator::Imag => None,
                _ => Some(t), // ++ and --
            }
        }
        Expression::BinaryOperator(b) => {
            let lhs = expr_type(&b.node.lhs, scope, sm)?;
            match b.node.operator.node {
                B::Index => match (lhs.decay(), expr_type(&b.node.rhs, scope, sm)?.decay()) {
                    (CType::Ptr(p), _) | (_, CType::Ptr(p)) => Some(*p),
                    _ => None,
                },
                B::Less
                | B::Greater
                | B::LessOrEqual
                | B::GreaterOrEqual
                | B::Equals
                | B::NotEquals
                | B::LogicalAnd
                | B::LogicalOr => Some(CType::INT),
                B::ShiftLeft | B::ShiftRight => lhs.is_integer().then(|| promote(&lhs)),
                B::Multiply
                | B::Divide
                | B::Modulo
                | B::BitwiseAnd
                | B::BitwiseOr
                | B::BitwiseXor => {
                    let rhs = expr_type(&b.node.rhs, scope, sm)?;
                    (lhs.is_arithmetic() && rhs.is_arithmetic()).then(|| usual_arith(&lhs, &rhs))
                }
                B::Plus | B::Minus => {
                    let rhs = expr_type(&b.node.rhs, scope, sm)?;
                    match (lhs.decay(), rhs.decay()) {
                        (CType::Ptr(_), CType::Ptr(_)) => Some(CType::Int(crate::ir::IntKind::I64)),
                        (p @ CType::Ptr(_), _) | (_, p @ CType::Ptr(_)) => Some(p),
                        (l, r) if l.is_arithmetic() && r.is_arithmetic() => {
                            Some(usual_arith(&l, &r))
                        }
                        _ => None,
                    }
                }
                // Assignments have the type of their left operand.
                _ => Some(lhs),
            }
        }
        Expression::Conditional(c) => {
            let a = expr_type(&c.node.then_expression, scope, sm)?.decay();
            let b = expr_type(&c.node.else_expression, scope, sm)?.decay();
            if a.is_arithmetic() && b.is_arithmetic() {
                Some(usual_arith(&a, &b))
            } else {
                Some(a)
            }
        }
        Expression::Comma(list) => list.last().and_then(|l| expr_type(l, scope, sm)),
        Expression::Member(m) => {
            let base = expr_type(&m.node.expression, scope, sm)?;
            let s = match (&m.node.operator.node, base.decay()) {
                (MemberOperator::Direct, CType::Struct(s)) => s,
                (MemberOperator::Indirect, CType::Ptr(p)) => match *p {
                    CType::Struct(s) => s,
                    _ => return None,
                },
                _ => return None,
            };
            s.member(&m.node.identifier.node.name).map(|(t, _)| t)
        }
        Expression::Call(c) => match expr_type(&c.node.callee, scope, sm)?.decay() {
            CType::Ptr(f) => match *f {
                CType::Function(sig) => Some(sig.ret),
                _ => None,
            },
            _ => None,
        },
        Expression::CompoundLiteral(c) => declare::type_name(&c.node.type_name, scope, sm).ok(),
        _ => None,
    }
}

/// The type `__auto_type` gives declaration `d` (`__auto_type x = e;`: the
/// type of `e` after lvalue conversion), when `d` is one the scope can type.
pub fn auto_type(d: &Node<Declaration>, scope: &mut Scope, sm: &SourceMap) -> Option<CType> {
    let types = declare::type_specifiers(&d.node.specifiers);
    let ([t], [id]) = (types.as_slice(), d.node.declarators.as_slice()) else {
        return None;
    };
    if t.node != TypeSpecifier::AutoType {
        return None;
    }
    match &id.node.initializer.as_ref()?.node {
        Initializer::Expression(e) => expr_type(e, scope, sm).map(|t| t.decay()),
        Initializer::List(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frontend::scope::Symbol;
    use crate::ir::{FloatKind, IntKind};

    fn parse_expr(src: &str) -> Node<Expression> {
        let text = format!("void f(void) {{ ({src}); }}");
        let config = lang_c::driver::Config::with_gcc();
        let Ok(p) = lang_c::driver::parse_preprocessed(&config, text) else {
            panic!("{src} does not parse");
        };
        let ExternalDeclaration::FunctionDefinition(f) = &p.unit.0[0].node else {
            panic!("not a function");
        };
        let Statement::Compound(items) = &f.node.statement.node else {
            panic!("no body");
        };
        let BlockItem::Statement(s) = &items[0].node else {
            panic!("no statement");
        };
        let Statement::Expression(Some(e)) = &s.node else {
            panic!("no expression");
        };
        e.as_ref().clone()
    }

    #[test]
    fn types_expressions_from_the_scope() {
        let mut scope = Scope::default();
        for (name, ty) in [
            ("d", CType::Float(FloatKind::F64)),
            ("c", CType::Int(IntKind::I8)),
            (
                "a",
                CType::Array(Box::new(CType::Float(FloatKind::F32)), Some(4)),
            ),
        ] {
            scope.insert(Symbol {
                name: name.into(),
                ty,
                kind: SymKind::Global,
                readonly: false,
                restrict: false,
            });
        }
        let sm = SourceMap::default();
        let mut ty = |s: &str| expr_type(&parse_expr(s), &mut scope, &sm);
        assert_eq!(ty("d * 2"), Some(CType::Float(FloatKind::F64)));
        assert_eq!(ty("c + c"), Some(CType::INT));
        assert_eq!(
            ty("a"),
            Some(CType::Array(
                Box::new(CType::Float(FloatKind::F32)),
                Some(4)
            ))
        );
        assert_eq!(ty("a[1]"), Some(CType::Float(FloatKind::F32)));
        assert_eq!(
            ty("&a[1]"),
            Some(CType::Ptr(Box::new(CType::Float(FloatKind::F32))))
        );
        assert_eq!(ty("1.0f"), Some(CType::Float(FloatKind::F32)));
        assert_eq!(ty("c < d"), Some(CType::INT));
        assert_eq!(ty("(long)c"), Some(CType::Int(IntKind::I64)));
        assert_eq!(ty("nothing"), None);
    }
}
