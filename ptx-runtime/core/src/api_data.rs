//! The data routines of `include/openacc.h` (OpenACC 3.3 3.2.14-3.2.30):
//! device memory, dynamic data lifetimes, updates, mapping, address
//! translation, copies and attachment.
//!
//! Owns: what each routine means; the actions themselves are
//! [`crate::mapping`]'s, shared with the directives (`acc_copyin` is enter
//! data copyin, `acc_copyout_finalize` exit data copyout finalize, ...),
//! on the host device as on any other: there it keeps the same present
//! table with every range mapped to itself, and behaves as OpenACC says for
//! shared memory — every host address is present at its own address
//! (`acc_is_present` is true, `acc_deviceptr` and `acc_hostptr` return
//! their argument unless a mapping says otherwise), copies between "device"
//! and host memory are `memmove`s or nothing, `acc_malloc` allocates host
//! memory (only it may be given to `acc_free`), and `acc_map_data` maps a
//! range only to itself.
//! Every failure is a fatal error naming the routine and its arguments.
//! `acc_memcpy_d2d` copies with the devices' own copy on every device type
//! (the host device's is a `memmove`), between the devices of the current
//! type (the host type has one, number 0).
//! Every transfer between host and device memory (`acc_copyin`,
//! `acc_update_*`, `acc_memcpy_to/from_device`, `acc_memcpy_d2d` between
//! two devices, which goes through host memory, ...) goes through
//! [`mapping::upload`] / [`mapping::download`]: its `PTXRT_NOTIFY` line and
//! `PTXRT_TIME` record name the routine.
//! May call: [`crate::runtime`], [`crate::device`], [`crate::mapping`], [`crate::queue`],
//! [`crate::error`], [`crate::prof`] (enter_data, exit_data and update start
//! and end events around the data routines, as around their directives).

use crate::abi::SrcLoc;
use crate::device::{DeviceId, DeviceState};
use crate::error::{guard, report, Failure};
use crate::mapping::{self, IfAbsent, Ref, Site};
use crate::present::Lookup;
use crate::prof;
use crate::queue::{self, Queue, ASYNC_SYNC};
use crate::runtime::lock;
use std::ffi::{c_int, c_void};
use std::ptr;

/// Run routine `routine` (arguments as `args` says, for messages): on the
/// calling thread's device (the host device too), `op` on the queue of
/// `async_arg`. A failure is fatal.
fn run<T>(
    routine: &str,
    args: &dyn Fn() -> String,
    async_arg: c_int,
    op: impl FnOnce(&mut DeviceState, &Site) -> Result<T, Failure>,
) -> T {
    let loc = SrcLoc::routine(routine);
    let q = queue::resolve(async_arg).unwrap_or_else(|f| report(&loc, &args(), &f));
    let mut rt = lock();
    let dev = rt.current();
    let site = Site {
        loc: &loc,
        name: args,
    };
    match queue::run(dev, q, |dev| op(dev, &site)) {
        Ok(v) => v,
        Err(f) => report(&loc, &args(), &f),
    }
}

fn range_args(h: *const c_void, bytes: usize) -> impl Fn() -> String {
    move || format!("data_arg={h:p}, bytes={bytes}")
}

/// Device address of present host address `h` (null when not present).
fn device_of(dev: &DeviceState, h: *const c_void) -> *mut c_void {
    if h.is_null() {
        return ptr::null_mut();
    }
    match mapping::translate(dev, h as usize, h as usize) {
        Some(d) => d as usize as *mut c_void,
        None => ptr::null_mut(),
    }
}

/// acc_copyin / acc_create and their async forms.
fn enter(
    routine: &str,
    h: *mut c_void,
    bytes: usize,
    copyin: bool,
    async_arg: c_int,
) -> *mut c_void {
    let args = range_args(h, bytes);
    run(routine, &args, async_arg, |dev, site| {
        let action = IfAbsent::Create {
            copyin,
            zero: false,
        };
        paired(dev, site, prof::ev::ENTER_DATA_START, |dev| {
            mapping::acquire(dev, site, h as usize, bytes, action, Ref::Dynamic)
        })?;
        Ok(device_of(dev, h))
    })
}

/// `work` between the profiling interface's start event `start` and its
/// end (`start + 1`), as the routine of `site`.
fn paired<T>(
    dev: &mut DeviceState,
    site: &Site,
    start: i32,
    work: impl FnOnce(&mut DeviceState) -> T,
) -> T {
    let ctx = prof::Ctx::of(site.loc, dev);
    let span = prof::Span::start(start, &ctx, false);
    let r = work(dev);
    span.end(start + 1, &ctx, false);
    r
}

/// acc_copyout / acc_delete, finalize and async forms.
fn exit(
    routine: &str,
    h: *mut c_void,
    bytes: usize,
    copyout: bool,
    finalize: bool,
    async_arg: c_int,
) {
    let args = range_args(h, bytes);
    run(routine, &args, async_arg, |dev, site| {
        paired(dev, site, prof::ev::EXIT_DATA_START, |dev| {
            mapping::release(
                dev,
                site,
                h as usize,
                bytes,
                Ref::Dynamic,
                finalize,
                copyout,
            )
        })
    })
}

/// acc_update_device / acc_update_self and their async forms.
fn update(routine: &str, h: *mut c_void, bytes: usize, to_device: bool, async_arg: c_int) {
    let args = range_args(h, bytes);
    run(routine, &args, async_arg, |dev, site| {
        paired(dev, site, prof::ev::UPDATE_START, |dev| {
            mapping::update(dev, site, h as usize, bytes, to_device, false)
        })
    })
}

fn null_arg(bytes: usize, ptrs: &[*const c_void]) -> Result<(), Failure> {
    if bytes > 0 && ptrs.iter().any(|p| p.is_null()) {
        return Err(Failure::new("null pointer"));
    }
    Ok(())
}

/// `void *acc_malloc(size_t bytes)`: null for 0 bytes.
#[no_mangle]
pub extern "C" fn acc_malloc(bytes: usize) -> *mut c_void {
    guard(|| {
        if bytes == 0 {
            return ptr::null_mut();
        }
        let args = move || format!("bytes={bytes}");
        run("acc_malloc", &args, ASYNC_SYNC, |dev, _| {
            let d = dev.alloc(bytes)?;
            dev.user_blocks.insert(d);
            Ok(d as usize as *mut c_void)
        })
    })
}

/// `void acc_free(void *data_dev)`: only what `acc_malloc` returned.
///
/// # Safety
/// `data_dev` is only looked up (it must come from `acc_malloc`).
#[no_mangle]
pub unsafe extern "C" fn acc_free(data_dev: *mut c_void) {
    guard(|| {
        if data_dev.is_null() {
            return;
        }
        let args = move || format!("data_dev={data_dev:p}");
        run("acc_free", &args, ASYNC_SYNC, |dev, _| {
            let d = data_dev as u64;
            if !dev.user_blocks.remove(&d) {
                return Err(Failure::new("not allocated by acc_malloc"));
            }
            dev.free(d)
        })
    })
}

/// `void *acc_copyin(void *data_arg, size_t bytes)`.
#[no_mangle]
pub extern "C" fn acc_copyin(h: *mut c_void, bytes: usize) -> *mut c_void {
    guard(|| enter("acc_copyin", h, bytes, true, ASYNC_SYNC))
}

/// `void *acc_present_or_copyin(void *, size_t)`: OpenACC 2.0 name of `acc_copyin`.
#[no_mangle]
pub extern "C" fn acc_present_or_copyin(h: *mut c_void, bytes: usize) -> *mut c_void {
    guard(|| enter("acc_present_or_copyin", h, bytes, true, ASYNC_SYNC))
}

/// `void *acc_pcopyin(void *, size_t)`: OpenACC 2.0 name of `acc_copyin`.
#[no_mangle]
pub extern "C" fn acc_pcopyin(h: *mut c_void, bytes: usize) -> *mut c_void {
    guard(|| enter("acc_pcopyin", h, bytes, true, ASYNC_SYNC))
}

/// `void acc_copyin_async(void *data_arg, size_t bytes, int async_arg)`.
#[no_mangle]
pub extern "C" fn acc_copyin_async(h: *mut c_void, bytes: usize, async_arg: c_int) {
    guard(|| {
        enter("acc_copyin_async", h, bytes, true, async_arg);
    })
}

/// `void *acc_create(void *data_arg, size_t bytes)`.
#[no_mangle]
pub extern "C" fn acc_create(h: *mut c_void, bytes: usize) -> *mut c_void {
    guard(|| enter("acc_create", h, bytes, false, ASYNC_SYNC))
}

/// `void *acc_present_or_create(void *, size_t)`: OpenACC 2.0 name of `acc_create`.
#[no_mangle]
pub extern "C" fn acc_present_or_create(h: *mut c_void, bytes: usize) -> *mut c_void {
    guard(|| enter("acc_present_or_create", h, bytes, false, ASYNC_SYNC))
}

/// `void *acc_pcreate(void *, size_t)`: OpenACC 2.0 name of `acc_create`.
#[no_mangle]
pub extern "C" fn acc_pcreate(h: *mut c_void, bytes: usize) -> *mut c_void {
    guard(|| enter("acc_pcreate", h, bytes, false, ASYNC_SYNC))
}

/// `void acc_create_async(void *data_arg, size_t bytes, int async_arg)`.
#[no_mangle]
pub extern "C" fn acc_create_async(h: *mut c_void, bytes: usize, async_arg: c_int) {
    guard(|| {
        enter("acc_create_async", h, bytes, false, async_arg);
    })
}

/// `void acc_copyout(void *data_arg, size_t bytes)`.
#[no_mangle]
pub extern "C" fn acc_copyout(h: *mut c_void, bytes: usize) {
    guard(|| exit("acc_copyout", h, bytes, true, false, ASYNC_SYNC))
}

/// `void acc_copyout_async(void *data_arg, size_t bytes, int async_arg)`.
#[no_mangle]
pub extern "C" fn acc_copyout_async(h: *mut c_void, bytes: usize, async_arg: c_int) {
    guard(|| exit("acc_copyout_async", h, bytes, true, false, async_arg))
}

/// `void acc_copyout_finalize(void *data_arg, size_t bytes)`.
#[no_mangle]
pub extern "C" fn acc_copyout_finalize(h: *mut c_void, bytes: usize) {
    guard(|| exit("acc_copyout_finalize", h, bytes, true, true, ASYNC_SYNC))
}

/// `void acc_copyout_finalize_async(void *data_arg, size_t bytes, int async_arg)`.
#[no_mangle]
pub extern "C" fn acc_copyout_finalize_async(h: *mut c_void, bytes: usize, async_arg: c_int) {
    guard(|| {
        exit(
            "acc_copyout_finalize_async",
            h,
            bytes,
            true,
            true,
            async_arg,
        )
    })
}

/// `void acc_delete(void *data_arg, size_t bytes)`.
#[no_mangle]
pub extern "C" fn acc_delete(h: *mut c_void, bytes: usize) {
    guard(|| exit("acc_delete", h, bytes, false, false, ASYNC_SYNC))
}

/// `void acc_delete_async(void *data_arg, size_t bytes, int async_arg)`.
#[no_mangle]
pub extern "C" fn acc_delete_async(h: *mut c_void, bytes: usize, async_arg: c_int) {
    guard(|| exit("acc_delete_async", h, bytes, false, false, async_arg))
}

/// `void acc_delete_finalize(void *data_arg, size_t bytes)`.
#[no_mangle]
pub extern "C" fn acc_delete_finalize(h: *mut c_void, bytes: usize) {
    guard(|| exit("acc_delete_finalize", h, bytes, false, true, ASYNC_SYNC))
}

/// `void acc_delete_finalize_async(void *data_arg, size_t bytes, int async_arg)`.
#[no_mangle]
pub extern "C" fn acc_delete_finalize_async(h: *mut c_void, bytes: usize, async_arg: c_int) {
    guard(|| {
        exit(
            "acc_delete_finalize_async",
            h,
            bytes,
            false,
            true,
            async_arg,
        )
    })
}

/// `void acc_update_device(void *data_arg, size_t bytes)`.
#[no_mangle]
pub extern "C" fn acc_update_device(h: *mut c_void, bytes: usize) {
    guard(|| update("acc_update_device", h, bytes, true, ASYNC_SYNC))
}

/// `void acc_update_device_async(void *data_arg, size_t bytes, int async_arg)`.
#[no_mangle]
pub extern "C" fn acc_update_device_async(h: *mut c_void, bytes: usize, async_arg: c_int) {
    guard(|| update("acc_update_device_async", h, bytes, true, async_arg))
}

/// `void acc_update_self(void *data_arg, size_t bytes)`.
#[no_mangle]
pub extern "C" fn acc_update_self(h: *mut c_void, bytes: usize) {
    guard(|| update("acc_update_self", h, bytes, false, ASYNC_SYNC))
}

/// `void acc_update_self_async(void *data_arg, size_t bytes, int async_arg)`.
#[no_mangle]
pub extern "C" fn acc_update_self_async(h: *mut c_void, bytes: usize, async_arg: c_int) {
    guard(|| update("acc_update_self_async", h, bytes, false, async_arg))
}

/// `void acc_map_data(void *data_arg, void *data_dev, size_t bytes)`. On
/// the host device only a device address equal to the host address can be mapped.
#[no_mangle]
pub extern "C" fn acc_map_data(h: *mut c_void, d: *mut c_void, bytes: usize) {
    guard(|| {
        let args = move || format!("data_arg={h:p}, data_dev={d:p}, bytes={bytes}");
        run("acc_map_data", &args, ASYNC_SYNC, |dev, _| {
            mapping::map_user(dev, h as usize, d as u64, bytes)
        })
    })
}

/// `void acc_unmap_data(void *data_arg)`.
#[no_mangle]
pub extern "C" fn acc_unmap_data(h: *mut c_void) {
    guard(|| {
        let args = move || format!("data_arg={h:p}");
        run("acc_unmap_data", &args, ASYNC_SYNC, |dev, site| {
            mapping::unmap_user(dev, site, h as usize)
        })
    })
}

/// `void *acc_deviceptr(void *data_arg)`: null when not present.
#[no_mangle]
pub extern "C" fn acc_deviceptr(h: *mut c_void) -> *mut c_void {
    guard(|| {
        let args = move || format!("data_arg={h:p}");
        run("acc_deviceptr", &args, ASYNC_SYNC, |dev, _| {
            Ok(device_of(dev, h))
        })
    })
}

/// `void *acc_hostptr(void *data_dev)`: null when no present data is there.
#[no_mangle]
pub extern "C" fn acc_hostptr(d: *mut c_void) -> *mut c_void {
    guard(|| {
        let args = move || format!("data_dev={d:p}");
        run("acc_hostptr", &args, ASYNC_SYNC, |dev, _| {
            Ok(match d.is_null() {
                true => ptr::null_mut(),
                false => {
                    mapping::host_of(dev, d as u64).map_or(ptr::null_mut(), |h| h as *mut c_void)
                }
            })
        })
    })
}

/// `int acc_is_present(void *data_arg, size_t bytes)`: 0 bytes count as 1.
#[no_mangle]
pub extern "C" fn acc_is_present(h: *mut c_void, bytes: usize) -> c_int {
    guard(|| {
        let args = range_args(h, bytes);
        run("acc_is_present", &args, ASYNC_SYNC, |dev, _| {
            Ok(c_int::from(mapping::is_present(
                dev,
                h as usize,
                bytes.max(1),
            )))
        })
    })
}

fn memcpy_to_device(
    routine: &str,
    d: *mut c_void,
    h: *const c_void,
    bytes: usize,
    async_arg: c_int,
) {
    let args = move || format!("data_dev_dest={d:p}, data_host_src={h:p}, bytes={bytes}");
    run(routine, &args, async_arg, |dev, site| {
        null_arg(bytes, &[d, h])?;
        if bytes == 0 {
            return Ok(());
        }
        // SAFETY: the program passes a host range of `bytes` bytes.
        unsafe { mapping::upload(dev, site, d as u64, h, bytes) }
    })
}

fn memcpy_from_device(
    routine: &str,
    h: *mut c_void,
    d: *const c_void,
    bytes: usize,
    async_arg: c_int,
) {
    let args = move || format!("data_host_dest={h:p}, data_dev_src={d:p}, bytes={bytes}");
    run(routine, &args, async_arg, |dev, site| {
        null_arg(bytes, &[h, d])?;
        if bytes == 0 {
            return Ok(());
        }
        // SAFETY: the program passes a host range of `bytes` bytes.
        unsafe { mapping::download(dev, site, h, d as u64, bytes) }
    })
}

fn memcpy_device(
    routine: &str,
    dst: *mut c_void,
    src: *const c_void,
    bytes: usize,
    async_arg: c_int,
) {
    let args = move || format!("data_dev_dest={dst:p}, data_dev_src={src:p}, bytes={bytes}");
    run(routine, &args, async_arg, |dev, _| {
        null_arg(bytes, &[dst, src])?;
        if bytes == 0 {
            return Ok(());
        }
        dev.device_to_device(dst as u64, src as u64, bytes)
    })
}

/// `void acc_memcpy_to_device(void *data_dev_dest, void *data_host_src, size_t bytes)`.
#[no_mangle]
pub extern "C" fn acc_memcpy_to_device(d: *mut c_void, h: *mut c_void, bytes: usize) {
    guard(|| memcpy_to_device("acc_memcpy_to_device", d, h, bytes, ASYNC_SYNC))
}

/// `void acc_memcpy_to_device_async(void *, void *, size_t, int async_arg)`.
#[no_mangle]
pub extern "C" fn acc_memcpy_to_device_async(
    d: *mut c_void,
    h: *mut c_void,
    bytes: usize,
    a: c_int,
) {
    guard(|| memcpy_to_device("acc_memcpy_to_device_async", d, h, bytes, a))
}

/// `void acc_memcpy_from_device(void *data_host_dest, void *data_dev_src, size_t bytes)`.
#[no_mangle]
pub extern "C" fn acc_memcpy_from_device(h: *mut c_void, d: *mut c_void, bytes: usize) {
    guard(|| memcpy_from_device("acc_memcpy_from_device", h, d, bytes, ASYNC_SYNC))
}

/// `void acc_memcpy_from_device_async(void *, void *, size_t, int async_arg)`.
#[no_mangle]
pub extern "C" fn acc_memcpy_from_device_async(
    h: *mut c_void,
    d: *mut c_void,
    bytes: usize,
    a: c_int,
) {
    guard(|| memcpy_from_device("acc_memcpy_from_device_async", h, d, bytes, a))
}

/// `void acc_memcpy_device(void *data_dev_dest, void *data_dev_src, size_t bytes)`.
#[no_mangle]
pub extern "C" fn acc_memcpy_device(dst: *mut c_void, src: *mut c_void, bytes: usize) {
    guard(|| memcpy_device("acc_memcpy_device", dst, src, bytes, ASYNC_SYNC))
}

/// `void acc_memcpy_device_async(void *, void *, size_t, int async_arg)`.
#[no_mangle]
pub extern "C" fn acc_memcpy_device_async(
    dst: *mut c_void,
    src: *mut c_void,
    bytes: usize,
    a: c_int,
) {
    guard(|| memcpy_device("acc_memcpy_device_async", dst, src, bytes, a))
}

/// The device copy of present section `[h, h + bytes)` on device `n`.
fn present_on(
    dev: &DeviceState,
    h: *mut c_void,
    bytes: usize,
    which: &str,
) -> Result<u64, Failure> {
    match dev.present.lookup(h as usize, bytes) {
        Lookup::Contained { device, .. } => Ok(device),
        // Shared memory: every host address is its own device address.
        _ if dev.shares_memory() && !h.is_null() => Ok(h as u64),
        _ => Err(Failure::new(format!(
            "the {which} is not present on device {}",
            dev.ordinal
        ))),
    }
}

fn memcpy_d2d(
    routine: &str,
    dst: *mut c_void,
    src: *mut c_void,
    bytes: usize,
    dev_dst: c_int,
    dev_src: c_int,
    a: c_int,
) {
    let args = move || {
        format!("data_arg_dest={dst:p}, data_arg_src={src:p}, bytes={bytes}, dev_num_dest={dev_dst}, dev_num_src={dev_src}")
    };
    let loc = SrcLoc::routine(routine);
    let fail = |f: Failure| -> ! { report(&loc, &args(), &f) };
    let site = Site {
        loc: &loc,
        name: &args,
    };
    let q = queue::resolve(a).unwrap_or_else(|f| fail(f));
    if bytes == 0 {
        return;
    }
    let mut rt = lock();
    // The device numbers are of the current device type: the host type has
    // one device, the host device (whose copies are `memmove`s).
    // (As the multicore device type: one device, sharing memory.)
    let current = rt.current().id();
    let on_host = !matches!(current, DeviceId::Nvidia(_));
    let id = |n: c_int| {
        if on_host {
            current
        } else {
            DeviceId::Nvidia(n)
        }
    };
    let mut open = |n: c_int| {
        let r = if on_host {
            (n == 0)
                .then_some(())
                .ok_or_else(|| "the host device type has one device, 0".to_string())
        } else {
            rt.open(n).map(|_| ())
        };
        r.map_err(|why| Failure::with(format!("device {n} is not usable"), why))
    };
    open(dev_src).unwrap_or_else(|f| fail(f));
    open(dev_dst).unwrap_or_else(|f| fail(f));
    let r = (|| -> Result<(), Failure> {
        let s = rt
            .get(id(dev_src))
            .ok_or_else(|| Failure::new("no source device"))?;
        let s_addr = present_on(s, src, bytes, "source")?;
        if dev_src == dev_dst {
            let d_addr = present_on(s, dst, bytes, "destination")?;
            return queue::run(s, q, |s| s.device_to_device(d_addr, s_addr, bytes));
        }
        // Between devices the copy is synchronous: after the queue's work
        // on both devices.
        if let Queue::Id(n) = q {
            queue::host_wait(s, Some(n))?;
            if let Some(d) = rt.get(id(dev_dst)) {
                queue::host_wait(d, Some(n))?;
            }
        }
        let s = rt
            .get(id(dev_src))
            .ok_or_else(|| Failure::new("no source device"))?;
        // Through host memory: devices of a process need not reach each other.
        let mut tmp: Vec<u8> = Vec::new();
        tmp.try_reserve_exact(bytes).map_err(|_| {
            Failure::new(format!(
                "cannot allocate {bytes} bytes of host memory to copy through"
            ))
        })?;
        tmp.resize(bytes, 0);
        // SAFETY: tmp holds `bytes` bytes.
        unsafe { mapping::download(s, &site, tmp.as_mut_ptr().cast(), s_addr, bytes)? };
        let d = rt
            .get(id(dev_dst))
            .ok_or_else(|| Failure::new("no destination device"))?;
        let d_addr = present_on(d, dst, bytes, "destination")?;
        // SAFETY: as above.
        unsafe { mapping::upload(d, &site, d_addr, tmp.as_ptr().cast(), bytes) }
    })();
    if let Err(f) = r {
        fail(f);
    }
}

/// `void acc_memcpy_d2d(h_void *data_arg_dest, h_void *data_arg_src, size_t bytes,
/// int dev_num_dest, int dev_num_src)`: between the device copies of two
/// present sections on two devices.
#[no_mangle]
pub extern "C" fn acc_memcpy_d2d(
    dst: *mut c_void,
    src: *mut c_void,
    bytes: usize,
    dev_dst: c_int,
    dev_src: c_int,
) {
    guard(|| {
        memcpy_d2d(
            "acc_memcpy_d2d",
            dst,
            src,
            bytes,
            dev_dst,
            dev_src,
            ASYNC_SYNC,
        )
    })
}

/// `void acc_memcpy_d2d_async(..., int async_arg_src)`.
#[no_mangle]
pub extern "C" fn acc_memcpy_d2d_async(
    dst: *mut c_void,
    src: *mut c_void,
    bytes: usize,
    dev_dst: c_int,
    dev_src: c_int,
    a: c_int,
) {
    guard(|| memcpy_d2d("acc_memcpy_d2d_async", dst, src, bytes, dev_dst, dev_src, a))
}

fn attach(routine: &str, p: *mut *mut c_void, async_arg: c_int) {
    let args = move || format!("ptr_addr={p:p}");
    run(routine, &args, async_arg, |dev, _| {
        mapping::attach(dev, p as usize, mapping::Target::Value).map(|_| ())
    })
}

fn detach(routine: &str, p: *mut *mut c_void, finalize: bool, async_arg: c_int) {
    let args = move || format!("ptr_addr={p:p}");
    run(routine, &args, async_arg, |dev, _| {
        mapping::detach(dev, p as usize, finalize)
    })
}

/// `void acc_attach(void **ptr_addr)`.
#[no_mangle]
pub extern "C" fn acc_attach(p: *mut *mut c_void) {
    guard(|| attach("acc_attach", p, ASYNC_SYNC))
}

/// `void acc_attach_async(void **ptr_addr, int async_arg)`.
#[no_mangle]
pub extern "C" fn acc_attach_async(p: *mut *mut c_void, async_arg: c_int) {
    guard(|| attach("acc_attach_async", p, async_arg))
}

/// `void acc_detach(void **ptr_addr)`.
#[no_mangle]
pub extern "C" fn acc_detach(p: *mut *mut c_void) {
    guard(|| detach("acc_detach", p, false, ASYNC_SYNC))
}

/// `void acc_detach_async(void **ptr_addr, int async_arg)`.
#[no_mangle]
pub extern "C" fn acc_detach_async(p: *mut *mut c_void, async_arg: c_int) {
    guard(|| detach("acc_detach_async", p, false, async_arg))
}

/// `void acc_detach_finalize(void **ptr_addr)`.
#[no_mangle]
pub extern "C" fn acc_detach_finalize(p: *mut *mut c_void) {
    guard(|| detach("acc_detach_finalize", p, true, ASYNC_SYNC))
}

/// `void acc_detach_finalize_async(void **ptr_addr, int async_arg)`.
#[no_mangle]
pub extern "C" fn acc_detach_finalize_async(p: *mut *mut c_void, async_arg: c_int) {
    guard(|| detach("acc_detach_finalize_async", p, true, async_arg))
}
