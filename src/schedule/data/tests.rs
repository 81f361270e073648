//! The data decision after lowering: what the front end leaves undecided,
//! what [`decide_data`] makes of it (a compute construct; the data region
//! of a `kernels` construct of several kernels and its kernels), its
//! remarks, its text form, and what the validator says of data left
//! undecided.

use super::decide_data;
use crate::frontend::{translate, Translated};
use crate::ir::host::{Construct, ConstructKind, HostArg, MapKind};
use crate::ir::hostdata::DataScope;
use crate::ir::{print_module, read_module, validate, HostAddr, Remark, ValidationErrorKind};

fn lowered(body: &str) -> Translated {
    let src = format!("void f(int n, double *a, double *b) {{\ndouble c[8] = {{0}};\n{body}\n}}\n");
    match translate(src, "t.c") {
        Ok(t) => t,
        Err(d) => panic!("{}", d.render(false)),
    }
}

fn args(c: &Construct) -> &[HostArg] {
    match &c.kind {
        ConstructKind::Compute { args, .. } => args,
        _ => &[],
    }
}

fn maps(c: &Construct) -> Vec<(String, MapKind, bool)> {
    c.maps
        .iter()
        .map(|m| (m.name.clone(), m.kind, m.implicit))
        .collect()
}

fn map(name: &str, kind: MapKind, implicit: bool) -> (String, MapKind, bool) {
    (name.to_string(), kind, implicit)
}

/// The section argument of the `deviceptr` argument of `name`.
fn section<'c>(c: &'c Construct, name: &str) -> Option<&'c HostAddr> {
    args(c).iter().find_map(|a| match a {
        HostArg::DevicePtr {
            name: n, section, ..
        } if n == name => section.as_deref(),
        _ => None,
    })
}

#[test]
fn a_compute_construct_is_recorded_then_decided() {
    let mut t = lowered(
        "#pragma acc parallel loop copyin(b[0:n])\nfor (int i = 0; i < n; i++) a[i] = b[i] + c[i % 8];",
    );
    let c = &t.module.host.constructs[0];
    let u = c.undecided.as_deref().expect("recorded, not decided");
    assert_eq!(u.scope, DataScope::Kernel);
    assert!(args(c).is_empty());
    assert_eq!(maps(c), [map("b[0:n]", MapKind::CopyIn, false)]);
    let names: Vec<String> = u.vars.iter().map(|v| v.facts.name.clone()).collect();
    let params: Vec<String> = t.module.kernels[0]
        .params
        .iter()
        .map(|p| p.name.clone())
        .collect();
    assert_eq!(names, params);
    decide_data(&mut t.module, &mut t.remarks).expect("decides");
    let c = &t.module.host.constructs[0];
    assert!(c.undecided.is_none());
    assert_eq!(args(c).len(), params.len());
    assert_eq!(
        maps(c),
        [
            map("b[0:n]", MapKind::CopyIn, false),
            map("a[0:n]", MapKind::CopyOut, true),
            map("c", MapKind::Copy, true),
        ]
    );
    // The clause's section, and the derived one.
    assert!(section(c, "b").is_some());
    assert!(section(c, "a").is_some());
    assert!(validate(&t.module, false).is_empty());
}

#[test]
fn default_present_derives_no_section() {
    let mut t = lowered(
        "#pragma acc parallel loop default(present)\nfor (int i = 0; i < n; i++) a[i] = c[0];",
    );
    decide_data(&mut t.module, &mut t.remarks).expect("decides");
    let c = &t.module.host.constructs[0];
    assert_eq!(maps(c), [map("c", MapKind::Present, true)]);
    assert!(section(c, "a").is_none());
}

/// A `kernels` construct of two loop nests: its data region maps the union
/// of the sections, and each kernel passes the region's start.
#[test]
fn a_region_is_decided_before_its_kernels() {
    let mut t = lowered(
        "#pragma acc kernels\n{\nfor (int i = 0; i < n; i++) a[i] = 1;\nfor (int i = 1; i < 2 * n; i++) a[i] += b[i];\n}",
    );
    let region = &t.module.host.constructs[0];
    assert!(matches!(
        region.undecided.as_deref().map(|u| &u.scope),
        Some(DataScope::Region { kernels }) if kernels == &[0, 1]
    ));
    assert_eq!(region.body.len(), 2);
    for k in &region.body {
        assert_eq!(
            k.undecided.as_deref().map(|u| &u.scope),
            Some(&DataScope::InRegion)
        );
    }
    decide_data(&mut t.module, &mut t.remarks).expect("decides");
    let region = &t.module.host.constructs[0];
    assert!(region.undecided.is_none());
    assert_eq!(
        maps(region),
        [
            map("a[0:max(n, 2*n) - 0]", MapKind::Copy, true),
            map("b[1:2*n - 1]", MapKind::CopyIn, true),
        ]
    );
    let start = |name: &str| {
        region
            .maps
            .iter()
            .find(|m| m.start.root_var() == Some(name))
            .map(|m| m.start.clone())
    };
    for k in &region.body {
        assert!(k.undecided.is_none());
        assert!(k.maps.is_empty());
        assert_eq!(section(k, "a").cloned(), start("a"));
    }
    assert_eq!(section(&region.body[1], "b").cloned(), start("b"));
    assert!(validate(&t.module, false).is_empty());
}

/// What cannot be derived is said right after the remark on the maps.
#[test]
fn underived_extents_follow_the_maps_remark() {
    let mut t = lowered("#pragma acc parallel loop\nfor (int i = 0; i < n; i++) a[(int)b[i]] = 1;");
    let at = t
        .remarks
        .iter()
        .position(|(_, r)| *r == Remark::Maps { kernel: 0 })
        .expect("a remark on the maps");
    let before = t.remarks.len();
    decide_data(&mut t.module, &mut t.remarks).expect("decides");
    assert_eq!(t.remarks.len(), before + 1);
    let said = t.remarks[at + 1].1.unsized_text();
    assert!(
        said.starts_with("'a' has no data clause and its extent cannot be derived"),
        "{said}"
    );
    assert_eq!(t.remarks[at + 1].0, t.remarks[at].0);
}

/// The text form holds the undecided data: read back, printed again, the
/// same; decided from the text, the same as decided in place.
#[test]
fn undecided_data_reads_back() {
    let mut t = lowered(
        "#pragma acc kernels copyin(c[0:8])\n{\nfor (int i = 0; i < n; i++) a[i] = c[i % 8];\nfor (int i = 0; i < n; i++) b[i] = a[i];\n}",
    );
    let text = print_module(&t.module);
    assert!(
        text.contains("undecided region(0, 1) at \"t.c\":3:13"),
        "{text}"
    );
    assert!(text.contains("facts \"a\" kernel=0 param="), "{text}");
    let mut read = read_module(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(print_module(&read), text);
    decide_data(&mut t.module, &mut vec![]).expect("decides");
    decide_data(&mut read, &mut vec![]).expect("decides");
    assert_eq!(print_module(&read), print_module(&t.module));
}

/// Data that names no parameter of its kernel stays undecided, and a
/// scheduled module with undecided data is invalid.
#[test]
fn data_left_undecided_is_invalid_once_scheduled() {
    let mut t = lowered("#pragma acc parallel loop\nfor (int i = 0; i < n; i++) a[i] = 1;");
    let c = &mut t.module.host.constructs[0];
    let u = c.undecided.as_deref_mut().expect("undecided");
    u.vars[0].param = 99;
    decide_data(&mut t.module, &mut t.remarks).expect("decides");
    assert!(t.module.host.constructs[0].undecided.is_some());
    let info = crate::analysis::analyze(&t.module);
    crate::schedule::schedule(&mut t.module, &info, &crate::ir::Target::gpu(90));
    let kinds: Vec<_> = validate(&t.module, true)
        .into_iter()
        .map(|e| e.kind)
        .collect();
    assert_eq!(kinds, [ValidationErrorKind::DataUndecided]);
}
