//! The AST the parser builds: kinds, payloads, spans.

use crate::directive::*;

/// The single clause of `text`.
fn one_clause(text: &str) -> ClauseKind {
    let d = parse(text).unwrap_or_else(|e| panic!("{text:?}: {}", e.message));
    assert_eq!(d.clauses.len(), 1, "{text:?}");
    d.clauses.into_iter().next().unwrap().kind
}

/// The variables of the single data clause of `text`.
fn data(text: &str) -> DataClause {
    match one_clause(text) {
        ClauseKind::Data(d) => d,
        k => panic!("not a data clause: {k:?}"),
    }
}

#[test]
fn directive_kinds_and_spans() {
    let t = "  enter   data copyin(a)";
    let d = parse(t).unwrap();
    assert_eq!(d.kind, DirectiveKind::EnterData);
    assert_eq!(&t[d.kind_span.clone()], "enter   data");
    assert_eq!(directive_name(&d), "enter data");
    assert_eq!(&t[d.clauses[0].span.clone()], "copyin(a)");

    let d = parse("kernels loop").unwrap();
    assert_eq!(directive_name(&d), "kernels loop");
    assert!(d.kind.is_compute() && d.kind.is_loop());

    assert_eq!(parse("atomic").unwrap().kind, DirectiveKind::Atomic(None));
    assert_eq!(AtomicKind::effective(None), AtomicKind::Update);
    assert_eq!(
        parse("atomic capture").unwrap().kind,
        DirectiveKind::Atomic(Some(AtomicKind::Capture))
    );
    match parse("routine(vecadd) seq").unwrap().kind {
        DirectiveKind::Routine(Some(id)) => {
            assert_eq!(id.name, "vecadd");
            assert_eq!(id.span, 8..14);
        }
        k => panic!("{k:?}"),
    }
}

#[test]
fn var_refs() {
    let t = "parallel copy(a[0:n], u[1:k][0:M], s.x[2:3], p->q, a[i], a[:n], a[2:])";
    let d = parse(t).unwrap();
    let ClauseKind::Data(dc) = &d.clauses[0].kind else {
        panic!()
    };
    let texts: Vec<&str> = dc.vars.iter().map(|v| v.text.as_str()).collect();
    assert_eq!(
        texts,
        [
            "a[0:n]",
            "u[1:k][0:M]",
            "s.x[2:3]",
            "p->q",
            "a[i]",
            "a[:n]",
            "a[2:]"
        ]
    );
    for v in &dc.vars {
        assert_eq!(&t[v.span.clone()], v.text);
        assert_eq!(&t[v.base.span.clone()], v.base.name);
    }
    let u = &dc.vars[1];
    assert_eq!(u.base.name, "u");
    let Access::Section {
        lower: Some(l),
        length: Some(n),
        span,
    } = &u.path[0]
    else {
        panic!()
    };
    assert_eq!((l.text.as_str(), n.text.as_str()), ("1", "k"));
    assert_eq!(&t[span.clone()], "[1:k]");
    assert_eq!(&t[l.span.clone()], "1");
    let s = &dc.vars[2];
    assert!(matches!(&s.path[0], Access::Member { name, arrow: false } if name.name == "x"));
    assert!(
        matches!(&dc.vars[3].path[0], Access::Member { name, arrow: true } if name.name == "q")
    );
    assert!(matches!(&dc.vars[4].path[0], Access::Index(e) if e.text == "i"));
    assert!(matches!(
        &dc.vars[5].path[0],
        Access::Section {
            lower: None,
            length: Some(_),
            ..
        }
    ));
    assert!(matches!(
        &dc.vars[6].path[0],
        Access::Section {
            lower: Some(_),
            length: None,
            ..
        }
    ));
}

#[test]
fn data_spellings_and_modifiers() {
    let d = data("parallel pcopyin(a)");
    assert_eq!(
        (d.kind, d.spelling),
        (DataKind::CopyIn, DataSpelling::Short)
    );
    let d = data("parallel present_or_create(zero: a)");
    assert_eq!(
        (d.kind, d.spelling, d.zero),
        (DataKind::Create, DataSpelling::PresentOr, true)
    );
    let d = data("parallel copyin(readonly:a)");
    assert!(d.readonly && !d.zero && d.spelling == DataSpelling::Canonical);
    // OpenACC 3.4: `always` is whichever of alwaysin/alwaysout the clause does.
    let d = data("parallel copy(always: a)");
    assert!(d.always_in && d.always_out && !d.capture);
    let d = data("parallel copyin(always, readonly: a)");
    assert!(d.always_in && !d.always_out && d.readonly);
    let d = data("parallel copyout(always: a)");
    assert!(!d.always_in && d.always_out);
    let d = data("data create(capture, zero: a, b)");
    assert!(d.capture && d.zero && d.vars.len() == 2);
    // A list of two variables is not a modifier list.
    let d = data("parallel copy(always, b)");
    assert!(!d.always_in && d.vars.len() == 2 && d.vars[0].base.name == "always");
    assert_eq!(data("update self(a)").kind, DataKind::UpdateSelf);
    assert_eq!(data("update host(a)").kind, DataKind::Host);
    assert_eq!(data("host_data use_device(a)").kind, DataKind::UseDevice);
    assert!(matches!(
        one_clause("parallel self"),
        ClauseKind::SelfIf(None)
    ));
    assert!(matches!(one_clause("serial self(c)"), ClauseKind::SelfIf(Some(e)) if e.text == "c"));
}

#[test]
fn expressions_keep_source_text() {
    let t = "parallel num_gangs( f(a,b) , x[1] ?y:z,  \"s,)\"  )";
    let ClauseKind::NumGangs(es) = one_clause(t) else {
        panic!()
    };
    let texts: Vec<&str> = es.iter().map(|e| e.text.as_str()).collect();
    assert_eq!(texts, ["f(a,b)", "x[1] ?y:z", "\"s,)\""]);
    for e in &es {
        assert_eq!(&t[e.span.clone()], e.text);
    }
    let ClauseKind::If(e) = one_clause("parallel if( a , b )") else {
        panic!()
    };
    assert_eq!(e.text, "a , b");
}

#[test]
fn wait_gang_tile_bind_payloads() {
    let ClauseKind::Wait(Some(w)) = one_clause("parallel wait(devnum: d+1 : queues: q1, q2)")
    else {
        panic!()
    };
    assert_eq!(w.devnum.unwrap().text, "d+1");
    assert!(w.queues);
    assert_eq!(w.queue_exprs.len(), 2);
    assert!(matches!(
        one_clause("parallel wait"),
        ClauseKind::Wait(None)
    ));
    match parse("wait(devnum:0:5)").unwrap().kind {
        DirectiveKind::Wait(Some(w)) => assert!(!w.queues && w.queue_exprs[0].text == "5"),
        k => panic!("{k:?}"),
    }

    let ClauseKind::Gang(g) = one_clause("loop gang(static: *, num: 8)") else {
        panic!()
    };
    assert!(matches!(g.static_size, Some(SizeExpr::Star(_))));
    assert_eq!(g.num.unwrap().text, "8");
    let ClauseKind::Gang(g) = one_clause("loop gang") else {
        panic!()
    };
    assert_eq!(g, GangArgs::default());

    let ClauseKind::Tile(ts) = one_clause("loop tile(*, 4*n)") else {
        panic!()
    };
    assert!(matches!(&ts[0], SizeExpr::Star(_)));
    assert!(matches!(&ts[1], SizeExpr::Expr(e) if e.text == "4*n"));

    let ClauseKind::Bind(b) = one_clause("routine bind(\"dev_f\")") else {
        panic!()
    };
    assert_eq!(b.name(), "dev_f");
    let ClauseKind::Collapse { force, count } = one_clause("loop collapse(2)") else {
        panic!()
    };
    assert!(!force && count.text == "2");
    let ClauseKind::Reduction { op, vars } = one_clause("loop reduction(max: m, s.v)") else {
        panic!()
    };
    assert_eq!((op, vars.len()), (ReductionOp::Max, 2));
    let ClauseKind::DeviceType { list, dtype } = one_clause("init dtype(*)") else {
        panic!()
    };
    assert!(dtype && matches!(list, DeviceTypeList::Any(_)));
}

#[test]
fn clause_names_and_errors_display() {
    let d = parse("parallel loop copy(a)").unwrap();
    assert_eq!(d.clauses[0].name(), ClauseName::Copy);
    assert_eq!(ClauseName::DeviceType.as_str(), "device_type");
    let e = parse("paralel").unwrap_err();
    assert_eq!(e.to_string(), "unknown OpenACC directive 'paralel'");
}

#[test]
fn real_world_lines() {
    for t in [
        "parallel loop gang worker vector collapse(3) present(u, rsd) private(i,j,k)",
        "parallel loop num_gangs((nz-2+127)/128) vector_length(128) present(rho_i[0:nz][0:ny][0:nx])",
        "data create(u[0:ISIZ3][0:ISIZ2/2*2+1][0:ISIZ1/2*2+1][0:5]) copyin(ce[0:5][0:13])",
        "update host(rsdnm[0:5]) async(ACC_ASYNC)",
        "kernels loop gang(nx) vector(128) independent reduction(+:sum)",
        "loop gang(static:*) vector(32) reduction(max:err) reduction(+:s1, s2)",
        "enter data copyin(grid[0:n], grid->cells[0:grid->ncell])",
        "exit data copyout(x[0:n]) delete(tmp) finalize",
        "routine(square) seq",
        "atomic update",
        "wait(q1, q2) async(q3)",
    ] {
        let d = parse(t).unwrap_or_else(|e| panic!("{t:?}: {} at {}", e.message, e.offset));
        assert_eq!(parse(&d.to_string()).unwrap().to_string(), d.to_string());
    }
}
