//! Statement lowering: C statements of a body → IR statements; `for`
//! statements with a loop directive become counted [`Loop`]s, `switch`
//! becomes [`Stmt::Switch`], `do … while` a `While` whose step tests.
//!
//! Owns: the methods of `Lower` that lower statements and declarations, and
//! the use of the canonical loop form OpenACC requires
//! (`for (i = lb; i <op> ub; i += step)`).

use super::{Binding, Lower, Mode, Resolved};
use crate::diag::DResult;
use crate::frontend::canon::{self, canonical, Canonical};
use crate::frontend::conv::promote;
use crate::frontend::ctype::CType;
use crate::frontend::declare;
use crate::frontend::scope::{SymKind, Symbol};
use crate::ir::{
    CForm, Expr, ExprId, LocalId, Loop, LoopCmp, LoopHeader, Parallelism, Stmt, SwitchArm, Type,
};
use lang_c::ast::*;
use lang_c::span::{Node, Span};

impl Lower<'_> {
    /// Lowers one statement.
    pub fn stmt(&mut self, s: &Node<Statement>) -> DResult<()> {
        self.check_cache(s.span.start)?;
        let first = self.f.exprs.len();
        let r = match self.atomics.get(&s.span.start) {
            Some(spec) => self.atomic(&spec.clone(), s),
            None => self.stmt_plain(s),
        };
        self.locate_since(first, s.span);
        r
    }

    /// Gives the expressions added since arena index `first` that have no
    /// source position the position of the statement at `span` (its nested
    /// statements gave theirs first).
    fn locate_since(&mut self, first: usize, span: Span) {
        if self
            .f
            .expr_locs
            .get(first..)
            .is_some_and(|l| l.iter().any(Option::is_none))
        {
            let loc = self.sm.loc(span.start);
            self.f.locate_since(first, &loc);
        }
    }

    /// Lowers one item of a block.
    fn block_item(&mut self, item: &Node<BlockItem>) -> DResult<()> {
        match &item.node {
            BlockItem::Declaration(d) => {
                self.check_cache(item.span.start)?;
                let first = self.f.exprs.len();
                let r = self.declaration(d);
                self.locate_since(first, d.span);
                r
            }
            BlockItem::Statement(st) => self.stmt(st),
            BlockItem::StaticAssert(_) => Ok(()),
        }
    }

    /// Lowers a statement, not looking for an `atomic` directive on it.
    pub fn stmt_plain(&mut self, s: &Node<Statement>) -> DResult<()> {
        let span = s.span;
        match &s.node {
            Statement::Compound(items) => {
                self.push_scope();
                let r = items.iter().try_for_each(|item| self.block_item(item));
                self.pop_scope();
                r
            }
            Statement::Expression(Some(e)) => self.effect(e),
            Statement::Expression(None) => Ok(()),
            Statement::If(i) => {
                let cond = self.condition(&i.node.condition)?;
                let ((), then) = self.in_block(|l| l.stmt(&i.node.then_statement))?;
                let ((), otherwise) = match &i.node.else_statement {
                    Some(e) => self.in_block(|l| l.stmt(e))?,
                    None => ((), vec![]),
                };
                self.emit(Stmt::If {
                    cond,
                    then,
                    otherwise,
                    single: false,
                });
                Ok(())
            }
            Statement::For(f) => match self.loops.get(&span.start).cloned() {
                Some(spec) if spec.directive.is_some() || self.countable(&f.node) => {
                    self.counted_loop(&f.node, span, &spec)
                }
                _ => self.for_loop(&f.node),
            },
            Statement::While(w) => {
                let (cond, pre) = self.in_block(|l| l.condition(&w.node.expression))?;
                self.while_loop(cond, pre, &w.node.statement, vec![])
            }
            Statement::Break => {
                if self.break_depth == 0 {
                    return self.err(span, "'break' statement not in loop or switch statement");
                }
                self.emit(Stmt::Break);
                Ok(())
            }
            Statement::Continue => {
                if self.loop_depth == 0 {
                    return self.err(span, "'continue' statement not in loop statement");
                }
                self.emit(Stmt::Continue);
                Ok(())
            }
            Statement::Return(r) => self.return_stmt(r.as_deref(), span),
            Statement::Goto(_) | Statement::ComputedGoto(_) => {
                self.err(span, "'goto' is not supported in device code")
            }
            Statement::DoWhile(w) => {
                self.loop_depth += 1;
                self.break_depth += 1;
                let body = self.in_block(|l| l.stmt(&w.node.statement));
                self.loop_depth -= 1;
                let ((), body) = body?;
                // The test runs in the step (where `continue` goes); `break`
                // in the step leaves the loop.
                let test = self.in_block(|l| l.condition(&w.node.expression));
                self.break_depth -= 1;
                let (cond, mut step) = test?;
                let not = self.f.add(Expr::Unary { op: crate::ir::UnOp::Not, arg: cond }, Type::BOOL);
                step.push(Stmt::If { cond: not, then: vec![Stmt::Break], otherwise: vec![], single: false });
                let always = self.f.int(1, Type::BOOL);
                self.emit(Stmt::While { cond: always, body, step });
                Ok(())
            }
            Statement::Switch(sw) => self.switch(&sw.node, span),
            Statement::Labeled(l) => match &l.node.label.node {
                Label::Identifier(_) => self.err(span, "labels ('goto' targets) are not supported in device code"),
                _ => self.err(span, "a 'case' or 'default' label must be directly inside the body of its 'switch' in device code"),
            },
            Statement::Asm(_) => {
                self.err(span, "inline assembly is not supported in device code")
            }
        }
    }

    /// `return` in a device function (a compute region may not return).
    fn return_stmt(&mut self, r: Option<&Node<Expression>>, span: Span) -> DResult<()> {
        let Mode::Routine {
            ret, sret, name, ..
        } = self.mode.clone()
        else {
            return self.err(
                span,
                "a 'return' statement is not allowed in a compute region",
            );
        };
        match (r, &ret) {
            (None, CType::Void) => self.emit(Stmt::Return(None)),
            (None, _) => {
                return self.err(
                    span,
                    format!("non-void function '{name}' should return a value"),
                )
            }
            (Some(e), CType::Void) => {
                self.effect(e)?;
                self.emit(Stmt::Return(None));
            }
            (Some(e), t) if t.by_address() => {
                let (x, t) = self.rvalue(e)?;
                let x = if ret.is_complex() {
                    self.convert(x, &t, &ret, e.span)?
                } else {
                    x
                };
                if !ret.is_complex() && t != ret {
                    return self.err(
                        e.span,
                        format!(
                            "returning '{t}' from a function with incompatible result type '{ret}'"
                        ),
                    );
                }
                let Some(sret) = sret else {
                    return self.err(
                        span,
                        "internal error: struct result without a result pointer",
                    );
                };
                let dst = self.f.read(sret);
                // The result pointer is the caller's private temporary.
                let s = Stmt::Copy {
                    dst,
                    src: x,
                    bytes: ret.size().unwrap_or(0),
                };
                self.emit(s);
                self.emit(Stmt::Return(None));
            }
            (Some(e), t) => {
                let v = self.rvalue_as(e, t)?;
                self.emit(Stmt::Return(Some(v)));
            }
        }
        Ok(())
    }

    /// `switch`: its body's top-level `case`/`default` labels split it into
    /// arms that fall through into each other.
    fn switch(&mut self, sw: &SwitchStatement, span: Span) -> DResult<()> {
        let (x, t) = self.rvalue(&sw.expression)?;
        if !t.is_integer() {
            return self.err(
                sw.expression.span,
                format!("statement requires expression of integer type ('{t}' invalid)"),
            );
        }
        let pt = promote(&t);
        let value = self.convert(x, &t, &pt, sw.expression.span)?;
        let kind = match pt.to_ir() {
            Some(Type::Int(k)) => k,
            _ => return self.err(span, "internal error: switch on a non-integer"),
        };
        // The body's items (a body that is not a block is one statement).
        let one = [Item::Stmt(&sw.statement)];
        let items: Vec<Item> = match &sw.statement.node {
            Statement::Compound(items) => items
                .iter()
                .filter_map(|i| match &i.node {
                    BlockItem::Declaration(d) => Some(Item::Decl(d)),
                    BlockItem::Statement(s) => Some(Item::Stmt(s)),
                    BlockItem::StaticAssert(_) => None,
                })
                .collect(),
            _ => one.to_vec(),
        };
        self.push_scope();
        self.break_depth += 1;
        let r = (|| {
            let mut arms: Vec<SwitchArm> = vec![];
            let mut seen = std::collections::HashSet::new();
            for item in items {
                let mut st = match item {
                    Item::Decl(d) => {
                        let ((), b) = self.in_block(|l| l.declaration(d))?;
                        // Declarations before the first label: in scope, never run.
                        if let Some(a) = arms.last_mut() {
                            a.body.extend(b);
                        }
                        continue;
                    }
                    Item::Stmt(st) => st,
                };
                // Peel the labels of this statement: each starts a new arm.
                let mut labels = vec![];
                while let Statement::Labeled(l) = &st.node {
                    match &l.node.label.node {
                        Label::Identifier(_) => break,
                        lab => labels.push((lab.clone(), l.node.label.span)),
                    }
                    st = &l.node.statement;
                }
                if !labels.is_empty() {
                    let mut arm = SwitchArm {
                        values: vec![],
                        default: false,
                        body: vec![],
                    };
                    for (lab, lspan) in labels {
                        match lab {
                            Label::Case(e) => {
                                let v = declare::const_int(&e, self.host, self.sm)?;
                                let v = declare::wrap(v, kind);
                                if !seen.insert(v) {
                                    return self.err(lspan, format!("duplicate case value '{v}'"));
                                }
                                arm.values.push(v);
                            }
                            Label::Default => {
                                if arms.iter().any(|a| a.default) || arm.default {
                                    return self
                                        .err(lspan, "multiple default labels in one switch");
                                }
                                arm.default = true;
                            }
                            Label::CaseRange(_) => {
                                return self
                                    .err(lspan, "case ranges are not supported in device code")
                            }
                            Label::Identifier(_) => {}
                        }
                    }
                    arms.push(arm);
                }
                let ((), b) = self.in_block(|l| l.stmt(st))?;
                if let Some(a) = arms.last_mut() {
                    a.body.extend(b);
                }
                // Statements before the first label are never run.
            }
            Ok(arms)
        })();
        self.break_depth -= 1;
        self.pop_scope();
        let arms = r?;
        self.emit(Stmt::Switch { value, arms });
        Ok(())
    }

    /// A declaration inside the body: thread-private locals (and local
    /// typedefs, tags and prototypes).
    pub fn declaration(&mut self, d: &Node<Declaration>) -> DResult<()> {
        let specs = &d.node.specifiers;
        for s in specs {
            if let DeclarationSpecifier::StorageClass(sc) = &s.node {
                if !matches!(
                    sc.node,
                    StorageClassSpecifier::Auto
                        | StorageClassSpecifier::Register
                        | StorageClassSpecifier::Typedef
                ) {
                    return self.err(
                        sc.span,
                        "only automatic variables may be declared in device code (a 'static' or 'extern' local is not supported)",
                    );
                }
            }
        }
        let typedef = specs.iter().any(|s| {
            matches!(&s.node, DeclarationSpecifier::StorageClass(c) if c.node == StorageClassSpecifier::Typedef)
        });
        let base = self.declared_base(d)?;
        for id in &d.node.declarators {
            let (name, ty) =
                declare::apply_declarator(base.clone(), &id.node.declarator, self.host, self.sm)?;
            let Some(name) = name else { continue };
            if typedef || matches!(ty, CType::Function(_)) {
                // A local typedef or prototype: visible from here on.
                let kind = if typedef {
                    SymKind::Typedef
                } else {
                    SymKind::Function
                };
                self.host.insert(Symbol {
                    name: name.node.name.clone(),
                    ty,
                    kind,
                    readonly: false,
                    restrict: false,
                });
                continue;
            }
            if ty.runtime_sized() {
                return self.err(
                    name.span,
                    format!(
                        "variable-length array '{}' is not supported in device code",
                        name.node.name
                    ),
                );
            }
            let ty = self.complete_array(ty, id.node.initializer.as_ref(), name.span)?;
            // The initialiser is evaluated before the name is in scope, into
            // a fresh local that the name then denotes.
            let irty = match self.ir_type(&ty, name.span) {
                Ok(t) => t,
                Err(_) if !matches!(ty, CType::Struct(_)) => {
                    return self.err(
                        name.span,
                        format!(
                            "variable '{}' of type '{ty}' is not supported in device code",
                            name.node.name
                        ),
                    )
                }
                Err(e) => return Err(e),
            };
            let local = self.f.new_local(&name.node.name, irty);
            if let Some(init) = &id.node.initializer {
                self.init_local(local, &ty, init)?;
            }
            self.bind(&name.node.name, Binding::Local(local), ty);
        }
        Ok(())
    }

    /// A C `for` loop with no loop directive: a sequential loop with C semantics.
    fn for_loop(&mut self, f: &ForStatement) -> DResult<()> {
        self.push_scope();
        let r = (|| {
            match &f.initializer.node {
                ForInitializer::Empty | ForInitializer::StaticAssert(_) => {}
                ForInitializer::Expression(e) => self.effect(e)?,
                ForInitializer::Declaration(d) => self.declaration(d)?,
            }
            let (cond, pre, step) = self.test_and_step(f)?;
            self.while_loop(cond, pre, &f.statement, step)
        })();
        self.pop_scope();
        r
    }

    /// The condition of `for` loop `f` (with the statements its side
    /// effects need first) and its step, as C evaluates them.
    fn test_and_step(&mut self, f: &ForStatement) -> DResult<(ExprId, Vec<Stmt>, Vec<Stmt>)> {
        let (cond, pre) = match &f.condition {
            Some(c) => self.in_block(|l| l.condition(c))?,
            None => (self.f.int(1, Type::BOOL), vec![]),
        };
        let ((), step) = match &f.step {
            Some(s) => self.in_block(|l| l.effect(s))?,
            None => ((), vec![]),
        };
        Ok((cond, pre, step))
    }

    /// `while (pre; cond) { body } step`.
    fn while_loop(
        &mut self,
        cond: ExprId,
        pre: Vec<Stmt>,
        body: &Node<Statement>,
        step: Vec<Stmt>,
    ) -> DResult<()> {
        self.loop_depth += 1;
        self.break_depth += 1;
        let top = super::cache::Top::Plain(super::cache::top_of(body));
        let r = self.cache_at(top, |l| l.in_block(|l| l.stmt(body)));
        self.loop_depth -= 1;
        self.break_depth -= 1;
        let ((), b) = r?;
        let (cond, mut top) = self.while_head(cond, pre);
        top.extend(b);
        self.emit(Stmt::While {
            cond,
            body: top,
            step,
        });
        Ok(())
    }

    /// The condition of a `while` whose test is `pre; cond`, and what its
    /// body starts with: a condition with side effects is tested at the
    /// top of the body (the loop's own condition then always true).
    fn while_head(&mut self, cond: ExprId, pre: Vec<Stmt>) -> (ExprId, Vec<Stmt>) {
        if pre.is_empty() {
            return (cond, vec![]);
        }
        let not = self.f.add(
            Expr::Unary {
                op: crate::ir::UnOp::Not,
                arg: cond,
            },
            Type::BOOL,
        );
        let mut top = pre;
        top.push(Stmt::If {
            cond: not,
            then: vec![Stmt::Break],
            otherwise: vec![],
            single: false,
        });
        (self.f.int(1, Type::BOOL), top)
    }

    /// The C form of `for` loop `f` (without its body): its
    /// initialisation (`decl`: of the variable the loop declares, of C
    /// type `ty`), condition and step, as [`Lower::for_loop`] lowers them.
    fn c_form(&mut self, f: &ForStatement, decl: Option<(LocalId, &CType)>) -> DResult<CForm> {
        let ((), init) = self.in_block(|l| match (&f.initializer.node, decl) {
            (ForInitializer::Expression(e), _) => l.effect(e),
            (ForInitializer::Declaration(d), Some((var, ty))) => {
                match d
                    .node
                    .declarators
                    .first()
                    .and_then(|x| x.node.initializer.as_ref())
                {
                    Some(init) => l.init_local(var, ty, init),
                    None => Ok(()),
                }
            }
            _ => Ok(()),
        })?;
        let (cond, pre, step) = self.test_and_step(f)?;
        let (cond, head) = self.while_head(cond, pre);
        Ok(CForm {
            init,
            cond,
            head,
            step,
            own: vec![],
            counted: vec![],
        })
    }

    /// The locals made since there were `from`, but the parameters.
    fn temps(&self, from: usize) -> Vec<LocalId> {
        (from..self.f.locals.len())
            .map(|i| LocalId(i as u32))
            .filter(|l| !self.params.iter().any(|p| p.local == *l))
            .collect()
    }

    /// Whether plain `for` loop `f` (of a `kernels` construct) can be a
    /// counted loop: canonical, with a variable of integer type.
    fn countable(&mut self, f: &ForStatement) -> bool {
        let Ok(c) = canonical(f) else { return false };
        let ty = match c.decl {
            Some(d) => {
                let specs = declare::type_specifiers(&d.node.specifiers);
                let base = declare::base_type(&specs, self.host, self.sm).ok();
                match (base, d.node.declarators.first()) {
                    (Some(base), Some(id)) => {
                        declare::apply_declarator(base, &id.node.declarator, self.host, self.sm)
                            .ok()
                            .map(|x| x.1)
                    }
                    (base, _) => base,
                }
            }
            None => self.var_type(c.var),
        };
        ty.is_some_and(|t| t.is_integer())
    }

    /// A `for` loop with a loop directive: it must be in canonical form.
    fn counted_loop(
        &mut self,
        f: &ForStatement,
        span: Span,
        spec: &crate::frontend::lower::LoopSpec,
    ) -> DResult<()> {
        self.push_scope();
        let r = self.counted_parts(f, span, spec);
        self.pop_scope();
        r
    }

    /// The canonical form of `f`, or the error saying what is wrong.
    fn canonical_or_err<'f>(&self, f: &'f ForStatement, span: Span) -> DResult<Canonical<'f>> {
        canonical(f).or_else(|what| {
            self.err(
                span,
                format!("the loop after an OpenACC loop directive must be in canonical form ('for (i = lb; i < ub; i += step)'): {what}"),
            )
        })
    }

    /// A counted loop's header: its variable (declared by the loop, or
    /// declared outside: then private to the loop, a fresh local of the
    /// same type, in the current scope) and its bounds, evaluated here.
    /// (`own`: the variable the loop uses instead, a plain `for` loop's
    /// declared outside it, which it never makes private.)
    fn header(&mut self, c: &Canonical, span: Span, own: Option<LocalId>) -> DResult<LoopHeader> {
        let ty = match c.decl {
            Some(d) => {
                let base = declare::base_type(
                    &declare::type_specifiers(&d.node.specifiers),
                    self.host,
                    self.sm,
                )?;
                match d.node.declarators.first() {
                    Some(id) => {
                        declare::apply_declarator(base, &id.node.declarator, self.host, self.sm)?.1
                    }
                    None => base,
                }
            }
            None => match self.resolve(c.var, span)? {
                Resolved::Local(Binding::Local(_), t) => t,
                Resolved::Param(i) => self.vars[i].ty.clone(),
                _ => return self.err(span, format!("'{}' is not a variable", c.var)),
            },
        };
        if !ty.is_integer() {
            return self.err(
                span,
                format!(
                    "the loop variable '{}' must have integer type, not '{ty}'",
                    c.var
                ),
            );
        }
        let init = self.rvalue_as(c.init, &ty)?;
        let var = match own {
            Some(v) => v,
            None => self.declare_local(c.var, ty.clone(), span)?,
        };
        let limit = self.rvalue_as(c.limit, &ty)?;
        let irty = ty.to_ir().unwrap_or(Type::I32);
        let mut step = match c.step {
            Some(e) => {
                // A constant step must move the variable toward the bound.
                if let Ok(v) = declare::const_int(e, self.host, self.sm) {
                    let v = if c.negate { -v } else { v };
                    if v == 0 || (v > 0) != matches!(c.cmp, LoopCmp::Lt | LoopCmp::Le) {
                        return self.err(
                            e.span,
                            "the loop step does not move the loop variable toward its bound",
                        );
                    }
                }
                self.rvalue_as(e, &ty)?
            }
            None => self.f.int(1, irty.clone()),
        };
        if c.negate {
            step = self.f.add(
                Expr::Unary {
                    op: crate::ir::UnOp::Neg,
                    arg: step,
                },
                irty,
            );
        }
        Ok(LoopHeader {
            var,
            init,
            cmp: c.cmp,
            limit,
            step,
        })
    }

    fn counted_parts(
        &mut self,
        f: &ForStatement,
        span: Span,
        spec: &crate::frontend::lower::LoopSpec,
    ) -> DResult<()> {
        let c = self.canonical_or_err(f, span)?;
        // A plain `for` of a `kernels` construct keeps its C form too (run
        // if it stays sequential). Its own variable is declared by the
        // counted header; one declared outside is the C form's, the
        // counted header's then never partitioned (lowered after the C
        // form, in the order C evaluates it).
        let (head, c_form) = match (spec.directive, c.decl) {
            (Some(_), _) => (self.header(&c, span, None)?, None),
            (None, Some(_)) => {
                let n0 = self.f.locals.len();
                let head = self.header(&c, span, None)?;
                let n1 = self.f.locals.len();
                let ty = self.var_type(c.var).unwrap_or(CType::INT);
                let mut form = self.c_form(f, Some((head.var, &ty)))?;
                form.own = self.temps(n1);
                form.counted = self.temps(n0);
                form.counted
                    .retain(|l| *l != head.var && !form.own.contains(l));
                (head, Some(form))
            }
            (None, None) => {
                let n0 = self.f.locals.len();
                let mut form = self.c_form(f, None)?;
                let n1 = self.f.locals.len();
                let own = match self.resolve(c.var, span)? {
                    Resolved::Local(Binding::Local(l), _) => l,
                    _ => {
                        let ty = self.var_type(c.var).and_then(|t| t.to_ir());
                        self.f.new_local(c.var, ty.unwrap_or(Type::I32))
                    }
                };
                if let Some(u) = &mut self.f.undecided {
                    u.outside.push(spec.loc.clone());
                }
                let head = self.header(&c, span, Some(own))?;
                form.counted = self.temps(n1);
                form.own = self.temps(n0);
                form.own.retain(|l| !form.counted.contains(l));
                (head, Some(form))
            }
        };
        if let Some(u) = &mut self.f.undecided {
            if spec.collapse_force {
                u.forced.push(spec.loc.clone());
            }
            if spec.loose {
                u.loose.push(spec.loc.clone());
            }
        }
        // collapse(n): the n - 1 loops nested in this one (with force:,
        // the code around them runs in every iteration, in order).
        let mut collapsed = vec![];
        let mut body: &Node<Statement> = &f.statement;
        let (mut before, mut after) = (vec![], vec![]);
        for _ in 1..spec.collapse {
            let next = canon::next_in_nest(body, spec.collapse_force)
                .or_else(|why| self.err(body.span, why))?;
            before.extend(next.before);
            after.splice(0..0, next.after.iter());
            let inner = next.inner;
            let ic = self.canonical_or_err(&inner.node, inner.span)?;
            let h = self.header(&ic, inner.span, None)?;
            // Rectangular: the bounds may not use the outer indices.
            let mut used = vec![];
            for e in [h.init, h.limit, h.step] {
                self.f.locals_read(e, &mut used);
            }
            let outer_vars: Vec<_> = std::iter::once(head.var)
                .chain(collapsed.iter().map(|h: &LoopHeader| h.var))
                .collect();
            if used.iter().any(|l| outer_vars.contains(l)) {
                return self.err(inner.span, "the loops of 'collapse' must be rectangular: the bounds of an inner loop may not use an outer loop's variable");
            }
            collapsed.push(h);
            body = &inner.node.statement;
        }
        // The body sees each reduction variable's private copy.
        let elems = self.elem_reds.len();
        let mut reductions = vec![];
        for r in &spec.reductions {
            let red = self.reduction(r)?;
            if let Some(u) = &mut self.f.undecided {
                u.named.push(crate::ir::Named {
                    private: red.private,
                    var: r.var.clone(),
                    written: r.written(),
                    loc: r.loc.clone(),
                });
            }
            reductions.push(red);
        }
        self.privates(&spec.privates)?;
        let saved = (self.loop_depth, self.break_depth);
        // break may not leave a partitioned (or collapsed) loop: the
        // validator reports it (its level checks); continue ends this
        // iteration of any loop (the scheduled loop's step advances to the
        // thread's next iteration).
        (self.loop_depth, self.break_depth) = (saved.0 + 1, saved.1 + 1);
        let top = super::cache::top_of(body);
        let lowered = self.cache_at(super::cache::Top::Counted(top), |l| {
            l.in_block(|l| Self::counted_body(l, body, &before, &after))
        });
        (self.loop_depth, self.break_depth) = saved;
        self.elem_reds.truncate(elems);
        let ((), body) = lowered?;
        let cache = self.cache_vars(top)?;
        self.emit(Stmt::Loop(Loop {
            var: head.var,
            init: head.init,
            cmp: head.cmp,
            limit: head.limit,
            step: head.step,
            collapsed,
            tile: spec.tile.clone(),
            chunk: spec.chunk,
            body,
            par: Parallelism::Seq,
            reductions,
            loc: spec.loc.clone(),
            sizes: Some(Box::new(spec.sizes.clone())),
            directive: spec.directive,
            c_form: c_form.map(Box::new),
            cache,
        }));
        Ok(())
    }

    /// A counted loop's body: `body`, with the statements a forced
    /// collapse runs around it.
    fn counted_body(
        l: &mut Self,
        body: &Node<Statement>,
        before: &[&Node<BlockItem>],
        after: &[&Node<BlockItem>],
    ) -> DResult<()> {
        if before.is_empty() && after.is_empty() {
            return l.stmt(body);
        }
        l.push_scope();
        let r = (|| {
            for item in before {
                l.block_item(item)?;
            }
            l.stmt(body)?;
            for item in after {
                l.block_item(item)?;
            }
            Ok(())
        })();
        l.pop_scope();
        r
    }
}

/// An item of a `switch` body.
#[derive(Clone, Copy)]
enum Item<'b> {
    Decl(&'b Node<Declaration>),
    Stmt(&'b Node<Statement>),
}
