//! The async routines of `include/openacc.h` (OpenACC 3.3 3.2.9-3.2.12):
//! testing and waiting for queues, the default async queue.
//!
//! Owns: what each routine means on top of [`crate::queue`] (which, for
//! now, completes all work before a construct returns: every test says
//! complete and every wait returns at once). An invalid async argument or
//! device number is a fatal error naming the routine and the argument.
//! May call: [`crate::queue`], [`crate::device`], [`crate::icv`],
//! [`crate::error`].

use crate::abi::SrcLoc;
use crate::device::lock;
use crate::error::{guard, report, Failure};
use crate::icv;
use crate::queue::{self, Queue, ASYNC_DEFAULT, ASYNC_NOVAL, ASYNC_SYNC};
use std::ffi::c_int;

/// The queue `arg` names, or a fatal error for `routine`.
fn queue_arg(routine: &str, name: &str, arg: c_int) -> Queue {
    queue::valid(arg)
        .unwrap_or_else(|f| report(&SrcLoc::routine(routine), &format!("{name}={arg}"), &f))
}

/// Check device number `dev_num` for `routine`: it must name a device of
/// the current type (the host has device 0 only).
fn check_device(routine: &str, dev_num: c_int) {
    let mut rt = lock();
    let ok = match rt.device_count() {
        Ok(n) if icv::device_type() != icv::Selected::Host => (0..n).contains(&dev_num),
        _ => dev_num == 0,
    };
    if !ok {
        report(
            &SrcLoc::routine(routine),
            &format!("dev_num={dev_num}"),
            &Failure::new("no such device"),
        );
    }
}

/// Wait for queue `q` on the calling thread's device (none: nothing to do).
fn wait_queue(waits: Option<&[c_int]>, q: Queue) {
    let mut rt = lock();
    let dev = rt.active();
    let _ = queue::wait(dev, waits, q);
}

/// `int acc_async_test(int wait_arg)`: nonzero when queue `wait_arg` is idle.
#[no_mangle]
pub extern "C" fn acc_async_test(wait_arg: c_int) -> c_int {
    guard(|| {
        let q = queue_arg("acc_async_test", "wait_arg", wait_arg);
        c_int::from(queue::test(lock().active(), q))
    })
}

/// `int acc_async_test_device(int wait_arg, int dev_num)`.
#[no_mangle]
pub extern "C" fn acc_async_test_device(wait_arg: c_int, dev_num: c_int) -> c_int {
    guard(|| {
        let q = queue_arg("acc_async_test_device", "wait_arg", wait_arg);
        check_device("acc_async_test_device", dev_num);
        c_int::from(queue::test(lock().device(dev_num), q))
    })
}

/// `int acc_async_test_all(void)`.
#[no_mangle]
pub extern "C" fn acc_async_test_all() -> c_int {
    guard(|| c_int::from(queue::test(lock().active(), Queue::Sync)))
}

/// `int acc_async_test_all_device(int dev_num)`.
#[no_mangle]
pub extern "C" fn acc_async_test_all_device(dev_num: c_int) -> c_int {
    guard(|| {
        check_device("acc_async_test_all_device", dev_num);
        c_int::from(queue::test(lock().device(dev_num), Queue::Sync))
    })
}

/// `void acc_wait(int wait_arg)`.
#[no_mangle]
pub extern "C" fn acc_wait(wait_arg: c_int) {
    guard(|| {
        queue_arg("acc_wait", "wait_arg", wait_arg);
        wait_queue(Some(&[wait_arg]), Queue::Sync);
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
        queue_arg("acc_wait_device", "wait_arg", wait_arg);
        check_device("acc_wait_device", dev_num);
        wait_queue(Some(&[wait_arg]), Queue::Sync);
    })
}

/// `void acc_wait_async(int wait_arg, int async_arg)`: queue `async_arg`
/// waits for queue `wait_arg`.
#[no_mangle]
pub extern "C" fn acc_wait_async(wait_arg: c_int, async_arg: c_int) {
    guard(|| {
        queue_arg("acc_wait_async", "wait_arg", wait_arg);
        let q = queue_arg("acc_wait_async", "async_arg", async_arg);
        wait_queue(Some(&[wait_arg]), q);
    })
}

/// `void acc_wait_device_async(int wait_arg, int async_arg, int dev_num)`.
#[no_mangle]
pub extern "C" fn acc_wait_device_async(wait_arg: c_int, async_arg: c_int, dev_num: c_int) {
    guard(|| {
        queue_arg("acc_wait_device_async", "wait_arg", wait_arg);
        let q = queue_arg("acc_wait_device_async", "async_arg", async_arg);
        check_device("acc_wait_device_async", dev_num);
        wait_queue(Some(&[wait_arg]), q);
    })
}

/// `void acc_wait_all(void)`.
#[no_mangle]
pub extern "C" fn acc_wait_all() {
    guard(|| wait_queue(None, Queue::Sync))
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
        check_device("acc_wait_all_device", dev_num);
        wait_queue(None, Queue::Sync);
    })
}

/// `void acc_wait_all_async(int async_arg)`.
#[no_mangle]
pub extern "C" fn acc_wait_all_async(async_arg: c_int) {
    guard(|| {
        let q = queue_arg("acc_wait_all_async", "async_arg", async_arg);
        wait_queue(None, q);
    })
}

/// `void acc_wait_all_device_async(int async_arg, int dev_num)`.
#[no_mangle]
pub extern "C" fn acc_wait_all_device_async(async_arg: c_int, dev_num: c_int) {
    guard(|| {
        let q = queue_arg("acc_wait_all_device_async", "async_arg", async_arg);
        check_device("acc_wait_all_device_async", dev_num);
        wait_queue(None, q);
    })
}

/// `int acc_get_default_async(void)`.
#[no_mangle]
pub extern "C" fn acc_get_default_async() -> c_int {
    icv::default_async()
}

/// `void acc_set_default_async(int async_arg)`: `acc_async_default` (and
/// `acc_async_noval`) restore the initial default queue.
#[no_mangle]
pub extern "C" fn acc_set_default_async(async_arg: c_int) {
    guard(|| match async_arg {
        ASYNC_DEFAULT | ASYNC_NOVAL => icv::set_default_async(icv::INITIAL_DEFAULT_ASYNC),
        ASYNC_SYNC => icv::set_default_async(ASYNC_SYNC),
        n if n >= 0 => icv::set_default_async(n),
        n => report(
            &SrcLoc::routine("acc_set_default_async"),
            &format!("async_arg={n}"),
            &Failure::new(format!("invalid async argument {n}")),
        ),
    })
}
