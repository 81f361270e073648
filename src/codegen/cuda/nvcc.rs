//! Running nvcc: CUDA C → the PTX of the device image (`-ptx`). The driver
//! assembles it as it assembles the NVPTX back end's: the same rewrites of
//! instructions ptxas miscompiles (`nvptx::avoid_ptxas_bugs`: NVVM emits
//! the same 16-bit negation LLVM does, `tests/programs/neg_narrow.c`), then
//! `nvptx::ptxas` at `-O3`.
//!
//! Owns: [`Flags`], [`compile`] and the nvcc command line, which follows
//! the NVPTX path's: NVVM at accc's device optimisation level (`-Xcicc
//! -O<n>`), floating contraction as the NVPTX back end's (`-fmad=true`,
//! nvcc's default, unless [`Flags::fma`] is off: `-fmad=false`), IEEE
//! division and square root and no flush to zero (nvcc's defaults),
//! `-lineinfo` with `-g`, `-rdc=true` for relocatable code (device
//! functions shared with other translation units). May call: nothing else
//! in accc.

use super::Error;
use std::path::Path;
use std::process::Command;

/// How to compile.
#[derive(Clone, Debug)]
pub struct Flags {
    /// GPU architecture (`sm_90`).
    pub arch: String,
    /// NVVM's optimisation level (0..3).
    pub opt_level: u8,
    /// `-lineinfo` (the driver sets it with `-g`).
    pub line_info: bool,
    /// Relocatable device code (`-rdc=true`).
    pub relocatable: bool,
    /// Floating contraction (`-fmad=true`; off: `-fmad=false`), as
    /// `nvptx::Options::fma`.
    pub fma: bool,
    /// Keep the folder of the CUDA C and nvcc's files (`--keep`; its
    /// path is printed).
    pub keep_files: bool,
}

/// What nvcc made of one translation unit.
#[derive(Debug)]
pub struct Output {
    pub ptx: String,
}

/// The nvcc arguments for compiling `src` to `out` with `keep` as the
/// folder of intermediate files.
pub fn args(f: &Flags, src: &Path, out: &Path, keep: &Path) -> Vec<String> {
    let mut v: Vec<String> = vec![
        format!("-arch={}", f.arch),
        "-ptx".into(),
        format!("-fmad={}", f.fma),
        "-Xcicc".into(),
        format!("-O{}", f.opt_level.min(3)),
        "-keep".into(),
        "-keep-dir".into(),
        keep.to_string_lossy().into_owned(),
    ];
    if f.line_info {
        v.push("-lineinfo".into());
    }
    if f.relocatable {
        v.push("-rdc=true".into());
    }
    v.extend([
        "-o".to_string(),
        out.to_string_lossy().into_owned(),
        src.to_string_lossy().into_owned(),
    ]);
    v
}

/// Compiles the CUDA C `cuda` with the nvcc at `nvcc`.
pub fn compile(cuda: &str, nvcc: &Path, f: &Flags, verbose: bool) -> Result<Output, Error> {
    let fail = |m: String| Error::Setup(m);
    let dir = tempfile::Builder::new()
        .prefix("accc-nvcc")
        .tempdir()
        .map_err(|e| fail(format!("cannot create a temporary folder: {e}")))?;
    let src = dir.path().join("k.cu");
    let out = dir.path().join("k.ptx");
    let keep = dir.path().join("keep");
    std::fs::create_dir(&keep)
        .and_then(|()| std::fs::write(&src, cuda))
        .map_err(|e| fail(format!("cannot write {}: {e}", src.display())))?;
    let mut cmd = Command::new(nvcc);
    cmd.args(args(f, &src, &out, &keep));
    if verbose {
        eprintln!("accc: {cmd:?}");
    }
    let r = cmd
        .output()
        .map_err(|e| fail(format!("cannot run {}: {e}", nvcc.display())))?;
    if !r.status.success() {
        let said = String::from_utf8_lossy(&r.stderr);
        if said.contains("cuda_runtime.h: No such file") {
            return Err(fail(format!(
                "{} has no CUDA headers (cuda_runtime.h): run scripts/setup.sh, or set ACCC_NVCC to the nvcc of a CUDA toolkit",
                nvcc.display()
            )));
        }
        return Err(Error::Nvcc(format!(
            "{} failed: {}{}",
            nvcc.display(),
            String::from_utf8_lossy(&r.stdout),
            String::from_utf8_lossy(&r.stderr).trim()
        )));
    }
    let ptx = std::fs::read_to_string(&out)
        .map_err(|e| fail(format!("nvcc left no PTX ({}): {e}", out.display())))?;
    if f.keep_files {
        eprintln!(
            "accc: CUDA C and nvcc's files kept in {}",
            dir.keep().display()
        );
    }
    Ok(Output { ptx })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_follow_accc() {
        let f = Flags {
            arch: "sm_80".into(),
            opt_level: 2,
            line_info: true,
            relocatable: true,
            fma: true,
            keep_files: false,
        };
        let a = args(&f, Path::new("k.cu"), Path::new("k.ptx"), Path::new("d"));
        let s = a.join(" ");
        assert!(
            s.starts_with("-arch=sm_80 -ptx -fmad=true -Xcicc -O2"),
            "{s}"
        );
        assert!(s.contains("-lineinfo") && s.contains("-rdc=true"), "{s}");
        assert!(s.ends_with("-o k.ptx k.cu"), "{s}");
        let f = Flags {
            line_info: false,
            relocatable: false,
            fma: false,
            ..f
        };
        let s = args(&f, Path::new("k.cu"), Path::new("k.ptx"), Path::new("d")).join(" ");
        assert!(!s.contains("-lineinfo") && !s.contains("-rdc"), "{s}");
        assert!(
            s.contains(" -fmad=false ") && !s.contains("-fmad=true"),
            "{s}"
        );
    }
}
