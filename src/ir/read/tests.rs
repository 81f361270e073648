//! Reader tests: a hand-written module with every construct (and every
//! form of the host plan), malformed
//! text (errors with their position, never a panic), the round trip.

use super::read_module;
use crate::ir::print_module;

/// Every statement and expression form, a device function called before
/// it is printed, a cell, shared arrays, typed literals and odd floats.
const ALL_FORMS: &str = r#"module "dir/a \"b\".c" scheduled
cell @__accc_cell_g "g"

function export Vector @twice(%0 x: f64, %1 p: ptr<i32>) -> f64 at a.c:3:1
  local %2 t: f64
{
    %2 t = call @half(%0 x)
    return mul.f64(%2 t, 2.0.f64)
  }

function internal Seq @half(%0 x: f64) -> f64 at dir/c:d.c:9:2
{
    return fmin.f64(div.f64(%0 x, 2.0.f64), inf.f64)
  }

function import Gang @ext(%0 : i32) -> void at b.c:1:1

kernel @k parallel "parallel loop" at a.c:20:9
  launch grid=(auto(trip=u64 ((n) > 0 ? (n) : 0) at "a.c":20:9, threads=[0, 1]), warp clause(i64 (f(a, ")"), b[2]) at "a.c":20:9, else auto(trip=?, threads=[])), 1) block=(128, clause(i64 (w) at "a \"q\".c":2:3, else 4), 1)
  scratch counters=2 slots=3
  param %0 n: i32 value
  param %1 a: ptr<f64> deviceptr
  param %2 scratch: ptr<u8> scratch host "(reduction scratch)"
  param %3 b: ptr<f64> deviceptr
  local %4 i: i32
  local %5 j: i64
  local %6 s: f64
  local %7 arr: [f32; 4]
  local %8 blob: blob<16, 8>
  local %9 old: i32
  local %10 ok: bool
  local %11 c: [f64; 2]
  shared #0: [f64; 32]
{
    loop gang.x worker vector.x %4 i = 0; < %0 n; += 1 collapse %5 j = 10; >= -3; += -2 tile(8, 4) chunk(0) reduction(+: %6 -> *%3 b) reduction(complex*: %11 -> %11 c parts(f64 at 0 count 2 stride 8)) directive(gang.y worker vector independent) at "a.c":21:5 {
      %6 s = add.f64(%6 s, load.f64(ptradd(%1 a, cast.i32.i64(%4 i))))
      store ptradd(&%7 arr, 3) <- -0.0.f32
      store index.f64(%3 b, [], cast.i32.i64(%4 i)) <- 1.0.f64
      store index.f32(cast.ptr<f64>.ptr<[[f32; 2]; 3]>(%1 a), [3, 2], %5 j, -1, 4.u64) <- 0.5.f32
      %6 s = load.f64(index.f64(%1 a, [cast.i32.i64(%0 n), 7.i64, 2], 0, %5 j, 1, 2))
      store cast.ptr<blob<16, 8>>.ptr<i64>(&%8 blob) <- 18446744073709551615.u64
    }
    loop seq %4 i = 0; <= 7; += 1 directive() at "a.c":30:1 {
      if and(lt.i32(%4 i, 3), or(eq.u32(tid.x, 0), ne.u32(nctaid.z, 1))) {
        break
      }
      else {
        continue
      }
    }
    while not.bool(eq.i64(%5 j, 1e-7.i64)) {
      %5 j = select.i64(gt.i32(%0 n, -1), shl.i64(%5 j, 1), rem.i64(%5 j, 3))
    }
    step {
      %9 old = atomic.incwrap(cast.ptr<f64>.ptr<i32>(%3 b), 7)
    }
    %9 old, %10 ok = atomic.cas(cast.ptr<f64>.ptr<i32>(%3 b), 1, neg.i32(2))
    %9 old = atomic.load(cast.ptr<f64>.ptr<i32>(%3 b))
    atomic.store(cast.ptr<f64>.ptr<i32>(%3 b), bitnot.i32(%9 old))
    atomic.add(%3 b, NaN.f64)
    switch %0 n {
      case 1, case -2: {
        fence
      }
      default: {
        barrier Block
      }
      : {
        barrier Row
      }
    }
    call @ext(5.i32)
    print "%d\t%s\n\x01\xff"(cast.i32.i64(%0 n), 1.5e300.f64)
    copy 16 bytes &%8 blob <- cell.ptr<blob<16, 8>>(@__accc_cell_g)
    store shared.ptr<f64>(#0) <- shfl.bfly.f64(sqrt.f64(pow.f64(%6 s, 0.5.f64)), 16, 4294967295)
    {
      %10 ok = ctaid.y
    }
    return
  }
construct "kernels" at "a.c":30:9 stmt=10..90 if(bool ((n > 1)) at "a.c":30:30)
  data async(i32 ((q)) at "a.c":30:40) wait(i32 ((1)) at "a.c":30:50, i32 (2) at "a.c":30:53) wait_dev(i32 (d) at "a.c":30:47) bind 7
  map copyin "a[2:n]" of "(a)[(2)]" scaled(ulong ((n)) at "a.c":30:60, "(a)[0]") flags=2
  map rows "a[0:n][1:m]" bytes(scaled(ilong ((1)) at "a.c":30:60, "((a)[0])[0]"), scaled(ilong (k) at "a.c":1:1, "x")) scaled(ulong ((m)) at "a.c":30:60, "((a)[0])[0]") flags=0
  map present "p[0:?]" offset("p", scaled(ulong (0LL) at "a.c":30:9)) scaled(ulong ((8LL) - 0LL > 0 ? (8LL) - 0LL : 0LL) at "a.c":30:9, "(p)[0]") flags=16 guard(bool ((long long)(n) >= 0LL) at "a.c":30:9)
  map attach "s.p" of "(s).p" sizeof "(s).p" flags=0
  {
    construct "kernels" at "a.c":31:9 stmt=20..40
      compute kernel=0 async(bound 7)
      launch block=(128, size_or(i64 (w) at "a.c":20:9, 4), 1) fit(fixed=5) grid=(default_gangs(u64 ((n) > 0 ? (n) : 0) at "a.c":20:9, mul(block.x, block.y)), warp_friendly(size_or(i64 (f(a, ")"), b[2]) at "a.c":20:9, default_gangs(?, 1))), cover(u64 (n) at "a.c":20:9, block.z))
      arg value "n"
      arg size sizeof "(*(b))"
      arg deviceptr "a" value "a" section=of "(a)[(2)]" if_present
      arg deviceptr "x" of "x"
      arg scratch slots=3
      {
        construct "kernels" at "a.c":31:9 stmt=20..40
          fallback
          {
            construct "atomic update" at "a.c":32:9 stmt=25..30
              atomic (x) op shl 1
            construct "atomic write" at "a.c":33:9 stmt=31..35
              atomic (x) set (y[")"] + 1)
            construct "atomic read" at "a.c":34:9 stmt=36..39
              atomic ((*p).f) capture old (v)
          }
      }
  }
construct "update" at "a.c":40:9 stmt=100..120
  update if_present async wait
  item device "a[0:n]" of "(a)[(0)]" scaled(ulong ((n)) at "a.c":40:30, "(a)[0]")
  item self block "p" value "p" zero
construct "host_data" at "a.c":41:9 stmt=130..150
  host_data if_present
  use_device "a"
construct "wait" at "a.c":42:9 stmt=160..170
  wait_directive wait
construct "exit data" at "a.c":43:9 stmt=170..180
  exit_data finalize
  map delete "a" of "a" sizeof "a" flags=0
construct "enter data" at "a.c":44:9 stmt=180..190
  enter_data async
  map create "a" of "a" sizeof "a" flags=1
construct "declare" at "a.c":45:9 stmt=190..200
  declare_local
construct "atomic capture" at "a.c":46:9 stmt=200..210 if(bool ((c)) at "a.c":46:30)
  atomic (a[i]) op sub (f(a, ")")) first capture new (v )
construct "init" at "a.c":47:9 stmt=210..220
  init "nvidia"=5 "radeon"=-101 num(i32 ((k + 1)) at "a.c":47:30)
construct "set" at "a.c":48:9 stmt=220..230
  set default_async(i32 ((q)) at "a.c":48:30)
construct "shutdown" at "a.c":49:9 stmt=230..240
  shutdown "*"=-100
declare "g" of "g" sizeof "g" kind=100 at "a.c":1:9
"#;

fn round(text: &str) -> String {
    match read_module(text) {
        Ok(m) => print_module(&m),
        Err(e) => format!("ERROR {e}"),
    }
}

#[test]
fn every_form_reads_back() {
    assert_eq!(round(ALL_FORMS), ALL_FORMS);
    let m = read_module(ALL_FORMS).expect("reads");
    assert_eq!(m.functions.len(), 3);
    assert_eq!(m.host.constructs.len(), 11);
    assert_eq!(m.host.constructs[0].body.len(), 1);
    assert_eq!(m.host.declares.len(), 1);
    assert_eq!(m.functions[1].loc.file, "dir/c:d.c");
    assert_eq!(m.source, "dir/a \"b\".c");
    assert!(m.scheduled);
    let k = &m.kernels[0];
    assert_eq!(k.params[2].name, "(reduction scratch)");
    match &k.launch.as_ref().expect("a launch").grid[1] {
        crate::ir::GridSize::Clause { expr, .. } => assert_eq!(expr.text, "f(a, \")\"), b[2]"),
        g => panic!("{g:?}"),
    }
    // The call to `half` (printed after `twice`) names function 1.
    assert!(matches!(
        m.functions[0].body.body[0],
        crate::ir::Stmt::Call { func: 1, .. }
    ));
}

#[test]
fn comment_lines_are_skipped() {
    let t = "; run: validate\nmodule \"a.c\"\n  ; a comment\n";
    assert_eq!(round(t), "module \"a.c\"\n");
}

/// `(text, "line:col: message")` of malformed modules.
const BAD: &[(&str, &str)] = &[
    ("", "1:1: expected 'module', found ''"),
    ("module a.c", "1:8: expected '\"', found 'a.c'"),
    ("module \"a.c", "1:12: unterminated string"),
    ("module \"a\\q\"", "1:10: unknown escape in string"),
    ("module \"a\"\nstuff", "2:1: expected 'function', 'kernel', 'construct' or 'declare'"),
    (
        "module \"a\"\nconstruct \"x\" at \"a\":1:1 stmt=0..1\n  data\n  map copy \"a\" of \"(a)\" zero flags=0",
        "4:19: \"(a)\" is not an object's spelling (a name, member, element or `(*(p))`)",
    ),
    (
        "module \"a\"\nconstruct \"x\" at \"a\":1:1 stmt=0..1\n  atomic (x) op rol 1",
        "3:17: 'rol' is not an atomic operator",
    ),
    (
        "module \"a\"\nconstruct \"x\" at \"a\":1:1 stmt=0..1\n  atomic (x) capture later (v)",
        "3:22: expected 'new', found 'later (v)'",
    ),
    (
        "module \"a\"\nconstruct \"x\" at \"a\":1:1 stmt=0..1\n  bogus",
        "3:3: expected a construct kind, found 'bogus'",
    ),
    (
        "module \"a\"\nconstruct \"x\" at \"a\":1:1 stmt=0..1\n  data\n  map copy \"a\" at \"a\" zero flags=0",
        "4:16: expected an address, found 'at'",
    ),
    (
        "module \"a\"\nconstruct \"x\" at \"a\":1:1 stmt=0..1\n  data\n  map copy \"a\" of \"a\" scaled(i16 (n) at \"a\":1:1) flags=0",
        "4:30: expected a host type (i64, u64, i32, bool, ilong, ulong), found 'i16'",
    ),
    (
        "module \"a\"\nkernel @k parallel \"p\" at a.c:1\n",
        "2:27: expected FILE:LINE:COL",
    ),
    (
        "module \"a\"\nkernel @k \"parallel\" at a.c:1:1\n",
        "2:11: expected parallel, kernels or serial, found ''",
    ),
    (
        "module \"a\"\nkernel @k parallel \"p\" at a:1:1\n  launch grid=(1, 1, 1) block=(1, 1, x)\n",
        "3:38: expected a launch size",
    ),
    (
        "module \"a\"\nkernel @k parallel \"p\" at a:1:1\n  launch grid=(auto(trip=u64 (a(b], threads=[]), 1, 1) block=(1, 1, 1)\n",
        "3:34: unbalanced C text",
    ),
    (
        "module \"a\"\nkernel @k parallel \"p\" at a:1:1\n  launch grid=(auto(trip=(a), threads=[]), 1, 1) block=(1, 1, 1)\n",
        "3:26: expected a host type (i64, u64, i32, bool, ilong, ulong), found ''",
    ),
    (
        "module \"a\"\nconstruct \"p\" at \"a\":1:1 stmt=0..1\n  compute kernel=0\n  launch block=(1, 1, 1) grid=(frob(1), 1, 1)\n",
        "4:32: expected a host expression, found 'frob'",
    ),
    (
        "module \"a\"\nkernel @k parallel \"p\" at a:1:1\n  launch grid=(1, 1, 1) block=(1, 1, 1)\n  local %1 x: i32\n{\n}\n",
        "5:1: local %0 of 2 is not declared",
    ),
    (
        "module \"a\"\nkernel @k parallel \"p\" at a:1:1\n  launch grid=(1, 1, 1) block=(1, 1, 1)\n  local %0 x: int\n{\n}\n",
        "4:15: unknown type 'int'",
    ),
    (
        "module \"a\"\nkernel @k parallel \"p\" at a:1:1\n  launch grid=(1, 1, 1) block=(1, 1, 1)\n  local %0 x: i32\n{\n  %0 y = 1\n}\n",
        "6:3: local %0 is named 'x'",
    ),
    (
        "module \"a\"\nkernel @k parallel \"p\" at a:1:1\n  launch grid=(1, 1, 1) block=(1, 1, 1)\n{\n  %3 y = 1\n}\n",
        "5:3: undeclared local %3",
    ),
    (
        "module \"a\"\nkernel @k parallel \"p\" at a:1:1\n  launch grid=(1, 1, 1) block=(1, 1, 1)\n{\n  store ptradd(1, 2) <- 3\n}\n",
        "5:16: an integer literal needs its type here (1.i32)",
    ),
    (
        "module \"a\"\nkernel @k parallel \"p\" at a:1:1\n  launch grid=(1, 1, 1) block=(1, 1, 1)\n{\n  call @nowhere()\n}\n",
        "5:8: unknown function @nowhere",
    ),
    (
        "module \"a\"\nkernel @k parallel \"p\" at a:1:1\n  launch grid=(1, 1, 1) block=(1, 1, 1)\n  local %0 i: i32\n{\n  loop seq %0 i = 0; < 1; += 1 directive(seq gang) at \"a\":1:1 {\n  }\n}\n",
        "6:46: 'gang' is repeated or out of order",
    ),
    (
        "module \"a\"\nkernel @k parallel \"p\" at a:1:1\n  launch grid=(1, 1, 1) block=(1, 1, 1)\n  local %0 i: i32\n{\n  loop seq %0 i = 0; < 1; += 1 directive(frob) at \"a\":1:1 {\n  }\n}\n",
        "6:42: unknown loop directive clause 'frob'",
    ),
    (
        "module \"a\"\nkernel @k parallel \"p\" at a:1:1\n  launch grid=(1, 1, 1) block=(1, 1, 1)\n  local %0 i: i32\n{\n  loop seq %0 i = 0; < 1; += 1 directive(gang.w) at \"a\":1:1 {\n  }\n}\n",
        "6:47: expected x, y or z",
    ),
    (
        "module \"a\"\nkernel @k parallel \"p\" at a:1:1\n  launch grid=(1, 1, 1) block=(1, 1, 1)\n{\n  jump\n}\n",
        "5:3: unknown statement 'jump'",
    ),
    (
        "module \"a\"\nkernel @k parallel \"p\" at a:1:1\n  launch grid=(1, 1, 1) block=(1, 1, 1)\n  local %0 x: i32\n{\n  %0 x = frob.i32(1)\n}\n",
        "6:10: unknown expression 'frob'",
    ),
    (
        "module \"a\"\nkernel @k parallel \"p\" at a:1:1\n  launch grid=(1, 1, 1) block=(1, 1, 1)\n  local %0 x: i32\n{\n  %0 x = cast.i64.i32(%0 x)\n}\n",
        "6:23: operand has type i32, not i64",
    ),
    (
        "module \"a\"\nkernel @k parallel \"p\" at a:1:1\n  launch grid=(1, 1, 1) block=(1, 1, 1)\n  local %0 x: i32\n{\n  %0 x = 1\n",
        "7:1: missing '}'",
    ),
];

#[test]
fn malformed_text_is_an_error_with_its_position() {
    let mut wrong = vec![];
    for (text, want) in BAD {
        match read_module(text) {
            Ok(m) => wrong.push(format!("read {text:?} as\n{}", print_module(&m))),
            Err(e) if e.to_string() != *want => wrong.push(format!("{text:?}: {e}")),
            Err(_) => {}
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn no_input_panics() {
    // Every prefix of a module, and every one-byte change to it.
    let t = ALL_FORMS;
    for (i, _) in t.char_indices() {
        let _ = read_module(&t[..i]);
    }
    let bytes = t.as_bytes();
    for i in (0..bytes.len()).step_by(3) {
        for b in [
            b'(', b')', b'%', b'"', b'.', b'-', b'9', b' ', b'\n', b'{', b'}', b'x',
        ] {
            let mut v = bytes.to_vec();
            v[i] = b;
            if let Ok(s) = std::str::from_utf8(&v) {
                let _ = read_module(s);
            }
        }
    }
    // Deep nesting is an error, not a stack overflow.
    let deep = format!(
        "module \"a\"\nkernel @k parallel \"p\" at a:1:1\n  launch grid=(1, 1, 1) block=(1, 1, 1)\n  local %0 x: i32\n{{\n  %0 x = {}1{}\n}}\n",
        "neg.i32(".repeat(100_000),
        ")".repeat(100_000)
    );
    assert!(read_module(&deep).is_err());
    let deep_ty = format!("module \"a\"\ncell @c \"c\"\nkernel @k parallel \"p\" at a:1:1\n  launch grid=(1, 1, 1) block=(1, 1, 1)\n  local %0 x: {}i32\n", "ptr<".repeat(100_000));
    assert!(read_module(&deep_ty).is_err());
}

/// The plan's tree must be the one the front end builds: a construct lies
/// in its parent's statement, after its sibling, and only data, declare,
/// host_data, compute and fallback constructs hold others; else the host rewrite
/// would cut the text wrongly.
#[test]
fn misplaced_constructs_are_errors() {
    let head = "module \"a.c\"\n";
    let upd = |at: &str| format!("construct \"update\" at \"a.c\":1:1 stmt={at}\n  update\n");
    // Flat, but the second lies in the first.
    let flat = format!("{head}{}{}", upd("10..90"), upd("20..40"));
    assert!(
        round(&flat).contains("after its sibling's"),
        "{}",
        round(&flat)
    );
    // Nested, but outside its parent.
    let data = "construct \"data\" at \"a.c\":1:1 stmt=10..20\n  data\n";
    let out = format!("{head}{data}  {{\n{}  }}\n", upd("15..30"));
    assert!(
        round(&out).contains("lie in its parent's"),
        "{}",
        round(&out)
    );
    // Inside an update.
    let holds = format!("{head}{}  {{\n{}  }}\n", upd("10..90"), upd("20..40"));
    assert!(round(&holds).contains("hold others"), "{}", round(&holds));
    // A compute construct holds its fallback, of its own statement, and
    // nothing else; a fallback is only a compute construct's.
    let compute = "construct \"parallel\" at \"a.c\":1:1 stmt=10..20\n  compute kernel=0\n";
    let fallback =
        |at: &str| format!("    construct \"parallel\" at \"a.c\":1:1 stmt={at}\n      fallback\n");
    let cases = [
        (format!("{head}{compute}"), "needs its fallback"),
        (
            format!("{head}{compute}  {{\n{}  }}\n", fallback("12..18")),
            "alone",
        ),
        (
            format!("{head}{compute}  {{\n    {}  }}\n", upd("12..18")),
            "alone",
        ),
        (
            format!("{head}{data}  {{\n{}  }}\n", fallback("10..20")),
            "alone",
        ),
    ];
    for (text, want) in cases {
        assert!(round(&text).contains(want), "{text}\n{}", round(&text));
    }
    let good = format!("{head}{compute}  {{\n{}  }}\n", fallback("10..20"));
    assert_eq!(round(&good), good);
    // The same, well formed, reads back.
    let good = format!(
        "{head}{data}  {{\n    {}  }}\n",
        upd("12..18").replace("\n  ", "\n      ")
    );
    assert_eq!(round(&good), good);
}

/// A body whose loops' levels are undecided: the `undecided` line with its
/// facts and `loop ?` read back; `loop ?` elsewhere is an error.
#[test]
fn undecided_levels_read_back() {
    let t = r#"module "u.c"

kernel @k kernels "kernels" at u.c:2:9
  param %0 a: ptr<f64> deviceptr own
  undecided forced(at "u.c":3:5) outside(at "u.c":4:5, at "u.c":6:5) loose(at "u.c":4:5)
  local %1 i: i32
{
    loop ? %1 i = 0; < 8; += 1 at "u.c":3:5 {
    }
  }
"#;
    assert_eq!(round(t), t);
    let m = read_module(t).expect("reads");
    let u = m.kernels[0].body.undecided.as_deref().expect("undecided");
    assert!(m.kernels[0].params[0].own);
    assert_eq!((u.forced.len(), u.outside[1].line), (1, 6));
    assert_eq!(u.loose.len(), 1);
    let decided = t.replace(
        "  undecided forced(at \"u.c\":3:5) outside(at \"u.c\":4:5, at \"u.c\":6:5) loose(at \"u.c\":4:5)\n",
        "",
    );
    let e = read_module(&decided).expect_err("'loop ?' in a decided body");
    assert!(e.to_string().contains("needs an 'undecided' line"), "{e}");
}
