//! SIMT back-end tests: C compute regions through the front end and the
//! scheduler, translated, then run on the emulator (ptxrt-simt) directly
//! with hand-made launches, their results checked against what the C
//! code computes; races and illegal addresses in generated code reported.

use crate::analysis::analyze;
use crate::ir::{GridSize, Module, ParamMode, Scratch};
use ptxrt_simt::{self as simt, launch, Launch, Limits, Memory, RaceMode, RaceState};
use std::collections::HashMap;
use std::sync::Mutex;

/// The scheduled IR of `src`.
fn ir(src: &str) -> Module {
    let mut t = match crate::frontend::translate(src.to_string(), "t.c") {
        Ok(t) => t,
        Err(d) => panic!("{}", d.render(false)),
    };
    crate::schedule::decide_data(&mut t.module, &mut t.remarks).expect("decides");
    if let Err(d) = crate::schedule::plan_levels(&mut t.module) {
        panic!("{}", d.render(false));
    }
    let info = crate::analysis::analyze(&t.module);
    crate::schedule::schedule(&mut t.module, &info, &crate::ir::Target::gpu(90));
    crate::schedule::specialize(&mut t.module);
    assert!(crate::ir::validate(&t.module, true).is_empty());
    t.module
}

/// A kernel argument.
enum Arg {
    /// A scalar's bytes.
    Value(Vec<u8>),
    /// An array's bytes (copied to device memory and back).
    Array(Vec<u8>),
}

fn f64s(v: &[f64]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn as_f64s(b: &[u8]) -> Vec<f64> {
    b.chunks(8)
        .map(|c| f64::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

fn i32s(v: &[i32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn as_i32s(b: &[u8]) -> Vec<i32> {
    b.chunks(4)
        .map(|c| i32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

/// What a run gives back: each array's final bytes, and device printf.
struct Ran {
    arrays: HashMap<String, Vec<u8>>,
    out: String,
}

/// Runs every kernel of `src` in order with `gangs` gangs where the IR
/// leaves the number open (and vector length 32, 4 workers where the block
/// size is open), with races checked as `mode` says.
fn run(src: &str, args: &[(&str, Arg)], gangs: u32, mode: RaceMode) -> Result<Ran, String> {
    run_with(src, args, gangs, mode, &super::Options::default())
}

/// [`run`] with the back end's options `o`.
fn run_with(
    src: &str,
    args: &[(&str, Arg)],
    gangs: u32,
    mode: RaceMode,
    o: &super::Options,
) -> Result<Ran, String> {
    let m = ir(src);
    let bytes = super::write_bytes(&m, &analyze(&m), o).map_err(|e| e.to_string())?;
    let module = simt::decode(&bytes)?;
    let mut mem = Memory::new(1 << 30);
    let prog = simt::link(&[module], &mut mem)?;
    let mut race = RaceState::new();
    let mut addrs: HashMap<String, (u64, usize)> = HashMap::new();
    for (name, a) in args {
        if let Arg::Array(b) = a {
            let at = mem.alloc(b.len() as u64, "allocation")?;
            let p = mem.host_range("test", at, b.len())?;
            // SAFETY: a fresh allocation of that size.
            unsafe { std::ptr::copy_nonoverlapping(b.as_ptr(), p, b.len()) };
            addrs.insert(name.to_string(), (at, b.len()));
        }
    }
    let out = Mutex::new(Vec::new());
    let sink = |b: &[u8]| out.lock().unwrap().extend_from_slice(b);
    for (ki, k) in m.kernels.iter().enumerate() {
        let geometry = k.launch.as_ref().expect("scheduled: a launch");
        let size = |g: &GridSize, open: u32| match g {
            GridSize::Const(n) => *n,
            _ => open,
        };
        let grid = [
            size(&geometry.grid[0], gangs),
            size(&geometry.grid[1], 1),
            size(&geometry.grid[2], 1),
        ];
        let block = [
            size(&geometry.block[0], 32),
            size(&geometry.block[1], 4),
            size(&geometry.block[2], 1),
        ];
        let mut params = vec![];
        for p in &k.params {
            params.push(match &p.mode {
                ParamMode::Scratch => {
                    let s = k.scratch.unwrap_or(Scratch {
                        counters: 0,
                        slots: 0,
                    });
                    let n = Scratch::SLOTS_AT as usize + 8 * s.slots as usize * grid[0] as usize;
                    let at = mem.alloc(n as u64, "allocation")?;
                    let ptr = mem.host_range("test", at, n)?;
                    // SAFETY: a fresh allocation of n bytes.
                    unsafe { std::ptr::write_bytes(ptr, 0, n) };
                    at.to_le_bytes().to_vec()
                }
                _ => match args.iter().find(|(n, _)| *n == p.name) {
                    Some((_, Arg::Value(b))) => b.clone(),
                    Some((n, Arg::Array(_))) => addrs[*n].0.to_le_bytes().to_vec(),
                    None => return Err(format!("no argument for parameter {}", p.name)),
                },
            });
        }
        let l = Launch {
            kernel: ki,
            grid,
            block,
            dyn_shared: 0,
            params: &params,
        };
        launch(
            &prog,
            &mem,
            &mut race,
            mode,
            &Limits::default(),
            &l,
            &sink,
            2,
        )?;
    }
    let mut arrays = HashMap::new();
    for (name, (at, n)) in &addrs {
        let p = mem.host_range("test", *at, *n)?;
        // SAFETY: a checked range.
        arrays.insert(
            name.clone(),
            unsafe { std::slice::from_raw_parts(p, *n) }.to_vec(),
        );
    }
    let out = String::from_utf8(out.into_inner().unwrap()).unwrap();
    Ok(Ran { arrays, out })
}

#[test]
fn saxpy_on_every_launch_size() {
    let src = r#"
void saxpy(int n, double a, double *x, double *y) {
#pragma acc parallel loop copyin(x[0:n]) copy(y[0:n])
    for (int i = 0; i < n; i++)
        y[i] = a * x[i] + y[i];
}"#;
    let n = 1000;
    let x: Vec<f64> = (0..n).map(|i| i as f64 * 0.5).collect();
    let y: Vec<f64> = (0..n).map(|i| 1.0 - i as f64).collect();
    for gangs in [1, 3, 64] {
        let r = run(
            src,
            &[
                ("n", Arg::Value(i32s(&[n]))),
                ("a", Arg::Value(2.5f64.to_le_bytes().to_vec())),
                ("x", Arg::Array(f64s(&x))),
                ("y", Arg::Array(f64s(&y))),
            ],
            gangs,
            RaceMode::Error,
        )
        .unwrap();
        let got = as_f64s(&r.arrays["y"]);
        for i in 0..n as usize {
            let want = 2.5f64.mul_add(x[i], y[i]);
            assert_eq!(got[i], want, "y[{i}] with {gangs} gangs");
        }
    }
}

/// With contraction (the default) `x * y - 1.0` and `1.0 - x * y` are one
/// fma each, rounded once: for x, y = 1 ± 2^-52 they are ∓2^-104, where
/// two roundings (without it, as on the host) give 0.
#[test]
fn multiply_adds_are_fused_unless_told_not_to() {
    let src = r#"
void f(int n, double *x, double *y, double *z) {
#pragma acc parallel loop copyin(x[0:n]) copy(y[0:n], z[0:n])
    for (int i = 0; i < n; i++) {
        z[i] = 1.0 - x[i] * y[i];
        y[i] = x[i] * y[i] - 1.0;
    }
}"#;
    let (x, y) = (1.0 + f64::EPSILON, 1.0 - f64::EPSILON);
    let tiny = f64::EPSILON * f64::EPSILON;
    for (fma, want_y, want_z) in [(true, -tiny, tiny), (false, 0.0, 0.0)] {
        let r = run_with(
            src,
            &[
                ("n", Arg::Value(i32s(&[4]))),
                ("x", Arg::Array(f64s(&[x; 4]))),
                ("y", Arg::Array(f64s(&[y; 4]))),
                ("z", Arg::Array(f64s(&[0.0; 4]))),
            ],
            1,
            RaceMode::Error,
            &super::Options { fma },
        )
        .unwrap();
        assert_eq!(as_f64s(&r.arrays["y"]), [want_y; 4], "fma: {fma}");
        assert_eq!(as_f64s(&r.arrays["z"]), [want_z; 4], "fma: {fma}");
    }
    assert_eq!(x * y - 1.0, 0.0, "the host rounds twice");
}

#[test]
fn reductions_through_shuffles_shared_memory_and_gangs() {
    let src = r#"
void sums(int n, const int *a, int *out) {
    int s = 0, m = -1000;
#pragma acc parallel loop gang vector reduction(+:s) reduction(max:m) copyin(a[0:n])
    for (int i = 0; i < n; i++) {
        s += a[i];
        m = m > a[i] ? m : a[i];
    }
    int r = 0;
#pragma acc parallel loop gang num_workers(4) copyin(a[0:n]) copy(out[0:4])
    for (int g = 0; g < 4; g++) {
        int w = 0;
#pragma acc loop worker vector reduction(+:w)
        for (int j = 0; j < n; j++)
            w += a[j] * (g + 1);
        out[g] = w;
    }
}"#;
    let n = 777;
    let a: Vec<i32> = (0..n).map(|i| (i * 37) % 101 - 50).collect();
    let r = run(
        src,
        &[
            ("n", Arg::Value(i32s(&[n]))),
            ("a", Arg::Array(i32s(&a))),
            ("out", Arg::Array(i32s(&[0; 4]))),
            ("s", Arg::Array(i32s(&[0]))),
            ("m", Arg::Array(i32s(&[-1000]))),
        ],
        5,
        RaceMode::Error,
    )
    .unwrap();
    let total: i32 = a.iter().sum();
    assert_eq!(as_i32s(&r.arrays["s"]), [total]);
    assert_eq!(as_i32s(&r.arrays["m"]), [*a.iter().max().unwrap()]);
    assert_eq!(
        as_i32s(&r.arrays["out"]),
        [total, 2 * total, 3 * total, 4 * total]
    );
}

#[test]
fn control_flow_casts_math_calls_and_printf() {
    let src = r#"
#pragma acc routine seq
static int collatz(int v) {
    int steps = 0;
    while (v != 1) {
        v = v % 2 ? 3 * v + 1 : v / 2;
        steps++;
    }
    return steps;
}
void mix(int n, int *o, double *d) {
#pragma acc serial copyout(o[0:n], d[0:n])
    {
        for (int i = 0; i < n; i++) {
            int k = 0;
            switch (i % 4) {
            case 0: k = 10;
            case 1: k += 1; break;
            case 2: k = -7; break;
            default: k = (unsigned char)(300 + i);
            }
            if (i > 2 && (i & 1) || i == 1) continue_label: k += collatz(i + 1);
            o[i] = k;
            d[i] = sqrt((double)i) + (double)(float)(1.0 / 3.0) + (long)(-2.7);
        }
        printf("done %d %.3f\n", n, sqrt(2.0));
    }
}"#;
    let src = src.replace("continue_label: ", "");
    let n = 9;
    let r = run(
        &format!("double sqrt(double);\nint printf(const char *, ...);\n{src}"),
        &[
            ("n", Arg::Value(i32s(&[n]))),
            ("o", Arg::Array(i32s(&[0; 9]))),
            ("d", Arg::Array(f64s(&[0.0; 9]))),
        ],
        1,
        RaceMode::Error,
    )
    .unwrap();
    fn collatz(mut v: i32) -> i32 {
        let mut s = 0;
        while v != 1 {
            v = if v % 2 != 0 { 3 * v + 1 } else { v / 2 };
            s += 1;
        }
        s
    }
    let want: Vec<i32> = (0..n)
        .map(|i| {
            let mut k = match i % 4 {
                0 => 11,
                1 => 1,
                2 => -7,
                _ => ((300 + i) as u8) as i32,
            };
            if (i > 2 && (i & 1) != 0) || i == 1 {
                k += collatz(i + 1);
            }
            k
        })
        .collect();
    assert_eq!(as_i32s(&r.arrays["o"]), want);
    let d = as_f64s(&r.arrays["d"]);
    for (i, v) in d.iter().enumerate() {
        assert_eq!(
            *v,
            (i as f64).sqrt() + f64::from((1.0f64 / 3.0) as f32) - 2.0
        );
    }
    assert_eq!(r.out, "done 9 1.414\n");
}

#[test]
fn a_racy_region_is_reported_and_a_correct_one_is_not() {
    // Every iteration writes a[0]: two threads store to one element.
    let racy = r#"
void last(int n, int *a) {
#pragma acc parallel loop copy(a[0:n])
    for (int i = 0; i < n; i++)
        a[0] = i;
}"#;
    let args = |n: i32| {
        vec![
            ("n", Arg::Value(i32s(&[n]))),
            ("a", Arg::Array(i32s(&vec![0; n as usize]))),
        ]
    };
    let e = run(racy, &args(64), 2, RaceMode::Error).err().unwrap();
    assert!(e.starts_with("data race in kernel '"), "{e}");
    assert!(
        e.contains("(parallel loop at t.c:3) on 'a' + 0 bytes"),
        "{e}"
    );
    assert!(
        e.contains("a write by block (0,0,0) thread (0,0,0) ('store to a[0]')"),
        "{e}"
    );
    assert!(
        e.contains("a write by block (0,0,0) thread (1,0,0) ('store to a[0]')"),
        "{e}"
    );
    // Without race checks it runs (the last writer wins).
    assert!(run(racy, &args(64), 2, RaceMode::Off).is_ok());
    // Each iteration its own element: no race.
    let fine = racy.replace("a[0] = i", "a[i] = i");
    let r = run(&fine, &args(64), 2, RaceMode::Error).unwrap();
    assert_eq!(as_i32s(&r.arrays["a"]), (0..64).collect::<Vec<_>>());
}

#[test]
fn an_out_of_bounds_read_names_the_variable() {
    let src = r#"
void shift(int n, const double *x, double *y) {
#pragma acc parallel loop copyin(x[0:n]) copyout(y[0:n])
    for (int i = 0; i < n; i++)
        y[i] = x[i + 1];
}"#;
    let e = run(
        src,
        &[
            ("n", Arg::Value(i32s(&[16]))),
            ("x", Arg::Array(f64s(&[1.0; 16]))),
            ("y", Arg::Array(f64s(&[0.0; 16]))),
        ],
        1,
        RaceMode::Error,
    )
    .err()
    .unwrap();
    assert!(
        e.contains("reads 8 bytes at") && e.contains("in 'load of x[i + 1]': 0 bytes past the end of a 128-byte allocation ('x' + 128 bytes (a 128-byte allocation))"),
        "{e}"
    );
}

#[test]
fn the_text_form_names_kernels_and_sites() {
    let m = ir(r#"
void add(int n, int *a) {
#pragma acc parallel loop copy(a[0:n])
    for (int i = 0; i < n; i++)
        a[i] += 1;
}"#);
    let text = super::write_text(&m, &analyze(&m), &super::Options::default()).unwrap();
    assert!(text.contains("\"parallel loop\" line 3"), "{text}");
    assert!(text.contains("(n value 4, a deviceptr 8)"), "{text}");
    assert!(text.contains("; store to a[i]"), "{text}");
    assert!(text.contains("; load of a[i]"), "{text}");
}
