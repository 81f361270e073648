//! The launch-size helpers of `ptxrt.h` that the compiler's host code calls
//! before every launch whose sizes a clause gives: `__ptxrt_size_or` (a size
//! that is not positive means the default) and `__ptxrt_fit_block` (block
//! sizes brought within 1024 threads, shrinking only the dimensions the
//! kernel was not compiled for, workers first; rows wider than a warp at
//! most 15, the named barriers a block has for them), and
//! `__ptxrt_fit_block_to` (within what a kernel's registers allow,
//! `__ptxrt_kernel_threads`). Compiled with `cc` against
//! the header alone and checked against the expected sizes stated here.

use std::path::PathBuf;
use std::process::Command;

const PROG: &str = r#"
#include <stdio.h>
#include <ptxrt.h>

static void fit(unsigned x, unsigned y, unsigned z, unsigned fixed) {
  __ptxrt_u32 b[3] = {x, y, z};
  __ptxrt_fit_block(b, fixed);
  printf("%u %u %u fixed %u -> %u %u %u\n", x, y, z, fixed, b[0], b[1], b[2]);
}

static void fit_to(unsigned x, unsigned y, unsigned z, unsigned fixed, unsigned most) {
  __ptxrt_u32 b[3] = {x, y, z};
  __ptxrt_fit_block_to(b, fixed, most);
  printf("%u %u %u fixed %u to %u -> %u %u %u\n", x, y, z, fixed, most, b[0], b[1], b[2]);
}

int main(void) {
  printf("%u %u %u %u\n", __ptxrt_size_or(0, 7), __ptxrt_size_or(-3, 7),
         __ptxrt_size_or(12, 7), __ptxrt_size_or(1LL << 40, 7));
  fit(128, 16, 1, 1);     /* num_workers(16) with 128 fixed lanes: 8 workers */
  fit(128, 16, 1, 0);     /* nothing fixed: workers shrink first */
  fit(2048, 1, 1, 2);     /* lanes alone too many */
  fit(96, 32, 1, 2);      /* 32 fixed workers: lanes whole warps of 1024/32 */
  fit(64, 64, 1, 1);      /* fixed lanes */
  fit(4, 4, 100, 3);      /* z at most 64 */
  fit(0, 5, 1, 0);        /* 0 is never launched */
  fit(32, 32, 1, 7);      /* fits: unchanged */
  fit(1000, 3, 1, 2);     /* lanes below a warp-size multiple: 320 */
  fit(20, 1024, 1, 2);    /* lanes: at most 1, a power of two */
  fit(64, 16, 1, 1);      /* rows of two warps: at most 15 */
  fit(64, 8, 4, 1);       /* 32 rows of two warps: 3 workers x 4 */
  fit(32, 16, 1, 1);      /* rows of one warp: no limit */
  fit_to(1024, 1, 1, 0, 256);  /* vector_length(v) of 1024, 255 registers: 256 lanes */
  fit_to(128, 8, 1, 1, 256);   /* 128 fixed lanes: num_workers(8) becomes 2 */
  fit_to(1024, 1, 1, 1, 256);  /* fixed lanes are kept (the kernel was compiled for them) */
  fit_to(96, 4, 1, 2, 256);    /* 4 fixed workers: lanes whole warps, 64 */
  fit_to(128, 4, 1, 0, 0);     /* 0: unknown, 1024 */
  return 0;
}
"#;

const EXPECTED: &str = "7 7 12 2147483647
128 16 1 fixed 1 -> 128 8 1
128 16 1 fixed 0 -> 128 8 1
2048 1 1 fixed 2 -> 1024 1 1
96 32 1 fixed 2 -> 32 32 1
64 64 1 fixed 1 -> 64 15 1
4 4 100 fixed 3 -> 4 4 64
0 5 1 fixed 0 -> 1 5 1
32 32 1 fixed 7 -> 32 32 1
1000 3 1 fixed 2 -> 320 3 1
20 1024 1 fixed 2 -> 1 1024 1
64 16 1 fixed 1 -> 64 15 1
64 8 4 fixed 1 -> 64 3 4
32 16 1 fixed 1 -> 32 16 1
1024 1 1 fixed 0 to 256 -> 256 1 1
128 8 1 fixed 1 to 256 -> 128 2 1
1024 1 1 fixed 1 to 256 -> 1024 1 1
96 4 1 fixed 2 to 256 -> 64 4 1
128 4 1 fixed 0 to 0 -> 128 4 1
";

#[test]
fn sizes_from_clauses_fit_the_device() {
    let dir = std::env::temp_dir().join(format!("ptxrt-launch-sizes-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let src = dir.join("sizes.c");
    std::fs::write(&src, PROG).expect("write sizes.c");
    let exe = dir.join("sizes");
    let include = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../include");
    let out = Command::new("cc")
        .args(["-Wall", "-Werror", "-std=c99", "-I"])
        .arg(&include)
        .arg(&src)
        .arg("-o")
        .arg(&exe)
        .output()
        .expect("run cc");
    assert!(
        out.status.success(),
        "cc failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let run = Command::new(&exe).output().expect("run sizes");
    assert!(run.status.success());
    assert_eq!(String::from_utf8_lossy(&run.stdout), EXPECTED);
    let _ = std::fs::remove_dir_all(&dir);
}
