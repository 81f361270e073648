//! Running ptxas: PTX text → cubin for one architecture.
//!
//! Owns: [`assemble`]. May call: nothing else in accc.

use super::Error;
use std::path::Path;
use std::process::Command;

/// Assembles `ptx` for `arch` with the ptxas at `ptxas`; returns the cubin.
pub fn assemble(ptx: &str, arch: &str, ptxas: &Path) -> Result<Vec<u8>, Error> {
    let dir = tempfile::Builder::new()
        .prefix("accc-ptxas")
        .tempdir()
        .map_err(|e| Error::Ptxas(format!("cannot create a temporary folder: {e}")))?;
    let src = dir.path().join("k.ptx");
    let out = dir.path().join("k.cubin");
    std::fs::write(&src, ptx)
        .map_err(|e| Error::Ptxas(format!("cannot write {}: {e}", src.display())))?;
    let r = Command::new(ptxas)
        .arg(format!("-arch={arch}"))
        .arg("-O3")
        .arg("-o")
        .arg(&out)
        .arg(&src)
        .output()
        .map_err(|e| Error::Ptxas(format!("cannot run {}: {e}", ptxas.display())))?;
    if !r.status.success() {
        return Err(Error::Ptxas(format!(
            "{} failed: {}",
            ptxas.display(),
            String::from_utf8_lossy(&r.stderr).trim()
        )));
    }
    std::fs::read(&out).map_err(|e| Error::Ptxas(format!("cannot read {}: {e}", out.display())))
}
