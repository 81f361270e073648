//! Finding the tools and runtime pieces accc uses: the host C compiler,
//! ptxas, libdevice, libptxrt, `ptxrt.h` and the device plugin's folder —
//! relative to accc's own executable (the install layout
//! `PREFIX/{bin,lib,include}` and cargo's `target/<profile>/`), or through
//! environment variables.
//!
//! Owns: [`Tools`]. May call: nothing else in accc.

use std::path::{Path, PathBuf};

/// Where everything is.
#[derive(Debug, Clone)]
pub struct Tools {
    /// The host compiler (`$ACCC_HOST_CC`, default `cc`).
    pub host_cc: String,
    pub ptxas: Option<PathBuf>,
    /// nvcc for `--backend=cuda`: `$ACCC_NVCC` (even when it names no
    /// file: [`Tools::nvcc`] then says so), else `nvcc` on PATH, else the
    /// one `scripts/setup.sh` installs beside ptxas.
    pub nvcc: Option<PathBuf>,
    pub libdevice: Option<PathBuf>,
    /// Folder of libptxrt.a (and libptxrt-cuda.so).
    pub lib_dir: Option<PathBuf>,
    /// Folder of ptxrt.h and openacc.h.
    pub include_dir: Option<PathBuf>,
}

fn first_file(cands: impl IntoIterator<Item = PathBuf>) -> Option<PathBuf> {
    cands.into_iter().find(|p| p.is_file())
}

fn env_path(name: &str) -> Option<PathBuf> {
    std::env::var_os(name)
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
}

fn on_path(exe: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(exe))
        .find(|p| p.is_file())
}

impl Tools {
    /// Looks everything up.
    pub fn find() -> Tools {
        let exe_dir = std::env::current_exe()
            .ok()
            .and_then(|e| e.canonicalize().ok())
            .and_then(|e| e.parent().map(Path::to_path_buf))
            .unwrap_or_default();
        // target/<profile>/ → the repository; PREFIX/bin → PREFIX.
        let up1 = exe_dir.parent().map(Path::to_path_buf).unwrap_or_default();
        let repo = up1.parent().map(Path::to_path_buf).unwrap_or_default();
        let pip = |rel: &str| repo.join(".tools/pip/nvidia/cu13").join(rel);
        let lib_dir = [exe_dir.clone(), up1.join("lib")]
            .into_iter()
            .find(|d| d.join("libptxrt.a").is_file());
        let include_dir = env_path("ACCC_INCLUDE")
            .into_iter()
            .chain([up1.join("include"), repo.join("ptx-runtime/include")])
            .find(|d| d.join("ptxrt.h").is_file());
        Tools {
            host_cc: std::env::var("ACCC_HOST_CC")
                .ok()
                .filter(|s| !s.is_empty())
                .unwrap_or_else(|| "cc".into()),
            ptxas: first_file(
                env_path("ACCC_PTXAS")
                    .into_iter()
                    .chain([pip("bin/ptxas"), up1.join("lib/accc/ptxas")])
                    .chain(on_path("ptxas"))
                    .chain([PathBuf::from("/usr/local/cuda/bin/ptxas")]),
            ),
            nvcc: env_path("ACCC_NVCC").or_else(|| {
                first_file(
                    on_path("nvcc")
                        .into_iter()
                        .chain([pip("bin/nvcc"), PathBuf::from("/usr/local/cuda/bin/nvcc")]),
                )
            }),
            libdevice: first_file(env_path("ACCC_LIBDEVICE").into_iter().chain([
                pip("nvvm/libdevice/libdevice.10.bc"),
                up1.join("lib/accc/libdevice.10.bc"),
                PathBuf::from("/usr/local/cuda/nvvm/libdevice/libdevice.10.bc"),
            ])),
            lib_dir,
            include_dir,
        }
    }
}

impl Tools {
    /// The nvcc `--backend=cuda` runs, or the error saying how to name one.
    pub fn nvcc(&self) -> Result<&Path, String> {
        const NEEDS: &str = "--backend=cuda needs nvcc";
        match &self.nvcc {
            Some(p) if p.is_file() => Ok(p),
            Some(p) => Err(format!(
                "{NEEDS}: ACCC_NVCC={} is not a file (set ACCC_NVCC or put nvcc on PATH)",
                p.display()
            )),
            None => Err(format!("{NEEDS}: set ACCC_NVCC or put nvcc on PATH")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nvcc_missing_says_how_to_name_one() {
        let mut t = Tools::find();
        t.nvcc = None;
        assert_eq!(
            t.nvcc().unwrap_err(),
            "--backend=cuda needs nvcc: set ACCC_NVCC or put nvcc on PATH"
        );
        t.nvcc = Some(PathBuf::from("/nonexistent/nvcc"));
        assert!(t
            .nvcc()
            .unwrap_err()
            .contains("ACCC_NVCC=/nonexistent/nvcc is not a file"));
    }
}
