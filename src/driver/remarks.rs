//! The remarks (`-Minfo=accel`) of one source: the front end's and the
//! loop-level decision's in source order ([`decide`], which runs
//! `schedule::plan_levels`), what the implicit reductions and the
//! automatic privatisation add about each loop ([`with_privates`]), and
//! their text once the launch sizes are known ([`print_remarks`]).
//!
//! Owns: those three. May call: `ir`, `schedule`, the driver's `Args`.

use super::args::Args;
use super::{colour, report};
use anyhow::Result;

/// Prints `remarks` (`-Minfo`) about module `m`, with what `schedule` said
/// about each kernel's launch (`notes`; none before it runs, when no
/// launch size is named either).
pub(super) fn print_remarks(
    args: &Args,
    remarks: &[(crate::ir::SrcLoc, crate::ir::Remark)],
    m: &crate::ir::Module,
    notes: &crate::ir::Notes,
) {
    if args.own.remarks {
        for (loc, text) in crate::ir::render_remarks(remarks, m, notes) {
            eprintln!("{}:{}: {text}", loc.file, loc.line);
        }
    }
}

/// Runs the implicit reductions and the automatic privatisation on
/// lowered module `m` ([`crate::schedule::prepare`]) and gives `remarks` with theirs
/// about each loop around the loop's levels (the last [`Remark::Levels`]
/// at its position, whose text then names the implicit reductions too):
/// the implicit reductions, then the races left, before them; what was
/// made private after them.
///
/// [`Remark::Levels`]: crate::ir::Remark::Levels
pub(super) fn with_privates(
    remarks: &[(crate::ir::SrcLoc, crate::ir::Remark)],
    m: &mut crate::ir::Module,
) -> Vec<(crate::ir::SrcLoc, crate::ir::Remark)> {
    use crate::ir::Remark;
    let mut out = remarks.to_vec();
    let crate::schedule::Prepared {
        implicit,
        privates,
        races,
    } = crate::schedule::prepare(m);
    let levels = |out: &[(crate::ir::SrcLoc, Remark)], loc: &crate::ir::SrcLoc| {
        out.iter()
            .rposition(|(l, r)| l == loc && matches!(r, Remark::Levels { .. }))
    };
    for r in implicit {
        let what = format!("reduction({}:{})", r.op.symbol(), r.var);
        let at = match levels(&out, &r.loc) {
            Some(at) => {
                out[at].1.push_str(&format!(", {what}"));
                at
            }
            None => out.len(),
        };
        let text = format!(
            "generating implicit {what} for the reduction at line {}",
            r.origin
        );
        out.insert(at, (r.loc, text.into()));
    }
    for (loc, var) in races {
        let at = levels(&out, &loc).unwrap_or(out.len());
        out.insert(at, (loc, Remark::race(&var)));
    }
    let mut last: Option<(crate::ir::SrcLoc, usize)> = None;
    for (loc, var) in privates {
        let at = match &last {
            Some((l, i)) if *l == loc => i + 1,
            _ => levels(&out, &loc)
                .or_else(|| out.iter().rposition(|(l, _)| *l == loc))
                .map_or(out.len(), |i| i + 1),
        };
        out.insert(at, (loc.clone(), Remark::private(&var)));
        last = Some((loc, at));
    }
    out
}

/// Decides the data attributes the front end recorded
/// ([`crate::schedule::decide_data`], the demotion of `kernels` scalars
/// first; its remarks after each construct's maps), then the loop levels lowering left undecided in `m`
/// ([`crate::schedule::plan_levels`]); gives `remarks` (the front end's,
/// in the order it made them) with the decisions', in source order. At
/// one place they go in the order the compiler works: a device
/// function's loops' first, a kernel's loops' where the front end
/// announces its launch ([`crate::ir::Remark::Launch`]: after its data's).
pub(super) fn decide(
    args: &Args,
    m: &mut crate::ir::Module,
    remarks: &[(crate::ir::SrcLoc, crate::ir::Remark)],
) -> Result<Vec<(crate::ir::SrcLoc, crate::ir::Remark)>> {
    use crate::ir::Remark;
    let mut remarks = remarks.to_vec();
    crate::schedule::decide_data(m, &mut remarks).map_err(|d| report(d, colour(args)))?;
    let remarks = &remarks[..];
    let said = crate::schedule::plan_levels(m).map_err(|d| report(d, colour(args)))?;
    let launch = |k: usize| {
        remarks
            .iter()
            .position(|(_, r)| matches!(r, Remark::Launch { kernel } if *kernel == k))
    };
    let mut all: Vec<(usize, (crate::ir::SrcLoc, Remark))> = said
        .into_iter()
        .map(|(k, l, r)| (k.and_then(launch).map_or(0, |i| 2 * i), (l, r)))
        .collect();
    all.extend(
        remarks
            .iter()
            .cloned()
            .enumerate()
            .map(|(i, x)| (2 * i + 1, x)),
    );
    all.sort_by(|(a, (x, _)), (b, (y, _))| {
        (&x.file, x.line, x.col, a).cmp(&(&y.file, y.line, y.col, b))
    });
    Ok(all.into_iter().map(|(_, x)| x).collect())
}
