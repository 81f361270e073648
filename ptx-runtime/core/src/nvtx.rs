//! NVTX ranges for Nsight Systems (`PTXRT_NVTX=1`): each range of
//! [`crate::ranges`] (constructs, data entry and exit, updates,
//! transfers, launches, waits) is pushed when it starts and popped when it
//! ends, on the thread it runs on, named as `-Minfo` names the construct
//! (`t.c:42 parallel loop`, `t.c:42 upload a`, `t.c:50 wait`).
//!
//! The switch: `PTXRT_NVTX=1` (`0` off); unset, the ranges are on when
//! `NVTX_INJECTION64_PATH` is set, which is how Nsight Systems (and any
//! NVTX tool) attaches to a process: the one condition under which NVTX
//! calls do anything. nvc has no variable of its own for this (its
//! runtime reports to Nsight through the profiling interface).
//!
//! NVTX is found at run time, never linked, so nothing is needed at build
//! time: first `dlopen("libnvToolsExt.so.1")` (NVTX 2's library, from a
//! CUDA toolkit: its `nvtxRangePushA`/`nvtxRangePop` load the tool
//! themselves); without it, NVTX 3's injection protocol, as NVTX 3's
//! header-only implementation does it: `dlopen` the library
//! `NVTX_INJECTION64_PATH` names, call its
//! `InitializeInjectionNvtx2(nvtxGetExportTable)`, and the tool fills in
//! the modules' function tables (of which the core's `RangePushA` and
//! `RangePop` slots are used) through the export table's
//! `GetModuleFunctionTable`. When neither is
//! there (or the tool fills neither slot), nothing happens: the ranges
//! cost one cached check.
//!
//! Owns: the switch, the loaded functions, the per-thread depth (a pop
//! never goes below the pushes this module made).
//! May call: [`crate::notify`] (how a switch is read), libc (dlopen,
//! dlsym).

use std::cell::Cell;
use std::ffi::{c_char, c_int, c_uint, c_void, CString};
use std::sync::OnceLock;

/// `int nvtxRangePushA(const char *)`.
pub type PushFn = unsafe extern "C" fn(*const c_char) -> c_int;
/// `int nvtxRangePop(void)`.
pub type PopFn = unsafe extern "C" fn() -> c_int;

/// The two NVTX functions the ranges use.
#[derive(Clone, Copy, Debug)]
pub struct Api {
    pub push: PushFn,
    pub pop: PopFn,
}

/// Whether the ranges are on (read once): `PTXRT_NVTX`, else whether an
/// NVTX tool is attached (`NVTX_INJECTION64_PATH`).
pub fn enabled() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    let on = *ON.get_or_init(|| switch(&crate::notify::process_env));
    #[cfg(test)]
    let on = on || FAKE.with(|f| f.get().is_some());
    on
}

/// The switch from the environment `get` reads.
pub fn switch(get: crate::notify::Getenv) -> bool {
    match get("PTXRT_NVTX") {
        Some(v) => crate::notify::alias_flag(&["PTXRT_NVTX"], &|_| Some(v.clone())),
        None => get("NVTX_INJECTION64_PATH").is_some_and(|p| !p.is_empty()),
    }
}

extern "C" {
    fn dlopen(filename: *const c_char, flag: c_int) -> *mut c_void;
    fn dlsym(handle: *mut c_void, symbol: *const c_char) -> *mut c_void;
}
const RTLD_NOW: c_int = 2;

/// The functions, loaded on first use (`None`: no NVTX here).
fn api() -> Option<Api> {
    #[cfg(test)]
    if let Some(a) = FAKE.with(Cell::get) {
        return Some(a);
    }
    static API: OnceLock<Option<Api>> = OnceLock::new();
    *API.get_or_init(|| load_library().or_else(load_injection))
}

/// NVTX 2's library.
fn load_library() -> Option<Api> {
    // SAFETY: NUL-terminated names; handles from dlopen.
    unsafe {
        let h = dlopen(c"libnvToolsExt.so.1".as_ptr(), RTLD_NOW);
        if h.is_null() {
            return None;
        }
        let push = dlsym(h, c"nvtxRangePushA".as_ptr());
        let pop = dlsym(h, c"nvtxRangePop".as_ptr());
        if push.is_null() || pop.is_null() {
            return None;
        }
        Some(Api {
            push: std::mem::transmute::<*mut c_void, PushFn>(push),
            pop: std::mem::transmute::<*mut c_void, PopFn>(pop),
        })
    }
}

// NVTX 3's injection protocol (nvtxDetail/nvtxTypes.h, nvtxImpl.h).
const ETID_CALLBACKS: u32 = 1;
const ETID_VERSIONINFO: u32 = 3;
const CB_MODULE_CORE: usize = 1;
const CBID_CORE_RANGE_PUSH_A: usize = 9;
const CBID_CORE_RANGE_POP: usize = 11;
/// Slots of each module (`NVTX_CBID_<module>_SIZE`), by module: core,
/// CUDA, OpenCL, CUDA runtime, core 2 (domains), sync. Every table is
/// offered, as NVTX 3 does, since a tool may decline to attach when one
/// it fills is missing; only the core's push and pop are used.
const MODULE_SIZES: [usize; 7] = [0, 16, 9, 15, 7, 16, 7];
/// The largest module.
const MAX_SIZE: usize = 16;
const NVTX_VERSION: u32 = 3;

type FnPtr = Option<unsafe extern "C" fn()>;

/// `NvtxExportTableCallbacks`.
#[repr(C)]
struct ExportCallbacks {
    struct_size: usize,
    get_module_function_table:
        unsafe extern "C" fn(c_int, *mut *const *mut FnPtr, *mut c_uint) -> c_int,
}

/// `NvtxExportTableVersionInfo`.
#[repr(C)]
struct ExportVersion {
    struct_size: usize,
    version: u32,
    reserved0: u32,
    set_injection_nvtx_version: unsafe extern "C" fn(u32),
}

/// Each module's slots the tool writes its functions into, and the tables
/// of their addresses it is given (slot 0 unused, a null after the last,
/// as NVTX 3's own tables).
struct Slots {
    slots: [[FnPtr; MAX_SIZE]; 7],
    tables: [[*mut FnPtr; MAX_SIZE + 1]; 7],
}

static mut CORE: Slots = Slots {
    slots: [[None; MAX_SIZE]; 7],
    tables: [[std::ptr::null_mut(); MAX_SIZE + 1]; 7],
};

unsafe extern "C" fn get_module_function_table(
    module: c_int,
    out_table: *mut *const *mut FnPtr,
    out_size: *mut c_uint,
) -> c_int {
    let Some(&size) = usize::try_from(module)
        .ok()
        .and_then(|m| MODULE_SIZES.get(m))
        .filter(|&&s| s > 0)
    else {
        return 0;
    };
    // SAFETY: the tables were filled before the tool was called (one
    // thread: under the OnceLock of `api`); out pointers are the tool's.
    unsafe {
        let table = std::ptr::addr_of!(CORE.tables[module as usize]).cast::<*mut FnPtr>();
        if !out_size.is_null() {
            *out_size = size as c_uint;
        }
        if !out_table.is_null() {
            *out_table = table;
        }
    }
    1
}

unsafe extern "C" fn set_injection_nvtx_version(_version: u32) {}

static CALLBACKS: ExportCallbacks = ExportCallbacks {
    struct_size: std::mem::size_of::<ExportCallbacks>(),
    get_module_function_table,
};

static VERSION: ExportVersion = ExportVersion {
    struct_size: std::mem::size_of::<ExportVersion>(),
    version: NVTX_VERSION,
    reserved0: 0,
    set_injection_nvtx_version,
};

unsafe extern "C" fn get_export_table(id: u32) -> *const c_void {
    match id {
        ETID_CALLBACKS => std::ptr::addr_of!(CALLBACKS).cast(),
        ETID_VERSIONINFO => std::ptr::addr_of!(VERSION).cast(),
        _ => std::ptr::null(),
    }
}

type InitFn = unsafe extern "C" fn(unsafe extern "C" fn(u32) -> *const c_void) -> c_int;

/// NVTX 3's injection: the tool `NVTX_INJECTION64_PATH` names.
fn load_injection() -> Option<Api> {
    let path = std::env::var("NVTX_INJECTION64_PATH").ok()?;
    let c = CString::new(path).ok()?;
    // SAFETY: NUL-terminated names; the tool's entry point has NVTX's
    // prototype; CORE is written here only, once, before the tool reads it.
    unsafe {
        let h = dlopen(c.as_ptr(), RTLD_NOW);
        if h.is_null() {
            return None;
        }
        let init = dlsym(h, c"InitializeInjectionNvtx2".as_ptr());
        if init.is_null() {
            return None;
        }
        let all = &mut *std::ptr::addr_of_mut!(CORE);
        for (m, &size) in MODULE_SIZES.iter().enumerate() {
            for i in 1..size {
                all.tables[m][i] = std::ptr::addr_of_mut!(all.slots[m][i]);
            }
        }
        let init = std::mem::transmute::<*mut c_void, InitFn>(init);
        if init(get_export_table) == 0 {
            return None;
        }
        let core = &all.slots[CB_MODULE_CORE];
        let (push, pop) = (core[CBID_CORE_RANGE_PUSH_A]?, core[CBID_CORE_RANGE_POP]?);
        Some(Api {
            push: std::mem::transmute::<unsafe extern "C" fn(), PushFn>(push),
            pop: std::mem::transmute::<unsafe extern "C" fn(), PopFn>(pop),
        })
    }
}

thread_local! {
    /// Ranges this module pushed on this thread and has not popped.
    static DEPTH: Cell<u32> = const { Cell::new(0) };
    /// Tests: functions standing for NVTX's on this thread.
    #[cfg(test)]
    static FAKE: Cell<Option<Api>> = const { Cell::new(None) };
}

/// Push a range named `name` on the calling thread.
pub fn push(name: &str) {
    let Some(api) = api() else {
        return;
    };
    let Ok(c) = CString::new(name) else {
        return;
    };
    // SAFETY: NVTX's function, a NUL-terminated name it copies.
    unsafe { (api.push)(c.as_ptr()) };
    let _ = DEPTH.try_with(|d| d.set(d.get() + 1));
}

/// Pop the calling thread's innermost range (none when this module has
/// none open on it).
pub fn pop() {
    let Some(api) = api() else {
        return;
    };
    let open = DEPTH
        .try_with(|d| {
            let n = d.get();
            d.set(n.saturating_sub(1));
            n > 0
        })
        .unwrap_or(false);
    if open {
        // SAFETY: NVTX's function.
        unsafe { (api.pop)() };
    }
}

/// Tests: use `api` for NVTX on the calling thread (`None`: stop).
#[cfg(test)]
pub fn fake(api: Option<Api>) {
    FAKE.with(|f| f.set(api));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn switch_reads_ptxrt_nvtx_then_an_attached_tool() {
        let env = |vars: &'static [(&'static str, &'static str)]| {
            move |n: &str| {
                vars.iter()
                    .find(|(k, _)| *k == n)
                    .map(|(_, v)| v.to_string())
            }
        };
        assert!(!switch(&env(&[])));
        assert!(switch(&env(&[("PTXRT_NVTX", "1")])));
        assert!(!switch(&env(&[("PTXRT_NVTX", "0")])));
        assert!(switch(&env(&[("NVTX_INJECTION64_PATH", "/x/libinj.so")])));
        assert!(!switch(&env(&[
            ("PTXRT_NVTX", "0"),
            ("NVTX_INJECTION64_PATH", "/x/libinj.so")
        ])));
    }
}
