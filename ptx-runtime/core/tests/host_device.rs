//! The host device goes through the same mapping interface as any device:
//! one C program runs the same data-API sequence on the host device
//! (`ACC_DEVICE_TYPE=host`) and on the emulated device (the
//! `libptxrt_emu.so` plugin, a device with memory of its own), and the
//! results OpenACC gives every device (reference counts, what a copy or
//! update leaves in host memory, address translation, attachment, errors
//! of the data routines) must be the same, and as stated here. The results
//! OpenACC gives a shared-memory device only (the "device copy" is the host
//! data, every host address is present) are checked per device. Mapping on
//! the host device copies nothing: no transfer shows with `PTXRT_NOTIFY`.

mod common;

use common::{build_c, run, stderr_of, target_dir};
use std::process::Output;

const PROG: &str = r#"
#include <stdio.h>
#include <string.h>
#include <openacc.h>
#include <ptxrt.h>

#define N 16
static double a[N], b[N], v[N], w[N];
struct S { double *p; int n; };
static struct S s;

/* A line every device must print alike, and one of shared memory. */
#define SAME(what, x) printf("same: %s: %d\n", what, (int)(x))
#define SHARED(what, x) printf("shared: %s: %d\n", what, (int)(x))

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "same";
  for (int i = 0; i < N; i++) { a[i] = i; b[i] = -1; v[i] = 100 + i; w[i] = 0; }
  /* Errors of the data routines: the same on every device. */
  if (!strcmp(mode, "map_present")) {
    void *d = acc_copyin(a, sizeof a);
    acc_map_data(a, d, sizeof a);
    return 0;
  }
  if (!strcmp(mode, "unmap_unmapped")) { acc_unmap_data(a); return 0; }
  if (!strcmp(mode, "free_foreign")) { acc_free(a); return 0; }
  /* acc_shutdown lets go of the device's table: mapping again is no error. */
  if (!strcmp(mode, "shutdown")) {
    acc_copyin(a, sizeof a);
    acc_shutdown(acc_get_device_type());
    /* (On shared memory the device address is the host address.) */
    int shared = acc_deviceptr(b) == (void *)b;
    void *m = shared ? (void *)a : acc_malloc(sizeof a);
    acc_map_data(a, m, sizeof a);
    SAME("mapped again after shutdown", acc_deviceptr(a) == m);
    acc_unmap_data(a);
    if (!shared) acc_free(m);
    return 0;
  }

  /* Reference counts and translation. */
  char *d = acc_copyin(a, sizeof a);
  SAME("present after copyin", acc_is_present(a, sizeof a));
  SAME("a section of it present", acc_is_present(a + 2, 4 * sizeof(double)));
  SAME("deviceptr is copyin's", acc_deviceptr(a) == d);
  SAME("hostptr back", acc_hostptr(d) == (void *)a);
  SAME("hostptr inside", acc_hostptr(d + 24) == (void *)(a + 3));
  SAME("deviceptr inside", acc_deviceptr(a + 3) == (void *)(d + 24));
  acc_copyin(a, sizeof a);
  acc_copyout(a, sizeof a);
  SAME("present after 2 copyin, 1 copyout", acc_is_present(a, sizeof a));
  /* What the device holds comes home with the last copyout. */
  acc_memcpy_to_device(d, v, sizeof v);
  acc_copyout(a, sizeof a);
  SAME("a[5] after copyout", a[5]);
  /* create, update self / device. */
  double *db = acc_create(b, sizeof b);
  acc_memcpy_to_device(db, v, sizeof v);
  acc_update_self(b, sizeof b);
  SAME("b[2] after update self", b[2]);
  b[2] = 7;
  acc_update_device(b, sizeof b);
  acc_memcpy_from_device(w, db, sizeof w);
  SAME("device b[2] after update device", w[2]);
  acc_delete(b, sizeof b);
  /* acc_malloc memory. */
  double *m = acc_malloc(sizeof v);
  acc_memcpy_to_device(m, v, sizeof v);
  acc_memcpy_from_device(w, m, sizeof w);
  SAME("acc_malloc round trip w[3]", w[3]);
  acc_free(m);
  /* A structured reference and a dynamic one: the range stays while either holds it. */
  struct __ptxrt_loc loc = { "t.c", 7, 1, "data" };
  struct __ptxrt_map map = { "a[0:16]", a, sizeof a, PTXRT_MAP_COPY, 0 };
  void *r = __ptxrt_data_begin(&loc, &map, 1, NULL);
  acc_copyin(a, sizeof a);
  __ptxrt_data_end(r);
  SAME("present after the region, copyin inside", acc_is_present(a, sizeof a));
  acc_delete(a, sizeof a);
  /* Attachment: the device copy of s.p holds a's device address while attached. */
  for (int i = 0; i < N; i++) a[i] = i;
  s.p = a; s.n = N;
  acc_copyin(a, sizeof a);
  struct S *ds = acc_copyin(&s, sizeof s);
  acc_attach((void **)&s.p);
  double *dp = 0;
  acc_memcpy_from_device(&dp, &ds->p, sizeof dp);
  SAME("attached pointer holds deviceptr(a)", dp == acc_deviceptr(a));
  acc_detach((void **)&s.p);
  acc_memcpy_from_device(&dp, &ds->p, sizeof dp);
  SAME("detached pointer holds a", dp == a);
  SAME("host s.p kept", s.p == a);
  acc_delete(&s, sizeof s);
  acc_delete(a, sizeof a);

  /* Shared memory: the device copy is the host data, every address present. */
  d = acc_copyin(a, sizeof a);
  SHARED("copyin maps to itself", d == (char *)a);
  acc_memcpy_to_device(d, v, sizeof v);
  SHARED("host sees the device write before copyout", a[1] == 101);
  acc_delete(a, sizeof a);
  SHARED("present after delete", acc_is_present(a, sizeof a));
  SHARED("deviceptr of unmapped data is itself", acc_deviceptr(b) == (void *)b);
  return 0;
}
"#;

/// The lines of `o`'s stdout that start with `prefix`.
fn lines(o: &Output, prefix: &str) -> String {
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .filter(|l| l.starts_with(prefix))
        .map(|l| format!("{l}\n"))
        .collect()
}

/// The environments of the two devices: (name, environment).
fn devices() -> [(&'static str, Vec<(&'static str, String)>); 2] {
    let emu = target_dir().join("libptxrt_emu.so");
    assert!(
        emu.is_file(),
        "the emulated device plugin {} is not built (cargo build --workspace)",
        emu.display()
    );
    [
        ("host", vec![("ACC_DEVICE_TYPE", "host".to_string())]),
        (
            "emulated",
            vec![
                ("ACC_DEVICE_TYPE", "nvidia".to_string()),
                ("PTXRT_PLUGIN", emu.to_string_lossy().into_owned()),
            ],
        ),
    ]
}

fn run_on(exe: &std::path::Path, mode: &str, env: &[(&'static str, String)]) -> Output {
    let mut env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    env.push(("PTXRT_NOTIFY", "1"));
    run(exe, mode, &env)
}

const SAME: &str = "\
same: present after copyin: 1
same: a section of it present: 1
same: deviceptr is copyin's: 1
same: hostptr back: 1
same: hostptr inside: 1
same: deviceptr inside: 1
same: present after 2 copyin, 1 copyout: 1
same: a[5] after copyout: 105
same: b[2] after update self: 102
same: device b[2] after update device: 7
same: acc_malloc round trip w[3]: 103
same: present after the region, copyin inside: 1
same: attached pointer holds deviceptr(a): 1
same: detached pointer holds a: 1
same: host s.p kept: 1
";

#[test]
fn the_host_device_keeps_the_present_table_like_any_device() {
    let (dir, exe) = build_c("hostdev", PROG);
    for (name, env) in devices() {
        let o = run_on(&exe, "same", &env);
        assert!(o.status.success(), "{name}: {}", stderr_of(&o));
        assert_eq!(lines(&o, "same:"), SAME, "{name}");
        let on_host = name == "host";
        let flag = |b: bool| i32::from(b);
        let shared = format!(
            "shared: copyin maps to itself: {}\n\
             shared: host sees the device write before copyout: {}\n\
             shared: present after delete: {}\n\
             shared: deviceptr of unmapped data is itself: {}\n",
            flag(on_host),
            flag(on_host),
            flag(on_host),
            flag(on_host)
        );
        assert_eq!(lines(&o, "shared:"), shared, "{name}");
        // Mapping on the host device copies nothing; the emulated one does.
        let transfers = stderr_of(&o)
            .lines()
            .filter(|l| l.contains("upload") || l.contains("download"))
            .count();
        assert_eq!(transfers == 0, on_host, "{name}: {}", stderr_of(&o));
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn data_routine_errors_are_the_same_on_the_host_device() {
    let (dir, exe) = build_c("hostdeverr", PROG);
    for (mode, routine, what) in [
        (
            "map_present",
            "acc_map_data",
            "already present on the device",
        ),
        (
            "unmap_unmapped",
            "acc_unmap_data",
            "not mapped with acc_map_data",
        ),
        ("free_foreign", "acc_free", "not allocated by acc_malloc"),
    ] {
        for (name, env) in devices() {
            let o = run_on(&exe, mode, &env);
            let err = stderr_of(&o);
            assert_eq!(o.status.code(), Some(1), "{name} {mode}: {err}");
            let line = err
                .lines()
                .find(|l| l.contains("error"))
                .unwrap_or_else(|| panic!("{name} {mode}: no error line in {err}"));
            assert!(
                line.contains(routine) && line.contains(what),
                "{name} {mode}: {line}"
            );
        }
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn shutdown_lets_go_of_the_present_table_on_every_device() {
    let (dir, exe) = build_c("hostdevdown", PROG);
    for (name, env) in devices() {
        let o = run_on(&exe, "shutdown", &env);
        assert!(o.status.success(), "{name}: {}", stderr_of(&o));
        assert_eq!(
            lines(&o, "same:"),
            "same: mapped again after shutdown: 1\n",
            "{name}"
        );
    }
    let _ = std::fs::remove_dir_all(dir);
}
