//! The runtime's range clients of the profiling interface: NVTX ranges
//! ([`crate::nvtx`], `PTXRT_NVTX`) and the host rows of the trace file
//! ([`crate::trace`], `PTXRT_TRACE`). Like `PTXRT_NOTIFY`'s lines they are
//! built-in clients of [`crate::prof`]: its emitters call [`event`] for
//! the events of [`EVENTS`] (before the tools' callbacks), which opens a
//! range at each start event and closes the innermost one at each end
//! event. The runtime emits the start and end of one piece of work on one
//! thread, properly nested (a construct holds its data entry, which holds
//! its uploads), so the ranges nest per thread.
//!
//! Names are those of `-Minfo` and `PTXRT_TIME`: `t.c:42 parallel loop`
//! (a compute construct, an update, enter or exit data, a wait directive),
//! `t.c:42 data enter` / `t.c:42 parallel loop exit` (the data clauses of
//! a data or compute construct at its entry and exit), `t.c:42 upload a`,
//! `t.c:42 download a`, `t.c:42 launch kernel`; an API routine's work is
//! named by the routine (`acc_copyin upload`).
//!
//! Owns: [`EVENTS`], the names. May call: [`crate::prof`] (its event
//! types and context), [`crate::nvtx`], [`crate::trace`].

use crate::prof::{construct_of, ev, Ctx, Data, Launch};
use crate::trace::Arg;
use std::ffi::c_int;

/// The events the range clients take.
pub const EVENTS: u64 = 1 << ev::COMPUTE_CONSTRUCT_START
    | 1 << ev::COMPUTE_CONSTRUCT_END
    | 1 << ev::ENTER_DATA_START
    | 1 << ev::ENTER_DATA_END
    | 1 << ev::EXIT_DATA_START
    | 1 << ev::EXIT_DATA_END
    | 1 << ev::UPDATE_START
    | 1 << ev::UPDATE_END
    | 1 << ev::ENQUEUE_LAUNCH_START
    | 1 << ev::ENQUEUE_LAUNCH_END
    | 1 << ev::ENQUEUE_UPLOAD_START
    | 1 << ev::ENQUEUE_UPLOAD_END
    | 1 << ev::ENQUEUE_DOWNLOAD_START
    | 1 << ev::ENQUEUE_DOWNLOAD_END
    | 1 << ev::WAIT_START
    | 1 << ev::WAIT_END;

/// The events to take, given the switches (none when both are off).
pub fn wanted() -> u64 {
    if crate::nvtx::enabled() || crate::trace::enabled() {
        EVENTS
    } else {
        0
    }
}

/// What an event is about, beyond its context.
pub enum What<'a> {
    Other,
    Data(&'a Data<'a>),
    Launch(&'a Launch<'a>),
}

/// `t.c:42 parallel loop`, or an API routine's name.
fn label(ctx: &Ctx) -> String {
    match ctx.loc {
        Some(l) if !l.file.is_empty() => format!("{}:{} {}", l.file, l.line, l.construct),
        Some(l) => l.construct.clone(),
        None => String::new(),
    }
}

/// `t.c:42 ` (with the space), or an API routine's name and a space.
fn site(ctx: &Ctx) -> String {
    match ctx.loc {
        Some(l) if !l.file.is_empty() => format!("{}:{} ", l.file, l.line),
        Some(l) => format!("{} ", l.construct),
        None => String::new(),
    }
}

/// The range a start event opens: its name, kind and arguments.
pub fn range(e: c_int, ctx: &Ctx, what: &What) -> (String, &'static str, Vec<(&'static str, Arg)>) {
    let own = |kind: c_int| construct_of(ctx.loc) == kind || construct_of(ctx.loc) == 15;
    let mut args = Vec::new();
    if ctx.async_ >= 0 {
        args.push(("async", Arg::Int(ctx.async_ as u64)));
    }
    let (name, cat) = match (e, what) {
        (ev::COMPUTE_CONSTRUCT_START, _) => (label(ctx), "compute"),
        (ev::ENTER_DATA_START, _) if own(4) => (label(ctx), "data"),
        (ev::ENTER_DATA_START, _) => (format!("{} enter", label(ctx)), "data"),
        (ev::EXIT_DATA_START, _) if own(5) => (label(ctx), "data"),
        (ev::EXIT_DATA_START, _) => (format!("{} exit", label(ctx)), "data"),
        (ev::UPDATE_START, _) => (label(ctx), "update"),
        (ev::WAIT_START, _) => (label(ctx), "wait"),
        (ev::ENQUEUE_LAUNCH_START, What::Launch(l)) => {
            args.push(("gangs", Arg::Int(u64::from(l.grid.iter().product::<u32>()))));
            args.push((
                "threads",
                Arg::Int(u64::from(l.block.iter().product::<u32>())),
            ));
            (format!("{}launch {}", site(ctx), l.kernel), "launch")
        }
        (ev::ENQUEUE_UPLOAD_START | ev::ENQUEUE_DOWNLOAD_START, What::Data(d)) => {
            let dir = if e == ev::ENQUEUE_UPLOAD_START {
                "upload"
            } else {
                "download"
            };
            args.push(("bytes", Arg::Int(d.bytes as u64)));
            let routine = ctx.loc.is_some_and(|l| l.file.is_empty());
            let name = if routine {
                format!("{}{dir}", site(ctx))
            } else {
                format!("{}{dir} {}", site(ctx), (d.name)())
            };
            (name, dir)
        }
        _ => (label(ctx), "other"),
    };
    (name, cat, args)
}

fn is_end(e: c_int) -> bool {
    matches!(
        e,
        ev::COMPUTE_CONSTRUCT_END
            | ev::ENTER_DATA_END
            | ev::EXIT_DATA_END
            | ev::UPDATE_END
            | ev::ENQUEUE_LAUNCH_END
            | ev::ENQUEUE_UPLOAD_END
            | ev::ENQUEUE_DOWNLOAD_END
            | ev::WAIT_END
    )
}

/// Event `e` for the range clients (called by [`crate::prof`]'s emitters
/// once the event's bit is known to be set).
pub fn event(e: c_int, ctx: &Ctx, what: &What) {
    if EVENTS & (1 << e) == 0 {
        return;
    }
    let (nvtx, trace) = (crate::nvtx::enabled(), crate::trace::enabled());
    if !nvtx && !trace {
        return;
    }
    if is_end(e) {
        if nvtx {
            crate::nvtx::pop();
        }
        if trace {
            crate::trace::end();
        }
        return;
    }
    let (name, cat, args) = range(e, ctx, what);
    if nvtx {
        crate::nvtx::push(&name);
    }
    if trace {
        crate::trace::begin(name, cat, args);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::abi::SrcLoc;
    use crate::device::DeviceId;
    use crate::nvtx::{self, Api};
    use crate::queue::Queue;
    use std::cell::RefCell;
    use std::ffi::{c_char, CStr};

    thread_local! {
        /// What the fake NVTX saw: "+name" per push, "-" per pop.
        static SEEN: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
    }

    unsafe extern "C" fn fake_push(name: *const c_char) -> c_int {
        // SAFETY: the client passes a NUL-terminated name.
        let n = unsafe { CStr::from_ptr(name) }
            .to_string_lossy()
            .into_owned();
        SEEN.with(|s| s.borrow_mut().push(format!("+{n}")));
        0
    }

    unsafe extern "C" fn fake_pop() -> c_int {
        SEEN.with(|s| s.borrow_mut().push("-".into()));
        0
    }

    fn at(line: i32, construct: &str) -> SrcLoc {
        SrcLoc {
            file: "t.c".into(),
            line,
            construct: construct.into(),
        }
    }

    #[test]
    fn nvtx_ranges_are_named_and_balanced() {
        nvtx::fake(Some(Api {
            push: fake_push,
            pop: fake_pop,
        }));
        let (par, upd, wait) = (at(3, "parallel loop"), at(7, "update"), at(9, "wait"));
        let dev = DeviceId::Nvidia(0);
        let c = Ctx::on(&par, dev, Queue::Sync);
        let name = || "a[0:n]".to_string();
        let d = Data {
            name: &name,
            bytes: 64,
            host: 0,
            device: 0,
            implicit: false,
        };
        let l = Launch {
            kernel: "k",
            grid: [2, 1, 1],
            block: [128, 1, 1],
        };
        event(ev::COMPUTE_CONSTRUCT_START, &c, &What::Other);
        event(ev::ENTER_DATA_START, &c, &What::Other);
        event(ev::ENQUEUE_UPLOAD_START, &c, &What::Data(&d));
        event(ev::ENQUEUE_UPLOAD_END, &c, &What::Data(&d));
        event(ev::ENTER_DATA_END, &c, &What::Other);
        event(ev::ENQUEUE_LAUNCH_START, &c, &What::Launch(&l));
        event(ev::ENQUEUE_LAUNCH_END, &c, &What::Launch(&l));
        event(ev::EXIT_DATA_START, &c, &What::Other);
        event(ev::EXIT_DATA_END, &c, &What::Other);
        event(ev::COMPUTE_CONSTRUCT_END, &c, &What::Other);
        let cu = Ctx::on(&upd, dev, Queue::Id(1));
        event(ev::UPDATE_START, &cu, &What::Other);
        event(ev::ENQUEUE_DOWNLOAD_START, &cu, &What::Data(&d));
        event(ev::ENQUEUE_DOWNLOAD_END, &cu, &What::Data(&d));
        event(ev::UPDATE_END, &cu, &What::Other);
        let cw = Ctx::on(&wait, dev, Queue::Sync);
        event(ev::WAIT_START, &cw, &What::Other);
        event(ev::WAIT_END, &cw, &What::Other);
        // An end with nothing open pops nothing; other events push nothing.
        event(ev::WAIT_END, &cw, &What::Other);
        event(ev::DEVICE_INIT_START, &cw, &What::Other);
        nvtx::fake(None);
        let seen = SEEN.with(|s| s.borrow().clone());
        assert_eq!(
            seen,
            [
                "+t.c:3 parallel loop",
                "+t.c:3 parallel loop enter",
                "+t.c:3 upload a[0:n]",
                "-",
                "-",
                "+t.c:3 launch k",
                "-",
                "+t.c:3 parallel loop exit",
                "-",
                "-",
                "+t.c:7 update",
                "+t.c:7 download a[0:n]",
                "-",
                "-",
                "+t.c:9 wait",
                "-",
            ]
        );
        let depth = seen
            .iter()
            .try_fold(0i32, |d, s| {
                let d = if s == "-" { d - 1 } else { d + 1 };
                (d >= 0).then_some(d)
            })
            .unwrap();
        assert_eq!(depth, 0);
    }

    #[test]
    fn api_routines_and_directives_are_named_by_themselves() {
        let enter = at(4, "enter data");
        let c = Ctx::on(&enter, DeviceId::Nvidia(0), Queue::Sync);
        assert_eq!(
            range(ev::ENTER_DATA_START, &c, &What::Other).0,
            "t.c:4 enter data"
        );
        let data = at(5, "data");
        let c = Ctx::on(&data, DeviceId::Nvidia(0), Queue::Sync);
        assert_eq!(
            range(ev::EXIT_DATA_START, &c, &What::Other).0,
            "t.c:5 data exit"
        );
        let api = SrcLoc::routine("acc_copyin");
        let c = Ctx::on(&api, DeviceId::Nvidia(0), Queue::Id(2));
        let name = || "ignored".to_string();
        let d = Data {
            name: &name,
            bytes: 8,
            host: 0,
            device: 0,
            implicit: false,
        };
        let (n, cat, args) = range(ev::ENQUEUE_UPLOAD_START, &c, &What::Data(&d));
        assert_eq!((n.as_str(), cat), ("acc_copyin upload", "upload"));
        assert_eq!(args, [("async", Arg::Int(2)), ("bytes", Arg::Int(8))]);
        assert_eq!(
            range(ev::ENTER_DATA_START, &c, &What::Other).0,
            "acc_copyin"
        );
    }
}
