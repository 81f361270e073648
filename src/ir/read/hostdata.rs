//! Reading a construct's undecided data (`undecided …` and its `facts …`
//! lines, after its maps): the inverse of the `Display` of
//! [`UndecidedData`] in `ir/hosttext.rs`.
//!
//! Owns: [`undecided`]. May call: the cursor, `read/plan.rs` (objects and
//! addresses), `read/host.rs` (locations), `ir` types.

use super::cursor::{Cursor, Result};
use super::host::loc_at;
use super::plan::{addr, kw, lvalue};
use crate::ir::hostdata::{DataScope, DataVar, HostFacts, Shape, UndecidedData, Visible};

/// `undecided kernel|region(K, …)|in_region [default_present] [default_none]
/// at LOC`
/// (after the word `undecided`), then its `facts` lines.
pub(super) fn undecided(c: &mut Cursor) -> Result<UndecidedData> {
    c.skip_ws();
    let at = c.pos;
    let scope = match c.word() {
        "kernel" => DataScope::Kernel,
        "in_region" => DataScope::InRegion,
        "region" => {
            c.expect("(")?;
            let mut kernels = vec![c.unsigned()?];
            while c.tok(",") {
                kernels.push(c.unsigned()?);
            }
            c.expect(")")?;
            DataScope::Region { kernels }
        }
        w => {
            return Err(c.error_at(
                at,
                format!("expected kernel, region(…) or in_region, found '{w}'"),
            ))
        }
    };
    let default_present = kw(c, "default_present");
    let default_none = kw(c, "default_none");
    let loc = loc_at(c)?;
    let mut vars = vec![];
    while kw(c, "facts") {
        vars.push(data_var(c)?);
    }
    Ok(UndecidedData {
        scope,
        vars,
        default_present,
        default_none,
        loc,
    })
}

/// `"name" kernel=K param=P SHAPE [size_of L] [by_ref] [demotable] [const] [member]
/// [clause=ADDR [deviceptr] [no_create]]` (after `facts`).
fn data_var(c: &mut Cursor) -> Result<DataVar> {
    let name = c.quoted()?;
    c.expect("kernel")?;
    c.expect("=")?;
    let kernel = c.unsigned()?;
    c.expect("param")?;
    c.expect("=")?;
    let param = c.unsigned()?;
    c.skip_ws();
    let at = c.pos;
    let shape = match c.word() {
        "array" => Shape::Array,
        "other" => Shape::Other,
        "pointer" if c.tok("(") => {
            let elem = Some(c.unsigned()?);
            c.expect(")")?;
            Shape::Pointer { elem }
        }
        "pointer" => Shape::Pointer { elem: None },
        w => return Err(c.error_at(at, format!("expected array, pointer or other, found '{w}'"))),
    };
    let size_of = if kw(c, "size_of") {
        Some(lvalue(c)?)
    } else {
        None
    };
    let by_ref = kw(c, "by_ref");
    let demotable = kw(c, "demotable");
    let const_object = kw(c, "const");
    let member_in_clause = kw(c, "member");
    let clause = if kw(c, "clause") {
        c.expect("=")?;
        let start = addr(c)?;
        Some(Visible {
            var: name.clone(),
            start,
            deviceptr: kw(c, "deviceptr"),
            no_create: kw(c, "no_create"),
        })
    } else {
        None
    };
    Ok(DataVar {
        kernel,
        param,
        facts: HostFacts {
            name,
            size_of,
            by_ref,
            demotable,
            shape,
            const_object,
            clause,
            member_in_clause,
        },
    })
}
