//! Kernel launches and launch-geometry defaults.
//!
//! Owns: `__ptxrt_launch` (find the kernel, loading or linking its module lazily;
//! launch on the construct's queue; wait when synchronous, or leave the
//! wait to [`crate::deferred`]; report a failure
//! with the kernel name and source line), `__ptxrt_scratch` and
//! `__ptxrt_default_gangs`. The runtime lock is released while a
//! synchronous kernel runs, and while a device whose launches complete in
//! the call (the multicore device) runs any. With `PTXRT_TIME`, a synchronous launch is timed
//! on the host clock from the launch to its completion, an async one by
//! device events around it on its queue ([`crate::timing`]).
//! May call: [`crate::runtime`], [`crate::device`], [`crate::image`], [`crate::queue`],
//! [`crate::error`], [`crate::timing`], [`crate::deferred`],
//! [`crate::occupancy`] (the gangs of `__ptxrt_default_gangs`),
//! [`crate::prof`] (enqueue_launch start and end events around the
//! launch call: the end means the launch was queued, not that it ran).

use crate::abi::{Image, Loc, SrcLoc};
use crate::deferred;
use crate::device::DeviceState;
use crate::error::{fatal_at, guard, Failure};
use crate::image;
use crate::plugin::Plugin;
use crate::prof;
use crate::profile::Op;
use crate::queue::{self, Queue};
use crate::runtime::{lock, lock_deferred};
use crate::timing;
use std::ffi::{c_char, c_int, c_void, CStr};
use std::ptr::null_mut;

/// The most blocks along grid x, y and z, and threads along block x, y, z
/// and in all, that every NVIDIA GPU accepts.
const MAX_GRID: [u32; 3] = [i32::MAX as u32, 65535, 65535];
const MAX_BLOCK: [u32; 3] = [1024, 1024, 64];
const MAX_THREADS: u64 = 1024;

/// A launch's geometry as the driver will take it: grids beyond the
/// limits shrink (kernels stride over their gangs); a size of 0 or a block
/// beyond the limits is a bug of the compiler (which fits every block
/// size it emits: `__ptxrt_fit_block`), reported instead of launched.
pub fn checked_geometry(grid: [u32; 3], block: [u32; 3]) -> Result<([u32; 3], [u32; 3]), String> {
    if grid.contains(&0) || block.contains(&0) {
        return Err(format!(
            "launch of size 0 (grid=({},{},{}) block=({},{},{}))",
            grid[0], grid[1], grid[2], block[0], block[1], block[2]
        ));
    }
    let total: u64 = block.iter().map(|&b| u64::from(b)).product();
    if block.iter().zip(MAX_BLOCK).any(|(b, m)| *b > m) || total > MAX_THREADS {
        return Err(format!(
            "block ({},{},{}) exceeds the device's limits",
            block[0], block[1], block[2]
        ));
    }
    let grid = std::array::from_fn(|k| grid[k].min(MAX_GRID[k]));
    Ok((grid, block))
}

/// `uint32_t __ptxrt_default_gangs(uint64_t trip, uint32_t block)`.
#[no_mangle]
pub extern "C" fn __ptxrt_default_gangs(trip: u64, block: u32) -> u32 {
    guard(|| {
        let mut rt = lock_deferred();
        let dev = rt.active();
        let dev = dev
            .runs_kernels()
            .then_some((dev.info.sm_count, dev.info.max_threads_per_sm));
        crate::occupancy::default_gangs(trip, block, dev)
    })
}

/// `void *__ptxrt_scratch(const struct __ptxrt_loc *loc, uint64_t bytes, int async)`:
/// device memory of at least `bytes` for the reductions across gangs of
/// the next launch on queue `async`, whose 32-bit counters at the start
/// are zero (the memory is zeroed when made, and every kernel that uses a
/// counter leaves it at zero). One buffer per (device, queue), grown on
/// demand: kernels of one queue run one after the other, so they never
/// use it at the same time; kernels of different queues have their own.
///
/// # Safety
/// `loc` is null or a valid `__ptxrt_loc`.
#[no_mangle]
pub unsafe extern "C" fn __ptxrt_scratch(
    loc: *const Loc,
    bytes: u64,
    async_: c_int,
) -> *mut c_void {
    guard(|| {
        // SAFETY: the compiler passes a valid __ptxrt_loc or null.
        let loc = unsafe { SrcLoc::from_c(loc) };
        let fail = |f: Failure| -> ! { fatal_at(&loc, &f.what, None, f.detail.as_deref()) };
        let q = queue::resolve(async_).unwrap_or_else(|f| fail(f));
        let mut rt = match q {
            Queue::Sync => lock_deferred(),
            Queue::Id(_) => lock(),
        };
        let dev = rt.active();
        if !dev.runs_kernels() {
            fail(Failure::new(
                "internal error: reduction scratch while running on the host",
            ))
        }
        let want = usize::try_from(bytes.max(1)).unwrap_or(usize::MAX);
        if let Some(&(p, have)) = dev.scratch.get(&q) {
            if have >= want {
                return p as *mut c_void;
            }
            dev.scratch.remove(&q);
            // Freed once the queue's earlier kernels are done with it.
            queue::run(dev, q, |dev| dev.free(p)).unwrap_or_else(|f| fail(f));
        }
        // Grow geometrically so that changing gang counts settle quickly.
        let size = want.max(4096).next_power_of_two();
        let p = dev.alloc(size).unwrap_or_else(|e| {
            fail(Failure {
                what: format!("{} (reduction scratch)", e.what),
                ..e
            })
        });
        queue::run(dev, q, |dev| dev.zero(p, size)).unwrap_or_else(|f| fail(f));
        dev.scratch.insert(q, (p, size));
        p as *mut c_void
    })
}

/// `void __ptxrt_launch(loc, img, kernel, grid_x..z, block_x..z, shared_bytes, args, async)`:
/// launch on queue `async`; a synchronous launch waits for the kernel
/// (without the runtime lock) or, normally, leaves the wait to the next
/// point where the host observes the device ([`crate::deferred`]); an
/// async one returns at once (a failure of the kernel is reported where
/// the queue is waited for).
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
    async_: c_int,
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
        let q =
            queue::resolve(async_).unwrap_or_else(|f| fatal_at(&loc, &f.what, Some(&kname), None));
        let (grid, block) =
            match checked_geometry([grid_x, grid_y, grid_z], [block_x, block_y, block_z]) {
                Ok(g) => g,
                Err(why) => fatal_at(&loc, &format!("internal error: {why}"), Some(&kname), None),
            };
        let [grid_x, grid_y, grid_z] = grid;
        let what = || {
            format!(
                "kernel launch failed (grid=({grid_x},{grid_y},{grid_z}) block=({block_x},{block_y},{block_z}) shared={shared_bytes})"
            )
        };
        let (id, pl);
        let after = {
            // A synchronous launch queues behind the kernels not waited
            // for; an async one settles them (its stream is not ordered
            // after the null stream).
            let mut rt = match q {
                Queue::Sync => lock_deferred(),
                Queue::Id(_) => lock(),
            };
            let (dev, images) = rt.active_with_images();
            if !dev.runs_kernels() {
                fatal_at(
                    &loc,
                    "internal error: kernel launch while running on the host",
                    Some(&kname),
                    None,
                )
            }
            // SAFETY: img is the program's static image (caller contract).
            let func = match unsafe { image::function(dev, images, img, kernel) } {
                Ok(f) => f,
                Err(e) => fatal_at(&loc, "cannot load the kernel", Some(&kname), Some(&e)),
            };
            id = dev.id();
            pl = prof::Launch {
                kernel: &kname,
                grid,
                block,
            };
            if !dev.async_queues() {
                // The plugin's launch runs the kernel (the multicore
                // device: on host threads) and its queues are synchronous:
                // it runs without the runtime lock, on any queue.
                After::Run(dev.plugin, dev.ordinal, func)
            } else {
                let stream = match q {
                    Queue::Sync => std::ptr::null_mut(),
                    Queue::Id(n) => {
                        let d = dev.dev();
                        dev.queues.stream(d, n).unwrap_or_else(|f| {
                            fatal_at(&loc, &f.what, Some(&kname), f.detail.as_deref())
                        })
                    }
                };
                let go = |dev: &mut DeviceState| {
                    // SAFETY: func from the plugin; args as the caller
                    // guarantees; the stream is null or one of this device's.
                    unsafe {
                        dev.plugin.launch(
                            dev.ordinal,
                            func,
                            grid.as_ptr(),
                            block.as_ptr(),
                            shared_bytes,
                            args,
                            stream,
                        )
                    }
                };
                let ctx = prof::Ctx::on(&loc, id, q);
                let tool = prof::launch(prof::ev::ENQUEUE_LAUNCH_START, &ctx, &pl, null_mut());
                let (launched, started) = match q {
                    Queue::Sync => {
                        let started = timing::clock();
                        (go(dev), started)
                    }
                    Queue::Id(_) => (timing::measure(dev, q, &loc, Op::Kernel, go), None),
                };
                prof::launch(prof::ev::ENQUEUE_LAUNCH_END, &ctx, &pl, tool);
                if let Err(e) = launched {
                    fatal_at(&loc, &what(), Some(&kname), Some(&e));
                }
                if let Queue::Id(n) = q {
                    let what = format!(
                        "'{kname}' of the {} at {}:{}",
                        loc.construct, loc.file, loc.line
                    );
                    dev.queues.note_kernel(n, what);
                    return;
                }
                if deferred::enabled() {
                    deferred::defer(dev.plugin, dev.ordinal, &loc, &kname);
                    return;
                }
                After::Wait(dev.plugin, dev.ordinal, started)
            }
        };
        match after {
            After::Run(plugin, ordinal, func) => {
                let ctx = prof::Ctx::on(&loc, id, q);
                let tool = prof::launch(prof::ev::ENQUEUE_LAUNCH_START, &ctx, &pl, null_mut());
                let started = timing::clock();
                // SAFETY: as for the launch above; a synchronous launch
                // (null stream) of a device whose launches complete in the
                // call.
                let launched = unsafe {
                    plugin.launch(
                        ordinal,
                        func,
                        grid.as_ptr(),
                        block.as_ptr(),
                        shared_bytes,
                        args,
                        std::ptr::null_mut(),
                    )
                };
                if let Err(e) = launched {
                    fatal_at(&loc, &what(), Some(&kname), Some(&e));
                }
                prof::launch(prof::ev::ENQUEUE_LAUNCH_END, &ctx, &pl, tool);
                timing::kernel_done(&loc, id, started);
            }
            After::Wait(plugin, ordinal, started) => {
                // SAFETY: the legacy default stream of the device.
                if let Err(e) = unsafe { plugin.stream_synchronize(ordinal, std::ptr::null_mut()) }
                {
                    fatal_at(&loc, "kernel execution failed", Some(&kname), Some(&e));
                }
                timing::kernel_done(&loc, id, started);
            }
        }
    })
}

/// What a launch does once it has released the runtime lock.
enum After {
    /// Launch the function on the device (plugin, ordinal, function):
    /// the kernel runs in the call.
    Run(&'static Plugin, i32, *mut c_void),
    /// Wait for the kernel launched on the device's default stream
    /// (plugin, ordinal, when it was launched for `PTXRT_TIME`).
    Wait(&'static Plugin, i32, Option<std::time::Instant>),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn geometry_checked() {
        assert_eq!(
            checked_geometry([70000, 70000, 1], [32, 32, 1]),
            Ok(([70000, 65535, 1], [32, 32, 1]))
        );
        assert!(checked_geometry([0, 1, 1], [32, 32, 1]).is_err());
        assert!(checked_geometry([1, 1, 1], [32, 0, 1]).is_err());
        assert!(checked_geometry([1, 1, 1], [128, 16, 1]).is_err());
        assert!(checked_geometry([1, 1, 1], [1, 1, 65]).is_err());
    }
}
