//! Tests of several NVIDIA devices through the C entry points a program
//! calls, on the fake plugin ([`crate::fake`]) reporting two devices: each
//! device keeps its own present table and async queues, `acc_set_device_num`
//! and the `set` directive choose the device the thread's constructs and
//! routines use, `init` opens one, `shutdown` releases one or all (a later
//! use opens a fresh one), and the device type and number routines answer
//! for every type. These tests replace the global runtime
//! ([`crate::runtime::RUNTIME`]) with one over the fake, one test at a time
//! ([`install`]); only the tests of deferred waits (`deferred_tests`) use
//! it too, through [`install`]. Error paths
//! (which end the process) are tested by the C programs of `tests/`.

use crate::abi::{Loc, DEVICE_ANY, DEVICE_OTHER};
use crate::api_async::{acc_async_test, acc_async_test_device, acc_get_default_async, acc_wait};
use crate::api_data::{acc_copyin, acc_copyin_async, acc_deviceptr, acc_is_present};
use crate::api_device::{
    acc_get_device_num, acc_get_device_type, acc_get_num_devices, acc_init_device,
    acc_set_device_num, acc_set_device_type, acc_shutdown, acc_shutdown_device, ACC_DEVICE_CURRENT,
    ACC_DEVICE_DEFAULT, ACC_DEVICE_HOST, ACC_DEVICE_NONE, ACC_DEVICE_NOT_HOST, ACC_DEVICE_NVIDIA,
};
use crate::device::DeviceId;
use crate::device_directives::{__ptxrt_init, __ptxrt_set, __ptxrt_shutdown};
use crate::fake;
use crate::icv::{self, Selected};
use crate::plugin::Plugin;
use crate::queue::ASYNC_DEFAULT;
use crate::runtime::{lock, runtime_with, Runtime};
use std::ffi::{c_void, CStr};
use std::ptr;
use std::sync::{Mutex, MutexGuard};

/// Held by the test that owns the global runtime.
static SERIAL: Mutex<()> = Mutex::new(());

/// Give the global runtime to this test: a fresh one over the fake plugin
/// with `n` devices, this thread's ICVs at their defaults.
pub(crate) fn install(n: i32) -> MutexGuard<'static, ()> {
    let g = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    fake::calls();
    fake::set_limit(usize::MAX);
    fake::set_device_count(n);
    let plugin: &'static Plugin = Box::leak(Box::new(Plugin {
        fns: fake::fns(),
        origin: "fake".into(),
    }));
    // The previous test's devices live in its thread's fake memory: leave
    // them alone rather than close them here.
    let old: Runtime = std::mem::replace(&mut *lock(), runtime_with(plugin, n));
    std::mem::forget(old);
    icv::set_device_type(Selected::Default);
    icv::set_device_num(Some(0));
    icv::set_default_async(icv::INITIAL_DEFAULT_ASYNC);
    g
}

fn vp<T>(v: &[T]) -> *mut c_void {
    v.as_ptr().cast::<c_void>().cast_mut()
}

/// Whether `v` is present on the calling thread's device.
fn present<T>(v: &[T]) -> bool {
    acc_is_present(vp(v), std::mem::size_of_val(v)) != 0
}

/// The ordinals of the open devices and their present tables' sizes.
fn open_devices() -> Vec<(i32, usize)> {
    lock()
        .open_devices()
        .map(|d| (d.ordinal, d.present.len()))
        .collect()
}

#[test]
fn each_device_keeps_its_own_present_table() {
    let _g = install(2);
    let a = [1.5f64; 16];
    let b = [7i32; 8];
    acc_set_device_num(0, ACC_DEVICE_NVIDIA);
    assert_eq!(acc_get_device_type(), ACC_DEVICE_NVIDIA);
    assert_eq!(acc_get_device_num(ACC_DEVICE_NVIDIA), 0);
    let d0 = acc_copyin(vp(&a), std::mem::size_of_val(&a));
    assert!(!d0.is_null());
    assert!(present(&a));

    // Device 1 has a table of its own: `a` is not there.
    acc_set_device_num(1, ACC_DEVICE_NVIDIA);
    assert_eq!(acc_get_device_num(ACC_DEVICE_NVIDIA), 1);
    assert_eq!(acc_get_device_num(ACC_DEVICE_CURRENT), 1);
    assert!(!present(&a));
    assert!(acc_deviceptr(vp(&a)).is_null());
    let d1 = acc_copyin(vp(&a), std::mem::size_of_val(&a));
    assert!(!d1.is_null() && d1 != d0);
    acc_copyin(vp(&b), std::mem::size_of_val(&b));
    assert!(present(&b));
    assert_eq!(fake::read_device(d1 as u64, 8), 1.5f64.to_ne_bytes());
    assert_eq!(open_devices(), [(0, 1), (1, 2)]);

    // Back on device 0: its own copy, and no `b`.
    acc_set_device_num(0, ACC_DEVICE_NVIDIA);
    assert_eq!(acc_deviceptr(vp(&a)), d0);
    assert!(!present(&b));

    // Shutting device 1 down frees its copies only; using it again opens
    // a fresh device with an empty table.
    acc_shutdown_device(1, ACC_DEVICE_NVIDIA);
    assert_eq!(open_devices(), [(0, 1)]);
    assert!(present(&a));
    acc_set_device_num(1, ACC_DEVICE_NVIDIA);
    assert!(!present(&a));
    assert_eq!(open_devices(), [(0, 1), (1, 0)]);
    acc_shutdown(ACC_DEVICE_NVIDIA);
    assert_eq!(open_devices(), []);
}

#[test]
fn each_device_keeps_its_own_queues() {
    let _g = install(2);
    let a = vec![3u8; 4096];
    acc_set_device_num(0, ACC_DEVICE_NVIDIA);
    // The fake runs queued work only when the program waits for it.
    acc_copyin_async(vp(&a), a.len(), 3);
    assert_eq!(acc_async_test(3), 0);
    acc_set_device_num(1, ACC_DEVICE_NVIDIA);
    assert_eq!(acc_async_test(3), 1, "queue 3 of device 1 has no work");
    assert_eq!(acc_async_test_device(3, 0), 0);
    assert_eq!(acc_async_test_device(3, 1), 1);
    acc_wait(3); // device 1's queue 3: nothing to wait for
    assert_eq!(acc_async_test_device(3, 0), 0);
    acc_set_device_num(0, ACC_DEVICE_NVIDIA);
    acc_wait(3);
    assert_eq!(acc_async_test(3), 1);
    assert!(present(&a));
}

#[test]
fn device_routines_for_every_type() {
    let _g = install(2);
    assert_eq!(acc_get_num_devices(ACC_DEVICE_NVIDIA), 2);
    assert_eq!(acc_get_num_devices(ACC_DEVICE_NOT_HOST), 2);
    assert_eq!(acc_get_num_devices(ACC_DEVICE_DEFAULT), 2);
    assert_eq!(acc_get_num_devices(ACC_DEVICE_HOST), 1);
    assert_eq!(acc_get_num_devices(ACC_DEVICE_NONE), 0);
    // Default: the device is usable, so constructs run on NVIDIA.
    assert_eq!(acc_get_device_type(), ACC_DEVICE_NVIDIA);

    // acc_set_device_num with an explicit type also sets the type.
    acc_set_device_num(0, ACC_DEVICE_HOST);
    assert_eq!(acc_get_device_type(), ACC_DEVICE_HOST);
    assert_eq!(acc_get_device_num(ACC_DEVICE_HOST), 0);
    let a = [1u16; 4];
    assert_eq!(acc_copyin(vp(&a), 8), vp(&a), "host mode: the host address");
    // (acc_get_device_type opened device 0 to see that it is usable.)
    assert_eq!(open_devices(), [(0, 0)]);
    acc_set_device_num(1, ACC_DEVICE_NOT_HOST);
    assert_eq!(acc_get_device_type(), ACC_DEVICE_NVIDIA);
    assert_eq!(acc_get_device_num(ACC_DEVICE_NOT_HOST), 1);
    acc_set_device_num(1, ACC_DEVICE_DEFAULT);
    assert_eq!(icv::device_type(), Selected::Default);
    assert_eq!(acc_get_device_num(ACC_DEVICE_DEFAULT), 1);
    // acc_device_none: the current type (here default).
    acc_set_device_num(0, ACC_DEVICE_NONE);
    assert_eq!(icv::device_type(), Selected::Default);
    assert_eq!(acc_get_device_num(ACC_DEVICE_CURRENT), 0);
    // A negative number reverts to the default (0 here).
    icv::set_device_num(None);
    acc_set_device_num(-1, ACC_DEVICE_CURRENT);
    assert_eq!(
        acc_get_device_num(ACC_DEVICE_NVIDIA),
        icv::env().device_num.unwrap_or(0)
    );

    acc_set_device_type(ACC_DEVICE_HOST);
    assert_eq!(acc_get_device_type(), ACC_DEVICE_HOST);
    acc_set_device_type(ACC_DEVICE_NOT_HOST);
    assert_eq!(acc_get_device_type(), ACC_DEVICE_NVIDIA);
    acc_set_device_type(ACC_DEVICE_DEFAULT);

    // acc_init_device opens the device it names, not the current one.
    icv::set_device_num(Some(0));
    acc_shutdown(ACC_DEVICE_DEFAULT);
    acc_init_device(1, ACC_DEVICE_NVIDIA);
    assert_eq!(open_devices(), [(1, 0)]);
    assert_eq!(acc_get_device_num(ACC_DEVICE_NVIDIA), 0);
}

fn loc(construct: &'static CStr) -> Loc {
    Loc {
        file: c"t.c".as_ptr(),
        line: 3,
        col: 1,
        construct: construct.as_ptr(),
    }
}

#[test]
fn init_shutdown_and_set_directives() {
    let _g = install(2);
    let (init, shutdown, set) = (loc(c"init"), loc(c"shutdown"), loc(c"set"));
    let nvidia = c"nvidia".as_ptr();
    let radeon = c"radeon".as_ptr();
    // SAFETY: valid locations and names.
    unsafe {
        // init device_type(radeon): accc has no such devices: nothing.
        __ptxrt_init(&init, DEVICE_OTHER, radeon, 0, 0);
        assert!(open_devices().is_empty());
        // init device_num(1): the current type (default) on device 1.
        __ptxrt_init(&init, ACC_DEVICE_CURRENT, ptr::null(), 1, 1);
        assert_eq!(open_devices(), [(1, 0)]);
        assert_eq!(icv::device_type(), Selected::Default);
        // init device_type(*): the current device.
        __ptxrt_init(&init, DEVICE_ANY, c"*".as_ptr(), 0, 0);
        assert_eq!(open_devices(), [(0, 0), (1, 0)]);
        // shutdown device_type(nvidia) device_num(0), then all.
        __ptxrt_shutdown(&shutdown, ACC_DEVICE_NVIDIA, nvidia, 1, 0);
        assert_eq!(open_devices(), [(1, 0)]);
        __ptxrt_shutdown(&shutdown, DEVICE_OTHER, radeon, 0, 0);
        assert_eq!(open_devices(), [(1, 0)]);
        __ptxrt_shutdown(&shutdown, ACC_DEVICE_CURRENT, ptr::null(), 0, 0);
        assert!(open_devices().is_empty());

        // set device_type(nvidia) device_num(1) default_async(3).
        __ptxrt_set(&set, ACC_DEVICE_NVIDIA, nvidia, 1, 1, 1, 3);
        assert_eq!(acc_get_device_type(), ACC_DEVICE_NVIDIA);
        assert_eq!(acc_get_device_num(ACC_DEVICE_NVIDIA), 1);
        assert_eq!(acc_get_default_async(), 3);
        match icv::device_type() {
            Selected::Nvidia { origin } => {
                assert_eq!(&*origin, "set device_type(nvidia) device_num(1) at t.c:3")
            }
            s => panic!("{s:?}"),
        }
        let a = [2i64; 4];
        acc_copyin(vp(&a), 32);
        assert_eq!(open_devices(), [(1, 1)]);
        // set device_num(0): the current type, device 0 (no `a` there).
        __ptxrt_set(&set, ACC_DEVICE_CURRENT, ptr::null(), 1, 0, 0, 0);
        assert_eq!(acc_get_device_num(ACC_DEVICE_NVIDIA), 0);
        assert!(!present(&a));
        assert_eq!(open_devices(), [(0, 0), (1, 1)]);
        __ptxrt_shutdown(&shutdown, ACC_DEVICE_NVIDIA, nvidia, 1, 0);
        // set default_async(acc_async_default): the initial queue again.
        __ptxrt_set(
            &set,
            ACC_DEVICE_CURRENT,
            ptr::null(),
            0,
            0,
            1,
            ASYNC_DEFAULT,
        );
        assert_eq!(acc_get_default_async(), icv::INITIAL_DEFAULT_ASYNC);
        // set device_type(host): constructs run on the host.
        __ptxrt_set(&set, ACC_DEVICE_HOST, c"host".as_ptr(), 0, 0, 0, 0);
        assert_eq!(acc_get_device_type(), ACC_DEVICE_HOST);
        assert!(!lock().use_device(true));
        // init device_type(host) keeps the host; shutdown of the host does nothing.
        __ptxrt_init(&init, ACC_DEVICE_HOST, c"host".as_ptr(), 0, 0);
        __ptxrt_shutdown(&shutdown, ACC_DEVICE_HOST, c"host".as_ptr(), 0, 0);
        assert_eq!(open_devices(), [(1, 1)]);
        // init device_type(nvidia) makes NVIDIA the type, as acc_init does.
        __ptxrt_init(&init, ACC_DEVICE_NVIDIA, nvidia, 0, 0);
        assert_eq!(acc_get_device_type(), ACC_DEVICE_NVIDIA);
        assert_eq!(open_devices(), [(0, 0), (1, 1)]);
    }
}

/// The host is a device: constructs on the host get the host device (the
/// built-in host plugin, not the fake), which shares memory and runs no
/// kernels; an NVIDIA device is asked the same questions and answers
/// otherwise. Data routines on the host touch no plugin.
#[test]
fn the_host_is_a_device() {
    let _g = install(1);
    icv::set_device_type(Selected::Host);
    {
        let mut rt = lock();
        let host = rt.current();
        assert_eq!(host.id(), DeviceId::Host);
        assert!(host.shares_memory() && !host.runs_kernels() && !host.async_queues());
        assert_eq!(host.info.name_str(), "host");
        assert!(!rt.use_device(true));
    }
    let a = [1.0f64; 8];
    assert_eq!(acc_copyin(vp(&a), 64), vp(&a));
    assert!(present(&a));
    assert!(fake::calls().is_empty(), "{:?}", fake::calls());
    icv::set_device_type(Selected::Default);
    let mut rt = lock();
    let dev = rt.current();
    assert_eq!(dev.id(), DeviceId::Nvidia(0));
    assert!(!dev.shares_memory() && dev.runs_kernels() && dev.async_queues());
    assert!(rt.use_device(true));
    assert!(!rt.use_device(false));
    assert!(rt.get(DeviceId::Host).is_some_and(|h| h.shares_memory()));
}
