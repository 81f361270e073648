//! Host expressions as C: each node of an [`HostExpr`] becomes the C
//! expression (or `ptxrt.h` helper call) it stands for. No decisions:
//! what to compute is the plan's (`schedule::launch`).
//!
//! Owns: [`c_expr`]. May call: `ir`.

use crate::ir::{HostExpr, UserExpr};

/// The C text of `e` in construct number `id` (whose fitted block, where
/// the plan fits it, is `__accc_b{id}`).
pub fn c_expr(e: &HostExpr, id: usize) -> String {
    let c = |e: &HostExpr| c_expr(e, id);
    match e {
        HostExpr::Const(n) => format!("{n}u"),
        HostExpr::User(u) => user(u),
        HostExpr::Block(d) => format!("__accc_b{id}[{d}]"),
        HostExpr::Mul(a, b) => format!("{} * {}", c(a), c(b)),
        HostExpr::SizeOr(v, d) => format!("__ptxrt_size_or({}, {})", c(v), c(d)),
        HostExpr::WarpFriendly(v) => format!("__ptxrt_warp_friendly({})", c(v)),
        HostExpr::DefaultGangs { trip, per } => format!(
            "__ptxrt_default_gangs({}, {})",
            trip.as_deref().map_or("~0ULL".to_string(), c),
            c(per)
        ),
        HostExpr::Cover { trip, per } => {
            let (t, per) = (c(trip), c(per));
            format!(
                "(unsigned int)(({t} / ({per}) + 1) < 65535ULL ? ({t} + ({per}) - 1) / ({per}) + ({t} == 0) : 65535ULL)"
            )
        }
    }
}

/// A user's expression converted to its type.
fn user(u: &UserExpr) -> String {
    format!("({})({})", u.ty.c_name(), u.text)
}
