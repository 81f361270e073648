//! Host expressions as C: each node of an [`HostExpr`] becomes the C
//! expression (or `ptxrt.h` helper call) it stands for, as a [`CExpr`]
//! the shared writer prints. No decisions: what to compute is the plan's
//! (`schedule::launch`).
//!
//! Owns: [`c_expr`], [`user`]. May call: `ir`, `codegen::c`.

use crate::codegen::c::{lit, CBinOp, CExpr};
use crate::ir::{HostExpr, UserExpr};

/// `e` in construct number `id` (whose fitted block, where the plan fits
/// it, is `__accc_b{id}`).
pub fn c_expr(e: &HostExpr, id: usize) -> CExpr {
    let c = |e: &HostExpr| c_expr(e, id);
    match e {
        HostExpr::Const(n) => lit::uint(*n),
        HostExpr::User(u) => user(u),
        HostExpr::Block(d) => CExpr::index(
            CExpr::atom(format!("__accc_b{id}")),
            CExpr::atom(d.to_string()),
        ),
        HostExpr::Mul(a, b) => CExpr::bin(CBinOp::Mul, c(a), c(b)),
        HostExpr::SizeOr(v, d) => CExpr::call("__ptxrt_size_or", vec![c(v), c(d)]),
        HostExpr::WarpFriendly(v) => CExpr::call("__ptxrt_warp_friendly", vec![c(v)]),
        HostExpr::DefaultGangs { trip, per } => CExpr::call(
            "__ptxrt_default_gangs",
            vec![
                trip.as_deref().map_or_else(|| CExpr::atom("~0ULL"), c),
                c(per),
            ],
        ),
        HostExpr::Cover { trip, per } => {
            // Blocks of `per` covering `trip` (at least one), at most
            // 65535; the quotient is compared first so that the rounding
            // up cannot overflow.
            let (t, per) = (c(trip), c(per));
            let max = lit::ull(65535);
            let one = || CExpr::atom("1");
            let fits = CExpr::bin(
                CBinOp::Lt,
                CExpr::bin(
                    CBinOp::Add,
                    CExpr::bin(CBinOp::Div, t.clone(), per.clone()),
                    one(),
                ),
                max.clone(),
            );
            let up = CExpr::bin(
                CBinOp::Div,
                CExpr::bin(
                    CBinOp::Sub,
                    CExpr::bin(CBinOp::Add, t.clone(), per.clone()),
                    one(),
                ),
                per,
            );
            let covered = CExpr::bin(CBinOp::Add, up, CExpr::bin(CBinOp::Eq, t, CExpr::atom("0")));
            CExpr::cast("unsigned int", CExpr::cond(fits, covered, max))
        }
    }
}

/// A user's expression converted to its type.
pub fn user(u: &UserExpr) -> CExpr {
    CExpr::cast(u.ty.c_name(), CExpr::text(u.text.clone()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{HostType, SrcLoc};

    fn n() -> HostExpr {
        HostExpr::User(UserExpr {
            text: "(n)".into(),
            loc: SrcLoc::default(),
            ty: HostType::ULongLong,
        })
    }

    #[test]
    fn launch_sizes_as_c() {
        let e = HostExpr::Cover {
            trip: Box::new(n()),
            per: Box::new(HostExpr::Mul(
                Box::new(HostExpr::Const(4)),
                Box::new(HostExpr::Block(1)),
            )),
        };
        assert_eq!(
            c_expr(&e, 3).to_c(),
            "(unsigned int)((unsigned long long)(n) / (4u * __accc_b3[1]) + 1 < 65535ULL ? \
             ((unsigned long long)(n) + 4u * __accc_b3[1] - 1) / (4u * __accc_b3[1]) + \
             ((unsigned long long)(n) == 0) : 65535ULL)"
        );
        let g = HostExpr::DefaultGangs {
            trip: None,
            per: Box::new(HostExpr::WarpFriendly(Box::new(HostExpr::Const(100)))),
        };
        assert_eq!(
            c_expr(&g, 1).to_c(),
            "__ptxrt_default_gangs(~0ULL, __ptxrt_warp_friendly(100u))"
        );
    }
}
