//! The nesting of the host plan: each [`Construct`] holds, in
//! [`Construct::body`], the constructs whose statements lie inside its
//! statement (a `data` region's launches, updates and nested regions; a
//! multi-kernel `kernels` construct's implicit data region's kernels; a
//! compute construct's host fallback, and the host versions of the atomics
//! in it), ordered by statement start.
//!
//! The front end finishes constructs inside out (a `data` region is pushed
//! after the constructs of its body, the atomics of a compute construct
//! after it), so the tree is built by range as constructs arrive
//! ([`HostPlan::insert`]) rather than by each front-end module keeping a
//! stack of open regions: one rule, in one place. On equal statements the
//! construct inserted first is the outer (a `data` construct whose
//! statement is a compute construct).
//!
//! Passes walk the tree with [`HostPlan::walk`] (pre-order, with an event
//! on leaving each construct); the printer uses it, and PACC pipelines
//! will split the tree into chunks with it.
//!
//! Owns: [`HostPlan::insert`], [`HostPlan::walk`],
//! [`HostPlan::compute`], [`HostPlan::compute_mut`], [`HostPlan::data_of`], [`HostPlan::data_of_mut`],
//! [`HostPlan::clause_vars`], [`Visit`]. May call:
//! the `ir::host` types.

use super::host::{Construct, ConstructKind, HostPlan};

/// One event of [`HostPlan::walk`]: entering a construct (before its
/// body) or leaving it (after), with its depth (0: top level).
#[derive(Clone, Copy, Debug)]
pub enum Visit<'a> {
    Enter(&'a Construct, usize),
    Leave(&'a Construct, usize),
}

impl HostPlan {
    /// Adds `c` where its statement belongs: inside the construct whose
    /// statement holds it, and holding the constructs already added whose
    /// statements lie inside its own.
    pub fn insert(&mut self, c: Construct) {
        nest(&mut self.constructs, c);
    }

    /// The compute construct of kernel number `kernel`, if the plan has
    /// one (a module read from text may have none).
    pub fn compute(&self, kernel: usize) -> Option<&Construct> {
        let mut found = None;
        self.walk(&mut |v| {
            if let Visit::Enter(c, _) = v {
                if matches!(c.kind, ConstructKind::Compute { kernel: k, .. } if k == kernel) {
                    found = found.or(Some(c));
                }
            }
        });
        found
    }

    /// [`HostPlan::compute`], to change.
    pub fn compute_mut(&mut self, kernel: usize) -> Option<&mut Construct> {
        find_compute(&mut self.constructs, kernel)
    }

    /// The variables the data clauses of kernel `kernel`'s construct name
    /// (each explicit map's root variable: `stop` of `copy(stop)`, `a` of
    /// `copyin(a[0:n])`), with those of the data region a `kernels`
    /// construct of several kernels makes around them: the variables the
    /// construct shares on purpose. Empty when the plan has no construct
    /// for the kernel (a module read from text may have none).
    pub fn clause_vars(&self, kernel: usize) -> Vec<&str> {
        let mut out = vec![];
        let maps = self.data_of(kernel).into_iter().flat_map(|c| &c.maps);
        for m in maps.filter(|m| !m.implicit) {
            if let Some(v) = m.start.root_var() {
                if !out.contains(&v) {
                    out.push(v);
                }
            }
        }
        out
    }

    /// The construct whose maps are kernel `kernel`'s data: its compute
    /// construct, or the data region a `kernels` construct of several
    /// kernels makes around them (a `data` construct of the same name
    /// holding it). `None` when the plan has no construct for the kernel.
    pub fn data_of(&self, kernel: usize) -> Option<&Construct> {
        let mut found = None;
        let mut stack: Vec<&Construct> = vec![];
        self.walk(&mut |v| match v {
            Visit::Enter(c, _) => {
                if matches!(c.kind, ConstructKind::Compute { kernel: k, .. } if k == kernel) {
                    let region = stack.last().copied().filter(|p| {
                        matches!(p.kind, ConstructKind::Data { .. }) && p.name == c.name
                    });
                    found = found.or(Some(region.unwrap_or(c)));
                }
                stack.push(c);
            }
            Visit::Leave(..) => {
                stack.pop();
            }
        });
        found
    }

    /// [`HostPlan::data_of`], to change.
    pub fn data_of_mut(&mut self, kernel: usize) -> Option<&mut Construct> {
        find_data(&mut self.constructs, kernel)
    }

    /// Calls `f` on entering and leaving every construct, in statement
    /// order, outer before inner.
    pub fn walk<'a>(&'a self, f: &mut impl FnMut(Visit<'a>)) {
        walk_list(&self.constructs, 0, f);
    }
}

fn holds(outer: &std::ops::Range<usize>, inner: &std::ops::Range<usize>) -> bool {
    outer.start <= inner.start && inner.end <= outer.end
}

fn nest(list: &mut Vec<Construct>, mut c: Construct) {
    if let Some(outer) = list.iter_mut().find(|o| holds(&o.stmt, &c.stmt)) {
        return nest(&mut outer.body, c);
    }
    let (inside, rest): (Vec<Construct>, Vec<Construct>) = std::mem::take(list)
        .into_iter()
        .partition(|o| holds(&c.stmt, &o.stmt));
    *list = rest;
    for o in inside {
        nest(&mut c.body, o);
    }
    let at = list.partition_point(|o| o.stmt.start <= c.stmt.start);
    list.insert(at, c);
}

fn find_compute(list: &mut [Construct], kernel: usize) -> Option<&mut Construct> {
    for c in list {
        if matches!(c.kind, ConstructKind::Compute { kernel: k, .. } if k == kernel) {
            return Some(c);
        }
        if let Some(found) = find_compute(&mut c.body, kernel) {
            return Some(found);
        }
    }
    None
}

fn find_data(list: &mut [Construct], kernel: usize) -> Option<&mut Construct> {
    for c in list {
        let is = |x: &Construct| matches!(x.kind, ConstructKind::Compute { kernel: k, .. } if k == kernel);
        let region = matches!(c.kind, ConstructKind::Data { .. })
            && c.body.iter().any(|x| is(x) && x.name == c.name);
        if region || is(c) {
            return Some(c);
        }
        if let Some(found) = find_data(&mut c.body, kernel) {
            return Some(found);
        }
    }
    None
}

fn walk_list<'a>(list: &'a [Construct], depth: usize, f: &mut impl FnMut(Visit<'a>)) {
    for c in list {
        f(Visit::Enter(c, depth));
        walk_list(&c.body, depth + 1, f);
        f(Visit::Leave(c, depth));
    }
}

#[cfg(test)]
mod tests {
    use super::Visit;
    use crate::ir::host::{Construct, ConstructKind, HostMap, HostPlan, MapKind};
    use crate::ir::{HostAddr, HostBytes, Lvalue, SrcLoc};

    fn c(name: &str, stmt: std::ops::Range<usize>) -> Construct {
        Construct {
            kind: ConstructKind::DeclareLocal,
            name: name.to_string(),
            loc: SrcLoc::default(),
            stmt,
            cond: None,
            maps: vec![],
            body: vec![],
            undecided: None,
        }
    }

    fn map(addr: HostAddr, implicit: bool) -> HostMap {
        HostMap {
            name: String::new(),
            start: addr,
            bytes: HostBytes::Zero,
            kind: MapKind::Copy,
            flags: 0,
            extent_guard: None,
            implicit,
            in_const: false,
        }
    }

    fn compute(kernel: usize, stmt: std::ops::Range<usize>, maps: Vec<HostMap>) -> Construct {
        Construct {
            kind: ConstructKind::Compute {
                kernel,
                args: vec![],
                asyncs: Default::default(),
                launch: None,
            },
            name: "kernels".into(),
            maps,
            ..c("kernels", stmt)
        }
    }

    /// A kernel's clause variables: the explicit maps' roots of its
    /// construct, or of the data region of its `kernels` construct of
    /// several kernels; not the implicit maps, nor a user's `data`
    /// construct's around.
    #[test]
    fn clause_vars_are_the_explicit_maps_of_the_construct() {
        let mut p = HostPlan::default();
        let data = |name: &str, stmt, maps| Construct {
            kind: ConstructKind::Data {
                asyncs: Default::default(),
            },
            maps,
            ..c(name, stmt)
        };
        p.insert(data(
            "data",
            0..100,
            vec![map(HostAddr::Of(Lvalue::var("d")), false)],
        ));
        p.insert(data(
            "kernels",
            10..90,
            vec![
                map(HostAddr::Of(Lvalue::var("stop")), false),
                map(HostAddr::Of(Lvalue::var("n")), true),
            ],
        ));
        p.insert(compute(0, 10..50, vec![]));
        p.insert(compute(1, 50..90, vec![]));
        let section = Lvalue::var("a").index(vec!["0".into()]);
        let own = vec![
            map(HostAddr::Value(Lvalue::var("b")), true),
            map(HostAddr::Of(section), false),
        ];
        p.insert(compute(2, 100..120, own));
        assert_eq!(p.clause_vars(0), ["stop"]);
        assert_eq!(p.clause_vars(1), ["stop"]);
        assert_eq!(p.clause_vars(2), ["a"]);
        assert!(p.clause_vars(3).is_empty());
        assert_eq!(p.data_of(1).map(|c| c.stmt.clone()), Some(10..90));
        assert_eq!(p.data_of(2).map(|c| c.stmt.clone()), Some(100..120));
        assert_eq!(p.data_of_mut(1).map(|c| c.stmt.clone()), Some(10..90));
        assert_eq!(p.data_of_mut(2).map(|c| c.stmt.clone()), Some(100..120));
    }

    /// `name@depth` of the walk's entries, and the leaves as `/name`.
    fn shape(p: &HostPlan) -> String {
        let mut out = vec![];
        p.walk(&mut |v| match v {
            Visit::Enter(c, d) => out.push(format!("{}@{d}", c.name)),
            Visit::Leave(c, _) => out.push(format!("/{}", c.name)),
        });
        out.join(" ")
    }

    /// The same tree whatever order the constructs arrive in (a `data`
    /// region before its body, atomics after their compute construct);
    /// on equal statements the first is the outer.
    #[test]
    fn nests_by_statement_in_any_order() {
        let all = [
            c("data", 10..100),
            c("same", 10..100),
            c("k1", 20..40),
            c("atomic", 25..30),
            c("k2", 50..60),
            c("after", 120..130),
        ];
        let want = "data@0 same@1 k1@2 atomic@3 /atomic /k1 k2@2 /k2 /same /data after@0 /after";
        for order in [[0, 1, 2, 3, 4, 5], [5, 3, 2, 4, 0, 1], [0, 1, 4, 2, 5, 3]] {
            let mut p = HostPlan::default();
            for i in order {
                p.insert(all[i].clone());
            }
            assert_eq!(shape(&p), want, "{order:?}");
        }
    }
}
