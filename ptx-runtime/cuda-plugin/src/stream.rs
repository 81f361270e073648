//! Streams, events and host functions: the async queues of libptxrt (one
//! stream per queue), the events that order one stream after another or
//! tell the host that work has completed, and host functions run in stream
//! order (the last step of an async copy to pageable memory).
//!
//! Events come in two kinds: `event_create`'s (no timing, cheaper: the
//! queues' order and completion) and `event_create_timed`'s (the pairs
//! around timed work of `PTXRT_TIME`, read with `event_elapsed`).
//!
//! Owns: the driver calls `cuStream*`, `cuEvent*`, `cuLaunchHostFunc`.
//! May call: the crate root's helpers (`entry`, `make_current`, `check`, `out`).

use crate::{check, entry, make_current, out};
use cust::sys as cu;
use ptxrt_plugin_abi::HostFn;
use std::ffi::c_void;
use std::ptr;

/// `*done` = 1 for `CUDA_SUCCESS`, 0 for `CUDA_ERROR_NOT_READY`; any other
/// status is the error of `call`.
fn ready(call: &str, r: cu::CUresult, done: *mut i32) -> crate::R<()> {
    let done = out(done, "done")?;
    if r == cu::CUresult::CUDA_ERROR_NOT_READY {
        *done = 0;
        return Ok(());
    }
    check(call, r)?;
    *done = 1;
    Ok(())
}

pub(crate) unsafe extern "C" fn stream_create(
    dev: i32,
    nonblocking: i32,
    stream: *mut *mut c_void,
) -> i32 {
    entry(|| {
        make_current(dev)?;
        let stream = out(stream, "stream")?;
        let mut s: cu::CUstream = ptr::null_mut();
        let flags = if nonblocking != 0 {
            cu::CUstream_flags::CU_STREAM_NON_BLOCKING as u32
        } else {
            cu::CUstream_flags::CU_STREAM_DEFAULT as u32
        };
        // SAFETY: out-pointer to a local.
        check("cuStreamCreate", unsafe {
            cu::cuStreamCreate(&mut s, flags)
        })?;
        *stream = s.cast();
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn stream_destroy(dev: i32, stream: *mut c_void) -> i32 {
    entry(|| {
        make_current(dev)?;
        // SAFETY: the stream came from stream_create.
        check("cuStreamDestroy", unsafe {
            cu::cuStreamDestroy_v2(stream.cast())
        })
    })
}

pub(crate) unsafe extern "C" fn stream_synchronize(dev: i32, stream: *mut c_void) -> i32 {
    entry(|| {
        make_current(dev)?;
        // SAFETY: the stream came from stream_create.
        check("cuStreamSynchronize", unsafe {
            cu::cuStreamSynchronize(stream.cast())
        })
    })
}

pub(crate) unsafe extern "C" fn event_create(dev: i32, event: *mut *mut c_void) -> i32 {
    entry(|| {
        make_current(dev)?;
        let event = out(event, "event")?;
        let mut e: cu::CUevent = ptr::null_mut();
        let flags = cu::CUevent_flags_enum::CU_EVENT_DISABLE_TIMING as u32;
        // SAFETY: out-pointer to a local.
        check("cuEventCreate", unsafe { cu::cuEventCreate(&mut e, flags) })?;
        *event = e.cast();
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn event_destroy(dev: i32, event: *mut c_void) -> i32 {
    entry(|| {
        make_current(dev)?;
        // SAFETY: the event came from event_create.
        check("cuEventDestroy", unsafe {
            cu::cuEventDestroy_v2(event.cast())
        })
    })
}

pub(crate) unsafe extern "C" fn event_record(
    dev: i32,
    event: *mut c_void,
    stream: *mut c_void,
) -> i32 {
    entry(|| {
        make_current(dev)?;
        // SAFETY: event and stream came from event_create / stream_create.
        check("cuEventRecord", unsafe {
            cu::cuEventRecord(event.cast(), stream.cast())
        })
    })
}

pub(crate) unsafe extern "C" fn event_synchronize(dev: i32, event: *mut c_void) -> i32 {
    entry(|| {
        make_current(dev)?;
        // SAFETY: the event came from event_create.
        check("cuEventSynchronize", unsafe {
            cu::cuEventSynchronize(event.cast())
        })
    })
}

pub(crate) unsafe extern "C" fn stream_query(dev: i32, stream: *mut c_void, done: *mut i32) -> i32 {
    entry(|| {
        make_current(dev)?;
        // SAFETY: the stream came from stream_create (or is a user's stream).
        ready(
            "cuStreamQuery",
            unsafe { cu::cuStreamQuery(stream.cast()) },
            done,
        )
    })
}

pub(crate) unsafe extern "C" fn stream_wait_event(
    dev: i32,
    stream: *mut c_void,
    event: *mut c_void,
) -> i32 {
    entry(|| {
        make_current(dev)?;
        // SAFETY: stream and event came from stream_create / event_create.
        check("cuStreamWaitEvent", unsafe {
            cu::cuStreamWaitEvent(stream.cast(), event.cast(), 0)
        })
    })
}

pub(crate) unsafe extern "C" fn launch_host_func(
    dev: i32,
    stream: *mut c_void,
    func: HostFn,
    data: *mut c_void,
) -> i32 {
    entry(|| {
        make_current(dev)?;
        // SAFETY: the stream came from stream_create; func and data are
        // libptxrt's (func does not call the driver).
        check("cuLaunchHostFunc", unsafe {
            cu::cuLaunchHostFunc(stream.cast(), Some(func), data)
        })
    })
}

pub(crate) unsafe extern "C" fn event_query(dev: i32, event: *mut c_void, done: *mut i32) -> i32 {
    entry(|| {
        make_current(dev)?;
        // SAFETY: the event came from event_create.
        ready(
            "cuEventQuery",
            unsafe { cu::cuEventQuery(event.cast()) },
            done,
        )
    })
}

pub(crate) unsafe extern "C" fn event_create_timed(dev: i32, event: *mut *mut c_void) -> i32 {
    entry(|| {
        make_current(dev)?;
        let event = out(event, "event")?;
        let mut e: cu::CUevent = ptr::null_mut();
        let flags = cu::CUevent_flags_enum::CU_EVENT_DEFAULT as u32;
        // SAFETY: out-pointer to a local.
        check("cuEventCreate", unsafe { cu::cuEventCreate(&mut e, flags) })?;
        *event = e.cast();
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn event_elapsed(
    dev: i32,
    start: *mut c_void,
    end: *mut c_void,
    ms: *mut f32,
) -> i32 {
    entry(|| {
        make_current(dev)?;
        let ms = out(ms, "ms")?;
        let mut t = 0f32;
        // SAFETY: both events came from event_create_timed; out-pointer to a local.
        check("cuEventElapsedTime", unsafe {
            cu::cuEventElapsedTime(&mut t, start.cast(), end.cast())
        })?;
        *ms = t;
        Ok(())
    })
}
