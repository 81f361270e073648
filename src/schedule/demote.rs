//! Demotion of by-reference host scalars no kernel writes: a `kernels`
//! region lowers every host scalar it uses by reference (one that it
//! assigns is implicitly `copy`, OpenACC 3.3 2.5.3, and which those are is
//! only known once lowered); afterwards each one no kernel of the region
//! writes through (the analysis's write sets, `analysis::written_locals`)
//! becomes a value parameter again, as if lowered by value from the start.
//!
//! The front end records which scalars are by reference only for that
//! rule ([`HostFacts::demotable`](crate::ir::hostdata::HostFacts)) in the
//! host plan's undecided data; [`demote_regions`] decides, first in
//! `schedule::decide_data` (whose arguments and maps follow the facts'
//! `by_ref`), over each region's kernels together.
//!
//! Owns: [`demote_regions`] (the regions of a lowered module, and the
//! `default(none)` check of what stays by reference), [`demote_unwritten`]
//! (the decision, over a region's kernels) and [`demote`] (the rewrite of
//! one parameter). May call: `ir`, `analysis::written_locals`.

use crate::analysis::written_locals;
use crate::diag::{DResult, Diagnostics};
use crate::ir::host::ConstructKind;
use crate::ir::hostdata::DataScope;
use crate::ir::{Expr, Function, Module, Param, ParamMode};
use std::collections::HashSet;

/// Demotes, in each `kernels` region of lowered module `m` whose data is
/// undecided (a compute construct's own kernel, or the kernels of a data
/// region of several), the demotable scalars no kernel of the region
/// writes ([`demote_unwritten`]), and records it in the undecided data
/// (`by_ref` false). An error where a construct with `default(none)`
/// keeps one by reference (a kernel writes it) and no clause names it.
pub fn demote_regions(m: &mut Module) -> DResult<()> {
    let mut regions: Vec<Vec<usize>> = vec![];
    let mut demotable: HashSet<(usize, usize)> = HashSet::new();
    super::data::each(&mut m.host.constructs, &mut |c| {
        let Some(u) = c.undecided.as_deref() else {
            return;
        };
        let named = u
            .vars
            .iter()
            .filter(|v| v.facts.demotable && v.facts.by_ref);
        demotable.extend(named.map(|v| (v.kernel, v.param)));
        match (&u.scope, &c.kind) {
            (DataScope::Kernel, ConstructKind::Compute { kernel, .. }) => {
                regions.push(vec![*kernel])
            }
            (DataScope::Region { kernels }, _) => regions.push(kernels.clone()),
            _ => {}
        }
    });
    if demotable.is_empty() {
        return Ok(());
    }
    let mut demoted: HashSet<(usize, usize)> = HashSet::new();
    for ks in &regions {
        let (mut index, mut kernels) = (vec![], vec![]);
        for (k, kernel) in m.kernels.iter_mut().enumerate() {
            if ks.contains(&k) {
                index.push(k);
                kernels.push((&mut kernel.body, kernel.params.as_mut_slice()));
            }
        }
        let candidate: Vec<Vec<bool>> = index
            .iter()
            .zip(&kernels)
            .map(|(k, (_, ps))| {
                (0..ps.len())
                    .map(|i| demotable.contains(&(*k, i)))
                    .collect()
            })
            .collect();
        let done = demote_unwritten(&mut kernels, &candidate);
        demoted.extend(done.into_iter().map(|(at, i)| (index[at], i)));
    }
    let mut kept = None;
    super::data::each(&mut m.host.constructs, &mut |c| {
        let Some(u) = c.undecided.as_deref_mut() else {
            return;
        };
        for v in &mut u.vars {
            if demoted.contains(&(v.kernel, v.param)) {
                v.facts.by_ref = false;
            }
        }
        let unnamed = u
            .vars
            .iter()
            .find(|v| v.facts.demotable && v.facts.by_ref && v.facts.clause.is_none());
        if let (true, Some(v), None) = (
            u.default_none && u.scope != DataScope::InRegion,
            unnamed,
            &kept,
        ) {
            kept = Some(Diagnostics::one(
                Some(u.loc.clone()),
                format!("'{}' is used in the region but appears in no data clause, and the construct has 'default(none)'", v.facts.name),
            ));
        }
    });
    kept.map_or(Ok(()), Err)
}

/// Demotes to values, in the kernels of one region (each a body and its
/// parameters), the parameters where `candidate[k][i]` holds (host scalars
/// received by reference only because every scalar of a `kernels` region
/// is) and that no kernel of the region writes through, by host name.
/// Returns the (kernel, parameter) positions it demoted.
pub fn demote_unwritten(
    kernels: &mut [(&mut Function, &mut [Param])],
    candidate: &[Vec<bool>],
) -> Vec<(usize, usize)> {
    let mut written = HashSet::new();
    for (f, params) in kernels.iter() {
        let w = written_locals(f);
        let names = params.iter().filter(|p| w.contains(&p.local));
        written.extend(names.map(|p| p.name.clone()));
    }
    let mut out = vec![];
    for (k, (f, params)) in kernels.iter_mut().enumerate() {
        for i in 0..params.len() {
            let is_candidate = candidate.get(k).and_then(|c| c.get(i)) == Some(&true);
            if is_candidate
                && params[i].mode == ParamMode::DevicePtr
                && !written.contains(&params[i].name)
                && demote(f, params, i)
            {
                out.push((k, i));
            }
        }
    }
    out
}

/// Makes parameter `i` (a pointer to one host scalar, never stored
/// through) a value parameter: `load(p)` reads `p` itself, and `p` used
/// as an address (a complex or `long double` value's bytes) is the
/// local's address. False (and nothing changed) when `p` is no pointer.
pub fn demote(f: &mut Function, params: &mut [Param], i: usize) -> bool {
    let p = params[i].local;
    let Some(value_ty) = f.local(p).ty.pointee().cloned() else {
        return false;
    };
    let ptr_ty = f.local(p).ty.clone();
    let reads_p = |f: &Function, e| matches!(f.expr(e), Expr::Local(l) if *l == p);
    // Loads of the scalar: the load becomes a read of the local.
    let mut loaded = vec![];
    for id in 0..f.exprs.len() {
        if let Expr::Load(a) = f.exprs[id] {
            if reads_p(f, a) && f.expr_types[id] == value_ty {
                loaded.push((id, a));
            }
        }
    }
    for (id, a) in &loaded {
        f.exprs[*id] = Expr::Local(p);
        // The read it loaded through is no longer used.
        f.expr_types[a.0 as usize] = value_ty.clone();
    }
    // Other uses of the pointer: the address of the local.
    for id in 0..f.exprs.len() {
        let orphan = loaded.iter().any(|(_, a)| a.0 as usize == id);
        if !orphan && matches!(f.exprs[id], Expr::Local(l) if l == p) && f.expr_types[id] == ptr_ty
        {
            f.exprs[id] = Expr::LocalAddr(p);
        }
    }
    f.locals[p.0 as usize].ty = value_ty;
    params[i].mode = ParamMode::Value;
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{BinOp, Literal, Stmt, Type};

    /// A kernel with the by-reference scalar parameters `names` that
    /// loads each (`t = *p * 2`) and stores into those in `stores`
    /// (`*p = 1`); the loads' expressions, by parameter.
    fn kernel(names: &[&str], stores: &[&str]) -> (Function, Vec<Param>, Vec<ExprIdOf>) {
        let mut f = Function::default();
        let (mut params, mut loads) = (vec![], vec![]);
        for n in names {
            let p = f.new_local(n, Type::I32.ptr_to());
            let t = f.new_local("t", Type::I32);
            let rp = f.read(p);
            let ld = f.add(Expr::Load(rp), Type::I32);
            let two = f.add(Expr::Literal(Literal::Int(2)), Type::I32);
            let (op, lhs, rhs) = (BinOp::Mul, ld, two);
            let m = f.add(Expr::Binary { op, lhs, rhs }, Type::I32);
            f.body.push(Stmt::Assign { local: t, value: m });
            if stores.contains(n) {
                let ptr = f.read(p);
                let value = f.add(Expr::Literal(Literal::Int(1)), Type::I32);
                f.body.push(Stmt::Store { ptr, value });
            }
            params.push(Param {
                name: n.to_string(),
                local: p,
                mode: ParamMode::DevicePtr,
                own: false,
            });
            loads.push(ld);
        }
        (f, params, loads)
    }
    type ExprIdOf = crate::ir::ExprId;

    #[test]
    fn loads_become_reads() {
        let (mut f, mut params, loads) = kernel(&["s"], &[]);
        assert!(demote(&mut f, &mut params, 0));
        let p = params[0].local;
        assert_eq!(f.expr(loads[0]), &Expr::Local(p));
        assert_eq!(f.local(p).ty, Type::I32);
        assert_eq!(params[0].mode, ParamMode::Value);
    }

    #[test]
    fn only_candidates_no_kernel_writes() {
        // Kernel 0 reads s, t, u; kernel 1 writes t. u is no candidate
        // (a data clause names it), so it stays by reference too.
        let (mut f0, mut p0, _) = kernel(&["s", "t", "u"], &[]);
        let (mut f1, mut p1, _) = kernel(&["t"], &["t"]);
        let candidate = vec![vec![true, true, false], vec![true]];
        let mut ks = [(&mut f0, p0.as_mut_slice()), (&mut f1, p1.as_mut_slice())];
        let demoted = demote_unwritten(&mut ks, &candidate);
        assert_eq!(demoted, [(0, 0)]);
        let modes: Vec<ParamMode> = p0.iter().chain(&p1).map(|p| p.mode.clone()).collect();
        use ParamMode::{DevicePtr, Value};
        assert_eq!(modes, [Value, DevicePtr, DevicePtr, DevicePtr]);
    }
}
