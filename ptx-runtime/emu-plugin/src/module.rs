//! Modules and launches of the emulated device: SIMT bytecode decoded and
//! linked into programs (`ptxrt_simt::link`, which places the programs'
//! globals — the device address cells — in device memory), kernels and
//! globals looked up by name, launches checked as the driver checks them
//! (geometry, shared memory: an error at once) and run by the emulator in
//! stream order. A kernel's fault becomes the device's sticky error; in
//! `PTXRT_EMU_RACECHECK=warn` mode each race found is one stderr line
//! (`ptxrt-emu: warning: data race …`). Device printf goes to C's stdout.
//!
//! A kernel's limits (`function_limits`) are the device's: no registers
//! or shared memory limit a block, and an SM holds as many blocks as its
//! threads allow.
//!
//! Owns: [`Modules`] and the module, function and launch entry points. May call: the
//! crate root, [`crate::stream`], `ptxrt-simt`.

use crate::stream::enqueue;
use crate::{out, with_device, Device, R};
use ptxrt_plugin_abi::{FunctionLimits, LinkInput, LINK_INPUT_SIMT};
use ptxrt_simt::{self as simt, Launch, Program};
use std::collections::HashMap;
use std::ffi::{c_char, c_void, CStr};
use std::sync::Arc;

/// The loaded programs and the kernels looked up in them.
#[derive(Default)]
pub struct Modules {
    programs: HashMap<usize, Arc<Program>>,
    /// Function handle → (module handle, kernel index).
    functions: HashMap<usize, (usize, usize)>,
}

extern "C" {
    static mut stdout: *mut c_void;
    fn fwrite(ptr: *const c_void, size: usize, n: usize, stream: *mut c_void) -> usize;
}

/// Writes device printf output to C's `stdout` (in order with the
/// program's own printf, whose buffer it shares).
fn print(bytes: &[u8]) {
    if bytes.is_empty() {
        return;
    }
    // SAFETY: glibc's `stdout` is a valid FILE for the program's life;
    // fwrite locks it.
    unsafe {
        let f = stdout;
        fwrite(bytes.as_ptr().cast(), 1, bytes.len(), f);
    }
}

fn decode(bytes: &[u8], what: &str) -> R<simt::Module> {
    simt::decode(bytes).map_err(|e| {
        format!("libptxrt-emu: cannot load {what}: {e} (the emulated device runs the SIMT bytecode of accc -gpu=emu)")
    })
}

fn add(d: &mut Device, mods: &[simt::Module], module: *mut *mut c_void) -> R<()> {
    let module = out(module, "module")?;
    let prog = simt::link(mods, &mut d.mem).map_err(|e| format!("libptxrt-emu: {e}"))?;
    let h = d.handle();
    d.modules.programs.insert(h, Arc::new(prog));
    *module = h as *mut c_void;
    Ok(())
}

pub(crate) unsafe extern "C" fn module_load_data(
    dev: i32,
    image: *const u8,
    len: usize,
    module: *mut *mut c_void,
) -> i32 {
    with_device(dev, "cuModuleLoadDataEx", |d| {
        if image.is_null() || len == 0 {
            return Err("libptxrt-emu: empty device image".to_string());
        }
        // SAFETY: libptxrt passes the image's bytes and their length.
        let bytes = unsafe { std::slice::from_raw_parts(image, len) };
        let m = decode(bytes, "the device code")?;
        add(d, &[m], module)
    })
}

pub(crate) unsafe extern "C" fn link_module(
    dev: i32,
    inputs: *const LinkInput,
    n: usize,
    module: *mut *mut c_void,
) -> i32 {
    with_device(dev, "cuLinkComplete", |d| {
        if inputs.is_null() || n == 0 {
            return Err("libptxrt-emu: nothing to link".to_string());
        }
        // SAFETY: libptxrt passes an array of n inputs.
        let inputs = unsafe { std::slice::from_raw_parts(inputs, n) };
        let mut mods = vec![];
        for (i, input) in inputs.iter().enumerate() {
            let name = if input.name.is_null() {
                format!("input {i}")
            } else {
                // SAFETY: a NUL-terminated name.
                unsafe { CStr::from_ptr(input.name) }
                    .to_string_lossy()
                    .into_owned()
            };
            if input.kind != LINK_INPUT_SIMT || input.data.is_null() {
                return Err(format!(
                    "libptxrt-emu: link input {name} is not SIMT bytecode (kind {})",
                    input.kind
                ));
            }
            // SAFETY: libptxrt passes `len` bytes at `data`.
            let bytes = unsafe { std::slice::from_raw_parts(input.data, input.len) };
            mods.push(decode(bytes, &format!("the device code of {name}"))?);
        }
        add(d, &mods, module)
    })
}

fn program(d: &Device, module: *mut c_void) -> R<Arc<Program>> {
    d.modules
        .programs
        .get(&(module as usize))
        .cloned()
        .ok_or_else(|| "libptxrt-emu: CUDA_ERROR_INVALID_HANDLE: no such module".to_string())
}

fn name_of(name: *const c_char) -> R<String> {
    if name.is_null() {
        return Err("libptxrt-emu: null name".into());
    }
    // SAFETY: a NUL-terminated name.
    Ok(unsafe { CStr::from_ptr(name) }
        .to_string_lossy()
        .into_owned())
}

pub(crate) unsafe extern "C" fn module_get_function(
    dev: i32,
    module: *mut c_void,
    name: *const c_char,
    func: *mut *mut c_void,
) -> i32 {
    with_device(dev, "cuModuleGetFunction", |d| {
        let func = out(func, "function")?;
        let p = program(d, module)?;
        let name = name_of(name)?;
        let Some(k) = p.kernel(&name) else {
            return Err(format!(
                "cuModuleGetFunction: CUDA_ERROR_NOT_FOUND (emulated): no kernel '{name}'"
            ));
        };
        let h = d.handle();
        d.modules.functions.insert(h, (module as usize, k));
        *func = h as *mut c_void;
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn function_limits(
    dev: i32,
    func: *mut c_void,
    threads: u32,
    limits: *mut FunctionLimits,
) -> i32 {
    with_device(dev, "cuFuncGetAttribute", |d| {
        let limits = out(limits, "limits")?;
        if !d.modules.functions.contains_key(&(func as usize)) {
            return Err("cuFuncGetAttribute: CUDA_ERROR_INVALID_HANDLE (emulated)".to_string());
        }
        let info = crate::info();
        let per_sm = u32::try_from(info.max_threads_per_sm).unwrap_or(0);
        let most = u32::try_from(info.max_threads_per_block).unwrap_or(0);
        let blocks = match threads {
            0 => 0,
            t if t > most => 0,
            t => (per_sm / t).max(1),
        };
        *limits = FunctionLimits {
            max_threads: info.max_threads_per_block,
            blocks_per_sm: i32::try_from(blocks).unwrap_or(i32::MAX),
            ..FunctionLimits::NONE
        };
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn module_get_global(
    dev: i32,
    module: *mut c_void,
    name: *const c_char,
    p: *mut u64,
    bytes: *mut usize,
) -> i32 {
    with_device(dev, "cuModuleGetGlobal", |d| {
        let (p, bytes) = (out(p, "global pointer")?, out(bytes, "global size")?);
        let prog = program(d, module)?;
        let name = name_of(name)?;
        let Some((addr, size)) = prog.global(&name) else {
            return Err(format!(
                "cuModuleGetGlobal({name}): CUDA_ERROR_NOT_FOUND (emulated)"
            ));
        };
        *p = addr;
        *bytes = size as usize;
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn module_unload(dev: i32, module: *mut c_void) -> i32 {
    with_device(dev, "cuModuleUnload", |d| {
        crate::stream::run_all(d)?;
        let Some(p) = d.modules.programs.remove(&(module as usize)) else {
            return Err("cuModuleUnload: CUDA_ERROR_INVALID_HANDLE (emulated)".into());
        };
        d.modules
            .functions
            .retain(|_, (m, _)| *m != module as usize);
        p.free_globals(&mut d.mem);
        Ok(())
    })
}

/// Runs launch `l` of kernel `k` of `p` on `d` (in stream order): races
/// found in warn mode are printed, a fault becomes the device's error.
#[allow(clippy::too_many_arguments)]
fn run(
    d: &mut Device,
    p: &Program,
    k: usize,
    grid: [u32; 3],
    block: [u32; 3],
    shared: u32,
    params: &[Vec<u8>],
) {
    let l = Launch {
        kernel: k,
        grid,
        block,
        dyn_shared: shared,
        params,
    };
    let started = std::time::Instant::now();
    match simt::launch(
        p,
        &d.mem,
        &mut d.race,
        d.mode,
        &d.limits,
        &l,
        &print,
        d.workers,
    ) {
        Ok(report) => {
            for w in report.warnings {
                eprintln!("ptxrt-emu: warning: {w}");
            }
            if d.stats {
                let threads = grid
                    .iter()
                    .chain(&block)
                    .map(|&n| u64::from(n))
                    .product::<u64>();
                eprintln!(
                    "ptxrt-emu: {} grid=({},{},{}) block=({},{},{}): {threads} threads, {} instructions, {:.3} s",
                    p.kernels[k].name,
                    grid[0],
                    grid[1],
                    grid[2],
                    block[0],
                    block[1],
                    block[2],
                    report.instructions,
                    started.elapsed().as_secs_f64()
                );
            }
        }
        Err(e) => d.sticky = Some(e),
    }
}

pub(crate) unsafe extern "C" fn launch(
    dev: i32,
    func: *mut c_void,
    grid: *const u32,
    block: *const u32,
    shared_bytes: u32,
    args: *mut *mut c_void,
    stream: *mut c_void,
) -> i32 {
    with_device(dev, "cuLaunchKernel", |d| {
        if grid.is_null() || block.is_null() {
            return Err("libptxrt-emu: launch with a null geometry".to_string());
        }
        let Some(&(m, k)) = d.modules.functions.get(&(func as usize)) else {
            return Err("cuLaunchKernel: CUDA_ERROR_INVALID_HANDLE (emulated)".to_string());
        };
        let p = program(d, m as *mut c_void)?;
        // SAFETY: libptxrt passes arrays of 3.
        let (g, b) = unsafe {
            (
                std::slice::from_raw_parts(grid, 3),
                std::slice::from_raw_parts(block, 3),
            )
        };
        let (g, b) = ([g[0], g[1], g[2]], [b[0], b[1], b[2]]);
        // The parameters are read now, as cuLaunchKernel reads them.
        let kp = &p.kernels[k].params;
        if !kp.is_empty() && args.is_null() {
            return Err("cuLaunchKernel: CUDA_ERROR_INVALID_VALUE (emulated): no arguments".into());
        }
        let mut params = vec![];
        for (i, kparam) in kp.iter().enumerate() {
            // SAFETY: args holds one pointer per kernel parameter, each to
            // a value of the parameter's size.
            let v = unsafe {
                let a = *args.add(i);
                if a.is_null() {
                    return Err(format!(
                        "cuLaunchKernel: CUDA_ERROR_INVALID_VALUE (emulated): argument {i} is null"
                    ));
                }
                std::slice::from_raw_parts(a.cast::<u8>(), kparam.size as usize).to_vec()
            };
            params.push(v);
        }
        let l = Launch {
            kernel: k,
            grid: g,
            block: b,
            dyn_shared: shared_bytes,
            params: &params,
        };
        simt::check_launch(&p, &l, &d.limits).map_err(|e| format!("cuLaunchKernel: {e}"))?;
        let queued = !stream.is_null();
        enqueue(
            d,
            stream,
            Box::new(move |d: &mut Device| {
                run(d, &p, k, g, b, shared_bytes, &params);
                match &d.sticky {
                    // A fault on a stream: the wait that reaches it reports
                    // it (on the default stream: the next call).
                    Some(e) if queued => Err(e.clone()),
                    _ => Ok(()),
                }
            }),
        )
    })
}
