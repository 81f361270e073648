//! Reduction recognition: the scalars a loop body only accumulates into,
//! so that a `kernels` loop without a `reduction` clause can still run in
//! parallel (the way nvc reports "generating implicit reduction").
//!
//! Owns: [`reduction_of`]. A scalar `s` is a reduction when every mention
//! of it in the body is one of the statements `s += e`, `s -= e`, `s *= e`,
//! `s &= e`, `s |= e`, `s ^= e`, `s++`, `s--` (and prefix forms),
//! `s = s op e` / `s = e op s` for `+ * & | ^ && ||` (`s = s - e` too),
//! `s = fmax(s, e)` / `fmin` / `fmaxf` / `fminf` (either argument order),
//! all with one operator, and `e` never mentions `s`. May call: `effects`.

use super::effects::{is_inc_dec, mentions, mentions_in};
use crate::ir::RedOp;
use lang_c::ast::*;
use lang_c::span::{Node, Span};
use lang_c::visit::{self, Visit};

/// The operator `s` is reduced with in `body`, if it is a reduction.
pub fn reduction_of(body: &Node<Statement>, s: &str) -> Option<RedOp> {
    let mut f = Finder {
        s,
        ops: vec![],
        accounted: 0,
        bad: false,
    };
    f.visit_statement(&body.node, &body.span);
    let total = mentions_in(body, s);
    let first = *f.ops.first()?;
    (!f.bad && f.accounted == total && f.ops.iter().all(|o| *o == first)).then_some(first)
}

fn is_var(e: &Node<Expression>, s: &str) -> bool {
    matches!(&e.node, Expression::Identifier(id) if id.node.name == s)
}

struct Finder<'s> {
    s: &'s str,
    /// The operator of each reduction statement found.
    ops: Vec<RedOp>,
    /// Mentions of `s` those statements account for.
    accounted: usize,
    /// A statement assigns `s` in another way.
    bad: bool,
}

impl Finder<'_> {
    /// Classifies `s = rhs`.
    fn plain(&mut self, rhs: &Node<Expression>) -> Option<RedOp> {
        let s = self.s;
        match &rhs.node {
            Expression::BinaryOperator(b) => {
                let (l, r) = (&*b.node.lhs, &*b.node.rhs);
                let op = match b.node.operator.node {
                    BinaryOperator::Plus => RedOp::Add,
                    BinaryOperator::Minus if is_var(l, s) => RedOp::Add,
                    BinaryOperator::Multiply => RedOp::Mul,
                    BinaryOperator::BitwiseAnd => RedOp::BitAnd,
                    BinaryOperator::BitwiseOr => RedOp::BitOr,
                    BinaryOperator::BitwiseXor => RedOp::BitXor,
                    BinaryOperator::LogicalAnd => RedOp::And,
                    BinaryOperator::LogicalOr => RedOp::Or,
                    _ => return None,
                };
                let other = if is_var(l, s) {
                    r
                } else if is_var(r, s) {
                    l
                } else {
                    return None;
                };
                (mentions(other, s) == 0).then_some(op)
            }
            Expression::Call(c) => {
                let Expression::Identifier(f) = &c.node.callee.node else {
                    return None;
                };
                let op = match f.node.name.as_str() {
                    "fmax" | "fmaxf" => RedOp::Max,
                    "fmin" | "fminf" => RedOp::Min,
                    _ => return None,
                };
                let [a, b] = c.node.arguments.as_slice() else {
                    return None;
                };
                let other = if is_var(a, s) {
                    b
                } else if is_var(b, s) {
                    a
                } else {
                    return None;
                };
                (mentions(other, s) == 0).then_some(op)
            }
            _ => None,
        }
    }
}

impl<'ast> Visit<'ast> for Finder<'_> {
    fn visit_expression(&mut self, e: &'ast Expression, span: &'ast Span) {
        let s = self.s;
        match e {
            Expression::BinaryOperator(b) if is_var(&b.node.lhs, s) => {
                use BinaryOperator::*;
                let rhs = &*b.node.rhs;
                let found = match b.node.operator.node {
                    AssignPlus | AssignMinus => Some((RedOp::Add, 1)),
                    AssignMultiply => Some((RedOp::Mul, 1)),
                    AssignBitwiseAnd => Some((RedOp::BitAnd, 1)),
                    AssignBitwiseOr => Some((RedOp::BitOr, 1)),
                    AssignBitwiseXor => Some((RedOp::BitXor, 1)),
                    Assign => self.plain(rhs).map(|op| (op, 2)),
                    _ => return visit::visit_expression(self, e, span),
                };
                match found {
                    Some((op, uses)) if mentions(rhs, s) + 1 == uses => {
                        self.ops.push(op);
                        self.accounted += uses;
                    }
                    _ => self.bad = true,
                }
                // The other operand cannot mention `s` (checked); still
                // look inside it for nested statements.
                self.visit_expression(&rhs.node, &rhs.span);
            }
            Expression::UnaryOperator(u)
                if is_inc_dec(&u.node.operator.node) && is_var(&u.node.operand, s) =>
            {
                self.ops.push(RedOp::Add);
                self.accounted += 1;
            }
            _ => visit::visit_expression(self, e, span),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn find(body: &str) -> Option<RedOp> {
        let src = format!("void f(int n, float *a) {{ for (int i = 0; i < n; i++) {body} }}");
        let p =
            lang_c::driver::parse_preprocessed(&lang_c::driver::Config::with_gcc(), src).ok()?;
        let ExternalDeclaration::FunctionDefinition(f) = &p.unit.0[0].node else {
            return None;
        };
        let Statement::Compound(items) = &f.node.statement.node else {
            return None;
        };
        let BlockItem::Statement(st) = &items[0].node else {
            return None;
        };
        let Statement::For(fs) = &st.node else {
            return None;
        };
        reduction_of(&fs.node.statement, "s")
    }

    #[test]
    fn recognises_accumulations() {
        assert_eq!(find("s += a[i];"), Some(RedOp::Add));
        assert_eq!(find("s -= a[i];"), Some(RedOp::Add));
        assert_eq!(find("{ s = s + a[i]; s = a[i] + s; }"), Some(RedOp::Add));
        assert_eq!(find("s = s * a[i];"), Some(RedOp::Mul));
        assert_eq!(find("s = fmaxf(a[i], s);"), Some(RedOp::Max));
        assert_eq!(find("s = fmin(s, a[i]);"), Some(RedOp::Min));
        assert_eq!(find("s ^= i;"), Some(RedOp::BitXor));
        assert_eq!(find("if (a[i] > 0) s++;"), Some(RedOp::Add));
        assert_eq!(find("s = s && a[i] > 0;"), Some(RedOp::And));
    }

    #[test]
    fn rejects_other_uses() {
        assert_eq!(find("{ s += a[i]; a[i] = s; }"), None); // read
        assert_eq!(find("s = a[i] - s;"), None);
        assert_eq!(find("s += s * a[i];"), None);
        assert_eq!(find("{ s += a[i]; s *= 2; }"), None); // two operators
        assert_eq!(find("s = a[i];"), None);
        assert_eq!(find("a[i] = 1;"), None); // no mention
        assert_eq!(find("s /= a[i];"), None);
    }
}
