//! Integration tests of the `accc` binary (see tests/README.md).
//!
//! Shared helpers (running commands, output comparison) live in `common/mod.rs`.
//!
//! * `programs`: every `tests/programs/*.c` is built twice, by plain `cc` (pragmas
//!   ignored: the oracle) and by `accc -O2 -gpu=emu`, both are run, and their outputs must
//!   match token by token (floating tokens within the file's `// tolerance:`). Without a
//!   GPU the accc build runs through the host fallback. `// env: NAME=VALUE` lines set
//!   environment variables for both runs; a program with `// oracle: none` (it uses
//!   routines GCC's libgomp lacks) has no oracle: its accc build must exit 0 with a
//!   `PASS` line. The accc build then runs a third time, on the emulated device
//!   (`libptxrt-emu.so`, races stopping it), checked as the GPU bundle checks a GPU run
//!   (`common/emu.rs`), except the programs of [`EMU_TOO_SLOW`]; those of
//!   [`EMU_KNOWN_FAILURES`] (accc bugs the GPU would show too) must still fail there.
//! * `errors`: every `tests/errors/*.c` must be rejected with the diagnostics its
//!   `// expect-error-at:` and `// expect-error:` lines name, without a panic and
//!   without writing the output file.
//! * `cli_*`: driver behaviour (missing input, separate compilation, `--emit`).
//!
//! When ptxas is installed in `.tools/pip` (scripts/setup.sh) or `CI` is set, accc runs
//! with `ACCC_REQUIRE_PTXAS=1`, so every PTX it produces here is assembled.
//! `ACCC_TEST_BIN` replaces the compiler under test (e.g. an installed accc).

mod common;

use common::programs::{
    build, env_settings, flag_values, headers, oracle, program_files, programs_list,
    run_and_compare, sources, stem, Headers,
};
use common::{
    accc, check_all, compare_outputs, emu, header_values, panicked, ptxas_path, run, tail,
    tests_dir, tolerance, Tolerance, COMPILE_TIMEOUT,
};

/// Programs that fail on the emulated device because of a bug of accc (or
/// of the test program) that a GPU would show too: (program, what the
/// emulator's report says, why). Each must still fail there, with a report
/// containing the text; take it off the list when the bug is fixed.
const EMU_KNOWN_FAILURES: &[(&str, &str, &str)] = &[
    (
        "routine_levels",
        "data race in kernel '__accc_main_0_l57_",
        "race in generated code: vector-single `row[0] += 0.0` in a vector routine: every lane loads row[0], lane 0 stores it, no barrier between (benign here: only lane 0's value is stored)",
    ),
];

/// Programs not run on the emulated device: (program, why).
const EMU_TOO_SLOW: &[(&str, &str)] = &[
    (
        "async_chain",
        "device-sized work: 2^20 elements × 20000 dependent steps on a device (to keep its queues busy)",
    ),
    (
        "async_lifetime",
        "device-sized work: 2^20 elements × 2000 dependent steps, 8 times, on a device",
    ),
    (
        "async_poll",
        "device-sized work: 2^16 elements × 2^22 dependent steps on a device (polling a busy queue)",
    ),
];
use std::fs;
use std::path::Path;
use std::process::Command;

/// A test program: one `.c` file, or a folder whose `.c` files make one
/// program (each compiled with `accc -c`, then linked by accc).
fn check_program(src: &Path) -> Result<(), String> {
    let tmp = tempfile::tempdir().map_err(|e| e.to_string())?;
    let dir = tmp.path();
    let name = stem(src);
    let files = program_files(src);
    let Headers {
        tol,
        gpu_only,
        no_oracle,
        env,
        gpu_stdout,
        expect_fail,
        flags,
    } = headers(&files)?;
    // A program that must fail on the GPU (data not present, …) only
    // compiles here: in host mode there is nothing to fail.
    let want = if gpu_only || no_oracle {
        None
    } else {
        Some(oracle(&files, &env, dir, &name)?)
    };

    let mut accc_flags = vec!["-O2", "-gpu=emu"];
    accc_flags.extend(flags.iter().map(String::as_str));
    let exe = build(src, &files, &accc_flags, dir, &name)?;
    if !gpu_only {
        run_and_compare(&exe, want.as_ref(), &env, tol, dir, &name)?;
    }
    if EMU_TOO_SLOW.iter().any(|(n, _)| *n == name) {
        return Ok(());
    }
    let stdout = match (&expect_fail, gpu_stdout.is_empty(), &want) {
        (Some(_), _, _) => String::new(),
        (None, false, _) => gpu_stdout.iter().map(|l| format!("{l}\n")).collect(),
        (None, true, Some(w)) => w.stdout.clone(),
        (None, true, None) => String::new(),
    };
    let status = match (&expect_fail, &want) {
        (Some(_), _) => 1,
        (None, Some(w)) => w.status.and_then(|s| s.code()).unwrap_or(-1),
        (None, None) => 0,
    };
    let on_host = env
        .iter()
        .any(|(k, v)| k == "ACC_DEVICE_TYPE" && v.eq_ignore_ascii_case("host"));
    let expect = emu::Expect {
        status,
        stdout: &stdout,
        tol,
        stderr_re: expect_fail.as_deref(),
        on_host,
    };
    let ran = emu::run_on_emulator(&exe, &env, dir, &name)?;
    let result = emu::check(&ran, &expect, dir);
    match (EMU_KNOWN_FAILURES.iter().find(|(n, _, _)| *n == name), result) {
        (None, r) => r,
        (Some((_, report, _)), Err(e)) if e.contains(report) => Ok(()),
        (Some((_, report, why)), Err(e)) => Err(format!(
            "listed in EMU_KNOWN_FAILURES ({why}) but fails otherwise (not with `{report}`): {e}"
        )),
        (Some((_, _, why)), Ok(())) => Err(format!(
            "listed in EMU_KNOWN_FAILURES ({why}) but passes on the emulated device now: take it off the list"
        )),
    }
}

#[test]
fn programs() {
    check_all(
        "program",
        &programs_list(),
        |p| stem(p),
        |p| check_program(p),
    );
}

fn check_error(src: &Path) -> Result<(), String> {
    let text = fs::read_to_string(src).map_err(|e| format!("cannot read: {e}"))?;
    let messages = header_values(&text, "expect-error");
    let locations = header_values(&text, "expect-error-at");
    if messages.is_empty() && locations.is_empty() {
        return Err("no `// expect-error:` or `// expect-error-at:` line".to_string());
    }
    let tmp = tempfile::tempdir().map_err(|e| e.to_string())?;
    let out = tmp.path().join("out");
    // Run from tests/ with a relative path, so diagnostics read `errors/<name>.c:L:C:`.
    let rel = format!("errors/{}", src.file_name().unwrap().to_string_lossy());
    let mut cmd = accc();
    cmd.current_dir(tests_dir())
        .arg("-O2")
        .arg(&rel)
        .arg("-o")
        .arg(&out);
    let r = run(cmd, tmp.path(), "accc", COMPILE_TIMEOUT);

    let mut problems = Vec::new();
    if r.status.is_none() || r.ok() || r.timed_out {
        problems.push(format!(
            "expected a failing exit status, got {}",
            r.describe_status()
        ));
    }
    if panicked(&r.stderr) {
        problems.push("accc panicked".to_string());
    }
    if out.exists() {
        problems.push("the output file was written".to_string());
    }
    let lower = r.stderr.to_lowercase();
    for m in &messages {
        if !lower.contains(&m.to_lowercase()) {
            problems.push(format!("stderr lacks `{m}`"));
        }
    }
    for at in &locations {
        if !has_error_at(&r.stderr, &rel, at) {
            problems.push(format!(
                "stderr lacks a diagnostic `{rel}:{at}: error: ...`"
            ));
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{}\nstderr:\n{}",
            problems.join("; "),
            tail(&r.stderr, 2000)
        ))
    }
}

/// Whether `stderr` has a line `...<path>:<at>: error...`; `at` is `LINE:COL` or
/// `LINE` (then any column, or none, is accepted).
fn has_error_at(stderr: &str, path: &str, at: &str) -> bool {
    let prefix = format!("{path}:{at}:");
    stderr.lines().any(|l| {
        let Some(i) = l.find(&prefix) else {
            return false;
        };
        let mut rest = &l[i + prefix.len()..];
        if !at.contains(':') {
            let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
            if digits > 0 && rest[digits..].starts_with(':') {
                rest = &rest[digits + 1..];
            }
        }
        rest.trim_start().starts_with("error")
    })
}

#[test]
fn errors() {
    check_all("error", &sources("errors"), |p| stem(p), |p| check_error(p));
}

#[test]
fn cli_missing_input_file() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("prog");
    let mut cmd = accc();
    cmd.arg("-O2")
        .arg(tmp.path().join("no_such_file.c"))
        .arg("-o")
        .arg(&out);
    let r = run(cmd, tmp.path(), "accc", COMPILE_TIMEOUT);
    assert!(
        r.status.is_some() && !r.ok(),
        "expected failure, got {}",
        r.describe_status()
    );
    assert!(!panicked(&r.stderr), "accc panicked:\n{}", r.stderr);
    assert!(
        r.stderr.contains("no_such_file.c"),
        "stderr does not name the file:\n{}",
        r.stderr
    );
    assert!(!out.exists(), "output written for a missing input");
}

#[test]
fn cli_no_input_files() {
    let tmp = tempfile::tempdir().unwrap();
    let mut cmd = accc();
    cmd.current_dir(tmp.path());
    let r = run(cmd, tmp.path(), "accc", COMPILE_TIMEOUT);
    assert!(
        r.status.is_some() && !r.ok(),
        "expected failure, got {}",
        r.describe_status()
    );
    assert!(!panicked(&r.stderr), "accc panicked:\n{}", r.stderr);
    assert!(!r.stderr.trim().is_empty(), "no diagnostic");
}

const SEPARATE_MAIN: &str = r#"#include <stdio.h>
void scale(int n, float s, float *x);
long add(int n, const int *a, const int *b, int *c);
int main(void)
{
    enum { N = 3001 };
    static float x[N];
    static int a[N], b[N], c[N];
    for (int i = 0; i < N; i++) {
        x[i] = (float)i;
        a[i] = i;
        b[i] = 2 * i - 5;
    }
    scale(N, 0.5f, x);
    long s = add(N, a, b, c);
    printf("%.6e %.6e %ld %d\n", x[1], x[N - 1], s, c[N - 1]);
    printf("PASS\n");
    return 0;
}
"#;

const SEPARATE_SCALE: &str = r#"void scale(int n, float s, float *x)
{
#pragma acc parallel loop copy(x[0:n])
    for (int i = 0; i < n; i++)
        x[i] = x[i] * s;
}
"#;

const SEPARATE_ADD: &str = r#"long add(int n, const int *a, const int *b, int *c)
{
    long s = 0;
#pragma acc parallel loop copyin(a[0:n], b[0:n]) copyout(c[0:n])
    for (int i = 0; i < n; i++)
        c[i] = a[i] + b[i];
    for (int i = 0; i < n; i++)
        s += c[i];
    return s;
}
"#;

/// `accc -c` on three files (two with compute regions), then `accc *.o -o prog`.
#[test]
fn cli_separate_compilation_and_link() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let files = [
        ("main.c", SEPARATE_MAIN),
        ("scale.c", SEPARATE_SCALE),
        ("add.c", SEPARATE_ADD),
    ];
    let mut srcs = Vec::new();
    let mut objs = Vec::new();
    for (name, text) in files {
        let src = dir.join(name);
        fs::write(&src, text).unwrap();
        let obj = src.with_extension("o");
        let mut cmd = accc();
        cmd.arg("-O2").arg("-c").arg(&src).arg("-o").arg(&obj);
        let r = run(cmd, dir, &format!("{name}.c-build"), COMPILE_TIMEOUT);
        assert!(
            r.ok() && obj.exists(),
            "accc -c {name} failed ({}):\n{}",
            r.describe_status(),
            r.stderr
        );
        srcs.push(src);
        objs.push(obj);
    }
    let want = oracle(&srcs, &[], dir, "separate").unwrap_or_else(|e| panic!("{e}"));
    let exe = dir.join("prog");
    let mut cmd = accc();
    cmd.args(&objs).arg("-o").arg(&exe);
    let r = run(cmd, dir, "link", COMPILE_TIMEOUT);
    assert!(
        r.ok() && exe.exists(),
        "accc link failed ({}):\n{}",
        r.describe_status(),
        r.stderr
    );
    if let Err(e) = run_and_compare(&exe, Some(&want), &[], Tolerance::EXACT, dir, "separate") {
        panic!("{e}");
    }
}

/// `--emit=ptx` writes PTX with an entry point; ptxas accepts it when installed.
#[test]
fn cli_emit_ptx() {
    let tmp = tempfile::tempdir().unwrap();
    let ptx = tmp.path().join("saxpy.ptx");
    let mut cmd = accc();
    cmd.current_dir(tmp.path());
    cmd.arg("-O2").arg("--emit=ptx").arg("--gpu-arch=sm_90");
    cmd.arg(tests_dir().join("programs/saxpy.c"))
        .arg("-o")
        .arg(&ptx);
    let r = run(cmd, tmp.path(), "accc", COMPILE_TIMEOUT);
    assert!(
        r.ok(),
        "accc --emit=ptx failed ({}):\n{}",
        r.describe_status(),
        r.stderr
    );
    let text = fs::read_to_string(&ptx).unwrap_or_default();
    for needle in [".version", ".target sm_90", ".entry"] {
        assert!(
            text.contains(needle),
            "PTX lacks `{needle}`:\n{}",
            tail(&text, 3000)
        );
    }
    if let Some(ptxas) = ptxas_path() {
        let mut cmd = Command::new(ptxas);
        cmd.arg("-arch=sm_90")
            .arg(&ptx)
            .arg("-o")
            .arg(tmp.path().join("saxpy.cubin"));
        let r = run(cmd, tmp.path(), "ptxas", COMPILE_TIMEOUT);
        assert!(
            r.ok(),
            "ptxas rejects the PTX ({}):\n{}",
            r.describe_status(),
            r.stderr
        );
    }
}

/// The PTX of narrow negations holds none of the instructions ptxas
/// miscompiles (`neg.s16`; src/codegen/nvptx/ptxas_bugs.rs): the program
/// runs right on a GPU only because of the rewrite, which CI cannot run.
#[test]
fn cli_emit_ptx_avoids_ptxas_neg16() {
    let tmp = tempfile::tempdir().unwrap();
    let ptx = tmp.path().join("neg.ptx");
    let mut cmd = accc();
    cmd.current_dir(tmp.path());
    cmd.arg("-O2").arg("--emit=ptx");
    cmd.arg(tests_dir().join("programs/neg_narrow.c"))
        .arg("-o")
        .arg(&ptx);
    let r = run(cmd, tmp.path(), "accc", COMPILE_TIMEOUT);
    assert!(r.ok(), "accc --emit=ptx failed:\n{}", r.stderr);
    let text = fs::read_to_string(&ptx).unwrap_or_default();
    assert!(
        !text.contains("neg.s16") && text.contains("sub.u16"),
        "PTX of neg_narrow.c should negate 16-bit values with sub.u16:\n{}",
        tail(&text, 3000)
    );
}

/// `--emit=ir` and `--emit=llvm` (also spelled `--emit ir`, as `--help`
/// shows) print to stdout when there is no `-o`.
#[test]
fn cli_emit_ir_and_llvm_to_stdout() {
    let tmp = tempfile::tempdir().unwrap();
    for (emit, needle, joined) in [
        ("ir", "kernel", true),
        ("llvm", "nvptx64", true),
        ("ir", "kernel", false),
        ("llvm", "nvptx64", false),
    ] {
        let mut cmd = accc();
        cmd.current_dir(tmp.path());
        if joined {
            cmd.arg(format!("--emit={emit}"));
        } else {
            cmd.args(["--emit", emit]);
        }
        cmd.arg(tests_dir().join("programs/vecadd_int.c"));
        let r = run(cmd, tmp.path(), emit, COMPILE_TIMEOUT);
        assert!(
            r.ok(),
            "accc --emit={emit} failed ({}):\n{}",
            r.describe_status(),
            r.stderr
        );
        assert!(
            r.stdout.to_lowercase().contains(needle),
            "--emit={emit} output lacks `{needle}`:\n{}",
            tail(&r.stdout, 3000)
        );
    }
}

// ---- the harness's own checks -------------------------------------------------

/// One tolerance for every floating token.
fn tol(x: f64) -> Tolerance {
    Tolerance { short: x, long: x }
}

#[test]
fn harness_compare_outputs() {
    assert!(compare_outputs("a 1\nPASS\n", "a 1\nPASS\n", tol(0.0)).is_ok());
    assert!(
        compare_outputs("a 1\n", "a 2\n", tol(0.5)).is_err(),
        "integers are exact"
    );
    assert!(compare_outputs("x 1.000000e+00\n", "x 1.000001e+00\n", tol(0.0)).is_err());
    assert!(compare_outputs("x 1.000000e+00\n", "x 1.000001e+00\n", tol(1e-5)).is_ok());
    assert!(compare_outputs("x 1.000000e+00\n", "x 1.100000e+00\n", tol(1e-5)).is_err());
    assert!(compare_outputs("x -2.5\n", "x 2.5\n", tol(1e-3)).is_err());
    assert!(compare_outputs("PASS\n", "PASS\nextra\n", tol(0.0)).is_err());
    assert!(compare_outputs("PASS\nmore\n", "PASS\n", tol(0.0)).is_err());
    assert!(compare_outputs("PASS\n", "FAIL\n", tol(1.0)).is_err());
    assert!(compare_outputs("nan\n", "nan\n", tol(1e-6)).is_ok());
    assert!(
        compare_outputs("a  b\n", "a b\n", tol(0.0)).is_ok(),
        "tokens, not spacing"
    );
    // Two tolerances: `%.6e` tokens get the first, `%.15e` tokens the second.
    let two = Tolerance {
        short: 1e-5,
        long: 1e-9,
    };
    assert!(compare_outputs("1.000000e+00\n", "1.000005e+00\n", two).is_ok());
    assert!(compare_outputs("1.000000000000000e+00\n", "1.000000000100000e+00\n", two).is_ok());
    assert!(compare_outputs("1.000000000000000e+00\n", "1.000005000000000e+00\n", two).is_err());
}

#[test]
fn harness_headers() {
    let src = "// tolerance: 1e-9\n// expect-error: foo bar\n// expect-error: baz\nint x;\n";
    assert_eq!(tolerance(src), Ok(tol(1e-9)));
    assert_eq!(tolerance("int x;\n"), Ok(Tolerance::EXACT));
    assert!(tolerance("// tolerance: lots\n").is_err());
    assert!(tolerance("// tolerance: 1e-5 1e-9 1\n").is_err());
    assert_eq!(
        tolerance("// tolerance: 1e-5 1e-9\n"),
        Ok(Tolerance {
            short: 1e-5,
            long: 1e-9
        })
    );
    assert_eq!(header_values(src, "expect-error"), vec!["foo bar", "baz"]);
    assert!(header_values(src, "expect-error-at").is_empty());
    let env = "// env: ACC_DEVICE_TYPE=host\n// env: X = a b\nint y;\n";
    assert_eq!(
        env_settings(env),
        Ok(vec![
            ("ACC_DEVICE_TYPE".to_string(), "host".to_string()),
            ("X".to_string(), "a b".to_string())
        ])
    );
    assert!(env_settings("// env: novalue\n").is_err());
    assert_eq!(
        flag_values("// flags: -gpu=fastmath\n// flags: -Mfprelaxed=div  -DX\n"),
        Ok(vec![
            "-gpu=fastmath".into(),
            "-Mfprelaxed=div".into(),
            "-DX".into()
        ])
    );
    assert!(flag_values("// flags: -O2 x.c\n").is_err());
    assert!(env_settings("// env: =x\n").is_err());
}

#[test]
fn harness_error_locations() {
    let err = "errors/x.c:9:27: error: unknown clause `copyni`\n   9 | #pragma acc\n";
    assert!(has_error_at(err, "errors/x.c", "9:27"));
    assert!(has_error_at(err, "errors/x.c", "9"));
    assert!(!has_error_at(err, "errors/x.c", "9:2"));
    assert!(!has_error_at(err, "errors/x.c", "8"));
    assert!(!has_error_at(
        "errors/x.c:9:27: warning: w\n",
        "errors/x.c",
        "9"
    ));
    assert!(has_error_at(
        "/abs/tests/errors/x.c:10: error: e\n",
        "errors/x.c",
        "10"
    ));
}
