//! Side effects of C expressions: which operators assign, whether an
//! expression is free of side effects (so its text may be evaluated again on
//! the host, as launch geometry needs).
//!
//! Owns: [`assigns`], [`is_inc_dec`], [`pure`]. May call: nothing.

use lang_c::ast::*;
use lang_c::span::{Node, Span};
use lang_c::visit::{self, Visit};

/// True for `=` and the compound assignment operators.
pub fn assigns(op: &BinaryOperator) -> bool {
    use BinaryOperator::*;
    matches!(
        op,
        Assign
            | AssignMultiply
            | AssignDivide
            | AssignModulo
            | AssignPlus
            | AssignMinus
            | AssignShiftLeft
            | AssignShiftRight
            | AssignBitwiseAnd
            | AssignBitwiseXor
            | AssignBitwiseOr
    )
}

/// True for `++` and `--`, prefix or postfix.
pub fn is_inc_dec(op: &UnaryOperator) -> bool {
    use UnaryOperator::*;
    matches!(
        op,
        PreIncrement | PreDecrement | PostIncrement | PostDecrement
    )
}

/// True when evaluating `e` has no side effects and calls nothing.
pub fn pure(e: &Node<Expression>) -> bool {
    struct P(bool);
    impl<'ast> Visit<'ast> for P {
        fn visit_expression(&mut self, e: &'ast Expression, span: &'ast Span) {
            match e {
                Expression::Call(_) | Expression::Statement(_) => self.0 = false,
                Expression::UnaryOperator(u) if is_inc_dec(&u.node.operator.node) => self.0 = false,
                Expression::BinaryOperator(b) if assigns(&b.node.operator.node) => self.0 = false,
                _ => {}
            }
            visit::visit_expression(self, e, span);
        }
    }
    let mut p = P(true);
    p.visit_expression(&e.node, &e.span);
    p.0
}
