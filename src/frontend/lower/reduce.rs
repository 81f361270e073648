//! Reductions in lowering: a `reduction` variable's target (the variable
//! outside the loop: a local of the body, or a host variable in device
//! memory) and its private copy, which the loop body sees instead.
//!
//! Owns: `Lower::reduction` (one variable of a loop's clause) and
//! `Lower::region_reductions` (the clause of a `parallel` or `serial`
//! construct: the whole region, once per gang, becomes a gang loop whose
//! reduction combines the gangs). Which combinations the schedule can
//! combine is checked here, at the clause.

use super::{Binding, LoopReduction, Lower, Mode, Resolved};
use crate::diag::{DResult, Diagnostics};
use crate::ir::{
    reducible, Expr, IntKind, Loop, LoopCmp, Parallelism, RedTarget, Reduction, Special, Stmt, Type,
};
use lang_c::ast::Statement;
use lang_c::span::{Node, Span};

impl Lower<'_> {
    fn red_err<T>(r: &LoopReduction, msg: String) -> DResult<T> {
        Err(Diagnostics::one(Some(r.loc.clone()), msg))
    }

    /// Resolves reduction variable `r` of a loop with parallelism `par`
    /// (in the scope around the loop) and declares its private copy in the
    /// current scope.
    pub(super) fn reduction(&mut self, r: &LoopReduction, par: Parallelism) -> DResult<Reduction> {
        let resolved = match self.resolve(&r.var, Span::none()) {
            Ok(x) => x,
            Err(_) => return Self::red_err(r, format!("use of undeclared identifier '{}'", r.var)),
        };
        let (target, cty) = match resolved {
            Resolved::Local(Binding::Local(id), t) => (RedTarget::Local(id), t),
            Resolved::Param(i) => {
                let local = self.params[i].local;
                let t = self.vars[i].ty.clone();
                if self.vars[i].by_ref {
                    self.mark_written(i);
                    (RedTarget::Memory(self.f.read(local)), t)
                } else {
                    (RedTarget::Local(local), t)
                }
            }
            Resolved::Global(p, t) => (RedTarget::Memory(p), t),
            _ => {
                return Self::red_err(
                    r,
                    format!("'{}' in a reduction clause is not a variable", r.var),
                )
            }
        };
        if !cty.is_arithmetic() {
            return Self::red_err(
                r,
                format!("reduction variable '{}' has type '{cty}'; only arithmetic scalars can be reduced", r.var),
            );
        }
        let ty = match cty.to_ir() {
            Some(t) if reducible(&t) => t,
            _ => {
                return Self::red_err(
                    r,
                    format!(
                        "reduction variable '{}' of type '{cty}' is not supported",
                        r.var
                    ),
                )
            }
        };
        if !r.op.applies_to(&ty) {
            return Self::red_err(
                r,
                format!(
                    "reduction operator '{}' cannot be applied to '{}' of type '{cty}'",
                    r.op.symbol(),
                    r.var
                ),
            );
        }
        // What the schedule can combine (see schedule::reduce).
        let (gang, worker, vector) = match par {
            Parallelism::Seq => (false, false, None),
            Parallelism::Par {
                gang,
                worker,
                vector,
            } => (gang.is_some(), worker, vector),
        };
        let enclosed = self.inside.block.iter().any(|d| *d);
        if enclosed && (worker || vector.is_some_and(|d| d > 0)) {
            return Self::red_err(
                r,
                format!("reduction of '{}' across workers (or across vector lanes on block y or z) inside a loop partitioned over threads is not supported", r.var),
            );
        }
        if gang && matches!(target, RedTarget::Memory(_)) {
            if matches!(self.mode, Mode::Routine { .. }) {
                return Self::red_err(
                    r,
                    format!(
                        "reduction of '{}' across gangs in a routine is not supported",
                        r.var
                    ),
                );
            }
            if self.inside.gang || self.inside.worker || self.inside.vector || self.loop_depth > 0 {
                return Self::red_err(
                    r,
                    format!("reduction of '{}' across gangs inside another loop of the region is not supported (put the reduction on the outermost loop)", r.var),
                );
            }
        }
        let private = self.declare_local(&r.var, cty, Span::none())?;
        Ok(Reduction {
            op: r.op,
            private,
            target,
        })
    }

    /// Lowers region body `s` of a construct with `private`/`firstprivate`
    /// variables `privs` and `reduction` variables `reds`: with reductions
    /// the body runs once per gang as the body of a loop over the gangs
    /// (`for (g = 0; g < gridDim.x; g++)`, shared among gangs) whose
    /// reductions combine the gangs' private copies.
    pub fn region(
        &mut self,
        s: &Node<Statement>,
        reds: &[LoopReduction],
        privs: &[super::Private],
    ) -> DResult<()> {
        let gang = Parallelism::Par {
            gang: Some(0),
            worker: false,
            vector: None,
        };
        self.push_scope();
        let r = (|| {
            self.privates(privs)?;
            if reds.is_empty() {
                return self.stmt(s);
            }
            let mut reductions = vec![];
            for r in reds {
                reductions.push(self.reduction(r, gang)?);
            }
            let u32t = Type::Int(IntKind::U32);
            let var = self.f.new_local("gang", u32t.clone());
            let init = self.f.int(0, u32t.clone());
            let limit = self.f.add(Expr::Special(Special::GridDim(0)), u32t.clone());
            let step = self.f.int(1, u32t);
            let ((), body) = self.in_block(|l| l.stmt(s))?;
            self.emit(Stmt::Loop(Loop {
                var,
                init,
                cmp: LoopCmp::Lt,
                limit,
                step,
                collapsed: vec![],
                tile: vec![],
                chunk: None,
                body,
                par: gang,
                reductions,
                loc: reds.first().map(|r| r.loc.clone()).unwrap_or_default(),
            }));
            Ok(())
        })();
        self.pop_scope();
        r
    }
}
