//! The host code of the `init`, `shutdown` and `set` directives: their
//! argument expressions evaluated once, then one runtime call per device
//! type of the `device_type` clause (`__ptxrt_init`, `__ptxrt_shutdown`,
//! `__ptxrt_set` of ptxrt.h). The `if` clause and the location are the
//! caller's ([`super::Writer`]).
//!
//! Owns: [`calls`]. May call: `ir::host`, [`super::c_str`], [`super::expr`].

use super::c_str;
use super::expr::user;
use crate::codegen::c::CWriter;
use crate::ir::host::{DeviceDirective, DeviceOp, DEVICE_CURRENT};

/// Writes the C statements of directive `d` (construct number `id`, whose
/// location is `__accc_loc{id}`).
pub fn calls(out: &mut CWriter, d: &DeviceDirective, id: usize) {
    let num = match &d.num {
        Some(e) => {
            out.line(&format!("int __accc_dn{id} = {};", user(e).to_c()));
            format!("1, __accc_dn{id}")
        }
        None => "0, 0".to_string(),
    };
    let types: Vec<(i32, String)> = if d.types.is_empty() {
        vec![(DEVICE_CURRENT, "(const char *)0".to_string())]
    } else {
        d.types.iter().map(|t| (t.value, c_str(&t.name))).collect()
    };
    let tail = match (d.op, &d.default_async) {
        (DeviceOp::Set, Some(e)) => {
            out.line(&format!("int __accc_da{id} = {};", user(e).to_c()));
            format!(", 1, __accc_da{id}")
        }
        (DeviceOp::Set, None) => ", 0, 0".to_string(),
        _ => String::new(),
    };
    let f = match d.op {
        DeviceOp::Init => "__ptxrt_init",
        DeviceOp::Shutdown => "__ptxrt_shutdown",
        DeviceOp::Set => "__ptxrt_set",
    };
    for (value, name) in types {
        out.line(&format!(
            "{f}(&__accc_loc{id}, {value}, {name}, {num}{tail});"
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codegen::c::Layout;
    use crate::ir::host::DeviceType;

    fn calls(d: &DeviceDirective, id: usize) -> String {
        let mut w = CWriter::new(Layout::OneLine);
        super::calls(&mut w, d, id);
        w.finish()
    }
    use crate::ir::{HostType, SrcLoc, UserExpr};

    fn int(text: &str) -> Option<UserExpr> {
        Some(UserExpr {
            text: text.into(),
            loc: SrcLoc::default(),
            ty: HostType::Int,
        })
    }

    #[test]
    fn one_call_per_type_arguments_once() {
        let d = DeviceDirective {
            op: DeviceOp::Init,
            types: vec![DeviceType::named("nvidia"), DeviceType::named("radeon")],
            num: int("k + 1"),
            default_async: None,
        };
        assert_eq!(
            calls(&d, 4),
            "int __accc_dn4 = (int)(k + 1); \
             __ptxrt_init(&__accc_loc4, 5, \"nvidia\", 1, __accc_dn4); \
             __ptxrt_init(&__accc_loc4, -101, \"radeon\", 1, __accc_dn4); "
        );
        let d = DeviceDirective {
            op: DeviceOp::Set,
            types: vec![],
            num: None,
            default_async: int("q"),
        };
        assert_eq!(
            calls(&d, 2),
            "int __accc_da2 = (int)q; __ptxrt_set(&__accc_loc2, -1, (const char *)0, 0, 0, 1, __accc_da2); "
        );
        let d = DeviceDirective {
            op: DeviceOp::Shutdown,
            types: vec![DeviceType::named("*")],
            num: None,
            default_async: None,
        };
        assert_eq!(
            calls(&d, 1),
            "__ptxrt_shutdown(&__accc_loc1, -100, \"*\", 0, 0); "
        );
    }
}
