//! Memory and copies beyond plain allocation: memory info, zeroing,
//! device-to-device copies, page-locked host memory (the staging buffers of
//! large transfers and async copies), and the copies queued on a stream.
//!
//! Owns: the driver calls `cuMemGetInfo`, `cuMemsetD8[Async]`,
//! `cuMemcpyDtoD[Async]`, `cuMemHostAlloc`/`cuMemFreeHost`,
//! `cuPointerGetAttribute`, `cuMemcpy*Async`.
//! May call: the crate root's helpers (`entry`, `make_current`, `check`, `out`).

use crate::{check, entry, make_current, out};
use cust::sys as cu;
use std::ffi::c_void;
use std::ptr;

pub(crate) unsafe extern "C" fn mem_get_info(dev: i32, free: *mut u64, total: *mut u64) -> i32 {
    entry(|| {
        make_current(dev)?;
        let (mut f, mut t) = (0usize, 0usize);
        // SAFETY: out-pointers to locals.
        check("cuMemGetInfo", unsafe {
            cu::cuMemGetInfo_v2(&mut f, &mut t)
        })?;
        *out(free, "free")? = f as u64;
        *out(total, "total")? = t as u64;
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn memset_zero(dev: i32, dst: u64, bytes: usize) -> i32 {
    entry(|| {
        make_current(dev)?;
        // SAFETY: libptxrt passes device memory of at least `bytes` bytes.
        check("cuMemsetD8", unsafe { cu::cuMemsetD8_v2(dst, 0, bytes) })
    })
}

pub(crate) unsafe extern "C" fn memcpy_dtod(dev: i32, dst: u64, src: u64, bytes: usize) -> i32 {
    entry(|| {
        make_current(dev)?;
        // SAFETY: libptxrt passes device ranges of at least `bytes` bytes.
        check("cuMemcpyDtoD", unsafe {
            cu::cuMemcpyDtoD_v2(dst, src, bytes)
        })?;
        // cuMemcpyDtoD may return before the copy ends: finish it, as the
        // ABI says the copy is synchronous (the legacy default stream it
        // ran on; the async queues' non-blocking streams go on).
        // SAFETY: plain driver call on the current context.
        check("cuStreamSynchronize", unsafe {
            cu::cuStreamSynchronize(ptr::null_mut())
        })
    })
}

pub(crate) unsafe extern "C" fn host_alloc(dev: i32, bytes: usize, p: *mut *mut c_void) -> i32 {
    entry(|| {
        make_current(dev)?;
        let p = out(p, "host pointer")?;
        let mut h: *mut c_void = ptr::null_mut();
        // SAFETY: out-pointer to a local.
        check("cuMemHostAlloc", unsafe {
            cu::cuMemHostAlloc(&mut h, bytes, cu::CU_MEMHOSTALLOC_PORTABLE)
        })?;
        *p = h;
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn host_free(dev: i32, p: *mut c_void) -> i32 {
    entry(|| {
        make_current(dev)?;
        // SAFETY: p came from host_alloc.
        check("cuMemFreeHost", unsafe { cu::cuMemFreeHost(p) })
    })
}

pub(crate) unsafe extern "C" fn host_is_pinned(
    dev: i32,
    p: *const c_void,
    pinned: *mut i32,
) -> i32 {
    entry(|| {
        make_current(dev)?;
        let pinned = out(pinned, "pinned")?;
        let mut kind: u32 = 0;
        // SAFETY: the attribute is an unsigned int written to a local; the
        // driver only looks the address up.
        let r = unsafe {
            cu::cuPointerGetAttribute(
                (&mut kind as *mut u32).cast(),
                cu::CUpointer_attribute::CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
                p as cu::CUdeviceptr,
            )
        };
        // Memory the driver does not know (plain malloc) is an invalid value.
        *pinned = i32::from(
            r == cu::CUresult::CUDA_SUCCESS && kind == cu::CUmemorytype::CU_MEMORYTYPE_HOST as u32,
        );
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
    entry(|| {
        make_current(dev)?;
        // SAFETY: libptxrt passes a host range of `bytes` that stays valid
        // until the stream has run the copy, and device memory as long.
        check("cuMemcpyHtoDAsync", unsafe {
            cu::cuMemcpyHtoDAsync_v2(dst, src, bytes, stream.cast())
        })
    })
}

pub(crate) unsafe extern "C" fn memcpy_dtoh_async(
    dev: i32,
    dst: *mut c_void,
    src: u64,
    bytes: usize,
    stream: *mut c_void,
) -> i32 {
    entry(|| {
        make_current(dev)?;
        // SAFETY: as for memcpy_htod_async.
        check("cuMemcpyDtoHAsync", unsafe {
            cu::cuMemcpyDtoHAsync_v2(dst, src, bytes, stream.cast())
        })
    })
}

pub(crate) unsafe extern "C" fn memset_zero_async(
    dev: i32,
    dst: u64,
    bytes: usize,
    stream: *mut c_void,
) -> i32 {
    entry(|| {
        make_current(dev)?;
        // SAFETY: libptxrt passes device memory of at least `bytes` bytes
        // and a stream of this device.
        check("cuMemsetD8Async", unsafe {
            cu::cuMemsetD8Async(dst, 0, bytes, stream.cast())
        })
    })
}

pub(crate) unsafe extern "C" fn memcpy_dtod_async(
    dev: i32,
    dst: u64,
    src: u64,
    bytes: usize,
    stream: *mut c_void,
) -> i32 {
    entry(|| {
        make_current(dev)?;
        // SAFETY: libptxrt passes device ranges of at least `bytes` bytes
        // and a stream of this device.
        check("cuMemcpyDtoDAsync", unsafe {
            cu::cuMemcpyDtoDAsync_v2(dst, src, bytes, stream.cast())
        })
    })
}
