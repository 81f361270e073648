//! A conservative dependence test for loops in `kernels` constructs that
//! carry no `independent`, `seq` or level clause: the loop is parallelised
//! only when no iteration can touch what another writes.
//!
//! Owns: [`independent`]. The test accepts a loop when (1) every scalar it
//! assigns is declared inside its body or private to the loop (assigned
//! before it is read in every iteration: `loopvars`), (2) it stores only through array
//! subscripts (`a[…]…`), (3) every access to an array it stores into uses
//! the same subscripts, one of which is injective in the loop variable (an
//! affine `c*i + e`, `c` a nonzero constant, `e` the same in every
//! iteration), and (4) no two of the arrays it accesses can overlap (arrays
//! and `restrict` pointers do not; another pointer may point anywhere, so
//! it must be the only base the loop accesses). Anything
//! else (a recurrence `a[i] = a[i-1]`, a sum into an outer scalar, a store
//! through a pointer expression, an indirect store `a[idx[i]]`, a call of
//! anything but the math library) keeps the loop sequential. May call:
//! `canon`, `effects`.

use super::canon::declarator_name;
use super::effects::{assigns, is_inc_dec, mentions};
use crate::ir::RedOp;
use lang_c::ast::*;
use lang_c::span::{Node, Span};
use lang_c::visit::{self, Visit};
use std::collections::{HashMap, HashSet};

/// What a variable of the enclosing scope is, as far as the test goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VarKind {
    /// Owns its memory: an array object or a `restrict` pointer.
    Owned,
    /// A pointer that may reach another's memory.
    Pointer,
    /// An arithmetic scalar.
    Scalar,
    Unknown,
}

/// `Ok(reductions)` when the loop body `body` over variable `var` has no
/// loop-carried dependence by the rules above but for scalars of the
/// enclosing scope it only accumulates into (see `redscan`): those, with
/// their operators; otherwise why not. `kind(name)` says what a variable
/// of the enclosing scope is.
pub fn independent(
    text: &str,
    body: &Node<Statement>,
    var: &str,
    kind: &dyn Fn(&str) -> VarKind,
    privates: &[String],
) -> Result<Vec<(RedOp, String)>, String> {
    let is_array = |n: &str| match kind(n) {
        VarKind::Owned => Some(true),
        VarKind::Pointer => Some(false),
        VarKind::Scalar | VarKind::Unknown => None,
    };
    let mut d = Deps {
        text,
        var,
        declared: privates.iter().cloned().collect(),
        scalar_writes: vec![],
        accesses: HashMap::new(),
        subscripts: HashMap::new(),
        written: HashSet::new(),
        problem: None,
    };
    if exits_early(body) {
        return Err("it can leave early ('break', 'return' or 'goto')".into());
    }
    d.visit_statement(&body.node, &body.span);
    if let Some(p) = d.problem {
        return Err(p);
    }
    let mut reductions: Vec<(RedOp, String)> = vec![];
    for s in d.scalar_writes.iter().filter(|s| !d.declared.contains(*s)) {
        if reductions.iter().any(|(_, r)| r == s) {
            continue;
        }
        match super::redscan::reduction_of(body, s) {
            Some(op) if kind(s) == VarKind::Scalar => reductions.push((op, s.clone())),
            _ => return Err(format!("'{s}' is assigned in every iteration")),
        }
    }
    for base in &d.written {
        if d.declared.contains(base) {
            continue; // an array of the iteration's own
        }
        let texts = d.accesses.get(base).cloned().unwrap_or_default();
        if texts.len() != 1 {
            let mut t: Vec<_> = texts.into_iter().map(|(t, _)| t).collect();
            t.sort();
            return Err(format!(
                "'{base}' is written and accessed as {}",
                t.join(", ")
            ));
        }
        if texts.iter().any(|(_, uses_var)| !uses_var) {
            return Err(format!(
                "'{base}' is written at a subscript that does not depend on '{var}'"
            ));
        }
        let varying =
            |name: &str| d.declared.contains(name) || d.scalar_writes.iter().any(|s| s == name);
        let subs = d.subscripts.get(base).map(Vec::as_slice).unwrap_or(&[]);
        if !subs.iter().any(|s| injective(&s.node, var, &varying)) {
            let (t, _) = texts.iter().next().cloned().unwrap_or_default();
            return Err(format!(
                "'{t}' may be the same element in two iterations (no subscript is '{var}' plus a value fixed in the loop)"
            ));
        }
    }
    // Distinct arrays never overlap; a pointer may point into anything.
    let mut bases: Vec<&String> = d
        .accesses
        .keys()
        .filter(|b| !d.declared.contains(*b))
        .collect();
    bases.sort();
    for w in &d.written {
        if d.declared.contains(w) {
            continue;
        }
        for b in bases.iter().filter(|b| **b != w) {
            let pointer = |n: &str| is_array(n) != Some(true);
            if pointer(w) || pointer(b) {
                let p = if pointer(w) { w } else { b };
                return Err(format!(
                    "'{w}' and '{b}' may overlap ('{p}' is a pointer; add 'independent' if they never do)"
                ));
            }
        }
    }
    Ok(reductions)
}

/// `e` is `c*var + e'` for a nonzero integer constant `c` and an `e'` that
/// does not change during the loop (no `varying` variable, no memory
/// access, no call), so distinct values of `var` give distinct values.
fn injective(e: &Expression, var: &str, varying: &dyn Fn(&str) -> bool) -> bool {
    /// The coefficient of `var` in `e`, or `None` when `e` is not affine in
    /// `var` with loop-invariant other terms.
    fn coef(e: &Expression, var: &str, varying: &dyn Fn(&str) -> bool) -> Option<i128> {
        match e {
            Expression::Identifier(id) if id.node.name == var => Some(1),
            Expression::Identifier(id) => (!varying(&id.node.name)).then_some(0),
            Expression::Constant(c) => match &c.node {
                Constant::Integer(_) | Constant::Character(_) => Some(0),
                Constant::Float(_) => None,
            },
            Expression::Cast(c) => coef(&c.node.expression.node, var, varying),
            Expression::UnaryOperator(u) => match u.node.operator.node {
                UnaryOperator::Minus => coef(&u.node.operand.node, var, varying).map(|c| -c),
                UnaryOperator::Plus => coef(&u.node.operand.node, var, varying),
                _ => None,
            },
            Expression::BinaryOperator(b) => {
                let l = coef(&b.node.lhs.node, var, varying)?;
                let r = coef(&b.node.rhs.node, var, varying)?;
                match b.node.operator.node {
                    BinaryOperator::Plus => l.checked_add(r),
                    BinaryOperator::Minus => l.checked_sub(r),
                    BinaryOperator::Multiply => match (l, r) {
                        (0, 0) => Some(0),
                        (c, 0) => int_constant(&b.node.rhs.node).and_then(|k| c.checked_mul(k)),
                        (0, c) => int_constant(&b.node.lhs.node).and_then(|k| c.checked_mul(k)),
                        _ => None,
                    },
                    // Other operators of invariant operands are invariant.
                    BinaryOperator::Divide
                    | BinaryOperator::Modulo
                    | BinaryOperator::ShiftLeft
                    | BinaryOperator::ShiftRight
                    | BinaryOperator::BitwiseAnd
                    | BinaryOperator::BitwiseOr
                    | BinaryOperator::BitwiseXor
                        if l == 0 && r == 0 =>
                    {
                        Some(0)
                    }
                    _ => None,
                }
            }
            _ => None,
        }
    }
    fn int_constant(e: &Expression) -> Option<i128> {
        match e {
            Expression::Constant(c) => match &c.node {
                Constant::Integer(i) => super::literal::int_constant(i).ok().map(|(v, _)| v),
                _ => None,
            },
            Expression::Cast(c) => int_constant(&c.node.expression.node),
            _ => None,
        }
    }
    coef(e, var, varying).is_some_and(|c| c != 0)
}

/// True when `body` has a `break` that leaves the loop it is the body of
/// (not one of a loop or switch nested in it), a `return` or a `goto`.
fn exits_early(body: &Node<Statement>) -> bool {
    fn walk(s: &Statement, nested: bool) -> bool {
        match s {
            Statement::Break => !nested,
            Statement::Return(_) | Statement::Goto(_) => true,
            Statement::Compound(items) => items.iter().any(|i| match &i.node {
                BlockItem::Statement(st) => walk(&st.node, nested),
                _ => false,
            }),
            Statement::If(i) => {
                walk(&i.node.then_statement.node, nested)
                    || i.node
                        .else_statement
                        .as_ref()
                        .is_some_and(|e| walk(&e.node, nested))
            }
            Statement::Labeled(l) => walk(&l.node.statement.node, nested),
            Statement::For(f) => walk(&f.node.statement.node, true),
            Statement::While(w) => walk(&w.node.statement.node, true),
            Statement::DoWhile(w) => walk(&w.node.statement.node, true),
            Statement::Switch(w) => walk(&w.node.statement.node, true),
            _ => false,
        }
    }
    walk(&body.node, false)
}

struct Deps<'a> {
    text: &'a str,
    var: &'a str,
    declared: HashSet<String>,
    scalar_writes: Vec<String>,
    /// Array base → the distinct access texts (and whether they use `var`).
    accesses: HashMap<String, HashSet<(String, bool)>>,
    /// Array base → the subscripts of its first access.
    subscripts: HashMap<String, Vec<Node<Expression>>>,
    written: HashSet<String>,
    problem: Option<String>,
}

/// `a[i][j]` → ("a", [i, j]).
fn index_chain(e: &Node<Expression>) -> Option<(String, Vec<&Node<Expression>>)> {
    match &e.node {
        Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => {
            let (base, mut subs) = match &b.node.lhs.node {
                Expression::Identifier(id) => (id.node.name.clone(), vec![]),
                _ => index_chain(&b.node.lhs)?,
            };
            subs.push(&*b.node.rhs);
            Some((base, subs))
        }
        _ => None,
    }
}

impl Deps<'_> {
    fn target(&mut self, e: &Node<Expression>) {
        match &e.node {
            Expression::Identifier(id) => self.scalar_writes.push(id.node.name.clone()),
            _ => match index_chain(e) {
                Some((base, _)) => {
                    self.written.insert(base);
                }
                None => {
                    self.problem = Some(format!(
                        "it stores through '{}'",
                        &self.text[e.span.start..e.span.end]
                    ))
                }
            },
        }
    }
}

impl<'ast> Visit<'ast> for Deps<'_> {
    fn visit_init_declarator(&mut self, d: &'ast InitDeclarator, span: &'ast Span) {
        if let Some(n) = declarator_name(&d.declarator) {
            self.declared.insert(n.to_string());
        }
        visit::visit_init_declarator(self, d, span);
    }

    fn visit_expression(&mut self, e: &'ast Expression, span: &'ast Span) {
        let node = Node::new(e.clone(), *span);
        if let Some((base, subs)) = index_chain(&node) {
            let uses_var = subs.iter().any(|s| mentions(s, self.var) > 0);
            let text = self.text[span.start..span.end]
                .split_whitespace()
                .collect::<String>();
            self.subscripts
                .entry(base.clone())
                .or_insert_with(|| subs.iter().map(|s| (*s).clone()).collect());
            self.accesses
                .entry(base)
                .or_default()
                .insert((text, uses_var));
            for s in subs {
                self.visit_expression(&s.node, &s.span);
            }
            return;
        }
        match e {
            // A call may write memory (through a pointer argument or in a
            // routine's own right); only the math library is known pure.
            Expression::Call(c) => {
                let pure = matches!(&c.node.callee.node, Expression::Identifier(id)
                    if crate::ir::MathFunc::from_c_name(&id.node.name).is_some()
                        || matches!(id.node.name.as_str(), "abs" | "labs" | "llabs"));
                if !pure {
                    self.problem = Some(format!(
                        "it calls '{}', which may write memory",
                        &self.text[c.node.callee.span.start..c.node.callee.span.end]
                    ));
                }
            }
            Expression::BinaryOperator(b) if assigns(&b.node.operator.node) => {
                self.target(&b.node.lhs)
            }
            Expression::UnaryOperator(u) if is_inc_dec(&u.node.operator.node) => {
                self.target(&u.node.operand)
            }
            _ => {}
        }
        visit::visit_expression(self, e, span);
    }
}

/// How many array accesses in `body` walk memory contiguously with `var`:
/// their last subscript (the fastest-varying one; for a flattened array the
/// whole index) has `var` as a term of its own (`a[…][j]`, `a[i * n + j]`,
/// `a[j - 1]`). The loop with the most is the one to put on consecutive
/// threads (coalescing).
pub fn contiguity(body: &Node<Statement>, var: &str) -> u32 {
    struct C<'v> {
        var: &'v str,
        n: u32,
    }
    /// `e` is `var`, `var ± c`, or a sum with `var` as one term.
    fn unit_term(e: &Expression, var: &str) -> bool {
        match e {
            Expression::Identifier(id) => id.node.name == var,
            Expression::BinaryOperator(b)
                if matches!(
                    b.node.operator.node,
                    BinaryOperator::Plus | BinaryOperator::Minus
                ) =>
            {
                unit_term(&b.node.lhs.node, var)
                    || (b.node.operator.node == BinaryOperator::Plus
                        && unit_term(&b.node.rhs.node, var))
            }
            Expression::Cast(c) => unit_term(&c.node.expression.node, var),
            _ => false,
        }
    }
    impl<'ast> Visit<'ast> for C<'_> {
        fn visit_expression(&mut self, e: &'ast Expression, span: &'ast Span) {
            let b = match e {
                Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => b,
                _ => return visit::visit_expression(self, e, span),
            };
            // The outermost subscript of an access `a[…]…[e]` is the
            // fastest-varying one; the others only contain accesses.
            if unit_term(&b.node.rhs.node, self.var) {
                self.n += 1;
            }
            self.visit_expression(&b.node.rhs.node, &b.node.rhs.span);
            let mut base = &b.node.lhs;
            while let Expression::BinaryOperator(inner) = &base.node {
                if inner.node.operator.node != BinaryOperator::Index {
                    break;
                }
                self.visit_expression(&inner.node.rhs.node, &inner.node.rhs.span);
                base = &inner.node.lhs;
            }
            self.visit_expression(&base.node, &base.span);
        }
    }
    let mut c = C { var, n: 0 };
    c.visit_statement(&body.node, &body.span);
    c.n
}

#[cfg(test)]
mod tests {
    use super::{independent, RedOp, VarKind};
    use lang_c::ast::{BlockItem, ExternalDeclaration, Statement};

    /// The loop body of `for (int i …) BODY` inside a function.
    fn with_body<T>(body: &str, f: impl Fn(&str, &lang_c::span::Node<Statement>) -> T) -> T {
        let src = format!(
            "void f(int n, float *a, float *b, float s, double (*m)[4][4]) {{ for (int i = 0; i < n; i++) {body} }}"
        );
        let p =
            lang_c::driver::parse_preprocessed(&lang_c::driver::Config::with_gcc(), src.clone())
                .expect("test source parses");
        let ExternalDeclaration::FunctionDefinition(fd) = &p.unit.0[0].node else {
            panic!("no function");
        };
        let Statement::Compound(items) = &fd.node.statement.node else {
            panic!("no body");
        };
        let BlockItem::Statement(st) = &items[0].node else {
            panic!("no for");
        };
        let Statement::For(fs) = &st.node else {
            panic!("not a for");
        };
        f(&src, &fs.node.statement)
    }

    #[test]
    fn contiguity_counts_the_fastest_subscript() {
        let body = "for (int j = 0; j < 4; j++) for (int k = 0; k < 4; k++) m[i][j][k] = a[i * n + k] + a[k * n + j];";
        let score = |v: &str| with_body(body, |_, b| super::contiguity(b, v));
        assert_eq!(score("k"), 2); // m[…][k], a[i * n + k]
        assert_eq!(score("j"), 1); // a[k * n + j]
        assert_eq!(score("i"), 0);
    }

    /// The dependence test of `for (int i …) BODY` where `a`, `b`, `m`
    /// are arrays, `p`, `q` pointers; `Ok` only with no reduction.
    fn check(body: &str) -> Result<(), String> {
        match reductions(body)? {
            r if r.is_empty() => Ok(()),
            r => Err(format!("reductions {r:?}")),
        }
    }

    /// The reductions the test finds in `for (int i …) BODY`.
    fn reductions(body: &str) -> Result<Vec<(RedOp, String)>, String> {
        let src = format!(
            "void f(int n, float *p, float *q, float s, int k) {{ for (int i = 0; i < n; i++) {body} }}"
        );
        let p =
            lang_c::driver::parse_preprocessed(&lang_c::driver::Config::with_gcc(), src.clone())
                .map_err(|e| e.to_string())?;
        let ExternalDeclaration::FunctionDefinition(f) = &p.unit.0[0].node else {
            return Err("no function".into());
        };
        let Statement::Compound(items) = &f.node.statement.node else {
            return Err("no body".into());
        };
        let BlockItem::Statement(st) = &items[0].node else {
            return Err("no for".into());
        };
        let Statement::For(fs) = &st.node else {
            return Err("not a for".into());
        };
        let kind = |name: &str| match name {
            "a" | "b" | "m" | "idx" => VarKind::Owned,
            "p" | "q" => VarKind::Pointer,
            "s" | "k" | "n" => VarKind::Scalar,
            _ => VarKind::Unknown,
        };
        independent(&src, &fs.node.statement, "i", &kind, &[])
    }

    #[test]
    fn accepts_maps() {
        assert_eq!(check("a[i] = 2.0f * b[i] + a[i];"), Ok(()));
        assert_eq!(check("{ float t = b[i]; a[i] += t * s; }"), Ok(()));
    }

    #[test]
    fn rejects_dependences() {
        assert!(check("a[i] = a[i - 1] + 1.0f;").is_err());
        assert!(check("a[0] = b[i];").is_err());
        assert!(check("*(a + i) = 1.0f;").is_err());
        assert!(check("a[i] = g(a, i);").is_err());
        assert!(check("{ if (a[i] > 0) break; b[i] = 1; }").is_err());
        assert_eq!(
            check("{ for (int k = 0; k < 3; k++) if (k) break; a[i] = 1; }"),
            Ok(())
        );
        assert_eq!(check("a[i] = sqrtf(b[i]);"), Ok(()));
    }

    #[test]
    fn needs_an_injective_subscript() {
        assert_eq!(check("a[2 * i + k] = b[i];"), Ok(()));
        assert_eq!(check("for (int j = 0; j < 4; j++) m[i][j] = b[j];"), Ok(()));
        assert_eq!(check("a[n - 1 - i] = b[i];"), Ok(()));
        assert!(check("a[idx[i]] = b[i];").is_err());
        assert!(check("a[i / 2] = b[i];").is_err());
        assert!(check("a[i * i] = b[i];").is_err());
        assert!(check("a[0 * i] = b[i];").is_err());
        // k may be 0.
        assert!(check("a[i * k] = b[i];").is_err());
        // The inner loop's j varies: iterations i and i+1 share elements.
        assert!(check("for (int j = 0; j < 4; j++) a[i + j] = b[j];").is_err());
        assert!(check("{ int t = i / 2; a[t] = b[i]; }").is_err());
    }

    #[test]
    fn finds_reductions_into_outer_scalars() {
        assert_eq!(reductions("s += a[i];"), Ok(vec![(RedOp::Add, "s".into())]));
        assert_eq!(
            reductions("{ s = fmaxf(s, a[i]); k ^= i; }"),
            Ok(vec![(RedOp::Max, "s".into()), (RedOp::BitXor, "k".into())])
        );
        // Read elsewhere, or not a scalar: a dependence.
        assert!(reductions("{ s += a[i]; b[i] = s; }").is_err());
        assert!(reductions("t += a[i];").is_err());
        assert!(reductions("p = p + 1;").is_err());
    }

    #[test]
    fn pointers_may_overlap() {
        assert_eq!(check("p[i] = 2.0f * p[i];"), Ok(()));
        assert!(check("p[i] = q[i];").is_err());
        assert!(check("p[i] = a[i];").is_err());
        assert!(check("a[i] = p[i];").is_err());
        assert!(check("a[i] = b[i] * s;").is_ok());
    }
}
