//! The front end's rule for automatic privatisation (the copies are made
//! on the IR, `schedule::auto_privates`, which also warns of races; this
//! rule still feeds the implicit reductions of `loopvars`): a
//! scalar of the enclosing scope that a loop body assigns before it reads
//! it, in every iteration, is a temporary of the iteration — each thread
//! gets its own copy (`private`), instead of one variable the loop's
//! threads race on. Real code relies on it everywhere (`tmp1 = rowstr[j];`
//! in a gang loop; `sum = 0.0;` before a worker loop reducing into `sum`).
//!
//! Owns: [`written_first`] (the test, on one variable) and [`assigned`]
//! (the candidates: scalars a body assigns). The test walks the body in
//! evaluation order with one flag, "assigned in this iteration": an
//! assignment sets it (only where it surely runs: not in the right operand
//! of `&&`, `||` or `?:`, not in a loop body that may run no iteration, in
//! both arms of an `if`), a read where it is not set fails, and so does
//! anything it cannot follow (`&v`, `switch`, `goto`, labels, a declaration
//! of the same name). An inner loop with `private(v)` is skipped; one with
//! `reduction(op:v)` reads and then assigns `v` where it stands.
//! May call: `effects`, `canon`.

use super::effects::{assigns, is_inc_dec};
use lang_c::ast::*;
use lang_c::span::Node;
use lang_c::visit::{self, Visit};

/// What an inner loop's clauses say about the variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InnerUse {
    /// Nothing: its body is walked like any statement.
    None,
    /// `private(v)`: the loop has its own `v`.
    Private,
    /// `reduction(op:v)`: the loop combines into `v` after it.
    Reduction,
}

/// Whether `body` assigns `var` before reading it on every path of one
/// iteration (and never takes its address). `inner(start)` says what the
/// loop directive of the `for` statement at byte `start` says about `var`.
pub fn written_first(body: &Node<Statement>, var: &str, inner: &dyn Fn(usize) -> InnerUse) -> bool {
    let mut w = Walk {
        var,
        inner,
        ok: true,
    };
    w.stmt(body, false);
    w.ok
}

/// The names a body assigns with `=`, a compound assignment or `++`/`--`
/// applied to the plain name, in order of first assignment.
pub fn assigned(body: &Node<Statement>) -> Vec<String> {
    struct A(Vec<String>);
    impl A {
        fn note(&mut self, e: &Node<Expression>) {
            if let Expression::Identifier(id) = &e.node {
                if !self.0.contains(&id.node.name) {
                    self.0.push(id.node.name.clone());
                }
            }
        }
    }
    impl<'ast> Visit<'ast> for A {
        fn visit_binary_operator_expression(
            &mut self,
            b: &'ast BinaryOperatorExpression,
            span: &'ast lang_c::span::Span,
        ) {
            if assigns(&b.operator.node) {
                self.note(&b.lhs);
            }
            visit::visit_binary_operator_expression(self, b, span);
        }
        fn visit_unary_operator_expression(
            &mut self,
            u: &'ast UnaryOperatorExpression,
            span: &'ast lang_c::span::Span,
        ) {
            if is_inc_dec(&u.operator.node) {
                self.note(&u.operand);
            }
            visit::visit_unary_operator_expression(self, u, span);
        }
    }
    let mut a = A(vec![]);
    a.visit_statement(&body.node, &body.span);
    a.0
}

struct Walk<'a> {
    var: &'a str,
    inner: &'a dyn Fn(usize) -> InnerUse,
    ok: bool,
}

impl Walk<'_> {
    fn is_var(&self, e: &Node<Expression>) -> bool {
        matches!(&e.node, Expression::Identifier(id) if id.node.name == self.var)
    }

    /// Walks statement `s` with the flag `set` on entry; the flag after it.
    fn stmt(&mut self, s: &Node<Statement>, set: bool) -> bool {
        if !self.ok {
            return set;
        }
        match &s.node {
            Statement::Compound(items) => {
                let mut set = set;
                for item in items {
                    match &item.node {
                        BlockItem::Statement(st) => set = self.stmt(st, set),
                        BlockItem::Declaration(d) => set = self.declaration(d, set),
                        BlockItem::StaticAssert(_) => {}
                    }
                }
                set
            }
            Statement::Expression(Some(e)) => self.expr(e, set, true),
            Statement::Expression(None) => set,
            Statement::If(i) => {
                let set = self.expr(&i.node.condition, set, true);
                let then = self.stmt(&i.node.then_statement, set);
                match &i.node.else_statement {
                    Some(e) => {
                        let other = self.stmt(e, set);
                        then && other
                    }
                    None => set,
                }
            }
            Statement::For(f) => {
                if let ForInitializer::Declaration(d) = &f.node.initializer.node {
                    if declares(d, self.var) {
                        self.ok = false;
                        return set;
                    }
                }
                match (self.inner)(s.span.start) {
                    InnerUse::Private => return set,
                    InnerUse::Reduction if !set => {
                        self.ok = false;
                        return set;
                    }
                    _ => {}
                }
                let set = match &f.node.initializer.node {
                    ForInitializer::Expression(e) => self.expr(e, set, true),
                    ForInitializer::Declaration(d) => self.declaration(d, set),
                    _ => set,
                };
                let set = match &f.node.condition {
                    Some(c) => self.expr(c, set, true),
                    None => set,
                };
                let after_body = self.stmt(&f.node.statement, set);
                if let Some(st) = &f.node.step {
                    self.expr(st, after_body, true);
                }
                set
            }
            Statement::While(w) => {
                let set = self.expr(&w.node.expression, set, true);
                self.stmt(&w.node.statement, set);
                set
            }
            Statement::DoWhile(w) => {
                let set = self.stmt(&w.node.statement, set);
                self.expr(&w.node.expression, set, true)
            }
            Statement::Return(Some(e)) => self.expr(e, set, true),
            Statement::Return(None) | Statement::Break | Statement::Continue => set,
            // Set before the switch, the variable stays set on every path
            // through it (a case is reached only from the switch, unless a
            // goto may jump to a label of its own).
            Statement::Switch(sw) if set && !has_named_label(&sw.node.statement) => {
                self.expr(&sw.node.expression, set, true)
            }
            // Paths this walk cannot follow.
            Statement::Switch(_)
            | Statement::Labeled(_)
            | Statement::Goto(_)
            | Statement::ComputedGoto(_)
            | Statement::Asm(_) => {
                if super::effects::mentions_in(s, self.var) > 0 {
                    self.ok = false;
                }
                set
            }
        }
    }

    fn declaration(&mut self, d: &Node<Declaration>, set: bool) -> bool {
        if declares(d, self.var) {
            self.ok = false;
            return set;
        }
        let mut set = set;
        for x in &d.node.declarators {
            if let Some(init) = &x.node.initializer {
                set = self.initializer(&init.node, set);
            }
        }
        set
    }

    fn initializer(&mut self, i: &Initializer, set: bool) -> bool {
        match i {
            Initializer::Expression(e) => self.expr(e, set, true),
            Initializer::List(items) => items
                .iter()
                .fold(set, |s, x| self.initializer(&x.node.initializer.node, s)),
        }
    }

    /// Walks expression `e` in evaluation order; `sure`: it is evaluated
    /// whenever the code around it is (its assignments count).
    fn expr(&mut self, e: &Node<Expression>, set: bool, sure: bool) -> bool {
        if !self.ok {
            return set;
        }
        match &e.node {
            Expression::Identifier(id) if id.node.name == self.var => {
                if !set {
                    self.ok = false;
                }
                set
            }
            Expression::BinaryOperator(b) if assigns(&b.node.operator.node) => {
                if self.is_var(&b.node.lhs) {
                    let set = self.expr(&b.node.rhs, set, sure);
                    if b.node.operator.node != BinaryOperator::Assign && !set {
                        self.ok = false;
                    }
                    set || sure
                } else {
                    let set = self.expr(&b.node.lhs, set, sure);
                    self.expr(&b.node.rhs, set, sure)
                }
            }
            Expression::BinaryOperator(b)
                if matches!(
                    b.node.operator.node,
                    BinaryOperator::LogicalAnd | BinaryOperator::LogicalOr
                ) =>
            {
                let set = self.expr(&b.node.lhs, set, sure);
                self.expr(&b.node.rhs, set, false);
                set
            }
            Expression::BinaryOperator(b) => {
                let set = self.expr(&b.node.lhs, set, sure);
                self.expr(&b.node.rhs, set, sure)
            }
            Expression::Conditional(c) => {
                let set = self.expr(&c.node.condition, set, sure);
                self.expr(&c.node.then_expression, set, false);
                self.expr(&c.node.else_expression, set, false);
                set
            }
            Expression::UnaryOperator(u) if is_inc_dec(&u.node.operator.node) => {
                if self.is_var(&u.node.operand) && !set {
                    self.ok = false;
                }
                self.expr(&u.node.operand, set, sure)
            }
            Expression::UnaryOperator(u)
                if u.node.operator.node == UnaryOperator::Address
                    && self.is_var(&u.node.operand) =>
            {
                self.ok = false;
                set
            }
            Expression::Comma(items) => items.iter().fold(set, |s, x| self.expr(x, s, sure)),
            Expression::Statement(_) => {
                if super::effects::mentions(e, self.var) > 0 {
                    self.ok = false;
                }
                set
            }
            _ => children(e)
                .into_iter()
                .fold(set, |s, x| self.expr(x, s, sure)),
        }
    }
}

/// The sub-expressions an expression evaluates, in order (not those of
/// `sizeof`, `_Alignof` and `offsetof`, which are not evaluated; a
/// `_Generic` evaluates only the chosen association, which may be any).
fn children(e: &Node<Expression>) -> Vec<&Node<Expression>> {
    match &e.node {
        Expression::Call(c) => std::iter::once(&*c.node.callee)
            .chain(c.node.arguments.iter())
            .collect(),
        Expression::Member(m) => vec![&*m.node.expression],
        Expression::UnaryOperator(u) => vec![&*u.node.operand],
        Expression::Cast(c) => vec![&*c.node.expression],
        Expression::BinaryOperator(b) => vec![&*b.node.lhs, &*b.node.rhs],
        Expression::Conditional(c) => vec![
            &*c.node.condition,
            &*c.node.then_expression,
            &*c.node.else_expression,
        ],
        Expression::Comma(items) => items.iter().collect(),
        Expression::CompoundLiteral(c) => {
            let mut out = vec![];
            for i in &c.node.initializer_list {
                collect_init(&i.node.initializer.node, &mut out);
            }
            out
        }
        Expression::VaArg(v) => vec![&*v.node.va_list],
        _ => vec![],
    }
}

fn collect_init<'a>(i: &'a Initializer, out: &mut Vec<&'a Node<Expression>>) {
    match i {
        Initializer::Expression(e) => out.push(e),
        Initializer::List(items) => {
            for x in items {
                collect_init(&x.node.initializer.node, out);
            }
        }
    }
}

/// Whether declaration `d` declares `name`.
fn declares(d: &Node<Declaration>, name: &str) -> bool {
    d.node
        .declarators
        .iter()
        .any(|x| super::canon::declarator_name(&x.node.declarator) == Some(name))
}

/// Whether statement `s` holds a named label (a goto's target).
fn has_named_label(s: &Node<Statement>) -> bool {
    struct Find(bool);
    impl<'ast> Visit<'ast> for Find {
        fn visit_label(&mut self, l: &'ast Label, span: &'ast lang_c::span::Span) {
            self.0 |= matches!(l, Label::Identifier(_));
            visit::visit_label(self, l, span);
        }
    }
    let mut f = Find(false);
    f.visit_statement(&s.node, &s.span);
    f.0
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The loop body of `void f(void) { for (;;) BODY }` and whether `v`
    /// is written first in it (no inner loop directives).
    fn first(body: &str, v: &str) -> bool {
        let src = format!("int a[9], t, s, u; int g(int); void f(void) {{ for (;;) {body} }}");
        let parsed = lang_c::driver::parse_preprocessed(&lang_c::driver::Config::with_gcc(), src)
            .expect("parses");
        let Some(ExternalDeclaration::FunctionDefinition(fd)) =
            parsed.unit.0.last().map(|d| &d.node)
        else {
            panic!("no function")
        };
        let Statement::Compound(items) = &fd.node.statement.node else {
            panic!("no body")
        };
        let BlockItem::Statement(st) = &items[0].node else {
            panic!("no loop")
        };
        let Statement::For(f) = &st.node else {
            panic!("no for")
        };
        written_first(&f.node.statement, v, &|_| InnerUse::None)
    }

    #[test]
    fn assigned_before_read() {
        assert!(first("{ t = a[1]; a[2] = t; }", "t"));
        assert!(first(
            "{ t = 0; for (int k = 0; k < 3; k++) t += a[k]; a[0] = t; }",
            "t"
        ));
        assert!(first("{ if (a[0]) t = 1; else t = 2; a[1] = t; }", "t"));
        assert!(first("{ do { t = a[0]; } while (0); a[1] = t; }", "t"));
        assert!(first("{ int x = (t = 3); a[x] = t; }", "t"));
        assert!(first("{ t = 1, a[t] = 2; }", "t"));
        assert!(first("{ a[0] = 1; }", "t"), "not mentioned at all");
        assert!(
            first(
                "{ t = 1; switch (a[0]) { case 1: a[1] = t; t = 2; default: a[2] = t; } a[3] = t; }",
                "t"
            ),
            "set before a switch"
        );
    }

    #[test]
    fn read_first_or_unknown() {
        assert!(!first("{ a[0] = t; t = 1; }", "t"));
        assert!(!first("{ t += 1; }", "t"));
        assert!(!first("{ t++; }", "t"));
        assert!(!first("{ if (a[0]) t = 1; a[1] = t; }", "t"));
        assert!(!first(
            "{ for (int k = 0; k < a[0]; k++) t = k; a[1] = t; }",
            "t"
        ));
        assert!(!first("{ while (a[0]) t = 1; a[1] = t; }", "t"));
        assert!(!first("{ a[0] && (t = 1); a[1] = t; }", "t"));
        assert!(!first("{ a[0] ? (t = 1) : 0; a[1] = t; }", "t"));
        assert!(!first("{ t = 1; g(&t); }", "t"), "its address escapes");
        assert!(
            !first("{ int t = 1; a[0] = t; }", "t"),
            "a declaration shadows it"
        );
        assert!(!first(
            "{ switch (a[0]) { case 1: t = 1; } a[1] = t; }",
            "t"
        ));
        assert!(
            !first(
                "{ t = 1; switch (a[0]) { case 1: L: a[1] = t; } goto L; }",
                "t"
            ),
            "a label in the switch a goto may reach"
        );
        assert!(!first("{ t = t + 1; }", "t"));
        assert!(!first("{ a[t = 2] = t + s; s = t; u = s; }", "s"));
    }

    #[test]
    fn inner_loop_clauses() {
        let src = "void f(void) { int t, a[4]; for (;;) { for (int k = 0; k < 4; k++) t += a[k]; a[0] = t; } }";
        let parsed = lang_c::driver::parse_preprocessed(
            &lang_c::driver::Config::with_gcc(),
            src.to_string(),
        )
        .expect("parses");
        let Some(ExternalDeclaration::FunctionDefinition(fd)) =
            parsed.unit.0.last().map(|d| &d.node)
        else {
            panic!("no function")
        };
        let Statement::Compound(items) = &fd.node.statement.node else {
            panic!()
        };
        let BlockItem::Statement(st) = &items[1].node else {
            panic!()
        };
        let Statement::For(f) = &st.node else {
            panic!()
        };
        let body = &f.node.statement;
        // A reduction into `t` reads it: not written first.
        assert!(!written_first(body, "t", &|_| InnerUse::Reduction));
        // A private `t` in the inner loop is not this `t`; the read after it is.
        assert!(!written_first(body, "t", &|_| InnerUse::Private));
        assert_eq!(assigned(body), vec!["k".to_string(), "t".to_string()]);
    }
}
