//! Which pointer parameters of a kernel no other pointer of the kernel
//! reaches: those the NVPTX back end marks `noalias`, so that LLVM keeps
//! a value loaded through one parameter in a register across stores
//! through another, and forwards and merges stores (GVN, LICM, DSE).
//!
//! Owns: [`own_memory`]. May call: `ir`.
//!
//! LLVM's `noalias` on a parameter promises that, during the call, memory
//! accessed through a pointer based on it and written by the call is
//! accessed through no pointer not based on it. For a kernel whose
//! pointers all come from its parameters this is the claim that no two
//! parameters reach the same memory. It holds for parameter `p` when:
//! * `p` is [`Param::own`]: an array or a `restrict` pointer of the host
//!   (a distinct C object, or memory the program promises only `p`
//!   reaches);
//! * every other pointer parameter is `own` too, or the reductions' scratch
//!   memory (the runtime's, lent to this launch only): a plain pointer may
//!   point into `p`'s array on the host, and the present table then gives
//!   it an address inside `p`'s device copy. So may a pointer received by
//!   value (`deviceptr`) or inside a struct received by value. (A host
//!   scalar received by reference is its own object too, but the scheduled
//!   IR does not tell it from a plain pointer: it makes the answer none.)
//!   Any other pointer parameter, or a value parameter of pointer or blob
//!   type, makes the kernel's answer none;
//! * the kernel, and every device function it calls, makes no pointer
//!   but by arithmetic on its parameters and locals: no load of a pointer
//!   (an attached struct member, an array of pointers), no integer turned
//!   into a pointer, no `declare` cell (a global's device address: its
//!   object is another than the parameters', but a cell of a pointer
//!   variable holds what that pointer points to); pointers to locals and
//!   shared memory are the kernel's own.
//!
//! Distinct host objects map to disjoint device memory: the present table
//! maps each host range to a device range of the same size, inside the
//! device copy of whatever mapped range holds it, at the same offset, so
//! disjoint host ranges stay disjoint. A program that indexes one array
//! past its end into another breaks C's rules already.

use crate::ir::{walk_stmts, Expr, Function, Kernel, Linkage, Module, ParamMode, Stmt, Type};
use std::collections::HashSet;

/// For each parameter of `k` (a kernel of `m`), whether it may be
/// `noalias` (see the module doc); all false when the kernel breaks a
/// condition.
pub fn own_memory(m: &Module, k: &Kernel) -> Vec<bool> {
    let none = vec![false; k.params.len()];
    let mut names = HashSet::new();
    for p in &k.params {
        let ty = &k.body.local(p.local).ty;
        let ok = match p.mode {
            ParamMode::Scratch => true,
            ParamMode::Value => !matches!(ty, Type::Ptr(_) | Type::Blob { .. }),
            ParamMode::DevicePtr => p.own && names.insert(p.name.as_str()),
        };
        if !ok {
            return none;
        }
    }
    if !makes_no_pointers(m, &k.body, &mut HashSet::new()) {
        return none;
    }
    k.params
        .iter()
        .map(|p| p.mode == ParamMode::DevicePtr && p.own)
        .collect()
}

/// `f` and the device functions it calls (transitively; `seen` holds the
/// ones checked) load no pointer, make none from an integer and read no
/// cell; a function defined in another translation unit (whose body is
/// not here) may do anything.
fn makes_no_pointers(m: &Module, f: &Function, seen: &mut HashSet<usize>) -> bool {
    let exprs_ok = f.exprs.iter().enumerate().all(|(i, e)| {
        let ty = &f.expr_types[i];
        match e {
            Expr::Load(_) => !matches!(ty, Type::Ptr(_)),
            Expr::Cast(a) => !matches!(ty, Type::Ptr(_)) || matches!(f.ty(*a), Type::Ptr(_)),
            Expr::Cell(_) => false,
            _ => true,
        }
    });
    if !exprs_ok {
        return false;
    }
    let mut ok = true;
    let mut callees = vec![];
    walk_stmts(&f.body, &mut |s| match s {
        Stmt::AtomicLoad { dst, .. } if matches!(f.local(*dst).ty, Type::Ptr(_)) => ok = false,
        Stmt::AtomicRmw { old: Some(l), .. } | Stmt::AtomicCas { old: l, .. }
            if matches!(f.local(*l).ty, Type::Ptr(_)) =>
        {
            ok = false
        }
        Stmt::Call { func, .. } => callees.push(*func),
        _ => {}
    });
    ok && callees.into_iter().all(|c| {
        if !seen.insert(c) {
            return true;
        }
        m.functions
            .get(c)
            .is_some_and(|d| d.linkage != Linkage::Import && makes_no_pointers(m, &d.body, seen))
    })
}
