//! Tests of `PTXRT_TIME` on the fake device ([`crate::fake`]): transfers of
//! data clauses, updates and API routines recorded per construct or routine
//! with their bytes; synchronous ones timed at once, async ones (and async
//! "launches") when their queue is waited for, tested or shut down; nothing
//! recorded and no event made when profiling is off. Times are not checked
//! (the fake's device events report a fixed time).
//!
//! The profile is the process's: each test uses its own file name.

use crate::abi::{Map, SrcLoc};
use crate::device::DeviceState;
use crate::enter_exit::{enter, exit};
use crate::fake;
use crate::mapping::{self, Site};
use crate::profile::{self, Op, Stat};
use crate::queue::{self, Queue};
use crate::timing;
use std::ffi::{c_int, c_void, CStr};

const COPYIN: c_int = 1;
const COPYOUT: c_int = 2;

fn at(file: &str, line: i32, construct: &str) -> SrcLoc {
    SrcLoc {
        file: file.into(),
        line,
        construct: construct.into(),
    }
}

fn map<T>(name: &'static CStr, host: *const T, bytes: usize, kind: c_int) -> Map {
    Map {
        name: name.as_ptr(),
        host: host.cast::<c_void>(),
        bytes,
        kind,
        flags: 0,
    }
}

/// A fake device with profiling on for this thread.
fn device() -> DeviceState {
    profile::force(true);
    fake::device()
}

fn counts(s: Stat) -> (u64, u64, u64) {
    (s.count, s.bytes, s.timed)
}

#[test]
fn sync_transfers_are_recorded_per_construct() {
    let mut dev = device();
    let a = vec![1u32; 100];
    let mut b = vec![0u32; 50];
    let (l_in, l_out) = (at("p1.c", 5, "enter data"), at("p1.c", 9, "exit data"));
    enter(&mut dev, &l_in, &[map(c"a", a.as_ptr(), 400, COPYIN)]).unwrap();
    enter(&mut dev, &l_in, &[map(c"b", b.as_ptr(), 200, COPYIN)]).unwrap();
    let out = [
        map(c"a", a.as_ptr(), 400, COPYOUT),
        map(c"b", b.as_ptr(), 200, COPYOUT),
    ];
    exit(&mut dev, &l_out, &out, false).unwrap();
    let r = profile::row_of(&l_in).unwrap();
    assert_eq!(counts(r.to_device), (2, 600, 2));
    assert_eq!((r.to_host.count, r.kernels.count), (0, 0));
    let r = profile::row_of(&l_out).unwrap();
    assert_eq!(counts(r.to_host), (2, 600, 2));
    assert_eq!(r.to_device.count, 0);
    let _ = &mut b;
}

#[test]
fn updates_and_routines_are_recorded() {
    let mut dev = device();
    let a = [3u8; 64];
    let l = at("p2.c", 3, "enter data");
    enter(&mut dev, &l, &[map(c"a", a.as_ptr(), 64, COPYIN)]).unwrap();
    let upd = at("p2.c", 7, "update");
    let name = || "a".to_string();
    let site = Site {
        loc: &upd,
        name: &name,
    };
    let h = a.as_ptr() as usize;
    mapping::update(&mut dev, &site, h, 64, true, false).unwrap();
    mapping::update(&mut dev, &site, h, 32, false, false).unwrap();
    let r = profile::row_of(&upd).unwrap();
    assert_eq!(counts(r.to_device), (1, 64, 1));
    assert_eq!(counts(r.to_host), (1, 32, 1));

    // An API routine: no file, keyed by the routine's name.
    let routine = SrcLoc::routine("acc_memcpy_to_device_p2");
    let site = Site {
        loc: &routine,
        name: &name,
    };
    let d = dev.present.translate(h, h).unwrap();
    // SAFETY: a's 16 bytes, present.
    unsafe { mapping::upload(&mut dev, &site, d, a.as_ptr().cast(), 16) }.unwrap();
    assert_eq!(
        counts(profile::row_of(&routine).unwrap().to_device),
        (1, 16, 1)
    );
    assert!(profile::report().contains("acc_memcpy_to_device_p2"));
}

#[test]
fn async_transfers_are_timed_when_the_queue_is_waited_for() {
    let mut dev = device();
    let a = vec![7u32; 1000];
    let l = at("p3.c", 4, "enter data");
    let m = [map(c"a", a.as_ptr(), 4000, COPYIN)];
    queue::run(&mut dev, Queue::Id(2), |d| enter(d, &l, &m)).unwrap();
    let r = profile::row_of(&l).unwrap();
    assert_eq!(counts(r.to_device), (1, 4000, 0), "counted, not timed yet");
    assert_eq!(dev.timing.pending(), 1);
    // Testing a queue that has not got there reads nothing.
    assert!(!queue::test(&mut dev, Some(2)).unwrap());
    assert_eq!(dev.timing.pending(), 1);
    queue::host_wait(&mut dev, Some(2)).unwrap();
    assert_eq!(dev.timing.pending(), 0);
    let r = profile::row_of(&l).unwrap();
    assert_eq!(counts(r.to_device), (1, 4000, 1));
    assert_eq!(r.to_device.ms, f64::from(fake::ELAPSED_MS));
}

#[test]
fn async_launches_are_read_at_a_test_and_at_shutdown() {
    let mut dev = device();
    let l = at("p4.c", 12, "parallel loop");
    // An async "launch" (the fake cannot run kernels): work that succeeds.
    let ok = |_: &mut DeviceState| Ok::<(), String>(());
    timing::measure(&mut dev, Queue::Id(5), &l, Op::Kernel, ok).unwrap();
    assert_eq!(counts(profile::row_of(&l).unwrap().kernels), (1, 0, 0));
    assert!(queue::test(&mut dev, Some(5)).unwrap());
    assert_eq!(counts(profile::row_of(&l).unwrap().kernels), (1, 0, 1));

    timing::measure(&mut dev, Queue::Id(6), &l, Op::Kernel, ok).unwrap();
    // A failed launch is not recorded.
    let bad = |_: &mut DeviceState| Err::<(), String>("launch failed".into());
    assert!(timing::measure(&mut dev, Queue::Id(6), &l, Op::Kernel, bad).is_err());
    assert_eq!(dev.timing.pending(), 1);
    dev.close();
    assert_eq!(counts(profile::row_of(&l).unwrap().kernels), (2, 0, 2));

    // A synchronous launch: host clock from launch to completion.
    let l2 = at("p4.c", 20, "kernels");
    timing::kernel_done(&l2, crate::device::DeviceId::Nvidia(0), timing::clock());
    assert_eq!(counts(profile::row_of(&l2).unwrap().kernels), (1, 0, 1));
}

#[test]
fn nothing_is_recorded_when_off() {
    profile::force(false);
    let mut dev = fake::device();
    let a = vec![1u8; 256];
    let l = at("p5.c", 1, "enter data");
    enter(&mut dev, &l, &[map(c"a", a.as_ptr(), 256, COPYIN)]).unwrap();
    let m = [map(c"a", a.as_ptr(), 256, COPYOUT)];
    queue::run(&mut dev, Queue::Id(1), |d| exit(d, &l, &m, false)).unwrap();
    assert_eq!(dev.timing.pending(), 0, "no events");
    queue::host_wait(&mut dev, None).unwrap();
    assert_eq!(profile::row_of(&l), None);
    assert_eq!(timing::clock(), None);
}

#[test]
fn the_table_names_each_region() {
    let mut dev = device();
    let a = vec![1u8; 2048];
    let l = at("p6.c", 30, "data");
    enter(&mut dev, &l, &[map(c"a", a.as_ptr(), 2048, COPYIN)]).unwrap();
    let text = profile::report();
    let line = text
        .lines()
        .find(|s| s.starts_with("p6.c:30 data"))
        .unwrap_or_else(|| panic!("no row in {text}"));
    let cells: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(&cells[..5], ["p6.c:30", "data", "1", "2.00", "KiB"]);
    assert!(text.starts_with(profile::TITLE));
    assert!(text.lines().any(|s| s.starts_with("total ")));
}

#[test]
fn pending_pairs_are_bounded() {
    let mut dev = device();
    let l = at("p7.c", 2, "parallel");
    let ok = |_: &mut DeviceState| Ok::<(), String>(());
    for _ in 0..600 {
        timing::measure(&mut dev, Queue::Id(1), &l, Op::Kernel, ok).unwrap();
    }
    // Nothing runs on the fake's streams until waited for, but nothing was
    // queued between the events: the completed pairs are read as they pile up.
    assert!(dev.timing.pending() < 600);
    queue::host_wait(&mut dev, None).unwrap();
    assert_eq!(counts(profile::row_of(&l).unwrap().kernels), (600, 0, 600));
}
