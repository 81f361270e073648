//! Running ptxas: PTX text → cubin for one architecture.
//!
//! Owns: [`assemble`] and the ptxas flags. Relocatable code (see
//! `ir::Module::relocatable`) is assembled with `-c` (compile only): the cubin is
//! then a relocatable ELF object (type `ET_REL`) that the runtime links with
//! the other images' cubins; without `-c` ptxas makes an executable cubin and
//! rejects a call to a function it cannot see.
//! May call: nothing else in accc.

use super::Error;
use std::path::Path;
use std::process::Command;

/// Assembles `ptx` for `arch` with the ptxas at `ptxas`; returns the cubin,
/// relocatable (`ptxas -c`) when `relocatable` is set, with the PTX's line
/// information (`.loc`) in its line table when `line_info` is
/// (`ptxas -lineinfo`; without it ptxas drops them).
pub fn assemble(
    ptx: &str,
    arch: &str,
    ptxas: &Path,
    relocatable: bool,
    line_info: bool,
) -> Result<Vec<u8>, Error> {
    let dir = tempfile::Builder::new()
        .prefix("accc-ptxas")
        .tempdir()
        .map_err(|e| Error::Ptxas(format!("cannot create a temporary folder: {e}")))?;
    let src = dir.path().join("k.ptx");
    let out = dir.path().join("k.cubin");
    std::fs::write(&src, ptx)
        .map_err(|e| Error::Ptxas(format!("cannot write {}: {e}", src.display())))?;
    let mut cmd = Command::new(ptxas);
    cmd.arg(format!("-arch={arch}")).arg("-O3");
    if relocatable {
        cmd.arg("-c");
    }
    if line_info {
        cmd.arg("-lineinfo");
    }
    let r = cmd
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codegen::nvptx::tests::tool;

    /// The hand-written PTX pair of tests/rdc: a kernel calling `add_one`,
    /// which the other image defines.
    const ADD_ONE: &str = include_str!("../../../tests/rdc/add_one.ptx");
    const KERNEL: &str = include_str!("../../../tests/rdc/kernel.ptx");

    /// The ELF type of a cubin: 1 = relocatable (ET_REL), 2 = executable.
    fn elf_type(cubin: &[u8]) -> u16 {
        assert!(cubin.starts_with(b"\x7fELF"));
        u16::from_le_bytes([cubin[16], cubin[17]])
    }

    #[test]
    fn relocatable_pair_assembles_with_c() {
        let Some(p) = tool("ACCC_PTXAS", "bin/ptxas") else {
            return;
        };
        for ptx in [ADD_ONE, KERNEL] {
            let cubin = assemble(ptx, "sm_90", &p, true, false).unwrap();
            assert_eq!(elf_type(&cubin), 1);
        }
        // Without -c: an executable cubin, and a call it cannot resolve fails.
        assert_eq!(
            elf_type(&assemble(ADD_ONE, "sm_90", &p, false, false).unwrap()),
            2
        );
        let e = assemble(KERNEL, "sm_90", &p, false, false)
            .unwrap_err()
            .to_string();
        assert!(e.contains("Unresolved extern function 'add_one'"), "{e}");
    }
}
