//! Remark tests: every `tests/remarks/*.c` is compiled with `accc -Minfo=accel -c`
//! and the remarks it prints (`remarks/<name>.c:LINE: text`) must be exactly its
//! `// expect-remark: LINE: text` lines — no more, no fewer, in any order.
//! The remarks are the user's view of the scheduler's decisions (which loops are
//! parallel, on which grid and block dimension, why a loop stays sequential,
//! what data is moved implicitly), so a change in a decision fails here.

mod common;

use common::{accc, check_all, header_values, panicked, run, tail, tests_dir, COMPILE_TIMEOUT};
use std::ffi::OsStr;
use std::fs;
use std::path::{Path, PathBuf};

fn sources() -> Vec<PathBuf> {
    let dir = tests_dir().join("remarks");
    let mut v: Vec<PathBuf> = fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension() == Some(OsStr::new("c")))
        .collect();
    v.sort();
    assert!(!v.is_empty(), "no test sources in {}", dir.display());
    v
}

fn check_remarks(src: &Path) -> Result<(), String> {
    let text = fs::read_to_string(src).map_err(|e| format!("cannot read: {e}"))?;
    let name = src.file_name().unwrap_or_default().to_string_lossy();
    let rel = format!("remarks/{name}");
    let mut want: Vec<String> = header_values(&text, "expect-remark")
        .into_iter()
        .map(|v| format!("{rel}:{v}"))
        .collect();
    if want.is_empty() {
        return Err("no `// expect-remark:` line".into());
    }
    let tmp = tempfile::tempdir().map_err(|e| e.to_string())?;
    let mut cmd = accc();
    cmd.current_dir(tests_dir())
        .arg("-Minfo=accel")
        .arg("-c")
        .arg(&rel)
        .arg("-o")
        .arg(tmp.path().join("out.o"));
    let r = run(cmd, tmp.path(), "accc", COMPILE_TIMEOUT);
    if !r.ok() || panicked(&r.stderr) {
        return Err(format!(
            "accc failed ({}):\n{}",
            r.describe_status(),
            tail(&r.stderr, 2000)
        ));
    }
    let mut got: Vec<String> = r
        .stderr
        .lines()
        .filter(|l| l.starts_with(&rel))
        .map(str::to_string)
        .collect();
    want.sort();
    got.sort();
    let missing: Vec<&String> = want.iter().filter(|w| !got.contains(w)).collect();
    let extra: Vec<&String> = got.iter().filter(|g| !want.contains(g)).collect();
    if missing.is_empty() && extra.is_empty() && want.len() == got.len() {
        return Ok(());
    }
    Err(format!(
        "missing remarks:\n  {}\nunexpected remarks:\n  {}",
        missing
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n  "),
        extra
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n  ")
    ))
}

#[test]
fn remarks() {
    check_all(
        "remarks",
        &sources(),
        |p| {
            p.file_stem()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned()
        },
        |p| check_remarks(p),
    );
}

/// The program test of the `cache` directive (`programs/cache_directive.c`,
/// run against plain cc by every harness) goes through the shared-memory
/// tiles: its four vector loops' sections are cached (so its answer checks
/// them), its sequential loop's are not.
#[test]
fn cache_program_uses_shared_memory() {
    let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
    let mut cmd = accc();
    cmd.current_dir(tests_dir())
        .args(["-Minfo=accel", "-c", "programs/cache_directive.c", "-o"])
        .arg(tmp.path().join("out.o"));
    let r = run(cmd, tmp.path(), "accc", COMPILE_TIMEOUT);
    assert!(
        r.ok() && !panicked(&r.stderr),
        "accc failed:\n{}",
        tail(&r.stderr, 2000)
    );
    let cached: Vec<&str> = r
        .stderr
        .lines()
        .filter(|l| l.contains("cached in shared memory"))
        .collect();
    let items = [
        "'a[i - 1:3]'",
        "'e[i - 2:5]'",
        "'u[r][c - 1:3]'",
        "'f2[r * 70 + c - 1:3]'",
    ];
    assert_eq!(cached.len(), items.len(), "remarks:\n{}", r.stderr);
    for (line, item) in cached.iter().zip(items) {
        assert!(line.contains(item), "{line} should name {item}");
    }
    assert!(
        r.stderr
            .contains("'x[r][k]' is not cached: the loop is not partitioned across vector lanes"),
        "remarks:\n{}",
        r.stderr
    );
}
