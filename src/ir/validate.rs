//! The IR validator: checks the invariants every back end relies on and
//! reports all violations (each one is an internal compiler error).
//!
//! Owns: [`validate`]. Checked: handles in range, every expression used by
//! exactly one parent, operand/result types as documented on [`Expr`],
//! conditions are `bool`, stores and assignments match their target's type,
//! calls match their callee's signature, indices have one subscript more
//! than extents and a base of the element or row type, returns match the
//! function's result type, `break`/`continue` have a target, and — when `scheduled` — that no
//! counted [`Stmt::Loop`] is left.

use super::expr::{Expr, ExprId};
use super::function::Function;
use super::index::{Extent, Index};
use super::module::Module;
use super::stmt::{Block, Stmt};
use super::types::Type;

/// Validates every kernel and device function; returns the list of problems
/// (empty when valid).
pub fn validate(m: &Module, scheduled: bool) -> Vec<String> {
    let mut errors = vec![];
    let bodies = m
        .kernels
        .iter()
        .map(|k| (format!("kernel {}", k.name), &k.body, Type::Void))
        .chain(
            m.functions
                .iter()
                .map(|f| (format!("function {}", f.name), &f.body, f.ret.clone())),
        );
    for (what, f, ret) in bodies {
        let mut v = Validator {
            m,
            f,
            ret,
            uses: vec![0; f.exprs.len()],
            errors: vec![],
            scheduled,
            loop_depth: 0,
            break_depth: 0,
        };
        v.block(&f.body);
        for (i, n) in v.uses.iter().enumerate() {
            if *n > 1 {
                v.errors.push(format!("e{i} is used {n} times"));
            }
        }
        errors.extend(v.errors.into_iter().map(|e| format!("{what}: {e}")));
    }
    for f in &m.functions {
        for p in &f.params {
            match f.body.locals.get(p.0 as usize).map(|l| &l.ty) {
                None => errors.push(format!("function {}: parameter {p} out of range", f.name)),
                Some(Type::Array(..) | Type::Blob { .. } | Type::Void) => errors.push(format!(
                    "function {}: parameter {p} is not a scalar or pointer",
                    f.name
                )),
                Some(_) => {}
            }
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
    errors: Vec<String>,
    scheduled: bool,
    /// Enclosing loops (`continue` targets).
    loop_depth: u32,
    /// Enclosing loops and switches (`break` targets).
    break_depth: u32,
}

impl Validator<'_> {
    fn block(&mut self, b: &Block) {
        for s in b {
            self.stmt(s);
        }
    }

    fn local_ty(&mut self, l: super::LocalId) -> Option<Type> {
        match self.f.locals.get(l.0 as usize) {
            Some(d) => Some(d.ty.clone()),
            None => {
                self.errors.push(format!("local {l} out of range"));
                None
            }
        }
    }

    fn cond(&mut self, e: ExprId) {
        if let Some(t) = self.expr(e) {
            if t != Type::BOOL {
                self.errors
                    .push(format!("condition {e} has type {t}, not bool"));
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
                        self.errors
                            .push(format!("assign of {vt} to {local} of type {lt}"));
                    }
                }
            }
            Stmt::Store { ptr, value } => {
                let pt = self.expr(*ptr);
                let vt = self.expr(*value);
                if let (Some(pt), Some(vt)) = (pt, vt) {
                    if pt.pointee() != Some(&vt) {
                        self.errors.push(format!("store of {vt} through {pt}"));
                    }
                }
            }
            Stmt::If {
                cond,
                then,
                otherwise,
            } => {
                self.cond(*cond);
                self.block(then);
                self.block(otherwise);
            }
            Stmt::Loop(l) => {
                if self.scheduled {
                    self.errors
                        .push(format!("counted loop at {} left after schedule", l.loc));
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
                            self.errors
                                .push(format!("loop bound {e} does not have the index type"));
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
                        self.errors.push(format!(
                            "reduction '{}' on private {} with parts it cannot have",
                            r.op.symbol(),
                            r.private
                        ));
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
                        self.errors.push(format!(
                            "reduction target of {} has another type",
                            r.private
                        ));
                    }
                }
                self.loop_depth += 1;
                self.break_depth += 1;
                self.block(&l.body);
                self.loop_depth -= 1;
                self.break_depth -= 1;
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
                    self.errors
                        .push(format!("switch value {value} is not an integer"));
                }
                self.break_depth += 1;
                for a in arms {
                    self.block(&a.body);
                }
                self.break_depth -= 1;
                if arms.iter().filter(|a| a.default).count() > 1 {
                    self.errors.push("switch with two default arms".into());
                }
            }
            Stmt::Break => {
                if self.break_depth == 0 {
                    self.errors.push("break outside a loop or switch".into());
                }
            }
            Stmt::Continue => {
                if self.loop_depth == 0 {
                    self.errors.push("continue outside a loop body".into());
                }
            }
            Stmt::Return(v) => {
                let t = v.and_then(|v| self.expr(v)).unwrap_or(Type::Void);
                if t != self.ret {
                    self.errors.push(format!(
                        "return of {t} from a function returning {}",
                        self.ret
                    ));
                }
            }
            Stmt::Call { func, args, result } => {
                let Some(callee) = self.m.functions.get(*func) else {
                    self.errors
                        .push(format!("call of function #{func}, out of range"));
                    return;
                };
                if callee.params.len() != args.len() {
                    self.errors.push(format!(
                        "call of {} with {} arguments, not {}",
                        callee.name,
                        args.len(),
                        callee.params.len()
                    ));
                }
                for (a, p) in args.iter().zip(&callee.params) {
                    let t = self.expr(*a);
                    let pt = callee.body.locals.get(p.0 as usize).map(|l| l.ty.clone());
                    if t.is_some() && t != pt {
                        self.errors.push(format!(
                            "argument {a} of a call of {} has the wrong type",
                            callee.name
                        ));
                    }
                }
                if let Some(r) = result {
                    if self.local_ty(*r).as_ref() != Some(&callee.ret) {
                        self.errors.push(format!(
                            "result of {} assigned to {r} of another type",
                            callee.name
                        ));
                    }
                }
            }
            Stmt::Copy { dst, src, bytes } => {
                let d = self.expr(*dst);
                let s = self.expr(*src);
                if !matches!(d, Some(Type::Ptr(_))) || !matches!(s, Some(Type::Ptr(_))) {
                    self.errors.push("copy between non-pointers".into());
                }
                if *bytes == 0 {
                    self.errors.push("copy of zero bytes".into());
                }
            }
            Stmt::Print { args, .. } => {
                for a in args {
                    match self.expr(*a) {
                        Some(Type::Int(k)) if k.bits() >= 32 => {}
                        Some(Type::Float(crate::ir::FloatKind::F64) | Type::Ptr(_)) | None => {}
                        Some(t) => self
                            .errors
                            .push(format!("print argument {a} of type {t} is not promoted")),
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
                    self.errors
                        .push("atomic compare-and-swap operands are not the pointee type".into());
                }
                if self.local_ty(*ok) != Some(Type::BOOL) {
                    self.errors
                        .push("atomic compare-and-swap flag is not a bool".into());
                }
            }
            Stmt::AtomicLoad { ptr, dst } => {
                let elem = self.expr(*ptr).as_ref().and_then(|t| t.pointee()).cloned();
                if !matches!(elem, Some(Type::Int(_) | Type::Float(_)))
                    || self.local_ty(*dst) != elem
                {
                    self.errors.push("atomic load of another type".into());
                }
            }
            Stmt::AtomicStore { ptr, value } => {
                let elem = self.expr(*ptr).as_ref().and_then(|t| t.pointee()).cloned();
                if !matches!(elem, Some(Type::Int(_) | Type::Float(_))) || self.expr(*value) != elem
                {
                    self.errors.push("atomic store of another type".into());
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
                    self.errors
                        .push("atomic operand is not the pointee type".to_string());
                }
                use crate::ir::AtomicOp as A;
                let fits = match (&vt, op) {
                    (Some(Type::Int(k)), A::IncWrap) => *k == crate::ir::IntKind::U32,
                    (Some(Type::Int(k)), _) => k.bits() >= 32,
                    (Some(Type::Float(_)), A::Add | A::Sub | A::Exchange) => true,
                    _ => vt.is_none(),
                };
                if !fits {
                    self.errors
                        .push(format!("atomic {op:?} on a type it does not apply to"));
                }
                if let Some(l) = old {
                    if self.local_ty(*l) != vt {
                        self.errors
                            .push(format!("atomic result local {l} has another type"));
                    }
                }
            }
            Stmt::Block(b) => self.block(b),
        }
    }

    /// Checks the operands of an index of type `ty` (see [`Index`]); the
    /// first problem with the node itself.
    fn index(&mut self, ix: &Index, ty: &Type) -> Option<String> {
        let base = self.expr(ix.base);
        let mut problem = None;
        for e in &ix.extents {
            if let Extent::Dyn(x) = e {
                if self.expr(*x) != Some(Type::I64) {
                    problem = Some("index extent is not i64".to_string());
                }
            }
        }
        for s in &ix.subs {
            if !matches!(self.expr(*s), Some(Type::Int(k)) if k.bits() == 64) {
                problem = Some("index subscript is not a 64-bit integer".to_string());
            }
        }
        if ix.subs.len() != ix.extents.len() + 1 {
            return Some(format!(
                "index has {} subscripts for {} inner extents (one more needed)",
                ix.subs.len(),
                ix.extents.len()
            ));
        }
        let Some(elem) = ty.pointee() else {
            return Some("index of a non-pointer type".to_string());
        };
        let rows = ix.row_types(elem);
        let base_pointee = base.as_ref().and_then(Type::pointee);
        let row_base = rows.is_some_and(|r| base_pointee == r.first());
        if base_pointee != Some(elem) && !row_base {
            return Some(format!(
                "index base is neither ptr<{elem}> nor a pointer to its outermost row"
            ));
        }
        problem
    }

    /// Checks an expression tree; returns its type when the handle is valid.
    fn expr(&mut self, id: ExprId) -> Option<Type> {
        let i = id.0 as usize;
        if i >= self.f.exprs.len() {
            self.errors.push(format!("{id} out of range"));
            return None;
        }
        self.uses[i] += 1;
        let ty = self.f.ty(id).clone();
        let bad = |v: &mut Self, what: &str| v.errors.push(format!("{id}: {what}"));
        match self.f.expr(id) {
            Expr::Literal(_) | Expr::Special(_) => {}
            Expr::Cell(n) => {
                if *n as usize >= self.m.cells.len() || !matches!(ty, Type::Ptr(_)) {
                    bad(self, "cell out of range or not a pointer");
                }
            }
            Expr::Local(l) => {
                if self.local_ty(*l).as_ref() != Some(&ty) {
                    bad(self, "local read with the wrong type");
                }
            }
            Expr::LocalAddr(l) => {
                let want = match self.local_ty(*l) {
                    Some(Type::Array(elem, _)) => Some(*elem),
                    t => t,
                };
                if want.is_some() && ty.pointee() != want.as_ref() {
                    bad(self, "address of a local with the wrong type");
                }
            }
            Expr::Load(p) => {
                if self.expr(*p).as_ref().and_then(|t| t.pointee()) != Some(&ty) {
                    bad(self, "load type differs from pointee");
                }
            }
            Expr::PtrAdd { base, index } => {
                let bt = self.expr(*base);
                let it = self.expr(*index);
                if bt.as_ref() != Some(&ty) || !matches!(bt, Some(Type::Ptr(_))) {
                    bad(self, "ptradd base is not a pointer of the result type");
                }
                if !matches!(&it, Some(Type::Int(k)) if k.bits() == 64) {
                    bad(self, "ptradd index is not a 64-bit integer");
                }
            }
            Expr::Index(ix) => {
                if let Some(what) = self.index(ix, &ty) {
                    bad(self, &what);
                }
            }
            Expr::Binary { lhs, rhs, .. } => {
                let a = self.expr(*lhs);
                let b = self.expr(*rhs);
                if a.as_ref() != Some(&ty) || b.as_ref() != Some(&ty) {
                    bad(self, "binary operand types differ from the result");
                }
            }
            Expr::Cmp { lhs, rhs, .. } => {
                let a = self.expr(*lhs);
                let b = self.expr(*rhs);
                if a != b || ty != Type::BOOL {
                    bad(self, "comparison of different types or non-bool result");
                }
            }
            Expr::Unary { arg, .. } => {
                if self.expr(*arg).as_ref() != Some(&ty) {
                    bad(self, "unary operand type differs from the result");
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
                    bad(self, "select arms differ from the result type");
                }
            }
            Expr::Logical { lhs, rhs, .. } => {
                self.cond(*lhs);
                self.cond(*rhs);
                if ty != Type::BOOL {
                    bad(self, "logical operator result is not bool");
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
                    bad(self, "shuffle of a non-scalar or of another type");
                }
                for e in [lane_xor, members] {
                    if self.expr(*e) != Some(Type::Int(crate::ir::IntKind::U32)) {
                        bad(self, "shuffle lane or mask is not u32");
                    }
                }
            }
            Expr::SharedAddr(n) => {
                let elem = match self.f.shared.get(*n as usize) {
                    Some(Type::Array(e, _)) => Some((**e).clone()),
                    _ => None,
                };
                if elem.is_none() || ty.pointee() != elem.as_ref() {
                    bad(self, "shared array out of range or of another type");
                }
            }
            Expr::Math { func, args } => {
                if args.len() != func.arity() {
                    bad(self, "math call with the wrong number of arguments");
                }
                for a in args {
                    if self.expr(*a).as_ref() != Some(&ty) {
                        bad(self, "math argument type differs from the result");
                    }
                }
            }
        }
        Some(ty)
    }
}
