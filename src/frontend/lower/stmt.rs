//! Statement lowering: C statements of a region → IR statements; `for`
//! statements with a loop directive become counted [`Loop`]s.
//!
//! Owns: the methods of `Lower` that lower statements and declarations, and
//! the recognition of the canonical loop form OpenACC requires
//! (`for (i = lb; i <op> ub; i += step)`).

use super::{Lower, Resolved};
use crate::diag::DResult;
use crate::frontend::canon::{canonical, Canonical};
use crate::frontend::ctype::CType;
use crate::frontend::declare;
use crate::ir::{Expr, ExprId, Loop, LoopCmp, Parallelism, Special, Stmt, Type};
use lang_c::ast::*;
use lang_c::span::{Node, Span};

impl Lower<'_> {
    /// Lowers one statement.
    pub fn stmt(&mut self, s: &Node<Statement>) -> DResult<()> {
        let span = s.span;
        match &s.node {
            Statement::Compound(items) => {
                self.push_scope();
                let r = items.iter().try_for_each(|item| match &item.node {
                    BlockItem::Declaration(d) => self.declaration(d),
                    BlockItem::Statement(st) => self.stmt(st),
                    BlockItem::StaticAssert(_) => Ok(()),
                });
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
                });
                Ok(())
            }
            Statement::For(f) => match self.loops.get(&span.start).cloned() {
                Some(spec) => self.counted_loop(&f.node, span, spec.par, spec.loc),
                None => self.for_loop(&f.node),
            },
            Statement::While(w) => {
                let (cond, pre) = self.in_block(|l| l.condition(&w.node.expression))?;
                self.while_loop(cond, pre, &w.node.statement, vec![])
            }
            Statement::Break | Statement::Continue => {
                if self.loop_depth == 0 {
                    let what = if matches!(s.node, Statement::Break) {
                        "break"
                    } else {
                        "continue"
                    };
                    return self.err(span, format!("'{what}' statement not in loop statement"));
                }
                self.emit(if matches!(s.node, Statement::Break) {
                    Stmt::Break
                } else {
                    Stmt::Continue
                });
                Ok(())
            }
            Statement::Return(_) => self.err(
                span,
                "a 'return' statement is not allowed in a compute region",
            ),
            Statement::Goto(_) => self.err(span, "'goto' is not allowed in a compute region"),
            Statement::DoWhile(_) => {
                self.err(span, "'do' loops in compute regions are not supported yet")
            }
            Statement::Switch(_) => {
                self.err(span, "'switch' in compute regions is not supported yet")
            }
            Statement::Labeled(_) => {
                self.err(span, "labels in compute regions are not supported yet")
            }
            Statement::Asm(_) => {
                self.err(span, "inline assembly is not allowed in a compute region")
            }
        }
    }

    /// A declaration inside the region: thread-private locals.
    fn declaration(&mut self, d: &Node<Declaration>) -> DResult<()> {
        let specs = &d.node.specifiers;
        for s in specs {
            if let DeclarationSpecifier::StorageClass(sc) = &s.node {
                if !matches!(
                    sc.node,
                    StorageClassSpecifier::Auto | StorageClassSpecifier::Register
                ) {
                    return self.err(
                        sc.span,
                        "only automatic variables may be declared in a compute region",
                    );
                }
            }
        }
        let base = declare::base_type(&declare::type_specifiers(specs), self.host, self.sm)?;
        for id in &d.node.declarators {
            let (name, ty) =
                declare::apply_declarator(base.clone(), &id.node.declarator, self.host, self.sm)?;
            let Some(name) = name else { continue };
            if let CType::Array(_, None) = ty {
                return self.err(
                    name.span,
                    format!(
                        "variable-length array '{}' is not allowed in a compute region",
                        name.node.name
                    ),
                );
            }
            // The initialiser is evaluated before the name is in scope.
            let init = match &id.node.initializer {
                Some(init) => match &init.node {
                    Initializer::Expression(e) => Some(self.rvalue_as(e, &ty)?),
                    Initializer::List(_) => {
                        return self.err(
                            init.span,
                            "initializer lists in compute regions are not supported yet",
                        )
                    }
                },
                None => None,
            };
            let local = self.declare_local(&name.node.name, ty, name.span)?;
            if let Some(v) = init {
                self.emit(Stmt::Assign { local, value: v });
            }
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
            let (cond, pre) = match &f.condition {
                Some(c) => self.in_block(|l| l.condition(c))?,
                None => (self.f.int(1, Type::BOOL), vec![]),
            };
            let ((), step) = match &f.step {
                Some(s) => self.in_block(|l| l.effect(s))?,
                None => ((), vec![]),
            };
            self.while_loop(cond, pre, &f.statement, step)
        })();
        self.pop_scope();
        r
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
        let r = self.in_block(|l| l.stmt(body));
        self.loop_depth -= 1;
        let ((), mut b) = r?;
        if pre.is_empty() {
            self.emit(Stmt::While {
                cond,
                body: b,
                step,
            });
        } else {
            // The condition has side effects: test it at the top of the body.
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
            });
            top.append(&mut b);
            let always = self.f.int(1, Type::BOOL);
            self.emit(Stmt::While {
                cond: always,
                body: top,
                step,
            });
        }
        Ok(())
    }

    /// A `for` loop with a loop directive: it must be in canonical form.
    fn counted_loop(
        &mut self,
        f: &ForStatement,
        span: Span,
        par: Parallelism,
        loc: crate::ir::SrcLoc,
    ) -> DResult<()> {
        let c = match canonical(f) {
            Ok(c) => c,
            Err(what) => {
                return self.err(
                    span,
                    format!("the loop after an OpenACC loop directive must be in canonical form ('for (i = lb; i < ub; i += step)'): {what}"),
                )
            }
        };
        self.push_scope();
        let r = self.counted_parts(&c, f, span, par, loc);
        self.pop_scope();
        r
    }

    fn counted_parts(
        &mut self,
        c: &Canonical,
        f: &ForStatement,
        span: Span,
        par: Parallelism,
        loc: crate::ir::SrcLoc,
    ) -> DResult<()> {
        // The loop variable: declared by the loop, or declared outside (then
        // it is private to the loop: a fresh local of the same type).
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
                Resolved::Local(_, t) => t,
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
        let var = self.declare_local(c.var, ty.clone(), span)?;
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
        let saved = (self.in_vector, self.in_worker, self.loop_depth);
        self.in_vector |= matches!(par, Parallelism::Par { vector: true, .. });
        self.in_worker |= matches!(par, Parallelism::Par { worker: true, .. });
        // break may not leave a parallel loop.
        self.loop_depth = if matches!(par, Parallelism::Seq) {
            saved.2 + 1
        } else {
            0
        };
        let body = self.in_block(|l| l.stmt(&f.statement));
        (self.in_vector, self.in_worker, self.loop_depth) = saved;
        let ((), body) = body?;
        self.emit(Stmt::Loop(Loop {
            var,
            init,
            cmp: c.cmp,
            limit,
            step,
            body,
            par,
            loc,
        }));
        Ok(())
    }

    /// A store to device memory. Outside vector (worker) loops every lane
    /// (worker) of a gang executes the same statements; only lane 0 of
    /// worker 0 stores, so read-modify-writes happen once per gang.
    pub fn store(&mut self, ptr: ExprId, value: ExprId) {
        let store = Stmt::Store { ptr, value };
        if self.in_vector && self.in_worker {
            self.emit(store);
            return;
        }
        let mut conds = vec![];
        if !self.in_vector {
            conds.push(Special::ThreadIdx(0));
        }
        if !self.in_worker {
            conds.push(Special::ThreadIdx(1));
        }
        let mut cond: Option<ExprId> = None;
        for s in conds {
            let r = self
                .f
                .add(Expr::Special(s), Type::Int(crate::ir::IntKind::U32));
            let z = self.f.int(0, Type::Int(crate::ir::IntKind::U32));
            let c = self.f.add(
                Expr::Cmp {
                    op: crate::ir::CmpOp::Eq,
                    lhs: r,
                    rhs: z,
                },
                Type::BOOL,
            );
            cond = Some(match cond {
                None => c,
                Some(p) => self.f.add(
                    Expr::Logical {
                        and: true,
                        lhs: p,
                        rhs: c,
                    },
                    Type::BOOL,
                ),
            });
        }
        match cond {
            Some(cond) => self.emit(Stmt::If {
                cond,
                then: vec![store],
                otherwise: vec![],
            }),
            None => self.emit(store),
        }
    }
}
