//! Running nvcc: CUDA C → the PTX of the device image (`-ptx`). The driver
//! assembles it as it assembles the NVPTX back end's: the same rewrites of
//! instructions ptxas miscompiles (`nvptx::avoid_ptxas_bugs`: NVVM emits
//! the same 16-bit negation LLVM does, `tests/programs/neg_narrow.c`), then
//! `nvptx::ptxas` at `-O3`.
//!
//! Owns: [`Flags`], [`compile`] and the nvcc command line, which follows
//! the NVPTX path's: NVVM at accc's device optimisation level (`-Xcicc
//! -O<n>`), floating contraction as the NVPTX back end's (`-fmad=true`,
//! nvcc's default, unless [`Flags::fma`] is off: `-fmad=false`, which
//! nvcc keeps even after `-use_fast_math`), IEEE division and square root
//! and no flush to zero (nvcc's defaults) unless [`Flags::fast`] relaxes
//! them: all of it is `-use_fast_math`; a part is `-ftz=true`,
//! `-prec-div=false` (division, and reciprocals: nvcc cannot relax those
//! alone) or `-prec-sqrt=false` (`sqrtf`, and `1 / sqrtf`: the same), and
//! the fast library functions come only with all of it. `-lineinfo` with
//! `-g`, `-rdc=true` for relocatable code (device functions shared with
//! other translation units). May call: nothing else in accc but the
//! [`FastMath`] type of `codegen`.

use super::Error;
use crate::codegen::fastmath::FastMath;
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
    /// Relaxed single-precision math, as `nvptx::Options::fast`.
    pub fast: FastMath,
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
    if f.fast == FastMath::ALL {
        v.push("-use_fast_math".into());
    } else {
        let fast = &f.fast;
        for (on, flag) in [
            (fast.ftz, "-ftz=true"),
            (fast.div || fast.recip, "-prec-div=false"),
            (fast.sqrt || fast.rsqrt, "-prec-sqrt=false"),
        ] {
            if on {
                v.push(flag.into());
            }
        }
    }
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
            fast: FastMath::default(),
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
        for flag in ["-use_fast_math", "-ftz", "-prec-div", "-prec-sqrt"] {
            assert!(!s.contains(flag), "precise by default: {s}");
        }
    }

    #[test]
    fn fast_math_flags() {
        let f = |fast: FastMath| {
            let f = Flags {
                arch: "sm_90".into(),
                opt_level: 3,
                line_info: false,
                relocatable: false,
                fma: false,
                fast,
                keep_files: false,
            };
            args(&f, Path::new("k.cu"), Path::new("k.ptx"), Path::new("d")).join(" ")
        };
        let all = f(FastMath::ALL);
        assert!(all.contains(" -use_fast_math "), "{all}");
        // -fmad=false stays (nvcc keeps it after -use_fast_math).
        assert!(all.contains(" -fmad=false "), "{all}");
        assert!(!all.contains("-prec-") && !all.contains("-ftz"), "{all}");
        let rsqrt = f(FastMath {
            rsqrt: true,
            ..FastMath::default()
        });
        assert!(rsqrt.contains(" -prec-sqrt=false "), "{rsqrt}");
        assert!(
            !rsqrt.contains("-prec-div") && !rsqrt.contains("-use_fast_math"),
            "{rsqrt}"
        );
        let part = f(FastMath {
            recip: true,
            ftz: true,
            funcs: true,
            ..FastMath::default()
        });
        assert!(
            part.contains(" -ftz=true -prec-div=false ") && !part.contains("-prec-sqrt"),
            "{part}"
        );
    }
}
