//! The IR reader on everything accc prints: `ir::read_module` of the text
//! of `accc --emit=ir` (and `--emit=ir-unscheduled`) of every
//! `tests/in/*.c` and `tests/programs/*.c`, and of every snapshot in
//! `tests/out/ir`, must print back the same text. And the text must be
//! complete: the unscheduled module read back, scheduled, prints as
//! `--emit=ir` does, and the scheduled one read back gives the same SIMT
//! bytecode as `--emit=simt`.

use accc::ir::{print_module, read_module};
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// `accc --emit=<emit> <file>`'s stdout, or why not.
fn emit(file: &Path, emit: &str) -> Result<String, String> {
    let out = Command::new(env!("CARGO_BIN_EXE_accc"))
        .current_dir(root())
        .arg(format!("--emit={emit}"))
        .arg(file)
        .output()
        .map_err(|e| format!("cannot run accc: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "accc --emit={emit} {} failed:\n{}",
            file.display(),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    String::from_utf8(out.stdout).map_err(|_| "output is not UTF-8".into())
}

/// Reads `text` and prints it back; `Err` says where they differ.
fn round_trip(what: &str, text: &str) -> Result<accc::ir::Module, String> {
    let m = read_module(text).map_err(|e| format!("{what}: {e}"))?;
    let back = print_module(&m);
    if back != text {
        let line = text
            .lines()
            .zip(back.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(text.lines().count().min(back.lines().count()));
        return Err(format!(
            "{what}: printed back differently from line {}:\n  read:    {}\n  printed: {}",
            line + 1,
            text.lines().nth(line).unwrap_or(""),
            back.lines().nth(line).unwrap_or("")
        ));
    }
    Ok(m)
}

/// Every check for one C file.
fn check_c(file: &Path) -> Result<(), String> {
    let what = file.display().to_string();
    let unscheduled = emit(file, "ir-unscheduled")?;
    let scheduled = emit(file, "ir")?;
    let mut m = round_trip(&format!("{what} (unscheduled)"), &unscheduled)?;
    let sm = round_trip(&what, &scheduled)?;
    let problems = accc::ir::validate(&m, false);
    if !problems.is_empty() {
        return Err(format!("{what}: invalid unscheduled IR: {problems:?}"));
    }
    // As the driver schedules a lowered module.
    let _ = accc::schedule::prepare(&mut m);
    let info = accc::analysis::analyze(&m);
    accc::schedule::schedule(&mut m, &info, &accc::schedule::Target::gpu(90));
    accc::schedule::specialize(&mut m);
    if print_module(&m) != scheduled {
        return Err(format!(
            "{what}: the unscheduled IR read back schedules differently"
        ));
    }
    let simt = emit(file, "simt")?;
    let from_text =
        accc::codegen::simt::write_text(&sm, &accc::analysis::analyze(&sm), &Default::default())
            .map_err(|e| format!("{what}: simt: {e}"))?;
    if from_text != simt {
        return Err(format!(
            "{what}: the IR read back gives other SIMT bytecode"
        ));
    }
    Ok(())
}

fn files(dir: &str, ext: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(root().join(dir))
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    v.retain(|p| p.is_file() && p.extension().is_some_and(|x| x == ext));
    v.sort();
    v
}

/// Runs `check` over `inputs` on two threads; the failures.
fn run_all(inputs: Vec<PathBuf>, check: fn(&Path) -> Result<(), String>) -> Vec<String> {
    let (a, b): (Vec<_>, Vec<_>) = inputs.iter().enumerate().partition(|(i, _)| i % 2 == 0);
    std::thread::scope(|s| {
        let h = s.spawn(move || {
            a.iter()
                .filter_map(|(_, p)| check(p).err())
                .collect::<Vec<_>>()
        });
        let mut fails: Vec<String> = b.iter().filter_map(|(_, p)| check(p).err()).collect();
        fails.extend(
            h.join()
                .unwrap_or_else(|_| vec!["a checker panicked".into()]),
        );
        fails
    })
}

#[test]
fn snapshots_read_back() {
    let inputs = files("tests/out/ir", "ir");
    assert!(!inputs.is_empty());
    let fails: Vec<String> = inputs
        .iter()
        .filter_map(|p| {
            let text = std::fs::read_to_string(p).ok()?;
            round_trip(&p.display().to_string(), &text).err()
        })
        .collect();
    assert!(fails.is_empty(), "{}", fails.join("\n\n"));
}

#[test]
fn every_test_input_reads_back() {
    let mut inputs = files("tests/in", "c");
    inputs.extend(files("tests/programs", "c"));
    assert!(inputs.len() > 100);
    let fails = run_all(inputs, check_c);
    assert!(fails.is_empty(), "{}", fails.join("\n\n"));
}
