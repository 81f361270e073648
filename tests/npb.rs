//! NPB-ACC (`../shared/suites/NPB-ACC` beside the checkout; not part of accc)
//! built by its own Makefiles with accc through `scripts/npb.sh`, class S of
//! all seven benchmarks, run through the host fallback (CI has no GPU): every
//! one must verify SUCCESSFUL. The build and the run are done split in two, as
//! on the GPU machine (`--build-only OUTDIR`, then `OUTDIR/run.sh`). Then the
//! table's honesty: a build that fails, a crash, a timeout and a wrong answer
//! are each a row saying so. Where the suite is absent the test says so on
//! stderr, past the harness's capture, and checks nothing else.

mod common;

use common::{accc_bin, require_ptxas, root, run, Run, COMPILE_TIMEOUT};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

const BENCHES: [&str; 7] = ["BT", "CG", "EP", "FT", "LU", "MG", "SP"];

fn suite() -> PathBuf {
    root().join("../shared/suites/NPB-ACC")
}

/// `bash script args…` in `dir` with a clean runtime environment.
fn bash(script: &Path, args: &[&str], dir: &Path, tag: &str, limit: Duration) -> Run {
    let mut cmd = Command::new("bash");
    cmd.arg(script).args(args).current_dir(dir);
    for v in [
        "ACC_DEVICE_TYPE",
        "ACC_DEVICE_NUM",
        "PTXRT_PLUGIN",
        "PTXRT_NOTIFY",
        "PTXRT_DEBUG",
        "PTXRT_TIME",
        "NV_ACC_NOTIFY",
        "NV_ACC_DEBUG",
        "NV_ACC_TIME",
    ] {
        cmd.env_remove(v);
    }
    if require_ptxas() {
        cmd.env("ACCC_REQUIRE_PTXAS", "1");
    }
    run(cmd, dir, tag, limit)
}

/// The table's row of `bench` `class`, split in words.
fn row<'a>(table: &'a str, bench: &str, class: &str) -> Vec<&'a str> {
    table
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .find(|w| w.len() > 2 && w[0] == bench && w[1] == class)
        .unwrap_or_else(|| panic!("no row {bench} {class} in:\n{table}"))
}

fn replace_binary(out: &Path, name: &str, script: &str) {
    let p = out.join("bin").join(name);
    std::fs::write(&p, format!("#!/bin/sh\n{script}\n")).unwrap();
    let _ = Command::new("chmod").arg("+x").arg(&p).status();
}

#[test]
fn npb_class_s_verifies_through_the_host_fallback() {
    let suite = suite();
    if !suite.join("CG").is_dir() {
        let _ = writeln!(
            std::io::stderr(),
            "\n*** npb: NOT RUN: NPB-ACC is not at {} (../shared/suites/NPB-ACC beside the checkout) ***\n",
            suite.display()
        );
        return;
    }
    let npb = root().join("scripts/npb.sh");
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    let accc = accc_bin();
    let (suite_s, out_s, accc_s) = (
        suite.to_string_lossy().into_owned(),
        out.to_string_lossy().into_owned(),
        accc.to_string_lossy().into_owned(),
    );
    let r = bash(
        &npb,
        &[
            &suite_s,
            "--classes",
            "S",
            "--accc",
            &accc_s,
            "--no-gcc",
            "--jobs",
            "2",
            "--build-only",
            &out_s,
        ],
        tmp.path(),
        "build",
        COMPILE_TIMEOUT * 4,
    );
    assert!(
        r.ok(),
        "npb.sh --build-only: {}\n{}\n{}",
        r.describe_status(),
        r.stdout,
        r.stderr
    );
    let builds = std::fs::read_to_string(out.join("builds.tsv")).unwrap();
    assert_eq!(builds.lines().count(), 1 + BENCHES.len(), "{builds}");
    assert!(out.join("run.sh").is_file());

    let run_sh = out.join("run.sh");
    let r = bash(&run_sh, &[], tmp.path(), "run", Duration::from_secs(600));
    assert!(
        r.ok(),
        "run.sh: {}\n{}\n{}",
        r.describe_status(),
        r.stdout,
        r.stderr
    );
    for b in BENCHES {
        let w = row(&r.stdout, b, "S");
        assert_eq!(w[2], "SUCCESSFUL", "{b}:\n{}", r.stdout);
        assert_eq!(w[5], "host", "{b} ran on the host fallback:\n{}", r.stdout);
        assert!(w[3].parse::<f64>().is_ok(), "{b}: time {}", w[3]);
        assert!(w[6].parse::<f64>().is_ok(), "{b}: accc build time {}", w[6]);
        assert_eq!(w[7], "-", "{b}: no gcc build asked for");
    }
    assert!(r.stdout.contains("7 of 7 SUCCESSFUL"), "{}", r.stdout);

    // Honest rows: a crash, a wrong answer, a timeout.
    replace_binary(&out, "ep.S.x", "kill -SEGV $$");
    replace_binary(
        &out,
        "mg.S.x",
        "echo ' Verification    =             UNSUCCESSFUL'",
    );
    replace_binary(&out, "cg.S.x", "sleep 30");
    let r = bash(
        &run_sh,
        &["--bench", "CG EP MG", "--timeout", "2"],
        tmp.path(),
        "faults",
        Duration::from_secs(120),
    );
    assert_eq!(r.status.and_then(|s| s.code()), Some(1), "{}", r.stdout);
    assert_eq!(row(&r.stdout, "EP", "S")[2], "CRASHED", "{}", r.stdout);
    assert!(r.stdout.contains("signal 11"), "{}", r.stdout);
    assert_eq!(row(&r.stdout, "MG", "S")[2], "UNSUCCESSFUL", "{}", r.stdout);
    assert_eq!(row(&r.stdout, "CG", "S")[2], "TIMEOUT", "{}", r.stdout);
    assert!(r.stdout.contains("0 of 3 SUCCESSFUL"), "{}", r.stdout);

    // A build that fails is a row too (its log named).
    let r = bash(
        &npb,
        &[
            &suite_s,
            "--classes",
            "S",
            "--bench",
            "EP",
            "--accc",
            "/bin/false",
            "--no-gcc",
            "--out",
            &out_s,
        ],
        tmp.path(),
        "fail",
        Duration::from_secs(120),
    );
    assert_eq!(r.status.and_then(|s| s.code()), Some(1), "{}", r.stdout);
    let w = row(&r.stdout, "EP", "S");
    assert_eq!(w[2..4], ["BUILD", "FAILED"], "{}", r.stdout);
    assert!(r.stdout.contains("0 of 1 SUCCESSFUL"), "{}", r.stdout);
}
