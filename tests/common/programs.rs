//! The steps of a `tests/programs` check that `programs.rs` and
//! `multicore.rs` share: the program's sources and header settings, the
//! oracle (plain cc), accc's build with given flags, and the run compared
//! with the oracle.
#![allow(dead_code)] // each test crate uses its own subset

use super::{
    accc, compare_outputs, header_values, host_cc, panicked, run, tail, tests_dir, tolerance, Run,
    Tolerance, COMPILE_TIMEOUT, RUN_TIMEOUT,
};
use std::ffi::OsStr;
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// `*.c` files of a tests subfolder, sorted.
pub fn sources(sub: &str) -> Vec<PathBuf> {
    let dir = tests_dir().join(sub);
    let mut v: Vec<PathBuf> = fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension() == Some(OsStr::new("c")))
        .collect();
    v.sort();
    assert!(!v.is_empty(), "no test sources in {}", dir.display());
    v
}

pub fn stem(p: &Path) -> String {
    p.file_stem().unwrap().to_string_lossy().into_owned()
}

/// The `// env: NAME=VALUE` settings of a test source.
pub fn env_settings(src: &str) -> Result<Vec<(String, String)>, String> {
    header_values(src, "env")
        .into_iter()
        .map(
            |v| match v.split_once('=').map(|(k, val)| (k.trim(), val.trim())) {
                Some((k, val)) if !k.is_empty() && !k.contains(char::is_whitespace) => {
                    Ok((k.to_string(), val.to_string()))
                }
                _ => Err(format!("bad `// env:` value `{v}` (want NAME=VALUE)")),
            },
        )
        .collect()
}

/// The `// flags:` values of a test source, split at whitespace; each must
/// be a flag (start with `-`).
pub fn flag_values(src: &str) -> Result<Vec<String>, String> {
    let flags: Vec<String> = header_values(src, "flags")
        .iter()
        .flat_map(|v| v.split_whitespace().map(String::from))
        .collect();
    match flags.iter().find(|f| !f.starts_with('-')) {
        Some(f) => Err(format!(
            "bad `// flags:` value `{f}` (want flags: -gpu=fastmath …)"
        )),
        None => Ok(flags),
    }
}

/// A command for a test program: no forced device type, then the program's
/// `// env:` settings.
pub fn program_cmd(exe: &Path, env: &[(String, String)]) -> Command {
    let mut cmd = Command::new(exe);
    cmd.env_remove("ACC_DEVICE_TYPE")
        .env_remove("ACC_DEVICE_NUM");
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd
}

/// Builds `srcs` with plain cc (pragmas ignored) and runs the result: the oracle.
pub fn oracle(
    srcs: &[PathBuf],
    env: &[(String, String)],
    dir: &Path,
    tag: &str,
) -> Result<Run, String> {
    let exe = dir.join(format!("{tag}.cc"));
    let mut cc = Command::new(host_cc());
    cc.args(["-O1", "-w"]);
    let uses_openacc_h = srcs
        .iter()
        .any(|p| fs::read_to_string(p).is_ok_and(|s| s.contains("<openacc.h>")));
    if uses_openacc_h {
        cc.args(["-fopenacc", "-foffload=disable"]);
    }
    cc.args(srcs).arg("-o").arg(&exe).arg("-lm");
    let built = run(cc, dir, &format!("{tag}.cc-build"), COMPILE_TIMEOUT);
    if !built.ok() {
        return Err(format!(
            "oracle build with `{}` failed ({}):\n{}",
            host_cc(),
            built.describe_status(),
            tail(&built.stderr, 3000)
        ));
    }
    let ran = run(
        program_cmd(&exe, env),
        dir,
        &format!("{tag}.cc-run"),
        RUN_TIMEOUT,
    );
    if !ran.ok() || !ran.stdout.lines().any(|l| l.trim() == "PASS") {
        return Err(format!(
            "the oracle (plain cc build) does not pass ({}): the test program is wrong\n{}",
            ran.describe_status(),
            tail(&ran.stdout, 2000)
        ));
    }
    Ok(ran)
}

/// Runs the accc-built `exe` (no forced device type, the program's `env`)
/// and compares with the oracle; without an oracle, it must exit 0 with a
/// `PASS` line.
pub fn run_and_compare(
    exe: &Path,
    want: Option<&Run>,
    env: &[(String, String)],
    tol: Tolerance,
    dir: &Path,
    tag: &str,
) -> Result<(), String> {
    let got = run(
        program_cmd(exe, env),
        dir,
        &format!("{tag}.accc-run"),
        RUN_TIMEOUT,
    );
    let Some(want) = want else {
        if got.ok() && got.stdout.lines().any(|l| l.trim() == "PASS") {
            return Ok(());
        }
        return Err(format!(
            "a program without oracle must exit 0 with a PASS line; it exited with {}\nstdout:\n{}\nstderr:\n{}",
            got.describe_status(),
            tail(&got.stdout, 1500),
            tail(&got.stderr, 2000)
        ));
    };
    let mut problems = Vec::new();
    if got.status.and_then(|s| s.code()) != want.status.and_then(|s| s.code()) {
        problems.push(format!(
            "exit status {} (the oracle: {})",
            got.describe_status(),
            want.describe_status()
        ));
    }
    if let Err(e) = compare_outputs(&want.stdout, &got.stdout, tol) {
        problems.push(format!("output differs: {e}"));
    }
    if problems.is_empty() {
        return Ok(());
    }
    let mut msg = problems.join("; ");
    let _ = write!(
        msg,
        "\nexpected stdout:\n{}\nactual stdout:\n{}\nstderr:\n{}",
        tail(&want.stdout, 1500),
        tail(&got.stdout, 1500),
        tail(&got.stderr, 2000)
    );
    Err(msg)
}

/// Runs accc with `args` in `dir`; an error with its stderr unless it
/// succeeded without a panic.
pub fn accc_step(args: &[&OsStr], dir: &Path, tag: &str) -> Result<(), String> {
    let mut cmd = accc();
    cmd.args(args);
    let built = run(cmd, dir, tag, COMPILE_TIMEOUT);
    if !built.ok() || panicked(&built.stderr) {
        return Err(format!(
            "accc failed ({}):\n{}",
            built.describe_status(),
            tail(&built.stderr, 3000)
        ));
    }
    Ok(())
}

/// The single-file programs and the program folders of `tests/programs`.
pub fn programs_list() -> Vec<PathBuf> {
    let mut v = sources("programs");
    let dir = tests_dir().join("programs");
    if let Ok(entries) = fs::read_dir(&dir) {
        v.extend(
            entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.is_dir()),
        );
    }
    v.sort();
    v
}

/// Builds program `src` (its sources `files`) with accc and `flags` in
/// `dir`: a file in one step, a folder's files each with `-c`, then
/// linked. The executable.
pub fn build(
    src: &Path,
    files: &[PathBuf],
    flags: &[&str],
    dir: &Path,
    name: &str,
) -> Result<PathBuf, String> {
    let exe = dir.join(format!("{name}.accc"));
    let flags: Vec<&OsStr> = flags.iter().map(OsStr::new).collect();
    if src.is_dir() {
        let mut objects = vec![];
        for (i, f) in files.iter().enumerate() {
            let obj = dir.join(format!("{name}.{i}.o"));
            let mut a = flags.clone();
            a.extend([
                OsStr::new("-c"),
                f.as_os_str(),
                OsStr::new("-o"),
                obj.as_os_str(),
            ]);
            accc_step(&a, dir, &format!("{name}.{i}.accc-compile"))?;
            objects.push(obj);
        }
        let mut link: Vec<&OsStr> = objects.iter().map(|o| o.as_os_str()).collect();
        link.extend([OsStr::new("-o"), exe.as_os_str(), OsStr::new("-lm")]);
        accc_step(&link, dir, &format!("{name}.accc-link"))?;
    } else {
        let mut a = flags.clone();
        a.extend([
            src.as_os_str(),
            OsStr::new("-o"),
            exe.as_os_str(),
            OsStr::new("-lm"),
        ]);
        accc_step(&a, dir, &format!("{name}.accc-build"))?;
    }
    if !exe.exists() {
        return Err("accc exited successfully but wrote no executable".to_string());
    }
    Ok(exe)
}

/// The source files of program `src`: itself, or a folder's `.c` files.
pub fn program_files(src: &Path) -> Vec<PathBuf> {
    if src.is_dir() {
        sources(&format!("programs/{}", stem(src)))
    } else {
        vec![src.to_path_buf()]
    }
}

/// What the header lines of a program's files say (tests/README.md).
pub struct Headers {
    /// The largest `// tolerance:`.
    pub tol: Tolerance,
    /// A `// gpu-expect-fail:` line: the program must fail on the GPU.
    pub gpu_only: bool,
    /// `// oracle: none`.
    pub no_oracle: bool,
    /// The `// env:` settings.
    pub env: Vec<(String, String)>,
    /// The `// gpu-stdout:` lines.
    pub gpu_stdout: Vec<String>,
    /// The first `// gpu-expect-fail:` regex.
    pub expect_fail: Option<String>,
    /// The `// flags:` values, split at whitespace: accc's extra flags
    /// (after the harness's own) for every accc build of the program.
    pub flags: Vec<String>,
}

/// The headers of `files`, together.
pub fn headers(files: &[PathBuf]) -> Result<Headers, String> {
    let mut h = Headers {
        tol: Tolerance::EXACT,
        gpu_only: false,
        no_oracle: false,
        env: vec![],
        gpu_stdout: vec![],
        expect_fail: None,
        flags: vec![],
    };
    for f in files {
        let text = fs::read_to_string(f).map_err(|e| format!("cannot read: {e}"))?;
        let t = tolerance(&text)?;
        h.tol = Tolerance {
            short: h.tol.short.max(t.short),
            long: h.tol.long.max(t.long),
        };
        h.gpu_only |= !header_values(&text, "gpu-expect-fail").is_empty();
        h.gpu_stdout.extend(header_values(&text, "gpu-stdout"));
        h.expect_fail = h
            .expect_fail
            .or(header_values(&text, "gpu-expect-fail").into_iter().next());
        h.no_oracle |= header_values(&text, "oracle").iter().any(|v| v == "none");
        h.env.extend(env_settings(&text)?);
        h.flags.extend(flag_values(&text)?);
    }
    Ok(h)
}
