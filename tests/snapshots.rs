//! Snapshot tests: `tests/in/<name>.c` compiled with `accc --emit=ir` must
//! print exactly `tests/out/ir/<name>.ir`, with `--emit=cuda` exactly
//! `tests/out/cuda/<name>.cu`, and the inputs of
//! [`SIMT_SNAPSHOTS`] with `accc --emit=simt` exactly
//! `tests/out/simt/<name>.simt` (the emulated device's bytecode). Run with
//! `BLESS=1` to rewrite the expected files after an intended change (and
//! review the diff).

mod common;
use std::path::Path;
use std::process::Command;

/// The inputs whose SIMT bytecode is a snapshot too.
const SIMT_SNAPSHOTS: &[&str] = &["vector_add", "atomic_forms"];

/// `accc --emit=<emit> tests/in/<name>.c` must print `tests/out/<dir>/<name>.<ext>`.
fn check_snapshot(name: &str, emit: &str, dir: &str, ext: &str) -> Result<(), String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = Command::new(env!("CARGO_BIN_EXE_accc"))
        .current_dir(root)
        .arg(format!("--emit={emit}"))
        .arg(format!("tests/in/{name}.c"))
        .output()
        .map_err(|e| format!("{name}: cannot run accc: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "{name}: accc --emit={emit} failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let got = String::from_utf8_lossy(&out.stdout).to_string();
    let expected_path = root.join(format!("tests/out/{dir}/{name}.{ext}"));
    let bless = std::env::var_os("BLESS").is_some();
    common::check_golden(
        &expected_path,
        &got,
        bless,
        &format!("{name}: --emit={emit}"),
    )
}

#[test]
fn simt_snapshots() {
    let failures: Vec<String> = SIMT_SNAPSHOTS
        .iter()
        .filter_map(|n| check_snapshot(n, "simt", "simt", "simt").err())
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// `accc --emit=<emit>` of every `tests/in/*.c` must print
/// `tests/out/<dir>/<name>.<ext>`.
fn every_input(emit: &str, dir: &str, ext: &str) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut inputs: Vec<String> = std::fs::read_dir(root.join("tests/in"))
        .expect("tests/in exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .map(|p| {
            p.file_stem()
                .unwrap_or_default()
                .to_string_lossy()
                .to_string()
        })
        .collect();
    inputs.sort();
    assert!(!inputs.is_empty(), "no inputs in tests/in");
    let failures: Vec<String> = inputs
        .iter()
        .filter_map(|n| check_snapshot(n, emit, dir, ext).err())
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn ir_snapshots() {
    every_input("ir", "ir", "ir");
}

/// The CUDA C of the nvcc path (`tests/nvcc.rs` compiles it with nvcc).
#[test]
fn cuda_snapshots() {
    every_input("cuda", "cuda", "cu");
}
