//! libptxrt: the runtime library of accc (`libptxrt.a`, C ABI).
//!
//! Owns: the entry points declared in `ptx-runtime/include/ptxrt.h` (compiler
//! ABI, `__ptxrt_*`) and `ptx-runtime/include/openacc.h` (user API, `acc_*`).
//! Each module owns one concept and says in its doc comment what it may call:
//!
//! * [`abi`] — the C structs and constants of ptxrt.h, read safely.
//! * [`error`] — fatal error reporting (one line on stderr, exit 1), the
//!   [`error::Failure`] of data operations, and the panic guard of every
//!   extern "C" function.
//! * [`icv`] — the ICVs: `ACC_DEVICE_TYPE`, `ACC_DEVICE_NUM`, per-thread
//!   device type / number / default async queue.
//! * [`runtime`] — the global runtime state: the devices (the host device
//!   and the NVIDIA devices of the plugin), which one constructs use, lazy
//!   init, shutdown; `__ptxrt_use_device`. Owns the lock and documents the
//!   lock order.
//! * [`device`] — one device's state and what the device is (host or
//!   NVIDIA); the parts it owns never take the runtime lock.
//! * [`host`] — the host device: the host behind the plugin interface
//!   (shared memory, constructs through their host fallback, synchronous
//!   queues).
//! * [`multicore`] — the multicore device: the host's threads running the
//!   kernels `accc -acc=multicore` compiled as host code (shared memory).
//! * [`present`] — the present table of a device (host range → device range,
//!   counts, attachments).
//! * [`alloc`] — the caching allocator of device memory.
//! * [`pipeline`] — the chunked copy-and-launch pipeline interface (slots,
//!   DMAs, launches, events on one queue) and the copy pipelines over it.
//! * [`staging`] — when and in which chunks large transfers are staged
//!   through two pinned buffers (settings).
//! * [`hostcopy`] — large host copies over a pool of threads.
//! * [`devmem`] — a device's memory: allocation and every host/device copy.
//! * [`mapping`] — the data clause actions (the one place ranges become
//!   present and are released), attach/detach, update, map/unmap, cells,
//!   bare pointers (the present block holding their target).
//! * [`rows`] — the rows of sub-arrays through pointers to pointers.
//! * [`data`] — structured regions: `__ptxrt_data_begin/end/cleanup`,
//!   `__ptxrt_deviceptr`.
//! * [`enter_exit`] — `__ptxrt_enter_data`, `__ptxrt_exit_data`.
//! * [`update`] — `__ptxrt_update`, `__ptxrt_host_data_ptr`.
//! * [`declare`] — `__ptxrt_register_declare`, declared globals, cells.
//! * [`queue`] — async arguments, the streams of the queues, waits, tests,
//!   the queue work runs on.
//! * [`ring`] — the pinned ring lent to async copies of pageable memory.
//! * [`asyncmem`] — copies, zeroing and frees queued on an async queue.
//! * [`plugin`] — finding and dlopening the device plugin (libptxrt-cuda.so).
//! * [`image`] — registered device images and lazy module loading (and
//!   linking of relocatable images).
//! * [`link`] — which code of the relocatable images is linked on a device.
//! * [`launch`] — `__ptxrt_launch`, `__ptxrt_default_gangs`.
//! * [`deferred`] — the waits for synchronous kernels, deferred to where
//!   the host next observes the device.
//! * [`occupancy`] — launch sizes from the loaded kernel's registers and
//!   shared memory: `__ptxrt_kernel_gangs`, `__ptxrt_kernel_threads`.
//! * [`api_device`], [`api_data`], [`api_async`] — the `acc_*` routines.
//! * [`device_directives`] — `__ptxrt_init`, `__ptxrt_shutdown`,
//!   `__ptxrt_set`: the init, shutdown and set directives.
//! * [`notify`] — `PTXRT_NOTIFY` / `PTXRT_DEBUG` lines.
//! * [`prof`] — the OpenACC profiling and error-callback interface
//!   (`acc_prof.h`): the callback registry, `ACC_PROFLIB`, the events;
//!   [`prof_abi`] its C types.
//! * [`profile`] — the `PTXRT_TIME` records per construct and the table
//!   printed at exit.
//! * [`ranges`] — the range clients of [`prof`]: NVTX ranges ([`nvtx`],
//!   `PTXRT_NVTX`) and the host rows of the trace ([`trace`],
//!   `PTXRT_TRACE`: the Chrome trace-event file of host and device work).
//! * [`timing`] — measuring kernels and transfers for [`profile`] (host
//!   clock, device events around async work), the exit report.
//!
//! The device plugin is only ever dlopened, so a program linked with
//! `cc prog.o libptxrt.a -ldl -lpthread -lm` runs without CUDA (host fallback).
//! No panic crosses the C boundary ([`error::guard`]).

pub mod abi;
pub mod alloc;
pub mod api_async;
pub mod api_data;
pub mod api_device;
pub mod asyncmem;
pub mod data;
pub mod declare;
pub mod deferred;
pub mod device;
pub mod device_directives;
pub mod devmem;
pub mod enter_exit;
pub mod error;
pub mod host;
pub mod hostcopy;
pub mod icv;
pub mod image;
pub mod launch;
pub mod link;
pub mod mapping;
pub mod multicore;
pub mod notify;
pub mod nvtx;
pub mod occupancy;
pub mod pipeline;
pub mod plugin;
pub mod present;
pub mod prof;
pub mod prof_abi;
pub mod profile;
pub mod queue;
pub mod ranges;
pub mod ring;
pub mod rows;
pub mod runtime;
pub mod stack;
pub mod staging;
pub mod timing;
pub mod trace;
pub mod update;

#[cfg(test)]
mod async_tests;
#[cfg(test)]
mod deep_tests;
#[cfg(test)]
mod deferred_tests;
#[cfg(test)]
mod fake;
#[cfg(test)]
mod mapping_tests;
#[cfg(test)]
mod multi_device_tests;
#[cfg(test)]
mod prof_tests;
#[cfg(test)]
mod profile_tests;
