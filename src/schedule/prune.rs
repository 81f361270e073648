//! Kernel parameters the automatic privatisation (`privatize.rs`) left
//! unused: a host scalar that every loop using it got its own copy of is
//! no longer the kernel's to receive. Each goes with its host argument
//! and with the implicit maps only it needed (`generating implicit
//! copy(sum)` of a `kernels` region's scalar goes with them: the remark is
//! rendered from the maps). Parameters the kernel did not read before
//! the privatisation stay as lowering made them (a value parameter whose
//! variable is only the index of a loop, never read: one could go too).
//!
//! Owns: [`unused_params`], [`prune`]. May call: `ir`, `analysis::depend`
//! (use counts).

use crate::ir::host::ConstructKind;
use crate::ir::{walk_stmts, Function, LocalId, Module, ParamMode};
use std::collections::HashSet;

/// Each kernel's parameters (by local) its body does not read.
pub fn unused_params(m: &Module) -> Vec<Vec<LocalId>> {
    m.kernels
        .iter()
        .map(|k| {
            let read = read_locals(&k.body);
            k.params
                .iter()
                .map(|p| p.local)
                .filter(|l| !read.contains(l))
                .collect()
        })
        .collect()
}

/// The locals `f`'s body reads (not those it only assigns).
fn read_locals(f: &Function) -> HashSet<LocalId> {
    let mut out = HashSet::new();
    walk_stmts(&f.body, &mut |s| {
        for e in s.roots() {
            let mut r = vec![];
            f.locals_read(e, &mut r);
            out.extend(r);
        }
    });
    out
}

/// Drops each value or device-pointer parameter that the kernel does not
/// read now but did before (it was not in `before`, [`unused_params`]
/// before the privatisation), with its host argument and the implicit
/// maps of its name that no other kernel of the same data needs.
pub fn prune(m: &mut Module, before: &[Vec<LocalId>]) {
    let now = unused_params(m);
    for (k, unused) in now.iter().enumerate() {
        let was = before.get(k).map_or(&[][..], |v| &v[..]);
        let gone: Vec<usize> = (0..m.kernels[k].params.len())
            .filter(|&i| {
                let p = &m.kernels[k].params[i];
                matches!(p.mode, ParamMode::Value | ParamMode::DevicePtr)
                    && unused.contains(&p.local)
                    && !was.contains(&p.local)
            })
            .collect();
        for &i in gone.iter().rev() {
            let name = m.kernels[k].params.remove(i).name;
            if let Some(c) = m.host.compute_mut(k) {
                if let ConstructKind::Compute { args, .. } = &mut c.kind {
                    if i < args.len() {
                        args.remove(i);
                    }
                }
            }
            // The kernels whose data is the same construct's.
            let holder = m.host.data_of(k).map(|c| (c.stmt.clone(), c.name.clone()));
            let needed = (0..m.kernels.len()).any(|j| {
                m.host.data_of(j).map(|c| (c.stmt.clone(), c.name.clone())) == holder
                    && m.kernels[j].params.iter().any(|p| p.name == name)
            });
            if needed {
                continue;
            }
            if let Some(c) = m.host.data_of_mut(k) {
                c.maps
                    .retain(|x| !(x.implicit && x.start.root_var() == Some(name.as_str())));
            }
        }
    }
}
