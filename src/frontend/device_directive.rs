//! The device management directives `init`, `shutdown` and `set`
//! (OpenACC 3.3 2.14.1-2.14.3): their clauses as a
//! [`DeviceDirective`] (a runtime call per device type, made by the host
//! rewrite in place of the directive's line).
//!
//! Owns: [`Walker::device_directive`] — the device types named by
//! `device_type` (`nvidia`, `not_host`, `host`, `default`, `*`, and names of
//! devices accc has none of, which `init` and `shutdown` skip at run time),
//! the `device_num` and `default_async` expressions, and the rule that
//! `set` names one device type. The clause grammar and the rule that `set`
//! has at least one of its clauses are the directive parser's.
//! May call: `clauses`, `ir::host`, `directive`.

use super::unit::Walker;
use crate::diag::DResult;
use crate::directive::{ClauseKind, DeviceTypeList, Directive, DirectiveKind};
use crate::ir::host::{DeviceDirective, DeviceOp, DeviceType};
use crate::ir::HostType;

impl Walker<'_> {
    /// The `init`, `shutdown` or `set` directive `d` at pragma `p`.
    pub fn device_directive(&self, p: usize, d: &Directive) -> DResult<DeviceDirective> {
        let op = match d.kind {
            DirectiveKind::Init => DeviceOp::Init,
            DirectiveKind::Shutdown => DeviceOp::Shutdown,
            _ => DeviceOp::Set,
        };
        let ctx = self.clause_ctx(p);
        let mut out = DeviceDirective {
            op,
            types: vec![],
            num: None,
            default_async: None,
        };
        for c in &d.clauses {
            match &c.kind {
                ClauseKind::DeviceType { list, .. } => {
                    out.types = match list {
                        DeviceTypeList::Any(_) => vec![DeviceType::named("*")],
                        DeviceTypeList::Names(ns) => {
                            ns.iter().map(|n| DeviceType::named(&n.name)).collect()
                        }
                    };
                    let one_type =
                        out.types.len() == 1 && out.types[0].value != crate::ir::host::DEVICE_ANY;
                    if op == DeviceOp::Set && !one_type {
                        return self.clause_err(
                            p,
                            c,
                            "the 'device_type' clause of 'set' names one device type".into(),
                        );
                    }
                }
                ClauseKind::DeviceNum(e) => out.num = Some(ctx.user_expr(e, HostType::Int)?),
                ClauseKind::DefaultAsync(e) => {
                    out.default_async = Some(ctx.user_expr(e, HostType::Int)?)
                }
                _ => {}
            }
        }
        Ok(out)
    }
}
