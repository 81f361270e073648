//! The ABI between libptxrt (`ptx-runtime/core`) and a device plugin
//! (`ptx-runtime/cuda-plugin`, built as `libptxrt-cuda.so`).
//!
//! Owns: the one list of plugin entry points ([`for_each_entry!`]), from which
//! everything that names an entry point is generated: the function-pointer
//! vtable with its `dlsym`-style loader ([`PluginFns::load`]) and core's
//! checked calls ([`checked_calls!`]), used by core; each plugin's exports
//! ([`export_entries!`]); a vtable of functions in scope ([`fns_in_scope!`],
//! the built-in host device); the plugin ABI version; the plain-data types
//! passed across ([`DeviceInfo`], [`LinkInput`], [`FunctionLimits`]); what every plugin does
//! alike ([`support`]: the per-thread last error, panics caught).
//! May call: nothing but `core`/`std` (no dlopen here: the caller passes a
//! symbol lookup function, so this crate links into both sides).
//!
//! Conventions (like libgomp's `GOMP_OFFLOAD_*` and LLVM offload's plugin
//! interface): every entry point is `extern "C"` and exported as
//! `__ptxrt_plugin_<name>`; every status is an `i32`, 0 = success; after a
//! failure `last_error` gives the text (the failing driver call, the driver's
//! error name and string, and for a module load the JIT logs). The error text
//! is per thread. `__ptxrt_plugin_abi_version` is looked up and checked before
//! anything else. Device addresses are `u64` (`CUdeviceptr`); modules and
//! functions are opaque pointers owned by the plugin. Every call that names a
//! device makes that device's (primary) context current in the calling thread.

use std::ffi::{c_char, c_void, CStr};
use std::fmt;

/// Version of this ABI; bump on any change to [`for_each_entry!`], [`DeviceInfo`]
/// or [`LinkInput`]. Version 2 added `link_module`; version 3 the data
/// environment: device memory set/copy/info, module globals (device address
/// cells), page-locked host memory, streams and events (staged transfers),
/// and `DeviceInfo::driver_version`; version 4 the async queues: launches,
/// zeroing and device copies on a stream, non-blocking streams, stream and
/// event queries, cross-stream waits and host functions run in stream order;
/// version 5 the timing events of `PTXRT_TIME`: `event_create_timed` and
/// `event_elapsed`; version 6 `DeviceInfo::code_kinds` (which device code
/// a plugin loads: PTX and cubins, or the emulator's SIMT bytecode); version
/// 7 `set_stack_size` (the per-thread stack of recursive device code);
/// version 8 `function_limits` (a kernel's registers and shared memory,
/// and the blocks of it an SM holds, for launches sized by occupancy).
pub const PLUGIN_ABI_VERSION: u32 = 8;

/// A host function run in stream order by `launch_host_func` (on a driver
/// thread: it must not call the driver).
pub type HostFn = unsafe extern "C" fn(data: *mut c_void);

/// Symbol of the version function, `extern "C" fn() -> u32`, checked first.
pub const ABI_VERSION_SYMBOL: &CStr = c"__ptxrt_plugin_abi_version";

/// Signature of [`ABI_VERSION_SYMBOL`].
pub type AbiVersionFn = unsafe extern "C" fn() -> u32;

/// Properties of one device, filled by `device_info`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct DeviceInfo {
    /// NUL-terminated device name.
    pub name: [c_char; 256],
    /// Compute capability, e.g. 9 and 0 for sm_90.
    pub cc_major: i32,
    pub cc_minor: i32,
    /// Number of streaming multiprocessors.
    pub sm_count: i32,
    pub max_threads_per_block: i32,
    pub max_threads_per_sm: i32,
    pub warp_size: i32,
    pub max_shared_per_block: i32,
    /// The driver's version, e.g. 13000 for CUDA 13.0 (`cuDriverGetVersion`).
    pub driver_version: i32,
    /// Total global memory in bytes.
    pub total_mem: u64,
    /// The kinds of device code `module_load_data` and `link_module` take:
    /// bit `1 << k` for each [`CODE_PTX`], [`CODE_CUBIN`], [`CODE_SIMT`]
    /// it loads (a GPU: PTX and cubins; the emulator: SIMT bytecode).
    pub code_kinds: u32,
}

impl Default for DeviceInfo {
    fn default() -> Self {
        DeviceInfo::DEFAULT
    }
}

impl DeviceInfo {
    /// No device: every field 0, the code kinds a GPU's.
    pub const DEFAULT: DeviceInfo = DeviceInfo {
        name: [0; 256],
        cc_major: 0,
        cc_minor: 0,
        sm_count: 0,
        max_threads_per_block: 0,
        max_threads_per_sm: 0,
        warp_size: 0,
        max_shared_per_block: 0,
        driver_version: 0,
        total_mem: 0,
        code_kinds: GPU_CODE,
    };

    /// The name as a Rust string (up to the first NUL; lossy UTF-8).
    pub fn name_str(&self) -> String {
        let bytes: Vec<u8> = self
            .name
            .iter()
            .take_while(|&&c| c != 0)
            .map(|&c| c as u8)
            .collect();
        String::from_utf8_lossy(&bytes).into_owned()
    }
}

/// Device code kind: PTX text (the driver's JIT compiles it for the device).
/// The kinds number the entries of a device image (ptxrt.h,
/// `PTXRT_CODE_*`), [`LinkInput::kind`] and the bits of
/// [`DeviceInfo::code_kinds`].
pub const CODE_PTX: u32 = 0;
/// Device code kind: a cubin (relocatable, from `ptxas -c`, in a link) for
/// one GPU architecture.
pub const CODE_CUBIN: u32 = 1;
/// Device code kind: accc's SIMT bytecode (crate `ptxrt-simt`), which the
/// emulated device `libptxrt-emu.so` runs on the CPU.
pub const CODE_SIMT: u32 = 2;
/// Device code kind: CUDA C source of the kernels, for nvcc. No plugin
/// loads it yet (the number is taken so images can carry it later, next to
/// the cubins nvcc makes, which are [`CODE_CUBIN`] entries); libptxrt skips
/// an entry of a kind it does not know and names it in messages.
pub const CODE_CUDA: u32 = 3;
/// Device code kind: host code of the kernels, compiled into the program
/// (`accc -acc=multicore`): the entry's bytes are the address of the
/// module's symbol table (ptxrt.h, `PTXRT_CODE_HOST`), which the
/// multicore device built into libptxrt "loads".
pub const CODE_HOST: u32 = 4;
/// [`DeviceInfo::code_kinds`] of a GPU: PTX and cubins.
pub const GPU_CODE: u32 = (1 << CODE_PTX) | (1 << CODE_CUBIN);

/// [`LinkInput::kind`] of PTX text.
pub const LINK_INPUT_PTX: i32 = CODE_PTX as i32;
/// [`LinkInput::kind`] of a relocatable cubin (`ptxas -c`) for the device's arch.
pub const LINK_INPUT_CUBIN: i32 = CODE_CUBIN as i32;
/// [`LinkInput::kind`] of SIMT bytecode.
pub const LINK_INPUT_SIMT: i32 = CODE_SIMT as i32;

/// What limits the launches of one kernel on one device, filled by
/// `function_limits` (`cuFuncGetAttribute` and the driver's occupancy
/// calculator).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FunctionLimits {
    /// Registers a thread (`CU_FUNC_ATTRIBUTE_NUM_REGS`).
    pub regs: i32,
    /// Bytes of statically allocated shared memory a block
    /// (`CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES`).
    pub static_shared: i32,
    /// Bytes of local memory a thread: spilled registers and private
    /// arrays (`CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES`).
    pub local_bytes: i32,
    /// The most threads a block of the kernel may have on the device, beyond
    /// which a launch fails (`CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK`).
    pub max_threads: i32,
    /// Blocks of the asked number of threads one SM holds at once
    /// (`cuOccupancyMaxActiveBlocksPerMultiprocessor`); 0 when no block
    /// size was asked or such a block cannot run.
    pub blocks_per_sm: i32,
}

impl FunctionLimits {
    /// Nothing known: every field 0.
    pub const NONE: FunctionLimits = FunctionLimits {
        regs: 0,
        static_shared: 0,
        local_bytes: 0,
        max_threads: 0,
        blocks_per_sm: 0,
    };
}

/// One input of `link_module`: the code of one relocatable device image.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct LinkInput {
    /// [`LINK_INPUT_PTX`], [`LINK_INPUT_CUBIN`] or [`LINK_INPUT_SIMT`].
    pub kind: i32,
    /// The bytes: PTX text (NUL-terminated or not), a relocatable cubin or
    /// SIMT bytecode.
    pub data: *const u8,
    /// Number of bytes at `data` (without a terminating NUL).
    pub len: usize,
    /// NUL-terminated name of the input in the linker's messages (the
    /// image's source file), or null.
    pub name: *const c_char,
}

/// The list of plugin entry points: calls `$cb! { ... }` with one
/// `fn name(inputs) -> (outputs);` per entry point. This is the only place
/// the ABI is written down; everything else is generated from it:
///
/// * the C signature ([`sig`]): the inputs, then one `*mut T` per output,
///   returning an `i32` status (0 = success, else `last_error` says why);
/// * the vtable [`PluginFns`] and its `dlsym` loader ([`PluginFns::load`])
///   and the exported names ([`SYMBOLS`]), used by libptxrt's core;
/// * libptxrt's checked calls ([`checked_calls!`]: `Result<outputs,
///   String>`), used by core's `Plugin`;
/// * a plugin's exports ([`export_entries!`]: `__ptxrt_plugin_<name>`
///   calling the plugin's function `<name>` of the C signature);
/// * a vtable of functions in scope ([`fns_in_scope!`]: the host device
///   and the tests' fake plugin, which are not dlopened).
///
/// Adding an entry point is one line here (and its implementation in each
/// plugin; a plugin that lacks it does not compile). Two symbols are not
/// in the list because every plugin has them alike:
/// `__ptxrt_plugin_abi_version` ([`ABI_VERSION_SYMBOL`]) and
/// `__ptxrt_plugin_last_error` ([`LastErrorFn`]).
#[macro_export]
macro_rules! for_each_entry {
    ($cb:ident) => {
        $cb! {
            /// Initialise the driver (cuInit). Idempotent.
            fn init() -> ();
            /// Number of devices into `*count`.
            fn device_count() -> (count: i32);
            /// Properties of device `dev` into `*info`.
            fn device_info(dev: i32) -> (info: $crate::DeviceInfo);
            /// Retain `dev`'s primary context (lazily) and make it current in this thread.
            fn set_device(dev: i32) -> ();
            /// Load a module from PTX text (NUL-terminated or not), a cubin
            /// image or SIMT bytecode (the kinds its `DeviceInfo::code_kinds` names).
            fn module_load_data(dev: i32, image: *const u8, len: usize) -> (module: *mut ::std::ffi::c_void);
            /// Link the `n` relocatable images at `inputs` into one module with
            /// the driver's JIT linker (PTX is compiled first) and load it; the
            /// module is used and unloaded like one from `module_load_data`. On
            /// failure the error text includes the linker's error log (e.g. an
            /// undefined symbol, named with the input that refers to it).
            fn link_module(dev: i32, inputs: *const $crate::LinkInput, n: usize) -> (module: *mut ::std::ffi::c_void);
            /// Look up kernel `name` (NUL-terminated) in `module`.
            fn module_get_function(dev: i32, module: *mut ::std::ffi::c_void, name: *const ::std::ffi::c_char) -> (func: *mut ::std::ffi::c_void);
            /// Unload a module.
            fn module_unload(dev: i32, module: *mut ::std::ffi::c_void) -> ();
            /// Allocate `bytes` (> 0) of device memory into `*ptr`.
            fn mem_alloc(dev: i32, bytes: usize) -> (ptr: u64);
            /// Free device memory.
            fn mem_free(dev: i32, ptr: u64) -> ();
            /// Copy `bytes` from host `src` to device `dst` (synchronous).
            fn memcpy_htod(dev: i32, dst: u64, src: *const ::std::ffi::c_void, bytes: usize) -> ();
            /// Copy `bytes` from device `src` to host `dst` (synchronous).
            fn memcpy_dtoh(dev: i32, dst: *mut ::std::ffi::c_void, src: u64, bytes: usize) -> ();
            /// Queue a launch of `func` on `stream` (null: the legacy default
            /// stream); `args[i]` points at parameter i (read before the call
            /// returns). Does not wait for the kernel.
            fn launch(dev: i32, func: *mut ::std::ffi::c_void, grid: *const u32, block: *const u32, shared_bytes: u32, args: *mut *mut ::std::ffi::c_void, stream: *mut ::std::ffi::c_void) -> ();
            /// Wait for all work on `dev`.
            fn synchronize(dev: i32) -> ();
            /// Free and total device memory of `dev` in bytes.
            fn mem_get_info(dev: i32) -> (free: u64, total: u64);
            /// Set `bytes` bytes of device memory at `dst` to zero (synchronous).
            fn memset_zero(dev: i32, dst: u64, bytes: usize) -> ();
            /// Copy `bytes` from device `src` to device `dst` (synchronous).
            fn memcpy_dtod(dev: i32, dst: u64, src: u64, bytes: usize) -> ();
            /// Queue the zeroing of `bytes` bytes at device `dst` on `stream`.
            fn memset_zero_async(dev: i32, dst: u64, bytes: usize, stream: *mut ::std::ffi::c_void) -> ();
            /// Queue a copy of `bytes` from device `src` to device `dst` on `stream`.
            fn memcpy_dtod_async(dev: i32, dst: u64, src: u64, bytes: usize, stream: *mut ::std::ffi::c_void) -> ();
            /// Device address and size of the global variable `name`
            /// (NUL-terminated) of `module`.
            fn module_get_global(dev: i32, module: *mut ::std::ffi::c_void, name: *const ::std::ffi::c_char) -> (ptr: u64, bytes: usize);
            /// Allocate `bytes` (> 0) of page-locked host memory that every
            /// device can DMA from and to.
            fn host_alloc(dev: i32, bytes: usize) -> (ptr: *mut ::std::ffi::c_void);
            /// Free memory from `host_alloc`.
            fn host_free(dev: i32, ptr: *mut ::std::ffi::c_void) -> ();
            /// `*pinned` = 1 when host address `ptr` is page-locked (allocated
            /// or registered with the driver), else 0.
            fn host_is_pinned(dev: i32, ptr: *const ::std::ffi::c_void) -> (pinned: i32);
            /// Create a stream of `dev`: ordered with the legacy default
            /// stream, or not when `nonblocking` is nonzero.
            fn stream_create(dev: i32, nonblocking: i32) -> (stream: *mut ::std::ffi::c_void);
            /// `*done` = 1 when all work queued on `stream` has completed, else 0.
            fn stream_query(dev: i32, stream: *mut ::std::ffi::c_void) -> (done: i32);
            /// Work queued on `stream` after this call waits until `event`
            /// (as last recorded) has completed; the host does not wait.
            fn stream_wait_event(dev: i32, stream: *mut ::std::ffi::c_void, event: *mut ::std::ffi::c_void) -> ();
            /// Queue a call of `func(data)` on `stream`, in stream order, run on
            /// a driver thread (`func` must not call the driver).
            fn launch_host_func(dev: i32, stream: *mut ::std::ffi::c_void, func: $crate::HostFn, data: *mut ::std::ffi::c_void) -> ();
            /// Destroy a stream from `stream_create`.
            fn stream_destroy(dev: i32, stream: *mut ::std::ffi::c_void) -> ();
            /// Wait for all work queued on `stream`.
            fn stream_synchronize(dev: i32, stream: *mut ::std::ffi::c_void) -> ();
            /// Queue a copy of `bytes` from host `src` (page-locked for the
            /// copy to be asynchronous) to device `dst` on `stream`.
            fn memcpy_htod_async(dev: i32, dst: u64, src: *const ::std::ffi::c_void, bytes: usize, stream: *mut ::std::ffi::c_void) -> ();
            /// Queue a copy of `bytes` from device `src` to host `dst` on `stream`.
            fn memcpy_dtoh_async(dev: i32, dst: *mut ::std::ffi::c_void, src: u64, bytes: usize, stream: *mut ::std::ffi::c_void) -> ();
            /// Create an event of `dev` (no timing).
            fn event_create(dev: i32) -> (event: *mut ::std::ffi::c_void);
            /// Destroy an event from `event_create`.
            fn event_destroy(dev: i32, event: *mut ::std::ffi::c_void) -> ();
            /// Record `event` on `stream`: it completes when the work queued
            /// before it has.
            fn event_record(dev: i32, event: *mut ::std::ffi::c_void, stream: *mut ::std::ffi::c_void) -> ();
            /// Wait until `event` has completed.
            fn event_synchronize(dev: i32, event: *mut ::std::ffi::c_void) -> ();
            /// `*done` = 1 when `event` has completed (or was never recorded), else 0.
            fn event_query(dev: i32, event: *mut ::std::ffi::c_void) -> (done: i32);
            /// Create an event of `dev` that records the time it completes
            /// (for `event_elapsed`; `event_create`'s events do not);
            /// destroyed with `event_destroy`.
            fn event_create_timed(dev: i32) -> (event: *mut ::std::ffi::c_void);
            /// `*ms` = milliseconds from `start` to `end`, two completed
            /// events from `event_create_timed` (cuEventElapsedTime).
            fn event_elapsed(dev: i32, start: *mut ::std::ffi::c_void, end: *mut ::std::ffi::c_void) -> (ms: f32);
            /// Set the stack of each thread of `dev`'s kernels to `bytes`
            /// (cuCtxSetLimit(CU_LIMIT_STACK_SIZE); waits for the device's
            /// work); `*set` = the limit now in force (the driver may round
            /// it up). A kernel whose stack ptxas sized gets at least that.
            fn set_stack_size(dev: i32, bytes: usize) -> (set: usize);
            /// What limits launches of kernel `func` (from `module_get_function`)
            /// on `dev`: its registers, shared and local memory and most
            /// threads a block, and how many blocks of `threads` threads
            /// (with no dynamic shared memory) an SM holds at once (`threads`
            /// 0: `blocks_per_sm` is 0).
            fn function_limits(dev: i32, func: *mut ::std::ffi::c_void, threads: u32) -> (limits: $crate::FunctionLimits);
        }
    };
}

macro_rules! gen_vtable {
    ($( $(#[$m:meta])* fn $name:ident ( $($arg:ident : $ty:ty),* ) -> ( $($out:ident : $oty:ty),* ); )*) => {
        /// One type alias per entry point: the exact C signature.
        #[allow(non_camel_case_types)]
        pub mod sig {
            $( $(#[$m])* pub type $name = unsafe extern "C" fn($($ty,)* $(*mut $oty),*) -> i32; )*
        }

        /// The plugin's entry points, resolved.
        #[derive(Clone, Copy, Debug)]
        pub struct PluginFns {
            $( $(#[$m])* pub $name: sig::$name, )*
            /// Copy this thread's last error text into `buf` (NUL-terminated,
            /// truncated to `len`); returns the full length of the text.
            pub last_error: LastErrorFn,
        }

        /// Exported symbol names of the listed entry points, in ABI order
        /// (then `__ptxrt_plugin_last_error`).
        pub const SYMBOLS: &[&str] = &[
            $( concat!("__ptxrt_plugin_", stringify!($name)), )*
            "__ptxrt_plugin_last_error",
        ];

        impl PluginFns {
            /// Resolve every entry point through `lookup` (e.g. `dlsym` on the
            /// plugin's handle), after checking [`ABI_VERSION_SYMBOL`].
            ///
            /// # Safety
            /// `lookup` must return either null or the address of a function
            /// with the signature this ABI declares for that symbol.
            pub unsafe fn load(mut lookup: impl FnMut(&CStr) -> *mut c_void) -> Result<PluginFns, LoadError> {
                let v = lookup(ABI_VERSION_SYMBOL);
                if v.is_null() {
                    return Err(LoadError::MissingSymbol(sym_name(ABI_VERSION_SYMBOL)));
                }
                // SAFETY: non-null, the caller guarantees the signature.
                let version_fn = std::mem::transmute::<*mut c_void, AbiVersionFn>(v);
                let found = version_fn();
                if found != PLUGIN_ABI_VERSION {
                    return Err(LoadError::VersionMismatch { found, expected: PLUGIN_ABI_VERSION });
                }
                let mut get = |sym: &str| -> Result<*mut c_void, LoadError> {
                    let c = std::ffi::CString::new(sym)
                        .map_err(|_| LoadError::MissingSymbol(sym.to_string()))?;
                    let p = lookup(&c);
                    if p.is_null() {
                        return Err(LoadError::MissingSymbol(sym.to_string()));
                    }
                    Ok(p)
                };
                Ok(PluginFns {
                    $( $name: {
                        let p = get(concat!("__ptxrt_plugin_", stringify!($name)))?;
                        // SAFETY: non-null, the caller guarantees the signature.
                        std::mem::transmute::<*mut c_void, sig::$name>(p)
                    }, )*
                    last_error: {
                        let p = get("__ptxrt_plugin_last_error")?;
                        // SAFETY: as above.
                        std::mem::transmute::<*mut c_void, LastErrorFn>(p)
                    },
                })
            }
        }
    };
}

for_each_entry!(gen_vtable);

/// Used by libptxrt's core: `ptxrt_plugin_abi::for_each_entry!(checked_calls);`
/// next to a type `Plugin` with a field `fns: PluginFns` and a method
/// `check(&self, status: i32) -> Result<(), String>` (the plugin's
/// `last_error` text on failure) generates one method per entry point,
/// `unsafe fn name(&self, inputs) -> Result<outputs, String>` (one output:
/// its value; none: `()`; several: a tuple, in order). Safety of each: the
/// pointers passed must be valid as the entry point's documentation says,
/// and handles (modules, streams, events, device addresses) must come from
/// the same plugin and device.
#[macro_export]
macro_rules! checked_calls {
    ($( $(#[$m:meta])* fn $name:ident ( $($arg:ident : $ty:ty),* ) -> ( $($out:ident : $oty:ty),* ); )*) => {
        #[allow(unused_parens, clippy::unused_unit, clippy::too_many_arguments, clippy::missing_safety_doc)]
        impl Plugin {
            $(
                $(#[$m])*
                pub unsafe fn $name(&self, $($arg: $ty),*) -> Result<( $($oty),* ), String> {
                    $( let mut $out = <$oty as $crate::OutValue>::ZERO; )*
                    // SAFETY: out-pointers to locals; the inputs per the caller.
                    let status = unsafe { (self.fns.$name)($($arg,)* $(&mut $out),*) };
                    self.check(status)?;
                    Ok(( $($out),* ))
                }
            )*
        }
    };
}

/// Used by a plugin at its crate root: `ptxrt_plugin_abi::for_each_entry!(export_entries);`
/// exports every entry point as `__ptxrt_plugin_<name>` (in a generated
/// module `ptxrt_exports`), each calling the crate root's function `<name>`
/// with the entry's C signature (inputs, then one `*mut T` per output,
/// returning the status), plus `__ptxrt_plugin_abi_version` and
/// `__ptxrt_plugin_last_error` ([`support`]). A missing function or a
/// wrong signature does not compile.
#[macro_export]
macro_rules! export_entries {
    ($( $(#[$m:meta])* fn $name:ident ( $($arg:ident : $ty:ty),* ) -> ( $($out:ident : $oty:ty),* ); )*) => {
        /// The plugin's exported entry points, generated from
        /// `ptxrt_plugin_abi::for_each_entry!`: each calls the function of
        /// the same name at the crate root.
        pub mod ptxrt_exports {
            /// The plugin ABI version this plugin implements (checked first by libptxrt).
            #[export_name = "__ptxrt_plugin_abi_version"]
            pub extern "C" fn abi_version() -> u32 {
                $crate::PLUGIN_ABI_VERSION
            }

            /// This thread's last error text (see `ptxrt_plugin_abi::support`).
            ///
            /// # Safety
            /// `buf` null or writable for `len` bytes.
            #[export_name = "__ptxrt_plugin_last_error"]
            pub unsafe extern "C" fn last_error(buf: *mut ::std::ffi::c_char, len: usize) -> usize {
                // SAFETY: per the caller.
                unsafe { $crate::support::last_error(buf, len) }
            }

            $(
                $(#[$m])*
                ///
                /// # Safety
                /// Called by libptxrt only, with the pointers the plugin ABI describes.
                #[export_name = concat!("__ptxrt_plugin_", stringify!($name))]
                #[allow(clippy::too_many_arguments)]
                pub unsafe extern "C" fn $name($($arg: $ty,)* $($out: *mut $oty),*) -> i32 {
                    // SAFETY: per the caller.
                    unsafe { super::$name($($arg,)* $($out),*) }
                }
            )*
        }
    };
}

/// A [`PluginFns`] of the functions in scope named after the entry points
/// (and `last_error`), each with the entry's C signature (the host device
/// and the tests' fake plugin): `ptxrt_plugin_abi::for_each_entry!(fns_in_scope)`
/// is an expression.
#[macro_export]
macro_rules! fns_in_scope {
    ($( $(#[$m:meta])* fn $name:ident ( $($arg:ident : $ty:ty),* ) -> ( $($out:ident : $oty:ty),* ); )*) => {
        $crate::PluginFns {
            $( $name, )*
            last_error,
        }
    };
}

/// The type of an output of an entry point: plain data that starts as
/// [`OutValue::ZERO`] before the plugin writes it.
pub trait OutValue: Copy {
    const ZERO: Self;
}
impl OutValue for i32 {
    const ZERO: i32 = 0;
}
impl OutValue for u64 {
    const ZERO: u64 = 0;
}
impl OutValue for usize {
    const ZERO: usize = 0;
}
impl OutValue for f32 {
    const ZERO: f32 = 0.0;
}
impl OutValue for *mut c_void {
    const ZERO: *mut c_void = std::ptr::null_mut();
}
impl OutValue for DeviceInfo {
    const ZERO: DeviceInfo = DeviceInfo::DEFAULT;
}
impl OutValue for FunctionLimits {
    const ZERO: FunctionLimits = FunctionLimits::NONE;
}

/// Signature of `__ptxrt_plugin_last_error`: copy this thread's last error
/// text into `buf` (NUL-terminated, truncated to `len`); returns the full
/// length of the text.
pub type LastErrorFn = unsafe extern "C" fn(buf: *mut c_char, len: usize) -> usize;

/// What every plugin does alike (used by [`export_entries!`] and by the
/// plugins' entry points): the per-thread text of the last error, running
/// an entry point with panics caught, out-pointers checked.
pub mod support {
    use std::cell::RefCell;
    use std::ffi::c_char;
    use std::panic::{catch_unwind, AssertUnwindSafe};

    thread_local! {
        static LAST_ERROR: RefCell<String> = const { RefCell::new(String::new()) };
    }

    /// Keep `msg` as this thread's last error.
    pub fn set_error(msg: String) {
        LAST_ERROR.with(|e| *e.borrow_mut() = msg);
    }

    /// Run one entry point of plugin `plugin` (e.g. `libptxrt-cuda`): catch
    /// panics, keep the error text, return the status (0 ok, 1 error, 2 panic).
    pub fn entry(plugin: &str, f: impl FnOnce() -> Result<(), String>) -> i32 {
        match catch_unwind(AssertUnwindSafe(f)) {
            Ok(Ok(())) => 0,
            Ok(Err(msg)) => {
                set_error(msg);
                1
            }
            Err(_) => {
                set_error(format!("internal error in {plugin} (panic)"));
                2
            }
        }
    }

    /// The out-pointer `p` of plugin `plugin`, or an error naming it.
    ///
    /// # Safety
    /// `p` null or valid and aligned for writing a `T` for `'a`.
    pub unsafe fn out<'a, T>(p: *mut T, plugin: &str, what: &str) -> Result<&'a mut T, String> {
        // SAFETY: per the caller.
        unsafe { p.as_mut() }.ok_or_else(|| format!("{plugin}: null {what} pointer"))
    }

    /// `__ptxrt_plugin_last_error`: copy this thread's last error text into
    /// `buf` (NUL-terminated, truncated to `len`); the full length.
    ///
    /// # Safety
    /// `buf` null or writable for `len` bytes.
    pub unsafe fn last_error(buf: *mut c_char, len: usize) -> usize {
        catch_unwind(|| {
            LAST_ERROR.with(|e| {
                let e = e.borrow();
                let bytes = e.as_bytes();
                if !buf.is_null() && len > 0 {
                    let n = bytes.len().min(len - 1);
                    // SAFETY: buf has room for len bytes.
                    unsafe {
                        std::ptr::copy_nonoverlapping(bytes.as_ptr(), buf.cast::<u8>(), n);
                        *buf.add(n) = 0;
                    }
                }
                bytes.len()
            })
        })
        .unwrap_or(0)
    }
}

fn sym_name(s: &CStr) -> String {
    s.to_string_lossy().into_owned()
}

/// Why a plugin's entry points could not be resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LoadError {
    /// A required symbol is not exported by the plugin.
    MissingSymbol(String),
    /// The plugin was built for another ABI version.
    VersionMismatch { found: u32, expected: u32 },
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::MissingSymbol(s) => write!(f, "the plugin does not export `{s}`"),
            LoadError::VersionMismatch { found, expected } => write!(
                f,
                "the plugin implements plugin ABI version {found}, libptxrt expects {expected}"
            ),
        }
    }
}

impl std::error::Error for LoadError {}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    unsafe extern "C" fn v1() -> u32 {
        PLUGIN_ABI_VERSION
    }
    unsafe extern "C" fn v0() -> u32 {
        0
    }
    unsafe extern "C" fn dummy() -> i32 {
        0
    }

    fn table(version: *mut c_void, skip: Option<&str>) -> HashMap<String, *mut c_void> {
        let mut m = HashMap::new();
        m.insert(sym_name(ABI_VERSION_SYMBOL), version);
        for s in SYMBOLS {
            if Some(*s) != skip {
                m.insert(s.to_string(), dummy as *mut c_void);
            }
        }
        m
    }

    fn load(m: &HashMap<String, *mut c_void>) -> Result<PluginFns, LoadError> {
        unsafe { PluginFns::load(|s| m.get(&sym_name(s)).copied().unwrap_or(std::ptr::null_mut())) }
    }

    #[test]
    fn loads_all_symbols() {
        assert!(load(&table(v1 as *mut c_void, None)).is_ok());
        assert!(SYMBOLS.contains(&"__ptxrt_plugin_launch"));
        assert!(SYMBOLS.contains(&"__ptxrt_plugin_link_module"));
    }

    #[test]
    fn names_missing_symbol() {
        let e = load(&table(
            v1 as *mut c_void,
            Some("__ptxrt_plugin_memcpy_dtoh"),
        ))
        .unwrap_err();
        assert_eq!(
            e,
            LoadError::MissingSymbol("__ptxrt_plugin_memcpy_dtoh".into())
        );
        assert!(e.to_string().contains("__ptxrt_plugin_memcpy_dtoh"));
    }

    #[test]
    fn checks_version_first() {
        let e = load(&table(v0 as *mut c_void, Some("__ptxrt_plugin_init"))).unwrap_err();
        assert_eq!(
            e,
            LoadError::VersionMismatch {
                found: 0,
                expected: PLUGIN_ABI_VERSION
            }
        );
        let mut m = table(v1 as *mut c_void, None);
        m.remove(&sym_name(ABI_VERSION_SYMBOL));
        let e = load(&m).unwrap_err();
        assert_eq!(
            e,
            LoadError::MissingSymbol("__ptxrt_plugin_abi_version".into())
        );
    }
}
