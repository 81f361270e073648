//! libptxrt-cuda.so: the CUDA device plugin of libptxrt.
//!
//! Owns: every call into the CUDA driver (through `cust` and its raw bindings
//! `cust::sys`) and one retained primary context per device. Implements the
//! entry points declared once in `ptxrt-plugin-abi` (`for_each_entry!`),
//! exported as `__ptxrt_plugin_<name>` by its `export_entries!` (which also
//! gives the ABI version and the per-thread last error text, kept by
//! `ptxrt_plugin_abi::support`).
//! May call: the driver, `ptxrt-plugin-abi`. Never calls back into libptxrt.
//!
//! Loaded only with dlopen by libptxrt (never linked into a program), so a
//! program runs on a machine with no CUDA driver. Every driver call's result is
//! checked; a failure becomes "<call>: <CUDA_ERROR_NAME>: <driver string>"
//! (plus the JIT or linker logs for a module load or link), kept for
//! `last_error`. Every entry point that names a device makes its primary
//! context current in the calling thread first. No panic crosses the C
//! boundary (each entry point is wrapped in `catch_unwind`).
//!
//! [`module`] holds the module entry points (load, link, lookup, globals,
//! unload); [`memory`] device and page-locked host memory and copies;
//! [`stream`] streams, events and host functions; this file the driver
//! state, error handling and the other entry points.

use cust::context::Context;
use cust::device::Device;
use cust::sys as cu;
use ptxrt_plugin_abi::{export_entries, support, DeviceInfo};
use std::ffi::{c_char, c_void, CStr};
use std::ptr;
use std::sync::{Mutex, MutexGuard};

pub mod memory;
pub mod module;
pub mod stream;
pub(crate) use memory::{
    host_alloc, host_free, host_is_pinned, mem_get_info, memcpy_dtod, memcpy_dtod_async,
    memcpy_dtoh_async, memcpy_htod_async, memset_zero, memset_zero_async,
};
pub(crate) use module::{
    function_limits, link_module, module_get_function, module_get_global, module_load_data,
    module_unload,
};
pub(crate) use stream::{
    event_create, event_create_timed, event_destroy, event_elapsed, event_query, event_record,
    event_synchronize, launch_host_func, stream_create, stream_destroy, stream_query,
    stream_synchronize, stream_wait_event,
};

// The exported entry points `__ptxrt_plugin_<name>` (and the ABI version
// and last error), generated from the ABI's entry list: each calls the
// function of that name here.
ptxrt_plugin_abi::for_each_entry!(export_entries);

/// The plugin's name in its messages.
const NAME: &str = "libptxrt-cuda";

/// Driver state shared by all threads: whether cuInit succeeded and the
/// retained primary context of each device (index = ordinal), made lazily.
struct State {
    initialised: bool,
    contexts: Vec<Option<Context>>,
}

static STATE: Mutex<State> = Mutex::new(State {
    initialised: false,
    contexts: Vec::new(),
});

fn state() -> MutexGuard<'static, State> {
    STATE.lock().unwrap_or_else(|e| e.into_inner())
}

pub(crate) type R<T> = Result<T, String>;

/// "<CUDA_ERROR_NAME>: <description>" for a driver status; works even when
/// the driver cannot name it (e.g. the link-time stub).
fn describe(r: cu::CUresult) -> String {
    let code = r as u32;
    let mut name: *const c_char = ptr::null();
    let mut text: *const c_char = ptr::null();
    // SAFETY: both calls only write a pointer to a static string (or nothing).
    let (rn, rs) = unsafe {
        (
            cu::cuGetErrorName(r, &mut name),
            cu::cuGetErrorString(r, &mut text),
        )
    };
    let ok = cu::CUresult::CUDA_SUCCESS;
    let name = if rn == ok && !name.is_null() {
        // SAFETY: the driver returned a NUL-terminated static string.
        unsafe { CStr::from_ptr(name) }
            .to_string_lossy()
            .into_owned()
    } else {
        format!("CUDA error {code}")
    };
    if rs == ok && !text.is_null() {
        // SAFETY: as above.
        let text = unsafe { CStr::from_ptr(text) }.to_string_lossy();
        format!("{name}: {text}")
    } else {
        name
    }
}

/// Turn a driver status into `Ok` or the error text naming the call.
pub(crate) fn check(call: &str, r: cu::CUresult) -> R<()> {
    if r == cu::CUresult::CUDA_SUCCESS {
        Ok(())
    } else {
        Err(format!("{call}: {}", describe(r)))
    }
}

/// Same for an error reported by cust's safe API.
fn check_cust<T>(call: &str, r: cust::error::CudaResult<T>) -> R<T> {
    r.map_err(|e| {
        let code = e as u32;
        if code <= 999 {
            // SAFETY: cust's CudaError values up to 999 are exactly the
            // CUresult codes it was made from (cust's own Display does this).
            let raw: cu::CUresult = unsafe { std::mem::transmute::<u32, cu::CUresult>(code) };
            format!("{call}: {}", describe(raw))
        } else {
            format!("{call}: {e}")
        }
    })
}

/// Run one entry point: catch panics, store the error text, return a
/// status (`ptxrt_plugin_abi::support`, shared with the emulated device).
pub(crate) fn entry(f: impl FnOnce() -> R<()>) -> i32 {
    support::entry(NAME, f)
}

pub(crate) fn out<T>(p: *mut T, what: &str) -> R<&'static mut T> {
    // SAFETY: libptxrt passes valid, aligned out-pointers or null.
    unsafe { support::out(p, NAME, what) }
}

fn do_init(st: &mut State) -> R<()> {
    if st.initialised {
        return Ok(());
    }
    check_cust("cuInit", cust::init(cust::CudaFlags::empty()))?;
    let n = check_cust("cuDeviceGetCount", Device::num_devices())?;
    st.contexts = (0..n).map(|_| None).collect();
    st.initialised = true;
    Ok(())
}

/// Retain `dev`'s primary context if needed and make it current here.
pub(crate) fn make_current(dev: i32) -> R<()> {
    let mut st = state();
    do_init(&mut st)?;
    let n = st.contexts.len();
    let slot = usize::try_from(dev)
        .ok()
        .and_then(|i| st.contexts.get_mut(i))
        .ok_or_else(|| format!("libptxrt-cuda: no device {dev} ({n} devices)"))?;
    let ctx = match slot {
        Some(c) => c.as_raw(),
        None => {
            let d = check_cust("cuDeviceGet", Device::get_device(dev as u32))?;
            let c = check_cust("cuDevicePrimaryCtxRetain", Context::new(d))?;
            let raw = c.as_raw();
            *slot = Some(c);
            raw
        }
    };
    drop(st);
    let mut cur: cu::CUcontext = ptr::null_mut();
    // SAFETY: out-pointer to a local.
    check("cuCtxGetCurrent", unsafe { cu::cuCtxGetCurrent(&mut cur) })?;
    if cur != ctx {
        // SAFETY: ctx is a retained primary context.
        check("cuCtxSetCurrent", unsafe { cu::cuCtxSetCurrent(ctx) })?;
    }
    Ok(())
}

pub(crate) unsafe extern "C" fn init() -> i32 {
    entry(|| do_init(&mut state()))
}

pub(crate) unsafe extern "C" fn device_count(count: *mut i32) -> i32 {
    entry(|| {
        let mut st = state();
        do_init(&mut st)?;
        *out(count, "count")? = i32::try_from(st.contexts.len()).unwrap_or(i32::MAX);
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn device_info(dev: i32, info: *mut DeviceInfo) -> i32 {
    entry(|| {
        do_init(&mut state())?;
        let info = out(info, "info")?;
        let mut d: cu::CUdevice = 0;
        // SAFETY: out-pointer to a local.
        check("cuDeviceGet", unsafe { cu::cuDeviceGet(&mut d, dev) })?;
        let mut name = [0 as c_char; 256];
        // SAFETY: buffer of the stated length.
        check("cuDeviceGetName", unsafe {
            cu::cuDeviceGetName(name.as_mut_ptr(), 255, d)
        })?;
        let attr = |a: cu::CUdevice_attribute, what: &str| -> R<i32> {
            let mut v = 0;
            // SAFETY: out-pointer to a local.
            check(&format!("cuDeviceGetAttribute({what})"), unsafe {
                cu::cuDeviceGetAttribute(&mut v, a, d)
            })?;
            Ok(v)
        };
        use cu::CUdevice_attribute::*;
        let mut total: usize = 0;
        // SAFETY: out-pointer to a local.
        check("cuDeviceTotalMem", unsafe {
            cu::cuDeviceTotalMem_v2(&mut total, d)
        })?;
        let mut driver_version = 0;
        // SAFETY: out-pointer to a local.
        check("cuDriverGetVersion", unsafe {
            cu::cuDriverGetVersion(&mut driver_version)
        })?;
        *info = DeviceInfo {
            name,
            cc_major: attr(
                CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
                "COMPUTE_CAPABILITY_MAJOR",
            )?,
            cc_minor: attr(
                CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
                "COMPUTE_CAPABILITY_MINOR",
            )?,
            sm_count: attr(
                CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
                "MULTIPROCESSOR_COUNT",
            )?,
            max_threads_per_block: attr(
                CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
                "MAX_THREADS_PER_BLOCK",
            )?,
            max_threads_per_sm: attr(
                CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR,
                "MAX_THREADS_PER_MULTIPROCESSOR",
            )?,
            warp_size: attr(CU_DEVICE_ATTRIBUTE_WARP_SIZE, "WARP_SIZE")?,
            max_shared_per_block: attr(
                CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK,
                "MAX_SHARED_MEMORY_PER_BLOCK",
            )?,
            driver_version,
            total_mem: total as u64,
            code_kinds: ptxrt_plugin_abi::GPU_CODE,
        };
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn set_device(dev: i32) -> i32 {
    entry(|| make_current(dev))
}

pub(crate) unsafe extern "C" fn mem_alloc(dev: i32, bytes: usize, p: *mut u64) -> i32 {
    entry(|| {
        make_current(dev)?;
        let p = out(p, "device pointer")?;
        let mut d: cu::CUdeviceptr = 0;
        // SAFETY: out-pointer to a local.
        check("cuMemAlloc", unsafe { cu::cuMemAlloc_v2(&mut d, bytes) })?;
        *p = d;
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn mem_free(dev: i32, p: u64) -> i32 {
    entry(|| {
        make_current(dev)?;
        // SAFETY: p came from mem_alloc.
        check("cuMemFree", unsafe { cu::cuMemFree_v2(p) })
    })
}

pub(crate) unsafe extern "C" fn memcpy_htod(
    dev: i32,
    dst: u64,
    src: *const c_void,
    bytes: usize,
) -> i32 {
    entry(|| {
        make_current(dev)?;
        // SAFETY: libptxrt passes a host range of `bytes` and a device range at least as long.
        check("cuMemcpyHtoD", unsafe {
            cu::cuMemcpyHtoD_v2(dst, src, bytes)
        })
    })
}

pub(crate) unsafe extern "C" fn memcpy_dtoh(
    dev: i32,
    dst: *mut c_void,
    src: u64,
    bytes: usize,
) -> i32 {
    entry(|| {
        make_current(dev)?;
        // SAFETY: as for memcpy_htod.
        check("cuMemcpyDtoH", unsafe {
            cu::cuMemcpyDtoH_v2(dst, src, bytes)
        })
    })
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
    entry(|| {
        make_current(dev)?;
        if grid.is_null() || block.is_null() || func.is_null() {
            return Err("libptxrt-cuda: launch with a null function or geometry".to_string());
        }
        // SAFETY: libptxrt passes arrays of 3.
        let (g, b) = unsafe {
            (
                std::slice::from_raw_parts(grid, 3),
                std::slice::from_raw_parts(block, 3),
            )
        };
        // SAFETY: func came from module_get_function; args points at one
        // pointer per kernel parameter, as cuLaunchKernel requires; the
        // stream is null or one of this device's.
        check("cuLaunchKernel", unsafe {
            cu::cuLaunchKernel(
                func.cast(),
                g[0],
                g[1],
                g[2],
                b[0],
                b[1],
                b[2],
                shared_bytes,
                stream.cast(),
                args,
                ptr::null_mut(),
            )
        })
    })
}

pub(crate) unsafe extern "C" fn synchronize(dev: i32) -> i32 {
    entry(|| {
        make_current(dev)?;
        // SAFETY: plain driver call on the current context.
        check("cuCtxSynchronize", unsafe { cu::cuCtxSynchronize() })
    })
}

pub(crate) unsafe extern "C" fn set_stack_size(dev: i32, bytes: usize, set: *mut usize) -> i32 {
    entry(|| {
        make_current(dev)?;
        let set = out(set, "stack size")?;
        // SAFETY: plain driver calls on the current context; out-pointer to
        // a local.
        check("cuCtxSetLimit(CU_LIMIT_STACK_SIZE)", unsafe {
            cu::cuCtxSetLimit(cu::CUlimit::CU_LIMIT_STACK_SIZE, bytes)
        })?;
        let mut now = 0usize;
        check("cuCtxGetLimit(CU_LIMIT_STACK_SIZE)", unsafe {
            cu::cuCtxGetLimit(&mut now, cu::CUlimit::CU_LIMIT_STACK_SIZE)
        })?;
        *set = now;
        Ok(())
    })
}
