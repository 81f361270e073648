//! Reading the host plan (`construct …` and `declare …` after the
//! kernels): the inverse of `ir/hosttext.rs`.
//!
//! Nested constructs follow their parent's maps in `{ … }`.
//!
//! Owns: [`nested`], [`construct`], [`declare`], and the objects and
//! addresses `read/hostdata.rs` reads too. May call: the cursor,
//! `read/host.rs` (user expressions), `read/hostdata.rs` (a construct's
//! undecided data), `ir` types.

use super::cursor::{Cursor, Result};
use super::host::{launch_plan, loc_at, user};
use crate::ir::host::{
    AsyncSpec, AtomicArith, AtomicUpdate, Captured, Construct, ConstructKind, DeviceDirective,
    DeviceType, GlobalDeclare, HostArg, HostAtomic, HostMap, MapKind, Queue, UpdateItem,
};
use crate::ir::hosttext::DEVICE_OPS;
use crate::ir::{HostAddr, HostBytes, Lvalue, Scaled};
use std::ops::Range;

const MAP_KINDS: [MapKind; 11] = [
    MapKind::Copy,
    MapKind::CopyIn,
    MapKind::CopyOut,
    MapKind::Create,
    MapKind::Present,
    MapKind::NoCreate,
    MapKind::Delete,
    MapKind::Attach,
    MapKind::Detach,
    MapKind::DevicePtr,
    MapKind::Rows,
];

/// Consumes the word `w` where it comes next as a whole word.
pub(super) fn kw(c: &mut Cursor, w: &str) -> bool {
    c.skip_ws();
    let r = c.rest();
    let whole = r.starts_with(w)
        && !r[w.len()..].starts_with(|ch: char| ch.is_ascii_alphanumeric() || ch == '_');
    whole && c.eat(w)
}

pub(super) fn lvalue(c: &mut Cursor) -> Result<Lvalue> {
    c.skip_ws();
    let at = c.pos;
    let text = c.quoted()?;
    Lvalue::parse(&text).ok_or_else(|| {
        c.error_at(
            at,
            format!("{text:?} is not an object's spelling (a name, member, element or `(*(p))`)"),
        )
    })
}

/// `scaled(count[, "elem"])`.
fn scaled(c: &mut Cursor) -> Result<Scaled> {
    c.expect("scaled")?;
    c.expect("(")?;
    let count = user(c)?;
    let elem = if c.tok(",") { Some(lvalue(c)?) } else { None };
    c.expect(")")?;
    Ok(Scaled { count, elem })
}

pub(super) fn addr(c: &mut Cursor) -> Result<HostAddr> {
    c.skip_ws();
    let at = c.pos;
    match c.word() {
        "of" => Ok(HostAddr::Of(lvalue(c)?)),
        "value" => Ok(HostAddr::Value(lvalue(c)?)),
        "offset" => {
            c.expect("(")?;
            let ptr = lvalue(c)?;
            c.expect(",")?;
            let by = scaled(c)?;
            c.expect(")")?;
            Ok(HostAddr::Offset { ptr, by })
        }
        "bytes" => {
            c.expect("(")?;
            let mut terms = vec![];
            if !c.tok(")") {
                loop {
                    terms.push(scaled(c)?);
                    if c.tok(")") {
                        break;
                    }
                    c.expect(",")?;
                }
            }
            Ok(HostAddr::Bytes(terms))
        }
        w => Err(c.error_at(at, format!("expected an address, found '{w}'"))),
    }
}

fn bytes(c: &mut Cursor) -> Result<HostBytes> {
    if kw(c, "zero") {
        return Ok(HostBytes::Zero);
    }
    if kw(c, "sizeof") {
        return Ok(HostBytes::SizeOf(lvalue(c)?));
    }
    Ok(HostBytes::Scaled(scaled(c)?))
}

/// ` async[(…)] wait[(…)] wait_dev(…) bind N`, each optional.
fn asyncs(c: &mut Cursor) -> Result<AsyncSpec> {
    let mut a = AsyncSpec::default();
    if kw(c, "async") {
        a.queue = Some(if !c.tok("(") {
            Queue::NoVal
        } else {
            let q = if kw(c, "bound") {
                Queue::Bound(c.unsigned()?)
            } else {
                Queue::Expr(user(c)?)
            };
            c.expect(")")?;
            q
        });
    }
    if kw(c, "wait") {
        let mut w = vec![];
        if c.tok("(") {
            loop {
                w.push(user(c)?);
                if c.tok(")") {
                    break;
                }
                c.expect(",")?;
            }
        }
        a.waits = Some(w);
    }
    if kw(c, "wait_dev") {
        c.expect("(")?;
        a.wait_dev = Some(user(c)?);
        c.expect(")")?;
    }
    if kw(c, "bind") {
        a.bind = Some(c.unsigned()?);
    }
    Ok(a)
}

fn map(c: &mut Cursor) -> Result<HostMap> {
    c.skip_ws();
    let at = c.pos;
    let w = c.word();
    let Some(kind) = MAP_KINDS.into_iter().find(|k| k.clause() == w) else {
        return Err(c.error_at(at, format!("expected a map kind, found '{w}'")));
    };
    let name = c.quoted()?;
    let start = addr(c)?;
    let bytes = bytes(c)?;
    c.expect("flags")?;
    c.expect("=")?;
    let flags = c.unsigned()?;
    let extent_guard = if kw(c, "guard") {
        c.expect("(")?;
        let g = user(c)?;
        c.expect(")")?;
        Some(g)
    } else {
        None
    };
    let implicit = kw(c, "implicit");
    let in_const = kw(c, "const");
    Ok(HostMap {
        name,
        start,
        bytes,
        kind,
        flags,
        extent_guard,
        implicit,
        in_const,
    })
}

fn arg(c: &mut Cursor) -> Result<HostArg> {
    c.skip_ws();
    let at = c.pos;
    match c.word() {
        "value" => Ok(HostArg::Value { var: lvalue(c)? }),
        "size" => Ok(HostArg::Size { bytes: bytes(c)? }),
        "scratch" => {
            c.expect("slots")?;
            c.expect("=")?;
            Ok(HostArg::Scratch {
                slots: c.unsigned()?,
            })
        }
        "deviceptr" => {
            let name = c.quoted()?;
            let ptr = addr(c)?;
            let section = if kw(c, "section") {
                c.expect("=")?;
                Some(Box::new(addr(c)?))
            } else {
                None
            };
            let if_present = kw(c, "if_present");
            Ok(HostArg::DevicePtr {
                name,
                ptr,
                section,
                if_present,
            })
        }
        w => Err(c.error_at(at, format!("expected a kernel argument, found '{w}'"))),
    }
}

fn device(c: &mut Cursor, at: usize, w: &str) -> Result<DeviceDirective> {
    let Some((op, _)) = DEVICE_OPS.iter().find(|(_, n)| *n == w) else {
        return Err(c.error_at(at, format!("expected a construct kind, found '{w}'")));
    };
    let mut d = DeviceDirective {
        op: *op,
        types: vec![],
        num: None,
        default_async: None,
    };
    loop {
        c.skip_ws();
        if c.peek() == Some('"') {
            let name = c.quoted()?;
            c.expect_here("=")?;
            let value = i32::try_from(c.integer()?)
                .map_err(|_| c.error_at(c.pos, "device type out of range"))?;
            d.types.push(DeviceType { value, name });
        } else {
            break;
        }
    }
    if kw(c, "num") {
        c.expect("(")?;
        d.num = Some(user(c)?);
        c.expect(")")?;
    }
    if kw(c, "default_async") {
        c.expect("(")?;
        d.default_async = Some(user(c)?);
        c.expect(")")?;
    }
    Ok(d)
}

/// An atomic statement's operand: `(C text)`.
fn operand(c: &mut Cursor) -> Result<String> {
    c.skip_ws();
    Ok(c.balanced()?.to_string())
}

/// An atomic statement, after `atomic` (`hosttext.rs`, [`HostAtomic`]).
fn atomic(c: &mut Cursor) -> Result<HostAtomic> {
    let x = operand(c)?;
    let update = if kw(c, "set") {
        Some(AtomicUpdate::Set(operand(c)?))
    } else if kw(c, "op") {
        c.skip_ws();
        let at = c.pos;
        let name = c.word();
        let Some(op) = AtomicArith::ALL.into_iter().find(|o| o.ir_name() == name) else {
            return Err(c.error_at(at, format!("'{name}' is not an atomic operator")));
        };
        let expr = if c.tok("1") { None } else { Some(operand(c)?) };
        Some(AtomicUpdate::Op {
            op,
            expr,
            expr_first: kw(c, "first"),
        })
    } else {
        None
    };
    let capture = if kw(c, "capture") {
        let when = if kw(c, "old") {
            Captured::Old
        } else {
            c.expect("new")?;
            Captured::New
        };
        Some((operand(c)?, when))
    } else {
        None
    };
    Ok(HostAtomic { x, update, capture })
}

/// A construct, after `construct`: its header line, its kind's line and
/// the lines of its arguments or items, then its maps.
fn construct(c: &mut Cursor) -> Result<Construct> {
    let name = c.quoted()?;
    let loc = loc_at(c)?;
    c.expect("stmt")?;
    c.expect("=")?;
    let start = c.unsigned()?;
    c.expect("..")?;
    let end = c.unsigned()?;
    let cond = if kw(c, "if") {
        c.expect("(")?;
        let e = user(c)?;
        c.expect(")")?;
        Some(e)
    } else {
        None
    };
    c.skip_ws();
    let at = c.pos;
    let w = c.word();
    let kind = match w {
        "compute" => {
            c.expect("kernel")?;
            c.expect("=")?;
            let kernel = c.unsigned()?;
            let asyncs = asyncs(c)?;
            let launch = if kw(c, "launch") {
                Some(Box::new(launch_plan(c)?))
            } else {
                None
            };
            let mut args = vec![];
            while kw(c, "arg") {
                args.push(arg(c)?);
            }
            ConstructKind::Compute {
                kernel,
                args,
                asyncs,
                launch,
            }
        }
        "data" => ConstructKind::Data { asyncs: asyncs(c)? },
        "wait_directive" => ConstructKind::Wait { asyncs: asyncs(c)? },
        "atomic" => ConstructKind::Atomic(atomic(c)?),
        "declare_local" => ConstructKind::DeclareLocal,
        "enter_data" => ConstructKind::EnterData { asyncs: asyncs(c)? },
        "exit_data" => {
            let finalize = kw(c, "finalize");
            ConstructKind::ExitData {
                finalize,
                asyncs: asyncs(c)?,
            }
        }
        "update" => {
            let if_present = kw(c, "if_present");
            let asyncs = asyncs(c)?;
            let mut items = vec![];
            while kw(c, "item") {
                let to_device = if kw(c, "device") {
                    true
                } else {
                    c.expect("self")?;
                    false
                };
                let block = kw(c, "block");
                let name = c.quoted()?;
                let start = addr(c)?;
                let bytes = bytes(c)?;
                items.push(UpdateItem {
                    name,
                    start,
                    bytes,
                    to_device,
                    block,
                });
            }
            ConstructKind::Update {
                items,
                if_present,
                asyncs,
            }
        }
        "host_data" => {
            let if_present = kw(c, "if_present");
            let mut vars = vec![];
            while kw(c, "use_device") {
                vars.push(c.quoted()?);
            }
            ConstructKind::HostData { vars, if_present }
        }
        "fallback" => ConstructKind::Fallback,
        w => ConstructKind::Device(device(c, at, w)?),
    };
    let mut maps = vec![];
    while kw(c, "map") {
        maps.push(map(c)?);
    }
    c.skip_ws();
    let undecided_at = c.pos;
    let undecided = if kw(c, "undecided") {
        let decides = match &kind {
            ConstructKind::Compute { args, .. } => args.is_empty(),
            ConstructKind::Data { .. } => true,
            _ => false,
        };
        if !decides {
            return Err(c.error_at(
                undecided_at,
                "only a compute construct with no arguments yet, or a data construct, has undecided data",
            ));
        }
        Some(Box::new(super::hostdata::undecided(c)?))
    } else {
        None
    };
    // `{ construct … }`: the constructs inside the statement, in order.
    let mut body: Vec<Construct> = vec![];
    let body_at = c.pos;
    if c.tok("{") {
        let holds = matches!(
            kind,
            ConstructKind::Data { .. }
                | ConstructKind::DeclareLocal
                | ConstructKind::HostData { .. }
                | ConstructKind::Compute { .. }
                | ConstructKind::Fallback
        );
        if !holds {
            return Err(c.error_at(
                c.pos,
                "only data, declare, host_data, compute and fallback constructs hold others",
            ));
        }
        while !c.tok("}") {
            let at = c.pos;
            let inner = nested(c, start..end, body.last())?;
            // A fallback is its compute construct's, and only that.
            let own = matches!(kind, ConstructKind::Compute { .. });
            let fallback = matches!(inner.kind, ConstructKind::Fallback);
            if own != fallback || (own && inner.stmt != (start..end)) {
                return Err(c.error_at(
                    at,
                    "a compute construct holds its fallback (of its statement) alone, and only it",
                ));
            }
            body.push(inner);
        }
    }
    if matches!(kind, ConstructKind::Compute { .. }) && body.len() != 1 {
        return Err(c.error_at(body_at, "a compute construct needs its fallback"));
    }
    Ok(Construct {
        kind,
        name,
        loc,
        stmt: start..end,
        cond,
        maps,
        body,
        undecided,
    })
}

/// `construct …` inside `within` (a parent's statement; the whole text at
/// the top level), after `prev`, its sibling before it: the plan's tree
/// must be what `HostPlan::insert` builds, or the host rewrite would cut
/// the text wrongly.
pub(super) fn nested(
    c: &mut Cursor,
    within: Range<usize>,
    prev: Option<&Construct>,
) -> Result<Construct> {
    c.skip_ws();
    let at = c.pos;
    c.expect("construct")?;
    let inner = construct(c)?;
    let after = prev.map_or(within.start, |p| p.stmt.end);
    if inner.stmt.start < after || inner.stmt.end > within.end || inner.stmt.start > inner.stmt.end
    {
        return Err(c.error_at(
            at,
            "a construct's statement must lie in its parent's, after its sibling's",
        ));
    }
    Ok(inner)
}

/// A file-scope declare, after `declare`.
pub(super) fn declare(c: &mut Cursor) -> Result<GlobalDeclare> {
    let name = c.quoted()?;
    let start = addr(c)?;
    let bytes = bytes(c)?;
    c.expect("kind")?;
    c.expect("=")?;
    let kind = i32::try_from(c.integer()?).map_err(|_| c.error_at(c.pos, "kind out of range"))?;
    let loc = loc_at(c)?;
    Ok(GlobalDeclare {
        name,
        start,
        bytes,
        kind,
        loc,
    })
}
