//! Every program accc links finds the device plugin, also one whose own files
//! hold no compute construct (it only calls `acc_init` or `acc_malloc`):
//! accc records its lib dir at link time, and the runtime searches it after
//! the program's own folder. `PTXRT_DEBUG=1` says which plugin paths were
//! tried, with what result, and where constructs run and why.
//!
//! CI has no GPU and no libcuda: the real plugin is loaded over the stub
//! libcuda of scripts/stub-libcuda.sh (every driver call fails with
//! CUDA_ERROR_UNKNOWN), which shows that the plugin was found and the driver
//! reached; without the stub, the loader's reason (no libcuda.so.1) shows.

mod common;

use common::{accc, accc_bin, panicked, root, run, Run, COMPILE_TIMEOUT, RUN_TIMEOUT};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

/// No compute construct: only the API.
const PROG: &str = r#"#include <openacc.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "init") == 0)
        acc_init(acc_device_nvidia);
    void *p = acc_malloc(64);
    printf("allocated %d\n", p != NULL);
    acc_free(p);
    return 0;
}
"#;

const RECORDED: &str = "(recorded when accc linked the program)";

/// accc's lib dir as the runtime will see it: where libptxrt.a is (next to
/// accc in target/<profile>, else PREFIX/lib).
fn lib_dir() -> PathBuf {
    let bin = accc_bin().canonicalize().expect("accc binary");
    let dir = bin.parent().expect("accc's folder").to_path_buf();
    if dir.join("libptxrt.a").is_file() {
        dir
    } else {
        dir.parent().expect("prefix").join("lib")
    }
}

/// The plugin file in `lib_dir()` (cargo names it libptxrt_cuda.so, the
/// install libptxrt-cuda.so), if built.
fn plugin() -> Option<PathBuf> {
    let d = lib_dir();
    ["libptxrt-cuda.so", "libptxrt_cuda.so"]
        .into_iter()
        .map(|n| d.join(n))
        .find(|p| p.is_file())
}

/// Compile PROG with accc into `dir`.
fn build(dir: &Path) -> PathBuf {
    std::fs::write(dir.join("noregion.c"), PROG).unwrap();
    let mut cmd = accc();
    cmd.current_dir(dir)
        .args(["-O2", "noregion.c", "-o", "noregion"]);
    let r = run(cmd, dir, "accc", COMPILE_TIMEOUT);
    assert!(
        r.ok() && !panicked(&r.stderr),
        "accc: {}\n{}",
        r.describe_status(),
        r.stderr
    );
    dir.join("noregion")
}

/// Run the program with `env` (the runtime's variables cleared first).
fn exec(exe: &Path, arg: &str, env: &[(&str, &str)]) -> Run {
    let mut cmd = Command::new(exe);
    cmd.arg(arg);
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
        "LD_LIBRARY_PATH",
    ] {
        cmd.env_remove(v);
    }
    cmd.envs(env.iter().copied());
    let dir = exe.parent().unwrap();
    run(cmd, dir, &format!("run-{arg}"), RUN_TIMEOUT)
}

/// Says loudly (past the test harness's capture) that a check did not run.
fn not_run(why: &str) {
    let _ = writeln!(
        std::io::stderr(),
        "\n*** plugin_search: NOT CHECKED: {why} ***\n"
    );
}

#[test]
fn program_without_regions_finds_the_plugin_recorded_at_link_time() {
    let Some(plugin) = plugin() else {
        return not_run("the CUDA plugin is not built (cargo build --workspace)");
    };
    let stub = root().join(".tools/cuda-stub/lib64/libcuda.so");
    if !stub.is_file() {
        return not_run("no stub libcuda (scripts/stub-libcuda.sh)");
    }
    let tmp = tempfile::tempdir().unwrap();
    let exe = build(tmp.path());
    let drv = tmp.path().join("driver");
    std::fs::create_dir_all(&drv).unwrap();
    std::fs::copy(&stub, drv.join("libcuda.so.1")).unwrap();
    let ld = drv.to_string_lossy().into_owned();
    let loaded = format!("ptxrt: plugin {} {RECORDED}: loaded", plugin.display());

    // acc_init(acc_device_nvidia): the plugin is found and reaches the driver.
    let want = "accc runtime: error: acc_init: no NVIDIA device is usable: 'dev_type=acc_device_nvidia': the CUDA driver reported: cuInit: CUDA error 999";
    let r = exec(&exe, "init", &[("LD_LIBRARY_PATH", &ld)]);
    assert_eq!(r.status.and_then(|s| s.code()), Some(1), "{}", r.stderr);
    assert_eq!(r.stderr.trim_end(), want);
    let r = exec(
        &exe,
        "init",
        &[("LD_LIBRARY_PATH", &ld), ("PTXRT_DEBUG", "1")],
    );
    assert_eq!(r.status.and_then(|s| s.code()), Some(1), "{}", r.stderr);
    let lines: Vec<&str> = r.stderr.lines().collect();
    let beside = format!(
        "ptxrt: plugin {} (next to the program): no such file",
        tmp.path()
            .canonicalize()
            .unwrap()
            .join("libptxrt-cuda.so")
            .display()
    );
    assert_eq!(
        lines.first().copied(),
        Some(beside.as_str()),
        "{}",
        r.stderr
    );
    assert!(lines.contains(&loaded.as_str()), "{}", r.stderr);
    assert!(
        lines.contains(&"ptxrt: no device: the CUDA driver reported: cuInit: CUDA error 999"),
        "{}",
        r.stderr
    );
    assert_eq!(lines.last().copied(), Some(want), "{}", r.stderr);

    // acc_malloc with the default device type: the host, and why.
    let r = exec(
        &exe,
        "malloc",
        &[("LD_LIBRARY_PATH", &ld), ("PTXRT_DEBUG", "1")],
    );
    assert!(r.ok(), "{}", r.stderr);
    assert_eq!(r.stdout, "allocated 1\n");
    assert!(r.stderr.contains(&loaded), "{}", r.stderr);
    assert!(
        r.stderr.contains("ptxrt: constructs run on the host: no NVIDIA device is usable (the CUDA driver reported: cuInit: CUDA error 999"),
        "{}",
        r.stderr
    );
    // Silent without PTXRT_DEBUG.
    let r = exec(&exe, "malloc", &[("LD_LIBRARY_PATH", &ld)]);
    assert!(r.ok() && r.stderr.is_empty(), "{}", r.stderr);

    // PTXRT_PLUGIN first: its failure is said, then the search goes on.
    let r = exec(
        &exe,
        "malloc",
        &[
            ("LD_LIBRARY_PATH", &ld),
            ("PTXRT_DEBUG", "1"),
            ("PTXRT_PLUGIN", "/nonexistent/libptxrt-cuda.so"),
        ],
    );
    assert!(r.ok(), "{}", r.stderr);
    assert!(
        r.stderr.lines().next().is_some_and(
            |l| l.starts_with("ptxrt: plugin /nonexistent/libptxrt-cuda.so (PTXRT_PLUGIN): ")
        ),
        "{}",
        r.stderr
    );
    assert!(r.stderr.contains(&loaded), "{}", r.stderr);

    // No libcuda at all: the plugin recorded at link time is tried, and the
    // loader's reason is kept.
    let r = exec(&exe, "init", &[("PTXRT_DEBUG", "1")]);
    assert_eq!(r.status.and_then(|s| s.code()), Some(1), "{}", r.stderr);
    let tried = format!(
        "ptxrt: plugin {} {RECORDED}: libcuda.so.1: cannot open shared object file",
        plugin.display()
    );
    assert!(r.stderr.contains(&tried), "{}", r.stderr);
    assert!(
        r.stderr.lines().last().is_some_and(|l| l.starts_with(&format!(
            "accc runtime: error: acc_init: no NVIDIA device is usable: 'dev_type=acc_device_nvidia': cannot load the device plugin ({}: libcuda.so.1: cannot open shared object file",
            plugin.display()
        ))),
        "{}",
        r.stderr
    );

    // The host device type: no plugin is looked for.
    let r = exec(
        &exe,
        "malloc",
        &[("ACC_DEVICE_TYPE", "host"), ("PTXRT_DEBUG", "1")],
    );
    assert!(r.ok(), "{}", r.stderr);
    assert_eq!(
        r.stderr,
        "ptxrt: constructs run on the host: the device type is host\n"
    );
}
