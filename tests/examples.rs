//! The examples of `examples/`, built the way their users build them.
//!
//! * `npb_like_make`: `examples/npb-like`, an NPB 3.3-style suite (see its
//!   README.md), is copied twice to a temporary folder and built by its own
//!   Makefiles with `make -j2 JR CLASS=S`: once with `CC=cc CLINK=cc` (the
//!   directives ignored: the oracle) and once with `CC=accc CLINK=accc`. Both
//!   programs must verify their norms (`Verification = SUCCESSFUL`) and print
//!   the same numbers (relative tolerance 1e-8, the benchmark's own; the lines
//!   of times and rates are left out). The accc build must leave the dependency
//!   files of `-MD` beside its objects, naming the objects as the Makefiles do;
//!   a second `make -j2` must rebuild nothing, a touched common header (known
//!   from the dependency files alone) must rebuild every object, and
//!   `make clean` must leave the files of the example and no others.
//!
//! Without a GPU the accc build runs through the host fallback. Needs GNU make.

mod common;

use common::{
    accc_bin, compare_outputs, host_cc, panicked, require_ptxas, run, tail, Run, Tolerance,
    COMPILE_TIMEOUT, RUN_TIMEOUT,
};
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::SystemTime;

/// The benchmark's objects (in `JR/`) and the common ones (in `common/`).
const JR_OBJECTS: &[&str] = &["jr", "init", "exact", "rhs", "relax", "norms", "verify"];
const COMMON_OBJECTS: &[&str] = &["c_print_results", "c_timers", "c_wtime", "c_verify"];

/// Where the example lives in the repository.
fn example_dir() -> PathBuf {
    common::root().join("examples/npb-like")
}

/// Copies the folder `from` to `to` (files and folders only).
fn copy_tree(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for e in fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let (src, dst) = (e.path(), to.join(e.file_name()));
        if e.file_type().unwrap().is_dir() {
            copy_tree(&src, &dst);
        } else {
            fs::copy(&src, &dst).unwrap();
        }
    }
}

/// Every file under `dir` (relative paths) with its modification time.
fn files(dir: &Path) -> BTreeMap<PathBuf, SystemTime> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<PathBuf, SystemTime>) {
        for e in fs::read_dir(dir).unwrap() {
            let e = e.unwrap();
            let p = e.path();
            if e.file_type().unwrap().is_dir() {
                walk(root, &p, out);
            } else {
                let t = e.metadata().unwrap().modified().unwrap();
                out.insert(p.strip_prefix(root).unwrap().to_path_buf(), t);
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

/// Runs `make -j2 <args>` in `dir` with the compiler `cc` as CC and CLINK (its
/// output in `<dir>.logs/`, beside the folder, not in it); the
/// test environment of accc (no forced device type, ptxas required where
/// installed) and no make settings inherited from a calling make.
fn make(dir: &Path, cc: &str, args: &[&str], tag: &str) -> Run {
    let logs = dir.with_extension("logs");
    fs::create_dir_all(&logs).unwrap();
    let mut cmd = Command::new("make");
    cmd.current_dir(dir)
        .arg("-j2")
        .args(args)
        .arg(format!("CC={cc}"))
        .arg(format!("CLINK={cc}"))
        .env_remove("MAKEFLAGS")
        .env_remove("MFLAGS")
        .env_remove("MAKELEVEL")
        .env_remove("ACC_DEVICE_TYPE");
    if require_ptxas() {
        cmd.env("ACCC_REQUIRE_PTXAS", "1");
    }
    let r = run(cmd, &logs, tag, COMPILE_TIMEOUT);
    assert!(!panicked(&r.stderr), "{tag}: accc panicked:\n{}", r.stderr);
    r
}

/// `make -j2 <args>` must succeed.
fn make_ok(dir: &Path, cc: &str, args: &[&str], tag: &str) -> Run {
    let r = make(dir, cc, args, tag);
    assert!(
        r.ok(),
        "{tag}: make {args:?} CC={cc}: {}\n{}\n{}",
        r.describe_status(),
        tail(&r.stdout, 4000),
        tail(&r.stderr, 4000)
    );
    r
}

/// Runs the benchmark; it must exit 0 having verified its results. Returns
/// its output without the lines that differ from run to run (times, rates).
fn run_benchmark(dir: &Path, tag: &str) -> String {
    let exe = dir.join("bin/jr.S.x");
    let mut cmd = Command::new(&exe);
    cmd.current_dir(dir)
        .env_remove("ACC_DEVICE_TYPE")
        .env_remove("ACC_DEVICE_NUM");
    let r = run(cmd, &dir.with_extension("logs"), tag, RUN_TIMEOUT);
    assert!(
        r.ok()
            && r.stdout
                .contains("Verification    =               SUCCESSFUL"),
        "{tag}: {} {}\n{}\n{}",
        exe.display(),
        r.describe_status(),
        tail(&r.stdout, 4000),
        tail(&r.stderr, 4000)
    );
    r.stdout
        .lines()
        .filter(|l| !l.contains("Time in seconds") && !l.contains("Mop/s"))
        .map(|l| format!("{l}\n"))
        .collect()
}

/// A dependency file: its target is `target`; it names the source, the
/// headers in `headers`, and no file of accc's own (the rewritten host C in
/// a temporary folder, the runtime's headers).
fn check_dep_file(d: &Path, target: &str, source: &str, headers: &[&str]) {
    let text = fs::read_to_string(d).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (accc -c -MD should write the dependency file beside the object)",
            d.display()
        )
    });
    let words: Vec<&str> = text.split_whitespace().filter(|w| *w != "\\").collect();
    assert_eq!(
        words.first().copied(),
        Some(format!("{target}:").as_str()),
        "{}:\n{text}",
        d.display()
    );
    for want in std::iter::once(source).chain(headers.iter().copied()) {
        assert!(
            words.contains(&want),
            "{} does not name {want}:\n{text}",
            d.display()
        );
    }
    assert!(
        !text.contains("host.c") && !text.contains("ptxrt") && !text.contains("/accc"),
        "{} names accc's own files:\n{text}",
        d.display()
    );
}

#[test]
fn npb_like_make() {
    let tmp = tempfile::tempdir().unwrap();
    let (plain, acc) = (tmp.path().join("cc"), tmp.path().join("accc"));
    copy_tree(&example_dir(), &plain);
    copy_tree(&example_dir(), &acc);
    let pristine = files(&acc);
    let accc = accc_bin().to_string_lossy().into_owned();
    let build = ["JR", "CLASS=S"];

    // The oracle: plain cc, the directives ignored.
    make_ok(&plain, &host_cc(), &build, "make-cc");
    let want = run_benchmark(&plain, "jr-cc");

    // accc as CC and CLINK; setparams still built by plain cc (UCC).
    let r = make_ok(&acc, &accc, &build, "make-accc");
    assert!(
        r.stdout.contains(&format!("{accc} -c -I../common")),
        "make did not compile with accc:\n{}",
        r.stdout
    );
    let got = run_benchmark(&acc, "jr-accc");
    let tol = Tolerance {
        short: 1e-8,
        long: 1e-8,
    };
    if let Err(e) = compare_outputs(&want, &got, tol) {
        panic!("accc's build disagrees with plain cc's: {e}\n--- cc:\n{want}\n--- accc:\n{got}");
    }

    // The dependency files of -MD.
    for o in JR_OBJECTS {
        check_dep_file(
            &acc.join(format!("JR/{o}.d")),
            &format!("{o}.o"),
            &format!("{o}.c"),
            &["header.h", "npbparams.h", "../common/npb.h"],
        );
    }
    for o in COMMON_OBJECTS {
        check_dep_file(
            &acc.join(format!("common/{o}.d")),
            &format!("../common/{o}.o"),
            &format!("../common/{o}.c"),
            &["../common/npb.h"],
        );
    }

    // Built once, nothing is rebuilt (npbparams.h is regenerated only when
    // the class changes).
    let before = files(&acc);
    let r = make_ok(&acc, &accc, &build, "make-again");
    let after = files(&acc);
    assert!(
        before == after && !r.stdout.contains(" -c "),
        "a second make rebuilt something:\n{}\nchanged: {:?}",
        r.stdout,
        after
            .iter()
            .filter(|(p, t)| before.get(*p) != Some(t))
            .map(|(p, _)| p)
            .collect::<Vec<_>>()
    );

    // A header only the dependency files name: every object is rebuilt.
    let npb_h = acc.join("common/npb.h");
    let later = SystemTime::now() + std::time::Duration::from_secs(2);
    fs::File::options()
        .write(true)
        .open(&npb_h)
        .unwrap()
        .set_modified(later)
        .unwrap();
    let r = make_ok(&acc, &accc, &build, "make-touched");
    for o in JR_OBJECTS.iter().chain(COMMON_OBJECTS) {
        assert!(
            r.stdout
                .lines()
                .any(|l| l.contains(" -c ") && l.contains(&format!("{o}.c"))),
            "{o}.c was not recompiled after common/npb.h changed:\n{}",
            r.stdout
        );
    }
    assert_eq!(run_benchmark(&acc, "jr-accc-2"), got);

    // make clean leaves the example as it was.
    make_ok(&acc, &accc, &["clean"], "make-clean");
    let left: Vec<_> = files(&acc).into_keys().collect();
    let want_left: Vec<_> = pristine.into_keys().collect();
    assert_eq!(left, want_left, "make clean left other files");
}
