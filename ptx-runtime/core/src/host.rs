//! The host device: the host behind the same plugin interface as the CUDA
//! plugin and the emulated device, as libgomp's `oacc-host.c` fills the
//! same device table as its nvptx plugin and LLVM offload has a host
//! plugin.
//!
//! The host device is device 0 of the host device type (`acc_device_host`,
//! and `acc_device_multicore` for a program with no host code of its
//! kernels: else [`crate::multicore`]). It shares
//! memory with the program ([`crate::device::DeviceState::shares_memory`]):
//! data clauses and the data routines go through its present table as on
//! any device ([`crate::mapping`]), with every range mapped to itself, so
//! they do not copy and device addresses are host addresses. It loads no device code: constructs run through their
//! host fallback ([`crate::device::DeviceState::runs_kernels`]), so its
//! module and launch entry points fail, naming why. Its queues are
//! synchronous: every stream is the null stream, work "queued" on one is
//! done before the call returns, events are always complete.
//!
//! Owns: the host plugin's entry points (a [`PluginFns`] of Rust
//! functions named after the ABI's entries, never exported: the program's
//! own host code is the device code) and the host device's description
//! (name `host`, the host's physical memory); the text of its last error
//! is kept as every plugin keeps it (`ptxrt_plugin_abi::support`).
//! May call: `ptxrt-plugin-abi`, the C library (`malloc`, `free`, `sysconf`).

use crate::plugin::Plugin;
use ptxrt_plugin_abi::support::{self, set_error};
use ptxrt_plugin_abi::{fns_in_scope, DeviceInfo, HostFn, LinkInput, PluginFns};
use std::ffi::{c_char, c_int, c_long, c_void};
use std::ptr;
use std::sync::OnceLock;

extern "C" {
    fn malloc(bytes: usize) -> *mut c_void;
    fn free(p: *mut c_void);
    fn sysconf(name: c_int) -> c_long;
}
const SC_PAGESIZE: c_int = 30;
const SC_PHYS_PAGES: c_int = 85;
const SC_AVPHYS_PAGES: c_int = 86;

/// The name of the host device (`acc_get_property_string(acc_property_name)`).
pub const NAME: &str = "host";

/// Host memory in bytes: all of it, or (`available`) what is free now.
pub fn host_memory(available: bool) -> usize {
    let pages = if available {
        SC_AVPHYS_PAGES
    } else {
        SC_PHYS_PAGES
    };
    // SAFETY: sysconf only reads system values.
    let (n, size) = unsafe { (sysconf(pages), sysconf(SC_PAGESIZE)) };
    usize::try_from(n.max(0))
        .unwrap_or(0)
        .saturating_mul(usize::try_from(size.max(0)).unwrap_or(0))
}

pub(crate) fn fail(msg: &str) -> i32 {
    set_error(msg.to_string());
    1
}

/// Why the host device loads no code and launches no kernel.
const NO_CODE: &str =
    "the host device runs compute constructs through their host fallback: it loads no device code";

/// The non-null handle of the host device's events (always complete).
const EVENT: usize = 0x40;

/// Store `v` through the out-pointer `p` (null: an error).
pub(crate) fn put<T>(p: *mut T, v: T) -> i32 {
    if p.is_null() {
        return fail("libptxrt host device: null out-pointer");
    }
    // SAFETY: libptxrt passes valid, aligned out-pointers.
    unsafe { p.write(v) };
    0
}

unsafe extern "C" fn init() -> i32 {
    0
}
unsafe extern "C" fn device_count(n: *mut i32) -> i32 {
    put(n, 1)
}
unsafe extern "C" fn device_info(dev: i32, out: *mut DeviceInfo) -> i32 {
    if dev != 0 {
        return fail("libptxrt host device: the host is device 0 only");
    }
    let mut i = DeviceInfo::default();
    for (d, s) in i.name.iter_mut().zip(NAME.bytes()) {
        *d = s as c_char;
    }
    i.total_mem = host_memory(false) as u64;
    i.code_kinds = 0;
    put(out, i)
}
unsafe extern "C" fn set_device(_: i32) -> i32 {
    0
}
unsafe extern "C" fn module_load_data(_: i32, _: *const u8, _: usize, _: *mut *mut c_void) -> i32 {
    fail(NO_CODE)
}
unsafe extern "C" fn link_module(
    _: i32,
    _: *const LinkInput,
    _: usize,
    _: *mut *mut c_void,
) -> i32 {
    fail(NO_CODE)
}
unsafe extern "C" fn module_get_function(
    _: i32,
    _: *mut c_void,
    _: *const c_char,
    _: *mut *mut c_void,
) -> i32 {
    fail(NO_CODE)
}
unsafe extern "C" fn module_get_global(
    _: i32,
    _: *mut c_void,
    _: *const c_char,
    _: *mut u64,
    _: *mut usize,
) -> i32 {
    fail(NO_CODE)
}
unsafe extern "C" fn module_unload(_: i32, _: *mut c_void) -> i32 {
    fail(NO_CODE)
}
unsafe extern "C" fn function_limits(
    _: i32,
    _: *mut c_void,
    _: u32,
    _: *mut ptxrt_plugin_abi::FunctionLimits,
) -> i32 {
    fail(NO_CODE)
}
unsafe extern "C" fn launch(
    _: i32,
    _: *mut c_void,
    _: *const u32,
    _: *const u32,
    _: u32,
    _: *mut *mut c_void,
    _: *mut c_void,
) -> i32 {
    fail(NO_CODE)
}
unsafe extern "C" fn mem_alloc(_: i32, bytes: usize, p: *mut u64) -> i32 {
    // SAFETY: plain allocation.
    let m = unsafe { malloc(bytes.max(1)) };
    if m.is_null() {
        return fail("malloc: out of host memory");
    }
    put(p, m as u64)
}
unsafe extern "C" fn mem_free(_: i32, p: u64) -> i32 {
    // SAFETY: p came from mem_alloc (the plugin ABI's contract).
    unsafe { free(p as usize as *mut c_void) };
    0
}
unsafe extern "C" fn memcpy_htod(_: i32, dst: u64, src: *const c_void, bytes: usize) -> i32 {
    // SAFETY: both are host ranges of `bytes` bytes (the ABI's contract).
    unsafe { ptr::copy(src.cast::<u8>(), dst as usize as *mut u8, bytes) };
    0
}
unsafe extern "C" fn memcpy_dtoh(_: i32, dst: *mut c_void, src: u64, bytes: usize) -> i32 {
    // SAFETY: as for memcpy_htod.
    unsafe { ptr::copy(src as usize as *const u8, dst.cast::<u8>(), bytes) };
    0
}
unsafe extern "C" fn memcpy_dtod(_: i32, dst: u64, src: u64, bytes: usize) -> i32 {
    // SAFETY: as for memcpy_htod.
    unsafe { ptr::copy(src as usize as *const u8, dst as usize as *mut u8, bytes) };
    0
}
unsafe extern "C" fn memset_zero(_: i32, dst: u64, bytes: usize) -> i32 {
    // SAFETY: a host range of `bytes` bytes (the ABI's contract).
    unsafe { ptr::write_bytes(dst as usize as *mut u8, 0, bytes) };
    0
}
unsafe extern "C" fn memset_zero_async(d: i32, dst: u64, bytes: usize, _: *mut c_void) -> i32 {
    // SAFETY: per the caller; the host's queues are synchronous.
    unsafe { memset_zero(d, dst, bytes) }
}
unsafe extern "C" fn memcpy_dtod_async(
    d: i32,
    dst: u64,
    src: u64,
    n: usize,
    _: *mut c_void,
) -> i32 {
    // SAFETY: as above.
    unsafe { memcpy_dtod(d, dst, src, n) }
}
unsafe extern "C" fn memcpy_htod_async(
    d: i32,
    dst: u64,
    src: *const c_void,
    n: usize,
    _: *mut c_void,
) -> i32 {
    // SAFETY: as above.
    unsafe { memcpy_htod(d, dst, src, n) }
}
unsafe extern "C" fn memcpy_dtoh_async(
    d: i32,
    dst: *mut c_void,
    src: u64,
    n: usize,
    _: *mut c_void,
) -> i32 {
    // SAFETY: as above.
    unsafe { memcpy_dtoh(d, dst, src, n) }
}
unsafe extern "C" fn synchronize(_: i32) -> i32 {
    0
}
/// The host device runs no device code (its threads' stacks are the
/// program's own): the limit is taken as given.
unsafe extern "C" fn set_stack_size(_: i32, bytes: usize, set: *mut usize) -> i32 {
    put(set, bytes)
}
unsafe extern "C" fn mem_get_info(_: i32, free: *mut u64, total: *mut u64) -> i32 {
    match put(free, host_memory(true) as u64) {
        0 => put(total, host_memory(false) as u64),
        e => e,
    }
}
unsafe extern "C" fn host_alloc(d: i32, bytes: usize, p: *mut *mut c_void) -> i32 {
    let mut a = 0u64;
    // SAFETY: out-pointer to a local.
    match unsafe { mem_alloc(d, bytes, &mut a) } {
        0 => put(p, a as usize as *mut c_void),
        e => e,
    }
}
unsafe extern "C" fn host_free(d: i32, p: *mut c_void) -> i32 {
    // SAFETY: p came from host_alloc.
    unsafe { mem_free(d, p as u64) }
}
unsafe extern "C" fn host_is_pinned(_: i32, _: *const c_void, pinned: *mut i32) -> i32 {
    put(pinned, 0)
}
/// Every queue of the host is the null stream: synchronous.
unsafe extern "C" fn stream_create(_: i32, _: i32, s: *mut *mut c_void) -> i32 {
    put(s, ptr::null_mut())
}
unsafe extern "C" fn stream_query(_: i32, _: *mut c_void, done: *mut i32) -> i32 {
    put(done, 1)
}
unsafe extern "C" fn stream_destroy(_: i32, _: *mut c_void) -> i32 {
    0
}
unsafe extern "C" fn stream_synchronize(_: i32, _: *mut c_void) -> i32 {
    0
}
unsafe extern "C" fn stream_wait_event(_: i32, _: *mut c_void, _: *mut c_void) -> i32 {
    0
}
unsafe extern "C" fn launch_host_func(_: i32, _: *mut c_void, f: HostFn, data: *mut c_void) -> i32 {
    // SAFETY: the caller's function and data; in stream order is now.
    unsafe { f(data) };
    0
}
unsafe extern "C" fn event_create(_: i32, e: *mut *mut c_void) -> i32 {
    put(e, EVENT as *mut c_void)
}
unsafe extern "C" fn event_create_timed(d: i32, e: *mut *mut c_void) -> i32 {
    // SAFETY: per the caller.
    unsafe { event_create(d, e) }
}
unsafe extern "C" fn event_destroy(_: i32, _: *mut c_void) -> i32 {
    0
}
unsafe extern "C" fn event_synchronize(_: i32, _: *mut c_void) -> i32 {
    0
}
unsafe extern "C" fn event_record(_: i32, _: *mut c_void, _: *mut c_void) -> i32 {
    0
}
unsafe extern "C" fn event_query(_: i32, _: *mut c_void, done: *mut i32) -> i32 {
    put(done, 1)
}
unsafe extern "C" fn event_elapsed(_: i32, _: *mut c_void, _: *mut c_void, ms: *mut f32) -> i32 {
    put(ms, 0.0)
}
unsafe extern "C" fn last_error(buf: *mut c_char, len: usize) -> usize {
    // SAFETY: per the caller.
    unsafe { support::last_error(buf, len) }
}

/// The host plugin's entry points (the functions above, by name).
fn fns() -> PluginFns {
    ptxrt_plugin_abi::for_each_entry!(fns_in_scope)
}

/// The host plugin (made once, never unloaded).
pub fn plugin() -> &'static Plugin {
    static HOST: OnceLock<Plugin> = OnceLock::new();
    HOST.get_or_init(|| Plugin {
        fns: fns(),
        origin: "the host device (built into libptxrt)".to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn host_device_is_the_hosts_memory() {
        let p = plugin();
        // SAFETY (this test): plain values, and buffers of the stated sizes.
        assert_eq!(unsafe { p.device_count() }, Ok(1));
        let info = unsafe { p.device_info(0) }.unwrap();
        assert_eq!(info.name_str(), "host");
        assert_eq!(info.code_kinds, 0);
        let a = unsafe { p.mem_alloc(0, 16) }.unwrap();
        let src = [7u8; 16];
        // SAFETY: a 16-byte block and a 16-byte array.
        unsafe { p.memcpy_htod(0, a, src.as_ptr().cast(), 16) }.unwrap();
        let mut back = [0u8; 16];
        // SAFETY: as above.
        unsafe { p.memcpy_dtoh(0, back.as_mut_ptr().cast(), a, 16) }.unwrap();
        assert_eq!(back, src);
        unsafe { p.mem_free(0, a) }.unwrap();
        assert_eq!(unsafe { p.stream_create(0, 1) }, Ok(ptr::null_mut()));
        let e = unsafe { p.module_load_data(0, b"x".as_ptr(), 1) }.unwrap_err();
        assert!(e.contains("host fallback"), "{e}");
        assert!(unsafe { p.device_info(1) }.is_err());
    }
}
