//! Constructs: dispatches each directive attached to a statement to its
//! handler — a `data` construct becomes a host data region, a compute
//! construct is outlined (`compute`), standalone directives run where
//! their line is — and splits a `kernels` construct's block into the
//! segments that become kernels of their own.
//!
//! Owns: `Walker::construct`, `Walker::kernels_segments`,
//! `Walker::not_yet`. May call: `compute`, `data`, `ir`; the walk's owners
//! (`parsed`, `output`, `place`) through their methods.

use super::unit::Walker;
use crate::diag::{DResult, Diagnostics};
use crate::directive::{Clause, DirectiveKind};
use lang_c::ast::*;
use lang_c::span::Node;

impl Walker<'_> {
    pub(super) fn not_yet<T>(&self, p: usize, c: &Clause, on: &str) -> DResult<T> {
        self.clause_err(
            p,
            c,
            format!(
                "the '{}' clause on '{on}' is not supported yet",
                c.name().as_str()
            ),
        )
    }

    /// Handles directive `p` attached to `s` (with `rest` attached after it).
    pub fn construct(&mut self, p: usize, rest: &[usize], s: &Node<Statement>) {
        let d = &self.unit.dirs[p];
        let r = match d.kind {
            DirectiveKind::Data => self.data(p, rest, s),
            DirectiveKind::Parallel
            | DirectiveKind::Kernels
            | DirectiveKind::Serial
            | DirectiveKind::ParallelLoop
            | DirectiveKind::KernelsLoop
            | DirectiveKind::SerialLoop => self.compute(p, rest, s),
            DirectiveKind::HostData => self.host_data(p, rest, s),
            DirectiveKind::EnterData
            | DirectiveKind::ExitData
            | DirectiveKind::Update
            | DirectiveKind::Wait(_)
            | DirectiveKind::Declare
            | DirectiveKind::Init
            | DirectiveKind::Shutdown
            | DirectiveKind::Set => {
                // Standalone: runs where its line is, before the statement.
                self.standalone(p);
                self.stmt_with(s, rest);
                Ok(())
            }
            DirectiveKind::Routine(_) => Err(Diagnostics::one(
                Some(self.unit.pragma_loc(p, d.kind_span.start)),
                "'#pragma acc routine' without a name must be followed by a function declaration or definition",
            )),
            // Its host version is made for the whole file at the end
            // (`atomic_host_versions`); in a routine, the device version is
            // the routine's.
            DirectiveKind::Atomic(_) => {
                self.stmt_with(s, rest);
                Ok(())
            }
            // A hint for device loops: in a routine, its device version's
            // (lowering); in host code, nothing to cache.
            DirectiveKind::Cache { ref vars, .. } => {
                if !self.place.in_routine() {
                    for v in vars {
                        let at = self.unit.pragma_loc(p, v.span.start);
                        let why = format!(
                            "'{}' is not cached: the 'cache' directive is not in a compute construct",
                            v.text
                        );
                        self.out.remark(at, why.into());
                    }
                }
                self.stmt_with(s, rest);
                Ok(())
            }
            // In a routine, loop directives belong to its device version.
            DirectiveKind::Loop if self.place.in_routine() => {
                self.stmt_with(s, rest);
                Ok(())
            }
            DirectiveKind::Loop => Err(Diagnostics::one(
                Some(self.unit.pragma_loc(p, d.kind_span.start)),
                "a 'loop' directive outside a compute construct (orphaned loop) is not supported yet",
            )),
        };
        self.out.report(r);
    }

    /// The parts of a kernels construct's block that become kernels of
    /// their own: each statement holding a loop, and each run of other
    /// statements between them. One part (the whole) when the block
    /// declares something (later parts would need it) or holds fewer than
    /// two loops.
    pub(super) fn kernels_segments<'s>(&self, s: &'s Node<Statement>) -> Vec<&'s Node<Statement>> {
        let Statement::Compound(items) = &s.node else {
            return vec![s];
        };
        let mut stmts = vec![];
        for item in items {
            match &item.node {
                BlockItem::Statement(st) => stmts.push(st),
                _ => return vec![s],
            }
        }
        let has_loop = |st: &Node<Statement>| {
            struct F(bool);
            impl<'ast> lang_c::visit::Visit<'ast> for F {
                fn visit_for_statement(
                    &mut self,
                    _: &'ast ForStatement,
                    _: &'ast lang_c::span::Span,
                ) {
                    self.0 = true;
                }
            }
            let mut f = F(false);
            lang_c::visit::Visit::visit_statement(&mut f, &st.node, &st.span);
            f.0
        };
        if stmts.iter().filter(|st| has_loop(st)).count() < 2 {
            return vec![s];
        }
        // Each statement is a segment of its own (runs of plain statements
        // would need a node spanning them; one small kernel each is correct).
        stmts
    }
}
