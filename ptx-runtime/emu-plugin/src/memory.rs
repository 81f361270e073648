//! Memory of the emulated device: allocations (`ptxrt_simt::Memory`: host
//! memory behind device addresses of their own, so a kernel's illegal
//! access is recognised), copies between host and device (at once, or in
//! stream order), zeroing, page-locked host memory. A copy whose device
//! range is not inside one live allocation fails as the driver's does
//! (CUDA_ERROR_INVALID_VALUE), naming what is wrong. Freeing waits for the
//! device's queued work first, as cuMemFree synchronises.
//!
//! Owns: the memory entry points. May call: the crate root, [`crate::stream`].

use crate::stream::{enqueue, run_all};
use crate::{out, with_device, Device, R};
use std::ffi::c_void;

/// The host address of `n` device bytes at `addr` for `call`.
fn dev_range(d: &Device, call: &str, addr: u64, n: usize) -> R<*mut u8> {
    d.mem.host_range(call, addr, n)
}

pub(crate) unsafe extern "C" fn mem_alloc(dev: i32, bytes: usize, p: *mut u64) -> i32 {
    with_device(dev, "cuMemAlloc", |d| {
        let p = out(p, "device pointer")?;
        *p = d
            .mem
            .alloc(bytes as u64, "allocation")
            .map_err(|e| format!("cuMemAlloc: {e}"))?;
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn mem_free(dev: i32, p: u64) -> i32 {
    with_device(dev, "cuMemFree", |d| {
        run_all(d)?;
        d.mem.free(p).map_err(|e| format!("cuMemFree: {e}"))?;
        d.race.forget(ptxrt_simt::mem::split_global(p).0);
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn memcpy_htod(
    dev: i32,
    dst: u64,
    src: *const c_void,
    bytes: usize,
) -> i32 {
    with_device(dev, "cuMemcpyHtoD", |d| {
        let to = dev_range(d, "cuMemcpyHtoD", dst, bytes)?;
        // SAFETY: libptxrt passes `bytes` readable host bytes; `to` is a
        // checked device range.
        unsafe { std::ptr::copy(src.cast::<u8>(), to, bytes) };
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn memcpy_dtoh(
    dev: i32,
    dst: *mut c_void,
    src: u64,
    bytes: usize,
) -> i32 {
    with_device(dev, "cuMemcpyDtoH", |d| {
        let from = dev_range(d, "cuMemcpyDtoH", src, bytes)?;
        // SAFETY: as for memcpy_htod.
        unsafe { std::ptr::copy(from, dst.cast::<u8>(), bytes) };
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn mem_get_info(dev: i32, free: *mut u64, total: *mut u64) -> i32 {
    with_device(dev, "cuMemGetInfo", |d| {
        *out(total, "total")? = d.mem.capacity;
        *out(free, "free")? = d.mem.capacity.saturating_sub(d.mem.in_use());
        Ok(())
    })
}

fn zero(d: &mut Device, call: &str, dst: u64, bytes: usize) -> R<()> {
    let p = dev_range(d, call, dst, bytes)?;
    // SAFETY: a checked device range.
    unsafe { std::ptr::write_bytes(p, 0, bytes) };
    Ok(())
}

fn dtod(d: &mut Device, call: &str, dst: u64, src: u64, bytes: usize) -> R<()> {
    let from = dev_range(d, call, src, bytes)?;
    let to = dev_range(d, call, dst, bytes)?;
    // SAFETY: checked device ranges (possibly overlapping).
    unsafe { std::ptr::copy(from, to, bytes) };
    Ok(())
}

pub(crate) unsafe extern "C" fn memset_zero(dev: i32, dst: u64, bytes: usize) -> i32 {
    with_device(dev, "cuMemsetD8", |d| zero(d, "cuMemsetD8", dst, bytes))
}

pub(crate) unsafe extern "C" fn memcpy_dtod(dev: i32, dst: u64, src: u64, bytes: usize) -> i32 {
    with_device(dev, "cuMemcpyDtoD", |d| {
        dtod(d, "cuMemcpyDtoD", dst, src, bytes)
    })
}

pub(crate) unsafe extern "C" fn host_alloc(dev: i32, bytes: usize, p: *mut *mut c_void) -> i32 {
    with_device(dev, "cuMemHostAlloc", |d| {
        let p = out(p, "host pointer")?;
        let mut block = vec![0u8; bytes.max(1)].into_boxed_slice();
        let at = block.as_mut_ptr();
        d.pinned.insert(at as usize, block);
        *p = at.cast();
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn host_free(dev: i32, p: *mut c_void) -> i32 {
    with_device(dev, "cuMemFreeHost", |d| {
        match d.pinned.remove(&(p as usize)) {
            Some(_) => Ok(()),
            None => Err("cuMemFreeHost: CUDA_ERROR_INVALID_VALUE (emulated)".into()),
        }
    })
}

pub(crate) unsafe extern "C" fn host_is_pinned(
    dev: i32,
    p: *const c_void,
    pinned: *mut i32,
) -> i32 {
    with_device(dev, "cuPointerGetAttribute", |d| {
        let a = p as usize;
        let yes = d
            .pinned
            .range(..=a)
            .next_back()
            .is_some_and(|(&b, blk)| a < b + blk.len());
        *out(pinned, "pinned")? = i32::from(yes);
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn memcpy_htod_async(
    dev: i32,
    dst: u64,
    src: *const c_void,
    bytes: usize,
    stream: *mut c_void,
) -> i32 {
    with_device(dev, "cuMemcpyHtoDAsync", |d| {
        dev_range(d, "cuMemcpyHtoDAsync", dst, bytes)?;
        let src = src as usize;
        enqueue(
            d,
            stream,
            Box::new(move |d: &mut Device| {
                let to = dev_range(d, "cuMemcpyHtoDAsync", dst, bytes)?;
                // SAFETY: libptxrt keeps the host bytes valid until the
                // stream has run the copy.
                unsafe { std::ptr::copy(src as *const u8, to, bytes) };
                Ok(())
            }),
        )
    })
}

pub(crate) unsafe extern "C" fn memcpy_dtoh_async(
    dev: i32,
    dst: *mut c_void,
    src: u64,
    bytes: usize,
    stream: *mut c_void,
) -> i32 {
    with_device(dev, "cuMemcpyDtoHAsync", |d| {
        dev_range(d, "cuMemcpyDtoHAsync", src, bytes)?;
        let dst = dst as usize;
        enqueue(
            d,
            stream,
            Box::new(move |d: &mut Device| {
                let from = dev_range(d, "cuMemcpyDtoHAsync", src, bytes)?;
                // SAFETY: as for memcpy_htod_async.
                unsafe { std::ptr::copy(from, dst as *mut u8, bytes) };
                Ok(())
            }),
        )
    })
}

pub(crate) unsafe extern "C" fn memset_zero_async(
    dev: i32,
    dst: u64,
    bytes: usize,
    stream: *mut c_void,
) -> i32 {
    with_device(dev, "cuMemsetD8Async", |d| {
        dev_range(d, "cuMemsetD8Async", dst, bytes)?;
        enqueue(
            d,
            stream,
            Box::new(move |d: &mut Device| zero(d, "cuMemsetD8Async", dst, bytes)),
        )
    })
}

pub(crate) unsafe extern "C" fn memcpy_dtod_async(
    dev: i32,
    dst: u64,
    src: u64,
    bytes: usize,
    stream: *mut c_void,
) -> i32 {
    with_device(dev, "cuMemcpyDtoDAsync", |d| {
        dev_range(d, "cuMemcpyDtoDAsync", src, bytes)?;
        dev_range(d, "cuMemcpyDtoDAsync", dst, bytes)?;
        enqueue(
            d,
            stream,
            Box::new(move |d: &mut Device| dtod(d, "cuMemcpyDtoDAsync", dst, src, bytes)),
        )
    })
}
