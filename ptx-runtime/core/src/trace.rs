//! The trace file of `PTXRT_TRACE=out.json`: a Chrome trace-event JSON
//! (`{"traceEvents":[…]}`, complete events `"ph":"X"` with `ts` and `dur`
//! in microseconds, as ui.perfetto.dev and chrome://tracing open) of the
//! host's and the devices' activity.
//!
//! Rows: process 0 ("host") has one row per host thread (tid: the order in
//! which threads first had an event), with the ranges of
//! [`crate::ranges`] (constructs, their data entry and exit, updates,
//! transfers, launches, waits: what the thread spent there, nested as they
//! nest). Process 1 + n ("device n: name") has one row per queue of
//! NVIDIA device n: tid 0 the synchronous (default) queue, tid 1 + q async
//! queue q; process 1000 the multicore device. Their spans are the
//! kernels and copies [`crate::timing`] measures: work of an async queue
//! between the two device events recorded around it on the queue's
//! stream, converted to the host clock with one calibration pair per
//! device ([`Calibration`]: a device event recorded and waited for, and
//! the host time then); synchronous work on the host clock (a
//! synchronous kernel from before its launch to its completion: the
//! trace, like `PTXRT_TIME`, makes each synchronous construct wait for its
//! kernels).
//!
//! Timestamps are microseconds since the runtime started ([`now_us`]).
//! Events are kept in memory (behind the leaf lock [`TRACE`], never held
//! while calling anything else) and written once, at exit ([`write`],
//! from an `atexit` hook registered by [`init`] before the timing's own
//! hook, so the timing reads the devices' last events first).
//!
//! Owns: the switch (`PTXRT_TRACE`, read once: [`enabled`]), the host
//! clock's origin, the per-thread stacks of open host ranges, the events,
//! the JSON writer ([`render`]) and the calibration arithmetic.
//! May call: [`crate::abi`] (source locations), [`crate::profile`] (what
//! an operation is), [`crate::device`] (device ids), libc (atexit).

use crate::device::DeviceId;
use crate::profile::{Key, Op};
use std::cell::RefCell;
use std::ffi::c_int;
use std::fmt::Write as _;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Mutex, MutexGuard, Once, OnceLock};
use std::time::Instant;

/// A value of an event's `args`.
#[derive(Clone, Debug, PartialEq)]
pub enum Arg {
    Str(String),
    Int(u64),
}

/// One complete event (`"ph":"X"`).
#[derive(Clone, Debug, PartialEq)]
pub struct Event {
    pub name: String,
    /// Its kind: compute, data, update, upload, download, launch, wait,
    /// kernel.
    pub cat: &'static str,
    pub ts: f64,
    pub dur: f64,
    pub pid: u32,
    pub tid: u32,
    pub args: Vec<(&'static str, Arg)>,
}

/// The events of the run and the rows' names ((pid, tid) → name; tid
/// `None`: the process's name).
#[derive(Debug, Default)]
pub struct Trace {
    pub events: Vec<Event>,
    pub names: Vec<(u32, Option<u32>, String)>,
}

impl Trace {
    const fn new() -> Trace {
        Trace {
            events: Vec::new(),
            names: Vec::new(),
        }
    }

    /// Name row (pid, tid) once.
    fn name(&mut self, pid: u32, tid: Option<u32>, name: impl FnOnce() -> String) {
        if !self.names.iter().any(|(p, t, _)| *p == pid && *t == tid) {
            self.names.push((pid, tid, name()));
        }
    }
}

static TRACE: Mutex<Trace> = Mutex::new(Trace::new());

fn trace() -> MutexGuard<'static, Trace> {
    TRACE.lock().unwrap_or_else(|e| e.into_inner())
}

/// The variable naming the file.
pub const VARIABLE: &str = "PTXRT_TRACE";

/// The file to write, if `PTXRT_TRACE` names one (read once).
pub fn path() -> Option<&'static str> {
    static PATH: OnceLock<Option<String>> = OnceLock::new();
    PATH.get_or_init(|| std::env::var(VARIABLE).ok().filter(|v| !v.is_empty()))
        .as_deref()
}

/// Whether the trace is on.
pub fn enabled() -> bool {
    path().is_some()
}

/// The host clock's origin.
fn origin() -> Instant {
    static T0: OnceLock<Instant> = OnceLock::new();
    *T0.get_or_init(Instant::now)
}

/// Microseconds from the origin to `t` (0 for a time before it).
pub fn us_at(t: Instant) -> f64 {
    t.saturating_duration_since(origin()).as_secs_f64() * 1e6
}

/// Microseconds since the origin.
pub fn now_us() -> f64 {
    us_at(Instant::now())
}

/// A host range not closed yet.
struct Open {
    name: String,
    cat: &'static str,
    ts: f64,
    args: Vec<(&'static str, Arg)>,
}

thread_local! {
    /// This thread's open ranges, innermost last.
    static OPEN: RefCell<Vec<Open>> = const { RefCell::new(Vec::new()) };
    /// This thread's row (u32::MAX: none yet).
    static TID: std::cell::Cell<u32> = const { std::cell::Cell::new(u32::MAX) };
}

/// The calling thread's row on the host.
fn host_tid() -> u32 {
    static NEXT: AtomicU32 = AtomicU32::new(0);
    TID.try_with(|t| {
        if t.get() == u32::MAX {
            t.set(NEXT.fetch_add(1, Ordering::Relaxed));
        }
        t.get()
    })
    .unwrap_or(0)
}

/// A host range of the calling thread starts now.
pub fn begin(name: String, cat: &'static str, args: Vec<(&'static str, Arg)>) {
    let ts = now_us();
    let _ = OPEN.try_with(|o| {
        o.borrow_mut().push(Open {
            name,
            cat,
            ts,
            args,
        })
    });
}

/// The calling thread's innermost open range ends now (nothing when none
/// is open).
pub fn end() {
    let Some(open) = OPEN.try_with(|o| o.borrow_mut().pop()).ok().flatten() else {
        return;
    };
    let end = now_us();
    let tid = host_tid();
    let mut t = trace();
    t.name(0, None, || "host".into());
    t.name(0, Some(tid), || format!("host thread {tid}"));
    t.events.push(Event {
        name: open.name,
        cat: open.cat,
        ts: open.ts,
        dur: (end - open.ts).max(0.0),
        pid: 0,
        tid,
        args: open.args,
    });
}

/// The process of device `id`'s rows (`None`: the host device, which has
/// none), and its name.
fn device_pid(id: DeviceId) -> Option<(u32, String)> {
    match id {
        DeviceId::Host => None,
        DeviceId::Multicore => Some((1000, "multicore device".into())),
        DeviceId::Nvidia(n) => Some((1 + n.max(0) as u32, format!("device {n}"))),
    }
}

/// Kernel or copy `op` of the construct `key`, on queue `queue` (`None`:
/// synchronous) of device `id`, from `ts` for `dur` microseconds.
pub fn device_span(id: DeviceId, queue: Option<u32>, key: &Key, op: Op, ts: f64, dur: f64) {
    let Some((pid, pname)) = device_pid(id) else {
        return;
    };
    let (name, cat, args) = match op {
        Op::Kernel => (key.label(), "kernel", Vec::new()),
        Op::ToDevice(b) => (
            format!("{} upload", key.label()),
            "upload",
            vec![("bytes", Arg::Int(b))],
        ),
        Op::ToHost(b) => (
            format!("{} download", key.label()),
            "download",
            vec![("bytes", Arg::Int(b))],
        ),
    };
    let tid = queue.map_or(0, |q| q.saturating_add(1));
    let mut t = trace();
    t.name(pid, None, || pname);
    t.name(pid, Some(tid), || match queue {
        None => "default queue".into(),
        Some(q) => format!("queue {q}"),
    });
    t.events.push(Event {
        name,
        cat,
        ts,
        dur: dur.max(0.0),
        pid,
        tid,
        args,
    });
}

/// Name device `ordinal`'s row (its name from the driver).
pub fn device_named(ordinal: i32, name: &str) {
    if let Some((pid, _)) = device_pid(DeviceId::Nvidia(ordinal)) {
        let mut t = trace();
        t.names.retain(|(p, tid, _)| !(*p == pid && tid.is_none()));
        t.names
            .push((pid, None, format!("device {ordinal}: {name}")));
    }
}

/// One device's calibration: a device event known to have completed at
/// host time `host_us` (the device's clock and the host's are both
/// steady: one pair converts every later event).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Calibration {
    pub host_us: f64,
}

impl Calibration {
    /// The host time of a device event `ms_after` milliseconds (the
    /// driver's elapsed time from the calibration event) after it.
    pub fn host_time(&self, ms_after: f64) -> f64 {
        self.host_us + ms_after * 1e3
    }

    /// The span (start, duration in µs) of work between a start event
    /// `ms_to_start` after the calibration event and an end event
    /// `ms_start_to_end` after the start (the duration is taken from the
    /// pair itself, which the driver measures more precisely than two
    /// long intervals' difference; never negative).
    pub fn span(&self, ms_to_start: f64, ms_start_to_end: f64) -> (f64, f64) {
        (
            self.host_time(ms_to_start),
            (ms_start_to_end * 1e3).max(0.0),
        )
    }
}

/// A JSON string literal of `s`.
pub fn json_str(s: &str) -> String {
    let mut o = String::with_capacity(s.len() + 2);
    o.push('"');
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            '\n' => o.push_str("\\n"),
            '\r' => o.push_str("\\r"),
            '\t' => o.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(o, "\\u{:04x}", c as u32);
            }
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

/// A JSON number of microseconds (three decimals: nanoseconds; 0 for a
/// value JSON cannot write).
fn json_us(v: f64) -> String {
    if v.is_finite() {
        format!("{v:.3}")
    } else {
        "0".into()
    }
}

/// The trace as Chrome trace-event JSON: the rows' names (metadata
/// events), then the events sorted by start time.
pub fn render(t: &Trace) -> String {
    let mut items = Vec::new();
    for (pid, tid, name) in &t.names {
        let args = format!("{{\"name\":{}}}", json_str(name));
        items.push(match tid {
            None => format!("{{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":{pid},\"args\":{args}}}"),
            Some(tid) => format!(
                "{{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":{pid},\"tid\":{tid},\"args\":{args}}}"
            ),
        });
    }
    let mut events: Vec<&Event> = t.events.iter().collect();
    events.sort_by(|a, b| a.ts.total_cmp(&b.ts).then(b.dur.total_cmp(&a.dur)));
    for e in events {
        let mut args = String::new();
        for (i, (k, v)) in e.args.iter().enumerate() {
            if i > 0 {
                args.push(',');
            }
            let v = match v {
                Arg::Str(s) => json_str(s),
                Arg::Int(n) => n.to_string(),
            };
            let _ = write!(args, "{}:{v}", json_str(k));
        }
        items.push(format!(
            "{{\"name\":{},\"cat\":{},\"ph\":\"X\",\"ts\":{},\"dur\":{},\"pid\":{},\"tid\":{},\"args\":{{{args}}}}}",
            json_str(&e.name),
            json_str(e.cat),
            json_us(e.ts),
            json_us(e.dur),
            e.pid,
            e.tid
        ));
    }
    let mut o = String::from("{\"displayTimeUnit\":\"ms\",\"traceEvents\":[\n");
    o.push_str(&items.join(",\n"));
    o.push_str("\n]}\n");
    o
}

/// Write the trace to the file `PTXRT_TRACE` names (a warning line when it
/// cannot be written).
pub fn write() {
    let Some(path) = path() else {
        return;
    };
    let text = render(&trace());
    if let Err(e) = std::fs::write(path, text) {
        eprintln!("accc runtime: warning: {VARIABLE}: cannot write '{path}': {e}");
    }
}

extern "C" {
    fn atexit(f: extern "C" fn()) -> c_int;
}

extern "C" fn write_at_exit() {
    let _ = std::panic::catch_unwind(write);
}

/// Start the trace when it is on: the clock's origin, the exit hook
/// (once; called by [`crate::prof::init`], from the runtime's
/// constructors, so that the timing's hook, registered later, runs first).
pub fn init() {
    static ONCE: Once = Once::new();
    if enabled() {
        ONCE.call_once(|| {
            let _ = origin();
            // SAFETY: a plain extern "C" function that never unwinds.
            unsafe { atexit(write_at_exit) };
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_are_escaped() {
        assert_eq!(json_str("a\"b\\c"), r#""a\"b\\c""#);
        assert_eq!(json_str("t.c:4 x\ny\u{1}"), r#""t.c:4 x\ny\u0001""#);
        assert_eq!(json_str("é"), "\"é\"");
    }

    #[test]
    fn render_writes_names_then_events_by_time() {
        let t = Trace {
            events: vec![
                Event {
                    name: "late".into(),
                    cat: "kernel",
                    ts: 20.0,
                    dur: 1.5,
                    pid: 1,
                    tid: 2,
                    args: vec![],
                },
                Event {
                    name: "t.c:3 upload \"a\"".into(),
                    cat: "upload",
                    ts: 10.25,
                    dur: f64::NAN,
                    pid: 0,
                    tid: 0,
                    args: vec![("bytes", Arg::Int(4096)), ("var", Arg::Str("a".into()))],
                },
            ],
            names: vec![(0, None, "host".into()), (1, Some(2), "queue 1".into())],
        };
        let s = render(&t);
        let want = "{\"displayTimeUnit\":\"ms\",\"traceEvents\":[\n\
{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":0,\"args\":{\"name\":\"host\"}},\n\
{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":2,\"args\":{\"name\":\"queue 1\"}},\n\
{\"name\":\"t.c:3 upload \\\"a\\\"\",\"cat\":\"upload\",\"ph\":\"X\",\"ts\":10.250,\"dur\":0,\"pid\":0,\"tid\":0,\"args\":{\"bytes\":4096,\"var\":\"a\"}},\n\
{\"name\":\"late\",\"cat\":\"kernel\",\"ph\":\"X\",\"ts\":20.000,\"dur\":1.500,\"pid\":1,\"tid\":2,\"args\":{}}\n\
]}\n";
        assert_eq!(s, want);
    }

    #[test]
    fn calibration_converts_device_times() {
        let c = Calibration { host_us: 1000.0 };
        // An event 2.5 ms after the calibration event: 2500 µs later.
        assert_eq!(c.host_time(2.5), 3500.0);
        assert_eq!(c.span(0.5, 0.25), (1500.0, 250.0));
        // Reordered events (negative elapsed time) are clamped, not negative.
        assert_eq!(c.span(1.0, -0.001), (2000.0, 0.0));
    }

    #[test]
    fn host_ranges_nest_per_thread() {
        std::thread::spawn(|| {
            begin("outer".into(), "data", vec![]);
            begin("inner".into(), "upload", vec![]);
            end();
            end();
            end(); // none open: nothing
            let tid = host_tid();
            let t = trace();
            let mine: Vec<&Event> = t
                .events
                .iter()
                .filter(|e| e.pid == 0 && e.tid == tid)
                .collect();
            assert_eq!(mine.len(), 2);
            assert_eq!(
                (mine[0].name.as_str(), mine[1].name.as_str()),
                ("inner", "outer")
            );
            assert!(
                mine[1].ts <= mine[0].ts && mine[0].ts + mine[0].dur <= mine[1].ts + mine[1].dur
            );
        })
        .join()
        .unwrap();
    }
}
