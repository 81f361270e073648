//! The dependence test of a loop over the IR: whether two iterations can
//! touch what one of them writes, decided from subscripts (affine forms,
//! never source text), the scalars the body assigns and what the bases of
//! its accesses may alias.
//!
//! Owns: [`HostKind`], [`Facts`], [`independent`], [`privatizable`]. A
//! loop is independent when
//! 1. nothing in it calls a routine (math functions are expressions, not
//!    calls) or leaves it early;
//! 2. every scalar it assigns is a local of its body (all its uses inside
//!    the loop), private by the caller's word, or a reduction (`reduce`);
//! 3. it writes memory only through bases it can name (a kernel's pointer,
//!    a local array, a global), and for each written base every pair of a
//!    write and an access of it is disproved in some dimension: the
//!    subscripts are affine with the same loop-invariant terms, and the
//!    equation `f(i1, x1) = g(i2, x2)` has no solution with `i1 != i2`,
//!    by the GCD test, or by bounds when the loops' bounds are constants
//!    (Banerjee); and
//! 4. no two of the bases it accesses, one of them written, may overlap:
//!    arrays, `restrict` pointers and data-clause bases do not
//!    ([`HostKind::NoAlias`]); a plain pointer may point anywhere.
//!
//! May call: `ir`, `affine`, `body`, `reduce`.

use super::affine::Affine;
use super::body::{loop_range, Access, Ctx, LoopBody, Root, Target};
use super::reduce::{part_reduction, reduction_of};
use crate::ir::{Block, Function, LocalId, Loop, RedOp, Stmt, Type};
use std::collections::{HashMap, HashSet};

/// What a local holding a host variable is (a kernel's parameter).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HostKind {
    /// Its memory is its own: an array, a `restrict` pointer.
    NoAlias,
    /// A pointer that may reach another's memory.
    MayAlias,
    /// An arithmetic scalar: received by value, or by reference (then the
    /// local is a pointer to it).
    Scalar,
}

/// What the test knows beyond the function: the kind of each local that
/// holds a host variable, and the names of the device functions.
pub struct Facts<'a> {
    pub f: &'a Function,
    pub host: &'a HashMap<LocalId, HostKind>,
    pub callee: &'a dyn Fn(usize) -> String,
}

impl Facts<'_> {
    /// The host scalars held in memory: pointers to one (received by
    /// reference) and locals holding one's bytes (a complex value).
    fn cells(&self) -> HashSet<LocalId> {
        self.host
            .iter()
            .filter(|(l, k)| {
                let ty = &self.f.local(**l).ty;
                **k == HostKind::Scalar
                    && (ty.pointee().is_some() || matches!(ty, Type::Blob { .. }))
            })
            .map(|(l, _)| *l)
            .collect()
    }

    fn walk(&self, lp: &Loop) -> LoopBody {
        let cells = self.cells();
        LoopBody::of(
            &Ctx {
                f: self.f,
                cells: &cells,
                callee: self.callee,
            },
            lp,
        )
    }

    /// A local of `lp`'s body: not a host variable, used only inside it.
    fn body_local(&self, lp: &Loop, l: LocalId) -> bool {
        !self.host.contains_key(&l) && uses(self.f, &self.f.body, l) == uses(self.f, &lp.body, l)
    }
}

/// `Ok(reductions)` when loop `lp` has no loop-carried dependence but
/// through the scalars it only accumulates into (listed with their
/// operators); otherwise why not. `privates`: outer scalars the caller
/// makes private to the loop.
pub fn independent(
    fx: &Facts,
    lp: &Loop,
    privates: &[LocalId],
) -> Result<Vec<(RedOp, Target)>, String> {
    let f = fx.f;
    let name = |l: LocalId| f.local(l).name.clone();
    let var = name(lp.var);
    if !lp.collapsed.is_empty() {
        return Err("it is collapsed with the loops inside it".into());
    }
    let b = fx.walk(lp);
    let range = loop_range(f, lp);
    if let Some(p) = &b.problem {
        return Err(p.clone());
    }
    // Scalars.
    let mut reductions = vec![];
    let outer = b
        .assigned
        .iter()
        .filter(|l| **l != lp.var && !fx.body_local(lp, **l) && !privates.contains(l));
    for &l in outer {
        let t = Target::Local(l);
        match reduction_of(f, &b, t) {
            Some(op) => reductions.push((op, t)),
            None => return Err(format!("'{}' is assigned in every iteration", name(l))),
        }
    }
    // Scalars in memory, part by part: one operator (parts the body
    // stores back unchanged aside), and no part read but not reduced.
    let mut cells: Vec<LocalId> = vec![];
    for u in &b.updates {
        if let Target::Cell(p, _) = u.target {
            if !cells.contains(&p) {
                cells.push(p);
            }
        }
    }
    for p in cells {
        let assigned = || format!("'{}' is assigned in every iteration", name(p));
        if b.cell_escapes.contains(&p) {
            return Err(assigned());
        }
        let mut parts: Vec<u64> = b
            .updates
            .iter()
            .filter_map(|u| match u.target {
                Target::Cell(q, o) if q == p => Some(o),
                _ => None,
            })
            .chain(
                b.cell_reads
                    .keys()
                    .filter(|(q, _)| *q == p)
                    .map(|(_, o)| *o),
            )
            .collect();
        parts.sort();
        parts.dedup();
        let mut op = None;
        for o in parts {
            match part_reduction(f, &b, Target::Cell(p, o)) {
                None => return Err(assigned()),
                Some(None) => {}
                Some(Some(x)) if *op.get_or_insert(x) == x => {}
                Some(Some(_)) => return Err(assigned()),
            }
        }
        match op {
            Some(op) => reductions.push((op, Target::Cell(p, 0))),
            None => return Err(assigned()),
        }
    }
    // Memory: the bases written, in order, and what else is accessed.
    let private = |r: &Root| matches!(r, Root::Object(l) if fx.body_local(lp, *l));
    let mut roots: Vec<Root> = vec![];
    for a in b.accesses.iter().filter(|a| !private(&a.root)) {
        if !roots.contains(&a.root) {
            roots.push(a.root);
        }
    }
    let written: Vec<Root> = roots
        .iter()
        .copied()
        .filter(|r| b.accesses.iter().any(|a| a.write && a.root == *r))
        .collect();
    let root_name = |r: Root, a: &Access| match r {
        Root::Ptr(l) | Root::Object(l) => name(l),
        Root::Cell(n) => format!("global #{n}"),
        Root::Unknown => a.text.clone(),
    };
    for w in &written {
        let accs: Vec<&Access> = b.accesses.iter().filter(|a| a.root == *w).collect();
        let first = accs[0];
        if *w == Root::Unknown {
            let st = accs.iter().find(|a| a.write).unwrap_or(&first);
            return Err(format!("it stores through '{}'", st.text));
        }
        let carried = accs
            .iter()
            .filter(|x| x.write)
            .any(|x| accs.iter().any(|y| may_depend(&b, lp, range, x, y)));
        if !carried {
            continue;
        }
        let mut texts: Vec<&str> = accs.iter().map(|a| a.text.as_str()).collect();
        texts.sort();
        texts.dedup();
        let base = root_name(*w, first);
        if texts.len() > 1 {
            return Err(format!(
                "'{base}' is written and accessed as {}",
                texts.join(", ")
            ));
        }
        let fixed = accs.iter().filter(|a| a.write).all(|a| {
            a.subs
                .iter()
                .all(|s| s.as_ref().is_some_and(|s| s.coef(lp.var) == 0))
        });
        if fixed {
            return Err(format!(
                "'{base}' is written at a subscript that does not depend on '{var}'"
            ));
        }
        return Err(format!(
            "'{}' may be the same element in two iterations (no subscript is '{var}' plus a value fixed in the loop)",
            texts[0]
        ));
    }
    // Distinct arrays never overlap; a pointer may point into anything.
    let pointer = |r: &Root| match r {
        Root::Ptr(l) => fx.host.get(l) != Some(&HostKind::NoAlias),
        Root::Object(_) | Root::Cell(_) => false,
        Root::Unknown => true,
    };
    let named = |r: &Root| {
        let a = b.accesses.iter().find(|a| a.root == *r);
        a.map(|a| root_name(*r, a)).unwrap_or_default()
    };
    let mut others: Vec<(String, Root)> = roots.iter().map(|r| (named(r), *r)).collect();
    others.sort();
    for w in &written {
        for (bn, o) in others.iter().filter(|(_, o)| o != w) {
            if pointer(w) || pointer(o) {
                let wn = named(w);
                let p = if pointer(w) { &wn } else { bn };
                return Err(format!(
                    "'{wn}' and '{bn}' may overlap ('{p}' is a pointer; add 'independent' if they never do)"
                ));
            }
        }
    }
    Ok(reductions)
}

/// The scalars of the enclosing code that `lp` assigns before it reads
/// them in every iteration: private to each iteration, if no code after
/// the loop reads their last values.
pub fn privatizable(fx: &Facts, lp: &Loop) -> Vec<LocalId> {
    let b = fx.walk(lp);
    b.assigned
        .iter()
        .copied()
        .filter(|l| *l != lp.var && !fx.body_local(lp, *l) && !b.exposed.contains(l))
        .filter(|l| fx.host.get(l).is_none_or(|k| *k == HostKind::Scalar))
        .filter(|l| fx.f.local(*l).ty.pointee().is_none())
        .collect()
}

/// The smallest and largest index of a loop, and its step (constants).
type Range = Option<(i128, i128, i128)>;

/// Whether write `x` and access `y` may touch one element in two
/// different iterations of `lp`.
fn may_depend(b: &LoopBody, lp: &Loop, range: Range, x: &Access, y: &Access) -> bool {
    if x.shape != y.shape || x.subs.len() != y.subs.len() {
        return true;
    }
    if x.subs.is_empty() {
        // `*p` in every iteration.
        return true;
    }
    !x.subs
        .iter()
        .zip(&y.subs)
        .any(|(s, t)| matches!((s, t), (Some(s), Some(t)) if disproved(b, lp, range, s, t)))
}

fn gcd(a: i128, b: i128) -> i128 {
    if b == 0 {
        a.abs()
    } else {
        gcd(b, a % b)
    }
}

/// Floor and ceiling of `a / b` (`b != 0`).
fn div_floor(a: i128, b: i128) -> i128 {
    let q = a / b;
    if (a % b != 0) && ((a < 0) != (b < 0)) {
        q - 1
    } else {
        q
    }
}

fn div_ceil(a: i128, b: i128) -> i128 {
    -div_floor(-a, b)
}

/// No two iterations `i1 != i2` of `lp` give subscripts `s` (of the
/// write, in `i1`) and `t` (in `i2`) one value.
fn disproved(b: &LoopBody, lp: &Loop, range: Range, s: &Affine, t: &Affine) -> bool {
    let v = lp.var;
    // The step, when a constant (else any distance is possible).
    let step = b.step.unwrap_or(1);
    let (cs, ct) = (s.coef(v), t.coef(v));
    // The other terms: invariant ones must cancel; the locals the body
    // changes (inner indices) take any value of their ranges, in each
    // access independently.
    let varies = |l: &LocalId| b.assigned.contains(l);
    let (mut rmin, mut rmax) = (Some(0i128), Some(0i128));
    for l in s.locals().chain(t.locals()) {
        if l != v && !varies(&l) && s.coef(l) != t.coef(l) {
            return false;
        }
    }
    let mut inner = vec![];
    for l in s.locals().filter(|l| *l != v && varies(l)) {
        inner.push((l, s.coef(l)));
    }
    for l in t.locals().filter(|l| *l != v && varies(l)) {
        inner.push((l, -t.coef(l)));
    }
    for (l, c) in &inner {
        match b.ranges.get(l) {
            Some((lo, hi)) => {
                let (a, z) = (c * lo, c * hi);
                rmin = rmin.map(|m| m + a.min(z));
                rmax = rmax.map(|m| m + a.max(z));
            }
            None => {
                rmin = None;
                rmax = None;
            }
        }
    }
    // cs*i1 - ct*i2 + R = delta.
    let delta = t.k - s.k;
    let g = inner.iter().fold(gcd(cs, ct), |g, (_, c)| gcd(g, *c));
    if g == 0 {
        return delta != 0;
    }
    if delta % g != 0 {
        return true;
    }
    let (Some(rmin), Some(rmax)) = (rmin, rmax) else {
        return false;
    };
    if cs == ct {
        if cs == 0 {
            return delta < rmin || delta > rmax;
        }
        // i1 - i2 = step * k, k != 0: cs * step * k in [delta - rmax, delta - rmin].
        let step = range.map_or(step, |r| r.2);
        let m = cs * step;
        let (lo, hi) = (delta - rmax, delta - rmin);
        let (mut klo, mut khi) = if m > 0 {
            (div_ceil(lo, m), div_floor(hi, m))
        } else {
            (div_ceil(hi, m), div_floor(lo, m))
        };
        if let Some((a, z, st)) = range {
            let kmax = (z - a) / st.abs();
            klo = klo.max(-kmax);
            khi = khi.min(kmax);
        }
        return klo > khi || (klo == 0 && khi == 0);
    }
    // Banerjee: the bounds of cs*i1 - ct*i2 + R over the iteration space.
    let Some((lo, hi, _)) = range else {
        return false;
    };
    let span = |c: i128| (c * lo).min(c * hi)..=(c * lo).max(c * hi);
    let (a, z) = (span(cs), span(-ct));
    let min = a.start() + z.start() + rmin;
    let max = a.end() + z.end() + rmax;
    delta < min || delta > max
}

/// How many times `l` is used (read, assigned, its address taken) in `b`.
fn uses(f: &Function, b: &Block, l: LocalId) -> usize {
    let mut n = 0;
    each_use(f, b, &mut |x| n += usize::from(x == l));
    n
}

/// How many times each local is used in `b` (as [`uses`] counts).
pub(super) fn use_counts(f: &Function, b: &Block) -> HashMap<LocalId, usize> {
    let mut n = HashMap::new();
    each_use(f, b, &mut |x| *n.entry(x).or_default() += 1);
    n
}

/// Calls `visit` on each use of a local in `b`: each read (or address
/// taken) in an expression, each assignment.
fn each_use(f: &Function, b: &Block, visit: &mut dyn FnMut(LocalId)) {
    crate::ir::walk_stmts(b, &mut |s| {
        for e in s.roots() {
            let mut r = vec![];
            f.locals_read(e, &mut r);
            r.into_iter().for_each(&mut *visit);
        }
        match s {
            Stmt::Assign { local: l, .. }
            | Stmt::Call {
                result: Some(l), ..
            }
            | Stmt::AtomicRmw { old: Some(l), .. }
            | Stmt::AtomicLoad { dst: l, .. } => visit(*l),
            Stmt::AtomicCas { old, ok, .. } => {
                visit(*old);
                if ok != old {
                    visit(*ok);
                }
            }
            Stmt::Loop(lp) => {
                let vars = std::iter::once(lp.var).chain(lp.collapsed.iter().map(|h| h.var));
                let mut seen = vec![];
                for v in vars {
                    if !seen.contains(&v) {
                        seen.push(v);
                        visit(v);
                    }
                }
            }
            _ => {}
        }
    });
}
