//! The trace file (`PTXRT_TRACE`) and the NVTX ranges (`PTXRT_NVTX`) end to
//! end, on the emulated device: `tests/programs/trace_async.c` (a data
//! region, a kernel on the default queue, an async kernel with its copies
//! on queue 1, a wait) run with `PTXRT_TRACE`, its file parsed (a small
//! JSON reader below) and its events checked in order, and
//! `scripts/trace-summary.py` run on it when python3 is there; with
//! `PTXRT_NVTX=1` and no NVTX library the program's output and status are
//! unchanged; with `tests/trace/nvtx_tool.c` as the NVTX injection library
//! (`NVTX_INJECTION64_PATH`, as Nsight Systems attaches) the tool sees
//! every range, named, pushed and popped in balance.

mod common;

use common::{emu, run, tests_dir, Run, RUN_TIMEOUT};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A JSON value (enough of JSON for the trace file).
#[derive(Clone, Debug, PartialEq)]
enum Json {
    Null,
    Bool(bool),
    Num(f64),
    Str(String),
    Arr(Vec<Json>),
    Obj(BTreeMap<String, Json>),
}

impl Json {
    fn get(&self, k: &str) -> Option<&Json> {
        match self {
            Json::Obj(m) => m.get(k),
            _ => None,
        }
    }
    fn str(&self, k: &str) -> &str {
        match self.get(k) {
            Some(Json::Str(s)) => s,
            _ => "",
        }
    }
    fn num(&self, k: &str) -> f64 {
        match self.get(k) {
            Some(Json::Num(n)) => *n,
            _ => f64::NAN,
        }
    }
}

/// Parses one JSON text (whole input), or says where it is wrong.
fn parse_json(s: &str) -> Result<Json, String> {
    struct P<'a> {
        b: &'a [u8],
        i: usize,
    }
    impl P<'_> {
        fn ws(&mut self) {
            while self.i < self.b.len() && self.b[self.i].is_ascii_whitespace() {
                self.i += 1;
            }
        }
        fn err<T>(&self, what: &str) -> Result<T, String> {
            Err(format!("byte {}: {what}", self.i))
        }
        fn eat(&mut self, c: u8) -> Result<(), String> {
            self.ws();
            if self.b.get(self.i) == Some(&c) {
                self.i += 1;
                Ok(())
            } else {
                self.err(&format!("expected '{}'", c as char))
            }
        }
        fn string(&mut self) -> Result<String, String> {
            self.eat(b'"')?;
            let mut o = String::new();
            loop {
                let Some(&c) = self.b.get(self.i) else {
                    return self.err("unterminated string");
                };
                self.i += 1;
                match c {
                    b'"' => return Ok(o),
                    b'\\' => {
                        let e = self.b.get(self.i).copied();
                        self.i += 1;
                        match e {
                            Some(b'"') => o.push('"'),
                            Some(b'\\') => o.push('\\'),
                            Some(b'/') => o.push('/'),
                            Some(b'n') => o.push('\n'),
                            Some(b't') => o.push('\t'),
                            Some(b'r') => o.push('\r'),
                            Some(b'b') => o.push('\u{8}'),
                            Some(b'f') => o.push('\u{c}'),
                            Some(b'u') => {
                                let h = std::str::from_utf8(&self.b[self.i..self.i + 4])
                                    .map_err(|e| e.to_string())?;
                                let v = u32::from_str_radix(h, 16).map_err(|e| e.to_string())?;
                                o.push(char::from_u32(v).unwrap_or('\u{fffd}'));
                                self.i += 4;
                            }
                            _ => return self.err("bad escape"),
                        }
                    }
                    c if c < 0x20 => return self.err("control character in a string"),
                    _ => {
                        // Copy one UTF-8 sequence.
                        let start = self.i - 1;
                        let mut end = self.i;
                        while end < self.b.len() && (self.b[end] & 0xc0) == 0x80 {
                            end += 1;
                        }
                        o.push_str(
                            std::str::from_utf8(&self.b[start..end]).map_err(|e| e.to_string())?,
                        );
                        self.i = end;
                    }
                }
            }
        }
        fn value(&mut self) -> Result<Json, String> {
            self.ws();
            match self.b.get(self.i) {
                Some(b'{') => {
                    self.i += 1;
                    let mut m = BTreeMap::new();
                    self.ws();
                    if self.b.get(self.i) == Some(&b'}') {
                        self.i += 1;
                        return Ok(Json::Obj(m));
                    }
                    loop {
                        let k = self.string()?;
                        self.eat(b':')?;
                        let v = self.value()?;
                        if m.insert(k, v).is_some() {
                            return self.err("duplicate key");
                        }
                        self.ws();
                        match self.b.get(self.i) {
                            Some(b',') => self.i += 1,
                            Some(b'}') => {
                                self.i += 1;
                                return Ok(Json::Obj(m));
                            }
                            _ => return self.err("expected ',' or '}'"),
                        }
                    }
                }
                Some(b'[') => {
                    self.i += 1;
                    let mut v = Vec::new();
                    self.ws();
                    if self.b.get(self.i) == Some(&b']') {
                        self.i += 1;
                        return Ok(Json::Arr(v));
                    }
                    loop {
                        v.push(self.value()?);
                        self.ws();
                        match self.b.get(self.i) {
                            Some(b',') => self.i += 1,
                            Some(b']') => {
                                self.i += 1;
                                return Ok(Json::Arr(v));
                            }
                            _ => return self.err("expected ',' or ']'"),
                        }
                    }
                }
                Some(b'"') => Ok(Json::Str(self.string()?)),
                Some(b't') if self.b[self.i..].starts_with(b"true") => {
                    self.i += 4;
                    Ok(Json::Bool(true))
                }
                Some(b'f') if self.b[self.i..].starts_with(b"false") => {
                    self.i += 5;
                    Ok(Json::Bool(false))
                }
                Some(b'n') if self.b[self.i..].starts_with(b"null") => {
                    self.i += 4;
                    Ok(Json::Null)
                }
                Some(c) if *c == b'-' || c.is_ascii_digit() => {
                    let start = self.i;
                    while self.i < self.b.len()
                        && matches!(
                            self.b[self.i],
                            b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9'
                        )
                    {
                        self.i += 1;
                    }
                    let t = std::str::from_utf8(&self.b[start..self.i]).unwrap();
                    t.parse().map(Json::Num).or_else(|_| self.err("bad number"))
                }
                _ => self.err("expected a value"),
            }
        }
    }
    let mut p = P {
        b: s.as_bytes(),
        i: 0,
    };
    let v = p.value()?;
    p.ws();
    if p.i != p.b.len() {
        return p.err("text after the value");
    }
    Ok(v)
}

#[test]
fn json_reader_reads_and_rejects() {
    let v = parse_json(r#"{"a":[1,-2.5e3,"x\"\u0041é"],"b":{"c":true,"d":null}}"#).unwrap();
    assert_eq!(
        v.get("a").unwrap(),
        &Json::Arr(vec![
            Json::Num(1.0),
            Json::Num(-2500.0),
            Json::Str("x\"Aé".into())
        ])
    );
    assert_eq!(v.get("b").unwrap().get("c"), Some(&Json::Bool(true)));
    for bad in [
        "{\"a\":1,}",
        "[1 2]",
        "{\"a\":1}x",
        "\"a\nb\"",
        "{\"a\":1,\"a\":2}",
    ] {
        assert!(parse_json(bad).is_err(), "{bad}");
    }
}

const SRC: &str = "programs/trace_async.c";
/// The lines of tests/programs/trace_async.c's constructs.
const L_DATA: u32 = 18;
const L_SYNC: u32 = 20;
const L_ASYNC: u32 = 24;
const L_WAIT: u32 = 27;

/// Builds `src` with accc (with the emulated device's code) into `dir`,
/// from a copy there, so that locations name the file as `trace_async.c`.
fn build(src: &Path, dir: &Path) -> PathBuf {
    let name = src.file_name().unwrap();
    std::fs::copy(src, dir.join(name)).unwrap();
    emu::build(dir, Path::new(name), "prog", &[])
}

/// Runs `exe` on the emulated device with `env`.
fn run_emu(exe: &Path, dir: &Path, tag: &str, env: &[(&str, &str)]) -> Run {
    let clear = [
        "ACC_DEVICE_TYPE",
        "PTXRT_TRACE",
        "PTXRT_NVTX",
        "NVTX_INJECTION64_PATH",
        "PTXRT_TIME",
    ];
    let mut cmd = emu::command(exe, &clear);
    cmd.envs(env.iter().copied());
    run(cmd, dir, tag, RUN_TIMEOUT)
}

fn check_lines_assumed() {
    let src = std::fs::read_to_string(tests_dir().join(SRC)).unwrap();
    let line = |n: u32| src.lines().nth(n as usize - 1).unwrap_or("");
    assert!(
        line(L_DATA).contains("acc data"),
        "line {L_DATA}: {}",
        line(L_DATA)
    );
    assert!(
        line(L_SYNC).contains("parallel loop present"),
        "{}",
        line(L_SYNC)
    );
    assert!(line(L_ASYNC).contains("async(1)"), "{}", line(L_ASYNC));
    assert!(line(L_WAIT).contains("acc wait(1)"), "{}", line(L_WAIT));
}

#[test]
fn trace_file_has_host_ranges_and_device_queues_in_order() {
    check_lines_assumed();
    let dir = tempfile::tempdir().unwrap();
    let exe = build(&tests_dir().join(SRC), dir.path());
    let file = dir.path().join("out.json");
    let r = run_emu(
        &exe,
        dir.path(),
        "trace",
        &[("PTXRT_TRACE", file.to_str().unwrap())],
    );
    assert!(
        r.ok() && r.stdout.trim() == "PASS",
        "{}: {}\n{}",
        r.describe_status(),
        r.stdout,
        r.stderr
    );
    // No PTXRT_TIME table: the trace turns the measures on, not the table.
    assert!(!r.stderr.contains("accc runtime profile"), "{}", r.stderr);
    let text = std::fs::read_to_string(&file).expect("the trace file is written at exit");
    let json = parse_json(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let Some(Json::Arr(all)) = json.get("traceEvents") else {
        panic!("no traceEvents: {text}");
    };
    // Row names: the host thread, the device's default queue and queue 1.
    let row = |pid: f64, tid: f64| {
        all.iter()
            .find(|e| {
                e.str("ph") == "M"
                    && e.str("name") == "thread_name"
                    && e.num("pid") == pid
                    && e.num("tid") == tid
            })
            .and_then(|e| e.get("args"))
            .map(|a| a.str("name").to_string())
    };
    assert_eq!(row(0.0, 0.0).as_deref(), Some("host thread 0"), "{text}");
    assert_eq!(row(1.0, 0.0).as_deref(), Some("default queue"), "{text}");
    assert_eq!(row(1.0, 2.0).as_deref(), Some("queue 1"), "{text}");
    let spans: Vec<&Json> = all.iter().filter(|e| e.str("ph") == "X").collect();
    for e in &spans {
        assert!(e.num("ts") >= 0.0 && e.num("dur") >= 0.0, "{e:?}");
    }
    let on = |pid: f64, tid: f64| -> Vec<&Json> {
        spans
            .iter()
            .copied()
            .filter(|e| e.num("pid") == pid && e.num("tid") == tid)
            .collect()
    };
    let names = |v: &[&Json]| {
        v.iter()
            .map(|e| e.str("name").to_string())
            .collect::<Vec<_>>()
    };
    let f = "trace_async.c";
    // The host thread, by start time (the file is sorted by it).
    let host = on(0.0, 0.0);
    let want_host = [
        format!("{f}:{L_DATA} data enter"),
        format!("{f}:{L_DATA} upload a[0:4096]"),
        format!("{f}:{L_SYNC} parallel loop"),
        format!("{f}:{L_SYNC} parallel loop enter"),
        format!("{f}:{L_SYNC} launch "),
        format!("{f}:{L_SYNC} parallel loop exit"),
        format!("{f}:{L_DATA} data exit"),
        format!("{f}:{L_DATA} download a[0:4096]"),
        format!("{f}:{L_ASYNC} parallel loop"),
        format!("{f}:{L_ASYNC} parallel loop enter"),
        format!("{f}:{L_ASYNC} upload b[0:4096]"),
        format!("{f}:{L_ASYNC} launch "),
        format!("{f}:{L_ASYNC} parallel loop exit"),
        format!("{f}:{L_ASYNC} download b[0:4096]"),
        format!("{f}:{L_WAIT} wait"),
    ];
    let got = names(&host);
    assert_eq!(got.len(), want_host.len(), "{got:#?}");
    for (g, w) in got.iter().zip(&want_host) {
        assert!(g.starts_with(w.as_str()), "{g} is not {w}: {got:#?}");
    }
    // Ranges nest: the construct holds its data entry, the entry its upload.
    let inside = |a: &Json, b: &Json| {
        a.num("ts") >= b.num("ts")
            && a.num("ts") + a.num("dur") <= b.num("ts") + b.num("dur") + 1e-3
    };
    assert!(inside(host[3], host[2]) && inside(host[4], host[2]) && inside(host[1], host[0]));
    assert_eq!(host[8].get("args").unwrap().num("async"), 1.0);
    assert_eq!(host[1].get("args").unwrap().num("bytes"), 16384.0);
    // The default queue: the region's upload, the kernel, the download.
    let sync = names(&on(1.0, 0.0));
    assert_eq!(
        sync,
        [
            format!("{f}:{L_DATA} data upload"),
            format!("{f}:{L_SYNC} parallel loop"),
            format!("{f}:{L_DATA} data download"),
        ],
        "{text}"
    );
    assert_eq!(on(1.0, 0.0)[1].str("cat"), "kernel");
    // Queue 1: the async construct's upload, kernel, download, in order,
    // each after the one before (device times on the host clock), all
    // done by the end of the wait.
    let q1 = on(1.0, 2.0);
    assert_eq!(
        names(&q1),
        [
            format!("{f}:{L_ASYNC} parallel loop upload"),
            format!("{f}:{L_ASYNC} parallel loop"),
            format!("{f}:{L_ASYNC} parallel loop download"),
        ],
        "{text}"
    );
    for w in q1.windows(2) {
        assert!(
            w[0].num("ts") + w[0].num("dur") <= w[1].num("ts") + 1.0,
            "{text}"
        );
    }
    let wait = host[14];
    let wait_end = wait.num("ts") + wait.num("dur");
    assert!(
        q1[2].num("ts") + q1[2].num("dur") <= wait_end + 50.0,
        "{text}"
    );
    // The async kernel starts after its upload was enqueued on the host.
    assert!(q1[1].num("ts") + 50.0 >= host[10].num("ts"), "{text}");

    // The summary script reads it (when python3 is here, as on CI).
    if Command::new("python3").arg("--version").output().is_ok() {
        let out = Command::new("python3")
            .arg(common::root().join("scripts/trace-summary.py"))
            .arg(&file)
            .output()
            .unwrap();
        let s = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{s}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        for w in [
            "host thread 0",
            "device 0",
            "queue 1",
            "critical path",
            "overlap",
        ] {
            assert!(s.contains(w), "no '{w}' in:\n{s}");
        }
    }
}

#[test]
fn nvtx_without_a_library_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let exe = build(&tests_dir().join(SRC), dir.path());
    let plain = run_emu(&exe, dir.path(), "plain", &[]);
    assert!(plain.ok(), "{}", plain.stderr);
    // No libnvToolsExt here, and an injection path that does not exist.
    for env in [
        vec![("PTXRT_NVTX", "1")],
        vec![
            ("PTXRT_NVTX", "1"),
            ("NVTX_INJECTION64_PATH", "/nonexistent/libinj.so"),
        ],
    ] {
        let r = run_emu(&exe, dir.path(), "nvtx", &env);
        assert!(r.ok(), "{env:?}: {}", r.stderr);
        assert_eq!(
            (r.stdout.as_str(), r.stderr.as_str()),
            (plain.stdout.as_str(), plain.stderr.as_str()),
            "{env:?}"
        );
    }
}

#[test]
fn nvtx_injection_tool_sees_balanced_named_ranges() {
    let dir = tempfile::tempdir().unwrap();
    let exe = build(&tests_dir().join(SRC), dir.path());
    let so = common::shared_library(
        &tests_dir().join("trace/nvtx_tool.c"),
        dir.path(),
        "libnvtx_tool.so",
        &[],
    );
    // Attached as Nsight Systems attaches: no PTXRT_NVTX needed.
    let r = run_emu(
        &exe,
        dir.path(),
        "tool",
        &[("NVTX_INJECTION64_PATH", so.to_str().unwrap())],
    );
    assert!(
        r.ok() && r.stdout.trim() == "PASS",
        "{}\n{}",
        r.describe_status(),
        r.stderr
    );
    let f = "trace_async.c";
    let pushes: Vec<&str> = r
        .stderr
        .lines()
        .filter_map(|l| l.strip_prefix("nvtx-tool: push "))
        .collect();
    let want = [
        format!("0 {f}:{L_DATA} data enter"),
        format!("1 {f}:{L_DATA} upload a[0:4096]"),
        format!("0 {f}:{L_SYNC} parallel loop"),
        format!("1 {f}:{L_SYNC} parallel loop enter"),
        format!("1 {f}:{L_SYNC} launch "),
        format!("1 {f}:{L_SYNC} parallel loop exit"),
        format!("0 {f}:{L_DATA} data exit"),
        format!("1 {f}:{L_DATA} download a[0:4096]"),
        format!("0 {f}:{L_ASYNC} parallel loop"),
        format!("1 {f}:{L_ASYNC} parallel loop enter"),
        format!("2 {f}:{L_ASYNC} upload b[0:4096]"),
        format!("1 {f}:{L_ASYNC} launch "),
        format!("1 {f}:{L_ASYNC} parallel loop exit"),
        format!("2 {f}:{L_ASYNC} download b[0:4096]"),
        format!("0 {f}:{L_WAIT} wait"),
    ];
    assert_eq!(pushes.len(), want.len(), "{}", r.stderr);
    for (g, w) in pushes.iter().zip(&want) {
        assert!(g.starts_with(w.as_str()), "{g} is not {w}:\n{}", r.stderr);
    }
    assert!(
        r.stderr.contains("nvtx-tool: attached")
            && r.stderr
                .contains("nvtx-tool: pushes=15 pops=15 depth=0 max=3 unmatched=0"),
        "{}",
        r.stderr
    );
    // PTXRT_NVTX=0 keeps the ranges off even with a tool attached.
    let r = run_emu(
        &exe,
        dir.path(),
        "off",
        &[
            ("NVTX_INJECTION64_PATH", so.to_str().unwrap()),
            ("PTXRT_NVTX", "0"),
        ],
    );
    assert!(
        r.ok() && !r.stderr.contains("nvtx-tool: push"),
        "{}",
        r.stderr
    );
}
