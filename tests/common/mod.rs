//! Helpers shared by the integration tests that build and run C programs
//! (`programs.rs`, `difftest/`): locating and running accc and the host compiler
//! with timeouts, header lines, and the token-wise output comparison with a
//! floating tolerance; `emu.rs`: runs on the emulated device; `programs.rs`:
//! the steps of a `tests/programs` check.
#![allow(dead_code)] // each test crate uses its own subset

pub mod emu;
pub mod programs;

use std::fs::{self, File};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How long one compile may take.
pub const COMPILE_TIMEOUT: Duration = Duration::from_secs(300);
/// How long one test program may run.
pub const RUN_TIMEOUT: Duration = Duration::from_secs(120);

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub fn tests_dir() -> PathBuf {
    root().join("tests")
}

/// The compiler under test.
pub fn accc_bin() -> PathBuf {
    match std::env::var_os("ACCC_TEST_BIN") {
        Some(p) => PathBuf::from(p),
        None => PathBuf::from(env!("CARGO_BIN_EXE_accc")),
    }
}

pub fn ptxas_path() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("ACCC_PTXAS") {
        return Some(PathBuf::from(p));
    }
    let p = root().join(".tools/pip/nvidia/cu13/bin/ptxas");
    p.exists().then_some(p)
}

pub fn require_ptxas() -> bool {
    ptxas_path().is_some() || std::env::var_os("CI").is_some()
}

/// A command running accc with the test environment: no forced device type, and
/// ptxas required when it is installed.
/// Runs `cmd` (accc, usually) to completion; it must succeed. Its stdout.
pub fn stdout_of(cmd: &mut Command) -> String {
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

pub fn accc() -> Command {
    let mut cmd = Command::new(accc_bin());
    cmd.env_remove("ACC_DEVICE_TYPE");
    if require_ptxas() {
        cmd.env("ACCC_REQUIRE_PTXAS", "1");
    }
    cmd
}

pub fn host_cc() -> String {
    std::env::var("ACCC_HOST_CC").unwrap_or_else(|_| "cc".to_string())
}

/// The result of running a command to completion (or to its timeout).
pub struct Run {
    pub status: Option<ExitStatus>,
    pub stdout: String,
    pub stderr: String,
    pub timed_out: bool,
}

impl Run {
    pub fn ok(&self) -> bool {
        self.status.is_some_and(|s| s.success())
    }

    pub fn describe_status(&self) -> String {
        match (self.timed_out, self.status) {
            (true, _) => "timed out".to_string(),
            (false, Some(s)) => s.to_string(),
            (false, None) => "did not start".to_string(),
        }
    }
}

/// Runs `cmd` with stdout and stderr going to files in `dir` (named after `tag`), so a
/// chatty child never blocks on a pipe; kills it after `timeout`.
pub fn run(mut cmd: Command, dir: &Path, tag: &str, timeout: Duration) -> Run {
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
pub fn header_values(src: &str, key: &str) -> Vec<String> {
    let prefix = format!("// {key}:");
    src.lines()
        .filter_map(|l| l.trim().strip_prefix(prefix.as_str()))
        .map(|v| v.trim().to_string())
        .collect()
}

/// Relative tolerances for floating tokens (spelled with `.`, `e`, `inf` or `nan`):
/// `short` for tokens with at most 9 significant digits (`%.6e` prints 7), `long`
/// for longer ones (`%.15e` prints 16), so one program can hold floats compared to
/// 1e-5 and doubles compared to 1e-9. Zero: exact.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tolerance {
    pub short: f64,
    pub long: f64,
}

impl Tolerance {
    pub const EXACT: Tolerance = Tolerance {
        short: 0.0,
        long: 0.0,
    };

    /// `A` (every floating token) or `A B` (short tokens, long tokens).
    pub fn parse(v: &str) -> Result<Tolerance, String> {
        let bad = || format!("bad `// tolerance:` value `{v}`");
        let vals: Vec<f64> = v
            .split_whitespace()
            .map(|t| t.parse::<f64>().ok().filter(|x| *x >= 0.0))
            .collect::<Option<_>>()
            .ok_or_else(bad)?;
        match vals[..] {
            [a] => Ok(Tolerance { short: a, long: a }),
            [a, b] => Ok(Tolerance { short: a, long: b }),
            _ => Err(bad()),
        }
    }

    /// The tolerance for a floating token.
    fn for_token(&self, tok: &str) -> f64 {
        let mantissa = tok.split(['e', 'E']).next().unwrap_or("");
        let digits = mantissa.chars().filter(|c| c.is_ascii_digit()).count();
        if digits > 9 {
            self.long
        } else {
            self.short
        }
    }
}

impl std::fmt::Display for Tolerance {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.short == self.long {
            write!(f, "{:e}", self.short)
        } else {
            write!(f, "{:e} (long tokens {:e})", self.short, self.long)
        }
    }
}

/// The tolerance from `// tolerance: A [B]` (default: exact).
pub fn tolerance(src: &str) -> Result<Tolerance, String> {
    match header_values(src, "tolerance").first() {
        None => Ok(Tolerance::EXACT),
        Some(v) => Tolerance::parse(v),
    }
}

/// A floating token: parses as f64 and is spelled like a float, not an integer.
pub fn as_float(tok: &str) -> Option<f64> {
    let looks_float = tok.contains(['.', 'e', 'E'])
        || tok.to_ascii_lowercase().contains("inf")
        || tok.to_ascii_lowercase().contains("nan");
    if looks_float {
        tok.parse::<f64>().ok()
    } else {
        None
    }
}

pub fn tokens_match(want: &str, got: &str, tol: Tolerance) -> bool {
    if want == got {
        return true;
    }
    let t = tol.for_token(want).max(tol.for_token(got));
    match (as_float(want), as_float(got)) {
        (Some(w), Some(g)) if t > 0.0 => {
            if w.is_nan() || g.is_nan() {
                return w.is_nan() && g.is_nan();
            }
            (w - g).abs() <= t * w.abs().max(g.abs())
        }
        _ => false,
    }
}

/// Compares two program outputs token by token; floating tokens may differ by the
/// relative tolerance `tol`, every other token must be equal. Err says where they differ.
pub fn compare_outputs(want: &str, got: &str, tol: Tolerance) -> Result<(), String> {
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
pub fn tail(s: &str, max: usize) -> String {
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

pub fn panicked(stderr: &str) -> bool {
    stderr.contains("panicked") || stderr.contains("RUST_BACKTRACE")
}

/// Runs `check` on every item on a few threads; collects every failure message and
/// panics with all of them at the end.
pub fn check_all<T: Sync>(
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

/// The golden-file step of the text tests (snapshots, pass tests): with
/// `bless`, write `got` to `expected` (creating its folder); otherwise
/// `got` must equal the file's text. `what` names the output in messages.
pub fn check_golden(expected: &Path, got: &str, bless: bool, what: &str) -> Result<(), String> {
    if bless {
        return expected
            .parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .and_then(|()| std::fs::write(expected, got))
            .map_err(|e| format!("cannot write {}: {e}", expected.display()));
    }
    match std::fs::read_to_string(expected) {
        Ok(text) if text == got => Ok(()),
        Ok(text) => Err(format!(
            "{what} differs from {} (BLESS=1 to update)\n--- expected\n{text}\n--- got\n{got}",
            expected.display()
        )),
        Err(_) => Err(format!(
            "{what}: no {} (run with BLESS=1)",
            expected.display()
        )),
    }
}

/// The source lines PTX `ptx` locates code at in the file whose name ends
/// with `file` (its `.file N "…file"` and `.loc N line col` directives);
/// `None` when no `.file` names it.
pub fn ptx_loc_lines(ptx: &str, file: &str) -> Option<std::collections::BTreeSet<u32>> {
    let quoted = format!("{file}\"");
    let index = ptx
        .lines()
        .filter_map(|l| l.trim().strip_prefix(".file"))
        .find(|l| l.trim_end().ends_with(&quoted))
        .and_then(|l| l.split_whitespace().next())?
        .to_string();
    Some(
        ptx.lines()
            .filter_map(|l| l.trim().strip_prefix(".loc"))
            .filter_map(|l| {
                let mut w = l.split_whitespace();
                (w.next() == Some(index.as_str())).then(|| w.next()?.parse().ok())?
            })
            .collect(),
    )
}

/// Runs accc with `args` in `dir`; it must succeed, with no panic.
pub fn accc_ok(dir: &Path, args: &[&str]) -> Run {
    let mut cmd = accc();
    cmd.current_dir(dir).args(args);
    let r = run(cmd, dir, "accc", COMPILE_TIMEOUT);
    assert!(!panicked(&r.stderr), "accc panicked:\n{}", r.stderr);
    assert!(
        r.ok(),
        "accc {args:?}: {}\n{}",
        r.describe_status(),
        r.stderr
    );
    r
}

/// Builds the C file `src` with the host compiler as the shared library
/// `dir`/`name` (`extra`: more flags, e.g. include folders); panics with
/// the compiler's messages when that fails.
pub fn shared_library(src: &Path, dir: &Path, name: &str, extra: &[&std::ffi::OsStr]) -> PathBuf {
    let so = dir.join(name);
    let out = Command::new(host_cc())
        .args(["-shared", "-fPIC", "-O1"])
        .args(extra)
        .arg(src)
        .arg("-o")
        .arg(&so)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", host_cc()));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    so
}
