//! Parse → print round trips for every directive and clause: the printed form
//! is the expected canonical text, and parsing it again prints the same.

use crate::directive::parse;

/// `(input, canonical)` pairs.
pub(super) const CASES: &[(&str, &str)] = &[
    // compute constructs
    ("parallel", "parallel"),
    (
        "parallel async(q) wait num_gangs(n) num_workers(4) vector_length(128) if(n > 10) self",
        "parallel async(q) wait num_gangs(n) num_workers(4) vector_length(128) if(n > 10) self",
    ),
    ("parallel num_gangs(a, b, c)", "parallel num_gangs(a, b, c)"),
    ("parallel self(x == 0) async", "parallel self(x == 0) async"),
    (
        "parallel copy(a[0:n]) copyin(readonly: b[ : n ]) copyout(zero:c[2:]) create(d) \
         no_create(e) present(f) deviceptr(g) attach(h->p)",
        "parallel copy(a[0:n]) copyin(readonly:b[:n]) copyout(zero:c[2:]) create(d) \
         no_create(e) present(f) deviceptr(g) attach(h->p)",
    ),
    (
        "parallel private(i, j) firstprivate(s.x) reduction(+:sum) default(none)",
        "parallel private(i, j) firstprivate(s.x) reduction(+:sum) default(none)",
    ),
    ("parallel if(1), async(2) ,self", "parallel if(1) async(2) self"),
    (
        "data copy(always: a) copyin(alwaysin , readonly : b) copyout(alwaysout,zero:c) \
         create(capture: d) copy(alwaysin, alwaysout, capture: e)",
        "data copy(always:a) copyin(alwaysin, readonly:b) copyout(alwaysout, zero:c) \
         create(capture:d) copy(always, capture:e)",
    ),
    ("enter data copyin(always: a)", "enter data copyin(alwaysin:a)"),
    ("exit data copyout(always: a, b)", "exit data copyout(alwaysout:a, b)"),
    ("parallel copy(a, b)", "parallel copy(a, b)"),
    (
        "parallel device_type(nvidia) num_gangs(1) device_type(*) num_gangs(2)",
        "parallel device_type(nvidia) num_gangs(1) device_type(*) num_gangs(2)",
    ),
    ("parallel dtype(host, nvidia) async", "parallel device_type(host, nvidia) async"),
    ("serial copy(x) reduction(max:m) private(t)", "serial copy(x) reduction(max:m) private(t)"),
    ("kernels default(present) num_gangs(1024)", "kernels default(present) num_gangs(1024)"),
    // legacy spellings
    (
        "kernels pcopy(a) pcopyin(b) pcopyout(c) pcreate(d)",
        "kernels copy(a) copyin(b) copyout(c) create(d)",
    ),
    (
        "data present_or_copy(a) present_or_copyin(b) present_or_copyout(c) present_or_create(d)",
        "data copy(a) copyin(b) copyout(c) create(d)",
    ),
    // combined
    (
        "parallel loop gang vector collapse(2) reduction(min:m) copyin(a[0:n][0:m])",
        "parallel loop gang vector collapse(2) reduction(min:m) copyin(a[0:n][0:m])",
    ),
    ("serial loop seq", "serial loop seq"),
    (
        "kernels loop gang(32) worker(num: 4) vector(length:128) independent",
        "kernels loop gang(num:32) worker(4) vector(128) independent",
    ),
    // data
    ("data copy(u[1:k][0:M]) if(c) async(1) wait(2)", "data copy(u[1:k][0:M]) if(c) async(1) wait(2)"),
    ("data default(none)", "data default(none)"),
    ("enter data copyin(a[0:n]) create(b) attach(p) async wait(1, 2) if(f)",
     "enter data copyin(a[0:n]) create(b) attach(p) async wait(1, 2) if(f)"),
    ("exit data copyout(a[0:n]) delete(b) detach(p) finalize async(3)",
     "exit data copyout(a[0:n]) delete(b) detach(p) finalize async(3)"),
    ("host_data use_device(p, q) if_present if(x)", "host_data use_device(p, q) if_present if(x)"),
    // loop
    ("loop", "loop"),
    ("loop seq", "loop seq"),
    ("loop auto private(t)", "loop auto private(t)"),
    ("loop gang(static:*) worker vector", "loop gang(static:*) worker vector"),
    ("loop gang(num:n, static:4)", "loop gang(num:n, static:4)"),
    ("loop gang(dim:2)", "loop gang(dim:2)"),
    ("loop collapse(force:3)", "loop collapse(force:3)"),
    ("loop tile(8, *, n)", "loop tile(8, *, n)"),
    (
        "loop reduction(*:p) reduction(&:a) reduction(|:b) reduction(^:c) reduction(&&:d) reduction(||:e)",
        "loop reduction(*:p) reduction(&:a) reduction(|:b) reduction(^:c) reduction(&&:d) reduction(||:e)",
    ),
    ("loop device_type(nvidia) vector(32) device_type(host) seq",
     "loop device_type(nvidia) vector(32) device_type(host) seq"),
    // cache, atomic
    ("cache(a[i:4], b)", "cache(a[i:4], b)"),
    ("cache(readonly: a[0:8])", "cache(readonly:a[0:8])"),
    ("atomic", "atomic"),
    ("atomic read", "atomic read"),
    ("atomic write", "atomic write"),
    ("atomic update if(c)", "atomic update if(c)"),
    ("atomic capture", "atomic capture"),
    ("atomic if(x)", "atomic if(x)"),
    // declare
    ("declare copyin(t[0:10]) create(w)", "declare copyin(t[0:10]) create(w)"),
    ("declare device_resident(v) link(big)", "declare device_resident(v) link(big)"),
    ("declare copy(a) copyout(b) present(c) deviceptr(d)", "declare copy(a) copyout(b) present(c) deviceptr(d)"),
    // runtime directives
    ("init", "init"),
    ("init device_type(nvidia) device_num(0) if(go)", "init device_type(nvidia) device_num(0) if(go)"),
    ("shutdown device_num(1)", "shutdown device_num(1)"),
    ("set default_async(2)", "set default_async(2)"),
    ("set device_type(nvidia) device_num(d) if(1)", "set device_type(nvidia) device_num(d) if(1)"),
    ("update self(a[0:n]) async(1) wait if_present", "update self(a[0:n]) async(1) wait if_present"),
    ("update host(a) device(b) if(c) device_type(nvidia) async", "update host(a) device(b) if(c) device_type(nvidia) async"),
    // wait
    ("wait", "wait"),
    ("wait(1)", "wait(1)"),
    ("wait(1, q) async(2) if(c)", "wait(1, q) async(2) if(c)"),
    ("wait(devnum: 0 : queues: 1, 2)", "wait(devnum:0:queues:1, 2)"),
    ("wait async", "wait async"),
    ("parallel wait(devnum:d:q)", "parallel wait(devnum:d:q)"),
    // routine
    ("routine seq", "routine seq"),
    ("routine", "routine"),
    ("routine(f) worker nohost", "routine(f) worker nohost"),
    ("routine gang(dim:2)", "routine gang(dim:2)"),
    ("routine vector bind(g)", "routine vector bind(g)"),
    ("routine seq bind(\"g_dev\")", "routine seq bind(\"g_dev\")"),
    ("routine device_type(nvidia) vector device_type(host) seq",
     "routine device_type(nvidia) vector device_type(host) seq"),
    // expressions with nesting, strings and ternaries
    ("parallel if(f(a, b) && s[\"),\"[0]] != ')')", "parallel if(f(a, b) && s[\"),\"[0]] != ')')"),
    ("parallel num_gangs(c ? 1 : 2, (x, y))", "parallel num_gangs(c ? 1 : 2, (x, y))"),
    ("parallel copy(a[c ? 0 : 1 : n])", "parallel copy(a[c ? 0 : 1:n])"),
    ("parallel copy(a[i], s.m.n[2:3], p->q->r[0:1].z)", "parallel copy(a[i], s.m.n[2:3], p->q->r[0:1].z)"),
    ("parallel copy(a[:])", "parallel copy(a[:])"),
    ("  parallel   loop  /* c */ gang  ", "parallel loop gang"),
];

#[test]
fn canonical_forms() {
    for (input, want) in CASES {
        let d = parse(input).unwrap_or_else(|e| panic!("{input:?}: {} at {}", e.message, e.offset));
        let printed = d.to_string();
        assert_eq!(&printed, want, "input {input:?}");
        let again = parse(&printed)
            .unwrap_or_else(|e| panic!("reparse {printed:?}: {} at {}", e.message, e.offset));
        assert_eq!(again.to_string(), printed, "reparse of {printed:?}");
    }
}

#[test]
fn every_directive_and_clause_is_covered() {
    use crate::directive::ClauseName;
    let names: Vec<String> = CASES
        .iter()
        .map(|(_, w)| parse(w).unwrap())
        .flat_map(|d| {
            let mut v = vec![d.kind.name().to_string()];
            v.extend(d.clauses.iter().map(|c| c.name().as_str().to_string()));
            v
        })
        .collect();
    for dir in [
        "parallel",
        "serial",
        "kernels",
        "data",
        "enter data",
        "exit data",
        "host_data",
        "loop",
        "parallel loop",
        "serial loop",
        "kernels loop",
        "cache",
        "atomic",
        "declare",
        "init",
        "shutdown",
        "set",
        "update",
        "wait",
        "routine",
    ] {
        assert!(
            names.iter().any(|n| n == dir),
            "no case for directive {dir}"
        );
    }
    use ClauseName::*;
    for c in [
        Async,
        Wait,
        NumGangs,
        NumWorkers,
        VectorLength,
        DeviceType,
        If,
        SelfClause,
        Reduction,
        Private,
        FirstPrivate,
        Copy,
        CopyIn,
        CopyOut,
        Create,
        NoCreate,
        Present,
        DevicePtr,
        Attach,
        Detach,
        Delete,
        Finalize,
        IfPresent,
        Default,
        UseDevice,
        DeviceResident,
        Link,
        Host,
        Device,
        Collapse,
        Gang,
        Worker,
        Vector,
        Seq,
        Independent,
        Auto,
        Tile,
        NoHost,
        Bind,
        DeviceNum,
        DefaultAsync,
    ] {
        assert!(
            names.iter().any(|n| n == c.as_str()),
            "no case for clause {}",
            c.as_str()
        );
    }
}
