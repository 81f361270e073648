//! The canonical loop form OpenACC requires of a loop with a loop directive:
//! `for (i = lb; i <op> ub; i += step)` (C11 for-statement; `<op>` one of
//! `< <= > >=`, either side; step `i++`, `++i`, `i--`, `--i`, `i += s`,
//! `i -= s`, `i = i + s`, `i = s + i`, `i = i - s`).
//!
//! Owns: [`Canonical`] and [`canonical`], used both to lower the loop and to
//! compute its trip count on the host. May call: `ir` (for [`LoopCmp`]).

use crate::ir::LoopCmp;
use lang_c::ast::*;
use lang_c::span::Node;

/// The parts of a canonical loop, borrowed from the AST.
pub struct Canonical<'a> {
    /// The loop variable's name.
    pub var: &'a str,
    /// The declaration when the loop declares its variable (`for (int i = …`).
    pub decl: Option<&'a Node<Declaration>>,
    pub init: &'a Node<Expression>,
    /// `var cmp limit` (flipped when written `limit cmp var`).
    pub cmp: LoopCmp,
    pub limit: &'a Node<Expression>,
    /// The step expression; `None` for `++`/`--` (magnitude 1).
    pub step: Option<&'a Node<Expression>>,
    /// The step is subtracted (`i--`, `i -= s`, `i = i - s`).
    pub negate: bool,
}

/// Recognises the canonical form; the error says what is wrong.
pub fn canonical(f: &ForStatement) -> Result<Canonical<'_>, &'static str> {
    let (var, decl, init): (&str, _, &Node<Expression>) = match &f.initializer.node {
        ForInitializer::Declaration(d) => {
            let [id] = d.node.declarators.as_slice() else {
                return Err("it must declare exactly one loop variable");
            };
            let name =
                declarator_name(&id.node.declarator).ok_or("the loop variable must be named")?;
            match id.node.initializer.as_ref().map(|i| &i.node) {
                Some(Initializer::Expression(e)) => (name, Some(d), e),
                _ => return Err("the loop variable must be initialised"),
            }
        }
        ForInitializer::Expression(e) => match &e.node {
            Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Assign => {
                match &b.node.lhs.node {
                    Expression::Identifier(id) => (id.node.name.as_str(), None, &*b.node.rhs),
                    _ => return Err("the initialisation must assign the loop variable"),
                }
            }
            _ => return Err("the initialisation must assign the loop variable"),
        },
        _ => return Err("it has no initialisation"),
    };
    let is_var =
        |e: &Node<Expression>| matches!(&e.node, Expression::Identifier(i) if i.node.name == var);
    let Some(cond) = &f.condition else {
        return Err("it has no condition");
    };
    let cmp_err = "the condition must compare the loop variable with <, <=, > or >=";
    let Expression::BinaryOperator(c) = &cond.node else {
        return Err(cmp_err);
    };
    let op = match c.node.operator.node {
        BinaryOperator::Less => LoopCmp::Lt,
        BinaryOperator::LessOrEqual => LoopCmp::Le,
        BinaryOperator::Greater => LoopCmp::Gt,
        BinaryOperator::GreaterOrEqual => LoopCmp::Ge,
        _ => return Err(cmp_err),
    };
    let (cmp, limit) = if is_var(&c.node.lhs) {
        (op, &*c.node.rhs)
    } else if is_var(&c.node.rhs) {
        let flipped = match op {
            LoopCmp::Lt => LoopCmp::Gt,
            LoopCmp::Le => LoopCmp::Ge,
            LoopCmp::Gt => LoopCmp::Lt,
            LoopCmp::Ge => LoopCmp::Le,
        };
        (flipped, &*c.node.lhs)
    } else {
        return Err(cmp_err);
    };
    let Some(step) = &f.step else {
        return Err("it has no increment");
    };
    let bad_step = "the increment must be i++, i--, i += s, i -= s or i = i + s";
    let (step, negate) = match &step.node {
        Expression::UnaryOperator(u) if is_var(&u.node.operand) => match u.node.operator.node {
            UnaryOperator::PostIncrement | UnaryOperator::PreIncrement => (None, false),
            UnaryOperator::PostDecrement | UnaryOperator::PreDecrement => (None, true),
            _ => return Err(bad_step),
        },
        Expression::BinaryOperator(b) if is_var(&b.node.lhs) => match &b.node.operator.node {
            BinaryOperator::AssignPlus => (Some(&*b.node.rhs), false),
            BinaryOperator::AssignMinus => (Some(&*b.node.rhs), true),
            BinaryOperator::Assign => match &b.node.rhs.node {
                Expression::BinaryOperator(r) => match r.node.operator.node {
                    BinaryOperator::Plus if is_var(&r.node.lhs) => (Some(&*r.node.rhs), false),
                    BinaryOperator::Plus if is_var(&r.node.rhs) => (Some(&*r.node.lhs), false),
                    BinaryOperator::Minus if is_var(&r.node.lhs) => (Some(&*r.node.rhs), true),
                    _ => return Err(bad_step),
                },
                _ => return Err(bad_step),
            },
            _ => return Err(bad_step),
        },
        _ => return Err(bad_step),
    };
    Ok(Canonical {
        var,
        decl,
        init,
        cmp,
        limit,
        step,
        negate,
    })
}

/// The identifier a declarator declares.
pub fn declarator_name(d: &Node<Declarator>) -> Option<&str> {
    match &d.node.kind.node {
        DeclaratorKind::Identifier(i) => Some(&i.node.name),
        DeclaratorKind::Declarator(inner) => declarator_name(inner),
        DeclaratorKind::Abstract => None,
    }
}

/// The trip count of a canonical loop as a host C expression (`long long`),
/// given the C texts of its init, limit and step (`None`: magnitude 1).
pub fn trip_text(c: &Canonical, init: &str, limit: &str, step: Option<&str>) -> String {
    let up = matches!(c.cmp, LoopCmp::Lt | LoopCmp::Le);
    // Magnitude of the step, positive.
    let s = match (step, c.negate, up) {
        (None, _, _) => "1LL".to_string(),
        (Some(s), false, true) | (Some(s), true, false) => format!("(long long)({s})"),
        (Some(s), _, _) => format!("(-(long long)({s}))"),
    };
    let (i, l) = (
        format!("(long long)({init})"),
        format!("(long long)({limit})"),
    );
    let (hi, lo) = if up { (&l, &i) } else { (&i, &l) };
    match c.cmp {
        LoopCmp::Lt | LoopCmp::Gt => format!("({hi} > {lo} ? ({hi} - {lo} + {s} - 1) / {s} : 0LL)"),
        LoopCmp::Le | LoopCmp::Ge => format!("({hi} >= {lo} ? ({hi} - {lo}) / {s} + 1 : 0LL)"),
    }
}

/// The next loop of a collapsed nest inside `body` (the body of the loop
/// before it), with the code around it: `collapse(n)` requires the loops
/// to be tightly nested (`body` is the loop, or a block of only the loop);
/// with `collapse(force:n)` (OpenACC 3.3 2.9.1) a block may hold other
/// items before and after the loop, which then run in every iteration of
/// the collapsed loop ("sunk" into the innermost body).
pub struct NextInNest<'a> {
    pub before: &'a [Node<BlockItem>],
    pub inner: &'a Node<ForStatement>,
    pub after: &'a [Node<BlockItem>],
}

/// See [`NextInNest`]; the error says why `body` holds no next loop.
pub fn next_in_nest(body: &Node<Statement>, force: bool) -> Result<NextInNest<'_>, &'static str> {
    match &body.node {
        Statement::For(inner) => Ok(NextInNest {
            before: &[],
            inner,
            after: &[],
        }),
        Statement::Compound(items) => {
            let loops: Vec<usize> = items
                .iter()
                .enumerate()
                .filter(|(_, it)| {
                    matches!(&it.node, BlockItem::Statement(s) if matches!(s.node, Statement::For(_)))
                })
                .map(|(i, _)| i)
                .collect();
            let (&[k], true) = (loops.as_slice(), force || items.len() == 1) else {
                return Err(if force {
                    "the loops of 'collapse(force:…)' must each hold exactly one loop of the nest"
                } else {
                    "the loops of 'collapse' must be tightly nested (or use 'collapse(force:n)')"
                });
            };
            let BlockItem::Statement(st) = &items[k].node else {
                return Err("internal error: not a statement");
            };
            let Statement::For(inner) = &st.node else {
                return Err("internal error: not a loop");
            };
            Ok(NextInNest {
                before: &items[..k],
                inner,
                after: &items[k + 1..],
            })
        }
        _ => Err("the loops of 'collapse' must be tightly nested"),
    }
}
