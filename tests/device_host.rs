//! Device code run on the host: CI has no GPU and its host fallback runs
//! the original C, so a device miscompile shows only in the GPU bundle.
//! These tests close part of that gap for code whose logic is subtle (the
//! x87 `long double` conversions, complex arithmetic, atomic captures).
//!
//! Each `tests/devhost/<name>.c` has a function holding one `serial`
//! region and a driver under `#ifdef DEVHOST_MAIN`. The region's kernel is
//! compiled by accc (`--emit=llvm`: the optimised LLVM IR the PTX comes
//! from), retargeted to x86-64 (the few NVVM-only names replaced by their
//! generic LLVM forms, anything else NVVM-only is a failure that names it)
//! and compiled with LLVM 22's `llc`. The driver, built by the host `cc`
//! with `-DKERNEL=<kernel>` and `-DKERNEL_ARGS=<its parameters' names, in
//! order>`, runs the plain C function and the kernel (host memory standing
//! for device memory) on the same data and prints `PASS` when their results
//! agree. A serial kernel runs as one thread: its block and grid registers
//! are constants, so no launch is needed.

mod common;

use common::*;
use std::path::{Path, PathBuf};
use std::process::Command;

/// `llc` of the LLVM accc is built with.
fn llc() -> Result<PathBuf, String> {
    for config in ["llvm-config-22", "llvm-config"] {
        if let Ok(out) = Command::new(config).arg("--bindir").output() {
            let p = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim()).join("llc");
            if out.status.success() && p.exists() {
                return Ok(p);
            }
        }
    }
    Err("llc of LLVM 22 not found (llvm-config-22 --bindir); scripts/setup.sh installs it".into())
}

/// The first kernel of `accc --emit=ir` output: its name and parameters.
fn kernel_signature(ir: &str) -> Option<(String, Vec<String>)> {
    let mut lines = ir.lines().skip_while(|l| !l.starts_with("kernel @"));
    let head = lines.next()?;
    let name = head
        .strip_prefix("kernel @")?
        .split_whitespace()
        .next()?
        .to_string();
    let params = lines
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.trim().strip_prefix("param %"))
        .filter_map(|l| Some(l.split_once(' ')?.1.split_once(':')?.0.to_string()))
        .collect();
    Some((name, params))
}

/// NVPTX LLVM IR made x86-64 LLVM IR; `Err` names what has no host form.
fn retarget(ll: &str) -> Result<String, String> {
    let mut out = String::new();
    for line in ll.lines() {
        if line.starts_with("target datalayout") || line.starts_with("!nvvmir.version") {
            continue;
        }
        if line.starts_with("target triple") {
            out.push_str("target triple = \"x86_64-pc-linux-gnu\"\n");
            continue;
        }
        let l = line
            .replace("ptx_kernel ", "")
            .replace("syncscope(\"device\") ", "")
            .replace("@llvm.nvvm.fabs.", "@llvm.fabs.");
        let l = match l.find("\"nvvm.maxntid\"=") {
            Some(i) => {
                let rest = &l[i + "\"nvvm.maxntid\"=".len()..];
                let end = rest[1..].find('"').map_or(0, |e| e + 2);
                format!("{}{}", &l[..i], &rest[end..])
            }
            None => l,
        };
        // Metadata (module flags such as `nvvm-reflect-ftz`) means nothing
        // to the host back end.
        if let Some(i) = l.find("nvvm").filter(|_| !l.starts_with('!')) {
            return Err(format!(
                "the kernel uses '{}', which has no host form here",
                &l[i..(i + 40).min(l.len())]
            ));
        }
        out.push_str(&l);
        out.push('\n');
    }
    Ok(out)
}

fn check(src: &Path) -> Result<(), String> {
    let name = src.file_stem().unwrap().to_string_lossy().to_string();
    let dir = root().join("target/tmp/devhost").join(&name);
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let step = |cmd: Command, tag: &str| -> Result<Run, String> {
        let r = run(cmd, &dir, tag, COMPILE_TIMEOUT);
        if r.ok() {
            Ok(r)
        } else {
            Err(format!(
                "{tag} failed ({}):\n{}{}",
                r.describe_status(),
                tail(&r.stdout, 2000),
                tail(&r.stderr, 4000)
            ))
        }
    };
    let mut c = accc();
    c.arg("--emit=ir").arg(src);
    let ir = step(c, "accc-ir")?.stdout;
    let (kernel, params) = kernel_signature(&ir).ok_or("accc made no kernel")?;
    let ll = dir.join("kernel.ll");
    let mut c = accc();
    c.arg("--emit=llvm").arg(src).arg("-o").arg(&ll);
    step(c, "accc-llvm")?;
    let text = std::fs::read_to_string(&ll).map_err(|e| e.to_string())?;
    let host_ll = dir.join("kernel.host.ll");
    std::fs::write(&host_ll, retarget(&text)?).map_err(|e| e.to_string())?;
    let obj = dir.join("kernel.o");
    let mut c = Command::new(llc()?);
    c.args(["-O2", "-filetype=obj"])
        .arg(&host_ll)
        .arg("-o")
        .arg(&obj);
    step(c, "llc")?;
    let exe = dir.join("driver");
    let mut c = Command::new(host_cc());
    c.args(["-O1", "-std=gnu17", "-w", "-DDEVHOST_MAIN"])
        .arg(format!("-DKERNEL={kernel}"))
        .arg(format!("-DKERNEL_ARGS={}", params.join(",")))
        .arg(src)
        .arg(&obj)
        .arg("-lm")
        .arg("-o")
        .arg(&exe);
    step(c, "cc")?;
    let r = run(Command::new(&exe), &dir, "run", RUN_TIMEOUT);
    if !r.ok() || !r.stdout.lines().any(|l| l.trim() == "PASS") {
        return Err(format!(
            "the kernel and the plain C disagree ({}):\n{}{}",
            r.describe_status(),
            tail(&r.stdout, 4000),
            tail(&r.stderr, 2000)
        ));
    }
    Ok(())
}

#[test]
fn device_code_on_the_host() {
    let mut srcs: Vec<PathBuf> = std::fs::read_dir(tests_dir().join("devhost"))
        .expect("tests/devhost exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .collect();
    srcs.sort();
    assert!(!srcs.is_empty(), "no tests in tests/devhost");
    check_all(
        "devhost",
        &srcs,
        |p| p.file_stem().unwrap().to_string_lossy().to_string(),
        |p| check(p),
    );
}

#[test]
fn retargeting_rewrites_and_refuses() {
    let ll = "target datalayout = \"e-i64:64\"\ntarget triple = \"nvptx64-nvidia-cuda\"\ndefine ptx_kernel void @k(ptr %p) #0 {\n  %a = load atomic i32, ptr %p syncscope(\"device\") monotonic, align 4\n  %b = call double @llvm.nvvm.fabs.f64(double 1.0)\n  ret void\n}\nattributes #0 = { nounwind \"nvvm.maxntid\"=\"1,1,1\" }\n";
    let got = retarget(ll).unwrap();
    assert!(got.contains("target triple = \"x86_64-pc-linux-gnu\""));
    assert!(!got.contains("datalayout") && !got.contains("nvvm") && !got.contains("ptx_kernel"));
    assert!(got.contains("@llvm.fabs.f64") && got.contains("load atomic i32, ptr %p monotonic"));
    let bad = "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n";
    assert!(retarget(bad)
        .unwrap_err()
        .contains("nvvm.read.ptx.sreg.tid.x"));
    let ir = "module \"x\"\n\nkernel @k0 serial \"serial\" at x.c:3:1\n  launch grid=(1, 1, 1) block=(1, 1, 1)\n  param %0 n: i32 value\n  param %2 a: ptr<f64> deviceptr\n  local %1 tmp: i32\n{\n";
    assert_eq!(
        kernel_signature(ir),
        Some(("k0".to_string(), vec!["n".to_string(), "a".to_string()]))
    );
}
