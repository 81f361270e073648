//! Data attributes (OpenACC 3.3 2.6.2): for each kernel parameter, the map
//! and argument its host variable gets — explicit where a data clause
//! gives it one, else implicit: arrays and aggregates `copy` (`present`
//! under `default(present)`, `copyin` for a const object), scalars by value
//! (firstprivate), pointers translated through the present table with the
//! section their subscripts reach ([`super::sections`]) mapped
//! present-or-copy, `deviceptr` pointers as they are, `no_create` ones
//! translated when present.
//!
//! Owns: [`kernel_data`] and [`implicit_start`] (the decisions), [`of_const`]
//! (a const object's `copy` is a `copyin`, for implicit maps and data
//! clauses alike), and [`undecided_uses`] (the sections they need, from
//! the lowered kernels). May call: `ir`, `sections`.
//!
//! The front end records, for each host variable a kernel parameter
//! carries, what only the C source says (its type's class, whether it is
//! const, which clause names it: [`HostFacts`], in the host plan's
//! [`UndecidedData`](crate::ir::hostdata::UndecidedData)); `schedule::data` asks here what that means once the
//! module is lowered; the parameter's mode ([`ParamMode`]) is the IR's.

use super::sections::Use;
use crate::ir::host::{ConstructKind, HostArg, HostMap, MapKind};
use crate::ir::hostdata::DataScope;
pub use crate::ir::hostdata::{HostFacts, Shape, Visible};
use crate::ir::{HostAddr, HostBytes, Lvalue, Module, Param, ParamMode, SrcLoc};
use std::collections::HashMap;

/// The data of one compute construct.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct KernelData {
    /// Its maps, in order: the aggregates whose members are in clauses
    /// (so the members' attaches find them), the explicit maps, the
    /// implicit ones.
    pub maps: Vec<HostMap>,
    /// One argument per kernel parameter.
    pub args: Vec<HostArg>,
    /// The pointers whose extent cannot be derived, with why (remarks).
    pub underived: Vec<String>,
}

/// The kind a map of `kind` has for an object that is const (`const_object`):
/// a const object is never written, so `copy` needs only its copy-in half.
pub fn of_const(kind: MapKind, const_object: bool) -> MapKind {
    match kind {
        MapKind::Copy if const_object => MapKind::CopyIn,
        k => k,
    }
}

/// The maps and arguments of a compute construct whose kernel has
/// parameters `params`, carrying the host variables `vars` (`vars[i]`
/// behind `params[i]`): `explicit`, the maps of its data clauses, and the
/// implicit map of each variable no clause gives an attribute; `uses`,
/// how the region uses its pointers (their sections); the implicit maps'
/// expressions are located at `loc`, the construct.
pub fn kernel_data(
    params: &[Param],
    vars: &[HostFacts],
    explicit: Vec<HostMap>,
    uses: &HashMap<String, Use>,
    default_present: bool,
    loc: &SrcLoc,
) -> KernelData {
    let implicit_kind = if default_present {
        MapKind::Present
    } else {
        MapKind::Copy
    };
    let (mut first, mut implicit) = (vec![], vec![]);
    let mut d = KernelData::default();
    for (param, var) in params.iter().zip(vars) {
        let value = || HostArg::Value {
            var: Lvalue::var(&var.name),
        };
        if let Some(obj) = &var.size_of {
            d.args.push(HostArg::Size {
                bytes: HostBytes::SizeOf(obj.clone()),
            });
            continue;
        }
        let vis = var.clause.as_ref();
        if param.mode == ParamMode::Value || vis.is_some_and(|v| v.deviceptr) {
            d.args.push(value());
            continue;
        }
        let mut section = vis.map(|v| v.start.clone());
        if vis.is_none() {
            let whole = |start: HostAddr| HostMap {
                name: var.name.clone(),
                start,
                bytes: HostBytes::SizeOf(Lvalue::var(&var.name)),
                kind: of_const(implicit_kind, var.const_object),
                flags: 0,
                extent_guard: None,
                implicit: true,
                in_const: false,
            };
            if var.by_ref {
                let m = whole(HostAddr::Of(Lvalue::var(&var.name)));
                if var.member_in_clause {
                    first.push(m);
                } else {
                    implicit.push(m);
                }
            } else if var.shape == Shape::Array {
                implicit.push(whole(HostAddr::Value(Lvalue::var(&var.name))));
            } else if let (Shape::Pointer { elem }, false) = (var.shape, default_present) {
                match uses.get(&var.name) {
                    Some(Use::Known(sec)) => {
                        let m = sec.host_map(&var.name, elem, loc);
                        section = Some(m.start.clone());
                        implicit.push(m);
                    }
                    Some(Use::Unknown(why)) => d.underived.push(format!(
                        "'{}' has no data clause and its extent cannot be derived ({why}): its target must be present on the device",
                        var.name
                    )),
                    None => {}
                }
            }
        }
        let ptr = if var.by_ref {
            HostAddr::Of(Lvalue::var(&var.name))
        } else {
            HostAddr::Value(Lvalue::var(&var.name))
        };
        d.args.push(HostArg::DevicePtr {
            name: var.name.clone(),
            ptr,
            section: section.map(Box::new),
            if_present: vis.is_some_and(|v| v.no_create),
        });
    }
    d.maps = first;
    d.maps.extend(explicit);
    d.maps.extend(implicit);
    d
}

/// Where the data that a data region's implicit map of `var` gives its
/// kernels starts (the region of a `kernels` construct of several
/// kernels): a by-reference variable's address, a pointer's derived
/// section, else the variable's value.
pub fn implicit_start(
    var: &HostFacts,
    uses: &HashMap<String, Use>,
    default_present: bool,
    loc: &SrcLoc,
) -> HostAddr {
    match (var.shape, uses.get(&var.name)) {
        _ if var.by_ref => HostAddr::Of(Lvalue::var(&var.name)),
        (Shape::Pointer { elem }, Some(Use::Known(sec))) if !default_present => {
            sec.host_map(&var.name, elem, loc).start
        }
        _ => HostAddr::Value(Lvalue::var(&var.name)),
    }
}

/// How each kernel of `m` uses the plain pointers its compute construct's
/// undecided data may map implicitly (by host name; empty for a kernel
/// whose data is decided, or under `default(present)`, where no section is
/// derived): the sections [`kernel_data`] and [`implicit_start`] read, from
/// the lowered kernels.
pub fn undecided_uses(m: &Module) -> Vec<HashMap<String, Use>> {
    let mut out = vec![HashMap::new(); m.kernels.len()];
    m.host.walk(&mut |v| {
        let crate::ir::Visit::Enter(c, _) = v else {
            return;
        };
        let (ConstructKind::Compute { kernel, .. }, Some(u)) = (&c.kind, &c.undecided) else {
            return;
        };
        let Some(k) = m.kernels.get(*kernel) else {
            return;
        };
        if u.default_present || matches!(u.scope, DataScope::Region { .. }) {
            return;
        }
        let mut plain = vec![false; k.params.len()];
        for v in &u.vars {
            if let Some(p) = plain.get_mut(v.param) {
                *p = v.facts.plain_pointer();
            }
        }
        out[*kernel] = super::sections::pointer_uses(&k.body, &k.params, &plain);
    });
    out
}

#[cfg(test)]
mod tests;
