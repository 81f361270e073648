//! Tests of the data environment on a fake device ([`crate::fake`]: device
//! memory is host memory, so values really move): structured and dynamic
//! reference counts, finalize, copy out only when the last reference goes,
//! partial presence, zero-length sections, no_create/present, zero-filled
//! creates, attach/detach counters and values, acc_map_data ranges, update,
//! declared globals and their cells, the allocator's reuse, staging, and
//! out-of-memory handling.

use crate::abi::{Image, Map, SrcLoc, MAP_ZERO};
use crate::data::{begin, end};
use crate::declare::{bind_cells, establish, DeclareKind, Declared, Declares};
use crate::device::DeviceState;
use crate::enter_exit::{enter, exit};
use crate::error::Failure;
use crate::fake::{self, calls, calls_of, read_device, read_device_u64};
use crate::mapping::{self, Site};
use crate::present::{Lookup, INFINITE};
use std::ffi::{c_int, c_void, CStr};
use std::ptr;

const COPY: c_int = 0;
const COPYIN: c_int = 1;
const COPYOUT: c_int = 2;
const CREATE: c_int = 3;
const PRESENT: c_int = 4;
const NO_CREATE: c_int = 5;
const DELETE: c_int = 6;
const ATTACH: c_int = 7;
const DETACH: c_int = 8;

fn loc() -> SrcLoc {
    SrcLoc {
        file: "t.c".into(),
        line: 1,
        construct: "data".into(),
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

fn site_name() -> String {
    "x".into()
}

fn site(l: &SrcLoc) -> Site<'_> {
    Site {
        loc: l,
        name: &site_name,
    }
}

/// Device address of host address `p` (panics when not present).
fn dev_of<T>(dev: &DeviceState, p: *const T) -> u64 {
    dev.present
        .translate(p as usize, p as usize)
        .expect("present")
}

fn counts<T>(dev: &DeviceState, p: *const T) -> Option<(u64, u64)> {
    match dev.present.lookup(p as usize, 1) {
        Lookup::Contained { key, .. } => dev.present.get(key).map(|e| (e.structured, e.dynamic)),
        _ => None,
    }
}

fn as_bytes<T>(v: &[T]) -> Vec<u8> {
    // SAFETY: plain data of the test.
    unsafe { std::slice::from_raw_parts(v.as_ptr().cast::<u8>(), std::mem::size_of_val(v)) }
        .to_vec()
}

/// Overwrite device memory at `d` with `bytes` (a kernel's work).
fn poke(dev: &mut DeviceState, d: u64, bytes: &[u8]) {
    // SAFETY: a local buffer.
    unsafe { dev.to_device(d, bytes.as_ptr().cast(), bytes.len()) }.unwrap();
}

fn no_name(_: usize) -> String {
    "x".into()
}

#[test]
fn structured_copy_kinds() {
    let mut dev = fake::device();
    let l = loc();
    let a: Vec<u32> = (0..100).collect();
    let mut b: Vec<u32> = (100..200).collect();
    let mut c = vec![7u32; 100];
    let maps = [
        map(c"a", a.as_ptr(), 400, COPYIN),
        map(c"b", b.as_ptr(), 400, COPY),
        map(c"c", c.as_ptr(), 400, COPYOUT),
    ];
    let holds = begin(&mut dev, &l, &maps).unwrap();
    assert_eq!(read_device(dev_of(&dev, a.as_ptr()), 400), as_bytes(&a));
    assert_eq!(read_device(dev_of(&dev, b.as_ptr()), 400), as_bytes(&b));
    assert_eq!(
        calls_of("htod"),
        ["htod 400", "htod 400"],
        "copyout does not copy in"
    );
    // The kernel writes b and c.
    let (db, dc) = (dev_of(&dev, b.as_ptr()), dev_of(&dev, c.as_ptr()));
    poke(&mut dev, db, &as_bytes(&[1u32; 100]));
    poke(&mut dev, dc, &as_bytes(&[2u32; 100]));
    end(&mut dev, &l, &holds, &no_name).unwrap();
    assert_eq!((b[0], b[99], c[0], c[99]), (1, 1, 2, 2));
    assert!(dev.present.is_empty());
    let _ = (&mut b, &mut c);
}

#[test]
fn nested_regions_copy_out_at_the_last_reference() {
    let mut dev = fake::device();
    let l = loc();
    let mut c = vec![0u64; 64];
    let outer = begin(&mut dev, &l, &[map(c"c", c.as_ptr(), 512, COPYOUT)]).unwrap();
    let inner = begin(&mut dev, &l, &[map(c"c", c.as_ptr(), 512, COPY)]).unwrap();
    assert_eq!(counts(&dev, c.as_ptr()), Some((2, 0)));
    let d = dev_of(&dev, c.as_ptr());
    poke(&mut dev, d, &as_bytes(&[5u64; 64]));
    end(&mut dev, &l, &inner, &no_name).unwrap();
    assert_eq!(c[3], 0, "still referenced by the outer region: no copy out");
    end(&mut dev, &l, &outer, &no_name).unwrap();
    assert_eq!(c[3], 5);
    c[0] = 1;
}

#[test]
fn dynamic_counts_and_finalize() {
    let mut dev = fake::device();
    let l = loc();
    let mut a = vec![1.5f64; 32];
    let m = [map(c"a", a.as_ptr(), 256, COPYIN)];
    enter(&mut dev, &l, &m).unwrap();
    enter(&mut dev, &l, &m).unwrap();
    assert_eq!(counts(&dev, a.as_ptr()), Some((0, 2)));
    assert_eq!(
        calls_of("htod").len(),
        1,
        "present the second time: no copy"
    );
    let d = dev_of(&dev, a.as_ptr());
    poke(&mut dev, d, &as_bytes(&[2.5f64; 32]));
    let out = [map(c"a", a.as_ptr(), 256, COPYOUT)];
    exit(&mut dev, &l, &out, false).unwrap();
    assert_eq!((counts(&dev, a.as_ptr()), a[0]), (Some((0, 1)), 1.5));
    exit(&mut dev, &l, &out, false).unwrap();
    assert_eq!((counts(&dev, a.as_ptr()), a[0]), (None, 2.5));
    // Not present: no action.
    exit(&mut dev, &l, &out, false).unwrap();
    // finalize drops every dynamic reference; delete copies nothing out.
    for _ in 0..3 {
        enter(&mut dev, &l, &m).unwrap();
    }
    calls();
    exit(&mut dev, &l, &[map(c"a", a.as_ptr(), 256, DELETE)], true).unwrap();
    assert_eq!(counts(&dev, a.as_ptr()), None);
    assert!(calls_of("dtoh").is_empty());
    a[0] = 0.0;
}

#[test]
fn structured_and_dynamic_references_together() {
    let mut dev = fake::device();
    let l = loc();
    let mut a = vec![3i32; 10];
    enter(&mut dev, &l, &[map(c"a", a.as_ptr(), 40, CREATE)]).unwrap();
    let r = begin(&mut dev, &l, &[map(c"a", a.as_ptr(), 40, COPY)]).unwrap();
    assert_eq!(counts(&dev, a.as_ptr()), Some((1, 1)));
    let d = dev_of(&dev, a.as_ptr());
    poke(&mut dev, d, &as_bytes(&[9i32; 10]));
    end(&mut dev, &l, &r, &no_name).unwrap();
    assert_eq!(
        (counts(&dev, a.as_ptr()), a[0]),
        (Some((0, 1)), 3),
        "enter data holds it"
    );
    // Exit data of a section of the range: only that section is copied out.
    exit(
        &mut dev,
        &l,
        &[map(c"a[2:3]", a[2..].as_ptr(), 12, COPYOUT)],
        false,
    )
    .unwrap();
    assert_eq!(a, [3, 3, 9, 9, 9, 3, 3, 3, 3, 3]);
    assert!(dev.present.is_empty());
    a[0] = 0;
}

#[test]
fn partly_present_and_not_present_errors() {
    let mut dev = fake::device();
    let l = loc();
    let a = [0u8; 100];
    let _r = begin(&mut dev, &l, &[map(c"a[0:50]", a.as_ptr(), 50, COPYIN)]).unwrap();
    let (i, f) = begin(
        &mut dev,
        &l,
        &[
            map(c"x", a.as_ptr(), 1, COPYIN),
            map(c"a[40:20]", a[40..].as_ptr(), 20, COPY),
        ],
    )
    .unwrap_err();
    assert_eq!(i, 1);
    assert_eq!(f.what, "only partly present on the device");
    let detail = f.detail.unwrap();
    assert!(
        detail.starts_with("the section is 20 bytes at 0x"),
        "{detail}"
    );
    assert!(detail.contains("the present data 50 bytes at"), "{detail}");
    let (i, f) = begin(
        &mut dev,
        &l,
        &[map(c"a[60:10]", a[60..].as_ptr(), 10, PRESENT)],
    )
    .unwrap_err();
    assert_eq!((i, f), (0, Failure::new("not present on the device")));
    // exit data copyout of a partly present section is an error too.
    let (_, f) = exit(&mut dev, &l, &[map(c"a", a.as_ptr(), 100, COPYOUT)], false).unwrap_err();
    assert_eq!(f.what, "only partly present on the device");
}

#[test]
fn no_create_zero_length_and_null_sections() {
    let mut dev = fake::device();
    let l = loc();
    let a = [1u16; 8];
    let maps = [
        map(c"a", a.as_ptr(), 16, NO_CREATE),
        map(c"a[3:0]", a[3..].as_ptr(), 0, PRESENT),
        map(c"p[0:n]", ptr::null::<u8>(), 64, PRESENT),
    ];
    let holds = begin(&mut dev, &l, &maps).unwrap();
    assert!(
        dev.present.is_empty(),
        "no_create of absent data creates nothing"
    );
    // The zero-length section translates to null while the region is active.
    assert_eq!(
        dev.present
            .translate(a[3..].as_ptr() as usize, a[3..].as_ptr() as usize),
        Some(0)
    );
    end(&mut dev, &l, &holds, &no_name).unwrap();
    assert_eq!(
        dev.present
            .translate(a[3..].as_ptr() as usize, a[3..].as_ptr() as usize),
        None
    );
    // no_create of present data counts a reference; a zero-length section
    // inside a present range translates into it.
    let r = begin(&mut dev, &l, &[map(c"a", a.as_ptr(), 16, COPYIN)]).unwrap();
    let r2 = begin(
        &mut dev,
        &l,
        &[
            map(c"a", a.as_ptr(), 16, NO_CREATE),
            map(c"a[8:0]", a[8..].as_ptr(), 0, PRESENT),
        ],
    )
    .unwrap();
    assert_eq!(counts(&dev, a.as_ptr()), Some((2, 0)));
    let end_of_a = a.as_ptr() as usize + 16;
    assert_eq!(
        dev.present.translate(end_of_a, end_of_a),
        Some(dev_of(&dev, a.as_ptr()) + 16)
    );
    end(&mut dev, &l, &r2, &no_name).unwrap();
    end(&mut dev, &l, &r, &no_name).unwrap();
    assert!(dev.present.is_empty());
}

#[test]
fn zero_modifier_zeroes_new_memory() {
    let mut dev = fake::device();
    let l = loc();
    let c = [5u8; 64];
    let mut m = map(c"c", c.as_ptr(), 64, CREATE);
    m.flags = MAP_ZERO;
    let r = begin(&mut dev, &l, &[m, map(c"d", c[..].as_ptr(), 0, CREATE)]).unwrap();
    assert_eq!(read_device(dev_of(&dev, c.as_ptr()), 64), vec![0u8; 64]);
    end(&mut dev, &l, &r, &no_name).unwrap();
    calls();
    let r = begin(&mut dev, &l, &[map(c"c", c.as_ptr(), 64, CREATE)]).unwrap();
    assert!(calls_of("zero").is_empty(), "no zero modifier: no memset");
    end(&mut dev, &l, &r, &no_name).unwrap();
}

#[test]
fn repeated_enter_exit_reuses_device_memory() {
    let mut dev = fake::device();
    let l = loc();
    let a = vec![0u8; 4096];
    let b = vec![0u8; 5000];
    for _ in 0..100 {
        enter(
            &mut dev,
            &l,
            &[
                map(c"a", a.as_ptr(), 4096, CREATE),
                map(c"b", b.as_ptr(), 5000, COPYIN),
            ],
        )
        .unwrap();
        exit(
            &mut dev,
            &l,
            &[
                map(c"a", a.as_ptr(), 4096, DELETE),
                map(c"b", b.as_ptr(), 5000, COPYOUT),
            ],
            false,
        )
        .unwrap();
    }
    assert_eq!(calls_of("alloc").len(), 2);
    assert_eq!(dev.alloc.stats.reused, 198);
    dev.release_memory();
    assert_eq!(fake::in_use(), 0);
}

#[repr(C)]
struct Vec3 {
    n: u64,
    p: *mut f64,
}

#[test]
fn attach_and_detach_pointer_members() {
    let mut dev = fake::device();
    let l = loc();
    let mut data = vec![1.0f64; 16];
    let mut s = Vec3 {
        n: 16,
        p: data.as_mut_ptr(),
    };
    let sp = &mut s as *mut Vec3;
    let pp = &s.p as *const *mut f64;
    // The pointer's storage is not present yet: attach is no action.
    assert_eq!(
        mapping::attach(&mut dev, pp as usize, mapping::Target::Value),
        Ok(false)
    );
    enter(
        &mut dev,
        &l,
        &[
            map(c"s", sp, 16, COPYIN),
            map(c"s.p[0:16]", data.as_ptr(), 128, COPYIN),
        ],
    )
    .unwrap();
    let dp = dev_of(&dev, pp);
    assert_eq!(
        read_device_u64(dp),
        data.as_ptr() as u64,
        "the device copy holds the host pointer"
    );
    calls();
    enter(&mut dev, &l, &[map(c"s.p", pp, 8, ATTACH)]).unwrap();
    assert_eq!(read_device_u64(dp), dev_of(&dev, data.as_ptr()));
    // Attached again to the same target: counted, not written.
    let r = begin(&mut dev, &l, &[map(c"s.p", pp, 8, ATTACH)]).unwrap();
    assert_eq!(calls_of("htod").len(), 1);
    assert_eq!(dev.present.attachment(pp as usize).unwrap().count, 2);
    end(&mut dev, &l, &r, &no_name).unwrap();
    assert_eq!(
        read_device_u64(dp),
        dev_of(&dev, data.as_ptr()),
        "one attachment left"
    );
    exit(&mut dev, &l, &[map(c"s.p", pp, 8, DETACH)], false).unwrap();
    assert_eq!(
        read_device_u64(dp),
        data.as_ptr() as u64,
        "detached: the host value again"
    );
    // Copy out of a struct whose pointer is attached: the host keeps its pointer.
    mapping::attach(&mut dev, pp as usize, mapping::Target::Value).unwrap();
    exit(&mut dev, &l, &[map(c"s", sp, 16, COPYOUT)], false).unwrap();
    assert_eq!(s.p, data.as_mut_ptr());
    assert_eq!(
        dev.present.attachment(pp as usize),
        None,
        "gone with its range"
    );
    exit(
        &mut dev,
        &l,
        &[map(c"d", data.as_ptr(), 128, DELETE)],
        false,
    )
    .unwrap();
    assert!(dev.present.is_empty());
}

#[test]
fn attach_targets_null_sections_and_errors() {
    let mut dev = fake::device();
    let l = loc();
    // On the heap: on the stack it may lie just past `holder`, whose end a
    // pointer may point at while holder's range is present.
    let data = Box::new([0u32; 8]);
    let mut holder: [*const u32; 2] = [data.as_ptr(), ptr::null()];
    let base = holder.as_mut_ptr();
    let (h0, h1) = (base as usize, base.wrapping_add(1) as usize);
    enter(&mut dev, &l, &[map(c"holder", base, 16, COPYIN)]).unwrap();
    // Target not present: an error naming the value.
    let (i, f) = enter(
        &mut dev,
        &l,
        &[map(c"holder[0]", h0 as *const u8, 8, ATTACH)],
    )
    .unwrap_err();
    assert_eq!(i, 0);
    assert_eq!(f.what, "the pointer's target is not present on the device");
    // A null pointer is attached to null.
    enter(
        &mut dev,
        &l,
        &[map(c"holder[1]", h1 as *const u8, 8, ATTACH)],
    )
    .unwrap();
    assert_eq!(read_device_u64(dev_of(&dev, h1 as *const u8)), 0);
    // The section of the item before: holder[0] points at data[0], the
    // section starts at data[2]; the attachment wraps below the section.
    let maps = [
        map(c"holder[0][2:6]", data[2..].as_ptr(), 24, COPYIN),
        map(c"holder[0]", h0 as *const u8, 8, ATTACH),
    ];
    let r = begin(&mut dev, &l, &maps).unwrap();
    let want = dev_of(&dev, data[2..].as_ptr()) - 8;
    assert_eq!(read_device_u64(dev_of(&dev, h0 as *const u8)), want);
    end(&mut dev, &l, &r, &no_name).unwrap();
    assert_eq!(
        read_device_u64(dev_of(&dev, h0 as *const u8)),
        data.as_ptr() as u64
    );
    // Detach finalize drops every attachment at once.
    // SAFETY: holder[1], through the pointer a program would use.
    unsafe { *base.add(1) = data.as_ptr() };
    let _ = enter(&mut dev, &l, &[map(c"data", data.as_ptr(), 32, COPYIN)]);
    for _ in 0..3 {
        mapping::attach(&mut dev, h1, mapping::Target::Value).unwrap();
    }
    assert_eq!(dev.present.attachment(h1).unwrap().count, 3);
    mapping::detach(&mut dev, h1, true).unwrap();
    assert_eq!(dev.present.attachment(h1), None);
    assert_eq!(
        read_device_u64(dev_of(&dev, h1 as *const u8)),
        data.as_ptr() as u64
    );
}

#[test]
fn mapped_device_memory_is_never_freed_by_the_runtime() {
    let mut dev = fake::device();
    let l = loc();
    let s = site(&l);
    let a = vec![4u8; 256];
    let d = dev.alloc(256).unwrap();
    mapping::map_user(&mut dev, a.as_ptr() as usize, d, 256).unwrap();
    assert_eq!(counts(&dev, a.as_ptr()), Some((0, INFINITE)));
    let f = mapping::map_user(&mut dev, a[10..].as_ptr() as usize, d, 8).unwrap_err();
    assert_eq!(f.what, "already present on the device");
    // Exit data and finalize do not unmap it.
    enter(&mut dev, &l, &[map(c"a", a.as_ptr(), 256, COPYIN)]).unwrap();
    exit(&mut dev, &l, &[map(c"a", a.as_ptr(), 256, DELETE)], true).unwrap();
    assert_eq!(counts(&dev, a.as_ptr()), Some((0, INFINITE)));
    // Unmapped while a region holds it: present until the region ends, and
    // its memory stays the program's.
    let r = begin(&mut dev, &l, &[map(c"a", a.as_ptr(), 256, PRESENT)]).unwrap();
    mapping::unmap_user(&mut dev, &s, a.as_ptr() as usize).unwrap();
    assert_eq!(counts(&dev, a.as_ptr()), Some((1, 0)));
    calls();
    end(&mut dev, &l, &r, &no_name).unwrap();
    assert!(dev.present.is_empty());
    assert!(calls_of("free").is_empty());
    assert!(dev.alloc.is_live(d));
    let f = mapping::unmap_user(&mut dev, &s, a.as_ptr() as usize).unwrap_err();
    assert_eq!(f.what, "not mapped with acc_map_data");
    // Reverse lookups.
    mapping::map_user(&mut dev, a.as_ptr() as usize, d, 256).unwrap();
    assert_eq!(dev.present.host_of(d + 17), Some(a.as_ptr() as usize + 17));
    assert_eq!(dev.present.host_of(d + 256), None);
}

#[test]
fn update_directions_and_if_present() {
    let mut dev = fake::device();
    let l = loc();
    let s = site(&l);
    let mut a = vec![1u32; 50];
    enter(&mut dev, &l, &[map(c"a", a.as_ptr(), 200, COPYIN)]).unwrap();
    a[10] = 77;
    mapping::update(&mut dev, &s, a[10..].as_ptr() as usize, 4, true, false).unwrap();
    let d = dev_of(&dev, a.as_ptr());
    assert_eq!(read_device(d + 40, 4), 77u32.to_ne_bytes());
    poke(&mut dev, d, &as_bytes(&[8u32; 50]));
    mapping::update(&mut dev, &s, a.as_ptr() as usize, 200, false, false).unwrap();
    assert_eq!(a, vec![8u32; 50]);
    let b = [0u8; 4];
    let f = mapping::update(&mut dev, &s, b.as_ptr() as usize, 4, false, false).unwrap_err();
    assert_eq!(f.what, "not present on the device");
    assert_eq!(
        mapping::update(&mut dev, &s, b.as_ptr() as usize, 4, false, true),
        Ok(())
    );
}

static DECLARED_COPYIN: [u64; 4] = [1, 2, 3, 4];
static DECLARED_LINK: [u64; 2] = [5, 6];

#[test]
fn declared_globals_and_their_cells() {
    let mut dev = fake::device();
    let l = loc();
    let mut declares = Declares::new();
    let g = |host: *const u64, bytes, kind| Declared {
        name: "g".into(),
        host: host as usize,
        bytes,
        kind,
        loc: loc(),
    };
    assert!(declares.add(g(DECLARED_COPYIN.as_ptr(), 32, DeclareKind::Copyin)));
    assert!(
        !declares.add(g(DECLARED_COPYIN.as_ptr(), 32, DeclareKind::Copyin)),
        "one entry per range"
    );
    assert!(declares.add(g(DECLARED_LINK.as_ptr(), 16, DeclareKind::Link)));
    establish(&mut dev, &declares);
    assert_eq!(counts(&dev, DECLARED_COPYIN.as_ptr()), Some((0, INFINITE)));
    assert_eq!(
        read_device(dev_of(&dev, DECLARED_COPYIN.as_ptr()), 32),
        as_bytes(&DECLARED_COPYIN)
    );
    assert_eq!(
        counts(&dev, DECLARED_LINK.as_ptr()),
        None,
        "link globals get no copy"
    );
    // exit data cannot remove a declared global.
    exit(
        &mut dev,
        &l,
        &[map(c"g", DECLARED_COPYIN.as_ptr(), 32, DELETE)],
        true,
    )
    .unwrap();
    assert!(counts(&dev, DECLARED_COPYIN.as_ptr()).is_some());
    // A module with two cells is loaded.
    let cells = Box::leak(Box::new([
        crate::abi::Cell {
            symbol: c"__accc_cell_a".as_ptr(),
            host: DECLARED_COPYIN.as_ptr().cast(),
        },
        crate::abi::Cell {
            symbol: c"__accc_cell_b".as_ptr(),
            host: DECLARED_LINK.as_ptr().cast(),
        },
    ]));
    let img = Image {
        cells: cells.as_ptr(),
        ncells: 2,
        ..crate::abi::test_image(c"t.c", &[], false)
    };
    bind_cells(&mut dev, 0x77, &[&img]).unwrap();
    let cell = |dev: &DeviceState, h: *const u64| read_device_u64(dev.cells[&(h as usize)][0]);
    assert_eq!(
        cell(&dev, DECLARED_COPYIN.as_ptr()),
        dev_of(&dev, DECLARED_COPYIN.as_ptr())
    );
    assert_eq!(cell(&dev, DECLARED_LINK.as_ptr()), 0);
    // The link global is mapped by a data clause: its cell follows.
    let r = begin(
        &mut dev,
        &l,
        &[map(c"lk", DECLARED_LINK.as_ptr(), 16, COPYIN)],
    )
    .unwrap();
    assert_eq!(
        cell(&dev, DECLARED_LINK.as_ptr()),
        dev_of(&dev, DECLARED_LINK.as_ptr())
    );
    end(&mut dev, &l, &r, &no_name).unwrap();
    assert_eq!(cell(&dev, DECLARED_LINK.as_ptr()), 0);
}

#[test]
fn large_transfers_are_staged_unless_pinned() {
    let mut dev = fake::device();
    let l = loc();
    let n = 3 << 20;
    let a: Vec<u8> = (0..n).map(|i| (i % 251) as u8).collect();
    let r = begin(&mut dev, &l, &[map(c"a", a.as_ptr(), n, COPY)]).unwrap();
    let log = calls();
    assert!(log.iter().any(|c| c.starts_with("host_alloc")), "{log:?}");
    // Four chunks, so the host copy of one overlaps the DMA of another.
    let dmas: Vec<&String> = log.iter().filter(|c| c.starts_with("htod_async")).collect();
    assert_eq!(dmas, [&format!("htod_async {}", n / 4); 4], "{log:?}");
    assert!(read_device(dev_of(&dev, a.as_ptr()), n) == a);
    end(&mut dev, &l, &r, &no_name).unwrap();
    assert_eq!(calls_of("dtoh_async").len(), 4);
    // Small copies and pinned memory go straight to the driver.
    let small = [1u8; 100];
    let r = begin(&mut dev, &l, &[map(c"s", small.as_ptr(), 100, COPYIN)]).unwrap();
    assert_eq!(calls_of("htod"), ["htod 100"]);
    end(&mut dev, &l, &r, &no_name).unwrap();
    // SAFETY: plain values.
    let pinned = unsafe { dev.plugin.host_alloc(0, n) }.unwrap();
    let r = begin(&mut dev, &l, &[map(c"p", pinned.cast::<u8>(), n, COPYIN)]).unwrap();
    assert_eq!(calls_of("htod"), [format!("htod {n}")]);
    end(&mut dev, &l, &r, &no_name).unwrap();
    dev.release_memory();
    assert_eq!(fake::in_use(), 0);
}

#[test]
fn out_of_memory_names_the_size_after_releasing_the_cache() {
    let mut dev = fake::device();
    let l = loc();
    let a = vec![0u8; 4096];
    let b = vec![0u8; 8192];
    enter(&mut dev, &l, &[map(c"a", a.as_ptr(), 4096, CREATE)]).unwrap();
    exit(&mut dev, &l, &[map(c"a", a.as_ptr(), 4096, DELETE)], false).unwrap();
    assert_eq!(dev.alloc.cached_bytes(), 4096);
    fake::set_limit(10_000);
    // 4096 cached + 8192 > 10000: the cache is released, then it fits.
    enter(&mut dev, &l, &[map(c"b", b.as_ptr(), 8192, CREATE)]).unwrap();
    assert_eq!(dev.alloc.cached_bytes(), 0);
    let c = vec![0u8; 4000];
    let (i, f) = enter(&mut dev, &l, &[map(c"c", c.as_ptr(), 4000, COPYIN)]).unwrap_err();
    assert_eq!(i, 0);
    assert_eq!(f.what, "out of device memory: cannot allocate 4000 bytes");
    assert!(f.detail.unwrap().contains("CUDA_ERROR_OUT_OF_MEMORY"));
    assert_eq!(counts(&dev, c.as_ptr()), None);
}

#[test]
fn kinds_not_allowed_on_a_directive_are_internal_errors() {
    let mut dev = fake::device();
    let l = loc();
    let a = [0u8; 8];
    let (_, f) = begin(&mut dev, &l, &[map(c"a", a.as_ptr(), 8, DELETE)]).unwrap_err();
    assert!(f.what.starts_with("internal error: delete"), "{}", f.what);
    let (_, f) = enter(&mut dev, &l, &[map(c"a", a.as_ptr(), 8, PRESENT)]).unwrap_err();
    assert!(f.what.contains("present on an enter data"), "{}", f.what);
    let (_, f) = begin(&mut dev, &l, &[map(c"a", a.as_ptr(), 8, 42)]).unwrap_err();
    assert_eq!(f.what, "internal error: unknown data clause kind 42");
    let (_, f) = begin(&mut dev, &l, &[map(c"a", a.as_ptr(), 4, ATTACH)]).unwrap_err();
    assert!(f.what.contains("not a pointer"), "{}", f.what);
}
