//! `-acc=multicore`: the device stages for the host's cores. The module,
//! scheduled for `ir::Target::Host`, is written as host C
//! (`codegen::cuda::write_host_c`), compiled by the host cc as its own
//! translation unit (so the program's macros and names never meet it) and
//! combined with the host object (`cc -r`) into the one object the
//! source gives; the image's `PTXRT_CODE_HOST` entry points at its symbol
//! table, and the program starts with `ACC_DEVICE_TYPE=multicore` (unless
//! the environment says otherwise), so the runtime's multicore device runs
//! the kernels.
//!
//! Owns: [`device`], [`compile`], [`SELECT`]. May call: `codegen::cuda`,
//! the driver's own helpers (`super`).

use super::{host_compile, run_cmd, write_out, Args, Device, Reported, Tools};
use crate::analysis::ModuleInfo;
use crate::codegen::{cuda, nvptx};
use anyhow::{anyhow, bail, Result};
use std::path::Path;
use std::process::Command;

/// The C that makes the multicore device the program's default device type.
pub const SELECT: &str = "\nextern int setenv(const char *, const char *, int);\n__attribute__((constructor)) static void __accc_multicore(void) { setenv(\"ACC_DEVICE_TYPE\", \"multicore\", 0); }\n";

/// The device stages after scheduling for the host's cores: writes the
/// form `--emit` asks for (`cuda`: the kernels' host C) and gives `None`,
/// or gives what the object needs.
pub fn device(
    m: &crate::ir::Module,
    info: &ModuleInfo,
    file: &str,
    emit: Option<&str>,
    out: Option<&Path>,
    opts: nvptx::Options,
) -> Result<Option<Device>> {
    let code = || cuda::write_host_c(m, info, true).map_err(|e| anyhow!("{file}: {e}"));
    match emit {
        Some("cuda") => {
            write_out(out, code()?.as_bytes())?;
            return Ok(None);
        }
        Some(e @ ("llvm" | "ptx" | "simt")) => {
            bail!("{file}: --emit={e} needs the GPU target (not -acc=multicore); --emit=cuda gives the kernels' host C")
        }
        _ => {}
    }
    let any = !m.kernels.is_empty() || !m.functions.is_empty();
    Ok(Some(Device {
        ptx: String::new(),
        cubin: None,
        simt: None,
        opts,
        relocatable: false,
        has_kernels: !m.kernels.is_empty(),
        host_kernels: any.then(code).transpose()?,
    }))
}

/// The host cc's flags for the kernels' C: GNU C, optimised at least as
/// the device code is (-O2), no strict aliasing (the IR reads memory
/// through the types of its accesses), no warnings (generated code), and
/// the user's code-generation flags (`-f…`, `-m…`, `-g…`); contraction is
/// the host compiler's default unless the user turned it off for the
/// device code (`-gpu=nofma`, `-Mnofma`, `-ffp-contract=off`:
/// `-ffp-contract=off`, after the user's flags). Fast math is the host
/// compiler's: `-ffast-math` and `-fno-fast-math` reach it among the
/// user's flags, and `-Ofast` as its `-ffast-math` (the level is accc's);
/// `-gpu=fastmath` and `-Mfprelaxed`, which are for GPU code only, do not.
fn flags(args: &Args) -> Vec<String> {
    let mut v: Vec<String> = vec![
        "-x".into(),
        "c".into(),
        "-std=gnu11".into(),
        format!("-O{}", args.opt_level.max(2)),
        "-w".into(),
    ];
    v.extend(
        args.cc_flags
            .iter()
            .map(|f| if f == "-Ofast" { "-ffast-math" } else { f })
            .filter(|f| {
                (f.starts_with("-f") || f.starts_with("-m") || f.starts_with("-g"))
                    && !f.starts_with("-fdiagnostics")
            })
            .map(String::from),
    );
    if !args.fma {
        v.push("-ffp-contract=off".into());
    }
    v.push("-fno-strict-aliasing".into());
    v
}

/// Compiles `host_c` and the kernels' C `kernels` of `file` into `out`:
/// one object (`cc -r` of the two), or with `-S` the host assembly in
/// `out` and the kernels' beside it (`NAME.kernels.s`).
pub fn compile(
    tools: &Tools,
    args: &Args,
    file: &str,
    host_c: &str,
    kernels: &str,
    out: &Path,
) -> Result<()> {
    let tmp = tempfile::Builder::new().prefix("accc").tempdir()?;
    // With -keep, the folder outlives the run (`_guard` removes it otherwise).
    let (_guard, dir) = if args.own.keep {
        let d = tmp.keep();
        eprintln!(
            "accc: host C of the kernels of {file} kept in {}",
            d.join("kernels.c").display()
        );
        (None, d)
    } else {
        let d = tmp.path().to_path_buf();
        (Some(tmp), d)
    };
    let src = dir.join("kernels.c");
    std::fs::write(&src, kernels)?;
    let (host_out, kernels_out) = if args.assemble_only {
        (out.to_path_buf(), out.with_extension("kernels.s"))
    } else {
        (dir.join("host.o"), dir.join("kernels.o"))
    };
    host_compile(tools, args, file, host_c, &host_out)?;
    let mut cmd = Command::new(&tools.host_cc);
    cmd.arg(if args.assemble_only { "-S" } else { "-c" })
        .args(flags(args))
        .arg(&src)
        .arg("-o")
        .arg(&kernels_out);
    run(&mut cmd, args, file)?;
    if args.assemble_only {
        return Ok(());
    }
    let mut cmd = Command::new(&tools.host_cc);
    cmd.args(["-r", "-nostdlib"])
        .arg(&host_out)
        .arg(&kernels_out)
        .arg("-o")
        .arg(out);
    run(&mut cmd, args, file)
}

/// Runs `cmd`, a step accc's own C needs (its failure is accc's bug):
/// stops with the tool's messages.
fn run(cmd: &mut Command, args: &Args, file: &str) -> Result<()> {
    let r = run_cmd(cmd, args.own.verbose)?;
    if !r.status.success() {
        eprint!("{}", String::from_utf8_lossy(&r.stderr));
        eprintln!("{file}: internal compiler error: the host compiler rejected the kernels' host C (accc -acc=multicore)");
        return Err(Reported.into());
    }
    Ok(())
}
