//! Reading a kernel's launch: the sizes the construct asks for
//! (`launch grid=(…) block=(…)`, [`GridSize`]) and the plan of how the
//! host computes them (a compute construct's `launch block=(…) … grid=(…)`
//! line in the host plan, [`LaunchPlan`]), with
//! their host expressions ([`HostExpr`], [`UserExpr`]): the inverse of
//! their `Display` impls (`ir/hostexpr.rs`) and of `print.rs`'s `grid`;
//! and what the launch is computed from: the construct's size clauses
//! (`sizes num_gangs(…) …`, [`SizeClauses`]) and a planned loop's facts
//! (`sizes(trip: …, const: N, gang: …)`, [`LoopSizes`]).
//!
//! Owns: [`grid3`], [`launch_plan`], [`size_clauses`], [`loop_sizes`],
//! [`user`], [`loc_at`]. May call: the cursor, `ir` types.

use super::cursor::{Cursor, Result, MAX_DEPTH};
use crate::ir::hostexpr::DIMS;
use crate::ir::{
    GridSize, HostExpr, HostType, LaunchPlan, LoopSizes, SizeClauses, SrcLoc, UserExpr,
};

/// `num_gangs(E, …) num_workers(E) vector_length(E)` (each optional, in
/// that order), after `sizes`.
pub(super) fn size_clauses(c: &mut Cursor) -> Result<SizeClauses> {
    let mut s = SizeClauses::default();
    if c.tok("num_gangs") {
        c.expect("(")?;
        loop {
            s.num_gangs.push(user(c)?);
            if c.tok(")") {
                break;
            }
            c.expect(",")?;
        }
    }
    for (what, slot) in [
        ("num_workers", &mut s.num_workers),
        ("vector_length", &mut s.vector_length),
    ] {
        if c.tok(what) {
            c.expect("(")?;
            *slot = Some(user(c)?);
            c.expect(")")?;
        }
    }
    Ok(s)
}

/// `(trip: E, const: N, gang: E, worker: E, vector: E)` (each optional,
/// in that order), after a loop's `sizes`.
pub(super) fn loop_sizes(c: &mut Cursor) -> Result<LoopSizes> {
    let mut z = LoopSizes::default();
    c.expect("(")?;
    let mut first = true;
    while !c.tok(")") {
        if !first {
            c.expect(",")?;
        }
        first = false;
        c.skip_ws();
        let at = c.pos;
        let key = c.word();
        c.expect(":")?;
        match key {
            "trip" => z.trip = Some(user(c)?),
            "const" => z.const_trip = Some(c.unsigned()?),
            "gang" => z.gang = Some(user(c)?),
            "worker" => z.worker = Some(user(c)?),
            "vector" => z.vector = Some(user(c)?),
            k => return Err(c.error_at(at, format!("unknown loop size '{k}'"))),
        }
    }
    Ok(z)
}

/// `(a, b, c)` of launch sizes.
pub(super) fn grid3(c: &mut Cursor) -> Result<[GridSize; 3]> {
    c.expect("(")?;
    let a = grid(c, 0)?;
    c.expect(",")?;
    let b = grid(c, 0)?;
    c.expect(",")?;
    let d = grid(c, 0)?;
    c.expect(")")?;
    Ok([a, b, d])
}

fn grid(c: &mut Cursor, depth: u32) -> Result<GridSize> {
    c.skip_ws();
    if depth > MAX_DEPTH {
        return c.err("launch size nested too deeply");
    }
    if c.peek().is_some_and(|ch| ch.is_ascii_digit()) {
        return Ok(GridSize::Const(c.unsigned()?));
    }
    let warp = c.tok("warp");
    if c.tok("clause") {
        c.expect("(")?;
        let expr = user(c)?;
        c.expect(",")?;
        c.expect("else")?;
        let default = Box::new(grid(c, depth + 1)?);
        c.expect(")")?;
        return Ok(GridSize::Clause {
            expr,
            default,
            warp,
        });
    }
    if !warp && c.tok("auto") {
        c.expect("(")?;
        c.expect("trip")?;
        c.expect("=")?;
        let trip = if c.tok("?") { None } else { Some(user(c)?) };
        c.expect(",")?;
        c.expect("threads")?;
        c.expect("=")?;
        c.expect("[")?;
        let mut threads = vec![];
        if !c.tok("]") {
            loop {
                threads.push(c.unsigned()?);
                if c.tok("]") {
                    break;
                }
                c.expect(",")?;
            }
        }
        c.expect(")")?;
        return Ok(GridSize::FromTrip { trip, threads });
    }
    c.err("expected a launch size")
}

/// `i64 (C text) at "file":line:col`.
pub(super) fn user(c: &mut Cursor) -> Result<UserExpr> {
    c.skip_ws();
    let at = c.pos;
    let w = c.word();
    let Some(ty) = HostType::from_ir_name(w) else {
        return Err(c.error_at(
            at,
            format!("expected a host type (i64, u64, i32, bool, ilong, ulong), found '{w}'"),
        ));
    };
    c.skip_ws();
    let text = c.balanced()?.to_string();
    let loc = loc_at(c)?;
    Ok(UserExpr { text, loc, ty })
}

/// `at "file":line:col`.
pub(super) fn loc_at(c: &mut Cursor) -> Result<SrcLoc> {
    c.expect("at")?;
    let file = c.quoted()?;
    c.expect_here(":")?;
    let line = c.unsigned()?;
    c.expect_here(":")?;
    let col = c.unsigned()?;
    Ok(SrcLoc { file, line, col })
}

/// `block=(…) [fit(fixed=N)] grid=(…) [wait]` (after `launch`).
pub(super) fn launch_plan(c: &mut Cursor) -> Result<LaunchPlan> {
    c.expect("block")?;
    c.expect("=")?;
    let block = expr3(c)?;
    let fit = if c.tok("fit") {
        c.expect("(")?;
        c.expect("fixed")?;
        c.expect("=")?;
        let fixed = c.unsigned()?;
        c.expect(")")?;
        Some(fixed)
    } else {
        None
    };
    c.expect("grid")?;
    c.expect("=")?;
    let grid = expr3(c)?;
    let wait = c.tok("wait");
    Ok(LaunchPlan {
        block,
        fit,
        grid,
        wait,
    })
}

/// `(a, b, c)` of host expressions.
fn expr3(c: &mut Cursor) -> Result<[HostExpr; 3]> {
    c.expect("(")?;
    let a = expr(c, 0)?;
    c.expect(",")?;
    let b = expr(c, 0)?;
    c.expect(",")?;
    let d = expr(c, 0)?;
    c.expect(")")?;
    Ok([a, b, d])
}

/// `name(a, b)`'s operands after `name`.
fn two(c: &mut Cursor, depth: u32) -> Result<(Box<HostExpr>, Box<HostExpr>)> {
    c.expect("(")?;
    let a = expr(c, depth + 1)?;
    c.expect(",")?;
    let b = expr(c, depth + 1)?;
    c.expect(")")?;
    Ok((Box::new(a), Box::new(b)))
}

fn expr(c: &mut Cursor, depth: u32) -> Result<HostExpr> {
    c.skip_ws();
    if depth > MAX_DEPTH {
        return c.err("host expression nested too deeply");
    }
    if c.peek().is_some_and(|ch| ch.is_ascii_digit()) {
        return Ok(HostExpr::Const(c.unsigned()?));
    }
    if ["i64", "u64", "i32", "bool", "ilong", "ulong"]
        .iter()
        .any(|t| c.rest().starts_with(t))
    {
        return Ok(HostExpr::User(user(c)?));
    }
    if c.eat("block.") {
        let at = c.pos;
        let w = c.word();
        return match DIMS.iter().position(|d| *d == w) {
            Some(d) => Ok(HostExpr::Block(d as u8)),
            None => Err(c.error_at(at, format!("expected x, y or z, found '{w}'"))),
        };
    }
    let at = c.pos;
    match c.word() {
        "mul" => two(c, depth).map(|(a, b)| HostExpr::Mul(a, b)),
        "size_or" => two(c, depth).map(|(a, b)| HostExpr::SizeOr(a, b)),
        "cover" => two(c, depth).map(|(trip, per)| HostExpr::Cover { trip, per }),
        "warp_friendly" => {
            c.expect("(")?;
            let a = expr(c, depth + 1)?;
            c.expect(")")?;
            Ok(HostExpr::WarpFriendly(Box::new(a)))
        }
        "default_gangs" => {
            c.expect("(")?;
            let trip = if c.tok("?") {
                None
            } else {
                Some(Box::new(expr(c, depth + 1)?))
            };
            c.expect(",")?;
            let per = Box::new(expr(c, depth + 1)?);
            c.expect(")")?;
            Ok(HostExpr::DefaultGangs { trip, per })
        }
        w => Err(c.error_at(at, format!("expected a host expression, found '{w}'"))),
    }
}
