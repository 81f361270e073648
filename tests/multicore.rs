//! `-acc=multicore` (see tests/README.md): every `tests/programs` program
//! built with `accc -O2 -acc=multicore` runs its kernels on the runtime's
//! multicore device (gangs on host threads, memory shared with the
//! program) and must match its plain-cc oracle as the host fallback does,
//! except the programs of [`EXCEPTIONS`] (and those of [`GPU_ANSWER`],
//! which must print the GPU's answer); programs that must fail on a GPU
//! (`// gpu-expect-fail:`, data not present…) only compile, since memory
//! is shared. The `threads` test checks that launches use the host's
//! threads (`ACC_NUM_CORES`) and give the same answer on one of them.

mod common;

use common::programs::{
    build, headers, oracle, program_files, programs_list, run_and_compare, stem, Headers,
};
use common::{check_all, run, tests_dir, RUN_TIMEOUT};
use std::path::Path;
use std::process::Command;

/// Programs whose multicore build is not run: (program, why). Take one
/// off the list when its reason is gone.
const EXCEPTIONS: &[(&str, &str)] = &[
    (
        "acc_api33",
        "expects shared memory exactly when the device type is host; the multicore device shares memory too",
    ),
    (
        "acc_map_memcpy",
        "decides whether memory is shared by acc_device_host (GCC has no acc_device_multicore) and maps separate memory, which the multicore device refuses",
    ),
    (
        "routine_bind",
        "tells the device from the host by acc_on_device(acc_device_not_host), false on the host's cores (nvc's answer), where the multicore kernels honour bind all the same",
    ),
    (
        "async_poll",
        "device-sized work (2^16 elements x 2^22 steps) unless the device type is host: minutes on the host's cores",
    ),
];

/// Programs whose multicore run must print their `// gpu-stdout:` lines:
/// their answer is the GPU's because gangs run redundantly, as on the GPU
/// (the host fallback runs one gang).
const GPU_ANSWER: &[&str] = &["red_redundant"];

fn check_multicore(src: &Path) -> Result<(), String> {
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
        flags,
        ..
    } = headers(&files)?;
    if EXCEPTIONS.iter().any(|(n, _)| *n == name) {
        return Ok(());
    }
    let want = if gpu_only || no_oracle {
        None
    } else {
        let mut w = oracle(&files, &env, dir, &name)?;
        if GPU_ANSWER.contains(&name.as_str()) {
            w.stdout = gpu_stdout.iter().map(|l| format!("{l}\n")).collect();
        }
        Some(w)
    };
    let mut accc_flags = vec!["-O2", "-acc=multicore"];
    accc_flags.extend(flags.iter().map(String::as_str));
    let exe = build(src, &files, &accc_flags, dir, &name)?;
    if gpu_only {
        return Ok(());
    }
    run_and_compare(&exe, want.as_ref(), &env, tol, dir, &name)
}

#[test]
fn programs_multicore() {
    let list = programs_list();
    for n in EXCEPTIONS.iter().map(|(n, _)| n).chain(GPU_ANSWER) {
        assert!(
            list.iter().any(|p| stem(p) == *n),
            "{n} is listed but is no program"
        );
    }
    check_all(
        "multicore program",
        &list,
        |p| stem(p),
        |p| check_multicore(p),
    );
}

/// A program of many gangs built with `-acc=multicore`, run with
/// `ACC_NUM_CORES=1` and `=4`: the runtime says it runs constructs on the
/// multicore device with that many threads, every launch has several
/// gangs, and the answers agree.
#[test]
fn threads() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let src = tests_dir().join("programs/red_gang_nested.c");
    let exe = build(
        &src,
        std::slice::from_ref(&src),
        &["-O2", "-acc=multicore"],
        dir,
        "threads",
    )
    .unwrap();
    let mut outs = vec![];
    for n in ["1", "4"] {
        let mut cmd = Command::new(&exe);
        cmd.env_remove("ACC_DEVICE_TYPE")
            .env("ACC_NUM_CORES", n)
            .env("PTXRT_DEBUG", "1")
            .env("PTXRT_NOTIFY", "1");
        let r = run(cmd, dir, &format!("threads{n}"), RUN_TIMEOUT);
        assert!(r.ok(), "{}", r.stderr);
        assert!(
            r.stderr.contains(&format!(
                "constructs run on the multicore device ({n} threads)"
            )),
            "{}",
            r.stderr
        );
        let launches: Vec<&str> = r
            .stderr
            .lines()
            .filter(|l| l.contains(": launch "))
            .collect();
        assert!(!launches.is_empty(), "{}", r.stderr);
        assert!(
            launches.iter().any(|l| !l.contains("grid=(1,1,1)")),
            "no launch of several gangs: {launches:?}"
        );
        outs.push(r.stdout);
    }
    assert_eq!(outs[0], outs[1]);
    assert!(outs[0].contains("PASS"), "{}", outs[0]);
}

/// The overlap benchmark under `-acc=multicore` passes its own checks: it
/// zeroes the device copies only where the device has memory of its own
/// (`acc_deviceptr(in) != in`), never the shared arrays of the multicore
/// device (it once asked `acc_get_device_type() != acc_device_host`, and
/// every variant failed with `out[0] = 0`).
#[test]
fn overlap_benchmark() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let root = tests_dir().join("..");
    let src = root.join("benchmarks/overlap/overlap.c");
    let common = root.join("benchmarks/common");
    let inc = format!("-I{}", common.display());
    let exe = build(
        &src,
        std::slice::from_ref(&src),
        &["-O2", "-acc=multicore", &inc],
        dir,
        "overlap",
    )
    .unwrap();
    let mut cmd = Command::new(&exe);
    cmd.env_remove("ACC_DEVICE_TYPE")
        .env("ACC_NUM_CORES", "2")
        .env("BENCH_REPS", "2")
        .env("BENCH_WARMUP", "0")
        .args(["65536", "4", "8"]);
    let r = run(cmd, dir, "overlap", RUN_TIMEOUT);
    assert!(r.ok(), "{}", r.stderr);
    let results: Vec<&str> = r
        .stdout
        .lines()
        .filter(|l| l.starts_with("RESULT"))
        .collect();
    assert_eq!(results.len(), 7, "{}", r.stdout);
    assert!(
        results.iter().all(|l| l.ends_with("PASS")),
        "{}\n{}",
        r.stdout,
        r.stderr
    );
}

/// `ACC_NUM_CORES` that is not a positive number stops the program with
/// one line.
#[test]
fn bad_num_cores() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let src = tests_dir().join("programs/daxpy_kernels.c");
    let exe = build(
        &src,
        std::slice::from_ref(&src),
        &["-O2", "-acc=multicore"],
        dir,
        "bad",
    )
    .unwrap();
    let mut cmd = Command::new(&exe);
    cmd.env_remove("ACC_DEVICE_TYPE")
        .env("ACC_NUM_CORES", "zero");
    let r = run(cmd, dir, "bad", RUN_TIMEOUT);
    assert!(!r.ok());
    let lines: Vec<&str> = r.stderr.lines().collect();
    assert_eq!(lines.len(), 1, "{}", r.stderr);
    assert!(
        lines[0].contains("ACC_NUM_CORES=zero is not a positive number of threads"),
        "{}",
        r.stderr
    );
}

/// What `--emit` and `-S` give with `-acc=multicore`: the kernels' host C
/// (`--emit=cuda`), an error for the GPU's forms, and the kernels'
/// assembly beside the host's.
#[test]
fn emit_forms() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let src = tests_dir().join("programs/daxpy_kernels.c");
    let accc = |args: &[&str]| {
        let mut cmd = common::accc();
        cmd.current_dir(dir).args(args).arg(&src);
        cmd.output().unwrap()
    };
    let c = accc(&["-acc=multicore", "--emit=cuda", "-o", "-"]);
    let text = String::from_utf8_lossy(&c.stdout);
    assert!(c.status.success(), "{}", String::from_utf8_lossy(&c.stderr));
    assert!(text.starts_with("/* Host C of "), "{text}");
    assert!(text.contains("const struct { const char *name; void *addr; } __accc_hosttab_"));
    assert!(!text.contains("__global__"));
    let p = accc(&["-acc=multicore", "--emit=ptx", "-o", "-"]);
    assert!(!p.status.success());
    assert!(String::from_utf8_lossy(&p.stderr)
        .contains("--emit=ptx needs the GPU target (not -acc=multicore)"));
    let s = accc(&["-acc=multicore", "-S", "-o", "d.s"]);
    assert!(s.status.success(), "{}", String::from_utf8_lossy(&s.stderr));
    assert!(dir.join("d.s").is_file() && dir.join("d.kernels.s").is_file());
}
