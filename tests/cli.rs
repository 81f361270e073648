//! The command line of a drop-in `cc`: each flag a Makefile passes does what
//! cc does with it (outputs where cc puts them, dependency files make can
//! read, exit codes), the switches of other OpenACC compilers are accepted,
//! and `--help`/`--version` say what accc is. Runs without a GPU (programs
//! fall back to the host).

mod common;

use common::{accc, host_cc, panicked, run, Run, COMPILE_TIMEOUT, RUN_TIMEOUT};
use std::fs;
use std::path::Path;
use std::process::Command;

const PROG: &str = r#"#include <stdio.h>
#include "scale.h"
int main(void)
{
    static float a[1000];
    for (int i = 0; i < 1000; i++) a[i] = (float)i;
    scale(1000, a, FACTOR);
    printf("%.1f %.1f\n", a[1], a[999]);
    return 0;
}
"#;

const SCALE_H: &str = "#define FACTOR 3.0f\nvoid scale(int n, float *a, float s);\n";

const SCALE_C: &str = r#"#include "scale.h"
void scale(int n, float *a, float s)
{
#pragma acc parallel loop copy(a[0:n])
    for (int i = 0; i < n; i++)
        a[i] = a[i] * s;
}
"#;

/// A folder with the two-file program.
fn project() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    fs::write(tmp.path().join("main.c"), PROG).unwrap();
    fs::write(tmp.path().join("scale.h"), SCALE_H).unwrap();
    fs::write(tmp.path().join("scale.c"), SCALE_C).unwrap();
    tmp
}

use common::accc_ok as ok;

/// Runs accc with `args` in `dir`; must fail with exit status 1, no panic.
fn fails(dir: &Path, args: &[&str]) -> Run {
    let mut cmd = accc();
    cmd.current_dir(dir).args(args);
    let r = run(cmd, dir, "accc", COMPILE_TIMEOUT);
    assert!(!panicked(&r.stderr), "accc panicked:\n{}", r.stderr);
    assert_eq!(
        r.status.and_then(|s| s.code()),
        Some(1),
        "accc {args:?} should fail with 1:\n{}",
        r.stderr
    );
    r
}

fn run_prog(dir: &Path, exe: &str) -> String {
    let r = run(Command::new(dir.join(exe)), dir, exe, RUN_TIMEOUT);
    assert!(r.ok(), "{exe}: {}\n{}", r.describe_status(), r.stderr);
    r.stdout
}

#[test]
fn compile_and_link_like_cc_with_dependency_files() {
    let p = project();
    let d = p.path();
    ok(d, &["-c", "-MD", "-O2", "-I.", "main.c"]);
    let _ = fs::create_dir(d.join("deps"));
    ok(
        d,
        &[
            "-c",
            "-MMD",
            "-MF",
            "deps/s.d",
            "-MT",
            "obj/scale.o",
            "scale.c",
            "-o",
            "scale.o",
        ],
    );
    assert!(d.join("main.o").is_file() && d.join("scale.o").is_file());
    let main_d = fs::read_to_string(d.join("main.d")).unwrap();
    assert!(main_d.starts_with("main.o:"), "{main_d}");
    assert!(
        main_d.contains("main.c") && main_d.contains("scale.h"),
        "{main_d}"
    );
    assert!(
        main_d.contains("stdio.h"),
        "-MD lists system headers: {main_d}"
    );
    let s_d = fs::read_to_string(d.join("deps/s.d")).unwrap();
    assert!(s_d.starts_with("obj/scale.o:"), "{s_d}");
    assert!(s_d.contains("scale.h") && !s_d.contains("stdio.h"), "{s_d}");
    // Objects and an archive go to the link, with -l and -Wl, flags.
    let ar = Command::new("ar")
        .current_dir(d)
        .args(["rcs", "libscale.a", "scale.o"])
        .status()
        .unwrap();
    assert!(ar.success());
    ok(
        d,
        &[
            "main.o",
            "-L.",
            "-lscale",
            "-lm",
            "-Wl,--as-needed",
            "-o",
            "prog",
        ],
    );
    assert_eq!(run_prog(d, "prog"), "3.0 2997.0\n");
    // Compiling and linking in one step: prog3.d names prog3 (as gcc).
    ok(d, &["-MD", "main.c", "scale.o", "-o", "prog3"]);
    let p3 = fs::read_to_string(d.join("prog3.d")).unwrap();
    assert!(p3.starts_with("prog3:") && p3.contains("scale.h"), "{p3}");
    // Sources and objects mixed, with unknown flags passed to cc.
    ok(
        d,
        &[
            "-fno-strict-aliasing",
            "-mcmodel=medium",
            "-pthread",
            "main.c",
            "scale.o",
            "-o",
            "prog2",
        ],
    );
    assert_eq!(run_prog(d, "prog2"), "3.0 2997.0\n");
}

#[test]
fn assembly_preprocessing_and_languages() {
    let p = project();
    let d = p.path();
    // -S: host assembly and the device code's PTX.
    ok(d, &["-S", "scale.c"]);
    let s = fs::read_to_string(d.join("scale.s")).unwrap();
    assert!(s.contains("scale"), "{s}");
    let ptx = fs::read_to_string(d.join("scale.ptx")).unwrap();
    assert!(
        ptx.contains(".target sm_90") && ptx.contains(".entry"),
        "{ptx}"
    );
    // -gpu=ccXY picks the architecture.
    ok(d, &["-gpu=cc80", "-S", "scale.c", "-o", "s80.s"]);
    let ptx = fs::read_to_string(d.join("s80.ptx")).unwrap();
    assert!(ptx.contains(".target sm_80"), "{ptx}");
    // -E and -M, -MM.
    let r = ok(d, &["-E", "-DFOO=7", "main.c"]);
    assert!(r.stdout.contains("scale(1000, a, 3.0f)"), "{}", r.stdout);
    let r = ok(d, &["-MM", "main.c"]);
    assert_eq!(
        r.stdout.split_whitespace().collect::<Vec<_>>(),
        ["main.o:", "main.c", "scale.h"]
    );
    // -x c: a source whose name does not end in .c.
    fs::copy(d.join("scale.c"), d.join("scale.src")).unwrap();
    ok(d, &["-c", "-x", "c", "scale.src", "-o", "x.o"]);
    assert!(d.join("x.o").is_file());
    fails(d, &["-x", "c++", "scale.src"]);
    fails(d, &["-c", "main.c", "scale.c", "-o", "one.o"]);
}

#[test]
fn other_compilers_switches_and_host_only() {
    let p = project();
    let d = p.path();
    ok(
        d,
        &[
            "-fast",
            "-acc",
            "-Minfo=accel",
            "-ta=tesla:cc90",
            "-fopenacc",
            "main.c",
            "scale.c",
            "-o",
            "a",
        ],
    );
    assert_eq!(run_prog(d, "a"), "3.0 2997.0\n");
    // -acc=host: no device code; acc_on_device says host.
    fs::write(
        d.join("where.c"),
        "#include <openacc.h>\n#include <stdio.h>\nint main(void){ int on = 0;\n#pragma acc parallel copyout(on)\n on = acc_on_device(acc_device_host);\n printf(\"host %d\\n\", on); return 0; }\n",
    )
    .unwrap();
    ok(d, &["-acc=host", "-S", "where.c"]);
    assert!(!d.join("where.ptx").exists());
    ok(d, &["-acc=host", "where.c", "-o", "where"]);
    assert_eq!(run_prog(d, "where"), "host 1\n");
}

/// A kernel with a sequential inner loop of unknown trip count, which LLVM
/// unrolls at run time unless `-mllvm -unroll-runtime=false` says not to.
const SEQ_SUM: &str = "void f(int n, double *restrict a, const double *restrict b) {
#pragma acc parallel loop copy(a[0:n]) copyin(b[0:n*16])
  for (int i = 0; i < n; i++) {
    double s = 0;
#pragma acc loop seq
    for (int k = 0; k < n; k++) s += b[i*16 + k];
    a[i] = s;
  }
}
";

#[test]
fn mllvm_options_reach_the_device_code_generator() {
    let p = project();
    let d = p.path();
    fs::write(d.join("seq.c"), SEQ_SUM).unwrap();
    let loads = |args: &[&str]| {
        let mut all = vec!["-O3", "--emit=ptx", "seq.c"];
        all.extend_from_slice(args);
        ok(d, &all).stdout.matches("ld.global").count()
    };
    let unrolled = loads(&[]);
    let rolled = loads(&["-mllvm", "-unroll-runtime=false"]);
    assert!(
        unrolled > 1,
        "the default unrolls the k loop: {unrolled} loads"
    );
    assert_eq!(rolled, 1, "-mllvm -unroll-runtime=false keeps one load");
}

/// A region with a multiply-add in `float` and in `double`.
const MADD: &str = "void f(int n, float *restrict y, const float *restrict x, double *restrict z) {
#pragma acc parallel loop copyin(x[0:n]) copy(y[0:n], z[0:n])
  for (int i = 0; i < n; i++) {
    y[i] = 2.5f * x[i] + y[i];
    z[i] = z[i] - (double)x[i] * z[i];
  }
}
";

/// Contraction is on by default in device code (`fma.rn` in the PTX, `fma`
/// in the emulator's bytecode) and off with each of `-Mnofma`,
/// `-gpu=nofma`, `-ffp-contract=off` (the last switch wins); the
/// multicore kernels' host C is then compiled with `-ffp-contract=off`.
#[test]
fn fma_contraction_is_on_unless_switched_off() {
    let p = project();
    let d = p.path();
    fs::write(d.join("madd.c"), MADD).unwrap();
    let emit = |form: &str, switches: &[&str]| {
        let mut all = vec![form, "madd.c", "-o", "-"];
        all.extend_from_slice(switches);
        ok(d, &all).stdout
    };
    for on in [&[][..], &["-Mnofma", "-gpu=fma"], &["-gpu=nofma", "-Mfma"]] {
        let ptx = emit("--emit=ptx", on);
        assert!(
            ptx.contains("fma.rn.f32") && ptx.contains("fma.rn.f64"),
            "{on:?}:\n{ptx}"
        );
        assert!(!ptx.contains("mul.rn.f"), "{on:?}:\n{ptx}");
        let simt = emit("--emit=simt", on);
        assert!(
            simt.contains("fma.f32") && simt.contains("fma.f64"),
            "{on:?}:\n{simt}"
        );
    }
    for off in [
        &["-Mnofma"][..],
        &["-gpu=nofma"],
        &["-ffp-contract=off"],
        &["-Mfma", "-gpu=cc90,nofma"],
    ] {
        let ptx = emit("--emit=ptx", off);
        assert!(!ptx.contains("fma.rn"), "{off:?}:\n{ptx}");
        assert!(
            ptx.contains("mul.rn.f32") && ptx.contains("mul.rn.f64"),
            "{off:?}:\n{ptx}"
        );
        let simt = emit("--emit=simt", off);
        assert!(!simt.contains("fma."), "{off:?}:\n{simt}");
        assert!(
            simt.contains("mul.f32") && simt.contains("mul.f64"),
            "{off:?}:\n{simt}"
        );
    }
    // -acc=multicore: the host compiler's default, or -ffp-contract=off.
    let cc_lines = |switches: &[&str]| {
        let mut all = vec!["-acc=multicore", "-v", "-c", "madd.c"];
        all.extend_from_slice(switches);
        ok(d, &all).stderr
    };
    assert!(!cc_lines(&[]).contains("-ffp-contract"));
    let v = cc_lines(&["-gpu=nofma"]);
    let kernels = v
        .lines()
        .find(|l| l.contains("kernels.c"))
        .unwrap_or_default();
    assert!(kernels.contains("\"-ffp-contract=off\""), "{v}");
    let r = fails(d, &["-c", "madd.c", "-ffp-contract=sometimes"]);
    assert!(
        r.stderr
            .contains("accc: error: unknown floating-point contraction mode 'sometimes'"),
        "{}",
        r.stderr
    );
}

/// A region with `float` division, reciprocal square root, square root
/// and `expf`, and the `double` ones.
const FAST: &str = "#include <math.h>
void f(int n, float *restrict a, float *restrict r, float *restrict s, double *restrict d) {
#pragma acc parallel loop copyin(r[0:n]) copy(a[0:n], s[0:n], d[0:n])
  for (int i = 0; i < n; i++) {
    a[i] = a[i] / r[i] + 1.0f / sqrtf(s[i]);
    s[i] = sqrtf(s[i]) + expf(a[i]);
    d[i] = d[i] / (double)r[i] + 1.0 / sqrt(d[i]);
  }
}
";

/// Fast math is off by default; -gpu=fastmath, -ffast-math and -Ofast make
/// `float` division, `1.0f / sqrtf`, `sqrtf` approximate with denormals
/// flushed (`.ftz`), -Mfprelaxed the same without `.ftz`; `double` stays
/// IEEE; the last switch wins; the emulator's bytecode does not change; the
/// multicore kernels' host C gets `-ffast-math` only from the host switches.
#[test]
fn fast_math_is_opt_in() {
    let p = project();
    let d = p.path();
    fs::write(d.join("fast.c"), FAST).unwrap();
    let emit = |form: &str, switches: &[&str]| {
        let mut all = vec![form, "fast.c", "-o", "-"];
        all.extend_from_slice(switches);
        ok(d, &all).stdout
    };
    let approx = [
        "div.approx",
        "rcp.approx",
        "sqrt.approx.f32",
        "rsqrt.approx",
    ];
    // libdevice's expf is built on ex2.approx.ftz, fast math or not.
    let ftz = |ptx: &str| ptx.replace("ex2.approx.ftz", "").contains(".ftz");
    for precise in [
        &[][..],
        &["-gpu=fastmath", "-fno-fast-math"],
        &["-Mfprelaxed", "-Mnofprelaxed"],
    ] {
        let ptx = emit("--emit=ptx", precise);
        for a in approx {
            assert!(!ptx.contains(a), "{precise:?}: {a}\n{ptx}");
        }
        assert!(!ftz(&ptx), "{precise:?}:\n{ptx}");
        assert!(
            ptx.contains("div.rn.f32") && ptx.contains("sqrt.rn.f32"),
            "{ptx}"
        );
    }
    let simt = emit("--emit=simt", &[]);
    for (fast, flush) in [
        (&["-gpu=fastmath"][..], true),
        (&["-ffast-math"], true),
        (&["-Ofast"], true),
        (&["-fno-fast-math", "-gpu=cc90,fastmath"], true),
        (&["-Mfprelaxed"], false),
    ] {
        let ptx = emit("--emit=ptx", fast);
        let f32 = |op: &str| format!("{op}{}.f32", if flush { ".ftz" } else { "" });
        for op in ["div.approx", "rsqrt.approx", "sqrt.approx"] {
            assert!(ptx.contains(&f32(op)), "{fast:?}: no {}\n{ptx}", f32(op));
        }
        assert_eq!(ftz(&ptx), flush, "{fast:?}:\n{ptx}");
        assert!(
            ptx.contains("div.rn.f64")
                && ptx.contains("sqrt.rn.f64")
                && !ptx.contains("approx.f64"),
            "{fast:?}: double is relaxed\n{ptx}"
        );
        assert_eq!(emit("--emit=simt", fast), simt, "{fast:?}");
    }
    // -acc=multicore: the host compiler's fast math only.
    let kernels_cc = |switches: &[&str]| {
        let mut all = vec!["-acc=multicore", "-v", "-c", "fast.c"];
        all.extend_from_slice(switches);
        let v = ok(d, &all).stderr;
        let line = v
            .lines()
            .find(|l| l.contains("kernels.c"))
            .unwrap_or_default();
        assert!(!line.is_empty(), "{v}");
        line.to_string()
    };
    assert!(!kernels_cc(&[]).contains("fast-math"));
    assert!(!kernels_cc(&["-gpu=fastmath", "-Mfprelaxed"]).contains("fast-math"));
    assert!(kernels_cc(&["-ffast-math"]).contains("\"-ffast-math\""));
    assert!(kernels_cc(&["-Ofast"]).contains("\"-ffast-math\""));
    let r = fails(d, &["-c", "fast.c", "-Mfprelaxed=order"]);
    assert!(
        r.stderr.contains(
            "accc: error: unknown relaxation 'order' in '-Mfprelaxed=order' (expected div, recip, sqrt or rsqrt"
        ),
        "{}",
        r.stderr
    );
}

#[test]
fn help_version_and_diagnostics() {
    let p = project();
    let d = p.path();
    let r = ok(d, &["--version"]);
    assert!(r.stdout.starts_with("accc "), "{}", r.stdout);
    assert!(
        r.stdout.contains("LLVM ") && r.stdout.contains("sm_90"),
        "{}",
        r.stdout
    );
    let r = ok(d, &["--help"]);
    for flag in [
        "-MD",
        "-S",
        "--gpu-arch",
        "--emit",
        "info",
        ".ir file",
        "-acc=host",
        "-gpu=cc",
        "-Minfo",
        "-gpu=nofma",
        "-Mnofma",
        "-ffp-contract=off",
        "-gpu=fastmath",
        "-Mfprelaxed",
        "-ffast-math",
        "PTXRT_TIME",
    ] {
        assert!(r.stdout.contains(flag), "--help does not mention {flag}");
    }
    // Errors: file:line:col, the line, a caret; colour only when asked.
    fs::write(d.join("bad.c"), "int main(void)\n{\n#pragma acc parallel loop bogus(1)\n    for (int i = 0; i < 3; i++) ;\n    return 0;\n}\n").unwrap();
    let r = fails(d, &["-c", "bad.c"]);
    assert!(r.stderr.contains("bad.c:3:"), "{}", r.stderr);
    assert!(
        r.stderr.contains("error:") && r.stderr.contains('^'),
        "{}",
        r.stderr
    );
    assert!(
        !r.stderr.contains('\x1b'),
        "no colour off a terminal: {}",
        r.stderr
    );
    assert!(!d.join("bad.o").exists());
    let r = fails(d, &["-c", "-fdiagnostics-color=always", "bad.c"]);
    assert!(r.stderr.contains("\x1b[1;31merror:\x1b[0m"), "{}", r.stderr);
    // The host compiler agrees with accc on exit codes for its own errors.
    fs::write(d.join("syntax.c"), "int main(void) { return 0 }\n").unwrap();
    fails(d, &["-c", "syntax.c"]);
    let cc = Command::new(host_cc())
        .current_dir(d)
        .args(["-c", "syntax.c"])
        .output()
        .unwrap();
    assert_eq!(cc.status.code(), Some(1));
}

#[test]
fn installed_layout_compiles_and_runs() {
    let p = project();
    let d = p.path();
    let prefix = d.join("prefix");
    let st = Command::new("bash")
        .arg(common::root().join("scripts/install.sh"))
        .args(["--no-build", "--profile", "debug", "--prefix"])
        .arg(&prefix)
        .output()
        .unwrap();
    assert!(
        st.status.success(),
        "{}",
        String::from_utf8_lossy(&st.stderr)
    );
    for f in [
        "bin/accc",
        "lib/libptxrt.a",
        "lib/libptxrt-cuda.so",
        "lib/libptxrt-emu.so",
        "include/openacc.h",
        "include/ptxrt.h",
    ] {
        assert!(prefix.join(f).is_file(), "{f} not installed");
    }
    let r = run(
        {
            let mut c = Command::new(prefix.join("bin/accc"));
            c.current_dir(d)
                .env_remove("ACCC_INCLUDE")
                .args(["-O2", "main.c", "scale.c", "-o", "inst"]);
            c
        },
        d,
        "installed",
        COMPILE_TIMEOUT,
    );
    assert!(
        r.ok(),
        "installed accc: {}\n{}",
        r.describe_status(),
        r.stderr
    );
    assert_eq!(run_prog(d, "inst"), "3.0 2997.0\n");
}

/// The device image is a list of (kind, arch, bytes) entries and the
/// runtime picks the one the device runs: `-gpu=emu` adds the emulator's
/// bytecode next to the PTX, and a program built without it, run on the
/// emulated device, stops with one line naming the kernel, what the device
/// needs and what the image holds.
#[test]
fn the_image_lists_its_code_and_the_device_picks_its_entry() {
    let tmp = project();
    let dir = tmp.path();
    let host_c = ok(dir, &["-gpu=emu", "--emit=host-c", "scale.c"]).stdout;
    let table = host_c
        .lines()
        .find(|l| l.starts_with("static const struct __ptxrt_code __accc_code[]"))
        .unwrap_or_else(|| panic!("no code table in:\n{host_c}"));
    assert!(
        table.contains("{0u, (const char *)0, __accc_code0, "),
        "{table}"
    );
    assert!(
        table.contains("{2u, (const char *)0, __accc_code"),
        "{table}"
    );

    ok(dir, &["main.c", "scale.c", "-o", "ptx_only"]);
    let ran = common::emu::run_on_emulator(&dir.join("ptx_only"), &[], dir, "ptx_only").unwrap();
    assert!(
        !ran.ok(),
        "ran on the emulator without its code:\n{}",
        ran.stderr
    );
    let errors: Vec<&str> = ran.stderr.lines().filter(|l| l.contains("error")).collect();
    assert_eq!(errors.len(), 1, "{}", ran.stderr);
    let want = "scale.c:4: error: parallel loop: cannot load the kernel: ";
    assert!(errors[0].starts_with(want), "{}", errors[0]);
    assert!(
        errors[0].contains("the device image of scale.c has no SIMT bytecode for the emulated device (compile it with accc -gpu=emu) (it holds: PTX"),
        "{}",
        errors[0]
    );

    ok(dir, &["-gpu=emu", "main.c", "scale.c", "-o", "emu"]);
    let ran = common::emu::run_on_emulator(&dir.join("emu"), &[], dir, "emu").unwrap();
    assert!(ran.ok(), "{}", ran.stderr);
    assert_eq!(ran.stdout, "3.0 2997.0\n");
}

/// `--emit=info` prints the analysis side table of a C file; an IR file
/// (`--emit=ir-unscheduled` or `--emit=ir` output) goes through the same
/// device stages as the C it came from, and an invalid one is reported at
/// its position in the IR file, with exit status 1 and no output file.
#[test]
fn info_and_ir_files() {
    let p = project();
    let d = p.path();
    let info = ok(d, &["--emit=info", "scale.c"]).stdout;
    for line in [
        "param %2 a: deviceptr read-write",
        "param %3 s: value",
        "read index.f32(%2 a, [], cast.i32.i64(%0 i)): %0 i contiguous",
        "write index.f32(%2 a, [], cast.i32.i64(%0 i)): %0 i contiguous",
    ] {
        assert!(info.contains(line), "no '{line}' in:\n{info}");
    }
    let ptx = ok(d, &["--emit=ptx", "scale.c"]).stdout;
    let scheduled = ok(d, &["--emit=ir", "scale.c"]).stdout;
    ok(d, &["--emit=ir-unscheduled", "scale.c", "-o", "scale.ir"]);
    ok(d, &["--emit=ir", "scale.c", "-o", "sched.ir"]);
    // The IR read back gives what the C gives.
    assert_eq!(ok(d, &["--emit=info", "scale.ir"]).stdout, info);
    assert_eq!(ok(d, &["--emit=ir", "scale.ir"]).stdout, scheduled);
    assert_eq!(ok(d, &["--emit=ptx", "scale.ir"]).stdout, ptx);
    assert_eq!(ok(d, &["--emit=ptx", "sched.ir"]).stdout, ptx);
    assert_eq!(ok(d, &["--emit=ir", "sched.ir"]).stdout, scheduled);
    // Invalid IR: a `break` outside any loop, in the kernel of line 3.
    let text = fs::read_to_string(d.join("scale.ir")).unwrap();
    let bad = text.replacen("\n{\n", "\n{\n    break\n", 1);
    assert_ne!(bad, text);
    fs::write(d.join("bad.ir"), bad).unwrap();
    let r = fails(d, &["--emit=ptx", "bad.ir", "-o", "bad.ptx"]);
    assert!(
        r.stderr
            .starts_with("bad.ir:3:1: error: invalid IR: kernel ")
            && r.stderr
                .contains("break outside a loop or switch (at scale.c:4:13)"),
        "{}",
        r.stderr
    );
    assert!(!d.join("bad.ptx").exists());
    // A read error is positioned too (line 4: the unscheduled kernel has
    // no launch line, `schedule` computes it).
    fs::write(d.join("typo.ir"), text.replace("i32 value", "i32 valu")).unwrap();
    let r = fails(d, &["--emit=ptx", "typo.ir", "-o", "typo.ptx"]);
    assert!(
        r.stderr
            .contains("typo.ir:4:19: error: unknown parameter mode 'valu'"),
        "{}",
        r.stderr
    );
    assert!(!d.join("typo.ptx").exists());
    // An IR file is not a program: it needs --emit, and no host C.
    let r = fails(d, &["scale.ir"]);
    assert!(
        r.stderr.contains("an IR input needs --emit"),
        "{}",
        r.stderr
    );
    let r = fails(d, &["--emit=host-c", "scale.ir"]);
    assert!(
        r.stderr.contains("an IR input needs --emit="),
        "{}",
        r.stderr
    );
}

/// A synchronous construct is not waited for at its end, except when its
/// kernel prints (directly or through a routine): its output reaches the
/// host without a runtime call, so the host code waits (`__ptxrt_settle`)
/// after the launch; an async construct and a silent kernel do not.
#[test]
fn only_constructs_whose_kernel_prints_wait_at_their_end() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let d = tmp.path();
    std::fs::write(
        d.join("p.c"),
        "#include <stdio.h>\n\
         #pragma acc routine seq\n\
         static void say(int i) { printf(\"%d\\n\", i); }\n\
         int main(void) {\n\
         float a[64];\n\
         #pragma acc parallel loop copyout(a)\n\
         for (int i = 0; i < 64; i++) a[i] = i;\n\
         #pragma acc serial\n\
         printf(\"direct\\n\");\n\
         #pragma acc serial\n\
         say(1);\n\
         #pragma acc serial async(1)\n\
         say(2);\n\
         #pragma acc wait\n\
         return (int)a[1] - 1;\n\
         }\n",
    )
    .expect("write p.c");
    let host_c = ok(d, &["--emit=host-c", "p.c"]).stdout;
    let launches: Vec<&str> = host_c
        .lines()
        .filter(|l| l.contains("__ptxrt_launch("))
        .collect();
    assert_eq!(launches.len(), 4, "{host_c}");
    let waits: Vec<bool> = launches
        .iter()
        .map(|l| l.contains("__ptxrt_settle();"))
        .collect();
    assert_eq!(waits, [false, true, true, false], "{host_c}");
}

/// accc identifies itself to the preprocessor, as nvc (`__NVCOMPILER`) and
/// gcc (`__GNUC__`) do: `__ACCC__` is 1 next to `_OPENACC`.
#[test]
fn the_preprocessor_sees_accc() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let d = tmp.path();
    std::fs::write(
        d.join("m.c"),
        "#if defined(__ACCC__) && __ACCC__ == 1 && defined(_OPENACC)\nint accc_here;\n#endif\n",
    )
    .expect("write m.c");
    let pre = ok(d, &["-E", "m.c"]).stdout;
    assert!(pre.contains("int accc_here;"), "{pre}");
}
