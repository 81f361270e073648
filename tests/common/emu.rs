//! The emulated device in the tests: a program built with `accc -gpu=emu`
//! is run on `libptxrt-emu.so` (`PTXRT_PLUGIN=… ACC_DEVICE_TYPE=nvidia`,
//! races stop it) and checked as `scripts/gpu-bundle.sh`'s `run.sh` checks
//! a GPU run: its exit status, its stdout against the expected output
//! (the oracle's, or the program's `// gpu-stdout:` lines) within the
//! tolerance, a program that must fail against its `// gpu-expect-fail:`
//! regex (an extended regex, matched by `grep -E`), and at least one kernel
//! launch unless the program runs on the host (`ACC_DEVICE_TYPE=host` in
//! its `// env:`).
#![allow(dead_code)] // each test crate uses its own subset

use super::{accc_bin, compare_outputs, run, tail, Run, Tolerance, RUN_TIMEOUT};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The emulated device plugin next to accc (cargo's name for the cdylib).
pub fn plugin() -> Result<PathBuf, String> {
    let dir = accc_bin()
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default();
    for name in ["libptxrt_emu.so", "libptxrt-emu.so"] {
        let p = dir.join(name);
        if p.is_file() {
            return Ok(p);
        }
    }
    Err(format!(
        "the emulated device plugin libptxrt_emu.so is not in {} (build the workspace: cargo build --workspace)",
        dir.display()
    ))
}

/// `exe` as a command for the emulated device (`PTXRT_PLUGIN` the
/// emulator, `ACC_DEVICE_TYPE=nvidia`), with none of the variables `clear`
/// inherited from the test's environment.
pub fn command(exe: &Path, clear: &[&str]) -> Command {
    let mut cmd = Command::new(exe);
    for v in clear {
        cmd.env_remove(v);
    }
    let plugin = plugin().unwrap_or_else(|e| panic!("{e}"));
    cmd.env("PTXRT_PLUGIN", plugin)
        .env("ACC_DEVICE_TYPE", "nvidia");
    cmd
}

/// Builds `src` (a path, or a name relative to `dir`) with
/// `accc -O2 -gpu=emu` and `extra`, run in `dir`, into `dir`/`exe`; panics
/// with accc's messages when that fails.
pub fn build(dir: &Path, src: &Path, exe: &str, extra: &[&str]) -> PathBuf {
    let out = dir.join(exe);
    let mut cmd = Command::new(accc_bin());
    cmd.current_dir(dir)
        .args(["-O2", "-gpu=emu"])
        .arg(src)
        .arg("-o")
        .arg(&out)
        .args(extra);
    let r = run(cmd, dir, "accc", super::COMPILE_TIMEOUT);
    assert!(r.ok(), "accc {}: {}", src.display(), r.stderr);
    out
}

/// What a run on the emulated device must give.
pub struct Expect<'a> {
    /// The exit status.
    pub status: i32,
    pub stdout: &'a str,
    pub tol: Tolerance,
    /// A program that must fail: an extended regex a stderr line matches.
    pub stderr_re: Option<&'a str>,
    /// The program runs on the host (no launches expected).
    pub on_host: bool,
}

/// Runs `exe` on the emulated device with the program's environment `env`
/// (applied after `ACC_DEVICE_TYPE=nvidia`, so a program may ask for the
/// host) and `PTXRT_NOTIFY=1` (launches are counted).
pub fn run_on_emulator(
    exe: &Path,
    env: &[(String, String)],
    dir: &Path,
    tag: &str,
) -> Result<Run, String> {
    let mut cmd = Command::new(exe);
    cmd.env_remove("ACC_DEVICE_NUM")
        .env_remove("PTXRT_EMU_RACECHECK")
        .env("PTXRT_PLUGIN", plugin()?)
        .env("ACC_DEVICE_TYPE", "nvidia")
        .env("PTXRT_NOTIFY", "1");
    for (k, v) in env {
        cmd.env(k, v);
    }
    Ok(run(cmd, dir, &format!("{tag}.emu-run"), RUN_TIMEOUT))
}

/// Kernel launches in a run's stderr (`PTXRT_NOTIFY` lines).
pub fn launches(r: &Run) -> usize {
    r.stderr
        .lines()
        .filter(|l| l.starts_with("ptxrt: launch"))
        .count()
}

/// Whether a line of `stderr` matches the extended regex `re` (`grep -E`).
pub fn stderr_matches(re: &str, stderr: &str, dir: &Path) -> bool {
    let file = dir.join("emu-expect.stderr");
    if std::fs::write(&file, stderr).is_err() {
        return false;
    }
    Command::new("grep")
        .arg("-Eq")
        .arg("--")
        .arg(re)
        .arg(&file)
        .status()
        .is_ok_and(|s| s.success())
}

/// Checks run `r` against `want`; the error says what differs, with the
/// tails of stdout and stderr (stderr without the launch lines).
pub fn check(r: &Run, want: &Expect, dir: &Path) -> Result<(), String> {
    let mut problems = vec![];
    let status = r.status.and_then(|s| s.code());
    if r.timed_out || status != Some(want.status) {
        problems.push(format!(
            "exit status {} (expected {})",
            r.describe_status(),
            want.status
        ));
    }
    if let Some(re) = want.stderr_re {
        if !stderr_matches(re, &r.stderr, dir) {
            problems.push(format!("stderr does not match `{re}`"));
        }
    } else if !want.on_host && launches(r) == 0 {
        problems.push("no kernel launches (did it run on the host?)".to_string());
    }
    if let Err(e) = compare_outputs(want.stdout, &r.stdout, want.tol) {
        problems.push(format!("output differs: {e}"));
    }
    if problems.is_empty() {
        return Ok(());
    }
    let stderr: String = r
        .stderr
        .lines()
        .filter(|l| !l.starts_with("ptxrt: "))
        .map(|l| format!("{l}\n"))
        .collect();
    Err(format!(
        "on the emulated device: {}\nexpected stdout:\n{}\nactual stdout:\n{}\nstderr:\n{}",
        problems.join("; "),
        tail(want.stdout, 1500),
        tail(&r.stdout, 1500),
        tail(&stderr, 2500)
    ))
}
