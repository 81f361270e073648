//! A fake device plugin for tests (no GPU): a `PluginFns` of Rust functions
//! whose "device memory" is host memory, so data really moves and the tests
//! check values, not only calls. Device blocks are filled with 0xAB when
//! allocated (as garbage), module globals are 8-byte blocks made on first
//! lookup. Streams work like the driver's: work queued on a stream (async
//! copies, zeroing, host functions, waits for events) runs only when the
//! program waits for it (an event, the stream, the device), in stream
//! order, so tests see what the host would see before and after a wait;
//! work on the null stream runs at once (a wait for it is logged). Kernels
//! do nothing but log that they ran. Timed events report a fixed
//! elapsed time ([`ELAPSED_MS`]): the fake has no clock.
//! All state is per thread, so tests running in parallel do not interfere;
//! [`calls`] returns (and clears) this thread's log of driver calls.
//! The table of entry points is generated from the one entry-point list
//! ([`ptxrt_plugin_abi::for_each_entry!`]): each entry point is a function
//! here named after its entry.
//! May call: nothing else in the crate but the types it fakes.

use crate::device::DeviceState;
use crate::plugin::Plugin;
use ptxrt_plugin_abi::{fns_in_scope, DeviceInfo, LinkInput, PluginFns};
use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};
use std::ffi::{c_char, c_void, CStr};
use std::ptr;

thread_local! {
    /// Device blocks: address → bytes.
    static MEM: RefCell<BTreeMap<u64, Box<[u8]>>> = const { RefCell::new(BTreeMap::new()) };
    /// Pinned host blocks: address → bytes.
    static PINNED: RefCell<BTreeMap<usize, Box<[u8]>>> = const { RefCell::new(BTreeMap::new()) };
    /// Module globals: (module, name) → device address.
    static GLOBALS: RefCell<HashMap<(usize, String), u64>> = RefCell::new(HashMap::new());
    static LOG: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
    static ERROR: RefCell<String> = const { RefCell::new(String::new()) };
    /// Bytes the device may hold (allocations beyond fail).
    static LIMIT: Cell<usize> = const { Cell::new(usize::MAX) };
    static NEXT_HANDLE: Cell<usize> = const { Cell::new(0x100) };
    /// Work queued per stream: (sequence number, work), oldest first.
    static STREAMS: RefCell<HashMap<usize, VecDeque<(u64, Work)>>> = RefCell::new(HashMap::new());
    static SEQ: Cell<u64> = const { Cell::new(0) };
    /// Event → (stream, last sequence number queued before its record).
    static EVENTS: RefCell<HashMap<usize, (usize, u64)>> = RefCell::new(HashMap::new());
    /// Events made by `event_create_timed`.
    static TIMED: RefCell<HashSet<usize>> = RefCell::new(HashSet::new());
    /// The registers a thread and static shared bytes of every kernel
    /// ([`set_kernel`]; `None`: the fake cannot say).
    static KERNEL: Cell<Option<(u32, u32)>> = const { Cell::new(None) };
    /// The devices the driver reports ([`set_device_count`]).
    static DEVICES: Cell<i32> = const { Cell::new(1) };
}

/// What `event_elapsed` reports between any two completed timed events.
pub const ELAPSED_MS: f32 = 0.25;

/// Work queued on a stream.
type Work = Box<dyn FnOnce()>;

/// Queue `w` on stream `s` (the null stream: run it now).
fn enqueue(s: *mut c_void, w: Work) {
    if s.is_null() {
        return w();
    }
    let seq = SEQ.with(|n| n.replace(n.get() + 1) + 1);
    STREAMS.with(|m| {
        m.borrow_mut()
            .entry(s as usize)
            .or_default()
            .push_back((seq, w))
    });
}

/// Run stream `s`'s work up to sequence number `upto` (not holding the
/// table while running: work may run other streams).
fn run_until(s: usize, upto: u64) {
    loop {
        let next = STREAMS.with(|m| {
            let mut m = m.borrow_mut();
            let q = m.get_mut(&s)?;
            match q.front() {
                Some(&(seq, _)) if seq <= upto => q.pop_front().map(|(_, w)| w),
                _ => None,
            }
        });
        match next {
            Some(w) => w(),
            None => return,
        }
    }
}

/// Whether stream `s` has no work queued up to `upto`.
fn idle_until(s: usize, upto: u64) -> bool {
    STREAMS.with(|m| {
        m.borrow()
            .get(&s)
            .and_then(|q| q.front())
            .is_none_or(|&(seq, _)| seq > upto)
    })
}

/// Run every stream's work (`cuCtxSynchronize`).
pub fn run_all() {
    let streams: Vec<usize> = STREAMS.with(|m| m.borrow().keys().copied().collect());
    for s in streams {
        run_until(s, u64::MAX);
    }
}

/// Work queued on streams and not run yet.
pub fn queued() -> usize {
    STREAMS.with(|m| m.borrow().values().map(VecDeque::len).sum())
}

fn log(s: String) {
    LOG.with(|l| l.borrow_mut().push(s));
}

/// This thread's driver calls since the last call (and clears them).
pub fn calls() -> Vec<String> {
    LOG.with(|l| std::mem::take(&mut *l.borrow_mut()))
}

/// Only the calls that start with `prefix`.
pub fn calls_of(prefix: &str) -> Vec<String> {
    calls()
        .into_iter()
        .filter(|c| c.starts_with(prefix))
        .collect()
}

/// Limit the device to `bytes` bytes of allocations.
pub fn set_limit(bytes: usize) {
    LIMIT.with(|l| l.set(bytes));
}

/// Bytes currently allocated on the device.
pub fn in_use() -> usize {
    MEM.with(|m| m.borrow().values().map(|b| b.len()).sum())
}

fn fail(msg: &str) -> i32 {
    ERROR.with(|e| *e.borrow_mut() = msg.to_string());
    1
}

/// Run `f` on the device bytes `[d, d + n)` (which must lie in one block).
fn with_device<T>(d: u64, n: usize, f: impl FnOnce(&mut [u8]) -> T) -> Option<T> {
    MEM.with(|m| {
        let mut m = m.borrow_mut();
        let (&base, block) = m.range_mut(..=d).next_back()?;
        let off = usize::try_from(d - base).ok()?;
        (off + n <= block.len()).then(|| f(&mut block[off..off + n]))
    })
}

/// The device bytes `[d, d + n)`.
pub fn read_device(d: u64, n: usize) -> Vec<u8> {
    with_device(d, n, |b| b.to_vec()).unwrap_or_default()
}

/// The pointer-sized value at device address `d`.
pub fn read_device_u64(d: u64) -> u64 {
    let b = read_device(d, 8);
    u64::from_ne_bytes(b.try_into().unwrap_or([0; 8]))
}

unsafe extern "C" fn init() -> i32 {
    0
}
/// Make the driver report `n` devices (1 unless set). They share this
/// thread's memory and streams: addresses never collide, so each device's
/// state in the runtime stays its own.
pub fn set_device_count(n: i32) {
    DEVICES.with(|d| d.set(n));
}

unsafe extern "C" fn device_count(n: *mut i32) -> i32 {
    unsafe { *n = DEVICES.with(Cell::get) };
    0
}
unsafe extern "C" fn device_info(ordinal: i32, i: *mut DeviceInfo) -> i32 {
    log(format!("info {ordinal}"));
    let mut d = DeviceInfo::default();
    (d.cc_major, d.cc_minor, d.total_mem) = (9, 0, 1 << 30);
    unsafe { *i = d };
    0
}
unsafe extern "C" fn set_device(ordinal: i32) -> i32 {
    log(format!("set_device {ordinal}"));
    0
}
unsafe extern "C" fn module_load_data(_: i32, _: *const u8, _: usize, m: *mut *mut c_void) -> i32 {
    let h = NEXT_HANDLE.with(|n| n.replace(n.get() + 1));
    unsafe { *m = h as *mut c_void };
    0
}
unsafe extern "C" fn link_module(
    _: i32,
    _: *const LinkInput,
    _: usize,
    m: *mut *mut c_void,
) -> i32 {
    unsafe { module_load_data(0, ptr::null(), 0, m) }
}
unsafe extern "C" fn module_get_function(
    _: i32,
    m: *mut c_void,
    _: *const c_char,
    f: *mut *mut c_void,
) -> i32 {
    unsafe { *f = m };
    0
}
unsafe extern "C" fn module_unload(_: i32, m: *mut c_void) -> i32 {
    log(format!("unload {:#x}", m as usize));
    0
}
unsafe extern "C" fn mem_alloc(_: i32, bytes: usize, p: *mut u64) -> i32 {
    if in_use() + bytes > LIMIT.with(Cell::get) {
        return fail("cuMemAlloc: CUDA_ERROR_OUT_OF_MEMORY: out of memory");
    }
    let block = vec![0xABu8; bytes].into_boxed_slice();
    let d = block.as_ptr() as u64;
    MEM.with(|m| m.borrow_mut().insert(d, block));
    log(format!("alloc {bytes}"));
    unsafe { *p = d };
    0
}
unsafe extern "C" fn mem_free(_: i32, d: u64) -> i32 {
    match MEM.with(|m| m.borrow_mut().remove(&d)) {
        Some(b) => {
            log(format!("free {}", b.len()));
            0
        }
        None => fail("cuMemFree: CUDA_ERROR_INVALID_VALUE"),
    }
}
unsafe extern "C" fn memcpy_htod(_: i32, d: u64, s: *const c_void, n: usize) -> i32 {
    let src = unsafe { std::slice::from_raw_parts(s.cast::<u8>(), n) };
    log(format!("htod {n}"));
    match with_device(d, n, |b| b.copy_from_slice(src)) {
        Some(()) => 0,
        None => fail("cuMemcpyHtoD: CUDA_ERROR_INVALID_VALUE"),
    }
}
unsafe extern "C" fn memcpy_dtoh(_: i32, h: *mut c_void, d: u64, n: usize) -> i32 {
    let dst = unsafe { std::slice::from_raw_parts_mut(h.cast::<u8>(), n) };
    log(format!("dtoh {n}"));
    match with_device(d, n, |b| dst.copy_from_slice(b)) {
        Some(()) => 0,
        None => fail("cuMemcpyDtoH: CUDA_ERROR_INVALID_VALUE"),
    }
}
unsafe extern "C" fn launch(
    _: i32,
    _: *mut c_void,
    _: *const u32,
    _: *const u32,
    _: u32,
    _: *mut *mut c_void,
    s: *mut c_void,
) -> i32 {
    // Kernels do nothing here: the launch is logged when it runs.
    enqueue(s, Box::new(|| log("kernel".into())));
    0
}
/// Make every kernel use `regs` registers a thread and `static_shared`
/// bytes of shared memory a block (`None`: `function_limits` fails, as
/// before a kernel is known).
pub fn set_kernel(k: Option<(u32, u32)>) {
    KERNEL.with(|c| c.set(k));
}
/// An H100's answer ([`crate::occupancy::model`]) for the kernel of
/// [`set_kernel`].
unsafe extern "C" fn function_limits(
    _: i32,
    _: *mut c_void,
    threads: u32,
    l: *mut ptxrt_plugin_abi::FunctionLimits,
) -> i32 {
    log(format!("limits {threads}"));
    let Some((regs, shared)) = KERNEL.with(Cell::get) else {
        return fail("cuFuncGetAttribute: CUDA_ERROR_INVALID_HANDLE");
    };
    let sm = crate::occupancy::Sm::H100;
    unsafe { *l = crate::occupancy::model(regs, shared, threads, &sm) };
    0
}
unsafe extern "C" fn last_error(buf: *mut c_char, len: usize) -> usize {
    ERROR.with(|e| {
        let e = e.borrow();
        let n = e.len().min(len - 1);
        unsafe {
            ptr::copy_nonoverlapping(e.as_ptr(), buf.cast::<u8>(), n);
            *buf.add(n) = 0;
        }
        e.len()
    })
}
unsafe extern "C" fn mem_get_info(_: i32, free: *mut u64, total: *mut u64) -> i32 {
    unsafe {
        *total = 1 << 30;
        *free = (1u64 << 30).saturating_sub(in_use() as u64);
    }
    0
}
unsafe extern "C" fn memset_zero(_: i32, d: u64, n: usize) -> i32 {
    log(format!("zero {n}"));
    match with_device(d, n, |b| b.fill(0)) {
        Some(()) => 0,
        None => fail("cuMemsetD8: CUDA_ERROR_INVALID_VALUE"),
    }
}
unsafe extern "C" fn memcpy_dtod(_: i32, d: u64, s: u64, n: usize) -> i32 {
    let data = read_device(s, n);
    log(format!("dtod {n}"));
    match (data.len() == n)
        .then(|| with_device(d, n, |b| b.copy_from_slice(&data)))
        .flatten()
    {
        Some(()) => 0,
        None => fail("cuMemcpyDtoD: CUDA_ERROR_INVALID_VALUE"),
    }
}
unsafe extern "C" fn module_get_global(
    _: i32,
    m: *mut c_void,
    name: *const c_char,
    p: *mut u64,
    bytes: *mut usize,
) -> i32 {
    let name = unsafe { CStr::from_ptr(name) }
        .to_string_lossy()
        .into_owned();
    let key = (m as usize, name.clone());
    let d = match GLOBALS.with(|g| g.borrow().get(&key).copied()) {
        Some(d) => d,
        None => {
            let mut d = 0;
            if unsafe { mem_alloc(0, 8, &mut d) } != 0 {
                return 1;
            }
            GLOBALS.with(|g| g.borrow_mut().insert(key, d));
            d
        }
    };
    log(format!("global {name}"));
    unsafe {
        *p = d;
        *bytes = 8;
    }
    0
}
unsafe extern "C" fn host_alloc(_: i32, bytes: usize, p: *mut *mut c_void) -> i32 {
    let mut block = vec![0u8; bytes].into_boxed_slice();
    let h = block.as_mut_ptr() as usize;
    PINNED.with(|m| m.borrow_mut().insert(h, block));
    log(format!("host_alloc {bytes}"));
    unsafe { *p = h as *mut c_void };
    0
}
unsafe extern "C" fn host_free(_: i32, p: *mut c_void) -> i32 {
    PINNED.with(|m| m.borrow_mut().remove(&(p as usize)));
    log("host_free".into());
    0
}
unsafe extern "C" fn host_is_pinned(_: i32, p: *const c_void, pinned: *mut i32) -> i32 {
    let a = p as usize;
    let yes = PINNED.with(|m| {
        m.borrow()
            .range(..=a)
            .next_back()
            .is_some_and(|(&b, blk)| a < b + blk.len())
    });
    unsafe { *pinned = i32::from(yes) };
    0
}
unsafe extern "C" fn event_create(_: i32, out: *mut *mut c_void) -> i32 {
    let h = NEXT_HANDLE.with(|n| n.replace(n.get() + 1));
    unsafe { *out = h as *mut c_void };
    0
}
unsafe extern "C" fn stream_create(d: i32, _: i32, out: *mut *mut c_void) -> i32 {
    unsafe { event_create(d, out) }
}
unsafe extern "C" fn stream_destroy(_: i32, _: *mut c_void) -> i32 {
    0
}
unsafe extern "C" fn synchronize(_: i32) -> i32 {
    run_all();
    0
}
unsafe extern "C" fn set_stack_size(_: i32, bytes: usize, set: *mut usize) -> i32 {
    run_all();
    log(format!("stack {bytes}"));
    // SAFETY: out-pointer from the caller.
    unsafe { *set = bytes };
    0
}
unsafe extern "C" fn stream_synchronize(_: i32, s: *mut c_void) -> i32 {
    if s.is_null() {
        // (Its work ran when queued: the wait is what tests look for.)
        log("sync null".into());
    } else {
        run_until(s as usize, u64::MAX);
    }
    0
}
unsafe extern "C" fn stream_query(_: i32, s: *mut c_void, done: *mut i32) -> i32 {
    unsafe { *done = i32::from(idle_until(s as usize, u64::MAX)) };
    0
}
/// A copy's result, as the driver would report it when queued.
fn status(ok: bool, call: &str) -> i32 {
    if ok {
        0
    } else {
        fail(&format!("{call}: CUDA_ERROR_INVALID_VALUE"))
    }
}
unsafe extern "C" fn memcpy_htod_async(
    _: i32,
    d: u64,
    src: *const c_void,
    n: usize,
    s: *mut c_void,
) -> i32 {
    log(format!("htod_async {n}"));
    let src = src as usize;
    let ok = with_device(d, n, |_| ()).is_some();
    enqueue(
        s,
        Box::new(move || {
            let src = unsafe { std::slice::from_raw_parts(src as *const u8, n) };
            with_device(d, n, |b| b.copy_from_slice(src));
        }),
    );
    status(ok, "cuMemcpyHtoDAsync")
}
unsafe extern "C" fn memcpy_dtoh_async(
    _: i32,
    h: *mut c_void,
    d: u64,
    n: usize,
    s: *mut c_void,
) -> i32 {
    log(format!("dtoh_async {n}"));
    let h = h as usize;
    let ok = with_device(d, n, |_| ()).is_some();
    enqueue(
        s,
        Box::new(move || {
            let dst = unsafe { std::slice::from_raw_parts_mut(h as *mut u8, n) };
            with_device(d, n, |b| dst.copy_from_slice(b));
        }),
    );
    status(ok, "cuMemcpyDtoHAsync")
}
unsafe extern "C" fn memset_zero_async(_: i32, d: u64, n: usize, s: *mut c_void) -> i32 {
    log(format!("zero_async {n}"));
    let ok = with_device(d, n, |_| ()).is_some();
    enqueue(
        s,
        Box::new(move || {
            with_device(d, n, |b| b.fill(0));
        }),
    );
    status(ok, "cuMemsetD8Async")
}
unsafe extern "C" fn memcpy_dtod_async(_: i32, d: u64, src: u64, n: usize, s: *mut c_void) -> i32 {
    log(format!("dtod_async {n}"));
    enqueue(
        s,
        Box::new(move || {
            let data = read_device(src, n);
            with_device(d, n, |b| b.copy_from_slice(&data));
        }),
    );
    0
}
unsafe extern "C" fn event_record(_: i32, e: *mut c_void, s: *mut c_void) -> i32 {
    let seq = SEQ.with(Cell::get);
    EVENTS.with(|m| m.borrow_mut().insert(e as usize, (s as usize, seq)));
    0
}
fn event_of(e: *mut c_void) -> Option<(usize, u64)> {
    EVENTS.with(|m| m.borrow().get(&(e as usize)).copied())
}
unsafe extern "C" fn event_synchronize(_: i32, e: *mut c_void) -> i32 {
    match event_of(e) {
        // (Null-stream work ran when queued: the wait is what tests look for.)
        Some((0, _)) => log("sync null event".into()),
        Some((s, seq)) => run_until(s, seq),
        None => {}
    }
    0
}
unsafe extern "C" fn event_query(_: i32, e: *mut c_void, done: *mut i32) -> i32 {
    let idle = event_of(e).is_none_or(|(s, seq)| idle_until(s, seq));
    unsafe { *done = i32::from(idle) };
    0
}
unsafe extern "C" fn event_create_timed(d: i32, out: *mut *mut c_void) -> i32 {
    let r = unsafe { event_create(d, out) };
    TIMED.with(|t| t.borrow_mut().insert(unsafe { *out } as usize));
    r
}
/// Elapsed time between two timed events: always [`ELAPSED_MS`] (the fake
/// has no clock); an error, as the driver's, for an event made without
/// timing, not recorded or not completed.
unsafe extern "C" fn event_elapsed(
    _: i32,
    start: *mut c_void,
    end: *mut c_void,
    ms: *mut f32,
) -> i32 {
    let timed = |e: *mut c_void| TIMED.with(|t| t.borrow().contains(&(e as usize)));
    if !timed(start) || !timed(end) {
        return fail("cuEventElapsedTime: CUDA_ERROR_INVALID_HANDLE");
    }
    let done = |e: *mut c_void| event_of(e).is_some_and(|(s, seq)| idle_until(s, seq));
    if !done(start) || !done(end) {
        return fail("cuEventElapsedTime: CUDA_ERROR_NOT_READY");
    }
    unsafe { *ms = ELAPSED_MS };
    0
}
unsafe extern "C" fn stream_wait_event(_: i32, s: *mut c_void, e: *mut c_void) -> i32 {
    log("wait_event".into());
    if let Some((es, seq)) = event_of(e) {
        enqueue(s, Box::new(move || run_until(es, seq)));
    }
    0
}
unsafe extern "C" fn launch_host_func(
    _: i32,
    s: *mut c_void,
    f: ptxrt_plugin_abi::HostFn,
    data: *mut c_void,
) -> i32 {
    log("host_func".into());
    let data = data as usize;
    enqueue(s, Box::new(move || unsafe { f(data as *mut c_void) }));
    0
}

unsafe extern "C" fn event_destroy(_: i32, _: *mut c_void) -> i32 {
    0
}

/// The fake plugin's entry points (the functions above, by name: the one
/// entry-point list of `ptxrt-plugin-abi` says which).
pub fn fns() -> PluginFns {
    ptxrt_plugin_abi::for_each_entry!(fns_in_scope)
}

/// A device over plugin functions `fns` (compute capability 9.0, 1 GiB).
pub fn device_with(fns: PluginFns) -> DeviceState {
    let plugin = Box::leak(Box::new(Plugin {
        fns,
        origin: "fake".into(),
    }));
    let mut i = DeviceInfo::default();
    (i.cc_major, i.cc_minor, i.total_mem) = (9, 0, 1 << 30);
    DeviceState::new(plugin, 0, i, 1)
}

/// A fresh fake device (and a clean log and memory limit for this thread).
pub fn device() -> DeviceState {
    calls();
    set_limit(usize::MAX);
    set_kernel(None);
    device_with(fns())
}
