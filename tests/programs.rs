//! Integration tests of the `accc` binary (see tests/README.md).
//!
//! * `programs`: every `tests/programs/*.c` is built twice, by plain `cc` (pragmas
//!   ignored: the oracle) and by `accc -O2`, both are run, and their outputs must match
//!   token by token (floating tokens within the file's `// tolerance:`). Without a GPU
//!   the accc build runs through the host fallback. `// env: NAME=VALUE` lines set
//!   environment variables for both runs; a program with `// oracle: none` (it uses
//!   routines GCC's libgomp lacks) has no oracle: its accc build must exit 0 with a
//!   `PASS` line.
//! * `errors`: every `tests/errors/*.c` must be rejected with the diagnostics its
//!   `// expect-error-at:` and `// expect-error:` lines name, without a panic and
//!   without writing the output file.
//! * `cli_*`: driver behaviour (missing input, separate compilation, `--emit`).
//!
//! When ptxas is installed in `.tools/pip` (scripts/setup.sh) or `CI` is set, accc runs
//! with `ACCC_REQUIRE_PTXAS=1`, so every PTX it produces here is assembled.
//! `ACCC_TEST_BIN` replaces the compiler under test (e.g. an installed accc).

use std::ffi::OsStr;
use std::fmt::Write as _;
use std::fs::{self, File};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How long one compile may take.
const COMPILE_TIMEOUT: Duration = Duration::from_secs(300);
/// How long one test program may run.
const RUN_TIMEOUT: Duration = Duration::from_secs(120);

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn tests_dir() -> PathBuf {
    root().join("tests")
}

/// The compiler under test.
fn accc_bin() -> PathBuf {
    match std::env::var_os("ACCC_TEST_BIN") {
        Some(p) => PathBuf::from(p),
        None => PathBuf::from(env!("CARGO_BIN_EXE_accc")),
    }
}

fn ptxas_path() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("ACCC_PTXAS") {
        return Some(PathBuf::from(p));
    }
    let p = root().join(".tools/pip/nvidia/cu13/bin/ptxas");
    p.exists().then_some(p)
}

fn require_ptxas() -> bool {
    ptxas_path().is_some() || std::env::var_os("CI").is_some()
}

/// A command running accc with the test environment: no forced device type, and
/// ptxas required when it is installed.
fn accc() -> Command {
    let mut cmd = Command::new(accc_bin());
    cmd.env_remove("ACC_DEVICE_TYPE");
    if require_ptxas() {
        cmd.env("ACCC_REQUIRE_PTXAS", "1");
    }
    cmd
}

fn host_cc() -> String {
    std::env::var("ACCC_HOST_CC").unwrap_or_else(|_| "cc".to_string())
}

/// The result of running a command to completion (or to its timeout).
struct Run {
    status: Option<ExitStatus>,
    stdout: String,
    stderr: String,
    timed_out: bool,
}

impl Run {
    fn ok(&self) -> bool {
        self.status.is_some_and(|s| s.success())
    }

    fn describe_status(&self) -> String {
        match (self.timed_out, self.status) {
            (true, _) => "timed out".to_string(),
            (false, Some(s)) => s.to_string(),
            (false, None) => "did not start".to_string(),
        }
    }
}

/// Runs `cmd` with stdout and stderr going to files in `dir` (named after `tag`), so a
/// chatty child never blocks on a pipe; kills it after `timeout`.
fn run(mut cmd: Command, dir: &Path, tag: &str, timeout: Duration) -> Run {
    let out_path = dir.join(format!("{tag}.stdout"));
    let err_path = dir.join(format!("{tag}.stderr"));
    let spawned = File::create(&out_path).and_then(|out| {
        let err = File::create(&err_path)?;
        cmd.stdin(Stdio::null())
            .stdout(Stdio::from(out))
            .stderr(Stdio::from(err))
            .spawn()
    });
    let mut child = match spawned {
        Ok(c) => c,
        Err(e) => {
            return Run {
                status: None,
                stdout: String::new(),
                stderr: format!("cannot run {cmd:?}: {e}"),
                timed_out: false,
            }
        }
    };
    let start = Instant::now();
    let mut timed_out = false;
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break Some(s),
            Ok(None) if start.elapsed() > timeout => {
                let _ = child.kill();
                timed_out = true;
                break child.wait().ok();
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(10)),
            Err(_) => break None,
        }
    };
    let read = |p: &Path| String::from_utf8_lossy(&fs::read(p).unwrap_or_default()).into_owned();
    Run {
        status,
        stdout: read(&out_path),
        stderr: read(&err_path),
        timed_out,
    }
}

/// Values of the header lines `// <key>: value` of a test source.
fn header_values(src: &str, key: &str) -> Vec<String> {
    let prefix = format!("// {key}:");
    src.lines()
        .filter_map(|l| l.trim().strip_prefix(prefix.as_str()))
        .map(|v| v.trim().to_string())
        .collect()
}

/// Relative tolerance for floating tokens, from `// tolerance: X` (default 0: exact).
fn tolerance(src: &str) -> Result<f64, String> {
    match header_values(src, "tolerance").first() {
        None => Ok(0.0),
        Some(v) => v
            .parse::<f64>()
            .ok()
            .filter(|t| *t >= 0.0)
            .ok_or_else(|| format!("bad `// tolerance:` value `{v}`")),
    }
}

/// A floating token: parses as f64 and is spelled like a float, not an integer.
fn as_float(tok: &str) -> Option<f64> {
    let looks_float = tok.contains(['.', 'e', 'E'])
        || tok.to_ascii_lowercase().contains("inf")
        || tok.to_ascii_lowercase().contains("nan");
    if looks_float {
        tok.parse::<f64>().ok()
    } else {
        None
    }
}

fn tokens_match(want: &str, got: &str, tol: f64) -> bool {
    if want == got {
        return true;
    }
    match (as_float(want), as_float(got)) {
        (Some(w), Some(g)) if tol > 0.0 => {
            if w.is_nan() || g.is_nan() {
                return w.is_nan() && g.is_nan();
            }
            (w - g).abs() <= tol * w.abs().max(g.abs())
        }
        _ => false,
    }
}

/// Compares two program outputs token by token; floating tokens may differ by the
/// relative tolerance `tol`, every other token must be equal. Err says where they differ.
fn compare_outputs(want: &str, got: &str, tol: f64) -> Result<(), String> {
    let toks = |s: &str| -> Vec<(usize, String)> {
        s.lines()
            .enumerate()
            .flat_map(|(n, l)| l.split_whitespace().map(move |t| (n + 1, t.to_string())))
            .collect()
    };
    let (w, g) = (toks(want), toks(got));
    for (i, ((wl, wt), (gl, gt))) in w.iter().zip(g.iter()).enumerate() {
        if !tokens_match(wt, gt, tol) {
            return Err(format!(
                "token {} differs: expected `{wt}` (line {wl}), got `{gt}` (line {gl}), tolerance {tol}",
                i + 1
            ));
        }
    }
    if w.len() != g.len() {
        return Err(format!("expected {} tokens, got {}", w.len(), g.len()));
    }
    Ok(())
}

/// The last `max` bytes of `s` (whole lines where possible), for failure reports.
fn tail(s: &str, max: usize) -> String {
    if s.len() <= max {
        return s.to_string();
    }
    let mut start = s.len() - max;
    while !s.is_char_boundary(start) {
        start += 1;
    }
    let cut = &s[start..];
    let cut = cut.find('\n').map_or(cut, |i| &cut[i + 1..]);
    format!("[...]\n{cut}")
}

fn panicked(stderr: &str) -> bool {
    stderr.contains("panicked") || stderr.contains("RUST_BACKTRACE")
}

/// `*.c` files of a tests subfolder, sorted.
fn sources(sub: &str) -> Vec<PathBuf> {
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

fn stem(p: &Path) -> String {
    p.file_stem().unwrap().to_string_lossy().into_owned()
}

/// Runs `check` on every item on a few threads; collects every failure message and
/// panics with all of them at the end.
fn check_all<T: Sync>(
    what: &str,
    items: &[T],
    name: impl Fn(&T) -> String + Sync,
    check: impl Fn(&T) -> Result<(), String> + Sync,
) {
    let next = Mutex::new(0usize);
    let failures = Mutex::new(Vec::new());
    let workers = std::thread::available_parallelism()
        .map_or(4, |n| n.get())
        .clamp(1, 8);
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| loop {
                let i = {
                    let mut n = next.lock().unwrap();
                    *n += 1;
                    *n - 1
                };
                let Some(item) = items.get(i) else { break };
                match check(item) {
                    Ok(()) => eprintln!("ok   {what} {}", name(item)),
                    Err(msg) => {
                        eprintln!("FAIL {what} {}", name(item));
                        failures
                            .lock()
                            .unwrap()
                            .push(format!("--- {what} {}: {msg}", name(item)));
                    }
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    if !failures.is_empty() {
        panic!(
            "{} of {} {what} tests failed:\n{}",
            failures.len(),
            items.len(),
            failures.join("\n\n")
        );
    }
}

/// The `// env: NAME=VALUE` settings of a test source.
fn env_settings(src: &str) -> Result<Vec<(String, String)>, String> {
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

/// A command for a test program: no forced device type, then the program's
/// `// env:` settings.
fn program_cmd(exe: &Path, env: &[(String, String)]) -> Command {
    let mut cmd = Command::new(exe);
    cmd.env_remove("ACC_DEVICE_TYPE")
        .env_remove("ACC_DEVICE_NUM");
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd
}

/// Builds `srcs` with plain cc (pragmas ignored) and runs the result: the oracle.
fn oracle(
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
fn run_and_compare(
    exe: &Path,
    want: Option<&Run>,
    env: &[(String, String)],
    tol: f64,
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
fn accc_step(args: &[&OsStr], dir: &Path, tag: &str) -> Result<(), String> {
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

/// A test program: one `.c` file, or a folder whose `.c` files make one
/// program (each compiled with `accc -c`, then linked by accc).
fn check_program(src: &Path) -> Result<(), String> {
    let tmp = tempfile::tempdir().map_err(|e| e.to_string())?;
    let dir = tmp.path();
    let name = stem(src);
    let files = if src.is_dir() {
        sources(&format!("programs/{name}"))
    } else {
        vec![src.to_path_buf()]
    };
    let mut tol = 0.0f64;
    let mut gpu_only = false;
    let mut no_oracle = false;
    let mut env = vec![];
    for f in &files {
        let text = fs::read_to_string(f).map_err(|e| format!("cannot read: {e}"))?;
        tol = tol.max(tolerance(&text)?);
        gpu_only |= !header_values(&text, "gpu-expect-fail").is_empty();
        no_oracle |= header_values(&text, "oracle").iter().any(|v| v == "none");
        env.extend(env_settings(&text)?);
    }
    // A program that must fail on the GPU (data not present, …) only
    // compiles here: in host mode there is nothing to fail.
    let want = if gpu_only || no_oracle {
        None
    } else {
        Some(oracle(&files, &env, dir, &name)?)
    };

    let exe = dir.join(format!("{name}.accc"));
    if src.is_dir() {
        let mut objects = vec![];
        for (i, f) in files.iter().enumerate() {
            let obj = dir.join(format!("{name}.{i}.o"));
            accc_step(
                &[
                    OsStr::new("-O2"),
                    OsStr::new("-c"),
                    f.as_os_str(),
                    OsStr::new("-o"),
                    obj.as_os_str(),
                ],
                dir,
                &format!("{name}.{i}.accc-compile"),
            )?;
            objects.push(obj);
        }
        let mut link: Vec<&OsStr> = objects.iter().map(|o| o.as_os_str()).collect();
        link.extend([OsStr::new("-o"), exe.as_os_str(), OsStr::new("-lm")]);
        accc_step(&link, dir, &format!("{name}.accc-link"))?;
    } else {
        accc_step(
            &[
                OsStr::new("-O2"),
                src.as_os_str(),
                OsStr::new("-o"),
                exe.as_os_str(),
                OsStr::new("-lm"),
            ],
            dir,
            &format!("{name}.accc-build"),
        )?;
    }
    if !exe.exists() {
        return Err("accc exited successfully but wrote no executable".to_string());
    }
    if gpu_only {
        return Ok(());
    }
    run_and_compare(&exe, want.as_ref(), &env, tol, dir, &name)
}

/// The single-file programs and the program folders of `tests/programs`.
fn programs_list() -> Vec<PathBuf> {
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
    if let Err(e) = run_and_compare(&exe, Some(&want), &[], 0.0, dir, "separate") {
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

/// `--emit=ir` and `--emit=llvm` print to stdout when there is no `-o`.
#[test]
fn cli_emit_ir_and_llvm_to_stdout() {
    let tmp = tempfile::tempdir().unwrap();
    for (emit, needle) in [("ir", "kernel"), ("llvm", "nvptx64")] {
        let mut cmd = accc();
        cmd.current_dir(tmp.path());
        cmd.arg(format!("--emit={emit}"))
            .arg(tests_dir().join("programs/vecadd_int.c"));
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

#[test]
fn harness_compare_outputs() {
    assert!(compare_outputs("a 1\nPASS\n", "a 1\nPASS\n", 0.0).is_ok());
    assert!(
        compare_outputs("a 1\n", "a 2\n", 0.5).is_err(),
        "integers are exact"
    );
    assert!(compare_outputs("x 1.000000e+00\n", "x 1.000001e+00\n", 0.0).is_err());
    assert!(compare_outputs("x 1.000000e+00\n", "x 1.000001e+00\n", 1e-5).is_ok());
    assert!(compare_outputs("x 1.000000e+00\n", "x 1.100000e+00\n", 1e-5).is_err());
    assert!(compare_outputs("x -2.5\n", "x 2.5\n", 1e-3).is_err());
    assert!(compare_outputs("PASS\n", "PASS\nextra\n", 0.0).is_err());
    assert!(compare_outputs("PASS\nmore\n", "PASS\n", 0.0).is_err());
    assert!(compare_outputs("PASS\n", "FAIL\n", 1.0).is_err());
    assert!(compare_outputs("nan\n", "nan\n", 1e-6).is_ok());
    assert!(
        compare_outputs("a  b\n", "a b\n", 0.0).is_ok(),
        "tokens, not spacing"
    );
}

#[test]
fn harness_headers() {
    let src = "// tolerance: 1e-9\n// expect-error: foo bar\n// expect-error: baz\nint x;\n";
    assert_eq!(tolerance(src), Ok(1e-9));
    assert_eq!(tolerance("int x;\n"), Ok(0.0));
    assert!(tolerance("// tolerance: lots\n").is_err());
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
