//! The OpenACC profiling and error-callback interface (OpenACC 3.3
//! chapter 5, `include/acc_prof.h`): the C structs a callback gets, the
//! registry of callbacks, the tool libraries, and the events the runtime
//! emits.
//!
//! Owns: the callback registry ([`acc_prof_register`],
//! [`acc_prof_unregister`]: per event, the callbacks in registration order,
//! each with a registration count and an enabled flag; per event and per
//! thread, a switch), [`acc_prof_lookup`], the loading of tool libraries
//! ([`init`]: each library named in `ACC_PROFLIB` is dlopened and its
//! `acc_register_library` called; so is one linked into the program,
//! handed over by accc's link-time constructor through
//! [`__ptxrt_register_tool`], or exported by a library the program was
//! linked with, found with `dlsym(RTLD_DEFAULT)`), the `atexit` hook of
//! `acc_ev_runtime_shutdown`, and the emitters ([`data`], [`launch`],
//! [`other`], [`error`]) the runtime calls where the events happen.
//! `PTXRT_NOTIFY`'s launch and transfer lines are a built-in client
//! ([`crate::notify`], called at enqueue_launch_start,
//! enqueue_upload_start and enqueue_download_start, before the tools'
//! callbacks), and so are the ranges of `PTXRT_NVTX` and `PTXRT_TRACE`
//! ([`crate::ranges`], called at every start and end of a construct,
//! transfer, launch and wait, before the tools' callbacks).
//!
//! Registration (5.3): `acc_reg` adds a callback to an event (registering
//! it again counts: it is still called once per event, and takes as many
//! `acc_prof_unregister(…, acc_reg)` to go); `acc_toggle` enables
//! (register) or disables (unregister) a registered callback, or, with a
//! null callback, the event (`acc_ev_none`: every event);
//! `acc_toggle_per_thread` does the same for the calling thread only.
//! Start events (and single events) call the callbacks in registration
//! order, end events in the reverse order. `tool_info` set by a start
//! event's callbacks is given to the matching end event ([`Span`]).
//!
//! Cost when no callback is registered: each emitter first reads one
//! relaxed atomic ([`MASK`], one bit per event with an enabled callback);
//! nothing is formatted or allocated before that check passes. A
//! `acc_ev_compute_construct_end` never waits for the construct's
//! kernels (the deferred waits of [`crate::deferred`] stay deferred) unless
//! a callback is registered for it: then [`crate::data`] settles them
//! first, so the event means the construct's work is done.
//!
//! Fields the runtime does not know are set as the specification says for
//! unknown values: `func_name` null, `end_line_no`, `func_line_no`,
//! `func_end_line_no` 0; `acc_api_info`'s handles null and `vendor` -1.
//! `async` and `async_queue` are the same number (accc's queue n is the
//! async value n), `acc_async_sync` (-2) for synchronous work.
//! May call: [`crate::abi`] (source locations), [`crate::device`] (which
//! device a state is), [`crate::queue`] (the queue type), [`crate::notify`]
//! (its built-in client), libc (dlopen, dlsym, atexit).

use crate::abi::SrcLoc;
use crate::device::{DeviceId, DeviceState};
use crate::queue::Queue;
use std::cell::RefCell;
use std::ffi::{c_char, c_int, c_void, CStr, CString};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard, Once};

pub use crate::prof_abi::*;

/// One registered callback of an event.
#[derive(Clone, Copy, Debug)]
struct Entry {
    cb: Callback,
    /// Registrations (`acc_reg`) not unregistered yet.
    count: u32,
    /// Not disabled by `acc_toggle`.
    enabled: bool,
}

/// Every event's callbacks, and the events disabled by `acc_toggle`.
struct Registry {
    lists: Vec<Vec<Entry>>,
    /// Bit e: event e disabled as a whole (bit 0: every event).
    off: u64,
    /// Events the runtime's own clients take ([`NOTIFY_EVENTS`]); not
    /// affected by the tools' toggles.
    builtin: u64,
}

static REGISTRY: Mutex<Registry> = Mutex::new(Registry {
    lists: Vec::new(),
    off: 0,
    builtin: 0,
});

/// Bit e set: event e has an enabled callback or a built-in client (the
/// one check an emitter makes when no tool is there).
static MASK: AtomicU64 = AtomicU64::new(0);
/// Bit e set: event e has an enabled callback of a tool.
static TOOLS: AtomicU64 = AtomicU64::new(0);

/// The events of `PTXRT_NOTIFY`'s lines ([`crate::notify`], a built-in
/// client): the start of each launch, upload and download.
const NOTIFY_EVENTS: u64 =
    1 << ev::ENQUEUE_LAUNCH_START | 1 << ev::ENQUEUE_UPLOAD_START | 1 << ev::ENQUEUE_DOWNLOAD_START;

thread_local! {
    /// `acc_toggle_per_thread` switches of this thread: (event or 0 for
    /// every event, callback address or 0 for every callback).
    static THREAD_OFF: RefCell<Vec<(c_int, usize)>> = const { RefCell::new(Vec::new()) };
    /// This thread's `thread_id` (0 for the first thread with an event).
    static THREAD_ID: std::cell::Cell<c_int> = const { std::cell::Cell::new(-1) };
}

fn registry() -> MutexGuard<'static, Registry> {
    REGISTRY.lock().unwrap_or_else(|e| e.into_inner())
}

fn valid_event(e: c_int) -> bool {
    e > ev::NONE && e < ev::LAST
}

impl Registry {
    fn list(&mut self, e: c_int) -> &mut Vec<Entry> {
        if self.lists.len() < ev::LAST as usize {
            self.lists.resize_with(ev::LAST as usize, Vec::new);
        }
        &mut self.lists[e as usize]
    }

    /// The mask of events with an enabled callback.
    fn tools(&self) -> u64 {
        if self.off & 1 != 0 {
            return 0;
        }
        self.lists
            .iter()
            .enumerate()
            .filter(|(e, l)| self.off & (1 << e) == 0 && l.iter().any(|x| x.enabled))
            .fold(0, |m, (e, _)| m | 1 << e)
    }

    /// Publish the masks ([`MASK`], [`TOOLS`]).
    fn publish(&self) {
        let tools = self.tools();
        TOOLS.store(tools, Ordering::Relaxed);
        MASK.store(tools | self.builtin, Ordering::Relaxed);
    }
}

/// Apply one register (`on`) or unregister call.
fn change(e: c_int, cb: Option<Callback>, how: c_int, on: bool) {
    if how == ACC_TOGGLE_PER_THREAD {
        let key = (e, cb.map_or(0, |f| f as usize));
        THREAD_OFF.with(|t| {
            let mut t = t.borrow_mut();
            t.retain(|k| *k != key);
            if !on {
                t.push(key);
            }
        });
        return;
    }
    let mut r = registry();
    match (how, cb) {
        (ACC_REG, Some(cb)) if valid_event(e) => {
            let list = r.list(e);
            match list.iter_mut().find(|x| x.cb as usize == cb as usize) {
                Some(x) if on => x.count += 1,
                None if on => list.push(Entry {
                    cb,
                    count: 1,
                    enabled: true,
                }),
                Some(x) => {
                    x.count -= 1;
                    if x.count == 0 {
                        list.retain(|x| x.cb as usize != cb as usize);
                    }
                }
                None => {}
            }
        }
        (ACC_TOGGLE, Some(cb)) if valid_event(e) => {
            if let Some(x) = r.list(e).iter_mut().find(|x| x.cb as usize == cb as usize) {
                x.enabled = on;
            }
        }
        (ACC_TOGGLE, None) if e == ev::NONE || valid_event(e) => {
            if on {
                r.off &= !(1 << e);
            } else {
                r.off |= 1 << e;
            }
        }
        _ => {}
    }
    r.publish();
}

/// `void acc_prof_register(acc_event_t, acc_prof_callback, acc_register_t)`.
#[no_mangle]
pub extern "C" fn acc_prof_register(event: c_int, cb: Option<Callback>, how: c_int) {
    crate::error::guard(|| change(event, cb, how, true))
}

/// `void acc_prof_unregister(acc_event_t, acc_prof_callback, acc_register_t)`.
#[no_mangle]
pub extern "C" fn acc_prof_unregister(event: c_int, cb: Option<Callback>, how: c_int) {
    crate::error::guard(|| change(event, cb, how, false))
}

/// `acc_query_fn acc_prof_lookup(const char *name)`: the routines a tool
/// may look up by name (this runtime has no inquiry routines of its own:
/// the three routines of the interface, which a callback may call), else
/// null.
///
/// # Safety
/// `name` is null or NUL-terminated.
#[no_mangle]
pub unsafe extern "C" fn acc_prof_lookup(name: *const c_char) -> QueryFn {
    if name.is_null() {
        return None;
    }
    // SAFETY: NUL-terminated, per the caller.
    let name = unsafe { CStr::from_ptr(name) }.to_bytes();
    // SAFETY: each is an extern "C" function of this crate; the caller
    // casts it back to its own prototype.
    unsafe {
        let f: *const () = match name {
            b"acc_prof_register" => acc_prof_register as *const (),
            b"acc_prof_unregister" => acc_prof_unregister as *const (),
            b"acc_prof_lookup" => acc_prof_lookup as *const (),
            _ => return None,
        };
        Some(std::mem::transmute::<*const (), unsafe extern "C" fn()>(f))
    }
}

extern "C" {
    fn dlopen(filename: *const c_char, flag: c_int) -> *mut c_void;
    fn dlsym(handle: *mut c_void, symbol: *const c_char) -> *mut c_void;
    fn dlerror() -> *mut c_char;
    fn atexit(f: extern "C" fn()) -> c_int;
}
const RTLD_NOW: c_int = 2;
const RTLD_GLOBAL: c_int = 0x100;
const RTLD_DEFAULT: *mut c_void = std::ptr::null_mut();

/// The `acc_register_library` routines called so far (each once).
static CALLED: Mutex<Vec<usize>> = Mutex::new(Vec::new());

/// Call a tool's `acc_register_library` (once per routine).
fn register_library(f: RegisterLibrary) {
    {
        let mut called = CALLED.lock().unwrap_or_else(|e| e.into_inner());
        if called.contains(&(f as usize)) {
            return;
        }
        called.push(f as usize);
    }
    let reg: RegFn = reg_trampoline;
    let unreg: RegFn = unreg_trampoline;
    // SAFETY: the tool's routine, with the spec's arguments.
    unsafe { f(reg, unreg, acc_prof_lookup) };
}

unsafe extern "C" fn reg_trampoline(e: c_int, cb: Option<Callback>, how: c_int) {
    acc_prof_register(e, cb, how)
}

unsafe extern "C" fn unreg_trampoline(e: c_int, cb: Option<Callback>, how: c_int) {
    acc_prof_unregister(e, cb, how)
}

/// The library names of an `ACC_PROFLIB` value (separated by `:` or `;`).
pub fn proflib_names(v: &str) -> Vec<&str> {
    v.split([':', ';'])
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect()
}

/// Load tool library `name` and call its `acc_register_library`, or why not.
fn load_tool(name: &str) -> Result<(), String> {
    let c = CString::new(name).map_err(|_| "a NUL in its name".to_string())?;
    // SAFETY: a NUL-terminated name; dlerror's string is read at once.
    let handle = unsafe { dlopen(c.as_ptr(), RTLD_NOW | RTLD_GLOBAL) };
    if handle.is_null() {
        // SAFETY: dlerror returns null or a NUL-terminated string.
        let why = unsafe { crate::abi::cstr_or(dlerror(), "cannot load it") };
        return Err(why);
    }
    // SAFETY: a handle from dlopen, a NUL-terminated symbol name.
    let sym = unsafe { dlsym(handle, c"acc_register_library".as_ptr()) };
    if sym.is_null() {
        return Err("it has no acc_register_library".into());
    }
    // SAFETY: the tool's acc_register_library has this prototype (acc_prof.h).
    register_library(unsafe { std::mem::transmute::<*mut c_void, RegisterLibrary>(sym) });
    Ok(())
}

/// Start the interface, once: the tool libraries of `ACC_PROFLIB`, an
/// `acc_register_library` exported by the program or its libraries, and
/// the runtime-shutdown hook. Called by the runtime's constructors
/// (image and plugin-directory registration) and when a device is opened.
pub fn init() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        if crate::notify::launches_enabled() || crate::notify::transfers_enabled() {
            let mut r = registry();
            r.builtin |= NOTIFY_EVENTS;
            r.publish();
        }
        crate::trace::init();
        if crate::ranges::wanted() != 0 {
            let mut r = registry();
            r.builtin |= crate::ranges::wanted();
            r.publish();
        }
        if let Ok(v) = std::env::var("ACC_PROFLIB") {
            for name in proflib_names(&v) {
                if let Err(why) = load_tool(name) {
                    eprintln!("accc runtime: warning: ACC_PROFLIB: cannot use '{name}': {why}");
                }
            }
        }
        // SAFETY: a NUL-terminated symbol name; null when absent.
        let sym = unsafe { dlsym(RTLD_DEFAULT, c"acc_register_library".as_ptr()) };
        if !sym.is_null() {
            // SAFETY: as in load_tool.
            register_library(unsafe { std::mem::transmute::<*mut c_void, RegisterLibrary>(sym) });
        }
        // SAFETY: a plain extern "C" function that never unwinds.
        unsafe { atexit(at_exit) };
    });
}

extern "C" fn at_exit() {
    let _ = std::panic::catch_unwind(|| {
        if wants(ev::RUNTIME_SHUTDOWN) && !crate::error::exiting_on_error() {
            other(ev::RUNTIME_SHUTDOWN, &Ctx::none(), false);
        }
    });
}

/// `void __ptxrt_register_tool(void (*)(acc_prof_reg, acc_prof_reg,
/// acc_prof_lookup_func))`: accc's link-time constructor passes the
/// program's own `acc_register_library` (a weak reference: null when the
/// program has none); the runtime calls it once, after `ACC_PROFLIB`'s.
#[no_mangle]
pub extern "C" fn __ptxrt_register_tool(f: Option<RegisterLibrary>) {
    crate::error::guard(|| {
        init();
        if let Some(f) = f {
            register_library(f);
        }
    })
}

/// Whether event `e` has an enabled callback: one relaxed load.
#[inline]
pub fn wants(e: c_int) -> bool {
    MASK.load(Ordering::Relaxed) & (1 << e) != 0
}

/// Whether any event has one.
#[inline]
pub fn any() -> bool {
    MASK.load(Ordering::Relaxed) != 0
}

/// Whether a tool has an enabled callback for event `e`.
pub fn tools_want(e: c_int) -> bool {
    TOOLS.load(Ordering::Relaxed) & (1 << e) != 0
}

/// The async queue of `ctx` (`None`: synchronous), for `PTXRT_NOTIFY`.
fn queue_of(ctx: &Ctx) -> Option<u32> {
    u32::try_from(ctx.async_).ok()
}

/// Where and on what an event happens.
#[derive(Clone, Copy, Debug)]
pub struct Ctx<'a> {
    pub loc: Option<&'a SrcLoc>,
    pub device_type: c_int,
    pub device_number: c_int,
    /// The async value (`acc_async_sync` when synchronous).
    pub async_: isize,
}

impl<'a> Ctx<'a> {
    /// No construct, no device (the runtime's shutdown).
    pub fn none() -> Ctx<'static> {
        Ctx {
            loc: None,
            device_type: 0,
            device_number: 0,
            async_: ASYNC_SYNC,
        }
    }

    /// NVIDIA device `ordinal`, no construct (its init and shutdown).
    pub fn device(ordinal: i32) -> Ctx<'static> {
        Ctx {
            device_type: DEVICE_NVIDIA,
            device_number: ordinal,
            ..Ctx::none()
        }
    }

    /// Work of `loc` on device `id`, queue `q`.
    pub fn on(loc: &'a SrcLoc, id: DeviceId, q: Queue) -> Ctx<'a> {
        let (device_type, device_number) = match id {
            DeviceId::Host => (DEVICE_HOST, 0),
            DeviceId::Multicore => (DEVICE_MULTICORE, 0),
            DeviceId::Nvidia(n) => (DEVICE_NVIDIA, n),
        };
        Ctx {
            loc: Some(loc),
            device_type,
            device_number,
            async_: match q {
                Queue::Sync => ASYNC_SYNC,
                Queue::Id(n) => n as isize,
            },
        }
    }

    /// Work of `loc` on `dev`'s current queue.
    pub fn of(loc: &'a SrcLoc, dev: &DeviceState) -> Ctx<'a> {
        Ctx::on(loc, dev.id(), dev.queue)
    }
}

/// `acc_construct_t` of a construct name as the compiler writes it in a
/// `__ptxrt_loc` (a location without a file is an API routine).
pub fn construct_of(loc: Option<&SrcLoc>) -> c_int {
    let Some(loc) = loc else {
        return 15;
    };
    if loc.file.is_empty() {
        return 15; // runtime_api
    }
    let c = loc.construct.as_str();
    let first = c.split_whitespace().next().unwrap_or("");
    match first {
        "parallel" => 0,
        "kernels" => 1,
        "loop" => 2,
        "data" => 3,
        "enter" => 4,
        "exit" => 5,
        "host_data" => 6,
        "atomic" => 7,
        "declare" => 8,
        "init" => 9,
        "shutdown" => 10,
        "set" => 11,
        "update" => 12,
        "routine" => 13,
        "wait" => 14,
        "serial" => 16,
        _ => 15,
    }
}

/// Whether `loc` is a compute construct (parallel, kernels, serial).
pub fn is_compute(loc: &SrcLoc) -> bool {
    !loc.file.is_empty() && matches!(construct_of(Some(loc)), 0 | 1 | 16)
}

fn thread_id() -> c_int {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    THREAD_ID
        .try_with(|t| {
            if t.get() < 0 {
                t.set(NEXT.fetch_add(1, Ordering::Relaxed) as c_int);
            }
            t.get()
        })
        .unwrap_or(0)
}

/// The callbacks of event `e` this thread calls now, in call order.
fn callbacks(e: c_int) -> Vec<Callback> {
    let mut cbs: Vec<Callback> = {
        let mut r = registry();
        if r.off & (1 | 1 << e) != 0 {
            return Vec::new();
        }
        r.list(e)
            .iter()
            .filter(|x| x.enabled)
            .map(|x| x.cb)
            .collect()
    };
    // (At exit this thread's switches may be gone: none then.)
    let _ = THREAD_OFF.try_with(|t| {
        let t = t.borrow();
        if !t.is_empty() {
            cbs.retain(|cb| {
                !t.iter()
                    .any(|&(te, tc)| (te == 0 || te == e) && (tc == 0 || tc == *cb as usize))
            });
        }
    });
    let end = matches!(
        e,
        ev::DEVICE_INIT_END
            | ev::DEVICE_SHUTDOWN_END
            | ev::ENTER_DATA_END
            | ev::EXIT_DATA_END
            | ev::UPDATE_END
            | ev::COMPUTE_CONSTRUCT_END
            | ev::ENQUEUE_LAUNCH_END
            | ev::ENQUEUE_UPLOAD_END
            | ev::ENQUEUE_DOWNLOAD_END
            | ev::WAIT_END
    );
    if end {
        cbs.reverse();
    }
    cbs
}

/// Call event `e`'s callbacks with `info` (its `event_type`, `valid_bytes`,
/// `parent_construct` and `tool_info` filled in here); the `tool_info` the
/// callbacks leave.
fn dispatch(
    e: c_int,
    ctx: &Ctx,
    mut info: EventInfo,
    valid: usize,
    tool: *mut c_void,
) -> *mut c_void {
    let cbs = callbacks(e);
    if cbs.is_empty() {
        return tool;
    }
    let file = ctx
        .loc
        .filter(|l| !l.file.is_empty())
        .and_then(|l| CString::new(l.file.as_str()).ok());
    let mut prof = ProfInfo {
        event_type: e,
        valid_bytes: std::mem::size_of::<ProfInfo>() as c_int,
        version: VERSION,
        device_type: ctx.device_type,
        device_number: ctx.device_number,
        thread_id: thread_id(),
        async_: ctx.async_,
        async_queue: ctx.async_,
        src_file: file.as_ref().map_or(std::ptr::null(), |f| f.as_ptr()),
        func_name: std::ptr::null(),
        line_no: ctx.loc.map_or(0, |l| l.line),
        end_line_no: 0,
        func_line_no: 0,
        func_end_line_no: 0,
    };
    // Every variant starts with the fields of OtherEventInfo.
    info.other.event_type = e;
    info.other.valid_bytes = valid as c_int;
    info.other.parent_construct = construct_of(ctx.loc);
    info.other.tool_info = tool;
    let mut api = ApiInfo {
        device_api: if ctx.device_type == DEVICE_NVIDIA {
            1
        } else {
            0
        },
        valid_bytes: std::mem::size_of::<ApiInfo>() as c_int,
        device_type: ctx.device_type,
        vendor: -1,
        device_handle: std::ptr::null(),
        context_handle: std::ptr::null(),
        async_handle: std::ptr::null(),
    };
    for cb in cbs {
        // SAFETY: a tool's callback with the spec's arguments, which live
        // across the call.
        unsafe { cb(&mut prof, &mut info, &mut api) };
    }
    // SAFETY: as above.
    unsafe { info.other.tool_info }
}

/// What a data event is about.
pub struct Data<'a> {
    /// The item as written (called only when a client takes the event;
    /// `var_name` is null for the work of an API routine, whose variable
    /// is not known).
    pub name: &'a dyn Fn() -> String,
    pub bytes: usize,
    pub host: usize,
    pub device: u64,
    pub implicit: bool,
}

/// A data event (create, delete, alloc, free, enqueue_upload/download
/// start/end) with `tool` from its start event; the `tool_info` left.
pub fn data(e: c_int, ctx: &Ctx, d: &Data, tool: *mut c_void) -> *mut c_void {
    if !wants(e) {
        return tool;
    }
    if let (Some(loc), true) = (ctx.loc, crate::notify::transfers_enabled()) {
        match e {
            ev::ENQUEUE_UPLOAD_START => {
                crate::notify::transfer("upload", d.name, d.bytes, loc, queue_of(ctx))
            }
            ev::ENQUEUE_DOWNLOAD_START => {
                crate::notify::transfer("download", d.name, d.bytes, loc, queue_of(ctx))
            }
            _ => {}
        }
    }
    crate::ranges::event(e, ctx, &crate::ranges::What::Data(d));
    if !tools_want(e) {
        return tool;
    }
    // (An API routine's site names its arguments, not a variable.)
    let name = ctx
        .loc
        .filter(|l| !l.file.is_empty())
        .and_then(|_| CString::new((d.name)()).ok());
    let info = EventInfo {
        data: DataEventInfo {
            event_type: e,
            valid_bytes: 0,
            parent_construct: 0,
            implicit: c_int::from(d.implicit),
            tool_info: tool,
            var_name: name.as_ref().map_or(std::ptr::null(), |n| n.as_ptr()),
            bytes: d.bytes,
            host_ptr: d.host as *const c_void,
            device_ptr: d.device as usize as *const c_void,
        },
    };
    dispatch(e, ctx, info, std::mem::size_of::<DataEventInfo>(), tool)
}

/// What a launch event is about.
pub struct Launch<'a> {
    pub kernel: &'a str,
    /// Gangs (the grid's blocks), workers (threads along y and z of a
    /// block), vector lanes (threads along x).
    pub grid: [u32; 3],
    pub block: [u32; 3],
}

/// A launch event (enqueue_launch start/end).
pub fn launch(e: c_int, ctx: &Ctx, l: &Launch, tool: *mut c_void) -> *mut c_void {
    if !wants(e) {
        return tool;
    }
    if let (Some(loc), ev::ENQUEUE_LAUNCH_START) = (ctx.loc, e) {
        crate::notify::launch(l.kernel, loc, l.grid, l.block, queue_of(ctx));
    }
    crate::ranges::event(e, ctx, &crate::ranges::What::Launch(l));
    if !tools_want(e) {
        return tool;
    }
    let name = CString::new(l.kernel).ok();
    let info = EventInfo {
        launch: LaunchEventInfo {
            event_type: e,
            valid_bytes: 0,
            parent_construct: 0,
            implicit: 0,
            tool_info: tool,
            kernel_name: name.as_ref().map_or(std::ptr::null(), |n| n.as_ptr()),
            num_gangs: l.grid.iter().map(|&g| g as usize).product(),
            num_workers: l.block[1] as usize * l.block[2] as usize,
            vector_length: l.block[0] as usize,
        },
    };
    dispatch(e, ctx, info, std::mem::size_of::<LaunchEventInfo>(), tool)
}

/// Any other event.
pub fn other(e: c_int, ctx: &Ctx, implicit: bool) -> *mut c_void {
    other_with(e, ctx, implicit, std::ptr::null_mut())
}

/// Any other event, with `tool` from its start event.
pub fn other_with(e: c_int, ctx: &Ctx, implicit: bool, tool: *mut c_void) -> *mut c_void {
    if !wants(e) {
        return tool;
    }
    crate::ranges::event(e, ctx, &crate::ranges::What::Other);
    let info = EventInfo {
        other: OtherEventInfo {
            event_type: e,
            valid_bytes: 0,
            parent_construct: 0,
            implicit: c_int::from(implicit),
            tool_info: tool,
        },
    };
    dispatch(e, ctx, info, std::mem::size_of::<OtherEventInfo>(), tool)
}

/// A start event's `tool_info`, for its end event (a pair of other events).
#[derive(Debug)]
pub struct Span {
    tool: *mut c_void,
}

// SAFETY: the tool's opaque pointer is only handed back to the tool.
unsafe impl Send for Span {}

impl Span {
    /// Emit start event `e` (its end is `e + 1`).
    pub fn start(e: c_int, ctx: &Ctx, implicit: bool) -> Span {
        Span {
            tool: other(e, ctx, implicit),
        }
    }

    /// Emit end event `e`.
    pub fn end(self, e: c_int, ctx: &Ctx, implicit: bool) {
        other_with(e, ctx, implicit, self.tool);
    }
}

/// `acc_error_t` of an error line (3.2's codes, from what the runtime
/// says; `acc_error_other` when none fits).
pub fn error_code(line: &str) -> c_int {
    const CODES: [(&str, c_int); 9] = [
        ("partly present", 11),
        ("not present", 10),
        ("already present", 12),
        ("out of device memory", 9),
        ("kernel execution failed", 3),
        ("kernel launch failed", 3),
        ("async", 14),
        ("no NVIDIA device", 6),
        ("null", 15),
    ];
    CODES
        .iter()
        .find(|(w, _)| line.contains(w))
        .map_or(1, |&(_, c)| c)
}

/// The error event, before the runtime stops the program with `line`
/// (once: an error inside a callback does not call them again).
pub fn error(loc: Option<&SrcLoc>, line: &str) {
    // (Not a Once: an error inside a callback must not wait for itself.)
    static CALLED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
    if !wants(ev::ERROR) || CALLED.swap(true, Ordering::SeqCst) {
        return;
    }
    {
        let msg = CString::new(line.replace('\0', " ")).ok();
        let info = EventInfo {
            error: ErrorEventInfo {
                event_type: ev::ERROR,
                valid_bytes: 0,
                parent_construct: 0,
                implicit: 0,
                tool_info: std::ptr::null_mut(),
                error_code: error_code(line),
                error_message: msg.as_ref().map_or(std::ptr::null(), |m| m.as_ptr()),
                runtime_info: 0,
            },
        };
        let ctx = Ctx { loc, ..Ctx::none() };
        dispatch(
            ev::ERROR,
            &ctx,
            info,
            std::mem::size_of::<ErrorEventInfo>(),
            std::ptr::null_mut(),
        );
    }
}

/// Forget every registration (tests).
#[cfg(test)]
pub fn reset() {
    let mut r = registry();
    r.lists.clear();
    r.off = 0;
    r.publish();
    THREAD_OFF.with(|t| t.borrow_mut().clear());
}
