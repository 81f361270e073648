//! Kernel launches and launch-geometry defaults.
//!
//! Owns: `__ptxrt_launch` (find the kernel, loading or linking its module lazily;
//! launch; wait; report a failure with the kernel name and source line) and
//! `__ptxrt_default_gangs`. The runtime lock is released while the kernel
//! runs.
//! May call: [`crate::device`], [`crate::image`], [`crate::error`], [`crate::notify`].

use crate::abi::{Image, Loc, SrcLoc};
use crate::device::lock;
use crate::error::{fatal_at, guard};
use crate::image;
use crate::notify;
use std::ffi::{c_char, c_void, CStr};

/// Number of gangs for `trip` iterations in blocks of `block` threads: enough
/// blocks to cover the loop, at most one full wave of resident blocks on the
/// device (`sm_count` SMs of `max_threads_per_sm` threads; loops stride, so
/// fewer blocks than iterations is correct), 65535 without device info. Never 0.
pub fn default_gangs(trip: u64, block: u32, device: Option<(i32, i32)>) -> u32 {
    let block = u64::from(block.max(1));
    let needed = trip.div_ceil(block).max(1);
    let cap = match device {
        Some((sms, per_sm)) if sms > 0 && per_sm > 0 => {
            let per_sm_blocks = (per_sm as u64 / block).max(1);
            (sms as u64) * per_sm_blocks
        }
        _ => 65535,
    };
    needed.min(cap).clamp(1, i32::MAX as u64) as u32
}

/// `uint32_t __ptxrt_default_gangs(uint64_t trip, uint32_t block)`.
#[no_mangle]
pub extern "C" fn __ptxrt_default_gangs(trip: u64, block: u32) -> u32 {
    guard(|| {
        let mut rt = lock();
        let dev = rt
            .active()
            .map(|d| (d.info.sm_count, d.info.max_threads_per_sm));
        default_gangs(trip, block, dev)
    })
}

/// `void *__ptxrt_scratch(const struct __ptxrt_loc *loc, uint64_t bytes)`:
/// device memory of at least `bytes` for the reductions across gangs of
/// the next launch, whose 32-bit counters at the start are zero (the
/// memory is zeroed when made, and every kernel that uses a counter leaves
/// it at zero). One buffer per device, grown on demand; launches wait for
/// their kernels, so they never share it at the same time.
///
/// # Safety
/// `loc` is null or a valid `__ptxrt_loc`.
#[no_mangle]
pub unsafe extern "C" fn __ptxrt_scratch(loc: *const Loc, bytes: u64) -> *mut c_void {
    guard(|| {
        // SAFETY: the compiler passes a valid __ptxrt_loc or null.
        let loc = unsafe { SrcLoc::from_c(loc) };
        let mut rt = lock();
        let Some(dev) = rt.active() else {
            fatal_at(
                &loc,
                "internal error: reduction scratch while running on the host",
                None,
                None,
            )
        };
        let want = usize::try_from(bytes.max(1)).unwrap_or(usize::MAX);
        if let Some((p, have)) = dev.scratch {
            if have >= want {
                return p as *mut c_void;
            }
            dev.scratch = None;
            if let Err(e) = dev.free(p) {
                fatal_at(&loc, &e.what, None, e.detail.as_deref());
            }
        }
        // Grow geometrically so that changing gang counts settle quickly.
        let size = want.max(4096).next_power_of_two();
        let p = match dev.alloc(size) {
            Ok(p) => p,
            Err(e) => fatal_at(
                &loc,
                &format!("{} (reduction scratch)", e.what),
                None,
                e.detail.as_deref(),
            ),
        };
        if let Err(e) = dev.zero(p, size) {
            fatal_at(&loc, &e.what, None, e.detail.as_deref());
        }
        dev.scratch = Some((p, size));
        p as *mut c_void
    })
}

/// `void __ptxrt_launch(loc, img, kernel, grid_x..z, block_x..z, shared_bytes, args)`.
///
/// # Safety
/// `img` must be a registered image (or one of the program's static images),
/// `kernel` a NUL-terminated name, and `args` one pointer per kernel parameter.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn __ptxrt_launch(
    loc: *const Loc,
    img: *mut Image,
    kernel: *const c_char,
    grid_x: u32,
    grid_y: u32,
    grid_z: u32,
    block_x: u32,
    block_y: u32,
    block_z: u32,
    shared_bytes: u32,
    args: *mut *mut c_void,
) {
    guard(|| {
        // SAFETY: the compiler passes a valid __ptxrt_loc or null.
        let loc = unsafe { SrcLoc::from_c(loc) };
        if kernel.is_null() {
            fatal_at(
                &loc,
                "internal error: launch without a kernel name",
                None,
                None,
            );
        }
        // SAFETY: checked non-null; the compiler passes a NUL-terminated name.
        let kernel = unsafe { CStr::from_ptr(kernel) };
        let kname = kernel.to_string_lossy().into_owned();
        let (plugin, ordinal, func) = {
            let mut rt = lock();
            let Some((dev, images)) = rt.active_with_images() else {
                fatal_at(
                    &loc,
                    "internal error: kernel launch while running on the host",
                    Some(&kname),
                    None,
                )
            };
            // SAFETY: img is the program's static image (caller contract).
            match unsafe { image::function(dev, images, img, kernel) } {
                Ok(f) => (dev.plugin, dev.ordinal, f),
                Err(e) => fatal_at(&loc, "cannot load the kernel", Some(&kname), Some(&e)),
            }
        };
        let grid = [grid_x, grid_y, grid_z];
        let block = [block_x, block_y, block_z];
        notify::launch(&kname, &loc, grid, block);
        // SAFETY: func from the plugin; args as the caller guarantees.
        if let Err(e) = unsafe { plugin.launch(ordinal, func, grid, block, shared_bytes, args) } {
            fatal_at(
                &loc,
                &format!(
                    "kernel launch failed (grid=({grid_x},{grid_y},{grid_z}) block=({block_x},{block_y},{block_z}) shared={shared_bytes})"
                ),
                Some(&kname),
                Some(&e),
            );
        }
        if let Err(e) = plugin.synchronize(ordinal) {
            fatal_at(&loc, "kernel execution failed", Some(&kname), Some(&e));
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gangs_cover_small_loops() {
        assert_eq!(default_gangs(1000, 128, Some((132, 2048))), 8);
        assert_eq!(default_gangs(1, 128, Some((132, 2048))), 1);
        assert_eq!(default_gangs(0, 128, Some((132, 2048))), 1);
        assert_eq!(default_gangs(100, 0, None), 100);
    }

    #[test]
    fn gangs_capped_at_one_wave() {
        // H100: 132 SMs × 2048 threads; 256-thread blocks → 8 per SM.
        assert_eq!(default_gangs(1 << 30, 256, Some((132, 2048))), 132 * 8);
        // Blocks bigger than an SM's thread limit still get one per SM.
        assert_eq!(default_gangs(1 << 30, 4096, Some((132, 2048))), 132);
        assert_eq!(default_gangs(u64::MAX, 1, None), 65535);
        assert_eq!(default_gangs(u64::MAX, 1, Some((0, 0))), 65535);
    }
}
