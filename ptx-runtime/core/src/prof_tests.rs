//! Tests of [`crate::prof`]: the registry's register / unregister / toggle
//! rules, the call order, `tool_info` from start to end, the names and
//! codes it derives, and the data events of the present table's actions on
//! the fake plugin (enter data and exit data of one section).
//! The registry is one per process: each test holds [`LOCK`] and starts
//! from [`prof::reset`]; callbacks record into their thread's own list, so
//! events of other tests' threads never reach a test's records.

use crate::abi::{Map, SrcLoc};
use crate::enter_exit::{enter, exit};
use crate::fake;
use crate::prof::{self, ev, ApiInfo, Ctx, EventInfo, ProfInfo, Span};
use std::cell::RefCell;
use std::ffi::{c_int, c_void, CStr};
use std::sync::Mutex;

static LOCK: Mutex<()> = Mutex::new(());

/// One recorded call: which callback, the event, and its data fields.
#[derive(Clone, Debug, PartialEq)]
struct Call {
    who: char,
    ev: c_int,
    line: c_int,
    var: String,
    bytes: usize,
    host: usize,
    device: usize,
}

thread_local! {
    static CALLS: RefCell<Vec<Call>> = const { RefCell::new(Vec::new()) };
}

fn record(who: char, p: *mut ProfInfo, e: *mut EventInfo) {
    // SAFETY: the runtime passes valid structs for the call.
    let (p, e) = unsafe { (&*p, &mut *e) };
    // SAFETY: every variant starts with the common fields; data fields
    // are read only for data events.
    let (var, bytes, host, device) = unsafe {
        if (ev::CREATE..=ev::FREE).contains(&p.event_type)
            || (ev::ENQUEUE_UPLOAD_START..=ev::ENQUEUE_DOWNLOAD_END).contains(&p.event_type)
        {
            let d = e.data;
            (
                CStr::from_ptr(d.var_name).to_string_lossy().into_owned(),
                d.bytes,
                d.host_ptr as usize,
                d.device_ptr as usize,
            )
        } else {
            (String::new(), 0, 0, 0)
        }
    };
    CALLS.with(|c| {
        c.borrow_mut().push(Call {
            who,
            ev: p.event_type,
            line: p.line_no,
            var,
            bytes,
            host,
            device,
        })
    });
}

unsafe extern "C" fn cb_a(p: *mut ProfInfo, e: *mut EventInfo, _: *mut ApiInfo) {
    record('a', p, e);
}

unsafe extern "C" fn cb_b(p: *mut ProfInfo, e: *mut EventInfo, _: *mut ApiInfo) {
    record('b', p, e);
}

/// Sets `tool_info` at start events and records, at end events, whether
/// it came back (as `who` 'y' or 'n').
unsafe extern "C" fn cb_tool(p: *mut ProfInfo, e: *mut EventInfo, _: *mut ApiInfo) {
    // SAFETY: as in record.
    let (p, e) = unsafe { (&*p, &mut *e) };
    const MARK: usize = 0x5150;
    // SAFETY: the common fields of every variant.
    unsafe {
        if p.event_type % 2 == 0 {
            e.other.tool_info = MARK as *mut c_void;
        } else {
            let who = if e.other.tool_info as usize == MARK {
                'y'
            } else {
                'n'
            };
            CALLS.with(|c| {
                c.borrow_mut().push(Call {
                    who,
                    ev: p.event_type,
                    line: p.line_no,
                    var: String::new(),
                    bytes: 0,
                    host: 0,
                    device: 0,
                })
            });
        }
    }
}

fn take() -> Vec<(char, c_int)> {
    CALLS.with(|c| c.borrow_mut().drain(..).map(|x| (x.who, x.ev)).collect())
}

fn loc() -> SrcLoc {
    SrcLoc {
        file: "t.c".into(),
        line: 7,
        construct: "enter data".into(),
    }
}

fn emit(e: c_int) {
    let l = loc();
    prof::other(
        e,
        &Ctx::on(
            &l,
            crate::device::DeviceId::Nvidia(0),
            crate::queue::Queue::Sync,
        ),
        false,
    );
}

#[test]
fn registration_counts_and_toggles() {
    let _g = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    prof::reset();
    take();
    assert!(!prof::wants(ev::UPDATE_START));
    emit(ev::UPDATE_START);
    assert_eq!(take(), []);
    // Registered twice: called once; it takes two unregistrations to go.
    prof::acc_prof_register(ev::UPDATE_START, Some(cb_a), prof::ACC_REG);
    prof::acc_prof_register(ev::UPDATE_START, Some(cb_a), prof::ACC_REG);
    assert!(prof::wants(ev::UPDATE_START) && !prof::wants(ev::UPDATE_END));
    emit(ev::UPDATE_START);
    assert_eq!(take(), [('a', ev::UPDATE_START)]);
    prof::acc_prof_unregister(ev::UPDATE_START, Some(cb_a), prof::ACC_REG);
    emit(ev::UPDATE_START);
    assert_eq!(take(), [('a', ev::UPDATE_START)]);
    // Toggling the callback off and on.
    prof::acc_prof_unregister(ev::UPDATE_START, Some(cb_a), prof::ACC_TOGGLE);
    assert!(!prof::wants(ev::UPDATE_START));
    emit(ev::UPDATE_START);
    assert_eq!(take(), []);
    prof::acc_prof_register(ev::UPDATE_START, Some(cb_a), prof::ACC_TOGGLE);
    emit(ev::UPDATE_START);
    assert_eq!(take(), [('a', ev::UPDATE_START)]);
    // The event as a whole, and every event.
    prof::acc_prof_unregister(ev::UPDATE_START, None, prof::ACC_TOGGLE);
    emit(ev::UPDATE_START);
    prof::acc_prof_register(ev::UPDATE_START, None, prof::ACC_TOGGLE);
    prof::acc_prof_unregister(ev::NONE, None, prof::ACC_TOGGLE);
    emit(ev::UPDATE_START);
    assert_eq!(take(), []);
    prof::acc_prof_register(ev::NONE, None, prof::ACC_TOGGLE);
    // Per thread: off here, on in another thread.
    prof::acc_prof_unregister(ev::NONE, None, prof::ACC_TOGGLE_PER_THREAD);
    emit(ev::UPDATE_START);
    assert_eq!(take(), []);
    let other = std::thread::spawn(|| {
        emit(ev::UPDATE_START);
        take()
    })
    .join()
    .unwrap();
    assert_eq!(other, [('a', ev::UPDATE_START)]);
    prof::acc_prof_register(ev::NONE, None, prof::ACC_TOGGLE_PER_THREAD);
    emit(ev::UPDATE_START);
    assert_eq!(take(), [('a', ev::UPDATE_START)]);
    // The last registration goes; an unknown event or mode changes nothing.
    prof::acc_prof_unregister(ev::UPDATE_START, Some(cb_a), prof::ACC_REG);
    prof::acc_prof_register(ev::LAST, Some(cb_a), prof::ACC_REG);
    prof::acc_prof_register(ev::UPDATE_END, Some(cb_a), 7);
    assert!(!prof::any());
    emit(ev::UPDATE_START);
    assert_eq!(take(), []);
    prof::reset();
}

#[test]
fn start_events_in_order_end_events_reversed_tool_info_kept() {
    let _g = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    prof::reset();
    take();
    for e in [ev::WAIT_START, ev::WAIT_END] {
        prof::acc_prof_register(e, Some(cb_a), prof::ACC_REG);
        prof::acc_prof_register(e, Some(cb_b), prof::ACC_REG);
    }
    emit(ev::WAIT_START);
    emit(ev::WAIT_END);
    assert_eq!(
        take(),
        [
            ('a', ev::WAIT_START),
            ('b', ev::WAIT_START),
            ('b', ev::WAIT_END),
            ('a', ev::WAIT_END)
        ]
    );
    prof::reset();
    for e in [ev::UPDATE_START, ev::UPDATE_END] {
        prof::acc_prof_register(e, Some(cb_tool), prof::ACC_REG);
    }
    let l = loc();
    let ctx = Ctx::on(
        &l,
        crate::device::DeviceId::Host,
        crate::queue::Queue::Id(3),
    );
    Span::start(ev::UPDATE_START, &ctx, false).end(ev::UPDATE_END, &ctx, false);
    assert_eq!(take(), [('y', ev::UPDATE_END)]);
    prof::reset();
}

#[test]
fn names_codes_and_library_lists() {
    let at = |c: &str| SrcLoc {
        file: "t.c".into(),
        line: 1,
        construct: c.into(),
    };
    assert_eq!(prof::construct_of(Some(&at("parallel loop"))), 0);
    assert_eq!(prof::construct_of(Some(&at("kernels"))), 1);
    assert_eq!(prof::construct_of(Some(&at("serial loop"))), 16);
    assert_eq!(prof::construct_of(Some(&at("enter data"))), 4);
    assert_eq!(prof::construct_of(Some(&at("exit data"))), 5);
    assert_eq!(prof::construct_of(Some(&at("update"))), 12);
    assert_eq!(prof::construct_of(Some(&SrcLoc::routine("acc_copyin"))), 15);
    assert!(prof::is_compute(&at("parallel loop")) && !prof::is_compute(&at("data")));
    assert_eq!(
        prof::error_code("t.c:3: error: update: not present on the device: 'x'"),
        10
    );
    assert_eq!(prof::error_code("only partly present on the device"), 11);
    assert_eq!(
        prof::error_code("out of device memory: cannot allocate 8 bytes"),
        9
    );
    assert_eq!(prof::error_code("something else"), 1);
    assert_eq!(
        prof::proflib_names(" a.so:b.so;;c.so "),
        ["a.so", "b.so", "c.so"]
    );
    // SAFETY: NUL-terminated names.
    unsafe {
        assert!(prof::acc_prof_lookup(c"acc_prof_register".as_ptr()).is_some());
        assert!(prof::acc_prof_lookup(c"acc_nothing".as_ptr()).is_none());
        assert!(prof::acc_prof_lookup(std::ptr::null()).is_none());
    }
}

#[test]
fn data_events_of_enter_and_exit_data_on_the_fake_device() {
    let _g = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    prof::reset();
    take();
    for e in ev::CREATE..=ev::FREE {
        prof::acc_prof_register(e, Some(cb_a), prof::ACC_REG);
    }
    for e in ev::ENQUEUE_UPLOAD_START..=ev::ENQUEUE_DOWNLOAD_END {
        prof::acc_prof_register(e, Some(cb_a), prof::ACC_REG);
    }
    let mut dev = fake::device();
    let x = [1.0f64; 16];
    let l = loc();
    let m = |kind: c_int| Map {
        name: c"x[0:16]".as_ptr(),
        host: x.as_ptr().cast(),
        bytes: 128,
        kind,
        flags: 0,
    };
    enter(&mut dev, &l, &[m(1)]).unwrap();
    exit(&mut dev, &l, &[m(2)], false).unwrap();
    let calls = CALLS.with(|c| c.borrow_mut().drain(..).collect::<Vec<_>>());
    let evs: Vec<c_int> = calls.iter().map(|c| c.ev).collect();
    assert_eq!(
        evs,
        [
            ev::ALLOC,
            ev::ENQUEUE_UPLOAD_START,
            ev::ENQUEUE_UPLOAD_END,
            ev::CREATE,
            ev::ENQUEUE_DOWNLOAD_START,
            ev::ENQUEUE_DOWNLOAD_END,
            ev::DELETE,
            ev::FREE
        ]
    );
    let device = calls[0].device;
    for c in &calls {
        assert_eq!(
            (c.line, c.var.as_str(), c.bytes, c.host, c.device),
            (7, "x[0:16]", 128, x.as_ptr() as usize, device),
            "{c:?}"
        );
    }
    assert_ne!(device, 0);
    prof::reset();
}
