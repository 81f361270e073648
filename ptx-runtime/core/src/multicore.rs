//! The multicore device: the host's cores behind the same plugin interface
//! as the host device, running the kernels that `accc -acc=multicore`
//! compiled into the program as host code (`PTXRT_CODE_HOST` images),
//! as nvc's multicore target does.
//!
//! It is the device of type `acc_device_multicore` (`ACC_DEVICE_TYPE=
//! multicore`, which such a program starts with) when the program carries
//! host code of its kernels; without any, that type runs constructs on the
//! host device ([`crate::runtime`]). Like the host device it shares memory
//! with the program ([`crate::device::DeviceState::shares_memory`]: every
//! memory entry point is the host device's) and its queues are synchronous.
//! Its code is the program's own: loading a module takes the image's
//! symbol table, a kernel or a cell is a symbol of it, and nothing is
//! linked (the host linker did that). A launch runs the grid's blocks —
//! gangs, one thread each — on [`threads`] host threads (the caller and a
//! pool of threads started on the first launch, which stay, polling a
//! while for the next launch before they sleep), each taking the next
//! block index until none is left, and returns when all are done. The
//! runtime calls it without its lock (`crate::launch`): a launch from a
//! second host thread while the pool runs one runs its blocks on its own
//! thread.
//!
//! Owns: the multicore plugin's entry points (the host device's
//! [`PluginFns`] with its own device description, module, function
//! limits and launch entries) and [`threads`]. May call: [`crate::host`],
//! `ptxrt-plugin-abi`, [`crate::error`], `std::thread`.

use crate::host;
use crate::plugin::Plugin;
use ptxrt_plugin_abi::{DeviceInfo, FunctionLimits, LinkInput, PluginFns, CODE_HOST};
use std::ffi::{c_char, c_void, CStr};
use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard, OnceLock};

/// The name of the multicore device (`acc_get_property_string`).
pub const NAME: &str = "multicore";

/// The stack of each thread a launch starts (kernels keep their private
/// arrays and a gang's shared arrays there).
const STACK: usize = 64 << 20;

/// The number of host threads that run a launch's gangs: `ACC_NUM_CORES`
/// (nvc's variable) when set, else the cores the process may use. A value
/// that is not a positive number stops the program with one line.
pub fn threads() -> usize {
    static N: OnceLock<usize> = OnceLock::new();
    *N.get_or_init(|| match std::env::var("ACC_NUM_CORES") {
        Ok(v) => match v.trim().parse::<usize>() {
            Ok(n) if n > 0 => n,
            _ => crate::error::fatal(&format!(
                "ACC_NUM_CORES={v} is not a positive number of threads"
            )),
        },
        Err(_) => std::thread::available_parallelism().map_or(1, |n| n.get()),
    })
}

/// One symbol of a `PTXRT_CODE_HOST` table (ptxrt.h).
#[repr(C)]
struct HostSym {
    name: *const c_char,
    addr: *mut c_void,
}

/// A kernel's entry (ptxrt.h, `struct __ptxrt_host_sym`).
type Entry = unsafe extern "C" fn(*const u32, u64, *mut *mut c_void);

/// The address of symbol `name` of the table at `module`.
///
/// # Safety
/// `module` is a table of [`HostSym`] ending with a null name; `name` is
/// NUL-terminated.
unsafe fn lookup(module: *mut c_void, name: *const c_char) -> Option<*mut c_void> {
    if module.is_null() || name.is_null() {
        return None;
    }
    // SAFETY: per the caller.
    let want = unsafe { CStr::from_ptr(name) };
    let mut s = module.cast::<HostSym>().cast_const();
    loop {
        // SAFETY: the table ends with a null name (per the caller).
        let sym = unsafe { &*s };
        if sym.name.is_null() {
            return None;
        }
        // SAFETY: the table's names are NUL-terminated (accc writes them).
        if unsafe { CStr::from_ptr(sym.name) } == want {
            return Some(sym.addr);
        }
        // SAFETY: not past the terminating entry.
        s = unsafe { s.add(1) };
    }
}

unsafe extern "C" fn device_info(dev: i32, out: *mut DeviceInfo) -> i32 {
    if dev != 0 {
        return host::fail("libptxrt multicore device: it is device 0 only");
    }
    let mut i = DeviceInfo::default();
    for (d, s) in i.name.iter_mut().zip(NAME.bytes()) {
        *d = s as c_char;
    }
    // A "multiprocessor" is a thread of one lane: the default grid
    // (`occupancy::default_gangs`) is then one gang per thread.
    let n = i32::try_from(threads()).unwrap_or(i32::MAX);
    i.sm_count = n;
    i.max_threads_per_sm = 1;
    i.max_threads_per_block = 1;
    i.warp_size = 1;
    i.total_mem = host::host_memory(false) as u64;
    i.code_kinds = 1 << CODE_HOST;
    host::put(out, i)
}

unsafe extern "C" fn module_load_data(
    _: i32,
    data: *const u8,
    _: usize,
    m: *mut *mut c_void,
) -> i32 {
    if data.is_null() {
        return host::fail("libptxrt multicore device: an image's host code has no table");
    }
    host::put(m, data.cast_mut().cast())
}

unsafe extern "C" fn link_module(
    _: i32,
    _: *const LinkInput,
    _: usize,
    _: *mut *mut c_void,
) -> i32 {
    host::fail("the multicore device links no code: the host linker linked the program's")
}

unsafe extern "C" fn module_get_function(
    _: i32,
    module: *mut c_void,
    name: *const c_char,
    f: *mut *mut c_void,
) -> i32 {
    // SAFETY: `module` came from module_load_data (a table); the name is
    // the launch's.
    match unsafe { lookup(module, name) } {
        Some(a) => host::put(f, a),
        None => host::fail("no host code of the kernel in its image"),
    }
}

/// A kernel's limits: blocks are one thread, and a "multiprocessor" (a
/// host thread, `device_info`) runs one at a time.
unsafe extern "C" fn function_limits(
    _: i32,
    _: *mut c_void,
    threads: u32,
    out: *mut FunctionLimits,
) -> i32 {
    let l = FunctionLimits {
        max_threads: 1,
        blocks_per_sm: i32::from(threads == 1),
        ..FunctionLimits::NONE
    };
    host::put(out, l)
}

unsafe extern "C" fn module_get_global(
    _: i32,
    module: *mut c_void,
    name: *const c_char,
    addr: *mut u64,
    bytes: *mut usize,
) -> i32 {
    // SAFETY: as for module_get_function.
    match unsafe { lookup(module, name) } {
        Some(a) => match host::put(addr, a as u64) {
            0 => host::put(bytes, std::mem::size_of::<*mut c_void>()),
            e => e,
        },
        None => host::fail("no such cell in the image's host code"),
    }
}

unsafe extern "C" fn module_unload(_: i32, _: *mut c_void) -> i32 {
    0
}

/// One launch's blocks, taken one at a time by the threads that run it.
/// It lives on the launching thread's stack: the pool's threads reach it
/// through [`Pool::work`] while the launch is open.
struct Work {
    entry: Entry,
    grid: [u32; 3],
    total: u64,
    next: AtomicU64,
    args: *mut *mut c_void,
}

impl Work {
    /// Runs blocks until none is left.
    fn run(&self) {
        loop {
            let b = self.next.fetch_add(1, Ordering::Relaxed);
            if b >= self.total {
                break;
            }
            // SAFETY: a block of the grid; the arguments as the launch got
            // them.
            unsafe { (self.entry)(self.grid.as_ptr(), b, self.args) };
        }
    }
}

/// How many times a thread polls before it sleeps: a pool thread waiting
/// for the next launch, and the launching thread waiting for the pool's
/// last blocks. Back-to-back launches then cost no sleep and wake-up.
const SPINS: u32 = 1 << 14;

/// Polls `ready` [`SPINS`] times (yielding the core now and then, so that
/// a spinning thread on a busy machine lets the others run); whether it
/// came true.
fn spin_until(ready: impl Fn() -> bool) -> bool {
    for i in 0..SPINS {
        if ready() {
            return true;
        }
        if i % 256 == 255 {
            std::thread::yield_now();
        } else {
            std::hint::spin_loop();
        }
    }
    ready()
}

/// Threads that stay for the program's life and run the launches' blocks
/// with the launching thread (a launch starts no thread and allocates
/// nothing).
///
/// A launch publishes its [`Work`] in `work` and bumps `launch`; each pool
/// thread, seeing a new launch, counts itself in `active`, runs blocks of
/// the work it finds there, and counts itself out. The launching thread
/// runs blocks too, then closes the launch (`work` null) and waits until
/// `active` is 0: a thread counted in after the close finds `work` null
/// (sequentially consistent order), so none touches the work once the
/// launch returns. Threads poll before they sleep on a condition variable
/// (`wake` for the pool's, `done` for the launching one).
struct Pool {
    /// Its threads (those that could be started).
    workers: AtomicUsize,
    /// The threads it was made for, the launching one among them.
    threads: usize,
    /// Held by the launch that uses the pool; one launch at a time.
    launching: Mutex<()>,
    /// The open launch's work; null between launches.
    work: AtomicPtr<Work>,
    /// Bumped for each launch.
    launch: AtomicU64,
    /// Pool threads inside the open launch.
    active: AtomicUsize,
    /// Pool threads asleep in `wake`.
    sleepers: AtomicUsize,
    /// Whether the launching thread is asleep in `done`.
    waiting: AtomicBool,
    /// The mutex of both condition variables.
    sleep: Mutex<()>,
    wake: Condvar,
    done: Condvar,
}

impl Pool {
    /// The pool of `threads` threads in all (the launching one among them).
    fn of(threads: usize) -> &'static Pool {
        static POOLS: Mutex<Vec<&'static Pool>> = Mutex::new(Vec::new());
        let mut pools = POOLS.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(p) = pools.iter().find(|p| p.threads == threads) {
            return p;
        }
        let pool: &'static Pool = Box::leak(Box::new(Pool {
            workers: AtomicUsize::new(0),
            threads,
            launching: Mutex::new(()),
            work: AtomicPtr::new(std::ptr::null_mut()),
            launch: AtomicU64::new(0),
            active: AtomicUsize::new(0),
            sleepers: AtomicUsize::new(0),
            waiting: AtomicBool::new(false),
            sleep: Mutex::new(()),
            wake: Condvar::new(),
            done: Condvar::new(),
        }));
        let mut started = 0;
        for _ in 1..threads {
            // A thread that cannot start leaves its blocks to the others.
            if std::thread::Builder::new()
                .name("ptxrt-gang".into())
                .stack_size(STACK)
                .spawn(move || pool.serve())
                .is_ok()
            {
                started += 1;
            }
        }
        pool.workers.store(started, Ordering::Relaxed);
        pools.push(pool);
        pool
    }

    fn lock(&self) -> MutexGuard<'_, ()> {
        self.sleep.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A pool thread: runs blocks of each launch.
    fn serve(&self) {
        let mut seen = 0;
        loop {
            if !spin_until(|| self.launch.load(Ordering::SeqCst) != seen) {
                let mut g = self.lock();
                self.sleepers.fetch_add(1, Ordering::SeqCst);
                while self.launch.load(Ordering::SeqCst) == seen {
                    g = self.wake.wait(g).unwrap_or_else(|e| e.into_inner());
                }
                self.sleepers.fetch_sub(1, Ordering::SeqCst);
            }
            seen = self.launch.load(Ordering::SeqCst);
            self.active.fetch_add(1, Ordering::SeqCst);
            let w = self.work.load(Ordering::SeqCst);
            if !w.is_null() {
                // SAFETY: an open launch's work, which stays until `active`
                // is 0 (the protocol of [`Pool`]); its threads only pass the
                // argument pointers on to the kernel's entry, as every gang
                // of a GPU launch reads the same arguments.
                unsafe { &*w }.run();
            }
            if self.active.fetch_sub(1, Ordering::SeqCst) == 1
                && self.waiting.load(Ordering::SeqCst)
            {
                let _g = self.lock();
                self.done.notify_one();
            }
        }
    }

    /// Runs `work` on the pool's threads and this one; returns when every
    /// block is done. A launch that finds the pool running another's (a
    /// second host thread launching at once) runs its blocks on its own
    /// thread instead of waiting.
    fn run(&self, work: Work) {
        let _one = match self.launching.try_lock() {
            Ok(g) => g,
            Err(std::sync::TryLockError::Poisoned(e)) => e.into_inner(),
            Err(std::sync::TryLockError::WouldBlock) => return work.run(),
        };
        self.work
            .store((&raw const work).cast_mut(), Ordering::SeqCst);
        self.launch.fetch_add(1, Ordering::SeqCst);
        if self.sleepers.load(Ordering::SeqCst) > 0 {
            let _g = self.lock();
            self.wake.notify_all();
        }
        work.run();
        self.work.store(std::ptr::null_mut(), Ordering::SeqCst);
        let idle = || self.active.load(Ordering::SeqCst) == 0;
        if !spin_until(idle) {
            let mut g = self.lock();
            self.waiting.store(true, Ordering::SeqCst);
            while !idle() {
                g = self.done.wait(g).unwrap_or_else(|e| e.into_inner());
            }
            self.waiting.store(false, Ordering::SeqCst);
        }
    }
}

unsafe extern "C" fn launch(
    _: i32,
    func: *mut c_void,
    grid: *const u32,
    _: *const u32,
    _: u32,
    args: *mut *mut c_void,
    _: *mut c_void,
) -> i32 {
    if func.is_null() || grid.is_null() {
        return host::fail("libptxrt multicore device: launch without a kernel or a grid");
    }
    // SAFETY: the grid is 3 sizes (the ABI's contract).
    let g = unsafe { [*grid, *grid.add(1), *grid.add(2)] };
    // SAFETY: `func` is an entry of a table (module_get_function).
    let entry: Entry = unsafe { std::mem::transmute::<*mut c_void, Entry>(func) };
    run_grid(entry, g, args, threads());
    0
}

/// Runs every block of grid `g` through `entry` on `threads` threads (the
/// calling one and a pool's).
fn run_grid(entry: Entry, g: [u32; 3], args: *mut *mut c_void, threads: usize) {
    let total: u64 = g.iter().map(|&n| u64::from(n)).product();
    let work = Work {
        entry,
        grid: g,
        total,
        next: AtomicU64::new(0),
        args,
    };
    if threads <= 1 || total <= 1 {
        return work.run();
    }
    Pool::of(threads).run(work);
}

/// The multicore plugin (made once, never unloaded).
pub fn plugin() -> &'static Plugin {
    static MULTICORE: OnceLock<Plugin> = OnceLock::new();
    MULTICORE.get_or_init(|| Plugin {
        fns: PluginFns {
            device_info,
            module_load_data,
            link_module,
            module_get_function,
            function_limits,
            module_get_global,
            module_unload,
            launch,
            ..host::plugin().fns
        },
        origin: "the multicore device (built into libptxrt)".to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;
    use std::sync::Mutex;

    /// Which threads ran which blocks of the test kernel.
    static SEEN: Mutex<Vec<(u64, std::thread::ThreadId)>> = Mutex::new(Vec::new());

    /// A kernel entry recording its block and thread, and adding its
    /// block's index to the `u64` its first argument points to.
    unsafe extern "C" fn record(g: *const u32, b: u64, args: *mut *mut c_void) {
        // SAFETY: the test passes a grid and one argument, a pointer to an
        // AtomicU64.
        let (sum, g) = unsafe { (&**(*args).cast::<*const AtomicU64>(), *g) };
        assert!(g > 0);
        sum.fetch_add(b, Ordering::Relaxed);
        // Long enough that one thread cannot take every block.
        std::thread::sleep(std::time::Duration::from_millis(2));
        SEEN.lock().unwrap().push((b, std::thread::current().id()));
    }

    #[test]
    fn launch_runs_every_block_once_on_several_threads() {
        let name = c"k";
        let table = [
            HostSym {
                name: name.as_ptr(),
                addr: record as *mut c_void,
            },
            HostSym {
                name: std::ptr::null(),
                addr: std::ptr::null_mut(),
            },
        ];
        let p = plugin();
        // SAFETY (this test): a table as accc writes one, and a grid of
        // 3 sizes.
        let info = unsafe { p.device_info(0) }.unwrap();
        assert_eq!(info.name_str(), "multicore");
        assert_eq!(info.code_kinds, 1 << CODE_HOST);
        let m = unsafe { p.module_load_data(0, table.as_ptr().cast(), 1) }.unwrap();
        let f = unsafe { p.module_get_function(0, m, name.as_ptr()) }.unwrap();
        assert!(unsafe { p.module_get_function(0, m, c"other".as_ptr()) }.is_err());
        let sum = AtomicU64::new(0);
        let mut arg: *const AtomicU64 = &sum;
        let mut args = [(&raw mut arg).cast::<c_void>()];
        let grid = [8u32, 2, 2];
        let one = [1u32; 3];
        let none = std::ptr::null_mut();
        unsafe {
            p.launch(
                0,
                f,
                grid.as_ptr(),
                one.as_ptr(),
                0,
                args.as_mut_ptr(),
                none,
            )
        }
        .unwrap();
        assert_eq!(sum.load(Ordering::Relaxed), (0..32).sum::<u64>());
        // Four threads: each block once, on more than one thread (every
        // block takes 2 ms, far longer than a thread takes to start).
        sum.store(0, Ordering::Relaxed);
        SEEN.lock().unwrap().clear();
        // SAFETY: `f` is `record`.
        let entry = unsafe { std::mem::transmute::<*mut c_void, Entry>(f) };
        run_grid(entry, grid, args.as_mut_ptr(), 4);
        assert_eq!(sum.load(Ordering::Relaxed), (0..32).sum::<u64>());
        let seen = SEEN.lock().unwrap();
        let blocks: HashSet<u64> = seen.iter().map(|(b, _)| *b).collect();
        assert_eq!((seen.len(), blocks.len()), (32, 32));
        let threads: HashSet<_> = seen.iter().map(|(_, t)| *t).collect();
        assert!((2..=4).contains(&threads.len()), "{threads:?}");
    }
}
