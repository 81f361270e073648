//! Unit tests of the CUDA-C writer on IR written as text: C's integer
//! promotions undone for narrow types, literals of every type, the three
//! forms of a `While`, `switch` labels, atomics on bits, names.

use super::{write_cuda, Options};
use crate::ir::read_module;

/// The CUDA C of the IR module `text` (no `#line`).
fn cuda(text: &str) -> String {
    let m = read_module(text).unwrap_or_else(|e| panic!("{}:{}: {}", e.line, e.col, e.message));
    let info = crate::analysis::analyze(&m);
    write_cuda(&m, &info, &Options::default()).unwrap()
}

/// A one-thread kernel with the given locals and body.
fn kernel(locals: &str, body: &str) -> String {
    cuda(&format!(
        "module \"t.c\"\n\nkernel @k serial \"serial\" at t.c:1:1\n  launch grid=(1, 1, 1) block=(1, 1, 1)\n  param %0 p: ptr<f32> deviceptr\n{locals}{{\n{body}\n  }}\n"
    ))
}

fn has(text: &str, want: &str) {
    assert!(text.contains(want), "no `{want}` in:\n{text}");
}

#[test]
fn narrow_integers_wrap_and_literals_have_their_type() {
    let t = kernel(
        "  local %1 c: i8\n  local %2 u: u16\n  local %3 i: i32\n  local %4 l: i64\n  local %5 b: bool\n  local %6 q: u64\n",
        "    %1 c = add.i8(%1 c, 127.i8)\n    %2 u = mul.u16(%2 u, 65535.u16)\n    %3 i = -2147483648.i32\n    %4 l = -9223372036854775808.i64\n    %5 b = bitnot.bool(%5 b)\n    %1 c = and.i8(%1 c, -1.i8)\n    %6 q = 18446744073709551615.u64",
    );
    has(&t, "c = (signed char)(c + (signed char)127);");
    has(&t, "u = (unsigned short)(u * (unsigned short)65535);");
    has(&t, "i = -2147483647 - 1;");
    has(&t, "l = -9223372036854775807LL - 1;");
    has(&t, "b = !b;");
    // Bitwise operations stay in range: no conversion.
    has(&t, "c = c & (signed char)-1;");
    has(&t, "q = 18446744073709551615ULL;");
    has(
        &t,
        "extern \"C\" __global__ void __launch_bounds__(1) k(float *p /* read only */)",
    );
}

#[test]
fn while_forms() {
    let t = kernel(
        "  local %1 i: i32\n  local %2 j: i32\n",
        "    while lt.i32(%1 i, 4) {\n      %2 j = 0\n    }\n    step {\n      %1 i = add.i32(%1 i, 1)\n      %2 j = %1 i\n    }\n    while lt.i32(%1 i, 8) {\n      if eq.i32(%1 i, 5) {\n        continue\n      }\n    }\n    step {\n      fence\n      %1 i = add.i32(%1 i, 1)\n    }\n    while lt.i32(%2 j, 1) {\n      break\n    }",
    );
    has(&t, "for (; i < 4; i = i + 1, j = i) {");
    has(&t, "while (i < 8) {");
    has(&t, "goto __accc_step0;");
    has(
        &t,
        "        __accc_step0:;\n        __threadfence();\n        i = i + 1;\n    }",
    );
    has(&t, "while (j < 1) {\n        break;\n    }");
}

#[test]
fn switch_labels_once_and_a_statement_after_the_last() {
    let t = kernel(
        "  local %1 i: i32\n",
        "    switch %1 i {\n      case 1, case 1: {\n        %1 i = 2\n      }\n      case -3, default: {\n      }\n    }",
    );
    has(
        &t,
        "switch (i) {\n        case 1:\n        i = 2;\n        case -3:\n        default:\n        break;\n    }",
    );
}

#[test]
fn compare_and_swap_on_bits_and_volatile_atomic_accesses() {
    let t = kernel(
        "  local %1 old: f32\n  local %2 ok: bool\n  local %3 v: f32\n",
        "    %1 old, %2 ok = atomic.cas(%0 p, %1 old, 2.0.f32)\n    %3 v = atomic.load(%0 p)\n    atomic.store(%0 p, %3 v)\n    %3 v = atomic.sub(%0 p, 1.0.f32)",
    );
    // The expected bits are read before `old` changes.
    has(&t, "unsigned int __accc_e = __float_as_uint(old);");
    has(
        &t,
        "unsigned int __accc_o = atomicCAS((unsigned int *)p, __accc_e, __float_as_uint(2.0f));",
    );
    has(&t, "old = __uint_as_float(__accc_o);");
    has(&t, "ok = __accc_o == __accc_e;");
    has(&t, "v = *(float volatile *)p;");
    has(&t, "*(float volatile *)p = v;");
    has(&t, "v = (float)atomicAdd(p, -1.0f);");
}

#[test]
fn names_are_legal_distinct_and_leave_the_output_s_own_alone() {
    let t = kernel(
        "  local %1 min: i32\n  local %2 a.b: i32\n  local %3 a.b: i32\n  local %4 class: i32\n",
        "    %1 min = max.i32(%2 a.b, %3 a.b)\n    %4 class = min.i32(%1 min, 0)",
    );
    has(&t, "min_1 = max(a_b, a_b_1);");
    has(&t, "class_ = min(min_1, 0);");
}

#[test]
fn routines_return_on_every_path_and_blobs_are_structs() {
    let t = cuda(
        "module \"t.c\"\n\nfunction export Seq @f(%0 x: ptr<blob<16, 8>>) -> f64 at t.c:1:1\n  local %1 y: blob<16, 8>\n{\n    copy 16 bytes &%1 y <- %0 x\n    if eq.u64(cast.ptr<blob<16, 8>>.u64(%0 x), 0) {\n      return 1.0.f64\n    }\n  }\n",
    );
    has(
        &t,
        "struct __align__(8) __accc_blob_16_8 { unsigned char b[16]; };",
    );
    has(
        &t,
        "extern \"C\" __device__ double f(struct __accc_blob_16_8 *x);",
    );
    has(&t, "memcpy(&y, x, 16ULL);");
    has(&t, "    return (double)0;\n}");
}

#[test]
fn parameters_keep_the_names_their_bodies_use() {
    // Local %0 is named like parameter %1 and comes first.
    let t = cuda(
        "module \"t.c\"\n\nfunction internal Seq @__accc_r_f(%1 x: i32) -> i32 at t.c:1:1\n  local %0 x: i32\n{\n    %0 x = 1\n    return add.i32(%0 x, %1 x)\n  }\n",
    );
    has(&t, "static __device__ int __accc_r_f(int x_1);");
    has(&t, "static __device__ int __accc_r_f(int x_1)\n{\n    int x;\n    x = 1;\n    return x + x_1;\n}");
}
