//! Malformed and random input never crashes accc: a deterministic fuzz
//! corpus of directive lines (every directive and clause name, arguments
//! well- and ill-formed, characters dropped or inserted) on small C
//! programs, and of C statements mutated inside compute regions. Each case
//! goes through the compiler in-process (front end, scheduler, IR check,
//! NVPTX and SIMT code generation) and must either compile (valid IR, PTX,
//! bytecode the emulator loads) or be
//! rejected with diagnostics of which at least one has a position — never
//! a panic. A sample also goes through the `accc` binary: exit status 0 or
//! 1, no panic message, `file:line:col: error:` when it fails.

mod common;

use accc::codegen::nvptx;
use accc::frontend;
use common::{accc, panicked, run, COMPILE_TIMEOUT};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// xorshift64*: the same corpus on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn pick<'a>(&mut self, v: &[&'a str]) -> &'a str {
        v[self.below(v.len())]
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

const DIRECTIVES: &[&str] = &[
    "parallel",
    "kernels",
    "serial",
    "parallel loop",
    "kernels loop",
    "serial loop",
    "loop",
    "data",
    "enter data",
    "exit data",
    "update",
    "host_data",
    "wait",
    "wait(1)",
    "wait(devnum:0:1)",
    "atomic",
    "atomic update",
    "atomic read",
    "atomic write",
    "atomic capture",
    "cache(a[0:4])",
    "declare",
    "routine",
    "routine seq",
    "init",
    "shutdown",
    "set",
    "bogus",
    "",
    "parallel parallel",
    "end parallel",
    "loop loop",
];

const CLAUSES: &[&str] = &[
    "copy(X)",
    "copyin(X)",
    "copyout(X)",
    "create(X)",
    "present(X)",
    "no_create(X)",
    "deviceptr(V)",
    "attach(V)",
    "detach(V)",
    "delete(X)",
    "self(X)",
    "host(X)",
    "device(X)",
    "use_device(V)",
    "reduction(O:V)",
    "private(V)",
    "firstprivate(V)",
    "gang",
    "gang(E)",
    "gang(num:E)",
    "gang(static:E)",
    "gang(dim:E)",
    "worker",
    "worker(E)",
    "vector",
    "vector(E)",
    "collapse(E)",
    "tile(E,E)",
    "tile(*)",
    "seq",
    "auto",
    "independent",
    "async",
    "async(E)",
    "wait",
    "wait(E)",
    "wait(devnum:E:E)",
    "num_gangs(E)",
    "num_gangs(E,E,E)",
    "num_workers(E)",
    "vector_length(E)",
    "if(E)",
    "self(E)",
    "default(none)",
    "default(present)",
    "default(x)",
    "finalize",
    "if_present",
    "device_type(*)",
    "dtype(nvidia)",
    "device_type(bogus)",
    "copyin(readonly:X)",
    "create(zero:X)",
    "pcopy(X)",
    "bind(foo)",
    "nohost",
    "device_num(E)",
    "default_async(E)",
    "read",
    "capture",
    "link(V)",
    "device_resident(V)",
    "bogus(E)",
    "(",
    ")",
    ",",
    "copy",
    "copy()",
    "reduction(+)",
    "reduction(:V)",
];

const ITEMS: &[&str] = &[
    "a",
    "a[0:n]",
    "a[:n]",
    "a[0:]",
    "a[",
    "a[0:n",
    "a[0:n]]",
    "d[0:m][0:m]",
    "d[0:m]",
    "s.p[0:s.n]",
    "s",
    "g",
    "g[1:5]",
    "zzz",
    "a[n:0]",
    "1+2",
    "a[0:n],b[0:n]",
    "a[0:n:2]",
    "*a",
    "a[-1:4]",
    "b[0:n]",
    "sum",
    "a[i]",
    "d[0][0:m]",
    "",
];

const EXPRS: &[&str] = &[
    "n",
    "4",
    "-1",
    "0",
    "n*2",
    "",
    "(",
    "a",
    "1.5",
    "s",
    "zzz",
    "n+",
    "1,2",
    "sizeof(a)",
    "s.n",
    "128",
    "1<<20",
    "a[0]",
    "\"x\"",
    "*",
];

const VARS: &[&str] = &[
    "sum", "a", "n", "zzz", "s.n", "i", "f", "d", "s", "a[0]", "", "sum,f",
];

const OPS: &[&str] = &[
    "+", "*", "max", "min", "&", "|", "^", "&&", "||", "-", "foo", "",
];

/// Directives and clauses that are mostly right (so that many cases reach
/// code generation).
#[rustfmt::skip]
const GOOD_DIRECTIVES: &[&str] = &[
    "parallel loop", "kernels", "serial loop", "parallel loop gang vector", "kernels loop",
    "parallel", "parallel loop collapse(2)", "kernels loop independent", "parallel loop seq",
    "parallel loop gang worker vector", "serial", "parallel loop tile(8,8)",
];

#[rustfmt::skip]
const GOOD_CLAUSES: &[&str] = &[
    "copy(a[0:n])", "copyin(a[0:n])", "copyout(b[0:n])", "create(b[0:n])", "reduction(+:sum)",
    "reduction(max:f)", "private(f)", "firstprivate(n)", "num_gangs(4)", "vector_length(64)",
    "async(1)", "wait(1)", "if(n > 10)", "default(present)", "present(g)", "copy(d)",
    "num_workers(2)", "copy(s, s.p[0:s.n])", "async", "no_create(b[0:n])",
];

const BODIES: &[&str] = &[
    "for (int i = 0; i < n; i++) sum += (int)a[i];",
    "for (int i = 0; i < n; i++) { b[i] = a[i] * 2; f += b[i]; }",
    "for (int i = 0; i < m; i++) for (int j = 0; j < m; j++) d[i][j] = i + j;",
    "{ for (int i = 0; i < n; i++) b[i] = a[i]; }",
    "{ sum = 1; }",
    ";",
    "while (n > 200) n--;",
    "for (int i = 0; i < n; i++) { if (a[i] > 50) break; sum++; }",
    "for (int i = 0; i < n; i++) s.p[i % s.n] += 1;",
    "for (int i = 0; i < n; i++) sum += g[i] + q(i);",
    "for (;;) { }",
    "for (int i = n; i > 0; i -= 3) a[i - 1] = 0;",
    "sum++;",
    "for (int i = 0; i < n; i++) { int t[4] = {1, 2}; sum += t[i % 4]; }",
];

const TOKENS: &[&str] = &[
    "(", ")", "[", "]", "{", "}", ";", ",", "+", "*", "=", "i", "n", "a", "0", "1.0f", "sum", "->",
    ".", "?", ":", "return", "break", "goto x", "&", "sizeof", "int", "\"s\"", "'c'", "++", "/",
];

const PRELUDE: &str = "extern int printf(const char *, ...);\nint g[100];\ndouble d[64][64];\nstruct S { int n; float *p; } s;\nint q(int x) { return x + 1; }\nint main(void)\n{\n    int n = 100, m = 64, sum = 0; float a[100], b[100], f = 0; float pool[8];\n    s.n = 8; s.p = pool;\n    for (int i = 0; i < n; i++) { a[i] = i; b[i] = 0; g[i] = i; }\n";

/// A directive line with random clauses, sometimes mangled; half of them
/// from the mostly-right lists.
fn directive(r: &mut Rng) -> String {
    if r.chance(50) {
        let mut line = format!("#pragma acc {}", r.pick(GOOD_DIRECTIVES));
        for _ in 0..r.below(3) {
            line.push(' ');
            line.push_str(r.pick(GOOD_CLAUSES));
        }
        return if r.chance(20) { mangle(r, line) } else { line };
    }
    let mut line = format!("#pragma acc {}", r.pick(DIRECTIVES));
    for _ in 0..r.below(5) {
        let c = r.pick(CLAUSES);
        let mut c = c.to_string();
        for (key, list) in [("X", ITEMS), ("V", VARS), ("O", OPS), ("E", EXPRS)] {
            while let Some(at) = c.find(key) {
                let v = r.pick(list);
                c.replace_range(at..at + 1, v);
            }
        }
        line.push(' ');
        line.push_str(&c);
    }
    mangle(r, line)
}

/// Drop, duplicate or insert a character now and then.
fn mangle(r: &mut Rng, s: String) -> String {
    if !r.chance(30) || s.is_empty() {
        return s;
    }
    let mut chars: Vec<char> = s.chars().collect();
    for _ in 0..1 + r.below(3) {
        let at = r.below(chars.len().max(1));
        match r.below(3) {
            0 if !chars.is_empty() => {
                chars.remove(at.min(chars.len() - 1));
            }
            1 => chars.insert(
                at,
                "()[]:,;{}*&\\\"".chars().nth(r.below(13)).unwrap_or('('),
            ),
            _ => {
                let c = chars.get(at).copied().unwrap_or(' ');
                chars.insert(at, c);
            }
        }
    }
    chars.into_iter().collect()
}

/// A statement: a body as written, or with random tokens in it.
fn body(r: &mut Rng) -> String {
    let b = r.pick(BODIES).to_string();
    if !r.chance(25) {
        return b;
    }
    let mut toks: Vec<String> = b.split(' ').map(str::to_string).collect();
    let at = r.below(toks.len());
    match r.below(3) {
        0 => {
            toks.remove(at);
        }
        1 => toks.insert(at, r.pick(TOKENS).to_string()),
        _ => toks[at] = r.pick(TOKENS).to_string(),
    }
    toks.join(" ")
}

/// One program: a prelude, one or two directives on a statement, and
/// sometimes a directive inside the region too.
fn program(r: &mut Rng) -> String {
    let mut p = String::from(PRELUDE);
    p.push_str(&directive(r));
    p.push('\n');
    if r.chance(20) {
        p.push_str(&directive(r));
        p.push('\n');
    }
    if r.chance(30) {
        p.push_str("{\n");
        p.push_str(&directive(r));
        p.push('\n');
        p.push_str(&body(r));
        p.push_str("\n}\n");
    } else {
        p.push_str(&body(r));
        p.push('\n');
    }
    p.push_str("    printf(\"%d %f\\n\", sum, f);\n    return 0;\n}\n");
    p
}

/// What happened to one case.
enum Outcome {
    Compiled,
    Rejected,
}

/// Compile `text` in-process: Ok for a clean compile or a rejection with a
/// positioned diagnostic, Err for anything else.
fn compile(text: &str) -> Result<Outcome, String> {
    let r = catch_unwind(AssertUnwindSafe(|| -> Result<Outcome, String> {
        // A rejection must say where.
        let rejected = |d: accc::diag::Diagnostics| {
            if d.0
                .iter()
                .any(|d| d.loc.as_ref().is_some_and(|l| l.line > 0))
            {
                Ok(Outcome::Rejected)
            } else {
                Err(format!("rejected without a position:\n{d}"))
            }
        };
        let mut t = match frontend::translate(text.to_string(), "fuzz.c") {
            Ok(t) => t,
            Err(d) => return rejected(d),
        };
        // The data and the loop levels lowering leaves undecided (a
        // default(none) or nesting error is a positioned rejection too).
        if let Err(d) = accc::schedule::decide_data(&mut t.module, &mut t.remarks) {
            return rejected(d);
        }
        if let Err(d) = accc::schedule::plan_levels(&mut t.module) {
            return rejected(d);
        }
        let info = accc::analysis::analyze(&t.module);
        accc::schedule::schedule(&mut t.module, &info, &accc::schedule::Target::gpu(90));
        accc::schedule::specialize(&mut t.module);
        let problems = accc::ir::validate(&t.module, true);
        if !problems.is_empty() {
            return Err(format!(
                "invalid IR: {}",
                problems
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join("; ")
            ));
        }
        if !t.module.kernels.is_empty() {
            let opts = nvptx::Options {
                arch: "sm_90".into(),
                opt_level: 0,
                libdevice: None,
                llvm_options: Vec::new(),
                fma: true,
                fast: Default::default(),
                line_info: false,
            };
            nvptx::write_ptx(&t.module, &accc::analysis::analyze(&t.module), &opts)
                .map_err(|e| format!("codegen failed: {e}"))?;
            // What the NVPTX back end accepts, the SIMT back end accepts
            // too, and its bytecode decodes (validated) as the emulator
            // would load it.
            let bytes = accc::codegen::simt::write_bytes(
                &t.module,
                &accc::analysis::analyze(&t.module),
                &Default::default(),
            )
            .map_err(|e| format!("SIMT codegen failed: {e}"))?;
            ptxrt_simt::decode(&bytes).map_err(|e| format!("SIMT bytecode invalid: {e}"))?;
        }
        Ok(Outcome::Compiled)
    }));
    match r {
        Ok(v) => v,
        Err(p) => Err(format!(
            "panic: {}",
            p.downcast_ref::<String>()
                .cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default()
        )),
    }
}

#[test]
fn random_directives_and_statements_never_crash() {
    let mut r = Rng(0x9E37_79B9_7F4A_7C15);
    let (mut compiled, mut rejected) = (0, 0);
    let mut failures = vec![];
    for case in 0..2000 {
        let text = program(&mut r);
        match compile(&text) {
            Ok(Outcome::Compiled) => compiled += 1,
            Ok(Outcome::Rejected) => rejected += 1,
            Err(why) => failures.push(format!("case {case}: {why}\n{text}")),
        }
    }
    eprintln!("fuzz: {compiled} compiled, {rejected} rejected");
    assert!(
        failures.is_empty(),
        "{} of 2000 cases failed; the first:\n{}",
        failures.len(),
        failures[0]
    );
    // The corpus must exercise both outcomes.
    assert!(
        compiled > 300 && rejected > 300,
        "{compiled} compiled, {rejected} rejected"
    );
}

#[test]
fn the_binary_reports_positions_and_exits_like_cc() {
    let mut r = Rng(0xD1B5_4A32_D192_ED03);
    let tmp = tempfile::tempdir().unwrap();
    for case in 0..24 {
        let text = format!(
            "#include <stdio.h>\n{}",
            program(&mut r).replacen("extern int printf(const char *, ...);\n", "", 1)
        );
        let src = tmp.path().join(format!("f{case}.c"));
        std::fs::write(&src, &text).unwrap();
        let mut cmd = accc();
        cmd.current_dir(tmp.path())
            .args(["-c", "-o"])
            .arg(format!("f{case}.o"))
            .arg(&src);
        let out = run(cmd, tmp.path(), &format!("f{case}"), COMPILE_TIMEOUT);
        assert!(
            !panicked(&out.stderr),
            "case {case} panicked:\n{}\n{text}",
            out.stderr
        );
        assert!(
            !out.stderr.contains("internal compiler error"),
            "case {case}:\n{}\n{text}",
            out.stderr
        );
        let code = out.status.and_then(|s| s.code());
        match code {
            Some(0) => assert!(tmp.path().join(format!("f{case}.o")).is_file()),
            Some(1) => {
                assert!(
                    out.stderr.contains(&format!("f{case}.c:")) && out.stderr.contains("error:"),
                    "case {case}: no positioned error:\n{}\n{text}",
                    out.stderr
                );
                assert!(!tmp.path().join(format!("f{case}.o")).exists());
            }
            other => panic!("case {case}: exit {other:?}:\n{}\n{text}", out.stderr),
        }
    }
}

/// Damages `s` at a few random places: characters removed, duplicated or
/// replaced by C punctuation, or the text cut short.
fn damage(r: &mut Rng, s: &str) -> String {
    let mut chars: Vec<char> = s.chars().collect();
    for _ in 0..1 + r.below(4) {
        if chars.is_empty() {
            break;
        }
        let at = r.below(chars.len());
        match r.below(5) {
            0 => {
                chars.remove(at);
            }
            1 => {
                let end = (at + 1 + r.below(40)).min(chars.len());
                chars.drain(at..end);
            }
            2 => chars.insert(
                at,
                "(){}[];,*&#\"'\\:=".chars().nth(r.below(16)).unwrap_or(';'),
            ),
            3 => {
                let c = chars[at];
                chars.insert(at, c);
            }
            _ => chars.truncate(at),
        }
    }
    chars.into_iter().collect()
}

#[test]
fn damaged_gnu_c_never_crashes_the_parser() {
    // Real programs full of GNU C (file-scope declarations, K&R definitions,
    // computed goto, attributes, regions), damaged: whatever does not parse
    // is either left to the host compiler or reported with a position.
    let dir = common::tests_dir().join("programs");
    let corpus: Vec<String> = ["gnu_host_code.c", "gnu_device_code.c", "c_statements.c"]
        .iter()
        .map(|f| std::fs::read_to_string(dir.join(f)).unwrap())
        .collect();
    let mut r = Rng(0x2545_F491_4F6C_DD1D);
    let mut failures = vec![];
    let (mut ok, mut rejected) = (0, 0);
    for case in 0..600 {
        let text = damage(&mut r, &corpus[case % corpus.len()]);
        match compile(&text) {
            Ok(Outcome::Compiled) => ok += 1,
            Ok(Outcome::Rejected) => rejected += 1,
            Err(why) => failures.push(format!("case {case}: {why}\n{text}")),
        }
    }
    eprintln!("damaged GNU C: {ok} compiled, {rejected} rejected");
    assert!(
        failures.is_empty(),
        "{} of 600 cases failed; the first:\n{}",
        failures.len(),
        failures[0]
    );
    assert!(
        ok > 50 && rejected > 50,
        "{ok} compiled, {rejected} rejected"
    );
}
