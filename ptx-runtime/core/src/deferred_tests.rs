//! Tests of the deferred waits of synchronous kernels ([`crate::deferred`])
//! through the C entry points a program calls, on the fake plugin
//! ([`crate::fake`], whose kernels log "kernel" and whose waits for the
//! null stream log "sync null"), with the global runtime of
//! [`crate::multi_device_tests::install`]: synchronous constructs whose
//! results stay on the device queue up without a wait; the host waits
//! where it next observes the device (a copy to the host, an update, an
//! `acc_*` routine, a host fallback) and before work of an async queue.

use crate::abi::{Image, Loc, Map, ASYNC_NONE};
use crate::api_data::{acc_copyin, acc_delete, acc_is_present};
use crate::data::{__ptxrt_data_begin, __ptxrt_data_end};
use crate::deferred::{mark_every, run_ahead};
use crate::fake;
use crate::launch::__ptxrt_launch;
use crate::multi_device_tests::install;
use crate::occupancy::{__ptxrt_kernel_gangs, __ptxrt_kernel_threads};
use crate::runtime::__ptxrt_use_device;
use ptxrt_plugin_abi::CODE_PTX;
use std::ffi::{c_int, c_void};
use std::ptr;

fn loc(line: i32) -> Loc {
    Loc {
        file: c"d.c".as_ptr(),
        line,
        col: 1,
        construct: c"parallel loop".as_ptr(),
    }
}

fn image() -> *mut Image {
    Box::leak(Box::new(crate::abi::test_image(
        c"d.c",
        &[(CODE_PTX, c"", b"PTX")],
        false,
    )))
}

/// Map kinds as ptxrt.h numbers them.
const COPY: c_int = 0;
const PRESENT: c_int = 4;

/// One synchronous compute construct over `a` (`kind`): device test, data
/// begin, launch sizes, launch, data end, as the compiler emits them.
fn construct(img: *mut Image, at: &Loc, a: &mut [f64], kind: c_int, queue: c_int) {
    let maps = [Map {
        name: c"a".as_ptr(),
        host: a.as_mut_ptr().cast::<c_void>(),
        bytes: std::mem::size_of_val(a),
        kind,
        flags: 0,
    }];
    assert_eq!(__ptxrt_use_device(1), 1);
    // SAFETY: valid location, maps, image and kernel name; no arguments.
    unsafe {
        let r = __ptxrt_data_begin(at, maps.as_ptr(), 1, ptr::null());
        // Launch sizes from the kernel, as the host code asks them.
        let threads = __ptxrt_kernel_threads(at, img, c"k".as_ptr()).min(32);
        let gangs = __ptxrt_kernel_gangs(at, img, c"k".as_ptr(), 1000, 1, threads);
        assert!(gangs >= 1);
        __ptxrt_launch(
            at,
            img,
            c"k".as_ptr(),
            1,
            1,
            1,
            32,
            1,
            1,
            0,
            ptr::null_mut(),
            queue,
        );
        __ptxrt_data_end(r);
    }
}

/// The calls of interest in the fake's log: kernels, waits, copies.
fn events() -> Vec<String> {
    fake::calls()
        .into_iter()
        .filter(|c| c == "kernel" || c.starts_with("sync") || c.starts_with("dtoh"))
        .collect()
}

/// The global runtime over the fake, an image, and an array of 4 doubles
/// present on the device (the fake's log cleared).
fn present_array() -> (
    std::sync::MutexGuard<'static, ()>,
    *mut Image,
    Box<[f64; 4]>,
) {
    let g = install(1);
    let mut a = Box::new([1.0f64; 4]);
    acc_copyin(a.as_mut_ptr().cast(), std::mem::size_of_val(&*a));
    fake::calls();
    (g, image(), a)
}

/// Take `a` off the device again.
fn delete(a: &mut [f64; 4]) {
    acc_delete(a.as_mut_ptr().cast(), std::mem::size_of_val(a));
}

#[test]
fn constructs_whose_data_stays_present_do_not_wait() {
    let (_g, img, mut a) = present_array();
    let bytes = std::mem::size_of_val(&*a);
    for line in [10, 20, 10] {
        construct(img, &loc(line), &mut *a, PRESENT, ASYNC_NONE);
    }
    assert_eq!(events(), ["kernel", "kernel", "kernel"], "no wait yet");
    // An acc_* routine observes the device: it waits first.
    assert_eq!(acc_is_present(a.as_mut_ptr().cast(), bytes), 1);
    assert_eq!(events(), ["sync null"]);
    // Nothing is pending any more: no second wait.
    assert_eq!(acc_is_present(a.as_mut_ptr().cast(), bytes), 1);
    assert_eq!(events(), Vec::<String>::new());
    delete(&mut a);
}

#[test]
fn a_copyout_waits_for_the_kernel_before_copying() {
    let _g = install(1);
    let img = image();
    let mut a = [1.0f64; 4];
    fake::calls();
    construct(img, &loc(30), &mut a, COPY, ASYNC_NONE);
    // The copy to the host (and the free) come after the wait.
    assert_eq!(events(), ["kernel", "sync null", "dtoh 32"]);
}

#[test]
fn a_host_fallback_and_async_work_wait_first() {
    let (_g, img, mut a) = present_array();
    construct(img, &loc(40), &mut *a, PRESENT, ASYNC_NONE);
    assert_eq!(__ptxrt_use_device(0), 0);
    assert_eq!(events(), ["kernel", "sync null"]);
    // A construct on async queue 1 (a non-blocking stream): the pending
    // kernel is waited for before its work is queued.
    construct(img, &loc(50), &mut *a, PRESENT, ASYNC_NONE);
    construct(img, &loc(60), &mut *a, PRESENT, 1);
    let ev = events();
    assert_eq!(&ev[..2], ["kernel", "sync null"], "{ev:?}");
    delete(&mut a);
}

#[test]
fn the_host_runs_ahead_by_a_few_kernels_only() {
    let (_g, img, mut a) = present_array();
    let every = mark_every(run_ahead());
    let n = 4 * every + 1;
    for _ in 0..n {
        construct(img, &loc(70), &mut *a, PRESENT, ASYNC_NONE);
    }
    // An event after every `every`-th launch; from the third event on, a
    // wait for the oldest (the host is then 2 * every launches ahead).
    let mut want = vec![];
    for k in 1..=n {
        want.push("kernel".to_string());
        if k % every == 0 && k / every >= 3 {
            want.push("sync null event".to_string());
        }
    }
    assert_eq!(events(), want);
    delete(&mut a);
    assert_eq!(events(), ["sync null"]);
}
