//! Tests of async queues on the fake device ([`crate::fake`]: work queued on
//! a stream runs only when it is waited for, as on a GPU the host would see
//! it before the queue gets there): copies of pageable memory reading and
//! writing program memory in queue order, landing at the wait, data regions and enter/exit data on a
//! queue, device memory not reused before its queue is done with it, waits
//! between queues, tests, and the pinned ring going round.

use crate::abi::{Map, SrcLoc};
use crate::asyncmem::AsyncMem;
use crate::data::{begin, end};
use crate::device::DeviceState;
use crate::enter_exit::{enter, exit};
use crate::fake::{self, calls_of, read_device};
use crate::queue::{self, Queue};
use std::ffi::{c_int, c_void, CStr};

const COPYIN: c_int = 1;
const COPYOUT: c_int = 2;
const CREATE: c_int = 3;
const DELETE: c_int = 6;

fn loc() -> SrcLoc {
    SrcLoc {
        file: "t.c".into(),
        line: 1,
        construct: "parallel".into(),
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

/// A fake device whose ring has `ring` bytes.
fn device(ring: usize) -> DeviceState {
    let mut d = fake::device();
    d.asyncmem = AsyncMem::with_ring(ring);
    d
}

fn dev_of<T>(dev: &DeviceState, p: *const T) -> u64 {
    dev.present
        .translate(p as usize, p as usize)
        .expect("present")
}

fn words(d: u64, n: usize) -> Vec<u32> {
    read_device(d, 4 * n)
        .chunks(4)
        .map(|c| u32::from_ne_bytes(c.try_into().unwrap()))
        .collect()
}

fn no_name(_: usize) -> String {
    "x".into()
}

#[test]
fn copies_run_in_queue_order_and_copies_out_land_at_the_wait() {
    let mut dev = device(1 << 20);
    let l = loc();
    let a: Vec<u32> = (0..1000).collect();
    let mut b = vec![0u32; 1000];
    let maps = [
        map(c"a", a.as_ptr(), 4000, COPYIN),
        map(c"b", b.as_ptr(), 4000, COPYOUT),
    ];
    let holds = queue::run(&mut dev, Queue::Id(1), |d| begin(d, &l, &maps)).unwrap();
    // The construct has returned; its copies wait for the queue.
    let (da, db) = (dev_of(&dev, a.as_ptr()), dev_of(&dev, b.as_ptr()));
    assert_ne!(words(da, 3), vec![0, 1, 2], "nothing ran before the wait");
    // A "kernel": b = a + 1, queued on the same queue (here: run at once
    // after the queue's earlier work).
    queue::host_wait(&mut dev, Some(1)).unwrap();
    assert_eq!(words(da, 3), vec![0, 1, 2]);
    let bump: Vec<u8> = words(da, 1000)
        .iter()
        .flat_map(|v| (v + 1).to_ne_bytes())
        .collect();
    // SAFETY: a local buffer, synchronous copy.
    unsafe { dev.to_device(db, bump.as_ptr().cast(), 4000) }.unwrap();
    queue::run(&mut dev, Queue::Id(1), |d| end(d, &l, &holds, &no_name)).unwrap();
    assert!(dev
        .present
        .translate(b.as_ptr() as usize, b.as_ptr() as usize)
        .is_none());
    assert_eq!(b[999], 0, "the copy out lands only when the queue runs");
    assert!(!queue::test(&mut dev, Some(1)).unwrap());
    assert!(
        queue::test(&mut dev, Some(2)).unwrap(),
        "a queue never used is idle"
    );
    queue::host_wait(&mut dev, Some(1)).unwrap();
    assert_eq!((b[0], b[999]), (1, 1000));
    assert!(queue::test(&mut dev, None).unwrap());
    let _ = &mut b;
}

#[test]
fn device_memory_is_not_reused_before_its_queue_is_done() {
    let mut dev = device(1 << 20);
    let l = loc();
    let a = vec![5u32; 4096];
    let c = vec![9u32; 4096];
    let m = [map(c"a", a.as_ptr(), 16384, COPYIN)];
    queue::run(&mut dev, Queue::Id(3), |d| enter(d, &l, &m)).unwrap();
    let da = dev_of(&dev, a.as_ptr());
    let m = [map(c"a", a.as_ptr(), 16384, DELETE)];
    queue::run(&mut dev, Queue::Id(3), |d| exit(d, &l, &m, false)).unwrap();
    // Same size, synchronous: must not get a's block while queue 3 may
    // still read it.
    let m2 = [map(c"c", c.as_ptr(), 16384, COPYIN)];
    enter(&mut dev, &l, &m2).unwrap();
    assert_ne!(dev_of(&dev, c.as_ptr()), da);
    // Once the queue is done, the block goes back to the allocator.
    queue::host_wait(&mut dev, Some(3)).unwrap();
    let e = vec![1u32; 4096];
    let m3 = [map(c"e", e.as_ptr(), 16384, CREATE)];
    enter(&mut dev, &l, &m3).unwrap();
    assert_eq!(dev_of(&dev, e.as_ptr()), da);
}

#[test]
fn queues_wait_for_each_other_on_the_device() {
    let mut dev = device(1 << 20);
    let l = loc();
    let a: Vec<u32> = (0..256).collect();
    let mut out = vec![0u32; 256];
    let m = [map(c"a", a.as_ptr(), 1024, COPYIN)];
    queue::run(&mut dev, Queue::Id(1), |d| enter(d, &l, &m)).unwrap();
    let da = dev_of(&dev, a.as_ptr());
    // Queue 2 waits for queue 1, then copies a's device copy out.
    queue::queue_wait(&mut dev, 2, Some(1)).unwrap();
    assert_eq!(calls_of("wait_event").len(), 1);
    // SAFETY: out outlives the wait below.
    queue::run(&mut dev, Queue::Id(2), |d| unsafe {
        d.to_host(out.as_mut_ptr().cast(), da, 1024)
    })
    .unwrap();
    // Waiting for queue 2 alone runs queue 1's copy first.
    queue::host_wait(&mut dev, Some(2)).unwrap();
    assert_eq!((out[0], out[255]), (0, 255));
    // A queue waiting for itself or for unused queues waits for nothing.
    fake::calls();
    queue::queue_wait(&mut dev, 2, Some(2)).unwrap();
    queue::queue_wait(&mut dev, 2, Some(40)).unwrap();
    assert!(calls_of("wait_event").is_empty());
}

#[test]
fn long_copies_go_round_the_ring_in_pieces() {
    // A ring of 64 KiB: pieces of 8 KiB; 1 MiB each way.
    let mut dev = device(64 << 10);
    let l = loc();
    let n = 1 << 18;
    let src: Vec<u32> = (0..n as u32).map(|i| i.wrapping_mul(2654435761)).collect();
    let mut back = vec![0u32; n];
    let m = [map(c"src", src.as_ptr(), 4 * n, COPYIN)];
    queue::run(&mut dev, Queue::Id(1), |d| enter(d, &l, &m)).unwrap();
    let d = dev_of(&dev, src.as_ptr());
    // The ring is reused while the queue has not run: every piece's bytes
    // must still be those of its own chunk when its copy runs.
    // SAFETY: back outlives the wait below.
    queue::run(&mut dev, Queue::Id(1), |dv| unsafe {
        dv.to_host(back.as_mut_ptr().cast(), d, 4 * n)
    })
    .unwrap();
    queue::host_wait(&mut dev, Some(1)).unwrap();
    assert!(back == src, "every element came back");
    assert_eq!(calls_of("htod_async").len(), 128, "8 KiB pieces");
    assert_eq!(fake::queued(), 0);
}

#[test]
fn host_functions_copy_out_in_queue_order() {
    // 128 KiB pieces, and room for both copies: nothing waits.
    let mut dev = device(1 << 20);
    let l = loc();
    let mut out = vec![0u8; 300_000];
    let src = vec![3u8; 300_000];
    let m = [map(c"src", src.as_ptr(), src.len(), COPYIN)];
    queue::run(&mut dev, Queue::Id(4), |d| enter(d, &l, &m)).unwrap();
    let d = dev_of(&dev, src.as_ptr());
    // SAFETY: out outlives the wait below.
    queue::run(&mut dev, Queue::Id(4), |dv| unsafe {
        dv.to_host(out.as_mut_ptr().cast(), d, out.len())
    })
    .unwrap();
    let c = fake::calls();
    let dtoh = c.iter().filter(|x| x.starts_with("dtoh_async")).count();
    let hf = c.iter().filter(|x| *x == "host_func").count();
    // The copy in was filled at once (nothing queued writes `src`).
    assert_eq!(
        (dtoh, hf),
        (3, 3),
        "per piece one DMA and one host copy out"
    );
    assert!(out.iter().all(|&x| x == 0));
    assert!(queue::test(&mut dev, Some(4)).is_ok_and(|done| !done));
    queue::host_wait(&mut dev, None).unwrap();
    assert!(out.iter().all(|&x| x == 3));
}

#[test]
fn host_memory_is_read_and_written_in_queue_order() {
    // update self then update device of the same memory on one queue,
    // nothing waited for in between: the second sends what the first
    // brought back (the host waits for that copy out before reading).
    let mut dev = device(1 << 20);
    let l = loc();
    let mut x = vec![1u32; 50_000];
    let m = [map(c"x", x.as_ptr(), 200_000, COPYIN)];
    enter(&mut dev, &l, &m).unwrap();
    let dx = dev_of(&dev, x.as_ptr());
    let fives: Vec<u8> = std::iter::repeat_n(5u32.to_ne_bytes(), 50_000)
        .flatten()
        .collect();
    // SAFETY: a local buffer, synchronous copy (a kernel's work).
    unsafe { dev.to_device(dx, fives.as_ptr().cast(), fives.len()) }.unwrap();
    queue::run(&mut dev, Queue::Id(7), |d| {
        // SAFETY: x outlives the wait below.
        unsafe { d.to_host(x.as_mut_ptr().cast(), dx, 200_000) }?;
        // SAFETY: as above.
        unsafe { d.to_device(dx, x.as_ptr().cast(), 200_000) }
    })
    .unwrap();
    // A pointer written on the queue is the value at the call.
    queue::run(&mut dev, Queue::Id(7), |d| {
        d.write_pointer(dx, 0x1234_5678_9abc_def0)
    })
    .unwrap();
    assert_eq!(
        fake::calls_of("host_func").len(),
        2,
        "two pieces copied out by host functions; the copies in waited for them"
    );
    queue::host_wait(&mut dev, Some(7)).unwrap();
    assert_eq!(words(dx + 8, 3), vec![5, 5, 5]);
    assert_eq!(fake::read_device_u64(dx), 0x1234_5678_9abc_def0);
    assert!(x.iter().all(|&v| v == 5));
}

#[test]
fn copies_out_do_not_hold_up_their_queue_but_waits_cover_them() {
    let mut dev = device(1 << 20);
    let l = loc();
    let src = vec![9u8; 4096];
    let mut out = vec![0u8; 4096];
    let m = [map(c"src", src.as_ptr(), 4096, COPYIN)];
    enter(&mut dev, &l, &m).unwrap();
    let d = dev_of(&dev, src.as_ptr());
    // SAFETY: out outlives the waits below.
    queue::run(&mut dev, Queue::Id(1), |dv| unsafe {
        dv.to_host(out.as_mut_ptr().cast(), d, 4096)
    })
    .unwrap();
    // Everything queue 1 itself holds can complete without the host copy.
    let dd = dev.dev();
    let e = dev.queues.mark(dd, 1).unwrap();
    // SAFETY: an event of the fake device.
    unsafe { dd.plugin.event_synchronize(dd.ordinal, e as *mut c_void) }.unwrap();
    assert!(
        out.iter().all(|&b| b == 0),
        "the host copy runs on the drain stream"
    );
    assert!(
        !queue::test(&mut dev, Some(1)).unwrap(),
        "a test of the queue covers it"
    );
    // Queue 2 waiting for queue 1, then the host waiting for queue 2: done.
    queue::queue_wait(&mut dev, 2, Some(1)).unwrap();
    queue::host_wait(&mut dev, Some(2)).unwrap();
    assert!(out.iter().all(|&b| b == 9));
}

#[test]
fn first_done_finds_a_completed_queue() {
    // acc_wait_any polls queue::first_done: the index of the first
    // completed queue of the list, never one with work still queued.
    let mut dev = device(1 << 20);
    let l = loc();
    let a = vec![7u32; 1000];
    let maps = [map(c"a", a.as_ptr(), 4000, COPYIN)];
    let holds = queue::run(&mut dev, Queue::Id(1), |d| begin(d, &l, &maps)).unwrap();
    assert_eq!(
        queue::first_done(&mut dev, &[Some(1), Some(2)]).unwrap(),
        Some(1),
        "queue 2 was never used: idle; queue 1 still has its copy queued"
    );
    assert_eq!(queue::first_done(&mut dev, &[None, Some(1)]).unwrap(), None);
    assert_eq!(queue::first_done(&mut dev, &[]).unwrap(), None);
    queue::host_wait(&mut dev, Some(1)).unwrap();
    assert_eq!(
        queue::first_done(&mut dev, &[None, Some(1), Some(2)]).unwrap(),
        Some(1)
    );
    queue::run(&mut dev, Queue::Id(1), |d| end(d, &l, &holds, &no_name)).unwrap();
    queue::host_wait(&mut dev, None).unwrap();
}

#[test]
fn ring_copies_run_the_chunked_pipeline() {
    // 128 KiB pieces: a copy of 300000 bytes is three chunks through the
    // pipeline of `crate::pipeline`: to the host, each chunk's host copy
    // out is queued after the next chunk's DMA; to the device, each chunk
    // is filled and DMA'd in turn. The bytes arrive either way.
    let mut dev = device(1 << 20);
    let l = loc();
    let src: Vec<u8> = (0..300_000u32).map(|i| (i % 251) as u8).collect();
    let m = [map(c"src", src.as_ptr(), src.len(), COPYIN)];
    queue::run(&mut dev, Queue::Id(2), |d| enter(d, &l, &m)).unwrap();
    let ins: Vec<String> = fake::calls_of("htod_async");
    assert_eq!(
        ins,
        ["htod_async 131072", "htod_async 131072", "htod_async 37856"]
    );
    let d = dev_of(&dev, src.as_ptr());
    let mut out = vec![0u8; src.len()];
    // SAFETY: out outlives the wait below.
    queue::run(&mut dev, Queue::Id(2), |dv| unsafe {
        dv.to_host(out.as_mut_ptr().cast(), d, out.len())
    })
    .unwrap();
    let order: Vec<String> = fake::calls()
        .into_iter()
        .filter(|x| x.starts_with("dtoh_async") || x == "host_func")
        .collect();
    assert_eq!(
        order,
        [
            "dtoh_async 131072",
            "dtoh_async 131072",
            "host_func",
            "dtoh_async 37856",
            "host_func",
            "host_func"
        ]
    );
    queue::host_wait(&mut dev, None).unwrap();
    assert!(out == src);
}
