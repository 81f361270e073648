//! libptxrt-emu.so: the emulated device plugin of libptxrt — one
//! H100-like device that runs accc's SIMT bytecode (`accc -gpu=emu`) on
//! the CPU with `ptxrt-simt`, catching illegal addresses and data races.
//! A program uses it with `PTXRT_PLUGIN=/path/libptxrt-emu.so
//! ACC_DEVICE_TYPE=nvidia ./prog`.
//!
//! Owns: the device's state (memory, loaded programs, streams, events,
//! pinned host memory, the race detector and the sticky error of a failed
//! kernel) behind one lock, the device's description (`device_info`: 132
//! SMs, 1024 threads per block, 2048 per SM, warps of 32, 48 KiB of shared
//! memory per block, 80 GiB, code kind SIMT), the settings
//! (`PTXRT_EMU_RACECHECK`: unset or `1` stop at the first race, `warn`
//! report each race once and go on, `0` no checks; `PTXRT_EMU_THREADS`:
//! host threads for the blocks of a launch when races are not checked,
//! default up to 4; `PTXRT_EMU_STATS=1`: a stderr line per launch with its
//! threads, instructions and time) and the per-thread text of the last
//! error.
//! Implements the entry points of `ptxrt-plugin-abi` (`for_each_entry!`),
//! exported as `__ptxrt_plugin_<name>` by `export_entries!` (which also
//! gives the ABI version and the last error text): [`memory`] (allocations, copies,
//! pinned memory), [`stream`] (streams, events, host functions: work on a
//! stream runs in order when the program waits for it, queries it, or
//! synchronises; work on the legacy default stream runs at once) and
//! [`module`] (bytecode loading, linking, kernels, globals, launches).
//! A kernel that faults (illegal address, race, deadlock) leaves the
//! device in error, as a GPU's context after CUDA_ERROR_ILLEGAL_ADDRESS:
//! every later call fails with the fault's one-line message.
//! May call: `ptxrt-plugin-abi`, `ptxrt-simt`, the C library (device
//! printf goes to C's `stdout`, in order with the program's own output).

use ptxrt_plugin_abi::{export_entries, support, DeviceInfo, CODE_SIMT};
use ptxrt_simt::{Limits, Memory, RaceMode, RaceState};
use std::ffi::c_char;
use std::sync::{Mutex, MutexGuard};

pub mod memory;
pub mod module;
pub mod stream;
pub(crate) use memory::{
    host_alloc, host_free, host_is_pinned, mem_alloc, mem_free, mem_get_info, memcpy_dtod,
    memcpy_dtod_async, memcpy_dtoh, memcpy_dtoh_async, memcpy_htod, memcpy_htod_async, memset_zero,
    memset_zero_async,
};
pub(crate) use module::{
    function_limits, launch, link_module, module_get_function, module_get_global, module_load_data,
    module_unload,
};
pub(crate) use stream::{
    event_create, event_create_timed, event_destroy, event_elapsed, event_query, event_record,
    event_synchronize, launch_host_func, set_stack_size, stream_create, stream_destroy,
    stream_query, stream_synchronize, stream_wait_event, synchronize,
};

// The exported entry points `__ptxrt_plugin_<name>` (and the ABI version
// and last error), generated from the ABI's entry list: each calls the
// function of that name here.
ptxrt_plugin_abi::for_each_entry!(export_entries);

/// The plugin's name in its messages.
const NAME: &str = "libptxrt-emu";

/// Bytes the device offers (an H100's 80 GiB; allocations are host memory).
pub const CAPACITY: u64 = 80 << 30;

/// The emulated device.
pub struct Device {
    pub mem: Memory,
    pub race: RaceState,
    pub mode: RaceMode,
    pub limits: Limits,
    /// Host threads for the blocks of a launch (races not checked).
    pub workers: usize,
    /// `PTXRT_EMU_STATS=1`: one stderr line per launch (threads,
    /// instructions, time).
    pub stats: bool,
    pub modules: module::Modules,
    pub queues: stream::Queues,
    /// Page-locked host blocks: address → bytes.
    pub pinned: std::collections::BTreeMap<usize, Box<[u8]>>,
    /// The fault of a kernel: every later call fails with it.
    pub sticky: Option<String>,
    next_handle: usize,
}

impl Device {
    fn new() -> Device {
        let mode = match std::env::var("PTXRT_EMU_RACECHECK").as_deref() {
            Ok("0") | Ok("off") | Ok("no") => RaceMode::Off,
            Ok("warn") => RaceMode::Warn,
            _ => RaceMode::Error,
        };
        let workers = std::env::var("PTXRT_EMU_THREADS")
            .ok()
            .and_then(|v| v.parse::<usize>().ok())
            .unwrap_or_else(|| {
                std::thread::available_parallelism()
                    .map(|n| n.get())
                    .unwrap_or(1)
                    .min(4)
            })
            .max(1);
        Device {
            mem: Memory::new(CAPACITY),
            race: RaceState::new(),
            mode,
            limits: Limits::default(),
            workers,
            stats: std::env::var_os("PTXRT_EMU_STATS").is_some_and(|v| v != "0"),
            modules: module::Modules::default(),
            queues: stream::Queues::default(),
            pinned: std::collections::BTreeMap::new(),
            sticky: None,
            next_handle: 0x1000,
        }
    }

    /// A fresh opaque handle (never null, never reused).
    pub fn handle(&mut self) -> usize {
        self.next_handle += 16;
        self.next_handle
    }
}

static DEVICE: Mutex<Option<Device>> = Mutex::new(None);

/// The device, made on first use.
fn lock() -> MutexGuard<'static, Option<Device>> {
    DEVICE.lock().unwrap_or_else(|e| e.into_inner())
}

pub(crate) type R<T> = Result<T, String>;

/// A fresh device (tests: each starts from a clean one).
#[cfg(test)]
pub(crate) fn reset() {
    *lock() = Some(Device::new());
}

/// Runs one entry point, the emulated driver call `call`, on the device
/// `dev` (only 0 exists): catches panics, fails at once when a kernel left
/// the device in error (the error names `call`, as the driver's would),
/// stores the error text, returns a status.
pub(crate) fn with_device(dev: i32, call: &str, f: impl FnOnce(&mut Device) -> R<()>) -> i32 {
    entry(|| {
        if dev != 0 {
            return Err(format!(
                "libptxrt-emu: no device {dev} (the emulator has one device)"
            ));
        }
        let mut g = lock();
        let d = g.get_or_insert_with(Device::new);
        if let Some(e) = &d.sticky {
            return Err(format!("{call}: {e}"));
        }
        f(d).map_err(|e| match &d.sticky {
            Some(s) if *s == e => format!("{call}: {e}"),
            _ => e,
        })
    })
}

/// Runs one entry point: catches panics, stores the error text
/// (`ptxrt_plugin_abi::support`, shared with the CUDA plugin).
pub(crate) fn entry(f: impl FnOnce() -> R<()>) -> i32 {
    support::entry(NAME, f)
}

/// The out-pointer `p`, or an error naming it.
pub(crate) fn out<'a, T>(p: *mut T, what: &str) -> R<&'a mut T> {
    // SAFETY: libptxrt passes valid, aligned out-pointers or null.
    unsafe { support::out(p, NAME, what) }
}

pub(crate) unsafe extern "C" fn init() -> i32 {
    with_device(0, "cuInit", |_| Ok(()))
}

pub(crate) unsafe extern "C" fn device_count(count: *mut i32) -> i32 {
    entry(|| {
        *out(count, "count")? = 1;
        Ok(())
    })
}

/// The emulated device's description.
pub fn info() -> DeviceInfo {
    let mut name = [0 as c_char; 256];
    let text = b"accc SIMT emulator (H100-like)";
    for (d, s) in name.iter_mut().zip(text) {
        *d = *s as c_char;
    }
    DeviceInfo {
        name,
        cc_major: 9,
        cc_minor: 0,
        sm_count: 132,
        max_threads_per_block: 1024,
        max_threads_per_sm: 2048,
        warp_size: 32,
        max_shared_per_block: 48 * 1024,
        driver_version: 13000,
        total_mem: CAPACITY,
        code_kinds: 1 << CODE_SIMT,
    }
}

pub(crate) unsafe extern "C" fn device_info(dev: i32, info_out: *mut DeviceInfo) -> i32 {
    entry(|| {
        if dev != 0 {
            return Err(format!("libptxrt-emu: no device {dev}"));
        }
        *out(info_out, "info")? = info();
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn set_device(dev: i32) -> i32 {
    with_device(dev, "cuCtxSetCurrent", |_| Ok(()))
}

#[cfg(test)]
mod tests;
