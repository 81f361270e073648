//! Streams, events and host functions of the emulated device, as the CUDA
//! plugin's but run by the CPU: work queued on a stream (launches, copies,
//! zeroing, host functions, waits for other streams' events) runs in
//! stream order, on the thread that waits for it — a wait for the stream,
//! an event after it or the device, a query of the stream or of such an
//! event (a query finishes the work first, so polling always makes
//! progress), or `synchronize` — and work on the legacy default stream
//! (null) runs at once. Timed events take the host clock when the work
//! before them has run.
//!
//! Owns: [`Queues`], [`enqueue`], [`run_until`], [`run_all`] and the stream
//! and event entry points. May call: the crate root ([`Device`],
//! `with_device`, `out`).

use crate::{out, with_device, Device, R};
use ptxrt_plugin_abi::HostFn;
use std::collections::{HashMap, VecDeque};
use std::ffi::c_void;
use std::time::Instant;

/// Work queued on a stream.
pub type Work = Box<dyn FnOnce(&mut Device) -> R<()> + Send>;

/// An event: the stream it was recorded on and the last sequence number
/// queued there before it; when it completed (timed or not).
struct Event {
    stream: usize,
    seq: u64,
    timed: bool,
    done: Option<Instant>,
}

/// The device's streams and events.
#[derive(Default)]
pub struct Queues {
    /// Work per stream: (sequence number, work), oldest first.
    streams: HashMap<usize, VecDeque<(u64, Work)>>,
    /// The last sequence number handed out.
    seq: u64,
    events: HashMap<usize, Event>,
}

/// Queues `w` on stream `s` (null: runs it now).
pub fn enqueue(d: &mut Device, s: *mut c_void, w: Work) -> R<()> {
    if s.is_null() {
        return w(d);
    }
    d.queues.seq += 1;
    let seq = d.queues.seq;
    d.queues
        .streams
        .entry(s as usize)
        .or_default()
        .push_back((seq, w));
    Ok(())
}

fn idle_until(d: &Device, s: usize, upto: u64) -> bool {
    d.queues
        .streams
        .get(&s)
        .and_then(|q| q.front())
        .is_none_or(|&(seq, _)| seq > upto)
}

/// Marks the events whose work has run as completed now.
fn complete_events(d: &mut Device) {
    let now = Instant::now();
    let done: Vec<usize> = d
        .queues
        .events
        .iter()
        .filter(|(_, e)| e.done.is_none() && idle_until(d, e.stream, e.seq))
        .map(|(&k, _)| k)
        .collect();
    for k in done {
        if let Some(e) = d.queues.events.get_mut(&k) {
            e.done = Some(now);
        }
    }
}

/// Runs stream `s`'s work up to sequence number `upto`. A failing item
/// leaves the device in error (the work after it is dropped).
pub fn run_until(d: &mut Device, s: usize, upto: u64) -> R<()> {
    loop {
        if let Some(e) = &d.sticky {
            return Err(e.clone());
        }
        let next = d.queues.streams.get_mut(&s).and_then(|q| match q.front() {
            Some(&(seq, _)) if seq <= upto => q.pop_front().map(|(_, w)| w),
            _ => None,
        });
        let Some(w) = next else {
            complete_events(d);
            return Ok(());
        };
        if let Err(e) = w(d) {
            d.queues.streams.clear();
            d.sticky = Some(e.clone());
            return Err(e);
        }
    }
}

/// Runs every stream's work.
pub fn run_all(d: &mut Device) -> R<()> {
    let mut streams: Vec<usize> = d.queues.streams.keys().copied().collect();
    streams.sort_unstable();
    for s in streams {
        run_until(d, s, u64::MAX)?;
    }
    Ok(())
}

pub(crate) unsafe extern "C" fn synchronize(dev: i32) -> i32 {
    with_device(dev, "cuCtxSynchronize", run_all)
}

/// Waits for the device's work, as the driver does, then sets the stack
/// limit the emulator checks calls against (`ptxrt_simt::Limits::stack_bytes`).
pub(crate) unsafe extern "C" fn set_stack_size(dev: i32, bytes: usize, set: *mut usize) -> i32 {
    with_device(dev, "cuCtxSetLimit(CU_LIMIT_STACK_SIZE)", |d| {
        run_all(d)?;
        d.limits.stack_bytes = (bytes.min(1 << 30) as u32).next_multiple_of(16);
        *out(set, "stack size")? = d.limits.stack_bytes as usize;
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn stream_create(
    dev: i32,
    _nonblocking: i32,
    stream: *mut *mut c_void,
) -> i32 {
    with_device(dev, "cuStreamCreate", |d| {
        let h = d.handle();
        d.queues.streams.insert(h, VecDeque::new());
        *out(stream, "stream")? = h as *mut c_void;
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn stream_destroy(dev: i32, stream: *mut c_void) -> i32 {
    with_device(dev, "cuStreamDestroy", |d| {
        run_until(d, stream as usize, u64::MAX)?;
        d.queues.streams.remove(&(stream as usize));
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn stream_synchronize(dev: i32, stream: *mut c_void) -> i32 {
    with_device(dev, "cuStreamSynchronize", |d| {
        run_until(d, stream as usize, u64::MAX)
    })
}

pub(crate) unsafe extern "C" fn stream_query(dev: i32, stream: *mut c_void, done: *mut i32) -> i32 {
    with_device(dev, "cuStreamQuery", |d| {
        let done = out(done, "done")?;
        run_until(d, stream as usize, u64::MAX)?;
        *done = 1;
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn stream_wait_event(
    dev: i32,
    stream: *mut c_void,
    event: *mut c_void,
) -> i32 {
    with_device(dev, "cuStreamWaitEvent", |d| {
        let Some(e) = d.queues.events.get(&(event as usize)) else {
            return Err("cuStreamWaitEvent: CUDA_ERROR_INVALID_HANDLE (emulated)".into());
        };
        let (es, seq) = (e.stream, e.seq);
        enqueue(
            d,
            stream,
            Box::new(move |d: &mut Device| run_until(d, es, seq)),
        )
    })
}

pub(crate) unsafe extern "C" fn launch_host_func(
    dev: i32,
    stream: *mut c_void,
    func: HostFn,
    data: *mut c_void,
) -> i32 {
    with_device(dev, "cuLaunchHostFunc", |d| {
        let data = data as usize;
        enqueue(
            d,
            stream,
            Box::new(move |_: &mut Device| {
                // SAFETY: libptxrt's host function, run once in stream
                // order with its data (it does not call the plugin).
                unsafe { func(data as *mut c_void) };
                Ok(())
            }),
        )
    })
}

fn create(dev: i32, event: *mut *mut c_void, timed: bool) -> i32 {
    with_device(dev, "cuEventCreate", |d| {
        let h = d.handle();
        d.queues.events.insert(
            h,
            Event {
                stream: 0,
                seq: 0,
                timed,
                done: None,
            },
        );
        *out(event, "event")? = h as *mut c_void;
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn event_create(dev: i32, event: *mut *mut c_void) -> i32 {
    create(dev, event, false)
}

pub(crate) unsafe extern "C" fn event_create_timed(dev: i32, event: *mut *mut c_void) -> i32 {
    create(dev, event, true)
}

pub(crate) unsafe extern "C" fn event_destroy(dev: i32, event: *mut c_void) -> i32 {
    with_device(dev, "cuEventDestroy", |d| {
        d.queues.events.remove(&(event as usize));
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn event_record(
    dev: i32,
    event: *mut c_void,
    stream: *mut c_void,
) -> i32 {
    with_device(dev, "cuEventRecord", |d| {
        let seq = d.queues.seq;
        let s = stream as usize;
        let idle = idle_until(d, s, seq);
        let Some(e) = d.queues.events.get_mut(&(event as usize)) else {
            return Err("cuEventRecord: CUDA_ERROR_INVALID_HANDLE (emulated)".into());
        };
        e.stream = s;
        e.seq = seq;
        e.done = idle.then(Instant::now);
        Ok(())
    })
}

/// Runs the work before event `e` (an error for an unknown event).
fn finish(d: &mut Device, event: *mut c_void, call: &str) -> R<()> {
    let Some(e) = d.queues.events.get(&(event as usize)) else {
        return Err(format!("{call}: CUDA_ERROR_INVALID_HANDLE (emulated)"));
    };
    let (s, seq) = (e.stream, e.seq);
    run_until(d, s, seq)
}

pub(crate) unsafe extern "C" fn event_synchronize(dev: i32, event: *mut c_void) -> i32 {
    with_device(dev, "cuEventSynchronize", |d| {
        finish(d, event, "cuEventSynchronize")
    })
}

pub(crate) unsafe extern "C" fn event_query(dev: i32, event: *mut c_void, done: *mut i32) -> i32 {
    with_device(dev, "cuEventQuery", |d| {
        let done = out(done, "done")?;
        finish(d, event, "cuEventQuery")?;
        *done = 1;
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn event_elapsed(
    dev: i32,
    start: *mut c_void,
    end: *mut c_void,
    ms: *mut f32,
) -> i32 {
    with_device(dev, "cuEventElapsedTime", |d| {
        let ms = out(ms, "ms")?;
        let at = |e: *mut c_void| match d.queues.events.get(&(e as usize)) {
            Some(Event {
                timed: true,
                done: Some(t),
                ..
            }) => Ok(*t),
            Some(Event { timed: false, .. }) | None => {
                Err("cuEventElapsedTime: CUDA_ERROR_INVALID_HANDLE (emulated)".to_string())
            }
            Some(_) => Err("cuEventElapsedTime: CUDA_ERROR_NOT_READY (emulated)".to_string()),
        };
        let (a, b) = (at(start)?, at(end)?);
        *ms = if b >= a {
            (b - a).as_secs_f32() * 1000.0
        } else {
            -((a - b).as_secs_f32() * 1000.0)
        };
        Ok(())
    })
}
