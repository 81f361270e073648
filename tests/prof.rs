//! The OpenACC profiling interface (`acc_prof.h`) end to end:
//! `tests/programs/prof_events/tool.c` built as a shared library and loaded
//! through `ACC_PROFLIB` by `main.c` (built alone) on the host fallback and
//! on the emulated device, where it must print `PASS` (its own checks of
//! every event's order and fields; `tests/programs.rs` runs the same tool
//! linked into the program); `ACC_PROFLIB` naming a missing library or one
//! without `acc_register_library` (one warning line each, the program goes
//! on); and the error callback (`acc_ev_error`), called before the runtime
//! stops a program, with the error's code, line and message.

mod common;

use common::{emu, run, tests_dir, Run, RUN_TIMEOUT};
use std::path::{Path, PathBuf};
use std::process::Command;

fn include_dir() -> PathBuf {
    common::root().join("ptx-runtime/include")
}

/// Builds `tool` (a C file) as a shared library in `dir`.
fn shared_tool(tool: &Path, dir: &Path) -> PathBuf {
    let inc = include_dir();
    common::shared_library(tool, dir, "libtool.so", &["-I".as_ref(), inc.as_os_str()])
}

/// Builds `src` with accc into `dir`/`name`.
fn build(src: &Path, dir: &Path, name: &str) -> PathBuf {
    emu::build(dir, src, name, &["-lm"])
}

/// Runs `exe` with `env`, on the emulated device when `emulated`.
fn run_with(exe: &Path, dir: &Path, tag: &str, env: &[(&str, &str)], emulated: bool) -> Run {
    let mut cmd = if emulated {
        emu::command(exe, &["ACC_DEVICE_TYPE", "ACC_PROFLIB"])
    } else {
        let mut c = Command::new(exe);
        c.env_remove("ACC_DEVICE_TYPE").env_remove("ACC_PROFLIB");
        c
    };
    cmd.envs(env.iter().copied());
    run(cmd, dir, tag, RUN_TIMEOUT)
}

#[test]
fn acc_proflib_tool_sees_every_event() {
    let src = tests_dir().join("programs/prof_events");
    let dir = tempfile::tempdir().unwrap();
    let so = shared_tool(&src.join("tool.c"), dir.path());
    let exe = build(&src.join("main.c"), dir.path(), "main");
    let lib = so.to_string_lossy().into_owned();
    for emulated in [false, true] {
        let r = run_with(&exe, dir.path(), "tool", &[("ACC_PROFLIB", &lib)], emulated);
        assert!(
            r.ok() && r.stdout.trim() == "PASS",
            "emulated={emulated}: {}\nstdout:\n{}\nstderr:\n{}",
            r.describe_status(),
            r.stdout,
            common::tail(&r.stderr, 3000)
        );
    }
    // Without the tool: nothing printed, nothing changed.
    let r = run_with(&exe, dir.path(), "none", &[], false);
    assert!(r.ok() && r.stdout.is_empty(), "{}", r.stdout);
}

#[test]
fn acc_proflib_bad_libraries_warn_once_each() {
    let src = tests_dir().join("programs/prof_events");
    let dir = tempfile::tempdir().unwrap();
    let exe = build(&src.join("main.c"), dir.path(), "main");
    // A library without acc_register_library: the host compiler's output of
    // a file with one unrelated function.
    let plain = dir.path().join("plain.c");
    std::fs::write(&plain, "int not_a_tool(void) { return 1; }\n").unwrap();
    let so = shared_tool(&plain, dir.path());
    let list = format!("{}/missing.so:{}", dir.path().display(), so.display());
    let r = run_with(&exe, dir.path(), "bad", &[("ACC_PROFLIB", &list)], false);
    assert!(r.ok(), "{}: {}", r.describe_status(), r.stderr);
    let warnings: Vec<&str> = r
        .stderr
        .lines()
        .filter(|l| l.contains("ACC_PROFLIB"))
        .collect();
    assert_eq!(warnings.len(), 2, "{}", r.stderr);
    assert!(warnings[0].contains("missing.so") && warnings[1].contains("no acc_register_library"));
}

const ERROR_PROGRAM: &str = r#"#include <acc_prof.h>
#include <stdio.h>
#include <string.h>
static void on_error(acc_prof_info *p, acc_event_info *e, acc_api_info *a)
{
  (void)a;
  const acc_error_event_info *x = &e->error_event;
  fprintf(stderr, "tool: error event %d code %d line %d file %s construct %d valid %d: %s\n",
          p->event_type, (int)x->error_code, p->line_no,
          p->src_file && strstr(p->src_file, "err.c") ? "ok" : "?", (int)x->parent_construct,
          x->valid_bytes == (int)_ACC_ERROR_EVENT_INFO_VALID_BYTES, x->error_message);
}
void acc_register_library(acc_prof_reg reg, acc_prof_reg unreg, acc_prof_lookup_func lookup)
{
  (void)unreg;
  (void)lookup;
  reg(acc_ev_error, on_error, acc_reg);
}
int main(void)
{
  static float x[100];
  int n = 100;
#pragma acc update device(x[0:n])
  printf("not reached\n");
  return 0;
}
"#;

#[test]
fn error_callback_runs_before_the_program_stops() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("err.c");
    std::fs::write(&src, ERROR_PROGRAM).unwrap();
    let exe = build(&src, dir.path(), "err");
    let r = run_with(&exe, dir.path(), "err", &[], true);
    assert_eq!(r.status.and_then(|s| s.code()), Some(1), "{}", r.stderr);
    let lines: Vec<&str> = r
        .stderr
        .lines()
        .filter(|l| !l.starts_with("ptxrt:"))
        .collect();
    let tool = lines
        .iter()
        .position(|l| l.starts_with("tool: error event"))
        .unwrap_or_else(|| panic!("no error event:\n{}", r.stderr));
    let error = lines
        .iter()
        .position(|l| !l.starts_with("tool:") && l.contains(": error: update: not present"))
        .unwrap_or_else(|| panic!("no error line:\n{}", r.stderr));
    assert!(tool < error, "{}", r.stderr);
    // acc_ev_error, acc_error_not_present, the update's line, its file,
    // acc_construct_update, valid_bytes, the runtime's own line as message.
    assert!(
        lines[tool]
            .starts_with("tool: error event 26 code 10 line 23 file ok construct 12 valid 1: ")
            && lines[tool].ends_with(lines[error]),
        "{}",
        r.stderr
    );
    assert!(!r.stdout.contains("not reached"));
}

const API_PROGRAM: &str = r#"#include <acc_prof.h>
#include <stdio.h>
static void cb(acc_prof_info *p, acc_event_info *e, acc_api_info *a)
{
  (void)a;
  int data = (p->event_type >= acc_ev_create && p->event_type <= acc_ev_free) ||
             (p->event_type >= acc_ev_enqueue_upload_start &&
              p->event_type <= acc_ev_enqueue_download_end);
  fprintf(stderr, "ev %d construct %d line %d file %d var %d bytes %lu async %ld\n",
          p->event_type, e->other_event.parent_construct, p->line_no, p->src_file != 0,
          data && e->data_event.var_name != 0, data ? e->data_event.bytes : 0ul, p->async);
}
void acc_register_library(acc_prof_reg reg, acc_prof_reg unreg, acc_prof_lookup_func lookup)
{
  (void)unreg;
  (void)lookup;
  for (int e = acc_ev_create; e < acc_ev_last; e++)
    reg((acc_event_t)e, cb, acc_reg);
}
int main(void)
{
  static float x[64];
  acc_copyin(x, sizeof x);
  acc_update_self_async(x, sizeof x, 3);
  acc_wait(3);
  acc_delete(x, sizeof x);
  return 0;
}
"#;

/// The data routines' events: enter_data, update and exit_data pairs
/// around their data events, as a runtime routine (no file, line or
/// variable name), with the async queue of the `_async` form.
#[test]
fn api_routines_events() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("api.c");
    std::fs::write(&src, API_PROGRAM).unwrap();
    let exe = build(&src, dir.path(), "api");
    let r = run_with(&exe, dir.path(), "api", &[], true);
    assert!(r.ok(), "{}: {}", r.describe_status(), r.stderr);
    let got: Vec<&str> = r.stderr.lines().filter(|l| l.starts_with("ev ")).collect();
    let ev = |e: i32, bytes: u32, q: i32| {
        format!("ev {e} construct 15 line 0 file 0 var 0 bytes {bytes} async {q}")
    };
    let want = [
        ev(10, 0, -2),
        ev(8, 256, -2),
        ev(20, 256, -2),
        ev(21, 256, -2),
        ev(6, 256, -2),
        ev(11, 0, -2),
        ev(14, 0, 3),
        ev(22, 256, 3),
        ev(23, 256, 3),
        ev(15, 0, 3),
        ev(24, 0, 3),
        ev(25, 0, 3),
        ev(12, 0, -2),
        ev(7, 256, -2),
        ev(9, 256, -2),
        ev(13, 0, -2),
    ];
    assert_eq!(got, want, "{}", r.stderr);
}
