//! The `atomic` construct (OpenACC 3.3 2.12): which statement forms it
//! takes, and its host version.
//!
//! Owns: [`AtomicSpec`] (one directive: its clause and `if` condition,
//! found by statement), [`recognize`] (the C forms of `read`, `write`,
//! `update` and `capture` — `x++`, `x--`, `++x`, `--x`, `x binop= expr`,
//! `x = x binop expr`, `x = expr binop x` with binop one of
//! `+ * - / & ^ | << >>`; captures `v = x++`, `v = x binop= expr`, …; the
//! capture blocks `{v = x; x binop= expr;}`, `{x binop= expr; v = x;}` and
//! `{v = x; x = expr;}`, with `x++`, `x--`, `++x`, `--x` in place of the
//! update) as a [`Form`] of AST nodes, shared by the device
//! lowering (`lower::atomic`) and [`host_atomic`]; the two mentions of `x`
//! compare up to spacing and grouping parentheses ([`canonical`]), and an
//! operand that refers to `x` is an error, as the specification requires;
//! [`host_atomic`] and the walk that gives every atomic statement of the
//! file its host version: the operation it is ([`HostAtomic`], its
//! operator an [`AtomicArith`], C's through [`c_binop`]), which
//! `codegen::host` writes with the host compiler's `__atomic` builtins, so
//! that host threads running regions on the host fallback update
//! atomically too.
//! May call: `directive`, `ir` (locations, the host plan), `diag`; `parsed`
//! (what [`specs`] reads) and `output` (through its methods).

use super::parsed::Parsed;
use super::unit::Walker;
use crate::diag::{DResult, Diagnostics};
use crate::directive::{AtomicKind, ClauseKind, DirectiveKind};
use crate::ir::host::{AtomicArith, AtomicUpdate, Captured, Construct, ConstructKind, HostAtomic};
use crate::ir::{HostType, SrcLoc, UserExpr};
use lang_c::ast::*;
use lang_c::span::{Node, Span};
use std::collections::HashMap;

/// One `atomic` directive.
#[derive(Clone, Debug)]
pub struct AtomicSpec {
    pub kind: AtomicKind,
    /// The `if` clause's condition, as written.
    pub cond: Option<String>,
    /// Where the directive is.
    pub loc: SrcLoc,
}

/// What the new value of `x` is.
#[derive(Clone, Debug)]
pub enum Update<'a> {
    /// `x binop expr` (or `expr binop x` when `expr_first`); `expr` `None`
    /// for `++`/`--` (the operand 1).
    Op {
        op: AtomicArith,
        expr: Option<&'a Node<Expression>>,
        expr_first: bool,
    },
    /// `expr` (a write, or the swap of a capture block).
    Set(&'a Node<Expression>),
}

/// Which value of `x` a capture takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Capture {
    Old,
    New,
}

/// A recognised atomic statement.
#[derive(Clone, Debug)]
pub struct Form<'a> {
    /// The location updated.
    pub x: &'a Node<Expression>,
    /// How (`None`: a read).
    pub update: Option<Update<'a>>,
    /// `v` and which value it gets.
    pub capture: Option<(&'a Node<Expression>, Capture)>,
}

/// The text of `span`, without white space.
fn squeezed(text: &str, span: Span) -> String {
    text.get(span.start..span.end)
        .unwrap_or("")
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect()
}

/// `e` written out fully parenthesised, without white space: equal for two
/// expressions that differ only in spacing and in parentheses that group
/// nothing (`(d[(int) k])` and `d[(int)k]`), which is how the forms compare
/// the location `x` they name twice.
pub fn canonical(text: &str, e: &Node<Expression>) -> String {
    canon(text, &e.node, e.span)
}

fn canon(text: &str, e: &Expression, span: Span) -> String {
    use UnaryOperator as U;
    let c = |x: &Node<Expression>| canon(text, &x.node, x.span);
    match e {
        Expression::Identifier(id) => id.node.name.clone(),
        Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => {
            format!("{}[{}]", c(&b.node.lhs), c(&b.node.rhs))
        }
        Expression::BinaryOperator(b) => format!(
            "({}{:?}{})",
            c(&b.node.lhs),
            b.node.operator.node,
            c(&b.node.rhs)
        ),
        Expression::UnaryOperator(u) => match u.node.operator.node {
            U::PostIncrement | U::PostDecrement => {
                format!("({}{:?})", c(&u.node.operand), u.node.operator.node)
            }
            ref op => format!("({op:?}{})", c(&u.node.operand)),
        },
        Expression::Member(m) => format!(
            "{}{}{}",
            c(&m.node.expression),
            match m.node.operator.node {
                MemberOperator::Direct => ".",
                MemberOperator::Indirect => "->",
            },
            m.node.identifier.node.name
        ),
        Expression::Cast(k) => format!(
            "(({}){})",
            squeezed(text, k.node.type_name.span),
            c(&k.node.expression)
        ),
        Expression::Call(call) => {
            let args: Vec<String> = call.node.arguments.iter().map(c).collect();
            format!("{}({})", c(&call.node.callee), args.join(","))
        }
        _ => {
            // Constants and the rest: their text, outer parentheses dropped.
            let mut t = squeezed(text, span);
            while t.starts_with('(') && t.ends_with(')') && closes_first(&t) {
                t = t[1..t.len() - 1].to_string();
            }
            t
        }
    }
}

/// Whether the parenthesis opening `t` is closed by its last character.
fn closes_first(t: &str) -> bool {
    let mut depth = 0i32;
    for (i, ch) in t.char_indices() {
        match ch {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return i == t.len() - 1;
                }
            }
            _ => {}
        }
    }
    false
}

/// Whether `a` and `b` name the same location as written.
fn same(text: &str, a: &Node<Expression>, b: &Node<Expression>) -> bool {
    canonical(text, a) == canonical(text, b)
}

/// The first subexpression of `e` (or `e` itself) that names the location
/// `x` (as [`canonical`] compares).
pub fn reference_to(text: &str, e: &Node<Expression>, x: &Node<Expression>) -> Option<Span> {
    struct Find<'t> {
        text: &'t str,
        want: String,
        found: Option<Span>,
    }
    impl<'ast> lang_c::visit::Visit<'ast> for Find<'_> {
        fn visit_expression(&mut self, e: &'ast Expression, span: &'ast Span) {
            if self.found.is_some() {
                return;
            }
            if canon(self.text, e, *span) == self.want {
                self.found = Some(*span);
                return;
            }
            lang_c::visit::visit_expression(self, e, span);
        }
    }
    let mut f = Find {
        text,
        want: canonical(text, x),
        found: None,
    };
    lang_c::visit::Visit::visit_expression(&mut f, &e.node, &e.span);
    f.found
}

/// `op=` → `op`, for the operators an atomic update may use.
fn compound_op(op: &BinaryOperator) -> Option<AtomicArith> {
    use BinaryOperator as B;
    plain_op(&match op {
        B::AssignPlus => B::Plus,
        B::AssignMinus => B::Minus,
        B::AssignMultiply => B::Multiply,
        B::AssignDivide => B::Divide,
        B::AssignBitwiseAnd => B::BitwiseAnd,
        B::AssignBitwiseOr => B::BitwiseOr,
        B::AssignBitwiseXor => B::BitwiseXor,
        B::AssignShiftLeft => B::ShiftLeft,
        B::AssignShiftRight => B::ShiftRight,
        _ => return None,
    })
}

/// The operator an atomic update may use that `op` is.
fn plain_op(op: &BinaryOperator) -> Option<AtomicArith> {
    AtomicArith::ALL.into_iter().find(|a| c_binop(*a) == *op)
}

/// The C operator of `a`.
pub fn c_binop(a: AtomicArith) -> BinaryOperator {
    use BinaryOperator as B;
    match a {
        AtomicArith::Add => B::Plus,
        AtomicArith::Sub => B::Minus,
        AtomicArith::Mul => B::Multiply,
        AtomicArith::Div => B::Divide,
        AtomicArith::And => B::BitwiseAnd,
        AtomicArith::Or => B::BitwiseOr,
        AtomicArith::Xor => B::BitwiseXor,
        AtomicArith::Shl => B::ShiftLeft,
        AtomicArith::Shr => B::ShiftRight,
    }
}

/// The expression of an expression statement.
fn expr_stmt(s: &Node<Statement>) -> Option<&Node<Expression>> {
    match &s.node {
        Statement::Expression(Some(e)) => Some(e),
        _ => None,
    }
}

/// `a = b`: (a, b).
fn assignment(e: &Node<Expression>) -> Option<(&Node<Expression>, &Node<Expression>)> {
    match &e.node {
        Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Assign => {
            Some((&b.node.lhs, &b.node.rhs))
        }
        _ => None,
    }
}

/// An update expression: `x++`, `x--`, `++x`, `--x`, `x op= e`,
/// `x = x op e`, `x = e op x`: (x, update, whether the expression's value is
/// the new one).
fn update_expr<'a>(
    text: &str,
    e: &'a Node<Expression>,
) -> Option<(&'a Node<Expression>, Update<'a>, Capture)> {
    use UnaryOperator as U;
    match &e.node {
        Expression::UnaryOperator(u) => {
            let (op, when) = match u.node.operator.node {
                U::PostIncrement => (AtomicArith::Add, Capture::Old),
                U::PostDecrement => (AtomicArith::Sub, Capture::Old),
                U::PreIncrement => (AtomicArith::Add, Capture::New),
                U::PreDecrement => (AtomicArith::Sub, Capture::New),
                _ => return None,
            };
            let upd = Update::Op {
                op,
                expr: None,
                expr_first: false,
            };
            Some((&u.node.operand, upd, when))
        }
        Expression::BinaryOperator(b) => {
            if let Some(op) = compound_op(&b.node.operator.node) {
                let upd = Update::Op {
                    op,
                    expr: Some(&b.node.rhs),
                    expr_first: false,
                };
                return Some((&b.node.lhs, upd, Capture::New));
            }
            let (x, rhs) = assignment(e)?;
            let Expression::BinaryOperator(r) = &rhs.node else {
                return None;
            };
            let op = plain_op(&r.node.operator.node)?;
            let (expr, expr_first) = if same(text, &r.node.lhs, x) {
                (&r.node.rhs, false)
            } else if same(text, &r.node.rhs, x) {
                (&r.node.lhs, true)
            } else {
                return None;
            };
            let upd = Update::Op {
                op,
                expr: Some(expr),
                expr_first,
            };
            Some((x, upd, Capture::New))
        }
        _ => None,
    }
}

/// The form of statement `s` under `atomic kind`, or an error naming what
/// is expected.
pub fn recognize<'a>(
    text: &str,
    kind: AtomicKind,
    s: &'a Node<Statement>,
    err: &dyn Fn(Span, String) -> Diagnostics,
) -> DResult<Form<'a>> {
    let expected = |what: &str| {
        err(
            s.span,
            format!(
                "expected {what} after '#pragma acc atomic {}'",
                kind.as_str()
            ),
        )
    };
    let form = match kind {
        AtomicKind::Read => {
            let (v, x) = expr_stmt(s).and_then(assignment).ok_or_else(|| expected("'v = x;'"))?;
            Ok(Form {
                x,
                update: None,
                capture: Some((v, Capture::Old)),
            })
        }
        AtomicKind::Write => {
            let (x, e) = expr_stmt(s).and_then(assignment).ok_or_else(|| expected("'x = expr;'"))?;
            Ok(Form {
                x,
                update: Some(Update::Set(e)),
                capture: None,
            })
        }
        AtomicKind::Update => {
            let (x, upd, _) = expr_stmt(s)
                .and_then(|e| update_expr(text, e))
                .ok_or_else(|| expected("'x++;', 'x binop= expr;', 'x = x binop expr;' or a like form"))?;
            Ok(Form {
                x,
                update: Some(upd),
                capture: None,
            })
        }
        AtomicKind::Capture => capture(text, s).ok_or_else(|| {
            expected("'v = x++;', 'v = x binop= expr;', '{v = x; x binop= expr;}', '{x binop= expr; v = x;}', '{v = x; x = expr;}' or a like form")
        }),
    }?;
    // OpenACC 3.3 2.12: "expr is an expression with scalar type that does
    // not reference the object designated by x" — it is evaluated before,
    // not inside, the atomic access.
    let operand = match &form.update {
        Some(Update::Set(e)) => Some(*e),
        Some(Update::Op { expr, .. }) => *expr,
        None => None,
    };
    if let Some(at) = operand.and_then(|e| reference_to(text, e, form.x)) {
        let x = text
            .get(form.x.span.start..form.x.span.end)
            .unwrap_or("x")
            .trim();
        let msg = match (&form.update, kind) {
            (Some(Update::Set(_)), AtomicKind::Capture) => format!(
                "the value '{{v = x; x = expr;}}' stores must not refer to '{x}': it would be read before the atomic exchange, not atomically (OpenACC 3.3 2.12); write the update as 'x binop= expr' or 'x = x binop expr'"
            ),
            (Some(Update::Set(_)), _) => format!(
                "the value an 'atomic write' stores must not refer to '{x}' (OpenACC 3.3 2.12)"
            ),
            _ => format!(
                "the operand of an atomic update must not refer to the updated location '{x}' (OpenACC 3.3 2.12)"
            ),
        };
        return Err(err(at, msg));
    }
    Ok(form)
}

/// The capture forms.
fn capture<'a>(text: &str, s: &'a Node<Statement>) -> Option<Form<'a>> {
    if let Some(e) = expr_stmt(s) {
        // v = <update expression>
        let (v, rhs) = assignment(e)?;
        let (x, upd, when) = update_expr(text, rhs)?;
        return Some(Form {
            x,
            update: Some(upd),
            capture: Some((v, when)),
        });
    }
    let Statement::Compound(items) = &s.node else {
        return None;
    };
    let stmts: Vec<&Node<Expression>> = items
        .iter()
        .map(|i| match &i.node {
            BlockItem::Statement(st) => expr_stmt(st),
            _ => None,
        })
        .collect::<Option<Vec<_>>>()?;
    let [first, second] = stmts[..] else {
        return None;
    };
    // {v = x; update} or {v = x; x = expr}
    if let Some((v, x)) = assignment(first) {
        if let Some((x2, upd, _)) = update_expr(text, second) {
            if same(text, x2, x) {
                return Some(Form {
                    x: x2,
                    update: Some(upd),
                    capture: Some((v, Capture::Old)),
                });
            }
        }
        if let Some((x2, e)) = assignment(second) {
            if same(text, x2, x) {
                return Some(Form {
                    x: x2,
                    update: Some(Update::Set(e)),
                    capture: Some((v, Capture::Old)),
                });
            }
        }
    }
    // {update; v = x}
    let (x, upd, _) = update_expr(text, first)?;
    let (v, x2) = assignment(second)?;
    same(text, x2, x).then_some(Form {
        x,
        update: Some(upd),
        capture: Some((v, Capture::New)),
    })
}

/// The host version of atomic statement `f` (its operands as written in
/// `text`).
pub fn host_atomic(text: &str, f: &Form) -> HostAtomic {
    let t = |e: &Node<Expression>| text.get(e.span.start..e.span.end).unwrap_or("").to_string();
    HostAtomic {
        x: t(f.x),
        update: f.update.as_ref().map(|u| match u {
            Update::Set(e) => AtomicUpdate::Set(t(e)),
            Update::Op {
                op,
                expr,
                expr_first,
            } => AtomicUpdate::Op {
                op: *op,
                expr: expr.map(t),
                expr_first: *expr_first,
            },
        }),
        capture: f.capture.map(|(v, when)| {
            let when = match when {
                Capture::Old => Captured::Old,
                Capture::New => Captured::New,
            };
            (t(v), when)
        }),
    }
}

/// Every `atomic` directive of the unit, by the start of its statement.
pub fn specs(unit: &Parsed) -> HashMap<usize, AtomicSpec> {
    let mut m = HashMap::new();
    for (&start, dirs) in &unit.att.by_stmt {
        for &i in dirs {
            let d = &unit.dirs[i];
            if let DirectiveKind::Atomic(k) = d.kind {
                let cond = d.clauses.iter().find_map(|c| match &c.kind {
                    ClauseKind::If(e) => Some(format!("({})", e.text)),
                    _ => None,
                });
                m.insert(
                    start,
                    AtomicSpec {
                        kind: AtomicKind::effective(k),
                        cond,
                        loc: unit.pragma_loc(i, d.kind_span.start),
                    },
                );
            }
        }
    }
    m
}

impl Walker<'_> {
    /// The scalar variables that atomic statements inside `s` update (by
    /// name): a compute construct shares them (implicitly `copy`, as
    /// reduction variables) rather than giving each thread its own copy,
    /// on which an atomic would be pointless.
    pub fn atomic_targets(&self, s: &Node<Statement>) -> Vec<String> {
        let mut found = AtomicStatements {
            atomics: &self.unit.atomics,
            found: vec![],
        };
        lang_c::visit::Visit::visit_statement(&mut found, &s.node, &s.span);
        let err = |_: Span, m: String| Diagnostics::one(None, m);
        let mut names = vec![];
        for (node, spec) in &found.found {
            if let Ok(f) = recognize(self.unit.text, spec.kind, node, &err) {
                if let Expression::Identifier(id) = &f.x.node {
                    names.push(id.node.name.clone());
                }
            }
        }
        names
    }

    /// Gives every atomic statement of `unit` its host version (a
    /// construct of the host plan); a statement of no atomic form is an
    /// error at the statement.
    pub fn atomic_host_versions(&mut self, unit: &TranslationUnit) {
        let mut found = AtomicStatements {
            atomics: &self.unit.atomics,
            found: vec![],
        };
        lang_c::visit::Visit::visit_translation_unit(&mut found, unit);
        let sm = self.unit.sm;
        let err = |at: Span, msg: String| Diagnostics::one(Some(sm.loc(at.start)), msg);
        for (node, spec) in found.found {
            match recognize(self.unit.text, spec.kind, &node, &err) {
                Ok(f) => {
                    let cond = spec.cond.clone().map(|text| UserExpr {
                        text,
                        loc: spec.loc.clone(),
                        ty: HostType::Bool,
                    });
                    self.out.construct(Construct {
                        kind: ConstructKind::Atomic(host_atomic(self.unit.text, &f)),
                        name: format!("atomic {}", spec.kind.as_str()),
                        loc: spec.loc.clone(),
                        stmt: node.span.start..node.span.end,
                        cond,
                        maps: vec![],
                        body: vec![],
                        undecided: None,
                    });
                }
                Err(d) => self.out.errors(d),
            }
        }
    }
}

/// The statements of a syntax tree that `atomic` directives apply to, with
/// their directive, in order.
struct AtomicStatements<'m> {
    atomics: &'m HashMap<usize, AtomicSpec>,
    found: Vec<(Node<Statement>, AtomicSpec)>,
}

impl<'ast> lang_c::visit::Visit<'ast> for AtomicStatements<'_> {
    fn visit_statement(&mut self, s: &'ast Statement, span: &'ast Span) {
        match self.atomics.get(&span.start) {
            Some(spec) => self.found.push((
                Node {
                    node: s.clone(),
                    span: *span,
                },
                spec.clone(),
            )),
            None => lang_c::visit::visit_statement(self, s, span),
        }
    }
}
