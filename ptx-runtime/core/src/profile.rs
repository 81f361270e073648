//! The runtime profile of `PTXRT_TIME=1`: for each compute construct, data
//! construct or API routine (a "region", keyed by source file, line and
//! construct name, or by routine name), its kernel launches and its
//! transfers host → device and device → host, and the table printed at
//! exit ([`Profile::render`]).
//!
//! An operation is counted when it is issued ([`record`]); its time comes
//! with it (synchronous work, timed on the host clock) or later
//! ([`record_times`]: work of an async queue, timed by a pair of device
//! events that [`crate::timing`] reads once the queue has got there). An
//! operation whose time never came (its events could not be read before
//! the program ended) is counted, not timed: its time cell says `-`
//! (nothing of the row's was timed) or ends in `*` (part of it was).
//!
//! Owns: the switch (`PTXRT_TIME`, or nvc's `NV_ACC_TIME` when it is not
//! set: [`VARIABLES`], read once: [`table_enabled`]; `PTXRT_TRACE` also
//! turns the measures on: [`enabled`]), the records
//! ([`Profile`], one per process behind the leaf lock [`PROFILE`]) and the
//! table's format. Lock order: [`PROFILE`] is a leaf: taken with or without
//! the runtime lock, never held while calling anything else.
//! May call: [`crate::abi`] (source locations), [`crate::notify`] (how a
//! switch is read).

use crate::abi::SrcLoc;
use std::collections::BTreeMap;
use std::fmt::Write;
use std::sync::{Mutex, MutexGuard, OnceLock};

/// One operation of a region.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Kernel,
    /// A transfer host → device of so many bytes.
    ToDevice(u64),
    /// A transfer device → host of so many bytes.
    ToHost(u64),
}

/// What a region is: a construct at a source line, or an API routine.
/// Orders constructs by file and line, routines after them by name.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Key {
    routine: bool,
    file: String,
    line: i32,
    construct: String,
}

impl Key {
    pub fn of(loc: &SrcLoc) -> Key {
        Key {
            routine: loc.file.is_empty(),
            file: loc.file.clone(),
            line: loc.line,
            construct: loc.construct.clone(),
        }
    }

    /// `t.c:12 parallel loop`, or the routine's name.
    pub fn label(&self) -> String {
        if self.routine {
            self.construct.clone()
        } else {
            format!("{}:{} {}", self.file, self.line, self.construct)
        }
    }
}

/// Operations of one kind: how many, their bytes, how many of them were
/// timed and their total time.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Stat {
    pub count: u64,
    pub bytes: u64,
    pub timed: u64,
    pub ms: f64,
}

impl Stat {
    fn add(&mut self, o: &Stat) {
        self.count += o.count;
        self.bytes += o.bytes;
        self.timed += o.timed;
        self.ms += o.ms;
    }
}

/// The operations of one region.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Row {
    pub kernels: Stat,
    pub to_device: Stat,
    pub to_host: Stat,
}

impl Row {
    fn stat(&mut self, op: Op) -> &mut Stat {
        match op {
            Op::Kernel => &mut self.kernels,
            Op::ToDevice(_) => &mut self.to_device,
            Op::ToHost(_) => &mut self.to_host,
        }
    }

    fn add(&mut self, o: &Row) {
        self.kernels.add(&o.kernels);
        self.to_device.add(&o.to_device);
        self.to_host.add(&o.to_host);
    }
}

/// The profile of a run: the devices used and the regions' operations.
#[derive(Debug, Default)]
pub struct Profile {
    devices: BTreeMap<i32, String>,
    rows: BTreeMap<Key, Row>,
}

const HEAD: [&str; 10] = [
    "region",
    "launches",
    "kernel ms",
    "avg ms",
    "h2d",
    "h2d bytes",
    "h2d ms",
    "d2h",
    "d2h bytes",
    "d2h ms",
];

/// The first words of the table.
pub const TITLE: &str = "accc runtime profile (PTXRT_TIME=1)";

/// `1234 B`, `1.50 KiB`, `7.63 MiB`, `2.00 GiB`.
pub fn format_bytes(b: u64) -> String {
    const UNITS: [&str; 3] = ["KiB", "MiB", "GiB"];
    if b < 1024 {
        return format!("{b} B");
    }
    let mut v = b as f64 / 1024.0;
    let mut u = 0;
    while v >= 1024.0 && u + 1 < UNITS.len() {
        v /= 1024.0;
        u += 1;
    }
    format!("{v:.2} {}", UNITS[u])
}

/// The total time of `s` in ms; `-` when none of it was timed, a `*` after
/// it when only part was.
fn time_cell(s: &Stat) -> String {
    match s.timed {
        0 => "-".into(),
        t if t == s.count => format!("{:.3}", s.ms),
        _ => format!("{:.3}*", s.ms),
    }
}

/// The cells of a row (blank where the region did nothing of a kind).
fn cells(label: String, r: &Row) -> Vec<String> {
    let mut c = vec![label];
    let k = &r.kernels;
    if k.count == 0 {
        c.extend([String::new(), String::new(), String::new()]);
    } else {
        let avg = match k.timed {
            0 => "-".into(),
            t => format!("{:.3}", k.ms / t as f64),
        };
        c.extend([k.count.to_string(), time_cell(k), avg]);
    }
    for s in [&r.to_device, &r.to_host] {
        if s.count == 0 {
            c.extend([String::new(), String::new(), String::new()]);
        } else {
            c.extend([s.count.to_string(), format_bytes(s.bytes), time_cell(s)]);
        }
    }
    c
}

/// Lay out `rows` in columns: the first left-aligned, the others right-aligned.
fn columns(rows: &[Vec<String>]) -> String {
    let n = rows.iter().map(Vec::len).max().unwrap_or(0);
    let width: Vec<usize> = (0..n)
        .map(|i| {
            rows.iter()
                .map(|r| r.get(i).map_or(0, |c| c.chars().count()))
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for r in rows {
        let mut line = String::new();
        for (i, c) in r.iter().enumerate() {
            if i == 0 {
                let _ = write!(line, "{c:<w$}", w = width[0]);
            } else {
                let _ = write!(line, "  {c:>w$}", w = width[i]);
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

impl Profile {
    pub const fn new() -> Profile {
        Profile {
            devices: BTreeMap::new(),
            rows: BTreeMap::new(),
        }
    }

    /// Device `ordinal`, named `name`, was used.
    pub fn device(&mut self, ordinal: i32, name: &str) {
        self.devices.insert(ordinal, name.to_string());
    }

    /// One operation `op` of region `key`, timed `ms` when known now.
    pub fn add(&mut self, key: Key, op: Op, ms: Option<f64>) {
        let s = self.rows.entry(key).or_default().stat(op);
        s.count += 1;
        s.bytes += match op {
            Op::Kernel => 0,
            Op::ToDevice(b) | Op::ToHost(b) => b,
        };
        if let Some(ms) = ms {
            s.timed += 1;
            s.ms += ms;
        }
    }

    /// The time of an operation [`Profile::add`] counted without one.
    pub fn add_time(&mut self, key: &Key, op: Op, ms: f64) {
        if let Some(r) = self.rows.get_mut(key) {
            let s = r.stat(op);
            if s.timed < s.count {
                s.timed += 1;
                s.ms += ms;
            }
        }
    }

    /// The operations of region `key` so far.
    pub fn row(&self, key: &Key) -> Option<Row> {
        self.rows.get(key).copied()
    }

    /// The first line: the title and the devices used.
    fn title(&self) -> String {
        let devs: Vec<String> = self
            .devices
            .iter()
            .map(|(n, name)| format!("{n} {name}"))
            .collect();
        match devs.len() {
            0 => TITLE.to_string(),
            1 => format!("{TITLE}: device {}", devs[0]),
            _ => format!("{TITLE}: devices {}", devs.join(", ")),
        }
    }

    /// The table printed at exit (ends with a newline).
    pub fn render(&self) -> String {
        if self.rows.is_empty() {
            if self.devices.is_empty() {
                return format!("{TITLE}: no device work (every construct ran on the host)\n");
            }
            return format!("{}\nno kernel launches or transfers\n", self.title());
        }
        let mut rows = vec![HEAD.iter().map(|s| s.to_string()).collect::<Vec<_>>()];
        let mut total = Row::default();
        for (k, r) in &self.rows {
            rows.push(cells(k.label(), r));
            total.add(r);
        }
        let last = cells("total".into(), &total);
        let partial = rows.iter().chain([&last]).any(|r| {
            [2, 3, 6, 9]
                .iter()
                .any(|&i| r.get(i).is_some_and(|c| c == "-" || c.ends_with('*')))
        });
        rows.push(last);
        let mut out = format!("{}\n{}", self.title(), columns(&rows));
        if partial {
            out.push_str(
                "(-: not timed, *: partly timed: async work whose device events were not read before exit)\n",
            );
        }
        out
    }
}

/// The profile of this process.
pub static PROFILE: Mutex<Profile> = Mutex::new(Profile::new());

/// Take [`PROFILE`] (a poisoned lock is still usable: records are plain
/// counters).
fn profile() -> MutexGuard<'static, Profile> {
    PROFILE.lock().unwrap_or_else(|e| e.into_inner())
}

#[cfg(test)]
thread_local! {
    /// Tests switch profiling on for their thread only.
    static FORCE: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Switch profiling on for the calling thread (tests).
#[cfg(test)]
pub fn force(on: bool) {
    FORCE.with(|f| f.set(on));
}

/// The variables that switch the profile on, accc's first (it wins when
/// both are set).
pub const VARIABLES: [&str; 2] = ["PTXRT_TIME", "NV_ACC_TIME"];

/// Whether work is measured: `PTXRT_TIME` (or `NV_ACC_TIME`) is on, or
/// the trace ([`crate::trace`], whose device rows are these measures).
pub fn enabled() -> bool {
    let on = table_enabled() || crate::trace::enabled();
    #[cfg(test)]
    let on = on || FORCE.with(std::cell::Cell::get);
    on
}

/// Whether `PTXRT_TIME` (or `NV_ACC_TIME`) is on: the table at exit (read
/// once).
pub fn table_enabled() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| crate::notify::alias_flag(&VARIABLES, &crate::notify::process_env))
}

/// Device `ordinal` (named `name`) was opened.
pub fn device_opened(ordinal: i32, name: &str) {
    if crate::trace::enabled() {
        crate::trace::device_named(ordinal, name);
    }
    if enabled() {
        profile().device(ordinal, name);
    }
}

/// One operation of the construct or routine at `loc` (`ms`: its time when
/// known now).
pub fn record(loc: &SrcLoc, op: Op, ms: Option<f64>) {
    let key = Key::of(loc);
    profile().add(key, op, ms);
}

/// The times of operations recorded earlier without one.
pub fn record_times(times: &[(Key, Op, f64)]) {
    if times.is_empty() {
        return;
    }
    let mut p = profile();
    for (k, op, ms) in times {
        p.add_time(k, *op, *ms);
    }
}

/// The operations of the construct or routine at `loc` so far.
pub fn row_of(loc: &SrcLoc) -> Option<Row> {
    profile().row(&Key::of(loc))
}

/// The table of the run so far.
pub fn report() -> String {
    profile().render()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(file: &str, line: i32, construct: &str) -> Key {
        Key::of(&SrcLoc {
            file: file.into(),
            line,
            construct: construct.into(),
        })
    }

    #[test]
    fn bytes() {
        assert_eq!(format_bytes(0), "0 B");
        assert_eq!(format_bytes(1023), "1023 B");
        assert_eq!(format_bytes(1536), "1.50 KiB");
        assert_eq!(format_bytes(8_000_000), "7.63 MiB");
        assert_eq!(format_bytes(3 << 30), "3.00 GiB");
        assert_eq!(format_bytes(5 << 40), "5120.00 GiB");
    }

    #[test]
    fn aggregates_per_region() {
        let mut p = Profile::new();
        let k = at("t.c", 12, "parallel loop");
        p.add(k.clone(), Op::Kernel, Some(2.0));
        p.add(k.clone(), Op::Kernel, Some(4.0));
        p.add(k.clone(), Op::ToDevice(100), Some(0.5));
        p.add(k.clone(), Op::ToHost(40), None);
        p.add_time(&k, Op::ToHost(40), 0.25);
        // A time with no untimed operation left is ignored.
        p.add_time(&k, Op::ToHost(40), 9.0);
        p.add_time(&at("u.c", 1, "data"), Op::Kernel, 1.0);
        let r = p.row(&k).unwrap();
        assert_eq!(
            r.kernels,
            Stat {
                count: 2,
                bytes: 0,
                timed: 2,
                ms: 6.0
            }
        );
        assert_eq!((r.to_device.count, r.to_device.bytes), (1, 100));
        assert_eq!(
            r.to_host,
            Stat {
                count: 1,
                bytes: 40,
                timed: 1,
                ms: 0.25
            }
        );
        assert_eq!(p.row(&at("u.c", 1, "data")), None);
    }

    #[test]
    fn renders_the_table() {
        let mut p = Profile::new();
        p.device(0, "NVIDIA H100 80GB HBM3");
        let k = at("t.c", 12, "parallel loop");
        for _ in 0..4 {
            p.add(k.clone(), Op::Kernel, Some(0.5));
        }
        let d = at("t.c", 10, "data");
        p.add(d.clone(), Op::ToDevice(8_000_000), Some(1.25));
        p.add(d.clone(), Op::ToDevice(8_000_000), Some(1.25));
        p.add(d.clone(), Op::ToHost(4_000_000), Some(0.75));
        p.add(
            Key::of(&SrcLoc::routine("acc_copyin")),
            Op::ToDevice(400),
            Some(0.01),
        );
        let want = "\
accc runtime profile (PTXRT_TIME=1): device 0 NVIDIA H100 80GB HBM3
region                launches  kernel ms  avg ms  h2d  h2d bytes  h2d ms  d2h  d2h bytes  d2h ms
t.c:10 data                                          2  15.26 MiB   2.500    1   3.81 MiB   0.750
t.c:12 parallel loop         4      2.000   0.500
acc_copyin                                           1      400 B   0.010
total                        4      2.000   0.500    3  15.26 MiB   2.510    1   3.81 MiB   0.750
";
        assert_eq!(p.render(), want);
    }

    #[test]
    fn marks_untimed_work() {
        let mut p = Profile::new();
        p.device(0, "A");
        p.device(1, "B");
        let k = at("t.c", 3, "kernels");
        p.add(k.clone(), Op::Kernel, None);
        p.add(k.clone(), Op::ToHost(8), Some(1.0));
        p.add(k.clone(), Op::ToHost(8), None);
        let text = p.render();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[0],
            "accc runtime profile (PTXRT_TIME=1): devices 0 A, 1 B"
        );
        assert_eq!(
            lines[2].split_whitespace().collect::<Vec<_>>(),
            ["t.c:3", "kernels", "1", "-", "-", "2", "16", "B", "1.000*"]
        );
        assert!(lines[4].starts_with("(-: not timed, *: partly timed"));
        assert_eq!(lines.len(), 5);
    }

    #[test]
    fn no_device_work() {
        assert_eq!(
            Profile::new().render(),
            "accc runtime profile (PTXRT_TIME=1): no device work (every construct ran on the host)\n"
        );
        let mut p = Profile::new();
        p.device(0, "X");
        assert_eq!(
            p.render(),
            "accc runtime profile (PTXRT_TIME=1): device 0 X\nno kernel launches or transfers\n"
        );
    }
}
