//! Demotion of by-reference host scalars a kernel never writes: a
//! `kernels` region lowers every host scalar it uses by reference (one
//! that it assigns is implicitly `copy`, OpenACC 3.3 2.5.3, and which
//! those are is only known once lowered); afterwards each one no kernel
//! of the region writes becomes a value parameter again, as if lowered by
//! value from the start.
//!
//! Owns: [`demote`]. May call: `ir`.

use super::HostVar;
use crate::ir::{Expr, Function, Param, ParamMode};

/// Makes parameter `i` (a pointer to one host scalar, never stored
/// through) a value parameter: `load(p)` reads `p` itself, and `p` used
/// as an address (a complex or `long double` value's bytes) is the
/// local's address.
pub fn demote(f: &mut Function, params: &mut [Param], vars: &mut [HostVar], i: usize) {
    let p = params[i].local;
    let Some(value_ty) = f.local(p).ty.pointee().cloned() else {
        return;
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
    vars[i].by_ref = false;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frontend::ctype::CType;
    use crate::ir::{BinOp, Stmt, Type};

    #[test]
    fn loads_become_reads() {
        let mut f = Function::default();
        let p = f.new_local("s", Type::I32.ptr_to());
        let t = f.new_local("t", Type::I32);
        let rp = f.read(p);
        let ld = f.add(Expr::Load(rp), Type::I32);
        let two = f.add(Expr::Literal(crate::ir::Literal::Int(2)), Type::I32);
        let m = f.add(
            Expr::Binary {
                op: BinOp::Mul,
                lhs: ld,
                rhs: two,
            },
            Type::I32,
        );
        f.body.push(Stmt::Assign { local: t, value: m });
        let mut params = vec![Param {
            name: "s".into(),
            local: p,
            mode: ParamMode::DevicePtr,
        }];
        let mut vars = vec![HostVar {
            name: "s".into(),
            ty: CType::INT,
            written: false,
            by_ref: true,
            size_of: None,
        }];
        demote(&mut f, &mut params, &mut vars, 0);
        assert_eq!(f.expr(ld), &Expr::Local(p));
        assert_eq!(f.local(p).ty, Type::I32);
        assert_eq!(params[0].mode, ParamMode::Value);
        assert!(!vars[0].by_ref);
    }
}
