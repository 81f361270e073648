//! The async routines of `include/openacc.h` (OpenACC 3.3 3.2.9-3.2.12,
//! 3.2.27 for CUDA streams) and `__ptxrt_wait` (the `wait` directive):
//! testing and waiting for queues (`acc_wait_any`: for any one of several,
//! polling), the default async queue, the CUDA stream of a queue.
//!
//! Owns: what each routine means on top of [`crate::queue`]. The host
//! waits without holding the runtime lock. An invalid async argument or
//! device number is a fatal error naming the routine and the argument; so
//! is a queue whose work failed (the driver's error). The host device's
//! queues are synchronous: every queue is idle.
//! May call: [`crate::queue`], [`crate::runtime`], [`crate::device`], [`crate::icv`],
//! [`crate::abi`], [`crate::error`].

use crate::abi::{Async, Loc, SrcLoc};
use crate::device::DeviceId;
use crate::error::{fatal_at, guard, report, Failure};
use crate::icv;
use crate::queue::{self, Queue, ASYNC_DEFAULT, ASYNC_NOVAL, ASYNC_SYNC};
use crate::runtime::{host_wait_unlocked, lock};
use std::ffi::{c_int, c_void};

/// The queue `arg` names for waiting or testing (`None`: `acc_async_sync`,
/// nothing to wait for), or a fatal error for `routine`.
fn awaited_arg(routine: &str, name: &str, arg: c_int) -> Option<u32> {
    queue::awaited(arg)
        .unwrap_or_else(|f| report(&SrcLoc::routine(routine), &format!("{name}={arg}"), &f))
}

/// The queue `arg` names for new work, or a fatal error for `routine`.
fn queue_arg(routine: &str, name: &str, arg: c_int) -> Queue {
    queue::resolve(arg)
        .unwrap_or_else(|f| report(&SrcLoc::routine(routine), &format!("{name}={arg}"), &f))
}

/// The device the calling thread's constructs use (the host device when
/// no NVIDIA device is open).
fn current_device() -> DeviceId {
    lock().active().id()
}

/// Check device number `dev_num` for `routine`: it must name a device of
/// the current type (the host has device 0 only).
fn device_arg(routine: &str, dev_num: c_int) -> DeviceId {
    let mut rt = lock();
    let host = icv::device_type().on_host();
    let ok = match rt.device_count() {
        Ok(n) if !host => (0..n).contains(&dev_num),
        _ => dev_num == 0,
    };
    if !ok {
        report(
            &SrcLoc::routine(routine),
            &format!("dev_num={dev_num}"),
            &Failure::new("no such device"),
        );
    }
    if host {
        DeviceId::Host
    } else {
        DeviceId::Nvidia(dev_num)
    }
}

/// Whether queue `q` (`None`: every queue) of device `dev` has completed
/// (a device not open has nothing queued).
fn test(routine: &str, what: &str, dev: DeviceId, q: Option<u32>) -> c_int {
    let mut rt = lock();
    let Some(d) = rt.get(dev) else {
        return 1;
    };
    match queue::test(d, q) {
        Ok(done) => c_int::from(done),
        Err(f) => report(&SrcLoc::routine(routine), what, &f),
    }
}

/// The host waits for queue `w` (`None`: every queue) of device `dev`.
fn host_wait(routine: &str, what: &str, dev: DeviceId, w: Option<u32>) {
    if let Err(f) = host_wait_unlocked(&SrcLoc::routine(routine), dev, w) {
        report(&SrcLoc::routine(routine), what, &f);
    }
}

/// Queue `q` of device `dev` waits for queue `w` (`None`: every queue);
/// the host waits when `q` is synchronous.
fn queue_wait(routine: &str, what: &str, dev: DeviceId, q: Queue, w: Option<u32>) {
    let Queue::Id(q) = q else {
        return host_wait(routine, what, dev, w);
    };
    let mut rt = lock();
    if let Some(d) = rt.get(dev) {
        if let Err(f) = queue::queue_wait(d, q, w) {
            report(&SrcLoc::routine(routine), what, &f);
        }
    }
}

/// `int acc_async_test(int wait_arg)`: nonzero when queue `wait_arg` is idle.
#[no_mangle]
pub extern "C" fn acc_async_test(wait_arg: c_int) -> c_int {
    guard(
        || match awaited_arg("acc_async_test", "wait_arg", wait_arg) {
            Some(q) => test(
                "acc_async_test",
                &format!("wait_arg={wait_arg}"),
                current_device(),
                Some(q),
            ),
            None => 1,
        },
    )
}

/// `int acc_async_test_device(int wait_arg, int dev_num)`.
#[no_mangle]
pub extern "C" fn acc_async_test_device(wait_arg: c_int, dev_num: c_int) -> c_int {
    guard(|| {
        let r = "acc_async_test_device";
        let q = awaited_arg(r, "wait_arg", wait_arg);
        let dev = device_arg(r, dev_num);
        match q {
            Some(q) => test(r, &format!("wait_arg={wait_arg}"), dev, Some(q)),
            None => 1,
        }
    })
}

/// `int acc_async_test_all(void)`.
#[no_mangle]
pub extern "C" fn acc_async_test_all() -> c_int {
    guard(|| test("acc_async_test_all", "", current_device(), None))
}

/// `int acc_async_test_all_device(int dev_num)`.
#[no_mangle]
pub extern "C" fn acc_async_test_all_device(dev_num: c_int) -> c_int {
    guard(|| {
        let r = "acc_async_test_all_device";
        let dev = device_arg(r, dev_num);
        test(r, &format!("dev_num={dev_num}"), dev, None)
    })
}

/// `void acc_wait(int wait_arg)`.
#[no_mangle]
pub extern "C" fn acc_wait(wait_arg: c_int) {
    guard(|| {
        if let Some(q) = awaited_arg("acc_wait", "wait_arg", wait_arg) {
            host_wait(
                "acc_wait",
                &format!("wait_arg={wait_arg}"),
                current_device(),
                Some(q),
            );
        }
    })
}

/// `void acc_async_wait(int)`: the OpenACC 1.0 name of `acc_wait`.
#[no_mangle]
pub extern "C" fn acc_async_wait(wait_arg: c_int) {
    acc_wait(wait_arg)
}

/// `void acc_wait_device(int wait_arg, int dev_num)`.
#[no_mangle]
pub extern "C" fn acc_wait_device(wait_arg: c_int, dev_num: c_int) {
    guard(|| {
        let r = "acc_wait_device";
        let q = awaited_arg(r, "wait_arg", wait_arg);
        let dev = device_arg(r, dev_num);
        if let Some(q) = q {
            host_wait(r, &format!("wait_arg={wait_arg}"), dev, Some(q));
        }
    })
}

/// `void acc_wait_async(int wait_arg, int async_arg)`: queue `async_arg`
/// waits for queue `wait_arg`.
#[no_mangle]
pub extern "C" fn acc_wait_async(wait_arg: c_int, async_arg: c_int) {
    guard(|| {
        let r = "acc_wait_async";
        let w = awaited_arg(r, "wait_arg", wait_arg);
        let q = queue_arg(r, "async_arg", async_arg);
        if let Some(w) = w {
            queue_wait(
                r,
                &format!("wait_arg={wait_arg}"),
                current_device(),
                q,
                Some(w),
            );
        }
    })
}

/// `void acc_wait_device_async(int wait_arg, int async_arg, int dev_num)`.
#[no_mangle]
pub extern "C" fn acc_wait_device_async(wait_arg: c_int, async_arg: c_int, dev_num: c_int) {
    guard(|| {
        let r = "acc_wait_device_async";
        let w = awaited_arg(r, "wait_arg", wait_arg);
        let q = queue_arg(r, "async_arg", async_arg);
        let dev = device_arg(r, dev_num);
        if let Some(w) = w {
            queue_wait(r, &format!("wait_arg={wait_arg}"), dev, q, Some(w));
        }
    })
}

/// `void acc_wait_all(void)`.
#[no_mangle]
pub extern "C" fn acc_wait_all() {
    guard(|| host_wait("acc_wait_all", "", current_device(), None))
}

/// `void acc_async_wait_all(void)`: the OpenACC 1.0 name of `acc_wait_all`.
#[no_mangle]
pub extern "C" fn acc_async_wait_all() {
    acc_wait_all()
}

/// `void acc_wait_all_device(int dev_num)`.
#[no_mangle]
pub extern "C" fn acc_wait_all_device(dev_num: c_int) {
    guard(|| {
        let r = "acc_wait_all_device";
        let dev = device_arg(r, dev_num);
        host_wait(r, &format!("dev_num={dev_num}"), dev, None);
    })
}

/// `void acc_wait_all_async(int async_arg)`.
#[no_mangle]
pub extern "C" fn acc_wait_all_async(async_arg: c_int) {
    guard(|| {
        let r = "acc_wait_all_async";
        let q = queue_arg(r, "async_arg", async_arg);
        queue_wait(
            r,
            &format!("async_arg={async_arg}"),
            current_device(),
            q,
            None,
        );
    })
}

/// `void acc_wait_all_device_async(int async_arg, int dev_num)`.
#[no_mangle]
pub extern "C" fn acc_wait_all_device_async(async_arg: c_int, dev_num: c_int) {
    guard(|| {
        let r = "acc_wait_all_device_async";
        let q = queue_arg(r, "async_arg", async_arg);
        let dev = device_arg(r, dev_num);
        queue_wait(r, &format!("async_arg={async_arg}"), dev, q, None);
    })
}

/// Wait until one queue of `wait_arg` (`count` async arguments) on device
/// `dev` (the host device: every queue idle) has completed; its index,
/// the lowest when several have, or -1 when there is none to wait for
/// (`count` 0, every element `acc_async_sync`). A negative count, a null
/// array or an invalid element is a fatal error naming the routine.
///
/// # Safety
/// `wait_arg` null or readable for `count` ints.
unsafe fn wait_any(routine: &str, count: c_int, wait_arg: *const c_int, dev: DeviceId) -> c_int {
    let at = SrcLoc::routine(routine);
    let n = usize::try_from(count).unwrap_or_else(|_| {
        report(
            &at,
            &format!("count={count}"),
            &Failure::new("invalid count"),
        )
    });
    if n == 0 {
        return -1;
    }
    if wait_arg.is_null() {
        report(
            &at,
            &format!("count={count}"),
            &Failure::new("wait_arg is NULL"),
        );
    }
    // SAFETY: readable for count ints, as the caller promises.
    let args = unsafe { std::slice::from_raw_parts(wait_arg, n) };
    let qs: Vec<Option<u32>> = args
        .iter()
        .enumerate()
        .map(|(i, &a)| awaited_arg(routine, &format!("wait_arg[{i}]"), a))
        .collect();
    let Some(first) = qs.iter().position(Option::is_some) else {
        return -1;
    };
    // Poll without holding the lock between rounds: other threads go on
    // queueing work, and the awaited work goes on completing.
    let mut pause = std::time::Duration::from_micros(2);
    loop {
        {
            let mut rt = lock();
            let Some(d) = rt.get(dev) else {
                return first as c_int;
            };
            match queue::first_done(d, &qs) {
                Ok(Some(i)) => return i as c_int,
                Ok(None) => {}
                Err(f) => report(&at, &format!("count={count}"), &f),
            }
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(std::time::Duration::from_micros(200));
    }
}

/// `int acc_wait_any(int count, int wait_arg[])` (OpenACC 3.3): wait
/// until any queue of `wait_arg` has completed; its index, or -1.
///
/// # Safety
/// `wait_arg` null or readable for `count` ints.
#[no_mangle]
pub unsafe extern "C" fn acc_wait_any(count: c_int, wait_arg: *const c_int) -> c_int {
    // SAFETY: as the caller promises.
    guard(|| unsafe { wait_any("acc_wait_any", count, wait_arg, current_device()) })
}

/// `int acc_wait_any_device(int count, int wait_arg[], int dev_num)`.
///
/// # Safety
/// `wait_arg` null or readable for `count` ints.
#[no_mangle]
pub unsafe extern "C" fn acc_wait_any_device(
    count: c_int,
    wait_arg: *const c_int,
    dev_num: c_int,
) -> c_int {
    guard(|| {
        let r = "acc_wait_any_device";
        let dev = device_arg(r, dev_num);
        // SAFETY: as the caller promises.
        unsafe { wait_any(r, count, wait_arg, dev) }
    })
}

/// `int acc_get_default_async(void)`.
#[no_mangle]
pub extern "C" fn acc_get_default_async() -> c_int {
    icv::default_async()
}

/// Make `async_arg` the calling thread's default queue
/// (`acc_set_default_async`, `set default_async(…)`): `acc_async_default`
/// (and `acc_async_noval`) restore the initial one; another negative value
/// is a fatal error at `at` naming `args`.
pub(crate) fn set_default_async(at: &SrcLoc, args: &str, async_arg: c_int) {
    match async_arg {
        ASYNC_DEFAULT | ASYNC_NOVAL => icv::set_default_async(icv::INITIAL_DEFAULT_ASYNC),
        ASYNC_SYNC => icv::set_default_async(ASYNC_SYNC),
        n if n >= 0 => icv::set_default_async(n),
        n => report(
            at,
            args,
            &Failure::new(format!("invalid async argument {n}")),
        ),
    }
}

/// `void acc_set_default_async(int async_arg)`.
#[no_mangle]
pub extern "C" fn acc_set_default_async(async_arg: c_int) {
    guard(|| {
        set_default_async(
            &SrcLoc::routine("acc_set_default_async"),
            &format!("async_arg={async_arg}"),
            async_arg,
        )
    })
}

/// `void *acc_get_cuda_stream(int async_arg)`: the CUDA stream (`CUstream`)
/// of queue `async_arg` on the current device, made if the queue was not
/// used yet; null for `acc_async_sync` (the legacy default stream) and on
/// a device without async queues (the host).
#[no_mangle]
pub extern "C" fn acc_get_cuda_stream(async_arg: c_int) -> *mut c_void {
    guard(|| {
        let r = "acc_get_cuda_stream";
        let Queue::Id(q) = queue_arg(r, "async_arg", async_arg) else {
            return std::ptr::null_mut();
        };
        let mut rt = lock();
        let dev = rt.current();
        if !dev.async_queues() {
            return std::ptr::null_mut();
        }
        let d = dev.dev();
        dev.queues
            .stream(d, q)
            .unwrap_or_else(|f| report(&SrcLoc::routine(r), &format!("async_arg={async_arg}"), &f))
    })
}

/// `int acc_set_cuda_stream(int async_arg, void *stream)`: queue
/// `async_arg` of the current device uses the program's `stream` from now
/// on (its own stream is waited for and destroyed). 1 on success, 0 for
/// `acc_async_sync`, a null stream or a device without async queues (the
/// host).
///
/// # Safety
/// `stream` must be a CUDA stream of the current device that outlives its
/// use by the queue.
#[no_mangle]
pub unsafe extern "C" fn acc_set_cuda_stream(async_arg: c_int, stream: *mut c_void) -> c_int {
    guard(|| {
        let r = "acc_set_cuda_stream";
        let Queue::Id(q) = queue_arg(r, "async_arg", async_arg) else {
            return 0;
        };
        if stream.is_null() {
            return 0;
        }
        let mut rt = lock();
        let dev = rt.current();
        if !dev.async_queues() {
            return 0;
        }
        let d = dev.dev();
        match dev.queues.set_stream(d, q, stream) {
            Ok(()) => 1,
            Err(f) => report(&SrcLoc::routine(r), &format!("async_arg={async_arg}"), &f),
        }
    })
}

/// `void __ptxrt_wait(loc, a)`: the `wait` directive. Without `async` the
/// host waits for the listed queues (all with no list); with it, the
/// queue of `async` waits for them on the device.
///
/// # Safety
/// `loc` is null or a valid `__ptxrt_loc`; `a` a valid `struct __ptxrt_async`.
#[no_mangle]
pub unsafe extern "C" fn __ptxrt_wait(loc: *const Loc, a: *const Async) {
    guard(|| {
        // SAFETY: the compiler passes a valid __ptxrt_loc or null.
        let loc = unsafe { SrcLoc::from_c(loc) };
        // SAFETY: the compiler passes a valid async struct.
        let Some(a) = (unsafe { Async::from_c(a) }) else {
            return;
        };
        let fail = |f: Failure| -> ! { fatal_at(&loc, &f.what, None, f.detail.as_deref()) };
        let q = queue::resolve(a.async_).unwrap_or_else(|f| fail(f));
        let mut rt = lock();
        if !rt.current().async_queues() {
            return;
        }
        if q == Queue::Sync {
            // The host waits: without the lock.
            let wdev = queue::wait_device(&mut rt, a).unwrap_or_else(|f| fail(f));
            let list = queue::wait_list(a).unwrap_or_else(|f| fail(f));
            drop(rt);
            for w in list.unwrap_or_default() {
                if let Err(f) = host_wait_unlocked(&loc, DeviceId::Nvidia(wdev), w) {
                    fail(f);
                }
            }
        } else if let Err(f) = queue::do_waits(&mut rt, a, q) {
            fail(f);
        }
    })
}
