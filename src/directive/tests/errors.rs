//! Every error class: message text and offset.

use crate::directive::parse;

/// `(input, offset, message)`
pub(super) const CASES: &[(&str, usize, &str)] = &[
    // directive names
    ("", 0, "expected OpenACC directive name, found end of directive"),
    ("  (x)", 2, "expected OpenACC directive name, found '('"),
    ("paralel", 0, "unknown OpenACC directive 'paralel'"),
    ("enter copyin(a)", 6, "expected 'data' after 'enter'"),
    ("exit", 4, "expected 'data' after 'exit'"),
    (
        "end parallel loop",
        0,
        "'end parallel loop' is Fortran syntax; in C an OpenACC construct applies to the \
         statement or block that follows it",
    ),
    ("cache a", 6, "expected '(' after 'cache'"),
    ("routine(1)", 8, "expected function name in 'routine' directive"),
    // clause names and placement
    ("parallel copyni(a)", 9, "unknown clause 'copyni' on 'parallel' directive"),
    ("parallel (a)", 9, "expected OpenACC clause, found '('"),
    ("parallel ,async", 9, "expected OpenACC clause, found ','"),
    ("serial num_gangs(2)", 7, "'num_gangs' clause is not allowed on 'serial' directive"),
    ("kernels reduction(+:s)", 8, "'reduction' clause is not allowed on 'kernels' directive"),
    ("loop copy(a)", 5, "'copy' clause is not allowed on 'loop' directive"),
    ("enter data copyout(a)", 11, "'copyout' clause is not allowed on 'enter data' directive"),
    ("update async self", 17, "expected '(' after 'self'"),
    ("cache(a) async", 9, "'async' clause is not allowed on 'cache' directive"),
    ("atomic async", 7, "'async' clause is not allowed on 'atomic' directive"),
    ("declare pcopy(a) if(x)", 17, "'if' clause is not allowed on 'declare' directive"),
    (
        "parallel device_type(nvidia) copy(a)",
        29,
        "'copy' clause may not follow a 'device_type' clause on 'parallel' directive",
    ),
    (
        "loop device_type(*) private(x)",
        20,
        "'private' clause may not follow a 'device_type' clause on 'loop' directive",
    ),
    // duplicates and exclusivity
    ("parallel if(a) if(b)", 15, "duplicate 'if' clause"),
    ("data copy(a) default(none) default(present)", 27, "duplicate 'default' clause"),
    ("parallel num_gangs(1) device_type(a) num_gangs(2) num_gangs(3)", 50, "duplicate 'num_gangs' clause"),
    ("loop seq independent", 9, "'seq' and 'independent' clauses are mutually exclusive"),
    ("loop auto seq", 10, "'auto' and 'seq' clauses are mutually exclusive"),
    ("parallel loop gang seq", 19, "'gang' and 'seq' clauses are mutually exclusive"),
    ("loop seq vector", 9, "'seq' and 'vector' clauses are mutually exclusive"),
    ("routine gang worker", 13, "'gang' and 'worker' clauses are mutually exclusive"),
    ("atomic read write", 12, "'read' and 'write' clauses are mutually exclusive"),
    ("atomic if(c) read", 13, "'read' clause must come first on 'atomic' directive"),
    ("init device_type(a) device_type(b)", 20, "duplicate 'device_type' clause"),
    // required clauses
    ("enter data", 0, "'enter data' directive requires at least one 'copyin', 'create' or 'attach' clause"),
    ("exit data async", 0, "'exit data' directive requires at least one 'copyout', 'delete' or 'detach' clause"),
    ("update if(x)", 0, "'update' directive requires at least one 'self', 'host' or 'device' clause"),
    ("host_data if(x)", 0, "'host_data' directive requires at least one 'use_device' clause"),
    ("set if(x)", 0, "'set' directive requires at least one 'default_async', 'device_num' or 'device_type' clause"),
    ("declare", 0, "'declare' directive requires at least one clause"),
    (
        "data if(x)",
        0,
        "'data' directive requires at least one 'copy', 'copyin', 'copyout', 'create', \
         'no_create', 'present', 'deviceptr', 'attach' or 'default' clause",
    ),
    // argument rules
    ("parallel num_gangs(1,2,3,4)", 25, "'num_gangs' clause takes at most 3 arguments"),
    ("kernels num_gangs(1, 2)", 21, "'num_gangs' clause on 'kernels' directive takes one argument"),
    (
        "parallel num_gangs(1, 2) reduction(+:s)",
        25,
        "'reduction' clause is not allowed on 'parallel' directive whose 'num_gangs' clause has \
         more than one argument",
    ),
    (
        "parallel loop gang(8)",
        19,
        "'num' argument of 'gang' clause is not allowed on 'parallel loop' directive; use 'num_gangs'",
    ),
    (
        "serial loop vector(32)",
        19,
        "'length' argument of 'vector' clause is not allowed on 'serial loop' directive; use 'vector_length'",
    ),
    ("routine worker(4)", 15, "'num' argument of 'worker' clause is not allowed on 'routine' directive"),
    ("kernels loop gang(dim:2)", 22, "'dim' argument of 'gang' clause is not allowed on 'kernels loop' directive"),
    ("loop gang(4, num:5)", 13, "duplicate 'num' argument in 'gang' clause"),
    // clause syntax
    ("parallel copyin", 15, "expected '(' after 'copyin'"),
    ("parallel copyin a", 16, "expected '(' after 'copyin'"),
    ("parallel copyin()", 16, "expected variable name in 'copyin' clause, found ')'"),
    ("parallel copyin(a b)", 18, "expected ',' or ')' in 'copyin' clause, found 'b'"),
    ("parallel copyin(a", 17, "expected ',' or ')' in 'copyin' clause, found end of directive"),
    ("parallel copyin(a+1)", 17, "expected ',' or ')' in 'copyin' clause, found '+'"),
    ("parallel copyin(zero: a)", 16, "'zero' modifier is not allowed on 'copyin' clause"),
    ("parallel copyout(readonly: a)", 17, "'readonly' modifier is not allowed on 'copyout' clause"),
    ("parallel copy(foo: a)", 14, "unknown modifier 'foo' on 'copy' clause"),
    ("parallel create(always: a)", 16, "'always' modifier is not allowed on 'create' clause"),
    ("parallel copyin(alwaysout: a)", 16, "'alwaysout' modifier is not allowed on 'copyin' clause"),
    ("parallel copyout(alwaysin: a)", 17, "'alwaysin' modifier is not allowed on 'copyout' clause"),
    ("parallel present(capture: a)", 17, "'capture' modifier is not allowed on 'present' clause"),
    (
        "enter data copyin(capture: a)",
        18,
        "'capture' modifier is only allowed on structured data and compute constructs, not on 'enter data'",
    ),
    ("parallel copy(always, alwaysin: a)", 22, "duplicate 'alwaysin' modifier on 'copy' clause"),
    ("data copyin(readonly, readonly: a)", 22, "duplicate 'readonly' modifier on 'copyin' clause"),
    ("parallel copyin(readonly, foo: a)", 26, "unknown modifier 'foo' on 'copyin' clause"),
    ("parallel copy(a[])", 16, "expected expression"),
    ("parallel copy(a[1)", 17, "expected ']' before ')'"),
    ("parallel copy(a[1:2)", 19, "expected ']' before ')'"),
    ("parallel copy(a[(1])", 18, "expected ')' before ']'"),
    ("parallel copy(a[1", 17, "expected ']' at end of directive"),
    ("parallel copy(s.)", 16, "expected member name after '.'"),
    ("parallel copy(p->1)", 17, "expected member name after '->'"),
    ("parallel if()", 12, "expected expression"),
    ("parallel if(a", 13, "expected ')' at end of directive"),
    ("parallel if((a)", 15, "expected ')' at end of directive"),
    ("parallel if(a])", 13, "expected ')' before ']'"),
    ("parallel if(a}", 13, "expected ')' before '}'"),
    ("parallel if(\"a)", 12, "missing terminating \" character"),
    ("parallel if('a)", 12, "missing terminating ' character"),
    ("parallel num_gangs(1,)", 21, "expected expression"),
    ("parallel async()", 15, "expected expression"),
    ("parallel num_workers", 20, "expected '(' after 'num_workers'"),
    ("parallel reduction(-:s)", 19, "invalid reduction operator '-'; expected one of '+', '*', 'max', 'min', '&', '|', '^', '&&', '||'"),
    ("parallel reduction(maxx:s)", 19, "invalid reduction operator 'maxx'; expected one of '+', '*', 'max', 'min', '&', '|', '^', '&&', '||'"),
    ("parallel reduction(+ s)", 21, "expected ':' after reduction operator"),
    ("parallel default(shared)", 17, "expected 'none' or 'present' in 'default' clause"),
    ("parallel default(none", 21, "expected ')' to close 'default', found end of directive"),
    ("parallel device_type()", 21, "expected device type name or '*' in 'device_type' clause, found ')'"),
    ("loop seq(1)", 8, "'seq' clause takes no arguments"),
    ("exit data delete(a) finalize()", 28, "'finalize' clause takes no arguments"),
    ("parallel wait(devnum:1)", 22, "expected ':' after 'devnum' value"),
    ("routine bind(1)", 13, "expected identifier or string literal in 'bind' clause"),
    ("routine bind(\"x)", 13, "missing terminating \" character"),
    ("loop collapse()", 14, "expected expression"),
    ("loop tile()", 10, "expected expression"),
];

#[test]
fn error_messages_and_offsets() {
    let mut bad = Vec::new();
    for &(input, offset, message) in CASES {
        match parse(input) {
            Ok(d) => bad.push(format!("{input:?}: parsed as {d}")),
            Err(e) if e.offset != offset || e.message != message => bad.push(format!(
                "{input:?}:\n   got  {} {:?}\n   want {offset} {message:?}",
                e.offset, e.message
            )),
            Err(_) => {}
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}
