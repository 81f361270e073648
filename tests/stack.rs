//! The per-thread stack of recursive device code. CUDA gives a thread 1 KiB
//! of stack unless told otherwise; the nvcc path's recursive routines
//! (tests/programs/routine_seq.c, about 1200 calls deep) need more. accc
//! marks an image whose device functions recurse (`PTXRT_IMAGE_RECURSIVE`,
//! from the IR's call graph) and the runtime raises the stack for it
//! (ptx-runtime/core/src/stack.rs); `PTXRT_STACK_SIZE` /
//! `NV_ACC_CUDA_STACKSIZE` override it. The emulated device holds recursion
//! to the limit set through the plugin, so these tests show the program
//! passes only with the raised stack.

mod common;

use common::*;
use std::path::Path;

/// The `flags` of the image in accc's host C for `program`
/// (tests/programs/…).
fn image_flags(program: &str) -> u32 {
    let text = stdout_of(
        accc()
            .args(["--emit=host-c", "-I"])
            .arg(tests_dir().join("programs"))
            .arg(tests_dir().join("programs").join(program)),
    );
    let init = text
        .lines()
        .find_map(|l| l.split_once("__ptxrt_image __accc_image = {PTXRT_ABI_VERSION, "))
        .unwrap_or_else(|| panic!("no image in the host C of {program}"))
        .1;
    // relocatable, then flags.
    let flags = init.split(", ").nth(1).unwrap();
    flags.trim_end_matches('u').parse().unwrap()
}

#[test]
fn recursive_device_code_marks_its_image() {
    // is_even/is_odd call each other, collatz_len calls itself.
    assert_eq!(image_flags("routine_seq.c"), 1);
    // Routines calling routines, none reaching itself.
    assert_eq!(image_flags("routine_bind.c"), 0);
    assert_eq!(image_flags("routine_levels.c"), 0);
}

/// Runs routine_seq.c, built for the emulated device, with `env`.
fn run_routine_seq(exe: &Path, dir: &Path, env: &[(&str, &str)], tag: &str) -> Run {
    let env: Vec<(String, String)> = env
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    emu::run_on_emulator(exe, &env, dir, tag).unwrap()
}

#[test]
fn recursion_runs_only_with_the_raised_stack() {
    let dir = tempfile::tempdir().unwrap();
    let exe = dir.path().join("routine_seq");
    let built = accc()
        .args(["-O2", "-gpu=emu"])
        .arg(tests_dir().join("programs/routine_seq.c"))
        .arg("-o")
        .arg(&exe)
        .arg("-lm")
        .output()
        .unwrap();
    assert!(
        built.status.success(),
        "{}",
        String::from_utf8_lossy(&built.stderr)
    );
    let d = dir.path();
    // The image is recursive: the runtime raises the stack (32 KiB).
    let r = run_routine_seq(&exe, d, &[("PTXRT_DEBUG", "1")], "raised");
    assert!(
        r.ok() && r.stdout.contains("PASS"),
        "{}",
        tail(&r.stderr, 2000)
    );
    assert!(
        r.stderr
            .contains("stack of each thread of device 0: 32768 bytes (recursive device code)"),
        "{}",
        r.stderr
    );
    // CUDA's default stack: the recursion overflows it, and the error names
    // the construct and its line.
    for (var, value) in [
        ("PTXRT_STACK_SIZE", "1024"),
        ("NV_ACC_CUDA_STACKSIZE", "1K"),
    ] {
        let r = run_routine_seq(&exe, d, &[(var, value)], var);
        assert_eq!(
            r.status.and_then(|s| s.code()),
            Some(1),
            "{var}: {}",
            r.stderr
        );
        assert!(
            r.stderr
                .contains("routine_seq.c:72: error: parallel loop: kernel execution failed")
                && r.stderr.contains("call stack or local memory overflow"),
            "{var}: {}",
            r.stderr
        );
    }
    // accc's own variable wins over nvc's.
    let r = run_routine_seq(
        &exe,
        d,
        &[
            ("PTXRT_STACK_SIZE", "64K"),
            ("NV_ACC_CUDA_STACKSIZE", "1024"),
        ],
        "both",
    );
    assert!(
        r.ok() && r.stdout.contains("PASS"),
        "{}",
        tail(&r.stderr, 2000)
    );
    // A bad value stops the program with one line naming it.
    let r = run_routine_seq(&exe, d, &[("PTXRT_STACK_SIZE", "lots")], "bad");
    assert_eq!(r.status.and_then(|s| s.code()), Some(1), "{}", r.stderr);
    let errors: Vec<&str> = r.stderr.lines().filter(|l| l.contains("error")).collect();
    assert_eq!(errors.len(), 1, "{}", r.stderr);
    assert!(
        errors[0].ends_with("PTXRT_STACK_SIZE=lots: not a stack size (bytes from 1 to 1G, with an optional K or M suffix: 16384, 64K, 1M)"),
        "{}",
        errors[0]
    );
}
