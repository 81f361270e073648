//! Tests of the launch sizes from a kernel's limits: the H100 model on
//! fake registers and shared memory (checked against the CUDA occupancy
//! calculator's numbers), the gangs and threads chosen from them, and over
//! the fake device that the answers are asked for once and used.

use super::*;
use crate::fake;

const H100: Sm = Sm::H100;

#[test]
fn registers_limit_the_block() {
    // 64 registers: a block of 1024 fits (64K registers), 65 do not.
    assert_eq!(model(64, 0, 1024, &H100).max_threads, 1024);
    assert_eq!(model(64, 0, 1024, &H100).blocks_per_sm, 1);
    let heavy = model(65, 0, 1024, &H100);
    assert_eq!((heavy.max_threads, heavy.blocks_per_sm), (896, 0));
    // 255 registers: 8160 a warp, allocated as 8192: 8 warps.
    let most = model(255, 0, 0, &H100);
    assert_eq!(threads_limit(Some(&most)), 256);
    assert_eq!(model(255, 0, 256, &H100).blocks_per_sm, 1);
    assert_eq!(model(255, 0, 128, &H100).blocks_per_sm, 2);
    assert_eq!(threads_limit(None), 1024);
}

#[test]
fn registers_and_shared_memory_limit_the_blocks_an_sm_holds() {
    // Few registers: the SM's 2048 threads decide (16 blocks of 128).
    assert_eq!(model(32, 0, 128, &H100).blocks_per_sm, 16);
    // The SM's 32 blocks at most.
    assert_eq!(model(16, 0, 32, &H100).blocks_per_sm, 32);
    // 128 registers: 16 KiB a block of 128, 4 of them.
    assert_eq!(model(128, 0, 128, &H100).blocks_per_sm, 4);
    // 48 KiB of static shared memory (and 1 KiB reserved): 4 blocks.
    assert_eq!(model(32, 48 * 1024, 128, &H100).blocks_per_sm, 4);
}

#[test]
fn gangs_are_one_wave_of_resident_blocks() {
    // 132 SMs; the loop needs fewer: all it needs.
    assert_eq!(gangs(1000, 128, 16, 132), 8);
    assert_eq!(gangs(0, 128, 16, 132), 1);
    // A long loop: a wave. 255 registers hold 2 blocks of 128 an SM, where
    // the SM's threads alone would hold 16 (`default_gangs`).
    let heavy = model(255, 0, 128, &H100).blocks_per_sm as u32;
    assert_eq!(gangs(1 << 30, 128, heavy, 132), 264);
    assert_eq!(default_gangs(1 << 30, 128, Some((132, 2048))), 2112);
    // Shared memory: 4 blocks an SM.
    let shared = model(32, 48 * 1024, 128, &H100).blocks_per_sm as u32;
    assert_eq!(gangs(u64::MAX, 128, shared, 132), 528);
    // A gang's share (`per`) need not be the block (gang loops that are
    // not partitioned over all its threads).
    assert_eq!(gangs(1000, 1, 2, 132), 264);
}

/// The fake device as an H100: 132 SMs of 2048 threads.
fn h100() -> DeviceState {
    let mut d = fake::device();
    d.info.sm_count = 132;
    d.info.max_threads_per_sm = 2048;
    d
}

#[test]
fn the_launch_asks_the_kernels_limits_once() {
    let mut d = h100();
    let func = 0x1000 as *mut c_void;
    fake::set_kernel(Some((255, 0)));
    assert_eq!(
        unsafe { kernel_gangs(&mut d, func, "k", 1 << 30, 128, 128) },
        264
    );
    assert_eq!(
        unsafe { kernel_gangs(&mut d, func, "k", 1 << 30, 128, 128) },
        264
    );
    assert_eq!(fake::calls_of("limits"), ["limits 128"]);
    // Another block size is another question; the attributes alone (0).
    assert_eq!(
        unsafe { kernel_gangs(&mut d, func, "k", 1 << 30, 256, 256) },
        132
    );
    assert_eq!(
        threads_limit(unsafe { limits(&mut d, func, 0, "k") }.as_ref()),
        256
    );
    assert_eq!(
        threads_limit(unsafe { limits(&mut d, func, 0, "k") }.as_ref()),
        256
    );
    assert_eq!(fake::calls_of("limits"), ["limits 256", "limits 0"]);
    // Closing the device forgets them (its modules are unloaded).
    d.close();
    assert!(d.occupancy.0.is_empty());
}

#[test]
fn a_device_that_cannot_say_gets_the_default() {
    let mut d = h100();
    let func = 0x1000 as *mut c_void;
    assert_eq!(
        unsafe { kernel_gangs(&mut d, func, "k", 1 << 30, 128, 128) },
        2112
    );
    assert_eq!(
        threads_limit(unsafe { limits(&mut d, func, 0, "k") }.as_ref()),
        1024
    );
    // Asked once each, not again after the failure.
    assert_eq!(
        unsafe { kernel_gangs(&mut d, func, "k", 1 << 30, 128, 128) },
        2112
    );
    assert_eq!(fake::calls_of("limits"), ["limits 128", "limits 0"]);
}

#[test]
fn the_kernel_line() {
    let l = model(255, 512, 128, &H100);
    assert_eq!(
        notify::limits_line("k", 128, &l),
        "ptxrt: kernel k regs=255 shared=512 local=0 max_threads=256 blocks_per_sm=2@128"
    );
    assert_eq!(
        notify::limits_line("k", 0, &l),
        "ptxrt: kernel k regs=255 shared=512 local=0 max_threads=256"
    );
}

#[test]
fn gangs_cover_small_loops() {
    assert_eq!(default_gangs(1000, 128, Some((132, 2048))), 8);
    assert_eq!(default_gangs(1, 128, Some((132, 2048))), 1);
    assert_eq!(default_gangs(0, 128, Some((132, 2048))), 1);
    assert_eq!(default_gangs(100, 0, None), 100);
}

#[test]
fn gangs_capped_at_one_wave() {
    // H100: 132 SMs × 2048 threads; 256-thread blocks → 8 per SM.
    assert_eq!(default_gangs(1 << 30, 256, Some((132, 2048))), 132 * 8);
    // Blocks bigger than an SM's thread limit still get one per SM.
    assert_eq!(default_gangs(1 << 30, 4096, Some((132, 2048))), 132);
    assert_eq!(default_gangs(u64::MAX, 1, None), 65535);
    assert_eq!(default_gangs(u64::MAX, 1, Some((0, 0))), 65535);
}
