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
