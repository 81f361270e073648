//! Host expressions and ranges as C: each node of an [`HostExpr`], a
//! [`HostAddr`] or a [`HostBytes`] becomes the C
//! expression (or `ptxrt.h` helper call) it stands for, as a [`CExpr`]
//! the shared writer prints. No decisions: what to compute is the plan's
//! (`schedule::launch`).
//!
//! Owns: [`Site`], [`c_expr`], [`user`], [`addr`], [`bytes`]. May call:
//! `ir`, `codegen::c`.

use crate::codegen::c::{lit, CBinOp, CExpr};
use crate::ir::{HostAddr, HostBytes, HostExpr, HostType, Lvalue, Scaled, UserExpr};

/// Where a launch size is computed: construct number `id` (whose fitted
/// block, where the plan fits it, is `__accc_b{id}`, and whose location is
/// `__accc_loc{id}`), launching `kernel` of image `image` in blocks of
/// `threads` threads.
pub struct Site<'a> {
    pub id: usize,
    pub image: &'a str,
    pub kernel: &'a str,
    pub threads: CExpr,
}

impl Site<'_> {
    /// `__ptxrt_kernel_*`'s first arguments: the location, image and kernel.
    fn kernel_args(&self) -> Vec<CExpr> {
        vec![
            CExpr::atom(format!("&__accc_loc{}", self.id)),
            CExpr::atom(format!("&{}", self.image)),
            CExpr::atom(crate::codegen::c::c_str(self.kernel)),
        ]
    }

    /// The most threads a block of the kernel may have
    /// (`__ptxrt_kernel_threads`).
    pub fn kernel_threads(&self) -> CExpr {
        CExpr::call("__ptxrt_kernel_threads", self.kernel_args())
    }
}

/// The threads of a block of sizes `block` (constants multiplied, sizes
/// of 1 left out).
pub fn threads(block: &[HostExpr; 3]) -> HostExpr {
    let konst = block
        .iter()
        .filter_map(HostExpr::as_const)
        .fold(1u32, u32::saturating_mul);
    block
        .iter()
        .filter(|e| e.as_const().is_none())
        .cloned()
        .fold(HostExpr::Const(konst), |a, b| match a {
            HostExpr::Const(1) => b,
            a => HostExpr::Mul(Box::new(a), Box::new(b)),
        })
}

/// `e` where `site` says.
pub fn c_expr(e: &HostExpr, site: &Site) -> CExpr {
    let id = site.id;
    let c = |e: &HostExpr| c_expr(e, site);
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
        HostExpr::DefaultGangs { trip, per } => {
            let mut args = site.kernel_args();
            args.push(trip.as_deref().map_or_else(|| CExpr::atom("~0ULL"), c));
            args.push(c(per));
            args.push(site.threads.clone());
            CExpr::call("__ptxrt_kernel_gangs", args)
        }
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

/// A user's expression converted to its type (a truth value: compared
/// with 0, as C's `if` does).
pub fn user(u: &UserExpr) -> CExpr {
    let e = CExpr::text(u.text.clone());
    match u.ty {
        HostType::Bool => CExpr::bin(CBinOp::Ne, e, CExpr::atom("0")),
        ty => CExpr::cast(ty.c_name(), e),
    }
}

fn lv(l: &Lvalue) -> CExpr {
    CExpr::text(l.c_spelling())
}

/// `count * sizeof(elem)`, the size converted to the count's type unless
/// that is `sizeof`'s own (`unsigned long`).
fn scaled(s: &Scaled) -> CExpr {
    let n = user(&s.count);
    match &s.elem {
        None => n,
        Some(e) => {
            let size = CExpr::SizeofExpr(Box::new(lv(e)));
            let size = match s.count.ty {
                HostType::ULong => size,
                ty => CExpr::cast(ty.c_name(), size),
            };
            CExpr::bin(CBinOp::Mul, n, size)
        }
    }
}

/// An address, as the `const void *` the runtime takes.
pub fn addr(a: &HostAddr) -> CExpr {
    let void = |e| CExpr::cast("const void *", e);
    match a {
        HostAddr::Of(l) => void(CExpr::addr_of(lv(l))),
        HostAddr::Value(l) => void(lv(l)),
        HostAddr::Offset { ptr, by } => CExpr::cond(
            lv(ptr),
            void(CExpr::bin(
                CBinOp::Add,
                CExpr::cast("unsigned long", lv(ptr)),
                scaled(by),
            )),
            void(CExpr::atom("0")),
        ),
        HostAddr::Bytes(terms) => {
            let sum = terms
                .iter()
                .map(scaled)
                .reduce(|a, b| CExpr::bin(CBinOp::Add, a, b))
                .unwrap_or_else(|| CExpr::atom("0"));
            void(CExpr::cast("long", sum))
        }
    }
}

/// A length in bytes.
pub fn bytes(b: &HostBytes) -> CExpr {
    match b {
        HostBytes::Zero => CExpr::atom("0"),
        HostBytes::SizeOf(l) => CExpr::SizeofExpr(Box::new(lv(l))),
        HostBytes::Scaled(s) => scaled(s),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::SrcLoc;

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
        let site = |id| Site {
            id,
            image: "img",
            kernel: "k",
            threads: lit::uint(128),
        };
        assert_eq!(
            c_expr(&e, &site(3)).to_c(),
            "(unsigned int)((unsigned long long)(n) / (4u * __accc_b3[1]) + 1 < 65535ULL ? \
             ((unsigned long long)(n) + 4u * __accc_b3[1] - 1) / (4u * __accc_b3[1]) + \
             ((unsigned long long)(n) == 0) : 65535ULL)"
        );
        let g = HostExpr::DefaultGangs {
            trip: None,
            per: Box::new(HostExpr::WarpFriendly(Box::new(HostExpr::Const(100)))),
        };
        assert_eq!(
            c_expr(&g, &site(1)).to_c(),
            "__ptxrt_kernel_gangs(&__accc_loc1, &img, \"k\", ~0ULL, __ptxrt_warp_friendly(100u), 128u)"
        );
        // num_gangs(g): the user's gangs where positive, else the kernel's.
        let gangs = HostExpr::SizeOr(
            Box::new(HostExpr::User(UserExpr {
                text: "g".into(),
                loc: SrcLoc::default(),
                ty: HostType::LongLong,
            })),
            Box::new(g.clone()),
        );
        assert_eq!(
            c_expr(&gangs, &site(1)).to_c(),
            "__ptxrt_size_or((long long)g, __ptxrt_kernel_gangs(&__accc_loc1, &img, \"k\", ~0ULL, \
             __ptxrt_warp_friendly(100u), 128u))"
        );
        let fitted = [HostExpr::Block(0), HostExpr::Const(1), HostExpr::Block(2)];
        assert_eq!(
            c_expr(&threads(&fitted), &site(4)).to_c(),
            "__accc_b4[0] * __accc_b4[2]"
        );
        let fixed = [HostExpr::Const(32), HostExpr::Const(4), HostExpr::Const(1)];
        assert_eq!(threads(&fixed), HostExpr::Const(128));
        assert_eq!(
            site(2).kernel_threads().to_c(),
            "__ptxrt_kernel_threads(&__accc_loc2, &img, \"k\")"
        );
    }
}
