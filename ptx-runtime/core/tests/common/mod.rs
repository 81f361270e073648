//! What the runtime's C tests share: building a C program against this
//! build's libptxrt.a and running it with a controlled environment.
#![allow(dead_code)] // each test crate uses its own subset

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub fn target_dir() -> PathBuf {
    // .../target/debug/deps/c_api-<hash> → .../target/debug
    let exe = std::env::current_exe().expect("test executable path");
    exe.parent()
        .and_then(Path::parent)
        .expect("target dir")
        .to_path_buf()
}

/// libptxrt.a of this build: `cargo test` builds it in deps/ (with a hash)
/// without copying it up, `cargo build` copies it to the target dir; the
/// newest one wins.
pub fn staticlib() -> PathBuf {
    let t = target_dir();
    let mut cands = vec![t.join("libptxrt.a")];
    if let Ok(rd) = std::fs::read_dir(t.join("deps")) {
        for e in rd.flatten() {
            let n = e.file_name().to_string_lossy().into_owned();
            if n.starts_with("libptxrt-") && n.ends_with(".a") {
                cands.push(e.path());
            }
        }
    }
    cands
        .into_iter()
        .filter_map(|p| Some((std::fs::metadata(&p).ok()?.modified().ok()?, p)))
        .max()
        .map(|(_, p)| p)
        .expect("libptxrt.a is not built")
}

pub fn crate_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Compile C program `text` (tagged `tag`) against libptxrt.a and include/
/// into a fresh temporary folder: (the folder, the executable).
pub fn build_c(tag: &str, text: &str) -> (PathBuf, PathBuf) {
    let dir = std::env::temp_dir().join(format!("ptxrt-c-api-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let src = dir.join("prog.c");
    std::fs::write(&src, text).expect("write prog.c");
    let lib = staticlib();
    let exe = dir.join("prog");
    let out = Command::new("cc")
        .arg("-Wall")
        .arg("-Werror")
        .arg("-I")
        .arg(crate_dir().join("../include"))
        .arg(&src)
        .arg(&lib)
        .args(["-ldl", "-lpthread", "-lm", "-o"])
        .arg(&exe)
        .output()
        .expect("run cc");
    assert!(
        out.status.success(),
        "cc failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    (dir, exe)
}

/// Run `exe arg` with none of libptxrt's environment variables but `env`.
pub fn run(exe: &Path, arg: &str, env: &[(&str, &str)]) -> Output {
    let mut c = Command::new(exe);
    c.arg(arg);
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
        c.env_remove(v);
    }
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().expect("run program")
}

pub fn stderr_of(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}
