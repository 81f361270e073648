//! nvc's environment variables (issue 19), so that job scripts written for
//! nvc work: a program built with `accc -gpu=emu`, run on the emulated
//! device, prints with `NV_ACC_TIME`, `NV_ACC_NOTIFY` and `NV_ACC_DEBUG`
//! what accc's `PTXRT_TIME`, `PTXRT_NOTIFY` and `PTXRT_DEBUG` make it
//! print (the oracle: the same program run with accc's names), accc's own
//! name wins when both are set, and `ACC_DEVICE_TYPE` takes nvc's
//! spellings. (The parsing itself: the runtime's unit tests in
//! `notify.rs` and `icv.rs`.)

mod common;

use common::{accc, emu, panicked, run, Run, COMPILE_TIMEOUT, RUN_TIMEOUT};
use std::path::{Path, PathBuf};

const PROG: &str = r#"#include <stdio.h>
int main(void)
{
    static float a[1000];
#pragma acc parallel loop copy(a)
    for (int i = 0; i < 1000; i++)
        a[i] = 2.0f * i;
    printf("%.1f\n", a[999]);
    return 0;
}
"#;

/// Every variable of the runtime's output and device choice: cleared
/// before each run, so that only the test's are set.
const VARIABLES: [&str; 9] = [
    "PTXRT_NOTIFY",
    "PTXRT_DEBUG",
    "PTXRT_TIME",
    "NV_ACC_NOTIFY",
    "NV_ACC_DEBUG",
    "NV_ACC_TIME",
    "ACC_DEVICE_TYPE",
    "ACC_DEVICE_NUM",
    "CUDA_LAUNCH_BLOCKING",
];

/// The program, built for the emulated device, in a folder of its own.
fn build() -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    std::fs::write(d.join("p.c"), PROG).unwrap();
    let mut cmd = accc();
    cmd.current_dir(d).args(["-gpu=emu", "p.c", "-o", "p"]);
    let r = run(cmd, d, "accc", COMPILE_TIMEOUT);
    assert!(r.ok() && !panicked(&r.stderr), "accc: {}", r.stderr);
    let exe = d.join("p");
    (tmp, exe)
}

/// Runs `exe` on the emulated device (`ACC_DEVICE_TYPE=nvidia` unless
/// `env` says otherwise) with `env`; it must print the right answer.
fn run_with(exe: &Path, env: &[(&str, &str)]) -> Run {
    let dir = exe.parent().unwrap();
    let mut cmd = emu::command(exe, &VARIABLES);
    for (k, v) in env {
        cmd.env(k, v);
    }
    let r = run(cmd, dir, "p", RUN_TIMEOUT);
    assert!(r.ok(), "{env:?}: {}\n{}", r.describe_status(), r.stderr);
    assert_eq!(r.stdout, "1998.0\n", "{env:?}");
    r
}

/// The runtime's `ptxrt: ` lines of a run's stderr whose first word is one
/// of `kinds` (all of them when empty).
fn lines(r: &Run, kinds: &[&str]) -> Vec<String> {
    r.stderr
        .lines()
        .filter_map(|l| l.strip_prefix("ptxrt: "))
        .filter(|l| {
            let word = l.split_whitespace().next().unwrap_or("");
            kinds.is_empty() || kinds.contains(&word)
        })
        .map(str::to_string)
        .collect()
}

/// The rows of a run's profile, without the times: each row's region and
/// its counts and byte sizes (the tokens that are no decimal numbers of
/// milliseconds), from the title on.
fn profile(r: &Run) -> Vec<String> {
    let text = r
        .stderr
        .split_once("accc runtime profile")
        .map_or("", |s| s.1);
    text.lines()
        .skip(1)
        .map(|l| {
            l.split_whitespace()
                .filter(|t| !(t.contains('.') && t.parse::<f64>().is_ok()))
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect()
}

/// `NV_ACC_TIME=1` prints `PTXRT_TIME=1`'s profile: the same regions
/// with the same launches and transfers; `PTXRT_TIME=0` switches it off
/// again.
#[test]
fn nv_acc_time_prints_the_profile() {
    let (_tmp, exe) = build();
    let want = profile(&run_with(&exe, &[("PTXRT_TIME", "1")]));
    assert!(
        want.iter().any(|l| l.starts_with("p.c:5 parallel loop 1 ")),
        "{want:?}"
    );
    let r = run_with(&exe, &[("NV_ACC_TIME", "1")]);
    assert!(r.stderr.starts_with("accc runtime profile"), "{}", r.stderr);
    assert_eq!(profile(&r), want, "{}", r.stderr);
    let r = run_with(&exe, &[("NV_ACC_TIME", "1"), ("PTXRT_TIME", "0")]);
    assert_eq!(r.stderr, "");
}

/// `NV_ACC_NOTIFY`'s bit mask selects `PTXRT_NOTIFY`'s lines (1: launches
/// and the kernel lines that go with them, 2: transfers, 3: both, bits accc
/// has nothing for: none); `NV_ACC_DEBUG=1` gives `PTXRT_DEBUG=1` with
/// `PTXRT_NOTIFY=1`; accc's own names win.
#[test]
fn nv_acc_notify_and_debug_select_accc_lines() {
    let (_tmp, exe) = build();
    let full = run_with(&exe, &[("PTXRT_NOTIFY", "1")]);
    let launches = lines(&full, &["launch", "kernel"]);
    let transfers = lines(&full, &["upload", "download"]);
    assert!(
        !launches.is_empty() && !transfers.is_empty(),
        "{}",
        full.stderr
    );
    for (mask, want) in [
        ("1", launches.clone()),
        ("2", transfers.clone()),
        ("3", lines(&full, &[])),
        ("0x3", lines(&full, &[])),
        ("4", vec![]),
        ("0", vec![]),
    ] {
        let r = run_with(&exe, &[("NV_ACC_NOTIFY", mask)]);
        assert_eq!(lines(&r, &[]), want, "NV_ACC_NOTIFY={mask}");
    }
    let r = run_with(&exe, &[("NV_ACC_NOTIFY", "3"), ("PTXRT_NOTIFY", "0")]);
    assert_eq!(r.stderr, "");
    let want = run_with(&exe, &[("PTXRT_DEBUG", "1"), ("PTXRT_NOTIFY", "1")]);
    let r = run_with(&exe, &[("NV_ACC_DEBUG", "1")]);
    assert_eq!(lines(&r, &[]), lines(&want, &[]));
    assert!(
        r.stderr
            .contains("ptxrt: constructs run on NVIDIA device 0"),
        "{}",
        r.stderr
    );
    let r = run_with(&exe, &[("NV_ACC_DEBUG", "1"), ("NV_ACC_NOTIFY", "2")]);
    assert_eq!(lines(&r, &["launch", "kernel"]), Vec::<String>::new());
    assert_eq!(lines(&r, &["upload", "download"]), transfers);
}

/// `ACC_DEVICE_TYPE` as nvc's job scripts spell it: the device for
/// `NVIDIA`, `nvidia`, `acc_device_nvidia`; the host (no launch) for
/// `HOST`, `acc_device_host`; `ACC_DEVICE_NUM=0` the first device.
#[test]
fn acc_device_type_as_nvc_spells_it() {
    let (_tmp, exe) = build();
    for v in ["NVIDIA", "nvidia", "acc_device_nvidia", "ACC_DEVICE_NVIDIA"] {
        let r = run_with(
            &exe,
            &[
                ("ACC_DEVICE_TYPE", v),
                ("ACC_DEVICE_NUM", "0"),
                ("PTXRT_NOTIFY", "1"),
            ],
        );
        assert_eq!(
            lines(&r, &["launch"]).len(),
            1,
            "ACC_DEVICE_TYPE={v}: {}",
            r.stderr
        );
    }
    for v in ["HOST", "host", "acc_device_host"] {
        let r = run_with(&exe, &[("ACC_DEVICE_TYPE", v), ("PTXRT_NOTIFY", "1")]);
        assert_eq!(lines(&r, &[]), Vec::<String>::new(), "ACC_DEVICE_TYPE={v}");
    }
}
