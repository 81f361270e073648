//! Async queues (OpenACC 3.3 2.16): which queue an async argument names,
//! waiting for queues, and running a construct's data work on a queue.
//!
//! Owns: the meaning of async arguments (`acc_async_sync` and
//! `PTXRT_ASYNC_NONE`: synchronous; `acc_async_noval` and
//! `acc_async_default`: the thread's default queue; n >= 0: queue n; any
//! other value is an error), wait lists, and [`run`], the one function
//! through which a construct's work goes to its queue.
//! For now every queue completes its work before [`run`] returns: the work
//! is done synchronously, which is a valid schedule of asynchronous work (a
//! queue is always idle, so `acc_async_test` says complete and waits return
//! at once). Real queues (a stream per (device, queue), lazily made, events
//! for waits) replace [`run`] and [`wait`] only.
//! May call: [`crate::icv`], [`crate::device`] (the device state),
//! [`crate::error`].

use crate::abi::SrcLoc;
use crate::device::DeviceState;
use crate::error::{fatal_at, Failure};
use crate::icv;
use std::ffi::c_int;

/// `acc_async_noval`.
pub const ASYNC_NOVAL: c_int = -1;
/// `acc_async_sync` (also `PTXRT_ASYNC_NONE`).
pub const ASYNC_SYNC: c_int = -2;
/// `acc_async_default`: the default queue (OpenACC 3.3).
pub const ASYNC_DEFAULT: c_int = -3;

/// A queue of a device.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Queue {
    /// No queue: the work is done before the construct returns.
    Sync,
    /// Async queue n.
    Id(u32),
}

/// The queue an async argument names (for the calling thread).
pub fn resolve(arg: c_int) -> Result<Queue, Failure> {
    match arg {
        ASYNC_SYNC => Ok(Queue::Sync),
        ASYNC_NOVAL | ASYNC_DEFAULT => match icv::default_async() {
            ASYNC_SYNC => Ok(Queue::Sync),
            q => Ok(Queue::Id(u32::try_from(q).unwrap_or(0))),
        },
        n if n >= 0 => Ok(Queue::Id(n as u32)),
        n => Err(Failure::new(format!("invalid async argument {n}"))),
    }
}

/// Check that `arg` names a queue (for the routines that test or wait).
pub fn valid(arg: c_int) -> Result<Queue, Failure> {
    resolve(arg)
}

/// Wait until the queues `waits` (`None`: every queue) have done their
/// work, before work of queue `q` starts. Every queue is idle: nothing to wait for.
pub fn wait(
    _dev: Option<&mut DeviceState>,
    waits: Option<&[c_int]>,
    _q: Queue,
) -> Result<(), Failure> {
    for &w in waits.unwrap_or(&[]) {
        valid(w)?;
    }
    Ok(())
}

/// The queue of a construct's async arguments, after its wait list: a bad
/// argument is a fatal error at `loc`.
pub fn prepare(
    dev: &mut DeviceState,
    loc: &SrcLoc,
    async_: c_int,
    nwaits: c_int,
    waits: &[c_int],
) -> Queue {
    let q = resolve(async_).unwrap_or_else(|f| fatal_at(loc, &f.what, None, None));
    let list = if nwaits < 0 { None } else { Some(waits) };
    if let Err(f) = wait(Some(dev), list, q) {
        fatal_at(loc, &f.what, None, None);
    }
    q
}

/// Do `work` on queue `q` of `dev`. Now: right away, on this thread, so the
/// work is complete when `run` returns (whatever the queue).
pub fn run<T>(dev: &mut DeviceState, q: Queue, work: impl FnOnce(&mut DeviceState) -> T) -> T {
    let _ = q;
    work(dev)
}

/// Whether the work of queue `q` is complete (always, for now).
pub fn test(_dev: Option<&mut DeviceState>, _q: Queue) -> bool {
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn async_arguments() {
        assert_eq!(resolve(ASYNC_SYNC), Ok(Queue::Sync));
        assert_eq!(resolve(5), Ok(Queue::Id(5)));
        assert_eq!(
            resolve(ASYNC_NOVAL),
            Ok(Queue::Id(icv::INITIAL_DEFAULT_ASYNC as u32))
        );
        icv::set_default_async(9);
        assert_eq!(resolve(ASYNC_NOVAL), Ok(Queue::Id(9)));
        assert_eq!(resolve(ASYNC_DEFAULT), Ok(Queue::Id(9)));
        icv::set_default_async(ASYNC_SYNC);
        assert_eq!(resolve(ASYNC_NOVAL), Ok(Queue::Sync));
        icv::set_default_async(icv::INITIAL_DEFAULT_ASYNC);
        assert_eq!(resolve(-7).unwrap_err().what, "invalid async argument -7");
        assert!(wait(None, Some(&[1, 2, ASYNC_NOVAL]), Queue::Sync).is_ok());
        assert!(wait(None, Some(&[1, -9]), Queue::Sync).is_err());
        assert!(wait(None, None, Queue::Id(1)).is_ok());
        assert!(test(None, Queue::Id(3)));
    }
}
