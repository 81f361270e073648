//! The data attribute rules as tables: the facts of each host variable in,
//! the construct's maps and arguments out.

use super::*;
use crate::analysis::sections::Section;
use crate::analysis::Poly;
use crate::ir::LocalId;

/// A variable with no clause, passed by address (`DevicePtr` mode)
/// unless `value`.
fn var(name: &str, shape: Shape) -> (ParamMode, HostFacts) {
    (
        ParamMode::DevicePtr,
        HostFacts {
            name: name.into(),
            size_of: None,
            by_ref: false,
            demotable: false,
            shape,
            const_object: false,
            clause: None,
            member_in_clause: false,
        },
    )
}

fn clause(name: &str, deviceptr: bool, no_create: bool) -> Option<Visible> {
    Some(Visible {
        var: name.into(),
        start: HostAddr::Value(Lvalue::Index {
            base: Box::new(Lvalue::var(name)),
            subscripts: vec!["1".into()],
        }),
        deviceptr,
        no_create,
    })
}

/// One explicit map, `e`, standing for the construct's clauses.
fn explicit() -> HostMap {
    HostMap {
        name: "e".into(),
        start: HostAddr::Value(Lvalue::var("e")),
        bytes: HostBytes::SizeOf(Lvalue::var("e")),
        kind: MapKind::CopyIn,
        flags: 0,
        extent_guard: None,
        implicit: false,
        in_const: false,
    }
}

/// The section `[0, 8n)` of a pointer only read.
fn read_section() -> Use {
    Use::Known(Section {
        lo: vec![Poly::konst(0)],
        end: vec![Poly::sym("n").scale(8).unwrap()],
        read: true,
        ..Section::default()
    })
}

/// The maps (`name kind`) and arguments of `vars`, and the remarks' count.
fn run(
    vars: &[(ParamMode, HostFacts)],
    uses: &[(&str, Use)],
    default_present: bool,
) -> (Vec<String>, Vec<String>, usize) {
    let params: Vec<Param> = vars
        .iter()
        .enumerate()
        .map(|(i, (mode, v))| Param {
            name: v.name.clone(),
            local: LocalId(i as u32),
            mode: mode.clone(),
            own: false,
        })
        .collect();
    let facts: Vec<HostFacts> = vars.iter().map(|(_, v)| v.clone()).collect();
    let uses: HashMap<String, Use> = uses
        .iter()
        .map(|(n, u)| (n.to_string(), u.clone()))
        .collect();
    let d = kernel_data(
        &params,
        &facts,
        vec![explicit()],
        &uses,
        default_present,
        &SrcLoc::default(),
    );
    let maps = d
        .maps
        .iter()
        .map(|m| format!("{} {:?}", m.name, m.kind))
        .collect();
    let addr = |a: &HostAddr| match a {
        HostAddr::Of(_) => "&",
        HostAddr::Value(Lvalue::Index { .. }) => "clause",
        HostAddr::Offset { .. } => "section",
        _ => "",
    };
    let args = d
        .args
        .iter()
        .map(|a| match a {
            HostArg::Value { .. } => "value".to_string(),
            HostArg::Size { .. } => "size".to_string(),
            HostArg::DevicePtr {
                name,
                ptr,
                section,
                if_present,
            } => format!(
                "present {}{name}{}{}",
                addr(ptr),
                section
                    .as_ref()
                    .map_or(String::new(), |s| format!(" at {}", addr(s))),
                if *if_present { " if present" } else { "" }
            ),
            HostArg::Scratch { .. } => "scratch".to_string(),
        })
        .collect();
    (maps, args, d.underived.len())
}

#[test]
fn arrays_and_aggregates_are_copied_whole() {
    let (a, mut s, mut t) = (
        var("a", Shape::Array),
        var("s", Shape::Other),
        var("t", Shape::Other),
    );
    s.1.by_ref = true;
    t.1.by_ref = true;
    t.1.member_in_clause = true;
    let (maps, args, _) = run(&[a.clone(), s.clone(), t.clone()], &[], false);
    // The aggregate whose member is in a clause comes before the clauses.
    assert_eq!(maps, ["t Copy", "e CopyIn", "a Copy", "s Copy"]);
    assert_eq!(args, ["present a", "present &s", "present &t"]);
    let (maps, _, _) = run(&[a.clone(), s.clone()], &[], true);
    assert_eq!(maps, ["e CopyIn", "a Present", "s Present"]);
    // A const object is only copied in (never under default(present)).
    let mut c = a.clone();
    c.1.const_object = true;
    assert_eq!(run(&[c.clone()], &[], false).0, ["e CopyIn", "a CopyIn"]);
    assert_eq!(run(&[c], &[], true).0, ["e CopyIn", "a Present"]);
}

#[test]
fn scalars_sizes_and_deviceptr_are_values() {
    let mut n = var("n", Shape::Other);
    n.0 = ParamMode::Value;
    let mut z = var("sizeof(v)", Shape::Other);
    z.0 = ParamMode::Value;
    z.1.size_of = Some(Lvalue::var("v"));
    let mut d = var("d", Shape::Pointer { elem: Some(8) });
    d.1.clause = clause("d", true, false);
    let (maps, args, _) = run(&[n, z, d], &[("d", read_section())], false);
    assert_eq!(maps, ["e CopyIn"]);
    assert_eq!(args, ["value", "size", "value"]);
}

#[test]
fn clauses_give_the_start_and_no_map() {
    let mut p = var("p", Shape::Pointer { elem: Some(8) });
    p.1.clause = clause("p", false, false);
    let mut q = var("q", Shape::Pointer { elem: Some(8) });
    q.1.clause = clause("q", false, true);
    let mut a = var("a", Shape::Array);
    a.1.clause = clause("a", false, false);
    let uses = [("p", read_section()), ("q", read_section())];
    let (maps, args, _) = run(&[p, q, a], &uses, false);
    assert_eq!(maps, ["e CopyIn"]);
    assert_eq!(
        args,
        [
            "present p at clause",
            "present q at clause if present",
            "present a at clause"
        ]
    );
}

#[test]
fn pointers_get_their_derived_sections() {
    let (p, q, r) = (
        var("p", Shape::Pointer { elem: Some(8) }),
        var("q", Shape::Pointer { elem: Some(8) }),
        var("r", Shape::Pointer { elem: None }),
    );
    let uses = [("p", read_section()), ("q", Use::Unknown("why".into()))];
    let (maps, args, underived) = run(&[p.clone(), q.clone(), r.clone()], &uses, false);
    // In elements where their size is known; r is not used through.
    assert_eq!(maps, ["e CopyIn", "p[0:n] CopyIn"]);
    assert_eq!(args, ["present p at section", "present q", "present r"]);
    assert_eq!(underived, 1);
    // default(present): every target must be present; nothing derived.
    let (maps, args, underived) = run(&[p, q, r], &uses, true);
    assert_eq!(maps, ["e CopyIn"]);
    assert_eq!(args, ["present p", "present q", "present r"]);
    assert_eq!(underived, 0);
}

#[test]
fn const_objects_copy_in() {
    use MapKind::*;
    let table = [
        (Copy, false, Copy),
        (Copy, true, CopyIn),
        (CopyOut, true, CopyOut),
        (Present, true, Present),
        (Create, true, Create),
    ];
    for (kind, c, want) in table {
        assert_eq!(of_const(kind, c), want, "{kind:?} const={c}");
    }
}

#[test]
fn region_starts() {
    let uses: HashMap<String, Use> = [("p".to_string(), read_section())].into();
    let loc = SrcLoc::default();
    let start = |v: &HostFacts, dp| match implicit_start(v, &uses, dp, &loc) {
        HostAddr::Of(_) => "&",
        HostAddr::Offset { .. } => "section",
        HostAddr::Value(_) => "value",
        _ => "other",
    };
    let p = var("p", Shape::Pointer { elem: Some(8) }).1;
    let mut s = var("s", Shape::Other).1;
    s.by_ref = true;
    let q = var("q", Shape::Pointer { elem: Some(8) }).1;
    let a = var("a", Shape::Array).1;
    assert_eq!(
        [
            start(&p, false),
            start(&p, true),
            start(&s, false),
            start(&q, false),
            start(&a, false)
        ],
        ["section", "value", "&", "value", "value"]
    );
}
