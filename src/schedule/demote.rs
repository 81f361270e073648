//! Demotion of by-reference host scalars no kernel writes: a `kernels`
//! region lowers every host scalar it uses by reference (one that it
//! assigns is implicitly `copy`, OpenACC 3.3 2.5.3, and which those are is
//! only known once lowered); afterwards each one no kernel of the region
//! writes through (the analysis's write sets, `analysis::written_locals`)
//! becomes a value parameter again, as if lowered by value from the start.
//!
//! Owns: [`demote_unwritten`] (the decision, over a region's kernels) and
//! [`demote`] (the rewrite of one parameter). May call: `ir`,
//! `analysis::written_locals`. The front end calls it for each `kernels`
//! region as it outlines it, before the region's data is planned.

use crate::analysis::written_locals;
use crate::ir::{Expr, Function, Param, ParamMode};
use std::collections::HashSet;

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
