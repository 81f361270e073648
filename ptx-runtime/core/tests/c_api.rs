//! libptxrt as a C program sees it: compile a small C program with `cc`
//! against libptxrt.a and include/, run it with no usable device, and check
//! the host fallback, the user API, and the one-line fatal errors.
//! When the CUDA plugin and the link-time stub libcuda (scripts/stub-libcuda.sh)
//! are built, also run through the real dlopen path with a driver that fails.

mod common;

use common::{build_c, crate_dir, run, stderr_of, target_dir};
use std::path::{Path, PathBuf};
use std::process::Command;

const PROG: &str = r#"
#include <stdio.h>
#include <string.h>
#include <openacc.h>
#include <ptxrt.h>

/* The layout abi::Image and abi::Code assume (x86-64). */
_Static_assert(sizeof(struct __ptxrt_image) == 72, "size of struct __ptxrt_image");
_Static_assert(__builtin_offsetof(struct __ptxrt_image, cells) == 56, "cells");
_Static_assert(__builtin_offsetof(struct __ptxrt_image, code) == 24, "code");
_Static_assert(sizeof(struct __ptxrt_code) == 32, "size of struct __ptxrt_code");
_Static_assert(sizeof(struct __ptxrt_map) == 32, "size of struct __ptxrt_map");
_Static_assert(sizeof(struct __ptxrt_update) == 32, "size of struct __ptxrt_update");
_Static_assert(sizeof(struct __ptxrt_async) == 24, "size of struct __ptxrt_async");
_Static_assert(sizeof(struct __ptxrt_declare) == 56, "size of struct __ptxrt_declare");
_Static_assert(__builtin_offsetof(struct __ptxrt_declare, loc) == 32, "declare loc");
_Static_assert(__builtin_offsetof(struct __ptxrt_image, relocatable) == 4, "relocatable");
_Static_assert(__builtin_offsetof(struct __ptxrt_image, flags) == 8, "flags");
_Static_assert(__builtin_offsetof(struct __ptxrt_image, source) == 16, "source");
_Static_assert(__builtin_offsetof(struct __ptxrt_image, runtime_state) == 48, "runtime_state");

static double declared[8];
static const struct __ptxrt_declare decl = {"declared", declared, sizeof declared, PTXRT_MAP_COPYIN,
                                            {"t.c", 3, 1, "declare"}};
__attribute__((constructor)) static void reg(void) {
  __ptxrt_register_declare(&decl);
  __ptxrt_register_declare(&decl);
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "host";
  if (strcmp(mode, "use") == 0) {
    int r = __ptxrt_use_device(1);
    printf("use_device=%d\n", r);
    return 0;
  }
  double a[16], b[16];
  for (int i = 0; i < 16; i++) { a[i] = i; b[i] = -1; }
  if (strcmp(mode, "mapfail") == 0) { acc_map_data(a, b, sizeof a); return 0; }
  if (strcmp(mode, "badasync") == 0) { acc_wait(-7); return 0; }
  if (strcmp(mode, "devtype") == 0) {
    printf("type %d use_device=%d\n", (int)acc_get_device_type(), __ptxrt_use_device(1));
    return 0;
  }
  if (strcmp(mode, "waitany") == 0) { int q[2] = {1, -7}; acc_wait_any(2, q); return 0; }
  if (strcmp(mode, "waitanycount") == 0) { acc_wait_any(-1, NULL); return 0; }
  if (strcmp(mode, "badtype") == 0) { acc_init((acc_device_t)42); return 0; }
  if (strcmp(mode, "d2dnum") == 0) { acc_memcpy_d2d(b, a, sizeof a, 0, 1); return 0; }
  struct __ptxrt_loc set = { "t.c", 9, 13, "set" }, init = { "t.c", 8, 13, "init" };
  if (strcmp(mode, "setradeon") == 0) { __ptxrt_set(&set, PTXRT_DEVICE_OTHER, "radeon", 0, 0, 0, 0); return 0; }
  if (strcmp(mode, "initnvidia") == 0) { __ptxrt_init(&init, acc_device_nvidia, "nvidia", 1, 0); return 0; }
  if (strcmp(mode, "setasync") == 0) { __ptxrt_set(&set, acc_device_current, NULL, 0, 0, 1, -9); return 0; }
  int fails = 0;
#define CHECK(c) do { if (!(c)) { printf("FAIL: %s\n", #c); fails++; } } while (0)
  CHECK(__ptxrt_use_device(0) == 0);
  CHECK(__ptxrt_use_device(1) == 0);
  CHECK(acc_get_num_devices(acc_device_nvidia) == 0);
  CHECK(acc_get_num_devices(acc_device_not_host) == 0);
  CHECK(acc_get_num_devices(acc_device_host) == 1);
  CHECK(acc_get_num_devices(acc_device_default) == 1);
  CHECK(acc_get_num_devices(acc_device_none) == 0);
  CHECK(acc_on_device(acc_device_host) != 0);
  CHECK(acc_on_device(acc_device_not_host) == 0);
  CHECK(acc_on_device(acc_device_nvidia) == 0);
  CHECK(acc_get_device_type() == acc_device_host);
  CHECK(acc_get_device_num(acc_device_host) == 0);
  acc_set_device_num(0, acc_device_host);
  CHECK(acc_get_property(0, acc_device_host, acc_property_memory) > 0);
  CHECK(acc_get_property(0, acc_device_host, acc_property_shared_memory_support) == 1);
  CHECK(acc_get_property(0, acc_device_host, acc_property_name) == 0);
  CHECK(strcmp(acc_get_property_string(0, acc_device_host, acc_property_name), "host") == 0);
  CHECK(acc_get_property_string(0, acc_device_host, acc_property_memory) == NULL);
  CHECK(__ptxrt_default_gangs(1000, 128) == 8);
  CHECK(__ptxrt_default_gangs(0, 0) >= 1);
  /* The host device: data clauses and directives keep the present table
     (every range mapped to itself), addresses are host addresses. */
  struct __ptxrt_loc loc = { "t.c", 7, 1, "data" };
  struct __ptxrt_map m[2] = { { "a[0:16]", a, sizeof a, PTXRT_MAP_COPY, 0 },
                              { "a[4:0]", a + 4, 0, PTXRT_MAP_PRESENT, 0 } };
  void *r = __ptxrt_data_begin(&loc, m, 2, NULL);
  CHECK(r != NULL);
  CHECK(__ptxrt_deviceptr(&loc, "a", a, a + 2, 0) == (void *)a);
  CHECK(__ptxrt_deviceptr(&loc, "a", NULL, NULL, 0) == NULL);
  CHECK(a[3] == 3);
  __ptxrt_data_end(r);
  r = __ptxrt_data_begin(&loc, m, 2, NULL);
  __ptxrt_data_cleanup(&r);
  CHECK(r == NULL);
  __ptxrt_data_cleanup(&r);
  __ptxrt_data_cleanup(NULL);
  __ptxrt_enter_data(&loc, m, 1, NULL);
  int w[2] = {1, 2};
  struct __ptxrt_async as = { 3, -1, 2, w }, all = { PTXRT_ASYNC_NONE, -1, -1, NULL };
  __ptxrt_exit_data(&loc, m, 1, 1, &as);
  struct __ptxrt_update u = { "a", a, sizeof a, 1 };
  __ptxrt_update(&loc, &u, 1, 0, &all);
  __ptxrt_wait(&loc, &all);
  __ptxrt_wait(&loc, &as);
  CHECK(acc_get_cuda_stream(1) == NULL);
  CHECK(acc_set_cuda_stream(1, NULL) == 0);
  CHECK(__ptxrt_host_data_ptr(&loc, "a", a, 0) == (void *)a);
  /* The API as on a shared-memory device. */
  void *d = acc_malloc(100);
  CHECK(d != NULL);
  acc_free(d);
  CHECK(acc_malloc(0) == NULL);
  acc_free(NULL);
  CHECK(acc_copyin(a, sizeof a) == (void *)a);
  CHECK(acc_create(b, sizeof b) == (void *)b);
  CHECK(acc_pcopyin(a, sizeof a) == (void *)a);
  CHECK(acc_is_present(a, sizeof a) == 1);
  CHECK(acc_is_present(NULL, 8) == 0);
  CHECK(acc_deviceptr(a) == (void *)a);
  CHECK(acc_hostptr(a) == (void *)a);
  acc_update_device(a, sizeof a);
  acc_update_self_async(a, sizeof a, 1);
  acc_copyout(a, sizeof a);
  acc_delete_finalize(b, sizeof b);
  acc_copyin_async(a, sizeof a, acc_async_noval);
  acc_delete_finalize(a, sizeof a);
  acc_map_data(a, a, sizeof a);
  acc_unmap_data(a);
  acc_memcpy_to_device(b, a, sizeof a);
  CHECK(b[5] == 5);
  b[5] = 50;
  acc_memcpy_from_device(a, b, sizeof a);
  CHECK(a[5] == 50);
  a[5] = 5;
  acc_memcpy_device(b, a, sizeof a);
  CHECK(b[5] == 5);
  /* acc_memcpy_d2d on the host device: its copy, a memmove. */
  a[7] = 70;
  acc_memcpy_d2d(b, a, sizeof a, 0, 0);
  CHECK(b[7] == 70 && b[15] == 15);
  acc_memcpy_d2d_async(b + 1, b, 4 * sizeof *b, 0, 0, 2);
  acc_wait(2);
  CHECK(b[1] == 0 && b[4] == 3 && b[5] == 5 && b[7] == 70);
  a[7] = 7;
  double *p = a;
  acc_attach((void **)&p);
  acc_detach_finalize((void **)&p);
  CHECK(acc_async_test(1) != 0);
  CHECK(acc_async_test_all() != 0);
  acc_wait(1);
  acc_wait_async(1, 2);
  acc_wait_all();
  acc_wait_all_async(acc_async_noval);
  CHECK(acc_get_default_async() == 0);
  acc_set_default_async(4);
  CHECK(acc_get_default_async() == 4);
  acc_set_default_async(acc_async_default);
  CHECK(acc_get_default_async() == 0);
  acc_init(acc_device_host);
  acc_shutdown(acc_device_nvidia);
  /* The init, shutdown and set directives without a device. */
  struct __ptxrt_loc sd = { "t.c", 10, 13, "shutdown" };
  __ptxrt_init(&init, acc_device_current, NULL, 0, 0);
  __ptxrt_init(&init, PTXRT_DEVICE_OTHER, "radeon", 1, 3);
  __ptxrt_init(&init, PTXRT_DEVICE_ANY, "*", 0, 0);
  __ptxrt_init(&init, acc_device_default, "default", 1, 2);
  __ptxrt_shutdown(&sd, acc_device_nvidia, "nvidia", 1, 5);
  __ptxrt_shutdown(&sd, PTXRT_DEVICE_ANY, "*", 0, 0);
  __ptxrt_set(&set, acc_device_current, NULL, 1, 0, 1, 3);
  CHECK(acc_get_default_async() == 3);
  CHECK(acc_get_device_num(acc_device_nvidia) == 0);
  __ptxrt_set(&set, acc_device_host, "host", 0, 0, 1, acc_async_default);
  CHECK(acc_get_default_async() == 0);
  CHECK(acc_get_device_type() == acc_device_host);
  __ptxrt_set(&set, acc_device_default, "default", 0, 0, 0, 0);
  __ptxrt_shutdown(&sd, acc_device_current, NULL, 0, 0);
  CHECK(__ptxrt_use_device(1) == 0);
  /* acc_wait_any: every queue is idle on the host; -1 when none is named. */
  int none[2] = {acc_async_sync, acc_async_sync}, some[3] = {acc_async_sync, 4, acc_async_noval};
  CHECK(acc_wait_any(0, NULL) == -1);
  CHECK(acc_wait_any(2, none) == -1);
  CHECK(acc_wait_any(3, some) == 1);
  CHECK(acc_wait_any_device(3, some, 0) == 1);
  /* acc_device_multicore is the host. */
  CHECK(acc_get_num_devices(acc_device_multicore) == 1);
  acc_set_device_type(acc_device_multicore);
  CHECK(acc_get_device_type() == acc_device_multicore);
  CHECK(acc_on_device(acc_device_multicore) == 1);
  CHECK(__ptxrt_use_device(1) == 0);
  __ptxrt_set(&set, acc_device_host, "host", 0, 0, 0, 0);
  CHECK(acc_on_device(acc_device_multicore) == 0);
  __ptxrt_set(&set, acc_device_multicore, "multicore", 0, 0, 0, 0);
  CHECK(acc_get_device_type() == acc_device_multicore);
  __ptxrt_init(&init, acc_device_host, "host", 0, 0);
  __ptxrt_init(&init, acc_device_multicore, "multicore", 0, 0);
  CHECK(acc_get_device_type() == acc_device_multicore);
  acc_init(acc_device_host);
  CHECK(acc_get_device_type() == acc_device_host);
  printf(fails ? "failed\n" : "ok\n");
  return fails != 0;
}
"#;

fn build_prog(tag: &str) -> (PathBuf, PathBuf) {
    build_c(tag, PROG)
}

#[test]
fn host_fallback_and_api_without_device() {
    let (dir, exe) = build_prog("host");
    for env in [
        &[][..],
        &[("ACC_DEVICE_TYPE", "host")][..],
        &[("ACC_DEVICE_TYPE", "HOST")][..],
    ] {
        let o = run(&exe, "host", env);
        assert!(
            o.status.success(),
            "{env:?}: {}{}",
            String::from_utf8_lossy(&o.stdout),
            stderr_of(&o)
        );
        assert_eq!(String::from_utf8_lossy(&o.stdout), "ok\n");
        assert_eq!(stderr_of(&o), "");
    }
    // ACC_DEVICE_TYPE=multicore: the host, reported as acc_device_multicore.
    let o = run(&exe, "devtype", &[("ACC_DEVICE_TYPE", "multicore")]);
    assert!(o.status.success(), "{}", stderr_of(&o));
    assert_eq!(String::from_utf8_lossy(&o.stdout), "type 9 use_device=0\n");
    let _ = std::fs::remove_dir_all(dir);
}

/// API errors in host mode: one line naming the routine and its arguments.
#[test]
fn api_errors_name_the_routine() {
    let (dir, exe) = build_prog("apierr");
    let o = run(&exe, "mapfail", &[]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr_of(&o);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("accc runtime: error: acc_map_data: host memory is device memory here: data_dev must be data_arg: 'data_arg=0x"),
        "{err}"
    );
    let o = run(&exe, "badasync", &[]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stderr_of(&o).trim_end(),
        "accc runtime: error: acc_wait: invalid async argument -7: 'wait_arg=-7'"
    );
    let o = run(&exe, "waitany", &[]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stderr_of(&o).trim_end(),
        "accc runtime: error: acc_wait_any: invalid async argument -7: 'wait_arg[1]=-7'"
    );
    let o = run(&exe, "waitanycount", &[]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stderr_of(&o).trim_end(),
        "accc runtime: error: acc_wait_any: invalid count: 'count=-1'"
    );
    let o = run(&exe, "setradeon", &[]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stderr_of(&o).trim_end(),
        "t.c:9: error: set: not a device type accc can run constructs on (host, multicore, nvidia, not_host, default): 'device_type(radeon)'"
    );
    let o = run(&exe, "setasync", &[]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stderr_of(&o).trim_end(),
        "t.c:9: error: set: invalid async argument -9: 'default_async(-9)'"
    );
    let o = run(&exe, "initnvidia", &[]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr_of(&o);
    assert!(
        err.starts_with("t.c:8: error: init: no NVIDIA device is usable: 'device_type(nvidia) device_num(0)': cannot load the device plugin"),
        "{err}"
    );
    let o = run(&exe, "badtype", &[]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stderr_of(&o).trim_end(),
        "accc runtime: error: acc_init: device type 42 is not a device type accc supports"
    );
    let o = run(&exe, "d2dnum", &[]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr_of(&o);
    assert!(
        err.starts_with("accc runtime: error: acc_memcpy_d2d: device 1 is not usable: '")
            && err.trim_end().ends_with(
                "dev_num_dest=0, dev_num_src=1': the host device type has one device, 0"
            ),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// `PTXRT_TIME=1` on the host: one line at exit saying there was no
/// device work, also after a fatal error (the exit hook must not wait for
/// the runtime lock the failing routine holds).
#[test]
fn time_report_without_device() {
    let (dir, exe) = build_prog("time");
    let line =
        "accc runtime profile (PTXRT_TIME=1): no device work (every construct ran on the host)\n";
    let o = run(&exe, "host", &[("PTXRT_TIME", "1")]);
    assert!(o.status.success(), "{}", stderr_of(&o));
    assert_eq!(String::from_utf8_lossy(&o.stdout), "ok\n");
    assert_eq!(stderr_of(&o), line);
    let o = run(&exe, "mapfail", &[("PTXRT_TIME", "1")]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr_of(&o);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 2, "{err}");
    assert!(
        lines[0].starts_with("accc runtime: error: acc_map_data: "),
        "{err}"
    );
    assert_eq!(format!("{}\n", lines[1]), line);
    let o = run(&exe, "host", &[("PTXRT_TIME", "0")]);
    assert_eq!(stderr_of(&o), "");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn nvidia_required_without_plugin_is_fatal() {
    let (dir, exe) = build_prog("nvidia");
    for val in ["nvidia", "NVIDIA", "not_host"] {
        let o = run(&exe, "use", &[("ACC_DEVICE_TYPE", val)]);
        assert_eq!(o.status.code(), Some(1));
        assert_eq!(String::from_utf8_lossy(&o.stdout), "");
        let err = stderr_of(&o);
        assert_eq!(err.lines().count(), 1, "{err}");
        let want = format!(
            "accc runtime: error: ACC_DEVICE_TYPE={val} but no NVIDIA device is usable: cannot load the device plugin (libptxrt-cuda.so: cannot open shared object file"
        );
        assert!(err.starts_with(&want), "{err}");
    }
    let o = run(&exe, "use", &[("ACC_DEVICE_TYPE", "radeon")]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr_of(&o)
        .starts_with("accc runtime: error: ACC_DEVICE_TYPE=radeon is not a device type"));
    // PTXRT_DEBUG says why the host was chosen.
    let o = run(&exe, "use", &[("PTXRT_DEBUG", "1")]);
    assert!(o.status.success());
    assert_eq!(String::from_utf8_lossy(&o.stdout), "use_device=0\n");
    assert!(
        stderr_of(&o).contains("ptxrt: no device: cannot load the device plugin"),
        "{}",
        stderr_of(&o)
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// The real plugin, dlopened, over the stub libcuda (every call returns
/// CUDA_ERROR_UNKNOWN): exercises the search, the ABI check and the driver
/// error path. Skipped when either is not built.
#[test]
fn plugin_over_failing_driver() {
    let plugin = target_dir().join("libptxrt_cuda.so");
    let stub = crate_dir().join("../../.tools/cuda-stub/lib64/libcuda.so");
    if !plugin.exists() || !stub.exists() {
        eprintln!("skipped: build ptxrt-cuda and run scripts/stub-libcuda.sh first");
        return;
    }
    let (dir, exe) = build_prog("plugin");
    let drv = dir.join("driver");
    std::fs::create_dir_all(&drv).expect("driver dir");
    std::fs::copy(&stub, drv.join("libcuda.so.1")).expect("copy stub");
    let ld = drv.to_string_lossy().into_owned();
    let want = "accc runtime: error: ACC_DEVICE_TYPE=nvidia but no NVIDIA device is usable: the CUDA driver reported: cuInit: CUDA error 999";

    // Found through PTXRT_PLUGIN.
    let p = plugin.to_string_lossy().into_owned();
    let o = run(
        &exe,
        "use",
        &[
            ("ACC_DEVICE_TYPE", "nvidia"),
            ("PTXRT_PLUGIN", &p),
            ("LD_LIBRARY_PATH", &ld),
        ],
    );
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stderr_of(&o).trim_end(), want);

    // Found next to the executable (a bundle folder), under the dash name.
    std::fs::copy(&plugin, dir.join("libptxrt-cuda.so")).expect("copy plugin");
    let o = run(
        &exe,
        "use",
        &[("ACC_DEVICE_TYPE", "nvidia"), ("LD_LIBRARY_PATH", &ld)],
    );
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stderr_of(&o).trim_end(), want);

    // Default device type: silent host fallback; the whole API still works.
    let o = run(&exe, "host", &[("LD_LIBRARY_PATH", &ld)]);
    assert!(o.status.success(), "{}", stderr_of(&o));
    assert_eq!(String::from_utf8_lossy(&o.stdout), "ok\n");

    // Plugin present but no driver at all: the loader's reason is kept.
    let o = run(&exe, "use", &[("ACC_DEVICE_TYPE", "nvidia")]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr_of(&o);
    assert!(
        err.contains("libptxrt-cuda.so: libcuda.so.1: cannot open shared object file"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// Dynamic symbols of a shared library (`nm -D`): the undefined ones when
/// `undefined`, else the defined ones.
fn dynamic_symbols(lib: &Path, undefined: bool) -> Vec<String> {
    let flag = if undefined {
        "--undefined-only"
    } else {
        "--defined-only"
    };
    let out = Command::new("nm")
        .args(["-D", flag])
        .arg(lib)
        .output()
        .expect("run nm");
    assert!(out.status.success(), "nm {}", lib.display());
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.split_whitespace().last().map(str::to_string))
        .collect()
}

/// Every driver function the plugin calls (the cuLink* calls of
/// link_module too) is one the stub libcuda defines, so the plugin builds and
/// loads on machines without CUDA. Skipped when either is not built.
#[test]
fn stub_libcuda_has_every_driver_call_of_the_plugin() {
    let plugin = target_dir().join("libptxrt_cuda.so");
    let stub = crate_dir().join("../../.tools/cuda-stub/lib64/libcuda.so");
    if !plugin.exists() || !stub.exists() {
        eprintln!("skipped: build ptxrt-cuda and run scripts/stub-libcuda.sh first");
        return;
    }
    let calls: Vec<String> = dynamic_symbols(&plugin, true)
        .into_iter()
        .filter(|s| s.starts_with("cu"))
        .collect();
    assert!(calls.iter().any(|c| c == "cuLinkComplete"), "{calls:?}");
    let stubbed = dynamic_symbols(&stub, false);
    let missing: Vec<&String> = calls.iter().filter(|c| !stubbed.contains(c)).collect();
    assert!(missing.is_empty(), "not in the stub libcuda: {missing:?}");
}
