//! Launch sizes from the kernel: what the loaded function uses (registers
//! a thread, static shared memory; `function_limits` of the plugin, which
//! asks the driver's `cuFuncGetAttribute` and occupancy calculator) decides
//! the sizes the compiler left to the run time.
//!
//! * Gangs along x ([`gangs`], `__ptxrt_kernel_gangs`): enough blocks for
//!   the loop, at most one wave of the blocks that are resident at once —
//!   the blocks of the launch's size an SM holds (registers, shared memory,
//!   threads and blocks an SM has) times the SMs. Loops stride over their
//!   gangs, so fewer blocks than iterations is correct; more than a wave
//!   only queues blocks behind the first wave.
//! * Threads a block (`__ptxrt_kernel_threads`): the most the function
//!   may have ([`threads_limit`]), beyond which its launch fails
//!   (`CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES`: e.g. 1024 threads of more than
//!   64 registers); ptxrt.h's `__ptxrt_fit_block_to` shrinks the sizes the
//!   kernel reads at run time to it (workers first, vector lanes in whole
//!   warps), never the constants its code was compiled for.
//!
//! The answers are cached per (device, function, block size) in the
//! device's [`Cache`]: a launch costs no plugin call after the first of its
//! size. A device that cannot say (the host device; a plugin call that
//! fails) gets the sizes of [`default_gangs`] (threads alone) and the
//! largest block every GPU allows. [`model`] is an H100's occupancy
//! calculator on a function's registers and shared memory, for the tests'
//! fake device.
//!
//! Owns: [`Cache`], [`limits`], [`gangs`], [`default_gangs`],
//! [`threads_limit`], [`model`],
//! `__ptxrt_kernel_gangs`, `__ptxrt_kernel_threads`.
//! May call: [`crate::runtime`], [`crate::device`], [`crate::image`],
//! [`crate::error`], [`crate::notify`].

use crate::abi::{Image, Loc, SrcLoc};
use crate::device::DeviceState;
use crate::error::{fatal_at, guard};
use crate::image;
use crate::notify;
use crate::runtime::lock_deferred;
use ptxrt_plugin_abi::FunctionLimits;
use std::collections::HashMap;
use std::ffi::{c_char, c_void, CStr};

/// The most threads a block any NVIDIA GPU allows.
const MAX_THREADS: u32 = 1024;

/// A device's answers, by (function, threads a block; 0: the function's
/// attributes only); `None`: the plugin could not say.
#[derive(Default)]
pub struct Cache(HashMap<(usize, u32), Option<FunctionLimits>>);

impl Cache {
    /// Forget every answer (the device's modules are unloaded).
    pub fn clear(&mut self) {
        self.0.clear();
    }
}

/// What limits launches of `func` on `dev` in blocks of `threads` threads
/// (cached; `None` when the plugin cannot say). `kernel` names it in the
/// `PTXRT_NOTIFY` line of the first answer.
///
/// # Safety
/// `func` came from the plugin's `module_get_function` on `dev`.
pub unsafe fn limits(
    dev: &mut DeviceState,
    func: *mut c_void,
    threads: u32,
    kernel: &str,
) -> Option<FunctionLimits> {
    let key = (func as usize, threads);
    if let Some(l) = dev.occupancy.0.get(&key) {
        return *l;
    }
    // SAFETY: per the caller.
    let l = unsafe { dev.plugin.function_limits(dev.ordinal, func, threads) }.ok();
    if let Some(l) = &l {
        notify::limits(kernel, threads, l);
    }
    dev.occupancy.0.insert(key, l);
    l
}

/// Gangs for `trip` iterations (`u64::MAX`: unknown) of which a gang
/// takes `per`, in blocks of which an SM holds `blocks_per_sm` and the
/// device has `sms`: enough for the loop, at most one wave. Never 0.
pub fn gangs(trip: u64, per: u32, blocks_per_sm: u32, sms: u32) -> u32 {
    let needed = trip.div_ceil(u64::from(per.max(1))).max(1);
    let wave = u64::from(sms.max(1)) * u64::from(blocks_per_sm.max(1));
    needed.min(wave).clamp(1, i32::MAX as u64) as u32
}

/// Gangs for `trip` iterations in blocks of `block` threads when only the
/// device's threads are known (`sm_count` SMs of `max_threads_per_sm`
/// threads: as many blocks an SM as its threads allow, at least one),
/// 65535 without device info: [`gangs`] with that many blocks an SM. Never 0.
pub fn default_gangs(trip: u64, block: u32, device: Option<(i32, i32)>) -> u32 {
    let block = block.max(1);
    match device {
        Some((sms, per_sm)) if sms > 0 && per_sm > 0 => {
            gangs(trip, block, (per_sm as u32 / block).max(1), sms as u32)
        }
        _ => gangs(trip, block, 65535, 1),
    }
}

/// The most threads a block of a function with limits `l` may have (at
/// most 1024, at least 1; 1024 when unknown).
pub fn threads_limit(l: Option<&FunctionLimits>) -> u32 {
    match l.map(|l| l.max_threads) {
        Some(n) if n > 0 => (n as u32).min(MAX_THREADS),
        _ => MAX_THREADS,
    }
}

/// The gangs `__ptxrt_kernel_gangs` chooses for `func` on `dev` (see
/// there); the device's default where it cannot say.
///
/// # Safety
/// As for [`limits`].
pub unsafe fn kernel_gangs(
    dev: &mut DeviceState,
    func: *mut c_void,
    kernel: &str,
    trip: u64,
    per: u32,
    threads: u32,
) -> u32 {
    let sms = u32::try_from(dev.info.sm_count).unwrap_or(0);
    // SAFETY: per the caller.
    match unsafe { limits(dev, func, threads.max(1), kernel) } {
        Some(l) if l.blocks_per_sm > 0 && sms > 0 => gangs(trip, per, l.blocks_per_sm as u32, sms),
        _ => default_gangs(
            trip,
            per,
            Some((dev.info.sm_count, dev.info.max_threads_per_sm)),
        ),
    }
}

/// The loaded function `kernel` of image `img` on the active device, with
/// the device; `None` on the host device (nothing is loaded). A kernel
/// that cannot be loaded is an error at `loc`, as its launch's would be.
///
/// # Safety
/// As for `__ptxrt_launch`: `img` a registered or static image, `kernel`
/// null or NUL-terminated.
unsafe fn with_function<T>(
    loc: *const Loc,
    img: *mut Image,
    kernel: *const c_char,
    host: impl FnOnce(&mut DeviceState) -> T,
    f: impl FnOnce(&mut DeviceState, *mut c_void, &str) -> T,
) -> T {
    // (The location is read only to report an error: this runs at every
    // construct.)
    // SAFETY: the compiler passes a valid __ptxrt_loc or null.
    let at = || unsafe { SrcLoc::from_c(loc) };
    if kernel.is_null() {
        fatal_at(
            &at(),
            "internal error: launch size without a kernel name",
            None,
            None,
        );
    }
    // SAFETY: checked non-null; NUL-terminated (caller contract).
    let kernel = unsafe { CStr::from_ptr(kernel) };
    let kname = kernel.to_string_lossy();
    // A launch size queues nothing: the synchronous kernels before it go on
    // running ([`crate::deferred`]).
    let mut rt = lock_deferred();
    let (dev, images) = rt.active_with_images();
    if !dev.runs_kernels() {
        return host(dev);
    }
    // SAFETY: img per the caller's contract.
    match unsafe { image::function(dev, images, img, kernel) } {
        Ok(func) => f(dev, func, &kname),
        Err(e) => fatal_at(&at(), "cannot load the kernel", Some(&kname), Some(&e)),
    }
}

/// `uint32_t __ptxrt_kernel_gangs(loc, img, kernel, uint64_t trip, uint32_t per, uint32_t threads)`:
/// gangs along x for kernel `kernel` of image `img` launched in blocks of
/// `threads` threads, for a loop of `trip` iterations (`~0`: unknown) of
/// which a gang takes `per`: enough for the loop, at most a wave of the
/// blocks the device holds at once (the driver's occupancy of the loaded
/// function). Never 0.
///
/// # Safety
/// As for `__ptxrt_launch`: `loc` null or valid, `img` a registered or
/// static image, `kernel` NUL-terminated.
#[no_mangle]
pub unsafe extern "C" fn __ptxrt_kernel_gangs(
    loc: *const Loc,
    img: *mut Image,
    kernel: *const c_char,
    trip: u64,
    per: u32,
    threads: u32,
) -> u32 {
    guard(|| {
        // SAFETY: per the caller; the closures get the device's own
        // function.
        unsafe {
            with_function(
                loc,
                img,
                kernel,
                |_| default_gangs(trip, per, None),
                // (func: from the device's module_get_function.)
                |dev, func, name| kernel_gangs(dev, func, name, trip, per, threads),
            )
        }
    })
}

/// `uint32_t __ptxrt_kernel_threads(loc, img, kernel)`: the most threads
/// a block of kernel `kernel` of image `img` may have on the active device
/// (its registers decide; at most 1024), for `__ptxrt_fit_block_to`.
///
/// # Safety
/// As for [`__ptxrt_kernel_gangs`].
#[no_mangle]
pub unsafe extern "C" fn __ptxrt_kernel_threads(
    loc: *const Loc,
    img: *mut Image,
    kernel: *const c_char,
) -> u32 {
    guard(|| {
        // SAFETY: per the caller; the closures get the device's own
        // function.
        unsafe {
            with_function(
                loc,
                img,
                kernel,
                |_| MAX_THREADS,
                // (func: as above.)
                |dev, func, name| threads_limit(limits(dev, func, 0, name).as_ref()),
            )
        }
    })
}

/// An SM's resources, for [`model`].
#[derive(Clone, Copy, Debug)]
pub struct Sm {
    pub regs: u32,
    pub threads: u32,
    pub blocks: u32,
    /// Bytes of shared memory, and reserved by the system for each block.
    pub shared: u32,
    pub shared_reserved: u32,
    /// Registers are allocated to warps in units of this many.
    pub reg_unit: u32,
}

impl Sm {
    /// An H100's (sm_90): 64K registers, 2048 threads, 32 blocks, 228 KiB
    /// of shared memory (1 KiB of it reserved a block).
    pub const H100: Sm = Sm {
        regs: 65536,
        threads: 2048,
        blocks: 32,
        shared: 228 * 1024,
        shared_reserved: 1024,
        reg_unit: 256,
    };
}

/// The limits of a function of `regs` registers a thread and
/// `static_shared` bytes of shared memory a block on an SM `sm`, for
/// blocks of `threads` threads, as the driver's occupancy calculator
/// computes them (warps of 32).
pub fn model(regs: u32, static_shared: u32, threads: u32, sm: &Sm) -> FunctionLimits {
    let per_warp = (regs.max(1) * 32).div_ceil(sm.reg_unit) * sm.reg_unit;
    let max_threads = (sm.regs / per_warp * 32).min(MAX_THREADS);
    let warps = threads.div_ceil(32);
    let blocks = if threads == 0 || threads > max_threads {
        0
    } else {
        let by_regs = sm.regs / (warps * per_warp);
        let by_threads = sm.threads / (warps * 32);
        let block_shared = (static_shared + sm.shared_reserved).div_ceil(128) * 128;
        let by_shared = sm.shared / block_shared;
        by_regs.min(by_threads).min(by_shared).min(sm.blocks)
    };
    let int = |n: u32| i32::try_from(n).unwrap_or(i32::MAX);
    FunctionLimits {
        regs: int(regs),
        static_shared: int(static_shared),
        local_bytes: 0,
        max_threads: int(max_threads),
        blocks_per_sm: int(blocks),
    }
}

#[cfg(test)]
mod tests;
