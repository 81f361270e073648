//! Tests, on the fake device ([`crate::fake`]), of what issue 15 added to
//! the data environment: bare pointers standing for the present block that
//! holds their target (`PTXRT_MAP_BLOCK`, also implicit sections derived
//! from loop bounds), the OpenACC 3.4 `alwaysin`/`alwaysout` modifiers,
//! sub-arrays through pointers to pointers (rows, deep copy with attach)
//! on structured regions and enter/exit data, and exit data of a pointer
//! member's section (detached, not attached).

use crate::abi::{
    Map, SrcLoc, Update, MAP_ALWAYSIN, MAP_ALWAYSOUT, MAP_BLOCK, MAP_NO_EXTENT, UPDATE_BLOCK,
};

/// A bare pointer's flags.
const BARE: c_int = MAP_BLOCK | MAP_NO_EXTENT;
use crate::data::{begin, end};
use crate::device::DeviceState;
use crate::enter_exit::{enter, exit};
use crate::fake::{self, calls, calls_of, read_device, read_device_u64};
use crate::present::Lookup;
use crate::update::update;
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
const ROWS: c_int = 10;

fn loc() -> SrcLoc {
    SrcLoc {
        file: "t.c".into(),
        line: 1,
        construct: "data".into(),
    }
}

fn map<T>(name: &'static CStr, host: *const T, bytes: usize, kind: c_int, flags: c_int) -> Map {
    Map {
        name: name.as_ptr(),
        host: host.cast::<c_void>(),
        bytes,
        kind,
        flags,
    }
}

/// A `ROWS` item: rows start `offset` bytes from their pointer's target.
fn rows(offset: isize, bytes: usize) -> Map {
    Map {
        name: c"a".as_ptr(),
        host: offset as *const c_void,
        bytes,
        kind: ROWS,
        flags: 0,
    }
}

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

fn f64s(d: u64, n: usize) -> Vec<f64> {
    read_device(d, 8 * n)
        .chunks(8)
        .map(|c| f64::from_ne_bytes(c.try_into().unwrap()))
        .collect()
}

fn poke_f64(dev: &mut DeviceState, d: u64, v: &[f64]) {
    // SAFETY: a local buffer.
    unsafe { dev.to_device(d, v.as_ptr().cast(), 8 * v.len()) }.unwrap();
}

fn no_name(_: usize) -> String {
    "x".into()
}

#[test]
fn bare_pointer_finds_the_whole_block_of_its_target() {
    let mut dev = fake::device();
    let l = loc();
    let mut a = vec![1.0f64; 32];
    enter(&mut dev, &l, &[map(c"a[0:32]", a.as_ptr(), 256, COPYIN, 0)]).unwrap();
    // `present(p)` with p pointing inside the block: a reference to it all.
    let p = a.as_ptr().wrapping_add(5);
    let holds = begin(&mut dev, &l, &[map(c"p", p, 0, PRESENT, BARE)]).unwrap();
    assert_eq!(counts(&dev, a.as_ptr()), Some((1, 1)));
    end(&mut dev, &l, &holds, &no_name).unwrap();
    // `copy(p)`: present, so no copy either way.
    calls();
    let holds = begin(&mut dev, &l, &[map(c"p", p, 0, COPY, BARE)]).unwrap();
    end(&mut dev, &l, &holds, &no_name).unwrap();
    assert!(calls_of("htod").is_empty() && calls_of("dtoh").is_empty());
    // `update self(p)`: the whole block.
    let d = dev_of(&dev, a.as_ptr());
    poke_f64(&mut dev, d, &[7.0; 32]);
    let u = Update {
        name: c"p".as_ptr(),
        host: p.cast(),
        bytes: 0,
        to_device: UPDATE_BLOCK,
    };
    update(&mut dev, &l, &[u], false).unwrap();
    assert_eq!((a[0], a[31]), (7.0, 7.0));
    // `exit data copyout(p)`: the block's last reference, copied out whole.
    poke_f64(&mut dev, d, &[9.0; 32]);
    exit(&mut dev, &l, &[map(c"p", p, 0, COPYOUT, BARE)], false).unwrap();
    assert_eq!((a[0], a[31]), (9.0, 9.0));
    assert!(dev.present.is_empty());
    let _ = &mut a;
}

#[test]
fn bare_pointer_whose_target_is_absent() {
    let mut dev = fake::device();
    let l = loc();
    let a = [0u8; 64];
    let p = a.as_ptr();
    // A clause that must allocate has no extent: an error naming why.
    for kind in [COPY, COPYIN, COPYOUT, CREATE] {
        let (i, f) = begin(&mut dev, &l, &[map(c"p", p, 0, kind, BARE)]).unwrap_err();
        assert_eq!(i, 0);
        assert_eq!(f.what, "not present on the device");
        assert!(f.detail.unwrap().contains("no extent"));
    }
    let (_, f) = enter(&mut dev, &l, &[map(c"p", p, 0, COPYIN, BARE)]).unwrap_err();
    assert!(f.detail.unwrap().contains("no extent"));
    // present: not present; no_create: nothing (the kernel sees the host address).
    let (_, f) = begin(&mut dev, &l, &[map(c"p", p, 0, PRESENT, BARE)]).unwrap_err();
    assert_eq!(
        (f.what.as_str(), f.detail),
        ("not present on the device", None)
    );
    let holds = begin(&mut dev, &l, &[map(c"p", p, 0, NO_CREATE, BARE)]).unwrap();
    assert!(holds.is_empty());
    // exit data delete(p) / copyout(p) of absent data: no action.
    exit(&mut dev, &l, &[map(c"p", p, 0, DELETE, BARE)], true).unwrap();
    exit(&mut dev, &l, &[map(c"p", p, 0, COPYOUT, BARE)], false).unwrap();
    // update: an error, or nothing with if_present.
    let u = || Update {
        name: c"p".as_ptr(),
        host: p.cast(),
        bytes: 0,
        to_device: 1 | UPDATE_BLOCK,
    };
    assert_eq!(update(&mut dev, &l, &[u()], false).unwrap_err().0, 0);
    update(&mut dev, &l, &[u()], true).unwrap();
    // A null pointer is no action.
    assert!(
        begin(&mut dev, &l, &[map(c"p", ptr::null::<u8>(), 0, COPY, BARE)])
            .unwrap()
            .is_empty()
    );
    assert!(calls_of("alloc").is_empty());
}

#[test]
fn implicit_section_is_present_or_copy_of_the_enclosing_block() {
    let mut dev = fake::device();
    let l = loc();
    let mut a: Vec<f64> = (0..100).map(f64::from).collect();
    // Absent: the derived section a[10:20] is copied in and out.
    let sec = a.as_ptr().wrapping_add(10);
    let holds = begin(&mut dev, &l, &[map(c"a[10:20]", sec, 160, COPY, MAP_BLOCK)]).unwrap();
    assert_eq!(calls_of("htod"), ["htod 160"]);
    let d = dev_of(&dev, sec);
    poke_f64(&mut dev, d, &[-1.0; 20]);
    end(&mut dev, &l, &holds, &no_name).unwrap();
    assert_eq!((a[9], a[10], a[29], a[30]), (9.0, -1.0, -1.0, 30.0));
    // Present as a larger block (an enclosing data region): that block is
    // used, even where the derived section would reach past it.
    enter(&mut dev, &l, &[map(c"a[0:50]", a.as_ptr(), 400, COPYIN, 0)]).unwrap();
    calls();
    let wide = map(c"a[10:60]", sec, 480, COPY, MAP_BLOCK);
    let holds = begin(&mut dev, &l, &[wide]).unwrap();
    assert_eq!(counts(&dev, a.as_ptr()), Some((1, 1)));
    end(&mut dev, &l, &holds, &no_name).unwrap();
    assert!(calls_of("htod").is_empty() && calls_of("dtoh").is_empty());
    // A derived section that starts before the block and overlaps it.
    let early = map(c"a[0:60]", a.as_ptr(), 480, COPY, MAP_BLOCK);
    exit(
        &mut dev,
        &l,
        &[map(c"a", a.as_ptr(), 400, DELETE, 0)],
        false,
    )
    .unwrap();
    enter(
        &mut dev,
        &l,
        &[map(c"a[5:5]", a.as_ptr().wrapping_add(5), 40, COPYIN, 0)],
    )
    .unwrap();
    let (_, f) = begin(&mut dev, &l, &[early]).unwrap_err();
    assert_eq!(f.what, "only partly present on the device");
    // An empty loop: a zero-length section, no action and no error.
    let five = a.as_ptr().wrapping_add(5);
    exit(&mut dev, &l, &[map(c"a[5:5]", five, 40, DELETE, 0)], true).unwrap();
    assert!(dev.present.is_empty());
    let holds = begin(&mut dev, &l, &[map(c"a[3:0]", sec, 0, COPY, MAP_BLOCK)]).unwrap();
    end(&mut dev, &l, &holds, &no_name).unwrap();
    // No extent (a guard failed at run time): the block, or an error.
    let none = map(c"a", a.as_ptr(), 0, COPYIN, MAP_BLOCK | MAP_NO_EXTENT);
    assert!(begin(&mut dev, &l, &[none]).is_err());
    let _ = &mut a;
}

#[test]
fn alwaysin_and_alwaysout_copy_sections_that_stay_present() {
    let mut dev = fake::device();
    let l = loc();
    let mut a = vec![1.0f64; 8];
    enter(&mut dev, &l, &[map(c"a", a.as_ptr(), 64, COPYIN, 0)]).unwrap();
    let d = dev_of(&dev, a.as_ptr());
    a[3] = 5.0; // the host changes it after the copy in
    calls();
    // copy(a) without modifiers: present, nothing moves.
    let holds = begin(&mut dev, &l, &[map(c"a", a.as_ptr(), 64, COPY, 0)]).unwrap();
    end(&mut dev, &l, &holds, &no_name).unwrap();
    assert!(calls_of("htod").is_empty() && calls_of("dtoh").is_empty());
    assert_eq!(f64s(d, 8)[3], 1.0);
    // copy(always: a): in at the start, out at the end, though present.
    let flags = MAP_ALWAYSIN | MAP_ALWAYSOUT;
    let holds = begin(&mut dev, &l, &[map(c"a", a.as_ptr(), 64, COPY, flags)]).unwrap();
    assert_eq!(calls_of("htod"), ["htod 64"]);
    assert_eq!(f64s(d, 8)[3], 5.0);
    poke_f64(&mut dev, d, &[2.0; 8]);
    end(&mut dev, &l, &holds, &no_name).unwrap();
    assert_eq!(calls_of("dtoh"), ["dtoh 64"]);
    assert_eq!(a, [2.0; 8]);
    assert_eq!(counts(&dev, a.as_ptr()), Some((0, 1)), "still present");
    // A new copy is filled once (no second copy in for alwaysin).
    let b = [3u8; 16];
    let holds = begin(
        &mut dev,
        &l,
        &[map(c"b", b.as_ptr(), 16, COPYIN, MAP_ALWAYSIN)],
    )
    .unwrap();
    assert_eq!(calls_of("htod"), ["htod 16"]);
    end(&mut dev, &l, &holds, &no_name).unwrap();
    // enter data copyin(always:), exit data copyout(always:) keep the reference.
    a[0] = 8.0;
    enter(
        &mut dev,
        &l,
        &[map(c"a", a.as_ptr(), 64, COPYIN, MAP_ALWAYSIN)],
    )
    .unwrap();
    assert_eq!(f64s(d, 8)[0], 8.0);
    poke_f64(&mut dev, d, &[4.0; 8]);
    exit(
        &mut dev,
        &l,
        &[map(c"a", a.as_ptr(), 64, COPYOUT, MAP_ALWAYSOUT)],
        false,
    )
    .unwrap();
    assert_eq!(a, [4.0; 8]);
    assert_eq!(counts(&dev, a.as_ptr()), Some((0, 1)));
    // The last reference: copied out once.
    poke_f64(&mut dev, d, &[6.0; 8]);
    calls();
    exit(
        &mut dev,
        &l,
        &[map(c"a", a.as_ptr(), 64, COPYOUT, MAP_ALWAYSOUT)],
        false,
    )
    .unwrap();
    assert_eq!(calls_of("dtoh"), ["dtoh 64"]);
    assert_eq!(a, [6.0; 8]);
    assert!(dev.present.is_empty());
}

/// `double **a` with 3 rows of 4 doubles.
struct Jagged {
    rows: Vec<Vec<f64>>,
    ptrs: Vec<*mut f64>,
}

fn jagged() -> Jagged {
    let mut rows: Vec<Vec<f64>> = (0..3)
        .map(|r| (0..4).map(|c| f64::from(10 * r + c)).collect())
        .collect();
    let ptrs = rows.iter_mut().map(|r| r.as_mut_ptr()).collect();
    Jagged { rows, ptrs }
}

#[test]
fn pointer_to_pointer_rows_are_copied_and_attached() {
    let mut dev = fake::device();
    let l = loc();
    let mut j = jagged();
    let a = j.ptrs.as_ptr();
    // copy(a[0:3][1:2]): the pointers, then elements 1-2 of every row.
    let maps = [map(c"a[0:3][1:2]", a, 24, COPY, 0), rows(8, 16)];
    let holds = begin(&mut dev, &l, &maps).unwrap();
    assert_eq!(
        calls_of("htod"),
        ["htod 24", "htod 16", "htod 16", "htod 16", "htod 8", "htod 8", "htod 8"],
        "the pointers, 3 rows, then the 3 attaches"
    );
    let da = dev_of(&dev, a);
    for r in 0..3 {
        let row = j.ptrs[r].wrapping_add(1);
        let drow = dev_of(&dev, row);
        assert_eq!(
            f64s(drow, 2),
            [f64::from(10 * r as i32 + 1), f64::from(10 * r as i32 + 2)]
        );
        // The device pointer points where the host one does, on the device.
        assert_eq!(read_device_u64(da + 8 * r as u64), drow - 8);
        poke_f64(&mut dev, drow, &[-1.0, -2.0]);
    }
    end(&mut dev, &l, &holds, &no_name).unwrap();
    for r in 0..3 {
        assert_eq!(
            j.rows[r],
            [
                f64::from(10 * r as i32),
                -1.0,
                -2.0,
                f64::from(10 * r as i32 + 3)
            ]
        );
    }
    assert_eq!(
        j.ptrs[1],
        j.rows[1].as_mut_ptr(),
        "the host keeps its pointers"
    );
    assert!(dev.present.is_empty());
}

#[test]
fn rows_of_one_allocation_attach_to_their_own_sections() {
    let mut dev = fake::device();
    let l = loc();
    // Rows carved from one buffer: row i's section a[i][1:3] ends exactly
    // where row i + 1's pointer points.
    let mut buf: Vec<f64> = (0..12).map(f64::from).collect();
    let base = buf.as_mut_ptr();
    let ptrs: Vec<*mut f64> = (0..3).map(|i| base.wrapping_add(4 * i)).collect();
    let a = ptrs.as_ptr();
    let maps = [map(c"a[0:3][1:3]", a, 24, COPYIN, 0), rows(8, 24)];
    enter(&mut dev, &l, &maps).unwrap();
    let da = dev_of(&dev, a);
    for (r, p) in ptrs.iter().enumerate() {
        let row = p.wrapping_add(1);
        let want = dev_of(&dev, row) - 8;
        assert_eq!(read_device_u64(da + 8 * r as u64), want, "row {r}");
    }
    let del = [map(c"a[0:3][1:3]", a, 24, DELETE, 0), rows(8, 24)];
    exit(&mut dev, &l, &del, false).unwrap();
    assert!(dev.present.is_empty());
    let _ = &mut buf;
}

#[test]
fn pointer_to_pointer_rows_on_enter_and_exit_data() {
    let mut dev = fake::device();
    let l = loc();
    let mut j = jagged();
    j.ptrs[2] = ptr::null_mut(); // a null row: nothing to map, attached to null
    let a = j.ptrs.as_ptr();
    let maps = [map(c"a[0:3][0:4]", a, 24, COPYIN, 0), rows(0, 32)];
    enter(&mut dev, &l, &maps).unwrap();
    let da = dev_of(&dev, a);
    assert_eq!(read_device_u64(da), dev_of(&dev, j.ptrs[0]));
    assert_eq!(read_device_u64(da + 16), 0);
    assert_eq!(dev.present.len(), 3);
    // A compute construct's present(a): the pointers stay attached.
    let holds = begin(&mut dev, &l, &[map(c"a", a, 0, PRESENT, BARE)]).unwrap();
    end(&mut dev, &l, &holds, &no_name).unwrap();
    assert_eq!(read_device_u64(da + 8), dev_of(&dev, j.ptrs[1]));
    let d1 = dev_of(&dev, j.ptrs[1]);
    poke_f64(&mut dev, d1, &[5.0; 4]);
    // exit data copyout: rows detached, copied out, freed; then the pointers.
    let out = [map(c"a[0:3][0:4]", a, 24, COPYOUT, 0), rows(0, 32)];
    exit(&mut dev, &l, &out, false).unwrap();
    assert_eq!(j.rows[1], [5.0; 4]);
    assert_eq!(j.ptrs[1], j.rows[1].as_mut_ptr());
    assert!(dev.present.is_empty());
}

#[test]
fn three_levels_of_pointers() {
    let mut dev = fake::device();
    let l = loc();
    let mut x = [1i32, 2];
    let mut y = [3i32, 4];
    let mid: [*mut i32; 2] = [x.as_mut_ptr(), y.as_mut_ptr()];
    let top: [*const *mut i32; 1] = [mid.as_ptr()];
    // create(t[0:1][0:2][0:2]) then copyin of nothing else: every level
    // allocated, every pointer attached.
    let maps = [
        map(c"t", top.as_ptr(), 8, CREATE, 0),
        rows(0, 16),
        rows(0, 8),
    ];
    enter(&mut dev, &l, &maps).unwrap();
    let dtop = dev_of(&dev, top.as_ptr());
    let dmid = read_device_u64(dtop);
    assert_eq!(dmid, dev_of(&dev, mid.as_ptr()));
    assert_eq!(read_device_u64(dmid + 8), dev_of(&dev, y.as_ptr()));
    let del = [
        map(c"t", top.as_ptr(), 8, DELETE, 0),
        rows(0, 16),
        rows(0, 8),
    ];
    exit(&mut dev, &l, &del, true).unwrap();
    assert!(dev.present.is_empty());
    let _ = (&mut x, &mut y);
}

#[repr(C)]
struct Vec3 {
    n: i64,
    p: *mut f64,
}

#[test]
fn exit_data_of_a_member_section_detaches_its_pointer() {
    let mut dev = fake::device();
    let l = loc();
    let mut data = vec![1.0f64; 4];
    let mut s = Vec3 {
        n: 4,
        p: data.as_mut_ptr(),
    };
    let sp = &mut s as *mut Vec3;
    let pp = &s.p as *const *mut f64;
    enter(&mut dev, &l, &[map(c"s", sp, 16, COPYIN, 0)]).unwrap();
    // enter data copyin(s.p[0:4]): the section, then the attach of s.p.
    let inn = [
        map(c"s.p[0:4]", data.as_ptr(), 32, COPYIN, 0),
        map(c"s.p", pp, 8, ATTACH, 0),
    ];
    enter(&mut dev, &l, &inn).unwrap();
    let dp = dev_of(&dev, pp);
    assert_eq!(read_device_u64(dp), dev_of(&dev, data.as_ptr()));
    let dd = dev_of(&dev, data.as_ptr());
    poke_f64(&mut dev, dd, &[3.0; 4]);
    // exit data copyout(s.p[0:4]): the section and the detach of s.p.
    let out = [
        map(c"s.p[0:4]", data.as_ptr(), 32, COPYOUT, 0),
        map(c"s.p", pp, 8, DETACH, 0),
    ];
    exit(&mut dev, &l, &out, false).unwrap();
    assert_eq!(data, [3.0; 4]);
    assert_eq!(read_device_u64(dp), data.as_ptr() as u64, "detached");
    assert_eq!(dev.present.attachment(pp as usize), None);
    exit(&mut dev, &l, &[map(c"s", sp, 16, DELETE, 0)], false).unwrap();
    assert!(dev.present.is_empty());
}
