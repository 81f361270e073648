//! The data attributes of the compute constructs (issue 16): each
//! [`UndecidedData`] the front end leaves in the host plan becomes its
//! construct's maps and arguments, as `analysis::data_attrs` decides them
//! from the facts recorded and the sections the lowered kernels reach
//! ([`data_attrs::undecided_uses`]). A data region of a `kernels` construct
//! of several kernels is decided first: what it maps implicitly is the
//! data attribute of its kernels' variables. An explicit `copy` of an item
//! in a const object ([`HostMap::in_const`](crate::ir::host::HostMap),
//! any construct's) becomes `copyin` (`data_attrs::of_const`). Before any
//! of it, the scalars
//! of `kernels` regions that no kernel writes become values
//! ([`super::demote::demote_regions`]): the facts' `by_ref` then says how
//! each kernel receives its variables.
//!
//! The driver runs it first on a lowered module: before [`super::prepare`],
//! whose rewrites the sections must not see and whose pruning drops
//! arguments and implicit maps, and before anything reads the plan.
//!
//! Owns: [`decide_data`]. May call: `ir`, `analysis::data_attrs`,
//! `analysis::sections` (the union of a region's sections), `demote`.

use crate::analysis::data_attrs::{self, HostFacts, Visible};
use crate::analysis::sections::{merge_uses, Use};
use crate::diag::DResult;
use crate::ir::host::{Construct, ConstructKind};
use crate::ir::hostdata::{DataScope, UndecidedData};
use crate::ir::{Kernel, Module, Param, Remark, SrcLoc};
use std::collections::HashMap;

/// Decides the data every construct of `m`'s host plan leaves undecided
/// (a lowered module's); adds to `remarks` (the front end's, in source
/// order) each pointer whose extent cannot be derived, after the remark
/// on its construct's maps ([`Remark::Maps`]). Data whose variables are
/// not the kernels' parameters stays undecided (the validator reports it).
/// Every explicit `copy` of an item in a const object becomes `copyin`.
/// An error where `default(none)` needs a clause for a scalar a kernel
/// writes ([`super::demote::demote_regions`]).
pub fn decide_data(m: &mut Module, remarks: &mut Vec<(SrcLoc, Remark)>) -> DResult<()> {
    super::demote::demote_regions(m)?;
    each(&mut m.host.constructs, &mut |c| {
        for map in &mut c.maps {
            map.kind = data_attrs::of_const(map.kind, map.in_const);
            map.in_const = false;
        }
    });
    let uses = data_attrs::undecided_uses(m);
    let kernels = &m.kernels;
    // What each region maps implicitly, for the kernels inside it.
    let mut entries: HashMap<usize, Vec<Visible>> = HashMap::new();
    let mut underived: Vec<(usize, SrcLoc, Vec<String>)> = vec![];
    each(&mut m.host.constructs, &mut |c| {
        let Some(u) = c.undecided.as_deref() else {
            return;
        };
        let (first, merged) = match (&u.scope, &c.kind) {
            (DataScope::Kernel, ConstructKind::Compute { kernel, .. }) => {
                (*kernel, uses.get(*kernel).cloned().unwrap_or_default())
            }
            (DataScope::Region { kernels: ks }, ConstructKind::Data { .. }) => {
                let mut merged = HashMap::new();
                for k in ks {
                    merge_uses(&mut merged, uses.get(*k).cloned().unwrap_or_default());
                }
                let implicit = region_entries(u, &merged);
                for k in ks {
                    entries.insert(*k, implicit.clone());
                }
                (ks.first().copied().unwrap_or_default(), merged)
            }
            _ => return,
        };
        if let Some(said) = decide(c, kernels, &merged) {
            underived.push((first, c.loc.clone(), said));
        }
    });
    // The kernels of the regions, with what their region gives.
    each(&mut m.host.constructs, &mut |c| {
        let (ConstructKind::Compute { kernel, .. }, Some(u)) =
            (&c.kind, c.undecided.as_deref_mut())
        else {
            return;
        };
        if u.scope != DataScope::InRegion {
            return;
        }
        let given = entries.get(kernel).map_or(&[][..], |e| &e[..]);
        for v in u.vars.iter_mut().filter(|v| v.facts.clause.is_none()) {
            v.facts.clause = given.iter().find(|x| x.var == v.facts.name).cloned();
        }
        decide(c, kernels, &HashMap::new());
    });
    for (kernel, loc, said) in underived {
        let maps = Remark::Maps { kernel };
        let at = remarks
            .iter()
            .position(|(l, r)| *l == loc && *r == maps)
            .map_or(remarks.len(), |at| at + 1);
        let said = said.into_iter().map(|t| (loc.clone(), t.into()));
        remarks.splice(at..at, said);
    }
    Ok(())
}

/// The maps and arguments of construct `c` from its undecided data and
/// `uses` (the sections of its kernels), over the parameters of
/// `kernels`; what cannot be derived, for the remarks (none for a kernel
/// of a region: its region's remarks say it). `None`, and `c` left as it
/// is, when a variable is not a kernel's parameter.
fn decide(
    c: &mut Construct,
    kernels: &[Kernel],
    uses: &HashMap<String, Use>,
) -> Option<Vec<String>> {
    let u = c.undecided.take()?;
    let params: Option<Vec<Param>> = u
        .vars
        .iter()
        .map(|v| kernels.get(v.kernel)?.params.get(v.param).cloned())
        .collect();
    let Some(params) = params else {
        c.undecided = Some(u);
        return None;
    };
    let facts: Vec<HostFacts> = u.vars.iter().map(|v| v.facts.clone()).collect();
    let explicit = std::mem::take(&mut c.maps);
    let d = data_attrs::kernel_data(&params, &facts, explicit, uses, u.default_present, &u.loc);
    c.maps = d.maps;
    if let ConstructKind::Compute { args, .. } = &mut c.kind {
        *args = d.args;
    }
    Some(match u.scope {
        DataScope::InRegion => vec![],
        _ => d.underived,
    })
}

/// What the data region of `u` gives the variables of its kernels that
/// no clause of it names: where the data its implicit map of each gives
/// them starts (`uses`: the sections over its kernels).
fn region_entries(u: &UndecidedData, uses: &HashMap<String, Use>) -> Vec<Visible> {
    u.vars
        .iter()
        .map(|v| Visible {
            var: v.facts.name.clone(),
            start: data_attrs::implicit_start(&v.facts, uses, u.default_present, &u.loc),
            deviceptr: false,
            no_create: false,
        })
        .collect()
}

/// Calls `f` on every construct of `list` and their bodies, outer first.
pub(super) fn each(list: &mut [Construct], f: &mut impl FnMut(&mut Construct)) {
    for c in list {
        f(c);
        each(&mut c.body, f);
    }
}

#[cfg(test)]
mod tests;
