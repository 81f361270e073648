//! libdevice in an NVPTX module: linking its bitcode in (with the
//! `nvvm-reflect-ftz` flag its functions ask), then giving internal linkage
//! to everything that is neither a kernel nor an exported device function,
//! so the optimiser may inline and drop what is unused.
//!
//! Owns: [`link_libdevice`], [`internalize`]. May call: `ir` (the module's
//! kernel and function names).

use super::Error;
use crate::ir::Module;
use inkwell::context::Context;
use inkwell::module::{FlagBehavior, Linkage};
use inkwell::targets::TargetMachine;

/// Links the libdevice bitcode at `path` into `module` and sets
/// `nvvm-reflect-ftz` = `ftz` (0: no flush-to-zero, like nvcc's default).
pub(super) fn link_libdevice<'c>(
    ctx: &'c Context,
    module: &inkwell::module::Module<'c>,
    tm: &TargetMachine,
    path: &std::path::Path,
    ftz: bool,
) -> Result<(), Error> {
    let lib = inkwell::module::Module::parse_bitcode_from_path(path, ctx)
        .map_err(|e| Error::Llvm(format!("cannot read libdevice {}: {e}", path.display())))?;
    lib.set_triple(&tm.get_triple());
    lib.set_data_layout(&tm.get_target_data().get_data_layout());
    module
        .link_in_module(lib)
        .map_err(|e| Error::Llvm(format!("cannot link libdevice {}: {e}", path.display())))?;
    module.add_basic_value_flag(
        "nvvm-reflect-ftz",
        FlagBehavior::Override,
        ctx.i32_type().const_int(u64::from(ftz), false),
    );
    Ok(())
}

/// Gives internal linkage to every defined function and global that is
/// neither a kernel nor an exported device function (libdevice's), so the
/// optimiser may inline and drop them.
pub(super) fn internalize(module: &inkwell::module::Module, m: &Module) {
    let keep = |name: &str| {
        m.kernels.iter().any(|k| k.name == name) || m.functions.iter().any(|f| f.name == name)
    };
    let mut f = module.get_first_function();
    while let Some(func) = f {
        let name = func.get_name().to_string_lossy();
        if func.count_basic_blocks() > 0 && !keep(&name) {
            func.set_linkage(Linkage::Internal);
        }
        f = func.get_next_function();
    }
    let mut g = module.get_first_global();
    while let Some(global) = g {
        let name = global.get_name().to_string_lossy();
        if global.get_initializer().is_some() && !keep(&name) {
            global.set_linkage(Linkage::Internal);
        }
        g = global.get_next_global();
    }
}
