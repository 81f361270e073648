//! GNU C through accc (issue 15): every C header GCC and glibc ship, and real
//! C libraries fetched by cargo from crates.io.
//!
//! * `every_c_header`: one program includes every header of GCC's include
//!   folder that GCC compiles on its own (the x86 intrinsics through
//!   `<immintrin.h>` and `<x86intrin.h>`; GCC's `openacc.h` and `acc_prof.h`
//!   excepted, accc's own `openacc.h` taking their place) and glibc's
//!   standard headers (ISO C and POSIX), without and with `_GNU_SOURCE`. accc
//!   must compile it leaving no declaration to the host compiler, and its
//!   compute region (using `<math.h>`, `<stdint.h>`, `<stdbool.h>`) must run
//!   and check itself, printing what the plain-cc build prints.
//! * `sqlite`, `lua`, `zlib`: the library's C files built one by one with
//!   accc and with the host compiler, each linked with a smoke program of
//!   ours (`tests/realcode/*_smoke.c`, with a compute region); both programs
//!   run and their outputs must be equal, and accc must have parsed every
//!   declaration of the library's sources.
//!
//! The sources come from `cargo metadata` on `tests/realcode/Cargo.toml`,
//! which downloads them into cargo's registry cache. Without them (offline,
//! nothing cached) these tests fail saying why; `ACCC_REAL_CODE=skip` skips
//! them with a loud message, except under CI, where they must run.

mod common;

use common::{accc, host_cc, run, tail, COMPILE_TIMEOUT, RUN_TIMEOUT};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::Instant;

/// What accc prints (under `ACCC_SHOW_OPAQUE=1`) for a declaration it
/// could not parse.
const OPAQUE: &str = "left to the host compiler";

/// Compiles `src` to the object `obj` with accc (asserting that it parsed
/// every declaration) or with the host compiler.
fn compile(
    with_accc: bool,
    src: &Path,
    obj: &Path,
    flags: &[&str],
    dir: &Path,
) -> Result<(), String> {
    let mut cmd = if with_accc {
        let mut c = accc();
        c.env("ACCC_SHOW_OPAQUE", "1");
        c
    } else {
        Command::new(host_cc())
    };
    cmd.args(flags).arg("-c").arg(src).arg("-o").arg(obj);
    let tag = obj
        .file_stem()
        .map_or("obj".into(), |s| s.to_string_lossy().into_owned());
    let r = run(cmd, dir, &tag, COMPILE_TIMEOUT);
    let who = if with_accc { "accc" } else { "cc" };
    if !r.ok() {
        return Err(format!(
            "{who} -c {} failed ({}):\n{}",
            src.display(),
            r.describe_status(),
            tail(&r.stderr, 3000)
        ));
    }
    let opaque: Vec<&str> = r.stderr.lines().filter(|l| l.contains(OPAQUE)).collect();
    if !opaque.is_empty() {
        return Err(format!(
            "accc could not parse {} declaration(s) of {}:\n{}",
            opaque.len(),
            src.display(),
            opaque.join("\n")
        ));
    }
    Ok(())
}

/// Compiles `srcs` with the chosen compiler on two threads, into `dir`.
fn compile_all(
    with_accc: bool,
    srcs: &[PathBuf],
    flags: &[&str],
    dir: &Path,
) -> Result<Vec<PathBuf>, String> {
    let objs: Vec<PathBuf> = srcs
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let stem = s
                .file_stem()
                .map_or("src".into(), |x| x.to_string_lossy().into_owned());
            dir.join(format!("{i:02}_{stem}.o"))
        })
        .collect();
    let errors = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for part in 0..2 {
            let (objs, errors) = (&objs, &errors);
            scope.spawn(move || {
                for (k, (src, obj)) in srcs.iter().zip(objs).enumerate() {
                    if k % 2 == part {
                        if let Err(e) = compile(with_accc, src, obj, flags, dir) {
                            errors.lock().unwrap_or_else(|p| p.into_inner()).push(e);
                        }
                    }
                }
            });
        }
    });
    let errors = errors.into_inner().unwrap_or_else(|p| p.into_inner());
    if errors.is_empty() {
        Ok(objs)
    } else {
        Err(errors.join("\n\n"))
    }
}

/// Links `objs` into `exe` (accc links its runtime; the host compiler gets
/// the system libraries the libraries need).
fn link(with_accc: bool, objs: &[PathBuf], exe: &Path, dir: &Path) -> Result<(), String> {
    let mut cmd = if with_accc {
        accc()
    } else {
        Command::new(host_cc())
    };
    cmd.args(objs)
        .arg("-o")
        .arg(exe)
        .args(["-lm", "-ldl", "-lpthread"]);
    let r = run(cmd, dir, "link", COMPILE_TIMEOUT);
    if r.ok() {
        Ok(())
    } else {
        Err(format!(
            "link failed ({}):\n{}",
            r.describe_status(),
            tail(&r.stderr, 3000)
        ))
    }
}

/// Runs `exe` with `args`; its stdout, which must end with a `PASS` line.
fn run_program(exe: &Path, args: &[&str], dir: &Path) -> Result<String, String> {
    let mut cmd = Command::new(exe);
    cmd.args(args)
        .env_remove("ACC_DEVICE_TYPE")
        .env_remove("ACC_DEVICE_NUM");
    let r = run(cmd, dir, "run", RUN_TIMEOUT);
    if !r.ok() || r.stdout.lines().last() != Some("PASS") {
        return Err(format!(
            "{} exited with {} and no final PASS line\nstdout:\n{}\nstderr:\n{}",
            exe.display(),
            r.describe_status(),
            tail(&r.stdout, 3000),
            tail(&r.stderr, 3000)
        ));
    }
    Ok(r.stdout)
}

/// Builds the library `srcs` and the smoke program `smoke` with accc and with
/// the host compiler (flags `flags` for both), runs both and compares.
fn library(name: &str, srcs: Vec<PathBuf>, smoke: &str, flags: &[&str]) {
    let tmp = tempfile::Builder::new()
        .prefix(&format!("accc-{name}"))
        .tempdir()
        .unwrap_or_else(|e| panic!("cannot make a temporary folder: {e}"));
    let smoke = common::tests_dir().join("realcode").join(smoke);
    let mut all = srcs;
    all.push(smoke);
    let mut outputs = vec![];
    for with_accc in [false, true] {
        let who = if with_accc { "accc" } else { "cc" };
        let dir = tmp.path().join(who);
        std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
        let start = Instant::now();
        let objs =
            compile_all(with_accc, &all, flags, &dir).unwrap_or_else(|e| panic!("{name}: {e}"));
        eprintln!(
            "{name}: {} files compiled by {who} in {:.1} s",
            all.len(),
            start.elapsed().as_secs_f64()
        );
        let exe = dir.join(format!("{name}_smoke"));
        link(with_accc, &objs, &exe, &dir).unwrap_or_else(|e| panic!("{name} ({who}): {e}"));
        let scratch = dir.join("scratch.gz");
        let out = run_program(&exe, &[&scratch.to_string_lossy()], &dir)
            .unwrap_or_else(|e| panic!("{name} ({who}): {e}"));
        outputs.push(out);
    }
    if outputs[0] != outputs[1] {
        panic!(
            "{name}: the accc build printed\n{}\nthe cc build printed\n{}",
            outputs[1], outputs[0]
        );
    }
    eprintln!(
        "{name}: the accc build prints what the cc build prints:\n{}",
        outputs[1]
    );
}

/// The source folders of the crates, from `cargo metadata` (which downloads
/// them); `Err` says why they are not there.
fn crate_dirs() -> &'static Result<HashMap<String, PathBuf>, String> {
    static DIRS: OnceLock<Result<HashMap<String, PathBuf>, String>> = OnceLock::new();
    DIRS.get_or_init(|| {
        let manifest = common::tests_dir().join("realcode/Cargo.toml");
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let out = Command::new(cargo)
            .args([
                "metadata",
                "--format-version",
                "1",
                "--locked",
                "--manifest-path",
            ])
            .arg(&manifest)
            .output()
            .map_err(|e| format!("cannot run cargo metadata: {e}"))?;
        if !out.status.success() {
            return Err(format!(
                "cargo metadata on {} failed (offline, with nothing cached?):\n{}",
                manifest.display(),
                String::from_utf8_lossy(&out.stderr)
            ));
        }
        // Every package's folder, from its `"manifest_path":"…/Cargo.toml"`.
        let json = String::from_utf8_lossy(&out.stdout);
        let key = "\"manifest_path\":\"";
        let folders: Vec<PathBuf> = json
            .split(key)
            .skip(1)
            .filter_map(|rest| rest.split('"').next())
            .filter_map(|m| Path::new(m).parent().map(Path::to_path_buf))
            .collect();
        let mut dirs = HashMap::new();
        for name in ["libsqlite3-sys", "lua-src", "libz-sys"] {
            // `…/registry/src/<index>/<name>-<version>/`
            let dir = folders
                .iter()
                .find(|d| {
                    d.file_name()
                        .and_then(|f| f.to_str())
                        .and_then(|f| f.strip_prefix(name))
                        .and_then(|v| v.strip_prefix('-'))
                        .is_some_and(|v| v.starts_with(|c: char| c.is_ascii_digit()))
                })
                .ok_or_else(|| format!("cargo metadata does not list the package {name}"))?;
            dirs.insert(name.to_string(), dir.clone());
        }
        Ok(dirs)
    })
}

/// The source folder of crate `name`, or `None` after saying loudly why the
/// test does not run (only with `ACCC_REAL_CODE=skip`, never under CI).
fn crate_dir(name: &str) -> Option<PathBuf> {
    match crate_dirs() {
        Ok(d) => Some(d.get(name).cloned().unwrap_or_default()),
        Err(e) => {
            let skip = std::env::var("ACCC_REAL_CODE").is_ok_and(|v| v == "skip");
            if skip && std::env::var_os("CI").is_none() {
                eprintln!(
                    "\n*** SKIPPED: the {name} sources are not available (ACCC_REAL_CODE=skip):\n{e}\n"
                );
                None
            } else {
                panic!("the {name} sources are not available: {e}\n(set ACCC_REAL_CODE=skip to skip this test outside CI)");
            }
        }
    }
}

/// The `.c` files of `dir`, sorted, without those named in `except`.
fn c_files(dir: &Path, except: &[&str]) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .filter(|p| {
            !except
                .iter()
                .any(|x| p.file_name().is_some_and(|n| n == *x))
        })
        .collect();
    v.sort();
    v
}

#[test]
fn sqlite() {
    let Some(dir) = crate_dir("libsqlite3-sys") else {
        return;
    };
    let src = dir.join("sqlite3");
    let inc = format!("-I{}", src.display());
    library(
        "sqlite",
        vec![src.join("sqlite3.c")],
        "sqlite_smoke.c",
        &["-O1", "-w", &inc],
    );
}

#[test]
fn lua() {
    let Some(dir) = crate_dir("lua-src") else {
        return;
    };
    let src = dir.join("lua-5.4.7");
    let inc = format!("-I{}", src.display());
    // The library: every file but the two programs (lua.c, luac.c).
    let files = c_files(&src, &["lua.c", "luac.c"]);
    assert!(files.len() > 25, "lua-5.4.7 has too few C files");
    library(
        "lua",
        files,
        "lua_smoke.c",
        &["-O1", "-w", "-DLUA_USE_LINUX", &inc],
    );
}

#[test]
fn zlib() {
    let Some(dir) = crate_dir("libz-sys") else {
        return;
    };
    let src = dir.join("src/zlib");
    let inc = format!("-I{}", src.display());
    let files = c_files(&src, &[]);
    assert!(files.len() > 10, "zlib has too few C files");
    library(
        "zlib",
        files,
        "zlib_smoke.c",
        &[
            "-O1",
            "-w",
            "-D_LARGEFILE64_SOURCE=1",
            "-DZ_HAVE_UNISTD_H",
            &inc,
        ],
    );
}

/// glibc's standard headers: ISO C (C17, and C23's where there) and POSIX.
const LIBC_HEADERS: &[&str] = &[
    "assert.h",
    "complex.h",
    "ctype.h",
    "errno.h",
    "fenv.h",
    "float.h",
    "inttypes.h",
    "iso646.h",
    "limits.h",
    "locale.h",
    "math.h",
    "setjmp.h",
    "signal.h",
    "stdalign.h",
    "stdarg.h",
    "stdatomic.h",
    "stdbit.h",
    "stdbool.h",
    "stdckdint.h",
    "stddef.h",
    "stdint.h",
    "stdio.h",
    "stdlib.h",
    "stdnoreturn.h",
    "string.h",
    "tgmath.h",
    "threads.h",
    "time.h",
    "uchar.h",
    "wchar.h",
    "wctype.h",
    "aio.h",
    "arpa/inet.h",
    "cpio.h",
    "dirent.h",
    "dlfcn.h",
    "fcntl.h",
    "fmtmsg.h",
    "fnmatch.h",
    "ftw.h",
    "glob.h",
    "grp.h",
    "iconv.h",
    "langinfo.h",
    "libgen.h",
    "monetary.h",
    "mqueue.h",
    "net/if.h",
    "netdb.h",
    "netinet/in.h",
    "netinet/tcp.h",
    "nl_types.h",
    "poll.h",
    "pthread.h",
    "pwd.h",
    "regex.h",
    "sched.h",
    "search.h",
    "semaphore.h",
    "spawn.h",
    "strings.h",
    "sys/ipc.h",
    "sys/mman.h",
    "sys/msg.h",
    "sys/resource.h",
    "sys/select.h",
    "sys/sem.h",
    "sys/shm.h",
    "sys/socket.h",
    "sys/stat.h",
    "sys/statvfs.h",
    "sys/time.h",
    "sys/times.h",
    "sys/types.h",
    "sys/uio.h",
    "sys/un.h",
    "sys/utsname.h",
    "sys/wait.h",
    "syslog.h",
    "tar.h",
    "termios.h",
    "ulimit.h",
    "unistd.h",
    "utime.h",
    "utmpx.h",
    "wordexp.h",
];

/// GCC's OpenACC headers: accc's own `openacc.h` takes their place (GCC's
/// `acc_prof.h`, libgomp's profiling interface, needs GCC's `openacc.h`).
const GCC_OPENACC_HEADERS: &[&str] = &["openacc.h", "acc_prof.h"];

/// Whether the host compiler compiles a file that includes only `header`.
fn compiles_alone(header: &str, dir: &Path) -> bool {
    let tag = header.replace(['/', '.'], "_");
    let src = dir.join(format!("{tag}.c"));
    if std::fs::write(&src, format!("#include <{header}>\n")).is_err() {
        return false;
    }
    let mut cmd = Command::new(host_cc());
    cmd.arg("-fsyntax-only").arg(&src);
    run(cmd, dir, &tag, COMPILE_TIMEOUT).ok()
}

/// The program of `every_c_header`: the includes, then a region that uses
/// them and checks itself.
fn header_program(headers: &[String]) -> String {
    let mut s = String::new();
    for h in headers {
        s.push_str(&format!("#include <{h}>\n"));
    }
    s.push_str(
        r#"
int main(void)
{
    enum { N = 1000 };
    static double x[N];
    for (int i = 0; i < N; i++)
        x[i] = i * 0.25;
    double s = 0;
    int64_t m = INT64_MIN;
#pragma acc parallel loop copyin(x) reduction(+:s) reduction(max:m)
    for (int i = 0; i < N; i++) {
        bool odd = i % 2 != 0;
        s += sqrt(x[i]) + (odd ? fabs(-1.0) : 0.0);
        int64_t v = (int64_t)i * INT32_MAX % 977;
        m = v > m ? v : m;
    }
    double hs = 0;
    int64_t hm = INT64_MIN;
    for (int i = 0; i < N; i++) {
        hs += sqrt(x[i]) + (i % 2 != 0 ? 1.0 : 0.0);
        int64_t v = (int64_t)i * INT32_MAX % 977;
        hm = v > hm ? v : hm;
    }
    printf("%.6e %lld\n", s, (long long)m);
    printf("%s\n", fabs(s - hs) <= 1e-9 * hs && m == hm ? "PASS" : "FAIL");
    return 0;
}
"#,
    );
    s
}

#[test]
fn every_c_header() {
    let tmp = tempfile::Builder::new()
        .prefix("accc-headers")
        .tempdir()
        .unwrap_or_else(|e| panic!("cannot make a temporary folder: {e}"));
    let dir = tmp.path();
    let out = Command::new(host_cc())
        .arg("-print-file-name=include")
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", host_cc()));
    let gcc_inc = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
    let mut gcc_headers: Vec<String> = std::fs::read_dir(&gcc_inc)
        .unwrap_or_else(|e| {
            panic!(
                "cannot read GCC's include folder {}: {e}",
                gcc_inc.display()
            )
        })
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".h") && !GCC_OPENACC_HEADERS.contains(&n.as_str()))
        .collect();
    gcc_headers.sort();
    assert!(
        gcc_headers.len() > 20,
        "too few headers in {}",
        gcc_inc.display()
    );
    let candidates: Vec<String> = gcc_headers
        .iter()
        .cloned()
        .chain(LIBC_HEADERS.iter().map(|h| h.to_string()))
        .collect();
    let mut alone = vec![];
    let mut skipped = vec![];
    for h in &candidates {
        if compiles_alone(h, dir) {
            alone.push(h.clone());
        } else {
            skipped.push(h.clone());
        }
    }
    eprintln!(
        "{} headers ({} from {}); not compiled alone by {}: {}",
        alone.len(),
        gcc_headers.len(),
        gcc_inc.display(),
        host_cc(),
        skipped.join(" ")
    );
    for must in [
        "immintrin.h",
        "x86intrin.h",
        "omp.h",
        "stdatomic.h",
        "complex.h",
        "threads.h",
        "math.h",
    ] {
        assert!(
            alone.iter().any(|h| h == must),
            "<{must}> is not among the headers"
        );
    }
    let src = dir.join("headers.c");
    std::fs::write(&src, header_program(&alone)).unwrap_or_else(|e| panic!("{e}"));
    for defines in [&[][..], &["-D_GNU_SOURCE"][..]] {
        let mut outputs = vec![];
        for with_accc in [false, true] {
            let who = if with_accc { "accc" } else { "cc" };
            let exe = dir.join(format!("headers_{who}"));
            let mut cmd = if with_accc {
                let mut c = accc();
                c.env("ACCC_SHOW_OPAQUE", "1");
                c
            } else {
                Command::new(host_cc())
            };
            cmd.args(["-O2", "-w"])
                .args(defines)
                .arg(&src)
                .arg("-o")
                .arg(&exe)
                .arg("-lm");
            let r = run(cmd, dir, &format!("build_{who}"), COMPILE_TIMEOUT);
            assert!(
                r.ok(),
                "{who} {defines:?} does not compile the header program ({}):\n{}",
                r.describe_status(),
                tail(&r.stderr, 4000)
            );
            let opaque: Vec<&str> = r.stderr.lines().filter(|l| l.contains(OPAQUE)).collect();
            assert!(
                opaque.is_empty(),
                "accc {defines:?} could not parse {} declaration(s) of the headers:\n{}",
                opaque.len(),
                opaque.join("\n")
            );
            outputs.push(run_program(&exe, &[], dir).unwrap_or_else(|e| panic!("{who}: {e}")));
        }
        assert_eq!(
            outputs[0], outputs[1],
            "accc's and cc's header programs print differently"
        );
    }
}

#[test]
fn deeply_nested_expressions() {
    // Machine-written C nests deeply: the parser and the walks recurse per
    // level, so accc runs on a large stack (gcc itself takes 20000 levels).
    let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let dir = tmp.path();
    let nest = |n: usize, e: &str| format!("{}{e}{}", "(".repeat(n), ")".repeat(n));
    let src = dir.join("deep.c");
    let text = format!(
        "#include <stdio.h>\n\
         static int host(int x) {{ return {}; }}\n\
         int main(void)\n{{\n    int a[4], s = 1;\n\
         #pragma acc parallel loop copyout(a)\n    for (int i = 0; i < 4; i++)\n        a[i] = {};\n\
         \x20   printf(\"%d %d\\n\", a[3], host(2));\n    printf(\"PASS\\n\");\n    return 0;\n}}\n",
        nest(20000, "x + 1"),
        nest(3000, "i + s")
    );
    std::fs::write(&src, text).unwrap_or_else(|e| panic!("{e}"));
    let exe = dir.join("deep");
    let mut cmd = accc();
    cmd.arg("-O1").arg(&src).arg("-o").arg(&exe);
    let r = run(cmd, dir, "build", COMPILE_TIMEOUT);
    assert!(
        r.ok(),
        "accc failed ({}):\n{}",
        r.describe_status(),
        tail(&r.stderr, 2000)
    );
    let out = run_program(&exe, &[], dir).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(out, "4 3\nPASS\n");
}
