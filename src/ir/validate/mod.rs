//! The IR validator: checks the invariants every back end relies on and
//! reports all violations (each one is an internal compiler error).
//!
//! Owns: [`validate`], which returns typed [`ValidationError`]s (see
//! `error.rs`: one [`ValidationErrorKind`] per check, the kernel or
//! function, the nearest source location). The driver runs it on the
//! lowered IR and again after schedule. Checked: handles in range, every expression used by
//! exactly one parent, operand/result types as documented on [`Expr`],
//! conditions are `bool`, stores and assignments match their target's type,
//! calls match their callee's signature, indices have one subscript more
//! than extents and a base of the element or row type, returns match the
//! function's result type, `break`/`continue` have a target, a loop's
//! directive is consistent and its `seq` kept, the levels of loops allow
//! what their bodies do (`levels.rs`: errors in the user's source — breaks,
//! reductions, routine calls), and — when
//! `scheduled` — that no counted [`Stmt::Loop`] is left, nor any
//! single-thread form ([`Stmt::Single`], [`Stmt::Broadcast`],
//! [`super::Special::Performs`]), nor a kernel's data undecided in the
//! host plan ([`super::hostdata::UndecidedData`]).

mod error;
mod levels;
#[cfg(test)]
mod tests;

pub use error::{ExprProblem, Owner, ValidationError, ValidationErrorKind};

use super::expr::{Expr, ExprId};
use super::function::Function;
use super::index::{Extent, Index};
use super::module::Module;
use super::stmt::{Block, Stmt};
use super::types::Type;
use super::SrcLoc;
use ValidationErrorKind as K;

/// A location, unless it is the default one (IR without locations).
fn known(loc: &SrcLoc) -> Option<SrcLoc> {
    (loc.line != 0 || !loc.file.is_empty()).then(|| loc.clone())
}

/// Validates every kernel and device function; returns the list of problems
/// (empty when valid).
pub fn validate(m: &Module, scheduled: bool) -> Vec<ValidationError> {
    let mut errors = vec![];
    let bodies = m
        .kernels
        .iter()
        .map(|k| (Owner::Kernel(k.name.clone()), &k.loc, &k.body, Type::Void))
        .chain(m.functions.iter().map(|f| {
            (
                Owner::Function(f.name.clone()),
                &f.loc,
                &f.body,
                f.ret.clone(),
            )
        }));
    for (owner, loc, f, ret) in bodies {
        let routine = matches!(owner, Owner::Function(_));
        errors.extend(
            levels::check(f, &m.functions, routine)
                .into_iter()
                .map(|(kind, at)| ValidationError {
                    kind,
                    owner: owner.clone(),
                    at: Some(at),
                }),
        );
        let mut v = Validator {
            m,
            f,
            ret,
            uses: vec![0; f.exprs.len()],
            errors: vec![],
            scheduled,
            loop_depth: 0,
            break_depth: 0,
            owner,
            locs: vec![known(loc)],
        };
        v.block(&f.body);
        let reused: Vec<_> = (v.uses.iter().enumerate())
            .filter(|(_, n)| **n > 1)
            .map(|(i, n)| (ExprId(i as u32), *n))
            .collect();
        for (expr, uses) in reused {
            v.err_at(expr, K::ExprReused { expr, uses });
        }
        errors.extend(v.errors);
    }
    for k in m.kernels.iter().filter(|k| scheduled && k.launch.is_none()) {
        errors.push(ValidationError {
            kind: K::NoLaunch,
            owner: Owner::Kernel(k.name.clone()),
            at: known(&k.loc),
        });
    }
    if scheduled {
        for (k, kernel) in m.kernels.iter().enumerate() {
            let undecided = [m.host.compute(k), m.host.data_of(k)]
                .into_iter()
                .flatten()
                .any(|c| c.undecided.is_some());
            if undecided {
                errors.push(ValidationError {
                    kind: K::DataUndecided,
                    owner: Owner::Kernel(kernel.name.clone()),
                    at: known(&kernel.loc),
                });
            }
        }
    }
    for f in &m.functions {
        for p in &f.params {
            let kind = match f.body.locals.get(p.0 as usize).map(|l| &l.ty) {
                None => K::ParamOutOfRange { param: *p },
                Some(Type::Array(..) | Type::Blob { .. } | Type::Void) => {
                    K::ParamNotScalar { param: *p }
                }
                Some(_) => continue,
            };
            errors.push(ValidationError {
                kind,
                owner: Owner::Function(f.name.clone()),
                at: known(&f.loc),
            });
        }
    }
    errors
}

struct Validator<'a> {
    m: &'a Module,
    f: &'a Function,
    /// The result type of the function (`Void` for kernels).
    ret: Type,
    uses: Vec<u32>,
    errors: Vec<ValidationError>,
    scheduled: bool,
    /// Enclosing loops (`continue` targets).
    loop_depth: u32,
    /// Enclosing loops and switches (`break` targets).
    break_depth: u32,
    /// Whose body this is.
    owner: Owner,
    /// The body's location, then those of the enclosing loops.
    locs: Vec<Option<SrcLoc>>,
}

impl Validator<'_> {
    /// Records a problem at the innermost location known.
    fn err(&mut self, kind: ValidationErrorKind) {
        let at = self.locs.iter().rev().find_map(Clone::clone);
        self.errors.push(ValidationError {
            kind,
            owner: self.owner.clone(),
            at,
        });
    }

    /// Records a problem at expression `e`'s location, if it has one.
    fn err_at(&mut self, e: ExprId, kind: ValidationErrorKind) {
        match self.f.expr_locs.get(e.0 as usize).cloned().flatten() {
            Some(at) => self.errors.push(ValidationError {
                kind,
                owner: self.owner.clone(),
                at: Some(at),
            }),
            None => self.err(kind),
        }
    }

    fn block(&mut self, b: &Block) {
        for s in b {
            self.stmt(s);
        }
    }

    fn local_ty(&mut self, l: super::LocalId) -> Option<Type> {
        match self.f.locals.get(l.0 as usize) {
            Some(d) => Some(d.ty.clone()),
            None => {
                self.err(K::LocalOutOfRange { local: l });
                None
            }
        }
    }

    fn cond(&mut self, e: ExprId) {
        if let Some(t) = self.expr(e) {
            if t != Type::BOOL {
                self.err_at(e, K::CondNotBool { cond: e, ty: t });
            }
        }
    }

    fn stmt(&mut self, s: &Stmt) {
        match s {
            Stmt::Assign { local, value } => {
                let lt = self.local_ty(*local);
                let vt = self.expr(*value);
                if let (Some(lt), Some(vt)) = (lt, vt) {
                    if lt != vt {
                        self.err_at(
                            *value,
                            K::AssignType {
                                local: *local,
                                value: vt,
                                local_ty: lt,
                            },
                        );
                    }
                }
            }
            Stmt::Store { ptr, value } => {
                let pt = self.expr(*ptr);
                let vt = self.expr(*value);
                if let (Some(pt), Some(vt)) = (pt, vt) {
                    if pt.pointee() != Some(&vt) {
                        self.err_at(*value, K::StoreType { value: vt, ptr: pt });
                    }
                }
            }
            Stmt::If {
                cond,
                then,
                otherwise,
                ..
            } => {
                self.cond(*cond);
                self.block(then);
                self.block(otherwise);
            }
            Stmt::Loop(l) => {
                self.locs.push(known(&l.loc));
                if self.scheduled {
                    self.err(K::LoopLeftAfterSchedule { loc: l.loc.clone() });
                }
                if let Some(d) = &l.directive {
                    let how = u8::from(d.seq) + u8::from(d.auto) + u8::from(d.independent);
                    if how > 1 || (d.seq && d.explicit()) || (d.gang_dim.is_some() && !d.gang) {
                        self.err(K::LoopDirectiveClauses { loc: l.loc.clone() });
                    }
                    if d.seq && l.par != super::Parallelism::Seq {
                        self.err(K::LoopSeqPartitioned { loc: l.loc.clone() });
                    }
                }
                let headers = std::iter::once((l.var, [l.init, l.limit, l.step])).chain(
                    l.collapsed
                        .iter()
                        .map(|h| (h.var, [h.init, h.limit, h.step])),
                );
                for (var, bounds) in headers {
                    let vt = self.local_ty(var);
                    for e in bounds {
                        let t = self.expr(e);
                        if t.is_some() && vt.is_some() && t != vt {
                            self.err_at(e, K::LoopBoundType { bound: e });
                        }
                    }
                }
                for r in &l.reductions {
                    let pt = self.local_ty(r.private);
                    let size = pt.as_ref().map_or(0, |t| t.size());
                    let ok = !r.parts.is_empty()
                        && r.parts.iter().all(|p| {
                            super::reducible(&p.ty)
                                && r.op.applies_to(&p.ty)
                                && p.count >= 1
                                && p.offset + (p.count - 1) * p.stride + p.ty.size() <= size
                        });
                    if !ok {
                        self.err(K::ReductionParts {
                            op: r.op.symbol(),
                            private: r.private,
                        });
                    }
                    let tt = match &r.target {
                        super::RedTarget::Local(t) => self.local_ty(*t),
                        super::RedTarget::Memory(p) => {
                            self.expr(*p).and_then(|t| t.pointee().cloned())
                        }
                    };
                    // An array's target may be its first element's address.
                    let elem = match &pt {
                        Some(Type::Array(e, _)) => Some((**e).clone()),
                        _ => None,
                    };
                    if tt.is_some() && tt != pt && tt != elem {
                        self.err(K::ReductionTarget { private: r.private });
                    }
                }
                self.loop_depth += 1;
                self.break_depth += 1;
                self.block(&l.body);
                self.loop_depth -= 1;
                self.break_depth -= 1;
                self.locs.pop();
            }
            Stmt::While { cond, body, step } => {
                self.cond(*cond);
                self.loop_depth += 1;
                self.break_depth += 1;
                self.block(body);
                self.loop_depth -= 1;
                let depth = self.loop_depth;
                self.loop_depth = 0; // no `continue` in step
                self.block(step);
                self.loop_depth = depth;
                self.break_depth -= 1;
            }
            Stmt::Switch { value, arms } => {
                if !matches!(self.expr(*value), Some(Type::Int(_))) {
                    self.err_at(*value, K::SwitchNotInt { value: *value });
                }
                self.break_depth += 1;
                for a in arms {
                    self.block(&a.body);
                }
                self.break_depth -= 1;
                if arms.iter().filter(|a| a.default).count() > 1 {
                    self.err(K::SwitchTwoDefaults);
                }
            }
            Stmt::Break => {
                if self.break_depth == 0 {
                    self.err(K::BreakOutside);
                }
            }
            Stmt::Continue => {
                if self.loop_depth == 0 {
                    self.err(K::ContinueOutside);
                }
            }
            Stmt::Return(v) => {
                let t = v.and_then(|v| self.expr(v)).unwrap_or(Type::Void);
                if t != self.ret {
                    let ret = self.ret.clone();
                    self.err(K::ReturnType { value: t, ret });
                }
            }
            Stmt::Call {
                func, args, result, ..
            } => {
                let Some(callee) = self.m.functions.get(*func) else {
                    self.err(K::CallOutOfRange { func: *func });
                    return;
                };
                if callee.params.len() != args.len() {
                    self.err(K::CallArity {
                        callee: callee.name.clone(),
                        args: args.len(),
                        params: callee.params.len(),
                    });
                }
                for (a, p) in args.iter().zip(&callee.params) {
                    let t = self.expr(*a);
                    let pt = callee.body.locals.get(p.0 as usize).map(|l| l.ty.clone());
                    if t.is_some() && t != pt {
                        self.err_at(
                            *a,
                            K::CallArgType {
                                arg: *a,
                                callee: callee.name.clone(),
                            },
                        );
                    }
                }
                if let Some(r) = result {
                    if self.local_ty(*r).as_ref() != Some(&callee.ret) {
                        self.err(K::CallResultType {
                            callee: callee.name.clone(),
                            result: *r,
                        });
                    }
                }
            }
            Stmt::Copy { dst, src, bytes } => {
                let d = self.expr(*dst);
                let s = self.expr(*src);
                if !matches!(d, Some(Type::Ptr(_))) || !matches!(s, Some(Type::Ptr(_))) {
                    self.err(K::CopyNotPointers);
                }
                if *bytes == 0 {
                    self.err(K::CopyZeroBytes);
                }
            }
            Stmt::Print { args, .. } => {
                for a in args {
                    match self.expr(*a) {
                        Some(Type::Int(k)) if k.bits() >= 32 => {}
                        Some(Type::Float(crate::ir::FloatKind::F64) | Type::Ptr(_)) | None => {}
                        Some(t) => self.err_at(*a, K::PrintNotPromoted { arg: *a, ty: t }),
                    }
                }
            }
            Stmt::Barrier(_) | Stmt::Fence => {}
            Stmt::AtomicCas {
                ptr,
                expected,
                desired,
                old,
                ok,
            } => {
                let elem = self.expr(*ptr).as_ref().and_then(|t| t.pointee()).cloned();
                let scalar = matches!(elem, Some(Type::Int(_) | Type::Float(_)));
                if !scalar
                    || self.expr(*expected) != elem
                    || self.expr(*desired) != elem
                    || self.local_ty(*old) != elem
                {
                    self.err(K::CasOperands);
                }
                if self.local_ty(*ok) != Some(Type::BOOL) {
                    self.err(K::CasFlag);
                }
            }
            Stmt::AtomicLoad { ptr, dst } => {
                let elem = self.expr(*ptr).as_ref().and_then(|t| t.pointee()).cloned();
                if !matches!(elem, Some(Type::Int(_) | Type::Float(_)))
                    || self.local_ty(*dst) != elem
                {
                    self.err(K::AtomicLoadType);
                }
            }
            Stmt::AtomicStore { ptr, value } => {
                let elem = self.expr(*ptr).as_ref().and_then(|t| t.pointee()).cloned();
                if !matches!(elem, Some(Type::Int(_) | Type::Float(_))) || self.expr(*value) != elem
                {
                    self.err(K::AtomicStoreType);
                }
            }
            Stmt::AtomicRmw {
                op,
                ptr,
                value,
                old,
            } => {
                let pt = self.expr(*ptr);
                let vt = self.expr(*value);
                let elem = pt.as_ref().and_then(|t| t.pointee()).cloned();
                if elem.is_none() || elem != vt {
                    self.err(K::AtomicOperand);
                }
                use crate::ir::AtomicOp as A;
                let fits = match (&vt, op) {
                    (Some(Type::Int(k)), A::IncWrap) => *k == crate::ir::IntKind::U32,
                    (Some(Type::Int(k)), _) => k.bits() >= 32,
                    (Some(Type::Float(_)), A::Add | A::Sub | A::Exchange) => true,
                    _ => vt.is_none(),
                };
                if !fits {
                    self.err(K::AtomicOpType { op: *op });
                }
                if let Some(l) = old {
                    if self.local_ty(*l) != vt {
                        self.err(K::AtomicResultType { local: *l });
                    }
                }
            }
            Stmt::Block(b) => self.block(b),
            Stmt::Single(b) => {
                if self.scheduled {
                    self.err(K::LeftAfterSchedule { what: "single" });
                }
                self.block(b);
            }
            Stmt::Broadcast { value, performed } => {
                if self.scheduled {
                    self.err(K::LeftAfterSchedule { what: "broadcast" });
                }
                self.local_ty(*value);
                self.block(performed);
            }
        }
    }

    /// Checks the operands of an index of type `ty` (see [`Index`]); the
    /// first problem with the node itself.
    fn index(&mut self, ix: &Index, ty: &Type) -> Option<ExprProblem> {
        let base = self.expr(ix.base);
        let mut problem = None;
        for e in &ix.extents {
            if let Extent::Dyn(x) = e {
                if self.expr(*x) != Some(Type::I64) {
                    problem = Some(ExprProblem::IndexExtent);
                }
            }
        }
        for s in &ix.subs {
            if !matches!(self.expr(*s), Some(Type::Int(k)) if k.bits() == 64) {
                problem = Some(ExprProblem::IndexSubscript);
            }
        }
        if ix.subs.len() != ix.extents.len() + 1 {
            return Some(ExprProblem::IndexArity {
                subs: ix.subs.len(),
                extents: ix.extents.len(),
            });
        }
        let Some(elem) = ty.pointee() else {
            return Some(ExprProblem::IndexNotPointer);
        };
        let rows = ix.row_types(elem);
        let base_pointee = base.as_ref().and_then(Type::pointee);
        let row_base = rows.is_some_and(|r| base_pointee == r.first());
        if base_pointee != Some(elem) && !row_base {
            return Some(ExprProblem::IndexBase { elem: elem.clone() });
        }
        problem
    }

    /// Checks an expression tree; returns its type when the handle is valid.
    fn expr(&mut self, id: ExprId) -> Option<Type> {
        let i = id.0 as usize;
        if i >= self.f.exprs.len() {
            self.err(K::ExprOutOfRange { expr: id });
            return None;
        }
        self.uses[i] += 1;
        let ty = self.f.ty(id).clone();
        let bad = |v: &mut Self, problem: ExprProblem| v.err_at(id, K::Expr { expr: id, problem });
        match self.f.expr(id) {
            Expr::Special(s @ (super::Special::Performs(_) | super::Special::OnDevice(_))) => {
                if self.scheduled {
                    let what = match s {
                        super::Special::Performs(_) => "performs",
                        _ => "on_device",
                    };
                    self.err_at(id, K::LeftAfterSchedule { what });
                }
                if ty != Type::BOOL {
                    bad(self, ExprProblem::PerformsNotBool);
                }
            }
            Expr::Literal(_) | Expr::Special(_) => {}
            Expr::Cell(n) => {
                if *n as usize >= self.m.cells.len() || !matches!(ty, Type::Ptr(_)) {
                    bad(self, ExprProblem::CellOutOfRange);
                }
            }
            Expr::Local(l) => {
                if self.local_ty(*l).as_ref() != Some(&ty) {
                    bad(self, ExprProblem::LocalReadType);
                }
            }
            Expr::LocalAddr(l) => {
                let want = match self.local_ty(*l) {
                    Some(Type::Array(elem, _)) => Some(*elem),
                    t => t,
                };
                if want.is_some() && ty.pointee() != want.as_ref() {
                    bad(self, ExprProblem::LocalAddrType);
                }
            }
            Expr::Load(p) => {
                if self.expr(*p).as_ref().and_then(|t| t.pointee()) != Some(&ty) {
                    bad(self, ExprProblem::LoadType);
                }
            }
            Expr::PtrAdd { base, index } => {
                let bt = self.expr(*base);
                let it = self.expr(*index);
                if bt.as_ref() != Some(&ty) || !matches!(bt, Some(Type::Ptr(_))) {
                    bad(self, ExprProblem::PtrAddBase);
                }
                if !matches!(&it, Some(Type::Int(k)) if k.bits() == 64) {
                    bad(self, ExprProblem::PtrAddIndex);
                }
            }
            Expr::Index(ix) => {
                if let Some(problem) = self.index(ix, &ty) {
                    bad(self, problem);
                }
            }
            Expr::Binary { lhs, rhs, .. } => {
                let a = self.expr(*lhs);
                let b = self.expr(*rhs);
                if a.as_ref() != Some(&ty) || b.as_ref() != Some(&ty) {
                    bad(self, ExprProblem::BinaryOperands);
                }
            }
            Expr::Cmp { lhs, rhs, .. } => {
                let a = self.expr(*lhs);
                let b = self.expr(*rhs);
                if a != b || ty != Type::BOOL {
                    bad(self, ExprProblem::Comparison);
                }
            }
            Expr::Unary { arg, .. } => {
                if self.expr(*arg).as_ref() != Some(&ty) {
                    bad(self, ExprProblem::UnaryOperand);
                }
            }
            Expr::Cast(a) => {
                self.expr(*a);
            }
            Expr::Select {
                cond,
                then,
                otherwise,
            } => {
                self.cond(*cond);
                let a = self.expr(*then);
                let b = self.expr(*otherwise);
                if a.as_ref() != Some(&ty) || b.as_ref() != Some(&ty) {
                    bad(self, ExprProblem::SelectArms);
                }
            }
            Expr::Logical { lhs, rhs, .. } => {
                self.cond(*lhs);
                self.cond(*rhs);
                if ty != Type::BOOL {
                    bad(self, ExprProblem::LogicalResult);
                }
            }
            Expr::Shuffle {
                value,
                lane_xor,
                members,
            } => {
                let v = self.expr(*value);
                let scalar = matches!(&v, Some(Type::Int(k)) if k.bits() >= 8)
                    || matches!(v, Some(Type::Float(_)));
                if v.as_ref() != Some(&ty) || !scalar {
                    bad(self, ExprProblem::ShuffleValue);
                }
                for e in [lane_xor, members] {
                    if self.expr(*e) != Some(Type::Int(crate::ir::IntKind::U32)) {
                        bad(self, ExprProblem::ShuffleLane);
                    }
                }
            }
            Expr::SharedAddr(n) => {
                let elem = match self.f.shared.get(*n as usize) {
                    Some(Type::Array(e, _)) => Some((**e).clone()),
                    _ => None,
                };
                if elem.is_none() || ty.pointee() != elem.as_ref() {
                    bad(self, ExprProblem::SharedArray);
                }
            }
            Expr::Math { func, args } => {
                if args.len() != func.arity() {
                    bad(self, ExprProblem::MathArity);
                }
                for a in args {
                    if self.expr(*a).as_ref() != Some(&ty) {
                        bad(self, ExprProblem::MathArgument);
                    }
                }
            }
        }
        Some(ty)
    }
}
